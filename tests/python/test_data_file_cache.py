"""Dataset.cache(filename): TensorFlow's tensor-bundle cache files (keys
"%7d_%d"), written by a first complete pass and read by later iterators, TF's
errors for a cache being written concurrently or already present, partial
caches removed, and the position saved in checkpoints. Files exchanged with
real TensorFlow: test_compat_data.py (data_oracle.py)."""
import os

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


def test_first_pass_writes_the_bundle_and_later_passes_read_it(tmp_path):
  fn = str(tmp_path / "sub" / "cache")
  with tf.Graph().as_default():
    nxt = tf.data.Dataset.range(3).cache(fn).make_one_shot_iterator().get_next()
    with tf.Session() as s:
      # as in TensorFlow, the directory must exist
      with pytest.raises(tf.errors.NotFoundError, match="sub/cache_0.lockfile; No such file or directory"):
        s.run(nxt)
  os.mkdir(tmp_path / "sub")
  with tf.Graph().as_default():
    x = tf.placeholder(tf.int64, [None])
    ds = tf.data.Dataset.from_tensor_slices(x).map(lambda v: (v * 2, tf.as_string(v))).cache(fn)
    it = ds.make_initializable_iterator()
    nxt = it.get_next()
    with tf.Session() as s:
      s.run(it.initializer, {x: np.arange(5)})
      first = _drain(s, nxt)
      assert sorted(os.listdir(tmp_path / "sub")) == ["cache.data-00000-of-00001", "cache.index"]
      # the cache, not the new input, gives the elements now
      s.run(it.initializer, {x: np.arange(100, 103)})
      assert _drain(s, nxt) == first
  assert first == [(2 * i, str(i).encode()) for i in range(5)]
  reader = tf.train.NewCheckpointReader(fn)
  shapes = reader.get_variable_to_shape_map()
  assert sorted(shapes) == ["      %d_%d" % (i, c) for i in range(5) for c in range(2)]
  assert reader.get_tensor("      3_0") == 6


def test_a_new_session_reads_the_files(tmp_path):
  fn = str(tmp_path / "c")
  for values in (np.arange(4), np.zeros(4, np.int64)):
    with tf.Graph().as_default():
      nxt = tf.data.Dataset.from_tensor_slices(values).cache(fn).make_one_shot_iterator().get_next()
      with tf.Session() as s:
        assert _drain(s, nxt) == [0, 1, 2, 3]


def test_concurrent_writer_and_existing_shard_are_already_exists(tmp_path):
  fn = str(tmp_path / "c")
  with tf.Graph().as_default():
    ds = tf.data.Dataset.range(10).cache(fn)
    it1 = ds.make_initializable_iterator()
    it2 = ds.make_initializable_iterator()
    n1, n2 = it1.get_next(), it2.get_next()
    with tf.Session() as s:
      s.run([it1.initializer, it2.initializer])
      assert s.run(n1) == 0
      with pytest.raises(tf.errors.AlreadyExistsError,
                         match="There appears to be a concurrent caching iterator running - cache lockfile already "
                               "exists \\('.*c_0.lockfile'\\).*Lockfile contents: Created at: "):
        s.run(n2)
      # the first writer finishes; the lockfile goes with the merge
      assert _drain(s, n1) == list(range(1, 10))
    assert sorted(os.listdir(tmp_path)) == ["c.data-00000-of-00001", "c.index"]
  (tmp_path / "d_0.index").write_bytes(b"")
  with tf.Graph().as_default():
    nxt = tf.data.Dataset.range(3).cache(str(tmp_path / "d")).make_one_shot_iterator().get_next()
    with tf.Session() as s:
      with pytest.raises(tf.errors.AlreadyExistsError, match="Existing cache files found: \n.*d_0.index\n"
                                                             ".*d_0.data-00000-of-00001\nTo continue delete"):
        s.run(nxt)


def test_a_partial_cache_is_removed_and_written_again(tmp_path):
  fn = str(tmp_path / "c")
  with tf.Graph().as_default():
    it = tf.data.Dataset.range(6).cache(fn).make_initializable_iterator()
    nxt = it.get_next()
    with tf.Session() as s:
      s.run(it.initializer)
      assert [s.run(nxt) for _ in range(3)] == [0, 1, 2]
      s.run(it.initializer)  # drops the unfinished writer
      assert os.listdir(tmp_path) == []
      assert _drain(s, nxt) == list(range(6))
  assert sorted(os.listdir(tmp_path)) == ["c.data-00000-of-00001", "c.index"]


@pytest.mark.parametrize("before", [0, 2, 6, 7])
def test_checkpointed_writer_continues_in_a_new_shard(tmp_path, before):
  fn = str(tmp_path / "c")
  with tf.Graph().as_default():
    ds = tf.data.Dataset.range(7).map(lambda v: v * 10).cache(fn)
    it = ds.make_initializable_iterator()
    nxt = it.get_next()
    saver = tf.train.Saver([tf.data.experimental.make_saveable_from_iterator(it)])
    with tf.Session() as s:
      s.run(it.initializer)
      head = [s.run(nxt) for _ in range(before)]
      path = saver.save(s, str(tmp_path / "ckpt" / "it"))
    # the first session ended mid-pass: its unfinished shard is gone, the saved one stays
    with tf.Session() as s:
      s.run(it.initializer)
      saver.restore(s, path)
      tail = _drain(s, nxt)
    assert head + tail == [10 * i for i in range(7)]
    with tf.Session() as s:
      s.run(it.initializer)
      assert _drain(s, nxt) == [10 * i for i in range(7)]  # read from the merged cache
  assert "c.index" in os.listdir(tmp_path)
  assert not [f for f in os.listdir(tmp_path) if f.endswith(".lockfile")]


def test_reader_position_is_saved(tmp_path):
  fn = str(tmp_path / "c")
  with tf.Graph().as_default():
    ds = tf.data.Dataset.range(5).cache(fn)
    it = ds.make_initializable_iterator()
    nxt = it.get_next()
    saver = tf.train.Saver([tf.data.experimental.make_saveable_from_iterator(it)])
    with tf.Session() as s:
      s.run(it.initializer)
      _drain(s, nxt)
      s.run(it.initializer)
      s.run(nxt)
      s.run(nxt)
      path = saver.save(s, str(tmp_path / "it"))
    with tf.Session() as s:
      s.run(it.initializer)
      saver.restore(s, path)
      assert _drain(s, nxt) == [2, 3, 4]
