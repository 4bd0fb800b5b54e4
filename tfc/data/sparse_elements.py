"""SparseTensor components of tf.data elements.

Inside the C dataset ops a sparse component travels as a string vector [3]
(SerializeSparse: its indices, values and dense shape as TensorProtos);
Dataset and Iterator keep, beside the encoded types and shapes, a `sparse`
structure naming for each component either None (a dense tensor) or
(values dtype, TensorShape of the sparse tensor). Functions traced by map,
filter, flat_map, ... see SparseTensors (decoded on entry, encoded on
return), batch stacks the triples with DeserializeManySparse (TF's batching of
sparse components: the dense shape is the largest of each dimension) and
get_next decodes them.
"""
from tfc import dtypes as _dtypes
from tfc.framework import ops as _ops
from tfc.framework import sparse_tensor as _sparse_tensor
from tfc.framework import tensor_shape as _tensor_shape

ENCODED_SHAPE = _tensor_shape.TensorShape([3])


def is_sparse(x):
  return isinstance(x, (_sparse_tensor.SparseTensor, _sparse_tensor.SparseTensorValue))


def encode(x, many=False):
  """(encoded [3] string tensor, sparse info) of a SparseTensor; with many,
  its rows' ([N, 3], SerializeManySparse) and the info of one row."""
  from tfc.ops import encoding_ops  # pylint: disable=g-import-not-at-top
  if isinstance(x, _sparse_tensor.SparseTensorValue):
    x = _sparse_tensor.SparseTensor.from_value(x)
  shape = x.get_shape()
  if shape.ndims is None:
    raise ValueError("tf.data needs the rank of a SparseTensor component: %s" % (x,))
  if many:
    if shape.ndims < 1:
      raise ValueError("Slicing a SparseTensor needs rank >= 1: %s" % (x,))
    return encoding_ops.serialize_many_sparse(x), (x.dtype, shape[1:])
  return encoding_ops.serialize_sparse(x), (x.dtype, shape)


def decode(t, info):
  """The SparseTensor of an encoded [3] string tensor."""
  from tfc.ops import array_ops, encoding_ops  # pylint: disable=g-import-not-at-top
  dtype, shape = info
  rank = shape.ndims
  st = encoding_ops.deserialize_many_sparse(array_ops.expand_dims(t, 0), dtype, rank=rank + 1)
  indices = array_ops.slice(st.indices, [0, 1], [-1, rank])
  dense_shape = array_ops.slice(st.dense_shape, [1], [rank])
  out = _sparse_tensor.SparseTensor(indices, st.values, dense_shape)
  out._dense_shape_default = shape  # pylint: disable=protected-access
  return out


def decode_batch(t, info):
  """The SparseTensor (a new first dimension) of a [B, 3] batch of encoded ones."""
  from tfc.ops import encoding_ops  # pylint: disable=g-import-not-at-top
  dtype, shape = info
  return encoding_ops.deserialize_many_sparse(t, dtype, rank=shape.ndims + 1)


def public(encoded, sparse, kind):
  """The dataset's public types / shapes / classes (kind) from its encoded
  ones (a flat list) and flat sparse infos."""
  out = []
  for e, s in zip(encoded, sparse):
    if kind == "types":
      out.append(e if s is None else s[0])
    elif kind == "shapes":
      out.append(e if s is None else s[1])
    else:
      out.append(_ops.Tensor if s is None else _sparse_tensor.SparseTensor)
  return out


def batched(sparse_flat, static_bs):
  """The sparse infos of a batch of elements."""
  return [None if s is None else
          (s[0], _tensor_shape.TensorShape([static_bs]).concatenate(s[1])) for s in sparse_flat]


def string_type():
  return _dtypes.string
