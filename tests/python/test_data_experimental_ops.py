"""tf.data.Options, DatasetSpec and the structure names, and the
tf.data.experimental datasets that run as TF's experimental dataset ops
(IgnoreErrors, AssertCardinality, Unique, DirectedInterleave, Random, Scan,
TakeWhile). Their element orders and values are compared with TensorFlow in
test_compat_data.py (data_oracle.py); here: values, cardinalities, errors."""
import numpy as np
import pytest

import tfc as tf

E = tf.data.experimental


def drain(ds, n=100):
  nxt = ds.make_one_shot_iterator().get_next()
  out = []
  with tf.Session() as s:
    for _ in range(n):
      try:
        out.append(s.run(nxt))
      except tf.errors.OutOfRangeError:
        break
  return out


def card(ds):
  with tf.Session() as s:
    return int(s.run(E.cardinality(ds)))


# ---- options ----

def test_options_defaults_types_and_unknown_names():
  o = tf.data.Options()
  assert o.deterministic is None and o.experimental_slack is None
  assert o.threading.private_threadpool_size is None
  assert o.experimental_threading is o.threading
  assert o.experimental_optimization.map_fusion is None
  assert o.autotune.enabled is None
  assert o.experimental_distribute.auto_shard_policy is None
  with pytest.raises(TypeError, match="private_threadpool_size"):
    o.threading.private_threadpool_size = "x"
  with pytest.raises(TypeError):
    o.deterministic = 1
  with pytest.raises(AttributeError, match="Cannot set the property foo on Options"):
    o.foo = 1
  o.experimental_distribute.auto_shard_policy = E.AutoShardPolicy.DATA
  assert int(E.AutoShardPolicy.OFF) == -1 and E.AutotuneAlgorithm.HILL_CLIMB.value == 1
  assert o == o.merge(tf.data.Options())
  assert o != tf.data.Options()


def test_with_options_merges_along_the_pipeline():
  a = tf.data.Options()
  a.threading.private_threadpool_size = 3
  a.deterministic = True
  b = tf.data.Options()
  b.deterministic = False
  b.experimental_optimization.map_fusion = True
  ds = tf.data.Dataset.range(4).with_options(a).map(lambda x: x + 1).with_options(b).batch(2)
  o = ds.options()
  assert o.threading.private_threadpool_size == 3
  assert o.deterministic is False  # the later value wins
  assert o.experimental_optimization.map_fusion is True
  z = tf.data.Dataset.zip((tf.data.Dataset.range(2).with_options(a), tf.data.Dataset.range(2)))
  assert z.options().threading.private_threadpool_size == 3
  assert tf.data.Dataset.range(2).options() == tf.data.Options()
  with pytest.raises(TypeError):
    tf.data.Dataset.range(2).with_options({"deterministic": True})
  assert [list(x) for x in drain(ds)] == [[1, 2], [3, 4]]


# ---- structure ----

def test_dataset_spec_and_structures():
  ds = tf.data.Dataset.from_tensor_slices((np.zeros([3, 2], np.float32), np.arange(3)))
  spec = ds.element_spec
  assert spec == (tf.TensorSpec([2], tf.float32), tf.TensorSpec([], tf.int64))
  assert E.get_structure(ds) == spec
  assert E.get_structure(ds.make_one_shot_iterator()) == spec
  d = tf.data.DatasetSpec.from_value(ds)
  assert d.element_spec == spec and d.value_type is tf.data.Dataset
  assert d == tf.data.DatasetSpec((tf.TensorSpec([2], tf.float32), tf.TensorSpec([], tf.int64)))
  loose = tf.data.DatasetSpec((tf.TensorSpec([None], tf.float32), tf.TensorSpec([], tf.int64)))
  assert d.is_compatible_with(loose) and loose.is_compatible_with(ds)
  assert not d.is_compatible_with(tf.data.DatasetSpec(tf.TensorSpec([2], tf.float32)))
  assert d.most_specific_compatible_type(loose) == loose
  assert E.TensorStructure(tf.int32, [2]) == tf.TensorSpec([2], tf.int32)
  assert E.SparseTensorStructure(tf.float32, [3]) == tf.SparseTensorSpec([3], tf.float32)
  assert E.Structure is tf.TypeSpec and E.DatasetStructure is tf.data.DatasetSpec
  assert tf.data.INFINITE_CARDINALITY == -1 and tf.data.UNKNOWN_CARDINALITY == -2
  with pytest.raises(TypeError):
    E.get_structure(3)


