"""Where the executor runs a step's nodes: steps of cheap nodes stay on the
calling thread (no inter-op pool hand-off), while expensive nodes that are
ready together still run at the same time on pool threads. A tf.Print node
reports the thread that ran it through sys.stderr (the log sink calls
sys.stderr.write on the kernel's thread)."""
import sys
import threading
import time

import pytest

import tfc as tf


class _ThreadRecorder(object):
  """A stand-in for sys.stderr that records the thread of every Print line,
  optionally holding each line until `parties` lines wait together."""

  def __init__(self, parties=0, hold_secs=0.0):
    self.threads = []
    self.broken = 0
    self._barrier = threading.Barrier(parties, timeout=10) if parties else None
    self._hold = hold_secs

  def write(self, text):
    if "marker" not in text:
      return len(text)
    self.threads.append(threading.get_ident())
    if self._hold:
      time.sleep(self._hold)
    if self._barrier is not None:
      try:
        self._barrier.wait()
      except threading.BrokenBarrierError:
        self.broken += 1
    return len(text)

  def flush(self):
    pass


@pytest.fixture
def recorder(monkeypatch):
  def install(**kw):
    rec = _ThreadRecorder(**kw)
    monkeypatch.setattr(sys, "stderr", rec)
    return rec
  return install


def test_cheap_steps_run_on_the_calling_thread(recorder):
  with tf.Graph().as_default():
    leaves = [tf.constant(float(i)) for i in range(8)]
    while len(leaves) > 1:  # several roots and several nodes ready at once
      leaves = [leaves[i] + leaves[i + 1] for i in range(0, len(leaves), 2)]
    out = tf.Print(leaves[0], [leaves[0]], message="marker")
    config = tf.ConfigProto(inter_op_parallelism_threads=4)
    with tf.Session(config=config) as sess:
      for _ in range(8):  # the first steps time every node
        sess.run(out)
      rec = recorder()
      for _ in range(50):
        assert sess.run(out) == 28.0
  main = threading.get_ident()
  assert len(rec.threads) == 50
  # a step of cheap nodes never wakes a pool worker (a preempted node can
  # look expensive on a loaded machine for a few steps)
  assert sum(t == main for t in rec.threads) >= 45


def test_expensive_nodes_ready_together_run_in_parallel(recorder):
  # each Print holds its line until the other one writes too: run one
  # after the other they could never meet at the barrier
  with tf.Graph().as_default():
    a = tf.Print(tf.constant(1.0), [tf.constant(1.0)], message="marker a")
    b = tf.Print(tf.constant(2.0), [tf.constant(2.0)], message="marker b")
    config = tf.ConfigProto(inter_op_parallelism_threads=2)
    with tf.Session(config=config) as sess:
      # the plan's first step runs inline and times the nodes (2 ms each)
      recorder(hold_secs=0.002)
      assert sess.run([a, b]) == [1.0, 2.0]
      rec = recorder(parties=2, hold_secs=0.002)
      for _ in range(6):
        assert sess.run([a, b]) == [1.0, 2.0]
  assert rec.broken == 0
  assert len(rec.threads) == 12
  for i in range(0, 12, 2):
    assert rec.threads[i] != rec.threads[i + 1]


def test_expensive_control_flow_branches_run_in_parallel(recorder):
  # the same inside a step with control flow (the frame-aware runner)
  with tf.Graph().as_default():
    p = tf.placeholder(tf.bool, [])
    c = tf.cond(p, lambda: tf.constant(1.0), lambda: tf.constant(0.0))
    a = tf.Print(c, [c], message="marker a")
    b = tf.Print(c + 1.0, [c], message="marker b")
    config = tf.ConfigProto(inter_op_parallelism_threads=2)
    with tf.Session(config=config) as sess:
      recorder(hold_secs=0.002)  # first steps of each branch: inline, timed
      sess.run([a, b], {p: True})
      sess.run([a, b], {p: False})
      rec = recorder(parties=2, hold_secs=0.002)
      for i in range(6):
        assert sess.run([a, b], {p: i % 2 == 0}) == ([1.0, 2.0] if i % 2 == 0 else [0.0, 1.0])
  assert rec.broken == 0
  assert len(rec.threads) == 12


def test_cheap_control_flow_steps_run_on_the_calling_thread(recorder):
  with tf.Graph().as_default():
    p = tf.placeholder(tf.bool, [])
    xs = [tf.constant(float(i)) for i in range(6)]
    c = tf.cond(p, lambda: tf.add_n(xs), lambda: tf.add_n(xs[:3]))
    i0 = tf.constant(0)
    _, total = tf.while_loop(lambda i, t: i < 5, lambda i, t: (i + 1, t + c), [i0, 0.0])
    out = tf.Print(total, [total], message="marker")
    config = tf.ConfigProto(inter_op_parallelism_threads=4)
    with tf.Session(config=config) as sess:
      for _ in range(8):
        sess.run(out, {p: True})
      rec = recorder()
      for k in range(40):
        assert sess.run(out, {p: k % 2 == 0}) == (75.0 if k % 2 == 0 else 15.0)
  main = threading.get_ident()
  assert sum(t == main for t in rec.threads) >= 36


def test_first_step_runs_inline_in_breadth_first_order(tmp_path, recorder):
  # A step that runs once (an initializer, a SavedModel's main_op) keeps the
  # order its dependency depth gives unordered writes: the plan's first step
  # runs on the calling thread, nodes in the order they become ready.
  path = tmp_path / "vocab.txt"
  path.write_bytes(b"alpha\nbeta\n")
  for _ in range(20):
    with tf.Graph().as_default():
      text = tf.Variable("", name="text", trainable=False,
                         collections=[tf.GraphKeys.LOCAL_VARIABLES])
      m = tf.Print(tf.constant(0.0), [tf.constant(0.0)], message="marker")
      main_op = tf.group(tf.local_variables_initializer(),
                         tf.assign(text, tf.read_file(str(path))), m)
      config = tf.ConfigProto(inter_op_parallelism_threads=4)
      with tf.Session(config=config) as sess:
        rec = recorder()
        sess.run(main_op)
        assert sess.run(text) == b"alpha\nbeta\n"
    assert rec.threads == [threading.get_ident()]
