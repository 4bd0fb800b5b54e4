"""Gradient functions of the version-1 control-flow ops (TF 1.15's
control_flow_grad), for conditionals and while loops.

Conditionals: Merge's gradient switches the incoming gradient on the cond's
predicate, so only the taken branch receives it; a Switch's gradient merges
the gradients of its two outputs (the untaken side's are dead).

While loops (with the state in control_flow_state): an Exit's gradient enters
the gradient loop; the loop variable's Switch, visited first from its Exit,
makes the gradient loop's Merge (`b_switch`) and, visited again from the body,
closes its back edge; a Merge's gradient switches on the gradient loop's
pivot; NextIteration passes the gradient through; an Enter's gradient leaves
the gradient loop (a loop invariant's gradients are summed over iterations by
an accumulator).
"""
from tfc.framework import ops as _ops
from tfc.framework.op_def_library import _apply_op
from tfc.ops import control_flow_ops as _cf
from tfc.ops.gradient_registry import RegisterGradient, NoGradient

for _t in ("LoopCond", "ControlTrigger"):
  NoGradient(_t)


def _switch_grad(op, *grad):
  graph = _ops.get_default_graph()
  op_ctxt = op._get_control_flow_context()
  grad_ctxt = graph._get_control_flow_context()
  if isinstance(op_ctxt, _cf.WhileContext):
    merge_grad = grad_ctxt.grad_state.switch_map.get(op)
    if merge_grad is not None:
      # second visit (from the body): close the gradient loop's back edge
      if grad[1] is not None:
        _add_next_and_back_edge(merge_grad, grad[1])
      return None, None
    if grad[0] is not None:
      # first visit (from the Exit): the second input is fixed on the second visit
      merge_grad = _cf.merge([grad[0], grad[0]], name="b_switch")[0]
      grad_ctxt.grad_state.switch_map[op] = merge_grad
      return merge_grad, None
    return None, None
  if isinstance(op_ctxt, _cf.CondContext):
    zero_grad = grad[1 - op_ctxt.branch]
    if zero_grad is None:
      return None, None
    return _cf.merge(list(grad), name="cond_grad")[0], None
  false_grad = _cf.switch(grad[0], op.inputs[1])[0] if grad[0] is not None else None
  true_grad = _cf.switch(grad[1], op.inputs[1])[1] if grad[1] is not None else None
  if false_grad is None or true_grad is None:
    return (false_grad if true_grad is None else true_grad), None
  return _cf.merge([false_grad, true_grad])[0], None


RegisterGradient("Switch")(_switch_grad)
RegisterGradient("RefSwitch")(_switch_grad)


def _add_next_and_back_edge(m, v):
  """Makes NextIteration(v) the second input of Merge m."""
  v = _ops.convert_to_tensor(v)
  v = _cf._next_iteration(v)
  m.op._update_input(1, v)
  return v


def _merge_grad(op, grad, unused_value_index_grad):
  input_op = op.inputs[0].op
  graph = _ops.get_default_graph()
  op_ctxt = _cf._output_context(input_op)
  grad_ctxt = graph._get_control_flow_context()
  if isinstance(op_ctxt, _cf.WhileContext):
    return list(_cf._switch_ref_or_tensor(grad, grad_ctxt.pivot))
  if isinstance(op_ctxt, _cf.CondContext):
    pred = op_ctxt.pred
    if grad_ctxt is not None and getattr(grad_ctxt, "grad_state", None) is not None:
      # a cond inside a loop: switch on the predicate of the same iteration
      grad_state = grad_ctxt.grad_state
      real_pred = grad_state.history_map.get(pred.name)
      if real_pred is None:
        grad_ctxt = grad_state.grad_context
        grad_ctxt.Exit()
        history_pred = grad_state.AddForwardAccumulator(pred)
        grad_ctxt.Enter()
        real_pred = grad_state.AddBackpropAccumulatedValue(history_pred, pred)
        grad_state.history_map[pred.name] = real_pred
      pred = real_pred
    return list(_cf._switch_ref_or_tensor(grad, pred, name="cond_grad"))
  n = len(op.inputs)
  conds = [_apply_op("Equal", None, [op.outputs[1], i]).outputs[0] for i in range(n)]
  return [_cf.switch(grad, conds[i])[1] for i in range(n)]


RegisterGradient("Merge")(_merge_grad)
RegisterGradient("RefMerge")(_merge_grad)


def _exit_grad(op, grad):
  graph = _ops.get_default_graph()
  op_ctxt = op._get_control_flow_context()
  grad_ctxt = graph._get_control_flow_context()
  if not grad_ctxt.back_prop:
    # back_prop=False: nothing flows back through the loop
    return None
  if op_ctxt.grad_state is not None:
    raise TypeError("Second-order gradient for while loops not supported.")
  grad_ctxt.AddName(grad.name)
  grad_ctxt.Enter()
  result = _cf._enter(grad, grad_ctxt.name, is_constant=False,
                      parallel_iterations=grad_ctxt.parallel_iterations, name="b_exit")
  grad_ctxt.loop_enters.append(result)
  grad_ctxt.Exit()
  return result


RegisterGradient("Exit")(_exit_grad)
RegisterGradient("RefExit")(_exit_grad)


def _next_iteration_grad(unused_op, grad):
  return grad


RegisterGradient("NextIteration")(_next_iteration_grad)
RegisterGradient("RefNextIteration")(_next_iteration_grad)


def _enter_grad(op, grad):
  graph = _ops.get_default_graph()
  grad_ctxt = graph._get_control_flow_context()
  if grad_ctxt is None or not grad_ctxt.IsWhileContext():
    return grad
  if not grad_ctxt.back_prop or grad_ctxt.grad_state is None:
    return grad
  if op.get_attr("is_constant"):
    # a loop invariant: sum its gradients over the iterations
    return grad_ctxt.AddBackpropAccumulator(op, grad)
  result = _cf.exit(grad)
  grad_ctxt.loop_exits.append(result)
  grad_ctxt.ExitResult([result])
  return result


RegisterGradient("Enter")(_enter_grad)
RegisterGradient("RefEnter")(_enter_grad)
