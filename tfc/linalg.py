"""tf.linalg namespace."""
from tfc.ops.math_ops import matmul  # noqa: F401
from tfc.ops.array_ops import matrix_transpose  # noqa: F401

transpose = matrix_transpose
