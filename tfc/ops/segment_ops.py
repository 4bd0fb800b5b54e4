"""Segment reductions beyond sums and means: unsorted_segment_max/min/prod
(one C kernel each) and the sorted segment_max/min/prod built on them, as
segment_sum is (ids checked to be sorted; empty segments give 0 as TF's
Segment* kernels do)."""
from tfc import dtypes as _dtypes
from tfc.framework import ops as _ops
from tfc.framework.op_def_library import _apply_op


def unsorted_segment_max(data, segment_ids, num_segments, name=None):
  """The maximum of the rows of `data` in each of `num_segments` segments.

  Rows with a negative id are dropped; an empty segment holds the lowest value
  of the dtype; an id >= num_segments fails the step (InvalidArgumentError)."""
  return _apply_op("UnsortedSegmentMax", name, [data, segment_ids, num_segments]).outputs[0]


def unsorted_segment_min(data, segment_ids, num_segments, name=None):
  """The minimum of the rows of `data` per segment (empty: the dtype's highest value)."""
  return _apply_op("UnsortedSegmentMin", name, [data, segment_ids, num_segments]).outputs[0]


def unsorted_segment_prod(data, segment_ids, num_segments, name=None):
  """The product of the rows of `data` per segment (empty: 1)."""
  return _apply_op("UnsortedSegmentProd", name, [data, segment_ids, num_segments]).outputs[0]


def _sorted(fn, op_name, data, segment_ids, name):
  from tfc.ops import array_ops, math_ops  # pylint: disable=g-import-not-at-top
  with _ops.name_scope(name, op_name, [data, segment_ids]):
    data = _ops.convert_to_tensor(data, name="data")
    ids, count = math_ops._segment_count(segment_ids)  # pylint: disable=protected-access
    result = fn(data, ids, count)
    if fn is unsorted_segment_prod:
      return result
    counts = math_ops._segment_counts(  # pylint: disable=protected-access
        array_ops.ones_like(data, dtype=_dtypes.float32), ids, count)
    nonempty = math_ops.greater(
        math_ops.unsorted_segment_sum(array_ops.ones_like(ids, dtype=_dtypes.float32), ids,
                                      count), 0.0)
    nonempty = array_ops.reshape(nonempty, array_ops.shape(counts))
    return array_ops.where_v2(nonempty, result, array_ops.zeros_like(result))


def segment_max(data, segment_ids, name=None):
  """The maximum of the rows of data per sorted segment id; output rows 0..max(id), 0 for
  ids with no rows."""
  return _sorted(unsorted_segment_max, "SegmentMax", data, segment_ids, name)


def segment_min(data, segment_ids, name=None):
  """The minimum of the rows of data per sorted segment id (0 for ids with no rows)."""
  return _sorted(unsorted_segment_min, "SegmentMin", data, segment_ids, name)


def segment_prod(data, segment_ids, name=None):
  """The product of the rows of data per sorted segment id (1 for ids with no rows)."""
  return _sorted(unsorted_segment_prod, "SegmentProd", data, segment_ids, name)
