"""tf.nn.local_response_normalization (tf.nn.lrn): the LRN kernel."""
from tfc.framework.op_def_library import _apply_op


def local_response_normalization(input, depth_radius=5, bias=1, alpha=1, beta=0.5,  # pylint: disable=redefined-builtin
                                 name=None):
  """Normalizes each element of a 4-D input by the squares of its neighbours
  along the last dimension: input / (bias + alpha * sum(window^2))^beta, the
  window reaching depth_radius entries on each side."""
  attrs = {"depth_radius": int(depth_radius), "bias": float(bias), "alpha": float(alpha),
           "beta": float(beta)}
  return _apply_op("LRN", name, [input], attrs).outputs[0]


lrn = local_response_normalization
