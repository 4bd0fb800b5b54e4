"""TF 1.15's tf.distributions classes that tfc builds from its graph ops: Normal,
Bernoulli, Categorical, Uniform, Exponential, Laplace and Multinomial, with their KL
divergences."""
import math

import numpy as np

import tfc as _tf
from tfc.distributions import special_math as _special
from tfc.distributions.distribution import (Distribution, RegisterKL,
                                            FULLY_REPARAMETERIZED, NOT_REPARAMETERIZED)


def _broadcast_shape(*tensors):
  shape = tensors[0].shape
  for t in tensors[1:]:
    shape = _tf.broadcast_static_shape(shape, t.shape)
  return shape


def _broadcast_shape_tensor(*tensors):
  total = 0
  for t in tensors:
    total = total + _tf.zeros_like(t)
  return _tf.shape(total)


def _float_params(names_values, dtype=None):
  """Converts the parameters to tensors of one float dtype."""
  values = [v for _, v in names_values]
  if dtype is None:
    for v in values:
      if isinstance(v, (_tf.Tensor, _tf.Variable)) or hasattr(v, "dtype"):
        try:
          d = _tf.as_dtype(v.dtype).base_dtype
        except TypeError:
          continue
        if d.is_floating:
          dtype = d
          break
    dtype = dtype or _tf.float32
  return [_tf.convert_to_tensor(v, dtype=dtype, name=n) for n, v in names_values]


def _assert_positive(x, validate_args):
  if not validate_args:
    return x
  with _tf.control_dependencies([_tf.assert_positive(x)]):
    return _tf.identity(x)


class Normal(Distribution):
  """The normal distribution N(loc, scale**2) (reparameterized)."""

  def __init__(self, loc, scale, validate_args=False, allow_nan_stats=True, name="Normal"):
    parameters = dict(locals())
    with _tf.name_scope(name, values=[loc, scale]) as scope:
      self._loc, self._scale = _float_params([("loc", loc), ("scale", scale)])
      self._scale = _assert_positive(self._scale, validate_args)
    super(Normal, self).__init__(self._loc.dtype, FULLY_REPARAMETERIZED, validate_args,
                                 allow_nan_stats, parameters, [self._loc, self._scale],
                                 scope.rstrip("/"))

  @staticmethod
  def _param_shapes(sample_shape):
    s = _tf.convert_to_tensor(sample_shape, dtype=_tf.int32)
    return {"loc": s, "scale": s}

  @property
  def loc(self):
    return self._loc

  @property
  def scale(self):
    return self._scale

  def _batch_shape(self):
    return _broadcast_shape(self._loc, self._scale)

  def _batch_shape_tensor(self):
    return _broadcast_shape_tensor(self._loc, self._scale)

  def _sample_n(self, n, seed=None):
    shape = _tf.concat([[n], self.batch_shape_tensor()], 0)
    z = _tf.random_normal(shape, dtype=self.dtype, seed=seed)
    return z * self._scale + self._loc

  def _z(self, x):
    return (x - self._loc) / self._scale

  def _log_prob(self, x):
    return -0.5 * _tf.square(self._z(x)) - (0.5 * math.log(2 * math.pi) +
                                             _tf.log(self._scale))

  def _cdf(self, x):
    return _special.ndtr(self._z(x))

  def _log_cdf(self, x):
    return _special.log_ndtr(self._z(x))

  def _entropy(self):
    scale = self._scale * _tf.ones_like(self._loc)
    return 0.5 * math.log(2.0 * math.pi * math.e) + _tf.log(scale)

  def _mean(self):
    return self._loc * _tf.ones_like(self._scale)

  def _mode(self):
    return self._mean()

  def _stddev(self):
    return self._scale * _tf.ones_like(self._loc)


