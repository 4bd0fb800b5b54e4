"""tf.data.Dataset and tf.data.Iterator (TF 1.15) over tfc's C dataset ops.

A Dataset is a graph tensor of dtype variant (the op that makes it) plus
the nested structure of its elements (types and static shapes). Iterators
are resources: `make_one_shot_iterator` makes its iterator the first time it
runs, `make_initializable_iterator` and `Iterator.from_structure` need their
initializer run first (FailedPreconditionError otherwise), and `get_next`
raises OutOfRangeError at the end of the data.
"""
import numpy as _np

from tfc import dtypes as _dtypes
from tfc.framework import ops as _ops
from tfc.framework import random_seed as _random_seed
from tfc.framework import tensor_shape as _tensor_shape
from tfc.framework.op_def_library import _apply_op


def _shape_attr(s):
  s = _tensor_shape.as_shape(s)
  return None if s.dims is None else [d if d is not None else -1 for d in s.as_list()]


# tf.data's element structures: tuples (named too) and dicts nest; a list is
# one value (converted to a tensor), as in TensorFlow's tf.data.
def _flat(structure):
  if isinstance(structure, dict):
    return [x for k in sorted(structure) for x in _flat(structure[k])]
  if isinstance(structure, tuple):
    return [x for v in structure for x in _flat(v)]
  return [structure]


def _pack(structure, flat):
  it = iter(flat)

  def build(s):
    if isinstance(s, dict):
      return type(s)((k, build(s[k])) for k in sorted(s))
    if isinstance(s, tuple):
      items = [build(v) for v in s]
      return type(s)(*items) if hasattr(s, "_fields") else tuple(items)
    return next(it)
  return build(structure)


def _map(fn, structure):
  return _pack(structure, [fn(x) for x in _flat(structure)])


class _NestShim(object):
  flatten = staticmethod(_flat)
  pack_sequence_as = staticmethod(_pack)
  map_structure = staticmethod(_map)


_nest = _NestShim()


