"""Parsing ops: tf.parse_example / tf.parse_single_example with the feature
configurations (FixedLenFeature, VarLenFeature, FixedLenSequenceFeature),
tf.decode_raw, tf.decode_csv and tf.string_split, as TF 1.15 builds them.

parse_example emits one `ParseExample` op and parse_single_example one
`ParseSingleExample` (TF 1.15's ops; TensorFlow 2.x still runs them, and tfc
also runs the `ParseExampleV2` graphs TensorFlow 2.x writes). The parsing
itself is C: the serialized Examples are read straight from their wire bytes.
"""
import collections
import re

import numpy as _np

from tfc import dtypes as _dtypes
from tfc.framework import ops as _ops
from tfc.framework import tensor_shape as _tensor_shape
from tfc.framework.op_def_library import _apply_op
from tfc.framework.sparse_tensor import SparseTensor

_PARSE_TYPES = (_dtypes.float32, _dtypes.int64, _dtypes.string)


class VarLenFeature(collections.namedtuple("VarLenFeature", ["dtype"])):
  """A feature with any number of values: parsed into a SparseTensor."""
  __slots__ = ()


class FixedLenFeature(collections.namedtuple("FixedLenFeature",
                                             ["shape", "dtype", "default_value"])):
  """A feature with a fixed number of values: parsed into a dense Tensor of `shape`.

  Without default_value the feature is required in every Example.
  """
  __slots__ = ()

  def __new__(cls, shape, dtype, default_value=None):
    return super(FixedLenFeature, cls).__new__(cls, shape, dtype, default_value)


class FixedLenSequenceFeature(collections.namedtuple(
    "FixedLenSequenceFeature", ["shape", "dtype", "allow_missing", "default_value"])):
  """A feature holding any number of rows of `shape`: parsed into a dense Tensor
  [batch, rows, *shape] padded with default_value (parse_example needs
  allow_missing=True)."""
  __slots__ = ()

  def __new__(cls, shape, dtype, allow_missing=False, default_value=None):
    return super(FixedLenSequenceFeature, cls).__new__(cls, shape, dtype, allow_missing,
                                                       default_value)


class SparseFeature(collections.namedtuple(
    "SparseFeature", ["index_key", "value_key", "dtype", "size", "already_sorted"])):
  """A SparseTensor built from an index feature (or several: one per
  dimension) and a value feature of the same Example: entry
  [index_key values...] = value_key value, dense_shape `size` (a list with
  several index keys), as TF builds it (tf.sparse_merge of the two parsed
  VarLenFeatures; reordered unless already_sorted)."""
  __slots__ = ()

  def __new__(cls, index_key, value_key, dtype, size, already_sorted=False):
    return super(SparseFeature, cls).__new__(cls, index_key, value_key, dtype, size,
                                             already_sorted)


def _add_varlen(raw, key, dtype):
  """Adds VarLenFeature(dtype) for key to raw unless it holds the same."""
  dtype = _dtypes.as_dtype(dtype)
  have = raw.get(key)
  if have is None:
    raw[key] = VarLenFeature(dtype)
  elif not isinstance(have, VarLenFeature) or _dtypes.as_dtype(have.dtype) != dtype:
    have_dtype = getattr(have, "dtype", None)
    if isinstance(have, VarLenFeature):
      raise ValueError("Conflicting type %s vs %s for feature %s." % (
          _dtypes.as_dtype(have_dtype), dtype, key))
    raise ValueError("Dense and sparse keys must not intersect; feature %s is both" % key)


def _expand_sparse_features(features):
  """(raw features, sparse features): every SparseFeature replaced by
  VarLenFeatures of its index keys (int64) and value key (its dtype)."""
  if not features:
    return features, {}
  sparse = {k: f for k, f in features.items() if isinstance(f, SparseFeature)}
  if not sparse:
    return features, {}
  raw = {k: f for k, f in features.items() if not isinstance(f, SparseFeature)}
  for key in sorted(sparse):
    f = sparse[key]
    if not f.index_key:
      raise ValueError("Missing index_key for SparseFeature %s." % (f,))
    if not f.value_key:
      raise ValueError("Missing value_key for SparseFeature %s." % (f,))
    if not f.dtype:
      raise ValueError("Missing type for feature %s. Received feature=%s" % (key, f))
    index_keys = [f.index_key] if isinstance(f.index_key, str) else list(f.index_key)
    for index_key in sorted(index_keys):
      _add_varlen(raw, index_key, _dtypes.int64)
    _add_varlen(raw, f.value_key, f.dtype)
  return raw, sparse


