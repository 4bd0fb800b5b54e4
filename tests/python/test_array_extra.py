"""ensure_shape, broadcast_dynamic_shape, bitcast, unravel_index and the
fixed-width histograms: values against NumPy, build-time shapes, gradients
and bad input."""
import numpy as np
import pytest

import tfc as tf


def _run(fetches, feed=None):
  with tf.Session() as sess:
    return sess.run(fetches, feed)


def test_ensure_shape_refines_and_checks():
  with tf.Graph().as_default():
    x = tf.placeholder(tf.float32, None)
    y = tf.ensure_shape(x, [None, 3], name="checked")
    assert y.shape.as_list() == [None, 3]
    z = tf.reduce_sum(y * 2.0)
    g = tf.gradients(z, x)[0]
    val, gv = _run([y, g], {x: np.ones((2, 3), np.float32)})
    np.testing.assert_array_equal(gv, np.full((2, 3), 2.0))
    with pytest.raises(tf.errors.InvalidArgumentError, match="not compatible") as e:
      _run(y, {x: np.ones((2, 4), np.float32)})
    assert "checked" in str(e.value)
    with pytest.raises(ValueError):
      tf.ensure_shape(tf.zeros([2, 3]), [3, 3])


@pytest.mark.parametrize("a,b", [([2, 1, 3], [4, 1]), ([], [5]), ([1], [7, 1, 2]), ([3], [3])])
def test_broadcast_dynamic_shape_matches_numpy(a, b):
  with tf.Graph().as_default():
    got = _run(tf.broadcast_dynamic_shape(tf.constant(a, tf.int32), tf.constant(b, tf.int32)))
  want = np.broadcast_shapes(tuple(a), tuple(b))
  assert tuple(got) == want


def test_broadcast_dynamic_shape_incompatible():
  with tf.Graph().as_default():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Incompatible shapes"):
      _run(tf.broadcast_dynamic_shape(tf.constant([2, 3]), tf.constant([4])))


@pytest.mark.parametrize("src,dst", [(np.float32, np.int32), (np.float64, np.uint8),
                                     (np.uint8, np.float32), (np.int64, np.float64),
                                     (np.float16, np.int16), (np.int8, np.uint8)])
def test_bitcast_matches_numpy_view(src, dst):
  rng = np.random.RandomState(0)
  isz, osz = np.dtype(src).itemsize, np.dtype(dst).itemsize
  shape = (2, 3, osz // isz) if osz > isz else (2, 3)
  x = rng.randint(0, 100, shape).astype(src)
  with tf.Graph().as_default():
    got = _run(tf.bitcast(tf.constant(x), tf.as_dtype(dst)))
  want = np.ascontiguousarray(x).view(dst)
  if osz > isz:
    want = want.reshape(shape[:-1])
  elif osz < isz:
    want = want.reshape(shape + (isz // osz,))
  np.testing.assert_array_equal(got, want)


def test_bitcast_bad_shape():
  with tf.Graph().as_default():
    with pytest.raises(ValueError):
      tf.bitcast(tf.zeros([2, 3], tf.uint8), tf.float32)


def test_unravel_index_matches_numpy():
  with tf.Graph().as_default():
    got = _run(tf.unravel_index(tf.constant([5, 7, 0, 23], tf.int64),
                                tf.constant([2, 3, 4], tf.int64)))
    one = _run(tf.unravel_index(5, [2, 4]))
    np.testing.assert_array_equal(got, np.array(np.unravel_index([5, 7, 0, 23], (2, 3, 4))))
    np.testing.assert_array_equal(one, [1, 1])
    with pytest.raises(tf.errors.InvalidArgumentError):
      _run(tf.unravel_index([8], [2, 4]))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
def test_histograms_match_numpy(dtype):
  rng = np.random.RandomState(1)
  values = rng.uniform(-2, 12, 200).astype(dtype)
  with tf.Graph().as_default():
    h = tf.histogram_fixed_width(tf.constant(values), tf.constant([0, 10], dtype), nbins=5)
    # the bins variant divides values by the range: float values only, as in TF
    fv = values.astype(np.float64)
    b = tf.histogram_fixed_width_bins(tf.constant(fv.reshape(20, 10)),
                                      tf.constant([0.0, 10.0], tf.float64), nbins=5)
    hv, bv = _run([h, b])
  clipped = np.clip(values.astype(np.float64), 0, 10)
  want, _ = np.histogram(clipped, bins=5, range=(0, 10))
  np.testing.assert_array_equal(hv, want)
  assert bv.shape == (20, 10)
  np.testing.assert_array_equal(np.bincount(bv.ravel(), minlength=5), want)


def test_histogram_bad_input():
  with tf.Graph().as_default():
    n = tf.placeholder(tf.int32, [])
    h = tf.histogram_fixed_width([1.0, 2.0], [0.0, 1.0], nbins=n)
    with pytest.raises(tf.errors.InvalidArgumentError, match="nbins"):
      _run(h, {n: 0})
    with pytest.raises(tf.errors.InvalidArgumentError, match="value_range"):
      _run(tf.histogram_fixed_width([1.0], [1.0, 0.0]))
