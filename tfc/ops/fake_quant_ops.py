"""Fake quantization (TF's FakeQuantWithMinMax* ops): float tensors rounded to the
2^num_bits levels of a [min, max] range nudged so that 0.0 is one of them."""
from tfc.framework.op_def_library import _apply_op


def fake_quant_with_min_max_args(inputs, min=-6, max=6, num_bits=8, narrow_range=False,  # pylint: disable=redefined-builtin
                                 name=None):
  """Fake-quantizes the float `inputs` to num_bits levels of [min, max] (attrs)."""
  return _apply_op("FakeQuantWithMinMaxArgs", name, [inputs],
                   {"min": float(min), "max": float(max), "num_bits": num_bits,
                    "narrow_range": narrow_range}).outputs[0]


def fake_quant_with_min_max_args_gradient(gradients, inputs, min=-6, max=6, num_bits=8,  # pylint: disable=redefined-builtin
                                          narrow_range=False, name=None):
  """The gradient of fake_quant_with_min_max_args: `gradients` where `inputs` lies in
  the nudged range, else 0."""
  return _apply_op("FakeQuantWithMinMaxArgsGradient", name, [gradients, inputs],
                   {"min": float(min), "max": float(max), "num_bits": num_bits,
                    "narrow_range": narrow_range}).outputs[0]


def fake_quant_with_min_max_vars(inputs, min, max, num_bits=8, narrow_range=False, name=None):  # pylint: disable=redefined-builtin
  """Fake-quantizes `inputs` with the scalar float tensors min and max."""
  return _apply_op("FakeQuantWithMinMaxVars", name, [inputs, min, max],
                   {"num_bits": num_bits, "narrow_range": narrow_range}).outputs[0]


def fake_quant_with_min_max_vars_gradient(gradients, inputs, min, max, num_bits=8,  # pylint: disable=redefined-builtin
                                          narrow_range=False, name=None):
  """Returns (backprops_wrt_input, backprop_wrt_min, backprop_wrt_max)."""
  return tuple(_apply_op("FakeQuantWithMinMaxVarsGradient", name, [gradients, inputs, min, max],
                         {"num_bits": num_bits, "narrow_range": narrow_range}).outputs)


def fake_quant_with_min_max_vars_per_channel(inputs, min, max, num_bits=8, narrow_range=False,  # pylint: disable=redefined-builtin
                                             name=None):
  """Fake-quantizes `inputs` per channel of its last dimension, with min and max
  vectors of that dimension."""
  return _apply_op("FakeQuantWithMinMaxVarsPerChannel", name, [inputs, min, max],
                   {"num_bits": num_bits, "narrow_range": narrow_range}).outputs[0]


def fake_quant_with_min_max_vars_per_channel_gradient(gradients, inputs, min, max, num_bits=8,  # pylint: disable=redefined-builtin
                                                      narrow_range=False, name=None):
  """Returns (backprops_wrt_input, backprop_wrt_min, backprop_wrt_max), the last two
  vectors of the channel count."""
  return tuple(_apply_op("FakeQuantWithMinMaxVarsPerChannelGradient", name,
                         [gradients, inputs, min, max],
                         {"num_bits": num_bits, "narrow_range": narrow_range}).outputs)