# ---- datasets ----

def test_random_dataset_is_seeded_and_infinite():
  with tf.Graph().as_default():
    a = drain(E.RandomDataset(seed=42).take(5))
    assert a == [2985944072, 4132877644, 929418493, 249609589, 146598941]  # TensorFlow's values
    assert card(E.RandomDataset(seed=1)) == -1
  with tf.Graph().as_default():
    tf.set_random_seed(1)
    r = E.RandomDataset(seed=9).take(3)
    assert drain(r) == drain(r)  # every iterator replays the stream
    assert all(0 <= v < 2 ** 32 for v in drain(E.RandomDataset().take(4)))


def test_unique_and_its_errors():
  ds = tf.data.Dataset.from_tensor_slices(np.array([4, 4, 1, 4, 2, 1], np.int64)).apply(E.unique())
  assert drain(ds) == [4, 1, 2]
  assert card(ds) == -2
  v = tf.data.Dataset.from_tensor_slices(np.array([[1, 2], [1, 2], [2, 1]], np.int32)).apply(E.unique())
  assert [list(x) for x in drain(v)] == [[1, 2], [2, 1]]  # whole tensors compared
  with pytest.raises(TypeError, match="does not support type"):
    tf.data.Dataset.range(3).map(lambda x: tf.cast(x, tf.float32)).apply(E.unique())
  with pytest.raises(TypeError):
    tf.data.Dataset.range(3).map(lambda x: (x, x)).apply(E.unique())


def test_ignore_errors_skips_failed_elements():
  ds = tf.data.Dataset.from_tensor_slices(np.array([2., 0., 4., 0.], np.float32)).map(
      lambda x: tf.check_numerics(1. / x, "inf"))
  with pytest.raises(tf.errors.InvalidArgumentError):
    drain(ds)
  assert drain(ds.apply(E.ignore_errors())) == [0.5, 0.25]
  assert card(tf.data.Dataset.range(3).repeat().apply(E.ignore_errors())) == -2


def test_assert_cardinality():
  ok = tf.data.Dataset.range(3).apply(E.assert_cardinality(3))
  assert drain(ok) == [0, 1, 2] and card(ok) == 3
  with pytest.raises(tf.errors.FailedPreconditionError,
                     match="expected to contain 5 elements but contained only 3 elements"):
    drain(tf.data.Dataset.range(3).apply(E.assert_cardinality(5)))
  with pytest.raises(tf.errors.FailedPreconditionError,
                     match="expected to contain 1 element but contained at least 2 elements"):
    drain(tf.data.Dataset.range(3).apply(E.assert_cardinality(1)))
  with pytest.raises(tf.errors.FailedPreconditionError, match="an infinite number of elements"):
    drain(tf.data.Dataset.range(3).apply(E.assert_cardinality(-1)))


def test_take_while():
  ds = tf.data.Dataset.range(10).apply(E.take_while(lambda x: x * x < 20))
  assert drain(ds) == [0, 1, 2, 3, 4] and card(ds) == -2
  limit = tf.constant(2, tf.int64)
  assert drain(tf.data.Dataset.range(5).apply(E.take_while(lambda x: x < limit))) == [0, 1]
  with pytest.raises(ValueError, match="predicate"):
    tf.data.Dataset.range(3).apply(E.take_while(lambda x: x))