class Laplace(Distribution):
  """The Laplace distribution with location loc and scale (reparameterized)."""

  def __init__(self, loc, scale, validate_args=False, allow_nan_stats=True, name="Laplace"):
    parameters = dict(locals())
    with _tf.name_scope(name, values=[loc, scale]) as scope:
      self._loc, self._scale = _float_params([("loc", loc), ("scale", scale)])
      self._scale = _assert_positive(self._scale, validate_args)
    super(Laplace, self).__init__(self._loc.dtype, FULLY_REPARAMETERIZED, validate_args,
                                  allow_nan_stats, parameters, [self._loc, self._scale],
                                  scope.rstrip("/"))

  @property
  def loc(self):
    return self._loc

  @property
  def scale(self):
    return self._scale

  def _batch_shape(self):
    return _broadcast_shape(self._loc, self._scale)

  def _batch_shape_tensor(self):
    return _broadcast_shape_tensor(self._loc, self._scale)

  def _sample_n(self, n, seed=None):
    shape = _tf.concat([[n], self.batch_shape_tensor()], 0)
    tiny = np.finfo(self.dtype.as_numpy_dtype).tiny
    u = _tf.random_uniform(shape, minval=np.nextafter(-1.0, 0.0).astype(
        self.dtype.as_numpy_dtype), maxval=1.0, dtype=self.dtype, seed=seed)
    return self._loc - self._scale * _tf.sign(u) * _tf.log(_tf.maximum(1.0 - _tf.abs(u), tiny))

  def _log_prob(self, x):
    return -math.log(2.0) - _tf.log(self._scale) - _tf.abs(x - self._loc) / self._scale

  def _cdf(self, x):
    z = (x - self._loc) / self._scale
    return 0.5 - 0.5 * _tf.sign(z) * _tf.expm1(-_tf.abs(z))

  def _log_cdf(self, x):
    return _tf.log(self._cdf(x))

  def _entropy(self):
    return (math.log(2.0) + 1.0) + _tf.log(self._scale * _tf.ones_like(self._loc))

  def _mean(self):
    return self._loc * _tf.ones_like(self._scale)

  def _mode(self):
    return self._mean()

  def _stddev(self):
    return math.sqrt(2.0) * self._scale * _tf.ones_like(self._loc)


class Uniform(Distribution):
  """The uniform distribution on [low, high) (reparameterized)."""

  def __init__(self, low=0.0, high=1.0, validate_args=False, allow_nan_stats=True,
               name="Uniform"):
    parameters = dict(locals())
    with _tf.name_scope(name, values=[low, high]) as scope:
      self._low, self._high = _float_params([("low", low), ("high", high)])
      if validate_args:
        with _tf.control_dependencies([_tf.assert_less(
            self._low, self._high, message="uniform not well defined when low >= high.")]):
          self._low, self._high = _tf.identity(self._low), _tf.identity(self._high)
    super(Uniform, self).__init__(self._low.dtype, FULLY_REPARAMETERIZED, validate_args,
                                  allow_nan_stats, parameters, [self._low, self._high],
                                  scope.rstrip("/"))

  @property
  def low(self):
    return self._low

  @property
  def high(self):
    return self._high

  def range(self, name="range"):
    with self._scope(name):
      return self._high - self._low

  def _batch_shape(self):
    return _broadcast_shape(self._low, self._high)

  def _batch_shape_tensor(self):
    return _broadcast_shape_tensor(self._low, self._high)

  def _sample_n(self, n, seed=None):
    shape = _tf.concat([[n], self.batch_shape_tensor()], 0)
    u = _tf.random_uniform(shape, dtype=self.dtype, seed=seed)
    return self._low + (self._high - self._low) * u

  def _prob(self, x):
    inside = _tf.logical_and(x >= self._low, x < self._high)
    return _tf.where(inside, _tf.ones_like(x) / (self._high - self._low), _tf.zeros_like(x))

  def _cdf(self, x):
    ones = _tf.ones_like(x * (self._high - self._low))
    z = (x - self._low) / (self._high - self._low)
    return _tf.where(x < self._low, 0.0 * ones, _tf.where(x >= self._high, ones, z * ones))

  def _entropy(self):
    return _tf.log(self._high - self._low)

  def _mean(self):
    return (self._low + self._high) / 2.0

  def _variance(self):
    return _tf.square(self._high - self._low) / 12.0

  def _stddev(self):
    return (self._high - self._low) / math.sqrt(12.0)