def _merge_sparse_features(features, sparse, result):
  """The result dict with each SparseFeature merged from its parsed parts
  (tf.sparse_merge) and the parts only it asked for removed."""
  if not sparse:
    return result
  from tfc.ops import sparse_ops as _sparse_ops  # pylint: disable=g-import-not-at-top
  for key in sorted(sparse):
    f = sparse[key]
    if isinstance(f.index_key, str):
      sp_ids, size = result[f.index_key], f.size
    else:
      sp_ids, size = [result[k] for k in f.index_key], list(f.size)
    merged = _sparse_ops.sparse_merge(sp_ids, result[f.value_key], size,
                                      already_sorted=f.already_sorted)
    first = sp_ids if isinstance(sp_ids, SparseTensor) else sp_ids[0]
    id_rank = _tensor_shape.dimension_value(first.dense_shape.shape[0]) \
        if first.dense_shape.shape.ndims == 1 else None
    if id_rank is not None:  # the rank is static, as TF's shape inference finds it
      rank = id_rank - 1 + (1 if isinstance(f.index_key, str) else len(f.index_key))
      merged.indices.set_shape([None, rank])
      merged.dense_shape.set_shape([rank])
      merged = SparseTensor(merged.indices, merged.values, merged.dense_shape)
    result[key] = merged
  for key in set(result) - set(features):
    del result[key]
  return result


def _as_shape_list(shape):
  if shape is None:
    raise ValueError("Missing shape")
  shape = _tensor_shape.as_shape(shape)
  if shape.ndims is None or not shape.is_fully_defined():
    raise ValueError("Shape %s must be fully defined" % shape)
  return [int(d) for d in shape.as_list()]


def _check_dtype(key, dtype):
  dtype = _dtypes.as_dtype(dtype)
  if dtype not in _PARSE_TYPES:
    raise ValueError("Unsupported %s for feature %s: only float32, int64 and string are "
                     "supported" % (dtype.name, key))
  return dtype


class _RawParams(object):
  """The op inputs and attrs of a feature dict (keys sorted, as TF does)."""

  def __init__(self, features, single):
    if not features:
      raise ValueError("Missing: features was %s." % features)
    self.sparse_keys, self.sparse_types = [], []
    self.dense_keys, self.dense_types, self.dense_shapes, self.dense_defaults = [], [], [], []
    for key in sorted(features):
      f = features[key]
      if isinstance(f, VarLenFeature):
        self.sparse_keys.append(key)
        self.sparse_types.append(_check_dtype(key, f.dtype))
      elif isinstance(f, FixedLenFeature):
        self.dense_keys.append(key)
        self.dense_types.append(_check_dtype(key, f.dtype))
        self.dense_shapes.append(_as_shape_list(f.shape))
        self.dense_defaults.append(f.default_value)
      elif isinstance(f, FixedLenSequenceFeature):
        if not single and not f.allow_missing:
          raise ValueError("Unsupported: FixedLenSequenceFeature requires allow_missing to be "
                           "True.")
        self.dense_keys.append(key)
        self.dense_types.append(_check_dtype(key, f.dtype))
        self.dense_shapes.append([-1] + _as_shape_list(f.shape))
        self.dense_defaults.append(f.default_value)
      else:
        raise ValueError("Invalid feature %s:%s." % (key, f))

  def default_tensors(self):
    """The dense_defaults inputs: [] for a required feature, else the default
    reshaped to the feature's shape (a scalar pad value for sequences)."""
    out = []
    for key, dtype, shape, default in zip(self.dense_keys, self.dense_types, self.dense_shapes,
                                          self.dense_defaults):
      var = bool(shape) and shape[0] == -1
      if default is None:
        if var:  # a sequence pads with zeros / empty strings
          out.append(_ops.convert_to_tensor("" if dtype == _dtypes.string else 0, dtype=dtype))
        else:  # required
          out.append(_ops.convert_to_tensor(_np.array([], dtype=dtype.as_numpy_dtype)
                                            if dtype != _dtypes.string else
                                            _np.array([], dtype=object), dtype=dtype))
        continue
      if isinstance(default, _ops.Tensor):
        out.append(default)
        continue
      key_name = ("padding_" if var else "key_") + re.sub("[^A-Za-z0-9_.\\-/]", "_", key)
      value = _np.asarray(default, dtype=object if dtype == _dtypes.string else
                          dtype.as_numpy_dtype)
      if var:
        if value.size != 1:
          raise ValueError("default_value of the sequence feature %s must be a scalar" % key)
        value = value.reshape(())
      else:
        want = int(_np.prod(shape)) if shape else 1
        if value.size != want:
          raise ValueError("Cannot reshape a tensor with %d elements to shape %s for the "
                           "default value of feature %s" % (value.size, shape, key))
        value = value.reshape(shape)
      out.append(_ops.convert_to_tensor(value, dtype=dtype, name=key_name))
    return out


