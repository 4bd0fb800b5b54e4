"""Sparse gradients and sparse tensors: tf.IndexedSlices as the gradient of
gather / embedding_lookup, the sparse optimizer updates (ScatterSub for
GradientDescent, SparseApply{Momentum,Adagrad,RMSProp,CenteredRMSProp},
TF 1.x's dense-decay sparse Adam), embedding_lookup over sharded params
(DynamicPartition / ParallelDynamicStitch), and the tf.sparse ops; values
against NumPy and against TensorFlow (tests/fixtures/sparse, written by
tools/make_sparse_fixtures.py), gradients by finite differences, bad inputs."""
import importlib.util
import pathlib

import numpy as np
import pytest

import tfc as tf

REPO = pathlib.Path(__file__).resolve().parents[2]
FIXTURE = REPO / "tests" / "fixtures" / "sparse" / "sparse_tf.npz"


def _tool():
  spec = importlib.util.spec_from_file_location("make_sparse_fixtures",
                                                REPO / "tools" / "make_sparse_fixtures.py")
  mod = importlib.util.module_from_spec(spec)
  spec.loader.exec_module(mod)
  return mod


@pytest.fixture(scope="module")
def tf_values():
  return dict(np.load(FIXTURE))


@pytest.fixture(scope="module")
def tool():
  return _tool()


# -- IndexedSlices gradients ----------------------------------------------------------


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("ids", [[1, 3, 3, 0], [[2, 2], [0, 4]]])
def test_gather_gradient_is_indexed_slices(dtype, ids):
  ids = np.array(ids, np.int32)
  rng = np.random.RandomState(0)
  table = rng.randn(5, 3).astype(dtype)
  coef = rng.randn(*(ids.shape + (3,))).astype(dtype)
  with tf.Graph().as_default(), tf.Session() as sess:
    w = tf.Variable(table)
    loss = tf.reduce_sum(tf.gather(w, ids) * coef)
    g, = tf.gradients(loss, [w])
    assert isinstance(g, tf.IndexedSlices)
    assert g.dense_shape.op.type == "Const"
    assert g.get_shape().as_list() == [5, 3]
    sess.run(tf.global_variables_initializer())
    value = sess.run(g)
    assert isinstance(value, tf.IndexedSlicesValue)
    np.testing.assert_array_equal(value.indices, ids.reshape(-1))
    np.testing.assert_allclose(value.values, coef.reshape(-1, 3))
    np.testing.assert_array_equal(value.dense_shape, [5, 3])
    want = np.zeros_like(table)
    np.add.at(want, ids.reshape(-1), coef.reshape(-1, 3))
    np.testing.assert_allclose(sess.run(tf.convert_to_tensor(g)), want, rtol=1e-6)


def test_indexed_slices_aggregate_sparse_and_dense():
  with tf.Graph().as_default(), tf.Session() as sess:
    w = tf.Variable(np.arange(12, dtype=np.float32).reshape(4, 3))
    a = tf.reduce_sum(tf.gather(w, [0, 2]))
    b = tf.reduce_sum(tf.nn.embedding_lookup(w, [2, 3]) * 2.0)
    g_sparse, = tf.gradients(a + b, [w])
    assert isinstance(g_sparse, tf.IndexedSlices)
    g_mixed, = tf.gradients(a + b + tf.reduce_sum(w * w), [w])
    assert isinstance(g_mixed, tf.Tensor)
    sess.run(tf.global_variables_initializer())
    v = sess.run(g_sparse)
    dense = np.zeros((4, 3), np.float32)
    np.add.at(dense, v.indices, v.values)
    np.testing.assert_allclose(dense, [[1] * 3, [0] * 3, [3] * 3, [2] * 3])
    np.testing.assert_allclose(sess.run(g_mixed),
                               dense + 2 * np.arange(12, dtype=np.float32).reshape(4, 3))


def test_gather_gradient_unknown_shape_and_finite_differences():
  with tf.Graph().as_default(), tf.Session() as sess:
    p = tf.placeholder(tf.float64, [None, 2])
    g, = tf.gradients(tf.reduce_sum(tf.gather(p, [1, 1, 0]) ** 2), [p])
    assert isinstance(g, tf.IndexedSlices)
    x = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    np.testing.assert_allclose(sess.run(tf.convert_to_tensor(g), {p: x}),
                               [[2, 4], [12, 16], [0, 0]])
  with tf.Graph().as_default():
    x = tf.placeholder(tf.float64, [5, 2])
    y = tf.gather(x, [4, 0, 4]) * 3.0
    err = tf.test.compute_gradient_error(x, [5, 2], y, [3, 2])
    assert err < 1e-6


