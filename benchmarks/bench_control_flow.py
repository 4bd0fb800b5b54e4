"""Control-flow benchmarks, run by benchmarks/run.py once per framework.

Usage: python bench_control_flow.py FRAMEWORK   (FRAMEWORK is 'tfc' or 'tf')
Prints one JSON object of measurements (seconds, best of several repeats).
The same graphs run in tfc (import tfc as tf) and in real TensorFlow
(tf.compat.v1 in graph mode with version-1 control flow, as TF 1.15 builds it).
"""
import json
import os
import sys
import time


def load(framework):
    """Returns the TF-1.x-shaped module for `framework`."""
    if framework == "tfc":
        import tfc as tf
        return tf
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as real_tf
    tf = real_tf.compat.v1
    tf.disable_eager_execution()
    tf.disable_control_flow_v2()
    return tf


def best_of(fn, repeats=5):
    """Best seconds of one call of fn over `repeats` calls (after a warm-up)."""
    fn()
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def session(tf):
    cfg = tf.ConfigProto(inter_op_parallelism_threads=1, intra_op_parallelism_threads=1)
    return tf.Session(graph=tf.get_default_graph(), config=cfg)


def bench_while_scalar_add(tf, n=10_000):
    """Session.run of tf.while_loop: n iterations of a scalar float add."""
    g = tf.Graph()
    with g.as_default():
        limit = tf.placeholder(tf.int32, shape=[])
        r = tf.while_loop(lambda i, x: i < limit, lambda i, x: (i + 1, x + 1.0),
                          [tf.constant(0), tf.constant(0.0)])
        with session(tf) as sess:
            assert float(sess.run(r, {limit: n})[1]) == float(n)
            loop = best_of(lambda: sess.run(r, {limit: n}))
    return {"while_10k_add_s": loop}


def bench_cond(tf, calls=20000):
    """Session.run of a tf.cond on a fed predicate (scalar branches)."""
    g = tf.Graph()
    with g.as_default():
        p = tf.placeholder(tf.bool, shape=[])
        x = tf.placeholder(tf.float32, shape=[])
        y = tf.cond(p, lambda: x + 1.0, lambda: x * 2.0)
        with session(tf) as sess:
            feed = {p: True, x: 3.0}
            assert float(sess.run(y, feed)) == 4.0

            def many():
                for _ in range(calls):
                    sess.run(y, feed)
            per_call = best_of(many, repeats=3) / calls
    return {"cond_run_s": per_call}


def main():
    tf = load(sys.argv[1] if len(sys.argv) > 1 else "tfc")
    res = {}
    res.update(bench_while_scalar_add(tf))
    res.update(bench_cond(tf))
    print(json.dumps(res))


if __name__ == "__main__":
    main()
