"""tf.train.Saver and the V2 checkpoint files: save/restore of every dtype
(strings included), global-step naming, max_to_keep, the `checkpoint` state
file (absolute and relative paths), sharded saves, the save/ subgraph, and
the bad cases (missing, truncated or corrupt files, missing keys, shape and
dtype mismatches, unwritable directories, a process killed while saving)."""
import os
import signal
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import tfc as tf

DTYPES = [np.float32, np.float64, np.int32, np.uint8, np.int16, np.int8, np.int64, np.bool_,
          np.complex64, np.complex128, np.float16, np.uint16, np.uint32, np.uint64]


def _files(d):
  return sorted(os.listdir(d))


def test_save_restore_every_dtype(tmp_path):
  rng = np.random.RandomState(0)
  values = {}
  with tf.Graph().as_default():
    variables = []
    for i, dt in enumerate(DTYPES):
      if dt == np.bool_:
        v = rng.rand(3, 4) > 0.5
      elif np.issubdtype(dt, np.complexfloating):
        v = (rng.randn(3, 4) + 1j * rng.randn(3, 4)).astype(dt)
      elif np.issubdtype(dt, np.integer):
        v = rng.randint(0, 100, size=(3, 4)).astype(dt)
      else:
        v = rng.randn(3, 4).astype(dt)
      values["v%02d" % i] = v
      variables.append(tf.Variable(v, name="v%02d" % i))
    s = np.array([b"hello", b"", b"\x00\xffbinary", "ünï".encode()], dtype=object)
    values["s"] = s
    variables.append(tf.Variable(s, name="s"))
    values["scalar"] = np.float64(3.5)
    variables.append(tf.Variable(3.5, dtype=tf.float64, name="scalar"))
    saver = tf.train.Saver()
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      path = saver.save(sess, str(tmp_path / "model.ckpt"))
      assert path == str(tmp_path / "model.ckpt")
      for v in variables:
        sess.run(v.assign(tf.zeros_like(v)) if v.dtype.base_dtype != tf.string
                 else v.assign(tf.constant(["", "", "", ""])))
      saver.restore(sess, path)
      for v in variables:
        got = sess.run(v)
        want = values[v.op.name]
        assert np.asarray(got).dtype == np.asarray(want).dtype or v.op.name == "s"
        np.testing.assert_array_equal(got, want)
  assert _files(tmp_path) == ["checkpoint", "model.ckpt.data-00000-of-00001", "model.ckpt.index",
                              "model.ckpt.meta"]
  reader = tf.train.NewCheckpointReader(str(tmp_path / "model.ckpt"))
  assert reader.get_variable_to_shape_map()["v00"] == [3, 4]
  assert reader.get_variable_to_shape_map()["scalar"] == []
  assert reader.get_variable_to_dtype_map()["s"] == tf.string
  assert reader.get_variable_to_dtype_map()["v10"] == tf.float16
  assert reader.has_tensor("v03") and not reader.has_tensor("nope")
  np.testing.assert_array_equal(reader.get_tensor("s"), values["s"])
  np.testing.assert_array_equal(tf.train.load_variable(str(tmp_path), "v02:0"), values["v02"])
  names = [n for n, _ in tf.train.list_variables(str(tmp_path))]
  assert names == sorted(values)


