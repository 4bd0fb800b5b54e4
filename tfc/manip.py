"""tf.manip: TF 1.13's home of some array ops (the ones tfc has)."""
from tfc.ops.array_ops import reshape, reverse, tile  # noqa: F401
