"""Gradients through tf.while_loop as TF 1.15 builds them (forward values on
StackV2 stacks, f_count/b_count counters, a gradient loop per forward loop):
simple loops, loop invariants, nested loops, conds inside loops, loops inside
conds, map_fn/scan/foldl, back_prop=False; every gradient checked by finite
differences and against closed forms."""
import numpy as np
import pytest

import tfc as tf


def _fd_check(build, x0, feed_fn=None, tol=1e-7):
  """The symbolic Jacobian against central differences (step 1e-6, float64)."""
  g = tf.Graph()
  with g.as_default():
    x = tf.placeholder(tf.float64, x0.shape)
    y = build(x)
    with tf.Session():
      extra = feed_fn(g) if feed_fn else None
      theo, num = tf.test.compute_gradient(x, list(x0.shape), y, y.shape.as_list(),
                                           x_init_value=x0, delta=1e-6, extra_feed_dict=extra)
  scale = max(1.0, float(np.max(np.abs(num))))
  err = float(np.max(np.abs(theo - num))) / scale
  assert err < tol, (err, theo, num)
  return err


def test_power_loop_gradient():
  g = tf.Graph()
  with g.as_default():
    x = tf.placeholder(tf.float32, [])
    _, r = tf.while_loop(lambda i, a: i < 4, lambda i, a: (i + 1, a * x), [0, tf.constant(1.0)])
    gx, = tf.gradients(r, x)
    ops = {op.type for op in g.get_operations()}
    assert {"StackV2", "StackPushV2", "StackPopV2"} <= ops
    names = [op.name for op in g.get_operations()]
    assert any(n.endswith("f_count") for n in names)
    assert any("b_count" in n for n in names)
    with tf.Session() as sess:
      rv, gv = sess.run([r, gx], {x: 1.5})
  assert np.isclose(rv, 1.5 ** 4)
  assert np.isclose(gv, 4 * 1.5 ** 3)


def test_loop_variable_and_invariant_gradients():
  g = tf.Graph()
  with g.as_default():
    x = tf.placeholder(tf.float64, [3])
    w = tf.placeholder(tf.float64, [3])
    _, r = tf.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, tf.sin(a) * w + a),
                         [0, x])
    y = tf.reduce_sum(r * r)
    gx, gw = tf.gradients(y, [x, w])
    xv = np.array([0.3, -0.5, 0.8])
    wv = np.array([1.2, 0.7, -0.4])
    with tf.Session() as sess:
      gxv, gwv = sess.run([gx, gw], {x: xv, w: wv})
      ex = tf.test.compute_gradient_error(x, [3], y, [], x_init_value=xv,
                                          extra_feed_dict={w: wv})
      ew = tf.test.compute_gradient_error(w, [3], y, [], x_init_value=wv,
                                          extra_feed_dict={x: xv})
  assert ex < 1e-3 and ew < 1e-3  # the checker's own central-difference error

  def f(xa, wa):
    for _ in range(3):
      xa = np.sin(xa) * wa + xa
    return np.sum(xa * xa)
  eps = 1e-6
  num = np.array([(f(xv + eps * e, wv) - f(xv - eps * e, wv)) / (2 * eps) for e in np.eye(3)])
  np.testing.assert_allclose(gxv, num, rtol=1e-6)
  num_w = np.array([(f(xv, wv + eps * e) - f(xv, wv - eps * e)) / (2 * eps) for e in np.eye(3)])
  np.testing.assert_allclose(gwv, num_w, rtol=1e-6)


@pytest.mark.parametrize("n", [0, 1, 5])
def test_iteration_count_fed(n):
  g = tf.Graph()
  with g.as_default():
    x = tf.placeholder(tf.float64, [2])
    k = tf.placeholder(tf.int32, [])
    _, r = tf.while_loop(lambda i, a: i < k, lambda i, a: (i + 1, a * a * 0.5 + a), [0, x])
    gx, = tf.gradients(tf.reduce_sum(r), x)
    xv = np.array([0.2, -0.3])
    with tf.Session() as sess:
      gv = sess.run(gx, {x: xv, k: n})
      err = tf.test.compute_gradient_error(x, [2], tf.reduce_sum(r), [], x_init_value=xv,
                                           extra_feed_dict={k: n})
  assert err < 1e-3  # the checker's central-difference error (step 1e-3)
  d = np.ones(2)
  a = xv.copy()
  for _ in range(n):
    d = d * (a + 1)
    a = a * a * 0.5 + a
  np.testing.assert_allclose(gv, d, rtol=1e-10)


