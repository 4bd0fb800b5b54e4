"""While loops whose body spans devices or tasks.

As TensorFlow's partitioner does, every device that receives a tensor inside
a loop's frame gets a copy of the loop's control structure driven by the
LoopCond sent from its device, and _Send/_Recv inside the frame are keyed
with the frame instance and the iteration. Checked here: results equal to the
single-device run (forward values and gradients, nested loops, conds inside
the loop, TensorArray RNNs, every parallel_iterations), on several local CPU
devices and across real tfc server processes; a deadline or a killed task
ends the step with the right error, never a hang."""
import pathlib
import threading
import time

import numpy as np
import pytest

import tfc as tf
from cluster_util import Cluster, free_ports

TWO_CPUS = tf.ConfigProto(device_count={"CPU": 2})
PS = "/job:ps/task:0"
WORKER = "/job:worker/task:0"


def _simple_loop(dev_a, dev_b, parallel_iterations=10):
  """The counter on dev_a, the body's multiply on dev_b."""
  def body(i, acc):
    with tf.device(dev_b):
      y = acc * 2.0
    return i + 1, y
  with tf.device(dev_a):
    return tf.while_loop(lambda i, acc: i < 5, body, [0, tf.constant(1.0)],
                         parallel_iterations=parallel_iterations)


def _nested_model(dev_a, dev_b, grad=True):
  """An outer loop on dev_a whose body runs an inner loop with a cond on
  dev_b, then a sin on dev_b; returns (x, r, dloss/dx)."""
  x = tf.placeholder(tf.float32, [3], name="x")

  def outer_body(i, acc):
    def inner_body(j, a):
      with tf.device(dev_b):
        a2 = tf.cond(tf.equal(j % 2, 0), lambda: a * 1.5, lambda: a + 1.0)
      return j + 1, a2
    _, acc2 = tf.while_loop(lambda j, a: j < i, inner_body, [0, acc])
    with tf.device(dev_b):
      acc3 = tf.sin(acc2) + acc
    return i + 1, acc3
  with tf.device(dev_a):
    _, r = tf.while_loop(lambda i, a: i < 4, outer_body, [0, x])
    loss = tf.reduce_sum(r * r)
  g = tf.gradients(loss, x)[0] if grad else None
  return x, r, g


_X = np.array([0.3, -0.2, 1.1], np.float32)


def _nested_reference():
  with tf.Graph().as_default():
    x, r, g = _nested_model("/cpu:0", "/cpu:0")
    with tf.Session() as sess:
      return sess.run([r, g], {x: _X})


def _rnn_model(dev_loop, dev_cell):
  """A tanh RNN over a TensorArray (read, write, stack) whose cell runs on
  dev_cell while the loop runs on dev_loop; returns (x, [out, dx, dw, du])."""
  x = tf.placeholder(tf.float32, [5, 3])
  with tf.device(dev_loop):
    w = tf.get_variable("w", initializer=tf.constant(np.linspace(-1, 1, 12).reshape(3, 4).astype(np.float32)))
    u = tf.get_variable("u", initializer=tf.constant(np.linspace(-.5, .5, 16).reshape(4, 4).astype(np.float32)))
    ta_in = tf.TensorArray(tf.float32, 5).unstack(x)
    ta_out = tf.TensorArray(tf.float32, 5)

    def body(t, h, ta):
      with tf.device(dev_cell):
        h2 = tf.tanh(tf.matmul(tf.expand_dims(ta_in.read(t), 0), w) + tf.matmul(h, u))
      return t + 1, h2, ta.write(t, h2[0])
    _, _, ta = tf.while_loop(lambda t, h, ta: t < 5, body, [0, tf.zeros([1, 4]), ta_out])
    out = ta.stack()
    loss = tf.reduce_sum(out * out)
  return x, [out] + tf.gradients(loss, [x, w, u])


_RNN_X = np.random.RandomState(0).randn(5, 3).astype(np.float32)
# TensorFlow's run of the same model with the cell on /cpu:1 of two CPU devices
# (tools/make_rnn_fixtures.py ta_rnn_two_devices)
_TF_RNN = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "rnn" / "ta_rnn_two_devices.npz"


def _run_rnn(target, config, dev_loop, dev_cell):
  with tf.Graph().as_default():
    x, fetches = _rnn_model(dev_loop, dev_cell)
    with tf.Session(target, config=config) as sess:
      sess.run(tf.global_variables_initializer())
      return sess.run(fetches, {x: _RNN_X})


def _placed(run_metadata):
  out = {}
  for pg in run_metadata.partition_graphs:
    for n in pg.node:
      out[n.name] = (n.op, n.device, list(n.input))
  return out


