#!/usr/bin/env python3
"""Writes frozen-model compatibility fixtures with real TensorFlow.

Run with the TensorFlow venv:

  .venv-tf/bin/python tools/make_compat_fixtures.py [--out DIR] [--models a,b,...]

DIR defaults to build/compat; --models defaults to all of MODELS. For each
model it writes

  DIR/<name>/model.pb    a frozen GraphDef (Const weights, a Placeholder input)
  DIR/<name>/io.npz      the inputs and TensorFlow's outputs for them (below)
  DIR/<name>/meta.json   {"input": "x:0", "outputs": ["...:0", ...],
                          "shape": [...], "cases": [...], ...}

io.npz holds, for every case tag T in meta["cases"], `input_T` (the value fed
to meta["input"]) and `output<i>_T`, TensorFlow's value of meta["outputs"][i].

Models:

  small_cnn_path  the task-farm CNN of tests/fixtures/farm (written by
                  tools/make_farm_fixtures.py) with its decoder turned into a
                  DecodeJpeg node: ReadFile -> DecodeJpeg -> resize -> CNN ->
                  ArgMax. Its input is a scalar path string; each case is one
                  JPEG file in DIR/small_cnn_path/images/ and `input_T` holds
                  the file name relative to the model folder. The farm's own
                  expected logits and classes are checked here (the decoders
                  are the same), and the farm's JPEG images are cases.
  mobilenet_v2    keras.applications.MobileNetV2(weights=None), 224x224x3
  resnet50        keras.applications.ResNet50(weights=None), 224x224x3

The two deep nets are built by Keras with a fixed seed (no downloads) and
written as a TF1-style frozen graph: each Keras layer becomes the ops that
TF 1.x's Keras emitted for it (Conv2D/BiasAdd, DepthwiseConv2dNative,
FusedBatchNormV3, Relu/Relu6, Pad, MaxPool, AddV2, Mean, MatMul/BiasAdd) on
VariableV2 variables in a tf.compat.v1 graph, frozen by
graph_util.convert_variables_to_constants. Outputs: `logits` (the classifier
before softmax), `probs` (Softmax) and `classes` (ArgMax). The written graph
is checked against the Keras model itself.

Weights: Keras's seeded initial kernels; then, in one pass over calibration
images in layer order, every batch norm gets moving mean/variance near the
statistics of its actual input (randomly perturbed) and random gamma/beta,
conv biases are random, and the classifier is centred on the mean feature and
scaled so the logits spread over a few units. So activations neither vanish
nor explode, the softmax is far from uniform, and the top classes differ
between inputs (all checked before writing, as is a clear top-1 margin).

The inputs are smooth random images (seeded), batch 1 and batch 4
(cases "b1" and "b4"); the expected values come from importing the written
model.pb into a fresh graph and running it in a tf.compat.v1 Session.
"""
import argparse
import json
import os
import shutil
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
FARM = os.path.join(REPO, "tests", "fixtures", "farm")
DEFAULT_OUT = os.path.join(REPO, "build", "compat")
SEED = 1234
IMAGE_SIZE = 224
# batch norm gamma range (uniform) and beta standard deviation
PLAIN_BN = (0.5, 1.5, 0.3)
RESIDUAL_BN = (0.1, 0.3, 0.1)


def _tf():
  os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
  import tensorflow as tf
  tf.get_logger().setLevel("ERROR")
  return tf


# ---------------------------------------------------------------- helpers

def _write_model(out_dir, graph_def, meta, arrays):
  os.makedirs(out_dir, exist_ok=True)
  with open(os.path.join(out_dir, "model.pb"), "wb") as f:
    f.write(graph_def.SerializeToString())
  np.savez(os.path.join(out_dir, "io.npz"), **arrays)
  with open(os.path.join(out_dir, "meta.json"), "w") as f:
    json.dump(meta, f, indent=1, sort_keys=True)
    f.write("\n")


def _run_frozen(tf, graph_def, input_name, output_names, feeds):
  """Imports graph_def into a fresh graph and runs it once per feed value."""
  results = []
  with tf.Graph().as_default() as g:
    tf.compat.v1.import_graph_def(graph_def, name="")
    x = g.get_tensor_by_name(input_name)
    ys = [g.get_tensor_by_name(n) for n in output_names]
    with tf.compat.v1.Session(graph=g) as sess:
      for value in feeds:
        results.append(sess.run(ys, {x: value}))
  return results


