"""Variable initializers (TF 1.15 `init_ops`): callables (shape, dtype, partition_info)."""
import math

from tfc import dtypes as _dtypes
from tfc.framework import constant_op as _constant_op
from tfc.ops import array_ops as _array_ops
from tfc.ops import random_ops as _random_ops


def _assert_float_dtype(dtype):
  if not dtype.is_floating:
    raise ValueError("Expected floating point type, got %s." % dtype)
  return dtype


class Initializer(object):
  """Base class of initializers."""

  def __call__(self, shape, dtype=None, partition_info=None):
    raise NotImplementedError

  def get_config(self):
    return {}

  @classmethod
  def from_config(cls, config):
    config.pop("dtype", None)
    return cls(**config)


class Zeros(Initializer):
  def __init__(self, dtype=_dtypes.float32):
    self.dtype = _dtypes.as_dtype(dtype)

  def __call__(self, shape, dtype=None, partition_info=None):
    if dtype is None:
      dtype = self.dtype
    return _array_ops.zeros(shape, dtype)

  def get_config(self):
    return {"dtype": self.dtype.name}


class Ones(Initializer):
  def __init__(self, dtype=_dtypes.float32):
    self.dtype = _dtypes.as_dtype(dtype)

  def __call__(self, shape, dtype=None, partition_info=None):
    if dtype is None:
      dtype = self.dtype
    return _array_ops.ones(shape, dtype)

  def get_config(self):
    return {"dtype": self.dtype.name}


class Constant(Initializer):
  def __init__(self, value=0, dtype=_dtypes.float32, verify_shape=False):
    self.value = value
    self.dtype = _dtypes.as_dtype(dtype)
    self._verify_shape = verify_shape

  def __call__(self, shape, dtype=None, partition_info=None, verify_shape=None):
    if dtype is None:
      dtype = self.dtype
    if verify_shape is None:
      verify_shape = self._verify_shape
    return _constant_op.constant(self.value, dtype=dtype, shape=shape, verify_shape=verify_shape)

  def get_config(self):
    return {"value": self.value, "dtype": self.dtype.name}


class RandomUniform(Initializer):
  def __init__(self, minval=0, maxval=None, seed=None, dtype=_dtypes.float32):
    self.minval = minval
    self.maxval = maxval
    self.seed = seed
    self.dtype = _dtypes.as_dtype(dtype)

  def __call__(self, shape, dtype=None, partition_info=None):
    if dtype is None:
      dtype = self.dtype
    return _random_ops.random_uniform(shape, self.minval, self.maxval, dtype, seed=self.seed)

  def get_config(self):
    return {"minval": self.minval, "maxval": self.maxval, "seed": self.seed,
            "dtype": self.dtype.name}


class _Normal(Initializer):
  """Shared body of the normal initializers; subclasses pick the sampling op."""
  _sample = None

  def __init__(self, mean=0.0, stddev=1.0, seed=None, dtype=_dtypes.float32):
    self.mean = mean
    self.stddev = stddev
    self.seed = seed
    self.dtype = _assert_float_dtype(_dtypes.as_dtype(dtype))

  def __call__(self, shape, dtype=None, partition_info=None):
    if dtype is None:
      dtype = self.dtype
    return self._sample(shape, self.mean, self.stddev, dtype, seed=self.seed)

  def get_config(self):
    return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed,
            "dtype": self.dtype.name}


class RandomNormal(_Normal):
  """Initializer drawing from a normal distribution (mean, stddev)."""
  _sample = staticmethod(lambda *a, **k: _random_ops.random_normal(*a, **k))


class TruncatedNormal(_Normal):
  """Like RandomNormal, with values more than two stddevs from the mean redrawn."""
  _sample = staticmethod(lambda *a, **k: _random_ops.truncated_normal(*a, **k))


def _compute_fans(shape):
  if len(shape) < 1:
    fan_in = fan_out = 1
  elif len(shape) == 1:
    fan_in = fan_out = shape[0]
  elif len(shape) == 2:
    fan_in, fan_out = shape[0], shape[1]
  else:
    receptive_field_size = 1
    for dim in shape[:-2]:
      receptive_field_size *= dim
    fan_in = shape[-2] * receptive_field_size
    fan_out = shape[-1] * receptive_field_size
  return int(fan_in), int(fan_out)


