"""Convolution, pooling and fused batch-norm ops, built with Graph._add_op on
tfc._tfc and run in a Session, compared with NumPy reference implementations
written here: Conv2D and its two gradients (SAME/VALID/EXPLICIT padding,
strides, dilations, batch 1 and 3, 1 and 2 intra-op threads),
DepthwiseConv2dNative and its gradients, MaxPool/AvgPool and their
gradients (TF's tie rule for MaxPoolGrad), FusedBatchNorm(V2/V3) in training
and inference mode and its gradient; plus fixed values produced by
TensorFlow 2.21, static shapes, and TF's build-time and run-time errors.
Where the public package already offers tf.nn.conv2d / max_pool / ... the
same checks run through it too.
"""

import numpy as np
import pytest

tf = pytest.importorskip("tfc")
from tfc import _tfc  # noqa: E402

F32, F64, I32, HALF = 1, 2, 3, 19
ENUM = {np.dtype(np.float32): F32, np.dtype(np.float64): F64, np.dtype(np.int32): I32,
        np.dtype(np.float16): HALF}
RNG = np.random.default_rng(1234)

NEEDED = ["Conv2D", "Conv2DBackpropInput", "Conv2DBackpropFilter", "DepthwiseConv2dNative",
          "MaxPool", "AvgPool", "MaxPoolGrad", "AvgPoolGrad", "FusedBatchNormV3"]
if not all(o in _tfc.op_names() and _tfc.kernel_exists(o) for o in NEEDED):
    pytest.skip("conv ops are not registered", allow_module_level=True)


# ---------------------------------------------------------------- graph helpers

def build(op_type, arrays, attrs, consts=(), shapes=None):
    """A graph with a placeholder per array (Const for indices in consts; static
    shape from `shapes` when given there, else the array's) feeding op_type."""
    g = _tfc.Graph()
    ins, feed = [], {}
    for i, a in enumerate(arrays):
        a = np.asarray(a)
        if i in consts:
            t = g._add_op("Const", "c%d" % i, [], {"dtype": ENUM[a.dtype], "value": a},
                          None, None).outputs[0]
        else:
            shape = shapes[i] if shapes and i in shapes else a.shape
            t = g._add_op("Placeholder", "p%d" % i, [], {"dtype": ENUM[a.dtype], "shape": shape},
                          None, None).outputs[0]
            feed[t] = a
        ins.append(t)
    op = g._add_op(op_type, "op", ins, attrs, None, None)
    return g, op, feed


def run(op_type, arrays, attrs, consts=(), n_out=1, threads=1):
    """Runs op_type on arrays; returns its outputs (list when n_out > 1)."""
    g, op, feed = build(op_type, arrays, attrs, consts)
    s = _tfc.Session(g, intra_op_threads=threads)
    try:
        outs = s.run(list(op.outputs[:n_out]), feed)
    finally:
        s.close()
    for t, v in zip(op.outputs, outs):  # the static shape agrees with the result
        if t._shape is not None:
            assert len(t._shape) == np.ndim(v)
            assert all(d is None or d == e for d, e in zip(t._shape, np.shape(v))), (t._shape, np.shape(v))
    return outs if n_out > 1 else outs[0]


def conv_attrs(strides=(1, 1), padding="SAME", dilations=(1, 1), explicit=None):
    a = {"strides": [1, strides[0], strides[1], 1], "padding": padding,
         "dilations": [1, dilations[0], dilations[1], 1]}
    if explicit is not None:
        a["explicit_paddings"] = [0, 0, explicit[0], explicit[1], explicit[2], explicit[3], 0, 0]
    return a


def pool_attrs(ksize, strides, padding):
    return {"ksize": [1, ksize[0], ksize[1], 1], "strides": [1, strides[0], strides[1], 1],
            "padding": padding}


# ---------------------------------------------------------------- NumPy references

def pads_for(n, k, s, d, padding, explicit=None):
    """(out, before, after) of one dimension by TF's rule."""
    eff = (k - 1) * d + 1
    if padding == "SAME":
        out = (n + s - 1) // s
        need = max(0, (out - 1) * s + eff - n)
        return out, need // 2, need - need // 2
    b, a = explicit if padding == "EXPLICIT" else (0, 0)
    return (n + b + a - eff) // s + 1, b, a


