"""Elementwise math beyond the basic family: inverse and hyperbolic
trigonometry, the error and gamma function families, Bessel functions, the
binary special functions (atan2, igamma, zeta, polygamma, ...), lbeta and the
bitwise ops. TF 1.15's names, signatures and default op names; each is one C
kernel except lbeta, which TF also composes from lgamma."""
from tfc.framework import ops as _ops
from tfc.framework.op_def_library import _apply_op


def _unary(op_type, doc):
  def fn(x, name=None):
    return _apply_op(op_type, name, [x]).outputs[0]
  fn.__doc__ = doc
  return fn

tan = _unary("Tan", "Elementwise tan(x).")
asin = _unary("Asin", "Elementwise arcsine.")
acos = _unary("Acos", "Elementwise arccosine.")
atan = _unary("Atan", "Elementwise arctangent.")
sinh = _unary("Sinh", "Elementwise hyperbolic sine.")
cosh = _unary("Cosh", "Elementwise hyperbolic cosine.")
asinh = _unary("Asinh", "Elementwise inverse hyperbolic sine.")
acosh = _unary("Acosh", "Elementwise inverse hyperbolic cosine.")
atanh = _unary("Atanh", "Elementwise inverse hyperbolic tangent.")
erf = _unary("Erf", "Gauss error function, elementwise.")
erfc = _unary("Erfc", "Complementary error function 1 - erf(x), elementwise.")
erfinv = _unary("Erfinv", "Inverse error function, elementwise.")
ndtri = _unary("Ndtri", "Inverse of the standard normal CDF, elementwise.")
lgamma = _unary("Lgamma", "log|Gamma(x)|, elementwise.")
digamma = _unary("Digamma", "psi(x), the derivative of lgamma, elementwise.")
bessel_i0 = _unary("BesselI0", "Modified Bessel function of the first kind, order 0.")
bessel_i1 = _unary("BesselI1", "Modified Bessel function of the first kind, order 1.")
bessel_i0e = _unary("BesselI0e", "exp(-|x|) * I0(x), elementwise.")
bessel_i1e = _unary("BesselI1e", "exp(-|x|) * I1(x), elementwise.")
bessel_j0 = _unary("BesselJ0", "Bessel function of the first kind, order 0.")
bessel_j1 = _unary("BesselJ1", "Bessel function of the first kind, order 1.")
bessel_y0 = _unary("BesselY0", "Bessel function of the second kind, order 0.")
bessel_y1 = _unary("BesselY1", "Bessel function of the second kind, order 1.")
bessel_k0 = _unary("BesselK0", "Modified Bessel function of the second kind, order 0.")
bessel_k0e = _unary("BesselK0e", "Exponentially scaled K0: exp(x) * K0(x).")
bessel_k1 = _unary("BesselK1", "Modified Bessel function of the second kind, order 1.")
bessel_k1e = _unary("BesselK1e", "Exponentially scaled K1: exp(x) * K1(x).")
dawsn = _unary("Dawsn", "Dawson's integral exp(-x^2) * int_0^x exp(t^2) dt.")
expint = _unary("Expint", "Exponential integral Ei(x) (NaN for x < 0).")
fresnel_cos = _unary("FresnelCos", "Fresnel cosine integral int_0^x cos(pi t^2 / 2) dt.")
fresnel_sin = _unary("FresnelSin", "Fresnel sine integral int_0^x sin(pi t^2 / 2) dt.")
spence = _unary("Spence", "Spence's function int_1^x log(t) / (1 - t) dt (NaN for x < 0).")
for _n in ("tan", "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "erf", "erfc",
           "erfinv", "ndtri", "lgamma", "digamma", "bessel_i0", "bessel_i1", "bessel_i0e",
           "bessel_i1e", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "bessel_k0",
           "bessel_k0e", "bessel_k1", "bessel_k1e", "dawsn", "expint", "fresnel_cos",
           "fresnel_sin", "spence"):
  globals()[_n].__name__ = globals()[_n].__qualname__ = _n
