"""tf.custom_gradient, tf.grad_pass_through and tf.recompute_grad in graphs: values and
gradients against hand-derived ones and finite differences."""
import numpy as np
import pytest

import tfc as tf


@pytest.fixture(autouse=True)
def _fresh_graph():
  """Each test builds in a graph of its own."""
  with tf.Graph().as_default():
    yield


def test_custom_gradient_log1pexp():
  @tf.custom_gradient
  def log1pexp(x):
    e = tf.exp(x)
    def grad(dy):
      return dy * (1 - 1 / (1 + e))
    return tf.log(1 + e), grad

  x = tf.constant([0.0, 2.0, 100.0])
  y = log1pexp(x)
  g = tf.gradients(tf.reduce_sum(y), x)[0]
  with tf.Session() as sess:
    yv, gv = sess.run([y, g])
  np.testing.assert_allclose(yv[:2], np.log1p(np.exp([0.0, 2.0])), rtol=1e-6)
  np.testing.assert_allclose(gv, [0.5, 1 / (1 + np.exp(-2.0)), 1.0], rtol=1e-6)


def test_custom_gradient_several_inputs_and_outputs():
  @tf.custom_gradient
  def f(a, b):
    def grad(da, db):
      return da * 10.0 + db, da - db * 2.0
    return (a * b, a + b), grad

  a, b = tf.constant(2.0), tf.constant(3.0)
  p, s = f(a, b)
  ga, gb = tf.gradients(p + s, [a, b])
  gp = tf.gradients(p, [a, b])
  with tf.Session() as sess:
    assert sess.run([p, s]) == [6.0, 5.0]
    assert sess.run([ga, gb]) == [11.0, -1.0]
    assert sess.run(gp) == [10.0, 1.0]


def test_custom_gradient_with_variables():
  @tf.custom_gradient
  def scale(x):
    w = tf.get_variable("w", initializer=3.0)
    def grad(dy, variables=None):
      assert len(variables) == 1
      return dy * w, [dy * 100.0]
    return x * w, grad

  x = tf.constant(2.0)
  y = scale(x)
  w = tf.trainable_variables()[0]
  gx, gw = tf.gradients(y, [x, w])
  with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    assert sess.run([y, gx, gw]) == [6.0, 3.0, 100.0]


def test_custom_gradient_variables_need_keyword():
  @tf.custom_gradient
  def bad(x):
    w = tf.get_variable("w2", initializer=1.0)
    return x * w, lambda dy: dy
  with pytest.raises(TypeError, match="variables"):
    bad(tf.constant(1.0))


def test_grad_pass_through():
  x = tf.constant([1.4, -2.6])
  y = tf.grad_pass_through(tf.round)(x)
  g = tf.gradients(tf.reduce_sum(y * y), x)[0]
  with tf.Session() as sess:
    yv, gv = sess.run([y, g])
  np.testing.assert_array_equal(yv, [1.0, -3.0])
  np.testing.assert_array_equal(gv, [2.0, -6.0])  # d(y^2)/dy passed straight to x


def test_recompute_grad_matches_plain_gradient():
  def block(x):
    with tf.variable_scope("block", reuse=tf.AUTO_REUSE):
      w = tf.get_variable("w", initializer=tf.constant([[0.5, -1.0], [2.0, 0.25]]))
    return tf.tanh(tf.matmul(x, w))

  x = tf.constant([[1.0, 2.0], [-0.5, 0.3]])
  plain = block(x)
  recomputed = tf.recompute_grad(block)(x)
  g_plain = tf.gradients(tf.reduce_sum(plain * plain), x)[0]
  g_re = tf.gradients(tf.reduce_sum(recomputed * recomputed), x)[0]
  with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    a, b, c, d = sess.run([plain, recomputed, g_plain, g_re])
  np.testing.assert_allclose(a, b, rtol=1e-6)
  np.testing.assert_allclose(c, d, rtol=1e-5)
