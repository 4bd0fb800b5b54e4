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


for _t in ("StatelessRandomUniform", "StatelessRandomNormal", "StatelessTruncatedNormal",
           "StatelessRandomUniformInt", "StatelessRandomUniformFullInt", "StatelessMultinomial",
           "StatelessRandomUniformV2", "StatelessRandomNormalV2", "StatelessTruncatedNormalV2",
           "StatelessRandomUniformIntV2", "StatelessRandomUniformFullIntV2",
           "StatelessRandomPoisson"):
  NoGradient(_t)
