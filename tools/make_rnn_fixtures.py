#!/usr/bin/env python3
"""Writes tests/fixtures/rnn/: recurrent models built and run by real
TensorFlow (v1 graphs, v1 control flow, TF 1.15's cells and tf.nn.dynamic_rnn),
with their weights, inputs, outputs and gradients, for tests/python/test_dynamic_rnn.py.

  .venv-tf/bin/python tools/make_rnn_fixtures.py

Files (NumPy .npz): "var:<variable name>" the weights TF used, "feed:<name>"
the inputs, "out:<name>" TF's results, "grad:<variable name>" and
"grad:<input name>" TF's gradients of the loss.

  lstm_lm.npz        embedding -> 2-layer MultiRNNCell(LSTMCell(16, peepholes),
                     LSTMCell(16, num_proj=12, cell_clip=3)) dynamic_rnn -> softmax
                     over a 23-word vocabulary; loss = mean cross entropy of the next word
  gru_classifier.npz GRUCell(10) dynamic_rnn with sequence_length (batch-major),
                     final state -> dense(4) logits; loss = softmax cross entropy
  bidir.npz          bidirectional_dynamic_rnn of BasicLSTMCell(6) / GRUCell(5),
                     time-major, without sequence_length
  bidir_seqlen.npz   bidirectional_dynamic_rnn of LSTMCell(5) / GRUCell(4), batch-major,
                     with sequence_length (ReverseSequence)
  while_cond.meta    a MetaGraphDef (no gradient ops) of y = sum(loop(x)): a while
                     loop holding a cond and a nested while loop, plus a top-level
                     cond, with TF's while_context/cond_context collections;
  while_cond.npz     its feed x, TF's y and TF's dy/dx computed after importing it
  ta_rnn_two_devices.npz
                     a tanh RNN over TensorArrays (unstack, read, write, stack) in a
                     tf.while_loop on /cpu:0 whose cell runs on /cpu:1 of two CPU
                     devices: feed x, TF's out, dx, dw, du

  .venv-tf/bin/python tools/make_rnn_fixtures.py ta_rnn_two_devices   writes only that one
"""
import sys
import os

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
import tensorflow.compat.v1 as tf  # noqa: E402
from tensorflow.python.keras.layers.legacy_rnn import rnn_cell_impl as rc  # noqa: E402
from tensorflow.python.ops import rnn  # noqa: E402

tf.disable_v2_behavior()
tf.disable_control_flow_v2()
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures", "rnn")
RNG = np.random.RandomState(1234)


def run(build, feeds_np, path):
    g = tf.Graph()
    with g.as_default():
        tf.set_random_seed(1)
        placeholders, outs, loss = build()
        variables = tf.global_variables()
        grads = tf.gradients(loss, variables + [placeholders[k] for k in placeholders
                                                if placeholders[k].dtype == tf.float32])
        grads = [tf.convert_to_tensor(gr) if isinstance(gr, tf.IndexedSlices) else gr
                 for gr in grads]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            data = {}
            for v in variables:
                val = RNG.uniform(-0.4, 0.4, v.shape.as_list()).astype(np.float32)
                sess.run(v.assign(val))
                data["var:" + v.op.name] = val
            feed = {placeholders[k]: feeds_np[k] for k in placeholders}
            for k in feeds_np:
                data["feed:" + k] = feeds_np[k]
            res = sess.run([outs, loss, grads], feed)
    for k, v in res[0].items():
        data["out:" + k] = v
    data["out:loss"] = res[1]
    names = [v.op.name for v in variables] + [k for k in placeholders
                                               if placeholders[k].dtype == tf.float32]
    for n, gv in zip(names, res[2]):
        data["grad:" + n] = gv
    np.savez(path, **data)
    print(path, sorted(data))


def dense(x, units, name):
    """x @ kernel + bias over the last axis (variables name/kernel, name/bias, as tf.layers.dense)."""
    with tf.variable_scope(name):
        depth = x.shape[-1].value
        kernel = tf.get_variable("kernel", [depth, units])
        bias = tf.get_variable("bias", [units])
    flat = tf.reshape(x, [-1, depth])
    out = tf.matmul(flat, kernel) + bias
    return tf.reshape(out, tf.concat([tf.shape(x)[:-1], [units]], 0))


def lstm_lm():
    tokens = tf.placeholder(tf.int32, [4, 9], name="tokens")
    emb = tf.get_variable("embedding", [23, 8])
    x = tf.nn.embedding_lookup(emb, tokens[:, :-1])
    cell = rc.MultiRNNCell([rc.LSTMCell(16, use_peepholes=True),
                            rc.LSTMCell(16, num_proj=12, cell_clip=3.0)])
    outputs, state = rnn.dynamic_rnn(cell, x, dtype=tf.float32)
    logits = dense(outputs, 23, "softmax")
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
        labels=tokens[:, 1:], logits=logits))
    outs = {"logits": logits, "c0": state[0].c, "h0": state[0].h, "c1": state[1].c,
            "h1": state[1].h}
    return {"tokens": tokens}, outs, loss


def gru_classifier():
    x = tf.placeholder(tf.float32, [5, 7, 3], name="x")
    lengths = tf.placeholder(tf.int32, [5], name="lengths")
    labels = tf.placeholder(tf.int32, [5], name="labels")
    outputs, state = rnn.dynamic_rnn(rc.GRUCell(10), x, sequence_length=lengths,
                                     dtype=tf.float32)
    logits = dense(state, 4, "classifier")
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels,
                                                                         logits=logits))
    return ({"x": x, "lengths": lengths, "labels": labels},
            {"outputs": outputs, "state": state, "logits": logits}, loss)


