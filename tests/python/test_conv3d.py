"""3-D convolution and pooling: tf.nn.conv3d / conv3d_transpose /
conv3d_backprop_filter(_v2) / max_pool3d / avg_pool3d / conv_transpose, the
tf.layers 3-D layers and separable_conv1d. Values against NumPy, gradients
by finite differences (float64), TF's variable names and error classes.
(TensorFlow's own outputs: tests/fixtures/ops via test_compat_ops.py.)"""
import numpy as np
import pytest

import tfc as tf


def _run(t, feed=None):
  with tf.Session() as sess:
    return sess.run(t, feed)


def _same_pad(n, k, s):
  out = -(-n // s)
  need = max((out - 1) * s + k - n, 0)
  return out, need // 2


def _conv3d_ref(x, w, strides, padding):
  b, dims, c = x.shape[0], x.shape[1:4], x.shape[4]
  k, oc = w.shape[:3], w.shape[4]
  outs, pads = [], []
  for n, kk, s in zip(dims, k, strides):
    if padding == "SAME":
      o, p = _same_pad(n, kk, s)
    else:
      o, p = (n - kk) // s + 1, 0
    outs.append(o)
    pads.append(p)
  xp = np.zeros((b,) + tuple(d + 2 * kk for d, kk in zip(dims, k)) + (c,), np.float64)
  xp[:, k[0]:k[0] + dims[0], k[1]:k[1] + dims[1], k[2]:k[2] + dims[2]] = x
  out = np.zeros((b,) + tuple(outs) + (oc,))
  for i in range(outs[0]):
    for j in range(outs[1]):
      for l in range(outs[2]):
        s0 = [i * strides[0] - pads[0] + k[0], j * strides[1] - pads[1] + k[1],
              l * strides[2] - pads[2] + k[2]]
        win = xp[:, s0[0]:s0[0] + k[0], s0[1]:s0[1] + k[1], s0[2]:s0[2] + k[2]]
        out[:, i, j, l] = np.einsum("bdhwc,dhwco->bo", win, w)
  return out


@pytest.mark.parametrize("padding,strides", [("SAME", (2, 1, 2)), ("VALID", (1, 2, 1))])
def test_conv3d_matches_numpy(padding, strides):
  rng = np.random.RandomState(0)
  x = rng.randn(2, 5, 6, 7, 3).astype(np.float32)
  w = rng.randn(3, 2, 3, 3, 4).astype(np.float32)
  with tf.Graph().as_default():
    y = tf.nn.conv3d(x, w, [1] + list(strides) + [1], padding)
    got = _run(y)
  want = _conv3d_ref(x.astype(np.float64), w.astype(np.float64), strides, padding)
  assert y.shape.as_list() == list(want.shape)
  np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


def test_conv3d_gradients_and_transpose():
  rng = np.random.RandomState(1)
  x = rng.randn(1, 4, 3, 5, 2)
  w = rng.randn(2, 3, 2, 2, 3)
  with tf.Graph().as_default():
    xt, wt = tf.constant(x), tf.constant(w)
    y = tf.nn.conv3d(xt, wt, [1, 2, 1, 2, 1], "SAME")
    shape = y.shape.as_list()
    assert tf.test.compute_gradient_error(xt, x.shape, y, shape, x_init_value=x) < 1e-6
    assert tf.test.compute_gradient_error(wt, w.shape, y, shape, x_init_value=w) < 1e-6
    dy = rng.randn(*shape)
    tr = tf.nn.conv3d_transpose(tf.constant(dy), wt, [1, 4, 3, 5, 2], [1, 2, 1, 2, 1], "SAME")
    gx = tf.gradients(y, xt, grad_ys=tf.constant(dy))[0]
    via = tf.nn.conv_transpose(tf.constant(dy), wt, [1, 4, 3, 5, 2], [1, 2, 1, 2, 1])
    gw = tf.nn.conv3d_backprop_filter(xt, [2, 3, 2, 2, 3], tf.constant(dy), [1, 2, 1, 2, 1],
                                      "SAME")
    gw2 = tf.gradients(y, wt, grad_ys=tf.constant(dy))[0]
    assert tf.test.compute_gradient_error(wt, w.shape, tr, [1, 4, 3, 5, 2], x_init_value=w) < 1e-6
    r_tr, r_gx, r_via, r_gw, r_gw2 = _run([tr, gx, via, gw, gw2])
  np.testing.assert_allclose(r_tr, r_gx, rtol=1e-10)
  np.testing.assert_allclose(r_via, r_gx, rtol=1e-10)
  np.testing.assert_allclose(r_gw, r_gw2, rtol=1e-10)
  # <conv(x), dy> == <x, conv_transpose(dy)>
  np.testing.assert_allclose(np.sum(_conv3d_ref(x, w, (2, 1, 2), "SAME") * dy),
                             np.sum(x * r_tr), rtol=1e-9)


def test_pool3d_values_and_gradients():
  rng = np.random.RandomState(2)
  x = rng.randn(2, 4, 6, 4, 3).astype(np.float32)
  with tf.Graph().as_default():
    xt = tf.constant(x)
    mp = tf.nn.max_pool3d(xt, [1, 2, 2, 2, 1], [1, 2, 2, 2, 1], "VALID")
    ap = tf.nn.avg_pool3d(xt, 2, 2, "VALID")
    same = tf.nn.avg_pool3d(xt, [1, 3, 3, 3, 1], [1, 1, 1, 1, 1], "SAME")
    v2 = tf.nn.max_pool_v2(xt, 2, 2, "VALID")
    r_mp, r_ap, r_same, r_v2 = _run([mp, ap, same, v2])
    e_mp = tf.test.compute_gradient_error(xt, x.shape, mp, [2, 2, 3, 2, 3], x_init_value=x)
    e_same = tf.test.compute_gradient_error(xt, x.shape, same, list(x.shape), x_init_value=x)
  blocks = x.reshape(2, 2, 2, 3, 2, 2, 2, 3)
  np.testing.assert_allclose(r_mp, blocks.max(axis=(2, 4, 6)))
  np.testing.assert_allclose(r_v2, r_mp)
  np.testing.assert_allclose(r_ap, blocks.mean(axis=(2, 4, 6)), rtol=1e-5)
  # SAME: the mean over the window cells inside the volume
  want = np.zeros_like(x)
  for d in range(4):
    for h in range(6):
      for w in range(4):
        win = x[:, max(d - 1, 0):d + 2, max(h - 1, 0):h + 2, max(w - 1, 0):w + 2]
        want[:, d, h, w] = win.mean(axis=(1, 2, 3))
  np.testing.assert_allclose(r_same, want, rtol=1e-5, atol=1e-6)
  assert e_mp < 1e-2 and e_same < 1e-2


def test_max_pool3d_grad_of_grad():
  rng = np.random.RandomState(3)
  x = rng.randn(1, 4, 4, 4, 2).astype(np.float32)
  with tf.Graph().as_default():
    xt = tf.constant(x)
    y = tf.nn.max_pool3d(xt, 2, 2, "VALID")
    g = tf.placeholder(tf.float32, y.shape)
    dx = tf.gradients(y, xt, grad_ys=g)[0]
    ddy = tf.gradients(dx, g, grad_ys=tf.constant(x))[0]
    gv = rng.randn(*y.shape.as_list()).astype(np.float32)
    r_dx, r_ddy = _run([dx, ddy], {g: gv})
  blocks = x.reshape(1, 2, 2, 2, 2, 2, 2, 2)
  mask = blocks == blocks.max(axis=(2, 4, 6), keepdims=True)
  want = (mask * gv.reshape(1, 2, 1, 2, 1, 2, 1, 2)).reshape(x.shape)
  np.testing.assert_allclose(r_dx, want)
  # the second-order gradient picks x at each window's maximum
  np.testing.assert_allclose(r_ddy, blocks.max(axis=(2, 4, 6)))


def test_conv3d_errors():
  x = np.zeros((1, 4, 4, 4, 2), np.float32)
  with tf.Graph().as_default():
    with pytest.raises(ValueError):
      tf.nn.conv3d(x, np.zeros((2, 2, 2, 3, 1), np.float32), [1, 1, 1, 1, 1], "SAME")
    y = tf.nn.conv3d(x, np.zeros((2, 2, 2, 2, 1), np.float32), [1, 1, 1, 1, 1], "SAME",
                     dilations=[1, 2, 2, 2, 1])
    with pytest.raises(tf.errors.InvalidArgumentError, match="dilated rates of 1"):
      _run(y)
    z = tf.nn.conv3d(x, np.zeros((2, 2, 2, 2, 1), np.float32), [2, 1, 1, 1, 1], "SAME")
    with pytest.raises(tf.errors.InvalidArgumentError, match="batch and depth"):
      _run(z)
    p = tf.nn.max_pool3d(x, [1, 2, 2, 2, 2], [1, 1, 1, 1, 1], "VALID")
    with pytest.raises(tf.errors.UnimplementedError):
      _run(p)
    c = tf.nn.avg_pool3d(np.zeros((1, 2, 4, 4, 4), np.float32), 2, 2, "VALID",
                         data_format="NCDHW")
    with pytest.raises(tf.errors.InvalidArgumentError, match="NDHWC"):
      _run(c)


def test_layers_3d_and_separable_conv1d():
  rng = np.random.RandomState(4)
  x = rng.randn(2, 4, 5, 6, 3).astype(np.float32)
  s = rng.randn(2, 9, 3).astype(np.float32)
  with tf.Graph().as_default():
    c = tf.layers.conv3d(x, 5, 3, padding="same")
    t = tf.layers.conv3d_transpose(x, 2, (2, 3, 2), strides=(2, 1, 2))
    mp = tf.layers.max_pooling3d(x, 2, 2)
    ap = tf.layers.AveragePooling3D(2, 1, padding="same")(x)
    sc = tf.layers.separable_conv1d(s, 4, 3, depth_multiplier=2, use_bias=False)
    layer = tf.layers.Conv3D(2, (1, 2, 2), name="c3")
    o = layer(x)
    names = {v.op.name: v.shape.as_list() for v in tf.global_variables()}
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      r_c, r_t, r_mp, r_ap, r_sc, r_o, kern, dw, pw = sess.run(
          [c, t, mp, ap, sc, o, layer.kernel,
           tf.get_default_graph().get_tensor_by_name("separable_conv1d/depthwise_kernel:0"),
           tf.get_default_graph().get_tensor_by_name("separable_conv1d/pointwise_kernel:0")])
  assert names == {"conv3d/kernel": [3, 3, 3, 3, 5], "conv3d/bias": [5],
                   "conv3d_transpose/kernel": [2, 3, 2, 2, 3], "conv3d_transpose/bias": [2],
                   "separable_conv1d/depthwise_kernel": [3, 3, 2],
                   "separable_conv1d/pointwise_kernel": [1, 6, 4],
                   "c3/kernel": [1, 2, 2, 3, 2], "c3/bias": [2]}
  assert r_c.shape == (2, 4, 5, 6, 5) and r_t.shape == (2, 8, 7, 12, 2)
  assert r_mp.shape == (2, 2, 2, 3, 3) and r_ap.shape == x.shape
  np.testing.assert_allclose(r_o, _conv3d_ref(x, kern, (1, 1, 1), "VALID"), rtol=1e-4, atol=1e-5)
  # separable: depthwise per channel, then the pointwise mix
  dwo = np.zeros((2, 7, 3, 2))
  for i in range(7):
    dwo[:, i] = np.einsum("bkc,kcm->bcm", s[:, i:i + 3], dw)
  want = dwo.reshape(2, 7, 6) @ pw[0]
  np.testing.assert_allclose(r_sc, want, rtol=1e-4, atol=1e-5)
