"""Trigonometry, special functions and bitwise ops (core/ops_math_special.c):
values against NumPy / the math module on several shapes and dtypes, the
gradients TF defines checked by finite differences, bad inputs, and the
tf / tf.math / tf.math.special / tf.bitwise names. (Values against
TensorFlow's own outputs: tests/python/test_compat_ops.py.)"""
import math

import numpy as np
import pytest

import tfc as tf


def _run(t, feed=None):
  with tf.Session(graph=t.graph) as sess:
    return sess.run(t, feed)


def _eval_unary(fn, x):
  g = tf.Graph()
  with g.as_default():
    return _run(fn(tf.constant(x)))


_vec = np.vectorize

UNARY = [
    ("tan", np.tan, -1.4, 1.4),
    ("asin", np.arcsin, -0.99, 0.99),
    ("acos", np.arccos, -0.99, 0.99),
    ("atan", np.arctan, -5, 5),
    ("sinh", np.sinh, -4, 4),
    ("cosh", np.cosh, -4, 4),
    ("asinh", np.arcsinh, -5, 5),
    ("acosh", np.arccosh, 1, 6),
    ("atanh", np.arctanh, -0.99, 0.99),
    ("erf", _vec(math.erf), -3, 3),
    ("erfc", _vec(math.erfc), -3, 3),
    ("lgamma", _vec(math.lgamma), 0.1, 12),
]


@pytest.mark.parametrize("name,ref,lo,hi", UNARY)
@pytest.mark.parametrize("dtype,shape", [(np.float32, (3, 4)), (np.float64, (2, 3, 5)),
                                         (np.float64, ())])
def test_unary_matches_numpy(name, ref, lo, hi, dtype, shape):
  x = np.random.RandomState(0).uniform(lo, hi, shape).astype(dtype)
  got = _eval_unary(getattr(tf, name), x)
  assert got.dtype == dtype and np.shape(got) == shape
  np.testing.assert_allclose(got, ref(x.astype(np.float64)).astype(dtype),
                             rtol=2e-6 if dtype == np.float32 else 1e-12, atol=1e-7)


def test_unary_half_and_empty():
  x = np.linspace(-0.9, 0.9, 7).astype(np.float16)
  np.testing.assert_allclose(_eval_unary(tf.asin, x), np.arcsin(x.astype(np.float32)),
                             rtol=2e-3)
  assert _eval_unary(tf.erf, np.zeros((0, 3), np.float32)).shape == (0, 3)


def _digamma_ref(x):
  # psi(x) = lgamma'(x) by a centred difference of math.lgamma (enough digits for the check)
  h = 1e-5
  return (math.lgamma(x + h) - math.lgamma(x - h)) / (2 * h)


def test_digamma_polygamma_zeta():
  x = np.array([0.3, 1.0, 2.5, 7.0, 15.0, -0.5, -2.5])
  got = _eval_unary(tf.digamma, x)
  np.testing.assert_allclose(got, [_digamma_ref(v) for v in x], rtol=1e-6)
  assert abs(got[1] + 0.5772156649015329) < 1e-14       # psi(1) = -Euler's gamma
  g = tf.Graph()
  with g.as_default():
    z = tf.zeta(tf.constant([2.0, 4.0, 3.0], tf.float64), tf.constant([1.0, 1.0, 2.0], tf.float64))
    p = tf.polygamma(tf.constant([1.0, 2.0, 0.0], tf.float64), tf.constant([1.0, 1.0, 1.0],
                                                                            tf.float64))
    z_val, p_val = _run(z), _run(p)
  np.testing.assert_allclose(z_val, [math.pi ** 2 / 6, math.pi ** 4 / 90, 1.2020569031595942 - 1],
                             rtol=1e-13)
  np.testing.assert_allclose(p_val, [math.pi ** 2 / 6, -2 * 1.2020569031595942,
                                     -0.5772156649015329], rtol=1e-13)


