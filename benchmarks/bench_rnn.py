"""dynamic_rnn benchmark: one training step (forward + backward + SGD update)
of tf.nn.dynamic_rnn over an LSTM (hidden 256, batch 32, 50 steps, input
depth 256), in tfc and in real TensorFlow (tf.compat.v1 graph mode, version-1
control flow, TF 1.15's LSTMCell), on 1 and 2 threads.

Usage:
  python benchmarks/bench_rnn.py            runs both frameworks (fresh processes)
                                            and prints the ratios TF/tfc
  python benchmarks/bench_rnn.py FRAMEWORK  one framework ('tfc' or 'tf'): JSON
Runs tfc with .venv/bin/python and TF with .venv-tf/bin/python (override with
TFC_PY / TF_PY).
"""
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
HIDDEN, BATCH, STEPS, DEPTH = 256, 32, 50, 256


def load(framework):
    if framework == "tfc":
        import tfc as tf
        return tf, tf.nn.rnn_cell.LSTMCell, tf.nn.dynamic_rnn
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as real_tf
    from tensorflow.python.keras.layers.legacy_rnn import rnn_cell_impl
    from tensorflow.python.ops import rnn
    tf = real_tf.compat.v1
    tf.disable_v2_behavior()
    tf.disable_control_flow_v2()
    return tf, rnn_cell_impl.LSTMCell, rnn.dynamic_rnn


def best_of(fn, repeats):
    fn()
    fn()
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def bench(framework, threads, repeats=10):
    import numpy as np
    tf, LSTMCell, dynamic_rnn = load(framework)
    g = tf.Graph()
    with g.as_default():
        tf.set_random_seed(1)
        x = tf.placeholder(tf.float32, [BATCH, STEPS, DEPTH])
        outputs, state = dynamic_rnn(LSTMCell(HIDDEN), x, dtype=tf.float32)
        loss = tf.reduce_mean(outputs * outputs) + tf.reduce_mean(state.c)
        train = tf.train.GradientDescentOptimizer(0.01).minimize(loss)
        cfg = tf.ConfigProto(inter_op_parallelism_threads=threads,
                             intra_op_parallelism_threads=threads)
        with tf.Session(config=cfg) as sess:
            sess.run(tf.global_variables_initializer())
            feed = {x: np.random.RandomState(0).randn(BATCH, STEPS, DEPTH).astype(np.float32)}
            return best_of(lambda: sess.run([train, loss], feed), repeats)


def main():
    if len(sys.argv) > 1:
        fw = sys.argv[1]
        print(json.dumps({"train_step_1t_s": bench(fw, 1), "train_step_2t_s": bench(fw, 2)}))
        return
    tfc_py = os.environ.get("TFC_PY", os.path.join(ROOT, ".venv", "bin", "python"))
    tf_py = os.environ.get("TF_PY", os.path.join(ROOT, ".venv-tf", "bin", "python"))
    res = {}
    for name, py in (("tfc", tfc_py), ("tf", tf_py)):
        out = subprocess.run([py, os.path.abspath(__file__), name], check=True, cwd=HERE,
                             stdout=subprocess.PIPE, universal_newlines=True).stdout
        res[name] = json.loads(out.strip().splitlines()[-1])
    print(json.dumps(res))
    for k in ("train_step_1t_s", "train_step_2t_s"):
        print("%s: tfc %.1f ms, TF %.1f ms, TF/tfc %.2fx"
              % (k, res["tfc"][k] * 1e3, res["tf"][k] * 1e3, res["tf"][k] / res["tfc"][k]))


if __name__ == "__main__":
    main()
