#!/usr/bin/env python3
"""Where a cold start goes: seed 000's task (load the farm's frozen CNN with
its ConfigProto, predict one image path) in a fresh process, phase by phase.

Phases, each the median over fresh processes of one framework:
  interpreter   `python -c pass` (start-up and site)
  numpy         `import numpy` on top of it
  import        `import tfc` (or tensorflow.compat.v1) over NumPy
  parse         tf.GraphDef() + ParseFromString of the file's bytes (the first
                message use: protobuf's modules and tfc's message classes)
  import_graph  tf.import_graph_def into a new Graph
  session       tf.Session(graph, config) with the seed's ConfigProto
  first run     the first sess.run (kernels built, libraries loaded lazily)

Usage:
  python bench_cold.py [RUNS]                 tfc (this interpreter), markdown table
  python bench_cold.py child FRAMEWORK MODEL IMAGE   one process (prints JSON)
benchmarks/run.py calls collect() and markdown().
"""
import json
import os
import sys
import time

T0 = time.perf_counter()
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MODEL = os.path.join(ROOT, "tests", "fixtures", "farm", "frozen_model.pb")
IMAGE = os.path.join(ROOT, "tests", "fixtures", "farm", "input", "img0.jpg")
PHASES = ("numpy", "import", "parse", "import_graph", "session", "first_run")


def child(framework, model, image):
  """Runs the task once, returning seconds per phase (after this module's own start)."""
  marks = [time.perf_counter()]
  import numpy  # noqa: F401
  marks.append(time.perf_counter())
  if framework == "tfc":
    import tfc as tf
  else:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow.compat.v1 as tf
    tf.disable_eager_execution()
  marks.append(time.perf_counter())
  with open(model, "rb") as f:
    data = f.read()
  graph_def = tf.GraphDef()
  graph_def.ParseFromString(data)
  marks.append(time.perf_counter())
  graph = tf.Graph()
  with graph.as_default():
    tf.import_graph_def(graph_def, name="")
  marks.append(time.perf_counter())
  config = tf.ConfigProto(inter_op_parallelism_threads=1, intra_op_parallelism_threads=1)
  config.graph_options.optimizer_options.opt_level = config.graph_options.optimizer_options.L0
  sess = tf.Session(graph=graph, config=config)
  marks.append(time.perf_counter())
  x = graph.get_tensor_by_name("image_path:0")
  y = graph.get_tensor_by_name("output:0")
  cls = int(sess.run(y, feed_dict={x: image})[0])
  marks.append(time.perf_counter())
  sess.close()
  out = {p: marks[i + 1] - marks[i] for i, p in enumerate(PHASES)}
  out["class"] = cls
  return out


def _median(xs):
  xs = sorted(xs)
  n = len(xs)
  return xs[n // 2] if n % 2 else 0.5 * (xs[n // 2 - 1] + xs[n // 2])


def collect(pys, runs=9):
  """{framework: {phase: median seconds, "total": ..., "interpreter": ...}}
  for pys = {"tfc": python, "tf": python}, the frameworks alternating."""
  import subprocess
  res = {fw: {p: [] for p in PHASES + ("interpreter", "total")} for fw in pys}
  for _ in range(runs):
    for fw, py in pys.items():
      t0 = time.perf_counter()
      subprocess.run([py, "-c", "pass"], check=True, cwd="/tmp")
      res[fw]["interpreter"].append(time.perf_counter() - t0)
      t0 = time.perf_counter()
      out = subprocess.run([py, os.path.abspath(__file__), "child", fw, MODEL, IMAGE],
                           check=True, capture_output=True, text=True, cwd="/tmp").stdout
      res[fw]["total"].append(time.perf_counter() - t0)
      phases = json.loads(out.strip().splitlines()[-1])
      for p in PHASES:
        res[fw][p].append(phases[p])
  return {fw: {k: _median(v) for k, v in d.items()} for fw, d in res.items()}


def markdown(res):
  """BENCHMARKS.md lines for collect()'s result."""
  fws = [fw for fw in ("tfc", "tf") if fw in res]
  names = {"tfc": "tfc", "tf": "TensorFlow"}
  lines = ["| phase (median, ms) | " + " | ".join(names[f] for f in fws) + " |",
           "|---|" + "---|" * len(fws)]
  for p in ("interpreter",) + PHASES + ("total",):
    lines.append("| %s | %s |" % (p.replace("_", " "),
                                 " | ".join("%.1f" % (res[f][p] * 1e3) for f in fws)))
  t = res["tfc"]
  share = sum(t[p] for p in PHASES[1:])
  lines.append("")
  lines.append("tfc's own share (import through first run): %.1f ms" % (share * 1e3))
  return lines


def main(argv):
  if argv and argv[0] == "child":
    print(json.dumps(child(argv[1], argv[2], argv[3])))
    return 0
  numbers = [a for a in argv if not a.startswith("--")]
  runs = int(numbers[0]) if numbers else 9
  pys = {"tfc": sys.executable}
  tf_py = os.path.join(ROOT, ".venv-tf", "bin", "python")
  if os.path.exists(tf_py) and "--tfc-only" not in argv:
    pys["tf"] = tf_py
  print("\n".join(markdown(collect(pys, runs))))
  return 0


if __name__ == "__main__":
  sys.exit(main(sys.argv[1:]))
