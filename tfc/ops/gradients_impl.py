"""`tf.gradients`: symbolic reverse-mode differentiation over a graph.

One forward sweep from the ops of `xs` marks what they reach; one backward
sweep from the ops of `ys` keeps the ops between the two. Each of those ops
counts how many of its consumers (inside that set) still owe it a gradient;
an op whose count reaches zero has all its output gradients, which are summed
(AddN) and handed to its registered gradient function inside the name scope
'<op name>_grad' under the 'gradients' scope.
"""
import collections

from tfc import dtypes as _dtypes
from tfc.framework import ops as _ops
from tfc.framework.op_def_library import _apply_op
from tfc.ops import gradient_registry as _registry

_Tensor = _ops.Tensor


class AggregationMethod(object):
  """How gradient contributions to one tensor are summed (all use AddN here)."""
  ADD_N = 0
  DEFAULT = ADD_N
  EXPERIMENTAL_TREE = 1
  EXPERIMENTAL_ACCUMULATE_N = 2


_AGGREGATION_METHODS = (AggregationMethod.ADD_N, AggregationMethod.EXPERIMENTAL_TREE,
                        AggregationMethod.EXPERIMENTAL_ACCUMULATE_N)

# Dtypes through which gradients flow (TF's "backpropagatable"/trainable set).
_TRAINABLE = frozenset(d.as_datatype_enum for d in (
    _dtypes.float16, _dtypes.float32, _dtypes.float64, _dtypes.bfloat16,
    _dtypes.complex64, _dtypes.complex128, _dtypes.resource, _dtypes.variant))


def _is_trainable(t):
  e = t._dtype_enum
  if e > 100:
    e -= 100
  return e in _TRAINABLE


def _as_list(x):
  if x is None:
    return []
  if isinstance(x, (list, tuple)):
    return list(x)
  return [x]


def _to_ref_or_tensor(x, name):
  """xs entries: a Variable stands for its ref tensor, as in TF 1.x."""
  if isinstance(x, _Tensor):
    return x
  ref = getattr(x, "_ref", None)
  if callable(ref):
    return ref()
  var = getattr(x, "_variable", None)
  if isinstance(var, _Tensor):
    return var
  return _ops.convert_to_tensor(x, name=name)


def _default_grad_ys(ys, grad_ys, colocate):
  """grad_ys with None entries replaced by ones shaped like their y."""
  from tfc.ops import array_ops
  from tfc.framework import constant_op
  out = []
  for i, (y, gy) in enumerate(zip(ys, grad_ys)):
    if gy is None:
      if y.dtype.is_complex:
        raise TypeError("Gradients of complex tensors must set grad_ys (y.dtype = %s)"
                        % y.dtype.name)
      with _maybe_colocate(y.op, colocate):
        dims = array_ops.shape(y)
        one = constant_op.constant(1, dtype=y.dtype.base_dtype, name="grad_ys_%d" % i)
        gy = array_ops.fill(dims, one)
      out.append(gy)
      continue
    if not isinstance(gy, _Tensor):
      gy = _ops.convert_to_tensor(gy, dtype=y.dtype.base_dtype, name="grad_ys_%d" % i)
    yd, gd = y.dtype.base_dtype, gy.dtype.base_dtype
    if yd.is_floating or yd.is_integer:
      if not (gd.is_floating or gd.is_integer):
        raise TypeError("Gradient type %s generated for real or integer tensor %s with type %s "
                        "must be real or integer" % (gd.name, y, yd.name))
    elif yd.is_complex:
      if not gd.is_complex:
        raise TypeError("Gradient type %s generated for complex tensor %s with type %s must "
                        "be real" % (gd.name, y, yd.name))
    else:
      raise TypeError("Tensor %s with type %s must be numeric to obtain a default gradient"
                      % (y, yd.name))
    out.append(gy)
  return out


class _NullContext(object):
  def __enter__(self):
    return None

  def __exit__(self, *unused):
    return False


_NULL = _NullContext()


def _maybe_colocate(op, colocate):
  if colocate:
    return op.graph.colocate_with(op, ignore_existing=True)
  return _NULL


def _zeros_like_output(t):
  return _apply_op("ZerosLike", None, [t]).outputs[0]


def _is_slices(g):
  return getattr(g, "_tfc_indexed_slices", False)


