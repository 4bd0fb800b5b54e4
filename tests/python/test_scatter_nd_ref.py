"""tf.scatter_nd_update / scatter_nd_add / scatter_nd_sub on ref variables
(ScatterNdUpdate/Add/Sub), tf.batch_scatter_update and
tf.required_space_to_batch_paddings: values against NumPy and
against TF 2.21's tf.compat.v1 results on the same graphs, and the errors."""
import numpy as np
import pytest

import tfc as tf


def _graph():
  v = tf.Variable(np.arange(12, dtype=np.float32).reshape(3, 4))
  a = tf.scatter_nd_add(v, [[0, 1], [2, 3], [0, 1]], [10., 20., 30.])
  s = tf.scatter_nd_sub(v, [[1]], [[1., 1., 1., 1.]])
  u = tf.scatter_nd_update(v, [[2], [0]], [[-1., -2., -3., -4.], [5, 6, 7, 8]])
  return v, a, s, u


def test_scatter_nd_ref_ops_match_tf():
  with tf.Graph().as_default():
    v, a, s, u = _graph()
    assert (a.op.type, s.op.type, u.op.type) == ("ScatterNdAdd", "ScatterNdSub", "ScatterNdUpdate")
    assert a.op.get_attr("use_locking") is False and u.op.get_attr("use_locking") is True
    assert a.shape.as_list() == [3, 4]
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      assert sess.run(a).tolist() == [[0, 41, 2, 3], [4, 5, 6, 7], [8, 9, 10, 31]]
      assert sess.run(s).tolist() == [[0, 41, 2, 3], [3, 4, 5, 6], [8, 9, 10, 31]]
      assert sess.run(u).tolist() == [[5, 6, 7, 8], [3, 4, 5, 6], [-1, -2, -3, -4]]
      assert sess.run(v).tolist() == [[5, 6, 7, 8], [3, 4, 5, 6], [-1, -2, -3, -4]]


def test_scatter_nd_add_random_against_numpy():
  rng = np.random.RandomState(3)
  init = rng.randn(5, 4, 3).astype(np.float64)
  idx = rng.randint(0, 4, size=(6, 2))
  idx[:, 0] = rng.randint(0, 5, size=6)
  upd = rng.randn(6, 3)
  want = init.copy()
  for row, u in zip(idx, upd):
    want[tuple(row)] += u
  with tf.Graph().as_default():
    v = tf.Variable(init)
    op = tf.scatter_nd_add(v, idx, upd)
    with tf.Session() as sess:
      sess.run(v.initializer)
      np.testing.assert_allclose(sess.run(op), want, rtol=1e-12)


def test_batch_scatter_update_matches_tf():
  with tf.Graph().as_default():
    w = tf.Variable(np.zeros((2, 3), np.int32))
    b = tf.batch_scatter_update(w, [[0, 2], [1, 1]], [[1, 2], [3, 4]])
    with tf.Session() as sess:
      sess.run(w.initializer)
      assert sess.run(b).tolist() == [[1, 0, 2], [0, 4, 0]]


def test_scatter_nd_ref_errors():
  with tf.Graph().as_default():
    v = tf.Variable(np.zeros((3, 4), np.float32))
    with pytest.raises(ValueError):
      tf.scatter_nd_update(v, [[0]], [1., 2.])
    with pytest.raises(TypeError):
      tf.scatter_nd_add(tf.constant([1.0]), [[0]], [1.0])
    bad = tf.scatter_nd_update(v, [[1], [5]], np.ones((2, 4), np.float32))
    uninit = tf.Variable(np.zeros((2,), np.float32), name="never_initialized")
    use_uninit = tf.scatter_nd_add(uninit, [[0]], [1.0])
    with tf.Session() as sess:
      sess.run(v.initializer)
      with pytest.raises(tf.errors.InvalidArgumentError, match="does not index into"):
        sess.run(bad)
      # a failing step leaves the variable as it was
      assert sess.run(v).tolist() == np.zeros((3, 4)).tolist()
      with pytest.raises(tf.errors.FailedPreconditionError, match="uninitialized"):
        sess.run(use_uninit)


def test_required_space_to_batch_paddings_matches_tf():
  with tf.Graph().as_default():
    p1, c1 = tf.required_space_to_batch_paddings([5, 7], [2, 3])
    p2, c2 = tf.required_space_to_batch_paddings([4, 4, 9], [2, 2, 4], [[1, 0], [0, 3], [2, 2]])
    ph = tf.placeholder(tf.int32, [2])
    p3, c3 = tf.required_space_to_batch_paddings(ph, [3, 4], [[1, 1], [0, 2]])
    assert p1.dtype == tf.int32 and p1.shape.as_list() == [2, 2]
    with tf.Session() as sess:
      assert [x.tolist() for x in sess.run([p1, c1])] == [[[0, 1], [0, 2]], [[0, 1], [0, 2]]]
      assert [x.tolist() for x in sess.run([p2, c2])] == [[[1, 1], [0, 4], [2, 5]],
                                                          [[0, 1], [0, 1], [0, 3]]]
      assert [x.tolist() for x in sess.run([p3, c3], {ph: [10, 5]})] == [[[1, 1], [0, 3]],
                                                                        [[0, 0], [0, 1]]]
    with pytest.raises(ValueError):
      tf.required_space_to_batch_paddings([5, 7, 1], [2, 3])
