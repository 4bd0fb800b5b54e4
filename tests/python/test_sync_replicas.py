"""Conditional accumulators (tf.ConditionalAccumulator, tf.SparseConditionalAccumulator:
mean and sum, TF's staleness rule, per-row means of sparse gradients, errors, a waiting
take that holds no thread and is cancelled by a deadline or by closing the session) and
tf.train.SyncReplicasOptimizer: two replicas in one process and 2 workers + 1 ps as
processes give the weights of plain gradient descent on the union of their batches."""
import json
import pathlib
import re
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import tfc as tf

HERE = pathlib.Path(__file__).resolve().parent


def test_dense_accumulator_mean_sum_and_staleness():
  with tf.Graph().as_default():
    acc = tf.ConditionalAccumulator(tf.float32, shape=[2])
    acc_sum = tf.ConditionalAccumulator(tf.float32, shape=[2], reduction_type="SUM")
    g = tf.placeholder(tf.float32, [2])
    step = tf.placeholder(tf.int64, [])
    apply = acc.apply_grad(g, local_step=step)
    apply_sum = acc_sum.apply_grad(g, local_step=step)
    take, take_sum = acc.take_grad(2), acc_sum.take_grad(2)
    num = acc.num_accumulated()
    set_step = acc.set_global_step(step)
    assert acc.accumulator_ref.op.type == "ResourceConditionalAccumulator"
    assert take.shape.as_list() == [2]
    with tf.Session() as sess:
      for v in ([1., 2.], [3., 5.]):
        sess.run([apply, apply_sum], {g: v, step: 0})
      assert sess.run(num) == 2
      np.testing.assert_array_equal(sess.run(take), [2., 3.5])
      np.testing.assert_array_equal(sess.run(take_sum), [4., 7.])
      assert sess.run(num) == 0
      # the take advanced the global step to 1: a gradient from step 0 is stale
      sess.run(apply, {g: [9., 9.], step: 0})
      assert sess.run(num) == 0
      sess.run(apply, {g: [1., 1.], step: 1})
      assert sess.run(num) == 1
      sess.run(set_step, {step: 10})
      sess.run(apply, {g: [1., 1.], step: 9})
      assert sess.run(num) == 1
      sess.run(apply, {g: [3., 3.], step: 10})
      np.testing.assert_array_equal(sess.run(take), [2., 2.])


def test_sparse_accumulator_averages_each_row_over_its_gradients():
  with tf.Graph().as_default():
    acc = tf.SparseConditionalAccumulator(tf.float32, shape=[4, 2])
    idx = tf.placeholder(tf.int64, [None])
    vals = tf.placeholder(tf.float32, [None, 2])
    apply = acc.apply_grad(idx, vals, grad_shape=[4, 2], local_step=0)
    slices = acc.take_indexed_slices_grad(2)
    apply_later = acc.apply_grad(idx, vals, grad_shape=[4, 2], local_step=5)
    assert acc.accumulator_ref.op.type == "SparseConditionalAccumulator"
    with tf.Session() as sess:
      sess.run(apply, {idx: [0, 2], vals: [[1., 1.], [2., 2.]]})
      sess.run(apply, {idx: [1, 2], vals: [[3., 3.], [4., 4.]]})
      i, v, s = sess.run([slices.indices, slices.values, slices.dense_shape])
      np.testing.assert_array_equal(i, [0, 1, 2])
      np.testing.assert_array_equal(v, [[1., 1.], [3., 3.], [3., 3.]])
      np.testing.assert_array_equal(s, [4, 2])
      with pytest.raises(tf.errors.InvalidArgumentError, match="index of slice 0 exceeded limits"):
        sess.run(apply_later, {idx: [7], vals: [[1., 1.]]})
      sess.run(apply, {idx: [7], vals: [[1., 1.]]})  # stale (global step 1): dropped unchecked, as in TF


