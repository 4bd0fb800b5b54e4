"""tf.train.Optimizer: the TF 1.15 graph-mode optimizer base class.

Subclasses create their slot variables in `_create_slots`, turn Python
hyper-parameters into tensors in `_prepare`, emit one fused update op per
variable in `_apply_dense`, and may add work after all updates in `_finish`.
"""
from tfc import dtypes as _dtypes
from tfc.framework import ops as _ops
from tfc.framework.op_def_library import _apply_op
from tfc.ops import array_ops as _array_ops
from tfc.ops import control_flow_ops as _control_flow_ops
from tfc.ops import init_ops as _init_ops
from tfc.ops import math_ops as _math_ops
from tfc.ops import state_ops as _state_ops
from tfc.ops import variable_scope as _variable_scope
from tfc.ops import variables as _variables


def _gradients_fn():
  """tf.gradients, imported when first needed (it lives in tfc.ops.gradients_impl)."""
  try:
    from tfc.ops import gradients_impl  # pylint: disable=g-import-not-at-top
  except ImportError:
    gradients_impl = None
  fn = getattr(gradients_impl, "gradients", None)
  if fn is None:
    raise NotImplementedError("tf.gradients is not available in this build of tfc")
  return fn


def _is_indexed_slices(g):
  return (not isinstance(g, _ops.Tensor) and hasattr(g, "indices") and hasattr(g, "values")
          and hasattr(g, "dense_shape"))


def _is_resource(var):
  """True for a ResourceVariable (its updates are the Resource* ops on its handle)."""
  return isinstance(var, _variables.Variable) and getattr(var, "handle", None) is not None


def _training_op(op_type, name, inputs, attrs):
  """The Operation updating variables with `op_type` ("ApplyAdam", ...): the ref op when
  inputs[0] is a ref tensor, `Resource<op_type>` when it is a resource handle (the
  variable inputs are then the handles of the variable and its slots)."""
  if inputs[0].dtype.base_dtype == _dtypes.resource:
    resource_op_type = "Resource" + op_type
    return _apply_op(resource_op_type, name, inputs, attrs)
  return _apply_op(op_type, name, inputs, attrs).outputs[0].op


def _sparse_training_op(op_type, name, inputs, attrs):
  """A row update `op_type` ("SparseApplyMomentum", ...): for ref variables the
  op's output ref tensor (as TF's training_ops), for resource handles the
  `Resource<op_type>` Operation (it has no outputs)."""
  op = _training_op(op_type, name, inputs, attrs)
  return op.outputs[0] if op.outputs else op


def _as_op(x):
  """The Operation of a Tensor, or x itself when it is an Operation."""
  return x.op if isinstance(x, _ops.Tensor) else x


def _var_key(var):
  """A key for `var` that is stable across its Python wrappers (graph + op name)."""
  return (var.op.graph, var.op.name)


# --------------------------------------------------------------------------- slots

def _create_slot_var(primary, val, scope, validate_shape, shape, dtype):
  shape = shape if callable(val) else None
  return _variable_scope.get_variable(scope, initializer=val, trainable=False, shape=shape,
                                      dtype=dtype, validate_shape=validate_shape,
                                      use_resource=_is_resource(primary))


def create_slot_with_initializer(primary, initializer, shape, dtype, name,
                                 colocate_with_primary=True):
  """A slot variable named `<primary op name>/<name>`, filled by `initializer`."""
  validate_shape = shape.is_fully_defined()
  prefix = primary.op.name
  with _variable_scope.variable_scope(None, prefix + "/" + name):
    if colocate_with_primary:
      with _ops.colocate_with(primary.op):
        return _create_slot_var(primary, initializer, "", validate_shape, shape, dtype)
    return _create_slot_var(primary, initializer, "", validate_shape, shape, dtype)


def create_slot(primary, val, name, colocate_with_primary=True):
  """A slot variable initialised from the tensor `val`."""
  validate_shape = val.get_shape().is_fully_defined()
  prefix = primary.op.name
  with _variable_scope.variable_scope(None, prefix + "/" + name):
    if colocate_with_primary:
      with _ops.colocate_with(primary.op):
        return _create_slot_var(primary, val, "", validate_shape, None, None)
    return _create_slot_var(primary, val, "", validate_shape, None, None)


