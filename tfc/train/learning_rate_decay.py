"""Learning-rate schedules of TF 1.15 (`tf.train.exponential_decay`, ...), in graph mode."""
from tfc import dtypes as _dtypes
from tfc.framework import ops as _ops
from tfc.ops import array_ops as _array_ops
from tfc.ops import math_ops as _math_ops


def _check_step(global_step, fn):
  if global_step is None:
    raise ValueError("global_step is required for %s." % fn)


def exponential_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False,
                      name=None):
  """learning_rate * decay_rate ^ (global_step / decay_steps) (floor'd when staircase)."""
  _check_step(global_step, "exponential_decay")
  with _ops.name_scope(name, "ExponentialDecay",
                       [learning_rate, global_step, decay_steps, decay_rate]) as name:
    lr = _ops.convert_to_tensor(learning_rate, name="initial_learning_rate")
    dtype = lr.dtype
    decay_steps = _math_ops.cast(decay_steps, dtype)
    decay_rate = _math_ops.cast(decay_rate, dtype)
    p = _math_ops.cast(global_step, dtype) / decay_steps
    if staircase:
      p = _math_ops.floor(p)
    return _math_ops.multiply(lr, _math_ops.pow(decay_rate, p), name=name)


def natural_exp_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False,
                      name=None):
  """learning_rate * exp(-decay_rate * global_step / decay_steps)."""
  _check_step(global_step, "natural_exp_decay")
  with _ops.name_scope(name, "NaturalExpDecay",
                       [learning_rate, global_step, decay_rate]) as name:
    lr = _ops.convert_to_tensor(learning_rate, name="initial_learning_rate")
    dtype = lr.dtype
    decay_steps = _math_ops.cast(decay_steps, dtype)
    decay_rate = _math_ops.cast(decay_rate, dtype)
    p = _math_ops.cast(global_step, dtype) / decay_steps
    if staircase:
      p = _math_ops.floor(p)
    return _math_ops.multiply(lr, _math_ops.exp(_math_ops.negative(decay_rate) * p), name=name)


def inverse_time_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False,
                       name=None):
  """learning_rate / (1 + decay_rate * global_step / decay_steps)."""
  _check_step(global_step, "inverse_time_decay")
  with _ops.name_scope(name, "InverseTimeDecay", [learning_rate, global_step, decay_rate]) as name:
    lr = _ops.convert_to_tensor(learning_rate, name="initial_learning_rate")
    dtype = lr.dtype
    decay_steps = _math_ops.cast(decay_steps, dtype)
    decay_rate = _math_ops.cast(decay_rate, dtype)
    p = _math_ops.cast(global_step, dtype) / decay_steps
    if staircase:
      p = _math_ops.floor(p)
    const = _math_ops.cast(_ops.convert_to_tensor(1), dtype)
    denom = _math_ops.add(const, _math_ops.multiply(decay_rate, p))
    return _math_ops.divide(lr, denom, name=name)


def polynomial_decay(learning_rate, global_step, decay_steps, end_learning_rate=0.0001,
                     power=1.0, cycle=False, name=None):
  """(lr - end) * (1 - min(step, decay_steps) / decay_steps) ^ power + end."""
  _check_step(global_step, "polynomial_decay")
  with _ops.name_scope(name, "PolynomialDecay",
                       [learning_rate, global_step, decay_steps, end_learning_rate,
                        power]) as name:
    lr = _ops.convert_to_tensor(learning_rate, name="initial_learning_rate")
    dtype = lr.dtype
    end_lr = _math_ops.cast(end_learning_rate, dtype)
    power = _math_ops.cast(power, dtype)
    step = _math_ops.cast(global_step, dtype)
    decay_steps_recomp = _math_ops.cast(decay_steps, dtype)
    if cycle:
      multiplier = _array_ops.where(_math_ops.equal(step, 0),
                                    _array_ops.ones_like(step),
                                    _math_ops.ceil(step / decay_steps_recomp))
      decay_steps_recomp = _math_ops.multiply(decay_steps_recomp, multiplier)
    else:
      step = _math_ops.minimum(step, decay_steps_recomp)
    p = _math_ops.divide(step, decay_steps_recomp)
    return _math_ops.add(_math_ops.multiply(lr - end_lr, _math_ops.pow(1 - p, power)), end_lr,
                         name=name)


def piecewise_constant(x, boundaries, values, name=None):
  """values[0] while x <= boundaries[0], values[i] on (boundaries[i-1], boundaries[i]],
  values[-1] after boundaries[-1]."""
  if len(boundaries) != len(values) - 1:
    raise ValueError("The length of boundaries should be 1 less than the length of values")
  with _ops.name_scope(name, "PiecewiseConstant", [x, boundaries, values, name]) as name:
    x_recomp = _ops.convert_to_tensor(x)
    bds = []
    for b in boundaries:
      b = _ops.convert_to_tensor(b)
      if b.dtype.base_dtype != x_recomp.dtype.base_dtype:
        if b.dtype.base_dtype == _dtypes.int32 and x_recomp.dtype.base_dtype == _dtypes.int64:
          b = _math_ops.cast(b, x_recomp.dtype.base_dtype)
        else:
          raise ValueError("Boundaries (%s) must have the same dtype as x (%s)." %
                           (b.dtype.base_dtype, x_recomp.dtype.base_dtype))
      bds.append(b)
    vals = [_ops.convert_to_tensor(v) for v in values]
    for v in vals[1:]:
      if v.dtype.base_dtype != vals[0].dtype.base_dtype:
        raise ValueError("Values must have elements all with the same dtype (%s vs %s)." %
                         (vals[0].dtype.base_dtype, v.dtype.base_dtype))
    result = vals[-1]
    for i in range(len(bds) - 1, -1, -1):
      last = i == 0
      result = _array_ops.where(_math_ops.less_equal(x_recomp, bds[i]), vals[i], result,
                                name=name if last else None)
    if not bds:
      result = _array_ops.identity(result, name=name)
    return result


