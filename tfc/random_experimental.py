"""tf.random.experimental namespace: stateless seed splitting and folding, stateless
shuffles, index shuffling, the algorithm names and RNG states."""
from tfc.ops.stateless_random_ops import (split as stateless_split,  # noqa: F401
                                          fold_in as stateless_fold_in, stateless_shuffle,
                                          index_shuffle)
from tfc.ops.random_ops_util import Algorithm, create_rng_state  # noqa: F401
