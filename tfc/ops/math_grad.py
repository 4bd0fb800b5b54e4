"""Gradient functions of the math ops (elementwise, reductions, matmul)."""
import numpy as np

from tfc import dtypes as _dtypes
from tfc.framework import constant_op as _constant_op
from tfc.framework.op_def_library import _apply_op
from tfc.ops.gradient_registry import RegisterGradient, NoGradient

_int32 = _dtypes.int32


# -- helpers shared by the gradient modules ------------------------------------------------

def _out(op_type, inputs, attrs=None, name=None):
  return _apply_op(op_type, name, inputs, attrs).outputs[0]


def _conj(t):
  """conj(t) for complex tensors (a Conj op), t itself otherwise (TF's gradients
  of holomorphic functions multiply by the conjugate derivative)."""
  if t.dtype.is_complex:
    return _out("Conj", [t])
  return t


def _const(value, dtype=_int32, name="Const"):
  return _constant_op.constant(value, dtype=dtype, name=name)


def _static_shape(t):
  """The shape of `t` as a tuple of ints when fully known, else None."""
  s = t._shape
  if s is None or any(d is None for d in s):
    return None
  return tuple(s)


def _shape(t):
  """Shape of `t` as an int32 tensor (a constant when statically known)."""
  s = _static_shape(t)
  if s is not None:
    return _const(list(s), name="Shape")
  return _out("Shape", [t], {"out_type": _int32})


def _const_value(t):
  """The NumPy value of `t` when it is produced by a Const op, else None."""
  if t.op.type == "Const":
    return t.op.get_attr("value")
  return None


def _scalar_like(value, t):
  return _const(value, dtype=t.dtype.base_dtype, name="Const")


def _reshape(t, shape):
  return _out("Reshape", [t, shape])


def _sum(t, axes, keep_dims=False):
  return _out("Sum", [t, axes], {"keep_dims": keep_dims})


def _static_reduce_idx(sx, sy):
  """Axes of the broadcast shape that x and y each must be summed over."""
  n = max(len(sx), len(sy))
  px = (1,) * (n - len(sx)) + tuple(sx)
  py = (1,) * (n - len(sy)) + tuple(sy)
  rx, ry = [], []
  for i in range(n):
    if px[i] == py[i]:
      continue
    if px[i] == 1:
      rx.append(i)
    elif py[i] == 1:
      ry.append(i)
  rx += [i for i in range(n - len(sx)) if i not in rx]
  ry += [i for i in range(n - len(sy)) if i not in ry]
  return sorted(rx), sorted(ry)


def _fold(g, r, s):
  """g summed over axes r and reshaped to the static shape s."""
  if g is None:
    return None
  if r:
    return _reshape(_sum(g, _const(r)), _const(list(s)))
  if g._shape != s:
    return _reshape(g, _const(list(s)))
  return g


def _unbroadcast_pair(x, y, gx, gy):
  """Sums gx / gy (shaped like the broadcast of x and y) back to x's and y's shapes."""
  sx_s, sy_s = _static_shape(x), _static_shape(y)
  if sx_s is not None and sy_s is not None:
    if sx_s == sy_s:
      return gx, gy
    rx, ry = _static_reduce_idx(sx_s, sy_s)
    return _fold(gx, rx, sx_s), _fold(gy, ry, sy_s)
  sx = _shape(x)
  sy = _shape(y)
  bga = _apply_op("BroadcastGradientArgs", None, [sx, sy]).outputs
  if gx is not None:
    gx = _reshape(_sum(gx, bga[0]), sx)
  if gy is not None:
    gy = _reshape(_sum(gy, bga[1]), sy)
  return gx, gy


def _unbroadcast_to(t, g):
  """Sums g (shaped like a broadcast involving t) back to t's shape."""
  st, sg = _static_shape(t), _static_shape(g)
  if st is not None and sg is not None:
    if st == sg:
      return g
    rt, _ = _static_reduce_idx(st, sg)
    return _fold(g, rt, st)
  s = _shape(t)
  r = _apply_op("BroadcastGradientArgs", None, [s, _shape(g)]).outputs[0]
  return _reshape(_sum(g, r), s)


