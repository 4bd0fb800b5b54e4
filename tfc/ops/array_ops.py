"""Array op wrappers (TF 1.15 names and default op names), placeholders and
Tensor.__getitem__ (strided slicing)."""
import builtins as _builtins
import sys as _sys

import numpy as np

from tfc import dtypes as _dtypes
from tfc.framework import constant_op as _constant_op
from tfc.framework import ops as _ops
from tfc.framework import tensor_shape as _ts
from tfc.framework.op_def_library import _apply_op, _has_op

_Tensor = _ops.Tensor
newaxis = None


def _deprecated_argument_lookup(new_name, new_value, old_name, old_value):
  if old_value is not None:
    if new_value is not None:
      raise ValueError("Cannot specify both '%s' and '%s'" % (old_name, new_name))
    return old_value
  return new_value


# -- sources -----------------------------------------------------------------------------


def placeholder(dtype, shape=None, name=None):
  """A placeholder that must be fed (TF 1.15 `tf.placeholder`)."""
  attrs = {"dtype": _dtypes.as_dtype(dtype).base_dtype}
  if shape is not None:
    attrs["shape"] = _ts.as_shape(shape)._as_tuple_or_none()
  else:
    attrs["shape"] = None
  return _apply_op("Placeholder", name, [], attrs).outputs[0]


def placeholder_with_default(input, shape, name=None):  # pylint: disable=redefined-builtin
  return _apply_op("PlaceholderWithDefault", name, [input],
                   {"shape": _ts.as_shape(shape)._as_tuple_or_none()}).outputs[0]


def _constant_if_small(value, shape, dtype, name):
  try:
    if np.prod(shape) < 1000:
      return _constant_op.constant(value, shape=shape, dtype=dtype, name=name)
  except TypeError:
    pass
  return None


def _shape_to_tensor(shape):
  if isinstance(shape, _Tensor):
    return shape
  try:
    s = _ts.TensorShape(shape) if not isinstance(shape, _ts.TensorShape) else shape
    return _constant_op._tensor_shape_conversion(s)
  except (TypeError, ValueError):
    return _ops.convert_to_tensor(shape, dtype=_dtypes.int32)


def _filled(value_fn, default_name, shape, dtype, name):
  dtype = _dtypes.as_dtype(dtype).base_dtype
  with _ops.name_scope(name, default_name, [shape]) as name:
    value = value_fn(dtype)
    if not isinstance(shape, _Tensor):
      try:
        if isinstance(shape, _ts.TensorShape):
          dims = shape.as_list()
        else:
          dims = shape
        if isinstance(dims, (list, tuple)) and not any(isinstance(d, _Tensor) for d in dims):
          dims = [_ts.dimension_value(d) for d in dims]
          out = _constant_if_small(value, dims, dtype, name)
          if out is not None:
            return out
        elif isinstance(dims, (int, np.integer)):
          out = _constant_if_small(value, [dims], dtype, name)
          if out is not None:
            return out
        shape = _constant_op._tensor_shape_conversion(_ts.TensorShape(shape))
      except (TypeError, ValueError):
        shape = _ops.convert_to_tensor(shape, dtype=_dtypes.int32)
    if shape._rank() == 0:
      shape = reshape(shape, [-1])
    return fill(shape, _constant_op.constant(value, dtype=dtype), name=name)


def _zero(dtype):
  if dtype == _dtypes.bool:
    return False
  if dtype == _dtypes.string:
    return ""
  return 0


def _one(dtype):
  return True if dtype == _dtypes.bool else 1


def zeros(shape, dtype=_dtypes.float32, name=None):
  return _filled(_zero, "zeros", shape, dtype, name)


def ones(shape, dtype=_dtypes.float32, name=None):
  return _filled(_one, "ones", shape, dtype, name)


def fill(dims, value, name=None):
  return _apply_op("Fill", name, [dims, value]).outputs[0]


def shape_internal(input, name=None, optimize=True, out_type=_dtypes.int32):  # pylint: disable=redefined-builtin
  with _ops.name_scope(name, "Shape", [input]) as name:
    if not isinstance(input, _Tensor):
      input = _ops.convert_to_tensor(input)
    s = input.get_shape()
    if optimize and s.is_fully_defined():
      return _constant_op.constant(s.as_list(), out_type, name=name)
    return _apply_op("Shape", name, [input], {"out_type": out_type}).outputs[0]


def shape(input, name=None, out_type=_dtypes.int32):  # pylint: disable=redefined-builtin
  return shape_internal(input, name, optimize=True, out_type=out_type)


def shape_n(input, out_type=_dtypes.int32, name=None):  # pylint: disable=redefined-builtin
  return list(_apply_op("ShapeN", name, [list(input)], {"out_type": out_type}).outputs)


def size(input, name=None, out_type=_dtypes.int32):  # pylint: disable=redefined-builtin
  with _ops.name_scope(name, "Size", [input]) as name:
    if not isinstance(input, _Tensor):
      input = _ops.convert_to_tensor(input)
    n = input.get_shape().num_elements()
    if n is not None:
      return _constant_op.constant(n, out_type, name=name)
    return _apply_op("Size", name, [input], {"out_type": out_type}).outputs[0]


def rank(input, name=None):  # pylint: disable=redefined-builtin
  with _ops.name_scope(name, "Rank", [input]) as name:
    if not isinstance(input, _Tensor):
      input = _ops.convert_to_tensor(input)
    r = input._rank()
    if r is not None:
      return _constant_op.constant(r, _dtypes.int32, name=name)
    return _apply_op("Rank", name, [input]).outputs[0]