# -- sparse optimizer updates --------------------------------------------------------


def _numpy_train(name, dtype):
  """NumPy reference of the sparse updates of TF 1.x's optimizers on the run
  of make_sparse_fixtures.optimizer_run (duplicate ids summed first)."""
  tool = _tool()
  rng = np.random.RandomState(11)
  var = rng.randn(10, 4).astype(np.float64)
  coef = rng.randn(4, 4).astype(np.float64)
  slots = [np.zeros_like(var) for _ in range(3)]
  if name == "adagrad":
    slots[0][:] = 0.1
  if name.startswith("rmsprop"):
    slots[0][:] = 1.0
  b1p, b2p = 0.9, 0.999
  for ids in tool.STEP_IDS:
    ids = np.array(ids)
    rows_grad = coef + 2 * var[ids]
    uniq = np.unique(ids)
    g = np.stack([rows_grad[ids == u].sum(0) for u in uniq])
    if name == "gd":
      var[uniq] -= 0.1 * g
    elif name in ("momentum", "nesterov"):
      lr, mom = (0.1, 0.9) if name == "momentum" else (0.05, 0.8)
      acc = slots[0]
      acc[uniq] = acc[uniq] * mom + g
      if name == "momentum":
        var[uniq] -= lr * acc[uniq]
      else:
        var[uniq] -= g * lr + acc[uniq] * mom * lr
    elif name == "adagrad":
      acc = slots[0]
      acc[uniq] += g * g
      var[uniq] -= 0.2 * g / np.sqrt(acc[uniq])
    elif name == "rmsprop":
      ms, mom = slots[0], slots[1]
      ms[uniq] = ms[uniq] * 0.9 + g * g * 0.1
      mom[uniq] = mom[uniq] * 0.5 + 0.01 * g / np.sqrt(ms[uniq] + 1e-10)
      var[uniq] -= mom[uniq]
    elif name == "rmsprop_centered":
      ms, mom, mg = slots
      ms[uniq] = ms[uniq] * 0.8 + g * g * 0.2
      mg[uniq] = mg[uniq] * 0.8 + g * 0.2
      mom[uniq] = mom[uniq] * 0.3 + 0.02 * g / np.sqrt(ms[uniq] - mg[uniq] ** 2 + 1e-10)
      var[uniq] -= mom[uniq]
    elif name == "adam":
      m, v = slots[0], slots[1]
      lr = 0.05 * np.sqrt(1 - b2p) / (1 - b1p)
      m *= 0.9
      m[uniq] += g * 0.1
      v *= 0.999
      v[uniq] += g * g * 0.001
      var -= lr * m / (np.sqrt(v) + 1e-8)
      b1p *= 0.9
      b2p *= 0.999
  return var


@pytest.mark.parametrize("name", ["gd", "momentum", "nesterov", "adagrad", "rmsprop",
                                  "rmsprop_centered", "adam"])
def test_sparse_optimizers_match_tensorflow_and_numpy(name, tool, tf_values):
  got = tool.optimizer_run(tf, name)
  key = "%s_float32/var" % name
  np.testing.assert_allclose(got[key], tf_values[key], rtol=2e-5, atol=2e-6)
  np.testing.assert_allclose(got[key], _numpy_train(name, np.float32), rtol=1e-4, atol=1e-5)
  if name != "adam":  # only the rows looked up move
    rng = np.random.RandomState(11)
    table0 = rng.randn(10, 4).astype(np.float32)
    untouched = [r for r in range(10) if r not in {i for s in tool.STEP_IDS for i in s}]
    np.testing.assert_array_equal(got[key][untouched], table0[untouched])


@pytest.mark.parametrize("name", ["adam", "momentum"])
def test_sparse_optimizers_float64(name, tool, tf_values):
  got = tool.optimizer_run(tf, name, "float64")
  key = "%s_float64/var" % name
  np.testing.assert_allclose(got[key], tf_values[key], rtol=1e-10, atol=1e-12)


