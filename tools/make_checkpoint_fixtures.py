#!/usr/bin/env python3
"""Checkpoint compatibility fixtures and checks with real TensorFlow
(tests/python/test_compat_checkpoint.py, run by `make compat`).

  .venv-tf/bin/python tools/make_checkpoint_fixtures.py --out DIR
      writes DIR/tf_sharded/ and DIR/mlp/ (below)
  .venv-tf/bin/python tools/make_checkpoint_fixtures.py --check-values PREFIX NPZ
      TF reads the checkpoint PREFIX (written by tfc) with its own reader and
      compares every tensor with NPZ; prints "ok" last
  .venv-tf/bin/python tools/make_checkpoint_fixtures.py --continue-mlp PREFIX STEPS DIR
      TF builds the MLP of DIR/mlp, restores PREFIX (written by tfc), trains
      STEPS steps and prints the losses as JSON last

DIR/tf_sharded: a tf.train.Saver(sharded=True) checkpoint written from three
CPU devices (three data shards): variables of every dtype TF saves (strings
included) and a variable split by fixed_size_partitioner(3) (stored as
slices). Files model.ckpt-5.{index,data-0000k-of-00003,meta}, `checkpoint`,
and values.npz (the full value of each checkpoint key, pickled objects for
strings).

DIR/mlp: a two-layer MLP (softmax cross-entropy, Adam) on fixed data:
data.npz (x, y, initial weights), init.ckpt (the variables before training,
Adam slots and global_step included), step<K>.ckpt (after K steps) and
losses.npy, the losses of 2K uninterrupted steps (K = STEPS below).
build_mlp() is shared with the test, so both frameworks build the same graph.
"""
import argparse
import json
import os
import shutil
import sys

import numpy as np

STEPS = 10
CKPT_DTYPES = ["float32", "float64", "int32", "uint8", "int16", "int8", "int64", "bool",
               "complex64", "complex128", "float16", "uint16", "uint32", "uint64"]


def _tf():
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    os.environ["TF_ENABLE_ONEDNN_OPTS"] = "0"
    import tensorflow.compat.v1 as tf
    tf.disable_v2_behavior()
    return tf


def dtype_values():
    """{name: value} of one variable per dtype (and strings, a scalar, an empty one)."""
    rng = np.random.RandomState(42)
    out = {}
    for dt in CKPT_DTYPES:
        if dt == "bool":
            v = rng.rand(3, 5) > 0.5
        elif dt.startswith("complex"):
            v = (rng.randn(3, 5) + 1j * rng.randn(3, 5)).astype(dt)
        elif dt.startswith(("int", "uint")):
            info = np.iinfo(dt)
            v = rng.randint(max(info.min, -10 ** 6), min(info.max, 10 ** 6), size=(3, 5)).astype(dt)
        else:
            v = rng.randn(3, 5).astype(dt)
        out["v_" + dt] = v
    out["s"] = np.array([[b"alpha", b""], [b"\x00\xff\x01", "\u00fcml\u00e4ut".encode()]],
                        dtype=object)
    out["scope/scalar"] = np.float32(-1.25)
    out["empty"] = np.zeros((0, 4), np.float32)
    return out


def make_tf_sharded(tf, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    values = dtype_values()
    g = tf.Graph()
    with g.as_default():
        for i, (name, v) in enumerate(sorted(values.items())):
            with tf.device("/cpu:%d" % (i % 3)):
                tf.Variable(v, name=name)
        with tf.device("/cpu:1"):
            part = tf.get_variable("part", shape=[10, 4], dtype=tf.float32,
                                   initializer=tf.random_normal_initializer(seed=3),
                                   partitioner=tf.fixed_size_partitioner(3))
        step = tf.train.get_or_create_global_step()
        saver = tf.train.Saver(sharded=True)
        config = tf.ConfigProto(device_count={"CPU": 3})
        with tf.Session(graph=g, config=config) as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(tf.assign(step, 5))
            saver.save(sess, os.path.join(out_dir, "model.ckpt"), global_step=step)
            values["part"] = sess.run(tf.convert_to_tensor(part))
            values["global_step"] = np.int64(5)
    np.savez(os.path.join(out_dir, "values.npz"), **{k.replace("/", "|"): v
                                                    for k, v in values.items()})


def mlp_data():
    rng = np.random.RandomState(7)
    x = rng.randn(64, 8).astype(np.float32)
    y = (x[:, :3].sum(1) > 0).astype(np.int64) + (x[:, 3] > 1).astype(np.int64)
    return {"x": x, "y": y,
            "w1": (rng.randn(8, 16) * 0.3).astype(np.float32),
            "b1": np.zeros(16, np.float32),
            "w2": (rng.randn(16, 3) * 0.3).astype(np.float32),
            "b2": np.zeros(3, np.float32)}


def build_mlp(tf, data):
    """The MLP graph in tf (tfc or TF): returns (loss, train_op, feed)."""
    x = tf.placeholder(tf.float32, [None, 8], name="x")
    y = tf.placeholder(tf.int64, [None], name="y")
    with tf.variable_scope("hidden"):
        w1 = tf.get_variable("w", initializer=data["w1"])
        b1 = tf.get_variable("b", initializer=data["b1"])
        h = tf.nn.relu(tf.matmul(x, w1) + b1)
    with tf.variable_scope("out"):
        w2 = tf.get_variable("w", initializer=data["w2"])
        b2 = tf.get_variable("b", initializer=data["b2"])
        logits = tf.matmul(h, w2) + b2
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits),
                          name="loss")
    step = tf.train.get_or_create_global_step()
    train_op = tf.train.AdamOptimizer(0.05).minimize(loss, global_step=step)
    return loss, train_op, {x: data["x"], y: data["y"]}


