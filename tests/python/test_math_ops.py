"""Elementwise math through the public TF-1.x API (`import tfc as tf`),
compared with NumPy over shapes and dtypes: broadcasting binary ops,
comparisons, logical ops, unary math, operator overloads, tf.cast, tf.where,
tf.add_n, zeros_like/ones_like, clip_by_value, and TF's errors (integer
division by zero, incompatible shapes). API functions the package does not
provide yet are skipped, not failed.
"""

import functools
import operator

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


RNG = np.random.default_rng(1234)


def rand(shape, dtype, positive=False, nonzero=False):
    """Random test data of a dtype: small integers, normal floats, random bools."""
    dt = np.dtype(dtype)
    if dt == np.bool_:
        return RNG.integers(0, 2, shape).astype(bool)
    if dt.kind == "f":
        a = RNG.standard_normal(shape) * 3
        if positive:
            a = np.abs(a) + 0.1
        return np.asarray(a).astype(dt)
    lo = 0 if (positive or dt.kind == "u") else -50
    a = np.asarray(RNG.integers(lo, 51, shape))
    if nonzero or positive:
        a[a == 0] = 1
    return a.astype(dt)


def tol(dtype):
    return {np.dtype(np.float16): 2e-3, np.dtype(np.float32): 1e-5,
            np.dtype(np.float64): 1e-12}.get(np.dtype(dtype), 0)


def assert_close(got, want, dtype):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    if want.dtype.kind == "f":
        np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64),
                                   rtol=tol(dtype), atol=tol(dtype), equal_nan=True)
    else:
        np.testing.assert_array_equal(got, want)


def trunc_div(x, y):
    """C-style integer division (toward zero)."""
    q = np.abs(x.astype(np.int64)) // np.abs(y.astype(np.int64))
    return (q * np.sign(x.astype(np.int64)) * np.sign(y.astype(np.int64))).astype(x.dtype)


SHAPES = [((), ()), ((5,), ()), ((), (5,)), ((2, 3), (3,)), ((2, 1, 4), (3, 1)),
          ((0, 3), (3,)), ((3, 1), (1, 4)), ((4, 5, 6), (4, 5, 6)), ((200, 300), (300,))]
FLOATS = [np.float32, np.float64, np.float16]
INTS = [np.int32, np.int64, np.int8, np.int16, np.uint8]


# ---------------------------------------------------------------- binary ops

ARITH = [
    ("add", np.add, FLOATS + INTS),
    ("subtract", np.subtract, FLOATS + INTS),
    ("multiply", np.multiply, FLOATS + INTS),
    ("maximum", np.maximum, FLOATS + INTS),
    ("minimum", np.minimum, FLOATS + INTS),
    ("floordiv", None, [np.float32, np.float64] + INTS),
    ("floormod", np.mod, [np.float32, np.float64, np.int32, np.int64]),
    ("truncatediv", None, [np.float32, np.int32, np.int64]),
    ("truncatemod", np.fmod, [np.float32, np.float64, np.int32, np.int64]),
    ("realdiv", np.divide, FLOATS),
    ("squared_difference", lambda a, b: (a - b) ** 2, [np.float32, np.float64, np.int32, np.int64]),
    ("pow", None, [np.float32, np.float64, np.int32, np.int64]),
]


@pytest.mark.parametrize("shapes", SHAPES, ids=str)
@pytest.mark.parametrize("name,ref,dtypes", ARITH, ids=[a[0] for a in ARITH])
def test_binary_arithmetic(name, ref, dtypes, shapes):
    fn = api(name)
    for dt in dtypes:
        x = rand(shapes[0], dt)
        y = rand(shapes[1], dt, nonzero=True)
        if name == "pow":
            x = np.abs(x) % 5 + (0.5 if np.dtype(dt).kind == "f" else 0)
            x = x.astype(dt)
            y = (np.abs(y) % 4).astype(dt)
            ref = np.power
        if name == "floordiv":  # TF floors the rounded quotient (NumPy uses divmod)
            ref = np.floor_divide if np.dtype(dt).kind != "f" else (lambda a, b: np.floor(a / b))
        if name == "truncatediv":
            ref = trunc_div if np.dtype(dt).kind != "f" else (lambda a, b: np.trunc(a / b))
        with np.errstate(all="ignore"):
            want = np.asarray(ref(x, y)).astype(dt)
        got = run(fn, x, y)
        assert_close(got, want, dt)


