#!/usr/bin/env python3
"""Writes the function-library fixtures of tests/fixtures/functions/ with real
TensorFlow: GraphDefs whose nodes call functions of their `library`
(PartitionedCall, StatefulPartitionedCall, If/StatelessIf, While/StatelessWhile,
Case, calls by function name, SymbolicGradient), and TensorFlow's outputs for
given feeds.

  .venv-tf/bin/python tools/make_function_fixtures.py [--out DIR]

Each <name>.pb is a serialized GraphDef; manifest.txt has one line per item:
  <name>.pb feed  <tensor> <file>.npy
  <name>.pb fetch <tensor> <file>.npy
  <name>.pb error <tensor> <TF error class name>
The expected values come from importing the exact .pb into a fresh
tf.compat.v1 graph and running it, so they are TF's semantics of those bytes.
"""
import argparse
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(os.path.dirname(HERE), "tests", "fixtures", "functions")


def _tf():
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    import tensorflow as tf
    return tf


def tf2_frozen(tf):
    """A TF 2.x function frozen with convert_variables_to_constants_v2 keeping
    its functional control flow: While (with a frozen variable as a loop
    input), StatelessIf, a nested function call, producer in the 2000s."""
    from tensorflow.python.framework.convert_to_constants import (
        convert_variables_to_constants_v2)
    v = tf.Variable(np.array([1.0, 2.0], np.float32))

    @tf.function
    def inner(a):
        return a * 2.0 + 1.0

    @tf.function(input_signature=[tf.TensorSpec([2], tf.float32),
                                  tf.TensorSpec([], tf.int32)])
    def model(x, n):
        def cond(i, acc):
            return i < n

        def body(i, acc):
            return i + 1, inner(acc) * 0.5 + v
        _, acc = tf.while_loop(cond, body, [tf.constant(0), x])
        y = tf.cond(tf.reduce_sum(acc) > 10.0, lambda: acc - 1.0, lambda: acc + 1.0)
        return {"y": y}

    cf = model.get_concrete_function()
    frozen = convert_variables_to_constants_v2(cf, lower_control_flow=False)
    gd = frozen.graph.as_graph_def()
    feeds = [{"x:0": np.array([0.5, -1.5], np.float32), "n:0": np.array(3, np.int32)},
             {"x:0": np.array([4.0, 2.0], np.float32), "n:0": np.array(0, np.int32)}]
    return gd, feeds, [frozen.outputs[0].name]


def tf2_graph(tf):
    """tf.compat.v1 graph mode with control flow v2: tf.function calls
    (PartitionedCall / StatefulPartitionedCall), functions calling functions,
    While/StatelessWhile, If/StatelessIf and Case (tf.switch_case)."""
    v1 = tf.compat.v1
    g = tf.Graph()
    with g.as_default():
        x = v1.placeholder(tf.float32, [None], name="x")
        k = v1.placeholder(tf.int32, [], name="k")

        @tf.function
        def leaf(a):
            return tf.tanh(a) + 1.0

        @tf.function
        def mid(a, b):
            return leaf(a) * b, tf.reduce_sum(leaf(b))

        p, q = mid(x, x * 2.0)
        tf.identity(p, name="mid_p")
        tf.identity(q, name="mid_q")
        i, s = tf.while_loop(lambda i, s: i < k,
                             lambda i, s: (i + 1, s + leaf(tf.cast(i, tf.float32))),
                             [tf.constant(0), tf.constant(0.0)])
        tf.identity(s, name="loop_sum")
        tf.identity(i, name="loop_i")
        c = tf.cond(k > 2, lambda: tf.reduce_sum(x) * 2.0, lambda: mid(x, x)[1])
        tf.identity(c, name="cond_out")
        sc = tf.switch_case(k, [lambda: x + 1.0, lambda: x * 10.0, lambda: leaf(x)],
                            name="case")
        tf.identity(sc, name="case_out")
        # nested: a loop whose body holds a cond
        j, t = tf.while_loop(
            lambda j, t: j < 4,
            lambda j, t: (j + 1, tf.cond(tf.equal(j % 2, 0), lambda: t + 1.0, lambda: t * 3.0)),
            [tf.constant(0), tf.constant(1.0)])
        tf.identity(t, name="nested_t")
    gd = g.as_graph_def()
    feeds = [{"x:0": np.array([0.5, -1.0, 2.0], np.float32), "k:0": np.array(1, np.int32)},
             {"x:0": np.array([3.0], np.float32), "k:0": np.array(3, np.int32)},
             {"x:0": np.array([1.0, 2.0], np.float32), "k:0": np.array(7, np.int32)}]
    fetches = ["mid_p:0", "mid_q:0", "loop_sum:0", "loop_i:0", "cond_out:0",
               "case_out:0", "nested_t:0"]
    return gd, feeds, fetches


def defun_graph(tf):
    """TF 1.x function.Defun: nodes whose op is the function's name, a Defun
    calling another Defun."""
    from tensorflow.python.framework import function
    v1 = tf.compat.v1
    g = tf.Graph()
    with g.as_default():
        @function.Defun(tf.float32, tf.float32)
        def axpy(a, b):
            return a * 3.0 + b

        @function.Defun(tf.float32)
        def twice(a):
            return axpy(a, a), a * a

        x = v1.placeholder(tf.float32, [None], name="x")
        y = axpy(x, tf.constant(1.0))
        tf.identity(y, name="y")
        u, w = twice(x)
        tf.identity(u, name="u")
        tf.identity(w, name="w")
    gd = g.as_graph_def()
    feeds = [{"x:0": np.array([1.0, -2.0, 0.25], np.float32)}]
    return gd, feeds, ["y:0", "u:0", "w:0"]


