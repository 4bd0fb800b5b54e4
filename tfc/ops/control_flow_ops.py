"""Grouping and control-dependency helpers (TF 1.15 `control_flow_ops`)."""
import builtins as _builtins

from tfc.framework import nest as _nest
from tfc.framework import ops as _ops
from tfc.framework import tensor_shape as _tensor_shape
from tfc.framework.op_def_library import _apply_op


def no_op(name=None):
  return _apply_op("NoOp", name, [])


def _group_control_deps(dev, deps, name=None):
  with _ops.control_dependencies(deps):
    if dev is None:
      return no_op(name=name)
    with _ops.device(dev):
      return no_op(name=name)


def _flatten(inputs):
  for x in inputs:
    if isinstance(x, (list, _builtins.tuple)):
      for y in _flatten(x):
        yield y
    elif isinstance(x, dict):
      for k in sorted(x):
        for y in _flatten([x[k]]):
          yield y
    else:
      yield x


def group(*inputs, **kwargs):
  """An op (NoOp) that depends on all `inputs`, grouped per device."""
  name = kwargs.pop("name", None)
  if kwargs:
    raise ValueError("Unknown keyword arguments: " + ", ".join(kwargs.keys()))
  with _ops.name_scope(name, "group_deps", list(_flatten(inputs))) as name:
    if not inputs:
      return no_op(name=name)
    ops_on_device = {}
    for inp in _flatten(inputs):
      if not hasattr(inp, "device"):
        raise TypeError("Expected tf.group() expected Tensor arguments not '%s' with type '%s'"
                        % (inp, type(inp)))
      dev = inp.device
      if dev in ops_on_device:
        ops_on_device[dev].append(inp)
      else:
        ops_on_device[dev] = [inp]
    if len(ops_on_device) == 1:
      (dev, deps), = ops_on_device.items()
      return _group_control_deps(dev, deps, name=name)
    all_deps = []
    for dev in sorted(ops_on_device, key=lambda d: "" if d is None else d):
      all_deps.append(_group_control_deps(dev, ops_on_device[dev]))
    with _ops.control_dependencies(all_deps):
      return no_op(name=name)


def with_dependencies(dependencies, output_tensor, name=None):
  if getattr(output_tensor, "_tfc_indexed_slices", False):
    # an IndexedSlices: its values wait for the dependencies
    return type(output_tensor)(with_dependencies(dependencies, output_tensor.values, name),
                               output_tensor.indices, output_tensor.dense_shape)
  with _ops.name_scope(name, "control_dependency", list(dependencies) + [output_tensor]) as name:
    with _ops.colocate_with(output_tensor):
      with _ops.control_dependencies(dependencies):
        output_tensor = _ops.convert_to_tensor(output_tensor)
        return _apply_op("Identity", name, [output_tensor]).outputs[0]


def tuple(tensors, name=None, control_inputs=None):  # pylint: disable=redefined-builtin
  with _ops.name_scope(name, "tuple", [t for t in tensors if t is not None]) as name:
    gating_ops = [t.op for t in tensors if t is not None]
    if control_inputs:
      for c in control_inputs:
        if isinstance(c, _ops.Tensor):
          c = c.op
        elif not isinstance(c, _ops.Operation):
          raise TypeError("Control input must be Operation or Tensor: %s" % c)
        gating_ops.append(c)
    gating_ops = sorted(set(gating_ops), key=lambda op: op._id)
    if not gating_ops:
      raise ValueError("Must have at least one Tensor: %s" % tensors)
    gate = group(*gating_ops)
    tpl = []
    for t in tensors:
      if t is not None:
        tpl.append(with_dependencies([gate], t))
      else:
        tpl.append(None)
    return tpl


def identity(input, name=None):  # pylint: disable=redefined-builtin
  return _apply_op("Identity", name, [input]).outputs[0]


# ---------------------------------------------------------------------------
# Version-1 control flow: the low-level ops


def _is_ref(t):
  return t._dtype_enum > 100


def switch(data, pred, dtype=None, name=None):
  """Forwards `data` to output_true when `pred` is true, else to
  output_false; returns (output_false, output_true). The untaken output is a
  dead tensor: ops that depend on it do not run."""
  with _ops.name_scope(name, "Switch", [data, pred]) as name:
    data = _ops.convert_to_tensor(data, dtype=dtype, name="data")
    pred = _ops.convert_to_tensor(pred, name="pred")
    op = _apply_op("RefSwitch" if _is_ref(data) else "Switch", name, [data, pred])
    return op.outputs[0], op.outputs[1]


def _switch_ref_or_tensor(data, pred, name="Switch"):
  """The Switch a conditional puts on a value from outside it, colocated with
  the value (as TF does) so a value and its Switch share a device and only the
  predicate crosses to it."""
  data = _ops.convert_to_tensor(data, name="data")
  with _ops.colocate_with(data, ignore_existing=True):
    return switch(data, pred, name=name)


def merge(inputs, name=None):
  """Forwards the first available (live) tensor of `inputs`; returns
  (output, value_index)."""
  if any(x is None for x in inputs):
    raise ValueError("At least one of the merge inputs is None: %s" % inputs)
  with _ops.name_scope(name, "Merge", inputs) as name:
    inputs = [_ops.convert_to_tensor(x) for x in inputs]
    op_type = "RefMerge" if all(_is_ref(x) for x in inputs) else "Merge"
    op = _apply_op(op_type, name, [inputs])
    return op.outputs[0], op.outputs[1]


def _enter(data, frame_name, is_constant=False, parallel_iterations=10, use_input_shape=True,
           name=None):
  """Makes `data` available in the child frame `frame_name`."""
  data = _ops.convert_to_tensor(data)
  op_type = "RefEnter" if _is_ref(data) else "Enter"
  out = _apply_op(op_type, name or "Enter", [data],
                  {"frame_name": frame_name, "is_constant": bool(is_constant),
                   "parallel_iterations": int(parallel_iterations)}).outputs[0]
  if use_input_shape:
    out.set_shape(data.get_shape())
  return out