class Dataset(object):
  """A sequence of elements, each a nested structure of tensors."""

  def __init__(self, variant, output_types, output_shapes, sparse=None):
    self._variant = variant
    self._types = output_types      # as the C ops see them (a sparse component: string [3])
    self._shapes = output_shapes
    self._sparse = sparse           # None, or per component None / (dtype, shape) of a SparseTensor
    self._inputs = ()         # the datasets this one transforms (their options apply to it)
    self._own_options = None  # what with_options set on this dataset

  def _as_variant_tensor(self):
    return self._variant

  def _public(self, kind, encoded):
    if self._sparse is None:
      if kind == "classes":
        from tfc.framework.ops import Tensor  # pylint: disable=g-import-not-at-top
        return _nest.map_structure(lambda _: Tensor, self._types)
      return encoded
    from tfc.data import sparse_elements  # pylint: disable=g-import-not-at-top
    return _pack(self._types, sparse_elements.public(_flat(encoded), _flat_sparse(self), kind))

  @property
  def output_types(self):
    return self._public("types", self._types)

  @property
  def output_shapes(self):
    return self._public("shapes", self._shapes)

  @property
  def output_classes(self):
    return self._public("classes", self._types)

  def _flat_attrs(self):
    return {"output_types": _flat(self._types),
            "output_shapes": [_shape_attr(s) for s in _flat(self._shapes)]}

  def _unary(self, op_type, inputs, types=None, shapes=None, extra=None):
    sparse = self._sparse if types is None else None
    types = self._types if types is None else types
    shapes = self._shapes if shapes is None else shapes
    attrs = {"output_types": _flat(types), "output_shapes": [_shape_attr(s) for s in _flat(shapes)]}
    if extra:
      attrs.update(extra)
    v = _apply_op(op_type, op_type, [self._variant] + list(inputs), attrs).outputs[0]
    return _derived(Dataset(v, types, shapes, sparse), self)

  # ---- sources ----

  @staticmethod
  def from_tensors(tensors):
    """A dataset of one element: tensors (SparseTensors too)."""
    flat, infos = _encode_components(_flat(tensors), many=False)
    types = _nest.pack_sequence_as(tensors, [t.dtype for t in flat])
    shapes = _nest.pack_sequence_as(tensors, [t.shape for t in flat])
    v = _apply_op("TensorDataset", "TensorDataset", [flat],
                  {"output_shapes": [_shape_attr(t.shape) for t in flat]}).outputs[0]
    return Dataset(v, types, shapes, _sparse_structure(tensors, infos))

  @staticmethod
  def from_tensor_slices(tensors):
    """A dataset of the rows (dimension-0 slices) of tensors (of a
    SparseTensor: the sparse rows, shaped as its dense shape without the
    first dimension)."""
    flat, infos = _encode_components(_flat(tensors), many=True)
    if not flat:
      raise ValueError("Expected at least one tensor in from_tensor_slices().")
    batch = _tensor_shape.Dimension(None)
    for t in flat:
      s = t.shape.with_rank_at_least(1)
      batch = batch.merge_with(s[0])
    types = _nest.pack_sequence_as(tensors, [t.dtype for t in flat])
    shapes = _nest.pack_sequence_as(tensors, [t.shape[1:] for t in flat])
    v = _apply_op("TensorSliceDataset", "TensorSliceDataset", [flat],
                  {"output_shapes": [_shape_attr(t.shape[1:]) for t in flat]}).outputs[0]
    return Dataset(v, types, shapes, _sparse_structure(tensors, infos))

  @staticmethod
  def range(*args, **kwargs):
    """Like Python's range: range(stop), range(start, stop[, step]); int64 elements."""
    output_type = kwargs.pop("output_type", _dtypes.int64)
    if kwargs:
      raise TypeError("Unexpected arguments %s" % list(kwargs))
    if len(args) == 1:
      start, stop, step = 0, args[0], 1
    elif len(args) == 2:
      start, stop, step = args[0], args[1], 1
    elif len(args) == 3:
      start, stop, step = args
    else:
      raise ValueError("Invalid arguments to range: %r" % (args,))
    ins = [_ops.convert_to_tensor(x, dtype=_dtypes.int64) for x in (start, stop, step)]
    output_type = _dtypes.as_dtype(output_type)
    v = _apply_op("RangeDataset", "RangeDataset", ins,
                  {"output_types": [output_type], "output_shapes": [[]]}).outputs[0]
    return Dataset(v, output_type, _tensor_shape.TensorShape([]))

  @staticmethod
  def zip(datasets):
    """Elements are the nested structure of the datasets' elements, in lockstep."""
    flat = _flat(datasets)
    types = _nest.pack_sequence_as(datasets, [d._types for d in flat])
    shapes = _nest.pack_sequence_as(datasets, [d._shapes for d in flat])
    sparse = None
    if any(d._sparse is not None for d in flat):
      sparse = _nest.pack_sequence_as(datasets, [
          d._sparse if d._sparse is not None else _map(lambda _: None, d._types) for d in flat])
    attrs = {"output_types": _flat(types), "output_shapes": [_shape_attr(s) for s in _flat(shapes)]}
    v = _apply_op("ZipDataset", "ZipDataset", [[d._variant for d in flat]], attrs).outputs[0]
    return _derived(Dataset(v, types, shapes, sparse), *flat)

  @staticmethod
  def from_generator(generator, output_types, output_shapes=None, args=None):
    """Elements from a Python generator: generator(*args) must return an
    iterable of elements of the given structure. The iterator calls it
    (taking the GIL only for the call); an exception it raises is re-raised
    by get_next as InvalidArgumentError("<Type>: <message>")."""
    if not callable(generator):
      raise TypeError("`generator` must be callable.")
    output_types = _map(_dtypes.as_dtype, output_types)
    if output_shapes is None:
      output_shapes = _map(lambda _: _tensor_shape.unknown_shape(), output_types)
    else:
      output_shapes = _pack(output_types, [_tensor_shape.as_shape(s)
                                           for s in _flatten_up_to(output_types, output_shapes)])
    token = _register_generator(generator, tuple(args) if args is not None else (),
                                output_types, output_shapes)
    attrs = {"token": token, "output_types": _flat(output_types),
             "output_shapes": [_shape_attr(x) for x in _flat(output_shapes)]}
    v = _apply_op("_PyGeneratorDataset", "GeneratorDataset", [], attrs).outputs[0]
    return Dataset(v, output_types, output_shapes)

  @staticmethod
  def list_files(file_pattern, shuffle=None, seed=None):
    """A dataset of the file names matching a glob pattern (sorted; shuffled unless shuffle=False)."""
    import glob  # pylint: disable=g-import-not-at-top
    patterns = file_pattern if isinstance(file_pattern, (list, tuple)) else [file_pattern]
    names = sorted(n for p in patterns for n in glob.glob(p.decode() if isinstance(p, bytes) else p))
    if not names:
      raise ValueError("No files matched pattern: %s" % (file_pattern,))
    ds = Dataset.from_tensor_slices(_np.array(names, dtype=object))
    if shuffle is None or shuffle:
      ds = ds.shuffle(len(names), seed=seed)
    return ds

  # ---- transformations ----

  def concatenate(self, dataset):
    """This dataset's elements, then dataset's."""
    if (_flat(self._types) != _flat(dataset._types) or
        _flat_sparse(self, dtypes_only=True) != _flat_sparse(dataset, dtypes_only=True)):
      raise TypeError("Two datasets to concatenate have different types %s and %s" %
                      (self.output_types, dataset.output_types))
    if self._sparse is not None and _flat_sparse(self) != _flat_sparse(dataset):
      raise TypeError("Two datasets to concatenate have different sparse shapes %s and %s" %
                      (self.output_shapes, dataset.output_shapes))
    shapes = _pack(self._shapes, [_most_specific_compatible(a, b) for a, b in
                                  zip(_flat(self._shapes), _flat(dataset._shapes))])
    attrs = {"output_types": _flat(self._types), "output_shapes": [_shape_attr(s) for s in _flat(shapes)]}
    v = _apply_op("ConcatenateDataset", "ConcatenateDataset", [self._variant, dataset._variant],
                  attrs).outputs[0]
    return _derived(Dataset(v, self._types, shapes, self._sparse), self, dataset)

  def batch(self, batch_size, drop_remainder=False):
    """Stacks batch_size consecutive elements (the last batch may be smaller
    unless drop_remainder)."""
    bs = _ops.convert_to_tensor(batch_size, dtype=_dtypes.int64, name="batch_size")
    dr = _ops.convert_to_tensor(drop_remainder, dtype=_dtypes.bool, name="drop_remainder")
    static_bs = batch_size if isinstance(batch_size, int) and drop_remainder is True else None
    shapes = _nest.map_structure(
        lambda s: _tensor_shape.TensorShape([static_bs]).concatenate(s), self._shapes)
    batched = self._unary("BatchDatasetV2", [bs, dr], shapes=shapes)
    if self._sparse is None:
      return batched
    return _restack_sparse(batched, self, static_bs)

  def padded_batch(self, batch_size, padded_shapes=None, padding_values=None, drop_remainder=False):
    """batch() padding each component to padded_shapes (None dims: the
    longest in the batch) with padding_values (default 0 / b"")."""
    if self._sparse is not None and any(x is not None for x in _flat_sparse(self)):
      raise TypeError("Batching of padded sparse tensors is not currently supported")
    if padded_shapes is None:
      padded_shapes = self._shapes
    flat_types = _flat(self._types)
    flat_pad = [_tensor_shape.as_shape(s) for s in _flatten_up_to(self._types, padded_shapes)]
    if padding_values is None:
      flat_vals = [_np.zeros([], t.as_numpy_dtype) if t != _dtypes.string else b"" for t in flat_types]
    else:
      flat_vals = _flat(padding_values)
    pad_tensors = [_ops.convert_to_tensor([d if d is not None else -1 for d in s.as_list()],
                                          dtype=_dtypes.int64) for s in flat_pad]
    val_tensors = [_ops.convert_to_tensor(v, dtype=t) for v, t in zip(flat_vals, flat_types)]
    bs = _ops.convert_to_tensor(batch_size, dtype=_dtypes.int64, name="batch_size")
    dr = _ops.convert_to_tensor(drop_remainder, dtype=_dtypes.bool, name="drop_remainder")
    static_bs = batch_size if isinstance(batch_size, int) and drop_remainder is True else None
    out_shapes = [_tensor_shape.TensorShape([static_bs]).concatenate(s) for s in flat_pad]
    attrs = {"Toutput_types": flat_types, "output_shapes": [_shape_attr(s) for s in out_shapes]}
    v = _apply_op("PaddedBatchDatasetV2", "PaddedBatchDatasetV2",
                  [self._variant, bs, pad_tensors, val_tensors, dr], attrs).outputs[0]
    return _derived(Dataset(v, self._types, _nest.pack_sequence_as(self._types, out_shapes)), self)

  def _padded_batch_with_filler(self, batch_size, padded_shapes, padding_values, drop_remainder, filler):
    """padded_batch whose unknown padded dimensions are the scalar int64
    tensor filler (None: the longest in the batch); batch_size may be a tensor."""
    if filler is None:
      return self.padded_batch(batch_size, padded_shapes, padding_values, drop_remainder)
    flat_types = _flat(self._types)
    flat_pad = [_tensor_shape.as_shape(s) for s in _flatten_up_to(self._types, padded_shapes)]
    if padding_values is None:
      flat_vals = [_np.zeros([], t.as_numpy_dtype) if t != _dtypes.string else b"" for t in flat_types]
    else:
      flat_vals = _flat(padding_values)
    from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
    pad_tensors = [array_ops.stack([filler if d is None else _ops.convert_to_tensor(d, dtype=_dtypes.int64)
                                    for d in s.as_list()]) if s.ndims else
                   _ops.convert_to_tensor(_np.zeros([0], _np.int64)) for s in flat_pad]
    val_tensors = [_ops.convert_to_tensor(v, dtype=t) for v, t in zip(flat_vals, flat_types)]
    bs = _ops.convert_to_tensor(batch_size, dtype=_dtypes.int64, name="batch_size")
    dr = _ops.convert_to_tensor(drop_remainder, dtype=_dtypes.bool, name="drop_remainder")
    out_shapes = [_tensor_shape.TensorShape([None]).concatenate([None] * s.ndims) for s in flat_pad]
    attrs = {"Toutput_types": flat_types, "output_shapes": [_shape_attr(s) for s in out_shapes]}
    v = _apply_op("PaddedBatchDatasetV2", "PaddedBatchDatasetV2",
                  [self._variant, bs, pad_tensors, val_tensors, dr], attrs).outputs[0]
    return _derived(Dataset(v, self._types, _nest.pack_sequence_as(self._types, out_shapes)), self)

  def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=None):
    """Randomly shuffles through a buffer of buffer_size elements; with fixed
    seeds the order is TensorFlow's."""
    seed1, seed2 = _random_seed.get_seed(seed)
    if seed1 is None:
      seed1, seed2 = 0, 0
    ins = [_ops.convert_to_tensor(buffer_size, dtype=_dtypes.int64, name="buffer_size"),
           _ops.convert_to_tensor(seed1, dtype=_dtypes.int64, name="seed"),
           _ops.convert_to_tensor(seed2, dtype=_dtypes.int64, name="seed2")]
    extra = {"reshuffle_each_iteration": True if reshuffle_each_iteration is None
             else bool(reshuffle_each_iteration)}
    return self._unary("ShuffleDataset", ins, extra=extra)

  def repeat(self, count=None):
    """Repeats count times (None or -1: forever)."""
    c = _ops.convert_to_tensor(-1 if count is None else count, dtype=_dtypes.int64, name="count")
    return self._unary("RepeatDataset", [c])

  def take(self, count):
    return self._unary("TakeDataset", [_ops.convert_to_tensor(count, dtype=_dtypes.int64, name="count")])

  def skip(self, count):
    return self._unary("SkipDataset", [_ops.convert_to_tensor(count, dtype=_dtypes.int64, name="count")])

  def cache(self, filename=""):
    """Keeps the elements of the first complete pass: in memory, or with a
    filename in TensorFlow's tensor-bundle cache files (read by later
    iterators, also across sessions and with TensorFlow)."""
    return self._unary("CacheDataset", [_ops.convert_to_tensor(filename, dtype=_dtypes.string,
                                                               name="filename")])

  def prefetch(self, buffer_size):
    """A thread per iterator keeps up to buffer_size elements ready."""
    return self._unary("PrefetchDataset", [_ops.convert_to_tensor(buffer_size, dtype=_dtypes.int64,
                                                                  name="buffer_size")])

  def apply(self, transformation_func):
    ds = transformation_func(self)
    if not isinstance(ds, Dataset):
      raise TypeError("`transformation_func` must return a Dataset.")
    return ds

  def _trace(self, func, what):
    """Traces func over this dataset's element (a tuple is passed as
    positional arguments, as TF does) into a function of the graph's library.
    Returns (traced function, the result's structure)."""
    from tfc.framework import function as _function  # pylint: disable=g-import-not-at-top
    flat_types = _flat(self._types)
    flat_shapes = _flat(self._shapes)
    box = {}

    def body(*args):
      args = list(args)
      if self._sparse is not None:
        from tfc.data import sparse_elements  # pylint: disable=g-import-not-at-top
        args = [a if info is None else sparse_elements.decode(a, info)
                for a, info in zip(args, _flat_sparse(self))]
      element = _pack(self._types, args)
      if isinstance(element, tuple) and not hasattr(element, "_fields"):
        result = func(*element)
      else:
        result = func(element)
      box["result"] = result
      if isinstance(result, Dataset):
        return result._variant
      flat, infos = _encode_flat(_flat(result))
      box["sparse"] = infos
      flat = _own_tensors(flat)
      return tuple(flat) if len(flat) != 1 else flat[0]
    g = _ops.get_default_graph()
    body.__name__ = "%s_%s" % (what, getattr(func, "__name__", "fn"))
    traced = _function.trace(body, flat_types, flat_shapes)  # named after body + a hash of it
    traced.add_to_graph(g)
    self._traced_sparse = box.get("sparse")
    return traced, box.get("result")

  def _function_dataset(self, op_type, func, what, extra_inputs=(), extra_attrs=None,
                        attr_name="f"):
    traced, result = self._trace(func, what)
    if what in ("flat_map", "interleave"):
      if not isinstance(result, Dataset):
        raise TypeError("`map_func` must return a `Dataset` object.")
      types, shapes = result._types, result._shapes
      sparse = result._sparse
    elif what == "filter":
      if len(traced.output_types) != 1 or traced.output_types[0] != _dtypes.bool:
        raise ValueError("`predicate` must return a scalar boolean tensor.")
      types, shapes = self._types, self._shapes
      sparse = self._sparse
    else:
      flat_t = [_dtypes.as_dtype(t) for t in traced.output_types]
      types = _pack(result, flat_t)
      shapes = _pack(result, [_tensor_shape.as_shape(x) for x in traced.output_shapes])
      infos = self._traced_sparse
      sparse = _pack(result, infos) if infos and any(i is not None for i in infos) else None
    attrs = {attr_name: traced.name, "output_types": _flat(types),
             "output_shapes": [_shape_attr(x) for x in _flat(shapes)]}
    if extra_attrs:
      attrs.update(extra_attrs)
    v = _apply_op(op_type, op_type, [self._variant, list(traced.captured_inputs)] + list(extra_inputs),
                  attrs).outputs[0]
    return _derived(Dataset(v, types, shapes, sparse), self)

  def map(self, map_func, num_parallel_calls=None):
    """Applies map_func (traced into a graph function) to each element; with
    num_parallel_calls several elements are mapped at once, results in order."""
    if num_parallel_calls is None:
      return self._function_dataset("MapDataset", map_func, "map")
    n = _ops.convert_to_tensor(num_parallel_calls, dtype=_dtypes.int32, name="num_parallel_calls")
    return self._function_dataset("ParallelMapDataset", map_func, "map", [n])

  def flat_map(self, map_func):
    """map_func returns a Dataset per element; their elements in order."""
    return self._function_dataset("FlatMapDataset", map_func, "flat_map")

  def interleave(self, map_func, cycle_length=None, block_length=None, num_parallel_calls=None):
    """Interleaves the datasets map_func returns: cycle_length open at once,
    block_length consecutive elements from each (TF's order)."""
    c = _ops.convert_to_tensor(cycle_length if cycle_length is not None else 1, dtype=_dtypes.int64,
                               name="cycle_length")
    b = _ops.convert_to_tensor(block_length if block_length is not None else 1, dtype=_dtypes.int64,
                               name="block_length")
    if num_parallel_calls is None:
      return self._function_dataset("InterleaveDataset", map_func, "interleave", [c, b])
    # worker threads run the cycle's inner datasets ahead; the order is the same
    n = _ops.convert_to_tensor(num_parallel_calls, dtype=_dtypes.int64, name="num_parallel_calls")
    return self._function_dataset("ParallelInterleaveDatasetV2", map_func, "interleave", [c, b, n])

  def _parallel_interleave(self, map_func, cycle_length, block_length, sloppy, buffer_output_elements,
                           prefetch_input_elements):
    """tf.data.experimental.parallel_interleave's dataset (ParallelInterleaveDataset)."""
    ins = [_ops.convert_to_tensor(cycle_length, dtype=_dtypes.int64, name="cycle_length"),
           _ops.convert_to_tensor(block_length, dtype=_dtypes.int64, name="block_length"),
           _ops.convert_to_tensor(bool(sloppy), dtype=_dtypes.bool, name="sloppy"),
           _ops.convert_to_tensor(2 if buffer_output_elements is None else buffer_output_elements,
                                  dtype=_dtypes.int64, name="buffer_output_elements"),
           _ops.convert_to_tensor(2 * cycle_length if prefetch_input_elements is None
                                  else prefetch_input_elements, dtype=_dtypes.int64,
                                  name="prefetch_input_elements")]
    return self._function_dataset("ParallelInterleaveDataset", map_func, "interleave", ins)

  def filter(self, predicate):
    """Keeps the elements for which predicate returns True."""
    return self._function_dataset("FilterDataset", predicate, "filter", attr_name="predicate")

  # ---- options and structure ----

  def with_options(self, options):
    """This dataset with options set (merged over the options it already has;
    the later value of an option wins). The dataset op is the same: the
    options are recorded on the Python object, as in TF 1.15."""
    from tfc.data import options as _options  # pylint: disable=g-import-not-at-top
    if not isinstance(options, _options.Options):
      raise TypeError("Argument `options` must be of type tf.data.Options, got %r" % (options,))
    ds = Dataset(self._variant, self._types, self._shapes, self._sparse)
    ds._inputs = (self,)
    ds._own_options = options
    return ds

  def options(self):
    """The options of this dataset and of the datasets it was made from, merged."""
    from tfc.data import options as _options  # pylint: disable=g-import-not-at-top
    found = []

    def walk(ds):
      for d in ds._inputs:
        walk(d)
      if ds._own_options is not None:
        found.append(ds._own_options)
    walk(self)
    return _options.merge_options(*found)

  @property
  def element_spec(self):
    """The structure of an element as tf.TensorSpec objects."""
    from tfc.framework import type_spec as _type_spec  # pylint: disable=g-import-not-at-top
    return _pack(self._types, [_type_spec.TensorSpec(s, t) for s, t in
                               zip(_flat(self._shapes), _flat(self._types))])

  # ---- iterators ----

  def make_one_shot_iterator(self):
    """An iterator that starts itself the first time it runs."""
    attrs = self._flat_attrs()
    h = _apply_op("_OneShotIterator", "OneShotIterator", [self._variant], attrs).outputs[0]
    return Iterator(h, None, self._types, self._shapes, _sparse=self._sparse)

  def make_initializable_iterator(self, shared_name=None):
    """An iterator whose `initializer` (re)starts it at the beginning."""
    attrs = self._flat_attrs()
    attrs.update({"shared_name": shared_name or "", "container": ""})
    h = _apply_op("IteratorV2", "Iterator", [], attrs).outputs[0]
    init = _apply_op("MakeIterator", "MakeIterator", [self._variant, h])
    return Iterator(h, init, self._types, self._shapes, _sparse=self._sparse)

  def __iter__(self):
    raise RuntimeError("dataset.__iter__() is only supported when eager execution is enabled.")


