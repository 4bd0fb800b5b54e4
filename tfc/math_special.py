"""tf.math.special: Bessel functions, Dawson's, exponential and Fresnel integrals and
Spence's function."""
from tfc.ops.special_math_ops import (bessel_i0, bessel_i0e, bessel_i1, bessel_i1e,  # noqa: F401
                                      bessel_j0, bessel_j1, bessel_y0, bessel_y1,
                                      bessel_k0, bessel_k0e, bessel_k1, bessel_k1e, dawsn,
                                      expint, fresnel_cos, fresnel_sin, spence)