def _results(op, params, batch_rank, batch):
  """The output dict: SparseTensors for sparse keys, Tensors for dense ones."""
  s = len(params.sparse_keys)
  outs = op.outputs
  result = {}
  for i, key in enumerate(params.sparse_keys):
    result[key] = SparseTensor(outs[i], outs[s + i], outs[2 * s + i])
  for i, key in enumerate(params.dense_keys):
    t = outs[3 * s + i]
    shape = params.dense_shapes[i]
    dims = [None if d == -1 else d for d in shape]
    t.set_shape(([batch] if batch_rank else []) + dims)
    result[key] = t
  return result


def parse_example(serialized, features, name=None, example_names=None):
  """Parses a batch of serialized tf.train.Example protos (a string vector).

  Args:
    serialized: string vector of serialized Examples.
    features: dict key -> FixedLenFeature / VarLenFeature / FixedLenSequenceFeature /
      SparseFeature.
    name: name of the op.
    example_names: optional string vector naming the Examples (for error messages).

  Returns:
    dict key -> Tensor (dense features, [batch] + shape) or SparseTensor
    (VarLenFeature: indices [N, 2] of (example, position), dense_shape
    [batch, longest]).

  Raises InvalidArgumentError naming the feature key when a feature has the
  wrong type or number of values, or a required one is missing.
  """
  all_features = features
  features, sparse = _expand_sparse_features(features)
  params = _RawParams(features, single=False)
  with _ops.name_scope(name, "ParseExample", [serialized, example_names]):
    serialized = _ops.convert_to_tensor(serialized, dtype=_dtypes.string, name="serialized")
    names = _ops.convert_to_tensor([] if example_names is None else example_names,
                                   dtype=_dtypes.string, name="names")
    sparse_keys = [_ops.convert_to_tensor(k, dtype=_dtypes.string) for k in params.sparse_keys]
    dense_keys = [_ops.convert_to_tensor(k, dtype=_dtypes.string) for k in params.dense_keys]
    defaults = params.default_tensors()
    op = _apply_op("ParseExample", "ParseExample",
                   [serialized, names, sparse_keys, dense_keys, defaults],
                   {"sparse_types": params.sparse_types,
                    "dense_shapes": [_tensor_shape.TensorShape(
                        [None if d == -1 else d for d in s]) for s in params.dense_shapes]})
    shape = serialized.get_shape()
    batch = shape.as_list()[0] if shape.ndims == 1 else None
    return _merge_sparse_features(all_features, sparse, _results(op, params, 1, batch))


def parse_single_example(serialized, features, name=None, example_names=None):
  """Parses one serialized tf.train.Example (a string scalar).

  Returns a dict key -> Tensor of the feature's shape, or SparseTensor
  (indices [N, 1], dense_shape [N]) for a VarLenFeature. example_names is
  accepted for TF's signature and ignored.
  """
  del example_names  # TF 1.15 ignores it as well
  all_features = features
  features, sparse = _expand_sparse_features(features)
  params = _RawParams(features, single=True)
  with _ops.name_scope(name, "ParseSingleExample", [serialized]):
    serialized = _ops.convert_to_tensor(serialized, dtype=_dtypes.string, name="serialized")
    defaults = params.default_tensors()
    op = _apply_op("ParseSingleExample", "ParseSingleExample",
                   [serialized, defaults],
                   {"num_sparse": len(params.sparse_keys), "sparse_keys": params.sparse_keys,
                    "dense_keys": params.dense_keys, "sparse_types": params.sparse_types,
                    "dense_shapes": [_tensor_shape.TensorShape(
                        [None if d == -1 else d for d in s]) for s in params.dense_shapes]})
    return _merge_sparse_features(all_features, sparse, _results(op, params, 0, None))


