"""tf.data.experimental basics (TF 1.15)."""
import enum as _enum

from tfc.data.dataset_ops import Dataset as _Dataset

AUTOTUNE = -1
INFINITE_CARDINALITY = -1
UNKNOWN_CARDINALITY = -2


class ExternalStatePolicy(_enum.Enum):
  """How make_saveable_from_iterator treats datasets whose state lies
  outside the graph (from_generator): TF's enum values."""
  WARN = 0
  IGNORE = 1
  FAIL = 2


def unbatch():
  """A transformation for Dataset.apply: splits each element's first
  dimension into separate elements (a flat_map over from_tensor_slices)."""
  def _apply(ds):
    return ds.flat_map(lambda *x: _Dataset.from_tensor_slices(x[0] if len(x) == 1 else x))
  return _apply


def map_and_batch(map_func, batch_size, num_parallel_batches=None, drop_remainder=False,
                  num_parallel_calls=None):
  """A transformation for Dataset.apply: map then batch (the fused op's
  elements; num_parallel_calls, or num_parallel_batches * batch_size, maps in
  parallel)."""
  if num_parallel_batches is not None and num_parallel_calls is not None:
    raise ValueError("`num_parallel_batches` and `num_parallel_calls` are mutually exclusive.")

  def _apply(ds):
    calls = num_parallel_calls
    if calls is None and num_parallel_batches is not None:
      calls = num_parallel_batches * batch_size if isinstance(batch_size, int) else num_parallel_batches
    return ds.map(map_func, num_parallel_calls=calls).batch(batch_size, drop_remainder=drop_remainder)
  return _apply


def Counter(start=0, step=1, dtype=None):  # pylint: disable=invalid-name
  """A dataset counting from start by step without end (RangeDataset up to
  the dtype's limit)."""
  from tfc import dtypes as _dtypes  # pylint: disable=g-import-not-at-top
  dtype = _dtypes.as_dtype(dtype or _dtypes.int64)
  stop = dtype.max if step > 0 else dtype.min
  ds = _Dataset.range(start, stop, step)
  return ds if dtype == _dtypes.int64 else ds.map(lambda x: _cast(x, dtype))


def _cast(x, dtype):
  from tfc.ops import math_ops as _math_ops  # pylint: disable=g-import-not-at-top
  return _math_ops.cast(x, dtype)


def enumerate_dataset(start=0):
  """A transformation for Dataset.apply: pairs (index, element), counting from start."""
  def _apply(ds):
    return _Dataset.zip((Counter(start), ds))
  return _apply


def to_variant(dataset):
  """The dataset's DT_VARIANT handle tensor."""
  return dataset._variant  # pylint: disable=protected-access


def from_variant(variant, structure):
  """A Dataset over a DT_VARIANT handle; structure: (output_types, output_shapes)."""
  types, shapes = structure
  return _Dataset(variant, types, shapes)


def shuffle_and_repeat(buffer_size, count=None, seed=None):
  """Returns a transformation for Dataset.apply: shuffle then repeat (each epoch reshuffled)."""
  def _apply(ds):
    return ds.shuffle(buffer_size, seed=seed).repeat(count)
  return _apply


def cardinality(dataset):
  """Returns the number of elements of `dataset` as a scalar int64 tensor:
  INFINITE_CARDINALITY (-1) for a dataset repeated without end,
  UNKNOWN_CARDINALITY (-2) where it cannot be known without iterating
  (filter, flat_map, interleave, files, from_generator, and map, whose
  TF 1.x op does not keep its input's count)."""
  from tfc.framework.op_def_library import _apply_op  # pylint: disable=g-import-not-at-top
  if not isinstance(dataset, _Dataset):
    raise TypeError("`dataset` must be a `tf.data.Dataset` object.")
  return _apply_op("DatasetCardinality", "DatasetCardinality", [dataset._variant]).outputs[0]  # pylint: disable=protected-access


def get_single_element(dataset):
  """The only element of dataset, as tensors (OutOfRangeError if empty when run)."""
  return dataset.take(1).make_one_shot_iterator().get_next()


def parallel_interleave(map_func, cycle_length, block_length=1, sloppy=False,
                        buffer_output_elements=None, prefetch_input_elements=None):
  """A transformation for Dataset.apply: interleave with cycle_length worker
  threads reading the inner datasets ahead (each buffering up to
  buffer_output_elements, default 2). The order is interleave's unless
  sloppy, which hands out whichever element is ready first."""
  def _apply(ds):
    return ds._parallel_interleave(map_func, cycle_length, block_length, sloppy,  # pylint: disable=protected-access
                                   buffer_output_elements, prefetch_input_elements)
  return _apply


