"""TF 1.x tf.nn functions composed of existing ops (conv1d, conv2d_transpose, depthwise and
separable convolutions, 1-D pooling, embedding_lookup, normalization helpers, losses):
values against NumPy references, gradients by finite differences, TF's errors."""
import numpy as np
import pytest

import tfc as tf
from test_conv_ops import conv_grads_ref, conv_ref, depthwise_ref, pool_ref

RNG = np.random.RandomState(11)


def rand(*shape, dtype=np.float32):
  return RNG.uniform(-1, 1, shape).astype(dtype)


def run(fetches, feed_dict=None):
  with tf.Session() as sess:
    return sess.run(fetches, feed_dict)


def grad_error(x_value, build):
  """Largest difference between the symbolic and the numeric Jacobian of build(x)."""
  with tf.Graph().as_default():
    x = tf.constant(x_value)
    y = build(x)
    return tf.test.compute_gradient_error(x, list(x_value.shape), y, y.shape.as_list(),
                                          x_init_value=x_value)


def sigmoid(x):
  return 1 / (1 + np.exp(-x))


def test_relu_layer_l2_normalize_zero_fraction():
  x, w, b = rand(4, 3), rand(3, 5), rand(5)
  v = np.array([[3.0, 4.0], [0.0, 0.0]], np.float32)
  with tf.Graph().as_default():
    got = run([tf.nn.relu_layer(x, w, b), tf.nn.l2_normalize(v), tf.nn.l2_normalize(v, axis=1),
               tf.nn.l2_normalize(v, dim=0), tf.nn.zero_fraction([[0, 1], [0, 0]]),
               tf.nn.zero_fraction(v)])
  np.testing.assert_allclose(got[0], np.maximum(x @ w + b, 0), rtol=1e-5)
  np.testing.assert_allclose(got[1], v / 5.0, rtol=1e-6)
  np.testing.assert_allclose(got[2], [[0.6, 0.8], [0.0, 0.0]], rtol=1e-6)
  np.testing.assert_allclose(got[3], [[1.0, 1.0], [0.0, 0.0]], rtol=1e-6)
  assert got[4] == 0.75 and got[4].dtype == np.float32 and got[5] == 0.5


def test_activations():
  x = rand(2, 3) * 4
  with tf.Graph().as_default():
    got = run([tf.nn.crelu(x), tf.nn.crelu(x, axis=0), tf.nn.swish(x), tf.nn.silu(x),
               tf.nn.swish(x, beta=2.0)])
  np.testing.assert_allclose(got[0], np.maximum(np.concatenate([x, -x], -1), 0))
  np.testing.assert_allclose(got[1], np.maximum(np.concatenate([x, -x], 0), 0))
  np.testing.assert_allclose(got[2], x * sigmoid(x), rtol=1e-5)
  np.testing.assert_allclose(got[3], got[2])
  np.testing.assert_allclose(got[4], x * sigmoid(2 * x), rtol=1e-5)
  assert grad_error(x.astype(np.float64), tf.nn.swish) < 1e-6
  assert grad_error(x.astype(np.float64), tf.nn.crelu) < 1e-6


def test_log_poisson_loss():
  targets = np.array([0.0, 0.5, 1.0, 2.0, 7.0], np.float32)
  log_input = rand(5)
  with tf.Graph().as_default():
    got = run([tf.nn.log_poisson_loss(targets, log_input),
               tf.nn.log_poisson_loss(targets, log_input, compute_full_loss=True)])
    with pytest.raises(ValueError, match="must have the same shape"):
      tf.nn.log_poisson_loss(targets, rand(4))
  base = np.exp(log_input) - log_input * targets
  np.testing.assert_allclose(got[0], base, rtol=1e-5)
  with np.errstate(divide="ignore", invalid="ignore"):
    stirling = targets * np.log(targets) - targets + 0.5 * np.log(2 * np.pi * targets)
  full = base + np.where((targets >= 0) & (targets <= 1), 0, stirling)
  np.testing.assert_allclose(got[1], full, rtol=1e-5)


def test_weighted_cross_entropy_with_logits():
  labels = (RNG.rand(3, 4) > 0.5).astype(np.float32)
  logits = rand(3, 4) * 10
  with tf.Graph().as_default():
    got = run([tf.nn.weighted_cross_entropy_with_logits(labels=labels, logits=logits,
                                                          pos_weight=3.0),
               tf.nn.weighted_cross_entropy_with_logits(targets=labels, logits=logits,
                                                          pos_weight=1.0),
               tf.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits)])
    with pytest.raises(ValueError, match="must have the same shape"):
      tf.nn.weighted_cross_entropy_with_logits(labels=labels, logits=rand(3, 5), pos_weight=1.0)
  p = sigmoid(logits.astype(np.float64))
  want = -(3.0 * labels * np.log(p) + (1 - labels) * np.log(1 - p))
  np.testing.assert_allclose(got[0], want, rtol=1e-4)
  np.testing.assert_allclose(got[1], got[2], rtol=1e-5)