del _n


def atan2(y, x, name=None):
  """Elementwise arctangent of y/x, using the signs of both (broadcasting)."""
  return _apply_op("Atan2", name, [y, x]).outputs[0]


def igamma(a, x, name=None):
  """Regularized lower incomplete gamma function P(a, x) (broadcasting)."""
  return _apply_op("Igamma", name, [a, x]).outputs[0]


def betainc(a, b, x, name=None):
  """Regularized incomplete beta function I_x(a, b); a, b and x have one shape where
  they are not scalars (`Betainc`)."""
  return _apply_op("Betainc", name, [a, b, x]).outputs[0]


def erfcinv(x, name=None):
  """Inverse of the complementary error function: -ndtri(x / 2) / sqrt(2)."""
  from tfc.framework import ops as _ops_mod  # pylint: disable=g-import-not-at-top
  with _ops_mod.name_scope(name, "erfcinv", [x]):
    x = _ops_mod.convert_to_tensor(x, name="start")
    return -ndtri(0.5 * x) * 0.7071067811865476


def igammac(a, x, name=None):
  """Regularized upper incomplete gamma function Q(a, x) (broadcasting)."""
  return _apply_op("Igammac", name, [a, x]).outputs[0]


def zeta(x, q, name=None):
  """Hurwitz zeta function sum_k (q + k)^-x (broadcasting)."""
  return _apply_op("Zeta", name, [x, q]).outputs[0]


def polygamma(a, x, name=None):
  """The a-th derivative of digamma at x (a a non-negative integer; broadcasting)."""
  return _apply_op("Polygamma", name, [a, x]).outputs[0]


def xlog1py(x, y, name=None):
  """x * log1p(y), and 0 where x is 0 (broadcasting)."""
  return _apply_op("Xlog1py", name, [x, y]).outputs[0]


def nextafter(x1, x2, name=None):
  """The next representable value after x1 in the direction of x2 (broadcasting)."""
  return _apply_op("NextAfter", name, [x1, x2]).outputs[0]


def lbeta(x, name=None):
  """log|Beta(x)| along the last dimension: sum(lgamma(x)) - lgamma(sum(x)).

  An empty last dimension gives -inf, as in TensorFlow (0 - lgamma(0))."""
  from tfc.ops import math_ops  # pylint: disable=g-import-not-at-top
  with _ops.name_scope(name, "lbeta", [x]):
    x = _ops.convert_to_tensor(x, name="x")
    log_prod_gamma_x = math_ops.reduce_sum(lgamma(x), axis=[-1])
    sum_x = math_ops.reduce_sum(x, axis=[-1])
    log_gamma_sum_x = lgamma(sum_x)
    return math_ops.subtract(log_prod_gamma_x, log_gamma_sum_x)


# -- tf.bitwise ---------------------------------------------------------------------

def bitwise_and(x, y, name=None):
  """Elementwise bitwise AND of integers (broadcasting)."""
  return _apply_op("BitwiseAnd", name, [x, y]).outputs[0]


def bitwise_or(x, y, name=None):
  """Elementwise bitwise OR of integers (broadcasting)."""
  return _apply_op("BitwiseOr", name, [x, y]).outputs[0]


def bitwise_xor(x, y, name=None):
  """Elementwise bitwise XOR of integers (broadcasting)."""
  return _apply_op("BitwiseXor", name, [x, y]).outputs[0]


def left_shift(x, y, name=None):
  """x << y elementwise (broadcasting)."""
  return _apply_op("LeftShift", name, [x, y]).outputs[0]


def right_shift(x, y, name=None):
  """x >> y elementwise, arithmetic for signed types (broadcasting)."""
  return _apply_op("RightShift", name, [x, y]).outputs[0]


def invert(x, name=None):
  """Bitwise NOT (~x) of integers."""
  return _apply_op("Invert", name, [x]).outputs[0]