def bidir():
    x = tf.placeholder(tf.float32, [6, 3, 4], name="x")
    (of, ob), (sf, sb) = rnn.bidirectional_dynamic_rnn(rc.BasicLSTMCell(6), rc.GRUCell(5), x,
                                                       dtype=tf.float32, time_major=True)
    loss = tf.reduce_sum(of * of) + tf.reduce_sum(tf.sin(ob)) + tf.reduce_sum(sf.h) \
        + tf.reduce_sum(sb)
    return {"x": x}, {"of": of, "ob": ob, "sf_c": sf.c, "sf_h": sf.h, "sb": sb}, loss


def bidir_seqlen():
    x = tf.placeholder(tf.float32, [4, 6, 3], name="x")
    lengths = tf.placeholder(tf.int32, [4], name="lengths")
    (of, ob), (sf, sb) = rnn.bidirectional_dynamic_rnn(rc.LSTMCell(5), rc.GRUCell(4), x,
                                                       sequence_length=lengths, dtype=tf.float32)
    loss = tf.reduce_sum(of * of) + tf.reduce_sum(tf.sin(ob)) + tf.reduce_sum(sf.c) \
        + tf.reduce_sum(sb * sb)
    return ({"x": x, "lengths": lengths},
            {"of": of, "ob": ob, "sf_c": sf.c, "sf_h": sf.h, "sb": sb}, loss)


def while_cond_meta_graph():
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [3], name="x")

        def body(i, a):
            a = tf.cond(a[0] > 0.0, lambda: a * 1.5, lambda: tf.sin(a) - 1.0)
            _, a = tf.while_loop(lambda j, b: j < i + 1, lambda j, b: (j + 1, tf.tanh(b) + b * 0.5),
                                 [0, a])
            return i + 1, a
        _, r = tf.while_loop(lambda i, a: i < 3, body, [0, x])
        r = tf.cond(tf.reduce_sum(r) > 0.0, lambda: r * r, lambda: -r)
        tf.reduce_sum(r, name="y")
        meta = tf.train.export_meta_graph()
    with open(os.path.join(OUT, "while_cond.meta"), "wb") as f:
        f.write(meta.SerializeToString())
    xv = np.array([0.4, -0.3, 0.9], np.float32)
    g2 = tf.Graph()
    with g2.as_default():
        tf.train.import_meta_graph(meta)
        x2, y2 = g2.get_tensor_by_name("x:0"), g2.get_tensor_by_name("y:0")
        gx, = tf.gradients(y2, x2)
        with tf.Session() as sess:
            yv, gv = sess.run([y2, gx], {x2: xv})
    np.savez(os.path.join(OUT, "while_cond.npz"), x=xv, y=yv, dy_dx=gv)
    print("while_cond.meta collections:", sorted(meta.collection_def))


def ta_rnn_two_devices():
    """The model of tests/python/test_distributed_while.py::_rnn_model, run by TF
    with the loop's cell on a second CPU device."""
    xv = np.random.RandomState(0).randn(5, 3).astype(np.float32)
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [5, 3])
        with tf.device("/cpu:0"):
            w = tf.get_variable("w", initializer=tf.constant(
                np.linspace(-1, 1, 12).reshape(3, 4).astype(np.float32)))
            u = tf.get_variable("u", initializer=tf.constant(
                np.linspace(-.5, .5, 16).reshape(4, 4).astype(np.float32)))
            ta_in = tf.TensorArray(tf.float32, 5).unstack(x)
            ta_out = tf.TensorArray(tf.float32, 5)

            def body(t, h, ta):
                with tf.device("/cpu:1"):
                    h2 = tf.tanh(tf.matmul(tf.expand_dims(ta_in.read(t), 0), w) + tf.matmul(h, u))
                return t + 1, h2, ta.write(t, h2[0])
            _, _, ta = tf.while_loop(lambda t, h, ta: t < 5, body, [0, tf.zeros([1, 4]), ta_out])
            out = ta.stack()
            loss = tf.reduce_sum(out * out)
        grads = tf.gradients(loss, [x, w, u])
        with tf.Session(config=tf.ConfigProto(device_count={"CPU": 2})) as sess:
            sess.run(tf.global_variables_initializer())
            ov, dx, dw, du = sess.run([out] + grads, {x: xv})
    np.savez(os.path.join(OUT, "ta_rnn_two_devices.npz"), x=xv, out=ov, dx=dx, dw=dw, du=du)


def main():
    os.makedirs(OUT, exist_ok=True)
    if sys.argv[1:]:
        for name in sys.argv[1:]:
            globals()[name]()
        return
    ta_rnn_two_devices()
    while_cond_meta_graph()
    run(lstm_lm, {"tokens": RNG.randint(0, 23, size=(4, 9)).astype(np.int32)},
        os.path.join(OUT, "lstm_lm.npz"))
    run(gru_classifier, {"x": RNG.randn(5, 7, 3).astype(np.float32),
                         "lengths": np.array([7, 3, 5, 1, 6], np.int32),
                         "labels": np.array([0, 3, 1, 2, 3], np.int32)},
        os.path.join(OUT, "gru_classifier.npz"))
    run(bidir, {"x": RNG.randn(6, 3, 4).astype(np.float32)}, os.path.join(OUT, "bidir.npz"))
    run(bidir_seqlen, {"x": RNG.randn(4, 6, 3).astype(np.float32),
                       "lengths": np.array([6, 2, 0, 4], np.int32)},
        os.path.join(OUT, "bidir_seqlen.npz"))


if __name__ == "__main__":
    main()