@pytest.mark.parametrize("stride,padding,dilation", [(1, "SAME", 1), (2, "VALID", 1),
                                                     (1, "VALID", 2)])
def test_conv1d(stride, padding, dilation):
  x, f = rand(2, 9, 3), rand(3, 3, 4)
  with tf.Graph().as_default():
    y = tf.nn.conv1d(x, f, stride, padding, dilations=dilation)
    y_input = tf.nn.conv1d(input=x, filters=f, stride=[stride], padding=padding,
                           data_format="NWC", dilations=dilation)
    got = run([y, y_input])
  want = conv_ref(x[:, None], f[None], (1, stride), padding, (1, dilation))[:, 0]
  np.testing.assert_allclose(got[0], want, rtol=1e-4, atol=1e-5)
  np.testing.assert_array_equal(got[0], got[1])
  with tf.Graph().as_default():
    with pytest.raises(ValueError, match='data_format must be "NWC" or "NCW"'):
      tf.nn.conv1d(x, f, 1, "SAME", data_format="NHWC1")


@pytest.mark.parametrize("strides,padding", [((1, 1), "SAME"), ((2, 2), "SAME"),
                                             ((2, 1), "VALID")])
def test_conv2d_transpose_and_backprops(strides, padding):
  x, f = rand(2, 7, 6, 3), rand(3, 2, 3, 4)
  y_shape = conv_ref(x, f, strides, padding).shape
  dy = rand(*y_shape)
  dx_want, df_want = conv_grads_ref(x, f, dy, strides, padding)
  full = [1, strides[0], strides[1], 1]
  with tf.Graph().as_default():
    transposed = tf.nn.conv2d_transpose(dy, f, list(x.shape), full, padding)
    got = run([transposed,
               tf.nn.conv2d_backprop_input(list(x.shape), f, dy, full, padding),
               tf.nn.conv2d_backprop_filter(x, list(f.shape), dy, full, padding)])
    assert transposed.op.type == "Conv2DBackpropInput"
    assert transposed.shape.as_list() == list(x.shape)
  np.testing.assert_allclose(got[0], dx_want, rtol=1e-4, atol=1e-5)
  np.testing.assert_allclose(got[1], dx_want, rtol=1e-4, atol=1e-5)
  np.testing.assert_allclose(got[2], df_want, rtol=1e-4, atol=1e-4)


def test_conv2d_transpose_gradients():
  f = rand(3, 3, 2, 4, dtype=np.float64)
  dy = rand(1, 3, 3, 4, dtype=np.float64)

  def wrt_value(v):
    return tf.nn.conv2d_transpose(v, tf.constant(f), [1, 6, 6, 2], [1, 2, 2, 1], "SAME")

  def wrt_filter(w):
    return tf.nn.conv2d_transpose(tf.constant(dy), w, [1, 6, 6, 2], [1, 2, 2, 1], "SAME")

  assert grad_error(dy, wrt_value) < 1e-8
  assert grad_error(f, wrt_filter) < 1e-8


def test_conv2d_transpose_trains():
  # a tiny decoder learns to upsample a fixed code into a fixed image
  target = rand(1, 4, 4, 1)
  with tf.Graph().as_default():
    code = tf.constant(rand(1, 2, 2, 3))
    w = tf.Variable(tf.random_normal([3, 3, 1, 3], stddev=0.1, seed=1))
    out = tf.nn.conv2d_transpose(code, w, [1, 4, 4, 1], [1, 2, 2, 1])
    loss = tf.reduce_mean(tf.square(out - target))
    step = tf.train.AdamOptimizer(0.05).minimize(loss)
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      first = sess.run(loss)
      for _ in range(200):
        sess.run(step)
      assert sess.run(loss) < first / 10


