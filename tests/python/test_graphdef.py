"""GraphDef import/export through the public API: fixtures written by real
TensorFlow (tests/fixtures/graphdef, see manifest.txt), round trips,
write_graph, freezing, gfile and error handling."""
import os
import pathlib

import numpy as np
import pytest

import tfc as tf
from google.protobuf import text_format
from google.protobuf.message import DecodeError

FIXTURES = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "graphdef"


def _manifest():
  """{graph file: {"feed": [(name, file)], "target": [names], "fetch": [(name, file, tol)]}}."""
  graphs = {}
  for line in (FIXTURES / "manifest.txt").read_text().splitlines():
    if not line.strip() or line.startswith("#"):
      continue
    parts = line.split()
    entry = graphs.setdefault(parts[0], {"feed": [], "target": [], "fetch": []})
    if parts[1] == "feed":
      entry["feed"].append((parts[2], parts[3]))
    elif parts[1] == "target":
      entry["target"].append(parts[2])
    else:
      entry["fetch"].append((parts[2], parts[3], float(parts[4])))
  return graphs


MANIFEST = _manifest()


def _load(name):
  with tf.gfile.GFile(str(FIXTURES / name), "rb") as f:
    graph_def = tf.GraphDef()
    graph_def.ParseFromString(f.read())
  return graph_def


def _check_outputs(graph, sess, entry, prefix=""):
  feed = {graph.get_tensor_by_name(prefix + n): np.load(FIXTURES / f, allow_pickle=True)
          for n, f in entry["feed"]}
  for t in entry["target"]:
    sess.run(graph.get_operation_by_name(prefix + t), feed)
  names = [n for n, _, _ in entry["fetch"]]
  got = sess.run([graph.get_tensor_by_name(prefix + n) for n in names], feed)
  for (name, fname, tol), value in zip(entry["fetch"], got):
    want = np.load(FIXTURES / fname, allow_pickle=True)
    value = np.asarray(value)
    assert value.shape == want.shape, name
    if want.dtype.kind in "OSU" or tol == 0:
      np.testing.assert_array_equal(value, want, err_msg=name)
    else:
      np.testing.assert_allclose(value, want, rtol=tol, atol=tol, err_msg=name)


@pytest.mark.parametrize("pb", sorted(MANIFEST))
def test_fixture_seed_use_case(pb):
  graph_def = _load(pb)
  with tf.Graph().as_default() as graph:
    tf.import_graph_def(graph_def, input_map=None, return_elements=None, name="", op_dict=None,
                        producer_op_list=None)
    with tf.Session(graph=graph) as sess:
      _check_outputs(graph, sess, MANIFEST[pb])


@pytest.mark.parametrize("pb", sorted(MANIFEST))
def test_fixture_default_prefix_and_reexport(pb):
  graph_def = _load(pb)
  with tf.Graph().as_default() as graph:
    assert tf.import_graph_def(graph_def) is None
    assert graph.get_operations()[0].name.startswith("import/")
    exported = graph.as_graph_def()
  # re-export, re-import without prefix: same results
  with tf.Graph().as_default() as g2:
    tf.import_graph_def(exported, name="")
    with tf.Session(graph=g2) as sess:
      _check_outputs(g2, sess, MANIFEST[pb], prefix="import/")


def test_graph_def_fields_and_byte_exact_round_trip():
  raw = (FIXTURES / "mlp.pb").read_bytes()
  gd = tf.GraphDef()
  assert gd.ParseFromString(raw) == len(raw)
  assert gd.SerializeToString(deterministic=True) == raw
  names = [n.name for n in gd.node]
  assert names[0] == "x" and "probs" in names
  x = gd.node[0]
  assert x.op == "Placeholder"
  assert x.attr["dtype"].type == tf.float32.as_datatype_enum
  assert [d.size for d in x.attr["shape"].shape.dim] == [-1, 4]
  assert gd.versions.producer > 0
  # decoded then re-encoded: identical bytes
  assert gd.SerializeToString(deterministic=True) == raw
  again = tf.GraphDef.FromString(raw)
  assert again == gd
  copy = tf.GraphDef()
  copy.CopyFrom(gd)
  assert copy == gd
  # text format round trip
  parsed = text_format.Parse(str(gd), tf.GraphDef())
  assert parsed == gd


