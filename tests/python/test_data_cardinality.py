"""tf.data.experimental.cardinality: the DatasetCardinality kernel's counts
match TensorFlow's for every transformation (cardinality_oracle.py run under
both), known counts equal the elements actually produced, and bad input
fails cleanly."""
import json
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import tfc as tf

REPO = pathlib.Path(__file__).resolve().parents[2]
TF_PYTHON = REPO / ".venv-tf" / "bin" / "python"
REQUIRED = os.environ.get("TFC_COMPAT_REQUIRED", "") not in ("", "0")
ORACLE = pathlib.Path(__file__).with_name("cardinality_oracle.py")


def _files(d):
  with tf.python_io.TFRecordWriter(str(d / "r.tfrecord")) as w:
    w.write(b"a")
    w.write(b"b")
  (d / "t.txt").write_bytes(b"x\ny\n")


def _run_oracle(python, d, env=None):
  p = subprocess.run([str(python), str(ORACLE), "tf" if python != sys.executable else "tfc", str(d)],
                     capture_output=True, text=True, env=env, timeout=400)
  assert p.returncode == 0, p.stderr[-3000:]
  return json.loads(p.stdout.strip().splitlines()[-1])


def test_cardinality_matches_tensorflow(tmp_path):
  if not TF_PYTHON.exists():
    if REQUIRED:
      pytest.fail("TensorFlow venv missing")
    pytest.skip("no .venv-tf")
  _files(tmp_path)
  env = dict(os.environ)
  env.pop("LD_PRELOAD", None)
  env.pop("PYTHONPATH", None)
  want = _run_oracle(TF_PYTHON, tmp_path, env)
  got = _run_oracle(sys.executable, tmp_path)
  assert set(got) == set(want)
  bad = {k: (got[k], want[k]) for k in want if got[k] != want[k]}
  assert not bad, bad


def _count(ds):
  nxt = tf.data.make_one_shot_iterator(ds).get_next()
  n = 0
  with tf.Session() as s:
    while True:
      try:
        s.run(nxt)
      except tf.errors.OutOfRangeError:
        return n
      n += 1


@pytest.mark.parametrize("make", [
    lambda D: D.range(17).batch(5),
    lambda D: D.range(17).batch(5, drop_remainder=True),
    lambda D: D.from_tensor_slices(np.arange(9)).skip(2).take(5).repeat(3),
    lambda D: D.zip((D.range(6), D.range(3).repeat(4))),
    lambda D: D.range(4).concatenate(D.range(2)).shuffle(3, seed=5).cache().prefetch(2),
    lambda D: D.range(20, 1, -3),
])
def test_known_cardinality_equals_elements_produced(make):
  with tf.Graph().as_default():
    ds = make(tf.data.Dataset)
    with tf.Session() as s:
      n = s.run(tf.data.experimental.cardinality(ds))
    assert n >= 0
    assert n == _count(ds)


def test_infinite_and_unknown_constants():
  with tf.Graph().as_default():
    D = tf.data.Dataset
    c = tf.data.experimental.cardinality
    t = [c(D.range(3).repeat()), c(D.range(3).filter(lambda x: x > 0))]
    assert t[0].dtype == tf.int64 and t[0].shape.as_list() == []
    with tf.Session() as s:
      inf, unk = s.run(t)
  assert inf == tf.data.experimental.INFINITE_CARDINALITY == -1
  assert unk == tf.data.experimental.UNKNOWN_CARDINALITY == -2


def test_cardinality_of_a_dataset_fed_through_a_placeholder():
  with tf.Graph().as_default():
    n = tf.placeholder(tf.int64, [])
    c = tf.data.experimental.cardinality(tf.data.Dataset.range(n).batch(4))
    with tf.Session() as s:
      assert s.run(c, {n: 10}) == 3
      assert s.run(c, {n: 0}) == 0


def test_cardinality_rejects_non_datasets():
  with tf.Graph().as_default():
    with pytest.raises(TypeError, match="tf.data.Dataset"):
      tf.data.experimental.cardinality(tf.constant([1, 2]))