def test_conv2d_transpose_errors():
  with tf.Graph().as_default():
    value, f = tf.zeros([1, 3, 3, 4]), tf.zeros([3, 3, 2, 5])
    with pytest.raises(ValueError, match="input channels does not match"):
      tf.nn.conv2d_transpose(value, f, [1, 6, 6, 2], [1, 2, 2, 1])
    f = tf.zeros([3, 3, 2, 4])
    with pytest.raises(ValueError, match="output_shape must have shape"):
      tf.nn.conv2d_transpose(value, f, [1, 6, 6], [1, 2, 2, 1])
    with pytest.raises(ValueError, match="output_shape does not match filter's output"):
      tf.nn.conv2d_transpose(value, f, [1, 6, 6, 3], [1, 2, 2, 1])
    bad = tf.nn.conv2d_transpose(value, f, tf.constant([1, 9, 9, 2]), [1, 2, 2, 1])
    with tf.Session() as sess:
      with pytest.raises(tf.errors.InvalidArgumentError):
        sess.run(bad)


@pytest.mark.parametrize("strides,rate,padding", [((1, 1), 1, "SAME"), ((2, 2), 1, "VALID"),
                                                  ((1, 1), 2, "SAME"), ((1, 1), 2, "VALID")])
def test_depthwise_conv2d(strides, rate, padding):
  x, f = rand(2, 8, 7, 3), rand(3, 3, 3, 2)
  with tf.Graph().as_default():
    y = tf.nn.depthwise_conv2d(x, f, [1, strides[0], strides[1], 1], padding, rate=[rate, rate])
    got = run(y)
  want = depthwise_ref(x, f, strides, padding, (rate, rate))
  np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


def test_depthwise_gradients_and_backprops():
  x, f = rand(1, 5, 5, 2, dtype=np.float64), rand(3, 3, 2, 2, dtype=np.float64)
  assert grad_error(x, lambda t: tf.nn.depthwise_conv2d(t, tf.constant(f), [1, 1, 1, 1],
                                                        "SAME")) < 1e-8
  assert grad_error(f, lambda w: tf.nn.depthwise_conv2d(tf.constant(x), w, [1, 2, 2, 1],
                                                        "VALID")) < 1e-8
  with tf.Graph().as_default():
    dy = tf.ones([1, 5, 5, 4], tf.float64)
    xin, fin = tf.constant(x), tf.constant(f)
    y = tf.nn.depthwise_conv2d_native(xin, fin, [1, 1, 1, 1], "SAME")
    gx, gw = tf.gradients(y, [xin, fin], grad_ys=dy)
    bx = tf.nn.depthwise_conv2d_native_backprop_input([1, 5, 5, 2], fin, dy, [1, 1, 1, 1], "SAME")
    bw = tf.nn.depthwise_conv2d_backprop_filter(xin, [3, 3, 2, 2], dy, [1, 1, 1, 1], "SAME")
    got = run([gx, gw, bx, bw])
  np.testing.assert_allclose(got[0], got[2])
  np.testing.assert_allclose(got[1], got[3])


def test_depthwise_rate_with_strides_is_refused():
  with tf.Graph().as_default():
    with pytest.raises(ValueError, match="strides > 1 not supported"):
      tf.nn.depthwise_conv2d(tf.zeros([1, 8, 8, 2]), tf.zeros([3, 3, 2, 1]), [1, 2, 2, 1],
                             "SAME", rate=[2, 2])


def test_separable_conv2d():
  x, dw, pw = rand(2, 6, 6, 3), rand(3, 3, 3, 2), rand(1, 1, 6, 5)
  with tf.Graph().as_default():
    got = run(tf.nn.separable_conv2d(x, dw, pw, [1, 1, 1, 1], "SAME"))
    with pytest.raises(ValueError, match="pointwise_filter must be 1x1"):
      tf.nn.separable_conv2d(x, dw, rand(2, 1, 6, 5), [1, 1, 1, 1], "SAME")
  want = conv_ref(depthwise_ref(x, dw, (1, 1), "SAME"), pw, (1, 1), "VALID")
  np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("kind", ["max", "avg"])
def test_pool1d(kind):
  x = rand(2, 9, 3)
  fn = tf.nn.max_pool1d if kind == "max" else tf.nn.avg_pool1d
  with tf.Graph().as_default():
    got = run([fn(x, 3, 2, "SAME"), fn(x, [2], [2], "VALID")])
  np.testing.assert_allclose(got[0], pool_ref(x[:, None], (1, 3), (1, 2), "SAME", kind)[:, 0],
                             rtol=1e-5)
  np.testing.assert_allclose(got[1], pool_ref(x[:, None], (1, 2), (1, 2), "VALID", kind)[:, 0],
                             rtol=1e-5)


