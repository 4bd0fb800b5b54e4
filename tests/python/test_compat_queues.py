"""Queues and readers give TensorFlow's orders, keys and values (`make compat`;
.venv-tf): the same script (queue_oracle.py) runs under real TensorFlow and
under tfc over the same files. Without the TensorFlow venv the test skips;
with TFC_COMPAT_REQUIRED=1 that is a failure."""
import json
import os
import pathlib
import subprocess
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
TF_PYTHON = REPO / ".venv-tf" / "bin" / "python"
REQUIRED = os.environ.get("TFC_COMPAT_REQUIRED", "") not in ("", "0")
ORACLE = pathlib.Path(__file__).with_name("queue_oracle.py")


def _env():
  env = dict(os.environ)
  env.pop("LD_PRELOAD", None)  # TensorFlow runs without the sanitizer preload
  env.pop("PYTHONPATH", None)
  return env


def test_queue_orders_and_reader_keys_match_tensorflow(tmp_path):
  if not TF_PYTHON.exists():
    if REQUIRED:
      pytest.fail("TensorFlow venv missing")
    pytest.skip("no .venv-tf")
  (tmp_path / "lines.txt").write_bytes(b"h1\nalpha\r\n\nbeta\ngamma")
  (tmp_path / "fixed.bin").write_bytes(bytes(range(17)))
  import tfc as tf
  with tf.python_io.TFRecordWriter(str(tmp_path / "r.tfrecord")) as w:
    for i in range(4):
      w.write(b"x" * i)
  ref = subprocess.run([str(TF_PYTHON), str(ORACLE), "tf", str(tmp_path)], capture_output=True,
                       text=True, env=_env(), timeout=300)
  assert ref.returncode == 0, ref.stderr[-3000:]
  mine = subprocess.run([sys.executable, str(ORACLE), "tfc", str(tmp_path)], capture_output=True,
                        text=True, timeout=300)
  assert mine.returncode == 0, mine.stderr[-3000:]
  want = json.loads(ref.stdout.strip().splitlines()[-1])
  got = json.loads(mine.stdout.strip().splitlines()[-1])
  for key in want:
    assert got[key] == want[key], key
