"""Sparse tensors through tf.train.batch, maybe_batch, batch_join and
shuffle_batch give TensorFlow's batches (`make compat`; .venv-tf): the same
script (sparse_batch_oracle.py) runs under real TensorFlow and under tfc over
the same TFRecord files, and tfc runs a GraphDef TensorFlow wrote with the
SparseTensorsMap ops. Without the TensorFlow venv the test skips; with
TFC_COMPAT_REQUIRED=1 that is a failure. test_sparse_tensors_map.py checks
the map ops and a batch by hand without TensorFlow."""
import json
import os
import pathlib
import subprocess
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
TF_PYTHON = REPO / ".venv-tf" / "bin" / "python"
REQUIRED = os.environ.get("TFC_COMPAT_REQUIRED", "") not in ("", "0")
ORACLE = pathlib.Path(__file__).with_name("sparse_batch_oracle.py")


def _env():
  env = dict(os.environ)
  env.pop("LD_PRELOAD", None)  # TensorFlow runs without the sanitizer preload
  env.pop("PYTHONPATH", None)
  return env


def _shuffled_batch_ok(batch):
  """Each row's sparse values are the ones its label's Example holds."""
  labels = batch["label"]
  for row, label in enumerate(labels):
    ids = [v for (r, _), v in zip(batch["ids"]["i"], batch["ids"]["v"]) if r == row]
    w = [v for (r, _), v in zip(batch["w"]["i"], batch["w"]["v"]) if r == row]
    if ids != list(range(label % 4)) or w != [float(label)] * (label % 3):
      return False
  return True


def test_sparse_batches_match_tensorflow(tmp_path):
  if not TF_PYTHON.exists():
    if REQUIRED:
      pytest.fail("TensorFlow venv missing")
    pytest.skip("no .venv-tf")
  import tfc as tf
  sys.path.insert(0, str(ORACLE.parent))
  import sparse_batch_oracle  # pylint: disable=g-import-not-at-top
  sparse_batch_oracle.write_files(tf, str(tmp_path))
  ref = subprocess.run([str(TF_PYTHON), str(ORACLE), "tf", str(tmp_path)], capture_output=True,
                       text=True, env=_env(), timeout=300)
  assert ref.returncode == 0, ref.stderr[-3000:]
  mine = subprocess.run([sys.executable, str(ORACLE), "tfc", str(tmp_path)], capture_output=True,
                        text=True, timeout=300)
  assert mine.returncode == 0, mine.stderr[-3000:]
  want = json.loads(ref.stdout.strip().splitlines()[-1])
  got = json.loads(mine.stdout.strip().splitlines()[-1])
  for key in want:
    if key == "shuffle_batch":
      assert [len(b["label"]) for b in got[key]] == [len(b["label"]) for b in want[key]]
      assert sorted(l for b in got[key] for l in b["label"]) == list(range(5)) + list(range(10, 15))
      assert all(_shuffled_batch_ok(b) for b in got[key])
      assert all(_shuffled_batch_ok(b) for b in want[key])
      continue
    assert got[key] == want[key], key
