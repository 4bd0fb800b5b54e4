"""The plan folds a constant spatial Pad into the VALID convolution it feeds
(EXPLICIT padding on the convolution, the Pad dropped), as image networks pad
before strided convolutions. Results match the unfused plan (TFC_FUSION=0)
and NumPy; the Pad disappears from the step's trace only where folding is
sound (not when it pads the batch or channels, is fetched, feeds two ops, or
the convolution pads itself)."""
import numpy as np
import pytest

import tfc as tf

from test_conv_ops import close, conv_ref, depthwise_ref


def _rand(*shape, seed=0):
    return np.random.default_rng(seed + sum(shape)).uniform(-1, 1, shape).astype(np.float32)


def _run(monkeypatch, fusion, g, fetches, feeds, threads=1):
    """Runs fetches with fusion on or off; returns (values, names of executed nodes)."""
    monkeypatch.setenv("TFC_FUSION", "1" if fusion else "0")
    cfg = tf.ConfigProto(intra_op_parallelism_threads=threads, inter_op_parallelism_threads=1)
    with tf.Session(graph=g, config=cfg) as s:
        md = tf.RunMetadata()
        out = s.run(fetches, feeds, options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE),
                    run_metadata=md)
    names = {n.node_name for d in md.step_stats.dev_stats for n in d.node_stats}
    return out, names


PADS = [[0, 0], [0, 1], [0, 1], [0, 0]], [[0, 0], [1, 1], [2, 1], [0, 0]], [[0, 0], [3, 3], [3, 3], [0, 0]]


@pytest.mark.parametrize("kind", ["conv", "depthwise"])
@pytest.mark.parametrize("tail", ["none", "bias_relu6"])
@pytest.mark.parametrize("p", range(len(PADS)))
def test_folded_pad_matches(monkeypatch, kind, tail, p):
    pads = PADS[p]
    stride = 2 if p != 1 else 1
    cin = 16 if p == 2 else 5
    g = tf.Graph()
    fshape = (3, 3, cin, 7) if kind == "conv" else (3, 3, cin, 2)
    wval, bval = _rand(*fshape), _rand(fshape[3] if kind == "conv" else cin * 2, seed=1)
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 11, 12, cin])
        xp = tf.pad(x, pads, name="pad")
        strides = [1, stride, stride, 1]
        if kind == "conv":
            y = tf.nn.conv2d(xp, tf.constant(wval), strides, "VALID", name="conv")
        else:
            y = tf.nn.depthwise_conv2d_native(xp, tf.constant(wval), strides, "VALID", name="conv")
        if tail == "bias_relu6":
            y = tf.nn.relu6(tf.nn.bias_add(y, tf.constant(bval)), name="act")
        out = tf.identity(y, name="out")
    xval = _rand(2, 11, 12, cin, seed=2)
    padded = np.pad(xval, pads)
    ref = conv_ref if kind == "conv" else depthwise_ref
    want = ref(padded, wval, (stride, stride), "VALID")
    if tail == "bias_relu6":
        want = np.clip(want + bval, 0, 6)
    for threads in (1, 2):
        fused, names = _run(monkeypatch, True, g, out, {x: xval}, threads)
        plain, plain_names = _run(monkeypatch, False, g, out, {x: xval}, threads)
        assert "pad" not in names and "pad" in plain_names
        close(fused, want, np.float32)
        close(plain, want, np.float32)


def test_pad_kept_where_folding_is_not_sound(monkeypatch):
    g = tf.Graph()
    wval = _rand(3, 3, 4, 3)
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 8, 8, 4])
        w = tf.constant(wval)
        # pads the channels: the convolution cannot take it
        pc = tf.pad(x, [[0, 0], [1, 1], [1, 1], [1, 0]], name="pad_c")
        c = tf.nn.conv2d(pc, _rand(3, 3, 5, 3), [1, 1, 1, 1], "VALID", name="conv_c")
        # fetched as well as convolved
        pf = tf.pad(x, [[0, 0], [1, 1], [1, 1], [0, 0]], name="pad_f")
        f = tf.nn.conv2d(pf, w, [1, 1, 1, 1], "VALID", name="conv_f")
        # read by two convolutions
        pt = tf.pad(x, [[0, 0], [1, 1], [1, 1], [0, 0]], name="pad_t")
        t1 = tf.nn.conv2d(pt, w, [1, 1, 1, 1], "VALID", name="conv_t1")
        t2 = tf.nn.conv2d(pt, w, [1, 2, 2, 1], "VALID", name="conv_t2")
        # the convolution pads itself (SAME)
        ps = tf.pad(x, [[0, 0], [1, 1], [1, 1], [0, 0]], name="pad_s")
        s = tf.nn.conv2d(ps, w, [1, 1, 1, 1], "SAME", name="conv_s")
        # pads the batch
        pb = tf.pad(x, [[1, 0], [1, 1], [1, 1], [0, 0]], name="pad_b")
        b = tf.nn.conv2d(pb, w, [1, 1, 1, 1], "VALID", name="conv_b")
    xval = _rand(2, 8, 8, 4, seed=3)
    fetches = [c, f, pf, t1, t2, s, b]
    fused, names = _run(monkeypatch, True, g, fetches, {x: xval})
    plain, _ = _run(monkeypatch, False, g, fetches, {x: xval})
    for name in ("pad_c", "pad_f", "pad_t", "pad_s", "pad_b"):
        assert name in names
    for u, v in zip(fused, plain):
        np.testing.assert_allclose(u, v, rtol=1e-5, atol=1e-5)
