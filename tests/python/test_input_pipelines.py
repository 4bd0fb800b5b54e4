"""Readers, input producers, batching and queue runners with real files and
threads (TF 1.15's tf.TFRecordReader & co., tf.train.string_input_producer,
batch, shuffle_batch, batch_join, QueueRunner, start_queue_runners)."""
import os

import numpy as np
import pytest

import tfc as tf


def _write_records(tmp_path, n_files=3, per_file=5):
  files = []
  for i in range(n_files):
    p = str(tmp_path / ("f%d.tfrecord" % i))
    with tf.python_io.TFRecordWriter(p) as w:
      for j in range(per_file):
        w.write(b"rec-%d-%d" % (i, j))
    files.append(p)
  return files


def _run_to_end(sess, fetch):
  out = []
  try:
    while True:
      out.append(sess.run(fetch))
  except tf.errors.OutOfRangeError:
    return out


def test_tfrecord_reader_keys_epochs_and_batches(tmp_path):
  files = _write_records(tmp_path)
  with tf.Graph().as_default():
    fq = tf.train.string_input_producer(files, num_epochs=2, shuffle=False)
    reader = tf.TFRecordReader()
    k, v = reader.read(fq)
    kb, vb = tf.train.batch([k, v], batch_size=4, allow_smaller_final_batch=True)
    assert kb.shape.as_list() == [None]
    n_rec = reader.num_records_produced()
    n_done = reader.num_work_units_completed()
    with tf.Session() as s:
      s.run(tf.local_variables_initializer())
      coord = tf.train.Coordinator()
      threads = tf.train.start_queue_runners(s, coord)
      batches = _run_to_end(s, [kb, vb])
      coord.request_stop()
      coord.join(threads)
      keys = [x for b in batches for x in b[0].tolist()]
      vals = [x for b in batches for x in b[1].tolist()]
      assert len(vals) == 30
      assert [len(b[0]) for b in batches] == [4] * 7 + [2]
      assert vals[:6] == [b"rec-0-0", b"rec-0-1", b"rec-0-2", b"rec-0-3", b"rec-0-4", b"rec-1-0"]
      # TF's keys: "<file>:<byte offset of the record>" (12 header + 7 data + 4 footer bytes)
      assert keys[:2] == [(files[0] + ":0").encode(), (files[0] + ":23").encode()]
      assert s.run(n_rec) == 30
      assert s.run(n_done) == 6


def test_text_line_fixed_length_whole_file_identity(tmp_path):
  txt = tmp_path / "t.csv"
  txt.write_bytes(b"header\nline1\r\nline2\n\nlast")
  binf = tmp_path / "b.bin"
  binf.write_bytes(b"HH" + bytes(range(12)) + b"F")
  with tf.Graph().as_default():
    fq = tf.FIFOQueue(10, tf.string)
    fill = fq.enqueue_many([[str(txt)]])
    k, v = tf.TextLineReader(skip_header_lines=1).read_up_to(fq, 10)
    bq = tf.FIFOQueue(10, tf.string)
    bfill = bq.enqueue_many([[str(binf), str(binf)]])
    fk, fv = tf.FixedLengthRecordReader(4, header_bytes=2, footer_bytes=1).read(bq)
    wq = tf.FIFOQueue(10, tf.string)
    wfill = wq.enqueue_many([[str(binf), str(tmp_path / "missing")]])
    wk, wv = tf.WholeFileReader().read(wq)
    iq = tf.FIFOQueue(10, tf.string)
    ifill = iq.enqueue_many([[b"w1", b"w2"]])
    ir = tf.IdentityReader()
    ik, iv = ir.read(iq)
    with tf.Session() as s:
      s.run([fill, bfill, wfill, ifill])
      s.run([fq.close(), bq.close(), iq.close()])
      keys, vals = s.run([k, v])
      assert vals.tolist() == [b"line1", b"line2", b"", b"last"]
      assert keys.tolist() == [("%s:%d" % (txt, i)).encode() for i in (2, 3, 4, 5)]
      recs = [s.run([fk, fv]) for _ in range(6)]
      assert [r[0] for r in recs[:3]] == [("%s:%d" % (binf, i)).encode() for i in range(3)]
      assert recs[1][1] == bytes([4, 5, 6, 7]) and recs[3][1] == bytes(range(4))
      with pytest.raises(tf.errors.OutOfRangeError):
        s.run(fk)
      assert s.run([wk, wv]) == [str(binf).encode(), binf.read_bytes()]
      with pytest.raises(tf.errors.NotFoundError):
        s.run(wk)
      assert s.run([ik, iv]) == [b"w1", b"w1"]
      s.run(ir.reset())
      assert s.run(ir.num_records_produced()) == 0
      assert s.run(ik) == b"w2"


