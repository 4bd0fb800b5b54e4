"""tf.data: datasets run in C as TF's dataset ops (variant handles), iterators
as resources, TF 1.x's iterator API and errors. Orders against real TensorFlow:
test_compat_data.py."""
import numpy as np
import pytest

import tfc as tf


def _drain(sess, nxt, limit=10000):
  out = []
  for _ in range(limit):
    try:
      out.append(sess.run(nxt))
    except tf.errors.OutOfRangeError:
      return out
  raise AssertionError("no end of sequence")


def test_shuffle_order_is_tensorflows():
  with tf.Graph().as_default():
    nxt = tf.data.Dataset.range(20).shuffle(5, seed=42).make_one_shot_iterator().get_next()
    with tf.Session() as s:
      assert _drain(s, nxt) == [0, 2, 3, 6, 7, 9, 4, 5, 10, 1, 11, 8, 16, 15, 14, 18, 19, 12, 17, 13]


def test_ops_are_tensorflows_dataset_ops_with_variant_handles():
  with tf.Graph().as_default() as g:
    ds = tf.data.Dataset.from_tensor_slices(np.arange(10)).shuffle(4, seed=1).batch(3).repeat(2).prefetch(1)
    assert ds._variant.dtype == tf.variant
    types = {op.type for op in g.get_operations()}
    assert {"TensorSliceDataset", "ShuffleDataset", "BatchDatasetV2", "RepeatDataset",
            "PrefetchDataset"} <= types
    it = ds.make_initializable_iterator()
    assert it._resource.dtype == tf.resource
    assert {"IteratorV2", "MakeIterator"} <= {op.type for op in g.get_operations()}


def test_structures_shapes_and_batch_none_dimension():
  with tf.Graph().as_default():
    ds = tf.data.Dataset.from_tensor_slices({"x": np.zeros((10, 3), np.float32),
                                             "y": np.arange(10)})
    assert ds.output_types == {"x": tf.float32, "y": tf.int64}
    assert ds.output_shapes["x"].as_list() == [3]
    b = ds.batch(4)
    assert b.output_shapes["x"].as_list() == [None, 3]
    assert ds.batch(4, drop_remainder=True).output_shapes["x"].as_list() == [4, 3]
    nxt = b.make_one_shot_iterator().get_next()
    assert isinstance(nxt, dict) and nxt["x"].shape.as_list() == [None, 3]
    with tf.Session() as s:
      sizes = [len(v["y"]) for v in _drain(s, nxt)]
      assert sizes == [4, 4, 2]
    lst = tf.data.Dataset.from_tensor_slices([[1, 2], [3, 4]])  # a list is one tensor
    assert lst.output_shapes.as_list() == [2]


def test_initializable_iterator_errors_and_reinit():
  with tf.Graph().as_default():
    n = tf.placeholder(tf.int64, [])
    it = tf.data.Dataset.range(n).make_initializable_iterator()
    nxt = it.get_next()
    with tf.Session() as s:
      with pytest.raises(tf.errors.FailedPreconditionError, match="not been initialized"):
        s.run(nxt)
      s.run(it.initializer, {n: 3})
      assert _drain(s, nxt) == [0, 1, 2]
      with pytest.raises(tf.errors.OutOfRangeError):
        s.run(nxt)  # stays at the end
      s.run(it.initializer, {n: 2})
      assert _drain(s, nxt) == [0, 1]


def test_reinitializable_and_feedable_iterators():
  with tf.Graph().as_default():
    train = tf.data.Dataset.range(100).map if False else tf.data.Dataset.range(5)
    val = tf.data.Dataset.range(10, 13)
    it = tf.data.Iterator.from_structure(train.output_types, train.output_shapes)
    nxt = it.get_next()
    init_train, init_val = it.make_initializer(train), it.make_initializer(val)
    with pytest.raises(TypeError):
      it.make_initializer(tf.data.Dataset.from_tensors(1.0))
    handle = tf.placeholder(tf.string, [])
    feed_it = tf.data.Iterator.from_string_handle(handle, train.output_types, train.output_shapes)
    fnxt = feed_it.get_next()
    a = train.repeat().make_one_shot_iterator()
    b = val.make_initializable_iterator()
    with tf.Session() as s:
      s.run(init_train)
      assert _drain(s, nxt) == [0, 1, 2, 3, 4]
      s.run(init_val)
      assert _drain(s, nxt) == [10, 11, 12]
      ha, hb = s.run([a.string_handle(), b.string_handle()])
      s.run(b.initializer)
      assert [s.run(fnxt, {handle: ha}) for _ in range(3)] == [0, 1, 2]
      assert s.run(fnxt, {handle: hb}) == 10
      assert s.run(fnxt, {handle: ha}) == 3
      with pytest.raises(tf.errors.InvalidArgumentError):
        s.run(fnxt, {handle: b"bogus"})


