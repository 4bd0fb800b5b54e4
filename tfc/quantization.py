"""tf.quantization: fake quantization, quantize and dequantize (TF 1.15's names)."""
from tfc.ops.fake_quant_ops import (  # noqa: F401
    fake_quant_with_min_max_args, fake_quant_with_min_max_args_gradient,
    fake_quant_with_min_max_vars, fake_quant_with_min_max_vars_gradient,
    fake_quant_with_min_max_vars_per_channel, fake_quant_with_min_max_vars_per_channel_gradient)
from tfc.ops.quantize_ops import (dequantize, quantize, quantize_and_dequantize,  # noqa: F401
                                  quantized_concat)