def create_zeros_slot(primary, name, dtype=None, colocate_with_primary=True):
  """A slot variable of zeros shaped like `primary`."""
  if dtype is None:
    dtype = primary.dtype.base_dtype
  slot_shape = primary.get_shape()
  if slot_shape.is_fully_defined():
    return create_slot_with_initializer(primary, _init_ops.zeros_initializer(), slot_shape,
                                        dtype, name, colocate_with_primary)
  val = _array_ops.zeros(_array_ops.shape(primary), dtype=dtype)
  return create_slot(primary, val, name, colocate_with_primary)


# --------------------------------------------------------------------------- processors

class _RefVariableProcessor(object):
  """Applies an optimizer's update to a (ref) tf.Variable."""

  def __init__(self, v):
    self._v = v

  def target(self):
    return self._v._ref()  # pylint: disable=protected-access

  def update_op(self, optimizer, g):
    if isinstance(g, _ops.Tensor):
      update_op = optimizer._apply_dense(g, self._v)  # pylint: disable=protected-access
      constraint = getattr(self._v, "constraint", None)
      if constraint is not None:
        with _ops.control_dependencies([update_op]):
          return self._v.assign(constraint(self._v))
      return update_op
    if getattr(self._v, "constraint", None) is not None:
      raise RuntimeError("Cannot use a constraint function on a sparse variable.")
    return optimizer._apply_sparse_duplicate_indices(g, self._v)  # pylint: disable=protected-access


class _TensorProcessor(object):
  """Processor for a plain ref tensor in var_list (gradients can be computed, not applied)."""

  def __init__(self, v):
    self._v = v

  def target(self):
    return self._v

  def update_op(self, optimizer, g):
    raise NotImplementedError("Trying to update a Tensor ", self._v)


def _get_processor(v):
  if isinstance(v, _variables.Variable):
    return _RefVariableProcessor(v)
  if isinstance(v, _ops.Tensor):
    return _TensorProcessor(v)
  raise NotImplementedError("Trying to optimize unsupported type ", v)


# --------------------------------------------------------------------------- Optimizer

