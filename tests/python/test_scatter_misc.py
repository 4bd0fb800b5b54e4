"""Scatter* ref-variable updates, check_numerics, multinomial and conj through
the public `tfc` API, against values and messages recorded from TensorFlow
2.21 (tf.compat.v1 graph mode, ref variables, intra_op_parallelism_threads=1).
"""

import collections

import numpy as np
import pytest

import tfc as tf
from tfc.framework.op_def_library import _apply_op

Slices = collections.namedtuple("Slices", ["indices", "values"])


def _var(value, name="v"):
  return tf.Variable(np.asarray(value, np.float32), name=name)


# ---------------------------------------------------------------- scatter ops


def test_scatter_update_add_sub_values_and_ref_output():
  with tf.Graph().as_default():
    v = _var(np.arange(12).reshape(4, 3))
    up = tf.scatter_update(v, [3, 0], [[1, 1, 1], [2, 2, 2]])
    add = tf.scatter_add(v, [1, 1], np.ones((2, 3), np.float32))
    sub = tf.scatter_sub(v, 2, [5.0, 5.0, 5.0])
    assert up.op.type == "ScatterUpdate" and add.op.type == "ScatterAdd"
    assert sub.op.type == "ScatterSub"
    assert up.dtype._is_ref_dtype and up.dtype.base_dtype == tf.float32
    assert up.shape.as_list() == [4, 3]
    assert up.op.get_attr("use_locking") is True
    assert add.op.get_attr("use_locking") is False
    with tf.Session() as s:
      s.run(v.initializer)
      np.testing.assert_array_equal(
          s.run(up), [[2, 2, 2], [3, 4, 5], [6, 7, 8], [1, 1, 1]])
      np.testing.assert_array_equal(
          s.run(add), [[2, 2, 2], [5, 6, 7], [6, 7, 8], [1, 1, 1]])
      np.testing.assert_array_equal(
          s.run(sub), [[2, 2, 2], [5, 6, 7], [1, 2, 3], [1, 1, 1]])
      np.testing.assert_array_equal(
          s.run(v), [[2, 2, 2], [5, 6, 7], [1, 2, 3], [1, 1, 1]])


def test_scatter_fetched_value_is_a_snapshot():
  with tf.Graph().as_default():
    v = _var([1.0, 2.0, 3.0])
    add = tf.scatter_add(v, [0], [10.0])
    with tf.Session() as s:
      s.run(v.initializer)
      first = s.run(v)
      s.run(add)
      np.testing.assert_array_equal(first, [1, 2, 3])  # copy-on-write
      np.testing.assert_array_equal(s.run(v), [11, 2, 3])


def test_scatter_scalar_updates_and_int64_indices():
  with tf.Graph().as_default():
    v = _var(np.zeros((3, 2)))
    up = tf.scatter_update(v, tf.constant([2, 0], tf.int64), 7.0)
    assert up.op.get_attr("Tindices") == tf.int64
    with tf.Session() as s:
      s.run(v.initializer)
      np.testing.assert_array_equal(s.run(up), [[7, 7], [0, 0], [7, 7]])


def test_variable_scatter_update_method():
  with tf.Graph().as_default():
    v = _var(np.zeros((3, 2)))
    op = v.scatter_update(Slices(indices=tf.constant([1]), values=tf.constant([[4.0, 5.0]])))
    assert op.op.type == "ScatterUpdate"
    with pytest.raises(TypeError, match="sparse_delta is not IndexedSlices"):
      v.scatter_update([1.0])
    with tf.Session() as s:
      s.run(v.initializer)
      np.testing.assert_array_equal(s.run(op), [[0, 0], [4, 5], [0, 0]])


@pytest.mark.parametrize("op_type,indices,updates,want", [
    ("ScatterMul", [0, 0], [[2, 3], [4, 5]], [[8, 30], [3, 4], [5, 6]]),
    ("ScatterDiv", [1], [[2, 0]], [[1, 2], [1.5, np.inf], [5, 6]]),
    ("ScatterMin", [2], 5.5, [[1, 2], [3, 4], [5, 5.5]]),
    ("ScatterMax", [2, 2], [[9, 1], [7, 8]], [[1, 2], [3, 4], [9, 8]]),
])
def test_scatter_mul_div_min_max(op_type, indices, updates, want):
  with tf.Graph().as_default():
    v = _var([[1, 2], [3, 4], [5, 6]])
    out = _apply_op(op_type, None, [v, indices, updates]).outputs[0]
    with tf.Session() as s:
      s.run(v.initializer)
      np.testing.assert_array_equal(s.run(out), want)


