"""tf.image.rgb_to_hsv / hsv_to_rgb, adjust_hue / adjust_saturation and their
random_ forms: values against colorsys, round trips, dtypes and bad input."""
import colorsys

import numpy as np
import pytest

import tfc as tf


def _run(t):
  with tf.Session() as sess:
    return sess.run(t)


def _ref(fn, x):
  flat = x.reshape(-1, 3).astype(np.float64)
  return np.array([fn(*p) for p in flat]).reshape(x.shape)


@pytest.mark.parametrize("dtype,rtol", [(np.float32, 1e-5), (np.float64, 1e-12)])
def test_conversions_match_colorsys(dtype, rtol):
  x = np.random.RandomState(0).uniform(0, 1, (2, 5, 4, 3)).astype(dtype)
  with tf.Graph().as_default():
    hsv = _run(tf.image.rgb_to_hsv(tf.constant(x)))
    back = _run(tf.image.hsv_to_rgb(tf.constant(hsv)))
  np.testing.assert_allclose(hsv, _ref(colorsys.rgb_to_hsv, x), rtol=rtol, atol=rtol)
  np.testing.assert_allclose(back, x, rtol=rtol * 10, atol=rtol * 10)


def test_adjust_hue_and_saturation():
  x = np.random.RandomState(1).uniform(0, 1, (4, 4, 3)).astype(np.float32)
  hsv = _ref(colorsys.rgb_to_hsv, x)
  with tf.Graph().as_default():
    hue = _run(tf.image.adjust_hue(tf.constant(x), 0.25))
    sat = _run(tf.image.adjust_saturation(tf.constant(x), 0.5))
    u8 = _run(tf.image.adjust_hue(tf.constant((x * 255).astype(np.uint8)), -0.1))
  want_h = hsv.copy()
  want_h[..., 0] = (want_h[..., 0] + 0.25) % 1.0
  np.testing.assert_allclose(hue, _ref(colorsys.hsv_to_rgb, want_h), rtol=1e-5, atol=1e-5)
  want_s = hsv.copy()
  want_s[..., 1] *= 0.5
  np.testing.assert_allclose(sat, _ref(colorsys.hsv_to_rgb, want_s), rtol=1e-5, atol=1e-5)
  assert u8.dtype == np.uint8 and u8.shape == (4, 4, 3)


def test_random_hue_and_saturation_stay_in_range():
  x = np.random.RandomState(2).uniform(0, 1, (8, 8, 3)).astype(np.float32)
  with tf.Graph().as_default():
    h = _run(tf.image.random_hue(tf.constant(x), 0.2, seed=3))
    s = _run(tf.image.random_saturation(tf.constant(x), 0.5, 1.5, seed=3))
  for img in (h, s):
    assert img.shape == x.shape and img.min() >= -1e-6 and img.max() <= 1 + 1e-6
  # the value channel (max) is unchanged by hue and saturation changes
  np.testing.assert_allclose(h.max(-1), x.max(-1), rtol=1e-5)
  np.testing.assert_allclose(s.max(-1), x.max(-1), rtol=1e-5)
  with pytest.raises(ValueError):
    tf.image.random_hue(tf.constant(x), 0.7)
  with pytest.raises(ValueError):
    tf.image.random_saturation(tf.constant(x), 1.0, 0.5)


def test_bad_channels():
  with tf.Graph().as_default():
    with pytest.raises(ValueError):
      tf.image.rgb_to_hsv(tf.zeros([2, 4]))
    p = tf.placeholder(tf.float32, None)
    with tf.Session() as sess:
      with pytest.raises(tf.errors.InvalidArgumentError, match="3 channels"):
        sess.run(tf.image.hsv_to_rgb(p), {p: np.zeros((2, 2))})