def test_scan_state_structures_and_errors():
  ds = tf.data.Dataset.range(5).apply(E.scan((tf.constant(0, tf.int64), tf.constant(1., tf.float32)),
                                               lambda s, x: ((s[0] + x, s[1] * 2.), s[0] * 10)))
  assert drain(ds) == [0, 0, 10, 30, 60] and card(ds) == 5
  grow = tf.data.Dataset.range(3).apply(E.scan(tf.zeros([0], tf.int64),
                                               lambda s, x: (tf.concat([s, [x]], 0), tf.size(s))))
  assert drain(grow) == [0, 1, 2]
  with pytest.raises(TypeError, match="must match the initial state"):
    tf.data.Dataset.range(3).apply(E.scan(tf.constant(0, tf.int64), lambda s, x: (tf.cast(s, tf.int32), x)))
  with pytest.raises(TypeError, match="pair"):
    tf.data.Dataset.range(3).apply(E.scan(tf.constant(0, tf.int64), lambda s, x: s))


def test_choose_from_datasets():
  a, b = tf.data.Dataset.range(2), tf.data.Dataset.range(10, 13)
  sel = tf.data.Dataset.from_tensor_slices(np.array([1, 0, 0, 0, 1, 1, 1, 0], np.int64))
  assert drain(E.choose_from_datasets([a, b], sel)) == [10, 0, 1, 11, 12]
  assert drain(E.choose_from_datasets([a, b], sel, stop_on_empty_dataset=True)) == [10, 0, 1]
  assert card(E.choose_from_datasets([a, b.repeat()], sel)) == -1
  bad = tf.data.Dataset.from_tensor_slices(np.array([0, 5], np.int64))
  with pytest.raises(tf.errors.InvalidArgumentError, match="Selector index out of range: 5 >= 2"):
    drain(E.choose_from_datasets([a, b], bad))
  with pytest.raises(TypeError, match="choice_dataset"):
    E.choose_from_datasets([a, b], tf.data.Dataset.range(2).map(lambda x: tf.cast(x, tf.int32)))
  with pytest.raises(TypeError):
    E.choose_from_datasets([a, a.map(lambda x: tf.cast(x, tf.int32))], sel)


TF_EXPERIMENTAL = r'''
import json, os, sys
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
import numpy as np
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()
E = tf.data.experimental
a = tf.data.Dataset.range(12).apply(E.scan(tf.constant(0, tf.int64), lambda s, x: (s + x, s)))
a = a.apply(E.take_while(lambda x: x < 40)).map(lambda x: x % 7).apply(E.unique())
b = E.RandomDataset(seed=11).map(lambda x: x % 1000)
sel = tf.data.Dataset.from_tensor_slices(np.array([0, 1, 0, 1, 1, 0, 0, 0, 0, 1], np.int64))
ds = E.choose_from_datasets([a, b], sel).apply(E.ignore_errors()).apply(E.assert_cardinality(8))
it = tf.data.make_initializable_iterator(ds)
nxt = it.get_next()
vals = []
with tf.Session() as s:
  s.run(it.initializer)
  try:
    while True:
      vals.append(int(s.run(nxt)))
  except tf.errors.OutOfRangeError:
    pass
open(sys.argv[1], "wb").write(tf.get_default_graph().as_graph_def().SerializeToString())
print(json.dumps({"init": it.initializer.name, "next": nxt.name, "vals": vals}))
'''


