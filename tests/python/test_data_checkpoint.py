"""Iterator state in checkpoints: make_saveable_from_iterator, SerializeIterator
and DeserializeIterator. A Saver saves where an iterator is (shuffle buffers and
seed generators, repeat counts, open files, interleaved inputs, prefetched and
cached elements) and a restore in a new session continues from there, as in
TensorFlow; datasets with outside state fail as TF does."""
import numpy as np
import pytest

import tfc as tf


def _take(sess, nxt, n):
  return [sess.run(nxt) for _ in range(n)]


def _drain(sess, nxt, limit=100000):
  out = []
  for _ in range(limit):
    try:
      out.append(sess.run(nxt))
    except tf.errors.OutOfRangeError:
      return out
  raise AssertionError("no end of sequence")


def _same(a, b):
  assert len(a) == len(b)
  for x, y in zip(a, b):
    if isinstance(x, dict):
      assert sorted(x) == sorted(y)
      for k in x:
        np.testing.assert_array_equal(x[k], y[k])
    elif isinstance(x, tuple):
      for u, v in zip(x, y):
        np.testing.assert_array_equal(u, v)
    else:
      np.testing.assert_array_equal(x, y)


def _roundtrip(tmp_path, make_ds, before, one_shot=False):
  """Runs `before` elements, saves, drains the rest (the reference), then
  restores in a new session and drains again; returns both lists."""
  with tf.Graph().as_default():
    ds = make_ds()
    it = ds.make_one_shot_iterator() if one_shot else ds.make_initializable_iterator()
    nxt = it.get_next()
    saveable = tf.data.experimental.make_saveable_from_iterator(it)
    tf.add_to_collection(tf.GraphKeys.SAVEABLE_OBJECTS, saveable)
    saver = tf.train.Saver()
    with tf.Session() as s:
      if not one_shot:
        s.run(it.initializer)
      _take(s, nxt, before)
      path = saver.save(s, str(tmp_path / "it"))
      expected = _drain(s, nxt)
    with tf.Session() as s:
      if not one_shot:
        s.run(it.initializer)
      saver.restore(s, path)
      got = _drain(s, nxt)
  return expected, got


def test_shuffle_repeat_batch_continues_as_tensorflow_does(tmp_path):
  expected, got = _roundtrip(
      tmp_path, lambda: tf.data.Dataset.range(20).shuffle(5, seed=42).repeat(2).batch(3), 3)
  _same(expected, got)
  # real TensorFlow (2.21, compat.v1) restored the same checkpoint position to these
  # batches, the second epoch's reshuffled order included
  tf_first = [[1, 11, 8], [16, 15, 14], [18, 19, 12], [17, 13, 3], [5, 2, 1], [8, 4, 0],
              [11, 12, 13], [7, 9, 15], [10, 17, 14], [18, 6, 16]]
  assert [list(b) for b in got[:10]] == tf_first


def test_checkpoint_holds_one_variant_entry(tmp_path):
  with tf.Graph().as_default():
    it = tf.data.Dataset.range(5).make_initializable_iterator()
    nxt = it.get_next()
    saver = tf.train.Saver([tf.data.experimental.make_saveable_from_iterator(it)])
    with tf.Session() as s:
      s.run(it.initializer)
      s.run(nxt)
      path = saver.save(s, str(tmp_path / "m"))
  reader = tf.train.NewCheckpointReader(path)
  key = it._iterator_resource.name + "_STATE"
  assert reader.get_variable_to_dtype_map() == {key: tf.variant}
  assert reader.get_variable_to_shape_map() == {key: [1]}


@pytest.mark.parametrize("before", [0, 1, 7, 19, 20])
def test_sources_and_counting_transforms(tmp_path, before):
  def make():
    a = tf.data.Dataset.from_tensor_slices(np.arange(12, dtype=np.float32).reshape(6, 2))
    b = tf.data.Dataset.range(100, 106)
    z = tf.data.Dataset.zip((a, b))
    return z.concatenate(z.skip(2)).repeat(2).take(19).skip(1)
  expected, got = _roundtrip(tmp_path, make, min(before, 18))
  _same(expected, got)


def test_reshuffling_each_epoch_without_seed_continues(tmp_path):
  tf.set_random_seed(7)
  expected, got = _roundtrip(
      tmp_path, lambda: tf.data.Dataset.range(30).shuffle(8).repeat(3), 41)
  _same(expected, got)


def _write_records(tmp_path, nfiles=3, per_file=5, compression=None):
  names = []
  opts = tf.python_io.TFRecordOptions(compression) if compression else None
  for f in range(nfiles):
    name = str(tmp_path / ("r%d.tfrecord" % f))
    with tf.python_io.TFRecordWriter(name, opts) as w:
      for i in range(per_file):
        w.write(("file%d-rec%d" % (f, i)).encode())
    names.append(name)
  return names


@pytest.mark.parametrize("before", [0, 3, 5, 9, 15])
@pytest.mark.parametrize("compression", [None, "GZIP"])
def test_tfrecord_files_continue_mid_file(tmp_path, before, compression):
  names = _write_records(tmp_path, compression=compression)
  expected, got = _roundtrip(
      tmp_path, lambda: tf.data.TFRecordDataset(names, compression_type=compression or ""), before)
  assert got == expected
  assert len(got) == 15 - before


def test_text_and_fixed_length_files(tmp_path):
  text = tmp_path / "lines.txt"
  text.write_text("".join("line %d\n" % i for i in range(10)))
  expected, got = _roundtrip(tmp_path, lambda: tf.data.TextLineDataset([str(text)]), 4)
  assert got == expected == [("line %d" % i).encode() for i in range(4, 10)]
  fixed = tmp_path / "fixed.bin"
  fixed.write_bytes(b"H" + bytes(range(40)))
  expected, got = _roundtrip(
      tmp_path, lambda: tf.data.FixedLengthRecordDataset([str(fixed)], 4, header_bytes=1), 3)
  assert got == expected and len(got) == 7


