"""RunOptions(trace_level=FULL_TRACE) / output_partition_graphs on a local
Session: RunMetadata.step_stats (one DeviceStepStats per device, a
NodeExecStats per executed node), partition_graphs, and the Chrome trace of
tfc.client.timeline; seed 003's metadata script as written."""
import json
import subprocess
import sys
import time

import numpy as np
import pytest

import tfc as tf
from tfc.client import timeline

DEVICE = "/job:localhost/replica:0/task:0/device:CPU:0"


def _traced(sess, fetches, feed_dict=None, partition_graphs=False):
  options = tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE,
                          output_partition_graphs=partition_graphs)
  metadata = tf.RunMetadata()
  value = sess.run(fetches, feed_dict, options=options, run_metadata=metadata)
  return value, metadata


def test_step_stats_of_a_matmul():
  with tf.Graph().as_default():
    a = tf.constant([[1.0, 2.0], [3.0, 4.0]], name="a")
    b = tf.placeholder(tf.float32, [2, 2], name="b")
    y = tf.matmul(a, b, name="MatMul")
    with tf.Session() as sess:
      before = time.time()
      value, md = _traced(sess, y, {b: np.eye(2, dtype=np.float32)})
      after = time.time()
  np.testing.assert_array_equal(value, [[1, 2], [3, 4]])
  assert [d.device for d in md.step_stats.dev_stats] == [DEVICE]
  nodes = {n.node_name: n for n in md.step_stats.dev_stats[0].node_stats}
  assert "MatMul" in nodes and "a" in nodes
  mm = nodes["MatMul"]
  assert mm.timeline_label == "MatMul = MatMul(a, b)"
  assert before * 1e6 - 1000 <= mm.all_start_micros <= after * 1e6 + 1000
  assert 0 <= mm.op_start_rel_micros <= mm.op_end_rel_micros <= mm.all_end_rel_micros
  assert mm.all_start_nanos // 1000 == mm.all_start_micros
  (out,) = mm.output
  assert out.slot == 0
  desc = out.tensor_description
  assert desc.dtype == tf.float32.as_datatype_enum
  assert [d.size for d in desc.shape.dim] == [2, 2]
  assert desc.allocation_description.requested_bytes == 16
  assert desc.allocation_description.allocated_bytes >= 16
  assert desc.allocation_description.allocator_name == "cpu"
  assert mm.memory[0].allocator_name == "cpu" and mm.memory[0].total_bytes >= 16
  assert nodes["a"].timeline_label == "a = Const()"


def test_control_inputs_and_ops_without_outputs_in_labels():
  with tf.Graph().as_default():
    v = tf.Variable(1.0, name="v")
    c = tf.constant(2.0, name="c")
    upd = tf.assign_add(v, 1.0, name="upd")
    both = tf.group(upd, c, name="both")
    with tf.Session() as sess:
      sess.run(v.initializer)
      _, md = _traced(sess, both)
  labels = {n.node_name: n.timeline_label for n in md.step_stats.dev_stats[0].node_stats}
  assert labels["upd"] == "upd = AssignAdd(v, upd/value)"
  assert labels["both"] == "both = NoOp(^upd, ^c)"
  outputs = {n.node_name: len(n.output) for n in md.step_stats.dev_stats[0].node_stats}
  assert outputs["both"] == 0


def test_no_metadata_without_tracing_and_without_run_metadata():
  with tf.Graph().as_default():
    y = tf.constant(1.0) + 2.0
    with tf.Session() as sess:
      md = tf.RunMetadata()
      sess.run(y, options=tf.RunOptions(), run_metadata=md)
      assert md.ByteSize() == 0
      # tracing asked without a RunMetadata to fill: a plain run
      assert sess.run(y, options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE)) == 3.0


def test_partition_graphs_and_two_devices():
  config = tf.ConfigProto(device_count={"CPU": 2})
  with tf.Graph().as_default():
    with tf.device("/cpu:0"):
      a = tf.constant([1.0, 2.0], name="a")
    with tf.device("/cpu:1"):
      b = tf.square(a, name="sq")
    with tf.Session(config=config) as sess:
      value, md = _traced(sess, b, partition_graphs=True)
  np.testing.assert_array_equal(value, [1.0, 4.0])
  devices = [d.device for d in md.step_stats.dev_stats]
  assert devices == [DEVICE, DEVICE[:-1] + "1"]
  assert len(md.partition_graphs) == 2
  ops = sorted(n.op for g in md.partition_graphs for n in g.node)
  assert "_Send" in ops and "_Recv" in ops and "Square" in ops and "Const" in ops
  for g in md.partition_graphs:
    assert len({n.device for n in g.node}) == 1


