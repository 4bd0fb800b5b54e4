"""Session construction, context managers, default sessions, fetch structures,
feeds, eval/run helpers and the config protos."""
import collections

import numpy as np
import pytest

import tfc as tf




@pytest.fixture
def g():
  graph = tf.Graph()
  with graph.as_default():
    yield graph


def test_run_values_match_numpy(g):
  a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
  b = tf.constant([[5.0], [6.0]])
  c = tf.matmul(a, b) + 1.0
  with tf.Session() as sess:
    np.testing.assert_allclose(sess.run(c), np.array([[1, 2], [3, 4]]) @ [[5], [6]] + 1.0)
    assert sess.run(tf.reduce_sum(a)) == pytest.approx(10.0)


def test_context_manager_sets_default_session_and_graph():
  g = tf.Graph()
  with g.as_default():
    c = tf.constant(3)
  with tf.Session(graph=g) as sess:
    assert tf.get_default_session() is sess
    assert tf.get_default_graph() is g
    assert c.eval() == 3
    assert sess.graph is g
  assert tf.get_default_session() is None
  assert sess._closed
  with pytest.raises(RuntimeError):
    sess.run(c)


def test_as_default_and_explicit_session(g):
  c = tf.constant(2.0)
  sess = tf.Session()
  with pytest.raises(ValueError, match="No default session is registered"):
    c.eval()
  assert c.eval(session=sess) == 2.0
  with sess.as_default():
    assert tf.get_default_session() is sess
    assert c.eval() == 2.0
    c.op.run()
  other = tf.Graph()
  with other.as_default():
    o = tf.constant(1.0)
  with sess.as_default():
    with pytest.raises(ValueError, match="graph is different"):
      o.eval()
  sess.close()


def test_session_uses_default_graph_at_construction(g):
  c = tf.constant(5)
  sess = tf.Session()
  assert sess.graph is g
  assert sess.run(c) == 5
  assert sess.sess_str == b""
  sess.close()


def test_fetch_structures(g):
  a = tf.constant(1.0, name="a")
  b = tf.constant([1, 2], name="b")
  NT = collections.namedtuple("NT", "x y")
  with tf.Session() as s:
    r = s.run({"a": a, "b": [b, (a,)]})
    assert isinstance(r, dict) and r["a"] == 1.0
    assert isinstance(r["b"], list) and isinstance(r["b"][1], tuple)
    np.testing.assert_array_equal(r["b"][0], [1, 2])
    nt = s.run(NT(a, b))
    assert isinstance(nt, NT) and nt.x == 1.0
    od = s.run(collections.OrderedDict([("z", a), ("y", b)]))
    assert isinstance(od, collections.OrderedDict) and list(od) == ["z", "y"]
    dd = s.run(collections.defaultdict(list, {"k": a}))
    assert isinstance(dd, collections.defaultdict) and dd["k"] == 1.0
    assert s.run([a, "b:0"])[0] == 1.0
    assert isinstance(s.run((a, b)), tuple)
    assert s.run([]) == []
    assert s.run(a.op) is None
    assert s.run("a:0") == 1.0
    assert s.run([a.op, a])[0] is None
    with pytest.raises(TypeError, match="has invalid type"):
      s.run(None)
    with pytest.raises(TypeError, match="has invalid type"):
      s.run({"x": 1})


def test_nested_fetch_structures_are_rebuilt_in_order(g):
  # exact dicts, lists and tuples are resolved and rebuilt by the extension;
  # anything else inside them goes through the Python structure handler
  a = tf.constant(1.0, name="a")
  b = tf.constant([1, 2], name="b")
  x = tf.placeholder(tf.float32, [], name="x")
  NT = collections.namedtuple("NT", "x y")

  class Key(object):
    pass
  k1, k2 = Key(), Key()
  with tf.Session() as s:
    r = s.run({"outer": {"inner": {"deep": a}, "after": b}, k1: [a, (b, a.op)], k2: a, "x": x},
              {x: 3.0})
    assert list(r) == ["outer", k1, k2, "x"]
    assert list(r["outer"]) == ["inner", "after"] and r["outer"]["inner"] == {"deep": 1.0}
    np.testing.assert_array_equal(r["outer"]["after"], [1, 2])
    assert isinstance(r[k1], list) and isinstance(r[k1][1], tuple) and r[k1][1][1] is None
    assert r[k2] == 1.0 and r["x"] == 3.0
    assert s.run([a, [b, {"z": (a,)}], {}, [], ()])[2:] == [{}, [], ()]
    mixed = s.run({"nt": NT(a, b), "od": collections.OrderedDict([("q", a)]), "t": "a:0"})
    assert isinstance(mixed["nt"], NT) and isinstance(mixed["od"], collections.OrderedDict)
    assert mixed["t"] == 1.0
    deep = a
    for _ in range(40):  # deeper than the extension walks: the Python handler takes it
      deep = [deep]
    r = s.run(deep)
    for _ in range(40):
      r = r[0]
    assert r == 1.0
    f = s.make_callable({"p": [a, {"q": b}]})
    for _ in range(2):
      out = f()
      assert out["p"][0] == 1.0 and list(out["p"][1]) == ["q"]
    with pytest.raises(TypeError, match="has invalid type"):
      s.run({"ok": a, "bad": [None]})
    with pytest.raises(ValueError, match="cannot be interpreted as a Tensor"):
      s.run({"ok": [a], "bad": "missing:0"})