DEFUN_GRAD_X = np.array([0.3, -1.2, 2.0], np.float32)
DEFUN_GRAD_Y = np.array([1.5, 0.25, -0.75], np.float32)


def build_defun_grad(tf, v1, function):
    """The graph of defun_grad_graph with any TF-1.x-shaped module `v1`
    (TensorFlow's compat.v1 or tfc): a Defun whose body creates a variable
    with get_variable (lifted to the calling graph, under variable scope
    "layer"), called on placeholders x and y, and tf.gradients of a loss of
    its results with respect to x, y and the variable (its read, the call's
    captured argument). Returns the fetch names ("p:0", "gx:0", "gy:0",
    "gw:0") and that read tensor."""
    @function.Defun(tf.float32, tf.float32)
    def layer_fn(a, b):
        w = v1.get_variable("w", [3], initializer=v1.constant_initializer([0.5, -1.0, 2.0]),
                            use_resource=False)
        return tf.sin(a) * b + w * a * a, a * b

    x = v1.placeholder(tf.float32, [3], name="x")
    y = v1.placeholder(tf.float32, [3], name="y")
    with v1.variable_scope("layer"):
        p, q = layer_fn(x, y)
    w = p.op.inputs[2]  # the variable's read, captured by the call
    loss = tf.reduce_sum(p * p) + tf.reduce_sum(q * x)
    gx, gy, gw = tf.gradients(loss, [x, y, w])
    for t, n in ((p, "p"), (gx, "gx"), (gy, "gy"), (gw, "gw")):
        tf.identity(t, name=n)
    return ["p:0", "gx:0", "gy:0", "gw:0"], w


def defun_grad_graph(tf):
    """TF 1.x Defun gradients as TF writes them: SymbolicGradient nodes (TF
    differentiates the function at run time), the function's variable created
    in the outer graph and passed in as a captured argument; frozen (the
    variable's value became a Const) so the GraphDef runs without an init."""
    import subprocess  # pylint: disable=g-import-not-at-top
    import sys  # pylint: disable=g-import-not-at-top
    import tempfile  # pylint: disable=g-import-not-at-top
    # TF 1.x semantics (v2 behavior off) need a process of their own
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "defun_grad.pb")
        subprocess.run([sys.executable, os.path.abspath(__file__), "--defun-grad-to", path],
                       check=True)
        with open(path, "rb") as f:
            gd = tf.compat.v1.GraphDef.FromString(f.read())
    feeds = [{"x:0": DEFUN_GRAD_X, "y:0": DEFUN_GRAD_Y},
             {"x:0": -DEFUN_GRAD_Y, "y:0": DEFUN_GRAD_X * 2}]
    return gd, feeds, ["p:0", "gx:0", "gy:0", "gw:0"]


def _write_defun_grad(path):
    """defun_grad_graph's GraphDef, built with v2 behavior off (as TF 1.x)."""
    import tensorflow.compat.v1 as v1  # pylint: disable=g-import-not-at-top
    v1.disable_v2_behavior()
    from tensorflow.python.framework import function  # pylint: disable=g-import-not-at-top
    tf = v1
    g = tf.Graph()
    with g.as_default():
        fetches, _ = build_defun_grad(tf, v1, function)
        assert any(n.op == "SymbolicGradient" for n in g.as_graph_def().node)
        with v1.Session(graph=g) as sess:
            sess.run(v1.global_variables_initializer())
            gd = v1.graph_util.convert_variables_to_constants(
                sess, g.as_graph_def(), [f.split(":")[0] for f in fetches])
    with open(path, "wb") as f:
        f.write(gd.SerializeToString())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=OUT)
    ap.add_argument("--defun-grad-to", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.defun_grad_to:
        os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
        _write_defun_grad(args.defun_grad_to)
        return
    tf = _tf()
    v1 = tf.compat.v1
    os.makedirs(args.out, exist_ok=True)
    lines = []
    for name, build in [("tf2_frozen", tf2_frozen), ("tf2_graph", tf2_graph),
                        ("defun", defun_graph), ("defun_grad", defun_grad_graph)]:
        gd, feed_list, fetches = build(tf)
        data = gd.SerializeToString()
        with open(os.path.join(args.out, name + ".pb"), "wb") as f:
            f.write(data)
        g = tf.Graph()
        with g.as_default():
            v1.import_graph_def(v1.GraphDef.FromString(data), name="")
            with v1.Session(graph=g) as sess:
                for r, feeds in enumerate(feed_list):
                    outs = sess.run(fetches, feeds)
                    for t, val in feeds.items():
                        fn = "%s_%d_in_%s.npy" % (name, r, t.replace(":", "_").replace("/", "_"))
                        np.save(os.path.join(args.out, fn), val)
                        lines.append("%s.pb %d feed %s %s" % (name, r, t, fn))
                    for t, val in zip(fetches, outs):
                        fn = "%s_%d_out_%s.npy" % (name, r, t.replace(":", "_").replace("/", "_"))
                        np.save(os.path.join(args.out, fn), np.asarray(val))
                        lines.append("%s.pb %d fetch %s %s" % (name, r, t, fn))
    with open(os.path.join(args.out, "manifest.txt"), "w") as f:
        f.write("# written by tools/make_function_fixtures.py with tensorflow %s\n" % tf.__version__)
        f.write("# <graph>.pb <run> feed|fetch <tensor> <file>.npy\n")
        f.write("\n".join(lines) + "\n")
    print("wrote %d items to %s" % (len(lines), args.out))


if __name__ == "__main__":
    main()