class _SequenceParams(object):
  """The op inputs and attrs of a SequenceExample's context and sequence
  feature dicts (keys sorted, as TF does)."""

  def __init__(self, context_features, sequence_features):
    if not (context_features or sequence_features):
      raise ValueError("Both context_features and sequence_features are None, but at least "
                       "one should have values.")
    self.context_sparse_keys, self.context_sparse_types = [], []
    self.context_dense_keys, self.context_dense_types = [], []
    self.context_dense_shapes, self.context_dense_defaults = [], []
    for key in sorted(context_features or {}):
      f = context_features[key]
      if isinstance(f, VarLenFeature):
        self.context_sparse_keys.append(key)
        self.context_sparse_types.append(_check_dtype(key, f.dtype))
      elif isinstance(f, FixedLenFeature):
        self.context_dense_keys.append(key)
        self.context_dense_types.append(_check_dtype(key, f.dtype))
        self.context_dense_shapes.append(_as_shape_list(f.shape))
        self.context_dense_defaults.append(f.default_value)
      else:
        raise ValueError("Unsupported %s %s for key '%s'" % (type(f).__name__, f, key))
    self.feature_list_sparse_keys, self.feature_list_sparse_types = [], []
    self.feature_list_dense_keys, self.feature_list_dense_types = [], []
    self.feature_list_dense_shapes, self.missing_assumed_empty = [], []
    for key in sorted(sequence_features or {}):
      f = sequence_features[key]
      if isinstance(f, VarLenFeature):
        self.feature_list_sparse_keys.append(key)
        self.feature_list_sparse_types.append(_check_dtype(key, f.dtype))
      elif isinstance(f, FixedLenSequenceFeature):
        if f.default_value is not None:
          raise ValueError("Value feature_list.dense_defaults[%s] must be None" % key)
        self.feature_list_dense_keys.append(key)
        self.feature_list_dense_types.append(_check_dtype(key, f.dtype))
        self.feature_list_dense_shapes.append(_as_shape_list(f.shape))
        if f.allow_missing:
          self.missing_assumed_empty.append(key)
      else:
        raise ValueError("Unsupported %s %s for key '%s'" % (type(f).__name__, f, key))

  def context_default_tensors(self):
    """The context_dense_defaults inputs: an empty tensor for a required
    feature, else the default reshaped to the feature's shape."""
    out = []
    for key, dtype, shape, default in zip(self.context_dense_keys, self.context_dense_types,
                                          self.context_dense_shapes, self.context_dense_defaults):
      if default is None:
        out.append(_ops.convert_to_tensor(_np.array([], dtype=object if dtype == _dtypes.string
                                                    else dtype.as_numpy_dtype), dtype=dtype))
        continue
      if isinstance(default, _ops.Tensor):
        out.append(default)
        continue
      value = _np.asarray(default, dtype=object if dtype == _dtypes.string else
                          dtype.as_numpy_dtype)
      want = int(_np.prod(shape)) if shape else 1
      if value.size != want:
        raise ValueError("Cannot reshape a tensor with %d elements to shape %s (%d elements) "
                         "for the default value of feature %s" % (value.size, shape, want, key))
      key_name = "key_" + re.sub("[^A-Za-z0-9_.\\-/]", "_", key)
      out.append(_ops.convert_to_tensor(value.reshape(shape), dtype=dtype, name=key_name))
    return out

  def attrs(self):
    return {"context_sparse_types": self.context_sparse_types,
            "context_dense_shapes": [_tensor_shape.TensorShape(s)
                                     for s in self.context_dense_shapes],
            "feature_list_sparse_types": self.feature_list_sparse_types,
            "feature_list_dense_types": self.feature_list_dense_types,
            "feature_list_dense_shapes": [_tensor_shape.TensorShape(s)
                                          for s in self.feature_list_dense_shapes]}

  def results(self, outputs, lengths):
    """(context, feature_lists[, lengths]) dicts from the op's outputs."""
    outs = list(outputs)
    ncs, ncd = len(self.context_sparse_keys), len(self.context_dense_keys)
    nfs, nfd = len(self.feature_list_sparse_keys), len(self.feature_list_dense_keys)
    context, feature_lists, lens = {}, {}, {}
    for i, key in enumerate(self.context_sparse_keys):
      context[key] = SparseTensor(outs[i], outs[ncs + i], outs[2 * ncs + i])
    for i, key in enumerate(self.context_dense_keys):
      context[key] = outs[3 * ncs + i]
    base = 3 * ncs + ncd
    for i, key in enumerate(self.feature_list_sparse_keys):
      feature_lists[key] = SparseTensor(outs[base + i], outs[base + nfs + i],
                                        outs[base + 2 * nfs + i])
    base += 3 * nfs
    for i, key in enumerate(self.feature_list_dense_keys):
      feature_lists[key] = outs[base + i]
      if lengths:
        lens[key] = outs[base + nfd + i]
    return (context, feature_lists, lens) if lengths else (context, feature_lists)