def _kept_dims_shape(x, axes):
  """(shape of x with the reduced axes set to 1, tile multiples) as int32 tensors."""
  ax = _const_value(axes)
  sx = _static_shape(x)
  if ax is not None and sx is not None:
    r = len(sx)
    ax = [int(a) % r for a in np.asarray(ax).reshape(-1)] if r else []
    kept = [1 if i in ax else d for i, d in enumerate(sx)]
    tiles = [d if i in ax else 1 for i, d in enumerate(sx)]
    return _const(kept), _const(tiles)
  r = x._rank()
  if ax is not None and r is not None:
    # Rank known, some dims not: mix the dynamic shape with constant masks.
    red = set(int(a) % r for a in np.asarray(ax).reshape(-1)) if r else set()
    shape = _shape(x)
    if len(red) == r:
      return _const([1] * r), shape
    keep_m = _const([0 if i in red else 1 for i in range(r)])
    red_m = _const([1 if i in red else 0 for i in range(r)])
    kept = _out("AddV2", [_out("Mul", [shape, keep_m]), red_m])
    tiles = _out("AddV2", [_out("Mul", [shape, red_m]), keep_m])
    return kept, tiles
  shape = _shape(x)
  rank = _out("Size", [shape], {"out_type": _int32})
  axes_i = _out("Cast", [axes], {"DstT": _int32}) if axes.dtype != _int32 else axes
  axes_i = _out("FloorMod", [_reshape(axes_i, _const([1, -1])), rank])
  positions = _reshape(_out("Range", [_const(0), rank, _const(1)]), _const([-1, 1]))
  is_reduced = _out("Any", [_out("Equal", [positions, axes_i]), _const(1)], {"keep_dims": False})
  ones = _out("OnesLike", [shape])
  kept = _out("Select", [is_reduced, ones, shape])
  tiles = _out("FloorDiv", [shape, kept])
  return kept, tiles


