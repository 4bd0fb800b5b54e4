"""tf.matmul (MatMul, BatchMatMulV2) through the public TF-1.x API
(`import tfc as tf`), compared with NumPy: transposes and adjoints, dtypes,
vector-shaped and empty operands, big products split across threads,
broadcast batch dimensions, the `@` operator, static shapes and TF's errors.
A throughput check against NumPy runs when TFC_PERF_TESTS=1 (the shared
development machines are too noisy for it by default).
"""

import os
import time

import numpy as np
import pytest

tf = pytest.importorskip("tfc")
if not all(hasattr(tf, n) for n in ("Graph", "Session", "placeholder", "matmul")):
    pytest.skip("the tfc package does not provide the graph/session API yet",
                allow_module_level=True)


def run(build, *arrays, config=None):
    """Builds build(*placeholders) in a fresh graph and runs it feeding arrays."""
    with tf.Graph().as_default():
        phs = [tf.placeholder(tf.as_dtype(a.dtype), shape=a.shape) for a in arrays]
        out = build(*phs)
        with tf.Session(config=config) as sess:
            return sess.run(out, feed_dict=dict(zip(phs, arrays)))


RNG = np.random.default_rng(99)


def rand(shape, dtype):
    dt = np.dtype(dtype)
    if dt.kind == "f":
        return RNG.standard_normal(shape).astype(dt)
    lo = 0 if dt.kind == "u" else -5
    return RNG.integers(lo, 6, shape).astype(dt)


def tol(dtype):
    return {np.dtype(np.float16): 2e-2, np.dtype(np.float32): 1e-4,
            np.dtype(np.float64): 1e-10}.get(np.dtype(dtype), 0)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, np.int32, np.int64])
@pytest.mark.parametrize("m,n,k", [(1, 1, 1), (3, 4, 5), (1, 50, 70), (50, 1, 70), (33, 17, 9),
                                   (70, 65, 63)])
def test_matmul_transposes(dtype, m, n, k):
    for ta in (False, True):
        for tb in (False, True):
            a = rand((k, m) if ta else (m, k), dtype)
            b = rand((n, k) if tb else (k, n), dtype)
            got = run(lambda x, y: tf.matmul(x, y, transpose_a=ta, transpose_b=tb), a, b)
            want = (a.T if ta else a).astype(np.float64) @ (b.T if tb else b).astype(np.float64)
            assert got.dtype == np.dtype(dtype) and got.shape == (m, n)
            np.testing.assert_allclose(got.astype(np.float64), want, rtol=tol(dtype),
                                       atol=tol(dtype) * max(k, 1))


@pytest.mark.parametrize("n,k", [(10, 1024), (1, 3), (64, 7), (65, 129), (130, 500), (200, 300)])
def test_row_vector_products(n, k):
    # A 1 x k row vector times a k x n matrix (a classifier head): the small
    # ones run on tfc's own row-vector kernel (blocks of 64 outputs, four rows
    # of the matrix per pass), the larger ones (k * n > 65536) on the BLAS;
    # both must agree with NumPy, also for a transposed row vector and a
    # half-precision one.
    for ta in (False, True):
        a = rand((k, 1) if ta else (1, k), np.float32)
        b = rand((k, n), np.float32)
        got = run(lambda x, y: tf.matmul(x, y, transpose_a=ta), a, b)
        want = (a.T if ta else a).astype(np.float64) @ b.astype(np.float64)
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4 * k)
    a16, b16 = rand((1, k), np.float16), rand((k, n), np.float16)
    got = run(tf.matmul, a16, b16)
    np.testing.assert_allclose(got.astype(np.float64),
                               a16.astype(np.float64) @ b16.astype(np.float64),
                               rtol=2e-2, atol=2e-2 * k)


def test_adjoint_and_operator():
    a, b = rand((4, 3), np.float32), rand((5, 4), np.float32)
    got = run(lambda x, y: tf.matmul(x, y, adjoint_a=True, adjoint_b=True), a, b)
    np.testing.assert_allclose(got, a.T @ b.T, rtol=1e-5, atol=1e-5)
    c = rand((3, 5), np.float32)
    got = run(lambda x, y: x @ y, a, c)
    np.testing.assert_allclose(got, a @ c, rtol=1e-5, atol=1e-5)