@pytest.mark.parametrize("parallel_iterations", [1, 2, 10])
def test_loop_body_on_a_second_local_device(parallel_iterations):
  with tf.Graph().as_default():
    out = _simple_loop("/cpu:0", "/cpu:1", parallel_iterations)
    with tf.Session(config=TWO_CPUS) as sess:
      md = tf.RunMetadata()
      i, acc = sess.run(out, options=tf.RunOptions(output_partition_graphs=True), run_metadata=md)
      assert (i, acc) == (5, 32.0)
      assert sess.run(out) == (5, 32.0)
  nodes = _placed(md)
  assert nodes["while/mul"][1].endswith("CPU:1")
  # the control loop on CPU:1, driven by the LoopCond received from CPU:0
  ctl = {op for name, (op, dev, _) in nodes.items() if name.startswith("_cloop/") and dev.endswith("CPU:1")}
  assert ctl == {"Const", "Enter", "Merge", "Switch", "NextIteration"}
  recvs = [(name, ins) for name, (op, dev, ins) in nodes.items() if op == "_Recv" and dev.endswith("CPU:1")]
  assert any(name.startswith("while/LoopCond/") for name, _ in recvs)
  # every _Recv inside the frame waits on the control loop's Merge
  assert all(any(i.startswith("^_cloop/") for i in ins) for _, ins in recvs)


def test_loop_predicate_on_another_device_than_the_loop_variables():
  def cond(i, acc):
    with tf.device("/cpu:1"):
      return tf.reduce_sum(acc) < 100.0
  with tf.Graph().as_default():
    with tf.device("/cpu:0"):
      out = tf.while_loop(cond, lambda i, acc: (i + 1, acc * 3.0), [0, tf.constant([1.0, 2.0])])
    with tf.Session(config=TWO_CPUS) as sess:
      i, acc = sess.run(out)
  assert i == 4
  np.testing.assert_array_equal(acc, [81.0, 162.0])


def test_nested_loops_and_cond_spanning_local_devices_with_gradients():
  ref = _nested_reference()
  with tf.Graph().as_default():
    x, r, g = _nested_model("/cpu:0", "/cpu:1")
    with tf.Session(config=TWO_CPUS) as sess:
      got = sess.run([r, g], {x: _X})
      again = sess.run([r, g], {x: _X})
  for a, b, c in zip(ref, got, again):
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(a, c)


def test_gradient_of_a_loop_spanning_devices_by_finite_differences():
  with tf.Graph().as_default():
    x = tf.placeholder(tf.float64, [3])

    def body(i, acc):
      with tf.device("/cpu:1"):
        y = tf.sin(acc) * acc + 0.5 * acc
      return i + 1, y
    with tf.device("/cpu:0"):
      _, r = tf.while_loop(lambda i, a: i < 3, body, [0, x])
      y = tf.reduce_sum(r * r)
    with tf.Session(config=TWO_CPUS):
      x0 = np.array([0.4, -0.7, 1.2])
      theo, num = tf.test.compute_gradient(x, [3], y, [], x_init_value=x0, delta=1e-6)
  assert np.max(np.abs(theo - num)) / max(1.0, np.max(np.abs(num))) < 1e-7


def test_tensor_array_rnn_with_the_cell_on_another_device():
  """The TensorArray is made with no device (TF's colocate_with_first_write_call),
  so its readers inside the loop can sit on the cell's device."""
  with tf.Graph().as_default():
    _rnn_model("/cpu:0", "/cpu:1")
    tas = [op for op in tf.get_default_graph().get_operations() if op.type == "TensorArrayV3"]
    assert [op.device for op in tas] == ["", ""]
  ref = _run_rnn("", TWO_CPUS, "/cpu:0", "/cpu:0")
  got = _run_rnn("", TWO_CPUS, "/cpu:0", "/cpu:1")
  for a, b in zip(ref, got):
    np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)
  fix = np.load(_TF_RNN)
  np.testing.assert_array_equal(fix["x"], _RNN_X)
  for name, b in zip(["out", "dx", "dw", "du"], got):
    np.testing.assert_allclose(b, fix[name], rtol=1e-5, atol=1e-5, err_msg=name)


def test_loop_over_three_devices_with_edges_between_followers():
  """Tensors cross between two devices that both follow the loop's predicate
  from a third (each gets its own control loop)."""
  def body(i, acc):
    with tf.device("/cpu:1"):
      p = tf.tanh(acc) + 1.0
    with tf.device("/cpu:2"):
      q = p * acc
    with tf.device("/cpu:1"):
      r = q - 0.5 * p
    return i + 1, r

  def run(config):
    with tf.Graph().as_default():
      x = tf.placeholder(tf.float32, [2])
      with tf.device("/cpu:0"):
        _, out = tf.while_loop(lambda i, acc: i < 6, body, [0, x], parallel_iterations=3)
        grad, = tf.gradients(tf.reduce_sum(out), x)
      with tf.Session(config=config) as sess:
        return sess.run([out, grad], {x: [0.25, -0.5]})
  ref = run(tf.ConfigProto(allow_soft_placement=True))
  got = run(tf.ConfigProto(device_count={"CPU": 3}))
  for a, b in zip(ref, got):
    np.testing.assert_array_equal(a, b)