def exit(data, name=None):  # pylint: disable=redefined-builtin
  """Makes `data` available to the parent frame."""
  data = _ops.convert_to_tensor(data)
  return _apply_op("RefExit" if _is_ref(data) else "Exit", name or "Exit", [data]).outputs[0]


def _next_iteration(data, name=None):
  data = _ops.convert_to_tensor(data)
  op_type = "RefNextIteration" if _is_ref(data) else "NextIteration"
  return _apply_op(op_type, name or "NextIteration", [data]).outputs[0]


def loop_cond(input, name=None):  # pylint: disable=redefined-builtin
  """The termination condition of a while loop (a bool scalar)."""
  return _apply_op("LoopCond", name or "LoopCond", [input]).outputs[0]


def control_trigger(name=None):
  """An op that runs even when its control inputs are dead."""
  return _apply_op("ControlTrigger", name or "ControlTrigger", [])


def _identity(data, name=None):
  if _is_ref(data):
    return _apply_op("RefIdentity", name or "RefIdentity", [data]).outputs[0]
  return _apply_op("Identity", name or "Identity", [data]).outputs[0]


def _same_tensor(a, b):
  return a.op is b.op and a.value_index == b.value_index


class _OuterContext(object):
  """Sets the graph's control-flow context for a while (ops built for a
  context on behalf of its outer one)."""

  def __init__(self, graph, ctx):
    self._graph = graph
    self._ctx = ctx
    self._saved = None

  def __enter__(self):
    self._saved = self._graph._get_control_flow_context()
    self._graph._set_control_flow_context(self._ctx)

  def __exit__(self, *args):
    self._graph._set_control_flow_context(self._saved)


def _output_context(op):
  """The context an op's outputs live in (an Exit's is its loop's outer one)."""
  ctx = op._get_control_flow_context()
  if ctx is not None and op.type in ("Exit", "RefExit"):
    ctx = ctx.outer_context
  return ctx


# ---------------------------------------------------------------------------
# Contexts


class ControlFlowContext(object):
  """The base of CondContext and WhileContext: tracks which tensors belong to
  the context (`_values`) and which outside tensors were brought in
  (`_external_values`, by outside name)."""

  def __init__(self):
    self._graph = _ops.get_default_graph()
    self._outer_context = self._graph._get_control_flow_context()
    self._context_stack = []
    self._values = set()
    self._external_values = {}
    self._nested_contexts = []
    if self._outer_context is not None:
      self._outer_context._nested_contexts.append(self)

  def _to_values_def(self, export_scope=None):
    """A ValuesDef of this context's tensors (names relative to export_scope)."""
    from tfc import protos as _protos
    values_def = _protos.ValuesDef()
    values_def.values.extend([_ops.strip_name_scope(v, export_scope) for v in sorted(self._values)])
    for k, v in self._external_values.items():
      values_def.external_values[_ops.strip_name_scope(k, export_scope)] = \
          _ops.strip_name_scope(v.name, export_scope)
    return values_def

  def _init_values_from_proto(self, values_def, import_scope=None):
    """Restores _values/_external_values and marks the context's ops as built in it."""
    g = self._graph
    self._values = set(_ops.prepend_name_scope(v, import_scope) for v in values_def.values)
    self._external_values = {}
    for k, v in values_def.external_values.items():
      self._external_values[_ops.prepend_name_scope(k, import_scope)] = g.as_graph_element(
          _ops.prepend_name_scope(v, import_scope))
    op_names = set(v.split(":")[0] for v in self._values - set(self._external_values))
    for name in sorted(op_names):
      g.as_graph_element(name)._set_control_flow_context(self)

  def _nested_to_proto(self, nested_contexts, export_scope):
    for nested in self._nested_contexts:
      d = nested_contexts.add()
      if isinstance(nested, WhileContext):
        p = nested.to_proto(export_scope)
        if p is not None:
          d.while_ctxt.CopyFrom(p)
      else:
        p = nested.to_proto(export_scope)
        if p is not None:
          d.cond_ctxt.CopyFrom(p)

  @property
  def outer_context(self):
    return self._outer_context

  @property
  def name(self):
    return self._name

  def IsWhileContext(self):
    return False

  def IsCondContext(self):
    return False

  def GetWhileContext(self):
    if self._outer_context is not None:
      return self._outer_context.GetWhileContext()
    return None

  def GetControlPivot(self):
    return None

  def AddName(self, name):
    self._values.add(name)

  def Enter(self):
    """Makes this the graph's current context."""
    self._context_stack.append(self._graph._get_control_flow_context())
    self._graph._set_control_flow_context(self)

  def Exit(self):
    self._graph._set_control_flow_context(self._context_stack.pop())

  def ExitResult(self, result):
    if self._outer_context is not None:
      for x in _nest.flatten(result):
        if isinstance(x, _ops.Tensor):
          self._outer_context.AddName(x.name)

  def _in_context(self, op):
    """True when op was built in this context or one nested in it."""
    ctx = _output_context(op) if op.type in ("Exit", "RefExit") else op._get_control_flow_context()
    while ctx is not None:
      if ctx is self:
        return True
      ctx = ctx._outer_context
    return False

  def _mark_outputs(self, op):
    names = [t.name for t in op.outputs]
    ctx = self
    while ctx is not None:
      ctx._values.update(names)
      ctx = ctx._outer_context

  def _filter_control_inputs(self, control):
    """Control inputs for an op about to be built here: inside a while loop,
    those from outside the loop are dropped (a while context re-routes the
    ones with outputs through the loop)."""
    w = self.GetWhileContext()
    if w is None:
      return control
    kept, external = [], []
    for c in control:
      (kept if w._in_context(c) else external).append(c)
    if external and self.IsWhileContext():
      for c in external:
        if c.outputs:
          kept.append(_identity(c.outputs[0]).op)
    return kept


