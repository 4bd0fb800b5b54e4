"""Variables created inside a Defun (lifted into the calling graph as TF 1.15
does) and SymbolicGradient, the op TF 1.x writes for the gradient of a
function call: TF-written graphs (tests/fixtures/functions/defun_grad.pb,
tools/make_function_fixtures.py) run with TF's values, the same model built
by tfc gives them too, gradients against finite differences, bad cases."""
import importlib.util
import os
import pathlib

import numpy as np
import pytest

import tfc as tf
from tfc.framework import function

REPO = pathlib.Path(__file__).resolve().parents[2]
FIX = REPO / "tests" / "fixtures" / "functions"


def _tool():
  spec = importlib.util.spec_from_file_location("make_function_fixtures",
                                                REPO / "tools" / "make_function_fixtures.py")
  mod = importlib.util.module_from_spec(spec)
  spec.loader.exec_module(mod)
  return mod


def _tf_values(run):
  return {n: np.load(FIX / ("defun_grad_%d_out_%s_0.npy" % (run, n)))
          for n in ("p", "gx", "gy", "gw")}


def _feeds(tool, run):
  if run == 0:
    return tool.DEFUN_GRAD_X, tool.DEFUN_GRAD_Y
  return -tool.DEFUN_GRAD_Y, tool.DEFUN_GRAD_X * 2


def test_tf_symbolic_gradient_graph_runs_with_tf_values():
  gd = tf.GraphDef.FromString((FIX / "defun_grad.pb").read_bytes())
  sym = [n for n in gd.node if n.op == "SymbolicGradient"]
  assert sym, "the fixture must hold TF's SymbolicGradient nodes"
  fname = sym[0].attr["f"].func.name
  assert not any(gr.function_name == fname for gr in gd.library.gradient)
  tool = _tool()
  g = tf.Graph()
  with g.as_default():
    tf.import_graph_def(gd, name="")
    # the importer recorded a gradient function derived from the body
    grad_name = g._function_gradient(fname)
    assert grad_name is not None and grad_name in g._function_names()
    with tf.Session() as sess:
      for run in (0, 1):
        x, y = _feeds(tool, run)
        got = sess.run(["p:0", "gx:0", "gy:0", "gw:0"], {"x:0": x, "y:0": y})
        for n, v in zip(("p", "gx", "gy", "gw"), got):
          np.testing.assert_allclose(v, _tf_values(run)[n], rtol=1e-5, atol=1e-6, err_msg=n)
    # the graph, gradient function included, exports and imports again
    gd2 = g.as_graph_def()
  g2 = tf.Graph()
  with g2.as_default():
    tf.import_graph_def(gd2, name="")
    with tf.Session() as sess:
      x, y = _feeds(tool, 0)
      np.testing.assert_allclose(sess.run("gw:0", {"x:0": x, "y:0": y}), _tf_values(0)["gw"],
                                 rtol=1e-5, atol=1e-6)


def test_defun_variable_is_lifted_like_tensorflow():
  tool = _tool()
  g = tf.Graph()
  with g.as_default():
    fetches, w_read = tool.build_defun_grad(tf, tf, function)
    names = [v.name for v in tf.global_variables()]
    assert names == ["layer/w:0"]
    assert [v.name for v in tf.trainable_variables()] == ["layer/w:0"]
    assert w_read.name == "layer/w/read:0"
    call = g.get_tensor_by_name("p:0").op.inputs[0].op
    assert len(call.inputs) == 3 and call.inputs[2] is w_read
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      for run in (0, 1):
        x, y = _feeds(tool, run)
        got = sess.run(fetches, {"x:0": x, "y:0": y})
        for n, v in zip(("p", "gx", "gy", "gw"), got):
          np.testing.assert_allclose(v, _tf_values(run)[n], rtol=1e-5, atol=1e-6, err_msg=n)


def test_defun_variable_trains_and_is_shared_between_calls():
  g = tf.Graph()
  with g.as_default():
    @function.Defun(tf.float32)
    def scale(a):
      w = tf.get_variable("w", [], initializer=tf.constant_initializer(2.0))
      return a * w

    x = tf.constant([1.0, 3.0])
    with tf.variable_scope("s"):
      y1 = scale(x)
      y2 = scale(x * 2.0)   # the same function: the same variable
    assert [v.name for v in tf.global_variables()] == ["s/w:0"]
    w = tf.global_variables()[0]
    loss = tf.reduce_sum(y1) + tf.reduce_sum(y2)
    (gw,) = tf.gradients(loss, [w])
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      np.testing.assert_allclose(sess.run(gw), 12.0)   # 1 + 3 + 2 + 6
      sess.run(train)
      np.testing.assert_allclose(sess.run(w), 2.0 - 0.1 * 12.0, rtol=1e-6)
      np.testing.assert_allclose(sess.run(y1), [0.8, 2.4], rtol=1e-6)


