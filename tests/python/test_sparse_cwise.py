"""tf.sparse.softmax / maximum / minimum (C kernels SparseSoftmax,
SparseSparseMaximum, SparseSparseMinimum), tf.sparse.reduce_max /
reduce_max_sparse / reduce_sum_sparse (SparseReduceMax, SparseReduceMaxSparse,
SparseReduceSumSparse), tf.setdiff1d (ListDiff),
tf.sparse.mask and tf.sparse_merge: values against NumPy (TF's values are
checked by test_sparse.py::test_sparse_ops_match_tensorflow and the per-op
fixtures), the softmax gradient by finite differences, bad inputs."""
import numpy as np
import pytest

import tfc as tf


def _dense(indices, values, shape):
  d = np.zeros(shape, np.float64)
  for i, v in zip(indices, values):
    d[tuple(i)] = v
  return d


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_sparse_softmax_numpy(dtype):
  rng = np.random.RandomState(2)
  shape = (3, 4, 5)
  mask = rng.rand(*shape) < 0.5
  idx = np.argwhere(mask).astype(np.int64)
  vals = (rng.randn(len(idx)) * 3).astype(dtype)
  with tf.Graph().as_default(), tf.Session() as sess:
    out = sess.run(tf.sparse.softmax(tf.SparseTensor(idx, vals, shape)))
  np.testing.assert_array_equal(out.indices, idx)
  want = np.zeros(len(idx))
  for k, i in enumerate(idx):
    row = [j for j, o in enumerate(idx) if tuple(o[:-1]) == tuple(i[:-1])]
    e = np.exp(vals[row].astype(np.float64) - vals[row].max())
    want[k] = e[row.index(k)] / e.sum()
  np.testing.assert_allclose(out.values, want, rtol=1e-5 if dtype == np.float32 else 1e-12)


def test_sparse_softmax_gradient_finite_differences():
  idx = np.array([[0, 0], [0, 2], [0, 3], [1, 1], [2, 0], [2, 3]], np.int64)
  with tf.Graph().as_default():
    v = tf.placeholder(tf.float64, [6])
    out = tf.sparse.softmax(tf.SparseTensor(idx, v, [3, 4])).values
    y = out * tf.constant([1.0, -2.0, 0.5, 3.0, 1.5, -1.0], tf.float64)
    err = tf.test.compute_gradient_error(v, [6], y, [6],
                                         x_init_value=np.array([0.3, -1.0, 2.0, 0.1, 1.2, -0.4]))
  assert err < 1e-6


def test_sparse_softmax_errors_name_the_node():
  with tf.Graph().as_default(), tf.Session() as sess:
    ind = tf.placeholder(tf.int64, [None, None])
    vals = tf.placeholder(tf.float32, [None])
    shape = tf.placeholder(tf.int64, [None])
    out = tf.sparse.softmax(tf.SparseTensor(ind, vals, shape), name="smax")
    with pytest.raises(tf.errors.InvalidArgumentError, match="rank >= 2[\\s\\S]*smax"):
      sess.run(out.values, {ind: [[0], [1]], vals: [1.0, 2.0], shape: [3]})
    with pytest.raises(tf.errors.InvalidArgumentError, match="do not agree"):
      sess.run(out.values, {ind: [[0, 0], [1, 1]], vals: [1.0], shape: [3, 3]})


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.int64])
def test_sparse_maximum_minimum_numpy(dtype):
  rng = np.random.RandomState(4)
  shape = (5, 6)
  ma, mb = rng.rand(*shape) < 0.4, rng.rand(*shape) < 0.4
  ia, ib = np.argwhere(ma).astype(np.int64), np.argwhere(mb).astype(np.int64)
  va = (rng.randn(len(ia)) * 10).astype(dtype)
  vb = (rng.randn(len(ib)) * 10).astype(dtype)
  with tf.Graph().as_default(), tf.Session() as sess:
    a, b = tf.SparseTensor(ia, va, shape), tf.SparseTensor(ib, vb, shape)
    mx, mn = sess.run([tf.sparse.maximum(a, b), tf.sparse.minimum(a, b)])
  union = np.argwhere(ma | mb)
  da, db = _dense(ia, va, shape), _dense(ib, vb, shape)
  for got, fn in ((mx, np.maximum), (mn, np.minimum)):
    np.testing.assert_array_equal(got.indices, union)
    assert got.values.dtype == dtype
    np.testing.assert_allclose(got.values, fn(da, db)[ma | mb], rtol=1e-6)
    np.testing.assert_array_equal(got.dense_shape, shape)


def test_sparse_maximum_large_int64_exact_and_errors():
  big = np.int64(2**62 + 1)
  with tf.Graph().as_default(), tf.Session() as sess:
    a = tf.SparseTensor([[0]], np.array([big]), [2])
    b = tf.SparseTensor([[0], [1]], np.array([big - 1, -big]), [2])
    got = sess.run(tf.sparse.maximum(a, b))
    np.testing.assert_array_equal(got.values, [big, 0])
    c = tf.SparseTensor([[0, 0]], [1.0], [2, 3])
    d = tf.SparseTensor([[0, 0]], [1.0], [2, 4])
    with pytest.raises(tf.errors.InvalidArgumentError, match="shapes do not match"):
      sess.run(tf.sparse.minimum(c, d).values)
    e = tf.SparseTensor([[0, 0, 0]], [1.0], [2, 3, 1])
    with pytest.raises(tf.errors.InvalidArgumentError, match="same ranks"):
      sess.run(tf.sparse.maximum(c, e).values)
    with pytest.raises(NotImplementedError):
      tf.gradients(tf.sparse.maximum(c, c).values, [c.values])


