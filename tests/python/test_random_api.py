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
    out = eval(spec["expr"], {"tf": tf, "np": np})  # pylint: disable=eval-used
    outs = list(out) if isinstance(out, (tuple, list)) else [out]
    got = _run(*outs)
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
