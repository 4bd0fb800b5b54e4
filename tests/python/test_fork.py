"""tfc is fork-safe: importing starts no threads, a forked child can build and
run its own session, and a session from before the fork fails with a clear
error in the child instead of hanging on threads that do not exist there."""
import concurrent.futures
import multiprocessing
import os
import subprocess
import sys

import numpy as np

import tfc as tf


def test_import_starts_no_threads():
    code = ("import os, numpy; n = len(os.listdir('/proc/self/task')); import tfc; "
            "print(len(os.listdir('/proc/self/task')) - n)")
    out = subprocess.run([sys.executable, "-c", code], cwd="/tmp", capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "0"


def _child_work(k):
    """Runs in a forked worker: builds and runs its own graph and session."""
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None])
        y = tf.reduce_sum(x * 2.0)
    cfg = tf.ConfigProto(inter_op_parallelism_threads=1, intra_op_parallelism_threads=1)
    with tf.Session(graph=g, config=cfg) as sess:
        return float(sess.run(y, {x: np.arange(k, dtype=np.float32)}))


def test_forked_children_run_their_own_sessions_after_parent_ran_one():
    g = tf.Graph()
    with g.as_default():
        a = tf.constant(np.ones((256, 256), np.float32))
        b = tf.matmul(a, a)
    cfg = tf.ConfigProto(inter_op_parallelism_threads=2, intra_op_parallelism_threads=2)
    with tf.Session(graph=g, config=cfg) as sess:
        assert sess.run(b)[0, 0] == 256.0  # the parent's pools now exist
        ctx = multiprocessing.get_context("fork")
        with concurrent.futures.ProcessPoolExecutor(2, mp_context=ctx) as pool:
            results = list(pool.map(_child_work, [4, 10, 100]))
    assert results == [12.0, 90.0, 9900.0]


def test_parent_session_in_child_is_a_clear_error():
    g = tf.Graph()
    with g.as_default():
        c = tf.constant(3.0) * 2.0
    sess = tf.Session(graph=g)
    assert sess.run(c) == 6.0
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        os.close(r)
        try:
            sess.run(c)
            msg = b"no error"
        except tf.errors.FailedPreconditionError as e:
            msg = b"FailedPreconditionError: " + str(e).encode()[:200]
        except BaseException as e:  # noqa: BLE001 - report anything else to the parent
            msg = repr(e).encode()[:200]
        os.write(w, msg)
        os._exit(0)
    os.close(w)
    got = os.read(r, 4096)
    os.close(r)
    os.waitpid(pid, 0)
    assert got.startswith(b"FailedPreconditionError: This Session was created in another process")
    sess.close()


_CONV_FORK_SCRIPT = r"""
import concurrent.futures, gc, multiprocessing, os
import numpy as np
import tfc as tf

def build():
    x = tf.placeholder(tf.float32, [None, 12, 12, 3])
    w = tf.Variable(np.random.RandomState(0).standard_normal((3, 3, 3, 8)).astype(np.float32) * 0.1)
    d = tf.Variable(np.random.RandomState(1).standard_normal((3, 3, 8, 4)).astype(np.float32) * 0.1)
    h = tf.nn.relu(tf.nn.conv2d(x, w, [1, 1, 1, 1], "SAME"))
    h = tf.nn.conv2d(h, d, [1, 2, 2, 1], "SAME")
    loss = tf.reduce_mean(tf.square(h))
    return x, loss, tf.train.GradientDescentOptimizer(0.1).minimize(loss)

def step(threads):
    g = tf.Graph()
    with g.as_default():
        x, loss, train = build()
        init = tf.global_variables_initializer()
    cfg = tf.ConfigProto(inter_op_parallelism_threads=threads, intra_op_parallelism_threads=threads)
    feed = {x: np.random.RandomState(2).standard_normal((16, 12, 12, 3)).astype(np.float32)}
    with tf.Session(graph=g, config=cfg) as sess:
        sess.run(init)
        before = sess.run(loss, feed)
        sess.run(train, feed)
        return float(before), float(sess.run(loss, feed))

def child(_):
    return step(2)

parent = step(2)
ctx = multiprocessing.get_context("fork")
with concurrent.futures.ProcessPoolExecutor(2, mp_context=ctx) as pool:
    kids = list(pool.map(child, range(3)))
assert all(np.allclose(k, parent, rtol=1e-5) for k in kids), (parent, kids)
assert parent[1] < parent[0], parent
gc.collect()  # earlier sessions' pools are joined when they are freed
n = len(os.listdir("/proc/self/task"))
step(1)
print("ok", max(0, len(os.listdir("/proc/self/task")) - n))  # threads started by step(1)
"""


def test_forked_children_run_conv_training_after_parent_did():
    """A conv training step with 2 intra-op threads in the parent, then
    process-pool children (fork) that run their own conv sessions: nothing
    hangs (the convolution library never starts OpenMP threads), and a
    single-threaded conv session starts no threads at all."""
    proc = subprocess.Popen([sys.executable, "-c", _CONV_FORK_SCRIPT], cwd="/tmp",
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        proc.communicate()
        raise AssertionError("a forked child running a conv session hung")
    assert proc.returncode == 0, err
    assert out.split() == ["ok", "0"], out + err
