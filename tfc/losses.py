"""tf.losses (TF 1.15 `losses_impl`): weighted, reduced losses added to the LOSSES collection."""
from tfc import dtypes as _dtypes
from tfc.framework import ops as _ops
from tfc.framework import constant_op as _constant_op
from tfc.ops import array_ops as _array_ops
from tfc.ops import math_ops as _math_ops
from tfc.ops import nn_ops as _nn_ops


class Reduction(object):
  """How compute_weighted_loss reduces the weighted per-element losses."""

  NONE = "none"
  SUM = "weighted_sum"
  SUM_OVER_BATCH_SIZE = "weighted_sum_over_batch_size"
  MEAN = "weighted_mean"
  SUM_BY_NONZERO_WEIGHTS = "weighted_sum_by_nonzero_weights"
  SUM_OVER_NONZERO_WEIGHTS = SUM_BY_NONZERO_WEIGHTS

  @classmethod
  def all(cls):
    return (cls.NONE, cls.SUM, cls.MEAN, cls.SUM_OVER_BATCH_SIZE,
            cls.SUM_OVER_NONZERO_WEIGHTS, cls.SUM_BY_NONZERO_WEIGHTS)

  @classmethod
  def validate(cls, key):
    if key not in cls.all():
      raise ValueError("Invalid Reduction Key %s." % key)


# --------------------------------------------------------------------------- collection

def add_loss(loss, loss_collection=_ops.GraphKeys.LOSSES):
  """Adds `loss` to `loss_collection` (nothing when it is None or empty)."""
  if loss_collection:
    _ops.add_to_collection(loss_collection, loss)


def get_losses(scope=None, loss_collection=_ops.GraphKeys.LOSSES):
  return _ops.get_collection(loss_collection, scope)


def get_regularization_losses(scope=None):
  return _ops.get_collection(_ops.GraphKeys.REGULARIZATION_LOSSES, scope)


def get_regularization_loss(scope=None, name="total_regularization_loss"):
  losses = get_regularization_losses(scope)
  if losses:
    return _math_ops.add_n(losses, name=name)
  return _constant_op.constant(0.0)


def get_total_loss(add_regularization_losses=True, name="total_loss", scope=None):
  """The sum of the LOSSES collection (and the regularization losses)."""
  losses = get_losses(scope=scope)
  if add_regularization_losses:
    losses += get_regularization_losses(scope=scope)
  return _math_ops.add_n(losses, name=name)


# --------------------------------------------------------------------------- helpers

def _assert_broadcastable(weights, values):
  """Static check that `weights` (rank 0, or the rank of values with dims 1 or equal)
  broadcasts to `values`."""
  ws, vs = weights.get_shape(), values.get_shape()
  if ws.ndims == 0 or ws.ndims is None or vs.ndims is None:
    return
  if ws.ndims != vs.ndims:
    raise ValueError("weights can not be broadcast to values. values.rank=%s. weights.rank=%s."
                     " values.shape=%s. weights.shape=%s." % (vs.ndims, ws.ndims, vs, ws))
  for w, v in zip(ws.as_list(), vs.as_list()):
    if w is not None and v is not None and w != 1 and w != v:
      raise ValueError("weights can not be broadcast to values. values.shape=%s. "
                       "weights.shape=%s." % (vs, ws))


def _broadcast_weights(weights, values):
  with _ops.name_scope(None, "broadcast_weights", (weights, values)) as scope:
    values = _ops.convert_to_tensor(values, name="values")
    weights = _ops.convert_to_tensor(weights, dtype=values.dtype.base_dtype, name="weights")
    ws, vs = weights.get_shape(), values.get_shape()
    if ws.is_fully_defined() and vs.is_fully_defined() and ws.is_compatible_with(vs):
      return weights
    _assert_broadcastable(weights, values)
    return _math_ops.multiply(weights, _array_ops.ones_like(values), name=scope)


def _safe_mean(losses, num_present):
  total_loss = _math_ops.reduce_sum(losses)
  return _math_ops.div_no_nan(total_loss, num_present, name="value")


def _num_present(losses, weights, per_batch=False):
  with _ops.name_scope(None, "num_present", (losses, weights)) as scope:
    weights = _math_ops.cast(weights, dtype=_dtypes.float32)
    present = _array_ops.where(_math_ops.equal(weights, 0.0), _array_ops.zeros_like(weights),
                               _array_ops.ones_like(weights))
    present = _broadcast_weights(present, losses)
    if per_batch:
      rank = present.get_shape().ndims
      return _math_ops.reduce_sum(present, axis=list(range(1, rank)), keepdims=True, name=scope)
    return _math_ops.reduce_sum(present, name=scope)