def zeros_like(tensor, dtype=None, name=None, optimize=True):
  with _ops.name_scope(name, "zeros_like", [tensor]) as name:
    tensor = _ops.convert_to_tensor(tensor, name="tensor")
    if optimize and tensor.shape.is_fully_defined() and tensor.dtype != _dtypes.variant:
      return zeros(tensor.shape, dtype=dtype or tensor.dtype.base_dtype, name=name)
    if dtype is not None and _dtypes.as_dtype(dtype) != tensor.dtype.base_dtype:
      return zeros(shape_internal(tensor, optimize=optimize), dtype=dtype, name=name)
    return _apply_op("ZerosLike", name, [tensor]).outputs[0]


def ones_like(tensor, dtype=None, name=None, optimize=True):
  with _ops.name_scope(name, "ones_like", [tensor]) as name:
    tensor = _ops.convert_to_tensor(tensor, name="tensor")
    ones_shape = shape_internal(tensor, optimize=optimize)
    if dtype is None:
      dtype = tensor.dtype.base_dtype
    ret = ones(ones_shape, dtype=dtype, name=name)
    ret.set_shape(tensor.get_shape())
    return ret


# -- shape manipulation -----------------------------------------------------------------------


def identity(input, name=None):  # pylint: disable=redefined-builtin
  return _apply_op("Identity", name, [input]).outputs[0]


def stop_gradient(input, name=None):  # pylint: disable=redefined-builtin
  return _apply_op("StopGradient", name, [input]).outputs[0]


def reshape(tensor, shape, name=None):
  return _apply_op("Reshape", name, [tensor, shape]).outputs[0]


def squeeze(input, axis=None, name=None, squeeze_dims=None):  # pylint: disable=redefined-builtin
  axis = _deprecated_argument_lookup("axis", axis, "squeeze_dims", squeeze_dims)
  if np.isscalar(axis):
    axis = [axis]
  return _apply_op("Squeeze", name, [input],
                   {"squeeze_dims": [] if axis is None else [int(a) for a in axis]}).outputs[0]


def expand_dims(input, axis=None, name=None, dim=None):  # pylint: disable=redefined-builtin
  axis = _deprecated_argument_lookup("axis", axis, "dim", dim)
  if axis is None:
    raise ValueError("Must specify an axis argument to tf.expand_dims()")
  return _apply_op("ExpandDims", name, [input, axis]).outputs[0]


def transpose(a, perm=None, name="transpose", conjugate=False):
  with _ops.name_scope(name, "transpose", [a]) as name:
    a = _ops.convert_to_tensor(a, name="a")
    # conjugation changes only complex values (as in TF, real tensors get a Transpose)
    op_type = "ConjugateTranspose" if conjugate and a.dtype.is_complex else "Transpose"
    if perm is None:
      r = a._rank()
      if not r:
        rk = _apply_op("Rank", None, [a]).outputs[0]
        perm = (rk - 1) - _apply_op("Range", None, [0, rk, 1]).outputs[0]
      else:
        perm = np.arange(r - 1, -1, -1, dtype=np.int32)
      ret = _apply_op(op_type, name, [a, perm]).outputs[0]
      in_shape = a._shape
      if in_shape is not None and ret._shape is not None and None in ret._shape:
        ret.set_shape(list(in_shape[::-1]))
      return ret
    return _apply_op(op_type, name, [a, perm]).outputs[0]


def matrix_transpose(a, name="matrix_transpose", conjugate=False):
  with _ops.name_scope(name, values=[a]):
    a = _ops.convert_to_tensor(a, name="a")
    r = a._rank()
    if r is None:
      raise ValueError("matrix_transpose requires a known rank")
    if r < 2:
      raise ValueError("Argument 'a' should be a (batch) matrix, with rank >= 2.  Found: %s"
                       % a.get_shape())
    perm = list(_builtins.range(r - 2)) + [r - 1, r - 2]
    return transpose(a, perm=perm, conjugate=conjugate)


def _is_intlike(x):
  return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def concat(values, axis, name="concat"):
  # TF 0.11 argument order: concat(concat_dim, values).
  if _is_intlike(values) and isinstance(axis, (list, tuple)):
    values, axis = axis, values
  if not isinstance(values, (list, tuple)):
    values = [values]
  if len(values) == 1:
    with _ops.name_scope(name):
      ax = _ops.convert_to_tensor(axis, name="concat_dim", dtype=_dtypes.int32)
      ax.get_shape().assert_is_compatible_with(_ts.TensorShape([]))
      return identity(values[0], name=name)
  return _apply_op("ConcatV2", name, [list(values), axis]).outputs[0]


def stack(values, axis=0, name="stack"):
  if axis == 0:
    try:
      return _ops.convert_to_tensor(values, name=name)
    except (TypeError, ValueError):
      pass
  value_shape = _ops.convert_to_tensor(values[0], name=name)._shape
  if value_shape is not None:
    expanded = len(value_shape) + 1
    if axis < -expanded or axis >= expanded:
      raise ValueError("axis = %d not in [%d, %d)" % (axis, -expanded, expanded))
  return _apply_op("Pack", name, [list(values)], {"axis": axis}).outputs[0]


def pack(values, axis=0, name="pack"):
  return stack(values, axis=axis, name=name)


def parallel_stack(values, name="parallel_stack"):
  return stack(values, name=name)


def unstack(value, num=None, axis=0, name="unstack"):
  if num is None:
    value = _ops.convert_to_tensor(value)
    value_shape = value.get_shape()
    if value_shape.ndims is not None:
      if axis < -value_shape.ndims or axis >= value_shape.ndims:
        raise ValueError("axis = %d not in [%d, %d)" % (axis, -value_shape.ndims,
                                                        value_shape.ndims))
      num = value_shape.dims[axis].value
  if num is None:
    raise ValueError("Cannot infer num from shape %s" % value_shape)
  return list(_apply_op("Unpack", name, [value], {"num": int(num), "axis": axis}).outputs)


def unpack(value, num=None, axis=0, name="unpack"):
  return unstack(value, num=num, axis=axis, name=name)