class Optimizer(object):
  """Base class for optimizers (TF 1.15 `tf.train.Optimizer`)."""

  GATE_NONE = 0
  GATE_OP = 1
  GATE_GRAPH = 2

  def __init__(self, use_locking, name):
    if not name:
      raise ValueError("Must specify the optimizer name")
    self._use_locking = use_locking
    self._name = name
    # slot name -> {_var_key(var): slot variable}
    self._slots = {}
    # (name, graph) -> non-slot variable (e.g. Adam's beta1_power)
    self._non_slot_dict = {}

  def get_name(self):
    return self._name

  # -- the public three-step API --------------------------------------------------------

  def minimize(self, loss, global_step=None, var_list=None, gate_gradients=GATE_OP,
               aggregation_method=None, colocate_gradients_with_ops=False, name=None,
               grad_loss=None):
    """compute_gradients + apply_gradients: returns the training op."""
    grads_and_vars = self.compute_gradients(
        loss, var_list=var_list, gate_gradients=gate_gradients,
        aggregation_method=aggregation_method,
        colocate_gradients_with_ops=colocate_gradients_with_ops, grad_loss=grad_loss)
    vars_with_grad = [v for g, v in grads_and_vars if g is not None]
    if not vars_with_grad:
      raise ValueError(
          "No gradients provided for any variable, check your graph for ops"
          " that do not support gradients, between variables %s and loss %s." %
          ([str(v) for _, v in grads_and_vars], loss))
    return self.apply_gradients(grads_and_vars, global_step=global_step, name=name)

  def compute_gradients(self, loss, var_list=None, gate_gradients=GATE_OP,
                        aggregation_method=None, colocate_gradients_with_ops=False,
                        grad_loss=None):
    """A list of (gradient or None, variable) pairs for `loss`."""
    if callable(loss):
      raise NotImplementedError("a callable loss is only supported in eager mode, "
                                "which tfc does not have")
    if gate_gradients not in [Optimizer.GATE_NONE, Optimizer.GATE_OP, Optimizer.GATE_GRAPH]:
      raise ValueError("gate_gradients must be one of: Optimizer.GATE_NONE, "
                       "Optimizer.GATE_OP, Optimizer.GATE_GRAPH.  Not %s" % gate_gradients)
    self._assert_valid_dtypes([loss])
    if grad_loss is not None:
      self._assert_valid_dtypes([grad_loss])
    if var_list is None:
      var_list = (_variables.trainable_variables() +
                  _ops.get_collection(_ops.GraphKeys.TRAINABLE_RESOURCE_VARIABLES))
    else:
      var_list = list(_flatten(var_list))
    # pylint: disable=protected-access
    var_list += _ops.get_collection(_ops.GraphKeys._STREAMING_MODEL_PORTS)
    # pylint: enable=protected-access
    processors = [_get_processor(v) for v in var_list]
    if not var_list:
      raise ValueError("No variables to optimize.")
    var_refs = [p.target() for p in processors]
    grads = _gradients_fn()(
        loss, var_refs, grad_ys=grad_loss, gate_gradients=(gate_gradients == Optimizer.GATE_OP),
        aggregation_method=aggregation_method,
        colocate_gradients_with_ops=colocate_gradients_with_ops)
    if gate_gradients == Optimizer.GATE_GRAPH:
      grads = _control_flow_ops.tuple(grads)
    grads_and_vars = list(zip(grads, var_list))
    self._assert_valid_dtypes([v for g, v in grads_and_vars if g is not None])
    return grads_and_vars

  def apply_gradients(self, grads_and_vars, global_step=None, name=None):
    """An op applying the gradients; increments `global_step` after all updates."""
    grads_and_vars = tuple(grads_and_vars)  # it may be a generator
    if not grads_and_vars:
      raise ValueError("No variables provided.")
    converted = []
    for g, v in grads_and_vars:
      if g is not None and not _is_indexed_slices(g):
        try:
          g = _ops.convert_to_tensor_or_indexed_slices(g)
        except TypeError:
          raise TypeError("Gradient must be convertible to a Tensor or IndexedSlices, or None: "
                          "%s" % g)
        if not isinstance(g, _ops.Tensor) and not _is_indexed_slices(g):
          raise TypeError("Gradient must be a Tensor, IndexedSlices, or None: %s" % g)
      converted.append((g, v, _get_processor(v)))
    var_list = [v for g, v, _ in converted if g is not None]
    if not var_list:
      raise ValueError("No gradients provided for any variable: %s." %
                       ([str(v) for _, v, _ in converted],))
    with _ops.init_scope(), _ops.control_dependencies(None):
      self._create_slots(var_list)
    update_ops = []
    with _ops.name_scope(name, self._name) as name:
      self._prepare()
      for grad, var, processor in converted:
        if grad is None:
          continue
        with _ops.name_scope("update_" + var.op.name), _ops.colocate_with(var.op):
          update_ops.append(processor.update_op(self, grad))
      if global_step is None:
        apply_updates = self._finish(update_ops, name)
      else:
        with _ops.control_dependencies([self._finish(update_ops, "update")]):
          gs_op = global_step.op if hasattr(global_step, "op") else global_step
          with _ops.colocate_with(gs_op):
            apply_updates = _state_ops.assign_add(global_step, 1, name=name)
      if isinstance(apply_updates, _ops.Tensor):
        apply_updates = apply_updates.op
      train_op = _ops.get_collection_ref(_ops.GraphKeys.TRAIN_OP)
      if apply_updates not in train_op:
        train_op.append(apply_updates)
      return apply_updates

  # -- slots -----------------------------------------------------------------------------

  def get_slot(self, var, name):
    """The slot variable `name` created for `var`, or None."""
    named_slots = self._slots.get(name, None)
    if not named_slots:
      return None
    return named_slots.get(_var_key(var), None)

  def get_slot_names(self):
    return sorted(self._slots.keys())

  def variables(self):
    """The optimizer's variables (slots and non-slot ones) in the default graph, by name."""
    g = _ops.get_default_graph()
    found = [v for v in self._non_slot_variables() if v.op.graph is g]
    for slots in self._slots.values():
      for v in slots.values():
        if v.op.graph is g:
          found.append(v)
    return sorted(found, key=lambda v: v.name)

  def _slot_dict(self, slot_name):
    named_slots = self._slots.get(slot_name, None)
    if named_slots is None:
      named_slots = {}
      self._slots[slot_name] = named_slots
    return named_slots

  def _get_or_make_slot(self, var, val, slot_name, op_name):
    named_slots = self._slot_dict(slot_name)
    if _var_key(var) not in named_slots:
      named_slots[_var_key(var)] = create_slot(var, val, op_name)
    return named_slots[_var_key(var)]

  def _get_or_make_slot_with_initializer(self, var, initializer, shape, dtype, slot_name,
                                         op_name):
    named_slots = self._slot_dict(slot_name)
    if _var_key(var) not in named_slots:
      named_slots[_var_key(var)] = create_slot_with_initializer(var, initializer, shape, dtype,
                                                                op_name)
    return named_slots[_var_key(var)]

  def _zeros_slot(self, var, slot_name, op_name):
    named_slots = self._slot_dict(slot_name)
    if _var_key(var) not in named_slots:
      named_slots[_var_key(var)] = create_zeros_slot(var, op_name)
    return named_slots[_var_key(var)]

  def _create_non_slot_variable(self, initial_value, name, colocate_with):
    graph = colocate_with.graph
    key = (name, graph)
    v = self._non_slot_dict.get(key, None)
    if v is None:
      with graph.as_default(), _ops.colocate_with(colocate_with.op):
        v = _variables.Variable(initial_value, name=name, trainable=False,
                                use_resource=_is_resource(colocate_with))
      self._non_slot_dict[key] = v
    return v

  def _get_non_slot_variable(self, name, graph=None):
    return self._non_slot_dict.get((name, graph), None)

  def _non_slot_variables(self):
    return self._non_slot_dict.values()

  # -- hooks for subclasses -----------------------------------------------------------------

  def _valid_dtypes(self):
    return set([_dtypes.float16, _dtypes.bfloat16, _dtypes.float32, _dtypes.float64])

  def _assert_valid_dtypes(self, tensors):
    valid_dtypes = self._valid_dtypes()
    for t in tensors:
      dtype = t.dtype.base_dtype
      if dtype not in valid_dtypes:
        raise ValueError("Invalid type %r for %s, expected: %s." %
                         (dtype, t.name, [v for v in valid_dtypes]))

  def _create_slots(self, var_list):
    pass

  def _prepare(self):
    pass

  def _apply_dense(self, grad, var):
    raise NotImplementedError()

  def _apply_sparse_duplicate_indices(self, grad, var):
    """Sums the rows of repeated indices (Unique + UnsortedSegmentSum), then
    `_apply_sparse` on the result, as TF 1.x's optimizers do (for resource
    variables too: their `_apply_sparse` emits the ResourceSparseApply* ops,
    so only the rows named by the indices are read and written)."""
    summed_values, unique_indices = _deduplicate_indexed_slices(grad.values, grad.indices)
    from tfc.framework.indexed_slices import IndexedSlices  # pylint: disable=g-import-not-at-top
    return self._apply_sparse(IndexedSlices(summed_values, unique_indices, grad.dense_shape),
                              var)

  def _apply_sparse(self, grad, var):
    raise NotImplementedError("sparse (IndexedSlices) gradients are not supported by %s" %
                              type(self).__name__)

  def _finish(self, update_ops, name_scope):
    return _control_flow_ops.group(*update_ops, name=name_scope)

  def _call_if_callable(self, param):
    return param() if callable(param) else param


def _deduplicate_indexed_slices(values, indices):
  """(summed values, unique indices): the rows of repeated indices added up."""
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  from tfc.ops import math_ops  # pylint: disable=g-import-not-at-top
  unique_indices, new_index_positions = array_ops.unique(indices)
  summed_values = math_ops.unsorted_segment_sum(values, new_index_positions,
                                                array_ops.shape(unique_indices)[0])
  return summed_values, unique_indices


def _flatten(x):
  if isinstance(x, (list, tuple)):
    for e in x:
      for y in _flatten(e):
        yield y
  elif isinstance(x, dict):
    for k in sorted(x):
      for y in _flatten(x[k]):
        yield y
  else:
    yield x


_ = _math_ops