def _num_elements_ratio(x, y, dtype):
  """size(x) / max(size(y), 1) cast to dtype."""
  sx, sy = _static_shape(x), _static_shape(y)
  if sx is not None and sy is not None:
    return _const(int(np.prod(sx)) // max(int(np.prod(sy)), 1), dtype=dtype)
  px = _out("Prod", [_shape(x), _const(0)], {"keep_dims": False})
  py = _out("Prod", [_shape(y), _const(0)], {"keep_dims": False})
  f = _out("FloorDiv", [px, _out("Maximum", [py, _const(1)])])
  return _out("Cast", [f], {"DstT": dtype})


# -- not differentiable --------------------------------------------------------------------

for _t in ("Shape", "ShapeN", "Size", "Rank", "ArgMax", "ArgMin", "Equal", "NotEqual", "Less",
           "LessEqual", "Greater", "GreaterEqual", "LogicalAnd", "LogicalOr", "LogicalNot",
           "IsNan", "IsInf", "IsFinite", "Range", "BroadcastGradientArgs", "All", "Any",
           "RandomUniform", "RandomStandardNormal", "TruncatedNormal", "RandomUniformInt",
           "RandomShuffle", "Multinomial", "TruncateDiv", "TruncateMod"):
  NoGradient(_t)


# -- binary elementwise -----------------------------------------------------------------------

def _add_grad(op, grad):
  x, y = op.inputs
  return list(_unbroadcast_pair(x, y, grad, grad))


RegisterGradient("Add")(_add_grad)
RegisterGradient("AddV2")(_add_grad)


@RegisterGradient("Sub")
def _sub_grad(op, grad):
  x, y = op.inputs
  return list(_unbroadcast_pair(x, y, grad, _out("Neg", [grad])))


@RegisterGradient("Mul")
def _mul_grad(op, grad):
  x, y = op.inputs
  return list(_unbroadcast_pair(x, y, _out("Mul", [grad, _conj(y)]), _out("Mul", [_conj(x), grad])))


def _div_grad(op, grad):
  x, y = op.inputs
  cx, cy = _conj(x), _conj(y)
  gx = _out("RealDiv", [grad, cy])
  gy = _out("Mul", [grad, _out("RealDiv", [_out("RealDiv", [_out("Neg", [cx]), cy]), cy])])
  return list(_unbroadcast_pair(x, y, gx, gy))


RegisterGradient("RealDiv")(_div_grad)


@RegisterGradient("Div")
def _div_v1_grad(op, grad):
  if not op.inputs[0].dtype.is_floating and not op.inputs[0].dtype.is_complex:
    return [None, None]
  x, y = op.inputs
  cx, cy = _conj(x), _conj(y)
  gx = _out("Div", [grad, cy])
  gy = _out("Mul", [grad, _out("Div", [_out("Div", [_out("Neg", [cx]), cy]), cy])])
  return list(_unbroadcast_pair(x, y, gx, gy))


@RegisterGradient("DivNoNan")
def _div_no_nan_grad(op, grad):
  x, y = op.inputs
  cx, cy = _conj(x), _conj(y)
  gx = _out("DivNoNan", [grad, cy])
  gy = _out("Mul", [grad, _out("DivNoNan", [_out("DivNoNan", [_out("Neg", [cx]), cy]), cy])])
  return list(_unbroadcast_pair(x, y, gx, gy))


@RegisterGradient("FloorDiv")
def _floor_div_grad(unused_op, unused_grad):
  return [None, None]


@RegisterGradient("FloorMod")
def _floor_mod_grad(op, grad):
  x, y = op.inputs
  gy = _out("Mul", [grad, _out("Neg", [_out("FloorDiv", [x, y])])])
  return list(_unbroadcast_pair(x, y, grad, gy))


@RegisterGradient("Pow")
def _pow_grad(op, grad):
  x, y = op.inputs
  z = op.outputs[0]
  cplx = x.dtype.is_complex
  if cplx:
    x, y, z = _conj(x), _conj(y), _conj(z)
  one = _scalar_like(1, y)
  gx = _out("Mul", [_out("Mul", [grad, y]), _out("Pow", [x, _out("Sub", [y, one])])])
  zero = _scalar_like(0, x)
  positive = _out("NotEqual" if cplx else "Greater", [x, zero])
  safe_x = _out("Select", [positive, x, _out("OnesLike", [x])])
  log_x = _out("Select", [positive, _out("Log", [safe_x]), _out("ZerosLike", [x])])
  gy = _out("Mul", [_out("Mul", [grad, z]), log_x])
  return list(_unbroadcast_pair(x, y, gx, gy))


def _minmax_grad(op, grad, cmp):
  x, y = op.inputs
  zeros = _out("ZerosLike", [grad])
  mask = _out(cmp, [x, y])
  gx = _out("Select", [mask, grad, zeros])
  gy = _out("Select", [mask, zeros, grad])
  return list(_unbroadcast_pair(x, y, gx, gy))


@RegisterGradient("Maximum")
def _maximum_grad(op, grad):
  return _minmax_grad(op, grad, "GreaterEqual")


@RegisterGradient("Minimum")
def _minimum_grad(op, grad):
  return _minmax_grad(op, grad, "LessEqual")


@RegisterGradient("SquaredDifference")
def _squared_difference_grad(op, grad):
  x, y = op.inputs
  two = _scalar_like(2, grad)
  g = _out("Mul", [_out("Mul", [two, grad]), _out("Sub", [x, y])])
  gx, gy = _unbroadcast_pair(x, y, g, g)
  return [gx, _out("Neg", [gy])]


# -- unary elementwise -------------------------------------------------------------------------

@RegisterGradient("Neg")
def _neg_grad(unused_op, grad):
  return _out("Neg", [grad])


@RegisterGradient("Abs")
def _abs_grad(op, grad):
  return _out("Mul", [grad, _out("Sign", [op.inputs[0]])])


@RegisterGradient("Square")
def _square_grad(op, grad):
  x = _conj(op.inputs[0])
  return _out("Mul", [grad, _out("Mul", [x, _scalar_like(2, x)])])


@RegisterGradient("Sqrt")
def _sqrt_grad(op, grad):
  return _out("SqrtGrad", [op.outputs[0], grad])


@RegisterGradient("Rsqrt")
def _rsqrt_grad(op, grad):
  return _out("RsqrtGrad", [op.outputs[0], grad])


@RegisterGradient("Exp")
def _exp_grad(op, grad):
  return _out("Mul", [grad, _conj(op.outputs[0])])


@RegisterGradient("Expm1")
def _expm1_grad(op, grad):
  return _out("Mul", [grad, _conj(_out("Exp", [op.inputs[0]]))])


@RegisterGradient("Log")
def _log_grad(op, grad):
  return _out("Mul", [grad, _out("Reciprocal", [_conj(op.inputs[0])])])


@RegisterGradient("Log1p")
def _log1p_grad(op, grad):
  x = _conj(op.inputs[0])
  return _out("Mul", [grad, _out("Reciprocal", [_out("AddV2", [_scalar_like(1, x), x])])])


@RegisterGradient("Tanh")
def _tanh_grad(op, grad):
  return _out("TanhGrad", [_conj(op.outputs[0]), grad])


@RegisterGradient("Sigmoid")
def _sigmoid_grad(op, grad):
  return _out("SigmoidGrad", [_conj(op.outputs[0]), grad])


@RegisterGradient("Reciprocal")
def _reciprocal_grad(op, grad):
  return _out("ReciprocalGrad", [op.outputs[0], grad])


@RegisterGradient("Inv")
def _inv_grad(op, grad):
  return _out("InvGrad", [op.outputs[0], grad])


@RegisterGradient("TanhGrad")
def _tanh_grad_grad(op, grad):
  y, dy = op.inputs
  two = _scalar_like(-2, y)
  return [_out("Mul", [_out("Mul", [grad, dy]), _out("Mul", [two, y])]),
          _out("TanhGrad", [y, grad])]


@RegisterGradient("SigmoidGrad")
def _sigmoid_grad_grad(op, grad):
  y, dy = op.inputs
  gb = _out("Mul", [grad, dy])
  two = _scalar_like(2, y)
  return [_out("Sub", [gb, _out("Mul", [_out("Mul", [two, gb]), y])]),
          _out("SigmoidGrad", [y, grad])]


@RegisterGradient("SqrtGrad")
def _sqrt_grad_grad(op, grad):
  y, dy = op.inputs
  half = _scalar_like(0.5, y)
  ga = _out("RealDiv", [_out("Mul", [grad, half]), y])
  return [_out("Neg", [_out("RealDiv", [_out("Mul", [ga, dy]), y])]), ga]


@RegisterGradient("RsqrtGrad")
def _rsqrt_grad_grad(op, grad):
  y, dy = op.inputs
  c = _scalar_like(-1.5, y)
  return [_out("Mul", [_out("Mul", [_out("Mul", [grad, dy]), c]), _out("Square", [y])]),
          _out("RsqrtGrad", [y, grad])]


@RegisterGradient("ReciprocalGrad")
def _reciprocal_grad_grad(op, grad):
  y, dy = op.inputs
  c = _scalar_like(-2, y)
  return [_out("Mul", [_out("Mul", [grad, dy]), _out("Mul", [c, y])]),
          _out("ReciprocalGrad", [y, grad])]


@RegisterGradient("Sign")
def _sign_grad(op, unused_grad):
  return _out("ZerosLike", [op.inputs[0]])


@RegisterGradient("Sin")
def _sin_grad(op, grad):
  return _out("Mul", [grad, _conj(_out("Cos", [op.inputs[0]]))])


@RegisterGradient("Cos")
def _cos_grad(op, grad):
  return _out("Neg", [_out("Mul", [grad, _conj(_out("Sin", [op.inputs[0]]))])])


def _none_grad(op, unused_grad):
  return [None] * len(op.inputs)


for _t in ("Floor", "Ceil", "Round"):
  RegisterGradient(_t)(_none_grad)


@RegisterGradient("Cast")
def _cast_grad(op, grad):
  src = op.inputs[0].dtype.base_dtype
  dst = grad.dtype.base_dtype
  ok = (src.is_floating or src.is_complex) and (dst.is_floating or dst.is_complex)
  if ok:
    return _out("Cast", [grad], {"DstT": src})
  return None


@RegisterGradient("AddN")
def _add_n_grad(op, grad):
  return [grad] * len(op.inputs)


@RegisterGradient("ClipByValue")
def _clip_by_value_grad(op, grad):
  x, lo, hi = op.inputs
  zeros = _out("ZerosLike", [grad])
  below = _out("Less", [x, lo])
  above = _out("Greater", [x, hi])
  gx = _out("Select", [_out("LogicalOr", [below, above]), zeros, grad])
  glo = _out("Select", [below, grad, zeros])
  ghi = _out("Select", [above, grad, zeros])
  return [gx, _unbroadcast_to(lo, glo), _unbroadcast_to(hi, ghi)]


# -- matmul ------------------------------------------------------------------------------------

def _mm(a, b, ta=False, tb=False):
  return _out("MatMul", [a, b], {"transpose_a": ta, "transpose_b": tb})


@RegisterGradient("MatMul")
def _matmul_grad(op, grad):
  a, b = _conj(op.inputs[0]), _conj(op.inputs[1])
  ta = op.get_attr("transpose_a")
  tb = op.get_attr("transpose_b")
  if not ta and not tb:
    return [_mm(grad, b, tb=True), _mm(a, grad, ta=True)]
  if not ta and tb:
    return [_mm(grad, b), _mm(grad, a, ta=True)]
  if ta and not tb:
    return [_mm(b, grad, tb=True), _mm(a, grad)]
  return [_mm(b, grad, ta=True, tb=True), _mm(grad, a, ta=True, tb=True)]


def _bmm_grad(op, grad, op_type):
  x, y = op.inputs
  ax = op.get_attr("adj_x")
  ay = op.get_attr("adj_y")

  def bmm(a, b, adj_a=False, adj_b=False):
    return _out(op_type, [a, b], {"adj_x": adj_a, "adj_y": adj_b})

  if not ax and not ay:
    gx, gy = bmm(grad, y, adj_b=True), bmm(x, grad, adj_a=True)
  elif not ax and ay:
    gx, gy = bmm(grad, y), bmm(grad, x, adj_a=True)
  elif ax and not ay:
    gx, gy = bmm(y, grad, adj_b=True), bmm(x, grad)
  else:
    gx, gy = bmm(y, grad, adj_a=True, adj_b=True), bmm(grad, x, adj_a=True, adj_b=True)
  if op_type == "BatchMatMul":
    return [gx, gy]
  sx, sy = _static_shape(x), _static_shape(y)
  if sx is not None and sy is not None and sx[:-2] == sy[:-2]:
    return [gx, gy]
  if sx is not None and sy is not None:
    rx, ry = _static_reduce_idx(sx[:-2], sy[:-2])
    return [_fold(gx, rx, sx), _fold(gy, ry, sy)]
  shx, shy = _shape(x), _shape(y)
  bx = _out("StridedSlice", [shx, _const([0]), _const([-2]), _const([1])],
            {"begin_mask": 1, "end_mask": 0})
  by = _out("StridedSlice", [shy, _const([0]), _const([-2]), _const([1])],
            {"begin_mask": 1, "end_mask": 0})
  rx, ry = _apply_op("BroadcastGradientArgs", None, [bx, by]).outputs
  return [_reshape(_sum(gx, rx), shx), _reshape(_sum(gy, ry), shy)]


@RegisterGradient("BatchMatMulV2")
def _batch_matmul_v2_grad(op, grad):
  return _bmm_grad(op, grad, "BatchMatMulV2")


@RegisterGradient("BatchMatMul")
def _batch_matmul_grad(op, grad):
  return _bmm_grad(op, grad, "BatchMatMul")


# -- reductions --------------------------------------------------------------------------------

def _sum_grad_dense(x, axes, grad):
  kept, tiles = _kept_dims_shape(x, axes)
  return _out("Tile", [_reshape(grad, kept), tiles])


@RegisterGradient("Sum")
def _sum_grad(op, grad):
  return [_sum_grad_dense(op.inputs[0], op.inputs[1], grad), None]


@RegisterGradient("Mean")
def _mean_grad(op, grad):
  x = op.inputs[0]
  g = _sum_grad_dense(x, op.inputs[1], grad)
  factor = _num_elements_ratio(x, op.outputs[0], g.dtype.base_dtype)
  return [_out("RealDiv", [g, factor]), None]


def _minmax_reduce_grad(op, grad):
  x, axes = op.inputs
  y = op.outputs[0]
  kept, _ = _kept_dims_shape(x, axes)
  y_kept = _reshape(y, kept)
  g_kept = _reshape(grad, kept)
  hits = _out("Cast", [_out("Equal", [y_kept, x])], {"DstT": grad.dtype.base_dtype})
  count = _reshape(_sum(hits, axes), kept)
  return [_out("Mul", [_out("RealDiv", [hits, count]), g_kept]), None]


RegisterGradient("Max")(_minmax_reduce_grad)
RegisterGradient("Min")(_minmax_reduce_grad)


@RegisterGradient("Prod")
def _prod_grad(op, grad):
  # Product of the other elements = prod / x (exact for inputs without zeros).
  x, axes = op.inputs
  y = op.outputs[0]
  kept, tiles = _kept_dims_shape(x, axes)
  gy = _out("Tile", [_reshape(_out("Mul", [grad, _conj(y)]), kept), tiles])
  return [_out("RealDiv", [gy, _conj(x)]), None]