def test_graph_def_editing_reserializes():
  gd = _load("mlp.pb")
  node = gd.node.add()
  node.name = "probs_twice"
  node.op = "Identity"
  node.input.append("probs")
  node.attr["T"].type = tf.float32.as_datatype_enum
  gd.node[0].name = "x"  # unchanged
  with tf.Graph().as_default() as graph:
    tf.import_graph_def(gd, name="")
    feed = np.load(FIXTURES / "mlp.feed.x_0.npy")
    with tf.Session() as sess:
      a, b = sess.run(["probs:0", "probs_twice:0"], {"x:0": feed})
  np.testing.assert_array_equal(a, b)
  del gd.node[-1]
  assert gd.SerializeToString(deterministic=True) == (FIXTURES / "mlp.pb").read_bytes()


def test_attr_value_oneof_keeps_zero_values():
  a = tf.AttrValue(i=0)
  assert a.WhichOneof("value") == "i"
  assert tf.AttrValue.FromString(a.SerializeToString()).WhichOneof("value") == "i"
  a.list.type.append(1)
  assert a.WhichOneof("value") == "list"
  assert tf.AttrValue().WhichOneof("value") is None


def test_round_trip_tfc_graph():
  with tf.Graph().as_default() as g:
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    w = tf.constant(np.arange(6, dtype=np.float32).reshape(3, 2), name="w")
    y = tf.nn.relu(tf.matmul(x, w) - 4.0, name="y")
    with tf.control_dependencies([y]):
      z = tf.identity(y * 2.0, name="z")
    words = tf.constant(["a", "bc"], name="words")
    feed = {x: np.ones((2, 3), np.float32)}
    with tf.Session() as sess:
      want = sess.run([y, z, words], feed)
    gd = g.as_graph_def()
  assert isinstance(gd, tf.GraphDef)
  assert [n.name for n in gd.node][:2] == ["x", "w"]
  with tf.Graph().as_default() as g2:
    y2, z2, w2 = tf.import_graph_def(gd, return_elements=["y:0", "z:0", "words:0"],
                                     name="copy")
    assert y2.name == "copy/y:0"
    with tf.Session() as sess:
      got = sess.run([y2, z2, w2], {"copy/x:0": np.ones((2, 3), np.float32)})
  for a, b in zip(want, got):
    np.testing.assert_array_equal(a, b)


def test_import_names_and_return_elements():
  with tf.Graph().as_default() as g:
    tf.constant(1.0, name="c")
    gd = g.as_graph_def()
  with tf.Graph().as_default() as g:
    assert tf.import_graph_def(gd) is None
    (op,) = tf.import_graph_def(gd, return_elements=["c"])
    assert isinstance(op, tf.Operation) and op.name == "import_1/c"
    with tf.name_scope("outer"):
      (t,) = tf.import_graph_def(gd, return_elements=["c:0"])
    assert t.name == "outer/import/c:0"
    tf.import_graph_def(gd, name="")
    tf.import_graph_def(gd, name="")  # clash: uniquified
    names = [o.name for o in g.get_operations()]
    assert names == ["import/c", "import_1/c", "outer/import/c", "c", "c_1"]
    # later ops do not collide with imported names
    assert tf.constant(2.0, name="c").op.name not in names[:-1]


