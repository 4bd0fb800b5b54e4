"""The tf.signal calls compared with TensorFlow (tools/make_signal_fixtures.py
runs them on TF, tests/python/test_signal.py on tfc): each case builds its
output from `tf` (either library) and seeded inputs, and returns
(output tensor, [input arrays])."""
import zlib

import numpy as np


def seed(name):
  return zlib.crc32(name.encode()) & 0x7FFFFFFF


def _f(rng, *shape, dtype=np.float32):
  return rng.uniform(-1, 1, size=shape).astype(dtype)


def _window(fn, *args, **kw):
  def build(tf, rng):
    kw2 = dict(kw)
    if "dtype" in kw2:
      kw2["dtype"] = getattr(tf, kw2["dtype"])
    return getattr(tf.signal, fn)(*args, **kw2), []
  return build


def _unary(fn, shape, dtype=np.float32, **kw):
  def build(tf, rng):
    x = _f(rng, *shape, dtype=dtype)
    return getattr(tf.signal, fn)(tf.constant(x), **kw), [x]
  return build


def _frame(shape, *args, **kw):
  def build(tf, rng):
    x = _f(rng, *shape)
    return tf.signal.frame(tf.constant(x), *args, **kw), [x]
  return build


def _stft_roundtrip(tf, rng):
  x = _f(rng, 2, 300)
  s = tf.signal.stft(tf.constant(x), 64, 16)
  inv = tf.signal.inverse_stft(s, 64, 16, window_fn=tf.signal.inverse_stft_window_fn(16))
  return inv, [x]


def _stft_complex(part):
  def build(tf, rng):
    x = _f(rng, 3, 200)
    s = tf.signal.stft(tf.constant(x), 50, 20, fft_length=64, pad_end=True)
    return (tf.real(s) if part == "re" else tf.imag(s)), [x]
  return build


def _mel(**kw):
  def build(tf, rng):
    return tf.signal.linear_to_mel_weight_matrix(**kw), []
  return build


def _mfcc(tf, rng):
  x = _f(rng, 4, 40)
  return tf.signal.mfccs_from_log_mel_spectrograms(tf.constant(x)), [x]


def _mdct_roundtrip(norm, window):
  def build(tf, rng):
    x = _f(rng, 2, 128)
    fn = getattr(tf.signal, window) if window else None
    m = tf.signal.mdct(tf.constant(x), 32, window_fn=fn, norm=norm)
    return tf.signal.inverse_mdct(m, window_fn=fn, norm=norm), [x]
  return build


def _rfft(fn, shape, length):
  def build(tf, rng):
    x = _f(rng, *shape)
    y = getattr(tf.signal, fn)(tf.constant(x), length)
    return tf.concat([tf.real(y), tf.imag(y)], -1), [x]
  return build


def _irfft(fn, shape, length):
  def build(tf, rng):
    x = (_f(rng, *shape) + 1j * _f(rng, *shape)).astype(np.complex64)
    return getattr(tf.signal, fn)(tf.constant(x), length), [x]
  return build


def _spectral_dct(tf, rng):
  x = _f(rng, 3, 9)
  return tf.spectral.idct(tf.spectral.dct(tf.constant(x), norm="ortho"), norm="ortho"), [x]


def cases():
  out = []
  for periodic in (True, False):
    for n in (1, 2, 7, 16):
      out.append(("hann_%d_%s" % (n, periodic), _window("hann_window", n, periodic=periodic)))
      out.append(("hamming_%d_%s" % (n, periodic),
                  _window("hamming_window", n, periodic=periodic)))
  out.append(("hann_f64", _window("hann_window", 9, dtype="float64")))
  for n in (1, 5, 12):
    out.append(("kaiser_%d" % n, _window("kaiser_window", n)))
    out.append(("vorbis_%d" % n, _window("vorbis_window", n)))
  out.append(("kaiser_beta4", _window("kaiser_window", 10, beta=4.0)))
  out.append(("kbd_16", _window("kaiser_bessel_derived_window", 16)))
  out.append(("kbd_9_beta6", _window("kaiser_bessel_derived_window", 9, beta=6.0)))
  out.append(("frame_basic", _frame((2, 20), 6, 3)))
  out.append(("frame_pad_end", _frame((2, 20), 6, 4, pad_end=True, pad_value=0.5)))
  out.append(("frame_axis0", _frame((13, 3), 4, 2, axis=0)))
  out.append(("frame_short", _frame((3,), 5, 1)))
  out.append(("overlap_add", _unary("overlap_and_add", (2, 5, 6), frame_step=2)))
  out.append(("overlap_add_nooverlap", _unary("overlap_and_add", (4, 3), frame_step=3)))
  out.append(("overlap_add_step_gt", _unary("overlap_and_add", (3, 4), frame_step=5)))
  out.append(("stft_re", _stft_complex("re")))
  out.append(("stft_im", _stft_complex("im")))
  out.append(("inverse_stft_roundtrip", _stft_roundtrip))
  out.append(("mel_default", _mel()))
  out.append(("mel_custom", _mel(num_mel_bins=8, num_spectrogram_bins=33, sample_rate=16000,
                                 lower_edge_hertz=20.0, upper_edge_hertz=7600.0)))
  out.append(("mfcc", _mfcc))
  for t in (1, 2, 3, 4):
    out.append(("dct%d" % t, _unary("dct", (3, 8), type=t)))
    out.append(("idct%d" % t, _unary("idct", (3, 7), type=t)))
    if t != 1:
      out.append(("dct%d_ortho" % t, _unary("dct", (2, 6), type=t, norm="ortho")))
  out.append(("dct2_n_crop", _unary("dct", (2, 10), n=6)))
  out.append(("dct2_n_pad", _unary("dct", (2, 5), n=8)))
  out.append(("dct2_f64", _unary("dct", (2, 5), dtype=np.float64)))
  out.append(("mdct", _unary("mdct", (2, 64), frame_length=16)))
  out.append(("mdct_kbd_ortho", _unary("mdct", (40,), frame_length=8, norm="ortho",
                                       pad_end=True)))
  out.append(("mdct_roundtrip", _mdct_roundtrip(None, "vorbis_window")))
  out.append(("mdct_roundtrip_ortho_nowindow", _mdct_roundtrip("ortho", None)))
  out.append(("fftshift", _unary("fftshift", (4, 5))))
  out.append(("ifftshift", _unary("ifftshift", (4, 5))))
  out.append(("fftshift_axis", _unary("fftshift", (4, 5), axes=1)))
  out.append(("ifftshift_axes", _unary("ifftshift", (3, 4, 5), axes=[0, -1])))
  out.append(("rfft_pad", _rfft("rfft", (2, 5), [9])))
  out.append(("rfft_crop", _rfft("rfft", (2, 9), [5])))
  out.append(("rfft2d_pad", _rfft("rfft2d", (2, 3, 5), [4, 8])))
  out.append(("irfft_default", _irfft("irfft", (2, 5), None)))
  out.append(("irfft_pad", _irfft("irfft", (2, 3), [10])))
  out.append(("irfft2d_default", _irfft("irfft2d", (2, 4, 3), None)))
  out.append(("spectral_dct_ortho_roundtrip", _spectral_dct))
  return out
