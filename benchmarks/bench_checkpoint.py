"""Checkpoint speed: tf.train.Saver save and restore of 512 MB of float32
variables (8 x [4096, 4096]) in tfc and in TensorFlow, beside the disk's own
speed measured in the same run (a raw 512 MB write + fsync, and a read of
that file back from the page cache).

Usage (repository root):  .venv/bin/python benchmarks/bench_checkpoint.py
Each framework runs in fresh processes (`... worker tfc|tf DIR`), three
rounds alternating tfc and TF; the best time counts (the machine is shared,
so the best is the least disturbed). The files go to build/bench-ckpt (the
repository's disk, not a tmpfs). Each save
writes a new prefix (model-<step>, as with a global step; the files are
removed afterwards, untimed), without the meta graph and state file, after
an os.sync() (so no
framework pays for the previous one's writeback); a restore reads a
checkpoint that was just written (page cache), as TF's figures are taken.
"""
import json
import os
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH_DIR = os.path.join(ROOT, "build", "bench-ckpt")
N_VARS, SHAPE = 8, (4096, 4096)
TOTAL_BYTES = N_VARS * SHAPE[0] * SHAPE[1] * 4
REPEATS = 5
ROUNDS = 3


def disk_speed(work):
  """Seconds for a raw write + fsync of TOTAL_BYTES, and a read back (page cache)."""
  import numpy as np
  buf = np.ones(TOTAL_BYTES // 4, np.float32).tobytes()
  path = os.path.join(work, "raw.bin")
  writes, reads = [], []
  for _ in range(REPEATS):
    os.sync()
    t0 = time.perf_counter()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    view = memoryview(buf)
    while view:
      n = os.write(fd, view)
      view = view[n:]
    os.fsync(fd)
    os.close(fd)
    writes.append(time.perf_counter() - t0)
    out = bytearray(TOTAL_BYTES)
    t0 = time.perf_counter()
    with open(path, "rb", buffering=0) as f:
      f.readinto(out)
    reads.append(time.perf_counter() - t0)
  os.remove(path)
  return {"write_fsync_s": min(writes), "read_s": min(reads)}


def worker(framework, work):
  """Times Saver.save / Saver.restore in this process; prints JSON."""
  if framework == "tf":
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow.compat.v1 as tf
    tf.disable_v2_behavior()
  else:
    import tfc as tf
  variables = [tf.Variable(tf.fill(list(SHAPE), float(i + 1)), name="v%d" % i)
               for i in range(N_VARS)]
  saver = tf.train.Saver(variables)
  prefix = os.path.join(work, framework, "model")
  saves, restores = [], []
  with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    saver.save(sess, prefix, write_meta_graph=False, write_state=False)  # warm-up
    saver.restore(sess, prefix)
    for step in range(REPEATS):
      os.sync()  # both frameworks start each save with no dirty pages queued for the disk
      t0 = time.perf_counter()
      path = saver.save(sess, prefix, global_step=step, write_meta_graph=False,
                        write_state=False)
      saves.append(time.perf_counter() - t0)
      t0 = time.perf_counter()
      saver.restore(sess, path)
      restores.append(time.perf_counter() - t0)
      for f in os.listdir(os.path.dirname(prefix)):  # the previous step's files, untimed
        if f.startswith("model-%d." % step):
          os.remove(os.path.join(os.path.dirname(prefix), f))
  print(json.dumps({"save_s": min(saves), "restore_s": min(restores)}))


def _run_json(py, *args):
  out = subprocess.run([py, os.path.abspath(__file__), *args], cwd="/tmp", capture_output=True,
                       text=True, check=True)
  return json.loads(out.stdout.strip().splitlines()[-1])


def collect(tfc_py, tf_py=None):
  """{"disk": ..., "tfc": ..., "tf": ...} in seconds."""
  os.makedirs(BENCH_DIR, exist_ok=True)
  try:
    res = {"bytes": TOTAL_BYTES, "disk": disk_speed(BENCH_DIR)}
    runs = {"tfc": [], "tf": []}
    for _ in range(ROUNDS):  # alternating fresh processes
      runs["tfc"].append(_run_json(tfc_py, "worker", "tfc", BENCH_DIR))
      if tf_py:
        runs["tf"].append(_run_json(tf_py, "worker", "tf", BENCH_DIR))
    for fw, rs in runs.items():
      if rs:
        res[fw] = {k: min(r[k] for r in rs) for k in ("save_s", "restore_s")}
    return res
  finally:
    shutil.rmtree(BENCH_DIR, ignore_errors=True)


def markdown(res):
  """BENCHMARKS.md lines for collect()'s results."""
  gbs = lambda s: "%.2f GB/s" % (res["bytes"] / s / 1e9)  # noqa: E731
  t, f, d = res["tfc"], res.get("tf"), res["disk"]
  def ratio(a, b):
    return "%.2fx" % (b / a) if a and b else "n/a"
  lines = [
      "", "## Checkpoints", "",
      "tf.train.Saver on %d MB of float32 variables (%d x %s), best of %d saves and restores "
      "in each of %d alternating processes per framework; the disk in the same run (best of "
      "%d): raw write + fsync %s, read back (page cache) %s "
      "(`.venv/bin/python benchmarks/bench_checkpoint.py`)." % (
          res["bytes"] // 2 ** 20, N_VARS, list(SHAPE), REPEATS, ROUNDS, REPEATS,
          gbs(d["write_fsync_s"]), gbs(d["read_s"])), "",
      "| | tfc | TensorFlow | tfc / TF | target |", "|---|---|---|---|---|",
      "| save | %s | %s | %s | ≥ 1.5x |" % (gbs(t["save_s"]), gbs(f["save_s"]) if f else "n/a",
                                         ratio(t["save_s"], f and f["save_s"])),
      "| restore | %s | %s | %s | ≥ 1.5x |" % (gbs(t["restore_s"]),
                                            gbs(f["restore_s"]) if f else "n/a",
                                            ratio(t["restore_s"], f and f["restore_s"])),
      ""]
  return lines


def main():
  if len(sys.argv) >= 4 and sys.argv[1] == "worker":
    worker(sys.argv[2], sys.argv[3])
    return
  tfc_py = os.path.join(ROOT, ".venv", "bin", "python")
  tf_py = os.path.join(ROOT, ".venv-tf", "bin", "python")
  res = collect(tfc_py, tf_py if os.path.exists(tf_py) else None)
  print("\n".join(markdown(res)))
  print(json.dumps(res), file=sys.stderr)


if __name__ == "__main__":
  main()
