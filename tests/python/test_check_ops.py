"""tf.assert_* / tf.debugging: failures decided while building the graph raise at once
(InvalidArgumentError, ValueError, TypeError, as in TF), the rest fail the step with TF's
message; checks that hold statically are NoOps."""
import numpy as np
import pytest

import tfc as tf

BINARY = [
    ("assert_equal", "==", np.equal), ("assert_none_equal", "!=", np.not_equal),
    ("assert_less", "<", np.less), ("assert_less_equal", "<=", np.less_equal),
    ("assert_greater", ">", np.greater), ("assert_greater_equal", ">=", np.greater_equal)]


@pytest.mark.parametrize("fn,symbol,np_fn", BINARY)
def test_binary_asserts_at_run_time(fn, symbol, np_fn):
  with tf.Graph().as_default():
    x = tf.placeholder(tf.int32, [3], name="x")
    check = getattr(tf, fn)(x, [1, 2, 3], message="checked")
    assert getattr(tf.debugging, fn) is getattr(tf, fn)
    with tf.control_dependencies([check]):
      out = tf.identity(x)
    with tf.Session() as sess:
      for value in ([1, 2, 3], [0, 2, 4], [2, 3, 4], [0, 1, 2], [5, 5, 5]):
        if np.all(np_fn(value, [1, 2, 3])):
          np.testing.assert_array_equal(sess.run(out, {x: value}), value)
        else:
          with pytest.raises(tf.errors.InvalidArgumentError) as info:
            sess.run(out, {x: value})
          assert ("assertion failed: [checked] [Condition x %s y did not hold element-wise:] "
                  "[x (x:0) = ] [%s]" % (symbol, " ".join(map(str, value)))) in str(info.value)


def test_constant_comparisons_fail_while_building():
  with tf.Graph().as_default():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="bad\nCondition x == y did not hold element-wise:\n"
                             "x \\(Const:0\\) = \n\\[1 2\\]"):
      tf.assert_equal(tf.constant([1, 2]), [1, 3], message="bad")
    ok = tf.assert_less(tf.constant(1), 2)
    with tf.Session() as sess:
      sess.run(ok)


@pytest.mark.parametrize("fn,good,bad", [
    ("assert_positive", [1, 2], [0, 1]), ("assert_negative", [-1, -2], [0, -1]),
    ("assert_non_negative", [0, 2], [-1, 1]), ("assert_non_positive", [0, -2], [1, -1])])
def test_sign_asserts(fn, good, bad):
  with tf.Graph().as_default():
    x = tf.placeholder(tf.float32, [2])
    check = getattr(tf, fn)(x)
    with tf.Session() as sess:
      sess.run(check, {x: good})
      with pytest.raises(tf.errors.InvalidArgumentError, match="did not hold element-wise"):
        sess.run(check, {x: bad})


def test_assert_near():
  with tf.Graph().as_default():
    x = tf.placeholder(tf.float32, [2])
    default = tf.assert_near(x, [1.0, 2.0])
    loose = tf.assert_near(x, [1.0, 2.0], rtol=0.1, atol=0.0)
    with tf.Session() as sess:
      sess.run([default, loose], {x: [1.0, 2.0]})
      sess.run(loose, {x: [1.05, 2.1]})
      with pytest.raises(tf.errors.InvalidArgumentError, match="not equal to tolerance"):
        sess.run(default, {x: [1.05, 2.0]})


def test_rank_asserts():
  with tf.Graph().as_default():
    x = tf.constant([1, 2])
    assert tf.assert_rank(x, 1).type == "NoOp"
    assert tf.assert_rank_at_least(x, 1).type == "NoOp"
    assert tf.assert_rank_in(x, [0, 1]).type == "NoOp"
    with pytest.raises(ValueError, match="m.  Tensor Const:0 must have rank 2.  Received rank "
                                         "1, shape \\(2,\\)"):
      tf.assert_rank(x, 2, message="m")
    with pytest.raises(ValueError, match="must have rank at least 3"):
      tf.assert_rank_at_least(x, 3)
    with pytest.raises(ValueError, match="must have rank in"):
      tf.assert_rank_in(x, [0, 2])
    p = tf.placeholder(tf.float32)
    checks = [tf.assert_rank(p, 2), tf.assert_rank_at_least(p, 1), tf.assert_rank_in(p, [1, 3])]
    with tf.Session() as sess:
      sess.run(checks[:2], {p: np.zeros((2, 2))})
      sess.run(checks[2], {p: np.zeros(2)})
      with pytest.raises(tf.errors.InvalidArgumentError, match="must have rank"):
        sess.run(checks[0], {p: np.zeros(3)})
      with pytest.raises(tf.errors.InvalidArgumentError, match="must have rank in"):
        sess.run(checks[2], {p: np.zeros((2, 2))})


def test_static_type_and_shape_asserts():
  with tf.Graph().as_default():
    assert tf.assert_integer(tf.constant(1)).type == "NoOp"
    with pytest.raises(TypeError, match="to be integer type"):
      tf.assert_integer(tf.constant(1.0))
    assert tf.assert_type(tf.constant(1.0), tf.float32).type == "NoOp"
    with pytest.raises(TypeError, match="must be of type <dtype: 'int32'>|must be of type tf.int32"):
      tf.assert_type(tf.constant(1.0), tf.int32)
    s = tf.constant(3.0)
    assert tf.assert_scalar(s) is s
    with pytest.raises(ValueError, match="Expected scalar shape"):
      tf.assert_scalar(tf.constant([1.0]))
    tf.assert_proper_iterable([1, 2])
    for bad in (tf.constant([1]), np.zeros(2), "ab"):
      with pytest.raises(TypeError, match="proper"):
        tf.assert_proper_iterable(bad)
    assert tf.assert_same_float_dtype([tf.constant(1.0), tf.constant(2.0)]) == tf.float32
    assert tf.assert_same_float_dtype() == tf.float32
    with pytest.raises(ValueError):
      tf.assert_same_float_dtype([tf.constant(1.0), tf.constant(2.0, tf.float64)])
    with pytest.raises(ValueError, match="Expected floating point type"):
      tf.assert_same_float_dtype([tf.constant(1)])


def test_debugging_namespace():
  assert tf.debugging.Assert is tf.Assert
  assert tf.debugging.assert_all_finite is tf.verify_tensor_all_finite
  assert tf.debugging.check_numerics is tf.check_numerics
  assert tf.debugging.is_nan is tf.is_nan and tf.debugging.is_finite is tf.is_finite
  assert tf.debugging.is_non_decreasing is tf.is_non_decreasing
