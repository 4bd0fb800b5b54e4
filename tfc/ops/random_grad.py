"""Gradient functions of the random ops, as TF defines them: the Gamma samplers
differentiate through alpha (implicit reparameterization, `RandomGammaGrad`); the
other random ops and the seed helpers are not differentiable."""
from tfc import dtypes as _dtypes
from tfc.framework import ops as _ops
from tfc.ops.gradient_registry import RegisterGradient, NoGradient


def _add_leading_unit_dimensions(x, num_dimensions):
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  new_shape = array_ops.concat([array_ops.ones([num_dimensions], dtype=_dtypes.int32),
                                array_ops.shape(x)], axis=0)
  return array_ops.reshape(x, new_shape)


def _gamma_grad_alpha(alpha, sample, grad, num_sample_dimensions):
  """Sums grad * d sample / d alpha over the sample dimensions."""
  from tfc.framework.op_def_library import _apply_op  # pylint: disable=g-import-not-at-top
  from tfc.ops import math_ops  # pylint: disable=g-import-not-at-top
  alpha_broadcastable = _add_leading_unit_dimensions(alpha, num_sample_dimensions)
  partial_a = _apply_op("RandomGammaGrad", None, [alpha_broadcastable, sample]).outputs[0]
  return math_ops.reduce_sum(grad * partial_a, axis=math_ops.range(num_sample_dimensions))


@RegisterGradient("RandomGamma")
def _random_gamma_grad(op, grad):
  """d loss / d alpha of RandomGamma(shape, alpha); shape has no gradient."""
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  shape, alpha = op.inputs[0], op.inputs[1]
  with _ops.control_dependencies([grad]):
    num = array_ops.shape(shape)[0]
    return [None, _gamma_grad_alpha(alpha, op.outputs[0], grad, num)]


@RegisterGradient("StatelessRandomGammaV2")
def _stateless_random_gamma_v2_grad(op, grad):
  """d loss / d alpha of StatelessRandomGammaV2(shape, seed, alpha)."""
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  shape, alpha = op.inputs[0], op.inputs[2]
  with _ops.control_dependencies([grad]):
    num = array_ops.shape(shape)[0] - array_ops.rank(alpha)
    return [None, None, _gamma_grad_alpha(alpha, op.outputs[0], grad, num)]


@RegisterGradient("StatelessRandomGammaV3")
def _stateless_random_gamma_v3_grad(op, grad):
  """d loss / d alpha of StatelessRandomGammaV3(shape, key, counter, alg, alpha)."""
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  shape, alpha = op.inputs[0], op.inputs[4]
  with _ops.control_dependencies([grad]):
    num = array_ops.shape(shape)[0] - array_ops.rank(alpha)
    return [None, None, None, None, _gamma_grad_alpha(alpha, op.outputs[0], grad, num)]


for _t in ("StatelessRandomUniform", "StatelessRandomNormal", "StatelessTruncatedNormal",
           "StatelessRandomUniformInt", "StatelessRandomUniformFullInt", "StatelessMultinomial",
           "StatelessRandomUniformV2", "StatelessRandomNormalV2", "StatelessTruncatedNormalV2",
           "StatelessRandomUniformIntV2", "StatelessRandomUniformFullIntV2",
           "StatelessRandomPoisson"):
  NoGradient(_t)


def _ndtr(x):
  """The standard normal CDF, accurate in both tails."""
  import numpy as np  # pylint: disable=g-import-not-at-top
  from tfc.ops import array_ops, math_ops, special_math_ops  # pylint: disable=g-import-not-at-top
  half_sqrt_2 = _ops.convert_to_tensor(0.5 * np.sqrt(2.), dtype=x.dtype, name="half_sqrt_2")
  w = x * half_sqrt_2
  z = math_ops.abs(w)
  erf, erfc = special_math_ops.erf, special_math_ops.erfc
  y = array_ops.where(z < half_sqrt_2, 1. + erf(w),
                      array_ops.where(w > 0., 2. - erfc(z), erfc(z)))
  return 0.5 * y


@RegisterGradient("StatelessParameterizedTruncatedNormal")
def _stateless_parameterized_truncated_normal_grad(op, grad):
  """Implicit reparameterization gradients of a truncated-normal sample with respect to
  its mean, stddev and bounds, summed over the sample dimensions and reduced to each
  parameter's shape."""
  import numpy as np  # pylint: disable=g-import-not-at-top
  from tfc.framework.op_def_library import _apply_op  # pylint: disable=g-import-not-at-top
  from tfc.ops import array_ops, array_extra_ops, math_ops  # pylint: disable=g-import-not-at-top
  shape, mean, stddev, minval, maxval = (op.inputs[0], op.inputs[2], op.inputs[3],
                                         op.inputs[4], op.inputs[5])
  sample = op.outputs[0]
  with _ops.control_dependencies([grad]):
    minval_std = (minval - mean) / stddev
    maxval_std = (maxval - mean) / stddev
    sample_std = (sample - mean) / stddev
    cdf_sample = ((_ndtr(sample_std) - _ndtr(minval_std)) /
                  (_ndtr(maxval_std) - _ndtr(minval_std)))
    info = np.finfo(mean.dtype.as_numpy_dtype)
    cdf_sample = math_ops.clip_by_value(cdf_sample, info.tiny, 1 - info.eps)
    dmaxval = math_ops.exp(0.5 * (sample_std ** 2 - maxval_std ** 2) + math_ops.log(cdf_sample))
    dminval = math_ops.exp(0.5 * (sample_std ** 2 - minval_std ** 2) +
                           math_ops.log1p(-cdf_sample))
    dmean = array_ops.ones_like(sample_std)
    dstddev = sample_std
    shapes = [array_ops.shape(t) for t in (mean, stddev, minval, maxval)]
    bshape = array_extra_ops.broadcast_dynamic_shape(shapes[0], shapes[1])
    bshape = array_extra_ops.broadcast_dynamic_shape(shapes[2], bshape)
    bshape = array_extra_ops.broadcast_dynamic_shape(shapes[3], bshape)
    extra_dims = math_ops.range(array_ops.size(shape) - array_ops.size(bshape))
    grads = []
    for d, pshape in zip((dmean, dstddev, dminval, dmaxval), shapes):
      g = math_ops.reduce_sum(grad * d, axis=extra_dims)
      r = _apply_op("BroadcastGradientArgs", None, [bshape, pshape]).outputs[1]
      grads.append(array_ops.reshape(math_ops.reduce_sum(g, axis=r, keepdims=True), pshape))
    return [None, None] + grads
