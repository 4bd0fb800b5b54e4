"""tf.spectral namespace (TF 1.x's name for the FFT and DCT ops)."""
from tfc.ops.spectral_ops import (fft, ifft, fft2d, ifft2d, fft3d, ifft3d, rfft,  # noqa: F401
                                  irfft, rfft2d, irfft2d, rfft3d, irfft3d)
from tfc.ops.signal_ops import dct, idct  # noqa: F401