def test_cross_device_frame_without_a_loop_predicate_is_an_error():
  """TF's InvalidArgumentError for a frame that spans devices but holds no
  LoopCond to drive the other device's control loop."""
  from tfc.ops import control_flow_ops
  with tf.Graph().as_default():
    with tf.device("/cpu:0"):
      e = control_flow_ops._enter(tf.constant(2.0), "frame_without_cond")
    with tf.device("/cpu:1"):
      m = e * 3.0
    with tf.device("/cpu:0"):
      out = control_flow_ops.exit(m)
    with tf.Session(config=TWO_CPUS) as sess:
      with pytest.raises(tf.errors.InvalidArgumentError,
                         match="A cross-device loop must have a pivot predicate: frame_without_cond"):
        sess.run(out)


def _endless(dev_a, dev_b):
  def body(i, acc):
    with tf.device(dev_b):
      y = acc * 1.0001
    return i + 1, y
  with tf.device(dev_a):
    return tf.while_loop(lambda i, acc: i >= 0, body, [0, tf.constant(1.0)])


def test_deadline_ends_a_loop_spanning_local_devices():
  with tf.Graph().as_default():
    out = _endless("/cpu:0", "/cpu:1")
    ok = _simple_loop("/cpu:0", "/cpu:1")
    with tf.Session(config=TWO_CPUS) as sess:
      t0 = time.time()
      with pytest.raises(tf.errors.DeadlineExceededError):
        sess.run(out, options=tf.RunOptions(timeout_in_ms=300))
      assert time.time() - t0 < 10
      assert sess.run(ok) == (5, 32.0)


def test_loop_spanning_in_process_tasks_and_loop_invariants():
  ports = iter(free_ports(2))
  cluster = tf.train.ClusterSpec({"ps": ["localhost:%d" % next(ports)], "worker": ["localhost:%d" % next(ports)]})
  servers = [tf.train.Server(cluster, job_name=j, task_index=0) for j in ("ps", "worker")]
  with tf.Graph().as_default():
    with tf.device(PS):
      scale = tf.Variable(3.0, name="scale")
    spanning = _simple_loop(WORKER, PS)

    def body(i, acc):
      with tf.device(PS):
        y = acc * scale
      return i + 1, y
    with tf.device(WORKER):
      _, with_var = tf.while_loop(lambda i, acc: i < 4, body, [0, tf.constant(1.0)])
    with tf.Session(servers[1].target) as sess:
      sess.run(scale.initializer)
      assert sess.run(spanning) == (5, 32.0)
      assert sess.run(with_var) == 81.0


@pytest.fixture(scope="module")
def cluster():
  c = Cluster({"ps": 1, "worker": 1})
  yield c
  c.stop()


def test_nested_loops_cond_and_gradients_across_server_processes(cluster):
  ref = _nested_reference()
  with tf.Graph().as_default():
    x, r, g = _nested_model(WORKER, PS)
    with tf.Session(cluster.target("worker", 0)) as sess:
      got = sess.run([r, g], {x: _X}, options=tf.RunOptions(timeout_in_ms=60000))
  for a, b in zip(ref, got):
    np.testing.assert_array_equal(a, b)


def test_tensor_array_rnn_across_server_processes(cluster):
  ref = _run_rnn("", TWO_CPUS, "/cpu:0", "/cpu:0")
  got = _run_rnn(cluster.target("worker", 0), None, WORKER, PS)
  for a, b in zip(ref, got):
    np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)


def test_deadline_ends_a_loop_spanning_server_processes(cluster):
  with tf.Graph().as_default():
    out = _endless(WORKER, PS)
    with tf.device(PS):
      q = tf.FIFOQueue(8, tf.float32, shapes=[[]])

    def body(i, acc):
      with tf.device(PS):
        y = acc + q.dequeue()
      return i + 1, y
    with tf.device(WORKER):
      _, blocked = tf.while_loop(lambda i, acc: i < 3, body, [0, tf.constant(1.0)])
    with tf.Session(cluster.target("worker", 0)) as sess:
      t0 = time.time()
      with pytest.raises(tf.errors.DeadlineExceededError):
        sess.run(out, options=tf.RunOptions(timeout_in_ms=500))
      # a loop blocked on the ps in its second iteration
      sess.run(q.enqueue(5.0))
      with pytest.raises(tf.errors.DeadlineExceededError):
        sess.run(blocked, options=tf.RunOptions(timeout_in_ms=500))
      assert time.time() - t0 < 20
      sess.run(q.enqueue_many([[1.0, 2.0, 3.0]]))
      assert sess.run(blocked) == 7.0


def test_killed_task_ends_a_loop_spanning_server_processes():
  c = Cluster({"ps": 1, "worker": 1})
  try:
    with tf.Graph().as_default():
      out = _endless(WORKER, PS)
      ok = _simple_loop(WORKER, WORKER)
      with tf.Session(c.target("worker", 0)) as sess:
        killer = threading.Timer(1.0, c.kill, ("ps", 0))
        killer.start()
        t0 = time.time()
        with pytest.raises((tf.errors.UnavailableError, tf.errors.AbortedError)) as e:
          sess.run(out)
        killer.join()
        assert time.time() - t0 < 30
        assert "/job:ps/replica:0/task:0" in str(e.value)
        assert sess.run(ok) == (5, 32.0)
  finally:
    codes = c.stop()
  assert codes[("worker", 0)] == 0, codes
