"""tf.linalg functions over the LU factorization (Lu op: LAPACK getrf),
the SVD (matrix_rank, pinv), the matrix exponential (expm: TF's Padé
approximants with scaling and squaring, as graph ops) and tridiagonal
systems (TridiagonalSolve / TridiagonalMatMul ops)."""
import collections as _collections

import numpy as _np

from tfc import dtypes as _dtypes
from tfc.framework import ops as _ops
from tfc.framework.op_def_library import _apply_op

Lu = _collections.namedtuple("Lu", ["lu", "p"])


def _t(x, name, dtype=None):
  return _ops.convert_to_tensor(x, dtype=dtype, name=name)


def _scope(name, default, values):
  return _ops.name_scope(name, default, values)


def lu(input, output_idx_type=_dtypes.int32, name=None):  # pylint: disable=redefined-builtin
  """The LU factorization of square matrices: (lu, p) with lu holding U on
  and above the diagonal and L's multipliers (unit diagonal) below it, and
  p the row permutation: gather(input, p, rows) == L @ U."""
  op = _apply_op("Lu", name or "Lu", [_t(input, "input")],
                 {"output_idx_type": _dtypes.as_dtype(output_idx_type)})
  return Lu(op.outputs[0], op.outputs[1])


def _lower_unit(lower_upper):
  from tfc.ops import array_ops, linalg_ops  # pylint: disable=g-import-not-at-top
  return linalg_ops.matrix_set_diag(linalg_ops.matrix_band_part(lower_upper, -1, 0),
                                    array_ops.ones_like(linalg_ops.matrix_diag_part(lower_upper)))


def _permute_rows(x, perm):
  """x[..., perm[..., i], :] for each i (perm has x's batch shape)."""
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  rank = perm.shape.ndims
  if rank is None:
    raise ValueError("lu functions need perm of a known rank")
  return array_ops.gather(x, perm, axis=rank - 1, batch_dims=rank - 1)


def lu_reconstruct(lower_upper, perm, validate_args=False, name=None):
  """The matrices lu factorized: P^-1 L U from lu's (lower_upper, perm)."""
  from tfc.ops import math_ops, linalg_ops  # pylint: disable=g-import-not-at-top
  from tfc.ops import sort_ops  # pylint: disable=g-import-not-at-top
  with _scope(name, "lu_reconstruct", [lower_upper, perm]):
    lower_upper = _t(lower_upper, "lower_upper")
    perm = _t(perm, "perm")
    x = math_ops.matmul(_lower_unit(lower_upper), linalg_ops.matrix_band_part(lower_upper, 0, -1))
    return _permute_rows(x, sort_ops.argsort(perm, axis=-1))


def lu_solve(lower_upper, perm, rhs, validate_args=False, name=None):
  """X with A X = rhs for the A that lu factorized."""
  from tfc.ops import linalg_impl  # pylint: disable=g-import-not-at-top
  with _scope(name, "lu_solve", [lower_upper, perm, rhs]):
    lower_upper = _t(lower_upper, "lower_upper")
    perm = _t(perm, "perm")
    rhs = _t(rhs, "rhs", lower_upper.dtype)
    permuted = _permute_rows(rhs, perm)
    y = linalg_impl.matrix_triangular_solve(_lower_unit(lower_upper), permuted, lower=True)
    return linalg_impl.matrix_triangular_solve(lower_upper, y, lower=False)


def lu_matrix_inverse(lower_upper, perm, validate_args=False, name=None):
  """The inverse of the matrices lu factorized."""
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  with _scope(name, "lu_matrix_inverse", [lower_upper, perm]):
    lower_upper = _t(lower_upper, "lower_upper")
    perm = _t(perm, "perm")
    shape = array_ops.shape(lower_upper)
    eye = array_ops.eye(shape[-1], batch_shape=shape[:-2], dtype=lower_upper.dtype)
    return lu_solve(lower_upper, perm, eye)


def _max_dim(a):
  from tfc.ops import array_ops, math_ops  # pylint: disable=g-import-not-at-top
  dims = a.shape[-2:]
  if a.shape.ndims is not None and dims.is_fully_defined():
    return max(dims.as_list())
  return math_ops.reduce_max(array_ops.shape(a)[-2:])


def matrix_rank(a, tol=None, validate_args=False, name=None):
  """The number of singular values above tol (default: eps * max(rows, cols)
  * the largest singular value), as int32."""
  from tfc.ops import linalg_impl, math_ops  # pylint: disable=g-import-not-at-top
  with _scope(name, "matrix_rank", [a, tol]):
    a = _t(a, "a")
    s = linalg_impl.svd(a, compute_uv=False)
    if tol is None:
      eps = _np.finfo(a.dtype.as_numpy_dtype).eps
      tol = (eps * math_ops.cast(_max_dim(a), a.dtype) *
             math_ops.reduce_max(s, axis=-1, keepdims=True))
    else:
      tol = _t(tol, "tol", a.dtype)
    return math_ops.reduce_sum(math_ops.cast(s > tol, _dtypes.int32), axis=-1)


