"""Queues (TF 1.15's tf.FIFOQueue, tf.PaddingFIFOQueue, tf.RandomShuffleQueue,
tf.PriorityQueue, also as tf.queue.*), and row partitioning and stitching
(tf.dynamic_partition, tf.dynamic_stitch, tf.parallel_dynamic_stitch).

A queue is a session resource made by its constructor op (FIFOQueueV2, ...)
and reached through a `resource` handle tensor; enqueue and dequeue ops wait
without holding a thread (the C kernels complete when an element or room
arrives), close wakes every waiter (dequeue: OutOfRangeError, enqueue:
CancelledError), and closing the session or RunOptions.timeout_in_ms cancels
waiting ops.

    q = tf.FIFOQueue(10, [tf.float32], shapes=[[2]])
    enq = q.enqueue_many([[[1., 2.], [3., 4.]]])
    x = q.dequeue()
"""
from tfc import dtypes as _dtypes
from tfc.framework import ops as _ops
from tfc.framework import random_seed as _random_seed
from tfc.framework import tensor_shape as _tensor_shape
from tfc.framework.op_def_library import _apply_op


def _as_type_list(dtypes):
  if isinstance(dtypes, (list, tuple)):
    return [_dtypes.as_dtype(d) for d in dtypes]
  return [_dtypes.as_dtype(dtypes)]


def _as_shape_list(shapes, dtypes, unknown_dim_allowed=False, unknown_rank_allowed=False):
  """Returns a list of TensorShapes (one per dtype) or None when unspecified."""
  if shapes is None:
    return None
  if isinstance(shapes, _tensor_shape.TensorShape):
    shapes = [shapes]
  if not isinstance(shapes, (tuple, list)):
    raise TypeError("shapes must be a list of shapes, got %r" % (shapes,))
  if all(s is None or isinstance(s, int) for s in shapes):
    shapes = [shapes]  # one shape (() or [] is the scalar shape), as TF reads it
  shapes = [_tensor_shape.as_shape(s) for s in shapes]
  if not unknown_dim_allowed:
    if any(not s.is_fully_defined() for s in shapes):
      raise ValueError("All shapes must be fully defined: %s" % shapes)
  if not unknown_rank_allowed:
    if any(s.dims is None for s in shapes):
      raise ValueError("All shapes must have a defined rank: %s" % shapes)
  return shapes


def _shape_attr(shape):
  return None if shape.dims is None else [d if d is not None else -1 for d in shape.as_list()]


