"""tf.train.Example protos and tf.parse_example / tf.parse_single_example
(ParseExample / ParseSingleExample ops) with FixedLenFeature, VarLenFeature and
FixedLenSequenceFeature; results checked against TensorFlow's for the
fixture records (tests/fixtures/tfrecord/expected.json) and by hand."""
import json
import pathlib

import numpy as np
import pytest

import tfc as tf

FIXTURES = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "tfrecord"
EXPECTED = json.loads((FIXTURES / "expected.json").read_text())


def _example(**features):
  f = {}
  for k, v in features.items():
    if v is None:
      f[k] = tf.train.Feature()
    elif isinstance(v[0], bytes):
      f[k] = tf.train.Feature(bytes_list=tf.train.BytesList(value=v))
    elif isinstance(v[0], float):
      f[k] = tf.train.Feature(float_list=tf.train.FloatList(value=v))
    else:
      f[k] = tf.train.Feature(int64_list=tf.train.Int64List(value=v))
  return tf.train.Example(features=tf.train.Features(feature=f)).SerializeToString()


def _features():
  return {
      "image": tf.io.FixedLenFeature([], tf.string),
      "label": tf.io.FixedLenFeature([1], tf.int64),
      "weights": tf.io.FixedLenFeature([3], tf.float32),
      "tags": tf.io.VarLenFeature(tf.string),
      "extra": tf.io.FixedLenFeature([], tf.float32, default_value=-1.0),
  }


def _check(got, want):
  if "indices" in want:
    assert got.indices.shape[1] == len(want["dense_shape"])
    np.testing.assert_array_equal(got.indices.reshape(-1), np.array(want["indices"]).reshape(-1))
    np.testing.assert_array_equal(got.dense_shape, want["dense_shape"])
    _check(got.values, want["values"])
    return
  got = np.asarray(got)
  assert list(got.shape) == want["shape"]
  if "bytes_hex" in want:
    assert [b.hex() for b in got.ravel().tolist()] == want["bytes_hex"]
  else:
    assert str(got.dtype) == want["dtype"]
    np.testing.assert_array_equal(got.ravel(), np.array(want["values"], dtype=got.dtype))


def test_example_protos_are_tensorflows():
  # the same bytes TensorFlow wrote for the fixture's first record
  rec = next(tf.io.tf_record_iterator(str(FIXTURES / "examples.tfrecord")))
  ex = tf.train.Example.FromString(rec)
  assert ex.features.feature["label"].int64_list.value == [-7]
  assert len(ex.features.feature["weights"].float_list.value) == 3
  seq = tf.train.SequenceExample.FromString((FIXTURES / "sequence_example.pb").read_bytes())
  from google.protobuf import text_format
  assert text_format.MessageToString(seq) == EXPECTED["sequence_example_text"]
  assert seq.SerializeToString(deterministic=True) == (FIXTURES / "sequence_example.pb").read_bytes()
  for name in ("Example", "Features", "Feature", "BytesList", "FloatList", "Int64List",
               "SequenceExample", "FeatureList", "FeatureLists"):
    assert getattr(tf.train, name).DESCRIPTOR.full_name == "tensorflow." + name
  fl = tf.train.FeatureLists(feature_list={"x": tf.train.FeatureList(
      feature=[tf.train.Feature(int64_list=tf.train.Int64List(value=[1]))])})
  assert tf.train.FeatureLists.FromString(fl.SerializeToString()) == fl


def test_parse_example_matches_tensorflow():
  records = list(tf.io.tf_record_iterator(str(FIXTURES / "examples.tfrecord")))
  ser = tf.placeholder(tf.string, [None])
  parsed = tf.parse_example(ser, _features())
  assert parsed["weights"].shape.as_list() == [None, 3]
  assert parsed["label"].shape.as_list() == [None, 1]
  assert isinstance(parsed["tags"], tf.SparseTensor)
  assert parsed["label"].op.type == "ParseExample"
  with tf.Session() as sess:
    got = sess.run(parsed, {ser: records})
  for k, want in EXPECTED["parse_example"].items():
    _check(got[k], want)


def test_parse_single_example_matches_tensorflow():
  records = list(tf.io.tf_record_iterator(str(FIXTURES / "examples.tfrecord")))
  ser = tf.placeholder(tf.string, [])
  parsed = tf.io.parse_single_example(ser, _features())
  assert parsed["label"].op.type == "ParseSingleExample"
  assert parsed["weights"].shape.as_list() == [3]
  with tf.Session() as sess:
    got = sess.run(parsed, {ser: records[0]})
  for k, want in EXPECTED["parse_single_example"].items():
    _check(got[k], want)


