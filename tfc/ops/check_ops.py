"""TF 1.x's assertions (tf.assert_equal, tf.assert_rank, ... also under tf.debugging).

Each returns an op to run or depend on (tf.control_dependencies). As in TF, what can be
decided while the graph is built is decided then: comparisons of constants that fail
raise InvalidArgumentError at once, wrong static ranks raise ValueError, wrong dtypes
TypeError, and checks that static shapes already prove return a NoOp. The rest become
`Assert` ops that fail the step with the message, the condition and the values.
"""
import numpy as np

from tfc import dtypes as _dtypes
from tfc import errors as _errors
from tfc.framework import ops as _ops
from tfc.ops import array_ops as _array_ops
from tfc.ops import control_flow_ops as _control_flow_ops
from tfc.ops import logging_ops as _logging_ops
from tfc.ops import math_ops as _math_ops


def _static_value(t):
  """The value of a constant tensor as a NumPy array; None when not known statically."""
  if isinstance(t, _ops.Tensor) and t.op.type == "Const":
    value = t.op.get_attr("value")
    return np.asarray(value)
  return None


def _as_text(x):
  """A data entry as text for a statically failed check (constants show their value)."""
  value = _static_value(x)
  return str(x if value is None else value)


def _fail_statically(data):
  raise _errors.InvalidArgumentError(None, None, "\n".join(_as_text(x) for x in data))


def _binary_assert(condition_fn, numpy_fn, symbol, default_name, x, y, data, summarize,
                   message, name):
  """Assert that condition_fn(x, y) holds everywhere ("Condition x `symbol` y")."""
  message = message or ""
  with _ops.name_scope(name, default_name, [x, y, data]):
    x = _ops.convert_to_tensor(x, name="x")
    y = _ops.convert_to_tensor(y, name="y")
    if data is None:
      data = [message, "Condition x %s y did not hold element-wise:" % symbol,
              "x (%s) = " % x.name, x, "y (%s) = " % y.name, y]
    x_value, y_value = _static_value(x), _static_value(y)
    if x_value is not None and y_value is not None:
      if not np.all(numpy_fn(x_value, y_value)):
        _fail_statically(data)
    condition = _math_ops.reduce_all(condition_fn(x, y))
    return _logging_ops.Assert(condition, data, summarize=summarize)


def assert_equal(x, y, data=None, summarize=None, message=None, name=None):
  """Assert x == y element-wise (with broadcasting)."""
  return _binary_assert(_math_ops.equal, np.equal, "==", "assert_equal", x, y, data,
                        summarize, message, name)


def assert_none_equal(x, y, data=None, summarize=None, message=None, name=None):
  """Assert x != y element-wise."""
  return _binary_assert(_math_ops.not_equal, np.not_equal, "!=", "assert_none_equal", x, y,
                        data, summarize, message, name)


def assert_less(x, y, data=None, summarize=None, message=None, name=None):
  """Assert x < y element-wise."""
  return _binary_assert(_math_ops.less, np.less, "<", "assert_less", x, y, data, summarize,
                        message, name)


def assert_less_equal(x, y, data=None, summarize=None, message=None, name=None):
  """Assert x <= y element-wise."""
  return _binary_assert(_math_ops.less_equal, np.less_equal, "<=", "assert_less_equal", x, y,
                        data, summarize, message, name)


def assert_greater(x, y, data=None, summarize=None, message=None, name=None):
  """Assert x > y element-wise."""
  return _binary_assert(_math_ops.greater, np.greater, ">", "assert_greater", x, y, data,
                        summarize, message, name)


def assert_greater_equal(x, y, data=None, summarize=None, message=None, name=None):
  """Assert x >= y element-wise."""
  return _binary_assert(_math_ops.greater_equal, np.greater_equal, ">=",
                        "assert_greater_equal", x, y, data, summarize, message, name)


def _sign_assert(compare, zero_first, symbol, default_name, x, data, summarize, message, name):
  """Assert x compares with 0 as `symbol` says, via assert_less / assert_less_equal."""
  message = message or ""
  with _ops.name_scope(name, default_name, [x, data]):
    x = _ops.convert_to_tensor(x, name="x")
    if data is None:
      data = [message, "Condition x %s 0 did not hold element-wise:" % symbol,
              "x (%s) = " % x.name, x]
    zero = _ops.convert_to_tensor(0, dtype=x.dtype.base_dtype)
    a, b = (zero, x) if zero_first else (x, zero)
    return compare(a, b, data=data, summarize=summarize)


