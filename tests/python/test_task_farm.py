"""The task-farm use case: a frozen model (written by real TensorFlow, see
tools/make_farm_fixtures.py) whose input is an image path, one inference task
per image, run by examples/task_farm.py sequentially, in a process pool, on a Dask
LocalCluster and with PyCOMPSs when those packages are installed."""
import json
import os
import pathlib
import re
import signal
import subprocess
import sys

import numpy as np
import pytest

import tfc as tf

REPO = pathlib.Path(__file__).resolve().parents[2]
FARM = REPO / "tests" / "fixtures" / "farm"
MODEL = FARM / "frozen_model.pb"
IMAGES = FARM / "input"


def _expected():
  out = {}
  for line in (FARM / "expected_classes.txt").read_text().splitlines():
    if line.strip():
      name, cls = line.split()
      out[name] = int(cls)
  return out


EXPECTED = _expected()


def _load_graph():
  with tf.gfile.GFile(str(MODEL), "rb") as f:
    graph_def = tf.GraphDef()
    graph_def.ParseFromString(f.read())
  with tf.Graph().as_default() as graph:
    tf.import_graph_def(graph_def, name="")
  return graph


def test_fixture_is_complete():
  assert sorted(EXPECTED) == sorted(p.name for p in IMAGES.iterdir())
  assert len(EXPECTED) == 6


def test_frozen_model_matches_tensorflow():
  graph = _load_graph()
  ops = {op.type for op in graph.get_operations()}
  assert {"ReadFile", "DecodeImage", "Conv2D", "MaxPool", "ArgMax"} <= ops
  assert not ops & {"VariableV2", "Variable"}
  x = graph.get_tensor_by_name("image_path:0")
  y = graph.get_tensor_by_name("output:0")
  logits = graph.get_tensor_by_name("logits:0")
  want_logits = np.load(FARM / "expected_logits.npy", allow_pickle=True).item()
  config = tf.ConfigProto(inter_op_parallelism_threads=1, intra_op_parallelism_threads=1)
  config.graph_options.optimizer_options.opt_level = config.graph_options.optimizer_options.L0
  with tf.Session(graph=graph, config=config) as sess:
    squeezed = tf.squeeze(y)
    for name, cls in EXPECTED.items():
      got, got_logits = sess.run([squeezed, logits], feed_dict={x: str(IMAGES / name)})
      assert np.asarray(got).shape == ()
      assert int(got) == cls, name
      np.testing.assert_allclose(got_logits[0], want_logits[name], rtol=1e-4, atol=1e-4,
                                 err_msg=name)


def test_missing_image_is_not_found():
  graph = _load_graph()
  x = graph.get_tensor_by_name("image_path:0")
  y = graph.get_tensor_by_name("output:0")
  with tf.Session(graph=graph) as sess:
    with pytest.raises(tf.errors.NotFoundError):
      sess.run(y, feed_dict={x: str(FARM / "no_such_image.jpg")})
    # the session stays usable after the failed step
    assert int(sess.run(y, feed_dict={x: str(IMAGES / "img0.jpg")})[0]) == EXPECTED["img0.jpg"]


def _importable(module):
  try:
    __import__(module)
  except ImportError:
    return False
  return True


class _Done:
  def __init__(self, returncode, stdout, stderr):
    self.returncode, self.stdout, self.stderr = returncode, stdout, stderr


def _run_farm(*args, timeout=300):
  """Runs examples/task_farm.py in its own process group; on timeout the whole
  group (with any worker processes it started) is killed and the test fails."""
  proc = subprocess.Popen([sys.executable, str(REPO / "examples" / "task_farm.py"),
                           "--model", str(MODEL), "--images", str(IMAGES), *args],
                          cwd="/tmp", stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          start_new_session=True)
  try:
    out, err = proc.communicate(timeout=timeout)
  except subprocess.TimeoutExpired:
    os.killpg(proc.pid, signal.SIGKILL)
    out, err = proc.communicate()
    pytest.fail("task_farm.py %s did not finish in %d s\nstdout:\n%s\nstderr:\n%s"
                % (" ".join(args), timeout, out, err))
  return _Done(proc.returncode, out, err)


def _check_results(out, runner):
  assert out.returncode == 0, out.stderr
  got = dict(re.findall(r"^result of (\S+): (-?\d+)$", out.stdout, re.M))
  assert {k: int(v) for k, v in got.items()} == EXPECTED
  summary = re.search(r"runner %s: 6 tasks in (\d+) process\(es\)" % runner, out.stdout)
  assert summary, out.stdout
  return int(summary.group(1))


@pytest.mark.parametrize("runner", ["sequential", "processes"])
def test_task_farm_runner(runner):
  nproc = _check_results(_run_farm("--runner", runner), runner)
  if runner == "sequential":
    assert nproc == 1
  else:
    assert 1 <= nproc <= 2


@pytest.mark.skipif(not _importable("dask.distributed"), reason="dask[distributed] is not installed")
def test_task_farm_dask_local_cluster():
  # LocalCluster of 2 single-threaded worker processes; a hang fails after 120 s.
  nproc = _check_results(_run_farm("--runner", "dask", "--workers", "2", timeout=120), "dask")
  assert 1 <= nproc <= 2


@pytest.mark.skipif(not _importable("pycompss"), reason="pycompss is not installed")
def test_task_farm_pycompss_sequential_mode():
  # Without runcompss, PyCOMPSs runs the @task calls in this process.
  _check_results(_run_farm("--runner", "pycompss", timeout=120), "pycompss")


@pytest.mark.parametrize("runner,module", [("pycompss", "pycompss"), ("dask", "dask.distributed")])
def test_optional_runner_without_package_exits_2(runner, module):
  if _importable(module):
    pytest.skip("%s is installed" % module)
  out = _run_farm("--runner", runner, timeout=120)
  assert out.returncode == 2
  assert "runner %r is not available" % runner in out.stderr
  assert "No module named" in out.stderr
  if runner == "pycompss":
    # says why it is missing: the package builds the COMPSs Java runtime at install time
    assert "COMPSs" in out.stderr and "JAVA_HOME" in out.stderr


def test_bench_infer_quick_smoke():
  # benchmarks/bench_infer.py --quick: every part once on tfc only, in a temp folder
  out = subprocess.run([sys.executable, str(REPO / "benchmarks" / "bench_infer.py"), "--quick",
                        "--tfc-python", sys.executable], cwd="/tmp", capture_output=True,
                       text=True, timeout=300)
  assert out.returncode == 0, out.stderr
  assert "## Inference and the task farm" in out.stdout
  res = json.loads(out.stdout.strip().splitlines()[-1])
  assert res["quick"] and "tf" not in res["cold"]
  assert res["cold"]["tfc"]["class"] == EXPECTED["img0.jpg"]
  assert all(row["tfc"]["images_per_s"] > 0 for row in res["steady"])
  assert res["load"]["tfc"]["bytes"] > 0
  assert res["farm"]["tfc"]["images"] == 12
