"""Type specs, static values, unconnected gradients, variable policies, partitioners,
library loading, resource files, message classes and the tf.test helpers."""
import os
import threading

import numpy as np
import pytest

import tfc as tf



@pytest.fixture(autouse=True)
def _fresh_graph():
  """Each test builds in a graph of its own."""
  with tf.Graph().as_default():
    yield


# ---------------------------------------------------------------- type specs

def test_tensor_spec():
  spec = tf.TensorSpec([None, 3], tf.float32, name="x")
  assert spec.shape.as_list() == [None, 3] and spec.dtype == tf.float32 and spec.name == "x"
  assert spec == tf.TensorSpec([None, 3], tf.float32, "x")
  assert spec != tf.TensorSpec([None, 3], tf.float64, "x")
  assert hash(spec) == hash(tf.TensorSpec([None, 3], tf.float32, "x"))
  assert spec.is_compatible_with(tf.TensorSpec([2, 3], tf.float32))
  assert not spec.is_compatible_with(tf.TensorSpec([2, 4], tf.float32))
  assert spec.is_compatible_with(np.zeros([5, 3], np.float32))
  assert not spec.is_compatible_with(np.zeros([5, 3], np.int32))
  p = tf.placeholder(tf.float32, [4, 3], name="p")
  assert spec.is_compatible_with(p)
  from_t = tf.TensorSpec.from_tensor(p)
  assert from_t == tf.TensorSpec([4, 3], tf.float32, "p")
  assert tf.TensorSpec.from_spec(spec, name="y").name == "y"
  # the most specific spec both are compatible with (dimensions that differ become None)
  merged = spec.most_specific_compatible_type(tf.TensorSpec([2, None], tf.float32, "x"))
  assert merged.shape.as_list() == [None, None] and merged.name == "x"
  merged = tf.TensorSpec([2, 3]).most_specific_compatible_type(tf.TensorSpec([2, 4]))
  assert merged.shape.as_list() == [2, None]
  with pytest.raises(ValueError):
    spec.most_specific_compatible_type(tf.TensorSpec([2, 3], tf.int32))
  assert spec.value_type is tf.Tensor
  assert isinstance(spec, tf.TypeSpec)
  assert "TensorSpec(shape=(?, 3)" in repr(spec) or "TensorSpec(shape=" in repr(spec)


def test_other_specs_and_type_spec_from_value():
  st = tf.SparseTensor([[0, 1]], [1.0], [3, 4])
  assert tf.type_spec_from_value(st) == tf.SparseTensorSpec([3, 4], tf.float32)
  assert tf.SparseTensorSpec([3, 4], tf.float32).value_type is tf.SparseTensor
  assert tf.type_spec_from_value(tf.constant([1, 2])) == tf.TensorSpec([2], tf.int32)
  assert tf.type_spec_from_value(np.zeros([2, 2], np.float64)) == tf.TensorSpec([2, 2],
                                                                               tf.float64)
  assert tf.type_spec_from_value([b"a"]) == tf.TensorSpec([1], tf.string)
  assert tf.type_spec_from_value(None) == tf.NoneTensorSpec()
  with pytest.raises(TypeError):
    tf.type_spec_from_value(object())
  s = tf.IndexedSlicesSpec([10, 3], tf.float32, tf.int64)
  assert s == tf.IndexedSlicesSpec([10, 3], tf.float32, tf.int64)
  assert s.value_type is tf.IndexedSlices
  ta = tf.TensorArraySpec([2], tf.int32)
  assert ta.is_compatible_with(tf.TensorArraySpec([None], tf.int32))
  assert not ta.is_compatible_with(tf.TensorArraySpec([2], tf.float32))
  assert tf.OptionalSpec(tf.TensorSpec([], tf.int32)).element_spec == tf.TensorSpec([], tf.int32)


# ------------------------------------------------------------- static values