def test_accumulator_errors_name_the_node():
  with tf.Graph().as_default():
    acc = tf.ConditionalAccumulator(tf.float32, shape=None, name="acc")
    g = tf.placeholder(tf.float32, None)
    apply = acc.apply_grad(g, name="apply_it")
    take0 = acc.take_grad(0, name="take_none")
    with pytest.raises(ValueError):
      tf.ConditionalAccumulator(tf.float32, shape=[2]).apply_grad([1., 2., 3.])
    with tf.Session() as sess:
      sess.run(apply, {g: [1., 2.]})
      with pytest.raises(tf.errors.InvalidArgumentError, match=r"Shape mismatch: expected \[2\], got \[3\]") as e:
        sess.run(apply, {g: [1., 2., 3.]})
      assert "apply_it" in str(e.value)
      with pytest.raises(tf.errors.InvalidArgumentError, match="num_required must be positive") as e:
        sess.run(take0)
      assert "take_none" in str(e.value)


def test_waiting_take_times_out_and_is_cancelled_by_close():
  with tf.Graph().as_default():
    acc = tf.ConditionalAccumulator(tf.float32, shape=[])
    take = acc.take_grad(1)
    sess = tf.Session()
    t0 = time.time()
    with pytest.raises(tf.errors.DeadlineExceededError):
      sess.run(take, options=tf.RunOptions(timeout_in_ms=200))
    assert time.time() - t0 < 5
    errors = []

    def run():
      try:
        sess.run(take)
      except tf.errors.OpError as e:
        errors.append(e)

    threads = [threading.Thread(target=run) for _ in range(20)]  # waiting takes hold no thread
    for t in threads:
      t.start()
    time.sleep(0.3)
    sess.close()
    for t in threads:
      t.join(10)
      assert not t.is_alive()
    assert len(errors) == 20 and all(isinstance(e, tf.errors.CancelledError) for e in errors)


def _linear_problem():
  rng = np.random.RandomState(0)
  return rng.randn(8, 4).astype(np.float32), rng.randn(8, 1).astype(np.float32)


def test_sync_replicas_two_replicas_in_one_process_match_full_batch_descent():
  X, Y = _linear_problem()
  with tf.Graph().as_default():
    x = tf.placeholder(tf.float32, [None, 4])
    y = tf.placeholder(tf.float32, [None, 1])
    w = tf.Variable(tf.ones([4, 1]), name="w")
    b = tf.Variable(tf.zeros([1]), name="b")
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
    gs = tf.train.get_or_create_global_step()
    opt = tf.train.SyncReplicasOptimizer(tf.train.GradientDescentOptimizer(0.1), replicas_to_aggregate=2,
                                         total_num_replicas=2)
    train = opt.minimize(loss, global_step=gs)
    with pytest.raises(ValueError, match="after apply_gradients"):
      tf.train.SyncReplicasOptimizer(tf.train.GradientDescentOptimizer(0.1), 3, 1).get_init_tokens_op()
    sess = tf.Session()
    sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
    sess.run(opt.chief_init_op)
    sess.run(opt.get_init_tokens_op(0))
    coord = tf.train.Coordinator()
    opt.get_chief_queue_runner().create_threads(sess, coord=coord, daemon=True, start=True)
    barrier = threading.Barrier(2)

    def worker(k):
      for _ in range(5):
        sess.run(train, {x: X[k * 4:(k + 1) * 4], y: Y[k * 4:(k + 1) * 4]})
        barrier.wait()

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(2)]
    for t in threads:
      t.start()
    for t in threads:
      t.join(30)
    deadline = time.time() + 10
    while sess.run(gs) < 5 and time.time() < deadline:
      time.sleep(0.01)
    got_w, got_b, step = sess.run([w, b, gs])
    coord.request_stop()
    sess.close()
  assert step == 5
  # reference: plain gradient descent on all 8 rows (the mean of the two halves' gradients)
  W, B = np.ones([4, 1]), np.zeros([1])
  for _ in range(5):
    r = X @ W + B - Y
    W, B = W - 0.1 * (2 * X.T @ r / 8), B - 0.1 * (2 * r.mean(0))
  np.testing.assert_allclose(got_w, W, rtol=1e-5, atol=1e-6)
  np.testing.assert_allclose(got_b, B, rtol=1e-5, atol=1e-6)


