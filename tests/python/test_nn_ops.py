"""The tf.nn activation family through the public TF-1.x API (`import tfc as tf`),
compared with NumPy formulas: relu, relu6, elu, selu, leaky_relu, softplus,
softsign, softmax/log_softmax (any axis, large logits), bias_add in both
layouts, l2_loss, the softmax cross-entropy ops (dense and sparse, with TF's
label range error), and, when the package has tf.gradients, the gradient
kernels. API functions the package does not provide yet are skipped.
"""

import numpy as np
import pytest

tf = pytest.importorskip("tfc")
if not all(hasattr(tf, n) for n in ("Graph", "Session", "placeholder", "nn")):
    pytest.skip("the tfc package does not provide the graph/session API yet",
                allow_module_level=True)


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


RNG = np.random.default_rng(7)
SELU_SCALE = 1.0507009873554804934193349852946
SELU_ALPHA = 1.6732632423543772848170429916717

REFS = {
    "relu": lambda x: np.maximum(x, 0),
    "relu6": lambda x: np.minimum(np.maximum(x, 0), 6),
    "elu": lambda x: np.where(x < 0, np.expm1(x), x),
    "selu": lambda x: np.where(x < 0, SELU_SCALE * SELU_ALPHA * np.expm1(x), SELU_SCALE * x),
    # alpha is a float attr: 0.2 rounded to float32, as in TF
    "leaky_relu": lambda x: np.where(x > 0, x, float(np.float32(0.2)) * x),
    "softplus": lambda x: np.logaddexp(0, x),
    "softsign": lambda x: x / (1 + np.abs(x)),
}


@pytest.mark.parametrize("name", sorted(REFS))
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
def test_activations(name, dtype):
    fn = api("nn." + name)
    x = np.concatenate([np.linspace(-12, 12, 97), [-30, 30, 0]]).astype(dtype).reshape(4, 25)
    got = run(lambda t: fn(t), x)
    assert got.dtype == np.dtype(dtype) and got.shape == x.shape
    want = REFS[name](x.astype(np.float64))
    rtol = {np.float16: 2e-3, np.float32: 2e-6, np.float64: 1e-12}[dtype]
    np.testing.assert_allclose(got.astype(np.float64), want, rtol=rtol, atol=rtol)


def test_leaky_relu_alpha_and_relu_ints_and_nan():
    x = np.array([-2.0, -0.5, 0.0, 3.0], np.float32)
    np.testing.assert_allclose(run(lambda t: tf.nn.leaky_relu(t, alpha=0.1), x), [-0.2, -0.05, 0, 3],
                               rtol=1e-6)
    xi = np.array([-5, 0, 4, 9], np.int32)
    np.testing.assert_array_equal(run(lambda t: tf.nn.relu(t), xi), [0, 0, 4, 9])
    np.testing.assert_array_equal(run(lambda t: tf.nn.relu6(t), xi), [0, 0, 4, 6])
    got = run(lambda t: tf.nn.relu(t), np.array([-1, np.nan], np.float32))
    assert got[0] == 0 and np.isnan(got[1])


def np_softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def np_log_softmax(x, axis=-1):
    s = x - x.max(axis=axis, keepdims=True)
    return s - np.log(np.exp(s).sum(axis=axis, keepdims=True))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
def test_softmax_and_log_softmax(dtype):
    x = (RNG.standard_normal((3, 4, 10)) * 5).astype(dtype)
    x[1, 2] += 1000 if dtype != np.float16 else 100  # stable for large logits
    for axis in [-1, 2, 1, 0]:
        sm, lsm = run(lambda t: (tf.nn.softmax(t, axis=axis), tf.nn.log_softmax(t, axis=axis)), x)
        want = np_softmax(x.astype(np.float64), axis)
        tol = 3e-3 if dtype == np.float16 else 1e-5
        np.testing.assert_allclose(sm.astype(np.float64), want, rtol=tol, atol=tol)
        np.testing.assert_allclose(lsm.astype(np.float64), np_log_softmax(x.astype(np.float64), axis),
                                   rtol=tol, atol=tol * 10)
    # TF 1.x spelling: dim=
    sm = run(lambda t: tf.nn.softmax(t, dim=0), x)
    np.testing.assert_allclose(sm.astype(np.float64), np_softmax(x.astype(np.float64), 0),
                               rtol=3e-3, atol=3e-3)


def test_softmax_rank0_fails():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="Shape must be at least rank 1 but is rank 0"):
            tf.nn.softmax(tf.constant(1.0))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.float16])
def test_bias_add_layouts(dtype):
    x = RNG.integers(-5, 5, (2, 3, 4, 5)).astype(dtype)
    b5 = RNG.integers(-5, 5, 5).astype(dtype)
    b3 = RNG.integers(-5, 5, 3).astype(dtype)
    got = run(lambda t, b: tf.nn.bias_add(t, b), x, b5)
    np.testing.assert_array_equal(got, x + b5)
    got = run(lambda t, b: tf.nn.bias_add(t, b, data_format="NCHW"), x, b3)
    np.testing.assert_array_equal(got, x + b3[None, :, None, None])


