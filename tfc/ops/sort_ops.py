"""Ordering: top_k (one C kernel), sort and argsort built on it as TF builds
them, and searchsorted (LowerBound / UpperBound kernels)."""
import numpy as np

from tfc import dtypes as _dtypes
from tfc.framework import ops as _ops
from tfc.framework.op_def_library import _apply_op


def top_k(input, k=1, sorted=True, name=None):  # pylint: disable=redefined-builtin
  """The k largest entries of each row (last dimension) of input and their
  indices, largest first; equal values keep their order (lower index first)."""
  op = _apply_op("TopKV2", name, [input, k], {"sorted": bool(sorted)})
  return op.outputs[0], op.outputs[1]


def _sort_or_argsort(values, axis, direction, return_argsort):
  from tfc.ops import array_ops, math_ops  # pylint: disable=g-import-not-at-top
  if direction not in ("ASCENDING", "DESCENDING"):
    raise ValueError('Unknown direction: %s' % direction)
  values = _ops.convert_to_tensor(values, name="values")
  rank = values.shape.ndims
  if rank is None:
    raise ValueError("sort needs a tensor of known rank")
  if not isinstance(axis, int):
    raise ValueError("axis must be a constant scalar")
  if axis < -rank or axis >= rank:
    raise ValueError("axis %d is out of range for a tensor of rank %d" % (axis, rank))
  axis %= rank
  perm = None
  if axis != rank - 1:
    perm = list(range(rank))
    perm[axis], perm[rank - 1] = perm[rank - 1], perm[axis]
    values = array_ops.transpose(values, perm)
  n = array_ops.shape(values)[rank - 1]
  dt = values.dtype.base_dtype
  if direction == "ASCENDING":
    # an order-reversing map that is its own inverse and cannot overflow:
    # max - x for unsigned, -x - 1 for signed integers, -x for floats
    if dt.is_unsigned:
      top = _ops.convert_to_tensor(np.array(dt.max, dt.as_numpy_dtype))
      flip = lambda t: math_ops.subtract(top, t)  # noqa: E731
    elif dt.is_integer:
      one = _ops.convert_to_tensor(np.array(1, dt.as_numpy_dtype))
      flip = lambda t: math_ops.subtract(math_ops.negative(t), one)  # noqa: E731
    else:
      flip = math_ops.negative
    vals, idx = top_k(flip(values), n)
    vals = flip(vals)
  else:
    vals, idx = top_k(values, n)
  out = idx if return_argsort else vals
  if perm is not None:
    out = array_ops.transpose(out, perm)
  return out


def sort(values, axis=-1, direction="ASCENDING", name=None):
  """values sorted along axis (a constant), ascending or descending."""
  with _ops.name_scope(name, "sort"):
    return _sort_or_argsort(values, axis, direction, return_argsort=False)


def argsort(values, axis=-1, direction="ASCENDING", stable=False, name=None):
  """The indices that sort values along axis (equal values keep their order,
  so the sort is always stable)."""
  del stable
  with _ops.name_scope(name, "argsort"):
    return _sort_or_argsort(values, axis, direction, return_argsort=True)


def searchsorted(sorted_sequence, values, side="left", out_type=_dtypes.int32, name=None):
  """For each value, the position in its row of sorted_sequence (the last
  dimension, sorted ascending) where it would be inserted: before equal
  entries (side='left') or after them (side='right')."""
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  if side not in ("left", "right"):
    raise ValueError("side must be either 'right' or 'left'.  Saw: %s." % side)
  with _ops.name_scope(name, "searchsorted", [sorted_sequence, values]):
    sorted_sequence = _ops.convert_to_tensor(sorted_sequence, name="sorted_sequence")
    values = _ops.convert_to_tensor(values, name="values")
    seq_2d = array_ops.reshape(sorted_sequence, [-1, array_ops.shape(sorted_sequence)[-1]])
    val_2d = array_ops.reshape(values, [-1, array_ops.shape(values)[-1]])
    op = "UpperBound" if side == "right" else "LowerBound"
    out = _apply_op(op, None, [seq_2d, val_2d], {"out_type": out_type}).outputs[0]
    return array_ops.reshape(out, array_ops.shape(values))


def _approx_k(operand, k, reduction_dimension, largest, name, default_name):
  from tfc.ops import array_ops, math_ops  # pylint: disable=g-import-not-at-top
  with _ops.name_scope(name, default_name, [operand]):
    operand = _ops.convert_to_tensor(operand, name="operand")
    rank = operand.shape.ndims
    if rank is None:
      raise ValueError("%s needs an operand of known rank" % default_name)
    axis = reduction_dimension % rank
    perm = None
    if axis != rank - 1:
      perm = list(range(rank))
      perm[axis], perm[rank - 1] = perm[rank - 1], perm[axis]
      operand = array_ops.transpose(operand, perm)
    if largest:
      vals, idx = top_k(operand, k)
    else:
      dt = operand.dtype.base_dtype
      if dt.is_unsigned:
        top = _ops.convert_to_tensor(np.array(dt.max, dt.as_numpy_dtype))
        flip = lambda t: math_ops.subtract(top, t)  # noqa: E731
      elif dt.is_integer:
        one = _ops.convert_to_tensor(np.array(1, dt.as_numpy_dtype))
        flip = lambda t: math_ops.subtract(math_ops.negative(t), one)  # noqa: E731
      else:
        flip = math_ops.negative
      vals, idx = top_k(flip(operand), k)
      vals = flip(vals)
    if perm is not None:
      vals, idx = array_ops.transpose(vals, perm), array_ops.transpose(idx, perm)
    return vals, idx


def approx_max_k(operand, k, reduction_dimension=-1, recall_target=0.95,  # pylint: disable=unused-argument
                 reduction_input_size_override=-1, aggregate_to_topk=True, name=None):
  """The k largest values along reduction_dimension and their indices. On CPU
  TensorFlow computes these exactly; so does tfc (recall is always 1)."""
  return _approx_k(operand, k, reduction_dimension, True, name, "ApproxMaxK")


def approx_min_k(operand, k, reduction_dimension=-1, recall_target=0.95,  # pylint: disable=unused-argument
                 reduction_input_size_override=-1, aggregate_to_topk=True, name=None):
  """The k smallest values along reduction_dimension and their indices (exact, as on CPU in TF)."""
  return _approx_k(operand, k, reduction_dimension, False, name, "ApproxMinK")
