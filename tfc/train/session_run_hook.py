"""SessionRunHook and the values passed to hooks around MonitoredSession.run (TF 1.15).

A hook sees every `run` of a MonitoredSession: `before_run(run_context)` may
return `SessionRunArgs(fetches, feed_dict, options)` to add to the call;
`after_run(run_context, run_values)` receives those fetches' values in
`run_values.results`. `run_context.request_stop()` ends the training loop
after this step.
"""
import collections as _collections


class SessionRunHook(object):
  """Hook to extend calls to MonitoredSession.run(); every method is optional."""

  def begin(self):
    """Called once before the session is created; the graph may still change."""

  def after_create_session(self, session, coord):  # pylint: disable=unused-argument
    """Called when a (new) session was created; the graph is finalized."""

  def before_run(self, run_context):  # pylint: disable=unused-argument
    """Called before each run: returns None or SessionRunArgs to add to the call."""
    return None

  def after_run(self, run_context, run_values):  # pylint: disable=unused-argument
    """Called after each successful run with the results of this hook's fetches."""

  def end(self, session):  # pylint: disable=unused-argument
    """Called at the end of the session (not after an error)."""


class SessionRunArgs(_collections.namedtuple("SessionRunArgs",
                                             ["fetches", "feed_dict", "options"],
                                             defaults=(None, None))):
  """What a hook adds to a run: fetches, feeds and RunOptions
  (SessionRunArgs(fetches, feed_dict=None, options=None))."""

  __slots__ = ()


class SessionRunContext(object):
  """The run being made: the caller's arguments, the session, and a stop request."""

  def __init__(self, original_args, session):
    self._original_args = original_args
    self._session = session
    self._stop_requested = False

  @property
  def original_args(self):
    """SessionRunArgs of the caller's fetches and feed_dict."""
    return self._original_args

  @property
  def session(self):
    """The session being run (the hooks may run it themselves)."""
    return self._session

  @property
  def stop_requested(self):
    return self._stop_requested

  def request_stop(self):
    """Makes MonitoredSession.should_stop() True after this run."""
    self._stop_requested = True


class SessionRunValues(_collections.namedtuple("SessionRunValues",
                                               ["results", "options", "run_metadata"])):
  """A hook's fetched values, with the RunOptions and RunMetadata of the run."""

  __slots__ = ()
