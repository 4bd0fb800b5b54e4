"""Seeded random functions against TensorFlow's values (tests/fixtures/random,
written by tools/make_random_fixtures.py): the stateless ops, plus their
argument checks and errors, and statistical checks against NumPy."""
import json
import os

import numpy as np
import pytest

import tfc as tf

HERE = os.path.dirname(os.path.abspath(__file__))
FIX = os.path.join(HERE, "..", "fixtures", "random")
with open(os.path.join(FIX, "cases.json")) as _f:
  CASES = json.load(_f)
VALUES = np.load(os.path.join(FIX, "values.npz"))


def _run(*tensors):
  with tf.Session() as sess:
    return sess.run(list(tensors))


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_tensorflow(name):
  """The same expression in tfc gives TF's values, dtypes and shapes."""
  spec = CASES[name]
  with tf.Graph().as_default():
    out = eval(spec["expr"], {"tf": tf, "np": np, "FIX": FIX})  # pylint: disable=eval-used
    outs = list(out) if isinstance(out, (tuple, list)) else [out]
    got = []
    with tf.Session() as sess:
      for _ in range(spec["steps"]):
        got += sess.run(outs)
  for i, g in enumerate(got):
    want = VALUES["%s.%d" % (name, i)]
    g = np.asarray(g)
    assert g.dtype == want.dtype and g.shape == want.shape, (i, g.dtype, want.dtype, g.shape)
    if want.dtype.kind == "f":
      np.testing.assert_allclose(g, want, rtol=spec["rtol"], atol=1e-30)
    else:
      np.testing.assert_array_equal(g, want)


def test_stateless_is_deterministic_and_seed_dependent():
  with tf.Graph().as_default():
    a = tf.random.stateless_uniform([100], seed=[1, 2])
    b = tf.random.stateless_uniform([100], seed=[1, 2])
    c = tf.random.stateless_uniform([100], seed=[1, 3])
    with tf.Session() as sess:
      a1, b1, c1 = sess.run([a, b, c])
      a2 = sess.run(a)
  np.testing.assert_array_equal(a1, b1)
  np.testing.assert_array_equal(a1, a2)
  assert not np.array_equal(a1, c1)


def test_stateless_statistics():
  with tf.Graph().as_default():
    n = tf.random.stateless_normal([20000], seed=[9, 9], mean=2.0, stddev=3.0)
    t = tf.random.stateless_truncated_normal([20000], seed=[9, 9])
    u = tf.random.stateless_uniform([20000], seed=[9, 9], minval=-1.0, maxval=3.0)
    nv, tv, uv = _run(n, t, u)
  assert abs(nv.mean() - 2.0) < 0.1 and abs(nv.std() - 3.0) < 0.1
  assert np.all(np.abs(tv) < 2.0) and abs(tv.std() - 0.88) < 0.03
  assert uv.min() >= -1.0 and uv.max() < 3.0 and abs(uv.mean() - 1.0) < 0.05


def test_stateless_names_and_static_shapes():
  with tf.Graph().as_default():
    u = tf.random.stateless_uniform([3, 4], seed=[1, 2], name="u")
    n = tf.random.stateless_normal([2], seed=[1, 2])
    m = tf.random.stateless_categorical([[0.0, 1.0]], 5, seed=[1, 2])
    assert u.op.name == "u" and n.op.name == "stateless_random_normal"
    assert u.shape.as_list() == [3, 4] and m.shape.as_list() == [1, 5]
    assert m.dtype == tf.int64
    assert tf.get_default_graph().get_operation_by_name("u/StatelessRandomUniform")


def test_stateless_argument_errors():
  with tf.Graph().as_default():
    with pytest.raises(ValueError):
      tf.random.stateless_uniform([2], seed=[1, 2], minval=0, maxval=None, dtype=tf.int32)
    with pytest.raises(ValueError):
      tf.random.stateless_uniform([2], seed=[1, 2], dtype=tf.string)
    with pytest.raises(ValueError):
      tf.random.stateless_uniform([2], seed=[1, 2], alg="threefry")
    with pytest.raises(ValueError):  # the seed must be a [2] vector (shape function)
      tf.random.stateless_uniform([2], seed=[1, 2, 3])


