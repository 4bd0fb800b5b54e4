#!/usr/bin/env python3
"""Writes tests/fixtures/functions/while_grad.pb and while_grad.npz with real
TensorFlow: a tf.compat.v1 graph built with control flow v2 whose loops are
functional While/StatelessWhile ops (a plain loop, a loop whose body holds a
cond and a nested loop, a loop capturing an outside tensor), without gradient
ops; and TensorFlow's values and gradients (tf.gradients of y with respect to
x and s, computed by TF on a fresh import of the exact .pb, i.e. TF 2's
while_v2 gradient) for each feed.

  .venv-tf/bin/python tools/make_while_grad_fixtures.py

while_grad.npz: for run r, "r<r>:x", "r<r>:s", "r<r>:n" the feeds and
"r<r>:y", "r<r>:dx", "r<r>:ds" TF's results.
"""
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(os.path.dirname(HERE), "tests", "fixtures", "functions")


def build(tf):
    """The forward graph: x [3], s [] and n [] in, y [] out."""
    v1 = tf.compat.v1
    g = tf.Graph()
    with g.as_default():
        x = v1.placeholder(tf.float32, [3], name="x")
        s = v1.placeholder(tf.float32, [], name="s")
        n = v1.placeholder(tf.int32, [], name="n")
        w = tf.constant([0.9, -1.2, 0.4])
        # a plain loop; s and w are captured
        _, a = tf.while_loop(lambda i, a: i < n,
                             lambda i, a: (i + 1, tf.tanh(a) * w + a * s),
                             [tf.constant(0), x], name="plain")

        # a loop whose body holds a cond and a nested loop
        def body(i, b):
            b = tf.cond(tf.reduce_sum(b) > 0.0, lambda: b * 0.7 + s, lambda: tf.sin(b) - 0.5)
            _, b = tf.while_loop(lambda j, c: j < i + 1,
                                 lambda j, c: (j + 1, tf.tanh(c) + c * 0.25),
                                 [0, b], name="inner")
            return i + 1, b
        _, b = tf.while_loop(lambda i, b: i < 3, body, [tf.constant(0), x * 0.5], name="outer")
        y = tf.add(tf.reduce_sum(a * a), tf.reduce_sum(b * x), name="y")
    return g, y


def main():
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    import tensorflow as tf
    v1 = tf.compat.v1
    g, _ = build(tf)
    gd = g.as_graph_def()
    ops = sorted({nd.op for nd in gd.node} | {nd.op for f in gd.library.function for nd in f.node_def})
    assert "While" in ops or "StatelessWhile" in ops, ops
    data = gd.SerializeToString()
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "while_grad.pb"), "wb") as f:
        f.write(data)
    feeds = [(np.array([0.3, -0.8, 1.1], np.float32), np.float32(0.6), 3),
             (np.array([-1.5, 0.2, 0.05], np.float32), np.float32(-0.3), 5),
             (np.array([0.7, 0.7, -0.4], np.float32), np.float32(1.1), 0)]
    out = {}
    g2 = tf.Graph()
    with g2.as_default():
        v1.import_graph_def(v1.GraphDef.FromString(data), name="")
        x, s, n, y = (g2.get_tensor_by_name(t) for t in ("x:0", "s:0", "n:0", "y:0"))
        dx, ds = tf.gradients(y, [x, s])
        with v1.Session(graph=g2) as sess:
            for r, (xv, sv, nv) in enumerate(feeds):
                yv, dxv, dsv = sess.run([y, dx, ds], {x: xv, s: sv, n: nv})
                out.update({"r%d:x" % r: xv, "r%d:s" % r: sv, "r%d:n" % r: np.int32(nv),
                            "r%d:y" % r: yv, "r%d:dx" % r: dxv, "r%d:ds" % r: dsv})
    np.savez(os.path.join(OUT, "while_grad.npz"), **out)
    print("ops:", ops)
    print({k: v for k, v in out.items()})


if __name__ == "__main__":
    main()
