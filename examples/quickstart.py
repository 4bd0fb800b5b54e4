"""tfc quick start: build a TF 1.x graph, run it in a session.

Run with `make demo` (or `.venv/bin/python examples/quickstart.py` once
installed). Everything below is plain TensorFlow 1.x code; only the import
differs.
"""
import numpy as np

import tfc as tf


def main():
    graph = tf.Graph()
    with graph.as_default():
        # Placeholders are fed at run time; None is an unknown dimension.
        x = tf.placeholder(tf.float32, shape=[None, 3], name="x")

        # Variables hold state across runs and must be initialised.
        W = tf.Variable(tf.ones([3, 2]), name="W")
        b = tf.Variable(tf.zeros([2]), name="b")
        y = tf.nn.relu(tf.matmul(x, W) + b, name="y")
        total = tf.reduce_sum(y, name="total")

        # Work can be pinned to devices; with two local CPU devices the graph
        # is partitioned and tensors cross between them through _Send/_Recv.
        with tf.device("/cpu:1"):
            doubled = tf.multiply(total, 2.0, name="doubled")

        update = tf.assign_add(b, [1.0, -1.0])
        init = tf.global_variables_initializer()

    config = tf.ConfigProto(device_count={"CPU": 2}, inter_op_parallelism_threads=2,
                            intra_op_parallelism_threads=2)
    with tf.Session(graph=graph, config=config) as sess:
        sess.run(init)
        batch = np.arange(6, dtype=np.float32).reshape(2, 3)
        y_val, total_val, doubled_val = sess.run([y, total, doubled], feed_dict={x: batch})
        print("y =\n", y_val)
        print("total =", total_val, " doubled (on /cpu:1) =", doubled_val)
        sess.run(update)
        print("b after assign_add =", sess.run(b))
        print("y with the new bias =\n", sess.run(y, {x: batch}))

        # Bad input is an exception naming the node, and the session stays usable.
        try:
            sess.run(y)
        except tf.errors.InvalidArgumentError as e:
            print("InvalidArgumentError:", e.message.splitlines()[0])
        print("still usable:", sess.run(total, {x: batch}))


if __name__ == "__main__":
    main()
