"""Gradients of Cumsum, Cumprod, CumulativeLogsumexp, Roll and TopKV2, as
TF 1.15 defines them."""
from tfc.framework import constant_op as _constant_op
from tfc.ops.gradient_registry import RegisterGradient
from tfc.ops.math_grad import _out


@RegisterGradient("Cumsum")
def _cumsum_grad(op, grad):
  from tfc.ops import scan_ops  # pylint: disable=g-import-not-at-top
  axis = op.inputs[1]
  return [scan_ops.cumsum(grad, axis, exclusive=op.get_attr("exclusive"),
                          reverse=not op.get_attr("reverse")), None]


@RegisterGradient("Cumprod")
def _cumprod_grad(op, grad):
  """(sum over later outputs of grad * output) / x; x must not hold zeros (as in TF)."""
  from tfc.ops import scan_ops  # pylint: disable=g-import-not-at-top
  x, axis = op.inputs
  exclusive, reverse = op.get_attr("exclusive"), op.get_attr("reverse")
  prod = scan_ops.cumprod(x, axis, exclusive=exclusive, reverse=reverse)
  out = scan_ops.cumsum(_out("Mul", [prod, grad]), axis, exclusive=exclusive,
                        reverse=not reverse)
  return [_out("RealDiv", [out, x]), None]


@RegisterGradient("CumulativeLogsumexp")
def _cumulative_logsumexp_grad(op, grad):
  from tfc.ops import array_ops, math_ops, scan_ops  # pylint: disable=g-import-not-at-top
  x, axis = op.inputs
  output = op.outputs[0]
  exclusive, reverse = op.get_attr("exclusive"), op.get_attr("reverse")
  neg_inf = array_ops.fill(array_ops.shape(grad),
                           _constant_op.constant(float("-inf"), dtype=grad.dtype.base_dtype))
  zeros = array_ops.zeros_like(grad)
  log_grad_positive = array_ops.where_v2(math_ops.greater(grad, zeros),
                                         math_ops.log(math_ops.maximum(grad, zeros)), neg_inf)
  log_grad_negative = array_ops.where_v2(math_ops.less(grad, zeros),
                                         math_ops.log(math_ops.maximum(-grad, zeros)), neg_inf)
  output_pos = math_ops.exp(scan_ops.cumulative_logsumexp(
      log_grad_positive - output, axis, exclusive=exclusive, reverse=not reverse) + x)
  output_neg = math_ops.exp(scan_ops.cumulative_logsumexp(
      log_grad_negative - output, axis, exclusive=exclusive, reverse=not reverse) + x)
  return [output_pos - output_neg, None]


@RegisterGradient("Roll")
def _roll_grad(op, grad):
  from tfc.ops import scan_ops  # pylint: disable=g-import-not-at-top
  shift, axis = op.inputs[1], op.inputs[2]
  return [scan_ops.roll(grad, _out("Neg", [shift]), axis), None, None]


@RegisterGradient("TopKV2")
def _top_k_grad(op, grad, _):
  """Each value's gradient goes back to the input position it came from."""
  from tfc import dtypes  # pylint: disable=g-import-not-at-top
  from tfc.ops import array_ops, math_ops, scatter_nd_ops  # pylint: disable=g-import-not-at-top
  x, idx = op.inputs[0], op.outputs[1]
  in_shape = array_ops.shape(x, out_type=dtypes.int64)
  n = in_shape[-1]
  k = array_ops.shape(idx, out_type=dtypes.int64)[-1]
  idx_2d = array_ops.reshape(math_ops.cast(idx, dtypes.int64), array_ops.stack([-1, k]))
  rows = array_ops.shape(idx_2d, out_type=dtypes.int64)[0]
  flat = idx_2d + array_ops.expand_dims(math_ops.range(0, rows * n, n, dtype=dtypes.int64), -1)
  total = math_ops.reduce_prod(in_shape)
  dense = scatter_nd_ops.scatter_nd(array_ops.reshape(flat, [-1, 1]),
                                    array_ops.reshape(grad, [-1]), array_ops.reshape(total, [1]))
  return [array_ops.reshape(dense, in_shape), None]
