"""tf.distributions: densities, CDFs and statistics against closed forms computed with
NumPy and Python's math module (erfc, lgamma), sample moments, KL divergences, shapes
and argument errors."""
import math

import numpy as np
import pytest

import tfc as tf

tfd = tf.distributions


@pytest.fixture(autouse=True)
def _fresh_graph():
  """Each test builds in a graph of its own."""
  with tf.Graph().as_default():
    yield


def _run(*tensors):
  with tf.Session() as sess:
    return sess.run(list(tensors))


def test_normal():
  loc, scale = np.array([0.0, 1.5]), np.array([1.0, 0.5])
  d = tfd.Normal(loc=loc, scale=scale)
  assert d.dtype == tf.float64 and d.batch_shape.as_list() == [2]
  assert d.event_shape.as_list() == [] and d.reparameterization_type == tfd.FULLY_REPARAMETERIZED
  x = np.array([0.3, -6.0])
  lp, p, c, lc, sf, e, m, sd, v = _run(d.log_prob(x), d.prob(x), d.cdf(x), d.log_cdf(x),
                                       d.survival_function(x), d.entropy(), d.mean(),
                                       d.stddev(), d.variance())
  z = (x - loc) / scale
  want_lp = -0.5 * z * z - np.log(scale) - 0.5 * np.log(2 * np.pi)
  np.testing.assert_allclose(lp, want_lp, rtol=1e-12)
  np.testing.assert_allclose(p, np.exp(want_lp), rtol=1e-12)
  want_cdf = np.array([0.5 * math.erfc(-zi / math.sqrt(2)) for zi in z])
  np.testing.assert_allclose(c, want_cdf, rtol=2e-7)
  np.testing.assert_allclose(lc, np.log(want_cdf), rtol=2e-7)  # left tail: log(3e-51)
  np.testing.assert_allclose(sf, 1 - want_cdf, rtol=2e-7)
  np.testing.assert_allclose(e, 0.5 * np.log(2 * np.pi * np.e * scale ** 2), rtol=1e-12)
  np.testing.assert_allclose(m, loc)
  np.testing.assert_allclose(sd, scale)
  np.testing.assert_allclose(v, scale ** 2)


def test_normal_samples_and_shapes():
  d = tfd.Normal(loc=[1.0, -2.0], scale=[0.5, 3.0])
  s = d.sample([4000, 2], seed=5)
  assert s.shape.as_list() == [4000, 2, 2] and s.dtype == tf.float32
  sv, = _run(s)
  flat = sv.reshape(-1, 2)
  np.testing.assert_allclose(flat.mean(0), [1.0, -2.0], atol=0.1)
  np.testing.assert_allclose(flat.std(0), [0.5, 3.0], rtol=0.05)
  # samples are differentiable in the parameters (reparameterized)
  loc = tf.Variable(0.0)
  g = tf.gradients(tf.reduce_sum(tfd.Normal(loc, 1.0).sample(10, seed=1)), loc)[0]
  with tf.Session() as sess:
    sess.run(loc.initializer)
    assert sess.run(g) == 10.0


def test_bernoulli():
  d = tfd.Bernoulli(probs=[0.2, 0.7])
  x = [1, 0]
  lp, p, e, m, v, mode, cdf = _run(d.log_prob(x), d.prob(x), d.entropy(), d.mean(),
                                   d.variance(), d.mode(), d.cdf([0, 1]))
  np.testing.assert_allclose(lp, np.log([0.2, 0.3]), rtol=1e-6)
  np.testing.assert_allclose(p, [0.2, 0.3], rtol=1e-6)
  pr = np.array([0.2, 0.7])
  np.testing.assert_allclose(e, -(pr * np.log(pr) + (1 - pr) * np.log(1 - pr)), rtol=1e-5)
  np.testing.assert_allclose(m, pr, rtol=1e-6)
  np.testing.assert_allclose(v, pr * (1 - pr), rtol=1e-6)
  np.testing.assert_array_equal(mode, [0, 1])
  np.testing.assert_allclose(cdf, [0.8, 1.0], rtol=1e-6)
  dl = tfd.Bernoulli(logits=[0.0, 2.0])
  s = dl.sample(20000, seed=3)
  sv, probs = _run(s, dl.probs)
  assert sv.dtype == np.int32 and set(np.unique(sv)) <= {0, 1}
  np.testing.assert_allclose(sv.mean(0), probs, atol=0.02)
  with pytest.raises(ValueError, match="probs or logits"):
    tfd.Bernoulli(logits=[0.0], probs=[0.5])


