"""Forward convolutions run on blocked activation layouts inside the DNN
backend (a spatial filter over 8 or more input channels): the NHWC tensors
the user sees are reordered into the library's layout and back around each
call. These tests compare that path (the default) with the NHWC path
(TFC_CONV_BLOCKED=0) and with NumPy, across channel counts that fill the
vector blocks exactly and ones that leave padded lanes, plain and fused
(bias, batch norm, ReLU/ReLU6) convolutions, strides, batch sizes and thread
counts.
"""
import itertools

import numpy as np
import pytest

import tfc as tf

from test_conv_ops import close, conv_ref


def _rand(*shape, lo=-1.0, hi=1.0, seed=0):
    return np.random.default_rng(seed + sum(shape)).uniform(lo, hi, shape).astype(np.float32)


def _graph(cin, cout, k, stride, padding, fused, const_filter):
    """x -> conv (-> bias -> relu6 when fused); returns (graph, x, out, w value, b value)."""
    g = tf.Graph()
    wval, bval = _rand(k, k, cin, cout), _rand(cout, seed=1)
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, None, None, cin], name="x")
        w = tf.constant(wval, name="w") if const_filter else tf.Variable(wval, name="w")
        y = tf.nn.conv2d(x, w, [1, stride, stride, 1], padding, name="conv")
        if fused:
            y = tf.nn.relu6(tf.nn.bias_add(y, tf.constant(bval), name="bias"), name="act")
        out = tf.identity(y, name="out")
        init = None if const_filter else tf.global_variables_initializer()
    return g, x, out, init, wval, bval


def _run(monkeypatch, blocked, g, x, out, init, xval, threads):
    monkeypatch.setenv("TFC_CONV_BLOCKED", "1" if blocked else "0")
    cfg = tf.ConfigProto(intra_op_parallelism_threads=threads, inter_op_parallelism_threads=1)
    with tf.Session(graph=g, config=cfg) as s:
        if init is not None:
            s.run(init)
        return s.run(out, {x: xval})


CASES = list(itertools.product([8, 12, 16, 40], [3, 5], [1, 2], ["SAME", "VALID"]))


@pytest.mark.parametrize("i", range(len(CASES)))
def test_blocked_forward_matches_nhwc_and_numpy(monkeypatch, i):
    cin, k, stride, padding = CASES[i]
    cout = [20, 8, 33, 16][i % 4]
    fused, const_filter = bool(i % 2), bool((i // 2) % 2)
    batch, threads = [1, 3][(i // 3) % 2], [1, 2][(i // 5) % 2]
    g, x, out, init, wval, bval = _graph(cin, cout, k, stride, padding, fused, const_filter)
    xval = _rand(batch, 13, 11, cin, seed=2)
    blocked = _run(monkeypatch, True, g, x, out, init, xval, threads)
    nhwc = _run(monkeypatch, False, g, x, out, init, xval, threads)
    want = conv_ref(xval, wval, (stride, stride), padding)
    if fused:
        want = np.clip(want + bval, 0.0, 6.0)
    assert blocked.shape == want.shape
    close(blocked, want, np.float32)
    close(nhwc, want, np.float32)


def test_blocked_forward_several_shapes_one_session(monkeypatch):
    """One kernel sees images of several sizes (one cached primitive per
    shape, each with its own reorders) and keeps giving NHWC results."""
    g, x, out, init, wval, bval = _graph(16, 24, 3, 1, "SAME", True, True)
    monkeypatch.setenv("TFC_CONV_BLOCKED", "1")
    with tf.Session(graph=g) as s:
        for shape in [(1, 7, 7), (2, 15, 9), (1, 7, 7), (4, 5, 6)]:
            xval = _rand(*shape, 16, seed=3)
            want = np.clip(conv_ref(xval, wval, (1, 1), "SAME") + bval, 0.0, 6.0)
            close(s.run(out, {x: xval}), want, np.float32)