def test_input_map():
  with tf.Graph().as_default() as g:
    x = tf.placeholder(tf.float32, [], name="x")
    tf.multiply(x, 3.0, name="y")
    gd = g.as_graph_def()
  with tf.Graph().as_default():
    seven = tf.constant(7.0)
    (y,) = tf.import_graph_def(gd, input_map={"x:0": seven}, return_elements=["y:0"])
    with tf.Session() as sess:
      assert sess.run(y) == 21.0
    with pytest.raises(ValueError, match=r"Attempted to map inputs that were not found in "
                                         r"graph_def: \[zz:0\]"):
      tf.import_graph_def(gd, input_map={"zz:0": seven})


def test_write_graph_text_and_binary(tmp_path):
  with tf.Graph().as_default() as g:
    tf.add(tf.constant(1.0, name="a"), 2.0, name="b")
  logdir = tmp_path / "sub" / "dir"
  text_path = tf.train.write_graph(g, str(logdir), "g.pbtxt")
  bin_path = tf.train.write_graph(g.as_graph_def(), str(logdir), "g.pb", as_text=False)
  assert text_path == os.path.join(str(logdir), "g.pbtxt")
  text = pathlib.Path(text_path).read_text()
  assert 'name: "b"' in text and ('op: "AddV2"' in text or 'op: "Add"' in text)
  from_text = text_format.Parse(text, tf.GraphDef())
  from_bin = tf.GraphDef.FromString(pathlib.Path(bin_path).read_bytes())
  assert from_text == from_bin == g.as_graph_def()
  with tf.Graph().as_default():
    (b,) = tf.import_graph_def(from_text, return_elements=["b:0"])
    with tf.Session() as sess:
      assert sess.run(b) == 3.0


def test_convert_variables_to_constants():
  with tf.Graph().as_default() as g:
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0]], name="v")
    u = tf.Variable([10.0, 20.0], name="u")
    y = tf.add(tf.matmul(x, v), u, name="y")
    tf.assign_add(u, [1.0, 1.0], name="bump")
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      sess.run("bump")
      want = sess.run(y, {x: [[1.0, 1.0]]})
      frozen = tf.graph_util.convert_variables_to_constants(sess, g.as_graph_def(), ["y"])
      partial = tf.graph_util.convert_variables_to_constants(
          sess, g.as_graph_def(), ["y"], variable_names_blacklist=["u"])
  ops = {n.name: n.op for n in frozen.node}
  assert ops["v"] == "Const" and ops["u"] == "Const" and ops["v/read"] == "Identity"
  assert "bump" not in ops and "v/Assign" not in ops
  assert {n.name: n.op for n in partial.node}["u"] == "VariableV2"
  with tf.Graph().as_default():
    (y2,) = tf.import_graph_def(frozen, return_elements=["y:0"], name="")
    with tf.Session() as sess:
      np.testing.assert_array_equal(sess.run(y2, {"x:0": [[1.0, 1.0]]}), want)


def test_extract_sub_graph_and_remove_training_nodes():
  gd = _load("mlp.pb")
  sub = tf.graph_util.extract_sub_graph(gd, ["hidden"])
  names = [n.name for n in sub.node]
  assert "hidden" in names and "probs" not in names and "w2" not in names
  with pytest.raises(TypeError):
    tf.graph_util.extract_sub_graph(gd, "hidden")
  stripped = tf.graph_util.remove_training_nodes(gd)
  assert not any(n.op == "Identity" for n in stripped.node)
  with tf.Graph().as_default() as graph:
    tf.import_graph_def(stripped, name="")
    feed = np.load(FIXTURES / "mlp.feed.x_0.npy")
    with tf.Session() as sess:
      got = sess.run(graph.get_tensor_by_name("probs:0"), {"x:0": feed})
  np.testing.assert_allclose(got, np.load(FIXTURES / "mlp.fetch.probs_0.npy"), rtol=1e-5,
                             atol=1e-5)


def test_tensor_proto_helpers():
  for value in [np.arange(6, dtype=np.float32).reshape(2, 3), np.array(5, np.int64),
                np.array([True, False]), np.array([b"a", b"bc"], dtype=object)]:
    back = tf.make_ndarray(tf.make_tensor_proto(value))
    np.testing.assert_array_equal(back, value)
  proto = tf.make_tensor_proto([1.0, 2.0])
  assert proto.dtype == tf.float32.as_datatype_enum
  assert [d.size for d in proto.tensor_shape.dim] == [2]


