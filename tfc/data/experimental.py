"""tf.data.experimental basics (TF 1.15)."""
import enum as _enum

from tfc.data.dataset_ops import Dataset as _Dataset
from tfc.data.options import (AutoShardPolicy, AutotuneAlgorithm, AutotuneOptions,  # noqa: F401
                              DistributeOptions, OptimizationOptions, ThreadingOptions)
from tfc.data.grouping import (group_by_window, group_by_reducer, Reducer,  # noqa: F401
                               bucket_by_sequence_length, from_list, pad_to_cardinality)
from tfc.data.readers import CsvDataset, make_csv_dataset  # noqa: F401
from tfc.data.optional_ops import Optional, get_next_as_optional  # noqa: F401
from tfc.data.structure import (Structure, TensorStructure, SparseTensorStructure,  # noqa: F401
                                TensorArrayStructure, OptionalStructure, DatasetStructure,
                                get_structure)

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


# ---- transformations and datasets running as TF's experimental dataset ops ----

def _apply(op_type, dataset, inputs=(), types=None, shapes=None, extra=None, sources=None):
  """A dataset of op_type over dataset (and extra input tensors)."""
  from tfc.data import dataset_ops as _dops  # pylint: disable=g-import-not-at-top
  ds = dataset._unary(op_type, inputs, types=types, shapes=shapes, extra=extra)  # pylint: disable=protected-access
  if sources:
    _dops._derived(ds, dataset, *sources)  # pylint: disable=protected-access
  return ds


def ignore_errors(log_warning=False):
  """A transformation for Dataset.apply: drops the elements whose computation
  failed (IgnoreErrorsDataset); the iterator goes on with the next one."""
  def _apply_fn(dataset):
    return _apply("IgnoreErrorsDataset", dataset, extra={"log_warning": bool(log_warning)})
  return _apply_fn


def assert_cardinality(expected_cardinality):
  """A transformation for Dataset.apply: the same elements, with cardinality
  expected_cardinality; iterating fails with FailedPreconditionError as soon
  as the input turns out to have fewer or more elements."""
  def _apply_fn(dataset):
    from tfc import dtypes as _dtypes  # pylint: disable=g-import-not-at-top
    from tfc.framework import ops as _ops  # pylint: disable=g-import-not-at-top
    c = _ops.convert_to_tensor(expected_cardinality, dtype=_dtypes.int64, name="cardinality")
    return _apply("AssertCardinalityDataset", dataset, [c])
  return _apply_fn


def unique():
  """A transformation for Dataset.apply: drops elements equal to an earlier
  one (datasets of one int32, int64 or string component)."""
  def _apply_fn(dataset):
    from tfc import dtypes as _dtypes  # pylint: disable=g-import-not-at-top
    from tfc.data.dataset_ops import _flat  # pylint: disable=g-import-not-at-top
    flat = _flat(dataset.output_types)
    if len(flat) != 1:
      raise TypeError("Unique transformation only supports datasets with a single component.")
    if flat[0] not in (_dtypes.int32, _dtypes.int64, _dtypes.string):
      raise TypeError("`tf.data.Dataset.unique` does not support type %r -- only `tf.int32`, "
                      "`tf.int64`, and `tf.string` are supported." % (flat[0],))
    return _apply("UniqueDataset", dataset)
  return _apply_fn


def take_while(predicate):
  """A transformation for Dataset.apply: the elements up to (not including)
  the first one for which predicate returns False."""
  def _apply_fn(dataset):
    from tfc import dtypes as _dtypes  # pylint: disable=g-import-not-at-top
    from tfc.data import dataset_ops as _dops  # pylint: disable=g-import-not-at-top
    from tfc.framework.op_def_library import _apply_op  # pylint: disable=g-import-not-at-top
    traced, _ = dataset._trace(predicate, "take_while")  # pylint: disable=protected-access
    if len(traced.output_types) != 1 or _dtypes.as_dtype(traced.output_types[0]) != _dtypes.bool:
      raise ValueError("`predicate` must return a scalar boolean tensor, but its return type is %s."
                       % (traced.output_types,))
    attrs = dict(dataset._flat_attrs(), predicate=traced.name)  # pylint: disable=protected-access
    v = _apply_op("TakeWhileDataset", "TakeWhileDataset",
                  [dataset._variant, list(traced.captured_inputs)], attrs).outputs[0]  # pylint: disable=protected-access
    return _dops._derived(_dops.Dataset(v, dataset.output_types, dataset.output_shapes), dataset)  # pylint: disable=protected-access
  return _apply_fn


