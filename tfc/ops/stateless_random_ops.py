"""Stateless random ops (tf.random.stateless_*): the same `seed` always gives
the same values, TF's exact values. `seed` is a shape [2] int32/int64 tensor."""
from tfc import dtypes as _dtypes
from tfc.framework import ops as _ops
from tfc.framework.op_def_library import _apply_op
from tfc.ops import math_ops as _math_ops
from tfc.ops.random_ops import _shape_tensor

_ALGS = {"philox": 1, "threefry": 2, "auto_select": 3}


def _check_alg(alg):
  """Accepts the algorithms the CPU implements (Philox, or auto-select, which
  picks Philox); both give the values of the seed-scrambling V1 ops."""
  value = getattr(alg, "value", alg)
  if isinstance(value, str):
    value = _ALGS.get(value.lower(), value)
  if value not in (1, 3):
    raise ValueError("Argument `alg` got unsupported value %r. Supported values are "
                     "'philox' for the Philox algorithm and 'auto_select' for auto-selection "
                     "(ThreeFry has no CPU kernel)." % (alg,))


def _seed_tensor(seed):
  return _ops.convert_to_tensor(seed, name="seed")


def stateless_random_uniform(shape, seed, minval=0, maxval=None, dtype=_dtypes.float32, name=None,
                             alg="auto_select"):
  """Deterministic uniform values in [minval, maxval) (floats: maxval defaults to 1;
  integers: both bounds are needed, or both None for the full range of the type,
  `StatelessRandomUniformFullInt`)."""
  dtype = _dtypes.as_dtype(dtype)
  _check_alg(alg)
  accepted = (_dtypes.float16, _dtypes.bfloat16, _dtypes.float32, _dtypes.float64,
              _dtypes.int32, _dtypes.int64, _dtypes.uint32, _dtypes.uint64)
  if dtype not in accepted:
    raise ValueError("Invalid dtype %r" % dtype)
  if dtype.is_integer:
    if (minval is None) != (maxval is None):
      raise ValueError("For integer dtype {}, minval and maxval must be both `None` or "
                       "both non-`None`; got minval={} and maxval={}".format(dtype, minval,
                                                                             maxval))
    if minval is not None and dtype in (_dtypes.uint32, _dtypes.uint64):
      raise ValueError("Invalid dtype for bounded uniform integers: %r" % dtype)
  elif maxval is None:
    maxval = 1
  with _ops.name_scope(name, "stateless_random_uniform", [shape, seed, minval, maxval]) as name:
    shape = _shape_tensor(shape)
    seed = _seed_tensor(seed)
    if dtype.is_integer and minval is None:
      return _apply_op("StatelessRandomUniformFullInt", name, [shape, seed],
                       {"dtype": dtype}).outputs[0]
    minval = _ops.convert_to_tensor(minval, dtype=dtype, name="min")
    maxval = _ops.convert_to_tensor(maxval, dtype=dtype, name="max")
    if dtype.is_integer:
      return _apply_op("StatelessRandomUniformInt", name, [shape, seed, minval, maxval],
                       {}).outputs[0]
    rnd = _apply_op("StatelessRandomUniform", None, [shape, seed], {"dtype": dtype}).outputs[0]
    return _math_ops.add(rnd * (maxval - minval), minval, name=name)


def stateless_random_normal(shape, seed, mean=0.0, stddev=1.0, dtype=_dtypes.float32, name=None,
                            alg="auto_select"):
  """Deterministic normal values: mean + stddev * `StatelessRandomNormal`."""
  dtype = _dtypes.as_dtype(dtype)
  _check_alg(alg)
  with _ops.name_scope(name, "stateless_random_normal", [shape, seed, mean, stddev]) as name:
    shape = _shape_tensor(shape)
    seed = _seed_tensor(seed)
    mean = _ops.convert_to_tensor(mean, dtype=dtype, name="mean")
    stddev = _ops.convert_to_tensor(stddev, dtype=dtype, name="stddev")
    rnd = _apply_op("StatelessRandomNormal", None, [shape, seed], {"dtype": dtype}).outputs[0]
    return _math_ops.add(rnd * stddev, mean, name=name)


