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


TF_PIPELINE = r'''
import json, os, sys
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()
path, out = sys.argv[1], sys.argv[2]
feats = {"x": tf.FixedLenFeature([2], tf.float32), "y": tf.FixedLenFeature([], tf.int64)}
ds = tf.data.TFRecordDataset([path]).map(lambda s: tf.parse_single_example(s, feats)).batch(3)
it = tf.data.make_initializable_iterator(ds)
nxt = it.get_next()
with tf.Session() as s:
  s.run(it.initializer)
  vals = []
  try:
    while True:
      v = s.run(nxt)
      vals.append({"x": v["x"].tolist(), "y": v["y"].tolist()})
  except tf.errors.OutOfRangeError:
    pass
g = tf.get_default_graph()
open(out, "wb").write(g.as_graph_def().SerializeToString())
print(json.dumps({"init": it.initializer.name, "x": nxt["x"].name, "y": nxt["y"].name, "vals": vals}))
'''


def test_tensorflow_written_pipeline_graph_imports_and_runs(tmp_path):
  """A GraphDef TensorFlow wrote (TFRecordDataset -> map(parse_single_example)
  -> batch, an initializable iterator; the map and the file reading are
  functions of its library) runs in tfc with TF's values."""
  if not TF_PYTHON.exists():
    if REQUIRED:
      pytest.fail("TensorFlow venv missing")
    pytest.skip("no .venv-tf")
  import tfc as tf
  p = str(tmp_path / "ex.tfrecord")
  with tf.python_io.TFRecordWriter(p) as w:
    for i in range(7):
      w.write(tf.train.Example(features=tf.train.Features(feature={
          "x": tf.train.Feature(float_list=tf.train.FloatList(value=[i, i / 2])),
          "y": tf.train.Feature(int64_list=tf.train.Int64List(value=[i * 3]))})).SerializeToString())
  env = dict(os.environ)
  env.pop("LD_PRELOAD", None)
  env.pop("PYTHONPATH", None)
  gpath = str(tmp_path / "pipeline.pb")
  ref = subprocess.run([str(TF_PYTHON), "-c", TF_PIPELINE, p, gpath], capture_output=True, text=True,
                       env=env, timeout=400)
  assert ref.returncode == 0, ref.stderr[-3000:]
  want = json.loads(ref.stdout.strip().splitlines()[-1])
  gd = tf.GraphDef()
  gd.ParseFromString(open(gpath, "rb").read())
  with tf.Graph().as_default() as g:
    tf.import_graph_def(gd, name="")
    x, y = g.get_tensor_by_name(want["x"]), g.get_tensor_by_name(want["y"])
    with tf.Session() as s:
      s.run(g.get_operation_by_name(want["init"]))
      got = []
      try:
        while True:
          vx, vy = s.run([x, y])
          got.append({"x": vx.tolist(), "y": vy.tolist()})
      except tf.errors.OutOfRangeError:
        pass
  assert got == want["vals"]


TF_ONE_SHOT = r'''
import json, os, sys
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()
ds = tf.data.Dataset.range(7).map(lambda x: x * 3).shuffle(4, seed=2).batch(2)
nxt = tf.data.make_one_shot_iterator(ds).get_next()
vals = []
with tf.Session() as s:
  try:
    while True:
      vals.append(s.run(nxt).tolist())
  except tf.errors.OutOfRangeError:
    pass
open(sys.argv[1], "wb").write(tf.get_default_graph().as_graph_def().SerializeToString())
print(json.dumps({"next": nxt.name, "vals": vals}))
'''


def test_tensorflow_one_shot_iterator_graph_runs(tmp_path):
  """TF's OneShotIterator (its dataset built by a dataset_factory function)
  in a GraphDef TensorFlow wrote gives TF's elements in tfc."""
  if not TF_PYTHON.exists():
    if REQUIRED:
      pytest.fail("TensorFlow venv missing")
    pytest.skip("no .venv-tf")
  import tfc as tf
  env = dict(os.environ)
  env.pop("LD_PRELOAD", None)
  env.pop("PYTHONPATH", None)
  gpath = str(tmp_path / "one_shot.pb")
  ref = subprocess.run([str(TF_PYTHON), "-c", TF_ONE_SHOT, gpath], capture_output=True, text=True, env=env,
                       timeout=400)
  assert ref.returncode == 0, ref.stderr[-3000:]
  want = json.loads(ref.stdout.strip().splitlines()[-1])
  gd = tf.GraphDef()
  gd.ParseFromString(open(gpath, "rb").read())
  with tf.Graph().as_default() as g:
    tf.import_graph_def(gd, name="")
    assert "OneShotIterator" in {op.type for op in g.get_operations()}
    nxt = g.get_tensor_by_name(want["next"])
    got = []
    with tf.Session() as s:
      try:
        while True:
          got.append(s.run(nxt).tolist())
      except tf.errors.OutOfRangeError:
        pass
  assert got == want["vals"]