def scan(initial_state, scan_func):
  """A transformation for Dataset.apply: carries a state through the
  elements. scan_func(state, element) returns (new_state, output_element);
  the new state must keep the initial state's structure and dtypes (its
  shapes may vary: they are relaxed and the function traced again, as TF does)."""
  def _apply_fn(dataset):
    return _scan(dataset, initial_state, scan_func)
  return _apply_fn


def _scan(dataset, initial_state, scan_func):
  from tfc import dtypes as _dtypes  # pylint: disable=g-import-not-at-top
  from tfc.data import dataset_ops as _dops  # pylint: disable=g-import-not-at-top
  from tfc.framework import function as _function  # pylint: disable=g-import-not-at-top
  from tfc.framework import ops as _ops  # pylint: disable=g-import-not-at-top
  from tfc.framework import tensor_shape as _tensor_shape  # pylint: disable=g-import-not-at-top
  from tfc.framework.op_def_library import _apply_op  # pylint: disable=g-import-not-at-top
  flat_init = [_ops.convert_to_tensor(t, name="initial_state") for t in _dops._flat(initial_state)]  # pylint: disable=protected-access
  state_types = [t.dtype for t in flat_init]
  state_shapes = [t.shape for t in flat_init]
  el_types = _dops._flat(dataset.output_types)  # pylint: disable=protected-access
  el_shapes = _dops._flat(dataset.output_shapes)  # pylint: disable=protected-access
  ns = len(flat_init)

  for _ in range(2):
    box = {}

    def body(*args):
      state = _dops._pack(initial_state, list(args[:ns]))  # pylint: disable=protected-access
      element = _dops._pack(dataset.output_types, list(args[ns:]))  # pylint: disable=protected-access
      if isinstance(element, tuple) and not hasattr(element, "_fields"):
        result = scan_func(state, *element)
      else:
        result = scan_func(state, element)
      if not isinstance(result, tuple) or len(result) != 2:
        raise TypeError("The scan function must return a pair comprising the new state and the "
                        "output value.")
      new_state, output = result
      flat_new = _dops._own_tensors(_dops._flat(new_state))  # pylint: disable=protected-access
      if len(flat_new) != ns:
        raise TypeError("The element structure for the new state must match the initial state.")
      for a, b in zip(flat_new, state_types):
        if a.dtype != b:
          raise TypeError("Invalid `scan_func`. The element types for the new state must match "
                          "the initial state. Expected %r, got %r." % (b, a.dtype))
      flat_out = _dops._own_tensors(_dops._flat(output))  # pylint: disable=protected-access
      box["state_shapes"] = [x.shape for x in flat_new]
      box["output"] = output
      return tuple(flat_new + flat_out)
    body.__name__ = "scan_%s" % getattr(scan_func, "__name__", "fn")
    traced = _function.trace(body, state_types + el_types, state_shapes + el_shapes)
    relaxed = [_dops._most_specific_compatible(a, b)  # pylint: disable=protected-access
               for a, b in zip(state_shapes, box["state_shapes"])]
    if all(a.as_list() == b.as_list() if a.ndims is not None and b.ndims is not None else
           a.ndims == b.ndims for a, b in zip(relaxed, state_shapes)):
      break
    state_shapes = relaxed
  traced.add_to_graph(_ops.get_default_graph())
  out_types = [_dtypes.as_dtype(t) for t in traced.output_types[ns:]]
  out_shapes = [_tensor_shape.as_shape(s) for s in traced.output_shapes[ns:]]
  types = _dops._pack(box["output"], out_types)  # pylint: disable=protected-access
  shapes = _dops._pack(box["output"], out_shapes)  # pylint: disable=protected-access
  attrs = {"f": traced.name, "output_types": out_types,
           "output_shapes": [_dops._shape_attr(s) for s in out_shapes],  # pylint: disable=protected-access
           "preserve_cardinality": True}
  v = _apply_op("ScanDataset", "ScanDataset",
                [dataset._variant, flat_init, list(traced.captured_inputs)], attrs).outputs[0]  # pylint: disable=protected-access
  return _dops._derived(_dops.Dataset(v, types, shapes), dataset)  # pylint: disable=protected-access