def test_embedding_lookup():
  params = rand(10, 4)
  params[3] *= 10
  ids = np.array([[3, 1], [0, 3]])
  with tf.Graph().as_default():
    got = run([tf.nn.embedding_lookup(params, ids), tf.nn.embedding_lookup([params], ids),
               tf.nn.embedding_lookup(params, ids, max_norm=1.0),
               tf.nn.embedding_lookup([params[:5], params[5:]], ids, partition_strategy="div")])
    with pytest.raises(ValueError, match="Need at least one param"):
      tf.nn.embedding_lookup([], ids)
  np.testing.assert_array_equal(got[0], params[ids])
  np.testing.assert_array_equal(got[1], params[ids])
  np.testing.assert_array_equal(got[3], params[ids])
  norms = np.linalg.norm(params[ids], axis=-1, keepdims=True)
  np.testing.assert_allclose(got[2], params[ids] / np.maximum(norms, 1.0), rtol=1e-5)


def test_embedding_lookup_trains_the_rows_it_reads():
  with tf.Graph().as_default():
    emb = tf.Variable(np.zeros((5, 2), np.float32))
    rows = tf.nn.embedding_lookup(emb, [1, 3])
    step = tf.train.GradientDescentOptimizer(1.0).minimize(tf.reduce_sum(rows))
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      sess.run(step)
      np.testing.assert_array_equal(sess.run(emb), [[0, 0], [-1, -1], [0, 0], [-1, -1],
                                                    [0, 0]])


def test_moments_helpers():
  x = rand(4, 5, 3)
  w = RNG.randint(1, 4, (4, 5, 1)).astype(np.float32)
  m, v, beta, gamma = rand(3), np.abs(rand(3)) + 0.5, rand(3), rand(3)
  with tf.Graph().as_default():
    counts, m_ss, v_ss, shift = tf.nn.sufficient_statistics(x, [0, 1])
    mean, var = tf.nn.normalize_moments(counts, m_ss, v_ss, shift)
    counts2, m_ss2, v_ss2, shift2 = tf.nn.sufficient_statistics(x, [0, 1], shift=0.5,
                                                                keepdims=True)
    mean2, var2 = tf.nn.normalize_moments(counts2, m_ss2, v_ss2, shift2)
    xd = tf.placeholder(tf.float32, [None, 5, 3])
    counts3 = tf.nn.sufficient_statistics(xd, [0, 1])[0]
    wmean, wvar = tf.nn.weighted_moments(x, [0, 1], w)
    bn = tf.nn.batch_norm_with_global_normalization(x, m, v, beta, gamma, 1e-3, True)
    bn_noscale = tf.nn.batch_norm_with_global_normalization(x, m, v, beta, gamma, 1e-3, False)
    got = run([counts, mean, var, mean2, var2, counts3, wmean, wvar, bn, bn_noscale], {xd: x})
  assert got[0] == 20
  np.testing.assert_allclose(got[1], x.mean((0, 1)), rtol=1e-5)
  np.testing.assert_allclose(got[2], x.var((0, 1)), rtol=1e-4, atol=1e-6)
  np.testing.assert_allclose(got[3], x.mean((0, 1), keepdims=True), rtol=1e-5)
  np.testing.assert_allclose(got[4], x.var((0, 1), keepdims=True), rtol=1e-4, atol=1e-6)
  assert got[5] == 20
  wb = np.broadcast_to(w, x.shape)
  wm = np.average(x, axis=(0, 1), weights=wb)
  np.testing.assert_allclose(got[6], wm, rtol=1e-5)
  np.testing.assert_allclose(got[7], np.average((x - wm) ** 2, axis=(0, 1), weights=wb),
                             rtol=1e-4)
  np.testing.assert_allclose(got[8], (x - m) / np.sqrt(v + 1e-3) * gamma + beta, rtol=1e-4,
                             atol=1e-5)
  np.testing.assert_allclose(got[9], (x - m) / np.sqrt(v + 1e-3) + beta, rtol=1e-4, atol=1e-5)


