"""Per-step cost of tf.train.MonitoredTrainingSession and of a summary every step,
in tfc and in TensorFlow, on seed 003's linear model (W * x + b, 4 examples,
GradientDescentOptimizer with a global step).

- overhead: MonitoredTrainingSession(checkpoint_dir=...).run(train, feed) with
  the default hooks (StepCounterHook, SummarySaverHook every 100 steps,
  CheckpointSaverHook every 600 s) minus a plain Session.run(train, feed) of
  the same graph;
- summary: Session.run([train, merged summary]) + FileWriter.add_summary every
  step minus Session.run(train);
- tracing: Session.run(train) with RunOptions() and a RunMetadata but no
  trace asked (must cost nothing) and with FULL_TRACE (step_stats filled).

Usage (repository root):  .venv/bin/python benchmarks/bench_monitored.py [--cpu]
Each framework runs in fresh processes (`... worker tfc|tf DIR [cpu]`),
alternating; inside a process the variants alternate in blocks of BLOCK steps
and the median block counts (the machine is shared). --cpu times blocks by the
process's CPU time (all its threads) instead of the wall clock: on a machine
shared by many builds the wall clock mostly measures waiting for a core.
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BLOCK = 400
BLOCKS = 9
ROUNDS = 3


def worker(framework, work, clock=time.perf_counter):
  """Times the variants in this process; prints JSON (seconds per step)."""
  if framework == "tf":
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow.compat.v1 as tf
    tf.disable_v2_behavior()
    tf.logging.set_verbosity(tf.logging.ERROR)
  else:
    import tfc as tf
  w = tf.Variable([0.1], tf.float32)
  b = tf.Variable([0.0], tf.float32)
  gs = tf.train.get_or_create_global_step()
  x = tf.placeholder(tf.float32)
  y = tf.placeholder(tf.float32)
  loss = tf.reduce_sum(tf.square(w * x + b - y))
  tf.summary.scalar("loss", loss)
  train = tf.train.GradientDescentOptimizer(0.01).minimize(loss, global_step=gs)
  summary_op = tf.summary.merge_all()
  feed = {x: [1.0, 2.0, 3.0, 4.0], y: [1.5, 3.5, 5.5, 7.5]}
  times = {"plain": [], "monitored": [], "plain2": [], "summary": [], "untraced": [],
           "traced": []}
  no_trace = tf.RunOptions()
  full_trace = tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE)
  plain = tf.Session()
  plain.run(tf.global_variables_initializer())
  writer = tf.summary.FileWriter(os.path.join(work, framework + "-summ"))
  mon = tf.train.MonitoredTrainingSession(checkpoint_dir=os.path.join(work, framework))

  def block(fn):
    t0 = clock()
    for _ in range(BLOCK):
      fn()
    return (clock() - t0) / BLOCK

  def run_summary():
    _, s = plain.run([train, summary_op], feed)
    writer.add_summary(s, 0)

  def run_untraced():
    plain.run(train, feed, options=no_trace, run_metadata=tf.RunMetadata())

  def run_traced():
    plain.run(train, feed, options=full_trace, run_metadata=tf.RunMetadata())

  for fn in (lambda: plain.run(train, feed), lambda: mon.run(train, feed), run_summary,
             run_untraced, run_traced):
    block(fn)  # warm-up
  for _ in range(BLOCKS):
    times["plain"].append(block(lambda: plain.run(train, feed)))
    times["monitored"].append(block(lambda: mon.run(train, feed)))
    times["plain2"].append(block(lambda: plain.run(train, feed)))
    times["summary"].append(block(run_summary))
    times["untraced"].append(block(run_untraced))
    times["traced"].append(block(run_traced))
  mon.close()
  writer.close()
  plain.close()
  print(json.dumps({k: statistics.median(v) for k, v in times.items()}))


def _run_json(py, *args):
  out = subprocess.run([py, os.path.abspath(__file__), *args], cwd="/tmp", capture_output=True,
                       text=True, check=True)
  return json.loads(out.stdout.strip().splitlines()[-1])


def collect(tfc_py, tf_py=None, cpu=False):
  """{"tfc": {...}, "tf": {...}}: seconds per step of each variant (best round)."""
  work = tempfile.mkdtemp(prefix="bench-monitored-")
  extra = ["cpu"] if cpu else []
  try:
    runs = {"tfc": [], "tf": []}
    for _ in range(ROUNDS):
      runs["tfc"].append(_run_json(tfc_py, "worker", "tfc", work, *extra))
      if tf_py:
        runs["tf"].append(_run_json(tf_py, "worker", "tf", work, *extra))
      shutil.rmtree(work, ignore_errors=True)
      os.makedirs(work)
    res = {}
    for fw, rs in runs.items():
      if rs:
        best = min(rs, key=lambda r: r["plain"])
        res[fw] = dict(best)
        res[fw]["overhead"] = best["monitored"] - best["plain"]
        res[fw]["summary_cost"] = best["summary"] - best["plain2"]
        res[fw]["untraced_cost"] = best["untraced"] - best["plain2"]
        res[fw]["traced_cost"] = best["traced"] - best["plain2"]
    res["uptime"] = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    res["clock"] = "process CPU time" if cpu else "wall clock"
    return res
  finally:
    shutil.rmtree(work, ignore_errors=True)


def markdown(res):
  """BENCHMARKS.md lines for collect()'s results."""
  us = lambda s: "%.1f µs" % (s * 1e6)  # noqa: E731
  t, f = res["tfc"], res.get("tf")
  lines = [
      "", "## MonitoredTrainingSession and summaries", "",
      "Seed 003's linear model; medians of %d alternating blocks of %d steps, best of %d "
      "fresh processes per framework, %s (`.venv/bin/python benchmarks/bench_monitored.py%s`; "
      "load: `%s`)." % (BLOCKS, BLOCK, ROUNDS, res.get("clock", "wall clock"),
                        " --cpu" if res.get("clock") == "process CPU time" else "",
                        res["uptime"]), "",
      "| per step | tfc | TensorFlow | TF / tfc |", "|---|---|---|---|"]
  for key, label in (("plain", "Session.run(train)"),
                     ("monitored", "MonitoredTrainingSession.run(train), default hooks"),
                     ("overhead", "overhead of MonitoredTrainingSession (target ≤ 10 µs)"),
                     ("summary", "Session.run([train, summary]) + add_summary"),
                     ("summary_cost", "cost of a summary every step"),
                     ("untraced_cost", "cost of RunOptions() + RunMetadata, no trace"),
                     ("traced_cost", "cost of FULL_TRACE (step_stats filled)")):
    lines.append("| %s | %s | %s | %s |" % (
        label, us(t[key]), us(f[key]) if f else "n/a",
        "%.1fx" % (f[key] / t[key]) if f and t[key] > 0 and f[key] > 0 else "n/a"))
  lines.append("")
  return lines


def main():
  if len(sys.argv) >= 4 and sys.argv[1] == "worker":
    cpu = len(sys.argv) >= 5 and sys.argv[4] == "cpu"
    worker(sys.argv[2], sys.argv[3], time.process_time if cpu else time.perf_counter)
    return
  tfc_py = os.path.join(ROOT, ".venv", "bin", "python")
  tf_py = os.path.join(ROOT, ".venv-tf", "bin", "python")
  res = collect(tfc_py, tf_py if os.path.exists(tf_py) else None, cpu="--cpu" in sys.argv[1:])
  print("\n".join(markdown(res)))
  print(json.dumps(res), file=sys.stderr)


if __name__ == "__main__":
  main()