def test_matmul_loop_with_unknown_shape():
  rs = np.random.RandomState(0)
  wv = rs.randn(4, 4) * 0.3

  def build(x):
    w = tf.constant(wv)
    _, h = tf.while_loop(lambda i, h: i < 5, lambda i, h: (i + 1, tf.tanh(tf.matmul(h, w))),
                         [0, x], shape_invariants=[tf.TensorShape([]), tf.TensorShape([None, 4])])
    return tf.reduce_sum(h)
  _fd_check(build, rs.randn(3, 4))


def test_nested_loops_gradient():
  def build(x):
    def outer_body(i, a):
      _, b = tf.while_loop(lambda j, b: j < i + 1, lambda j, b: (j + 1, tf.sin(b) + b * 0.5),
                           [0, a])
      return i + 1, b * 1.1
    _, r = tf.while_loop(lambda i, a: i < 3, outer_body, [0, x])
    return tf.reduce_sum(r)
  _fd_check(build, np.array([0.3, -0.2, 0.9]))


def test_cond_inside_loop_gradient():
  def build(x):
    def body(i, a):
      a = tf.cond(tf.equal(i % 2, 0), lambda: a * a, lambda: tf.sin(a) + 1.0)
      return i + 1, a
    _, r = tf.while_loop(lambda i, a: i < 4, body, [0, x])
    return tf.reduce_sum(r)
  _fd_check(build, np.array([0.3, 0.6]))


def test_cond_on_data_inside_loop_gradient():
  def build(x):
    def body(i, a):
      a = tf.cond(tf.reduce_sum(a) > 1.0, lambda: a * 0.5, lambda: a * 3.0 + tf.sin(a))
      return i + 1, a
    _, r = tf.while_loop(lambda i, a: i < 5, body, [0, x])
    return tf.reduce_sum(r)
  _fd_check(build, np.array([0.1, 0.2]))


@pytest.mark.parametrize("taken", [True, False])
def test_loop_inside_cond_gradient(taken):
  holder = {}

  def build(x):
    p = tf.placeholder(tf.bool, [])
    holder["p"] = p
    r = tf.cond(p, lambda: tf.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, a * 1.5 + tf.sin(a)),
                                         [0, x])[1],
                lambda: x * x)
    return tf.reduce_sum(r)
  _fd_check(build, np.array([0.4, -0.1]), lambda g: {holder["p"]: taken})


def test_loop_output_used_twice_and_unused_exit():
  g = tf.Graph()
  with g.as_default():
    x = tf.placeholder(tf.float64, [])
    i, a, b = tf.while_loop(lambda i, a, b: i < 3, lambda i, a, b: (i + 1, a * x, b + a),
                            [0, tf.constant(1.0, tf.float64), tf.constant(0.0, tf.float64)])
    # only b is used: a's exit is unused but a feeds b
    gx, = tf.gradients(b, x)
    gx2, = tf.gradients(a * b, x)
    with tf.Session() as sess:
      v, v2 = sess.run([gx, gx2], {x: 2.0})
  # b = 1 + x + x^2 ; a = x^3
  assert np.isclose(v, 1 + 2 * 2.0)
  assert np.isclose(v2, 3 * 4.0 * 7.0 + 8.0 * 5.0)


def test_back_prop_false_gives_none():
  g = tf.Graph()
  with g.as_default():
    x = tf.placeholder(tf.float32, [])
    r = tf.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, a * x), [0, x], back_prop=False)
    assert tf.gradients(r[1], x) == [None]


def test_swap_memory_and_parallel_iterations_accepted():
  for par in (1, 10):
    def build(x, par=par):
      _, r = tf.while_loop(lambda i, a: i < 6, lambda i, a: (i + 1, tf.tanh(a) * 2.0),
                           [0, x], parallel_iterations=par, swap_memory=True)
      return tf.reduce_sum(r)
    _fd_check(build, np.array([0.1, 0.5, -0.3]))