def test_global_step_naming_state_file_and_max_to_keep(tmp_path):
  d = str(tmp_path)
  with tf.Graph().as_default():
    w = tf.Variable([1.0, 2.0], name="w")
    step = tf.train.get_or_create_global_step()
    inc = tf.assign_add(step, 1)
    saver = tf.train.Saver(max_to_keep=2)
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      paths = []
      for _ in range(4):
        sess.run(inc)
        paths.append(saver.save(sess, os.path.join(d, "model.ckpt"), global_step=step))
      assert paths == [os.path.join(d, "model.ckpt-%d" % i) for i in (1, 2, 3, 4)]
      assert saver.last_checkpoints == paths[2:]
      files = _files(d)
      assert "model.ckpt-1.index" not in files and "model.ckpt-2.meta" not in files
      assert {"model.ckpt-3.index", "model.ckpt-3.data-00000-of-00001", "model.ckpt-3.meta",
              "model.ckpt-4.index"} <= set(files)
      text = open(os.path.join(d, "checkpoint")).read()
      assert text.startswith('model_checkpoint_path: "%s"\n' % paths[3])
      assert 'all_model_checkpoint_paths: "%s"\n' % paths[2] in text
      assert "all_model_checkpoint_timestamps" not in text or True
      assert tf.train.latest_checkpoint(d) == paths[3]
      state = tf.train.get_checkpoint_state(d)
      assert state.model_checkpoint_path == paths[3]
      assert list(state.all_model_checkpoint_paths) == paths[2:]
      assert tf.train.checkpoint_exists(paths[3]) and not tf.train.checkpoint_exists(paths[0])
      # an integer global_step and pad_step_number
      padded = tf.train.Saver(pad_step_number=True)
      assert padded.save(sess, os.path.join(d, "p"), global_step=7) == os.path.join(
          d, "p-00000007")
      # a second Saver takes up the first one's list
      again = tf.train.Saver(max_to_keep=2)
      again.recover_last_checkpoints(paths)
      assert again.last_checkpoints == paths[2:]
      again.set_last_checkpoints(paths[:1])
      assert again.last_checkpoints == paths[:1]
      assert again.as_saver_def().max_to_keep == 2


def test_relative_paths_in_state_file(tmp_path, monkeypatch):
  monkeypatch.chdir(tmp_path)
  with tf.Graph().as_default():
    tf.Variable(1.0, name="v")
    saver = tf.train.Saver()
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      saver.save(sess, "run/model", global_step=3)
  text = open("run/checkpoint").read()
  assert 'model_checkpoint_path: "model-3"' in text
  assert tf.train.latest_checkpoint("run") == os.path.join("run", "model-3")
  # save_relative_paths with an absolute save path
  with tf.Graph().as_default():
    tf.Variable(1.0, name="v")
    saver = tf.train.Saver(save_relative_paths=True)
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      saver.save(sess, str(tmp_path / "abs" / "m"))
  assert 'model_checkpoint_path: "m"' in open(tmp_path / "abs" / "checkpoint").read()
  assert tf.train.latest_checkpoint(str(tmp_path / "abs")) == str(tmp_path / "abs" / "m")


def test_var_list_dict_reshape_and_restore_into_other_names(tmp_path):
  path = str(tmp_path / "m")
  with tf.Graph().as_default():
    a = tf.Variable(np.arange(6, dtype=np.float32).reshape(2, 3), name="a")
    saver = tf.train.Saver({"renamed": a})
    with tf.Session() as sess:
      sess.run(a.initializer)
      saver.save(sess, path, write_meta_graph=False)
  assert [n for n, _ in tf.train.list_variables(path)] == ["renamed"]
  with tf.Graph().as_default():
    b = tf.Variable(np.zeros((3, 2), np.float32), name="b")
    saver = tf.train.Saver({"renamed": b}, reshape=True)
    with tf.Session() as sess:
      saver.restore(sess, path)
      np.testing.assert_array_equal(sess.run(b), np.arange(6).reshape(3, 2))


