"""Array ops through the TF 1.x public API, compared with NumPy.

Covers the array family (Const, Placeholder*, Identity*, Reshape, Squeeze,
ExpandDims, Shape/Size/Rank, Transpose, Concat/Pack/Unpack/Split, Slice,
StridedSlice via __getitem__, Tile, Pad/MirrorPad, Gather, OneHot, Fill,
Range, Where, BroadcastTo, Reverse, InvertPermutation, Unique): values,
static shapes inferred at build time, dtypes (bool, strings, half, complex)
and TF's error messages.

The tests use only TF 1.x names, so they can also be pointed at real
TensorFlow as an oracle: TFC_TEST_AGAINST_TF=1 runs them with
tensorflow.compat.v1 (graph mode).
"""

import os

import numpy as np
import pytest

if os.environ.get("TFC_TEST_AGAINST_TF"):
    import tensorflow.compat.v1 as tf

    tf.disable_eager_execution()
else:
    import tfc as tf

    if not hasattr(tf, "Session") or not hasattr(tf, "placeholder"):
        pytest.skip("the tfc package does not provide the TF 1.x API yet", allow_module_level=True)


def run(fetches, feed_dict=None):
    with tf.Session() as sess:
        return sess.run(fetches, feed_dict=feed_dict)


def static(t):
    """The static shape as a list (None for unknown dims) or None for unknown rank."""
    s = t.get_shape()
    return None if s.ndims is None else s.as_list()


@pytest.fixture(autouse=True)
def fresh_graph():
    with tf.Graph().as_default():
        yield


DTYPES = [
    (np.float32, tf.float32),
    (np.float64, tf.float64),
    (np.int32, tf.int32),
    (np.int64, tf.int64),
    (np.uint8, tf.uint8),
    (np.int8, tf.int8),
    (np.int16, tf.int16),
    (np.float16, tf.float16),
    (np.complex64, tf.complex64),
    (np.bool_, tf.bool),
]


def sample(shape, np_dtype, seed=0):
    rng = np.random.RandomState(seed)
    n = int(np.prod(shape))
    if np_dtype is np.bool_:
        return rng.rand(n).reshape(shape) > 0.5
    if np_dtype is object:
        return np.array([("s%d" % i).encode() for i in range(n)], dtype=object).reshape(shape)
    if np.issubdtype(np_dtype, np.complexfloating):
        return (rng.randn(n) + 1j * rng.randn(n)).astype(np_dtype).reshape(shape)
    return (rng.randn(n) * 50).astype(np_dtype).reshape(shape)


def assert_same(got, want):
    want = np.asarray(want)
    got = np.asarray(got)
    assert got.shape == want.shape, (got.shape, want.shape)
    if want.dtype == object:
        assert [bytes(v) for v in got.ravel()] == [bytes(v) for v in want.ravel()]
    else:
        np.testing.assert_array_equal(got, want)


# ---------------------------------------------------------------- constants, identities, shapes


def test_constant_and_identity_family():
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    c = tf.constant(x)
    outs = [tf.identity(c), tf.stop_gradient(c), tf.placeholder_with_default(c, [None, 3])]
    assert static(outs[2]) == [None, 3]
    for v in run(outs):
        assert_same(v, x)


def test_identity_n():
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    a, b = tf.identity_n([tf.constant(x), tf.constant([b"s", b"t"])])
    assert static(a) == [2, 3] and static(b) == [2]
    va, vb = run([a, b])
    assert_same(va, x)
    assert list(vb) == [b"s", b"t"]


def test_placeholder_must_be_fed():
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        run(x)
    assert "You must feed a value for placeholder tensor 'x' with dtype float and shape [?,3]" in str(e.value)
    y = tf.placeholder(tf.int32, name="y")
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        run(y)
    assert "You must feed a value for placeholder tensor 'y' with dtype int32" in str(e.value)


def test_placeholder_with_default_is_overridable():
    d = tf.placeholder_with_default(tf.constant([1.0, 2.0]), shape=[None])
    assert_same(run(d), [1.0, 2.0])
    assert_same(run(d, {d: np.array([5.0, 6.0, 7.0], np.float32)}), [5.0, 6.0, 7.0])
    with pytest.raises(ValueError):
        tf.placeholder_with_default(tf.constant([[1.0, 2.0]]), shape=[3, 3])


