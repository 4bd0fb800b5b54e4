"""tf.data element orders and values printed as JSON, run under real
TensorFlow (`python data_oracle.py tf DIR`) or tfc (`... tfc DIR`) by
test_compat_data.py over the same files."""
import json
import os
import sys

if sys.argv[1] == "tf":
  os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
  import tensorflow.compat.v1 as tf
  tf.disable_eager_execution()
else:
  import tfc as tf
import numpy as np

DIR = sys.argv[2]
out = {}


def drain(ds, n=1000):
  nxt = tf.data.make_one_shot_iterator(ds).get_next()
  vals = []
  with tf.Session() as s:
    for _ in range(n):
      try:
        v = s.run(nxt)
      except tf.errors.OutOfRangeError:
        break
      vals.append(v)
  return vals


def lst(v):
  if isinstance(v, dict):
    return {k: lst(x) for k, x in sorted(v.items())}
  if isinstance(v, (tuple, list)):
    return [lst(x) for x in v]
  if isinstance(v, bytes):
    return v.decode("latin-1")
  v = np.asarray(v)
  if v.dtype == object or v.dtype.kind == "S":
    return [bytes(x).decode("latin-1") for x in v.reshape(-1).tolist()]
  return v.tolist()


def _csv(name, content):
  path = os.path.join(DIR, name)
  with open(path, "wb") as f:
    f.write(content)
  return path


_CSV = (b'id,name,score\n1,"a,b",2.5\n2,"x""y",\r\n3,"multi\nline",4\n,,\n5,z,6\n'
        b'NA, w ,-1e3\n')


_MCSV = b"x,name,y,w\n%d,a,1.5,7\n%d,b,,8\n%d,c,2,9000000000\n"


def _seqs():
  lengths = [3, 1, 5, 2, 7, 4, 6, 2, 3]
  flat = np.concatenate([np.arange(n) + 10 * i for i, n in enumerate(lengths)]).astype(np.int64)
  ends = np.cumsum(lengths)
  starts = ends - np.array(lengths)
  return tf.data.Dataset.from_tensor_slices((starts, ends)).map(
      lambda a, b: tf.reshape(tf.constant(flat)[a:b], [-1]))