def test_save_subgraph_structure_and_saver_def(tmp_path):
  with tf.Graph().as_default() as g:
    tf.Variable(1.0, name="v1")
    tf.Variable([2.0], name="v2")
    saver = tf.train.Saver()
    sd = saver.as_saver_def()
    assert sd.filename_tensor_name == "save/Const:0"
    assert sd.save_tensor_name == "save/control_dependency:0"
    assert sd.restore_op_name == "save/restore_all"
    assert sd.max_to_keep == 5 and sd.version == 2
    assert abs(sd.keep_checkpoint_every_n_hours - 10000.0) < 1e-3
    types = {op.name: op.type for op in g.get_operations() if op.name.startswith("save/")}
    assert types["save/SaveV2"] == "SaveV2" and types["save/RestoreV2"] == "RestoreV2"
    assert types["save/Const"] == "PlaceholderWithDefault"
    assert types["save/Assign"] == "Assign" and types["save/Assign_1"] == "Assign"
    assert types["save/restore_all"] == "NoOp"
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      # the save tensor run directly, as a TF script would
      out = sess.run("save/control_dependency:0", {"save/Const:0": str(tmp_path / "x")})
      assert out == str(tmp_path / "x").encode()
    assert os.path.exists(str(tmp_path / "x.index"))
    meta = saver.export_meta_graph()
    assert meta.saver_def.restore_op_name == "save/restore_all"


def test_sharded_save_one_shard_per_device(tmp_path):
  path = str(tmp_path / "sh")
  config = tf.ConfigProto(device_count={"CPU": 2})
  with tf.Graph().as_default() as g:
    with tf.device("/cpu:0"):
      a = tf.Variable([1.0, 2.0], name="a")
    with tf.device("/cpu:1"):
      b = tf.Variable([3, 4], name="b")
    saver = tf.train.Saver(sharded=True)
    types = set(op.type for op in g.get_operations())
    assert {"StaticRegexFullMatch", "Select", "StringJoin", "ShardedFilename",
            "MergeV2Checkpoints", "Pack"} <= types
    with tf.Session(config=config) as sess:
      sess.run(tf.global_variables_initializer())
      assert saver.save(sess, path) == path
      sess.run([a.assign([0.0, 0.0]), b.assign([0, 0])])
      saver.restore(sess, path)
      np.testing.assert_array_equal(sess.run(a), [1.0, 2.0])
      np.testing.assert_array_equal(sess.run(b), [3, 4])
  files = _files(tmp_path)
  assert "sh.data-00000-of-00002" in files and "sh.data-00001-of-00002" in files
  assert not any("_temp" in f for f in files)
  assert tf.train.NewCheckpointReader(path).get_tensor("b").tolist() == [3, 4]


def _saved(tmp_path, value=None, name="w"):
  path = str(tmp_path / "model")
  with tf.Graph().as_default():
    tf.Variable(np.arange(600, dtype=np.float32).reshape(20, 30) if value is None else value,
                name=name)
    saver = tf.train.Saver()
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      saver.save(sess, path)
  return path


def _restore_into(path, var_fn):
  with tf.Graph().as_default():
    var_fn()
    saver = tf.train.Saver()
    with tf.Session() as sess:
      saver.restore(sess, path)


def test_restore_errors(tmp_path):
  path = _saved(tmp_path)
  with tf.Graph().as_default():
    tf.Variable(0.0, name="w")
    saver = tf.train.Saver()
    with tf.Session() as sess:
      with pytest.raises(ValueError, match="Can't load save_path when it is None."):
        saver.restore(sess, None)
      with pytest.raises(ValueError, match="The passed save_path is not a valid checkpoint: "
                         + str(tmp_path / "nothere")):
        saver.restore(sess, str(tmp_path / "nothere"))
  # a variable missing from the checkpoint
  with pytest.raises(tf.errors.NotFoundError) as e:
    _restore_into(path, lambda: tf.Variable(0.0, name="zz"))
  assert "Restoring from checkpoint failed" in str(e.value)
  assert "Key zz not found in checkpoint" in str(e.value)
  # a shape mismatch
  with pytest.raises(tf.errors.InvalidArgumentError) as e:
    _restore_into(path, lambda: tf.Variable(np.zeros((3, 3), np.float32), name="w"))
  assert ("Assign requires shapes of both tensors to match. lhs shape= [3,3] rhs shape= "
          "[20,30]") in str(e.value)
  assert "save/Assign" in str(e.value)
  # a dtype mismatch
  with pytest.raises(tf.errors.InvalidArgumentError) as e:
    _restore_into(path, lambda: tf.Variable(np.zeros((20, 30), np.int32), name="w"))
  assert "tensor_name = w; expected dtype int32 does not equal restored dtype float" in str(
      e.value)


