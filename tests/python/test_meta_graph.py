"""MetaGraphDef export/import: tf.train.export_meta_graph / import_meta_graph,
fixtures written by real TensorFlow (tests/fixtures/meta_graph, see
tools/make_meta_graph_fixtures.py), round trips both ways, scopes, and bad
input."""
import os
import pathlib
import subprocess

import numpy as np
import pytest

import tfc as tf
from google.protobuf import text_format
from google.protobuf.message import DecodeError
from tfc.framework import meta_graph
from tfc.protos import VariableDef

REPO = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures" / "meta_graph"
EXPECTED = np.load(FIXTURES / "mlp.npz")
TF_PYTHON = REPO / ".venv-tf" / "bin" / "python"


def _has_op(name):
  try:
    tf._tfc.op_def(name)
    return True
  except KeyError:
    return False


def _train(sess, steps=3):
  train = tf.get_collection("train_op")[0]
  feed = {"x:0": EXPECTED["x"], "y:0": EXPECTED["y"]}
  return np.array([sess.run(["loss:0", train], feed)[0] for _ in range(steps)], np.float32)


def _build_mlp():
  """The fixture's model (tools/make_meta_graph_fixtures.py), built by tfc."""
  rng = np.random.RandomState(7)
  init = {"w1": (rng.randn(4, 8) * 0.5).astype(np.float32),
          "b1": (rng.randn(8) * 0.1).astype(np.float32),
          "w2": (rng.randn(8, 3) * 0.5).astype(np.float32),
          "b2": np.zeros(3, np.float32)}
  x = tf.placeholder(tf.float32, [None, 4], name="x")
  y = tf.placeholder(tf.int32, [None], name="y")
  with tf.variable_scope("hidden"):
    w1 = tf.get_variable("w1", initializer=tf.constant(init["w1"]))
    b1 = tf.get_variable("b1", initializer=tf.constant(init["b1"]))
    h = tf.nn.relu(tf.matmul(x, w1) + b1)
  with tf.variable_scope("out"):
    w2 = tf.Variable(init["w2"], name="w2")
    b2 = tf.Variable(init["b2"], name="b2")
    logits = tf.add(tf.matmul(h, w2), b2, name="logits")
  loss = tf.reduce_mean(
      tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits), name="loss")
  gs = tf.train.get_or_create_global_step()
  train = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=gs, name="train")
  if train not in tf.get_collection("train_op"):
    tf.add_to_collection("train_op", train)
  tf.add_to_collection("inputs", x)
  tf.add_to_collection("inputs", y)
  tf.add_to_collection("loss", loss)
  tf.add_to_collection("my_ints", 3)
  tf.add_to_collection("my_ints", 7)
  tf.add_to_collection("my_floats", 0.5)
  tf.add_to_collection("my_strs", "hello")
  tf.Variable(0, name="counter", trainable=False, collections=[tf.GraphKeys.LOCAL_VARIABLES])


def _check_imported_mlp(prefix=""):
  g = tf.get_default_graph()
  names = ["hidden/w1:0", "hidden/b1:0", "out/w2:0", "out/b2:0"]
  assert [v.name for v in tf.trainable_variables()] == [prefix + n for n in names]
  assert [v.name for v in tf.global_variables()] == [prefix + n for n in
                                                     names + ["global_step:0"]]
  assert [v.name for v in tf.local_variables()] == [prefix + "counter:0"]
  # one Variable object per variable, shared by the collections
  assert tf.trainable_variables()[0] is tf.global_variables()[0]
  assert tf.get_collection("global_step")[0] is tf.global_variables()[-1]
  assert all(isinstance(v, tf.Variable) for v in tf.global_variables())
  assert tf.get_collection("my_ints") == [3, 7]
  assert tf.get_collection("my_floats") == [0.5]
  assert tf.get_collection("my_strs") == [b"hello"]
  assert tf.get_collection("inputs") == [g.get_tensor_by_name(prefix + "x:0"),
                                         g.get_tensor_by_name(prefix + "y:0")]
  assert tf.get_collection("loss") == [g.get_tensor_by_name(prefix + "loss:0")]
  assert isinstance(tf.get_collection("train_op")[0], tf.Operation)