def pinv(a, rcond=None, validate_args=False, name=None):
  """The Moore-Penrose pseudo-inverse from the SVD; singular values at most
  rcond * the largest (default rcond: 10 * max(rows, cols) * eps) are dropped."""
  from tfc.ops import array_ops, linalg_impl, math_ops  # pylint: disable=g-import-not-at-top
  with _scope(name, "pinv", [a, rcond]):
    a = _t(a, "a")
    if not a.dtype.is_floating:
      raise TypeError("Input `a` must have float dtype, got %s." % a.dtype)
    if rcond is None:
      rcond = 10. * math_ops.cast(_max_dim(a), a.dtype) * _np.finfo(a.dtype.as_numpy_dtype).eps
    rcond = _t(rcond, "rcond", a.dtype)
    s, u, v = linalg_impl.svd(a, full_matrices=False, compute_uv=True)
    cutoff = rcond * math_ops.reduce_max(s, axis=-1)
    s = array_ops.where_v2(s > array_ops.expand_dims(cutoff, -1), s,
                           array_ops.fill(array_ops.shape(s), _np.array(_np.inf, a.dtype.as_numpy_dtype)))
    return math_ops.matmul(v / array_ops.expand_dims(s, -2), u, adjoint_b=True)


# ---- expm: Padé approximants (Higham 2005) as TF computes them ----

_B = {
    3: (120., 60., 12., 1.),
    5: (30240., 15120., 3360., 420., 30., 1.),
    7: (17297280., 8648640., 1995840., 277200., 25200., 1512., 56., 1.),
    9: (17643225600., 8821612800., 2075673600., 302702400., 30270240., 2162160., 110880., 3960.,
        90., 1.),
    13: (64764752532480000., 32382376266240000., 7771770303897600., 1187353796428800.,
         129060195264000., 10559470521600., 670442572800., 33522128640., 1323241920., 40840800.,
         960960., 16380., 182., 1.),
}


