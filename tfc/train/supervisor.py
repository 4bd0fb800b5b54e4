"""tf.train.Supervisor (TF 1.15): a session that recovers from its logdir, and
the chief's background services.

    sv = tf.train.Supervisor(logdir="/tmp/run")
    with sv.managed_session() as sess:
      while not sv.should_stop():
        sess.run(train_op)

At construction the Supervisor picks its ops from the graph's collections (or
makes the defaults: report_uninitialized_variables as ready op,
global_variables_initializer as init op, a Saver of all variables, merge_all
as summary op, the tensor `global_step:0` of an int32/int64 variable as the
global step), opens a FileWriter on `logdir` and finalizes the graph.

`prepare_or_wait_for_session` (the chief) restores the newest checkpoint of
logdir through a SessionManager, or runs init_op and init_fn; then writes
`graph.pbtxt`, the graph and meta-graph events, SessionLog START, and starts
the services as daemon LooperThreads on the Supervisor's Coordinator: a
checkpoint every `save_model_secs` (the first at once: `model.ckpt-<step>`),
the summary op and `global_step/sec` every `save_summaries_secs`, and the
queue runners of the QUEUE_RUNNERS collection. `stop` ends them, writes
SessionLog STOP and closes the writer. A non-chief waits for the chief's
initialization and starts no services but the queue runners.
"""
import contextlib as _contextlib
import os as _os
import time as _time

from tfc import dtypes as _dtypes
from tfc import logging as _logging
from tfc import protos as _protos
from tfc.framework import ops as _ops
from tfc.train import coordinator as _coordinator
from tfc.train import session_manager as _session_manager
from tfc.train import training_util as _training_util


def _first_in_collection(key):
  """The first member of graph collection `key`, or None."""
  members = _ops.get_collection(key)
  if len(members) > 1:
    _logging.info("Found %d %s operations. Returning the first one.", len(members), key)
  return members[0] if members else None


