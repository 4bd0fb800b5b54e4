"""tf.data.experimental grouping transformations (TF 1.15): group_by_window,
bucket_by_sequence_length, group_by_reducer with Reducer, and from_list.
They emit TF's GroupByWindowDataset / GroupByReducerDataset / ListDataset,
run in C (csrc/kernels/dataset_group.c)."""
import numpy as _np

from tfc import dtypes as _dtypes
from tfc.data import dataset_ops as _dops
from tfc.framework import function as _function
from tfc.framework import ops as _ops
from tfc.framework import tensor_shape as _tensor_shape
from tfc.framework.op_def_library import _apply_op

_SCALAR = _tensor_shape.TensorShape([])


def _trace(fn, types, shapes, name, call):
  """Traces call(fn, *flat_args) over arguments of the given flat types and
  shapes; returns (traced function, the Python result)."""
  box = {}

  def body(*args):
    result = call(fn, *args)
    box["result"] = result
    if isinstance(result, _dops.Dataset):
      return result._variant  # pylint: disable=protected-access
    flat = _dops._own_tensors(_dops._flat(result))  # pylint: disable=protected-access
    return tuple(flat) if len(flat) != 1 else flat[0]
  body.__name__ = "%s_%s" % (name, getattr(fn, "__name__", "fn"))
  traced = _function.trace(body, types, shapes)
  return traced, box.get("result")


def _call_on_element(dataset):
  """A caller passing a dataset's element as TF does (a tuple as positional args)."""
  def call(fn, *args):
    element = _dops._pack(dataset.output_types, list(args))  # pylint: disable=protected-access
    if isinstance(element, tuple) and not hasattr(element, "_fields"):
      return fn(*element)
    return fn(element)
  return call


def _check_scalar_int64(traced, what):
  if (len(traced.output_types) != 1 or _dtypes.as_dtype(traced.output_types[0]) != _dtypes.int64 or
      not _tensor_shape.as_shape(traced.output_shapes[0]).is_compatible_with([])):
    raise ValueError("`%s` must return a single tf.int64 scalar tensor." % what)


def _key_func(dataset, key_func):
  flat_types = _dops._flat(dataset.output_types)  # pylint: disable=protected-access
  flat_shapes = _dops._flat(dataset.output_shapes)  # pylint: disable=protected-access
  traced, _ = _trace(key_func, flat_types, flat_shapes, "key_func", _call_on_element(dataset))
  _check_scalar_int64(traced, "key_func")
  return traced


def group_by_window(key_func, reduce_func, window_size=None, window_size_func=None):
  """A transformation for Dataset.apply: groups elements by key_func (a
  scalar int64 per element) into windows of window_size (or
  window_size_func(key)) elements; each full window, and at the end each
  remaining one (in ascending key order), becomes reduce_func(key,
  window_dataset), whose elements are the output."""
  if window_size is not None:
    if window_size_func is not None:
      raise ValueError("Either the `window_size` argument or the `window_size_func` argument must be "
                       "specified.")
    def window_size_func(_):  # pylint: disable=function-redefined
      return _ops.convert_to_tensor(window_size, dtype=_dtypes.int64)
  elif window_size_func is None:
    raise ValueError("Either the `window_size` argument or the `window_size_func` argument must be "
                     "specified.")

  def _apply_fn(dataset):
    g = _ops.get_default_graph()
    key = _key_func(dataset, key_func)
    size, _ = _trace(window_size_func, [_dtypes.int64], [_SCALAR], "window_size_func",
                     lambda fn, k: fn(k))
    _check_scalar_int64(size, "window_size_func")

    def call_reduce(fn, k, window):
      return fn(k, _dops.Dataset(window, dataset.output_types, dataset.output_shapes))
    reduce, result = _trace(reduce_func, [_dtypes.int64, _dtypes.variant], [_SCALAR, _SCALAR],
                            "reduce_func", call_reduce)
    if not isinstance(result, _dops.Dataset):
      raise TypeError("Invalid `reduce_func`. `reduce_func` must return a single `tf.data.Dataset` "
                      "object but its return type is %r." % (result,))
    for t in (key, reduce, size):
      t.add_to_graph(g)
    types, shapes = result.output_types, result.output_shapes
    attrs = {"key_func": key.name, "reduce_func": reduce.name, "window_size_func": size.name,
             "output_types": _dops._flat(types),  # pylint: disable=protected-access
             "output_shapes": [_dops._shape_attr(s) for s in _dops._flat(shapes)]}  # pylint: disable=protected-access
    v = _apply_op("GroupByWindowDataset", "GroupByWindowDataset",
                  [dataset._variant, list(key.captured_inputs), list(reduce.captured_inputs),  # pylint: disable=protected-access
                   list(size.captured_inputs)], attrs).outputs[0]
    return _dops._derived(_dops.Dataset(v, types, shapes), dataset)  # pylint: disable=protected-access
  return _apply_fn