class QueueBase(object):
  """Base class for queues: enqueue, enqueue_many, dequeue, dequeue_many,
  dequeue_up_to, close, is_closed, size (TF 1.15's tf.QueueBase)."""

  def __init__(self, dtypes, shapes, names, queue_ref):
    self._dtypes = dtypes
    if shapes is not None:
      if len(shapes) != len(dtypes):
        raise ValueError("Queue shapes must have the same length as dtypes")
      self._shapes = [_tensor_shape.TensorShape(s) for s in shapes]
    else:
      self._shapes = [_tensor_shape.unknown_shape() for _ in self._dtypes]
    if names is not None:
      if len(names) != len(dtypes):
        raise ValueError("Queue names must have the same length as dtypes")
      self._names = names
    else:
      self._names = None
    self._queue_ref = queue_ref
    self._name = queue_ref.op.name.split("/")[-1]

  @property
  def queue_ref(self):
    return self._queue_ref

  @property
  def name(self):
    return self._queue_ref.op.name

  @property
  def dtypes(self):
    return self._dtypes

  @property
  def shapes(self):
    return self._shapes

  @property
  def names(self):
    return self._names

  def _check_enqueue_dtypes(self, vals):
    if isinstance(vals, dict):
      if not self._names:
        raise ValueError("Queue must have names to enqueue a dictionary")
      if sorted(self._names, key=str) != sorted(vals.keys(), key=str):
        raise ValueError("Keys in dictionary to enqueue do not match names of Queue.  Dictionary: %s, "
                         "Queue: %s" % (sorted(vals.keys()), sorted(self._names)))
      vals = [vals[k] for k in self._names]
    else:
      if self._names:
        raise ValueError("You must enqueue a dictionary in a Queue with names")
      if not isinstance(vals, (list, tuple)):
        vals = [vals]
    if len(vals) != len(self._dtypes):
      raise ValueError("Expected %d components to enqueue, got %d" % (len(self._dtypes), len(vals)))
    tensors = []
    for i, (val, dtype) in enumerate(zip(vals, self._dtypes)):
      tensors.append(_ops.convert_to_tensor(val, dtype=dtype, name="component_%d" % i))
    return tensors

  def _scope(self, name, suffix):
    return name if name is not None else "%s_%s" % (self._name, suffix)

  def enqueue(self, vals, name=None):
    """Enqueues one element (a tuple, list, dict or single tensor); the op
    waits while the queue is full."""
    with _ops.name_scope(self._scope(name, "enqueue")) as scope:
      vals = self._check_enqueue_dtypes(vals)
      for val, shape in zip(vals, self._shapes):
        val.get_shape().assert_is_compatible_with(shape)
      return _apply_op("QueueEnqueueV2", scope, [self._queue_ref, vals])

  def enqueue_many(self, vals, name=None):
    """Enqueues the slices of vals along dimension 0."""
    with _ops.name_scope(self._scope(name, "EnqueueMany")) as scope:
      vals = self._check_enqueue_dtypes(vals)
      batch_dim = _tensor_shape.Dimension(None)
      for val, shape in zip(vals, self._shapes):
        s = val.get_shape().with_rank_at_least(1)
        batch_dim = batch_dim.merge_with(s[0])
        s[1:].assert_is_compatible_with(shape)
      return _apply_op("QueueEnqueueManyV2", scope, [self._queue_ref, vals])

  def _dequeue_return_value(self, tensors):
    if self._names:
      return {n: t for n, t in zip(self._names, tensors)}
    if len(tensors) == 1:
      return tensors[0]
    return tensors

  def _dequeue_op(self, op_type, name, suffix, n=None):
    inputs = [self._queue_ref] if n is None else [self._queue_ref, n]
    return _apply_op(op_type, self._scope(name, suffix), inputs, {"component_types": self._dtypes})

  def dequeue(self, name=None):
    """Dequeues one element; OutOfRangeError once the queue is closed and empty."""
    op = self._dequeue_op("QueueDequeueV2", name, "Dequeue")
    outs = list(op.outputs)
    for t, shape in zip(outs, self._shapes):
      t.set_shape(shape)
    return self._dequeue_return_value(outs)

  def dequeue_many(self, n, name=None):
    """Dequeues and concatenates n elements (waits for all n)."""
    n_t = _ops.convert_to_tensor(n, dtype=_dtypes.int32, name="n")
    op = self._dequeue_op("QueueDequeueManyV2", name, "DequeueMany", n_t)
    batch = _static_int(n)
    outs = list(op.outputs)
    for t, shape in zip(outs, self._shapes):
      t.set_shape(_tensor_shape.TensorShape([batch]).concatenate(shape))
    return self._dequeue_return_value(outs)

  def dequeue_up_to(self, n, name=None):
    """Dequeues up to n elements: fewer only once the queue is closed."""
    n_t = _ops.convert_to_tensor(n, dtype=_dtypes.int32, name="n")
    op = self._dequeue_op("QueueDequeueUpToV2", name, "DequeueUpTo", n_t)
    outs = list(op.outputs)
    for t, shape in zip(outs, self._shapes):
      t.set_shape(_tensor_shape.TensorShape([None]).concatenate(shape))
    return self._dequeue_return_value(outs)

  def close(self, cancel_pending_enqueues=False, name=None):
    """Closes the queue: later enqueues fail, dequeues drain what is left."""
    return _apply_op("QueueCloseV2", self._scope(name, "Close"), [self._queue_ref],
                     {"cancel_pending_enqueues": bool(cancel_pending_enqueues)})

  def is_closed(self, name=None):
    return _apply_op("QueueIsClosedV2", self._scope(name, "IsClosed"), [self._queue_ref]).outputs[0]

  def size(self, name=None):
    return _apply_op("QueueSizeV2", self._scope(name, "Size"), [self._queue_ref]).outputs[0]


def _queue_attrs(dtypes, shapes, capacity, shared_name):
  attrs = {"component_types": dtypes, "capacity": int(capacity),
           "shared_name": shared_name or ""}
  if shapes is not None:
    attrs["shapes"] = [_shape_attr(s) for s in shapes]
  return attrs


