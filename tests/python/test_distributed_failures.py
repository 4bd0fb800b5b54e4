"""Failures of a cluster of real `python -m tfc.server` processes, fast and named:
tasks that are not running (or do not answer) at session creation, a task killed
(kill -9) in the middle of a step, RunOptions.timeout_in_ms cancelling a step on
every task, sessions freeing their graphs on every worker when closed, and a
worker's memory over 10,000 steps."""
import os
import re
import signal
import threading
import time

import numpy as np
import pytest

import tfc as tf
from cluster_util import Cluster

# AddressSanitizer keeps freed memory in quarantine: RSS bounds mean nothing under it.
_UNDER_ASAN = "libasan" in os.environ.get("LD_PRELOAD", "")


def _rss_kb(pid):
  with open("/proc/%d/status" % pid) as f:
    for line in f:
      if line.startswith("VmRSS:"):
        return int(line.split()[1])
  raise RuntimeError("no VmRSS for %d" % pid)


def _wait_for(predicate, timeout=10.0):
  deadline = time.time() + timeout
  while time.time() < deadline:
    if predicate():
      return True
    time.sleep(0.05)
  return predicate()


def test_create_session_with_a_task_not_running_fails_naming_it():
  # the ps is in the cluster spec but never started
  c = Cluster({"worker": 1}, external={"ps": 1}, env={"TFC_CREATE_SESSION_WAIT_MS": "3000"})
  try:
    g = tf.Graph()
    with g.as_default():
      with tf.device("/job:ps/task:0"):
        a = tf.constant(2.0)
      b = a * 3.0
    t0 = time.time()
    with tf.Session(c.target("worker", 0), graph=g) as sess:
      with pytest.raises(tf.errors.UnavailableError) as e:
        sess.run(b)
    elapsed = time.time() - t0
    assert elapsed < 20, elapsed
    msg = str(e.value)
    assert "/job:ps/replica:0/task:0" in msg and c.address("ps", 0) in msg, msg
    assert "did not answer within 3000 ms" in msg, msg
    # the worker itself keeps serving sessions that leave the ps out
    config = tf.ConfigProto(device_filters=["/job:worker"])
    g2 = tf.Graph()
    with g2.as_default():
      k = tf.constant(5.0) + 1.0
    with tf.Session(c.target("worker", 0), graph=g2, config=config) as sess:
      assert sess.run(k) == 6.0
  finally:
    c.stop()


def test_create_session_default_wait_and_operation_timeout():
  c = Cluster({"worker": 1}, external={"ps": 1})
  try:
    g = tf.Graph()
    with g.as_default():
      with tf.device("/job:ps/task:0"):
        a = tf.constant(2.0)
    # operation_timeout_in_ms bounds the wait for the missing task
    t0 = time.time()
    with tf.Session(c.target("worker", 0), graph=g,
                    config=tf.ConfigProto(operation_timeout_in_ms=1500)) as sess:
      with pytest.raises((tf.errors.UnavailableError, tf.errors.DeadlineExceededError)) as e:
        sess.run(a)
    assert time.time() - t0 < 8
    assert "/job:ps/replica:0/task:0" in str(e.value)
  finally:
    c.stop()


def test_create_session_with_a_task_that_does_not_answer():
  c = Cluster({"ps": 1, "worker": 1}, env={"TFC_CREATE_SESSION_WAIT_MS": "4000"})
  ps = c.procs[("ps", 0)]
  try:
    g = tf.Graph()
    with g.as_default():
      with tf.device("/job:ps/task:0"):
        a = tf.constant(2.0)
    os.kill(ps.pid, signal.SIGSTOP)  # accepts connections (kernel), answers nothing
    t0 = time.time()
    with tf.Session(c.target("worker", 0), graph=g) as sess:
      with pytest.raises((tf.errors.DeadlineExceededError, tf.errors.UnavailableError)) as e:
        sess.run(a)
    assert time.time() - t0 < 15
    assert "/job:ps/replica:0/task:0" in str(e.value) and c.address("ps", 0) in str(e.value)
    os.kill(ps.pid, signal.SIGCONT)
    with tf.Session(c.target("worker", 0), graph=g) as sess:
      assert sess.run(a) == 2.0
  finally:
    os.kill(ps.pid, signal.SIGCONT)
    c.stop()