def geometry(xshape, fshape, strides, padding, dilations, explicit):
    ex = explicit or (0, 0, 0, 0)
    oh, pt, pb = pads_for(xshape[1], fshape[0], strides[0], dilations[0], padding, ex[0:2])
    ow, pl, pr = pads_for(xshape[2], fshape[1], strides[1], dilations[1], padding, ex[2:4])
    return oh, ow, pt, pb, pl, pr


def tap(xp, kh, kw, oh, ow, strides, dilations):
    """The input pixels filter tap (kh, kw) sees for every output pixel."""
    r0, c0 = kh * dilations[0], kw * dilations[1]
    return xp[:, r0:r0 + (oh - 1) * strides[0] + 1:strides[0], c0:c0 + (ow - 1) * strides[1] + 1:strides[1], :]


def padded(x, pt, pb, pl, pr, value=0.0):
    return np.pad(x, ((0, 0), (pt, max(pb, 0)), (pl, max(pr, 0)), (0, 0)), constant_values=value)


def conv_ref(x, f, strides=(1, 1), padding="SAME", dilations=(1, 1), explicit=None):
    x, f = x.astype(np.float64), f.astype(np.float64)
    oh, ow, pt, pb, pl, pr = geometry(x.shape, f.shape, strides, padding, dilations, explicit)
    xp = padded(x, pt, pb, pl, pr)
    out = np.zeros((x.shape[0], oh, ow, f.shape[3]))
    for kh in range(f.shape[0]):
        for kw in range(f.shape[1]):
            out += np.tensordot(tap(xp, kh, kw, oh, ow, strides, dilations), f[kh, kw], axes=([3], [0]))
    return out


def conv_grads_ref(x, f, dy, strides=(1, 1), padding="SAME", dilations=(1, 1), explicit=None):
    x, f, dy = x.astype(np.float64), f.astype(np.float64), dy.astype(np.float64)
    oh, ow, pt, pb, pl, pr = geometry(x.shape, f.shape, strides, padding, dilations, explicit)
    xp = padded(x, pt, pb, pl, pr)
    dxp = np.zeros_like(xp)
    df = np.zeros_like(f)
    for kh in range(f.shape[0]):
        for kw in range(f.shape[1]):
            tap(dxp, kh, kw, oh, ow, strides, dilations)[...] += np.tensordot(dy, f[kh, kw], axes=([3], [1]))
            df[kh, kw] = np.tensordot(tap(xp, kh, kw, oh, ow, strides, dilations), dy,
                                      axes=([0, 1, 2], [0, 1, 2]))
    dx = dxp[:, pt:pt + x.shape[1], pl:pl + x.shape[2], :]
    return dx, df


def depthwise_ref(x, f, strides=(1, 1), padding="SAME", dilations=(1, 1)):
    x, f = x.astype(np.float64), f.astype(np.float64)
    oh, ow, pt, pb, pl, pr = geometry(x.shape, f.shape, strides, padding, dilations, None)
    xp = padded(x, pt, pb, pl, pr)
    c, m = f.shape[2], f.shape[3]
    out = np.zeros((x.shape[0], oh, ow, c, m))
    for kh in range(f.shape[0]):
        for kw in range(f.shape[1]):
            out += tap(xp, kh, kw, oh, ow, strides, dilations)[..., None] * f[kh, kw]
    return out.reshape(x.shape[0], oh, ow, c * m)


def pool_ref(x, ksize, strides, padding, kind):
    oh, ow, pt, pb, pl, pr = geometry(x.shape, ksize, strides, padding, (1, 1), None)
    x = x.astype(np.float64)
    if kind == "max":
        xp = padded(x, pt, pb, pl, pr, -np.inf)
        out = np.full((x.shape[0], oh, ow, x.shape[3]), -np.inf)
        for kh in range(ksize[0]):
            for kw in range(ksize[1]):
                out = np.maximum(out, tap(xp, kh, kw, oh, ow, strides, (1, 1)))
        return out
    xp, ones = padded(x, pt, pb, pl, pr), padded(np.ones_like(x), pt, pb, pl, pr)
    s = np.zeros((x.shape[0], oh, ow, x.shape[3]))
    n = np.zeros_like(s)
    for kh in range(ksize[0]):
        for kw in range(ksize[1]):
            s += tap(xp, kh, kw, oh, ow, strides, (1, 1))
            n += tap(ones, kh, kw, oh, ow, strides, (1, 1))
    return s / n


