"""SparseTensor components in tf.data (map, batch, shuffle, zip, filter),
tf.data.experimental.parse_example_dataset and make_batched_features_dataset
give TensorFlow's elements, shapes and classes (`make compat`; .venv-tf): the
same script (data_sparse_oracle.py) runs under real TensorFlow and under tfc.
Without the TensorFlow venv the test skips; with TFC_COMPAT_REQUIRED=1 that
is a failure. test_data_sparse.py checks values by hand without TensorFlow."""
import json
import os
import pathlib
import subprocess
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
TF_PYTHON = REPO / ".venv-tf" / "bin" / "python"
REQUIRED = os.environ.get("TFC_COMPAT_REQUIRED", "") not in ("", "0")
ORACLE = pathlib.Path(__file__).with_name("data_sparse_oracle.py")


def _env():
  env = dict(os.environ)
  env.pop("LD_PRELOAD", None)  # TensorFlow runs without the sanitizer preload
  env.pop("PYTHONPATH", None)
  return env


def test_sparse_datasets_match_tensorflow(tmp_path):
  if not TF_PYTHON.exists():
    if REQUIRED:
      pytest.fail("TensorFlow venv missing")
    pytest.skip("no .venv-tf")
  (tmp_path / "tf").mkdir()
  (tmp_path / "tfc").mkdir()
  ref = subprocess.run([str(TF_PYTHON), str(ORACLE), "tf", str(tmp_path / "tf")],
                       capture_output=True, text=True, env=_env(), timeout=300)
  assert ref.returncode == 0, ref.stderr[-3000:]
  mine = subprocess.run([sys.executable, str(ORACLE), "tfc", str(tmp_path / "tfc")],
                        capture_output=True, text=True, timeout=300)
  assert mine.returncode == 0, mine.stderr[-3000:]
  want = json.loads(ref.stdout.strip().splitlines()[-1])
  got = json.loads(mine.stdout.strip().splitlines()[-1])
  assert sorted(got) == sorted(want)
  for key in want:
    assert got[key] == want[key], key
