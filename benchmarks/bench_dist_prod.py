"""Distributed runtime in production, run once per framework (tfc or TensorFlow).

    python benchmarks/bench_dist_prod.py tfc|tf

Every task is a separate process on a local port (the framework's own server), so
every figure goes through gRPC:
  kill_mid_step_ms   a step whose value is being computed on the ps when the ps is
                     killed (SIGKILL): time from the kill to the client's error
                     (None: no error within 30 s, the step still hangs)
  kill_next_step_ms  the ps killed between steps: time of the next step until its error
  async_steps_per_s  between-graph asynchronous training of an MLP (64-64-10, Adam,
                     batch 64, variables on 1 ps task) by 2 worker processes, each with
                     its own tf.train.Server and graph (replica_device_setter): training
                     steps per second of both workers together
  sync_steps_per_s   the same with tf.train.SyncReplicasOptimizer (2 replicas to
                     aggregate; the chief's queue runner applies each averaged update):
                     worker steps per second of both workers together
Prints one JSON line.
"""
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time

import numpy as np

FRAMEWORK = sys.argv[1] if len(sys.argv) > 1 else "tfc"
# Sessions whose master was killed are never closed: TensorFlow's CloseSession waits for
# the dead master forever. The process leaves with os._exit once the figures are out.
_KEEP = []


def import_framework(name):
  if name == "tf":
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow.compat.v1 as tf  # pylint: disable=import-error
    tf.disable_v2_behavior()
    return tf
  import tfc as tf
  return tf


SERVER_CODE = {
    "tf": ("import os, sys, json; os.environ['TF_CPP_MIN_LOG_LEVEL']='3'; "
           "import tensorflow as tf; c=json.loads(sys.argv[1]); "
           "s=tf.distribute.Server(c, job_name=sys.argv[2], task_index=int(sys.argv[3])); "
           "print('listening', flush=True); s.join()"),
    "tfc": ("import sys, json; from tfc.train import server_lib; c=json.loads(sys.argv[1]); "
            "s=server_lib.Server(c, job_name=sys.argv[2], task_index=int(sys.argv[3])); "
            "print('listening', flush=True); s.join()"),
}


def free_ports(n):
  socks = [socket.socket() for _ in range(n)]
  for s in socks:
    s.bind(("localhost", 0))
  ports = [s.getsockname()[1] for s in socks]
  for s in socks:
    s.close()
  return ports


