"""tf.sparse.cross / cross_hashed (SparseCross), the Bucketize op and
tf.nn.safe_embedding_lookup_sparse that feature columns build on: values
TensorFlow computed for the same inputs (hashed crosses chain FarmHash
fingerprints, so they must match bit for bit), and errors."""
import numpy as np
import pytest

import tfc as tf
from tfc.ops import sparse_ops


def _inputs():
  a = tf.SparseTensor([[0, 0], [0, 1], [2, 0]], ["x", "yy", "z"], [3, 2])
  b = tf.SparseTensor([[0, 0], [1, 0], [2, 0], [2, 1]], tf.constant([3, 4, 5, 6], tf.int32), [3, 2])
  d = tf.constant([["p"], ["q"], ["r"]])
  return a, b, d


def test_cross_values_match_tensorflow():
  with tf.Graph().as_default(), tf.Session() as sess:
    a, b, d = _inputs()
    c1, c2, c3, c4 = sess.run([tf.sparse.cross([a, b, d]), tf.sparse.cross_hashed([a, b, d], 100),
                               tf.sparse.cross_hashed([a, d]), tf.sparse.cross([a, d])])
  assert c1.indices.tolist() == [[0, 0], [0, 1], [2, 0], [2, 1]]
  assert list(c1.values) == [b"x_X_3_X_p", b"yy_X_3_X_p", b"z_X_5_X_r", b"z_X_6_X_r"]
  assert c1.dense_shape.tolist() == [3, 2]
  assert c2.values.tolist() == [27, 15, 52, 28]
  assert c3.indices.tolist() == [[0, 0], [0, 1], [2, 0]]
  assert c3.values.tolist() == [1439354553998231452, 22749406025140545, 4156383944670256738]
  assert list(c4.values) == [b"x_X_p", b"yy_X_p", b"z_X_r"]


def test_cross_rows_without_features_and_errors():
  with tf.Graph().as_default(), tf.Session() as sess:
    a = tf.SparseTensor(tf.zeros([0, 2], tf.int64), tf.constant([], tf.string), [2, 1])
    out = sess.run(tf.sparse.cross([a, tf.constant([["u"], ["v"]])]))
    assert out.indices.shape == (0, 2) and out.dense_shape.tolist() == [2, 0]
    bad = tf.SparseTensor([[0, 0]], ["s"], [3, 1])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Expected batch size"):
      sess.run(tf.sparse.cross([bad, tf.constant([["u"], ["v"]])]).values)
    with pytest.raises(TypeError):
      tf.sparse.cross((a,))


def test_bucketize_against_numpy():
  rng = np.random.RandomState(0)
  x = rng.uniform(-3, 3, size=500).astype(np.float32)
  bounds = [-2.0, -0.5, 0.0, 0.25, 2.0]
  with tf.Graph().as_default(), tf.Session() as sess:
    got = sess.run(sparse_ops.bucketize(x, bounds))
    ints = sess.run(sparse_ops.bucketize(tf.constant([-3, 0, 2, 5], tf.int64), bounds))
    with pytest.raises(tf.errors.InvalidArgumentError, match="sorted boundaries"):
      sess.run(sparse_ops.bucketize(x, [1.0, 0.0]))
  np.testing.assert_array_equal(got, np.searchsorted(np.float32(bounds), x, side="right"))
  assert got.dtype == np.int32
  assert ints.tolist() == [0, 3, 5, 5]


def test_safe_embedding_lookup_sparse_matches_tensorflow():
  with tf.Graph().as_default(), tf.Session() as sess:
    w = tf.constant(np.arange(12, dtype=np.float32).reshape(6, 2) / 4.0)
    ids = tf.SparseTensor([[0, 0, 0], [0, 0, 1], [0, 1, 0], [1, 0, 0], [1, 0, 2]],
                          tf.constant([1, -1, 3, 5, 2], tf.int64), [2, 2, 3])
    wt = tf.SparseTensor(ids.indices, [2.0, 1.0, 0.0, 0.5, 1.5], ids.dense_shape)
    got = sess.run([tf.nn.safe_embedding_lookup_sparse(w, ids),
                    tf.nn.safe_embedding_lookup_sparse(w, ids, wt, combiner="sqrtn"),
                    tf.nn.safe_embedding_lookup_sparse(w, ids, wt, combiner="sum", default_id=4),
                    tf.nn.safe_embedding_lookup_sparse([w[:3], w[3:]], ids, None, max_norm=1.0)])
  want = [  # TensorFlow's outputs for the same inputs
      [[[0.5, 0.75], [1.5, 1.75]], [[1.75, 2.0], [0.0, 0.0]]],
      [[[0.5, 0.75], [0.0, 0.0]], [[1.739253044128418, 2.0554800033569336], [0.0, 0.0]]],
      [[[1.0, 1.5], [0.0, 0.0]], [[2.75, 3.25], [2.0, 2.25]]],
      [[[0.5, 0.75], [0.6507909893989563, 0.7592570185661316]], [[0.648684024810791, 0.7604039907455444],
                                                                  [0.0, 0.0]]]]
  for g, w_ in zip(got, want):
    assert g.shape == (2, 2, 2)
    np.testing.assert_allclose(g, w_, rtol=1e-6, atol=1e-7)