cases = {
    "shuffle_42": lambda: tf.data.Dataset.range(20).shuffle(5, seed=42),
    "shuffle_repeat": lambda: tf.data.Dataset.range(8).shuffle(8, seed=3).repeat(3),
    "shuffle_no_reshuffle": lambda: tf.data.Dataset.range(8).shuffle(
        8, seed=3, reshuffle_each_iteration=False).repeat(2),
    "repeat_shuffle_batch": lambda: tf.data.Dataset.range(10).repeat(2).shuffle(7, seed=11).batch(4),
    "slices_tuple": lambda: tf.data.Dataset.from_tensor_slices(
        (np.arange(6).reshape(3, 2), np.array([b"a", b"b", b"c"]))),
    "slices_dict_batch": lambda: tf.data.Dataset.from_tensor_slices(
        {"x": np.arange(10, dtype=np.float32), "y": np.arange(10) * 2}).batch(4),
    "batch_drop": lambda: tf.data.Dataset.range(10).batch(3, drop_remainder=True),
    "zip_concat": lambda: tf.data.Dataset.zip((tf.data.Dataset.range(3), tf.data.Dataset.range(10, 20)))
    .concatenate(tf.data.Dataset.zip((tf.data.Dataset.range(100, 102), tf.data.Dataset.range(7, 9)))),
    "take_skip": lambda: tf.data.Dataset.range(20).skip(3).take(5).repeat(2),
    "padded": lambda: tf.data.Dataset.from_tensor_slices(np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]]))
    .padded_batch(2, padded_shapes=[5], padding_values=np.int64(-1)),
    "cache_prefetch": lambda: tf.data.Dataset.range(5).cache().repeat(2).prefetch(3),
    "from_tensors": lambda: tf.data.Dataset.from_tensors(([1, 2], b"x")).repeat(2),
    "range_args": lambda: tf.data.Dataset.range(10, 2, -3),
    "tfrecord": lambda: tf.data.TFRecordDataset([os.path.join(DIR, "a.tfrecord"),
                                                 os.path.join(DIR, "b.tfrecord")]).batch(3),
    "textline": lambda: tf.data.TextLineDataset(os.path.join(DIR, "t.txt")),
    "fixed": lambda: tf.data.FixedLengthRecordDataset(os.path.join(DIR, "f.bin"), 3, header_bytes=1,
                                                       footer_bytes=2),
}
cases.update({
    "map": lambda: tf.data.Dataset.range(6).map(lambda x: (x * 2, tf.cast(x, tf.float32) / 2)),
    "parallel_map": lambda: tf.data.Dataset.range(20).map(lambda x: x * x, num_parallel_calls=4).batch(6),
    "interleave_spec": lambda: tf.data.Dataset.range(1, 4).interleave(
        lambda x: tf.data.Dataset.from_tensors(x).repeat(3), cycle_length=2, block_length=2),
    "interleave_files": lambda: tf.data.Dataset.from_tensor_slices(
        [os.path.join(DIR, "a.tfrecord"), os.path.join(DIR, "b.tfrecord")]).interleave(
            lambda f: tf.data.TFRecordDataset(f), cycle_length=2, block_length=1),
    "parallel_interleave_v2": lambda: tf.data.Dataset.range(1, 7).interleave(
        lambda x: tf.data.Dataset.range(x * 10, x * 10 + x), cycle_length=3, block_length=2,
        num_parallel_calls=2),
    "parallel_interleave_uneven": lambda: tf.data.Dataset.range(0, 9).interleave(
        lambda x: tf.data.Dataset.range(x % 3), cycle_length=4, block_length=1, num_parallel_calls=4),
    "experimental_parallel_interleave": lambda: tf.data.Dataset.range(1, 7).apply(
        tf.data.experimental.parallel_interleave(lambda x: tf.data.Dataset.range(x * 10, x * 10 + x),
                                                 cycle_length=2, block_length=3)),
    "parallel_interleave_files": lambda: tf.data.Dataset.from_tensor_slices(
        [os.path.join(DIR, "a.tfrecord"), os.path.join(DIR, "b.tfrecord")]).interleave(
            lambda f: tf.data.TFRecordDataset(f), cycle_length=2, block_length=1, num_parallel_calls=2),
    "filter": lambda: tf.data.Dataset.range(12).filter(lambda x: tf.equal(x % 3, 1)),
    "flat_map": lambda: tf.data.Dataset.range(4).flat_map(lambda x: tf.data.Dataset.range(x)),
    "map_dict_shuffle": lambda: tf.data.Dataset.from_tensor_slices(
        {"a": np.arange(8), "b": np.arange(8) * 10}).map(lambda d: d["a"] + d["b"]).shuffle(4, seed=1),
})
# dataexp: tf.data.experimental datasets (TF's experimental dataset ops)
cases.update({
    "random_seeded": lambda: tf.data.experimental.RandomDataset(seed=42).take(6),
    "random_graph_seed": lambda: (tf.set_random_seed(7), tf.data.experimental.RandomDataset(seed=3))[1]
    .take(4).repeat(2),
    "unique_ints": lambda: tf.data.Dataset.from_tensor_slices(np.array([3, 1, 3, 2, 1, 5], np.int32)).apply(
        tf.data.experimental.unique()),
    "unique_strings": lambda: tf.data.Dataset.from_tensor_slices(np.array([b"b", b"a", b"b", b"", b""])).apply(
        tf.data.experimental.unique()),
    "ignore_errors": lambda: tf.data.Dataset.from_tensor_slices(np.array([1., 2., 0., 4.], np.float32)).map(
        lambda x: tf.check_numerics(1. / x, "inf")).apply(tf.data.experimental.ignore_errors()),
    "take_while": lambda: tf.data.Dataset.range(10).apply(tf.data.experimental.take_while(lambda x: x < 4)),
    "scan_sum": lambda: tf.data.Dataset.range(6).apply(tf.data.experimental.scan(
        tf.constant(0, tf.int64), lambda s, x: (s + x, (s, x * 2)))),
    "scan_growing_state": lambda: tf.data.Dataset.range(4).apply(tf.data.experimental.scan(
        tf.zeros([0], tf.int64), lambda s, x: (tf.concat([s, [x]], 0), tf.reduce_sum(s)))),
    "choose_from": lambda: tf.data.experimental.choose_from_datasets(
        [tf.data.Dataset.range(3), tf.data.Dataset.range(100, 105)],
        tf.data.Dataset.from_tensor_slices(np.array([0, 1, 1, 0, 0, 0, 1, 0], np.int64))),
    "assert_cardinality_ok": lambda: tf.data.Dataset.range(3).apply(
        tf.data.experimental.assert_cardinality(3)),
    "group_by_window": lambda: tf.data.Dataset.range(11).apply(tf.data.experimental.group_by_window(
        lambda x: x % 3, lambda k, w: w.batch(2).map(lambda b: (k, b)), window_size=2)),
    "group_by_window_size_func": lambda: tf.data.Dataset.range(12).apply(
        tf.data.experimental.group_by_window(lambda x: x % 4, lambda k, w: w.batch(5),
                                             window_size_func=lambda k: k + 1)),
    "group_by_reducer": lambda: tf.data.Dataset.range(10).apply(tf.data.experimental.group_by_reducer(
        lambda x: x % 3, tf.data.experimental.Reducer(
            lambda k: (tf.constant(0, tf.int64), k), lambda s, x: (s[0] + x, s[1]),
            lambda total, k: (k, total * 10)))),
    "bucket_by_sequence_length": lambda: _seqs().apply(tf.data.experimental.bucket_by_sequence_length(
        lambda x: tf.shape(x)[0], [3, 5], [2, 2, 3])),
    "bucket_pad_to_boundary": lambda: _seqs().apply(tf.data.experimental.bucket_by_sequence_length(
        lambda x: tf.shape(x)[0], [3, 8], [2, 2, 2], pad_to_bucket_boundary=True,
        padding_values=np.int64(-1))),
    "bucket_no_padding": lambda: _seqs().map(lambda x: tf.shape(x)[0]).apply(
        tf.data.experimental.bucket_by_sequence_length(lambda n: n, [3], [2, 3], no_padding=True)),
    "from_list": lambda: tf.data.experimental.from_list([(1, b"a"), (2, b"bb"), (3, b"")]),
    "csv": lambda: tf.data.experimental.CsvDataset(
        [_csv("a.csv", _CSV), _csv("b.csv", b"7,q,1\n8,r,2")],
        [tf.constant(-1, tf.int64), tf.constant("d"), tf.constant(9.5, tf.float64)], header=True,
        na_value="NA").map(lambda i, s, f: (i, s, f)),
    "csv_select": lambda: tf.data.experimental.CsvDataset(
        _csv("c.csv", b"1;a;2;3\n4;b;5;6\n"), [tf.int32, tf.constant(0.5)], field_delim=";",
        select_cols=[0, 3]),
    "make_csv_dataset": lambda: tf.data.experimental.make_csv_dataset(
        [_csv("m1.csv", _MCSV % (0, 1, 2)), _csv("m2.csv", _MCSV % (3, 4, 5))], 2, label_name="y",
        num_epochs=1, shuffle=False),
    "make_csv_dataset_shuffled": lambda: tf.data.experimental.make_csv_dataset(
        [_csv("m1.csv", _MCSV % (0, 1, 2)), _csv("m2.csv", _MCSV % (3, 4, 5))], 3, num_epochs=2,
        shuffle=True, shuffle_seed=7, shuffle_buffer_size=4, select_columns=["x", "y"]),
    "pad_to_cardinality": lambda: tf.data.Dataset.from_tensor_slices(
        {"a": np.arange(3), "b": np.ones([3, 2], np.float32)}).apply(
            tf.data.experimental.pad_to_cardinality(5)),
})
for name, make in sorted(cases.items()):
  with tf.Graph().as_default():
    out[name] = lst(drain(make()))