def test_one_shot_iterator_runs_once_per_session_and_module_functions():
  with tf.Graph().as_default():
    ds = tf.data.Dataset.from_tensors((np.float32(1.5), b"s")).repeat(3)
    it = tf.data.make_one_shot_iterator(ds)
    x, y = it.get_next()
    assert tf.data.get_output_types(ds) == (tf.float32, tf.string)
    with tf.Session() as s:
      assert _drain(s, [x, y]) == [[1.5, b"s"]] * 3
    with tf.Session() as s:  # a new session starts again
      assert len(_drain(s, x)) == 3


def test_files_and_errors(tmp_path):
  p = str(tmp_path / "a.tfrecord")
  with tf.python_io.TFRecordWriter(p) as w:
    for i in range(5):
      w.write(b"rec%d" % i)
  data = bytearray(open(p, "rb").read())
  bad = str(tmp_path / "bad.tfrecord")
  data[-3] ^= 1  # last record's data CRC
  open(bad, "wb").write(bytes(data))
  with tf.Graph().as_default():
    nxt = tf.data.TFRecordDataset([p, p]).batch(4).make_one_shot_iterator().get_next()
    bad_nxt = tf.data.TFRecordDataset(bad).make_one_shot_iterator().get_next()
    missing = tf.data.TFRecordDataset(str(tmp_path / "nope")).make_one_shot_iterator().get_next()
    with tf.Session() as s:
      assert [len(b) for b in _drain(s, nxt)] == [4, 4, 2]
      assert [s.run(bad_nxt) for _ in range(4)] == [b"rec0", b"rec1", b"rec2", b"rec3"]
      with pytest.raises(tf.errors.DataLossError):
        s.run(bad_nxt)
      with pytest.raises(tf.errors.NotFoundError):
        s.run(missing)


def test_batch_of_different_shapes_fails_and_padded_batch_pads():
  with tf.Graph().as_default():
    n = tf.placeholder(tf.int64, [None])
    ragged = tf.data.Dataset.zip((tf.data.Dataset.from_tensors(np.array([1, 2])),
                                  tf.data.Dataset.from_tensors(np.array([1, 2, 3]))))
    bad = ragged.make_one_shot_iterator()
    it = tf.data.Dataset.from_tensors(np.array([1])).concatenate(
        tf.data.Dataset.from_tensors(np.array([1, 2, 3]))).batch(2).make_one_shot_iterator().get_next()
    padded = tf.data.Dataset.from_tensors(np.array([1])).concatenate(
        tf.data.Dataset.from_tensors(np.array([2, 3, 4]))).padded_batch(2, [None]).make_one_shot_iterator()
    too_small = tf.data.Dataset.from_tensors(np.array([1, 2, 3])).padded_batch(
        1, [2]).make_one_shot_iterator().get_next()
    _ = n, bad
    with tf.Session() as s:
      with pytest.raises(tf.errors.InvalidArgumentError, match="Cannot batch tensors with different shapes"):
        s.run(it)
      assert s.run(padded.get_next()).tolist() == [[1, 0, 0], [2, 3, 4]]
      with pytest.raises(tf.errors.InvalidArgumentError, match="smaller size"):
        s.run(too_small)


def test_prefetch_and_cache():
  with tf.Graph().as_default():
    ds = tf.data.Dataset.range(1000).batch(10).prefetch(4)
    nxt = ds.make_one_shot_iterator().get_next()
    c = tf.data.Dataset.range(4).cache()
    it = c.make_initializable_iterator()
    cn = it.get_next()
    with tf.Session() as s:
      got = _drain(s, nxt)
      assert np.concatenate(got).tolist() == list(range(1000))
      for _ in range(2):
        s.run(it.initializer)
        assert _drain(s, cn) == [0, 1, 2, 3]


def test_closing_a_session_with_a_prefetching_iterator_does_not_hang():
  with tf.Graph().as_default():
    nxt = tf.data.Dataset.range(10 ** 9).prefetch(2).make_one_shot_iterator().get_next()
    s = tf.Session()
    assert s.run(nxt) == 0
    s.close()