class CondContext(ControlFlowContext):
  """The context of one branch of a tf.cond (TF 1.15's v1 CondContext)."""

  def __init__(self, pred=None, pivot=None, branch=None, name="cond_text"):
    super(CondContext, self).__init__()
    self._name = self._graph.unique_name(name)
    self._pred = pred
    self._pivot = pivot
    self._branch = branch
    self._values.add(pred.name)
    self._external_values[pred.name] = pred
    self._values.add(pivot.name)
    pivot.op._set_control_flow_context(self)

  def to_proto(self, export_scope=None):
    """A CondContextDef of this context (None when outside export_scope)."""
    from tfc import protos as _protos
    if export_scope is not None and not self.name.startswith(export_scope):
      return None
    d = _protos.CondContextDef()
    d.context_name = _ops.strip_name_scope(self.name, export_scope)
    d.pred_name = _ops.strip_name_scope(self._pred.name, export_scope)
    d.pivot_name = _ops.strip_name_scope(self._pivot.name, export_scope)
    d.branch = self._branch
    d.values_def.MergeFrom(self._to_values_def(export_scope))
    self._nested_to_proto(d.nested_contexts, export_scope)
    return d

  @staticmethod
  def from_proto(context_def, import_scope=None):
    """A CondContext restored from a CondContextDef over the imported graph."""
    ret = CondContext.__new__(CondContext)
    ControlFlowContext.__init__(ret)
    g = ret._graph
    ret._name = _ops.prepend_name_scope(context_def.context_name, import_scope)
    ret._pred = g.as_graph_element(_ops.prepend_name_scope(context_def.pred_name, import_scope))
    ret._pivot = g.as_graph_element(_ops.prepend_name_scope(context_def.pivot_name, import_scope))
    ret._branch = context_def.branch
    ret._init_values_from_proto(context_def.values_def, import_scope)
    ret.Enter()
    for nested in context_def.nested_contexts:
      _from_control_flow_context_def(nested, import_scope)
    ret.Exit()
    return ret

  @property
  def pred(self):
    return self._pred

  @property
  def pivot(self):
    return self._pivot

  @property
  def branch(self):
    return self._branch

  def IsCondContext(self):
    return True

  def GetControlPivot(self):
    return self._pivot

  def AddValue(self, val):
    """The tensor standing for `val` inside this branch: `val` itself when it
    belongs here, else a Switch of it on the predicate (made once)."""
    if val.name in self._values:
      result = self._external_values.get(val.name)
      return val if result is None else result
    result = val
    self._values.add(val.name)
    if self._outer_context is not None:
      result = self._outer_context.AddValue(val)
      self._values.add(result.name)
      self._external_values[result.name] = result
    with _ops.control_dependencies(None), _OuterContext(self._graph, self._outer_context):
      result = _switch_ref_or_tensor(result, self._pred)[self._branch]
    self._graph.prevent_fetching(result.op)
    result.op._set_control_flow_context(self)
    ctx = self
    while ctx is not None:
      ctx._values.add(result.name)
      ctx = ctx._outer_context
    self._external_values[val.name] = result
    return result

  def _add_op(self, op):
    inputs = op.inputs
    if not inputs:
      if not any(self._in_context(c) for c in op.control_inputs):
        op._add_control_inputs([self._pivot.op])
    else:
      for i, x in enumerate(inputs):
        if op.type in ("Merge", "RefMerge") and x.op.type in ("NextIteration", "RefNextIteration"):
          continue
        real = self.AddValue(x)
        if not _same_tensor(real, x):
          op._update_input(i, real)
    self._mark_outputs(op)
    self._graph.prevent_fetching(op)

  def _process_output(self, val):
    real = val
    if val.name not in self._values:
      # a branch returning an outside tensor (`lambda: x`)
      self._values.add(val.name)
      if self._outer_context is not None:
        real = self._outer_context.AddValue(val)
        self._values.add(real.name)
        self._external_values[real.name] = real
      with _ops.control_dependencies(None), _OuterContext(self._graph, self._outer_context):
        real = _switch_ref_or_tensor(real, self._pred)[self._branch]
      real.op._set_control_flow_context(self)
      self._external_values[val.name] = real
    else:
      ext = self._external_values.get(val.name)
      if ext is not None:
        real = ext
    return real

  def _build_tensor(self, v):
    if isinstance(v, _ops.Operation):
      # an op result: the pivot stands for it
      return with_dependencies([v], self._pivot)
    return self._process_output(_ops.convert_to_tensor(v))

  def BuildCondBranch(self, fn):
    """Calls fn() in this context; returns (its result, the branch's tensors)."""
    original = fn()
    if original is None:
      return None, None
    result = _nest.map_structure(self._build_tensor, original)
    if not isinstance(result, (list, _builtins.tuple)):
      result = [result]
    return original, result


def _unpack_if_singleton(res):
  if isinstance(res, (list, _builtins.tuple)) and len(res) == 1:
    return res[0]
  return res


