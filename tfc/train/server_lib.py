"""tf.train.ClusterSpec (TF 1.15 semantics)."""
from tfc import _tfc
from tfc import protos as _protos


class ClusterSpec(_tfc.ClusterSpec):
  """Represents a cluster as a set of "tasks", organized into "jobs".

  The jobs and tasks live in the C type tfc._tfc.ClusterSpec (queries,
  equality, printing); this class accepts TF's input forms — a dict of job
  names to address lists or to sparse {task index: address} dicts, a
  `ClusterDef`, or another ClusterSpec — and adds `as_cluster_def()`.
  """

  def __init__(self, cluster):
    if isinstance(cluster, dict):
      jobs = {}
      for job_name, tasks in cluster.items():
        if isinstance(tasks, (list, tuple)):
          job_tasks = {i: task for i, task in enumerate(tasks)}
        elif isinstance(tasks, dict):
          job_tasks = {int(i): task for i, task in tasks.items()}
        else:
          raise TypeError("The tasks for job %r must be a list or a dictionary from integers "
                          "to strings." % job_name)
        jobs[job_name] = job_tasks
      super(ClusterSpec, self).__init__(jobs)
      self._cluster_def = self._make_cluster_def()
    elif isinstance(cluster, _protos.ClusterDef):
      super(ClusterSpec, self).__init__(
          {job_def.name: dict(job_def.tasks.items()) for job_def in cluster.job})
      self._cluster_def = cluster
    elif isinstance(cluster, _tfc.ClusterSpec):
      super(ClusterSpec, self).__init__(cluster._jobs_dict())  # pylint: disable=protected-access
      self._cluster_def = self._make_cluster_def()
    else:
      raise TypeError("`cluster` must be a dictionary mapping one or more job names to lists "
                      "of network addresses, or a `ClusterDef` protocol buffer")

  __nonzero__ = _tfc.ClusterSpec.__bool__

  def as_cluster_def(self):
    """The `tf.train.ClusterDef` protocol buffer of this cluster (jobs sorted by name)."""
    return self._cluster_def

  def _make_cluster_def(self):
    cluster_def = _protos.ClusterDef()
    for job_name, tasks in sorted(self._jobs_dict().items()):
      job_def = cluster_def.job.add()
      job_def.name = job_name
      for i, task_address in sorted(tasks.items()):
        job_def.tasks[i] = task_address
    return cluster_def


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
