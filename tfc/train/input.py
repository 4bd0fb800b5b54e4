"""Queue-based input pipelines (TF 1.15's tf.train.input_producer,
string_input_producer, range_input_producer, slice_input_producer, limit_epochs,
batch, maybe_batch, shuffle_batch, maybe_shuffle_batch, batch_join, shuffle_batch_join).

Each producer or batcher makes a queue, the enqueue ops that fill it, and a
QueueRunner in the graph's QUEUE_RUNNERS collection; tf.train.start_queue_runners
starts their threads. Summaries of how full each queue is are added as TF adds them.

    filename_queue = tf.train.string_input_producer(files, num_epochs=1)
    _, record = tf.TFRecordReader().read(filename_queue)
    ex = tf.parse_single_example(record, features)
    images, labels = tf.train.shuffle_batch([ex["image"], ex["label"]], 32, 1000, 500)
"""
from tfc import dtypes as _dtypes
from tfc.framework import ops as _ops
from tfc.framework import tensor_shape as _tensor_shape
from tfc.ops import data_flow_ops as _dfo
from tfc.train import queue_runner_impl as _qr


def _tf():
  import tfc  # pylint: disable=g-import-not-at-top
  return tfc


def limit_epochs(tensor, num_epochs=None, name=None):
  """Returns tensor num_epochs times, then raises OutOfRangeError (a local
  variable counts the epochs)."""
  if num_epochs is None:
    return tensor
  if num_epochs <= 0:
    raise ValueError("num_epochs must be > 0 not %d." % num_epochs)
  tf = _tf()
  with _ops.name_scope(name, "limit_epochs", [tensor]) as scope:
    zero64 = tf.constant(0, dtype=_dtypes.int64)
    epochs = tf.Variable(zero64, name="epochs", trainable=False,
                         collections=[_ops.GraphKeys.LOCAL_VARIABLES])
    counter = epochs.count_up_to(num_epochs)
    with _ops.control_dependencies([counter]):
      return tf.identity(tensor, name=scope.rstrip("/") if scope else None)


def input_producer(input_tensor, element_shape=None, num_epochs=None, shuffle=True, seed=None,
                   capacity=32, shared_name=None, summary_name=None, name=None, cancel_op=None):
  """Enqueues the rows of input_tensor (shuffled each epoch when shuffle) into
  a FIFOQueue of the given capacity; returns the queue."""
  tf = _tf()
  with _ops.name_scope(name, "input_producer", [input_tensor]):
    input_tensor = _ops.convert_to_tensor(input_tensor, name="input_tensor")
    element_shape = input_tensor.shape[1:].merge_with(_tensor_shape.as_shape(element_shape)
                                                      if element_shape is not None
                                                      else _tensor_shape.unknown_shape())
    if not element_shape.is_fully_defined():
      raise ValueError("Either `input_tensor` must have a fully defined shape or `element_shape` "
                       "must be specified")
    if shuffle:
      input_tensor = tf.random_shuffle(input_tensor, seed=seed)
    input_tensor = limit_epochs(input_tensor, num_epochs)
    q = _dfo.FIFOQueue(capacity=capacity, dtypes=[input_tensor.dtype.base_dtype],
                       shapes=[element_shape], shared_name=shared_name, name=name)
    enq = q.enqueue_many([input_tensor])
    _qr.add_queue_runner(_qr.QueueRunner(q, [enq], cancel_op=cancel_op))
    if summary_name is not None:
      tf.summary.scalar(summary_name, tf.cast(q.size(), _dtypes.float32) * (1. / capacity))
    return q


def string_input_producer(string_tensor, num_epochs=None, shuffle=True, seed=None, capacity=32,
                          shared_name=None, name=None, cancel_op=None):
  """A queue of the strings (typically file names) for a reader."""
  not_null_err = "string_input_producer requires a non-null input tensor"
  if not isinstance(string_tensor, _ops.Tensor) and not string_tensor:
    raise ValueError(not_null_err)
  tf = _tf()
  with _ops.name_scope(name, "input_producer", [string_tensor]) as scope:
    string_tensor = _ops.convert_to_tensor(string_tensor, dtype=_dtypes.string)
    with _ops.control_dependencies([tf.Assert(tf.greater(tf.size(string_tensor), 0), [not_null_err])]):
      string_tensor = tf.identity(string_tensor)
    return input_producer(input_tensor=string_tensor, element_shape=[], num_epochs=num_epochs,
                          shuffle=shuffle, seed=seed, capacity=capacity, shared_name=shared_name,
                          name=scope, summary_name="fraction_of_%d_full" % capacity,
                          cancel_op=cancel_op)


