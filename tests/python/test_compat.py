"""Frozen models written by real TensorFlow, run by tfc and compared with
TensorFlow's outputs (`make compat`).

The fixtures come from tools/make_compat_fixtures.py (needs TensorFlow, so
they are not in the repository); TFC_COMPAT_DIR names their folder. Without
it the tests skip, so `make test` does not depend on TensorFlow. With
TFC_COMPAT_REQUIRED=1 (set by `make compat`) a missing, empty or incomplete
folder is a failure, never a skip.

Each model is loaded with tf.GraphDef / tf.import_graph_def and run in a
Session with the default config and with intra/inter-op threads 1 and 2, on
every case of its io.npz (batch 1 and batch 4 for the image nets, one image
file per case for the path-input CNN).

Float outputs must agree with TensorFlow's to a relative error of 1e-4,
where the relative error of an output tensor is max|tfc - tf| / max|tf|
(the max norm of the difference relative to the max norm of the reference:
scale-free, and not dominated by near-zero elements such as tiny softmax
probabilities or logits that happen to cross zero). Integer outputs (the
ArgMax classes) and the argmax of every logits output must be identical.
"""
import json
import os
import pathlib

import numpy as np
import pytest

import tfc as tf

COMPAT_DIR = os.environ.get("TFC_COMPAT_DIR")
REQUIRED = os.environ.get("TFC_COMPAT_REQUIRED", "") not in ("", "0")
# what `make compat` generates (tools/make_compat_fixtures.py MODELS)
DEFAULT_MODELS = ("small_cnn_path", "mobilenet_v2", "resnet50")
REL_TOL = 1e-4
CONFIGS = {
    "default": None,
    "threads1": dict(intra_op_parallelism_threads=1, inter_op_parallelism_threads=1),
    "threads2": dict(intra_op_parallelism_threads=2, inter_op_parallelism_threads=2),
}


def _root():
  return pathlib.Path(COMPAT_DIR) if COMPAT_DIR else None


def _model_names():
  root = _root()
  if root is None or not root.is_dir():
    return []
  return sorted(p.name for p in root.iterdir() if p.is_dir())


MODEL_NAMES = _model_names()
# without models, one skipped case (test_fixture_folder says why)
MODEL_PARAMS = MODEL_NAMES or [pytest.param(
    None, marks=pytest.mark.skip(reason="no compat models (see test_fixture_folder)"))]


def test_fixture_folder():
  root = _root()
  if root is None:
    if REQUIRED:
      pytest.fail("TFC_COMPAT_REQUIRED is set but TFC_COMPAT_DIR is not")
    pytest.skip("TFC_COMPAT_DIR is not set: no TensorFlow-written models to compare "
                "with (run `make compat`)")
  if not root.is_dir():
    if REQUIRED:
      pytest.fail("TFC_COMPAT_DIR=%s does not exist" % root)
    pytest.skip("TFC_COMPAT_DIR=%s does not exist (run `make compat`)" % root)
  assert MODEL_NAMES, "TFC_COMPAT_DIR=%s holds no model folders" % root
  if REQUIRED:
    missing = sorted(set(DEFAULT_MODELS) - set(MODEL_NAMES))
    assert not missing, "models missing from %s: %s" % (root, missing)
  for name in MODEL_NAMES:
    for f in ("model.pb", "io.npz", "meta.json"):
      assert (root / name / f).is_file(), "%s/%s is missing" % (name, f)


_LOADED = {}


def _load(name):
  """(meta, io arrays, graph) of one model folder, checked for consistency."""
  if name not in _LOADED:
    folder = _root() / name
    meta = json.loads((folder / "meta.json").read_text())
    for key in ("input", "outputs", "shape", "cases"):
      assert key in meta, "%s/meta.json has no %r" % (name, key)
    assert meta["outputs"] and meta["cases"], "%s/meta.json: no outputs or cases" % name
    with np.load(folder / "io.npz") as npz:
      io = {k: npz[k] for k in npz.files}
    for tag in meta["cases"]:
      want = ["input_" + tag] + ["output%d_%s" % (i, tag) for i in range(len(meta["outputs"]))]
      missing = [k for k in want if k not in io]
      assert not missing, "%s/io.npz lacks %s" % (name, missing)
    graph_def = tf.GraphDef()
    with tf.gfile.GFile(str(folder / "model.pb"), "rb") as f:
      graph_def.ParseFromString(f.read())
    graph = tf.Graph()
    with graph.as_default():
      tf.import_graph_def(graph_def, name="")
    ops = {op.type for op in graph.get_operations()}
    assert not ops & {"VariableV2", "Variable", "VarHandleOp"}, "%s is not frozen" % name
    _LOADED[name] = (meta, io, graph)
  return _LOADED[name]


def _rel_err(got, want):
  got = np.asarray(got, np.float64)
  want = np.asarray(want, np.float64)
  assert got.shape == want.shape, (got.shape, want.shape)
  scale = np.max(np.abs(want)) if want.size else 0.0
  diff = np.max(np.abs(got - want)) if want.size else 0.0
  return float(diff / scale) if scale > 0 else float(diff)


def _feed_value(meta, folder, value):
  if meta.get("input_kind") == "path":
    return str(folder / str(value))
  return value


@pytest.mark.parametrize("config", sorted(CONFIGS))
@pytest.mark.parametrize("name", MODEL_PARAMS)
def test_model_matches_tensorflow(name, config):
  meta, io, graph = _load(name)
  folder = _root() / name
  x = graph.get_tensor_by_name(meta["input"])
  ys = [graph.get_tensor_by_name(n) for n in meta["outputs"]]
  cfg = tf.ConfigProto(**CONFIGS[config]) if CONFIGS[config] else None
  logits_idx = meta.get("logits_output")
  report, failures = [], []
  with tf.Session(graph=graph, config=cfg) as sess:
    for tag in meta["cases"]:
      got = sess.run(ys, feed_dict={x: _feed_value(meta, folder, io["input_" + tag])})
      errs = []
      for i, out_name in enumerate(meta["outputs"]):
        want = io["output%d_%s" % (i, tag)]
        g = np.asarray(got[i])
        if g.shape != want.shape:
          failures.append("%s %s: shape %s, TensorFlow %s" % (tag, out_name, g.shape, want.shape))
          continue
        if np.issubdtype(want.dtype, np.floating):
          err = _rel_err(g, want)
          errs.append("%s %.2e" % (out_name, err))
          if not err <= REL_TOL:
            failures.append("%s %s: relative error %.3e > %.0e" % (tag, out_name, err, REL_TOL))
        else:
          errs.append("%s exact" % out_name)
          if not np.array_equal(g, want):
            failures.append("%s %s: %s, TensorFlow %s" % (tag, out_name, g.tolist(), want.tolist()))
      if logits_idx is not None and not failures:
        want = io["output%d_%s" % (logits_idx, tag)]
        if not np.array_equal(np.argmax(got[logits_idx], -1), np.argmax(want, -1)):
          failures.append("%s: argmax of %s differs" % (tag, meta["outputs"][logits_idx]))
      report.append("%s: %s" % (tag, ", ".join(errs)))
  print("\n[compat] %s %s | %s" % (name, config, " | ".join(report)))
  assert not failures, "%s (%s):\n  %s" % (name, config, "\n  ".join(failures))
