"""Gradient functions of the LAPACK-backed linear-algebra ops (TF's formulas)."""
from tfc.ops.gradient_registry import RegisterGradient


def _m():
  from tfc.ops import math_ops  # pylint: disable=g-import-not-at-top
  return math_ops


def _l():
  from tfc.ops import linalg_ops  # pylint: disable=g-import-not-at-top
  return linalg_ops


def _impl():
  from tfc.ops import linalg_impl  # pylint: disable=g-import-not-at-top
  return linalg_impl


def _adj(x):
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  return array_ops.matrix_transpose(x)


@RegisterGradient("MatrixInverse")
def _matrix_inverse_grad(op, grad):
  ainv = op.outputs[0]
  m = _m()
  return -m.matmul(ainv, m.matmul(grad, ainv, transpose_b=True), transpose_a=True)


def _unsqueeze2(t, like):
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  return array_ops.reshape(t, array_ops.concat([array_ops.shape(t), [1, 1]], 0))


@RegisterGradient("MatrixDeterminant")
def _matrix_determinant_grad(op, grad):
  a, c = op.inputs[0], op.outputs[0]
  a_adj_inv = _impl().matrix_inverse(a, adjoint=True)
  return _unsqueeze2(grad * c, a) * a_adj_inv


@RegisterGradient("LogMatrixDeterminant")
def _log_matrix_determinant_grad(op, _, grad_b):
  a = op.inputs[0]
  a_adj_inv = _impl().matrix_inverse(a, adjoint=True)
  return _unsqueeze2(grad_b, a) * a_adj_inv


@RegisterGradient("MatrixSolve")
def _matrix_solve_grad(op, grad):
  a, c = op.inputs[0], op.outputs[0]
  adjoint_a = op.get_attr("adjoint")
  m = _m()
  grad_b = _impl().matrix_solve(a, grad, adjoint=not adjoint_a)
  if adjoint_a:
    grad_a = -m.matmul(c, grad_b, transpose_b=True)
  else:
    grad_a = -m.matmul(grad_b, c, transpose_b=True)
  return grad_a, grad_b


@RegisterGradient("MatrixTriangularSolve")
def _matrix_triangular_solve_grad(op, grad):
  a, c = op.inputs[0], op.outputs[0]
  adjoint_a = op.get_attr("adjoint")
  lower_a = op.get_attr("lower")
  m = _m()
  grad_b = _impl().matrix_triangular_solve(a, grad, lower=lower_a, adjoint=not adjoint_a)
  if adjoint_a:
    grad_a = -m.matmul(c, grad_b, transpose_b=True)
  else:
    grad_a = -m.matmul(grad_b, c, transpose_b=True)
  grad_a = _l().matrix_band_part(grad_a, -1, 0) if lower_a else \
      _l().matrix_band_part(grad_a, 0, -1)
  return grad_a, grad_b


@RegisterGradient("Cholesky")
def _cholesky_grad(op, grad):
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  l = op.outputs[0]
  m, lo = _m(), _l()
  identity = lo.matrix_set_diag(array_ops.zeros_like(l),
                                array_ops.ones_like(lo.matrix_diag_part(l)))
  l_inverse = _impl().matrix_triangular_solve(l, identity)
  middle = m.matmul(l, grad, transpose_a=True)
  middle = lo.matrix_set_diag(middle, 0.5 * lo.matrix_diag_part(middle))
  middle = lo.matrix_band_part(middle, -1, 0)
  grad_a = m.matmul(m.matmul(l_inverse, middle, transpose_a=True), l_inverse)
  grad_a += _adj(grad_a)
  return grad_a * 0.5


@RegisterGradient("SelfAdjointEigV2")
def _self_adjoint_eig_grad(op, grad_e, grad_v):
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  m, lo = _m(), _l()
  e = op.outputs[0]
  if grad_e is None:
    grad_e = array_ops.zeros_like(e)
  if op.get_attr("compute_v"):
    v = op.outputs[1]
    if grad_v is None:
      grad_v = array_ops.zeros_like(v)
    diff = array_ops.expand_dims(e, -2) - array_ops.expand_dims(e, -1)
    f = lo.matrix_set_diag(diff * m.reciprocal(diff * diff + 1e-20), array_ops.zeros_like(e))
    grad_a = m.matmul(v, m.matmul(lo.matrix_diag(grad_e) +
                                  f * m.matmul(v, grad_v, transpose_a=True),
                                  v, transpose_b=True))
  else:
    _, v = _impl().self_adjoint_eig(op.inputs[0])
    grad_a = m.matmul(v, m.matmul(lo.matrix_diag(grad_e), v, transpose_b=True))
  grad_a = lo.matrix_band_part(grad_a + _adj(grad_a), -1, 0)
  return lo.matrix_set_diag(grad_a, 0.5 * lo.matrix_diag_part(grad_a))


# ---- Lu and the tridiagonal ops (linalg_lu.c) ----

def _shift_rows(x, up):
  """x with its rows (axis -2) moved one up (row i = row i+1, last zero) or down."""
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  zero = array_ops.zeros_like(x[..., :1, :])
  return array_ops.concat([x[..., 1:, :], zero], -2) if up else array_ops.concat([zero, x[..., :-1, :]], -2)


