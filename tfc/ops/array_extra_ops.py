"""Small array utilities: ensure_shape, broadcast_dynamic_shape, bitcast,
unravel_index (one C kernel each) and the fixed-width histograms."""
from tfc import dtypes as _dtypes
from tfc.framework import ops as _ops
from tfc.framework import tensor_shape as _tensor_shape
from tfc.framework.op_def_library import _apply_op


def ensure_shape(x, shape, name=None):
  """x, checked to have a shape compatible with `shape` (None entries match
  any size): the static shape is refined at graph-build time and a mismatch
  at run time fails with InvalidArgumentError."""
  shape = _tensor_shape.TensorShape(shape)
  return _apply_op("EnsureShape", name, [x], {"shape": shape}).outputs[0]


def broadcast_dynamic_shape(shape_x, shape_y):
  """The broadcast of two shape vectors (int32 or int64 tensors)."""
  return _apply_op("BroadcastArgs", None, [shape_x, shape_y]).outputs[0]


def bitcast(input, type, name=None):  # pylint: disable=redefined-builtin
  """The bytes of input read as `type`: a wider type consumes the last
  dimension, a narrower one adds a last dimension."""
  return _apply_op("Bitcast", name, [input], {"type": _dtypes.as_dtype(type)}).outputs[0]


def unravel_index(indices, dims, name=None):
  """The coordinates of flat `indices` in an array of shape `dims`:
  [len(dims)] for a scalar index, [len(dims), n] for n indices."""
  return _apply_op("UnravelIndex", name, [indices, dims]).outputs[0]


def histogram_fixed_width(values, value_range, nbins=100, dtype=_dtypes.int32, name=None):
  """Counts of values in nbins equal-width bins over value_range; values
  below / above the range count in the first / last bin."""
  with _ops.name_scope(name, "histogram_fixed_width", [values, value_range, nbins]) as scope:
    return _apply_op("HistogramFixedWidth", scope, [values, value_range, nbins],
                     {"dtype": _dtypes.as_dtype(dtype)}).outputs[0]


def histogram_fixed_width_bins(values, value_range, nbins=100, dtype=_dtypes.int32, name=None):
  """The bin of each value (same shape as values) for the bins of
  histogram_fixed_width."""
  from tfc.ops import array_ops, math_ops  # pylint: disable=g-import-not-at-top
  with _ops.name_scope(name, "histogram_fixed_width_bins", [values, value_range, nbins]):
    values = _ops.convert_to_tensor(values, name="values")
    shape = array_ops.shape(values)
    values = array_ops.reshape(values, [-1])
    value_range = _ops.convert_to_tensor(value_range, name="value_range")
    nbins = _ops.convert_to_tensor(nbins, dtype=_dtypes.int32, name="nbins")
    nbins_float = math_ops.cast(nbins, values.dtype)
    scaled = math_ops.truediv(values - value_range[0], value_range[1] - value_range[0])
    indices = math_ops.floor(nbins_float * scaled)
    indices = math_ops.cast(math_ops.clip_by_value(indices, 0, nbins_float - 1), _dtypes.int32)
    return array_ops.reshape(math_ops.cast(indices, dtype), shape)

