"""TF 1.15's tf.distributions Gamma, Beta, StudentT, Dirichlet and DirichletMultinomial,
built from the Gamma sampler (`RandomGamma`, reparameterized through alpha) and the
gamma-family special functions, with TF's seeds so seeded samples equal TF's."""
import hashlib
import math

import numpy as np

import tfc as _tf
from tfc.distributions.distribution import (Distribution, RegisterKL, FULLY_REPARAMETERIZED,
                                            NOT_REPARAMETERIZED)
from tfc.distributions.distributions import (_broadcast_shape, _broadcast_shape_tensor,
                                             _float_params, _assert_positive)


def _gen_new_seed(seed, salt):
  """TF's distribution_util.gen_new_seed: a derived op seed (None stays None)."""
  if seed is None:
    return None
  string = (str(seed) + salt).encode("utf-8")
  return int(hashlib.md5(string).hexdigest()[:8], 16) & 0x7FFFFFFF


def _nan_where(cond, value, allow_nan_stats, message):
  """value where cond holds, NaN elsewhere (allow_nan_stats), else an assertion."""
  if allow_nan_stats:
    nan = _tf.fill(_tf.shape(value), np.array(np.nan, dtype=value.dtype.as_numpy_dtype))
    return _tf.where(cond, value, nan)
  with _tf.control_dependencies([_tf.Assert(_tf.reduce_all(cond), [message])]):
    return _tf.identity(value)


class Gamma(Distribution):
  """Gamma(concentration, rate): density x^(c-1) e^(-rate x) rate^c / Gamma(c)."""

  def __init__(self, concentration, rate, validate_args=False, allow_nan_stats=True,
               name="Gamma"):
    parameters = dict(locals())
    with _tf.name_scope(name, values=[concentration, rate]) as scope:
      self._concentration, self._rate = _float_params([("concentration", concentration),
                                                       ("rate", rate)])
      self._concentration = _assert_positive(self._concentration, validate_args)
      self._rate = _assert_positive(self._rate, validate_args)
    super(Gamma, self).__init__(self._concentration.dtype, FULLY_REPARAMETERIZED, validate_args,
                                allow_nan_stats, parameters, [self._concentration, self._rate],
                                scope.rstrip("/"))

  @property
  def concentration(self):
    return self._concentration

  @property
  def rate(self):
    return self._rate

  def _batch_shape(self):
    return _broadcast_shape(self._concentration, self._rate)

  def _batch_shape_tensor(self):
    return _broadcast_shape_tensor(self._concentration, self._rate)

  def _sample_n(self, n, seed=None):
    return _tf.random_gamma([n], self._concentration, beta=self._rate, dtype=self.dtype,
                            seed=seed)

  def _log_prob(self, x):
    c = self._concentration
    return ((c - 1.) * _tf.log(x) - self._rate * x) - (_tf.lgamma(c) - c * _tf.log(self._rate))

  def _cdf(self, x):
    return _tf.igamma(self._concentration, self._rate * x)

  def _entropy(self):
    c = self._concentration
    return c - _tf.log(self._rate) + _tf.lgamma(c) + (1. - c) * _tf.digamma(c)

  def _mean(self):
    return self._concentration / self._rate

  def _variance(self):
    return self._concentration / _tf.square(self._rate)

  def _stddev(self):
    return _tf.sqrt(self._concentration) / self._rate

  def _mode(self):
    mode = (self._concentration - 1.) / self._rate
    return _nan_where(self._concentration > 1., mode, self.allow_nan_stats,
                      "mode not defined when any concentration <= 1")


