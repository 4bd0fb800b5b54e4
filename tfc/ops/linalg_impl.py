"""Dense linear algebra through LAPACK (TF 1.15 `linalg_ops`): the C kernels
Cholesky, MatrixInverse, MatrixDeterminant, LogMatrixDeterminant,
MatrixSolve, MatrixTriangularSolve, SelfAdjointEigV2, Svd and Qr, and what
TF composes of them (cholesky_solve, logdet, matrix_solve_ls / lstsq,
self_adjoint_eigvals). Inputs are batches of matrices [..., M, N] of
float32 or float64."""
from tfc import dtypes as _dtypes
from tfc.framework import ops as _ops
from tfc.framework.op_def_library import _apply_op


def _t(x, name="input"):
  return _ops.convert_to_tensor(x, name=name)


def cholesky(input, name=None):  # pylint: disable=redefined-builtin
  """L, lower triangular, with input = L @ L^T (InvalidArgumentError when not
  positive definite)."""
  return _apply_op("Cholesky", name, [_t(input)]).outputs[0]


def matrix_inverse(input, adjoint=False, name=None):  # pylint: disable=redefined-builtin
  """The inverse of each matrix (of its transpose when adjoint)."""
  return _apply_op("MatrixInverse", name, [_t(input)], {"adjoint": bool(adjoint)}).outputs[0]


def matrix_determinant(input, name=None):  # pylint: disable=redefined-builtin
  """The determinant of each matrix."""
  return _apply_op("MatrixDeterminant", name, [_t(input)]).outputs[0]


def log_matrix_determinant(input, name=None):  # pylint: disable=redefined-builtin
  """(sign, log |det|) of each matrix."""
  op = _apply_op("LogMatrixDeterminant", name, [_t(input)])
  return op.outputs[0], op.outputs[1]


def matrix_solve(matrix, rhs, adjoint=False, name=None):
  """X with matrix @ X = rhs (matrix^T @ X = rhs when adjoint)."""
  return _apply_op("MatrixSolve", name, [_t(matrix, "matrix"), _t(rhs, "rhs")],
                   {"adjoint": bool(adjoint)}).outputs[0]


def matrix_triangular_solve(matrix, rhs, lower=True, adjoint=False, name=None):
  """X with op(T) @ X = rhs for the lower (or upper) triangle T of matrix."""
  return _apply_op("MatrixTriangularSolve", name, [_t(matrix, "matrix"), _t(rhs, "rhs")],
                   {"lower": bool(lower), "adjoint": bool(adjoint)}).outputs[0]


def self_adjoint_eig(tensor, name=None):
  """(e, v): ascending eigenvalues and eigenvectors (columns) of symmetric matrices."""
  op = _apply_op("SelfAdjointEigV2", name, [_t(tensor, "tensor")], {"compute_v": True})
  return op.outputs[0], op.outputs[1]


def self_adjoint_eigvals(tensor, name=None):
  """Ascending eigenvalues of symmetric matrices."""
  return _apply_op("SelfAdjointEigV2", name, [_t(tensor, "tensor")],
                   {"compute_v": False}).outputs[0]


def svd(tensor, full_matrices=False, compute_uv=True, name=None):
  """(s, u, v) with tensor = u @ diag(s) @ v^T (s alone without compute_uv)."""
  op = _apply_op("Svd", name, [_t(tensor, "tensor")],
                 {"full_matrices": bool(full_matrices), "compute_uv": bool(compute_uv)})
  if compute_uv:
    return op.outputs[0], op.outputs[1], op.outputs[2]
  return op.outputs[0]


def qr(input, full_matrices=False, name=None):  # pylint: disable=redefined-builtin
  """(q, r) with input = q @ r."""
  op = _apply_op("Qr", name, [_t(input)], {"full_matrices": bool(full_matrices)})
  return op.outputs[0], op.outputs[1]


def cholesky_solve(chol, rhs, name=None):
  """X with (chol @ chol^T) @ X = rhs, from a Cholesky factor."""
  with _ops.name_scope(name, "cholesky_solve", [chol, rhs]):
    y = matrix_triangular_solve(chol, rhs, adjoint=False, lower=True)
    return matrix_triangular_solve(chol, y, adjoint=True, lower=True)


def logdet(matrix, name=None):
  """log(det(matrix)) of Hermitian positive-definite matrices (via Cholesky)."""
  from tfc.ops import linalg_ops  # pylint: disable=g-import-not-at-top
  from tfc.ops import math_ops  # pylint: disable=g-import-not-at-top
  with _ops.name_scope(name, "logdet", [matrix]):
    chol = cholesky(matrix)
    return 2.0 * math_ops.reduce_sum(math_ops.log(linalg_ops.matrix_diag_part(chol)), axis=[-1])


def matrix_solve_ls(matrix, rhs, l2_regularizer=0.0, fast=True, name=None):
  """Least-squares solutions of matrix @ X = rhs (minimum norm for
  underdetermined systems), through the regularized normal equations and a
  Cholesky factorization (TF's fast path)."""
  from tfc.ops import math_ops  # pylint: disable=g-import-not-at-top
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  del fast
  with _ops.name_scope(name, "matrix_solve_ls", [matrix, rhs]):
    matrix = _t(matrix, "matrix")
    rhs = _t(rhs, "rhs")
    shape = matrix.get_shape()
    m = shape[-2].value if shape.ndims else None
    n = shape[-1].value if shape.ndims else None
    if m is None or n is None:
      raise ValueError("matrix_solve_ls needs matrices of static shape")
    reg = _ops.convert_to_tensor(l2_regularizer, dtype=matrix.dtype.base_dtype)
    if m >= n:
      gram = math_ops.matmul(matrix, matrix, transpose_a=True)
      gram += reg * array_ops.eye(n, dtype=matrix.dtype.base_dtype)
      return cholesky_solve(cholesky(gram), math_ops.matmul(matrix, rhs, transpose_a=True))
    gram = math_ops.matmul(matrix, matrix, transpose_b=True)
    gram += reg * array_ops.eye(m, dtype=matrix.dtype.base_dtype)
    return math_ops.matmul(matrix, cholesky_solve(cholesky(gram), rhs), transpose_a=True)


def lstsq(matrix, rhs, l2_regularizer=0.0, fast=True, name=None):
  """tf.linalg.lstsq: matrix_solve_ls."""
  return matrix_solve_ls(matrix, rhs, l2_regularizer, fast, name)


_ = _dtypes
