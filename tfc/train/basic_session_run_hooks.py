"""The standard SessionRunHooks (TF 1.15): StopAtStepHook, CheckpointSaverHook
(+ CheckpointSaverListener), SummarySaverHook, LoggingTensorHook, NanTensorHook,
StepCounterHook, FinalOpsHook, FeedFnHook, GlobalStepWaiterHook, and the
SecondOrStepTimer they trigger on.

Hooks that follow the global step fetch the cached read of it
(`global_step/add:0`, made once per graph by begin()) with every run, and
run it again only when their timer may fire, as TF's hooks do.
"""
import os as _os
import time as _time

import numpy as _np

from tfc import errors as _errors
from tfc import logging as _logging
from tfc import protos as _protos
from tfc.framework import ops as _ops
from tfc.train import training_util as _training_util
from tfc.train.session_run_hook import SessionRunArgs
from tfc.train.session_run_hook import SessionRunHook


def _writer_cache():
  from tfc import summary as _summary  # pylint: disable=g-import-not-at-top
  return _summary.FileWriterCache


_NEG_INF = float("-inf")
_POS_INF = float("inf")


class _HookTimer(object):
  """When a hook fires: by step and/or time. A timer may keep
  quiet_below_step / quiet_until_time (see SecondOrStepTimer) so that the
  hooks' per-step code skips the call while it cannot fire."""

  quiet_below_step = _NEG_INF
  quiet_until_time = None

  def reset(self):
    pass

  def should_trigger_for_step(self, step):
    raise NotImplementedError

  def update_last_triggered_step(self, step):
    raise NotImplementedError

  def last_triggered_step(self):
    raise NotImplementedError


class SecondOrStepTimer(_HookTimer):
  """Fires every `every_secs` seconds or every `every_steps` steps (exactly one
  of them), and always the first time."""

  def __init__(self, every_secs=None, every_steps=None):
    self._every_secs = every_secs
    self._every_steps = every_steps
    self.reset()
    if every_secs is None and every_steps is None:
      raise ValueError("Either every_secs or every_steps should be provided.")
    if every_secs is not None and every_steps is not None:
      raise ValueError("Can not provide both every_secs and every_steps.")

  def reset(self):
    self._last_triggered_step = None
    self._last_triggered_time = None
    self._set_quiet()

  def _set_quiet(self):
    """Precomputes quiet_below_step / quiet_until_time, which let a hook's
    per-step code see without a call that the timer cannot fire:
    `step < quiet_below_step and (quiet_until_time is None or time.time() <
    quiet_until_time)` implies should_trigger_for_step(step) is False (the
    converse need not hold; the hook then asks the timer)."""
    last = self._last_triggered_step
    every_steps = getattr(self, "_every_steps", None)
    every_secs = getattr(self, "_every_secs", None)
    if last is None:
      self.quiet_below_step, self.quiet_until_time = _NEG_INF, None
    elif every_secs is not None:
      self.quiet_below_step = _POS_INF
      self.quiet_until_time = self._last_triggered_time + every_secs
    elif every_steps is not None and every_steps >= 1:
      self.quiet_below_step, self.quiet_until_time = last + every_steps, None
    else:
      self.quiet_below_step, self.quiet_until_time = _NEG_INF, None

  def should_trigger_for_step(self, step):
    """True the first time, never twice for one step, then by time or steps."""
    if self._last_triggered_step is None:
      return True
    if self._last_triggered_step == step:
      return False
    if self._every_secs is not None and _time.time() >= self._last_triggered_time + \
        self._every_secs:
      return True
    if self._every_steps is not None and step >= self._last_triggered_step + self._every_steps:
      return True
    return False

  def update_last_triggered_step(self, step):
    """Records a firing at `step`: (seconds, steps) since the previous one, or (None, None)."""
    now = _time.time()
    if self._last_triggered_time is None:
      elapsed = (None, None)
    else:
      elapsed = (now - self._last_triggered_time, step - self._last_triggered_step)
    self._last_triggered_time = now
    self._last_triggered_step = step
    self._set_quiet()
    return elapsed

  def last_triggered_step(self):
    return self._last_triggered_step


