"""tf.data pipelines give TensorFlow's element orders and values (`make
compat`; .venv-tf): data_oracle.py runs under real TensorFlow and under tfc
over the same files (shuffle orders with fixed seeds, reshuffling per epoch,
batching, padding, zip/concatenate, file datasets)."""
import json
import os
import pathlib
import subprocess
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
TF_PYTHON = REPO / ".venv-tf" / "bin" / "python"
REQUIRED = os.environ.get("TFC_COMPAT_REQUIRED", "") not in ("", "0")
ORACLE = pathlib.Path(__file__).with_name("data_oracle.py")


def test_dataset_orders_and_values_match_tensorflow(tmp_path):
  if not TF_PYTHON.exists():
    if REQUIRED:
      pytest.fail("TensorFlow venv missing")
    pytest.skip("no .venv-tf")
  import tfc as tf
  for name, recs in (("a", [b"r0", b"r1"]), ("b", [b"r2", b"", b"r4x"])):
    with tf.python_io.TFRecordWriter(str(tmp_path / (name + ".tfrecord"))) as w:
      for r in recs:
        w.write(r)
  (tmp_path / "t.txt").write_bytes(b"one\r\ntwo\n\nthree")
  (tmp_path / "f.bin").write_bytes(bytes(range(12)))
  env = dict(os.environ)
  env.pop("LD_PRELOAD", None)
  env.pop("PYTHONPATH", None)
  ref = subprocess.run([str(TF_PYTHON), str(ORACLE), "tf", str(tmp_path)], capture_output=True,
                       text=True, env=env, timeout=400)
  assert ref.returncode == 0, ref.stderr[-3000:]
  mine = subprocess.run([sys.executable, str(ORACLE), "tfc", str(tmp_path)], capture_output=True,
                        text=True, timeout=300)
  assert mine.returncode == 0, mine.stderr[-3000:]
  want = json.loads(ref.stdout.strip().splitlines()[-1])
  got = json.loads(mine.stdout.strip().splitlines()[-1])
  bad = [k for k in want if got.get(k) != want[k]]
  assert not bad, {k: (got.get(k), want[k]) for k in bad}
