"""tf.train.Supervisor and tf.train.SessionManager: seed 003's scripts run as
written in subprocesses (logdir under a temporary directory), the files and
events they write (as TensorFlow writes them), recovery after SIGKILL, and the
Supervisor's API and error cases in process."""
import glob
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest

import tfc as tf

SEED_LOGDIR = "/tmp/tensorflow/supervisor"

# Seed 003, "The full source code to train a linear model", as written.
TRAIN_SCRIPT = '''import tensorflow as tf

W = tf.Variable([0.1], tf.float32)
b = tf.Variable([0.0], tf.float32)
global_step = tf.Variable(0, name='global_step', trainable=False)

x = tf.placeholder(tf.float32)
y = tf.placeholder(tf.float32)

# Define a linear model y = Wx + b
model = W * x + b

loss = tf.reduce_sum(tf.square(model - y))
tf.summary.scalar('loss', loss)

optimizer = tf.train.GradientDescentOptimizer(0.01)
train = optimizer.minimize(loss, global_step=global_step)

x_train = [1.0, 2.0, 3.0, 4.0]
y_train = [1.5, 3.5, 5.5, 7.5]

summary_op = tf.summary.merge_all()

init = tf.global_variables_initializer()

sv = tf.train.Supervisor(logdir="/tmp/tensorflow/supervisor", summary_op=None)
with sv.managed_session() as sess:
    sess.run(init)
    for step in range(1000):
        if sv.should_stop():
            break
        sess.run(train, {x:x_train, y:y_train})

        if step % 100 == 0:
            _, summ = sess.run([train, summary_op], {x:x_train, y:y_train})
            sv.summary_computed(sess, summ)
        else:
            sess.run(train, {x: x_train, y: y_train})

    l_W, l_b, l_cost  = sess.run([W, b, loss], {x:x_train, y:y_train})
    print(f"W: {l_W} b: {l_b} cost: {l_cost}")
    # W: [ 1.99999797] b: [-0.49999401] cost: 2.2751578399038408e-11
'''

# Seed 003, "Here is the full code for the linear model" (pre-train data), as written.
PRETRAIN_SCRIPT = '''import tensorflow as tf

logdir = "/tmp/tensorflow/supervisor"

def load_pretrain(sess):
    pre_train_saver.restore(sess, "logdir")

W = tf.Variable([0.1], tf.float32)
b = tf.Variable([0.0], tf.float32)
global_step = tf.Variable(0, name='global_step', trainable=False)

pre_train_saver = tf.train.Saver([W, b])

x = tf.placeholder(tf.float32)
y = tf.placeholder(tf.float32)

# Define a linear model y = Wx + b
model = W * x + b

loss = tf.reduce_sum(tf.square(model - y))
tf.summary.scalar('loss', loss)

optimizer = tf.train.GradientDescentOptimizer(0.01)
train = optimizer.minimize(loss, global_step=global_step)

x_train = [1.0, 2.0, 3.0, 4.0]
y_train = [1.5, 3.5, 5.5, 7.5]

summary_op = tf.summary.merge_all()

init = tf.global_variables_initializer()

sv = tf.train.Supervisor(logdir=logdir, summary_op=None, init_fn=load_pretrain)
with sv.managed_session() as sess:
    sess.run(init)
    for step in range(1000):
        if sv.should_stop():
            break
        sess.run(train, {x:x_train, y:y_train})

        if step % 100 == 0:
            _, summ = sess.run([train, summary_op], {x:x_train, y:y_train})
            sv.summary_computed(sess, summ)
        else:
            sess.run(train, {x: x_train, y: y_train})

    l_W, l_b, l_cost  = sess.run([W, b, loss], {x:x_train, y:y_train})
    print(f"W: {l_W} b: {l_b} cost: {l_cost}")
    # W: [ 1.99999797] b: [-0.49999401] cost: 2.2751578399038408e-11
'''

# What TensorFlow 2.21 (tf.compat.v1, ref variables) prints for both scripts.
TF_FINAL_LINE = "W: [1.9999993] b: [-0.49999803] cost: 2.5579538487363607e-12"


def _script(tmp_path, name, text, logdir):
  path = tmp_path / name
  path.write_text(text.replace("import tensorflow as tf", "import tfc as tf")
                  .replace(SEED_LOGDIR, str(logdir)))
  return path