def test_bias_add_errors():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="Dimensions must be equal, but are 3 and 4"):
            tf.nn.bias_add(tf.zeros([2, 3]), tf.zeros([4]))
        with pytest.raises(ValueError, match="Shape must be at least rank 2 but is rank 1"):
            tf.nn.bias_add(tf.zeros([3]), tf.zeros([3]))
        v = tf.placeholder(tf.float32)
        b = tf.placeholder(tf.float32)
        y = tf.nn.bias_add(v, b)
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError,
                               match=r"Must provide as many biases as the last dimension of the input "
                                     r"tensor: \[4\] vs\. \[2,3\]"):
                sess.run(y, {v: np.zeros((2, 3)), b: np.zeros(4)})


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
def test_l2_loss(dtype):
    x = RNG.standard_normal((30, 17)).astype(dtype)
    got = run(lambda t: tf.nn.l2_loss(t), x)
    assert got.shape == () and got.dtype == np.dtype(dtype)
    np.testing.assert_allclose(float(got), (x.astype(np.float64) ** 2).sum() / 2,
                               rtol=2e-3 if dtype == np.float16 else 1e-6)


def test_softmax_cross_entropy():
    logits = RNG.standard_normal((6, 10)).astype(np.float32) * 3
    labels = np_softmax(RNG.standard_normal((6, 10))).astype(np.float32)
    got = run(lambda lg, lb: tf.nn.softmax_cross_entropy_with_logits(labels=lb, logits=lg), logits, labels)
    want = -(labels * np.log(np_softmax(logits.astype(np.float64)))).sum(-1)
    np.testing.assert_allclose(got, want, rtol=1e-5)
    # The values TF 2.21 prints for this case.
    got = run(lambda lg, lb: tf.nn.softmax_cross_entropy_with_logits_v2(labels=lb, logits=lg),
              np.array([[1., 2., 3.]], np.float32), np.array([[0., 0., 1.]], np.float32))
    np.testing.assert_allclose(got, [0.40760595], rtol=1e-6)


@pytest.mark.parametrize("label_dtype", [np.int32, np.int64])
def test_sparse_softmax_cross_entropy(label_dtype):
    logits = RNG.standard_normal((8, 5)).astype(np.float32)
    labels = RNG.integers(0, 5, 8).astype(label_dtype)
    got = run(lambda lg, lb: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=lb, logits=lg),
              logits, labels)
    want = -np.log(np_softmax(logits.astype(np.float64)))[np.arange(8), labels]
    np.testing.assert_allclose(got, want, rtol=1e-5)


def test_sparse_softmax_cross_entropy_label_range_error():
    with tf.Graph().as_default():
        lg = tf.placeholder(tf.float32, [None, 3])
        lb = tf.placeholder(tf.int64, [None])
        loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=lb, logits=lg)
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError,
                               match=r"Received a label value of 5 which is outside the valid range "
                                     r"of \[0, 3\)\.  Label values: 1 5"):
                sess.run(loss, {lg: np.zeros((2, 3)), lb: [1, 5]})


# ---------------------------------------------------------------- gradients (training milestone)

@pytest.mark.parametrize("name", ["relu", "relu6", "elu", "selu", "leaky_relu", "softplus", "softsign"])
def test_activation_gradients(name):
    grads = api("gradients")
    fn = api("nn." + name)
    x = np.array([-7, -3.3, -1.1, -0.4, 0.3, 0.9, 1.7, 2.5, 4.4, 5.5, 6.6, 8.1])
    h = 1e-6
    fd = (REFS[name](x + h) - REFS[name](x - h)) / (2 * h)
    try:
        got = run(lambda t: grads(fn(t), t)[0], x)
    except LookupError as e:  # no gradient registered yet
        pytest.skip(str(e))
    np.testing.assert_allclose(got, fd, rtol=1e-5, atol=1e-6)


def test_bias_add_and_xent_gradients():
    grads = api("gradients")
    x = RNG.standard_normal((4, 3, 5))
    b = RNG.standard_normal(5)
    try:
        gx, gb = run(lambda t, u: grads(tf.reduce_sum(tf.nn.bias_add(t, u) * 2.0), [t, u]), x, b)
    except LookupError as e:
        pytest.skip(str(e))
    np.testing.assert_allclose(gx, np.full_like(x, 2.0))
    np.testing.assert_allclose(gb, np.full(5, 24.0))
    logits = RNG.standard_normal((3, 4))
    labels = np.array([0, 3, 1], np.int64)
    try:
        g = run(lambda lg, lb: grads(tf.reduce_sum(
            tf.nn.sparse_softmax_cross_entropy_with_logits(labels=lb, logits=lg)), lg)[0], logits, labels)
    except LookupError as e:
        pytest.skip(str(e))
    want = np_softmax(logits)
    want[np.arange(3), labels] -= 1
    np.testing.assert_allclose(g, want, rtol=1e-6, atol=1e-9)
