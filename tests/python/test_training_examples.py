"""Runs examples/linear_regression.py (the seed-003 linear model trained with minimize)."""
import importlib.util
import pathlib

import numpy as np
import pytest

import tfc as tf

EXAMPLE = pathlib.Path(__file__).resolve().parents[2] / "examples" / "linear_regression.py"


def _gradients_missing():
  """Why minimize() cannot run yet on the example's graph, or None when it can."""
  if not hasattr(tf, "gradients"):
    return "tf.gradients is not implemented yet"
  with tf.Graph().as_default():
    W = tf.Variable([0.1])
    b = tf.Variable([0.0])
    x = tf.placeholder(tf.float32)
    try:
      tf.gradients(tf.reduce_sum(tf.square(W * x + b - x)), [W, b])
    except (LookupError, NotImplementedError) as e:
      return "tf.gradients cannot differentiate the example yet: %s" % e
  return None


def test_linear_regression_example(capsys):
  reason = _gradients_missing()
  if reason:
    pytest.skip(reason)
  spec = importlib.util.spec_from_file_location("linear_regression", EXAMPLE)
  mod = importlib.util.module_from_spec(spec)
  spec.loader.exec_module(mod)
  with tf.Graph().as_default():
    W, b, cost, step = mod.main()
  np.testing.assert_allclose(W, [2.0], atol=1e-4)
  np.testing.assert_allclose(b, [-0.5], atol=1e-4)
  assert cost < 1e-6
  assert step == 1000
  assert "W: " in capsys.readouterr().out