def test_sequence_features_pad_with_the_default():
  ser = tf.constant([_example(s=[1.0, 2.0, 3.0, 4.0]), _example(), _example(s=[5.0, 6.0])])
  parsed = tf.parse_example(ser, {
      "s": tf.FixedLenSequenceFeature([2], tf.float32, allow_missing=True, default_value=-1.0),
      "z": tf.FixedLenSequenceFeature([], tf.int64, allow_missing=True)})
  with tf.Session() as sess:
    got = sess.run(parsed)
  np.testing.assert_array_equal(got["s"], [[[1, 2], [3, 4]], [[-1, -1], [-1, -1]],
                                           [[5, 6], [-1, -1]]])
  assert got["z"].shape == (3, 0)
  with pytest.raises(ValueError, match="allow_missing"):
    tf.parse_example(ser, {"s": tf.FixedLenSequenceFeature([2], tf.float32)})


def test_defaults_and_string_features():
  ser = tf.constant([_example(a=[b"x", b"y"]), _example(b=[3])])
  parsed = tf.parse_example(ser, {
      "a": tf.FixedLenFeature([2], tf.string, default_value=[b"d0", b"d1"]),
      "b": tf.FixedLenFeature([], tf.int64, default_value=7),
      "c": tf.VarLenFeature(tf.float32)})
  with tf.Session() as sess:
    got = sess.run(parsed)
  assert got["a"].tolist() == [[b"x", b"y"], [b"d0", b"d1"]]
  assert got["b"].tolist() == [7, 3]
  assert got["c"].indices.shape == (0, 2) and got["c"].dense_shape.tolist() == [2, 0]


def _run_error(ser, features, single=False):
  with tf.Graph().as_default():
    fn = tf.parse_single_example if single else tf.parse_example
    parsed = fn(tf.constant(ser), features)
    with tf.Session() as sess:
      sess.run(parsed)


def test_wrong_type_names_the_key():
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match="Key: lbl, Index: 1.  Data types don't match. Data type: int64 but "
                           "expected type: float"):
    _run_error([_example(lbl=[1.0]), _example(lbl=[1])], {"lbl": tf.FixedLenFeature([], tf.float32)})
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match="Key: ids, Index: 0.  Data types don't match. Expected type: string, "
                           "Actual type: int64"):
    _run_error([_example(ids=[1])], {"ids": tf.VarLenFeature(tf.string)})
  with pytest.raises(tf.errors.InvalidArgumentError, match=r"Key: lbl\.  Data types don't match"):
    _run_error(_example(lbl=[1]), {"lbl": tf.FixedLenFeature([], tf.string)}, single=True)


def test_wrong_shape_names_the_key():
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match=r"Key: w, Index: 0.  Number of float values != expected.  Values "
                           r"size: 3 but output shape: \[2\]"):
    _run_error([_example(w=[1.0, 2.0, 3.0])], {"w": tf.FixedLenFeature([2], tf.float32)})


def test_missing_required_names_the_key():
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match=r"Feature: need \(data type: int64\) is required but could not be "
                           r"found."):
    _run_error([_example(other=[1])], {"need": tf.FixedLenFeature([], tf.int64)})
  # an empty Feature counts as missing
  with pytest.raises(tf.errors.InvalidArgumentError, match="Feature: need"):
    _run_error(_example(need=None), {"need": tf.FixedLenFeature([], tf.int64)}, single=True)


def test_example_names_in_messages():
  with tf.Graph().as_default():
    parsed = tf.parse_example(tf.constant([_example(a=[1])]), {"a": tf.FixedLenFeature([], tf.string)},
                              example_names=["rec-0"])
    with tf.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError,
                                             match="Name: rec-0, Key: a, Index: 0"):
      sess.run(parsed)


def test_not_an_example():
  with pytest.raises(tf.errors.InvalidArgumentError, match="Could not parse example input"):
    _run_error([b"\x0a\x05abc"], {"a": tf.FixedLenFeature([], tf.int64, default_value=0)})


def test_feature_spec_errors_at_build_time():
  ser = tf.constant([b""])
  with pytest.raises(ValueError, match="Missing: features"):
    tf.parse_example(ser, {})
  with pytest.raises(ValueError, match="Unsupported"):
    tf.parse_example(ser, {"a": tf.FixedLenFeature([], tf.int32)})
  with pytest.raises(ValueError):
    tf.parse_example(ser, {"a": tf.FixedLenFeature([2], tf.int64, default_value=[1, 2, 3])})


