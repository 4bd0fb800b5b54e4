"""tf.constant and the Python/NumPy -> Const conversion rules of TF 1.15."""
import numpy as np

from tfc import dtypes as _dtypes
from tfc.framework import ops as _ops
from tfc.framework import tensor_shape as _ts

_DT = _dtypes._INTERN
_INT32_MIN = -2 ** 31
_INT32_MAX = 2 ** 31 - 1


def _leaves(values):
  if isinstance(values, (list, tuple)):
    for v in values:
      for x in _leaves(v):
        yield x
  else:
    yield values


def _leaf_ok(v, dtype):
  if dtype is _dtypes.string:
    return isinstance(v, (str, bytes, np.str_, np.bytes_))
  if dtype is _dtypes.bool:
    return isinstance(v, (bool, np.bool_))
  if dtype.is_integer or dtype.is_quantized:
    return isinstance(v, (int, np.integer, bool, np.bool_))
  if dtype.is_floating:
    return isinstance(v, (int, float, np.integer, np.floating, bool, np.bool_))
  if dtype.is_complex:
    return isinstance(v, (int, float, complex, np.number, bool, np.bool_))
  return True


def _assert_compatible(values, dtype):
  for v in _leaves(values):
    if not _leaf_ok(v, dtype):
      raise TypeError("Expected %s, got %s of type '%s' instead."
                      % (dtype.name, repr(v), type(v).__name__))


def _to_bytes_array(arr):
  """An object array of bytes from an array of str/bytes/objects."""
  flat = arr.ravel().tolist() if arr.ndim else [arr.item()]
  out = np.empty(len(flat), dtype=object)
  for i, x in enumerate(flat):
    if isinstance(x, str):
      out[i] = x.encode("utf-8")
    elif isinstance(x, bytes):
      out[i] = x
    else:
      raise TypeError("Expected string, got %s of type '%s' instead." % (repr(x), type(x).__name__))
  return out.reshape(arr.shape)


def _to_numpy(value, dtype):
  """TF's make_tensor_proto dtype rules; returns (ndarray, DType)."""
  if isinstance(value, (np.ndarray, np.generic)):
    arr = np.asarray(value)
    if dtype is not None:
      if dtype.base_dtype is _dtypes.string:
        if arr.dtype.kind not in "USO":
          raise TypeError("Expected string, got %s of type '%s' instead."
                          % (repr(value), type(value).__name__))
        return _to_bytes_array(arr), _dtypes.string
      npt = dtype.as_numpy_dtype
      if arr.dtype != npt:
        if arr.dtype.kind in "USO":
          raise TypeError("Expected %s, got %s of type '%s' instead."
                          % (dtype.name, repr(value), type(value).__name__))
        arr = arr.astype(npt)
      return arr, dtype
    if arr.dtype.kind in "USO":
      return _to_bytes_array(arr), _dtypes.string
    try:
      return arr, _dtypes.as_dtype(arr.dtype)
    except TypeError:
      raise TypeError("Unsupported numpy type: %s" % arr.dtype)

  if dtype is not None:
    _assert_compatible(value, dtype)
    if dtype is _dtypes.string:
      return _to_bytes_array(np.array(value, dtype=object)), dtype
    try:
      arr = np.array(value, dtype=dtype.as_numpy_dtype)
    except OverflowError:
      raise TypeError("Expected %s, got %s of type '%s' instead."
                      % (dtype.name, repr(value), type(value).__name__))
    return arr, dtype

  if isinstance(value, (str, bytes)):
    return np.array(value.encode("utf-8") if isinstance(value, str) else value,
                    dtype=object), _dtypes.string
  if value is None:
    raise ValueError("None values not supported.")
  try:
    arr = np.array(value)
  except OverflowError:
    raise ValueError("Can't convert Python int %r to a Tensor: it does not fit in int64" % value)
  kind = arr.dtype.kind
  if kind == "f":
    if arr.dtype == np.float64:
      arr = arr.astype(np.float32)
  elif kind == "i":
    if arr.dtype == np.int64:
      if arr.size == 0 or (arr.min() >= _INT32_MIN and arr.max() <= _INT32_MAX):
        arr = arr.astype(np.int32)
  elif kind in "US":
    # from the Python values: NumPy's fixed-width bytes drop trailing NULs
    if not isinstance(value, np.ndarray):
      arr = np.array(value, dtype=object)
    return _to_bytes_array(arr), _dtypes.string
  elif kind == "O":
    if all(isinstance(x, (str, bytes)) for x in _leaves(value)):
      return _to_bytes_array(np.array(value, dtype=object)), _dtypes.string
    bad = None
    for x in _leaves(value):
      if x is None or not isinstance(x, (int, float, bool, complex, str, bytes, np.generic)):
        bad = x
        break
    if bad is None and arr.ndim == 0:
      bad = value
    raise TypeError("Failed to convert object of type %s to Tensor. Contents: %s. "
                    "Consider casting elements to a supported type." % (type(value), value))
  try:
    return arr, _dtypes.as_dtype(arr.dtype)
  except TypeError:
    raise TypeError("Failed to convert object of type %s to Tensor. Contents: %s."
                    % (type(value), value))


