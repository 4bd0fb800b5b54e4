"""tf.quantization.fake_quant_with_min_max_{args,vars,vars_per_channel} and their
gradients: bit-exact against a float32 NumPy model of TF's nudging, against values
TF 2.21 gives (and the op fixtures in tests/fixtures/ops), gradients through
tf.gradients, and the errors."""
import numpy as np
import pytest

import tfc as tf

f32 = np.float32


def _nudge(lo, hi, num_bits=8, narrow=False):
  qmin, qmax = f32(1 if narrow else 0), f32((1 << num_bits) - 1)
  lo, hi = f32(lo), f32(hi)
  scale = (hi - lo) / (qmax - qmin)
  inv = (qmax - qmin) / (hi - lo)
  zf = qmin - lo / scale
  zp = qmin if zf < qmin else qmax if zf > qmax else f32(np.sign(zf) * np.floor(abs(zf) + f32(0.5)))
  nmin, nmax = (qmin - zp) * scale, (qmax - zp) * scale
  return nmin, nmax, scale, inv, np.floor(-nmin * inv + f32(0.5))


def _fq(x, lo, hi, num_bits=8, narrow=False):
  nmin, nmax, scale, inv, qz = _nudge(lo, hi, num_bits, narrow)
  c = np.maximum(np.minimum(x, nmax), nmin)
  return (np.floor((c - nmin) * inv - qz + f32(0.5)) * scale).astype(f32)


RNG = np.random.RandomState(0)
X = (RNG.randn(5, 6) * 4).astype(f32)
X[0, :3] = [-6.0, 6.0, 0.0]
G = RNG.randn(5, 6).astype(f32)


def _run(fetches):
  with tf.Session() as sess:
    return sess.run(fetches)


@pytest.mark.parametrize("lo,hi,bits,narrow", [(-6, 6, 8, False), (-3.1, 5.3, 5, False),
                                               (-0.7, 2.9, 4, True), (0.3, 4.4, 8, False),
                                               (-10, -1, 16, False)])
def test_args_and_vars_bit_exact(lo, hi, bits, narrow):
  with tf.Graph().as_default():
    a = tf.quantization.fake_quant_with_min_max_args(X, lo, hi, num_bits=bits, narrow_range=narrow)
    v = tf.fake_quant_with_min_max_vars(X, tf.constant(lo, tf.float32), tf.constant(hi, tf.float32),
                                        num_bits=bits, narrow_range=narrow)
    assert a.op.type == "FakeQuantWithMinMaxArgs" and v.op.type == "FakeQuantWithMinMaxVars"
    av, vv = _run([a, v])
  want = _fq(X, lo, hi, bits, narrow)
  np.testing.assert_array_equal(av, want)
  np.testing.assert_array_equal(vv, want)


def test_values_tf_gives():
  with tf.Graph().as_default():
    a = tf.quantization.fake_quant_with_min_max_args(X[0, :3], -3.1, 5.3, num_bits=5)
    z = tf.quantization.fake_quant_with_min_max_vars(X, 0.0, 0.0)
    av, zv = _run([a, z])
  assert av.tolist() == [f32(-2.980645), f32(5.4193544), 0.0]
  assert not zv.any()


def test_per_channel_bit_exact():
  lo = np.linspace(-3, -0.5, 6).astype(f32)
  hi = np.linspace(1, 7, 6).astype(f32)
  with tf.Graph().as_default():
    out = tf.quantization.fake_quant_with_min_max_vars_per_channel(X, lo, hi, num_bits=6)
    got = _run(out)
  want = np.stack([_fq(X[:, c], lo[c], hi[c], 6) for c in range(6)], axis=1)
  np.testing.assert_array_equal(got, want)


def test_gradients():
  lo, hi = f32(-0.7), f32(2.9)
  nmin, nmax = _nudge(lo, hi)[:2]
  inside = (X >= nmin) & (X <= nmax)
  with tf.Graph().as_default():
    x = tf.constant(X)
    mn, mx = tf.constant(lo), tf.constant(hi)
    y = tf.fake_quant_with_min_max_vars(x, mn, mx)
    gx, gmin, gmax = tf.gradients(y, [x, mn, mx], grad_ys=tf.constant(G))
    ya = tf.fake_quant_with_min_max_args(x, -0.7, 2.9)
    (gxa,) = tf.gradients(ya, [x], grad_ys=tf.constant(G))
    zero = tf.quantization.fake_quant_with_min_max_vars_gradient(G, X, 0.0, 0.0)
    pc_lo, pc_hi = tf.constant(np.full(6, lo)), tf.constant(np.full(6, hi))
    yp = tf.fake_quant_with_min_max_vars_per_channel(x, pc_lo, pc_hi)
    gxp, gminp, gmaxp = tf.gradients(yp, [x, pc_lo, pc_hi], grad_ys=tf.constant(G))
    assert gminp.shape.as_list() == [6]
    r = _run([gx, gmin, gmax, gxa, zero, gxp, gminp, gmaxp])
  np.testing.assert_array_equal(r[0], np.where(inside, G, 0))
  np.testing.assert_allclose(r[1], G[X < nmin].sum(), rtol=1e-5)
  np.testing.assert_allclose(r[2], G[X > nmax].sum(), rtol=1e-5)
  np.testing.assert_array_equal(r[3], np.where(inside, G, 0))
  np.testing.assert_array_equal(r[4][0], G)   # TF passes the gradient through for min == max == 0
  assert r[4][1] == 0 and r[4][2] == 0
  np.testing.assert_array_equal(r[5], np.where(inside, G, 0))
  np.testing.assert_allclose(r[6], np.where(X < nmin, G, 0).sum(0), rtol=1e-5)
  np.testing.assert_allclose(r[7], np.where(X > nmax, G, 0).sum(0), rtol=1e-5)


def test_errors():
  with tf.Graph().as_default():
    bad_range = tf.quantization.fake_quant_with_min_max_args(X, 1.0, 0.5)
    bad_bits = tf.quantization.fake_quant_with_min_max_args(X, num_bits=1)
    with pytest.raises(ValueError, match="rank 0"):
      tf.quantization.fake_quant_with_min_max_vars(X, [0.0], [1.0])
    with pytest.raises(ValueError):
      tf.quantization.fake_quant_with_min_max_vars_per_channel(X, [0.0] * 5, [1.0] * 5)
    with tf.Session() as sess:
      with pytest.raises(tf.errors.InvalidArgumentError,
                         match="min has to be smaller than max, was: 1 >= 0.5"):
        sess.run(bad_range)
      with pytest.raises(tf.errors.InvalidArgumentError,
                         match="num_bits must be between 2 and 16, inclusive"):
        sess.run(bad_bits)