class VarianceScaling(Initializer):
  def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal", seed=None,
               dtype=_dtypes.float32):
    if scale <= 0.:
      raise ValueError("`scale` must be positive float.")
    if mode not in {"fan_in", "fan_out", "fan_avg"}:
      raise ValueError("Invalid `mode` argument:", mode)
    distribution = distribution.lower()
    if distribution not in {"normal", "uniform", "truncated_normal", "untruncated_normal"}:
      raise ValueError("Invalid `distribution` argument:", distribution)
    self.scale = scale
    self.mode = mode
    self.distribution = distribution
    self.seed = seed
    self.dtype = _assert_float_dtype(_dtypes.as_dtype(dtype))

  def __call__(self, shape, dtype=None, partition_info=None):
    if dtype is None:
      dtype = self.dtype
    scale = self.scale
    scale_shape = shape
    if partition_info is not None:
      scale_shape = partition_info.full_shape
    fan_in, fan_out = _compute_fans(scale_shape)
    if self.mode == "fan_in":
      scale /= max(1., fan_in)
    elif self.mode == "fan_out":
      scale /= max(1., fan_out)
    else:
      scale /= max(1., (fan_in + fan_out) / 2.)
    if self.distribution in ("normal", "truncated_normal"):
      stddev = math.sqrt(scale) / .87962566103423978
      return _random_ops.truncated_normal(shape, 0.0, stddev, dtype, seed=self.seed)
    if self.distribution == "untruncated_normal":
      stddev = math.sqrt(scale)
      return _random_ops.random_normal(shape, 0.0, stddev, dtype, seed=self.seed)
    limit = math.sqrt(3.0 * scale)
    return _random_ops.random_uniform(shape, -limit, limit, dtype, seed=self.seed)

  def get_config(self):
    return {"scale": self.scale, "mode": self.mode, "distribution": self.distribution,
            "seed": self.seed, "dtype": self.dtype.name}


class GlorotUniform(VarianceScaling):
  def __init__(self, seed=None, dtype=_dtypes.float32):
    super(GlorotUniform, self).__init__(scale=1.0, mode="fan_avg", distribution="uniform",
                                        seed=seed, dtype=dtype)

  def get_config(self):
    return {"seed": self.seed, "dtype": self.dtype.name}


class GlorotNormal(VarianceScaling):
  def __init__(self, seed=None, dtype=_dtypes.float32):
    super(GlorotNormal, self).__init__(scale=1.0, mode="fan_avg",
                                       distribution="truncated_normal", seed=seed, dtype=dtype)

  def get_config(self):
    return {"seed": self.seed, "dtype": self.dtype.name}


def lecun_normal(seed=None):
  return VarianceScaling(scale=1., mode="fan_in", distribution="truncated_normal", seed=seed)


def lecun_uniform(seed=None):
  return VarianceScaling(scale=1., mode="fan_in", distribution="uniform", seed=seed)


def he_normal(seed=None):
  return VarianceScaling(scale=2., mode="fan_in", distribution="truncated_normal", seed=seed)


def he_uniform(seed=None):
  return VarianceScaling(scale=2., mode="fan_in", distribution="uniform", seed=seed)


class Orthogonal(Initializer):
  """An orthogonal matrix (of the shape flattened to [prod(shape[:-1]), shape[-1]]),
  times `gain`: the Q of the QR decomposition of a standard-normal matrix, its
  columns' signs fixed by R's diagonal (as TF 1.15)."""

  def __init__(self, gain=1.0, seed=None, dtype=_dtypes.float32):
    self.gain = gain
    self.seed = seed
    self.dtype = _assert_float_dtype(_dtypes.as_dtype(dtype))

  def __call__(self, shape, dtype=None, partition_info=None):
    from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
    from tfc.ops import linalg_impl  # pylint: disable=g-import-not-at-top
    from tfc.ops import linalg_ops  # pylint: disable=g-import-not-at-top
    from tfc.ops import math_ops  # pylint: disable=g-import-not-at-top
    dtype = _assert_float_dtype(_dtypes.as_dtype(dtype or self.dtype))
    shape = list(shape)
    if len(shape) < 2:
      raise ValueError("The tensor to initialize must be at least two-dimensional")
    num_rows = 1
    for dim in shape[:-1]:
      num_rows *= dim
    num_cols = shape[-1]
    flat_shape = (num_cols, num_rows) if num_rows < num_cols else (num_rows, num_cols)
    a = _random_ops.random_normal(flat_shape, dtype=dtype, seed=self.seed)
    q, r = linalg_impl.qr(a, full_matrices=False)
    q *= math_ops.sign(linalg_ops.matrix_diag_part(r))
    if num_rows < num_cols:
      q = array_ops.matrix_transpose(q)
    return self.gain * array_ops.reshape(q, shape)

  def get_config(self):
    return {"gain": self.gain, "seed": self.seed, "dtype": self.dtype.name}


zeros_initializer = Zeros
ones_initializer = Ones
constant_initializer = Constant
random_uniform_initializer = RandomUniform
random_normal_initializer = RandomNormal
truncated_normal_initializer = TruncatedNormal
variance_scaling_initializer = VarianceScaling
glorot_uniform_initializer = GlorotUniform
glorot_normal_initializer = GlorotNormal
orthogonal_initializer = Orthogonal