def _flat_sparse(ds, dtypes_only=False):
  """The flat sparse infos of a dataset or iterator (all None when dense)."""
  if ds._sparse is None:  # pylint: disable=protected-access
    return [None] * len(_flat(ds._types))  # pylint: disable=protected-access
  flat = _flat_up_to_types(ds._types, ds._sparse)  # pylint: disable=protected-access
  if dtypes_only:
    return [None if x is None else x[0] for x in flat]
  return flat


def _flat_up_to_types(types, sparse):
  """Flattens the sparse structure as deep as the types structure goes (its
  (dtype, shape) pairs stay whole)."""
  if isinstance(types, dict):
    return [x for k in sorted(types) for x in _flat_up_to_types(types[k], sparse[k])]
  if isinstance(types, tuple):
    return [x for t, v in zip(types, sparse) for x in _flat_up_to_types(t, v)]
  return [sparse]


def _encode_flat(flat):
  """Tensors for a traced function's flat results (SparseTensors encoded) and
  their sparse infos (None for dense results)."""
  out, infos = [], []
  for x in flat:
    if type(x).__name__ in ("SparseTensor", "SparseTensorValue"):
      from tfc.data import sparse_elements  # pylint: disable=g-import-not-at-top
      if sparse_elements.is_sparse(x):
        t, info = sparse_elements.encode(x)
        out.append(t)
        infos.append(info)
        continue
    out.append(_ops.convert_to_tensor(x))
    infos.append(None)
  return out, infos


