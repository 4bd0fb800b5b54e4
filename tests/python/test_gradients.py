"""tf.gradients: finite-difference checks of every registered gradient, graph
structure (names, unconnected inputs, stop_gradient, aggregation, grad_ys),
the gradient registry and override map, and values recorded from TF."""
import numpy as np
import pytest

import tfc as tf

F64 = tf.float64


def _err(xs_shapes, build, y_shape=None, dtype=F64, inits=None, delta=1e-4, seed=0):
  """Max |theoretical - numerical| Jacobian difference for y = build(*xs)."""
  rng = np.random.RandomState(seed)
  g = tf.Graph()
  with g.as_default():
    xs = [tf.placeholder(dtype, s, name="x%d" % i) for i, s in enumerate(xs_shapes)]
    y = build(*xs)
    ys = y.get_shape().as_list() if y_shape is None else y_shape
    if inits is None:
      vals = [rng.uniform(0.2, 1.0, size=s) * rng.choice([-1, 1], size=s) for s in xs_shapes]
    else:
      vals = inits
    vals = [np.asarray(v, dtype=dtype.as_numpy_dtype).reshape(s) for v, s in zip(vals, xs_shapes)]
    with tf.Session(graph=g) as sess:
      with sess.as_default():
        return tf.test.compute_gradient_error(xs if len(xs) > 1 else xs[0],
                                              xs_shapes if len(xs) > 1 else xs_shapes[0],
                                              y, ys, x_init_value=vals if len(xs) > 1 else
                                              vals[0], delta=delta)


def _pos(shape, seed=1):
  return np.random.RandomState(seed).uniform(0.5, 1.5, size=shape)


# (id, input shapes, builder, inits or None)
BINARY_SHAPES = [([3, 4], [3, 4]), ([3, 4], [4]), ([1, 4], [3, 1]), ([2, 3, 4], [1]),
                 ([1], [1]), ([], [2, 3])]

BINARY = [
    ("add", tf.add), ("add_v2", lambda a, b: tf._op_def_library._apply_op(
        "AddV2", None, [a, b]).outputs[0]),
    ("sub", tf.subtract), ("mul", tf.multiply), ("realdiv", tf.realdiv),
    ("maximum", tf.maximum), ("minimum", tf.minimum),
    ("squared_difference", tf.squared_difference), ("div_no_nan", tf.div_no_nan),
]


@pytest.mark.parametrize("shapes", BINARY_SHAPES, ids=str)
@pytest.mark.parametrize("name,fn", BINARY, ids=[b[0] for b in BINARY])
def test_binary_broadcasting(name, fn, shapes):
  inits = None
  if name in ("maximum", "minimum"):
    a = np.arange(int(np.prod(shapes[0]) or 1), dtype=np.float64).reshape(shapes[0]) * 0.37
    b = np.arange(int(np.prod(shapes[1]) or 1), dtype=np.float64).reshape(shapes[1]) * 0.29 + 0.1
    inits = [a, b]
  assert _err(list(shapes), fn, inits=inits) < 1e-6


@pytest.mark.parametrize("shapes", [([3, 4], [3, 4]), ([3, 4], [4]), ([2, 1], [])], ids=str)
def test_pow(shapes):
  inits = [_pos(shapes[0]), _pos(shapes[1], 2)]
  assert _err(list(shapes), tf.pow, inits=inits) < 1e-6


def test_floormod_and_floordiv():
  def f(a, b):
    return tf.floormod(a, b)
  inits = [np.array([[2.3, 5.7], [3.1, 7.9]]), np.array([1.5, 2.5])]
  assert _err([[2, 2], [2]], f, inits=inits) < 1e-6
  g = tf.Graph()
  with g.as_default():
    a = tf.placeholder(F64, [2])
    assert tf.gradients(tf.floordiv(a, 2.0), a) == [None]


