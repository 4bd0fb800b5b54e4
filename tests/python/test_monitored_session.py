"""MonitoredTrainingSession, MonitoredSession, SingularMonitoredSession, Scaffold,
session creators and the standard hooks: the files and events they write (as
TensorFlow's hooks write them for the same script), hook call order, feeds and
fetches, chief/worker, recovery after AbortedError/UnavailableError, bad input."""
import glob
import logging
import os
import threading
import time

import numpy as np
import pytest

import tfc as tf

FEED_X = [1.0, 2.0, 3.0, 4.0]
FEED_Y = [1.5, 3.5, 5.5, 7.5]


@pytest.fixture(autouse=True)
def _close_cached_writers():
  """Hooks share FileWriters through FileWriterCache: close them after each test."""
  yield
  tf.summary.FileWriterCache.clear()


def _model():
  w = tf.Variable([0.1], tf.float32, name="W")
  b = tf.Variable([0.0], tf.float32, name="b")
  gs = tf.train.get_or_create_global_step()
  x = tf.placeholder(tf.float32, name="x")
  y = tf.placeholder(tf.float32, name="y")
  loss = tf.reduce_sum(tf.square(w * x + b - y), name="sq_loss")
  tf.summary.scalar("loss", loss)
  train = tf.train.GradientDescentOptimizer(0.01).minimize(loss, global_step=gs)
  return w, b, gs, x, y, loss, train


def _events(logdir):
  (path,) = glob.glob(os.path.join(str(logdir), "events.out.tfevents.*"))
  return list(tf.train.summary_iterator(path))


def _brief(events):
  out = []
  for e in events:
    kind = e.WhichOneof("what")
    if kind == "summary":
      out.append((e.step, e.summary.value[0].tag))
    elif kind == "session_log":
      out.append((e.step, tf.summary.SessionLog.SessionStatus.Name(e.session_log.status)))
    else:
      out.append((e.step, kind))
  return out


class Recorder(tf.train.SessionRunHook):
  """Records the calls it gets."""

  def __init__(self, fetches=None):
    self.calls = []
    self.fetches = fetches
    self.results = []

  def begin(self):
    self.calls.append("begin")

  def after_create_session(self, session, coord):
    assert isinstance(coord, tf.train.Coordinator)
    assert session.graph.finalized
    self.calls.append("after_create_session")

  def before_run(self, run_context):
    self.calls.append("before_run")
    assert isinstance(run_context.original_args, tf.train.SessionRunArgs)
    if self.fetches is not None:
      return tf.train.SessionRunArgs(self.fetches)
    return None

  def after_run(self, run_context, run_values):
    self.calls.append("after_run")
    assert isinstance(run_values, tf.train.SessionRunValues)
    self.results.append(run_values.results)

  def end(self, session):
    self.calls.append("end")


def test_training_with_default_hooks_writes_tf_files(tmp_path):
  """The same script under TF 2.21 (tf.compat.v1) writes these files and events."""
  with tf.Graph().as_default():
    w, b, gs, x, y, loss, train = _model()
    hooks = [tf.train.StopAtStepHook(last_step=250), tf.train.NanTensorHook(loss),
             tf.train.LoggingTensorHook({"loss": loss}, every_n_iter=100)]
    final = tf.train.FinalOpsHook([w, b])
    with tf.train.MonitoredTrainingSession(checkpoint_dir=str(tmp_path), hooks=hooks + [final],
                                           save_checkpoint_steps=100,
                                           log_step_count_steps=50) as sess:
      n = 0
      while not sess.should_stop():
        sess.run(train, {x: FEED_X, y: FEED_Y})
        n += 1
    assert not tf.get_default_graph().finalized  # unfinalized again at close
  assert n == 250
  np.testing.assert_allclose(final.final_ops_values[0], [1.9828098], rtol=1e-6)
  np.testing.assert_allclose(final.final_ops_values[1], [-0.44945866], rtol=1e-5)
  names = sorted(os.listdir(tmp_path))
  assert [n for n in names if not n.startswith("events.")] == [
      "checkpoint", "graph.pbtxt"] + ["model.ckpt-%d.%s" % (s, ext) for s in (0, 100, 200, 250)
                                      for ext in ("data-00000-of-00001", "index", "meta")]
  state = tf.train.get_checkpoint_state(str(tmp_path))
  assert state.model_checkpoint_path == str(tmp_path / "model.ckpt-250")
  assert list(state.all_model_checkpoint_paths) == [
      str(tmp_path / ("model.ckpt-%d" % s)) for s in (0, 100, 200, 250)]
  tf.summary.FileWriterCache.clear()
  brief = _brief(_events(tmp_path))
  assert brief[:9] == [(0, "file_version"), (0, "graph_def"), (0, "meta_graph_def"),
                       (0, "graph_def"), (0, "meta_graph_def"), (0, "CHECKPOINT"),
                       (1, "START"), (1, "loss"), (51, "global_step/sec")]
  rates = [s for s, tag in brief if tag == "global_step/sec"]
  assert rates == [51, 101, 151, 201]
  ckpts = [s for s, tag in brief if tag == "CHECKPOINT"]
  assert ckpts == [0, 100, 200, 250]
  losses = [s for s, tag in brief if tag == "loss"]
  # TF's read of the global step may run before or after the increment in a
  # step; either way a summary is taken every 100 steps
  assert losses[0] == 1 and losses[1] in (100, 101) and losses[2] in (200, 201)