def test_feeds(g):
  x = tf.placeholder(tf.float32, [None], name="x")
  y = x * 2.0
  with tf.Session() as s:
    np.testing.assert_allclose(s.run(y, feed_dict={x: [1, 2, 3]}), [2, 4, 6])
    np.testing.assert_allclose(s.run(y, {"x:0": np.arange(2)}), [0, 2])
    np.testing.assert_allclose(s.run(y, {x: np.ones([4], np.float64)}), np.full(4, 2.0))
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
      s.run(y)
    assert "x" in str(e.value)
    assert e.value.error_code == tf.errors.INVALID_ARGUMENT


def test_placeholder_with_default(g):
  d = tf.placeholder_with_default(tf.constant([1.0, 2.0]), shape=[2])
  out = d + 1.0
  with tf.Session() as s:
    np.testing.assert_allclose(s.run(out), [2.0, 3.0])
    np.testing.assert_allclose(s.run(out, {d: [5.0, 6.0]}), [6.0, 7.0])


def test_make_callable(g):
  x = tf.placeholder(tf.float32, [2])
  y = x + 1.0
  with tf.Session() as s:
    f = s.make_callable(y, [x])
    np.testing.assert_allclose(f(np.array([1.0, 2.0], np.float32)), [2.0, 3.0])


def test_interactive_session(g):
  c = tf.constant(4)
  sess = tf.InteractiveSession()
  try:
    assert tf.get_default_session() is sess
    assert c.eval() == 4
  finally:
    sess.close()
  assert tf.get_default_session() is None


def test_config_is_passed_and_targets(g):
  c = tf.constant([1, 2]) * 2
  config = tf.ConfigProto(inter_op_parallelism_threads=2, intra_op_parallelism_threads=1,
                          device_count={"CPU": 2}, allow_soft_placement=True)
  with tf.Session(config=config) as s:
    np.testing.assert_array_equal(s.run(c), [2, 4])
    assert len(s.list_devices()) == 2
  with tf.Session("local") as s:
    np.testing.assert_array_equal(s.run(c), [2, 4])
  # a grpc:// session connects lazily, as TF's: the first run finds nobody there
  with tf.Session("grpc://localhost:1", config=tf.ConfigProto(operation_timeout_in_ms=2000)) as s:
    with pytest.raises(tf.errors.UnavailableError):
      s.run(c)
  with pytest.raises(TypeError):
    tf.Session(config={"bad": 1})


def test_config_proto_text_and_defaults():
  config = tf.ConfigProto(inter_op_parallelism_threads=1, intra_op_parallelism_threads=1)
  config.graph_options.optimizer_options.opt_level = config.graph_options.optimizer_options.L0
  assert tf.OptimizerOptions.L0 == -1 and tf.OptimizerOptions.L1 == 0
  assert config.graph_options.optimizer_options.opt_level == -1
  assert str(config) == ("intra_op_parallelism_threads: 1\n"
                         "inter_op_parallelism_threads: 1\n"
                         "graph_options {\n"
                         "  optimizer_options {\n"
                         "    opt_level: L0\n"
                         "  }\n"
                         "}\n")
  c2 = tf.ConfigProto(device_count={"CPU": 2}, log_device_placement=True)
  assert c2.device_count["CPU"] == 2
  assert c2.device_count.get("GPU", 7) == 7
  assert str(c2) == 'device_count {\n  key: "CPU"\n  value: 2\n}\nlog_device_placement: true\n'
  assert c2 == tf.ConfigProto(device_count={"CPU": 2}, log_device_placement=True)
  assert c2 != tf.ConfigProto()
  assert tf.ConfigProto().allow_soft_placement is False
  assert not tf.ConfigProto().HasField("gpu_options")
  assert str(tf.ConfigProto()) == ""
  gpu = tf.GPUOptions(per_process_gpu_memory_fraction=0.5, allow_growth=True)
  assert str(gpu) == "per_process_gpu_memory_fraction: 0.5\nallow_growth: true\n"
  with pytest.raises(AttributeError):
    tf.ConfigProto().no_such_field = 1
  with pytest.raises(TypeError):
    tf.ConfigProto(inter_op_parallelism_threads="x")


def test_proto_wire_format_round_trip():
  config = tf.ConfigProto(device_count={"CPU": 2, "GPU": 0}, inter_op_parallelism_threads=1,
                          allow_soft_placement=True)
  config.graph_options.optimizer_options.opt_level = tf.OptimizerOptions.L0
  config.gpu_options.per_process_gpu_memory_fraction = 0.5
  data = config.SerializeToString(deterministic=True)
  # TF's wire format (checked against TensorFlow; map entries sorted by key).
  assert data == (b"\n\x07\n\x03CPU\x10\x02\n\x07\n\x03GPU\x10\x00(\x012\t\t\x00\x00\x00\x00"
                  b"\x00\x00\xe0?8\x01R\r\x1a\x0b\x18\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01")
  back = tf.ConfigProto()
  back.ParseFromString(data)
  assert back == config
  assert tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE).SerializeToString() == b"\x08\x03"


def test_run_options_and_metadata(g):
  run_options = tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE)
  assert run_options.trace_level == 3
  assert str(run_options) == "trace_level: FULL_TRACE\n"
  md = tf.RunMetadata()
  assert list(md.partition_graphs) == []
  c = tf.constant(1.0) + 1.0
  with tf.Session() as s:
    assert s.run(c, options=run_options, run_metadata=md) == 2.0


def test_control_dependency_on_a_fed_placeholder():
  # As TF: a fed Placeholder does not run; control edges leaving it are met by the feed.
  with tf.Graph().as_default():
    x = tf.placeholder(tf.float32, [])
    with tf.control_dependencies([x]):
      y = tf.constant(3.0) + 1
    with tf.Session() as sess:
      assert sess.run(y, {x: 1.0}) == 4.0
      with pytest.raises(tf.errors.InvalidArgumentError, match="must feed a value"):
        sess.run(y)
