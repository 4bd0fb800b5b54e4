"""tf.nn.nce_loss and tf.nn.sampled_softmax_loss: training losses over a sampled
subset of the classes, built as TF 1.15 builds them (the same graph, so the same
values for the same seeds)."""
from tfc import dtypes as _dtypes
from tfc.framework import ops as _ops
from tfc.ops import array_ops
from tfc.ops import candidate_sampling_ops
from tfc.ops import math_ops
from tfc.ops import nn_ops
from tfc.ops import sparse_ops


def _sum_rows(x):
  """Row sums of a 2-D x as a matmul with ones (TF's formulation, for its gradient)."""
  cols = array_ops.shape(x)[1]
  ones = array_ops.ones(array_ops.stack([cols, 1]), x.dtype)
  return array_ops.reshape(math_ops.matmul(x, ones), [-1])


def _compute_sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes,
                            num_true=1, sampled_values=None, subtract_log_q=True,
                            remove_accidental_hits=False, partition_strategy="mod", name=None,
                            seed=None):
  """Logits [batch, num_true + num_sampled] of the true and sampled classes and their
  labels (1/num_true for the true classes, 0 for the sampled)."""
  if not isinstance(weights, (list, tuple)):
    weights = [weights]
  weights = list(weights)
  with _ops.name_scope(name, "compute_sampled_logits", weights + [biases, inputs, labels]):
    labels = _ops.convert_to_tensor(labels)
    if labels.dtype != _dtypes.int64:
      labels = math_ops.cast(labels, _dtypes.int64)
    labels_flat = array_ops.reshape(labels, [-1])
    if sampled_values is None:
      sampled_values = candidate_sampling_ops.log_uniform_candidate_sampler(
          true_classes=labels, num_true=num_true, num_sampled=num_sampled, unique=True,
          range_max=num_classes, seed=seed)
    sampled, true_expected_count, sampled_expected_count = (
        array_ops.stop_gradient(s) for s in sampled_values)
    sampled = math_ops.cast(sampled, _dtypes.int64)
    all_ids = array_ops.concat([labels_flat, sampled], 0)
    all_w = nn_ops.embedding_lookup(weights, all_ids, partition_strategy=partition_strategy)
    inputs = _ops.convert_to_tensor(inputs)
    if all_w.dtype != inputs.dtype:
      all_w = math_ops.cast(all_w, inputs.dtype)
    true_w = array_ops.slice(all_w, [0, 0],
                             array_ops.stack([array_ops.shape(labels_flat)[0], -1]))
    sampled_w = array_ops.slice(all_w, array_ops.stack([array_ops.shape(labels_flat)[0], 0]),
                                [-1, -1])
    sampled_logits = math_ops.matmul(inputs, sampled_w, transpose_b=True)
    all_b = nn_ops.embedding_lookup(biases, all_ids, partition_strategy=partition_strategy)
    if all_b.dtype != inputs.dtype:
      all_b = math_ops.cast(all_b, inputs.dtype)
    true_b = array_ops.slice(all_b, [0], array_ops.shape(labels_flat))
    sampled_b = array_ops.slice(all_b, array_ops.shape(labels_flat), [-1])
    dim = array_ops.shape(true_w)[1:2]
    new_true_w_shape = array_ops.concat([[-1, num_true], dim], 0)
    row_wise_dots = math_ops.multiply(array_ops.expand_dims(inputs, 1),
                                      array_ops.reshape(true_w, new_true_w_shape))
    dots_as_matrix = array_ops.reshape(row_wise_dots, array_ops.concat([[-1], dim], 0))
    true_logits = array_ops.reshape(_sum_rows(dots_as_matrix), [-1, num_true])
    true_b = array_ops.reshape(true_b, [-1, num_true])
    true_logits += true_b
    sampled_logits += sampled_b
    if remove_accidental_hits:
      acc_indices, acc_ids, acc_weights = candidate_sampling_ops.compute_accidental_hits(
          labels, sampled, num_true=num_true)
      acc_indices_2d = array_ops.reshape(acc_indices, [-1, 1])
      acc_ids_2d_int32 = array_ops.reshape(math_ops.cast(acc_ids, _dtypes.int32), [-1, 1])
      sparse_indices = array_ops.concat([acc_indices_2d, acc_ids_2d_int32], 1, "sparse_indices")
      sampled_logits_shape = array_ops.concat(
          [array_ops.shape(labels)[:1], array_ops.expand_dims(num_sampled, 0)], 0)
      if sampled_logits.dtype != acc_weights.dtype:
        acc_weights = math_ops.cast(acc_weights, sampled_logits.dtype)
      sampled_logits += sparse_ops.sparse_to_dense(sparse_indices, sampled_logits_shape,
                                                   acc_weights, default_value=0.0,
                                                   validate_indices=False)
    if subtract_log_q:
      true_logits -= math_ops.log(true_expected_count)
      sampled_logits -= math_ops.log(sampled_expected_count)
    out_logits = array_ops.concat([true_logits, sampled_logits], 1)
    out_labels = array_ops.concat([array_ops.ones_like(true_logits) / num_true,
                                   array_ops.zeros_like(sampled_logits)], 1)
    return out_logits, out_labels


def nce_loss(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1,
             sampled_values=None, remove_accidental_hits=False, partition_strategy="mod",
             name="nce_loss"):
  """Noise-contrastive estimation loss per example [batch_size]: logistic losses of the
  true classes against `num_sampled` classes from `sampled_values` (default: the
  log-uniform candidate sampler), with the log expected counts subtracted."""
  logits, labels = _compute_sampled_logits(
      weights=weights, biases=biases, labels=labels, inputs=inputs, num_sampled=num_sampled,
      num_classes=num_classes, num_true=num_true, sampled_values=sampled_values,
      subtract_log_q=True, remove_accidental_hits=remove_accidental_hits,
      partition_strategy=partition_strategy, name=name)
  sampled_losses = nn_ops.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits,
                                                            name="sampled_losses")
  return _sum_rows(sampled_losses)


def sampled_softmax_loss(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1,
                         sampled_values=None, remove_accidental_hits=True,
                         partition_strategy="mod", name="sampled_softmax_loss", seed=None):
  """Softmax cross-entropy per example [batch_size] over the true classes and
  `num_sampled` sampled classes (default: the log-uniform candidate sampler), with the
  log expected counts subtracted and accidental hits removed."""
  logits, labels = _compute_sampled_logits(
      weights=weights, biases=biases, labels=labels, inputs=inputs, num_sampled=num_sampled,
      num_classes=num_classes, num_true=num_true, sampled_values=sampled_values,
      subtract_log_q=True, remove_accidental_hits=remove_accidental_hits,
      partition_strategy=partition_strategy, name=name, seed=seed)
  labels = array_ops.stop_gradient(labels, name="labels_stop_gradient")
  return nn_ops.softmax_cross_entropy_with_logits_v2(labels=labels, logits=logits)