def test_shape_size_rank():
    x = tf.placeholder(tf.float32, [None, 3, 4])
    s, s64, n, r = tf.shape(x), tf.shape(x, out_type=tf.int64), tf.size(x), tf.rank(x)
    assert static(s) == [3]
    feed = {x: np.zeros((2, 3, 4), np.float32)}
    vs, vs64, vn, vr = run([s, s64, n, r], feed)
    assert_same(vs, np.array([2, 3, 4], np.int32))
    assert vs64.dtype == np.int64
    assert vn == 24 and vr == 3
    a, b = tf.shape_n([x, tf.constant([1.0, 2.0])])
    va, vb = run([a, b], feed)
    assert_same(va, [2, 3, 4])
    assert_same(vb, [2])


# ---------------------------------------------------------------- reshape family


def test_reshape_values_and_static_shapes():
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    c = tf.constant(x)
    for shape in ([4, 6], [-1, 2], [2, -1, 3], [24], [1, 24, 1]):
        y = tf.reshape(c, shape)
        want = x.reshape(shape)
        assert static(y) == list(want.shape)
        assert_same(run(y), want)
    p = tf.placeholder(tf.float32, [None, 4])
    assert static(tf.reshape(p, [-1, 2, 2])) == [None, 2, 2]
    assert static(tf.reshape(p, [2, -1])) == [2, None]