class NeverTriggerTimer(_HookTimer):
  """A timer that never fires."""

  quiet_below_step = float("inf")
  quiet_until_time = None

  def should_trigger_for_step(self, step):
    return False

  def update_last_triggered_step(self, step):
    return (None, None)

  def last_triggered_step(self):
    return None


def _as_graph_element(obj):
  """A tensor of the default graph: the object itself, or by name ("x" means "x:0",
  refused when the op has more outputs)."""
  graph = _ops.get_default_graph()
  if not isinstance(obj, str):
    if not hasattr(obj, "graph") or obj.graph != graph:
      raise ValueError("Passed %s should have graph attribute that is equal to current "
                       "graph %s." % (obj, graph))
    return obj
  if ":" in obj:
    return graph.as_graph_element(obj)
  element = graph.as_graph_element(obj + ":0")
  try:
    graph.as_graph_element(obj + ":1")
  except (KeyError, ValueError):
    pass
  else:
    raise ValueError("Name %s is ambiguous, as this `Operation` has multiple outputs "
                     "(at least 2)." % obj)
  return element


def _global_step_read(hook_name):
  read = _training_util._get_or_create_global_step_read()  # pylint: disable=protected-access
  if read is None:
    raise RuntimeError("Global step should be created to use %s." % hook_name)
  return read


class LoggingTensorHook(SessionRunHook):
  """Logs (tf.logging.info) the values of tensors every N steps or seconds, and/or
  at the end: "tag = value, ... (0.123 sec)"."""

  def __init__(self, tensors, every_n_iter=None, every_n_secs=None, at_end=False,
               formatter=None):
    only_at_end = at_end and every_n_iter is None and every_n_secs is None
    if not only_at_end and (every_n_iter is None) == (every_n_secs is None):
      raise ValueError("either at_end and/or exactly one of every_n_iter and every_n_secs "
                       "must be provided.")
    if every_n_iter is not None and every_n_iter <= 0:
      raise ValueError("invalid every_n_iter=%s." % every_n_iter)
    if not isinstance(tensors, dict):
      self._tag_order = tensors
      tensors = {item: item for item in tensors}
    else:
      self._tag_order = sorted(tensors.keys())
    self._tensors = tensors
    self._formatter = formatter
    self._timer = (NeverTriggerTimer() if only_at_end else
                   SecondOrStepTimer(every_secs=every_n_secs, every_steps=every_n_iter))
    self._log_at_end = at_end

  def begin(self):
    self._timer.reset()
    self._iter_count = 0
    self._current_tensors = {tag: _as_graph_element(t) for tag, t in self._tensors.items()}

  def before_run(self, run_context):
    self._should_trigger = self._timer.should_trigger_for_step(self._iter_count)
    return SessionRunArgs(self._current_tensors) if self._should_trigger else None

  def _log_tensors(self, values):
    original = _np.get_printoptions()
    _np.set_printoptions(suppress=True)
    try:
      elapsed, _ = self._timer.update_last_triggered_step(self._iter_count)
      if self._formatter:
        _logging.info(self._formatter(values))
      else:
        stats = ", ".join("%s = %s" % (tag, values[tag]) for tag in self._tag_order)
        if elapsed is not None:
          _logging.info("%s (%.3f sec)", stats, elapsed)
        else:
          _logging.info("%s", stats)
    finally:
      _np.set_printoptions(**original)

  def after_run(self, run_context, run_values):
    if self._should_trigger:
      self._log_tensors(run_values.results)
    self._iter_count += 1

  def end(self, session):
    if self._log_at_end:
      self._log_tensors(session.run(self._current_tensors))