def test_categorical():
  logits = np.array([[1.0, 2.0, 3.0], [0.5, 0.5, -1.0]], np.float32)
  d = tfd.Categorical(logits=logits)
  assert d.batch_shape.as_list() == [2] and d.event_shape.as_list() == []
  log_sm = logits - np.log(np.exp(logits).sum(-1, keepdims=True))
  lp, lp_b, e, mode, k = _run(d.log_prob([2, 0]), d.log_prob(1), d.entropy(), d.mode(),
                              d.event_size)
  np.testing.assert_allclose(lp, [log_sm[0, 2], log_sm[1, 0]], rtol=1e-6)
  np.testing.assert_allclose(lp_b, log_sm[:, 1], rtol=1e-6)
  np.testing.assert_allclose(e, -(np.exp(log_sm) * log_sm).sum(-1), rtol=1e-6)
  np.testing.assert_array_equal(mode, [2, 0])
  assert k == 3
  sv, = _run(d.sample(30000, seed=7))
  assert sv.shape == (30000, 2)
  freq = np.stack([np.bincount(sv[:, i], minlength=3) / 30000.0 for i in range(2)])
  np.testing.assert_allclose(freq, np.exp(log_sm), atol=0.02)
  dp = tfd.Categorical(probs=[0.25, 0.75])
  assert abs(_run(dp.prob(1))[0] - 0.75) < 1e-6


def test_uniform_exponential_laplace():
  u = tfd.Uniform(low=[0.0, -1.0], high=[2.0, 3.0])
  p, c, e, m, v = _run(u.prob([1.0, 5.0]), u.cdf([1.0, 5.0]), u.entropy(), u.mean(),
                       u.variance())
  np.testing.assert_allclose(p, [0.5, 0.0])
  np.testing.assert_allclose(c, [0.5, 1.0])
  np.testing.assert_allclose(e, np.log([2.0, 4.0]), rtol=1e-6)
  np.testing.assert_allclose(m, [1.0, 1.0])
  np.testing.assert_allclose(v, [4 / 12.0, 16 / 12.0], rtol=1e-6)
  ex = tfd.Exponential(rate=[0.5, 2.0])
  lp, c, m, v, e = _run(ex.log_prob([1.0, 1.0]), ex.cdf([1.0, 1.0]), ex.mean(), ex.variance(),
                        ex.entropy())
  rate = np.array([0.5, 2.0])
  np.testing.assert_allclose(lp, np.log(rate) - rate, rtol=1e-6)
  np.testing.assert_allclose(c, 1 - np.exp(-rate), rtol=1e-6)
  np.testing.assert_allclose(m, 1 / rate, rtol=1e-6)
  np.testing.assert_allclose(v, 1 / rate ** 2, rtol=1e-6)
  np.testing.assert_allclose(e, 1 - np.log(rate), rtol=1e-6)
  sv, = _run(ex.sample(40000, seed=2))
  np.testing.assert_allclose(sv.mean(0), 1 / rate, rtol=0.05)
  la = tfd.Laplace(loc=1.0, scale=2.0)
  lp, c, sd, e = _run(la.log_prob(2.0), la.cdf([0.0, 3.0]), la.stddev(), la.entropy())
  np.testing.assert_allclose(lp, -np.log(4.0) - 0.5, rtol=1e-6)
  np.testing.assert_allclose(c, [0.5 * np.exp(-0.5), 1 - 0.5 * np.exp(-1.0)], rtol=1e-6)
  np.testing.assert_allclose(sd, 2 * np.sqrt(2), rtol=1e-6)
  np.testing.assert_allclose(e, np.log(4.0) + 1, rtol=1e-6)
  sv, = _run(la.sample(40000, seed=4))
  assert abs(np.median(sv) - 1.0) < 0.05 and abs(sv.std() - 2 * np.sqrt(2)) < 0.1