def _run(path, cwd, timeout=240):
  return subprocess.run([sys.executable, str(path)], cwd=str(cwd), capture_output=True,
                        text=True, timeout=timeout)


def _events(logdir):
  out = []
  for path in sorted(glob.glob(os.path.join(str(logdir), "events.out.tfevents.*"))):
    out.append((path, list(tf.train.summary_iterator(path))))
  return out


def test_seed_train_script_files_and_events(tmp_path):
  logdir = tmp_path / "supervisor"
  r = _run(_script(tmp_path, "train.py", TRAIN_SCRIPT, logdir), tmp_path)
  assert r.returncode == 0, r.stderr
  assert r.stdout.strip().splitlines()[-1] == TF_FINAL_LINE
  names = sorted(os.listdir(logdir))
  events_files = [n for n in names if n.startswith("events.out.tfevents.")]
  assert len(events_files) == 1
  host = os.uname().nodename
  assert events_files[0].split(".", 4)[3].isdigit() and len(events_files[0].split(".")[3]) == 10
  assert events_files[0].endswith("." + host)
  # one checkpoint, saved by the checkpoint thread at start (named by the global step
  # it read then: 0, or a little more when the training loop was quicker, as in
  # TF), none at stop: save_model_secs is 600
  (index,) = [n for n in names if n.endswith(".index")]
  prefix = index[:-len(".index")]
  assert prefix.startswith("model.ckpt-") and int(prefix[len("model.ckpt-"):]) < 100
  assert sorted(set(names) - set(events_files)) == [
      "checkpoint", "graph.pbtxt", prefix + ".data-00000-of-00001", prefix + ".index",
      prefix + ".meta"]
  state = (logdir / "checkpoint").read_text()
  assert state == ('model_checkpoint_path: "%s/%s"\n'
                   'all_model_checkpoint_paths: "%s/%s"\n' % (logdir, prefix, logdir, prefix))
  assert sorted(name for name, _ in tf.train.list_variables(str(logdir))) == [
      "Variable", "Variable_1", "global_step"]
  graph_def = tf.GraphDef()
  from google.protobuf import text_format
  text_format.Parse((logdir / "graph.pbtxt").read_text(), graph_def)
  assert "global_step" in [n.name for n in graph_def.node]

  ((_, events),) = _events(logdir)
  kinds = [e.WhichOneof("what") for e in events]
  assert kinds[:4] == ["file_version", "graph_def", "meta_graph_def", "session_log"]
  assert events[0].file_version == "brain.Event:2"
  assert events[3].session_log.status == tf.summary.SessionLog.START and events[3].step == 0
  assert events[-1].session_log.status == tf.summary.SessionLog.STOP and events[-1].step == 0
  meta = tf.MetaGraphDef.FromString(events[2].meta_graph_def)
  assert meta.saver_def.restore_op_name == "save/restore_all"
  loss_steps = [e.step for e in events
                if e.WhichOneof("what") == "summary" and e.summary.value[0].tag == "loss"]
  # two train steps before each summary; 10 summaries
  assert loss_steps == [2 + 200 * i for i in range(10)]
  rate = [e for e in events if e.WhichOneof("what") == "summary" and
          e.summary.value[0].tag == "global_step/sec"]
  # the step counter thread's first report comes at start: step 0, or a little more when
  # the training loop was quicker (as with the first checkpoint above, and as in TF)
  assert rate and rate[0].step < 100
  ckpt_logs = [e for e in events if e.WhichOneof("what") == "session_log" and
               e.session_log.status == tf.summary.SessionLog.CHECKPOINT]
  assert len(ckpt_logs) == 1
  assert ckpt_logs[0].session_log.checkpoint_path == str(logdir / "model.ckpt")


def test_seed_pretrain_script_fresh_logdir_fails_like_tf(tmp_path):
  logdir = tmp_path / "supervisor"
  r = _run(_script(tmp_path, "pretrain.py", PRETRAIN_SCRIPT, logdir), tmp_path)
  assert r.returncode == 1
  assert r.stderr.rstrip().splitlines()[-1] == (
      "ValueError: The passed save_path is not a valid checkpoint: logdir")
  assert "load_pretrain" in r.stderr
  # the writer was opened (and STOP written) before the failure; nothing else
  names = os.listdir(logdir)
  assert len(names) == 1 and names[0].startswith("events.out.tfevents.")
  ((_, events),) = _events(logdir)
  assert events[-1].session_log.status == tf.summary.SessionLog.STOP