def _encode_classes(types, shapes, classes):
  """(encoded types, encoded shapes, sparse structure) of an element
  structure whose output_classes name SparseTensor components."""
  if classes is None:
    return types, shapes, None
  flat_classes = _flatten_up_to(types, classes)
  if not any(getattr(c, "__name__", "") == "SparseTensor" for c in flat_classes):
    return types, shapes, None
  flat_t, flat_s, infos = [], [], []
  for t, sh, c in zip(_flat(types), _flat(shapes), flat_classes):
    if getattr(c, "__name__", "") == "SparseTensor":
      flat_t.append(_dtypes.string)
      flat_s.append(_tensor_shape.TensorShape([3]))
      infos.append((t, _tensor_shape.as_shape(sh)))
    else:
      flat_t.append(t)
      flat_s.append(sh)
      infos.append(None)
  return _pack(types, flat_t), _pack(types, flat_s), _pack(types, infos)


def _encode_components(flat, many):
  """Tensors for a source's flat components and their sparse infos: a
  SparseTensor becomes its SerializeSparse triple ([3]), or with many one
  triple per row ([N, 3], SerializeManySparse)."""
  out, infos = [], []
  for i, x in enumerate(flat):
    if type(x).__name__ in ("SparseTensor", "SparseTensorValue"):
      from tfc.data import sparse_elements  # pylint: disable=g-import-not-at-top
      t, info = sparse_elements.encode(x, many=many)
      out.append(t)
      infos.append(info)
      continue
    out.append(_ops.convert_to_tensor(x, name="component_%d" % i))
    infos.append(None)
  return out, infos


