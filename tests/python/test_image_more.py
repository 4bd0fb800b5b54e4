"""tf.image functions composed of existing ops (crops, pads, flips, brightness, contrast,
gamma, rotations, total variation, gradients, PSNR): values against NumPy (the same
values TensorFlow gives), fed shapes, random variants' statistics, TF's errors."""
import numpy as np
import pytest

import tfc as tf

RNG = np.random.RandomState(3)
U8 = RNG.randint(0, 256, (5, 7, 3)).astype(np.uint8)
F4 = RNG.rand(2, 5, 6, 3).astype(np.float32)


def run(fetches, feed_dict=None):
  with tf.Session() as sess:
    return sess.run(fetches, feed_dict)


def test_brightness_and_gamma():
  with tf.Graph().as_default():
    got = run([tf.image.adjust_brightness(U8, 0.2), tf.image.adjust_brightness(F4, -0.3),
               tf.image.adjust_gamma(U8, 0.5, 1.2), tf.image.adjust_gamma(F4, 2.0)])
  bright = U8 / 255.0 + 0.2
  np.testing.assert_array_equal(got[0], np.clip(bright * 255.5, 0, 255).astype(np.uint8))
  np.testing.assert_allclose(got[1], F4 - 0.3, rtol=1e-6)
  gamma = 1.2 * (U8 / 255.0) ** 0.5
  np.testing.assert_array_equal(got[2], np.clip(gamma * 255.5, 0, 255).astype(np.uint8))
  np.testing.assert_allclose(got[3], F4 ** 2, rtol=1e-5)
  with tf.Graph().as_default():
    with pytest.raises(ValueError, match="Gamma should be a non-negative"):
      tf.image.adjust_gamma(F4, -1.0)


def test_crop_pad_and_resize_with_crop_or_pad():
  with tf.Graph().as_default():
    got = run([tf.image.crop_to_bounding_box(U8, 1, 2, 3, 4),
               tf.image.crop_to_bounding_box(F4, 0, 1, 5, 3),
               tf.image.pad_to_bounding_box(U8, 1, 2, 8, 10),
               tf.image.resize_image_with_crop_or_pad(U8, 3, 10),
               tf.image.resize_image_with_crop_or_pad(F4, 8, 3),
               tf.image.resize_with_crop_or_pad(U8, 4, 6)])
  np.testing.assert_array_equal(got[0], U8[1:4, 2:6])
  np.testing.assert_array_equal(got[1], F4[:, 0:5, 1:4])
  np.testing.assert_array_equal(got[2], np.pad(U8, ((1, 2), (2, 1), (0, 0))))
  # height 5 -> 3: crop from row 1; width 7 -> 10: pad 1 before, 2 after
  np.testing.assert_array_equal(got[3], np.pad(U8[1:4], ((0, 0), (1, 2), (0, 0))))
  # height 5 -> 8: pad 1 before, 2 after; width 6 -> 3: crop from column 1
  np.testing.assert_array_equal(got[4], np.pad(F4[:, :, 1:4], ((0, 0), (1, 2), (0, 0), (0, 0))))
  np.testing.assert_array_equal(got[5], U8[0:4, 0:6])


def test_crop_or_pad_with_fed_shapes():
  with tf.Graph().as_default():
    image = tf.placeholder(tf.uint8, [None, None, 3])
    out = tf.image.resize_image_with_crop_or_pad(image, 4, 9)
    central = tf.image.central_crop(image, 0.5)
    assert out.shape.as_list() == [4, 9, 3]
    with tf.Session() as sess:
      a, c = sess.run([out, central], {image: U8})
      np.testing.assert_array_equal(a, np.pad(U8[0:4], ((0, 0), (1, 1), (0, 0))))
      np.testing.assert_array_equal(c, U8[1:4, 1:6])
      a = sess.run(out, {image: np.ones((2, 20, 3), np.uint8)})
      np.testing.assert_array_equal(a, np.pad(np.ones((2, 9, 3)), ((1, 1), (0, 0), (0, 0))))


