"""tf.signal building blocks made of existing ops: framing and overlap-add,
window functions, the short-time Fourier transform and its inverse, DCT /
IDCT (types 1-4), MDCT / inverse MDCT, mel filterbanks and MFCCs, and
fftshift / ifftshift. TF 1.15's (and, for the later additions, TF 2's)
names, signatures, defaults and errors."""
import math as _math

import numpy as np

from tfc import dtypes as _dtypes
from tfc.framework import ops as _ops
from tfc.framework import tensor_util as _tensor_util
from tfc.ops import array_ops as _array_ops
from tfc.ops import math_ops as _math_ops
from tfc.ops import spectral_ops as _fft_ops


def _static_int(t):
  """t's value as a Python int when known at graph-construction time, else None."""
  v = _tensor_util.constant_value(t) if isinstance(t, _ops.Tensor) else t
  if v is None:
    return None
  try:
    return int(np.asarray(v).reshape(()))
  except (TypeError, ValueError):
    return None


# -- framing ---------------------------------------------------------------------------

def frame(signal, frame_length, frame_step, pad_end=False, pad_value=0, axis=-1, name=None):
  """Expands `axis` of `signal` into frames of `frame_length` samples taken every
  `frame_step` samples: that axis becomes [num_frames, frame_length]. Without
  `pad_end`, frames that would run past the end are dropped; with it, the
  signal is padded with `pad_value` so that every sample starts a frame."""
  with _ops.name_scope(name, "frame", [signal, frame_length, frame_step, pad_value]):
    signal = _ops.convert_to_tensor(signal, name="signal")
    frame_length = _ops.convert_to_tensor(frame_length, name="frame_length")
    frame_step = _ops.convert_to_tensor(frame_step, name="frame_step")
    axis = _ops.convert_to_tensor(axis, name="axis")
    if signal.shape.ndims is not None and signal.shape.ndims < 1:
      raise ValueError("Shape %s must have rank at least 1" % signal.shape)
    for t, what in ((frame_length, "frame_length"), (frame_step, "frame_step"), (axis, "axis")):
      if t.shape.ndims is not None and t.shape.ndims != 0:
        raise ValueError("Shape %s must have rank 0 (%s)" % (t.shape, what))
    rank = signal.shape.ndims
    ax = _static_int(axis)
    if rank is None or ax is None:
      raise ValueError("frame needs a signal of known rank and a constant axis")
    if ax < 0:
      ax += rank
    length = _array_ops.shape(signal)[ax]
    if pad_end:
      num_frames = -(-length // frame_step)
      pad = _math_ops.maximum(0, frame_length + frame_step * (num_frames - 1) - length)
      paddings = _array_ops.concat([_array_ops.zeros([ax, 2], _dtypes.int32),
                                    _array_ops.reshape(_array_ops.stack([0, pad]), [1, 2]),
                                    _array_ops.zeros([rank - ax - 1, 2], _dtypes.int32)], 0)
      signal = _array_ops.pad(signal, paddings, constant_values=pad_value)
    else:
      num_frames = _math_ops.maximum(0, 1 + (length - frame_length) // frame_step)
    starts = _math_ops.range(num_frames) * frame_step
    indices = _array_ops.expand_dims(starts, 1) + _array_ops.expand_dims(
        _math_ops.range(frame_length), 0)
    return _array_ops.gather(signal, indices, axis=ax)


def overlap_and_add(signal, frame_step, name=None):
  """Sums the frames of `signal` ([..., frames, frame_length]) placed every
  `frame_step` samples: [..., (frames - 1) * frame_step + frame_length]."""
  with _ops.name_scope(name, "overlap_and_add", [signal, frame_step]):
    signal = _ops.convert_to_tensor(signal, name="signal")
    if signal.shape.ndims is not None and signal.shape.ndims < 2:
      raise ValueError("Shape %s must have rank at least 2" % signal.shape)
    frame_step = _ops.convert_to_tensor(frame_step, name="frame_step")
    if frame_step.shape.ndims is not None and frame_step.shape.ndims != 0:
      raise ValueError("Shape %s must have rank 0" % frame_step.shape)
    if not frame_step.dtype.is_integer:
      raise ValueError("frame_step must be an integer. Got %s" % frame_step.dtype)
    shape = _array_ops.shape(signal)
    outer = shape[:-2]
    outer_rank = _array_ops.size(outer)
    frame_length, frames = shape[-1], shape[-2]
    out_len = frame_length + frame_step * (frames - 1)

    def full(inner):
      return _array_ops.concat([outer, inner], 0)

    step = _static_int(frame_step)
    dims = signal.shape.as_list() if signal.shape.ndims is not None else None
    if step is not None and dims is not None and dims[-1] == step:
      return _array_ops.reshape(signal, full(_array_ops.reshape(out_len, [1])))
    # Cut each frame into `seg` pieces of frame_step samples (zero-padded);
    # piece j of frame f lands at output block f + j. Laying the frames out
    # with `seg` extra zero frames and reading the pieces with a stride of
    # one block less than a row gathers, for each j, the pieces that belong
    # to every output block; a sum over j finishes the overlap-add.
    seg = -(-frame_length // frame_step)
    paddings = _array_ops.concat([_array_ops.zeros([outer_rank, 2], _dtypes.int32),
                                  _array_ops.reshape(_array_ops.stack(
                                      [0, seg, 0, seg * frame_step - frame_length]), [2, 2])], 0)
    x = _array_ops.pad(signal, paddings)
    x = _array_ops.reshape(x, full(_array_ops.stack([frames + seg, seg, frame_step])))
    perm = _array_ops.concat([_math_ops.range(outer_rank), outer_rank + _ops.convert_to_tensor(
        np.array([1, 0, 2], np.int32))], 0)
    x = _array_ops.transpose(x, perm)
    x = _array_ops.reshape(x, full(_array_ops.stack([(frames + seg) * seg, frame_step])))
    x = x[..., :(frames + seg - 1) * seg, :]
    x = _array_ops.reshape(x, full(_array_ops.stack([seg, frames + seg - 1, frame_step])))
    x = _math_ops.reduce_sum(x, -3)
    x = _array_ops.reshape(x, full(_array_ops.reshape((frames + seg - 1) * frame_step, [1])))
    return x[..., :out_len]


# -- windows ---------------------------------------------------------------------------

def _check_window_params(window_length, dtype):
  if not dtype.is_floating:
    raise ValueError("dtype must be a floating point type. Found %s" % dtype)
  window_length = _ops.convert_to_tensor(window_length, dtype=_dtypes.int32)
  if window_length.shape.ndims is not None and window_length.shape.ndims != 0:
    raise ValueError("Shape %s must have rank 0" % window_length.shape)
  return window_length


def _raised_cosine_window(name, default_name, window_length, periodic, dtype, a, b):
  with _ops.name_scope(name, default_name, [window_length, periodic]):
    dtype = _dtypes.as_dtype(dtype)
    window_length = _check_window_params(window_length, dtype)
    if _static_int(window_length) == 1:
      return _array_ops.ones([1], dtype=dtype)
    periodic = _math_ops.cast(_ops.convert_to_tensor(periodic, dtype=_dtypes.bool), _dtypes.int32)
    even = 1 - window_length % 2
    n = _math_ops.cast(window_length + periodic * even - 1, dtype=dtype)
    count = _math_ops.cast(_math_ops.range(window_length), dtype)
    cos_arg = _ops.convert_to_tensor(2 * np.pi, dtype=dtype) * count / n
    return _math_ops.cast(a - b * _math_ops.cos(cos_arg), dtype=dtype)


def hann_window(window_length, periodic=True, dtype=_dtypes.float32, name=None):
  """Hann window 0.5 - 0.5 cos(2 pi n / N) (N = length, or length - 1 unless periodic)."""
  return _raised_cosine_window(name, "hann_window", window_length, periodic, dtype, 0.5, 0.5)


def hamming_window(window_length, periodic=True, dtype=_dtypes.float32, name=None):
  """Hamming window 0.54 - 0.46 cos(2 pi n / N) (N as in hann_window)."""
  return _raised_cosine_window(name, "hamming_window", window_length, periodic, dtype, 0.54, 0.46)


def kaiser_window(window_length, beta=12., dtype=_dtypes.float32, name=None):
  """Kaiser window I0(beta sqrt(1 - (2n/(L-1) - 1)^2)) / I0(beta)."""
  from tfc.ops import special_math_ops  # pylint: disable=g-import-not-at-top
  with _ops.name_scope(name, "kaiser_window"):
    dtype = _dtypes.as_dtype(dtype)
    window_length = _check_window_params(window_length, dtype)
    if _static_int(window_length) == 1:
      return _array_ops.ones([1], dtype=dtype)
    half = (_math_ops.cast(window_length, _dtypes.float32) - 1.0) / 2.0
    arg = _math_ops.cast(_math_ops.range(-half, half + 0.1, dtype=_dtypes.float32), dtype)
    beta = _math_ops.cast(beta, dtype)
    half = _math_ops.cast(half, dtype)
    one = _math_ops.cast(1.0, dtype)
    num = beta * _math_ops.sqrt(one - _math_ops.square(arg) / _math_ops.square(half))
    return _math_ops.exp(num - beta) * (special_math_ops.bessel_i0e(num) /
                                         special_math_ops.bessel_i0e(beta))


def kaiser_bessel_derived_window(window_length, beta=12., dtype=_dtypes.float32, name=None):
  """Kaiser-Bessel-derived window (for MDCTs): square roots of the normalised
  running sums of a Kaiser window of half the length, mirrored."""
  from tfc.ops import scan_ops  # pylint: disable=g-import-not-at-top
  with _ops.name_scope(name, "kaiser_bessel_derived_window"):
    dtype = _dtypes.as_dtype(dtype)
    window_length = _check_window_params(window_length, dtype)
    halflen = window_length // 2
    kw = kaiser_window(halflen + 1, beta, dtype=dtype)
    csum = scan_ops.cumsum(kw)
    halfw = _math_ops.sqrt(csum[:-1] / csum[-1])
    return _array_ops.concat((halfw, _array_ops.reverse(halfw, [0])), axis=0)


def vorbis_window(window_length, dtype=_dtypes.float32, name=None):
  """Vorbis power-complementary window sin(pi/2 sin^2(pi (n + 0.5) / L))."""
  with _ops.name_scope(name, "vorbis_window"):
    dtype = _dtypes.as_dtype(dtype)
    window_length = _check_window_params(window_length, dtype)
    arg = _math_ops.cast(_math_ops.range(window_length), dtype)
    inner = _math_ops.sin(_ops.convert_to_tensor(np.pi, dtype=dtype) /
                          _math_ops.cast(window_length, dtype) * (arg + 0.5))
    return _math_ops.sin(_ops.convert_to_tensor(np.pi / 2.0, dtype=dtype) * _math_ops.square(inner))


# -- STFT ------------------------------------------------------------------------------

def _enclosing_power_of_two(value):
  v = _static_int(value)
  if v is not None:
    return _ops.convert_to_tensor(int(2 ** np.ceil(np.log2(v))), dtype=_dtypes.int32)
  value = _math_ops.cast(value, _dtypes.float32)
  return _math_ops.cast(_math_ops.pow(2.0, _math_ops.ceil(
      _math_ops.log(value) / np.log(2.0))), _dtypes.int32)


def _as_scalar_int(t, name):
  t = _ops.convert_to_tensor(t, name=name)
  if t.shape.ndims is not None and t.shape.ndims != 0:
    raise ValueError("Shape %s must have rank 0" % t.shape)
  return t


def stft(signals, frame_length, frame_step, fft_length=None, window_fn=hann_window,
         pad_end=False, name=None):
  """Short-time Fourier transform of real `signals` [..., samples]:
  [..., frames, fft_length // 2 + 1] complex (fft_length defaults to the
  smallest power of two >= frame_length)."""
  with _ops.name_scope(name, "stft", [signals, frame_length, frame_step]):
    signals = _ops.convert_to_tensor(signals, name="signals")
    if signals.shape.ndims is not None and signals.shape.ndims < 1:
      raise ValueError("Shape %s must have rank at least 1" % signals.shape)
    frame_length = _as_scalar_int(frame_length, "frame_length")
    frame_step = _as_scalar_int(frame_step, "frame_step")
    if fft_length is None:
      fft_length = _enclosing_power_of_two(frame_length)
    else:
      fft_length = _as_scalar_int(fft_length, "fft_length")
    framed = frame(signals, frame_length, frame_step, pad_end=pad_end)
    if window_fn is not None:
      framed = framed * window_fn(frame_length, dtype=framed.dtype)
    return _fft_ops.rfft(framed, _array_ops.reshape(fft_length, [1]))


def inverse_stft_window_fn(frame_step, forward_window_fn=hann_window, name=None):
  """A window function for inverse_stft that inverts `forward_window_fn` at
  hop `frame_step` (the forward window divided by the overlap-added squares
  of itself)."""
  def inverse_stft_window_fn_inner(frame_length, dtype):
    with _ops.name_scope(name, "inverse_stft_window_fn", [forward_window_fn]):
      step = _as_scalar_int(frame_step, "frame_step")
      length = _as_scalar_int(frame_length, "frame_length")
      forward = forward_window_fn(length, dtype=dtype)
      denom = _math_ops.square(forward)
      overlaps = -(-length // step)
      denom = _array_ops.pad(denom, _array_ops.reshape(
          _array_ops.stack([0, overlaps * step - length]), [1, 2]))
      denom = _array_ops.reshape(denom, _array_ops.stack([overlaps, step]))
      denom = _math_ops.reduce_sum(denom, 0, keepdims=True)
      denom = _array_ops.tile(denom, _array_ops.stack([overlaps, 1]))
      denom = _array_ops.reshape(denom, _array_ops.reshape(overlaps * step, [1]))
      return forward / denom[:length]
  return inverse_stft_window_fn_inner


def inverse_stft(stfts, frame_length, frame_step, fft_length=None, window_fn=hann_window,
                 name=None):
  """Inverse of stft: irfft of each frame, cropped or zero-padded to
  frame_length, windowed with window_fn, then overlap-added."""
  with _ops.name_scope(name, "inverse_stft", [stfts]):
    stfts = _ops.convert_to_tensor(stfts, name="stfts")
    if stfts.shape.ndims is not None and stfts.shape.ndims < 2:
      raise ValueError("Shape %s must have rank at least 2" % stfts.shape)
    frame_length = _as_scalar_int(frame_length, "frame_length")
    frame_step = _as_scalar_int(frame_step, "frame_step")
    if fft_length is None:
      fft_length = _enclosing_power_of_two(frame_length)
    else:
      fft_length = _as_scalar_int(fft_length, "fft_length")
    frames = _fft_ops.irfft(stfts, _array_ops.reshape(fft_length, [1]))
    n = _array_ops.shape(frames)[-1]
    frames = frames[..., :frame_length]
    paddings = _array_ops.concat([
        _array_ops.zeros(_array_ops.stack([_array_ops.rank(frames) - 1, 2]), _dtypes.int32),
        _array_ops.reshape(_array_ops.stack([0, _math_ops.maximum(0, frame_length - n)]),
                           [1, 2])], 0)
    frames = _array_ops.pad(frames, paddings)
    fl = _static_int(frame_length)
    if fl is not None and frames.shape.ndims is not None:
      frames.set_shape([None] * (frames.shape.ndims - 1) + [fl])
    if window_fn is not None:
      frames = frames * window_fn(frame_length, dtype=stfts.dtype.real_dtype)
    return overlap_and_add(frames, frame_step)


# -- mel scale -------------------------------------------------------------------------

_MEL_BREAK_FREQUENCY_HERTZ = 700.0
_MEL_HIGH_FREQUENCY_Q = 1127.0


def _hertz_to_mel(hz):
  return _MEL_HIGH_FREQUENCY_Q * _math_ops.log(1.0 + (hz / _MEL_BREAK_FREQUENCY_HERTZ))


def linear_to_mel_weight_matrix(num_mel_bins=20, num_spectrogram_bins=129, sample_rate=8000,
                                lower_edge_hertz=125.0, upper_edge_hertz=3800.0,
                                dtype=_dtypes.float32, name=None):
  """[num_spectrogram_bins, num_mel_bins] matrix of triangular HTK mel filters
  (linear in mel, the DC bin excluded) to multiply a linear spectrogram by."""
  with _ops.name_scope(name, "linear_to_mel_weight_matrix") as name:
    dtype = _dtypes.as_dtype(dtype)
    if not dtype.is_floating:
      raise ValueError("dtype must be a floating point type. Got: %s" % dtype)
    if isinstance(num_mel_bins, int) and num_mel_bins <= 0:
      raise ValueError("num_mel_bins must be positive. Got: %s" % num_mel_bins)
    if isinstance(lower_edge_hertz, (int, float)) and lower_edge_hertz < 0.0:
      raise ValueError("lower_edge_hertz must be non-negative. Got: %s" % lower_edge_hertz)
    if (isinstance(lower_edge_hertz, (int, float)) and isinstance(upper_edge_hertz, (int, float))
        and lower_edge_hertz >= upper_edge_hertz):
      raise ValueError("lower_edge_hertz %.1f >= upper_edge_hertz %.1f" %
                       (lower_edge_hertz, upper_edge_hertz))
    if isinstance(sample_rate, (int, float)):
      if sample_rate <= 0.0:
        raise ValueError("sample_rate must be positive. Got: %s" % sample_rate)
      if isinstance(upper_edge_hertz, (int, float)) and upper_edge_hertz > sample_rate / 2:
        raise ValueError("upper_edge_hertz must not be larger than the Nyquist frequency "
                         "(sample_rate / 2). Got %s for sample_rate: %s"
                         % (upper_edge_hertz, sample_rate))
    sample_rate = _math_ops.cast(sample_rate, dtype, name="sample_rate")
    lower = _ops.convert_to_tensor(lower_edge_hertz, dtype, name="lower_edge_hertz")
    upper = _ops.convert_to_tensor(upper_edge_hertz, dtype, name="upper_edge_hertz")
    zero = _ops.convert_to_tensor(0.0, dtype)
    bands_to_zero = 1
    nyquist = sample_rate / 2.0
    linear = _math_ops.linspace(zero, nyquist, num_spectrogram_bins)[bands_to_zero:]
    bins_mel = _array_ops.expand_dims(_hertz_to_mel(linear), 1)
    edges = frame(_math_ops.linspace(_hertz_to_mel(lower), _hertz_to_mel(upper),
                                     num_mel_bins + 2), frame_length=3, frame_step=1)
    lower_mel, center_mel, upper_mel = tuple(
        _array_ops.reshape(t, [1, num_mel_bins]) for t in _array_ops.split(edges, 3, axis=1))
    lower_slopes = (bins_mel - lower_mel) / (center_mel - lower_mel)
    upper_slopes = (upper_mel - bins_mel) / (upper_mel - center_mel)
    weights = _math_ops.maximum(zero, _math_ops.minimum(lower_slopes, upper_slopes))
    return _array_ops.pad(weights, [[bands_to_zero, 0], [0, 0]], name=name)


# -- DCT -------------------------------------------------------------------------------

def _validate_dct(input_tensor, dct_type, n, axis, norm):
  if axis != -1:
    raise NotImplementedError("axis must be -1. Got: %s" % axis)
  if n is not None and n < 1:
    raise ValueError("n should be a positive integer or None")
  if dct_type not in (1, 2, 3, 4):
    raise ValueError("Types I, II, III and IV (I)DCT are supported.")
  if dct_type == 1:
    if norm == "ortho":
      raise ValueError("Normalization is not supported for the Type-I DCT.")
    dims = input_tensor.shape.as_list() if input_tensor.shape.ndims is not None else None
    if dims is not None and dims[-1] is not None and dims[-1] < 2:
      raise ValueError("Type-I DCT requires the dimension to be greater than one.")
  if norm not in (None, "ortho"):
    raise ValueError("Unknown normalization. Expected None or 'ortho', got: %s" % norm)


def dct(input, type=2, n=None, axis=-1, norm=None, name=None):  # pylint: disable=redefined-builtin
  """Discrete cosine transform (types I-IV, scipy.fftpack's definitions) along
  the last axis, computed through the real FFT; `n` crops or zero-pads that
  axis first; norm=None or "ortho"."""
  with _ops.name_scope(name, "dct", [input]):
    x = _ops.convert_to_tensor(input, name="input")
    _validate_dct(x, type, n, axis, norm)
    if n is not None:
      dims = x.shape.as_list() if x.shape.ndims is not None else None
      if dims is not None and dims[-1] is not None and n < dims[-1]:
        x = x[..., :n]
      else:
        x = x[..., :n]
        have = _array_ops.shape(x)[-1]
        paddings = _array_ops.concat([
            _array_ops.zeros(_array_ops.stack([_array_ops.rank(x) - 1, 2]), _dtypes.int32),
            _array_ops.reshape(_array_ops.stack([0, _math_ops.maximum(0, n - have)]), [1, 2])], 0)
        x = _array_ops.pad(x, paddings)
        if x.shape.ndims is not None:
          x.set_shape([None] * (x.shape.ndims - 1) + [n])
    dims = x.shape.as_list() if x.shape.ndims is not None else None
    axis_dim = dims[-1] if dims is not None and dims[-1] is not None \
        else _array_ops.shape(x)[-1]
    axis_dim_float = _math_ops.cast(axis_dim, x.dtype)
    real_t = x.dtype
    if type == 1:
      ext = _array_ops.concat([x, x[..., -2:0:-1]], axis=-1)
      return _math_ops.real(_fft_ops.rfft(ext))
    if type == 2:
      zero = _ops.convert_to_tensor(0.0, dtype=real_t)
      scale = 2.0 * _math_ops.exp(_math_ops.complex(
          zero, -_math_ops.range(axis_dim_float) * _math.pi * 0.5 / axis_dim_float))
      spec = _fft_ops.rfft(x, fft_length=_array_ops.reshape(2 * axis_dim, [1]))
      out = _math_ops.real(spec[..., :axis_dim] * scale)
      if norm == "ortho":
        n1 = 0.5 * _math_ops.rsqrt(axis_dim_float)
        n2 = n1 * _math_ops.sqrt(_ops.convert_to_tensor(2.0, dtype=real_t))
        weights = _array_ops.pad(_array_ops.expand_dims(n1, 0),
                                 _array_ops.reshape(_array_ops.stack([0, axis_dim - 1]), [1, 2]),
                                 constant_values=n2)
        out = out * weights
      return out
    if type == 3:
      if norm == "ortho":
        n1 = _math_ops.sqrt(axis_dim_float)
        n2 = n1 * _math_ops.sqrt(_ops.convert_to_tensor(0.5, dtype=real_t))
        weights = _array_ops.pad(_array_ops.expand_dims(n1, 0),
                                 _array_ops.reshape(_array_ops.stack([0, axis_dim - 1]), [1, 2]),
                                 constant_values=n2)
        x = x * weights
      else:
        x = x * axis_dim_float
      zero = _ops.convert_to_tensor(0.0, dtype=real_t)
      scale = 2.0 * _math_ops.exp(_math_ops.complex(
          zero, _math_ops.range(axis_dim_float) * _math.pi * 0.5 / axis_dim_float))
      spec = scale * _math_ops.complex(x, _array_ops.zeros_like(x))
      out = _fft_ops.irfft(spec, fft_length=_array_ops.reshape(2 * axis_dim, [1]))
      return out[..., :axis_dim]
    # Type IV: the odd outputs of a type-II DCT of twice the length over the
    # input followed by zeros.
    padded = _array_ops.concat([x, _array_ops.zeros_like(x)], axis=-1)
    out = dct(padded, type=2)[..., 1::2]
    if norm == "ortho":
      out = out * (_math_ops.sqrt(_ops.convert_to_tensor(0.5, dtype=real_t)) *
                   _math_ops.rsqrt(axis_dim_float))
    return out


def idct(input, type=2, n=None, axis=-1, norm=None, name=None):  # pylint: disable=redefined-builtin
  """Inverse DCT: the DCT of the inverse type (I <-> I, II <-> III, IV <-> IV);
  exact with norm="ortho", otherwise scaled by 2N (2(N-1) for type I)."""
  _validate_dct(_ops.convert_to_tensor(input), type, n, axis, norm)
  inverse_type = {1: 1, 2: 3, 3: 2, 4: 4}[type]
  return dct(input, type=inverse_type, n=n, axis=axis, norm=norm, name=name)


# -- MDCT ------------------------------------------------------------------------------

def mdct(signals, frame_length, window_fn=vorbis_window, pad_end=False, norm=None, name=None):
  """Modified DCT of real `signals` [..., samples] in frames of `frame_length`
  (a multiple of 4) at hop frame_length / 2: [..., frames, frame_length / 2]."""
  with _ops.name_scope(name, "mdct", [signals, frame_length]):
    signals = _ops.convert_to_tensor(signals, name="signals")
    if signals.shape.ndims is not None and signals.shape.ndims < 1:
      raise ValueError("Shape %s must have rank at least 1" % signals.shape)
    frame_length = _as_scalar_int(frame_length, "frame_length")
    fl = _static_int(frame_length)
    if fl is not None:
      if fl % 4 != 0:
        raise ValueError("The frame length must be a multiple of 4.")
      frame_step = _ops.convert_to_tensor(fl // 2, dtype=frame_length.dtype)
    else:
      frame_step = frame_length // 2
    framed = frame(signals, frame_length, frame_step, pad_end=pad_end)
    if window_fn is not None:
      framed = framed * window_fn(frame_length, dtype=framed.dtype)
    else:
      framed = framed * (1.0 / np.sqrt(2))
    q = _array_ops.split(framed, 4, axis=-1)
    first = -_array_ops.reverse(q[2], [-1]) - q[3]
    second = q[0] - _array_ops.reverse(q[1], [-1])
    return dct(_array_ops.concat((first, second), axis=-1), type=4, norm=norm)


def inverse_mdct(mdcts, window_fn=vorbis_window, norm=None, name=None):
  """Inverse of mdct: [..., frames, n] -> [..., (frames + 1) * n] real samples
  (time-domain aliasing cancels between overlapping frames)."""
  with _ops.name_scope(name, "inverse_mdct", [mdcts]):
    mdcts = _ops.convert_to_tensor(mdcts, name="mdcts")
    if mdcts.shape.ndims is not None and mdcts.shape.ndims < 1:
      raise ValueError("Shape %s must have rank at least 1" % mdcts.shape)
    dims = mdcts.shape.as_list() if mdcts.shape.ndims is not None else None
    if dims is not None and dims[-1] is not None:
      half_len = _ops.convert_to_tensor(dims[-1], dtype=_dtypes.int32)
    else:
      half_len = _array_ops.shape(mdcts)[-1]
    if norm is None:
      y = (0.5 / _math_ops.cast(half_len, mdcts.dtype)) * dct(mdcts, type=4)
    elif norm == "ortho":
      y = dct(mdcts, type=4, norm="ortho")
    else:
      raise ValueError("Unknown normalization. Expected None or 'ortho', got: %s" % norm)
    h = _array_ops.split(y, 2, axis=-1)
    frames = _array_ops.concat((h[1], -_array_ops.reverse(h[1], [-1]),
                                -_array_ops.reverse(h[0], [-1]), -h[0]), axis=-1)
    if window_fn is not None:
      frames = frames * window_fn(2 * half_len, dtype=mdcts.dtype)
    else:
      frames = frames * (1.0 / np.sqrt(2))
    return overlap_and_add(frames, half_len)


# -- fftshift --------------------------------------------------------------------------

def _shift(x, axes, name, default_name, sign):
  from tfc.ops import scan_ops  # pylint: disable=g-import-not-at-top
  with _ops.name_scope(name, default_name, [x]) as name:
    x = _ops.convert_to_tensor(x)
    if axes is None:
      axes = tuple(range(x.shape.ndims))
      dims = x.shape.as_list()
      if any(d is None for d in dims):
        shift = sign * (_array_ops.shape(x) // 2)
      else:
        shift = [sign * int(d // 2) for d in dims]
    elif isinstance(axes, int):
      d = x.shape.as_list()[axes] if x.shape.ndims is not None else None
      shift = sign * int(d // 2) if d is not None else sign * (_array_ops.shape(x)[axes] // 2)
    else:
      rank = _array_ops.rank(x)
      axes = _ops.convert_to_tensor(axes, dtype=_dtypes.int32)
      axes = _array_ops.where(_math_ops.less(axes, 0), axes + rank, axes)
      shift = sign * (_array_ops.gather(_array_ops.shape(x), axes) // 2)
    return scan_ops.roll(x, shift, axes, name)


def fftshift(x, axes=None, name=None):
  """Moves the zero-frequency term to the centre of `axes` (all by default)."""
  return _shift(x, axes, name, "fftshift", 1)


def ifftshift(x, axes=None, name=None):
  """The inverse of fftshift."""
  return _shift(x, axes, name, "ifftshift", -1)
