"""Between-graph asynchronous training of the digits MLP on a cluster of processes:
2 ps tasks (`python -m tfc.server`) and 2 worker processes, each building its own
graph with replica_device_setter and training shared variables on the ps through
tf.Session(server.target). Reaches the accuracy the local run reaches (> 0.9)."""
import json
import pathlib
import re
import subprocess
import sys

import pytest

from cluster_util import Cluster

HERE = pathlib.Path(__file__).resolve().parent


def test_between_graph_async_training_digits():
  pytest.importorskip("sklearn")
  cluster = Cluster({"ps": 2}, external={"worker": 2})
  spec = cluster.spec
  procs = []
  try:
    for i in range(2):
      procs.append(subprocess.Popen(
          [sys.executable, str(HERE / "dist_train_worker.py"), "--cluster", json.dumps(spec),
           "--task", str(i), "--steps", "100"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
          text=True))
    outs = [p.communicate(timeout=100)[0] for p in procs]
    for p, out in zip(procs, outs):
      assert p.returncode == 0, out
    chief = outs[0]
    step = int(re.search(r"^global step (\d+)$", chief, re.M).group(1))
    assert step == 200, chief
    acc = float(re.search(r"^accuracy ([0-9.]+)$", chief, re.M).group(1))
    assert acc > 0.9, chief
  finally:
    for p in procs:
      if p.poll() is None:
        p.kill()
        p.wait(10)
    cluster.stop()
