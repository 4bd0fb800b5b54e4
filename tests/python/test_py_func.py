"""tf.py_func, tf.numpy_function and tf.py_function: Python functions run as graph ops
(PyFunc, PyFuncStateless, EagerPyFunc) by their C kernel, with TF 1.15's results and error
classes (checked against TensorFlow 2.21's tf.compat.v1.py_func)."""
import gc
import threading

import numpy as np
import pytest

import tfc as tf
from tfc.ops import script_ops


@pytest.fixture(autouse=True)
def _fresh_graph():
  """Each test builds in a graph of its own."""
  with tf.Graph().as_default():
    yield


def test_py_func_values_and_types():
  x = tf.placeholder(tf.float32, [None])
  y = tf.py_func(lambda a: (a * 2).astype(np.float32), [x], tf.float32)
  assert isinstance(y, tf.Tensor) and y.op.type == "PyFunc"
  assert y.dtype == tf.float32 and y.shape.ndims is None
  s, n = tf.py_func(lambda a, b: (a.sum().astype(np.float32), np.int64(a.size + b)),
                    [x, tf.constant(3, tf.int64)], [tf.float32, tf.int64])
  with tf.Session() as sess:
    out = sess.run(y, {x: [1, 2, 3]})
    np.testing.assert_array_equal(out, [2, 4, 6])
    assert out.dtype == np.float32
    assert sess.run([s, n], {x: [1, 2]}) == [3.0, 5]


def test_py_func_strings_and_no_outputs():
  calls = []
  op = tf.py_func(lambda a: calls.append(a) and None, [tf.constant([b"a", b"bc"])], [])
  assert isinstance(op, tf.Operation)
  s = tf.py_func(lambda: "abc", [], tf.string)
  t = tf.py_func(lambda a: [a[::-1]], [tf.constant([b"x", b"yz"])], [tf.string])
  with tf.Session() as sess:
    assert sess.run(op) is None
    assert calls and list(calls[0]) == [b"a", b"bc"]
    assert sess.run(s) == b"abc"
    assert list(sess.run(t)[0]) == [b"yz", b"x"]


def test_stateless_and_numpy_function():
  y = tf.py_func(np.square, [tf.constant([1.0, 2.0])], tf.float32, stateful=False)
  z = tf.numpy_function(lambda a: a + 1, [tf.constant([1, 2])], tf.int32)
  assert y.op.type == "PyFuncStateless" and z.op.type == "PyFunc"
  with tf.Session() as sess:
    np.testing.assert_array_equal(sess.run(y), [1.0, 4.0])
    np.testing.assert_array_equal(sess.run(z), [2, 3])


def test_py_function_eager_values():
  def f(a, b):
    assert isinstance(a.numpy(), np.ndarray)
    return a.numpy() * b, 1.5  # converted to Tout like TF's eager conversion
  y, w = tf.py_function(f, [tf.constant([1.0, 2.0]), tf.constant(3.0)],
                        [tf.float32, tf.float32])
  assert y.op.type == "EagerPyFunc"
  with tf.Session() as sess:
    a, b = sess.run([y, w])
  np.testing.assert_array_equal(a, [3.0, 6.0])
  assert b == 1.5


@pytest.mark.parametrize("exc,cls", [
    (ValueError, tf.errors.InvalidArgumentError),
    (TypeError, tf.errors.InvalidArgumentError),
    (StopIteration, tf.errors.OutOfRangeError),
    (MemoryError, tf.errors.ResourceExhaustedError),
    (NotImplementedError, tf.errors.UnimplementedError),
    (IndexError, tf.errors.UnknownError),
    (KeyError, tf.errors.UnknownError),
    (RuntimeError, tf.errors.UnknownError),
    (ZeroDivisionError, tf.errors.UnknownError),
])
def test_exceptions_map_to_tf_errors(exc, cls):
  def f(_):
    raise exc("boom")
  y = tf.py_func(f, [tf.constant(1.0)], tf.float32, name="pf")
  with tf.Session() as sess:
    with pytest.raises(cls) as info:
      sess.run(y)
  assert "boom" in str(info.value) and exc.__name__ in str(info.value)
  assert info.value.op is not None and info.value.op.name == "pf"