def test_stateless_run_time_errors():
  with tf.Graph().as_default():
    seed = tf.placeholder(tf.int64)
    lo = tf.placeholder(tf.int32, [])
    u = tf.random.stateless_uniform([3], seed=seed)
    i = tf.random.stateless_uniform([3], seed=[1, 2], minval=lo, maxval=4, dtype=tf.int32)
    with tf.Session() as sess:
      with pytest.raises(tf.errors.InvalidArgumentError, match="seed must have shape"):
        sess.run(u, {seed: [1, 2, 3]})
      with pytest.raises(tf.errors.InvalidArgumentError, match="Need minval < maxval"):
        sess.run(i, {lo: 4})


def test_gamma_and_poisson_statistics():
  with tf.Graph().as_default():
    g = tf.random.gamma([20000], alpha=[0.4, 3.0], beta=[1.0, 2.0], seed=1, dtype=tf.float64)
    p = tf.random.poisson(lam=[2.0, 60.0], shape=[20000], seed=2, dtype=tf.float64)
    sg = tf.random.stateless_gamma([20000, 1], seed=[3, 4], alpha=[5.0])
    sp = tf.random.stateless_poisson([20000], seed=[3, 4], lam=25.0)
    gv, pv, sgv, spv = _run(g, p, sg, sp)
  assert gv.shape == (20000, 2) and np.all(gv > 0)
  np.testing.assert_allclose(gv.mean(0), [0.4, 1.5], rtol=0.03)
  np.testing.assert_allclose(gv.var(0), [0.4, 0.75], rtol=0.06)
  np.testing.assert_allclose(pv.mean(0), [2.0, 60.0], rtol=0.03)
  np.testing.assert_allclose(pv.var(0), [2.0, 60.0], rtol=0.06)
  assert np.all(pv == np.floor(pv))
  assert abs(sgv.mean() - 5.0) < 0.1 and abs(spv.mean() - 25.0) < 0.3
  assert spv.dtype == np.int32


def test_igamma_gradient_in_a_by_finite_differences():
  with tf.Graph().as_default():
    a = tf.constant([0.3, 1.0, 2.5, 7.0], tf.float64)
    x = tf.constant([0.2, 1.7, 2.0, 12.0], tf.float64)
    y = tf.math.igamma(a, x)
    yc = tf.math.igammac(a, x)
    with tf.Session():
      err = tf.test.compute_gradient_error(a, [4], y, [4], delta=1e-6)
      errc = tf.test.compute_gradient_error(a, [4], yc, [4], delta=1e-6)
  assert err < 1e-6 and errc < 1e-6


def test_random_gamma_grad_is_the_implicit_derivative():
  """RandomGammaGrad(alpha, x) = -(dP(alpha, x)/dalpha) / pdf(x; alpha)."""
  alpha = np.array([0.3, 1.0, 2.5, 7.0])
  x = np.array([0.2, 1.7, 2.0, 12.0])
  h = 1e-6
  with tf.Graph().as_default():
    from tfc.framework.op_def_library import _apply_op
    got = _apply_op("RandomGammaGrad", None, [tf.constant(alpha), tf.constant(x)]).outputs[0]
    dp = (tf.math.igamma(alpha + h, x) - tf.math.igamma(alpha - h, x)) / (2 * h)
    pdf = tf.exp((alpha - 1) * np.log(x) - x - tf.math.lgamma(tf.constant(alpha)))
    g, want = _run(got, -dp / pdf)
  np.testing.assert_allclose(g, want, rtol=1e-6)