@pytest.mark.parametrize("name", ["mlp.meta", "mlp.pbtxt"])
def test_tf_fixture_imports_and_trains_like_tf(name):
  with tf.Graph().as_default():
    saver = tf.train.import_meta_graph(str(FIXTURES / name))
    assert saver is None or hasattr(saver, "restore")
    _check_imported_mlp()
    with tf.Session() as sess:
      sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
      losses = _train(sess)
      np.testing.assert_allclose(losses, EXPECTED["losses"], rtol=1e-5, atol=1e-6)
      for v in tf.global_variables():
        np.testing.assert_allclose(sess.run(v), EXPECTED["var_" + v.op.name.replace("/", "_")],
                                   rtol=1e-5, atol=1e-6)


def test_tf_fixture_with_saver_def():
  meta = tf.MetaGraphDef()
  with open(FIXTURES / "mlp_saver.meta", "rb") as f:
    meta.ParseFromString(f.read())
  assert meta.HasField("saver_def")
  assert meta.saver_def.restore_op_name == "save/restore_all"
  assert meta.saver_def.filename_tensor_name == "save/Const:0"
  assert meta.saver_def.version == tf.train.SaverDef.V2
  if not _has_op("SaveV2"):
    with tf.Graph().as_default():
      with pytest.raises(tf.errors.NotFoundError, match="SaveV2"):
        tf.train.import_meta_graph(meta)
    pytest.skip("SaveV2 is not registered: the save/ subgraph cannot be imported")
  with tf.Graph().as_default():
    saver = tf.train.import_meta_graph(meta)
    assert (saver is not None) == hasattr(tf.train, "Saver")
    _check_imported_mlp()


def test_tf_save_subgraph_runs(tmp_path):
  """TF's own save/ ops (SaveV2, RestoreV2, PlaceholderWithDefault, Assign)
  save and restore the imported variables through the returned Saver."""
  meta = tf.MetaGraphDef.FromString((FIXTURES / "mlp_saver.meta").read_bytes())
  with tf.Graph().as_default():
    saver = tf.train.import_meta_graph(meta)
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      before = {v.op.name: sess.run(v) for v in tf.global_variables()}
      path = saver.save(sess, str(tmp_path / "mlp"), global_step=3)
      assert path == str(tmp_path / "mlp-3")
      sess.run([tf.assign(v, tf.zeros_like(v)) for v in tf.global_variables()])
      saver.restore(sess, path)
      for v in tf.global_variables():
        np.testing.assert_array_equal(sess.run(v), before[v.op.name])
  names = [n for n, _ in tf.train.list_variables(str(tmp_path))]
  assert names == sorted(before)


def test_meta_graph_def_parse_serialize_and_text_round_trip():
  data = (FIXTURES / "mlp.meta").read_bytes()
  meta = tf.MetaGraphDef.FromString(data)
  assert meta.SerializeToString(deterministic=True) == data
  assert meta.meta_info_def.tensorflow_version
  ops = [op.name for op in meta.meta_info_def.stripped_op_list.op]
  assert ops == sorted(ops) and "MatMul" in ops and "VariableV2" in ops
  assert meta.collection_def["my_ints"].WhichOneof("kind") == "int64_list"
  assert meta.collection_def["inputs"].node_list.value == ["x:0", "y:0"]
  assert tf.compat.v1.MetaGraphDef is tf.MetaGraphDef
  again = text_format.Merge(str(meta), tf.MetaGraphDef())
  assert again == meta
  assert again.SerializeToString(deterministic=True) == data


def test_export_structure():
  with tf.Graph().as_default() as g:
    _build_mlp()
    meta = tf.train.export_meta_graph()
  info = meta.meta_info_def
  assert info.tensorflow_version == tf.VERSION
  assert info.tensorflow_git_version == tf.GIT_VERSION
  ops = [op.name for op in info.stripped_op_list.op]
  assert ops == sorted(set(op.type for op in g.get_operations()))
  var_op = [op for op in info.stripped_op_list.op if op.name == "VariableV2"][0]
  assert var_op.is_stateful and var_op.output_arg[0].is_ref
  assert {a.name: a.default_value.s for a in var_op.attr if a.HasField("default_value")} == \
      {"container": b"", "shared_name": b""}
  assert not meta.HasField("saver_def")
  assert [n.name for n in meta.graph_def.node] == [op.name for op in g.get_operations()]
  x = [n for n in meta.graph_def.node if n.name == "x"][0]
  assert [d.size for d in x.attr["_output_shapes"].list.shape[0].dim] == [-1, 4]
  col = meta.collection_def
  assert sorted(col) == sorted(g.get_all_collection_keys())
  assert col["my_ints"].int64_list.value == [3, 7]
  assert col["my_floats"].float_list.value == [0.5]
  assert col["my_strs"].bytes_list.value == [b"hello"]
  assert col["inputs"].node_list.value == ["x:0", "y:0"]
  assert col["train_op"].node_list.value[0] == "train"
  var_defs = [VariableDef.FromString(b) for b in col["trainable_variables"].bytes_list.value]
  assert [(d.variable_name, d.initializer_name, d.snapshot_name, d.trainable)
          for d in var_defs][2] == ("out/w2:0", "out/w2/Assign", "out/w2/read:0", True)
  local = VariableDef.FromString(col["local_variables"].bytes_list.value[0])
  assert local.variable_name == "counter:0" and not local.trainable
  assert local.initial_value_name == "counter/initial_value:0"