def test_sparse_optimizer_graph_uses_sparse_kernels():
  with tf.Graph().as_default():
    w = tf.Variable(np.zeros((1000, 8), np.float32))
    loss = tf.reduce_sum(tf.nn.embedding_lookup(w, [1, 2, 2]))
    for opt, kernel in ((tf.train.GradientDescentOptimizer(0.1), "ScatterSub"),
                        (tf.train.MomentumOptimizer(0.1, 0.9), "SparseApplyMomentum"),
                        (tf.train.AdagradOptimizer(0.1), "SparseApplyAdagrad"),
                        (tf.train.RMSPropOptimizer(0.1), "SparseApplyRMSProp"),
                        (tf.train.AdamOptimizer(0.1), "ScatterAdd")):
      train = opt.minimize(loss)
      types = set()
      stack, seen = [train], set()
      while stack:
        op = stack.pop()
        if op in seen:
          continue
        seen.add(op)
        types.add(op.type)
        stack.extend(t.op for t in op.inputs)
        stack.extend(op.control_inputs)
      assert kernel in types
      if kernel != "ScatterSub":  # ScatterSub adds repeated rows itself
        assert "UnsortedSegmentSum" in types and "Unique" in types  # duplicates summed
      assert not any(t.startswith("Apply") for t in types)


def _sparse_apply(op_type, inputs, attrs=None):
  from tfc.framework.op_def_library import _apply_op
  return _apply_op(op_type, "sparse_update", inputs, attrs or {}).outputs[0]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_sparse_apply_kernels_against_numpy(dtype):
  rng = np.random.RandomState(3)
  var0 = rng.randn(6, 2).astype(dtype)
  acc0 = rng.rand(6, 2).astype(dtype) + 0.5
  grad = rng.randn(3, 2).astype(dtype)
  idx = np.array([4, 0, 4], np.int64)  # repeated index: applied once per occurrence
  with tf.Graph().as_default(), tf.Session() as sess:
    var = tf.Variable(var0)
    acc = tf.Variable(acc0)
    up = _sparse_apply("SparseApplyAdagrad", [var._ref(), acc._ref(), dtype(0.3), grad, idx])
    sess.run(tf.global_variables_initializer())
    got = sess.run(up)
  want_v, want_a = var0.astype(np.float64), acc0.astype(np.float64)
  for g, i in zip(grad, idx):
    want_a[i] += g * g
    want_v[i] -= 0.3 * g / np.sqrt(want_a[i])
  np.testing.assert_allclose(got, want_v, rtol=1e-5)


def test_sparse_apply_errors_name_the_node():
  with tf.Graph().as_default(), tf.Session() as sess:
    var = tf.Variable(np.zeros((4, 2), np.float32))
    acc = tf.Variable(np.zeros((4, 2), np.float32))
    idx = tf.placeholder(tf.int32, [None])
    grad = tf.placeholder(tf.float32, [None, 2])
    up = _sparse_apply("SparseApplyMomentum",
                       [var._ref(), acc._ref(), 0.1, grad, idx, 0.9])
    with pytest.raises(tf.errors.FailedPreconditionError, match="uninitialized"):
      sess.run(up, {idx: [0], grad: np.ones((1, 2), np.float32)})
    sess.run(tf.global_variables_initializer())
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Index 7 at offset 1 in indices is out of range[\s\S]*sparse_update"):
      sess.run(up, {idx: [0, 7], grad: np.ones((2, 2), np.float32)})
    with pytest.raises(tf.errors.InvalidArgumentError, match="same size as indices"):
      sess.run(up, {idx: [0, 1], grad: np.ones((3, 2), np.float32)})
    with pytest.raises(ValueError):
      _sparse_apply("SparseApplyMomentum",
                    [var._ref(), acc._ref(), 0.1, np.ones((2, 3), np.float32), [0, 1], 0.9])


# -- sparse updates of resource variables ---------------------------------------------


@pytest.mark.parametrize("name", ["gd", "momentum", "nesterov", "adagrad", "rmsprop",
                                  "rmsprop_centered", "adam"])
