"""Trains the digits CNN from TFRecord files, through queues and through tf.data.

    python examples/train_digits_input.py [--short] [--pipeline queue|data|both] [--dir DIR]

The 8x8 digits (scikit-learn) are written as tf.train.Examples into 4
TFRecord files (1 KB-ish records: 64 float pixels + an int64 label). Then:

  queue: string_input_producer -> 2 TFRecordReaders -> parse_single_example
         -> shuffle_batch_join(64) run by QueueRunner threads under a
         Coordinator (TF 1.x's classic input pipeline);
  data:  TFRecordDataset -> shuffle -> repeat -> batch(64) -> prefetch,
         parsed with parse_example on each batch (one-shot iterator).

Both train the CNN of examples/train_digits.py with Adam and print its test
accuracy on the held-out quarter.
"""
import argparse
import os
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import train_digits  # noqa: E402

import tfc as tf  # noqa: E402

FEATURES = {"image": tf.FixedLenFeature([64], tf.float32), "label": tf.FixedLenFeature([], tf.int64)}


def write_tfrecords(directory, X, y, n_files=4):
    """Writes the examples round-robin into n_files TFRecord files; returns their paths."""
    paths = [os.path.join(directory, "digits-%d.tfrecord" % i) for i in range(n_files)]
    writers = [tf.python_io.TFRecordWriter(p) for p in paths]
    for i in range(len(y)):
        ex = tf.train.Example(features=tf.train.Features(feature={
            "image": tf.train.Feature(float_list=tf.train.FloatList(value=X[i].reshape(-1))),
            "label": tf.train.Feature(int64_list=tf.train.Int64List(value=[int(y[i])]))}))
        writers[i % n_files].write(ex.SerializeToString())
    for w in writers:
        w.close()
    return paths


def queue_input(paths, batch):
    files = tf.train.string_input_producer(paths, shuffle=True, seed=1)
    examples = []
    for _ in range(2):  # two reader threads
        _, record = tf.TFRecordReader().read(files)
        ex = tf.parse_single_example(record, FEATURES)
        examples.append([tf.reshape(ex["image"], [8, 8]), ex["label"]])
    return tf.train.shuffle_batch_join(examples, batch, capacity=2000, min_after_dequeue=500, seed=2)


def data_input(paths, batch):
    ds = tf.data.TFRecordDataset(paths).shuffle(2000, seed=3).repeat().batch(batch).prefetch(2)
    ex = tf.parse_example(ds.make_one_shot_iterator().get_next(), FEATURES)
    return tf.reshape(ex["image"], [-1, 8, 8]), ex["label"]


def train(pipeline, paths, Xte, yte, steps, batch=64, lr=0.01):
    with tf.Graph().as_default():
        tf.set_random_seed(0)
        x, y = queue_input(paths, batch) if pipeline == "queue" else data_input(paths, batch)
        with tf.variable_scope("model"):
            logits = train_digits.build(tf, tf.layers, "cnn", x)
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
        train_op = tf.train.AdamOptimizer(lr).minimize(loss)
        xt = tf.placeholder(tf.float32, [None, 8, 8])
        with tf.variable_scope("model", reuse=True):
            test_logits = train_digits.build(tf, tf.layers, "cnn", xt)
        accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(test_logits, 1), yte), tf.float32))
        with tf.Session() as sess:
            sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
            coord = tf.train.Coordinator()
            threads = tf.train.start_queue_runners(sess, coord)
            try:
                for _ in range(steps):
                    sess.run(train_op)
            finally:
                coord.request_stop()
                coord.join(threads)
            return float(sess.run(accuracy, {xt: Xte}))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--short", action="store_true", help="few steps (the test suite's run)")
    p.add_argument("--pipeline", choices=("queue", "data", "both"), default="both")
    p.add_argument("--steps", type=int, default=None)
    p.add_argument("--dir", default=None, help="where to write the TFRecord files (default: a temp dir)")
    args = p.parse_args(argv)
    steps = args.steps or (200 if args.short else 1500)
    Xtr, ytr, Xte, yte = train_digits.load_digits()
    with tempfile.TemporaryDirectory() as tmp:
        paths = write_tfrecords(args.dir or tmp, Xtr, ytr)
        for pipeline in (("queue", "data") if args.pipeline == "both" else (args.pipeline,)):
            acc = train(pipeline, paths, Xte, yte.astype(np.int64), steps)
            print("cnn via %s (%d steps): test accuracy %.4f" % (pipeline, steps, acc))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
