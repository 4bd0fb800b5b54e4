"""tf.sets (SetSize and the *SetOperation kernels): values TensorFlow
computed for the same inputs, random sets against Python's set algebra,
argument flips for sparse/dense mixes, and errors."""
import numpy as np
import pytest

import tfc as tf


def _inputs():
  a = tf.constant([[[1, 2, 2], [3, 4, 5]], [[7, 7, 7], [0, 1, 2]]])
  b = tf.SparseTensor([[0, 0, 0], [0, 1, 1], [1, 1, 0], [1, 1, 1]], [2, 9, 1, 4], [2, 2, 4])
  return a, b


def _triple(st):
  return st.indices.tolist(), st.values.tolist(), st.dense_shape.tolist()


def test_values_match_tensorflow():
  with tf.Graph().as_default(), tf.Session() as sess:
    a, b = _inputs()
    got = sess.run([tf.sets.intersection(a, b), tf.sets.union(b, a), tf.sets.difference(a, b),
                    tf.sets.difference(b, a), tf.sets.set_difference(a, b, aminusb=False),
                    tf.sets.set_intersection(a, a)])
    sizes = sess.run(tf.sets.size(b))
    assert sess.run(tf.sets.set_size(b)).dtype == np.int32
  assert _triple(got[0]) == ([[0, 0, 0], [1, 1, 0]], [2, 1], [2, 2, 1])
  assert _triple(got[1]) == ([[0, 0, 0], [0, 0, 1], [0, 1, 0], [0, 1, 1], [0, 1, 2], [0, 1, 3], [1, 0, 0],
                              [1, 1, 0], [1, 1, 1], [1, 1, 2], [1, 1, 3]],
                             [1, 2, 3, 4, 5, 9, 7, 0, 1, 2, 4], [2, 2, 4])
  assert _triple(got[2]) == ([[0, 0, 0], [0, 1, 0], [0, 1, 1], [0, 1, 2], [1, 0, 0], [1, 1, 0], [1, 1, 1]],
                             [1, 3, 4, 5, 7, 0, 2], [2, 2, 3])
  assert _triple(got[3]) == ([[0, 1, 0], [1, 1, 0]], [9, 4], [2, 2, 1])
  assert _triple(got[4]) == _triple(got[3])
  assert _triple(got[5])[1] == [1, 2, 3, 4, 5, 7, 0, 1, 2]
  assert sizes.tolist() == [[1, 1], [0, 2]]


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint8, object])
def test_random_sets_against_python(dtype):
  rng = np.random.RandomState(7)
  x = rng.randint(0, 6, size=(5, 4, 6))
  y = rng.randint(0, 6, size=(5, 4, 3))
  if dtype is object:
    x = np.vectorize(lambda v: b"w%d" % v, otypes=[object])(x)
    y = np.vectorize(lambda v: b"w%d" % v, otypes=[object])(y)
  else:
    x, y = x.astype(dtype), y.astype(dtype)
  ops = {"intersection": lambda p, q: p & q, "union": lambda p, q: p | q, "a-b": lambda p, q: p - q,
         "b-a": lambda p, q: q - p}
  with tf.Graph().as_default(), tf.Session() as sess:
    results = sess.run({"intersection": tf.sets.intersection(x, y), "union": tf.sets.union(x, y),
                        "a-b": tf.sets.difference(x, y), "b-a": tf.sets.difference(x, y, aminusb=False)})
  for name, st in results.items():
    want = {}
    for i in range(5):
      for j in range(4):
        r = sorted(ops[name](set(x[i, j].tolist()), set(y[i, j].tolist())))
        if r:
          want[(i, j)] = r
    got = {}
    for (i, j, k), v in zip(st.indices.tolist(), st.values.tolist()):
      got.setdefault((i, j), []).append(v)
      assert k == len(got[(i, j)]) - 1
    assert got == want, name
    assert st.dense_shape.tolist() == [5, 4, max([len(v) for v in want.values()] or [0])]


def test_errors():
  with tf.Graph().as_default(), tf.Session() as sess:
    a, b = _inputs()
    with pytest.raises(TypeError, match="Types don't match"):
      tf.sets.union(a, tf.constant([[[1.5]]]))
    with pytest.raises(TypeError, match="Expected `SparseTensor`"):
      tf.sets.size(a)
    with pytest.raises(ValueError):
      tf.sets.union(tf.constant([1, 2]), tf.constant([2, 3]))
    unordered = tf.SparseTensor([[1, 0], [0, 0]], [1, 2], [2, 2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="out of order"):
      sess.run(tf.sets.size(unordered))
    assert sess.run(tf.sets.size(unordered, validate_indices=False)).tolist() == [1, 1]
    other = tf.SparseTensor([[0, 0]], [1], [3, 2])
    with pytest.raises(tf.errors.InvalidArgumentError):
      sess.run(tf.sets.union(tf.SparseTensor([[0, 0]], [1], [2, 2]), other).values)