def cond(pred, true_fn=None, false_fn=None, strict=False, name=None, fn1=None, fn2=None):
  """Returns `true_fn()` if `pred` is true else `false_fn()` (TF 1.15 v1
  control flow: Switch/Merge ops, only the taken branch runs).

  Errors as TF 1.15: TypeError for a non-callable branch, a Python-bool or
  non-bool `pred`; ValueError for a non-scalar `pred`, a branch without a
  result, and branch results whose structure or dtypes differ."""
  if fn1 is not None:
    if true_fn is not None:
      raise TypeError("cond(): true_fn and fn1 may not be set simultaneously.")
    true_fn = fn1
  if fn2 is not None:
    if false_fn is not None:
      raise TypeError("cond(): false_fn and fn2 may not be set simultaneously.")
    false_fn = fn2
  if not callable(true_fn):
    raise TypeError("true_fn must be callable.")
  if not callable(false_fn):
    raise TypeError("false_fn must be callable.")
  with _ops.name_scope(name, "cond", [pred]):
    if isinstance(pred, bool):
      raise TypeError("pred must not be a Python bool")
    p_2, p_1 = switch(pred, pred)
    pivot_1 = _apply_op("Identity", "switch_t", [p_1]).outputs[0]
    pivot_2 = _apply_op("Identity", "switch_f", [p_2]).outputs[0]
    pred = _apply_op("Identity", "pred_id", [_ops.convert_to_tensor(pred)]).outputs[0]
    g = pred.graph
    for t in (p_1, p_2, pivot_1, pivot_2, pred):
      g.prevent_fetching(t.op)

    context_t = CondContext(pred, pivot_1, branch=1)
    try:
      context_t.Enter()
      orig_res_t, res_t = context_t.BuildCondBranch(true_fn)
      if orig_res_t is None:
        raise ValueError("true_fn must have a return value.")
      context_t.ExitResult(res_t)
    finally:
      context_t.Exit()

    context_f = CondContext(pred, pivot_2, branch=0)
    try:
      context_f.Enter()
      orig_res_f, res_f = context_f.BuildCondBranch(false_fn)
      if orig_res_f is None:
        raise ValueError("false_fn must have a return value.")
      context_f.ExitResult(res_f)
    finally:
      context_f.Exit()

    if not strict:
      orig_res_t = _unpack_if_singleton(orig_res_t)
      orig_res_f = _unpack_if_singleton(orig_res_f)
    try:
      _nest.assert_same_structure(orig_res_t, orig_res_f)
    except TypeError as e:
      raise TypeError("Incompatible return types of true_fn and false_fn: {}".format(e))
    except ValueError as e:
      raise ValueError("Incompatible return values of true_fn and false_fn: {}".format(e))
    if not res_t:
      raise ValueError("true_fn and false_fn must return at least one result.")
    res_t_flat = _nest.flatten(res_t)
    res_f_flat = _nest.flatten(res_f)
    for x, y in zip(res_f_flat, res_t_flat):
      if x.dtype.base_dtype != y.dtype.base_dtype:
        raise ValueError("Outputs of true_fn and false_fn must have the same type: %s, %s"
                         % (x.dtype.name, y.dtype.name))
    merges = [merge(list(pair))[0] for pair in zip(res_f_flat, res_t_flat)]
    if context_t.outer_context is None:
      _ops.add_to_collection("cond_context", context_t)
      _ops.add_to_collection("cond_context", context_f)
    merges = _nest.pack_sequence_as(orig_res_t, merges)
    if not strict:
      merges = _unpack_if_singleton(merges)
    return merges


def _shape_less_than_or_equal(shape1, shape2):
  if shape2.dims is None:
    return True
  if shape1.ndims != shape2.ndims:
    return False
  for d1, d2 in zip(shape1.dims, shape2.dims):
    if d2.value is not None and d1.value != d2.value:
      return False
  return True


def _is_tensor_array(x):
  from tfc.ops import tensor_array_ops as _ta
  return isinstance(x, _ta.TensorArray)


def _ta_to_flow(x):
  """A loop variable as a tensor: a TensorArray stands for its flow."""
  if _is_tensor_array(x):
    return x.flow
  return _ops.convert_to_tensor(x)


def _flows_to_tas(originals, tensors):
  """tensors with those at TensorArray positions of `originals` turned back
  into TensorArrays (same handle, the given flow)."""
  return [o._with_flow(t) if _is_tensor_array(o) else t for o, t in zip(originals, tensors)]


def _is_loop_constant_enter(op):
  return op.type in ("Enter", "RefEnter") and op.get_attr("is_constant")


