"""Distributed-runtime benchmarks, run once per framework (tfc or TensorFlow).

    python benchmarks/bench_dist.py tfc|tf

Every server is a separate process on a local port (the framework's own server:
`python -m tfc.server` or `tf.distribute.Server`), so every figure goes through gRPC:
  scalar_add_us    Session.run of a fed scalar add through grpc://, master = the one task
  transfer_gbps    a 100 MB float32 variable on /job:ps read by /job:worker (the client
                   fetches one reduced scalar from the worker), GB/s of ps->worker payload
                   (tfc: the same-host data plane, process_vm_readv)
  transfer_tcp_gbps   tfc only: the same over the TCP data plane peers on different
                   hosts use (forced on one host with TFC_DATA_PLANE=tcp)
  transfer_grpc_gbps  tfc only: the same over gRPC RecvTensor alone (TFC_SAME_HOST_READ=0)
  session_create_ms  Session(target) + first run of a constant on a 4-task cluster
                   (2 ps + 2 workers): CreateSession, device discovery, plan, RunStep
  cross_task_cond_us  Session.run of the global-step read MonitoredTrainingSession's
                   hooks fetch every step (replica_device_setter, ps + worker): a cond
                   whose predicate and RefSwitch run on the ps, its Merge on the worker,
                   one side's tensors crossing dead (TF: v1 control flow, ref variables)
Prints one JSON line.
"""
import json
import os
import socket
import subprocess
import sys
import time

import numpy as np

FRAMEWORK = sys.argv[1] if len(sys.argv) > 1 else "tfc"

if FRAMEWORK == "tf":
  os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
  import tensorflow.compat.v1 as tf  # pylint: disable=import-error
  tf.disable_eager_execution()
  SERVER_CODE = ("import os, sys, json; os.environ['TF_CPP_MIN_LOG_LEVEL']='3'; "
                 "import tensorflow as tf; c=json.loads(sys.argv[1]); "
                 "s=tf.distribute.Server(c, job_name=sys.argv[2], task_index=int(sys.argv[3])); "
                 "print('listening', flush=True); s.join()")
else:
  import tfc as tf
  SERVER_CODE = ("import sys, json; from tfc.train import server_lib; c=json.loads(sys.argv[1]); "
                 "s=server_lib.Server(c, job_name=sys.argv[2], task_index=int(sys.argv[3])); "
                 "print('listening', flush=True); s.join()")


def free_ports(n):
  socks = [socket.socket() for _ in range(n)]
  for s in socks:
    s.bind(("localhost", 0))
  ports = [s.getsockname()[1] for s in socks]
  for s in socks:
    s.close()
  return ports


def start_cluster(jobs, env=None):
  ports = iter(free_ports(sum(jobs.values())))
  spec = {job: ["localhost:%d" % next(ports) for _ in range(n)] for job, n in jobs.items()}
  procs = []
  for job, n in jobs.items():
    for i in range(n):
      p = subprocess.Popen([sys.executable, "-c", SERVER_CODE, json.dumps(spec), job, str(i)],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                           env=dict(os.environ, **(env or {})))
      procs.append(p)
  for p in procs:
    p.stdout.readline()
  return spec, procs


def stop(procs):
  for p in procs:
    p.kill()
  for p in procs:
    p.wait()


def scalar_add_us():
  spec, procs = start_cluster({"worker": 1})
  try:
    g = tf.Graph()
    with g.as_default():
      x = tf.placeholder(tf.float32, [])
      y = x + 1.0
    with tf.Session("grpc://" + spec["worker"][0], graph=g) as sess:
      for _ in range(50):
        sess.run(y, {x: 1.0})
      best = float("inf")
      for _ in range(5):
        n = 300
        t0 = time.perf_counter()
        for _ in range(n):
          sess.run(y, {x: 1.0})
        best = min(best, (time.perf_counter() - t0) / n)
    return best * 1e6
  finally:
    stop(procs)


def transfer_gbps(env=None):
  spec, procs = start_cluster({"ps": 1, "worker": 1}, env)
  try:
    g = tf.Graph()
    n = 25 * 1000 * 1000  # 100 MB of float32
    with g.as_default():
      with tf.device("/job:ps/task:0"):
        v = tf.Variable(tf.zeros([n], tf.float32))
        small = tf.Variable(tf.zeros([1], tf.float32))
      with tf.device("/job:worker/task:0"):
        big_read = tf.reduce_sum(tf.identity(v))
        small_read = tf.reduce_sum(tf.identity(small))
      init = tf.global_variables_initializer()
    with tf.Session("grpc://" + spec["worker"][0], graph=g) as sess:
      sess.run(init)
      sess.run(big_read)
      sess.run(small_read)
      best_big, best_small = float("inf"), float("inf")
      for _ in range(5):
        t0 = time.perf_counter()
        sess.run(big_read)
        best_big = min(best_big, time.perf_counter() - t0)
        t0 = time.perf_counter()
        sess.run(small_read)
        best_small = min(best_small, time.perf_counter() - t0)
    # the reduce of 25M floats on the worker is part of both frameworks' time
    return n * 4 / 1e9 / max(best_big - best_small, 1e-9), best_big * 1e3
  finally:
    stop(procs)


