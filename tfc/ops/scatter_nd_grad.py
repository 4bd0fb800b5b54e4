"""Gradients of GatherNd, ScatterNd and TensorScatter*, as TensorFlow defines them."""
from tfc import dtypes as _dtypes
from tfc.ops.gradient_registry import RegisterGradient
from tfc.ops.math_grad import _out


@RegisterGradient("GatherNd")
def _gather_nd_grad(op, grad):
  from tfc.ops import array_ops, scatter_nd_ops  # pylint: disable=g-import-not-at-top
  params, indices = op.inputs
  shape = array_ops.shape(params, out_type=indices.dtype)
  return [scatter_nd_ops.scatter_nd(indices, grad, shape), None]


@RegisterGradient("ScatterNd")
def _scatter_nd_grad(op, grad):
  from tfc.ops import scatter_nd_ops  # pylint: disable=g-import-not-at-top
  return [None, scatter_nd_ops.gather_nd(grad, op.inputs[0]), None]


@RegisterGradient("TensorScatterUpdate")
def _tensor_scatter_update_grad(op, grad):
  from tfc.ops import array_ops, scatter_nd_ops  # pylint: disable=g-import-not-at-top
  indices, updates = op.inputs[1], op.inputs[2]
  tensor_grad = scatter_nd_ops.tensor_scatter_nd_update(grad, indices,
                                                        array_ops.zeros_like(updates))
  return [tensor_grad, None, scatter_nd_ops.gather_nd(grad, indices)]


@RegisterGradient("TensorScatterAdd")
def _tensor_scatter_add_grad(op, grad):
  from tfc.ops import scatter_nd_ops  # pylint: disable=g-import-not-at-top
  return [grad, None, scatter_nd_ops.gather_nd(grad, op.inputs[1])]


@RegisterGradient("TensorScatterSub")
def _tensor_scatter_sub_grad(op, grad):
  from tfc.ops import scatter_nd_ops  # pylint: disable=g-import-not-at-top
  return [grad, None, _out("Neg", [scatter_nd_ops.gather_nd(grad, op.inputs[1])])]


def _tensor_scatter_min_or_max_grad(op, grad):
  """The gradient goes to whichever of tensor and updates gave the output,
  split equally between ties."""
  from tfc.ops import array_ops, math_ops, scatter_nd_ops  # pylint: disable=g-import-not-at-top
  x, indices, updates = op.inputs
  output = op.outputs[0]
  x_ind = math_ops.cast(math_ops.equal(x, output), grad.dtype)
  y_out = scatter_nd_ops.gather_nd(output, indices)
  y_ind = math_ops.cast(math_ops.equal(updates, y_out), grad.dtype)
  ys_ind = scatter_nd_ops.scatter_nd(indices, y_ind,
                                     array_ops.shape(x, out_type=indices.dtype))
  ind = x_ind + ys_ind
  x_grad = grad * x_ind / ind
  y_grad = scatter_nd_ops.gather_nd(grad / ind, indices) * y_ind
  return [x_grad, None, y_grad]


RegisterGradient("TensorScatterMin")(_tensor_scatter_min_or_max_grad)
RegisterGradient("TensorScatterMax")(_tensor_scatter_min_or_max_grad)
del _dtypes
