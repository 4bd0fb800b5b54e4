#!/usr/bin/env python3
"""Inference benchmarks: tfc against real TensorFlow on frozen graphs.

  a. cold start of one task: a fresh interpreter imports the framework, loads
     the task farm's frozen CNN (tests/fixtures/farm/frozen_model.pb) with the
     ConfigProto seed 000 writes (one thread, opt_level L0) and predicts one
     image path; median wall time over several processes, beside the same
     child program that only imports NumPy (tfc's own share is the difference);
  b. steady-state inference: images/s at batch 1 on one thread (intra = inter
     = 1) and at batch 32 on two threads, for the small CNN (fed an image path,
     or a decoded image through an input_map) and for MobileNetV2 and ResNet50
     frozen by tools/make_compat_fixtures.py (build/compat/<name>/);
  c. loading a ~100 MB frozen graph written by TensorFlow (four 2560x2560
     Const matrices and MatMuls): reading the file vs parsing and importing it;
  d. the task farm: examples/task_farm.py --runner processes --workers 2 over
     500 generated images (build/bench/farm500), the very same script run by
     both frameworks (TensorFlow through a `tfc` module that is tf.compat.v1).

Usage (repository root, with the tfc venv):
  .venv/bin/python benchmarks/bench_infer.py            all of it, tfc and TensorFlow
  .venv/bin/python benchmarks/bench_infer.py --quick    a few-second smoke run, tfc only
benchmarks/run.py calls collect() and markdown() for BENCHMARKS.md.

Every measurement runs in a fresh process per framework, the two frameworks
alternately, and the report gives medians and ratios from the same run. The
same file is the child program (`bench_infer.py child MODE FRAMEWORK ...`),
which prints one JSON object on its last line.
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
THIS = os.path.abspath(__file__)
FARM = os.path.join(ROOT, "tests", "fixtures", "farm")
SMALL_MODEL = os.path.join(FARM, "frozen_model.pb")
SMALL_IMAGE = os.path.join(FARM, "input", "img0.jpg")
BENCH_DIR = os.path.join(ROOT, "build", "bench")
COMPAT_DIR = os.path.join(ROOT, "build", "compat")
DEEP_NETS = ("mobilenet_v2", "resnet50")
DISPLAY = {"mobilenet_v2": "MobileNetV2", "resnet50": "ResNet50"}
FARM_IMAGES = 500
BIG_DIM, BIG_LAYERS = 2560, 4          # 4 x 2560^2 float32 = 105 MB of constants


# ====================================================================== child side

def load_framework(framework):
  """The TF-1.x-shaped module: tfc, or TensorFlow's compat.v1 in graph mode
  (None for "numpy": the cold-start baseline, which imports NumPy only)."""
  if framework == "numpy":
    import numpy  # noqa: F401
    return None
  if framework == "tfc":
    import tfc as tf
    return tf
  os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
  import tensorflow.compat.v1 as tf
  return tf


def _config(tf, threads):
  return tf.ConfigProto(inter_op_parallelism_threads=threads,
                        intra_op_parallelism_threads=threads)


def _read_graph_def(tf, path):
  with tf.gfile.GFile(path, "rb") as f:
    graph_def = tf.GraphDef()
    graph_def.ParseFromString(f.read())
  return graph_def


def child_cold(tf, model, image):
  """One farm task, as a fresh process would run it (seed 000's code: its
  ConfigProto, load, one prediction); with tf None, nothing (the baseline)."""
  if tf is None:
    return {"class": -1}
  config = _config(tf, 1)
  config.graph_options.optimizer_options.opt_level = \
      config.graph_options.optimizer_options.L0
  graph = tf.Graph()
  with graph.as_default():
    tf.import_graph_def(_read_graph_def(tf, model), name="")
  x = graph.get_tensor_by_name("image_path:0")
  y = graph.get_tensor_by_name("output:0")
  with tf.Session(graph=graph, config=config) as sess:
    return {"class": int(sess.run(y, feed_dict={x: image})[0])}


def _per_run_seconds(fn, budget, repeats):
  """Seconds per call of fn in each of `repeats` rounds of about `budget` s
  (after two warm-up calls)."""
  fn()
  t0 = time.perf_counter()
  fn()
  one = time.perf_counter() - t0
  calls = max(1, int(budget / max(one, 1e-6)))
  rounds = []
  for _ in range(repeats):
    t0 = time.perf_counter()
    for _ in range(calls):
      fn()
    rounds.append((time.perf_counter() - t0) / calls)
  return rounds


def child_steady(tf, model, batch, threads, budget, repeats, compat_dir):
  """Images/s of one model at one batch size and thread count."""
  import numpy as np
  graph = tf.Graph()
  rng = np.random.RandomState(0)
  with graph.as_default():
    if model == "small_path":
      tf.import_graph_def(_read_graph_def(tf, os.path.join(FARM, "frozen_model.pb")), name="")
      x = graph.get_tensor_by_name("image_path:0")
      y = graph.get_tensor_by_name("output:0")
      feed = SMALL_IMAGE
      assert batch == 1
    elif model == "small_decoded":
      # the decoded, scaled image replaces the path -> ReadFile -> decode part
      x = tf.placeholder(tf.float32, [None, None, None, 3], name="decoded")
      tf.import_graph_def(_read_graph_def(tf, os.path.join(FARM, "frozen_model.pb")),
                          input_map={"batch:0": x}, name="")
      y = graph.get_tensor_by_name("output:0")
      feed = rng.rand(batch, 40, 48, 3).astype(np.float32)
    else:
      d = os.path.join(compat_dir, model)
      with open(os.path.join(d, "meta.json")) as f:
        meta = json.load(f)
      shape = list(meta["shape"])
      graph_def = _read_graph_def(tf, os.path.join(d, "model.pb"))
      if shape[0] is None:
        tf.import_graph_def(graph_def, name="")
        x = graph.get_tensor_by_name(meta["input"])
      else:  # a fixed batch size: feed through a placeholder of any batch size
        x = tf.placeholder(tf.float32, [None] + shape[1:], name="bench_input")
        tf.import_graph_def(graph_def, input_map={meta["input"]: x}, name="")
      # the predicted classes when the model has them, else its first output
      y = graph.get_tensor_by_name(meta["outputs"][meta.get("classes_output", 0)])
      feed = rng.rand(batch, *shape[1:]).astype(np.float32)
  with tf.Session(graph=graph, config=_config(tf, threads)) as sess:
    rounds = _per_run_seconds(lambda: sess.run(y, feed_dict={x: feed}), budget, repeats)
  return {"rounds_s": rounds}


def child_load(tf, path, repeats):
  """Seconds to read the file, parse it into a GraphDef and import it (medians)."""
  reads, parses, imports = [], [], []
  for _ in range(repeats):
    t0 = time.perf_counter()
    with open(path, "rb") as f:
      data = f.read()
    t1 = time.perf_counter()
    graph_def = tf.GraphDef()
    graph_def.ParseFromString(data)
    t2 = time.perf_counter()
    graph = tf.Graph()
    with graph.as_default():
      tf.import_graph_def(graph_def, name="")
    t3 = time.perf_counter()
    reads.append(t1 - t0)
    parses.append(t2 - t1)
    imports.append(t3 - t2)
    del data, graph_def, graph
  return {"read_s": statistics.median(reads), "parse_s": statistics.median(parses),
          "import_s": statistics.median(imports), "bytes": os.path.getsize(path)}


def child_make_big_graph(tf, path, dim, layers):
  """Writes a frozen graph of `layers` dim x dim float32 Const matrices, each
  followed by MatMul + Relu, with input `x:0` and output `output:0`."""
  import numpy as np
  rng = np.random.RandomState(3)
  graph = tf.Graph()
  with graph.as_default():
    h = tf.placeholder(tf.float32, [None, dim], name="x")
    for i in range(layers):
      w = tf.constant((rng.standard_normal((dim, dim)) / np.sqrt(dim)).astype(np.float32),
                      name="w%d" % i)
      h = tf.nn.relu(tf.matmul(h, w), name="layer%d" % i)
    tf.identity(h, name="output")
  data = graph.as_graph_def().SerializeToString()
  os.makedirs(os.path.dirname(path), exist_ok=True)
  with open(path + ".tmp", "wb") as f:
    f.write(data)
  os.replace(path + ".tmp", path)
  return {"bytes": len(data)}


def child_make_images(tf, folder, count):
  """Writes `count` small pictures (smooth gradients plus noise, seeded by their
  index; every fifth a PNG, the rest JPEG) as img<k>.{jpg,png}."""
  import numpy as np
  os.makedirs(folder, exist_ok=True)
  graph = tf.Graph()
  with graph.as_default():
    img = tf.placeholder(tf.uint8, [None, None, 3])
    jpeg = tf.image.encode_jpeg(img, quality=90)
    png = tf.image.encode_png(img)
  with tf.Session(graph=graph) as sess:
    for k in range(count):
      rng = np.random.RandomState(1000 + k)
      h, w = int(rng.randint(32, 72)), int(rng.randint(32, 72))
      yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
      phase = rng.uniform(0, 2 * np.pi, size=3)
      freq = rng.uniform(0.5, 3.0, size=(3, 2))
      base = np.stack([np.cos(xx / w * np.pi * freq[c, 0] + phase[c]) *
                       np.sin(yy / h * np.pi * freq[c, 1] + 1.0) for c in range(3)], -1)
      pix = np.clip(127.5 + 100 * base + rng.normal(0, 12, size=base.shape), 0, 255)
      pix = pix.astype(np.uint8)
      is_png = k % 5 == 4
      data = sess.run(png if is_png else jpeg, feed_dict={img: pix})
      with open(os.path.join(folder, "img%03d.%s" % (k, "png" if is_png else "jpg")), "wb") as f:
        f.write(data)
  return {"images": count}


def child_main(argv):
  mode, framework, args = argv[0], argv[1], argv[2:]
  tf = load_framework(framework)
  if mode == "cold":
    out = child_cold(tf, args[0], args[1])
  elif mode == "steady":
    out = child_steady(tf, args[0], int(args[1]), int(args[2]), float(args[3]), int(args[4]),
                       args[5])
  elif mode == "load":
    out = child_load(tf, args[0], int(args[1]))
  elif mode == "big-graph":
    out = child_make_big_graph(tf, args[0], int(args[1]), int(args[2]))
  elif mode == "images":
    out = child_make_images(tf, args[0], int(args[1]))
  else:
    raise SystemExit("unknown child mode %r" % mode)
  print(json.dumps(out))


# ====================================================================== parent side

def _run(cmd, env=None, timeout=1800):
  out = subprocess.run(cmd, cwd="/tmp", capture_output=True, text=True, env=env, timeout=timeout)
  if out.returncode != 0:
    raise RuntimeError("%s failed (%d):\n%s" % (" ".join(cmd), out.returncode, out.stderr[-4000:]))
  return out.stdout


def _child(py, mode, framework, *args, timeout=1800, env=None):
  out = _run([py, THIS, "child", mode, framework, *map(str, args)], env=env, timeout=timeout)
  return json.loads(out.strip().splitlines()[-1])


def _pairs(pys):
  """[(framework, python)] in the order the benchmarks alternate them."""
  return [(fw, py) for fw, py in (("tfc", pys.get("tfc")), ("tf", pys.get("tf"))) if py]


def bench_cold(pys, runs):
  """a. Median wall time of a fresh process doing one farm task, and of the
  same child importing NumPy only (tfc's venv; runs as many as tfc's)."""
  pairs = [("numpy", pys["tfc"])] + _pairs(pys)
  runs = dict(runs, numpy=runs["tfc"])
  times = {fw: [] for fw, _ in pairs}
  classes = {}
  for i in range(max(runs.values())):
    for fw, py in pairs:
      if i >= runs[fw]:
        continue
      t0 = time.perf_counter()
      out = _child(py, "cold", fw, SMALL_MODEL, SMALL_IMAGE)
      times[fw].append(time.perf_counter() - t0)
      classes[fw] = out["class"]
  return {fw: {"median_s": statistics.median(t), "runs": len(t), "class": classes[fw]}
          for fw, t in times.items()}


def ensure_deep_nets(pys, compat_dir):
  """The MobileNetV2/ResNet50 frozen graphs: made by tools/make_compat_fixtures.py
  with TensorFlow when missing. Returns the names that are available."""
  missing = [m for m in DEEP_NETS if not os.path.exists(os.path.join(compat_dir, m, "model.pb"))]
  script = os.path.join(ROOT, "tools", "make_compat_fixtures.py")
  if missing and pys.get("tf") and os.path.exists(script):
    _run([pys["tf"], script, "--out", compat_dir, "--models", ",".join(missing)], timeout=3600)
  return [m for m in DEEP_NETS if os.path.exists(os.path.join(compat_dir, m, "model.pb"))]


def steady_cases(deep_nets, quick):
  """(label, model, batch, threads) for part b."""
  if quick:
    return [("small CNN, image path", "small_path", 1, 1),
            ("small CNN, decoded image", "small_decoded", 4, 1)]
  cases = [("small CNN, image path", "small_path", 1, 1),
           ("small CNN, decoded image", "small_decoded", 1, 1)]
  cases += [(DISPLAY.get(name, name), name, 1, 1) for name in deep_nets]
  cases += [("small CNN, decoded image", "small_decoded", 32, 2)]
  cases += [(DISPLAY.get(name, name), name, 32, 2) for name in deep_nets]
  return cases


def bench_steady(pys, cases, compat_dir, quick, procs=2):
  """b. Images/s per case: `procs` fresh processes per framework, the frameworks
  alternately; the median over the timed rounds of all of them."""
  res = []
  for label, model, batch, threads in cases:
    row = {"label": label, "model": model, "batch": batch, "threads": threads}
    budget, repeats = (0.05, 1) if quick else ((1.0, 3) if batch > 1 else (0.5, 5))
    rounds = {fw: [] for fw, _ in _pairs(pys)}
    for _ in range(1 if quick else procs):
      for fw, py in _pairs(pys):
        rounds[fw] += _child(py, "steady", fw, model, batch, threads, budget, repeats,
                             compat_dir)["rounds_s"]
    for fw, r in rounds.items():
      sec = statistics.median(r)
      row[fw] = {"run_s": sec, "images_per_s": batch / sec, "rounds": len(r)}
    res.append(row)
  return res


def bench_load(pys, path, make_with, repeats, dim, layers):
  """c. Read vs parse + import of a frozen graph of `layers` dim x dim matrices,
  written (when missing) by `make_with` = (framework, python)."""
  if not os.path.exists(path):
    fw, py = make_with
    _child(py, "big-graph", fw, path, dim, layers)
  # NumPy's bundled OpenBLAS starts its threads at `import numpy` and they spin for
  # tens of milliseconds; on a 2-core machine that doubles a load done right after
  # the import. Neither framework uses NumPy's BLAS here, so both run without them.
  env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
  return {fw: _child(py, "load", fw, path, repeats, env=env) for fw, py in _pairs(pys)}


def _farm_env(framework, shim_dir):
  env = dict(os.environ)
  if framework == "tf":
    env["PYTHONPATH"] = shim_dir + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
  return env


def _write_tf_shim(folder):
  """A `tfc` module that is TensorFlow's compat.v1, so the unchanged example
  script runs on TensorFlow."""
  os.makedirs(folder, exist_ok=True)
  with open(os.path.join(folder, "tfc.py"), "w") as f:
    f.write("import sys\nimport tensorflow.compat.v1 as _tf\nsys.modules[__name__] = _tf\n")


def bench_farm(pys, images, rounds, shim_dir):
  """d. examples/task_farm.py --runner processes --workers 2 over a folder."""
  import re
  _write_tf_shim(shim_dir)
  n = len(os.listdir(images))
  runs = {fw: [] for fw, _ in _pairs(pys)}
  classes = {}
  for _ in range(rounds):
    for fw, py in _pairs(pys):
      t0 = time.perf_counter()
      out = _run([py, os.path.join(ROOT, "examples", "task_farm.py"),
                  "--model", SMALL_MODEL, "--images", images, "--runner", "processes",
                  "--workers", "2"], env=_farm_env(fw, shim_dir))
      total = time.perf_counter() - t0
      m = re.search(r"runner processes: (\d+) tasks in (\d+) process\(es\), wall ([\d.]+) s; "
                    r"per task mean ([\d.]+) s", out)
      assert m and int(m.group(1)) == n, out[-2000:]
      runs[fw].append({"total_s": total, "wall_s": float(m.group(3)),
                       "task_mean_s": float(m.group(4))})
      classes[fw] = dict(re.findall(r"^result of (\S+): (-?\d+)$", out, re.M))
  res = {}
  for fw, rs in runs.items():
    wall = statistics.median(r["wall_s"] for r in rs)
    res[fw] = {"images": n, "rounds": len(rs), "wall_s": wall,
               "total_s": statistics.median(r["total_s"] for r in rs),
               "images_per_s": n / wall,
               "task_mean_s": statistics.median(r["task_mean_s"] for r in rs),
               # worker-seconds per image: 2 workers busy for the whole wall time
               "worker_s_per_task": 2 * wall / n}
  if len(classes) == 2:
    res["classes_agree"] = sum(classes["tfc"].get(k) == v for k, v in classes["tf"].items())
  return res


def collect(tfc_py, tf_py=None, quick=False, compat_dir=COMPAT_DIR, log=None):
  """Runs parts a-d; returns a dict of results. tf_py None (or quick) skips TensorFlow."""
  log = log or (lambda msg: print(msg, file=sys.stderr, flush=True))
  pys = {"tfc": tfc_py}
  if tf_py and not quick:
    pys["tf"] = tf_py
  if quick:
    work = tempfile.mkdtemp(prefix="tfc-bench-")
    try:
      return _collect(pys, tfc_py, True, compat_dir, log, work)
    finally:
      shutil.rmtree(work, ignore_errors=True)
  os.makedirs(BENCH_DIR, exist_ok=True)
  return _collect(pys, tfc_py, False, compat_dir, log, BENCH_DIR)


def _collect(pys, tfc_py, quick, compat_dir, log, work):
  res = {"quick": quick}

  log("bench_infer: cold start")
  res["cold"] = bench_cold(pys, {"tfc": 1 if quick else 15, "tf": 5})

  deep = [] if quick else ensure_deep_nets(pys, compat_dir)
  log("bench_infer: steady state (%s)" % ", ".join(["small CNN"] + deep))
  res["steady"] = bench_steady(pys, steady_cases(deep, quick), compat_dir, quick)

  log("bench_infer: loading a big frozen graph")
  big = os.path.join(work, "big_graph_quick.pb" if quick else "big_graph.pb")
  maker = ("tf", pys["tf"]) if "tf" in pys else ("tfc", tfc_py)
  res["load"] = bench_load(pys, big, maker, 1 if quick else 3,
                           *((256, 2) if quick else (BIG_DIM, BIG_LAYERS)))
  res["load"]["written_by"] = maker[0]

  log("bench_infer: task farm")
  count = 12 if quick else FARM_IMAGES
  images = os.path.join(work, "farm%d" % count)
  if not os.path.isdir(images) or len(os.listdir(images)) != count:
    _child(tfc_py, "images", "tfc", images, count)
  res["farm"] = bench_farm(pys, images, 1 if quick else 2, os.path.join(work, "tf_shim"))
  return res


def markdown(res):
  """BENCHMARKS.md lines for the results of collect()."""
  def fmt_s(s):
    return "%.1f ms" % (s * 1e3) if s < 10 else "%.2f s" % s

  def speedup(a, b):
    return "%.2fx" % (a / b) if a and b else "n/a"

  rows = []
  cold = res["cold"]
  t, f, base = cold["tfc"], cold.get("tf"), cold["numpy"]["median_s"]
  rows.append(("cold start: new process, import, load small CNN with seed 000's config, "
               "predict 1 image path (median of %d / %d)" % (t["runs"], f["runs"] if f else 0),
               fmt_s(t["median_s"]), fmt_s(f["median_s"]) if f else "n/a",
               speedup(f and f["median_s"], t["median_s"]), "≥ 30x"))
  rows.append(("the framework's share: cold start minus the same process importing NumPy "
               "only (%s)" % fmt_s(base), fmt_s(t["median_s"] - base),
               fmt_s(f["median_s"] - base) if f else "n/a",
               speedup(f and f["median_s"] - base, t["median_s"] - base), "tfc ≤ 25 ms"))
  for row in res["steady"]:
    t, f = row["tfc"], row.get("tf")
    target = "≥ 1.2x" if row["batch"] == 1 and row["model"].startswith("small") else "≥ 1.0x"
    rows.append(("%s, batch %d, %d thread%s" % (row["label"], row["batch"], row["threads"],
                                              "s" if row["threads"] > 1 else ""),
                 "%.1f img/s" % t["images_per_s"],
                 "%.1f img/s" % f["images_per_s"] if f else "n/a",
                 speedup(t["images_per_s"], f and f["images_per_s"]), target))
  load = res["load"]
  t, f = load["tfc"], load.get("tf")
  mb = t["bytes"] / 1e6

  def load_cell(d):
    return "%s (read %s + parse %s + import %s)" % (
        fmt_s(d["read_s"] + d["parse_s"] + d["import_s"]), fmt_s(d["read_s"]),
        fmt_s(d["parse_s"]), fmt_s(d["import_s"]))
  tot = lambda d: d["read_s"] + d["parse_s"] + d["import_s"]
  rows.append(("load a %.0f MB frozen graph (written by %s): read + ParseFromString + "
               "import_graph_def" % (mb, "TensorFlow" if load["written_by"] == "tf" else "tfc"),
               load_cell(t), load_cell(f) if f else "n/a", speedup(f and tot(f), tot(t)),
               "parse + import ≤ read: %.2f of read" % ((t["parse_s"] + t["import_s"]) / t["read_s"])))
  farm = res["farm"]
  t, f = farm["tfc"], farm.get("tf")
  rows.append(("task farm, %d images, 2 worker processes: throughput" % t["images"],
               "%.0f img/s" % t["images_per_s"], "%.0f img/s" % f["images_per_s"] if f else "n/a",
               speedup(t["images_per_s"], f and f["images_per_s"]), ""))
  rows.append(("task farm: time in one task (load graph, session, predict), mean",
               fmt_s(t["task_mean_s"]), fmt_s(f["task_mean_s"]) if f else "n/a",
               speedup(f and f["task_mean_s"], t["task_mean_s"]), ""))
  path1 = {r2["model"]: r2 for r2 in res["steady"] if r2["batch"] == 1}.get("small_path")
  if path1:
    over = lambda fw: farm[fw]["task_mean_s"] - path1[fw]["run_s"]
    rows.append(("task farm: per-task overhead (task time − one warm image-path inference)",
                 fmt_s(over("tfc")), fmt_s(over("tf")) if f else "n/a",
                 speedup(f and over("tf"), over("tfc")), ""))
  rows.append(("task farm: worker time per image (2 x wall / images)",
               fmt_s(t["worker_s_per_task"]), fmt_s(f["worker_s_per_task"]) if f else "n/a",
               speedup(f and f["worker_s_per_task"], t["worker_s_per_task"]), ""))
  rows.append(("task farm: whole script incl. interpreter and import",
               fmt_s(t["total_s"]), fmt_s(f["total_s"]) if f else "n/a",
               speedup(f and f["total_s"], t["total_s"]), ""))
  lines = [
      "## Inference and the task farm",
      "",
      "`benchmarks/bench_infer.py`: frozen graphs loaded with `tf.import_graph_def` and run with",
      "`Session.run`; each measurement in a fresh process per framework, the frameworks",
      "alternately; medians. Cold start is the wall time of a whole new process (interpreter,",
      "`import`, load `tests/fixtures/farm/frozen_model.pb`, one prediction from an image path).",
      "Steady state: images/s after warm-up, the median of the timed rounds of two processes",
      "per framework; \"1 thread\" is intra = inter = 1, \"2 threads\" is intra = inter = 2.",
      "MobileNetV2 and ResNet50 (random weights, 224x224) are frozen by",
      "`tools/make_compat_fixtures.py` into `build/compat/`. The task farm runs",
      "`examples/task_farm.py --runner processes --workers 2` unchanged under both frameworks",
      "(TensorFlow through a `tfc` module that is `tensorflow.compat.v1`); each task loads the",
      "graph, opens a one-thread session and predicts one image. The last column's ratio is",
      "tfc's speed-up (> 1: tfc is faster).",
      "",
      "| benchmark | tfc | TensorFlow | speed-up | target |",
      "|---|---|---|---|---|",
  ]
  lines += ["| %s | %s | %s | %s | %s |" % r for r in rows]
  notes = []
  c = res["cold"]
  if "tf" in c and c["tf"]["class"] != c["tfc"]["class"]:
    notes.append("Cold start: the two frameworks predicted different classes (%d vs %d)."
                 % (c["tfc"]["class"], c["tf"]["class"]))
  if "classes_agree" in farm:
    notes.append("Task farm: tfc's and TensorFlow's classes agree on %d of %d images."
                 % (farm["classes_agree"], t["images"]))
  if notes:
    lines += [""] + notes
  lines.append("")
  return lines


def main(argv):
  if argv and argv[0] == "child":
    child_main(argv[1:])
    return 0
  import argparse
  p = argparse.ArgumentParser(description="Inference benchmarks (see the module docstring).")
  p.add_argument("--quick", action="store_true", help="a few-second smoke run, tfc only")
  p.add_argument("--tfc-python", default=os.path.join(ROOT, ".venv", "bin", "python"))
  p.add_argument("--tf-python", default=os.path.join(ROOT, ".venv-tf", "bin", "python"))
  p.add_argument("--compat", default=COMPAT_DIR, help="folder of <model>/model.pb, meta.json")
  args = p.parse_args(argv)
  tfc_py = args.tfc_python if os.path.exists(args.tfc_python) else sys.executable
  tf_py = args.tf_python if os.path.exists(args.tf_python) else None
  res = collect(tfc_py, tf_py, quick=args.quick, compat_dir=args.compat)
  print("\n".join(markdown(res)))
  print(json.dumps(res))
  return 0


if __name__ == "__main__":
  sys.exit(main(sys.argv[1:]))