@pytest.mark.parametrize("dt", INTS)
def test_integer_division_truncates_and_floors(dt):
    x = np.array([7, -7, 7, -7, 0], dt) if np.dtype(dt).kind == "i" else np.array([7, 9, 200], dt)
    y = np.array([2, 2, -2, -2, 3], dt) if np.dtype(dt).kind == "i" else np.array([2, 4, 7], dt)
    assert_close(run(api("truncatediv"), x, y), trunc_div(x, y), dt)
    assert_close(run(api("floordiv"), x, y), np.floor_divide(x, y), dt)
    assert_close(run(api("div"), x, y), np.floor_divide(x, y), dt)  # Python 2 semantics
    if dt in (np.int32, np.int64):
        assert_close(run(api("floormod"), x, y), np.mod(x, y), dt)


@pytest.mark.parametrize("name", ["div", "floordiv", "floormod", "truncatediv", "truncatemod"])
def test_integer_division_by_zero(name):
    fn = api(name)
    x, y = np.array([1, 2], np.int32), np.array([1, 0], np.int32)
    if name.startswith("truncate"):  # TF has no message of its own for these two
        with pytest.raises(tf.errors.InternalError, match="Unexpected error in binary operator"):
            run(fn, x, y)
        return
    with pytest.raises(tf.errors.InvalidArgumentError, match="Integer division by zero"):
        run(fn, x, y)


def test_integer_negative_power_is_an_error():
    with pytest.raises(tf.errors.InvalidArgumentError, match="negative integer powers"):
        run(api("pow"), np.array([2, 3], np.int32), np.array([1, -1], np.int32))


def test_incompatible_shapes_fail_at_build_time():
    with tf.Graph().as_default():
        a = tf.placeholder(tf.float32, shape=(2,))
        b = tf.placeholder(tf.float32, shape=(3,))
        with pytest.raises(ValueError, match="Dimensions must be equal"):
            tf.add(a, b)


def test_incompatible_shapes_fail_at_run_time():
    with tf.Graph().as_default():
        a = tf.placeholder(tf.float32, shape=None)
        b = tf.placeholder(tf.float32, shape=None)
        c = tf.add(a, b)
        with tf.Session() as sess:
            msg = r"Incompatible shapes: \[2\] vs. \[3\]"
            with pytest.raises(tf.errors.InvalidArgumentError, match=msg):
                sess.run(c, {a: np.zeros(2, np.float32), b: np.zeros(3, np.float32)})


def test_float_division_by_zero_and_div_no_nan():
    x = np.array([1, -1, 0], np.float32)
    y = np.zeros(3, np.float32)
    got = run(api("realdiv"), x, y)
    assert np.isposinf(got[0]) and np.isneginf(got[1]) and np.isnan(got[2])
    assert_close(run(api("div_no_nan"), x, y), np.zeros(3, np.float32), np.float32)


def test_nan_propagates_through_maximum_minimum():
    x = np.array([np.nan, 1, 3], np.float32)
    y = np.array([1, np.nan, 2], np.float32)
    assert_close(run(api("maximum"), x, y), np.maximum(x, y), np.float32)
    assert_close(run(api("minimum"), x, y), np.minimum(x, y), np.float32)


def test_string_add_concatenates():
    got = run(api("add"), np.array([b"ab", b""], object), np.array(b"c", object))
    assert list(got) == [b"abc", b"c"]


# ---------------------------------------------------------------- comparisons / logical

COMPARE = [("equal", np.equal), ("not_equal", np.not_equal), ("less", np.less),
           ("less_equal", np.less_equal), ("greater", np.greater),
           ("greater_equal", np.greater_equal)]


@pytest.mark.parametrize("shapes", SHAPES[:7], ids=str)
@pytest.mark.parametrize("name,ref", COMPARE, ids=[c[0] for c in COMPARE])
def test_comparisons(name, ref, shapes):
    fn = api(name)
    for dt in FLOATS + INTS:
        x, y = rand(shapes[0], dt), rand(shapes[1], dt)
        if np.dtype(dt).kind == "f":
            x, y = np.round(x).astype(dt), np.round(y).astype(dt)  # make ties likely
        assert_close(run(fn, x, y), ref(x, y), np.bool_)


def test_equal_on_bool_and_strings():
    a, b = np.array([True, False]), np.array(True)
    assert_close(run(api("equal"), a, b), np.array([True, False]), np.bool_)
    s = run(api("equal"), np.array([b"a", b"b"], object), np.array(b"a", object))
    assert list(s) == [True, False]


@pytest.mark.parametrize("name,ref", [("logical_and", np.logical_and),
                                      ("logical_or", np.logical_or),
                                      ("logical_xor", np.logical_xor)])