def test_defun_resource_variable_is_read_outside_and_trains():
  g = tf.Graph()
  with g.as_default():
    @function.Defun(tf.float32)
    def f(a):
      v = tf.get_variable("v", [2], initializer=tf.constant_initializer([1.0, -1.0]),
                          use_resource=True)
      return tf.reduce_sum(a * v * v)

    x = tf.constant([3.0, 0.5])
    y = f(x)
    (v,) = tf.global_variables()
    assert v.name == "v:0" and v.op.type == "VarHandleOp"
    assert y.op.inputs[1].op.type == "ReadVariableOp"   # passed by value
    train = tf.train.MomentumOptimizer(0.5, 0.9).minimize(y)
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      np.testing.assert_allclose(sess.run(y), 3.5)
      sess.run(train)
      # dy/dv = 2 * a * v = [6, -1]
      np.testing.assert_allclose(sess.run(v), [1.0 - 3.0, -1.0 + 0.5], rtol=1e-6)


def test_defun_variable_gradient_matches_finite_differences():
  g = tf.Graph()
  with g.as_default():
    @function.Defun(tf.float64)
    def h(a):
      w = tf.get_variable("w", [3], tf.float64,
                          initializer=tf.constant_initializer([0.4, -0.7, 1.3]))
      return tf.tanh(a * w) * w

    x = tf.placeholder(tf.float64, [3])
    y = h(x)
    (w,) = tf.global_variables()
    (gw,) = tf.gradients(tf.reduce_sum(y), [w])
    xv = np.array([0.3, -1.2, 2.0])
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      got = sess.run(gw, {x: xv})
      w0 = sess.run(w)
      eps = 1e-6
      num = []
      for i in range(3):
        vals = []
        for s in (1, -1):
          e = np.zeros(3)
          e[i] = s * eps
          w.load(w0 + e, sess)
          vals.append(sess.run(tf.reduce_sum(y), {x: xv}))
        num.append((vals[0] - vals[1]) / (2 * eps))
  np.testing.assert_allclose(got, num, rtol=1e-6)


def _graph_with_symbolic_gradient(fname, add_function=True):
  """A GraphDef with a SymbolicGradient of library function `fname` (x -> x * x)."""
  g = tf.Graph()
  with g.as_default():
    @function.Defun(tf.float32, func_name=fname)
    def sq(a):
      return a * a
    x = tf.placeholder(tf.float32, [2], name="x")
    if add_function:
      sq(x)
    gd = g.as_graph_def()
  node = gd.node.add()
  node.name = "symgrad"
  node.op = "SymbolicGradient"
  node.input.extend(["x", "dy"])
  dy = gd.node.add()
  dy.name = "dy"
  dy.op = "Placeholder"
  dy.attr["dtype"].type = 1
  node.attr["Tin"].list.type.extend([1, 1])
  node.attr["Tout"].list.type.append(1)
  node.attr["f"].func.name = fname
  return gd


def test_symbolic_gradient_written_by_hand_runs():
  gd = _graph_with_symbolic_gradient("sq")
  g = tf.Graph()
  with g.as_default():
    tf.import_graph_def(gd, name="")
    with tf.Session() as sess:
      got = sess.run("symgrad:0", {"x:0": [1.5, -2.0], "dy:0": [1.0, 3.0]})
  np.testing.assert_allclose(got, [3.0, -12.0])


def test_symbolic_gradient_of_missing_function_names_the_node():
  gd = _graph_with_symbolic_gradient("sq", add_function=False)
  gd.node[-2].attr["f"].func.name = "nosuch"
  g = tf.Graph()
  with g.as_default():
    tf.import_graph_def(gd, name="")
    with tf.Session() as sess:
      with pytest.raises(tf.errors.InvalidArgumentError, match="nosuch") as e:
        sess.run("symgrad:0", {"x:0": [1.0, 2.0], "dy:0": [1.0, 1.0]})
  assert e.value.op is not None and e.value.op.name == "symgrad"


def test_symbolic_gradient_without_gradient_function_is_unimplemented():
  # made with the op directly (not imported): no gradient function recorded
  g = tf.Graph()
  with g.as_default():
    @function.Defun(tf.float32, func_name="cube")
    def cube(a):
      return a * a * a
    x = tf.placeholder(tf.float32, [2])
    cube(x)
    from tfc.framework.op_def_library import _apply_op
    op = _apply_op("SymbolicGradient", "sg", [[x, tf.ones([2])]],
                   {"Tin": [tf.float32, tf.float32], "Tout": [tf.float32], "f": "cube"})
    assert op.outputs[0].shape.as_list() == [2]
    with tf.Session() as sess:
      with pytest.raises(tf.errors.UnimplementedError, match="cube") as e:
        sess.run(op.outputs[0], {x: [1.0, 2.0]})
  assert e.value.op is not None and e.value.op.name == "sg"


def test_symbolic_gradient_with_wrong_arity_fails_cleanly():
  gd = _graph_with_symbolic_gradient("sq")
  node = [n for n in gd.node if n.name == "symgrad"][0]
  node.attr["Tout"].list.type.append(1)   # two outputs for one argument
  g = tf.Graph()
  with g.as_default():
    tf.import_graph_def(gd, name="")
    with tf.Session() as sess:
      with pytest.raises(tf.errors.InvalidArgumentError, match="symgrad"):
        sess.run("symgrad:0", {"x:0": [1.0, 2.0], "dy:0": [1.0, 1.0]})


if __name__ == "__main__":
  raise SystemExit(pytest.main([os.path.abspath(__file__), "-q"]))