def test_multinomial():
  d = tfd.Multinomial(total_count=5.0, probs=[0.2, 0.3, 0.5])
  assert d.event_shape.as_list() == [3]
  counts = np.array([1.0, 2.0, 2.0])
  lp, m, v = _run(d.log_prob(counts), d.mean(), d.variance())
  want = (math.lgamma(6) - sum(math.lgamma(c + 1) for c in counts)
          + float(np.sum(counts * np.log([0.2, 0.3, 0.5]))))
  np.testing.assert_allclose(lp, want, rtol=1e-5)
  np.testing.assert_allclose(m, [1.0, 1.5, 2.5], rtol=1e-6)
  np.testing.assert_allclose(v, 5 * np.array([0.2, 0.3, 0.5]) * [0.8, 0.7, 0.5], rtol=1e-6)
  sv, = _run(d.sample(5000, seed=9))
  assert sv.shape == (5000, 3)
  np.testing.assert_array_equal(sv.sum(-1), 5.0)
  np.testing.assert_allclose(sv.mean(0), [1.0, 1.5, 2.5], atol=0.08)


def test_kl_divergences():
  a, b = tfd.Normal(0.0, 1.0), tfd.Normal(1.0, 2.0)
  kl, ce = _run(tfd.kl_divergence(a, b), a.cross_entropy(b))
  want = np.log(2.0) + (1 + 1) / (2 * 4.0) - 0.5
  np.testing.assert_allclose(kl, want, rtol=1e-6)
  np.testing.assert_allclose(ce, 0.5 * np.log(2 * np.pi * np.e) + want, rtol=1e-6)
  pa, pb = np.array([0.2, 0.8]), np.array([0.5, 0.5])
  kl_c, kl_b = _run(tfd.kl_divergence(tfd.Categorical(probs=pa), tfd.Categorical(probs=pb)),
                    tfd.Bernoulli(probs=0.2).kl_divergence(tfd.Bernoulli(probs=0.5)))
  np.testing.assert_allclose(kl_c, np.sum(pa * np.log(pa / pb)), rtol=1e-5)
  np.testing.assert_allclose(kl_b, np.sum(pa * np.log(pa / pb)), rtol=1e-5)
  with pytest.raises(NotImplementedError, match="No KL"):
    tfd.kl_divergence(a, tfd.Uniform())

  class MyNormal(tfd.Normal):
    pass
  assert abs(_run(tfd.kl_divergence(MyNormal(0.0, 1.0), b))[0] - want) < 1e-6

  @tfd.RegisterKL(MyNormal, tfd.Uniform)
  def _kl(x, y, name=None):
    return tf.constant(7.0)
  assert _run(tfd.kl_divergence(MyNormal(0.0, 1.0), tfd.Uniform()))[0] == 7.0
  with pytest.raises(ValueError, match="already been registered"):
    tfd.RegisterKL(MyNormal, tfd.Uniform)(_kl)
  nan_kl = tfd.kl_divergence(tfd.Normal(np.nan, 1.0), tfd.Normal(0.0, 1.0),
                             allow_nan_stats=False)
  with pytest.raises(tf.errors.InvalidArgumentError):
    _run(nan_kl)


def test_validate_args_and_base_class():
  scale = tf.placeholder(tf.float32, [])
  d = tfd.Normal(0.0, scale, validate_args=True)
  lp = d.log_prob(0.0)
  with tf.Session() as sess:
    assert abs(sess.run(lp, {scale: 1.0}) + 0.5 * np.log(2 * np.pi)) < 1e-6
    with pytest.raises(tf.errors.InvalidArgumentError):
      sess.run(lp, {scale: -1.0})
  with pytest.raises(tf.errors.InvalidArgumentError):  # a constant fails at once, as in TF
    tfd.Normal(0.0, -1.0, validate_args=True)
  d = tfd.Normal(0.0, -1.0)
  assert isinstance(d, tfd.Distribution)
  assert d.parameters["scale"] == -1.0 and d.copy(scale=2.0).parameters["scale"] == 2.0
  with pytest.raises(NotImplementedError):
    tfd.Normal(0.0, 1.0).quantile(0.5)
  assert "Normal" in repr(tfd.Normal(0.0, 1.0))