def assert_positive(x, data=None, summarize=None, message=None, name=None):
  """Assert x > 0 element-wise."""
  return _sign_assert(assert_less, True, ">", "assert_positive", x, data, summarize, message,
                      name)


def assert_negative(x, data=None, summarize=None, message=None, name=None):
  """Assert x < 0 element-wise."""
  return _sign_assert(assert_less, False, "<", "assert_negative", x, data, summarize, message,
                      name)


def assert_non_negative(x, data=None, summarize=None, message=None, name=None):
  """Assert x >= 0 element-wise."""
  return _sign_assert(assert_less_equal, True, ">=", "assert_non_negative", x, data, summarize,
                      message, name)


def assert_non_positive(x, data=None, summarize=None, message=None, name=None):
  """Assert x <= 0 element-wise."""
  return _sign_assert(assert_less_equal, False, "<=", "assert_non_positive", x, data,
                      summarize, message, name)


def assert_near(x, y, rtol=None, atol=None, data=None, summarize=None, message=None, name=None):
  """Assert |x - y| <= atol + rtol * |y| element-wise (both 10 * eps of the dtype by
  default)."""
  message = message or ""
  with _ops.name_scope(name, "assert_near", [x, y, rtol, atol, data]):
    x = _ops.convert_to_tensor(x, name="x")
    y = _ops.convert_to_tensor(y, name="y", dtype=x.dtype.base_dtype)
    eps = np.finfo(x.dtype.base_dtype.as_numpy_dtype).eps
    rtol = _ops.convert_to_tensor(10 * eps if rtol is None else rtol, name="rtol",
                                  dtype=x.dtype.base_dtype)
    atol = _ops.convert_to_tensor(10 * eps if atol is None else atol, name="atol",
                                  dtype=x.dtype.base_dtype)
    if data is None:
      data = [message, "x and y not equal to tolerance rtol = %s, atol = %s" % (rtol, atol),
              "x (%s) = " % x.name, x, "y (%s) = " % y.name, y]
    tolerance = atol + rtol * _math_ops.abs(y)
    condition = _math_ops.reduce_all(_math_ops.less_equal(_math_ops.abs(x - y), tolerance))
    return _logging_ops.Assert(condition, data, summarize=summarize)


def _rank_check(x, static_ok, dynamic_condition, data, summarize, static_error):
  """A NoOp when the static rank already satisfies the check, ValueError when it already
  violates it, else an Assert on the run-time rank."""
  rank = x.get_shape().ndims
  if rank is not None:
    if not static_ok(rank):
      raise ValueError(static_error(rank))
    return _control_flow_ops.no_op(name="static_checks_determined_all_ok")
  return _logging_ops.Assert(dynamic_condition(_array_ops.rank(x)), data, summarize=summarize)


def _tensor_label(x, name):
  return name if name else x.name


def assert_rank(x, rank, data=None, summarize=None, message=None, name=None):
  """Assert x has rank `rank` (an int)."""
  with _ops.name_scope(name, "assert_rank", (x, rank) + tuple(data or [])):
    x = _ops.convert_to_tensor(x, name="x")
    label = _tensor_label(x, name)
    message = message or ""
    if data is None:
      data = [message, "Tensor %s must have rank" % label, rank, "Received shape: ",
              _array_ops.shape(x)]
    return _rank_check(
        x, lambda r: r == rank, lambda r: _math_ops.equal(r, rank), data, summarize,
        lambda r: "%s.  Tensor %s must have rank %d.  Received rank %d, shape %s"
        % (message, label, rank, r, x.get_shape()))


def assert_rank_at_least(x, rank, data=None, summarize=None, message=None, name=None):
  """Assert x has rank `rank` or more."""
  with _ops.name_scope(name, "assert_rank_at_least", (x, rank) + tuple(data or [])):
    x = _ops.convert_to_tensor(x, name="x")
    label = _tensor_label(x, name)
    message = message or ""
    if data is None:
      data = [message, "Tensor %s must have rank at least" % label, rank,
              "Received shape: ", _array_ops.shape(x)]
    return _rank_check(
        x, lambda r: r >= rank, lambda r: _math_ops.greater_equal(r, rank), data, summarize,
        lambda r: "%s.  Tensor %s must have rank at least %d.  Received rank %d, shape %s"
        % (message, label, rank, r, x.get_shape()))


