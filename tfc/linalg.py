"""tf.linalg namespace."""
from tfc.ops.math_ops import matmul  # noqa: F401
from tfc.ops.math_ops import matvec, norm  # noqa: F401
from tfc.ops.array_ops import matrix_transpose, eye  # noqa: F401
from tfc.ops.nn_ops import l2_normalize  # noqa: F401
from tfc.ops.clip_ops import global_norm  # noqa: F401

transpose = matrix_transpose