piecewise_constant_decay = piecewise_constant


def _schedule_inputs(learning_rate, global_step, decay_steps, fn):
  """(initial rate, step, decay_steps) as tensors of the rate's dtype."""
  _check_step(global_step, fn)
  lr = _ops.convert_to_tensor(learning_rate, name="initial_learning_rate")
  dtype = lr.dtype.base_dtype
  return lr, _math_ops.cast(global_step, dtype), _math_ops.cast(decay_steps, dtype)


def _half_cosine(fraction, dtype):
  """0.5 * (1 + cos(pi * fraction))."""
  import math  # pylint: disable=g-import-not-at-top
  pi = _ops.convert_to_tensor(math.pi, dtype=dtype)
  return 0.5 * (1.0 + _math_ops.cos(pi * fraction))


def cosine_decay(learning_rate, global_step, decay_steps, alpha=0.0, name=None):
  """learning_rate * ((1 - alpha) * 0.5 * (1 + cos(pi * min(step, decay_steps) /
  decay_steps)) + alpha) (SGDR without restarts)."""
  with _ops.name_scope(name, "CosineDecay", [learning_rate, global_step]) as name:
    lr, step, decay_steps = _schedule_inputs(learning_rate, global_step, decay_steps,
                                             "cosine_decay")
    fraction = _math_ops.minimum(step, decay_steps) / decay_steps
    decayed = (1 - alpha) * _half_cosine(fraction, lr.dtype.base_dtype) + alpha
    return _math_ops.multiply(lr, decayed, name=name)


def cosine_decay_restarts(learning_rate, global_step, first_decay_steps, t_mul=2.0, m_mul=1.0,
                          alpha=0.0, name=None):
  """Cosine decay with warm restarts (SGDR): the i-th period lasts first_decay_steps *
  t_mul ** i steps and starts from learning_rate * m_mul ** i."""
  with _ops.name_scope(name, "SGDRDecay", [learning_rate, global_step]) as name:
    lr, step, first = _schedule_inputs(learning_rate, global_step, first_decay_steps,
                                       "cosine_decay_restarts")
    dtype = lr.dtype.base_dtype
    t_mul = _math_ops.cast(t_mul, dtype)
    m_mul = _math_ops.cast(m_mul, dtype)
    fraction = step / first
    # equal periods (t_mul == 1): the restart index is the whole number of periods done
    flat_restart = _math_ops.floor(fraction)
    flat_fraction = fraction - flat_restart
    # growing periods: invert the geometric sum of the period lengths
    geo_restart = _math_ops.floor(_math_ops.log(1.0 - fraction * (1.0 - t_mul))
                                  / _math_ops.log(t_mul))
    done = (1.0 - _math_ops.pow(t_mul, geo_restart)) / (1.0 - t_mul)
    geo_fraction = (fraction - done) / _math_ops.pow(t_mul, geo_restart)
    flat = _math_ops.equal(t_mul, 1.0)
    restart = _array_ops.where(flat, flat_restart, geo_restart)
    fraction = _array_ops.where(flat, flat_fraction, geo_fraction)
    cosine = _math_ops.pow(m_mul, restart) * _half_cosine(fraction, dtype)
    return _math_ops.multiply(lr, (1 - alpha) * cosine + alpha, name=name)


def linear_cosine_decay(learning_rate, global_step, decay_steps, num_periods=0.5, alpha=0.0,
                        beta=0.001, name=None):
  """learning_rate * ((alpha + (decay_steps - step) / decay_steps) * 0.5 * (1 + cos(2 pi
  num_periods step / decay_steps)) + beta), step capped at decay_steps."""
  with _ops.name_scope(name, "LinearCosineDecay", [learning_rate, global_step]) as name:
    lr, step, decay_steps = _schedule_inputs(learning_rate, global_step, decay_steps,
                                             "linear_cosine_decay")
    step = _math_ops.minimum(step, decay_steps)
    linear = (decay_steps - step) / decay_steps
    cosine = _half_cosine(2.0 * num_periods * (step / decay_steps), lr.dtype.base_dtype)
    return _math_ops.multiply(lr, (alpha + linear) * cosine + beta, name=name)


def noisy_linear_cosine_decay(learning_rate, global_step, decay_steps, initial_variance=1.0,
                              variance_decay=0.55, num_periods=0.5, alpha=0.0, beta=0.001,
                              name=None):
  """linear_cosine_decay with Gaussian noise of variance initial_variance / (1 + step) **
  variance_decay added to the linear part."""
  from tfc.ops import random_ops  # pylint: disable=g-import-not-at-top
  with _ops.name_scope(name, "NoisyLinearCosineDecay", [learning_rate, global_step]) as name:
    lr, step, decay_steps = _schedule_inputs(learning_rate, global_step, decay_steps,
                                             "noisy_linear_cosine_decay")
    dtype = lr.dtype.base_dtype
    step = _math_ops.minimum(step, decay_steps)
    initial_variance = _math_ops.cast(initial_variance, dtype)
    variance_decay = _math_ops.cast(variance_decay, dtype)
    variance = initial_variance / _math_ops.pow(1.0 + step, variance_decay)
    linear = (decay_steps - step) / decay_steps
    noisy = linear + random_ops.random_normal(_array_ops.shape(linear),
                                              stddev=_math_ops.sqrt(variance), dtype=dtype)
    cosine = _half_cosine(2.0 * num_periods * (step / decay_steps), dtype)
    return _math_ops.multiply(lr, (alpha + noisy) * cosine + beta, name=name)
