"""Resource variables: tf.Variable(use_resource=True), get_variable(use_resource=True),
variable_scope(use_resource=True), tf.enable_resource_variables(); reads ordered by control
dependencies, optimizers (ResourceApply*), savers, meta graphs and errors.

The kernels themselves are checked against TensorFlow's outputs by the op fixtures
(tests/python/test_compat_ops.py, tools/make_op_fixtures.py); here the Python layer is
checked against the graph structure TF 1.15 builds and against tfc's ref variables, whose
kernels the same fixtures check.
"""
import collections

import numpy as np
import pytest

import tfc as tf


# what scatter_* take: anything with .indices and .values (tfc has no tf.IndexedSlices class)
Slices = collections.namedtuple("Slices", ["values", "indices"])


@pytest.fixture
def g():
  graph = tf.Graph()
  with graph.as_default():
    yield graph


@pytest.fixture(autouse=True)
def _ref_default():
  yield
  tf.disable_resource_variables()


def test_graph_structure_matches_tf(g):
  v = tf.Variable([1.0, 2.0], use_resource=True, name="v")
  assert [(op.name, op.type) for op in g.get_operations()] == [
      ("v/Initializer/initial_value", "Const"), ("v", "VarHandleOp"),
      ("v/IsInitialized/VarIsInitializedOp", "VarIsInitializedOp"),
      ("v/Assign", "AssignVariableOp"), ("v/Read/ReadVariableOp", "ReadVariableOp")]
  assert type(v).__name__ == "ResourceVariable"
  assert isinstance(v, tf.Variable)
  assert v.name == "v:0" and v.op.type == "VarHandleOp"
  assert v.dtype is tf.float32 and not v.dtype._is_ref_dtype
  assert v.shape.as_list() == [2]
  assert v.initializer.name == "v/Assign"
  assert v.handle.dtype == tf.resource
  proto = v.to_proto()
  assert (proto.variable_name, proto.initializer_name, proto.snapshot_name, proto.is_resource) == (
      "v:0", "v/Assign", "v/Read/ReadVariableOp:0", True)
  assert proto.initial_value_name == "v/Initializer/initial_value:0"
  assert repr(v) == "<tf.Variable 'v:0' shape=(2,) dtype=float32>"


def test_ways_to_make_one(g):
  assert not tf.resource_variables_enabled()
  a = tf.Variable(1.0)
  b = tf.get_variable("b", [2], use_resource=True)
  with tf.variable_scope("s", use_resource=True):
    c = tf.get_variable("c", [3])
  tf.enable_resource_variables()
  assert tf.resource_variables_enabled()
  d = tf.Variable(2.0)
  e = tf.get_variable("e", [1])
  f = tf.Variable(3.0, use_resource=False)
  tf.disable_resource_variables()
  kinds = [type(x).__name__ for x in (a, b, c, d, e, f)]
  assert kinds == ["Variable", "ResourceVariable", "ResourceVariable", "ResourceVariable",
                   "ResourceVariable", "Variable"]
  assert c.name == "s/c:0"


def test_read_assign_and_control_dependencies(g):
  v = tf.Variable([1.0, 2.0], use_resource=True)
  inc = v.assign_add([10.0, 10.0])
  with tf.control_dependencies([inc]):
    after = v.read_value() * 1.0
  dec = v.assign_sub([1.0, 1.0], read_value=False)
  set_op = v.assign([5.0, 6.0])
  with tf.Session() as s:
    s.run(v.initializer)
    assert s.run(tf.is_variable_initialized(v))
    np.testing.assert_array_equal(s.run(after), [11.0, 12.0])
    s.run(dec)
    np.testing.assert_array_equal(s.run(v), [10.0, 11.0])
    np.testing.assert_array_equal(s.run(set_op), [5.0, 6.0])
    np.testing.assert_array_equal(v.eval(), [5.0, 6.0])
    np.testing.assert_array_equal(s.run(v + 1.0), [6.0, 7.0])
    np.testing.assert_array_equal(s.run(v[1]), 6.0)
    v.load([7.0, 8.0], s)
    np.testing.assert_array_equal(s.run(v.value()), [7.0, 8.0])


def test_sparse_read_and_scatter(g):
  v = tf.Variable(np.arange(12, dtype=np.float32).reshape(4, 3), use_resource=True)
  rows = v.sparse_read([3, 0])
  add = v.scatter_add(Slices(tf.ones([1, 3]), tf.constant([1])))
  upd = v.scatter_update(Slices(tf.zeros([1, 3]), tf.constant([2])))
  with tf.Session() as s:
    s.run(v.initializer)
    np.testing.assert_array_equal(s.run(rows), [[9, 10, 11], [0, 1, 2]])
    s.run(add)
    s.run(upd)
    np.testing.assert_array_equal(s.run(v), [[0, 1, 2], [4, 5, 6], [0, 0, 0], [9, 10, 11]])


def test_uninitialized_read_is_failed_precondition(g):
  v = tf.Variable([1.0], use_resource=True, name="never")
  with tf.Session() as s:
    with pytest.raises(tf.errors.FailedPreconditionError, match="never"):
      s.run(v.read_value())
    assert not s.run(tf.is_variable_initialized(v))
    assert s.run(tf.report_uninitialized_variables()).tolist() == [b"never"]


