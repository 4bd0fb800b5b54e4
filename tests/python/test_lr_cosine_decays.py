"""tf.train.cosine_decay, cosine_decay_restarts, linear_cosine_decay,
noisy_linear_cosine_decay and piecewise_constant_decay: TF 1.15's formulas (checked against
TensorFlow) evaluated at a fed global step."""
import math

import numpy as np
import pytest

import tfc as tf

STEPS = [0, 1, 7, 10, 25, 100, 1000]


def evaluate(build):
  """The schedule's value at each of STEPS, from one graph with a fed int64 step."""
  with tf.Graph().as_default():
    step = tf.placeholder(tf.int64, [])
    lr = build(step)
    with tf.Session() as sess:
      return [float(sess.run(lr, {step: s})) for s in STEPS]


def cosine(fraction):
  return 0.5 * (1 + math.cos(math.pi * fraction))


def test_cosine_decay():
  got = evaluate(lambda s: tf.train.cosine_decay(0.1, s, 100, alpha=0.1))
  want = [0.1 * ((1 - 0.1) * cosine(min(s, 100) / 100) + 0.1) for s in STEPS]
  np.testing.assert_allclose(got, want, rtol=1e-5)


def sgdr(step, first, t_mul, m_mul, alpha):
  """SGDR by walking the periods one by one."""
  start, length, i = 0.0, float(first), 0
  while step >= start + length:
    start += length
    length *= t_mul
    i += 1
  return (1 - alpha) * m_mul ** i * cosine((step - start) / length) + alpha


@pytest.mark.parametrize("first,t_mul,m_mul,alpha", [(10, 2.0, 1.0, 0.0), (10, 1.0, 0.5, 0.01),
                                                     (7, 3.0, 0.9, 0.0)])
def test_cosine_decay_restarts(first, t_mul, m_mul, alpha):
  got = evaluate(lambda s: tf.train.cosine_decay_restarts(0.1, s, first, t_mul=t_mul,
                                                          m_mul=m_mul, alpha=alpha))
  want = [0.1 * sgdr(s, first, t_mul, m_mul, alpha) for s in STEPS]
  np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-7)


def test_linear_cosine_decay():
  got = evaluate(lambda s: tf.train.linear_cosine_decay(0.1, s, 100, num_periods=2.0))
  want = []
  for s in STEPS:
    s = min(s, 100)
    want.append(0.1 * ((0.0 + (100 - s) / 100) * cosine(2 * 2.0 * s / 100) + 0.001))
  np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-8)


def test_noisy_linear_cosine_decay_is_noisy_around_the_linear_cosine():
  with tf.Graph().as_default():
    step = tf.constant(50, tf.int64)
    noisy = tf.train.noisy_linear_cosine_decay(0.1, step, 100, initial_variance=0.01)
    with tf.Session() as sess:
      values = np.array([sess.run(noisy) for _ in range(200)])
  cos = cosine(2 * 0.5 * 0.5)
  # value = 0.1 * ((0.5 + noise) * cos + 0.001), noise ~ N(0, 0.01 / 51 ** 0.55)
  noise = (values / 0.1 - 0.001) / cos - 0.5
  assert abs(noise.mean()) < 0.01
  assert abs(noise.std() - math.sqrt(0.01 / 51 ** 0.55)) < 0.01


def test_piecewise_constant_decay_and_errors():
  assert tf.train.piecewise_constant_decay is tf.train.piecewise_constant
  with tf.Graph().as_default():
    with pytest.raises(ValueError, match="global_step is required"):
      tf.train.cosine_decay(0.1, None, 100)
    with pytest.raises(ValueError, match="global_step is required"):
      tf.train.cosine_decay_restarts(0.1, None, 100)


def test_cosine_decay_drives_an_optimizer():
  with tf.Graph().as_default():
    global_step = tf.train.get_or_create_global_step()
    w = tf.Variable(0.0)
    lr = tf.train.cosine_decay(1.0, global_step, 4)
    step = tf.train.GradientDescentOptimizer(lr).minimize(-w, global_step=global_step)
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      for _ in range(5):
        sess.run(step)
      want = sum(cosine(min(s, 4) / 4) for s in range(5))
      np.testing.assert_allclose(sess.run(w), want, rtol=1e-5)
