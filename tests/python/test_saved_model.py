"""tf.saved_model, TF 1.x style: SavedModelBuilder, loader.load, simple_save,
signature helpers; SavedModels written by TensorFlow load and run in tfc
(tests/fixtures/saved_model, tools/make_saved_model_fixtures.py), and ones
tfc writes load and run in TensorFlow (when .venv-tf exists; `make compat`
requires it)."""
import os
import pathlib
import subprocess

import numpy as np
import pytest

import tfc as tf

REPO = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures" / "saved_model"
TF_PYTHON = REPO / ".venv-tf" / "bin" / "python"
TOOL = REPO / "tools" / "make_saved_model_fixtures.py"
REQUIRED = os.environ.get("TFC_COMPAT_REQUIRED", "") not in ("", "0")


@pytest.fixture(scope="module")
def expected():
  return dict(np.load(FIXTURES / "expected.npz"))


def _run_signature(sess, meta, key, feeds_by_key, import_scope=None):
  sig = meta.signature_def[key]
  feeds = {tf.saved_model.utils.get_tensor_from_tensor_info(
      sig.inputs[k], sess.graph, import_scope): v for k, v in feeds_by_key.items()}
  keys = sorted(sig.outputs)
  outs = sess.run([tf.saved_model.utils.get_tensor_from_tensor_info(
      sig.outputs[k], sess.graph, import_scope) for k in keys], feeds)
  return dict(zip(keys, outs))


# -- SavedModels written by TensorFlow ------------------------------------------------


def test_tf_simple_save_loads_and_runs(expected):
  with tf.Session(graph=tf.Graph()) as sess:
    meta = tf.saved_model.loader.load(sess, [tf.saved_model.tag_constants.SERVING],
                                      str(FIXTURES / "simple"))
    assert list(meta.meta_info_def.tags) == ["serve"]
    sig = meta.signature_def["serving_default"]
    assert sig.method_name == "tensorflow/serving/predict"
    assert tf.saved_model.is_valid_signature(sig)
    out = _run_signature(sess, meta, "serving_default", {"x": expected["x"]})
  np.testing.assert_allclose(out["logits"], expected["simple_logits"], rtol=1e-5, atol=1e-6)
  np.testing.assert_allclose(out["probs"], expected["simple_probs"], rtol=1e-5, atol=1e-6)


