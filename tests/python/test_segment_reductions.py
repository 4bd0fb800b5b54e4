"""unsorted_segment_max/min/prod and segment_max/min/prod: values against
NumPy on several shapes and dtypes (empty segments, dropped negative ids),
TF's gradients by finite differences, and the errors for bad ids."""
import numpy as np
import pytest

import tfc as tf

REDUCE = {"max": (np.maximum, lambda dt: (np.finfo(dt).min if np.issubdtype(dt, np.floating)
                                          else np.iinfo(dt).min)),
          "min": (np.minimum, lambda dt: (np.finfo(dt).max if np.issubdtype(dt, np.floating)
                                          else np.iinfo(dt).max)),
          "prod": (np.multiply, lambda dt: 1)}


def _ref(kind, data, ids, n):
  fn, ident = REDUCE[kind]
  out = np.full((n,) + data.shape[ids.ndim:], ident(data.dtype), data.dtype)
  flat = data.reshape((ids.size,) + data.shape[ids.ndim:])
  for i, s in enumerate(ids.ravel()):
    if s >= 0:
      out[s] = fn(out[s], flat[i])
  return out


@pytest.mark.parametrize("kind", ["max", "min", "prod"])
@pytest.mark.parametrize("dtype,shape,ids", [
    (np.float32, (6, 3), [2, 0, -1, 2, 4, 0]),
    (np.float64, (5,), [1, 1, 0, 3, 3]),
    (np.int32, (2, 3, 2), [[0, 1, 1], [-1, 0, 2]]),
    (np.int64, (4, 2), [3, 3, 3, 3]),
    (np.uint8, (5,), [0, 1, 0, 1, 0]),
])
def test_unsorted_matches_numpy(kind, dtype, shape, ids):
  rng = np.random.RandomState(5)
  data = (rng.uniform(-3, 3, shape) if np.issubdtype(dtype, np.floating)
          else rng.randint(0 if dtype == np.uint8 else -5, 6, shape)).astype(dtype)
  ids = np.array(ids, np.int32)
  n = 5
  g = tf.Graph()
  with g.as_default():
    fn = getattr(tf, "unsorted_segment_" + kind)
    out = fn(tf.constant(data), tf.constant(ids), n)
    assert out.shape.as_list() == [n] + list(shape[ids.ndim:])
    with tf.Session() as sess:
      got = sess.run(out)
  np.testing.assert_allclose(got, _ref(kind, data, ids, n), rtol=1e-6)
  assert got.dtype == dtype


@pytest.mark.parametrize("kind", ["max", "min", "prod"])
def test_sorted_segments(kind):
  data = np.array([[1.0, 5.0], [2.0, 0.0], [3.0, 4.0], [7.0, -1.0]])
  ids = np.array([0, 0, 2, 2])
  g = tf.Graph()
  with g.as_default():
    out = getattr(tf.math, "segment_" + kind)(tf.constant(data), tf.constant(ids))
    with tf.Session() as sess:
      got = sess.run(out)
  want = _ref(kind, data, ids, 3)
  if kind != "prod":
    want[1] = 0          # TF's Segment* kernels leave empty segments at 0
  np.testing.assert_allclose(got, want)


def test_sorted_segments_need_sorted_ids():
  g = tf.Graph()
  with g.as_default():
    out = tf.segment_max(tf.constant([1.0, 2.0, 3.0]), tf.constant([1, 0, 1]))
    with tf.Session() as sess:
      with pytest.raises(tf.errors.InvalidArgumentError):
        sess.run(out)


def test_out_of_range_id_names_the_node():
  g = tf.Graph()
  with g.as_default():
    out = tf.unsorted_segment_max(tf.constant([1.0, 2.0]), tf.constant([0, 7]), 3, name="segmax")
    with tf.Session() as sess:
      with pytest.raises(tf.errors.InvalidArgumentError, match="out of range") as e:
        sess.run(out)
  assert "segmax" in str(e.value)


@pytest.mark.parametrize("kind", ["max", "min", "prod"])
def test_gradients_match_finite_differences(kind):
  rng = np.random.RandomState(7)
  x0 = rng.uniform(0.5, 2.0, (6, 2))
  if kind == "prod":
    x0[1, 0] = 0.0                      # one zero in a segment: d/dx is the product of the others
  ids = np.array([0, 2, 0, -1, 2, 2])
  g = tf.Graph()
  with g.as_default():
    x = tf.placeholder(tf.float64, (6, 2))
    y = getattr(tf, "unsorted_segment_" + kind)(x, tf.constant(ids), 3)
    with tf.Session():
      err = tf.test.compute_gradient_error(x, [6, 2], y, [3, 2], x_init_value=x0, delta=1e-6)
  assert err < 1e-6


def test_max_gradient_splits_ties():
  g = tf.Graph()
  with g.as_default():
    x = tf.constant([3.0, 3.0, 1.0])
    y = tf.unsorted_segment_max(x, tf.constant([0, 0, 0]), 1)
    with tf.Session() as sess:
      np.testing.assert_allclose(sess.run(tf.gradients(y, x)[0]), [0.5, 0.5, 0.0])