def _sparse_structure(structure, infos):
  """The sparse structure of a dataset (None when every component is dense)."""
  if all(i is None for i in infos):
    return None
  return _pack(structure, infos)


def _restack_sparse(batched, unbatched, static_bs):
  """The batch of a dataset with sparse components: each [B, 3] stack of
  encoded SparseTensors made one encoded SparseTensor with a new first
  dimension (a map over the batches)."""
  from tfc.data import sparse_elements  # pylint: disable=g-import-not-at-top
  infos = _flat_sparse(unbatched)
  plain = Dataset(batched._variant, batched._types, batched._shapes)  # pylint: disable=protected-access

  def restack(*flat):
    flat = list(_flat(flat))
    out = [t if info is None else sparse_elements.decode_batch(t, info) for t, info in zip(flat, infos)]
    return tuple(out)
  types_flat = _flat(batched._types)  # pylint: disable=protected-access
  wrapped = Dataset(plain._variant, tuple(types_flat), tuple(_flat(batched._shapes)))  # pylint: disable=protected-access
  mapped = wrapped.map(restack)
  return Dataset(mapped._variant, batched._types, _pack(batched._types, _flat(mapped._shapes)),  # pylint: disable=protected-access
                 _pack(batched._types, sparse_elements.batched(infos, static_bs)))  # pylint: disable=protected-access


