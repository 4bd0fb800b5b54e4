"""The state tf.gradients keeps while it differentiates through while loops
(TF 1.15's v1 control-flow gradient machinery).

For every forward WhileContext between ys and xs a `_GradLoopState` builds:
  * a forward loop counter (`f_count`) added to the forward loop, and a
    gradient loop (a WhileContext of its own, same frame structure) that
    counts the iterations back down (`b_count`);
  * for every forward value a gradient op needs, a stack (`StackV2`) that the
    forward loop pushes the value onto at each iteration and the gradient loop
    pops from, last first (`f_acc` / StackPushV2 / StackPopV2), ordered by
    control edges so the i-th pop meets the i-th push even with several
    iterations in flight;
  * accumulators (`b_acc`) summing the gradients of loop invariants over the
    iterations.
Nested loops get one state per loop, the inner counters saved on the outer
loop's stacks; a conditional inside a loop saves its predicate on a stack so
the gradient switches the same way at every iteration.
"""
from tfc import dtypes as _dtypes
from tfc.framework import constant_op as _constant_op
from tfc.framework import ops as _ops
from tfc.framework.op_def_library import _apply_op
from tfc.ops import array_ops as _array_ops
from tfc.ops import control_flow_ops as _cf


# ---------------------------------------------------------------------------
# Predicates on ops


def IsSwitch(op):
  return op.type in ("Switch", "RefSwitch")


def IsMerge(op):
  return op.type in ("Merge", "RefMerge")


def IsLoopExit(op):
  return op.type in ("Exit", "RefExit")


def IsLoopEnter(op):
  return op.type in ("Enter", "RefEnter")


def IsCondSwitch(op):
  """A Switch all of whose consumers live in conditional contexts."""
  if not IsSwitch(op) or not op.outputs:
    return False
  is_cond = True
  for o in op.outputs:
    for c in o._consumers():
      ctx = c._get_control_flow_context()
      if IsLoopEnter(c) and ctx is not None:
        ctx = ctx.outer_context
      is_cond = is_cond and (ctx is not None and ctx.IsCondContext())
  return is_cond


def IsLoopSwitch(op):
  """A Switch of a while loop's variable (not one of a conditional)."""
  if not IsSwitch(op):
    return False
  ctx = op._get_control_flow_context()
  return ctx is not None and ctx.IsWhileContext() and not IsCondSwitch(op)


def GetWhileContext(op):
  ctx = op._get_control_flow_context()
  if ctx is not None:
    ctx = ctx.GetWhileContext()
  return ctx


def GetLoopConstantEnter(value):
  """The constant Enter `value` forwards (through identities), or None."""
  op = value.op
  while op.type in ("Switch", "RefSwitch", "Identity", "RefIdentity"):
    op = op.inputs[0].op
  return op if _cf._is_loop_constant_enter(op) else None


def _stack_v2(dtype, name="f_acc"):
  max_size = _constant_op.constant(-1, _dtypes.int32)
  return _apply_op("StackV2", name, [max_size], {"elem_type": dtype}).outputs[0]


def _stack_push(handle, value, swap_memory):
  return _apply_op("StackPushV2", "StackPushV2", [handle, value],
                   {"swap_memory": bool(swap_memory)}).outputs[0]


def _stack_pop(handle, dtype):
  return _apply_op("StackPopV2", "StackPopV2", [handle], {"elem_type": dtype}).outputs[0]


def _shape_internal(t):
  return _array_ops.shape_internal(t, optimize=False)


# ---------------------------------------------------------------------------
# Per-loop state


