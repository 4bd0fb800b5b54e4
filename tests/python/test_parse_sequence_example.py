"""tf.parse_single_sequence_example / tf.io.parse_sequence_example
(ParseSingleSequenceExample / ParseSequenceExample ops) with FixedLenFeature,
VarLenFeature and FixedLenSequenceFeature context and sequence features.
Expected values and messages are TensorFlow 2.21's (tf.compat.v1) for the
same protos; per-op fixtures (tests/fixtures/ops/Parse*SequenceExample*)
cover the raw ops, ParseSequenceExampleV2 included."""
import numpy as np
import pytest

import tfc as tf


def _seq(context=None, lists=None):
  s = tf.train.SequenceExample()
  for k, (kind, v) in (context or {}).items():
    f = s.context.feature[k]
    f.SetInParent()
    if kind:
      getattr(f, kind).value.extend(v)
  for k, steps in (lists or {}).items():
    fl = s.feature_lists.feature_list[k]
    for kind, v in steps:
      f = fl.feature.add()
      if kind:
        getattr(f, kind).value.extend(v)
  return s.SerializeToString()


A = _seq({"a": ("int64_list", [7]), "b": ("float_list", [1.0, 2.0])},
         {"x": [("float_list", [1, 2]), ("float_list", [3, 4])],
          "y": [("bytes_list", [b"p"]), ("bytes_list", []), ("bytes_list", [b"q", b"r"])]})
B = _seq({"a": ("int64_list", [8])}, {"x": [("float_list", [5, 6])]})

CONTEXT = {"a": tf.FixedLenFeature([], tf.int64), "b": tf.VarLenFeature(tf.float32)}
SEQUENCE = {"x": tf.FixedLenSequenceFeature([2], tf.float32, allow_missing=True),
            "y": tf.VarLenFeature(tf.string)}


def _run(fetches):
  with tf.Session() as sess:
    return sess.run(fetches)


def _error(fetches):
  with pytest.raises(tf.errors.InvalidArgumentError) as e:
    _run(fetches)
  return str(e.value)


def _check_sparse(st, indices, values, shape):
  np.testing.assert_array_equal(st.indices, np.array(indices, np.int64).reshape(-1, st.indices.shape[1]))
  assert list(st.values) == list(values)
  np.testing.assert_array_equal(st.dense_shape, shape)


def test_batch_values_as_tensorflow():
  with tf.Graph().as_default() as g:
    ctx, fl, lengths = tf.io.parse_sequence_example([A, B], context_features=CONTEXT,
                                                    sequence_features=SEQUENCE)
    assert [op.type for op in g.get_operations() if op.type.startswith("Parse")] == [
        "ParseSequenceExample"]
    assert ctx["a"].shape.as_list() == [2]
    assert fl["x"].shape.as_list() == [2, None, 2]
    assert fl["y"].indices.shape.as_list() == [None, 3]
    c, f, n = _run((ctx, fl, lengths))
  np.testing.assert_array_equal(c["a"], [7, 8])
  _check_sparse(c["b"], [[0, 0], [0, 1]], [1.0, 2.0], [2, 2])
  np.testing.assert_array_equal(f["x"], [[[1, 2], [3, 4]], [[5, 6], [0, 0]]])
  assert f["x"].dtype == np.float32
  _check_sparse(f["y"], [[0, 0, 0], [0, 2, 0], [0, 2, 1]], [b"p", b"q", b"r"], [2, 3, 2])
  np.testing.assert_array_equal(n["x"], [2, 1])


def test_single_values_as_tensorflow():
  with tf.Graph().as_default() as g:
    out_a = tf.parse_single_sequence_example(A, context_features=CONTEXT,
                                             sequence_features=SEQUENCE)
    out_b = tf.io.parse_single_sequence_example(B, context_features=CONTEXT,
                                                sequence_features=SEQUENCE)
    assert out_a[1]["x"].shape.as_list() == [None, 2]
    assert "ParseSingleSequenceExample" in [op.type for op in g.get_operations()]
    (ca, fa), (cb, fb) = _run((out_a, out_b))
  assert ca["a"] == 7
  _check_sparse(ca["b"], [[0], [1]], [1.0, 2.0], [2])
  np.testing.assert_array_equal(fa["x"], [[1, 2], [3, 4]])
  _check_sparse(fa["y"], [[0, 0], [2, 0], [2, 1]], [b"p", b"q", b"r"], [3, 2])
  assert cb["a"] == 8
  _check_sparse(cb["b"], [], [], [0])
  np.testing.assert_array_equal(fb["x"], [[5, 6]])
  _check_sparse(fb["y"], [], [], [0, 0])


