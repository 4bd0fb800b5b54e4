"""Starts a cluster of tfc server processes on this machine and tears it down.

    python -m tfc.launch --ps 2 --worker 2                # serve until Ctrl-C / SIGTERM
    python -m tfc.launch --ps 1 --worker 2 -- python train.py --steps 1000

Every task is a `python -m tfc.server` process on a free local port (or on
--base_port, --base_port+1, ...). Once all of them listen, the launcher prints the
cluster spec as JSON and, when a command follows `--`, runs it with the cluster in
its environment:

    TFC_CLUSTER_SPEC   {"ps": ["localhost:40001", ...], "worker": [...]}
    TFC_CLUSTER_PIDS   the task processes' ids, comma-separated

When the command exits (its status becomes the launcher's), or on SIGINT/SIGTERM,
every task gets SIGTERM, and SIGKILL after --grace seconds. Other `python -m
tfc.server` flags (--exit_when_idle, --bind, TLS) go after --server_args.
"""
import argparse
import json
import os
import shlex
import signal
import socket
import subprocess
import sys
import threading
import time


def _free_ports(n, host):
  socks, ports = [], []
  for _ in range(n):
    s = socket.socket()
    s.bind((host, 0))
    socks.append(s)
    ports.append(s.getsockname()[1])
  for s in socks:
    s.close()
  return ports


def _wait_listening(proc, lines, timeout):
  """Reads the task's output until it logs that it listens (True) or exits (False)."""
  ready = threading.Event()

  def reader():
    for line in proc.stdout:
      lines.append(line)
      sys.stderr.write(line)
      if "listening on" in line:
        ready.set()
  threading.Thread(target=reader, daemon=True).start()
  deadline = time.time() + timeout
  while time.time() < deadline and not ready.is_set():
    if proc.poll() is not None:
      return False
    time.sleep(0.02)
  return ready.is_set()


def _stop(procs, grace):
  for p in procs:
    if p.poll() is None:
      p.terminate()
  deadline = time.time() + grace
  for p in procs:
    try:
      p.wait(max(0.1, deadline - time.time()))
    except subprocess.TimeoutExpired:
      p.kill()
      p.wait()


def main(argv=None):
  argv = list(sys.argv[1:] if argv is None else argv)
  command = []
  if "--" in argv:
    k = argv.index("--")
    argv, command = argv[:k], argv[k + 1:]
  parser = argparse.ArgumentParser(prog="python -m tfc.launch", description=__doc__.split("\n")[0])
  parser.add_argument("--ps", type=int, default=0, help="number of ps tasks")
  parser.add_argument("--worker", type=int, default=1, help="number of worker tasks")
  parser.add_argument("--chief", type=int, default=0, help="number of chief tasks (0 or 1)")
  parser.add_argument("--host", default="localhost")
  parser.add_argument("--base_port", type=int, default=0, help="first port (default: free ports)")
  parser.add_argument("--grace", type=float, default=10.0, help="seconds between SIGTERM and SIGKILL")
  parser.add_argument("--server_args", default="", help="more `python -m tfc.server` flags, one string")
  args = parser.parse_args(argv)
  jobs = [(job, n) for job, n in (("chief", args.chief), ("ps", args.ps), ("worker", args.worker)) if n > 0]
  total = sum(n for _, n in jobs)
  if total == 0:
    parser.error("no tasks to start")
  ports = (list(range(args.base_port, args.base_port + total)) if args.base_port
           else _free_ports(total, args.host))
  spec, k = {}, 0
  for job, n in jobs:
    spec[job] = ["%s:%d" % (args.host, p) for p in ports[k:k + n]]
    k += n
  procs = []
  stopping = {"signal": None}

  def on_signal(signum, frame):  # pylint: disable=unused-argument
    stopping["signal"] = signum
  signal.signal(signal.SIGINT, on_signal)
  signal.signal(signal.SIGTERM, on_signal)
  try:
    for job, n in jobs:
      for i in range(n):
        p = subprocess.Popen([sys.executable, "-m", "tfc.server", "--cluster_spec", json.dumps(spec),
                              "--job_name", job, "--task_index", str(i)] + shlex.split(args.server_args),
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        procs.append(p)
        if not _wait_listening(p, [], 60):
          sys.stderr.write("tfc.launch: /job:%s/task:%d did not start\n" % (job, i))
          return 1
    print(json.dumps(spec), flush=True)
    if command:
      env = dict(os.environ, TFC_CLUSTER_SPEC=json.dumps(spec),
                 TFC_CLUSTER_PIDS=",".join(str(p.pid) for p in procs))
      child = subprocess.Popen(command, env=env)
      while child.poll() is None:
        if stopping["signal"] is not None:
          child.send_signal(stopping["signal"])
          stopping["signal"] = None
        time.sleep(0.05)
      return child.returncode if child.returncode >= 0 else 128 - child.returncode
    while stopping["signal"] is None:
      if any(p.poll() is not None for p in procs):
        sys.stderr.write("tfc.launch: a task exited; stopping the cluster\n")
        break
      time.sleep(0.1)
    return 0
  finally:
    _stop(procs, args.grace)


if __name__ == "__main__":
  sys.exit(main())