def _rel_err(a, b):
  a = np.asarray(a, np.float64)
  b = np.asarray(b, np.float64)
  return float(np.max(np.abs(a - b)) / max(np.max(np.abs(b)), 1e-30))


# ---------------------------------------------------------------- small_cnn_path

def _extra_jpegs(tf, count):
  """(name, uint8 HxWx3) pictures for more cases: gradients plus noise."""
  rng = np.random.RandomState(SEED + 7)
  out = []
  for k in range(count):
    h, w = 36 + 6 * k, 52 - 4 * k
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    base = np.stack([np.sin(xx / w * np.pi * (k + 2) / 3 + c * 1.7 + k)
                     * np.cos(yy / h * np.pi * ((k + c) % 3 + 1)) for c in range(3)], axis=-1)
    pic = 128 + 110 * base * rng.uniform(0.3, 1.0, size=3) + rng.randn(h, w, 3) * 5
    out.append(("extra%d.jpg" % k, np.clip(pic, 0, 255).astype(np.uint8)))
  return out


def make_small_cnn_path(tf, out_dir):
  graph_def = tf.compat.v1.GraphDef()
  with open(os.path.join(FARM, "frozen_model.pb"), "rb") as f:
    graph_def.ParseFromString(f.read())
  # the farm model decodes with DecodeImage; a TF1-era graph says DecodeJpeg
  renamed = {}
  for node in graph_def.node:
    if node.op == "DecodeImage":
      new_name = node.name.replace("DecodeImage", "DecodeJpeg")
      renamed[node.name] = new_name
      channels = node.attr["channels"].i
      node.name = new_name
      node.op = "DecodeJpeg"
      node.ClearField("attr")
      node.attr["channels"].i = channels
      node.attr["ratio"].i = 1
      node.attr["fancy_upscaling"].b = True
      node.attr["try_recover_truncated"].b = False
      node.attr["acceptable_fraction"].f = 1.0
      node.attr["dct_method"].s = b""
  assert renamed, "the farm model has no DecodeImage node"
  for node in graph_def.node:
    for i, inp in enumerate(node.input):
      if inp in renamed:
        node.input[i] = renamed[inp]

  img_dir = os.path.join(out_dir, "images")
  if os.path.isdir(img_dir):
    shutil.rmtree(img_dir)
  os.makedirs(img_dir)
  farm_classes = {}
  for line in open(os.path.join(FARM, "expected_classes.txt")):
    if line.strip():
      name, cls = line.split()
      farm_classes[name] = int(cls)
  farm_logits = np.load(os.path.join(FARM, "expected_logits.npy"), allow_pickle=True).item()
  files = []
  for name in sorted(farm_classes):
    if name.endswith(".jpg"):
      shutil.copyfile(os.path.join(FARM, "input", name), os.path.join(img_dir, "farm_" + name))
      files.append("farm_" + name)
  with tf.Graph().as_default(), tf.compat.v1.Session() as sess:
    arr = tf.compat.v1.placeholder(tf.uint8, [None, None, 3])
    enc = tf.image.encode_jpeg(arr, quality=90)
    for name, pic in _extra_jpegs(tf, 3):
      with open(os.path.join(img_dir, name), "wb") as f:
        f.write(sess.run(enc, {arr: pic}))
      files.append(name)

  outputs = ["output:0", "logits:0"]
  results = _run_frozen(tf, graph_def, "image_path:0", outputs,
                        [os.path.join(img_dir, f) for f in files])
  arrays, cases = {}, []
  for fname, (cls, logits) in zip(files, results):
    tag = os.path.splitext(fname)[0]
    cases.append(tag)
    arrays["input_" + tag] = np.array("images/" + fname)
    arrays["output0_" + tag] = cls
    arrays["output1_" + tag] = logits
    if fname.startswith("farm_"):
      farm_name = fname[len("farm_"):]
      assert int(cls[0]) == farm_classes[farm_name], fname
      err = _rel_err(logits[0], farm_logits[farm_name])
      assert err < 1e-5, (fname, err)
  classes = [int(arrays["output0_" + t][0]) for t in cases]
  assert len(set(classes)) >= 2, classes
  meta = {"input": "image_path:0", "outputs": outputs, "shape": [], "input_kind": "path",
          "cases": cases, "classes_output": 0, "logits_output": 1}
  _write_model(out_dir, graph_def, meta, arrays)
  print("small_cnn_path: %d images, classes %s" % (len(cases), classes))