def test_context_defaults_and_empty_features():
  ex = _seq({"k": (None, [])}, {"z": [("int64_list", [1]), (None, []), ("int64_list", [2])]})
  with tf.Graph().as_default():
    c, f = _run(tf.parse_single_sequence_example(
        ex, context_features={"q": tf.FixedLenFeature([2], tf.float32, default_value=[3.0, 4.0]),
                              "k": tf.VarLenFeature(tf.string)},
        sequence_features={"z": tf.VarLenFeature(tf.int64)}))
  np.testing.assert_array_equal(c["q"], [3.0, 4.0])
  _check_sparse(c["k"], [], [], [0])
  _check_sparse(f["z"], [[0, 0], [2, 0]], [1, 2], [3, 1])


def test_errors_name_the_feature():
  with tf.Graph().as_default():
    msg = _error(tf.parse_single_sequence_example(
        B, sequence_features={"y": tf.FixedLenSequenceFeature([], tf.string)}))
    assert "Feature list 'y' is required but could not be found." in msg
    msg = _error(tf.io.parse_sequence_example(
        [A, B], context_features={"a": tf.FixedLenFeature([], tf.float32)}))
    assert "Name: <unknown>, Context feature: a.  Data types don't match. Expected type: float" in msg
    msg = _error(tf.io.parse_sequence_example(
        [A, B], context_features={"b": tf.FixedLenFeature([3], tf.float32)}))
    assert "Inconsistent max number of elements for feature b: expected 3, but found 2" in msg
    msg = _error(tf.io.parse_sequence_example(
        [B, A], context_features={"b": tf.FixedLenFeature([2], tf.float32)}))
    assert "Feature: b (data type: float) is required but could not be found." in msg
    msg = _error(tf.io.parse_sequence_example(
        [A, B], sequence_features={"x": tf.FixedLenSequenceFeature([3], tf.float32)}))
    assert ("Feature list 'x' has an unexpected number of values.  Total values size: 4 is not "
            "consistent with output shape: [?,3]") in msg
    msg = _error(tf.io.parse_sequence_example(
        [B, A], sequence_features={"y": tf.VarLenFeature(tf.int64)}, example_names=["e0", "e1"]))
    assert "Name: e1, Feature list: y, Index: 0.  Data types don't match. Expected type: int64" in msg
    ex = _seq(None, {"x": [("float_list", [1]), ("float_list", [2, 3, 4])]})
    msg = _error(tf.io.parse_sequence_example(
        [ex], sequence_features={"x": tf.FixedLenSequenceFeature([2], tf.float32)}))
    assert ("Name: <unknown>, Key: x, Index: 0.  Number of values != expected.  values size: 1 "
            "but output shape: [2]") in msg
    msg = _error(tf.io.parse_sequence_example(
        [b"\xff\xff"], sequence_features={"y": tf.VarLenFeature(tf.string)}, example_names=["nm"]))
    assert "Invalid protocol message input, example id: nm" in msg


def test_single_op_messages_as_tensorflow():
  # ParseSingleSequenceExample keeps the messages of TF's own kernel for that op
  with tf.Graph().as_default():
    msg = _error(tf.parse_single_sequence_example(
        A, sequence_features={"y": tf.FixedLenSequenceFeature([], tf.string)}, example_name="dbg"))
    assert ("Name: dbg, Key y, Index: 1.  Number of bytes values != expected.  Values size: 0 but "
            "output shape: []") in msg
    msg = _error(tf.parse_single_sequence_example(
        A, sequence_features={"y": tf.VarLenFeature(tf.int64)}, example_name="dbg"))
    assert "Name: dbg, Feature List: y, Index: 0.  Data types don't match. Expected type: int64" in msg
    msg = _error(tf.parse_single_sequence_example(
        B, context_features={"b": tf.FixedLenFeature([2], tf.float32)}, example_name="dbg"))
    assert "Name: dbg, Context feature 'b' is required but could not be found." in msg


def test_python_checks_as_tensorflow():
  with tf.Graph().as_default():
    with pytest.raises(ValueError, match="Both context_features and sequence_features are None"):
      tf.parse_single_sequence_example(A, {}, {})
    with pytest.raises(ValueError, match="Unsupported FixedLenSequenceFeature"):
      tf.parse_single_sequence_example(
          A, {"a": tf.FixedLenSequenceFeature([], tf.int64, allow_missing=True)})
    with pytest.raises(ValueError, match="Unsupported FixedLenFeature"):
      tf.parse_single_sequence_example(A, None, {"a": tf.FixedLenFeature([], tf.int64)})
    with pytest.raises(ValueError, match=r"feature_list.dense_defaults\[x\] must be None"):
      tf.io.parse_sequence_example(
          [A], sequence_features={"x": tf.FixedLenSequenceFeature([2], tf.float32,
                                                                  allow_missing=True,
                                                                  default_value=9.0)})
    with pytest.raises(ValueError, match="Input serialized must be a scalar"):
      tf.parse_single_sequence_example([A], {"a": tf.FixedLenFeature([], tf.int64)})
