"""tf.distributions.Distribution, ReparameterizationType and KL registration (TF 1.15's
graph-mode distributions API)."""
import contextlib

import numpy as np

import tfc as _tf
from tfc.framework import tensor_shape as _tensor_shape


class ReparameterizationType(object):
  """Whether samples are reparameterized (differentiable in the parameters)."""

  def __init__(self, rep_type):
    self._rep_type = rep_type

  def __repr__(self):
    return "<Reparameteriation Type: %s>" % self._rep_type

  def __eq__(self, other):
    return self is other

  def __hash__(self):
    return id(self)


FULLY_REPARAMETERIZED = ReparameterizationType("FULLY_REPARAMETERIZED")
NOT_REPARAMETERIZED = ReparameterizationType("NOT_REPARAMETERIZED")


class Distribution(object):
  """Base class of probability distributions (TF 1.15 tf.distributions.Distribution).

  Subclasses implement `_batch_shape`, `_event_shape` (static TensorShapes) and their
  `_batch_shape_tensor`, `_sample_n(n, seed)` and whichever of `_log_prob`, `_prob`,
  `_cdf`, `_log_cdf`, `_entropy`, `_mean`, `_variance`, `_stddev`, `_mode` they have;
  the public methods add name scopes, convert arguments, and derive prob from log_prob,
  stddev from variance and so on. A method a distribution lacks raises
  NotImplementedError, as in TF.
  """

  def __init__(self, dtype, reparameterization_type, validate_args, allow_nan_stats,
               parameters=None, graph_parents=None, name=None):
    self._dtype = dtype
    self._reparameterization_type = reparameterization_type
    self._validate_args = validate_args
    self._allow_nan_stats = allow_nan_stats
    self._parameters = dict(parameters or {})
    self._parameters.pop("self", None)
    self._graph_parents = list(graph_parents or [])
    self._name = name or type(self).__name__

  # properties -------------------------------------------------------------
  @property
  def name(self):
    return self._name

  @property
  def dtype(self):
    return self._dtype

  @property
  def parameters(self):
    return {k: v for k, v in self._parameters.items() if not k.startswith("__")}

  @property
  def reparameterization_type(self):
    return self._reparameterization_type

  @property
  def allow_nan_stats(self):
    return self._allow_nan_stats

  @property
  def validate_args(self):
    return self._validate_args

  @property
  def batch_shape(self):
    return _tensor_shape.TensorShape(self._batch_shape())

  @property
  def event_shape(self):
    return _tensor_shape.TensorShape(self._event_shape())

  def _event_shape(self):
    return _tensor_shape.TensorShape([])

  def _event_shape_tensor(self):
    return _tf.constant([], dtype=_tf.int32)

  def batch_shape_tensor(self, name="batch_shape_tensor"):
    with self._scope(name):
      if self.batch_shape.is_fully_defined():
        return _tf.constant(self.batch_shape.as_list(), dtype=_tf.int32, name="batch_shape")
      return self._batch_shape_tensor()

  def event_shape_tensor(self, name="event_shape_tensor"):
    with self._scope(name):
      if self.event_shape.is_fully_defined():
        return _tf.constant(self.event_shape.as_list(), dtype=_tf.int32, name="event_shape")
      return self._event_shape_tensor()

  def is_scalar_event(self, name="is_scalar_event"):
    with self._scope(name):
      return _tf.constant(self.event_shape.ndims == 0, name="is_scalar_event")

  def is_scalar_batch(self, name="is_scalar_batch"):
    with self._scope(name):
      return _tf.constant(self.batch_shape.ndims == 0, name="is_scalar_batch")

  def copy(self, **override_parameters_kwargs):
    """A new distribution of the same class with some parameters replaced."""
    params = dict(self.parameters)
    params.update(override_parameters_kwargs)
    return type(self)(**params)

  # helpers ----------------------------------------------------------------
  @contextlib.contextmanager
  def _scope(self, name):
    """Ops of a method go under <distribution name>/<method name>/."""
    with _tf.name_scope(self.name):
      with _tf.name_scope(name) as scope:
        yield scope

  def _convert(self, value):
    return _tf.convert_to_tensor(value, dtype=self.dtype, name="value")

  # sampling ---------------------------------------------------------------
  def sample(self, sample_shape=(), seed=None, name="sample"):
    """Samples of shape sample_shape + batch_shape + event_shape."""
    with self._scope(name):
      sample_shape = _tf.convert_to_tensor(sample_shape, dtype=_tf.int32, name="sample_shape")
      static = _tf.get_static_value(sample_shape)
      flat = _tf.reshape(sample_shape, [-1])
      n = _tf.reduce_prod(flat)
      samples = self._sample_n(n, seed)
      out_shape = _tf.concat([flat, _tf.shape(samples)[1:]], 0)
      result = _tf.reshape(samples, out_shape)
      if static is not None:
        result.set_shape(_tensor_shape.TensorShape(np.reshape(static, [-1]).tolist())
                         .concatenate(self.batch_shape).concatenate(self.event_shape))
      return result

  def _sample_n(self, n, seed=None):
    raise NotImplementedError("sample_n is not implemented: %s" % type(self).__name__)

  # densities --------------------------------------------------------------
  def log_prob(self, value, name="log_prob"):
    with self._scope(name):
      value = self._convert(value)
      if type(self)._log_prob is not Distribution._log_prob:
        return self._log_prob(value)
      return _tf.log(self._prob(value))

  def prob(self, value, name="prob"):
    with self._scope(name):
      value = self._convert(value)
      if type(self)._prob is not Distribution._prob:
        return self._prob(value)
      return _tf.exp(self._log_prob(value))

  def log_cdf(self, value, name="log_cdf"):
    with self._scope(name):
      value = self._convert(value)
      if type(self)._log_cdf is not Distribution._log_cdf:
        return self._log_cdf(value)
      return _tf.log(self._cdf(value))

  def cdf(self, value, name="cdf"):
    with self._scope(name):
      value = self._convert(value)
      if type(self)._cdf is not Distribution._cdf:
        return self._cdf(value)
      return _tf.exp(self._log_cdf(value))

  def log_survival_function(self, value, name="log_survival_function"):
    with self._scope(name):
      value = self._convert(value)
      return _tf.log1p(-self.cdf(value))

  def survival_function(self, value, name="survival_function"):
    with self._scope(name):
      value = self._convert(value)
      return 1.0 - self.cdf(value)

  def _log_prob(self, value):
    raise NotImplementedError("log_prob is not implemented: %s" % type(self).__name__)

  def _prob(self, value):
    raise NotImplementedError("prob is not implemented: %s" % type(self).__name__)

  def _log_cdf(self, value):
    raise NotImplementedError("log_cdf is not implemented: %s" % type(self).__name__)

  def _cdf(self, value):
    raise NotImplementedError("cdf is not implemented: %s" % type(self).__name__)

  # statistics -------------------------------------------------------------
  def entropy(self, name="entropy"):
    with self._scope(name):
      return self._entropy()

  def mean(self, name="mean"):
    with self._scope(name):
      return self._mean()

  def mode(self, name="mode"):
    with self._scope(name):
      return self._mode()

  def quantile(self, value, name="quantile"):
    with self._scope(name):
      return self._quantile(self._convert(value))

  def variance(self, name="variance"):
    with self._scope(name):
      try:
        return self._variance()
      except NotImplementedError:
        return _tf.square(self._stddev())

  def stddev(self, name="stddev"):
    with self._scope(name):
      try:
        return self._stddev()
      except NotImplementedError:
        return _tf.sqrt(self._variance())

  def covariance(self, name="covariance"):
    with self._scope(name):
      return self._covariance()

  def cross_entropy(self, other, name="cross_entropy"):
    """H[self, other] = entropy(self) + KL(self || other)."""
    with self._scope(name):
      return self._entropy() + kl_divergence(self, other)

  def kl_divergence(self, other, name="kl_divergence"):
    with self._scope(name):
      return kl_divergence(self, other)

  def _entropy(self):
    raise NotImplementedError("entropy is not implemented: %s" % type(self).__name__)

  def _mean(self):
    raise NotImplementedError("mean is not implemented: %s" % type(self).__name__)

  def _mode(self):
    raise NotImplementedError("mode is not implemented: %s" % type(self).__name__)

  def _quantile(self, value):
    raise NotImplementedError("quantile is not implemented: %s" % type(self).__name__)

  def _variance(self):
    raise NotImplementedError("variance is not implemented: %s" % type(self).__name__)

  def _stddev(self):
    raise NotImplementedError("stddev is not implemented: %s" % type(self).__name__)

  def _covariance(self):
    raise NotImplementedError("covariance is not implemented: %s" % type(self).__name__)

  def __str__(self):
    return ("tf.distributions.%s(\"%s\", batch_shape=%s, event_shape=%s, dtype=%s)"
            % (type(self).__name__, self.name, self.batch_shape, self.event_shape,
               self.dtype.name if self.dtype is not None else None))

  def __repr__(self):
    return ("<tf.distributions.%s '%s' batch_shape=%s event_shape=%s dtype=%s>"
            % (type(self).__name__, self.name, self.batch_shape, self.event_shape,
               self.dtype.name if self.dtype is not None else None))