def test_get_static_value():
  assert tf.get_static_value(tf.constant([1, 2])).tolist() == [1, 2]
  p = tf.placeholder(tf.float32, [2, 3])
  assert tf.get_static_value(tf.shape(p)).tolist() == [2, 3]
  assert tf.get_static_value(tf.size(p)) == 6
  assert tf.get_static_value(tf.rank(p)) == 2
  assert tf.get_static_value(tf.shape(p)[1]) == 3
  assert tf.get_static_value(tf.placeholder(tf.float32, [None, 3])) is None
  assert tf.get_static_value(tf.shape(tf.placeholder(tf.float32, [None, 3]))) is None
  assert tf.get_static_value(tf.stack([tf.constant(1), tf.constant(2)])).tolist() == [1, 2]
  assert tf.get_static_value(tf.concat([[1], [2, 3]], 0)).tolist() == [1, 2, 3]
  assert tf.get_static_value(tf.cast(tf.constant([1.7]), tf.int32)).tolist() == [1]
  assert tf.get_static_value(tf.range(4)).tolist() == [0, 1, 2, 3]
  assert tf.get_static_value(tf.fill([2], 5)).tolist() == [5, 5]
  assert tf.get_static_value(tf.identity(tf.constant(3.0))) == 3.0
  assert tf.get_static_value(tf.constant(1.0) + 1.0) is None  # needs a run
  assert tf.get_static_value(5) == 5
  assert tf.get_static_value(tf.Variable(1.0)) is None
  assert tf.is_symbolic_tensor(p) and not tf.is_symbolic_tensor(np.zeros(2))


# ----------------------------------------------------- unconnected gradients

def test_unconnected_gradients():
  x = tf.constant([1.0, 2.0])
  z = tf.constant([[3.0]])
  y = tf.reduce_sum(x * x)
  assert tf.gradients(y, [x, z])[1] is None
  gx, gz = tf.gradients(y, [x, z], unconnected_gradients=tf.UnconnectedGradients.ZERO)
  gz2 = tf.gradients(y, z, unconnected_gradients="zero")[0]
  with tf.Session() as sess:
    a, b, c = sess.run([gx, gz, gz2])
  np.testing.assert_array_equal(a, [2.0, 4.0])
  np.testing.assert_array_equal(b, [[0.0]])
  np.testing.assert_array_equal(c, [[0.0]])
  with pytest.raises(ValueError):
    tf.gradients(y, x, unconnected_gradients="sometimes")


# ---------------------------------------------------------- variable policies

def test_variable_synchronization_and_aggregation():
  v = tf.Variable(1.0, synchronization=tf.VariableSynchronization.ON_WRITE,
                  aggregation=tf.VariableAggregation.MEAN)
  assert v.synchronization == tf.VariableSynchronization.ON_WRITE
  assert v.aggregation == tf.VariableAggregation.MEAN
  w = tf.Variable(1.0)
  assert w.synchronization == tf.VariableSynchronization.AUTO
  assert w.aggregation == tf.VariableAggregation.NONE
  assert tf.VariableAggregation.ONLY_FIRST_TOWER is tf.VariableAggregation.ONLY_FIRST_REPLICA
  r = tf.Variable(1.0, synchronization=tf.VariableSynchronization.ON_READ)
  assert not r.trainable and r not in tf.trainable_variables()
  with pytest.raises(ValueError, match="ON_READ only for non-trainable"):
    tf.Variable(1.0, trainable=True, synchronization=tf.VariableSynchronization.ON_READ)
  with pytest.raises(ValueError, match="Invalid variable aggregation"):
    tf.Variable(1.0, aggregation="sum")


# ---------------------------------------------------------------- partitioners

def test_partitioners():
  shape = tf.TensorShape([1000, 20])
  assert tf.fixed_size_partitioner(4)(shape=shape, dtype=tf.float32) == [4, 1]
  assert tf.fixed_size_partitioner(4, axis=1)(shape=tf.TensorShape([5, 2]),
                                             dtype=tf.float32) == [1, 2]
  # 80 KB at 256 KB minimum per slice: one partition; 1000x200 floats (800 KB): 4
  mm = tf.min_max_variable_partitioner(max_partitions=8)
  assert mm(shape, tf.float32) == [1, 1]
  assert mm(tf.TensorShape([1000, 200]), tf.float32) == [4, 1]
  assert tf.min_max_variable_partitioner(max_partitions=2)(
      tf.TensorShape([1000, 200]), tf.float32) == [2, 1]
  with pytest.raises(ValueError):
    mm(tf.TensorShape([10]), tf.float32) if False else \
        tf.min_max_variable_partitioner(axis=3)(tf.TensorShape([10]), tf.float32)
  # 80 bytes per row, 1000 bytes per shard: 12 rows a shard, 84 shards
  vs = tf.variable_axis_size_partitioner(1000)
  assert vs(shape, tf.float32) == [84, 1]
  assert tf.variable_axis_size_partitioner(1000, max_shards=10)(shape, tf.float32) == [10, 1]
  assert tf.variable_axis_size_partitioner(16 * 20 * 10)(shape, tf.string) == [100, 1]
  with pytest.raises(ValueError):
    tf.variable_axis_size_partitioner(0)
  with pytest.raises(ValueError, match="not fully defined"):
    vs(tf.TensorShape([None, 2]), tf.float32)