def train(sess, loss, train_op, feed, steps):
    return [float(sess.run([loss, train_op], feed)[0]) for _ in range(steps)]


def make_mlp(tf, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    data = mlp_data()
    np.savez(os.path.join(out_dir, "data.npz"), **data)
    with tf.Graph().as_default():
        loss, train_op, feed = build_mlp(tf, data)
        saver = tf.train.Saver()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            saver.save(sess, os.path.join(out_dir, "init.ckpt"), write_meta_graph=False)
            losses = train(sess, loss, train_op, feed, STEPS)
            saver.save(sess, os.path.join(out_dir, "step%d.ckpt" % STEPS), write_meta_graph=False)
            losses += train(sess, loss, train_op, feed, STEPS)
    np.save(os.path.join(out_dir, "losses.npy"), np.array(losses))


def check_values(tf, prefix, npz):
    reader = tf.train.NewCheckpointReader(prefix)
    values = np.load(npz, allow_pickle=True)
    names = sorted(k.replace("|", "/") for k in values.files)
    have = sorted(reader.get_variable_to_shape_map())
    assert have == names, "names: %s vs %s" % (have, names)
    for key in values.files:
        name = key.replace("|", "/")
        want, got = values[key], reader.get_tensor(name)
        assert got.shape == want.shape, "%s: shape %s vs %s" % (name, got.shape, want.shape)
        if want.dtype == object:
            assert [bytes(a) for a in got.reshape(-1)] == list(want.reshape(-1)), name
        else:
            assert got.dtype == want.dtype, "%s: dtype %s vs %s" % (name, got.dtype, want.dtype)
            np.testing.assert_array_equal(got, want, err_msg=name)
    # and through TF's Saver (RestoreV2 + Assign) into variables
    with tf.Graph().as_default():
        variables = [tf.Variable(np.zeros_like(values[k]) if values[k].dtype != object
                                 else np.full(values[k].shape, b"", dtype=object),
                                 name=k.replace("|", "/")) for k in values.files]
        saver = tf.train.Saver(variables)
        with tf.Session() as sess:
            saver.restore(sess, prefix)
            for v, key in zip(variables, values.files):
                got = sess.run(v)
                if values[key].dtype == object:
                    assert [bytes(a) for a in np.asarray(got).reshape(-1)] == list(
                        values[key].reshape(-1)), key
                else:
                    np.testing.assert_array_equal(got, values[key], err_msg=key)
    print("ok")


def continue_mlp(tf, prefix, steps, fixture_dir):
    data = dict(np.load(os.path.join(fixture_dir, "mlp", "data.npz")))
    with tf.Graph().as_default():
        loss, train_op, feed = build_mlp(tf, data)
        saver = tf.train.Saver()
        with tf.Session() as sess:
            saver.restore(sess, prefix)
            losses = train(sess, loss, train_op, feed, steps)
    print(json.dumps(losses))


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", help="write the fixtures into this folder")
    ap.add_argument("--check-values", nargs=2, metavar=("PREFIX", "NPZ"))
    ap.add_argument("--continue-mlp", nargs=3, metavar=("PREFIX", "STEPS", "FIXTURE_DIR"))
    args = ap.parse_args(argv)
    tf = _tf()
    if args.check_values:
        check_values(tf, *args.check_values)
    elif args.continue_mlp:
        prefix, steps, fixture_dir = args.continue_mlp
        continue_mlp(tf, prefix, int(steps), fixture_dir)
    elif args.out:
        if os.path.isdir(args.out):
            shutil.rmtree(args.out)
        make_tf_sharded(tf, os.path.join(args.out, "tf_sharded"))
        make_mlp(tf, os.path.join(args.out, "mlp"))
        print("wrote", args.out)
    else:
        ap.error("nothing to do")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