def test_resource_sparse_optimizers_match_tensorflow_and_numpy(name, tool, tf_values):
  got = tool.optimizer_run(tf, name, use_resource=True)
  key = "%s_float32_resource/var" % name
  np.testing.assert_allclose(got[key], tf_values[key], rtol=2e-5, atol=2e-6)
  np.testing.assert_allclose(got[key], _numpy_train(name, np.float32), rtol=1e-4, atol=1e-5)
  # the same steps as on a ref variable
  np.testing.assert_allclose(got[key], tf_values["%s_float32/var" % name], rtol=2e-5, atol=2e-6)
  if name != "adam":  # only the rows looked up move
    rng = np.random.RandomState(11)
    table0 = rng.randn(10, 4).astype(np.float32)
    untouched = [r for r in range(10) if r not in {i for s in tool.STEP_IDS for i in s}]
    np.testing.assert_array_equal(got[key][untouched], table0[untouched])


def test_resource_sparse_adam_float64(tool, tf_values):
  got = tool.optimizer_run(tf, "adam", "float64", use_resource=True)
  key = "adam_float64_resource/var"
  np.testing.assert_allclose(got[key], tf_values[key], rtol=1e-10, atol=1e-12)


def _op_types(train):
  types, stack, seen = set(), [train], set()
  while stack:
    op = stack.pop()
    if op in seen:
      continue
    seen.add(op)
    types.add(op.type)
    stack.extend(t.op for t in op.inputs)
    stack.extend(op.control_inputs)
  return types


def test_resource_sparse_optimizer_graph_never_densifies():
  with tf.Graph().as_default():
    w = tf.Variable(np.zeros((1000, 8), np.float32), use_resource=True)
    loss = tf.reduce_sum(tf.nn.embedding_lookup(w, [1, 2, 2]))
    for opt, kernel in ((tf.train.GradientDescentOptimizer(0.1), "ResourceScatterAdd"),
                        (tf.train.MomentumOptimizer(0.1, 0.9), "ResourceSparseApplyMomentum"),
                        (tf.train.AdagradOptimizer(0.1), "ResourceSparseApplyAdagrad"),
                        (tf.train.RMSPropOptimizer(0.1), "ResourceSparseApplyRMSProp"),
                        (tf.train.RMSPropOptimizer(0.1, centered=True),
                         "ResourceSparseApplyCenteredRMSProp"),
                        (tf.train.AdamOptimizer(0.1), "ResourceScatterAdd")):
      types = _op_types(opt.minimize(loss))
      assert kernel in types, (type(opt).__name__, sorted(types))
      if kernel != "ResourceScatterAdd" or isinstance(opt, tf.train.AdamOptimizer):
        assert "UnsortedSegmentSum" in types and "Unique" in types  # duplicates summed
      assert not any("Apply" in t and "Sparse" not in t for t in types)
      # the gradient is never made dense
      assert not ({"UnsortedSegmentSum", "ScatterNd"} & types and "Unique" not in types)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("idx_dtype", [np.int32, np.int64])
def test_resource_sparse_apply_kernels_against_numpy(dtype, idx_dtype):
  from tfc.train import rmsprop  # pylint: disable=g-import-not-at-top
  rng = np.random.RandomState(5)
  var0 = rng.randn(6, 2).astype(dtype)
  ms0 = rng.rand(6, 2).astype(dtype) + 0.5
  mom0 = rng.rand(6, 2).astype(dtype)
  grad = rng.randn(3, 2).astype(dtype)
  idx = np.array([4, 0, 4], idx_dtype)  # repeated index: applied once per occurrence
  lr, rho, momentum, eps = 0.01, 0.9, 0.5, 1e-7
  with tf.Graph().as_default(), tf.Session() as sess:
    var = tf.Variable(var0, use_resource=True)
    ms = tf.Variable(ms0, use_resource=True)
    mom = tf.Variable(mom0, use_resource=True)
    up = rmsprop.sparse_apply_rms_prop(var.handle, ms.handle, mom.handle, dtype(lr), dtype(rho),
                                       dtype(momentum), dtype(eps), grad, idx)
    assert up.type == "ResourceSparseApplyRMSProp" and not up.outputs
    sess.run(tf.global_variables_initializer())
    sess.run(up)
    got_var, got_ms, got_mom = sess.run([var, ms, mom])
  w_var, w_ms, w_mom = (a.astype(np.float64) for a in (var0, ms0, mom0))
  for g, i in zip(grad.astype(np.float64), idx):
    w_ms[i] = w_ms[i] * rho + g * g * (1 - rho)
    w_mom[i] = w_mom[i] * momentum + lr * g / np.sqrt(w_ms[i] + eps)
    w_var[i] -= w_mom[i]
  tol = 1e-5 if dtype == np.float32 else 1e-12
  np.testing.assert_allclose(got_var, w_var, rtol=tol)
  np.testing.assert_allclose(got_ms, w_ms, rtol=tol)
  np.testing.assert_allclose(got_mom, w_mom, rtol=tol)
  untouched = [1, 2, 3, 5]
  np.testing.assert_array_equal(got_var[untouched], var0[untouched])