# ------------------------------------------------------------ library loading

def test_load_op_library_errors(tmp_path):
  with pytest.raises(tf.errors.NotFoundError, match="cannot open shared object"):
    tf.load_op_library(str(tmp_path / "missing_ops.so"))
  bad = tmp_path / "bad.so"
  bad.write_bytes(b"not an ELF file")
  with pytest.raises(tf.errors.NotFoundError):
    tf.load_op_library(str(bad))
  with pytest.raises(tf.errors.NotFoundError):
    tf.load_file_system_library(str(bad))
  with pytest.raises(OSError, match="does not exist"):
    tf.load_library(str(tmp_path / "nowhere"))
  with pytest.raises(tf.errors.NotFoundError):
    tf.load_library(str(tmp_path))  # the directory holds bad.so


def test_load_op_library_of_a_plain_library():
  import ctypes.util
  libm = ctypes.util.find_library("m")
  module = tf.load_op_library(libm)
  assert len(module.OP_LIST.op) == 0


# ------------------------------------------------------------ resource_loader

def test_resource_loader(tmp_path):
  here = os.path.dirname(os.path.abspath(__file__))
  assert tf.resource_loader.get_data_files_path() == here
  assert tf.resource_loader.get_path_to_datafile("x.txt") == os.path.join(here, "x.txt")
  root = tf.resource_loader.get_root_dir_with_all_resources()
  assert os.path.isdir(os.path.join(root, "tfc"))
  data = tf.resource_loader.load_resource("tfc/__init__.py")
  assert data.startswith(b'"""tfc')
  with pytest.raises(IOError):
    tf.resource_loader.load_resource("tfc/no_such_file")
  assert tf.resource_loader.readahead_file_path("/a/b") == "/a/b"


# ------------------------------------------------------ messages and versions

def test_messages_and_versions():
  s = tf.Summary(value=[tf.Summary.Value(tag="a", simple_value=1.5)])
  e = tf.Event(wall_time=1.0, step=2, summary=s)
  assert tf.Event.FromString(e.SerializeToString()).summary.value[0].simple_value == 1.5
  h = tf.HistogramProto(min=0, max=1, num=2)
  assert h.num == 2
  m = tf.SummaryMetadata(display_name="d")
  assert m.display_name == "d"
  lm = tf.LogMessage(level=tf.LogMessage.WARN, message="careful")
  assert lm.message == "careful"
  assert tf.GRAPH_DEF_VERSION == tf.Graph().as_graph_def().versions.producer
  assert tf.GRAPH_DEF_VERSION_MIN_CONSUMER == 0 and tf.GRAPH_DEF_VERSION_MIN_PRODUCER == 0


def test_summary_description():
  d = tf.summary.SummaryDescription(type_hint="encoded_image_string")
  assert d.type_hint == "encoded_image_string"
  node = tf.NodeDef(name="s", op="TensorSummary")
  node.attr["description"].s = b'{"type_hint": "x"}'
  assert tf.summary.get_summary_description(node).type_hint == "x"
  with pytest.raises(ValueError, match="Can't get_summary_description on Const"):
    tf.summary.get_summary_description(tf.NodeDef(name="c", op="Const"))
  assert tf.summary.all_v2_summary_ops() == []


# --------------------------------------------------------------------- tf.test