class StopAtStepHook(SessionRunHook):
  """Requests a stop once the global step reaches `last_step` (or `num_steps` past
  its value when the session was created)."""

  def __init__(self, num_steps=None, last_step=None):
    if num_steps is None and last_step is None:
      raise ValueError("One of num_steps or last_step must be specified.")
    if num_steps is not None and last_step is not None:
      raise ValueError("Only one of num_steps or last_step can be specified.")
    self._num_steps = num_steps
    self._last_step = last_step

  def begin(self):
    self._global_step_tensor = _global_step_read("StopAtStepHook")

  def after_create_session(self, session, coord):
    if self._last_step is None:
      self._last_step = session.run(self._global_step_tensor) + self._num_steps

  def before_run(self, run_context):
    return SessionRunArgs(self._global_step_tensor)

  def after_run(self, run_context, run_values):
    if run_values.results + 1 >= self._last_step:
      # the value fetched was read before this step's update: read it again
      if run_context.session.run(self._global_step_tensor) >= self._last_step:
        run_context.request_stop()


class CheckpointSaverListener(object):
  """Called around the saves of a CheckpointSaverHook; after_save returning True
  stops training."""

  def begin(self):
    pass

  def before_save(self, session, global_step_value):
    pass

  def after_save(self, session, global_step_value):
    pass

  def end(self, session, global_step_value):
    pass


class CheckpointSaverHook(SessionRunHook):
  """Saves checkpoints every N steps or seconds, when the session is created and at
  the end (unless the last step was just saved); writes graph.pbtxt, the graph and
  meta-graph events and a SessionLog CHECKPOINT per save."""

  def __init__(self, checkpoint_dir, save_secs=None, save_steps=None, saver=None,
               checkpoint_basename="model.ckpt", scaffold=None, listeners=None,
               save_graph_def=True):
    _logging.info("Create CheckpointSaverHook.")
    if saver is not None and scaffold is not None:
      raise ValueError("You cannot provide both saver and scaffold.")
    self._saver = saver
    self._checkpoint_dir = checkpoint_dir
    self._save_path = _os.path.join(checkpoint_dir, checkpoint_basename)
    self._scaffold = scaffold
    self._timer = SecondOrStepTimer(every_secs=save_secs, every_steps=save_steps)
    self._listeners = listeners or []
    self._steps_per_run = 1000000
    self._save_graph_def = save_graph_def

  def _set_steps_per_run(self, steps_per_run):
    self._steps_per_run = steps_per_run

  def begin(self):
    self._summary_writer = _writer_cache().get(self._checkpoint_dir)
    self._global_step_tensor = _global_step_read("CheckpointSaverHook")
    self._run_args = SessionRunArgs(self._global_step_tensor)
    for listener in self._listeners:
      listener.begin()

  def after_create_session(self, session, coord):
    step = session.run(self._global_step_tensor)
    graph = _ops.get_default_graph()
    if self._save_graph_def:
      from tfc.framework import graph_io as _graph_io  # pylint: disable=g-import-not-at-top
      _graph_io.write_graph(graph.as_graph_def(add_shapes=True), self._checkpoint_dir,
                            "graph.pbtxt")
    saver = self._get_saver()
    from tfc.framework import meta_graph as _meta_graph  # pylint: disable=g-import-not-at-top
    meta_graph_def = _meta_graph.create_meta_graph_def(
        graph_def=graph.as_graph_def(add_shapes=True),
        saver_def=saver.saver_def if saver else None, graph=graph)
    self._summary_writer.add_graph(graph)
    self._summary_writer.add_meta_graph(meta_graph_def)
    self._save(session, step)
    self._timer.update_last_triggered_step(step)

  def before_run(self, run_context):
    return self._run_args

  def after_run(self, run_context, run_values):
    stale = int(run_values.results)
    timer = self._timer
    due = stale + self._steps_per_run
    if due < timer.quiet_below_step and (timer.quiet_until_time is None or
                                         _time.time() < timer.quiet_until_time):
      return  # the timer cannot fire: spare the call (see _set_quiet)
    if timer.should_trigger_for_step(due):
      step = run_context.session.run(self._global_step_tensor)
      if timer.should_trigger_for_step(step):
        timer.update_last_triggered_step(step)
        if self._save(run_context.session, step):
          run_context.request_stop()

  def end(self, session):
    last_step = session.run(self._global_step_tensor)
    if last_step != self._timer.last_triggered_step():
      self._save(session, last_step)
    for listener in self._listeners:
      listener.end(session, last_step)

  def _save(self, session, step):
    """Saves at `step`; True when a listener asks to stop."""
    _logging.info("Calling checkpoint listeners before saving checkpoint %d...", step)
    for listener in self._listeners:
      listener.before_save(session, step)
    _logging.info("Saving checkpoints for %d into %s.", step, self._save_path)
    self._get_saver().save(session, self._save_path, global_step=step,
                           write_meta_graph=self._save_graph_def)
    self._summary_writer.add_session_log(
        _protos.SessionLog(status=_protos.SessionLog.CHECKPOINT,
                           checkpoint_path=self._save_path), step)
    _logging.info("Calling checkpoint listeners after saving checkpoint %d...", step)
    should_stop = False
    for listener in self._listeners:
      if listener.after_save(session, step):
        _logging.info("A CheckpointSaverListener requested that training be stopped. "
                      "listener: {}".format(listener))
        should_stop = True
    return should_stop

  def _get_saver(self):
    if self._saver is not None:
      return self._saver
    if self._scaffold is not None:
      return self._scaffold.saver
    savers = _ops.get_collection(_ops.GraphKeys.SAVERS)
    if not savers:
      raise RuntimeError("No items in collection {}. Please add a saver to the collection "
                         "or provide a saver or scaffold.".format(_ops.GraphKeys.SAVERS))
    if len(savers) > 1:
      raise RuntimeError("More than one item in collection {}. Please indicate which one to "
                         "use by passing it to the constructor.".format(_ops.GraphKeys.SAVERS))
    self._saver = savers[0]
    return savers[0]


