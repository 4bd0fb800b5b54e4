"""tf.train: optimizers, learning-rate schedules, the global step, cluster description and
device placement, checkpoints (Saver, the `checkpoint` state file, checkpoint readers)."""
from tfc.train.device_setter import replica_device_setter
from tfc.train.server_lib import ClusterSpec, Server, shutdown_server
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


# checkpoint names -> the module defining them (loaded on first use)
_CHECKPOINT_NAMES = {
    "ExponentialMovingAverage": "moving_averages",
    "warm_start": "warm_starting",
    "VocabInfo": "warm_starting",
    "AdadeltaOptimizer": "more_optimizers",
    "FtrlOptimizer": "more_optimizers",
    "ProximalAdagradOptimizer": "more_optimizers",
    "ProximalGradientDescentOptimizer": "more_optimizers",
    "match_filenames_once": "input_files",
    "basic_train_loop": "basic_loops",
    "checkpoints_iterator": "basic_loops",
    "Saver": "saver",
    "checkpoint_exists": "checkpoint_management",
    "generate_checkpoint_state_proto": "checkpoint_management",
    "get_checkpoint_mtimes": "checkpoint_management",
    "get_checkpoint_state": "checkpoint_management",
    "latest_checkpoint": "checkpoint_management",
    "remove_checkpoint": "checkpoint_management",
    "update_checkpoint_state": "checkpoint_management",
    "NewCheckpointReader": "checkpoint_utils",
    "init_from_checkpoint": "checkpoint_utils",
    "list_variables": "checkpoint_utils",
    "load_checkpoint": "checkpoint_utils",
    "load_variable": "checkpoint_utils",
    "Coordinator": "coordinator",
    "LooperThread": "coordinator",
    "SessionManager": "session_manager",
    "Supervisor": "supervisor",
    "MonitoredTrainingSession": "monitored_session",
    "MonitoredSession": "monitored_session",
    "SingularMonitoredSession": "monitored_session",
    "Scaffold": "monitored_session",
    "SessionCreator": "monitored_session",
    "ChiefSessionCreator": "monitored_session",
    "WorkerSessionCreator": "monitored_session",
    "SessionRunHook": "session_run_hook",
    "SessionRunArgs": "session_run_hook",
    "SessionRunContext": "session_run_hook",
    "SessionRunValues": "session_run_hook",
    "StopAtStepHook": "basic_session_run_hooks",
    "CheckpointSaverHook": "basic_session_run_hooks",
    "CheckpointSaverListener": "basic_session_run_hooks",
    "SummarySaverHook": "basic_session_run_hooks",
    "LoggingTensorHook": "basic_session_run_hooks",
    "NanTensorHook": "basic_session_run_hooks",
    "NanLossDuringTrainingError": "basic_session_run_hooks",
    "StepCounterHook": "basic_session_run_hooks",
    "FinalOpsHook": "basic_session_run_hooks",
    "FeedFnHook": "basic_session_run_hooks",
    "GlobalStepWaiterHook": "basic_session_run_hooks",
    "ProfilerHook": "basic_session_run_hooks",
    "SecondOrStepTimer": "basic_session_run_hooks",
    "QueueRunner": "queue_runner_impl",
    "SyncReplicasOptimizer": "sync_replicas_optimizer",
    "add_queue_runner": "queue_runner_impl",
    "start_queue_runners": "queue_runner_impl",
    "limit_epochs": "input",
    "input_producer": "input",
    "string_input_producer": "input",
    "range_input_producer": "input",
    "slice_input_producer": "input",
    "batch": "input",
    "maybe_batch": "input",
    "batch_join": "input",
    "maybe_batch_join": "input",
    "shuffle_batch": "input",
    "maybe_shuffle_batch": "input",
    "shuffle_batch_join": "input",
    "maybe_shuffle_batch_join": "input",
}
# tf.train.summary_iterator lives with the events-file writer
_SUMMARY_NAMES = ("summary_iterator",)


# tf.train.Example and its parts (messages of proto/example.proto, feature.proto)
_EXAMPLE_PROTOS = ("Example", "SequenceExample", "Features", "Feature", "FeatureList",
                   "FeatureLists", "BytesList", "FloatList", "Int64List")


def __getattr__(name):
  if name == "SummaryWriterCache":
    from tfc import summary as _summary  # pylint: disable=g-import-not-at-top
    value = _summary.FileWriterCache
    globals()[name] = value
    return value
  if name == "queue_runner":
    # import_module: `from tfc.train import queue_runner` would ask this __getattr__ again
    import importlib  # pylint: disable=g-import-not-at-top
    queue_runner = importlib.import_module("tfc.train.queue_runner")
    globals()[name] = queue_runner
    return queue_runner
  if name in _SUMMARY_NAMES:
    from tfc import summary as _summary  # pylint: disable=g-import-not-at-top
    value = getattr(_summary, name)
    globals()[name] = value
    return value
  if name in _CHECKPOINT_NAMES:
    import importlib  # pylint: disable=g-import-not-at-top
    value = getattr(importlib.import_module("tfc.train." + _CHECKPOINT_NAMES[name]), name)
    globals()[name] = value
    return value
  # the MetaGraphDef functions load on first use (keeps `import tfc` fast)
  if name in ("export_meta_graph", "import_meta_graph"):
    from tfc.framework import meta_graph  # pylint: disable=g-import-not-at-top
    value = getattr(meta_graph, name)
    globals()[name] = value
    return value
  if name in ("ClusterDef", "JobDef", "ServerDef", "SaverDef") or name in _EXAMPLE_PROTOS:
    from tfc import protos  # pylint: disable=g-import-not-at-top
    value = getattr(protos, name)
    globals()[name] = value
    return value
  raise AttributeError("module 'tfc.train' has no attribute %r" % name)


def __dir__():
  return sorted(set(globals()) | {"export_meta_graph", "import_meta_graph"} |
                set(_CHECKPOINT_NAMES) | set(_SUMMARY_NAMES) | {"SummaryWriterCache"} | set(_EXAMPLE_PROTOS))
  return sorted(set(globals()) | {"export_meta_graph", "import_meta_graph", "queue_runner"} |
                set(_CHECKPOINT_NAMES) | set(_SUMMARY_NAMES) | set(_EXAMPLE_PROTOS))
