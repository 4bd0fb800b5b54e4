"""gather_nd, scatter_nd and tensor_scatter_nd_*: values against NumPy on
several shapes and dtypes (slices, duplicates, strings), shapes known at
graph-build time, TF's gradients by finite differences, and bad indices."""
import numpy as np
import pytest

import tfc as tf


def _run(fetches, graph):
  with tf.Session(graph=graph) as sess:
    return sess.run(fetches)


def _np_gather_nd(params, idx):
  k = idx.shape[-1]
  flat = idx.reshape(-1, k)
  rows = [params[tuple(r)] for r in flat]
  return np.array(rows).reshape(idx.shape[:-1] + params.shape[k:])


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64, np.uint8])
@pytest.mark.parametrize("pshape,idx", [((3, 4), [[0, 1], [2, 3]]), ((4, 3, 2), [[[3], [0]], [[1], [1]]]),
                                        ((2, 3), [[1, 2, ]]), ((5,), [[4], [0], [4]])])
def test_gather_nd_matches_numpy(dtype, pshape, idx):
  params = np.arange(int(np.prod(pshape))).reshape(pshape).astype(dtype)
  idx = np.array(idx, np.int32)
  g = tf.Graph()
  with g.as_default():
    y = tf.gather_nd(tf.constant(params), tf.constant(idx))
    want = _np_gather_nd(params, idx)
    assert y.shape.as_list() == list(want.shape)
    got = _run(y, g)
  np.testing.assert_array_equal(got, want)
  assert got.dtype == dtype


def test_gather_nd_strings_and_manip_name():
  g = tf.Graph()
  with g.as_default():
    y = tf.manip.gather_nd(tf.constant([[b"a", b"b"], [b"c", b"d"]]), [[1, 0], [0, 1]])
    assert _run(y, g).tolist() == [b"c", b"b"]


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64])
def test_scatter_nd_adds_duplicates(dtype):
  idx = np.array([[0, 1], [2, 2], [0, 1]], np.int64)
  upd = np.array([1, 2, 3]).astype(dtype)
  g = tf.Graph()
  with g.as_default():
    y = tf.scatter_nd(tf.constant(idx), tf.constant(upd), tf.constant([3, 3], tf.int64))
    assert y.shape.as_list() == [3, 3]
    got = _run(y, g)
  want = np.zeros((3, 3), dtype)
  np.add.at(want, (idx[:, 0], idx[:, 1]), upd)
  np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("name,ufunc", [("add", np.add), ("sub", np.subtract),
                                        ("min", np.minimum), ("max", np.maximum)])
@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.float64])
def test_tensor_scatter_matches_numpy(name, ufunc, dtype):
  rng = np.random.RandomState(3)
  t = rng.randint(-5, 5, (4, 3)).astype(dtype)
  idx = np.array([[1], [3], [1]], np.int32)
  upd = rng.randint(-5, 5, (3, 3)).astype(dtype)
  g = tf.Graph()
  with g.as_default():
    y = getattr(tf, "tensor_scatter_nd_" + name)(tf.constant(t), tf.constant(idx), tf.constant(upd))
    got = _run(y, g)
  want = t.copy()
  if name == "sub":
    np.add.at(want, idx[:, 0], -upd)
  else:
    ufunc.at(want, idx[:, 0], upd)
  np.testing.assert_array_equal(got, want)


def test_tensor_scatter_update_and_aliases():
  g = tf.Graph()
  with g.as_default():
    t = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    y = tf.tensor_scatter_update(t, [[0, 1], [1, 0]], [9.0, 8.0])
    s = tf.tensor_scatter_nd_update(tf.constant([b"a", b"b", b"c"]), [[2]], [b"z"])
    got, gs = _run([y, s], g)
  np.testing.assert_array_equal(got, [[1.0, 9.0], [8.0, 4.0]])
  assert gs.tolist() == [b"a", b"b", b"z"]
  assert tf.tensor_scatter_add is tf.tensor_scatter_nd_add
  assert tf.tensor_scatter_sub is tf.tensor_scatter_nd_sub


def test_bad_indices_fail_with_the_node_name():
  g = tf.Graph()
  with g.as_default():
    idx = tf.placeholder(tf.int32, None)
    y = tf.gather_nd(tf.zeros([3, 4]), idx, name="gnd")
    z = tf.tensor_scatter_nd_add(tf.zeros([3]), idx, tf.ones([1]), name="tsa")
    with tf.Session() as sess:
      with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[0, 4\] does not index") as e:
        sess.run(y, {idx: [[0, 4]]})
      assert "gnd" in str(e.value)
      with pytest.raises(tf.errors.InvalidArgumentError, match="does not index") as e:
        sess.run(z, {idx: [[-1]]})
      assert "tsa" in str(e.value)
      with pytest.raises(tf.errors.InvalidArgumentError, match="innermost dimension"):
        sess.run(y, {idx: [[0, 1, 2]]})
  with g.as_default():
    with pytest.raises(ValueError):
      tf.gather_nd(tf.zeros([3, 4]), tf.constant([[0, 1, 2]]))


def _grad_err(build, x0, shape_out):
  g = tf.Graph()
  with g.as_default():
    x = tf.placeholder(tf.float64, x0.shape)
    y = build(x)
    with tf.Session():
      return tf.test.compute_gradient_error(x, list(x0.shape), y, shape_out, x_init_value=x0,
                                            delta=1e-6)


def test_gradients_match_finite_differences():
  rng = np.random.RandomState(0)
  p0 = rng.uniform(-1, 1, (3, 4))
  assert _grad_err(lambda x: tf.gather_nd(x, [[0, 1], [2, 3], [0, 1]]), p0, [3]) < 1e-8
  u0 = rng.uniform(-1, 1, (3,))
  assert _grad_err(lambda u: tf.scatter_nd([[1], [3], [1]], u, [5]), u0, [5]) < 1e-8
  t0 = rng.uniform(-1, 1, (4, 3))
  for fn in (tf.tensor_scatter_nd_update, tf.tensor_scatter_nd_add, tf.tensor_scatter_nd_sub,
             tf.tensor_scatter_nd_min, tf.tensor_scatter_nd_max):
    upd = rng.uniform(-1, 1, (2, 3))
    assert _grad_err(lambda t, fn=fn, upd=upd: fn(t, [[1], [3]], tf.constant(upd)), t0,
                     [4, 3]) < 1e-8
    upd0 = rng.uniform(-1, 1, (2, 3))
    assert _grad_err(lambda u, fn=fn: fn(tf.constant(t0), [[1], [3]], u), upd0, [4, 3]) < 1e-8