def _is_tensor_like(x):
  return isinstance(x, (_Tensor, np.ndarray, list, tuple)) or hasattr(x, "_as_graph_element")


def split(value, num_or_size_splits=None, axis=0, num=None, name="split", **kwargs):
  """Splits a tensor; also accepts TF 0.11's split(split_dim, num_split, value)."""
  if "split_dim" in kwargs or "num_split" in kwargs:
    axis = kwargs.pop("split_dim", axis)
    num_or_size_splits = kwargs.pop("num_split", num_or_size_splits)
    value = kwargs.pop("value", value)
  if kwargs:
    raise TypeError("split() got unexpected keyword arguments: %s" % ", ".join(kwargs))
  # TF 0.11 positional order: split(split_dim, num_split, value).
  if _is_intlike(value) and not isinstance(axis, bool) and _is_tensor_like(axis):
    value, axis = axis, value
  if isinstance(num_or_size_splits, (int, np.integer, _ts.Dimension)) and \
     not isinstance(num_or_size_splits, bool):
    n = int(num_or_size_splits) if not isinstance(num_or_size_splits, _ts.Dimension) \
        else num_or_size_splits.value
    return list(_apply_op("Split", name, {"split_dim": axis, "value": value},
                          {"num_split": n}).outputs)
  size_splits = _ops.convert_to_tensor(num_or_size_splits)
  if size_splits._rank() == 0:
    raise ValueError("Rank-0 tensors are not supported as the num_or_size_splits argument to "
                     "split. Argument provided: %s" % (num_or_size_splits,))
  if num is None:
    s = size_splits._shape
    if s:
      num = s[0]
    if num is None:
      raise ValueError("Cannot infer num from shape %s" % (num_or_size_splits,))
  return list(_apply_op("SplitV", name, {"value": value, "size_splits": size_splits,
                                         "split_dim": axis}, {"num_split": int(num)}).outputs)


def slice(input_, begin, size, name=None):  # pylint: disable=redefined-builtin
  return _apply_op("Slice", name, [input_, begin, size]).outputs[0]


def strided_slice(input_, begin, end, strides=None, begin_mask=0, end_mask=0, ellipsis_mask=0,
                  new_axis_mask=0, shrink_axis_mask=0, var=None, name=None):
  if strides is None:
    strides = ones_like(begin)
  return _apply_op("StridedSlice", name, [input_, begin, end, strides],
                   {"begin_mask": begin_mask, "end_mask": end_mask,
                    "ellipsis_mask": ellipsis_mask, "new_axis_mask": new_axis_mask,
                    "shrink_axis_mask": shrink_axis_mask}).outputs[0]


_SLICE_TYPE_ERROR = ("Only integers, slices (`:`), ellipsis (`...`), "
                     "tf.newaxis (`None`) and scalar tf.int32/tf.int64 tensors are valid indices")
_SUPPORTED_SLICE_DTYPES = (3, 103, 9, 109)


def _check_index(idx):
  if isinstance(idx, (int, np.integer, _ts.Dimension)) and not isinstance(idx, bool):
    return
  dtype = getattr(idx, "dtype", None)
  if dtype is None:
    raise TypeError(_SLICE_TYPE_ERROR + ", got {!r}".format(idx))
  try:
    enum = _dtypes.as_dtype(dtype)._type_enum
  except TypeError:
    enum = None
  shp = getattr(idx, "shape", None)
  if enum not in _SUPPORTED_SLICE_DTYPES or (shp is not None and len(shp) == 1):
    raise TypeError(_SLICE_TYPE_ERROR + ", got {!r}".format(idx))


def _slice_helper(tensor, slice_spec, var=None):
  if isinstance(slice_spec, bool) or \
     (isinstance(slice_spec, _Tensor) and slice_spec.dtype == _dtypes.bool) or \
     (isinstance(slice_spec, np.ndarray) and slice_spec.dtype == bool):
    return boolean_mask(tensor=tensor, mask=slice_spec)
  if not isinstance(slice_spec, (list, tuple)):
    slice_spec = [slice_spec]
  begin, end, strides = [], [], []
  index = 0
  new_axis_mask, shrink_axis_mask = 0, 0
  begin_mask, end_mask = 0, 0
  ellipsis_mask = 0
  for s in slice_spec:
    if isinstance(s, _builtins.slice):
      if s.start is not None and (isinstance(s.start, _Tensor) or s.start != _sys.maxsize):
        _check_index(s.start)
        begin.append(s.start)
      else:
        begin.append(0)
        begin_mask |= (1 << index)
      if s.stop is not None and (isinstance(s.stop, _Tensor) or s.stop != _sys.maxsize):
        _check_index(s.stop)
        end.append(s.stop)
      else:
        end.append(0)
        end_mask |= (1 << index)
      if s.step is not None:
        _check_index(s.step)
        strides.append(s.step)
      else:
        strides.append(1)
    elif s is Ellipsis:
      begin.append(0)
      end.append(0)
      strides.append(1)
      ellipsis_mask |= (1 << index)
    elif s is None:
      begin.append(0)
      end.append(0)
      strides.append(1)
      new_axis_mask |= (1 << index)
    else:
      _check_index(s)
      begin.append(s)
      end.append(s + 1)
      strides.append(1)
      shrink_axis_mask |= (1 << index)
    index += 1

  with _ops.name_scope(None, "strided_slice", [tensor] + begin + end + strides) as name:
    if begin:
      packed_begin, packed_end, packed_strides = stack(begin), stack(end), stack(strides)
      if (packed_begin.dtype == _dtypes.int64 or packed_end.dtype == _dtypes.int64 or
          packed_strides.dtype == _dtypes.int64):
        from tfc.ops import math_ops  # pylint: disable=g-import-not-at-top
        packed_begin = math_ops.cast(packed_begin, _dtypes.int64)
        packed_end = math_ops.cast(packed_end, _dtypes.int64)
        packed_strides = math_ops.cast(packed_strides, _dtypes.int64)
    else:
      var_empty = _constant_op.constant([], dtype=_dtypes.int32)
      packed_begin = packed_end = packed_strides = var_empty
    return strided_slice(tensor, packed_begin, packed_end, packed_strides,
                         begin_mask=begin_mask, end_mask=end_mask,
                         shrink_axis_mask=shrink_axis_mask, new_axis_mask=new_axis_mask,
                         ellipsis_mask=ellipsis_mask, var=var, name=name)


