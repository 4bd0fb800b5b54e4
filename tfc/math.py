"""tf.math namespace."""
from tfc.ops.math_ops import (add, subtract, multiply, divide, truediv, floordiv, floormod,  # noqa: F401
                              mod, pow, negative, abs, square, sqrt, rsqrt, exp, log, log1p,
                              tanh, sigmoid, sign, maximum, minimum, equal, not_equal, less,
                              less_equal, greater, greater_equal, logical_and, logical_or,
                              logical_not, logical_xor, add_n, reduce_sum, reduce_mean,
                              reduce_max, reduce_min, reduce_prod, reduce_all, reduce_any,
                              reduce_logsumexp, argmax, argmin, reciprocal, floor, ceil, round,
                              sin, cos, is_nan, is_inf, is_finite, squared_difference,
                              realdiv, truncatediv, truncatemod, count_nonzero, div_no_nan,
                              scalar_mul, conj, cast, accumulate_n, unsorted_segment_sum)
from tfc.ops.math_ops import (div_no_nan as divide_no_nan, expm1, log_sigmoid,  # noqa: F401
                              reciprocal_no_nan, reduce_variance, reduce_std,
                              is_non_decreasing, is_strictly_increasing,
                              unsorted_segment_mean, unsorted_segment_sqrt_n,
                              confusion_matrix, xlogy, xdivy, multiply_no_nan, polyval, rint,
                              reduce_euclidean_norm, real, imag, angle, segment_sum,
                              segment_mean, bincount)
from tfc.ops.array_ops import invert_permutation  # noqa: F401
from tfc.ops.nn_ops import in_top_k  # noqa: F401
from tfc.ops.nn_ops import (softplus, softsign, softmax, log_softmax, l2_normalize,  # noqa: F401
                            zero_fraction)
from tfc.ops.special_math_ops import (tan, asin, acos, atan, sinh, cosh, asinh, acosh,  # noqa: F401
                                      atanh, atan2, erf, erfc, erfinv, ndtri, lgamma, digamma,
                                      igamma, igammac, zeta, polygamma, xlog1py, nextafter,
                                      lbeta, bessel_i0, bessel_i0e, bessel_i1, bessel_i1e,
                                      betainc, erfcinv)
from tfc import math_special as special  # noqa: F401,E402
from tfc.ops.segment_ops import (segment_max, segment_min, segment_prod,  # noqa: F401,E402
                                 unsorted_segment_max, unsorted_segment_min,
                                 unsorted_segment_prod)
from tfc.ops.scan_ops import cumsum, cumprod, cumulative_logsumexp  # noqa: F401,E402
from tfc.ops.sort_ops import top_k  # noqa: F401,E402
from tfc.ops.sort_ops import approx_max_k, approx_min_k  # noqa: F401,E402