class FIFOQueue(QueueBase):
  """A queue that dequeues elements in first-in first-out order."""

  def __init__(self, capacity, dtypes, shapes=None, names=None, shared_name=None,
               name="fifo_queue"):
    dtypes = _as_type_list(dtypes)
    shapes = _as_shape_list(shapes, dtypes)
    names = _as_name_list(names, dtypes)
    ref = _apply_op("FIFOQueueV2", name, [], _queue_attrs(dtypes, shapes, capacity, shared_name)).outputs[0]
    super(FIFOQueue, self).__init__(dtypes, shapes, names, ref)


class PaddingFIFOQueue(QueueBase):
  """A FIFOQueue whose dequeue_many pads components to the largest shape in
  the batch (shapes may have None dimensions)."""

  def __init__(self, capacity, dtypes, shapes, names=None, shared_name=None,
               name="padding_fifo_queue"):
    dtypes = _as_type_list(dtypes)
    shapes = _as_shape_list(shapes, dtypes, unknown_dim_allowed=True)
    names = _as_name_list(names, dtypes)
    if len(dtypes) != len(shapes):
      raise ValueError("Shapes must be provided for all components, but received %d dtypes and %d shapes."
                       % (len(dtypes), len(shapes)))
    ref = _apply_op("PaddingFIFOQueueV2", name, [],
                    _queue_attrs(dtypes, shapes, capacity, shared_name)).outputs[0]
    super(PaddingFIFOQueue, self).__init__(dtypes, shapes, names, ref)


class RandomShuffleQueue(QueueBase):
  """A queue that dequeues elements in a random order; a dequeue waits while
  fewer than min_after_dequeue elements would remain, until the queue closes."""

  def __init__(self, capacity, min_after_dequeue, dtypes, shapes=None, names=None, seed=None,
               shared_name=None, name="random_shuffle_queue"):
    dtypes = _as_type_list(dtypes)
    shapes = _as_shape_list(shapes, dtypes)
    names = _as_name_list(names, dtypes)
    seed1, seed2 = _random_seed.get_seed(seed)
    if seed1 is None and seed2 is None:
      seed1, seed2 = 0, 0
    elif seed is None and shared_name is not None:
      # a shared queue gets the same stream wherever it is built (as TF)
      import hashlib  # pylint: disable=g-import-not-at-top
      string = (str(seed1) + shared_name).encode("utf-8")
      seed2 = int(hashlib.md5(string).hexdigest()[:8], 16) & 0x7FFFFFFF
    attrs = _queue_attrs(dtypes, shapes, capacity, shared_name)
    attrs.update({"min_after_dequeue": int(min_after_dequeue), "seed": int(seed1), "seed2": int(seed2)})
    ref = _apply_op("RandomShuffleQueueV2", name, [], attrs).outputs[0]
    super(RandomShuffleQueue, self).__init__(dtypes, shapes, names, ref)


class PriorityQueue(QueueBase):
  """A queue whose elements carry an int64 priority as their first component;
  the smallest priority is dequeued first."""

  def __init__(self, capacity, types, shapes=None, names=None, shared_name=None,
               name="priority_queue"):
    types = _as_type_list(types)
    shapes = _as_shape_list(shapes, types)
    if shapes is None:
      shapes = []
    attrs = {"component_types": types, "capacity": int(capacity), "shared_name": shared_name or "",
             "shapes": [_shape_attr(s) for s in shapes]}
    ref = _apply_op("PriorityQueueV2", name, [], attrs).outputs[0]
    priority_dtypes = [_dtypes.int64] + types
    priority_shapes = [()] + shapes if shapes else shapes
    super(PriorityQueue, self).__init__(priority_dtypes, priority_shapes or None, names, ref)


def _static_int(n):
  """n as a Python int when known while building the graph, else None."""
  try:
    import numbers  # pylint: disable=g-import-not-at-top
    if isinstance(n, numbers.Integral):
      return int(n)
    if hasattr(n, "op") and n.op.type == "Const":
      return int(n.op.get_attr("value"))
  except Exception:  # pylint: disable=broad-except
    pass
  return None


def _as_name_list(names, dtypes):
  if names is None:
    return None
  if not isinstance(names, (list, tuple)):
    names = [names]
  if len(names) != len(dtypes):
    raise ValueError("List of names must have the same length as the list of dtypes")
  return list(names)


