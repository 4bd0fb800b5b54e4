"""tf.signal namespace: FFTs, framing, windows, STFT, DCT/MDCT, mel filterbanks, MFCCs."""
from tfc.ops.spectral_ops import (fft, ifft, fft2d, ifft2d, fft3d, ifft3d, rfft,  # noqa: F401
                                  irfft, rfft2d, irfft2d, rfft3d, irfft3d)
from tfc.ops.signal_ops import (frame, overlap_and_add, hann_window, hamming_window,  # noqa: F401
                                kaiser_window, kaiser_bessel_derived_window, vorbis_window,
                                stft, inverse_stft, inverse_stft_window_fn,
                                linear_to_mel_weight_matrix, dct, idct, mdct, inverse_mdct,
                                fftshift, ifftshift)


def mfccs_from_log_mel_spectrograms(log_mel_spectrograms, name=None):
  """MFCCs: the orthonormal-scaled type-II DCT of log-mel spectrograms
  [..., num_mel_bins] (HTK's scaling: dct * rsqrt(2 * num_mel_bins))."""
  from tfc.framework import ops as _ops  # pylint: disable=g-import-not-at-top
  from tfc.ops import array_ops, math_ops  # pylint: disable=g-import-not-at-top
  with _ops.name_scope(name, "mfccs_from_log_mel_spectrograms", [log_mel_spectrograms]):
    x = _ops.convert_to_tensor(log_mel_spectrograms, name="log_mel_spectrograms")
    dims = x.shape.as_list() if x.shape.ndims is not None else None
    if dims and dims[-1] is not None:
      num_mel_bins = dims[-1]
      if num_mel_bins == 0:
        raise ValueError("num_mel_bins must be positive. Got: %s" % x)
    else:
      num_mel_bins = array_ops.shape(x)[-1]
    dct2 = dct(x, type=2)
    return dct2 * math_ops.rsqrt(math_ops.cast(num_mel_bins, dct2.dtype) * 2.0)
