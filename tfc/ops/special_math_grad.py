"""Gradient functions of the special elementwise math ops (special_math_ops.py),
as TF 1.15 defines them."""
import math

from tfc.ops.gradient_registry import RegisterGradient, NoGradient
from tfc.ops.math_grad import _out, _scalar_like, _unbroadcast_pair


def _mul(a, b):
  return _out("Mul", [a, b])


def _one_minus_square(x):
  return _out("Sub", [_scalar_like(1, x), _out("Square", [x])])


@RegisterGradient("Tan")
def _tan_grad(op, grad):
  return _mul(grad, _out("Square", [_out("Reciprocal", [_out("Cos", [op.inputs[0]])])]))


@RegisterGradient("Asin")
def _asin_grad(op, grad):
  return _mul(grad, _out("Rsqrt", [_one_minus_square(op.inputs[0])]))


@RegisterGradient("Acos")
def _acos_grad(op, grad):
  return _out("Neg", [_mul(grad, _out("Rsqrt", [_one_minus_square(op.inputs[0])]))])


@RegisterGradient("Atan")
def _atan_grad(op, grad):
  x = op.inputs[0]
  return _mul(grad, _out("Reciprocal", [_out("AddV2", [_scalar_like(1, x),
                                                        _out("Square", [x])])]))


@RegisterGradient("Sinh")
def _sinh_grad(op, grad):
  return _mul(grad, _out("Cosh", [op.inputs[0]]))


@RegisterGradient("Cosh")
def _cosh_grad(op, grad):
  return _mul(grad, _out("Sinh", [op.inputs[0]]))


@RegisterGradient("Asinh")
def _asinh_grad(op, grad):
  return _out("RealDiv", [grad, _out("Cosh", [op.outputs[0]])])


@RegisterGradient("Acosh")
def _acosh_grad(op, grad):
  return _out("RealDiv", [grad, _out("Sinh", [op.outputs[0]])])


@RegisterGradient("Atanh")
def _atanh_grad(op, grad):
  return _mul(grad, _out("Reciprocal", [_one_minus_square(op.inputs[0])]))


@RegisterGradient("Erf")
def _erf_grad(op, grad):
  x = op.inputs[0]
  two_over_root_pi = _scalar_like(2 / math.sqrt(math.pi), x)
  return _mul(grad, _mul(two_over_root_pi, _out("Exp", [_out("Neg", [_out("Square", [x])])])))


@RegisterGradient("Erfc")
def _erfc_grad(op, grad):
  x = op.inputs[0]
  minus_two_over_root_pi = _scalar_like(-2 / math.sqrt(math.pi), x)
  return _mul(grad, _mul(minus_two_over_root_pi,
                         _out("Exp", [_out("Neg", [_out("Square", [x])])])))


@RegisterGradient("Erfinv")
def _erfinv_grad(op, grad):
  y = op.outputs[0]
  root_pi_over_two = _scalar_like(math.sqrt(math.pi) / 2, y)
  return _mul(grad, _mul(root_pi_over_two, _out("Exp", [_out("Square", [y])])))


@RegisterGradient("Ndtri")
def _ndtri_grad(op, grad):
  y = op.outputs[0]
  root_two_pi = _scalar_like(math.sqrt(2 * math.pi), y)
  half = _scalar_like(0.5, y)
  return _mul(grad, _mul(root_two_pi, _out("Exp", [_mul(half, _out("Square", [y]))])))


@RegisterGradient("Lgamma")
def _lgamma_grad(op, grad):
  return _mul(grad, _out("Digamma", [op.inputs[0]]))


@RegisterGradient("Digamma")
def _digamma_grad(op, grad):
  x = op.inputs[0]
  return _mul(grad, _out("Polygamma", [_scalar_like(1, x), x]))


@RegisterGradient("BesselI0")
def _bessel_i0_grad(op, grad):
  return _mul(grad, _out("BesselI1", [op.inputs[0]]))


@RegisterGradient("BesselI0e")
def _bessel_i0e_grad(op, grad):
  x, y = op.inputs[0], op.outputs[0]
  return _mul(grad, _out("Sub", [_out("BesselI1e", [x]), _mul(_out("Sign", [x]), y)]))


