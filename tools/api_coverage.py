"""Compares tfc's public names with TensorFlow's tf.compat.v1 and writes docs/api_coverage.md.

    .venv/bin/python tools/api_coverage.py           # rewrite docs/api_coverage.md
    .venv/bin/python tools/api_coverage.py --check   # exit 1 when the report is out of date

The list of TF's names is tools/tf_compat_v1_names.txt (made by tools/list_tf_names.py with
real TensorFlow). For every namespace the report says which names tfc has, which are
missing, and which are left out on purpose, with the reason (the rules are LEFT_OUT below).
A name counts as available when `tfc.<namespace>.<name>` resolves (lazy namespaces load).
tests/python/test_api_coverage.py holds tfc to the report: a name listed as available must
stay available, and the committed report must equal a fresh one.
"""
import argparse
import fnmatch
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
NAMES_FILE = os.path.join(HERE, "tf_compat_v1_names.txt")
REPORT = os.path.join(REPO, "docs", "api_coverage.md")

# What tfc leaves out on purpose: (pattern, reason). A pattern is a namespace or a full name
# (a namespace also covers everything below it), a glob on "namespace.name", or "re:" and a
# regular expression matched against "namespace.name". First match wins; a name tfc has
# counts as available whatever the rules say.
_TPU = "TPU"
_GPU = "GPU-only"
_EAGER = "eager-only (TF 2's eager execution and tf.function)"
_DIST = "tf.distribute strategies (tfc distributes with tf.train.Server, ClusterSpec and tf.device)"
LEFT_OUT = [
    ("tf.tpu", _TPU),
    ("re:.*[.](.*TPU.*|.*Tpu[A-Z].*|(.*_)?tpu(_.*)?)$", _TPU),
    ("tf.distribute", _DIST),
    ("tf.data.experimental.service", _DIST + "; the tf.data service's remote input workers"),
    ("tf.compat.v2", "the TF 2 API"),
    ("tf.keras", "Keras (Keras 3 in TF 2.21; tfc's layers API is tf.layers)"),
    ("tf.raw_ops", "TF's generated one-function-per-op wrappers (TPU, GPU and internal ops "
                   "among them); tfc offers its ops through the tf.* functions"),
    ("tf.lite", "TensorFlow Lite (a separate converter and interpreter)"),
    ("tf.mlir", "compiler internals (MLIR)"),
    ("tf.xla", "compiler internals (XLA)"),
    ("tf.autograph", _EAGER),
    ("tf.config", _EAGER + ": runtime device configuration (graph sessions take ConfigProto)"),
    ("tf.debugging.experimental", _EAGER + ": the TF 2 debugger's callbacks"),
    ("tf.debugging.enable_check_numerics", _EAGER + ": the TF 2 debugger's callbacks"),
    ("tf.debugging.disable_check_numerics", _EAGER + ": the TF 2 debugger's callbacks"),
    ("tf.debugging.*traceback_filtering*", _EAGER + ": TF 2 traceback filtering"),
    ("tf.debugging.*_log_device_placement", _EAGER + ": runtime device configuration "
                                                     "(graph sessions take ConfigProto)"),
    ("tf.experimental", _EAGER + ": function executors, extension types, API dispatch, "
                        "float8/int4 types"),
    ("tf.types", _EAGER + ": TF 2 type protocols"),
    ("tf.GradientTape", _EAGER),
    ("tf.function", _EAGER),
    ("tf.Module", _EAGER + ": tf.Module"),
    ("tf.enable_control_flow_v2", _EAGER + ": control flow v2"),
    ("tf.disable_control_flow_v2", _EAGER + ": control flow v2"),
    ("tf.control_flow_v2_enabled", _EAGER + ": control flow v2"),
    ("tf.enable_tensor_equality", _EAGER + ": TF 2 tensor equality"),
    ("tf.disable_tensor_equality", _EAGER + ": TF 2 tensor equality"),
    ("tf.enable_v2_tensorshape", _EAGER + ": TF 2 TensorShape"),
    ("tf.mixed_precision", _GPU + " (float16 graph rewrite and loss scaling)"),
    ("tf.train.experimental.*LossScale*", _GPU + " (float16 loss scaling)"),
    ("tf.train.experimental.*mixed_precision*", _GPU + " (float16 graph rewrite)"),
    ("tf.test.is_built_with_rocm", _GPU),
    ("tf.saved_model.experimental", _EAGER + ": TF 2's object-based SavedModel"),
    ("re:tf[.]saved_model[.](Asset|SaveOptions|save|load_v2)$",
     _EAGER + ": TF 2's object-based SavedModel (tf.saved_model.save/load of trackables)"),
    ("tf.sysconfig", "TF's C++ build flags (for compiling custom ops against TF)"),
    ("re:tf[.](CXX11_ABI_FLAG|CXX_VERSION|MONOLITHIC_BUILD)$",
     "TF's C++ build flags (for compiling custom ops against TF)"),
    ("tf.user_ops", "TF's example custom op"),
    ("re:tf[.](signal[.])?i?r?fftnd$", _GPU + " (TF 2's N-D FFTs: TF 2.21 has FFTND kernels for GPUs "
                                               "only; not in TF 1.15)"),
]

