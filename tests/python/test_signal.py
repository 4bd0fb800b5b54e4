"""tf.signal / tf.spectral against TensorFlow: the calls of signal_cases.py,
built on tfc, compared with the outputs TF gave for the same inputs
(tests/fixtures/signal/signal.npz, written by tools/make_signal_fixtures.py);
plus NumPy references and gradients checked by finite differences."""
import os

import numpy as np
import pytest

import tfc as tf
import signal_cases

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "signal", "signal.npz")
DATA = np.load(FIXTURE)
CASES = signal_cases.cases()


def _run(t):
  with tf.Session() as sess:
    return sess.run(t)


@pytest.mark.parametrize("name,build", CASES, ids=[n for n, _ in CASES])
def test_matches_tensorflow(name, build):
  with tf.Graph().as_default():
    out, inputs = build(tf, np.random.RandomState(signal_cases.seed(name)))
    for i, v in enumerate(inputs):
      np.testing.assert_array_equal(v, DATA["%s.in%d" % (name, i)])
    got = _run(out)
  want = DATA["%s.out" % name]
  assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape)
  scale = max(1.0, float(np.max(np.abs(want)))) if want.size else 1.0
  np.testing.assert_allclose(got, want, rtol=0, atol=2e-5 * scale, err_msg=name)


def test_windows_against_numpy():
  with tf.Graph().as_default():
    h = _run(tf.signal.hann_window(10, periodic=False, dtype=tf.float64))
    m = _run(tf.signal.hamming_window(10, periodic=False, dtype=tf.float64))
    k = _run(tf.signal.kaiser_window(11, beta=5.0, dtype=tf.float64))
  np.testing.assert_allclose(h, np.hanning(10), atol=1e-12)
  np.testing.assert_allclose(m, np.hamming(10), atol=1e-12)
  np.testing.assert_allclose(k, np.kaiser(11, 5.0), atol=1e-12)


def test_stft_against_numpy():
  rng = np.random.RandomState(3)
  x = rng.randn(400)
  with tf.Graph().as_default():
    s = _run(tf.signal.stft(tf.constant(x), 100, 40, fft_length=128, window_fn=None))
  frames = np.stack([x[i:i + 100] for i in range(0, 301, 40)])
  np.testing.assert_allclose(s, np.fft.rfft(frames, 128), atol=1e-9)


def test_dct_against_definition():
  rng = np.random.RandomState(4)
  x = rng.randn(3, 9)
  n = np.arange(9)
  k = n[:, None]
  with tf.Graph().as_default():
    d2 = _run(tf.signal.dct(tf.constant(x), type=2))
    d4 = _run(tf.signal.dct(tf.constant(x), type=4))
  want2 = 2 * x @ np.cos(np.pi * k * (2 * n + 1) / 18).T
  want4 = 2 * x @ np.cos(np.pi * (2 * k + 1) * (2 * n + 1) / 36).T
  np.testing.assert_allclose(d2, want2, atol=1e-10)
  np.testing.assert_allclose(d4, want4, atol=1e-10)


def test_dynamic_shapes():
  """frame / overlap_and_add / rfft with fft_length inferred at run time."""
  rng = np.random.RandomState(5)
  x = rng.randn(2, 37).astype(np.float32)
  with tf.Graph().as_default():
    p = tf.placeholder(tf.float32, [None, None])
    frames = tf.signal.frame(p, 8, 5)
    spec = tf.signal.rfft(p)
    back = tf.signal.overlap_and_add(frames, 5)
    with tf.Session() as sess:
      f, s, b = sess.run([frames, spec, back], {p: x})
  want = np.stack([x[:, i:i + 8] for i in range(0, 30, 5)], 1)
  np.testing.assert_array_equal(f, want)
  np.testing.assert_allclose(s, np.fft.rfft(x), atol=1e-4)
  assert b.shape == (2, 33)


def test_errors():
  with tf.Graph().as_default():
    with pytest.raises(ValueError):
      tf.signal.dct(tf.zeros([3, 4]), type=5)
    with pytest.raises(ValueError):
      tf.signal.dct(tf.zeros([3, 4]), type=1, norm="ortho")
    with pytest.raises(NotImplementedError):
      tf.signal.dct(tf.zeros([3, 4]), axis=0)
    with pytest.raises(ValueError):
      tf.signal.mdct(tf.zeros([30]), 10)
    with pytest.raises(ValueError):
      tf.signal.hann_window(4, dtype=tf.int32)
    with pytest.raises(ValueError):
      tf.signal.linear_to_mel_weight_matrix(upper_edge_hertz=5000.0)
    with pytest.raises(ValueError):
      tf.signal.overlap_and_add(tf.zeros([3, 4]), 1.5)


def _grad_error(build, shape, seed=0):
  rng = np.random.RandomState(seed)
  with tf.Graph().as_default():
    data = rng.randn(*shape)
    x = tf.constant(data)
    y = build(x)
    with tf.Session() as sess:
      y_shape = list(sess.run(y).shape)
      return tf.test.compute_gradient_error(x, list(shape), y, y_shape, x_init_value=data)


@pytest.mark.parametrize("name,build,shape", [
    ("frame", lambda x: tf.signal.frame(x, 4, 3, pad_end=True), (2, 11)),
    ("overlap_and_add", lambda x: tf.signal.overlap_and_add(x, 3), (2, 4, 5)),
    ("stft_magnitude", lambda x: tf.abs(tf.signal.stft(x, 8, 4)), (2, 24)),
    ("inverse_stft", lambda x: tf.signal.inverse_stft(
        tf.complex(x, x * 0.5), 8, 4, fft_length=8), (2, 3, 5)),
    ("dct2_ortho", lambda x: tf.signal.dct(x, norm="ortho"), (3, 6)),
    ("dct3", lambda x: tf.signal.dct(x, type=3), (3, 6)),
    ("mdct", lambda x: tf.signal.mdct(x, 8), (2, 24)),
    ("mfcc", lambda x: tf.signal.mfccs_from_log_mel_spectrograms(x), (2, 10)),
    ("fftshift", lambda x: tf.signal.fftshift(x), (3, 4)),
])
def test_gradients(name, build, shape):
  # |z| bends sharply near a small spectral magnitude, so a central
  # difference of it is less exact there (1.04e-4 in an -O1 build)
  tol = 1e-3 if name == "stft_magnitude" else 1e-4
  assert _grad_error(build, shape) < tol, name
