"""tf.nn.safe_embedding_lookup_sparse (TF 1.15 `embedding_ops`): embedding
lookups that tolerate invalid ids (< 0), non-positive weights and empty rows
(which get zeros, or the default_id's embedding), for ids of any rank. What
embedding and linear feature columns combine their ids with."""
import tfc as _tf
from tfc.framework import sparse_tensor as _sparse_tensor
from tfc.framework import tensor_shape as _tensor_shape
from tfc.ops import sparse_ops as _sparse_ops


def _prune_invalid_ids(sparse_ids, sparse_weights):
  """Drops the entries whose id is negative (from both tensors)."""
  is_id_valid = _tf.greater_equal(sparse_ids.values, 0)
  if sparse_weights is not None:
    is_id_valid = _tf.logical_and(is_id_valid, _tf.ones_like(sparse_weights.values, dtype=_tf.bool))
  sparse_ids = _sparse_ops.sparse_retain(sparse_ids, is_id_valid)
  if sparse_weights is not None:
    sparse_weights = _sparse_ops.sparse_retain(sparse_weights, is_id_valid)
  return sparse_ids, sparse_weights


def _prune_invalid_weights(sparse_ids, sparse_weights):
  """Drops the entries whose weight is not positive."""
  if sparse_weights is not None:
    is_weights_valid = _tf.greater(sparse_weights.values, 0)
    sparse_ids = _sparse_ops.sparse_retain(sparse_ids, is_weights_valid)
    sparse_weights = _sparse_ops.sparse_retain(sparse_weights, is_weights_valid)
  return sparse_ids, sparse_weights


def safe_embedding_lookup_sparse(embedding_weights, sparse_ids, sparse_weights=None, combiner="mean",
                                 default_id=None, name=None, partition_strategy="div", max_norm=None):
  """Embeddings of `sparse_ids` ([d0, ..., dn-1, ?] ids) combined per row by
  `combiner` ("sum", "mean", "sqrtn"), weighted by `sparse_weights`; ids < 0
  and (unless "sum") weights <= 0 are ignored; rows left empty give zeros (or
  default_id's embedding). Returns [d0, ..., dn-1, dim]."""
  if embedding_weights is None:
    raise ValueError("Missing embedding_weights %s." % embedding_weights)
  if not isinstance(embedding_weights, (list, tuple)):
    embedding_weights = [embedding_weights]
  embedding_weights = list(embedding_weights)
  if len(embedding_weights) < 1:
    raise ValueError("Missing embedding_weights %s." % embedding_weights)
  dtype = sparse_weights.dtype if sparse_weights is not None else None
  embedding_weights = [w if isinstance(w, _tf.Variable) else _tf.convert_to_tensor(w, dtype=dtype)
                       for w in embedding_weights]
  with _tf.name_scope(name, "embedding_lookup", embedding_weights + [sparse_ids, sparse_weights]) as scope:
    original_shape = sparse_ids.dense_shape
    original_rank_dim = _tensor_shape.dimension_value(sparse_ids.dense_shape.get_shape()[0])
    original_rank = _tf.size(original_shape) if original_rank_dim is None else original_rank_dim
    sparse_ids = _sparse_ops.sparse_reshape(sparse_ids, [
        _tf.reduce_prod(_tf.slice(original_shape, [0], [original_rank - 1])),
        _tf.gather(original_shape, original_rank - 1)])
    if sparse_weights is not None:
      sparse_weights = _sparse_tensor.SparseTensor(sparse_ids.indices, sparse_weights.values, sparse_ids.dense_shape)
    sparse_ids, sparse_weights = _prune_invalid_ids(sparse_ids, sparse_weights)
    if combiner != "sum":
      sparse_ids, sparse_weights = _prune_invalid_weights(sparse_ids, sparse_weights)
    sparse_ids, is_row_empty = _sparse_ops.sparse_fill_empty_rows(sparse_ids, default_id or 0)
    if sparse_weights is not None:
      sparse_weights, _ = _sparse_ops.sparse_fill_empty_rows(sparse_weights, 1.0)
    result = _sparse_ops.embedding_lookup_sparse(
        embedding_weights, sparse_ids, sparse_weights, combiner=combiner, partition_strategy=partition_strategy,
        name=None if default_id is None else scope, max_norm=max_norm)
    if default_id is None:
      is_row_empty = _tf.tile(_tf.reshape(is_row_empty, [-1, 1]), _tf.stack([1, _tf.shape(result)[1]]))
      result = _tf.where(is_row_empty, _tf.zeros_like(result), result, name=scope)
    final_result = _tf.reshape(result, _tf.concat([
        _tf.slice(_tf.cast(original_shape, _tf.int32), [0], [original_rank - 1]),
        _tf.slice(_tf.shape(result), [1], [-1])], 0))
    if original_rank_dim is not None:
      final_result.set_shape(_tensor_shape.unknown_shape(original_rank_dim - 1).concatenate(
          result.get_shape()[1:]))
    return final_result
