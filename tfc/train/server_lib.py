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


def _make_server_def(server_or_cluster_def, job_name, task_index, protocol, config):
  """Builds a ServerDef from Server's arguments (TF 1.15's rules)."""
  if isinstance(server_or_cluster_def, _protos.ServerDef):
    server_def = _protos.ServerDef()
    server_def.CopyFrom(server_or_cluster_def)
    if job_name is not None:
      server_def.job_name = job_name
    if task_index is not None:
      server_def.task_index = task_index
    if protocol is not None:
      server_def.protocol = protocol
    if config is not None:
      server_def.default_session_config.MergeFrom(config)
    return server_def
  try:
    cluster_spec = ClusterSpec(server_or_cluster_def)
  except TypeError:
    raise TypeError("Could not convert `server_or_cluster_def` to a "
                    "`tf.train.ServerDef` or `tf.train.ClusterSpec`.")
  if job_name is None:
    if len(cluster_spec.jobs) == 1:
      job_name = cluster_spec.jobs[0]
    else:
      raise ValueError("Must specify an explicit `job_name`.")
  if task_index is None:
    task_indices = cluster_spec.task_indices(job_name)
    if len(task_indices) == 1:
      task_index = task_indices[0]
    else:
      raise ValueError("Must specify an explicit `task_index`.")
  if protocol is None:
    protocol = "grpc"
  server_def = _protos.ServerDef(cluster=cluster_spec.as_cluster_def(), job_name=job_name,
                                 task_index=task_index, protocol=protocol)
  if config is not None:
    server_def.default_session_config.MergeFrom(config)
  return server_def


class Server(object):
  """An in-process TensorFlow server, for use in distributed training.

  A Server runs tensorflow.MasterService and tensorflow.WorkerService on one
  gRPC port for one task of a cluster (TF 1.15 `tf.train.Server`).
  """

  def __init__(self, server_or_cluster_def, job_name=None, task_index=None, protocol=None,
               config=None, start=True):
    self._server_def = _make_server_def(server_or_cluster_def, job_name, task_index, protocol,
                                        config)
    if self._server_def.protocol not in ("", "grpc"):
      raise ValueError("tfc supports only the 'grpc' protocol, not %r" % self._server_def.protocol)
    from tfc import _tfc
    self._server = _tfc.Server(self._server_def.SerializeToString())
    if start:
      self.start()

  def start(self):
    """Starts this server (binds its port and serves)."""
    self._server.start()

  def join(self):
    """Blocks until the server has shut down.

    A `shutdown_server(target)` call from another process also ends `join()`
    (the server stops first), so a parameter server's program can exit when
    training is over.
    """
    self._server.join()

  def stop(self):
    """Stops serving (tfc addition; TF 1.15 servers cannot be stopped)."""
    self._server.stop()

  @property
  def server_def(self):
    """The `tf.train.ServerDef` for this server."""
    return self._server_def

  @property
  def target(self):
    """The target for a `tf.Session` to connect to this server: "grpc://host:port"."""
    return "grpc://" + self._server.address

  @staticmethod
  def create_local_server(config=None, start=True):
    """A new single-process cluster server on a port picked by the system."""
    return Server({"localhost": ["localhost:0"]}, protocol="grpc", config=config, start=start)


def shutdown_server(target, timeout_in_ms=10000):
  """Asks the tfc server at `target` ("grpc://host:port" or "host:port") to stop.

  tfc addition (TF 1.15 servers cannot be stopped remotely): the chief calls it
  for each parameter server once training is over, so their `Server.join()`
  (and `python -m tfc.server`) return and the processes exit with status 0, as a
  Kubernetes Job needs. Returns True when the server acknowledged (or was
  already gone: an unreachable server counts as stopped); raises the
  `tf.errors` class of any other failure (UnauthenticatedError without the
  cluster's TFC_AUTH_TOKEN, UnimplementedError from a real TensorFlow server).
  """
  from tfc import _tfc
  from tfc import errors
  address = target[len("grpc://"):] if target.startswith("grpc://") else target
  try:
    _tfc._grpc_call(address, "/tfc.ControlService/Shutdown", b"", int(timeout_in_ms))
  except errors.UnavailableError:
    return True
  return True
