"""tf.summary.text / tensor_summary (TensorSummaryV2 kernel in C, byte for byte
TensorFlow's Summary), FileWriter.add_run_metadata, and a tfc logdir read by
TensorBoard's own event reader (scalars, histograms, tensors, graph, run
metadata)."""
import numpy as np
import pytest

import tfc as tf

# Serialized Summaries TensorFlow 2.21 (tf.compat.v1) produced for the same ops.
TF_BYTES = {
    "greeting": "0a2c0a086772656574696e6742160807120412020802420568656c6c6f4205776f726c644a080a"
                "060a0474657874",
    "mat": "0a270a036d6174421e08011208120208021202080222100000803f0000004000004040000080404a00",
    "ints": "0a380a04696e74734222080912041202080322180700000000000000080000000000000009000000000"
            "000004a0c1204496e74731a0464657363",
    "scalar": "0a160a067363616c6172420a080312002204050000004a00",
    "one": "0a1d0a036f6e65420c08071200420673696e676c654a080a060a0474657874",
}


def test_text_and_tensor_summary_bytes_match_tensorflow():
  with tf.Graph().as_default() as g:
    ops = [tf.summary.text("greeting", tf.constant(["hello", "world"])),
           tf.summary.tensor_summary("mat", tf.constant([[1., 2.], [3., 4.]])),
           tf.summary.tensor_summary("ints", tf.constant([7, 8, 9], tf.int64),
                                     summary_description="desc", display_name="Ints"),
           tf.summary.tensor_summary("scalar", tf.constant(5, tf.int32)),
           tf.summary.text("one", tf.constant("single"))]
    assert [n.name for n in g.as_graph_def().node][:4] == [
        "Const", "greeting/tag", "greeting/serialized_summary_metadata", "greeting"]
    assert all(op.op.type == "TensorSummaryV2" for op in ops)
    assert len(tf.get_collection(tf.GraphKeys.SUMMARIES)) == 5
    with tf.Session() as sess:
      values = sess.run(ops)
  for op, value in zip(ops, values):
    assert value.hex() == TF_BYTES[op.op.name], op.op.name
  summ = tf.summary.Summary.FromString(values[0])
  assert summ.value[0].metadata.plugin_data.plugin_name == "text"
  assert list(summ.value[0].tensor.string_val) == [b"hello", b"world"]


def test_text_needs_a_string_tensor():
  with tf.Graph().as_default():
    with pytest.raises(ValueError, match="to have dtype string"):
      tf.summary.text("t", tf.constant(1.0))


def test_tensor_summary_bad_metadata_and_tag():
  with tf.Graph().as_default():
    from tfc.framework.op_def_library import _apply_op
    bad = _apply_op("TensorSummaryV2", "bad", ["t", tf.constant(1.0), b"\xff\xff"]).outputs[0]
    two_tags = _apply_op("TensorSummaryV2", "two", [["a", "b"], tf.constant(1.0), b""]).outputs[0]
    with tf.Session() as sess:
      with pytest.raises(tf.errors.InvalidArgumentError,
                         match="Could not parse serialized_summary_metadata"):
        sess.run(bad)
      with pytest.raises(tf.errors.InvalidArgumentError, match="tag must be scalar"):
        sess.run(two_tags)


def test_add_run_metadata_tags_are_unique(tmp_path):
  writer = tf.summary.FileWriter(str(tmp_path))
  md = tf.RunMetadata()
  writer.add_run_metadata(md, "step1", global_step=1)
  with pytest.raises(ValueError, match="The provided tag was already used for this event type"):
    writer.add_run_metadata(md, "step1")
  writer.close()
  events = [e for path in tmp_path.iterdir() for e in tf.train.summary_iterator(str(path))]
  tagged = [e for e in events if e.WhichOneof("what") == "tagged_run_metadata"]
  assert len(tagged) == 1 and tagged[0].step == 1 and tagged[0].tagged_run_metadata.tag == "step1"


