"""tf.nn.experimental namespace: dropout with a caller-chosen uniform sampler."""
import numbers

from tfc import dtypes as _dtypes
from tfc.framework import ops as _ops


def _noise_shape(x, noise_shape):
  from tfc.framework import tensor_shape  # pylint: disable=g-import-not-at-top
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  if noise_shape is None:
    return array_ops.shape(x)
  try:
    ns = tensor_shape.as_shape(noise_shape)
  except (TypeError, ValueError):
    return noise_shape
  if x.shape.dims is not None and ns.dims is not None and len(x.shape.dims) == len(ns.dims):
    dims = []
    for i, dim in enumerate(x.shape.dims):
      nd = tensor_shape.dimension_value(ns.dims[i])
      xd = tensor_shape.dimension_value(dim)
      dims.append(xd if nd is None and xd is not None else nd)
    return tensor_shape.TensorShape(dims)
  return noise_shape


def _dropout(x, rate, noise_shape, uniform_sampler, name, default_name):
  from tfc.ops import array_ops, math_ops  # pylint: disable=g-import-not-at-top
  with _ops.name_scope(name, default_name, [x]):
    is_number = isinstance(rate, numbers.Real)
    if is_number and (rate < 0 or rate >= 1):
      raise ValueError("`rate` must be a scalar tensor or a float in the range [0, 1). "
                       "Received: rate=%s" % rate)
    x = _ops.convert_to_tensor(x, name="x")
    if not x.dtype.is_floating:
      raise ValueError("`x.dtype` must be a floating point tensor as `x` will be scaled. "
                       "Received: x_dtype=%s" % x.dtype)
    if is_number and rate == 0:
      return x
    if not isinstance(rate, _ops.Tensor):
      if not is_number:
        raise ValueError("`rate` must be a scalar or scalar tensor. Received: rate=%s" % rate)
      scale = _ops.convert_to_tensor(1 / (1 - rate), dtype=x.dtype)
      ret = math_ops.multiply(x, scale)
    else:
      rate.get_shape().assert_has_rank(0)
      if rate.dtype != x.dtype:
        if not rate.dtype.is_compatible_with(x.dtype):
          raise ValueError("`x.dtype` must be compatible with `rate.dtype`. Received: "
                           "x.dtype=%s and rate.dtype=%s" % (x.dtype, rate.dtype))
        rate = math_ops.cast(rate, x.dtype, name="rate")
      one = _ops.convert_to_tensor(1, dtype=x.dtype)
      ret = math_ops.realdiv(x, math_ops.subtract(one, rate))
    random_tensor = uniform_sampler(shape=_noise_shape(x, noise_shape), dtype=x.dtype)
    keep_mask = random_tensor >= rate
    zero = _ops.convert_to_tensor(0, dtype=x.dtype)
    ret = array_ops.where_v2(keep_mask, ret, zero)
    ret.set_shape(x.get_shape())
    return ret


def stateless_dropout(x, rate, seed, rng_alg=None, noise_shape=None, name=None):
  """x scaled by 1 / (1 - rate) with each element (or `noise_shape` slice) zeroed with
  probability `rate`, decided by `tf.random.stateless_uniform` with `seed`: the same
  seed always drops the same elements."""
  from tfc.ops import stateless_random_ops  # pylint: disable=g-import-not-at-top

  def sampler(shape, dtype):
    return stateless_random_ops.stateless_random_uniform(
        shape, seed=seed, dtype=dtype, alg=rng_alg if rng_alg is not None else "auto_select")
  return _dropout(x, rate, noise_shape, sampler, name, "stateless_dropout")


def general_dropout(x, rate, uniform_sampler, noise_shape=None, name=None):
  """Dropout as `stateless_dropout`, with uniform [0, 1) values from
  `uniform_sampler(shape=..., dtype=...)`."""
  return _dropout(x, rate, noise_shape, uniform_sampler, name, "general_dropout")


del _dtypes
