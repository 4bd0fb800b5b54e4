"""tf.layers: TF 1.15's variable names, shapes and initializers; values against NumPy;
dropout statistics; batch normalization in training and inference."""
import numpy as np
import pytest

import tfc as tf


def _has(op):
    return op in tf._tfc.op_names()


needs_conv = pytest.mark.skipif(not _has("Conv2D"), reason="no Conv2D kernel in this build")
needs_pool = pytest.mark.skipif(not (_has("MaxPool") and _has("AvgPool")),
                                reason="no pooling kernels in this build")


@pytest.fixture(autouse=True)
def _fresh_graph():
    tf.reset_default_graph()
    yield


def _run(fetches, feed=None):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(fetches, feed)


def test_dense_names_shapes_and_values():
    x = tf.placeholder(tf.float32, [None, 5])
    y = tf.layers.dense(x, 3, activation=tf.nn.relu)
    z = tf.layers.dense(y, 2, use_bias=False)
    assert y.name == "dense/Relu:0" and z.name == "dense_1/MatMul:0"
    assert y.shape.as_list() == [None, 3]
    assert [v.name for v in tf.global_variables()] == ["dense/kernel:0", "dense/bias:0",
                                                       "dense_1/kernel:0"]
    assert [v.name for v in tf.trainable_variables()] == [v.name for v in tf.global_variables()]
    X = np.random.default_rng(0).standard_normal((4, 5)).astype(np.float32)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        k, b, k1, Y, Z = sess.run(["dense/kernel:0", "dense/bias:0", "dense_1/kernel:0", y, z],
                                  {x: X})
    assert k.shape == (5, 3) and b.shape == (3,) and k1.shape == (3, 2)
    assert np.all(b == 0)
    limit = np.sqrt(6.0 / (5 + 3))  # glorot_uniform
    assert np.all(np.abs(k) <= limit) and np.abs(k).max() > 0
    np.testing.assert_allclose(Y, np.maximum(X @ k + b, 0), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(Z, Y @ k1, rtol=1e-5, atol=1e-6)


def test_dense_name_reuse_and_rank3():
    x = tf.placeholder(tf.float32, [2, 3, 4])
    a = tf.layers.dense(x, 6, name="fc")
    b = tf.layers.dense(x, 6, name="fc", reuse=True)
    assert a.shape.as_list() == [2, 3, 6]
    assert [v.name for v in tf.global_variables()] == ["fc/kernel:0", "fc/bias:0"]
    X = np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 10
    A, B, k = _run([a, b, "fc/kernel:0"], {x: X})
    np.testing.assert_allclose(A, X @ k, rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(A, B)
    with pytest.raises(ValueError):
        tf.layers.dense(x, 6, name="fc")


def test_dense_initializers_and_regularizer():
    x = tf.ones([2, 3])
    y = tf.layers.dense(x, 2, kernel_initializer=tf.ones_initializer(),
                        bias_initializer=tf.constant_initializer(0.5),
                        kernel_regularizer=lambda w: tf.reduce_sum(w))
    losses = tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)
    assert len(losses) == 1
    Y, L = _run([y, losses[0]])
    np.testing.assert_allclose(Y, np.full((2, 2), 3.5))
    assert L == 6.0


@needs_conv
def test_conv2d_names_and_values():
    x = tf.placeholder(tf.float32, [None, 6, 6, 2])
    y = tf.layers.conv2d(x, 4, 3, padding="same", activation=tf.nn.relu)
    v = tf.layers.conv2d(x, 3, (3, 2), strides=2)
    assert y.name == "conv2d/Relu:0" and y.shape.as_list() == [None, 6, 6, 4]
    assert v.shape.as_list() == [None, 2, 3, 3]
    names = [t.name for t in tf.global_variables()]
    assert names == ["conv2d/kernel:0", "conv2d/bias:0", "conv2d_1/kernel:0", "conv2d_1/bias:0"]
    X = np.random.default_rng(1).standard_normal((2, 6, 6, 2)).astype(np.float32)
    Y, V, k, k1 = _run([y, v, "conv2d/kernel:0", "conv2d_1/kernel:0"], {x: X})
    assert k.shape == (3, 3, 2, 4) and k1.shape == (3, 2, 2, 3)
    P = np.pad(X, ((0, 0), (1, 1), (1, 1), (0, 0)))
    ref = np.zeros((2, 6, 6, 4), np.float32)
    for i in range(6):
        for j in range(6):
            ref[:, i, j, :] = np.tensordot(P[:, i:i + 3, j:j + 3, :], k, axes=3)
    np.testing.assert_allclose(Y, np.maximum(ref, 0), rtol=1e-4, atol=1e-5)
    ref1 = np.zeros((2, 2, 3, 3), np.float32)
    for i in range(2):
        for j in range(3):
            ref1[:, i, j, :] = np.tensordot(X[:, 2 * i:2 * i + 3, 2 * j:2 * j + 2, :], k1, axes=3)
    np.testing.assert_allclose(V, ref1, rtol=1e-4, atol=1e-5)


@needs_pool
def test_pooling_and_flatten():
    x = tf.placeholder(tf.float32, [None, 4, 4, 3])
    m = tf.layers.max_pooling2d(x, 2, 2)
    a = tf.layers.average_pooling2d(x, 2, 2)
    f = tf.layers.flatten(m)
    assert m.name == "max_pooling2d/MaxPool:0" and a.name == "average_pooling2d/AvgPool:0"
    assert f.shape.as_list() == [None, 12]
    X = np.random.default_rng(2).standard_normal((2, 4, 4, 3)).astype(np.float32)
    M, A, F = _run([m, a, f], {x: X})
    blocks = X.reshape(2, 2, 2, 2, 2, 3)
    np.testing.assert_allclose(M, blocks.max(axis=(2, 4)))
    np.testing.assert_allclose(A, blocks.mean(axis=(2, 4)), rtol=1e-5)
    np.testing.assert_array_equal(F, M.reshape(2, -1))


def test_flatten_unknown_dims():
    x = tf.placeholder(tf.float32, [None, None, 3])
    f = tf.layers.flatten(x)
    X = np.ones((2, 5, 3), np.float32)
    assert _run(f, {x: X}).shape == (2, 15)


def test_dropout_training_flag_and_statistics():
    x = tf.ones([200, 500])
    off = tf.layers.dropout(x, rate=0.3)
    on = tf.layers.dropout(x, rate=0.3, training=True, seed=7)
    flag = tf.placeholder(tf.bool, [])
    dyn = tf.layers.dropout(x, rate=0.3, training=flag, seed=7)
    with tf.Session() as sess:
        Off, On = sess.run([off, on])
        D0 = sess.run(dyn, {flag: False})
        D1 = sess.run(dyn, {flag: True})
    np.testing.assert_array_equal(Off, np.ones((200, 500)))
    np.testing.assert_array_equal(D0, np.ones((200, 500)))
    for out in (On, D1):
        kept = out != 0
        np.testing.assert_allclose(out[kept], 1 / 0.7, rtol=1e-6)
        assert abs(kept.mean() - 0.7) < 0.01
        assert abs(out.mean() - 1.0) < 0.02


def test_nn_dropout_keep_prob_rate_and_noise_shape():
    x = tf.ones([300, 400])
    a = tf.nn.dropout(x, keep_prob=0.5, seed=1)
    b = tf.nn.dropout(x, rate=0.5, seed=1)
    c = tf.nn.dropout(x, rate=0.25, noise_shape=[300, 1], seed=3)
    with pytest.raises(ValueError):
        tf.nn.dropout(x, keep_prob=0.5, rate=0.5)
    with tf.Session() as sess:
        A, B, C = sess.run([a, b, c])
    assert set(np.unique(A)) <= {0.0, 2.0} and abs((A != 0).mean() - 0.5) < 0.01
    assert set(np.unique(B)) <= {0.0, 2.0}
    assert np.all((C == 0).all(axis=1) | (C != 0).all(axis=1))  # whole rows dropped
    assert abs((C[:, 0] != 0).mean() - 0.75) < 0.08


def _bn_reference(X, axes, eps=1e-3):
    mean = X.mean(axis=axes)
    var = X.var(axis=axes)
    return (X - mean) / np.sqrt(var + eps), mean, var


def test_batch_normalization_training_and_inference():
    rng = np.random.default_rng(3)
    X = (rng.standard_normal((32, 6)) * 3 + 2).astype(np.float32)
    x = tf.placeholder(tf.float32, [None, 6])
    y = tf.layers.batch_normalization(x, training=True)
    y_inf = tf.layers.batch_normalization(x, training=False, name="batch_normalization",
                                          reuse=True)
    assert [v.name for v in tf.global_variables()] == [
        "batch_normalization/gamma:0", "batch_normalization/beta:0",
        "batch_normalization/moving_mean:0", "batch_normalization/moving_variance:0"]
    assert [v.name for v in tf.trainable_variables()] == [
        "batch_normalization/gamma:0", "batch_normalization/beta:0"]
    updates = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
    assert len(updates) == 2 and all("AssignMovingAvg" in u.name for u in updates)
    ref, mean, var = _bn_reference(X, 0)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        Y = sess.run(y, {x: X})
        np.testing.assert_allclose(Y, ref, rtol=1e-4, atol=1e-4)
        # Inference before any update: moving stats are 0 and 1.
        np.testing.assert_allclose(sess.run(y_inf, {x: X}), X / np.sqrt(1 + 1e-3), rtol=1e-5)
        sess.run(updates, {x: X})
        mm, mv = sess.run(["batch_normalization/moving_mean:0",
                           "batch_normalization/moving_variance:0"])
        np.testing.assert_allclose(mm, 0.01 * mean, rtol=1e-4, atol=1e-6)
        np.testing.assert_allclose(mv, 0.99 + 0.01 * var, rtol=1e-4)
        np.testing.assert_allclose(sess.run(y_inf, {x: X}), (X - mm) / np.sqrt(mv + 1e-3),
                                   rtol=1e-4, atol=1e-5)


def test_batch_normalization_trains_with_update_ops():
    rng = np.random.default_rng(4)
    X = (rng.standard_normal((64, 3)) * 2 + 5).astype(np.float32)
    x = tf.placeholder(tf.float32, [None, 3])
    y = tf.layers.batch_normalization(x, training=True, momentum=0.5)
    loss = tf.reduce_mean(tf.square(y - 1.0))
    with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
        train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        l0 = sess.run(loss, {x: X})
        for _ in range(30):
            sess.run(train, {x: X})
        assert sess.run(loss, {x: X}) < l0
        mm = sess.run("batch_normalization/moving_mean:0")
    np.testing.assert_allclose(mm, X.mean(axis=0), rtol=1e-3)


def test_batch_normalization_tensor_training_flag():
    rng = np.random.default_rng(5)
    X = (rng.standard_normal((16, 4)) + 3).astype(np.float32)
    x = tf.placeholder(tf.float32, [None, 4])
    flag = tf.placeholder(tf.bool, [])
    y = tf.layers.batch_normalization(x, training=flag)
    updates = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
    ref, mean, var = _bn_reference(X, 0)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        np.testing.assert_allclose(sess.run(y, {x: X, flag: True}), ref, rtol=1e-4, atol=1e-4)
        np.testing.assert_allclose(sess.run(y, {x: X, flag: False}), X / np.sqrt(1 + 1e-3),
                                   rtol=1e-5)
        sess.run(updates, {x: X, flag: False})
        np.testing.assert_allclose(sess.run("batch_normalization/moving_mean:0"), 0)
        sess.run(updates, {x: X, flag: True})
        np.testing.assert_allclose(sess.run("batch_normalization/moving_mean:0"), 0.01 * mean,
                                   rtol=1e-4)


@pytest.mark.parametrize("fused", [False, None])
def test_batch_normalization_4d(fused):
    if fused is None and not _has("FusedBatchNormV3"):
        pytest.skip("no FusedBatchNorm kernel in this build")
    rng = np.random.default_rng(6)
    X = (rng.standard_normal((4, 3, 3, 5)) * 2 - 1).astype(np.float32)
    x = tf.placeholder(tf.float32, [None, 3, 3, 5])
    y = tf.layers.batch_normalization(x, training=True, fused=fused)
    kinds = {op.type for op in tf.get_default_graph().get_operations()}
    assert ("FusedBatchNormV3" in kinds) == (fused is None)
    updates = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
    ref, mean, var = _bn_reference(X, (0, 1, 2))
    n = X.size / 5
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        np.testing.assert_allclose(sess.run(y, {x: X}), ref, rtol=1e-3, atol=1e-3)
        sess.run(updates, {x: X})
        mv = sess.run("batch_normalization/moving_variance:0")
    # The fused op reports the Bessel-corrected variance, as TF's does.
    want = var * n / (n - 1) if fused is None else var
    np.testing.assert_allclose(mv, 0.99 + 0.01 * want, rtol=1e-4)
    g = tf.gradients(tf.reduce_sum(y * y), tf.trainable_variables())
    assert all(t is not None for t in g)


def test_nn_batch_normalization_formula():
    rng = np.random.default_rng(7)
    X = rng.standard_normal((5, 3)).astype(np.float32)
    m, v = np.float32([0.5, -1, 2]), np.float32([1, 2, 0.5])
    off, sc = np.float32([0.1, 0.2, 0.3]), np.float32([2, 3, 4])
    y = tf.nn.batch_normalization(X, m, v, off, sc, 1e-3)
    y2 = tf.nn.batch_normalization(X, m, v, None, None, 1e-3)
    Y, Y2 = _run([y, y2])
    np.testing.assert_allclose(Y, (X - m) / np.sqrt(v + 1e-3) * sc + off, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(Y2, (X - m) / np.sqrt(v + 1e-3), rtol=1e-5, atol=1e-6)


@needs_conv
def test_nn_conv2d_argument_forms():
    X = np.random.default_rng(8).standard_normal((1, 5, 5, 1)).astype(np.float32)
    W = np.random.default_rng(9).standard_normal((2, 2, 1, 1)).astype(np.float32)
    a = tf.nn.conv2d(X, W, strides=[1, 1, 1, 1], padding="VALID")
    b = tf.nn.conv2d(X, filters=W, strides=1, padding="VALID")
    c = tf.nn.conv2d(X, filter=W, strides=[2, 2], padding="SAME")
    A, B, C = _run([a, b, c])
    assert A.shape == (1, 4, 4, 1) and C.shape == (1, 3, 3, 1)
    np.testing.assert_array_equal(A, B)
    ref = np.array([[np.sum(X[0, i:i + 2, j:j + 2, 0] * W[:, :, 0, 0]) for j in range(4)]
                    for i in range(4)])
    np.testing.assert_allclose(A[0, :, :, 0], ref, rtol=1e-5, atol=1e-5)