def window(i, k, s, pad, n):
    start = i * s - pad
    return max(start, 0), min(start + k, n)


def max_pool_grad_ref(x, dy, ksize, strides, padding):
    """TF's rule: the gradient goes to the first maximum of each window."""
    oh, ow, pt, _, pl, _ = geometry(x.shape, ksize, strides, padding, (1, 1), None)
    dx = np.zeros(x.shape)
    for n in range(x.shape[0]):
        for i in range(oh):
            h0, h1 = window(i, ksize[0], strides[0], pt, x.shape[1])
            for j in range(ow):
                w0, w1 = window(j, ksize[1], strides[1], pl, x.shape[2])
                win = x[n, h0:h1, w0:w1, :].reshape(-1, x.shape[3])
                k = np.argmax(win, axis=0)
                for c in range(x.shape[3]):
                    dx[n, h0 + k[c] // (w1 - w0), w0 + k[c] % (w1 - w0), c] += dy[n, i, j, c]
    return dx


def avg_pool_grad_ref(shape, dy, ksize, strides, padding):
    oh, ow, pt, _, pl, _ = geometry(shape, ksize, strides, padding, (1, 1), None)
    dx = np.zeros(shape)
    for i in range(oh):
        h0, h1 = window(i, ksize[0], strides[0], pt, shape[1])
        for j in range(ow):
            w0, w1 = window(j, ksize[1], strides[1], pl, shape[2])
            dx[:, h0:h1, w0:w1, :] += dy[:, i:i + 1, j:j + 1, :].astype(np.float64) / ((h1 - h0) * (w1 - w0))
    return dx


def rand(*shape, dtype=np.float32):
    return RNG.uniform(-1, 1, size=shape).astype(dtype)


def close(got, want, dtype):
    tol = {np.float16: 2e-2, np.float32: 1e-4, np.float64: 1e-10}[np.dtype(dtype).type]
    scale = 1 + np.abs(want).max() if np.size(want) else 1
    np.testing.assert_allclose(np.asarray(got, np.float64), want, atol=tol * scale, rtol=tol)


# ---------------------------------------------------------------- Conv2D

CONV_CASES = [
    # batch, h, w, cin, kh, kw, cout, strides, padding, dilations, explicit
    (1, 5, 5, 3, 3, 3, 4, (1, 1), "SAME", (1, 1), None),
    (3, 6, 7, 2, 3, 3, 5, (1, 1), "VALID", (1, 1), None),
    (3, 9, 8, 4, 3, 2, 6, (2, 2), "SAME", (1, 1), None),
    (1, 10, 9, 3, 5, 5, 2, (2, 2), "VALID", (1, 1), None),
    (3, 8, 8, 8, 1, 1, 16, (1, 1), "SAME", (1, 1), None),
    (1, 9, 9, 4, 1, 1, 3, (2, 2), "VALID", (1, 1), None),
    (3, 11, 10, 3, 3, 3, 4, (1, 1), "SAME", (2, 2), None),
    (1, 12, 12, 2, 3, 3, 3, (2, 1), "VALID", (2, 3), None),
    (3, 7, 6, 3, 3, 3, 4, (1, 2), "EXPLICIT", (1, 1), (1, 2, 0, 3)),
    (1, 30, 30, 16, 3, 3, 32, (1, 1), "SAME", (1, 1), None),
]


@pytest.mark.parametrize("case", CONV_CASES, ids=lambda c: "x".join(map(str, c[:7])) + c[8])
@pytest.mark.parametrize("threads", [1, 2])
def test_conv2d_and_gradients_match_numpy(case, threads):
    n, h, w, ci, kh, kw, co, strides, padding, dil, explicit = case
    x, f = rand(n, h, w, ci), rand(kh, kw, ci, co)
    attrs = conv_attrs(strides, padding, dil, explicit)
    y = run("Conv2D", [x, f], attrs, threads=threads)
    want = conv_ref(x, f, strides, padding, dil, explicit)
    assert y.shape == want.shape and y.dtype == np.float32
    close(y, want, np.float32)
    dy = rand(*want.shape)
    dx_want, df_want = conv_grads_ref(x, f, dy, strides, padding, dil, explicit)
    sizes = np.array(x.shape, np.int32)
    dx = run("Conv2DBackpropInput", [sizes, f, dy], attrs, consts=(0,), threads=threads)
    close(dx, dx_want, np.float32)
    df = run("Conv2DBackpropFilter", [x, np.array(f.shape, np.int32), dy], attrs, consts=(1,),
             threads=threads)
    close(df, df_want, np.float32)


@pytest.mark.parametrize("dtype", [np.float64, np.float16])
def test_conv2d_other_dtypes(dtype):
    x, f = rand(2, 7, 7, 3, dtype=dtype), rand(3, 3, 3, 5, dtype=dtype)
    y = run("Conv2D", [x, f], conv_attrs((2, 2), "SAME"))
    assert y.dtype == dtype
    close(y, conv_ref(x, f, (2, 2), "SAME"), dtype)
    dy = rand(*y.shape, dtype=dtype)
    dx_want, df_want = conv_grads_ref(x, f, dy, (2, 2), "SAME")
    dx = run("Conv2DBackpropInput", [np.array(x.shape, np.int32), f, dy], conv_attrs((2, 2)), consts=(0,))
    df = run("Conv2DBackpropFilter", [x, np.array(f.shape, np.int32), dy], conv_attrs((2, 2)), consts=(1,))
    close(dx, dx_want, dtype)
    close(df, df_want, dtype)


def test_conv2d_int32():
    x = RNG.integers(-5, 5, size=(2, 5, 5, 3)).astype(np.int32)
    f = RNG.integers(-3, 3, size=(3, 3, 3, 2)).astype(np.int32)
    y = run("Conv2D", [x, f], conv_attrs())
    assert y.dtype == np.int32
    np.testing.assert_array_equal(y, conv_ref(x, f).astype(np.int32))


def test_conv2d_fixed_values_from_tensorflow():
    x = np.arange(1, 10, dtype=np.float32).reshape(1, 3, 3, 1)
    f = np.array([1, 2, 3, 4], np.float32).reshape(2, 2, 1, 1)
    np.testing.assert_array_equal(run("Conv2D", [x, f], conv_attrs()).ravel(),
                                  [37, 47, 21, 67, 77, 33, 23, 26, 9])
    np.testing.assert_array_equal(run("Conv2D", [x, f], conv_attrs(padding="VALID")).ravel(),
                                  [37, 47, 67, 77])
    x2 = np.arange(1, 17, dtype=np.float32).reshape(1, 4, 4, 1)
    np.testing.assert_array_equal(
        run("Conv2D", [x2, np.ones((3, 3, 1, 1), np.float32)], conv_attrs((2, 2))).ravel(), [54, 45, 72, 54])
    g = np.array([1, 2, 3, 4], np.float32).reshape(1, 2, 2, 1)
    f3 = np.arange(1, 10, dtype=np.float32).reshape(3, 3, 1, 1)
    dx = run("Conv2DBackpropInput", [np.array([1, 4, 4, 1], np.int32), f3, g], conv_attrs((2, 2)), consts=(0,))
    np.testing.assert_array_equal(dx.ravel(), [1, 2, 5, 4, 4, 5, 14, 10, 10, 14, 36, 24, 12, 15, 34, 20])
    df = run("Conv2DBackpropFilter", [x2, np.array([3, 3, 1, 1], np.int32), g], conv_attrs((2, 2)),
             consts=(1,))
    np.testing.assert_array_equal(df.ravel(), [78, 88, 36, 118, 128, 52, 31, 34, 11])


def test_conv2d_static_shapes_and_build_errors():
    g = _tfc.Graph()
    x = g._add_op("Placeholder", "x", [], {"dtype": F32, "shape": (None, 224, 224, 3)}, None, None).outputs[0]
    f = g._add_op("Placeholder", "f", [], {"dtype": F32, "shape": (7, 7, 3, 64)}, None, None).outputs[0]
    y = g._add_op("Conv2D", "c", [x, f], conv_attrs((2, 2)), None, None).outputs[0]
    assert y._shape == (None, 112, 112, 64)
    y = g._add_op("Conv2D", "v", [x, f], conv_attrs((2, 2), "VALID"), None, None).outputs[0]
    assert y._shape == (None, 109, 109, 64)
    p = g._add_op("MaxPool", "p", [y], pool_attrs((3, 3), (2, 2), "SAME"), None, None).outputs[0]
    assert p._shape == (None, 55, 55, 64)
    small = g._add_op("Placeholder", "s", [], {"dtype": F32, "shape": (1, 2, 2, 3)}, None, None).outputs[0]
    with pytest.raises(ValueError, match="Negative dimension size caused by subtracting 7 from 2"):
        g._add_op("Conv2D", "bad", [small, f], conv_attrs(padding="VALID"), None, None)
    f2 = g._add_op("Placeholder", "f2", [], {"dtype": F32, "shape": (3, 3, 2, 4)}, None, None).outputs[0]
    with pytest.raises(ValueError, match=r"Depth of input \(3\) is not a multiple of input depth of filter \(2\)"):
        g._add_op("Conv2D", "bad2", [x, f2], conv_attrs(), None, None)
    with pytest.raises(ValueError, match="explicit_paddings attribute must contain 8 values"):
        g._add_op("Conv2D", "bad3", [x, f], dict(conv_attrs(padding="EXPLICIT"), explicit_paddings=[1, 1]),
                  None, None)
    with pytest.raises(ValueError):
        g._add_op("Conv2D", "bad4", [x, f], dict(conv_attrs(), padding="FULL"), None, None)


def test_conv2d_runtime_errors():
    x, f = rand(1, 5, 5, 3), rand(3, 3, 3, 2)
    with pytest.raises(tf.errors.UnimplementedError, match="only supports the NHWC tensor format"):
        run("Conv2D", [rand(1, 3, 5, 5), f], dict(conv_attrs(), data_format="NCHW"))
    with pytest.raises(tf.errors.UnimplementedError, match="strides in the batch and depth"):
        run("Conv2D", [x, f], dict(conv_attrs(), strides=[2, 1, 1, 1]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Size of out_backprop doesn't match"):
        run("Conv2DBackpropInput", [np.array([1, 5, 5, 3], np.int32), f, rand(1, 4, 4, 2)], conv_attrs())


# ---------------------------------------------------------------- depthwise

@pytest.mark.parametrize("case", [
    (1, 6, 6, 3, 3, 3, 1, (1, 1), "SAME"),
    (3, 7, 8, 4, 3, 3, 2, (2, 2), "SAME"),
    (2, 9, 9, 2, 5, 3, 3, (1, 1), "VALID"),
    (3, 8, 8, 5, 3, 3, 1, (2, 2), "VALID"),
])
@pytest.mark.parametrize("threads", [1, 2])
def test_depthwise_and_gradients_match_numpy(case, threads):
    n, h, w, c, kh, kw, m, strides, padding = case
    x, f = rand(n, h, w, c), rand(kh, kw, c, m)
    attrs = conv_attrs(strides, padding)
    y = run("DepthwiseConv2dNative", [x, f], attrs, threads=threads)
    want = depthwise_ref(x, f, strides, padding)
    close(y, want, np.float32)
    # The gradients are the adjoints: check <dy, y> = <dx, x> = <df, f> and
    # compare with the dense convolution that has a block-diagonal filter.
    dense = np.zeros((kh, kw, c, c * m), np.float32)
    for ch in range(c):
        dense[:, :, ch, ch * m:(ch + 1) * m] = f[:, :, ch, :]
    dy = rand(*want.shape)
    dx_want, ddense = conv_grads_ref(x, dense, dy, strides, padding)
    df_want = np.stack([ddense[:, :, ch, ch * m:(ch + 1) * m] for ch in range(c)], axis=2)
    dx = run("DepthwiseConv2dNativeBackpropInput", [np.array(x.shape, np.int32), f, dy], attrs, consts=(0,),
             threads=threads)
    df = run("DepthwiseConv2dNativeBackpropFilter", [x, np.array(f.shape, np.int32), dy], attrs, consts=(1,),
             threads=threads)
    close(dx, dx_want, np.float32)
    close(df, df_want, np.float32)


def test_depthwise_fixed_values_from_tensorflow():
    x = np.arange(1, 19, dtype=np.float32).reshape(1, 3, 3, 2)
    f = (np.arange(1, 17, dtype=np.float32) / 10).reshape(2, 2, 2, 2)
    want = [19.6, 21.6, 27.2, 29.6, 25.2, 28, 34.4, 37.6, 10.4, 12, 15, 16.8, 36.4, 40.8, 48.8, 53.6, 42,
            47.2, 56, 61.6, 16.4, 19.2, 23.4, 26.4, 8.8, 11.6, 15.4, 18.4, 10, 13.2, 17.4, 20.8, 1.7, 3.4,
            5.4, 7.2]
    np.testing.assert_allclose(run("DepthwiseConv2dNative", [x, f], conv_attrs()).ravel(), want, rtol=1e-5)


# ---------------------------------------------------------------- pooling

POOL_CASES = [
    (1, 4, 4, 1, (2, 2), (2, 2), "VALID"),
    (3, 7, 7, 3, (3, 3), (2, 2), "SAME"),
    (3, 8, 9, 5, (2, 3), (1, 2), "VALID"),
    (1, 9, 9, 70, (3, 3), (1, 1), "SAME"),
    (3, 5, 6, 2, (5, 5), (3, 3), "SAME"),
]


@pytest.mark.parametrize("case", POOL_CASES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
@pytest.mark.parametrize("threads", [1, 2])
def test_pools_and_gradients_match_numpy(case, dtype, threads):
    n, h, w, c, ksize, strides, padding = case
    x = rand(n, h, w, c, dtype=dtype)
    attrs = pool_attrs(ksize, strides, padding)
    mx = run("MaxPool", [x], attrs, threads=threads)
    assert mx.dtype == dtype
    close(mx, pool_ref(x, ksize, strides, padding, "max"), dtype)
    av = run("AvgPool", [x], attrs, threads=threads)
    close(av, pool_ref(x, ksize, strides, padding, "avg"), dtype)
    dy = rand(*mx.shape, dtype=dtype)
    g = run("MaxPoolGrad", [x, mx, dy], attrs, threads=threads)
    close(g, max_pool_grad_ref(x, dy, ksize, strides, padding), dtype)
    g = run("AvgPoolGrad", [np.array(x.shape, np.int32), dy], attrs, consts=(0,), threads=threads)
    close(g, avg_pool_grad_ref(x.shape, dy, ksize, strides, padding), dtype)


def test_max_pool_v2_and_integers():
    x = RNG.integers(-100, 100, size=(2, 6, 6, 3)).astype(np.int32)
    want = pool_ref(x, (2, 2), (2, 2), "SAME", "max").astype(np.int32)
    y = run("MaxPoolV2", [x, np.array([1, 2, 2, 1], np.int32), np.array([1, 2, 2, 1], np.int32)],
            {"padding": "SAME"}, consts=(1, 2))
    np.testing.assert_array_equal(y, want)
    np.testing.assert_array_equal(run("MaxPool", [x], pool_attrs((2, 2), (2, 2), "SAME")), want)


def test_pool_fixed_values_from_tensorflow():
    x = np.arange(1, 17, dtype=np.float32).reshape(1, 4, 4, 1)
    attrs = pool_attrs((3, 3), (2, 2), "SAME")
    np.testing.assert_array_equal(run("MaxPool", [x], attrs).ravel(), [11, 12, 15, 16])
    np.testing.assert_array_equal(run("AvgPool", [x], attrs).ravel(), [6, 7.5, 12, 13.5])
    g = run("AvgPoolGrad", [np.array([1, 4, 4, 1], np.int32), np.array([1, 2, 3, 4], np.float32).reshape(1, 2, 2, 1)],
            attrs, consts=(0,))
    np.testing.assert_allclose(g.ravel(), [1 / 9, 1 / 9, 4 / 9, 1 / 3, 1 / 9, 1 / 9, 4 / 9, 1 / 3, 0.6111111,
                                           0.6111111, 1.9444444, 1.3333334, 0.5, 0.5, 1.5, 1], rtol=1e-6)
    # Ties and NaNs in MaxPoolGrad follow TF: first maximum, a leading NaN stays.
    xn = np.array([1, np.nan, 3, 2, 5, np.nan, 0, 1, 1], np.float32).reshape(1, 3, 3, 1)
    a2 = pool_attrs((2, 2), (1, 1), "VALID")
    np.testing.assert_array_equal(run("MaxPool", [xn], a2).ravel(), [5, 5, 5, 5])
    grad = np.arange(1, 5, dtype=np.float32).reshape(1, 2, 2, 1)
    out = np.ones((1, 2, 2, 1), np.float32)
    np.testing.assert_array_equal(run("MaxPoolGrad", [xn, out, grad], a2).ravel(), [0, 2, 0, 0, 8, 0, 0, 0, 0])
    np.testing.assert_array_equal(run("MaxPoolGrad", [np.ones((1, 3, 3, 1), np.float32), out, grad], a2).ravel(),
                                  [1, 2, 0, 3, 4, 0, 0, 0, 0])


def test_pool_errors():
    x = rand(1, 4, 4, 2)
    with pytest.raises(tf.errors.UnimplementedError, match="Pooling is not yet supported on the batch"):
        run("MaxPool", [x], dict(pool_attrs((2, 2), (1, 1), "SAME"), ksize=[2, 2, 2, 1]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Default MaxPoolingOp only supports NHWC"):
        run("MaxPool", [x], dict(pool_attrs((1, 1), (1, 1), "SAME"), ksize=[1, 1, 2, 2], data_format="NCHW"))
    with pytest.raises(ValueError, match="Negative dimension size caused by subtracting 5 from 4"):
        build("AvgPool", [x], pool_attrs((5, 5), (1, 1), "VALID"))


# ---------------------------------------------------------------- fused batch norm

def bn_ref(x, scale, offset, mean, var, eps, training, factor, nchw=False):
    xx = np.moveaxis(x, 1, -1) if nchw else x
    xx = xx.astype(np.float64)
    axes = tuple(range(xx.ndim - 1))
    if training:
        m, v = xx.mean(axes), xx.var(axes)
        n = xx.size // xx.shape[-1]
        bv = v * n / max(n - 1, 1)
        bm_out = (1 - factor) * mean + factor * m if factor != 1 else m
        bv_out = (1 - factor) * var + factor * bv if factor != 1 else bv
    else:
        m, v, bm_out, bv_out = mean, var, mean, var
    y = (xx - m) / np.sqrt(v + eps) * scale + offset
    if nchw:
        y = np.moveaxis(y, -1, 1)
    return y, bm_out, bv_out, m, v


@pytest.mark.parametrize("op", ["FusedBatchNorm", "FusedBatchNormV2", "FusedBatchNormV3"])
@pytest.mark.parametrize("training,factor", [(True, 1.0), (True, 0.3), (False, 1.0)])
@pytest.mark.parametrize("fmt", ["NHWC", "NCHW"])
@pytest.mark.parametrize("threads", [1, 2])
def test_fused_batch_norm_matches_numpy(op, training, factor, fmt, threads):
    c = 5
    x = rand(3, c, 6, 7) if fmt == "NCHW" else rand(3, 6, 7, c)
    x = x * 3 + 1
    scale, offset, mean = rand(c), rand(c), rand(c)
    var = RNG.uniform(0.5, 2, c).astype(np.float32)
    attrs = {"epsilon": 0.001, "is_training": training, "data_format": fmt}
    if factor != 1.0:
        attrs["exponential_avg_factor"] = factor
    n_out = 6 if op.endswith("V3") else 5
    outs = run(op, [x, scale, offset, mean, var], attrs, n_out=n_out, threads=threads)
    y, bm, bv, m, v = bn_ref(x, scale, offset, mean, var, 0.001, training, factor, fmt == "NCHW")
    close(outs[0], y, np.float32)
    close(outs[1], bm, np.float32)
    close(outs[2], bv, np.float32)
    close(outs[3], m, np.float32)
    close(outs[4], v, np.float32)
    if n_out == 6:
        assert outs[5].shape == ()


def test_fused_batch_norm_half_input():
    x = rand(2, 4, 4, 3, dtype=np.float16)
    s, o = np.ones(3, np.float32), np.zeros(3, np.float32)
    outs = run("FusedBatchNormV3", [x, s, o, s, s], {"epsilon": 0.001}, n_out=3)
    assert outs[0].dtype == np.float16 and outs[1].dtype == np.float32
    y, bm, bv, _, _ = bn_ref(x, s, o, s, s, 0.001, True, 1.0)
    close(outs[0], y, np.float16)
    close(outs[1], bm, np.float32)


def test_fused_batch_norm_fixed_values_from_tensorflow():
    x = ((np.arange(24, dtype=np.float32).reshape(2, 2, 2, 3) ** 1.5) / 7).astype(np.float32)
    scale, offset = np.array([1, 2, 0.5], np.float32), np.array([0.1, -0.2, 0.3], np.float32)
    mean, var = np.array([1, 2, 3], np.float32), np.array([4, 5, 6], np.float32)
    outs = run("FusedBatchNormV3", [x, scale, offset, mean, var],
               {"epsilon": 0.001, "exponential_avg_factor": 0.25}, n_out=6)
    np.testing.assert_allclose(outs[1], [2.1748157, 3.0893903, 4.0149193], rtol=1e-5)
    np.testing.assert_allclose(outs[2], [9.148117, 10.575011, 11.980392], rtol=1e-5)
    np.testing.assert_allclose(outs[4], [21.51841, 23.887539, 26.181374], rtol=1e-5)
    dy = np.cos(np.arange(24, dtype=np.float32)).reshape(2, 2, 2, 3)
    g = run("FusedBatchNormGradV3", [dy, x, scale, outs[3], outs[4], outs[5]], {"epsilon": 0.001}, n_out=5)
    np.testing.assert_allclose(g[1], [-1.1448905, -1.3371481, -0.2515514], rtol=1e-5)
    np.testing.assert_allclose(g[2], [0.25580102, -0.2599795, -0.5367361], rtol=1e-5)
    np.testing.assert_allclose(g[0].ravel()[:6], [0.17077343, 0.14742322, -0.03810478, -0.2532692,
                                                  -0.32714534, 0.03099418], atol=1e-6)
    assert g[3].shape == (0,) and g[4].shape == (0,)


@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("fmt", ["NHWC", "NCHW"])
def test_fused_batch_norm_grad_matches_numpy(training, fmt):
    c = 4
    x = rand(2, c, 5, 3) if fmt == "NCHW" else rand(2, 5, 3, c)
    dy = rand(*x.shape)
    scale = rand(c)
    mean, var = rand(c), RNG.uniform(0.5, 2, c).astype(np.float32)
    if training:  # the reserve spaces are the batch statistics
        xl = np.moveaxis(x, 1, -1) if fmt == "NCHW" else x
        mean = xl.mean((0, 1, 2)).astype(np.float32)
        var = xl.var((0, 1, 2)).astype(np.float32)
    eps = 0.001
    g = run("FusedBatchNormGradV2", [dy, x, scale, mean, var],
            {"epsilon": eps, "is_training": training, "data_format": fmt}, n_out=3)
    xl, dl = (np.moveaxis(a, 1, -1) if fmt == "NCHW" else a for a in (x, dy))
    xl, dl = xl.astype(np.float64), dl.astype(np.float64)
    inv = 1 / np.sqrt(var.astype(np.float64) + eps)
    xc = xl - mean
    if training:
        dx = scale * inv * (dl - dl.mean((0, 1, 2)) - xc * (dl * xc).mean((0, 1, 2)) * inv ** 2)
    else:
        dx = dl * scale * inv
    if fmt == "NCHW":
        dx = np.moveaxis(dx, -1, 1)
    close(g[0], dx, np.float32)
    close(g[1], (dl * xc).sum((0, 1, 2)) * inv, np.float32)
    close(g[2], dl.sum((0, 1, 2)), np.float32)


def test_fused_batch_norm_errors():
    x, v = rand(2, 3, 3, 4), np.ones(4, np.float32)
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 4 and 3"):
        build("FusedBatchNormV3", [x, np.ones(3, np.float32), v, v, v], {})
    empty = np.ones(0, np.float32)
    g, op, feed = build("FusedBatchNormV3", [x, v, v, empty, v], {"is_training": False}, shapes={3: None})
    s = _tfc.Session(g)
    try:
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="When is_training=false, mean must have the same number of elements"):
            s.run(op.outputs[0], feed)
    finally:
        s.close()


# ---------------------------------------------------------------- the public API, when present

def api(path):
    obj = tf
    for part in path.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            pytest.skip("tfc has no tf.%s yet" % path)
    return obj


def test_public_api_conv_and_pool():
    conv2d, max_pool, avg_pool = api("nn.conv2d"), api("nn.max_pool"), api("nn.avg_pool")
    x, f = rand(2, 9, 9, 3), rand(3, 3, 3, 4)
    with tf.Graph().as_default():
        xp = tf.placeholder(tf.float32, shape=x.shape)
        y = conv2d(xp, f, strides=[1, 2, 2, 1], padding="SAME")
        m = max_pool(y, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="VALID")
        a = avg_pool(y, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="SAME")
        with tf.Session() as sess:
            yv, mv, av = sess.run([y, m, a], {xp: x})
    want = conv_ref(x, f, (2, 2), "SAME")
    close(yv, want, np.float32)
    close(mv, pool_ref(want, (2, 2), (2, 2), "VALID", "max"), np.float32)
    close(av, pool_ref(want, (2, 2), (2, 2), "SAME", "avg"), np.float32)
