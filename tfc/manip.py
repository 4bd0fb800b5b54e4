"""tf.manip: TF 1.13's home of some array ops (the ones tfc has)."""
from tfc.ops.array_ops import (reshape, reverse, tile, space_to_batch_nd,  # noqa: F401
                               batch_to_space_nd)
from tfc.ops.scan_ops import roll  # noqa: F401,E402
from tfc.ops.scatter_nd_ops import gather_nd, scatter_nd  # noqa: F401,E402
