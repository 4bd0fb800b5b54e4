"""tf.metrics: TF 1.15's streaming metrics.

Each metric returns (value, update_op). The running totals are local variables (in
GraphKeys.LOCAL_VARIABLES and METRIC_VARIABLES, named `<metric>/total`, `<metric>/count`,
...), so `tf.local_variables_initializer()` resets them; every run of update_op adds a
batch and returns the metric including it; value reads the metric so far.
`metrics_collections` / `updates_collections` receive value / update_op. The metrics
that need a top-k selection (`*_at_k`, `*_at_top_k`) are not here: tfc has no TopK op
yet.
"""
from tfc import dtypes as _dtypes
from tfc.framework import ops as _ops
from tfc.ops import array_ops as _array_ops
from tfc.ops import math_ops as _math_ops
from tfc.ops import state_ops as _state_ops
from tfc.ops import variable_scope as _vs
from tfc.ops import variables as _variables

_f32 = _dtypes.float32
_EPSILON = 1e-7


def metric_variable(shape, dtype, validate_shape=True, name=None):
  """A zero-initialized local variable counted as a metric variable."""
  return _variables.Variable(
      _array_ops.zeros(shape, dtype), trainable=False,
      collections=[_ops.GraphKeys.LOCAL_VARIABLES, _ops.GraphKeys.METRIC_VARIABLES],
      validate_shape=validate_shape, name=name)


def _computed(values):
  """An op that has computed `values`, to order the count update after it. (An identity:
  a control dependency straight on a fed placeholder would make the session demand the
  placeholder itself.)"""
  return _array_ops.identity(values).op


def _collect(collections, value):
  if collections:
    _ops.add_to_collections(collections, value)
  return value


def _squeeze_weights(predictions, labels, weights):
  """Drops a size-1 last dimension from labels or predictions where their ranks differ by
  one (as TF's confusion_matrix.remove_squeezable_dimensions), and matches the weights'
  rank to the predictions' (squeezing or expanding the last dimension)."""
  from tfc.losses import _remove_squeezable_dimensions  # pylint: disable=g-import-not-at-top
  predictions = _ops.convert_to_tensor(predictions)
  if labels is not None:
    labels, predictions, _ = _remove_squeezable_dimensions(labels, predictions)
    predictions.get_shape().assert_is_compatible_with(labels.get_shape())
  if weights is None:
    return predictions, labels, None
  weights = _ops.convert_to_tensor(weights)
  w_rank, p_rank = weights.get_shape().ndims, predictions.get_shape().ndims
  if w_rank not in (None, 0) and p_rank is not None:
    if w_rank - p_rank == 1:
      weights = _array_ops.squeeze(weights, [-1])
    elif p_rank - w_rank == 1:
      weights = _array_ops.expand_dims(weights, -1)
  return predictions, labels, weights


def _broadcast(weights, values):
  from tfc.losses import _broadcast_weights  # pylint: disable=g-import-not-at-top
  return _broadcast_weights(_math_ops.cast(weights, _f32), values)


def mean(values, weights=None, metrics_collections=None, updates_collections=None, name=None):
  """The (weighted) mean of every value seen: total / count."""
  with _vs.variable_scope(name, "mean", (values, weights)):
    values = _math_ops.cast(values, _f32)
    total = metric_variable([], _f32, name="total")
    count = metric_variable([], _f32, name="count")
    if weights is None:
      num_values = _math_ops.cast(_array_ops.size(values), _f32)
    else:
      values, _, weights = _squeeze_weights(values, None, weights)
      weights = _broadcast(weights, values)
      values = _math_ops.multiply(values, weights)
      num_values = _math_ops.reduce_sum(weights)
    update_total = _state_ops.assign_add(total, _math_ops.reduce_sum(values))
    with _ops.control_dependencies([_computed(values)]):
      update_count = _state_ops.assign_add(count, num_values)
    zero = _array_ops.zeros([], _f32)
    value = _collect(metrics_collections, _math_ops.div_no_nan(
        total, _math_ops.maximum(count, zero), name="value"))
    update_op = _collect(updates_collections, _math_ops.div_no_nan(
        update_total, _math_ops.maximum(update_count, zero), name="update_op"))
    return value, update_op


