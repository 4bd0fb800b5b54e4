#!/usr/bin/env python3
"""tf.feature_column fixtures written by real TensorFlow
(tests/python/test_feature_column.py).

  .venv-tf/bin/python tools/make_feature_column_fixtures.py --out tests/fixtures/feature_column

`build(tf, vocab_path)` builds input_layer and linear_model over every kind
of column with any module offering TF 1.x's API; `set_weights(tf, sess)` gives
every global variable values derived from its name (so TF and tfc run the
same weights). Writes feature_column_tf.npz: the outputs, and the variable
names and shapes TF created ("__vars__"), and ckpt/model.*: TF's checkpoint
of those weights.
"""
import argparse
import os
import sys
import zlib

import numpy as np

VOCAB = "x\ny\nz\n"


def _tf():
  os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
  import tensorflow.compat.v1 as tf
  tf.disable_v2_behavior()
  return tf


def features(tf):
  """The raw features: dense, sparse, string, integer, rank-1 and weighted."""
  return {
      "price": tf.constant([[1.0], [2.5], [-1.0]]),
      "age": tf.constant([[20.0], [60.0], [30.0]]),
      "pos": tf.constant([[0.5, 3.0], [1.5, -2.0], [9.0, 0.0]]),
      "color": tf.constant([["r"], ["q"], ["b"]]),
      "word": tf.constant([["hello", "w"], ["w", ""], ["", ""]]),
      "vf": tf.SparseTensor([[0, 0], [1, 0], [1, 1], [2, 0]], ["y", "zz", "x", "z"], [3, 2]),
      "idc": tf.SparseTensor([[0, 0], [1, 0], [2, 0], [2, 1]], tf.constant([1, 3, 0, 2], tf.int64), [3, 2]),
      "idw": tf.SparseTensor([[0, 0], [1, 0], [2, 0], [2, 1]], [0.5, 2.0, 1.0, -1.0], [3, 2]),
      "a": tf.constant([[1], [2], [-1]], tf.int64),
      "b": tf.constant([3, 4, 0], tf.int64),
      "num": tf.constant([[7], [12], [7]], tf.int64),
  }


def build(tf, vocab_path):
  """{name: tensor}: input_layer and linear_model outputs over the columns."""
  fc = tf.feature_column
  color = fc.categorical_column_with_vocabulary_list("color", ["r", "g", "b"])
  word = fc.categorical_column_with_hash_bucket("word", 10)
  vf = fc.categorical_column_with_vocabulary_file("vf", vocab_path, num_oov_buckets=2)
  idc = fc.categorical_column_with_identity("idc", 4)
  weighted = fc.weighted_categorical_column(idc, "idw")
  num = fc.categorical_column_with_vocabulary_list("num", [12, 7, 1], default_value=3)
  cross = fc.crossed_column([color, "word"], 7)
  age = fc.bucketized_column(fc.numeric_column("age"), [18, 30, 50])
  dense = [fc.numeric_column("price"), fc.numeric_column("pos", shape=(2,)), age,
           fc.indicator_column(color), fc.embedding_column(word, 3), fc.embedding_column(vf, 2, combiner="sqrtn"),
           fc.indicator_column(cross), fc.indicator_column(weighted), fc.embedding_column(weighted, 2,
                                                                                          combiner="sum"),
           fc.indicator_column(num),
           fc.embedding_column(fc.categorical_column_with_identity("hashed_int", 5, default_value=0), 2)]
  dense += fc.shared_embedding_columns([fc.categorical_column_with_identity("a", 5, default_value=4),
                                        fc.categorical_column_with_identity("b", 5)], 2)
  feats = features(tf)
  feats["hashed_int"] = tf.constant([[9], [3], [4]], tf.int64)
  out = {"input_layer": fc.input_layer(feats, dense)}
  out["linear_sum"] = fc.linear_model(feats, [fc.numeric_column("price"), color, cross, age, weighted, vf, num])
  out["linear_mean_2units"] = fc.linear_model(feats, [word, fc.numeric_column("pos", shape=(2,)), idc],
                                              units=2, sparse_combiner="mean")
  return out


def set_weights(tf, sess):
  """Assigns every global variable values seeded by its name."""
  for v in tf.global_variables():
    rng = np.random.RandomState(zlib.crc32(v.op.name.encode()) & 0x7FFFFFFF)
    value = rng.uniform(-1, 1, size=v.get_shape().as_list()).astype(np.float32)
    sess.run(tf.assign(v, value))


def main(argv):
  ap = argparse.ArgumentParser()
  ap.add_argument("--out", required=True)
  args = ap.parse_args(argv)
  tf = _tf()
  os.makedirs(args.out, exist_ok=True)
  vocab_path = os.path.join(args.out, "vocab.txt")
  with open(vocab_path, "w") as f:
    f.write(VOCAB)
  arrays = {}
  with tf.Graph().as_default():
    out = build(tf, vocab_path)
    with tf.Session() as sess:
      sess.run([tf.global_variables_initializer(), tf.tables_initializer()])
      set_weights(tf, sess)
      for name, value in sess.run(out).items():
        arrays[name] = value
      tf.train.Saver().save(sess, os.path.join(args.out, "ckpt", "model"), write_meta_graph=False,
                            write_state=False)
    arrays["__vars__"] = np.array(sorted("%s %s" % (v.op.name, v.get_shape().as_list())
                                         for v in tf.global_variables()), dtype=object)
  np.savez(os.path.join(args.out, "feature_column_tf.npz"), **arrays)
  return 0


if __name__ == "__main__":
  sys.exit(main(sys.argv[1:]))