class WhileContext(ControlFlowContext):
  """The context of one tf.while_loop (TF 1.15's v1 WhileContext): its ops
  run in the frame `name`; outside tensors used inside enter the frame as
  loop constants."""

  def __init__(self, maximum_iterations=None, parallel_iterations=10, back_prop=True,
               swap_memory=False, name="while_context", grad_state=None):
    super(WhileContext, self).__init__()
    self._name = self._graph.unique_name(name)
    self._grad_state = grad_state
    self._maximum_iterations = maximum_iterations
    self._parallel_iterations = parallel_iterations
    self._back_prop = back_prop
    self._swap_memory = swap_memory
    self._pivot_for_pred = None
    self._pivot_for_body = None
    self._pivot = None
    self._loop_exits = []
    self._loop_enters = []

  @property
  def maximum_iterations(self):
    return self._maximum_iterations

  @property
  def grad_state(self):
    """The _GradLoopState of a gradient loop (None for a forward loop)."""
    return self._grad_state

  def to_proto(self, export_scope=None):
    """A WhileContextDef of this loop (None when outside export_scope)."""
    from tfc import protos as _protos
    if export_scope is not None and not self.name.startswith(export_scope):
      return None
    strip = lambda n: _ops.strip_name_scope(n, export_scope)
    d = _protos.WhileContextDef()
    d.context_name = strip(self.name)
    d.parallel_iterations = self._parallel_iterations
    if self._maximum_iterations is not None:
      d.maximum_iterations_name = strip(self._maximum_iterations.name)
    d.back_prop = self._back_prop
    d.swap_memory = self._swap_memory
    d.pivot_for_pred_name = strip(self._pivot_for_pred.name)
    d.pivot_for_body_name = strip(self._pivot_for_body.name)
    d.pivot_name = strip(self._pivot.name)
    d.loop_exit_names.extend([strip(t.name) for t in self._loop_exits])
    d.loop_enter_names.extend([strip(t.name) for t in self._loop_enters])
    d.values_def.MergeFrom(self._to_values_def(export_scope))
    self._nested_to_proto(d.nested_contexts, export_scope)
    return d

  @staticmethod
  def from_proto(context_def, import_scope=None):
    """A WhileContext restored from a WhileContextDef over the imported graph
    (so that tf.gradients can differentiate the imported loop)."""
    ret = WhileContext.__new__(WhileContext)
    ControlFlowContext.__init__(ret)
    g = ret._graph
    elem = lambda n: g.as_graph_element(_ops.prepend_name_scope(n, import_scope))
    ret._name = _ops.prepend_name_scope(context_def.context_name, import_scope)
    ret._grad_state = None
    ret._maximum_iterations = (elem(context_def.maximum_iterations_name)
                               if context_def.maximum_iterations_name else None)
    ret._parallel_iterations = context_def.parallel_iterations
    ret._back_prop = context_def.back_prop
    ret._swap_memory = context_def.swap_memory
    ret._pivot_for_pred = elem(context_def.pivot_for_pred_name)
    ret._pivot_for_body = elem(context_def.pivot_for_body_name)
    ret._pivot = elem(context_def.pivot_name)
    ret._loop_exits = [elem(n) for n in context_def.loop_exit_names]
    ret._loop_enters = [elem(n) for n in context_def.loop_enter_names]
    ret._init_values_from_proto(context_def.values_def, import_scope)
    ret.Enter()
    for nested in context_def.nested_contexts:
      _from_control_flow_context_def(nested, import_scope)
    ret.Exit()
    return ret

  @property
  def parallel_iterations(self):
    return self._parallel_iterations

  @property
  def back_prop(self):
    return self._back_prop

  @property
  def swap_memory(self):
    return self._swap_memory

  @property
  def pivot(self):
    return self._pivot

  @property
  def loop_exits(self):
    return self._loop_exits

  @property
  def loop_enters(self):
    return self._loop_enters

  def IsWhileContext(self):
    return True

  def GetWhileContext(self):
    return self

  def GetControlPivot(self):
    if self._pivot_for_body is not None:
      return self._pivot_for_body
    return self._pivot_for_pred

  def AddValue(self, val):
    """The tensor standing for `val` inside the loop: `val` itself when it
    belongs to the loop, else a constant Enter of it (made once)."""
    if val.name in self._values or val.op._get_control_flow_context() is self:
      actual = self._external_values.get(val.name)
      return val if actual is None else actual
    self._values.add(val.name)
    # In a gradient loop, a value of the forward loop stands for its history:
    # the gradient state saves it on a stack and pops it here.
    grad_ctxt = self._graph._get_control_flow_context()
    if grad_ctxt is not None:
      grad_ctxt = grad_ctxt.GetWhileContext()
      if grad_ctxt is not None and grad_ctxt.grad_state is not None:
        forward_ctxt = val.op._get_control_flow_context()
        if forward_ctxt is not None:
          forward_ctxt = forward_ctxt.GetWhileContext()
        if val.op.type in ("Exit", "RefExit") and forward_ctxt is not None:
          forward_ctxt = forward_ctxt.outer_context
          if forward_ctxt is not None:
            forward_ctxt = forward_ctxt.GetWhileContext()
        if forward_ctxt is grad_ctxt.grad_state.forward_context:
          real_val = grad_ctxt.grad_state.GetRealValue(val)
          self._external_values[val.name] = real_val
          return real_val
    result = val
    if self._outer_context is not None:
      result = self._outer_context.AddValue(val)
    with _ops.control_dependencies(None), _OuterContext(self._graph, self._outer_context):
      enter = _enter(result, self._name, is_constant=True,
                     parallel_iterations=self._parallel_iterations)
    self._graph.prevent_feeding(enter)
    self._fix_enters([enter])
    self._values.add(enter.name)
    self._external_values[val.name] = enter
    return enter

  def _fix_enters(self, enters):
    """Puts Enter ops in this context, with the control dependencies active
    around the loop that belong to an enclosing context."""
    g = self._graph
    for e in enters:
      inp_op = e.op.inputs[0].op
      keep = []
      for c in g._control_dependencies_for_inputs([inp_op]):
        c_ctx = _output_context(c)
        ctx = self._outer_context
        outer_while = ctx.GetWhileContext() if ctx is not None else None
        ok = True
        while ctx is not c_ctx:
          if ctx is None or ctx is outer_while:
            ok = False
            break
          ctx = ctx._outer_context
        if ok:
          keep.append(c)
      e.op._set_control_flow_context(self)
      if keep:
        e.op._add_control_inputs(keep)

  def _add_op(self, op):
    inputs = op.inputs
    if not inputs:
      if not any(self._in_context(c) for c in op.control_inputs):
        op._add_control_inputs([self.GetControlPivot().op])
    else:
      for i, x in enumerate(inputs):
        real = self.AddValue(x)
        if not _same_tensor(real, x):
          op._update_input(i, real)
      if not op.control_inputs and all(_is_loop_constant_enter(x.op) for x in op.inputs):
        # an op fed only by loop constants would otherwise run once
        op._add_control_inputs([self.GetControlPivot().op])
    self._mark_outputs(op)
    if self._outer_context is not None or op.type not in ("Exit", "RefExit"):
      self._graph.prevent_fetching(op)

  def _build_loop(self, pred, body, loop_vars, shape_invariants):
    flat_orig = _nest.flatten(loop_vars)
    flat_vars = [_ta_to_flow(x) for x in flat_orig]
    self._values = set(x.name for x in flat_vars)
    real_vars = flat_vars
    if self._outer_context is not None:
      real_vars = [self._outer_context.AddValue(x) for x in flat_vars]
    with _ops.control_dependencies(None), _OuterContext(self._graph, self._outer_context):
      enter_vars = [_enter(x, self._name, is_constant=False,
                           parallel_iterations=self._parallel_iterations,
                           use_input_shape=(shape_invariants is None)) for x in real_vars]
    for x in enter_vars:
      self._graph.prevent_feeding(x)
    outer = self._outer_context
    control_pivot = None
    while outer is not None and control_pivot is None:
      control_pivot = outer.GetControlPivot()
      outer = outer.outer_context
    if control_pivot is not None:
      for var in enter_vars:
        if _is_loop_constant_enter(var.op.inputs[0].op):
          var.op._add_control_inputs([control_pivot.op])
    if shape_invariants is not None:
      flat_shapes = _nest.flatten(shape_invariants)
      for inp, var, shape, orig in zip(real_vars, enter_vars, flat_shapes, flat_orig):
        if _is_tensor_array(orig):
          continue
        shape = _tensor_shape.as_shape(shape)
        if not _shape_less_than_or_equal(inp.get_shape(), shape):
          raise ValueError(
              "The shape invariant specified for %s is not compatible with the initial shape "
              "of the loop variable. It enters the loop with shape %s, but the specified shape "
              "invariant is %s." % (inp.name, inp.get_shape(), shape))
        var.set_shape(shape)
    self._fix_enters(enter_vars)
    self._values = set(x.name for x in enter_vars)
    self._loop_enters = enter_vars
    merge_vars = [merge([x, x])[0] for x in enter_vars]
    self._pivot_for_pred = merge_vars[0]
    packed = _nest.pack_sequence_as(loop_vars, _flows_to_tas(flat_orig, merge_vars))
    c = _ops.convert_to_tensor(pred(*packed))
    self._pivot = loop_cond(c, name="LoopCond")
    switch_vars = [_switch_ref_or_tensor(x, self._pivot) for x in merge_vars]
    vars_for_body = [_identity(x[1]) for x in switch_vars]
    self._pivot_for_body = vars_for_body[0]
    packed_body = _nest.pack_sequence_as(loop_vars, _flows_to_tas(flat_orig, vars_for_body))
    body_result = body(*packed_body)
    if not _nest.is_sequence(body_result):
      body_result = [body_result]
    _nest.assert_same_structure(list(packed_body), list(body_result))
    result = [_ta_to_flow(x) for x in _nest.flatten(body_result)]
    if len(merge_vars) != len(result):
      raise ValueError("Number of inputs and outputs of body must match loop_vars: %d, %d"
                       % (len(merge_vars), len(result)))
    for m, v in zip(merge_vars, result):
      n = _next_iteration(v)
      m_shape, n_shape = m.get_shape(), n.get_shape()
      if not _shape_less_than_or_equal(n_shape, m_shape):
        input_t = m.op.inputs[0].op.inputs[0]
        raise ValueError(
            "Input tensor '%s' enters the loop with shape %s, but has shape %s after one "
            "iteration. To allow the shape to vary across iterations, use the "
            "`shape_invariants` argument of tf.while_loop to specify a less-specific shape."
            % (input_t.name, input_t.shape, n_shape))
      m.op._update_input(1, n)
    exit_vars = [exit(x[0]) for x in switch_vars]
    self._loop_exits = exit_vars
    self.ExitResult(exit_vars)
    return body_result, exit_vars

  def AddForwardLoopCounter(self, outer_grad_state):
    """Adds a counter of this loop's iterations (`f_count`); returns (the
    total count at exit, the counter's next value)."""
    from tfc.framework import constant_op as _constant_op
    from tfc.ops import math_ops as _math_ops
    n = _constant_op.constant(0, name="f_count")
    if outer_grad_state is not None:
      # order the pushes of the i-th run of this inner loop before the (i+1)-th's
      outer_add_op = outer_grad_state.forward_index.op.inputs[0].op
      n.op._add_control_inputs([outer_add_op])
    self.Enter()
    self.AddName(n.name)
    enter_n = _enter(n, self._name, is_constant=False,
                     parallel_iterations=self._parallel_iterations, name="f_count")
    self._loop_enters.append(enter_n)
    merge_n = merge([enter_n, enter_n])[0]
    switch_n = switch(merge_n, self._pivot)
    index = _math_ops.add(switch_n[1], 1)
    next_n = _next_iteration(index)
    merge_n.op._update_input(1, next_n)
    total_iterations = exit(switch_n[0], name="f_count")
    self._loop_exits.append(total_iterations)
    self.ExitResult([total_iterations])
    self.Exit()
    return total_iterations, next_n

  def AddBackpropLoopCounter(self, count, outer_grad_state):
    """Makes this (gradient) loop run `count` iterations (`b_count`);
    returns the counter's next value."""
    from tfc.framework import constant_op as _constant_op
    from tfc.ops import math_ops as _math_ops
    one = _constant_op.constant(1, name="b_count")
    self.Enter()
    self.AddName(count.name)
    enter_count = _enter(count, self._name, is_constant=False,
                         parallel_iterations=self._parallel_iterations, name="b_count")
    self._loop_enters.append(enter_count)
    merge_count = merge([enter_count, enter_count])[0]
    self._pivot_for_pred = merge_count
    pred = _math_ops.greater_equal(merge_count, one)
    self._pivot = loop_cond(pred, name="b_count")
    switch_count = switch(merge_count, self._pivot)
    index = _math_ops.subtract(switch_count[1], one)
    self._pivot_for_body = index
    next_count = _next_iteration(index)
    merge_count.op._update_input(1, next_count)
    final_zero = exit(switch_count[0], name="b_count")
    self._loop_exits.append(final_zero)
    if outer_grad_state is not None:
      # order the pops of the i-th run of this inner loop before the (i+1)-th's
      outer_grad_state.grad_sync._add_control_inputs([final_zero.op])
    self.ExitResult([final_zero])
    self.Exit()
    return next_count

  def AddBackpropAccumulator(self, op, grad):
    """Sums `grad` (the gradient of loop invariant `op`, an Enter) over the
    iterations of this gradient loop (`b_acc`); returns the sum at exit.
    Called with this context entered; leaves it entered."""
    from tfc.framework import constant_op as _constant_op
    from tfc.ops import array_ops as _array_ops
    from tfc.ops import math_ops as _math_ops
    self.Exit()
    shape = grad.get_shape()
    if shape.is_fully_defined():
      if self.outer_context is not None:
        self.outer_context.Enter()
      acc = _constant_op.constant(0, grad.dtype.base_dtype, shape=shape.dims, name="b_acc")
      if self.outer_context is not None:
        self.outer_context.Exit()
    else:
      value = op.inputs[0]
      if (isinstance(self.outer_context, WhileContext)
          and self.outer_context.grad_state is not None):
        forward_ctxt = self.grad_state.forward_context
        forward_ctxt.outer_context.Enter()
        zeros_shape = _array_ops.shape_internal(value, optimize=False)
        forward_ctxt.outer_context.Exit()
        outer_grad_state = self.grad_state.outer_grad_state
        history_zeros_shape = outer_grad_state.AddForwardAccumulator(zeros_shape)
        self.outer_context.Enter()
        real_shape = outer_grad_state.AddBackpropAccumulatedValue(history_zeros_shape,
                                                                  zeros_shape)
        acc = _array_ops.zeros(real_shape, grad.dtype.base_dtype)
        self.outer_context.Exit()
      else:
        if self.outer_context is not None:
          self.outer_context.Enter()
        zeros_shape = _array_ops.shape_internal(value, optimize=False)
        acc = _array_ops.zeros(zeros_shape, grad.dtype.base_dtype)
        if self.outer_context is not None:
          self.outer_context.Exit()
    self.Enter()
    self.AddName(acc.name)
    enter_acc = _enter(acc, self._name, is_constant=False,
                       parallel_iterations=self._parallel_iterations, name="b_acc")
    self._loop_enters.append(enter_acc)
    merge_acc = merge([enter_acc, enter_acc], name="b_acc")[0]
    switch_acc_false, switch_acc_true = switch(merge_acc, self._pivot)
    add_acc = _math_ops.add(switch_acc_true, grad)
    next_acc = _next_iteration(add_acc)
    merge_acc.op._update_input(1, next_acc)
    result_acc = exit(switch_acc_false, name="b_acc")
    self._loop_exits.append(result_acc)
    self.ExitResult([result_acc])
    return result_acc

  def BuildLoop(self, pred, body, loop_vars, shape_invariants, return_same_structure=False):
    """Builds the loop; returns the Exit tensors in loop_vars' structure."""
    loop_vars = _nest.pack_sequence_as(
        loop_vars, [x if _is_tensor_array(x) else _ops.convert_to_tensor(x)
                    for x in _nest.flatten(loop_vars)])
    try:
      self.Enter()
      original_body_result, exit_vars = self._build_loop(pred, body, loop_vars,
                                                         shape_invariants)
    finally:
      self.Exit()
    packed = _nest.pack_sequence_as(
        original_body_result, _flows_to_tas(_nest.flatten(original_body_result), exit_vars))
    if return_same_structure:
      return packed
    return packed[0] if len(exit_vars) == 1 else packed


