#!/usr/bin/env python3
"""Where a cold start goes: seed 000's task (load the farm's frozen CNN with
its ConfigProto, predict one image path) in a fresh process, phase by phase.

The child runs the seed's code as written (tf.gfile.GFile, tf.GraphDef +
ParseFromString, tf.import_graph_def with the seed's arguments, the
ConfigProto with one thread and opt_level L0, `with tf.Session(...)`,
`sess.run(tf.squeeze(y), feed_dict={x: image})`). Phases, each the median
over fresh processes of one framework, wall time and CPU time (user + sys of
the process, time.process_time):
  interpreter   `python -c pass` (start-up and site), measured from outside
  numpy         `import numpy` on top of it
  import        `import tfc` (or tensorflow.compat.v1) over NumPy
  parse         GFile read + tf.GraphDef() + ParseFromString (the first
                message use: protobuf's modules and tfc's message classes)
  import_graph  tf.import_graph_def into a new Graph
  session       the ConfigProto, tf.Session(graph, config) and tf.squeeze
  first run     the first sess.run (kernels built, libraries loaded lazily)
Whole processes are also timed from outside (wall, and user + sys CPU from
wait4), beside a bare `python -c "import numpy"` process in the same
rotation: "share" is the seed's process minus that one, the definition of
tfc's own share of a cold start.

The installed package is measured as a user has it: from /tmp (so the
source folder cannot shadow it), with the bytecode pip compiled at install
time (PYTHONDONTWRITEBYTECODE does not matter then: nothing is recompiled).

Usage:
  python bench_cold.py [RUNS] [--tfc-only] [--before PYTHON]
      tfc (this interpreter) beside TensorFlow (.venv-tf), and optionally a
      second tfc install (PYTHON, e.g. a build of an earlier commit), all in
      one rotation so they see the same machine load; markdown table
  python bench_cold.py child FRAMEWORK MODEL IMAGE   one process (prints JSON)
benchmarks/run.py calls collect() and markdown().
"""
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MODEL = os.path.join(ROOT, "tests", "fixtures", "farm", "frozen_model.pb")
IMAGE = os.path.join(ROOT, "tests", "fixtures", "farm", "input", "img0.jpg")
PHASES = ("numpy", "import", "parse", "import_graph", "session", "first_run")
NAMES = {"tfc": "tfc", "before": "tfc before", "tf": "TensorFlow"}


def child(framework, model, image):
  """Runs the seed's task once; {phase: wall seconds, phase + "_cpu": CPU
  seconds} after this module's own start, and the predicted class."""
  clock, cpu = time.perf_counter, time.process_time
  marks = [(clock(), cpu())]
  import numpy  # noqa: F401
  marks.append((clock(), cpu()))
  if framework == "tfc":
    import tfc as tf
  else:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow.compat.v1 as tf
    tf.disable_eager_execution()
  marks.append((clock(), cpu()))
  with tf.gfile.GFile(model, "rb") as f:
    graph_def = tf.GraphDef()
    graph_def.ParseFromString(f.read())
  marks.append((clock(), cpu()))
  with tf.Graph().as_default() as graph:
    tf.import_graph_def(graph_def, input_map=None, return_elements=None, name="", op_dict=None,
                        producer_op_list=None)
  marks.append((clock(), cpu()))
  config = tf.ConfigProto(inter_op_parallelism_threads=1, intra_op_parallelism_threads=1)
  config.graph_options.optimizer_options.opt_level = config.graph_options.optimizer_options.L0
  x = graph.get_tensor_by_name("image_path:0")
  y = graph.get_tensor_by_name("output:0")
  with tf.Session(graph=graph, config=config) as sess:
    squeezed = tf.squeeze(y)
    marks.append((clock(), cpu()))
    cls = int(sess.run(squeezed, feed_dict={x: image}))
    marks.append((clock(), cpu()))
  out = {"class": cls}
  for i, p in enumerate(PHASES):
    out[p] = marks[i + 1][0] - marks[i][0]
    out[p + "_cpu"] = marks[i + 1][1] - marks[i][1]
  return out