def test_seed_pretrain_script_after_training_restores(tmp_path):
  logdir = tmp_path / "supervisor"
  r = _run(_script(tmp_path, "train.py", TRAIN_SCRIPT, logdir), tmp_path)
  assert r.returncode == 0, r.stderr
  # events files are named by the second they were opened in (as in TF 1.x):
  # start the second script in a later second so that it gets a file of its own
  time.sleep(1.0 - time.time() % 1.0 + 0.05)
  r = _run(_script(tmp_path, "pretrain.py", PRETRAIN_SCRIPT, logdir), tmp_path)
  assert r.returncode == 0, r.stderr
  assert r.stdout.strip().splitlines()[-1] == TF_FINAL_LINE
  assert len(_events(logdir)) == 2


# The seed's model under a Supervisor that saves every second and does not
# re-initialize: the first line printed is the global step it started from.
RESUME_SCRIPT = '''import sys, time
import tfc as tf

W = tf.Variable([0.1], tf.float32)
b = tf.Variable([0.0], tf.float32)
global_step = tf.Variable(0, name='global_step', trainable=False)
x = tf.placeholder(tf.float32)
y = tf.placeholder(tf.float32)
loss = tf.reduce_sum(tf.square(W * x + b - y))
train = tf.train.GradientDescentOptimizer(0.01).minimize(loss, global_step=global_step)
sv = tf.train.Supervisor(logdir=sys.argv[1], save_model_secs=1)
with sv.managed_session() as sess:
    print("start", sess.run(global_step), flush=True)
    for step in range(int(sys.argv[2])):
        if sv.should_stop():
            break
        sess.run(train, {x: [1.0, 2.0, 3.0, 4.0], y: [1.5, 3.5, 5.5, 7.5]})
        time.sleep(0.002)
    print("end", sess.run(global_step), flush=True)
'''


def _ckpt_step(logdir):
  latest = tf.train.latest_checkpoint(str(logdir))
  return None if latest is None else int(latest.rsplit("-", 1)[1])


