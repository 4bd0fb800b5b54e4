"""Gradient functions of the fake-quantization ops (TF's array_grad.py ones): the
incoming gradient passes where the input lies in the nudged range; the Vars ops
also give min/max the gradient summed below / above it. QuantizeAndDequantizeV2/V3
pass the gradient straight through to the input."""
from tfc.framework.op_def_library import _apply_op
from tfc.ops.gradient_registry import RegisterGradient, NoGradient


def _attrs(op, names):
  return {n: op.get_attr(n) for n in names}


@RegisterGradient("FakeQuantWithMinMaxArgs")
def _fake_quant_args_grad(op, grad):
  attrs = _attrs(op, ("min", "max", "num_bits", "narrow_range"))
  return _apply_op("FakeQuantWithMinMaxArgsGradient", None, [grad, op.inputs[0]],
                   attrs).outputs[0]


@RegisterGradient("FakeQuantWithMinMaxVars")
def _fake_quant_vars_grad(op, grad):
  attrs = _attrs(op, ("num_bits", "narrow_range"))
  return list(_apply_op("FakeQuantWithMinMaxVarsGradient", None,
                        [grad, op.inputs[0], op.inputs[1], op.inputs[2]], attrs).outputs)


@RegisterGradient("FakeQuantWithMinMaxVarsPerChannel")
def _fake_quant_per_channel_grad(op, grad):
  attrs = _attrs(op, ("num_bits", "narrow_range"))
  return list(_apply_op("FakeQuantWithMinMaxVarsPerChannelGradient", None,
                        [grad, op.inputs[0], op.inputs[1], op.inputs[2]], attrs).outputs)


@RegisterGradient("QuantizeAndDequantizeV2")
def _quantize_and_dequantize_v2_grad(unused_op, grad):
  return [grad, None, None]


@RegisterGradient("QuantizeAndDequantizeV3")
def _quantize_and_dequantize_v3_grad(unused_op, grad):
  return [grad, None, None, None]


for _t in ("FakeQuantWithMinMaxArgsGradient", "FakeQuantWithMinMaxVarsGradient",
           "FakeQuantWithMinMaxVarsPerChannelGradient", "EditDistance"):
  NoGradient(_t)