def while_loop(cond, body, loop_vars, shape_invariants=None, parallel_iterations=10,
               back_prop=True, swap_memory=False, name=None, maximum_iterations=None,
               return_same_structure=False):
  """Repeats `body` while `cond` is true (TF 1.15 v1 control flow: Enter,
  Merge, Switch, LoopCond, NextIteration and Exit ops in a frame of its own).

  loop_vars is any nested structure of tensors; cond and body take its items
  as arguments and body returns the same structure. A loop variable whose
  shape changes from one iteration to the next needs `shape_invariants`
  (ValueError otherwise). `maximum_iterations` stops the loop after that many
  iterations (never an error). swap_memory is accepted and has no effect."""
  if not callable(cond):
    raise TypeError("cond must be callable.")
  if not callable(body):
    raise TypeError("body must be callable.")
  if parallel_iterations < 1:
    raise TypeError("parallel_iterations must be a positive integer.")
  if isinstance(loop_vars, (list, _builtins.tuple)) and len(loop_vars) == 0 or loop_vars is None:
    raise ValueError("No loop variables provided")
  with _ops.name_scope(name, "while", _nest.flatten(loop_vars)):
    try_to_pack = (isinstance(loop_vars, (list, _builtins.tuple)) and len(loop_vars) == 1
                   and not return_same_structure)
    if maximum_iterations is not None:
      maximum_iterations = _ops.convert_to_tensor(maximum_iterations, name="maximum_iterations")
      if maximum_iterations.shape.ndims != 0:
        raise ValueError("maximum_iterations must be a scalar, saw shape: %s"
                         % maximum_iterations.shape)
      from tfc.framework import constant_op as _constant_op
      counter = _constant_op.constant(0, dtype=maximum_iterations.dtype, name="iteration_counter")
      orig_cond, orig_body = cond, body
      if try_to_pack:
        loop_vars = (counter, loop_vars[0])
        cond = lambda i, lv: _logical_and(i < maximum_iterations, orig_cond(lv))
        body = lambda i, lv: (i + 1, orig_body(lv))
      else:
        loop_vars = (counter, loop_vars)
        cond = lambda i, lv: _logical_and(i < maximum_iterations, orig_cond(*lv))
        body = lambda i, lv: (i + 1, orig_body(*lv))
      try_to_pack = False
      if shape_invariants is not None:
        shape_invariants = (_tensor_shape.TensorShape([]), shape_invariants)
    if not isinstance(loop_vars, (list, _builtins.tuple)):
      loop_vars = [loop_vars]
      try_to_pack = True
    context = WhileContext(maximum_iterations=maximum_iterations,
                           parallel_iterations=parallel_iterations, back_prop=back_prop,
                           swap_memory=swap_memory)
    if context.outer_context is None:
      _ops.add_to_collection("while_context", context)
    if shape_invariants is not None:
      if try_to_pack and not isinstance(shape_invariants, (list, _builtins.tuple)):
        shape_invariants = [shape_invariants]
      _nest.assert_same_structure(loop_vars, shape_invariants, check_types=False)
    result = context.BuildLoop(cond, body, loop_vars, shape_invariants,
                               return_same_structure=True)
    if maximum_iterations is not None:
      result = result[1]
    if try_to_pack and isinstance(result, (list, _builtins.tuple)) and len(result) == 1:
      return result[0]
    if not return_same_structure and isinstance(result, (list, _builtins.tuple)) \
        and len(result) == 1 and not hasattr(result, "_fields"):
      return result[0]
    return result