def test_resource_sparse_apply_errors_name_the_node():
  from tfc.train import momentum as momentum_lib  # pylint: disable=g-import-not-at-top
  with tf.Graph().as_default(), tf.Session() as sess:
    var = tf.Variable(np.zeros((4, 2), np.float32), use_resource=True)
    acc = tf.Variable(np.zeros((4, 2), np.float32), use_resource=True)
    idx = tf.placeholder(tf.int32, [None])
    grad = tf.placeholder(tf.float32, [None, None])
    up = momentum_lib.sparse_apply_momentum(var.handle, acc.handle, 0.1, grad, idx, 0.9,
                                            name="rsparse_update")
    feed = {idx: [0], grad: np.ones((1, 2), np.float32)}
    with pytest.raises(tf.errors.NotFoundError, match="rsparse_update"):
      sess.run(up, feed)  # variables not yet created
    sess.run(tf.global_variables_initializer())
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Index 7 at offset 1 in indices is out of range[\s\S]*rsparse_update"):
      sess.run(up, {idx: [0, 7], grad: np.ones((2, 2), np.float32)})
    with pytest.raises(tf.errors.InvalidArgumentError, match="same size as indices"):
      sess.run(up, {idx: [0, 1], grad: np.ones((3, 2), np.float32)})
    with pytest.raises(tf.errors.InvalidArgumentError, match="match in dimension 1"):
      sess.run(up, {idx: [0], grad: np.ones((1, 3), np.float32)})
    np.testing.assert_array_equal(sess.run(var), np.zeros((4, 2)))  # failed steps wrote nothing
    with pytest.raises(ValueError):  # rank-2 indices at build time
      momentum_lib.sparse_apply_momentum(var.handle, acc.handle, 0.1,
                                         np.ones((2, 2), np.float32), [[0, 1]], 0.9)
    with pytest.raises(ValueError):  # gradient rows != number of indices
      momentum_lib.sparse_apply_momentum(var.handle, acc.handle, 0.1,
                                         np.ones((3, 2), np.float32), [0, 1], 0.9)


# -- embedding_lookup over shards ----------------------------------------------------


@pytest.mark.parametrize("strategy", ["mod", "div"])
def test_partitioned_embedding_lookup_matches_tensorflow(strategy, tool, tf_values):
  with tf.Graph().as_default(), tf.Session() as sess:
    got = sess.run(tool.embedding_cases(tf))
  for key in ("emb_%s" % strategy,) + tuple("emb_%s_grad%d" % (strategy, i) for i in range(3)):
    np.testing.assert_allclose(got[key], tf_values[key], rtol=1e-6, atol=1e-6, err_msg=key)


@pytest.mark.parametrize("strategy", ["mod", "div"])
def test_partitioned_embedding_lookup_numpy_and_training(strategy):
  table = np.arange(30, dtype=np.float32).reshape(10, 3)
  if strategy == "mod":
    shards = [table[i::3] for i in range(3)]
  else:
    shards = [table[0:4], table[4:7], table[7:10]]
  ids = np.array([[9, 0, 4], [4, 7, 2]], np.int64)
  with tf.Graph().as_default(), tf.Session() as sess:
    vs = [tf.Variable(s) for s in shards]
    emb = tf.nn.embedding_lookup(vs, ids, partition_strategy=strategy)
    assert emb.get_shape().as_list() == [2, 3, 3]
    train = tf.train.GradientDescentOptimizer(1.0).minimize(tf.reduce_sum(emb))
    sess.run(tf.global_variables_initializer())
    np.testing.assert_array_equal(sess.run(emb), table[ids])
    sess.run(train)
    new = np.concatenate(sess.run(vs)) if strategy == "div" else None
    if strategy == "div":
      want = table.copy()
      np.subtract.at(want, ids.reshape(-1), 1.0)
      np.testing.assert_array_equal(new, want)