def _own_tensors(values):
  """values as tensors of the graph being traced: a tensor of an enclosing
  graph (a function returning a captured value as it is) goes through an
  identity, which captures it."""
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  g = _ops.get_default_graph()
  out = []
  for x in values:
    t = _ops.convert_to_tensor(x)
    out.append(array_ops.identity(t) if t.graph is not g else t)
  return out


def _flat_up_to_value(structure, value):
  """value's components, flattened as deep as structure (an element of from_list) goes."""
  if isinstance(structure, dict):
    return [x for k in sorted(structure) for x in _flat_up_to_value(structure[k], value[k])]
  if isinstance(structure, tuple):
    if not isinstance(value, tuple) or len(structure) != len(value):
      raise ValueError("All elements must have the same structure: %r and %r" % (structure, value))
    return [x for s, v in zip(structure, value) for x in _flat_up_to_value(s, v)]
  return [value]


def _derived(ds, *inputs):
  """Records the datasets ds was made from (their options apply to it)."""
  ds._inputs = tuple(inputs)
  return ds


def _flatten_up_to(structure, value):
  """Flattens value as deep as structure goes (shapes written as lists stay whole)."""
  if isinstance(structure, dict):
    return [x for k in sorted(structure) for x in _flatten_up_to(structure[k], value[k])]
  if isinstance(structure, tuple):
    if len(structure) != len(value):
      raise ValueError("The structure %r and the value %r do not match" % (structure, value))
    return [x for s, v in zip(structure, value) for x in _flatten_up_to(s, v)]
  return [value]


