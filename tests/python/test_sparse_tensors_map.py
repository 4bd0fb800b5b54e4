"""AddSparseToTensorsMap, AddManySparseToTensorsMap and
TakeManySparseFromTensorsMap (TF's SparseTensorsMap: handles numbered from 0
per map, rows with entries first, take removes and stacks) and sparse tensors
through tf.train.batch; expected values and messages are TensorFlow 2.21's
for the same calls (test_compat_sparse_batching.py compares whole pipelines
with TensorFlow)."""
import numpy as np
import pytest

import tfc as tf
from tfc.ops import sparse_ops

add = sparse_ops._add_sparse_to_tensors_map  # pylint: disable=protected-access
add_many = sparse_ops._add_many_sparse_to_tensors_map  # pylint: disable=protected-access
take = sparse_ops._take_many_sparse_from_tensors_map  # pylint: disable=protected-access
ST = tf.SparseTensor


def _check(st, indices, values, shape):
  np.testing.assert_array_equal(st.indices, indices)
  np.testing.assert_array_equal(st.values, values)
  np.testing.assert_array_equal(st.dense_shape, shape)


def test_handles_take_and_removal_as_tensorflow():
  with tf.Graph().as_default(), tf.Session() as s:
    h1 = add(ST([[0, 1], [2, 0]], [1., 2.], [3, 4]), shared_name="m")
    h2 = add(ST([[1, 1]], [5.], [2, 6]), shared_name="m")
    hm = add_many(ST([[0, 1, 0], [2, 0, 1], [2, 1, 1]], [7., 8., 9.], [4, 3, 2]), shared_name="m")
    assert h1.op.type == "AddSparseToTensorsMap" and hm.op.type == "AddManySparseToTensorsMap"
    assert s.run(h1) == 0
    assert s.run(h2) == 1
    np.testing.assert_array_equal(s.run(hm), [2, 4, 3, 5])  # rows with entries first
    t = take(h1.op, tf.constant([0, 3, 1, 5], tf.int64), rank=3)
    assert t.indices.shape.as_list() == [None, 3]
    _check(s.run(t), [[0, 0, 1], [0, 2, 0], [1, 0, 1], [1, 1, 1], [2, 1, 1]],
           [1., 2., 8., 9., 5.], [4, 3, 6])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Unable to find SparseTensor: 0 in map: m"):
      s.run(t)
    # an empty shared_name names the map after the adding node
    h3 = add(ST([[1]], [5.], [2]), name="noname")
    assert s.run(h3) == 0
    _check(s.run(take(h3.op, tf.constant([0], tf.int64))), [[0, 1]], [5.], [1, 2])
    hs = add(ST([[1, 1]], ["a"], [2, 2]), shared_name="m")
    assert s.run(hs) == 6
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Requested SparseTensor of type float but SparseTensor\[0\].values.dtype\(\) "
                             "== string"):
      s.run(take(h1.op, tf.constant([6], tf.int64)))


def test_map_errors_as_tensorflow():
  with tf.Graph().as_default(), tf.Session() as s:
    cases = [
        (add_many(ST([[1]], [5.], [2]), shared_name="m"),
         "Rank of input SparseTensor should be > 1, but saw rank: 1"),
        (add(ST([[1, 1]], [5., 3.], [2, 2]), shared_name="m"),
         r"indices and values rows \(indexing dimension\) must match. \(indices = 1, values = 2\)"),
        (add_many(ST([[1, 1], [0, 0]], [5., 3.], [2, 2]), shared_name="m"),
         r"indices\[1\] = \[0,0\] is out of order. Many sparse ops require sorted indices."),
        (add_many(ST([[1, 1], [1, 1]], [5., 3.], [2, 2]), shared_name="m"),
         r"indices\[1\] = \[1,1\] is repeated"),
        (add_many(ST([[3, 1]], [5.], [2, 2]), shared_name="m"),
         r"indices\[0\] = \[3,1\] is out of bounds: need 0 <= index < \[2,2\]"),
    ]
    for fetch, msg in cases:
      with pytest.raises(tf.errors.InvalidArgumentError, match=msg):
        s.run(fetch)
    h = add(ST([[0]], [1.], [1]), shared_name="m")
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Must have at least 1 serialized SparseTensor, but input matrix has 0 rows"):
      s.run(take(h.op, tf.zeros([0], tf.int64)))
    with pytest.raises(TypeError, match="sparse_map_op must be one of"):
      take(tf.constant(1).op, tf.zeros([1], tf.int64))