def _logical_and(a, b):
  return _apply_op("LogicalAnd", "LogicalAnd", [a, b]).outputs[0]


# ---------------------------------------------------------------------------
# tf.case


def _assert_at_most_n_true(predicates, n, msg):
  from tfc.ops import array_ops as _array_ops
  from tfc.ops import math_ops as _math_ops
  from tfc.ops.logging_ops import Assert
  from tfc.framework import constant_op as _constant_op
  preds_c = _array_ops.stack(predicates, name="preds_c")
  num_true = _math_ops.reduce_sum(_math_ops.cast(preds_c, "int32"), name="num_true_conds")
  condition = _math_ops.less_equal(num_true, _constant_op.constant(n, name="n_true_conds"))
  preds_names = ", ".join(getattr(p, "name", "?") for p in predicates)
  error_msg = ["%s: more than %d conditions (%s) evaluated as True:" % (msg, n, preds_names),
               preds_c]
  return Assert(condition, data=error_msg, summarize=len(predicates))


def _case_canonicalize(pred_fn_pairs):
  if isinstance(pred_fn_pairs, dict):
    pred_fn_pairs = list(pred_fn_pairs.items())
  elif not isinstance(pred_fn_pairs, (list, _builtins.tuple)):
    raise TypeError("fns must be a list, tuple, or dict")
  for pred_fn_pair in pred_fn_pairs:
    if not isinstance(pred_fn_pair, _builtins.tuple) or len(pred_fn_pair) != 2:
      raise TypeError("Each entry in pred_fn_pairs must be a 2-tuple")
    pred, fn = pred_fn_pair
    if not isinstance(pred, _ops.Tensor) or pred.dtype.base_dtype.name != "bool":
      raise TypeError("pred must be Tensor of type bool: %s" % getattr(pred, "name", pred))
    if not callable(fn):
      raise TypeError("fn for pred %s must be callable." % pred.name)
  return [p for p, _ in pred_fn_pairs], [f for _, f in pred_fn_pairs]


