"""MonitoredSession, SingularMonitoredSession, MonitoredTrainingSession, Scaffold and
the session creators (TF 1.15).

    with tf.train.MonitoredTrainingSession(checkpoint_dir="/tmp/run",
                                           hooks=[tf.train.StopAtStepHook(1000)]) as sess:
      while not sess.should_stop():
        sess.run(train_op)

A MonitoredSession is a stack of wrappers around a tf.Session:

- the recoverable layer (MonitoredSession only) re-creates the session through
  its creator when a run or a stop check raises AbortedError or
  UnavailableError (a preempted worker or parameter server): the chief
  restores the newest checkpoint, a worker waits for the chief;
- the coordinated layer holds a Coordinator for queue-runner threads, and
  re-raises an error a thread reported in place of the run's own;
- the hooked layer calls every hook's before_run / after_run around each run,
  merging the hooks' fetches, feeds and RunOptions into the call.

Hooks' begin() runs before the session is made (the graph may change), then
the Scaffold finalizes the graph; after_create_session() runs for every
session created; end() when the MonitoredSession closes without an error.
"""
import os as _os

from tfc import _tfc
from tfc import errors as _errors
from tfc import logging as _logging
from tfc import protos as _protos
from tfc.framework import ops as _ops
from tfc.train import basic_session_run_hooks as _hooks
from tfc.train import coordinator as _coordinator
from tfc.train import session_manager as _sm
from tfc.train import session_run_hook as _srh

_hooked_run = _tfc.hooked_run
_tfc.set_hook_classes(_srh.SessionRunArgs, _srh.SessionRunValues, _srh.SessionRunContext)

_PREEMPTION_ERRORS = (_errors.AbortedError, _errors.UnavailableError)

# Sentinel for MonitoredTrainingSession's "not given" arguments.
USE_DEFAULT = object()