def test_map_filter_flat_map_and_interleave(tmp_path):
  def make():
    ds = tf.data.Dataset.range(1, 9).map(lambda x: x * 3).filter(lambda x: x % 2 > 0)
    ds = ds.flat_map(lambda x: tf.data.Dataset.from_tensors(x).repeat(2))
    return ds.interleave(lambda x: tf.data.Dataset.range(x, x + 4), cycle_length=3, block_length=2)
  for before in (0, 5, 11, 23):
    expected, got = _roundtrip(tmp_path, make, before)
    _same(expected, got)


def test_interleave_order_after_restore_is_tensorflows(tmp_path):
  make = lambda: tf.data.Dataset.range(1, 4).interleave(  # noqa: E731
      lambda x: tf.data.Dataset.from_tensors(x).repeat(3), cycle_length=2, block_length=2)
  expected, got = _roundtrip(tmp_path, make, 3)
  assert got == expected == [2, 1, 2, 3, 3, 3]


def test_parallel_map_and_prefetch(tmp_path):
  def make():
    return (tf.data.Dataset.range(50).map(lambda x: x * x, num_parallel_calls=3)
            .batch(4).prefetch(3))
  for before in (0, 2, 6, 12, 13):
    expected, got = _roundtrip(tmp_path, make, before)
    _same(expected, got)


def test_memory_cache_filling_and_replaying(tmp_path):
  make = lambda: tf.data.Dataset.range(6).map(lambda x: x + 10).cache().repeat(3)  # noqa: E731
  for before in (0, 4, 6, 9, 17):
    expected, got = _roundtrip(tmp_path, make, before)
    assert got == expected
    assert len(got) == 18 - before


def test_one_shot_iterator(tmp_path):
  expected, got = _roundtrip(
      tmp_path, lambda: tf.data.Dataset.range(10).shuffle(4, seed=3), 4, one_shot=True)
  assert got == expected and len(got) == 6


def test_strings_and_dict_elements(tmp_path):
  def make():
    ds = tf.data.Dataset.from_tensor_slices({"s": np.array([b"a", b"bb", b"", b"dddd"] * 3),
                                             "v": np.arange(12, dtype=np.int32)})
    return ds.shuffle(5, seed=1)
  expected, got = _roundtrip(tmp_path, make, 5)
  _same(expected, got)


def test_from_generator_fails_as_tensorflow_does_unless_ignored(tmp_path):
  with tf.Graph().as_default():
    ds = tf.data.Dataset.from_generator(lambda: iter(range(10)), tf.int64)
    it = ds.make_initializable_iterator()
    nxt = it.get_next()
    saver = tf.train.Saver([tf.data.experimental.make_saveable_from_iterator(it)])
    ignoring = tf.train.Saver(
        [tf.data.experimental.make_saveable_from_iterator(it, external_state_policy="ignore")])
    with tf.Session() as s:
      s.run(it.initializer)
      s.run(nxt)
      with pytest.raises(tf.errors.FailedPreconditionError, match="PyFunc is stateful"):
        saver.save(s, str(tmp_path / "g"))
      path = ignoring.save(s, str(tmp_path / "g2"))
      ignoring.restore(s, path)
      assert s.run(nxt) == 0  # the generator starts again
  with pytest.raises(ValueError):
    tf.data.experimental.make_saveable_from_iterator(it, external_state_policy="sometimes")


def test_restore_errors(tmp_path):
  with tf.Graph().as_default():
    it = tf.data.Dataset.range(10).make_initializable_iterator()
    nxt = it.get_next()
    saver = tf.train.Saver([tf.data.experimental.make_saveable_from_iterator(it)])
    with tf.Session() as s:
      with pytest.raises(tf.errors.FailedPreconditionError, match="Save\\(\\) failed because the iterator"):
        s.run(saver.saver_def.save_tensor_name,
              {saver.saver_def.filename_tensor_name: str(tmp_path / "x")})
      s.run(it.initializer)
      s.run(nxt)
      path = saver.save(s, str(tmp_path / "r"))
    with tf.Session() as s:
      with pytest.raises(tf.errors.FailedPreconditionError,
                         match="Restore\\(\\) failed because the iterator has not been initialized"):
        saver.restore(s, path)
  # another dataset behind an iterator of the same name and structure
  with tf.Graph().as_default():
    it = tf.data.Dataset.range(10).map(lambda x: x * 2).make_initializable_iterator()
    nxt = it.get_next()
    saver = tf.train.Saver([tf.data.experimental.make_saveable_from_iterator(it)])
    with tf.Session() as s:
      s.run(it.initializer)
      with pytest.raises(tf.errors.NotFoundError, match="Make sure the dataset definition has not changed"):
        saver.restore(s, path)
      assert s.run(nxt) == 0  # the iterator is left as it was


def test_serialize_and_deserialize_ops_directly():
  with tf.Graph().as_default():
    it = tf.data.Dataset.range(10).batch(3).make_initializable_iterator()
    nxt = it.get_next()
    from tfc.framework.op_def_library import _apply_op
    state = _apply_op("SerializeIterator", "SerializeIterator", [it._iterator_resource]).outputs[0]
    assert state.dtype == tf.variant and state.shape.as_list() == [None]
    restore = _apply_op("DeserializeIterator", "DeserializeIterator", [it._iterator_resource, state])
    with tf.Session() as s:
      s.run(it.initializer)
      s.run(nxt)
      # serialising and restoring in one step keeps the position
      s.run(restore)
      assert list(s.run(nxt)) == [3, 4, 5]
