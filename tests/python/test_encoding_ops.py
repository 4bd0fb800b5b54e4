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