def test_sigkill_mid_run_then_resume_from_saved_global_step(tmp_path):
  logdir = tmp_path / "run"
  script = tmp_path / "resume.py"
  script.write_text(RESUME_SCRIPT)
  proc = subprocess.Popen([sys.executable, str(script), str(logdir), "1000000"],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
  try:
    deadline = time.time() + 120
    while time.time() < deadline:
      step = _ckpt_step(logdir) if (logdir / "checkpoint").exists() else None
      if step is not None and step > 0:
        break
      assert proc.poll() is None, proc.stderr.read()
      time.sleep(0.05)
    else:
      pytest.fail("no checkpoint past step 0 in time")
    time.sleep(0.3)  # kill it somewhere in the middle of the next interval
  finally:
    proc.send_signal(signal.SIGKILL)
    proc.communicate()
  saved = _ckpt_step(logdir)
  assert saved > 0
  # the newest checkpoint is complete and readable; the training thread runs on
  # while the checkpoint thread saves, so the value saved may be past the name's step
  restored = int(tf.train.load_variable(str(logdir), "global_step"))
  assert saved <= restored < saved + 100
  r = subprocess.run([sys.executable, str(script), str(logdir), "50"], capture_output=True,
                     text=True, timeout=120)
  assert r.returncode == 0, r.stderr
  lines = r.stdout.split("\n")
  assert lines[0] == "start %d" % restored
  assert lines[1] == "end %d" % (restored + 50)
  # the second run's events file starts at the restored step
  events = [ev for _, ev in _events(logdir)]
  starts = [e.step for evs in events for e in evs if e.WhichOneof("what") == "session_log"
            and e.session_log.status == tf.summary.SessionLog.START]
  assert starts[-1] == restored


def test_seed_train_script_killed_and_rerun(tmp_path):
  logdir = tmp_path / "supervisor"
  path = _script(tmp_path, "train.py", TRAIN_SCRIPT, logdir)
  proc = subprocess.Popen([sys.executable, str(path)], cwd=str(tmp_path),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
  try:
    deadline = time.time() + 120
    while time.time() < deadline and not (logdir / "checkpoint").exists():
      if proc.poll() is not None:
        break
      time.sleep(0.01)
  finally:
    proc.send_signal(signal.SIGKILL)
    proc.communicate()
  # the killed run's checkpoint: the Supervisor's checkpoint thread saves as
  # the session starts, racing with the training loop, so its step is small
  # but not fixed (a loaded machine lets the loop run on before the save)
  killed = tf.train.latest_checkpoint(str(logdir))
  assert killed and killed.startswith(str(logdir / "model.ckpt-"))
  killed_step = int(killed.rsplit("-", 1)[1])
  assert killed_step < 1000
  r = _run(path, tmp_path)
  assert r.returncode == 0, r.stderr
  assert r.stdout.strip().splitlines()[-1] == TF_FINAL_LINE
  latest = tf.train.latest_checkpoint(str(logdir))
  # the rerun resumed from the killed run's step and saved as it started
  # (not at stop: that would be 1000 steps later)
  assert latest.startswith(str(logdir / "model.ckpt-"))
  assert killed_step <= int(latest.rsplit("-", 1)[1]) < killed_step + 1000


# -- seed 003's device and metadata sections --------------------------------------------

GPU_SCRIPTS = {
    "log_placement": '''import tensorflow as tf

# Construct 2 op nodes (m1, m2) representing 2 matrix.
m1 = tf.constant([[3, 5]])
m2 = tf.constant([[2],[4]])

product = tf.matmul(m1, m2)    # A matrix multiplication op node

sess = tf.Session(config=tf.ConfigProto(log_device_placement=True))
print(sess.run(product))

sess.close()
''',
    "cpu_pin": '''import tensorflow as tf

# Construct 2 op nodes (m1, m2) representing 2 matrix.
with tf.device('/cpu:0'):
    m1 = tf.constant([[3, 5]])
    m2 = tf.constant([[2],[4]])

    product = tf.matmul(m1, m2)    # A matrix multiplication op node

sess = tf.Session(config=tf.ConfigProto(log_device_placement=True))
print(sess.run(product))

sess.close()
''',
    "multi_gpu": '''import tensorflow as tf
for d in ['/gpu:1', '/gpu:2']:
  with tf.device(d):
     ...
\t
with tf.device('/cpu:0'):
     ...
''',
    "soft_placement": '''import tensorflow as tf
with tf.device('/gpu:2'):
\t...
sess = tf.Session(config=tf.ConfigProto(
      allow_soft_placement=True, log_device_placement=True))
''',
}

PLACEMENT_LINES = ["Const: (Const): /job:localhost/replica:0/task:0/device:CPU:0",
                   "Const_1: (Const): /job:localhost/replica:0/task:0/device:CPU:0",
                   "MatMul: (MatMul): /job:localhost/replica:0/task:0/device:CPU:0"]


@pytest.mark.parametrize("name", sorted(GPU_SCRIPTS))
def test_seed_device_scripts(tmp_path, name):
  path = tmp_path / (name + ".py")
  path.write_text(GPU_SCRIPTS[name].replace("import tensorflow as tf", "import tfc as tf"))
  r = _run(path, tmp_path)
  assert r.returncode == 0, r.stderr
  if name in ("log_placement", "cpu_pin"):
    assert r.stdout.strip() == "[[26]]"
    assert sorted(line for line in (r.stdout + r.stderr).splitlines()
                  if ": (" in line) == PLACEMENT_LINES


GPU_PIN = '''import tfc as tf
with tf.device('/gpu:2'):
    m1 = tf.constant([[3, 5]])
    m2 = tf.constant([[2],[4]])
    product = tf.matmul(m1, m2)
sess = tf.Session(config=tf.ConfigProto(allow_soft_placement=%s, log_device_placement=True))
print(sess.run(product))
'''


def test_gpu_pin_with_soft_placement_runs_on_cpu_and_logs(tmp_path):
  path = tmp_path / "gpu.py"
  path.write_text(GPU_PIN % "True")
  r = _run(path, tmp_path)
  assert r.returncode == 0, r.stderr
  assert r.stdout.strip() == "[[26]]"
  assert sorted(line for line in (r.stdout + r.stderr).splitlines()
                if ": (" in line) == PLACEMENT_LINES


def test_gpu_pin_without_soft_placement_is_tf_error(tmp_path):
  path = tmp_path / "gpu.py"
  path.write_text(GPU_PIN % "False")
  r = _run(path, tmp_path)
  assert r.returncode == 1
  last = r.stderr.rstrip().splitlines()[-1]
  assert last.startswith("tfc.errors.InvalidArgumentError: Cannot assign a device for "
                         "operation ") or last.startswith("InvalidArgumentError")
  assert "The requested device appears to be a GPU, but CUDA is not enabled." in r.stderr
  assert ("was explicitly assigned to /device:GPU:2 but available devices are "
          "[ /job:localhost/replica:0/task:0/device:CPU:0 ]") in r.stderr


# -- in process --------------------------------------------------------------------------


def _linear_model():
  w = tf.Variable([0.1], tf.float32, name="W")
  gs = tf.Variable(0, name="global_step", trainable=False)
  x = tf.placeholder(tf.float32)
  loss = tf.reduce_sum(tf.square(w * x - 2.0 * x))
  tf.summary.scalar("loss", loss)
  train = tf.train.GradientDescentOptimizer(0.01).minimize(loss, global_step=gs)
  return w, gs, x, loss, train


def test_defaults_picked_from_graph(tmp_path):
  with tf.Graph().as_default() as g:
    _, gs, _, _, _ = _linear_model()
    sv = tf.train.Supervisor(logdir=str(tmp_path))
    assert g.finalized
    assert sv.is_chief
    assert sv.global_step.name == "global_step:0"
    assert sv.init_op.type == "NoOp" and sv.ready_op is not None
    assert sv.summary_op is not None and sv.saver is not None
    assert g.get_collection(tf.GraphKeys.SAVERS) == [sv.saver]
    assert g.get_collection(tf.GraphKeys.SUMMARY_OP) == [sv.summary_op]
    assert sv.save_path == os.path.join(str(tmp_path), "model.ckpt")
    assert sv.save_model_secs == 600 and sv.save_summaries_secs == 120
    assert isinstance(sv.summary_writer, tf.summary.FileWriter)
    assert isinstance(sv.coord, tf.train.Coordinator)
    sv.stop()


def test_global_step_must_be_int_variable(tmp_path):
  with tf.Graph().as_default():
    tf.Variable(0.0, name="global_step")
    one = tf.constant(1)
    sv = tf.train.Supervisor(logdir=str(tmp_path))
    assert sv.global_step is None
    with sv.managed_session() as sess:
      sess.run(one)
    # no global step: files are named without a step, no START event
    assert os.path.exists(os.path.join(str(tmp_path), "model.ckpt.index"))
    ((_, events),) = _events(tmp_path)
    assert [e.session_log.status for e in events if e.WhichOneof("what") == "session_log"] \
        == [tf.summary.SessionLog.STOP]


def test_service_thread_error_is_reraised_by_stop(tmp_path):
  with tf.Graph().as_default():
    _linear_model()
    # the summary thread runs the summary op without feeding the placeholder
    sv = tf.train.Supervisor(logdir=str(tmp_path), save_summaries_secs=0.05)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Placeholder"):
      with sv.managed_session():
        deadline = time.time() + 30
        while not sv.should_stop() and time.time() < deadline:
          time.sleep(0.01)
    assert sv.should_stop()


def test_services_periodic(tmp_path):
  with tf.Graph().as_default():
    v = tf.Variable(1.0, name="v")
    gs = tf.train.get_or_create_global_step()
    inc = tf.assign_add(gs, 1)
    tf.summary.scalar("v_value", v)
    sv = tf.train.Supervisor(logdir=str(tmp_path), save_model_secs=0.3,
                             save_summaries_secs=0.3)
    with sv.managed_session() as sess:
      t0 = time.time()
      while time.time() - t0 < 1.5:
        sess.run(inc)
        time.sleep(0.005)
      step = sess.run(gs)
    assert sv.should_stop()
  ckpts = sorted(glob.glob(str(tmp_path / "model.ckpt-*.index")))
  assert len(ckpts) >= 3
  state = tf.train.get_checkpoint_state(str(tmp_path))
  assert len(state.all_model_checkpoint_paths) == min(5, len(ckpts))
  ((_, events),) = _events(tmp_path)
  v_summaries = [e for e in events if e.WhichOneof("what") == "summary" and
                 e.summary.value[0].tag == "v_value"]
  assert len(v_summaries) >= 3 and v_summaries[0].summary.value[0].simple_value == 1.0
  rates = [e for e in events if e.WhichOneof("what") == "summary" and
           e.summary.value[0].tag == "global_step/sec"]
  assert len(rates) >= 3 and max(r.summary.value[0].simple_value for r in rates[1:]) > 10
  ckpt_logs = [e.step for e in events if e.WhichOneof("what") == "session_log" and
               e.session_log.status == tf.summary.SessionLog.CHECKPOINT]
  assert len(ckpt_logs) >= 3 and ckpt_logs == sorted(ckpt_logs) and ckpt_logs[-1] <= step


def test_recovery_skips_init_op_and_init_fn(tmp_path):
  calls = []
  for run in range(2):
    with tf.Graph().as_default():
      v = tf.Variable(1.0, name="v")
      gs = tf.train.get_or_create_global_step()
      bump = tf.group(tf.assign_add(v, 1.0), tf.assign_add(gs, 1))
      sv = tf.train.Supervisor(logdir=str(tmp_path), init_fn=lambda s: calls.append(run),
                               save_model_secs=0)
      with sv.managed_session() as sess:
        start = sess.run([v, gs])
        sess.run(bump)
        sv.saver.save(sess, sv.save_path, global_step=sv.global_step)
    if run == 0:
      assert start == [1.0, 0]
    else:
      assert start == [2.0, 1]
  assert calls == [0]


def test_request_stop_and_should_stop(tmp_path):
  with tf.Graph().as_default():
    tf.Variable(1.0)
    three = tf.constant(3)
    sv = tf.train.Supervisor(logdir=str(tmp_path))
    with sv.managed_session() as sess:
      assert not sv.should_stop()
      sv.request_stop()
      assert sv.should_stop()
      sv.wait_for_stop()
      assert sess.run(three) == 3
    assert sv.should_stop()


def test_exception_in_body_is_reraised_after_stop(tmp_path):
  with tf.Graph().as_default():
    tf.Variable(1.0)
    sv = tf.train.Supervisor(logdir=str(tmp_path))
    with pytest.raises(ZeroDivisionError):
      with sv.managed_session():
        1 / 0  # pylint: disable=pointless-statement
    ((_, events),) = _events(tmp_path)
    assert events[-1].session_log.status == tf.summary.SessionLog.STOP


def test_out_of_range_is_a_clean_stop(tmp_path):
  with tf.Graph().as_default():
    tf.Variable(1.0)
    sv = tf.train.Supervisor(logdir=str(tmp_path))
    with sv.managed_session():
      raise tf.errors.OutOfRangeError(None, None, "input exhausted")
    assert sv.should_stop()


def test_summary_computed_and_its_errors(tmp_path):
  with tf.Graph().as_default():
    _, gs, x, _, train = _linear_model()
    summ_op = tf.summary.merge_all()
    sv = tf.train.Supervisor(logdir=str(tmp_path), summary_op=None)
    with sv.managed_session() as sess:
      for _ in range(3):
        sess.run(train, {x: [1.0]})
      sv.summary_computed(sess, sess.run(summ_op, {x: [1.0]}))
      sv.summary_computed(sess, sess.run(summ_op, {x: [1.0]}), global_step=77)
      summary = tf.summary.Summary(value=[tf.summary.Summary.Value(tag="a", simple_value=2)])
      sv.summary_computed(sess, summary)
    ((_, events),) = _events(tmp_path)
    summ = [(e.step, e.summary.value[0].tag) for e in events
            if e.WhichOneof("what") == "summary" and e.summary.value[0].tag != "global_step/sec"]
    assert summ == [(3, "loss"), (77, "loss"), (3, "a")]
  with tf.Graph().as_default():
    tf.Variable(1.0)
    sv = tf.train.Supervisor(logdir=None)
    assert sv.summary_writer is None and sv.save_path is None
    with sv.managed_session() as sess:
      with pytest.raises(RuntimeError, match="Writing a summary requires a summary writer"):
        sv.summary_computed(sess, b"")


def test_no_logdir_initializes_and_writes_nothing(tmp_path):
  with tf.Graph().as_default():
    v = tf.Variable(5.0)
    sv = tf.train.Supervisor()
    with sv.managed_session() as sess:
      assert sess.run(v) == 5.0
    assert sv.start_standard_services(sess) is None


def test_non_chief_needs_device_pinned_variables():
  with tf.Graph().as_default():
    tf.Variable(1.0)
    with pytest.raises(ValueError, match="all Variables must have their device set"):
      tf.train.Supervisor(is_chief=False)


def test_non_chief_waits_and_times_out():
  with tf.Graph().as_default():
    with tf.device("/cpu:0"):
      tf.Variable(1.0)
    sv = tf.train.Supervisor(is_chief=False, recovery_wait_secs=0.05)
    with pytest.raises(RuntimeError, match="Only chief supervisor"):
      sv.start_standard_services(None)
    with pytest.raises(tf.errors.DeadlineExceededError,
                       match="Session was not ready after waiting 0 secs"):
      sv.prepare_or_wait_for_session(max_wait_secs=0.02)


def test_start_queue_runners_uses_collection_and_coordinator(tmp_path):
  started = []

  class Runner(object):
    """Anything in QUEUE_RUNNERS with create_threads(sess, coord, daemon, start)."""

    def create_threads(self, sess, coord=None, daemon=False, start=False):
      def body():
        while not coord.should_stop():
          time.sleep(0.001)
      t = threading.Thread(target=body, daemon=daemon)
      coord.register_thread(t)
      if start:
        t.start()
      started.append((sess, daemon, start))
      return [t]

  with tf.Graph().as_default():
    tf.Variable(1.0)
    tf.add_to_collection(tf.GraphKeys.QUEUE_RUNNERS, Runner())
    sv = tf.train.Supervisor(logdir=str(tmp_path))
    with sv.managed_session() as sess:
      assert started == [(sess, True, True)]
    assert sv.should_stop()


def test_unwritable_logdir(tmp_path):
  (tmp_path / "file").write_text("x")
  with tf.Graph().as_default():
    tf.Variable(1.0)
    with pytest.raises(tf.errors.FailedPreconditionError,
                       match="%s is not a directory" % (tmp_path / "file")):
      tf.train.Supervisor(logdir=str(tmp_path / "file" / "sub"))
  assert (tmp_path / "file").read_text() == "x"


def test_session_manager_prepare_and_recover(tmp_path):
  with tf.Graph().as_default():
    v = tf.Variable(3.0, name="v")
    saver = tf.train.Saver()
    sm = tf.train.SessionManager(ready_op=tf.report_uninitialized_variables())
    with pytest.raises(RuntimeError, match="Model is not initialized and no init_op"):
      sm.prepare_session("")
    sess = sm.prepare_session("", init_op=tf.global_variables_initializer())
    saver.save(sess, str(tmp_path / "m"))
    sess.close()
    sess, restored = sm.recover_session("", saver=saver, checkpoint_dir=str(tmp_path))
    assert restored and sess.run(v) == 3.0
    sess, restored = sm.recover_session("", saver=saver,
                                        checkpoint_dir=str(tmp_path / "none"))
    assert not restored
    with pytest.raises(RuntimeError, match="Init operations did not make model ready"):
      sm.prepare_session("", init_fn=lambda s: None)
    with pytest.raises(ValueError, match="Can not provide both"):
      sm.prepare_session("", saver=saver, checkpoint_dir=str(tmp_path),
                         checkpoint_filename_with_path=str(tmp_path / "m"))
    with pytest.raises(ValueError, match="you must also pass a local_init_op"):
      tf.train.SessionManager(ready_for_local_init_op=tf.constant(1))


def test_camel_case_aliases():
  assert tf.train.Supervisor.PrepareSession is tf.train.Supervisor.prepare_or_wait_for_session
  assert tf.train.Supervisor.ShouldStop is tf.train.Supervisor.should_stop
  assert tf.train.Supervisor.SummaryComputed is tf.train.Supervisor.summary_computed
  assert tf.train.Supervisor.USE_DEFAULT == 0