def test_setdiff1d_numpy_and_errors():
  rng = np.random.RandomState(0)
  x = rng.randint(0, 50, 200).astype(np.int64)
  y = rng.randint(0, 50, 30).astype(np.int64)
  with tf.Graph().as_default(), tf.Session() as sess:
    out, idx = sess.run(tf.setdiff1d(x, y, index_dtype=tf.int64))
    keep = [i for i, v in enumerate(x) if v not in set(y.tolist())]
    np.testing.assert_array_equal(idx, keep)
    np.testing.assert_array_equal(out, x[keep])
    f = sess.run(tf.setdiff1d([np.nan, 1.0, -0.0, 2.0], [np.nan, 0.0]))
    np.testing.assert_array_equal(f.idx, [0, 1, 3])   # NaN != NaN, -0.0 == 0.0
    p = tf.placeholder(tf.int32)
    with pytest.raises(tf.errors.InvalidArgumentError, match="1D vector[\\s\\S]*ListDiff"):
      sess.run(tf.setdiff1d(p, [1]), {p: [[1, 2]]})


def test_sparse_mask_and_merge():
  with tf.Graph().as_default(), tf.Session() as sess:
    values = np.arange(12, dtype=np.float32).reshape(4, 3)
    a = tf.IndexedSlices(tf.constant(values), tf.constant([12, 4, 26, 4]), tf.constant([30, 3]))
    m = tf.sparse.mask(a, [4, 26])
    assert isinstance(m, tf.IndexedSlices)
    got = sess.run(m)
    np.testing.assert_array_equal(got.indices, [12])
    np.testing.assert_array_equal(got.values, values[[0]])
    ids = tf.SparseTensor([[0, 0], [0, 1], [1, 0], [2, 0]], np.array([3, 1, 0, 4], np.int64),
                          [3, 2])
    vals = tf.SparseTensor([[0, 0], [0, 1], [1, 0], [2, 0]], [0.5, -1.0, 2.0, 3.0], [3, 2])
    merged = sess.run(tf.sparse_merge(ids, vals, 5))
    np.testing.assert_array_equal(merged.indices, [[0, 1], [0, 3], [1, 0], [2, 4]])
    np.testing.assert_array_equal(merged.values, [-1.0, 0.5, 2.0, 3.0])
    np.testing.assert_array_equal(merged.dense_shape, [3, 5])
    with pytest.raises(TypeError):
      tf.sparse_merge(ids, vals, "five")


def _reduce_numpy(idx, vals, shape, axes, keep, fn):
  """{kept coordinate tuple: fn over the entries reaching it}."""
  axes = sorted(a % len(shape) for a in axes)
  groups = {}
  for i, v in zip(idx, vals):
    key = tuple(0 if d in axes else int(i[d]) for d in range(len(shape)) if keep or d not in axes)
    groups.setdefault(key, []).append(v)
  return {k: fn(v) for k, v in groups.items()}


@pytest.mark.parametrize("axes,keep", [([1], False), ([0, 2], True), ([-1], False),
                                       ([0, 1, 2], False)])
@pytest.mark.parametrize("dtype", [np.float32, np.int64])
def test_sparse_reduce_max_and_sparse_reductions_numpy(axes, keep, dtype):
  rng = np.random.RandomState(7)
  shape = (3, 4, 5)
  idx = np.argwhere(rng.rand(*shape) < 0.3).astype(np.int64)
  idx = idx[rng.permutation(len(idx))]   # any order
  vals = (rng.randn(len(idx)) * 10).astype(dtype)
  with tf.Graph().as_default(), tf.Session() as sess:
    sp = tf.SparseTensor(idx, vals, shape)
    dense, mx, sm = sess.run([tf.sparse.reduce_max(sp, axes, keepdims=keep),
                              tf.sparse.reduce_max_sparse(sp, axes, keepdims=keep),
                              tf.sparse.reduce_sum_sparse(sp, axes, keepdims=keep)])
  want_max = _reduce_numpy(idx, vals, shape, axes, keep, max)
  want_sum = _reduce_numpy(idx, vals, shape, axes, keep, sum)
  out_shape = [1 if d in [a % 3 for a in axes] else shape[d] for d in range(3)
               if keep or d not in [a % 3 for a in axes]]
  assert list(dense.shape) == out_shape and dense.dtype == dtype
  want_dense = np.zeros(out_shape, dtype)   # cells no entry reaches: 0
  for k, v in want_max.items():
    want_dense[k] = v
  np.testing.assert_allclose(dense, want_dense, rtol=1e-6)
  for got, want in ((mx, want_max), (sm, want_sum)):
    keys = sorted(want)
    np.testing.assert_array_equal(got.indices.reshape(len(keys), -1),
                                  np.array(keys).reshape(len(keys), -1))
    np.testing.assert_allclose(got.values, [want[k] for k in keys], rtol=1e-5)
    np.testing.assert_array_equal(got.dense_shape, out_shape)


def test_sparse_reduce_errors_name_the_node():
  with tf.Graph().as_default(), tf.Session() as sess:
    sp = tf.SparseTensor([[0, 1], [1, 0]], [1.0, 2.0], [2, 2])
    ax = tf.placeholder(tf.int32, [None])
    from tfc.framework.op_def_library import _apply_op  # pylint: disable=g-import-not-at-top
    out = _apply_op("SparseReduceMax", "rmax", [sp.indices, sp.values, sp.dense_shape, ax],
                    {}).outputs[0]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Invalid reduction dimension 2[\\s\\S]*rmax"):
      sess.run(out, {ax: [2]})
    bad = tf.SparseTensor([[0, 5]], [1.0], [2, 2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="out of bounds"):
      sess.run(tf.sparse.reduce_sum_sparse(bad, 0).values)