def test_hook_call_order_and_fetches():
  with tf.Graph().as_default():
    _, _, gs, x, y, loss, train = _model()
    rec = Recorder(fetches={"loss": loss, "gs": gs})
    with tf.train.MonitoredSession(hooks=[rec]) as sess:
      out = sess.run(train, {x: FEED_X, y: FEED_Y})
      assert out is None
      out = sess.run([loss, gs], {x: FEED_X, y: FEED_Y})
      assert out[1] == 1
    assert rec.calls == ["begin", "after_create_session", "before_run", "after_run",
                         "before_run", "after_run", "end"]
    assert set(rec.results[0]) == {"loss", "gs"}
    assert rec.results[1]["gs"] == 1


def test_feed_fn_hook_and_feed_conflicts():
  with tf.Graph().as_default():
    _, _, gs, x, y, loss, train = _model()
    hook = tf.train.FeedFnHook(lambda: {x: FEED_X, y: FEED_Y})
    with tf.train.MonitoredSession(hooks=[hook]) as sess:
      assert sess.run(loss) == pytest.approx(90.3, rel=1e-5)
      with pytest.raises(RuntimeError, match="Same tensor is fed by a SessionRunHook and user"):
        sess.run(loss, {x: FEED_X})
  with tf.Graph().as_default():
    _, _, gs, x, y, loss, train = _model()
    hooks = [tf.train.FeedFnHook(lambda: {x: FEED_X}), tf.train.FeedFnHook(lambda: {x: FEED_X})]
    with tf.train.MonitoredSession(hooks=hooks) as sess:
      with pytest.raises(RuntimeError, match="Same tensor is fed by two hooks"):
        sess.run(loss, {y: FEED_Y})


def test_stop_at_step_num_steps_continues_from_checkpoint(tmp_path):
  for run, expect in ((0, 30), (1, 60)):
    with tf.Graph().as_default():
      _, _, gs, x, y, loss, train = _model()
      with tf.train.MonitoredTrainingSession(
          checkpoint_dir=str(tmp_path), hooks=[tf.train.StopAtStepHook(num_steps=30)]) as sess:
        n = 0
        while not sess.should_stop():
          n += 1
          assert sess.run(train, {x: FEED_X, y: FEED_Y}) is None
        assert n == 30
    # end() saved the last step
    assert tf.train.latest_checkpoint(str(tmp_path)).endswith("model.ckpt-%d" % expect)


def test_stop_at_step_arguments():
  with pytest.raises(ValueError, match="One of num_steps or last_step must be specified"):
    tf.train.StopAtStepHook()
  with pytest.raises(ValueError, match="Only one of num_steps or last_step"):
    tf.train.StopAtStepHook(num_steps=1, last_step=2)
  with tf.Graph().as_default():
    tf.Variable(1.0)
    with pytest.raises(RuntimeError, match="Global step should be created to use StopAtStepHook"):
      tf.train.MonitoredSession(hooks=[tf.train.StopAtStepHook(num_steps=1)])


