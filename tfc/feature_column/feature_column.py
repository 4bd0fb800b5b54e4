"""Feature columns (TF 1.15 `tf.feature_column`): how raw features become
model inputs. Columns describe a feature; `input_layer` turns dense columns
into one [batch, n] float tensor and `linear_model` builds a linear model
over any columns. Graph construction only: the work runs in C kernels
(hash buckets, vocabulary tables, Bucketize, SparseCross, embedding lookups).

Variables are named as TF 1.15 names them, so checkpoints map both ways:
  input_layer/<column>_embedding/embedding_weights
  input_layer/<shared collection name>/embedding_weights
  linear_model/<column>/weights, linear_model/bias_weights
"""
import collections
import collections.abc
import math

import tfc as _tf
from tfc.framework import sparse_tensor as _sparse_tensor
from tfc.framework import tensor_shape as _tensor_shape
from tfc.ops import lookup_ops as _lookup_ops
from tfc.ops import parsing_ops as _parsing_ops
from tfc.ops import safe_embedding_ops as _safe_embedding_ops
from tfc.ops import sparse_ops as _sparse_ops

_SparseTensor = _sparse_tensor.SparseTensor


class _FeatureColumn(object):
  """Base of every column: a unique name, how to transform its raw input
  (_transform_feature, cached by _LazyBuilder) and its parse spec."""

  @property
  def name(self):
    raise NotImplementedError

  @property
  def _var_scope_name(self):
    return self.name

  def _transform_feature(self, inputs):
    raise NotImplementedError

  @property
  def _parse_example_spec(self):
    raise NotImplementedError

  def __lt__(self, other):
    return self.name < other.name

  def __repr__(self):
    return "%s(name=%r)" % (type(self).__name__, self.name)


class _DenseColumn(_FeatureColumn):
  """A column with a dense [batch, ...] float representation."""

  @property
  def _variable_shape(self):
    raise NotImplementedError

  def _get_dense_tensor(self, inputs, weight_collections=None, trainable=None):
    raise NotImplementedError


class _CategoricalColumn(_FeatureColumn):
  """A column of ids in [0, _num_buckets), as a SparseTensor (with optional weights)."""

  IdWeightPair = collections.namedtuple("IdWeightPair", ["id_tensor", "weight_tensor"])

  @property
  def _num_buckets(self):
    raise NotImplementedError

  def _get_sparse_tensors(self, inputs, weight_collections=None, trainable=None):
    raise NotImplementedError


class _LazyBuilder(object):
  """Transformed features, built once per column: get(key) takes a raw
  feature name or a column."""

  def __init__(self, features):
    self._features = features.copy()
    self._feature_tensors = {}

  def get(self, key):
    if key in self._feature_tensors:
      return self._feature_tensors[key]
    if key in self._features:
      feature_tensor = self._get_raw_feature_as_tensor(key)
      self._feature_tensors[key] = feature_tensor
      return feature_tensor
    if isinstance(key, str):
      raise ValueError("Feature {} is not in features dictionary.".format(key))
    if not isinstance(key, _FeatureColumn):
      raise TypeError('"key" must be either a "str" or "_FeatureColumn". Provided: {}'.format(key))
    column = key
    transformed = column._transform_feature(self)  # pylint: disable=protected-access
    if transformed is None:
      raise ValueError("Column {} is not supported.".format(column.name))
    self._feature_tensors[column] = transformed
    return transformed

  def _get_raw_feature_as_tensor(self, key):
    raw = self._features[key]
    feature_tensor = _sparse_tensor.convert_to_tensor_or_sparse_tensor(raw)

    def expand_dims(input_tensor):
      if isinstance(input_tensor, _SparseTensor):
        return _sparse_ops.sparse_reshape(input_tensor, [input_tensor.dense_shape[0], 1])
      return _tf.expand_dims(input_tensor, -1)

    rank = feature_tensor.get_shape().ndims
    if rank is not None:
      if rank == 0:
        raise ValueError("Feature (key: {}) cannot have rank 0. Given: {}".format(key, feature_tensor))
      return feature_tensor if rank != 1 else expand_dims(feature_tensor)
    with _tf.control_dependencies([_tf.assert_positive(_tf.rank(feature_tensor),
                                                       message="Feature (key: {}) cannot have rank 0. Given: {}"
                                                       .format(key, feature_tensor))]):
      return _tf.cond(_tf.equal(1, _tf.rank(feature_tensor)), lambda: expand_dims(feature_tensor),
                      lambda: feature_tensor)


def _to_sparse_input_and_drop_ignore_values(input_tensor, ignore_value=None):
  """A SparseTensor of input_tensor (dense inputs drop ignore_value: '' for
  strings, -1 for integers)."""
  input_tensor = _sparse_tensor.convert_to_tensor_or_sparse_tensor(input_tensor)
  if isinstance(input_tensor, _SparseTensor):
    return input_tensor
  with _tf.name_scope(None, "to_sparse_input", (input_tensor, ignore_value)):
    if ignore_value is None:
      if input_tensor.dtype == _tf.string:
        ignore_value = ""
      elif input_tensor.dtype.is_integer:
        ignore_value = -1
      else:
        ignore_value = input_tensor.dtype.as_numpy_dtype()
    ignore_value = _tf.cast(ignore_value, input_tensor.dtype, name="ignore_value")
    indices = _tf.where(_tf.not_equal(input_tensor, ignore_value), name="indices")
    return _SparseTensor(indices=indices, values=_tf.gather_nd(input_tensor, indices, name="values"),
                         dense_shape=_tf.shape(input_tensor, out_type=_tf.int64, name="dense_shape"))


def _sparse_cast(sp, dtype):
  return _SparseTensor(sp.indices, _tf.cast(sp.values, dtype), sp.dense_shape)


# -- dense columns -----------------------------------------------------------------------------


