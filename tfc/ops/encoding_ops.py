"""Byte encodings of strings and tensors, and file-name patterns: tf.io.encode_base64,
decode_base64, decode_compressed, serialize_tensor, parse_tensor, matching_files and
match_filenames_once (TF 1.15 names and op names)."""
from tfc import dtypes as _dtypes
from tfc.framework import ops as _ops
from tfc.framework.op_def_library import _apply_op


def encode_base64(input, pad=False, name=None):  # pylint: disable=redefined-builtin
  """Web-safe base64 ('-' and '_') of every string; '=' padding when pad."""
  return _apply_op("EncodeBase64", name, [input], {"pad": bool(pad)}).outputs[0]


def decode_base64(input, name=None):  # pylint: disable=redefined-builtin
  """Decodes web-safe base64 strings (padded or not); InvalidArgumentError on bad input."""
  return _apply_op("DecodeBase64", name, [input]).outputs[0]


def decode_compressed(bytes, compression_type="", name=None):  # pylint: disable=redefined-builtin
  """Inflates every string compressed with "ZLIB" or "GZIP" ("" passes them through);
  DataLossError for a damaged stream."""
  return _apply_op("DecodeCompressed", name, [bytes],
                   {"compression_type": compression_type}).outputs[0]


def serialize_tensor(tensor, name=None):
  """The serialized TensorProto of tensor, as a scalar string."""
  return _apply_op("SerializeTensor", name, [tensor]).outputs[0]


def parse_tensor(serialized, out_type, name=None):
  """The tensor of dtype out_type whose TensorProto is the scalar string serialized."""
  return _apply_op("ParseTensor", name, [serialized],
                   {"out_type": _dtypes.as_dtype(out_type)}).outputs[0]


def matching_files(pattern, name=None):
  """The sorted names of the files matching a glob pattern (or a vector of them)."""
  return _apply_op("MatchingFiles", name, [pattern]).outputs[0]


def match_filenames_once(pattern, name=None):
  """A local variable holding matching_files(pattern), computed once when local variables
  are initialized."""
  from tfc.ops import variables as _variables  # pylint: disable=g-import-not-at-top
  with _ops.name_scope(name, "matching_filenames", [pattern]) as scope:
    return _variables.Variable(matching_files(pattern), trainable=False, name=scope,
                               validate_shape=False,
                               collections=[_ops.GraphKeys.LOCAL_VARIABLES])


def serialize_sparse(sp_input, name=None, out_type=_dtypes.string):
  """A SparseTensor as a string vector of three serialized TensorProtos (indices, values,
  dense shape)."""
  from tfc.framework import sparse_tensor as _sparse  # pylint: disable=g-import-not-at-top
  sp_input = _sparse.convert_to_tensor_or_sparse_tensor(sp_input)
  return _apply_op("SerializeSparse", name,
                   [sp_input.indices, sp_input.values, sp_input.dense_shape],
                   {"out_type": _dtypes.as_dtype(out_type)}).outputs[0]


def serialize_many_sparse(sp_input, name=None, out_type=_dtypes.string):
  """A rank >= 2 SparseTensor as an [N, 3] string matrix: one serialize_sparse triple per
  entry of its first dimension (without that dimension)."""
  from tfc.framework import sparse_tensor as _sparse  # pylint: disable=g-import-not-at-top
  sp_input = _sparse.convert_to_tensor_or_sparse_tensor(sp_input)
  return _apply_op("SerializeManySparse", name,
                   [sp_input.indices, sp_input.values, sp_input.dense_shape],
                   {"out_type": _dtypes.as_dtype(out_type)}).outputs[0]


def deserialize_many_sparse(serialized_sparse, dtype, rank=None, name=None):
  """Stacks the serialized sparse tensors of an [N, 3] string matrix into one SparseTensor
  with a new first dimension of size N (the other dimensions: the largest of each)."""
  from tfc.framework import sparse_tensor as _sparse  # pylint: disable=g-import-not-at-top
  op = _apply_op("DeserializeManySparse", name, [serialized_sparse],
                 {"dtype": _dtypes.as_dtype(dtype)})
  indices, values, shape = op.outputs
  if rank is not None:
    indices.set_shape([None, rank])
    shape.set_shape([rank])
  return _sparse.SparseTensor(indices, values, shape)
