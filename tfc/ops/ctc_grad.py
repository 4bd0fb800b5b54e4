"""The gradient of CTCLoss: the kernel's own gradient output scaled by the
loss gradient (second derivatives are refused, as in TF)."""
from tfc.framework.op_def_library import _apply_op
from tfc.ops.gradient_registry import NoGradient, RegisterGradient

NoGradient("CTCGreedyDecoder")
NoGradient("CTCBeamSearchDecoder")


@RegisterGradient("CTCLoss")
def _ctc_loss_grad(op, grad_loss, _):
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  grad = _apply_op("PreventGradient", None, [op.outputs[1]],
                   {"message": "Currently there is no way to take the second derivative of "
                               "ctc_loss due to the fused implementation's interaction with "
                               "tf.gradients()"}).outputs[0]
  return [array_ops.expand_dims(grad_loss, -1) * grad, None, None, None]
