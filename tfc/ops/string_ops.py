"""String ops (TF 1.15 `string_ops`): the tf.strings functions and their
top-level aliases (tf.as_string, tf.string_to_number, tf.substr, ...).
Every element is handled by a C kernel."""
from tfc import dtypes as _dtypes
from tfc.framework import ops as _ops
from tfc.framework.op_def_library import _apply_op


def _str(x, name):
  return _ops.convert_to_tensor(x, dtype=_dtypes.string, name=name)


def length(input, name=None, unit="BYTE"):  # pylint: disable=redefined-builtin
  """Length of each string in bytes ("BYTE") or code points ("UTF8_CHAR")."""
  if unit not in ("BYTE", "UTF8_CHAR"):
    raise ValueError("unit must be 'BYTE' or 'UTF8_CHAR', got %r" % (unit,))
  return _apply_op("StringLength", name, [_str(input, "input")], {"unit": unit}).outputs[0]


def substr(input, pos, len, name=None, unit="BYTE"):  # pylint: disable=redefined-builtin
  """The substring [pos, pos + len) of each string (pos < 0 counts from the end)."""
  if unit not in ("BYTE", "UTF8_CHAR"):
    raise ValueError("unit must be 'BYTE' or 'UTF8_CHAR', got %r" % (unit,))
  with _ops.name_scope(name, "Substr", [input, pos, len]) as scope:
    pos = _ops.convert_to_tensor(pos, name="pos")
    if pos.dtype.base_dtype not in (_dtypes.int32, _dtypes.int64):
      raise TypeError("pos must be int32 or int64, got %s" % pos.dtype.name)
    len = _ops.convert_to_tensor(len, dtype=pos.dtype.base_dtype, name="len")
    return _apply_op("Substr", scope, [_str(input, "input"), pos, len],
                     {"unit": unit}).outputs[0]


def strip(input, name=None):  # pylint: disable=redefined-builtin
  """Each string without leading and trailing whitespace."""
  return _apply_op("StringStrip", name, [_str(input, "input")]).outputs[0]


def upper(input, encoding="", name=None):  # pylint: disable=redefined-builtin
  """Each string with ASCII letters in upper case."""
  return _apply_op("StringUpper", name, [_str(input, "input")],
                   {"encoding": encoding}).outputs[0]


def lower(input, encoding="", name=None):  # pylint: disable=redefined-builtin
  """Each string with ASCII letters in lower case."""
  return _apply_op("StringLower", name, [_str(input, "input")],
                   {"encoding": encoding}).outputs[0]


def to_number(string_tensor, out_type=_dtypes.float32, name=None):
  """Each string parsed as a number of out_type (InvalidArgumentError otherwise)."""
  return _apply_op("StringToNumber", name, [_str(string_tensor, "string_tensor")],
                   {"out_type": _dtypes.as_dtype(out_type)}).outputs[0]


def as_string(input, precision=-1, scientific=False, shortest=False, width=-1, fill="",  # pylint: disable=redefined-builtin
              name=None):
  """Each element formatted as a string (printf-style options as TF)."""
  return _apply_op("AsString", name, [_ops.convert_to_tensor(input, name="input")],
                   {"precision": int(precision), "scientific": bool(scientific),
                    "shortest": bool(shortest), "width": int(width),
                    "fill": fill}).outputs[0]


def reduce_join(inputs, axis=None, keep_dims=None, separator="", name=None,
                reduction_indices=None, keepdims=None):
  """The strings along `axis` joined with `separator` (all axes when None)."""
  if axis is None:
    axis = reduction_indices
  if keepdims is not None:
    keep_dims = keepdims
  with _ops.name_scope(name, "ReduceJoin", [inputs]) as scope:
    inputs = _str(inputs, "inputs")
    if axis is None:
      rank = inputs.get_shape().ndims
      if rank is not None:
        axis = list(range(rank - 1, -1, -1))
      else:
        from tfc.ops import math_ops  # pylint: disable=g-import-not-at-top
        from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
        axis = math_ops.range(array_ops.rank(inputs) - 1, -1, -1)
    axis = _ops.convert_to_tensor(axis, dtype=_dtypes.int32, name="reduction_indices")
    return _apply_op("ReduceJoin", scope, [inputs, axis],
                     {"keep_dims": bool(keep_dims), "separator": separator}).outputs[0]