def test_tensorflow_written_experimental_pipeline_runs(tmp_path):
  """A GraphDef TensorFlow wrote with ScanDataset, TakeWhileDataset,
  UniqueDataset, RandomDataset, DirectedInterleaveDataset,
  IgnoreErrorsDataset and AssertCardinalityDataset gives TF's elements."""
  import json
  import os
  import pathlib
  import subprocess
  tf_python = pathlib.Path(__file__).resolve().parents[2] / ".venv-tf" / "bin" / "python"
  if not tf_python.exists():
    if os.environ.get("TFC_COMPAT_REQUIRED", "") not in ("", "0"):
      pytest.fail("TensorFlow venv missing")
    pytest.skip("no .venv-tf")
  env = dict(os.environ)
  env.pop("LD_PRELOAD", None)
  env.pop("PYTHONPATH", None)
  gpath = str(tmp_path / "exp.pb")
  ref = subprocess.run([str(tf_python), "-c", TF_EXPERIMENTAL, gpath], capture_output=True, text=True,
                       env=env, timeout=400)
  assert ref.returncode == 0, ref.stderr[-3000:]
  want = json.loads(ref.stdout.strip().splitlines()[-1])
  gd = tf.GraphDef()
  gd.ParseFromString(open(gpath, "rb").read())
  with tf.Graph().as_default() as g:
    tf.import_graph_def(gd, name="")
    nxt = g.get_tensor_by_name(want["next"])
    with tf.Session() as s:
      s.run(g.get_operation_by_name(want["init"]))
      got = []
      try:
        while True:
          got.append(int(s.run(nxt)))
      except tf.errors.OutOfRangeError:
        pass
  assert got == want["vals"]


# ---- grouping (dataset_group.c) ----

def test_group_by_window_values_cardinality_and_errors():
  ds = tf.data.Dataset.range(10).apply(E.group_by_window(lambda x: x % 3, lambda k, w: w.batch(2),
                                                         window_size=2))
  assert [list(x) for x in drain(ds)] == [[0, 3], [1, 4], [2, 5], [6, 9], [7], [8]]
  assert card(ds) == -2
  assert card(tf.data.Dataset.range(3).repeat().apply(
      E.group_by_window(lambda x: x % 2, lambda k, w: w, window_size=2))) == -1
  bad = tf.data.Dataset.range(4).apply(E.group_by_window(lambda x: x % 2, lambda k, w: w,
                                                         window_size_func=lambda k: k - 1))
  with pytest.raises(tf.errors.InvalidArgumentError, match="Window size must be greater than zero"):
    drain(bad)
  with pytest.raises(ValueError, match="key_func"):
    tf.data.Dataset.range(3).apply(E.group_by_window(lambda x: tf.cast(x, tf.int32), lambda k, w: w,
                                                     window_size=2))
  with pytest.raises(TypeError, match="reduce_func"):
    tf.data.Dataset.range(3).apply(E.group_by_window(lambda x: x, lambda k, w: k, window_size=2))
  with pytest.raises(ValueError):
    E.group_by_window(lambda x: x, lambda k, w: w)


def test_group_by_reducer_and_bucketing():
  red = E.Reducer(lambda k: tf.constant(0, tf.int64), lambda s, x: s + x, lambda s: s * 2)
  ds = tf.data.Dataset.range(10).apply(E.group_by_reducer(lambda x: x % 2, red))
  assert drain(ds) == [40, 50] and card(ds) == -2
  lengths = [3, 1, 4, 2]
  flat = np.arange(sum(lengths), dtype=np.int64)
  ends = np.cumsum(lengths)
  seqs = tf.data.Dataset.from_tensor_slices((ends - np.array(lengths), ends)).map(
      lambda a, b: tf.reshape(tf.constant(flat)[a:b], [-1]))
  out = drain(seqs.apply(E.bucket_by_sequence_length(lambda x: tf.shape(x)[0], [3], [2, 2])))
  assert [b.tolist() for b in out] == [[[0, 1, 2, 0], [4, 5, 6, 7]], [[3, 0], [8, 9]]]
  with pytest.raises(ValueError):
    E.bucket_by_sequence_length(lambda x: 1, [3], [2])


def test_from_list():
  ds = E.from_list([{"a": 1, "b": [1., 2.]}, {"a": 2, "b": [3., 4.]}])
  got = drain(ds)
  assert [int(d["a"]) for d in got] == [1, 2] and got[1]["b"].tolist() == [3., 4.]
  assert card(ds) == 2
  with pytest.raises(TypeError):
    E.from_list([1, 2.5])
  with pytest.raises(ValueError):
    E.from_list([])


# ---- Optional (csrc/kernels/optional.c) ----