def test_maximum_iterations_gradient():
  def build(x):
    _, r = tf.while_loop(lambda i, a: i < 100, lambda i, a: (i + 1, a * 1.1 + tf.sin(a)),
                         [0, x], maximum_iterations=3)
    return tf.reduce_sum(r)
  _fd_check(build, np.array([0.2, 0.3]))


def test_training_a_variable_through_a_loop():
  g = tf.Graph()
  with g.as_default():
    w = tf.Variable(0.5, dtype=tf.float64)
    _, r = tf.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, a * w),
                         [0, tf.constant(1.0, tf.float64)])
    loss = (r - 8.0) ** 2
    train = tf.train.GradientDescentOptimizer(0.001).minimize(loss)
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      wv = 0.5
      for _ in range(50):
        sess.run(train)
        wv -= 0.001 * 2 * (wv ** 3 - 8.0) * 3 * wv ** 2
      assert abs(sess.run(w) - wv) < 1e-7


def test_map_fn_scan_foldl_gradients():
  _fd_check(lambda x: tf.reduce_sum(tf.map_fn(lambda e: tf.sin(e) * e, x)), np.array([0.1, 0.7, -0.4]))
  _fd_check(lambda x: tf.reduce_sum(tf.scan(lambda a, e: a * e + tf.sin(e), x)),
            np.array([0.5, 1.1, -0.3, 0.8]))
  _fd_check(lambda x: tf.foldl(lambda a, e: a * e + 1.0, x), np.array([0.5, 1.1, -0.3]))
  _fd_check(lambda x: tf.foldr(lambda a, e: a * tf.cos(e), x, initializer=tf.constant(2.0, tf.float64)),
            np.array([0.5, 1.1, -0.3]))


def test_stack_kernels_errors():
  from tfc.framework.op_def_library import _apply_op
  g = tf.Graph()
  with g.as_default():
    h = _apply_op("StackV2", "s", [tf.constant(1)], {"elem_type": tf.float32}).outputs[0]
    p1 = _apply_op("StackPushV2", None, [h, tf.constant(1.0)]).outputs[0]
    with tf.control_dependencies([p1]):
      p2 = _apply_op("StackPushV2", "push2", [h, tf.constant(2.0)]).outputs[0]
    with tf.control_dependencies([p1]):
      pop = _apply_op("StackPopV2", "pop", [h], {"elem_type": tf.float32}).outputs[0]
      with tf.control_dependencies([pop]):
        pop2 = _apply_op("StackPopV2", "pop2", [h], {"elem_type": tf.float32}).outputs[0]
    with tf.Session() as sess:
      assert sess.run(pop) == 1.0
      with pytest.raises(tf.errors.InvalidArgumentError, match="overflowed its max_size"):
        sess.run(p2)
      with pytest.raises(tf.errors.InvalidArgumentError, match="is empty") as e:
        sess.run(pop2)
      assert "pop2" in str(e.value)


def test_meta_graph_from_tensorflow_with_loop_contexts_differentiates():
  """TF's while_context/cond_context collections restore the contexts, so
  tf.gradients works on the imported loops and gives TF's values."""
  import pathlib
  fix = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "rnn"
  data = np.load(fix / "while_cond.npz")
  g = tf.Graph()
  with g.as_default():
    tf.train.import_meta_graph(str(fix / "while_cond.meta"))
    whiles = tf.get_collection("while_context")
    conds = tf.get_collection("cond_context")
    assert len(whiles) == 1 and len(conds) == 2
    assert whiles[0].name == "while/while_context"
    assert g.get_operation_by_name("while/cond/Merge")._get_control_flow_context() is not None
    x, y = g.get_tensor_by_name("x:0"), g.get_tensor_by_name("y:0")
    gx, = tf.gradients(y, x)
    with tf.Session() as sess:
      yv, gv = sess.run([y, gx], {x: data["x"]})
  np.testing.assert_allclose(yv, data["y"], rtol=1e-5)
  np.testing.assert_allclose(gv, data["dy_dx"], rtol=1e-5)


