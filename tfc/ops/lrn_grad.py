"""Gradient of LRN: the LRNGrad kernel, with the forward op's attrs."""
from tfc.ops.gradient_registry import RegisterGradient
from tfc.ops.math_grad import _out


@RegisterGradient("LRN")
def _lrn_grad(op, grad):
  attrs = {k: op.get_attr(k) for k in ("depth_radius", "bias", "alpha", "beta")}
  return [_out("LRNGrad", [grad, op.inputs[0], op.outputs[0]], attrs)]