class Exponential(Distribution):
  """The exponential distribution with the given rate (TF's Exponential; tfc's is not a
  Gamma subclass)."""

  def __init__(self, rate, validate_args=False, allow_nan_stats=True, name="Exponential"):
    parameters = dict(locals())
    with _tf.name_scope(name, values=[rate]) as scope:
      self._rate, = _float_params([("rate", rate)])
      self._rate = _assert_positive(self._rate, validate_args)
    super(Exponential, self).__init__(self._rate.dtype, FULLY_REPARAMETERIZED, validate_args,
                                      allow_nan_stats, parameters, [self._rate],
                                      scope.rstrip("/"))

  @property
  def rate(self):
    return self._rate

  def _batch_shape(self):
    return self._rate.shape

  def _batch_shape_tensor(self):
    return _tf.shape(self._rate)

  def _sample_n(self, n, seed=None):
    shape = _tf.concat([[n], _tf.shape(self._rate)], 0)
    tiny = np.finfo(self.dtype.as_numpy_dtype).tiny
    u = _tf.random_uniform(shape, minval=tiny, maxval=1.0, dtype=self.dtype, seed=seed)
    return -_tf.log(u) / self._rate

  def _log_prob(self, x):
    return _tf.log(self._rate) - self._rate * x

  def _cdf(self, x):
    return -_tf.expm1(-self._rate * x)

  def _entropy(self):
    return 1.0 - _tf.log(self._rate)

  def _mean(self):
    return 1.0 / self._rate

  def _mode(self):
    return _tf.zeros_like(self._rate)

  def _variance(self):
    return 1.0 / _tf.square(self._rate)


def _logits_and_probs(logits, probs, multidimensional, dtype=None):
  if (logits is None) == (probs is None):
    raise ValueError("Must pass probs or logits, but not both.")
  if probs is None:
    logits = _tf.convert_to_tensor(logits, dtype=dtype, name="logits")
    probs = _tf.nn.softmax(logits) if multidimensional else _tf.sigmoid(logits)
  else:
    probs = _tf.convert_to_tensor(probs, dtype=dtype, name="probs")
    logits = _tf.log(probs) if multidimensional else _tf.log(probs) - _tf.log1p(-probs)
  return logits, probs


class Bernoulli(Distribution):
  """The Bernoulli distribution of `logits` or `probs` (samples of `dtype`)."""

  def __init__(self, logits=None, probs=None, dtype=_tf.int32, validate_args=False,
               allow_nan_stats=True, name="Bernoulli"):
    parameters = dict(locals())
    with _tf.name_scope(name, values=[p for p in (logits, probs) if p is not None]) as scope:
      self._logits, self._probs = _logits_and_probs(logits, probs, False)
    super(Bernoulli, self).__init__(_tf.as_dtype(dtype), NOT_REPARAMETERIZED, validate_args,
                                    allow_nan_stats, parameters,
                                    [self._logits, self._probs], scope.rstrip("/"))

  @property
  def logits(self):
    return self._logits

  @property
  def probs(self):
    return self._probs

  def _batch_shape(self):
    return self._logits.shape

  def _batch_shape_tensor(self):
    return _tf.shape(self._logits)

  def _sample_n(self, n, seed=None):
    shape = _tf.concat([[n], _tf.shape(self._probs)], 0)
    u = _tf.random_uniform(shape, dtype=self._probs.dtype, seed=seed)
    return _tf.cast(u < self._probs, self.dtype)

  def _log_prob(self, x):
    x = _tf.cast(x, self._logits.dtype)
    logits = self._logits * _tf.ones_like(x)
    x = x * _tf.ones_like(logits)
    return -_tf.nn.sigmoid_cross_entropy_with_logits(labels=x, logits=logits)

  def _entropy(self):
    return (self._probs * _tf.nn.softplus(-self._logits)
            + (1.0 - self._probs) * _tf.nn.softplus(self._logits))

  def _mean(self):
    return _tf.identity(self._probs)

  def _variance(self):
    return self._probs * (1.0 - self._probs)

  def _mode(self):
    return _tf.cast(self._probs > 0.5, self.dtype)

  def log_prob(self, value, name="log_prob"):
    with self._scope(name):
      return self._log_prob(_tf.convert_to_tensor(value, name="value"))

  def prob(self, value, name="prob"):
    with self._scope(name):
      return _tf.exp(self._log_prob(_tf.convert_to_tensor(value, name="value")))

  def _cdf(self, x):
    x = _tf.cast(x, self._probs.dtype)
    ones = _tf.ones_like(x * self._probs)
    return _tf.where(x < 0.0, 0.0 * ones, _tf.where(x < 1.0, (1.0 - self._probs) * ones, ones))

  def cdf(self, value, name="cdf"):
    with self._scope(name):
      return self._cdf(_tf.convert_to_tensor(value, name="value"))