def test_crop_and_pad_errors():
  with tf.Graph().as_default():
    for args, message in [((-1, 0, 2, 2), "offset_height must be >= 0"),
                          ((0, 0, 0, 2), "target_height must be > 0"),
                          ((0, 5, 2, 3), "width must be >= target \\+ offset"),
                          ((4, 0, 2, 2), "height must be >= target \\+ offset")]:
      with pytest.raises(ValueError, match=message):
        tf.image.crop_to_bounding_box(U8, *args)
    with pytest.raises(ValueError, match="width must be <= target - offset"):
      tf.image.pad_to_bounding_box(U8, 0, 2, 8, 8)
    with pytest.raises(ValueError, match="either 3 or 4 dimensions"):
      tf.image.crop_to_bounding_box(np.zeros((4, 4)), 0, 0, 2, 2)
    with pytest.raises(ValueError, match="central_fraction must be within"):
      tf.image.central_crop(U8, 0.0)
    image = tf.placeholder(tf.uint8, [None, None, 3])
    crop = tf.image.crop_to_bounding_box(image, 1, 1, 4, 4)
    with tf.Session() as sess:
      with pytest.raises(tf.errors.InvalidArgumentError):
        sess.run(crop, {image: U8[:3]})


def test_central_crop():
  odd = RNG.rand(7, 9, 2).astype(np.float32)
  with tf.Graph().as_default():
    got = run([tf.image.central_crop(odd, 0.5), tf.image.central_crop(F4, 0.7),
               tf.image.central_crop(odd, 1.0)])
  # start = int((size - size * fraction) / 2), size = size - 2 * start
  np.testing.assert_array_equal(got[0], odd[1:6, 2:7])
  np.testing.assert_array_equal(got[1], F4[:, 0:5, 0:6])
  np.testing.assert_array_equal(got[2], odd)


@pytest.mark.parametrize("k", [0, 1, 2, 3, -1, 5])
def test_rot90_and_transpose(k):
  with tf.Graph().as_default():
    got = run([tf.image.rot90(U8, k), tf.image.rot90(F4, k), tf.image.transpose_image(F4),
               tf.image.transpose(U8)])
  np.testing.assert_array_equal(got[0], np.rot90(U8, k, axes=(0, 1)))
  np.testing.assert_array_equal(got[1], np.rot90(F4, k, axes=(1, 2)))
  np.testing.assert_array_equal(got[2], F4.transpose(0, 2, 1, 3))
  np.testing.assert_array_equal(got[3], U8.transpose(1, 0, 2))


def test_grayscale_to_rgb():
  g = RNG.rand(2, 4, 4, 1).astype(np.float32)
  with tf.Graph().as_default():
    rgb = tf.image.grayscale_to_rgb(g)
    assert rgb.shape.as_list() == [2, 4, 4, 3]
    np.testing.assert_array_equal(run(rgb), np.repeat(g, 3, axis=-1))
    with pytest.raises(ValueError, match="Last dimension of a grayscale image"):
      tf.image.grayscale_to_rgb(F4)


def test_total_variation_gradients_psnr():
  with tf.Graph().as_default():
    dy, dx = tf.image.image_gradients(F4)
    got = run([tf.image.total_variation(F4), tf.image.total_variation(U8.astype(np.float32)),
               dy, dx, tf.image.psnr(F4[0], F4[1], 1.0), tf.image.psnr(U8, 255 - U8, 255)])
  tv = (np.abs(np.diff(F4, axis=1)).sum((1, 2, 3)) + np.abs(np.diff(F4, axis=2)).sum((1, 2, 3)))
  np.testing.assert_allclose(got[0], tv, rtol=1e-5)
  u = U8.astype(np.float64)
  np.testing.assert_allclose(got[1], np.abs(np.diff(u, axis=0)).sum()
                             + np.abs(np.diff(u, axis=1)).sum(), rtol=1e-6)
  want_dy = np.concatenate([np.diff(F4, axis=1), np.zeros((2, 1, 6, 3))], 1)
  want_dx = np.concatenate([np.diff(F4, axis=2), np.zeros((2, 5, 1, 3))], 2)
  np.testing.assert_allclose(got[2], want_dy, atol=1e-7)
  np.testing.assert_allclose(got[3], want_dx, atol=1e-7)
  mse = ((F4[0].astype(np.float64) - F4[1]) ** 2).mean()
  np.testing.assert_allclose(got[4], -10 * np.log10(mse), rtol=1e-5)
  mse8 = ((u / 255 - (255 - u) / 255) ** 2).mean()
  np.testing.assert_allclose(got[5], -10 * np.log10(mse8), rtol=1e-5)