def space_to_batch_ref(x, block, pads):
  padded = np.pad(x, [(0, 0)] + [tuple(p) for p in pads] + [(0, 0)] * (x.ndim - 1 - len(block)))
  bh, bw = block
  b, h, w = padded.shape[:3]
  out = np.zeros((b * bh * bw, h // bh, w // bw) + padded.shape[3:], x.dtype)
  for oh in range(bh):
    for ow in range(bw):
      out[(oh * bw + ow) * b:(oh * bw + ow + 1) * b] = padded[:, oh::bh, ow::bw]
  return out


def test_space_to_batch_and_back():
  x = rand(2, 4, 6, 3)
  with tf.Graph().as_default():
    fed = tf.placeholder(tf.float32, [None, 4, None, 3])
    s2b = tf.space_to_batch_nd(x, [2, 3], [[0, 0], [1, 2]])
    round_trip = tf.batch_to_space_nd(s2b, [2, 3], [[0, 0], [1, 2]])
    got = run([s2b, round_trip, tf.space_to_batch(x, [[0, 0], [2, 0]], block_size=2),
               tf.space_to_batch_nd(fed, [2, 3], [[0, 0], [1, 2]])], {fed: x})
    with pytest.raises(ValueError, match="not divisible by block_shape"):
      tf.space_to_batch_nd(x, [3, 3], [[0, 0], [0, 0]])
  np.testing.assert_array_equal(got[0], space_to_batch_ref(x, [2, 3], [[0, 0], [1, 2]]))
  np.testing.assert_array_equal(got[1], x)
  np.testing.assert_array_equal(got[2], space_to_batch_ref(x, [2, 2], [[0, 0], [2, 0]]))
  np.testing.assert_array_equal(got[3], got[0])


def test_space_to_depth_and_back():
  x = rand(2, 4, 6, 3)
  with tf.Graph().as_default():
    s2d = tf.space_to_depth(x, 2)
    got = run([s2d, tf.nn.depth_to_space(s2d, 2)])
    with pytest.raises(ValueError, match="divisible by block_size"):
      tf.space_to_depth(rand(1, 3, 4, 1), 2)
    with pytest.raises(ValueError, match="only NHWC"):
      tf.space_to_depth(x, 2, data_format="NCHW")
  want = np.zeros((2, 2, 3, 12), np.float32)
  for i in range(2):
    for j in range(2):
      want[..., (i * 2 + j) * 3:(i * 2 + j + 1) * 3] = x[:, i::2, j::2]
  np.testing.assert_array_equal(got[0], want)
  np.testing.assert_array_equal(got[1], x)


def test_in_top_k():
  p = RNG.rand(5, 6).astype(np.float32)
  p[1, 2] = p[1, 4]  # a tie
  p[3, 0] = np.nan
  targets = np.array([2, 4, 1, 3, 9])
  with tf.Graph().as_default():
    got = run([tf.nn.in_top_k(p, targets, k) for k in (1, 2, 3)]
              + [tf.math.in_top_k(p, tf.constant(targets, tf.int64), 2)])
  for k, row_result in zip((1, 2, 3, 2), got):
    want = []
    for row, t in zip(p, targets):
      if not 0 <= t < 6 or not np.all(np.isfinite(row)):
        want.append(False)
      else:
        want.append(np.sum(row > row[t]) < k)
    np.testing.assert_array_equal(row_result, want)


def test_convolution_pool_atrous_conv1d_transpose():
  x, x3 = rand(2, 6, 6, 3), rand(2, 9, 3)
  f, ft = rand(3, 3, 3, 2), rand(3, 4, 3)
  with tf.Graph().as_default():
    got = run([tf.nn.convolution(x, f, "SAME", dilation_rate=[2, 1]),
               tf.nn.convolution(x3, f[0], "VALID", strides=[2]),
               tf.nn.pool(x, [2, 2], "MAX", "SAME", strides=[2, 2]),
               tf.nn.pool(x3, [3], "AVG", "VALID"),
               tf.nn.atrous_conv2d(x, f, 2, "SAME"),
               tf.nn.conv1d_transpose(x3, ft, [2, 18, 4], 2)])
    with pytest.raises(ValueError, match="cannot be less than one"):
      tf.nn.atrous_conv2d(x, f, 0, "SAME")
    with pytest.raises(NotImplementedError, match="dilated pooling"):
      tf.nn.pool(x, [2, 2], "MAX", "SAME", dilation_rate=[2, 2])
  np.testing.assert_allclose(got[0], conv_ref(x, f, (1, 1), "SAME", (2, 1)), rtol=1e-4,
                             atol=1e-5)
  np.testing.assert_allclose(got[1], conv_ref(x3[:, None], f[:1], (1, 2), "VALID")[:, 0],
                             rtol=1e-4, atol=1e-5)
  np.testing.assert_allclose(got[2], pool_ref(x, (2, 2), (2, 2), "SAME", "max"), rtol=1e-6)
  np.testing.assert_allclose(got[3], pool_ref(x3[:, None], (1, 3), (1, 1), "VALID",
                                              "avg")[:, 0], rtol=1e-5)
  np.testing.assert_allclose(got[4], conv_ref(x, f, (1, 1), "SAME", (2, 2)), rtol=1e-4,
                             atol=1e-5)
  template = np.zeros((2, 1, 18, 4), np.float32)
  want = conv_grads_ref(template, ft[None], x3[:, None], (1, 2), "SAME")[0][:, 0]
  np.testing.assert_allclose(got[5], want, rtol=1e-4, atol=1e-5)