class Scaffold(object):
  """The ops a training session needs (init, ready, local init, summary, saver),
  taken from the arguments, else from the graph's collections, else TF's defaults
  (made and added to the collections by finalize())."""

  def __init__(self, init_op=None, init_feed_dict=None, init_fn=None, ready_op=None,
               ready_for_local_init_op=None, local_init_op=None, summary_op=None,
               saver=None, copy_from_scaffold=None, local_init_feed_dict=None):
    if copy_from_scaffold is not None:
      if not isinstance(copy_from_scaffold, Scaffold):
        raise TypeError("copy_from_scaffold is not a Scaffold instance.")

      def coalesce(a, b):
        return a if a is not None else b
      init_op = coalesce(init_op, copy_from_scaffold.init_op)
      init_feed_dict = coalesce(init_feed_dict, copy_from_scaffold.init_feed_dict)
      init_fn = coalesce(init_fn, copy_from_scaffold._user_init_fn)  # pylint: disable=protected-access
      ready_op = coalesce(ready_op, copy_from_scaffold.ready_op)
      ready_for_local_init_op = coalesce(ready_for_local_init_op,
                                         copy_from_scaffold.ready_for_local_init_op)
      local_init_op = coalesce(local_init_op, copy_from_scaffold.local_init_op)
      local_init_feed_dict = coalesce(local_init_feed_dict,
                                      copy_from_scaffold.local_init_feed_dict)
      summary_op = coalesce(summary_op, copy_from_scaffold.summary_op)
      saver = coalesce(saver, copy_from_scaffold.saver)
    self._user_init_fn = init_fn
    self._init_fn = (lambda sess: init_fn(self, sess)) if init_fn else None
    self._init_op = init_op
    self._init_feed_dict = init_feed_dict
    self._ready_op = ready_op
    self._ready_for_local_init_op = ready_for_local_init_op
    self._local_init_op = local_init_op
    self._local_init_feed_dict = local_init_feed_dict
    self._summary_op = summary_op
    self._saver = saver

  def finalize(self):
    """Fills in the missing ops and finalizes the default graph; returns self."""
    from tfc.ops import array_ops as _array_ops  # pylint: disable=g-import-not-at-top
    from tfc.ops import control_flow_ops as _cf  # pylint: disable=g-import-not-at-top
    from tfc.ops import variables as _variables  # pylint: disable=g-import-not-at-top
    from tfc.train import saver as _saver  # pylint: disable=g-import-not-at-top
    if self._init_op is None:
      def default_init_op():
        return _cf.group(_variables.global_variables_initializer(),
                         *_ops.get_collection("saved_model_initializers"))
      self._init_op = Scaffold.get_or_default("init_op", _ops.GraphKeys.INIT_OP,
                                              default_init_op)
    if self._ready_op is None:
      def default_ready_op():
        return _array_ops.concat([_variables.report_uninitialized_variables()], 0)
      self._ready_op = Scaffold.get_or_default("ready_op", _ops.GraphKeys.READY_OP,
                                               default_ready_op)
    if self._ready_for_local_init_op is None:
      def default_ready_for_local_init_op():
        return _array_ops.concat([_variables.report_uninitialized_variables(
            _variables.global_variables())], 0)
      self._ready_for_local_init_op = Scaffold.get_or_default(
          "ready_for_local_init_op", _ops.GraphKeys.READY_FOR_LOCAL_INIT_OP,
          default_ready_for_local_init_op)
    if self._local_init_op is None:
      self._local_init_op = Scaffold.get_or_default(
          "local_init_op", _ops.GraphKeys.LOCAL_INIT_OP, Scaffold.default_local_init_op)
    if self._summary_op is None:
      from tfc import summary as _summary  # pylint: disable=g-import-not-at-top
      self._summary_op = Scaffold.get_or_default("summary_op", _ops.GraphKeys.SUMMARY_OP,
                                                 _summary.merge_all)
    if self._saver is None:
      self._saver = _saver._get_saver_or_default()  # pylint: disable=protected-access
    self._saver.build()
    _ops.get_default_graph().finalize()
    _logging.info("Graph was finalized.")
    return self

  @property
  def init_fn(self):
    return self._init_fn

  @property
  def init_op(self):
    return self._init_op

  @property
  def ready_op(self):
    return self._ready_op

  @property
  def ready_for_local_init_op(self):
    return self._ready_for_local_init_op

  @property
  def local_init_op(self):
    return self._local_init_op

  @property
  def local_init_feed_dict(self):
    return self._local_init_feed_dict

  @property
  def summary_op(self):
    return self._summary_op

  @property
  def saver(self):
    return self._saver

  @property
  def init_feed_dict(self):
    return self._init_feed_dict

  @staticmethod
  def get_or_default(arg_name, collection_key, default_constructor):
    """The one member of a collection, or default_constructor() added to it."""
    elements = _ops.get_collection(collection_key)
    if elements:
      if len(elements) > 1:
        raise RuntimeError("More than one item in the collection \"%s\". Please indicate "
                           "which one to use by passing it to the tf.Scaffold constructor "
                           "as:  tf.Scaffold(%s=item to use)" % (collection_key, arg_name))
      return elements[0]
    op = default_constructor()
    if op is not None:
      _ops.add_to_collection(collection_key, op)
    return op

  @staticmethod
  def default_local_init_op():
    """Initializes local variables and tables."""
    from tfc.ops import control_flow_ops as _cf  # pylint: disable=g-import-not-at-top
    from tfc.ops import lookup_ops as _lookup_ops  # pylint: disable=g-import-not-at-top
    from tfc.ops import variables as _variables  # pylint: disable=g-import-not-at-top
    return _cf.group(_variables.local_variables_initializer(),
                     _lookup_ops.tables_initializer())


class SessionCreator(object):
  """Something that makes tf.Sessions (create_session)."""

  def create_session(self):
    raise NotImplementedError("create_session is not implemented for {}.".format(self))