_ops.Tensor.__getitem__ = _slice_helper


def boolean_mask(tensor, mask, name="boolean_mask", axis=None):
  with _ops.name_scope(name, values=[tensor, mask]):
    tensor = _ops.convert_to_tensor(tensor, name="tensor")
    mask = _ops.convert_to_tensor(mask, name="mask")
    shape_mask = mask.get_shape()
    ndims_mask = shape_mask.ndims
    if ndims_mask is None:
      raise ValueError("Number of mask dimensions must be specified, even if some dimensions"
                       " are None.  E.g. shape=[None] is ok, but shape=None is not.")
    if ndims_mask == 0:
      raise ValueError("mask cannot be scalar.")
    axis = 0 if axis is None else axis
    static = tensor.get_shape()
    if static.ndims is not None:
      static[axis:axis + ndims_mask].assert_is_compatible_with(shape_mask)
    leading_size = _apply_op("Prod", None, [shape(tensor)[axis:axis + ndims_mask], [0]]
                             ).outputs[0]
    tensor = reshape(tensor, concat([shape(tensor)[:axis], [leading_size],
                                     shape(tensor)[axis + ndims_mask:]], 0))
    if static.ndims is not None:
      first_dim = static[axis:axis + ndims_mask].num_elements()
      tensor.set_shape(_ts.as_shape(static[:axis]).concatenate([first_dim]).concatenate(
          static[axis + ndims_mask:]))
    mask = reshape(mask, [-1])
    indices = squeeze(where(mask), axis=[1])
    return gather(tensor, indices, axis=axis)


def tile(input, multiples, name=None):  # pylint: disable=redefined-builtin
  return _apply_op("Tile", name, [input, multiples]).outputs[0]


def pad(tensor, paddings, mode="CONSTANT", name=None, constant_values=0):
  mode = mode.upper()
  if mode == "CONSTANT":
    if not isinstance(constant_values, _Tensor) and constant_values == 0:
      return _apply_op("Pad", name, [tensor, paddings]).outputs[0]
    return _apply_op("PadV2", name, [tensor, paddings, constant_values]).outputs[0]
  if mode in ("REFLECT", "SYMMETRIC"):
    return _apply_op("MirrorPad", name, [tensor, paddings], {"mode": mode}).outputs[0]
  raise ValueError("Unknown padding mode: %s" % mode)


def gather(params, indices, validate_indices=None, name=None, axis=None, batch_dims=0):
  if axis is None:
    axis = batch_dims
  if _has_op("GatherV2"):
    attrs = {"batch_dims": batch_dims} if batch_dims else None
    return _apply_op("GatherV2", name, [params, indices, axis], attrs).outputs[0]
  return _apply_op("Gather", name, [params, indices]).outputs[0]


def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
  with _ops.name_scope(name, "one_hot", [indices, depth, on_value, off_value, axis,
                                         dtype]) as name:
    on_exists = on_value is not None
    off_exists = off_value is not None
    on_dtype = _ops.convert_to_tensor(on_value).dtype.base_dtype if on_exists else None
    off_dtype = _ops.convert_to_tensor(off_value).dtype.base_dtype if off_exists else None
    if on_exists or off_exists:
      if dtype is not None:
        dtype = _dtypes.as_dtype(dtype)
        if on_exists and on_dtype != dtype:
          raise TypeError("dtype {0} of on_value does not match dtype parameter {1}"
                          .format(on_dtype, dtype))
        if off_exists and off_dtype != dtype:
          raise TypeError("dtype {0} of off_value does not match dtype parameter {1}"
                          .format(off_dtype, dtype))
      else:
        dtype = on_dtype if on_exists else off_dtype
      if on_exists and off_exists and on_dtype != off_dtype:
        raise TypeError("dtype {0} of on_value does not match dtype {1} of off_value"
                        .format(on_dtype, off_dtype))
    if dtype is None:
      dtype = _dtypes.float32
    if not on_exists:
      on_value = _ops.convert_to_tensor(1, dtype, name="on_value")
    if not off_exists:
      off_value = _ops.convert_to_tensor(0, dtype, name="off_value")
    attrs = {"axis": -1 if axis is None else axis}
    return _apply_op("OneHot", name, [indices, depth, on_value, off_value], attrs).outputs[0]


def where(condition, x=None, y=None, name=None):
  if x is None and y is None:
    with _ops.name_scope(name, "Where", [condition]) as name:
      condition = _ops.convert_to_tensor(condition, preferred_dtype=_dtypes.bool,
                                         name="condition")
      return _apply_op("Where", name, [condition]).outputs[0]
  if x is not None and y is not None:
    return _apply_op("Select", name, [condition, x, y]).outputs[0]
  raise ValueError("x and y must both be non-None or both be None.")


