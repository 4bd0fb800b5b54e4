#!/usr/bin/env python3
"""tf.strings fixtures written by real TensorFlow (tests/python/test_strings.py).

  .venv-tf/bin/python tools/make_string_fixtures.py --out tests/fixtures/strings/strings_tf.npz

`cases(tf)` builds the same graph with any module offering TF 1.x's API: the
test imports this file and calls it with tfc, then compares with what
TensorFlow computed here (strings stored as object arrays of bytes;
SparseTensors as `<name>/indices`, `/values`, `/dense_shape`).
"""
import argparse
import os
import sys

import numpy as np

WORDS = np.array([b"", b"abc", "h\u00e9llo".encode(), "\u65e5\u672c\u8a9e".encode(), b"a b  c"],
                 dtype=object)


def _tf():
  os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
  import tensorflow.compat.v1 as tf
  tf.disable_v2_behavior()
  return tf


def cases(tf):
  """{name: tensor} of the string ops on fixed inputs (in the default graph)."""
  s = tf.strings
  words = tf.constant(WORDS)
  out = {}
  out["length"] = s.length(words)
  out["length_utf8"] = s.length(words, unit="UTF8_CHAR")
  out["substr"] = s.substr(tf.constant([b"abcdef", b"xyz"]), 1, 2)
  out["substr_neg"] = s.substr(tf.constant([b"abcdef", b"xyz"]), -2, 5)
  out["substr_each"] = s.substr(tf.constant([b"abcdef", b"xyz"]), [0, 2], [3, 1])
  out["substr_utf8"] = s.substr(tf.constant(["h\u00e9llo".encode()]), 1, 2, unit="UTF8_CHAR")
  out["strip"] = s.strip(tf.constant([b"  a b ", b"\tx\n", b""]))
  out["upper"] = s.upper(tf.constant([b"Hello World", "\u00e0Bc".encode()]))
  out["lower"] = s.lower(tf.constant([b"Hello World", b"ABC1"]))
  out["to_float"] = s.to_number(tf.constant([b"1.5", b" -2e3", b"inf", b"0x10"]))
  out["to_double"] = s.to_number(tf.constant([b"3.25", b"-0.001"]), out_type=tf.float64)
  out["to_int32"] = s.to_number(tf.constant([b"42", b"-7"]), out_type=tf.int32)
  out["to_int64"] = s.to_number(tf.constant([b"9000000000"]), out_type=tf.int64)
  ints = tf.constant([0, -12, 345], tf.int32)
  floats = tf.constant([0.0, -1.5, 3.14159, 1e10], tf.float32)
  out["as_string_int"] = tf.as_string(ints)
  out["as_string_int_width"] = tf.as_string(ints, width=5, fill="0")
  out["as_string_float"] = tf.as_string(floats)
  out["as_string_precision"] = tf.as_string(floats, precision=2)
  out["as_string_scientific"] = tf.as_string(floats, scientific=True)
  out["as_string_shortest"] = tf.as_string(floats, shortest=True)
  out["as_string_double_width"] = tf.as_string(tf.constant([2.5, -0.25], tf.float64), width=9)
  out["as_string_bool"] = tf.as_string(tf.constant([True, False]))
  grid = tf.constant([[b"a", b"b", b"c"], [b"d", b"e", b"f"]])
  out["reduce_join_all"] = tf.reduce_join(grid)
  out["reduce_join_0"] = tf.reduce_join(grid, 0)
  out["reduce_join_1_sep"] = tf.reduce_join(grid, 1, separator="-")
  out["reduce_join_10"] = tf.reduce_join(grid, [1, 0])
  out["reduce_join_01"] = tf.reduce_join(grid, [0, 1])
  out["reduce_join_keep"] = tf.reduce_join(grid, -1, keep_dims=True)
  mail = tf.constant([b"bob@example", b"nobody", b"al@x"])
  out["full_match_static"] = s.regex_full_match(mail, "[a-z]+@[a-z]+")
  out["full_match_tensor"] = s.regex_full_match(mail, tf.constant("[a-z]+"))
  out["replace_global"] = s.regex_replace(tf.constant([b"aaxaay", b"b"]), "a+", "X")
  out["replace_first"] = s.regex_replace(tf.constant([b"aaxaay"]), "a+", "X",
                                         replace_global=False)
  out["replace_groups"] = s.regex_replace(mail, "([a-z]+)@([a-z]+)", "\\2 at \\1")
  out["replace_empty_match"] = s.regex_replace(tf.constant([b"abc"]), "x*", "-")
  out["replace_tensor"] = s.regex_replace(mail, tf.constant("o"), tf.constant("0"))
  out["hash_strong"] = s.to_hash_bucket_strong(WORDS, 1000, [1, 2])
  out["hash_strong_big_key"] = s.to_hash_bucket_strong(tf.constant([b"x", b"feature"]), 7,
                                                       [2**40 + 3, 12345])
  out["join"] = s.join([tf.constant([b"a", b"b"]), b"-", tf.constant([b"c", b"d"])], separator="")
  out["split"] = s.split(tf.constant([b"a b", b" c  d ", b""]))
  return out


def make(out):
  tf = _tf()
  result = {}
  g = tf.Graph()
  with g.as_default():
    tensors = cases(tf)
    with tf.Session(graph=g) as sess:
      values = sess.run(tensors)
  for name, value in values.items():
    if hasattr(value, "dense_shape"):
      result[name + "/indices"] = np.asarray(value.indices)
      result[name + "/values"] = np.asarray(value.values, dtype=object)
      result[name + "/dense_shape"] = np.asarray(value.dense_shape)
    else:
      result[name] = np.asarray(value, dtype=object if np.asarray(value).dtype == object
                                else None)
  np.savez(out, **result)


def main():
  parser = argparse.ArgumentParser()
  parser.add_argument("--out", required=True)
  make(parser.parse_args().out)
  return 0


if __name__ == "__main__":
  sys.exit(main())
