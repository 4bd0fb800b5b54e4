#!/usr/bin/env python3
"""Writes the GraphDef fixtures of tests/fixtures/graphdef/ with real TensorFlow,
and checks GraphDefs that tfc exported by running them in real TensorFlow.

Run with the TensorFlow venv (tf.compat.v1 graph mode):

  .venv-tf/bin/python tools/make_graphdef_fixtures.py
      (re)writes tests/fixtures/graphdef/*.pb, *.npy and manifest.txt
  .venv-tf/bin/python tools/make_graphdef_fixtures.py --check-export DIR
      loads DIR/<graph>.pb (written by `TFC_GRAPHDEF_EXPORT_DIR=DIR build/ctest
      graphdef`), runs it in TensorFlow with the manifest's feeds and targets,
      and compares every fetch with the stored expected values.

Each fixture is a serialized GraphDef. The expected outputs are computed by
importing that exact .pb into a fresh TensorFlow graph and running it, so
they describe TF's semantics of the bytes the C test imports.

manifest.txt, one line per item ('#' starts a comment):
  <graph>.pb feed   <tensor>  <file>.npy
  <graph>.pb target <op>
  <graph>.pb fetch  <tensor>  <file>.npy  [tolerance]
Targets run in a first step, then one step feeds all feeds and fetches all
fetches.
"""
import argparse
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(os.path.dirname(HERE), "tests", "fixtures", "graphdef")


def _tf():
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    import tensorflow.compat.v1 as tf
    tf.disable_v2_behavior()
    return tf


def build_mlp(tf):
    """A frozen two-layer classifier: the usual 'load a .pb and run it' case."""
    rng = np.random.RandomState(1)
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 4], name="x")
        w1 = tf.Variable(rng.randn(4, 8).astype(np.float32), name="w1")
        b1 = tf.Variable(rng.randn(8).astype(np.float32), name="b1")
        w2 = tf.Variable(rng.randn(8, 3).astype(np.float32), name="w2")
        b2 = tf.Variable(rng.randn(3).astype(np.float32), name="b2")
        h = tf.nn.relu(tf.nn.bias_add(tf.matmul(x, w1), b1), name="hidden")
        logits = tf.add(tf.matmul(h, w2), b2, name="logits")
        tf.nn.softmax(logits, name="probs")
        tf.argmax(logits, axis=1, name="cls")
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            frozen = tf.graph_util.convert_variables_to_constants(
                sess, g.as_graph_def(), ["probs", "cls"])
    feeds = {"x:0": rng.randn(5, 4).astype(np.float32)}
    return frozen, feeds, [], ["probs:0", "cls:0", "hidden:0"]


def build_mixed(tf):
    """Many encodings and ops in one graph, with its nodes stored in reverse
    order so the importer must sort them."""
    g = tf.Graph()
    with g.as_default():
        idx = tf.placeholder(tf.int32, [None], name="idx")
        fill = tf.constant(1.5, shape=[2, 3], name="fill")         # one float_val, repeated
        ints = tf.constant([1, 2, 3], dtype=tf.int64, name="ints")  # tensor_content
        one = tf.constant(7, name="seven")                          # scalar int_val
        halfs = tf.constant([1.5, -2.25, 65504.0], dtype=tf.float16, name="halfs")
        flags = tf.constant([True, False, True], name="flags")
        words = tf.constant([b"ab", b"", b"xyz"], name="words")
        small = tf.constant([[1, 2], [3, 4]], dtype=tf.int8, name="small")
        u16 = tf.constant([65535, 1], dtype=tf.uint16, name="u16")
        table = tf.constant(np.arange(12, dtype=np.float32).reshape(4, 3), name="table")
        with tf.device("/device:CPU:0"):
            parts = tf.split(table, 2, axis=0, name="split")
        rows = tf.unstack(table, axis=0, name="unstack")
        gathered = tf.gather(table, idx, name="gathered")
        with tf.control_dependencies([gathered]):
            after = tf.identity(parts[1], name="after")
        with g.colocate_with(fill):
            tf.multiply(fill, 2.0, name="fill2")
        tf.concat([parts[0], after], axis=1, name="joined")
        tf.reduce_sum(tf.transpose(table), axis=1, keepdims=True, name="colsum")
        tf.reduce_mean(rows[3], name="mean3")
        tf.cast(halfs, tf.float32, name="halfs_f")
        tf.where(flags, tf.cast(ints, tf.float32), -tf.cast(ints, tf.float32), name="picked")
        tf.add(tf.cast(ints, tf.int32), one, name="plus7")
        tf.identity(words, name="words_out")
        tf.cast(small, tf.int32, name="small_i")
        tf.cast(u16, tf.int32, name="u16_i")
        tf.identity(table[1:3, ::2], name="sliced")
    gd = g.as_graph_def()
    nodes = list(gd.node)
    del gd.node[:]
    gd.node.extend(reversed(nodes))
    feeds = {"idx:0": np.array([3, 0, 2], dtype=np.int32)}
    fetches = ["fill:0", "fill2:0", "split:1", "unstack:2", "gathered:0", "after:0", "joined:0",
               "colsum:0", "mean3:0", "halfs_f:0", "picked:0", "plus7:0", "words_out:0",
               "small_i:0", "u16_i:0", "sliced:0", "flags:0"]
    return gd, feeds, [], fetches


