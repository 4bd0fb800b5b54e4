"""Synchronous between-graph training (SyncReplicasOptimizer, 1 ps + 2 workers as
processes) against real TensorFlow (part of `make compat`): a TensorFlow cluster and a
tfc cluster train the digits MLP to the same weights, and so do the mixed clusters (a
TF ps with tfc workers, a tfc ps with TF workers). Skips without TensorFlow's venv
unless TFC_COMPAT_REQUIRED=1."""
import json
import pathlib
import re
import subprocess
import sys

import numpy as np
import pytest

from cluster_util import free_ports
from test_compat_distributed import _Procs, _tf_env, _tf_task, _tfc_task, tf_python  # noqa: F401

HERE = pathlib.Path(__file__).resolve().parent
STEPS = 10


@pytest.fixture(scope="module")
def digits(tmp_path_factory):
  sk = pytest.importorskip("sklearn.datasets")
  d = sk.load_digits()
  path = tmp_path_factory.mktemp("digits") / "digits.npz"
  np.savez(path, X=(d.images / 16.0).astype(np.float32).reshape(-1, 64), Y=d.target.astype(np.int64))
  return str(path)


def _train(tf_py, data, ps_kind, worker_kind):
  """Runs the cluster (ps_kind, worker_kind in {'tf', 'tfc'}); the chief's weights."""
  ports = free_ports(3)
  spec = {"ps": ["localhost:%d" % ports[0]], "worker": ["localhost:%d" % p for p in ports[1:]]}
  procs = _Procs()
  workers = []
  try:
    if ps_kind == "tf":
      _tf_task(procs, tf_py, spec, "ps", 0)
    else:
      _tfc_task(procs, spec, "ps", 0)
    for i in range(2):
      argv = [str(HERE / "dist_sync_worker.py"), "--cluster", json.dumps(spec), "--task", str(i),
              "--steps", str(STEPS), "--data", data]
      if worker_kind == "tf":
        workers.append(subprocess.Popen([tf_py] + argv + ["--tf"], stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True, env=_tf_env()))
      else:
        workers.append(subprocess.Popen([sys.executable] + argv, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True))
    outs = [w.communicate(timeout=240)[0] for w in workers]
    for w in workers:
      assert w.returncode == 0, "\n----\n".join(o[-4000:] for o in outs)
    assert re.search(r"^global step %d$" % STEPS, outs[0], re.M), outs[0][-4000:]
    return [np.array(v, np.float32) for v in json.loads(re.search(r"^weights (.*)$", outs[0], re.M).group(1))]
  finally:
    for w in workers:
      if w.poll() is None:
        w.kill()
        w.wait(10)
    procs.stop()


@pytest.fixture(scope="module")
def tf_weights(tf_python, digits):  # noqa: F811
  return _train(tf_python, digits, "tf", "tf")


def _same(got, want):
  for g, w in zip(got, want):
    np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-5)


def test_tfc_cluster_trains_as_tensorflow(tf_python, digits, tf_weights):  # noqa: F811
  _same(_train(tf_python, digits, "tfc", "tfc"), tf_weights)


def test_tf_ps_with_tfc_workers(tf_python, digits, tf_weights):  # noqa: F811
  _same(_train(tf_python, digits, "tf", "tfc"), tf_weights)


def test_tfc_ps_with_tf_workers(tf_python, digits, tf_weights):  # noqa: F811
  _same(_train(tf_python, digits, "tfc", "tf"), tf_weights)
