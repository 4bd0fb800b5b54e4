"""tf.import_graph_def under the graph's construction context, as TF 1.15
applies it: device stack, control dependencies, colocation, name scope, and
producer_op_list. The expected values were taken from real TensorFlow."""
import pytest

import tfc as tf
from tfc.protos import OpList


def _chain_graph_def():
  """a (Const) -> b (Identity, on /device:CPU:0) -> c = a + b."""
  g = tf.Graph()
  with g.as_default():
    a = tf.constant(1.0, name="a")
    b = tf.identity(a, name="b")
    tf.add(a, b, name="c")
  gd = g.as_graph_def()
  gd.node[1].device = "/device:CPU:0"
  return gd


def _variable_graph_def():
  """v, v/initial_value, v/Assign (on /device:CPU:3), v/read, y = identity(v)."""
  g = tf.Graph()
  with g.as_default():
    v = tf.Variable([1.0, 2.0], name="v")
    tf.identity(v, name="y")
  gd = g.as_graph_def()
  for n in gd.node:
    if n.name == "v/Assign":
      n.device = "/device:CPU:3"
  return gd


def _devices(graph, prefix):
  return sorted((op.name, op.device) for op in graph.get_operations()
                if op.name.startswith(prefix + "/"))


def test_device_string_merges_under_node_device():
  gd = _chain_graph_def()
  with tf.Graph().as_default() as g:
    with tf.device("/job:worker/task:1"):
      tf.import_graph_def(gd, name="imp")
    with tf.device("/device:GPU:0"):
      tf.import_graph_def(gd, name="gpu")
    with tf.device("/job:ps"):
      with tf.device(None):
        tf.import_graph_def(gd, name="none")
  assert _devices(g, "imp") == [("imp/a", "/job:worker/task:1"),
                                ("imp/b", "/job:worker/task:1/device:CPU:0"),
                                ("imp/c", "/job:worker/task:1")]
  assert _devices(g, "gpu") == [("gpu/a", "/device:GPU:0"), ("gpu/b", "/device:CPU:0"),
                                ("gpu/c", "/device:GPU:0")]
  assert _devices(g, "none") == [("none/a", ""), ("none/b", "/device:CPU:0"), ("none/c", "")]


def test_device_function_decides():
  gd = _chain_graph_def()

  def fn(op):
    return "/device:CPU:1" if op.type == "Const" else ""

  with tf.Graph().as_default() as g:
    with tf.device(fn):
      tf.import_graph_def(gd, name="f")
    with tf.device("/job:ps"):
      with tf.device(fn):
        tf.import_graph_def(gd, name="fs")
  assert _devices(g, "f") == [("f/a", "/device:CPU:1"), ("f/b", ""), ("f/c", "")]
  assert _devices(g, "fs") == [("fs/a", "/job:ps/device:CPU:1"), ("fs/b", "/job:ps"),
                               ("fs/c", "/job:ps")]


def test_colocated_imports_follow_their_group():
  gd = _variable_graph_def()
  with tf.Graph().as_default() as g:
    with tf.device("/job:ps/task:0"):
      tf.import_graph_def(gd, name="ps")
    with tf.device(tf.train.replica_device_setter(ps_tasks=2)):
      tf.import_graph_def(gd, name="rs")
    tf.import_graph_def(gd, name="plain")
  assert _devices(g, "ps") == [(n, "/job:ps/task:0") for n in
                               ("ps/v", "ps/v/Assign", "ps/v/initial_value", "ps/v/read",
                                "ps/y")]
  assert _devices(g, "rs") == [("rs/v", "/job:ps/task:0"), ("rs/v/Assign", "/job:ps/task:0"),
                               ("rs/v/initial_value", "/job:worker"),
                               ("rs/v/read", "/job:ps/task:0"), ("rs/y", "/job:worker")]
  # v/Assign's own device gives way to its colocation group's (v has none)
  assert _devices(g, "plain") == [(n, "") for n in
                                  ("plain/v", "plain/v/Assign", "plain/v/initial_value",
                                   "plain/v/read", "plain/y")]


def test_colocate_with_context():
  gd = _variable_graph_def()
  with tf.Graph().as_default() as g:
    with tf.device("/device:CPU:1"):
      z = tf.constant(1.0, name="z")
    with tf.colocate_with(z):
      tf.import_graph_def(gd, name="co")
    ops = [op for op in g.get_operations() if op.name.startswith("co/")]
    assert len(ops) == 5
    for op in ops:
      assert op.device == "/device:CPU:1"
      assert op.colocation_groups() == [b"loc:@z"]
    with tf.Session(config=tf.ConfigProto(device_count={"CPU": 2})) as sess:
      sess.run("co/v/Assign")
      assert list(sess.run("co/y:0")) == [1.0, 2.0]