def build_variables(tf):
    """A graph that is not frozen: VariableV2 nodes (ref types), Assign
    initializers, `_class: loc:@v` colocation, and an update op."""
    g = tf.Graph()
    with g.as_default():
        v = tf.Variable(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32), name="v")
        w = tf.Variable(tf.zeros([2]), name="w")
        x = tf.placeholder(tf.float32, [2], name="x")
        step = tf.assign_add(w, x, name="step")
        with tf.control_dependencies([step]):
            # read_value() inside the block: the read waits for the update
            # (a plain `w` would read w/read, which is not ordered after it).
            tf.identity(tf.matmul(v, tf.expand_dims(w.read_value(), 1)), name="y")
        tf.global_variables_initializer()
    feeds = {"x:0": np.array([0.5, -1.0], np.float32)}
    return g.as_graph_def(), feeds, ["init"], ["y:0", "v:0"]


BUILDERS = [("mlp", build_mlp), ("mixed", build_mixed), ("variables", build_variables)]


def run_graphdef(tf, gd, feeds, targets, fetches):
    """Imports gd into a fresh graph and runs targets, then feeds -> fetches."""
    g = tf.Graph()
    with g.as_default():
        tf.import_graph_def(gd, name="")
        with tf.Session(graph=g) as sess:
            if targets:
                sess.run(targets)
            return sess.run(fetches, feed_dict=feeds)


def write_fixtures(tf):
    os.makedirs(FIXTURES, exist_ok=True)
    lines = ["# GraphDef fixtures written by tools/make_graphdef_fixtures.py with TensorFlow %s."
             % tf.__version__,
             "# <graph>.pb feed|target|fetch <name> [<file>.npy [tolerance]]"]
    for name, build in BUILDERS:
        gd, feeds, targets, fetches = build(tf)
        data = gd.SerializeToString(deterministic=True)
        with open(os.path.join(FIXTURES, name + ".pb"), "wb") as f:
            f.write(data)
        parsed = tf.GraphDef()
        parsed.ParseFromString(data)
        values = run_graphdef(tf, parsed, feeds, targets, fetches)
        for tensor, value in sorted(feeds.items()):
            fn = "%s.feed.%s.npy" % (name, tensor.replace(":", "_").replace("/", "_"))
            np.save(os.path.join(FIXTURES, fn), value)
            lines.append("%s.pb feed %s %s" % (name, tensor, fn))
        for op in targets:
            lines.append("%s.pb target %s" % (name, op))
        for tensor, value in zip(fetches, values):
            fn = "%s.fetch.%s.npy" % (name, tensor.replace(":", "_").replace("/", "_"))
            value = np.asarray(value)
            if value.dtype == object:  # string tensors: fixed-width bytes, no pickle
                value = value.astype(bytes)
            np.save(os.path.join(FIXTURES, fn), value)
            tol = "1e-5" if value.dtype.kind == "f" else "0"
            lines.append("%s.pb fetch %s %s %s" % (name, tensor, fn, tol))
        print("wrote %s.pb (%d nodes, %d bytes)" % (name, len(gd.node), len(data)))
    with open(os.path.join(FIXTURES, "manifest.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


def read_manifest():
    items = {}
    with open(os.path.join(FIXTURES, "manifest.txt")) as f:
        for line in f:
            parts = line.split()
            if not parts or parts[0].startswith("#"):
                continue
            graph = items.setdefault(parts[0], {"feed": [], "target": [], "fetch": []})
            graph[parts[1]].append(parts[2:])
    return items


def check_export(tf, export_dir):
    """Runs every exported GraphDef in TensorFlow; returns the number of failures."""
    failures = 0
    for graph, items in sorted(read_manifest().items()):
        path = os.path.join(export_dir, graph)
        if not os.path.exists(path):
            print("MISSING %s" % path)
            failures += 1
            continue
        gd = tf.GraphDef()
        with open(path, "rb") as f:
            gd.ParseFromString(f.read())
        feeds = {t: np.load(os.path.join(FIXTURES, fn)) for t, fn in items["feed"]}
        targets = [t[0] for t in items["target"]]
        fetches = [t[0] for t in items["fetch"]]
        values = run_graphdef(tf, gd, feeds, targets, fetches)
        for (tensor, fn, tol), got in zip(items["fetch"], values):
            want = np.load(os.path.join(FIXTURES, fn))
            got = np.asarray(got)
            if got.dtype == object:
                got = got.astype(bytes)
            if want.dtype.kind in "fc":
                ok = got.shape == want.shape and np.allclose(got, want, rtol=float(tol), atol=float(tol))
            else:
                ok = got.shape == want.shape and np.array_equal(got, want)
            if not ok:
                print("MISMATCH %s %s: got %r want %r" % (graph, tensor, got, want))
                failures += 1
        print("%s %s: %d nodes, %d fetches" % ("ok" if not failures else "checked", graph,
                                              len(gd.node), len(fetches)))
    built = os.path.join(export_dir, "built.pb")
    if os.path.exists(built):
        gd = tf.GraphDef()
        with open(built, "rb") as f:
            gd.ParseFromString(f.read())
        got = run_graphdef(tf, gd, {}, [], ["out:0"])[0]
        want = np.array([[7.0, 10.0], [15.0, 22.0]], np.float32) + 1.0
        ok = np.allclose(got, want)
        print("%s built.pb (graph built in C): %r" % ("ok" if ok else "MISMATCH", got.tolist()))
        failures += 0 if ok else 1
    return failures


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check-export", metavar="DIR",
                    help="run GraphDefs exported by tfc from DIR in TensorFlow")
    args = ap.parse_args(argv)
    tf = _tf()
    if args.check_export:
        failures = check_export(tf, args.check_export)
        print("check-export: %d failure(s)" % failures)
        return 1 if failures else 0
    write_fixtures(tf)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