def _aggregate(grads_list):
  """The sum of the gradient contributions of one tensor (None when none).
  IndexedSlices contributions stay sparse when all are sparse (their values
  and indices concatenated); mixed with dense ones they are summed densely."""
  if not grads_list:
    return None
  if len(grads_list) == 1:
    return grads_list[0]
  if any(_is_slices(g) for g in grads_list):
    if all(_is_slices(g) for g in grads_list):
      from tfc.framework.indexed_slices import IndexedSlices  # pylint: disable=g-import-not-at-top
      axis = _ops.convert_to_tensor(0)
      values = _apply_op("ConcatV2", None, [[g.values for g in grads_list], axis]).outputs[0]
      indices = [g.indices for g in grads_list]
      if len(set(i.dtype.base_dtype for i in indices)) > 1:
        indices = [_apply_op("Cast", None, [i], {"DstT": _int64()}).outputs[0] for i in indices]
      indices = _apply_op("ConcatV2", None, [indices, axis]).outputs[0]
      return IndexedSlices(values, indices, grads_list[0].dense_shape)
    grads_list = [_ops.convert_to_tensor(g) for g in grads_list]
  return _apply_op("AddN", None, [grads_list]).outputs[0]


def _int64():
  from tfc import dtypes  # pylint: disable=g-import-not-at-top
  return dtypes.int64


def gradients(ys, xs, grad_ys=None, name="gradients", colocate_gradients_with_ops=False,
              gate_gradients=False, aggregation_method=None, stop_gradients=None,
              unconnected_gradients=None):
  """Symbolic derivatives of sum(ys) with respect to each x in xs (TF 1.15).

  unconnected_gradients (tf.UnconnectedGradients, or "none"/"zero") says what an x
  that ys do not depend on gets: None (the default) or zeros shaped like x.
  """
  from tfc.ops.unconnected_gradients import UnconnectedGradients  # pylint: disable=g-import-not-at-top
  if unconnected_gradients is None:
    unconnected_gradients = UnconnectedGradients.NONE
  try:
    unconnected_gradients = UnconnectedGradients(unconnected_gradients)
  except ValueError:
    raise ValueError("Unknown value for unconnected_gradients: %r" % unconnected_gradients) \
        from None
  result = _gradients(ys, xs, grad_ys, name, colocate_gradients_with_ops, gate_gradients,
                      aggregation_method, stop_gradients)
  if unconnected_gradients == UnconnectedGradients.ZERO:
    from tfc.ops import array_ops as _array_ops  # pylint: disable=g-import-not-at-top
    xs_list = _as_list(xs)
    for i, g in enumerate(result):
      if g is None:
        x = xs_list[i]
        if not isinstance(x, _Tensor):  # a variable: zeros of its value's shape and dtype
          x = _ops.convert_to_tensor(x)
        result[i] = _array_ops.zeros_like(x)
  return result


def _gradients(ys, xs, grad_ys, name, colocate_gradients_with_ops, gate_gradients,
               aggregation_method, stop_gradients):
  """gradients() without the unconnected-gradients choice (unconnected xs get None)."""
  _registry._load_builtins()
  ys = _as_list(ys)
  xs = _as_list(xs)
  stop_gradients = _as_list(stop_gradients)
  if grad_ys is None:
    grad_ys = [None] * len(ys)
  else:
    grad_ys = _as_list(grad_ys)
    if len(grad_ys) != len(ys):
      raise ValueError("Passed %d grad_ys for %d ys" % (len(grad_ys), len(ys)))
  if aggregation_method is None:
    aggregation_method = AggregationMethod.DEFAULT
  if aggregation_method not in _AGGREGATION_METHODS:
    raise ValueError("Invalid aggregation_method specified %s." % aggregation_method)

  ys = [y if isinstance(y, _Tensor) else _ops.convert_to_tensor(y, name="y") for y in ys]
  graph = None
  for v in ys + [x for x in xs if isinstance(x, _Tensor)]:
    graph = v.graph
    break
  if graph is None:
    graph = _ops.get_default_graph()

  with graph.as_default(), graph.name_scope(name or "gradients") as grad_scope:
    xs = [_to_ref_or_tensor(x, "x") for x in xs]
    for x in xs:
      if x.graph is not graph:
        raise ValueError("Tensor %s must be from the same graph as %s." % (x, ys[0]))
    for y in ys:
      if y.graph is not graph:
        raise ValueError("Tensor %s must be from the same graph as %s." % (y, ys[0]))
    stop_tensors = [_to_ref_or_tensor(s, "stop") for s in stop_gradients]
    grad_ys = _default_grad_ys(ys, grad_ys, colocate_gradients_with_ops)
    return _gradients_core(graph, grad_scope, ys, xs, grad_ys, stop_tensors,
                           colocate_gradients_with_ops, gate_gradients)


def _gated_tuple(grads, live):
  """control_flow_ops.tuple(grads) (same op names), but the gate waits only for the
  gradients whose input leads back to an x (live[i]). A gradient for any other input
  (e.g. a MatMul's gradient with respect to a fed placeholder) is never used, so a
  training step does not compute it; TensorFlow's graph optimizer drops it likewise."""
  from tfc.ops import control_flow_ops as _cf
  present = [g for g in grads if g is not None]
  gating = {g.op for g, l in zip(grads, live) if g is not None and l}
  if not gating:
    gating = {g.op for g in present}
  with _ops.name_scope(None, "tuple", present):
    gate = _cf.group(*sorted(gating, key=lambda op: op._id))

    def gated(g):
      if g is None:
        return None
      if _is_slices(g):
        return type(g)(_cf.with_dependencies([gate], g.values), g.indices, g.dense_shape)
      return _cf.with_dependencies([gate], g)
    return [gated(g) for g in grads]


