"""tf.VariableSynchronization and tf.VariableAggregation: how a variable's replicas
are kept in step and how updates from several replicas combine. tfc's variables
live on one device each, so the values are recorded on the variable and checked
as TF checks them (ON_READ variables must not be trainable)."""
import enum


class VariableSynchronization(enum.Enum):
  """When a distributed variable is synchronized (AUTO, NONE, ON_WRITE, ON_READ)."""
  AUTO = 0
  NONE = 1
  ON_WRITE = 2
  ON_READ = 3


class VariableAggregation(enum.Enum):
  """How updates of several replicas to one variable combine (TF 1.x's names,
  ONLY_FIRST_TOWER among them)."""
  NONE = 0
  SUM = 1
  MEAN = 2
  ONLY_FIRST_REPLICA = 3
  ONLY_FIRST_TOWER = 3  # the TF 1.x spelling (an alias of ONLY_FIRST_REPLICA)


def validate(synchronization, aggregation, trainable, name=None):
  """Checks the pair as tf.Variable does; returns (synchronization, aggregation, trainable)
  with the defaults filled in (a None trainable becomes False for ON_READ, else True)."""
  if synchronization is None:
    synchronization = VariableSynchronization.AUTO
  if aggregation is None:
    aggregation = VariableAggregation.NONE
  if not isinstance(synchronization, VariableSynchronization):
    raise ValueError("Invalid variable synchronization mode: %s for variable: %s"
                     % (synchronization, name))
  if not isinstance(aggregation, VariableAggregation):
    raise ValueError("Invalid variable aggregation mode: %s for variable: %s"
                     % (aggregation, name))
  if trainable is None:
    trainable = synchronization != VariableSynchronization.ON_READ
  elif synchronization == VariableSynchronization.ON_READ and trainable:
    raise ValueError("Synchronization value can be set to VariableSynchronization.ON_READ "
                     "only for non-trainable variables. You have specified trainable=True "
                     "and synchronization=VariableSynchronization.ON_READ.")
  return synchronization, aggregation, trainable
