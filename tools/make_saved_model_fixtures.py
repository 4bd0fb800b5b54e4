#!/usr/bin/env python3
"""SavedModel fixtures and checks with real TensorFlow (tests/python/test_saved_model.py).

  .venv-tf/bin/python tools/make_saved_model_fixtures.py --out tests/fixtures/saved_model
      writes the TF-written SavedModels below (checked in; small)
  .venv-tf/bin/python tools/make_saved_model_fixtures.py --check DIR TAG NPZ
      TF loads the SavedModel DIR (written by tfc) with tf.saved_model.loader.load
      and tags [TAG], runs its "serving_default" signature on NPZ's inputs
      (keys `in_<name>`) and compares with NPZ's outputs (keys `out_<name>`);
      prints "ok" last

TF 1.x style, as TF 1.15 builds graphs (ref variables, v1 control flow):

simple/: tf.saved_model.simple_save of a softmax regression
  (x [None, 4] -> logits, probs), signature "serving_default".
multi/: a SavedModelBuilder with two MetaGraphDefs sharing the variables
  ("serve" with predict and classify signatures; "train" and "gpu"-free
  tags ["train", "eval"] with a regress signature), an asset file (vocab.txt)
  read by the main op into a local variable, written as text
  (saved_model.pbtxt).
expected.npz: the inputs given and TF's outputs for both.
"""
import argparse
import os
import shutil
import sys

import numpy as np


def _tf():
  os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
  os.environ["TF_ENABLE_ONEDNN_OPTS"] = "0"
  import tensorflow.compat.v1 as tf
  tf.disable_v2_behavior()
  tf.disable_resource_variables()
  tf.disable_control_flow_v2()
  return tf


def _weights():
  rng = np.random.RandomState(7)
  return (rng.randn(4, 3).astype(np.float32), rng.randn(3).astype(np.float32),
          rng.randn(5, 4).astype(np.float32))


def make(out):
  tf = _tf()
  if os.path.exists(out):
    shutil.rmtree(out)
  os.makedirs(out)
  w0, b0, xs = _weights()
  expected = {"x": xs}

  g = tf.Graph()
  with g.as_default():
    x = tf.placeholder(tf.float32, [None, 4], name="x")
    w = tf.Variable(w0, name="w")
    b = tf.Variable(b0, name="b")
    logits = tf.nn.xw_plus_b(x, w, b, name="logits")
    probs = tf.nn.softmax(logits, name="probs")
    with tf.Session(graph=g) as sess:
      sess.run(tf.global_variables_initializer())
      expected["simple_logits"], expected["simple_probs"] = sess.run(
          [logits, probs], {x: xs})
      tf.saved_model.simple_save(sess, os.path.join(out, "simple"), {"x": x},
                                 {"logits": logits, "probs": probs})

  vocab = os.path.join(out, "vocab_src.txt")
  with open(vocab, "w") as f:
    f.write("alpha\nbeta\ngamma\n")
  g = tf.Graph()
  with g.as_default():
    x = tf.placeholder(tf.float32, [None, 4], name="x")
    serialized = tf.placeholder(tf.string, [None], name="examples")
    w = tf.Variable(w0 * 2.0, name="w")
    b = tf.Variable(b0 - 1.0, name="b")
    steps = tf.Variable(0, name="global_step", trainable=False)
    logits = tf.add(tf.matmul(x, w), b, name="logits")
    scores = tf.nn.softmax(logits, name="scores")
    classes = tf.gather(tf.constant(["cat", "dog", "eel"]), tf.argmax(logits, 1), name="classes")
    regress = tf.reduce_sum(logits, 1, name="regress")
    asset_path = tf.constant(vocab, name="asset_path")
    tf.add_to_collection(tf.GraphKeys.ASSET_FILEPATHS, asset_path)
    vocab_text = tf.Variable("", name="vocab_text", trainable=False,
                             collections=[tf.GraphKeys.LOCAL_VARIABLES])
    main_op = tf.group(tf.local_variables_initializer(),
                       tf.assign(vocab_text, tf.read_file(asset_path)), name="main_op")
    with tf.Session(graph=g) as sess:
      sess.run(tf.global_variables_initializer())
      sess.run(tf.assign(steps, 42))
      expected["multi_logits"], expected["multi_scores"], expected["multi_regress"] = sess.run(
          [logits, scores, regress], {x: xs})
      u = tf.saved_model.utils
      sdu = tf.saved_model.signature_def_utils
      builder = tf.saved_model.builder.SavedModelBuilder(os.path.join(out, "multi"))
      builder.add_meta_graph_and_variables(
          sess, [tf.saved_model.tag_constants.SERVING],
          signature_def_map={
              "serving_default": sdu.predict_signature_def({"x": x}, {"logits": logits,
                                                                     "scores": scores}),
              "classify": sdu.classification_signature_def(serialized, classes, scores)},
          assets_collection=tf.get_collection(tf.GraphKeys.ASSET_FILEPATHS),
          main_op=main_op)
      builder.add_meta_graph(
          ["train", "eval"],
          signature_def_map={"regress": sdu.build_signature_def(
              {"x": u.build_tensor_info(x)}, {"y": u.build_tensor_info(regress)},
              tf.saved_model.signature_constants.REGRESS_METHOD_NAME)},
          assets_collection=tf.get_collection(tf.GraphKeys.ASSET_FILEPATHS))
      builder.save(as_text=True)
  os.remove(vocab)
  np.savez(os.path.join(out, "expected.npz"), **expected)


def check(export_dir, tag, npz):
  tf = _tf()
  data = np.load(npz)
  with tf.Session(graph=tf.Graph()) as sess:
    meta = tf.saved_model.loader.load(sess, [tag], export_dir)
    sig = meta.signature_def["serving_default"]
    feeds = {sess.graph.get_tensor_by_name(sig.inputs[k[3:]].name): data[k]
             for k in data.files if k.startswith("in_")}
    keys = [k for k in data.files if k.startswith("out_")]
    got = sess.run([sess.graph.get_tensor_by_name(sig.outputs[k[4:]].name) for k in keys], feeds)
    for k, v in zip(keys, got):
      np.testing.assert_allclose(v, data[k], rtol=1e-5, atol=1e-6, err_msg=k)
    extra = [k for k in data.files if k.startswith("var_")]
    for k in extra:
      v = sess.run(sess.graph.get_tensor_by_name(k[4:] + ":0"))
      np.testing.assert_array_equal(v, data[k], err_msg=k)
  print("ok")


def main():
  parser = argparse.ArgumentParser()
  parser.add_argument("--out")
  parser.add_argument("--check", nargs=3, metavar=("DIR", "TAG", "NPZ"))
  args = parser.parse_args()
  if args.check:
    check(*args.check)
  elif args.out:
    make(args.out)
  else:
    parser.error("--out or --check")
  return 0


if __name__ == "__main__":
  sys.exit(main())
