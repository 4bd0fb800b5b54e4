"""Graph construction: names, scopes, control dependencies, collections, lookups,
Tensor/Operation properties and operator overloads (TF 1.15 behaviour)."""
import numpy as np
import pytest

import tfc as tf




@pytest.fixture
def g():
  graph = tf.Graph()
  with graph.as_default():
    yield graph


def names(graph):
  return [op.name for op in graph.get_operations()]


def test_default_graph_stack_and_reset():
  g0 = tf.get_default_graph()
  assert isinstance(g0, tf.Graph)
  g1 = tf.Graph()
  with g1.as_default() as entered:
    assert entered is g1
    assert tf.get_default_graph() is g1
    c = tf.constant(1.0)
    assert c.graph is g1
    with pytest.raises(AssertionError, match="nested graphs"):
      tf.reset_default_graph()
  assert tf.get_default_graph() is g0
  tf.reset_default_graph()
  assert tf.get_default_graph() is not g0


def test_unique_names_are_case_insensitive(g):
  a = tf.constant(1.0)
  b = tf.constant(2.0)
  c = tf.add(a, b)
  d = a + b
  e = a - b
  f = tf.subtract(a, b)
  assert [t.op.name for t in (a, b, c, d, e, f)] == ["Const", "Const_1", "Add", "add_1", "sub",
                                                    "Sub_1"]
  assert c.op.type == "Add"
  assert d.op.type in ("AddV2", "Add")
  assert g.unique_name("foo") == "foo"
  assert g.unique_name("foo") == "foo_1"
  assert g.unique_name("foo", mark_as_used=False) == "foo_2"
  assert g.unique_name("foo") == "foo_2"
  assert g.unique_name("foo_1") == "foo_1_1"


def test_name_scopes(g):
  with tf.name_scope("a") as scope:
    assert scope == "a/"
    x = tf.constant(1.0, name="x")
    with tf.name_scope("b") as inner:
      assert inner == "a/b/"
      y = tf.constant(1.0)
    with tf.name_scope(None):
      root = tf.constant(1.0)
  with tf.name_scope("a") as scope2:
    assert scope2 == "a_1/"
  with tf.name_scope("a/") as abs_scope:
    assert abs_scope == "a/"
    z = tf.constant(1.0, name="z")
  with tf.name_scope("outer"):
    with tf.name_scope("") as empty:
      assert empty == ""
      top = tf.constant(0.0, name="top")
  with tf.name_scope(None, "default") as d1, tf.name_scope(None, "default") as d2:
    pass
  assert (d1, d2) == ("default/", "default/default/")
  assert [x.op.name, y.op.name, root.op.name, z.op.name, top.op.name] == [
      "a/x", "a/b/Const", "Const", "a/z", "top"]
  with pytest.raises(ValueError, match="not a valid scope name"):
    with tf.name_scope("-bad"):
      pass


def test_explicit_name_with_slash_is_exact_and_duplicate_fails(g):
  a = tf.constant(1.0, name="exact/")
  assert a.op.name == "exact"
  with pytest.raises(ValueError):
    tf.constant(1.0, name="exact/")