class _NumericColumn(_DenseColumn, collections.namedtuple(
    "_NumericColumn", ["key", "shape", "default_value", "dtype", "normalizer_fn"])):
  """A real-valued feature of a fixed shape."""

  @property
  def name(self):
    return self.key

  @property
  def _parse_example_spec(self):
    return {self.key: _parsing_ops.FixedLenFeature(self.shape, self.dtype, self.default_value)}

  def _transform_feature(self, inputs):
    input_tensor = inputs.get(self.key)
    if isinstance(input_tensor, _SparseTensor):
      raise ValueError("The corresponding Tensor of numerical column must be a Tensor. "
                       "SparseTensor is not supported. key: {}".format(self.key))
    if self.normalizer_fn is not None:
      input_tensor = self.normalizer_fn(input_tensor)
    return _tf.cast(input_tensor, _tf.float32)

  @property
  def _variable_shape(self):
    return _tensor_shape.TensorShape(self.shape)

  def _get_dense_tensor(self, inputs, weight_collections=None, trainable=None):
    del weight_collections, trainable
    return inputs.get(self)


def _check_shape(shape, key):
  if isinstance(shape, int):
    shape = (shape,)
  shape = tuple(shape)
  for dim in shape:
    if not isinstance(dim, int):
      raise TypeError("shape dimensions must be integer. shape: {}, key: {}".format(shape, key))
    if dim < 1:
      raise ValueError("shape dimensions must be greater than 0. shape: {}, key: {}".format(shape, key))
  return shape


def numeric_column(key, shape=(1,), default_value=None, dtype=_tf.float32, normalizer_fn=None):
  """A numeric feature `key` of `shape` (float or integer values; the input
  is cast to float32, normalizer_fn applied first)."""
  shape = _check_shape(shape, key)
  dtype = _tf.as_dtype(dtype)
  if not (dtype.is_integer or dtype.is_floating):
    raise ValueError("dtype must be convertible to float. dtype: {}, key: {}".format(dtype, key))
  if default_value is not None:
    import numpy as np  # pylint: disable=import-outside-toplevel
    try:
      arr = np.broadcast_to(np.asarray(default_value, dtype=dtype.as_numpy_dtype), shape)
    except ValueError:
      raise ValueError("The shape of default_value must be equal to given shape. default_value: {}, shape: {}, "
                       "key: {}".format(default_value, shape, key))
    default_value = _nested_tuple(arr.tolist())
  if normalizer_fn is not None and not callable(normalizer_fn):
    raise TypeError("normalizer_fn must be a callable. Given: {}".format(normalizer_fn))
  return _NumericColumn(key, shape=shape, default_value=default_value, dtype=dtype, normalizer_fn=normalizer_fn)


def _nested_tuple(x):
  return tuple(_nested_tuple(i) for i in x) if isinstance(x, list) else x


class _BucketizedColumn(_DenseColumn, _CategoricalColumn, collections.namedtuple(
    "_BucketizedColumn", ["source_column", "boundaries"])):
  """A numeric column cut into buckets at `boundaries`."""

  @property
  def name(self):
    return "{}_bucketized".format(self.source_column.name)

  @property
  def _parse_example_spec(self):
    return self.source_column._parse_example_spec  # pylint: disable=protected-access

  def _transform_feature(self, inputs):
    source_tensor = inputs.get(self.source_column)
    return _sparse_ops.bucketize(source_tensor, boundaries=self.boundaries)

  @property
  def _variable_shape(self):
    return _tensor_shape.TensorShape(tuple(self.source_column.shape) + (len(self.boundaries) + 1,))

  def _get_dense_tensor(self, inputs, weight_collections=None, trainable=None):
    del weight_collections, trainable
    input_tensor = inputs.get(self)
    return _tf.one_hot(indices=_tf.cast(input_tensor, _tf.int64), depth=len(self.boundaries) + 1,
                       on_value=1., off_value=0.)

  @property
  def _num_buckets(self):
    return (len(self.boundaries) + 1) * self.source_column.shape[0]

  def _get_sparse_tensors(self, inputs, weight_collections=None, trainable=None):
    del weight_collections, trainable
    input_tensor = inputs.get(self)
    batch_size = _tf.shape(input_tensor)[0]
    source_dimension = self.source_column.shape[0]
    i1 = _tf.reshape(_tf.tile(_tf.expand_dims(_tf.range(0, batch_size), 1), [1, source_dimension]), (-1,))
    i2 = _tf.tile(_tf.range(0, source_dimension), [batch_size])
    bucket_indices = _tf.reshape(input_tensor, (-1,)) + (len(self.boundaries) + 1) * i2
    indices = _tf.cast(_tf.transpose(_tf.stack((i1, i2))), _tf.int64)
    dense_shape = _tf.cast(_tf.stack([batch_size, source_dimension]), _tf.int64)
    sparse = _SparseTensor(indices=indices, values=_tf.cast(bucket_indices, _tf.int64), dense_shape=dense_shape)
    return _CategoricalColumn.IdWeightPair(sparse, None)


def bucketized_column(source_column, boundaries):
  """Buckets of a 1-D numeric column: bucket i holds boundaries[i-1] <= x <
  boundaries[i] (as one-hot dense, or ids i + (len(boundaries)+1) * j)."""
  if not isinstance(source_column, _NumericColumn):
    raise ValueError("source_column must be a column generated with numeric_column(). Given: {}"
                     .format(source_column))
  if len(source_column.shape) > 1:
    raise ValueError("source_column must be one-dimensional column. Given: {}".format(source_column))
  if not boundaries or not isinstance(boundaries, (list, tuple)):
    raise ValueError("boundaries must be a sorted list.")
  for i in range(len(boundaries) - 1):
    if boundaries[i] >= boundaries[i + 1]:
      raise ValueError("boundaries must be a sorted list.")
  return _BucketizedColumn(source_column, tuple(boundaries))