# ------------------------------------------------------------------ bad inputs


def test_truncated_and_corrupt_bytes():
  raw = (FIXTURES / "mlp.pb").read_bytes()
  for bad in [raw[:len(raw) // 2], raw[:77], b"\xff\xff\xff", raw + b"\x0f"]:
    with pytest.raises(DecodeError, match="Error parsing message"):
      tf.GraphDef().ParseFromString(bad)
  with tf.Graph().as_default() as g:
    with pytest.raises(ValueError, match="Invalid GraphDef"):
      g._import_graph_def(raw[:len(raw) // 2])
    assert g.get_operations() == []


def test_unknown_op_and_non_graph_def():
  gd = tf.GraphDef()
  node = gd.node.add()
  node.name = "a"
  node.op = "NoSuchOpAnywhere"
  with tf.Graph().as_default() as g:
    with pytest.raises(tf.errors.NotFoundError, match="Op type not registered 'NoSuchOpAnywhere'"):
      tf.import_graph_def(gd, name="")
    assert g.get_operations() == []
    with pytest.raises(TypeError, match="must be a GraphDef proto"):
      tf.import_graph_def("not a graph def")
    with pytest.raises(TypeError):
      tf.import_graph_def(_load("mlp.pb"), return_elements="probs:0".split(":") + [3])
    with pytest.raises(ValueError, match="Requested return tensor 'nope:0' not found"):
      tf.import_graph_def(_load("mlp.pb"), return_elements=["nope:0"])


def test_gfile(tmp_path):
  with pytest.raises(tf.errors.NotFoundError):
    with tf.gfile.GFile(str(tmp_path / "missing.pb"), "rb") as f:
      f.read()
  with pytest.raises(tf.errors.NotFoundError):
    tf.gfile.Remove(str(tmp_path / "missing.pb"))
  with pytest.raises(tf.errors.NotFoundError):
    tf.gfile.ListDirectory(str(tmp_path / "nodir"))
  d = tmp_path / "a" / "b"
  tf.gfile.MakeDirs(str(d))
  assert tf.gfile.IsDirectory(str(d)) and tf.gfile.Exists(str(d))
  p = str(d / "f.txt")
  with tf.gfile.Open(p, "w") as f:
    f.write("one\ntwo\n")
  with tf.gfile.GFile(p) as f:
    assert f.readline() == "one\n"
    assert list(f) == ["two\n"]
  with tf.gfile.GFile(p, "rb") as f:
    assert f.read() == b"one\ntwo\n"
  assert tf.gfile.Stat(p).length == 8
  tf.gfile.Copy(p, str(d / "g.txt"))
  tf.gfile.Rename(str(d / "g.txt"), str(d / "h.txt"))
  assert tf.gfile.ListDirectory(str(d)) == ["f.txt", "h.txt"]
  assert tf.gfile.Glob(str(d / "*.txt")) == [p, str(d / "h.txt")]
  tf.gfile.DeleteRecursively(str(tmp_path / "a"))
  assert not tf.gfile.Exists(str(tmp_path / "a"))


# ------------------------------------------------------------------ large GraphDefs


def _big_graph_bytes():
  """A GraphDef of about 2 MB: one large Const, its sum named 'total'."""
  with tf.Graph().as_default() as g:
    big = tf.constant(np.arange(512 * 1024, dtype=np.float32).reshape(512, 1024), name="big")
    tf.reduce_sum(big * 0.0 + 1.0, name="total")
  return g.as_graph_def().SerializeToString()


def test_large_graph_def_import_uses_the_parsed_bytes_while_untouched():
  from tfc import protos
  data = _big_graph_bytes()
  gd = tf.GraphDef()
  assert gd.ParseFromString(data) == len(data)
  assert protos.serialized_graph_def(gd) is data  # no re-serialization
  with tf.Graph().as_default() as g:
    tf.import_graph_def(gd, name="")
    with tf.Session(graph=g) as sess:
      assert sess.run("total:0") == 512 * 1024
  # FromString remembers too; reading a field forgets (the bytes may no longer match)
  again = tf.GraphDef.FromString(data)
  assert protos.serialized_graph_def(again) is data
  assert [n.name for n in again.node][0] == "big"
  assert protos.serialized_graph_def(again) is not data
  assert protos.serialized_graph_def(again) == again.SerializeToString()
  # so does a write with no read before it
  third = tf.GraphDef.FromString(data)
  third.version = 7
  assert protos.serialized_graph_def(third) == third.SerializeToString() != data


def test_large_graph_def_edits_after_parsing_are_imported():
  data = _big_graph_bytes()
  gd = tf.GraphDef.FromString(data)
  for node in gd.node:
    if node.name == "total":
      node.name = "tot_l"  # same length: the serialized size does not change
  with tf.Graph().as_default() as g:
    tf.import_graph_def(gd, name="")
    names = [op.name for op in g.get_operations()]
  assert "tot_l" in names and "total" not in names
  gd2 = tf.GraphDef()
  gd2.ParseFromString(data)
  gd2.versions.producer = gd2.versions.producer  # an attribute write forgets the bytes
  del gd2.node[-1]
  with tf.Graph().as_default() as g:
    tf.import_graph_def(gd2, name="")
    assert "total" not in [op.name for op in g.get_operations()]


def test_messages_build_only_the_proto_files_they_need():
  # In a fresh process: GraphDef adds graph.proto and what it imports (not
  # config.proto or the checkpoint/summary files); ConfigProto adds
  # config.proto's; any other name, nested ones included, still resolves; and
  # when the pool is completed first (descriptor_pool()), GraphDef still
  # remembers a large input's bytes.
  import subprocess
  import sys
  code = (
      "import tfc as tf\n"
      "from tfc import protos\n"
      "def added(): return sorted(n for n, f in protos._files.items() if f.added)\n"
      "tf.GraphDef()\n"
      "a = added()\n"
      "assert 'graph.proto' in a and 'node_def.proto' in a and 'config.proto' not in a, a\n"
      "assert 'saver.proto' not in a and 'summary.proto' not in a, a\n"
      "c = tf.ConfigProto(inter_op_parallelism_threads=1)\n"
      "c.graph_options.optimizer_options.opt_level = c.graph_options.optimizer_options.L0\n"
      "b = added()\n"
      "assert 'config.proto' in b and 'rewriter_config.proto' in b and 'saver.proto' not in b, b\n"
      "print(len(a), len(b), len(protos._files))\n"
      "assert protos.DtypeAndShape.DESCRIPTOR.full_name == "
      "'tensorflow.ResourceHandleProto.DtypeAndShape'\n"
      "assert protos.MetaGraphDef().DESCRIPTOR.file.name == 'meta_graph.proto'\n"
      "assert len(added()) == len(protos._files)\n")
  out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                       cwd="/").stdout.split()
  n_graph, n_config, n_all = map(int, out)
  assert n_graph < n_config < n_all
  code = (
      "import tfc as tf\n"
      "from tfc import protos\n"
      "pool = protos.descriptor_pool()\n"
      "assert pool.FindMessageTypeByName('tensorflow.GraphDef').name == 'GraphDef'\n"
      "with tf.Graph().as_default() as g:\n"
      "  tf.constant(bytes(2 << 20), name='blob')\n"
      "data = g.as_graph_def().SerializeToString()\n"
      "gd = tf.GraphDef.FromString(data)\n"
      "assert protos.serialized_graph_def(gd) is data\n"
      "assert protos.message_class('tensorflow.GraphDef') is tf.GraphDef\n")
  subprocess.run([sys.executable, "-c", code], check=True, cwd="/")
