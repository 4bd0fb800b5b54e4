"""TFRecord files and Examples written by tfc, read and parsed by real
TensorFlow (`make compat`; .venv-tf). The other direction (files TensorFlow
wrote, read by tfc) is tests/python/test_tfrecord.py and
test_parse_example.py over tests/fixtures/tfrecord.

Without the TensorFlow venv the test skips; with TFC_COMPAT_REQUIRED=1 (set
by `make compat`) that is a failure.
"""
import json
import os
import pathlib
import subprocess

import numpy as np
import pytest

import tfc as tf

REPO = pathlib.Path(__file__).resolve().parents[2]
TF_PYTHON = REPO / ".venv-tf" / "bin" / "python"
REQUIRED = os.environ.get("TFC_COMPAT_REQUIRED", "") not in ("", "0")

TF_READER = r'''
import json, os, sys
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()
out = {}
for path, comp in json.loads(sys.argv[1]):
    recs = list(tf.io.tf_record_iterator(path, comp))
    ser = tf.placeholder(tf.string, [None])
    f = tf.parse_example(ser, {"image": tf.FixedLenFeature([], tf.string),
                               "label": tf.FixedLenFeature([], tf.int64),
                               "score": tf.FixedLenFeature([2], tf.float32),
                               "tags": tf.VarLenFeature(tf.string)})
    with tf.Session() as s:
        v = s.run(f, {ser: recs})
    out[path] = {"n": len(recs), "image": [b.hex() for b in v["image"].tolist()],
                 "label": v["label"].tolist(), "score": v["score"].tolist(),
                 "tags": [b.decode() for b in v["tags"].values.tolist()],
                 "tags_indices": v["tags"].indices.tolist()}
print(json.dumps(out))
'''


def _examples():
  rng = np.random.RandomState(3)
  out = []
  for i in range(25):
    out.append(tf.train.Example(features=tf.train.Features(feature={
        "image": tf.train.Feature(bytes_list=tf.train.BytesList(
            value=[rng.randint(0, 256, 64).astype(np.uint8).tobytes()])),
        "label": tf.train.Feature(int64_list=tf.train.Int64List(value=[i - 12])),
        "score": tf.train.Feature(float_list=tf.train.FloatList(value=[i / 4.0, -i])),
        "tags": tf.train.Feature(bytes_list=tf.train.BytesList(
            value=[b"t%d" % k for k in range(i % 3)])),
    })).SerializeToString())
  return out


def test_tensorflow_reads_tfc_files(tmp_path):
  if not TF_PYTHON.exists():
    if REQUIRED:
      pytest.fail("no TensorFlow venv at %s" % TF_PYTHON)
    pytest.skip("no TensorFlow venv (.venv-tf)")
  examples = _examples()
  files = []
  for comp in ("", "ZLIB", "GZIP"):
    path = str(tmp_path / ("tfc_%s.tfrecord" % (comp or "plain")))
    with tf.io.TFRecordWriter(path, tf.io.TFRecordOptions(comp)) as w:
      for e in examples:
        w.write(e)
    files.append((path, comp))
  # TensorFlow runs without the sanitizer preload `make asan` gives tfc
  env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
  proc = subprocess.run([str(TF_PYTHON), "-c", TF_READER, json.dumps(files)], capture_output=True,
                        text=True, timeout=300, env=env)
  assert proc.returncode == 0, proc.stderr[-3000:]
  got = json.loads(proc.stdout.strip().splitlines()[-1])
  # tfc's own reading and parsing of the same files
  ser = tf.placeholder(tf.string, [None])
  f = tf.parse_example(ser, {"image": tf.FixedLenFeature([], tf.string),
                             "label": tf.FixedLenFeature([], tf.int64),
                             "score": tf.FixedLenFeature([2], tf.float32),
                             "tags": tf.VarLenFeature(tf.string)})
  with tf.Session() as sess:
    for path, comp in files:
      recs = list(tf.io.tf_record_iterator(path, comp))
      assert recs == examples
      v = sess.run(f, {ser: recs})
      want = got[path]
      assert want["n"] == len(examples)
      assert want["image"] == [b.hex() for b in v["image"].tolist()]
      assert want["label"] == v["label"].tolist()
      np.testing.assert_array_equal(want["score"], v["score"])
      assert want["tags"] == [b.decode() for b in v["tags"].values.tolist()]
      assert want["tags_indices"] == v["tags"].indices.tolist()
