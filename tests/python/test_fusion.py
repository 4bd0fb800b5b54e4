"""Plan-level convolution fusion (csrc/runtime/remap.c, kernels/conv_fused.c):
graphs with Conv2D / DepthwiseConv2dNative followed by BiasAdd and/or an
inference FusedBatchNorm and Relu / Relu6 give the same results with fusion on
(the default) and off (TFC_FUSION=0, read when a plan is built), for SAME and
VALID padding, strides 1 and 2, batch 1 and 3, 1 and 2 intra-op threads,
constant, fed and variable filters; fetched or fed intermediates still work;
the user's graph never shows the fused ops; a training step is unchanged.
The residual pattern conv -> BiasAdd/BN -> Add(residual) [-> Relu] fuses too,
also when the residual is fetched, read elsewhere or the conv's own input,
and a residual that turns out to broadcast at run time still gives AddV2's
result (or its error).
"""

import itertools

import numpy as np
import pytest

tf = pytest.importorskip("tfc")
from tfc import _tfc  # noqa: E402

if not _tfc.kernel_exists("_FusedConv2D"):
    pytest.skip("fused convolutions are not registered", allow_module_level=True)

RNG = np.random.default_rng(7)


def _rand(*shape, lo=-1.0, hi=1.0):
    return RNG.uniform(lo, hi, size=shape).astype(np.float32)


def _build(kind, mid, act, padding, stride, batch, filter_from="const"):
    """A graph x -> conv -> mid -> act; returns (graph, x placeholder, output,
    intermediates dict, feed dict extras)."""
    g = tf.Graph()
    cin, cout, mult = 5, 6, 2
    feeds = {}
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 9, 9, cin], name="x")
        fshape = [3, 3, cin, cout] if kind == "conv" else [3, 3, cin, mult]
        fval = _rand(*fshape)
        if filter_from == "const":
            w = tf.constant(fval, name="w")
        elif filter_from == "identity":
            w = tf.identity(tf.constant(fval), name="w")
        elif filter_from == "feed":
            w = tf.placeholder(tf.float32, fshape, name="w")
            feeds[w] = fval
        else:
            w = tf.Variable(fval, name="w")
        strides = [1, stride, stride, 1]
        if kind == "conv":
            y = tf.nn.conv2d(x, w, strides, padding, name="conv")
            depth = cout
        else:
            y = tf.nn.depthwise_conv2d_native(x, w, strides, padding, name="conv")
            depth = cin * mult
        inter = {"conv": y}
        if "bias" in mid:
            y = tf.nn.bias_add(y, tf.constant(_rand(depth), name="b"), name="bias")
            inter["bias"] = y
        if "bn" in mid:
            y, _, _ = tf.nn.fused_batch_norm(
                y, tf.constant(_rand(depth, lo=0.5, hi=1.5)), tf.constant(_rand(depth)),
                mean=tf.constant(_rand(depth)), variance=tf.constant(_rand(depth, lo=0.5, hi=2.0)),
                epsilon=1e-3, is_training=False, name="bn")
            inter["bn"] = y
        if act == "relu":
            y = tf.nn.relu(y, name="act")
        elif act == "relu6":
            y = tf.nn.relu6(y * 4.0, name="act")  # reach the upper clip
        out = tf.identity(y, name="out")
        init = tf.global_variables_initializer() if filter_from == "variable" else None
    xval = _rand(batch, 9, 9, cin)
    feeds[x] = xval
    return g, out, inter, feeds, init


def _run(monkeypatch, fusion, g, fetches, feeds, init=None, threads=1):
    monkeypatch.setenv("TFC_FUSION", "1" if fusion else "0")
    cfg = tf.ConfigProto(intra_op_parallelism_threads=threads, inter_op_parallelism_threads=1)
    with tf.Session(graph=g, config=cfg) as s:
        if init is not None:
            s.run(init)
        return s.run(fetches, feeds)


def _close(a, b, rtol=1e-4):
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape
    scale = max(float(np.abs(b).max()), 1e-6)
    np.testing.assert_allclose(a, b, rtol=0, atol=rtol * scale)


PATTERNS = list(itertools.product(["conv", "depthwise"], ["bias", "bn", "bias+bn"],
                                  ["none", "relu", "relu6"]))
VARIANTS = list(itertools.product(["SAME", "VALID"], [1, 2], [1, 3], [1, 2]))