def test_corrupt_files(tmp_path):
  path = _saved(tmp_path)
  data = path + ".data-00000-of-00001"
  index = path + ".index"
  good_data = open(data, "rb").read()
  good_index = open(index, "rb").read()
  var = lambda: tf.Variable(np.zeros((20, 30), np.float32), name="w")  # noqa: E731
  # truncated data file
  open(data, "wb").write(good_data[:100])
  with pytest.raises(tf.errors.OutOfRangeError, match="Read less bytes than requested"):
    _restore_into(path, var)
  # a flipped byte in it
  bad = bytearray(good_data)
  bad[1000] ^= 0x40
  open(data, "wb").write(bytes(bad))
  with pytest.raises(tf.errors.DataLossError, match="Checksum does not match"):
    _restore_into(path, var)
  # missing data file
  os.remove(data)
  with pytest.raises(tf.errors.NotFoundError):
    _restore_into(path, var)
  open(data, "wb").write(good_data)
  # the index cut to 10 bytes, and garbage
  open(index, "wb").write(good_index[:10])
  with pytest.raises(tf.errors.DataLossError, match="file is too short to be an sstable"):
    _restore_into(path, var)
  with pytest.raises(tf.errors.DataLossError):
    tf.train.NewCheckpointReader(path)
  for i in range(0, len(good_index), 7):
    bad = bytearray(good_index)
    bad[i] ^= 0xff
    open(index, "wb").write(bytes(bad))
    try:
      tf.train.NewCheckpointReader(path).get_tensor("w")
    except (tf.errors.DataLossError, tf.errors.NotFoundError, tf.errors.OutOfRangeError,
            tf.errors.InvalidArgumentError, tf.errors.UnimplementedError):
      pass
  open(index, "wb").write(good_index)
  np.testing.assert_array_equal(tf.train.load_variable(path, "w").ravel(), np.arange(600))
  with pytest.raises(tf.errors.NotFoundError, match="Key nope not found in checkpoint"):
    tf.train.load_variable(path, "nope")
  with pytest.raises(tf.errors.NotFoundError, match="Failed to find any matching files"):
    tf.train.NewCheckpointReader(str(tmp_path / "missing"))


def test_unwritable_directory_keeps_old_checkpoint(tmp_path):
  d = tmp_path / "ro"
  d.mkdir()
  path = _saved(d)
  before = {f: open(os.path.join(d, f), "rb").read() for f in _files(d)}
  os.chmod(d, 0o500)
  try:
    if os.access(str(d), os.W_OK):
      pytest.skip("running as a user that can write anywhere")
    with tf.Graph().as_default():
      tf.Variable(np.ones((20, 30), np.float32), name="w")
      saver = tf.train.Saver()
      with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        with pytest.raises(tf.errors.PermissionDeniedError, match="Permission denied"):
          saver.save(sess, path)
  finally:
    os.chmod(d, 0o700)
  assert {f: open(os.path.join(d, f), "rb").read() for f in _files(d)} == before