def parse_single_sequence_example(serialized, context_features=None, sequence_features=None,
                                  example_name=None, name=None):
  """Parses one serialized tf.train.SequenceExample (a string scalar).

  Args:
    serialized: string scalar, a serialized SequenceExample.
    context_features: dict key -> FixedLenFeature / VarLenFeature, parsed
      from the `context` Features.
    sequence_features: dict key -> FixedLenSequenceFeature / VarLenFeature,
      parsed from the `feature_lists`. A FixedLenSequenceFeature's list is
      required unless allow_missing=True (then a missing list has no steps);
      its default_value must be None.
    example_name: optional string scalar naming the example in error messages.
    name: name of the op.

  Returns:
    (context, feature_lists): dicts key -> Tensor or SparseTensor. Context
    dense features have their shape, context VarLenFeatures indices [N, 1];
    FixedLenSequenceFeatures [steps] + shape, sequence VarLenFeatures
    indices [N, 2] of (step, position) and dense_shape [steps, longest step].

  Raises InvalidArgumentError (naming the key) when run on a feature of the
  wrong type or size, or a missing required feature or feature list.
  """
  params = _SequenceParams(context_features, sequence_features)
  with _ops.name_scope(name, "ParseSingleSequenceExample", [serialized, example_name]):
    serialized = _ops.convert_to_tensor(serialized, dtype=_dtypes.string, name="serialized")
    if serialized.get_shape().ndims not in (None, 0):
      raise ValueError("Input serialized must be a scalar")
    debug_name = _ops.convert_to_tensor("" if example_name is None else example_name,
                                        dtype=_dtypes.string, name="debug_name")
    missing = _ops.convert_to_tensor(_np.array(params.missing_assumed_empty, dtype=object),
                                     dtype=_dtypes.string,
                                     name="feature_list_dense_missing_assumed_empty")
    str_t = lambda keys: [_ops.convert_to_tensor(k, dtype=_dtypes.string) for k in keys]
    op = _apply_op("ParseSingleSequenceExample", "ParseSingleSequenceExample",
                   [serialized, missing, str_t(params.context_sparse_keys),
                    str_t(params.context_dense_keys), str_t(params.feature_list_sparse_keys),
                    str_t(params.feature_list_dense_keys), params.context_default_tensors(),
                    debug_name], params.attrs())
    return params.results(op.outputs, lengths=False)


def parse_sequence_example(serialized, context_features=None, sequence_features=None,
                           example_names=None, name=None):
  """Parses a batch of serialized tf.train.SequenceExamples (a string vector).

  Arguments as parse_single_sequence_example's, with example_names a string
  vector (or None).

  Returns:
    (context, feature_lists, feature_list_lengths): context dense features
    [batch] + shape, context VarLenFeatures indices [N, 2] (example,
    position); FixedLenSequenceFeatures [batch, longest] + shape padded with
    zeros (empty strings), sequence VarLenFeatures indices [N, 3] (example,
    step, position) and dense_shape [batch, most steps, longest step];
    feature_list_lengths maps each FixedLenSequenceFeature key to the int64
    vector of its steps per example.
  """
  params = _SequenceParams(context_features, sequence_features)
  with _ops.name_scope(name, "ParseSequenceExample", [serialized, example_names]):
    serialized = _ops.convert_to_tensor(serialized, dtype=_dtypes.string, name="serialized")
    names = _ops.convert_to_tensor(_np.array([] if example_names is None else example_names,
                                             dtype=object), dtype=_dtypes.string,
                                   name="debug_name")
    attrs = params.attrs()
    attrs.update({"feature_list_dense_missing_assumed_empty": params.missing_assumed_empty,
                  "context_sparse_keys": params.context_sparse_keys,
                  "context_dense_keys": params.context_dense_keys,
                  "feature_list_sparse_keys": params.feature_list_sparse_keys,
                  "feature_list_dense_keys": params.feature_list_dense_keys,
                  "Ncontext_sparse": len(params.context_sparse_keys),
                  "Ncontext_dense": len(params.context_dense_keys),
                  "Nfeature_list_sparse": len(params.feature_list_sparse_keys),
                  "Nfeature_list_dense": len(params.feature_list_dense_keys)})
    op = _apply_op("ParseSequenceExample", "ParseSequenceExample",
                   [serialized, names, params.context_default_tensors()], attrs)
    return params.results(op.outputs, lengths=True)