def test_scatter_index_errors_match_tf():
  with tf.Graph().as_default():
    v = _var(np.arange(15).reshape(5, 3))
    bad = tf.scatter_update(v, [0, 7], np.ones((2, 3), np.float32))
    bad2 = tf.scatter_add(v, [[0, 1], [2, 9]], np.ones((2, 2, 3), np.float32))
    bad3 = tf.scatter_add(v, 9, np.ones(3, np.float32))
    with tf.Session() as s:
      s.run(v.initializer)
      for op, msg in [(bad, "indices[1] = 7 is not in [0, 5)"),
                      (bad2, "indices[1,1] = 9 is not in [0, 5)"),
                      (bad3, "indices = 9 is not in [0, 5)")]:
        with pytest.raises(tf.errors.InvalidArgumentError) as e:
          s.run(op)
        assert e.value.message.startswith(msg)
        assert e.value.op is op.op
      # a failed update changes nothing
      np.testing.assert_array_equal(s.run(v), np.arange(15).reshape(5, 3))


def test_scatter_runtime_shape_and_uninitialized_errors():
  with tf.Graph().as_default():
    v = _var(np.zeros((5, 3)))
    u = _var(np.zeros((5, 3)), name="u")
    ind = tf.placeholder(tf.int32)
    upd = tf.placeholder(tf.float32)
    op = tf.scatter_update(v, ind, upd)
    with tf.Session() as s:
      s.run(v.initializer)
      with pytest.raises(tf.errors.InvalidArgumentError) as e:
        s.run(op, {ind: [1, 2], upd: np.ones((3, 3))})
      assert e.value.message.startswith(
          "Must have updates.shape = indices.shape + params.shape[1:] or updates.shape = [], "
          "got updates.shape [3,3], indices.shape [2], params.shape [5,3]")
      with pytest.raises(tf.errors.FailedPreconditionError) as e:
        s.run(tf.scatter_add(u, [0], np.ones((1, 3), np.float32)))
      assert e.value.message.startswith("Attempting to use uninitialized value u")


def test_scatter_shape_function_errors():
  with tf.Graph().as_default():
    v = _var(np.zeros((5, 3)))
    with pytest.raises(ValueError) as e:
      tf.scatter_update(v, [0, 1], np.ones((2, 4), np.float32))
    assert str(e.value).startswith(
        "Dimension 1 in both shapes must be equal, but are 4 and 3. Shapes are [2,4] and [2,3]. "
        "for '{{node ScatterUpdate}} = ScatterUpdate[T=DT_FLOAT, Tindices=DT_INT32, "
        "use_locking=true](v, ScatterUpdate/indices, ScatterUpdate/updates)' with input shapes: "
        "[5,3], [2], [2,4]")
    with pytest.raises(ValueError, match="Shapes must be equal rank, but are 1 and 2"):
      tf.scatter_add(v, [0, 1], np.ones(2, np.float32))
    with pytest.raises(TypeError):
      tf.scatter_update(tf.constant([1.0]), [0], [2.0])  # not a ref


# ---------------------------------------------------------------- check_numerics


def test_check_numerics():
  with tf.Graph().as_default():
    x = tf.placeholder(tf.float32)
    y = tf.check_numerics(x, "my msg")
    assert y.op.type == "CheckNumerics" and y.op.get_attr("message") == b"my msg"
    with tf.Session() as s:
      np.testing.assert_array_equal(s.run(y, {x: [1.0, 2.0]}), [1, 2])
      for value, what in [([1.0, np.nan], "NaN"), ([np.inf, 1.0], "Inf"),
                          ([-np.inf, np.nan], "Inf and NaN")]:
        with pytest.raises(tf.errors.InvalidArgumentError) as e:
          s.run(y, {x: value})
        assert e.value.message.startswith("my msg : Tensor had %s values" % what)
    with pytest.raises(TypeError):
      tf.check_numerics(tf.constant([1, 2]), "ints")