def dynamic_partition(data, partitions, num_partitions, name=None):
  """Splits `data` into `num_partitions` tensors: the rows (the elements under
  each position of `partitions`) whose partition is i go to output i, in order.

  Raises InvalidArgumentError at run time for a partition outside [0, num_partitions).
  """
  if not isinstance(num_partitions, int) or num_partitions < 1:
    raise ValueError("num_partitions must be an int >= 1, got %r" % (num_partitions,))
  return list(_apply_op("DynamicPartition", name, [data, partitions],
                        {"num_partitions": num_partitions}).outputs)


def dynamic_stitch(indices, data, name=None):
  """Interleaves the rows of `data[i]` into one tensor: merged[indices[i][k]] = data[i][k]
  (later entries win for repeated indices)."""
  indices = list(indices)
  data = list(data)
  if len(indices) != len(data):
    raise ValueError("dynamic_stitch needs as many data tensors as index tensors (%d vs %d)"
                     % (len(data), len(indices)))
  return _apply_op("DynamicStitch", name, [indices, data]).outputs[0]


def parallel_dynamic_stitch(indices, data, name=None):
  """dynamic_stitch with an unspecified winner among repeated indices (here: the last)."""
  indices = list(indices)
  data = list(data)
  if len(indices) != len(data):
    raise ValueError("parallel_dynamic_stitch needs as many data tensors as index tensors "
                     "(%d vs %d)" % (len(data), len(indices)))
  return _apply_op("ParallelDynamicStitch", name, [indices, data]).outputs[0]



class ConditionalAccumulatorBase(object):
  """A conditional accumulator (TF 1.15's tf.ConditionalAccumulatorBase):
  gradients applied with a local step older than the accumulator's global
  step are dropped; a take waits until enough gradients are in, returns their
  mean (or sum), resets the count and advances the global step."""

  def __init__(self, dtype, shape, accumulator_ref):
    self._dtype = dtype
    if shape is not None:
      self._shape = _tensor_shape.TensorShape(shape)
    else:
      self._shape = _tensor_shape.unknown_shape()
    self._accumulator_ref = accumulator_ref
    self._name = accumulator_ref.op.name.split("/")[-1]

  @property
  def accumulator_ref(self):
    """The handle (a Ref(string) tensor) of the accumulator."""
    return self._accumulator_ref

  @property
  def name(self):
    """The name of the op that made the accumulator."""
    return self._accumulator_ref.op.name

  @property
  def dtype(self):
    """The element type of the gradients."""
    return self._dtype

  def num_accumulated(self, name=None):
    """An int32 scalar: the gradients summed since the last take."""
    if name is None:
      name = "%s_NumAccumulated" % self._name
    return _apply_op(self._op("AccumulatorNumAccumulated"), name, [self._accumulator_ref]).outputs[0]

  def set_global_step(self, new_global_step, name=None):
    """An op that sets the global step gradients are judged stale against."""
    from tfc.ops import math_ops  # pylint: disable=g-import-not-at-top
    step = math_ops.cast(_ops.convert_to_tensor(new_global_step), _dtypes.int64)
    return _apply_op(self._op("AccumulatorSetGlobalStep"), name, [self._accumulator_ref, step])

  def _op(self, op_type):
    """The op type for this accumulator's handle (resource or Ref(string))."""
    if self._accumulator_ref.dtype == _dtypes.resource:
      return "Resource" + op_type
    return op_type


def _accumulator_attrs(dtype, shape, shared_name, reduction_type):
  return {"dtype": dtype, "shape": _shape_attr(shape), "shared_name": shared_name or "",
          "reduction_type": reduction_type}


