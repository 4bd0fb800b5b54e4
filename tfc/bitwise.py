"""tf.bitwise: elementwise bitwise ops on integer tensors."""
from tfc.ops.special_math_ops import (bitwise_and, bitwise_or, bitwise_xor,  # noqa: F401
                                      left_shift, right_shift, invert)