def start_task(spec, job, i):
  env = dict(os.environ, TFC_SERVER_LOG="0")
  p = subprocess.Popen([sys.executable, "-c", SERVER_CODE[FRAMEWORK], json.dumps(spec), job, str(i)],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
  p.stdout.readline()
  return p


def start_cluster(jobs):
  ports = iter(free_ports(sum(jobs.values())))
  spec = {job: ["localhost:%d" % next(ports) for _ in range(n)] for job, n in jobs.items()}
  procs = {(job, i): start_task(spec, job, i) for job, n in jobs.items() for i in range(n)}
  return spec, procs


def stop(procs):
  for p in procs.values():
    if p.poll() is None:
      p.kill()
  for p in procs.values():
    p.wait()


def kill_times():
  tf = import_framework(FRAMEWORK)
  spec, procs = start_cluster({"ps": 1, "worker": 1})
  try:
    g = tf.Graph()
    with g.as_default():
      with tf.device("/job:ps/task:0"):
        v = tf.Variable(1.0)
        m = tf.random_normal([1000, 1000], seed=1)
        for _ in range(200):  # many seconds of work on the ps
          m = tf.tanh(tf.matmul(m, m) * 1e-3)
        slow = tf.reduce_sum(m)
      with tf.device("/job:worker/task:0"):
        out = slow + v
        quick = v * 2.0
      init = tf.global_variables_initializer()
    sess = tf.Session("grpc://" + spec["worker"][0], graph=g)
    _KEEP.append(sess)
    sess.run(init)
    sess.run(quick)
    result = {}

    def run():
      try:
        sess.run(out)
      except Exception:  # pylint: disable=broad-except
        result["t"] = time.perf_counter()
    th = threading.Thread(target=run, daemon=True)
    th.start()
    time.sleep(1.0)
    t0 = time.perf_counter()
    procs[("ps", 0)].kill()
    th.join(30)
    mid = (result["t"] - t0) * 1e3 if "t" in result else None
    # restart the ps, then kill it between steps
    procs[("ps", 0)].wait()
    procs[("ps", 0)] = start_task(spec, "ps", 0)
    sess2 = tf.Session("grpc://" + spec["worker"][0], graph=g)
    _KEEP.append(sess2)
    sess2.run(init)
    sess2.run(quick)
    procs[("ps", 0)].kill()
    procs[("ps", 0)].wait()
    result2 = {}

    def run2():
      t = time.perf_counter()
      try:
        sess2.run(quick)
      except Exception:  # pylint: disable=broad-except
        result2["ms"] = (time.perf_counter() - t) * 1e3
    th2 = threading.Thread(target=run2, daemon=True)
    th2.start()
    th2.join(30)
    return mid, result2.get("ms")
  finally:
    stop(procs)


def worker_main(fw, spec_json, task, steps, sync=False):
  """One worker of the async (or, with sync, SyncReplicasOptimizer) training
  benchmark; prints its steps/s."""
  tf = import_framework(fw)
  spec = json.loads(spec_json)
  cluster = tf.train.ClusterSpec(spec)
  server = tf.train.Server(cluster, job_name="worker", task_index=task)
  rng = np.random.default_rng(0)
  X = rng.random([1400, 64], np.float32)
  Y = rng.integers(0, 10, [1400]).astype(np.int64)
  with tf.device(tf.train.replica_device_setter(worker_device="/job:worker/task:%d" % task, cluster=cluster)):
    global_step = tf.Variable(0, trainable=False, name="global_step", dtype=tf.int64)
    x = tf.placeholder(tf.float32, [None, 64])
    y = tf.placeholder(tf.int64, [None])
    w1 = tf.Variable(rng.normal(0, 0.17, [64, 64]).astype(np.float32))
    b1 = tf.Variable(np.zeros([64], np.float32))
    w2 = tf.Variable(rng.normal(0, 0.17, [64, 10]).astype(np.float32))
    b2 = tf.Variable(np.zeros([10], np.float32))
    h = tf.nn.relu(tf.matmul(x, w1) + b1)
    logits = tf.matmul(h, w2) + b2
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
    opt = tf.train.AdamOptimizer(0.01)
    if sync:
      opt = tf.train.SyncReplicasOptimizer(opt, replicas_to_aggregate=2, total_num_replicas=2)
    train_op = opt.minimize(loss, global_step=global_step)
    done = tf.Variable(0, trainable=False, name="workers_done", dtype=tf.int64)
    mark_done = tf.assign_add(done, 1).op
    init = tf.global_variables_initializer()
    if sync:
      init_tokens = opt.get_init_tokens_op()
  with tf.Session(server.target) as sess:
    if task == 0:
      sess.run(init)
      if sync:
        sess.run(tf.local_variables_initializer())
        sess.run(opt.chief_init_op)
        sess.run(init_tokens)
        coord = tf.train.Coordinator()
        opt.get_chief_queue_runner().create_threads(sess, coord=coord, daemon=True, start=True)
    else:
      while True:
        try:
          sess.run(global_step)
          break
        except tf.errors.FailedPreconditionError:
          time.sleep(0.05)
      if sync:
        sess.run(tf.local_variables_initializer())
        sess.run(opt.local_step_init_op)
    batches = [(X[i:i + 64], Y[i:i + 64]) for i in range(0, 1400 - 64, 64)]
    for k in range(20):
      xb, yb = batches[k % len(batches)]
      sess.run(train_op, {x: xb, y: yb})
    t0 = time.perf_counter()
    for k in range(steps):
      xb, yb = batches[k % len(batches)]
      sess.run(train_op, {x: xb, y: yb})
    dt = time.perf_counter() - t0
    print(json.dumps({"steps_per_s": steps / dt}), flush=True)
    sess.run(mark_done)
    if sync:
      # keep giving gradients until the other worker is done too (its steps
      # wait for updates that need one gradient from each worker)
      opts = tf.RunOptions(timeout_in_ms=3000)
      while sess.run(done) < 2:
        try:
          sess.run(train_op, {x: batches[0][0], y: batches[0][1]}, options=opts)
        except tf.errors.DeadlineExceededError:
          break
      if task == 0:
        coord.request_stop()
      return
    if task == 0:  # keep the chief's server up until the other worker is done
      deadline = time.time() + 60
      while sess.run(global_step) < 2 * (steps + 20) and time.time() < deadline:
        time.sleep(0.05)


def async_steps_per_s(steps=400, sync=False):
  """Steps/s of both workers together, 1 ps + 2 workers (sync: SyncReplicasOptimizer)."""
  ports = free_ports(3)
  spec = {"ps": ["localhost:%d" % ports[0]], "worker": ["localhost:%d" % p for p in ports[1:]]}
  procs = {("ps", 0): start_task(spec, "ps", 0)}
  try:
    env = dict(os.environ, TFC_SERVER_LOG="0")
    workers = [subprocess.Popen([sys.executable, os.path.abspath(__file__), "worker", FRAMEWORK, json.dumps(spec),
                                 str(i), str(steps)] + (["sync"] if sync else []), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=env) for i in range(2)]
    total = 0.0
    for w in workers:
      out, err = w.communicate(timeout=600)
      if w.returncode != 0:
        raise RuntimeError(err[-2000:])
      total += json.loads(out.strip().splitlines()[-1])["steps_per_s"]
    return total
  finally:
    stop(procs)


def main():
  if len(sys.argv) > 2 and sys.argv[1] == "worker":
    worker_main(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), sync=sys.argv[6:] == ["sync"])
    os._exit(0)
  mid, nxt = kill_times()
  sys.stderr.write("kill times: %r %r\n" % (mid, nxt))
  out = {"framework": FRAMEWORK, "kill_mid_step_ms": mid, "kill_next_step_ms": nxt,
         "async_steps_per_s": async_steps_per_s(), "sync_steps_per_s": async_steps_per_s(200, sync=True)}
  print(json.dumps(out), flush=True)
  os._exit(0)


