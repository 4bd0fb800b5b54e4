"""tf.sets: set operations along the last dimension (TF 1.15's names)."""
from tfc.ops.sets_impl import (difference, intersection, set_difference, set_intersection,  # noqa: F401
                               set_size, set_union, size, union)