@pytest.mark.parametrize("i", range(len(PATTERNS)))
def test_fused_matches_unfused(monkeypatch, i):
    kind, mid, act = PATTERNS[i]
    # every pattern meets several padding/stride/batch/thread variants
    for j in range(4):
        padding, stride, batch, threads = VARIANTS[(3 * i + 5 * j) % len(VARIANTS)]
        g, out, _, feeds, _ = _build(kind, mid, act, padding, stride, batch)
        fused = _run(monkeypatch, True, g, out, feeds, threads=threads)
        plain = _run(monkeypatch, False, g, out, feeds, threads=threads)
        _close(fused, plain)
        if act == "relu6":
            assert fused.max() <= 6.0 and fused.min() >= 0.0


@pytest.mark.parametrize("source", ["identity", "feed", "variable"])
@pytest.mark.parametrize("kind", ["conv", "depthwise"])
def test_filter_sources(monkeypatch, source, kind):
    g, out, _, feeds, init = _build(kind, "bias+bn", "relu", "SAME", 1, 2, filter_from=source)
    fused = _run(monkeypatch, True, g, out, feeds, init)
    plain = _run(monkeypatch, False, g, out, feeds, init)
    _close(fused, plain)


def test_numpy_reference(monkeypatch):
    """conv + BiasAdd + BN + Relu against direct NumPy arithmetic."""
    g = tf.Graph()
    x = _rand(2, 6, 6, 3)
    w, b = _rand(3, 3, 3, 4), _rand(4)
    sc, off, mean, var = _rand(4, lo=0.5, hi=1.5), _rand(4), _rand(4), _rand(4, lo=0.5, hi=2)
    with g.as_default():
        y = tf.nn.conv2d(tf.constant(x), tf.constant(w), [1, 1, 1, 1], "VALID")
        y = tf.nn.bias_add(y, tf.constant(b))
        y, _, _ = tf.nn.fused_batch_norm(y, tf.constant(sc), tf.constant(off), mean=tf.constant(mean),
                                         variance=tf.constant(var), epsilon=1e-3,
                                         is_training=False)
        y = tf.nn.relu(y)
    got = _run(monkeypatch, True, g, y, {})
    ref = np.zeros((2, 4, 4, 4), np.float64)
    for r in range(4):
        for c in range(4):
            ref[:, r, c, :] = np.einsum("nhwi,hwio->no", x[:, r:r + 3, c:c + 3, :], w)
    ref = ((ref + b - mean) / np.sqrt(var + 1e-3)) * sc + off
    _close(got, np.maximum(ref, 0))


@pytest.mark.parametrize("name", ["conv", "bias", "bn"])
def test_fetched_intermediate(monkeypatch, name):
    """Fetching an intermediate stops fusion there and still gives both values."""
    g, out, inter, feeds, _ = _build("conv", "bias+bn", "relu6", "SAME", 1, 2)
    fused = _run(monkeypatch, True, g, [out, inter[name]], feeds)
    plain = _run(monkeypatch, False, g, [out, inter[name]], feeds)
    _close(fused[0], plain[0])
    _close(fused[1], plain[1])


def test_fed_intermediate(monkeypatch):
    """Feeding the BatchNorm input cuts the chain: the fed value is used."""
    g, out, inter, feeds, _ = _build("conv", "bias+bn", "relu", "SAME", 1, 2)
    bias_val = _rand(2, 9, 9, 6)
    feeds = dict(feeds)
    feeds[inter["bias"]] = bias_val
    fused = _run(monkeypatch, True, g, out, feeds)
    plain = _run(monkeypatch, False, g, out, feeds)
    _close(fused, plain)


def test_second_consumer_blocks_fusion(monkeypatch):
    """A conv output read twice keeps both consumers right."""
    g = tf.Graph()
    with g.as_default():
        x = tf.constant(_rand(1, 5, 5, 2))
        y = tf.nn.conv2d(x, tf.constant(_rand(1, 1, 2, 3)), [1, 1, 1, 1], "SAME")
        a = tf.nn.relu(tf.nn.bias_add(y, tf.constant(_rand(3))))
        out = a + y
    _close(_run(monkeypatch, True, g, out, {}), _run(monkeypatch, False, g, out, {}))


def test_graph_unchanged(monkeypatch):
    g, out, _, feeds, _ = _build("depthwise", "bn", "relu6", "SAME", 1, 1)
    before = [(op.name, op.type) for op in g.get_operations()]
    _run(monkeypatch, True, g, out, feeds)
    after = [(op.name, op.type) for op in g.get_operations()]
    assert before == after
    gd = g.as_graph_def()
    assert not any(n.op.startswith("_Fused") for n in gd.node)


