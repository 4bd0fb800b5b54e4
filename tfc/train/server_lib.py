"""tf.train.ClusterSpec (TF 1.15 semantics)."""
from tfc import protos as _protos


class ClusterSpec(object):
  """Represents a cluster as a set of "tasks", organized into "jobs"."""

  def __init__(self, cluster):
    if isinstance(cluster, dict):
      self._cluster_spec = {}
      for job_name, tasks in cluster.items():
        if isinstance(tasks, (list, tuple)):
          job_tasks = {i: task for i, task in enumerate(tasks)}
        elif isinstance(tasks, dict):
          job_tasks = {int(i): task for i, task in tasks.items()}
        else:
          raise TypeError("The tasks for job %r must be a list or a dictionary from integers "
                          "to strings." % job_name)
        self._cluster_spec[job_name] = job_tasks
      self._make_cluster_def()
    elif isinstance(cluster, _protos.ClusterDef):
      self._cluster_def = cluster
      self._cluster_spec = {}
      for job_def in self._cluster_def.job:
        self._cluster_spec[job_def.name] = {i: t for i, t in job_def.tasks.items()}
    elif isinstance(cluster, ClusterSpec):
      self._cluster_def = _protos.ClusterDef()
      self._cluster_def.MergeFrom(cluster.as_cluster_def())
      self._cluster_spec = {}
      for job_def in self._cluster_def.job:
        self._cluster_spec[job_def.name] = {i: t for i, t in job_def.tasks.items()}
    else:
      raise TypeError("`cluster` must be a dictionary mapping one or more job names to lists "
                      "of network addresses, or a `ClusterDef` protocol buffer")

  def __bool__(self):
    return bool(self._cluster_spec)

  __nonzero__ = __bool__

  def __eq__(self, other):
    if not isinstance(other, ClusterSpec):
      return NotImplemented
    return self._cluster_spec == other._cluster_spec

  def __ne__(self, other):
    return not self == other

  def __str__(self):
    key_values = self.as_dict()
    string_items = [repr(k) + ": " + repr(key_values[k]) for k in sorted(key_values)]
    return "ClusterSpec({" + ", ".join(string_items) + "})"

  __repr__ = __str__

  def as_dict(self):
    ret = {}
    for job in self.jobs:
      task_indices = self.task_indices(job)
      if not task_indices:
        ret[job] = {}
      elif max(task_indices) + 1 == len(task_indices):
        ret[job] = self.job_tasks(job)
      else:
        ret[job] = {i: self.task_address(job, i) for i in task_indices}
    return ret

  def as_cluster_def(self):
    return self._cluster_def

  @property
  def jobs(self):
    return list(self._cluster_spec.keys())

  def num_tasks(self, job_name):
    try:
      job = self._cluster_spec[job_name]
    except KeyError:
      raise ValueError("No such job in cluster: %r" % job_name)
    return len(job)

  def task_indices(self, job_name):
    try:
      job = self._cluster_spec[job_name]
    except KeyError:
      raise ValueError("No such job in cluster: %r" % job_name)
    return list(sorted(job.keys()))

  def task_address(self, job_name, task_index):
    try:
      job = self._cluster_spec[job_name]
    except KeyError:
      raise ValueError("No such job in cluster: %r" % job_name)
    try:
      return job[task_index]
    except KeyError:
      raise ValueError("No task with index %r in job %r" % (task_index, job_name))

  def job_tasks(self, job_name):
    try:
      job = self._cluster_spec[job_name]
    except KeyError:
      raise ValueError("No such job in cluster: %r" % job_name)
    ret = [None for _ in range(max(job.keys()) + 1)] if job else []
    for i, task in job.items():
      ret[i] = task
    return ret

  def _make_cluster_def(self):
    self._cluster_def = _protos.ClusterDef()
    for job_name, tasks in sorted(self._cluster_spec.items()):
      if not isinstance(job_name, str):
        raise TypeError("Job name %r must be bytes or unicode" % job_name)
      job_def = self._cluster_def.job.add()
      job_def.name = job_name
      for i, task_address in sorted(tasks.items()):
        if isinstance(task_address, bytes):
          task_address = task_address.decode()
        if not isinstance(task_address, str):
          raise TypeError("Task address %r must be bytes or unicode" % task_address)
        job_def.tasks[i] = task_address


class Server(object):
  """An in-process TensorFlow server (needs the distributed runtime)."""

  def __init__(self, server_or_cluster_def, job_name=None, task_index=None, protocol=None,
               config=None, start=True):
    raise NotImplementedError("tfc: tf.train.Server needs the distributed runtime, which is "
                              "not available yet")

  @staticmethod
  def create_local_server(config=None, start=True):
    raise NotImplementedError("tfc: tf.train.Server needs the distributed runtime, which is "
                              "not available yet")
