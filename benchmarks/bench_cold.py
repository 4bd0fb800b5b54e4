#!/usr/bin/env python3
"""Where a cold start goes: seed 000's task (load the farm's frozen CNN with
its ConfigProto, predict one image path) in a fresh process, phase by phase.

The child (cold_seed.py, a script as small as the seed's) runs the seed's
code as written (tf.gfile.GFile, tf.GraphDef + ParseFromString,
tf.import_graph_def with the seed's arguments, the ConfigProto with one
thread and opt_level L0, `with tf.Session(...)`,
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
  python cold_seed.py FRAMEWORK MODEL IMAGE   one child process
benchmarks/run.py calls collect() and markdown().
"""
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MODEL = os.path.join(ROOT, "tests", "fixtures", "farm", "frozen_model.pb")
IMAGE = os.path.join(ROOT, "tests", "fixtures", "farm", "input", "img0.jpg")
PHASES = ("numpy", "import", "parse", "import_graph", "session", "first_run")
NAMES = {"tfc": "tfc", "before": "tfc before", "tf": "TensorFlow"}


CHILD = os.path.join(HERE, "cold_seed.py")


def child(py, framework, model=MODEL, image=IMAGE):
  """Runs cold_seed.py (the seed's task) in a fresh process of `py`: (wall
  seconds, user + sys CPU seconds, {"class": predicted class, phase: wall
  seconds, phase + "_cpu": CPU seconds})."""
  wall, used, out = _process([py, CHILD, framework, model, image])
  fields = out.strip().splitlines()[-1].split()
  res = {"class": int(fields[0])}
  for i, p in enumerate(PHASES):
    res[p] = float(fields[1 + 2 * i])
    res[p + "_cpu"] = float(fields[2 + 2 * i])
  return wall, used, res


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
      w, c, phases = child(py, framework)
      res[fw]["numpy_total"].append(nw)
      res[fw]["numpy_total_cpu"].append(nc)
      res[fw]["total"].append(w)
      res[fw]["total_cpu"].append(c)
      res[fw]["share"].append(w - nw)
      res[fw]["share_cpu"].append(c - nc)
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
