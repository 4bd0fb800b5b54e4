"""Gradients of functional While/StatelessWhile ops (TF 2.x's loops, as
imported GraphDefs hold them): against TensorFlow's own gradient of a
TF-written graph (tools/make_while_grad_fixtures.py: loops with captures, a
cond and a nested loop in the body), and by finite differences on While ops
built here over Defun functions."""
import pathlib

import numpy as np
import pytest

import tfc as tf
from tfc.framework import function
from tfc.framework import op_def_library

FIX = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "functions"


def test_gradients_of_a_tf_written_graph_match_tensorflow():
  fix = np.load(FIX / "while_grad.npz")
  gd = tf.GraphDef.FromString((FIX / "while_grad.pb").read_bytes())
  with tf.Graph().as_default() as g:
    tf.import_graph_def(gd, name="")
    assert "StatelessWhile" in {op.type for op in g.get_operations()}
    x, s, n, y = (g.get_tensor_by_name(t) for t in ("x:0", "s:0", "n:0", "y:0"))
    dx, ds = tf.gradients(y, [x, s])
    with tf.Session() as sess:
      for r in range(3):
        feed = {x: fix["r%d:x" % r], s: fix["r%d:s" % r], n: fix["r%d:n" % r]}
        yv, dxv, dsv = sess.run([y, dx, ds], feed)
        np.testing.assert_allclose(yv, fix["r%d:y" % r], rtol=1e-6)
        np.testing.assert_allclose(dxv, fix["r%d:dx" % r], rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(dsv, fix["r%d:ds" % r], rtol=1e-5, atol=1e-6)


def _while(op_type, cond, body, inputs):
  """A functional While op over Defun functions cond and body."""
  g = tf.get_default_graph()
  types = [t.dtype.base_dtype for t in inputs]
  return op_def_library._apply_op(op_type, "loop", [list(inputs)],
                                  {"T": types, "cond": cond.add_to_graph(g).name,
                                   "body": body.add_to_graph(g).name}, graph=g).outputs


@pytest.mark.parametrize("op_type", ["While", "StatelessWhile"])
def test_finite_differences_of_a_loop_with_a_counter_and_two_tensors(op_type):
  @function.Defun(tf.int32, tf.float64, tf.float64, tf.int32)
  def cond(i, a, b, n):
    return i < n

  @function.Defun(tf.int32, tf.float64, tf.float64, tf.int32)
  def body(i, a, b, n):
    return i + 1, tf.sin(a) * b + 0.3 * a, b * 0.9 + tf.reduce_sum(a * a) * 0.1, n

  with tf.Graph().as_default():
    x = tf.placeholder(tf.float64, [3])
    w = tf.placeholder(tf.float64, [])
    n = tf.placeholder(tf.int32, [])
    i, a, b, _ = _while(op_type, cond, body, [tf.constant(0), x, w, n])
    y = tf.reduce_sum(a * a) + b * b
    gi, gn = tf.gradients(y, [i, n])
    assert gi is None and gn is None
    with tf.Session() as sess:
      for steps in (0, 1, 4):
        x0, w0 = np.array([0.4, -0.7, 1.2]), np.array(0.8)
        (tx, nx), (tw, nw) = tf.test.compute_gradient(
            [x, w], [[3], []], y, [], x_init_value=[x0, w0], delta=1e-6, extra_feed_dict={n: steps})
        assert np.max(np.abs(tx - nx)) < 1e-6, (steps, tx, nx)
        assert np.max(np.abs(tw - nw)) < 1e-6, (steps, tw, nw)
        assert sess.run(i, {x: x0, w: w0, n: steps}) == steps


def test_unused_outputs_and_two_gradient_requests_over_one_loop():
  """Outputs that the loss does not use get zero gradients; two gradient
  requests over one loop share the gradient functions."""
  @function.Defun(tf.int32, tf.float32, tf.float32)
  def cond(i, a, b):
    return i < 3

  @function.Defun(tf.int32, tf.float32, tf.float32)
  def body(i, a, b):
    return i + 1, a * 2.0, b + a

  with tf.Graph().as_default():
    x = tf.placeholder(tf.float32, [])
    _, a, b = _while("StatelessWhile", cond, body, [tf.constant(0), x, x * 0.0])
    ga, = tf.gradients(a, [x])
    gb, = tf.gradients(b, [x])
    with tf.Session() as sess:
      # a = 8x, b = x + 2x + 4x = 7x
      assert sess.run([ga, gb], {x: 1.5}) == [8.0, 7.0]


def test_variable_read_in_the_body_gets_the_summed_gradient():
  """A resource variable captured by the loop (a resource loop variable, as TF 2
  builds them) gets its gradient summed over the iterations, plus the gradient
  of its reads outside; equal to the v1 loop's, and a training step applies it."""
  from tfc.ops import resource_variable_ops

  @function.Defun(tf.int32, tf.float32, tf.resource)
  def cond(i, a, h):
    return i < 3

  @function.Defun(tf.int32, tf.float32, tf.resource)
  def body(i, a, h):
    w = resource_variable_ops.read_variable_op(h, tf.float32)
    return i + 1, tf.sin(a) * w + a, h

  with tf.Graph().as_default():
    v = tf.Variable(np.array([0.5, -1.0, 2.0], np.float32), use_resource=True, name="v")
    x = tf.placeholder(tf.float32, [3])
    _, a, _ = _while("While", cond, body, [tf.constant(0), x, v.handle])
    y = tf.reduce_sum(a * a) + tf.reduce_sum(v * 0.25)
    gx, gv = tf.gradients(y, [x, v])
    _, r = tf.while_loop(lambda i, b: i < 3, lambda i, b: (i + 1, tf.sin(b) * v.read_value() + b), [0, x])
    y1 = tf.reduce_sum(r * r) + tf.reduce_sum(v * 0.25)
    gx1, gv1 = tf.gradients(y1, [x, v])
    step = tf.train.GradientDescentOptimizer(0.1).minimize(y, var_list=[v])
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      feed = {x: [0.3, 0.1, -0.4]}
      got, want = sess.run([[gx, gv], [gx1, gv1]], feed)
      for a_, b_ in zip(got, want):
        np.testing.assert_allclose(a_, b_, rtol=1e-6)
      before = sess.run(v)
      sess.run(step, feed)
      np.testing.assert_allclose(sess.run(v), before - 0.1 * got[1], rtol=1e-6)


def test_rows_gathered_from_a_variable_in_the_body():
  """ResourceGather on a handle that is a function argument: its gradient takes
  the variable's shape at run time; summed over iterations as the v1 loop's."""
  @function.Defun(tf.int32, tf.float32, tf.resource)
  def cond(i, a, h):
    return i < 3

  @function.Defun(tf.int32, tf.float32, tf.resource)
  def body(i, a, h):
    row = op_def_library._apply_op("ResourceGather", "gather", [h, tf.reshape(i, [1])],
                                   {"dtype": tf.float32, "Tindices": tf.int32}).outputs[0]
    return i + 1, tf.sin(a) * row[0] + a, h

  with tf.Graph().as_default():
    v = tf.Variable(np.array([[0.5, -1.0], [2.0, 0.3], [1.0, 1.0]], np.float32), use_resource=True)
    x = tf.placeholder(tf.float32, [2])
    _, a, _ = _while("StatelessWhile", cond, body, [tf.constant(0), x, v.handle])
    gv, = tf.gradients(tf.reduce_sum(a * a), [v])
    _, r = tf.while_loop(lambda i, b: i < 3,
                         lambda i, b: (i + 1, tf.sin(b) * tf.gather(v, tf.reshape(i, [1]))[0] + b), [0, x])
    gv1, = tf.gradients(tf.reduce_sum(r * r), [v])
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      got, want = sess.run([gv, tf.convert_to_tensor(gv1)], {x: [0.3, -0.7]})
  np.testing.assert_allclose(got, want, rtol=1e-6)