def range_input_producer(limit, num_epochs=None, shuffle=True, seed=None, capacity=32,
                         shared_name=None, name=None):
  """A queue of the integers 0 .. limit-1."""
  tf = _tf()
  with _ops.name_scope(name, "input_producer", [limit]) as scope:
    range_tensor = tf.range(limit)
    return input_producer(range_tensor, [], num_epochs, shuffle, seed, capacity, shared_name,
                          "fraction_of_%d_full" % capacity, scope)


def slice_input_producer(tensor_list, num_epochs=None, shuffle=True, seed=None, capacity=32,
                         shared_name=None, name=None):
  """Returns one row of every tensor of tensor_list at a time (the same row
  index for all)."""
  tf = _tf()
  with _ops.name_scope(name, "input_producer", tensor_list):
    tensor_list = [_ops.convert_to_tensor(t) for t in tensor_list]
    if not tensor_list:
      raise ValueError("Expected at least one tensor in slice_input_producer().")
    range_size = tf.shape(tensor_list[0])[0]
    queue = range_input_producer(range_size, num_epochs=num_epochs, shuffle=shuffle, seed=seed,
                                 capacity=capacity, shared_name=shared_name)
    index = queue.dequeue()
    return [tf.gather(t, index) for t in tensor_list]


# ---- batching ----

def _as_tensor_list(tensors):
  if isinstance(tensors, dict):
    return [tensors[k] for k in sorted(tensors, key=str)]
  from tfc.framework import nest  # pylint: disable=g-import-not-at-top
  return nest.flatten(tensors)


def _as_original_type(original, dequeued):
  if isinstance(original, dict):
    if len(original) == 1:
      dequeued = [dequeued]
    return {k: dequeued[i] for i, k in enumerate(sorted(original, key=str))}
  if not isinstance(original, (list, tuple)):
    return dequeued
  if not isinstance(dequeued, (list, tuple)):
    dequeued = [dequeued]
  from tfc.framework import nest  # pylint: disable=g-import-not-at-top
  return nest.pack_sequence_as(original, list(dequeued))


def _is_sparse(t):
  from tfc.framework import sparse_tensor  # pylint: disable=g-import-not-at-top
  return isinstance(t, sparse_tensor.SparseTensor)


def _validate(tensor_list):
  from tfc.framework import sparse_tensor  # pylint: disable=g-import-not-at-top
  tensor_list = [sparse_tensor.SparseTensor.from_value(t)
                 if isinstance(t, sparse_tensor.SparseTensorValue) else
                 t if isinstance(t, sparse_tensor.SparseTensor) else _ops.convert_to_tensor(t)
                 for t in tensor_list]
  if not tensor_list:
    raise ValueError("Expected at least one tensor in batch().")
  return tensor_list


def _merge_shapes(shape_list, enqueue_many):
  shape_list = [_tensor_shape.as_shape(s) for s in shape_list]
  if enqueue_many:
    shape_list = [s.with_rank_at_least(1)[1:] for s in shape_list]
  merged = shape_list[0]
  for s in shape_list[1:]:
    merged = merged.merge_with(s)
  return merged.as_list()


def _shapes(tensor_list_list, shapes, enqueue_many):
  if shapes is None:
    len0 = len(tensor_list_list[0])
    for tl in tensor_list_list:
      for i in range(len0):
        if tl[i].shape.ndims is None:
          raise ValueError("Cannot infer Tensor's rank: %s" % tl[i])
    shapes = [_merge_shapes([tl[i].shape.as_list() for tl in tensor_list_list], enqueue_many)
              for i in range(len0)]
  return shapes