def test_nan_tensor_hook():
  with tf.Graph().as_default():
    v = tf.Variable(1.0)
    tf.train.get_or_create_global_step()
    nan = v * float("nan")
    with pytest.raises(tf.train.NanLossDuringTrainingError, match="NaN loss during training"):
      with tf.train.MonitoredSession(hooks=[tf.train.NanTensorHook(nan)]) as sess:
        sess.run(v)
  with tf.Graph().as_default():
    v = tf.Variable(1.0)
    nan = v * float("nan")
    with tf.train.MonitoredSession(
        hooks=[tf.train.NanTensorHook(nan, fail_on_nan_loss=False)]) as sess:
      sess.run(v)
      assert sess.should_stop()
      with pytest.raises(RuntimeError, match="Run called even after should_stop requested"):
        sess.run(v)


def test_logging_tensor_hook(caplog):
  logger = logging.getLogger("tensorflow")
  old = logger.level
  logger.setLevel(logging.INFO)
  logger.propagate = True
  try:
    with tf.Graph().as_default():
      v = tf.Variable(2.0, name="v")
      p = tf.placeholder(tf.float32, name="p")
      out = p + v
      hook = tf.train.LoggingTensorHook(["p"], every_n_iter=2)
      end_hook = tf.train.LoggingTensorHook({"value": v}, at_end=True,
                                            formatter=lambda d: "formatted %s" % d["value"])
      with caplog.at_level(logging.INFO, logger="tensorflow"):
        with tf.train.MonitoredSession(hooks=[hook, end_hook]) as sess:
          for i in range(4):
            sess.run(out, {p: float(i)})
      # (one record per handler the logger reaches: keep each message once)
      lines = list(dict.fromkeys(r.getMessage() for r in caplog.records
                                 if r.getMessage().startswith("p = ")))
      assert lines[0] == "p = 0.0"
      assert lines[1].startswith("p = 2.0 (") and lines[1].endswith(" sec)")
      assert len(lines) == 2
      assert {r.getMessage() for r in caplog.records
              if r.getMessage().startswith("formatted")} == {"formatted 2.0"}
  finally:
    logger.setLevel(old)
    logger.propagate = False
  with pytest.raises(ValueError, match="either at_end and/or exactly one"):
    tf.train.LoggingTensorHook(["v"])
  with pytest.raises(ValueError, match="invalid every_n_iter=0"):
    tf.train.LoggingTensorHook(["v"], every_n_iter=0)


def test_logging_tensor_hook_ambiguous_name():
  with tf.Graph().as_default():
    a = tf.placeholder(tf.float32, [4])
    tf.split(a, 2, name="two")
    tf.train.get_or_create_global_step()
    with pytest.raises(ValueError, match="Name two is ambiguous"):
      tf.train.MonitoredSession(hooks=[tf.train.LoggingTensorHook(["two"], every_n_iter=1)])


def test_step_counter_and_summary_saver_hooks(tmp_path):
  with tf.Graph().as_default():
    _, _, gs, x, y, loss, train = _model()
    summ = tf.summary.merge_all()
    writer = tf.summary.FileWriter(str(tmp_path))
    hooks = [tf.train.StepCounterHook(every_n_steps=10, summary_writer=writer),
             tf.train.SummarySaverHook(save_steps=5, summary_writer=writer, summary_op=summ),
             tf.train.StopAtStepHook(last_step=20)]
    with tf.train.MonitoredSession(hooks=hooks) as sess:
      while not sess.should_stop():
        sess.run(train, {x: FEED_X, y: FEED_Y})
    writer.close()
  brief = _brief(_events(tmp_path))
  assert (1, "START") in brief
  assert [s for s, t in brief if t == "global_step/sec"] == [11]
  loss_steps = [s for s, t in brief if t == "loss"]
  assert loss_steps[0] == 1 and len(loss_steps) == 4
  with pytest.raises(ValueError, match="Exactly one of scaffold or summary_op"):
    tf.train.SummarySaverHook(save_steps=1)
  with pytest.raises(ValueError, match="exactly one of every_n_steps and every_n_secs"):
    tf.train.StepCounterHook(every_n_steps=None)