def _median(xs):
  xs = sorted(xs)
  n = len(xs)
  return xs[n // 2] if n % 2 else 0.5 * (xs[n // 2 - 1] + xs[n // 2])


def _process(argv):
  """Runs argv from /tmp; (wall seconds, user + sys CPU seconds, stdout)."""
  import subprocess
  t0 = time.perf_counter()
  p = subprocess.Popen(argv, cwd="/tmp", stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
  out = p.stdout.read()
  _, status, usage = os.wait4(p.pid, 0)
  wall = time.perf_counter() - t0
  p.returncode = os.waitstatus_to_exitcode(status)
  if p.returncode:
    raise RuntimeError("%s exited with %d" % (argv, p.returncode))
  return wall, usage.ru_utime + usage.ru_stime, out.decode()


def collect(pys, runs=9):
  """{framework: {key: median seconds}} for pys = {"tfc": python, "tf": python,
  optionally "before": python}, the frameworks alternating in each round.
  Keys: the phases (wall) and phase + "_cpu"; "interpreter" (python -c pass),
  "total"/"total_cpu" (the seed's process from outside), "numpy_total"/
  "numpy_total_cpu" (python -c "import numpy"), and "share"/"share_cpu":
  the median over rounds of the seed's process minus the numpy process."""
  keys = [p for p in PHASES] + [p + "_cpu" for p in PHASES] + [
      "interpreter", "total", "total_cpu", "numpy_total", "numpy_total_cpu", "share", "share_cpu"]
  res = {fw: {k: [] for k in keys} for fw in pys}
  for _ in range(runs):
    for fw, py in pys.items():
      res[fw]["interpreter"].append(_process([py, "-c", "pass"])[0])
      nw, nc, _ = _process([py, "-c", "import numpy"])
      framework = "tf" if fw == "tf" else "tfc"
      w, c, out = _process([py, os.path.abspath(__file__), "child", framework, MODEL, IMAGE])
      res[fw]["numpy_total"].append(nw)
      res[fw]["numpy_total_cpu"].append(nc)
      res[fw]["total"].append(w)
      res[fw]["total_cpu"].append(c)
      res[fw]["share"].append(w - nw)
      res[fw]["share_cpu"].append(c - nc)
      phases = json.loads(out.strip().splitlines()[-1])
      for p in PHASES:
        res[fw][p].append(phases[p])
        res[fw][p + "_cpu"].append(phases[p + "_cpu"])
  return {fw: {k: _median(v) for k, v in d.items()} for fw, d in res.items()}


def markdown(res):
  """BENCHMARKS.md lines for collect()'s result: wall / CPU ms per phase."""
  fws = [fw for fw in ("tfc", "before", "tf") if fw in res]
  ms = lambda s: "%.1f" % (s * 1e3)
  lines = ["| phase (median, ms: wall / CPU) | " + " | ".join(NAMES[f] for f in fws) + " |",
           "|---|" + "---|" * len(fws)]
  rows = [("interpreter (`python -c pass`)", "interpreter", None)]
  rows += [(p.replace("_", " "), p, p + "_cpu") for p in PHASES]
  rows += [("whole process", "total", "total_cpu"),
           ("`python -c \"import numpy\"` process", "numpy_total", "numpy_total_cpu"),
           ("share: whole process minus the numpy process", "share", "share_cpu")]
  for label, wall, cpu in rows:
    cells = [ms(res[f][wall]) + (" / " + ms(res[f][cpu]) if cpu else "") for f in fws]
    lines.append("| %s | %s |" % (label, " | ".join(cells)))
  for f in fws:
    if f == "tf":
      continue
    t = res[f]
    lines.append("")
    lines.append("%s: import through first run %s ms wall / %s ms CPU; share %s ms wall / %s ms "
                 "CPU" % (NAMES[f], ms(sum(t[p] for p in PHASES[1:])),
                          ms(sum(t[p + "_cpu"] for p in PHASES[1:])), ms(t["share"]),
                          ms(t["share_cpu"])))
    if "tf" in res:
      tf = res["tf"]
      lines.append("%s: whole cold start %.1fx faster than TensorFlow's (wall), %.1fx (CPU)"
                   % (NAMES[f], tf["total"] / t["total"], tf["total_cpu"] / t["total_cpu"]))
  return lines


def main(argv):
  if argv and argv[0] == "child":
    print(json.dumps(child(argv[1], argv[2], argv[3])))
    return 0
  runs = 9
  pys = {"tfc": sys.executable}
  rest = list(argv)
  while rest:
    a = rest.pop(0)
    if a == "--before":
      pys["before"] = rest.pop(0)
    elif a.isdigit():
      runs = int(a)
  tf_py = os.path.join(ROOT, ".venv-tf", "bin", "python")
  if os.path.exists(tf_py) and "--tfc-only" not in argv:
    pys["tf"] = tf_py
  print("load before: %s" % os.getloadavg()[0])
  print("\n".join(markdown(collect(pys, runs))))
  print("load after: %s" % os.getloadavg()[0])
  return 0


if __name__ == "__main__":
  sys.exit(main(sys.argv[1:]))