def _dtypes_of(tensor_list_list):
  types = [t.dtype.base_dtype for t in tensor_list_list[0]]
  for other in tensor_list_list[1:]:
    if [t.dtype.base_dtype for t in other] != types:
      raise TypeError("Expected types to be consistent: %s vs. %s." %
                      (", ".join(x.name for x in types),
                       ", ".join(t.dtype.base_dtype.name for t in other)))
  return types


def _keep_tensor(keep_input, enqueue_many):
  """keep_input as a bool tensor (None stays None); a vector needs enqueue_many."""
  if keep_input is None:
    return None
  keep = _ops.convert_to_tensor(keep_input, dtype=_dtypes.bool)
  if keep.shape.ndims == 1 and not enqueue_many:
    raise ValueError("`keep_input` cannot be a vector when `enqueue_many=False`.")
  return keep


def _enqueue_op(queue, tensor_list, enqueue_many, keep_input):
  fn = queue.enqueue_many if enqueue_many else queue.enqueue
  if keep_input is None:
    return fn(tensor_list)
  tf = _tf()
  keep = _ops.convert_to_tensor(keep_input, dtype=_dtypes.bool)
  if keep.shape.ndims == 1:
    if not enqueue_many:
      raise ValueError("`keep_input` cannot be a vector when `enqueue_many=False`.")
    return fn([tf.boolean_mask(t, keep) for t in tensor_list])
  return tf.cond(keep, lambda: fn(tensor_list), tf.no_op)


# ---- sparse tensors through queues: stored in a SparseTensorsMap, their
# int64 handles batched, the batch taken back out (TF's scheme and ops)

class _SparseMetaData(object):
  """Whether a component is sparse, the op whose map stores it, its rank."""

  def __init__(self, sparse, map_op, rank):
    self.sparse = sparse
    self.map_op = map_op
    self.rank = rank

  def __eq__(self, other):
    if self.sparse != other.sparse:
      return False
    if not self.sparse:
      return True
    return (self.map_op is other.map_op and
            (self.rank is None or other.rank is None or self.rank == other.rank))

  def __ne__(self, other):
    return not self.__eq__(other)

  def __repr__(self):
    return "[SparseMetaData(%s, %s, %s)]" % (
        self.sparse, self.map_op.name if self.map_op is not None else None, self.rank)

  def merge_with(self, other):
    if self != other:
      raise ValueError("SparseMetaData objects are incompatible: %s vs. %s" % (self, other))
    if self.sparse and self.rank is None:
      self.rank = other.rank
    return self


def _store_sparse_tensors(tensor_list, enqueue_many, keep_input, shared_map_ops=None):
  """(stored list, sparse infos): each SparseTensor replaced by its handle(s)
  in a SparseTensorsMap ([1], or [N, 1] with enqueue_many), written by
  AddSparseToTensorsMap / AddManySparseToTensorsMap (only when keep_input
  holds); with shared_map_ops the maps of an earlier call are reused."""
  if not any(_is_sparse(t) for t in tensor_list):
    return tensor_list, [_SparseMetaData(False, None, None)] * len(tensor_list)
  tf = _tf()
  from tfc.ops import sparse_ops  # pylint: disable=g-import-not-at-top
  shared_map_ops = shared_map_ops or [None] * len(tensor_list)
  stored, infos = [], []
  for t, shared in zip(tensor_list, shared_map_ops):
    if not _is_sparse(t):
      stored.append(t)
      infos.append(_SparseMetaData(False, None, None))
      continue
    map_name = shared.name if shared is not None else None
    rank = _tensor_shape.dimension_value(t.dense_shape.shape.with_rank(1)[0])
    if enqueue_many and rank is not None:
      rank -= 1
    made = []

    def store_one(t=t, map_name=map_name, made=made):
      h = sparse_ops._add_sparse_to_tensors_map(t, shared_name=map_name)  # pylint: disable=protected-access
      made.append(h.op)
      return h

    def store_many(t=t, map_name=map_name, made=made):
      h = sparse_ops._add_many_sparse_to_tensors_map(t, shared_name=map_name)  # pylint: disable=protected-access
      made.append(h.op)
      return h

    static_keep = keep_input is None or _static_true(keep_input)
    if keep_input is not None and keep_input.shape.ndims == 1:
      keep_values = tf.gather(keep_input, t.indices[:, 0])
      t = tf.sparse_retain(t, keep_values)
      out = store_many(t)
    elif enqueue_many:
      if static_keep:
        out = store_many()
      else:
        out = tf.cond(keep_input, store_many,
                      lambda t=t: -1 * tf.ones(t.dense_shape[0:1], _dtypes.int64))
        out.set_shape([None])
    elif static_keep:
      out = store_one()
    else:
      out = tf.cond(keep_input, store_one, lambda: tf.constant(-1, _dtypes.int64))
    stored.append(tf.expand_dims(out, -1))
    infos.append(_SparseMetaData(True, shared if shared is not None else made[0], rank))
  return stored, infos