def reverse_sequence(input, seq_lengths, seq_axis=None, batch_axis=None, name=None,  # pylint: disable=redefined-builtin
                     seq_dim=None, batch_dim=None):
  """Reverses the first seq_lengths[b] slices along seq_axis of each batch
  entry b (along batch_axis); the rest is unchanged (TF 1.15
  `tf.reverse_sequence`)."""
  if seq_axis is not None and seq_dim is not None:
    raise ValueError("Cannot specify both 'seq_axis' and 'seq_dim'")
  if batch_axis is not None and batch_dim is not None:
    raise ValueError("Cannot specify both 'batch_axis' and 'batch_dim'")
  seq_axis = seq_dim if seq_axis is None else seq_axis
  batch_axis = batch_dim if batch_axis is None else batch_axis
  if seq_axis is None:
    raise ValueError("seq_axis (seq_dim) is required")
  return _apply_op("ReverseSequence", name, [input, seq_lengths],
                   {"seq_dim": int(seq_axis), "batch_dim": int(batch_axis or 0)}).outputs[0]


def reverse(tensor, axis, name=None):
  return _apply_op("ReverseV2", name, [tensor, axis]).outputs[0]


def _autopacking_helper(list_or_tuple, dtype, name, graph=None):
  """Packs a (nested) list containing Tensors into one Tensor (op type Pack)."""
  if dtype is None:
    dtype = _dtype_from_nested(list_or_tuple)
  g = graph or _ops.get_default_graph()
  old, scope = g._enter_name_scope(name)
  try:
    must_pack = False
    converted = []
    for i, elem in enumerate(list_or_tuple):
      if isinstance(elem, _Tensor):
        if dtype is not None and elem.dtype.base_dtype != dtype:
          raise TypeError("Cannot convert a list containing a tensor of dtype %s to %s "
                          "(Tensor is: %r)" % (elem.dtype, dtype, elem))
        converted.append(elem)
        must_pack = True
      elif isinstance(elem, (list, tuple)):
        c = _autopacking_helper(elem, dtype, str(i), g)
        if isinstance(c, _Tensor):
          must_pack = True
        converted.append(c)
      elif not isinstance(elem, (int, float, bool, str, bytes, complex, np.generic, np.ndarray)) \
          and _ops._conversion_func_for(type(elem)) is not None:
        converted.append(_ops.convert_to_tensor(elem, dtype=dtype))
        must_pack = True
      else:
        converted.append(elem)
    if must_pack:
      tensors = []
      for i, elem in enumerate(converted):
        if isinstance(elem, _Tensor):
          tensors.append(elem)
        else:
          tensors.append(_constant_op._constant_in_graph(g, elem, dtype, None, str(i), False))
      return _apply_op("Pack", scope, [tensors], {"axis": 0}, graph=g).outputs[0]
    return converted
  finally:
    g._name_stack = old


def _dtype_from_nested(list_or_tuple):
  for elem in list_or_tuple:
    if isinstance(elem, _Tensor):
      return elem.dtype.base_dtype
    if isinstance(elem, (list, tuple)):
      d = _dtype_from_nested(elem)
      if d is not None:
        return d
    else:
      d = getattr(elem, "dtype", None)
      if isinstance(d, _dtypes.DType):
        return d.base_dtype
  return None


def invert_permutation(x, name=None):
  return _apply_op("InvertPermutation", name, [x]).outputs[0]


def check_numerics(tensor, message, name=None):
  return _apply_op("CheckNumerics", name, [tensor], {"message": message}).outputs[0]


def identity_n(input, name=None):  # pylint: disable=redefined-builtin
  return list(_apply_op("IdentityN", name, [list(input)]).outputs)


def broadcast_to(input, shape, name=None):  # pylint: disable=redefined-builtin
  return _apply_op("BroadcastTo", name, [input, shape]).outputs[0]


_UniqueOutput = None


def unique(x, out_idx=_dtypes.int32, name=None):
  global _UniqueOutput
  if _UniqueOutput is None:
    import collections  # pylint: disable=g-import-not-at-top
    _UniqueOutput = collections.namedtuple("Unique", ["y", "idx"])
  op = _apply_op("Unique", name, [x], {"out_idx": _dtypes.as_dtype(out_idx)})
  return _UniqueOutput(*op.outputs)


_UniqueWithCountsOutput = None


def unique_with_counts(x, out_idx=_dtypes.int32, name=None):
  """The distinct values `y` of the 1-D tensor `x` in order of first occurrence,
  `idx` (x[i] == y[idx[i]]) and `count` (how often each y[k] occurs in x), as TF's
  UniqueWithCounts; idx and count have type `out_idx`."""
  global _UniqueWithCountsOutput
  if _UniqueWithCountsOutput is None:
    import collections  # pylint: disable=g-import-not-at-top
    _UniqueWithCountsOutput = collections.namedtuple("UniqueWithCounts", ["y", "idx", "count"])
  op = _apply_op("UniqueWithCounts", name, [x], {"out_idx": _dtypes.as_dtype(out_idx)})
  return _UniqueWithCountsOutput(*op.outputs)


def edit_distance(hypothesis, truth, normalize=True, name="edit_distance"):
  """Levenshtein distance between the sequences of two SparseTensors (TF's
  EditDistance): the last dimension holds the sequences; the result (float32) has
  the larger of the two dense shapes without it. With `normalize` the distance is
  divided by the length of the truth sequence.

  Raises:
    TypeError: when hypothesis or truth is not a SparseTensor(Value).
  """
  from tfc.framework import sparse_tensor  # pylint: disable=g-import-not-at-top
  kinds = (sparse_tensor.SparseTensor, sparse_tensor.SparseTensorValue)
  if not isinstance(hypothesis, kinds):
    raise TypeError("Hypothesis must be a SparseTensor.")
  if not isinstance(truth, kinds):
    raise TypeError("Truth must be a SparseTensor.")
  return _apply_op("EditDistance", name,
                   [hypothesis.indices, hypothesis.values, hypothesis.dense_shape,
                    truth.indices, truth.values, truth.dense_shape],
                   {"normalize": normalize}).outputs[0]


