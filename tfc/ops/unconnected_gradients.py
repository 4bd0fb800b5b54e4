"""tf.UnconnectedGradients: what tf.gradients returns for an x that ys do not depend on."""
import enum


class UnconnectedGradients(enum.Enum):
  """NONE: the gradient is None (TF 1.x's default). ZERO: a zero tensor shaped like x."""
  NONE = "none"
  ZERO = "zero"
