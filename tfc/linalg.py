"""tf.linalg namespace."""
from tfc.ops.math_ops import matmul  # noqa: F401
from tfc.ops.math_ops import matvec, norm  # noqa: F401
from tfc.ops.array_ops import matrix_transpose, eye  # noqa: F401
from tfc.ops.nn_ops import l2_normalize  # noqa: F401
from tfc.ops.clip_ops import global_norm  # noqa: F401
from tfc.ops.linalg_ops import (tensordot, trace, adjoint, cross, normalize,  # noqa: F401
                                tensor_diag, tensor_diag_part,
                                matrix_diag_part as diag_part, matrix_diag as diag,
                                matrix_set_diag as set_diag, matrix_band_part as band_part)

transpose = matrix_transpose


_LU_NAMES = ("lu", "lu_solve", "lu_reconstruct", "lu_matrix_inverse", "matrix_rank", "pinv", "expm", "eigh_tridiagonal", "sqrtm",
             "tridiagonal_solve", "tridiagonal_matmul")


def __getattr__(name):
  """The LAPACK-backed functions load on first use."""
  from tfc.ops import linalg_impl  # pylint: disable=g-import-not-at-top
  alias = {"inv": "matrix_inverse", "det": "matrix_determinant", "slogdet":
           "log_matrix_determinant", "solve": "matrix_solve", "triangular_solve":
           "matrix_triangular_solve", "eigh": "self_adjoint_eig", "eigvalsh":
           "self_adjoint_eigvals"}.get(name, name)
  if alias in ("cholesky", "matrix_inverse", "matrix_determinant", "log_matrix_determinant",
               "matrix_solve", "matrix_triangular_solve", "self_adjoint_eig",
               "self_adjoint_eigvals", "svd", "qr", "cholesky_solve", "logdet", "lstsq"):
    value = getattr(linalg_impl, alias)
    globals()[name] = value
    return value
  if name in _LU_NAMES:
    from tfc.ops import linalg_lu  # pylint: disable=g-import-not-at-top
    value = getattr(linalg_lu, name)
    globals()[name] = value
    return value
  if name == "experimental":
    from tfc import linalg_experimental  # pylint: disable=g-import-not-at-top
    globals()[name] = linalg_experimental
    return linalg_experimental
  if name.startswith("LinearOperator"):
    from tfc.ops import linear_operator  # pylint: disable=g-import-not-at-top
    value = getattr(linear_operator, name, None)
    if value is not None:
      globals()[name] = value
      return value
  raise AttributeError("module 'tfc.linalg' has no attribute %r" % name)
from tfc.ops.einsum_ops import einsum  # noqa: F401,E402