# ----------------------------------------------------------------------- KL

_DIVERGENCES = {}


class RegisterKL(object):
  """Decorator registering kl_fn(a, b, name=None) as KL(a || b) for two distribution
  classes (subclasses use the closest registered pair)."""

  def __init__(self, dist_cls_a, dist_cls_b):
    self._key = (dist_cls_a, dist_cls_b)

  def __call__(self, kl_fn):
    if not callable(kl_fn):
      raise TypeError("kl_fn must be callable, received: %s" % kl_fn)
    if self._key in _DIVERGENCES:
      raise ValueError("KL(%s || %s) has already been registered to: %s"
                       % (self._key[0].__name__, self._key[1].__name__,
                          _DIVERGENCES[self._key]))
    _DIVERGENCES[self._key] = kl_fn
    return kl_fn


def _registered_kl(type_a, type_b):
  best, best_dist = None, None
  for i, a in enumerate(type_a.__mro__):
    for j, b in enumerate(type_b.__mro__):
      fn = _DIVERGENCES.get((a, b))
      if fn is not None and (best_dist is None or i + j < best_dist):
        best, best_dist = fn, i + j
  return best


def kl_divergence(distribution_a, distribution_b, allow_nan_stats=True, name=None):
  """KL(distribution_a || distribution_b) through the registered function for their
  classes (NotImplementedError when there is none). With allow_nan_stats=False a NaN
  result fails the run (InvalidArgumentError)."""
  fn = _registered_kl(type(distribution_a), type(distribution_b))
  if fn is None:
    raise NotImplementedError("No KL(distribution_a || distribution_b) registered for "
                              "distribution_a type %s and distribution_b type %s"
                              % (type(distribution_a).__name__, type(distribution_b).__name__))
  with _tf.name_scope(name, "KullbackLeibler"):
    kl_t = fn(distribution_a, distribution_b, name=None)
    if allow_nan_stats:
      return kl_t
    kl_t = _tf.identity(kl_t, name="kl")
    with _tf.control_dependencies([_tf.Assert(
        _tf.logical_not(_tf.reduce_any(_tf.is_nan(kl_t))),
        ["KL calculation between %s and %s returned NaN values (and was called with "
         "allow_nan_stats=False). Values:" % (distribution_a.name, distribution_b.name),
         kl_t])]):
      return _tf.identity(kl_t, name="checked_kl")
