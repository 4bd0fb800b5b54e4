"""tf.py_func, tf.numpy_function and tf.py_function: Python functions as graph ops.

The function is registered in this process under a token ("pyfunc_<n>") that the
op (PyFunc, PyFuncStateless or EagerPyFunc) carries as its `token` attr; the graph
keeps the function alive. When a session runs the op, its C kernel takes the GIL,
calls `_call` with the inputs as NumPy arrays, and converts the results back; the
GIL is held only for that call. A GraphDef holding such an op runs only in the
process that registered its function (as in TensorFlow).

Errors follow TensorFlow: ValueError and TypeError raised by the function become
InvalidArgumentError, StopIteration OutOfRangeError, MemoryError
ResourceExhaustedError, NotImplementedError UnimplementedError, a tf.errors class
stays itself, anything else is UnknownError; the message is the exception and its
traceback. PyFunc's results must have exactly the declared dtypes (a Python float is
float64); EagerPyFunc converts them to the declared dtypes.
"""
import threading
import traceback

import numpy as np

from tfc import dtypes as _dtypes
from tfc import errors as _errors
from tfc.framework import ops as _ops
from tfc.framework.op_def_library import _apply_op
from tfc.ops import gradient_registry as _gradient_registry

_LOCK = threading.Lock()
_FUNCS = {}
_COUNTER = [0]

# TensorFlow's names of dtypes in messages (DataTypeString).
_TYPE_NAMES = {1: "float", 2: "double", 3: "int32", 4: "uint8", 5: "int16", 6: "int8",
               7: "string", 8: "complex64", 9: "int64", 10: "bool", 14: "bfloat16",
               17: "uint16", 18: "complex128", 19: "half", 22: "uint32", 23: "uint64"}


def _type_name(enum):
  return _TYPE_NAMES.get(enum, _dtypes.as_dtype(enum).name)


class _GraphFuncs(object):
  """The tokens a graph registered; unregisters them when the graph goes away."""

  def __init__(self):
    self.tokens = []

  def __del__(self):
    for token in self.tokens:
      _FUNCS.pop(token, None)


def _register(func, graph):
  """Registers func and returns its token; the function stays registered as long as
  the graph lives."""
  with _LOCK:
    token = "pyfunc_%d" % _COUNTER[0]
    _COUNTER[0] += 1
    _FUNCS[token] = func
    held = getattr(graph, "_py_funcs_used_in_graph", None)
    if held is None:
      held = _GraphFuncs()
      graph._py_funcs_used_in_graph = held
    held.tokens.append(token)
  return token


class _EagerValue(np.ndarray):
  """The argument form of py_function's function: a NumPy array that also answers
  .numpy() (as TF's eager tensors do)."""

  def numpy(self):
    return np.asarray(self).copy()


def _as_array(value):
  """TF's conversion of a returned value: strings (str or bytes) become object arrays of
  bytes, everything else np.asarray."""
  result = np.asarray(value, order="C")
  if result.dtype.char == "U":
    encode = np.vectorize(lambda x: x.encode("utf-8"), otypes=[object])
    return encode(result) if result.size else result.astype(object)
  if result.dtype.char == "S":
    return np.asarray(value, order="C", dtype=object)
  return result


def _failure(exc):
  """The tf.errors exception for an exception raised by a registered function."""
  if isinstance(exc, _errors.OpError):
    return exc
  if isinstance(exc, (ValueError, TypeError)):
    cls = _errors.InvalidArgumentError
  elif isinstance(exc, StopIteration):
    cls = _errors.OutOfRangeError
  elif isinstance(exc, MemoryError):
    cls = _errors.ResourceExhaustedError
  elif isinstance(exc, NotImplementedError):
    cls = _errors.UnimplementedError
  else:
    cls = _errors.UnknownError
  message = "%s: %s\nTraceback (most recent call last):\n%s" % (
      type(exc).__name__, exc, "".join(traceback.format_tb(exc.__traceback__)))
  return cls(None, None, message)