def _apply_shape(arr, shape, verify_shape):
  shape = _ts.as_shape(shape)
  if not shape.is_fully_defined():
    raise ValueError("Shape must be fully defined to build a constant: %s" % shape)
  shape = tuple(shape.as_list())
  size = 1
  for d in shape:
    size *= d
  if verify_shape and arr.shape != shape:
    raise TypeError("Expected Tensor's shape: %s, got %s." % (shape, arr.shape))
  if arr.size > size:
    raise ValueError("Too many elements provided. Needed at most %d, but received %d"
                     % (size, arr.size))
  if arr.size == size:
    return arr.reshape(shape)
  if size == 0:
    return np.zeros(shape, dtype=arr.dtype)
  if arr.size == 0:
    raise ValueError("Cannot fill a tensor of shape %s from an empty value" % (shape,))
  flat = arr.ravel()
  out = np.empty(size, dtype=arr.dtype)
  out[:flat.size] = flat
  out[flat.size:] = flat[-1]
  return out.reshape(shape)


def _contains_tensor(value):
  if isinstance(value, (list, tuple)):
    for v in value:
      if isinstance(v, _ops.Tensor) or _contains_tensor(v):
        return True
      if not isinstance(v, (list, tuple, int, float, str, bytes, bool, np.generic, np.ndarray)):
        if _ops._conversion_func_for(type(v)) is not None:
          return True
  return False


def _constant_in_graph(g, value, dtype, shape, name, verify_shape, is_conversion=False):
  if is_conversion and isinstance(value, (list, tuple)) and value and _contains_tensor(value):
    from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
    return array_ops._autopacking_helper(value, dtype, name if name != "Const" else "packed", g)
  arr, dt = _to_numpy(value, dtype)
  if shape is not None:
    arr = _apply_shape(arr, shape, verify_shape)
  from tfc.framework import op_def_library  # pylint: disable=g-import-not-at-top
  opname = op_def_library._op_name(g, name)
  op = op_def_library._finish_op(g, "Const", opname, [], {"value": arr, "dtype": dt._type_enum},
                                 [])
  return op.outputs[0]


def constant(value, dtype=None, shape=None, name="Const", verify_shape=False):
  """Creates a Const tensor (TF 1.15 `tf.constant`)."""
  if dtype is not None:
    dtype = _dtypes.as_dtype(dtype).base_dtype
  if isinstance(value, _ops.Tensor):
    raise TypeError("Expected a Python or NumPy value for tf.constant, got a Tensor: %r" % value)
  return _constant_in_graph(_ops.get_default_graph(), value, dtype, shape, name or "Const",
                            verify_shape)


constant_v1 = constant


def _tensor_shape_conversion(s, dtype=None, name=None, as_ref=False):
  if not s.is_fully_defined():
    raise ValueError("Cannot convert a partially known TensorShape to a Tensor: %s" % s)
  s_list = s.as_list()
  int64_value = 0
  for dim in s_list:
    if dim >= 2 ** 31:
      int64_value = dim
      break
  if dtype is not None:
    if dtype not in (_dtypes.int32, _dtypes.int64):
      raise TypeError("Cannot convert a TensorShape to dtype: %s" % dtype)
    if dtype == _dtypes.int32 and int64_value:
      raise ValueError("Cannot convert a TensorShape to dtype int32; a dimension is too large ("
                       + str(int64_value) + ")")
  else:
    dtype = _dtypes.int64 if int64_value else _dtypes.int32
  if name is None:
    name = "shape_as_tensor"
  return constant(s_list, dtype=dtype, name=name)


def _dimension_conversion(d, dtype=None, name=None, as_ref=False):
  if d.value is None:
    raise ValueError("Cannot convert an unknown Dimension to a Tensor: %s" % d)
  if dtype is not None:
    if dtype not in (_dtypes.int32, _dtypes.int64):
      raise TypeError("Cannot convert a TensorShape to dtype: %s" % dtype)
  else:
    dtype = _dtypes.int32
  if name is None:
    name = "shape_as_tensor"
  return constant(d.value, dtype=dtype, name=name)


_ops.register_tensor_conversion_function(_ts.TensorShape, _tensor_shape_conversion, 100)
_ops.register_tensor_conversion_function(_ts.Dimension, _dimension_conversion, 100)


def is_constant(tensor_or_op):
  op = tensor_or_op if isinstance(tensor_or_op, _ops.Operation) else tensor_or_op.op
  return op.type == "Const"