def test_igamma_igammac():
  a = np.array([[0.5], [1.0], [4.0]])
  x = np.array([0.2, 1.0, 3.0, 9.0])
  g = tf.Graph()
  with g.as_default():
    p = tf.igamma(tf.constant(a), tf.constant(x))
    q = tf.igammac(tf.constant(a), tf.constant(x))
    pv, qv = _run(p), _run(q)
  assert pv.shape == (3, 4)
  np.testing.assert_allclose(pv + qv, np.ones((3, 4)), rtol=1e-14)
  np.testing.assert_allclose(pv[1], 1 - np.exp(-x), rtol=1e-13)          # a = 1: 1 - e^-x
  np.testing.assert_allclose(pv[0], _vec(math.erf)(np.sqrt(x)), rtol=1e-13)  # a = 1/2
  with g.as_default():
    bad = _run(tf.igamma(tf.constant([-1.0, 1.0]), tf.constant([1.0, -1.0])))
  assert np.isnan(bad).all()


def test_inverse_functions_round_trip():
  y = np.linspace(-0.999, 0.999, 41)
  x = _eval_unary(tf.math.erfinv, y)
  np.testing.assert_allclose(_vec(math.erf)(x), y, rtol=1e-14, atol=1e-15)
  p = np.linspace(0.001, 0.999, 41)
  q = _eval_unary(tf.math.ndtri, p)
  np.testing.assert_allclose(0.5 * _vec(math.erfc)(-q / math.sqrt(2)), p, rtol=1e-13)
  edge = _eval_unary(tf.math.ndtri, np.array([0.0, 1.0, 2.0]))
  assert edge[0] == -np.inf and edge[1] == np.inf and np.isnan(edge[2])


def test_bessel_functions():
  x = np.array([-12.0, -3.0, -0.5, 0.0, 0.5, 3.0, 12.0, 40.0, 200.0])
  # I0, I1 by their power series in exact-enough float64 (small |x| only)
  def i_series(nu, v):
    return sum((v / 2) ** (2 * k + nu) / (math.factorial(k) * math.factorial(k + nu))
               for k in range(80))
  small = x[np.abs(x) <= 12]
  np.testing.assert_allclose(_eval_unary(tf.math.bessel_i0, small), [i_series(0, v) for v in small],
                             rtol=1e-13)
  np.testing.assert_allclose(_eval_unary(tf.math.bessel_i1, small), [i_series(1, v) for v in small],
                             rtol=1e-13)
  i0e = _eval_unary(tf.math.bessel_i0e, x)
  i1e = _eval_unary(tf.math.bessel_i1e, x)
  np.testing.assert_allclose(i0e[:7], [i_series(0, v) * math.exp(-abs(v)) for v in x[:7]],
                             rtol=1e-13)
  # Large x: e^-x I0(x) ~ 1/sqrt(2 pi x) (1 + 1/(8x) + ...)
  np.testing.assert_allclose(i0e[-1], 1 / math.sqrt(2 * math.pi * 200) * (1 + 1 / 1600 +
                                                                        9 / (2 * 1600 ** 2)),
                             rtol=1e-8)
  assert i1e[0] < 0 and i1e[-1] > 0
  j0 = _eval_unary(tf.math.special.bessel_j0, np.array([0.0, 2.404825557695773]))
  np.testing.assert_allclose(j0, [1.0, 0.0], atol=1e-14)


def test_atan2_xlog1py_nextafter():
  y = np.array([[1.0], [-1.0], [0.0]], np.float32)
  x = np.array([1.0, -1.0, 0.0, 2.0], np.float32)
  g = tf.Graph()
  with g.as_default():
    a = _run(tf.atan2(tf.constant(y), tf.constant(x)))
    xl = _run(tf.math.xlog1py(tf.constant([0.0, 2.0, 0.0]), tf.constant([-1.0, 1.0, 5.0])))
    na = _run(tf.math.nextafter(tf.constant([1.0, 1.0], tf.float64), tf.constant([2.0, 0.0],
                                                                                  tf.float64)))
  np.testing.assert_allclose(a, np.arctan2(y, x), rtol=1e-6)
  np.testing.assert_allclose(xl, [0.0, 2 * math.log(2), 0.0])
  assert na[0] == np.nextafter(1.0, 2.0) and na[1] == np.nextafter(1.0, 0.0)


