"""tf.io namespace: file I/O, image codecs, TFRecord files and Example parsing (TF 1.15
names and op names)."""
from tfc import dtypes as _dtypes
from tfc.framework import ops as _ops
from tfc.framework.op_def_library import _apply_op


def read_file(filename, name=None):
  """Returns the contents of the file `filename` as a scalar string tensor."""
  return _apply_op("ReadFile", name, [filename]).outputs[0]


def write_file(filename, contents, name=None):
  """Writes `contents` to the file `filename` (creating parent directories); returns the op."""
  return _apply_op("WriteFile", name, [filename, contents])


def decode_jpeg(contents, channels=0, ratio=1, fancy_upscaling=True, try_recover_truncated=False,
                acceptable_fraction=1, dct_method="", name=None):
  """Decodes a JPEG image to a uint8 tensor [height, width, channels]."""
  attrs = {"channels": int(channels), "ratio": int(ratio),
           "fancy_upscaling": bool(fancy_upscaling),
           "try_recover_truncated": bool(try_recover_truncated),
           "acceptable_fraction": float(acceptable_fraction), "dct_method": dct_method}
  return _apply_op("DecodeJpeg", name, [contents], attrs).outputs[0]


def decode_png(contents, channels=0, dtype=_dtypes.uint8, name=None):
  """Decodes a PNG image to a uint8 or uint16 tensor [height, width, channels]."""
  attrs = {"channels": int(channels), "dtype": _dtypes.as_dtype(dtype)}
  return _apply_op("DecodePng", name, [contents], attrs).outputs[0]


def decode_bmp(contents, channels=0, name=None):
  """Decodes an uncompressed BMP image to a uint8 tensor [height, width, channels]."""
  return _apply_op("DecodeBmp", name, [contents], {"channels": int(channels)}).outputs[0]


def decode_image(contents, channels=None, dtype=_dtypes.uint8, name=None, expand_animations=True):
  """Decodes a JPEG, PNG or BMP image (chosen by its first bytes).

  Integer outputs are scaled like convert_image_dtype (8-bit formats give
  x * 256 for uint16), float outputs lie in [0, 1]. GIF is not supported.
  """
  if channels not in (None, 0, 1, 3, 4):
    raise ValueError("channels must be in (None, 0, 1, 3, 4)")
  dtype = _dtypes.as_dtype(dtype)
  if dtype not in (_dtypes.uint8, _dtypes.uint16, _dtypes.float32):
    raise ValueError("dtype must be uint8, uint16 or float32, got %s" % dtype.name)
  attrs = {"channels": int(channels or 0), "dtype": dtype,
           "expand_animations": bool(expand_animations)}
  return _apply_op("DecodeImage", name or "decode_image", [contents], attrs).outputs[0]


def encode_jpeg(image, format="", quality=95, progressive=False, optimize_size=False,  # pylint: disable=redefined-builtin
                chroma_downsampling=True, density_unit="in", x_density=300, y_density=300,
                xmp_metadata="", name=None):
  """JPEG-encodes a uint8 image [height, width, channels] (1 or 3 channels)."""
  attrs = {"format": format, "quality": int(quality), "progressive": bool(progressive),
           "optimize_size": bool(optimize_size),
           "chroma_downsampling": bool(chroma_downsampling), "density_unit": density_unit,
           "x_density": int(x_density), "y_density": int(y_density),
           "xmp_metadata": xmp_metadata}
  return _apply_op("EncodeJpeg", name, [image], attrs).outputs[0]


def encode_png(image, compression=-1, name=None):
  """PNG-encodes a uint8 or uint16 image [height, width, channels] (1 to 4 channels)."""
  # Converted first so a uint16 array keeps its dtype (T defaults to uint8).
  image = _ops.convert_to_tensor(image, name="image")
  return _apply_op("EncodePng", name, [image], {"compression": int(compression)}).outputs[0]



def __getattr__(name):
  """tf.io.gfile (TF 2's file API names) and tf.io.write_graph load on first use."""
  if name == "gfile":
    from tfc import io_gfile  # pylint: disable=g-import-not-at-top
    return io_gfile
  if name == "write_graph":
    from tfc.framework.graph_io import write_graph  # pylint: disable=g-import-not-at-top
    return write_graph
  raise AttributeError("module 'tfc.io' has no attribute %r" % name)


# TFRecord files and Example parsing (tf.io's names for them).
from tfc.python_io import (TFRecordCompressionType, TFRecordOptions,  # noqa: E402,F401
                           TFRecordWriter, tf_record_iterator)
from tfc.ops.parsing_ops import (FixedLenFeature, FixedLenSequenceFeature,  # noqa: E402,F401
                                 VarLenFeature, decode_csv, decode_raw, parse_example,
                                 parse_single_example, parse_sequence_example, SparseFeature,
                                 parse_single_sequence_example)

# Byte encodings, serialized tensors and file-name patterns.
from tfc.ops.encoding_ops import (encode_base64, decode_base64, decode_compressed,  # noqa: E402,F401
                                  serialize_tensor, parse_tensor, matching_files,
                                  match_filenames_once, serialize_sparse,
                                  serialize_many_sparse, deserialize_many_sparse)


def is_jpeg(contents, name=None):
  """True when the string starts with a JPEG's magic bytes (FF D8 FF)."""
  from tfc.ops import string_ops as _string_ops  # pylint: disable=g-import-not-at-top
  from tfc.ops import math_ops as _math_ops  # pylint: disable=g-import-not-at-top
  with _ops.name_scope(name, "is_jpeg", [contents]):
    return _math_ops.equal(_string_ops.substr(contents, 0, 3), b"\xff\xd8\xff",
                           name=name)


# Queues (tf.io's names for them).
from tfc.ops.data_flow_ops import (QueueBase, PaddingFIFOQueue, PriorityQueue,  # noqa: E402,F401
                                   RandomShuffleQueue)