# ---------------------------------------------------------------- Keras deep nets

def _images(tf, rng, n, scale):
  """n smooth random images in [-scale, scale]: upsampled coarse noise + fine noise."""
  coarse = rng.uniform(-1, 1, size=(n, 7, 7, 3)).astype(np.float32)
  up = tf.image.resize(coarse, [IMAGE_SIZE, IMAGE_SIZE], method="bilinear").numpy()
  pic = up + 0.15 * rng.randn(n, IMAGE_SIZE, IMAGE_SIZE, 3) + rng.uniform(-0.3, 0.3, (n, 1, 1, 3))
  return (np.clip(pic, -1, 1) * scale).astype(np.float32)


class _Params:
  """Layer weights. In the calibration pass (eager) `get` makes each value
  (given the activations seen so far) and records it; in the graph pass it
  returns a VariableV2 holding the recorded value."""

  def __init__(self, tf):
    self.tf = tf
    self.values = {}
    self.graph_mode = False
    self.residual = set()  # names of layers whose output is a residual branch

  def get(self, layer, key, make):
    full = layer.name + "/" + key
    if not self.graph_mode:
      self.values[full] = np.ascontiguousarray(make(), dtype=np.float32)
      return self.tf.constant(self.values[full])
    var = self.tf.compat.v1.Variable(self.values[full], name=key, use_resource=False)
    return var.value() if hasattr(var, "value") else var


def _apply(tf, layer, xs, params, rng):
  """Emits the TF 1.x ops of one Keras layer (eagerly or into a graph)."""
  kind = type(layer).__name__
  x = xs[0]
  cfg = layer.get_config()
  if kind == "Conv2D":
    assert cfg["groups"] == 1 and cfg["activation"] == "linear", cfg
    k = params.get(layer, "kernel", lambda: layer.get_weights()[0])
    s, d = cfg["strides"], cfg["dilation_rate"]
    y = tf.nn.conv2d(x, k, strides=[1, s[0], s[1], 1], padding=cfg["padding"].upper(),
                     dilations=[1, d[0], d[1], 1], name="Conv2D")
    if cfg["use_bias"]:
      b = params.get(layer, "bias", lambda: 0.1 * rng.randn(cfg["filters"]))
      y = tf.nn.bias_add(y, b, name="BiasAdd")
    return y
  if kind == "DepthwiseConv2D":
    assert cfg["activation"] == "linear" and not cfg["use_bias"], cfg
    k = params.get(layer, "depthwise_kernel", lambda: layer.get_weights()[0])
    s = cfg["strides"]
    assert tuple(cfg["dilation_rate"]) == (1, 1)
    return tf.compat.v1.nn.depthwise_conv2d_native(
        x, k, strides=[1, s[0], s[1], 1], padding=cfg["padding"].upper(), name="depthwise")
  if kind == "BatchNormalization":
    assert cfg["axis"] in (-1, 3, [3], [-1]) and cfg["center"] and cfg["scale"], cfg
    c = int(x.shape[-1])
    stats = {}

    def moments():
      if not stats:
        m, v = tf.nn.moments(x, axes=[0, 1, 2])
        v = np.maximum(v.numpy(), 1e-3 * float(np.mean(v.numpy())) + 1e-6)
        stats.update(mean=m.numpy(), var=v)
      return stats
    # the last batch norm of a residual branch gets a small gamma (as in
    # trained nets): keeps each block near the identity, so float32 rounding
    # is not amplified block after block
    lo, hi, sd = RESIDUAL_BN if layer.name in params.residual else PLAIN_BN
    gamma = params.get(layer, "gamma", lambda: rng.uniform(lo, hi, c))
    beta = params.get(layer, "beta", lambda: rng.normal(0.0, sd, c))
    mean = params.get(layer, "moving_mean", lambda: moments()["mean"]
                      + 0.1 * np.sqrt(moments()["var"]) * rng.randn(c))
    var = params.get(layer, "moving_variance",
                     lambda: moments()["var"] * rng.uniform(0.75, 1.25, c))
    y, _, _ = tf.compat.v1.nn.fused_batch_norm(x, gamma, beta, mean, var, epsilon=cfg["epsilon"],
                                               is_training=False, name="FusedBatchNormV3")
    return y
  if kind == "ReLU":
    assert cfg["negative_slope"] == 0 and cfg["threshold"] == 0, cfg
    if cfg["max_value"] == 6:
      return tf.nn.relu6(x, name="Relu6")
    assert cfg["max_value"] is None, cfg
    return tf.nn.relu(x, name="Relu")
  if kind == "Activation":
    assert cfg["activation"] == "relu", cfg
    return tf.nn.relu(x, name="Relu")
  if kind == "ZeroPadding2D":
    (t, b), (l, r) = cfg["padding"]
    return tf.pad(x, [[0, 0], [t, b], [l, r], [0, 0]], name="Pad")
  if kind == "MaxPooling2D":
    p, s = cfg["pool_size"], cfg["strides"]
    return tf.nn.max_pool2d(x, [1, p[0], p[1], 1], [1, s[0], s[1], 1],
                            cfg["padding"].upper(), name="MaxPool")
  if kind == "Add":
    y = xs[0]
    for other in xs[1:]:
      y = tf.add(y, other, name="add")
    return y
  if kind == "GlobalAveragePooling2D":
    assert not cfg.get("keepdims", False)
    return tf.reduce_mean(x, axis=[1, 2], name="Mean")
  if kind == "Dense":
    assert cfg["activation"] == "linear", cfg

    def kernel():
      w0 = layer.get_weights()[0]
      feats = x.numpy().astype(np.float64)
      z = (feats - feats.mean(0)) @ w0
      return w0 * (3.0 / z.std())
    k = params.get(layer, "kernel", kernel)

    def bias():
      feats = x.numpy().astype(np.float64)
      return -feats.mean(0) @ params.values[layer.name + "/kernel"] + 0.1 * rng.randn(cfg["units"])
    b = params.get(layer, "bias", bias)
    return tf.nn.bias_add(tf.matmul(x, k, name="MatMul"), b, name="BiasAdd")
  raise NotImplementedError("layer %s of type %s" % (layer.name, kind))


