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
    "filter": lambda: tf.data.Dataset.range(12).filter(lambda x: tf.equal(x % 3, 1)),
    "flat_map": lambda: tf.data.Dataset.range(4).flat_map(lambda x: tf.data.Dataset.range(x)),
    "map_dict_shuffle": lambda: tf.data.Dataset.from_tensor_slices(
        {"a": np.arange(8), "b": np.arange(8) * 10}).map(lambda d: d["a"] + d["b"]).shuffle(4, seed=1),
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
print(json.dumps(out, sort_keys=True))