def mean_tensor(values, weights=None, metrics_collections=None, updates_collections=None,
                name=None):
  """The element-wise (weighted) mean of every tensor seen (all of one shape)."""
  with _vs.variable_scope(name, "mean", (values, weights)):
    values = _math_ops.cast(values, _f32)
    shape = values.get_shape()
    if not shape.is_fully_defined():
      raise ValueError("mean_tensor needs values of a fully defined shape, got %s" % shape)
    total = metric_variable(shape.as_list(), _f32, name="total_tensor")
    count = metric_variable(shape.as_list(), _f32, name="count_tensor")
    num_values = _array_ops.ones_like(values)
    if weights is not None:
      values, _, weights = _squeeze_weights(values, None, weights)
      weights = _broadcast(weights, values)
      values = _math_ops.multiply(values, weights)
      num_values = _math_ops.multiply(num_values, weights)
    update_total = _state_ops.assign_add(total, values)
    with _ops.control_dependencies([_computed(values)]):
      update_count = _state_ops.assign_add(count, num_values)
    zeros = _array_ops.zeros_like(count)
    value = _collect(metrics_collections, _math_ops.div_no_nan(
        total, _math_ops.maximum(count, zeros), name="value"))
    update_op = _collect(updates_collections, _math_ops.div_no_nan(
        update_total, _math_ops.maximum(update_count, zeros), name="update_op"))
    return value, update_op


def _matching(labels, predictions, weights):
  predictions, labels, weights = _squeeze_weights(predictions, labels, weights)
  if labels.dtype.base_dtype != predictions.dtype.base_dtype:
    predictions = _math_ops.cast(predictions, labels.dtype.base_dtype)
  return predictions, labels, weights


def accuracy(labels, predictions, weights=None, metrics_collections=None,
             updates_collections=None, name=None):
  """How often predictions equal labels (the mean of equal(predictions, labels))."""
  predictions, labels, weights = _matching(labels, predictions, weights)
  is_correct = _math_ops.cast(_math_ops.equal(predictions, labels), _f32)
  return mean(is_correct, weights, metrics_collections, updates_collections,
              name or "accuracy")


def _float_pair(labels, predictions, weights):
  predictions, labels, weights = _squeeze_weights(predictions, labels, weights)
  return _math_ops.cast(predictions, _f32), _math_ops.cast(labels, _f32), weights


def mean_absolute_error(labels, predictions, weights=None, metrics_collections=None,
                        updates_collections=None, name=None):
  """The mean of |predictions - labels|."""
  predictions, labels, weights = _float_pair(labels, predictions, weights)
  return mean(_math_ops.abs(predictions - labels), weights, metrics_collections,
              updates_collections, name or "mean_absolute_error")


def mean_squared_error(labels, predictions, weights=None, metrics_collections=None,
                       updates_collections=None, name=None):
  """The mean of (predictions - labels) ** 2."""
  predictions, labels, weights = _float_pair(labels, predictions, weights)
  return mean(_math_ops.squared_difference(labels, predictions), weights, metrics_collections,
              updates_collections, name or "mean_squared_error")


def root_mean_squared_error(labels, predictions, weights=None, metrics_collections=None,
                            updates_collections=None, name=None):
  """sqrt of mean_squared_error."""
  mse, update_mse = mean_squared_error(labels, predictions, weights, None, None,
                                       name or "root_mean_squared_error")
  return (_collect(metrics_collections, _math_ops.sqrt(mse)),
          _collect(updates_collections, _math_ops.sqrt(update_mse)))