def test_corrupt_record_is_data_loss_after_the_good_ones(tmp_path):
  files = _write_records(tmp_path, n_files=1, per_file=3)
  data = bytearray(open(files[0], "rb").read())
  data[23 + 14] ^= 0xFF  # a data byte of the second record
  open(files[0], "wb").write(bytes(data))
  with tf.Graph().as_default():
    fq = tf.FIFOQueue(2, tf.string)
    fill = fq.enqueue(files[0])
    k, v = tf.TFRecordReader().read(fq)
    with tf.Session() as s:
      s.run(fill)
      assert s.run(v) == b"rec-0-0"
      with pytest.raises(tf.errors.DataLossError, match="corrupted record"):
        s.run(v)


def test_gzip_tfrecord_reader(tmp_path):
  p = str(tmp_path / "z.tfrecord.gz")
  opts = tf.python_io.TFRecordOptions(tf.python_io.TFRecordCompressionType.GZIP)
  with tf.python_io.TFRecordWriter(p, opts) as w:
    for j in range(4):
      w.write(b"z%d" % j)
  with tf.Graph().as_default():
    fq = tf.FIFOQueue(2, tf.string)
    fill = fq.enqueue(p)
    close = fq.close()
    k, v = tf.TFRecordReader(options=opts).read_up_to(fq, 10)
    with tf.Session() as s:
      s.run(fill)
      s.run(close)
      assert s.run(v).tolist() == [b"z0", b"z1", b"z2", b"z3"]


def test_slice_input_producer_shuffle_batch_and_summaries():
  with tf.Graph().as_default():
    xs = np.arange(40, dtype=np.float32).reshape(20, 2)
    ys = np.arange(20, dtype=np.int64)
    x, y = tf.train.slice_input_producer([xs, ys], num_epochs=1, seed=3)
    xb, yb = tf.train.shuffle_batch([x, y], batch_size=6, capacity=20, min_after_dequeue=5,
                                    num_threads=2, seed=4, allow_smaller_final_batch=True)
    assert xb.shape.as_list() == [None, 2]
    tags = [op.op.inputs[0].op.get_attr("value") if False else op.name
            for op in tf.get_collection(tf.GraphKeys.SUMMARIES)]
    assert any("fraction_of_32_full" in t for t in tags)
    assert any("fraction_over_5_of_15_full" in t for t in tags)
    with tf.Session() as s:
      s.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
      coord = tf.train.Coordinator()
      threads = tf.train.start_queue_runners(s, coord)
      batches = _run_to_end(s, [xb, yb])
      coord.request_stop()
      coord.join(threads)
    got_y = np.concatenate([b[1] for b in batches])
    got_x = np.concatenate([b[0] for b in batches])
    assert sorted(got_y.tolist()) == list(range(20))
    assert got_y.tolist() != list(range(20))
    np.testing.assert_array_equal(got_x, xs[got_y])