class Reducer(object):
  """The functions of group_by_reducer: init_func(key) -> initial state,
  reduce_func(state, element) -> new state, finalize_func(state) -> the
  group's output element."""

  def __init__(self, init_func, reduce_func, finalize_func):
    self._init_func = init_func
    self._reduce_func = reduce_func
    self._finalize_func = finalize_func

  @property
  def init_func(self):
    return self._init_func

  @property
  def reduce_func(self):
    return self._reduce_func

  @property
  def finalize_func(self):
    return self._finalize_func


def group_by_reducer(key_func, reducer):
  """A transformation for Dataset.apply: folds the elements of each key
  (key_func: a scalar int64 per element) with reducer, and at the end of
  the input produces reducer.finalize_func(state) per key, in ascending
  key order."""
  def _apply_fn(dataset):
    g = _ops.get_default_graph()
    key = _key_func(dataset, key_func)
    init, state = _trace(reducer.init_func, [_dtypes.int64], [_SCALAR], "init_func",
                         lambda fn, k: fn(k))
    state_types = [_dtypes.as_dtype(t) for t in init.output_types]
    state_shapes = [_tensor_shape.as_shape(s) for s in init.output_shapes]
    ns = len(state_types)
    el_types = _dops._flat(dataset.output_types)  # pylint: disable=protected-access
    el_shapes = _dops._flat(dataset.output_shapes)  # pylint: disable=protected-access
    call_el = _call_on_element(dataset)

    def call_reduce(fn, *args):
      st = _dops._pack(state, list(args[:ns]))  # pylint: disable=protected-access
      return call_el(lambda *el: fn(st, *el), *args[ns:])
    for _ in range(2):
      reduce, new_state = _trace(reducer.reduce_func, state_types + el_types, state_shapes + el_shapes,
                                 "reduce_func", call_reduce)
      new_types = [_dtypes.as_dtype(t) for t in reduce.output_types]
      if new_types != state_types:
        raise TypeError("The element types for the new state must match the initial state. Expected "
                        "%s; got %s." % (state_types, new_types))
      new_shapes = [_tensor_shape.as_shape(s) for s in reduce.output_shapes]
      relaxed = [_dops._most_specific_compatible(a, b) for a, b in zip(state_shapes, new_shapes)]  # pylint: disable=protected-access
      if [s.as_list() if s.ndims is not None else None for s in relaxed] == \
         [s.as_list() if s.ndims is not None else None for s in state_shapes]:
        break
      state_shapes = relaxed
    finalize, result = _trace(reducer.finalize_func, state_types, state_shapes, "finalize_func",
                              lambda fn, *a: fn(*a) if isinstance(state, tuple) else fn(
                                  _dops._pack(state, list(a))))  # pylint: disable=protected-access
    for t in (key, init, reduce, finalize):
      t.add_to_graph(g)
    out_types = [_dtypes.as_dtype(t) for t in finalize.output_types]
    out_shapes = [_tensor_shape.as_shape(s) for s in finalize.output_shapes]
    types = _dops._pack(result, out_types)  # pylint: disable=protected-access
    shapes = _dops._pack(result, out_shapes)  # pylint: disable=protected-access
    attrs = {"key_func": key.name, "init_func": init.name, "reduce_func": reduce.name,
             "finalize_func": finalize.name, "output_types": out_types,
             "output_shapes": [_dops._shape_attr(s) for s in out_shapes]}  # pylint: disable=protected-access
    v = _apply_op("GroupByReducerDataset", "GroupByReducerDataset",
                  [dataset._variant, list(key.captured_inputs), list(init.captured_inputs),  # pylint: disable=protected-access
                   list(reduce.captured_inputs), list(finalize.captured_inputs)], attrs).outputs[0]
    return _dops._derived(_dops.Dataset(v, types, shapes), dataset)  # pylint: disable=protected-access
  return _apply_fn


