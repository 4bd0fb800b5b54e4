"""einsum, repeat, batch_gather and tf.nn.compute_average_loss /
scale_regularization_loss: values against NumPy, gradients by finite
differences, and the errors for what einsum does not support."""
import numpy as np
import pytest

import tfc as tf

rng = np.random.RandomState(0)
A, B, C = rng.rand(2, 3, 4), rng.rand(2, 4, 5), rng.rand(3, 4)


@pytest.mark.parametrize("eq,ops", [
    ("bij,bjk->bik", (A, B)), ("ij,kj->ik", (C, C)), ("ij->ji", (C,)), ("ij->", (C,)),
    ("i,j->ij", (C[0], C[1])), ("...ij,...jk->...ik", (A, B)), ("bij,bjk", (A, B)),
    ("ij,ij->i", (C, C)), ("abc,cd->abd", (A, rng.rand(4, 2))), ("ij,jk", (C, rng.rand(4, 6))),
    ("abc->ca", (A,)), ("bij,j->bi", (A, rng.rand(4))), ("i,i->", (C[0], C[1])),
])
def test_einsum_matches_numpy(eq, ops):
  with tf.Graph().as_default():
    y = tf.einsum(eq, *[tf.constant(o) for o in ops])
    with tf.Session() as sess:
      got = sess.run(y)
  np.testing.assert_allclose(got, np.einsum(eq, *ops), rtol=1e-12)
  assert tf.linalg.einsum is tf.einsum


def test_einsum_gradient():
  with tf.Graph().as_default():
    x = tf.placeholder(tf.float64, (2, 3, 4))
    y = tf.einsum("bij,bjk->bik", x, tf.constant(B))
    with tf.Session():
      err = tf.test.compute_gradient_error(x, [2, 3, 4], y, [2, 3, 5], x_init_value=A)
  assert err < 1e-8


def test_einsum_errors():
  with tf.Graph().as_default():
    with pytest.raises(NotImplementedError):
      tf.einsum("ii->i", tf.constant(C[:, :3]))
    with pytest.raises(ValueError):
      tf.einsum("ij,jk->ik", tf.constant(C))
    with pytest.raises(ValueError):
      tf.einsum("ijk->i", tf.constant(C))


@pytest.mark.parametrize("x,repeats,axis", [([[1, 2], [3, 4]], [1, 3], 0), ([1, 2, 3], 2, None),
                                            ([[1, 2], [3, 4]], [0, 2], 1),
                                            (np.arange(24).reshape(2, 3, 4), 3, -1),
                                            ([[1.5, 2.5]], 0, 1)])
def test_repeat_matches_numpy(x, repeats, axis):
  with tf.Graph().as_default():
    with tf.Session() as sess:
      got = sess.run(tf.repeat(tf.constant(x), repeats, axis=axis))
  np.testing.assert_array_equal(got, np.repeat(np.array(x), repeats, axis=axis))


def test_batch_gather_matches_numpy():
  idx = np.array([[0, 2, 2], [1, 0, 1]])
  with tf.Graph().as_default():
    with tf.Session() as sess:
      got = sess.run(tf.batch_gather(tf.constant(A), tf.constant(idx)))
  np.testing.assert_array_equal(got, np.stack([A[b][idx[b]] for b in range(2)]))


def test_average_and_regularization_losses():
  loss = np.array([1.0, 2.0, 3.0, 6.0])
  with tf.Graph().as_default():
    with tf.Session() as sess:
      avg, wavg, gbs, reg = sess.run([
          tf.nn.compute_average_loss(tf.constant(loss)),
          tf.nn.compute_average_loss(tf.constant(loss), sample_weight=[1.0, 0.0, 1.0, 0.5]),
          tf.nn.compute_average_loss(tf.constant(loss), global_batch_size=8),
          tf.nn.scale_regularization_loss(tf.constant([0.5, 0.25]))])
  assert avg == 3.0 and wavg == 7.0 / 4 and gbs == 1.5 and reg == 0.75
