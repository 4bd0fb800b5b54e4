"""tf.feature_column: input_layer and linear_model over every kind of
column, against TensorFlow's outputs with the same weights
(tests/fixtures/feature_column, written by
tools/make_feature_column_fixtures.py), TF's variable names (so checkpoints
map), parse specs and argument errors."""
import importlib.util
import pathlib

import numpy as np
import pytest

import tfc as tf

REPO = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures" / "feature_column"
fc = tf.feature_column


def _tool():
  spec = importlib.util.spec_from_file_location("make_feature_column_fixtures",
                                                REPO / "tools" / "make_feature_column_fixtures.py")
  mod = importlib.util.module_from_spec(spec)
  spec.loader.exec_module(mod)
  return mod


def test_models_match_tensorflow():
  tool = _tool()
  want = dict(np.load(FIXTURES / "feature_column_tf.npz", allow_pickle=True))
  with tf.Graph().as_default():
    out = tool.build(tf, str(FIXTURES / "vocab.txt"))
    names = sorted("%s %s" % (v.op.name, v.get_shape().as_list()) for v in tf.global_variables())
    assert names == list(want["__vars__"])
    with tf.Session() as sess:
      sess.run([tf.global_variables_initializer(), tf.tables_initializer()])
      tool.set_weights(tf, sess)
      got = sess.run(out)
  assert set(got) == {k for k in want if k != "__vars__"}
  for name, value in got.items():
    assert value.shape == want[name].shape, name
    np.testing.assert_allclose(value, want[name], rtol=1e-6, atol=1e-6, err_msg=name)


def test_static_shapes_names_and_collections():
  with tf.Graph().as_default() as g:
    feats = {"p": tf.placeholder(tf.float32, [None, 1]), "c": tf.placeholder(tf.string, [None, 2])}
    color = fc.categorical_column_with_vocabulary_list("c", ["a", "b"])
    cols_to_vars = {}
    out = fc.input_layer(feats, [fc.numeric_column("p"), fc.embedding_column(color, 4)],
                         cols_to_vars=cols_to_vars)
    assert out.shape.as_list() == [None, 5]
    emb = [c for c in cols_to_vars if c.name == "c_embedding"][0]
    assert [v.op.name for v in cols_to_vars[emb]] == ["input_layer/c_embedding/embedding_weights"]
    assert len(g.get_collection(tf.GraphKeys.TABLE_INITIALIZERS)) == 1
    assert any(v.op.name.endswith("embedding_weights") for v in g.get_collection(tf.GraphKeys.MODEL_VARIABLES))
    lin = fc.linear_model(feats, [fc.numeric_column("p"), color], units=3)
    assert lin.shape.as_list() == [None, 3]
    assert sorted(v.op.name for v in tf.trainable_variables() if v.op.name.startswith("linear_model")) == [
        "linear_model/bias_weights", "linear_model/c/weights", "linear_model/p/weights"]


def test_make_parse_example_spec_and_parsing():
  cols = [fc.numeric_column("x", shape=(2,), default_value=0.5),
          fc.embedding_column(fc.categorical_column_with_hash_bucket("w", 5), 2),
          fc.weighted_categorical_column(fc.categorical_column_with_identity("i", 3), "iw")]
  spec = fc.make_parse_example_spec(cols)
  assert spec["x"] == tf.FixedLenFeature((2,), tf.float32, (0.5, 0.5))
  assert spec["w"] == tf.VarLenFeature(tf.string)
  assert spec["i"] == tf.VarLenFeature(tf.int64) and spec["iw"] == tf.VarLenFeature(tf.float32)
  ex = tf.train.Example(features=tf.train.Features(feature={
      "w": tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"q", b"r"])),
      "i": tf.train.Feature(int64_list=tf.train.Int64List(value=[2])),
      "iw": tf.train.Feature(float_list=tf.train.FloatList(value=[3.0]))}))
  with tf.Graph().as_default(), tf.Session() as sess:
    parsed = tf.parse_example([ex.SerializeToString()], spec)
    out = fc.input_layer(parsed, [cols[0], fc.indicator_column(cols[2])])
    assert sess.run(out).tolist() == [[0.0, 0.0, 3.0, 0.5, 0.5]]  # columns in order of name


def test_identity_out_of_range_fails_and_default_value():
  with tf.Graph().as_default(), tf.Session() as sess:
    bad = fc.input_layer({"k": tf.constant([[5]], tf.int64)},
                         [fc.indicator_column(fc.categorical_column_with_identity("k", 3))])
    with pytest.raises(tf.errors.InvalidArgumentError):
      sess.run(bad)
    ok = fc.input_layer({"k": tf.constant([[5], [1]], tf.int64)},
                        [fc.indicator_column(fc.categorical_column_with_identity("k", 3, default_value=0))])
    assert sess.run(ok).tolist() == [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]


def test_argument_errors():
  num = fc.numeric_column("n")
  with pytest.raises(ValueError, match="boundaries must be a sorted list"):
    fc.bucketized_column(num, [3, 1])
  with pytest.raises(ValueError, match="source_column must be a column generated with numeric_column"):
    fc.bucketized_column(fc.categorical_column_with_identity("i", 2), [1])
  with pytest.raises(ValueError, match="hash_bucket_size must be at least 1"):
    fc.categorical_column_with_hash_bucket("h", 0)
  with pytest.raises(ValueError, match="Duplicate keys"):
    fc.categorical_column_with_vocabulary_list("v", ["a", "a"])
  with pytest.raises(ValueError, match="Can't specify both num_oov_buckets and default_value"):
    fc.categorical_column_with_vocabulary_list("v", ["a"], default_value=3, num_oov_buckets=2)
  with pytest.raises(ValueError, match="categorical_column_with_hash_bucket is not supported for crossing"):
    fc.crossed_column([fc.categorical_column_with_hash_bucket("h", 3), "x"], 5)
  with pytest.raises(ValueError, match="same number of buckets"):
    fc.shared_embedding_columns([fc.categorical_column_with_identity("a", 2),
                                 fc.categorical_column_with_identity("b", 3)], 2)
  with tf.Graph().as_default():
    with pytest.raises(ValueError, match="must be a _DenseColumn"):
      fc.input_layer({"i": tf.constant([[1]], tf.int64)}, [fc.categorical_column_with_identity("i", 2)])
    with pytest.raises(ValueError, match="Duplicate feature column name"):
      fc.input_layer({"n": tf.constant([[1.0]])}, [num, fc.numeric_column("n")])
    with pytest.raises(ValueError, match="SparseTensor is not supported"):
      fc.input_layer({"n": tf.SparseTensor([[0, 0]], [1.0], [1, 1])}, [num])


def test_restore_checkpoint_written_by_tensorflow():
  tool = _tool()
  want = dict(np.load(FIXTURES / "feature_column_tf.npz", allow_pickle=True))
  with tf.Graph().as_default():
    out = tool.build(tf, str(FIXTURES / "vocab.txt"))
    with tf.Session() as sess:
      sess.run([tf.global_variables_initializer(), tf.tables_initializer()])
      tf.train.Saver().restore(sess, str(FIXTURES / "ckpt" / "model"))
      got = sess.run(out)
  for name, value in got.items():
    np.testing.assert_allclose(value, want[name], rtol=1e-6, atol=1e-6, err_msg=name)