class _EmbeddingColumn(_DenseColumn, collections.namedtuple(
    "_EmbeddingColumn", ["categorical_column", "dimension", "combiner", "layer_creator", "ckpt_to_load_from",
                         "tensor_name_in_ckpt", "max_norm", "trainable"])):
  """A categorical column looked up in a [num_buckets, dimension] variable."""

  @property
  def name(self):
    return "{}_embedding".format(self.categorical_column.name)

  @property
  def _parse_example_spec(self):
    return self.categorical_column._parse_example_spec  # pylint: disable=protected-access

  def _transform_feature(self, inputs):
    return inputs.get(self.categorical_column)

  @property
  def _variable_shape(self):
    return _tensor_shape.TensorShape([self.dimension])

  def _get_dense_tensor(self, inputs, weight_collections=None, trainable=None):
    sparse_tensors = self.categorical_column._get_sparse_tensors(  # pylint: disable=protected-access
        inputs, weight_collections=weight_collections, trainable=trainable)
    embedding_weights = self.layer_creator(
        weight_collections=weight_collections, scope=_tf.get_variable_scope())
    if self.ckpt_to_load_from is not None:
      to_restore = embedding_weights
      _tf.train.init_from_checkpoint(self.ckpt_to_load_from, {self.tensor_name_in_ckpt: to_restore})
    return _safe_embedding_ops.safe_embedding_lookup_sparse(
        embedding_weights=embedding_weights, sparse_ids=sparse_tensors.id_tensor,
        sparse_weights=sparse_tensors.weight_tensor, combiner=self.combiner, name="%s_weights" % self.name,
        max_norm=self.max_norm)


def _check_embedding_args(dimension, combiner, initializer, ckpt_to_load_from, tensor_name_in_ckpt):
  if dimension is None or dimension < 1:
    raise ValueError("Invalid dimension {}.".format(dimension))
  if (ckpt_to_load_from is None) != (tensor_name_in_ckpt is None):
    raise ValueError("Must specify both `ckpt_to_load_from` and `tensor_name_in_ckpt` or none of them.")
  if initializer is not None and not callable(initializer):
    raise ValueError("initializer must be callable if specified.")
  if combiner not in ("mean", "sqrtn", "sum"):
    raise ValueError("combiner must be one of 'mean', 'sqrtn' or 'sum'. Given: {}".format(combiner))


def embedding_column(categorical_column, dimension, combiner="mean", initializer=None, ckpt_to_load_from=None,
                     tensor_name_in_ckpt=None, max_norm=None, trainable=True):
  """A dense column of embeddings of `categorical_column`'s ids (variable
  `embedding_weights` [num_buckets, dimension], truncated normal with stddev
  1/sqrt(dimension) by default), combined per example by `combiner`."""
  _check_embedding_args(dimension, combiner, initializer, ckpt_to_load_from, tensor_name_in_ckpt)
  if initializer is None:
    initializer = _tf.truncated_normal_initializer(mean=0.0, stddev=1 / math.sqrt(dimension))
  embedding_shape = categorical_column._num_buckets, dimension  # pylint: disable=protected-access

  def _creator(weight_collections, scope):
    del scope
    return _tf.get_variable(name="embedding_weights", shape=embedding_shape, dtype=_tf.float32,
                            initializer=initializer, trainable=trainable, collections=weight_collections)

  return _EmbeddingColumn(categorical_column=categorical_column, dimension=dimension, combiner=combiner,
                          layer_creator=_creator, ckpt_to_load_from=ckpt_to_load_from,
                          tensor_name_in_ckpt=tensor_name_in_ckpt, max_norm=max_norm, trainable=trainable)


class _SharedEmbeddingColumn(_DenseColumn, collections.namedtuple(
    "_SharedEmbeddingColumn", ["categorical_column", "dimension", "combiner", "initializer",
                               "shared_embedding_collection_name", "ckpt_to_load_from", "tensor_name_in_ckpt",
                               "max_norm", "trainable"])):
  """One of several categorical columns sharing one embedding variable (kept
  in the graph collection shared_embedding_collection_name)."""

  @property
  def name(self):
    return "{}_shared_embedding".format(self.categorical_column.name)

  @property
  def _var_scope_name(self):
    return self.shared_embedding_collection_name

  @property
  def _parse_example_spec(self):
    return self.categorical_column._parse_example_spec  # pylint: disable=protected-access

  def _transform_feature(self, inputs):
    return inputs.get(self.categorical_column)

  @property
  def _variable_shape(self):
    return _tensor_shape.TensorShape([self.dimension])

  def _get_dense_tensor(self, inputs, weight_collections=None, trainable=None):
    with _tf.name_scope(None, default_name=self.name):
      sparse_tensors = self.categorical_column._get_sparse_tensors(  # pylint: disable=protected-access
          inputs, weight_collections=weight_collections, trainable=trainable)
      embedding_shape = (self.categorical_column._num_buckets, self.dimension)  # pylint: disable=protected-access
      shared = _tf.get_collection(self.shared_embedding_collection_name)
      if shared:
        if len(shared) > 1:
          raise ValueError("Collection {} can only contain one variable. Suggested fix A: Choose a unique name "
                           "for this collection. Suggested fix B: Do not add any variables to this collection "
                           "yourself.".format(self.shared_embedding_collection_name))
        embedding_weights = shared[0]
        if embedding_weights.get_shape().as_list() != list(embedding_shape):
          raise ValueError("Shared embedding collection {} contains variable {} of unexpected shape {}. "
                           "Expected shape is {}.".format(self.shared_embedding_collection_name,
                                                          embedding_weights.name, embedding_weights.get_shape(),
                                                          embedding_shape))
      else:
        embedding_weights = _tf.get_variable(name="embedding_weights", shape=embedding_shape, dtype=_tf.float32,
                                             initializer=self.initializer,
                                             trainable=self.trainable and (trainable is not False),
                                             collections=weight_collections)
        _tf.add_to_collection(self.shared_embedding_collection_name, embedding_weights)
      if self.ckpt_to_load_from is not None:
        _tf.train.init_from_checkpoint(self.ckpt_to_load_from, {self.tensor_name_in_ckpt: embedding_weights})
      return _safe_embedding_ops.safe_embedding_lookup_sparse(
          embedding_weights=embedding_weights, sparse_ids=sparse_tensors.id_tensor,
          sparse_weights=sparse_tensors.weight_tensor, combiner=self.combiner, name="%s_weights" % self.name,
          max_norm=self.max_norm)