def test_partitioned_embedding_gradient_finite_differences():
  with tf.Graph().as_default():
    a = tf.placeholder(tf.float64, [3, 2])
    b = tf.placeholder(tf.float64, [2, 2])
    emb = tf.nn.embedding_lookup([a, b], [4, 0, 3, 3], partition_strategy="div")
    y = emb * emb
    errs = tf.test.compute_gradient_error([a, b], [[3, 2], [2, 2]], y, [4, 2])
    assert errs < 1e-6


# -- DynamicPartition / DynamicStitch --------------------------------------------------


@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.bool_, object])
def test_dynamic_partition_and_stitch_numpy(dtype):
  rng = np.random.RandomState(1)
  data = rng.randint(0, 5, size=(7, 2))
  data = data.astype(str).astype(object) if dtype is object else data.astype(dtype)
  part = np.array([1, 0, 2, 1, 1, 0, 2], np.int32)
  with tf.Graph().as_default(), tf.Session() as sess:
    outs = tf.dynamic_partition(data, part, 3)
    got = sess.run(outs)
    for i in range(3):
      want = data[part == i]
      if dtype is object:
        want = np.array([[x.encode() for x in r] for r in want], dtype=object).reshape(-1, 2)
      np.testing.assert_array_equal(got[i], want)
    positions = tf.dynamic_partition(np.arange(7, dtype=np.int32), part, 3)
    back = sess.run(tf.dynamic_stitch(positions, outs))
    want = data if dtype is not object else np.array(
        [[x.encode() for x in r] for r in data], dtype=object)
    np.testing.assert_array_equal(back, want)


def test_dynamic_partition_stitch_gradients_and_errors():
  with tf.Graph().as_default():
    x = tf.placeholder(tf.float64, [4, 3])
    p = tf.dynamic_partition(x, [1, 0, 1, 1], 2)
    y = tf.concat([p[0] * 2.0, p[1] * p[1]], 0)
    assert tf.test.compute_gradient_error(x, [4, 3], y, [4, 3]) < 1e-6
  with tf.Graph().as_default():
    a = tf.placeholder(tf.float64, [2, 2])
    b = tf.placeholder(tf.float64, [1, 2])
    y = tf.dynamic_stitch([[0, 2], [1]], [a, b]) * 3.0
    errs = tf.test.compute_gradient_error([a, b], [[2, 2], [1, 2]], y, [3, 2])
    assert errs < 1e-6
  with tf.Graph().as_default(), tf.Session() as sess:
    parts = tf.placeholder(tf.int32, [3])
    outs = tf.dynamic_partition([1.0, 2.0, 3.0], parts, 2, name="dp")
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"partitions\[2\] = 5 is not in \[0, 2\)[\s\S]*dp"):
      sess.run(outs, {parts: [0, 1, 5]})
    idx = tf.placeholder(tf.int32, [2])
    st = tf.dynamic_stitch([idx], [[1.0, 2.0]], name="ds")
    with pytest.raises(tf.errors.InvalidArgumentError, match="out of range"):
      sess.run(st, {idx: [0, -1]})
    with pytest.raises(ValueError):
      tf.dynamic_partition(np.zeros((3, 2)), np.zeros(4, np.int32), 2)


# -- tf.sparse ops against TensorFlow --------------------------------------------------


def test_sparse_ops_match_tensorflow(tool, tf_values):
  with tf.Graph().as_default(), tf.Session() as sess:
    values = sess.run(tool.cases(tf))
  checked = 0
  for name, value in values.items():
    if isinstance(value, tf.SparseTensorValue):
      for part in ("indices", "values", "dense_shape"):
        want = tf_values[name + "/" + part]
        got = np.asarray(getattr(value, part))
        np.testing.assert_allclose(got.astype(np.float64).reshape(want.shape),
                                   want.astype(np.float64), rtol=1e-6, err_msg=name + part)
    else:
      np.testing.assert_allclose(np.asarray(value).astype(np.float64),
                                 tf_values[name].astype(np.float64), rtol=1e-6, atol=1e-6,
                                 err_msg=name)
    checked += 1
  assert checked >= 40


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64])
@pytest.mark.parametrize("adjoint_a,adjoint_b", [(False, False), (True, False), (False, True),
                                                 (True, True)])