def required_space_to_batch_paddings(input_shape, block_shape, base_paddings=None, name=None):
  """The paddings and crops that make `input_shape` (+ `base_paddings`) divisible by
  `block_shape` for space_to_batch / batch_to_space (TF's function of the same name).

  Returns (paddings, crops), int32 tensors of shape [num_block_dims, 2]: paddings
  starts with base_paddings[:, 0] and ends with base_paddings[:, 1] plus the extra
  padding needed; crops is [0, that extra]. Computed statically when all inputs are
  constants.

  Raises:
    ValueError: when block_shape is not a fully defined 1-D shape, or the shapes of
      input_shape / base_paddings do not match it.
  """
  from tfc.framework import tensor_util  # pylint: disable=g-import-not-at-top
  with _ops.name_scope(name, "required_space_to_batch_paddings", [input_shape, block_shape]):
    input_shape = _ops.convert_to_tensor(input_shape, dtype=_dtypes.int32, name="input_shape")
    block_shape = _ops.convert_to_tensor(block_shape, dtype=_dtypes.int32, name="block_shape")
    block_shape.get_shape().assert_is_fully_defined()
    block_shape.get_shape().assert_has_rank(1)
    num_block_dims = block_shape.get_shape().as_list()[0]
    if num_block_dims == 0:
      return zeros([0, 2], _dtypes.int32), zeros([0, 2], _dtypes.int32)
    input_shape.get_shape().assert_is_compatible_with([num_block_dims])
    if base_paddings is not None:
      base_paddings = _ops.convert_to_tensor(base_paddings, dtype=_dtypes.int32,
                                             name="base_paddings")
      base_paddings.get_shape().assert_is_compatible_with([num_block_dims, 2])
    else:
      base_paddings = zeros([num_block_dims, 2], _dtypes.int32)
    const_block_shape = tensor_util.constant_value(block_shape)
    const_input_shape = tensor_util.constant_value(input_shape)
    const_base_paddings = tensor_util.constant_value(base_paddings)
    if (const_block_shape is not None and const_input_shape is not None and
        const_base_paddings is not None):
      block_shape = const_block_shape
      input_shape = const_input_shape
      base_paddings = const_base_paddings
    pad_start = base_paddings[:, 0]
    orig_pad_end = base_paddings[:, 1]
    full_input_shape = input_shape + pad_start + orig_pad_end
    pad_end_extra = (block_shape - full_input_shape % block_shape) % block_shape
    pad_end = orig_pad_end + pad_end_extra
    result_paddings = stack([[pad_start[i], pad_end[i]] for i in range(num_block_dims)],
                            name="paddings")
    result_crops = stack([[0, pad_end_extra[i]] for i in range(num_block_dims)], name="crops")
    return result_paddings, result_crops


_ListDiffOutput = None


def setdiff1d(x, y, index_dtype=_dtypes.int32, name=None):
  """The elements of vector x that are not in vector y, in x's order, and
  their positions in x (TF 1.15 `tf.setdiff1d`, the ListDiff op)."""
  global _ListDiffOutput
  if _ListDiffOutput is None:
    import collections  # pylint: disable=g-import-not-at-top
    _ListDiffOutput = collections.namedtuple("ListDiff", ["out", "idx"])
  op = _apply_op("ListDiff", name, [x, y], {"out_idx": _dtypes.as_dtype(index_dtype)})
  return _ListDiffOutput(*op.outputs)


def select(condition, x, y, name=None):
  return _apply_op("Select", name, [condition, x, y]).outputs[0]


# -- TF 1.x names composed of the ops above -------------------------------------------


def where_v2(condition, x=None, y=None, name=None):
  """Elementwise choice between x and y with NumPy broadcasting of all three (`SelectV2`);
  the coordinates of the true elements (`Where`) when x and y are None."""
  if x is None and y is None:
    return where(condition, name=name)
  if x is not None and y is not None:
    return _apply_op("SelectV2", name, [condition, x, y]).outputs[0]
  raise ValueError("x and y must both be non-None or both be None.")


reverse_v2 = reverse


def sequence_mask(lengths, maxlen=None, dtype=_dtypes.bool, name=None):
  """mask[i..., j] = j < lengths[i...], for j in [0, maxlen) (maxlen: max(lengths) when
  None); the mask has the shape of lengths plus one dimension of maxlen."""
  from tfc.ops import math_ops  # pylint: disable=g-import-not-at-top
  with _ops.name_scope(name, "SequenceMask", [lengths, maxlen]):
    lengths = _ops.convert_to_tensor(lengths)
    if maxlen is None:
      maxlen = math_ops.reduce_max(lengths)
      maxlen = math_ops.maximum(_constant_op.constant(0, dtype=maxlen.dtype), maxlen)
    else:
      maxlen = _ops.convert_to_tensor(maxlen)
    if maxlen.get_shape().ndims not in (None, 0):
      raise ValueError("maxlen must be scalar for sequence_mask")
    positions = math_ops.range(0, maxlen, 1)
    limits = math_ops.cast(expand_dims(lengths, -1), maxlen.dtype)
    mask = math_ops.less(positions, limits)
    dtype = _dtypes.as_dtype(dtype)
    if dtype.base_dtype == _dtypes.bool:
      return mask
    return math_ops.cast(mask, dtype)


def eye(num_rows, num_columns=None, batch_shape=None, dtype=_dtypes.float32, name=None):
  """A [*batch_shape, num_rows, num_columns] tensor with ones on the main diagonal."""
  from tfc.ops import math_ops  # pylint: disable=g-import-not-at-top
  with _ops.name_scope(name, default_name="eye", values=[num_rows, num_columns, batch_shape]):
    rows = _ops.convert_to_tensor(num_rows, dtype=_dtypes.int32, name="num_rows")
    cols = rows if num_columns is None else _ops.convert_to_tensor(
        num_columns, dtype=_dtypes.int32, name="num_columns")
    for t, what in ((rows, "num_rows"), (cols, "num_columns")):
      if t.get_shape().ndims not in (None, 0):
        raise ValueError("%s must be a scalar, got shape %s" % (what, t.get_shape()))
    on_diagonal = math_ops.equal(expand_dims(math_ops.range(rows), 1),
                                 expand_dims(math_ops.range(cols), 0))
    matrix = math_ops.cast(on_diagonal, _dtypes.as_dtype(dtype))
    if batch_shape is None:
      return matrix
    batch = _ops.convert_to_tensor(batch_shape, dtype=_dtypes.int32, name="shape")
    return broadcast_to(matrix, concat([batch, shape(matrix)], 0))


