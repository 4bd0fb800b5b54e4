"""Variable partitioners (tf.fixed_size_partitioner, tf.min_max_variable_partitioner,
tf.variable_axis_size_partitioner).

A partitioner is a function (shape, dtype) -> list of ints: how many shards each
dimension of a variable of that shape is cut into (at most one entry above 1).
"""
import math

from tfc import dtypes as _dtypes
from tfc.framework import tensor_shape as _tensor_shape


def _element_bytes(dtype, bytes_per_string_element):
  dtype = _dtypes.as_dtype(dtype).base_dtype
  return bytes_per_string_element if dtype == _dtypes.string else dtype.size


def variable_axis_size_partitioner(max_shard_bytes, axis=0, bytes_per_string_element=16,
                                   max_shards=None):
  """A partitioner that cuts `axis` into as few shards as keep each under max_shard_bytes
  (at least one slice per shard; at most max_shards shards when given)."""
  if max_shard_bytes < 1 or bytes_per_string_element < 1:
    raise ValueError("Both max_shard_bytes and bytes_per_string_element must be positive.")
  if max_shards and max_shards < 1:
    raise ValueError("max_shards must be positive.")

  def _partitioner(shape, dtype):
    if not isinstance(shape, _tensor_shape.TensorShape):
      raise ValueError("shape is not a TensorShape: %s" % shape)
    if not shape.is_fully_defined():
      raise ValueError("shape is not fully defined: %s" % shape)
    if not isinstance(dtype, _dtypes.DType):
      raise ValueError("dtype is not a DType: %s" % dtype)
    dims = shape.as_list()
    partitions = [1] * len(dims)
    axis_len = dims[axis]
    slice_bytes = (shape.num_elements() / axis_len if axis_len else 0) * \
        _element_bytes(dtype, bytes_per_string_element)
    slices_per_shard = max(1, int(math.floor(max_shard_bytes / slice_bytes))) \
        if slice_bytes else max(1, axis_len)
    shards = int(math.ceil(float(axis_len) / slices_per_shard))
    if max_shards:
      shards = min(max_shards, shards)
    partitions[axis] = shards
    return partitions
  return _partitioner


def min_max_variable_partitioner(max_partitions=1, axis=0, min_slice_size=256 << 10,
                                 bytes_per_string_element=16):
  """A partitioner giving each shard at least min_slice_size bytes, with at most
  max_partitions shards (and no more than the axis has rows)."""
  if min_slice_size <= 0:
    raise ValueError("min_slice_size must be positive, got %d" % min_slice_size)

  def _partitioner(shape, dtype):
    shape = _tensor_shape.TensorShape(shape)
    if axis >= shape.ndims:
      raise ValueError("Can not partition on axis %d since the shape has only %d dims"
                       % (axis, shape.ndims))
    total = shape.num_elements() * _element_bytes(dtype, bytes_per_string_element)
    wanted = int(math.ceil(total / float(min_slice_size)))
    partitions = [1] * shape.ndims
    partitions[axis] = max(1, min(shape.as_list()[axis], max_partitions, wanted))
    return partitions
  return _partitioner


def fixed_size_partitioner(num_shards, axis=0):
  """A partitioner cutting `axis` into num_shards shards (fewer when it has fewer rows)."""
  def _partitioner(shape, **unused_kwargs):
    shape = _tensor_shape.TensorShape(shape)
    partitions = [1] * shape.ndims
    partitions[axis] = min(num_shards, shape.as_list()[axis])
    return partitions
  return _partitioner
