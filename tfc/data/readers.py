"""tf.data.experimental CSV readers (TF 1.15): CsvDataset (TF's CSVDatasetV2
op, csrc/kernels/dataset_csv.c) and make_csv_dataset (TF's pipeline of file
names, parallel_interleave of CsvDatasets, shuffle/repeat, batch and a map
to feature dicts, with column names and types inferred from the files)."""
import collections as _collections
import csv as _csv
import glob as _glob
import gzip as _gzip

import numpy as _np

from tfc import dtypes as _dtypes
from tfc.data import dataset_ops as _dops
from tfc.framework import ops as _ops
from tfc.framework import tensor_shape as _tensor_shape
from tfc.framework.op_def_library import _apply_op

_SCALAR = _tensor_shape.TensorShape([])
_ACCEPTABLE = (_dtypes.float32, _dtypes.float64, _dtypes.int32, _dtypes.int64, _dtypes.string)


class CsvDataset(_dops.Dataset):
  """The records of CSV files as tuples of scalars, one per column of
  record_defaults (a tensor: the column's dtype and default; a dtype: a
  required column). TF's CSVDatasetV2 op (csrc/kernels/dataset_csv.c)."""

  def __init__(self, filenames, record_defaults, compression_type=None, buffer_size=None, header=False,
               field_delim=",", use_quote_delim=True, na_value="", select_cols=None, exclude_cols=None):
    allowed = (_dtypes.float32, _dtypes.float64, _dtypes.int32, _dtypes.int64, _dtypes.string)
    defaults = []
    for i, d in enumerate(record_defaults):
      if isinstance(d, _dtypes.DType) or (isinstance(d, type) and d in (int, float, str)):
        d = _ops.convert_to_tensor(_np.zeros([0], _dtypes.as_dtype(d).as_numpy_dtype)
                                   if _dtypes.as_dtype(d) != _dtypes.string else _np.array([], object),
                                   dtype=_dtypes.as_dtype(d), name="record_default_%d" % i)
      else:
        d = _ops.convert_to_tensor(d, name="record_default_%d" % i)
      if d.dtype not in allowed:
        raise TypeError("`record_defaults` must be a list of tensors of dtype float32, float64, int32, "
                        "int64 or string, got %s" % d.dtype)
      defaults.append(d)
    ins = [_ops.convert_to_tensor(filenames, dtype=_dtypes.string, name="filenames"),
           _ops.convert_to_tensor(compression_type or "", dtype=_dtypes.string, name="compression_type"),
           _ops.convert_to_tensor(-1 if buffer_size is None else buffer_size, dtype=_dtypes.int64,
                                  name="buffer_size"),
           _ops.convert_to_tensor(bool(header), dtype=_dtypes.bool, name="header"),
           _ops.convert_to_tensor(field_delim, dtype=_dtypes.string, name="field_delim"),
           _ops.convert_to_tensor(bool(use_quote_delim), dtype=_dtypes.bool, name="use_quote_delim"),
           _ops.convert_to_tensor(na_value, dtype=_dtypes.string, name="na_value"),
           _ops.convert_to_tensor(_np.array(select_cols or [], _np.int64), name="select_cols"),
           defaults,
           _ops.convert_to_tensor(_np.array(exclude_cols or [], _np.int64), name="exclude_cols")]
    types = tuple(d.dtype for d in defaults)
    shapes = tuple(_SCALAR for _ in defaults)
    v = _apply_op("CSVDatasetV2", "CSVDatasetV2", ins,
                  {"output_types": list(types), "output_shapes": [[]] * len(types)}).outputs[0]
    super(CsvDataset, self).__init__(v, types, shapes)


def _file_names(file_pattern):
  patterns = file_pattern if isinstance(file_pattern, (list, tuple)) else [file_pattern]
  names = []
  for p in patterns:
    p = p.decode() if isinstance(p, bytes) else p
    names.extend(sorted(_glob.glob(p)))
  if not names:
    raise ValueError("No files match `file_pattern` %s." % (file_pattern,))
  return names


def _is_valid_int(s, lo, hi):
  try:
    v = int(s)
  except ValueError:
    return False
  return lo <= v <= hi


def _is_valid_float(s, np_type):
  try:
    return np_type(s) < _np.inf
  except ValueError:
    return False


def _infer_type(s, na_value, prev):
  if s in ("", na_value):
    return prev
  order = [_dtypes.int32, _dtypes.int64, _dtypes.float32, _dtypes.float64, _dtypes.string]
  checks = [lambda v: _is_valid_int(v, -2 ** 31, 2 ** 31 - 1),
            lambda v: _is_valid_int(v, -2 ** 63, 2 ** 63 - 1),
            lambda v: _is_valid_float(v, _np.float32),
            lambda v: _is_valid_float(v, _np.float64),
            lambda v: True]
  for i, t in enumerate(order):
    if checks[i](s) and (prev is None or prev in order[:i + 1]):
      return t
  return _dtypes.string


def _reader(path, compression_type):
  if compression_type == "GZIP":
    return _gzip.open(path, "rt", encoding="utf-8", newline="")
  if compression_type == "ZLIB":
    raise ValueError("`compression_type` ZLIB is not supported for probing columns.")
  return open(path, "r", encoding="utf-8", newline="")