class ChiefSessionCreator(SessionCreator):
  """Makes a session restored from checkpoint_dir (or a file), else initialized."""

  def __init__(self, scaffold=None, master="", config=None, checkpoint_dir=None,
               checkpoint_filename_with_path=None):
    self._checkpoint_dir = checkpoint_dir
    self._checkpoint_filename_with_path = checkpoint_filename_with_path
    self._scaffold = scaffold or Scaffold()
    self._session_manager = None
    self._master = master
    self._config = config

  def _get_session_manager(self):
    if self._session_manager is None:
      self._session_manager = _sm.SessionManager(
          local_init_op=self._scaffold.local_init_op,
          local_init_feed_dict=self._scaffold.local_init_feed_dict,
          ready_op=self._scaffold.ready_op,
          ready_for_local_init_op=self._scaffold.ready_for_local_init_op,
          graph=_ops.get_default_graph())
    return self._session_manager

  def create_session(self):
    self._scaffold.finalize()
    return self._get_session_manager().prepare_session(
        self._master, saver=self._scaffold.saver, checkpoint_dir=self._checkpoint_dir,
        checkpoint_filename_with_path=self._checkpoint_filename_with_path,
        config=self._config, init_op=self._scaffold.init_op,
        init_feed_dict=self._scaffold.init_feed_dict, init_fn=self._scaffold.init_fn)


class WorkerSessionCreator(SessionCreator):
  """Makes a session once the chief has initialized the model."""

  def __init__(self, scaffold=None, master="", config=None, max_wait_secs=30 * 60):
    self._scaffold = scaffold or Scaffold()
    self._session_manager = None
    self._master = master
    self._config = config
    self._max_wait_secs = max_wait_secs

  def _get_session_manager(self):
    if self._session_manager is None:
      self._session_manager = _sm.SessionManager(
          local_init_op=self._scaffold.local_init_op,
          local_init_feed_dict=self._scaffold.local_init_feed_dict,
          ready_op=self._scaffold.ready_op,
          ready_for_local_init_op=self._scaffold.ready_for_local_init_op,
          graph=_ops.get_default_graph())
    return self._session_manager

  def create_session(self):
    self._scaffold.finalize()
    return self._get_session_manager().wait_for_session(
        self._master, config=self._config, max_wait_secs=self._max_wait_secs)