def _static_true(keep_input):
  """True when keep_input is known to be True when building."""
  from tfc.framework import tensor_util  # pylint: disable=g-import-not-at-top
  value = tensor_util.constant_value(keep_input)
  return value is not None and bool(value)


def _store_sparse_tensors_join(tensor_list_list, enqueue_many, keep_input):
  """_store_sparse_tensors for batch_join: every list stores into the maps of
  the first."""
  s0, infos = _store_sparse_tensors(tensor_list_list[0], enqueue_many, keep_input)
  stored = [s0]
  for tensor_list in tensor_list_list[1:]:
    s, candidate = _store_sparse_tensors(tensor_list, enqueue_many, keep_input,
                                         [i.map_op for i in infos])
    if infos != candidate:
      raise ValueError("Inconsistent SparseTensors list: %s vs. %s"
                       % (tensor_list_list[0], tensor_list))
    infos = [i.merge_with(c) for i, c in zip(infos, candidate)]
    stored.append(s)
  return stored, infos


def _restore_sparse_tensors(dequeued, infos):
  """The dequeued components with the handle batches taken back out of their
  maps (TakeManySparseFromTensorsMap) as SparseTensors; every output depends
  on every take, as in TF."""
  if not any(i.sparse for i in infos):
    return dequeued
  tf = _tf()
  from tfc.ops import sparse_ops  # pylint: disable=g-import-not-at-top
  sequence = isinstance(dequeued, (list, tuple))
  items = list(dequeued) if sequence else [dequeued]
  tensors = [sparse_ops._take_many_sparse_from_tensors_map(  # pylint: disable=protected-access
      info.map_op, tf.squeeze(s, [1]), rank=None if info.rank is None else info.rank + 1)
             if info.sparse else s for s, info in zip(items, infos)]
  values = [x.values if _is_sparse(x) else x for x in tensors]

  def with_deps(x):
    with _ops.control_dependencies(values):
      return tf.identity(x)

  from tfc.framework import sparse_tensor  # pylint: disable=g-import-not-at-top
  out = [sparse_tensor.SparseTensor(with_deps(x.indices), with_deps(x.values),
                                    with_deps(x.dense_shape)) if _is_sparse(x) else with_deps(x)
         for x in tensors]
  return out if sequence else out[0]


def _which_queue(dynamic_pad):
  return _dfo.PaddingFIFOQueue if dynamic_pad else _dfo.FIFOQueue


def _batch(tensors, batch_size, keep_input, num_threads=1, capacity=32, enqueue_many=False,
           shapes=None, dynamic_pad=False, allow_smaller_final_batch=False, shared_name=None,
           name=None):
  tf = _tf()
  tensor_list = _as_tensor_list(tensors)
  with _ops.name_scope(name, "batch", list(tensor_list)) as scope:
    tensor_list = _validate(tensor_list)
    keep_input = _keep_tensor(keep_input, enqueue_many)
    tensor_list, sparse_info = _store_sparse_tensors(tensor_list, enqueue_many, keep_input)
    types = _dtypes_of([tensor_list])
    shapes = _shapes([tensor_list], shapes, enqueue_many)
    queue = _which_queue(dynamic_pad)(capacity=capacity, dtypes=types, shapes=shapes,
                                      shared_name=shared_name)
    enq = _enqueue_op(queue, tensor_list, enqueue_many, keep_input)
    _qr.add_queue_runner(_qr.QueueRunner(queue, [enq] * num_threads))
    tf.summary.scalar("fraction_of_%d_full" % capacity,
                      tf.cast(queue.size(), _dtypes.float32) * (1. / capacity))
    if allow_smaller_final_batch:
      dequeued = queue.dequeue_up_to(batch_size, name=scope)
    else:
      dequeued = queue.dequeue_many(batch_size, name=scope)
    dequeued = _restore_sparse_tensors(dequeued, sparse_info)
    return _as_original_type(tensors, dequeued)