def bucket_by_sequence_length(element_length_func, bucket_boundaries, bucket_batch_sizes,
                              padded_shapes=None, padding_values=None, pad_to_bucket_boundary=False,
                              no_padding=False, drop_remainder=False):
  """A transformation for Dataset.apply: puts each element in the bucket of
  its length (element_length_func; buckets split at bucket_boundaries) and
  batches each bucket with its bucket_batch_sizes entry, padding to the
  longest element of the batch (or, with pad_to_bucket_boundary, to the
  bucket's boundary - 1); a group_by_window as TF builds it."""
  from tfc.ops import array_ops, math_ops, check_ops  # pylint: disable=g-import-not-at-top
  if len(bucket_batch_sizes) != (len(bucket_boundaries) + 1):
    raise ValueError("len(bucket_batch_sizes) must equal len(bucket_boundaries) + 1")
  batch_sizes = _ops.convert_to_tensor(bucket_batch_sizes, dtype=_dtypes.int64, name="batch_sizes")

  def element_to_bucket_id(*args):
    seq_length = element_length_func(*args)
    boundaries = list(bucket_boundaries)
    buckets_min = [_np.iinfo(_np.int32).min] + boundaries
    buckets_max = boundaries + [_np.iinfo(_np.int32).max]
    conditions = math_ops.logical_and(math_ops.less_equal(buckets_min, seq_length),
                                      math_ops.less(seq_length, buckets_max))
    return math_ops.reduce_min(array_ops.where(conditions))

  def window_size_fn(bucket_id):
    return array_ops.gather(batch_sizes, bucket_id)

  def batching_fn(bucket_id, grouped_dataset):
    batch_size = window_size_fn(bucket_id)
    if no_padding:
      return grouped_dataset.batch(batch_size, drop_remainder=drop_remainder)
    filler = None
    if pad_to_bucket_boundary:
      check = check_ops.assert_less(
          bucket_id, _ops.convert_to_tensor(len(bucket_batch_sizes) - 1, dtype=_dtypes.int64),
          message="When pad_to_bucket_boundary=True, elements must have length < "
                  "max(bucket_boundaries).")
      with _ops.control_dependencies([check]):
        boundaries = _ops.convert_to_tensor(bucket_boundaries, dtype=_dtypes.int64)
        filler = array_ops.gather(boundaries, bucket_id) - 1
    shapes = padded_shapes if padded_shapes is not None else grouped_dataset.output_shapes
    return grouped_dataset._padded_batch_with_filler(batch_size, shapes, padding_values, drop_remainder,  # pylint: disable=protected-access
                                                     filler)

  def _apply_fn(dataset):
    return dataset.apply(group_by_window(element_to_bucket_id, batching_fn, window_size_func=window_size_fn))
  return _apply_fn


def from_list(elements, name=None):
  """A dataset of the given elements (each a nested structure of values of
  the same structure and dtypes), in order (ListDataset)."""
  elements = list(elements)
  if not elements:
    raise ValueError("Invalid `elements`. `elements` should not be empty.")
  first = elements[0]
  flat = []
  for e in elements:
    comps = [_ops.convert_to_tensor(x, name="component") for x in _dops._flat_up_to_value(first, e)]  # pylint: disable=protected-access
    flat.append(comps)
  types = [t.dtype for t in flat[0]]
  for comps in flat[1:]:
    if [t.dtype for t in comps] != types:
      raise TypeError("Invalid `elements`. All elements must have the same type, got %s and %s."
                      % (types, [t.dtype for t in comps]))
  shapes = []
  for i in range(len(types)):
    s = flat[0][i].shape
    for comps in flat[1:]:
      s = _dops._most_specific_compatible(s, comps[i].shape)  # pylint: disable=protected-access
    shapes.append(s)
  out_types = _dops._pack(first, types)  # pylint: disable=protected-access
  out_shapes = _dops._pack(first, shapes)  # pylint: disable=protected-access
  attrs = {"output_types": types, "output_shapes": [_dops._shape_attr(s) for s in shapes]}  # pylint: disable=protected-access
  v = _apply_op("ListDataset", name or "ListDataset", [[t for comps in flat for t in comps]], attrs).outputs[0]
  return _dops.Dataset(v, out_types, out_shapes)


def pad_to_cardinality(cardinality, mask_key="valid"):
  """A transformation for Dataset.apply: pads a dataset of dicts to
  `cardinality` elements with zero-filled elements, adding a boolean
  `mask_key` entry (True for the input's elements, False for the padding)."""
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  from tfc.data import experimental as _experimental  # pylint: disable=g-import-not-at-top

  def _apply_fn(dataset):
    if not isinstance(dataset.output_types, dict):
      raise ValueError("`pad_to_cardinality` requires its input dataset to be a dictionary.")
    if mask_key in dataset.output_types:
      raise ValueError("mask_key '%s' already exists in the dataset's elements" % mask_key)

    def add_mask(x):
      x = dict(x)
      x[mask_key] = _ops.convert_to_tensor(True)
      return x
    masked = dataset.map(add_mask)
    padding = _ops.convert_to_tensor(cardinality, dtype=_dtypes.int64) - _experimental.cardinality(dataset)
    filler = {k: array_ops.zeros([d if d is not None else 0 for d in s.as_list()], dtype=dataset.output_types[k])
              for k, s in dataset.output_shapes.items()}
    filler[mask_key] = _ops.convert_to_tensor(False)
    return masked.concatenate(_dops.Dataset.from_tensors(filler).repeat(padding))
  return _apply_fn