def test_control_dependencies_reach_every_imported_op():
  gd = _variable_graph_def()
  with tf.Graph().as_default() as g:
    c1 = tf.constant(1.0, name="c1")
    c2 = tf.constant(2.0, name="c2")
    with tf.control_dependencies([c1]):
      with tf.control_dependencies([c2]):
        y, = tf.import_graph_def(gd, name="i", return_elements=["y:0"])
      w = tf.identity(y, name="w")
      w2 = tf.identity(c1, name="w2")
      e = tf.constant(3.0, name="e")
    with tf.control_dependencies([c1]):
      tf.import_graph_def(gd, name="m", input_map={"v/read:0": c2})
    with tf.control_dependencies([c1]):
      with tf.control_dependencies(None):
        tf.import_graph_def(gd, name="n")
  for op in g.get_operations():
    if op.name.startswith("i/"):
      assert [c.name for c in op.control_inputs] == ["c1", "c2"], op.name
    if op.name.startswith("n/"):
      assert op.control_inputs == (), op.name
    if op.name.startswith("m/"):
      assert [c.name for c in op.control_inputs] == ["c1"], op.name
  # ops built on imported outputs are dominated by them: no extra edge
  assert w.op.control_inputs == ()
  assert w2.op.control_inputs == ()
  assert [c.name for c in e.op.control_inputs] == ["c1"]
  assert [t.name for t in g.get_operation_by_name("m/y").inputs] == ["c2:0"]


def test_control_input_not_duplicated():
  g0 = tf.Graph()
  with g0.as_default():
    tf.constant(1.0, name="a")
  with tf.Graph().as_default() as g:
    a = tf.constant(0.0, name="a")
    with tf.control_dependencies([a]):
      tf.import_graph_def(g0.as_graph_def(), name="x", input_map={"^a": a})
    assert [c.name for c in g.get_operation_by_name("x/a").control_inputs] == ["a"]


def test_name_scope_prefixes_import():
  gd = _chain_graph_def()
  with tf.Graph().as_default() as g:
    with tf.name_scope("outer"):
      tf.import_graph_def(gd)
      tf.import_graph_def(gd, name="named")
  names = [op.name for op in g.get_operations()]
  assert names[:3] == ["outer/import/a", "outer/import/b", "outer/import/c"]
  assert names[3:] == ["outer/named/a", "outer/named/b", "outer/named/c"]


def _producer_op_list(default):
  ops = OpList()
  op = ops.op.add(name="Identity")
  attr = op.attr.add(name="newattr", type="int")
  attr.default_value.i = default
  return ops


def test_producer_op_list_drops_unknown_default_attrs():
  gd = _chain_graph_def()
  gd.node[1].attr["newattr"].i = 5
  with tf.Graph().as_default() as g:
    tf.import_graph_def(gd, name="keep", producer_op_list=_producer_op_list(6))
    assert "newattr" in gd.node[1].attr  # not the producer's default: kept
    tf.import_graph_def(gd, name="drop", producer_op_list=_producer_op_list(5))
    assert "newattr" not in gd.node[1].attr  # removed in graph_def itself, as TF does
    assert "T" in gd.node[1].attr
    with tf.Session() as sess:
      assert sess.run("drop/c:0") == 2.0


def test_producer_op_list_leaves_known_attrs():
  gd = _chain_graph_def()
  ops = OpList()
  op = ops.op.add(name="Identity")
  attr = op.attr.add(name="T", type="type")
  attr.default_value.type = tf.float32.as_datatype_enum
  with tf.Graph().as_default():
    tf.import_graph_def(gd, name="x", producer_op_list=ops, op_dict={"ignored": None})
  assert "T" in gd.node[1].attr


def test_import_without_context_keeps_node_devices():
  gd = _chain_graph_def()
  with tf.Graph().as_default() as g:
    tf.import_graph_def(gd, name="p")
  assert _devices(g, "p") == [("p/a", ""), ("p/b", "/device:CPU:0"), ("p/c", "")]


@pytest.mark.parametrize("bad", [None, "graph", 3])
def test_non_graph_def_rejected(bad):
  with tf.Graph().as_default():
    with pytest.raises(TypeError):
      tf.import_graph_def(bad)
