"""Every op type against real TensorFlow: the frozen graphs of tests/fixtures/ops
(written by tools/make_op_fixtures.py with TensorFlow, see manifest.json there)
are imported into tfc, fed the same inputs, and their outputs compared with
TF's.

Comparison, per output:
  - dtype and shape identical;
  - integer, bool and string outputs exactly equal;
  - float outputs: NaN and +-inf exactly where TF has them, and on the other
    elements |tfc - tf| <= rtol * max(|tf|) + 1e-30, with max over the
    output's finite TF values; rtol is 1e-5 for float32/float64 and 2e-3
    (two float16 ulps) for float16, whose results TF rounds after each step
    of its accumulations while tfc accumulates in float and rounds once;
    a case may state its own rtol (with the reason) in the manifest.
Cases where TF fails the step ("error" in the manifest) must fail in tfc with
the same tfc.errors class. Cases listed under "differs" in the manifest differ from TF 2.21 on purpose
(the reason is in the manifest): "skip_outputs" are checked for dtype and
shape only; "tfc_error" cases must fail in tfc with that class; for
"tfc_computes" cases (TF fails the step) tfc must compute without failing.
"""
import json
import pathlib

import numpy as np
import pytest

import tfc as tf
from tfc import _tfc

FIXTURES = pathlib.Path(__file__).resolve().parents[1] / "fixtures"
OPS = FIXTURES / "ops"
MANIFEST = json.loads((OPS / "manifest.json").read_text())
RTOL = 1e-5
RTOL_HALF = 2e-3
ATOL = 1e-30

CASES = [(op, rec) for op, entry in sorted(MANIFEST["ops"].items()) for rec in entry["cases"]]


def _get(data, key):
  """The array stored under key (strings and bfloat16 are stored encoded)."""
  if key + ".lens" in data.files:
    lens = data[key + ".lens"]
    raw = data[key + ".bytes"].tobytes()
    out, pos = [], 0
    for n in lens.reshape(-1):
      out.append(raw[pos:pos + int(n)])
      pos += int(n)
    return np.array(out, dtype=object).reshape(lens.shape)
  if key + ".bfloat16" in data.files:
    # tfc hands bfloat16 tensors to NumPy (which has no bfloat16) as float32:
    # the same values, exactly
    bits = data[key + ".bfloat16"].astype(np.uint32) << 16
    return bits.view(np.float32)
  return data[key]


def _graph(op):
  graph_def = tf.GraphDef()
  graph_def.ParseFromString((OPS / MANIFEST["ops"][op]["graph"]).read_bytes())
  graph = tf.Graph()
  with graph.as_default():
    tf.import_graph_def(graph_def, name="")
  return graph


def _run(op, rec, data, tmp_path):
  """Runs the case in tfc as the tool ran it in TF: init ops in a step of
  their own, then fetches + targets, then the "after" fetches."""
  graph = _graph(op)
  feed = {}
  for i, name in enumerate(rec["feeds"]):
    feed[graph.get_tensor_by_name(name)] = _get(data, "%s.feed%d" % (rec["name"], i))
  for name, rel in rec.get("file_feeds", {}).items():
    feed[graph.get_tensor_by_name(name)] = (FIXTURES / rel).read_bytes()
  for name, rel in rec.get("path_feeds", {}).items():
    feed[graph.get_tensor_by_name(name)] = str(FIXTURES / rel).encode()
  for name, fname in rec.get("tmp_feeds", {}).items():
    feed[graph.get_tensor_by_name(name)] = str(tmp_path / fname).encode()
  with tf.Session(graph=graph) as sess:
    for name in rec["init"]:
      sess.run(graph.get_operation_by_name(name))
    fetches = [graph.get_tensor_by_name(n) for n in rec["fetches"]]
    targets = [graph.get_operation_by_name(n) for n in rec["targets"]]
    outs = list(sess.run(fetches + targets, feed)[:len(fetches)])
    after = [graph.get_tensor_by_name(n) for n in rec.get("after", [])]
    if after:
      outs += list(sess.run(after))
  return outs


