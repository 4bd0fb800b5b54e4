"""FFT op wrappers: tf.fft / tf.ifft / ... and the real forms tf.signal.rfft /
irfft (1-3D), with TF 1.15's names, signatures and fft_length inference."""
import numpy as np

from tfc import dtypes as _dtypes
from tfc.framework import ops as _ops
from tfc.framework.op_def_library import _apply_op


def _complex_fft(op_type, doc):
  def fn(input, name=None):  # pylint: disable=redefined-builtin
    return _apply_op(op_type, name, [input]).outputs[0]
  fn.__name__ = op_type.lower()
  fn.__doc__ = doc
  return fn


fft = _complex_fft("FFT", "FFT over the innermost dimension of a complex `input`.")
ifft = _complex_fft("IFFT", "Inverse FFT (scaled by 1/n) over the innermost dimension of `input`.")
fft2d = _complex_fft("FFT2D", "2-D FFT over the two innermost dimensions of a complex `input`.")
ifft2d = _complex_fft("IFFT2D", "Inverse 2-D FFT over the two innermost dimensions of `input`.")
fft3d = _complex_fft("FFT3D", "3-D FFT over the three innermost dimensions of a complex `input`.")
ifft3d = _complex_fft("IFFT3D", "Inverse 3-D FFT over the three innermost dimensions of `input`.")


def _static_inner(t, rank):
  """The innermost `rank` dims of t's static shape as ints, None if any is unknown."""
  dims = t.shape.as_list() if t.shape.ndims is not None else None
  if dims is None or len(dims) < rank:
    return None
  inner = dims[-rank:]
  return None if any(d is None for d in inner) else inner


def _dynamic_inner(t, rank):
  """The innermost `rank` dims of t's runtime shape (an int32 vector)."""
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  return array_ops.shape(t)[-rank:]


def _infer_fft_length_for_rfft(t, rank):
  inner = _static_inner(t, rank)
  if inner is not None:
    return _ops.convert_to_tensor(np.array(inner, np.int32), name="fft_length")
  return _dynamic_inner(t, rank)


def _infer_fft_length_for_irfft(t, rank):
  from tfc.ops import array_ops, math_ops  # pylint: disable=g-import-not-at-top
  inner = _static_inner(t, rank)
  if inner is not None:
    inner[-1] = max(0, 2 * (inner[-1] - 1))
    return _ops.convert_to_tensor(np.array(inner, np.int32), name="fft_length")
  shape = _dynamic_inner(t, rank)
  last = math_ops.maximum(0, 2 * (shape[-1] - 1))
  return array_ops.concat([shape[:-1], array_ops.reshape(last, [1])], 0)


def _maybe_pad_for_rfft(x, rank, fft_length, is_reverse=False):
  """Zero-pads the innermost `rank` dims of x up to fft_length (for an inverse
  transform the innermost one to fft_length/2+1): the kernels only crop."""
  from tfc.framework import tensor_util  # pylint: disable=g-import-not-at-top
  from tfc.ops import array_ops, math_ops  # pylint: disable=g-import-not-at-top
  fl = tensor_util.constant_value(fft_length)
  dims = x.shape.as_list() if x.shape.ndims is not None else None
  if fl is not None and dims is not None and None not in dims[-rank:]:
    want = [int(v) for v in np.asarray(fl).reshape(-1)]
    if is_reverse:
      want[-1] = want[-1] // 2 + 1
    pads = [max(0, w - d) for w, d in zip(want, dims[-rank:])]
    if not any(pads):
      return x
    return array_ops.pad(x, [[0, 0]] * (len(dims) - rank) + [[0, p] for p in pads])
  want = fft_length
  if is_reverse:
    want = array_ops.concat([fft_length[:-1], fft_length[-1:] // 2 + 1], 0)
  amount = math_ops.maximum(0, want - array_ops.shape(x)[-rank:])
  paddings = array_ops.concat([
      array_ops.zeros(array_ops.stack([array_ops.rank(x) - rank, 2]), _dtypes.int32),
      array_ops.stack([array_ops.zeros_like(amount), amount], axis=1)], 0)
  return array_ops.pad(x, paddings)


def _rfft_wrapper(op_type, rank, default_name):
  def fn(input_tensor, fft_length=None, name=None):
    with _ops.name_scope(name, default_name, [input_tensor, fft_length]) as name:
      x = _ops.convert_to_tensor(input_tensor, name="input_tensor",
                                 preferred_dtype=_dtypes.float32)
      if x.dtype.base_dtype not in (_dtypes.float32, _dtypes.float64):
        raise ValueError("RFFT requires tf.float32 or tf.float64 inputs, got: %s" % x)
      if x.shape.ndims is not None and x.shape.ndims < rank:
        raise ValueError("Shape %s must have rank at least %d" % (x.shape, rank))
      complex_dtype = _dtypes.complex64 if x.dtype.base_dtype == _dtypes.float32 \
          else _dtypes.complex128
      if fft_length is None:
        fft_length = _infer_fft_length_for_rfft(x, rank)
      else:
        fft_length = _ops.convert_to_tensor(fft_length, _dtypes.int32, name="fft_length")
      x = _maybe_pad_for_rfft(x, rank, fft_length)
      return _apply_op(op_type, name, [x, fft_length], {"Tcomplex": complex_dtype}).outputs[0]
  fn.__name__ = default_name
  fn.__doc__ = ("%d-D FFT of a real tensor over its %d innermost dimensions: along each the\n"
                "input is cropped or zero-padded to `fft_length` (default: the input's sizes);\n"
                "the innermost dimension of the result keeps the fft_length/2+1 non-negative\n"
                "frequencies." % (rank, rank))
  return fn


def _irfft_wrapper(op_type, rank, default_name):
  def fn(input_tensor, fft_length=None, name=None):
    with _ops.name_scope(name, default_name, [input_tensor, fft_length]) as name:
      x = _ops.convert_to_tensor(input_tensor, name="input_tensor",
                                 preferred_dtype=_dtypes.complex64)
      if x.dtype.base_dtype not in (_dtypes.complex64, _dtypes.complex128):
        raise ValueError("IRFFT requires tf.complex64 or tf.complex128 inputs, got: %s" % x)
      if x.shape.ndims is not None and x.shape.ndims < rank:
        raise ValueError("Shape %s must have rank at least %d" % (x.shape, rank))
      real_dtype = x.dtype.real_dtype
      if fft_length is None:
        fft_length = _infer_fft_length_for_irfft(x, rank)
      else:
        fft_length = _ops.convert_to_tensor(fft_length, _dtypes.int32, name="fft_length")
      x = _maybe_pad_for_rfft(x, rank, fft_length, is_reverse=True)
      return _apply_op(op_type, name, [x, fft_length], {"Treal": real_dtype}).outputs[0]
  fn.__name__ = default_name
  fn.__doc__ = ("Inverse of rfft%s: a real signal of `fft_length` (default 2*(n-1) along\n"
                "the innermost dimension) from the non-negative half of its %d-D spectrum.\n"
                % ("" if rank == 1 else "%dd" % rank, rank))
  return fn


rfft = _rfft_wrapper("RFFT", 1, "rfft")
irfft = _irfft_wrapper("IRFFT", 1, "irfft")
rfft2d = _rfft_wrapper("RFFT2D", 2, "rfft2d")
irfft2d = _irfft_wrapper("IRFFT2D", 2, "irfft2d")
rfft3d = _rfft_wrapper("RFFT3D", 3, "rfft3d")
irfft3d = _irfft_wrapper("IRFFT3D", 3, "irfft3d")