def test_killed_during_save_leaves_previous_checkpoint(tmp_path):
  """A process killed while it writes a big checkpoint over an existing one
  leaves the old files intact (writes go to temporary files renamed at the end)."""
  path = str(tmp_path / "model")
  old = np.arange(600, dtype=np.float32).reshape(20, 30)
  _saved(tmp_path, old)
  script = textwrap.dedent("""
      import sys, numpy as np, tfc as tf
      w = tf.Variable(np.zeros((20, 30), np.float32), name="w")
      big = tf.Variable(tf.ones([64, 1024, 1024]), name="big")
      saver = tf.train.Saver()
      with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        print("ready", flush=True)
        while True:
          saver.save(sess, sys.argv[1], write_meta_graph=False, write_state=False)
      """)
  proc = subprocess.Popen([sys.executable, "-c", script, path], stdout=subprocess.PIPE,
                          cwd=str(tmp_path))
  assert proc.stdout.readline().strip() == b"ready"
  import time
  time.sleep(0.3)
  proc.send_signal(signal.SIGKILL)
  proc.wait()
  reader = tf.train.NewCheckpointReader(path)
  names = sorted(reader.get_variable_to_shape_map())
  if names == ["w"]:  # the old checkpoint
    np.testing.assert_array_equal(reader.get_tensor("w"), old)
  else:  # a complete new one
    assert names == ["big", "w"]
    np.testing.assert_array_equal(reader.get_tensor("w"), np.zeros((20, 30), np.float32))
  with tf.Graph().as_default():
    w = tf.Variable(np.zeros((20, 30), np.float32), name="w")
    with tf.Session() as sess:
      tf.train.Saver([w]).restore(sess, path)


def test_defer_build_allow_empty_and_bad_arguments(tmp_path):
  with tf.Graph().as_default():
    with pytest.raises(ValueError, match="No variables to save"):
      tf.train.Saver()
    empty = tf.train.Saver(allow_empty=True)
    with tf.Session() as sess:
      assert empty.save(sess, str(tmp_path / "e")) is None
    v = tf.Variable(1.0, name="v")
    with pytest.raises(ValueError, match="build cannot be deferred"):
      tf.train.Saver([v], defer_build=True)
    deferred = tf.train.Saver(defer_build=True)
    with tf.Session() as sess:
      sess.run(v.initializer)
      with pytest.raises(RuntimeError, match="build\\(\\)"):
        deferred.save(sess, str(tmp_path / "d"))
      deferred.build()
      deferred.save(sess, str(tmp_path / "d"))
      with pytest.raises(ValueError, match="latest_filename"):
        deferred.save(sess, str(tmp_path / "d"), latest_filename="a/b")
    with pytest.raises(ValueError, match="same name"):
      tf.train.Saver([v, v])


def test_import_meta_graph_returns_working_saver(tmp_path):
  path = str(tmp_path / "m")
  with tf.Graph().as_default():
    v = tf.Variable([1.0, 2.0], name="v")
    saver = tf.train.Saver()
    with tf.Session() as sess:
      sess.run(v.initializer)
      saver.save(sess, path)
  with tf.Graph().as_default():
    restored = tf.train.import_meta_graph(path + ".meta")
    assert restored is not None
    with tf.Session() as sess:
      restored.restore(sess, path)
      np.testing.assert_array_equal(sess.run("v:0"), [1.0, 2.0])
      sess.run(tf.assign(tf.get_default_graph().get_tensor_by_name("v:0"), [5.0, 6.0]))
      restored.save(sess, path + "2")
  np.testing.assert_array_equal(tf.train.load_variable(path + "2", "v"), [5.0, 6.0])
  with tf.Graph().as_default():
    restored = tf.train.import_meta_graph(path + ".meta", import_scope="imp")
    with tf.Session() as sess:
      restored.restore(sess, path)
      np.testing.assert_array_equal(sess.run("imp/v:0"), [1.0, 2.0])