class StepCounterHook(SessionRunHook):
  """Writes and logs '<global step>/sec' every N steps or seconds."""

  def __init__(self, every_n_steps=100, every_n_secs=None, output_dir=None,
               summary_writer=None):
    if (every_n_steps is None) == (every_n_secs is None):
      raise ValueError("exactly one of every_n_steps and every_n_secs should be provided.")
    self._timer = SecondOrStepTimer(every_steps=every_n_steps, every_secs=every_n_secs)
    self._summary_writer = summary_writer
    self._output_dir = output_dir
    self._last_global_step = None
    self._steps_per_run = 1

  def _set_steps_per_run(self, steps_per_run):
    self._steps_per_run = steps_per_run

  def begin(self):
    if self._summary_writer is None and self._output_dir:
      self._summary_writer = _writer_cache().get(self._output_dir)
    self._global_step_tensor = _global_step_read("StepCounterHook")
    self._run_args = SessionRunArgs(self._global_step_tensor)
    self._summary_tag = _training_util.get_global_step().op.name + "/sec"

  def before_run(self, run_context):
    return self._run_args

  def _log_and_record(self, elapsed_steps, elapsed_time, global_step):
    rate = elapsed_steps / elapsed_time
    if self._summary_writer is not None:
      summary = _protos.Summary(value=[_protos.Summary.Value(tag=self._summary_tag,
                                                             simple_value=rate)])
      self._summary_writer.add_summary(summary, global_step)
    _logging.info("%s: %g", self._summary_tag, rate)

  def after_run(self, run_context, run_values):
    stale = int(run_values.results)
    timer = self._timer
    due = stale + self._steps_per_run
    quiet = due < timer.quiet_below_step and (timer.quiet_until_time is None or
                                              _time.time() < timer.quiet_until_time)
    if not quiet and timer.should_trigger_for_step(due):
      step = run_context.session.run(self._global_step_tensor)
      if self._timer.should_trigger_for_step(step):
        elapsed_time, elapsed_steps = self._timer.update_last_triggered_step(step)
        if elapsed_time is not None:
          self._log_and_record(elapsed_steps, elapsed_time, step)
    if stale == self._last_global_step:
      _logging.log_first_n(
          _logging.WARN, "It seems that global step (tf.train.get_global_step) has not been "
          "increased. Current value (could be stable): %s vs previous value: %s. You could "
          "increase the global step by passing tf.train.get_global_step() to "
          "Optimizer.apply_gradients or Optimizer.minimize.", 5, stale, self._last_global_step)
    self._last_global_step = stale