def test_only_partition_graphs():
  with tf.Graph().as_default():
    y = tf.constant(1.0, name="one") * 3.0
    with tf.Session() as sess:
      md = tf.RunMetadata()
      sess.run(y, options=tf.RunOptions(output_partition_graphs=True), run_metadata=md)
  assert not md.HasField("step_stats")
  assert len(md.partition_graphs) == 1
  assert "one" in [n.name for n in md.partition_graphs[0].node]


def test_traced_error_is_the_usual_error():
  with tf.Graph().as_default():
    p = tf.placeholder(tf.float32, name="p")
    y = p * 2.0
    with tf.Session() as sess:
      with pytest.raises(tf.errors.InvalidArgumentError, match="p"):
        _traced(sess, y)
      md = tf.RunMetadata()
      with pytest.raises(AttributeError, match="MergeFromString"):
        sess.run(y, {p: 1.0}, options=tf.RunOptions(trace_level=3), run_metadata=42)
      assert sess.run(y, {p: 1.0}) == 2.0


def test_make_callable_traced():
  with tf.Graph().as_default():
    p = tf.placeholder(tf.float32, name="p")
    y = tf.identity(p * 2.0, name="y")
    with tf.Session() as sess:
      fn = sess.make_callable(y, [p], accept_options=True)
      md = tf.RunMetadata()
      assert fn(2.0, options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE),
                run_metadata=md) == 4.0
  assert "y" in [n.node_name for n in md.step_stats.dev_stats[0].node_stats]


def test_control_flow_step_is_traced():
  with tf.Graph().as_default():
    i = tf.constant(0)
    r = tf.while_loop(lambda i: i < 3, lambda i: i + 1, [i])
    with tf.Session() as sess:
      value, md = _traced(sess, r)
  assert value == 3
  names = [n.node_name for n in md.step_stats.dev_stats[0].node_stats]
  assert names.count("while/add") == 3


def test_timeline_chrome_trace():
  with tf.Graph().as_default():
    a = tf.constant([[1.0, 2.0], [3.0, 4.0]], name="a")
    y = tf.matmul(a, tf.random_uniform([2, 2]), name="MatMul")
    with tf.Session() as sess:
      _, md = _traced(sess, y)
  trace = json.loads(timeline.Timeline(md.step_stats).generate_chrome_trace_format())
  events = trace["traceEvents"]
  assert events[0] == {"name": "process_name", "ph": "M", "pid": 0, "args": {"name": "Allocators"}}
  assert {"name": "process_name", "ph": "M", "pid": 1,
          "args": {"name": DEVICE + " Compute"}} in events
  ops = [e for e in events if e["ph"] == "X"]
  mm = [e for e in ops if e["args"]["name"] == "MatMul"][0]
  assert mm["cat"] == "Op" and mm["name"] == "MatMul" and mm["pid"] == 1
  assert mm["args"] == {"name": "MatMul", "op": "MatMul", "input0": "a",
                        "input1": "random_uniform"}
  assert mm["dur"] >= 0 and mm["ts"] > 1e15
  with_memory = json.loads(timeline.Timeline(md.step_stats).generate_chrome_trace_format(
      show_memory=True))
  assert any(e["ph"] == "C" and e["name"] == "cpu" for e in with_memory["traceEvents"])
  analysis = timeline.Timeline(md.step_stats).analyze_step_stats()
  assert analysis.allocator_maximums["cpu"].num_bytes >= 16
  from tfc.python.client import timeline as tf_style  # the TF spelling
  assert tf_style.Timeline.__name__ == "Timeline"