def test_check_numerics_half_and_double():
  with tf.Graph().as_default():
    h = tf.placeholder(tf.float16)
    d = tf.placeholder(tf.float64)
    ch, cd = tf.check_numerics(h, "h"), tf.check_numerics(d, "d")
    with tf.Session() as s:
      assert s.run(ch, {h: np.array([65504, -1], np.float16)}).dtype == np.float16
      with pytest.raises(tf.errors.InvalidArgumentError, match="h : Tensor had Inf values"):
        s.run(ch, {h: np.array([np.inf], np.float16)})
      with pytest.raises(tf.errors.InvalidArgumentError, match="d : Tensor had NaN values"):
        s.run(cd, {d: [np.nan]})


# ---------------------------------------------------------------- multinomial

_LOGITS = np.array([[0, 1, 2, 3], [3, 0, 0, 0], [1, 1, 1, 1]], np.float32)


def test_multinomial_matches_tf_stream():
  with tf.Graph().as_default():
    tf.set_random_seed(5)
    m = tf.multinomial(_LOGITS, 6, seed=11)
    m2 = tf.multinomial(tf.constant(_LOGITS, tf.float64), 4, seed=3, output_dtype=tf.int32)
    assert m.op.type == "Multinomial"
    assert (m.op.get_attr("seed"), m.op.get_attr("seed2")) == (5, 11)
    assert m.dtype == tf.int64 and m.shape.as_list() == [3, 6]
    assert m2.dtype == tf.int32
    with tf.Session() as s:
      assert s.run(m).tolist() == [[3, 3, 3, 3, 1, 2], [0, 0, 0, 0, 0, 0], [0, 3, 2, 1, 3, 2]]
      assert s.run(m).tolist() == [[3, 1, 3, 3, 3, 2], [0, 0, 0, 0, 0, 2], [0, 0, 1, 0, 1, 1]]
      assert s.run(m2).tolist() == [[2, 3, 3, 3], [3, 2, 0, 0], [2, 1, 1, 3]]


def test_multinomial_distribution_and_errors():
  with tf.Graph().as_default():
    logits = tf.placeholder(tf.float32)
    n = tf.placeholder(tf.int32)
    m = tf.multinomial(logits, n, seed=1)
    assert m.shape.as_list() is None or m.shape.ndims == 2
    with tf.Session() as s:
      probs = np.array([0.1, 0.2, 0.3, 0.4])
      out = s.run(m, {logits: np.log(probs)[None, :], n: 20000})
      freq = np.bincount(out[0], minlength=4) / 20000.0
      np.testing.assert_allclose(freq, probs, atol=0.02)
      with pytest.raises(tf.errors.InvalidArgumentError, match="logits should be a matrix"):
        s.run(m, {logits: [1.0, 2.0], n: 3})
      with pytest.raises(tf.errors.InvalidArgumentError,
                         match="num_samples should be non-negative, got -2"):
        s.run(m, {logits: [[1.0, 2.0]], n: -2})
  with tf.Graph().as_default():
    with pytest.raises(ValueError, match="Shape must be rank 2 but is rank 1"):
      tf.multinomial([1.0, 2.0], 3)
    with pytest.raises(ValueError, match="must be non-negative but is -3"):
      tf.multinomial([[1.0, 2.0]], -3)


# ---------------------------------------------------------------- conj


def test_conj_real_and_integer_are_identity():
  with tf.Graph().as_default() as g:
    x = tf.constant([1.0, -2.0])
    i = tf.constant([1, 2])
    n_ops = len(g.get_operations())
    assert tf.conj(x) is x and tf.conj(i) is i
    assert len(g.get_operations()) == n_ops
    y = tf.conj([3.0, 4.0])
    assert y.dtype == tf.float32 and y.op.type == "Const"
    with tf.Session() as s:
      np.testing.assert_array_equal(s.run(y), [3, 4])


def test_conj_of_complex_and_bool_raises():
  with tf.Graph().as_default():
    c = tf.conj(np.array([1 + 2j], np.complex64))
    with tf.Session() as s:
      np.testing.assert_array_equal(s.run(c), np.array([1 - 2j], np.complex64))
    with pytest.raises(TypeError, match="Expected numeric"):
      tf.conj(tf.constant([True]))