def stateless_truncated_normal(shape, seed, mean=0.0, stddev=1.0, dtype=_dtypes.float32,
                               name=None, alg="auto_select"):
  """Deterministic normal values more than two stddevs from the mean redrawn:
  mean + stddev * `StatelessTruncatedNormal`."""
  dtype = _dtypes.as_dtype(dtype)
  _check_alg(alg)
  with _ops.name_scope(name, "stateless_truncated_normal", [shape, seed, mean, stddev]) as name:
    shape = _shape_tensor(shape)
    seed = _seed_tensor(seed)
    mean = _ops.convert_to_tensor(mean, dtype=dtype, name="mean")
    stddev = _ops.convert_to_tensor(stddev, dtype=dtype, name="stddev")
    rnd = _apply_op("StatelessTruncatedNormal", None, [shape, seed],
                    {"dtype": dtype}).outputs[0]
    return _math_ops.add(rnd * stddev, mean, name=name)


def _stateless_multinomial_impl(logits, num_samples, dtype, seed):
  logits = _ops.convert_to_tensor(logits, name="logits")
  dtype = _dtypes.as_dtype(dtype) if dtype else _dtypes.int64
  return _apply_op("StatelessMultinomial", None, [logits, num_samples, _seed_tensor(seed)],
                   {"output_dtype": dtype}).outputs[0]


def stateless_multinomial(logits, num_samples, seed, output_dtype=_dtypes.int64, name=None):
  """Deterministic class indices [batch_size, num_samples] drawn from the softmax of
  logits [batch_size, num_classes] (`StatelessMultinomial`)."""
  with _ops.name_scope(name, "stateless_multinomial", [logits, seed]):
    return _stateless_multinomial_impl(logits, num_samples, output_dtype, seed)


def stateless_categorical(logits, num_samples, seed, dtype=_dtypes.int64, name=None):
  """Deterministic class indices [batch_size, num_samples] drawn from the softmax of
  logits [batch_size, num_classes] (`StatelessMultinomial`)."""
  with _ops.name_scope(name, "stateless_categorical", [logits, seed]):
    return _stateless_multinomial_impl(logits, num_samples, dtype, seed)


def stateless_random_gamma(shape, seed, alpha, beta=None, dtype=_dtypes.float32, name=None):
  """Deterministic samples of Gamma(alpha, beta) with the given shape, which must end
  with broadcast(alpha, beta).shape (`StatelessRandomGammaV2`, then divided by beta,
  at least the dtype's smallest normal number). Differentiable in alpha and beta."""
  import numpy as np  # pylint: disable=g-import-not-at-top
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  from tfc.ops import array_extra_ops  # pylint: disable=g-import-not-at-top
  dtype = _dtypes.as_dtype(dtype)
  with _ops.name_scope(name, "stateless_random_gamma", [shape, seed, alpha, beta]):
    shape = _shape_tensor(shape)
    alpha = _ops.convert_to_tensor(alpha, dtype=dtype, name="alpha")
    beta = _ops.convert_to_tensor(beta if beta is not None else 1, name="beta", dtype=dtype)
    broadcast_shape = array_extra_ops.broadcast_dynamic_shape(array_ops.shape(alpha),
                                                              array_ops.shape(beta))
    alpha_broadcast = array_ops.broadcast_to(alpha, broadcast_shape)
    rnd = _apply_op("StatelessRandomGammaV2", None, [shape, _seed_tensor(seed), alpha_broadcast],
                    {}).outputs[0]
    return _math_ops.maximum(np.finfo(dtype.as_numpy_dtype).tiny, rnd / beta)


def stateless_random_poisson(shape, seed, lam, dtype=_dtypes.int32, name=None):
  """Deterministic samples of Poisson(lam) with the given shape, which must end with
  lam's (`StatelessRandomPoisson`)."""
  with _ops.name_scope(name, "stateless_random_poisson", [shape, seed, lam]):
    shape = _shape_tensor(shape)
    lam = _ops.convert_to_tensor(lam, name="lam")
    return _apply_op("StatelessRandomPoisson", None, [shape, _seed_tensor(seed), lam],
                     {"dtype": _dtypes.as_dtype(dtype)}).outputs[0]


