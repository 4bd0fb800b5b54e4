"""repr() and str() of graph objects as TensorFlow 1.x prints them.

The expected texts are those TensorFlow prints for the same graph (taken
from tensorflow 2.21 with tf.compat.v1 and v2 behaviour disabled, whose
formats are TF 1.15's). Graph and Session use the default object repr, which
names tfc's module (`tfc.framework.ops.Graph`) where TF names its own
(`tensorflow.python.framework.ops.Graph`).
"""
import re

import pytest

import tfc as tf
from tfc import protos


@pytest.fixture(autouse=True)
def _fresh_graph():
  tf.reset_default_graph()
  yield


def test_tensor_repr_and_str():
  c = tf.constant([1., 2.])
  assert repr(c) == "<tf.Tensor 'Const:0' shape=(2,) dtype=float32>"
  assert str(c) == 'Tensor("Const:0", shape=(2,), dtype=float32)'
  with tf.device("/cpu:0"):
    d = tf.constant([1., 2.], name="d")
  assert repr(d) == "<tf.Tensor 'd:0' shape=(2,) dtype=float32>"
  assert str(d) == 'Tensor("d:0", shape=(2,), dtype=float32, device=/device:CPU:0)'
  p = tf.placeholder(tf.int32, shape=[None])
  assert repr(p) == "<tf.Tensor 'Placeholder:0' shape=(?,) dtype=int32>"
  assert str(p) == 'Tensor("Placeholder:0", shape=(?,), dtype=int32)'
  # unknown rank: repr says <unknown>, str leaves the shape out
  u = tf.placeholder(tf.float32)
  assert repr(u) == "<tf.Tensor 'Placeholder_1:0' shape=<unknown> dtype=float32>"
  assert str(u) == 'Tensor("Placeholder_1:0", dtype=float32)'
  with tf.device("/job:ps/task:0"):
    w = tf.Variable(1.0, name="w")
  assert str(w.value()) == 'Tensor("w/read:0", shape=(), dtype=float32, device=/job:ps/task:0)'


def test_variable_repr_and_str():
  v = tf.Variable([1., 2.], name="v")
  assert repr(v) == "<tf.Variable 'v:0' shape=(2,) dtype=float32_ref>"
  assert str(v) == repr(v)
  s = tf.Variable("my_var")
  assert repr(s) == "<tf.Variable 'Variable:0' shape=() dtype=string_ref>"
  # the variable's ref tensor and its snapshot
  assert repr(v._ref()) == "<tf.Tensor 'v:0' shape=(2,) dtype=float32_ref>"
  assert repr(v.value()) == "<tf.Tensor 'v/read:0' shape=(2,) dtype=float32>"


def test_operation_repr():
  c = tf.constant([1., 2.])
  assert repr(c.op) == "<tf.Operation 'Const' type=Const>"
  v = tf.Variable([1., 2.], name="v")
  assert repr(v.initializer) == "<tf.Operation 'v/Assign' type=Assign>"


CONST_TEXT = '''name: "Const"
op: "Const"
attr {
  key: "value"
  value {
    tensor {
      dtype: DT_FLOAT
      tensor_shape {
        dim {
          size: 2
        }
      }
      tensor_content: "\\000\\000\\200?\\000\\000\\000@"
    }
  }
}
attr {
  key: "dtype"
  value {
    type: DT_FLOAT
  }
}
'''


def test_operation_str_is_the_node_def_text():
  c = tf.constant([1., 2.])
  assert str(c.op) == CONST_TEXT
  with tf.device("/cpu:0"):
    d = tf.constant([1., 2.], name="d")
  assert str(d.op) == CONST_TEXT.replace('name: "Const"\nop: "Const"\n',
                                         'name: "d"\nop: "Const"\ndevice: "/device:CPU:0"\n')
  e = tf.add(c, d, name="e")
  with tf.control_dependencies([e]):
    f = tf.identity(c, name="f")
  assert str(f.op) == ('name: "f"\nop: "Identity"\ninput: "Const"\ninput: "^e"\n'
                       'attr {\n  key: "T"\n  value {\n    type: DT_FLOAT\n  }\n}\n')
  p = tf.placeholder(tf.int32, shape=[None])
  assert str(p.op) == (
      'name: "Placeholder"\nop: "Placeholder"\n'
      'attr {\n  key: "shape"\n  value {\n    shape {\n      dim {\n        size: -1\n'
      '      }\n    }\n  }\n}\n'
      'attr {\n  key: "dtype"\n  value {\n    type: DT_INT32\n  }\n}\n')
  s = tf.constant("ab\xff")
  assert 'string_val: "ab\\303\\277"\n' in str(s.op)
  assert "int64_val: 3\n" in str(tf.constant(3, dtype=tf.int64).op)
  assert "double_val: 3.5\n" in str(tf.constant(3.5, dtype=tf.float64).op)