def _set_grad(grads, t, grad):
  """Adds a gradient contribution for tensor t (a loop Switch's aggregated
  output gradient is a tensor, replaced instead)."""
  op = t.op
  per_op = grads.get(op)
  if not per_op:
    per_op = [[] for _ in range(len(op.outputs))]
    grads[op] = per_op
  t_grads = per_op[t.value_index]
  if isinstance(t_grads, list):
    t_grads.append(grad)
  else:
    per_op[t.value_index] = grad


def _has_any_not_none_grads(grads, op):
  per_op = grads.get(op)
  if not per_op:
    return False
  for g in per_op:
    if isinstance(g, _Tensor) or (isinstance(g, list) and any(x is not None for x in g)):
      return True
  return False


def _aggregated_grads(grads, op, loop_state):
  """The summed gradient of each output of op (None when it has none). The
  per-op list in `grads` is updated in place, as a loop Switch is visited twice."""
  per_op = grads.get(op)
  if per_op is None:
    per_op = [[] for _ in range(len(op.outputs))]
    grads[op] = per_op
  for i, out_grad in enumerate(per_op):
    if loop_state is not None and isinstance(out_grad, _Tensor):
      continue
    if out_grad:
      present = [g for g in out_grad if g is not None]
      per_op[i] = _aggregate(present) if present else None
    else:
      per_op[i] = None
  return per_op