class _GradLoopState(object):
  """The gradient loop of one forward while loop, and what links the two."""

  def __init__(self, forward_ctxt, outer_grad_state):
    self._outer_grad_state = outer_grad_state
    self._forward_context = None
    self._forward_index = None
    self._forward_sync = None
    self._grad_context = None
    self._grad_index = None
    self._grad_sync = None
    self._history_map = {}
    self._switch_map = {}
    self._unused_exits = []
    self._deferred_exits = []
    self._forward_loop_exits = list(forward_ctxt.loop_exits)
    self._pending_exits_count = len(forward_ctxt.loop_exits)

    if outer_grad_state is not None:
      outer_forward_ctxt = outer_grad_state.forward_context
    else:
      outer_forward_ctxt = forward_ctxt.outer_context

    if outer_forward_ctxt is not None:
      outer_forward_ctxt.Enter()
    cnt, forward_index = forward_ctxt.AddForwardLoopCounter(outer_grad_state)
    if outer_forward_ctxt is not None:
      outer_forward_ctxt.Exit()
    self._forward_context = forward_ctxt
    self._forward_index = forward_index

    if outer_grad_state is not None:
      # nested: remember the iteration count of every run of this inner loop
      outer_forward_ctxt.AddName(cnt.name)
      history_cnt = outer_grad_state.AddForwardAccumulator(cnt)
      outer_grad_ctxt = outer_grad_state.grad_context
      outer_grad_ctxt.Enter()
      self._grad_context = _cf.WhileContext(
          maximum_iterations=forward_ctxt.maximum_iterations,
          parallel_iterations=forward_ctxt.parallel_iterations,
          back_prop=forward_ctxt.back_prop, swap_memory=forward_ctxt.swap_memory,
          name=forward_ctxt.name, grad_state=self)
      real_cnt = outer_grad_state.AddBackpropAccumulatedValue(history_cnt, cnt)
      self._grad_index = self._grad_context.AddBackpropLoopCounter(real_cnt, outer_grad_state)
      outer_grad_ctxt.Exit()
    else:
      if outer_forward_ctxt is not None:
        outer_forward_ctxt.Enter()
      self._grad_context = _cf.WhileContext(
          maximum_iterations=forward_ctxt.maximum_iterations,
          parallel_iterations=forward_ctxt.parallel_iterations,
          back_prop=forward_ctxt.back_prop, swap_memory=forward_ctxt.swap_memory,
          name=forward_ctxt.name, grad_state=self)
      self._grad_index = self._grad_context.AddBackpropLoopCounter(cnt, outer_grad_state)
      if outer_forward_ctxt is not None:
        outer_forward_ctxt.Exit()

  @property
  def outer_grad_state(self):
    return self._outer_grad_state

  @property
  def forward_context(self):
    return self._forward_context

  @property
  def forward_index(self):
    return self._forward_index

  @property
  def grad_context(self):
    return self._grad_context

  @property
  def grad_index(self):
    return self._grad_index

  @property
  def history_map(self):
    return self._history_map

  @property
  def switch_map(self):
    return self._switch_map

  @property
  def unused_exits(self):
    return self._unused_exits

  @property
  def deferred_exits(self):
    return self._deferred_exits

  @property
  def forward_loop_exits(self):
    return self._forward_loop_exits

  @property
  def pending_exits_count(self):
    return self._pending_exits_count

  @pending_exits_count.setter
  def pending_exits_count(self, cnt):
    self._pending_exits_count = cnt

  @property
  def forward_sync(self):
    """A ControlTrigger in the forward loop that orders the pushes made
    inside conditionals before the next iteration's counter."""
    if self._forward_sync is None:
      with _ops.control_dependencies(None):
        self._forward_sync = _cf.control_trigger(name="f_sync")
      self._forward_sync._set_control_flow_context(self._forward_context)
      self._forward_index.op._add_control_inputs([self._forward_sync])
    return self._forward_sync

  @property
  def grad_sync(self):
    """A ControlTrigger in the gradient loop that orders the pops of one
    iteration before the next."""
    if self._grad_sync is None:
      with _ops.control_dependencies(None):
        self._grad_sync = _cf.control_trigger(name="b_sync")
      self._grad_sync._set_control_flow_context(self._grad_context)
      self._grad_index.op._add_control_inputs([self._grad_sync])
    return self._grad_sync

  def AddForwardAccumulator(self, value, dead_branch=False):
    """A stack, made outside the loops, that the forward loop pushes `value`
    onto at every iteration; returns the stack's handle."""
    graph = value.graph
    curr_ctxt = graph._get_control_flow_context()
    with _ops.control_dependencies(None):
      if curr_ctxt is not None:
        curr_ctxt.Enter()
      with _ops.colocate_with(value):
        acc = _stack_v2(value.dtype.base_dtype)
      if curr_ctxt is not None:
        curr_ctxt.Exit()
      enter_acc = self.forward_context.AddValue(acc)
      swap_enabled = self.forward_context.swap_memory
      value_ctxt = _cf._output_context(value.op)
      if value_ctxt is self.forward_context:
        self.forward_context.Enter()
        push = _stack_push(enter_acc, value, swap_enabled)
        self.forward_context.Exit()
        self.forward_index.op._add_control_inputs([push.op])
      else:
        if not isinstance(value_ctxt, _cf.CondContext):
          raise TypeError("value_ctxt is not a CondContext: %s" % value_ctxt)
        if dead_branch:
          value_ctxt.outer_context.Enter()
          push = _stack_push(enter_acc, value, swap_enabled)
          value_ctxt.outer_context.Exit()
          push.op._set_control_flow_context(value_ctxt)
        else:
          value_ctxt.Enter()
          push = _stack_push(enter_acc, value, swap_enabled)
          value_ctxt.Exit()
        self.forward_sync._add_control_inputs([push.op])
      add_op = self.forward_index.op.inputs[0].op
      push.op._add_control_inputs([add_op])
      return acc

  def AddBackpropAccumulatedValue(self, history_value, value, dead_branch=False):
    """Pops `value`'s saved history in the gradient loop (guarded by a Switch
    on the saved predicate when `value` lives in a conditional)."""
    history_ctxt = history_value.op._get_control_flow_context()
    cond_ctxt = None
    value_ctxt = value.op._get_control_flow_context()
    while value_ctxt is not None and value_ctxt is not history_ctxt:
      if isinstance(value_ctxt, _cf.CondContext):
        cond_ctxt = value_ctxt
        break
      value_ctxt = value_ctxt.outer_context
    with _ops.control_dependencies(None):
      self.grad_context.Enter()
      if cond_ctxt is not None:
        grad_state = self
        pred = None
        while pred is None and grad_state is not None:
          pred = grad_state.history_map.get(cond_ctxt.pred.name)
          grad_state = grad_state.outer_grad_state
        if pred is None:
          pred = cond_ctxt.pred
        branch = (1 - cond_ctxt.branch) if dead_branch else cond_ctxt.branch
        history_value = _cf._switch_ref_or_tensor(history_value, pred)[branch]
      pop = _stack_pop(history_value, value.dtype.base_dtype)
      pop.set_shape(value.get_shape())
      self.grad_context.Exit()
    if self.grad_context.parallel_iterations > 1:
      self.grad_sync._add_control_inputs([pop.op])
    return pop

  def GetRealValue(self, value):
    """The tensor standing for forward `value` in the gradient loop: the
    value itself for loop invariants, a clone for constants, else a pop of
    its saved history."""
    real_value = self._history_map.get(value.name)
    if real_value is None:
      cur_value = value
      cur_grad_state = self
      history_value = None
      while True:
        enter_op = GetLoopConstantEnter(cur_value)
        if enter_op is not None:
          cur_value = enter_op.inputs[0]
          cur_grad_state = cur_grad_state.outer_grad_state
          if cur_grad_state is None:
            real_value = self._grad_context.AddValue(cur_value)
            break
        elif cur_value.op.type == "Const" and cur_value.dtype != _dtypes.resource:
          real_value = _constant_op.constant(cur_value.op.get_attr("value"),
                                             dtype=cur_value.dtype)
          break
        else:
          self._grad_context.Exit()
          history_value = cur_grad_state.AddForwardAccumulator(cur_value)
          self._grad_context.Enter()
          break
      if real_value is None:
        real_value = cur_grad_state.AddBackpropAccumulatedValue(history_value, cur_value)
        if cur_grad_state is not self:
          real_value = self._grad_context.AddValue(real_value)
      self._history_map[value.name] = real_value
    return real_value


