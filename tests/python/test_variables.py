"""tf.Variable, get_variable/variable_scope, initializers and variable collections."""
import numpy as np
import pytest

import tfc as tf




@pytest.fixture
def g():
  graph = tf.Graph()
  with graph.as_default():
    yield graph


def test_variable_graph_structure(g):
  v = tf.Variable([1.0, 2.0])
  ops = [(op.name, op.type) for op in g.get_operations()]
  assert ops == [("Variable/initial_value", "Const"), ("Variable", "VariableV2"),
                 ("Variable/Assign", "Assign"), ("Variable/read", "Identity")]
  assert v.name == "Variable:0"
  assert v.op.name == "Variable"
  assert v.dtype == tf.as_dtype("float32_ref") and v.dtype._is_ref_dtype
  assert v.dtype.base_dtype is tf.float32
  assert v.shape.as_list() == [2] and v.get_shape().as_list() == [2]
  assert v.initializer.name == "Variable/Assign"
  assert v.value().name == "Variable/read:0"
  assert v.initial_value.name == "Variable/initial_value:0"
  assert v.graph is g
  assert v.value().op.get_attr("_class") == [b"loc:@Variable"]
  assert v.initializer.get_attr("_class") == [b"loc:@Variable"]
  assert repr(v) == "<tf.Variable 'Variable:0' shape=(2,) dtype=float32_ref>"
  w = tf.Variable(tf.zeros([3]), name="w")
  assert w.initial_value.name == "zeros:0"
  assert tf.Variable(1, name="w").name == "w_1:0"
  assert tf.global_variables() == [v, w, g.get_collection("variables")[2]]
  assert tf.trainable_variables() == tf.global_variables()
  nt = tf.Variable(1, trainable=False, name="nt")
  assert nt in tf.global_variables() and nt not in tf.trainable_variables()
  loc = tf.Variable(1, collections=[tf.GraphKeys.LOCAL_VARIABLES], trainable=False)
  assert tf.local_variables() == [loc]


def test_variable_run_assign_and_operators(g):
  v = tf.Variable([1.0, 2.0], name="v")
  c = tf.Variable(10, name="c")
  plus = v + 1.0
  rplus = 1.0 + v
  sl = v[1]
  with tf.Session() as s:
    s.run(tf.global_variables_initializer())
    np.testing.assert_allclose(s.run(v), [1.0, 2.0])
    np.testing.assert_allclose(s.run(plus), [2.0, 3.0])
    np.testing.assert_allclose(s.run(rplus), [2.0, 3.0])
    assert s.run(sl) == 2.0
    np.testing.assert_allclose(s.run(v.assign([3.0, 4.0])), [3.0, 4.0])
    np.testing.assert_allclose(s.run(v.assign_add([1.0, 1.0])), [4.0, 5.0])
    np.testing.assert_allclose(s.run(v.assign_sub([2.0, 2.0])), [2.0, 3.0])
    assert s.run(c.assign_add(5)) == 15
    assert s.run(tf.assign(c, 3)) == 3
    assert isinstance(v.assign([0.0, 0.0], read_value=False), tf.Operation)
    np.testing.assert_allclose(v.eval(session=s), [2.0, 3.0])
    v.load([7.0, 8.0], s)
    np.testing.assert_allclose(s.run(v.read_value()), [7.0, 8.0])
    np.testing.assert_allclose(s.run(tf.matmul(tf.reshape(v, [1, 2]), [[1.0], [1.0]])), [[15.0]])


def test_variable_as_fetch_feed_and_control_input(g):
  v = tf.Variable(3.0, name="v")
  with tf.control_dependencies([v.initializer]):
    after = v.read_value()
  with tf.Session() as s:
    assert s.run(after) == 3.0
    assert s.run([v])[0] == 3.0
    assert s.run({"v": v})["v"] == 3.0
    assert s.run(v * 2.0, feed_dict={v: 5.0}) == 10.0