class Categorical(Distribution):
  """The categorical distribution over [0, K) given logits or probs of shape
  batch_shape + [K] (samples of `dtype`)."""

  def __init__(self, logits=None, probs=None, dtype=_tf.int32, validate_args=False,
               allow_nan_stats=True, name="Categorical"):
    parameters = dict(locals())
    with _tf.name_scope(name, values=[p for p in (logits, probs) if p is not None]) as scope:
      self._logits, self._probs = _logits_and_probs(logits, probs, True)
      self._event_size = _tf.shape(self._logits)[-1]
    super(Categorical, self).__init__(_tf.as_dtype(dtype), NOT_REPARAMETERIZED, validate_args,
                                      allow_nan_stats, parameters,
                                      [self._logits, self._probs], scope.rstrip("/"))

  @property
  def event_size(self):
    """The number of classes K (a scalar tensor)."""
    return self._event_size

  @property
  def logits(self):
    return self._logits

  @property
  def probs(self):
    return self._probs

  def _batch_shape(self):
    return self._logits.shape[:-1]

  def _batch_shape_tensor(self):
    return _tf.shape(self._logits)[:-1]

  def _sample_n(self, n, seed=None):
    logits_2d = _tf.reshape(self._logits, [-1, self._event_size])
    draws = _tf.multinomial(logits_2d, n, seed=seed)  # [batch, n]
    draws = _tf.cast(_tf.transpose(draws), self.dtype)
    return _tf.reshape(draws, _tf.concat([[n], self.batch_shape_tensor()], 0))

  def _log_prob(self, k):
    k = _tf.cast(k, _tf.int32)
    logits = self._logits
    # broadcast k against the batch shape
    k_b = k + _tf.zeros(_tf.shape(logits)[:-1], _tf.int32)
    logits_b = logits * _tf.ones_like(_tf.expand_dims(_tf.cast(k_b, logits.dtype), -1))
    flat = -_tf.nn.sparse_softmax_cross_entropy_with_logits(
        labels=_tf.reshape(k_b, [-1]), logits=_tf.reshape(logits_b, [-1, self._event_size]))
    return _tf.reshape(flat, _tf.shape(k_b))

  def log_prob(self, value, name="log_prob"):
    with self._scope(name):
      value = _tf.convert_to_tensor(value, name="value")
      return self._finish_shape(self._log_prob(value), value)

  def _finish_shape(self, out, value):
    k_b = _tf.cast(value, _tf.int32) + _tf.zeros(_tf.shape(self._logits)[:-1], _tf.int32)
    return _tf.reshape(out, _tf.shape(k_b))

  def prob(self, value, name="prob"):
    with self._scope(name):
      value = _tf.convert_to_tensor(value, name="value")
      return _tf.exp(self._finish_shape(self._log_prob(value), value))

  def _entropy(self):
    return -_tf.reduce_sum(_tf.nn.log_softmax(self._logits) * self._probs, axis=-1)

  def _mode(self):
    return _tf.cast(_tf.argmax(self._logits, axis=-1), self.dtype)