def stateless_random_binomial(shape, seed, counts, probs, output_dtype=_dtypes.int32, name=None):
  """Deterministic samples of Binomial(counts, probs) with the given shape, which must
  end with broadcast(counts, probs).shape (`StatelessRandomBinomial`)."""
  with _ops.name_scope(name, "stateless_random_binomial", [shape, seed, counts, probs]):
    shape = _shape_tensor(shape)
    probs = _ops.convert_to_tensor(probs, dtype_hint=_dtypes.float32, name="probs")
    counts = _ops.convert_to_tensor(counts, dtype_hint=probs.dtype, name="counts")
    return _apply_op("StatelessRandomBinomial", None, [shape, _seed_tensor(seed), counts, probs],
                     {"dtype": _dtypes.as_dtype(output_dtype)}).outputs[0]



def split(seed, num=2, alg="auto_select"):
  """`num` new seeds [num, 2] from `seed` (its dtype), drawn as full-range integers."""
  seed = _ops.convert_to_tensor(seed)
  return stateless_random_uniform(shape=[num, 2], seed=seed, dtype=seed.dtype, minval=None,
                                  maxval=None, alg=alg)


def fold_in(seed, data, alg="auto_select"):
  """A new seed [2]: one full-range integer drawn from `seed`, stacked with `data`."""
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  data = _ops.convert_to_tensor(data)
  seed1 = stateless_random_uniform(shape=[], seed=seed, dtype=data.dtype, minval=None,
                                   maxval=None, alg=alg)
  return array_ops.stack([seed1, data])


def _key_counter_alg(seed):
  """The V2 key, counter and algorithm of `seed` (`StatelessRandomGetKeyCounterAlg`)."""
  outs = _apply_op("StatelessRandomGetKeyCounterAlg", None, [_seed_tensor(seed)], {}).outputs
  return outs[0], outs[1], outs[2]


def stateless_shuffle(value, seed, alg="auto_select", name=None):
  """`value` with its first dimension deterministically permuted (`StatelessShuffle`)."""
  _check_alg(alg)
  with _ops.name_scope(name, "stateless_shuffle", [value, seed]) as name:
    key, counter, alg_t = _key_counter_alg(seed)
    value = _ops.convert_to_tensor(value, name="value")
    return _apply_op("StatelessShuffle", name, [value, key, counter, alg_t], {}).outputs[0]


def index_shuffle(index, seed, max_index):
  """The position of `index` in a pseudorandom permutation of [0, max_index], a pure
  function of the seed (`RandomIndexShuffle`, 4 rounds of a Simon cipher)."""
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  seed = _ops.convert_to_tensor(seed)
  rank = seed.shape.ndims
  paddings = [[1, 0]] + ((rank - 1) * [[0, 0]] if rank else [])
  seed = array_ops.pad(seed, paddings, constant_values=498247692)
  index = _ops.convert_to_tensor(index)
  max_index = _ops.convert_to_tensor(max_index, dtype=index.dtype)
  return _apply_op("RandomIndexShuffle", None, [index, seed, max_index], {"rounds": 4}).outputs[0]


def stateless_parameterized_truncated_normal(shape, seed, means=0.0, stddevs=1.0, minvals=-2.0,
                                             maxvals=2.0, name=None):
  """Deterministic samples of normals N(means, stddevs) truncated to [minvals, maxvals],
  the parameters broadcast to a shape `shape` ends with
  (`StatelessParameterizedTruncatedNormal`). Differentiable in all four parameters."""
  with _ops.name_scope(name, "stateless_parameterized_truncated_normal",
                       [shape, means, stddevs, minvals, maxvals]):
    shape_tensor = _shape_tensor(shape)
    means = _ops.convert_to_tensor(means, name="means")
    stddevs = _ops.convert_to_tensor(stddevs, name="stddevs")
    minvals = _ops.convert_to_tensor(minvals, name="minvals")
    maxvals = _ops.convert_to_tensor(maxvals, name="maxvals")
    return _apply_op("StatelessParameterizedTruncatedNormal", None,
                     [shape_tensor, _seed_tensor(seed), means, stddevs, minvals, maxvals],
                     {}).outputs[0]
