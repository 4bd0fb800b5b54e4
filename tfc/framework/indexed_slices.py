"""tf.IndexedSlices: a sparse set of rows of a dense tensor (TF 1.15).

`values[i]` is row `indices[i]` of a tensor of shape `dense_shape`; indices may
repeat (the rows add up). It is how the gradient of `tf.gather` /
`tf.nn.embedding_lookup` reaches an optimizer, so that a large embedding's
update touches only the rows looked up. Fetching one from a session gives an
`IndexedSlicesValue`; handing one to an op that needs a dense tensor sums the
rows into a dense tensor of `dense_shape` (UnsortedSegmentSum).
"""
import collections

from tfc.framework import ops as _ops

# Dense tensors converted from IndexedSlices above this many elements log a warning
# (as TensorFlow does: that costs memory proportional to the whole tensor).
_LARGE_SPARSE_NUM_ELEMENTS = 100000000


class IndexedSlicesValue(collections.namedtuple("IndexedSlicesValue",
                                                ["values", "indices", "dense_shape"])):
  """The value of an IndexedSlices: NumPy arrays (values, indices, dense_shape)."""
  __slots__ = ()


class IndexedSlices(object):
  """Rows `indices` of a dense tensor of shape `dense_shape`, with `values`."""

  _tfc_indexed_slices = True  # recognised without importing this module

  def __init__(self, values, indices, dense_shape=None):
    self._values = values
    self._indices = indices
    self._dense_shape = dense_shape

  @property
  def values(self):
    """The [N, ...] tensor of rows."""
    return self._values

  @property
  def indices(self):
    """The [N] int32/int64 tensor of the rows' indices."""
    return self._indices

  @property
  def dense_shape(self):
    """The int tensor of the dense shape, or None."""
    return self._dense_shape

  @property
  def name(self):
    return self._values.name

  @property
  def device(self):
    return self._values.device

  @property
  def op(self):
    return self._values.op

  @property
  def dtype(self):
    return self._values.dtype

  @property
  def graph(self):
    return self._values.graph

  def _static_dense_shape(self):
    from tfc.framework import tensor_shape  # pylint: disable=g-import-not-at-top
    shape = _constant_shape(self._dense_shape)
    if shape is not None:
      return tensor_shape.TensorShape(shape)
    vshape = self._values.get_shape()
    if vshape.ndims is None:
      return tensor_shape.TensorShape(None)
    return tensor_shape.TensorShape([None] + vshape.as_list()[1:])

  @property
  def shape(self):
    """The static shape of the dense tensor this represents."""
    return self._static_dense_shape()

  def get_shape(self):
    return self._static_dense_shape()

  def consumers(self):
    return self._values.consumers()

  def __neg__(self):
    from tfc.ops import math_ops  # pylint: disable=g-import-not-at-top
    return IndexedSlices(math_ops.negative(self._values), self._indices, self._dense_shape)

  def __str__(self):
    return "IndexedSlices(indices=%s, values=%s%s)" % (
        self._indices, self._values,
        (", dense_shape=%s" % self._dense_shape) if self._dense_shape is not None else "")

  __repr__ = __str__

  # Session hooks: a fetch gives an IndexedSlicesValue.
  def _tfc_fetch_parts(self):
    if self._dense_shape is None:
      return [self._values, self._indices], lambda v: IndexedSlicesValue(v[0], v[1], None)
    return ([self._values, self._indices, self._dense_shape],
            lambda v: IndexedSlicesValue(*v))


def _constant_shape(t):
  """The values of a dense_shape tensor known at graph build time (a Const, or
  the Shape of a tensor of fully defined shape), else None."""
  if t is None:
    return None
  op = t.op
  try:
    if op.type == "Const":
      from tfc.framework import graph_io  # pylint: disable=g-import-not-at-top
      value = op.get_attr("value")
      arr = value if hasattr(value, "tolist") else graph_io.make_ndarray(value)
      return [int(d) for d in arr.reshape(-1).tolist()]
    if op.type == "Shape" and op.inputs[0].get_shape().is_fully_defined():
      return op.inputs[0].get_shape().as_list()
  except Exception:  # pylint: disable=broad-except
    return None
  return None


def _dense_from_slices(value, name=None):
  """The dense tensor of an IndexedSlices: UnsortedSegmentSum of the rows into
  dense_shape[0] segments, reshaped to dense_shape when that is not static."""
  from tfc.framework.op_def_library import _apply_op  # pylint: disable=g-import-not-at-top
  from tfc.framework import constant_op  # pylint: disable=g-import-not-at-top
  with _ops.name_scope(name, "IndexedSlicesToDense",
                       [value.values, value.indices, value.dense_shape]):
    shape = _constant_shape(value.dense_shape)
    if shape is not None:
      n = constant_op.constant(shape[0], dtype=value.indices.dtype.base_dtype)
      return _apply_op("UnsortedSegmentSum", None, [value.values, value.indices, n]).outputs[0]
    ds = value.dense_shape
    n = _apply_op("StridedSlice", None, [ds, constant_op.constant([0]), constant_op.constant([1]),
                                         constant_op.constant([1])],
                  {"shrink_axis_mask": 1}).outputs[0]
    dense = _apply_op("UnsortedSegmentSum", None, [value.values, value.indices, n]).outputs[0]
    return _apply_op("Reshape", None, [dense, ds]).outputs[0]


def _to_dense(value, dtype=None, name=None, as_ref=False):
  """IndexedSlices -> dense Tensor (rows summed into place)."""
  del as_ref
  from tfc import logging  # pylint: disable=g-import-not-at-top
  if dtype and not dtype.is_compatible_with(value.dtype):
    raise ValueError("Tensor conversion requested dtype %s for Tensor with dtype %s: %r" %
                     (dtype.name, value.dtype.name, str(value)))
  if value.dense_shape is None:
    raise ValueError("Tensor conversion requested for IndexedSlices without dense_shape: %s" %
                     str(value))
  shape = value.get_shape()
  if shape.is_fully_defined():
    n = 1
    for d in shape.as_list():
      n *= d
    if n >= _LARGE_SPARSE_NUM_ELEMENTS:
      logging.warning("Converting sparse IndexedSlices to a dense Tensor with %d elements. "
                      "This may consume a large amount of memory." % n)
  else:
    logging.warning("Converting sparse IndexedSlices to a dense Tensor of unknown shape. "
                    "This may consume a large amount of memory.")
  return _dense_from_slices(value, name=name)


_ops.register_tensor_conversion_function(IndexedSlices, _to_dense)
