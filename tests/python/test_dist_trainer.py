"""examples/dist_trainer.py as a real job: 2 ps + 2 worker processes running the script as
written (flags, tf.train.Server, replica_device_setter, MonitoredTrainingSession with
StopAtStepHook). The chief writes checkpoints and an events file, the global step reaches
the last step and the loss goes down; a non-chief worker killed with SIGKILL mid-training and
started again with the same flags rejoins the running job and finishes with it. With --sync
(SyncReplicasOptimizer and its hook) both workers train in lock step to the last step."""
import glob
import os
import pathlib
import re
import signal
import subprocess
import sys
import threading
import time

import pytest

from cluster_util import free_ports

EXAMPLE = pathlib.Path(__file__).resolve().parents[2] / "examples" / "dist_trainer.py"
LAST_STEP = 400


class Task(object):
  """One process of the job; its output is collected by a reader thread."""

  def __init__(self, args):
    self.proc = subprocess.Popen([sys.executable, str(EXAMPLE)] + args, stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT, text=True)
    self.lines = []
    self._reader = threading.Thread(target=self._read, daemon=True)
    self._reader.start()

  def _read(self):
    for line in self.proc.stdout:
      self.lines.append(line)

  def text(self):
    return "".join(self.lines)

  def wait_for(self, pattern, timeout=40):
    """Waits until a line matches `pattern`; returns the match (fails on exit or timeout)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
      for line in list(self.lines):
        m = re.search(pattern, line)
        if m:
          return m
      if self.proc.poll() is not None:
        self._reader.join(5)
        for line in list(self.lines):
          m = re.search(pattern, line)
          if m:
            return m
        pytest.fail("process exited (%s) before %r:\n%s" % (self.proc.returncode, pattern, self.text()))
      time.sleep(0.02)
    pytest.fail("no %r within %d s:\n%s" % (pattern, timeout, self.text()))

  def finish(self, timeout=60):
    """Waits for the process to exit; returns its exit status."""
    rc = self.proc.wait(timeout)
    self._reader.join(5)
    return rc

  def stop(self):
    if self.proc.poll() is None:
      self.proc.kill()
      self.proc.wait(10)


def test_monitored_trainer_survives_worker_restart(tmp_path):
  pytest.importorskip("sklearn")
  ports = free_ports(4)
  ckpt = str(tmp_path / "ckpt")
  common = ["--ps_hosts=localhost:%d,localhost:%d" % tuple(ports[:2]),
            "--worker_hosts=localhost:%d,localhost:%d" % tuple(ports[2:]),
            "--checkpoint_dir=" + ckpt, "--last_step=%d" % LAST_STEP, "--step_delay=0.02",
            "--save_checkpoint_steps=100", "--save_summaries_steps=20"]
  tasks = []

  def start(job, index):
    t = Task(common + ["--job_name=" + job, "--task_index=%d" % index])
    tasks.append(t)
    return t

  try:
    start("ps", 0)
    start("ps", 1)
    chief = start("worker", 0)
    worker = start("worker", 1)  # the chief's session needs every task's server up
    chief.wait_for(r"^task 0 joined")
    worker.wait_for(r"^task 1 step 20 ")
    worker.proc.send_signal(signal.SIGKILL)
    assert worker.finish(10) == -signal.SIGKILL
    killed_at = int(chief.wait_for(r"^task 0 step \d+ global (\d+)").group(1))

    again = start("worker", 1)  # the same flags: it rejoins the running job
    again.wait_for(r"^task 1 joined")
    assert again.finish(60) == 0, again.text()
    assert chief.finish(60) == 0, chief.text()

    done = re.search(r"task 1 done: steps (\d+), global step (\d+)", again.text(), re.M)
    assert done, again.text()
    assert int(done.group(1)) >= 1, again.text()
    # the global step a worker fetches with its last train op may be read
    # before that step's increment and before the other worker's last one
    # (the two are unordered in a step, as in TF): up to 2 below the stop
    assert int(done.group(2)) >= LAST_STEP - 2, again.text()
    assert int(done.group(2)) > killed_at
    m = re.search(r"task 0 done: steps (\d+), global step (\d+), first loss ([0-9.]+), last loss ([0-9.]+)",
                  chief.text(), re.M)
    assert m, chief.text()
    assert int(m.group(2)) >= LAST_STEP - 2, chief.text()
    first, last = float(m.group(3)), float(m.group(4))
    assert last < 0.5 * first, chief.text()

    import tfc as tf
    latest = tf.train.latest_checkpoint(ckpt)
    assert latest is not None, os.listdir(ckpt)
    saved_step = int(re.search(r"model\.ckpt-(\d+)$", latest).group(1))
    assert saved_step >= LAST_STEP  # the other worker may add a step after the chief's last
    reader = tf.train.NewCheckpointReader(latest)
    # the other worker may still increment the step between the chief's read
    # of it (the file name) and the save of the variables (as in TF)
    assert saved_step <= int(reader.get_tensor("global_step")) <= saved_step + 1
    assert reader.get_tensor("hidden/kernel").shape == (64, 32)
    events = glob.glob(os.path.join(ckpt, "events.out.tfevents.*"))
    assert events and os.path.getsize(events[0]) > 0
    tags = set()
    for path in events:
      for e in tf.train.summary_iterator(path):
        for v in e.summary.value:
          tags.add(v.tag)
    assert "loss" in tags, tags
  finally:
    for t in tasks:
      t.stop()


def test_monitored_trainer_sync_replicas(tmp_path):
  pytest.importorskip("sklearn")
  ports = free_ports(4)
  ckpt = str(tmp_path / "ckpt")
  last_step = 40
  common = ["--ps_hosts=localhost:%d,localhost:%d" % tuple(ports[:2]),
            "--worker_hosts=localhost:%d,localhost:%d" % tuple(ports[2:]),
            "--checkpoint_dir=" + ckpt, "--last_step=%d" % last_step, "--sync"]
  tasks = [Task(common + ["--job_name=" + job, "--task_index=%d" % i])
           for job, i in (("ps", 0), ("ps", 1), ("worker", 0), ("worker", 1))]
  try:
    chief, worker = tasks[2], tasks[3]
    assert chief.finish(60) == 0, chief.text()
    assert worker.finish(60) == 0, worker.text()
    for t, index in ((chief, 0), (worker, 1)):
      m = re.search(r"task %d done: steps (\d+), global step (\d+), first loss ([0-9.]+), last loss ([0-9.]+)"
                    % index, t.text(), re.M)
      assert m, t.text()
      assert int(m.group(1)) >= 1
      assert float(m.group(4)) < float(m.group(3)), t.text()
    import tfc as tf
    latest = tf.train.latest_checkpoint(ckpt)
    assert latest is not None, os.listdir(ckpt)
    # one update per round of both workers' gradients: the global step stops at the last step
    assert int(tf.train.NewCheckpointReader(latest).get_tensor("global_step")) == last_step
  finally:
    for t in tasks:
      t.stop()