def _batch_join(tensors_list, batch_size, keep_input, capacity=32, enqueue_many=False, shapes=None,
                dynamic_pad=False, allow_smaller_final_batch=False, shared_name=None, name=None):
  tf = _tf()
  tensor_list_list = [_as_tensor_list(t) for t in tensors_list]
  with _ops.name_scope(name, "batch_join", [t for tl in tensor_list_list for t in tl]) as scope:
    tensor_list_list = [_validate(tl) for tl in tensor_list_list]
    keep_input = _keep_tensor(keep_input, enqueue_many)
    tensor_list_list, sparse_info = _store_sparse_tensors_join(tensor_list_list, enqueue_many,
                                                               keep_input)
    types = _dtypes_of(tensor_list_list)
    shapes = _shapes(tensor_list_list, shapes, enqueue_many)
    queue = _which_queue(dynamic_pad)(capacity=capacity, dtypes=types, shapes=shapes,
                                      shared_name=shared_name)
    enqs = [_enqueue_op(queue, tl, enqueue_many, keep_input) for tl in tensor_list_list]
    _qr.add_queue_runner(_qr.QueueRunner(queue, enqs))
    tf.summary.scalar("fraction_of_%d_full" % capacity,
                      tf.cast(queue.size(), _dtypes.float32) * (1. / capacity))
    if allow_smaller_final_batch:
      dequeued = queue.dequeue_up_to(batch_size, name=scope)
    else:
      dequeued = queue.dequeue_many(batch_size, name=scope)
    dequeued = _restore_sparse_tensors(dequeued, sparse_info)
    return _as_original_type(tensors_list[0], dequeued)


def _shuffle_batch(tensors, batch_size, capacity, min_after_dequeue, keep_input, num_threads=1,
                   seed=None, enqueue_many=False, shapes=None, allow_smaller_final_batch=False,
                   shared_name=None, name=None, join=False):
  tf = _tf()
  if join:
    tensor_list_list = [_as_tensor_list(t) for t in tensors]
    original = tensors[0]
  else:
    tensor_list_list = [_as_tensor_list(tensors)]
    original = tensors
  with _ops.name_scope(name, "shuffle_batch_join" if join else "shuffle_batch",
                       [t for tl in tensor_list_list for t in tl]) as scope:
    tensor_list_list = [_validate(tl) for tl in tensor_list_list]
    keep_input = _keep_tensor(keep_input, enqueue_many)
    if join:
      tensor_list_list, sparse_info = _store_sparse_tensors_join(tensor_list_list, enqueue_many,
                                                                 keep_input)
    else:
      stored, sparse_info = _store_sparse_tensors(tensor_list_list[0], enqueue_many, keep_input)
      tensor_list_list = [stored]
    types = _dtypes_of(tensor_list_list)
    shapes = _shapes(tensor_list_list, shapes, enqueue_many)
    queue = _dfo.RandomShuffleQueue(capacity=capacity, min_after_dequeue=min_after_dequeue, seed=seed,
                                    dtypes=types, shapes=shapes, shared_name=shared_name)
    if join:
      enqs = [_enqueue_op(queue, tl, enqueue_many, keep_input) for tl in tensor_list_list]
    else:
      enqs = [_enqueue_op(queue, tensor_list_list[0], enqueue_many, keep_input)] * num_threads
    _qr.add_queue_runner(_qr.QueueRunner(queue, enqs))
    full = (tf.cast(tf.maximum(0, queue.size() - min_after_dequeue), _dtypes.float32) *
            (1. / (capacity - min_after_dequeue)))
    tf.summary.scalar("fraction_over_%d_of_%d_full" % (min_after_dequeue, capacity - min_after_dequeue),
                      full)
    if allow_smaller_final_batch:
      dequeued = queue.dequeue_up_to(batch_size, name=scope)
    else:
      dequeued = queue.dequeue_many(batch_size, name=scope)
    dequeued = _restore_sparse_tensors(dequeued, sparse_info)
    return _as_original_type(original, dequeued)