def test_sparse_tensor_dense_matmul_numpy(dtype, adjoint_a, adjoint_b):
  rng = np.random.RandomState(2)
  op_a = (rng.rand(5, 4) < 0.4) * rng.randint(-3, 4, size=(5, 4))
  op_b = rng.randint(-3, 4, size=(4, 3))
  a = op_a.T.copy() if adjoint_a else op_a
  b = (op_b.T.copy() if adjoint_b else op_b).astype(dtype)
  idx = np.argwhere(a != 0)
  with tf.Graph().as_default(), tf.Session() as sess:
    sp = tf.SparseTensor(idx, a[a != 0].astype(dtype), a.shape)
    got = sess.run(tf.sparse_tensor_dense_matmul(sp, b, adjoint_a=adjoint_a,
                                                 adjoint_b=adjoint_b))
  assert got.dtype == dtype
  np.testing.assert_allclose(got, op_a @ op_b, rtol=1e-6)


def test_sparse_tensor_dense_matmul_gradients_and_errors():
  with tf.Graph().as_default():
    vals = tf.placeholder(tf.float64, [3])
    b = tf.placeholder(tf.float64, [3, 2])
    sp = tf.SparseTensor([[0, 0], [1, 2], [2, 1]], vals, [3, 3])
    for adj_a in (False, True):
      for adj_b in (False, True):
        y = tf.sparse_tensor_dense_matmul(sp, tf.transpose(b) if adj_b else b,
                                          adjoint_a=adj_a, adjoint_b=adj_b)
        errs = tf.test.compute_gradient_error([vals, b], [[3], [3, 2]], y, [3, 2])
        assert errs < 1e-6
  with tf.Graph().as_default(), tf.Session() as sess:
    bad = tf.placeholder(tf.int64, [1, 2])
    sp = tf.SparseTensor(bad, [1.0], [2, 2])
    y = tf.sparse_tensor_dense_matmul(sp, np.ones((2, 2), np.float32), name="spmm")
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"out of bounds[\s\S]*spmm"):
      sess.run(y, {bad: [[0, 5]]})
    with pytest.raises(ValueError):
      tf.sparse_tensor_dense_matmul(tf.SparseTensor([[0, 0]], [1.0], [2, 2]),
                                    np.ones((3, 2), np.float32))


def test_sparse_to_dense_errors():
  with tf.Graph().as_default(), tf.Session() as sess:
    idx = tf.placeholder(tf.int64, [None, 2])
    d = tf.sparse_to_dense(idx, [3, 3], [1.0, 2.0], name="s2d")
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"is out of order[\s\S]*s2d"):
      sess.run(d, {idx: [[2, 0], [0, 1]]})
    with pytest.raises(tf.errors.InvalidArgumentError, match="is repeated"):
      sess.run(d, {idx: [[1, 1], [1, 1]]})
    with pytest.raises(tf.errors.InvalidArgumentError, match="out of bounds"):
      sess.run(d, {idx: [[0, 0], [3, 1]]})
    loose = tf.sparse_to_dense(idx, [3, 3], [1.0, 2.0], validate_indices=False)
    np.testing.assert_array_equal(sess.run(loose, {idx: [[2, 0], [0, 1]]}),
                                  [[0, 2, 0], [0, 0, 0], [1, 0, 0]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="out of bounds"):
      sess.run(loose, {idx: [[2, 0], [0, 3]]})


def test_sparse_placeholder_feed_and_reduce():
  with tf.Graph().as_default(), tf.Session() as sess:
    sp = tf.sparse_placeholder(tf.float32)
    total = tf.sparse_reduce_sum(tf.sparse.reorder(sp), axis=1) if False else None
    del total
    sp2 = tf.sparse_placeholder(tf.float32, shape=[3, 4])
    s = tf.sparse_reduce_sum(sp2, axis=0)
    value = tf.SparseTensorValue([[0, 0], [2, 3], [2, 0]], [1.0, 2.0, 3.0], [3, 4])
    np.testing.assert_allclose(sess.run(s, {sp2: value}), [4.0, 0, 0, 2.0])
    dense = sess.run(tf.sparse.to_dense(tf.sparse.reorder(sp)), {sp: value})
    np.testing.assert_allclose(dense, [[1, 0, 0, 0], [0, 0, 0, 0], [3, 0, 0, 2]])