class TFRecordWriter(object):
  """Writes a dataset of scalar strings to a TFRecord file
  (DatasetToTFRecord): `write(dataset)` returns the op that writes it."""

  def __init__(self, filename, compression_type=None):
    from tfc import dtypes as _dtypes  # pylint: disable=g-import-not-at-top
    from tfc.framework import ops as _ops  # pylint: disable=g-import-not-at-top
    self._filename = _ops.convert_to_tensor(filename, _dtypes.string, name="filename")
    self._compression_type = _ops.convert_to_tensor(compression_type or "", _dtypes.string,
                                                    name="compression_type")

  def write(self, dataset):
    from tfc import dtypes as _dtypes  # pylint: disable=g-import-not-at-top
    from tfc.framework.op_def_library import _apply_op  # pylint: disable=g-import-not-at-top
    if (not isinstance(dataset, _Dataset) or dataset.output_types != _dtypes.string
        or dataset.output_shapes.ndims != 0):
      raise TypeError("Invalid `dataset`. Expected a`dataset` that produces scalar `tf.string` elements, "
                      "but got a dataset which produces elements with shapes %s and types %s."
                      % (getattr(dataset, "output_shapes", None), getattr(dataset, "output_types", None)))
    return _apply_op("DatasetToTFRecord", "DatasetToTFRecord",
                     [dataset._variant, self._filename, self._compression_type])  # pylint: disable=protected-access


_EXTERNAL_STATE_POLICIES = {"warn": 0, "ignore": 1, "fail": 2}


def _iterator_saveable_class():
  """The SaveableObject subclass for iterators (made on first use: the Saver
  module loads lazily)."""
  from tfc.train import saver as _saver  # pylint: disable=g-import-not-at-top
  from tfc.framework.op_def_library import _apply_op  # pylint: disable=g-import-not-at-top

  class _IteratorSaveable(_saver.SaveableObject):
    """An iterator's position: saved through SerializeIterator, restored with
    DeserializeIterator (the iterator must have been initialized first)."""

    def __init__(self, iterator_resource, name, external_state_policy):
      serialized = _apply_op("SerializeIterator", "SerializeIterator", [iterator_resource],
                             {"external_state_policy": external_state_policy}).outputs[0]
      specs = [_saver.SaveSpec(serialized, "", name + "_STATE", dtype=serialized.dtype,
                               device=iterator_resource.device)]
      super(_IteratorSaveable, self).__init__(iterator_resource, specs, name)

    def restore(self, restored_tensors, restored_shapes):
      return _apply_op("DeserializeIterator", "DeserializeIterator", [self.op, restored_tensors[0]])

  return _IteratorSaveable


def make_saveable_from_iterator(iterator, external_state_policy=None):
  """A SaveableObject that saves and restores an iterator's position.

  Add it to the SAVEABLE_OBJECTS collection (or a Saver's var_list) so that
  `Saver.save` records where the iterator is (buffered shuffle elements,
  repeat counts, open files and interleaved inputs included) and
  `Saver.restore`, after the iterator's initializer has run, continues from
  there. external_state_policy: 'fail' (default: a from_generator dataset
  raises FailedPreconditionError when saved), 'warn' or 'ignore' (such
  datasets save no position and restart when restored).
  """
  if isinstance(external_state_policy, ExternalStatePolicy):
    external_state_policy = external_state_policy.value
  if isinstance(external_state_policy, int) and not isinstance(external_state_policy, bool):
    external_state_policy = {0: "warn", 1: "ignore", 2: "fail"}.get(external_state_policy, "?")
  policy = _EXTERNAL_STATE_POLICIES.get(external_state_policy or "fail")
  if policy is None:
    raise ValueError("external_state_policy must be one of 'warn', 'ignore' or 'fail', got %r"
                     % (external_state_policy,))
  resource = iterator._iterator_resource  # pylint: disable=protected-access
  return _iterator_saveable_class()(resource, resource.name, policy)



def parse_example_dataset(features, num_parallel_calls=1, deterministic=None):
  """A transformation for Dataset.apply: parses each element, a vector of
  serialized Examples, into a dict of features as tf.parse_example does
  (FixedLenFeature, VarLenFeature as SparseTensor components,
  FixedLenSequenceFeature, SparseFeature). num_parallel_calls elements are
  parsed at once, in order."""
  del deterministic  # results come in order
  if features is None:
    raise ValueError("Argument `features` is required, but not specified.")
  from tfc import dtypes as _dtypes  # pylint: disable=g-import-not-at-top
  from tfc.ops import parsing_ops as _parsing_ops  # pylint: disable=g-import-not-at-top

  def _apply(ds):
    if ds.output_types != _dtypes.string:
      raise TypeError("Input dataset should be a dataset of vectors of strings")
    calls = None if num_parallel_calls in (None, 1) else num_parallel_calls
    out = ds.map(lambda x: _parsing_ops.parse_example(x, features), num_parallel_calls=calls)
    return _with_parsed_sparse_shapes(out, ds.output_shapes, features)
  return _apply


