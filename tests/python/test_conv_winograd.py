"""Winograd 3x3 convolutions through the fused-convolution path.

A frozen-style graph (Const filter and bias) of Conv2D -> BiasAdd ->
Relu/Relu6 is fused by the plan builder into _FusedConv2D with constant
weights; for 3x3, stride-1 shapes of 14x14+ outputs and 32+ channels the
kernel takes the Winograd path (kernels/conv_winograd.c) unless
TFC_CONV_WINOGRAD=0. Both settings are checked against a float64 NumPy
convolution.
"""
import os

import numpy as np
import pytest

import tfc as tf


def _conv_ref(x, w, padding):
  """Direct NHWC convolution in float64, stride 1."""
  x = x.astype(np.float64)
  w = w.astype(np.float64)
  kh, kw = w.shape[:2]
  if padding == "SAME":
    x = np.pad(x, ((0, 0), (kh // 2, kh // 2), (kw // 2, kw // 2), (0, 0)))
  n, h, wd, _ = x.shape
  oh, ow = h - kh + 1, wd - kw + 1
  out = np.zeros((n, oh, ow, w.shape[3]))
  for i in range(kh):
    for j in range(kw):
      out += np.einsum("nhwc,co->nhwo", x[:, i:i + oh, j:j + ow, :], w[i, j])
  return out


def _run(x, w, b, padding, act, switch):
  g = tf.Graph()
  with g.as_default():
    xp = tf.placeholder(tf.float32, x.shape)
    y = tf.nn.bias_add(tf.nn.conv2d(xp, tf.constant(w), [1, 1, 1, 1], padding),
                       tf.constant(b))
    if act == "relu":
      y = tf.nn.relu(y)
    elif act == "relu6":
      y = tf.nn.relu6(y)
  old = os.environ.get("TFC_CONV_WINOGRAD")
  os.environ["TFC_CONV_WINOGRAD"] = switch
  try:
    with tf.Session(graph=g) as sess:
      return sess.run(y, {xp: x})
  finally:
    if old is None:
      del os.environ["TFC_CONV_WINOGRAD"]
    else:
      os.environ["TFC_CONV_WINOGRAD"] = old


@pytest.mark.parametrize("shape,out_depth,padding,act", [
    ((1, 14, 14, 32), 32, "SAME", "relu"),
    ((2, 17, 15, 32), 40, "SAME", "relu6"),
    ((3, 16, 18, 48), 32, "VALID", None),
    ((1, 28, 28, 64), 64, "SAME", "relu"),
])
def test_fused_winograd_matches_numpy(shape, out_depth, padding, act):
  rng = np.random.RandomState(7)
  x = rng.uniform(-1, 1, shape).astype(np.float32)
  w = (rng.uniform(-1, 1, (3, 3, shape[3], out_depth)) * 0.2).astype(np.float32)
  b = rng.uniform(-1, 1, out_depth).astype(np.float32)
  want = _conv_ref(x, w, padding) + b
  if act:
    want = np.maximum(want, 0)
  if act == "relu6":
    want = np.minimum(want, 6)
  scale = np.max(np.abs(want))
  got = {}
  for switch in ("1", "0"):
    got[switch] = _run(x, w, b, padding, act, switch)
    assert got[switch].shape == want.shape
    assert np.max(np.abs(got[switch] - want)) / scale < 2e-5, switch
  # the two paths round differently: the switch really changes the kernel
  assert not np.array_equal(got["1"], got["0"])