def shared_embedding_columns(categorical_columns, dimension, combiner="mean", initializer=None,
                             shared_embedding_collection_name=None, ckpt_to_load_from=None,
                             tensor_name_in_ckpt=None, max_norm=None, trainable=True):
  """Embedding columns of several categorical columns (same num_buckets)
  sharing one variable, `<names joined by _>_shared_embedding/embedding_weights`."""
  _check_embedding_args(dimension, combiner, initializer, ckpt_to_load_from, tensor_name_in_ckpt)
  if initializer is None:
    initializer = _tf.truncated_normal_initializer(mean=0.0, stddev=1. / math.sqrt(dimension))
  categorical_columns = list(categorical_columns)
  if not categorical_columns:
    raise ValueError("categorical_columns must not be empty.")
  for c in categorical_columns:
    if not isinstance(c, _CategoricalColumn) or isinstance(c, _BucketizedColumn):
      raise ValueError("All categorical_columns must be subclasses of _CategoricalColumn. Given: {}".format(c))
  c0 = categorical_columns[0]
  num_buckets = c0._num_buckets  # pylint: disable=protected-access
  for c in categorical_columns[1:]:
    if c._num_buckets != num_buckets:  # pylint: disable=protected-access
      raise ValueError("To use shared_embedding_column, all categorical_columns must have the same number of "
                       "buckets. Given column: {} with buckets: {} does not match column: {} with buckets: {}"
                       .format(c0, num_buckets, c, c._num_buckets))  # pylint: disable=protected-access
  if not shared_embedding_collection_name:
    sorted_columns = sorted(categorical_columns, key=lambda x: x.name)
    shared_embedding_collection_name = "_".join(c.name for c in sorted_columns)
    shared_embedding_collection_name += "_shared_embedding"
  return [_SharedEmbeddingColumn(categorical_column=c, dimension=dimension, combiner=combiner,
                                 initializer=initializer,
                                 shared_embedding_collection_name=shared_embedding_collection_name,
                                 ckpt_to_load_from=ckpt_to_load_from, tensor_name_in_ckpt=tensor_name_in_ckpt,
                                 max_norm=max_norm, trainable=trainable) for c in categorical_columns]


class _IndicatorColumn(_DenseColumn, collections.namedtuple("_IndicatorColumn", ["categorical_column"])):
  """A multi-hot [batch, num_buckets] representation of a categorical column
  (weights summed into their ids when the column is weighted)."""

  @property
  def name(self):
    return "{}_indicator".format(self.categorical_column.name)

  def _transform_feature(self, inputs):
    id_weight_pair = self.categorical_column._get_sparse_tensors(inputs)  # pylint: disable=protected-access
    id_tensor = id_weight_pair.id_tensor
    weight_tensor = id_weight_pair.weight_tensor
    depth = int(self._variable_shape[-1])
    if weight_tensor is not None:
      weighted = _sparse_ops.sparse_merge(sp_ids=id_tensor, sp_values=weight_tensor, vocab_size=depth)
      weighted = _sparse_ops.sparse_slice(weighted, [0, 0], weighted.dense_shape)
      return _sparse_ops.sparse_tensor_to_dense(weighted)
    dense_id_tensor = _sparse_ops.sparse_tensor_to_dense(id_tensor, default_value=-1)
    one_hot_id_tensor = _tf.one_hot(dense_id_tensor, depth=depth, on_value=1.0, off_value=0.0)
    return _tf.reduce_sum(one_hot_id_tensor, axis=[-2])

  @property
  def _parse_example_spec(self):
    return self.categorical_column._parse_example_spec  # pylint: disable=protected-access

  @property
  def _variable_shape(self):
    return _tensor_shape.TensorShape([1, self.categorical_column._num_buckets])  # pylint: disable=protected-access

  def _get_dense_tensor(self, inputs, weight_collections=None, trainable=None):
    del weight_collections, trainable
    return inputs.get(self)


def indicator_column(categorical_column):
  """A multi-hot dense column of a categorical column's ids."""
  return _IndicatorColumn(categorical_column)


# -- categorical columns ---------------------------------------------------------------------


def _assert_string_or_int(dtype, prefix):
  if dtype != _tf.string and not dtype.is_integer:
    raise ValueError("{} dtype must be string or integer. dtype: {}.".format(prefix, dtype))


class _HashedCategoricalColumn(_CategoricalColumn, collections.namedtuple(
    "_HashedCategoricalColumn", ["key", "hash_bucket_size", "dtype"])):
  """Ids = Fingerprint64 of the (string form of the) value mod hash_bucket_size."""

  @property
  def name(self):
    return self.key

  @property
  def _parse_example_spec(self):
    return {self.key: _parsing_ops.VarLenFeature(self.dtype)}

  def _transform_feature(self, inputs):
    input_tensor = _to_sparse_input_and_drop_ignore_values(inputs.get(self.key))
    if not isinstance(input_tensor, _SparseTensor):
      raise ValueError("SparseColumn input must be a SparseTensor.")
    _assert_string_or_int(input_tensor.dtype, prefix="column_name: {} input_tensor".format(self.key))
    if self.dtype.is_integer != input_tensor.dtype.is_integer:
      raise ValueError("Column dtype and SparseTensors dtype must be compatible. key: {}, column dtype: {}, "
                       "tensor dtype: {}".format(self.key, self.dtype, input_tensor.dtype))
    if self.dtype == _tf.string:
      sparse_values = input_tensor.values
    else:
      sparse_values = _tf.as_string(input_tensor.values)
    sparse_id_values = _tf.string_to_hash_bucket_fast(sparse_values, self.hash_bucket_size, name="lookup")
    return _SparseTensor(input_tensor.indices, sparse_id_values, input_tensor.dense_shape)

  @property
  def _num_buckets(self):
    return self.hash_bucket_size

  def _get_sparse_tensors(self, inputs, weight_collections=None, trainable=None):
    return _CategoricalColumn.IdWeightPair(inputs.get(self), None)


def categorical_column_with_hash_bucket(key, hash_bucket_size, dtype=_tf.string):
  """Ids of a string or integer feature by hashing into hash_bucket_size buckets."""
  if hash_bucket_size is None:
    raise ValueError("hash_bucket_size must be set. key: {}".format(key))
  if hash_bucket_size < 1:
    raise ValueError("hash_bucket_size must be at least 1. hash_bucket_size: {}, key: {}"
                     .format(hash_bucket_size, key))
  dtype = _tf.as_dtype(dtype)
  _assert_string_or_int(dtype, prefix="column_name: {}".format(key))
  return _HashedCategoricalColumn(key, hash_bucket_size, dtype)