def _slow_on(device, n=1200, rounds=8):
  with tf.device(device):
    m = tf.random_normal([n, n], seed=3)
    for _ in range(rounds):
      m = tf.tanh(tf.matmul(m, m) * 1e-3)
    return tf.reduce_sum(m)


def test_task_killed_mid_step_fails_the_step_naming_it_and_cluster_recovers():
  c = Cluster({"ps": 1, "worker": 2})
  try:
    g = tf.Graph()
    with g.as_default():
      with tf.device("/job:ps/task:0"):
        v = tf.Variable(3.0, name="v")
      slow = _slow_on("/job:ps/task:0", rounds=40)
      with tf.device("/job:worker/task:1"):
        out = slow + v
      init = tf.global_variables_initializer()
    sess = tf.Session(c.target("worker", 0), graph=g)
    sess.run(init)
    result = {}

    def run():
      t = time.time()
      try:
        sess.run(out)
        result["value"] = True
      except tf.errors.OpError as e:  # pylint: disable=broad-except
        result["error"] = e
      result["t"] = time.time() - t
    th = threading.Thread(target=run)
    th.start()
    time.sleep(1.0)
    c.kill("ps", 0)  # SIGKILL while the ps computes the step's value
    killed = time.time()
    th.join(30)
    assert not th.is_alive()
    assert "error" in result, result
    assert time.time() - killed < 10
    e = result["error"]
    assert isinstance(e, tf.errors.UnavailableError), repr(e)
    assert "/job:ps/replica:0/task:0" in str(e), str(e)
    sess.close()
    # the client and the other tasks keep working
    g2 = tf.Graph()
    with g2.as_default():
      with tf.device("/job:worker/task:1"):
        k = tf.constant(4.0) * 2.0
    with tf.Session(c.target("worker", 0), graph=g2,
                    config=tf.ConfigProto(device_filters=["/job:worker"])) as s2:
      assert s2.run(k) == 8.0
    # the worker that saw the failure logged the failed peer once
    line = "peer /job:ps/replica:0/task:0 at %s failed" % c.address("ps", 0)
    assert _wait_for(lambda: line in c.log("worker", 0) + c.log("worker", 1), timeout=10)
    # once the ps is back, a new session works; its variables start uninitialised, as in TF
    c.restart("ps", 0)
    with tf.Session(c.target("worker", 0), graph=g) as s3:
      with pytest.raises(tf.errors.FailedPreconditionError):
        s3.run(v)
      s3.run(init)
      assert s3.run(v) == 3.0
  finally:
    c.stop()


def test_run_timeout_cancels_the_step_on_every_task():
  # worker 1 runs the step's partition and waits for a value from a ps that answers nothing
  c = Cluster({"ps": 1, "worker": 2})
  ps = c.procs[("ps", 0)]
  try:
    g = tf.Graph()
    with g.as_default():
      with tf.device("/job:ps/task:0"):
        v = tf.Variable(1.0, name="v")
      with tf.device("/job:worker/task:1"):
        out = v * 2.0
      init = tf.global_variables_initializer()
    with tf.Session(c.target("worker", 0), graph=g) as sess:
      sess.run(init)
      assert sess.run(out) == 2.0
      os.kill(ps.pid, signal.SIGSTOP)
      t0 = time.time()
      with pytest.raises(tf.errors.DeadlineExceededError):
        sess.run(out, options=tf.RunOptions(timeout_in_ms=1500))
      assert time.time() - t0 < 15  # generous: the machine may be loaded
    # a step that does not need the ps still runs at once on the same tasks
    g2 = tf.Graph()
    with g2.as_default():
      with tf.device("/job:worker/task:1"):
        k = tf.constant(1.0) + 1.0
    with tf.Session(c.target("worker", 0), graph=g2,
                    config=tf.ConfigProto(device_filters=["/job:worker"])) as s2:
      t0 = time.time()
      assert s2.run(k) == 2.0
      assert time.time() - t0 < 10
  finally:
    os.kill(ps.pid, signal.SIGCONT)
    c.stop()