NOTES = """\
tf.contrib is not in the list: TensorFlow removed it in 2.0, so tf.compat.v1 has no
tf.contrib names to compare with; tfc implements none of it (tf.contrib.layers,
tf.contrib.rnn, tf.contrib.slim are contrib code, not TF 1.15's core API).
tf.layers and tf.nn.rnn_cell are TF 1.15's documented names: TensorFlow 2.21 with Keras 3
cannot import them."""


def read_names(path=NAMES_FILE):
  """Returns ({namespace: {name: kind}}, header comment lines) from the names file."""
  namespaces, header = {}, []
  with open(path) as f:
    for line in f:
      line = line.rstrip("\n")
      if line.startswith("#"):
        header.append(line[1:].strip())
        continue
      if line:
        namespace, name, kind = line.split("\t")
        namespaces.setdefault(namespace, {})[name] = kind
  return namespaces, header


def left_out_reason(namespace, name):
  """Returns why `namespace.name` is left out on purpose, or None."""
  full = namespace + "." + name
  for pattern, reason in LEFT_OUT:
    if pattern.startswith("re:"):
      if re.match(pattern[3:], full):
        return reason
    elif "*" in pattern:
      if fnmatch.fnmatchcase(full, pattern):
        return reason
    elif full == pattern or namespace == pattern or namespace.startswith(pattern + "."):
      return reason
  return None


def resolve(tfc, namespace, name=None):
  """Returns the tfc object for `namespace` (`tf.x.y`) or `namespace.name`; None if absent."""
  obj = tfc
  parts = namespace.split(".")[1:] + ([name] if name is not None else [])
  for part in parts:
    try:
      obj = getattr(obj, part)
    except Exception:  # pylint: disable=broad-except  (absent, or a namespace failing to load)
      return None
  return obj


def has_name(tfc, namespace, name):
  """True when tfc has `namespace.name` (the attribute exists)."""
  parent = resolve(tfc, namespace)
  if parent is None:
    return False
  try:
    getattr(parent, name)
  except Exception:  # pylint: disable=broad-except
    return False
  return True


def classify(tfc, namespaces):
  """Returns {namespace: {"available": [...], "missing": [...], "left out": [(name, reason)]}}."""
  result = {}
  for namespace in sorted(namespaces):
    entry = {"available": [], "missing": [], "left out": []}
    for name in sorted(namespaces[namespace]):
      if has_name(tfc, namespace, name):
        entry["available"].append(name)
        continue
      reason = left_out_reason(namespace, name)
      if reason:
        entry["left out"].append((name, reason))
      else:
        entry["missing"].append(name)
    result[namespace] = entry
  return result


def _percent(part, whole):
  return "%d%%" % round(100.0 * part / whole) if whole else "-"


def _names(names):
  return ", ".join("`%s`" % n for n in names)


