"""tf.debugging: assertions and numeric checks (TF 1.15 compat.v1 names)."""
from tfc.ops.array_ops import check_numerics  # noqa: F401
from tfc.ops.check_ops import (assert_equal, assert_none_equal, assert_less,  # noqa: F401
                               assert_less_equal, assert_greater, assert_greater_equal,
                               assert_positive, assert_negative, assert_non_negative,
                               assert_non_positive, assert_near, assert_rank,
                               assert_rank_at_least, assert_rank_in, assert_integer,
                               assert_type, assert_scalar, assert_proper_iterable,
                               assert_same_float_dtype)
from tfc.ops.logging_ops import Assert  # noqa: F401
from tfc.ops.math_ops import (is_finite, is_inf, is_nan, is_non_decreasing,  # noqa: F401
                              is_strictly_increasing, is_numeric_tensor)
from tfc.ops.numerics import verify_tensor_all_finite as assert_all_finite  # noqa: F401
