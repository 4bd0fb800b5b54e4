#!/usr/bin/env python3
"""Writes the task-farm fixtures of tests/fixtures/farm/ with real TensorFlow.

Run with the TensorFlow venv (tf.compat.v1 graph mode):

  .venv-tf/bin/python tools/make_farm_fixtures.py

It writes
  frozen_model.pb       a small CNN frozen by graph_util.convert_variables_to_constants;
                        its input is the placeholder `image_path` (string scalar):
                        ReadFile -> DecodeImage(channels=3) -> float/255 ->
                        ResizeBilinear 32x32 -> 2 x (Conv2D, BiasAdd, Relu, MaxPool) ->
                        dense -> ArgMax named `output` (shape [1])
  input/img<k>.{jpg,png}  six small images encoded by TF from seeded random arrays
  expected_classes.txt  '<file> <class>' per image, TF's prediction on that file
  expected_logits.npy   {file: logits} of TF (a pickled dict)

The expected values come from importing the written .pb into a fresh graph
and running it on the written image files, exactly as examples/task_farm.py
does. The images are smooth colour gradients plus noise, so the classes
do not depend on the last bit of a JPEG decoder.
"""
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(os.path.dirname(HERE), "tests", "fixtures", "farm")
NUM_CLASSES = 10


def _tf():
  os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
  import tensorflow.compat.v1 as tf
  tf.disable_v2_behavior()
  return tf


def build_model(tf):
  rng = np.random.RandomState(7)
  g = tf.Graph()
  with g.as_default():
    path = tf.placeholder(tf.string, [], name="image_path")
    data = tf.io.read_file(path, name="read_file")
    img = tf.image.decode_image(data, channels=3, expand_animations=False, name="decode")
    img = tf.cast(img, tf.float32, name="to_float") / 255.0
    img = tf.expand_dims(img, 0, name="batch")
    img = tf.image.resize_bilinear(img, [32, 32], name="resize")

    def conv(x, cin, cout, name):
      w = tf.Variable((rng.randn(3, 3, cin, cout) * np.sqrt(2.0 / (9 * cin))).astype(np.float32),
                      name=name + "_w")
      b = tf.Variable((rng.randn(cout) * 0.1).astype(np.float32), name=name + "_b")
      x = tf.nn.conv2d(x, w, [1, 1, 1, 1], "SAME", name=name)
      x = tf.nn.relu(tf.nn.bias_add(x, b), name=name + "_relu")
      return tf.nn.max_pool(x, [1, 2, 2, 1], [1, 2, 2, 1], "VALID", name=name + "_pool")

    x = conv(img, 3, 8, "conv1")       # 16x16x8
    x = conv(x, 8, 16, "conv2")        # 8x8x16
    x = tf.reshape(x, [-1, 8 * 8 * 16], name="flatten")
    w = tf.Variable((rng.randn(8 * 8 * 16, NUM_CLASSES) * np.sqrt(1.0 / 1024)).astype(np.float32),
                    name="fc_w")
    b = tf.Variable((rng.randn(NUM_CLASSES) * 0.1).astype(np.float32), name="fc_b")
    logits = tf.add(tf.matmul(x, w), b, name="logits")
    tf.argmax(logits, axis=1, name="output")
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      return tf.graph_util.convert_variables_to_constants(
          sess, g.as_graph_def(), ["output", "logits"])


def make_images(tf):
  """Six (name, uint8 HxWx3) pictures: gradients of different hue and direction + noise."""
  rng = np.random.RandomState(11)
  out = []
  for k in range(6):
    h, w = 40 + 4 * k, 48 - 2 * k
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    base = np.stack([
        np.cos(xx / w * np.pi * (k + 1) / 2 + c * 2.0 + k) * np.sin(yy / h * np.pi * (k % 3 + 1))
        for c in range(3)], axis=-1)
    pic = 128 + 100 * base * rng.uniform(0.3, 1.0, size=3) + rng.randn(h, w, 3) * 6
    pic = np.clip(pic, 0, 255).astype(np.uint8)
    out.append(("img%d.%s" % (k, "png" if k % 2 else "jpg"), pic))
  return out


def main():
  tf = _tf()
  os.makedirs(os.path.join(FIXTURES, "input"), exist_ok=True)
  for f in os.listdir(os.path.join(FIXTURES, "input")):
    os.remove(os.path.join(FIXTURES, "input", f))
  frozen = build_model(tf)
  pb = os.path.join(FIXTURES, "frozen_model.pb")
  with open(pb, "wb") as f:
    f.write(frozen.SerializeToString())

  images = make_images(tf)
  with tf.Graph().as_default(), tf.Session() as sess:
    arr = tf.placeholder(tf.uint8, [None, None, 3])
    enc_jpg = tf.image.encode_jpeg(arr, quality=90)
    enc_png = tf.image.encode_png(arr)
    for name, pic in images:
      data = sess.run(enc_png if name.endswith(".png") else enc_jpg, {arr: pic})
      with open(os.path.join(FIXTURES, "input", name), "wb") as f:
        f.write(data)

  # expected values: import the written bytes and run them on the written files
  graph_def = tf.GraphDef()
  with open(pb, "rb") as f:
    graph_def.ParseFromString(f.read())
  lines, logits = [], {}
  with tf.Graph().as_default() as g:
    tf.import_graph_def(graph_def, name="")
    x = g.get_tensor_by_name("image_path:0")
    y = g.get_tensor_by_name("output:0")
    z = g.get_tensor_by_name("logits:0")
    with tf.Session(graph=g) as sess:
      for name, _ in images:
        cls, lg = sess.run([tf.squeeze(y), z], {x: os.path.join(FIXTURES, "input", name)})
        top = np.sort(lg[0])[::-1]
        print("%-9s class %d  logits margin %.4f" % (name, cls, top[0] - top[1]))
        lines.append("%s %d" % (name, cls))
        logits[name] = lg[0]
  with open(os.path.join(FIXTURES, "expected_classes.txt"), "w") as f:
    f.write("\n".join(lines) + "\n")
  np.save(os.path.join(FIXTURES, "expected_logits.npy"), logits, allow_pickle=True)


if __name__ == "__main__":
  main()