class _VocabularyListCategoricalColumn(_CategoricalColumn, collections.namedtuple(
    "_VocabularyListCategoricalColumn", ["key", "vocabulary_list", "dtype", "default_value", "num_oov_buckets"])):
  """Ids = positions in an in-memory vocabulary (plus OOV hash buckets)."""

  @property
  def name(self):
    return self.key

  @property
  def _parse_example_spec(self):
    return {self.key: _parsing_ops.VarLenFeature(self.dtype)}

  def _transform_feature(self, inputs):
    input_tensor = _to_sparse_input_and_drop_ignore_values(inputs.get(self.key))
    if self.dtype.is_integer != input_tensor.dtype.is_integer:
      raise ValueError("Column dtype and SparseTensors dtype must be compatible. key: {}, column dtype: {}, "
                       "tensor dtype: {}".format(self.key, self.dtype, input_tensor.dtype))
    _assert_string_or_int(input_tensor.dtype, prefix="column_name: {} input_tensor".format(self.key))
    key_dtype = self.dtype
    if input_tensor.dtype.is_integer:
      key_dtype = _tf.int64
      input_tensor = _sparse_cast(input_tensor, _tf.int64)
    return _lookup_ops.index_table_from_tensor(
        vocabulary_list=tuple(self.vocabulary_list), default_value=self.default_value,
        num_oov_buckets=self.num_oov_buckets, dtype=key_dtype,
        name="{}_lookup".format(self.key)).lookup(input_tensor)

  @property
  def _num_buckets(self):
    return len(self.vocabulary_list) + self.num_oov_buckets

  def _get_sparse_tensors(self, inputs, weight_collections=None, trainable=None):
    return _CategoricalColumn.IdWeightPair(inputs.get(self), None)


def categorical_column_with_vocabulary_list(key, vocabulary_list, dtype=None, default_value=-1,
                                            num_oov_buckets=0):
  """Ids of a feature by position in `vocabulary_list`; others get
  default_value, or with num_oov_buckets a hash bucket after the vocabulary."""
  if vocabulary_list is None or len(vocabulary_list) < 1:
    raise ValueError("vocabulary_list {} must be non-empty, column_name: {}".format(vocabulary_list, key))
  if len(set(vocabulary_list)) != len(vocabulary_list):
    raise ValueError("Duplicate keys in vocabulary_list {}, column_name: {}".format(vocabulary_list, key))
  vocabulary_dtype = _tf.string if isinstance(vocabulary_list[0], (str, bytes)) else _tf.int64
  if num_oov_buckets:
    if default_value != -1:
      raise ValueError("Can't specify both num_oov_buckets and default_value in {}.".format(key))
    if num_oov_buckets < 0:
      raise ValueError("Invalid num_oov_buckets {} in {}.".format(num_oov_buckets, key))
  _assert_string_or_int(vocabulary_dtype, prefix="column_name: {} vocabulary".format(key))
  if dtype is None:
    dtype = vocabulary_dtype
  elif _tf.as_dtype(dtype).is_integer != vocabulary_dtype.is_integer:
    raise ValueError("dtype {} and vocabulary dtype {} do not match, column_name: {}"
                     .format(dtype, vocabulary_dtype, key))
  dtype = _tf.as_dtype(dtype)
  _assert_string_or_int(dtype, prefix="column_name: {}".format(key))
  return _VocabularyListCategoricalColumn(key=key, vocabulary_list=tuple(vocabulary_list), dtype=dtype,
                                          default_value=default_value, num_oov_buckets=num_oov_buckets)


class _VocabularyFileCategoricalColumn(_CategoricalColumn, collections.namedtuple(
    "_VocabularyFileCategoricalColumn",
    ["key", "vocabulary_file", "vocabulary_size", "num_oov_buckets", "dtype", "default_value"])):
  """Ids = line numbers in a vocabulary file (plus OOV hash buckets)."""

  @property
  def name(self):
    return self.key

  @property
  def _parse_example_spec(self):
    return {self.key: _parsing_ops.VarLenFeature(self.dtype)}

  def _transform_feature(self, inputs):
    input_tensor = _to_sparse_input_and_drop_ignore_values(inputs.get(self.key))
    if self.dtype.is_integer != input_tensor.dtype.is_integer:
      raise ValueError("Column dtype and SparseTensors dtype must be compatible. key: {}, column dtype: {}, "
                       "tensor dtype: {}".format(self.key, self.dtype, input_tensor.dtype))
    _assert_string_or_int(input_tensor.dtype, prefix="column_name: {} input_tensor".format(self.key))
    key_dtype = self.dtype
    if input_tensor.dtype.is_integer:
      key_dtype = _tf.int64
      input_tensor = _sparse_cast(input_tensor, _tf.int64)
    return _lookup_ops.index_table_from_file(
        vocabulary_file=self.vocabulary_file, num_oov_buckets=self.num_oov_buckets,
        vocab_size=self.vocabulary_size, default_value=self.default_value, key_dtype=key_dtype,
        name="{}_lookup".format(self.key)).lookup(input_tensor)

  @property
  def _num_buckets(self):
    return self.vocabulary_size + self.num_oov_buckets

  def _get_sparse_tensors(self, inputs, weight_collections=None, trainable=None):
    return _CategoricalColumn.IdWeightPair(inputs.get(self), None)


