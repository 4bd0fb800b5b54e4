"""tf.tables_initializer: runs what the graph's lookup tables registered for
initialization (GraphKeys.TABLE_INITIALIZERS)."""
from tfc.framework import ops as _ops
from tfc.ops import control_flow_ops as _control_flow_ops


def tables_initializer(name="init_all_tables"):
  """One op running every op in the TABLE_INITIALIZERS collection (a NoOp when empty)."""
  initializers = _ops.get_collection(_ops.GraphKeys.TABLE_INITIALIZERS)
  if initializers:
    return _control_flow_ops.group(*initializers, name=name)
  return _control_flow_ops.no_op(name=name)


initialize_all_tables = tables_initializer