class Beta(Distribution):
  """Beta(concentration1, concentration0) on (0, 1): density
  x^(c1-1) (1-x)^(c0-1) / B(c1, c0)."""

  def __init__(self, concentration1=None, concentration0=None, validate_args=False,
               allow_nan_stats=True, name="Beta"):
    parameters = dict(locals())
    with _tf.name_scope(name, values=[concentration1, concentration0]) as scope:
      self._concentration1, self._concentration0 = _float_params(
          [("concentration1", concentration1), ("concentration0", concentration0)])
      self._concentration1 = _assert_positive(self._concentration1, validate_args)
      self._concentration0 = _assert_positive(self._concentration0, validate_args)
      self._total_concentration = self._concentration1 + self._concentration0
    super(Beta, self).__init__(self._concentration1.dtype, FULLY_REPARAMETERIZED, validate_args,
                               allow_nan_stats, parameters,
                               [self._concentration1, self._concentration0], scope.rstrip("/"))

  @property
  def concentration1(self):
    return self._concentration1

  @property
  def concentration0(self):
    return self._concentration0

  @property
  def total_concentration(self):
    return self._total_concentration

  def _batch_shape(self):
    return self._total_concentration.shape

  def _batch_shape_tensor(self):
    return _tf.shape(self._total_concentration)

  def _sample_n(self, n, seed=None):
    expanded_c1 = _tf.ones_like(self._total_concentration) * self._concentration1
    expanded_c0 = _tf.ones_like(self._total_concentration) * self._concentration0
    gamma1 = _tf.random_gamma([n], expanded_c1, dtype=self.dtype, seed=seed)
    gamma2 = _tf.random_gamma([n], expanded_c0, dtype=self.dtype,
                              seed=_gen_new_seed(seed, "beta"))
    return gamma1 / (gamma1 + gamma2)

  def _log_prob(self, x):
    c1, c0 = self._concentration1, self._concentration0
    return ((c1 - 1.) * _tf.log(x) + (c0 - 1.) * _tf.log1p(-x)) - (
        _tf.lgamma(c1) + _tf.lgamma(c0) - _tf.lgamma(self._total_concentration))

  def _cdf(self, x):
    return _tf.betainc(self._concentration1, self._concentration0, x)

  def _entropy(self):
    c1, c0, t = self._concentration1, self._concentration0, self._total_concentration
    lbeta = _tf.lgamma(c1) + _tf.lgamma(c0) - _tf.lgamma(t)
    return (lbeta - (c1 - 1.) * _tf.digamma(c1) - (c0 - 1.) * _tf.digamma(c0) +
            (t - 2.) * _tf.digamma(t))

  def _mean(self):
    return self._concentration1 / self._total_concentration

  def _variance(self):
    t = self._total_concentration
    return self._concentration1 * self._concentration0 / (_tf.square(t) * (t + 1.))

  def _mode(self):
    mode = (self._concentration1 - 1.) / (self._total_concentration - 2.)
    return _nan_where(_tf.logical_and(self._concentration1 > 1., self._concentration0 > 1.),
                      mode, self.allow_nan_stats, "Mode undefined for concentration <= 1.")


class StudentT(Distribution):
  """Student's t with df degrees of freedom, location loc and scale."""

  def __init__(self, df, loc, scale, validate_args=False, allow_nan_stats=True,
               name="StudentT"):
    parameters = dict(locals())
    with _tf.name_scope(name, values=[df, loc, scale]) as scope:
      self._df, self._loc, self._scale = _float_params([("df", df), ("loc", loc),
                                                        ("scale", scale)])
      self._df = _assert_positive(self._df, validate_args)
    super(StudentT, self).__init__(self._df.dtype, FULLY_REPARAMETERIZED, validate_args,
                                   allow_nan_stats, parameters,
                                   [self._df, self._loc, self._scale], scope.rstrip("/"))

  @property
  def df(self):
    return self._df

  @property
  def loc(self):
    return self._loc

  @property
  def scale(self):
    return self._scale

  def _batch_shape(self):
    return _broadcast_shape(self._df, self._loc, self._scale)

  def _batch_shape_tensor(self):
    return _broadcast_shape_tensor(self._df, self._loc, self._scale)

  def _sample_n(self, n, seed=None):
    shape = _tf.concat([[n], self.batch_shape_tensor()], 0)
    normal_sample = _tf.random_normal(shape, dtype=self.dtype, seed=seed)
    df = self._df * _tf.ones(self.batch_shape_tensor(), dtype=self.dtype)
    gamma_sample = _tf.random_gamma([n], 0.5 * df, beta=0.5, dtype=self.dtype,
                                    seed=_gen_new_seed(seed, salt="student_t"))
    samples = normal_sample * _tf.rsqrt(gamma_sample / df)
    return samples * self._scale + self._loc

  def _log_prob(self, x):
    y = (x - self._loc) / self._scale
    df = self._df
    log_unnormalized = -0.5 * (df + 1.) * _tf.log1p(_tf.square(y) / df)
    log_normalization = (_tf.log(_tf.abs(self._scale)) + 0.5 * _tf.log(df) +
                         0.5 * math.log(math.pi) + _tf.lgamma(0.5 * df) -
                         _tf.lgamma(0.5 * (df + 1.)))
    return log_unnormalized - log_normalization

  def _cdf(self, x):
    t = (x - self._loc) / _tf.abs(self._scale)
    x_t = self._df / (_tf.square(t) + self._df)
    neg_cdf = 0.5 * _tf.betainc(0.5 * self._df, 0.5 * _tf.ones_like(x_t), x_t)
    return _tf.where(t < 0., neg_cdf, 1. - neg_cdf)

  def _entropy(self):
    df = self._df * _tf.ones(self.batch_shape_tensor(), dtype=self.dtype)
    half = 0.5 * _tf.ones_like(df)
    lbeta = _tf.lgamma(0.5 * df) + _tf.lgamma(half) - _tf.lgamma(0.5 * df + half)
    return (0.5 * (df + 1.) * (_tf.digamma(0.5 * (df + 1.)) - _tf.digamma(0.5 * df)) +
            0.5 * _tf.log(df) + lbeta + _tf.log(_tf.abs(self._scale)))

  def _mean(self):
    mean = self._loc * _tf.ones(self.batch_shape_tensor(), dtype=self.dtype)
    df = self._df * _tf.ones_like(mean)
    return _nan_where(df > 1., mean, self.allow_nan_stats,
                      "mean not defined for components of df <= 1")

  def _variance(self):
    ones = _tf.ones(self.batch_shape_tensor(), dtype=self.dtype)
    df = self._df * ones
    denom = _tf.where(df > 2., df - 2., ones)
    var = _tf.square(self._scale) * ones * df / denom
    inf = _tf.fill(_tf.shape(var), np.array(np.inf, dtype=self.dtype.as_numpy_dtype))
    var = _tf.where(df > 2., var, inf)
    return _nan_where(df > 1., var, self.allow_nan_stats,
                      "variance not defined for components of df <= 1")

  def _mode(self):
    return self._loc * _tf.ones(self.batch_shape_tensor(), dtype=self.dtype)


