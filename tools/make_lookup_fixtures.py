#!/usr/bin/env python3
"""tf.lookup fixtures written by real TensorFlow (tests/python/test_lookup.py).

  .venv-tf/bin/python tools/make_lookup_fixtures.py --out tests/fixtures/lookup

writes lookup_tf.npz (TF's values of `cases`) and ckpt/model.* (a TF
checkpoint of the mutable tables of `checkpoint_graph`, with their contents
in ckpt_values.npz). `cases(tf, vocab_path)` builds the same graph with any
module offering TF 1.x's API: the test imports this file, calls it with
tfc, and compares with what TensorFlow computed here.
"""
import argparse
import os
import sys

import numpy as np

VOCAB = "apple\nbanana\ncherry\ndate\n"
WORDS = [b"apple", b"kiwi", b"cherry", b"pear", b"", b"banana", b"x" * 100, "\u00e9t\u00e9".encode()]


def _tf():
  os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
  import tensorflow.compat.v1 as tf
  tf.disable_v2_behavior()
  return tf


def cases(tf, vocab_path):
  """(setup ops, {name: tensor}) over tf.lookup's tables, in the default
  graph. Run tf.tables_initializer(), then the setup ops, then the fetches."""
  out = {}
  lk = tf.lookup
  words = tf.constant(WORDS)
  kv = lk.StaticHashTable(lk.KeyValueTensorInitializer(["a", "b", "c"], [7, 8, 9], value_dtype=tf.int64), -1)
  out["static_find"] = kv.lookup(tf.constant([["a", "zz"], ["c", "b"]]))
  out["static_size"] = kv.size()
  sp = kv.lookup(tf.SparseTensor([[0, 0], [1, 2]], ["b", "q"], [2, 3]))
  out["static_sparse_values"] = sp.values
  out["static_sparse_indices"] = sp.indices
  f2i = lk.StaticHashTable(lk.KeyValueTensorInitializer(tf.constant([3, 1], tf.int64), [0.5, 1.5]), -2.0)
  out["static_int_keys"] = f2i.lookup(tf.constant([1, 2, 3], tf.int64))
  text = lk.StaticHashTable(lk.TextFileInitializer(vocab_path, tf.string, lk.TextFileIndex.WHOLE_LINE, tf.int64,
                                                   lk.TextFileIndex.LINE_NUMBER), -1)
  out["text_find"] = text.lookup(words)
  rev = lk.StaticHashTable(lk.TextFileInitializer(vocab_path, tf.int64, lk.TextFileIndex.LINE_NUMBER, tf.string,
                                                  lk.TextFileIndex.WHOLE_LINE, vocab_size=3), "?")
  out["text_reverse_vocab_size"] = rev.lookup(tf.constant([0, 2, 3], tf.int64))
  vocab = lk.StaticVocabularyTable(lk.TextFileInitializer(vocab_path, tf.string, lk.TextFileIndex.WHOLE_LINE,
                                                          tf.int64, lk.TextFileIndex.LINE_NUMBER), 5)
  out["vocab_find"] = vocab.lookup(words)
  out["vocab_size"] = vocab.size()
  ivocab = lk.StaticVocabularyTable(
      lk.KeyValueTensorInitializer(tf.constant([10, 20], tf.int64), tf.constant([0, 1], tf.int64)), 7)
  out["vocab_int64"] = ivocab.lookup(tf.constant([10, 11, 20, 12345, -3], tf.int64))
  ivocab32 = lk.StaticVocabularyTable(
      lk.KeyValueTensorInitializer(tf.constant([10, 20], tf.int64), tf.constant([0, 1], tf.int64)), 7,
      lookup_key_dtype=tf.int32)
  out["vocab_int32_keys"] = ivocab32.lookup(tf.constant([10, 11, 20], tf.int32))
  mut = lk.experimental.MutableHashTable(tf.string, tf.float32, [0.0, 0.0])
  dense = lk.experimental.DenseHashTable(tf.int64, tf.int64, default_value=-1, empty_key=0, deleted_key=-1,
                                         initial_num_buckets=8)
  setup = [mut.insert(["u", "v"], [[1.0, 2.0], [3.0, 4.0]]),
           dense.insert(tf.constant([5, 6, 7, 13, 21, 29], tf.int64), tf.constant([50, 60, 70, 130, 210, 290], tf.int64))]
  out["mutable_find"] = mut.lookup(["u", "w"])
  out["mutable_size"] = mut.size()
  out["dense_find"] = dense.lookup(tf.constant([5, 13, 8, 29], tf.int64))
  out["dense_size"] = dense.size()
  keys, values = dense.export()
  out["dense_export_keys"] = keys
  out["dense_export_values"] = values
  out["fingerprint"] = tf.fingerprint(words)
  out["hash_fast"] = tf.strings.to_hash_bucket_fast(words, 11)
  out["hash_legacy"] = tf.strings.to_hash_bucket(words, 11)
  out["hash_legacy_top"] = tf.string_to_hash_bucket(words, 1 << 40)
  return setup, out


