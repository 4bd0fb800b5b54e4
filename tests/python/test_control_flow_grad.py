"""Gradients through tf.cond (v1 Switch/Merge), nested conds and tf.case,
checked by finite differences (tfc.test.compute_gradient_error) and against
the analytic values; training through a cond (loops: test_while_grad.py)."""
import numpy as np
import pytest

import tfc as tf


def _grad_err(build, shape, feed):
  g = tf.Graph()
  with g.as_default():
    x = tf.placeholder(tf.float64, shape)
    y = build(x)
    with tf.Session():
      x0 = np.random.RandomState(3).uniform(0.5, 1.5, shape)
      return tf.test.compute_gradient_error(x, list(shape), y, y.shape.as_list(), x_init_value=x0,
                                            extra_feed_dict=feed(g))


@pytest.mark.parametrize("taken", [True, False])
def test_cond_gradient_matches_finite_differences(taken):
  p_holder = {}

  def build(x):
    p = tf.placeholder(tf.bool, [], name="p")
    p_holder["p"] = p
    return tf.cond(p, lambda: tf.sin(x) * x, lambda: tf.exp(x) + x * x)

  err = _grad_err(build, (2, 3), lambda g: {p_holder["p"]: taken})
  assert err < 1e-6


def test_nested_cond_and_outer_use_gradients():
  g = tf.Graph()
  with g.as_default():
    x = tf.placeholder(tf.float64, [3])
    a = tf.placeholder(tf.bool, [])
    b = tf.placeholder(tf.bool, [])
    y = tf.cond(a, lambda: tf.cond(b, lambda: x * x, lambda: x * 5.0), lambda: tf.tanh(x)) + 2.0 * x
    z = tf.reduce_sum(y)
    gx, = tf.gradients(z, x)
    xv = np.array([0.3, -0.7, 1.1])
    with tf.Session() as sess:
      np.testing.assert_allclose(sess.run(gx, {x: xv, a: True, b: True}), 2 * xv + 2.0)
      np.testing.assert_allclose(sess.run(gx, {x: xv, a: True, b: False}), 5.0 + 2.0 + 0 * xv)
      np.testing.assert_allclose(sess.run(gx, {x: xv, a: False, b: True}),
                                 1 - np.tanh(xv) ** 2 + 2.0)
      for av in (True, False):
        for bv in (True, False):
          err = tf.test.compute_gradient_error(x, [3], z, [], x_init_value=xv,
                                               extra_feed_dict={a: av, b: bv})
          assert err < 1e-6


def test_case_gradient():
  g = tf.Graph()
  with g.as_default():
    x = tf.placeholder(tf.float64, [])
    k = tf.placeholder(tf.int32, [])
    y = tf.case([(tf.equal(k, 0), lambda: x * x), (tf.equal(k, 1), lambda: x * x * x)],
                default=lambda: -x)
    gx, = tf.gradients(y, x)
    with tf.Session() as sess:
      assert sess.run(gx, {x: 3.0, k: 0}) == 6.0
      assert sess.run(gx, {x: 3.0, k: 1}) == 27.0
      assert sess.run(gx, {x: 3.0, k: 7}) == -1.0


def test_training_through_a_cond():
  g = tf.Graph()
  with g.as_default():
    w = tf.Variable(1.0)
    p = tf.placeholder(tf.bool, [])
    loss = tf.cond(p, lambda: (w - 3.0) ** 2, lambda: (w + 1.0) ** 2)
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      for _ in range(200):
        sess.run(train, {p: True})
      assert abs(sess.run(w) - 3.0) < 1e-4
      for _ in range(200):
        sess.run(train, {p: False})
      assert abs(sess.run(w) + 1.0) < 1e-4


def test_cond_gradient_equals_tensorflows():
  """tfc's own gradient graph of the function that tools/make_op_fixtures.py
  differentiated with TensorFlow (Merge/tf_cond_gradient) gives TF's values."""
  import pathlib
  data = np.load(pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "ops" / "Merge.npz")
  xv, pv = data["tf_cond_gradient.feed0"], data["tf_cond_gradient.feed1"]
  g = tf.Graph()
  with g.as_default():
    x = tf.placeholder(tf.float32, [2, 3])
    p = tf.placeholder(tf.bool, [])
    y = tf.cond(p, lambda: tf.reduce_sum(tf.sin(x) * x),
                lambda: tf.cond(tf.reduce_sum(x) > 0.0, lambda: tf.reduce_sum(x * x),
                                lambda: tf.reduce_sum(tf.exp(x))))
    gx, = tf.gradients(y, x)
    with tf.Session() as sess:
      yv, gv = sess.run([y, gx], {x: xv, p: pv})
  np.testing.assert_allclose(yv, data["tf_cond_gradient.fetch0"], rtol=1e-6)
  np.testing.assert_allclose(gv, data["tf_cond_gradient.fetch1"], rtol=1e-6)