def test_meta_graph_round_trip_of_contexts():
  g = tf.Graph()
  with g.as_default():
    x = tf.placeholder(tf.float64, [2], name="x")

    def body(i, a):
      a = tf.cond(a[0] > 0.0, lambda: a * 2.0, lambda: a - 1.0)
      _, a = tf.while_loop(lambda j, b: j < 2, lambda j, b: (j + 1, tf.sin(b) + b), [0, a])
      return i + 1, a
    _, r = tf.while_loop(lambda i, a: i < 3, body, [0, x], maximum_iterations=5)
    tf.reduce_sum(r, name="y")
    mg = tf.train.export_meta_graph()
  from tfc import protos
  wd = protos.WhileContextDef.FromString(mg.collection_def["while_context"].bytes_list.value[0])
  assert wd.context_name == "while/while_context"
  assert wd.pivot_name == "while/LoopCond:0" and wd.maximum_iterations_name
  kinds = sorted(n.WhichOneof("ctxt") for n in wd.nested_contexts)
  assert kinds == ["cond_ctxt", "cond_ctxt", "while_ctxt"]  # the cond's branches, the inner loop
  g2 = tf.Graph()
  with g2.as_default():
    tf.train.import_meta_graph(mg, import_scope="imp")
    x2, y2 = g2.get_tensor_by_name("imp/x:0"), g2.get_tensor_by_name("imp/y:0")
    assert tf.get_collection("while_context")[0].name == "imp/while/while_context"
    gx, = tf.gradients(y2, x2)
    with tf.Session() as sess:
      for xv in ([0.3, 0.5], [-0.2, 0.4]):
        theo, num = tf.test.compute_gradient(x2, [2], y2, [], x_init_value=np.array(xv),
                                             delta=1e-6)
        np.testing.assert_allclose(theo, num, rtol=1e-6, atol=1e-8)


def test_parallel_iterations_keep_pushes_and_pops_in_order():
  """A long loop over TensorArrays with 32 iterations in flight on 2 threads:
  the same gradient every run, equal to central differences."""
  rs = np.random.RandomState(0)
  xv, xsv = rs.randn(16) * 0.5, rs.randn(100, 16) * 0.5
  g = tf.Graph()
  with g.as_default():
    x = tf.placeholder(tf.float64, [16])
    xs = tf.placeholder(tf.float64, [100, 16])
    ta = tf.TensorArray(tf.float64, size=100).unstack(xs)

    def body(i, a, out):
      a = tf.sin(a) * ta.read(i) + a * 0.5
      return i + 1, a, out.write(i, a * a)
    _, r, out = tf.while_loop(lambda i, a, o: i < 100, body,
                              [0, x, tf.TensorArray(tf.float64, size=100)],
                              parallel_iterations=32)
    y = tf.reduce_sum(r) + tf.reduce_sum(out.stack())
    gx, = tf.gradients(y, x)
    cfg = tf.ConfigProto(inter_op_parallelism_threads=2, intra_op_parallelism_threads=2)
    with tf.Session(config=cfg) as sess:
      runs = [sess.run(gx, {x: xv, xs: xsv}) for _ in range(5)]
  for v in runs[1:]:
    np.testing.assert_array_equal(v, runs[0])

  def f(xa):
    tot = 0.0
    for i in range(100):
      xa = np.sin(xa) * xsv[i] + xa * 0.5
      tot += np.sum(xa * xa)
    return tot + np.sum(xa)
  eps = 1e-6
  num = np.array([(f(xv + eps * e) - f(xv - eps * e)) / (2 * eps) for e in np.eye(16)])
  np.testing.assert_allclose(runs[0], num, rtol=1e-6, atol=1e-9)


def test_graph_def_round_trip_of_a_gradient_loop():
  g = tf.Graph()
  with g.as_default():
    x = tf.placeholder(tf.float32, [3], name="x")

    def body(i, a):
      a = tf.cond(a[0] > 0.0, lambda: a * 1.5, lambda: tf.sin(a) - 1.0)
      _, a = tf.while_loop(lambda j, b: j < i + 1, lambda j, b: (j + 1, tf.tanh(b) + b * 0.5),
                           [0, a])
      return i + 1, a
    _, r = tf.while_loop(lambda i, a: i < 3, body, [0, x])
    gx, = tf.gradients(tf.reduce_sum(r), x)
    gd = g.as_graph_def()
    with tf.Session() as sess:
      ref = sess.run(gx, {x: [0.4, -0.3, 0.9]})
  with tf.Graph().as_default():
    out, = tf.import_graph_def(gd, return_elements=[gx.name], name="")
    with tf.Session() as sess:
      np.testing.assert_array_equal(sess.run(out, {"x:0": [0.4, -0.3, 0.9]}), ref)