UNARY = [
    ("neg", tf.negative, None), ("abs", tf.abs, None), ("square", tf.square, None),
    ("sqrt", tf.sqrt, "pos"), ("rsqrt", tf.rsqrt, "pos"), ("exp", tf.exp, None),
    ("log", tf.log, "pos"), ("log1p", tf.log1p, "pos"), ("tanh", tf.tanh, None),
    ("sigmoid", tf.sigmoid, None), ("reciprocal", tf.reciprocal, "pos"), ("sin", tf.sin, None),
    ("cos", tf.cos, None), ("relu", tf.nn.relu, None), ("relu6", lambda x: tf.nn.relu6(x * 8.0),
                                                        None),
    ("elu", tf.nn.elu, None), ("selu", tf.nn.selu, None), ("leaky_relu",
                                                           lambda x: tf.nn.leaky_relu(x, 0.3),
                                                           None),
    ("softplus", tf.nn.softplus, None), ("softsign", tf.nn.softsign, None),
    ("identity", tf.identity, None), ("softmax", tf.nn.softmax, None),
    ("log_softmax", tf.nn.log_softmax, None), ("l2_loss", tf.nn.l2_loss, None),
    ("sign", tf.sign, None),
    ("cast_f32_roundtrip", lambda x: tf.cast(tf.cast(x, tf.float32), F64) * 1.0, None),
    ("clip", lambda x: tf.clip_by_value(x, -0.5, 0.5), None),
]


@pytest.mark.parametrize("shape", [[3, 5], [1, 4], [2, 3, 2]], ids=str)
@pytest.mark.parametrize("name,fn,kind", UNARY, ids=[u[0] for u in UNARY])
def test_unary(name, fn, kind, shape):
  inits = [_pos(shape)] if kind == "pos" else None
  tol = 1e-3 if name.startswith("cast") else 1e-6
  delta = 1e-2 if name.startswith("cast") else 1e-4
  assert _err([shape], fn, inits=inits, delta=delta) < tol


def test_cast_int_has_no_gradient():
  g = tf.Graph()
  with g.as_default():
    x = tf.placeholder(F64, [3])
    y = tf.cast(tf.cast(x, tf.int32), F64)
    assert tf.gradients(y, x) == [None]
    # Integer tensors do not carry gradients (TF: int xs get None).
    xi = tf.placeholder(tf.int32, [2])
    xf = tf.placeholder(tf.float32, [2])
    assert tf.gradients(xi * xi, xi) == [None]
    gi, gf = tf.gradients(tf.cast(xi, tf.float32) * xf, [xi, xf])
    assert gi is None and gf.name.endswith("_grad/Mul_1:0")
    with pytest.raises(TypeError):
      tf.gradients(xf * 2.0, xf, grad_ys=[tf.constant([b"a", b"b"])])


def test_add_n_and_multiple_paths():
  def f(a, b):
    return tf.add_n([a, b, a * b, tf.sin(a)])
  assert _err([[3, 2], [3, 2]], f) < 1e-6


@pytest.mark.parametrize("ta,tb", [(False, False), (True, False), (False, True), (True, True)])
@pytest.mark.parametrize("m", [1, 3])
def test_matmul(ta, tb, m):
  sa = [4, m] if ta else [m, 4]
  sb = [2, 4] if tb else [4, 2]
  assert _err([sa, sb], lambda a, b: tf.matmul(a, b, transpose_a=ta, transpose_b=tb)) < 1e-6


@pytest.mark.parametrize("sa,sb", [([2, 3, 4], [2, 4, 5]), ([2, 3, 4], [4, 5]),
                                   ([1, 3, 4], [2, 4, 2])], ids=str)
@pytest.mark.parametrize("adj", [(False, False), (True, True)])
def test_batch_matmul(sa, sb, adj):
  ax, ay = adj
  if ax:
    sa = sa[:-2] + [sa[-1], sa[-2]]
  if ay:
    sb = sb[:-2] + [sb[-1], sb[-2]]
  assert _err([sa, sb], lambda a, b: tf.matmul(a, b, adjoint_a=ax, adjoint_b=ay)) < 1e-6


REDUCE_CASES = [(None, False), (0, False), (1, True), ([0, 2], False), (-1, False), (-1, True)]


@pytest.mark.parametrize("axis,keep", REDUCE_CASES, ids=str)
@pytest.mark.parametrize("fn", [tf.reduce_sum, tf.reduce_mean, tf.reduce_max, tf.reduce_min,
                                tf.reduce_prod], ids=["sum", "mean", "max", "min", "prod"])
def test_reductions(fn, axis, keep):
  assert _err([[2, 3, 4]], lambda x: fn(x, axis=axis, keepdims=keep)) < 1e-6