@pytest.mark.parametrize("as_text", [False, True])
def test_tfc_round_trip_through_file(tmp_path, as_text):
  path = str(tmp_path / "sub" / ("model.pbtxt" if as_text else "model.meta"))
  with tf.Graph().as_default():
    _build_mlp()
    tf.train.export_meta_graph(filename=path, as_text=as_text)
  assert os.path.exists(path)
  if as_text:
    assert open(path).read().startswith("meta_info_def {")
  with tf.Graph().as_default():
    assert tf.train.import_meta_graph(path) is None or hasattr(tf.train, "Saver")
    _check_imported_mlp()
    with tf.Session() as sess:
      sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
      np.testing.assert_allclose(_train(sess), EXPECTED["losses"], rtol=1e-5, atol=1e-6)


def test_tf_trains_tfc_export(tmp_path):
  """Real TensorFlow imports a tfc export and trains it to the same losses."""
  if not TF_PYTHON.exists():
    pytest.skip("no TensorFlow venv (.venv-tf) to check against")
  path = str(tmp_path / "tfc.meta")
  with tf.Graph().as_default():
    _build_mlp()
    tf.train.export_meta_graph(filename=path)
  proc = subprocess.run([str(TF_PYTHON), str(REPO / "tools" / "make_meta_graph_fixtures.py"),
                         "--check", path], capture_output=True, text=True, timeout=300,
                        env=dict({k: v for k, v in os.environ.items() if k != "LD_PRELOAD"},
                                 TF_CPP_MIN_LOG_LEVEL="3"))
  assert proc.returncode == 0, proc.stdout + proc.stderr[-3000:]
  assert proc.stdout.strip().splitlines()[-1].startswith("ok")


def test_import_scope_and_twice_into_one_graph():
  meta = tf.MetaGraphDef.FromString((FIXTURES / "mlp.meta").read_bytes())
  with tf.Graph().as_default() as g:
    tf.train.import_meta_graph(meta, import_scope="a")
    tf.train.import_meta_graph(meta, import_scope="b")
    names = [v.name for v in tf.trainable_variables()]
    assert names[:4] == ["a/hidden/w1:0", "a/hidden/b1:0", "a/out/w2:0", "a/out/b2:0"]
    assert names[4] == "b/hidden/w1:0"
    assert tf.get_collection("loss") == [g.get_tensor_by_name("a/loss:0"),
                                         g.get_tensor_by_name("b/loss:0")]
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      feed = {"a/x:0": EXPECTED["x"], "a/y:0": EXPECTED["y"]}
      assert np.isclose(sess.run("a/loss:0", feed), EXPECTED["losses"][0], rtol=1e-5)


def test_export_scope_unbound_inputs_and_input_map():
  with tf.Graph().as_default() as g:
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    with tf.variable_scope("net"):
      w = tf.get_variable("w", initializer=tf.constant([[1.0], [2.0]]))
      y = tf.matmul(x, w, name="y")
    tf.add_to_collection("outputs", y)
    meta, var_list = meta_graph.export_scoped_meta_graph(export_scope="net")
    assert sorted(var_list) == ["w:0"]
    names = [n.name for n in meta.graph_def.node]
    assert "x" not in names and "w" in names and "y" in names
    ynode = [n for n in meta.graph_def.node if n.name == "y"][0]
    assert list(ynode.input) == ["$unbound_inputs_x", "w/read"]
    assert meta.collection_def["unbound_inputs"].bytes_list.value == [b"$unbound_inputs_x"]
    assert meta.collection_def["outputs"].node_list.value == ["y:0"]
    assert g.get_collection("unbound_inputs") == ["$unbound_inputs_x"]
  with tf.Graph().as_default() as g2:
    with pytest.raises(ValueError, match="unbound inputs"):
      tf.train.import_meta_graph(meta)
    z = tf.constant([[1.0, 1.0]], name="z")
    tf.train.import_meta_graph(meta, import_scope="copy",
                               input_map={"$unbound_inputs_x": z})
    assert g2.get_operation_by_name("copy/y").inputs[0] is z
    assert [v.name for v in tf.global_variables()] == ["copy/w:0"]
    assert tf.get_collection("outputs") == [g2.get_tensor_by_name("copy/y:0")]
    assert "unbound_inputs" not in g2.get_all_collection_keys()
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      np.testing.assert_allclose(sess.run("copy/y:0"), [[3.0]])


