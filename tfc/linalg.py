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