def _with_parsed_sparse_shapes(ds, input_shape, features):
  """ds with TF's static shapes for the sparse components of a parsed batch:
  [batch, None] for a VarLenFeature, [batch] + size for a SparseFeature."""
  from tfc.framework import tensor_shape as _tensor_shape  # pylint: disable=g-import-not-at-top
  from tfc.ops import parsing_ops as _parsing_ops  # pylint: disable=g-import-not-at-top
  sparse = getattr(ds, "_sparse", None)
  if not isinstance(sparse, dict):
    return ds
  batch = _tensor_shape.as_shape(input_shape)
  batch = batch if batch.ndims is not None else _tensor_shape.TensorShape([None])
  sparse = dict(sparse)
  for key, info in sparse.items():
    f = features.get(key)
    if info is None or f is None:
      continue
    if isinstance(f, _parsing_ops.VarLenFeature):
      rest = [None]
    elif isinstance(f, _parsing_ops.SparseFeature):
      sizes = [f.size] if isinstance(f.index_key, str) else list(f.size)
      rest = [s if isinstance(s, int) else None for s in sizes]
    else:
      continue
    sparse[key] = (info[0], batch.concatenate(rest))
  ds._sparse = sparse  # pylint: disable=protected-access
  return ds


def make_batched_features_dataset(file_pattern, batch_size, features, reader=None, label_key=None,
                                  reader_args=None, num_epochs=None, shuffle=True,
                                  shuffle_buffer_size=10000, shuffle_seed=None,
                                  prefetch_buffer_size=None, reader_num_threads=None,
                                  parser_num_threads=None, sloppy_ordering=False,
                                  drop_final_batch=False):
  """A dataset of batches of parsed Examples read from the files matching
  file_pattern, as TensorFlow builds it: list_files (shuffled with
  shuffle_seed unless shuffle=False), the reader (TFRecordDataset) over the
  files through parallel_interleave (reader_num_threads at a time),
  shuffle(shuffle_buffer_size, shuffle_seed), repeat(num_epochs; None:
  forever), batch(batch_size; the last smaller batch dropped when
  drop_final_batch or num_epochs is None), parse_example_dataset(features)
  and prefetch. With label_key each element is (features, label)."""
  from tfc.data import dataset_ops as _dataset_ops  # pylint: disable=g-import-not-at-top
  from tfc import dtypes as _dtypes  # pylint: disable=g-import-not-at-top
  if reader is None:
    reader = _dataset_ops.TFRecordDataset
  if isinstance(reader, type) and not issubclass(reader, _Dataset):
    raise TypeError("The `reader` argument must return a `Dataset` object. `tf.ReaderBase` "
                    "subclasses are not supported. For example, pass `tf.data.TFRecordDataset` "
                    "instead of `tf.TFRecordReader`.")
  reader_num_threads = 1 if reader_num_threads is None else reader_num_threads
  parser_num_threads = 2 if parser_num_threads is None else parser_num_threads
  prefetch_buffer_size = AUTOTUNE if prefetch_buffer_size is None else prefetch_buffer_size
  reader_args = list(reader_args or [])
  if label_key and label_key not in features:
    raise ValueError("The `label_key` provided (%s) must be one of the `features` keys: %s."
                     % (label_key, features.keys()))
  ds = _Dataset.list_files(file_pattern, shuffle=shuffle, seed=shuffle_seed)
  if reader_num_threads == AUTOTUNE:
    ds = ds.interleave(lambda filename: reader(filename, *reader_args), num_parallel_calls=1)
  else:
    ds = ds.apply(parallel_interleave(lambda filename: reader(filename, *reader_args),
                                      cycle_length=reader_num_threads, sloppy=sloppy_ordering))
  if ds.output_types == (_dtypes.string, _dtypes.string):
    ds = ds.map(lambda _, v: v)
  if shuffle:
    ds = ds.shuffle(shuffle_buffer_size, shuffle_seed)
  if num_epochs != 1:
    ds = ds.repeat(num_epochs)
  ds = ds.batch(batch_size, drop_remainder=drop_final_batch or num_epochs is None)
  ds = ds.apply(parse_example_dataset(features, num_parallel_calls=parser_num_threads))
  if label_key:
    ds = ds.map(lambda x: (x, x.pop(label_key)))
  return ds.prefetch(prefetch_buffer_size)


_ = _Dataset
