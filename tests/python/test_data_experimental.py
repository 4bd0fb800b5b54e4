"""tf.data.experimental transformations built from tfc's dataset kernels:
map_and_batch, unbatch, Counter, enumerate_dataset, to/from_variant and TF's
constants; values as real TensorFlow gives them (checked with TF 2.21)."""
import numpy as np
import pytest

import tfc as tf

E = tf.data.experimental


def _drain(ds, n=1000):
  nxt = ds.make_one_shot_iterator().get_next()
  out = []
  with tf.Session() as s:
    for _ in range(n):
      try:
        out.append(s.run(nxt))
      except tf.errors.OutOfRangeError:
        break
  return out


def test_map_and_batch():
  with tf.Graph().as_default():
    got = _drain(tf.data.Dataset.range(10).apply(E.map_and_batch(lambda x: x * 2, 4)))
    assert [list(b) for b in got] == [[0, 2, 4, 6], [8, 10, 12, 14], [16, 18]]
    ds = tf.data.Dataset.range(10).apply(E.map_and_batch(lambda x: x * 2, 4, drop_remainder=True,
                                                         num_parallel_calls=2))
    assert ds.output_shapes.as_list() == [4]
    assert [list(b) for b in _drain(ds)] == [[0, 2, 4, 6], [8, 10, 12, 14]]
    with pytest.raises(ValueError):
      E.map_and_batch(lambda x: x, 2, num_parallel_batches=1, num_parallel_calls=1)


def test_unbatch_and_enumerate():
  with tf.Graph().as_default():
    assert _drain(tf.data.Dataset.range(10).batch(4).apply(E.unbatch())) == list(range(10))
    ds = tf.data.Dataset.from_tensor_slices((np.arange(6).reshape(3, 2), np.array([[b"a", b"b"]] * 3)))
    assert _drain(ds.apply(E.unbatch())) == [(i, b"ab"[i % 2:i % 2 + 1]) for i in range(6)]
    assert _drain(tf.data.Dataset.range(3).apply(E.enumerate_dataset(10))) == [(10, 0), (11, 1), (12, 2)]


def test_counter_and_constants():
  with tf.Graph().as_default():
    assert _drain(E.Counter(5, 3), 4) == [5, 8, 11, 14]
    got = _drain(E.Counter(0, -2, tf.int32), 3)
    assert got == [0, -2, -4] and all(isinstance(v, np.int32) for v in got)
  assert (E.INFINITE_CARDINALITY, E.UNKNOWN_CARDINALITY) == (-1, -2)
  assert E.ExternalStatePolicy.FAIL.value == 2 and E.AUTOTUNE == -1


def test_variant_round_trip():
  with tf.Graph().as_default():
    ds = tf.data.Dataset.range(4)
    v = E.to_variant(ds)
    assert v.dtype == tf.variant
    back = E.from_variant(v, (ds.output_types, ds.output_shapes))
    assert _drain(back) == [0, 1, 2, 3]


@pytest.mark.parametrize("compression", [None, "GZIP"])
def test_tfrecord_writer(tmp_path, compression):
  fn = str(tmp_path / "out.tfr")
  with tf.Graph().as_default():
    ds = tf.data.Dataset.from_tensor_slices([b"x", b"", b"yy" * 1000]).map(lambda s: s)
    op = E.TFRecordWriter(fn, compression).write(ds)
    assert op.type == "DatasetToTFRecord"
    with tf.Session() as s:
      s.run(op)
    opts = tf.python_io.TFRecordOptions(compression) if compression else None
    assert list(tf.python_io.tf_record_iterator(fn, opts)) == [b"x", b"", b"yy" * 1000]
    with pytest.raises(TypeError, match="scalar `tf.string` elements"):
      E.TFRecordWriter(fn).write(tf.data.Dataset.range(3))
    with tf.Session() as s:
      with pytest.raises(tf.errors.NotFoundError):
        s.run(E.TFRecordWriter(str(tmp_path / "no" / "dir.tfr")).write(ds))