def test_lbeta():
  x = np.array([[1.0, 2.0], [3.0, 4.0], [0.5, 0.5]])
  got = _eval_unary(tf.lbeta, x)
  want = [math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b) for a, b in x]
  np.testing.assert_allclose(got, want, rtol=1e-13)
  # an empty last dimension: TF's value, 0 - lgamma(0)
  assert _eval_unary(tf.math.lbeta, np.zeros((2, 0))).tolist() == [-np.inf, -np.inf]


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64, np.uint8, np.uint16, np.uint64])
def test_bitwise_matches_numpy(dtype):
  info = np.iinfo(dtype)
  rng = np.random.RandomState(1)
  x = rng.randint(max(info.min, -1000), min(info.max, 1000), (3, 4)).astype(dtype)
  y = rng.randint(max(info.min, -1000), min(info.max, 1000), (4,)).astype(dtype)
  s = rng.randint(0, info.bits, (3, 4)).astype(dtype)
  g = tf.Graph()
  with g.as_default():
    cx, cy, cs = tf.constant(x), tf.constant(y), tf.constant(s)
    ops = [tf.bitwise.bitwise_and(cx, cy), tf.bitwise.bitwise_or(cx, cy),
           tf.bitwise.bitwise_xor(cx, cy), tf.bitwise.invert(cx),
           tf.bitwise.left_shift(cx, cs), tf.bitwise.right_shift(cx, cs)]
    with tf.Session() as sess:
      a, o, xo, inv, ls, rs = sess.run(ops)
  np.testing.assert_array_equal(a, x & y)
  np.testing.assert_array_equal(o, x | y)
  np.testing.assert_array_equal(xo, x ^ y)
  np.testing.assert_array_equal(inv, ~x)
  np.testing.assert_array_equal(ls, np.left_shift(x, s))
  np.testing.assert_array_equal(rs, np.right_shift(x, s))
  assert a.dtype == dtype


# -- gradients ------------------------------------------------------------------------

GRAD_UNARY = [
    ("tan", -1.0, 1.0), ("asin", -0.8, 0.8), ("acos", -0.8, 0.8), ("atan", -3, 3),
    ("sinh", -2, 2), ("cosh", -2, 2), ("asinh", -3, 3), ("acosh", 1.5, 4), ("atanh", -0.8, 0.8),
    ("erf", -2, 2), ("erfc", -2, 2), ("lgamma", 0.5, 6), ("digamma", 0.5, 6),
    ("math.erfinv", -0.9, 0.9), ("math.ndtri", 0.05, 0.95), ("math.bessel_i0", -3, 3),
    ("math.bessel_i1", -3, 3), ("math.bessel_i0e", -3, 3), ("math.bessel_i1e", -3, 3),
    ("math.special.bessel_j0", -3, 3), ("math.special.bessel_j1", -3, 3),
    ("math.special.bessel_y0", 0.5, 4), ("math.special.bessel_y1", 0.5, 4),
]


def _resolve(path):
  obj = tf
  for part in path.split("."):
    obj = getattr(obj, part)
  return obj


@pytest.mark.parametrize("name,lo,hi", GRAD_UNARY)
def test_unary_gradients_match_finite_differences(name, lo, hi):
  fn = _resolve(name)
  g = tf.Graph()
  with g.as_default():
    x0 = np.random.RandomState(2).uniform(lo, hi, (2, 3))
    x = tf.placeholder(tf.float64, (2, 3))
    y = fn(x)
    with tf.Session():
      err = tf.test.compute_gradient_error(x, [2, 3], y, [2, 3], x_init_value=x0, delta=1e-6)
  assert err < 1e-5, (name, err)