def batch(tensors, batch_size, num_threads=1, capacity=32, enqueue_many=False, shapes=None,
          dynamic_pad=False, allow_smaller_final_batch=False, shared_name=None, name=None):
  """Batches tensors through a queue filled by num_threads threads."""
  return _batch(tensors, batch_size, None, num_threads, capacity, enqueue_many, shapes, dynamic_pad,
                allow_smaller_final_batch, shared_name, name)


def maybe_batch(tensors, keep_input, batch_size, num_threads=1, capacity=32, enqueue_many=False,
                shapes=None, dynamic_pad=False, allow_smaller_final_batch=False, shared_name=None,
                name=None):
  """batch() that enqueues only the elements for which keep_input is true."""
  return _batch(tensors, batch_size, keep_input, num_threads, capacity, enqueue_many, shapes,
                dynamic_pad, allow_smaller_final_batch, shared_name, name)


def batch_join(tensors_list, batch_size, capacity=32, enqueue_many=False, shapes=None,
               dynamic_pad=False, allow_smaller_final_batch=False, shared_name=None, name=None):
  """Batches from several lists of tensors, one enqueuing thread per list."""
  return _batch_join(tensors_list, batch_size, None, capacity, enqueue_many, shapes, dynamic_pad,
                     allow_smaller_final_batch, shared_name, name)


def maybe_batch_join(tensors_list, keep_input, batch_size, capacity=32, enqueue_many=False,
                     shapes=None, dynamic_pad=False, allow_smaller_final_batch=False,
                     shared_name=None, name=None):
  return _batch_join(tensors_list, batch_size, keep_input, capacity, enqueue_many, shapes,
                     dynamic_pad, allow_smaller_final_batch, shared_name, name)


def shuffle_batch(tensors, batch_size, capacity, min_after_dequeue, num_threads=1, seed=None,
                  enqueue_many=False, shapes=None, allow_smaller_final_batch=False,
                  shared_name=None, name=None):
  """Batches tensors in a random order through a RandomShuffleQueue."""
  return _shuffle_batch(tensors, batch_size, capacity, min_after_dequeue, None, num_threads, seed,
                        enqueue_many, shapes, allow_smaller_final_batch, shared_name, name)


def maybe_shuffle_batch(tensors, batch_size, capacity, min_after_dequeue, keep_input,
                        num_threads=1, seed=None, enqueue_many=False, shapes=None,
                        allow_smaller_final_batch=False, shared_name=None, name=None):
  return _shuffle_batch(tensors, batch_size, capacity, min_after_dequeue, keep_input, num_threads,
                        seed, enqueue_many, shapes, allow_smaller_final_batch, shared_name, name)


def shuffle_batch_join(tensors_list, batch_size, capacity, min_after_dequeue, seed=None,
                       enqueue_many=False, shapes=None, allow_smaller_final_batch=False,
                       shared_name=None, name=None):
  """shuffle_batch over several lists of tensors, one enqueuing thread per list."""
  return _shuffle_batch(tensors_list, batch_size, capacity, min_after_dequeue, None, 1, seed,
                        enqueue_many, shapes, allow_smaller_final_batch, shared_name, name,
                        join=True)


def maybe_shuffle_batch_join(tensors_list, batch_size, capacity, min_after_dequeue, keep_input,
                             seed=None, enqueue_many=False, shapes=None,
                             allow_smaller_final_batch=False, shared_name=None, name=None):
  return _shuffle_batch(tensors_list, batch_size, capacity, min_after_dequeue, keep_input, 1, seed,
                        enqueue_many, shapes, allow_smaller_final_batch, shared_name, name,
                        join=True)