class Listener(tf.train.CheckpointSaverListener):

  def __init__(self, stop_at=None):
    self.calls = []
    self.stop_at = stop_at

  def begin(self):
    self.calls.append("begin")

  def before_save(self, session, global_step_value):
    self.calls.append(("before_save", global_step_value))

  def after_save(self, session, global_step_value):
    self.calls.append(("after_save", global_step_value))
    return self.stop_at is not None and global_step_value >= self.stop_at

  def end(self, session, global_step_value):
    self.calls.append(("end", global_step_value))


def test_checkpoint_saver_hook_and_listener(tmp_path):
  with tf.Graph().as_default():
    _, _, gs, x, y, loss, train = _model()
    saver = tf.train.Saver(max_to_keep=2)
    listener = Listener(stop_at=6)
    hook = tf.train.CheckpointSaverHook(str(tmp_path), save_steps=3, saver=saver,
                                        listeners=[listener])
    with tf.train.MonitoredSession(hooks=[hook]) as sess:
      n = 0
      while not sess.should_stop():
        sess.run(train, {x: FEED_X, y: FEED_Y})
        n += 1
      assert n == 6
  assert listener.calls == ["begin", ("before_save", 0), ("after_save", 0),
                            ("before_save", 3), ("after_save", 3),
                            ("before_save", 6), ("after_save", 6), ("end", 6)]
  state = tf.train.get_checkpoint_state(str(tmp_path))
  assert [os.path.basename(p) for p in state.all_model_checkpoint_paths] == [
      "model.ckpt-3", "model.ckpt-6"]
  assert not os.path.exists(str(tmp_path / "model.ckpt-0.index"))
  with pytest.raises(ValueError, match="You cannot provide both saver and scaffold"):
    tf.train.CheckpointSaverHook(str(tmp_path), save_steps=1, saver=saver,
                                 scaffold=tf.train.Scaffold())
  with pytest.raises(ValueError, match="Can not provide both every_secs and every_steps"):
    tf.train.CheckpointSaverHook(str(tmp_path), save_steps=1, save_secs=1)


def test_global_step_waiter_hook():
  with tf.Graph().as_default():
    gs = tf.train.get_or_create_global_step()
    inc = tf.assign_add(gs, 1)
    hook = tf.train.GlobalStepWaiterHook(wait_until_step=0)
    with tf.train.MonitoredSession(hooks=[hook]) as sess:
      assert sess.run(inc) == 1


def test_global_step_waiter_hook_waits_for_another_thread():
  with tf.Graph().as_default():
    gs = tf.train.get_or_create_global_step()
    inc = tf.assign_add(gs, 1)
    hook = tf.train.GlobalStepWaiterHook(wait_until_step=3)
    hook.begin()
    with tf.train.SingularMonitoredSession() as outer:
      raw = outer.raw_session()

      def bump():
        for _ in range(3):
          time.sleep(0.1)
          raw.run(inc)
      t = threading.Thread(target=bump)
      t.start()
      ctx = tf.train.SessionRunContext(tf.train.SessionRunArgs(None), raw)
      t0 = time.time()
      assert hook.before_run(ctx) is None
      assert raw.run(gs) >= 3 and time.time() - t0 >= 0.25
      t.join()


def test_final_ops_hook_with_feed():
  with tf.Graph().as_default():
    p = tf.placeholder(tf.float32)
    doubled = p * 2
    hook = tf.train.FinalOpsHook(doubled, {p: 21.0})
    with tf.train.MonitoredSession(hooks=[hook]):
      pass
    assert hook.final_ops_values == 42.0


def test_end_not_called_after_an_error():
  with tf.Graph().as_default():
    tf.Variable(1.0)
    rec = Recorder()
    with pytest.raises(ZeroDivisionError):
      with tf.train.MonitoredSession(hooks=[rec]):
        1 / 0  # pylint: disable=pointless-statement
    assert "end" not in rec.calls


def test_out_of_range_ends_the_loop_cleanly():
  with tf.Graph().as_default():
    tf.Variable(1.0)
    rec = Recorder()
    with tf.train.MonitoredSession(hooks=[rec]) as sess:
      raise tf.errors.OutOfRangeError(None, None, "done")
    assert rec.calls[-1] == "end"
    assert sess.should_stop()
    with pytest.raises(RuntimeError, match="Session is already closed"):
      sess.close()