def test_reshape_errors():
    with pytest.raises(ValueError, match=r"Cannot reshape a tensor with 6 elements to shape \[2,2\] \(4 elements\)"):
        tf.reshape(tf.constant(np.zeros((2, 3), np.float32)), [2, 2])
    p = tf.placeholder(tf.float32)
    y = tf.reshape(p, [2, 2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input to reshape is a tensor with 6 values, but the requested shape has 4"):
        run(y, {p: np.zeros((2, 3), np.float32)})
    z = tf.reshape(p, [4, -1])
    with pytest.raises(tf.errors.InvalidArgumentError, match="requires a multiple of 4"):
        run(z, {p: np.zeros((2, 3), np.float32)})


def test_squeeze_expand_dims():
    x = np.zeros((1, 2, 1, 3), np.int32)
    c = tf.constant(x)
    assert static(tf.squeeze(c)) == [2, 3]
    assert static(tf.squeeze(c, [2])) == [1, 2, 3]
    assert static(tf.squeeze(c, [-4, 2])) == [2, 3]
    assert_same(run(tf.squeeze(c, [0])), x.squeeze(0))
    with pytest.raises(ValueError, match=r"Can not squeeze dim\[1\], expected a dimension of 1, got 2"):
        tf.squeeze(c, [1])
    assert static(tf.expand_dims(c, -1)) == [1, 2, 1, 3, 1]
    assert static(tf.expand_dims(c, 0)) == [1, 1, 2, 1, 3]
    assert_same(run(tf.expand_dims(tf.constant([1, 2]), 1)), [[1], [2]])
    p = tf.placeholder(tf.float32, [None, 1, None])
    assert static(tf.squeeze(p)) is None
    assert static(tf.squeeze(p, [1])) == [None, None]


# ---------------------------------------------------------------- transpose


@pytest.mark.parametrize("np_dtype,tf_dtype", DTYPES + [(object, tf.string)])
def test_transpose_dtypes(np_dtype, tf_dtype):
    x = sample((3, 4, 5), np_dtype)
    c = tf.constant(x, dtype=tf_dtype)
    for perm in ([2, 0, 1], [1, 0, 2], [0, 2, 1], [2, 1, 0]):
        y = tf.transpose(c, perm)
        assert static(y) == list(np.transpose(x, perm).shape)
        assert_same(run(y), np.transpose(x, perm))


def test_transpose_large_and_default_perm():
    x = np.random.RandomState(1).randn(257, 131).astype(np.float32)
    assert_same(run(tf.transpose(tf.constant(x))), x.T)
    y = np.random.RandomState(2).randn(4, 1, 33, 65).astype(np.float32)
    assert_same(run(tf.transpose(tf.constant(y), [3, 1, 0, 2])), np.transpose(y, [3, 1, 0, 2]))
    p = tf.placeholder(tf.float32, [None, 7])
    assert static(tf.transpose(p)) == [7, None]


def test_invert_permutation():
    assert_same(run(tf.invert_permutation([2, 0, 3, 1])), [1, 3, 0, 2])
    p = tf.placeholder(tf.int32)
    with pytest.raises(tf.errors.InvalidArgumentError, match="0 is duplicated in the input."):
        run(tf.invert_permutation(p), {p: [0, 0, 1]})


# ---------------------------------------------------------------- concat / stack / split


@pytest.mark.parametrize("np_dtype,tf_dtype", [(np.float32, tf.float32), (np.bool_, tf.bool), (object, tf.string), (np.int64, tf.int64)])
def test_concat_stack_unstack(np_dtype, tf_dtype):
    a, b = sample((2, 3), np_dtype, 1), sample((2, 5), np_dtype, 2)
    ca, cb = tf.constant(a, dtype=tf_dtype), tf.constant(b, dtype=tf_dtype)
    y = tf.concat([ca, cb], 1)
    assert static(y) == [2, 8]
    assert_same(run(y), np.concatenate([a, b], 1))
    assert_same(run(tf.concat([ca, ca], -2)), np.concatenate([a, a], 0))
    s = tf.stack([ca, ca, ca], axis=1)
    assert static(s) == [2, 3, 3]
    assert_same(run(s), np.stack([a, a, a], 1))
    parts = tf.unstack(cb, axis=1)
    assert len(parts) == 5
    for k, v in enumerate(run(parts)):
        assert_same(v, b[:, k])


def test_concat_shapes_and_errors():
    p = tf.placeholder(tf.float32, [None, 3])
    q = tf.placeholder(tf.float32, [2, None])
    assert static(tf.concat([p, q], 0)) == [None, 3]
    assert static(tf.concat([p, q], 1)) == [2, None]
    with pytest.raises(ValueError, match="Dimension 0 in both shapes must be equal"):
        tf.concat([tf.constant(np.zeros((2, 3))), tf.constant(np.zeros((3, 3)))], 1)
    a, b = tf.placeholder(tf.float32), tf.placeholder(tf.float32)
    with pytest.raises(tf.errors.InvalidArgumentError, match="ConcatOp : "):
        run(tf.concat([a, b], 0), {a: np.zeros((2, 3), np.float32), b: np.zeros((2, 4), np.float32)})
    empty = tf.concat([tf.constant(np.zeros((0, 3), np.float32)), tf.constant(np.ones((2, 3), np.float32))], 0)
    assert_same(run(empty), np.ones((2, 3), np.float32))


def test_split():
    x = np.arange(60, dtype=np.float32).reshape(3, 20)
    c = tf.constant(x)
    parts = tf.split(c, 4, axis=1)
    assert [static(t) for t in parts] == [[3, 5]] * 4
    for got, want in zip(run(parts), np.split(x, 4, axis=1)):
        assert_same(got, want)
    parts = tf.split(c, [3, -1, 10], axis=-1)
    assert [static(t) for t in parts] == [[3, 3], [3, 7], [3, 10]]
    for got, want in zip(run(parts), np.split(x, [3, 10], axis=1)):
        assert_same(got, want)
    with pytest.raises(ValueError, match="Dimension size must be evenly divisible by 3 but is 20"):
        tf.split(c, 3, axis=1)
    strs = tf.split(tf.constant([b"a", b"b", b"c", b"d"]), 2)
    assert [list(v) for v in run(strs)] == [[b"a", b"b"], [b"c", b"d"]]


# ---------------------------------------------------------------- slicing


def test_slice():
    x = np.arange(60).reshape(3, 4, 5).astype(np.int32)
    c = tf.constant(x)
    y = tf.slice(c, [1, 0, 2], [2, -1, 2])
    assert static(y) == [2, 4, 2]
    assert_same(run(y), x[1:3, :, 2:4])
    p = tf.placeholder(tf.int32)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Expected size\[1\] in \[0, 3\], but got 5"):
        run(tf.slice(p, [1, 1], [1, 5]), {p: np.zeros((2, 4), np.int32)})


INDEXES = [
    (slice(1, 3),),
    (slice(None, None, -1),),
    (Ellipsis, 0),
    (1, slice(None), -1),
    (slice(None), None, slice(2, None, 2)),
    (-1,),
    (slice(-2, None), Ellipsis, slice(None, None, -2)),
    (None, Ellipsis, None),
    (slice(5, 0, -2), slice(1, -1)),
    (slice(10, 20),),
    (0, 0, 0),
    (Ellipsis,),
    (slice(None, None, 3), 2, None),
]


@pytest.mark.parametrize("idx", INDEXES, ids=[str(i) for i in range(len(INDEXES))])
def test_getitem_matches_numpy(idx):
    x = np.arange(6 * 4 * 5, dtype=np.float32).reshape(6, 4, 5)
    tf_idx = tuple(tf.newaxis if i is None else i for i in idx)
    y = tf.constant(x)[tf_idx]
    want = x[idx]
    assert static(y) == list(want.shape)
    assert_same(run(y), want)


def test_strided_slice_random_specs_match_numpy():
    rng = np.random.RandomState(7)
    x = np.arange(5 * 6 * 7, dtype=np.int32).reshape(5, 6, 7)
    c = tf.constant(x)
    specs = []
    for _ in range(40):
        idx = []
        for d in x.shape:
            kind = rng.randint(4)
            if kind == 0:
                idx.append(int(rng.randint(-d, d)))
            elif kind == 1:
                idx.append(slice(None))
            else:
                b, e = rng.randint(-d - 2, d + 2, size=2)
                s = int(rng.choice([-3, -2, -1, 1, 2, 3]))
                idx.append(slice(int(b), int(e), s))
        specs.append(tuple(idx))
    ys = [c[s] for s in specs]
    for s, y in zip(specs, ys):
        assert static(y) == list(x[s].shape), s
    for s, v in zip(specs, run(ys)):
        assert_same(v, x[s])


def test_strided_slice_partial_shapes_and_errors():
    p = tf.placeholder(tf.float32, [None, 5, 6])
    assert static(p[:, 1:4, ::2]) == [None, 3, 3]
    assert static(p[0]) == [5, 6]
    assert static(p[..., tf.newaxis, -1]) == [None, 5, 1]
    with pytest.raises(ValueError, match="slice index 7 of dimension 1 out of bounds."):
        p[:, 7]
    q = tf.placeholder(tf.float32)
    with pytest.raises(tf.errors.InvalidArgumentError, match="slice index 3 of dimension 0 out of bounds."):
        run(q[3], {q: np.zeros(3, np.float32)})


def test_strided_slice_strings_and_bools():
    s = np.array([[b"a", b"b", b"c"], [b"d", b"e", b"f"]], dtype=object)
    assert [bytes(v) for v in run(tf.constant(s)[:, ::-1]).ravel()] == [b"c", b"b", b"a", b"f", b"e", b"d"]
    b = np.array([True, False, True, True])
    assert_same(run(tf.constant(b)[1::2]), b[1::2])


# ---------------------------------------------------------------- tile / pad / broadcast


def test_tile():
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    y = tf.tile(tf.constant(x), [3, 2])
    assert static(y) == [6, 6]
    assert_same(run(y), np.tile(x, [3, 2]))
    p = tf.placeholder(tf.float32, [None, 3])
    assert static(tf.tile(p, [2, 2])) == [None, 6]
    assert [bytes(v) for v in run(tf.tile(tf.constant([b"x", b"y"]), [2]))] == [b"x", b"y", b"x", b"y"]


def test_broadcast_to():
    b = tf.broadcast_to(tf.constant([[1.0], [2.0]]), [3, 2, 4])
    assert static(b) == [3, 2, 4]
    assert_same(run(b), np.broadcast_to(np.array([[1.0], [2.0]], np.float32), (3, 2, 4)))
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 2 and 4"):
        tf.broadcast_to(tf.constant(np.zeros((2, 3), np.float32)), [4, 3])


@pytest.mark.parametrize("mode", ["CONSTANT", "REFLECT", "SYMMETRIC"])
def test_pad_modes(mode):
    x = np.arange(3 * 4 * 5, dtype=np.float32).reshape(3, 4, 5)
    pads = [[1, 2], [0, 3], [2, 2]]
    y = tf.pad(tf.constant(x), pads, mode=mode)
    assert static(y) == [6, 7, 9]
    want = np.pad(x, pads, mode={"CONSTANT": "constant", "REFLECT": "reflect", "SYMMETRIC": "symmetric"}[mode])
    assert_same(run(y), want)


def test_pad_constant_values_and_strings():
    x = np.array([[1, 2], [3, 4]], np.int32)
    assert_same(run(tf.pad(tf.constant(x), [[1, 0], [0, 1]], constant_values=9)),
                np.pad(x, [[1, 0], [0, 1]], constant_values=9))
    s = run(tf.pad(tf.constant([[b"a", b"b"]]), [[1, 0], [0, 1]]))
    assert [bytes(v) for v in s.ravel()] == [b"", b"", b"", b"a", b"b", b""]
    with pytest.raises(ValueError, match="Paddings must be non-negative"):
        tf.pad(tf.constant(x), [[1, 1], [-1, 2]])


# ---------------------------------------------------------------- gather / one_hot


def test_gather():
    params = np.arange(2 * 5 * 3, dtype=np.float32).reshape(2, 5, 3)
    c = tf.constant(params)
    idx = np.array([[4, 0], [1, 1]], np.int32)
    y = tf.gather(c, idx, axis=1)
    assert static(y) == [2, 2, 2, 3]
    assert_same(run(y), np.take(params, idx, axis=1))
    assert_same(run(tf.gather(c, [1, 0])), params[[1, 0]])
    assert_same(run(tf.gather(c, 2, axis=-1)), params[..., 2])
    bd = tf.gather(c, [[4, 0], [1, 2]], axis=1, batch_dims=1)
    assert static(bd) == [2, 2, 3]
    assert_same(run(bd), np.stack([params[0][[4, 0]], params[1][[1, 2]]]))
    strs = tf.gather(tf.constant([b"a", b"b", b"c"]), [2, 2, 0])
    assert [bytes(v) for v in run(strs)] == [b"c", b"c", b"a"]
    p = tf.placeholder(tf.int32)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[1\] = 7 is not in \[0, 5\)"):
        run(tf.gather(tf.constant(np.arange(5.0)), p), {p: [1, 7]})


def test_one_hot():
    idx = np.array([[0, 2], [5, -1]])
    y = tf.one_hot(idx, 3)
    assert static(y) == [2, 2, 3]
    want = (idx[..., None] == np.arange(3)).astype(np.float32)
    assert_same(run(y), want)
    y0 = tf.one_hot([1, 0], 3, on_value=5, off_value=-1, axis=0)
    assert_same(run(y0), np.array([[-1, 5], [5, -1], [-1, -1]], np.int32))


# ---------------------------------------------------------------- fill / range / where / unique / reverse


def test_fill_and_range():
    f = tf.fill([2, 3], 7.5)
    assert static(f) == [2, 3]
    assert_same(run(f), np.full((2, 3), 7.5, np.float32))
    assert [bytes(v) for v in run(tf.fill([2], "ab"))] == [b"ab", b"ab"]
    for args in [(5,), (2, 11, 3), (10, 0, -3), (0, 0)]:
        r = tf.range(*args)
        want = np.arange(*args, dtype=np.int32)
        assert static(r) == [len(want)]
        assert_same(run(r), want)
    rf = tf.range(0.0, 1.0, 0.1)
    assert static(rf) == [10]
    np.testing.assert_allclose(run(rf), np.arange(0, 1, 0.1, dtype=np.float32), rtol=1e-6)
    with pytest.raises(ValueError, match="Requires start <= limit when delta > 0: 5/1"):
        tf.range(5, 1, 1)


def test_where_coordinates():
    cond = np.array([[True, False, True], [False, False, True]])
    w = tf.where(tf.constant(cond))
    assert static(w) == [None, 2]
    out = run(w)
    assert out.dtype == np.int64
    assert_same(out, np.argwhere(cond))
    f = np.array([0.0, 1.5, 0.0, -2.0], np.float32)
    assert_same(run(tf.where(tf.constant(f != 0))), np.argwhere(f != 0))


def test_unique():
    y, idx = tf.unique(tf.constant([4, 1, 4, 2, 1, 9]))
    assert static(y) == [None] and static(idx) == [6]
    vy, vidx = run([y, idx])
    assert_same(vy, [4, 1, 2, 9])
    assert_same(vidx, [0, 1, 0, 2, 1, 3])
    ys, _ = tf.unique(tf.constant([b"b", b"a", b"b"]))
    assert list(run(ys)) == [b"b", b"a"]


def test_reverse():
    x = np.arange(24).reshape(2, 3, 4).astype(np.int64)
    assert_same(run(tf.reverse(tf.constant(x), [0, -1])), x[::-1, :, ::-1])
    with pytest.raises(ValueError, match="specified more than once"):
        tf.reverse(tf.constant(x), [1, -2])


# ---------------------------------------------------------------- empty tensors and feeds


def test_empty_tensors():
    e = np.zeros((0, 3), np.float32)
    p = tf.placeholder(tf.float32, [None, 3])
    outs = [tf.transpose(p), tf.tile(p, [2, 2]), tf.pad(p, [[1, 1], [0, 0]]), p[:, 1:],
            tf.reshape(p, [-1, 3, 1]), tf.concat([p, p], 0), tf.gather(p, tf.constant([], tf.int32))]
    got = run(outs, {p: e})
    assert got[0].shape == (3, 0)
    assert got[1].shape == (0, 6)
    assert_same(got[2], np.zeros((2, 3), np.float32))
    assert got[3].shape == (0, 2)
    assert got[4].shape == (0, 3, 1)
    assert got[5].shape == (0, 3)
    assert got[6].shape == (0, 3)
