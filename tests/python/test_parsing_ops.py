"""tf.decode_raw, tf.decode_csv, tf.string_split and tf.SparseTensor /
tf.SparseTensorValue (fetching, feeding, static shape)."""
import numpy as np
import pytest

import tfc as tf


def _run(x, feed=None):
  with tf.Session() as sess:
    return sess.run(x, feed)


def test_decode_raw():
  data = np.array([np.array([1.5, -2.0], "<f4").tobytes(), np.array([3, 4], "<f4").tobytes()],
                  dtype=object)
  out = tf.decode_raw(tf.constant(data), tf.float32)
  assert out.shape.as_list() == [2, None]
  np.testing.assert_array_equal(_run(out), [[1.5, -2.0], [3, 4]])
  be = tf.io.decode_raw(tf.constant(b"\x01\x02\x00\x03"), tf.int16, little_endian=False)
  np.testing.assert_array_equal(_run(be), [0x0102, 0x0003])
  assert _run(tf.decode_raw(bytes=tf.constant([b"ab"]), out_type=tf.uint8)).tolist() == [[97, 98]]
  with pytest.raises(tf.errors.InvalidArgumentError, match="not a multiple of 4"):
    _run(tf.decode_raw(tf.constant([b"abc"]), tf.float32))
  with pytest.raises(tf.errors.InvalidArgumentError, match="same size"):
    _run(tf.decode_raw(tf.constant([b"ab", b"c"]), tf.uint8))


def test_decode_csv():
  rec = tf.placeholder(tf.string, [None])
  cols = tf.decode_csv(rec, [[0], [1.5], ["dflt"], tf.constant([], tf.int64)], na_value="NA")
  assert [c.dtype for c in cols] == [tf.int32, tf.float32, tf.string, tf.int64]
  got = _run(cols, {rec: ['1,2.5,"q,""x""",7', ',NA,,8']})
  assert got[0].tolist() == [1, 0]
  np.testing.assert_array_equal(got[1], [2.5, 1.5])
  assert got[2].tolist() == [b'q,"x"', b"dflt"]
  assert got[3].tolist() == [7, 8]
  with pytest.raises(tf.errors.InvalidArgumentError, match="Field 3 is required but missing in "
                                                           "record 0!"):
    _run(cols, {rec: ["1,2,a,"]})
  with pytest.raises(tf.errors.InvalidArgumentError, match="Field 0 in record 0 is not a valid "
                                                           "int32: x"):
    _run(cols, {rec: ["x,2,a,1"]})
  with pytest.raises(tf.errors.InvalidArgumentError, match="Expect 4 fields but have 2 in record 0"):
    _run(cols, {rec: ["1,2"]})
  sel = tf.decode_csv(tf.constant(["a|1|b|2.5"]), [[0], [0.0]], field_delim="|", select_cols=[1, 3])
  got = _run(sel)
  assert got[0].tolist() == [1] and got[1].tolist() == [2.5]
  with pytest.raises(ValueError, match="strictly increasing"):
    tf.decode_csv(rec, [[0], [0]], select_cols=[2, 1])


def test_string_split():
  sp = tf.string_split(["hello world", "a  b", ""])
  assert isinstance(sp, tf.SparseTensor) and sp.values.op.type == "StringSplit"
  got = _run(sp)
  assert got.values.tolist() == [b"hello", b"world", b"a", b"b"]
  assert got.indices.tolist() == [[0, 0], [0, 1], [1, 0], [1, 1]]
  assert got.dense_shape.tolist() == [3, 2]
  keep = _run(tf.string_split(["a,,b"], ",", skip_empty=False))
  assert keep.values.tolist() == [b"a", b"", b"b"]
  chars = _run(tf.string_split(["ab"], ""))
  assert chars.values.tolist() == [b"a", b"b"]


def test_sparse_tensor_fetch_feed_and_shape():
  st = tf.SparseTensor(indices=[[0, 1], [2, 3]], values=[1.5, 2.5], dense_shape=[3, 4])
  assert st.dtype == tf.float32 and st.shape.as_list() == [3, 4]
  assert st.get_shape().as_list() == [3, 4]
  got = _run(st)
  assert isinstance(got, tf.SparseTensorValue)
  assert got.indices.tolist() == [[0, 1], [2, 3]] and got.dense_shape.tolist() == [3, 4]
  nested = _run({"a": [st, st.values]})
  assert isinstance(nested["a"][0], tf.SparseTensorValue)
  # feeding: placeholders behind a SparseTensor take a SparseTensorValue or a tuple
  sp = tf.SparseTensor(tf.placeholder(tf.int64, [None, 2]), tf.placeholder(tf.float32, [None]),
                       tf.placeholder(tf.int64, [2]))
  assert sp.shape.as_list() == [None, None]
  doubled = sp.values * 2
  value = tf.SparseTensorValue(np.array([[0, 0]]), np.array([4.0], np.float32), np.array([1, 1]))
  assert _run(doubled, {sp: value}).tolist() == [8.0]
  assert _run(sp, {sp: ([[1, 1]], [3.0], [2, 2])}).values.tolist() == [3.0]
  with pytest.raises(TypeError, match="SparseTensorValue"):
    _run(doubled, {sp: [1, 2]})
  with tf.Session() as sess:
    assert st.eval(session=sess).values.tolist() == [1.5, 2.5]
  assert tf.SparseTensor.from_value(got).dtype == tf.float32
