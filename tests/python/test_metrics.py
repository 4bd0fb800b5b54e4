"""tf.metrics: streaming (value, update_op) pairs over local variables with TF 1.15's names;
values after several batches against NumPy on all the data seen (TensorFlow gives the
same values), weights, collections, resetting, errors."""
import numpy as np
import pytest

import tfc as tf

RNG = np.random.RandomState(17)
BATCHES = 3


def stream(build, batches):
  """Builds (value, update_op) pairs from placeholders, feeds each batch to the update ops,
  returns (last update results, final values, local variable names)."""
  with tf.Graph().as_default():
    holders = [tf.placeholder(tf.as_dtype(a.dtype), a.shape) for a in batches[0]]
    metrics = build(*holders)
    with tf.Session() as sess:
      sess.run(tf.local_variables_initializer())
      for batch in batches:
        updates = sess.run([m[1] for m in metrics], dict(zip(holders, batch)))
      values = sess.run([m[0] for m in metrics])
      names = sorted(v.op.name for v in tf.local_variables())
  return updates, values, names


def test_accuracy_mean_and_errors():
  batches = []
  for _ in range(BATCHES):
    labels = RNG.randint(0, 3, 8)
    preds = np.where(RNG.rand(8) < 0.6, labels, RNG.randint(0, 3, 8))
    batches.append((labels, preds, RNG.rand(8).astype(np.float32),
                    RNG.randn(8).astype(np.float32)))

  def build(labels, preds, weights, x):
    return [tf.metrics.accuracy(labels, preds), tf.metrics.accuracy(labels, preds, weights),
            tf.metrics.mean(x), tf.metrics.mean(x, weights=weights),
            tf.metrics.mean_absolute_error(x, weights), tf.metrics.mean_squared_error(x, weights),
            tf.metrics.root_mean_squared_error(x, weights), tf.metrics.percentage_below(x, 0.0),
            tf.metrics.mean_relative_error(x, weights, normalizer=x)]

  updates, values, names = stream(build, batches)
  labels, preds, weights, x = (np.concatenate(c) for c in zip(*batches))
  correct = (labels == preds).astype(np.float64)
  want = [correct.mean(), np.average(correct, weights=weights), x.mean(),
          np.average(x, weights=weights), np.abs(weights - x).mean(),
          ((weights - x) ** 2).mean(), np.sqrt(((weights - x) ** 2).mean()), (x < 0).mean(),
          np.mean(np.abs(x - weights) / x)]
  np.testing.assert_allclose(values, want, rtol=1e-5)
  np.testing.assert_allclose(updates, want, rtol=1e-5)  # update_op returns the value with it
  assert names == ["accuracy/count", "accuracy/total", "accuracy_1/count", "accuracy_1/total",
                   "mean/count", "mean/total", "mean_1/count", "mean_1/total",
                   "mean_absolute_error/count", "mean_absolute_error/total",
                   "mean_relative_error/count", "mean_relative_error/total",
                   "mean_squared_error/count", "mean_squared_error/total",
                   "percentage_below_threshold/count", "percentage_below_threshold/total",
                   "root_mean_squared_error/count", "root_mean_squared_error/total"]


def test_counts_precision_recall_and_thresholds():
  batches = []
  for _ in range(BATCHES):
    labels = RNG.rand(10) > 0.5
    scores = np.clip(labels * 0.3 + RNG.rand(10) * 0.7, 0, 1).astype(np.float32)
    batches.append((labels, scores, RNG.rand(10).astype(np.float32)))
  thresholds = [0.2, 0.5, 0.8]

  def build(labels, scores, weights):
    predicted = scores > 0.5
    return [tf.metrics.true_positives(labels, predicted),
            tf.metrics.false_positives(labels, predicted, weights=weights),
            tf.metrics.true_negatives(labels, predicted),
            tf.metrics.false_negatives(labels, predicted),
            tf.metrics.precision(labels, predicted), tf.metrics.recall(labels, predicted),
            tf.metrics.true_positives_at_thresholds(labels, scores, thresholds),
            tf.metrics.precision_at_thresholds(labels, scores, thresholds),
            tf.metrics.recall_at_thresholds(labels, scores, thresholds)]

  updates, values, _ = stream(build, batches)
  labels, scores, weights = (np.concatenate(c) for c in zip(*batches))
  pred = scores > 0.5
  tp, fp = np.sum(labels & pred), np.sum(weights * (~labels & pred))
  tn, fn = np.sum(~labels & ~pred), np.sum(labels & ~pred)
  at = np.array([[np.sum(labels & (scores > t)), np.sum(~labels & (scores > t)),
                  np.sum(labels & (scores <= t))] for t in thresholds], np.float64)
  want = [tp, fp, tn, fn, tp / (tp + np.sum(~labels & pred)), tp / (tp + fn), at[:, 0],
          at[:, 0] / (at[:, 0] + at[:, 1] + 1e-7), at[:, 0] / (at[:, 0] + at[:, 2] + 1e-7)]
  for got, expected in zip(values, want):
    np.testing.assert_allclose(got, expected, rtol=1e-5)
  for got, expected in zip(updates, want):
    np.testing.assert_allclose(got, expected, rtol=1e-5)