def test_logical_binary(name, ref):
    x, y = rand((3, 4), np.bool_), rand((4,), np.bool_)
    assert_close(run(api(name), x, y), ref(x, y), np.bool_)


def test_logical_not():
    x = rand((3, 4), np.bool_)
    assert_close(run(api("logical_not"), x), ~x, np.bool_)


# ---------------------------------------------------------------- unary ops

def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


UNARY = [
    ("negative", np.negative, FLOATS + [np.int32, np.int64, np.int8], False),
    ("abs", np.abs, FLOATS + [np.int32, np.int64], False),
    ("square", np.square, FLOATS + INTS, False),
    ("sqrt", np.sqrt, FLOATS, True),
    ("rsqrt", lambda a: 1 / np.sqrt(a), FLOATS, True),
    ("exp", np.exp, FLOATS, False),
    ("math.expm1", np.expm1, FLOATS, False),
    ("log", np.log, FLOATS, True),
    ("log1p", np.log1p, FLOATS, True),
    ("tanh", np.tanh, FLOATS, False),
    ("sigmoid", _sigmoid, FLOATS, False),
    ("sign", np.sign, FLOATS + [np.int32, np.int64], False),
    ("reciprocal", np.reciprocal, FLOATS, True),
    ("floor", np.floor, FLOATS, False),
    ("ceil", np.ceil, FLOATS, False),
    ("round", np.round, FLOATS + [np.int32, np.int64], False),
    ("sin", np.sin, FLOATS, False),
    ("cos", np.cos, FLOATS, False),
]


@pytest.mark.parametrize("shape", [(), (0,), (7,), (3, 4), (100003,)], ids=str)
@pytest.mark.parametrize("name,ref,dtypes,positive", UNARY, ids=[u[0] for u in UNARY])
def test_unary(name, ref, dtypes, positive, shape):
    fn = api(name)
    for dt in dtypes:
        x = rand(shape, dt, positive=positive)
        if name == "round" and np.dtype(dt).kind == "f":
            x = (np.round(x * 2) / 2).astype(dt)  # exact halves: banker's rounding
        with np.errstate(all="ignore"):
            want = np.asarray(ref(x)).astype(dt)
        assert_close(run(fn, x), want, dt)


def test_round_is_half_to_even():
    x = np.array([0.5, 1.5, 2.5, -0.5, -1.5, 2.4, -2.6], np.float32)
    assert_close(run(api("round"), x), np.array([0, 2, 2, -0.0, -2, 2, -3], np.float32), np.float32)


@pytest.mark.parametrize("name,ref", [("is_nan", np.isnan), ("is_inf", np.isinf),
                                      ("is_finite", np.isfinite)])
def test_float_predicates(name, ref):
    for dt in FLOATS:
        x = np.array([np.nan, np.inf, -np.inf, 0, -2.5], dt)
        assert_close(run(api(name), x), ref(x), np.bool_)


# ---------------------------------------------------------------- operator overloads

BINARY_OPERATORS = [operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv,
                    operator.mod, operator.lt, operator.le, operator.gt, operator.ge]


@pytest.mark.parametrize("op", BINARY_OPERATORS, ids=lambda o: o.__name__)
@pytest.mark.parametrize("dt", [np.float32, np.float64, np.int32, np.int64])
def test_operator_overloads(op, dt):
    x = rand((4, 3), dt)
    y = rand((3,), dt, nonzero=True)
    with np.errstate(all="ignore"):
        want = op(x, y)
        if op is operator.floordiv and np.dtype(dt).kind == "f":
            want = np.floor(x / y)  # TF floors the rounded quotient
    got = run(op, x, y)
    # TF 1.x: int32 / int32 is float64, int64 / int64 is float64 (like NumPy).
    assert_close(got, want, want.dtype)


def test_overloads_with_python_scalars_and_unary():
    x = rand((5,), np.float32)
    assert_close(run(lambda a: a * 2 + 1, x), (x * 2 + 1).astype(np.float32), np.float32)
    assert_close(run(lambda a: 1 - a, x), (1 - x).astype(np.float32), np.float32)
    assert_close(run(lambda a: -a, x), -x, np.float32)
    assert_close(run(abs, x), np.abs(x), np.float32)
    assert_close(run(lambda a: a ** 2, x), (x ** 2).astype(np.float32), np.float32)
    b, c = rand((5,), np.bool_), rand((5,), np.bool_)
    assert_close(run(lambda p, q: p & q, b, c), b & c, np.bool_)
    assert_close(run(lambda p, q: p | q, b, c), b | c, np.bool_)
    assert_close(run(lambda p, q: p ^ q, b, c), b ^ c, np.bool_)
    assert_close(run(lambda p: ~p, b), ~b, np.bool_)


