"""tf.io.encode_base64 / decode_base64, decode_compressed, serialize_tensor / parse_tensor,
matching_files and match_filenames_once: values against Python's base64, zlib, gzip and
glob modules, round trips, and TF's errors (the per-op TensorFlow fixtures are in
tests/fixtures/ops, checked by test_compat_ops.py)."""
import base64
import glob
import gzip
import os
import zlib

import numpy as np
import pytest

import tfc as tf


@pytest.fixture(autouse=True)
def _fresh_graph():
  """Each test builds in a graph of its own."""
  with tf.Graph().as_default():
    yield


def _run(t, feed=None):
  with tf.Session() as sess:
    return sess.run(t, feed)


def test_base64_round_trip_against_python():
  rng = np.random.RandomState(0)
  values = [bytes(rng.randint(0, 256, n).astype(np.uint8)) for n in range(0, 40)]
  x = tf.placeholder(tf.string, [None])
  enc, enc_pad = tf.encode_base64(x), tf.io.encode_base64(x, pad=True)
  e, ep = _run([enc, enc_pad], {x: values})
  for v, a, b in zip(values, e, ep):
    assert b == base64.urlsafe_b64encode(v)
    assert a == base64.urlsafe_b64encode(v).rstrip(b"=")
  d1, d2 = _run([tf.decode_base64(enc), tf.io.decode_base64(enc_pad)], {x: values})
  assert list(d1) == values and list(d2) == values
  assert _run(tf.encode_base64(tf.constant([[b"ab"], [b"c"]]))).shape == (2, 1)


@pytest.mark.parametrize("bad,msg", [(b"a", "1 modulo 4"), (b"ab$c", "Invalid character"),
                                     (b"aGVsbG8==", "Invalid character")])
def test_decode_base64_errors(bad, msg):
  with pytest.raises(tf.errors.InvalidArgumentError, match=msg):
    _run(tf.decode_base64(tf.constant([b"ok", bad])))


def test_decode_compressed():
  data = [b"x" * 1000 + bytes(range(256)), b""]
  z = [zlib.compress(d) for d in data]
  g = [gzip.compress(d) for d in data]
  assert list(_run(tf.io.decode_compressed(z, "ZLIB"))) == data
  assert list(_run(tf.decode_compressed(g, compression_type="GZIP"))) == data
  assert list(_run(tf.io.decode_compressed([b"as is"]))) == [b"as is"]
  with pytest.raises(tf.errors.DataLossError):
    _run(tf.io.decode_compressed([b"garbage"], "ZLIB"))
  with pytest.raises(tf.errors.InvalidArgumentError, match="ZLIB, GZIP"):
    _run(tf.io.decode_compressed([b"x"], "BZ2"))


@pytest.mark.parametrize("value", [np.float32(3.5), np.arange(6, dtype=np.int64).reshape(2, 3),
                                   np.array([b"a", b"", b"xyz"], dtype=object),
                                   np.zeros([0, 2], np.float32), np.array([True, False]),
                                   np.array([[1.5, -2.0]], np.float64)])
def test_serialize_parse_round_trip(value):
  t = tf.constant(value)
  s = tf.io.serialize_tensor(t)
  assert s.shape.as_list() == []
  back = tf.io.parse_tensor(s, t.dtype)
  serialized, parsed = _run([s, back])
  proto = tf.TensorProto.FromString(serialized)
  assert proto.dtype == t.dtype.as_datatype_enum
  np.testing.assert_array_equal(np.asarray(parsed), value)
  np.testing.assert_array_equal(tf.make_ndarray(proto), value)


def test_parse_tensor_errors():
  s = tf.serialize_tensor(tf.constant([1.5]))
  with pytest.raises(tf.errors.InvalidArgumentError, match=r"Type mismatch.*\(float\).*\(int32\)"):
    _run(tf.parse_tensor(s, tf.int32))
  with pytest.raises(tf.errors.InvalidArgumentError, match="base64: //8="):
    _run(tf.parse_tensor(tf.constant(b"\xff\xff"), tf.int32))
  with pytest.raises(tf.errors.InvalidArgumentError, match="scalar"):
    _run(tf.parse_tensor(tf.constant([b"x"]), tf.int32))


