"""Sparse tensors in COO form (TF 1.15 `sparse_ops`): tf.sparse_to_dense,
tf.sparse_tensor_to_dense, tf.sparse_tensor_dense_matmul, tf.sparse_reorder,
tf.sparse_reduce_sum, tf.sparse_add, tf.sparse_concat, tf.sparse_reshape,
tf.sparse_retain, tf.sparse_fill_empty_rows, tf.sparse_placeholder.

Kernels in C do the element work (SparseToDense, SparseTensorDenseMatMul,
SparseReorder, UnsortedSegmentSum, Gather, ...); nothing here touches
values element by element.
"""
from tfc import dtypes as _dtypes
from tfc.framework import ops as _ops
from tfc.framework import sparse_tensor as _sparse_tensor
from tfc.framework import tensor_shape as _tensor_shape
from tfc.framework.op_def_library import _apply_op

SparseTensor = _sparse_tensor.SparseTensor


def _convert(sp_input, what="sp_input"):
  if isinstance(sp_input, _sparse_tensor.SparseTensorValue):
    sp_input = _sparse_tensor.SparseTensor.from_value(sp_input)
  if not isinstance(sp_input, _sparse_tensor.SparseTensor):
    raise TypeError("Input must be a SparseTensor.")
  return sp_input


def _math():
  from tfc.ops import math_ops  # pylint: disable=g-import-not-at-top
  return math_ops


def _array():
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  return array_ops


def _i64(x):
  return _ops.convert_to_tensor(x, dtype=_dtypes.int64)


def sparse_to_dense(sparse_indices, output_shape, sparse_values, default_value=0,
                    validate_indices=True, name=None):
  """A dense tensor of `output_shape`: `default_value` everywhere but at
  `sparse_indices` ([N, R], [N] or a scalar), which get `sparse_values`."""
  with _ops.name_scope(name, "SparseToDense",
                       [sparse_indices, output_shape, sparse_values, default_value]) as name:
    sparse_values = _ops.convert_to_tensor(sparse_values, name="sparse_values")
    sparse_indices = _ops.convert_to_tensor(sparse_indices, name="sparse_indices")
    if sparse_indices.dtype.base_dtype not in (_dtypes.int32, _dtypes.int64):
      sparse_indices = _math().cast(sparse_indices, _dtypes.int64)
    output_shape = _ops.convert_to_tensor(output_shape, dtype=sparse_indices.dtype.base_dtype,
                                          name="output_shape")
    default_value = _ops.convert_to_tensor(default_value, dtype=sparse_values.dtype.base_dtype,
                                           name="default_value")
    return _apply_op("SparseToDense", name,
                     [sparse_indices, output_shape, sparse_values, default_value],
                     {"validate_indices": bool(validate_indices)}).outputs[0]


def sparse_tensor_to_dense(sp_input, default_value=0, validate_indices=True, name=None):
  """The dense tensor a SparseTensor stands for (missing entries `default_value`)."""
  sp_input = _convert(sp_input)
  return sparse_to_dense(sp_input.indices, sp_input.dense_shape, sp_input.values,
                         default_value=default_value, validate_indices=validate_indices,
                         name=name or "SparseToDense")


def sparse_tensor_dense_matmul(sp_a, b, adjoint_a=False, adjoint_b=False, name=None):
  """op(sp_a) @ op(b) for a rank-2 SparseTensor sp_a and a dense matrix b."""
  sp_a = _convert(sp_a, "sp_a")
  with _ops.name_scope(name, "SparseTensorDenseMatMul",
                       [sp_a.indices, sp_a.values, b]) as name:
    b = _ops.convert_to_tensor(b, name="b")
    return _apply_op("SparseTensorDenseMatMul", name,
                     [sp_a.indices, sp_a.values, sp_a.dense_shape, b],
                     {"adjoint_a": bool(adjoint_a), "adjoint_b": bool(adjoint_b)}).outputs[0]


def sparse_reorder(sp_input, name=None):
  """The same SparseTensor with its entries in row-major (canonical) order."""
  sp_input = _convert(sp_input)
  with _ops.name_scope(name, "SparseReorder", [sp_input.indices, sp_input.values]):
    op = _apply_op("SparseReorder", None,
                   [sp_input.indices, sp_input.values, sp_input.dense_shape])
    out = SparseTensor(op.outputs[0], op.outputs[1], sp_input.dense_shape)
    out._dense_shape_default = sp_input.get_shape()  # pylint: disable=protected-access
    return out


def _static_rank(sp):
  r = sp.get_shape().ndims
  if r is None:
    r = _tensor_shape.dimension_value(sp.dense_shape.get_shape()[0])
  if r is None:
    raise ValueError("the rank of the SparseTensor must be known when the graph is built")
  return r


def _flat_positions(indices, shape, axes):
  """The row-major position of each entry over the dims `axes` of `shape`
  (int64 [N]), and the product of those dims."""
  m = _math()
  a = _array()
  pos = None
  size = _i64(1)
  for ax in axes:
    dim = a.gather(shape, ax)
    col = a.gather(indices, ax, axis=1)
    pos = col if pos is None else pos * dim + col
    size = size * dim
  if pos is None:
    pos = a.zeros_like(a.gather(indices, 0, axis=1))
  return pos, size


