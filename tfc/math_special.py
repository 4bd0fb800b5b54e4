"""tf.math.special: Bessel functions (the ones tfc has; see docs/api.md)."""
from tfc.ops.special_math_ops import (bessel_i0, bessel_i0e, bessel_i1, bessel_i1e,  # noqa: F401
                                      bessel_j0, bessel_j1, bessel_y0, bessel_y1)
