"""Embedding lookup + sparse optimizer steps on a large table, tfc beside TensorFlow.

Usage:
  python benchmarks/bench_sparse.py                  # both frameworks, a table of ratios
  python bench_sparse.py FRAMEWORK ROWS DIM OPTIMIZER [resource]
                                                   # one run ('tfc' or 'tf'), JSON

Each framework, in a fresh process, builds the same graph: a [ROWS, DIM]
float32 embedding variable (1M x 64 by default, 256 MB), a batch of 4096 ids
(random, with repeats) looked up with tf.nn.embedding_lookup, a squared
error against fed targets, and one optimizer's minimize() whose gradient is
an IndexedSlices. It reports the median seconds of a training step for
Adam (TF 1.x's sparse path: m and v of every row decay, so a step touches
the whole table in both frameworks), Adagrad and Momentum (only the looked-up
rows), the resident memory growth over the timed steps (MB; a step must not
keep memory), and the peak resident memory during the steps above the
memory before them (MB, sampled every millisecond: the per-step temporaries).
With `resource` the table is a resource variable (use_resource=True): the
updates are then ResourceSparseApply* / ResourceScatterAdd in both frameworks.
The full run reports both kinds.
"""
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
BATCH = 4096
STEPS = 10


def load(framework):
  if framework == "tfc":
    sys.path.insert(0, REPO)
    import tfc as tf
    return tf
  os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
  import tensorflow.compat.v1 as tf
  tf.disable_v2_behavior()
  tf.disable_resource_variables()
  return tf


def rss_mb():
  with open("/proc/self/statm") as f:
    return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


class _PeakSampler(object):
  """Samples the resident memory every millisecond on a thread; `peak` is the
  highest value seen while running."""

  def __init__(self):
    import threading
    self.peak = rss_mb()
    self._stop = threading.Event()
    self._thread = threading.Thread(target=self._run, daemon=True)

  def _run(self):
    while not self._stop.wait(0.001):
      self.peak = max(self.peak, rss_mb())

  def __enter__(self):
    self._thread.start()
    return self

  def __exit__(self, *unused):
    self._stop.set()
    self._thread.join()


OPTIMIZERS = {"adam": lambda tf: tf.train.AdamOptimizer(0.001),
              "adagrad": lambda tf: tf.train.AdagradOptimizer(0.1),
              "momentum": lambda tf: tf.train.MomentumOptimizer(0.01, 0.9)}


def run(framework, rows, dim, name, use_resource=False):
  """One optimizer in this process (so the peak memory is its own)."""
  import numpy as np
  tf = load(framework)
  rng = np.random.RandomState(0)
  batches = [(rng.randint(0, rows, BATCH).astype(np.int64),
              rng.randn(BATCH, dim).astype(np.float32)) for _ in range(4)]
  result = {"rows": rows, "dim": dim, "batch": BATCH}
  make = OPTIMIZERS[name]
  if True:
    g = tf.Graph()
    with g.as_default():
      table = tf.Variable(tf.random_uniform([rows, dim], -0.05, 0.05), name="table",
                          use_resource=use_resource)
      ids = tf.placeholder(tf.int64, [BATCH])
      target = tf.placeholder(tf.float32, [BATCH, dim])
      emb = tf.nn.embedding_lookup(table, ids)
      loss = tf.reduce_mean(tf.square(emb - target))
      grad, = tf.gradients(loss, [table])
      assert type(grad).__name__ == "IndexedSlices", type(grad)
      train = make(tf).minimize(loss)
      with tf.Session(graph=g) as sess:
        sess.run(tf.global_variables_initializer())
        for i in range(2):  # warm-up
          sess.run(train, {ids: batches[i][0], target: batches[i][1]})
        base = rss_mb()
        times = []
        with _PeakSampler() as sampler:
          for i in range(STEPS):
            b = batches[i % len(batches)]
            t0 = time.perf_counter()
            sess.run(train, {ids: b[0], target: b[1]})
            times.append(time.perf_counter() - t0)
        result[name + "_step_s"] = statistics.median(times)
        result[name + "_rss_growth_mb"] = rss_mb() - base
        result[name + "_peak_above_state_mb"] = max(0.0, sampler.peak - base)
  return result


def _run_json(py, framework, rows, dim, use_resource=False):
  res = {}
  for name in OPTIMIZERS:
    args = [py, os.path.abspath(__file__), framework, str(rows), str(dim), name]
    if use_resource:
      args.append("resource")
    out = subprocess.run(args, capture_output=True, text=True, check=True, cwd=REPO)
    res.update(json.loads(out.stdout.strip().splitlines()[-1]))
  return res


def main():
  if len(sys.argv) > 1:
    rows = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000
    dim = int(sys.argv[3]) if len(sys.argv) > 3 else 64
    name = sys.argv[4] if len(sys.argv) > 4 else "adam"
    use_resource = len(sys.argv) > 5 and sys.argv[5] == "resource"
    print(json.dumps(run(sys.argv[1], rows, dim, name, use_resource)))
    return 0
  tfc_py = os.path.join(REPO, ".venv", "bin", "python")
  tf_py = os.path.join(REPO, ".venv-tf", "bin", "python")
  for rows, use_resource in ((250_000, False), (1_000_000, False), (1_000_000, True)):
    a = _run_json(tfc_py, "tfc", rows, 64, use_resource)
    b = _run_json(tf_py, "tf", rows, 64, use_resource) if os.path.exists(tf_py) else None
    print("%s table %d x 64, batch %d (load %s)" % (
        "resource" if use_resource else "ref", rows, BATCH, os.getloadavg()[0]))
    for name in ("adam", "adagrad", "momentum"):
      line = "  %-9s tfc %.4f s/step, rss growth %+.1f MB, peak above state %.0f MB" % (
          name, a[name + "_step_s"], a[name + "_rss_growth_mb"],
          a[name + "_peak_above_state_mb"])
      if b:
        line += " | tf %.4f s/step, growth %+.1f MB, peak %.0f MB | tfc %.2fx" % (
            b[name + "_step_s"], b[name + "_rss_growth_mb"], b[name + "_peak_above_state_mb"],
            b[name + "_step_s"] / a[name + "_step_s"])
      print(line)
  return 0


if __name__ == "__main__":
  sys.exit(main())