def _case_default_action(predicates, actions):
  """Without a default, the last pair acts as one, guarded by an Assert that
  its predicate is true (and none of the others)."""
  from tfc.ops.logging_ops import Assert
  from tfc.ops import array_ops as _array_ops
  k = len(predicates) - 1
  predicate, action = predicates[k], actions[k]
  other_predicates, other_actions = predicates[:k], actions[:k]

  def default_action():
    deps = []
    if other_predicates:
      deps.append(_assert_at_most_n_true(
          other_predicates, n=0,
          msg="Implementation error: selected default action #%d was called, but some of "
              "other predicates are True: " % k))
    deps.append(Assert(predicate, data=("Input error: None of conditions evaluated as True:",
                                        _array_ops.stack(predicates, name="preds_c"))))
    with _ops.control_dependencies(deps):
      return action()

  return default_action, other_predicates, other_actions


def case(pred_fn_pairs, default=None, exclusive=False, strict=False, name="case"):
  """Runs the fn of the first pred that is true (TF 1.15 `tf.case`, built
  from nested conds). With no true pred and no default the step fails with
  InvalidArgumentError; exclusive=True also fails when more than one is true."""
  import functools
  predicates, actions = _case_canonicalize(pred_fn_pairs)
  with _ops.name_scope(name, "case", [predicates]):
    if default is None:
      default, predicates, actions = _case_default_action(predicates, actions)
    fn = default
    for predicate, action in reversed(list(zip(predicates, actions))):
      fn = functools.partial(cond, predicate, action, fn, strict=strict)
    if exclusive and predicates:
      with _ops.control_dependencies([_assert_at_most_n_true(predicates, n=1,
                                                             msg="Input error: exclusive=True")]):
        return fn()
    return fn()


def _from_control_flow_context_def(context_def, import_scope=None):
  """The CondContext or WhileContext a ControlFlowContextDef describes."""
  if context_def.HasField("cond_ctxt"):
    return CondContext.from_proto(context_def.cond_ctxt, import_scope=import_scope)
  if context_def.HasField("while_ctxt"):
    return WhileContext.from_proto(context_def.while_ctxt, import_scope=import_scope)
  raise NotImplementedError("Unknown ControlFlowContextDef field: %s"
                            % context_def.WhichOneof("ctxt"))
