"""Reductions and ArgMax/ArgMin through the public TF-1.x API (`import tfc as tf`),
compared with NumPy: every axis pattern, keepdims, negative and empty axis
lists, the deprecated spellings (reduction_indices, keep_dims), dtypes,
identities of empty reductions, integer-mean truncation, a 10M-element float
sum, static shape inference and TF's errors. API functions the package does
not provide yet are skipped, not failed.
"""

import itertools

import numpy as np
import pytest

tf = pytest.importorskip("tfc")
if not all(hasattr(tf, n) for n in ("Graph", "Session", "placeholder")):
    pytest.skip("the tfc package does not provide the graph/session API yet",
                allow_module_level=True)


# ---------------------------------------------------------------- helpers

def api(path):
    """tf.<path> (dotted), skipping the test when the package lacks it."""
    obj = tf
    for part in path.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            pytest.skip("tfc has no tf.%s yet" % path)
    return obj


def run(build, *arrays):
    """Builds build(*placeholders) in a fresh graph and runs it feeding arrays."""
    with tf.Graph().as_default():
        phs = [tf.placeholder(tf.as_dtype(a.dtype), shape=a.shape) for a in arrays]
        out = build(*phs)
        with tf.Session() as sess:
            return sess.run(out, feed_dict=dict(zip(phs, arrays)))


RNG = np.random.default_rng(4321)


def rand(shape, dtype):
    """Random data: small integers for integer types, normals for floats."""
    dt = np.dtype(dtype)
    if dt == np.bool_:
        return RNG.integers(0, 2, shape).astype(bool)
    if dt.kind == "f":
        return (RNG.standard_normal(shape) * 2).astype(dt)
    lo = 0 if dt.kind == "u" else -9
    return RNG.integers(lo, 10, shape).astype(dt)


def np_axis(axis):
    """NumPy's spelling of a TF axis argument (None, int or tuple)."""
    if axis is None or isinstance(axis, int):
        return axis
    return tuple(axis)


def np_reduce(name, x, axis, keepdims):
    """NumPy reference for tf.reduce_<name>, with TF's integer-mean truncation."""
    ax = np_axis(axis)
    if isinstance(ax, tuple) and len(ax) == 0:
        return x.copy()
    if name == "mean" and x.dtype.kind in "iu":
        s = np.sum(x.astype(np.int64), axis=ax, keepdims=keepdims)
        n = x.size // max(np.asarray(s).size, 1)
        return np.trunc(s / n).astype(x.dtype)
    fn = {"sum": np.sum, "mean": np.mean, "max": np.max, "min": np.min, "prod": np.prod,
          "all": np.all, "any": np.any}[name]
    out = fn(x, axis=ax, keepdims=keepdims)
    return np.asarray(out).astype(x.dtype) if x.dtype != np.bool_ else np.asarray(out)


AXES = [None, 0, 1, -1, 2, [0, 2], (1, 2), [-3, -1], [0, 1, 2], []]


# ---------------------------------------------------------------- values

@pytest.mark.parametrize("name", ["sum", "mean", "max", "min", "prod"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64])
def test_reduce_every_axis_pattern(name, dtype):
    fn = api("reduce_" + name)
    x = rand((3, 4, 5), dtype)
    if name == "prod":
        x = (np.abs(x) % 3 + 1).astype(dtype) if x.dtype.kind in "iu" else (x / 4 + 1).astype(dtype)
    for axis, keepdims in itertools.product(AXES, [False, True]):
        got = run(lambda t: fn(t, axis=axis, keepdims=keepdims), x)
        want = np_reduce(name, x, axis, keepdims)
        assert np.asarray(got).dtype == x.dtype
        assert np.shape(got) == np.shape(want), (axis, keepdims)
        rtol = 1e-5 if dtype == np.float32 else 1e-12
        np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol, err_msg=str((axis, keepdims)))


