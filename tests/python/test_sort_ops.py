"""top_k (tf.nn / tf.math), sort, argsort and searchsorted: values against
NumPy on several shapes and dtypes (ties keep their order), the top_k
gradient by finite differences, and bad k."""
import numpy as np
import pytest

import tfc as tf


def _run(fetches, graph, feed=None):
  with tf.Session(graph=graph) as sess:
    return sess.run(fetches, feed)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64, np.uint8,
                                   np.float16])
@pytest.mark.parametrize("shape,k", [((10,), 3), ((4, 9), 9), ((2, 3, 50), 7), ((3, 5), 0)])
def test_top_k_matches_numpy(dtype, shape, k):
  rng = np.random.RandomState(0)
  x = rng.randint(0, 20, shape).astype(dtype)          # many ties
  g = tf.Graph()
  with g.as_default():
    v, i = tf.nn.top_k(tf.constant(x), k)
    assert v.shape.as_list() == list(shape[:-1]) + [k]
    vals, idx = _run([v, i], g)
  order = np.argsort(-x.astype(np.float64), axis=-1, kind="stable")[..., :k]
  np.testing.assert_array_equal(idx, order)
  np.testing.assert_array_equal(vals, np.take_along_axis(x, order, -1))
  assert tf.math.top_k is tf.nn.top_k


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.int64, np.uint8])
@pytest.mark.parametrize("axis", [-1, 0, 1])
@pytest.mark.parametrize("direction", ["ASCENDING", "DESCENDING"])
def test_sort_and_argsort_match_numpy(dtype, axis, direction):
  rng = np.random.RandomState(1)
  info = np.iinfo(dtype) if np.issubdtype(dtype, np.integer) else None
  x = rng.randint(0, 10, (3, 4, 5)).astype(dtype)
  if info is not None:
    x.flat[0], x.flat[1] = info.min, info.max           # extremes sort without overflow
  g = tf.Graph()
  with g.as_default():
    s = tf.sort(tf.constant(x), axis=axis, direction=direction)
    a = tf.argsort(tf.constant(x), axis=axis, direction=direction)
    sv, av = _run([s, a], g)
  key = x.astype(np.float64) if direction == "ASCENDING" else -x.astype(np.float64)
  want_idx = np.argsort(key, axis=axis, kind="stable")
  np.testing.assert_array_equal(av, want_idx)
  np.testing.assert_array_equal(sv, np.take_along_axis(x, want_idx, axis))
  assert sv.dtype == dtype


@pytest.mark.parametrize("side", ["left", "right"])
@pytest.mark.parametrize("dtype", [np.float64, np.int32])
def test_searchsorted_matches_numpy(side, dtype):
  seq = np.sort(np.random.RandomState(2).randint(0, 10, (3, 8)), axis=-1).astype(dtype)
  vals = np.random.RandomState(3).randint(-1, 11, (3, 6)).astype(dtype)
  g = tf.Graph()
  with g.as_default():
    got = _run(tf.searchsorted(tf.constant(seq), tf.constant(vals), side=side), g)
  want = np.stack([np.searchsorted(seq[r], vals[r], side=side) for r in range(3)])
  np.testing.assert_array_equal(got, want)
  g1 = tf.Graph()
  with g1.as_default():
    one = _run(tf.searchsorted([1.0, 2.0, 3.0], [2.5, 0.0], out_type=tf.int64), g1)
  assert one.tolist() == [2, 0] and one.dtype == np.int64


def test_top_k_gradient():
  x0 = np.random.RandomState(4).permutation(24).reshape(2, 3, 4).astype(np.float64)
  g = tf.Graph()
  with g.as_default():
    x = tf.placeholder(tf.float64, (2, 3, 4))
    v, _ = tf.nn.top_k(x, 2)
    with tf.Session():
      err = tf.test.compute_gradient_error(x, [2, 3, 4], v, [2, 3, 2], x_init_value=x0,
                                           delta=1e-6)
  assert err < 1e-8


def test_bad_k():
  g = tf.Graph()
  with g.as_default():
    with pytest.raises(ValueError):
      tf.nn.top_k(tf.zeros([2, 3]), 4)
    k = tf.placeholder(tf.int32, [])
    v, _ = tf.nn.top_k(tf.zeros([2, 3]), k, name="topk")
    with tf.Session() as sess:
      with pytest.raises(tf.errors.InvalidArgumentError, match="at least k columns") as e:
        sess.run(v, {k: 5})
      assert "topk" in str(e.value)
      with pytest.raises(tf.errors.InvalidArgumentError, match="k >= 0"):
        sess.run(v, {k: -1})
  with g.as_default():
    with pytest.raises(ValueError):
      tf.sort(tf.zeros([2, 3]), direction="UP")


@pytest.mark.parametrize("dtype", [np.float32, np.int32])
@pytest.mark.parametrize("axis", [-1, 0])
def test_approx_max_min_k_are_exact(dtype, axis):
  x = np.random.RandomState(5).permutation(40).reshape(5, 8).astype(dtype)
  g = tf.Graph()
  with g.as_default():
    mx = tf.math.approx_max_k(tf.constant(x), 3, reduction_dimension=axis)
    mn = tf.nn.approx_min_k(tf.constant(x), 2, reduction_dimension=axis)
    (mv, mi), (nv, ni) = _run([mx, mn], g)
  order = np.argsort(-x, axis=axis, kind="stable")
  np.testing.assert_array_equal(mi, np.take(order, range(3), axis=axis))
  np.testing.assert_array_equal(mv, np.take_along_axis(x, mi, axis))
  order = np.argsort(x, axis=axis, kind="stable")
  np.testing.assert_array_equal(ni, np.take(order, range(2), axis=axis))
  np.testing.assert_array_equal(nv, np.take_along_axis(x, ni, axis))
