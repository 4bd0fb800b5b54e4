"""tf.train.replica_device_setter (TF 1.15 round-robin placement of variables on ps tasks)."""
from tfc.framework import device as _pydev
from tfc.train import server_lib as _server_lib

STANDARD_PS_OPS = ("Variable", "VariableV2", "AutoReloadVariable", "MutableHashTable",
                   "MutableHashTableV2", "MutableHashTableOfTensors",
                   "MutableHashTableOfTensorsV2", "MutableDenseHashTable",
                   "MutableDenseHashTableV2", "VarHandleOp",
                   "BoostedTreesEnsembleResourceHandleOp",
                   "BoostedTreesQuantileStreamResourceHandleOp",
                   "ResourceConditionalAccumulator", "DecisionTreeResource")


class _RoundRobinStrategy(object):
  """Returns the next ps task index for placement in round-robin order."""

  def __init__(self, num_tasks):
    self._num_tasks = num_tasks
    self._next_task = 0

  def __call__(self, unused_op):
    task = self._next_task
    self._next_task = (self._next_task + 1) % self._num_tasks
    return task


class _ReplicaDeviceChooser(object):
  def __init__(self, ps_tasks, ps_device, worker_device, merge_devices, ps_ops, ps_strategy):
    self._ps_tasks = ps_tasks
    self._ps_device = ps_device
    self._worker_device = worker_device
    self._merge_devices = merge_devices
    self._ps_ops = ps_ops
    self._ps_strategy = ps_strategy

  def device_function(self, op):
    if not self._merge_devices and op.device:
      return op.device
    current_device = _pydev.DeviceSpec.from_string(op.device or "")
    if self._ps_tasks and self._ps_device and op.type in self._ps_ops:
      ps_device = _pydev.DeviceSpec.from_string(self._ps_device)
      current_job, ps_job = current_device.job, ps_device.job
      if ps_job and (not current_job or current_job == ps_job):
        ps_device = ps_device.replace(task=self._ps_strategy(op))
      ps_device = ps_device.make_merged_spec(current_device)
      return ps_device.to_string()
    worker_device = _pydev.DeviceSpec.from_string(self._worker_device or "")
    worker_device = worker_device.make_merged_spec(current_device)
    return worker_device.to_string()


def replica_device_setter(ps_tasks=0, ps_device="/job:ps", worker_device="/job:worker",
                          merge_devices=True, cluster=None, ps_ops=None, ps_strategy=None):
  """A device function placing variables on ps tasks (round-robin) and other ops on workers.

  Returns None when there is no ps task (no cluster ps job and ps_tasks == 0).
  """
  if cluster is not None:
    if isinstance(cluster, _server_lib.ClusterSpec):
      cluster_spec = cluster.as_dict()
    else:
      cluster_spec = _server_lib.ClusterSpec(cluster).as_dict()
    ps_job_name = _pydev.DeviceSpec.from_string(ps_device).job
    if ps_job_name not in cluster_spec or cluster_spec[ps_job_name] is None:
      return None
    ps_tasks = len(cluster_spec[ps_job_name])
  if ps_tasks == 0:
    return None
  if ps_ops is None:
    ps_ops = list(STANDARD_PS_OPS)
  if ps_strategy is None:
    ps_strategy = _RoundRobinStrategy(ps_tasks)
  if not callable(ps_strategy):
    raise TypeError("ps_strategy must be callable")
  chooser = _ReplicaDeviceChooser(ps_tasks, ps_device, worker_device, merge_devices, ps_ops,
                                  ps_strategy)
  return chooser.device_function