def meshgrid(*args, **kwargs):
  """Coordinate grids from 1-D tensors, as numpy.meshgrid: indexing 'xy' (Cartesian,
  default: the first two output dimensions swapped) or 'ij' (matrix)."""
  indexing = kwargs.pop("indexing", "xy")
  name = kwargs.pop("name", "meshgrid")
  if kwargs:
    raise TypeError("'{}' is an invalid keyword argument for this function"
                    .format(next(iter(kwargs))))
  if indexing not in ("xy", "ij"):
    raise ValueError("indexing parameter must be either 'xy' or 'ij'")
  from tfc.ops import math_ops  # pylint: disable=g-import-not-at-top
  with _ops.name_scope(name, "meshgrid", args):
    ndim = len(args)
    grids = []
    for i, x in enumerate(args):
      grid_shape = [1] * ndim
      grid_shape[i] = -1
      grids.append(reshape(stack(x), grid_shape))
    sizes = [size(x) for x in args]
    if indexing == "xy" and ndim > 1:
      grids[0] = reshape(grids[0], [1, -1] + [1] * (ndim - 2))
      grids[1] = reshape(grids[1], [-1, 1] + [1] * (ndim - 2))
      sizes[0], sizes[1] = sizes[1], sizes[0]
    dtype = _ops.convert_to_tensor(args[0]).dtype.base_dtype
    full = ones(stack(sizes), dtype)
    return [math_ops.multiply(g, full) for g in grids]


def broadcast_static_shape(shape_x, shape_y):
  """The TensorShape that x and y broadcast to (unknown dimensions stay unknown unless the
  other side fixes them); ValueError when they cannot broadcast."""
  from tfc.framework.tensor_shape import TensorShape  # pylint: disable=g-import-not-at-top
  shape_x, shape_y = TensorShape(shape_x), TensorShape(shape_y)
  if shape_x.ndims is None or shape_y.ndims is None:
    return TensorShape(None)
  dims_x = [d.value for d in shape_x.dims]
  dims_y = [d.value for d in shape_y.dims]
  n = max(len(dims_x), len(dims_y))
  dims_x = [1] * (n - len(dims_x)) + dims_x
  dims_y = [1] * (n - len(dims_y)) + dims_y
  out = []
  for a, b in zip(dims_x, dims_y):
    if a is None or b is None:
      known = b if a is None else a
      out.append(known if known is not None and known > 1 else None)
    elif a == b or b == 1:
      out.append(a)
    elif a == 1:
      out.append(b)
    else:
      raise ValueError("Incompatible shapes for broadcasting: %s and %s" % (shape_x, shape_y))
  return TensorShape(out)


def _static_ints(value, what):
  """A Python list (nested) of ints from a list, NumPy array or constant tensor."""
  if isinstance(value, _Tensor):
    if value.op.type != "Const":
      raise NotImplementedError("tfc needs %s as Python ints or a constant" % what)
    value = value.op.get_attr("value")
  return np.asarray(value, dtype=np.int64).tolist()


def _dim_list(x):
  """x's dimensions: ints where static, scalar int32 tensors elsewhere."""
  static = x.get_shape().as_list()
  dynamic = None
  out = []
  for i, d in enumerate(static):
    if d is None:
      if dynamic is None:
        dynamic = shape(x)
      d = dynamic[i]
    out.append(d)
  return out


def _shape_of(dims):
  return dims if all(isinstance(d, int) for d in dims) else stack(dims)