def _num_elements(losses):
  with _ops.name_scope(None, "num_elements", values=[losses]) as scope:
    losses = _ops.convert_to_tensor(losses)
    return _math_ops.cast(_array_ops.size(losses, name=scope), dtype=losses.dtype)


def compute_weighted_loss(losses, weights=1.0, scope=None, loss_collection=_ops.GraphKeys.LOSSES,
                          reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
  """losses * weights, reduced by `reduction`, cast back to the losses' dtype."""
  Reduction.validate(reduction)
  with _ops.name_scope(scope, "weighted_loss", (losses, weights)):
    losses = _ops.convert_to_tensor(losses)
    input_dtype = losses.dtype
    losses = _math_ops.cast(losses, dtype=_dtypes.float32)
    weights = _math_ops.cast(weights, dtype=_dtypes.float32)
    _assert_broadcastable(weights, losses)
    weighted_losses = _math_ops.multiply(losses, weights)
    if reduction == Reduction.NONE:
      loss = weighted_losses
    else:
      loss = _math_ops.reduce_sum(weighted_losses)
      if reduction == Reduction.MEAN:
        loss = _safe_mean(loss, _math_ops.reduce_sum(_array_ops.ones_like(losses) * weights))
      elif reduction == Reduction.SUM_BY_NONZERO_WEIGHTS:
        loss = _safe_mean(loss, _num_present(losses, weights))
      elif reduction == Reduction.SUM_OVER_BATCH_SIZE:
        loss = _safe_mean(loss, _num_elements(losses))
    loss = _math_ops.cast(loss, input_dtype)
    add_loss(loss, loss_collection)
    return loss


def _check_not_none(**kw):
  for k, v in kw.items():
    if v is None:
      raise ValueError("%s must not be None." % k)


def _remove_squeezable_dimensions(labels, predictions, weights=None, expected_rank_diff=0):
  """Squeezes a trailing size-1 dim of labels/predictions (and weights) by static rank."""
  labels = _ops.convert_to_tensor(labels)
  predictions = _ops.convert_to_tensor(predictions)
  lr, pr = labels.get_shape().ndims, predictions.get_shape().ndims
  if lr is not None and pr is not None:
    rank_diff = pr - lr
    last_p = predictions.get_shape().as_list()[-1] if pr else None
    last_l = labels.get_shape().as_list()[-1] if lr else None
    if rank_diff == expected_rank_diff + 1 and last_p in (1, None):
      predictions = _array_ops.squeeze(predictions, [-1])
    elif rank_diff == expected_rank_diff - 1 and last_l in (1, None):
      labels = _array_ops.squeeze(labels, [-1])
  if weights is None:
    return labels, predictions, None
  weights = _ops.convert_to_tensor(weights)
  lr, wr = labels.get_shape().ndims, weights.get_shape().ndims
  if lr is not None and wr is not None and wr - lr == 1:
    weights = _array_ops.squeeze(weights, [-1])
  return labels, predictions, weights


# --------------------------------------------------------------------------- losses

def absolute_difference(labels, predictions, weights=1.0, scope=None,
                        loss_collection=_ops.GraphKeys.LOSSES,
                        reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
  _check_not_none(labels=labels, predictions=predictions)
  with _ops.name_scope(scope, "absolute_difference", (predictions, labels, weights)) as scope:
    predictions = _math_ops.cast(predictions, dtype=_dtypes.float32)
    labels = _math_ops.cast(labels, dtype=_dtypes.float32)
    predictions.get_shape().assert_is_compatible_with(labels.get_shape())
    losses = _math_ops.abs(_math_ops.subtract(predictions, labels))
    return compute_weighted_loss(losses, weights, scope, loss_collection, reduction=reduction)


def mean_squared_error(labels, predictions, weights=1.0, scope=None,
                       loss_collection=_ops.GraphKeys.LOSSES,
                       reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
  _check_not_none(labels=labels, predictions=predictions)
  with _ops.name_scope(scope, "mean_squared_error", (predictions, labels, weights)) as scope:
    predictions = _math_ops.cast(predictions, dtype=_dtypes.float32)
    labels = _math_ops.cast(labels, dtype=_dtypes.float32)
    predictions.get_shape().assert_is_compatible_with(labels.get_shape())
    losses = _math_ops.squared_difference(predictions, labels)
    return compute_weighted_loss(losses, weights, scope, loss_collection, reduction=reduction)


def huber_loss(labels, predictions, weights=1.0, delta=1.0, scope=None,
               loss_collection=_ops.GraphKeys.LOSSES,
               reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
  _check_not_none(labels=labels, predictions=predictions)
  with _ops.name_scope(scope, "huber_loss", (predictions, labels, weights)) as scope:
    predictions = _math_ops.cast(predictions, dtype=_dtypes.float32)
    labels = _math_ops.cast(labels, dtype=_dtypes.float32)
    predictions.get_shape().assert_is_compatible_with(labels.get_shape())
    abs_error = _math_ops.abs(_math_ops.subtract(predictions, labels))
    quadratic = _math_ops.minimum(abs_error, delta)
    linear = _math_ops.subtract(abs_error, quadratic)
    losses = _math_ops.add(
        _math_ops.multiply(_ops.convert_to_tensor(0.5, dtype=quadratic.dtype),
                           _math_ops.multiply(quadratic, quadratic)),
        _math_ops.multiply(_math_ops.cast(delta, quadratic.dtype), linear))
    return compute_weighted_loss(losses, weights, scope, loss_collection, reduction=reduction)


def log_loss(labels, predictions, weights=1.0, epsilon=1e-7, scope=None,
             loss_collection=_ops.GraphKeys.LOSSES,
             reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
  _check_not_none(labels=labels, predictions=predictions)
  with _ops.name_scope(scope, "log_loss", (predictions, labels, weights)) as scope:
    predictions = _math_ops.cast(predictions, dtype=_dtypes.float32)
    labels = _math_ops.cast(labels, dtype=_dtypes.float32)
    predictions.get_shape().assert_is_compatible_with(labels.get_shape())
    losses = -_math_ops.multiply(labels, _math_ops.log(predictions + epsilon)) - \
        _math_ops.multiply((1 - labels), _math_ops.log(1 - predictions + epsilon))
    return compute_weighted_loss(losses, weights, scope, loss_collection, reduction=reduction)


def hinge_loss(labels, logits, weights=1.0, scope=None, loss_collection=_ops.GraphKeys.LOSSES,
               reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
  _check_not_none(labels=labels, logits=logits)
  with _ops.name_scope(scope, "hinge_loss", (logits, labels, weights)) as scope:
    logits = _math_ops.cast(logits, dtype=_dtypes.float32)
    labels = _math_ops.cast(labels, dtype=_dtypes.float32)
    logits.get_shape().assert_is_compatible_with(labels.get_shape())
    all_ones = _array_ops.ones_like(labels)
    labels = _math_ops.subtract(2 * labels, all_ones)
    losses = _nn_ops.relu(_math_ops.subtract(all_ones, _math_ops.multiply(labels, logits)))
    return compute_weighted_loss(losses, weights, scope, loss_collection, reduction=reduction)


def sigmoid_cross_entropy(multi_class_labels, logits, weights=1.0, label_smoothing=0, scope=None,
                          loss_collection=_ops.GraphKeys.LOSSES,
                          reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
  _check_not_none(multi_class_labels=multi_class_labels, logits=logits)
  with _ops.name_scope(scope, "sigmoid_cross_entropy_loss",
                       (logits, multi_class_labels, weights)) as scope:
    logits = _ops.convert_to_tensor(logits)
    multi_class_labels = _math_ops.cast(multi_class_labels, logits.dtype)
    logits.get_shape().assert_is_compatible_with(multi_class_labels.get_shape())
    if label_smoothing > 0:
      multi_class_labels = (multi_class_labels * (1 - label_smoothing) +
                            0.5 * label_smoothing)
    losses = _nn_ops.sigmoid_cross_entropy_with_logits(labels=multi_class_labels, logits=logits,
                                                       name="xentropy")
    return compute_weighted_loss(losses, weights, scope, loss_collection, reduction=reduction)


def softmax_cross_entropy(onehot_labels, logits, weights=1.0, label_smoothing=0, scope=None,
                          loss_collection=_ops.GraphKeys.LOSSES,
                          reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
  _check_not_none(onehot_labels=onehot_labels, logits=logits)
  with _ops.name_scope(scope, "softmax_cross_entropy_loss",
                       (logits, onehot_labels, weights)) as scope:
    logits = _ops.convert_to_tensor(logits)
    onehot_labels = _math_ops.cast(onehot_labels, logits.dtype)
    logits.get_shape().assert_is_compatible_with(onehot_labels.get_shape())
    if label_smoothing > 0:
      num_classes = _math_ops.cast(_array_ops.shape(onehot_labels)[-1], logits.dtype)
      smooth_positives = 1.0 - label_smoothing
      smooth_negatives = label_smoothing / num_classes
      onehot_labels = onehot_labels * smooth_positives + smooth_negatives
    onehot_labels = _array_ops.stop_gradient(onehot_labels, name="labels_stop_gradient")
    losses = _nn_ops.softmax_cross_entropy_with_logits_v2(labels=onehot_labels, logits=logits,
                                                          name="xentropy")
    return compute_weighted_loss(losses, weights, scope, loss_collection, reduction=reduction)


def sparse_softmax_cross_entropy(labels, logits, weights=1.0, scope=None,
                                 loss_collection=_ops.GraphKeys.LOSSES,
                                 reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
  _check_not_none(labels=labels, logits=logits)
  with _ops.name_scope(scope, "sparse_softmax_cross_entropy_loss",
                       (logits, labels, weights)) as scope:
    labels, logits, weights = _remove_squeezable_dimensions(labels, logits, weights,
                                                            expected_rank_diff=1)
    losses = _nn_ops.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits,
                                                              name="xentropy")
    return compute_weighted_loss(losses, weights, scope, loss_collection, reduction=reduction)


def cosine_distance(labels, predictions, axis=None, weights=1.0, scope=None,
                    loss_collection=_ops.GraphKeys.LOSSES,
                    reduction=Reduction.SUM_BY_NONZERO_WEIGHTS, dim=None):
  """1 - sum(labels * predictions, axis) for unit-normalized labels and predictions."""
  axis = _math_ops._deprecated_argument_lookup("axis", axis, "dim", dim)
  if axis is None:
    raise ValueError("You must specify 'axis'.")
  _check_not_none(labels=labels, predictions=predictions)
  with _ops.name_scope(scope, "cosine_distance_loss", (predictions, labels, weights)) as scope:
    predictions = _math_ops.cast(predictions, dtype=_dtypes.float32)
    labels = _math_ops.cast(labels, dtype=_dtypes.float32)
    predictions.get_shape().assert_is_compatible_with(labels.get_shape())
    products = _math_ops.multiply(predictions, labels)
    losses = 1 - _math_ops.reduce_sum(products, axis=(axis,), keepdims=True)
    return compute_weighted_loss(losses, weights, scope, loss_collection, reduction=reduction)


def mean_pairwise_squared_error(labels, predictions, weights=1.0, scope=None,
                                loss_collection=_ops.GraphKeys.LOSSES):
  """For each sample, the mean over all pairs (i, j) of its elements of
  ((predictions[i] - predictions[j]) - (labels[i] - labels[j])) ** 2, weighted by the
  sample's weight and summed over the batch."""
  _check_not_none(labels=labels, predictions=predictions)
  with _ops.name_scope(scope, "mean_pairwise_squared_error",
                       (predictions, labels, weights)):
    weights = _math_ops.cast(weights, dtype=_dtypes.float32)
    labels = _math_ops.cast(labels, dtype=_dtypes.float32)
    predictions = _math_ops.cast(predictions, dtype=_dtypes.float32)
    predictions.get_shape().assert_is_compatible_with(labels.get_shape())
    _assert_broadcastable(weights, labels)
    diffs = _math_ops.subtract(predictions, labels)
    axis = _math_ops.range(1, _array_ops.rank(diffs))
    sum_squares = _math_ops.reduce_sum(_math_ops.square(diffs), axis=axis, keepdims=True)
    count = _num_present(diffs, weights, per_batch=True)
    zero = _array_ops.zeros_like(count)
    # sum over pairs i != j of (d_i - d_j)^2 / (n (n - 1)) = 2 (n S2 - S1^2) / (n (n - 1))
    term1 = 2.0 * _math_ops.div_no_nan(sum_squares, _math_ops.maximum(count - 1, zero),
                                       name="value")
    sum_diff = _math_ops.reduce_sum(diffs, axis=axis, keepdims=True)
    term2 = 2.0 * _math_ops.div_no_nan(_math_ops.square(sum_diff),
                                       _math_ops.maximum(count * (count - 1), zero),
                                       name="value")
    loss = _math_ops.reduce_sum(_math_ops.multiply(term1 - term2, weights))
    mean_loss = _array_ops.where(_math_ops.reduce_sum(count) > 0, loss,
                                 _array_ops.zeros_like(loss), name="value")
    add_loss(mean_loss, loss_collection)
    return mean_loss