def decode_raw(input_bytes=None, out_type=None, little_endian=True, name=None, bytes=None):  # pylint: disable=redefined-builtin
  """Reinterprets the bytes of every string as a vector of out_type (all strings
  must have the same length); the output shape is input's + [length / size]."""
  if input_bytes is None:
    input_bytes = bytes
  elif bytes is not None:
    raise ValueError("Cannot specify both 'input_bytes' and 'bytes'")
  if input_bytes is None or out_type is None:
    raise TypeError("decode_raw() needs input_bytes and out_type")
  return _apply_op("DecodeRaw", name, [input_bytes],
                   {"out_type": _dtypes.as_dtype(out_type),
                    "little_endian": bool(little_endian)}).outputs[0]


def decode_csv(records, record_defaults, field_delim=",", use_quote_delim=True, name=None,
               na_value="", select_cols=None):
  """Splits CSV records into one tensor per column (each of the records' shape).

  record_defaults: one entry per column, a one-element list/tensor holding
  the default (which also gives the column's type) or an empty one for a
  required column.
  """
  if select_cols is not None:
    select_cols = [int(c) for c in select_cols]
    if any(select_cols[i] >= select_cols[i + 1] for i in range(len(select_cols) - 1)):
      raise ValueError("select_cols is not strictly increasing.")
    if select_cols and select_cols[0] < 0:
      raise ValueError("select_cols contains negative values.")
    if len(select_cols) != len(record_defaults):
      raise ValueError("Length of select_cols and record_defaults do not match.")
  with _ops.name_scope(name, "DecodeCSV", [records] + list(record_defaults)) as scope:
    defaults = []
    for i, d in enumerate(record_defaults):
      if isinstance(d, _ops.Tensor):
        defaults.append(d)
      else:
        defaults.append(_ops.convert_to_tensor(d, name="record_defaults_%d" % i))
    op = _apply_op("DecodeCSV", scope, [records, defaults],
                   {"field_delim": field_delim, "use_quote_delim": bool(use_quote_delim),
                    "na_value": na_value, "select_cols": select_cols or []})
    return list(op.outputs)


def string_split(source, sep=None, skip_empty=True, delimiter=None, result_type="SparseTensor",
                 name=None):
  """Splits each string of the vector `source` on any of the bytes of `sep`
  (default " "; "" splits into bytes) into a SparseTensor [batch, longest]."""
  if sep is not None and delimiter is not None and sep != delimiter:
    raise ValueError("sep and delimiter must be equal when both are given")
  if sep is None:
    sep = delimiter if delimiter is not None else " "
  if result_type != "SparseTensor":
    raise ValueError("tfc's string_split supports result_type='SparseTensor' only")
  with _ops.name_scope(name, "StringSplit", [source]):
    source = _ops.convert_to_tensor(source, dtype=_dtypes.string, name="source")
    sep = _ops.convert_to_tensor(sep, dtype=_dtypes.string)
    op = _apply_op("StringSplit", "StringSplit", [source, sep],
                   {"skip_empty": bool(skip_empty)})
    return SparseTensor(op.outputs[0], op.outputs[1], op.outputs[2])


def string_split_v2(source, sep=None, maxsplit=-1):
  """Splits each string of the vector `source` on the whole string `sep`
  (None or "": runs of whitespace) into a SparseTensor."""
  with _ops.name_scope(None, "StringSplit", [source]):
    source = _ops.convert_to_tensor(source, dtype=_dtypes.string, name="source")
    sep = _ops.convert_to_tensor("" if sep is None else sep, dtype=_dtypes.string)
    op = _apply_op("StringSplitV2", "StringSplitV2", [source, sep],
                   {"maxsplit": int(maxsplit)})
    return SparseTensor(op.outputs[0], op.outputs[1], op.outputs[2])
