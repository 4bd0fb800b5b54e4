"""tf.map_fn, tf.scan, tf.foldl and tf.foldr on tf.while_loop: values as
TensorFlow computes them (nested elems, initializers, reverse, dtype),
static shapes, and TF's errors for bad arguments."""
import numpy as np
import pytest

import tfc as tf


def test_foldl_foldr():
  g = tf.Graph()
  with g.as_default():
    x = tf.constant([1.0, 2.0, 3.0, 4.0])
    with tf.Session() as sess:
      assert sess.run(tf.foldl(lambda a, e: a * 2.0 + e, x)) == ((1 * 2 + 2) * 2 + 3) * 2 + 4
      assert sess.run(tf.foldr(lambda a, e: a * 2.0 + e, x)) == ((4 * 2 + 3) * 2 + 2) * 2 + 1
      assert sess.run(tf.foldl(lambda a, e: a - e, x, initializer=10.0)) == 0.0
      pair = tf.foldl(lambda a, e: (a[0] + e[0], a[1] * e[1]), (x, x * 2.0),
                      initializer=(tf.constant(0.0), tf.constant(1.0)))
      assert list(sess.run(pair)) == [10.0, 384.0]


def test_map_fn_values_dtypes_and_shapes():
  g = tf.Graph()
  with g.as_default():
    x = tf.placeholder(tf.float32, [None, 3])
    sq = tf.map_fn(lambda r: r * r, x)
    assert sq.shape.as_list() == [None, 3]
    both = tf.map_fn(lambda r: (tf.reduce_sum(r), tf.cast(tf.argmax(r), tf.int32)), x,
                     dtype=(tf.float32, tf.int32))
    c = tf.map_fn(lambda e: e[0] + e[1], (tf.constant([1, 2, 3]), tf.constant([10, 20, 30])),
                  dtype=tf.int32)
    assert c.shape.as_list() == [3]
    xv = np.arange(12, dtype=np.float32).reshape(4, 3) - 5
    with tf.Session() as sess:
      np.testing.assert_allclose(sess.run(sq, {x: xv}), xv * xv)
      s, a = sess.run(both, {x: xv})
      np.testing.assert_allclose(s, xv.sum(1))
      np.testing.assert_array_equal(a, xv.argmax(1))
      assert list(sess.run(c)) == [11, 22, 33]
      assert sess.run(sq, {x: np.zeros([0, 3], np.float32)}).shape == (0, 3)


def test_scan_forward_reverse_and_initializer():
  g = tf.Graph()
  with g.as_default():
    x = tf.constant([1, 2, 3, 4])
    with tf.Session() as sess:
      assert list(sess.run(tf.scan(lambda a, e: a + e, x))) == [1, 3, 6, 10]
      assert list(sess.run(tf.scan(lambda a, e: a + e, x, reverse=True))) == [10, 9, 7, 4]
      assert list(sess.run(tf.scan(lambda a, e: a * e, x, initializer=2))) == [2, 4, 12, 48]
      fib = tf.scan(lambda a, _: (a[1], a[0] + a[1]), tf.zeros([6]),
                    initializer=(tf.constant(0.0), tf.constant(1.0)))
      np.testing.assert_allclose(sess.run(fib)[0], [1, 1, 2, 3, 5, 8])


def test_functional_errors():
  g = tf.Graph()
  with g.as_default():
    with pytest.raises(TypeError, match="fn must be callable"):
      tf.map_fn(1, tf.constant([1]))
    with pytest.raises(ValueError, match="scalars"):
      tf.foldl(lambda a, e: a, tf.constant(1))