def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=False):
  """A dataset taking each element from datasets[i] for the next i of
  choice_dataset (scalar int64 elements) (DirectedInterleaveDataset). An
  exhausted input is skipped (or, with stop_on_empty_dataset, ends the
  dataset); the dataset ends with choice_dataset or when all inputs are
  exhausted."""
  from tfc import dtypes as _dtypes  # pylint: disable=g-import-not-at-top
  from tfc.data import dataset_ops as _dops  # pylint: disable=g-import-not-at-top
  from tfc.framework.op_def_library import _apply_op  # pylint: disable=g-import-not-at-top
  datasets = list(datasets)
  if not datasets:
    raise ValueError("Invalid `datasets`. `datasets` should not be empty.")
  if not isinstance(choice_dataset, _Dataset):
    raise TypeError("Invalid `choice_dataset`. `choice_dataset` should be a `tf.data.Dataset`, "
                    "but got %s." % type(choice_dataset))
  if (choice_dataset.output_types != _dtypes.int64 or
      not _dops._flat(choice_dataset.output_shapes)[0].is_compatible_with([])):  # pylint: disable=protected-access
    raise TypeError("Invalid `choice_dataset`. Elements of `choice_dataset` must be scalar "
                    "`tf.int64` tensors but are %r." % (choice_dataset.element_spec,))
  types = datasets[0].output_types
  flat_types = _dops._flat(types)  # pylint: disable=protected-access
  flat_shapes = _dops._flat(datasets[0].output_shapes)  # pylint: disable=protected-access
  for d in datasets[1:]:
    if _dops._flat(d.output_types) != flat_types:  # pylint: disable=protected-access
      raise TypeError("All datasets must have the same type: %s and %s"
                      % (types, d.output_types))
    flat_shapes = [_dops._most_specific_compatible(a, b)  # pylint: disable=protected-access
                   for a, b in zip(flat_shapes, _dops._flat(d.output_shapes))]  # pylint: disable=protected-access
  shapes = _dops._pack(types, flat_shapes)  # pylint: disable=protected-access
  attrs = {"output_types": flat_types,
           "output_shapes": [_dops._shape_attr(s) for s in flat_shapes],  # pylint: disable=protected-access
           "stop_on_empty_dataset": bool(stop_on_empty_dataset)}
  v = _apply_op("DirectedInterleaveDataset", "DirectedInterleaveDataset",
                [choice_dataset._variant, [d._variant for d in datasets]], attrs).outputs[0]  # pylint: disable=protected-access
  return _dops._derived(_dops.Dataset(v, types, shapes), choice_dataset, *datasets)  # pylint: disable=protected-access


class RandomDataset(_Dataset):
  """An infinite dataset of pseudorandom int64 scalars in [0, 2**32): TF's
  RandomDataset stream for the given seed (the graph seed joins as in
  tf.random ops; no seed at all gives a different stream per dataset)."""

  def __init__(self, seed=None):
    from tfc import dtypes as _dtypes  # pylint: disable=g-import-not-at-top
    from tfc.framework import ops as _ops  # pylint: disable=g-import-not-at-top
    from tfc.framework import random_seed as _random_seed  # pylint: disable=g-import-not-at-top
    from tfc.framework import tensor_shape as _tensor_shape  # pylint: disable=g-import-not-at-top
    from tfc.framework.op_def_library import _apply_op  # pylint: disable=g-import-not-at-top
    seed1, seed2 = _random_seed.get_seed(seed)
    if seed1 is None:
      seed1, seed2 = 0, 0
    ins = [_ops.convert_to_tensor(seed1, dtype=_dtypes.int64, name="seed"),
           _ops.convert_to_tensor(seed2, dtype=_dtypes.int64, name="seed2")]
    v = _apply_op("RandomDataset", "RandomDataset", ins,
                  {"output_types": [_dtypes.int64], "output_shapes": [[]]}).outputs[0]
    super(RandomDataset, self).__init__(v, _dtypes.int64, _tensor_shape.TensorShape([]))
