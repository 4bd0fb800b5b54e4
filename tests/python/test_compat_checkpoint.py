"""Checkpoints exchanged with real TensorFlow (`make compat`).

The fixtures come from tools/make_checkpoint_fixtures.py (TensorFlow writes
them into TFC_COMPAT_CKPT_DIR); the tfc -> TF direction runs TensorFlow
(.venv-tf) on files tfc wrote. Without the folder or the venv the tests skip;
with TFC_COMPAT_REQUIRED=1 (set by `make compat`) that is a failure.

- a sharded TF checkpoint (four data shards, every dtype, strings, a
  partitioned variable) reads in tfc to identical values, through
  NewCheckpointReader and through TF's own save/ subgraph imported from its
  MetaGraphDef (ShardedFilename, StringJoin, MergeV2Checkpoints, RestoreV2
  with slice specs, ...), which also saves again;
- checkpoints tfc writes (plain and sharded) read in TF to identical values,
  with TF's reader and TF's Saver;
- an MLP trained some steps in one framework continues in the other with the
  losses of an uninterrupted TF run.
"""
import importlib.util
import json
import os
import pathlib
import subprocess

import numpy as np
import pytest

import tfc as tf

REPO = pathlib.Path(__file__).resolve().parents[2]
TF_PYTHON = REPO / ".venv-tf" / "bin" / "python"
TOOL = REPO / "tools" / "make_checkpoint_fixtures.py"
CKPT_DIR = os.environ.get("TFC_COMPAT_CKPT_DIR")
REQUIRED = os.environ.get("TFC_COMPAT_REQUIRED", "") not in ("", "0")
LOSS_RTOL = 1e-4


def _tool():
  spec = importlib.util.spec_from_file_location("make_checkpoint_fixtures", TOOL)
  mod = importlib.util.module_from_spec(spec)
  spec.loader.exec_module(mod)
  return mod


def _fixture_dir():
  if not CKPT_DIR or not (pathlib.Path(CKPT_DIR) / "mlp" / "losses.npy").exists():
    if REQUIRED:
      pytest.fail("no checkpoint fixtures in TFC_COMPAT_CKPT_DIR=%r" % CKPT_DIR)
    pytest.skip("no checkpoint fixtures (make compat writes them)")
  return pathlib.Path(CKPT_DIR)


def _tf_python():
  if not TF_PYTHON.exists():
    if REQUIRED:
      pytest.fail("no TensorFlow venv at %s" % TF_PYTHON)
    pytest.skip("no TensorFlow venv (.venv-tf)")
  return str(TF_PYTHON)


def _run_tf(*args):
  proc = subprocess.run([_tf_python(), str(TOOL), *args], capture_output=True, text=True,
                        timeout=600, env=dict({k: v for k, v in os.environ.items()
                                               if k != "LD_PRELOAD"}, TF_CPP_MIN_LOG_LEVEL="3"))
  assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
  return proc.stdout.strip().splitlines()[-1]


def _values(d):
  data = np.load(d / "values.npz", allow_pickle=True)
  return {k.replace("|", "/"): data[k] for k in data.files}


def _assert_same(name, got, want):
  got = np.asarray(got)
  assert got.shape == want.shape, name
  if want.dtype == object:
    assert [bytes(x) for x in got.reshape(-1)] == list(want.reshape(-1)), name
  else:
    assert got.dtype == want.dtype, (name, got.dtype, want.dtype)
    np.testing.assert_array_equal(got, want, err_msg=name)


def test_tf_sharded_checkpoint_reads_identically():
  d = _fixture_dir() / "tf_sharded"
  values = _values(d)
  prefix = tf.train.latest_checkpoint(str(d))
  assert prefix == str(d / "model.ckpt-5")
  reader = tf.train.NewCheckpointReader(prefix)
  shapes = reader.get_variable_to_shape_map()
  assert sorted(shapes) == sorted(values)
  assert shapes["part"] == [10, 4]
  for name, want in values.items():
    _assert_same(name, reader.get_tensor(name), want)
  assert len([f for f in os.listdir(d) if ".data-" in f]) == 4


