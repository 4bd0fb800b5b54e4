"""Trains an MLP and a small CNN on scikit-learn's 8x8 handwritten digits with tf.layers.

    python examples/train_digits.py [--short] [--framework tfc|tf] [--model mlp|cnn|both]

1797 images (8x8, 16 grey levels) of the digits 0-9; a fixed 75/25 split. Both
models train with Adam on mini-batches and print their test accuracy. Seeds are
fixed, so a run is repeatable. `--framework tf` runs the same code on real
TensorFlow (tf.compat.v1 in graph mode); TF 2.x's tf.compat.v1.layers needs
Keras 2, so there the layers come from the small stand-ins below, which build
the same variables (Glorot-uniform kernels, zero biases) and ops.
"""
import argparse
import os
import sys

import numpy as np


def load_framework(name):
    if name == "tfc":
        import tfc as tf
        return tf, tf.layers
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as real_tf
    tf = real_tf.compat.v1
    tf.disable_eager_execution()
    return tf, _StandInLayers(tf)


class _StandInLayers(object):
    """dense / conv2d / max_pooling2d / flatten over tf.get_variable and tf.nn."""

    def __init__(self, tf):
        self.tf = tf

    def _kernel_bias(self, kshape, units):
        tf = self.tf
        w = tf.get_variable("kernel", kshape, initializer=tf.glorot_uniform_initializer())
        b = tf.get_variable("bias", [units], initializer=tf.zeros_initializer())
        return w, b

    def dense(self, x, units, activation=None, name=None):
        tf = self.tf
        with tf.variable_scope(name, default_name="dense"):
            w, b = self._kernel_bias([x.shape[-1], units], units)
            y = tf.nn.bias_add(tf.matmul(x, w), b)
            return activation(y) if activation else y

    def conv2d(self, x, filters, kernel_size, padding="valid", activation=None, name=None):
        tf = self.tf
        with tf.variable_scope(name, default_name="conv2d"):
            w, b = self._kernel_bias([kernel_size, kernel_size, x.shape[-1], filters], filters)
            y = tf.nn.bias_add(tf.nn.conv2d(x, w, [1, 1, 1, 1], padding.upper()), b)
            return activation(y) if activation else y

    def max_pooling2d(self, x, pool_size, strides, name=None):
        tf = self.tf
        with tf.variable_scope(name, default_name="max_pooling2d"):
            return tf.nn.max_pool(x, [1, pool_size, pool_size, 1], [1, strides, strides, 1],
                                  "VALID")

    def flatten(self, x, name=None):
        tf = self.tf
        with tf.variable_scope(name, default_name="flatten"):
            n = int(np.prod(x.shape.as_list()[1:]))
            return tf.reshape(x, [-1, n])


def load_digits(seed=0):
    from sklearn.datasets import load_digits as _load
    d = _load()
    X = (d.images / 16.0).astype(np.float32)
    y = d.target.astype(np.int64)
    idx = np.random.default_rng(seed).permutation(len(y))
    n_train = int(0.75 * len(y))
    tr, te = idx[:n_train], idx[n_train:]
    return X[tr], y[tr], X[te], y[te]


def build(tf, layers, model, x):
    if model == "mlp":
        h = layers.flatten(x)
        h = layers.dense(h, 64, activation=tf.nn.relu)
        return layers.dense(h, 10)
    h = tf.reshape(x, [-1, 8, 8, 1])
    h = layers.conv2d(h, 16, 3, padding="same", activation=tf.nn.relu)
    h = layers.max_pooling2d(h, 2, 2)
    h = layers.conv2d(h, 32, 3, padding="same", activation=tf.nn.relu)
    h = layers.max_pooling2d(h, 2, 2)
    h = layers.flatten(h)
    return layers.dense(h, 10)


def train(framework, model, steps, batch=64, lr=0.01, seed=0):
    tf, layers = load_framework(framework)
    Xtr, ytr, Xte, yte = load_digits()
    g = tf.Graph()
    with g.as_default():
        tf.set_random_seed(seed)
        x = tf.placeholder(tf.float32, [None, 8, 8])
        y = tf.placeholder(tf.int64, [None])
        logits = build(tf, layers, model, x)
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y,
                                                                             logits=logits))
        train_op = tf.train.AdamOptimizer(lr).minimize(loss)
        correct = tf.equal(tf.argmax(logits, 1), y)
        accuracy = tf.reduce_mean(tf.cast(correct, tf.float32))
        rng = np.random.default_rng(seed)
        with tf.Session(graph=g) as sess:
            sess.run(tf.global_variables_initializer())
            order = rng.permutation(len(ytr))
            pos = 0
            for _ in range(steps):
                if pos + batch > len(order):
                    order, pos = rng.permutation(len(ytr)), 0
                b = order[pos:pos + batch]
                pos += batch
                sess.run(train_op, {x: Xtr[b], y: ytr[b]})
            return float(sess.run(accuracy, {x: Xte, y: yte}))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--short", action="store_true", help="few steps (the test suite's run)")
    p.add_argument("--framework", choices=("tfc", "tf"), default="tfc")
    p.add_argument("--model", choices=("mlp", "cnn", "both"), default="both")
    p.add_argument("--steps", type=int, default=None)
    args = p.parse_args(argv)
    steps = args.steps or (150 if args.short else 1000)
    models = ("mlp", "cnn") if args.model == "both" else (args.model,)
    for m in models:
        if m == "cnn" and args.framework == "tfc":
            import tfc
            if "Conv2D" not in tfc._tfc.op_names():
                print("cnn: skipped (this tfc build has no Conv2D kernel)")
                continue
        acc = train(args.framework, m, steps)
        print("%s (%s, %d steps): test accuracy %.4f" % (m, args.framework, steps, acc))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