def categorical_column_with_vocabulary_file(key, vocabulary_file, vocabulary_size=None, num_oov_buckets=0,
                                            default_value=None, dtype=_tf.string):
  """Ids of a feature by line number in `vocabulary_file` (one entry per
  line; vocabulary_size defaults to the file's line count)."""
  if not vocabulary_file:
    raise ValueError("Missing vocabulary_file in {}.".format(key))
  if vocabulary_size is None:
    if not _tf.gfile.Exists(vocabulary_file):
      raise ValueError("vocabulary_file in {} does not exist.".format(key))
    with _tf.gfile.GFile(vocabulary_file, "rb") as f:
      vocabulary_size = sum(1 for _ in f)
  if vocabulary_size < 1:
    raise ValueError("Invalid vocabulary_size in {}.".format(key))
  if num_oov_buckets:
    if default_value is not None:
      raise ValueError("Can't specify both num_oov_buckets and default_value in {}.".format(key))
    if num_oov_buckets < 0:
      raise ValueError("Invalid num_oov_buckets {} in {}.".format(num_oov_buckets, key))
  dtype = _tf.as_dtype(dtype)
  _assert_string_or_int(dtype, prefix="column_name: {}".format(key))
  return _VocabularyFileCategoricalColumn(key=key, vocabulary_file=vocabulary_file,
                                          vocabulary_size=vocabulary_size,
                                          num_oov_buckets=0 if num_oov_buckets is None else num_oov_buckets,
                                          default_value=-1 if default_value is None else default_value,
                                          dtype=dtype)


class _IdentityCategoricalColumn(_CategoricalColumn, collections.namedtuple(
    "_IdentityCategoricalColumn", ["key", "num_buckets", "default_value"])):
  """Ids = the integer values themselves, in [0, num_buckets)."""

  @property
  def name(self):
    return self.key

  @property
  def _parse_example_spec(self):
    return {self.key: _parsing_ops.VarLenFeature(_tf.int64)}

  def _transform_feature(self, inputs):
    input_tensor = _to_sparse_input_and_drop_ignore_values(inputs.get(self.key))
    if not input_tensor.dtype.is_integer:
      raise ValueError("Invalid input, not integer. key: {} dtype: {}".format(self.key, input_tensor.dtype))
    values = _tf.cast(input_tensor.values, _tf.int64, name="values")
    num_buckets = _tf.cast(self.num_buckets, _tf.int64, name="num_buckets")
    zero = _tf.cast(0, _tf.int64, name="zero")
    if self.default_value is None:
      assert_less = _tf.assert_less(values, num_buckets, data=(values, num_buckets),
                                    name="assert_less_than_num_buckets")
      assert_greater = _tf.assert_greater_equal(values, zero, data=(values,), name="assert_greater_or_equal_0")
      with _tf.control_dependencies((assert_less, assert_greater)):
        values = _tf.identity(values)
    else:
      values = _tf.where(_tf.logical_or(values < zero, values >= num_buckets, name="out_of_range"),
                         _tf.fill(dims=_tf.shape(values), value=_tf.cast(self.default_value, _tf.int64),
                                  name="default_values"), values)
    return _SparseTensor(indices=input_tensor.indices, values=values, dense_shape=input_tensor.dense_shape)

  @property
  def _num_buckets(self):
    return self.num_buckets

  def _get_sparse_tensors(self, inputs, weight_collections=None, trainable=None):
    return _CategoricalColumn.IdWeightPair(inputs.get(self), None)


def categorical_column_with_identity(key, num_buckets, default_value=None):
  """Ids that are the integer feature values, in [0, num_buckets); others
  fail (or become default_value when given)."""
  if num_buckets < 1:
    raise ValueError("num_buckets {} < 1, column_name {}".format(num_buckets, key))
  if default_value is not None and (default_value < 0 or default_value >= num_buckets):
    raise ValueError("default_value {} not in range [0, {}), column_name {}".format(default_value, num_buckets,
                                                                                   key))
  return _IdentityCategoricalColumn(key=key, num_buckets=num_buckets, default_value=default_value)


class _WeightedCategoricalColumn(_CategoricalColumn, collections.namedtuple(
    "_WeightedCategoricalColumn", ["categorical_column", "weight_feature_key", "dtype"])):
  """A categorical column whose ids carry the weights of another feature."""

  @property
  def name(self):
    return "{}_weighted_by_{}".format(self.categorical_column.name, self.weight_feature_key)

  @property
  def _parse_example_spec(self):
    config = dict(self.categorical_column._parse_example_spec)  # pylint: disable=protected-access
    if self.weight_feature_key in config:
      raise ValueError("Parse config {} already exists for {}.".format(config[self.weight_feature_key],
                                                                      self.weight_feature_key))
    config[self.weight_feature_key] = _parsing_ops.VarLenFeature(self.dtype)
    return config

  @property
  def _num_buckets(self):
    return self.categorical_column._num_buckets  # pylint: disable=protected-access

  def _transform_feature(self, inputs):
    weight_tensor = inputs.get(self.weight_feature_key)
    if weight_tensor is None:
      raise ValueError("Missing weights {}.".format(self.weight_feature_key))
    weight_tensor = _sparse_tensor.convert_to_tensor_or_sparse_tensor(weight_tensor)
    if self.dtype != weight_tensor.dtype.base_dtype:
      raise ValueError("Bad dtype, expected {}, but got {}.".format(self.dtype, weight_tensor.dtype))
    if not isinstance(weight_tensor, _SparseTensor):
      padding_value = _tf.constant(-1, dtype=weight_tensor.dtype)
      weight_tensor = _to_sparse_input_and_drop_ignore_values(weight_tensor, ignore_value=padding_value)
    if not weight_tensor.dtype.is_floating:
      weight_tensor = _sparse_cast(weight_tensor, _tf.float32)
    return (inputs.get(self.categorical_column), weight_tensor)

  def _get_sparse_tensors(self, inputs, weight_collections=None, trainable=None):
    del weight_collections, trainable
    tensors = inputs.get(self)
    return _CategoricalColumn.IdWeightPair(tensors[0], tensors[1])


def weighted_categorical_column(categorical_column, weight_feature_key, dtype=_tf.float32):
  """`categorical_column` with each id weighted by the feature weight_feature_key."""
  dtype = _tf.as_dtype(dtype)
  if dtype is None or not (dtype.is_integer or dtype.is_floating):
    raise ValueError("dtype {} is not convertible to float.".format(dtype))
  return _WeightedCategoricalColumn(categorical_column=categorical_column,
                                    weight_feature_key=weight_feature_key, dtype=dtype)