def _reference_weights(steps, n_workers):
  """The digits MLP trained by plain gradient descent on every worker's batch at once."""
  sys.path.insert(0, str(HERE))
  import dist_sync_worker as w  # pylint: disable=g-import-not-at-top
  X, Y = w.load_digits()
  with tf.Graph().as_default():
    m = w.build(tf, n_workers, 0, None)
    # the same model trained without the synchronous wrapper
    gd = tf.train.GradientDescentOptimizer(0.5).minimize(m["loss"], var_list=m["weights"])
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      for step in range(steps):
        rows = np.concatenate([w.batches(step, k, n_workers) for k in range(n_workers)])
        sess.run(gd, {m["x"]: X[rows], m["y"]: Y[rows]})
      return sess.run(m["weights"])


def test_sync_replicas_between_graph_two_workers_one_ps():
  pytest.importorskip("sklearn")
  from cluster_util import Cluster  # pylint: disable=g-import-not-at-top
  steps = 15
  cluster = Cluster({"ps": 1}, external={"worker": 2})
  procs = []
  try:
    for i in range(2):
      procs.append(subprocess.Popen(
          [sys.executable, str(HERE / "dist_sync_worker.py"), "--cluster", json.dumps(cluster.spec),
           "--task", str(i), "--steps", str(steps)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True))
    outs = [p.communicate(timeout=150)[0] for p in procs]
    for p, out in zip(procs, outs):
      assert p.returncode == 0, out
    assert re.search(r"^global step %d$" % steps, outs[0], re.M), outs[0]
    got = json.loads(re.search(r"^weights (.*)$", outs[0], re.M).group(1))
  finally:
    for p in procs:
      if p.poll() is None:
        p.kill()
        p.wait(10)
    cluster.stop()
  want = _reference_weights(steps, 2)
  for g, w in zip(got, want):
    np.testing.assert_allclose(np.array(g, np.float32), w, rtol=1e-4, atol=1e-5)


# the chief queue runner's step ends with CancelledError when the session closes; as in
# TF, the coordinator (already joined) raises it in that thread
@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_sync_replicas_hook_in_monitored_training_session(tmp_path):
  X, Y = _linear_problem()
  with tf.Graph().as_default():
    x = tf.constant(X)
    y = tf.constant(Y)
    w = tf.Variable(tf.ones([4, 1]), name="w")
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - y))
    gs = tf.train.get_or_create_global_step()
    opt = tf.train.SyncReplicasOptimizer(tf.train.GradientDescentOptimizer(0.1), replicas_to_aggregate=1)
    train = opt.minimize(loss, global_step=gs)
    hooks = [opt.make_session_run_hook(is_chief=True, num_tokens=0), tf.train.StopAtStepHook(last_step=6)]
    with tf.train.MonitoredTrainingSession(is_chief=True, checkpoint_dir=str(tmp_path), hooks=hooks,
                                           save_checkpoint_steps=3, save_summaries_steps=None,
                                           stop_grace_period_secs=1) as sess:
      # (the chief queue runner waits in its next TakeGradient until the session closes)
      runs = 0
      while not sess.should_stop() and runs < 50:
        sess.run(train)
        runs += 1
    assert runs >= 6
  W = np.ones([4, 1])
  for _ in range(6):
    W = W - 0.1 * (2 * X.T @ (X @ W - Y) / 8)
  reader = tf.train.load_checkpoint(str(tmp_path))
  np.testing.assert_allclose(reader.get_tensor("w"), W, rtol=1e-5)
  assert reader.get_tensor("global_step") == 6