def _compare(label, got, want, rtol):
  got = np.asarray(got)
  assert got.shape == want.shape, "%s: shape %s, TF %s" % (label, got.shape, want.shape)
  if want.dtype == object:
    assert got.dtype.kind in "OS", "%s: dtype %s, TF string" % (label, got.dtype)
    assert [bytes(x) for x in got.reshape(-1)] == list(want.reshape(-1)), label
    return
  assert got.dtype == want.dtype, "%s: dtype %s, TF %s" % (label, got.dtype, want.dtype)
  if want.dtype.kind == "c":  # complex: compared as (re, im) float pairs
    got = np.stack([got.real, got.imag], -1)
    want = np.stack([want.real, want.imag], -1)
  if want.dtype.kind != "f":
    np.testing.assert_array_equal(got, want, err_msg=label)
    return
  if want.dtype == np.float16:
    rtol = max(rtol, RTOL_HALF)
  g, w = got.astype(np.float64), want.astype(np.float64)
  finite = np.isfinite(w)
  np.testing.assert_array_equal(np.isnan(g), np.isnan(w), err_msg=label + ": NaN positions")
  np.testing.assert_array_equal(g[~finite & ~np.isnan(w)], w[~finite & ~np.isnan(w)],
                                err_msg=label + ": infinities")
  if not finite.any():
    return
  scale = np.max(np.abs(w[finite]))
  err = np.abs(g[finite] - w[finite])
  bound = rtol * scale + ATOL
  assert np.all(err <= bound), "%s: max |tfc - tf| = %g > %g (rtol %g * max|tf| %g)" % (
      label, err.max(), bound, rtol, scale)


@pytest.mark.parametrize("op,rec", CASES, ids=["%s/%s" % (op, rec["name"]) for op, rec in CASES])
def test_op_matches_tensorflow(op, rec, tmp_path):
  data = np.load(OPS / MANIFEST["ops"][op]["data"])
  differs = MANIFEST["differs"].get("%s/%s" % (op, rec["name"]), {})
  if differs.get("tfc_computes"):
    _run(op, rec, data, tmp_path)
    return
  if rec.get("error") or differs.get("tfc_error"):
    with pytest.raises(getattr(tf.errors, differs.get("tfc_error") or rec["error"])):
      _run(op, rec, data, tmp_path)
    return
  outs = _run(op, rec, data, tmp_path)
  names = rec["fetches"] + rec.get("after", [])
  assert len(outs) == len(names)
  for i, (name, value) in enumerate(zip(names, outs)):
    want = _get(data, "%s.fetch%d" % (rec["name"], i))
    if i in differs.get("skip_outputs", []):
      value = np.asarray(value)
      assert value.shape == want.shape and value.dtype == want.dtype, name
      continue
    _compare("%s/%s %s" % (op, rec["name"], name), value, want, rec.get("rtol", RTOL))
  for fname, key in rec.get("files", {}).items():
    want = _get(data, key)
    assert (tmp_path / fname).read_bytes() == want.reshape(-1)[0], fname


def test_every_registered_op_has_a_case_or_a_reason():
  registered = set(_tfc.op_names())
  covered = set(MANIFEST["ops"])
  skipped = set(MANIFEST["skipped"])
  assert sorted(registered - covered - skipped) == [], \
      "op types without a fixture in tests/fixtures/ops (run tools/make_op_fixtures.py)"
  assert all(MANIFEST["skipped"][op].strip() for op in skipped)
  assert sorted((covered | skipped) - registered) == [], "fixtures for unregistered op types"
  assert all(entry["reason"].strip() for entry in MANIFEST["differs"].values())


def test_fixture_graphs_hold_their_op_type():
  """Each op's graph contains that op type (the fixture tests what it says)."""
  for op in MANIFEST["ops"]:
    graph_def = tf.GraphDef()
    graph_def.ParseFromString((OPS / MANIFEST["ops"][op]["graph"]).read_bytes())
    assert any(n.op == op for n in graph_def.node), op