def _order1_grad(order0, x, y, sign_term=None):
  """d/dx of an order-1 Bessel value y: order0(x) - y / x (sign_term adds
  - sign(x) * y for the scaled form), with the limit 1/2 at x = 0."""
  zeros = _out("ZerosLike", [x])
  nonzero = _out("NotEqual", [x, zeros])
  safe_x = _out("SelectV2", [nonzero, x, _out("OnesLike", [x])])
  d = _out("Sub", [_out(order0, [x]), _out("RealDiv", [y, safe_x])])
  if sign_term:
    d = _out("Sub", [d, _mul(_out("Sign", [x]), y)])
  return _out("SelectV2", [nonzero, d, _scalar_like(0.5, x)])


@RegisterGradient("BesselI1")
def _bessel_i1_grad(op, grad):
  return _mul(grad, _order1_grad("BesselI0", op.inputs[0], op.outputs[0]))


@RegisterGradient("BesselI1e")
def _bessel_i1e_grad(op, grad):
  return _mul(grad, _order1_grad("BesselI0e", op.inputs[0], op.outputs[0], sign_term=True))


@RegisterGradient("BesselJ0")
def _bessel_j0_grad(op, grad):
  return _out("Neg", [_mul(grad, _out("BesselJ1", [op.inputs[0]]))])


@RegisterGradient("BesselJ1")
def _bessel_j1_grad(op, grad):
  return _mul(grad, _order1_grad("BesselJ0", op.inputs[0], op.outputs[0]))


@RegisterGradient("BesselY0")
def _bessel_y0_grad(op, grad):
  return _out("Neg", [_mul(grad, _out("BesselY1", [op.inputs[0]]))])


@RegisterGradient("BesselY1")
def _bessel_y1_grad(op, grad):
  x, y = op.inputs[0], op.outputs[0]
  return _mul(grad, _out("Sub", [_out("BesselY0", [x]), _out("RealDiv", [y, x])]))


@RegisterGradient("BesselK0")
def _bessel_k0_grad(op, grad):
  return _mul(grad, _out("Neg", [_out("BesselK1", [op.inputs[0]])]))


@RegisterGradient("BesselK0e")
def _bessel_k0e_grad(op, grad):
  x, y = op.inputs[0], op.outputs[0]
  return _mul(grad, _out("Sub", [y, _out("BesselK1e", [x])]))


@RegisterGradient("BesselK1")
def _bessel_k1_grad(op, grad):
  x, y = op.inputs[0], op.outputs[0]
  return _mul(grad, _out("Sub", [_out("Neg", [_out("BesselK0", [x])]), _out("RealDiv", [y, x])]))


@RegisterGradient("BesselK1e")
def _bessel_k1e_grad(op, grad):
  x, y = op.inputs[0], op.outputs[0]
  one = _scalar_like(1, x)
  return _mul(grad, _out("AddV2", [_out("Neg", [_out("BesselK0e", [x])]),
                                   _mul(y, _out("Sub", [one, _out("Reciprocal", [x])]))]))


@RegisterGradient("Dawsn")
def _dawsn_grad(op, grad):
  x, y = op.inputs[0], op.outputs[0]
  return _mul(grad, _out("Sub", [_scalar_like(1, x), _mul(_mul(_scalar_like(2, x), x), y)]))


@RegisterGradient("Expint")
def _expint_grad(op, grad):
  x = op.inputs[0]
  return _mul(grad, _out("RealDiv", [_out("Exp", [x]), x]))


@RegisterGradient("FresnelCos")
def _fresnel_cos_grad(op, grad):
  x = op.inputs[0]
  return _mul(grad, _out("Cos", [_mul(_scalar_like(math.pi / 2, x), _out("Square", [x]))]))


@RegisterGradient("FresnelSin")
def _fresnel_sin_grad(op, grad):
  x = op.inputs[0]
  return _mul(grad, _out("Sin", [_mul(_scalar_like(math.pi / 2, x), _out("Square", [x]))]))


