"""Constant Pad / PadV2 on plain data, which writes every output element once
in memory order: every rank, which dims are padded (the first, the last,
inner ones, only some), element sizes 1 to 16 bytes, zero and non-zero pad
values, one and two threads, against NumPy's np.pad; and the NHWC pattern
of image networks (spatial padding before a strided convolution)."""
import itertools

import numpy as np
import pytest

import tfc as tf

DTYPES = [np.float32, np.float64, np.int8, np.int16, np.int32, np.int64, np.uint8, np.bool_,
          np.complex64, np.complex128, np.float16]


def _rand(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    if dtype == np.bool_:
        return rng.integers(0, 2, shape).astype(bool)
    if np.issubdtype(dtype, np.complexfloating):
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    return (rng.standard_normal(shape) * 50).astype(dtype)


def _pad(x, pads, threads, value=None, pad_dtype=np.int32):
    g = tf.Graph()
    with g.as_default():
        xp = tf.placeholder(tf.as_dtype(x.dtype), [None] * x.ndim)
        p = tf.constant(np.array(pads, pad_dtype))
        y = tf.pad(xp, p) if value is None else tf.pad(xp, p, constant_values=value)
    cfg = tf.ConfigProto(intra_op_parallelism_threads=threads, inter_op_parallelism_threads=1)
    with tf.Session(graph=g, config=cfg) as s:
        return s.run(y, {xp: x})


CASES = []
for rank in range(1, 6):
    for k, padded in enumerate(itertools.product([False, True], repeat=rank)):
        if any(padded) and k % (1 + rank // 3) == 0:
            CASES.append((rank, padded))


@pytest.mark.parametrize("i", range(len(CASES)))
def test_pad_matches_numpy(i):
    rank, padded = CASES[i]
    rng = np.random.default_rng(i)
    shape = tuple(int(v) for v in rng.integers(1, 6, rank))
    pads = [[int(rng.integers(0, 3)), int(rng.integers(1, 3))] if p else [0, 0] for p in padded]
    dtype = DTYPES[i % len(DTYPES)]
    x = _rand(shape, dtype, i)
    for threads in (1, 2):
        got = _pad(x, pads, threads, pad_dtype=np.int64 if i % 2 else np.int32)
        np.testing.assert_array_equal(got, np.pad(x, pads))
        assert got.dtype == x.dtype
        if dtype != np.bool_:
            value = dtype(7) if not np.issubdtype(dtype, np.complexfloating) else dtype(7 - 2j)
            got = _pad(x, pads, threads, value=value)
            np.testing.assert_array_equal(got, np.pad(x, pads, constant_values=value))


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("batch", [1, 3])
def test_pad_image_spatial(threads, batch):
    x = _rand((batch, 37, 29, 24), np.float32, 5)
    for pads in ([[0, 0], [0, 1], [0, 1], [0, 0]], [[0, 0], [3, 3], [2, 4], [0, 0]],
                 [[1, 0], [0, 0], [0, 0], [0, 2]]):
        np.testing.assert_array_equal(_pad(x, pads, threads), np.pad(x, pads))
        np.testing.assert_array_equal(_pad(x, pads, threads, value=-1.5),
                                      np.pad(x, pads, constant_values=-1.5))


def test_pad_empty_input_and_zero_pads():
    x = np.zeros((0, 3), np.float32)
    np.testing.assert_array_equal(_pad(x, [[1, 1], [0, 2]], 1), np.pad(x, [[1, 1], [0, 2]]))
    x = _rand((2, 3), np.float32, 1)
    np.testing.assert_array_equal(_pad(x, [[0, 0], [0, 0]], 2), x)


def test_pad_errors():
    x = _rand((2, 3), np.float32, 1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="non-negative"):
        g = tf.Graph()
        with g.as_default():
            xp = tf.placeholder(tf.float32, [None, None])
            pp = tf.placeholder(tf.int32, [2, 2])
            y = tf.pad(xp, pp)
        with tf.Session(graph=g) as s:
            s.run(y, {xp: x, pp: np.array([[0, 1], [-1, 0]], np.int32)})