def test_batch_of_sparse_tensors_by_hand():
  with tf.Graph().as_default():
    counter = tf.train.range_input_producer(4, num_epochs=1, shuffle=False).dequeue()
    n = tf.cast(counter, tf.int64)
    sp = ST(tf.reshape(tf.range(n), [-1, 1]), tf.cast(tf.range(n), tf.float32) + 0.5,
            tf.reshape(n, [1]))
    b_sp, b_n = tf.train.batch([sp, n], 3, allow_smaller_final_batch=True)
    assert isinstance(b_sp, tf.SparseTensor)
    assert b_sp.indices.shape.as_list() == [None, 2]
    with tf.Session() as s:
      s.run(tf.local_variables_initializer())
      coord = tf.train.Coordinator()
      threads = tf.train.start_queue_runners(s, coord)
      first = s.run([b_sp, b_n])
      second = s.run([b_sp, b_n])
      with pytest.raises(tf.errors.OutOfRangeError):
        s.run(b_n)
      coord.request_stop()
      coord.join(threads)
  _check(first[0], [[1, 0], [2, 0], [2, 1]], [0.5, 0.5, 1.5], [3, 2])
  np.testing.assert_array_equal(first[1], [0, 1, 2])
  _check(second[0], [[0, 0], [0, 1], [0, 2]], [0.5, 1.5, 2.5], [1, 3])


def test_join_needs_consistent_sparse_components():
  with tf.Graph().as_default():
    sp = ST([[0]], [1.], [1])
    with pytest.raises(ValueError, match="Inconsistent SparseTensors list"):
      tf.train.batch_join([[sp], [tf.constant([1.])]], 2)


def test_shuffle_batch_join_and_maybe_shuffle_batch_with_sparse():
  with tf.Graph().as_default():
    def element(k):
      n = tf.cast(tf.train.range_input_producer(4, num_epochs=1, shuffle=False).dequeue(), tf.int64)
      sp = ST(tf.reshape(tf.range(n), [-1, 1]), tf.fill([n], n + 10 * k), tf.reshape(n, [1]))
      return [sp, n + 10 * k]
    b_sp, b_label = tf.train.shuffle_batch_join([element(0), element(1)], 8, capacity=16,
                                                min_after_dequeue=0, seed=3,
                                                allow_smaller_final_batch=True)
    m_sp, m_label = tf.train.maybe_shuffle_batch(element(2), 2, 16, 0, keep_input=True, seed=4,
                                                 allow_smaller_final_batch=True)
    with tf.Session() as s:
      s.run(tf.local_variables_initializer())
      coord = tf.train.Coordinator()
      threads = tf.train.start_queue_runners(s, coord)
      sp, label = s.run([b_sp, b_label])
      msp, mlabel = s.run([m_sp, m_label])
      coord.request_stop()
      coord.join(threads)
  assert sorted(label.tolist()) == [0, 1, 2, 3, 10, 11, 12, 13]
  for row, lab in enumerate(label.tolist()):  # each row's values are its own label
    vals = [v for (r, _), v in zip(sp.indices.tolist(), sp.values.tolist()) if r == row]
    assert vals == [lab] * (lab % 10)
  assert sp.dense_shape.tolist() == [8, 3]
  for row, lab in enumerate(mlabel.tolist()):
    vals = [v for (r, _), v in zip(msp.indices.tolist(), msp.values.tolist()) if r == row]
    assert vals == [lab] * (lab % 10)
