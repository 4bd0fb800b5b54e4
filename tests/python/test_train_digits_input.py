"""examples/train_digits_input.py --short trains the digits CNN from TFRecord
files through queues (reader threads, shuffle_batch_join) and through tf.data,
both well above chance (10%)."""
import pathlib
import re
import subprocess
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


def test_train_digits_from_tfrecords_through_queues_and_tf_data(tmp_path):
  pytest.importorskip("sklearn")
  out = subprocess.run([sys.executable, str(REPO / "examples" / "train_digits_input.py"), "--short",
                        "--dir", str(tmp_path)], cwd="/tmp", capture_output=True, text=True, timeout=300)
  assert out.returncode == 0, out.stderr
  accs = dict(re.findall(r"^cnn via (queue|data) \(\d+ steps\): test accuracy ([0-9.]+)$", out.stdout, re.M))
  assert set(accs) == {"queue", "data"}, out.stdout
  for pipeline, acc in accs.items():
    assert float(acc) > 0.9, (pipeline, out.stdout)
  assert len(list(tmp_path.glob("digits-*.tfrecord"))) == 4
