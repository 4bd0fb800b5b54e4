"""tf.io.gfile (TF 2's file API names over tf.gfile), tf.manip, and
tf.losses.cosine_distance / mean_pairwise_squared_error against NumPy."""
import itertools

import numpy as np
import pytest

import tfc as tf

RNG = np.random.RandomState(9)


def test_io_gfile(tmp_path):
  g = tf.io.gfile
  root = str(tmp_path)
  g.makedirs(g.join(root, "a", "b"))
  with g.GFile(g.join(root, "a", "f.txt"), "w") as f:
    f.write("hello")
  assert g.exists(g.join(root, "a", "f.txt")) and g.isdir(g.join(root, "a"))
  assert g.listdir(g.join(root, "a")) == ["b", "f.txt"]
  assert g.glob(g.join(root, "a", "*.txt")) == [g.join(root, "a", "f.txt")]
  assert g.stat(g.join(root, "a", "f.txt")).length == 5
  g.copy(g.join(root, "a", "f.txt"), g.join(root, "a", "b", "g.txt"))
  with pytest.raises(tf.errors.AlreadyExistsError):
    g.copy(g.join(root, "a", "f.txt"), g.join(root, "a", "b", "g.txt"))
  g.rename(g.join(root, "a", "b", "g.txt"), g.join(root, "a", "b", "h.txt"))
  g.mkdir(g.join(root, "c"))
  top_down = list(g.walk(root))
  assert [w[0] for w in top_down] == [root, g.join(root, "a"), g.join(root, "a", "b"),
                                      g.join(root, "c")]
  assert top_down[2][2] == ["h.txt"]
  assert [w[0] for w in g.walk(root, topdown=False)][-1] == root
  errors = []
  assert list(g.walk(g.join(root, "missing"), onerror=errors.append)) == []
  assert isinstance(errors[0], tf.errors.NotFoundError)
  g.remove(g.join(root, "a", "f.txt"))
  g.rmtree(g.join(root, "a"))
  assert not g.exists(g.join(root, "a"))
  with pytest.raises(tf.errors.NotFoundError):
    g.remove(g.join(root, "nothing"))
  assert "" in g.get_registered_schemes()
  assert tf.io.write_graph is tf.train.write_graph


def test_manip():
  assert tf.manip.reshape is tf.reshape and tf.manip.tile is tf.tile
  assert tf.manip.reverse is tf.reverse


def unit(x):
  return x / np.linalg.norm(x, axis=1, keepdims=True)


def test_cosine_distance():
  labels, predictions = unit(RNG.randn(4, 3)), unit(RNG.randn(4, 3))
  weights = np.array([[1.0], [0.0], [2.0], [0.5]], np.float32)
  with tf.Graph().as_default():
    got = tf.Session().run([
        tf.losses.cosine_distance(labels, predictions, axis=1),
        tf.losses.cosine_distance(labels, predictions, axis=1, weights=weights),
        tf.losses.cosine_distance(labels, predictions, dim=1,
                                  reduction=tf.losses.Reduction.NONE)])
    assert len(tf.get_collection(tf.GraphKeys.LOSSES)) == 3
    with pytest.raises(ValueError, match="You must specify 'axis'"):
      tf.losses.cosine_distance(labels, predictions)
  per_row = 1 - (labels * predictions).sum(1, keepdims=True)
  np.testing.assert_allclose(got[0], per_row.mean(), rtol=1e-5)
  np.testing.assert_allclose(got[1], (per_row * weights).sum() / 3, rtol=1e-5)
  np.testing.assert_allclose(got[2], per_row, rtol=1e-5, atol=1e-6)


def pairwise(labels, predictions, weights):
  total = 0.0
  for l, p, w in zip(labels, predictions, weights):
    d = (p - l).ravel()
    pairs = [(d[i] - d[j]) ** 2 for i, j in itertools.permutations(range(len(d)), 2)]
    total += w * (np.mean(pairs) if pairs else 0.0)
  return total


def test_mean_pairwise_squared_error():
  labels, predictions = RNG.randn(3, 2, 4), RNG.randn(3, 2, 4)
  weights = np.array([1.0, 2.0, 0.0])
  with tf.Graph().as_default():
    got = tf.Session().run([
        tf.losses.mean_pairwise_squared_error(labels, predictions),
        tf.losses.mean_pairwise_squared_error(labels, predictions,
                                              weights=weights.reshape(3, 1, 1))])
  np.testing.assert_allclose(got[0], pairwise(labels, predictions, [1, 1, 1]), rtol=1e-4)
  np.testing.assert_allclose(got[1], pairwise(labels, predictions, weights), rtol=1e-4)
