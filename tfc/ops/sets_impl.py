"""Set operations (TF 1.15 `sets_impl`): tf.sets.size / intersection /
difference / union (and their set_* names) over the last dimension of dense
Tensors and SparseTensors; C kernels SetSize and *SetOperation."""
from tfc import dtypes as _dtypes
from tfc.framework import sparse_tensor as _sparse_tensor
from tfc.framework.op_def_library import _apply_op

_VALID_DTYPES = frozenset([_dtypes.int8, _dtypes.int16, _dtypes.int32, _dtypes.int64, _dtypes.uint8,
                           _dtypes.uint16, _dtypes.string])


def set_size(a, validate_indices=True):
  """Number of unique elements along the last dimension of SparseTensor `a`
  (int32, shape a's shape without the last dimension)."""
  a = _sparse_tensor.convert_to_tensor_or_sparse_tensor(a, name="a")
  if not isinstance(a, _sparse_tensor.SparseTensor):
    raise TypeError("Expected `SparseTensor`, got %s." % a)
  if a.values.dtype.base_dtype not in _VALID_DTYPES:
    raise TypeError("Invalid dtype %s." % a.values.dtype)
  return _apply_op("SetSize", None, [a.indices, a.values, a.dense_shape],
                   {"validate_indices": bool(validate_indices)}).outputs[0]


def _convert_to_tensors_or_sparse_tensors(a, b):
  """a and b as Tensors/SparseTensors of one valid dtype."""
  a = _sparse_tensor.convert_to_tensor_or_sparse_tensor(a, name="a")
  if a.dtype.base_dtype not in _VALID_DTYPES:
    raise TypeError("'a' invalid dtype %s." % a.dtype)
  b = _sparse_tensor.convert_to_tensor_or_sparse_tensor(b, name="b")
  if b.dtype.base_dtype != a.dtype.base_dtype:
    raise TypeError("Types don't match, %s vs %s." % (a.dtype, b.dtype))
  if isinstance(a, _sparse_tensor.SparseTensor) and not isinstance(b, _sparse_tensor.SparseTensor):
    return b, a, True
  return a, b, False


def _set_operation(a, b, set_operation, validate_indices=True):
  """The SparseTensor result of set_operation over a (dense or sparse) and b."""
  attrs = {"set_operation": set_operation, "validate_indices": bool(validate_indices)}
  if isinstance(a, _sparse_tensor.SparseTensor):
    if isinstance(b, _sparse_tensor.SparseTensor):
      op = _apply_op("SparseToSparseSetOperation", None,
                     [a.indices, a.values, a.dense_shape, b.indices, b.values, b.dense_shape], attrs)
    else:
      raise ValueError("Sparse,Dense is not supported, but Dense,Sparse is. Please flip the order of your inputs.")
  elif isinstance(b, _sparse_tensor.SparseTensor):
    op = _apply_op("DenseToSparseSetOperation", None, [a, b.indices, b.values, b.dense_shape], attrs)
  else:
    op = _apply_op("DenseToDenseSetOperation", None, [a, b], attrs)
  return _sparse_tensor.SparseTensor(op.outputs[0], op.outputs[1], op.outputs[2])


def set_intersection(a, b, validate_indices=True):
  """Per group (all but the last dimension), the sorted elements in both a and b."""
  a, b, _ = _convert_to_tensors_or_sparse_tensors(a, b)
  return _set_operation(a, b, "intersection", validate_indices)


def set_difference(a, b, aminusb=True, validate_indices=True):
  """Per group, the sorted elements of a not in b (of b not in a when not aminusb)."""
  a, b, flipped = _convert_to_tensors_or_sparse_tensors(a, b)
  if flipped:
    aminusb = not aminusb
  return _set_operation(a, b, "a-b" if aminusb else "b-a", validate_indices)


def set_union(a, b, validate_indices=True):
  """Per group, the sorted elements of a or b."""
  a, b, _ = _convert_to_tensors_or_sparse_tensors(a, b)
  return _set_operation(a, b, "union", validate_indices)


size = set_size
intersection = set_intersection
difference = set_difference
union = set_union