def test_many_keys_and_a_big_batch():
  keys = ["k%02d" % i for i in range(20)]
  rng = np.random.RandomState(0)
  vals = rng.randint(-1000, 1000, size=(300, 20))
  ser = [_example(**{k: [int(v)] for k, v in zip(keys, row)}) for row in vals]
  parsed = tf.parse_example(tf.constant(ser), {k: tf.FixedLenFeature([], tf.int64) for k in keys})
  with tf.Session() as sess:
    got = sess.run(parsed)
  for i, k in enumerate(keys):
    np.testing.assert_array_equal(got[k], vals[:, i])


# ---- SparseFeature: values checked against TensorFlow 2.21 (tf.compat.v1)


def _sparse_feature_examples():
  return [_example(ix=[3, 0, 5], val=[1.5, 2.5, 3.5], iy=[1, 0, 2]),
          _example(ix=[2], val=[9.0], iy=[4]),
          _example(other=[1])]


def _sparse_features():
  return {"sp": tf.SparseFeature("ix", "val", tf.float32, 6),
          "sp2": tf.io.SparseFeature(["ix", "iy"], "val", tf.float32, [6, 5]),
          "sp3": tf.SparseFeature("ix", "val", tf.float32, 6, already_sorted=True),
          "val": tf.VarLenFeature(tf.float32)}


def _assert_sparse(st, indices, values, shape):
  np.testing.assert_array_equal(st.indices, indices)
  np.testing.assert_array_equal(st.values, np.array(values, np.float32))
  np.testing.assert_array_equal(st.dense_shape, shape)


def test_sparse_feature_parse_example_as_tensorflow():
  with tf.Graph().as_default():
    out = tf.parse_example(_sparse_feature_examples(), _sparse_features())
    assert sorted(out) == ["sp", "sp2", "sp3", "val"]
    with tf.Session() as sess:
      r = sess.run(out)
  _assert_sparse(r["sp"], [[0, 0], [0, 3], [0, 5], [1, 2]], [2.5, 1.5, 3.5, 9.0], [3, 6])
  _assert_sparse(r["sp2"], [[0, 0, 0], [0, 3, 1], [0, 5, 2], [1, 2, 4]], [2.5, 1.5, 3.5, 9.0],
                 [3, 6, 5])
  _assert_sparse(r["sp3"], [[0, 3], [0, 0], [0, 5], [1, 2]], [1.5, 2.5, 3.5, 9.0], [3, 6])
  _assert_sparse(r["val"], [[0, 0], [0, 1], [0, 2], [1, 0]], [1.5, 2.5, 3.5, 9.0], [3, 3])


def test_sparse_feature_parse_single_example_as_tensorflow():
  with tf.Graph().as_default():
    out = tf.io.parse_single_example(_sparse_feature_examples()[0], _sparse_features())
    with tf.Session() as sess:
      r = sess.run(out)
  _assert_sparse(r["sp"], [[0], [3], [5]], [2.5, 1.5, 3.5], [6])
  _assert_sparse(r["sp2"], [[0, 0], [3, 1], [5, 2]], [2.5, 1.5, 3.5], [6, 5])
  _assert_sparse(r["sp3"], [[3], [0], [5]], [1.5, 2.5, 3.5], [6])


def test_sparse_feature_checks_as_tensorflow():
  ex = _sparse_feature_examples()[:1]
  with tf.Graph().as_default():
    with pytest.raises(ValueError, match="Conflicting type <dtype: 'float32'> vs <dtype: 'int64'> "
                       "for feature ix."):
      tf.parse_example(ex, {"sp": tf.SparseFeature("ix", "val", tf.float32, 6),
                            "ix": tf.VarLenFeature(tf.float32)})
    with pytest.raises(ValueError, match="Missing value_key for SparseFeature"):
      tf.parse_example(ex, {"sp": tf.SparseFeature("ix", "", tf.float32, 6)})
    with pytest.raises(ValueError, match="Missing index_key for SparseFeature"):
      tf.parse_example(ex, {"sp": tf.SparseFeature("", "val", tf.float32, 6)})
    # as in TF, ids past `size` are kept; a count mismatch fails when reordering
    bad = tf.parse_example([_example(ix=[1, 2], val=[1.0])],
                           {"sp": tf.SparseFeature("ix", "val", tf.float32, 6)})
    with tf.Session() as sess:
      with pytest.raises(tf.errors.InvalidArgumentError):
        sess.run(bad)
