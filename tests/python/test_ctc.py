"""tf.nn.ctc_loss (v1 and v2 signatures), ctc_greedy_decoder,
collapse_repeated and ctc_unique_labels: the loss against a brute-force sum
over all alignments, gradients by finite differences, the decoder against
NumPy, error classes. (TensorFlow's own outputs: tests/fixtures/ops via
test_compat_ops.py.)"""
import itertools

import numpy as np
import pytest

import tfc as tf


def _run(t, feed=None):
  with tf.Session() as sess:
    return sess.run(t, feed)


def _brute_loss(logits, label, blank):
  """-log of the summed probability of every alignment collapsing to label."""
  p = np.exp(logits - logits.max(axis=1, keepdims=True))
  p /= p.sum(axis=1, keepdims=True)
  total = 0.0
  for path in itertools.product(range(logits.shape[1]), repeat=logits.shape[0]):
    out, prev = [], None
    for c in path:
      if c != prev and c != blank:
        out.append(c)
      prev = c
    if out == list(label):
      total += np.prod([p[t, c] for t, c in enumerate(path)])
  return -np.log(total)


def _labels(seqs):
  idx = [[b, i] for b, s in enumerate(seqs) for i in range(len(s))]
  vals = [v for s in seqs for v in s]
  return tf.SparseTensor(np.array(idx, np.int64), np.array(vals, np.int32),
                         np.array([len(seqs), max(len(s) for s in seqs)], np.int64))


def test_ctc_loss_matches_brute_force_and_gradient():
  rng = np.random.RandomState(0)
  x = rng.randn(5, 2, 3)
  seqs = [[1, 1], [0]]
  with tf.Graph().as_default():
    xt = tf.constant(x)
    loss = tf.nn.ctc_loss(_labels(seqs), xt, [5, 4])
    bm = tf.nn.ctc_loss(_labels(seqs), tf.transpose(xt, [1, 0, 2]), [5, 4], time_major=False)
    err = tf.test.compute_gradient_error(xt, x.shape, loss, [2], x_init_value=x)
    r, r_bm = _run([loss, bm])
  want = [_brute_loss(x[:5, 0], [1, 1], 2), _brute_loss(x[:4, 1], [0], 2)]
  np.testing.assert_allclose(r, want, rtol=1e-5)
  np.testing.assert_allclose(r_bm, r)
  assert err < 1e-4


def test_ctc_loss_v2_dense_and_sparse_agree():
  rng = np.random.RandomState(1)
  x = rng.randn(6, 3, 5).astype(np.float32)
  dense = np.array([[2, 4, 0], [1, 0, 0], [3, 3, 2]], np.int32)
  lens = [2, 1, 3]
  with tf.Graph().as_default():
    a = tf.nn.ctc_loss_v2(dense, x, lens, [6, 5, 6])  # blank 0
    # the same with the blank moved last by hand: classes c -> c - 1
    moved = np.concatenate([x[:, :, 1:], x[:, :, :1]], axis=2)
    b = tf.nn.ctc_loss(_labels([[1, 3], [0], [2, 2, 1]]), moved, [6, 5, 6])
    c = tf.nn.ctc_loss_v2(_labels([[2, 4], [1], [3, 3, 2]]), x, None, [6, 5, 6], blank_index=0)
    r_a, r_b, r_c = _run([a, b, c])
  np.testing.assert_allclose(r_a, r_b, rtol=1e-6)
  np.testing.assert_allclose(r_c, r_b, rtol=1e-6)


def test_ctc_loss_errors():
  x = np.zeros((3, 1, 4), np.float32)
  with tf.Graph().as_default():
    too_long = tf.nn.ctc_loss(_labels([[0, 1, 2, 0]]), x, [3])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Not enough time"):
      _run(too_long)
    ignored = tf.nn.ctc_loss(_labels([[0, 1, 2, 0]]), x, [3],
                             ignore_longer_outputs_than_inputs=True)
    assert _run(ignored).tolist() == [0.0]
    with pytest.raises(TypeError):
      tf.nn.ctc_loss(np.zeros((1, 2), np.int32), x, [3])


def test_greedy_decoder():
  rng = np.random.RandomState(2)
  x = rng.randn(8, 2, 4).astype(np.float32)
  with tf.Graph().as_default():
    (dec,), lp = tf.nn.ctc_greedy_decoder(x, [8, 6])
    (raw,), _ = tf.nn.ctc_greedy_decoder(x, [8, 6], merge_repeated=False)
    r_dec, r_lp, r_raw = _run([dec, lp, raw])
  for b, n in ((0, 8), (1, 6)):
    best = x[:n, b].argmax(axis=1)
    merged = [c for t, c in enumerate(best) if c != 3 and (t == 0 or c != best[t - 1])]
    plain = [c for c in best if c != 3]
    assert r_dec.values[r_dec.indices[:, 0] == b].tolist() == merged
    assert r_raw.values[r_raw.indices[:, 0] == b].tolist() == plain
    np.testing.assert_allclose(r_lp[b, 0], -x[:n, b].max(axis=1).sum(), rtol=1e-6)


def test_collapse_repeated_and_unique_labels():
  with tf.Graph().as_default():
    labels, lens = tf.nn.collapse_repeated(tf.constant([[1, 1, 2, 2, 3], [4, 4, 4, 0, 0]]),
                                           [5, 3])
    y, idx = tf.nn.ctc_unique_labels(tf.constant([[3, 4, 4, 3], [1, 1, 1, 1]]))
    r = _run([labels, lens, y, idx])
  assert r[0].tolist() == [[1, 2, 3], [4, 0, 0]] and r[1].tolist() == [3, 1]
  assert r[2].tolist() == [[3, 4, 0, 0], [1, 0, 0, 0]]
  assert r[3].tolist() == [[0, 1, 1, 0], [0, 0, 0, 0]]


def _prefix_log_probs(logits, blank):
  """Exact log probability of every collapsed label sequence (all alignments)."""
  p = np.exp(logits - logits.max(axis=1, keepdims=True))
  p /= p.sum(axis=1, keepdims=True)
  out = {}
  for path in itertools.product(range(logits.shape[1]), repeat=logits.shape[0]):
    seq, prev = [], None
    for c in path:
      if c != prev and c != blank:
        seq.append(c)
      prev = c
    out[tuple(seq)] = out.get(tuple(seq), 0.0) + np.prod([p[t, c] for t, c in enumerate(path)])
  return {k: np.log(v) for k, v in out.items()}


def test_beam_search_with_a_wide_beam_is_exact():
  rng = np.random.RandomState(3)
  x = rng.randn(4, 1, 3) * 2
  with tf.Graph().as_default():
    decoded, lp = tf.nn.ctc_beam_search_decoder(x, [4], beam_width=30, top_paths=3)
    (dec_v2,), _ = tf.nn.ctc_beam_search_decoder_v2(x, [4], beam_width=30)
    r = _run([decoded, lp, dec_v2])
  exact = sorted(_prefix_log_probs(x[:, 0], 2).items(), key=lambda kv: -kv[1])[:3]
  for i, (seq, logp) in enumerate(exact):
    assert tuple(r[0][i].values.tolist()) == seq
    np.testing.assert_allclose(r[1][0, i], logp, rtol=1e-5)
  assert r[2].dense_shape[0] == 1
  with tf.Graph().as_default():
    with pytest.raises(tf.errors.InvalidArgumentError):
      _run(tf.nn.ctc_beam_search_decoder(x, [4], beam_width=2, top_paths=3)[1])