def test_gamma_and_poisson_errors():
  with tf.Graph().as_default():
    alpha = tf.placeholder(tf.float32)
    s = tf.random.stateless_gamma([3, 5], seed=[1, 2], alpha=alpha)
    lam = tf.placeholder(tf.float32)
    p = tf.random.stateless_poisson([3, 5], seed=[1, 2], lam=lam)
    with tf.Session() as sess:
      with pytest.raises(tf.errors.InvalidArgumentError, match="must end with"):
        sess.run(s, {alpha: [1.0, 2.0]})
      with pytest.raises(tf.errors.InvalidArgumentError, match="must end with"):
        sess.run(p, {lam: [1.0, 2.0]})
    with pytest.raises(LookupError):  # TF defines no gradient for Poisson sampling
      tf.gradients(tf.random.poisson(lam=lam, shape=[2]), lam)


def test_candidate_sampler_errors():
  with tf.Graph().as_default():
    t = tf.constant([[1], [2]], tf.int64)
    bad_range = tf.random.fixed_unigram_candidate_sampler(t, 1, 2, False, 5, unigrams=[1, 2, 3])
    no_weights = tf.random.fixed_unigram_candidate_sampler(t, 1, 2, False, 5)
    missing = tf.random.fixed_unigram_candidate_sampler(t, 1, 2, False, 5,
                                                        vocab_file="/nonexistent/vocab.csv")
    too_small = tf.random.uniform_candidate_sampler(t, 1, 6, True, 5, seed=1)
    with tf.Session() as sess:
      with pytest.raises(tf.errors.InvalidArgumentError, match="must be equal to weights"):
        sess.run(bad_range)
      with pytest.raises(tf.errors.InvalidArgumentError, match="vocab_file or unigrams"):
        sess.run(no_weights)
      with pytest.raises(tf.errors.NotFoundError):
        sess.run(missing)
      with pytest.raises(tf.errors.InvalidArgumentError, match="range is too small"):
        sess.run(too_small)
    with pytest.raises(ValueError):  # true_classes must have num_true columns
      tf.random.uniform_candidate_sampler(t, 2, 2, False, 5)


def test_learned_unigram_counts_and_unique_samples():
  with tf.Graph().as_default():
    t = tf.constant([[4]] * 50, tf.int64)
    s, tc, sc = tf.random.learned_unigram_candidate_sampler(t, 1, 3, True, 6, seed=2)
    with tf.Session() as sess:
      first = sess.run(tc)
      for _ in range(5):
        cand, later = sess.run([s, tc])
        assert len(set(cand.tolist())) == 3
  # class 4 starts at 1/6 of the weight; after 5 steps of 50 counts it dominates
  assert first[0, 0] < later[0, 0]


def test_sampled_losses_gradients_by_finite_differences():
  w = np.random.RandomState(0).randn(20, 3)
  b = np.random.RandomState(1).randn(20)
  x0 = np.random.RandomState(2).randn(4, 3)
  labels = np.array([[1], [5], [7], [19]])
  with tf.Graph().as_default():
    sampled = (tf.constant([2, 3, 11], tf.int64), tf.constant([[0.2]] * 4, tf.float64),
               tf.constant([0.3, 0.1, 0.5], tf.float64))
    x = tf.constant(x0)
    soft = tf.nn.sampled_softmax_loss(tf.constant(w), tf.constant(b), labels, x, 3, 20,
                                      sampled_values=sampled)
    nce = tf.nn.nce_loss(tf.constant(w), tf.constant(b), labels, x, 3, 20,
                         sampled_values=sampled)
    with tf.Session():
      e1 = tf.test.compute_gradient_error(x, [4, 3], soft, [4], x_init_value=x0)
      e2 = tf.test.compute_gradient_error(x, [4, 3], nce, [4], x_init_value=x0)
  assert e1 < 1e-6 and e2 < 1e-6


