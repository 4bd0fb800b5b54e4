"""tf.layers classes (Dense, Conv1D/2D, Conv2DTranspose, SeparableConv2D,
BatchNormalization, pooling, Dropout, Flatten, Layer, InputSpec): TF 1.15's scope and
variable names, weights shared between calls, the same values as the functional forms,
updates and losses, subclassing."""
import numpy as np
import pytest

import tfc as tf

RNG = np.random.RandomState(4)


def test_dense_shares_its_variables_across_calls():
  with tf.Graph().as_default():
    x1 = tf.placeholder(tf.float32, [None, 4])
    x2 = tf.placeholder(tf.float32, [None, 4])
    layer = tf.layers.Dense(3, activation=tf.nn.relu, kernel_regularizer=tf.nn.l2_loss)
    y1, y2 = layer(x1), layer(x2)
    assert [v.op.name for v in layer.variables] == ["dense/kernel", "dense/bias"]
    assert layer.kernel.op.name == "dense/kernel" and layer.bias.shape.as_list() == [3]
    assert y1.op.name == "dense/Relu" and y2.op.name == "dense_1/Relu"
    assert len(tf.global_variables()) == 2 and len(layer.losses) == 1
    assert layer.trainable_variables == layer.variables and layer.name == "dense"
    other = tf.layers.Dense(2, name="head")
    other(x1)
    assert [v.op.name for v in other.variables] == ["head/kernel", "head/bias"]
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      value = RNG.rand(5, 4).astype(np.float32)
      a, b, k, bias = sess.run([y1, y2, layer.kernel, layer.bias], {x1: value, x2: value})
  np.testing.assert_array_equal(a, b)
  np.testing.assert_allclose(a, np.maximum(value @ k + bias, 0), rtol=1e-5)


@pytest.mark.parametrize("cls,fn,args,shape", [
    ("Conv2D", "conv2d", (4, 3), [2, 6, 6, 3]),
    ("Conv1D", "conv1d", (4, 3), [2, 9, 3]),
    ("Conv2DTranspose", "conv2d_transpose", (4, 3), [2, 3, 3, 3]),
    ("SeparableConv2D", "separable_conv2d", (4, 3), [2, 6, 6, 3]),
    ("MaxPooling2D", "max_pooling2d", (2, 2), [2, 6, 6, 3]),
    ("AveragePooling1D", "average_pooling1d", (2, 1), [2, 9, 3]),
    ("Flatten", "flatten", (), [2, 3, 3, 2])])
def test_class_equals_functional_form(cls, fn, args, shape):
  x = RNG.rand(*shape).astype(np.float32)
  with tf.Graph().as_default():
    layer = getattr(tf.layers, cls)(*args)
    out = layer(x)
    names = [v.op.name for v in tf.global_variables()]
    with tf.variable_scope("functional"):
      ref = getattr(tf.layers, fn)(x, *args)
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      for v in layer.variables:  # give the class's variables the functional form's values
        twin = [w for w in tf.global_variables()
                if w.op.name == "functional/" + v.op.name.replace(layer.name, fn, 1)]
        sess.run(v.assign(sess.run(twin[0])))
      got, want = sess.run([out, ref])
  np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
  assert layer.name == fn
  assert all(n.startswith(fn + "/") for n in names)


def test_batch_normalization_updates_and_training_flag():
  x = RNG.randn(8, 3).astype(np.float32) * 2 + 1
  with tf.Graph().as_default():
    bn = tf.layers.BatchNormalization(momentum=0.5)
    training = tf.placeholder(tf.bool, [])
    out = bn(x, training=training)
    assert [v.op.name for v in bn.variables] == [
        "batch_normalization/gamma", "batch_normalization/beta",
        "batch_normalization/moving_mean", "batch_normalization/moving_variance"]
    assert [v.op.name for v in bn.trainable_variables] == ["batch_normalization/gamma",
                                                           "batch_normalization/beta"]
    assert bn.moving_mean.op.name == "batch_normalization/moving_mean"
    assert len(bn.updates) == 2
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      normalized = sess.run(out, {training: True})
      sess.run(bn.updates, {training: True})
      np.testing.assert_allclose(normalized.mean(0), 0, atol=1e-5)
      np.testing.assert_allclose(sess.run(bn.moving_mean), x.mean(0) * 0.5, rtol=1e-4)


def test_dropout_and_pooling_have_no_variables():
  with tf.Graph().as_default():
    x = tf.ones([4, 100])
    drop = tf.layers.Dropout(0.5, seed=1)
    kept, test_time = drop(x, training=True), drop(x)
    assert drop.variables == [] and tf.global_variables() == []
    with tf.Session() as sess:
      k, t = sess.run([kept, test_time])
    assert set(np.unique(k)) <= {0.0, 2.0} and 0.3 < (k == 0).mean() < 0.7
    np.testing.assert_array_equal(t, 1.0)


def test_subclassing_layer_and_input_spec():
  class Scale(tf.layers.Layer):

    def build(self, input_shape):
      self.factor = self.add_weight("factor", [int(input_shape[-1])],
                                    initializer=tf.constant_initializer(3.0))

    def call(self, inputs):
      return inputs * self.factor

  with tf.Graph().as_default():
    layer = Scale()
    out = layer(tf.ones([2, 2]))
    again = layer(tf.ones([2, 2]))
    assert [v.op.name for v in layer.variables] == ["scale/factor"]
    assert out.op.name.startswith("scale/") and again.op.name.startswith("scale_1/")
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      np.testing.assert_array_equal(sess.run(again), 3.0)
  spec = tf.layers.InputSpec(ndim=4, axes={-1: 3})
  assert spec.ndim == 4 and spec.axes == {-1: 3} and "ndim=4" in repr(spec)
  with pytest.raises(TypeError, match="Keyword argument not understood"):
    tf.layers.Dense(3, bogus=1)
  with pytest.raises(ValueError, match="has not been used yet"):
    tf.layers.Dense(3).scope_name  # pylint: disable=expression-not-assigned