with tf.Graph().as_default():
  ds = tf.data.Dataset.range(6).shuffle(6, seed=5)
  it = ds.make_initializable_iterator()
  nxt = it.get_next()
  with tf.Session() as s:
    runs = []
    for _ in range(2):
      s.run(it.initializer)
      runs.append([int(s.run(nxt)) for _ in range(6)])
  out["reinitialized_shuffle"] = runs


def restored(make, before, prefix):
  """The elements after `before`, from a new session restored from a
  checkpoint saved at that point (make_saveable_from_iterator)."""
  with tf.Graph().as_default():
    it = tf.data.make_initializable_iterator(make())
    nxt = it.get_next()
    saver = tf.train.Saver([tf.data.experimental.make_saveable_from_iterator(it)])
    with tf.Session() as s:
      s.run(it.initializer)
      for _ in range(before):
        s.run(nxt)
      path = saver.save(s, os.path.join(DIR, prefix))
    vals = []
    with tf.Session() as s:
      s.run(it.initializer)
      saver.restore(s, path)
      while True:
        try:
          vals.append(s.run(nxt))
        except tf.errors.OutOfRangeError:
          break
  return vals


restore_cases = {
    "shuffle_repeat_batch": (lambda: tf.data.Dataset.range(20).shuffle(5, seed=42).repeat(2).batch(3), 3),
    "interleave_files": (cases["interleave_files"], 2),
    "map_filter_prefetch": (lambda: tf.data.Dataset.range(30).map(lambda x: x * 3).filter(
        lambda x: tf.equal(x % 2, 0)).prefetch(2), 3),
    "cache_repeat": (lambda: tf.data.Dataset.range(5).cache().repeat(3), 7),
    "tfrecord_batch": (lambda: tf.data.TFRecordDataset([os.path.join(DIR, "a.tfrecord"),
                                                        os.path.join(DIR, "b.tfrecord")]).batch(2), 1),
    "textline": (cases["textline"], 2),
}
# dataexp: positions of the experimental datasets
restore_cases.update({
    "scan": (lambda: tf.data.Dataset.range(8).apply(tf.data.experimental.scan(
        tf.constant(0, tf.int64), lambda s, x: (s + x, s))), 3),
    "unique": (lambda: tf.data.Dataset.from_tensor_slices(np.array([3, 1, 3, 2, 1, 5, 2, 7])).apply(
        tf.data.experimental.unique()), 2),
    "take_while_random": (lambda: tf.data.experimental.RandomDataset(seed=5).apply(
        tf.data.experimental.take_while(lambda x: x > 100)).take(5), 2),
    "choose_from": (cases["choose_from"], 3),
    "group_by_window": (cases["group_by_window"], 2),
    "group_by_reducer": (cases["group_by_reducer"], 1),
    "bucket": (cases["bucket_by_sequence_length"], 1),
    "ignore_errors": (lambda: tf.data.Dataset.from_tensor_slices(np.array([b"1", b"x", b"3", b"", b"5"])).map(
        tf.strings.to_number).apply(tf.data.experimental.ignore_errors()), 1),
    "assert_cardinality": (cases["assert_cardinality_ok"], 1),
    "take_while": (cases["take_while"], 2),
    "from_list": (cases["from_list"], 1),
})
for name, (make, before) in sorted(restore_cases.items()):
  out["restored_" + name] = lst(restored(make, before, "%s_%s" % (sys.argv[1], name)))

