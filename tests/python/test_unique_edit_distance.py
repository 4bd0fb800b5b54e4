"""tf.unique_with_counts (UniqueWithCounts) and tf.edit_distance (EditDistance):
values against NumPy / a reference Levenshtein and against TF 2.21's tf.compat.v1
results on the same inputs, plus the error cases."""
import numpy as np
import pytest

import tfc as tf


def _sp(ind, val, shape):
  return tf.SparseTensor(np.array(ind, np.int64).reshape(-1, len(shape)), val,
                         np.array(shape, np.int64))


def test_unique_with_counts_matches_numpy():
  rng = np.random.RandomState(0)
  x = rng.randint(0, 20, size=200).astype(np.int64)
  with tf.Graph().as_default():
    y, idx, count = tf.unique_with_counts(tf.constant(x), out_idx=tf.int64)
    assert y.op.type == "UniqueWithCounts"
    assert idx.dtype == tf.int64 and count.dtype == tf.int64
    assert idx.shape.as_list() == [200] and count.shape.as_list() == [None]
    with tf.Session() as sess:
      yv, iv, cv = sess.run([y, idx, count])
  _, first = np.unique(x, return_index=True)
  order = np.sort(first)
  np.testing.assert_array_equal(yv, x[order])
  np.testing.assert_array_equal(yv[iv], x)
  np.testing.assert_array_equal(cv, [np.sum(x == v) for v in yv])


def test_unique_with_counts_matches_tf():
  with tf.Graph().as_default():
    a = tf.unique_with_counts(tf.constant([1, 1, 2, 4, 4, 4, 7, 8, 8]))
    b = tf.unique_with_counts(tf.constant(["b", "a", "b"]), out_idx=tf.int64)
    c = tf.unique_with_counts(tf.constant([], tf.int32))
    with tf.Session() as sess:
      av, bv, cv = sess.run([a, b, c])
  assert [v.tolist() for v in av] == [[1, 2, 4, 7, 8], [0, 0, 1, 2, 2, 2, 3, 4, 4], [2, 1, 3, 1, 2]]
  assert [v.dtype for v in av] == [np.int32] * 3
  assert [v.tolist() for v in bv] == [[b"b", b"a"], [0, 1, 0], [2, 1]]
  assert [v.tolist() for v in cv] == [[], [], []]


def test_unique_with_counts_needs_a_vector():
  with tf.Graph().as_default():
    p = tf.placeholder(tf.int32)
    _, _, count = tf.unique_with_counts(p)
    with tf.Session() as sess:
      with pytest.raises(tf.errors.InvalidArgumentError, match="unique expects a 1D vector"):
        sess.run(count, {p: [[1]]})


EDIT_CASES = [
    (([[0, 0, 0], [1, 0, 0]], ["a", "b"], [2, 1, 1]),
     ([[0, 1, 0], [1, 0, 0], [1, 0, 1], [1, 1, 0]], ["a", "b", "c", "a"], [2, 2, 2]),
     [[np.inf, 1.0], [0.5, 1.0]], [[1.0, 1.0], [1.0, 1.0]]),
    (([[0, 0], [0, 1], [0, 2], [1, 0]], [1, 2, 3, 4], [3, 3]),
     ([[0, 0], [0, 1], [2, 0], [2, 1]], [1, 5, 7, 8], [3, 2]),
     [1.0, np.inf, 1.0], [2.0, 1.0, 2.0]),
    (([[0, 0], [0, 1], [0, 2], [0, 3]], [1., 2., 3., 4.], [1, 4]),
     ([[0, 0], [0, 1]], [2., 4.], [1, 2]), [1.0], [2.0]),
]


@pytest.mark.parametrize("hyp,truth,normalized,raw", EDIT_CASES)
def test_edit_distance_matches_tf(hyp, truth, normalized, raw):
  with tf.Graph().as_default():
    d_norm = tf.edit_distance(_sp(*hyp), _sp(*truth))
    d_raw = tf.edit_distance(_sp(*hyp), _sp(*truth), normalize=False)
    assert d_norm.op.type == "EditDistance" and d_norm.dtype == tf.float32
    assert d_norm.shape.as_list() == list(np.shape(normalized))
    with tf.Session() as sess:
      np.testing.assert_array_equal(sess.run(d_norm), normalized)
      np.testing.assert_array_equal(sess.run(d_raw), raw)


def _levenshtein(a, b):
  row = list(range(len(b) + 1))
  for i in range(1, len(a) + 1):
    prev, row[0] = row[0], i
    for j in range(1, len(b) + 1):
      cur = min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] != b[j - 1]))
      prev, row[j] = row[j], cur
  return row[len(b)]


def test_edit_distance_random_against_reference():
  rng = np.random.RandomState(1)
  seqs_h = [list(rng.randint(0, 4, size=rng.randint(0, 7))) for _ in range(6)]
  seqs_t = [list(rng.randint(0, 4, size=rng.randint(1, 7))) for _ in range(6)]

  def to_sparse(seqs):
    ind = [[b, i] for b, s in enumerate(seqs) for i in range(len(s))]
    val = [v for s in seqs for v in s]
    return _sp(ind, np.array(val, np.int32), [len(seqs), 7])
  with tf.Graph().as_default():
    d = tf.edit_distance(to_sparse(seqs_h), to_sparse(seqs_t), normalize=True)
    with tf.Session() as sess:
      got = sess.run(d)
  want = [_levenshtein(h, t) / len(t) for h, t in zip(seqs_h, seqs_t)]
  np.testing.assert_allclose(got, want, rtol=1e-6)


def test_edit_distance_errors():
  with tf.Graph().as_default():
    with pytest.raises(TypeError, match="Hypothesis must be a SparseTensor"):
      tf.edit_distance(tf.constant([1]), _sp([[0, 0]], [1], [1, 1]))
    with pytest.raises(ValueError, match="Num elements of hypothesis_shape does not match"):
      tf.edit_distance(_sp([[0, 0]], [1], [1, 1]), _sp([[0, 0, 0]], [1], [1, 1, 1]))
    hs = tf.placeholder(tf.int64, [None])
    d = tf.edit_distance(tf.SparseTensor(tf.constant([[0, 0]], tf.int64), [1], hs),
                         _sp([[0, 0, 0]], [1], [1, 1, 1]))
    assert d.shape.ndims is None
    with tf.Session() as sess:
      with pytest.raises(tf.errors.InvalidArgumentError):
        sess.run(d, {hs: [1, 1]})
