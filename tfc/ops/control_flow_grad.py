"""Gradient functions of the version-1 control-flow ops inside tf.cond
(TF 1.15's control_flow_grad for conditionals).

Merge's gradient switches the incoming gradient on the cond's predicate, so
only the taken branch receives it; a Switch's gradient merges the gradients
of its two outputs (the untaken output's zeros are dead, so the Merge forwards
the live one). Gradients through tf.while_loop are not implemented: the
while-loop forms raise LookupError when differentiated.
"""
from tfc.framework.op_def_library import _apply_op
from tfc.ops import control_flow_ops as _cf
from tfc.ops.gradient_registry import RegisterGradient, NoGradient

for _t in ("LoopCond", "ControlTrigger"):
  NoGradient(_t)


def _no_loop_gradient(op, *unused_grads):
  raise LookupError("No gradient defined for operation '%s' (op type: %s): gradients through "
                    "tf.while_loop are not implemented in tfc" % (op.name, op.type))


for _t in ("Enter", "RefEnter", "Exit", "RefExit", "NextIteration", "RefNextIteration"):
  RegisterGradient(_t)(_no_loop_gradient)


def _switch_grad(op, *grad):
  ctx = op._get_control_flow_context()
  if isinstance(ctx, _cf.WhileContext):
    return _no_loop_gradient(op)
  if isinstance(ctx, _cf.CondContext):
    if grad[1 - ctx.branch] is None:
      return None, None
    return _cf.merge(list(grad), name="cond_grad")[0], None
  false_grad = _cf.switch(grad[0], op.inputs[1])[0] if grad[0] is not None else None
  true_grad = _cf.switch(grad[1], op.inputs[1])[1] if grad[1] is not None else None
  if false_grad is None or true_grad is None:
    return (false_grad if true_grad is None else true_grad), None
  return _cf.merge([false_grad, true_grad])[0], None


RegisterGradient("Switch")(_switch_grad)
RegisterGradient("RefSwitch")(_switch_grad)


def _merge_grad(op, grad, unused_value_index_grad):
  ctx = _cf._output_context(op.inputs[0].op)
  if isinstance(ctx, _cf.WhileContext):
    return _no_loop_gradient(op)
  if isinstance(ctx, _cf.CondContext):
    return list(_cf._switch_ref_or_tensor(grad, ctx.pred, name="cond_grad"))
  n = len(op.inputs)
  conds = [_apply_op("Equal", None, [op.outputs[1], i]).outputs[0] for i in range(n)]
  return [_cf.switch(grad, conds[i])[1] for i in range(n)]


RegisterGradient("Merge")(_merge_grad)
RegisterGradient("RefMerge")(_merge_grad)
