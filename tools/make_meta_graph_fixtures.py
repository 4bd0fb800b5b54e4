#!/usr/bin/env python3
"""Writes the MetaGraphDef fixtures of tests/fixtures/meta_graph/ with real
TensorFlow, and checks MetaGraphDefs that tfc exported by training them in
real TensorFlow.

Run with the TensorFlow venv (tf.compat.v1 graph mode, ref variables as in
TF 1.15):

  .venv-tf/bin/python tools/make_meta_graph_fixtures.py
      (re)writes tests/fixtures/meta_graph/:
        mlp.meta        binary MetaGraphDef (tf.train.export_meta_graph)
        mlp.pbtxt       the same model as text, with strip_default_attrs=True
        mlp_saver.meta  the model plus a tf.train.Saver (saver_def and the
                        save/ subgraph)
        mlp.npz         feeds x, y; the loss before each of three training
                        steps (losses); the variables after them (var_<name>)
  .venv-tf/bin/python tools/make_meta_graph_fixtures.py --check FILE.meta
      imports FILE (written by tfc from the same model), trains three steps
      with the stored feeds and prints "ok" when the losses match mlp.npz.

The model: x [None, 4] -> relu(x W1 + b1) -> h W2 + b2 = logits (3 classes),
loss = mean sparse softmax cross-entropy against int32 labels y,
train = GradientDescent(0.1).minimize(loss, global_step). Variables start
from fixed values, so tfc and TF can be compared step by step. Collections:
train_op, inputs (x, y), loss, my_ints [3, 7], my_floats [0.5], my_strs
["hello"], and a local variable `counter`.
"""
import argparse
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(os.path.dirname(HERE), "tests", "fixtures", "meta_graph")


def _tf():
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    import tensorflow.compat.v1 as tf
    tf.disable_v2_behavior()
    return tf


def initial_values():
    rng = np.random.RandomState(7)
    return {
        "w1": (rng.randn(4, 8) * 0.5).astype(np.float32),
        "b1": (rng.randn(8) * 0.1).astype(np.float32),
        "w2": (rng.randn(8, 3) * 0.5).astype(np.float32),
        "b2": np.zeros(3, np.float32),
    }


def feeds():
    rng = np.random.RandomState(11)
    x = rng.randn(6, 4).astype(np.float32)
    y = rng.randint(0, 3, size=6).astype(np.int32)
    return x, y


def build(tf, with_saver=False):
    """Builds the model in a new graph; returns (graph, saver or None)."""
    init = initial_values()
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 4], name="x")
        y = tf.placeholder(tf.int32, [None], name="y")
        with tf.variable_scope("hidden"):
            w1 = tf.get_variable("w1", initializer=tf.constant(init["w1"]))
            b1 = tf.get_variable("b1", initializer=tf.constant(init["b1"]))
            h = tf.nn.relu(tf.matmul(x, w1) + b1)
        with tf.variable_scope("out"):
            w2 = tf.Variable(init["w2"], name="w2")
            b2 = tf.Variable(init["b2"], name="b2")
            logits = tf.add(tf.matmul(h, w2), b2, name="logits")
        loss = tf.reduce_mean(
            tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits),
            name="loss")
        gs = tf.train.get_or_create_global_step()
        train = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=gs,
                                                                name="train")
        if train not in tf.get_collection("train_op"):
            tf.add_to_collection("train_op", train)
        tf.add_to_collection("inputs", x)
        tf.add_to_collection("inputs", y)
        tf.add_to_collection("loss", loss)
        tf.add_to_collection("my_ints", 3)
        tf.add_to_collection("my_ints", 7)
        tf.add_to_collection("my_floats", 0.5)
        tf.add_to_collection("my_strs", "hello")
        tf.Variable(0, name="counter", trainable=False,
                    collections=[tf.GraphKeys.LOCAL_VARIABLES])
        saver = tf.train.Saver() if with_saver else None
    return g, saver


def train_steps(tf, sess, steps=3):
    """Runs `steps` training steps on the stored feeds; returns the losses."""
    x, y = feeds()
    g = sess.graph
    train = g.get_collection("train_op")[0]
    fd = {"x:0": x, "y:0": y}
    losses = []
    for _ in range(steps):
        loss, _ = sess.run(["loss:0", train], fd)
        losses.append(loss)
    return np.array(losses, np.float32)


def write():
    tf = _tf()
    os.makedirs(FIXTURES, exist_ok=True)
    g, _ = build(tf)
    with g.as_default():
        tf.train.export_meta_graph(filename=os.path.join(FIXTURES, "mlp.meta"))
        tf.train.export_meta_graph(filename=os.path.join(FIXTURES, "mlp.pbtxt"), as_text=True,
                                   strip_default_attrs=True)
    gs, saver = build(tf, with_saver=True)
    with gs.as_default():
        saver.export_meta_graph(os.path.join(FIXTURES, "mlp_saver.meta"))

    # expected values: import the written file into a fresh graph and train
    g2 = tf.Graph()
    with g2.as_default():
        tf.train.import_meta_graph(os.path.join(FIXTURES, "mlp.meta"))
        with tf.Session() as sess:
            sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
            losses = train_steps(tf, sess)
            values = {"var_" + v.op.name.replace("/", "_"): sess.run(v)
                      for v in tf.global_variables()}
    x, y = feeds()
    np.savez(os.path.join(FIXTURES, "mlp.npz"), x=x, y=y, losses=losses, **values)
    print("wrote", sorted(os.listdir(FIXTURES)))


def check(path):
    tf = _tf()
    expected = np.load(os.path.join(FIXTURES, "mlp.npz"))
    g = tf.Graph()
    with g.as_default():
        tf.train.import_meta_graph(path)
        with tf.Session() as sess:
            sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
            losses = train_steps(tf, sess)
    if not np.allclose(losses, expected["losses"], rtol=1e-5, atol=1e-6):
        print("mismatch", losses, expected["losses"])
        return 1
    print("ok", losses.tolist())
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", metavar="FILE", help="train a tfc-exported MetaGraphDef in TF")
    args = ap.parse_args()
    if args.check:
        return check(args.check)
    write()
    return 0


if __name__ == "__main__":
    sys.exit(main())
