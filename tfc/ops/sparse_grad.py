"""Gradient functions of the partition/stitch and sparse-tensor ops."""
from tfc import dtypes as _dtypes
from tfc.framework import ops as _ops
from tfc.ops.gradient_registry import RegisterGradient, NoGradient
from tfc.ops.math_grad import _out, _const, _reshape

NoGradient("SparseToDense")
NoGradient("ListDiff")


@RegisterGradient("SparseSparseMaximum")
def _sparse_sparse_maximum_grad(unused_op, *unused_grads):
  raise NotImplementedError("Gradient for SparseSparseMaximum is not implemented.")


@RegisterGradient("SparseSparseMinimum")
def _sparse_sparse_minimum_grad(unused_op, *unused_grads):
  raise NotImplementedError("Gradient for SparseSparseMinimum is not implemented.")


@RegisterGradient("SparseSoftmax")
def _sparse_softmax_grad(op, grad):
  """d values = (grad - sum over the row of grad * out) * out: the softmax
  Jacobian applied per innermost row (the entries sharing all but the last
  coordinate; Unique numbers the rows, so no dense buffer is made)."""
  from tfc.framework import sparse_tensor  # pylint: disable=g-import-not-at-top
  from tfc.ops import array_ops, math_ops, sparse_ops  # pylint: disable=g-import-not-at-top
  indices, _, shape = op.inputs
  out = op.outputs[0]
  rank = sparse_ops._static_rank(sparse_tensor.SparseTensor(indices, out, shape))  # pylint: disable=protected-access
  pos, _ = sparse_ops._flat_positions(indices, shape, list(range(rank - 1)))  # pylint: disable=protected-access
  rows, row_of = array_ops.unique(pos)
  sums = math_ops.unsorted_segment_sum(grad * out, row_of, array_ops.shape(rows)[0])
  return [None, (grad - array_ops.gather(sums, row_of)) * out, None]


@RegisterGradient("DynamicPartition")
def _dynamic_partition_grad(op, *grads):
  """Stitches each output's gradient back to its rows' original positions."""
  data, partitions = op.inputs
  n = op.get_attr("num_partitions")
  prefix = _out("Shape", [partitions], {"out_type": _dtypes.int32})
  count = _out("Prod", [prefix, _const([0])], {"keep_dims": False})
  positions = _reshape(_out("Range", [_const(0), count, _const(1)]), prefix)
  parts = _apply_parts(positions, partitions, n)
  grads = [_ops.convert_to_tensor(g) if g is not None else _out("ZerosLike", [o])
           for g, o in zip(grads, op.outputs)]
  stitched = _out("ParallelDynamicStitch", [parts, grads])
  return [_reshape(stitched, _out("Shape", [data], {"out_type": _dtypes.int32})), None]


def _apply_parts(x, partitions, n):
  from tfc.framework.op_def_library import _apply_op  # pylint: disable=g-import-not-at-top
  return list(_apply_op("DynamicPartition", None, [x, partitions],
                        {"num_partitions": n}).outputs)


def _stitch_grad(op, grad):
  """Each data input gets the rows of grad at its indices."""
  n = len(op.inputs) // 2
  if getattr(grad, "_tfc_indexed_slices", False):
    rows = _out("StridedSlice", [_out("Shape", [op.outputs[0]], {"out_type": _dtypes.int32}),
                                 _const([0]), _const([1]), _const([1])],
                {"shrink_axis_mask": 1})
    grad = _out("UnsortedSegmentSum", [grad.values, grad.indices, rows])
  return [None] * n + [_out("GatherV2", [grad, op.inputs[i], _const(0)]) for i in range(n)]


RegisterGradient("DynamicStitch")(_stitch_grad)
RegisterGradient("ParallelDynamicStitch")(_stitch_grad)


@RegisterGradient("SparseTensorDenseMatMul")
def _sparse_dense_matmul_grad(op, grad):
  """d/dB = op(A)^T @ grad (as A^T in sparse form); d/da_values[z] = the dot
  product of grad's row i with op(B)'s row k for the nonzero (i, k) of op(A)."""
  a_indices, a_values, a_shape, b = op.inputs
  adj_a = op.get_attr("adjoint_a")
  adj_b = op.get_attr("adjoint_b")
  b_grad = _out("SparseTensorDenseMatMul", [a_indices, a_values, a_shape, grad],
                {"adjoint_a": not adj_a, "adjoint_b": False})
  if adj_b:
    b_grad = _out("Transpose", [b_grad, _const([1, 0])])
  idx = a_indices
  if idx.dtype.base_dtype != _dtypes.int32:
    idx = _out("Cast", [idx], {"DstT": _dtypes.int32})
  rows = _out("StridedSlice", [idx, _const([0, 0]), _const([0, 1]), _const([1, 1])],
              {"begin_mask": 1, "end_mask": 1, "shrink_axis_mask": 2})
  cols = _out("StridedSlice", [idx, _const([0, 1]), _const([0, 2]), _const([1, 1])],
              {"begin_mask": 1, "end_mask": 1, "shrink_axis_mask": 2})
  i_idx, k_idx = (cols, rows) if adj_a else (rows, cols)
  op_b = _out("Transpose", [b, _const([1, 0])]) if adj_b else b
  g_rows = _out("GatherV2", [grad, i_idx, _const(0)])
  b_rows = _out("GatherV2", [op_b, k_idx, _const(0)])
  a_values_grad = _out("Sum", [_out("Mul", [g_rows, b_rows]), _const([1])], {"keep_dims": False})
  return [None, a_values_grad, None, b_grad]
