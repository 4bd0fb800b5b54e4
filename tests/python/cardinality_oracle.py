"""tf.data.experimental.cardinality of many pipelines printed as JSON, run
under real TensorFlow (`python cardinality_oracle.py tf DIR`) or tfc
(`... tfc DIR`) by test_data_cardinality.py."""
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
D = tf.data.Dataset


def gen():
  yield 1


def pipelines():
  """name -> dataset, one per cardinality rule."""
  r10 = D.range(10)
  unknown = r10.filter(lambda x: x > 2)
  return {
      "range": r10,
      "range_step": D.range(3, 20, 4),
      "range_empty": D.range(5, 0),
      "range_empty_step": D.range(0, 0, 2),
      "range_negative_step": D.range(10, 0, -3),
      "range_huge": D.range(-2**61, 2**61, 3),
      "tensors": D.from_tensors(np.zeros([4, 2])),
      "slices": D.from_tensor_slices(np.arange(12).reshape(6, 2)),
      "slices_tuple": D.from_tensor_slices((np.arange(7), np.arange(7.0))),
      "batch": r10.batch(3),
      "batch_exact": r10.batch(5),
      "batch_drop": r10.batch(3, drop_remainder=True),
      "padded_batch": r10.padded_batch(4, padded_shapes=[]),
      "take": r10.take(4),
      "take_more": r10.take(40),
      "take_all": r10.take(-1),
      "skip": r10.skip(3),
      "skip_more": r10.skip(30),
      "skip_all": r10.skip(-1),
      "repeat": r10.repeat(3),
      "repeat_zero": r10.repeat(0),
      "repeat_forever": r10.repeat(),
      "repeat_empty_forever": D.range(0).repeat(),
      "repeat_forever_take": r10.repeat().take(7),
      "repeat_forever_skip": r10.repeat().skip(7),
      "repeat_forever_batch": r10.repeat().batch(4),
      "zip": D.zip((r10, D.range(4))),
      "zip_infinite": D.zip((r10.repeat(), D.range(4))),
      "zip_all_infinite": D.zip((r10.repeat(), r10.repeat())),
      "zip_unknown": D.zip((r10, unknown)),
      "concatenate": r10.concatenate(D.range(5)),
      "concatenate_infinite": unknown.concatenate(r10.repeat()),
      "concatenate_unknown": r10.concatenate(unknown),
      "shuffle": r10.shuffle(4, seed=1),
      "prefetch": r10.prefetch(2),
      "cache": r10.cache(),
      "cache_file": r10.cache(os.path.join(DIR, "c")),
      "map": r10.map(lambda x: x + 1),
      "parallel_map": r10.map(lambda x: x + 1, num_parallel_calls=2),
      "filter": unknown,
      "filter_repeat_forever": unknown.repeat(),
      "filter_repeat": unknown.repeat(2),
      "filter_take": unknown.take(3),
      "filter_skip": unknown.skip(3),
      "filter_batch": unknown.batch(2),
      "flat_map": D.range(3).flat_map(D.range),
      "interleave": D.range(3).interleave(D.range, cycle_length=2),
      "generator": D.from_generator(gen, tf.int64),
      "tfrecord": tf.data.TFRecordDataset([os.path.join(DIR, "r.tfrecord")]),
      "text_line": tf.data.TextLineDataset([os.path.join(DIR, "t.txt")]),
      "chain": r10.shuffle(3, seed=2).batch(2).take(4).prefetch(1).repeat(2).skip(1),
  }


out = {}
with tf.Graph().as_default():
  ps = pipelines()
  names = sorted(ps)
  tensors = [tf.data.experimental.cardinality(ps[k]) for k in names]
  with tf.Session() as s:
    vals = s.run(tensors)
  for k, v in zip(names, vals):
    out[k] = int(v)
print(json.dumps(out, sort_keys=True))