class Preempt(tf.train.SessionRunHook):
  """Raises the given error from before_run a number of times."""

  def __init__(self, error_class, times):
    self.error_class = error_class
    self.times = times
    self.sessions = 0

  def after_create_session(self, session, coord):
    self.sessions += 1

  def before_run(self, run_context):
    if self.times:
      self.times -= 1
      raise self.error_class(None, None, "preempted")


@pytest.mark.parametrize("error_class", [tf.errors.AbortedError, tf.errors.UnavailableError])
def test_session_recreated_after_preemption(tmp_path, error_class):
  with tf.Graph().as_default():
    v = tf.Variable(1.0, name="v")
    gs = tf.train.get_or_create_global_step()
    bump = tf.group(tf.assign_add(v, 1.0), tf.assign_add(gs, 1))
    saver = tf.train.Saver()
    preempt = Preempt(error_class, 0)
    with tf.train.MonitoredTrainingSession(checkpoint_dir=str(tmp_path), hooks=[preempt],
                                           save_summaries_steps=None) as sess:
      sess.run(bump)
      sess.run(bump)
      saver.save(sess._tf_sess(), str(tmp_path / "model.ckpt"), global_step=2)  # pylint: disable=protected-access
      sess.run(bump)
      preempt.times = 2
      # the next run is retried on a new session restored from model.ckpt-2
      sess.run(bump)
      assert preempt.sessions == 3
      assert sess.run([v, gs]) == [4.0, 3]


def test_singular_monitored_session_does_not_recover():
  with tf.Graph().as_default():
    v = tf.Variable(1.0)
    with tf.train.SingularMonitoredSession(hooks=[Preempt(tf.errors.AbortedError, 1)]) as sess:
      with pytest.raises(tf.errors.AbortedError, match="preempted"):
        sess.run(v)
      assert isinstance(sess.raw_session(), tf.Session)


def test_non_chief_waits_for_chief(tmp_path):
  with tf.Graph().as_default():
    with tf.device("/cpu:0"):
      v = tf.Variable(7.0)
    sm_creator = tf.train.WorkerSessionCreator(max_wait_secs=0)
    with pytest.raises(tf.errors.DeadlineExceededError, match="Session was not ready"):
      tf.train.MonitoredSession(session_creator=sm_creator)
    del v


def test_worker_against_initialized_server():
  server = tf.train.Server.create_local_server()
  with tf.Graph().as_default():
    with tf.device("/job:localhost/task:0/cpu:0"):
      v = tf.Variable(7.0, name="shared_v")
    gs = tf.train.get_or_create_global_step()
    with tf.train.MonitoredTrainingSession(master=server.target, is_chief=True) as chief:
      assert chief.run(v) == 7.0
      rec = Recorder()
      with tf.train.MonitoredTrainingSession(master=server.target, is_chief=False,
                                             hooks=[rec], max_wait_secs=10) as worker:
        assert worker.run(v) == 7.0
      assert rec.calls[0] == "begin"
    del gs


def test_scaffold():
  with tf.Graph().as_default():
    v = tf.Variable(1.0)
    scaffold = tf.train.Scaffold(init_fn=lambda scaffold, sess: sess.run(tf.no_op()))
    with pytest.raises(TypeError, match="copy_from_scaffold is not a Scaffold instance"):
      tf.train.Scaffold(copy_from_scaffold=object())
    copied = tf.train.Scaffold(copy_from_scaffold=scaffold, init_feed_dict={})
    assert copied.init_feed_dict == {}
    del v
  with tf.Graph().as_default():
    v = tf.Variable(1.0)
    calls = []
    scaffold = tf.train.Scaffold(init_fn=lambda scaffold, sess: calls.append(scaffold))
    with tf.train.MonitoredSession(
        session_creator=tf.train.ChiefSessionCreator(scaffold=scaffold)) as sess:
      assert sess.run(v) == 1.0
    assert calls == [scaffold]
    assert scaffold.saver is tf.get_collection(tf.GraphKeys.SAVERS)[0]
    assert scaffold.init_op is tf.get_collection(tf.GraphKeys.INIT_OP)[0]
    assert scaffold.ready_op is not None and scaffold.local_init_op is not None
  with tf.Graph().as_default():
    tf.Variable(1.0)
    tf.add_to_collection(tf.GraphKeys.INIT_OP, tf.no_op())
    tf.add_to_collection(tf.GraphKeys.INIT_OP, tf.no_op())
    with pytest.raises(RuntimeError, match="More than one item in the collection"):
      tf.train.Scaffold().finalize()