def checkpoint_graph(tf):
  """(tables, setup ops, {name: tensor}) of the checkpoint test: a string ->
  int64 MutableHashTable, an int64 -> float vector table and a dense table."""
  lk = tf.lookup.experimental
  m = lk.MutableHashTable(tf.string, tf.int64, -1)
  mt = lk.MutableHashTable(tf.int64, tf.float32, [0.0, 0.0], name="vec_table")
  d = lk.DenseHashTable(tf.int64, tf.float32, default_value=-1.0, empty_key=0, deleted_key=-1,
                        initial_num_buckets=16)
  setup = [m.insert(["a", "b", "c"], tf.constant([1, 2, 3], tf.int64)),
           mt.insert(tf.constant([4, 5], tf.int64), [[1.0, 2.0], [3.0, 4.0]]),
           d.insert(tf.constant([7, 23, 39], tf.int64), [0.5, 1.5, 2.5])]
  fetches = {"m": m.lookup(["a", "b", "c", "z"]), "m_size": m.size(),
             "mt": mt.lookup(tf.constant([5, 4, 9], tf.int64)),
             "d": d.lookup(tf.constant([23, 7, 39, 8], tf.int64)), "d_size": d.size(),
             "d_keys": d.export()[0]}
  return setup, fetches


def _store(arrays, name, value):
  value = np.asarray(value)
  arrays[name] = value.astype(object) if value.dtype.kind in "SO" else value


def main(argv):
  ap = argparse.ArgumentParser()
  ap.add_argument("--out", required=True)
  args = ap.parse_args(argv)
  tf = _tf()
  os.makedirs(args.out, exist_ok=True)
  vocab_path = os.path.join(args.out, "fruit_vocab.txt")
  with open(vocab_path, "w") as f:
    f.write(VOCAB)
  arrays = {}
  with tf.Graph().as_default():
    setup, out = cases(tf, vocab_path)
    with tf.Session() as sess:
      sess.run(tf.tables_initializer())
      sess.run(setup)
      for name, value in sess.run(out).items():
        _store(arrays, name, value)
  np.savez(os.path.join(args.out, "lookup_tf.npz"), **arrays)
  ckpt = {}
  with tf.Graph().as_default():
    setup, fetches = checkpoint_graph(tf)
    saver = tf.train.Saver()
    with tf.Session() as sess:
      sess.run(setup)
      saver.save(sess, os.path.join(args.out, "ckpt", "model"), write_state=False, write_meta_graph=False)
      for name, value in sess.run(fetches).items():
        _store(ckpt, name, value)
  np.savez(os.path.join(args.out, "ckpt_values.npz"), **ckpt)
  return 0


if __name__ == "__main__":
  sys.exit(main(sys.argv[1:]))