def sparse_reduce_sum(sp_input, axis=None, keepdims=None, reduction_axes=None, keep_dims=None):
  """tf.reduce_sum of the dense tensor, computed from the entries (a segment
  sum over the kept dims); all dims when axis is None."""
  sp_input = _convert(sp_input)
  m = _math()
  a = _array()
  if axis is None:
    axis = reduction_axes
  if keep_dims is not None:
    keepdims = keep_dims
  keepdims = bool(keepdims)
  rank = _static_rank(sp_input)
  if axis is None:
    axes = list(range(rank))
  else:
    axes = [axis] if isinstance(axis, int) else list(axis)
    axes = sorted(set(ax + rank if ax < 0 else ax for ax in axes))
    for ax in axes:
      if ax < 0 or ax >= rank:
        raise ValueError("Invalid reduction dimension %d for a SparseTensor of rank %d" %
                         (ax, rank))
  kept = [d for d in range(rank) if d not in axes]
  with _ops.name_scope(None, "SparseReduceSum", [sp_input.indices, sp_input.values]):
    shape = sp_input.dense_shape
    pos, size = _flat_positions(sp_input.indices, shape, kept)
    sums = m.unsorted_segment_sum(sp_input.values, pos, size)
    out_dims = []
    for d in range(rank):
      if d in kept:
        out_dims.append(a.gather(shape, d))
      elif keepdims:
        out_dims.append(_i64(1))
    if not out_dims:
      return a.reshape(sums, [])
    return a.reshape(sums, m.cast(a.stack(out_dims), _dtypes.int32))


def _sum_duplicates(indices, values, dense_shape, rank, thresh=None):
  """Sorted (indices, values) with the values of repeated coordinates added up
  (entries whose |sum| < thresh dropped when thresh is given)."""
  m = _math()
  a = _array()
  op = _apply_op("SparseReorder", None, [indices, values, dense_shape])
  indices, values = op.outputs
  pos, _ = _flat_positions(indices, dense_shape, list(range(rank)))
  unique_pos, seg = a.unique(pos)
  n_unique = a.shape(unique_pos)[0]
  values = m.unsorted_segment_sum(values, seg, n_unique)
  # the first entry of each run of equal positions (the input is sorted)
  n = a.shape(pos)[0]
  first = a.concat([_ops.convert_to_tensor([True]),
                    m.not_equal(pos[1:], pos[:-1])], 0)
  first = a.slice(first, [0], a.reshape(n, [1]))
  indices = a.boolean_mask(indices, first)
  if thresh is not None:
    keep = m.greater_equal(m.abs(values), m.cast(thresh, values.dtype.base_dtype))
    indices = a.boolean_mask(indices, keep)
    values = a.boolean_mask(values, keep)
  return indices, values


def sparse_add(a, b, thresh=0, threshold=None):
  """a + b for SparseTensors and dense tensors: two SparseTensors give a
  SparseTensor (sorted, coordinates summed, |sum| < thresh dropped); a
  SparseTensor and a dense tensor give a dense tensor."""
  if threshold is not None:
    thresh = threshold
  arr = _array()
  sp_types = (_sparse_tensor.SparseTensor, _sparse_tensor.SparseTensorValue)
  if not any(isinstance(x, sp_types) for x in (a, b)):
    raise TypeError("At least one input should be SparseTensor; do you mean to use tf.add?")
  if all(isinstance(x, sp_types) for x in (a, b)):
    a, b = _convert(a, "a"), _convert(b, "b")
    rank = _static_rank(a)
    with _ops.name_scope(None, "SparseAdd", [a.indices, a.values, b.indices, b.values]):
      indices = arr.concat([a.indices, b.indices], 0)
      values = arr.concat([a.values, _ops.convert_to_tensor(b.values, dtype=a.dtype)], 0)
      indices, values = _sum_duplicates(indices, values, a.dense_shape, rank, thresh)
      out = SparseTensor(indices, values, a.dense_shape)
      out._dense_shape_default = a.get_shape()  # pylint: disable=protected-access
      return out
  if isinstance(b, sp_types):
    a, b = b, a
  sp = _convert(a)
  with _ops.name_scope(None, "SparseTensorDenseAdd", [sp.indices, sp.values, b]):
    b = _ops.convert_to_tensor(b, dtype=sp.dtype, name="b")
    return _math().add(b, _scatter_dense(sp))


def _scatter_dense(sp):
  """The dense tensor of sp with repeated coordinates added (UnsortedSegmentSum)."""
  m = _math()
  a = _array()
  rank = _static_rank(sp)
  pos, size = _flat_positions(sp.indices, sp.dense_shape, list(range(rank)))
  flat = m.unsorted_segment_sum(sp.values, pos, size)
  return a.reshape(flat, m.cast(sp.dense_shape, _dtypes.int32))


