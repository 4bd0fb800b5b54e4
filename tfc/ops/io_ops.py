"""Readers (TF 1.15's tf.TFRecordReader, tf.WholeFileReader, tf.TextLineReader,
tf.FixedLengthRecordReader, tf.IdentityReader).

A reader is a session resource that takes file names from a queue and
returns (key, value) records: `read` one at a time, `read_up_to` a batch.
Keys are TF's: b"<file>:<offset>" for TFRecord files, b"<file>:<line>" for
text lines, b"<file>:<record number>" for fixed-length records and the file
name for whole files. A closed, empty file-name queue makes `read` raise
OutOfRangeError.

    filenames = tf.train.string_input_producer(["a.tfrecord", "b.tfrecord"])
    key, value = tf.TFRecordReader().read(filenames)
"""
from tfc import dtypes as _dtypes
from tfc.framework import ops as _ops
from tfc.framework.op_def_library import _apply_op


def _queue_ref(queue):
  return queue.queue_ref if hasattr(queue, "queue_ref") else queue


class ReaderBase(object):
  """Base class of the readers: read, read_up_to, num_records_produced,
  num_work_units_completed, reset."""

  def __init__(self, reader_ref, supports_serialize=False):
    self._reader_ref = reader_ref
    self._supports_serialize = supports_serialize

  @property
  def reader_ref(self):
    return self._reader_ref

  @property
  def supports_serialize(self):
    return self._supports_serialize

  def read(self, queue, name=None):
    """Returns the next (key, value) record, taking a new file from `queue`
    when the current one is exhausted."""
    op = _apply_op("ReaderReadV2", name or "ReaderReadV2", [self._reader_ref, _queue_ref(queue)])
    return op.outputs[0], op.outputs[1]

  def read_up_to(self, queue, num_records, name=None):
    """Returns up to num_records (keys, values) as vectors (fewer only at the
    end of the input)."""
    n = _ops.convert_to_tensor(num_records, dtype=_dtypes.int64, name="num_records")
    op = _apply_op("ReaderReadUpToV2", name or "ReaderReadUpToV2",
                   [self._reader_ref, _queue_ref(queue), n])
    return op.outputs[0], op.outputs[1]

  def num_records_produced(self, name=None):
    return _apply_op("ReaderNumRecordsProducedV2", name or "ReaderNumRecordsProducedV2",
                     [self._reader_ref]).outputs[0]

  def num_work_units_completed(self, name=None):
    return _apply_op("ReaderNumWorkUnitsCompletedV2", name or "ReaderNumWorkUnitsCompletedV2",
                     [self._reader_ref]).outputs[0]

  def serialize_state(self, name=None):
    """A string tensor with the reader's state (a ReaderBaseState for the
    identity and whole-file readers; UnimplementedError for the others, as
    in TensorFlow)."""
    return _apply_op("ReaderSerializeStateV2", name or "ReaderSerializeStateV2",
                     [self._reader_ref]).outputs[0]

  def restore_state(self, state, name=None):
    """Restores a state from serialize_state (InvalidArgumentError when it
    does not parse or is inconsistent)."""
    state = _ops.convert_to_tensor(state, dtype=_dtypes.string)
    return _apply_op("ReaderRestoreStateV2", name or "ReaderRestoreStateV2", [self._reader_ref, state])

  def reset(self, name=None):
    """Forgets the current file and zeroes the counters."""
    return _apply_op("ReaderResetV2", name or "ReaderResetV2", [self._reader_ref])


class TFRecordReader(ReaderBase):
  """Reads the records of TFRecord files (options: a TFRecordOptions for
  GZIP / ZLIB files)."""

  def __init__(self, name=None, options=None):
    compression = ""
    if options is not None:
      from tfc import python_io  # pylint: disable=g-import-not-at-top
      compression = python_io.TFRecordOptions.get_compression_type_string(options) or ""
    ref = _apply_op("TFRecordReaderV2", name or "TFRecordReaderV2", [],
                    {"compression_type": compression}).outputs[0]
    super(TFRecordReader, self).__init__(ref)


class WholeFileReader(ReaderBase):
  """Reads each file as one record: key the file name, value its contents."""

  def __init__(self, name=None):
    ref = _apply_op("WholeFileReaderV2", name or "WholeFileReaderV2", []).outputs[0]
    super(WholeFileReader, self).__init__(ref)


class TextLineReader(ReaderBase):
  """Reads the lines of text files (newline and a trailing CR removed)."""

  def __init__(self, skip_header_lines=None, name=None):
    ref = _apply_op("TextLineReaderV2", name or "TextLineReaderV2", [],
                    {"skip_header_lines": int(skip_header_lines or 0)}).outputs[0]
    super(TextLineReader, self).__init__(ref)


class FixedLengthRecordReader(ReaderBase):
  """Reads records of record_bytes bytes after header_bytes, before
  footer_bytes, every hop_bytes bytes (default: record_bytes)."""

  def __init__(self, record_bytes, header_bytes=None, footer_bytes=None, hop_bytes=None, name=None,
               encoding=None):
    ref = _apply_op("FixedLengthRecordReaderV2", name or "FixedLengthRecordReaderV2", [],
                    {"record_bytes": int(record_bytes), "header_bytes": int(header_bytes or 0),
                     "footer_bytes": int(footer_bytes or 0), "hop_bytes": int(hop_bytes or 0),
                     "encoding": encoding or ""}).outputs[0]
    super(FixedLengthRecordReader, self).__init__(ref)


class IdentityReader(ReaderBase):
  """Returns each work item as both key and value."""

  def __init__(self, name=None):
    ref = _apply_op("IdentityReaderV2", name or "IdentityReaderV2", []).outputs[0]
    super(IdentityReader, self).__init__(ref)