def _call(token, eager, args, out_types):
  """Runs the function registered under token (bytes) on args (NumPy arrays) and returns
  a list of len(out_types) arrays with exactly those dtypes; raises a tf.errors class."""
  token = token.decode("utf-8")
  func = _FUNCS.get(token)
  if func is None:
    raise _errors.InvalidArgumentError(
        None, None, "Could not find callback with key=%s in the registry." % token)
  if eager:
    args = [np.asarray(a).view(_EagerValue) if isinstance(a, np.ndarray) and a.dtype != object
            else a for a in args]
  try:
    ret = func(*args)
  except Exception as e:  # pylint: disable=broad-except
    raise _failure(e) from None
  if ret is None:
    values = []
  elif isinstance(ret, (tuple, list)):
    values = list(ret)
  else:
    values = [ret]
  if len(values) != len(out_types):
    raise _errors.InvalidArgumentError(
        None, None, "%s returns %d values, but expects to see %d values."
        % (token, len(values), len(out_types)))
  out = []
  for i, (value, want) in enumerate(zip(values, out_types)):
    want_dtype = _dtypes.as_dtype(want)
    if eager:
      try:
        if want_dtype == _dtypes.string:
          array = _as_array(value)
        else:
          array = np.asarray(value, dtype=want_dtype.as_numpy_dtype, order="C")
      except (TypeError, ValueError) as e:
        raise _failure(e) from None
    else:
      try:
        array = _as_array(value)
      except Exception as e:  # pylint: disable=broad-except
        raise _failure(e) from None
    if array.dtype == object:
      got = 7 if all(isinstance(v, bytes) for v in array.reshape(-1)) else None
    else:
      try:
        got = _dtypes.as_dtype(array.dtype).as_datatype_enum
      except TypeError:
        got = None
    if got != want:
      raise _errors.InvalidArgumentError(
          None, None, "%d-th value returned by %s is %s, but expects %s"
          % (i, token, _type_name(got) if got is not None else str(array.dtype),
             _type_name(want)))
    out.append(array)
  return out


def _internal_py_func(func, inp, Tout, stateful, eager, name):
  if not callable(func):
    raise ValueError("Expected func to be callable, got func of type %s" % type(func))
  is_list = isinstance(Tout, (list, tuple))
  touts = list(Tout) if is_list else [Tout]
  touts = [_dtypes.as_dtype(t).base_dtype for t in touts]
  graph = _ops.get_default_graph()
  token = _register(func, graph)
  inputs = [_ops.convert_to_tensor(x) for x in (inp or [])]
  attrs = {"token": token, "Tin": [x.dtype.base_dtype for x in inputs], "Tout": touts}
  if eager:
    op_type = "EagerPyFunc"
  else:
    op_type = "PyFunc" if stateful else "PyFuncStateless"
  op = _apply_op(op_type, name, [inputs], attrs)
  if not touts:
    return op
  if is_list:
    return list(op.outputs)
  return op.outputs[0]


def py_func(func, inp, Tout, stateful=True, name=None):
  """An op that runs `func` (NumPy arrays in, NumPy arrays or values out) when the graph
  runs (tf.py_func). Tout: a dtype (one output Tensor), a list of dtypes (a list of
  Tensors) or [] (the Operation). stateful=False lets the op be treated as a pure function
  (PyFuncStateless). The outputs' shapes are unknown; the op has no gradient."""
  return _internal_py_func(func, inp, Tout, stateful, False, name)


def numpy_function(func, inp, Tout, stateful=True, name=None):
  """tf.numpy_function: py_func under its TF 2 name (func takes and returns NumPy values)."""
  return _internal_py_func(func, inp, Tout, stateful, False, name)


def py_function(func, inp, Tout, name=None):
  """An op that runs `func` when the graph runs, handing it its inputs as arrays that also
  have .numpy() (the form of TF's eager tensors); results are converted to Tout
  (EagerPyFunc). Arithmetic on the arguments is NumPy's: graph ops cannot be called on
  them, and the op has no gradient in tfc."""
  return _internal_py_func(func, inp, Tout, True, True, name)


eager_py_func = py_function

for _op_type in ("PyFunc", "PyFuncStateless", "EagerPyFunc"):
  _gradient_registry.NotDifferentiable(_op_type)
del _op_type
