"""TFRecord files: tf.python_io / tf.io TFRecordWriter, tf_record_iterator,
TFRecordOptions and TFRecordCompressionType; files TensorFlow wrote
(tests/fixtures/tfrecord, made by tools/make_tfrecord_fixtures.py) read with
TensorFlow's records and errors."""
import gzip
import json
import pathlib
import struct
import threading
import zlib

import pytest

import tfc as tf

FIXTURES = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "tfrecord"
EXPECTED = json.loads((FIXTURES / "expected.json").read_text())


def _records(n=20):
  return [(b"record-%d-" % i) * (i % 7) for i in range(n)]


@pytest.mark.parametrize("comp", [None, "", "ZLIB", "GZIP", tf.python_io.TFRecordCompressionType.NONE,
                                  tf.python_io.TFRecordCompressionType.ZLIB,
                                  tf.python_io.TFRecordCompressionType.GZIP])
def test_round_trip(tmp_path, comp):
  path = str(tmp_path / "r.tfrecord")
  options = tf.python_io.TFRecordOptions(comp) if comp is not None else None
  with tf.python_io.TFRecordWriter(path, options) as w:
    for i, r in enumerate(_records()):
      w.write(r)
      if i == 5:
        w.flush()
  assert list(tf.python_io.tf_record_iterator(path, options)) == _records()
  data = open(path, "rb").read()
  name = tf.python_io.TFRecordOptions.get_compression_type_string(options)
  if name == "GZIP":
    data = gzip.decompress(data)
  elif name == "ZLIB":
    data = zlib.decompress(data)
  # the plain framing: length, masked CRC, data, masked CRC
  (n,) = struct.unpack("<Q", data[:8])
  assert n == len(_records()[0])


def test_tf_io_names_and_options():
  assert tf.io.TFRecordWriter is tf.python_io.TFRecordWriter
  assert tf.io.tf_record_iterator is tf.python_io.tf_record_iterator
  assert tf.io.TFRecordOptions is tf.python_io.TFRecordOptions
  assert tf.io.TFRecordCompressionType.GZIP == 2
  get = tf.io.TFRecordOptions.get_compression_type_string
  assert get(None) == "" and get("ZLIB") == "ZLIB" and get(1) == "ZLIB"
  assert get(tf.io.TFRecordOptions(compression_type="GZIP", compression_level=9)) == "GZIP"
  with pytest.raises(ValueError, match="Not a valid compression_type"):
    tf.io.TFRecordOptions("BZIP2")


def test_writer_close_is_final(tmp_path):
  path = str(tmp_path / "c.tfrecord")
  w = tf.io.TFRecordWriter(path)
  w.write(b"a")
  w.write("text is written as UTF-8")
  w.close()
  w.close()
  with pytest.raises(tf.errors.FailedPreconditionError, match="closed"):
    w.write(b"b")
  assert list(tf.io.tf_record_iterator(path)) == [b"a", b"text is written as UTF-8"]


def test_compression_level(tmp_path):
  big = [b"x" * 5000] * 20
  sizes = {}
  for level in (0, 9):
    path = str(tmp_path / ("l%d" % level))
    with tf.io.TFRecordWriter(path, tf.io.TFRecordOptions("ZLIB", compression_level=level)) as w:
      for r in big:
        w.write(r)
    sizes[level] = len(open(path, "rb").read())
    assert list(tf.io.tf_record_iterator(path, "ZLIB")) == big
  assert sizes[9] * 20 < sizes[0]


def test_missing_file_is_not_found(tmp_path):
  it = tf.python_io.tf_record_iterator(str(tmp_path / "nope.tfrecord"))
  with pytest.raises(tf.errors.NotFoundError, match="No such file or directory"):
    next(it)
  with pytest.raises(tf.errors.NotFoundError):
    tf.io.TFRecordWriter(str(tmp_path / "no" / "dir" / "x.tfrecord"))


@pytest.mark.parametrize("name", sorted(EXPECTED["files"]))
def test_reads_tensorflow_files(name):
  want = EXPECTED["files"][name]
  got, err = [], None
  try:
    for r in tf.io.tf_record_iterator(str(FIXTURES / name), want["compression"]):
      got.append(r.hex())
  except tf.errors.OpError as e:
    err = {"class": type(e).__name__, "message": e.message}
  assert got == want["records"]
  assert err == want["error"]


def test_compressed_file_read_plainly_is_data_loss():
  with pytest.raises(tf.errors.DataLossError,
                     match=r"corrupted record at 0 \(Is this even a TFRecord file\?\)"):
    list(tf.io.tf_record_iterator(str(FIXTURES / "examples_gzip.tfrecord")))
  with pytest.raises(tf.errors.DataLossError):
    list(tf.io.tf_record_iterator(str(FIXTURES / "examples_gzip.tfrecord"), "ZLIB"))


def test_good_records_come_before_the_error(tmp_path):
  data = open(FIXTURES / "corrupt_data.tfrecord", "rb").read()
  it = tf.io.tf_record_iterator(str(FIXTURES / "corrupt_data.tfrecord"))
  assert len([next(it) for _ in range(3)]) == 3
  with pytest.raises(tf.errors.DataLossError, match="corrupted record at 376"):
    next(it)
  assert len(data) > 376  # 376: the offset of the damaged record's data (TF's message)


def test_reading_releases_the_gil(tmp_path):
  # several threads read one big gzip file each at the same time; the records must all arrive
  path = str(tmp_path / "big.tfrecord")
  recs = [bytes([i % 251]) * 4096 for i in range(400)]
  with tf.io.TFRecordWriter(path, "GZIP") as w:
    for r in recs:
      w.write(r)
  results = [None] * 4

  def read(k):
    results[k] = list(tf.io.tf_record_iterator(path, "GZIP"))

  threads = [threading.Thread(target=read, args=(k,)) for k in range(4)]
  for t in threads:
    t.start()
  for t in threads:
    t.join()
  assert all(r == recs for r in results)


def test_batch_reads(tmp_path):
  from tfc import _tfc
  path = str(tmp_path / "b.tfrecord")
  with tf.io.TFRecordWriter(path) as w:
    for r in _records(10):
      w.write(r)
  reader = _tfc.RecordReader(path)
  assert reader.read_batch(4) + reader.read_batch(100) == _records(10)
  assert reader.read_batch(3) == []
  reader.close()
  assert list(reader) == []