@RegisterGradient("TridiagonalMatMul")
def _tridiagonal_matmul_grad(op, grad):
  """out[i] = sup[i] rhs[i+1] + main[i] rhs[i] + sub[i] rhs[i-1]."""
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  m = _m()
  sup, main, sub, rhs = op.inputs
  col = array_ops.matrix_transpose  # [..., 1, M] -> [..., M, 1]
  sup_grad = m.reduce_sum(_shift_rows(rhs, True) * grad, axis=-1)
  main_grad = m.reduce_sum(rhs * grad, axis=-1)
  sub_grad = m.reduce_sum(_shift_rows(rhs, False) * grad, axis=-1)
  rhs_grad = (_shift_rows(col(sup) * grad, False) + col(main) * grad + _shift_rows(col(sub) * grad, True))
  return (array_ops.expand_dims(sup_grad, -2), array_ops.expand_dims(main_grad, -2),
          array_ops.expand_dims(sub_grad, -2), rhs_grad)


def _transposed_diagonals(diags):
  """The compact [..., 3, M] diagonals of the transposed matrices."""
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  sup, main, sub = diags[..., 0, :], diags[..., 1, :], diags[..., 2, :]
  zero = array_ops.zeros_like(main[..., :1])
  return array_ops.stack([array_ops.concat([sub[..., 1:], zero], -1), main,
                          array_ops.concat([zero, sup[..., :-1]], -1)], -2)


@RegisterGradient("TridiagonalSolve")
def _tridiagonal_solve_grad(op, grad):
  """rhs_grad = A^-T grad; diagonals_grad = -the three diagonals of rhs_grad x^T."""
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  from tfc.framework.op_def_library import _apply_op  # pylint: disable=g-import-not-at-top
  m = _m()
  diags, x = op.inputs[0], op.outputs[0]
  rhs_grad = _apply_op("TridiagonalSolve", "TridiagonalSolve", [_transposed_diagonals(diags), grad],
                       {"partial_pivoting": op.get_attr("partial_pivoting")}).outputs[0]
  sup = m.reduce_sum(rhs_grad * _shift_rows(x, True), axis=-1)
  main = m.reduce_sum(rhs_grad * x, axis=-1)
  sub = m.reduce_sum(rhs_grad * _shift_rows(x, False), axis=-1)
  return -array_ops.stack([sup, main, sub], -2), rhs_grad


@RegisterGradient("Lu")
def _lu_grad(op, lu_grad, _):
  """P A = L U: A_grad = P^T L^-H (strict_tril(L^H L_grad) + triu(U_grad U^H)) U^-H
  (square matrices, as TF)."""
  from tfc.ops import array_ops, sort_ops  # pylint: disable=g-import-not-at-top
  m, l_ops, impl = _m(), _l(), _impl()
  lu, perm = op.outputs
  ones = array_ops.ones_like(l_ops.matrix_diag_part(lu))
  lower = l_ops.matrix_set_diag(l_ops.matrix_band_part(lu, -1, 0), ones)
  upper = l_ops.matrix_band_part(lu, 0, -1)
  l_grad = l_ops.matrix_set_diag(l_ops.matrix_band_part(lu_grad, -1, 0), ones * 0)
  u_grad = l_ops.matrix_band_part(lu_grad, 0, -1)
  phi_l = m.matmul(lower, l_grad, adjoint_a=True)
  phi_l = l_ops.matrix_set_diag(l_ops.matrix_band_part(phi_l, -1, 0), ones * 0)
  phi_u = l_ops.matrix_band_part(m.matmul(u_grad, upper, adjoint_b=True), 0, -1)
  phi = phi_l + phi_u
  x = impl.matrix_triangular_solve(lower, phi, lower=True, adjoint=True)          # L^-H phi
  x = _adj(impl.matrix_triangular_solve(upper, _adj(x), lower=False, adjoint=False))  # (U^-1 x^H)^H = x U^-H
  rank = perm.shape.ndims
  inv = sort_ops.argsort(perm, axis=-1)
  return array_ops.gather(x, inv, axis=rank - 1, batch_dims=rank - 1)


def _kron(a, b):
  """The Kronecker products of batches of n x n matrices ([..., n*n, n*n])."""
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  k = array_ops.expand_dims(array_ops.expand_dims(a, -1), -3) * \
      array_ops.expand_dims(array_ops.expand_dims(b, -3), -2)
  shape = array_ops.shape(a)
  n2 = shape[-1] * shape[-1]
  return array_ops.reshape(k, array_ops.concat([shape[:-2], array_ops.stack([n2, n2])], 0))


@RegisterGradient("MatrixSquareRoot")
def _matrix_square_root_grad(op, grad):
  """S S = A gives S dS + dS S = dA; the gradient solves S^T X + X S^T = grad
  (vectorized row-major: (S^T (x) I + I (x) S) vec(X) = vec(grad))."""
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  s = op.outputs[0]
  shape = array_ops.shape(s)
  eye = array_ops.eye(shape[-1], batch_shape=shape[:-2], dtype=s.dtype)
  system = _kron(_adj(s), eye) + _kron(eye, s)
  flat = array_ops.reshape(grad, array_ops.concat([shape[:-2], [-1, 1]], 0))
  return array_ops.reshape(_impl().matrix_solve(system, flat), shape)