def mean_relative_error(labels, predictions, normalizer, weights=None, metrics_collections=None,
                        updates_collections=None, name=None):
  """The mean of |predictions - labels| / normalizer (0 where the normalizer is 0)."""
  predictions, labels, weights = _float_pair(labels, predictions, weights)
  predictions, normalizer, _ = _squeeze_weights(predictions, normalizer, None)
  normalizer = _math_ops.cast(normalizer, _f32)
  relative = _array_ops.where(_math_ops.equal(normalizer, 0.0), _array_ops.zeros_like(labels),
                              _math_ops.divide(_math_ops.abs(labels - predictions), normalizer))
  return mean(relative, weights, metrics_collections, updates_collections,
              name or "mean_relative_error")


def mean_cosine_distance(labels, predictions, dim, weights=None, metrics_collections=None,
                         updates_collections=None, name=None):
  """1 - the mean of sum(labels * predictions, dim) (inputs unit-normalized along dim)."""
  predictions, labels, weights = _float_pair(labels, predictions, weights)
  products = _math_ops.reduce_sum(_math_ops.multiply(predictions, labels), axis=[dim],
                                  keepdims=True)
  distance, update_op = mean(products, weights, None, None, name or "mean_cosine_distance")
  return (_collect(metrics_collections, _math_ops.subtract(1.0, distance)),
          _collect(updates_collections, _math_ops.subtract(1.0, update_op)))


def percentage_below(values, threshold, weights=None, metrics_collections=None,
                     updates_collections=None, name=None):
  """The fraction of values below threshold."""
  is_below = _math_ops.cast(_math_ops.less(values, threshold), _f32)
  return mean(is_below, weights, metrics_collections, updates_collections,
              name or "percentage_below_threshold")


# -- counts of a boolean condition -----------------------------------------------------


def _count_condition(values, weights, metrics_collections, updates_collections):
  count = metric_variable([], _f32, name="count")
  values = _math_ops.cast(values, _f32)
  if weights is not None:
    weights = _math_ops.cast(weights, _f32)
    w_rank, v_rank = weights.get_shape().ndims, values.get_shape().ndims
    if w_rank not in (None, 0) and v_rank is not None and w_rank != v_rank:
      raise ValueError("weights must have rank 0 or the rank of the values (%d), got %d"
                       % (v_rank, w_rank))
    values = _math_ops.multiply(values, weights)
  value = _collect(metrics_collections, _array_ops.identity(count))
  update_op = _collect(updates_collections,
                       _state_ops.assign_add(count, _math_ops.reduce_sum(values)))
  return value, update_op


def _bool_pair(labels, predictions, weights):
  predictions, labels, weights = _squeeze_weights(
      _math_ops.cast(predictions, _dtypes.bool), _math_ops.cast(labels, _dtypes.bool), weights)
  return labels, predictions, weights


def _condition_metric(default_name, label_value, prediction_value):
  def metric(labels, predictions, weights=None, metrics_collections=None,
             updates_collections=None, name=None):
    with _vs.variable_scope(name, default_name, (predictions, labels, weights)):
      labels, predictions, weights = _bool_pair(labels, predictions, weights)
      hit = _math_ops.logical_and(_math_ops.equal(labels, label_value),
                                  _math_ops.equal(predictions, prediction_value))
      return _count_condition(hit, weights, metrics_collections, updates_collections)
  metric.__name__ = default_name
  metric.__doc__ = ("The (weighted) count of elements with label %s and prediction %s."
                    % (label_value, prediction_value))
  return metric


true_positives = _condition_metric("true_positives", True, True)
false_positives = _condition_metric("false_positives", False, True)
true_negatives = _condition_metric("true_negatives", False, False)
false_negatives = _condition_metric("false_negatives", True, False)


def _ratio(numerator, other, name):
  """numerator / (numerator + other), 0 when that is 0."""
  total = numerator + other
  return _array_ops.where(_math_ops.greater(total, 0), _math_ops.divide(numerator, total),
                          _array_ops.zeros_like(total), name=name)