def assert_rank_in(x, ranks, data=None, summarize=None, message=None, name=None):
  """Assert the rank of x is one of `ranks`."""
  with _ops.name_scope(name, "assert_rank_in", (x,) + tuple(ranks) + tuple(data or [])):
    x = _ops.convert_to_tensor(x, name="x")
    label = _tensor_label(x, name)
    message = message or ""
    ranks = tuple(ranks)
    if data is None:
      data = [message, "Tensor %s must have rank in" % label] + list(ranks) + \
          ["Received shape: ", _array_ops.shape(x)]

    def any_rank(r):
      hits = [_math_ops.equal(r, k) for k in ranks]
      return _math_ops.reduce_any(_array_ops.stack(hits))

    return _rank_check(
        x, lambda r: r in ranks, any_rank, data, summarize,
        lambda r: "%s.  Tensor %s must have rank in %s.  Received rank %d, shape %s"
        % (message, label, ranks, r, x.get_shape()))


def assert_integer(x, message=None, name=None):
  """TypeError unless x has an integer dtype; otherwise a NoOp."""
  with _ops.name_scope(name, "assert_integer", [x]):
    x = _ops.convert_to_tensor(x, name="x")
    if not x.dtype.is_integer:
      raise TypeError("%sExpected \"x\" to be integer type.  Found: %s of dtype %s"
                      % (message or "", x.name, x.dtype))
    return _control_flow_ops.no_op("statically_determined_was_integer")


def assert_type(tensor, tf_type, message=None, name=None):
  """TypeError unless tensor's dtype is tf_type; otherwise a NoOp."""
  with _ops.name_scope(name, "assert_type", [tensor]):
    tensor = _ops.convert_to_tensor(tensor, name="tensor")
    tf_type = _dtypes.as_dtype(tf_type)
    if tensor.dtype.base_dtype != tf_type.base_dtype:
      raise TypeError("%s%s must be of type %s; got %s" % (message or "", name or tensor.name,
                                                          tf_type, tensor.dtype.base_dtype))
    return _control_flow_ops.no_op("statically_determined_correct_type")


def assert_scalar(tensor, name=None, message=None):
  """`tensor` itself; ValueError when its static shape is not a scalar's."""
  with _ops.name_scope(name, "assert_scalar", [tensor]) as name_scope:
    tensor = _ops.convert_to_tensor(tensor, name=name_scope)
    shape = tensor.get_shape()
    if shape.ndims != 0:
      raise ValueError("%sExpected scalar shape for %s, saw shape: %s."
                       % (message or "", tensor.name, shape))
    return tensor


def assert_proper_iterable(values):
  """TypeError when `values` is a Tensor, an ndarray or a string (iterable, but not a
  collection of values)."""
  unintentional = (_ops.Tensor, np.ndarray, str, bytes)
  if isinstance(values, unintentional):
    raise TypeError("Expected argument \"values\" to be a \"proper\" iterable.  Found: %s"
                    % type(values))
  if not hasattr(values, "__iter__"):
    raise TypeError("Expected argument \"values\" to be iterable.  Found: %s" % type(values))


def assert_same_float_dtype(tensors=None, dtype=None):
  """The float dtype shared by `tensors` (and `dtype`), float32 when none is given;
  ValueError when they differ or are not floating."""
  dtype = _dtypes.as_dtype(dtype).base_dtype if dtype is not None else None
  for t in tensors or []:
    if t is None:
      continue
    t_dtype = t.dtype.base_dtype
    if dtype is None:
      dtype = t_dtype
    elif t_dtype != dtype:
      raise ValueError("%s, type=%s must be of type %s." % (getattr(t, "name", t), t_dtype,
                                                           dtype))
  if dtype is None:
    return _dtypes.float32
  if not dtype.is_floating:
    raise ValueError("Expected floating point type, got %s." % dtype)
  return dtype