class Supervisor(object):
  """Training helper: session preparation, recovery, checkpoints and summaries
  from a logdir, and a Coordinator for the training threads."""

  # Sentinel: "pick the default" for the constructor's op arguments.
  USE_DEFAULT = 0

  def __init__(self, graph=None, ready_op=USE_DEFAULT, ready_for_local_init_op=USE_DEFAULT,
               is_chief=True, init_op=USE_DEFAULT, init_feed_dict=None,
               local_init_op=USE_DEFAULT, logdir=None, summary_op=USE_DEFAULT,
               saver=USE_DEFAULT, global_step=USE_DEFAULT, save_summaries_secs=120,
               save_model_secs=600, recovery_wait_secs=30, stop_grace_secs=120,
               checkpoint_basename="model.ckpt", session_manager=None,
               summary_writer=USE_DEFAULT, init_fn=None, local_init_run_options=None):
    _logging.warning("Supervisor is deprecated: please switch to "
                     "tf.train.MonitoredTrainingSession")
    if graph is None:
      graph = _ops.get_default_graph()
    with graph.as_default():
      self._init_ready_op(ready_op, ready_for_local_init_op)
      self._init_init_op(init_op, init_feed_dict)
      self._init_local_init_op(local_init_op)
      self._init_saver(saver)
      self._init_summary_op(summary_op)
      self._init_global_step(global_step)
    self._graph = graph
    from tfc.framework import meta_graph as _meta_graph  # pylint: disable=g-import-not-at-top
    with graph.as_default():
      self._meta_graph_def = _meta_graph.create_meta_graph_def(
          graph_def=graph.as_graph_def(add_shapes=True),
          saver_def=self._saver.saver_def if self._saver else None, graph=graph)
    self._is_chief = is_chief
    self._coord = _coordinator.Coordinator()
    self._recovery_wait_secs = recovery_wait_secs
    self._stop_grace_secs = stop_grace_secs
    self._init_fn = init_fn
    self._local_init_run_options = local_init_run_options
    self._logdir = None
    self._save_summaries_secs = None
    self._save_model_secs = None
    self._save_path = None
    self._summary_writer = None
    if self._is_chief:
      self._logdir = logdir
      self._save_summaries_secs = save_summaries_secs
      self._save_model_secs = save_model_secs
      if self._logdir:
        self._save_path = _os.path.join(self._logdir, checkpoint_basename)
      if summary_writer is Supervisor.USE_DEFAULT:
        if self._logdir:
          from tfc import summary as _summary  # pylint: disable=g-import-not-at-top
          self._summary_writer = _summary.FileWriter(self._logdir)
      else:
        self._summary_writer = summary_writer
      self._graph_added_to_summary = False
    if session_manager is None:
      session_manager = _session_manager.SessionManager(
          local_init_op=self._local_init_op, ready_op=self._ready_op,
          ready_for_local_init_op=self._ready_for_local_init_op, graph=self._graph,
          recovery_wait_secs=self._recovery_wait_secs,
          local_init_run_options=self._local_init_run_options)
    self._session_manager = session_manager
    self._verify_setup()
    graph.finalize()

  # -- defaults from the graph ---------------------------------------------------------

  def _init_ready_op(self, ready_op, ready_for_local_init_op):
    if ready_op is Supervisor.USE_DEFAULT:
      ready_op = _first_in_collection(_ops.GraphKeys.READY_OP)
      if ready_op is None:
        from tfc.ops import variables as _variables  # pylint: disable=g-import-not-at-top
        ready_op = _variables.report_uninitialized_variables()
        _ops.add_to_collection(_ops.GraphKeys.READY_OP, ready_op)
    self._ready_op = ready_op
    if ready_for_local_init_op is Supervisor.USE_DEFAULT:
      ready_for_local_init_op = _first_in_collection(_ops.GraphKeys.READY_FOR_LOCAL_INIT_OP)
    self._ready_for_local_init_op = ready_for_local_init_op

  def _init_init_op(self, init_op, init_feed_dict):
    if init_op is Supervisor.USE_DEFAULT:
      init_op = _first_in_collection(_ops.GraphKeys.INIT_OP)
      if init_op is None:
        from tfc.ops import variables as _variables  # pylint: disable=g-import-not-at-top
        init_op = _variables.global_variables_initializer()
        _ops.add_to_collection(_ops.GraphKeys.INIT_OP, init_op)
    self._init_op = init_op
    self._init_feed_dict = init_feed_dict

  def _init_local_init_op(self, local_init_op):
    if local_init_op is Supervisor.USE_DEFAULT:
      local_init_op = _first_in_collection(_ops.GraphKeys.LOCAL_INIT_OP)
      if local_init_op is None:
        from tfc.ops import control_flow_ops as _cf  # pylint: disable=g-import-not-at-top
        from tfc.ops import lookup_ops as _lookup_ops  # pylint: disable=g-import-not-at-top
        from tfc.ops import variables as _variables  # pylint: disable=g-import-not-at-top
        local_init_op = _cf.group(_variables.local_variables_initializer(),
                                  _lookup_ops.tables_initializer())
        _ops.add_to_collection(_ops.GraphKeys.LOCAL_INIT_OP, local_init_op)
    self._local_init_op = local_init_op

  def _init_saver(self, saver):
    if saver is Supervisor.USE_DEFAULT:
      saver = _first_in_collection(_ops.GraphKeys.SAVERS)
      if saver is None:
        from tfc.ops import variables as _variables  # pylint: disable=g-import-not-at-top
        if _variables.global_variables():
          from tfc.train import saver as _saver  # pylint: disable=g-import-not-at-top
          saver = _saver.Saver()
          _ops.add_to_collection(_ops.GraphKeys.SAVERS, saver)
    self._saver = saver

  def _init_summary_op(self, summary_op):
    if summary_op is Supervisor.USE_DEFAULT:
      summary_op = _first_in_collection(_ops.GraphKeys.SUMMARY_OP)
      if summary_op is None:
        from tfc import summary as _summary  # pylint: disable=g-import-not-at-top
        summary_op = _summary.merge_all()
        if summary_op is not None:
          _ops.add_to_collection(_ops.GraphKeys.SUMMARY_OP, summary_op)
    self._summary_op = summary_op

  def _init_global_step(self, global_step):
    if global_step is Supervisor.USE_DEFAULT:
      global_step = _first_in_collection(_ops.GraphKeys.GLOBAL_STEP)
      if global_step is None:
        global_step = self._default_global_step_tensor()
        if global_step is not None:
          _ops.add_to_collection(_ops.GraphKeys.GLOBAL_STEP, global_step)
    self._global_step = global_step

  @staticmethod
  def _default_global_step_tensor():
    """The tensor 'global_step:0' when its base type is int32 or int64, else None."""
    try:
      gs = _ops.get_default_graph().get_tensor_by_name("global_step:0")
    except (KeyError, ValueError):
      return None
    if gs.dtype.base_dtype in (_dtypes.int32, _dtypes.int64):
      return gs
    _logging.warning("Found 'global_step' is not an int type: %s", gs.dtype)
    return None

  def _verify_setup(self):
    """A non-chief needs every variable pinned to a device (they live on ps tasks)."""
    if self._is_chief:
      return
    for op in self._graph.get_operations():
      if op.type in ("Variable", "VariableV2") and not op.device:
        raise ValueError("When using replicas, all Variables must have their device set: %s"
                         % op)

  # -- properties -------------------------------------------------------------------------

  @property
  def is_chief(self):
    return self._is_chief

  @property
  def session_manager(self):
    return self._session_manager

  @property
  def coord(self):
    return self._coord

  @property
  def init_op(self):
    return self._init_op

  @property
  def init_feed_dict(self):
    return self._init_feed_dict

  @property
  def ready_op(self):
    return self._ready_op

  @property
  def ready_for_local_init_op(self):
    return self._ready_for_local_init_op

  @property
  def summary_writer(self):
    return self._summary_writer

  @property
  def summary_op(self):
    return self._summary_op

  @property
  def save_summaries_secs(self):
    return self._save_summaries_secs

  @property
  def global_step(self):
    return self._global_step

  @property
  def saver(self):
    return self._saver

  @property
  def save_model_secs(self):
    return self._save_model_secs

  @property
  def save_path(self):
    return self._save_path

  # -- sessions and services ----------------------------------------------------------------

  def _write_graph(self):
    """graph.pbtxt in logdir, and the graph and meta-graph events (once per writer)."""
    if self._logdir:
      from tfc.framework import graph_io as _graph_io  # pylint: disable=g-import-not-at-top
      _graph_io.write_graph(self._graph.as_graph_def(add_shapes=True), self._logdir,
                            "graph.pbtxt")
    if self._summary_writer and not self._graph_added_to_summary:
      self._summary_writer.add_graph(self._graph)
      self._summary_writer.add_meta_graph(self._meta_graph_def)
      self._graph_added_to_summary = True

  def start_standard_services(self, sess):
    """Writes SessionLog START and starts the checkpoint, summary and step-rate
    threads (chief only); returns the threads."""
    if not self._is_chief:
      raise RuntimeError("Only chief supervisor can start standard services. Because only "
                         "chief supervisors can write events.")
    if not self._logdir:
      _logging.warning("Standard services need a 'logdir' passed to the SessionManager")
      return None
    if self._global_step is not None and self._summary_writer:
      step = _training_util.global_step(sess, self._global_step)
      self._summary_writer.add_session_log(
          _protos.SessionLog(status=_protos.SessionLog.START), step)
    threads = []
    if self._save_summaries_secs and self._summary_writer:
      if self._summary_op is not None:
        threads.append(SVSummaryThread(self, sess))
      if self._global_step is not None:
        threads.append(SVStepCounterThread(self, sess))
    if self.saver and self._save_model_secs:
      threads.append(SVTimerCheckpointThread(self, sess))
    for t in threads:
      t.start()
    return threads

  def prepare_or_wait_for_session(self, master="", config=None, wait_for_checkpoint=False,
                                  max_wait_secs=7200, start_standard_services=True):
    """The chief: a session restored from logdir or initialized, with the
    services started; a non-chief: a session once the chief made the model ready."""
    self._coord.clear_stop()
    if self._summary_writer:
      self._summary_writer.reopen()
    if self._is_chief:
      sess = self._session_manager.prepare_session(
          master, init_op=self.init_op, saver=self.saver, checkpoint_dir=self._logdir,
          wait_for_checkpoint=wait_for_checkpoint, max_wait_secs=max_wait_secs, config=config,
          init_feed_dict=self._init_feed_dict, init_fn=self._init_fn)
      self._write_graph()
      if start_standard_services:
        _logging.info("Starting standard services.")
        self.start_standard_services(sess)
    else:
      sess = self._session_manager.wait_for_session(master, config=config,
                                                    max_wait_secs=max_wait_secs)
    if start_standard_services:
      _logging.info("Starting queue runners.")
      self.start_queue_runners(sess)
    return sess

  def start_queue_runners(self, sess, queue_runners=None):
    """Starts the threads of `queue_runners` (default: the QUEUE_RUNNERS collection)
    as daemons on this Supervisor's Coordinator; returns them."""
    if queue_runners is None:
      queue_runners = self._graph.get_collection(_ops.GraphKeys.QUEUE_RUNNERS)
    threads = []
    for qr in queue_runners:
      threads.extend(qr.create_threads(sess, coord=self._coord, daemon=True, start=True))
    return threads

  def loop(self, timer_interval_secs, target, args=None, kwargs=None):
    """Starts a LooperThread calling target(*args, **kwargs) every timer_interval_secs."""
    looper = _coordinator.LooperThread(self._coord, timer_interval_secs, target=target,
                                       args=args, kwargs=kwargs)
    looper.start()
    return looper

  def stop(self, threads=None, close_summary_writer=True, ignore_live_threads=False):
    """Requests a stop, joins the threads (re-raising what one of them reported),
    then writes SessionLog STOP and closes the summary writer."""
    self._coord.request_stop()
    try:
      self._coord.join(threads, stop_grace_period_secs=self._stop_grace_secs,
                       ignore_live_threads=ignore_live_threads)
    finally:
      if close_summary_writer and self._summary_writer:
        self._summary_writer.add_session_log(
            _protos.SessionLog(status=_protos.SessionLog.STOP))
        self._summary_writer.close()
        self._graph_added_to_summary = False

  def request_stop(self, ex=None):
    """Asks the threads to stop; `ex` (an exception or exc_info) is re-raised by stop()."""
    self._coord.request_stop(ex=ex)

  def should_stop(self):
    """True once a stop was requested."""
    return self._coord.should_stop()

  def stop_on_exception(self):
    """A context manager requesting a stop on an exception."""
    return self._coord.stop_on_exception()

  def wait_for_stop(self):
    """Blocks until a stop is requested."""
    self._coord.wait_for_stop()

  def summary_computed(self, sess, summary, global_step=None):
    """Writes a Summary (serialized or a message) at `global_step` (default:
    the current global step, when there is one)."""
    if not self._summary_writer:
      raise RuntimeError("Writing a summary requires a summary writer.")
    if global_step is None and self.global_step is not None:
      global_step = _training_util.global_step(sess, self.global_step)
    self._summary_writer.add_summary(summary, global_step)

  @_contextlib.contextmanager
  def managed_session(self, master="", config=None, start_standard_services=True,
                      close_summary_writer=True):
    """A context manager yielding a prepared session; on exit the services stop
    and the session closes. An exception from the body (other than a clean stop
    such as OutOfRangeError) is re-raised after the stop."""
    sess = None
    try:
      sess = self.prepare_or_wait_for_session(master=master, config=config,
                                              start_standard_services=start_standard_services)
      yield sess
    except Exception as e:  # pylint: disable=broad-except
      self.request_stop(e)
    finally:
      try:
        self.stop(close_summary_writer=close_summary_writer)
      finally:
        if sess is not None:
          try:
            sess.close()
          except Exception:  # pylint: disable=broad-except
            pass

  # TF's CamelCase aliases
  PrepareSession = prepare_or_wait_for_session
  StartQueueRunners = start_queue_runners
  StartStandardServices = start_standard_services
  Stop = stop
  RequestStop = request_stop
  Loop = loop
  ShouldStop = should_stop
  StopOnException = stop_on_exception
  WaitForStop = wait_for_stop
  SummaryComputed = summary_computed