# seed 003, "Meta-data of session", as written
SEED_METADATA = '''import tensorflow as tf

y = tf.matmul([[15.0, -3.0], [3.0, 4.0]], tf.random_uniform([2, 2]))

with tf.Session() as sess:
  # Define options for the `sess.run()` call.
  options = tf.RunOptions()
  options.output_partition_graphs = True
  options.trace_level = tf.RunOptions.FULL_TRACE

  # Define a container for the returned metadata.
  metadata = tf.RunMetadata()

  sess.run(y, options=options, run_metadata=metadata)

  # Print the subgraphs that executed on each device.
  print(metadata.partition_graphs)

  # Print the timings of each operation that executed.
  print(metadata.step_stats)
'''


def test_seed_metadata_script(tmp_path):
  path = tmp_path / "metadata.py"
  path.write_text(SEED_METADATA.replace("import tensorflow as tf", "import tfc as tf"))
  r = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=120)
  assert r.returncode == 0, r.stderr
  out = r.stdout
  assert out.startswith("[node {")
  assert 'op: "MatMul"' in out and 'op: "RandomUniform"' in out
  assert 'device: "%s"' % DEVICE in out
  assert "dev_stats {" in out and 'timeline_label: "MatMul = MatMul(MatMul/a, random_uniform)"' in out
  assert "all_start_micros: " in out and "allocator_name: \"cpu\"" in out


def test_cost_graph_every_n_steps_after_m_as_tf_builds_it():
  # GraphOptions.build_cost_model=2, build_cost_model_after=1: steps 2, 4, ...
  # of each plan (counted from 0, runs without a RunMetadata included) carry
  # cost_graph and step_stats, as TF 2.21's DirectSession gives them
  with tf.Graph().as_default():
    a = tf.constant([[1.0, 2.0]], name="a")
    b = tf.constant([[3.0], [4.0]], name="b")
    m = tf.matmul(a, b, name="m")
    x = tf.placeholder(tf.float32, [None], name="x")
    c = tf.constant(5.0, name="c")
    total = tf.reduce_sum(m)
    with tf.control_dependencies([c.op]):
      y = tf.add(total, x, name="y")
    config = tf.ConfigProto(graph_options=tf.GraphOptions(build_cost_model=2,
                                                          build_cost_model_after=1))
    with tf.Session(config=config) as sess:
      seen = []
      for step in range(6):
        md = tf.RunMetadata()
        if step == 3:
          sess.run(y, {x: [1.0, 2.0]})  # counted, nothing to fill
          seen.append(None)
          continue
        np.testing.assert_allclose(sess.run(y, {x: [1.0, 2.0]}, run_metadata=md), [12.0, 13.0])
        seen.append((len(md.cost_graph.node), len(md.step_stats.dev_stats)))
      assert seen == [(0, 0), (0, 0), (7, 1), None, (7, 1), (0, 0)]
      counts = []
      for _ in range(3):  # another fetch signature counts its own steps
        md = tf.RunMetadata()
        sess.run(m, run_metadata=md)
        counts.append(len(md.cost_graph.node))
      assert counts == [0, 0, 3]
      md = tf.RunMetadata()
      sess.run(y, {x: [1.0, 2.0]}, run_metadata=md)  # y's step 6
      nodes = {n.name: n for n in md.cost_graph.node}
      assert set(nodes) >= {"a", "b", "c", "m", "y"}
      assert sorted(n.id for n in md.cost_graph.node) == list(range(len(nodes)))
      dev = "/job:localhost/replica:0/task:0/device:CPU:0"
      assert all(n.device == dev and n.compute_cost >= 1 for n in md.cost_graph.node)
      mm = nodes["m"]
      assert [(i.preceding_node, i.preceding_port) for i in mm.input_info] == \
          [(nodes["a"].id, 0), (nodes["b"].id, 0)]
      (out,) = mm.output_info
      assert (out.size, out.alias_input_port, out.dtype) == (4, -1, tf.float32.as_datatype_enum)
      assert [d.size for d in out.shape.dim] == [1, 1]
      assert nodes["c"].id in nodes["y"].control_input
      yo = nodes["y"].output_info[0]
      assert yo.size == 8 and [d.size for d in yo.shape.dim] == [2]
    with tf.Session() as sess:  # no cost model asked: never filled
      md = tf.RunMetadata()
      sess.run(y, {x: [1.0]}, run_metadata=md)
      assert not md.HasField("cost_graph") and not md.step_stats.dev_stats