def test_clear_devices_and_collection_list():
  with tf.Graph().as_default():
    with tf.device("/job:ps/task:0"):
      v = tf.Variable(1.0, name="v")
    tf.add_to_collection("extra", 1)
    full = tf.train.export_meta_graph()
    assert full.graph_def.node[0].device == "/job:ps/task:0"
    meta = tf.train.export_meta_graph(clear_devices=True, collection_list=["variables"])
    assert all(n.device == "" for n in meta.graph_def.node)
    assert list(meta.collection_def) == ["variables"]
    del v
  with tf.Graph().as_default() as g:
    tf.train.import_meta_graph(full, clear_devices=True)
    # the Saver built for the imported variables pins its RestoreV2 to CPU:0, as TF's does
    assert all(op.device == "" for op in g.get_operations() if not op.name.startswith("save/"))
  with tf.Graph().as_default() as g:
    tf.train.import_meta_graph(full)
    assert g.get_operation_by_name("v").device == "/job:ps/task:0"


def test_strip_default_attrs():
  with tf.Graph().as_default():
    tf.Variable(1.0, name="v")
    a = tf.placeholder(tf.float32, name="a")
    tf.matmul([[1.0]], [[2.0]], name="mm")
    del a
    meta = tf.train.export_meta_graph(strip_default_attrs=True)
  assert meta.meta_info_def.stripped_default_attrs
  nodes = {n.name: n for n in meta.graph_def.node}
  assert "container" not in nodes["v"].attr and "shared_name" not in nodes["v"].attr
  assert "transpose_a" not in nodes["mm"].attr and "T" in nodes["mm"].attr
  with tf.Graph().as_default() as g:
    tf.train.import_meta_graph(meta)
    assert g.get_operation_by_name("mm").get_attr("transpose_a") is False
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      assert sess.run("v:0") == 1.0


def test_export_given_graph_def_and_meta_info_def():
  with tf.Graph().as_default() as g:
    tf.constant(1.0, name="c")
    info = tf.MetaGraphDef.MetaInfoDef(tags=["serve"], meta_graph_version="v7")
    meta = tf.train.export_meta_graph(graph_def=g.as_graph_def(), meta_info_def=info,
                                      saver_def=tf.train.SaverDef(restore_op_name="r"))
  assert list(meta.meta_info_def.tags) == ["serve"]
  assert meta.meta_info_def.meta_graph_version == "v7"
  assert [op.name for op in meta.meta_info_def.stripped_op_list.op] == ["Const"]
  assert meta.saver_def.restore_op_name == "r"
  assert not info.tensorflow_version  # the caller's message is left as it was
  with pytest.raises(TypeError):
    tf.train.export_meta_graph(graph_def="not a graph def")
  with pytest.raises(TypeError):
    tf.train.export_meta_graph(saver_def=tf.GraphDef())


def test_unserializable_collection_is_skipped():
  with tf.Graph().as_default():
    tf.constant(1.0, name="c")
    tf.add_to_collection("objects", object())
    tf.add_to_collection(("tuple", "key"), 1)
    meta = tf.train.export_meta_graph()
  assert "objects" not in meta.collection_def
  assert list(meta.collection_def) == []


