"""tf.TensorArray over the TensorArrayV3 kernels: write/read/stack/unstack/
gather/scatter/concat/split/size/close, dynamic_size, clear_after_read,
element_shape and infer_shape, TF's errors, gradients (by finite
differences), TensorArrays as while_loop variables."""
import numpy as np
import pytest

import tfc as tf


def test_write_read_stack():
  g = tf.Graph()
  with g.as_default():
    ta = tf.TensorArray(tf.float32, size=3)
    assert ta.handle.op.type == "TensorArrayV3" and ta.handle.op.name == "TensorArray"
    ta = ta.write(0, [1.0, 2.0]).write(1, [3.0, 4.0]).write(2, [5.0, 6.0])
    assert ta.element_shape.as_list() == [2]
    s = ta.stack()
    assert s.shape.as_list() == [None, 2]
    with tf.Session() as sess:
      np.testing.assert_array_equal(sess.run(s), [[1, 2], [3, 4], [5, 6]])
      assert sess.run(ta.size()) == 3


def test_unstack_gather_scatter_concat_split():
  x = np.arange(12, dtype=np.float32).reshape(4, 3)
  g = tf.Graph()
  with g.as_default():
    ta = tf.TensorArray(tf.float32, size=4, clear_after_read=False).unstack(x)
    r = ta.read(2)
    gat = ta.gather([3, 1])
    cc = ta.concat()
    sc = tf.TensorArray(tf.float32, size=3).scatter([2, 0, 1], x[:3]).stack()
    sp = tf.TensorArray(tf.float32, size=3, infer_shape=False).split(
        np.arange(6, dtype=np.float32), [1, 2, 3])
    parts = [sp.read(i) for i in range(3)]
    with tf.Session() as sess:
      rv, gv, cv, scv, pv = sess.run([r, gat, cc, sc, parts])
  np.testing.assert_array_equal(rv, x[2])
  np.testing.assert_array_equal(gv, x[[3, 1]])
  np.testing.assert_array_equal(cv, x.reshape(-1))
  np.testing.assert_array_equal(scv, x[[1, 2, 0]])
  np.testing.assert_array_equal(pv[0], [0])
  np.testing.assert_array_equal(pv[2], [3, 4, 5])


def test_dynamic_size_and_unwritten_zeros():
  g = tf.Graph()
  with g.as_default():
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    ta = ta.write(0, [1.0]).write(4, [2.0])
    sz = ta.size()
    s = tf.TensorArray(tf.float32, size=3, element_shape=[2]).write(1, [7.0, 8.0]).stack()
    with tf.Session() as sess:
      assert sess.run(sz) == 5
      np.testing.assert_array_equal(sess.run(s), [[0, 0], [7, 8], [0, 0]])


