"""tf.losses: values (NumPy formulas and TF 1.15-recorded literals), reductions, collection."""
import numpy as np
import pytest

import tfc as tf

L = tf.losses
R = tf.losses.Reduction

_rng = np.random.RandomState(0)
LAB = _rng.rand(4, 3).astype(np.float32)
PRED = _rng.rand(4, 3).astype(np.float32)
W = np.array([[1.], [0.], [2.], [0.5]], np.float32)
W2 = np.array([[1., 0., 2.], [0., 0., 1.], [3., 1., 0.], [1., 1., 1.]], np.float32)
LOGITS = (_rng.randn(4, 3) * 2).astype(np.float32)
ONEHOT = np.eye(3, dtype=np.float32)[[0, 2, 1, 2]]
SPARSE = np.array([0, 2, 1, 2], np.int32)
BIN = (_rng.rand(4, 3) > 0.5).astype(np.float32)

# Recorded from TensorFlow (tf.compat.v1.losses, graph mode) on the inputs above.
_TF = {"sce_ls": 2.974897623062134, "sig_ls": 1.2287153005599976,
       "ssce": 3.018235683441162, "huber": 0.5495681166648865}


def _reduce(losses, weights, reduction):
  w = np.broadcast_to(np.asarray(weights, np.float32), losses.shape)
  wl = losses * w
  if reduction == R.NONE:
    return wl
  s = wl.sum()
  if reduction == R.SUM:
    return s
  if reduction == R.MEAN:
    return s / w.sum() if w.sum() else 0.0
  if reduction == R.SUM_OVER_BATCH_SIZE:
    return s / losses.size
  n = np.count_nonzero(w)
  return s / n if n else 0.0


def _run(t):
  with tf.Session() as s:
    return s.run(t)


def _log_softmax(x):
  m = x.max(-1, keepdims=True)
  return x - m - np.log(np.exp(x - m).sum(-1, keepdims=True))


@pytest.mark.parametrize("reduction", [R.NONE, R.SUM, R.MEAN, R.SUM_OVER_BATCH_SIZE,
                                       R.SUM_BY_NONZERO_WEIGHTS])
@pytest.mark.parametrize("weights", [1.0, 2.5, 0.0, W, W2])
def test_mse_and_absolute_difference(reduction, weights):
  with tf.Graph().as_default():
    mse = L.mean_squared_error(LAB, PRED, weights=weights, reduction=reduction)
    ad = L.absolute_difference(LAB, PRED, weights=weights, reduction=reduction)
    got_mse, got_ad = _run([mse, ad])
  np.testing.assert_allclose(got_mse, _reduce((PRED - LAB) ** 2, weights, reduction), rtol=1e-5)
  np.testing.assert_allclose(got_ad, _reduce(np.abs(PRED - LAB), weights, reduction), rtol=1e-5)


@pytest.mark.parametrize("reduction", [R.NONE, R.SUM, R.SUM_BY_NONZERO_WEIGHTS])
def test_cross_entropies(reduction):
  with tf.Graph().as_default():
    sce = L.softmax_cross_entropy(ONEHOT, LOGITS, weights=W[:, 0], reduction=reduction)
    ssce = L.sparse_softmax_cross_entropy(SPARSE, LOGITS, weights=W, reduction=reduction)
    sig = L.sigmoid_cross_entropy(BIN, LOGITS, weights=W2, reduction=reduction)
    got = _run([sce, ssce, sig])
  xent = -(ONEHOT * _log_softmax(LOGITS)).sum(-1)
  np.testing.assert_allclose(got[0], _reduce(xent, W[:, 0], reduction), rtol=1e-5)
  np.testing.assert_allclose(got[1], _reduce(xent, W[:, 0], reduction), rtol=1e-5)
  x = LOGITS.astype(np.float64)
  sig_l = np.maximum(x, 0) - x * BIN + np.log1p(np.exp(-np.abs(x)))
  np.testing.assert_allclose(got[2], _reduce(sig_l, W2, reduction), rtol=1e-5)


def test_values_recorded_from_tf():
  with tf.Graph().as_default():
    got = _run({"sce_ls": L.softmax_cross_entropy(ONEHOT, LOGITS, label_smoothing=0.1),
                "sig_ls": L.sigmoid_cross_entropy(BIN, LOGITS, label_smoothing=0.2),
                "ssce": L.sparse_softmax_cross_entropy(SPARSE, LOGITS),
                "huber": L.huber_loss(LAB, PRED * 3, delta=0.5)})
  for k, v in _TF.items():
    np.testing.assert_allclose(got[k], v, rtol=1e-6, err_msg=k)


def test_names_and_collection():
  with tf.Graph().as_default():
    a = L.mean_squared_error(LAB, PRED)
    b = L.softmax_cross_entropy(ONEHOT, LOGITS)
    c = L.mean_squared_error(LAB, PRED, loss_collection=None)
    d = L.absolute_difference(LAB, PRED, scope="mine")
    assert a.name == "mean_squared_error/value:0"
    assert b.name == "softmax_cross_entropy_loss/value:0"
    assert d.name == "mine/value:0"
    assert L.get_losses() == [a, b, d]
    assert tf.get_collection(tf.GraphKeys.LOSSES) == [a, b, d]
    assert L.get_losses(scope="mine") == [d]
    extra = tf.constant(1.5)
    L.add_loss(extra)
    total = L.get_total_loss()
    assert total.name == "total_loss:0"
    va, vb, vd, vt = _run([a, b, d, total])
    np.testing.assert_allclose(vt, va + vb + vd + 1.5, rtol=1e-6)
    assert c not in L.get_losses()


def test_errors():
  with tf.Graph().as_default():
    with pytest.raises(ValueError, match="labels must not be None"):
      L.mean_squared_error(None, PRED)
    with pytest.raises(ValueError, match="Invalid Reduction Key"):
      L.mean_squared_error(LAB, PRED, reduction="bogus")
    with pytest.raises(ValueError):
      L.mean_squared_error(LAB, PRED[:, :2])
    with pytest.raises(ValueError, match="weights can not be broadcast"):
      L.mean_squared_error(LAB, PRED, weights=np.ones([4, 2], np.float32))