def precision(labels, predictions, weights=None, metrics_collections=None,
              updates_collections=None, name=None):
  """true_positives / (true_positives + false_positives)."""
  with _vs.variable_scope(name, "precision", (predictions, labels, weights)):
    labels, predictions, weights = _bool_pair(labels, predictions, weights)
    tp, tp_update = true_positives(labels, predictions, weights)
    fp, fp_update = false_positives(labels, predictions, weights)
    return (_collect(metrics_collections, _ratio(tp, fp, "value")),
            _collect(updates_collections, _ratio(tp_update, fp_update, "update_op")))


def recall(labels, predictions, weights=None, metrics_collections=None,
           updates_collections=None, name=None):
  """true_positives / (true_positives + false_negatives)."""
  with _vs.variable_scope(name, "recall", (predictions, labels, weights)):
    labels, predictions, weights = _bool_pair(labels, predictions, weights)
    tp, tp_update = true_positives(labels, predictions, weights)
    fn, fn_update = false_negatives(labels, predictions, weights)
    return (_collect(metrics_collections, _ratio(tp, fn, "value")),
            _collect(updates_collections, _ratio(tp_update, fn_update, "update_op")))


# -- counts at thresholds ------------------------------------------------------------


def _confusion_at_thresholds(labels, predictions, thresholds, weights=None, includes=None):
  """({'tp', 'fn', 'tn', 'fp'} [num_thresholds] count variables, their update ops):
  a prediction is positive at a threshold when it is greater than it."""
  includes = includes or ("tp", "fn", "tn", "fp")
  from tfc.ops import check_ops  # pylint: disable=g-import-not-at-top
  from tfc.ops import control_flow_ops  # pylint: disable=g-import-not-at-top
  labels = _math_ops.cast(labels, _dtypes.bool)
  predictions = _math_ops.cast(predictions, _f32)
  predictions, labels, weights = _squeeze_weights(predictions, labels, weights)
  in_range = [check_ops.assert_greater_equal(predictions, 0.0,
                                             message="predictions must be in [0, 1]"),
              check_ops.assert_less_equal(predictions, 1.0,
                                          message="predictions must be in [0, 1]")]
  predictions = control_flow_ops.with_dependencies(in_range, predictions)
  n = len(thresholds)
  preds = _array_ops.reshape(predictions, [1, -1])
  count = preds.get_shape()[1].value
  count = count if count is not None else _array_ops.shape(preds)[1]
  thresh = _array_ops.tile(_array_ops.expand_dims(_ops.convert_to_tensor(
      list(thresholds), dtype=_f32), 1), _array_ops.stack([1, count]))
  pred_pos = _math_ops.greater(_array_ops.tile(preds, [n, 1]), thresh)
  label_pos = _array_ops.tile(_array_ops.reshape(labels, [1, -1]), [n, 1])
  if weights is not None:
    w = _array_ops.reshape(_broadcast(weights, predictions), [1, -1])
    w = _array_ops.tile(w, [n, 1])
  values, updates = {}, {}
  names = {"tp": "true_positives", "fn": "false_negatives", "tn": "true_negatives",
           "fp": "false_positives"}
  for key in includes:
    label_is, pred_is = {"tp": (True, True), "fn": (True, False), "tn": (False, False),
                         "fp": (False, True)}[key]
    hit = _math_ops.logical_and(label_pos if label_is else _math_ops.logical_not(label_pos),
                                pred_pos if pred_is else _math_ops.logical_not(pred_pos))
    hit = _math_ops.cast(hit, _f32)
    if weights is not None:
      hit = _math_ops.multiply(hit, w)
    values[key] = metric_variable([n], _f32, name=names[key])
    updates[key] = _state_ops.assign_add(values[key], _math_ops.reduce_sum(hit, 1))
  return values, updates