def _train(make_opt, use_resource, steps=5):
  """Loss values and final weights of a small regression trained by make_opt()."""
  graph = tf.Graph()
  with graph.as_default():
    tf.set_random_seed(1)
    rng = np.random.RandomState(0)
    x = tf.constant(rng.randn(16, 3).astype(np.float32))
    y = tf.constant(rng.randn(16, 2).astype(np.float32))
    w = tf.get_variable("w", initializer=rng.randn(3, 2).astype(np.float32),
                        use_resource=use_resource)
    e = tf.get_variable("e", initializer=rng.randn(5, 3).astype(np.float32),
                        use_resource=use_resource)
    rows = e.sparse_read([0, 3]) if use_resource else tf.gather(e, [0, 3])
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - y)) + tf.reduce_sum(tf.square(rows))
    step = make_opt().minimize(loss)
    with tf.Session() as s:
      s.run(tf.global_variables_initializer())
      losses = [s.run([loss, step])[0] for _ in range(steps)]
      ops = {op.type for op in graph.get_operations()}
      return losses, s.run(w), s.run(e), ops


OPTIMIZERS = {
    "sgd": (lambda: tf.train.GradientDescentOptimizer(0.1), "ResourceApplyGradientDescent"),
    "momentum": (lambda: tf.train.MomentumOptimizer(0.1, 0.9, use_nesterov=True),
                 "ResourceApplyMomentum"),
    "adam": (lambda: tf.train.AdamOptimizer(0.05), "ResourceApplyAdam"),
    "adagrad": (lambda: tf.train.AdagradOptimizer(0.1), "ResourceApplyAdagrad"),
    "rmsprop": (lambda: tf.train.RMSPropOptimizer(0.01, momentum=0.5), "ResourceApplyRMSProp"),
    "centered_rmsprop": (lambda: tf.train.RMSPropOptimizer(0.01, momentum=0.5, centered=True),
                         "ResourceApplyCenteredRMSProp"),
}


@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_optimizers_match_ref_variables(name):
  make_opt, op_type = OPTIMIZERS[name]
  ref_losses, ref_w, ref_e, ref_ops = _train(make_opt, False)
  res_losses, res_w, res_e, res_ops = _train(make_opt, True)
  assert op_type in res_ops and op_type not in ref_ops
  assert not any(t.startswith("Resource") for t in ref_ops)
  assert res_losses[-1] < res_losses[0]
  np.testing.assert_allclose(res_losses, ref_losses, rtol=1e-6)
  np.testing.assert_allclose(res_w, ref_w, rtol=1e-6)
  np.testing.assert_allclose(res_e, ref_e, rtol=1e-6)


def test_slots_are_resource_variables(g):
  v = tf.Variable([1.0, 2.0], use_resource=True, name="v")
  opt = tf.train.AdamOptimizer()
  opt.minimize(tf.reduce_sum(v * v))
  assert type(opt.get_slot(v, "m")).__name__ == "ResourceVariable"
  assert sorted(x.op.name for x in opt.variables()) == [
      "beta1_power", "beta2_power", "v/Adam", "v/Adam_1"]


def test_saver_round_trip_and_ref_interchange(tmp_path, g):
  v = tf.Variable([[1.0, 2.0], [3.0, 4.0]], use_resource=True, name="v")
  saver = tf.train.Saver()
  path = str(tmp_path / "m")
  with tf.Session() as s:
    s.run(v.initializer)
    saver.save(s, path)
    s.run(v.assign(tf.zeros([2, 2])))
    saver.restore(s, path)
    np.testing.assert_array_equal(s.run(v), [[1, 2], [3, 4]])
  # the checkpoint restores into a ref variable of the same name, and back
  with tf.Graph().as_default():
    r = tf.Variable(tf.zeros([2, 2]), name="v")
    with tf.Session() as s:
      tf.train.Saver().restore(s, path)
      np.testing.assert_array_equal(s.run(r), [[1, 2], [3, 4]])
  assert [n for n, _ in tf.train.list_variables(path)] == ["v"]


def test_meta_graph_round_trip(tmp_path, g):
  v = tf.Variable([3.0, 4.0], use_resource=True, name="v")
  saver = tf.train.Saver()
  path = str(tmp_path / "m")
  with tf.Session() as s:
    s.run(v.initializer)
    saver.save(s, path)
  with tf.Graph().as_default():
    restorer = tf.train.import_meta_graph(path + ".meta")
    (w,) = tf.global_variables()
    assert type(w).__name__ == "ResourceVariable" and w.name == "v:0"
    with tf.Session() as s:
      restorer.restore(s, path)
      np.testing.assert_array_equal(s.run(w), [3.0, 4.0])


def test_destroy_and_session_reset_free_the_variable(g):
  from tfc.ops import resource_variable_ops as rv
  v = tf.Variable([1.0], use_resource=True)
  destroy = rv.destroy_resource_op(v.handle)
  strict = rv.destroy_resource_op(v.handle, ignore_lookup_error=False)
  with tf.Session() as s:
    s.run(v.initializer)
    s.run(destroy)
    assert not s.run(v.is_initialized())
    with pytest.raises(tf.errors.NotFoundError):
      s.run(strict)


def test_wrong_dtype_assign_is_invalid_argument(g):
  from tfc.ops import resource_variable_ops as rv
  h = rv.var_handle_op(tf.float32, [2], shared_name="x")
  ok = rv.assign_variable_op(h, tf.constant([1.0, 2.0]))
  h2 = rv.var_handle_op(tf.int32, [2], shared_name="x")
  bad = rv.assign_variable_op(h2, tf.constant([1, 2]))
  with tf.Session() as s:
    s.run(ok)
    with pytest.raises(tf.errors.InvalidArgumentError, match="wrong dtype"):
      s.run(bad)