def sparse_concat(axis, sp_inputs, name=None, expand_nonconcat_dim=False, concat_dim=None,
                  expand_nonconcat_dims=None):
  """SparseTensors joined along `axis` (entries sorted, as TF's SparseConcat)."""
  if concat_dim is not None:
    axis = concat_dim
  if expand_nonconcat_dims is not None:
    expand_nonconcat_dim = expand_nonconcat_dims
  if not isinstance(sp_inputs, (list, tuple)) or not sp_inputs:
    raise TypeError("Inputs must be a list")
  sp_inputs = [_convert(s) for s in sp_inputs]
  rank = _static_rank(sp_inputs[0])
  for s in sp_inputs[1:]:
    if _static_rank(s) != rank:
      raise ValueError("All SparseTensors must have the same rank")
  if axis < 0:
    axis += rank
  m = _math()
  a = _array()
  with _ops.name_scope(name, "SparseConcat", [s.values for s in sp_inputs]):
    offset = _i64(0)
    indices, values = [], []
    onehot = _ops.convert_to_tensor([1 if d == axis else 0 for d in range(rank)],
                                    dtype=_dtypes.int64)
    for s in sp_inputs:
      indices.append(s.indices + onehot * offset)
      values.append(s.values)
      offset = offset + a.gather(s.dense_shape, axis)
    shape = sp_inputs[0].dense_shape
    if expand_nonconcat_dim:
      for s in sp_inputs[1:]:
        shape = m.maximum(shape, s.dense_shape)
    shape = shape * (1 - onehot) + onehot * offset
    op = _apply_op("SparseReorder", None, [a.concat(indices, 0), a.concat(values, 0), shape])
    return SparseTensor(op.outputs[0], op.outputs[1], shape)