def _count_at_thresholds(key, default_name):
  def metric(labels, predictions, thresholds, weights=None, metrics_collections=None,
             updates_collections=None, name=None):
    with _vs.variable_scope(name, default_name, (predictions, labels, weights)):
      values, updates = _confusion_at_thresholds(labels, predictions, thresholds, weights,
                                                 includes=(key,))
      return (_collect(metrics_collections, _array_ops.identity(values[key])),
              _collect(updates_collections, updates[key]))
  metric.__name__ = default_name
  metric.__doc__ = "The %s count at each threshold (a [len(thresholds)] vector)." % key
  return metric


true_positives_at_thresholds = _count_at_thresholds("tp", "true_positives")
false_positives_at_thresholds = _count_at_thresholds("fp", "false_positives")
true_negatives_at_thresholds = _count_at_thresholds("tn", "true_negatives")
false_negatives_at_thresholds = _count_at_thresholds("fn", "false_negatives")


def precision_at_thresholds(labels, predictions, thresholds, weights=None,
                            metrics_collections=None, updates_collections=None, name=None):
  """tp / (tp + fp + 1e-7) at each threshold."""
  with _vs.variable_scope(name, "precision_at_thresholds", (predictions, labels, weights)):
    values, updates = _confusion_at_thresholds(labels, predictions, thresholds, weights,
                                               includes=("tp", "fp"))

    def prec(tp, fp, op_name):
      return _math_ops.divide(tp, _EPSILON + tp + fp, name="precision_" + op_name)
    return (_collect(metrics_collections, prec(values["tp"], values["fp"], "value")),
            _collect(updates_collections, prec(updates["tp"], updates["fp"], "update_op")))


def recall_at_thresholds(labels, predictions, thresholds, weights=None,
                         metrics_collections=None, updates_collections=None, name=None):
  """tp / (tp + fn + 1e-7) at each threshold."""
  with _vs.variable_scope(name, "recall_at_thresholds", (predictions, labels, weights)):
    values, updates = _confusion_at_thresholds(labels, predictions, thresholds, weights,
                                               includes=("tp", "fn"))

    def rec(tp, fn, op_name):
      return _math_ops.divide(tp, _EPSILON + tp + fn, name="recall_" + op_name)
    return (_collect(metrics_collections, rec(values["tp"], values["fn"], "value")),
            _collect(updates_collections, rec(updates["tp"], updates["fn"], "update_op")))


def _auc_thresholds(num_thresholds):
  inner = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
  return [0.0 - _EPSILON] + inner + [1.0 + _EPSILON]


def auc(labels, predictions, weights=None, num_thresholds=200, metrics_collections=None,
        updates_collections=None, curve="ROC", name=None, summation_method="trapezoidal",
        thresholds=None):
  """Area under the ROC or precision-recall curve, from the confusion counts at
  num_thresholds evenly spaced thresholds (or the given ones); summation 'trapezoidal',
  'minoring' or 'majoring'. (TF's 'careful_interpolation' for PR curves is not in tfc
  yet.)"""
  if curve not in ("ROC", "PR"):
    raise ValueError("curve must be either ROC or PR, %s unknown" % curve)
  if summation_method not in ("trapezoidal", "minoring", "majoring"):
    if summation_method == "careful_interpolation":
      raise NotImplementedError("auc(summation_method='careful_interpolation') is not "
                                "supported by tfc yet")
    raise ValueError("Invalid summation_method: %s" % summation_method)
  with _vs.variable_scope(name, "auc", (labels, predictions, weights)):
    if thresholds is not None:
      thresholds = [0.0 - _EPSILON] + sorted(thresholds) + [1.0 + _EPSILON]
    else:
      if num_thresholds <= 1:
        raise ValueError("`num_thresholds` must be > 1.")
      thresholds = _auc_thresholds(num_thresholds)
    n = len(thresholds)
    values, updates = _confusion_at_thresholds(labels, predictions, thresholds, weights)

    def area(tp, fn, tn, fp, op_name):
      rec = _math_ops.divide(tp + _EPSILON, tp + fn + _EPSILON)
      if curve == "ROC":
        x, y = _math_ops.divide(fp, fp + tn + _EPSILON), rec
      else:
        x, y = rec, _math_ops.divide(tp + _EPSILON, tp + fp + _EPSILON)
      width = x[:n - 1] - x[1:]
      if summation_method == "trapezoidal":
        height = (y[:n - 1] + y[1:]) / 2.0
      elif summation_method == "minoring":
        height = _math_ops.minimum(y[:n - 1], y[1:])
      else:
        height = _math_ops.maximum(y[:n - 1], y[1:])
      return _math_ops.reduce_sum(_math_ops.multiply(width, height), name=op_name)

    return (_collect(metrics_collections, area(values["tp"], values["fn"], values["tn"],
                                               values["fp"], "value")),
            _collect(updates_collections, area(updates["tp"], updates["fn"], updates["tn"],
                                               updates["fp"], "update_op")))