def MonitoredTrainingSession(master="", is_chief=True, checkpoint_dir=None, scaffold=None,  # pylint: disable=invalid-name
                             hooks=None, chief_only_hooks=None,
                             save_checkpoint_secs=USE_DEFAULT,
                             save_summaries_steps=USE_DEFAULT,
                             save_summaries_secs=USE_DEFAULT, config=None,
                             stop_grace_period_secs=120, log_step_count_steps=100,
                             max_wait_secs=7200, save_checkpoint_steps=USE_DEFAULT,
                             summary_dir=None, save_graph_def=True):
  """A MonitoredSession for training. The chief restores or initializes and, with a
  checkpoint_dir/summary_dir, gets a StepCounterHook (every log_step_count_steps),
  a SummarySaverHook (every 100 steps by default) and a CheckpointSaverHook (every
  600 s by default) besides `chief_only_hooks` and `hooks`; a worker waits for the
  chief and runs `hooks` only."""
  if save_summaries_steps is USE_DEFAULT and save_summaries_secs is USE_DEFAULT:
    save_summaries_steps, save_summaries_secs = 100, None
  elif save_summaries_secs is USE_DEFAULT:
    save_summaries_secs = None
  elif save_summaries_steps is USE_DEFAULT:
    save_summaries_steps = None
  if save_checkpoint_steps is USE_DEFAULT and save_checkpoint_secs is USE_DEFAULT:
    save_checkpoint_steps, save_checkpoint_secs = None, 600
  elif save_checkpoint_secs is USE_DEFAULT:
    save_checkpoint_secs = None
  elif save_checkpoint_steps is USE_DEFAULT:
    save_checkpoint_steps = None
  scaffold = scaffold or Scaffold()
  if not is_chief:
    creator = WorkerSessionCreator(scaffold=scaffold, master=master, config=config,
                                   max_wait_secs=max_wait_secs)
    return MonitoredSession(session_creator=creator, hooks=hooks or [],
                            stop_grace_period_secs=stop_grace_period_secs)
  all_hooks = list(chief_only_hooks or [])
  creator = ChiefSessionCreator(scaffold=scaffold, checkpoint_dir=checkpoint_dir,
                                master=master, config=config)
  summary_dir = summary_dir or checkpoint_dir
  if summary_dir:
    if log_step_count_steps and log_step_count_steps > 0:
      all_hooks.append(_hooks.StepCounterHook(output_dir=summary_dir,
                                              every_n_steps=log_step_count_steps))
    if ((save_summaries_steps and save_summaries_steps > 0) or
        (save_summaries_secs and save_summaries_secs > 0)):
      all_hooks.append(_hooks.SummarySaverHook(scaffold=scaffold,
                                               save_steps=save_summaries_steps,
                                               save_secs=save_summaries_secs,
                                               output_dir=summary_dir))
  if checkpoint_dir:
    if ((save_checkpoint_secs and save_checkpoint_secs > 0) or
        (save_checkpoint_steps and save_checkpoint_steps > 0)):
      all_hooks.append(_hooks.CheckpointSaverHook(
          checkpoint_dir, save_steps=save_checkpoint_steps, save_secs=save_checkpoint_secs,
          scaffold=scaffold, save_graph_def=save_graph_def))
  if hooks:
    all_hooks.extend(hooks)
  return MonitoredSession(session_creator=creator, hooks=all_hooks,
                          stop_grace_period_secs=stop_grace_period_secs)


def _start_queue_runners(sess, coord):
  threads = []
  for qr in _ops.get_collection(_ops.GraphKeys.QUEUE_RUNNERS):
    threads.extend(qr.create_threads(sess, coord=coord, daemon=True, start=True))
  return threads