def test_reductions_unknown_shape():
  g = tf.Graph()
  with g.as_default():
    x = tf.placeholder(F64, [None, 3])
    ax = tf.placeholder(tf.int32, [])
    ys = [tf.reduce_sum(x * x, axis=1), tf.reduce_mean(x, axis=ax), tf.reduce_max(x, axis=0)]
    gs = [tf.gradients(y, x)[0] for y in ys]
    xv = np.array([[1., 2., 3.], [4., -5., 0.5]])
    with tf.Session() as s:
      r = s.run(gs, {x: xv, ax: 0})
    np.testing.assert_allclose(r[0], 2 * xv)
    np.testing.assert_allclose(r[1], np.full((2, 3), 0.5))
    np.testing.assert_allclose(r[2], [[0, 1, 1], [1, 0, 0]])


def test_unknown_batch_broadcast_and_matmul():
  g = tf.Graph()
  with g.as_default():
    x = tf.placeholder(F64, [None, 3])
    b = tf.constant(np.array([1., 2., 3.]))
    w = tf.constant(np.ones((3, 2)))
    y = tf.reduce_mean(tf.matmul(x * b + b, w))
    gx, gb = tf.gradients(y, [x, b])
    with tf.Session() as s:
      rx, rb = s.run([gx, gb], {x: np.ones((4, 3))})
    # d/dx = b * (row sum of w) / 8; d/db = sum over rows of (x + 1) * 2 / 8.
    np.testing.assert_allclose(rx, np.tile([0.25, 0.5, 0.75], (4, 1)))
    np.testing.assert_allclose(rb, [2., 2., 2.])


ARRAY = [
    ("reshape", [[2, 6]], lambda x: tf.reshape(x, [3, 4])),
    ("reshape_batch1", [[1, 6]], lambda x: tf.reshape(x, [6])),
    ("squeeze", [[2, 1, 3]], lambda x: tf.squeeze(x, [1])),
    ("expand_dims", [[2, 3]], lambda x: tf.expand_dims(x, 1)),
    ("transpose", [[2, 3, 4]], lambda x: tf.transpose(x, [2, 0, 1])),
    ("concat", [[2, 3], [2, 2]], lambda a, b: tf.concat([a, b], 1)),
    ("concat0", [[1, 3], [2, 3]], lambda a, b: tf.concat([a, b * 2.0], 0)),
    ("stack", [[2, 3], [2, 3]], lambda a, b: tf.stack([a, b], axis=1)),
    ("unstack", [[3, 2]], lambda x: tf.unstack(x)[0] * 2.0 + tf.unstack(x)[2]),
    ("split", [[4, 3]], lambda x: tf.split(x, 2, axis=0)[1] * 3.0),
    ("splitv", [[5, 3]], lambda x: tf.split(x, [2, 3], axis=0)[1]),
    ("slice", [[4, 5]], lambda x: tf.slice(x, [1, 2], [2, 2])),
    ("strided_slice", [[4, 5]], lambda x: x[1:4:2, ::-1]),
    ("strided_slice_shrink", [[4, 5]], lambda x: x[2]),
    ("tile", [[2, 3]], lambda x: tf.tile(x, [2, 3])),
    ("pad", [[2, 3]], lambda x: tf.pad(x, [[1, 0], [2, 1]])),
    ("gather0", [[5, 3]], lambda x: tf.gather(x, [0, 2, 2, 4])),
    ("gather0_2d_idx", [[5, 3]], lambda x: tf.gather(x, [[0, 1], [1, 4]])),
    ("gather1", [[3, 5, 2]], lambda x: tf.gather(x, [4, 0, 0], axis=1)),
    ("select", [[3, 4], [3, 4]], lambda a, b: tf.where(a > b, a, b * 2.0)),
    ("reverse", [[3, 4]], lambda x: tf.reverse(x, [1])),
    ("broadcast_to", [[1, 3]], lambda x: tf.broadcast_to(x, [4, 3])),
    ("bias_add", [[4, 3], [3]], tf.nn.bias_add),
    ("bias_add_batch1", [[1, 2, 3], [3]], tf.nn.bias_add),
]


@pytest.mark.parametrize("name,shapes,fn", ARRAY, ids=[a[0] for a in ARRAY])
def test_array_ops(name, shapes, fn):
  assert _err(shapes, fn) < 1e-6


