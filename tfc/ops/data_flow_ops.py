"""Row partitioning and stitching (TF 1.15 `data_flow_ops`):
tf.dynamic_partition, tf.dynamic_stitch, tf.parallel_dynamic_stitch."""
from tfc.framework import ops as _ops
from tfc.framework.op_def_library import _apply_op


def dynamic_partition(data, partitions, num_partitions, name=None):
  """Splits `data` into `num_partitions` tensors: the rows (the elements under
  each position of `partitions`) whose partition is i go to output i, in order.

  Raises InvalidArgumentError at run time for a partition outside [0, num_partitions).
  """
  if not isinstance(num_partitions, int) or num_partitions < 1:
    raise ValueError("num_partitions must be an int >= 1, got %r" % (num_partitions,))
  return list(_apply_op("DynamicPartition", name, [data, partitions],
                        {"num_partitions": num_partitions}).outputs)


def dynamic_stitch(indices, data, name=None):
  """Interleaves the rows of `data[i]` into one tensor: merged[indices[i][k]] = data[i][k]
  (later entries win for repeated indices)."""
  indices = list(indices)
  data = list(data)
  if len(indices) != len(data):
    raise ValueError("dynamic_stitch needs as many data tensors as index tensors (%d vs %d)"
                     % (len(data), len(indices)))
  return _apply_op("DynamicStitch", name, [indices, data]).outputs[0]


def parallel_dynamic_stitch(indices, data, name=None):
  """dynamic_stitch with an unspecified winner among repeated indices (here: the last)."""
  indices = list(indices)
  data = list(data)
  if len(indices) != len(data):
    raise ValueError("parallel_dynamic_stitch needs as many data tensors as index tensors "
                     "(%d vs %d)" % (len(data), len(indices)))
  return _apply_op("ParallelDynamicStitch", name, [indices, data]).outputs[0]


_ = _ops