def test_optional_values_and_get_next_as_optional():
  o = E.Optional.from_value((tf.constant([1, 2]), {"a": tf.constant(b"x")}))
  assert o.element_spec == (tf.TensorSpec([2], tf.int32), {"a": tf.TensorSpec([], tf.string)})
  none = E.Optional.none_from_structure(tf.TensorSpec([], tf.int32))
  it = tf.data.Dataset.range(2).make_initializable_iterator()
  opt = E.get_next_as_optional(it)
  assert opt.element_spec == tf.TensorSpec([], tf.int64)
  with tf.Session() as s:
    has, (vec, d), none_has = s.run([o.has_value(), o.get_value(), none.has_value()])
    assert has and not none_has and vec.tolist() == [1, 2] and d["a"] == b"x"
    with pytest.raises(tf.errors.InvalidArgumentError, match="The optional does not have a value."):
      s.run(none.get_value())
    with pytest.raises(tf.errors.FailedPreconditionError):
      s.run(opt.has_value())
    s.run(it.initializer)
    assert s.run([opt.has_value(), opt.get_value()]) == [True, 0]
    assert s.run([opt.has_value(), opt.get_value()]) == [True, 1]
    assert not s.run(opt.has_value())
    assert not s.run(it.get_next_as_optional().has_value())


TF_OPTIONAL = r'''
import json, os, sys
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()
it = tf.data.make_initializable_iterator(tf.data.Dataset.range(3).map(lambda x: (x, x * 2)))
opt = tf.data.experimental.get_next_as_optional(it)
has = opt.has_value()
val = tf.cond(has, lambda: opt.get_value()[1], lambda: tf.constant(-1, tf.int64))
const = tf.data.experimental.Optional.from_value(tf.constant([1.5, 2.5]))
c_has, c_val = const.has_value(), const.get_value()
vals = []
with tf.Session() as s:
  s.run(it.initializer)
  for _ in range(4):
    vals.append([bool(x) if isinstance(x, bool) or str(type(x)).endswith("bool_'>") else int(x)
                 for x in s.run([has, val])])
  cv = s.run(c_val).tolist()
open(sys.argv[1], "wb").write(tf.get_default_graph().as_graph_def().SerializeToString())
print(json.dumps({"init": it.initializer.name, "has": has.name, "val": val.name, "vals": vals,
                  "c_has": c_has.name, "c_val": c_val.name, "cv": cv}))
'''


def test_tensorflow_written_optional_graph_runs(tmp_path):
  """A GraphDef TensorFlow wrote with IteratorGetNextAsOptional,
  OptionalHasValue, OptionalGetValue (under a cond) and OptionalFromValue."""
  import json
  import os
  import pathlib
  import subprocess
  tf_python = pathlib.Path(__file__).resolve().parents[2] / ".venv-tf" / "bin" / "python"
  if not tf_python.exists():
    if os.environ.get("TFC_COMPAT_REQUIRED", "") not in ("", "0"):
      pytest.fail("TensorFlow venv missing")
    pytest.skip("no .venv-tf")
  env = dict(os.environ)
  env.pop("LD_PRELOAD", None)
  env.pop("PYTHONPATH", None)
  gpath = str(tmp_path / "opt.pb")
  ref = subprocess.run([str(tf_python), "-c", TF_OPTIONAL, gpath], capture_output=True, text=True, env=env,
                       timeout=400)
  assert ref.returncode == 0, ref.stderr[-3000:]
  want = json.loads(ref.stdout.strip().splitlines()[-1])
  gd = tf.GraphDef()
  gd.ParseFromString(open(gpath, "rb").read())
  with tf.Graph().as_default() as g:
    tf.import_graph_def(gd, name="")
    has, val = g.get_tensor_by_name(want["has"]), g.get_tensor_by_name(want["val"])
    with tf.Session() as s:
      s.run(g.get_operation_by_name(want["init"]))
      got = [[bool(h), int(v)] for h, v in (s.run([has, val]) for _ in range(4))]
      cv = s.run(g.get_tensor_by_name(want["c_val"])).tolist()
  assert [[bool(h), v] for h, v in want["vals"]] == got
  assert cv == want["cv"]


