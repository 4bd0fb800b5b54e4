"""Training benchmarks, run by benchmarks/run.py once per framework.

Usage: python bench_train.py FRAMEWORK [NAME ...]   (FRAMEWORK is 'tfc' or 'tf')
Prints one JSON object (seconds, best of several repeats):
  mlp_adam_{1,2}t_s   one Adam step (forward, backward, update) of a 784-256-10 ReLU MLP,
                      batch 128, sparse softmax cross-entropy, with 1 and 2 threads
  cnn_adam_1t_s ...   one Adam step of a small CNN (conv 5x5x32, pool, conv 5x5x64, pool,
                      dense 10) on 28x28x1 images, batch 64 (skipped when tfc lacks Conv2D)
  grad_build_50_s     time of tf.gradients over a 50-layer MLP (graph construction only)
The models are written with tf.get_variable and tf.nn so that tfc and TensorFlow 2.x
(whose tf.compat.v1.layers needs Keras 2) build the same graph.
"""
import json
import os
import sys
import time

import numpy as np

from bench_core import best_per_call, load, session


def _dense(tf, x, n_in, n_out, name, act=True):
    with tf.variable_scope(name):
        w = tf.get_variable("kernel", [n_in, n_out], initializer=tf.glorot_uniform_initializer())
        b = tf.get_variable("bias", [n_out], initializer=tf.zeros_initializer())
        y = tf.nn.bias_add(tf.matmul(x, w), b)
        return tf.nn.relu(y) if act else y


def _conv(tf, x, k, c_in, c_out, name):
    with tf.variable_scope(name):
        w = tf.get_variable("kernel", [k, k, c_in, c_out],
                            initializer=tf.glorot_uniform_initializer())
        b = tf.get_variable("bias", [c_out], initializer=tf.zeros_initializer())
        y = tf.nn.bias_add(tf.nn.conv2d(x, w, strides=[1, 1, 1, 1], padding="SAME"), b)
        return tf.nn.relu(y)


def _step_time(tf, build, feeds_np, threads, calls):
    g = tf.Graph()
    with g.as_default():
        tf.set_random_seed(0)
        placeholders, loss = build()
        train = tf.train.AdamOptimizer(1e-3).minimize(loss)
        with session(tf, threads) as sess:
            sess.run(tf.global_variables_initializer())
            feed = dict(zip(placeholders, feeds_np))
            l0 = sess.run(loss, feed)
            for _ in range(5):
                sess.run(train, feed)
            t = best_per_call(lambda: sess.run(train, feed), calls)
            l1 = sess.run(loss, feed)
            assert np.isfinite(l1) and l1 < l0, (l0, l1)
    return t


def bench_mlp(tf):
    rng = np.random.default_rng(0)
    X = rng.standard_normal((128, 784), dtype=np.float32)
    Y = rng.integers(0, 10, 128).astype(np.int64)

    def build():
        x = tf.placeholder(tf.float32, [None, 784])
        y = tf.placeholder(tf.int64, [None])
        h = _dense(tf, x, 784, 256, "dense")
        logits = _dense(tf, h, 256, 10, "dense_1", act=False)
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y,
                                                                             logits=logits))
        return (x, y), loss
    return {"mlp_adam_%dt_s" % n: _step_time(tf, build, (X, Y), n, 200) for n in (1, 2)}


def bench_cnn(tf):
    if hasattr(tf, "_tfc") and "Conv2D" not in tf._tfc.op_names():
        return {}
    rng = np.random.default_rng(1)
    X = rng.standard_normal((64, 28, 28, 1), dtype=np.float32)
    Y = rng.integers(0, 10, 64).astype(np.int64)

    def build():
        x = tf.placeholder(tf.float32, [None, 28, 28, 1])
        y = tf.placeholder(tf.int64, [None])
        h = _conv(tf, x, 5, 1, 32, "conv2d")
        h = tf.nn.max_pool(h, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
        h = _conv(tf, h, 5, 32, 64, "conv2d_1")
        h = tf.nn.max_pool(h, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
        h = tf.reshape(h, [-1, 7 * 7 * 64])
        logits = _dense(tf, h, 7 * 7 * 64, 10, "dense", act=False)
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y,
                                                                             logits=logits))
        return (x, y), loss
    return {"cnn_adam_%dt_s" % n: _step_time(tf, build, (X, Y), n, 10) for n in (1, 2)}


def bench_grad_build(tf, layers=50, width=64):
    best = float("inf")
    for _ in range(5):
        g = tf.Graph()
        with g.as_default():
            x = tf.placeholder(tf.float32, [None, width])
            h = x
            for i in range(layers):
                h = _dense(tf, h, width, width, "dense_%d" % i)
            loss = tf.reduce_mean(tf.square(h))
            params = tf.trainable_variables()
            t0 = time.perf_counter()
            grads = tf.gradients(loss, params)
            best = min(best, time.perf_counter() - t0)
            assert len(grads) == 2 * layers and all(gr is not None for gr in grads)
    return {"grad_build_50_s": best}


def main():
    framework = sys.argv[1]
    only = sys.argv[2:] or ["mlp", "cnn", "grad_build"]
    tf = load(framework)
    out = {}
    for name in only:
        out.update(globals()["bench_" + name](tf))
    print(json.dumps(out))


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    main()