def test_tf_save_subgraph_restores_and_saves(tmp_path):
  d = _fixture_dir() / "tf_sharded"
  values = _values(d)
  prefix = str(d / "model.ckpt-5")
  config = tf.ConfigProto(device_count={"CPU": 3})
  with tf.Graph().as_default() as g:
    saver = tf.train.import_meta_graph(prefix + ".meta")
    types = set(op.type for op in g.get_operations())
    assert {"StaticRegexFullMatch", "Select", "StringJoin", "ShardedFilename",
            "MergeV2Checkpoints", "SaveV2", "RestoreV2", "Pack"} <= types
    with tf.Session(config=config) as sess:
      saver.restore(sess, prefix)
      for v in tf.global_variables():
        name = v.op.name
        if name.startswith("part/part_"):
          k = int(name.rsplit("_", 1)[1])
          rows = [(0, 4), (4, 7), (7, 10)][k]
          _assert_same(name, sess.run(v), values["part"][rows[0]:rows[1]])
        else:
          _assert_same(name, sess.run(v), values[name])
      again = saver.save(sess, str(tmp_path / "again"), global_step=6)
  assert again == str(tmp_path / "again-6")
  reader = tf.train.NewCheckpointReader(again)
  assert sorted(reader.get_variable_to_shape_map()) != []
  for name in ("v_float32", "s", "v_uint64"):
    _assert_same(name, reader.get_tensor(name), values[name])


def _tfc_checkpoint(tmp_path, sharded):
  """A checkpoint written by tfc (two devices when sharded) and its values file."""
  values = _tool().dtype_values()
  prefix = str(tmp_path / ("sharded" if sharded else "plain") / "model.ckpt")
  config = tf.ConfigProto(device_count={"CPU": 2})
  with tf.Graph().as_default():
    for i, (name, v) in enumerate(sorted(values.items())):
      with tf.device("/cpu:%d" % (i % 2)):
        tf.Variable(v, name=name)
    saver = tf.train.Saver(sharded=sharded)
    with tf.Session(config=config) as sess:
      sess.run(tf.global_variables_initializer())
      path = saver.save(sess, prefix, global_step=3)
  npz = str(tmp_path / ("values_%d.npz" % sharded))
  np.savez(npz, **{k.replace("/", "|"): v for k, v in values.items()})
  return path, npz


@pytest.mark.parametrize("sharded", [False, True])
def test_tfc_checkpoint_reads_in_tf(tmp_path, sharded):
  _fixture_dir()
  path, npz = _tfc_checkpoint(tmp_path, sharded)
  assert _run_tf("--check-values", path, npz) == "ok"


def _mlp_losses(tool, data, restore_from, steps, save_to=None):
  with tf.Graph().as_default():
    loss, train_op, feed = tool.build_mlp(tf, data)
    saver = tf.train.Saver()
    with tf.Session() as sess:
      saver.restore(sess, restore_from)
      losses = tool.train(sess, loss, train_op, feed, steps)
      if save_to:
        saver.save(sess, save_to, write_meta_graph=False)
  return losses


def test_mlp_continues_across_frameworks(tmp_path):
  d = _fixture_dir() / "mlp"
  tool = _tool()
  data = dict(np.load(d / "data.npz"))
  want = np.load(d / "losses.npy")
  k = tool.STEPS
  # TF trained k steps; tfc continues
  got = _mlp_losses(tool, data, str(d / ("step%d.ckpt" % k)), k)
  np.testing.assert_allclose(got, want[k:], rtol=LOSS_RTOL)
  # tfc trains k steps from TF's initial checkpoint; TF continues
  mine = str(tmp_path / ("tfc_step%d.ckpt" % k))
  got = _mlp_losses(tool, data, str(d / "init.ckpt"), k, save_to=mine)
  np.testing.assert_allclose(got, want[:k], rtol=LOSS_RTOL)
  tf_losses = json.loads(_run_tf("--continue-mlp", mine, str(k), str(d.parent)))
  np.testing.assert_allclose(tf_losses, want[k:], rtol=LOSS_RTOL)