def sparse_reshape(sp_input, shape, name=None):
  """The same entries in a dense shape `shape` (one dim may be -1), row-major
  positions kept."""
  sp_input = _convert(sp_input)
  m = _math()
  a = _array()
  with _ops.name_scope(name, "SparseReshape", [sp_input.values]):
    rank = _static_rank(sp_input)
    new_shape = _i64(shape)
    new_rank = _tensor_shape.dimension_value(new_shape.get_shape()[0])
    if new_rank is None:
      raise ValueError("sparse_reshape needs a shape of known length")
    pos, total = _flat_positions(sp_input.indices, sp_input.dense_shape, list(range(rank)))
    known = m.reduce_prod(m.maximum(new_shape, 1))
    missing = m.cast(m.equal(new_shape, -1), _dtypes.int64)
    new_shape = new_shape * (1 - missing) + missing * (total // known)
    cols = []
    rest = pos
    for d in reversed(range(new_rank)):
      dim = a.gather(new_shape, d)
      cols.append(m.floormod(rest, dim))
      rest = m.floordiv(rest, dim)
    new_indices = a.stack(list(reversed(cols)), axis=1) if cols else a.reshape(pos, [-1, 0])
    return SparseTensor(new_indices, sp_input.values, new_shape)


def sparse_retain(sp_input, to_retain):
  """The entries of sp_input whose flag in the bool vector `to_retain` is set."""
  sp_input = _convert(sp_input)
  a = _array()
  to_retain = _ops.convert_to_tensor(to_retain)
  rs = to_retain.get_shape()
  if rs.ndims is not None and rs.ndims != 1:
    raise ValueError("Shape must be rank 1 but is rank %d" % rs.ndims)
  n = _tensor_shape.dimension_value(sp_input.values.get_shape()[0])
  if rs.ndims == 1 and n is not None and rs.dims[0].value not in (None, n):
    raise ValueError("Dimensions %d and %d are not compatible" % (n, rs.dims[0].value))
  where = a.reshape(a.where(to_retain), [-1])
  out = SparseTensor(a.gather(sp_input.indices, where), a.gather(sp_input.values, where),
                     a.identity(sp_input.dense_shape))
  out._dense_shape_default = sp_input.get_shape()  # pylint: disable=protected-access
  return out


def sparse_fill_empty_rows(sp_input, default_value, name=None):
  """(the SparseTensor with an entry [r, 0, ...] = default_value added for
  every empty row r, sorted; a bool vector marking the rows that were empty)."""
  sp_input = _convert(sp_input)
  m = _math()
  a = _array()
  with _ops.name_scope(name, "SparseFillEmptyRows", [sp_input.values, default_value]):
    rank = _static_rank(sp_input)
    shape = sp_input.dense_shape
    nrows = a.gather(shape, 0)
    rows = a.gather(sp_input.indices, 0, axis=1)
    counts = m.unsorted_segment_sum(a.ones_like(rows), rows, nrows)
    empty = m.equal(counts, 0)
    empty_rows = a.reshape(a.where(empty), [-1, 1])
    zeros = a.zeros_like(a.tile(empty_rows, [1, max(rank - 1, 0)])) if rank > 1 else None
    new_indices = a.concat([empty_rows, zeros], 1) if zeros is not None else empty_rows
    default_value = _ops.convert_to_tensor(default_value, dtype=sp_input.dtype)
    new_values = a.fill(a.shape(empty_rows)[:1], default_value)
    op = _apply_op("SparseReorder", None, [a.concat([sp_input.indices, new_indices], 0),
                                           a.concat([sp_input.values, new_values], 0), shape])
    out = SparseTensor(op.outputs[0], op.outputs[1], shape)
    out._dense_shape_default = sp_input.get_shape()  # pylint: disable=protected-access
    return out, empty


def sparse_placeholder(dtype, shape=None, name=None):
  """A SparseTensor of three placeholders, fed with a SparseTensorValue."""
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  with _ops.name_scope(name, "SparseTensor") as scope:
    rank = None
    if shape is not None and not isinstance(shape, _ops.Tensor):
      shape = _tensor_shape.as_shape(shape)
      rank = shape.ndims
    values = array_ops.placeholder(dtype, shape=[None], name=scope + "values")
    indices = array_ops.placeholder(_dtypes.int64, shape=[None, rank], name=scope + "indices")
    if shape is None or (rank is not None and not shape.is_fully_defined()):
      dense_shape = array_ops.placeholder(_dtypes.int64, shape=[rank], name=scope + "shape")
    else:
      dense_shape = _ops.convert_to_tensor(shape.as_list() if rank is not None else shape,
                                           dtype=_dtypes.int64, name=scope + "shape")
  return SparseTensor(indices, values, dense_shape)


def from_dense(tensor, name=None):
  """The SparseTensor of the nonzero (non-empty for strings) entries of `tensor`."""
  a = _array()
  m = _math()
  with _ops.name_scope(name, "dense_to_sparse", [tensor]):
    tensor = _ops.convert_to_tensor(tensor)
    zero = "" if tensor.dtype.base_dtype == _dtypes.string else 0
    mask = m.not_equal(tensor, _ops.convert_to_tensor(zero, dtype=tensor.dtype.base_dtype))
    indices = a.where(mask)
    values = a.boolean_mask(tensor, mask)
    shape = a.shape(tensor, out_type=_dtypes.int64)
    out = SparseTensor(indices, values, shape)
    out._dense_shape_default = tensor.get_shape()  # pylint: disable=protected-access
    return out


def sparse_expand_dims(sp_input, axis=None, name=None):
  """sp_input with a dimension of size 1 inserted at `axis`."""
  sp_input = _convert(sp_input)
  a = _array()
  rank = _static_rank(sp_input)
  axis = -1 if axis is None else int(axis)
  if axis < 0:
    axis += rank + 1
  if not 0 <= axis <= rank:
    raise ValueError("axis %d is out of range for a SparseTensor of rank %d" % (axis, rank))
  with _ops.name_scope(name, "expand_dims", [sp_input.values]):
    n = a.shape(sp_input.indices, out_type=_dtypes.int64)[:1]
    zeros = a.zeros(a.concat([n, _i64([1])], 0), dtype=_dtypes.int64)
    cols = [a.slice(sp_input.indices, [0, 0], [-1, axis]), zeros,
            a.slice(sp_input.indices, [0, axis], [-1, -1])]
    shape = a.concat([sp_input.dense_shape[:axis], _i64([1]), sp_input.dense_shape[axis:]], 0)
    return SparseTensor(a.concat(cols, 1), sp_input.values, shape)


def sparse_transpose(sp_input, perm=None, name=None):
  """sp_input with its dimensions permuted by `perm` (default: reversed), entries sorted."""
  sp_input = _convert(sp_input)
  a = _array()
  rank = _static_rank(sp_input)
  if perm is None:
    perm = list(range(rank))[::-1]
  with _ops.name_scope(name, "SparseTranspose", [sp_input.values]):
    perm = _ops.convert_to_tensor(perm, dtype=_dtypes.int32)
    indices = a.gather(sp_input.indices, perm, axis=1)
    shape = a.gather(sp_input.dense_shape, perm)
    op = _apply_op("SparseReorder", None, [indices, sp_input.values, shape])
    return SparseTensor(op.outputs[0], op.outputs[1], shape)


def sparse_reset_shape(sp_input, new_shape=None):
  """sp_input with dense_shape `new_shape`, or the tightest shape holding its
  entries (max index + 1 per dimension) when None."""
  sp_input = _convert(sp_input)
  m = _math()
  a = _array()
  if new_shape is None:
    shape = m.reduce_max(a.concat([sp_input.indices,
                                   a.zeros([1, _static_rank(sp_input)], _dtypes.int64) - 1], 0),
                         axis=0) + 1
  else:
    shape = _i64(new_shape)
  return SparseTensor(a.identity(sp_input.indices), a.identity(sp_input.values), shape)


def sparse_slice(sp_input, start, size, name=None):
  """The entries inside the box [start, start + size), shifted to start at 0."""
  sp_input = _convert(sp_input)
  m = _math()
  a = _array()
  with _ops.name_scope(name, "SparseSlice", [sp_input.values]):
    start = _i64(start)
    size = _i64(size)
    end = m.minimum(start + size, sp_input.dense_shape)
    inside = m.logical_and(m.greater_equal(sp_input.indices, start),
                           m.less(sp_input.indices, end))
    keep = a.reshape(a.where(m.reduce_all(inside, axis=1)), [-1])
    indices = a.gather(sp_input.indices, keep) - start
    values = a.gather(sp_input.values, keep)
    shape = m.maximum(end - start, 0)
    return SparseTensor(indices, values, shape)


def sparse_split(keyword_required=None, sp_input=None, num_split=None, axis=None, name=None,
                 split_dim=None):
  """num_split SparseTensors cut from sp_input along `axis` (the first
  dim % num_split pieces one longer)."""
  del keyword_required
  if split_dim is not None:
    axis = split_dim
  sp_input = _convert(sp_input)
  m = _math()
  a = _array()
  rank = _static_rank(sp_input)
  if axis < 0:
    axis += rank
  with _ops.name_scope(name, "SparseSplit", [sp_input.values]):
    dim = a.gather(sp_input.dense_shape, axis)
    base = dim // num_split
    extra = dim % num_split
    onehot = _ops.convert_to_tensor([1 if d == axis else 0 for d in range(rank)], _dtypes.int64)
    out = []
    begin = _i64(0)
    for i in range(num_split):
      length = base + m.cast(m.less(_i64(i), extra), _dtypes.int64)
      start = onehot * begin
      size = sp_input.dense_shape * (1 - onehot) + onehot * length
      out.append(sparse_slice(sp_input, start, size))
      begin = begin + length
    return out


def sparse_to_indicator(sp_input, vocab_size, name=None):
  """A dense bool tensor [..., vocab_size]: True at each entry's value (the
  last index dimension replaced by the value)."""
  sp_input = _convert(sp_input)
  a = _array()
  m = _math()
  with _ops.name_scope(name, "SparseToIndicator", [sp_input.values]):
    rank = _static_rank(sp_input)
    ids = a.reshape(m.cast(sp_input.values, _dtypes.int64), [-1, 1])
    indices = a.concat([a.slice(sp_input.indices, [0, 0], [-1, rank - 1]), ids], 1)
    shape = a.concat([sp_input.dense_shape[:rank - 1], a.reshape(_i64(vocab_size), [1])], 0)
    ones = a.ones_like(sp_input.values, dtype=_dtypes.bool)
    op = _apply_op("SparseReorder", None, [indices, ones, shape])
    return sparse_to_dense(op.outputs[0], shape, op.outputs[1], default_value=False,
                           validate_indices=False)


def _segment_reduce(data, indices, segment_ids, num_segments, name, kind):
  m = _math()
  a = _array()
  with _ops.name_scope(name, "SparseSegment" + kind, [data, indices, segment_ids]):
    data = _ops.convert_to_tensor(data, name="data")
    rows = a.gather(data, indices)
    segment_ids = _ops.convert_to_tensor(segment_ids)
    if num_segments is None:
      num_segments = m.reduce_max(a.concat([a.reshape(segment_ids, [-1]),
                                            _ops.convert_to_tensor([-1], dtype=segment_ids.dtype)],
                                           0)) + 1
    sums = m.unsorted_segment_sum(rows, segment_ids, num_segments)
    if kind == "Sum":
      return sums
    counts = m.unsorted_segment_sum(a.ones_like(segment_ids, dtype=data.dtype.base_dtype),
                                    segment_ids, num_segments)
    counts = m.maximum(counts, a.ones_like(counts))
    if kind == "SqrtN":
      counts = m.sqrt(counts)
    extra = data.get_shape().ndims
    if extra is None:
      raise ValueError("sparse_segment_%s needs data of known rank" % kind.lower())
    counts = a.reshape(counts, a.concat([a.shape(counts), [1] * (extra - 1)], 0))
    return sums / counts


def sparse_segment_sum(data, indices, segment_ids, name=None, num_segments=None):
  """Sum of the rows data[indices] per segment id (rows = max id + 1 or num_segments)."""
  return _segment_reduce(data, indices, segment_ids, num_segments, name, "Sum")


def sparse_segment_mean(data, indices, segment_ids, name=None, num_segments=None):
  """Mean of the rows data[indices] per segment id (an empty segment gives 0)."""
  return _segment_reduce(data, indices, segment_ids, num_segments, name, "Mean")


def sparse_segment_sqrt_n(data, indices, segment_ids, name=None, num_segments=None):
  """Sum of the rows data[indices] per segment id divided by sqrt(count)."""
  return _segment_reduce(data, indices, segment_ids, num_segments, name, "SqrtN")


def sparse_matmul(a, b, transpose_a=False, transpose_b=False, a_is_sparse=False,
                  b_is_sparse=False, name=None):
  """a @ b of dense matrices (the sparsity flags are hints; tfc multiplies densely)."""
  del a_is_sparse, b_is_sparse
  return _math().matmul(a, b, transpose_a=transpose_a, transpose_b=transpose_b, name=name)


def embedding_lookup_sparse(params, sp_ids, sp_weights, partition_strategy="mod", name=None,
                            combiner=None, max_norm=None):
  """Per row of the SparseTensor sp_ids, the embeddings of its ids combined
  ("sum", "mean" (default) or "sqrtn"), weighted by sp_weights' values when
  given; result rows = the last row id with an entry + 1."""
  from tfc.ops import nn_ops  # pylint: disable=g-import-not-at-top
  if combiner is None:
    combiner = "mean"
  if combiner not in ("mean", "sqrtn", "sum"):
    raise ValueError("combiner must be one of 'mean', 'sqrtn' or 'sum'")
  if not isinstance(params, (list, tuple)):
    params = [params]
  sp_ids = _convert(sp_ids, "sp_ids")
  if sp_weights is not None:
    sp_weights = _convert(sp_weights, "sp_weights")
  m = _math()
  a = _array()
  with _ops.name_scope(name, "embedding_lookup_sparse",
                       list(params) + [sp_ids.values]) as name:
    segment_ids = m.cast(a.gather(sp_ids.indices, 0, axis=1), _dtypes.int32)
    ids = sp_ids.values
    ids, idx = a.unique(ids)
    embeddings = nn_ops.embedding_lookup(params, ids, partition_strategy=partition_strategy,
                                         max_norm=max_norm)
    num_segments = m.reduce_max(a.concat([segment_ids, [-1]], 0)) + 1
    rows = a.gather(embeddings, idx)
    extra = rows.get_shape().ndims
    if extra is None:
      raise ValueError("embedding_lookup_sparse needs params of known rank")
    if sp_weights is None:
      weights = a.ones_like(segment_ids, dtype=rows.dtype.base_dtype)
    else:
      weights = m.cast(sp_weights.values, rows.dtype.base_dtype)
    wshape = a.concat([a.shape(weights), [1] * (extra - 1)], 0)
    summed = m.unsorted_segment_sum(rows * a.reshape(weights, wshape), segment_ids, num_segments)
    if combiner == "sum":
      return a.identity(summed, name=name)
    wsum = m.unsorted_segment_sum(weights if combiner == "mean" else weights * weights,
                                  segment_ids, num_segments)
    if combiner == "sqrtn":
      wsum = m.sqrt(wsum)
    wsum = a.reshape(wsum, a.concat([a.shape(wsum), [1] * (extra - 1)], 0))
    return m.div_no_nan(summed, wsum, name=name)


def sparse_softmax(sp_input, name=None):
  """Softmax over the last dimension of a SparseTensor's entries (TF 1.15
  `tf.sparse.softmax`): each innermost row's entries become
  exp(v - max) / sum; the indices and shape are unchanged. The entries must
  be in row-major order (`tf.sparse.reorder` first otherwise)."""
  sp_input = _convert(sp_input)
  with _ops.name_scope(name, "SparseSoftmax", [sp_input.indices, sp_input.values]) as name:
    out = _apply_op("SparseSoftmax", name,
                    [sp_input.indices, sp_input.values, sp_input.dense_shape]).outputs[0]
    return SparseTensor(sp_input.indices, out, sp_input.dense_shape)


def _sparse_sparse_minmax(op_type, sp_a, sp_b, name):
  sp_a = _convert(sp_a, "sp_a")
  sp_b = _convert(sp_b, "sp_b")
  with _ops.name_scope(name, op_type, [sp_a.indices, sp_a.values, sp_b.indices,
                                       sp_b.values]) as name:
    op = _apply_op(op_type, name, [sp_a.indices, sp_a.values, sp_a.dense_shape,
                                   sp_b.indices, sp_b.values, sp_b.dense_shape])
    return SparseTensor(op.outputs[0], op.outputs[1], sp_a.dense_shape)


def sparse_maximum(sp_a, sp_b, name=None):
  """The element-wise maximum of two SparseTensors of one shape (TF 1.15
  `tf.sparse.maximum`): the union of their entries, a coordinate present in
  one only compared with 0. Both must be in row-major order."""
  return _sparse_sparse_minmax("SparseSparseMaximum", sp_a, sp_b, name)


def sparse_minimum(sp_a, sp_b, name=None):
  """The element-wise minimum of two SparseTensors of one shape (TF 1.15
  `tf.sparse.minimum`); see sparse_maximum."""
  return _sparse_sparse_minmax("SparseSparseMinimum", sp_a, sp_b, name)


def sparse_mask(a, mask_indices, name=None):
  """The IndexedSlices `a` without the slices whose index is in
  `mask_indices` (TF 1.15 `tf.sparse.mask`; ListDiff picks the rest)."""
  from tfc.framework.indexed_slices import IndexedSlices  # pylint: disable=g-import-not-at-top
  with _ops.name_scope(name, "sparse_mask", [a, mask_indices]) as name:
    indices = a.indices
    out_indices, to_gather = _array().setdiff1d(indices, mask_indices)
    out_values = _array().gather(a.values, to_gather, name=name)
    return IndexedSlices(out_values, out_indices, a.dense_shape)


def sparse_merge(sp_ids, sp_values, vocab_size, name=None, already_sorted=False):
  """Combines a batch of feature ids and values into one SparseTensor (TF
  1.15 `tf.sparse_merge`): entry [i, ..., sp_ids.values[k]] = sp_values.values[k],
  with sp_ids' leading coordinates; a list of sp_ids / vocab_size gives one
  trailing coordinate per id tensor."""
  a = _array()
  m = _math()
  if isinstance(sp_ids, (_sparse_tensor.SparseTensor, _sparse_tensor.SparseTensorValue)):
    sp_ids = [sp_ids]
    if not (isinstance(vocab_size, _ops.Tensor) or isinstance(vocab_size, int)):
      raise TypeError("vocab_size has to be a Tensor or Python int. Found %s" % type(vocab_size))
    vocab_size = [vocab_size]
  else:
    if not isinstance(sp_ids, (list, tuple)):
      raise TypeError("sp_ids has to be a SparseTensor or list thereof. Found %s" % type(sp_ids))
    if not isinstance(vocab_size, (list, tuple)) or len(vocab_size) != len(sp_ids):
      raise ValueError("sp_ids and vocab_size have to have equal lengths.")
  sp_ids = [_convert(s, "sp_ids") for s in sp_ids]
  sp_values = _convert(sp_values, "sp_values")
  with _ops.name_scope(name, "SparseMerge", [sp_ids, sp_values]):
    indices_shape = a.shape(sp_ids[0].indices, out_type=_dtypes.int64)
    rank = a.gather(indices_shape, 1)
    ids = [m.cast(s.values, _dtypes.int64) for s in sp_ids]
    # the leading coordinates of the first id tensor, without its last column
    lead = a.slice(sp_ids[0].indices, _i64([0, 0]), a.stack([_i64(-1), rank - 1]))
    new_indices = a.concat([lead] + [a.expand_dims(i, 1) for i in ids], 1)
    vs = [m.cast(v, _dtypes.int64) for v in vocab_size]
    new_shape = a.concat([a.slice(sp_ids[0].dense_shape, _i64([0]), a.expand_dims(rank - 1, 0)),
                          a.stack(vs)], 0)
    result = SparseTensor(new_indices, sp_values.values, new_shape)
    if already_sorted:
      return result
    return sparse_reorder(result)


def _reduce_args(sp_input, axis, keepdims, reduction_axes, keep_dims):
  """(sp_input, int32 axes tensor, keep_dims) for the SparseReduce* ops; axis
  None reduces every dimension."""
  sp_input = _convert(sp_input)
  if axis is None:
    axis = reduction_axes
  if keep_dims is not None:
    keepdims = keep_dims
  if axis is None:
    axis = list(range(_static_rank(sp_input)))
  return sp_input, _ops.convert_to_tensor(axis, dtype=_dtypes.int32), bool(keepdims)


def sparse_reduce_max(sp_input, axis=None, keepdims=None, reduction_axes=None, keep_dims=None):
  """The maximum of a SparseTensor's entries over `axis` as a dense tensor
  (TF 1.15 `tf.sparse.reduce_max`): implicit zeros are ignored, a cell no
  entry reaches holds 0."""
  sp_input, axes, keep = _reduce_args(sp_input, axis, keepdims, reduction_axes, keep_dims)
  return _apply_op("SparseReduceMax", None,
                   [sp_input.indices, sp_input.values, sp_input.dense_shape, axes],
                   {"keep_dims": keep}).outputs[0]


def _reduce_sparse(op_type, sp_input, axis, keepdims, reduction_axes, keep_dims):
  sp_input, axes, keep = _reduce_args(sp_input, axis, keepdims, reduction_axes, keep_dims)
  op = _apply_op(op_type, None, [sp_input.indices, sp_input.values, sp_input.dense_shape, axes],
                 {"keep_dims": keep})
  return SparseTensor(*op.outputs)


def sparse_reduce_max_sparse(sp_input, axis=None, keepdims=None, reduction_axes=None,
                             keep_dims=None):
  """sparse_reduce_max as a SparseTensor of the cells some entry reaches
  (TF 1.15 `tf.sparse.reduce_max_sparse`)."""
  return _reduce_sparse("SparseReduceMaxSparse", sp_input, axis, keepdims, reduction_axes,
                        keep_dims)


def sparse_reduce_sum_sparse(sp_input, axis=None, keepdims=None, reduction_axes=None,
                             keep_dims=None):
  """The sum of a SparseTensor's entries over `axis` as a SparseTensor of the
  cells some entry reaches (TF 1.15 `tf.sparse.reduce_sum_sparse`)."""
  return _reduce_sparse("SparseReduceSumSparse", sp_input, axis, keepdims, reduction_axes,
                        keep_dims)


def sparse_eye(num_rows, num_columns=None, dtype=_dtypes.float32, name=None):
  """A [num_rows, num_columns] SparseTensor with ones on the diagonal (TF 1.15
  `tf.sparse.eye`); num_columns defaults to num_rows."""
  m = _math()
  a = _array()
  with _ops.name_scope(name, "eye", [num_rows, num_columns]):
    num_rows = _i64(num_rows)
    num_columns = num_rows if num_columns is None else _i64(num_columns)
    diag_size = m.minimum(num_rows, num_columns)
    diag_range = m.range(diag_size, dtype=_dtypes.int64)
    return SparseTensor(indices=a.stack([diag_range, diag_range], axis=1),
                        values=a.ones(a.reshape(diag_size, [1]), dtype=dtype),
                        dense_shape=a.stack([num_rows, num_columns]))


def _add_sparse_to_tensors_map(sp_input, container=None, shared_name=None, name=None):
  """Stores sp_input in a SparseTensorsMap (AddSparseToTensorsMap); returns its
  int64 scalar handle. The map is (container, shared_name), by default named
  after the new op."""
  sp_input = _convert(sp_input)
  return _apply_op("AddSparseToTensorsMap", name,
                   [sp_input.indices, sp_input.values, sp_input.dense_shape],
                   {"container": container or "", "shared_name": shared_name or ""}).outputs[0]


def _add_many_sparse_to_tensors_map(sp_input, container=None, shared_name=None, name=None):
  """Stores each row (first dimension) of sp_input, whose indices must be in
  row-major order, in a SparseTensorsMap (AddManySparseToTensorsMap); returns
  the int64 vector of their handles."""
  sp_input = _convert(sp_input)
  return _apply_op("AddManySparseToTensorsMap", name,
                   [sp_input.indices, sp_input.values, sp_input.dense_shape],
                   {"container": container or "", "shared_name": shared_name or ""}).outputs[0]


def _take_many_sparse_from_tensors_map(sparse_map_op, sparse_handles, rank=None, name=None):
  """Removes the sparse tensors of the int64 vector sparse_handles from the map
  that sparse_map_op (an Add(Many)SparseToTensorsMap op) stores into, and
  stacks them into one SparseTensor with a new first dimension
  (TakeManySparseFromTensorsMap)."""
  if not isinstance(sparse_map_op, _ops.Operation):
    raise TypeError("sparse_map_op be an Operation")
  if sparse_map_op.type not in ("AddSparseToTensorsMap", "AddManySparseToTensorsMap"):
    raise TypeError("sparse_map_op must be one of AddSparseToTensorsMap or "
                    "AddSparseToTensorsMap. Instead, found `%s`." % sparse_map_op.type)
  shared_name = sparse_map_op.get_attr("shared_name") or sparse_map_op.name
  if isinstance(shared_name, bytes):
    shared_name = shared_name.decode()
  container = sparse_map_op.get_attr("container")
  if isinstance(container, bytes):
    container = container.decode()
  op = _apply_op("TakeManySparseFromTensorsMap", name, [sparse_handles],
                 {"dtype": sparse_map_op.get_attr("T"), "container": container,
                  "shared_name": shared_name})
  indices, values, shape = op.outputs
  indices.set_shape([None, rank])
  shape.set_shape([rank])
  return SparseTensor(indices, values, shape)
_DEFAULT_HASH_KEY = 0xDECAFCAFFE


def _sparse_cross_internal(inputs, hashed_output=False, num_buckets=0, hash_key=None, name=None):
  """SparseCross over a list of SparseTensors and dense [batch, n] Tensors."""
  from tfc.ops import math_ops as _math_ops  # pylint: disable=import-outside-toplevel
  if not isinstance(inputs, list):
    raise TypeError("Inputs must be a list")
  if not all(isinstance(i, (_sparse_tensor.SparseTensor, _ops.Tensor)) for i in inputs):
    raise TypeError("All inputs must be SparseTensors")
  sparse_inputs = [i for i in inputs if isinstance(i, _sparse_tensor.SparseTensor)]
  dense_inputs = [i for i in inputs if not isinstance(i, _sparse_tensor.SparseTensor)]
  indices = [sp.indices for sp in sparse_inputs]
  values = [sp.values for sp in sparse_inputs]
  shapes = [sp.dense_shape for sp in sparse_inputs]
  out_type = _dtypes.int64 if hashed_output else _dtypes.string
  internal_type = _dtypes.string
  for i in range(len(values)):
    if values[i].dtype != _dtypes.string:
      values[i] = _math_ops.cast(values[i], _dtypes.int64)
      internal_type = _dtypes.int64
  for i in range(len(dense_inputs)):
    if dense_inputs[i].dtype != _dtypes.string:
      dense_inputs[i] = _math_ops.cast(dense_inputs[i], _dtypes.int64)
      internal_type = _dtypes.int64
  op = _apply_op("SparseCross", name, [indices, values, shapes, dense_inputs],
                 {"N": len(indices), "hashed_output": hashed_output, "num_buckets": int(num_buckets),
                  "hash_key": int(hash_key or _DEFAULT_HASH_KEY), "out_type": out_type,
                  "internal_type": internal_type})
  return _sparse_tensor.SparseTensor(op.outputs[0], op.outputs[1], op.outputs[2])


def sparse_cross(inputs, name=None):
  """The cross of the features of each row of `inputs` (SparseTensors or
  dense [batch, n] Tensors, string or integer) as strings joined by "_X_"."""
  return _sparse_cross_internal(inputs=inputs, hashed_output=False, name=name)


def sparse_cross_hashed(inputs, num_buckets=0, hash_key=None, name=None):
  """The cross of each row's features hashed (FingerprintCat64 chained from
  hash_key) into num_buckets (0: the full int64 range), TF's values exactly."""
  return _sparse_cross_internal(inputs=inputs, hashed_output=True, num_buckets=num_buckets, hash_key=hash_key,
                                name=name)


def bucketize(input, boundaries, name=None):  # pylint: disable=redefined-builtin
  """Bucket indices (int32) of `input` for sorted float `boundaries` (the
  private math_ops._bucketize feature columns use)."""
  return _apply_op("Bucketize", name, [input], {"boundaries": [float(b) for b in boundaries]}).outputs[0]
