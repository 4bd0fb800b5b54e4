"""tf.ensure_shape, tf.guarantee_const, tf.timestamp and tf.switch_case."""
import time

import numpy as np
import pytest

import tfc as tf


@pytest.fixture(autouse=True)
def _fresh_graph():
  """Each test builds in a graph of its own."""
  with tf.Graph().as_default():
    yield


def test_ensure_shape():
  x = tf.placeholder(tf.float32, None)
  y = tf.ensure_shape(x, [2, None])
  assert y.shape.as_list() == [2, None]
  with tf.Session() as sess:
    assert sess.run(y, {x: np.zeros([2, 5])}).shape == (2, 5)
    for bad in (np.zeros([3, 5]), np.zeros([2]), np.float32(1)):
      with pytest.raises(tf.errors.InvalidArgumentError,
                         match=r"is not compatible with expected shape \[2,\?\]"):
        sess.run(y, {x: bad})
  with pytest.raises(ValueError):
    tf.ensure_shape(tf.zeros([3]), [2])
  z = tf.ensure_shape(tf.placeholder(tf.int32, [None, 3]), [4, None])
  assert z.shape.as_list() == [4, 3]


def test_guarantee_const_and_timestamp():
  c = tf.guarantee_const(tf.constant([1.0, 2.0]))
  t = tf.timestamp()
  assert t.dtype == tf.float64 and t.shape.as_list() == []
  with tf.Session() as sess:
    before = time.time()
    cv, tv = sess.run([c, t])
    after = time.time()
    t2 = sess.run(t)
  np.testing.assert_array_equal(cv, [1.0, 2.0])
  assert before - 1e-3 <= tv <= after + 1e-3 and t2 >= tv


def test_switch_case():
  i = tf.placeholder(tf.int32, [])
  out = tf.switch_case(i, [lambda: tf.constant(10), lambda: tf.constant(20),
                           lambda: tf.constant(30)])
  out_d = tf.switch_case(i, {0: lambda: tf.constant(1.0), 1: lambda: tf.constant(2.0)},
                         default=lambda: tf.constant(-1.0))
  with tf.Session() as sess:
    assert [sess.run(out, {i: k}) for k in (0, 1, 2, 7, -1)] == [10, 20, 30, 30, 30]
    assert [sess.run(out_d, {i: k}) for k in (0, 1, 5)] == [1.0, 2.0, -1.0]
  with pytest.raises(ValueError):
    tf.switch_case(i, [])
  with pytest.raises(TypeError):
    tf.switch_case(tf.constant(1.0), [lambda: 1])