def test_random_flips():
  image = np.arange(2 * 3 * 1, dtype=np.float32).reshape(2, 3, 1)
  with tf.Graph().as_default():
    lr = tf.image.random_flip_left_right(image)
    ud = tf.image.random_flip_up_down(image, seed=4)
    batch = tf.image.random_flip_left_right(np.stack([image] * 64))
    with tf.Session() as sess:
      seen_lr = {sess.run(lr).tobytes() for _ in range(40)}
      seen_ud = {sess.run(ud).tobytes() for _ in range(40)}
      flipped = sess.run(batch)
  assert seen_lr == {image.tobytes(), image[:, ::-1].tobytes()}
  assert seen_ud == {image.tobytes(), image[::-1].tobytes()}
  same = [np.array_equal(f, image) for f in flipped]
  mirrored = [np.array_equal(f, image[:, ::-1]) for f in flipped]
  assert all(a or b for a, b in zip(same, mirrored))
  assert 10 < sum(mirrored) < 54


def test_random_brightness_and_contrast():
  image = np.full((4, 4, 3), 0.5, np.float32)
  image[0, 0] = 0.0
  with tf.Graph().as_default():
    bright = tf.image.random_brightness(image, max_delta=0.25)
    contrast = tf.image.random_contrast(image, 0.5, 1.5)
    with tf.Session() as sess:
      deltas = [sess.run(bright)[1, 1, 0] - 0.5 for _ in range(50)]
      contrasted = [sess.run(contrast) for _ in range(5)]
  assert all(-0.25 <= d < 0.25 for d in deltas) and np.std(deltas) > 0.05
  for c in contrasted:
    mean = image.mean(axis=(0, 1))
    factor = (c[0, 0] - mean) / (image[0, 0] - mean)
    assert np.all((factor >= 0.5 - 1e-5) & (factor < 1.5 + 1e-5))
    np.testing.assert_allclose(c, (image - mean) * factor + mean, rtol=1e-4, atol=1e-6)
  with tf.Graph().as_default():
    with pytest.raises(ValueError, match="max_delta must be non-negative"):
      tf.image.random_brightness(image, -1.0)
    with pytest.raises(ValueError, match="upper must be > lower"):
      tf.image.random_contrast(image, 1.0, 0.5)
    with pytest.raises(ValueError, match="lower must be non-negative"):
      tf.image.random_contrast(image, -1.0, 0.5)


def test_cifar10_style_distortions():
  # the training-input distortions of TF 1.x's CIFAR-10 tutorial, on a fed image
  with tf.Graph().as_default():
    raw = tf.placeholder(tf.uint8, [32, 32, 3])
    reshaped = tf.cast(raw, tf.float32)
    distorted = tf.random_crop(reshaped, [24, 24, 3])
    distorted = tf.image.random_flip_left_right(distorted)
    distorted = tf.image.random_brightness(distorted, max_delta=63)
    distorted = tf.image.random_contrast(distorted, lower=0.2, upper=1.8)
    standardized = tf.image.per_image_standardization(distorted)
    evaluated = tf.image.per_image_standardization(
        tf.image.resize_image_with_crop_or_pad(reshaped, 24, 24))
    assert standardized.shape.as_list() == [24, 24, 3]
    assert evaluated.shape.as_list() == [24, 24, 3]
    pixels = RNG.randint(0, 256, (32, 32, 3)).astype(np.uint8)
    s, e = run([standardized, evaluated], {raw: pixels})
  assert abs(s.mean()) < 1e-4 and abs(s.std() - 1) < 1e-3
  centre = pixels[4:28, 4:28].astype(np.float64)
  np.testing.assert_allclose(e, (centre - centre.mean()) / centre.std(), rtol=1e-3, atol=1e-4)
