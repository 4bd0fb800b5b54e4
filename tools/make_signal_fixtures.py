#!/usr/bin/env python3
"""Writes tests/fixtures/signal/signal.npz: inputs and TensorFlow's outputs of
tf.signal / tf.spectral calls (windows, framing, overlap-add, STFT and its
inverse, DCT/IDCT, MDCT, mel matrices, MFCCs, fftshift, the FFT wrappers with
fft_length padding), for tests/python/test_signal.py, which makes the same
calls on tfc.

  .venv-tf/bin/python tools/make_signal_fixtures.py

Keys: "<case>.in<i>" for array arguments, "<case>.out" for the result. The
calls themselves live in tests/python/signal_cases.py, shared by both sides.
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(REPO, "tests", "python"))

import signal_cases  # noqa: E402  pylint: disable=wrong-import-position


def main():
  import tensorflow.compat.v1 as tf  # pylint: disable=g-import-not-at-top
  tf.disable_eager_execution()
  data = {}
  for name, build in signal_cases.cases():
    g = tf.Graph()
    with g.as_default():
      out, inputs = build(tf, np.random.RandomState(signal_cases.seed(name)))
      with tf.Session() as sess:
        value = sess.run(out)
    for i, v in enumerate(inputs):
      data["%s.in%d" % (name, i)] = v
    data["%s.out" % name] = value
    print("%-40s %s %s" % (name, value.dtype, value.shape))
  path = os.path.join(REPO, "tests", "fixtures", "signal", "signal.npz")
  np.savez_compressed(path, **data)
  print("wrote", path)


if __name__ == "__main__":
  main()
