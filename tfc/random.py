"""tf.random namespace (TF 1.15 compat.v1 names)."""
from tfc.ops.random_ops import (random_normal as normal, random_uniform as uniform,  # noqa: F401
                                truncated_normal, random_shuffle as shuffle, multinomial,
                                categorical)
from tfc.framework.random_seed import set_random_seed, get_seed  # noqa: F401