def roc_auc_ref(labels, scores, num_thresholds=200):
  eps = 1e-7
  thresholds = [-eps] + [(i + 1) / (num_thresholds - 1) for i in range(num_thresholds - 2)] + \
      [1 + eps]
  tp = np.array([np.sum(labels & (scores > t)) for t in thresholds], np.float64)
  fn = np.array([np.sum(labels & (scores <= t)) for t in thresholds], np.float64)
  fp = np.array([np.sum(~labels & (scores > t)) for t in thresholds], np.float64)
  tn = np.array([np.sum(~labels & (scores <= t)) for t in thresholds], np.float64)
  rec = (tp + eps) / (tp + fn + eps)
  fpr = fp / (fp + tn + eps)
  return np.sum((fpr[:-1] - fpr[1:]) * (rec[:-1] + rec[1:]) / 2)


def test_auc_and_rates_at_thresholds():
  batches = []
  for _ in range(BATCHES):
    labels = RNG.rand(20) > 0.5
    batches.append((labels, np.clip(labels * 0.4 + RNG.rand(20) * 0.6, 0, 1).astype(np.float32)))

  def build(labels, scores):
    return [tf.metrics.auc(labels, scores), tf.metrics.auc(labels, scores, curve="PR"),
            tf.metrics.sensitivity_at_specificity(labels, scores, 0.7),
            tf.metrics.specificity_at_sensitivity(labels, scores, 0.5)]

  _, values, names = stream(build, batches)
  labels, scores = (np.concatenate(c) for c in zip(*batches))
  np.testing.assert_allclose(values[0], roc_auc_ref(labels, scores), rtol=1e-4)
  assert 0.5 < values[1] <= 1.0 and 0 <= values[2] <= 1 and 0 <= values[3] <= 1
  assert "auc/true_positives" in names and "auc/false_negatives" in names
  with tf.Graph().as_default():
    with pytest.raises(ValueError, match="curve must be either ROC or PR"):
      tf.metrics.auc([True], [0.5], curve="XY")
    with pytest.raises(NotImplementedError, match="careful_interpolation"):
      tf.metrics.auc([True], [0.5], summation_method="careful_interpolation")
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"predictions must be in \[0, 1\]"):
      tf.metrics.auc(tf.constant([True]), tf.constant([1.5]))  # decided while building
    scores = tf.placeholder(tf.float32, [1])
    fed = tf.metrics.auc(tf.constant([True]), scores)
    with tf.Session() as sess:
      sess.run(tf.local_variables_initializer())
      with pytest.raises(tf.errors.InvalidArgumentError, match=r"predictions must be in \[0, 1\]"):
        sess.run(fed[1], {scores: [1.5]})


def test_class_metrics_and_mean_tensor():
  batches = []
  for _ in range(BATCHES):
    labels = RNG.randint(0, 4, 12)
    batches.append((labels, np.where(RNG.rand(12) < 0.5, labels, RNG.randint(0, 4, 12)),
                    RNG.randn(2, 3).astype(np.float32)))

  def build(labels, preds, x):
    return [tf.metrics.mean_iou(labels, preds, 4), tf.metrics.mean_per_class_accuracy(labels,
                                                                                       preds, 4),
            tf.metrics.mean_tensor(x)]

  updates, values, names = stream(build, batches)
  labels, preds, _ = (np.concatenate(c) for c in zip(*batches))
  cm = np.zeros((4, 4))
  np.add.at(cm, (labels, preds), 1)
  inter = np.diag(cm)
  union = cm.sum(0) + cm.sum(1) - inter
  np.testing.assert_allclose(values[0], np.mean(inter[union > 0] / union[union > 0]), rtol=1e-5)
  np.testing.assert_array_equal(updates[0], cm)
  per_class = inter / cm.sum(1)
  np.testing.assert_allclose(values[1], per_class.mean(), rtol=1e-5)
  np.testing.assert_allclose(updates[1], per_class, rtol=1e-5)
  np.testing.assert_allclose(values[2], np.mean([b[2] for b in batches], axis=0), rtol=1e-5)
  assert "mean_iou/total_confusion_matrix" in names
  assert "mean_accuracy/total" in names and "mean/total_tensor" in names


def test_collections_reset_and_names():
  with tf.Graph().as_default():
    labels = tf.constant([1, 0, 1])
    value, update = tf.metrics.accuracy(labels, tf.constant([1, 1, 1]), name="acc",
                                        metrics_collections=["m"], updates_collections=["u"])
    assert tf.get_collection("m") == [value] and tf.get_collection("u") == [update]
    assert tf.get_collection(tf.GraphKeys.METRIC_VARIABLES) == tf.local_variables()
    assert tf.trainable_variables() == [] and tf.global_variables() == []
    prec = tf.metrics.precision(labels, tf.constant([1, 1, 1]))[1]
    assert sorted(v.op.name for v in tf.local_variables())[-2:] == [
        "precision/false_positives/count", "precision/true_positives/count"]
    with tf.Session() as sess:
      sess.run(tf.local_variables_initializer())
      sess.run([update, update])
      np.testing.assert_allclose(sess.run(value), 2 / 3)
      np.testing.assert_allclose(sess.run(prec), 2 / 3)
      sess.run(tf.local_variables_initializer())
      assert sess.run(value) == 0.0