def test_errors():
  g = tf.Graph()
  with g.as_default():
    twice = tf.TensorArray(tf.float32, size=2).write(0, 1.0).write(0, 2.0, name="second")
    oob = tf.TensorArray(tf.float32, size=2).write(5, 1.0, name="oob")
    ta = tf.TensorArray(tf.float32, size=1).write(0, [1.0])
    a = ta.read(0)
    with tf.control_dependencies([a]):
      b = ta.read(0, name="again")
    with tf.Session() as sess:
      with pytest.raises(tf.errors.InvalidArgumentError, match="already been written to") as e:
        sess.run(twice.flow)
      assert "second" in str(e.value)
      with pytest.raises(tf.errors.InvalidArgumentError, match="not resizeable"):
        sess.run(oob.flow)
      with pytest.raises(tf.errors.InvalidArgumentError, match="cleared after a previous read"):
        sess.run(b)
  with tf.Graph().as_default():
    ta = tf.TensorArray(tf.float32, size=2)
    with pytest.raises(ValueError, match="dtype"):
      ta.write(0, tf.constant(1, tf.int32))
    ta.write(0, [1.0, 2.0])
    with pytest.raises(ValueError):
      ta.write(1, [1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="Size must be provided"):
      tf.TensorArray(tf.float32)


def test_tensor_array_in_while_loop():
  g = tf.Graph()
  with g.as_default():
    n = tf.placeholder(tf.int32, [])
    ta = tf.TensorArray(tf.int32, size=n)
    _, ta = tf.while_loop(lambda i, t: i < n, lambda i, t: (i + 1, t.write(i, i * i)), [0, ta])
    assert isinstance(ta, tf.TensorArray)
    s = ta.stack()
    with tf.Session() as sess:
      np.testing.assert_array_equal(sess.run(s, {n: 5}), [0, 1, 4, 9, 16])


def _fd(build, x0, tol=1e-6):
  with tf.Graph().as_default():
    x = tf.placeholder(tf.float64, x0.shape)
    y = build(x)
    with tf.Session():
      err = tf.test.compute_gradient_error(x, list(x0.shape), y, y.shape.as_list(), x_init_value=x0)
  assert err < tol, err


def test_gradients():
  _fd(lambda x: tf.reduce_sum(tf.TensorArray(tf.float64, size=3).unstack(x).stack() ** 2),
      np.array([[0.1, 0.2], [0.3, -0.4], [0.5, 0.6]]))
  _fd(lambda x: tf.reduce_sum(tf.TensorArray(tf.float64, size=3).unstack(x).read(1) * 3.0),
      np.array([[0.1, 0.2], [0.3, -0.4], [0.5, 0.6]]))
  _fd(lambda x: tf.reduce_sum(tf.sin(tf.TensorArray(tf.float64, size=3, infer_shape=False)
                                     .split(x, [1, 2, 3]).concat())),
      np.array([0.1, 0.2, 0.3, -0.4, 0.5, 0.6]))
  _fd(lambda x: tf.reduce_sum(tf.TensorArray(tf.float64, size=3).scatter([2, 0, 1], x)
                              .gather([0, 2]) ** 2),
      np.array([[0.1, 0.2], [0.3, -0.4], [0.5, 0.6]]))


def test_gradient_through_loop_with_tensor_arrays():
  def build(x):
    inp = tf.TensorArray(tf.float64, size=4).unstack(x)

    def body(i, acc, out):
      acc = acc * 0.5 + tf.sin(inp.read(i))
      return i + 1, acc, out.write(i, acc * acc)
    _, acc, out = tf.while_loop(lambda i, a, o: i < 4, body,
                                [0, tf.zeros([2], tf.float64), tf.TensorArray(tf.float64, size=4)])
    return tf.reduce_sum(out.stack()) + tf.reduce_sum(acc)
  _fd(build, np.array([[0.1, 0.2], [0.3, -0.4], [0.5, 0.6], [0.9, -0.8]]))


def test_map_fn_scan_fold_build_tensor_arrays():
  g = tf.Graph()
  with g.as_default():
    x = tf.placeholder(tf.float32, [None, 2])
    m = tf.map_fn(lambda e: (e * 2.0, tf.reduce_sum(e)), x, dtype=(tf.float32, tf.float32))
    s = tf.scan(lambda a, e: a + e, x, reverse=True)
    f = tf.foldr(lambda a, e: a * 2.0 + e, x)
    types = [op.type for op in g.get_operations()]
    assert types.count("TensorArrayV3") >= 4 and "TensorArrayScatterV3" in types
    xv = np.array([[1, 2], [3, 4], [5, 6]], np.float32)
    with tf.Session() as sess:
      mv, sv, fv = sess.run([m, s, f], {x: xv})
      np.testing.assert_array_equal(mv[0], xv * 2)
      np.testing.assert_array_equal(mv[1], xv.sum(1))
      np.testing.assert_array_equal(sv, np.cumsum(xv[::-1], 0)[::-1])
      np.testing.assert_array_equal(fv, (xv[2] * 2 + xv[1]) * 2 + xv[0])
      e = sess.run(tf.map_fn(lambda e: e * 2.0, tf.zeros([0, 3])))
      assert e.shape == (0, 3)


def test_fetching_a_handle_is_a_type_error_and_closed_array_fails():
  with tf.Graph().as_default():
    ta = tf.TensorArray(tf.float32, size=2).write(0, 1.0)
    close = ta.close()
    with tf.control_dependencies([close]):
      after = tf.identity(ta.read(0))
    with tf.Session() as sess:
      with pytest.raises(TypeError, match="resource"):
        sess.run(ta.handle)
      with pytest.raises(tf.errors.InvalidArgumentError, match="already been closed"):
        sess.run(after)
      assert sess.run(ta.flow) == 0.0   # the session stays usable