@pytest.mark.parametrize("name", ["all", "any"])
def test_reduce_all_any(name):
    fn = api("reduce_" + name)
    x = rand((4, 3, 2), np.bool_)
    for axis, keepdims in itertools.product(AXES, [False, True]):
        got = run(lambda t: fn(t, axis=axis, keepdims=keepdims), x)
        want = np_reduce(name, x, axis, keepdims)
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", [np.float16, np.int8, np.int16, np.uint8, np.uint16,
                                   np.uint32, np.uint64])
def test_reduce_other_dtypes(dtype):
    x = rand((6, 7), dtype)
    for name in ["sum", "max", "min", "mean"]:
        fn = api("reduce_" + name)
        got = run(lambda t: fn(t, axis=1), x)
        assert got.dtype == np.dtype(dtype)
        if dtype == np.float16:
            want = np_reduce(name, x.astype(np.float32), 1, False)
            np.testing.assert_allclose(got.astype(np.float32), want, rtol=2e-3, atol=2e-3)
        elif name == "sum":
            # TF sums in the element type: wraps around like NumPy's same-type sum.
            np.testing.assert_array_equal(got, np.sum(x, axis=1, dtype=dtype))
        else:
            np.testing.assert_array_equal(got, np_reduce(name, x, 1, False))


def test_deprecated_spellings_and_scalar_axis():
    x = rand((2, 3), np.float32)
    got = run(lambda t: tf.reduce_sum(t, reduction_indices=[1], keep_dims=True), x)
    np.testing.assert_allclose(got, x.sum(axis=1, keepdims=True), rtol=1e-6)
    got = run(lambda t: tf.reduce_max(t, 0), x)
    np.testing.assert_allclose(got, x.max(axis=0))
    got = run(lambda t: tf.reduce_mean(t), x)
    assert np.shape(got) == ()
    np.testing.assert_allclose(got, x.mean(), rtol=1e-6)


def test_integer_mean_truncates_toward_zero():
    got = run(lambda t: tf.reduce_mean(t), np.array([-1, -2], np.int32))
    assert got == -1 and got.dtype == np.int32
    got = run(lambda t: tf.reduce_mean(t, axis=1), np.array([[1, 2], [7, 7], [-3, -4]], np.int64))
    np.testing.assert_array_equal(got, [1, 7, -3])


@pytest.mark.parametrize("name,dtype,want", [
    ("sum", np.float32, 0.0), ("prod", np.int32, 1), ("max", np.float32, -np.inf),
    ("min", np.float64, np.inf), ("max", np.int32, np.iinfo(np.int32).min),
    ("min", np.uint8, 255), ("mean", np.float32, np.nan), ("all", np.bool_, True),
    ("any", np.bool_, False)])
def test_empty_reduction_identities(name, dtype, want):
    fn = api("reduce_" + name)
    x = np.zeros((0, 3), dtype)
    got = run(lambda t: fn(t, axis=0), x)
    assert got.shape == (3,)
    if isinstance(want, float) and np.isnan(want):
        assert np.isnan(got).all()
    else:
        np.testing.assert_array_equal(got, np.full(3, want, dtype))


def test_max_min_propagate_nan():
    x = np.arange(50, dtype=np.float32)
    x[17] = np.nan
    assert np.isnan(run(lambda t: tf.reduce_max(t), x))
    assert np.isnan(run(lambda t: tf.reduce_min(t), x))


def test_sum_of_10m_floats_matches_numpy():
    x = RNG.random(10_000_000, dtype=np.float32)
    got = run(lambda t: tf.reduce_sum(t), x)
    want = np.sum(x.astype(np.float64))
    assert abs(float(got) - want) <= 1e-5 * abs(want)
    assert abs(float(got) - float(np.sum(x))) <= 1e-5 * abs(want)
    got = run(lambda t: tf.reduce_mean(t), x)
    assert abs(float(got) - np.mean(x.astype(np.float64))) <= 1e-5


