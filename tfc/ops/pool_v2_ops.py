"""tf.nn.max_pool_v2 / avg_pool_v2: pooling that picks the 1-D, 2-D or 3-D op
from the input's rank."""
from tfc.framework import ops as _ops


def _pool_v2(kind, input, ksize, strides, padding, data_format, name):  # noqa: A002
  from tfc.ops import nn_ops  # pylint: disable=g-import-not-at-top
  input = _ops.convert_to_tensor(input, name="input")
  rank = input.shape.ndims
  if rank == 3:
    fn = nn_ops.max_pool1d if kind == "max" else nn_ops.avg_pool1d
    return fn(input, ksize, strides, padding, data_format=data_format or "NWC", name=name)
  if rank == 4:
    fn = nn_ops.max_pool2d if kind == "max" else nn_ops.avg_pool2d
    return fn(input, ksize, strides, padding, data_format=data_format or "NHWC", name=name)
  if rank == 5:
    from tfc.ops import nn3d_ops  # pylint: disable=g-import-not-at-top
    fn = nn3d_ops.max_pool3d if kind == "max" else nn3d_ops.avg_pool3d
    return fn(input, ksize, strides, padding, data_format=data_format or "NDHWC", name=name)
  raise ValueError("Input tensor must be of rank 3, 4 or 5 but was %s." % rank)


def max_pool_v2(input, ksize, strides, padding, data_format=None, name=None):  # noqa: A002
  """Max pooling over the spatial dimensions of a rank-3, 4 or 5 (1-D, 2-D, 3-D) input."""
  return _pool_v2("max", input, ksize, strides, padding, data_format, name)


def avg_pool_v2(input, ksize, strides, padding, data_format=None, name=None):  # noqa: A002
  """Average pooling over the spatial dimensions of a rank-3, 4 or 5 (1-D, 2-D, 3-D) input."""
  return _pool_v2("avg", input, ksize, strides, padding, data_format, name)