def test_bessel_order1_gradient_at_zero():
  g = tf.Graph()
  with g.as_default():
    x = tf.constant([0.0, 1.0], tf.float64)
    grads = [tf.gradients(f(x), x)[0] for f in (tf.math.bessel_i1, tf.math.bessel_i1e,
                                                 tf.math.special.bessel_j1)]
    vals = _run(tf.stack(grads))
  np.testing.assert_allclose(vals[:, 0], [0.5, 0.5, 0.5])


@pytest.mark.parametrize("name,second", [("atan2", "both"), ("igamma", "x"), ("igammac", "x"),
                                          ("zeta", "x"), ("polygamma", "x"),
                                          ("math.xlog1py", "both")])
def test_binary_gradients_match_finite_differences(name, second):
  fn = _resolve(name)
  rng = np.random.RandomState(4)
  first_vals = {"atan2": rng.uniform(-2, 2, (2, 3)), "igamma": rng.uniform(0.5, 4, (2, 3)),
                "igammac": rng.uniform(0.5, 4, (2, 3)), "zeta": rng.uniform(2, 5, (2, 3)),
                "polygamma": np.array([[0.0, 1.0, 2.0], [1.0, 0.0, 3.0]]),
                "math.xlog1py": rng.uniform(-2, 2, (2, 3))}[name]
  second_vals = rng.uniform(0.5, 3, (3,))
  g = tf.Graph()
  with g.as_default():
    a = tf.placeholder(tf.float64, (2, 3))
    b = tf.placeholder(tf.float64, (3,))
    y = fn(a, b)
    with tf.Session():
      err_b = tf.test.compute_gradient_error(b, [3], y, [2, 3], x_init_value=second_vals,
                                             delta=1e-6, extra_feed_dict={a: first_vals})
      assert err_b < 1e-5, err_b
      if second == "both":
        err_a = tf.test.compute_gradient_error(a, [2, 3], y, [2, 3], x_init_value=first_vals,
                                               delta=1e-6, extra_feed_dict={b: second_vals})
        assert err_a < 1e-5, err_a


def test_bitwise_ops_have_no_gradient():
  g = tf.Graph()
  with g.as_default():
    x = tf.constant([1, 2], tf.int32)
    assert tf.gradients(tf.bitwise.bitwise_and(x, x), x) == [None]


# -- bad input ------------------------------------------------------------------------

def test_bad_dtypes_are_rejected_at_build_time():
  g = tf.Graph()
  with g.as_default():
    with pytest.raises(TypeError):
      tf.erf(tf.constant([1, 2], tf.int32))
    with pytest.raises(TypeError):
      tf.bitwise.bitwise_and(tf.constant([1.0]), tf.constant([2.0]))
    with pytest.raises(TypeError):
      tf.zeta(tf.constant([2.0], tf.float16), tf.constant([1.0], tf.float16))
    with pytest.raises(ValueError):
      tf.atan2(tf.constant([1.0, 2.0]), tf.constant([1.0, 2.0, 3.0]))


def test_incompatible_shapes_fail_at_run_time_with_the_node_name():
  g = tf.Graph()
  with g.as_default():
    a = tf.placeholder(tf.float32, None)
    b = tf.placeholder(tf.float32, None)
    z = tf.igamma(a, b, name="my_igamma")
    with tf.Session() as sess:
      with pytest.raises(tf.errors.InvalidArgumentError, match="Incompatible shapes") as e:
        sess.run(z, {a: np.ones(2), b: np.ones(3)})
  assert "my_igamma" in str(e.value)


def test_namespaces():
  for name in ("acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "cosh", "sinh", "tan",
               "erf", "erfc", "lgamma", "digamma", "igamma", "igammac", "zeta", "polygamma",
               "lbeta"):
    assert getattr(tf, name) is getattr(tf.math, name), name
  for name in ("bitwise_and", "bitwise_or", "bitwise_xor", "invert", "left_shift", "right_shift"):
    assert callable(getattr(tf.bitwise, name))
  assert tf.math.special.bessel_i0e is tf.math.bessel_i0e
