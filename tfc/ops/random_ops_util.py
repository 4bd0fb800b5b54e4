"""tf.random.Algorithm and tf.random.create_rng_state: the names of the counter-based
generators and the initial state (counter + key words) a seed gives them."""
import enum

import numpy as np


class Algorithm(enum.Enum):
  """A random-number-generation algorithm: PHILOX (the CPU's), THREEFRY, or
  AUTO_SELECT (the device picks; Philox on the CPU)."""
  PHILOX = 1
  THREEFRY = 2
  AUTO_SELECT = 3


def convert_alg_to_int(alg):
  """The integer id of `alg` (an int, an Algorithm or one of "philox", "threefry",
  "auto_select"); tensors pass through."""
  if isinstance(alg, int):
    return alg
  if isinstance(alg, Algorithm):
    return alg.value
  if isinstance(alg, str):
    canon = alg.strip().lower().replace("-", "").replace("_", "")
    ids = {"philox": 1, "threefry": 2, "autoselect": 3}
    if canon in ids:
      return ids[canon]
    raise ValueError("Argument `alg` got unsupported value %s. Supported values are philox "
                     "for the Philox algorithm, threefry for the ThreeFry algorithm, and "
                     "auto_select for auto-selection." % alg)
  if hasattr(alg, "dtype") and hasattr(alg, "op"):
    return alg
  raise TypeError("Can't convert argument `alg` (of value %s and type %s) to int."
                  % (alg, type(alg)))


_STATE_SIZE = {1: 3, 2: 2, 3: 3}   # counter words + key words, in int64s


def create_rng_state(seed, alg):
  """The initial RNG state (int64 [3] for Philox, [2] for ThreeFry) of an integer seed
  (split into 64-bit words, lowest first) or a vector of seed words (left-padded with
  zeros, truncated to the state size)."""
  from tfc.framework import ops  # pylint: disable=g-import-not-at-top
  from tfc.ops import array_ops, math_ops  # pylint: disable=g-import-not-at-top
  alg = convert_alg_to_int(alg)
  if alg not in _STATE_SIZE:
    raise ValueError("Argument `alg` got unsupported value %s." % alg)
  size = _STATE_SIZE[alg]
  if isinstance(seed, int):
    words = []
    for _ in range(size):
      words.append(seed & 0xFFFFFFFFFFFFFFFF)
      seed >>= 64
    seed = words
  if isinstance(seed, (list, tuple, np.ndarray)):
    flat = [int(v) for v in np.asarray(seed, dtype=object).reshape(-1)][:size]
    flat = [v - 2 ** 64 if v >= 2 ** 63 else v for v in flat]
    return ops.convert_to_tensor(
        np.array([0] * (size - len(flat)) + flat, dtype=np.int64))
  seed = array_ops.reshape(math_ops.cast(seed, "int64"), [-1])[0:size]
  pad = math_ops.maximum(size - array_ops.shape(seed)[0], 0)
  state = array_ops.concat([array_ops.zeros([pad], "int64"), seed], axis=0)
  state.set_shape([size])
  return state
