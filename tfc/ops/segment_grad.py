"""Gradients of UnsortedSegmentMax / Min / Prod, as TF 1.15 defines them: the
gradient of a max or min goes to the rows equal to their segment's result,
shared equally between ties; a product's goes to every row as the product of
the others (rows of a segment with two or more zeros get 0)."""
from tfc import dtypes as _dtypes
from tfc.ops.gradient_registry import RegisterGradient
from tfc.ops.math_grad import _out


def _gather_drop_negatives(params, ids, zero_clipped_indices=None, is_positive=None):
  """params gathered at max(ids, 0), with zeros where the id is negative."""
  from tfc.ops import array_ops, math_ops  # pylint: disable=g-import-not-at-top
  if zero_clipped_indices is None:
    zero_clipped_indices = math_ops.maximum(ids, array_ops.zeros_like(ids))
  gathered = array_ops.gather(params, zero_clipped_indices)
  if is_positive is None:
    is_positive = math_ops.greater_equal(ids, 0)
    extra = array_ops.rank(gathered) - array_ops.rank(is_positive)
    shape = array_ops.concat([array_ops.shape(is_positive),
                              array_ops.ones(array_ops.reshape(extra, [1]), _dtypes.int32)], 0)
    is_positive = array_ops.reshape(is_positive, shape)
    is_positive = math_ops.logical_and(is_positive,
                                       array_ops.ones_like(gathered, dtype=_dtypes.bool))
  return (array_ops.where_v2(is_positive, gathered, array_ops.zeros_like(gathered)),
          zero_clipped_indices, is_positive)


def _min_or_max_grad(op, grad):
  from tfc.ops import array_ops, math_ops  # pylint: disable=g-import-not-at-top
  data, ids, num = op.inputs
  gathered_outputs, zero_clipped, is_positive = _gather_drop_negatives(op.outputs[0], ids)
  is_selected = math_ops.logical_and(math_ops.equal(data, gathered_outputs), is_positive)
  num_selected = math_ops.unsorted_segment_sum(math_ops.cast(is_selected, grad.dtype), ids, num)
  weighted = _out("RealDiv", [grad, num_selected])
  gathered_grads, _, _ = _gather_drop_negatives(weighted, None, zero_clipped, is_positive)
  return [array_ops.where_v2(is_selected, gathered_grads, array_ops.zeros_like(gathered_grads)),
          None, None]


RegisterGradient("UnsortedSegmentMax")(_min_or_max_grad)
RegisterGradient("UnsortedSegmentMin")(_min_or_max_grad)


@RegisterGradient("UnsortedSegmentProd")
def _unsorted_segment_prod_grad(op, grad):
  from tfc.ops import array_ops, math_ops  # pylint: disable=g-import-not-at-top
  from tfc.ops import segment_ops  # pylint: disable=g-import-not-at-top
  data, ids, num = op.inputs
  is_zero = math_ops.equal(data, array_ops.zeros_like(data))
  num_zeros = math_ops.unsorted_segment_sum(math_ops.cast(is_zero, _dtypes.int32), ids, num)
  grad = array_ops.where_v2(math_ops.greater(num_zeros, 1), array_ops.zeros_like(grad), grad)
  non_zero_data = array_ops.where_v2(is_zero, array_ops.ones_like(data), data)
  non_zero_prod = segment_ops.unsorted_segment_prod(non_zero_data, ids, num)
  zero_clipped = math_ops.maximum(ids, array_ops.zeros_like(ids))
  gathered_prod = array_ops.gather(op.outputs[0], zero_clipped)
  gathered_non_zero_prod = array_ops.gather(non_zero_prod, zero_clipped)
  prod_divided_by_el = _out("RealDiv", [gathered_prod, non_zero_data])
  partial = array_ops.where_v2(is_zero, gathered_non_zero_prod, prod_divided_by_el)
  gathered_grad, _, _ = _gather_drop_negatives(grad, ids, zero_clipped)
  return [math_ops.multiply(gathered_grad, partial), None, None]