_GENERATORS = {}
_GENERATOR_LOCK = __import__("threading").Lock()


def _register_generator(generator, args, types, shapes):
  with _GENERATOR_LOCK:
    token = len(_GENERATORS) + 1
    _GENERATORS[token] = (generator, args, types, shapes)
  return token


def _generator_open(token):
  """Called from C (py_generator.c): an iterator of flat element tuples,
  each component converted to its declared dtype and checked against its
  declared shape."""
  generator, args, types, shapes = _GENERATORS[token]
  flat_types = [t.as_numpy_dtype if t != _dtypes.string else object for t in _flat(types)]
  flat_shapes = _flat(shapes)
  source = iter(generator(*args))

  def elements():
    for value in source:
      try:
        flat = _flatten_up_to(types, value)
      except (TypeError, ValueError, KeyError):
        raise TypeError("`generator` yielded an element that did not match the expected structure. "
                        "The expected structure was %s, but the yielded element was %s." % (types, value))
      out = []
      for v, dt, shape in zip(flat, flat_types, flat_shapes):
        a = _np.asarray(v, dtype=dt)
        if not shape.is_compatible_with(a.shape):
          raise ValueError("`generator` yielded an element of shape %s where an element of shape %s "
                           "was expected." % (a.shape, shape))
        out.append(a)
      yield tuple(out)
  return elements()


def _most_specific_compatible(a, b):
  a, b = _tensor_shape.as_shape(a), _tensor_shape.as_shape(b)
  if a.ndims is None or b.ndims is None or a.ndims != b.ndims:
    return _tensor_shape.unknown_shape()
  return _tensor_shape.TensorShape([x if x == y else None for x, y in zip(a.as_list(), b.as_list())])


class TFRecordDataset(Dataset):
  """The records of TFRecord files, read in order (compression_type "", "ZLIB" or "GZIP")."""

  def __init__(self, filenames, compression_type=None, buffer_size=None, num_parallel_reads=None):
    f = _ops.convert_to_tensor(filenames, dtype=_dtypes.string, name="filenames")
    c = _ops.convert_to_tensor(compression_type or "", dtype=_dtypes.string, name="compression_type")
    b = _ops.convert_to_tensor(-1 if buffer_size is None else buffer_size, dtype=_dtypes.int64,
                               name="buffer_size")
    v = _apply_op("TFRecordDataset", "TFRecordDataset", [f, c, b]).outputs[0]
    super(TFRecordDataset, self).__init__(v, _dtypes.string, _tensor_shape.TensorShape([]))


class TextLineDataset(Dataset):
  """The lines of text files (newline and a trailing CR removed)."""

  def __init__(self, filenames, compression_type=None, buffer_size=None, num_parallel_reads=None):
    f = _ops.convert_to_tensor(filenames, dtype=_dtypes.string, name="filenames")
    c = _ops.convert_to_tensor(compression_type or "", dtype=_dtypes.string, name="compression_type")
    b = _ops.convert_to_tensor(-1 if buffer_size is None else buffer_size, dtype=_dtypes.int64,
                               name="buffer_size")
    v = _apply_op("TextLineDataset", "TextLineDataset", [f, c, b]).outputs[0]
    super(TextLineDataset, self).__init__(v, _dtypes.string, _tensor_shape.TensorShape([]))


class FixedLengthRecordDataset(Dataset):
  """Records of record_bytes bytes between header_bytes and footer_bytes of each file."""

  def __init__(self, filenames, record_bytes, header_bytes=None, footer_bytes=None, buffer_size=None,
               compression_type=None, num_parallel_reads=None):
    ins = [_ops.convert_to_tensor(filenames, dtype=_dtypes.string, name="filenames")]
    for name, val in (("header_bytes", header_bytes or 0), ("record_bytes", record_bytes),
                      ("footer_bytes", footer_bytes or 0),
                      ("buffer_size", -1 if buffer_size is None else buffer_size)):
      ins.append(_ops.convert_to_tensor(val, dtype=_dtypes.int64, name=name))
    ins.append(_ops.convert_to_tensor(compression_type or "", dtype=_dtypes.string,
                                      name="compression_type"))
    v = _apply_op("FixedLengthRecordDatasetV2", "FixedLengthRecordDataset", ins).outputs[0]
    super(FixedLengthRecordDataset, self).__init__(v, _dtypes.string, _tensor_shape.TensorShape([]))


