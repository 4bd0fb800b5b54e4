"""SparseTensor components in tf.data, tf.data.experimental.parse_example_dataset
and make_batched_features_dataset; expected values are TensorFlow 2.21's
(tf.compat.v1, v1 behaviour) for the same pipelines
(test_compat_data_sparse.py runs the full comparison with TensorFlow)."""
import numpy as np
import pytest

import tfc as tf


def _example(i):
  f = {"ids": tf.train.Feature(int64_list=tf.train.Int64List(value=list(range(i % 4)))),
       "label": tf.train.Feature(int64_list=tf.train.Int64List(value=[i]))}
  return tf.train.Example(features=tf.train.Features(feature=f)).SerializeToString()


FEATURES = {"ids": tf.VarLenFeature(tf.int64), "label": tf.FixedLenFeature([], tf.int64)}


def _tolist(v):
  if hasattr(v, "indices"):
    return {"i": v.indices.tolist(), "v": v.values.tolist(), "s": v.dense_shape.tolist()}
  if isinstance(v, dict):
    return {k: _tolist(x) for k, x in sorted(v.items())}
  if isinstance(v, (list, tuple)):
    return [_tolist(x) for x in v]
  return np.asarray(v).tolist()


def _drain(ds):
  it = tf.data.make_one_shot_iterator(ds).get_next()
  out = []
  with tf.Session() as s:
    try:
      while True:
        out.append(_tolist(s.run(it)))
    except tf.errors.OutOfRangeError:
      pass
  return out


def _base():
  return tf.data.Dataset.from_tensor_slices(np.array([_example(i) for i in range(7)], dtype=object))


def test_sparse_components_batch_as_tensorflow():
  with tf.Graph().as_default():
    ds = _base().map(lambda x: tf.parse_single_example(x, FEATURES)).batch(3)
    assert ds.output_classes["ids"] is tf.SparseTensor
    assert ds.output_classes["label"] is tf.Tensor
    assert ds.output_types == {"ids": tf.int64, "label": tf.int64}
    assert ds.output_shapes["ids"].as_list() == [None, None]
    assert _drain(ds) == [
        {"ids": {"i": [[1, 0], [2, 0], [2, 1]], "v": [0, 0, 1], "s": [3, 2]}, "label": [0, 1, 2]},
        {"ids": {"i": [[0, 0], [0, 1], [0, 2], [2, 0]], "v": [0, 1, 2, 0], "s": [3, 3]},
         "label": [3, 4, 5]},
        {"ids": {"i": [[0, 0], [0, 1]], "v": [0, 1], "s": [1, 2]}, "label": [6]}]
    it = tf.data.make_initializable_iterator(ds)
    assert it.output_classes["ids"] is tf.SparseTensor
    nxt = it.get_next()
    assert isinstance(nxt["ids"], tf.SparseTensor)


def test_functions_take_and_return_sparse_tensors():
  with tf.Graph().as_default():
    ids = _base().map(lambda x: tf.parse_single_example(x, FEATURES)["ids"])
    assert _drain(ids.map(tf.sparse_reduce_sum)) == [0, 0, 1, 3, 0, 0, 1]
    kept = tf.data.Dataset.zip((ids, tf.data.Dataset.range(7))).filter(lambda sp, i: tf.equal(i % 2, 0))
    got = _drain(kept.map(lambda sp, i: (sp, i * 2)))
    assert [g[1] for g in got] == [0, 4, 8, 12]
    assert got[1][0] == {"i": [[0], [1]], "v": [0, 1], "s": [2]}
    with pytest.raises(TypeError, match="padded sparse tensors"):
      ids.padded_batch(2, padded_shapes=[None])


def test_parse_example_dataset_shapes_as_tensorflow():
  with tf.Graph().as_default():
    ds = tf.data.Dataset.from_tensor_slices(["a"] * 6).batch(3, drop_remainder=True).apply(
        tf.data.experimental.parse_example_dataset(
            {"ids": tf.VarLenFeature(tf.int64), "label": tf.FixedLenFeature([], tf.int64),
             "seq": tf.FixedLenSequenceFeature([2], tf.float32, allow_missing=True),
             "sp": tf.SparseFeature("ids", "ids", tf.int64, 5),
             "sp2": tf.SparseFeature(["ids", "ix"], "ids", tf.int64, [5, 4])}))
    assert sorted((k, v.as_list()) for k, v in ds.output_shapes.items()) == [
        ("ids", [3, None]), ("label", [3]), ("seq", [3, None, 2]), ("sp", [3, 5]),
        ("sp2", [3, 5, 4])]
    with pytest.raises(TypeError, match="Input dataset should be a dataset of vectors of strings"):
      tf.data.Dataset.range(3).apply(tf.data.experimental.parse_example_dataset(FEATURES))


def test_parse_example_dataset_values_as_tensorflow():
  with tf.Graph().as_default():
    ds = _base().batch(3).apply(tf.data.experimental.parse_example_dataset(
        {"ids": tf.VarLenFeature(tf.int64), "label": tf.FixedLenFeature([], tf.int64),
         "sp": tf.SparseFeature("ids", "ids", tf.int64, 5)}))
    assert _drain(ds)[0] == {
        "ids": {"i": [[1, 0], [2, 0], [2, 1]], "v": [0, 0, 1], "s": [3, 2]}, "label": [0, 1, 2],
        "sp": {"i": [[1, 0], [2, 0], [2, 1]], "v": [0, 0, 1], "s": [3, 5]}}


def _write_files(tmp_path):
  for k in range(3):
    with tf.python_io.TFRecordWriter(str(tmp_path / ("g%d.tfrecord" % k))) as w:
      for i in range(4):
        w.write(_example(10 * k + i))
  return str(tmp_path / "g*.tfrecord")