class Dirichlet(Distribution):
  """Dirichlet(concentration) over the probability simplex of the last dimension."""

  def __init__(self, concentration, validate_args=False, allow_nan_stats=True,
               name="Dirichlet"):
    parameters = dict(locals())
    with _tf.name_scope(name, values=[concentration]) as scope:
      self._concentration, = _float_params([("concentration", concentration)])
      self._concentration = _assert_positive(self._concentration, validate_args)
      self._total_concentration = _tf.reduce_sum(self._concentration, -1)
    super(Dirichlet, self).__init__(self._concentration.dtype, FULLY_REPARAMETERIZED,
                                    validate_args, allow_nan_stats, parameters,
                                    [self._concentration, self._total_concentration],
                                    scope.rstrip("/"))

  @property
  def concentration(self):
    return self._concentration

  @property
  def total_concentration(self):
    return self._total_concentration

  def _batch_shape(self):
    return self._total_concentration.shape

  def _batch_shape_tensor(self):
    return _tf.shape(self._total_concentration)

  def _event_shape(self):
    return self._concentration.shape.with_rank_at_least(1)[-1:]

  def _event_shape_tensor(self):
    return _tf.shape(self._concentration)[-1:]

  def _sample_n(self, n, seed=None):
    gamma_sample = _tf.random_gamma(shape=[n], alpha=self._concentration, dtype=self.dtype,
                                    seed=seed)
    return gamma_sample / _tf.reduce_sum(gamma_sample, -1, keepdims=True)

  def _log_prob(self, x):
    c = self._concentration
    return _tf.reduce_sum((c - 1.) * _tf.log(x), -1) - _tf.lbeta(c)

  def _entropy(self):
    c, t = self._concentration, self._total_concentration
    k = _tf.cast(_tf.shape(c)[-1], self.dtype)
    return (_tf.lbeta(c) + (t - k) * _tf.digamma(t) -
            _tf.reduce_sum((c - 1.) * _tf.digamma(c), -1))

  def _mean(self):
    return self._concentration / self._total_concentration[..., None]

  def _variance(self):
    t = self._total_concentration[..., None]
    x = self._concentration / t
    return x * (1. - x) / (t + 1.)

  def _covariance(self):
    t = self._total_concentration[..., None, None]
    x = self._mean()
    cov = -_tf.matmul(x[..., None], x[..., None, :]) / (t + 1.)
    return _tf.linalg.set_diag(cov, self._variance())

  def _mode(self):
    k = _tf.cast(_tf.shape(self._concentration)[-1], self.dtype)
    mode = (self._concentration - 1.) / (self._total_concentration[..., None] - k)
    return _nan_where(_tf.reduce_all(self._concentration > 1., -1)[..., None] &
                      _tf.ones_like(mode, dtype=_tf.bool), mode, self.allow_nan_stats,
                      "Mode undefined when any concentration <= 1")