def test_tf_error_raised_inside_keeps_its_class():
  def f(_):
    raise tf.errors.NotFoundError(None, None, "no such thing")
  y = tf.py_func(f, [tf.constant(1.0)], tf.float32)
  with tf.Session() as sess:
    with pytest.raises(tf.errors.NotFoundError, match="no such thing"):
      sess.run(y)


def test_result_checks_as_tf():
  wrong_type = tf.py_func(lambda a: a.astype(np.int32), [tf.constant(1.0)], tf.float32, name="a")
  py_float = tf.py_func(lambda a: 1.5, [tf.constant(1.0)], tf.float32, name="b")
  too_many = tf.py_func(lambda a: (a, a), [tf.constant(1.0)], tf.float32, name="c")
  a_list = tf.py_func(lambda a: [1, 2], [tf.constant(1.0)], tf.int64, name="d")
  with tf.Session() as sess:
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"0-th value returned by pyfunc_\d+ is int32, but expects float"):
      sess.run(wrong_type)
    with pytest.raises(tf.errors.InvalidArgumentError, match="is double, but expects float"):
      sess.run(py_float)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"returns 2 values, but expects to see 1 values"):
      sess.run(too_many)
    with pytest.raises(tf.errors.InvalidArgumentError, match="returns 2 values"):
      sess.run(a_list)


def test_not_callable():
  with pytest.raises(ValueError, match="callable"):
    tf.py_func(3, [], tf.float32)


def test_no_gradient():
  x = tf.constant([1.0, 2.0])
  y = tf.py_func(np.square, [x], tf.float32)
  assert tf.gradients(y, x) == [None]


def test_gil_released_between_calls():
  """Two sessions in two threads run Python-function ops concurrently; each call holds
  the GIL only for itself, so both finish."""
  barrier = threading.Barrier(2, timeout=20)

  def f(a):
    barrier.wait()
    return a

  results = []

  def run():
    g = tf.Graph()
    with g.as_default():
      y = tf.py_func(f, [tf.constant(7.0)], tf.float32)
      with tf.Session() as sess:
        results.append(float(sess.run(y)))

  threads = [threading.Thread(target=run) for _ in range(2)]
  for t in threads:
    t.start()
  for t in threads:
    t.join(60)
  assert results == [7.0, 7.0]


def test_inside_while_loop_and_map_fn():
  out = tf.map_fn(lambda e: tf.py_func(lambda v: v * 10, [e], tf.int32), tf.constant([1, 2, 3]))
  def body(i, s):
    square = tf.py_func(lambda v: np.int32(v * v), [i], tf.int32)
    square.set_shape([])  # py_func outputs have unknown shapes, as in TF
    return i + 1, s + square
  _, total = tf.while_loop(lambda i, s: i < 4, body, [tf.constant(0), tf.constant(0)])
  with tf.Session() as sess:
    np.testing.assert_array_equal(sess.run(out), [10, 20, 30])
    assert sess.run(total) == 0 + 1 + 4 + 9


def test_functions_unregistered_with_their_graph():
  g = tf.Graph()
  with g.as_default():
    y = tf.py_func(lambda: np.float32(1), [], tf.float32)
  token = y.op.get_attr("token").decode()
  assert token in script_ops._FUNCS
  del y, g
  gc.collect()
  assert token not in script_ops._FUNCS


def test_graph_def_round_trip_in_process():
  y = tf.py_func(lambda a: a + np.float32(1), [tf.constant(1.0)], tf.float32, name="pf")
  graph_def = tf.get_default_graph().as_graph_def()
  g2 = tf.Graph()
  with g2.as_default():
    tf.import_graph_def(graph_def, name="")
    with tf.Session() as sess:
      assert sess.run("pf:0") == 2.0
  del y
