"""tf.nn.max_pool_with_argmax, dilation2d / erosion2d, patch extraction
(tf.image.extract_patches, tf.extract_image_patches, tf.extract_volume_patches),
atrous_conv2d_transpose and with_space_to_batch: values against NumPy,
gradients by finite differences, error classes. (TensorFlow's own outputs:
tests/fixtures/ops via test_compat_ops.py.)"""
import numpy as np
import pytest

import tfc as tf


def _run(t, feed=None):
  with tf.Session() as sess:
    return sess.run(t, feed)


def test_max_pool_with_argmax_indices_and_gradient():
  rng = np.random.RandomState(0)
  x = rng.randn(2, 4, 6, 3)
  with tf.Graph().as_default():
    xt = tf.constant(x)
    y, am = tf.nn.max_pool_with_argmax(xt, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
    y2, am2 = tf.nn.max_pool_with_argmax(xt, 2, 2, "VALID", Targmax=tf.int32,
                                         include_batch_in_index=True)
    assert am.dtype == tf.int64 and am2.dtype == tf.int32
    err = tf.test.compute_gradient_error(xt, x.shape, y, [2, 2, 3, 3], x_init_value=x)
    r_y, r_am, r_am2 = _run([y, am, am2])
  blocks = x.reshape(2, 2, 2, 3, 2, 3)
  np.testing.assert_allclose(r_y, blocks.max(axis=(2, 4)))
  flat = x.reshape(2, -1)
  for b in range(2):
    np.testing.assert_array_equal(flat[b][r_am[b]], r_y[b])
  np.testing.assert_array_equal(r_am2, r_am + np.arange(2).reshape(2, 1, 1, 1) * x[0].size)
  assert err < 1e-8


def test_max_pool_with_argmax_ties_keep_first():
  x = np.zeros((1, 2, 2, 1), np.float32)
  with tf.Graph().as_default():
    _, am = tf.nn.max_pool_with_argmax(x, 2, 2, "VALID")
    assert _run(am).ravel().tolist() == [0]
    with pytest.raises(ValueError):
      tf.nn.max_pool_with_argmax(x, 2, 2, "VALID", data_format="NCHW")


def _dilation_ref(x, w, strides, rates, padding):
  b, h, wd, c = x.shape
  fh, fw, _ = w.shape
  eh, ew = (fh - 1) * rates[0] + 1, (fw - 1) * rates[1] + 1
  if padding == "SAME":
    oh, ow = -(-h // strides[0]), -(-wd // strides[1])
    pt = max((oh - 1) * strides[0] + eh - h, 0) // 2
    pl = max((ow - 1) * strides[1] + ew - wd, 0) // 2
  else:
    oh, ow = (h - eh) // strides[0] + 1, (wd - ew) // strides[1] + 1
    pt = pl = 0
  out = np.full((b, oh, ow, c), -np.inf)
  for y in range(oh):
    for xx in range(ow):
      for i in range(fh):
        for j in range(fw):
          iy, ix = y * strides[0] + i * rates[0] - pt, xx * strides[1] + j * rates[1] - pl
          if 0 <= iy < h and 0 <= ix < wd:
            out[:, y, xx] = np.maximum(out[:, y, xx], x[:, iy, ix] + w[i, j])
  return out


def test_dilation_and_erosion():
  rng = np.random.RandomState(1)
  x = rng.randn(2, 6, 7, 3)
  w = rng.randn(3, 2, 3)
  with tf.Graph().as_default():
    xt, wt = tf.constant(x), tf.constant(w)
    d = tf.nn.dilation2d(xt, wt, [1, 2, 1, 1], [1, 1, 2, 1], "SAME")
    e = tf.nn.erosion2d(xt, wt, [1, 1, 1, 1], [1, 1, 1, 1], "VALID")
    r_d, r_e = _run([d, e])
  np.testing.assert_allclose(r_d, _dilation_ref(x, w, (2, 1), (1, 2), "SAME"))
  np.testing.assert_allclose(r_e, -_dilation_ref(-x, w[::-1, ::-1], (1, 1), (1, 1), "VALID"))


def test_dilation_gradients():
  # well separated values: no near-ties inside a window, so finite
  # differences see the same maxima
  rng = np.random.RandomState(2)
  x = rng.permutation(2 * 5 * 5 * 2).reshape(2, 5, 5, 2).astype(np.float64) * 0.1
  w = rng.permutation(2 * 2 * 2).reshape(2, 2, 2).astype(np.float64) * 0.013
  with tf.Graph().as_default():
    xt, wt = tf.constant(x), tf.constant(w)
    d = tf.nn.dilation2d(xt, wt, [1, 1, 1, 1], [1, 1, 1, 1], "VALID")
    shape = d.shape.as_list()
    assert tf.test.compute_gradient_error(xt, x.shape, d, shape, x_init_value=x,
                                          delta=1e-4) < 1e-6
    assert tf.test.compute_gradient_error(wt, w.shape, d, shape, x_init_value=w,
                                          delta=1e-4) < 1e-6


def _patches_ref(x, k, s, r, padding):
  b, h, w, c = x.shape
  eh, ew = (k[0] - 1) * r[0] + 1, (k[1] - 1) * r[1] + 1
  if padding == "SAME":
    oh, ow = -(-h // s[0]), -(-w // s[1])
    pt = max((oh - 1) * s[0] + eh - h, 0) // 2
    pl = max((ow - 1) * s[1] + ew - w, 0) // 2
  else:
    oh, ow = (h - eh) // s[0] + 1, (w - ew) // s[1] + 1
    pt = pl = 0
  out = np.zeros((b, oh, ow, k[0], k[1], c), x.dtype)
  for y in range(oh):
    for xx in range(ow):
      for i in range(k[0]):
        for j in range(k[1]):
          iy, ix = y * s[0] + i * r[0] - pt, xx * s[1] + j * r[1] - pl
          if 0 <= iy < h and 0 <= ix < w:
            out[:, y, xx, i, j] = x[:, iy, ix]
  return out.reshape(b, oh, ow, -1)


@pytest.mark.parametrize("padding", ["SAME", "VALID"])
def test_extract_patches_values_and_gradient(padding):
  rng = np.random.RandomState(3)
  x = rng.randn(2, 6, 7, 3)
  with tf.Graph().as_default():
    xt = tf.constant(x)
    p = tf.image.extract_patches(xt, [1, 3, 2, 1], [1, 2, 1, 1], [1, 1, 2, 1], padding)
    q = tf.extract_image_patches(xt, ksizes=[1, 3, 2, 1], strides=[1, 2, 1, 1],
                                 rates=[1, 1, 2, 1], padding=padding)
    err = tf.test.compute_gradient_error(xt, x.shape, p, p.shape.as_list(), x_init_value=x)
    r_p, r_q = _run([p, q])
  want = _patches_ref(x, (3, 2), (2, 1), (1, 2), padding)
  np.testing.assert_array_equal(r_p, want)
  np.testing.assert_array_equal(r_q, want)
  assert err < 1e-8


def test_extract_volume_patches_and_errors():
  rng = np.random.RandomState(4)
  x = rng.randn(1, 4, 5, 6, 2)
  with tf.Graph().as_default():
    xt = tf.constant(x)
    v = tf.extract_volume_patches(xt, [1, 2, 2, 3, 1], [1, 2, 1, 3, 1], "VALID")
    err = tf.test.compute_gradient_error(xt, x.shape, v, v.shape.as_list(), x_init_value=x)
    r_v = _run(v)
    bad = tf.image.extract_patches(tf.zeros([1, 4, 4, 2]), [1, 2, 2, 2], [1, 1, 1, 1],
                                   [1, 1, 1, 1], "VALID")
    with pytest.raises(tf.errors.UnimplementedError):
      _run(bad)
  want = np.zeros((1, 2, 4, 2, 2, 2, 3, 2))
  for a in range(2):
    for b in range(4):
      for c in range(2):
        want[0, a, b, c] = x[0, 2 * a:2 * a + 2, b:b + 2, 3 * c:3 * c + 3]
  np.testing.assert_array_equal(r_v, want.reshape(1, 2, 4, 2, 24))
  assert err < 1e-8


def test_atrous_conv2d_transpose_is_the_adjoint():
  rng = np.random.RandomState(5)
  x = rng.randn(2, 9, 8, 4)
  f = rng.randn(3, 3, 4, 3)
  dy = rng.randn(2, 9, 8, 3)
  with tf.Graph().as_default():
    y = tf.nn.atrous_conv2d(tf.constant(x), tf.constant(f), 2, "SAME")
    t = tf.nn.atrous_conv2d_transpose(tf.constant(dy), tf.constant(f), [2, 9, 8, 4], 2, "SAME")
    ws = tf.nn.with_space_to_batch(
        tf.constant(x), [2, 2], "SAME",
        lambda inp, n, pad: tf.nn.conv2d(inp, tf.constant(f), [1, 1, 1, 1], pad),
        filter_shape=[3, 3])
    r_y, r_t, r_ws = _run([y, t, ws])
  np.testing.assert_allclose(np.sum(r_y * dy), np.sum(x * r_t), rtol=1e-10)
  np.testing.assert_allclose(r_ws, r_y, rtol=1e-10, atol=1e-12)