def _walk(tf, model, x, params, rng, scoped):
  """Runs _apply over the functional model's layers in order; returns the logits."""
  values = {id(model.inputs[0]): x}
  for layer in model.layers:
    if type(layer).__name__ == "Add":
      params.residual.add(layer._inbound_nodes[0].input_tensors[-1]._keras_history[0].name)
  for layer in model.layers:
    if type(layer).__name__ == "InputLayer":
      continue
    assert len(layer._inbound_nodes) == 1, layer.name
    node = layer._inbound_nodes[0]
    xs = [values[id(t)] for t in node.input_tensors]
    if scoped:
      with tf.compat.v1.name_scope(layer.name + "/"):
        y = _apply(tf, layer, xs, params, rng)
    else:
      y = _apply(tf, layer, xs, params, rng)
    values[id(node.output_tensors[0])] = y
  return values[id(model.outputs[0])]


def _keras_weights(model, values):
  """Puts the calibrated weights into the Keras model (to check the graph against it)."""
  order = {"Conv2D": ["kernel", "bias"], "DepthwiseConv2D": ["depthwise_kernel"],
           "BatchNormalization": ["gamma", "beta", "moving_mean", "moving_variance"],
           "Dense": ["kernel", "bias"]}
  for layer in model.layers:
    keys = order.get(type(layer).__name__)
    if keys:
      ws = [values[layer.name + "/" + k] for k in keys if layer.name + "/" + k in values]
      assert len(ws) == len(layer.get_weights()), layer.name
      layer.set_weights(ws)