def test_softmax_cross_entropy():
  labels = np.array([[0.2, 0.3, 0.5], [0.0, 1.0, 0.0]])

  def f(logits):
    return tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits)
  assert _err([[2, 3]], f) < 1e-6

  def g2(logits, lab):
    return tf._op_def_library._apply_op("SoftmaxCrossEntropyWithLogits", None,
                                        [logits, lab]).outputs[0]
  # The logits gradient assumes each row of labels sums to 1 (as in TF).
  lab = _pos([2, 3])
  lab /= lab.sum(axis=1, keepdims=True)
  assert _err([[2, 3], [2, 3]], g2, inits=[np.random.RandomState(3).randn(2, 3), lab]) < 1e-6


def test_sparse_softmax_cross_entropy():
  def f(logits):
    return tf.nn.sparse_softmax_cross_entropy_with_logits(
        labels=np.array([2, 0, 1], dtype=np.int32), logits=logits)
  assert _err([[3, 4]], f) < 1e-6


def test_mlp_gradients_check():
  def f(x, w1, w2):
    h = tf.nn.relu(tf.matmul(x, w1) + 0.1)
    return tf.reduce_mean(tf.nn.softmax(tf.matmul(h, w2)) * tf.constant([1., 2., 3.], F64))
  assert _err([[4, 3], [3, 5], [5, 3]], f) < 1e-6


def test_float32_check():
  def f(x):
    return tf.reduce_sum(tf.tanh(x) * x)
  assert _err([[3, 2]], f, dtype=tf.float32, delta=1e-2) < 2e-2


# -- structure --------------------------------------------------------------------------------

def test_unconnected_is_none_and_names():
  g = tf.Graph()
  with g.as_default():
    x = tf.placeholder(tf.float32, [2], name="x")
    z = tf.placeholder(tf.float32, [2], name="z")
    y = tf.reduce_sum(x * 3.0)
    gx, gz = tf.gradients(y, [x, z])
    assert gz is None
    assert gx.name.startswith("gradients/")
    gx2 = tf.gradients(y, x)[0]
    assert gx2.name.startswith("gradients_1/")
    gx3 = tf.gradients(y, x, name="mygrads")[0]
    assert gx3.name.startswith("mygrads/")
    names = [op.name for op in g.get_operations()]
    assert "gradients/Fill" in names and "gradients/grad_ys_0" in names
    assert "gradients/mul_grad/Mul" in names


def test_stop_gradient_and_stop_gradients():
  g = tf.Graph()
  with g.as_default():
    x = tf.placeholder(F64, [], name="x")
    a = x * x
    y = a + tf.stop_gradient(a) * 3.0
    gx, = tf.gradients(y, x)
    b = 2.0 * x
    y2 = b * b
    gs = tf.gradients(y2, [x, b], stop_gradients=[b])
    assert gs[0] is None
    with tf.Session() as s:
      assert s.run(gx, {x: 3.0}) == pytest.approx(6.0)
      assert s.run(gs[1], {x: 3.0}) == pytest.approx(12.0)
    # TF's documented example: both a and b get 1.
    a0 = tf.constant(0.)
    b0 = 2 * a0
    ga, gb = tf.gradients(a0 + b0, [a0, b0], stop_gradients=[a0, b0])
    with tf.Session() as s:
      assert s.run([ga, gb]) == [1.0, 1.0]
    # x is upstream of b: without the stop the full derivative is 8x.
    with tf.Session() as s:
      assert s.run(tf.gradients(y2, x)[0], {x: 3.0}) == pytest.approx(24.0)


def test_summed_contributions_use_add_n():
  g = tf.Graph()
  with g.as_default():
    x = tf.placeholder(F64, [], name="x")
    y = tf.sin(x) + x * x + tf.exp(x)
    gx, = tf.gradients(y, x)
    # x * x contributes twice (once per Mul input), as in TF.
    assert gx.op.type == "AddN" and len(gx.op.inputs) == 4
    assert gx.op.name == "gradients/AddN"
    with tf.Session() as s:
      v = s.run(gx, {x: 0.5})
    assert v == pytest.approx(np.cos(0.5) + 1.0 + np.exp(0.5))


def test_grad_ys_and_multiple_ys():
  g = tf.Graph()
  with g.as_default():
    x = tf.placeholder(F64, [2], name="x")
    y1 = x * 2.0
    y2 = x * x
    gx, = tf.gradients([y1, y2], x, grad_ys=[np.array([1., 10.]), None])
    with tf.Session() as s:
      v = s.run(gx, {x: [1., 2.]})
    np.testing.assert_allclose(v, [2. + 2., 20. + 4.])
    with pytest.raises(ValueError):
      tf.gradients([y1, y2], x, grad_ys=[None])


