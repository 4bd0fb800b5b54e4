"""tf.py_func overhead: a session step whose only work is one Python function (identity on a
1,000-float array) in tfc and in TensorFlow, in one process, rounds alternating; and the
same step with 4 Python-function ops in parallel branches.

Usage (repository root):  .venv-tf/bin/python benchmarks/bench_py_func.py
(the TF venv with tfc importable: the script puts the repository on sys.path). Prints the
median microseconds per step of each framework and their ratio.
"""
import os
import statistics
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STEPS = 2000
ROUNDS = 5


def build(tf, n_funcs):
  graph = tf.Graph()
  with graph.as_default():
    x = tf.constant(np.arange(1000, dtype=np.float32))
    outs = [tf.py_func(lambda a: a, [x], tf.float32) for _ in range(n_funcs)]
    sess = tf.Session(graph=graph)
  return sess, outs


def time_steps(sess, fetch):
  sess.run(fetch)
  t0 = time.perf_counter()
  for _ in range(STEPS):
    sess.run(fetch)
  return (time.perf_counter() - t0) / STEPS * 1e6


def main():
  sys.path.insert(0, ROOT)
  import tfc  # pylint: disable=g-import-not-at-top
  import tensorflow.compat.v1 as tf  # pylint: disable=g-import-not-at-top
  tf.disable_eager_execution()
  for n in (1, 4):
    sessions = {"tfc": build(tfc, n), "tf": build(tf, n)}
    times = {"tfc": [], "tf": []}
    for _ in range(ROUNDS):
      for name in ("tfc", "tf"):
        sess, outs = sessions[name]
        times[name].append(time_steps(sess, outs))
    med = {k: statistics.median(v) for k, v in times.items()}
    print("py_func x%d per step: tfc %.1f us, TF %.1f us, TF/tfc %.2fx"
          % (n, med["tfc"], med["tf"], med["tf"] / med["tfc"]))
  return 0


if __name__ == "__main__":
  sys.exit(main())