def _at_other(default_name, pick, measure):
  """sensitivity_at_specificity / specificity_at_sensitivity: `measure` at the threshold
  where the other rate is closest to the target."""
  def metric(labels, predictions, target, weights=None, num_thresholds=200,
             metrics_collections=None, updates_collections=None, name=None):
    if target < 0 or target > 1:
      raise ValueError("`%s` must be in the range [0, 1]." % pick)
    with _vs.variable_scope(name, default_name, (predictions, labels, weights)):
      thresholds = _auc_thresholds(num_thresholds)
      values, updates = _confusion_at_thresholds(labels, predictions, thresholds, weights)

      def compute(counts, op_name):
        tp, fn, tn, fp = counts["tp"], counts["fn"], counts["tn"], counts["fp"]
        if pick == "specificity":
          others = _math_ops.divide(tn, tn + fp + _EPSILON)
        else:
          others = _math_ops.divide(tp, tp + fn + _EPSILON)
        distance = _math_ops.abs(others - target)
        if pick == "specificity":  # the first threshold closest to the target
          index = _math_ops.argmin(distance, 0)
        else:  # the last one (as TF picks it)
          index = (len(thresholds) - 1) - _math_ops.argmin(
              _array_ops.reverse(distance, [0]), 0)
        index = _math_ops.cast(index, _dtypes.int32)
        if measure == "sensitivity":
          return _math_ops.divide(tp[index], tp[index] + fn[index] + _EPSILON, name=op_name)
        return _math_ops.divide(tn[index], tn[index] + fp[index] + _EPSILON, name=op_name)

      return (_collect(metrics_collections, compute(values, "value")),
              _collect(updates_collections, compute(updates, "update_op")))
  return metric


_sensitivity_at_specificity = _at_other("sensitivity_at_specificity", "specificity",
                                        "sensitivity")
_specificity_at_sensitivity = _at_other("specificity_at_sensitivity", "sensitivity",
                                        "specificity")


def sensitivity_at_specificity(labels, predictions, specificity, weights=None,
                               num_thresholds=200, metrics_collections=None,
                               updates_collections=None, name=None):
  """The recall at the threshold whose specificity is closest to `specificity`."""
  return _sensitivity_at_specificity(labels, predictions, specificity, weights, num_thresholds,
                                     metrics_collections, updates_collections, name)


def specificity_at_sensitivity(labels, predictions, sensitivity, weights=None,
                               num_thresholds=200, metrics_collections=None,
                               updates_collections=None, name=None):
  """The specificity at the threshold whose recall is closest to `sensitivity`."""
  return _specificity_at_sensitivity(labels, predictions, sensitivity, weights, num_thresholds,
                                     metrics_collections, updates_collections, name)


# -- class-wise metrics ----------------------------------------------------------------