def test_y_is_x_and_errors():
  g = tf.Graph()
  with g.as_default():
    x = tf.placeholder(F64, [2], name="x")
    gx, = tf.gradients(x, x)
    with tf.Session() as s:
      np.testing.assert_allclose(s.run(gx, {x: [3., 4.]}), [1., 1.])
    other = tf.Graph()
    with other.as_default():
      z = tf.placeholder(F64, [2])
    with pytest.raises(ValueError):
      tf.gradients(x * 2.0, z)
    with pytest.raises(ValueError):
      tf.gradients(x, x, aggregation_method=99)


def test_missing_gradient_lookup_error():
  g = tf.Graph()
  with g.as_default():
    x = tf.placeholder(F64, [3], name="x")
    y = tf.reduce_sum(tf.nn.l2_loss(x) + tf.cast(tf.argmax(x), F64))
    tf.gradients(y, x)  # ArgMax is not differentiable: no error
    y2 = tf.reduce_sum(tf._op_def_library._apply_op("PreventGradient", "pg", [x]).outputs[0])
    with pytest.raises(LookupError):
      tf.gradients(y2, x)


def test_variable_gradients():
  g = tf.Graph()
  with g.as_default():
    v = tf.Variable(np.array([1., 2., 3.]), name="v")
    w = tf.get_variable("w", initializer=np.array([2., 2., 2.]))
    y = tf.reduce_sum(v * w * v)
    gv, gw = tf.gradients(y, [v, w])
    with tf.Session() as s:
      s.run(tf.global_variables_initializer())
      a, b = s.run([gv, gw])
    np.testing.assert_allclose(a, [4., 8., 12.])
    np.testing.assert_allclose(b, [1., 4., 9.])


def test_control_dependencies_do_not_carry_gradient():
  g = tf.Graph()
  with g.as_default():
    x = tf.placeholder(F64, [], name="x")
    a = x * 2.0
    with tf.control_dependencies([a]):
      c = tf.constant(5.0, F64)
    assert tf.gradients(c, x) == [None]


def test_register_gradient_and_override_map():
  @tf.RegisterGradient("TfcTestDoubleGrad")
  def _double(op, grad):  # pylint: disable=unused-variable
    return grad * 2.0

  with pytest.raises(KeyError):
    tf.RegisterGradient("TfcTestDoubleGrad")(lambda op, g: g)
  g = tf.Graph()
  with g.as_default():
    x = tf.placeholder(F64, [2], name="x")
    with g.gradient_override_map({"Identity": "TfcTestDoubleGrad"}):
      y = tf.identity(x)
      gx_inside, = tf.gradients(y, x)
    z = tf.identity(x)
    gx, = tf.gradients(y, x)
    gz, = tf.gradients(z, x)
    with tf.Session() as s:
      np.testing.assert_allclose(s.run(gx, {x: [1., 1.]}), [2., 2.])
      np.testing.assert_allclose(s.run(gx_inside, {x: [1., 1.]}), [2., 2.])
      np.testing.assert_allclose(s.run(gz, {x: [1., 1.]}), [1., 1.])


def test_no_gradient_registration():
  tf.NoGradient("TfcTestNoGrad")
  with pytest.raises(KeyError):
    tf.no_gradient("TfcTestNoGrad")
  g = tf.Graph()
  with g.as_default():
    x = tf.placeholder(F64, [2], name="x")
    with g.gradient_override_map({"Identity": "TfcTestNoGrad"}):
      y = tf.identity(x)
    assert tf.gradients(y, x) == [None]
    with g.gradient_override_map({"Identity": "TfcTestUnregistered"}):
      y2 = tf.identity(x)
    with pytest.raises(LookupError, match="No gradient defined for operation"):
      tf.gradients(y2, x)


def test_gate_gradients_and_colocate():
  g = tf.Graph()
  with g.as_default():
    a = tf.placeholder(F64, [2, 2])
    b = tf.placeholder(F64, [2, 2])
    y = tf.reduce_sum(tf.matmul(a, b))
    ga, gb = tf.gradients(y, [a, b], gate_gradients=True, colocate_gradients_with_ops=True)
    with tf.Session() as s:
      ra, rb = s.run([ga, gb], {a: np.eye(2), b: np.ones((2, 2))})
    np.testing.assert_allclose(ra, np.full((2, 2), 2.))
    np.testing.assert_allclose(rb, np.ones((2, 2)))


