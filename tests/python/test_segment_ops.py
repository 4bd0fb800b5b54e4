"""tf.unsorted_segment_sum against NumPy, its errors, and its gradient (also the
gradient of tf.gather, which sums rows back through UnsortedSegmentSum)."""
import numpy as np
import pytest

import tfc as tf


def _np_segment_sum(data, ids, n):
  out = np.zeros((n,) + data.shape[ids.ndim:], data.dtype)
  flat = data.reshape((ids.size,) + data.shape[ids.ndim:])
  for i, s in enumerate(ids.reshape(-1)):
    if s >= 0:
      out[s] += flat[i]
  return out


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64])
@pytest.mark.parametrize("data_shape,ids_shape,n", [
    ((6,), (6,), 4), ((6, 3), (6,), 5), ((2, 3, 4), (2, 3), 3), ((5, 2, 2), (5,), 1),
    ((0, 3), (0,), 2), ((4, 3), (4,), 0 + 1)])
@pytest.mark.parametrize("idtype", [np.int32, np.int64])
def test_matches_numpy(dtype, data_shape, ids_shape, n, idtype):
  rng = np.random.default_rng(sum(data_shape) + n)
  data = (rng.standard_normal(data_shape) * 10).astype(dtype)
  ids = rng.integers(-1, n, ids_shape).astype(idtype)
  with tf.Graph().as_default():
    out = tf.unsorted_segment_sum(data, ids, n)
    assert out.get_shape().as_list() == [n] + list(data_shape[len(ids_shape):])
    with tf.Session() as s:
      got = s.run(out)
  want = _np_segment_sum(data, ids, n)
  assert got.dtype == want.dtype
  np.testing.assert_allclose(got, want, rtol=1e-6)


def test_large_rows_use_the_pool_and_keep_the_order():
  rng = np.random.default_rng(0)
  data = rng.standard_normal((3000, 70)).astype(np.float32)
  ids = rng.integers(0, 50, 3000).astype(np.int32)
  with tf.Graph().as_default():
    out = tf.unsorted_segment_sum(data, ids, 50)
    results = []
    for threads in (1, 2):
      with tf.Session(config=tf.ConfigProto(intra_op_parallelism_threads=threads)) as s:
        results.append(s.run(out))
  np.testing.assert_allclose(results[0], _np_segment_sum(data, ids, 50), rtol=1e-4, atol=1e-4)
  np.testing.assert_array_equal(results[0], results[1])


def test_half_accumulates_in_float():
  data = np.full((8, 2), 0.1, np.float16)
  with tf.Graph().as_default(), tf.Session() as s:
    got = s.run(tf.unsorted_segment_sum(data, np.zeros(8, np.int32), 1))
  assert got.dtype == np.float16
  np.testing.assert_allclose(got, [[0.8, 0.8]], rtol=1e-3)


def test_fed_num_segments_gives_unknown_leading_dim():
  with tf.Graph().as_default():
    n = tf.placeholder(tf.int32, [])
    out = tf.unsorted_segment_sum(tf.ones([4, 3]), [0, 1, 1, 2], n)
    assert out.get_shape().as_list() == [None, 3]
    with tf.Session() as s:
      np.testing.assert_array_equal(s.run(out, {n: 3}), [[1] * 3, [2] * 3, [1] * 3])


def test_id_out_of_range_fails_with_tf_message():
  with tf.Graph().as_default():
    out = tf.unsorted_segment_sum(tf.ones([3, 2]), tf.constant([0, 5, 1]), 3, name="seg")
    with tf.Session() as s:
      with pytest.raises(tf.errors.InvalidArgumentError,
                         match=r"segment_ids\[1\] = 5 is out of range \[0, 3\)") as e:
        s.run(out)
  assert "seg" in str(e.value)


def test_shape_errors_at_build_time():
  with tf.Graph().as_default():
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 3 and 4"):
      tf.unsorted_segment_sum(tf.ones([3, 2]), tf.constant([0, 1, 2, 3]), 2)
    with pytest.raises(ValueError, match="must be rank 0"):
      tf.unsorted_segment_sum(tf.ones([3]), tf.constant([0, 1, 2]), [2])
    with pytest.raises(ValueError, match="must be non-negative"):
      tf.unsorted_segment_sum(tf.ones([3]), tf.constant([0, 1, 2]), -1)


def test_runtime_prefix_and_negative_count_errors():
  with tf.Graph().as_default():
    d = tf.placeholder(tf.float32)
    i = tf.placeholder(tf.int32)
    n = tf.placeholder(tf.int32)
    out = tf.unsorted_segment_sum(d, i, n)
    with tf.Session() as s:
      with pytest.raises(tf.errors.InvalidArgumentError,
                         match=r"data.shape = \[3,2\] does not start with segment_ids.shape = \[2\]"):
        s.run(out, {d: np.ones((3, 2)), i: [0, 1], n: 2})
      with pytest.raises(tf.errors.InvalidArgumentError, match="must not be negative"):
        s.run(out, {d: np.ones((3,)), i: [0, 1, 0], n: -2})


def test_gradient_finite_differences():
  rng = np.random.default_rng(3)
  data = rng.standard_normal((5, 3))
  with tf.Graph().as_default():
    x = tf.constant(data)
    y = tf.unsorted_segment_sum(x, tf.constant([2, -1, 0, 2, 1]), 4)
    err = tf.test.compute_gradient_error(x, [5, 3], y, [4, 3], x_init_value=data)
  assert err < 1e-8
  with tf.Graph().as_default():
    x = tf.constant(data)
    y = tf.unsorted_segment_sum(x, tf.constant([2, -1, 0, 2, 1]), 4)
    g = tf.gradients(tf.reduce_sum(y * tf.constant(np.arange(12.0).reshape(4, 3))), x)[0]
    with tf.Session() as s:
      got = s.run(g)
  want = np.arange(12.0).reshape(4, 3)[[2, 0, 0, 2, 1]]
  want[1] = 0
  np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("shape,idx", [((7, 3), [[1, 4], [4, 6]]), ((5,), [0, 0, 3]),
                                       ((4, 2, 3), [3, 1])])
def test_gather_gradient_sums_repeated_rows(shape, idx):
  rng = np.random.default_rng(len(shape))
  p = rng.standard_normal(shape)
  with tf.Graph().as_default():
    params = tf.constant(p)
    y = tf.gather(params, tf.constant(idx))
    err = tf.test.compute_gradient_error(params, list(shape), y, y.get_shape().as_list(),
                                         x_init_value=p)
    assert err < 1e-8
    g = tf.gradients(tf.reduce_sum(y), params)[0]
    assert isinstance(g, tf.IndexedSlices)  # as TF: the rows gathered, not a dense tensor
    g = tf.convert_to_tensor(g)
    assert any(op.type == "UnsortedSegmentSum" for op in tf.get_default_graph().get_operations())
    with tf.Session() as s:
      got = s.run(g)
  want = np.zeros(shape)
  for i in np.reshape(idx, -1):
    want[i] += 1
  np.testing.assert_array_equal(got, want)


def test_gather_gradient_with_unknown_params_shape():
  with tf.Graph().as_default():
    p = tf.placeholder(tf.float64, [None, 2])
    y = tf.gather(p, [2, 0, 2])
    g = tf.convert_to_tensor(tf.gradients(tf.reduce_sum(y), p)[0])
    with tf.Session() as s:
      got = s.run(g, {p: np.ones((4, 2))})
  np.testing.assert_array_equal(got, [[1, 1], [0, 0], [2, 2], [0, 0]])
