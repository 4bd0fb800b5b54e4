"""Writes tests/fixtures/optimizers/more_optimizers_tf.json: four training steps of
TensorFlow's Adadelta, ProximalGradientDescent, ProximalAdagrad and Ftrl optimizers (TF 1.x
graph mode, ref variables) on a small quadratic, with their slot names.

    .venv-tf/bin/python tools/make_optimizer_fixtures.py

tests/python/test_more_optimizers.py runs the same scenarios (SCENARIOS below) in tfc and
compares.
"""
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "tests", "fixtures", "optimizers", "more_optimizers_tf.json")

SCENARIOS = [
    ("AdadeltaOptimizer", dict(learning_rate=0.5, rho=0.9, epsilon=1e-6)),
    ("ProximalGradientDescentOptimizer", dict(learning_rate=0.1, l1_regularization_strength=0.05,
                                              l2_regularization_strength=0.1)),
    ("ProximalAdagradOptimizer", dict(learning_rate=0.3, l1_regularization_strength=0.1,
                                      l2_regularization_strength=0.2)),
    ("FtrlOptimizer", dict(learning_rate=0.3, l1_regularization_strength=0.01,
                           l2_regularization_strength=0.1)),
    ("FtrlOptimizer", dict(learning_rate=0.3, learning_rate_power=-0.7,
                           l1_regularization_strength=0.5)),
    ("FtrlOptimizer", dict(learning_rate=0.3, l2_shrinkage_regularization_strength=0.2,
                           l2_regularization_strength=0.1)),
]


def run(tf, name, kwargs, dtype, steps=4):
  """Values of the variable after each step, the slot names and the slot variables' names."""
  graph = tf.Graph()
  with graph.as_default():
    var = tf.Variable(np.array([1.0, -2.0, 3.0, 0.05], dtype), name="v")
    c = tf.constant(np.array([1.0, 2.0, -3.0, 0.5], dtype))
    loss = tf.reduce_sum(var * var * c + var)
    opt = getattr(tf.train, name)(**kwargs)
    step = opt.minimize(loss)
    slots = sorted(opt.get_slot_names())
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      values = []
      for _ in range(steps):
        sess.run(step)
        values.append(sess.run(var).tolist())
    return values, slots, [opt.get_slot(var, s).op.name for s in slots]


def main():
  import tensorflow.compat.v1 as tf  # pylint: disable=g-import-not-at-top
  tf.disable_v2_behavior()
  out = {}
  for i, (name, kwargs) in enumerate(SCENARIOS):
    for dtype in (np.float32, np.float64):
      try:
        out["%d_%s" % (i, np.dtype(dtype).name)] = run(tf, name, kwargs, dtype)
      except TypeError as e:  # TF's proximal optimizers do not cast their float32 hyper-parameters
        print("TensorFlow cannot run %s in %s: %s" % (name, np.dtype(dtype).name, e))
  with open(OUT, "w") as f:
    json.dump(out, f, indent=0, sort_keys=True)
  return 0


if __name__ == "__main__":
  sys.exit(main())