# -- values recorded from TensorFlow (tf.compat.v1 graph mode) --------------------------------

def test_values_match_tensorflow():
  g = tf.Graph()
  with g.as_default():
    x = tf.constant([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], F64)
    w = tf.constant([[0.1, 0.2], [-0.3, 0.4], [0.5, -0.6]], F64)
    b = tf.constant([0.05, -0.05], F64)
    logits = tf.nn.bias_add(tf.matmul(x, w), b)
    labels = tf.constant([[1., 0.], [0., 1.]], F64)
    loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits))
    loss2 = tf.reduce_sum(tf.nn.elu(x) * tf.sigmoid(x)) + tf.reduce_max(tf.square(x))
    gw, gb = tf.gradients(loss, [w, b])
    gx, = tf.gradients(loss2, x)
    with tf.Session() as s:
      rw, rb, rx = s.run([gw, gb, gx])
  # Recorded with TensorFlow 2.21 (tf.compat.v1, graph mode), same graph.
  np.testing.assert_allclose(rw, TF_GW, rtol=1e-10, atol=1e-12)
  np.testing.assert_allclose(rb, TF_GB, rtol=1e-10, atol=1e-12)
  np.testing.assert_allclose(rx, TF_GX, rtol=1e-10, atol=1e-12)


TF_GW = [[0.18198469772374537, -0.1819846977237454], [0.05727139338150907, -0.05727139338150912],
         [-0.1469459243652489, 0.146945924365249]]
TF_GB = [0.10474429462964471, -0.1047442946296447]
TF_GX = [[0.7399611873026518, -0.025344425311521382, 5.090784248784896],
         [1.041294154299143, 0.6237100215701976, 0.036576565217386614]]


def test_mlp_50_layers_gradients():
  # (build time is measured by benchmarks/bench_train.py, not here)
  g = tf.Graph()
  with g.as_default():
    h = tf.placeholder(tf.float32, [None, 32])
    params = []
    for i in range(50):
      w = tf.Variable(tf.zeros([32, 32]), name="w%d" % i)
      bias = tf.Variable(tf.zeros([32]), name="b%d" % i)
      params += [w, bias]
      h = tf.nn.relu(tf.matmul(h, w) + bias)
    loss = tf.reduce_mean(tf.square(h))
    grads = tf.gradients(loss, params)
    assert len(grads) == 100 and all(gr is not None for gr in grads)
    assert [gr.get_shape().as_list() for gr in grads[:2]] == [[32, 32], [32]]


SECOND_ORDER = [
    ("tanh", tf.tanh, None), ("sigmoid", tf.sigmoid, None), ("sqrt", tf.sqrt, "pos"),
    ("rsqrt", tf.rsqrt, "pos"), ("reciprocal", tf.reciprocal, "pos"),
    ("relu", lambda x: tf.nn.relu(x) * x, None), ("elu", tf.nn.elu, None),
    ("leaky_relu", lambda x: tf.nn.leaky_relu(x) * x, None),
    ("relu6", lambda x: tf.nn.relu6(x * 4.0) * x, None),
    ("strided_slice", lambda x: tf.square(x[::-1, :]), None),
]


@pytest.mark.parametrize("name,fn,kind", SECOND_ORDER, ids=[s[0] for s in SECOND_ORDER])
def test_second_order(name, fn, kind):
  def f(x):
    y = tf.reduce_sum(fn(x) * tf.constant(np.arange(1., 13.).reshape(3, 4)[:3, :4], F64))
    return tf.gradients(y, x)[0] * tf.constant(np.linspace(0.5, 2.0, 12).reshape(3, 4), F64)
  inits = [_pos([3, 4])] if kind == "pos" else None
  assert _err([[3, 4]], f, inits=inits) < 1e-5


def test_bias_add_grad_grad():
  def f(x, b):
    g, = tf.gradients(tf.reduce_sum(tf.square(tf.nn.bias_add(x, b))), b)
    return g * g
  assert _err([[3, 4], [4]], f) < 1e-5


def test_variable_as_y_and_nested_scope():
  g = tf.Graph()
  with g.as_default():
    v = tf.Variable(np.array([1., 2.]), name="v")
    with tf.name_scope("outer"):
      gv, = tf.gradients(v, v)
    assert gv.name.startswith("outer/gradients/")
    with tf.Session() as s:
      s.run(tf.global_variables_initializer())
      np.testing.assert_allclose(s.run(gv), [1., 1.])