# Dataset.cache(filename): the TF run writes the cache files, the tfc run
# (which runs second) reads TF's files (its input would give other values)
cache_file = os.path.join(DIR, "filecache_c")
with tf.Graph().as_default():
  src = np.arange(8, dtype=np.int64) if sys.argv[1] == "tf" else np.zeros(8, np.int64)
  ds = tf.data.Dataset.from_tensor_slices((src, np.array([b"x%d" % i for i in range(8)]))).cache(cache_file)
  out["file_cache_written_by_tf"] = lst(drain(ds))

if sys.argv[1] == "tfc" and os.path.exists(os.path.join(DIR, "tf_cache_repeat.index")):
  # a TensorFlow iterator state reads as a variant entry, and restoring it
  # names what it is instead of misreading it
  reader = tf.train.NewCheckpointReader(os.path.join(DIR, "tf_cache_repeat"))
  (key, dtype), = reader.get_variable_to_dtype_map().items()
  assert dtype == tf.variant and key.endswith("_STATE"), (key, dtype)
  with tf.Graph().as_default():
    it = tf.data.make_initializable_iterator(restore_cases["cache_repeat"][0]())
    # named as TF named its iterator (its op is IteratorV2, tfc's Iterator)
    saveable = tf.data.experimental._iterator_saveable_class()(
        it._iterator_resource, key[:-len("_STATE")], 2)
    saver = tf.train.Saver([saveable])
    with tf.Session() as s:
      s.run(it.initializer)
      try:
        saver.restore(s, os.path.join(DIR, "tf_cache_repeat"))
        raise AssertionError("a TensorFlow iterator state restored in tfc")
      except tf.errors.InvalidArgumentError as e:
        assert "TensorFlow iterator state" in str(e), str(e)
print(json.dumps(out, sort_keys=True))
