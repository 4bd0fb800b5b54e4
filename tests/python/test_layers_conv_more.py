"""tf.layers.conv2d_transpose, conv1d, separable_conv2d, max_pooling1d, average_pooling1d:
TF 1.15's variable names and shapes, output shapes, values against NumPy references, and
training through them."""
import numpy as np
import pytest

import tfc as tf
from test_conv_ops import conv_grads_ref, conv_ref, depthwise_ref, pool_ref

RNG = np.random.RandomState(5)


def rand(*shape):
  return RNG.uniform(-1, 1, shape).astype(np.float32)


def variables_by_name():
  return {v.op.name: v.shape.as_list() for v in tf.global_variables()}


@pytest.mark.parametrize("padding,strides,in_hw,out_hw", [
    ("same", (2, 2), (3, 4), (6, 8)), ("valid", (2, 2), (3, 4), (7, 9)),
    ("valid", (1, 1), (3, 3), (5, 5)), ("same", (1, 2), (3, 3), (3, 6))])
def test_conv2d_transpose(padding, strides, in_hw, out_hw):
  x = rand(2, in_hw[0], in_hw[1], 4)
  kernel = rand(3, 3, 5, 4)
  bias = rand(5)
  with tf.Graph().as_default():
    xp = tf.placeholder(tf.float32, [None, in_hw[0], in_hw[1], 4])
    y = tf.layers.conv2d_transpose(xp, 5, 3, strides=strides, padding=padding,
                                   kernel_initializer=tf.constant_initializer(kernel),
                                   bias_initializer=tf.constant_initializer(bias))
    assert y.shape.as_list() == [None, out_hw[0], out_hw[1], 5]
    assert variables_by_name() == {"conv2d_transpose/kernel": [3, 3, 5, 4],
                                   "conv2d_transpose/bias": [5]}
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      got = sess.run(y, {xp: x})
  # a transposed convolution is the input-gradient of the convolution that maps the
  # output shape back to the input shape
  template = np.zeros((2, out_hw[0], out_hw[1], 5), np.float32)
  want = conv_grads_ref(template, kernel, x, strides, padding.upper())[0] + bias
  np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


def test_conv2d_transpose_unknown_spatial_size_and_reuse():
  with tf.Graph().as_default():
    xp = tf.placeholder(tf.float32, [None, None, None, 2])
    y = tf.layers.conv2d_transpose(xp, 3, (2, 2), strides=(2, 2), name="up", use_bias=False)
    y2 = tf.layers.conv2d_transpose(xp, 3, (2, 2), strides=(2, 2), name="up", reuse=True,
                                    use_bias=False)
    assert y.shape.as_list() == [None, None, None, 3]
    assert len(tf.global_variables()) == 1
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      a, b = sess.run([y, y2], {xp: np.ones((1, 3, 5, 2), np.float32)})
    assert a.shape == (1, 6, 10, 3)
    np.testing.assert_array_equal(a, b)
    with pytest.raises(ValueError, match="expected ndim=4"):
      tf.layers.conv2d_transpose(tf.zeros([2, 3]), 3, 2)


def test_conv2d_transpose_decoder_trains():
  target = rand(4, 8, 8, 1)
  with tf.Graph().as_default():
    code = tf.constant(rand(4, 2, 2, 8))
    h = tf.layers.conv2d_transpose(code, 8, 3, strides=2, padding="same",
                                   activation=tf.nn.relu)
    out = tf.layers.conv2d_transpose(h, 1, 3, strides=2, padding="same")
    loss = tf.reduce_mean(tf.square(out - target))
    step = tf.train.AdamOptimizer(0.01).minimize(loss)
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      first = sess.run(loss)
      for _ in range(300):
        sess.run(step)
      assert sess.run(loss) < first / 5


@pytest.mark.parametrize("padding,strides,dilation", [("valid", 1, 1), ("same", 2, 1),
                                                      ("same", 1, 2)])
def test_conv1d_layer(padding, strides, dilation):
  x, kernel, bias = rand(2, 10, 3), rand(3, 3, 4), rand(4)
  with tf.Graph().as_default():
    y = tf.layers.conv1d(x, 4, 3, strides=strides, padding=padding, dilation_rate=dilation,
                         kernel_initializer=tf.constant_initializer(kernel),
                         bias_initializer=tf.constant_initializer(bias))
    assert variables_by_name() == {"conv1d/kernel": [3, 3, 4], "conv1d/bias": [4]}
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      got = sess.run(y)
  want = conv_ref(x[:, None], kernel[None], (1, strides), padding.upper(),
                  (1, dilation))[:, 0] + bias
  np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
  assert y.shape.as_list() == list(want.shape)


def test_conv1d_channels_first_is_refused_on_cpu_as_in_tf():
  # channels_first becomes an NCHW Conv2D, which TF's CPU kernels (and tfc's) refuse
  with tf.Graph().as_default():
    y = tf.layers.conv1d(rand(2, 3, 10), 4, 3, data_format="channels_first")
    assert y.shape.as_list() == [2, 4, 8]
    assert variables_by_name()["conv1d/kernel"] == [3, 3, 4]
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      with pytest.raises(tf.errors.UnimplementedError, match="NHWC"):
        sess.run(y)


@pytest.mark.parametrize("kind", ["max", "average"])
def test_pooling1d_layers(kind):
  x = rand(2, 9, 3)
  fn = tf.layers.max_pooling1d if kind == "max" else tf.layers.average_pooling1d
  with tf.Graph().as_default():
    got = tf.Session().run([fn(x, 2, 2), fn(x, 3, 2, padding="same")])
  ref_kind = "max" if kind == "max" else "avg"
  np.testing.assert_allclose(got[0], pool_ref(x[:, None], (1, 2), (1, 2), "VALID",
                                              ref_kind)[:, 0], rtol=1e-5)
  np.testing.assert_allclose(got[1], pool_ref(x[:, None], (1, 3), (1, 2), "SAME",
                                              ref_kind)[:, 0], rtol=1e-5)


@pytest.mark.parametrize("padding,strides,dilation", [("valid", (1, 1), (1, 1)),
                                                      ("same", (2, 2), (1, 1)),
                                                      ("same", (1, 1), (2, 2))])
def test_separable_conv2d_layer(padding, strides, dilation):
  x = rand(2, 7, 7, 3)
  dw, pw, bias = rand(3, 3, 3, 2), rand(1, 1, 6, 5), rand(5)
  with tf.Graph().as_default():
    y = tf.layers.separable_conv2d(x, 5, 3, strides=strides, padding=padding,
                                   dilation_rate=dilation, depth_multiplier=2,
                                   depthwise_initializer=tf.constant_initializer(dw),
                                   pointwise_initializer=tf.constant_initializer(pw),
                                   bias_initializer=tf.constant_initializer(bias))
    assert variables_by_name() == {"separable_conv2d/depthwise_kernel": [3, 3, 3, 2],
                                   "separable_conv2d/pointwise_kernel": [1, 1, 6, 5],
                                   "separable_conv2d/bias": [5]}
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      got = sess.run(y)
  want = conv_ref(depthwise_ref(x, dw, strides, padding.upper(), dilation), pw, (1, 1),
                  "VALID") + bias
  np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