class SVSummaryThread(_coordinator.LooperThread):
  """Runs the summary op (and reads the global step) every save_summaries_secs."""

  def __init__(self, sv, sess):
    super(SVSummaryThread, self).__init__(sv.coord, sv.save_summaries_secs)
    self._sv = sv
    self._sess = sess

  def run_loop(self):
    if self._sv.global_step is not None:
      summary_strs, step = self._sess.run([self._sv.summary_op, self._sv.global_step])
    else:
      summary_strs, step = self._sess.run(self._sv.summary_op), None
    if self._sv.summary_writer:
      _logging.info("Recording summary at step %s.", step)
      self._sv.summary_writer.add_summary(summary_strs, step)


class SVStepCounterThread(_coordinator.LooperThread):
  """Writes '<global step op>/sec', the steps per second since the last time."""

  def __init__(self, sv, sess, step_counter=None):
    super(SVStepCounterThread, self).__init__(sv.coord, sv.save_summaries_secs)
    self._sv = sv
    self._sess = sess
    self._last_time = 0.0
    self._last_step = 0
    self._step_counter = sv.global_step if step_counter is None else step_counter
    self._summary_tag = "%s/sec" % self._step_counter.op.name

  def start_loop(self):
    self._last_time = _time.time()
    self._last_step = _training_util.global_step(self._sess, self._step_counter)

  def run_loop(self):
    step = _training_util.global_step(self._sess, self._step_counter)
    added = step - self._last_step
    self._last_step = step
    now = _time.time()
    elapsed = now - self._last_time
    self._last_time = now
    rate = added / elapsed if elapsed > 0.0 else float("inf")
    summary = _protos.Summary(value=[_protos.Summary.Value(tag=self._summary_tag,
                                                           simple_value=rate)])
    if self._sv.summary_writer:
      self._sv.summary_writer.add_summary(summary, step)
    _logging.log_first_n(_logging.INFO, "%s: %g", 10, self._summary_tag, rate)


class SVTimerCheckpointThread(_coordinator.LooperThread):
  """Saves a checkpoint every save_model_secs (the first at once) and records
  a SessionLog CHECKPOINT event."""

  def __init__(self, sv, sess):
    super(SVTimerCheckpointThread, self).__init__(sv.coord, sv.save_model_secs)
    self._sv = sv
    self._sess = sess

  def run_loop(self):
    _logging.info("Saving checkpoint to path %s", self._sv.save_path)
    self._sv.saver.save(self._sess, self._sv.save_path, global_step=self._sv.global_step)
    if self._sv.summary_writer and self._sv.global_step is not None:
      step = _training_util.global_step(self._sess, self._sv.global_step)
      self._sv.summary_writer.add_session_log(
          _protos.SessionLog(status=_protos.SessionLog.CHECKPOINT,
                             checkpoint_path=self._sv.save_path), step)
