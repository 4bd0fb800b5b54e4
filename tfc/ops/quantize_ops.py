"""Quantization to the quantized dtypes (TF's QuantizeV2 / Dequantize):
tf.quantization.quantize / dequantize, tf.quantize, tf.quantize_v2, tf.dequantize."""
import collections as _collections

from tfc import dtypes as _dtypes
from tfc.framework.op_def_library import _apply_op

_QuantizeV2Output = _collections.namedtuple("QuantizeV2", ["output", "output_min", "output_max"])


def quantize_v2(input, min_range, max_range, T, mode="MIN_COMBINED", name=None,  # pylint: disable=redefined-builtin,invalid-name
                round_mode="HALF_AWAY_FROM_ZERO", narrow_range=False, axis=None,
                ensure_minimum_range=0.01):
  """Quantizes the float `input` to the quantized type T (QuantizeV2).

  The range [min_range, max_range] (scalars, or vectors along `axis`) is first
  widened to contain 0.0; mode "MIN_COMBINED", "MIN_FIRST" or "SCALED" maps it to
  T's values; round_mode "HALF_AWAY_FROM_ZERO" or "HALF_TO_EVEN" (SCALED only).

  Returns:
    A namedtuple (output, output_min, output_max): the quantized tensor and the
    range its values stand for.
  """
  attrs = {"T": _dtypes.as_dtype(T), "mode": mode, "round_mode": round_mode,
           "narrow_range": narrow_range, "axis": -1 if axis is None else axis,
           "ensure_minimum_range": ensure_minimum_range}
  return _QuantizeV2Output(*_apply_op("QuantizeV2", name, [input, min_range, max_range],
                                      attrs).outputs)


def quantize(input, min_range, max_range, T, mode="MIN_COMBINED",  # pylint: disable=redefined-builtin,invalid-name
             round_mode="HALF_AWAY_FROM_ZERO", name=None, narrow_range=False, axis=None,
             ensure_minimum_range=0.01):
  """tf.quantization.quantize: quantize_v2 with TF 1.15's argument order."""
  return quantize_v2(input, min_range, max_range, T, mode=mode, name=name,
                     round_mode=round_mode, narrow_range=narrow_range, axis=axis,
                     ensure_minimum_range=ensure_minimum_range)


def dequantize(input, min_range, max_range, mode="MIN_COMBINED", name=None, axis=None,  # pylint: disable=redefined-builtin
               narrow_range=False, dtype=_dtypes.float32):
  """Maps the quantized `input` back to `dtype` (float32 or bfloat16) with the range
  [min_range, max_range] and the mode it was quantized with (Dequantize)."""
  attrs = {"mode": mode, "narrow_range": narrow_range, "axis": -1 if axis is None else axis,
           "dtype": _dtypes.as_dtype(dtype)}
  return _apply_op("Dequantize", name, [input, min_range, max_range], attrs).outputs[0]


def quantize_and_dequantize(input, input_min, input_max, signed_input=True, num_bits=8,  # pylint: disable=redefined-builtin
                            range_given=False, round_mode="HALF_TO_EVEN", name=None,
                            narrow_range=False, axis=None):
  """Rounds the float `input` to the num_bits integer grid of its range and maps it
  back (TF's QuantizeAndDequantizeV2); the range is the data's min/max unless
  range_given (then [input_min, input_max], clamped to); per slice of `axis`.
  round_mode "HALF_TO_EVEN" or "HALF_UP". The gradient passes straight through."""
  if axis is None:
    axis = -1
  elif axis < 0:
    from tfc.framework import ops as _ops  # pylint: disable=g-import-not-at-top
    input = _ops.convert_to_tensor(input)
    if input.shape.ndims is None:
      raise ValueError("input should have known rank to use negative axis.")
    axis %= input.shape.ndims
  return _apply_op("QuantizeAndDequantizeV2", name, [input, input_min, input_max],
                   {"signed_input": signed_input, "num_bits": num_bits,
                    "range_given": range_given, "round_mode": round_mode,
                    "narrow_range": narrow_range, "axis": axis}).outputs[0]


def quantized_concat(concat_dim, values, input_mins, input_maxes, name=None):
  """Concatenates quantized tensors along concat_dim (TF's QuantizedConcat) into the
  union of their ranges (containing 0; symmetric for signed types), requantizing
  inputs whose range differs.

  Returns:
    (output, output_min, output_max).
  """
  op = _apply_op("QuantizedConcat", name,
                 [concat_dim, list(values), list(input_mins), list(input_maxes)], {})
  return tuple(op.outputs)
