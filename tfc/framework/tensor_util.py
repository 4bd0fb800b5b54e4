"""Static values of graph tensors: tf.get_static_value and tf.is_symbolic_tensor.

get_static_value folds the small set of ops whose value is known while the
graph is built (constants, shapes with fully known dimensions, and the cheap
ops that pass, pack, cast or slice such values), as TF 1.x's constant_value
does; everything else is None (the value is known only when a session runs).
"""
import numpy as _np

from tfc import dtypes as _dtypes
from tfc.framework import ops as _ops


def is_symbolic_tensor(tensor):
  """True for a graph tf.Tensor (a symbolic value computed when a session runs)."""
  return isinstance(tensor, _ops.Tensor)


def _shape_value(t):
  shape = t.shape
  if shape.dims is None:
    return None
  return shape


def _out_dtype(op):
  return _dtypes.as_dtype(op._output_types[0] % 100).as_numpy_dtype


def _static(tensor):
  """The NumPy value of tensor when it is known at graph-build time, else None."""
  op = tensor.op
  t = op.type
  if t == "Const":
    return _np.asarray(op.get_attr("value"))
  if t == "Shape":
    shape = op.inputs[0].shape
    if not shape.is_fully_defined():
      return None
    return _np.array(shape.as_list(), dtype=_out_dtype(op))
  if t == "Size":
    shape = op.inputs[0].shape
    if not shape.is_fully_defined():
      return None
    return _np.array(shape.num_elements(), dtype=_out_dtype(op))
  if t == "Rank":
    shape = op.inputs[0].shape
    if shape.ndims is None:
      return None
    return _np.array(shape.ndims, dtype=_np.int32)
  if t in ("Identity", "StopGradient", "Snapshot", "PreventGradient"):
    return _static(op.inputs[0])
  if t == "Cast":
    value = _static(op.inputs[0])
    return None if value is None else value.astype(_out_dtype(op))
  if t == "Range":
    parts = [_static(x) for x in op.inputs]
    if any(p is None for p in parts):
      return None
    return _np.arange(parts[0], parts[1], parts[2], dtype=_out_dtype(op))
  if t in ("ConcatV2", "Concat"):
    if t == "ConcatV2":
      axis, values = _static(op.inputs[-1]), op.inputs[:-1]
    else:
      axis, values = _static(op.inputs[0]), op.inputs[1:]
    parts = [_static(x) for x in values]
    if axis is None or any(p is None for p in parts):
      return None
    return _np.concatenate(parts, axis=int(axis))
  if t == "Pack":
    parts = [_static(x) for x in op.inputs]
    if any(p is None for p in parts):
      return None
    return _np.stack(parts, axis=op.get_attr("axis")).astype(_out_dtype(op))
  if t == "Unpack":
    value = _static(op.inputs[0])
    if value is None:
      return None
    return _np.take(value, tensor.value_index, axis=op.get_attr("axis"))
  if t == "Fill":
    dims, value = _static(op.inputs[0]), _static(op.inputs[1])
    if dims is None or value is None:
      return None
    return _np.full([int(d) for d in dims], value, dtype=value.dtype)
  if t == "Reshape":
    value, shape = _static(op.inputs[0]), _static(op.inputs[1])
    if value is None or shape is None:
      return None
    return value.reshape([int(d) for d in shape])
  if t in ("Equal", "NotEqual"):
    a, b = _static(op.inputs[0]), _static(op.inputs[1])
    if a is None or b is None:
      return None
    return _np.equal(a, b) if t == "Equal" else _np.not_equal(a, b)
  if t == "StridedSlice":
    return _strided_slice(op)
  return None


def _strided_slice(op):
  """A 1-D slice (one begin/end/stride, no ellipsis or new axes) of a known value, or of a
  shape whose sliced dimensions are known."""
  if any(op.get_attr(a) for a in ("ellipsis_mask", "new_axis_mask")):
    return None
  begin, end, strides = (_static(x) for x in op.inputs[1:])
  if begin is None or end is None or strides is None or begin.size != 1:
    return None
  source = op.inputs[0]
  if source.op.type == "Shape":
    shape = source.op.inputs[0].shape
    if shape.ndims is None:
      return None
    values = _np.array([-1 if d is None else d for d in shape.as_list()], dtype=_np.int64)
    unknown_is_negative = True
  else:
    values = _static(source)
    if values is None or values.ndim != 1:
      return None
    unknown_is_negative = False
  b = None if op.get_attr("begin_mask") & 1 else int(begin.reshape(-1)[0])
  e = None if op.get_attr("end_mask") & 1 else int(end.reshape(-1)[0])
  step = int(strides.reshape(-1)[0])
  if op.get_attr("shrink_axis_mask") & 1:
    if b is None or not -len(values) <= b < len(values):
      return None
    picked = values[b:b + 1] if b != -1 else values[-1:]
    if unknown_is_negative and picked[0] < 0:
      return None
    return _np.array(picked[0], dtype=_out_dtype(op))
  picked = values[b:e:step]
  if unknown_is_negative and (picked < 0).any():
    return None
  return picked.astype(_out_dtype(op))


def get_static_value(tensor, partial=False):
  """The value of tensor as a NumPy array when it can be computed without running a
  session, else None. Values that are not Tensors are returned as they are.

  partial=True is accepted for TF's signature; tfc folds whole values only.
  """
  del partial
  if isinstance(tensor, _ops.Tensor):
    value = _static(tensor)
    if value is not None and value.dtype != _np.object_:
      want = tensor.dtype.base_dtype
      if want.is_numpy_compatible and value.dtype != want.as_numpy_dtype:
        value = value.astype(want.as_numpy_dtype)
    return value
  from tfc.ops import variables as _variables  # pylint: disable=g-import-not-at-top
  if isinstance(tensor, _variables.Variable):
    return None
  return tensor


constant_value = get_static_value