def test_pad_to_cardinality():
  ds = tf.data.Dataset.from_tensor_slices({"a": np.arange(2)}).apply(E.pad_to_cardinality(4))
  got = drain(ds)
  assert [int(d["a"]) for d in got] == [0, 1, 0, 0]
  assert [bool(d["valid"]) for d in got] == [True, True, False, False]
  with pytest.raises(ValueError, match="dictionary"):
    tf.data.Dataset.range(2).apply(E.pad_to_cardinality(4))
  with pytest.raises(ValueError, match="already exists"):
    tf.data.Dataset.from_tensor_slices({"valid": np.arange(2)}).apply(E.pad_to_cardinality(4))


# ---- CsvDataset (dataset_csv.c); values against TF in data_oracle.py ----

def test_csv_dataset_errors_and_restored_position(tmp_path):
  path = str(tmp_path / "a.csv")
  with open(path, "wb") as f:
    f.write(b'h1,h2\n1,"a\nb"\n2,x\n3,y\n4,z\n')
  ds = E.CsvDataset(path, [tf.int64, tf.constant("d")], header=True)
  assert [(int(i), s) for i, s in drain(ds)] == [(1, b"a\nb"), (2, b"x"), (3, b"y"), (4, b"z")]
  assert ds.output_types == (tf.int64, tf.string)
  bad = str(tmp_path / "bad.csv")
  for content, msg in ((b"1,a,b\n", "Expect 2 fields but have more in record"),
                       (b"1\n", "Expect 2 fields but have 1 in record"),
                       (b",a\n", "Field 0 is required but missing in record!"),
                       (b"q,a\n", "Field 0 in record is not a valid int64: q"),
                       (b'1,a"b\n', "Unquoted fields cannot have quotes inside"),
                       (b'1,"ab\n', "Reached end of file without closing quoted field in record")):
    with open(bad, "wb") as f:
      f.write(content)
    with pytest.raises(tf.errors.InvalidArgumentError, match=msg):
      drain(E.CsvDataset(bad, [tf.int64, tf.string]))
  with pytest.raises(tf.errors.NotFoundError):
    drain(E.CsvDataset(str(tmp_path / "missing.csv"), [tf.int64]))
  with pytest.raises(TypeError):
    E.CsvDataset(path, [tf.bool])
  # the saved position is the next record: a restore continues there
  it = ds.make_initializable_iterator()
  nxt = it.get_next()
  saver = tf.train.Saver([E.make_saveable_from_iterator(it)])
  with tf.Session() as s:
    s.run(it.initializer)
    s.run(nxt)
    s.run(nxt)
    ckpt = saver.save(s, str(tmp_path / "ckpt"))
  with tf.Session() as s:
    s.run(it.initializer)
    saver.restore(s, ckpt)
    assert [int(s.run(nxt)[0]) for _ in range(2)] == [3, 4]


def test_make_csv_dataset_inference_and_errors(tmp_path):
  path = str(tmp_path / "m.csv")
  with open(path, "w") as f:
    f.write("a,b,c\n1,x,0.5\n2,y,\n")
  ds = E.make_csv_dataset(path, 2, num_epochs=1, shuffle=False, label_name="a")
  features, label = ds.output_types
  assert features == {"b": tf.string, "c": tf.float32} and label == tf.int32
  (f, lab), = drain(ds)
  assert lab.tolist() == [1, 2] and f["b"].tolist() == [b"x", b"y"] and f["c"].tolist() == [0.5, 0.0]
  with pytest.raises(ValueError, match="label_name"):
    E.make_csv_dataset(path, 2, label_name="zz")
  with pytest.raises(ValueError, match="No files match"):
    E.make_csv_dataset(str(tmp_path / "none*.csv"), 2)
  with pytest.raises(ValueError, match="select_columns"):
    E.make_csv_dataset(path, 2, select_columns=["q"])