def test_batch_join_dynamic_pad_maybe_batch_and_enqueue_many():
  with tf.Graph().as_default():
    a = tf.train.range_input_producer(4, num_epochs=1, shuffle=False).dequeue()
    b = tf.train.range_input_producer(4, num_epochs=1, shuffle=False).dequeue() + 100
    (joined,) = tf.train.batch_join([[a], [b]], batch_size=8, allow_smaller_final_batch=True)
    ragged = tf.train.range_input_producer(3, num_epochs=1, shuffle=False).dequeue()
    seq = tf.range(ragged + 1)
    (padded,) = tf.train.batch([seq], batch_size=3, dynamic_pad=True)
    evens = tf.train.range_input_producer(6, num_epochs=1, shuffle=False).dequeue()
    (kept,) = tf.train.maybe_batch([evens], tf.equal(evens % 2, 0), batch_size=3)
    (many,) = tf.train.batch([tf.constant([[1, 2], [3, 4], [5, 6]])], batch_size=2, enqueue_many=True)
    with tf.Session() as s:
      s.run(tf.local_variables_initializer())
      coord = tf.train.Coordinator()
      threads = tf.train.start_queue_runners(s, coord)
      got = s.run(joined)
      assert sorted(got.tolist()) == [0, 1, 2, 3, 100, 101, 102, 103]
      assert s.run(padded).tolist() == [[0, 0, 0], [0, 1, 0], [0, 1, 2]]
      assert s.run(kept).tolist() == [0, 2, 4]
      assert s.run(many).tolist() == [[1, 2], [3, 4]]
      coord.request_stop()
      coord.join(threads, stop_grace_period_secs=5)


def test_queue_runner_error_reaches_the_coordinator(tmp_path):
  with tf.Graph().as_default():
    fq = tf.train.string_input_producer([str(tmp_path / "nope.tfrecord")], shuffle=False)
    _, v = tf.TFRecordReader().read(fq)
    vb = tf.train.batch([v], batch_size=2)
    with tf.Session() as s:
      coord = tf.train.Coordinator()
      threads = tf.train.start_queue_runners(s, coord)
      with pytest.raises(tf.errors.NotFoundError):
        coord.join(threads)
      assert len(threads) == 4  # two queues: one enqueue thread + one cancel thread each
      with pytest.raises(tf.errors.OpError):
        s.run(vb, options=tf.RunOptions(timeout_in_ms=200))


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_queue_runner_api_and_closing_the_session_under_running_threads():
  with tf.Graph().as_default():
    q = tf.FIFOQueue(4, tf.float32, shapes=[[]])
    enq = q.enqueue(tf.random_uniform([]))
    qr = tf.train.QueueRunner(q, [enq] * 3)
    assert qr.queue is q and len(qr.enqueue_ops) == 3
    assert qr.queue_closed_exception_types == (tf.errors.OutOfRangeError,)
    tf.train.add_queue_runner(qr)
    assert tf.get_collection(tf.GraphKeys.QUEUE_RUNNERS) == [qr]
    d = q.dequeue_many(4)
    s = tf.Session()
    coord = tf.train.Coordinator()
    threads = qr.create_threads(s, coord=coord, daemon=True, start=True)
    assert len(threads) == 4
    assert qr.create_threads(s, coord=coord) == []  # already running for s
    assert s.run(d).shape == (4,)
    coord.request_stop()
    coord.join(threads)
    # threads left waiting in enqueue when the session closes are cancelled, not hung
    s2 = tf.Session()
    threads = qr.create_threads(s2, daemon=True, start=True)
    import time
    time.sleep(0.2)
    s2.close()
    for t in threads:
      t.join(10)
      assert not t.is_alive()
    # without a coordinator the threads re-raise and record the error, as in TF
    assert qr.exceptions_raised
    assert all(isinstance(e, tf.errors.CancelledError) for e in qr.exceptions_raised)


def test_start_queue_runners_needs_a_session():
  with tf.Graph().as_default():
    with pytest.raises(ValueError, match="No default session"):
      tf.train.start_queue_runners()