class Multinomial(Distribution):
  """The multinomial distribution of total_count draws over K classes given logits or
  probs (counts of shape batch_shape + [K], float)."""

  def __init__(self, total_count, logits=None, probs=None, validate_args=False,
               allow_nan_stats=True, name="Multinomial"):
    parameters = dict(locals())
    with _tf.name_scope(name, values=[total_count, logits, probs]) as scope:
      given = logits if logits is not None else probs
      dtype = _tf.as_dtype(getattr(given, "dtype", _tf.float32)).base_dtype \
          if hasattr(given, "dtype") else _tf.float32
      if not dtype.is_floating:
        dtype = _tf.float32
      self._total_count = _tf.convert_to_tensor(total_count, dtype=dtype, name="total_count")
      self._logits, self._probs = _logits_and_probs(logits, probs, True, dtype)
    super(Multinomial, self).__init__(dtype, NOT_REPARAMETERIZED, validate_args,
                                      allow_nan_stats, parameters,
                                      [self._total_count, self._logits, self._probs],
                                      scope.rstrip("/"))

  @property
  def total_count(self):
    return self._total_count

  @property
  def logits(self):
    return self._logits

  @property
  def probs(self):
    return self._probs

  def _batch_shape(self):
    return _tf.broadcast_static_shape(self._total_count.shape, self._logits.shape[:-1])

  def _batch_shape_tensor(self):
    return _broadcast_shape_tensor(self._total_count, self._logits[..., 0])

  def _event_shape(self):
    return self._logits.shape[-1:]

  def _event_shape_tensor(self):
    return _tf.shape(self._logits)[-1:]

  def _sample_n(self, n, seed=None):
    k = _tf.shape(self._logits)[-1]
    batch = self.batch_shape_tensor()
    logits = self._logits + _tf.zeros(_tf.concat([batch, [k]], 0), self.dtype)
    logits_2d = _tf.reshape(logits, [-1, k])
    counts_2d = _tf.reshape(self._total_count + _tf.zeros(batch, self.dtype), [-1])
    max_count = _tf.cast(_tf.reduce_max(counts_2d), _tf.int32)
    draws = _tf.multinomial(logits_2d, n * max_count, seed=seed)  # [B, n * max]
    draws = _tf.reshape(draws, [-1, n, max_count])
    valid = _tf.cast(_tf.range(max_count), self.dtype) < counts_2d[:, None, None]
    one_hot = _tf.one_hot(draws, k, dtype=self.dtype) * _tf.cast(valid, self.dtype)[..., None]
    counts = _tf.reduce_sum(one_hot, axis=2)  # [B, n, k]
    counts = _tf.transpose(counts, [1, 0, 2])
    return _tf.reshape(counts, _tf.concat([[n], batch, [k]], 0))

  def _log_prob(self, counts):
    log_coeff = _special.lgamma(self._total_count + 1.0) - _tf.reduce_sum(
        _special.lgamma(counts + 1.0), axis=-1)
    log_p = _tf.nn.log_softmax(self._logits)
    return log_coeff + _tf.reduce_sum(counts * log_p, axis=-1)

  def _mean(self):
    return self._total_count[..., None] * self._probs

  def _variance(self):
    return self._total_count[..., None] * self._probs * (1.0 - self._probs)


# ------------------------------------------------------------------------ KL

@RegisterKL(Normal, Normal)
def _kl_normal_normal(n_a, n_b, name=None):
  with _tf.name_scope(name, "kl_normal_normal"):
    var_a, var_b = _tf.square(n_a.scale), _tf.square(n_b.scale)
    ratio = var_a / var_b
    return (_tf.square(n_a.loc - n_b.loc) / (2.0 * var_b)
            + 0.5 * (ratio - 1.0 - _tf.log(ratio)))


@RegisterKL(Bernoulli, Bernoulli)
def _kl_bernoulli_bernoulli(a, b, name=None):
  with _tf.name_scope(name, "kl_bernoulli_bernoulli"):
    delta_sp_pos = _tf.nn.softplus(-b.logits) - _tf.nn.softplus(-a.logits)
    delta_sp_neg = _tf.nn.softplus(b.logits) - _tf.nn.softplus(a.logits)
    return _tf.sigmoid(a.logits) * delta_sp_pos + _tf.sigmoid(-a.logits) * delta_sp_neg


@RegisterKL(Categorical, Categorical)
def _kl_categorical_categorical(a, b, name=None):
  with _tf.name_scope(name, "kl_categorical_categorical"):
    log_a = _tf.nn.log_softmax(a.logits)
    log_b = _tf.nn.log_softmax(b.logits)
    return _tf.reduce_sum(_tf.nn.softmax(a.logits) * (log_a - log_b), axis=-1)


@RegisterKL(Uniform, Uniform)
def _kl_uniform_uniform(a, b, name=None):
  with _tf.name_scope(name, "kl_uniform_uniform"):
    inside = _tf.logical_and(b.low <= a.low, a.high <= b.high)
    value = _tf.log(b.high - b.low) - _tf.log(a.high - a.low)
    return _tf.where(inside, value, np.inf * _tf.ones_like(value))


@RegisterKL(Exponential, Exponential)
def _kl_exponential_exponential(a, b, name=None):
  with _tf.name_scope(name, "kl_exponential_exponential"):
    ratio = b.rate / a.rate
    return ratio - _tf.log(ratio) - 1.0