def test_tf_builder_text_multi_meta_graph_assets(expected):
  export_dir = str(FIXTURES / "multi")
  assert tf.saved_model.contains_saved_model(export_dir)
  with tf.Session(graph=tf.Graph()) as sess:
    meta = tf.saved_model.load(sess, ["serve"], export_dir)
    out = _run_signature(sess, meta, "serving_default", {"x": expected["x"]})
    np.testing.assert_allclose(out["logits"], expected["multi_logits"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(out["scores"], expected["multi_scores"], rtol=1e-5, atol=1e-6)
    # restored variables, and the main op ran with the asset's path fed
    assert sess.run("global_step:0") == 42
    assert sess.run("vocab_text:0") == b"alpha\nbeta\ngamma\n"
    classify = meta.signature_def["classify"]
    assert classify.method_name == tf.saved_model.CLASSIFY_METHOD_NAME
    assert set(classify.outputs) == {"classes", "scores"}
    assert tf.saved_model.signature_def_utils.is_valid_signature(classify)
  # the second MetaGraphDef, tags in another order
  with tf.Session(graph=tf.Graph()) as sess:
    meta = tf.saved_model.loader.load(sess, ["eval", "train"], export_dir)
    out = _run_signature(sess, meta, "regress", {"x": expected["x"]})
    np.testing.assert_allclose(out["y"], expected["multi_regress"], rtol=1e-5, atol=1e-5)


def test_load_under_import_scope(expected):
  with tf.Session(graph=tf.Graph()) as sess:
    meta = tf.saved_model.loader.load(sess, ["serve"], str(FIXTURES / "simple"),
                                      import_scope="imported")
    assert sess.graph.get_tensor_by_name("imported/x:0") is not None
    out = _run_signature(sess, meta, "serving_default", {"x": expected["x"]},
                         import_scope="imported")
  np.testing.assert_allclose(out["probs"], expected["simple_probs"], rtol=1e-5, atol=1e-6)


def test_load_errors(tmp_path):
  with tf.Session(graph=tf.Graph()) as sess:
    with pytest.raises(RuntimeError, match="could not be found in SavedModel"):
      tf.saved_model.loader.load(sess, ["train"], str(FIXTURES / "simple"))
    with pytest.raises(IOError, match="SavedModel file does not exist"):
      tf.saved_model.loader.load(sess, ["serve"], str(tmp_path))
  (tmp_path / "saved_model.pb").write_bytes(b"\xff\xff\xff garbage")
  with tf.Session(graph=tf.Graph()) as sess:
    with pytest.raises(IOError, match="Cannot parse file"):
      tf.saved_model.loader.load(sess, ["serve"], str(tmp_path))
  assert not tf.saved_model.contains_saved_model(str(tmp_path / "nothing"))
  assert tf.saved_model.loader.maybe_saved_model_directory(str(tmp_path))


# -- SavedModels written by tfc ------------------------------------------------------


def _regression_graph(w0, b0):
  x = tf.placeholder(tf.float32, [None, 4], name="x")
  w = tf.Variable(w0, name="w")
  b = tf.Variable(b0, name="b")
  y = tf.nn.softmax(tf.matmul(x, w) + b, name="y")
  return x, y


def test_simple_save_round_trip(tmp_path):
  rng = np.random.RandomState(0)
  w0, b0 = rng.randn(4, 3).astype(np.float32), rng.randn(3).astype(np.float32)
  xs = rng.randn(6, 4).astype(np.float32)
  export_dir = str(tmp_path / "model")
  with tf.Graph().as_default(), tf.Session() as sess:
    x, y = _regression_graph(w0, b0)
    sess.run(tf.global_variables_initializer())
    want = sess.run(y, {x: xs})
    tf.saved_model.simple_save(sess, export_dir, {"x": x}, {"y": y})
  assert sorted(os.listdir(export_dir)) == ["saved_model.pb", "variables"]
  assert sorted(os.listdir(os.path.join(export_dir, "variables"))) == [
      "variables.data-00000-of-00001", "variables.index"]
  with tf.Session(graph=tf.Graph()) as sess:
    meta = tf.saved_model.loader.load(sess, ["serve"], export_dir)
    got = _run_signature(sess, meta, "serving_default", {"x": xs})["y"]
  np.testing.assert_allclose(got, want, rtol=1e-6)
  saved = tf.saved_model.loader.parse_saved_model(export_dir)
  assert saved.saved_model_schema_version == 1
  info = saved.meta_graphs[0].signature_def["serving_default"].inputs["x"]
  assert info.name == "x:0" and info.dtype == tf.float32.as_datatype_enum
  assert [d.size for d in info.tensor_shape.dim] == [-1, 4]
  # simple_save clears devices
  assert all(not n.device for n in saved.meta_graphs[0].graph_def.node)


def test_builder_two_meta_graphs_as_text_assets_main_op(tmp_path):
  vocab = tmp_path / "vocab.txt"
  vocab.write_text("one\ntwo\n")
  export_dir = str(tmp_path / "model")
  w0 = np.arange(12, dtype=np.float32).reshape(4, 3)
  xs = np.ones((2, 4), np.float32)
  with tf.Graph().as_default() as g, tf.Session(graph=g) as sess:
    x, y = _regression_graph(w0, np.zeros(3, np.float32))
    path = tf.constant(str(vocab), name="vocab_path")
    tf.add_to_collection(tf.GraphKeys.ASSET_FILEPATHS, path)
    text = tf.Variable("", name="text", trainable=False,
                       collections=[tf.GraphKeys.LOCAL_VARIABLES])
    # the assign must follow the initializer: a group alone leaves their order open
    with tf.control_dependencies([tf.local_variables_initializer()]):
      main_op = tf.group(tf.assign(text, tf.read_file(path)))
    sess.run(tf.global_variables_initializer())
    b = tf.saved_model.builder.SavedModelBuilder(export_dir)
    with pytest.raises(AssertionError, match="add_meta_graph_and_variables"):
      b.add_meta_graph(["eval"])
    sig = tf.saved_model.predict_signature_def({"x": x}, {"y": y})
    b.add_meta_graph_and_variables(sess, ["serve"], {"serving_default": sig},
                                   assets_collection=tf.get_collection(
                                       tf.GraphKeys.ASSET_FILEPATHS), main_op=main_op)
    with pytest.raises(AssertionError, match="already been saved"):
      b.add_meta_graph_and_variables(sess, ["serve"])
    b.add_meta_graph(["train", "gpu"], {"serving_default": sig})
    path_written = b.save(as_text=True)
  assert path_written == os.path.join(export_dir, "saved_model.pbtxt").encode()
  assert (pathlib.Path(export_dir) / "assets" / "vocab.txt").read_text() == "one\ntwo\n"
  vocab.unlink()  # the loaded model reads its own copy
  for tags in (["serve"], ["gpu", "train"]):
    with tf.Session(graph=tf.Graph()) as sess:
      meta = tf.saved_model.loader.load(sess, tags, export_dir)
      got = _run_signature(sess, meta, "serving_default", {"x": xs})["y"]
      logits = xs @ w0
      want = np.exp(logits - logits.max(1, keepdims=True))
      np.testing.assert_allclose(got, want / want.sum(1, keepdims=True), rtol=1e-5)
      if tags == ["serve"]:
        assert sess.run("text:0") == b"one\ntwo\n"


def test_builder_refuses_non_empty_dir_and_bad_signatures(tmp_path):
  (tmp_path / "f").write_text("x")
  with pytest.raises(AssertionError, match="already exists"):
    tf.saved_model.builder.SavedModelBuilder(str(tmp_path))
  with tf.Graph().as_default(), tf.Session() as sess:
    b = tf.saved_model.Builder(str(tmp_path / "m"))
    bad = tf.saved_model.build_signature_def({"x": tf.TensorInfo(name="x:0")}, {}, "m")
    with pytest.raises(AssertionError, match="name and dtype"):
      b.add_meta_graph_and_variables(sess, ["serve"], {"s": bad})
    with pytest.raises(TypeError, match="main_op"):
      b.add_meta_graph_and_variables(sess, ["serve"], main_op=tf.constant(1))


def test_model_without_variables(tmp_path):
  export_dir = str(tmp_path / "m")
  with tf.Graph().as_default(), tf.Session() as sess:
    x = tf.placeholder(tf.int32, [], name="x")
    y = tf.multiply(x, 3, name="y")
    tf.saved_model.simple_save(sess, export_dir, {"x": x}, {"y": y})
  with tf.Session(graph=tf.Graph()) as sess:
    meta = tf.saved_model.loader.load(sess, ["serve"], export_dir)
    assert _run_signature(sess, meta, "serving_default", {"x": 5})["y"] == 15


# -- signature and TensorInfo helpers ------------------------------------------------


def test_signature_def_utils():
  with tf.Graph().as_default():
    examples = tf.placeholder(tf.string, [None], name="ex")
    scores = tf.placeholder(tf.float32, [None, 3], name="scores")
    classes = tf.placeholder(tf.string, [None, 3], name="classes")
    ints = tf.placeholder(tf.int32, [None], name="ints")
    sig = tf.saved_model.classification_signature_def(examples, classes, scores)
    assert sig.method_name == "tensorflow/serving/classify"
    assert sig.inputs["inputs"].name == "ex:0"
    assert sig.outputs["scores"].dtype == tf.float32.as_datatype_enum
    assert tf.saved_model.is_valid_signature(sig)
    reg = tf.saved_model.regression_signature_def(examples, scores)
    assert reg.method_name == "tensorflow/serving/regress"
    assert tf.saved_model.is_valid_signature(reg)
    with pytest.raises(ValueError, match="string Tensor"):
      tf.saved_model.classification_signature_def(scores, classes, scores)
    with pytest.raises(ValueError, match="cannot both be None"):
      tf.saved_model.classification_signature_def(examples, None, None)
    with pytest.raises(ValueError, match="float Tensor"):
      tf.saved_model.regression_signature_def(examples, ints)
    with pytest.raises(ValueError, match="inputs cannot be None or empty"):
      tf.saved_model.predict_signature_def({}, {"y": scores})
    with pytest.raises(ValueError, match="outputs cannot be None or empty"):
      tf.saved_model.predict_signature_def({"x": scores}, None)
    bad = tf.saved_model.build_signature_def({"inputs": tf.saved_model.build_tensor_info(ints)},
                                             {"outputs": tf.saved_model.build_tensor_info(scores)},
                                             tf.saved_model.REGRESS_METHOD_NAME)
    assert not tf.saved_model.is_valid_signature(bad)
    assert tf.saved_model.DEFAULT_SERVING_SIGNATURE_DEF_KEY == "serving_default"
    assert tf.saved_model.tag_constants.TRAINING == "train"


def test_tensor_info_round_trip_dense_and_sparse():
  with tf.Graph().as_default() as g:
    x = tf.placeholder(tf.float64, None, name="free")
    info = tf.saved_model.build_tensor_info(x)
    assert info.tensor_shape.unknown_rank and info.dtype == tf.float64.as_datatype_enum
    assert tf.saved_model.get_tensor_from_tensor_info(info) is x
    sp = tf.SparseTensor([[0, 1]], [2.0], [3, 4])
    sinfo = tf.saved_model.utils.build_tensor_info(sp)
    assert sinfo.WhichOneof("encoding") == "coo_sparse"
    back = tf.saved_model.utils.get_tensor_from_tensor_info(sinfo, g)
    assert back.values is sp.values and back.indices is sp.indices
    with pytest.raises(ValueError, match="Invalid TensorInfo.encoding"):
      tf.saved_model.utils.get_tensor_from_tensor_info(tf.TensorInfo())
    with pytest.raises(KeyError):
      tf.saved_model.utils.get_tensor_from_tensor_info(tf.TensorInfo(name="nope:0"))


def test_main_op_helpers():
  with tf.Graph().as_default(), tf.Session() as sess:
    v = tf.Variable(3, name="loc", collections=[tf.GraphKeys.LOCAL_VARIABLES])
    op = tf.saved_model.main_op.main_op()
    sess.run(op)
    assert sess.run(v) == 3
    w = tf.Variable(1, name="w")
    saver = tf.train.Saver([w])
    op2 = tf.saved_model.main_op_with_restore(saver.saver_def.restore_op_name)
    assert op2.type == "NoOp"


# -- tfc's SavedModel in TensorFlow --------------------------------------------------


def test_tfc_saved_model_loads_in_tensorflow(tmp_path):
  if not TF_PYTHON.exists():
    if REQUIRED:
      pytest.fail("no TensorFlow venv at %s" % TF_PYTHON)
    pytest.skip("no TensorFlow venv (.venv-tf)")
  rng = np.random.RandomState(3)
  w0, b0 = rng.randn(4, 3).astype(np.float32), rng.randn(3).astype(np.float32)
  xs = rng.randn(5, 4).astype(np.float32)
  export_dir = str(tmp_path / "model")
  with tf.Graph().as_default(), tf.Session() as sess:
    x, y = _regression_graph(w0, b0)
    step = tf.Variable(7, name="step")
    sess.run(tf.global_variables_initializer())
    want = sess.run(y, {x: xs})
    tf.saved_model.simple_save(sess, export_dir, {"x": x}, {"y": y})
  np.savez(str(tmp_path / "io.npz"), in_x=xs, out_y=want, var_step=np.int32(7))
  env = dict(os.environ)
  env.pop("LD_PRELOAD", None)
  proc = subprocess.run([str(TF_PYTHON), str(TOOL), "--check", export_dir, "serve",
                         str(tmp_path / "io.npz")], capture_output=True, text=True,
                        timeout=300, env=env)
  assert proc.returncode == 0 and proc.stdout.strip().splitlines()[-1] == "ok", (
      proc.stdout[-2000:] + proc.stderr[-4000:])
  del step