def test_run_step_fn():
  with tf.Graph().as_default():
    v = tf.Variable(1.0)
    inc = tf.assign_add(v, 1.0)
    rec = Recorder()
    with tf.train.MonitoredSession(hooks=[rec]) as sess:
      assert sess.run_step_fn(lambda step_context: step_context.session.run(v)) == 1.0
      assert rec.calls.count("before_run") == 0
      assert sess.run_step_fn(lambda step_context: step_context.run_with_hooks(inc)) == 2.0
      assert rec.calls.count("before_run") == 1

      def stopper(step_context):
        step_context.request_stop()
      with pytest.raises(StopIteration):
        sess.run_step_fn(stopper)
      with pytest.raises(ValueError, match="`step_fn` may either have one `step_context`"):
        sess.run_step_fn(lambda ctx: None)


def test_hook_options_and_run_metadata_merge():
  class Opts(tf.train.SessionRunHook):
    def before_run(self, run_context):
      return tf.train.SessionRunArgs(None, options=tf.RunOptions(timeout_in_ms=5000))

    def after_run(self, run_context, run_values):
      self.options = run_values.options
      self.metadata = run_values.run_metadata

  with tf.Graph().as_default():
    v = tf.Variable(1.0)
    hook = Opts()
    with tf.train.MonitoredSession(hooks=[hook]) as sess:
      sess.run(v, options=tf.RunOptions(timeout_in_ms=10))
    assert hook.options.timeout_in_ms == 5000
    assert isinstance(hook.metadata, tf.RunMetadata)


def test_summary_writer_cache(tmp_path):
  with tf.Graph().as_default():
    w1 = tf.summary.FileWriterCache.get(str(tmp_path))
    assert tf.summary.FileWriterCache.get(str(tmp_path)) is w1
    assert tf.train.SummaryWriterCache is tf.summary.FileWriterCache
    tf.summary.FileWriterCache.clear()
    assert tf.summary.FileWriterCache.get(str(tmp_path)) is not w1
    tf.summary.FileWriterCache.clear()


def test_second_or_step_timer():
  timer = tf.train.SecondOrStepTimer(every_steps=10)
  assert timer.should_trigger_for_step(0)
  assert timer.update_last_triggered_step(0) == (None, None)
  assert not timer.should_trigger_for_step(0) and not timer.should_trigger_for_step(9)
  assert timer.should_trigger_for_step(10)
  secs, steps = timer.update_last_triggered_step(12)
  assert steps == 12 and secs >= 0 and timer.last_triggered_step() == 12
  with pytest.raises(ValueError, match="Either every_secs or every_steps should be provided"):
    tf.train.SecondOrStepTimer()


def test_timer_quiet_bounds_never_hide_a_firing():
  """quiet_below_step / quiet_until_time let the hooks skip the timer call;
  whenever they say quiet, should_trigger_for_step must say False."""
  import time
  rng = np.random.RandomState(3)
  for timer in (tf.train.SecondOrStepTimer(every_steps=7), tf.train.SecondOrStepTimer(every_steps=1),
                tf.train.SecondOrStepTimer(every_secs=0.002)):
    step = 0
    for _ in range(400):
      step += int(rng.randint(-1, 4))
      fires = timer.should_trigger_for_step(step)   # asked first: the clock only moves on
      quiet = step < timer.quiet_below_step and (timer.quiet_until_time is None or
                                                 time.time() < timer.quiet_until_time)
      assert not (quiet and fires), (timer._every_steps, timer._every_secs, step)  # pylint: disable=protected-access
      if fires and rng.rand() < 0.7:
        timer.update_last_triggered_step(step)
      if rng.rand() < 0.01:
        time.sleep(0.003)