class ConditionalAccumulator(ConditionalAccumulatorBase):
  """A conditional accumulator of dense gradients (TF's
  tf.ConditionalAccumulator, made by ResourceConditionalAccumulator as in TF
  1.15 and later; the ResourceAccumulator* ops use it).

      acc = tf.ConditionalAccumulator(tf.float32, shape=[2])
      apply = acc.apply_grad([1., 2.], local_step=0)
      mean = acc.take_grad(2)   # waits for two applied gradients
  """

  def __init__(self, dtype, shape=None, shared_name=None, name="conditional_accumulator",
               reduction_type="MEAN"):
    dtype = _dtypes.as_dtype(dtype)
    shape = _tensor_shape.TensorShape(shape) if shape is not None else _tensor_shape.unknown_shape()
    ref = _apply_op("ResourceConditionalAccumulator", name, [],
                    _accumulator_attrs(dtype, shape, shared_name, reduction_type)).outputs[0]
    super(ConditionalAccumulator, self).__init__(dtype, shape, ref)

  def apply_grad(self, grad, local_step=0, name=None):
    """An op adding `grad` unless `local_step` is older than the global step.

    Raises:
      ValueError: the gradient's shape is incompatible with the accumulator's.
    """
    from tfc.ops import math_ops  # pylint: disable=g-import-not-at-top
    grad = _ops.convert_to_tensor(grad, self._dtype)
    grad.get_shape().assert_is_compatible_with(self._shape)
    local_step = math_ops.cast(_ops.convert_to_tensor(local_step), _dtypes.int64)
    return _apply_op(self._op("AccumulatorApplyGradient"), name, [self._accumulator_ref, local_step, grad],
                     {"dtype": self._dtype})

  def take_grad(self, num_required, name=None):
    """The mean (or sum) of the gradients, once `num_required` are in; the
    op waits until then and advances the global step."""
    out = _apply_op(self._op("AccumulatorTakeGradient"), name, [self._accumulator_ref, num_required],
                    {"dtype": self._dtype}).outputs[0]
    out.set_shape(self._shape)
    return out


class SparseConditionalAccumulator(ConditionalAccumulatorBase):
  """A conditional accumulator of sparse gradients (IndexedSlices), TF 1.15's
  tf.SparseConditionalAccumulator: rows with the same index are summed, and
  the mean divides each row by the number of gradients that held it."""

  def __init__(self, dtype, shape=None, shared_name=None, name="sparse_conditional_accumulator",
               reduction_type="MEAN"):
    dtype = _dtypes.as_dtype(dtype)
    shape = _tensor_shape.TensorShape(shape) if shape is not None else _tensor_shape.unknown_shape()
    ref = _apply_op("SparseConditionalAccumulator", name, [],
                    _accumulator_attrs(dtype, shape, shared_name, reduction_type)).outputs[0]
    super(SparseConditionalAccumulator, self).__init__(dtype, shape, ref)

  def apply_indexed_slices_grad(self, grad, local_step=0, name=None):
    """apply_grad for an IndexedSlices gradient."""
    return self.apply_grad(grad_indices=grad.indices, grad_values=grad.values,
                           grad_shape=grad.dense_shape, local_step=local_step, name=name)

  def apply_grad(self, grad_indices, grad_values, grad_shape=None, local_step=0, name=None):
    """An op adding the sparse gradient (indices, values[, dense shape])
    unless `local_step` is older than the global step."""
    from tfc.ops import math_ops  # pylint: disable=g-import-not-at-top
    local_step = math_ops.cast(_ops.convert_to_tensor(local_step), _dtypes.int64)
    indices = math_ops.cast(grad_indices, _dtypes.int64)
    values = _ops.convert_to_tensor(grad_values, self._dtype)
    if grad_shape is None:
      shape = _ops.convert_to_tensor([], _dtypes.int64)
    else:
      shape = math_ops.cast(grad_shape, _dtypes.int64)
    return _apply_op("SparseAccumulatorApplyGradient", name,
                     [self._accumulator_ref, local_step, indices, values, shape],
                     {"dtype": self._dtype, "has_known_shape": grad_shape is not None})

  def take_grad(self, num_required, name=None):
    """(indices, values, shape) of the mean (or sum), once `num_required`
    gradients are in."""
    op = _apply_op("SparseAccumulatorTakeGradient", name, [self._accumulator_ref, num_required],
                   {"dtype": self._dtype})
    return _SparseTake(*op.outputs)

  def take_indexed_slices_grad(self, num_required, name=None):
    """take_grad as an IndexedSlices."""
    from tfc.framework.indexed_slices import IndexedSlices  # pylint: disable=g-import-not-at-top
    out = self.take_grad(num_required, name=name)
    return IndexedSlices(indices=out.indices, values=out.values, dense_shape=out.shape)


import collections as _collections  # noqa: E402
_SparseTake = _collections.namedtuple("SparseAccumulatorTakeGradient", ["indices", "values", "shape"])