class DirichletMultinomial(Distribution):
  """Counts of total_count draws over K classes whose probabilities are drawn from
  Dirichlet(concentration) (counts of shape batch_shape + [K], float)."""

  def __init__(self, total_count, concentration, validate_args=False, allow_nan_stats=True,
               name="DirichletMultinomial"):
    parameters = dict(locals())
    with _tf.name_scope(name, values=[total_count, concentration]) as scope:
      self._total_count, self._concentration = _float_params(
          [("total_count", total_count), ("concentration", concentration)])
      self._concentration = _assert_positive(self._concentration, validate_args)
      self._total_concentration = _tf.reduce_sum(self._concentration, -1)
    super(DirichletMultinomial, self).__init__(
        self._concentration.dtype, NOT_REPARAMETERIZED, validate_args, allow_nan_stats,
        parameters, [self._total_count, self._concentration], scope.rstrip("/"))

  @property
  def total_count(self):
    return self._total_count

  @property
  def concentration(self):
    return self._concentration

  @property
  def total_concentration(self):
    return self._total_concentration

  def _batch_shape(self):
    return _tf.broadcast_static_shape(self._total_count.shape,
                                      self._total_concentration.shape)

  def _batch_shape_tensor(self):
    return _broadcast_shape_tensor(self._total_count, self._total_concentration)

  def _event_shape(self):
    return self._concentration.shape.with_rank_at_least(1)[-1:]

  def _event_shape_tensor(self):
    return _tf.shape(self._concentration)[-1:]

  def _sample_n(self, n, seed=None):
    n_draws = _tf.cast(self._total_count, dtype=_tf.int32)
    k = self.event_shape_tensor()[0]
    unnormalized_logits = _tf.reshape(
        _tf.log(_tf.random_gamma(shape=[n], alpha=self._concentration, dtype=self.dtype,
                                 seed=seed)), shape=[-1, k])
    draws = _tf.multinomial(logits=unnormalized_logits, num_samples=n_draws,
                            seed=_gen_new_seed(seed, salt="dirichlet_multinomial"))
    x = _tf.reduce_sum(_tf.one_hot(draws, depth=k), -2)
    final_shape = _tf.concat([[n], self.batch_shape_tensor(), [k]], 0)
    return _tf.cast(_tf.reshape(x, final_shape), self.dtype)

  def _log_prob(self, counts):
    counts = _tf.convert_to_tensor(counts, dtype=self.dtype, name="counts")
    ordered = _tf.lbeta(self._concentration + counts) - _tf.lbeta(self._concentration)
    log_comb = _tf.lgamma(self._total_count + 1.) - _tf.reduce_sum(_tf.lgamma(counts + 1.), -1)
    return ordered + log_comb

  def _mean(self):
    return self._total_count[..., None] * (self._concentration /
                                           self._total_concentration[..., None])

  def _variance_scale_term(self):
    c0 = self._total_concentration[..., None]
    return _tf.sqrt((1. + c0 / self._total_count[..., None]) / (1. + c0))

  def _variance(self):
    scale = self._variance_scale_term()
    x = scale * self._mean()
    return x * (self._total_count[..., None] * scale - x)

  def _covariance(self):
    x = self._variance_scale_term() * self._mean()
    outer = -_tf.matmul(x[..., None], x[..., None, :])
    return _tf.linalg.set_diag(outer, self._variance())


@RegisterKL(Gamma, Gamma)
def _kl_gamma_gamma(g0, g1, name=None):
  """KL(g0 || g1) of two Gamma distributions."""
  with _tf.name_scope(name, "kl_gamma_gamma",
                      values=[g0.concentration, g0.rate, g1.concentration, g1.rate]):
    return (((g0.concentration - g1.concentration) * _tf.digamma(g0.concentration)) +
            _tf.lgamma(g1.concentration) - _tf.lgamma(g0.concentration) +
            g1.concentration * _tf.log(g0.rate) - g1.concentration * _tf.log(g1.rate) +
            g0.concentration * (g1.rate / g0.rate - 1.))


@RegisterKL(Beta, Beta)
def _kl_beta_beta(d1, d2, name=None):
  """KL(d1 || d2) of two Beta distributions."""
  def lbeta(a, b):
    return _tf.lgamma(a) + _tf.lgamma(b) - _tf.lgamma(a + b)
  with _tf.name_scope(name, "kl_beta_beta", values=[]):
    return (lbeta(d2.concentration1, d2.concentration0) -
            lbeta(d1.concentration1, d1.concentration0) +
            (d1.concentration1 - d2.concentration1) * _tf.digamma(d1.concentration1) +
            (d1.concentration0 - d2.concentration0) * _tf.digamma(d1.concentration0) +
            (d2.total_concentration - d1.total_concentration) *
            _tf.digamma(d1.total_concentration))


@RegisterKL(Dirichlet, Dirichlet)
def _kl_dirichlet_dirichlet(d1, d2, name=None):
  """KL(d1 || d2) of two Dirichlet distributions."""
  with _tf.name_scope(name, "kl_dirichlet_dirichlet", values=[]):
    digamma_sum_d1 = _tf.digamma(_tf.reduce_sum(d1.concentration, -1, keepdims=True))
    digamma_diff = _tf.digamma(d1.concentration) - digamma_sum_d1
    concentration_diff = d1.concentration - d2.concentration
    return (_tf.reduce_sum(concentration_diff * digamma_diff, -1) -
            _tf.lbeta(d1.concentration) + _tf.lbeta(d2.concentration))