def _gradients_core(graph, grad_scope, ys, xs, grad_ys, stop_tensors, colocate, gate):
  from tfc.ops import control_flow_state as _cfs
  to_ops = [y.op for y in ys]
  from_ops = [x.op for x in xs]
  stop_gradient_ops = [t.op for t in stop_tensors]

  # Forward sweep: ops reachable from xs through differentiable (float) tensors.
  reached = set(from_ops)
  stack = list(from_ops)
  while stack:
    op = stack.pop()
    for out in op.outputs:
      if not _is_trainable(out):
        continue
      for c in out._consumers():
        if c not in reached:
          reached.add(c)
          stack.append(c)
  reachable_to_ops = set(op for op in to_ops if op in reached)

  # Backward sweep from ys: ops both reachable from xs and reaching ys.
  between = set()
  between_list = []
  stack = list(to_ops)
  visited = set(to_ops)
  while stack:
    op = stack.pop()
    if op in reached:
      between.add(op)
      between_list.append(op)
      reached.discard(op)
      for t in op.inputs:
        iop = t.op
        if iop not in visited:
          visited.add(iop)
          stack.append(iop)

  # While loops between ys and xs get a gradient loop (all their exits join in).
  loop_state = _cfs.MaybeCreateControlFlowState(between_list, between, colocate)

  # Pending counts: consumers inside `between` that still owe a gradient.
  pending = collections.defaultdict(int)
  for op in between_list:
    for t in op.inputs:
      if t.op in between:
        pending[t.op] += 1

  stop_ops = set()
  for op in from_ops:
    if all(pending.get(t.op, 0) <= 0 for t in op.inputs):
      stop_ops.add(op)
  stop_ops.update(stop_gradient_ops)

  # grads[op] = list (per output) of lists of gradient contributions.
  grads = {}
  for y, gy in zip(ys, grad_ys):
    _set_grad(grads, y, gy)

  queue = collections.deque()
  to_ops_set = set()
  for op in to_ops:
    if pending[op] == 0 and op not in to_ops_set and op in reachable_to_ops:
      to_ops_set.add(op)
      queue.append(op)

  if loop_state is not None:
    for y in loop_state.ProcessUnusedLoopExits(pending, to_ops_set):
      if _is_trainable(y):
        _set_grad(grads, y, loop_state.ZerosLikeForExit(y))
        queue.append(y.op)

  while queue:
    op = queue.popleft()
    with _maybe_colocate(op, colocate):
      if loop_state is not None:
        loop_state.EnterGradWhileContext(op, before=True)
      out_grads = list(_aggregated_grads(grads, op, loop_state))
      if loop_state is not None:
        loop_state.ExitGradWhileContext(op, before=True)
      has_out_grads = any(g is not None for g in out_grads)
      grad_fn = None
      if has_out_grads and op not in stop_ops:
        try:
          grad_fn = _registry.get_gradient_function(op)
        except LookupError:
          raise LookupError("No gradient defined for operation '%s' (op type: %s)"
                            % (op.name, op.type))
      if loop_state is not None:
        loop_state.EnterGradWhileContext(op, before=False)
      inputs = op.inputs
      if grad_fn is not None and has_out_grads:
        for i, g in enumerate(out_grads):
          if g is None and _is_trainable(op.outputs[i]):
            if loop_state is not None:
              out_grads[i] = loop_state.ZerosLike(op, i)
            else:
              out_grads[i] = _zeros_like_output(op.outputs[i])
        with graph.name_scope(op.name + "_grad"):
          in_grads = grad_fn(op, *out_grads)
          if isinstance(in_grads, tuple):
            in_grads = list(in_grads)
          elif not isinstance(in_grads, list):
            in_grads = [in_grads]
          if len(in_grads) != len(inputs):
            raise ValueError("Num gradients %d generated for op %s do not match num inputs %d"
                             % (len(in_grads), op.node_def, len(inputs)))
          if gate and sum(1 for g in in_grads if g is not None) > 1:
            in_grads = _gated_tuple(in_grads, [t.op in between for t in inputs])
      else:
        in_grads = [None] * len(inputs)
      for t_in, g in zip(inputs, in_grads):
        if g is not None:
          # a handle's gradient is the variable's, not a scalar's
          if (isinstance(g, _Tensor) and t_in._shape is not None
              and t_in.dtype.base_dtype != _dtypes.resource):
            try:
              g._set_shape(t_in._shape)
            except ValueError:
              raise ValueError("Incompatible shapes between op input and calculated input "
                               "gradient.  Forward operation: %s.  Input index: %d. Original "
                               "input shape: %s.  Calculated input gradient shape: %s"
                               % (op.name, t_in.value_index, t_in.shape, g.shape))
          _set_grad(grads, t_in, g)
      if loop_state is not None:
        loop_state.ExitGradWhileContext(op, before=False)

    # Release the consumers' hold on the inputs; enqueue the ready ones.
    for t_in in inputs:
      iop = t_in.op
      pending[iop] -= 1
      ready = pending[iop] == 0
      if loop_state is not None and not ready:
        ready = pending[iop] > 0 and _cfs.IsLoopSwitch(iop)
      if not ready:
        continue
      if loop_state is not None and _cfs.IsLoopExit(iop):
        # an exit without a real gradient waits until all the loop's exits are seen
        grad_state = loop_state.GetGradState(iop, before=False)
        grad_state.deferred_exits.append(t_in)
        grad_state.pending_exits_count -= 1
        if grad_state.pending_exits_count == 0:
          has_not_none_grad = False
          for y in grad_state.deferred_exits:
            if _has_any_not_none_grads(grads, y.op):
              has_not_none_grad = True
              queue.append(y.op)
            else:
              grad_state.unused_exits.append(y)
          if has_not_none_grad:
            for y in grad_state.unused_exits:
              if _is_trainable(y):
                _set_grad(grads, y, loop_state.ZerosLikeForExit(y))
              queue.append(y.op)
          else:
            for y in grad_state.unused_exits:
              queue.append(y.op)
      else:
        queue.append(iop)

  if loop_state is not None:
    loop_state.PostProcessing()
  result = []
  for x in xs:
    per_op = grads.get(x.op)
    if not per_op:
      result.append(None)
      continue
    g = per_op[x.value_index]
    if isinstance(g, list):
      g = _aggregate([v for v in g if v is not None])
    result.append(g)
  return result


def hessians(ys, xs, name="hessians", colocate_gradients_with_ops=False, gate_gradients=False,
             aggregation_method=None):
  """The Hessian of sum(ys) with respect to each x of xs: a tensor of shape
  x.shape + x.shape, built row by row from the gradient of each element of the
  first gradient (xs need fully defined static shapes)."""
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  xs = _as_list(xs)
  kwargs = {"colocate_gradients_with_ops": colocate_gradients_with_ops,
            "gate_gradients": gate_gradients, "aggregation_method": aggregation_method}
  hessians_out = []
  with _ops.name_scope(name, "hessians"):
    for gradient, x in zip(gradients(ys, xs, **kwargs), xs):
      shape = x.get_shape()
      if not shape.is_fully_defined():
        raise ValueError("hessians needs xs of fully defined shape, got %s for %s" % (shape, x))
      n = shape.num_elements()
      if gradient is None:
        hessians_out.append(None)
        continue
      gradient = array_ops.reshape(_ops.convert_to_tensor(gradient), [-1])
      rows = []
      for j in range(n):
        row = gradients(gradient[j], x, **kwargs)[0]
        row = array_ops.zeros_like(x) if row is None else _ops.convert_to_tensor(row)
        rows.append(row)
      hessians_out.append(array_ops.reshape(array_ops.stack(rows), shape.as_list() * 2))
  return hessians_out