# ---------------------------------------------------------------------------
# The state of one tf.gradients call


class _ControlFlowState(object):
  """Maps each forward while context between ys and xs to its _GradLoopState."""

  def __init__(self):
    self._map = {}

  def GetGradState(self, op, before):
    if before and IsLoopExit(op):
      forward_ctxt = op._get_control_flow_context()
      forward_ctxt = forward_ctxt.outer_context
      if forward_ctxt is not None:
        forward_ctxt = forward_ctxt.GetWhileContext()
    else:
      forward_ctxt = GetWhileContext(op)
    if forward_ctxt is not None:
      return self._map.get(forward_ctxt)
    return None

  def ProcessUnusedLoopExits(self, pending_count, to_ops_set):
    loop_exits = []
    for grad_state in self._map.values():
      for y in grad_state.forward_loop_exits:
        if pending_count[y.op] == 0:
          grad_state.pending_exits_count -= 1
          if y.op not in to_ops_set:
            grad_state.unused_exits.append(y)
          if grad_state.pending_exits_count == 0:
            loop_exits.extend(grad_state.unused_exits)
      for y in grad_state.forward_context.loop_enters:
        if pending_count[y.op] == 0:
          pending_count[y.op] = 1
    return loop_exits

  def EnterGradWhileContext(self, op, before):
    grad_state = self.GetGradState(op, before)
    if grad_state is not None:
      grad_state.grad_context.Enter()

  def ExitGradWhileContext(self, op, before):
    grad_state = self.GetGradState(op, before)
    if grad_state is not None:
      grad_state.grad_context.Exit()

  def AddWhileContext(self, op, between_op_list, between_ops):
    forward_ctxt = GetWhileContext(op)
    grad_state = self._map.get(forward_ctxt)
    if grad_state is None:
      outer_forward_ctxt = forward_ctxt.outer_context
      if outer_forward_ctxt is not None:
        outer_forward_ctxt = outer_forward_ctxt.GetWhileContext()
      outer_grad_state = None
      if outer_forward_ctxt is not None:
        outer_grad_state = self._map.get(outer_forward_ctxt)
      grad_state = _GradLoopState(forward_ctxt, outer_grad_state)
      self._map[forward_ctxt] = grad_state
      for loop_exit in grad_state.forward_loop_exits:
        if loop_exit.op not in between_ops:
          between_ops.add(loop_exit.op)
          between_op_list.append(loop_exit.op)

  def ZerosLikeForExit(self, val):
    """Zeros standing for the gradient of an unused loop exit."""
    val_shape = val.get_shape()
    forward_ctxt = val.op._get_control_flow_context()
    outer_forward_ctxt = forward_ctxt.outer_context
    if outer_forward_ctxt is not None:
      outer_forward_ctxt = outer_forward_ctxt.GetWhileContext()
    outer_grad_state = None
    if outer_forward_ctxt is not None:
      outer_grad_state = self._map.get(outer_forward_ctxt)
    if outer_grad_state is not None:
      if val_shape.is_fully_defined():
        outer_grad_state.grad_context.Enter()
        result = _array_ops.zeros(val_shape.dims, val.dtype)
        outer_grad_state.grad_context.Exit()
      else:
        forward_ctxt.outer_context.Enter()
        shape = _shape_internal(val)
        forward_ctxt.outer_context.Exit()
        history_shape = outer_grad_state.AddForwardAccumulator(shape)
        outer_grad_ctxt = outer_grad_state.grad_context
        outer_grad_ctxt.Enter()
        real_shape = outer_grad_state.AddBackpropAccumulatedValue(history_shape, shape)
        result = _array_ops.zeros(real_shape, val.dtype)
        outer_grad_ctxt.Exit()
    else:
      if val_shape.is_fully_defined():
        result = _array_ops.zeros(val_shape.dims, val.dtype)
      else:
        result = _array_ops.zeros_like(val, optimize=False)
    return result

  def ZerosLike(self, op, index):
    """Zeros for output `index` of op, built in its gradient loop context."""
    if IsLoopSwitch(op):
      return None
    dead_branch = IsSwitch(op)
    forward_ctxt = GetWhileContext(op)
    grad_state = self._map.get(forward_ctxt)
    if grad_state is None:
      return ZerosLikeOutsideLoop(op, index)
    op_ctxt = op._get_control_flow_context()
    val = op.outputs[index]
    shape = val.get_shape()
    if shape.is_fully_defined():
      result = _constant_op.constant(0, shape=shape.dims, dtype=val.dtype.base_dtype)
      if dead_branch:
        pred = grad_state.history_map.get(op_ctxt.pred.name)
        branch = op_ctxt.branch
        result = _cf._switch_ref_or_tensor(result, pred)[1 - branch]
    else:
      if dead_branch:
        pred = op_ctxt.pred
        branch = op_ctxt.branch
        op_ctxt.outer_context.Enter()
        val = _cf._switch_ref_or_tensor(op.inputs[0], pred)[1 - branch]
        zeros_shape = _shape_internal(val)
        op_ctxt.outer_context.Exit()
        val.op._set_control_flow_context(op_ctxt)
        zeros_shape.op._set_control_flow_context(op_ctxt)
      else:
        op_ctxt.Enter()
        zeros_shape = _shape_internal(val)
        op_ctxt.Exit()
      grad_state.grad_context.Exit()
      history_zeros_shape = grad_state.AddForwardAccumulator(zeros_shape, dead_branch=dead_branch)
      grad_state.grad_context.Enter()
      shape = grad_state.AddBackpropAccumulatedValue(history_zeros_shape, zeros_shape,
                                                     dead_branch)
      result = _array_ops.zeros(shape, val.dtype.base_dtype)
    return result

  def PostProcessing(self):
    """Gives every gradient-loop Merge that got no back edge (a loop
    variable whose next value does not depend on itself) zeros for the
    later iterations."""
    for grad_state in self._map.values():
      for b_merge in grad_state.switch_map.values():
        if _cf._same_tensor(b_merge.op.inputs[0], b_merge.op.inputs[1]):
          dtype = b_merge.op.inputs[0].dtype.base_dtype
          shape = b_merge.op.inputs[0].get_shape()
          if shape.is_fully_defined():
            grad_state.grad_context.Enter()
            grad_val = _constant_op.constant(0, dtype=dtype, shape=shape.dims)
            next_grad_val = _cf._next_iteration(grad_val)
            grad_state.grad_context.Exit()
          else:
            outer_grad_ctxt = grad_state.grad_context.outer_context
            if outer_grad_ctxt is not None:
              outer_grad_ctxt.Enter()
            enter_grad_op = b_merge.op.inputs[0].op
            enter_grad = enter_grad_op.inputs[0]
            grad_shape = _shape_internal(enter_grad)
            grad_val = _array_ops.zeros(grad_shape, dtype)
            if outer_grad_ctxt is not None:
              outer_grad_ctxt.Exit()
            grad_state.grad_context.Enter()
            next_grad_val = _cf._next_iteration(grad_val)
            grad_state.grad_context.Exit()
          b_merge.op._update_input(1, next_grad_val)


