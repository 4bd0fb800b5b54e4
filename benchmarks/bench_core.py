"""Foundation benchmarks, run by benchmarks/run.py once per framework.

Usage: python bench_core.py FRAMEWORK   (FRAMEWORK is 'tfc' or 'tf')
Prints one JSON object of measurements (seconds, best of several repeats).
The same script body runs against tfc (import tfc as tf) and against real
TensorFlow (tf.compat.v1 in graph mode), so both do identical work.
"""
import json
import os
import sys
import time

import numpy as np


def load(framework):
    """Returns the TF-1.x-shaped module for `framework`."""
    if framework == "tfc":
        import tfc as tf
        return tf
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as real_tf
    tf = real_tf.compat.v1
    tf.disable_eager_execution()
    return tf


def best_per_call(fn, calls, repeats=5):
    """Best mean seconds per call of fn over `repeats` batches of `calls` calls."""
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        best = min(best, (time.perf_counter() - t0) / calls)
    return best


def session(tf, threads):
    """A session with `threads` inter- and intra-op threads (0 = default)."""
    cfg = tf.ConfigProto(inter_op_parallelism_threads=threads, intra_op_parallelism_threads=threads)
    return tf.Session(graph=tf.get_default_graph(), config=cfg)


def bench_scalar_add(tf):
    """Session.run of a fed scalar add, and the same through make_callable."""
    g = tf.Graph()
    with g.as_default():
        a = tf.placeholder(tf.float32, shape=[])
        b = tf.placeholder(tf.float32, shape=[])
        c = a + b
        with session(tf, 1) as sess:
            feed = {a: 1.0, b: 2.0}
            assert float(sess.run(c, feed)) == 3.0
            run = best_per_call(lambda: sess.run(c, feed), 20000)
            call = sess.make_callable(c, feed_list=[a, b])
            assert float(call(1.0, 2.0)) == 3.0
            callable_s = best_per_call(lambda: call(1.0, 2.0), 20000)
    return {"scalar_add_run_s": run, "scalar_add_callable_s": callable_s}


def bench_proto(tf):
    """Creating a RunOptions and setting one field (the message classes of both
    frameworks are google.protobuf's, on its upb backend)."""
    RunOptions = tf.RunOptions
    full = RunOptions.FULL_TRACE

    def make():
        options = RunOptions()
        options.trace_level = full
    make()
    return {"run_options_s": best_per_call(make, 200000)}


def bench_matmul(tf, n=2048):
    """n x n float32 matmul through a session (inputs fed), and NumPy's A @ B."""
    rng = np.random.default_rng(0)
    A = rng.standard_normal((n, n), dtype=np.float32)
    B = rng.standard_normal((n, n), dtype=np.float32)
    g = tf.Graph()
    with g.as_default():
        a = tf.placeholder(tf.float32, shape=[n, n])
        b = tf.placeholder(tf.float32, shape=[n, n])
        c = tf.matmul(a, b)
        with session(tf, 0) as sess:
            out = sess.run(c, {a: A, b: B})
            ref = A @ B
            assert np.allclose(out, ref, rtol=1e-3, atol=1e-2)
            t = best_per_call(lambda: sess.run(c, {a: A, b: B}), 3)
    t_np = best_per_call(lambda: A @ B, 3)
    flops = 2.0 * n ** 3
    return {"matmul_s": t, "numpy_matmul_s": t_np, "matmul_gflops": flops / t / 1e9,
            "numpy_matmul_gflops": flops / t_np / 1e9}


def bench_add(tf, n=10_000_000):
    """Elementwise add of two n-element float32 arrays, 1 and 2 threads, and NumPy."""
    rng = np.random.default_rng(1)
    X = rng.standard_normal(n, dtype=np.float32)
    Y = rng.standard_normal(n, dtype=np.float32)
    res = {}
    for threads in (1, 2):
        g = tf.Graph()
        with g.as_default():
            x = tf.placeholder(tf.float32, shape=[n])
            y = tf.placeholder(tf.float32, shape=[n])
            z = x + y
            with session(tf, threads) as sess:
                assert np.array_equal(sess.run(z, {x: X, y: Y}), X + Y)
                res["add10m_%dt_s" % threads] = best_per_call(lambda: sess.run(z, {x: X, y: Y}), 10)
    res["numpy_add10m_s"] = best_per_call(lambda: X + Y, 10)
    return res


def main():
    framework = sys.argv[1]
    only = sys.argv[2:] or ["scalar_add", "proto", "matmul", "add"]
    tf = load(framework)
    out = {}
    for name in only:
        out.update(globals()["bench_" + name](tf))
    print(json.dumps(out))


if __name__ == "__main__":
    main()