class NanLossDuringTrainingError(RuntimeError):
  """Raised by NanTensorHook when the loss is NaN."""

  def __str__(self):
    return "NaN loss during training."


class NanTensorHook(SessionRunHook):
  """Raises NanLossDuringTrainingError (or requests a stop) when the loss is NaN."""

  def __init__(self, loss_tensor, fail_on_nan_loss=True):
    self._loss_tensor = loss_tensor
    self._fail_on_nan_loss = fail_on_nan_loss

  def before_run(self, run_context):
    return SessionRunArgs(self._loss_tensor)

  def after_run(self, run_context, run_values):
    if _np.isnan(run_values.results):
      message = "Model diverged with loss = NaN."
      if self._fail_on_nan_loss:
        _logging.error(message)
        raise NanLossDuringTrainingError
      _logging.warning(message)
      run_context.request_stop()


class SummarySaverHook(SessionRunHook):
  """Runs the summary op every N steps or seconds and writes its result at the
  global step; SessionLog START on the first run."""

  def __init__(self, save_steps=None, save_secs=None, output_dir=None, summary_writer=None,
               scaffold=None, summary_op=None):
    if (scaffold is None and summary_op is None) or (scaffold is not None and
                                                     summary_op is not None):
      raise ValueError("Exactly one of scaffold or summary_op must be provided.")
    self._summary_op = summary_op
    self._summary_writer = summary_writer
    self._output_dir = output_dir
    self._scaffold = scaffold
    self._timer = SecondOrStepTimer(every_secs=save_secs, every_steps=save_steps)

  def begin(self):
    if self._summary_writer is None and self._output_dir:
      self._summary_writer = _writer_cache().get(self._output_dir)
    self._next_step = None
    self._global_step_tensor = _global_step_read("SummarySaverHook")
    # between summaries the hook fetches the global step alone (TF fetches
    # {"global_step": ...}; after_run reads either form)
    self._step_args = SessionRunArgs(self._global_step_tensor)

  def before_run(self, run_context):
    next_step = self._next_step
    timer = self._timer
    if next_step is not None and next_step < timer.quiet_below_step and (
        timer.quiet_until_time is None or _time.time() < timer.quiet_until_time):
      self._request_summary = False
      return self._step_args
    self._request_summary = (next_step is None or self._timer.should_trigger_for_step(next_step))
    if not self._request_summary:
      return self._step_args
    requests = {"global_step": self._global_step_tensor}
    summary_op = self._get_summary_op()
    if summary_op is not None:
      requests["summary"] = summary_op
    return SessionRunArgs(requests)

  def after_run(self, run_context, run_values):
    if not self._summary_writer:
      return
    results = run_values.results
    step = int(results["global_step"] if type(results) is dict else results) + 1  # pylint: disable=unidiomatic-typecheck
    if self._next_step is None or self._request_summary:
      step = run_context.session.run(self._global_step_tensor)
    if self._next_step is None:
      self._summary_writer.add_session_log(
          _protos.SessionLog(status=_protos.SessionLog.START), step)
    if self._request_summary:
      self._timer.update_last_triggered_step(step)
      for summary in results.get("summary", ()):
        self._summary_writer.add_summary(summary, step)
    self._next_step = step + 1

  def end(self, session=None):
    if self._summary_writer:
      self._summary_writer.flush()

  def _get_summary_op(self):
    summary_op = self._summary_op
    if summary_op is None and self._scaffold.summary_op is not None:
      summary_op = self._scaffold.summary_op
    if summary_op is None:
      return None
    return summary_op if isinstance(summary_op, list) else [summary_op]