def _collect_leaf_level_keys(cross):
  leaf_level_keys = []
  for k in cross.keys:
    if isinstance(k, _CrossedColumn):
      leaf_level_keys.extend(_collect_leaf_level_keys(k))
    else:
      leaf_level_keys.append(k)
  return leaf_level_keys


class _CrossedColumn(_CategoricalColumn, collections.namedtuple(
    "_CrossedColumn", ["keys", "hash_bucket_size", "hash_key"])):
  """Hashed crosses of several features (SparseCross with hashed output)."""

  @property
  def name(self):
    feature_names = []
    for key in _collect_leaf_level_keys(self):
      feature_names.append(key.name if isinstance(key, _FeatureColumn) else key)
    return "_X_".join(sorted(feature_names))

  @property
  def _parse_example_spec(self):
    config = {}
    for key in self.keys:
      if isinstance(key, _FeatureColumn):
        config.update(key._parse_example_spec)  # pylint: disable=protected-access
      else:
        config.update({key: _parsing_ops.VarLenFeature(_tf.string)})
    return config

  def _transform_feature(self, inputs):
    feature_tensors = []
    for key in _collect_leaf_level_keys(self):
      if isinstance(key, str):
        feature_tensors.append(inputs.get(key))
      elif isinstance(key, _CategoricalColumn):
        ids_and_weights = key._get_sparse_tensors(inputs)  # pylint: disable=protected-access
        if ids_and_weights.weight_tensor is not None:
          raise ValueError("crossed_column does not support weight_tensor, but the given column populates "
                           "weight_tensor. Given column: {}".format(key.name))
        feature_tensors.append(ids_and_weights.id_tensor)
      else:
        raise ValueError("Unsupported column type. Given: {}".format(key))
    return _sparse_ops.sparse_cross_hashed(inputs=feature_tensors, num_buckets=self.hash_bucket_size,
                                           hash_key=self.hash_key)

  @property
  def _num_buckets(self):
    return self.hash_bucket_size

  def _get_sparse_tensors(self, inputs, weight_collections=None, trainable=None):
    return _CategoricalColumn.IdWeightPair(inputs.get(self), None)


def crossed_column(keys, hash_bucket_size, hash_key=None):
  """Hashed crosses of features (raw string/integer keys or categorical
  columns), hash_bucket_size buckets; TF's bucket of every cross."""
  if not hash_bucket_size or hash_bucket_size < 1:
    raise ValueError("hash_bucket_size must be > 1. hash_bucket_size: {}".format(hash_bucket_size))
  if not keys or len(keys) < 2:
    raise ValueError("keys must be a list with length > 1. Given: {}".format(keys))
  for key in keys:
    if not isinstance(key, (str, _CategoricalColumn)):
      raise ValueError("Unsupported key type. All keys must be either string, or categorical column except "
                       "_HashedCategoricalColumn. Given: {}".format(key))
    if isinstance(key, _HashedCategoricalColumn):
      raise ValueError("categorical_column_with_hash_bucket is not supported for crossing. Hashing before "
                       "crossing will increase probability of collision. Instead, use the feature name as a "
                       "string. Given: {}".format(key))
  return _CrossedColumn(keys=tuple(keys), hash_bucket_size=hash_bucket_size, hash_key=hash_key)


# -- models ------------------------------------------------------------------------------------


def _normalize_feature_columns(feature_columns):
  if isinstance(feature_columns, _FeatureColumn):
    feature_columns = [feature_columns]
  if isinstance(feature_columns, collections.abc.Iterator):
    feature_columns = list(feature_columns)
  if isinstance(feature_columns, dict):
    raise ValueError("Expected feature_columns to be iterable, found dict.")
  for column in feature_columns:
    if not isinstance(column, _FeatureColumn):
      raise ValueError("Items of feature_columns must be a _FeatureColumn. Given (type {}): {}."
                       .format(type(column), column))
  if not feature_columns:
    raise ValueError("feature_columns must not be empty.")
  name_to_column = {}
  for column in feature_columns:
    if column.name in name_to_column:
      raise ValueError("Duplicate feature column name found for columns: {} and {}. This usually means that these "
                       "columns refer to same base feature. Either one must be discarded or a duplicated but "
                       "renamed item must be inserted in features dict.".format(column,
                                                                               name_to_column[column.name]))
    name_to_column[column.name] = column
  return list(feature_columns)


def _verify_static_batch_size_equality(tensors, columns):
  expected_batch_size = None
  for i in range(0, len(tensors)):
    batch_size = _tensor_shape.Dimension(_tensor_shape.dimension_value(tensors[i].shape[0]))
    if batch_size.value is not None:
      if expected_batch_size is None:
        bath_size_column_index = i
        expected_batch_size = batch_size
      elif not expected_batch_size.is_compatible_with(batch_size):
        raise ValueError("Batch size (first dimension) of each feature must be same. Batch size of columns "
                         "({}, {}): ({}, {})".format(columns[bath_size_column_index].name, columns[i].name,
                                                     expected_batch_size, batch_size))


def _static_batch(tensor):
  """The static first dimension of tensor (None when unknown)."""
  shape = tensor.get_shape()
  return _tensor_shape.dimension_value(shape[0]) if shape.ndims else None


def _weight_collections(weight_collections):
  weight_collections = list(weight_collections or [])
  if _tf.GraphKeys.GLOBAL_VARIABLES not in weight_collections:
    weight_collections.append(_tf.GraphKeys.GLOBAL_VARIABLES)
  if _tf.GraphKeys.MODEL_VARIABLES not in weight_collections:
    weight_collections.append(_tf.GraphKeys.MODEL_VARIABLES)
  return weight_collections


