"""Graph-level and op-level random seeds (TF 1.15 `get_seed` rules)."""
from tfc.framework import ops as _ops

DEFAULT_GRAPH_SEED = 87654321
_MAXINT32 = 2 ** 31 - 1


def _truncate_seed(seed):
  return seed % _MAXINT32


def get_seed(op_seed):
  """Returns the (seed, seed2) pair for an op from the graph seed and `op_seed`.

  With a graph seed and no op seed, the op seed is the graph's last op id, so
  each random op gets a distinct, reproducible stream. With neither, returns
  (None, None) (the kernels then seed non-deterministically).
  """
  g = _ops.get_default_graph()
  global_seed = g.seed
  if global_seed is not None:
    if op_seed is None:
      op_seed = g._last_id
    seeds = _truncate_seed(global_seed), _truncate_seed(op_seed)
  else:
    if op_seed is not None:
      seeds = DEFAULT_GRAPH_SEED, _truncate_seed(op_seed)
    else:
      seeds = None, None
  if seeds == (0, 0):
    return (0, _MAXINT32)
  return seeds


def set_random_seed(seed):
  """Sets the graph-level random seed of the default graph."""
  _ops.get_default_graph().seed = seed