class _MonitoredSession(object):
  """What MonitoredSession and SingularMonitoredSession share."""

  def __init__(self, session_creator, hooks, should_recover, stop_grace_period_secs=120):
    self._graph_was_finalized = _ops.get_default_graph().finalized
    self._hooks = list(hooks or [])
    for h in self._hooks:
      h.begin()
    self._coordinated_creator = self._CoordinatedSessionCreator(
        session_creator=session_creator or ChiefSessionCreator(), hooks=self._hooks,
        stop_grace_period_secs=stop_grace_period_secs)
    if should_recover:
      self._sess = _RecoverableSession(self._coordinated_creator)
    else:
      self._sess = self._coordinated_creator.create_session()

  @property
  def graph(self):
    """The graph of the session (None once closed)."""
    if self._tf_sess() is None:
      return None
    return self._tf_sess().graph

  def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
    """Session.run through the hooks (and, for MonitoredSession, recovery)."""
    return self._sess.run(fetches, feed_dict, options, run_metadata)

  def run_step_fn(self, step_fn):
    """Calls step_fn(step_context): step_context.session is the raw session,
    step_context.run_with_hooks(...) runs through the hooks, and
    step_context.request_stop() ends the loop."""
    import inspect  # pylint: disable=g-import-not-at-top
    args = tuple(inspect.signature(step_fn).parameters)
    if args != ("step_context",) and args != ("self", "step_context"):
      raise ValueError("`step_fn` may either have one `step_context` argument, or `self` and "
                       "`step_context` arguments if it's an instance method. Got {} instead."
                       .format(args))
    return self._sess.run_step_fn(step_fn, self._tf_sess(), run_with_hooks=None)

  class StepContext(object):
    """What run_step_fn's step_fn receives."""

    def __init__(self, session, run_with_hooks_fn):
      self._session = session
      self._run_with_hooks_fn = run_with_hooks_fn

    @property
    def session(self):
      return self._session

    def run_with_hooks(self, *args, **kwargs):
      return self._run_with_hooks_fn(*args, **kwargs)

    def request_stop(self):
      raise StopIteration("step_fn has requested the iterations to stop.")

  def should_stop(self):
    """True once a hook requested a stop, a thread failed, or the session is closed."""
    return self._sess is None or self._sess.should_stop()

  def close(self):
    """Calls the hooks' end() and closes the session."""
    self._close_internal()

  def __enter__(self):
    return self

  def __exit__(self, exception_type, exception_value, traceback):
    if exception_type in (_errors.OutOfRangeError, StopIteration):
      exception_type = None
    self._close_internal(exception_type)
    return exception_type is None

  class _CoordinatedSessionCreator(SessionCreator):
    """Creates the raw session, its Coordinator and the hooked wrapper."""

    def __init__(self, session_creator, hooks, stop_grace_period_secs):
      self._session_creator = session_creator
      self._hooks = hooks
      self.coord = None
      self.tf_sess = None
      self._stop_grace_period_secs = stop_grace_period_secs

    def create_session(self):
      self.tf_sess = self._session_creator.create_session()
      self.coord = _coordinator.Coordinator(clean_stop_exception_types=[])
      if _ops.get_collection(_ops.GraphKeys.QUEUE_RUNNERS):
        _start_queue_runners(self.tf_sess, self.coord)
      for hook in self._hooks:
        hook.after_create_session(self.tf_sess, self.coord)
      return _CoordinatedSession(_HookedSession(self.tf_sess, self._hooks), self.coord,
                                 self._stop_grace_period_secs)

  def _close_internal(self, exception_type=None):
    try:
      if not exception_type:
        for h in self._hooks:
          h.end(self._coordinated_creator.tf_sess)
    finally:
      try:
        if self._sess is None:
          raise RuntimeError("Session is already closed.")
        self._sess.close()
      finally:
        self._sess = None
        self._coordinated_creator.tf_sess = None
        self._coordinated_creator.coord = None
        if not self._graph_was_finalized:
          _ops.get_default_graph()._unsafe_unfinalize()  # pylint: disable=protected-access

  def _is_closed(self):
    return self._coordinated_creator.tf_sess is None

  def _tf_sess(self):
    return self._coordinated_creator.tf_sess


class MonitoredSession(_MonitoredSession):
  """A session that runs hooks, re-creates itself after AbortedError or
  UnavailableError, and handles initialization and recovery through its
  session creator (default: ChiefSessionCreator)."""

  def __init__(self, session_creator=None, hooks=None, stop_grace_period_secs=120):
    super(MonitoredSession, self).__init__(session_creator, hooks, should_recover=True,
                                           stop_grace_period_secs=stop_grace_period_secs)


class SingularMonitoredSession(_MonitoredSession):
  """A MonitoredSession without recovery, made by a ChiefSessionCreator;
  raw_session() gives the tf.Session."""

  def __init__(self, hooks=None, scaffold=None, master="", config=None, checkpoint_dir=None,
               stop_grace_period_secs=120, checkpoint_filename_with_path=None):
    creator = ChiefSessionCreator(scaffold=scaffold, master=master, config=config,
                                  checkpoint_dir=checkpoint_dir,
                                  checkpoint_filename_with_path=checkpoint_filename_with_path)
    super(SingularMonitoredSession, self).__init__(
        creator, hooks, should_recover=False, stop_grace_period_secs=stop_grace_period_secs)

  def raw_session(self):
    return self._tf_sess()


