"""Starts real tfc server processes (`python -m tfc.server`) on free local ports.

Used by the distributed tests: every task is a separate process; stop() terminates
them (SIGTERM, then SIGKILL after a grace period) and is always called from the
fixtures' teardown.
"""
import json
import os
import socket
import subprocess
import sys
import threading
import time


def free_ports(n):
  """n distinct ports that were free a moment ago (bound to port 0, then released)."""
  socks, ports = [], []
  for _ in range(n):
    s = socket.socket()
    s.bind(("localhost", 0))
    socks.append(s)
    ports.append(s.getsockname()[1])
  for s in socks:
    s.close()
  return ports


class Cluster(object):
  """A cluster of tfc server processes: jobs maps job name -> number of tasks."""

  def __init__(self, jobs, env=None, use_tf_config=False, external=None, extra_args=None):
    """external: job name -> number of tasks that are in the cluster spec but run
    elsewhere (e.g. training processes starting their own Server). extra_args:
    (job, index) -> more `python -m tfc.server` flags for that task."""
    self._extra_args = dict(extra_args or {})
    external = dict(external or {})
    everything = dict(jobs, **external)
    ports = free_ports(sum(everything.values()))
    self.spec = {}
    k = 0
    for job in sorted(everything):
      self.spec[job] = ["localhost:%d" % p for p in ports[k:k + everything[job]]]
      k += everything[job]
    self.procs = {}
    self.output = {}
    self._env = dict(os.environ, **(env or {}))
    self._use_tf_config = use_tf_config
    for job in sorted(jobs):
      for i in range(jobs[job]):
        self.start_task(job, i)
    for key in self.procs:
      self._wait_listening(key)

  def start_task(self, job, index):
    """Starts (or restarts) one task's process."""
    env = dict(self._env)
    if self._use_tf_config:
      env["TF_CONFIG"] = json.dumps({"cluster": self.spec, "task": {"type": job, "index": index}})
      args = []
    else:
      args = ["--cluster_spec", json.dumps(self.spec), "--job_name", job, "--task_index", str(index)]
    args = args + list(self._extra_args.get((job, index), []))
    p = subprocess.Popen([sys.executable, "-m", "tfc.server"] + args, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, env=env)
    self.procs[(job, index)] = p
    self.output[(job, index)] = []
    return p

  def _wait_listening(self, key, timeout=30):
    p = self.procs[key]
    lines = self.output[key]
    deadline = time.time() + timeout
    result = {}

    def reader():
      for line in p.stdout:
        lines.append(line)
        if "listening on" in line:
          result["ok"] = True
    t = threading.Thread(target=reader, daemon=True)
    t.start()
    while time.time() < deadline and "ok" not in result:
      if p.poll() is not None:
        raise RuntimeError("task %s exited: %s" % (key, "".join(lines)))
      time.sleep(0.02)
    if "ok" not in result:
      raise RuntimeError("task %s did not start: %s" % (key, "".join(lines)))

  def restart(self, job, index):
    self.start_task(job, index)
    self._wait_listening((job, index))

  def address(self, job, index):
    return self.spec[job][index]

  def target(self, job, index):
    return "grpc://" + self.address(job, index)

  def kill(self, job, index):
    p = self.procs[(job, index)]
    p.kill()
    p.wait(10)

  def log(self, job, index):
    return "".join(self.output[(job, index)])

  def stop(self):
    """Terminates every task; returns {key: returncode}."""
    codes = {}
    for key, p in self.procs.items():
      if p.poll() is None:
        p.terminate()
    for key, p in self.procs.items():
      try:
        codes[key] = p.wait(10)
      except subprocess.TimeoutExpired:
        p.kill()
        codes[key] = p.wait(10)
    return codes
