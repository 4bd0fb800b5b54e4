"""tensordot, trace, the matrix diagonal/band functions, cross, normalize, adjoint, diag, and
the tf.image colour conversions, Sobel edges and resize_image_with_pad built on them:
values against NumPy (TensorFlow gives the same), gradients, fed shapes, errors."""
import numpy as np
import pytest

import tfc as tf

RNG = np.random.RandomState(12)


def run(fetches, feed_dict=None):
  with tf.Session() as sess:
    return sess.run(fetches, feed_dict)


@pytest.mark.parametrize("axes", [[[1, 2], [1, 0]], 1, 0, [[0], [2]], [2, 0]])
def test_tensordot(axes):
  a = RNG.rand(2, 3, 4).astype(np.float32)
  b = RNG.rand(4, 3, 2).astype(np.float32)
  if axes == 1:
    b = b[:, 0, :]
  with tf.Graph().as_default():
    got = run(tf.tensordot(a, b, axes))
  np.testing.assert_allclose(got, np.tensordot(a, b, axes), rtol=1e-5)


def test_tensordot_fed_shapes_gradient_and_errors():
  b = RNG.rand(4, 5).astype(np.float32)
  with tf.Graph().as_default():
    a = tf.placeholder(tf.float32, [None, None, 4])
    out = tf.linalg.tensordot(a, b, [[2], [0]])
    value = RNG.rand(2, 3, 4).astype(np.float32)
    np.testing.assert_allclose(run(out, {a: value}), np.tensordot(value, b, 1), rtol=1e-5)
    with pytest.raises(ValueError, match="Different number of contraction axes"):
      tf.tensordot(b, b, [[0], [0, 1]])
    with pytest.raises(ValueError, match="must not be larger"):
      tf.tensordot(b, b, 3)
    with pytest.raises(ValueError, match="known rank"):
      tf.tensordot(tf.placeholder(tf.float32), b, 1)
  x = RNG.rand(3, 4)
  with tf.Graph().as_default():
    xt = tf.constant(x)
    y = tf.tensordot(xt, tf.constant(RNG.rand(4, 2)), 1)
    assert tf.test.compute_gradient_error(xt, [3, 4], y, [3, 2], x_init_value=x) < 1e-8


def test_diagonals_trace_band():
  m = RNG.rand(2, 3, 5).astype(np.float32)
  mt = np.transpose(m, (0, 2, 1))
  sq = RNG.rand(4, 4).astype(np.float32)
  with tf.Graph().as_default():
    got = run([tf.matrix_diag_part(m), tf.linalg.diag_part(mt), tf.trace(m),
               tf.matrix_diag(m[0]), tf.linalg.set_diag(m, np.ones((2, 3), np.float32)),
               tf.matrix_set_diag(mt, np.ones((2, 3), np.float32)),
               tf.matrix_band_part(sq, 1, -1), tf.linalg.band_part(m, 0, 2),
               tf.matrix_band_part(sq, -1, 0)])
  diag = np.stack([np.diag(x) for x in m])
  np.testing.assert_array_equal(got[0], diag)
  np.testing.assert_array_equal(got[1], diag)
  np.testing.assert_allclose(got[2], diag.sum(1), rtol=1e-6)
  np.testing.assert_array_equal(got[3], np.stack([np.diag(r) for r in m[0]]))
  set_m = m.copy()
  for x in set_m:
    np.fill_diagonal(x, 1)
  np.testing.assert_array_equal(got[4], set_m)
  np.testing.assert_array_equal(got[5], np.transpose(set_m, (0, 2, 1)))
  i, j = np.indices((4, 4))
  np.testing.assert_array_equal(got[6], np.where(i - j <= 1, sq, 0))
  i, j = np.indices((3, 5))
  np.testing.assert_array_equal(got[7], np.where((i - j <= 0) & (j - i <= 2), m, 0))
  np.testing.assert_array_equal(got[8], np.tril(sq))


def test_diagonals_with_inf_off_the_diagonal_and_fed_sizes():
  x = np.array([[1.0, np.inf], [np.nan, 2.0]], np.float32)
  with tf.Graph().as_default():
    p = tf.placeholder(tf.float32, [None, None])
    lengths = tf.placeholder(tf.int64, [])
    got = run([tf.matrix_diag_part(p), tf.matrix_band_part(p, lengths, 0)],
              {p: x, lengths: 0})
  np.testing.assert_array_equal(got[0], [1.0, 2.0])
  np.testing.assert_array_equal(got[1], [[1.0, 0.0], [0.0, 2.0]])
  with tf.Graph().as_default():
    with pytest.raises(NotImplementedError, match="main diagonal only"):
      tf.matrix_diag_part(x, k=1)
    with pytest.raises(ValueError, match="rank >= 2"):
      tf.matrix_diag_part([1.0, 2.0])