class _WrappedSession(object):
  """A session wrapper; should_stop() is this layer's stop or the inner one's."""

  def __init__(self, sess):
    self._sess = sess
    self._wrapped_is_stoppable = isinstance(self._sess, _WrappedSession)

  @property
  def graph(self):
    return self._sess.graph

  @property
  def sess_str(self):
    return self._sess.sess_str

  def should_stop(self):
    if self._check_stop():
      return True
    if self._sess:
      return self._wrapped_is_stoppable and self._sess.should_stop()
    return True

  def _check_stop(self):
    return False

  def close(self):
    if self._sess:
      try:
        self._sess.close()
      except _PREEMPTION_ERRORS as e:
        _logging.error("An error occurred when attempting to close the session. This may be "
                       "due to a preemption in a connected worker or parameter server. "
                       "Error: %s", e)
      finally:
        self._sess = None

  def run(self, *args, **kwargs):
    return self._sess.run(*args, **kwargs)

  def run_step_fn(self, step_fn, raw_session, run_with_hooks):
    run_with_hooks = run_with_hooks or self.run
    return step_fn(_MonitoredSession.StepContext(raw_session, run_with_hooks))


_PREEMPTED = ("An error was raised. This may be due to a preemption in a connected worker or "
              "parameter server. The current session will be closed and a new session will "
              "be created. Error: %s")


class _RecoverableSession(_WrappedSession):
  """Re-creates the session (through the creator) after a preemption error."""

  def __init__(self, sess_creator):
    self._sess_creator = sess_creator
    _WrappedSession.__init__(self, self._create_session())

  def _create_session(self):
    while True:
      try:
        return self._sess_creator.create_session()
      except _PREEMPTION_ERRORS as e:
        _logging.info("An error was raised while a session was being created. This may be "
                      "due to a preemption of a connected worker or parameter server. A new "
                      "session will be created. Error: %s", e)

  def _check_stop(self):
    try:
      if self._sess:
        return self._sess._check_stop()  # pylint: disable=protected-access
      return True
    except _PREEMPTION_ERRORS as e:
      _logging.info(_PREEMPTED, e)
      self.close()
      self._sess = self._create_session()
      return False
    except Exception:  # pylint: disable=broad-except
      return True

  def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
    while True:
      try:
        sess = self._sess
        if not sess:
          self._sess = sess = self._create_session()
        return sess.run(fetches, feed_dict, options, run_metadata)
      except _PREEMPTION_ERRORS as e:
        _logging.info(_PREEMPTED, e)
        self.close()
        self._sess = None

  def run_step_fn(self, step_fn, raw_session, run_with_hooks):
    while True:
      try:
        if not self._sess:
          self._sess = self._create_session()
        return self._sess.run_step_fn(step_fn, raw_session, self._sess.run)
      except _PREEMPTION_ERRORS as e:
        _logging.info(_PREEMPTED, e)
        self.close()
        self._sess = None


class _CoordinatedSession(_WrappedSession):
  """Stops with the Coordinator; a run error is replaced by the error a thread
  reported to the Coordinator, if any."""

  def __init__(self, sess, coord, stop_grace_period_secs=120):
    _WrappedSession.__init__(self, sess)
    self._coord = coord
    self._stop_grace_period_secs = stop_grace_period_secs

  def _check_stop(self):
    self._coord.raise_requested_exception()
    return self._coord.should_stop()

  def close(self):
    self._coord.request_stop()
    try:
      self._coord.join(stop_grace_period_secs=self._stop_grace_period_secs,
                       ignore_live_threads=True)
    finally:
      try:
        _WrappedSession.close(self)
      except Exception:  # pylint: disable=broad-except
        pass

  def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
    try:
      sess = self._sess
      if type(sess) is _HookedSession:  # pylint: disable=unidiomatic-typecheck
        return _hooked_run(sess, fetches, feed_dict, options, run_metadata)
      return sess.run(fetches, feed_dict, options, run_metadata)
    except _PREEMPTION_ERRORS:
      raise
    except Exception as original_exception:  # pylint: disable=broad-except
      try:
        self._coord.raise_requested_exception()
      except _PREEMPTION_ERRORS:
        raise
      except Exception:  # pylint: disable=broad-except
        raise original_exception from None
      else:
        raise