def test_initialization_helpers(g):
  a = tf.Variable(1.0, name="a")
  b = tf.Variable(2.0, name="b")
  report = tf.report_uninitialized_variables()
  init_a = tf.variables_initializer([a])
  assert init_a.type == "NoOp" and init_a.name == "init"
  assert sorted(o.name for o in init_a.control_inputs) == ["a/Assign"]
  is_init = tf.is_variable_initialized(b)
  assert is_init.op.type == "IsVariableInitialized"
  with tf.Session() as s:
    assert list(s.run(report)) == [b"a", b"b"]
    s.run(init_a)
    assert list(s.run(report)) == [b"b"]
    assert not s.run(is_init)
    s.run(tf.global_variables_initializer())
    assert list(s.run(report)) == []
    assert s.run(is_init)


def test_initialized_value_and_dependent_variables(g):
  w = tf.Variable(tf.constant([1.0, 2.0]), name="w")
  w2 = tf.Variable(w.initialized_value() * 2.0, name="w2")
  with tf.Session() as s:
    s.run(tf.global_variables_initializer())
    np.testing.assert_allclose(s.run(w2), [2.0, 4.0])


def test_to_proto_and_from_proto(g):
  tf.Variable("local_cpu")
  tf.Variable("my_var")
  v = tf.Variable("my_var")
  text = str(v.to_proto())
  assert text == ('variable_name: "Variable_2:0"\n'
                  'initializer_name: "Variable_2/Assign"\n'
                  'snapshot_name: "Variable_2/read:0"\n'
                  'initial_value_name: "Variable_2/initial_value:0"\n'
                  'trainable: true\n')
  proto = v.to_proto()
  assert proto.variable_name == "Variable_2:0"
  assert proto == v.to_proto()
  back = tf.Variable.from_proto(proto)
  assert back.name == v.name and back.initializer is v.initializer
  assert back.value() is v.value()
  parsed = type(proto)()
  parsed.ParseFromString(proto.SerializeToString())
  assert parsed == proto
  assert v.to_proto(export_scope="other") is None


def test_validation_errors(g):
  with pytest.raises(ValueError, match="initial_value must be specified"):
    tf.Variable()
  with pytest.raises(ValueError, match="must have a shape specified"):
    tf.Variable(tf.placeholder(tf.float32, [None]))
  u = tf.Variable(tf.placeholder(tf.float32, [None]), validate_shape=False)
  assert u.shape.ndims is None
  with pytest.raises(ValueError, match="collections argument"):
    tf.Variable(1.0, collections="bad")


def test_get_variable_and_scopes(g):
  with tf.variable_scope("layer"):
    w = tf.get_variable("w", [2, 3])
    b = tf.get_variable("b", [3], initializer=tf.zeros_initializer())
    c = tf.constant(1.0)
  assert w.name == "layer/w:0" and b.name == "layer/b:0"
  assert c.op.name == "layer/Const"
  assert w.initial_value.name == "layer/w/Initializer/random_uniform:0"
  assert w.initializer.get_attr("_class") == [b"loc:@layer/w"]
  with tf.variable_scope("layer", reuse=True):
    assert tf.get_variable("w", [2, 3]) is w
    assert tf.get_variable("w") is w
  with tf.variable_scope("layer") as scope:
    scope.reuse_variables()
    assert tf.get_variable("b") is b
    assert tf.get_variable_scope().reuse
  with pytest.raises(ValueError, match="Variable layer/w already exists, disallowed. Did you "
                                       "mean to set reuse=True or reuse=tf.AUTO_REUSE in "
                                       "VarScope?"):
    with tf.variable_scope("layer"):
      tf.get_variable("w", [2, 3])
  with pytest.raises(ValueError, match="Variable layer/nope does not exist, or was not created "
                                       "with tf.get_variable()"):
    with tf.variable_scope("layer", reuse=True):
      tf.get_variable("nope", [1])
  with pytest.raises(ValueError, match="Trying to share variable layer/w, but specified shape "
                                       r"\(3, 3\) and found shape \(2, 3\)."):
    with tf.variable_scope("layer", reuse=True):
      tf.get_variable("w", [3, 3])
  with tf.variable_scope("auto", reuse=tf.AUTO_REUSE):
    a1 = tf.get_variable("a", [1])
  with tf.variable_scope("auto", reuse=tf.AUTO_REUSE):
    a2 = tf.get_variable("a", [1])
  assert a1 is a2
  with tf.variable_scope(None, default_name="block"):
    x1 = tf.get_variable("x", [1])
  with tf.variable_scope(None, default_name="block"):
    x2 = tf.get_variable("x", [1])
  assert (x1.name, x2.name) == ("block/x:0", "block_1/x:0")
  with tf.variable_scope("outer"):
    with tf.variable_scope("inner") as inner:
      assert inner.name == "outer/inner"
      assert inner.original_name_scope == "outer/inner/"
      y = tf.get_variable("y", [], dtype=tf.int32)
  assert y.dtype.base_dtype is tf.int32
  with tf.variable_scope(inner):
    assert tf.get_variable_scope().name == "outer/inner"
  with tf.name_scope("ns"):
    z = tf.get_variable("z", [1])  # name scopes do not prefix get_variable names
  assert z.name == "z:0"