@pytest.mark.parametrize("shape,axis", [((4000, 2500), 0), ((4000, 2500), 1), ((3, 1_000_003), 1),
                                        ((1_000_003, 3), 0), ((50, 400, 60), (0, 2))])
def test_large_reductions_match_numpy(shape, axis):
    x = RNG.standard_normal(shape).astype(np.float32)
    s, m = run(lambda t: (tf.reduce_sum(t, axis=axis), tf.reduce_max(t, axis=axis)), x)
    np.testing.assert_allclose(s, x.astype(np.float64).sum(axis=axis), rtol=1e-4, atol=1e-3)
    np.testing.assert_array_equal(m, x.max(axis=axis))


# ---------------------------------------------------------------- shapes and errors

def test_static_shapes():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [2, 3, 4])
        assert tf.reduce_sum(x, axis=1).shape.as_list() == [2, 4]
        assert tf.reduce_sum(x, axis=[0, -1], keepdims=True).shape.as_list() == [1, 3, 1]
        assert tf.reduce_sum(x).shape.as_list() == []
        ax = tf.placeholder(tf.int32, [None])
        assert tf.reduce_sum(x, axis=ax, keepdims=True).shape.as_list() == [None, None, None]
        assert tf.reduce_sum(x, axis=ax).shape.ndims is None


def test_bad_axis_fails_at_build_time():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [2, 3])
        with pytest.raises(ValueError, match=r"Invalid reduction dimension 5 for input with 2 "
                                             r"dimensions\. for '\{\{node Sum\}\}"):
            tf.reduce_sum(x, axis=5)


def test_bad_axis_fails_at_run_time():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [2, 3])
        ax = tf.placeholder(tf.int32, [None])
        y = tf.reduce_sum(x, axis=ax)
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError,
                               match=r"Invalid reduction dimension \(5 for input with 2 dimension"):
                sess.run(y, {x: np.zeros((2, 3)), ax: [5]})
            with pytest.raises(tf.errors.InvalidArgumentError, match="duplicate dimension: 0"):
                sess.run(y, {x: np.zeros((2, 3)), ax: [0, -2]})


# ---------------------------------------------------------------- ArgMax / ArgMin

@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64, np.uint8,
                                   np.float16])
def test_argmax_argmin(dtype):
    x = rand((5, 6, 7), dtype)
    for axis in [0, 1, 2, -1]:
        amax, amin = run(lambda t: (tf.argmax(t, axis=axis), tf.argmin(t, axis=axis)), x)
        assert amax.dtype == np.int64
        np.testing.assert_array_equal(amax, np.argmax(x, axis=axis))
        np.testing.assert_array_equal(amin, np.argmin(x, axis=axis))


def test_argmax_output_type_and_dimension_kwarg():
    x = rand((4, 9), np.float32)
    got = run(lambda t: tf.argmax(t, dimension=1, output_type=tf.int32), x)
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got, np.argmax(x, axis=1))
    got = run(lambda t: tf.argmin(t), x)  # axis defaults to 0
    np.testing.assert_array_equal(got, np.argmin(x, axis=0))


def test_argmax_ties_and_nan_like_tf():
    got = run(lambda t: tf.argmax(t), np.array([1, 3, 3], np.float32))
    assert got == 1
    got = run(lambda t: tf.argmax(t), np.array([np.nan, 1, 2, np.nan], np.float32))
    assert got == 2  # TF: NaN never wins


def test_argmax_errors():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None])
        y = tf.argmax(x)
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError,
                               match=r"Reduction axis 0 is empty in shape \[0\]"):
                sess.run(y, {x: np.zeros((0,), np.float32)})
        z = tf.placeholder(tf.float32, [2, 3])
        with pytest.raises(ValueError, match=r"Dimension \(5\) must be in the range \[-2, 2\)"):
            tf.argmax(z, 5)
        assert tf.argmax(z, 1).shape.as_list() == [2]