def regex_full_match(input, pattern, name=None):  # pylint: disable=redefined-builtin
  """Whether each string matches `pattern` as a whole (POSIX extended syntax,
  RE2's common subset)."""
  if isinstance(pattern, (str, bytes)):
    return _apply_op("StaticRegexFullMatch", name, [_str(input, "input")],
                     {"pattern": pattern}).outputs[0]
  return _apply_op("RegexFullMatch", name, [_str(input, "input"),
                                            _str(pattern, "pattern")]).outputs[0]


def regex_replace(input, pattern, rewrite, replace_global=True, name=None):  # pylint: disable=redefined-builtin
  """Each string with the first (or every) match of `pattern` replaced by
  `rewrite` (\\1.. insert groups)."""
  if isinstance(pattern, (str, bytes)) and isinstance(rewrite, (str, bytes)):
    return _apply_op("StaticRegexReplace", name, [_str(input, "input")],
                     {"pattern": pattern, "rewrite": rewrite,
                      "replace_global": bool(replace_global)}).outputs[0]
  return _apply_op("RegexReplace", name, [_str(input, "input"), _str(pattern, "pattern"),
                                          _str(rewrite, "rewrite")],
                   {"replace_global": bool(replace_global)}).outputs[0]


def to_hash_bucket_strong(input, num_buckets, key, name=None):  # pylint: disable=redefined-builtin
  """SipHash-2-4 with the two-int `key` of each string, modulo num_buckets."""
  key = [int(k) for k in key]
  if len(key) != 2:
    raise ValueError("key must have 2 elements")
  key = [k - (1 << 64) if k >= (1 << 63) else k for k in key]
  return _apply_op("StringToHashBucketStrong", name, [_str(input, "input")],
                   {"num_buckets": int(num_buckets), "key": key}).outputs[0]


def to_hash_bucket_fast(input, num_buckets, name=None):  # pylint: disable=redefined-builtin
  """FarmHash Fingerprint64 of each string, modulo num_buckets (TF's values exactly)."""
  return _apply_op("StringToHashBucketFast", name, [_str(input, "input")],
                   {"num_buckets": int(num_buckets)}).outputs[0]


def to_hash_bucket(string_tensor=None, num_buckets=None, name=None, input=None):  # pylint: disable=redefined-builtin
  """TF's legacy Hash64 of each string, modulo num_buckets (`input` is the
  newer name of `string_tensor`; prefer to_hash_bucket_fast)."""
  if input is not None:
    if string_tensor is not None:
      raise ValueError("Cannot specify both 'string_tensor' and 'input'")
    string_tensor = input
  if string_tensor is None or num_buckets is None:
    raise ValueError("string_tensor and num_buckets are required")
  return _apply_op("StringToHashBucket", name, [_str(string_tensor, "string_tensor")],
                   {"num_buckets": int(num_buckets)}).outputs[0]


def fingerprint(data, method="farmhash64", name=None):
  """uint8 [dim0, 8]: the farmhash64 fingerprint of each row of `data`
  (little-endian bytes; strings of a row are fingerprinted one by one first)."""
  with _ops.name_scope(name, "Fingerprint", [data]) as scope:
    data = _ops.convert_to_tensor(data, name="data")
    method = _ops.convert_to_tensor(method, dtype=_dtypes.string, name="method")
    return _apply_op("Fingerprint", scope, [data, method],
                     {"T": data.dtype.base_dtype}).outputs[0]


def join(inputs, separator="", name=None):
  """Elementwise join of scalars and same-shaped string tensors."""
  inputs = [_str(x, "inputs") for x in inputs]
  return _apply_op("StringJoin", name, [inputs], {"separator": separator}).outputs[0]


def split(input=None, sep=None, maxsplit=-1, result_type="SparseTensor", source=None, name=None):  # pylint: disable=redefined-builtin
  """Each string of a vector split on `sep` (None: whitespace), as a SparseTensor."""
  from tfc.ops import parsing_ops  # pylint: disable=g-import-not-at-top
  if input is None:
    input = source
  if result_type != "SparseTensor":
    raise ValueError("tfc's tf.strings.split returns a SparseTensor (result_type='SparseTensor')")
  with _ops.name_scope(name, "StringSplit", [input]):
    return parsing_ops.string_split_v2(input, sep=sep, maxsplit=maxsplit)