def test_matching_files(tmp_path):
  for name in ["b.txt", "a.txt", "c.dat", "sub/d.txt"]:
    path = tmp_path / name
    path.parent.mkdir(exist_ok=True)
    path.write_text("x")
  pattern = str(tmp_path / "*.txt")
  got = _run(tf.matching_files(pattern))
  assert [g.decode() for g in got] == sorted(glob.glob(pattern))
  both = _run(tf.io.matching_files([str(tmp_path / "c.*"), str(tmp_path / "[ab].txt")]))
  assert [os.path.basename(g.decode()) for g in both] == ["a.txt", "b.txt", "c.dat"]
  assert _run(tf.io.matching_files(str(tmp_path / "none*"))).shape == (0,)
  with pytest.raises(tf.errors.InvalidArgumentError, match="scalar or vector"):
    _run(tf.io.matching_files([[pattern]]))


def test_match_filenames_once(tmp_path):
  (tmp_path / "f1").write_text("x")
  v = tf.train.match_filenames_once(str(tmp_path / "f*"))
  assert v in tf.local_variables() and v not in tf.global_variables()
  with tf.Session() as sess:
    sess.run(tf.local_variables_initializer())
    assert [os.path.basename(p.decode()) for p in sess.run(v)] == ["f1"]
  assert tf.io.match_filenames_once is tf.train.match_filenames_once


def test_serialize_sparse_round_trips():
  sp = tf.SparseTensor([[0, 1], [2, 0], [2, 3]], [1.5, 2.5, -1.0], [3, 4])
  one = tf.io.serialize_sparse(sp)
  many = tf.io.serialize_many_sparse(sp)
  assert one.shape.as_list() == [3] and many.shape.as_list() == [None, 3]
  back = tf.io.deserialize_many_sparse(many, tf.float32, rank=2)
  assert back.indices.shape.as_list() == [None, 2]
  one_v, many_v, back_v = _run([one, many, back])
  protos = [tf.TensorProto.FromString(b) for b in one_v]
  np.testing.assert_array_equal(tf.make_ndarray(protos[0]), [[0, 1], [2, 0], [2, 3]])
  np.testing.assert_array_equal(tf.make_ndarray(protos[1]), [1.5, 2.5, -1.0])
  np.testing.assert_array_equal(tf.make_ndarray(protos[2]), [3, 4])
  assert many_v.shape == (3, 3)
  row2 = [tf.make_ndarray(tf.TensorProto.FromString(b)) for b in many_v[2]]
  np.testing.assert_array_equal(row2[0], [[0], [3]])
  np.testing.assert_array_equal(row2[1], [2.5, -1.0])
  np.testing.assert_array_equal(back_v.indices, [[0, 1], [2, 0], [2, 3]])
  np.testing.assert_array_equal(back_v.values, [1.5, 2.5, -1.0])
  np.testing.assert_array_equal(back_v.dense_shape, [3, 4])
  strings = tf.SparseTensor([[0], [5]], [b"x", b"yz"], [6])
  s_back = tf.io.deserialize_many_sparse(tf.stack([tf.io.serialize_sparse(strings)] * 2),
                                         tf.string)
  v = _run(s_back)
  assert list(v.values) == [b"x", b"yz", b"x", b"yz"]
  np.testing.assert_array_equal(v.dense_shape, [2, 6])


def test_deserialize_many_sparse_errors():
  a = tf.io.serialize_sparse(tf.SparseTensor([[0]], [1.0], [2]))
  b = tf.io.serialize_sparse(tf.SparseTensor([[4, 1]], [2.0], [5, 2]))
  with pytest.raises(tf.errors.InvalidArgumentError, match="Inconsistent shape"):
    _run(tf.io.deserialize_many_sparse(tf.stack([a, b]), tf.float32))
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match=r"type int32 but SparseTensor\[0\].values.dtype\(\) == float"):
    _run(tf.io.deserialize_many_sparse(tf.stack([a]), tf.int32))
  with pytest.raises(ValueError):
    tf.io.deserialize_many_sparse(tf.constant([["a", "b"]]), tf.int32)