def ZerosLikeOutsideLoop(op, index):
  """Zeros for output `index` of an op outside any differentiated loop (for a
  conditional's Switch, guarded so they exist only on the untaken side)."""
  val = op.outputs[index]
  if not IsSwitch(op):
    return _array_ops.zeros_like(val, optimize=False)
  op_ctxt = op._get_control_flow_context()
  if op_ctxt is not None and op_ctxt.IsCondContext():
    pred = op_ctxt.pred
    branch = op_ctxt.branch
    switch_val = _cf.switch(op.inputs[0], pred)[1 - branch]
    pivot = _array_ops.identity(switch_val)
    zeros_shape = _shape_internal(switch_val)
    with _ops.control_dependencies([pivot]):
      return _array_ops.zeros(zeros_shape, dtype=val.dtype.base_dtype)
  return _array_ops.zeros_like(val, optimize=False)


def MaybeCreateControlFlowState(between_op_list, between_ops, colocate_gradients_with_ops):
  """A _ControlFlowState when a loop exit lies between ys and xs, else None;
  adds every exit of those loops to the between set."""
  loop_state = None
  for op in list(between_op_list):
    if IsLoopExit(op):
      if loop_state is None:
        loop_state = _ControlFlowState()
      if colocate_gradients_with_ops:
        with _ops.colocate_with(op):
          loop_state.AddWhileContext(op, between_op_list, between_ops)
      else:
        loop_state.AddWhileContext(op, between_op_list, between_ops)
  return loop_state