def space_to_batch_nd(input, block_shape, paddings, name=None):  # pylint: disable=redefined-builtin
  """Zero-pads the M spatial dimensions after the batch by `paddings` ([M, 2]), splits
  each into blocks of `block_shape` and moves the block positions into the batch:
  [batch, s1, ..., sM, rest] -> [batch * prod(block_shape), s1' / b1, ..., rest]."""
  with _ops.name_scope(name, "SpaceToBatchND", [input, block_shape, paddings]) as name:
    x = _ops.convert_to_tensor(input, name="input")
    block = _static_ints(block_shape, "block_shape")
    pads = _static_ints(paddings, "paddings")
    m = len(block)
    rank = x.get_shape().ndims
    if rank is None or rank < m + 1:
      raise ValueError("input needs a known rank of at least %d, got shape %s"
                       % (m + 1, x.get_shape()))
    if len(pads) != m or any(len(p) != 2 for p in pads):
      raise ValueError("paddings must have shape [%d, 2], got %s" % (m, pads))
    if any(b < 1 for b in block) or any(p < 0 for pair in pads for p in pair):
      raise ValueError("block_shape must be positive and paddings non-negative")
    x = pad(x, [[0, 0]] + pads + [[0, 0]] * (rank - m - 1))
    dims = _dim_list(x)
    for i, b in enumerate(block):
      if isinstance(dims[i + 1], int) and dims[i + 1] % b:
        raise ValueError("padded_shape[%d]=%d is not divisible by block_shape[%d]=%d"
                         % (i, dims[i + 1], i, b))
    split = [dims[0]]
    for i, b in enumerate(block):
      split += [dims[i + 1] // b, b]
    split += dims[m + 1:]
    x = reshape(x, _shape_of(split))
    perm = [2 + 2 * i for i in range(m)] + [0] + [1 + 2 * i for i in range(m)] + \
        list(range(1 + 2 * m, rank + m))
    x = transpose(x, perm)
    blocks = 1
    for b in block:
      blocks *= b
    out = [dims[0] * blocks] + [dims[i + 1] // b for i, b in enumerate(block)] + dims[m + 1:]
    return reshape(x, _shape_of(out), name=name)


def batch_to_space_nd(input, block_shape, crops, name=None):  # pylint: disable=redefined-builtin
  """The inverse of space_to_batch_nd: moves blocks of the batch back into the M spatial
  dimensions and crops them by `crops` ([M, 2])."""
  with _ops.name_scope(name, "BatchToSpaceND", [input, block_shape, crops]) as name:
    x = _ops.convert_to_tensor(input, name="input")
    block = _static_ints(block_shape, "block_shape")
    crops = _static_ints(crops, "crops")
    m = len(block)
    rank = x.get_shape().ndims
    if rank is None or rank < m + 1:
      raise ValueError("input needs a known rank of at least %d, got shape %s"
                       % (m + 1, x.get_shape()))
    if len(crops) != m or any(len(c) != 2 for c in crops):
      raise ValueError("crops must have shape [%d, 2], got %s" % (m, crops))
    if any(b < 1 for b in block) or any(c < 0 for pair in crops for c in pair):
      raise ValueError("block_shape must be positive and crops non-negative")
    blocks = 1
    for b in block:
      blocks *= b
    dims = _dim_list(x)
    if isinstance(dims[0], int) and dims[0] % blocks:
      raise ValueError("input batch %d is not divisible by prod(block_shape)=%d"
                       % (dims[0], blocks))
    batch = dims[0] // blocks
    x = reshape(x, _shape_of(list(block) + [batch] + dims[1:]))
    perm = [m]
    for i in range(m):
      perm += [m + 1 + i, i]
    perm += list(range(2 * m + 1, rank + m))
    x = transpose(x, perm)
    full = [batch] + [dims[i + 1] * b for i, b in enumerate(block)] + dims[m + 1:]
    x = reshape(x, _shape_of(full))
    if any(c for pair in crops for c in pair):
      begin = [0] + [c[0] for c in crops] + [0] * (rank - m - 1)
      size = [-1] + [full[i + 1] - c[0] - c[1] for i, c in enumerate(crops)] + \
          [-1] * (rank - m - 1)
      x = slice(x, begin, _shape_of(size))
    return identity(x, name=name)


def space_to_batch(input, paddings, block_size=None, name=None, block_shape=None):  # pylint: disable=redefined-builtin
  """space_to_batch_nd over height and width with square blocks of block_size."""
  block_size = _deprecated_argument_lookup("block_shape", block_shape, "block_size", block_size)
  return space_to_batch_nd(input, [block_size, block_size], paddings, name=name)


def batch_to_space(input, crops, block_size, name=None, block_shape=None):  # pylint: disable=redefined-builtin
  """batch_to_space_nd over height and width with square blocks of block_size."""
  block_size = _deprecated_argument_lookup("block_shape", block_shape, "block_size", block_size)
  return batch_to_space_nd(input, [block_size, block_size], crops, name=name)


def _check_nhwc(data_format, what):
  if data_format not in (None, "NHWC"):
    raise ValueError("%s: only NHWC data_format is supported on the CPU, got %s"
                     % (what, data_format))


def space_to_depth(input, block_size, name=None, data_format="NHWC"):  # pylint: disable=redefined-builtin
  """Moves block_size x block_size blocks of height and width into the channels:
  [b, h, w, c] -> [b, h / bs, w / bs, bs * bs * c]."""
  _check_nhwc(data_format, "space_to_depth")
  with _ops.name_scope(name, "SpaceToDepth", [input]) as name:
    x = _ops.convert_to_tensor(input, name="input")
    if x.get_shape().ndims != 4:
      raise ValueError("space_to_depth needs a 4-D input, got shape %s" % x.get_shape())
    bs = int(block_size)
    if bs < 2:
      raise ValueError("Value for attr 'block_size' of %d must be at least minimum 2" % bs)
    b, h, w, c = _dim_list(x)
    for size, what in ((h, "height"), (w, "width")):
      if isinstance(size, int) and size % bs:
        raise ValueError("Image %s %d should be divisible by block_size: %d" % (what, size, bs))
    x = reshape(x, _shape_of([b, h // bs, bs, w // bs, bs, c]))
    x = transpose(x, [0, 1, 3, 2, 4, 5])
    return reshape(x, _shape_of([b, h // bs, w // bs, c * bs * bs]), name=name)


def depth_to_space(input, block_size, name=None, data_format="NHWC"):  # pylint: disable=redefined-builtin
  """Moves channels into block_size x block_size blocks of height and width:
  [b, h, w, c] -> [b, h * bs, w * bs, c / (bs * bs)]."""
  _check_nhwc(data_format, "depth_to_space")
  with _ops.name_scope(name, "DepthToSpace", [input]) as name:
    x = _ops.convert_to_tensor(input, name="input")
    if x.get_shape().ndims != 4:
      raise ValueError("depth_to_space needs a 4-D input, got shape %s" % x.get_shape())
    bs = int(block_size)
    if bs < 2:
      raise ValueError("Value for attr 'block_size' of %d must be at least minimum 2" % bs)
    b, h, w, c = _dim_list(x)
    if isinstance(c, int) and c % (bs * bs):
      raise ValueError("Input depth dimension %d should be divisible by: %d" % (c, bs * bs))
    x = reshape(x, _shape_of([b, h, w, bs, bs, c // (bs * bs)]))
    x = transpose(x, [0, 1, 3, 2, 4, 5])
    return reshape(x, _shape_of([b, h * bs, w * bs, c // (bs * bs)]), name=name)
