"""tf.make_template: variables made by the first call, shared by the later ones; scope
naming (unique, create_scope_now_, unique_name_); TF's error for new trainable
variables after the first call."""
import numpy as np
import pytest

import tfc as tf


def linear(x, units, scale=1.0):
  w = tf.get_variable("w", [int(x.shape[-1]), units],
                      initializer=tf.constant_initializer(scale))
  return tf.matmul(x, w)


def test_calls_share_the_first_calls_variables():
  with tf.Graph().as_default():
    layer = tf.make_template("linear", linear, units=2, scale=0.5)
    a = layer(tf.ones([1, 3]))
    b = layer(tf.ones([4, 3]) * 2)
    other = tf.make_template("linear", linear, units=2)
    other(tf.ones([1, 3]))
    assert [v.op.name for v in tf.global_variables()] == ["linear/w", "linear_1/w"]
    assert layer.variable_scope_name == "linear/" and other.variable_scope_name == "linear_1/"
    assert [v.op.name for v in layer.trainable_variables] == ["linear/w"]
    assert layer.name == "linear" and layer.non_trainable_variables == []
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      av, bv = sess.run([a, b])
  np.testing.assert_allclose(av, [[1.5, 1.5]])
  np.testing.assert_allclose(bv, np.full((4, 2), 3.0))


def test_scope_options():
  with tf.Graph().as_default():
    early = tf.make_template("net", linear, create_scope_now_=True, units=1)
    assert early.variable_scope_name == "net/"
    with tf.variable_scope("outer"):
      early(tf.ones([1, 2]))
    named = tf.make_template("ignored", linear, unique_name_="exact", units=1)
    named(tf.ones([1, 2]))
    assert sorted(v.op.name for v in tf.global_variables()) == ["exact/w", "net/w"]


def test_new_trainable_variable_after_the_first_call_is_refused():
  def leaky(x):
    return x * tf.Variable(1.0)

  with tf.Graph().as_default():
    template = tf.make_template("leaky", leaky)
    template(tf.ones([2]))
    with pytest.raises(ValueError, match="Trainable variable created when calling a template "
                                         "after the first time"):
      template(tf.ones([2]))
    with pytest.raises(ValueError, match="name cannot be None"):
      tf.make_template(None, leaky)
