"""tf.SparseTensor and tf.SparseTensorValue (TF 1.15's shapes of them).

A SparseTensor is three tensors of one graph: `indices` (int64 [N, rank]),
`values` ([N], any dtype) and `dense_shape` (int64 [rank]). Fetching one from
a session gives a `SparseTensorValue` (a namedtuple of three NumPy arrays);
feeding one takes a SparseTensorValue or an (indices, values, dense_shape)
tuple. Ops that produce sparse results (tf.parse_example's VarLenFeature,
tf.string_split) return SparseTensors.
"""
import collections

from tfc import dtypes as _dtypes
from tfc.framework import ops as _ops
from tfc.framework import tensor_shape as _tensor_shape


class SparseTensorValue(collections.namedtuple("SparseTensorValue",
                                               ["indices", "values", "dense_shape"])):
  """The value of a SparseTensor: NumPy arrays (indices, values, dense_shape)."""
  __slots__ = ()


class SparseTensor(object):
  """A sparse tensor: `indices`, `values` and `dense_shape` tensors."""

  @classmethod
  def from_value(cls, sparse_tensor_value):
    """A SparseTensor of constants from a SparseTensorValue (or a SparseTensor as is)."""
    if isinstance(sparse_tensor_value, SparseTensor):
      return sparse_tensor_value
    if not is_sparse(sparse_tensor_value):
      raise TypeError("Neither a SparseTensor nor SparseTensorValue: %s." % sparse_tensor_value)
    return SparseTensor(indices=sparse_tensor_value.indices,
                        values=sparse_tensor_value.values,
                        dense_shape=sparse_tensor_value.dense_shape)

  def __init__(self, indices, values, dense_shape):
    with _ops.name_scope(None, "SparseTensor", [indices, values, dense_shape]):
      indices = _ops.convert_to_tensor(indices, name="indices", dtype=_dtypes.int64)
      values = _ops.convert_to_tensor(values, name="values")
      dense_shape = _ops.convert_to_tensor(dense_shape, name="dense_shape", dtype=_dtypes.int64)
    self._indices = indices
    self._values = values
    self._dense_shape = dense_shape
    indices.get_shape().with_rank(2)
    values.get_shape().with_rank(1)
    dense_shape.get_shape().with_rank(1)
    self._dense_shape_default = self._static_shape()

  def _static_shape(self):
    """The TensorShape the dense_shape tensor implies (a constant gives its values)."""
    ds = self._dense_shape
    if ds.op.type == "Const":
      try:
        value = ds.op.get_attr("value")
        from tfc.framework import graph_io  # pylint: disable=g-import-not-at-top
        arr = graph_io.make_ndarray(value) if not hasattr(value, "tolist") else value
        return _tensor_shape.TensorShape([int(d) for d in arr.tolist()])
      except Exception:  # pylint: disable=broad-except
        pass
    n = ds.get_shape()[0]
    n = _tensor_shape.dimension_value(n)
    return _tensor_shape.TensorShape(None if n is None else [None] * n)

  @property
  def indices(self):
    """The int64 [N, rank] tensor of the non-empty elements' coordinates."""
    return self._indices

  @property
  def values(self):
    """The [N] tensor of the non-empty elements' values."""
    return self._values

  @property
  def dense_shape(self):
    """The int64 [rank] tensor of the dense shape."""
    return self._dense_shape

  @property
  def op(self):
    """The Operation that produces `values`."""
    return self._values.op

  @property
  def dtype(self):
    """The DType of the values."""
    return self._values.dtype

  @property
  def graph(self):
    """The Graph that holds the three tensors."""
    return self._indices.graph

  @property
  def shape(self):
    """The static TensorShape of the dense tensor this represents."""
    return self._dense_shape_default

  def get_shape(self):
    """The static TensorShape of the dense tensor this represents."""
    return self._dense_shape_default

  def consumers(self):
    """Operations consuming any of the three tensors."""
    seen = []
    for t in (self._indices, self._values, self._dense_shape):
      for op in t.consumers():
        if op not in seen:
          seen.append(op)
    return seen

  def eval(self, feed_dict=None, session=None):
    """Runs the three tensors in `session` (default: the default session)."""
    if session is None:
      session = _ops.get_default_session()
      if session is None:
        raise ValueError("Cannot evaluate tensor using `eval()`: No default session is "
                         "registered. Use `with sess.as_default()` or pass an explicit session "
                         "to `eval(session=sess)`")
    return session.run(self, feed_dict=feed_dict)

  def __str__(self):
    return "SparseTensor(indices=%s, values=%s, dense_shape=%s)" % (
        self._indices, self._values, self._dense_shape)

  __repr__ = __str__

  # Session hooks: a fetch is its three tensors, rebuilt into a SparseTensorValue;
  # a feed gives each tensor its part of the value.
  def _tfc_fetch_parts(self):
    return [self._indices, self._values, self._dense_shape], lambda v: SparseTensorValue(*v)

  def _tfc_feed_parts(self, value):
    if isinstance(value, SparseTensor):
      raise TypeError("The value of a feed cannot be a tf.SparseTensor object.")
    if not (isinstance(value, SparseTensorValue) or
            (isinstance(value, tuple) and len(value) == 3)):
      raise TypeError("A SparseTensor must be fed a SparseTensorValue or an (indices, values, "
                      "dense_shape) tuple, got %r" % type(value).__name__)
    return [(self._indices, value[0]), (self._values, value[1]), (self._dense_shape, value[2])]


def is_sparse(x):
  """True for a SparseTensor or a SparseTensorValue."""
  return isinstance(x, (SparseTensor, SparseTensorValue))


def convert_to_tensor_or_sparse_tensor(value, dtype=None, name=None):
  """A SparseTensor for sparse values, else convert_to_tensor(value)."""
  if isinstance(value, SparseTensorValue):
    value = SparseTensor.from_value(value)
  if isinstance(value, SparseTensor):
    if dtype and not _dtypes.as_dtype(dtype).is_compatible_with(value.dtype):
      raise RuntimeError("Sparse dtype: requested = %s, actual = %s" % (
          _dtypes.as_dtype(dtype).name, value.dtype.name))
    return value
  return _ops.convert_to_tensor(value, dtype=dtype, name=name)