def test_training_step_unchanged(monkeypatch):
    """Conv2D + BiasAdd + Relu with variables, a few SGD steps: same losses."""
    def losses(fusion):
        monkeypatch.setenv("TFC_FUSION", "1" if fusion else "0")
        g = tf.Graph()
        rng = np.random.default_rng(3)
        with g.as_default():
            x = tf.constant(rng.standard_normal((4, 6, 6, 2)).astype(np.float32))
            w = tf.Variable(rng.standard_normal((3, 3, 2, 3)).astype(np.float32) * 0.3)
            b = tf.Variable(np.zeros(3, np.float32))
            y = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, w, [1, 1, 1, 1], "SAME"), b))
            loss = tf.reduce_mean(tf.square(y - 0.5))
            step = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
            init = tf.global_variables_initializer()
        out = []
        with tf.Session(graph=g) as s:
            s.run(init)
            for _ in range(5):
                out.append(s.run([loss, step])[0])
            out.append(s.run(loss))  # inference plan: this one is fused
        return np.array(out)

    _close(losses(True), losses(False), rtol=1e-5)


def test_variable_filter_changes_are_seen(monkeypatch):
    """A variable filter is never cached: an assign between runs shows up."""
    monkeypatch.setenv("TFC_FUSION", "1")
    g = tf.Graph()
    with g.as_default():
        x = tf.constant(_rand(1, 4, 4, 2))
        w = tf.Variable(_rand(3, 3, 2, 3))
        y = tf.nn.relu6(tf.nn.bias_add(tf.nn.conv2d(x, w, [1, 1, 1, 1], "SAME"),
                                       tf.constant(_rand(3))))
        new_w = tf.placeholder(tf.float32, [3, 3, 2, 3])
        assign = tf.assign(w, new_w)
        init = tf.global_variables_initializer()
    with tf.Session(graph=g) as s:
        s.run(init)
        first = s.run(y)
        s.run(assign, {new_w: np.zeros((3, 3, 2, 3), np.float32)})
        second = s.run(y)
    assert not np.allclose(first, second)
    bias_only = np.clip(second[0, 0, 0], 0, 6)
    assert np.allclose(second, np.broadcast_to(bias_only, second.shape))


def test_rewrite_options_remapping_off_disables_fusion(monkeypatch):
    """ConfigProto(graph_options.rewrite_options.remapping=OFF) gives exactly the
    unfused results (the fused kernel folds the batch norm, which rounds
    differently), as does disable_meta_optimizer."""
    from tfc.protos import RewriterConfig
    g, out, _, feeds, _ = _build("conv", "bn", "relu", "SAME", 1, 3)
    fused = _run(monkeypatch, True, g, out, feeds)
    unfused = _run(monkeypatch, False, g, out, feeds)
    assert not np.array_equal(fused, unfused)  # the check below can tell them apart
    monkeypatch.setenv("TFC_FUSION", "1")
    for rewrite in (RewriterConfig(remapping=RewriterConfig.OFF),
                    RewriterConfig(disable_meta_optimizer=True)):
        cfg = tf.ConfigProto(intra_op_parallelism_threads=1,
                             graph_options=tf.GraphOptions(rewrite_options=rewrite))
        assert tf.ConfigProto.FromString(cfg.SerializeToString()) == cfg
        with tf.Session(graph=g, config=cfg) as s:
            np.testing.assert_array_equal(s.run(out, feeds), unfused)
    cfg = tf.ConfigProto(graph_options=tf.GraphOptions(
        rewrite_options=RewriterConfig(remapping=RewriterConfig.ON)))
    with tf.Session(graph=g, config=cfg) as s:
        np.testing.assert_array_equal(s.run(out, feeds), fused)


def _build_residual(kind, mid, act, res_from, batch=2, add_op="AddV2"):
    """x -> conv(SAME, stride 1) -> mid -> Add(., residual) -> act, with the
    residual from res_from: "feed" (a placeholder), "input" (x itself) or
    "op" (relu(x * 0.5), also read by a second output). Returns (graph,
    fetches, feeds); fetches[0] is the result."""
    g = tf.Graph()
    c = 6
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 7, 7, c], name="x")
        feeds = {x: _rand(batch, 7, 7, c)}
        if kind == "conv":
            y = tf.nn.conv2d(x, tf.constant(_rand(3, 3, c, c)), [1, 1, 1, 1], "SAME")
        else:
            y = tf.nn.depthwise_conv2d_native(x, tf.constant(_rand(3, 3, c, 1)), [1, 1, 1, 1],
                                              "SAME")
        if "bias" in mid:
            y = tf.nn.bias_add(y, tf.constant(_rand(c)))
        if "bn" in mid:
            y, _, _ = tf.nn.fused_batch_norm(
                y, tf.constant(_rand(c, lo=0.5, hi=1.5)), tf.constant(_rand(c)),
                mean=tf.constant(_rand(c)), variance=tf.constant(_rand(c, lo=0.5, hi=2.0)),
                epsilon=1e-3, is_training=False)
        extra = []
        if res_from == "feed":
            r = tf.placeholder(tf.float32, [None, 7, 7, c], name="r")
            feeds[r] = _rand(batch, 7, 7, c)
        elif res_from == "input":
            r = x
        else:
            r = tf.nn.relu(x * 0.5)
            extra = [r, tf.reduce_sum(r)]
        y = tf.add(y, r) if add_op == "Add" else r + y
        if act == "relu":
            y = tf.nn.relu(y)
        elif act == "relu6":
            y = tf.nn.relu6(y * 3.0)
    return g, [y] + extra, feeds


