"""tf.nn.local_response_normalization / tf.nn.lrn: values against a NumPy
reference, the LRNGrad gradient by finite differences, and bad input."""
import numpy as np
import pytest

import tfc as tf


def _np_lrn(x, r, bias, alpha, beta):
  sq = x.astype(np.float64) ** 2
  n = x.shape[-1]
  out = np.empty_like(sq)
  for d in range(n):
    lo, hi = max(0, d - r), min(n, d + r + 1)
    out[..., d] = x[..., d] / (bias + alpha * sq[..., lo:hi].sum(-1)) ** beta
  return out


@pytest.mark.parametrize("shape,r,bias,alpha,beta", [((2, 3, 3, 8), 5, 1.0, 1.0, 0.5),
                                                    ((1, 4, 4, 16), 2, 2.0, 1e-3, 0.75),
                                                    ((3, 1, 1, 5), 0, 1.0, 0.5, 1.0),
                                                    ((1, 2, 2, 300), 7, 1.0, 0.1, 0.5)])
def test_lrn_matches_numpy(shape, r, bias, alpha, beta):
  x = np.random.RandomState(0).uniform(-2, 2, shape).astype(np.float32)
  with tf.Graph().as_default():
    y = tf.nn.lrn(tf.constant(x), depth_radius=r, bias=bias, alpha=alpha, beta=beta)
    with tf.Session() as sess:
      got = sess.run(y)
  np.testing.assert_allclose(got, _np_lrn(x, r, bias, alpha, beta), rtol=2e-5, atol=1e-6)
  assert tf.nn.local_response_normalization is tf.nn.lrn


@pytest.mark.parametrize("r,beta", [(2, 0.75), (5, 0.5), (0, 1.0)])
def test_lrn_gradient_matches_finite_differences(r, beta):
  x0 = np.random.RandomState(1).uniform(-1, 1, (1, 2, 2, 7)).astype(np.float32)
  with tf.Graph().as_default():
    x = tf.placeholder(tf.float32, x0.shape)
    y = tf.nn.lrn(x, depth_radius=r, bias=1.5, alpha=0.5, beta=beta)
    with tf.Session():
      err = tf.test.compute_gradient_error(x, list(x0.shape), y, list(x0.shape), x_init_value=x0,
                                           delta=1e-2)
  assert err < 2e-3


def test_lrn_bad_input():
  with tf.Graph().as_default():
    with pytest.raises(ValueError):
      tf.nn.lrn(tf.zeros([2, 3]))
    with pytest.raises(TypeError):
      tf.nn.lrn(tf.zeros([1, 1, 1, 2], tf.float64))


def test_pool_v2_dispatches_on_rank():
  x4 = np.random.RandomState(3).rand(1, 4, 4, 2).astype(np.float32)
  x3 = np.random.RandomState(4).rand(2, 6, 3).astype(np.float32)
  with tf.Graph().as_default():
    with tf.Session() as sess:
      m4, a4, m3, a3 = sess.run([
          tf.nn.max_pool_v2(x4, 2, 2, "VALID"), tf.nn.avg_pool_v2(x4, 2, 2, "VALID"),
          tf.nn.max_pool_v2(x3, 3, 3, "VALID"), tf.nn.avg_pool_v2(x3, 2, 2, "VALID")])
  np.testing.assert_allclose(m4, x4.reshape(1, 2, 2, 2, 2, 2).max(axis=(2, 4)))
  np.testing.assert_allclose(a4, x4.reshape(1, 2, 2, 2, 2, 2).mean(axis=(2, 4)), rtol=1e-6)
  np.testing.assert_allclose(m3, x3.reshape(2, 2, 3, 3).max(axis=2))
  np.testing.assert_allclose(a3, x3.reshape(2, 3, 2, 3).mean(axis=2), rtol=1e-6)
  x5 = np.random.RandomState(5).rand(1, 2, 4, 4, 1).astype(np.float32)
  with tf.Graph().as_default():
    with tf.Session() as sess:
      m5 = sess.run(tf.nn.max_pool_v2(x5, 2, 2, "VALID"))
    with pytest.raises(ValueError):
      tf.nn.max_pool_v2(tf.zeros([1, 2, 2, 2, 2, 1]), 2, 2, "VALID")
  np.testing.assert_allclose(m5, x5.reshape(1, 1, 2, 2, 2, 2, 2, 1).max(axis=(2, 4, 6)))