def test_missing_and_corrupt_files(tmp_path):
  with tf.Graph().as_default():
    with pytest.raises(IOError, match="does not exist"):
      tf.train.import_meta_graph(str(tmp_path / "missing.meta"))
    bad = tmp_path / "bad.meta"
    bad.write_bytes(b"\x0a\xff\xff\xff\x0f\x01\x02\xff")
    with pytest.raises(IOError, match="Cannot parse file .*Error parsing message with type "
                       "'tensorflow.MetaGraphDef'"):
      tf.train.import_meta_graph(str(bad))
    text = tmp_path / "bad.pbtxt"
    text.write_text("garbage text {")
    with pytest.raises(IOError, match="Cannot parse file"):
      tf.train.import_meta_graph(str(text))
    truncated = tmp_path / "truncated.meta"
    truncated.write_bytes((FIXTURES / "mlp.meta").read_bytes()[:-7])
    with pytest.raises((ValueError, IOError)):
      tf.train.import_meta_graph(str(truncated))
    assert tf.get_default_graph().get_operations() == []
  with pytest.raises(DecodeError, match="tensorflow.MetaGraphDef"):
    tf.MetaGraphDef().ParseFromString(b"\x0a\xff\xff\xff\x0f\x01\x02")


def test_empty_meta_graph():
  with tf.Graph().as_default() as g:
    assert tf.train.import_meta_graph(tf.MetaGraphDef()) is None
    assert g.get_operations() == []
    meta = tf.train.export_meta_graph()
    assert len(meta.graph_def.node) == 0
    assert not meta.collection_def


def test_variable_def_old_version_trainable_from_collection():
  """Files from TF < 1.9 carry no VariableDef.trainable: the collection decides."""
  with tf.Graph().as_default():
    tf.Variable(1.0, name="t")
    tf.Variable(2.0, name="n", trainable=False)
    meta = tf.train.export_meta_graph()
  meta.meta_info_def.tensorflow_version = "1.8.0"
  for key in ("variables", "trainable_variables"):
    values = meta.collection_def[key].bytes_list.value
    for i, b in enumerate(values):
      d = VariableDef.FromString(b)
      d.trainable = False
      values[i] = d.SerializeToString()
  with tf.Graph().as_default():
    tf.train.import_meta_graph(meta)
    assert [v.name for v in tf.trainable_variables()] == ["t:0"]
    assert [v.trainable for v in tf.global_variables()] == [True, False]


def test_public_names():
  assert tf.train.SaverDef is tf.compat.v1.train.SaverDef
  assert tf.MetaGraphDef.MetaInfoDef is not None
  assert callable(tf.train.export_meta_graph) and callable(tf.train.import_meta_graph)
  assert tf.TensorInfo(name="x:0").WhichOneof("encoding") == "name"


def test_extraneous_saver_nodes():
  meta = tf.MetaGraphDef.FromString((FIXTURES / "mlp_saver.meta").read_bytes())
  gd = meta.graph_def
  save_nodes = set(n.name for n in gd.node if n.name.startswith("save/"))
  assert save_nodes and "save/SaveV2" in save_nodes
  assert meta_graph._find_extraneous_saver_nodes(gd, meta.saver_def) == set()
  assert meta_graph._find_extraneous_saver_nodes(gd, None) == save_nodes
  other = tf.train.SaverDef(save_tensor_name="save_1/control_dependency:0",
                            restore_op_name="save_1/restore_all")
  assert meta_graph._find_extraneous_saver_nodes(gd, other) == save_nodes


def test_unknown_keyword_rejected():
  with tf.Graph().as_default():
    with pytest.raises(TypeError, match="no_such_arg"):
      tf.train.export_meta_graph(no_such_arg=1)
  assert "export_meta_graph" in dir(tf.train)



def test_saver_returned_when_a_saver_class_exists(monkeypatch):
  made = []

  class RecordingSaver(object):
    def __init__(self, **kwargs):
      made.append(kwargs)

  monkeypatch.setattr(tf.train, "Saver", RecordingSaver, raising=False)
  with tf.Graph().as_default():
    tf.Variable(1.0, name="w")
    plain = tf.train.export_meta_graph()
    with_def = tf.train.export_meta_graph(
        saver_def=tf.train.SaverDef(restore_op_name="save/restore_all"))
  with tf.Graph().as_default():
    assert isinstance(tf.train.import_meta_graph(plain), RecordingSaver)
    assert made[-1] == {}
    assert isinstance(tf.train.import_meta_graph(with_def, import_scope="a"), RecordingSaver)
    assert made[-1]["name"] == "a/"
    assert made[-1]["saver_def"].restore_op_name == "save/restore_all"
  with tf.Graph().as_default():
    assert tf.train.import_meta_graph(tf.MetaGraphDef()) is None  # nothing to save