class _HookedSession(_WrappedSession):
  """Calls the hooks around each run."""

  def __init__(self, sess, hooks):
    _WrappedSession.__init__(self, sess)
    self._hooks = hooks
    self._should_stop = False
    self._hook_options = False
    # a session whose config builds a cost model fills RunMetadata by itself
    inner = sess
    while isinstance(inner, _WrappedSession):
      inner = inner._sess  # pylint: disable=protected-access
    self._collects_metadata = bool(getattr(inner, "_collects_run_metadata", True))
    self._new_options = _protos.RunOptions
    self._new_metadata = _protos.RunMetadata
    # When every hook's after_run is one of tfc's that read only
    # run_values.results, nobody sees the RunOptions and RunMetadata the
    # hooks would get: the step makes them only when a caller or a hook's
    # request needs them (the values then carry None).
    self._values_unread = not self._collects_metadata and all(
        getattr(type(h), "after_run", None) in _hooks.RESULTS_ONLY_AFTER_RUN and
        "after_run" not in getattr(h, "__dict__", {}) for h in hooks)

  def _check_stop(self):
    return self._should_stop

  def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
    """One step through the hooks: every hook's before_run, one raw run with
    the hooks' fetches (and feeds and options) merged in, every hook's
    after_run. The hooks always see a RunOptions and a RunMetadata; the
    session gets them only when the caller passed one, a hook asked for
    options, or the session fills run metadata by itself (a cost model): with
    default options and nothing to collect, TF's run leaves the metadata empty
    too. The glue runs in C (csrc/python/py_hooks.c); requests with feeds or
    options come back to _call_hook_before_run."""
    return _hooked_run(self, fetches, feed_dict, options, run_metadata)

  def _call_hook_before_run(self, run_context, fetch_dict, user_feed_dict, options, hooks,
                            first_request):
    """Adds the fetches of `hooks` to fetch_dict and merges their options; the
    merged feeds. The first hook's request is first_request (already made)."""
    hook_feeds = None
    for k, hook in enumerate(hooks):
      request = first_request if k == 0 else hook.before_run(run_context)
      if request is None:
        continue
      hook_fetches = request.fetches
      request_feeds = request.feed_dict
      request_options = request.options
      if hook_fetches is not None:
        fetch_dict[hook] = hook_fetches
      if request_feeds:
        if hook_feeds is None:
          hook_feeds = {}
        self._raise_if_feeds_intersects(hook_feeds, request_feeds,
                                        "Same tensor is fed by two hooks.")
        hook_feeds.update(request_feeds)
      if request_options:
        self._hook_options = True
        self._merge_run_options(options, request_options)
    if not hook_feeds:
      return user_feed_dict
    if not user_feed_dict:
      return hook_feeds
    self._raise_if_feeds_intersects(user_feed_dict, hook_feeds,
                                    "Same tensor is fed by a SessionRunHook and user.")
    hook_feeds.update(user_feed_dict)
    return hook_feeds

  @staticmethod
  def _raise_if_feeds_intersects(feeds1, feeds2, message):
    both = set(feeds1.keys()) & set(feeds2.keys())
    if both:
      raise RuntimeError(message + " Conflict(s): " + str(list(both)))

  @staticmethod
  def _merge_run_options(options, incoming):
    options.trace_level = max(options.trace_level, incoming.trace_level)
    options.timeout_in_ms = max(options.timeout_in_ms, incoming.timeout_in_ms)
    options.inter_op_thread_pool = max(options.inter_op_thread_pool,
                                       incoming.inter_op_thread_pool)
    options.output_partition_graphs = max(options.output_partition_graphs,
                                          incoming.output_partition_graphs)
    options.report_tensor_allocations_upon_oom = (
        options.report_tensor_allocations_upon_oom or
        incoming.report_tensor_allocations_upon_oom)