@RegisterGradient("Spence")
def _spence_grad(op, grad):
  """log(x) / (1 - x), and -1 at x == 1."""
  x = op.inputs[0]
  one = _scalar_like(1, x)
  partial = _out("RealDiv", [_out("Log", [x]), _out("Sub", [one, x])])
  at_one = _out("Equal", [x, one])
  partial = _out("SelectV2", [at_one, _out("Neg", [_out("OnesLike", [x])]), partial])
  return _mul(grad, partial)


@RegisterGradient("Atan2")
def _atan2_grad(op, grad):
  y, x = op.inputs
  inv = _out("Reciprocal", [_out("AddV2", [_out("Square", [x]), _out("Square", [y])])])
  gy = _mul(grad, _mul(x, inv))
  gx = _mul(grad, _mul(_out("Neg", [y]), inv))
  return list(_unbroadcast_pair(y, x, gy, gx))


@RegisterGradient("Igamma")
def _igamma_grad(op, grad):
  """d/da P(a, x) by IgammaGradA; d/dx P(a, x) = exp(-x + (a - 1) log x - lgamma(a))."""
  a, x = op.inputs
  one = _scalar_like(1, x)
  log_pdf = _out("Sub", [_out("Sub", [_mul(_out("Sub", [a, one]), _out("Log", [x])), x]),
                         _out("Lgamma", [a])])
  gx = _mul(grad, _out("Exp", [log_pdf]))
  ga = _mul(grad, _out("IgammaGradA", [a, x]))
  return list(_unbroadcast_pair(a, x, ga, gx))


@RegisterGradient("Igammac")
def _igammac_grad(op, grad):
  ga, gx = _igamma_grad(op, grad)
  return [_out("Neg", [ga]), _out("Neg", [gx])]


@RegisterGradient("Betainc")
def _betainc_grad(op, grad):
  """d/dx I_x(a, b) = x^(a-1) (1-x)^(b-1) / B(a, b) (xlogy(a-1, x) as
  xlog1py(a-1, x-1)); no gradient for a and b (as TF)."""
  a, b, x = op.inputs
  one = _scalar_like(1, x)
  log_beta = _out("Sub", [_out("AddV2", [_out("Lgamma", [a]), _out("Lgamma", [b])]),
                          _out("Lgamma", [_out("AddV2", [a, b])])])
  log_pdf = _out("Sub", [_out("AddV2", [_out("Xlog1py", [_out("Sub", [b, one]), _out("Neg", [x])]),
                                        _out("Xlog1py", [_out("Sub", [a, one]),
                                                         _out("Sub", [x, one])])]), log_beta])
  gx = _mul(grad, _out("Exp", [log_pdf]))
  return [None, None, _unbroadcast_pair(a, x, None, gx)[1]]


@RegisterGradient("Zeta")
def _zeta_grad(op, grad):
  x, q = op.inputs
  gq = _mul(grad, _mul(_out("Neg", [x]),
                       _out("Zeta", [_out("AddV2", [x, _scalar_like(1, x)]), q])))
  return [None, _unbroadcast_pair(x, q, None, gq)[1]]


@RegisterGradient("Polygamma")
def _polygamma_grad(op, grad):
  n, x = op.inputs
  gx = _mul(grad, _out("Polygamma", [_out("AddV2", [n, _scalar_like(1, n)]), x]))
  return [None, _unbroadcast_pair(n, x, None, gx)[1]]


@RegisterGradient("Xlog1py")
def _xlog1py_grad(op, grad):
  x, y = op.inputs
  zeros = _out("ZerosLike", [x])
  not_zero_x = _out("Cast", [_out("NotEqual", [x, zeros])], {"DstT": x.dtype.base_dtype})
  one = _scalar_like(1, y)
  gx = _mul(grad, _out("Xlog1py", [not_zero_x, y]))
  y1 = _out("AddV2", [y, one])
  gy = _mul(grad, _out("SelectV2", [_out("NotEqual", [x, zeros]), _out("RealDiv", [x, y1]),
                                    zeros]))
  return list(_unbroadcast_pair(x, y, gx, gy))


for _t in ("NextAfter", "BitwiseAnd", "BitwiseOr", "BitwiseXor", "LeftShift", "RightShift",
           "Invert"):
  NoGradient(_t)