class Iterator(object):
  """Produces the elements of a dataset: get_next(), initializer, string_handle()."""

  def __init__(self, iterator_resource, initializer, output_types, output_shapes, output_classes=None,
               _sparse=None):
    self._resource = iterator_resource
    self._initializer = initializer
    self._types = output_types
    self._shapes = output_shapes
    self._sparse = _sparse

  _public = Dataset._public

  @staticmethod
  def from_structure(output_types, output_shapes=None, shared_name=None, output_classes=None):
    """An uninitialized iterator for any dataset of this structure (reinitializable)."""
    output_types = _nest.map_structure(_dtypes.as_dtype, output_types)
    if output_shapes is None:
      output_shapes = _nest.map_structure(lambda _: _tensor_shape.unknown_shape(), output_types)
    else:
      output_shapes = _nest.pack_sequence_as(
          output_types, [_tensor_shape.as_shape(s) for s in _flatten_up_to(output_types, output_shapes)])
    output_types, output_shapes, sparse = _encode_classes(output_types, output_shapes,
                                                          output_classes)
    attrs = {"output_types": _flat(output_types),
             "output_shapes": [_shape_attr(s) for s in _flat(output_shapes)],
             "shared_name": shared_name or "", "container": ""}
    h = _apply_op("IteratorV2", "Iterator", [], attrs).outputs[0]
    return Iterator(h, None, output_types, output_shapes, _sparse=sparse)

  @staticmethod
  def from_string_handle(string_handle, output_types, output_shapes=None, output_classes=None):
    """An iterator chosen at run time by feeding one of Iterator.string_handle()'s values."""
    output_types = _nest.map_structure(_dtypes.as_dtype, output_types)
    if output_shapes is None:
      output_shapes = _nest.map_structure(lambda _: _tensor_shape.unknown_shape(), output_types)
    else:
      output_shapes = _nest.pack_sequence_as(
          output_types, [_tensor_shape.as_shape(x) for x in _flatten_up_to(output_types, output_shapes)])
    output_types, output_shapes, sparse = _encode_classes(output_types, output_shapes,
                                                          output_classes)
    s = _ops.convert_to_tensor(string_handle, dtype=_dtypes.string)
    attrs = {"output_types": _flat(output_types),
             "output_shapes": [_shape_attr(x) for x in _flat(output_shapes)]}
    h = _apply_op("IteratorFromStringHandleV2", "IteratorFromStringHandleV2", [s], attrs).outputs[0]
    return Iterator(h, None, output_types, output_shapes, _sparse=sparse)

  @property
  def _iterator_resource(self):
    return self._resource

  @property
  def initializer(self):
    if self._initializer is not None:
      return self._initializer
    raise ValueError("Iterator does not have an initializer.")

  def make_initializer(self, dataset, name=None):
    """An op that (re)starts this iterator on dataset (of the same structure)."""
    if _flat(self._types) != _flat(dataset._types):
      raise TypeError("Expected output types %r but got dataset with output types %r." %
                      (self.output_types, dataset.output_types))
    for a, b in zip(_flat(self._shapes), _flat(dataset._shapes)):
      if not _tensor_shape.as_shape(a).is_compatible_with(b):
        raise TypeError("Expected output shapes compatible with %r but got dataset with output "
                        "shapes %r." % (self._shapes, dataset.output_shapes))
    return _apply_op("MakeIterator", name or "MakeIterator", [dataset._variant, self._resource])

  def get_next(self, name=None):
    """The next element (nested as the dataset's); OutOfRangeError at the end."""
    attrs = {"output_types": _flat(self._types),
             "output_shapes": [_shape_attr(s) for s in _flat(self._shapes)]}
    op = _apply_op("IteratorGetNext", name or "IteratorGetNext", [self._resource], attrs)
    outs = list(op.outputs)
    for t, s in zip(outs, _flat(self._shapes)):
      t.set_shape(s)
    if self._sparse is not None:
      from tfc.data import sparse_elements  # pylint: disable=g-import-not-at-top
      outs = [t if info is None else sparse_elements.decode(t, info)
              for t, info in zip(outs, _flat_sparse(self))]
    return _nest.pack_sequence_as(self._types, outs)

  def get_next_as_optional(self):
    """The next element as a tf.data.experimental.Optional (empty at the end)."""
    from tfc.data import optional_ops  # pylint: disable=g-import-not-at-top
    return optional_ops.get_next_as_optional(self)

  def string_handle(self, name=None):
    """A string tensor naming this iterator, to feed a from_string_handle iterator."""
    return _apply_op("IteratorToStringHandle", name or "IteratorToStringHandle",
                     [self._resource]).outputs[0]

  @property
  def output_types(self):
    return self._public("types", self._types)

  @property
  def output_shapes(self):
    return self._public("shapes", self._shapes)

  @property
  def output_classes(self):
    return self._public("classes", self._types)

  @property
  def element_spec(self):
    """The structure of an element as tf.TensorSpec objects."""
    from tfc.framework import type_spec as _type_spec  # pylint: disable=g-import-not-at-top
    return _pack(self._types, [_type_spec.TensorSpec(s, t) for s, t in
                               zip(_flat(self._shapes), _flat(self._types))])


def make_one_shot_iterator(dataset):
  return dataset.make_one_shot_iterator()


def make_initializable_iterator(dataset, shared_name=None):
  return dataset.make_initializable_iterator(shared_name)


def get_output_types(dataset_or_iterator):
  return dataset_or_iterator.output_types


def get_output_shapes(dataset_or_iterator):
  return dataset_or_iterator.output_shapes


def get_output_classes(dataset_or_iterator):
  return dataset_or_iterator.output_classes