def session_create_ms():
  spec, procs = start_cluster({"ps": 2, "worker": 2})
  try:
    g = tf.Graph()
    with g.as_default():
      c = tf.constant(1.0)
    times = []
    for _ in range(5):
      t0 = time.perf_counter()
      with tf.Session("grpc://" + spec["worker"][0], graph=g) as sess:
        sess.run(c)
      times.append(time.perf_counter() - t0)
    return min(times[1:]) * 1e3
  finally:
    stop(procs)


def cross_task_cond_us():
  if FRAMEWORK == "tf":
    tf.disable_control_flow_v2()
    tf.disable_resource_variables()
    from tensorflow.python.training import training_util  # pylint: disable=import-error
  else:
    from tfc.train import training_util
  spec, procs = start_cluster({"ps": 1, "worker": 1})
  try:
    g = tf.Graph()
    with g.as_default():
      with tf.device(tf.train.replica_device_setter(cluster=tf.train.ClusterSpec(spec),
                                                    worker_device="/job:worker/task:0")):
        tf.train.get_or_create_global_step()
        read = training_util._get_or_create_global_step_read()  # pylint: disable=protected-access
      init = tf.global_variables_initializer()
    with tf.Session("grpc://" + spec["worker"][0], graph=g) as sess:
      sess.run(init)
      for _ in range(30):
        sess.run(read)
      best = float("inf")
      for _ in range(5):
        n = 100
        t0 = time.perf_counter()
        for _ in range(n):
          sess.run(read)
        best = min(best, (time.perf_counter() - t0) / n)
    return best * 1e6
  finally:
    stop(procs)


def main():
  out = {"framework": FRAMEWORK, "scalar_add_us": scalar_add_us()}
  gbps, ms = transfer_gbps()
  out["transfer_gbps"] = gbps
  out["transfer_ms"] = ms
  if FRAMEWORK == "tfc":
    out["transfer_tcp_gbps"] = transfer_gbps({"TFC_DATA_PLANE": "tcp"})[0]
    out["transfer_grpc_gbps"] = transfer_gbps({"TFC_SAME_HOST_READ": "0"})[0]
  out["session_create_ms"] = session_create_ms()
  out["cross_task_cond_us"] = cross_task_cond_us()  # last: TF's v1 switches are global
  print(json.dumps(out))


if __name__ == "__main__":
  main()


def collect(tfc_py, tf_py=None, repeats=2):
  """Runs this script for each framework (alternating, `repeats` times); best figures."""
  best = {}
  for _ in range(repeats):
    for name, py in (("tfc", tfc_py), ("tf", tf_py)):
      if not py:
        continue
      out = subprocess.run([py, os.path.abspath(__file__), name], cwd="/tmp", capture_output=True,
                           text=True, check=True)
      r = json.loads(out.stdout.strip().splitlines()[-1])
      b = best.setdefault(name, r)
      for k in ("scalar_add_us", "transfer_ms", "session_create_ms", "cross_task_cond_us"):
        b[k] = min(b[k], r[k])
      for k in ("transfer_gbps", "transfer_tcp_gbps", "transfer_grpc_gbps"):
        if k in r:
          b[k] = max(b[k], r[k])
  return best


def markdown(res):
  """The BENCHMARKS.md section for collect()'s result."""
  t, f = res["tfc"], res.get("tf")

  def row(label, key, fmt, target, higher_better=False, tf_key=None):
    tf_key = tf_key or key
    a = fmt % t[key]
    b = fmt % f[tf_key] if f else "-"
    ratio = "-"
    if f:
      ratio = "%.2fx" % ((t[key] / f[tf_key]) if higher_better else (f[tf_key] / t[key]))
    return "| %s | %s | %s | %s | %s |" % (label, a, b, ratio, target)
  return ["", "## Distributed runtime", "",
          "`benchmarks/bench_dist.py`: every task a separate server process on a local port "
          "(`tfc.train.Server` / `tf.distribute.Server`), the client in another process; best of "
          "two alternating runs per framework. \"ratio\" > 1 means tfc is better.", "",
          "| benchmark | tfc | TensorFlow | ratio | target |", "|---|---|---|---|---|",
          row("fed scalar add through grpc://", "scalar_add_us", "%.0f µs", "≥ 3x TF"),
          row("100 MB float32 ps → worker", "transfer_gbps", "%.2f GB/s", "≥ 3 GB/s and 4x TF",
              higher_better=True),
          row("same, TCP data plane (other hosts)", "transfer_tcp_gbps", "%.2f GB/s", "reported",
              higher_better=True, tf_key="transfer_gbps"),
          row("same, gRPC RecvTensor only", "transfer_grpc_gbps", "%.2f GB/s", "reported",
              higher_better=True, tf_key="transfer_gbps"),
          row("Session + first run, 4-task cluster", "session_create_ms", "%.1f ms", "reported"),
          row("global-step read, cond across ps and worker", "cross_task_cond_us", "%.0f µs",
              "reported"),
          ""]