def test_band_part_gradient_masks():
  x = RNG.rand(3, 3)
  with tf.Graph().as_default():
    xt = tf.constant(x)
    g = run(tf.gradients(tf.reduce_sum(tf.matrix_band_part(xt, 0, -1)), xt)[0])
  np.testing.assert_array_equal(g, np.triu(np.ones((3, 3))))


def test_cross_normalize_adjoint_diag():
  a = RNG.randn(4, 3).astype(np.float32)
  b = RNG.randn(4, 3).astype(np.float32)
  m = RNG.randn(2, 3, 4).astype(np.float32)
  d = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
  with tf.Graph().as_default():
    normalized, norm = tf.linalg.normalize(m, axis=1)
    got = run([tf.cross(a, b), normalized, norm, tf.linalg.adjoint(m), tf.diag(d),
               tf.diag_part(tf.diag(d)), tf.linalg.tensor_diag([1, 2])])
    with pytest.raises(ValueError, match="vectors of 3"):
      tf.cross(np.ones((2, 4)), np.ones((2, 4)))
    with pytest.raises(ValueError, match="even rank"):
      tf.diag_part(np.ones((2, 2, 2)))
  np.testing.assert_allclose(got[0], np.cross(a, b), rtol=1e-5, atol=1e-6)
  n = np.linalg.norm(m, axis=1, keepdims=True)
  np.testing.assert_allclose(got[1], m / n, rtol=1e-5)
  np.testing.assert_allclose(got[2], n, rtol=1e-5)
  np.testing.assert_array_equal(got[3], np.transpose(m, (0, 2, 1)))
  want = np.zeros((2, 2, 2, 2), np.float32)
  for i in range(2):
    for j in range(2):
      want[i, j, i, j] = d[i, j]
  np.testing.assert_array_equal(got[4], want)
  np.testing.assert_array_equal(got[5], d)
  np.testing.assert_array_equal(got[6], [[1, 0], [0, 2]])


def test_colour_spaces_sobel_and_resize_with_pad():
  img = RNG.rand(2, 6, 7, 3).astype(np.float32)
  u8 = (RNG.rand(5, 9, 3) * 255).astype(np.uint8)
  with tf.Graph().as_default():
    yiq = tf.image.rgb_to_yiq(img)
    yuv = tf.image.rgb_to_yuv(img)
    got = run([yiq, tf.image.yiq_to_rgb(yiq), yuv, tf.image.yuv_to_rgb(yuv),
               tf.image.sobel_edges(img), tf.image.resize_image_with_pad(u8, 8, 8)])
  np.testing.assert_allclose(got[0][..., 0], img @ np.array([0.299, 0.587, 0.114]), rtol=1e-5)
  np.testing.assert_allclose(got[1], img, atol=2e-4)  # the matrices are 8-digit inverses
  np.testing.assert_allclose(got[2][..., 0], img @ np.array([0.299, 0.587, 0.114]), rtol=1e-5)
  np.testing.assert_allclose(got[3], img, atol=2e-4)
  padded = np.pad(img, ((0, 0), (1, 1), (1, 1), (0, 0)), mode="reflect")
  ky = np.array([[-1, -2, -1], [0, 0, 0], [1, 2, 1]])
  dy = np.zeros_like(img)
  dx = np.zeros_like(img)
  for r in range(3):
    for c in range(3):
      window = padded[:, r:r + 6, c:c + 7]
      dy += ky[r, c] * window
      dx += ky.T[r, c] * window
  np.testing.assert_allclose(got[4][..., 0], dy, rtol=1e-5, atol=1e-5)
  np.testing.assert_allclose(got[4][..., 1], dx, rtol=1e-5, atol=1e-5)
  # 5x9 fits 8x8 as floor(5 / 1.125) x 8 = 4x8, floor((8 - 4.44) / 2) = 1 row above
  assert got[5].shape == (8, 8, 3) and got[5].dtype == np.float32
  np.testing.assert_array_equal(got[5][:1], 0)
  np.testing.assert_array_equal(got[5][5:], 0)
  assert got[5][1:5].any()
