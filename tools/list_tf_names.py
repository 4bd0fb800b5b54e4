"""Writes the public names of real TensorFlow's tf.compat.v1 API, namespace by namespace.

Run with TensorFlow installed (the project's .venv-tf):

    .venv-tf/bin/python tools/list_tf_names.py            # writes tools/tf_compat_v1_names.txt

Every line of the output is `namespace<TAB>name<TAB>kind`, namespace `tf` for the top level
and `tf.nn`, `tf.train.experimental`, ... below it; kind is module, class, function or
constant. tools/api_coverage.py compares tfc with this list.

What is walked: tf.compat.v1 and every submodule of TensorFlow's generated v1 API, plus
tf.flags (absl's flags, which TF re-exports from outside the generated tree). Not walked:
tf.compat.v1.compat.v1 (the top level again), tf.compat.v2 (the TF 2 API) and tf.keras
(Keras 3's, not TF 1.15's); they are listed as names, as is tf.test.mock (unittest.mock). With Keras 3, tf.compat.v1.layers and
tf.compat.v1.nn.rnn_cell cannot be imported; their names are TF 1.15's documented ones,
typed in below. Module attributes that leak from TF's implementation (imported helper
modules) are not API and are left out.
"""
import argparse
import inspect
import os
import sys
import types

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tf_compat_v1_names.txt")

# TF 1.15's documented tf.layers and tf.nn.rnn_cell (api_docs/python/tf/layers, .../nn/rnn_cell).
TF115_TYPED = {
    "tf.layers": {
        "class": """AveragePooling1D AveragePooling2D AveragePooling3D BatchNormalization Conv1D
                    Conv2D Conv2DTranspose Conv3D Conv3DTranspose Dense Dropout Flatten InputSpec
                    Layer MaxPooling1D MaxPooling2D MaxPooling3D SeparableConv1D SeparableConv2D""",
        "function": """average_pooling1d average_pooling2d average_pooling3d batch_normalization
                       conv1d conv2d conv2d_transpose conv3d conv3d_transpose dense dropout
                       flatten max_pooling1d max_pooling2d max_pooling3d separable_conv1d
                       separable_conv2d""",
        "module": "experimental",
    },
    "tf.layers.experimental": {"function": "keras_style_scope set_keras_style"},
    "tf.nn.rnn_cell": {
        "class": """BasicLSTMCell BasicRNNCell DeviceWrapper DropoutWrapper GRUCell LSTMCell
                    LSTMStateTuple MultiRNNCell RNNCell ResidualWrapper""",
    },
}
NOT_WALKED = {"tf.compat.v1", "tf.compat.v2", "tf.keras"}
V1_PREFIX = "tensorflow._api.v2.compat.v1"


def kind_of(value):
  """Returns module, class, function or constant for an API attribute."""
  if isinstance(value, types.ModuleType):
    return "module"
  if inspect.isclass(value):
    return "class"
  if callable(value):
    return "function"
  return "constant"


def is_leaked_module(value, flags_module):
  """True when a module-valued attribute is TF implementation leaking through, not API."""
  try:
    name = value.__name__
  except Exception:  # pylint: disable=broad-except  (Keras 3's lazy loaders refuse __name__)
    return False
  return (name.startswith("tensorflow.") and not name.startswith(V1_PREFIX)
          and value is not flags_module)


def is_walked_module(value, flags_module):
  """True for the namespaces whose names are listed: TF's v1 API modules and tf.flags."""
  try:
    name = value.__name__
  except Exception:  # pylint: disable=broad-except
    return False
  return name.startswith(V1_PREFIX) or value is flags_module


def list_names(tf):
  """Returns {namespace: {name: kind}} for tf.compat.v1 (see the module docstring)."""
  from tensorflow.python.platform import flags as flags_module
  result = {}
  queue = [("tf", tf.compat.v1)]
  walked = {}
  while queue:
    path, module = queue.pop(0)
    names = result.setdefault(path, {})
    for name in sorted(n for n in dir(module) if not n.startswith("_")):
      child = path + "." + name
      try:
        value = getattr(module, name)
      except Exception as e:  # pylint: disable=broad-except
        if child in TF115_TYPED:
          names[name] = "module"
        else:
          print("skipped %s: %s: %s" % (child, type(e).__name__, str(e)[:100]), file=sys.stderr)
        continue
      if value is module or (isinstance(value, types.ModuleType)
                             and is_leaked_module(value, flags_module)):
        continue  # a namespace naming itself (tf.test.test) or an implementation module
      names[name] = kind_of(value)
      if (names[name] != "module" or child in NOT_WALKED or child in TF115_TYPED
          or not is_walked_module(value, flags_module)):
        continue
      if id(value) in walked:  # the same namespace under a second name (tf.app.flags)
        continue
      walked[id(value)] = child
      queue.append((child, value))
  for path, kinds in TF115_TYPED.items():
    names = result.setdefault(path, {})
    for kind, words in kinds.items():
      for name in words.split():
        names[name] = kind
  return result


def main():
  parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
  parser.add_argument("--out", default=OUT, help="output file (default: %(default)s)")
  args = parser.parse_args()
  os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
  import tensorflow as tf
  result = list_names(tf)
  with open(args.out, "w") as f:
    f.write("# Public names of tf.compat.v1 in tensorflow %s (tools/list_tf_names.py),\n"
            "# plus TF 1.15's documented tf.layers and tf.nn.rnn_cell names.\n"
            "# namespace<TAB>name<TAB>kind\n" % tf.__version__)
    for path in sorted(result):
      for name in sorted(result[path]):
        f.write("%s\t%s\t%s\n" % (path, name, result[path][name]))
  total = sum(len(v) for v in result.values())
  print("%d names in %d namespaces -> %s" % (total, len(result), args.out))


if __name__ == "__main__":
  main()
