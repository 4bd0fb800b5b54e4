"""tf.train.ExponentialMovingAverage (values against a NumPy recurrence, TF's shadow
names, num_updates, zero debiasing, variables_to_restore with a Saver),
basic_train_loop and checkpoints_iterator."""
import os
import threading
import time

import numpy as np
import pytest

import tfc as tf



@pytest.fixture(autouse=True)
def _fresh_graph():
  """Each test builds in a graph of its own."""
  with tf.Graph().as_default():
    yield


def test_ema_values_and_names():
  v = tf.Variable([1.0, 2.0], name="w")
  x = tf.placeholder(tf.float32, [2])
  t = tf.identity(x * 2.0, name="t")
  ema = tf.train.ExponentialMovingAverage(0.9)
  update = ema.apply([v, t])
  shadow_v, shadow_t = ema.average(v), ema.average(t)
  assert shadow_v.op.name == "w/ExponentialMovingAverage"
  assert ema.average_name(v) == "w/ExponentialMovingAverage"
  assert shadow_t.op.name == "t/ExponentialMovingAverage"
  assert v in tf.moving_average_variables()
  assert shadow_v not in tf.trainable_variables() and shadow_v in tf.global_variables()
  assign = v.assign([3.0, 6.0])
  with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    np.testing.assert_allclose(sess.run(shadow_v), [1.0, 2.0])
    sess.run(assign)
    expect_v = np.array([1.0, 2.0])
    biased = np.zeros(2)
    for step in range(1, 4):
      xv = np.array([1.0, step], np.float32)
      sess.run(update, {x: xv})
      expect_v -= 0.1 * (expect_v - np.array([3.0, 6.0]))
      biased -= 0.1 * (biased - 2 * xv)
      # tensors' averages are always debiased (they start at zero)
      expect_t = biased / (1 - 0.9 ** step)
      np.testing.assert_allclose(sess.run(shadow_v), expect_v, rtol=1e-6)
      np.testing.assert_allclose(sess.run(shadow_t), expect_t, rtol=1e-5)


def test_ema_num_updates_and_errors():
  v = tf.Variable(0.0, name="v")
  step = tf.Variable(0, name="step")
  ema = tf.train.ExponentialMovingAverage(0.999, num_updates=step)
  update = ema.apply([v])
  with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    sess.run(v.assign(10.0))
    sess.run(update)  # decay min(0.999, 1/10) = 0.1
    np.testing.assert_allclose(sess.run(ema.average(v)), 9.0, rtol=1e-6)
  with pytest.raises(ValueError, match="already computed"):
    ema.apply([v])
  with pytest.raises(TypeError, match="half, float, or double"):
    ema.apply([tf.Variable(1, name="int_var")])
  assert ema.average(tf.Variable(1.0, name="other")) is None


def test_ema_zero_debias_variable():
  v = tf.Variable(0.0, name="zd")
  ema = tf.train.ExponentialMovingAverage(0.5, zero_debias=True)
  update = ema.apply([v])
  with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    sess.run(v.assign(4.0))
    sess.run(update)
    # biased = 0.5 * 4 = 2, debiased 2 / (1 - 0.5) = 4: the shadow jumps to the value
    np.testing.assert_allclose(sess.run(ema.average(v)), 4.0, rtol=1e-6)


def test_variables_to_restore_with_saver(tmp_path):
  prefix = str(tmp_path / "model.ckpt")
  with tf.Graph().as_default():
    v = tf.Variable(1.0, name="v")
    other = tf.Variable(5.0, name="other", trainable=False)
    ema = tf.train.ExponentialMovingAverage(0.5)
    update = ema.apply([v])
    saver = tf.train.Saver()
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      sess.run(v.assign(3.0))
      sess.run(update)  # shadow 2.0
      saver.save(sess, prefix)
  with tf.Graph().as_default():
    v = tf.Variable(0.0, name="v")
    other = tf.Variable(0.0, name="other", trainable=False)
    ema = tf.train.ExponentialMovingAverage(0.5)
    restore_map = ema.variables_to_restore()
    assert restore_map == {"v/ExponentialMovingAverage": v, "other": other}
    with tf.Session() as sess:
      tf.train.Saver(restore_map).restore(sess, prefix)
      assert sess.run(v) == 2.0 and sess.run(other) == 5.0


def test_checkpoints_iterator(tmp_path):
  d = str(tmp_path)
  with tf.Graph().as_default():
    v = tf.Variable(1.0)
    saver = tf.train.Saver()
    with tf.Session() as sess:
      sess.run(v.initializer)
      saver.save(sess, os.path.join(d, "m"), global_step=1)

      def later():
        time.sleep(1.5)
        saver.save(sess, os.path.join(d, "m"), global_step=2)
      thread = threading.Thread(target=later)
      thread.start()
      seen = list(tf.train.checkpoints_iterator(d, timeout=4))
      thread.join()
  assert [os.path.basename(p) for p in seen] == ["m-1", "m-2"]


def test_basic_train_loop(tmp_path):
  with tf.Graph().as_default():
    step = tf.train.get_or_create_global_step()
    inc = tf.assign_add(step, 1)
    sv = tf.train.Supervisor(logdir=str(tmp_path), save_model_secs=0, save_summaries_secs=0)
    calls = []

    def train_step(sess, limit):
      calls.append(sess.run(inc))
      if calls[-1] >= limit:
        sv.request_stop()
    tf.train.basic_train_loop(sv, train_step, args=[3])
  assert calls == [1, 2, 3]


def test_train_queue_runner_namespace():
  assert tf.train.queue_runner.QueueRunner is tf.train.QueueRunner
  assert tf.train.queue_runner.start_queue_runners is tf.train.start_queue_runners


def test_warm_start(tmp_path):
  prefix = str(tmp_path / "old.ckpt")
  with tf.Graph().as_default():
    a = tf.Variable([1.0, 2.0], name="dense/kernel")
    b = tf.Variable(5.0, name="dense/bias")
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      tf.train.Saver().save(sess, prefix)
  with tf.Graph().as_default():
    k = tf.Variable([0.0, 0.0], name="dense/kernel")
    renamed = tf.Variable(0.0, name="new_bias")
    other = tf.Variable(9.0, name="other/w")
    tf.train.warm_start(prefix, vars_to_warm_start=["dense/", "new_bias"],
                        var_name_to_prev_var_name={"new_bias": "dense/bias"})
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      assert list(sess.run(k)) == [1.0, 2.0] and sess.run(renamed) == 5.0
      assert sess.run(other) == 9.0
  with tf.Graph().as_default():
    tf.Variable([0.0, 0.0], name="dense/kernel")
    with pytest.raises(ValueError, match="did not match any variables"):
      tf.train.warm_start(prefix, var_name_to_prev_var_name={"missing": "x"})
    with pytest.raises(NotImplementedError):
      tf.train.warm_start(prefix, var_name_to_vocab_info={"dense/kernel": tf.train.VocabInfo(
          "new.txt", 10, 0, "old.txt")})
  with pytest.raises(ValueError, match="axis"):
    tf.train.VocabInfo("a", 1, 0, "b", axis=2)