def test_variable_op_node_def_text():
  v = tf.Variable([1., 2.], name="v")
  assert str(v.op) == (
      'name: "v"\nop: "VariableV2"\n'
      'attr {\n  key: "shared_name"\n  value {\n    s: ""\n  }\n}\n'
      'attr {\n  key: "shape"\n  value {\n    shape {\n      dim {\n        size: 2\n'
      '      }\n    }\n  }\n}\n'
      'attr {\n  key: "dtype"\n  value {\n    type: DT_FLOAT\n  }\n}\n'
      'attr {\n  key: "container"\n  value {\n    s: ""\n  }\n}\n')
  assert str(v.initializer) == (
      'name: "v/Assign"\nop: "Assign"\ninput: "v"\ninput: "v/initial_value"\n'
      'attr {\n  key: "validate_shape"\n  value {\n    b: true\n  }\n}\n'
      'attr {\n  key: "use_locking"\n  value {\n    b: true\n  }\n}\n'
      'attr {\n  key: "_class"\n  value {\n    list {\n      s: "loc:@v"\n    }\n  }\n}\n'
      'attr {\n  key: "T"\n  value {\n    type: DT_FLOAT\n  }\n}\n')


def test_node_def_is_the_graph_def_node():
  a = tf.constant(1.0, name="a")
  with tf.device("/cpu:0"):
    b = tf.multiply(a, 2.0, name="b")
  with tf.control_dependencies([b]):
    c = tf.identity(a, name="c")
  graph_def = tf.get_default_graph().as_graph_def()
  by_name = {n.name: n for n in graph_def.node}
  for op in tf.get_default_graph().get_operations():
    nd = op.node_def
    assert isinstance(nd, protos.NodeDef)
    assert nd == by_name[op.name]
  assert list(c.op.node_def.input) == ["a", "^b"]
  assert b.op.node_def.device == "/device:CPU:0"
  assert b.op.node_def.attr["T"].type == tf.float32.as_datatype_enum


def test_graph_and_session_reprs():
  g = tf.Graph()
  assert re.fullmatch(r"<tfc\.framework\.ops\.Graph object at 0x[0-9a-f]+>", repr(g))
  assert str(g) == repr(g)
  with tf.Session(graph=g) as s:
    assert re.fullmatch(r"<tfc\.client\.session\.Session object at 0x[0-9a-f]+>", repr(s))
    assert str(s) == repr(s)


def test_cluster_spec_repr():
  cs = tf.train.ClusterSpec({"worker": ["a:1", "b:2"], "ps": ["localhost:2222"]})
  assert repr(cs) == "ClusterSpec({'ps': ['localhost:2222'], 'worker': ['a:1', 'b:2']})"
  assert str(cs) == repr(cs)
  # sparse task indices print as a dict
  assert repr(tf.train.ClusterSpec({"worker": {1: "a:1"}})) == "ClusterSpec({'worker': {1: 'a:1'}})"


def test_tensor_shape_and_dimension():
  assert repr(tf.TensorShape([2])) == "TensorShape([Dimension(2)])"
  assert str(tf.TensorShape([2])) == "(2,)"
  assert repr(tf.TensorShape([None, 3])) == "TensorShape([Dimension(None), Dimension(3)])"
  assert str(tf.TensorShape([None, 3])) == "(?, 3)"
  assert repr(tf.TensorShape(None)) == "TensorShape(None)"
  assert str(tf.TensorShape(None)) == "<unknown>"
  assert repr(tf.TensorShape([])) == "TensorShape([])"
  assert str(tf.TensorShape([])) == "()"
  assert repr(tf.Dimension(2)) == "Dimension(2)" and str(tf.Dimension(2)) == "2"
  assert repr(tf.Dimension(None)) == "Dimension(None)" and str(tf.Dimension(None)) == "?"


def test_dtype_repr_and_str():
  assert repr(tf.float32) == "tf.float32"
  assert str(tf.float32) == "<dtype: 'float32'>"
  assert repr(tf.float32._as_ref) == "tf.float32_ref"
  assert str(tf.float32._as_ref) == "<dtype: 'float32_ref'>"
  assert repr(tf.as_dtype("string")) == "tf.string"


def test_config_proto_repr():
  assert repr(tf.ConfigProto(allow_soft_placement=True)) == "allow_soft_placement: true\n"
