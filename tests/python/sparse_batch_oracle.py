"""Sparse tensors through the queue batchers, printed as JSON, run under real
TensorFlow (`python sparse_batch_oracle.py tf DIR`, TF 1.x behaviour: v1
control flow) or tfc (`... tfc DIR`) by test_compat_sparse_batching.py:
VarLenFeatures parsed from TFRecord files in DIR (written by the caller with
write_files) batched by tf.train.batch / maybe_batch / batch_join /
shuffle_batch, one example at a time and with enqueue_many, padded and with
smaller final batches, as SparseTensorsMap handles through the queues; and a
GraphDef TensorFlow writes with the map ops, run by both."""
import json
import os
import sys

import numpy as np

if __name__ == "__main__":
  if sys.argv[1] == "tf":
    os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
    import tensorflow.compat.v1 as tf
    tf.disable_v2_behavior()
  else:
    import tfc as tf


def example(tf, i):
  """Example i: ids 0..i%4-1 (VarLen int64), w = [i] * (i%3) (VarLen float), label i."""
  f = {"ids": tf.train.Feature(int64_list=tf.train.Int64List(value=list(range(i % 4)))),
       "w": tf.train.Feature(float_list=tf.train.FloatList(value=[float(i)] * (i % 3))),
       "label": tf.train.Feature(int64_list=tf.train.Int64List(value=[i]))}
  return tf.train.Example(features=tf.train.Features(feature=f)).SerializeToString()


def write_files(tf, directory):
  """Two TFRecord files of 5 Examples each (labels 0..4 and 10..14)."""
  files = [os.path.join(directory, "f%d.tfrecord" % k) for k in range(2)]
  for k, fn in enumerate(files):
    with tf.python_io.TFRecordWriter(fn) as w:
      for i in range(5):
        w.write(example(tf, 10 * k + i))
  return files


def _tolist(v):
  if hasattr(v, "indices"):
    return {"i": v.indices.tolist(), "v": v.values.tolist(), "s": v.dense_shape.tolist()}
  if isinstance(v, dict):
    return {k: _tolist(x) for k, x in sorted(v.items())}
  if isinstance(v, (list, tuple)):
    return [_tolist(x) for x in v]
  return np.asarray(v).tolist()


def _drain(tf, build):
  """Every batch build() yields until the pipeline ends."""
  with tf.Graph().as_default():
    out = build()
    res = []
    with tf.Session() as sess:
      sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
      coord = tf.train.Coordinator()
      threads = tf.train.start_queue_runners(sess, coord)
      try:
        while True:
          res.append(_tolist(sess.run(out)))
      except tf.errors.OutOfRangeError:
        pass
      coord.request_stop()
      coord.join(threads)
  return res


def pipelines(tf, files):
  """name -> list of batches."""
  feat = {"ids": tf.VarLenFeature(tf.int64), "w": tf.VarLenFeature(tf.float32),
          "label": tf.FixedLenFeature([], tf.int64)}

  def single():
    q = tf.train.string_input_producer(files, num_epochs=1, shuffle=False)
    _, rec = tf.TFRecordReader().read(q)
    return tf.parse_single_example(rec, feat)

  def many():
    q = tf.train.string_input_producer(files, num_epochs=1, shuffle=False)
    _, recs = tf.TFRecordReader().read_up_to(q, 3)
    return tf.parse_example(recs, feat)

  def as_list():
    e = single()
    return tf.train.batch([e["ids"], e["label"], e["w"]], 4, allow_smaller_final_batch=True)

  def maybe():
    e = single()
    return tf.train.maybe_batch(e, tf.equal(e["label"] % 2, 0), 2, allow_smaller_final_batch=True)

  def maybe_many():
    e = many()
    return tf.train.maybe_batch(e, tf.equal(e["label"] % 3, 0), 2, enqueue_many=True,
                                allow_smaller_final_batch=True)

  def join():
    q = tf.train.string_input_producer(files, num_epochs=1, shuffle=False)
    lists = [tf.parse_single_example(tf.TFRecordReader().read(q)[1], feat)]
    return tf.train.batch_join(lists, 3, allow_smaller_final_batch=True)

  out = {}
  out["batch"] = _drain(tf, lambda: tf.train.batch(single(), 3, allow_smaller_final_batch=True))
  out["batch_list"] = _drain(tf, as_list)
  out["batch_many"] = _drain(tf, lambda: tf.train.batch(many(), 4, enqueue_many=True,
                                                        allow_smaller_final_batch=True))
  out["batch_pad"] = _drain(tf, lambda: tf.train.batch(single(), 2, dynamic_pad=True,
                                                       allow_smaller_final_batch=True))
  out["maybe_batch"] = _drain(tf, maybe)
  out["maybe_batch_many"] = _drain(tf, maybe_many)
  out["batch_join"] = _drain(tf, join)
  # a shuffling queue's order depends on how far the reader got (in TF as
  # well): the caller checks that each batch is consistent and complete
  out["shuffle_batch"] = _drain(tf, lambda: tf.train.shuffle_batch(
      single(), 3, capacity=20, min_after_dequeue=2, seed=7, allow_smaller_final_batch=True))
  return out


def tf_written_graph(tf, directory, is_tf):
  """TensorFlow writes a GraphDef storing sparse tensors in a map (one by
  one and as a minibatch) and taking them back; both run the GraphDef TF
  wrote (tfc imports it) and return the taken SparseTensor."""
  path = os.path.join(directory, "sparse_map.pb")
  if is_tf:
    from tensorflow.python.ops import sparse_ops  # pylint: disable=g-import-not-at-top
    with tf.Graph().as_default() as g:
      one = sparse_ops._add_sparse_to_tensors_map(  # pylint: disable=protected-access
          tf.SparseTensor([[0, 1], [2, 0]], [b"a", b"b"], [3, 4]), shared_name="m")
      with tf.control_dependencies([one]):  # handle order: one first, then the minibatch
        many = sparse_ops._add_many_sparse_to_tensors_map(  # pylint: disable=protected-access
            tf.SparseTensor([[0, 1, 0], [2, 0, 1]], [b"c", b"d"], [4, 3, 2]), shared_name="m")
      with tf.control_dependencies([one, many]):
        handles = tf.concat([tf.reshape(one, [1]), many], 0, name="handles")
      taken = sparse_ops._take_many_sparse_from_tensors_map(one.op, handles, rank=3)  # pylint: disable=protected-access
      tf.identity(taken.indices, name="out_indices")
      tf.identity(taken.values, name="out_values")
      tf.identity(taken.dense_shape, name="out_shape")
    with open(path, "wb") as f:
      f.write(g.as_graph_def().SerializeToString())
  graph_def = tf.GraphDef()
  with open(path, "rb") as f:
    graph_def.ParseFromString(f.read())
  with tf.Graph().as_default():
    tf.import_graph_def(graph_def, name="")
    with tf.Session() as sess:
      out = sess.run(["handles:0", "out_indices:0", "out_values:0", "out_shape:0"])
  return [o.tolist() if not isinstance(o.tolist(), list) or o.dtype != object else
          [v.decode() for v in o.tolist()] for o in out]


if __name__ == "__main__":
  files = [os.path.join(sys.argv[2], "f%d.tfrecord" % k) for k in range(2)]
  result = pipelines(tf, files)
  result["tf_written_graph"] = tf_written_graph(tf, sys.argv[2], sys.argv[1] == "tf")
  print(json.dumps(result))