def test_from_generator_values_errors_and_prefetch_thread():
  def gen():
    for i in range(5):
      yield i, [float(i)] * 2

  def bad():
    yield 1
    raise ValueError("boom from the generator")

  def wrong_shape():
    yield [1, 2, 3]

  with tf.Graph().as_default():
    ds = tf.data.Dataset.from_generator(gen, (tf.int64, tf.float32), ([], [2]))
    assert ds.output_shapes[1].as_list() == [2]
    x, y = ds.batch(2).prefetch(2).make_one_shot_iterator().get_next()
    b = tf.data.Dataset.from_generator(bad, tf.int32).make_one_shot_iterator().get_next()
    w = tf.data.Dataset.from_generator(wrong_shape, tf.int32, [2]).make_one_shot_iterator().get_next()
    args = tf.data.Dataset.from_generator(lambda n: range(n), tf.int64, args=(3,))
    a = args.make_initializable_iterator()
    an = a.get_next()
    with tf.Session() as s:
      got = _drain(s, [x, y])
      assert [v[0].tolist() for v in got] == [[0, 1], [2, 3], [4]]
      assert got[2][1].tolist() == [[4.0, 4.0]]
      assert s.run(b) == 1
      with pytest.raises(tf.errors.InvalidArgumentError, match="ValueError: boom from the generator"):
        s.run(b)
      with pytest.raises(tf.errors.InvalidArgumentError, match="shape"):
        s.run(w)
      for _ in range(2):  # each initialization calls the generator again
        s.run(a.initializer)
        assert _drain(s, an) == [0, 1, 2]


def test_map_interleave_filter_flat_map_run_graph_functions():
  with tf.Graph().as_default() as g:
    c = tf.constant(100, tf.int64)
    ds = tf.data.Dataset.range(6).map(lambda x: (x + c, tf.cast(x, tf.float32) * 0.5))
    assert ds.output_types == (tf.int64, tf.float32)
    assert {"MapDataset"} <= {op.type for op in g.get_operations()}
    nxt = ds.make_one_shot_iterator().get_next()
    par = tf.data.Dataset.range(50).map(lambda x: x * 3, num_parallel_calls=4).make_one_shot_iterator().get_next()
    inter = tf.data.Dataset.range(1, 4).interleave(
        lambda x: tf.data.Dataset.from_tensors(x).repeat(3), cycle_length=2, block_length=2)
    inx = inter.make_one_shot_iterator().get_next()
    flt = tf.data.Dataset.range(10).filter(lambda x: tf.equal(x % 2, 1)).make_one_shot_iterator().get_next()
    fm = tf.data.Dataset.range(4).flat_map(lambda x: tf.data.Dataset.range(x)).make_one_shot_iterator().get_next()
    bad = tf.data.Dataset.from_tensor_slices(np.array([1., 0., 2.], np.float32)).map(
        lambda x: tf.check_numerics(1.0 / x, "inf")).make_one_shot_iterator().get_next()
    with tf.Session() as s:
      got = _drain(s, nxt)
      assert [v[0] for v in got] == [100, 101, 102, 103, 104, 105]
      assert [v[1] for v in got] == [0, 0.5, 1, 1.5, 2, 2.5]
      assert _drain(s, par) == [3 * i for i in range(50)]  # parallel, in order
      assert _drain(s, inx) == [1, 1, 2, 2, 1, 2, 3, 3, 3]
      assert _drain(s, flt) == [1, 3, 5, 7, 9]
      assert _drain(s, fm) == [0, 0, 1, 0, 1, 2]
      assert s.run(bad) == 1.0
      with pytest.raises(tf.errors.InvalidArgumentError, match="inf"):
        s.run(bad)
      assert s.run(bad) == 0.5  # the next element after a failed one


def test_parse_in_map_with_prefetch_over_tfrecords(tmp_path):
  p = str(tmp_path / "ex.tfrecord")
  with tf.python_io.TFRecordWriter(p) as w:
    for i in range(10):
      w.write(tf.train.Example(features=tf.train.Features(feature={
          "x": tf.train.Feature(float_list=tf.train.FloatList(value=[i, -i])),
          "y": tf.train.Feature(int64_list=tf.train.Int64List(value=[i]))})).SerializeToString())
  feats = {"x": tf.FixedLenFeature([2], tf.float32), "y": tf.FixedLenFeature([], tf.int64)}
  with tf.Graph().as_default():
    ds = tf.data.TFRecordDataset(p).map(lambda s: tf.parse_single_example(s, feats),
                                        num_parallel_calls=2).batch(4).prefetch(2)
    assert ds.output_shapes["x"].as_list() == [None, 2]
    nxt = ds.make_one_shot_iterator().get_next()
    with tf.Session() as s:
      got = _drain(s, nxt)
    assert np.concatenate([b["y"] for b in got]).tolist() == list(range(10))
    assert got[0]["x"].tolist() == [[0, 0], [1, -1], [2, -2], [3, -3]]