def test_hook_errors_and_requests_through_the_step_path():
  """The per-step path (C) propagates a hook's exception, hands a request with
  feeds to the general merge, and stops after request_stop."""
  class Boom(tf.train.SessionRunHook):
    def __init__(self):
      self.where = None

    def before_run(self, run_context):
      if self.where == "before":
        raise ValueError("boom before")
      return None

    def after_run(self, run_context, run_values):
      if self.where == "after":
        raise KeyError("boom after")

  class Feeder(tf.train.SessionRunHook):
    def __init__(self, p):
      self.p = p
      self.p2 = p * 2.0
      self.seen = []

    def before_run(self, run_context):
      return tf.train.SessionRunArgs(self.p2, feed_dict={self.p: 3.0})

    def after_run(self, run_context, run_values):
      self.seen.append(run_values.results)
      if len(self.seen) == 2:
        run_context.request_stop()

  with tf.Graph().as_default():
    p = tf.placeholder(tf.float32, [])
    q = tf.placeholder(tf.float32, [])
    q1 = q + 1.0
    boom, feeder = Boom(), Feeder(p)
    with tf.train.MonitoredSession(hooks=[boom, feeder]) as sess:
      assert sess.run(q1, {q: 1.0}) == 2.0
      boom.where = "before"
      with pytest.raises(ValueError, match="boom before"):
        sess.run(q, {q: 1.0})
      boom.where = "after"
      with pytest.raises(KeyError, match="boom after"):
        sess.run(q, {q: 1.0})
      assert feeder.seen == [6.0]   # an after_run that raises ends the step's after_runs
      boom.where = None
      assert not sess.should_stop()
      assert sess.run(q1, {q: 2.0}) == 3.0
      assert feeder.seen == [6.0, 6.0] and sess.should_stop()
      with pytest.raises(RuntimeError, match="Run called even after should_stop requested"):
        sess.run(q, {q: 1.0})


def test_profiler_hook_writes_chrome_traces(tmp_path):
  import json
  with tf.Graph().as_default():
    _, _, gs, x, y, loss, train = _model()
    hook = tf.train.ProfilerHook(save_steps=2, output_dir=str(tmp_path))
    with tf.train.MonitoredSession(hooks=[hook, tf.train.StopAtStepHook(last_step=6)]) as sess:
      while not sess.should_stop():
        sess.run(train, {x: FEED_X, y: FEED_Y})
  tf.summary.FileWriterCache.clear()
  traces = sorted(p.name for p in tmp_path.glob("timeline-*.json"))
  assert traces and all(p.startswith("timeline-") for p in traces)
  trace = json.loads((tmp_path / traces[0]).read_text())
  assert any(e.get("ph") == "X" for e in trace["traceEvents"])
  events = [e for p in tmp_path.glob("events.out.tfevents.*")
            for e in tf.train.summary_iterator(str(p))]
  assert [e.tagged_run_metadata.tag for e in events
          if e.WhichOneof("what") == "tagged_run_metadata"] == [
              "step_%s" % t[len("timeline-"):-len(".json")] for t in traces]


def test_chief_recovers_after_parameter_server_restart(tmp_path):
  """A real ps task is killed and restarted mid-training: the worker's next run
  fails with AbortedError (the ps lost its graphs and variables); the
  MonitoredSession makes a new session, which restores the newest checkpoint,
  and training goes on to the last step."""
  from cluster_util import Cluster
  c = Cluster({"ps": 1, "worker": 1})
  try:
    with tf.Graph().as_default():
      with tf.device("/job:ps/task:0"):
        v = tf.Variable(0.0, name="v")
        gs = tf.train.get_or_create_global_step()
      with tf.device("/job:worker/task:0"):
        one = tf.constant(2.0) * 0.5
      bump = tf.group(tf.assign_add(v, one), tf.assign_add(gs, 1))
      counter = Preempt(tf.errors.AbortedError, 0)
      with tf.train.MonitoredTrainingSession(
          master=c.target("worker", 0), checkpoint_dir=str(tmp_path), save_checkpoint_steps=5,
          save_summaries_steps=None, log_step_count_steps=None,
          hooks=[tf.train.StopAtStepHook(last_step=20), counter]) as sess:
        steps = 0
        while not sess.should_stop():
          sess.run(bump)
          steps += 1
          if steps == 8:
            c.kill("ps", 0)
            c.restart("ps", 0)
        final = sess.run_step_fn(lambda step_context: step_context.session.run([v, gs]))
    assert counter.sessions == 2
    assert final == [20.0, 20]
    # 8 steps, then a restore from model.ckpt-5, then 15 more
    assert steps == 8 + 15
  finally:
    c.stop()