def make_csv_dataset(file_pattern, batch_size, column_names=None, column_defaults=None, label_name=None,
                     select_columns=None, field_delim=",", use_quote_delim=True, na_value="", header=True,
                     num_epochs=None, shuffle=True, shuffle_buffer_size=10000, shuffle_seed=None,
                     prefetch_buffer_size=None, num_parallel_reads=None, sloppy=False,
                     num_rows_for_inference=100, compression_type=None, ignore_errors=False):
  """Batches of CSV records as (features dict[, label]) (TF's pipeline):
  column names from the header, column types inferred from the first
  num_rows_for_inference rows (int32, int64, float32, float64 or string;
  default 0 or ""), files read through parallel_interleave, shuffled with
  shuffle_seed, repeated num_epochs times (None: forever, whole batches)."""
  from tfc.data import experimental as _experimental  # pylint: disable=g-import-not-at-top
  filenames = _file_names(file_pattern)
  dataset = _dops.Dataset.from_tensor_slices(_np.array(filenames, dtype=object))
  if shuffle:
    dataset = dataset.shuffle(len(filenames), shuffle_seed)
  quoting = _csv.QUOTE_MINIMAL if use_quote_delim else _csv.QUOTE_NONE
  if column_names is None:
    if not header:
      raise ValueError("Expected `column_names` or `header` arguments. Neither is provided.")
    names = None
    for path in filenames:
      with _reader(path, compression_type) as f:
        try:
          row = next(_csv.reader(f, delimiter=field_delim, quoting=quoting))
        except StopIteration:
          raise ValueError("Failed when reading the header line of %s. Is it an empty file?" % path) from None
      if names is None:
        names = row
      elif row != names:
        raise ValueError("All input CSV files should have the same column names in the header row. "
                         "File %s has different column names." % path)
    column_names = names
  column_names = list(column_names)
  if len(column_names) != len(set(column_names)):
    raise ValueError("Either `column_names` argument or CSV header row contains duplicate column names.")
  if select_columns is not None:
    idx = []
    for c in select_columns:
      if isinstance(c, int):
        if not 0 <= c < len(column_names):
          raise ValueError("Column index %d specified in `select_columns` should be > 0 and <= %d."
                           % (c, len(column_names)))
        idx.append(c)
      elif c in column_names:
        idx.append(column_names.index(c))
      else:
        raise ValueError("Column %s, specified in `select_columns`, not found." % (c,))
    select_columns = sorted(idx)
  if column_defaults is not None:
    column_defaults = [_ops.convert_to_tensor(_np.zeros([0], d.as_numpy_dtype) if d != _dtypes.string
                                              else _np.array([], object), dtype=d)
                       if isinstance(d, _dtypes.DType) and d in _ACCEPTABLE else d for d in column_defaults]
  else:
    cols = select_columns if select_columns is not None else list(range(len(column_names)))
    inferred = [None] * len(cols)
    count = 0
    for path in filenames:
      with _reader(path, compression_type) as f:
        rows = _csv.reader(f, delimiter=field_delim, quoting=quoting)
        if header:
          next(rows, None)
        for row in rows:
          if num_rows_for_inference is not None and count >= num_rows_for_inference:
            break
          if not row:
            continue
          if len(row) != len(column_names):
            raise ValueError("Problem inferring types: CSV row has different number of fields than "
                             "expected.")
          for j, c in enumerate(cols):
            inferred[j] = _infer_type(row[c], na_value, inferred[j])
          count += 1
    column_defaults = [_ops.convert_to_tensor([0 if (t or _dtypes.string) != _dtypes.string else ""],
                                              dtype=t or _dtypes.string) for t in inferred]
  if select_columns is not None and len(column_defaults) != len(select_columns):
    raise ValueError("If specified, `column_defaults` and `select_columns` must have the same length.")
  if select_columns is not None and len(column_names) > len(select_columns):
    column_names = [column_names[i] for i in select_columns]
  if label_name is not None and label_name not in column_names:
    raise ValueError("`label_name` provided must be one of the columns: %s. Received: %s."
                     % (column_names, label_name))

  def filename_to_dataset(filename):
    ds = CsvDataset(filename, record_defaults=column_defaults, field_delim=field_delim,
                    use_quote_delim=use_quote_delim, na_value=na_value, select_cols=select_columns,
                    header=header, compression_type=compression_type)
    if ignore_errors:
      ds = ds.apply(_experimental.ignore_errors())
    return ds

  def map_fn(*columns):
    features = _collections.OrderedDict(zip(column_names, columns))
    if label_name is not None:
      label = features.pop(label_name)
      return features, label
    return features

  reads = 1 if num_parallel_reads is None else num_parallel_reads
  dataset = dataset.apply(_experimental.parallel_interleave(filename_to_dataset, cycle_length=reads,
                                                            sloppy=sloppy))
  if shuffle:
    dataset = dataset.shuffle(shuffle_buffer_size, shuffle_seed)
  if num_epochs != 1:
    dataset = dataset.repeat(num_epochs)
  dataset = dataset.batch(batch_size, drop_remainder=num_epochs is None)
  dataset = dataset.map(map_fn)
  return dataset.prefetch(-1 if prefetch_buffer_size is None else prefetch_buffer_size)
