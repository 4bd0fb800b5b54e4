"""docs/api_coverage.md is the contract for tfc's public names: every name it lists as
available must exist, and the committed report must equal one made now by
tools/api_coverage.py (run `.venv/bin/python tools/api_coverage.py` after adding names)."""
import difflib
import importlib.util
import os
import pathlib
import subprocess
import sys
import types

import pytest

import tfc as tf

REPO = pathlib.Path(__file__).resolve().parents[2]
TOOL = REPO / "tools" / "api_coverage.py"
REPORT = REPO / "docs" / "api_coverage.md"
TFC_ROOT = str(pathlib.Path(tf.__file__).resolve().parents[1])


def load_tool():
  spec = importlib.util.spec_from_file_location("api_coverage", TOOL)
  module = importlib.util.module_from_spec(spec)
  spec.loader.exec_module(module)
  return module


coverage = load_tool()


def test_names_listed_as_available_exist():
  listed = coverage.parse_available(REPORT.read_text())
  assert len(listed) > 600
  gone = ["%s.%s" % (ns, name) for ns, name in listed if not coverage.has_name(tf, ns, name)]
  assert not gone, "names docs/api_coverage.md lists as available are gone: %s" % gone


def test_report_is_current():
  # made in a fresh interpreter with the tfc this test imported, so nothing another test
  # did to the modules can leak into it
  code = ("import importlib.util, sys; spec = importlib.util.spec_from_file_location("
          "'api_coverage', %r); m = importlib.util.module_from_spec(spec); "
          "spec.loader.exec_module(m); sys.stdout.write(m.make_report())" % str(TOOL))
  fresh = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd="/tmp", env=dict(os.environ, PYTHONPATH=TFC_ROOT), check=True,
                         timeout=120).stdout
  committed = REPORT.read_text()
  if fresh != committed:
    diff = "".join(list(difflib.unified_diff(committed.splitlines(True), fresh.splitlines(True),
                                             "committed", "fresh"))[:60])
    pytest.fail("docs/api_coverage.md is out of date; run `.venv/bin/python "
                "tools/api_coverage.py` and commit it:\n" + diff)


def test_names_file():
  namespaces, header = coverage.read_names()
  assert any("tensorflow" in h for h in header)
  assert len(namespaces["tf"]) >= 600 and len(namespaces["tf.nn"]) >= 100
  # TF 1.15's typed-in names
  assert namespaces["tf.layers"]["conv2d_transpose"] == "function"
  assert namespaces["tf.layers"]["Conv2DTranspose"] == "class"
  assert namespaces["tf.nn.rnn_cell"]["LSTMStateTuple"] == "class"
  assert namespaces["tf"]["app"] == "module" and namespaces["tf.app"]["run"] == "function"
  assert namespaces["tf.flags"]["DEFINE_string"] == "function"
  kinds = {k for names in namespaces.values() for k in names.values()}
  assert kinds == {"module", "class", "function", "constant"}


@pytest.mark.parametrize("namespace,name,reason", [
    ("tf.tpu", "initialize_system", "TPU"),
    ("tf.tpu.experimental.embedding", "Adam", "TPU"),
    ("tf.train", "TPUEstimator", "TPU"),
    ("tf.distribute", "MirroredStrategy", "tf.distribute"),
    ("tf", "GradientTape", "eager-only"),
    ("tf.config.experimental", "set_memory_growth", "eager-only"),
    ("tf.mixed_precision", "LossScale", "GPU-only"),
    ("tf.raw_ops", "MatMul", "one-function-per-op"),
    ("tf.data", "get_output_shapes", None),   # "output" holds the letters "tpu"
    ("tf.nn", "conv2d_transpose", None),
    ("tf", "arg_max", None),
])
def test_left_out_rules(namespace, name, reason):
  got = coverage.left_out_reason(namespace, name)
  if reason is None:
    assert got is None
  else:
    assert got is not None and reason in got


def test_classify_render_and_parse():
  fake = types.SimpleNamespace(a=1, nn=types.SimpleNamespace(relu=abs))
  names = {"tf": {"a": "constant", "b": "function", "nn": "module", "tpu": "module"},
           "tf.nn": {"relu": "function", "elu": "function"},
           "tf.tpu": {"shard": "function"}}
  classified = coverage.classify(fake, names)
  assert classified["tf"] == {"available": ["a", "nn"], "missing": ["b"],
                              "left out": [("tpu", "TPU")]}
  assert classified["tf.nn"] == {"available": ["relu"], "missing": ["elu"], "left out": []}
  text = coverage.render(classified, ["names of a test"])
  assert "| tf.nn | 1 | 1 | 0 | 2 | 50% |" in text
  assert "| tf.tpu | 0 | 0 | 1 | 1 | - |" in text
  assert "| **all** | **3** | **2** | **2** | **7** | **60%** |" in text
  assert "- TPU: 2 names (in tf, tf.tpu)" in text
  assert coverage.parse_available(text) == [("tf", "a"), ("tf", "nn"), ("tf.nn", "relu")]


def test_app_and_flags_count_as_available():
  listed = set(coverage.parse_available(REPORT.read_text()))
  for entry in [("tf", "app"), ("tf", "flags"), ("tf.app", "run"), ("tf.app", "flags"),
                ("tf.flags", "DEFINE_string"), ("tf.flags", "FLAGS"), ("tf", "logging")]:
    assert entry in listed, entry
