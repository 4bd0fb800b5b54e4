"""Gradients of the 3-D convolution and pooling ops, as TF defines them."""
from tfc.framework.op_def_library import _apply_op
from tfc.ops.gradient_registry import RegisterGradient
from tfc.ops.math_grad import _out, _shape

_CONV = ("strides", "padding", "data_format", "dilations")
_POOL = ("ksize", "strides", "padding", "data_format")


def _attrs(op, names):
  return {n: op.get_attr(n) for n in names}


@RegisterGradient("Conv3D")
def _conv3d_grad(op, grad):
  x, w = op.inputs
  sx, sw = _apply_op("ShapeN", None, [[x, w]]).outputs
  attrs = _attrs(op, _CONV)
  return [_out("Conv3DBackpropInputV2", [sx, w, grad], attrs),
          _out("Conv3DBackpropFilterV2", [x, sw, grad], attrs)]


@RegisterGradient("Conv3DBackpropInputV2")
def _conv3d_backprop_input_grad(op, grad):
  w, dy = op.inputs[1], op.inputs[2]
  attrs = _attrs(op, _CONV)
  return [None, _out("Conv3DBackpropFilterV2", [grad, _shape(w), dy], attrs),
          _out("Conv3D", [grad, w], attrs)]


@RegisterGradient("Conv3DBackpropFilterV2")
def _conv3d_backprop_filter_grad(op, grad):
  x, dy = op.inputs[0], op.inputs[2]
  attrs = _attrs(op, _CONV)
  return [_out("Conv3DBackpropInputV2", [_shape(x), grad, dy], attrs), None,
          _out("Conv3D", [x, grad], attrs)]


@RegisterGradient("AvgPool3D")
def _avg_pool3d_grad(op, grad):
  return _out("AvgPool3DGrad", [_shape(op.inputs[0]), grad], _attrs(op, _POOL))


@RegisterGradient("AvgPool3DGrad")
def _avg_pool3d_grad_grad(op, grad):
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  return [array_ops.stop_gradient(op.inputs[0]), _out("AvgPool3D", [grad], _attrs(op, _POOL))]


@RegisterGradient("MaxPool3D")
def _max_pool3d_grad(op, grad):
  return _out("MaxPool3DGrad", [op.inputs[0], op.outputs[0], grad], _attrs(op, _POOL))


@RegisterGradient("MaxPool3DGrad")
def _max_pool3d_grad_grad(op, grad):
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  return [array_ops.zeros_like(op.inputs[0]), array_ops.zeros_like(op.inputs[1]),
          _out("MaxPool3DGradGrad", [op.inputs[0], op.inputs[1], grad], _attrs(op, _POOL))]


@RegisterGradient("MaxPool3DGradGrad")
def _max_pool3d_grad_grad_grad(op, grad):
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  return [array_ops.zeros_like(op.inputs[0]), array_ops.zeros_like(op.inputs[1]),
          _out("MaxPool3DGrad", [op.inputs[0], op.inputs[1], grad], _attrs(op, _POOL))]