def _flat(t):
  return _array_ops.reshape(t, [-1]) if (t.get_shape().ndims or 0) > 1 else t


def mean_iou(labels, predictions, num_classes, weights=None, metrics_collections=None,
             updates_collections=None, name=None):
  """The mean over classes (that occur) of intersection / union, from a running
  [num_classes, num_classes] confusion matrix (update_op returns that matrix)."""
  with _vs.variable_scope(name, "mean_iou", (predictions, labels, weights)):
    predictions, labels, weights = _squeeze_weights(predictions, labels, weights)
    predictions.get_shape().assert_is_compatible_with(labels.get_shape())
    total_cm = metric_variable([num_classes, num_classes], _dtypes.float64,
                               name="total_confusion_matrix")
    labels = _flat(_math_ops.cast(labels, _dtypes.int64))
    predictions = _flat(_math_ops.cast(predictions, _dtypes.int64))
    if weights is not None:
      weights = _flat(_math_ops.cast(weights, _dtypes.float64))
    current = _math_ops.confusion_matrix(labels, predictions, num_classes, weights=weights,
                                         dtype=_dtypes.float64)
    update_cm = _state_ops.assign_add(total_cm, current)

    def iou(cm, op_name):
      cm = _math_ops.cast(cm, _f32)
      rows = _math_ops.reduce_sum(cm, 0)
      cols = _math_ops.reduce_sum(cm, 1)
      diagonal = _math_ops.reduce_sum(cm * _array_ops.eye(num_classes), 1)
      union = rows + cols - diagonal
      valid = _math_ops.reduce_sum(_math_ops.cast(_math_ops.not_equal(union, 0), _f32))
      union = _array_ops.where(_math_ops.greater(union, 0), union, _array_ops.ones_like(union))
      ious = _math_ops.divide(diagonal, union)
      return _array_ops.where(_math_ops.greater(valid, 0),
                              _math_ops.divide(_math_ops.reduce_sum(ious), valid),
                              _array_ops.zeros_like(valid), name=op_name)

    return (_collect(metrics_collections, iou(total_cm, "mean_iou")),
            _collect(updates_collections, update_cm))


def mean_per_class_accuracy(labels, predictions, num_classes, weights=None,
                            metrics_collections=None, updates_collections=None, name=None):
  """The mean over classes of the fraction of each class's labels predicted right
  (update_op returns the per-class accuracies)."""
  with _vs.variable_scope(name, "mean_accuracy", (predictions, labels, weights)):
    labels = _flat(_math_ops.cast(labels, _dtypes.int64))
    predictions = _flat(_ops.convert_to_tensor(predictions))
    predictions.get_shape().assert_is_compatible_with(labels.get_shape())
    total = metric_variable([num_classes], _f32, name="total")
    count = metric_variable([num_classes], _f32, name="count")
    ones = _array_ops.ones(_array_ops.reshape(_array_ops.size(labels), [1]), _f32)
    if labels.dtype.base_dtype != predictions.dtype.base_dtype:
      predictions = _math_ops.cast(predictions, labels.dtype.base_dtype)
    is_correct = _math_ops.cast(_math_ops.equal(predictions, labels), _f32)
    if weights is not None:
      weights = _flat(_math_ops.cast(weights, _f32))
      is_correct *= weights
      ones *= weights
    update_total = _state_ops.scatter_add(total, labels, ones)
    update_count = _state_ops.scatter_add(count, labels, is_correct)
    zeros = _array_ops.zeros([num_classes], _f32)
    per_class = _math_ops.div_no_nan(count, _math_ops.maximum(total, zeros))
    value = _collect(metrics_collections,
                     _math_ops.reduce_mean(per_class, name="mean_accuracy"))
    update_op = _collect(updates_collections, _math_ops.div_no_nan(
        update_count, _math_ops.maximum(update_total, zeros), name="update_op"))
    return value, update_op