def render(classified, header):
  """Returns the Markdown report for `classified` (see classify)."""
  lines = ["# API coverage: tfc against tf.compat.v1", ""]
  lines += ["Generated by `tools/api_coverage.py` from `tools/tf_compat_v1_names.txt` "
            "(%s). Do not edit by hand: after adding or removing a public name run "
            "`.venv/bin/python tools/api_coverage.py`; `tests/python/test_api_coverage.py` "
            "fails when a name listed as available here is gone or the report is stale."
            % "; ".join(h.rstrip(",.") for h in header if not h.startswith("namespace<")), ""]
  lines += ["A name is *available* when `tfc.<namespace>.<name>` exists. *Coverage* is "
            "available / (all - left out). Namespaces wholly left out are listed at the "
            "end of the table.", ""]
  lines += NOTES.splitlines() + [""]
  lines += ["## Summary", "",
            "| namespace | available | missing | left out | all | coverage |",
            "|---|---:|---:|---:|---:|---:|"]
  totals = [0, 0, 0, 0]
  rows_out = []
  for namespace, entry in classified.items():
    avail, miss, out = (len(entry["available"]), len(entry["missing"]), len(entry["left out"]))
    total = avail + miss + out
    totals = [totals[0] + avail, totals[1] + miss, totals[2] + out, totals[3] + total]
    row = "| %s | %d | %d | %d | %d | %s |" % (namespace, avail, miss, out, total,
                                                _percent(avail, total - out))
    if avail == 0 and miss == 0:
      rows_out.append(row)
    else:
      lines.append(row)
  lines += rows_out
  lines.append("| **all** | **%d** | **%d** | **%d** | **%d** | **%s** |"
               % (totals[0], totals[1], totals[2], totals[3],
                  _percent(totals[0], totals[3] - totals[2])))
  lines.append("")
  reasons = {}
  for namespace, entry in classified.items():
    for name, reason in entry["left out"]:
      reasons.setdefault(reason, []).append(namespace + "." + name)
  lines += ["## Left out on purpose", ""]
  for reason in sorted(reasons):
    spaces = sorted({n.rsplit(".", 1)[0] for n in reasons[reason]})
    lines.append("- %s: %d names (in %s)" % (reason, len(reasons[reason]), ", ".join(spaces)))
  lines.append("")
  lines += ["## Namespaces", ""]
  for namespace, entry in classified.items():
    if not entry["available"] and not entry["missing"]:
      continue
    lines += ["### %s" % namespace, ""]
    for label in ("available", "missing"):
      if entry[label]:
        lines += ["%s (%d): %s" % (label, len(entry[label]), _names(entry[label])), ""]
    if entry["left out"]:
      by_reason = {}
      for name, reason in entry["left out"]:
        by_reason.setdefault(reason, []).append(name)
      lines += ["left out (%d): %s" % (len(entry["left out"]), "; ".join(
          "%s (%s)" % (_names(names), reason) for reason, names in sorted(by_reason.items()))),
                ""]
  return "\n".join(lines).rstrip("\n") + "\n"


def make_report():
  """Returns the report for the tfc importable here."""
  import tfc
  namespaces, header = read_names()
  return render(classify(tfc, namespaces), header)


def parse_available(text):
  """Returns [(namespace, name)] that a report lists as available."""
  found, namespace = [], None
  for line in text.splitlines():
    if line.startswith("### "):
      namespace = line[4:].strip()
    elif namespace and line.startswith("available ("):
      body = line.split(": ", 1)[1]
      found += [(namespace, n.strip().strip("`")) for n in body.split(",")]
  return found


def main():
  parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
  parser.add_argument("--check", action="store_true",
                      help="exit 1 when %s differs from a fresh report" % REPORT)
  parser.add_argument("--out", default=REPORT)
  args = parser.parse_args()
  sys.path.insert(0, REPO)
  text = make_report()
  if args.check:
    with open(args.out) as f:
      if f.read() != text:
        print("%s is out of date: run tools/api_coverage.py" % args.out, file=sys.stderr)
        return 1
    return 0
  with open(args.out, "w") as f:
    f.write(text)
  print("wrote %s" % args.out)
  return 0


if __name__ == "__main__":
  sys.exit(main())