def _pade(m, order, ident):
  """(U, V) of the order-`order` Padé approximant of exp(m)."""
  from tfc.ops import math_ops  # pylint: disable=g-import-not-at-top
  b = _B[order]
  dt = m.dtype.as_numpy_dtype
  c = lambda i: _np.array(b[i], dt)  # noqa: E731
  m2 = math_ops.matmul(m, m)
  if order == 13:
    m4 = math_ops.matmul(m2, m2)
    m6 = math_ops.matmul(m4, m2)
    tmp_u = (math_ops.matmul(m6, m6 * c(13) + m4 * c(11) + m2 * c(9)) + c(7) * m6 + c(5) * m4 +
             c(3) * m2 + c(1) * ident)
    u = math_ops.matmul(m, tmp_u)
    v = (math_ops.matmul(m6, c(12) * m6 + c(10) * m4 + c(8) * m2) + c(6) * m6 + c(4) * m4 +
         c(2) * m2 + c(0) * ident)
    return u, v
  powers = [ident, m2]
  for _ in range(2, order // 2 + 1):
    powers.append(math_ops.matmul(powers[-1], m2))
  tmp = c(1) * ident
  for k in range(1, order // 2 + 1):
    tmp = tmp + c(2 * k + 1) * powers[k]
  u = math_ops.matmul(m, tmp)
  v = c(0) * ident
  for k in range(1, order // 2 + 1):
    v = v + c(2 * k) * powers[k]
  return u, v


def expm(input, name=None):  # pylint: disable=redefined-builtin
  """The matrix exponential of square matrices (scaling and squaring with
  Padé approximants of order 3/5/7 for float32, up to 13 for float64, chosen
  per matrix by its 1-norm, as TF does)."""
  from tfc.ops import array_ops, control_flow_ops, linalg_impl, math_ops  # pylint: disable=g-import-not-at-top
  with _scope(name, "matrix_exponential", [input]):
    matrix = _t(input, "input")
    if matrix.shape.ndims is not None and matrix.shape.ndims < 2:
      raise ValueError("tf.linalg.expm requires matrices.  Got tensor of shape %s" % matrix.shape)
    dt = matrix.dtype
    npdt = dt.as_numpy_dtype
    shape = array_ops.shape(matrix)
    ident = array_ops.eye(shape[-2], batch_shape=shape[:-2], dtype=dt)
    l1 = math_ops.reduce_max(math_ops.reduce_sum(math_ops.abs(matrix), axis=-2), axis=-1)
    l1 = array_ops.expand_dims(array_ops.expand_dims(l1, -1), -1)
    two = _np.array(2.0, npdt)

    def nest_where(vals, cases):
      if len(vals) == 1:
        return array_ops.where_v2(l1 < _np.array(vals[0], npdt), cases[0], cases[1])
      return array_ops.where_v2(l1 < _np.array(vals[0], npdt), cases[0],
                                nest_where(vals[1:], cases[1:]))

    if dt in (_dtypes.float16, _dtypes.float32):
      maxnorm = _np.array(3.925724783138660, npdt)
      squarings = math_ops.maximum(math_ops.floor(math_ops.log(l1 / maxnorm) / math_ops.log(two)),
                                   _np.array(0, npdt))
      u3, v3 = _pade(matrix, 3, ident)
      u5, v5 = _pade(matrix, 5, ident)
      u7, v7 = _pade(matrix / math_ops.pow(two, squarings), 7, ident)
      conds = (4.258730016922831e-001, 1.880152677804762e+000)
      u = nest_where(conds, (u3, u5, u7))
      v = nest_where(conds, (v3, v5, v7))
    elif dt == _dtypes.float64:
      maxnorm = _np.array(5.371920351148152, npdt)
      squarings = math_ops.maximum(math_ops.floor(math_ops.log(l1 / maxnorm) / math_ops.log(two)),
                                   _np.array(0, npdt))
      u3, v3 = _pade(matrix, 3, ident)
      u5, v5 = _pade(matrix, 5, ident)
      u7, v7 = _pade(matrix, 7, ident)
      u9, v9 = _pade(matrix, 9, ident)
      u13, v13 = _pade(matrix / math_ops.pow(two, squarings), 13, ident)
      conds = (1.495585217958292e-002, 2.539398330063230e-001, 9.504178996162932e-001,
               2.097847961257068e+000)
      u = nest_where(conds, (u3, u5, u7, u9, u13))
      v = nest_where(conds, (v3, v5, v7, v9, v13))
    else:
      raise ValueError("tf.linalg.expm does not support matrices of type %s" % dt)
    result = linalg_impl.matrix_solve(-u + v, u + v)
    max_squarings = math_ops.reduce_max(squarings)
    i = _ops.convert_to_tensor(_np.array(0, npdt))

    def body(i, r):
      return i + _np.array(1, npdt), array_ops.where_v2(i < squarings, math_ops.matmul(r, r), r)
    _, result = control_flow_ops.while_loop(lambda i, _: i < max_squarings, body, [i, result])
    if matrix.shape.ndims is not None:
      result.set_shape(matrix.shape)
    return result


# ---- tridiagonal systems ----

def _compact(diagonals, diagonals_format):
  """The [..., 3, M] (superdiag, maindiag, subdiag) form of diagonals."""
  from tfc.ops import array_ops, linalg_ops  # pylint: disable=g-import-not-at-top
  if diagonals_format == "compact":
    return _t(diagonals, "diagonals")
  if diagonals_format == "sequence":
    if not isinstance(diagonals, (list, tuple)) or len(diagonals) != 3:
      raise ValueError("Expected diagonals to be a sequence of length 3.")
    sup, main, sub = [_t(d, "diagonals") for d in diagonals]
    return array_ops.stack([sup, main, sub], axis=-2)
  if diagonals_format == "matrix":
    m = _t(diagonals, "diagonals")
    rank = m.shape.ndims
    if rank is None:
      raise ValueError("matrix format needs diagonals of a known rank")
    pad = [[0, 0]] * (rank - 2)
    sup = array_ops.pad(linalg_ops.matrix_diag_part(m[..., :-1, 1:]), pad + [[0, 1]])
    sub = array_ops.pad(linalg_ops.matrix_diag_part(m[..., 1:, :-1]), pad + [[1, 0]])
    return array_ops.stack([sup, linalg_ops.matrix_diag_part(m), sub], axis=-2)
  raise ValueError("Unrecognized diagonals_format: %s" % diagonals_format)


def tridiagonal_solve(diagonals, rhs, diagonals_format="compact", transpose_rhs=False,
                      conjugate_rhs=False, name=None, partial_pivoting=True,
                      perturb_singular=False):
  """Solves tridiagonal systems A X = rhs (TridiagonalSolve). diagonals:
  [..., 3, M] (superdiag, maindiag, subdiag; the superdiag's last and the
  subdiag's first entries are ignored), a (superdiag, maindiag, subdiag)
  sequence of [..., M], or [..., M, M] matrices. rhs [..., M, K] or [..., M]."""
  from tfc.ops import array_ops, math_ops  # pylint: disable=g-import-not-at-top
  with _scope(name, "tridiagonal_solve", [diagonals, rhs]):
    d = _compact(diagonals, diagonals_format)
    rhs = _t(rhs, "rhs", d.dtype)
    if transpose_rhs:
      rhs = array_ops.matrix_transpose(rhs)
    if conjugate_rhs:
      rhs = math_ops.conj(rhs)
    vector = d.shape.ndims is not None and rhs.shape.ndims == d.shape.ndims - 1
    if vector:
      rhs = array_ops.expand_dims(rhs, -1)
    out = _apply_op("TridiagonalSolve", "TridiagonalSolve", [d, rhs],
                    {"partial_pivoting": bool(partial_pivoting),
                     "perturb_singular": bool(perturb_singular)}).outputs[0]
    return array_ops.squeeze(out, [-1]) if vector else out


def tridiagonal_matmul(diagonals, rhs, diagonals_format="compact", name=None):
  """The product of tridiagonal matrices and rhs [..., M, N] (TridiagonalMatMul)."""
  from tfc.ops import array_ops, math_ops  # pylint: disable=g-import-not-at-top
  with _scope(name, "tridiagonal_matmul", [diagonals, rhs]):
    if diagonals_format == "matrix":
      return math_ops.matmul(_t(diagonals, "diagonals"), _t(rhs, "rhs"))
    d = _compact(diagonals, diagonals_format)
    rhs = _t(rhs, "rhs", d.dtype)
    sup, main, sub = d[..., 0:1, :], d[..., 1:2, :], d[..., 2:3, :]
    return _apply_op("TridiagonalMatMul", "TridiagonalMatMul", [sup, main, sub, rhs]).outputs[0]


def eigh_tridiagonal(alpha, beta, eigvals_only=True, select="a", select_range=None, tol=None, name=None):
  """Eigenvalues (ascending; and, without eigvals_only, eigenvectors as
  columns) of the real symmetric tridiagonal matrix with diagonal alpha [n]
  and off-diagonal beta [n-1]. select: 'a' all, 'v' those in the interval
  (lo, hi] of select_range, 'i' those with indices lo..hi. Computed by the
  dense symmetric eigensolver (SelfAdjointEigV2) of the tridiagonal matrix;
  eigenvectors are unique up to sign, which may differ from TF's."""
  from tfc.ops import array_ops, linalg_impl, linalg_ops  # pylint: disable=g-import-not-at-top
  with _scope(name, "eigh_tridiagonal", [alpha, beta]):
    alpha = _t(alpha, "alpha")
    beta = _t(beta, "beta", alpha.dtype)
    if alpha.dtype.is_complex:
      raise NotImplementedError("eigh_tridiagonal of complex matrices is not supported")
    if alpha.shape.ndims is not None and alpha.shape.ndims != 1:
      raise ValueError("alpha must be a vector, got shape %s" % alpha.shape)
    if select not in ("a", "v", "i"):
      raise ValueError("select must be 'a', 'v' or 'i', got %r" % (select,))
    if select != "a" and select_range is None:
      raise ValueError("select_range must be given for select=%r" % (select,))
    n = array_ops.shape(alpha)[0]
    zero = array_ops.zeros([1], dtype=alpha.dtype)
    diags = array_ops.stack([array_ops.concat([beta, zero], 0), alpha, array_ops.concat([zero, beta], 0)], 0)
    dense = tridiagonal_matmul(diags, array_ops.eye(n, dtype=alpha.dtype))
    if eigvals_only:
      e = linalg_impl.self_adjoint_eigvals(dense)
      v = None
    else:
      e, v = linalg_impl.self_adjoint_eig(dense)
    if select == "v":
      lo, hi = select_range
      keep = (e > _t(lo, "lo", alpha.dtype)) & (e <= _t(hi, "hi", alpha.dtype))
      idx = array_ops.reshape(array_ops.where(keep), [-1])
    elif select == "i":
      lo, hi = select_range
      from tfc.ops import math_ops  # pylint: disable=g-import-not-at-top
      idx = math_ops.range(_t(lo, "lo", _dtypes.int64), _t(hi, "hi", _dtypes.int64) + 1)
    else:
      idx = None
    if idx is not None:
      e = array_ops.gather(e, idx)
      if v is not None:
        v = array_ops.gather(v, idx, axis=1)
    _ = linalg_ops
    return e if eigvals_only else (e, v)


def sqrtm(input, name=None):  # pylint: disable=redefined-builtin
  """The principal square root of square real matrices (MatrixSquareRoot:
  the real Schur method; NaNs where a real square root does not exist)."""
  return _apply_op("MatrixSquareRoot", name or "MatrixSquareRoot", [_t(input, "input")]).outputs[0]


matrix_square_root = sqrtm