def test_test_helpers(tmp_path, monkeypatch):
  import platform
  assert tf.test.is_cpu_target_available(platform.machine())
  assert not tf.test.is_cpu_target_available("no-such-cpu")
  assert tf.test.test_src_dir_path("tfc").endswith("tfc")
  config = tf.test.benchmark_config()
  assert config.graph_options.rewrite_options.dependency_optimization == 2
  assert tf.test.mock.MagicMock()() is not None
  tf.test.experimental.sync_devices()

  g1 = tf.Graph()
  with g1.as_default():
    tf.add(tf.constant(1.0, name="a"), tf.constant(2.0, name="b"), name="c")
  g2 = tf.Graph()
  with g2.as_default():
    tf.constant(2.0, name="b")
    tf.add(tf.constant(1.0, name="a"), g2.get_tensor_by_name("b:0"), name="c")
  tf.test.assert_equal_graph_def(g1.as_graph_def(), g2.as_graph_def())
  g3 = tf.Graph()
  with g3.as_default():
    tf.add(tf.constant(1.0, name="a"), tf.constant(3.0, name="b"), name="c")
  with pytest.raises(AssertionError, match="attr 'value' differs"):
    tf.test.assert_equal_graph_def(g1.as_graph_def(), g3.as_graph_def())
  with pytest.raises(TypeError):
    tf.test.assert_equal_graph_def("x", g1.as_graph_def())

  class Target(object):
    value = 1
  stubs = tf.test.StubOutForTesting()
  stubs.Set(Target, "value", 2)
  assert Target.value == 2
  stubs.SmartSet(Target, "value", 3)
  assert Target.value == 3
  stubs.CleanUp()
  assert Target.value == 1

  monkeypatch.setenv("TEST_REPORT_FILE_PREFIX", str(tmp_path) + "/")
  bench = tf.test.Benchmark()
  with tf.Session() as sess:
    result = bench.run_op_benchmark(sess, tf.constant(1.0) + 1.0, min_iters=3, name="add")
  assert result["iters"] == 3 and result["wall_time"] >= 0
  assert (tmp_path / "add").exists()


def test_disable_with_predicate_and_eager_decorator():
  import unittest

  class T(unittest.TestCase):
    @tf.test.disable_with_predicate(lambda: True, "not here")
    def test_skipped(self):
      raise AssertionError("must not run")

    @tf.test.disable_with_predicate(lambda: False, "runs")
    def test_runs(self):
      pass
  assert tf.test.with_eager_op_as_function(T) is T
  result = unittest.TestResult()
  unittest.defaultTestLoader.loadTestsFromTestCase(T).run(result)
  assert result.testsRun == 2 and len(result.skipped) == 1 and result.wasSuccessful()


def test_create_local_cluster():
  workers, ps = tf.test.create_local_cluster(1, 1)
  assert len(workers) == 1 and len(ps) == 1
  with tf.Graph().as_default():
    with tf.device("/job:ps/task:0"):
      v = tf.Variable(2.0)
    with tf.device("/job:worker/task:0"):
      y = v * 3.0
    with tf.Session(workers[0].target) as sess:
      sess.run(v.initializer)
      assert sess.run(y) == 6.0


# ---------------------------------------------------------- more initializers

def test_identity_and_uniform_unit_scaling_initializers():
  v = tf.get_variable("eye", [2, 3], initializer=tf.initializers.identity(gain=2.0))
  u = tf.get_variable("uus", [50, 40], initializer=tf.uniform_unit_scaling_initializer(
      factor=1.5, seed=3))
  w = tf.get_variable("uus4", [3, 3, 2, 8], initializer=tf.initializers.uniform_unit_scaling())
  with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    np.testing.assert_array_equal(sess.run(v), 2 * np.eye(2, 3))
    uv, wv = sess.run([u, w])
  limit = 1.5 * np.sqrt(3.0 / 50)
  assert uv.min() >= -limit and uv.max() <= limit and uv.max() > 0.8 * limit
  assert np.abs(wv).max() <= np.sqrt(3.0 / 18)
  with pytest.raises(ValueError, match="2D"):
    tf.initializers.identity()([2, 2, 2])


def test_io_is_jpeg_and_queue_names():
  got = tf.Session().run(tf.io.is_jpeg(tf.constant(b"\xff\xd8\xff\xe0rest")))
  assert got
  assert not tf.Session().run(tf.io.is_jpeg(tf.constant(b"\x89PNG")))
  assert tf.io.PaddingFIFOQueue is tf.PaddingFIFOQueue and tf.io.QueueBase is tf.QueueBase