def collect(tfc_py, tf_py=None, repeats=2):
  """Runs this script for each framework (alternating, `repeats` times); best figures."""
  best = {}
  for _ in range(repeats):
    for name, py in (("tfc", tfc_py), ("tf", tf_py)):
      if not py:
        continue
      out = subprocess.run([py, os.path.abspath(__file__), name], cwd="/tmp", capture_output=True, text=True,
                           check=True)
      r = json.loads(out.stdout.strip().splitlines()[-1])
      b = best.setdefault(name, r)
      for k in ("kill_mid_step_ms", "kill_next_step_ms"):
        if r[k] is not None and (b[k] is None or r[k] < b[k]):
          b[k] = r[k]
      for k in ("async_steps_per_s", "sync_steps_per_s"):
        b[k] = max(b[k], r[k])
  return best


def markdown(res):
  """The BENCHMARKS.md rows for collect()'s result."""
  t, f = res["tfc"], res.get("tf")

  def ms(v):
    return "never (30 s)" if v is None else "%.0f ms" % v

  def ratio_ms(a, b):
    if a is None or b is None:
      return "-"
    return "%.2fx" % (b / a)
  sps = "%.0f" % t["async_steps_per_s"]
  return ["", "## Distributed runtime in production", "",
          "`benchmarks/bench_dist_prod.py`: every task a separate server process on a local port; "
          "best of two alternating runs per framework. \"ratio\" > 1 means tfc is better.", "",
          "| benchmark | tfc | TensorFlow | ratio | target |", "|---|---|---|---|---|",
          "| ps killed mid-step → client's error | %s | %s | %s | reported |" % (
              ms(t["kill_mid_step_ms"]), ms(f["kill_mid_step_ms"]) if f else "-",
              ratio_ms(t["kill_mid_step_ms"], f["kill_mid_step_ms"]) if f else "-"),
          "| ps killed, next step → error | %s | %s | %s | reported |" % (
              ms(t["kill_next_step_ms"]), ms(f["kill_next_step_ms"]) if f else "-",
              ratio_ms(t["kill_next_step_ms"], f["kill_next_step_ms"]) if f else "-"),
          "| async MLP training, 1 ps + 2 workers (steps/s) | %s | %s | %s | ≥ 1.2x TF |" % (
              sps, "%.0f" % f["async_steps_per_s"] if f else "-",
              "%.2fx" % (t["async_steps_per_s"] / f["async_steps_per_s"]) if f else "-"),
          "| SyncReplicasOptimizer MLP training, 1 ps + 2 workers (steps/s) | %.0f | %s | %s | ≥ 1.0x TF |" % (
              t["sync_steps_per_s"], "%.0f" % f["sync_steps_per_s"] if f else "-",
              "%.2fx" % (t["sync_steps_per_s"] / f["sync_steps_per_s"]) if f else "-"),
          ""]


if __name__ == "__main__":
  main()
