"""Parallel interleave: Dataset.interleave(num_parallel_calls=...)
(ParallelInterleaveDatasetV2) and tf.data.experimental.parallel_interleave
(ParallelInterleaveDataset): worker threads run the cycle's inner datasets
ahead of the consumer and the order stays interleave's (TF's deterministic
order; orders against real TensorFlow in test_compat_data.py); sloppy hands
out whichever element is ready."""
import random

import numpy as np
import pytest

import tfc as tf


def _drain(sess, nxt):
  out = []
  while True:
    try:
      out.append(sess.run(nxt))
    except tf.errors.OutOfRangeError:
      return out


def _run(ds):
  with tf.Session() as s:
    return _drain(s, ds.make_one_shot_iterator().get_next())


def test_same_order_as_sequential_interleave_for_many_shapes():
  rng = random.Random(5)
  with tf.Graph().as_default():
    for _ in range(12):
      n, cycle, block, par = rng.randint(0, 9), rng.randint(1, 5), rng.randint(1, 4), rng.randint(1, 6)
      sizes = [rng.randint(0, 5) for _ in range(n)]
      def mk(x, sizes=sizes):
        return tf.data.Dataset.range(x * 100, x * 100 + tf.constant(sizes + [0], dtype=tf.int64)[x])
      src = tf.data.Dataset.range(n)
      want = _run(src.interleave(mk, cycle_length=cycle, block_length=block))
      assert _run(src.interleave(mk, cycle_length=cycle, block_length=block, num_parallel_calls=par)) == want
      got = _run(src.apply(tf.data.experimental.parallel_interleave(mk, cycle_length=cycle, block_length=block)))
      assert got == want
      sloppy = _run(src.apply(tf.data.experimental.parallel_interleave(
          mk, cycle_length=cycle, block_length=block, sloppy=True, buffer_output_elements=1)))
      assert sorted(sloppy) == sorted(want)
      assert len(want) == sum(sizes)


def test_graph_ops_are_tensorflows():
  with tf.Graph().as_default() as g:
    tf.data.Dataset.range(3).interleave(lambda x: tf.data.Dataset.range(x), cycle_length=2,
                                        num_parallel_calls=2)
    tf.data.Dataset.range(3).apply(tf.data.experimental.parallel_interleave(
        lambda x: tf.data.Dataset.range(x), cycle_length=2))
    types = {op.type for op in g.get_operations()}
    assert {"ParallelInterleaveDatasetV2", "ParallelInterleaveDataset"} <= types


def test_files_read_in_parallel_keep_their_order(tmp_path):
  names = []
  for f in range(4):
    name = str(tmp_path / ("f%d.tfrecord" % f))
    with tf.python_io.TFRecordWriter(name) as w:
      for i in range(50):
        w.write(b"%d:%d" % (f, i))
    names.append(name)
  with tf.Graph().as_default():
    files = tf.data.Dataset.from_tensor_slices(names)
    mk = lambda f: tf.data.TFRecordDataset(f).map(lambda r: tf.string_split([r], ":").values[1])  # noqa: E731
    want = _run(files.interleave(mk, cycle_length=3, block_length=4))
    got = _run(files.interleave(mk, cycle_length=3, block_length=4, num_parallel_calls=3).batch(7))
    assert [x for b in got for x in b] == want and len(want) == 200


def test_inner_errors_reach_get_next_and_close_does_not_hang(tmp_path):
  with tf.Graph().as_default():
    files = tf.data.Dataset.from_tensor_slices([str(tmp_path / "missing.tfrecord")])
    nxt = files.interleave(tf.data.TFRecordDataset, cycle_length=2, num_parallel_calls=2) \
        .make_one_shot_iterator().get_next()
    with tf.Session() as s:
      with pytest.raises(tf.errors.NotFoundError):
        s.run(nxt)
    # an endless inner dataset with its workers running, then the session goes away
    inf = tf.data.Dataset.range(4).interleave(lambda x: tf.data.Dataset.range(x).repeat(), cycle_length=4,
                                              num_parallel_calls=4)
    it = inf.make_initializable_iterator()
    n2 = it.get_next()
    s = tf.Session()
    s.run(it.initializer)
    for _ in range(50):
      s.run(n2)
    s.close()


@pytest.mark.parametrize("before", [0, 1, 5, 11, 19])
def test_position_saved_in_checkpoints(tmp_path, before):
  with tf.Graph().as_default():
    ds = tf.data.Dataset.range(1, 7).interleave(
        lambda x: tf.data.Dataset.range(x * 10, x * 10 + x), cycle_length=3, block_length=2,
        num_parallel_calls=3)
    it = ds.make_initializable_iterator()
    nxt = it.get_next()
    saver = tf.train.Saver([tf.data.experimental.make_saveable_from_iterator(it)])
    with tf.Session() as s:
      s.run(it.initializer)
      head = [s.run(nxt) for _ in range(before)]
      path = saver.save(s, str(tmp_path / "it"))
      rest = _drain(s, nxt)
    with tf.Session() as s:
      s.run(it.initializer)
      saver.restore(s, path)
      assert _drain(s, nxt) == rest
  assert head + rest == [10, 20, 21, 30, 31, 40, 41, 32, 42, 43, 50, 51, 60, 61, 52, 53, 62, 63, 54, 64, 65]


def test_elements_with_several_components():
  with tf.Graph().as_default():
    ds = tf.data.Dataset.range(5).interleave(
        lambda x: tf.data.Dataset.from_tensor_slices((tf.fill([3], x), tf.as_string(tf.range(3)))),
        cycle_length=2, block_length=2, num_parallel_calls=2)
    got = _run(ds)
    want = _run(tf.data.Dataset.range(5).interleave(
        lambda x: tf.data.Dataset.from_tensor_slices((tf.fill([3], x), tf.as_string(tf.range(3)))),
        cycle_length=2, block_length=2))
    assert [(int(a), b) for a, b in got] == [(int(a), b) for a, b in want]
    assert np.array([a for a, _ in got]).shape == (15,)