def test_tensorboard_reads_a_tfc_logdir(tmp_path):
  event_accumulator = pytest.importorskip(
      "tensorboard.backend.event_processing.event_accumulator")
  with tf.Graph().as_default() as g:
    x = tf.placeholder(tf.float32, [None], name="x")
    tf.summary.scalar("avg", tf.reduce_mean(x))
    tf.summary.histogram("values", x)
    tf.summary.text("note", tf.constant("hello tensorboard"))
    merged = tf.summary.merge_all()
    with tf.Session() as sess:
      writer = tf.summary.FileWriter(str(tmp_path), sess.graph)
      for step in range(3):
        options = tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE)
        md = tf.RunMetadata()
        s = sess.run(merged, {x: np.arange(4, dtype=np.float32) + step}, options=options,
                     run_metadata=md)
        writer.add_summary(s, step)
        writer.add_run_metadata(md, "step%d" % step, step)
      writer.close()
  acc = event_accumulator.EventAccumulator(
      str(tmp_path), size_guidance={event_accumulator.TENSORS: 0, event_accumulator.HISTOGRAMS: 0})
  acc.Reload()
  tags = acc.Tags()
  assert tags["scalars"] == ["avg"]
  assert [(e.step, e.value) for e in acc.Scalars("avg")] == [(0, 1.5), (1, 2.5), (2, 3.5)]
  assert tags["histograms"] == ["values"]
  histo = acc.Histograms("values")[2].histogram_value
  assert histo.num == 4 and histo.min == 2.0 and histo.max == 5.0 and histo.sum == 14.0
  assert "note" in tags["tensors"]
  assert tags["graph"] and tags["meta_graph"]
  graph = acc.Graph()
  assert "x" in [n.name for n in graph.node]
  assert sorted(tags["run_metadata"]) == ["step0", "step1", "step2"]
  rmd = acc.RunMetadata("step1")
  assert rmd.step_stats.dev_stats[0].device == "/job:localhost/replica:0/task:0/device:CPU:0"
  assert any(n.node_name == "Mean" for n in rmd.step_stats.dev_stats[0].node_stats)
  del g


def _writer_threads():
  import threading
  return [t for t in threading.enumerate() if t.name.startswith("FileWriter(")]


def test_writer_thread_lifecycle_and_flush(tmp_path):
  import subprocess
  import sys
  r = subprocess.run([sys.executable, "-c", "import threading, tfc; "
                      "print([t.name for t in threading.enumerate()])"],
                     capture_output=True, text=True, timeout=60)
  assert r.stdout.strip() == "['MainThread']"  # importing tfc starts no thread
  before = len(_writer_threads())
  writer = tf.summary.FileWriter(str(tmp_path), max_queue=2, flush_secs=3600)
  assert len(_writer_threads()) == before + 1
  summ = tf.summary.Summary(value=[tf.summary.Summary.Value(tag="a", simple_value=1.0)])
  for step in range(5):  # more than max_queue: add_summary waits for the thread
    writer.add_summary(summ, step)
  writer.flush()
  (path,) = tmp_path.iterdir()
  assert [e.step for e in tf.train.summary_iterator(str(path))][1:] == [0, 1, 2, 3, 4]
  writer.close()
  assert len(_writer_threads()) == before
  writer.add_summary(summ, 9)  # dropped after close, as in TF
  writer.reopen()
  assert len(_writer_threads()) == before + 1
  writer.close()
  assert len(list(tmp_path.iterdir())) in (1, 2)  # same second: same file name


def test_writer_used_in_a_forked_child(tmp_path):
  import os
  writer = tf.summary.FileWriter(str(tmp_path))
  summ = tf.summary.Summary(value=[tf.summary.Summary.Value(tag="a", simple_value=1.0)])
  writer.add_summary(summ, 1)
  writer.flush()
  pid = os.fork()
  if pid == 0:  # child: its first write starts a writer thread of its own
    try:
      writer.add_summary(summ, 2)
      writer.flush()
      os._exit(0)
    except BaseException:  # pylint: disable=broad-except
      os._exit(1)
  _, status = os.waitpid(pid, 0)
  assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
  writer.add_summary(summ, 3)
  writer.close()
  (path,) = tmp_path.iterdir()
  assert sorted(e.step for e in tf.train.summary_iterator(str(path)))[1:] == [1, 2, 3]
