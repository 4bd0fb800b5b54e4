"""tfc.errors: the OpError hierarchy, codes, and errors raised by failed runs."""
import pickle

import numpy as np
import pytest

import tfc as tf




CODES = {
    "CancelledError": 1, "UnknownError": 2, "InvalidArgumentError": 3,
    "DeadlineExceededError": 4, "NotFoundError": 5, "AlreadyExistsError": 6,
    "PermissionDeniedError": 7, "ResourceExhaustedError": 8, "FailedPreconditionError": 9,
    "AbortedError": 10, "OutOfRangeError": 11, "UnimplementedError": 12, "InternalError": 13,
    "UnavailableError": 14, "DataLossError": 15, "UnauthenticatedError": 16,
}


def test_codes_and_classes():
  for name, code in CODES.items():
    cls = getattr(tf.errors, name)
    assert issubclass(cls, tf.errors.OpError)
    assert tf.errors.exception_type_from_error_code(code) is cls
    assert tf.errors.error_code_to_exception_type(code) is cls
    err = cls(None, None, "msg %d" % code)
    assert err.error_code == code
    assert err.message == "msg %d" % code
    assert str(err) == "msg %d" % code
    assert err.op is None and err.node_def is None
  assert tf.errors.OK == 0 and tf.errors.INVALID_ARGUMENT == 3 and tf.errors.UNAVAILABLE == 14


def test_op_error_generic_and_pickle():
  e = tf.errors.OpError(None, None, "boom", tf.errors.ABORTED)
  assert e.error_code == 10 and str(e) == "boom"
  e2 = pickle.loads(pickle.dumps(tf.errors.NotFoundError(None, None, "nf")))
  assert type(e2) is tf.errors.NotFoundError and e2.message == "nf"


def test_missing_feed_raises_invalid_argument_with_op():
  g = tf.Graph()
  with g.as_default():
    p = tf.placeholder(tf.float32, [2], name="feed_me")
    y = p + 1.0
    with tf.Session() as s:
      with pytest.raises(tf.errors.InvalidArgumentError) as info:
        s.run(y)
  err = info.value
  assert isinstance(err, tf.errors.OpError)
  assert err.error_code == tf.errors.INVALID_ARGUMENT
  assert "feed_me" in err.message
  assert err.op is not None and err.op.name == "feed_me"


def test_uninitialized_variable_is_failed_precondition():
  g = tf.Graph()
  with g.as_default():
    v = tf.Variable([1.0], name="lonely")
    with tf.Session() as s:
      with pytest.raises(tf.errors.FailedPreconditionError) as info:
        s.run(v)
      assert "lonely" in str(info.value)
      s.run(v.initializer)
      np.testing.assert_allclose(s.run(v), [1.0])


def test_build_time_errors_are_python_errors():
  g = tf.Graph()
  with g.as_default():
    with pytest.raises(ValueError):
      tf.placeholder(tf.float32, [2]) + tf.placeholder(tf.float32, [3])
    with pytest.raises(ValueError):
      tf.reshape(tf.constant([1, 2, 3]), [2, 2])
    with pytest.raises(TypeError, match="not in list of allowed values"):
      tf.nn.relu(tf.constant(["a"]))