RES_PATTERNS = list(itertools.product(["conv", "depthwise"], ["bias", "bn", "bias+bn"],
                                      ["none", "relu", "relu6"]))


@pytest.mark.parametrize("i", range(len(RES_PATTERNS)))
def test_residual_matches_unfused(monkeypatch, i):
    kind, mid, act = RES_PATTERNS[i]
    res_from = ["feed", "input", "op"][i % 3]
    for batch, threads in ((1, 1), (3, 2)):
        g, fetches, feeds = _build_residual(kind, mid, act, res_from, batch=batch,
                                            add_op="Add" if i % 2 else "AddV2")
        fused = _run(monkeypatch, True, g, fetches, feeds, threads=threads)
        plain = _run(monkeypatch, False, g, fetches, feeds, threads=threads)
        for f, p in zip(fused, plain):
            _close(f, p)


@pytest.mark.parametrize("res_from", ["feed", "input", "op"])
def test_residual_fetched_and_unchanged(monkeypatch, res_from):
    """The residual is only read: fetched alongside the result (and read by
    other nodes) it keeps its own value, run after run."""
    g, fetches, feeds = _build_residual("conv", "bias+bn", "relu", res_from)
    with g.as_default():
        r = fetches[0].op.inputs[0].op.inputs[0]  # the Add's first operand
    fetches = fetches + [r]
    fused = _run(monkeypatch, True, g, fetches, feeds)
    plain = _run(monkeypatch, False, g, fetches, feeds)
    for f, p in zip(fused, plain):
        _close(f, p)
    again = _run(monkeypatch, True, g, fetches, feeds)
    for f, p in zip(again, fused):
        np.testing.assert_array_equal(f, p)
    if res_from != "op":
        src = feeds[[t for t in feeds if t.op.name == ("x" if res_from == "input" else "r")][0]]
        np.testing.assert_array_equal(fused[-1], src)


def test_residual_numpy_reference(monkeypatch):
    """conv + BiasAdd + Add(residual) + Relu against NumPy arithmetic."""
    g = tf.Graph()
    x, w, b, r = _rand(2, 5, 5, 3), _rand(1, 1, 3, 4), _rand(4), _rand(2, 5, 5, 4)
    with g.as_default():
        y = tf.nn.conv2d(tf.constant(x), tf.constant(w), [1, 1, 1, 1], "VALID")
        y = tf.nn.relu(tf.nn.bias_add(y, tf.constant(b)) + tf.constant(r))
    got = _run(monkeypatch, True, g, y, {})
    ref = np.einsum("nhwi,io->nhwo", x, w[0, 0]) + b + r
    _close(got, np.maximum(ref, 0))


def test_residual_fetched_sum_and_intermediate(monkeypatch):
    """Fetching the Add's result or the batch norm before it still works."""
    g, fetches, feeds = _build_residual("conv", "bias+bn", "relu", "feed")
    add = fetches[0].op.inputs[0]
    bn = [t for t in add.op.inputs if t.op.type.startswith("FusedBatchNorm")][0]
    for extra in (add, bn):
        fused = _run(monkeypatch, True, g, [fetches[0], extra], feeds)
        plain = _run(monkeypatch, False, g, [fetches[0], extra], feeds)
        _close(fused[0], plain[0])
        _close(fused[1], plain[1])


def test_residual_broadcast_at_run_time(monkeypatch):
    """Static shapes [?,7,7,6] both sides, but the residual is fed with batch
    1 against a conv batch of 3: AddV2 broadcasts, and so does the fused
    kernel; incompatible batches fail as AddV2 does."""
    g, fetches, feeds = _build_residual("conv", "bias", "relu", "feed", batch=3)
    r = [t for t in feeds if t.op.name == "r"][0]
    feeds[r] = _rand(1, 7, 7, 6)
    fused = _run(monkeypatch, True, g, fetches[0], feeds)
    plain = _run(monkeypatch, False, g, fetches[0], feeds)
    assert fused.shape == (3, 7, 7, 6)
    _close(fused, plain)
    feeds[r] = _rand(2, 7, 7, 6)
    for fusion in (True, False):
        with pytest.raises(tf.errors.InvalidArgumentError, match="Incompatible shapes"):
            _run(monkeypatch, fusion, g, fetches[0], feeds)