def test_stateless_binomial_statistics_and_errors():
  with tf.Graph().as_default():
    b = tf.random.stateless_binomial([20000, 3], seed=[7, 8], counts=[5.0, 60.0, 300.0],
                                     probs=[0.3, 0.5, 0.95], output_dtype=tf.float64)
    bv, = _run(b)
    np.testing.assert_allclose(bv.mean(0), [1.5, 30.0, 285.0], rtol=0.02)
    np.testing.assert_allclose(bv.var(0), [1.05, 15.0, 14.25], rtol=0.07)
    assert bv.min() >= 0 and np.all(bv <= [5, 60, 300])
    probs = tf.placeholder(tf.float32)
    bad = tf.random.stateless_binomial([4], seed=[1, 2], counts=[1.0, 2.0], probs=probs)
    with tf.Session() as sess:
      with pytest.raises(tf.errors.InvalidArgumentError):
        sess.run(bad, {probs: [0.5, 0.5, 0.5]})


def test_experimental_argument_errors():
  with tf.Graph().as_default():
    with pytest.raises(ValueError):
      tf.nn.experimental.stateless_dropout(tf.ones([2]), 1.5, seed=[1, 2])
    with pytest.raises(ValueError):
      tf.nn.experimental.stateless_dropout(tf.ones([2], tf.int32), 0.5, seed=[1, 2])
    with pytest.raises(ValueError):
      tf.random.create_rng_state(1, "mersenne")
    assert tf.random.Algorithm.PHILOX.value == 1
    x = tf.ones([3])
    assert tf.nn.experimental.stateless_dropout(x, 0.0, seed=[1, 2]) is x


def test_betainc_values_and_gradient():
  # I_x(1, b) = 1 - (1 - x)^b and I_x(a, 1) = x^a in closed form
  with tf.Graph().as_default():
    x = tf.constant([0.05, 0.3, 0.77], tf.float64)
    v1, v2 = _run(tf.math.betainc(tf.constant(1.0, tf.float64), tf.constant(3.5, tf.float64), x),
                  tf.math.betainc(tf.constant(2.5, tf.float64), tf.constant(1.0, tf.float64), x))
    xv = np.array([0.05, 0.3, 0.77])
    np.testing.assert_allclose(v1, 1 - (1 - xv) ** 3.5, rtol=1e-12)
    np.testing.assert_allclose(v2, xv ** 2.5, rtol=1e-12)
    y = tf.math.betainc(tf.constant([2.0, 0.7, 9.0], tf.float64),
                        tf.constant([3.0, 1.3, 2.0], tf.float64), x)
    with tf.Session():
      err = tf.test.compute_gradient_error(x, [3], y, [3], x_init_value=xv, delta=1e-7)
    assert err < 1e-6
    bad = tf.math.betainc(tf.placeholder(tf.float32), [1.0, 2.0], [0.5, 0.5])
    with tf.Session() as sess:
      with pytest.raises(tf.errors.InvalidArgumentError, match="inconsistent"):
        sess.run(bad, {bad.op.inputs[0]: [1.0, 2.0, 3.0]})


def test_stateless_gamma_v3_equals_v2_and_differentiates():
  """A seed's key / counter (StatelessRandomGetKeyCounter) give V3 the samples and
  gradients V2 gives for the seed itself."""
  from tfc.framework.op_def_library import _apply_op
  with tf.Graph().as_default():
    alpha = tf.constant([0.4, 2.0, 9.0], tf.float64)
    seed = tf.constant([3, 8], tf.int64)
    shape = tf.constant([4, 3])
    v2 = _apply_op("StatelessRandomGammaV2", None, [shape, seed, alpha]).outputs[0]
    key, counter = _apply_op("StatelessRandomGetKeyCounter", None, [seed]).outputs
    v3 = _apply_op("StatelessRandomGammaV3", None,
                   [shape, key, counter, tf.constant(1), alpha]).outputs[0]
    g2, = tf.gradients(tf.reduce_sum(v2), alpha)
    g3, = tf.gradients(tf.reduce_sum(v3), alpha)
    a, b, ga, gb = _run(v2, v3, g2, g3)
  np.testing.assert_array_equal(a, b)
  np.testing.assert_array_equal(ga, gb)