def test_variable_scope_initializer_and_values(g):
  with tf.variable_scope("s", initializer=tf.constant_initializer(3.0)):
    v = tf.get_variable("v", [2])
    w = tf.get_variable("w", [2], initializer=tf.ones_initializer())
    n = tf.get_variable("n", initializer=tf.constant([1, 2]))
  with tf.Session() as s:
    s.run(tf.global_variables_initializer())
    np.testing.assert_allclose(s.run(v), [3.0, 3.0])
    np.testing.assert_allclose(s.run(w), [1.0, 1.0])
    np.testing.assert_array_equal(s.run(n), [1, 2])


def test_initializers_statistics(g):
  tf.set_random_seed(1234)
  shape = [200, 100]
  inits = {
      "zeros": tf.zeros_initializer()(shape),
      "ones": tf.ones_initializer()(shape),
      "const": tf.constant_initializer(2.5)(shape),
      "uniform": tf.random_uniform_initializer(-2.0, 2.0)(shape),
      "normal": tf.random_normal_initializer(1.0, 0.5)(shape),
      "trunc": tf.truncated_normal_initializer(0.0, 1.0)(shape),
      "glorot_u": tf.glorot_uniform_initializer()(shape),
      "glorot_n": tf.glorot_normal_initializer()(shape),
      "vs": tf.variance_scaling_initializer(scale=2.0, mode="fan_in",
                                            distribution="uniform")(shape),
  }
  with tf.Session() as s:
    r = s.run(inits)
  assert (r["zeros"] == 0).all() and (r["ones"] == 1).all() and (r["const"] == 2.5).all()
  assert r["uniform"].min() >= -2.0 and r["uniform"].max() < 2.0
  assert abs(r["uniform"].mean()) < 0.1
  assert abs(r["normal"].mean() - 1.0) < 0.05 and abs(r["normal"].std() - 0.5) < 0.05
  assert np.abs(r["trunc"]).max() <= 2.0
  limit = np.sqrt(6.0 / (200 + 100))
  assert np.abs(r["glorot_u"]).max() <= limit
  assert np.abs(r["glorot_n"]).max() <= 2.0 * np.sqrt(2.0 / 300) / .87962566103423978
  vs_limit = np.sqrt(3.0 * 2.0 / 200)
  assert np.abs(r["vs"]).max() <= vs_limit and np.abs(r["vs"]).max() > 0.9 * vs_limit


def test_random_seeds(g):
  assert tf.get_seed(None) == (None, None)
  assert tf.get_seed(5) == (87654321, 5)
  tf.set_random_seed(0)
  assert tf.get_seed(0) == (0, 2 ** 31 - 1)
  tf.set_random_seed(42)
  n = len(g.get_operations())
  assert tf.get_seed(None) == (42, n)
  r = tf.random_uniform([3], seed=7)
  rnd_op = [op for op in g.get_operations() if op.type == "RandomUniform"][0]
  assert rnd_op.get_attr("seed") == 42 and rnd_op.get_attr("seed2") == 7
  with tf.Session() as s1:
    a = s1.run(r)
  with tf.Session() as s2:
    b = s2.run(r)
  np.testing.assert_array_equal(a, b)
