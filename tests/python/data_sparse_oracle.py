"""SparseTensor components in tf.data, printed as JSON, run under real
TensorFlow (`python data_sparse_oracle.py tf DIR`) or tfc (`... tfc DIR`) by
test_compat_data_sparse.py: parse_single_example / parse_example in map with
VarLenFeatures, batch, shuffle, zip, filter and functions taking sparse
components, the output types / shapes / classes,
tf.data.experimental.parse_example_dataset (SparseFeature too) and
make_batched_features_dataset over TFRecord files written into DIR, and
from_tensors / from_tensor_slices of SparseTensors."""
import json
import os
import sys

import numpy as np

if sys.argv[1] == "tf":
  os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
  import tensorflow.compat.v1 as tf
  tf.disable_v2_behavior()
else:
  import tfc as tf


def example(i):
  f = {"ids": tf.train.Feature(int64_list=tf.train.Int64List(value=list(range(i % 4)))),
       "label": tf.train.Feature(int64_list=tf.train.Int64List(value=[i]))}
  return tf.train.Example(features=tf.train.Features(feature=f)).SerializeToString()


def tolist(v):
  if hasattr(v, "indices"):
    return {"i": v.indices.tolist(), "v": v.values.tolist(), "s": v.dense_shape.tolist()}
  if isinstance(v, dict):
    return {k: tolist(x) for k, x in sorted(v.items())}
  if isinstance(v, (list, tuple)):
    return [tolist(x) for x in v]
  return np.asarray(v).tolist()


def drain(ds):
  it = tf.data.make_one_shot_iterator(ds).get_next()
  out = []
  with tf.Session() as s:
    try:
      while True:
        out.append(tolist(s.run(it)))
    except tf.errors.OutOfRangeError:
      pass
  return out


def main(directory):
  feat = {"ids": tf.VarLenFeature(tf.int64), "label": tf.FixedLenFeature([], tf.int64)}
  base = tf.data.Dataset.from_tensor_slices(np.array([example(i) for i in range(7)], dtype=object))
  parsed = lambda x: tf.parse_single_example(x, feat)
  res = {}
  res["single_then_batch"] = drain(base.map(parsed).batch(3))
  res["batch_then_parse_then_batch"] = drain(
      base.batch(2, drop_remainder=True).map(lambda x: tf.parse_example(x, feat)).batch(2))
  res["shuffle"] = drain(base.map(parsed).shuffle(5, seed=3).batch(2))
  res["zip_filter"] = drain(
      tf.data.Dataset.zip((base.map(lambda x: parsed(x)["ids"]), tf.data.Dataset.range(7)))
      .filter(lambda sp, i: tf.equal(i % 2, 0)).map(lambda sp, i: (sp, i * 2)))
  res["sparse_fn_input"] = drain(base.map(lambda x: parsed(x)["ids"]).map(tf.sparse_reduce_sum))
  ds = base.map(parsed).batch(3)
  res["types"] = str(sorted((k, v.name) for k, v in ds.output_types.items()))
  res["shapes"] = str(sorted((k, v.as_list()) for k, v in ds.output_shapes.items()))
  res["classes"] = str(sorted((k, v.__name__) for k, v in ds.output_classes.items()))
  st = tf.SparseTensor([[0, 1], [2, 0], [2, 3]], [1.5, 2.5, 3.5], [4, 5])
  res["from_tensor_slices"] = drain(tf.data.Dataset.from_tensor_slices(st))
  res["from_tensor_slices_batch"] = drain(
      tf.data.Dataset.from_tensor_slices((st, np.arange(4))).batch(3))
  res["from_tensors"] = drain(tf.data.Dataset.from_tensors({"a": st, "b": 1}).repeat(2))
  files = [os.path.join(directory, "g%d.tfrecord" % k) for k in range(3)]
  for k, fn in enumerate(files):
    with tf.python_io.TFRecordWriter(fn) as w:
      for i in range(4):
        w.write(example(10 * k + i))
  pat = os.path.join(directory, "g*.tfrecord")
  res["parse_example_dataset"] = drain(base.batch(3).apply(
      tf.data.experimental.parse_example_dataset(
          {"ids": tf.VarLenFeature(tf.int64), "label": tf.FixedLenFeature([], tf.int64),
           "sp": tf.SparseFeature("ids", "ids", tf.int64, 5)})))
  mbf = tf.data.experimental.make_batched_features_dataset
  res["mbf_plain"] = drain(mbf(pat, 5, feat, shuffle=False, num_epochs=1))
  res["mbf_label"] = drain(mbf(pat, 4, feat, label_key="label", shuffle=False, num_epochs=2))
  res["mbf_shuffle"] = drain(mbf(pat, 4, feat, shuffle=True, shuffle_seed=5, shuffle_buffer_size=6,
                                 num_epochs=2))
  res["mbf_forever"] = drain(mbf(pat, 5, feat, shuffle=True, shuffle_seed=2, num_epochs=None).take(5))
  res["mbf_shapes"] = str(sorted(
      (k, v.as_list()) for k, v in mbf(pat, 5, feat, num_epochs=None).output_shapes.items()))
  print(json.dumps(res))


if __name__ == "__main__":
  main(sys.argv[2])
