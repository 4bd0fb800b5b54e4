"""Random op wrappers (TF 1.15 names and name scopes)."""
from tfc import dtypes as _dtypes
from tfc.framework import ops as _ops
from tfc.framework import random_seed as _random_seed
from tfc.framework.op_def_library import _apply_op
from tfc.ops import math_ops as _math_ops


def _shape_tensor(shape):
  if isinstance(shape, _ops.Tensor):
    return shape
  dtype = None
  if isinstance(shape, (tuple, list)):
    if not shape:
      dtype = _dtypes.int32
    else:
      dims = []
      for d in shape:
        dims.append(getattr(d, "value", d))
      if not any(isinstance(d, _ops.Tensor) for d in dims):
        shape = dims
        if any(d is not None and not isinstance(d, _ops.Tensor) and d >= 2 ** 31 for d in dims):
          dtype = _dtypes.int64
        else:
          dtype = _dtypes.int32
  return _ops.convert_to_tensor(shape, dtype=dtype, name="shape")


def _seed_attrs(seed):
  seed1, seed2 = _random_seed.get_seed(seed)
  attrs = {}
  if seed1 is not None:
    attrs["seed"] = int(seed1)
  if seed2 is not None:
    attrs["seed2"] = int(seed2)
  return attrs


def random_normal(shape, mean=0.0, stddev=1.0, dtype=_dtypes.float32, seed=None, name=None):
  dtype = _dtypes.as_dtype(dtype)
  with _ops.name_scope(name, "random_normal", [shape, mean, stddev]) as name:
    shape_tensor = _shape_tensor(shape)
    mean_tensor = _ops.convert_to_tensor(mean, dtype=dtype, name="mean")
    stddev_tensor = _ops.convert_to_tensor(stddev, dtype=dtype, name="stddev")
    attrs = _seed_attrs(seed)
    attrs["dtype"] = dtype
    rnd = _apply_op("RandomStandardNormal", None, [shape_tensor], attrs).outputs[0]
    mul = rnd * stddev_tensor
    return _math_ops.add(mul, mean_tensor, name=name)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=_dtypes.float32, seed=None, name=None):
  dtype = _dtypes.as_dtype(dtype)
  with _ops.name_scope(name, "truncated_normal", [shape, mean, stddev]) as name:
    shape_tensor = _shape_tensor(shape)
    mean_tensor = _ops.convert_to_tensor(mean, dtype=dtype, name="mean")
    stddev_tensor = _ops.convert_to_tensor(stddev, dtype=dtype, name="stddev")
    attrs = _seed_attrs(seed)
    attrs["dtype"] = dtype
    rnd = _apply_op("TruncatedNormal", None, [shape_tensor], attrs).outputs[0]
    mul = rnd * stddev_tensor
    return _math_ops.add(mul, mean_tensor, name=name)


def random_uniform(shape, minval=0, maxval=None, dtype=_dtypes.float32, seed=None, name=None):
  dtype = _dtypes.as_dtype(dtype)
  if dtype not in (_dtypes.float16, _dtypes.bfloat16, _dtypes.float32, _dtypes.float64,
                   _dtypes.int32, _dtypes.int64):
    raise ValueError("Invalid dtype %r" % dtype)
  if maxval is None:
    if dtype.is_integer:
      raise ValueError("Must specify maxval for integer dtype %r" % dtype)
    maxval = 1
  with _ops.name_scope(name, "random_uniform", [shape, minval, maxval]) as name:
    shape = _shape_tensor(shape)
    minval = _ops.convert_to_tensor(minval, dtype=dtype, name="min")
    maxval = _ops.convert_to_tensor(maxval, dtype=dtype, name="max")
    attrs = _seed_attrs(seed)
    if dtype.is_integer:
      return _apply_op("RandomUniformInt", name, [shape, minval, maxval], attrs).outputs[0]
    attrs["dtype"] = dtype
    rnd = _apply_op("RandomUniform", None, [shape], attrs).outputs[0]
    return _math_ops.add(rnd * (maxval - minval), minval, name=name)


def random_shuffle(value, seed=None, name=None):
  return _apply_op("RandomShuffle", name, [value], _seed_attrs(seed)).outputs[0]