@pytest.mark.parametrize("op", ["sum", "mean", "max", "prod", "tile", "slice", "pad", "concat",
                                "gather", "add", "matmul_bcast"])
def test_partially_known_shapes(op):
  """Gradients built for a placeholder of unknown batch size, checked numerically."""
  g = tf.Graph()
  with g.as_default():
    x = tf.placeholder(F64, [None, 3, 2], name="x")
    other = tf.constant(np.linspace(0.5, 1.5, 6).reshape(3, 2), F64)
    build = {
        "sum": lambda: tf.reduce_sum(x, axis=[0, 2]),
        "mean": lambda: tf.reduce_mean(x, axis=1, keepdims=True),
        "max": lambda: tf.reduce_max(x, axis=-1),
        "prod": lambda: tf.reduce_prod(x, axis=0),
        "tile": lambda: tf.tile(x, [1, 2, 1]),
        "slice": lambda: tf.slice(x, [0, 1, 0], [-1, 2, 1]),
        "pad": lambda: tf.pad(x, [[0, 1], [1, 0], [0, 0]]),
        "concat": lambda: tf.concat([x, x * 2.0], axis=1),
        "gather": lambda: tf.gather(x, [1, 1, 0], axis=1),
        "add": lambda: x * other + other,
        "matmul_bcast": lambda: tf.matmul(x, tf.transpose(other)),
    }[op]
    y = build()
    with tf.Session() as s:
      xv = np.random.RandomState(5).uniform(0.5, 1.5, (2, 3, 2))
      ys = s.run(y, {x: xv}).shape
      with s.as_default():
        err = tf.test.compute_gradient_error(x, [2, 3, 2], y, list(ys), x_init_value=xv)
  assert err < 1e-6


def _has_ops(*names):
  from tfc import _tfc
  have = set(_tfc.op_names())
  return all(n in have for n in names)


def _apply(op_type, inputs, attrs=None):
  return tf._op_def_library._apply_op(op_type, None, inputs, attrs).outputs


@pytest.mark.skipif(not _has_ops("Conv2D", "Conv2DBackpropInput", "Conv2DBackpropFilter"),
                    reason="Conv2D kernels not built")
@pytest.mark.parametrize("padding,stride", [("SAME", 1), ("VALID", 1), ("SAME", 2)])
def test_conv2d(padding, stride):
  def f(x, w):
    return _apply("Conv2D", [x, w], {"strides": [1, stride, stride, 1], "padding": padding})[0]
  assert _err([[1, 5, 4, 2], [3, 2, 2, 3]], f) < 1e-6


@pytest.mark.skipif(not _has_ops("MaxPool", "MaxPoolGrad"), reason="MaxPool kernels not built")
def test_max_pool():
  def f(x):
    return _apply("MaxPool", [x], {"ksize": [1, 2, 2, 1], "strides": [1, 2, 2, 1],
                                   "padding": "VALID"})[0]
  xv = np.random.RandomState(7).permutation(2 * 4 * 4 * 2).reshape(2, 4, 4, 2) * 0.1
  assert _err([[2, 4, 4, 2]], f, inits=[xv], dtype=tf.float32, delta=1e-2) < 1e-2


@pytest.mark.skipif(not _has_ops("AvgPool", "AvgPoolGrad"), reason="AvgPool kernels not built")
def test_avg_pool():
  def f(x):
    return _apply("AvgPool", [x], {"ksize": [1, 2, 2, 1], "strides": [1, 1, 1, 1],
                                   "padding": "SAME"})[0]
  assert _err([[1, 3, 3, 2]], f, dtype=tf.float32, delta=1e-2) < 1e-2


@pytest.mark.skipif(not _has_ops("FusedBatchNormV3", "FusedBatchNormGradV3"),
                    reason="FusedBatchNorm kernels not built")
def test_fused_batch_norm_training():
  def f(x, scale, offset):
    return _apply("FusedBatchNormV3", [x, scale, offset, tf.zeros([3], tf.float32),
                                       tf.ones([3], tf.float32)],
                  {"epsilon": 0.001, "is_training": True})[0]
  assert _err([[2, 2, 2, 3], [3], [3]], f, dtype=tf.float32, delta=1e-2) < 2e-2