def test_worker_deadline_ends_its_rungraph_without_the_master():
  # the worker's own deadline timer aborts a RunGraph waiting on a stopped ps: with
  # --exit_when_idle the worker exits only once that RunGraph has ended
  c = Cluster({"ps": 1, "worker": 2}, extra_args={("worker", 1): ["--exit_when_idle", "1"]})
  ps = c.procs[("ps", 0)]
  w1 = c.procs[("worker", 1)]
  try:
    g = tf.Graph()
    with g.as_default():
      with tf.device("/job:ps/task:0"):
        v = tf.Variable(1.0, name="v")
      with tf.device("/job:worker/task:1"):
        out = v * 2.0
      init = tf.global_variables_initializer()
    sess = tf.Session(c.target("worker", 0), graph=g)
    sess.run(init)
    assert sess.run(out) == 2.0
    os.kill(ps.pid, signal.SIGSTOP)
    with pytest.raises(tf.errors.DeadlineExceededError):
      sess.run(out, options=tf.RunOptions(timeout_in_ms=1000))
    # the master is killed too: only worker 1's own deadline can end its RunGraph
    c.kill("worker", 0)
    assert _wait_for(lambda: w1.poll() is not None, timeout=15), c.log("worker", 1)
    assert w1.returncode == 0
  finally:
    os.kill(ps.pid, signal.SIGCONT)
    c.stop()


def test_closing_a_session_frees_its_graphs_on_every_worker():
  c = Cluster({"ps": 1, "worker": 2})
  try:
    g = tf.Graph()
    with g.as_default():
      with tf.device("/job:ps/task:0"):
        v = tf.Variable(1.5, name="v")
      with tf.device("/job:worker/task:1"):
        y = v * 2.0
      z = y + 1.0
      init = tf.global_variables_initializer()
    sess = tf.Session(c.target("worker", 0), graph=g)
    sess.run(init)
    assert sess.run(z) == 4.0
    assert sess.run(y) == 3.0
    sess.close()
    m = re.search(r"session ([0-9a-f]{16}) created", c.log("worker", 0))
    assert m, c.log("worker", 0)
    handle = m.group(1)

    def freed(job, index):
      return re.search(r"worker session %s deleted: [1-9][0-9]* graphs freed, 0 registered graphs remain"
                       % handle, c.log(job, index))
    for key in (("ps", 0), ("worker", 0), ("worker", 1)):
      assert _wait_for(lambda k=key: freed(*k), timeout=5), (key, c.log(*key))
    assert "session %s closed" % handle in c.log("worker", 0)
  finally:
    c.stop()


@pytest.mark.skipif(_UNDER_ASAN, reason="AddressSanitizer's quarantine keeps freed memory")
def test_worker_memory_does_not_grow_over_10000_steps():
  c = Cluster({"ps": 1, "worker": 1}, env={"TFC_SERVER_LOG": "0"})
  try:
    g = tf.Graph()
    with g.as_default():
      with tf.device("/job:ps/task:0"):
        w = tf.Variable(tf.ones([64]), name="w")
      with tf.device("/job:worker/task:0"):
        x = tf.placeholder(tf.float32, [64])
        y = tf.reduce_sum(x * w)
        delta = x * 1e-6
      upd = tf.assign_add(w, delta)  # on the ps, with its variable
      init = tf.global_variables_initializer()
    pids = {key: c.procs[key].pid for key in (("worker", 0), ("ps", 0))}
    feed = np.ones([64], np.float32)
    with tf.Session(c.target("worker", 0), graph=g) as sess:
      sess.run(init)
      for _ in range(1000):
        sess.run([y, upd], {x: feed})
      before = {k: _rss_kb(p) for k, p in pids.items()}
      for _ in range(10000):
        sess.run([y, upd], {x: feed})
      after = {k: _rss_kb(p) for k, p in pids.items()}
    for k in pids:
      grew = after[k] - before[k]
      assert grew < 16 * 1024, "%s grew by %d kB over 10,000 steps (%d -> %d)" % (k, grew, before[k], after[k])
  finally:
    c.stop()


def test_unreachable_master_is_named_at_once():
  from cluster_util import free_ports
  port = free_ports(1)[0]
  g = tf.Graph()
  with g.as_default():
    c = tf.constant(1.0)
  t0 = time.time()
  with tf.Session("grpc://localhost:%d" % port, graph=g) as sess:
    with pytest.raises(tf.errors.UnavailableError) as e:
      sess.run(c)
  assert time.time() - t0 < 5
  assert "grpc://localhost:%d" % port in str(e.value), str(e.value)