def test_make_batched_features_dataset_as_tensorflow(tmp_path):
  pattern = _write_files(tmp_path)
  mbf = tf.data.experimental.make_batched_features_dataset
  with tf.Graph().as_default():
    assert _drain(mbf(pattern, 5, FEATURES, shuffle=False, num_epochs=1)) == [
        {"ids": {"i": [[1, 0], [2, 0], [2, 1], [3, 0], [3, 1], [3, 2], [4, 0], [4, 1]],
                 "v": [0, 0, 1, 0, 1, 2, 0, 1], "s": [5, 3]}, "label": [0, 1, 2, 3, 10]},
        {"ids": {"i": [[0, 0], [0, 1], [0, 2], [2, 0], [4, 0]], "v": [0, 1, 2, 0, 0], "s": [5, 3]},
         "label": [11, 12, 13, 20, 21]},
        {"ids": {"i": [[0, 0], [0, 1], [1, 0], [1, 1], [1, 2]], "v": [0, 1, 0, 1, 2], "s": [2, 3]},
         "label": [22, 23]}]
    labelled = _drain(mbf(pattern, 4, FEATURES, label_key="label", shuffle=False, num_epochs=2))
    assert len(labelled) == 6
    assert labelled[:2] == [
        [{"ids": {"i": [[1, 0], [2, 0], [2, 1], [3, 0], [3, 1], [3, 2]], "v": [0, 0, 1, 0, 1, 2],
                  "s": [4, 3]}}, [0, 1, 2, 3]],
        [{"ids": {"i": [[0, 0], [0, 1], [1, 0], [1, 1], [1, 2], [3, 0]], "v": [0, 1, 0, 1, 2, 0],
                  "s": [4, 3]}}, [10, 11, 12, 13]]]
    forever = mbf(pattern, 5, FEATURES, num_epochs=None)
    assert forever.output_shapes["ids"].as_list() == [5, None]
    with pytest.raises(ValueError, match="must be one of the `features` keys"):
      mbf(pattern, 5, FEATURES, label_key="nope")
    with pytest.raises(TypeError, match="must return a `Dataset` object"):
      mbf(pattern, 5, FEATURES, reader=tf.TFRecordReader)


def test_sparse_sources_as_tensorflow():
  with tf.Graph().as_default():
    st = tf.SparseTensor([[0, 1], [2, 0], [2, 3]], [1.5, 2.5, 3.5], [4, 5])
    rows = tf.data.Dataset.from_tensor_slices(st)
    assert rows.output_shapes.as_list() == [5]
    assert rows.output_classes is tf.SparseTensor
    assert _drain(rows) == [{"i": [[1]], "v": [1.5], "s": [5]}, {"i": [], "v": [], "s": [5]},
                            {"i": [[0], [3]], "v": [2.5, 3.5], "s": [5]},
                            {"i": [], "v": [], "s": [5]}]
    assert _drain(tf.data.Dataset.from_tensor_slices((st, np.arange(4))).batch(3)) == [
        [{"i": [[0, 1], [2, 0], [2, 3]], "v": [1.5, 2.5, 3.5], "s": [3, 5]}, [0, 1, 2]],
        [{"i": [], "v": [], "s": [1, 5]}, [3]]]
    whole = {"i": [[0, 1], [2, 0], [2, 3]], "v": [1.5, 2.5, 3.5], "s": [4, 5]}
    assert _drain(tf.data.Dataset.from_tensors({"a": st, "b": 1}).repeat(2)) == [
        {"a": whole, "b": 1}, {"a": whole, "b": 1}]


def test_unbatch_of_sparse_components_as_tensorflow():
  with tf.Graph().as_default():
    st = tf.SparseTensor([[0, 1], [2, 0], [2, 3]], [1.5, 2.5, 3.5], [4, 5])
    ds = tf.data.Dataset.from_tensor_slices((st, np.arange(4))).batch(3).apply(
        tf.data.experimental.unbatch())
    got = _drain(ds)
  assert [g[1] for g in got] == [0, 1, 2, 3]
  assert [g[0] for g in got] == [{"i": [[1]], "v": [1.5], "s": [5]}, {"i": [], "v": [], "s": [5]},
                                 {"i": [[0], [3]], "v": [2.5, 3.5], "s": [5]},
                                 {"i": [], "v": [], "s": [5]}]


def test_reinitializable_and_feedable_iterators_with_sparse_components():
  with tf.Graph().as_default():
    st = tf.SparseTensor([[0, 1], [2, 0], [2, 3]], [1.5, 2.5, 3.5], [4, 5])
    a = tf.data.Dataset.from_tensor_slices(st)
    b = tf.data.Dataset.from_tensor_slices(st).skip(2)
    it = tf.data.Iterator.from_structure(a.output_types, a.output_shapes,
                                         output_classes=a.output_classes)
    assert it.output_classes is tf.SparseTensor and it.output_types == tf.float32
    nxt = it.get_next()
    assert isinstance(nxt, tf.SparseTensor)
    init_a, init_b = it.make_initializer(a), it.make_initializer(b)
    handle = tf.placeholder(tf.string, [])
    feedable = tf.data.Iterator.from_string_handle(handle, a.output_types, a.output_shapes,
                                                   a.output_classes)
    one_shot = tf.data.make_one_shot_iterator(b)
    with tf.Session() as s:
      s.run(init_a)
      assert s.run(nxt).values.tolist() == [1.5]
      s.run(init_b)
      assert s.run(nxt).values.tolist() == [2.5, 3.5]
      h = s.run(one_shot.string_handle())
      got = s.run(feedable.get_next(), {handle: h})
      assert got.values.tolist() == [2.5, 3.5] and got.dense_shape.tolist() == [5]