def make_keras_net(tf, name, out_dir, build, scale):
  import keras
  keras.utils.set_random_seed(SEED)
  model = build(weights=None, input_shape=(IMAGE_SIZE, IMAGE_SIZE, 3), classifier_activation=None)
  rng = np.random.RandomState(SEED)

  # calibration pass (eager)
  params = _Params(tf)
  calib = _images(tf, np.random.RandomState(SEED + 1), 4, scale)
  _walk(tf, model, tf.constant(calib), params, rng, scoped=False)

  # TF1-style graph, frozen
  params.graph_mode = True
  g = tf.Graph()
  with g.as_default():
    x = tf.compat.v1.placeholder(tf.float32, [None, IMAGE_SIZE, IMAGE_SIZE, 3], name="x")
    logits = tf.identity(_walk(tf, model, x, params, rng, scoped=True), name="logits")
    probs = tf.nn.softmax(logits, name="probs")
    tf.argmax(probs, axis=1, name="classes")
    with tf.compat.v1.Session(graph=g) as sess:
      sess.run(tf.compat.v1.global_variables_initializer())
      graph_def = tf.compat.v1.graph_util.convert_variables_to_constants(
          sess, g.as_graph_def(), ["logits", "probs", "classes"])
  ops = {n.op for n in graph_def.node}
  assert not ops & {"VariableV2", "VarHandleOp", "ReadVariableOp"}, ops

  # inputs: pick the first input seed whose outputs are clearly non-degenerate
  outputs = ["logits:0", "probs:0", "classes:0"]
  for attempt in range(20):
    irng = np.random.RandomState(SEED + 100 + attempt)
    feeds = {"b1": _images(tf, irng, 1, scale), "b4": _images(tf, irng, 4, scale)}
    res = dict(zip(feeds, _run_frozen(tf, graph_def, "x:0", outputs, feeds.values())))
    ok = True
    for tag, (lg, pr, cl) in res.items():
      srt = np.sort(lg, axis=1)
      margin = (srt[:, -1] - srt[:, -2]) / np.max(np.abs(lg))
      ok &= bool(np.all(margin > 1e-3)) and bool(np.all(pr.max(1) - pr.min(1) > 1e-3))
      ok &= bool(np.all(np.argmax(lg, 1) == cl))
    ok &= len(set(res["b4"][2].tolist()) | set(res["b1"][2].tolist())) >= 4
    if ok:
      break
  else:
    raise RuntimeError("%s: no input seed gave non-degenerate outputs" % name)

  # the graph must compute what the Keras model computes
  _keras_weights(model, params.values)
  for tag, value in feeds.items():
    want = model(value, training=False).numpy()
    err = _rel_err(res[tag][0], want)
    assert err < 1e-4, (name, tag, err)

  arrays = {}
  for tag, value in feeds.items():
    arrays["input_" + tag] = value
    for i, v in enumerate(res[tag]):
      arrays["output%d_%s" % (i, tag)] = v
  meta = {"input": "x:0", "outputs": outputs, "shape": [None, IMAGE_SIZE, IMAGE_SIZE, 3],
          "input_kind": "tensor", "cases": list(feeds), "logits_output": 0, "probs_output": 1,
          "classes_output": 2, "source": "keras.applications.%s(weights=None)" % build.__name__}
  _write_model(out_dir, graph_def, meta, arrays)
  lg = res["b4"][0]
  print("%s: %d nodes, ops %s\n  classes b1 %s b4 %s, top prob b4 %s, logit std %.2f" % (
      name, len(graph_def.node), sorted(ops), res["b1"][2].tolist(), res["b4"][2].tolist(),
      np.round(res["b4"][1].max(1), 3).tolist(), float(lg.std())))


def make_mobilenet_v2(tf, out_dir):
  import keras
  make_keras_net(tf, "mobilenet_v2", out_dir, keras.applications.MobileNetV2, 1.0)


def make_resnet50(tf, out_dir):
  import keras
  make_keras_net(tf, "resnet50", out_dir, keras.applications.ResNet50, 127.5)


MODELS = {
    "small_cnn_path": make_small_cnn_path,
    "mobilenet_v2": make_mobilenet_v2,
    "resnet50": make_resnet50,
}


def main(argv=None):
  ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
  ap.add_argument("--out", default=DEFAULT_OUT, help="output folder (default build/compat)")
  ap.add_argument("--models", default=",".join(MODELS),
                  help="comma-separated subset of: " + ", ".join(MODELS))
  args = ap.parse_args(argv)
  names = [m for m in args.models.split(",") if m]
  unknown = [m for m in names if m not in MODELS]
  if unknown:
    ap.error("unknown model(s): %s (known: %s)" % (", ".join(unknown), ", ".join(MODELS)))
  tf = _tf()
  for name in names:
    out_dir = os.path.join(args.out, name)
    # no half-written model folder survives a failure
    for f in ("meta.json", "io.npz", "model.pb"):
      if os.path.exists(os.path.join(out_dir, f)):
        os.remove(os.path.join(out_dir, f))
    MODELS[name](tf, out_dir)
  return 0


if __name__ == "__main__":
  sys.exit(main())