def test_init_from_checkpoint(tmp_path):
  path = str(tmp_path / "m")
  with tf.Graph().as_default():
    with tf.variable_scope("old"):
      tf.get_variable("a", initializer=np.array([1.0, 2.0], np.float32))
      tf.get_variable("b", initializer=np.array(3, np.int64))
    saver = tf.train.Saver()
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      saver.save(sess, path)
  with tf.Graph().as_default():
    with tf.variable_scope("new"):
      a = tf.get_variable("a", shape=[2], dtype=tf.float32)
      b = tf.get_variable("b", shape=[], dtype=tf.int64)
    tf.train.init_from_checkpoint(path, {"old/": "new/"})
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      np.testing.assert_array_equal(sess.run(a), [1.0, 2.0])
      assert sess.run(b) == 3
  with tf.Graph().as_default():
    c = tf.Variable([0.0, 0.0], name="c")
    tf.train.init_from_checkpoint(path, {"old/a": c})
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      np.testing.assert_array_equal(sess.run(c), [1.0, 2.0])
    with pytest.raises(ValueError, match="not found"):
      tf.train.init_from_checkpoint(path, {"old/zz": c})


def test_state_file_round_trip_and_garbage(tmp_path):
  from tfc.train import checkpoint_management as cm
  state = cm.generate_checkpoint_state_proto(
      str(tmp_path), str(tmp_path / "a-2"), [str(tmp_path / "a-1")],
      all_model_checkpoint_timestamps=[1.5, 2.25], last_preserved_timestamp=1.0)
  text = str(state)
  assert cm.parse_checkpoint_state(text) == state
  assert 'all_model_checkpoint_timestamps: 2.25' in text
  (tmp_path / "checkpoint").write_text("garbage {")
  assert tf.train.get_checkpoint_state(str(tmp_path)) is None
  assert tf.train.latest_checkpoint(str(tmp_path)) is None
  assert tf.train.latest_checkpoint(str(tmp_path / "nodir")) is None


def test_save_under_a_file_is_a_clear_error(tmp_path):
  (tmp_path / "afile").write_text("x")
  with tf.Graph().as_default():
    tf.Variable(1.0, name="v")
    saver = tf.train.Saver()
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      with pytest.raises(ValueError, match="Parent directory of .* doesn't exist, can't save."):
        saver.save(sess, str(tmp_path / "afile" / "model"))
  assert (tmp_path / "afile").read_text() == "x"


def test_sharded_many_variables_three_devices(tmp_path):
  """Many cross-device edges (every variable's save and restore): the
  partitioner's synthesized _Send/_Recv nodes must survive their array growing."""
  path = str(tmp_path / "many")
  config = tf.ConfigProto(device_count={"CPU": 3})
  with tf.Graph().as_default():
    variables = []
    for i in range(30):
      with tf.device("/cpu:%d" % (i % 3)):
        variables.append(tf.Variable(np.full([2], i, np.float32), name="v%02d" % i))
    saver = tf.train.Saver(sharded=True)
    with tf.Session(config=config) as sess:
      sess.run(tf.global_variables_initializer())
      saver.save(sess, path)
      sess.run([v.assign([-1.0, -1.0]) for v in variables])
      saver.restore(sess, path)
      for i, v in enumerate(variables):
        np.testing.assert_array_equal(sess.run(v), [i, i])
  assert len([f for f in os.listdir(tmp_path) if ".data-" in f]) == 3


def test_keep_checkpoint_every_n_hours_and_filename(tmp_path):
  d = str(tmp_path)
  with tf.Graph().as_default() as g:
    tf.Variable(1.0, name="v")
    # every save is "older than the keep interval": none is deleted
    saver = tf.train.Saver(max_to_keep=1, keep_checkpoint_every_n_hours=1e-9,
                           filename=os.path.join(d, "default"))
    assert g.get_tensor_by_name("save/filename/input:0").op.get_attr("value") is not None
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      for step in range(3):
        saver.save(sess, os.path.join(d, "k"), global_step=step)
      # the save tensor without a feed uses `filename`
      sess.run(saver.as_saver_def().save_tensor_name)
  assert {"k-0.index", "k-1.index", "k-2.index", "default.index"} <= set(_files(d))
  assert saver.last_checkpoints == [os.path.join(d, "k-2")]