def input_layer(features, feature_columns, weight_collections=None, trainable=True, cols_to_vars=None,
                cols_to_output_tensors=None):
  """One [batch, sum of the columns' sizes] float tensor of dense columns
  (numeric, bucketized, indicator, embedding), concatenated in order of
  column name, under the variable scope input_layer/<column>/."""
  feature_columns = _normalize_feature_columns(feature_columns)
  for column in feature_columns:
    if not isinstance(column, _DenseColumn):
      raise ValueError("Items of feature_columns must be a _DenseColumn. You can wrap a categorical column with "
                       "an embedding_column or indicator_column. Given: {}".format(column))
  weight_collections = _weight_collections(weight_collections)
  with _tf.variable_scope(None, default_name="input_layer", values=list(features.values())):
    builder = _LazyBuilder(features)
    output_tensors = []
    ordered_columns = []
    for column in sorted(feature_columns, key=lambda x: x.name):
      ordered_columns.append(column)
      with _tf.variable_scope(None, default_name=column._var_scope_name):  # pylint: disable=protected-access
        tensor = column._get_dense_tensor(builder, weight_collections=weight_collections,  # pylint: disable=protected-access
                                          trainable=trainable)
        num_elements = column._variable_shape.num_elements()  # pylint: disable=protected-access
        batch_size = _tf.shape(tensor)[0]
        output_tensor = _tf.reshape(tensor, shape=(batch_size, num_elements))
        output_tensor.set_shape([_static_batch(tensor), num_elements])
        output_tensors.append(output_tensor)
        if cols_to_vars is not None:
          cols_to_vars[column] = _tf.get_collection(_tf.GraphKeys.GLOBAL_VARIABLES,
                                                    scope=_tf.get_variable_scope().name)
        if cols_to_output_tensors is not None:
          cols_to_output_tensors[column] = output_tensor
    _verify_static_batch_size_equality(output_tensors, ordered_columns)
    return _tf.concat(output_tensors, 1)


def _create_weighted_sum(column, builder, units, sparse_combiner, weight_collections, trainable):
  """A column's [batch, units] contribution: categorical columns (bucketized
  ones included) sum weight rows of their ids, dense ones multiply."""
  if isinstance(column, _CategoricalColumn):
    sparse_tensors = column._get_sparse_tensors(builder, weight_collections=weight_collections,  # pylint: disable=protected-access
                                                trainable=trainable)
    id_tensor = _sparse_ops.sparse_reshape(sparse_tensors.id_tensor,
                                           [sparse_tensors.id_tensor.dense_shape[0], -1])
    weight_tensor = sparse_tensors.weight_tensor
    if weight_tensor is not None:
      weight_tensor = _sparse_ops.sparse_reshape(weight_tensor, [weight_tensor.dense_shape[0], -1])
    weight = _tf.get_variable(name="weights", shape=(column._num_buckets, units),  # pylint: disable=protected-access
                              initializer=_tf.zeros_initializer(), trainable=trainable,
                              collections=weight_collections)
    return _safe_embedding_ops.safe_embedding_lookup_sparse(weight, id_tensor, sparse_weights=weight_tensor,
                                                            combiner=sparse_combiner, name="weighted_sum")
  tensor = column._get_dense_tensor(builder, weight_collections=weight_collections, trainable=trainable)  # pylint: disable=protected-access
  num_elements = column._variable_shape.num_elements()  # pylint: disable=protected-access
  batch_size = _tf.shape(tensor)[0]
  static_batch = _static_batch(tensor)
  tensor = _tf.reshape(tensor, shape=(batch_size, num_elements))
  tensor.set_shape([static_batch, num_elements])
  weight = _tf.get_variable(name="weights", shape=[num_elements, units], initializer=_tf.zeros_initializer(),
                            trainable=trainable, collections=weight_collections)
  return _tf.matmul(tensor, weight, name="weighted_sum")


def linear_model(features, feature_columns, units=1, sparse_combiner="sum", weight_collections=None,
                 trainable=True, cols_to_vars=None):
  """A linear prediction [batch, units] over any columns: a weight variable
  per column (linear_model/<column>/weights, zeros; categorical columns add
  the rows of their ids, combined by sparse_combiner) and bias_weights."""
  feature_columns = _normalize_feature_columns(feature_columns)
  for column in feature_columns:
    if not isinstance(column, (_DenseColumn, _CategoricalColumn)):
      raise ValueError("Items of feature_columns must be either a _DenseColumn or _CategoricalColumn. Given: {}"
                       .format(column))
  if sparse_combiner not in ("mean", "sqrtn", "sum"):
    raise ValueError("sparse_combiner must be one of 'mean', 'sqrtn' or 'sum'. Given: {}".format(sparse_combiner))
  weight_collections = _weight_collections(weight_collections)
  with _tf.variable_scope(None, default_name="linear_model", values=list(features.values())):
    builder = _LazyBuilder(features)
    weighted_sums = []
    ordered_columns = []
    for column in sorted(feature_columns, key=lambda x: x.name):
      with _tf.variable_scope(None, default_name=column._var_scope_name):  # pylint: disable=protected-access
        ordered_columns.append(column)
        weighted_sum = _create_weighted_sum(column=column, builder=builder, units=units,
                                            sparse_combiner=sparse_combiner,
                                            weight_collections=weight_collections, trainable=trainable)
        weighted_sums.append(weighted_sum)
        if cols_to_vars is not None:
          cols_to_vars[column] = _tf.get_collection(_tf.GraphKeys.GLOBAL_VARIABLES,
                                                    scope=_tf.get_variable_scope().name)
    _verify_static_batch_size_equality(weighted_sums, ordered_columns)
    predictions_no_bias = _tf.add_n(weighted_sums, name="weighted_sum_no_bias")
    bias = _tf.get_variable(name="bias_weights", shape=[units], initializer=_tf.zeros_initializer(),
                            trainable=trainable, collections=weight_collections)
    predictions = _tf.nn.bias_add(predictions_no_bias, bias, name="weighted_sum")
    if cols_to_vars is not None:
      cols_to_vars["bias"] = [bias]
    return predictions


def make_parse_example_spec(feature_columns):
  """The tf.parse_example spec ({key: FixedLenFeature/VarLenFeature}) the
  columns need."""
  result = {}
  for column in feature_columns:
    if not isinstance(column, _FeatureColumn):
      raise ValueError("All feature_columns must be _FeatureColumn instances. Given: {}".format(column))
    config = column._parse_example_spec  # pylint: disable=protected-access
    for key, value in config.items():
      if key in result and value != result[key]:
        raise ValueError("feature_columns contain different parse_spec for key {}. Given {} and {}"
                         .format(key, value, result[key]))
    result.update(config)
  return result