def test_input_conversion_names_and_dtypes(g):
  x = tf.placeholder(tf.float32, [2], name="x")
  y = tf.add(x, 1)
  assert y.op.inputs[1].op.name == "Add/y"
  assert y.op.inputs[1].dtype == tf.float32
  r = 2 - x
  assert r.op.type == "Sub"
  assert [t.name for t in r.op.inputs] == ["sub/x:0", "x:0"]
  i = tf.constant([1, 2])
  q = i / 2
  assert q.dtype == tf.float64
  assert [op.type for op in g.get_operations()[-4:]] == ["Const", "Cast", "Cast", "RealDiv"]
  assert q.op.name == "truediv"
  assert (i // 2).op.type == "FloorDiv"
  assert (i % 2).op.type == "FloorMod"
  assert (x ** 2).op.type == "Pow"


def test_dtype_mismatch_errors(g):
  a = tf.constant(1.0)
  b = tf.constant(1)
  with pytest.raises(TypeError, match=r"Input 'y' of 'Add' Op has type int32 that does not "
                                      r"match type float32 of argument 'x'\."):
    tf.add(a, b)
  # TF 1.x converts the right operand to the left's dtype; when that fails for a
  # Python number, the operator returns NotImplemented and Python raises.
  with pytest.raises(TypeError, match="unsupported operand type"):
    b + 1.5
  with pytest.raises(TypeError, match="Input 'b' of 'MatMul' Op has type int32"):
    tf.matmul([[1.0]], [[1]])


def test_python_value_conversion_rules(g):
  assert tf.constant(1.5).dtype == tf.float32
  assert tf.constant(3).dtype == tf.int32
  assert tf.constant(2 ** 40).dtype == tf.int64
  assert tf.constant(True).dtype == tf.bool
  assert tf.constant("s").dtype == tf.string
  assert tf.constant(b"s").dtype == tf.string
  assert tf.constant(np.float64(1)).dtype == tf.float64
  assert tf.constant(np.arange(3, dtype=np.int16)).dtype == tf.int16
  assert tf.constant([1, 2.5]).dtype == tf.float32
  c = tf.constant(7, shape=[2, 2])
  np.testing.assert_array_equal(c.op.get_attr("value"), np.full((2, 2), 7, np.int32))
  d = tf.constant([1, 2], shape=[4])
  np.testing.assert_array_equal(d.op.get_attr("value"), [1, 2, 2, 2])
  assert tf.constant([1, 2, 3, 4], shape=[2, 2]).shape.as_list() == [2, 2]
  with pytest.raises(ValueError, match="Too many elements provided"):
    tf.constant([1, 2, 3], shape=[2])
  with pytest.raises(TypeError, match="Expected Tensor's shape"):
    tf.constant([1, 2, 3, 4], shape=[2, 2], verify_shape=True)
  with pytest.raises(TypeError, match="Expected int32, got 1.5 of type 'float' instead."):
    tf.constant(1.5, dtype=tf.int32)
  assert c.op.get_attr("dtype") == tf.int32


def test_tensor_properties_and_repr(g):
  p = tf.placeholder(tf.float32, shape=[None, 3], name="p")
  assert repr(p) == "<tf.Tensor 'p:0' shape=(?, 3) dtype=float32>"
  assert str(p) == 'Tensor("p:0", shape=(?, 3), dtype=float32)'
  assert p.name == "p:0"
  assert p.value_index == 0
  assert p.dtype is tf.float32
  assert p.shape.as_list() == [None, 3]
  assert p.get_shape().ndims == 2
  assert p.op.type == "Placeholder"
  assert p.op.outputs[0] is p
  assert p.graph is g
  assert p.device == ""
  u = tf.placeholder(tf.int32)
  assert u.shape.ndims is None
  assert str(u.shape) == "<unknown>"
  p.set_shape([5, 3])
  assert p.shape.as_list() == [5, 3]
  with pytest.raises(ValueError):
    p.set_shape([4, 3])
  s = tf.identity(p)
  assert p.consumers() == [s.op]
  assert hash(p) == hash(p) and p == p and p != s
  with pytest.raises(TypeError, match="as a Python `bool` is not allowed"):
    bool(p)
  with pytest.raises(TypeError, match="unknown shape"):
    next(iter(u))
  parts = list(tf.constant([[1, 2], [3, 4]]))
  assert [t.op.type for t in parts] == ["StridedSlice", "StridedSlice"]
  with pytest.raises(TypeError):
    len(p)


def test_operation_properties(g):
  a = tf.constant([1.0, 2.0], name="a")
  b = tf.constant([3.0, 4.0], name="b")
  c = tf.add(a, b, name="c")
  op = c.op
  assert repr(op) == "<tf.Operation 'c' type=Add>"
  assert op.name == "c" and op.type == "Add"
  assert list(op.inputs) == [a, b]
  assert list(op.values()) == [c]
  assert op.get_attr("T") is tf.float32
  with pytest.raises(ValueError):
    op.get_attr("nope")
  assert op.node_def.input == ["a", "b"]
  assert op.node_def.op == "Add"


def test_getitem_strided_slice(g):
  x = tf.placeholder(tf.float32, [4, 3], name="x")
  y = x[1:3, ::2]
  assert y.op.type == "StridedSlice"
  assert y.op.name == "strided_slice"
  assert y.shape.as_list() == [2, 2]
  assert y.op.get_attr("begin_mask") == 2 and y.op.get_attr("end_mask") == 2
  z = x[0]
  assert z.op.get_attr("shrink_axis_mask") == 1
  assert z.shape.as_list() == [3]
  w = x[..., tf.newaxis]
  assert w.op.get_attr("ellipsis_mask") == 1 and w.op.get_attr("new_axis_mask") == 2
  assert w.shape.as_list() == [4, 3, 1]
  t = x[tf.constant(1)]
  assert t.shape.as_list() == [3]
  with pytest.raises(TypeError, match="Only integers, slices"):
    x[1.5]


def test_lookup_errors(g):
  tf.placeholder(tf.float32, name="a")
  assert g.get_tensor_by_name("a:0").op.name == "a"
  assert g.get_operation_by_name("a").type == "Placeholder"
  with pytest.raises(KeyError) as e:
    g.get_tensor_by_name("x:0")
  assert e.value.args[0] == ("The name 'x:0' refers to a Tensor which does not exist. The "
                             "operation, 'x', does not exist in the graph.")
  with pytest.raises(KeyError, match="exists but only has 1 outputs"):
    g.get_tensor_by_name("a:1")
  with pytest.raises(ValueError, match="refers to an Operation, not a Tensor"):
    g.get_tensor_by_name("a")
  with pytest.raises(KeyError, match="refers to an Operation not in the graph"):
    g.get_operation_by_name("x")
  with pytest.raises(ValueError, match="appears to refer to a Tensor, not a Operation"):
    g.get_operation_by_name("a:0")
  with pytest.raises(TypeError, match="Can not convert a int into a Tensor or Operation."):
    g.as_graph_element(3)
  other = tf.Graph()
  with other.as_default():
    o = tf.constant(1.0)
  with pytest.raises(ValueError, match="is not an element of this graph"):
    g.as_graph_element(o)


def test_control_dependencies(g):
  a = tf.constant(1.0, name="a")
  b = tf.constant(2.0, name="b")
  with tf.control_dependencies([a, b.op]):
    c = tf.constant(3.0, name="c")
    d = c + 1.0  # input already depends on a and b: no control edges added
    with tf.control_dependencies([a]):  # a already in the stack: not added twice
      e = tf.constant(4.0, name="e")
    with tf.control_dependencies(None):
      f = tf.constant(5.0, name="f")
  assert [o.name for o in c.op.control_inputs] == ["a", "b"]
  assert list(d.op.control_inputs) == []
  assert [o.name for o in e.op.control_inputs] == ["a", "b"]
  assert list(f.op.control_inputs) == []
  with pytest.raises(TypeError):
    with tf.control_dependencies([1]):
      pass


def test_collections(g):
  g.add_to_collection("k", 1)
  tf.add_to_collection("k", 2)
  tf.add_to_collections(["k", "j"], 3)
  assert g.get_collection("k") == [1, 2, 3]
  ref = g.get_collection_ref("k")
  ref.append(4)
  assert tf.get_collection("k") == [1, 2, 3, 4]
  assert sorted(g.get_all_collection_keys()) == ["j", "k"]
  a = tf.constant(1.0, name="scope1/a")
  b = tf.constant(1.0, name="scope2/b")
  g.add_to_collection("t", a)
  g.add_to_collection("t", b)
  g.add_to_collection("t", 5)  # items without a name are skipped by the scope filter
  assert g.get_collection("t", scope="scope2") == [b]
  g.clear_collection("k")
  assert g.get_collection("k") == []
  assert g.get_collection("missing") == []


def test_finalize(g):
  tf.constant(1.0)
  g.finalize()
  assert g.finalized
  with pytest.raises(RuntimeError, match="Graph is finalized and cannot be modified."):
    tf.constant(2.0)
  with pytest.raises(RuntimeError, match="finalized"):
    g.add_to_collection("x", 1)


def test_graph_seed_and_last_id(g):
  assert g.seed is None
  tf.set_random_seed(7)
  assert g.seed == 7
  tf.constant(1.0)
  assert g._last_id == len(g.get_operations())
  with g.gradient_override_map({"Square": "CustomSquare"}):
    assert g._gradient_override_map == {"Square": "CustomSquare"}
  assert g._gradient_override_map == {}
  assert g.is_fetchable(g.get_operations()[0])


def test_colocate_with(g):
  with tf.device("/job:ps/task:0"):
    a = tf.constant(1.0, name="a")
  with tf.device("/job:worker"):
    with g.colocate_with(a.op):
      b = tf.identity(a, name="b")
  assert b.op.get_attr("_class") == [b"loc:@a"]
  assert b.op.device == "/job:ps/task:0"


def test_operators_map_to_tf_ops(g):
  x = tf.constant([1.0, 2.0])
  bt = tf.constant([True, False])
  m = tf.constant([[1.0, 2.0]])
  cases = [
      (x + x, "AddV2"), (x - x, "Sub"), (x * x, "Mul"), (x / x, "RealDiv"),
      (x // x, "FloorDiv"), (x % x, "FloorMod"), (x ** x, "Pow"), (-x, "Neg"),
      (abs(x), "Abs"), (x < x, "Less"), (x <= x, "LessEqual"), (x > x, "Greater"),
      (x >= x, "GreaterEqual"), (bt & bt, "LogicalAnd"), (bt | bt, "LogicalOr"),
      (~bt, "LogicalNot"), (m @ tf.transpose(m), "MatMul"), (1.0 + x, "AddV2"),
      (1.0 - x, "Sub"), (2.0 * x, "Mul"), (1.0 / x, "RealDiv"), (np.float32(1) + x, "AddV2"),
  ]
  for t, op_type in cases:
    assert t.op.type == op_type
  xor = bt ^ bt
  assert xor.op.type == "LogicalAnd" and xor.op.name == "xor"
  assert (x == x) is True  # __eq__ stays identity in TF 1.x


def test_scopes_are_per_thread(g):
  import threading
  results = {}

  def build():
    with g.as_default():
      results["other"] = tf.constant(1.0, name="c").op.name
      results["device"] = tf.constant(1.0).device

  with tf.name_scope("main_thread"), tf.device("/cpu:0"):
    t = threading.Thread(target=build)
    t.start()
    t.join()
    mine = tf.constant(1.0, name="c")
  assert results == {"other": "c", "device": ""}
  assert mine.op.name == "main_thread/c" and mine.device == "/device:CPU:0"


def test_numpy_input_keeps_its_dtype_over_a_type_attr_default():
  """A NumPy value fed to an op whose type attr has a default keeps its dtype
  (EncodePng's T defaults to uint8; a uint16 image stays uint16)."""
  g = tf.Graph()
  with g.as_default():
    img = np.zeros((2, 2, 1), np.uint16)
    png = tf.image.encode_png(img)
    assert png.op.inputs[0].dtype == tf.uint16
    # untyped Python values still follow the default
    r = tf.range(3)
    assert r.dtype == tf.int32