# ---------------------------------------------------------------- cast

CAST_TYPES = [np.float32, np.float64, np.float16, np.int8, np.int16, np.int32, np.int64,
              np.uint8, np.uint16, np.bool_]


@pytest.mark.parametrize("src", CAST_TYPES, ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("dst", CAST_TYPES, ids=lambda t: np.dtype(t).name)
def test_cast_matrix(src, dst):
    x = rand((40,), src, positive=True)
    if np.dtype(src).kind == "f":
        x = np.round(x * 10).astype(src)
    got = run(lambda a: api("cast")(a, tf.as_dtype(np.dtype(dst))), x)
    assert_close(got, x.astype(dst), dst)


def test_cast_float_to_int_truncates_toward_zero():
    x = np.array([-1.7, -0.5, 0.5, 1.7, 2.9], np.float32)
    got = run(lambda a: api("cast")(a, tf.int32), x)
    assert_close(got, np.array([-1, 0, 0, 1, 2], np.int32), np.int32)
    got = run(lambda a: api("cast")(a, tf.bool), np.array([0, -0.0, 0.1, np.nan], np.float32))
    assert_close(got, np.array([False, False, True, True]), np.bool_)


def test_cast_half_round_trip():
    x = np.linspace(-70000, 70000, 1001).astype(np.float32)
    h = run(lambda a: api("cast")(a, tf.float16), x)
    with np.errstate(over="ignore"):  # beyond 65504 becomes inf, as in TF
        assert_close(h, x.astype(np.float16), np.float16)
    back = run(lambda a: api("cast")(a, tf.float32), h)
    assert_close(back, h.astype(np.float32), np.float32)


# ---------------------------------------------------------------- where, add_n, fills, clip

@pytest.mark.parametrize("dt", [np.float32, np.int64, np.float16, np.bool_])
def test_where_select(dt):
    c = rand((4, 5), np.bool_)
    t, e = rand((4, 5), dt), rand((4, 5), dt)
    assert_close(run(api("where"), c, t, e), np.where(c, t, e), dt)
    cv = rand((4,), np.bool_)  # TF1 Select: a vector condition picks rows
    assert_close(run(api("where"), cv, t, e), np.where(cv[:, None], t, e), dt)


def test_where_v2_broadcasts():
    fn = api("where_v2")
    c, t, e = rand((3, 1, 5), np.bool_), rand((4, 1), np.float32), rand((), np.float32)
    assert_close(run(fn, c, t, e), np.where(c, t, e), np.float32)


@pytest.mark.parametrize("dt", [np.float32, np.float64, np.int32, np.float16])
@pytest.mark.parametrize("n", [1, 2, 3, 5])
def test_add_n(dt, n):
    xs = [rand((6, 7), dt) for _ in range(n)]
    want = functools.reduce(lambda a, b: (a + b).astype(dt), xs)
    assert_close(run(lambda *ps: api("add_n")(list(ps)), *xs), want, dt)


@pytest.mark.parametrize("dt", [np.float32, np.float16, np.int64, np.uint8, np.bool_])
def test_zeros_like_ones_like(dt):
    x = rand((3, 2), dt)
    assert_close(run(api("zeros_like"), x), np.zeros_like(x), dt)
    assert_close(run(api("ones_like"), x), np.ones_like(x), dt)


def test_clip_by_value():
    t = rand((6, 7), np.float32)
    got = run(lambda a: api("clip_by_value")(a, -1.0, 2.0), t)
    assert_close(got, np.clip(t, -1, 2), np.float32)
    lo, hi = np.float32(-0.5), rand((6, 7), np.float32)
    got = run(lambda a, b, c: api("clip_by_value")(a, b, c), t, np.asarray(lo), hi)
    assert_close(got, np.maximum(np.minimum(t, hi), lo), np.float32)


def test_large_broadcast_with_intra_op_threads():
    x, y = rand((512, 1024), np.float32), rand((1024,), np.float32)
    with tf.Graph().as_default():
        a = tf.placeholder(tf.float32, shape=x.shape)
        b = tf.placeholder(tf.float32, shape=y.shape)
        c = a * b + a
        config = None
        if hasattr(tf, "ConfigProto"):
            config = tf.ConfigProto(intra_op_parallelism_threads=2)
        with tf.Session(config=config) as sess:
            got = sess.run(c, {a: x, b: y})
    assert_close(got, x * y + x, np.float32)
