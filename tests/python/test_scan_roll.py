"""cumsum, cumprod, cumulative_logsumexp (exclusive / reverse) and roll:
values against NumPy on several shapes and dtypes, TF's gradients by finite
differences, and bad axes."""
import numpy as np
import pytest

import tfc as tf


def _np_scan(kind, x, axis, exclusive, reverse):
  if reverse:
    x = np.flip(x, axis)
  if kind == "cumsum":
    y = np.cumsum(x, axis, dtype=x.dtype)
    ident = 0
  elif kind == "cumprod":
    y = np.cumprod(x, axis, dtype=x.dtype)
    ident = 1
  else:
    y = np.logaddexp.accumulate(x, axis)
    ident = -np.inf
  if exclusive:
    y = np.roll(y, 1, axis)
    idx = [slice(None)] * x.ndim
    idx[axis] = 0
    y[tuple(idx)] = ident
  if reverse:
    y = np.flip(y, axis)
  return y


def _run(t):
  with tf.Session(graph=t.graph) as sess:
    return sess.run(t)


@pytest.mark.parametrize("kind", ["cumsum", "cumprod", "cumulative_logsumexp"])
@pytest.mark.parametrize("exclusive", [False, True])
@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("dtype,shape,axis", [(np.float32, (7,), 0), (np.float64, (3, 4, 5), 1),
                                              (np.float64, (3, 300), -1), (np.int32, (4, 3), 0),
                                              (np.int64, (2, 3, 4), 2)])
def test_scans_match_numpy(kind, exclusive, reverse, dtype, shape, axis):
  if kind == "cumulative_logsumexp" and not np.issubdtype(dtype, np.floating):
    pytest.skip("float only")
  rng = np.random.RandomState(0)
  x = (rng.uniform(0.8, 1.2, shape) if np.issubdtype(dtype, np.floating)
       else rng.randint(-3, 4, shape)).astype(dtype)
  g = tf.Graph()
  with g.as_default():
    y = getattr(tf.math, kind)(tf.constant(x), axis=axis, exclusive=exclusive, reverse=reverse)
    got = _run(y)
  assert got.dtype == dtype
  np.testing.assert_allclose(got, _np_scan(kind, x, axis % len(shape), exclusive, reverse),
                             rtol=1e-5 if dtype == np.float32 else 1e-12)


def test_cumsum_is_the_top_level_name_and_accepts_a_tensor_axis():
  g = tf.Graph()
  with g.as_default():
    axis = tf.placeholder(tf.int64, [])
    y = tf.cumsum(tf.constant([[1, 2], [3, 4]]), axis)
    with tf.Session() as sess:
      np.testing.assert_array_equal(sess.run(y, {axis: 1}), [[1, 3], [3, 7]])
      with pytest.raises(tf.errors.InvalidArgumentError, match="scan axis"):
        sess.run(y, {axis: 2})


@pytest.mark.parametrize("shape,shift,axis", [((5,), 2, 0), ((3, 4), [1, -1], [0, 1]),
                                               ((2, 3, 4), [5, 1, 1], [2, 0, 0]),
                                               ((4, 3), -7, -2), ((0, 3), 1, 1)])
@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.uint8, object])
def test_roll_matches_numpy(shape, shift, axis, dtype):
  x = np.arange(int(np.prod(shape))).reshape(shape)
  x = np.array([str(v).encode() for v in x.ravel()], object).reshape(shape) if dtype is object \
      else x.astype(dtype)
  g = tf.Graph()
  with g.as_default():
    got = _run(tf.roll(tf.constant(x), shift, axis))
  want = np.roll(x, shift, axis)
  assert got.shape == want.shape
  np.testing.assert_array_equal(got, want)
  assert tf.manip.roll is tf.roll


def test_roll_bad_input():
  g = tf.Graph()
  with g.as_default():
    s = tf.placeholder(tf.int32, None)
    a = tf.placeholder(tf.int32, None)
    y = tf.roll(tf.constant([[1, 2], [3, 4]]), s, a, name="rolled")
    with tf.Session() as sess:
      with pytest.raises(tf.errors.InvalidArgumentError, match="out of range") as e:
        sess.run(y, {s: 1, a: 5})
      assert "rolled" in str(e.value)
      with pytest.raises(tf.errors.InvalidArgumentError, match="same size"):
        sess.run(y, {s: [1, 2], a: [0]})


@pytest.mark.parametrize("kind", ["cumsum", "cumprod", "cumulative_logsumexp"])
@pytest.mark.parametrize("exclusive,reverse", [(False, False), (True, False), (False, True),
                                               (True, True)])
def test_scan_gradients_match_finite_differences(kind, exclusive, reverse):
  x0 = np.random.RandomState(1).uniform(0.5, 1.5, (3, 4))
  g = tf.Graph()
  with g.as_default():
    x = tf.placeholder(tf.float64, (3, 4))
    y = getattr(tf.math, kind)(x, axis=1, exclusive=exclusive, reverse=reverse)
    if kind == "cumulative_logsumexp":
      y = tf.exp(y)     # an exclusive scan starts at -inf, which differences cannot handle
    with tf.Session():
      err = tf.test.compute_gradient_error(x, [3, 4], y, [3, 4], x_init_value=x0, delta=1e-6)
  assert err < 1e-6


def test_roll_gradient():
  x0 = np.random.RandomState(2).uniform(-1, 1, (3, 4))
  g = tf.Graph()
  with g.as_default():
    x = tf.placeholder(tf.float64, (3, 4))
    y = tf.roll(x, [1, -3], [0, 1]) * tf.constant(np.arange(12.0).reshape(3, 4))
    with tf.Session():
      err = tf.test.compute_gradient_error(x, [3, 4], y, [3, 4], x_init_value=x0, delta=1e-6)
  assert err < 1e-8
