"""tf.train: optimizers, learning-rate schedules, the global step, cluster description and
device placement, checkpoints (Saver, the `checkpoint` state file, checkpoint readers)."""
from tfc.train.device_setter import replica_device_setter
from tfc.train.server_lib import ClusterSpec, Server
from tfc.train.optimizer import Optimizer
from tfc.train.gradient_descent import GradientDescentOptimizer
from tfc.train.momentum import MomentumOptimizer
from tfc.train.adam import AdamOptimizer
from tfc.train.adagrad import AdagradOptimizer
from tfc.train.rmsprop import RMSPropOptimizer
from tfc.train.learning_rate_decay import (exponential_decay, natural_exp_decay,
                                           inverse_time_decay, polynomial_decay,
                                           piecewise_constant)
from tfc.train.learning_rate_decay import (piecewise_constant_decay, cosine_decay,  # noqa: F401
                                           cosine_decay_restarts, linear_cosine_decay,
                                           noisy_linear_cosine_decay)
from tfc.train.training_util import (global_step, get_global_step, create_global_step,
                                     get_or_create_global_step, assert_global_step)
from tfc.framework.graph_io import write_graph  # noqa: E402,F401
from tfc.train.saver import Saver  # noqa: E402,F401
from tfc.train.checkpoint_management import (  # noqa: E402,F401
    checkpoint_exists, generate_checkpoint_state_proto, get_checkpoint_mtimes,
    get_checkpoint_state, latest_checkpoint, remove_checkpoint, update_checkpoint_state)
from tfc.train.checkpoint_utils import (  # noqa: E402,F401
    NewCheckpointReader, init_from_checkpoint, list_variables, load_checkpoint, load_variable)


def __getattr__(name):
  # the MetaGraphDef functions load on first use (keeps `import tfc` fast)
  if name in ("export_meta_graph", "import_meta_graph"):
    from tfc.framework import meta_graph  # pylint: disable=g-import-not-at-top
    value = getattr(meta_graph, name)
    globals()[name] = value
    return value
  if name in ("ClusterDef", "JobDef", "ServerDef", "SaverDef"):
    from tfc import protos  # pylint: disable=g-import-not-at-top
    value = getattr(protos, name)
    globals()[name] = value
    return value
  raise AttributeError("module 'tfc.train' has no attribute %r" % name)


def __dir__():
  return sorted(set(globals()) | {"export_meta_graph", "import_meta_graph"})