def string_format(template, inputs, placeholder="{}", summarize=3, name=None):
  """Formats a string template using a list of tensors (TF's `StringFormat`).

  Each occurrence of `placeholder` in `template` is replaced, in order, by the
  matching tensor of `inputs` printed as tf.print shows it: numpy-like nested
  brackets with at most `summarize` entries at each end of every dimension
  (-1: all of them). Returns a scalar string tensor.

  Raises:
    ValueError: when the number of placeholders differs from len(inputs).
  """
  inputs = list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]
  if template.count(placeholder) != len(inputs):
    raise ValueError("The template expects %d tensors, but the inputs only has %d. Please "
                     "ensure the number of placeholders in template matches inputs length."
                     % (template.count(placeholder), len(inputs)))
  return _apply_op("StringFormat", name, [inputs],
                   {"template": template, "placeholder": placeholder,
                    "summarize": summarize}).outputs[0]


def unsorted_segment_join(inputs, segment_ids, num_segments, separator="", name=None):
  """Joins the strings of `inputs` by segment (TF's UnsortedSegmentJoin): output[s]
  joins, in order and with `separator`, the entries whose segment id is s; the
  output has shape [num_segments] + inputs.shape[rank(segment_ids):]."""
  return _apply_op("UnsortedSegmentJoin", name, [inputs, segment_ids, num_segments],
                   {"separator": separator}).outputs[0]


def ngrams(data, ngram_width, separator=" ", pad_values=None, padding_width=None,
           preserve_short_sequences=False, name=None):
  """The n-grams of the last dimension of a dense string tensor (TF's StringNGrams;
  for dense input TF returns a dense tensor, shaped data.shape[:-1] + [-1]).

  Args:
    data: a string tensor of rank >= 1 (tfc has no RaggedTensor).
    ngram_width: an int or a list of ints; the n-grams of each width, in order.
    separator: joins the tokens of an n-gram.
    pad_values: None, a string (both sides) or a (left, right) pair.
    padding_width: pads on each side (default width - 1 when pad_values is given).
    preserve_short_sequences: give a row too short for any n-gram one of all of it.
  """
  import tfc as _tf  # pylint: disable=g-import-not-at-top
  with _ops.name_scope(name, "StringNGrams", [data]):
    if pad_values is None:
      left_pad = right_pad = ""
    elif isinstance(pad_values, (list, tuple)):
      if (len(pad_values) != 2 or not isinstance(pad_values[0], str) or
          not isinstance(pad_values[1], str)):
        raise ValueError("pad_values must be a string, tuple of strings, or None.")
      left_pad, right_pad = pad_values
    else:
      if not isinstance(pad_values, str):
        raise ValueError("pad_values must be a string, tuple of strings, or None.")
      left_pad = right_pad = pad_values
    if padding_width is not None and padding_width < 1:
      raise ValueError("padding_width must be greater than 0.")
    if padding_width is not None and pad_values is None:
      raise ValueError("pad_values must be provided if padding_width is set.")
    data = _ops.convert_to_tensor(data, dtype=_dtypes.string, name="data")
    ndims = data.shape.ndims
    if ndims is None:
      raise ValueError("Rank of data must be known.")
    if ndims == 0:
      raise ValueError("Data must have rank>0")
    widths = list(ngram_width) if isinstance(ngram_width, (list, tuple)) else [ngram_width]
    if pad_values is None:
      padding_width = 0
    elif padding_width is None:
      padding_width = -1
    shape = _tf.shape(data, out_type=_dtypes.int64)
    last = shape[-1]
    flat = _tf.reshape(data, [-1])
    rows = _tf.size(flat, out_type=_dtypes.int64) // _tf.maximum(last, 1) if ndims > 1 else \
        _tf.constant(1, _dtypes.int64)
    splits = _tf.range(rows + 1, dtype=_dtypes.int64) * last
    out = _apply_op("StringNGrams", None, [flat, splits],
                    {"separator": separator, "ngram_widths": widths, "left_pad": left_pad,
                     "right_pad": right_pad, "pad_width": padding_width,
                     "preserve_short_sequences": preserve_short_sequences}).outputs[0]
    if ndims == 1:
      return out
    return _tf.reshape(out, _tf.concat([shape[:-1], [-1]], axis=0))