def test_empty_operands():
    got = run(lambda x, y: tf.matmul(x, y), np.zeros((2, 0), np.float32), np.zeros((0, 5), np.float32))
    np.testing.assert_array_equal(got, np.zeros((2, 5), np.float32))
    got = run(lambda x, y: tf.matmul(x, y), np.zeros((0, 3), np.float64), np.ones((3, 4), np.float64))
    assert got.shape == (0, 4)


@pytest.mark.parametrize("m,n,k", [(512, 512, 512), (1000, 37, 300), (37, 1000, 300), (1, 3000, 700)])
def test_big_products_split_across_threads(m, n, k):
    a, b = rand((m, k), np.float32), rand((k, n), np.float32)
    for threads in (1, 2, 4):
        cfg = tf.ConfigProto(intra_op_parallelism_threads=threads) if hasattr(tf, "ConfigProto") else None
        got = run(lambda x, y: tf.matmul(x, y), a, b, config=cfg)
        np.testing.assert_allclose(got, a.astype(np.float64) @ b, rtol=1e-4, atol=1e-3)


def test_int_matmul_wraps():
    a = np.array([[2**31 - 1, 1]], np.int32)
    b = np.array([[1], [1]], np.int32)
    assert run(lambda x, y: tf.matmul(x, y), a, b)[0, 0] == -2**31


@pytest.mark.parametrize("xs,ys,adj_x,adj_y", [
    ((2, 3, 4), (2, 4, 5), False, False),
    ((2, 1, 3, 4), (5, 4, 2), False, False),
    ((3, 4, 6), (4, 5), True, False),
    ((64, 8, 8), (64, 8, 8), True, True),
    ((2, 150, 130), (1, 120, 130), False, True),
])
def test_batch_matmul_broadcasts(xs, ys, adj_x, adj_y):
    x, y = rand(xs, np.float32), rand(ys, np.float32)
    got = run(lambda p, q: tf.matmul(p, q, adjoint_a=adj_x, adjoint_b=adj_y), x, y)
    xx = np.swapaxes(x, -1, -2) if adj_x else x
    yy = np.swapaxes(y, -1, -2) if adj_y else y
    want = np.matmul(xx.astype(np.float64), yy)
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-3)


def test_static_shapes_and_build_errors():
    with tf.Graph().as_default():
        a = tf.placeholder(tf.float32, [2, 3])
        b = tf.placeholder(tf.float32, [3, None])
        assert tf.matmul(a, b).shape.as_list() == [2, None]
        assert tf.matmul(a, a, transpose_b=True).shape.as_list() == [2, 2]
        c = tf.placeholder(tf.float32, [4, 5])
        with pytest.raises(ValueError, match=r"Dimensions must be equal, but are 3 and 4 for "
                                             r"'\{\{node MatMul(_\d+)?\}\} = MatMul\["):
            tf.matmul(a, c)
        x = tf.placeholder(tf.float32, [7, 2, 3])
        y = tf.placeholder(tf.float32, [1, 3, 6])
        assert tf.matmul(x, y).shape.as_list() == [7, 2, 6]


def test_run_time_size_mismatch():
    with tf.Graph().as_default():
        a = tf.placeholder(tf.float32, [None, None])
        b = tf.placeholder(tf.float32, [None, None])
        c = tf.matmul(a, b)
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError,
                               match=r"Matrix size-incompatible: In\[0\]: \[2,3\], In\[1\]: \[4,5\]"):
                sess.run(c, {a: np.zeros((2, 3)), b: np.zeros((4, 5))})


@pytest.mark.skipif(os.environ.get("TFC_PERF_TESTS") != "1", reason="set TFC_PERF_TESTS=1")
def test_matmul_throughput_vs_numpy():
    n = 2048
    a, b = rand((n, n), np.float32), rand((n, n), np.float32)

    def best(fn, reps=8):
        fn()
        t = 1e9
        for _ in range(reps):
            t0 = time.perf_counter()
            fn()
            t = min(t, time.perf_counter() - t0)
        return t

    with tf.Graph().as_default():
        pa = tf.placeholder(tf.float32, [n, n])
        pb = tf.placeholder(tf.float32, [n, n])
        c = tf.matmul(pa, pb)
        with tf.Session() as sess:
            t_tf = best(lambda: sess.run(c, {pa: a, pb: b}))
    time.sleep(0.3)  # NumPy's BLAS threads spin for a while after each call
    t_np = best(lambda: a @ b)
    assert t_np / t_tf >= 0.85, "tfc %.1f GFLOP/s vs NumPy %.1f" % (2 * n**3 / t_tf / 1e9,
                                                                    2 * n**3 / t_np / 1e9)
