"""tf.python_io: TFRecord files (also under tf.io).

TFRecordWriter writes records with TensorFlow's framing (length, masked
CRC-32C of the length, data, masked CRC-32C of the data), plainly or as one
ZLIB or GZIP stream; tf_record_iterator reads them back. The framing,
compression and CRCs are C (tfc._tfc.RecordWriter / RecordReader) and run
with the GIL released. Damage raises DataLossError ("corrupted record at N",
"truncated record at N") after the good records before it; a missing file
raises NotFoundError.
"""
from tfc import _tfc


class TFRecordCompressionType(object):
  """The compression of a TFRecord file."""
  NONE = 0
  ZLIB = 1
  GZIP = 2


_KIND = {"": 0, "ZLIB": 1, "GZIP": 2}


class TFRecordOptions(object):
  """Options of a TFRecord file: its compression type and zlib settings.

  compression_type is a TFRecordCompressionType value or one of "", "ZLIB",
  "GZIP" (None means none). Of the zlib settings tfc honours
  compression_level (0-9; the others are accepted and kept, zlib's defaults
  are used).
  """
  compression_type_map = {
      TFRecordCompressionType.ZLIB: "ZLIB",
      TFRecordCompressionType.GZIP: "GZIP",
      TFRecordCompressionType.NONE: "",
  }

  def __init__(self, compression_type=None, flush_mode=None, input_buffer_size=None,
               output_buffer_size=None, window_bits=None, compression_level=None,
               compression_method=None, mem_level=None, compression_strategy=None):
    # check it early (TF raises ValueError for an unknown type)
    self.get_compression_type_string(compression_type)
    self.compression_type = compression_type
    self.flush_mode = flush_mode
    self.input_buffer_size = input_buffer_size
    self.output_buffer_size = output_buffer_size
    self.window_bits = window_bits
    self.compression_level = compression_level
    self.compression_method = compression_method
    self.mem_level = mem_level
    self.compression_strategy = compression_strategy

  @classmethod
  def get_compression_type_string(cls, options):
    """The compression name ("", "ZLIB" or "GZIP") of options: TFRecordOptions, a
    TFRecordCompressionType value, a name, or None."""
    if not options:
      return ""
    if isinstance(options, TFRecordOptions):
      return cls.get_compression_type_string(options.compression_type)
    if isinstance(options, int) and options in cls.compression_type_map:
      return cls.compression_type_map[options]
    if options in ("", "ZLIB", "GZIP"):
      return options
    raise ValueError('Not a valid compression_type: "{}"'.format(options))


def _level(options):
  level = getattr(options, "compression_level", None)
  if level is None:
    return -1
  level = int(level)
  if not -1 <= level <= 9:
    raise ValueError("compression_level must be in [-1, 9], got %d" % level)
  return level


def _path(path):
  if isinstance(path, bytes):
    return path.decode("utf-8", "surrogateescape")
  return path


class TFRecordWriter(object):
  """Writes records to a TFRecord file (a context manager).

      with tf.python_io.TFRecordWriter("data.tfrecord") as w:
        w.write(example.SerializeToString())
  """

  def __init__(self, path, options=None):
    """Creates (truncates) `path`; options: TFRecordOptions or a compression type."""
    kind = _KIND[TFRecordOptions.get_compression_type_string(options)]
    self._writer = _tfc.RecordWriter(_path(path), kind, _level(options))

  def __enter__(self):
    return self

  def __exit__(self, unused_type, unused_value, unused_traceback):
    self.close()

  def write(self, record):
    """Appends one record (bytes)."""
    self._writer.write(record)

  def flush(self):
    """Pushes the records written so far to the file."""
    self._writer.flush()

  def close(self):
    """Finishes the file (a compressed stream is completed) and closes it."""
    self._writer.close()


def tf_record_iterator(path, options=None):
  """Yields the records of the TFRecord file `path` as bytes.

  options: TFRecordOptions or a compression type. The file is opened when
  iteration starts; a missing file raises NotFoundError, damage
  DataLossError once the records before it were yielded.
  """
  kind = _KIND[TFRecordOptions.get_compression_type_string(options)]
  reader = _tfc.RecordReader(_path(path), kind)
  try:
    yield from reader
  finally:
    reader.close()