def multinomial(logits, num_samples, seed=None, name=None, output_dtype=None):
  with _ops.name_scope(name, "multinomial", [logits]):
    logits = _ops.convert_to_tensor(logits, name="logits")
    attrs = _seed_attrs(seed)
    if output_dtype is not None:
      attrs["output_dtype"] = _dtypes.as_dtype(output_dtype)
    return _apply_op("Multinomial", None, [logits, num_samples], attrs).outputs[0]


random_normal_v1 = random_normal


def random_gamma(shape, alpha, beta=None, dtype=_dtypes.float32, seed=None, name=None):
  """Samples of Gamma(alpha, beta) (`RandomGamma`, then divided by beta): the result has
  shape `shape + broadcast(alpha, beta).shape`, and values at least the dtype's smallest
  normal number. Differentiable in alpha and beta (implicit reparameterization)."""
  import numpy as np  # pylint: disable=g-import-not-at-top
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  dtype = _dtypes.as_dtype(dtype)
  with _ops.name_scope(name, "random_gamma", [shape, alpha, beta]):
    shape = _ops.convert_to_tensor(shape, name="shape", dtype=_dtypes.int32)
    alpha = _ops.convert_to_tensor(alpha, name="alpha", dtype=dtype)
    beta = _ops.convert_to_tensor(beta if beta is not None else 1, name="beta", dtype=dtype)
    alpha_broadcast = alpha + array_ops.zeros_like(beta)
    attrs = _seed_attrs(seed)
    sample = _apply_op("RandomGamma", None, [shape, alpha_broadcast], attrs).outputs[0]
    return _math_ops.maximum(np.finfo(dtype.as_numpy_dtype).tiny, sample / beta)


def random_poisson_v2(shape, lam, dtype=_dtypes.float32, seed=None, name=None):
  """Samples of Poisson(lam) (`RandomPoissonV2`) with shape `shape + lam.shape`, as
  `dtype` (half, float32, float64, int32 or int64)."""
  with _ops.name_scope(name, "random_poisson", [lam, shape]):
    shape = _ops.convert_to_tensor(shape, name="shape", dtype=_dtypes.int32)
    lam = _ops.convert_to_tensor(lam, name="lam")
    attrs = _seed_attrs(seed)
    attrs["dtype"] = _dtypes.as_dtype(dtype)
    return _apply_op("RandomPoissonV2", None, [shape, lam], attrs).outputs[0]


def random_poisson(lam, shape, dtype=_dtypes.float32, seed=None, name=None):
  """TF 1.x argument order of `random_poisson_v2`: Poisson(lam) samples with shape
  `shape + lam.shape`."""
  return random_poisson_v2(shape, lam, dtype, seed, name)


def categorical(logits, num_samples, dtype=None, seed=None, name=None):
  """Samples [batch_size, num_samples] class indices from unnormalized log-probabilities
  logits [batch_size, num_classes] (`Multinomial`); dtype int64 by default."""
  with _ops.name_scope(name, "categorical", [logits]):
    return multinomial(logits, num_samples, seed=seed, output_dtype=dtype)


def random_crop(value, size, seed=None, name=None):
  """A slice of `value` of shape `size` at a uniformly random offset; every dimension of
  size must be <= value's (else the step fails with InvalidArgumentError)."""
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  from tfc.ops import control_flow_ops  # pylint: disable=g-import-not-at-top
  from tfc.ops import logging_ops  # pylint: disable=g-import-not-at-top
  with _ops.name_scope(name, "random_crop", [value, size]) as name:
    value = _ops.convert_to_tensor(value, name="value")
    size = _ops.convert_to_tensor(size, dtype=_dtypes.int32, name="size")
    shape = array_ops.shape(value)
    check = logging_ops.Assert(_math_ops.reduce_all(shape >= size),
                               ["Need value.shape >= size, got ", shape, size], summarize=1000)
    shape = control_flow_ops.with_dependencies([check], shape)
    limit = shape - size + 1
    offset = random_uniform(array_ops.shape(shape), dtype=size.dtype, maxval=size.dtype.max,
                            seed=seed) % limit
    return array_ops.slice(value, offset, size, name=name)