class GlobalStepWaiterHook(SessionRunHook):
  """Delays the first run until the global step reaches `wait_until_step` (a
  worker waiting for the chief)."""

  def __init__(self, wait_until_step):
    self._wait_until_step = wait_until_step

  def begin(self):
    self._worker_is_started = False
    self._global_step_tensor = _global_step_read("_GlobalStepWaiterHook")

  def before_run(self, run_context):
    if self._worker_is_started:
      return None
    if self._wait_until_step <= 0:
      self._worker_is_started = True
      return None
    _logging.info("Waiting for global step %d before starting training.",
                  self._wait_until_step)
    last_logged = 0
    while True:
      step = run_context.session.run(self._global_step_tensor)
      if step >= self._wait_until_step:
        self._worker_is_started = True
        return None
      if step - last_logged > 1000:
        _logging.info("Waiting for global step %d before starting training. Current step "
                      "is %d.", self._wait_until_step, step)
        last_logged = step
      _time.sleep(0.5)


class FinalOpsHook(SessionRunHook):
  """Runs `final_ops` when the session ends; their values in `final_ops_values`."""

  def __init__(self, final_ops, final_ops_feed_dict=None):
    self._final_ops = final_ops
    self._final_ops_feed_dict = final_ops_feed_dict
    self._final_ops_values = None

  @property
  def final_ops_values(self):
    return self._final_ops_values

  def end(self, session):
    if self._final_ops is None:
      return
    try:
      self._final_ops_values = session.run(self._final_ops,
                                           feed_dict=self._final_ops_feed_dict)
    except (_errors.OutOfRangeError, StopIteration):
      _logging.warning("An OutOfRangeError or StopIteration was raised by the final ops of "
                       "FinalOpsHook: they should not depend on an input source.")
      raise


class FeedFnHook(SessionRunHook):
  """Feeds `feed_fn()` (a dict) into every run."""

  def __init__(self, feed_fn):
    self.feed_fn = feed_fn

  def before_run(self, run_context):
    return SessionRunArgs(fetches=None, feed_dict=self.feed_fn())


class ProfilerHook(SessionRunHook):
  """Every N steps or seconds, traces one run (FULL_TRACE) and writes its Chrome
  trace to output_dir/timeline-<step>.json and its RunMetadata to the events file."""

  def __init__(self, save_steps=None, save_secs=None, output_dir="", show_dataflow=True,
               show_memory=False):
    self._output_file = _os.path.join(output_dir, "timeline-{}.json")
    self._file_writer = _writer_cache().get(output_dir)
    self._show_dataflow = show_dataflow
    self._show_memory = show_memory
    self._timer = SecondOrStepTimer(every_secs=save_secs, every_steps=save_steps)

  def begin(self):
    self._next_step = None
    self._global_step_tensor = _global_step_read("ProfilerHook")

  def before_run(self, run_context):
    self._request_summary = (self._next_step is not None and
                             self._timer.should_trigger_for_step(self._next_step))
    options = (_protos.RunOptions(trace_level=_protos.RunOptions.FULL_TRACE)
               if self._request_summary else None)
    return SessionRunArgs({"global_step": self._global_step_tensor}, options=options)

  def after_run(self, run_context, run_values):
    stale = run_values.results["global_step"]
    if self._next_step is None:
      self._timer.update_last_triggered_step(stale)
    step = stale + 1
    if self._request_summary:
      step = run_context.session.run(self._global_step_tensor)
      self._timer.update_last_triggered_step(step)
      self._save(step, self._output_file.format(step), run_values.run_metadata.step_stats)
      self._file_writer.add_run_metadata(run_values.run_metadata, "step_%d" % step)
    self._next_step = step + 1

  def _save(self, step, save_path, step_stats):
    from tfc.client import timeline as _timeline  # pylint: disable=g-import-not-at-top
    _logging.info("Saving timeline for %d into '%s'.", step, save_path)
    with open(save_path, "w") as f:
      f.write(_timeline.Timeline(step_stats).generate_chrome_trace_format(
          show_dataflow=self._show_dataflow, show_memory=self._show_memory))


# The after_run methods that read run_values.results only (never options or
# run_metadata): MonitoredSession skips making those two per step when every
# hook's after_run is one of these.
RESULTS_ONLY_AFTER_RUN = frozenset([
    SessionRunHook.after_run, LoggingTensorHook.after_run, StopAtStepHook.after_run,
    CheckpointSaverHook.after_run, StepCounterHook.after_run, NanTensorHook.after_run,
    SummarySaverHook.after_run])
