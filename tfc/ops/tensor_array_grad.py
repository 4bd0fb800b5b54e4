"""Gradients of the TensorArrayV3 ops (TF 1.15's tensor_array_grad).

The gradient of a read is a write into the gradient TensorArray (made by
TensorArrayGradV3 for the gradient source: the 'gradients...' prefix of the
incoming gradient's name), and the gradient of a write is a read from it;
gather/scatter and concat/split pair up the same way. Writes into a gradient
array to one index are summed.
"""
from tfc.framework import ops as _ops
from tfc.framework.op_def_library import _apply_op
from tfc.ops.gradient_registry import RegisterGradient, NoGradient
from tfc.ops import tensor_array_ops as _ta

for _t in ("TensorArrayV3", "TensorArrayGradV3", "TensorArraySizeV3", "TensorArrayCloseV3",
           "StackV2", "StackPushV2", "StackPopV2", "StackCloseV2"):
  NoGradient(_t)


def _grad_source(op_or_tensor):
  """The 'gradients...' name prefix the gradient belongs to."""
  name_tokens = op_or_tensor.name.split("/")
  grad_pos = [i for i, x in enumerate(name_tokens) if x.startswith("gradients")]
  if not grad_pos:
    raise ValueError("Expected op/tensor name to start with gradients (excluding scope), got: %s"
                     % op_or_tensor.name)
  return "/".join(name_tokens[:grad_pos[-1] + 1])


def _identity(x, name):
  return _apply_op("Identity", name, [x]).outputs[0]


def _grad_ta(op, dtype, flow, source):
  handle = op.inputs[0]
  return _ta.TensorArray(dtype=dtype, handle=handle, flow=flow,
                         colocate_with_first_write_call=False).grad(source=source, flow=flow)


@RegisterGradient("TensorArrayReadV3")
def _tensor_array_read_grad(op, grad):
  index, flow = op.inputs[1], op.inputs[2]
  g = _grad_ta(op, op.get_attr("dtype"), flow, _grad_source(grad))
  w_g = g.write(index, grad)
  return [None, None, w_g.flow]


@RegisterGradient("TensorArrayWriteV3")
def _tensor_array_write_grad(op, flow):
  index = op.inputs[1]
  source = _grad_source(flow)
  flow_out = _identity(op.outputs[0], "flow_out")
  # the gradient array is made only after the last forward write
  with _ops.control_dependencies([flow_out]):
    flow = _identity(flow, "write_barrier")
  g = _grad_ta(op, op.get_attr("T"), flow, source)
  grad = g.read(index)
  return [None, None, grad, flow]


@RegisterGradient("TensorArrayGatherV3")
def _tensor_array_gather_grad(op, grad):
  indices, flow = op.inputs[1], op.inputs[2]
  g = _grad_ta(op, op.get_attr("dtype"), flow, _grad_source(grad))
  u_g = g.scatter(indices, grad)
  return [None, None, u_g.flow]


@RegisterGradient("TensorArrayScatterV3")
def _tensor_array_scatter_grad(op, flow):
  indices = op.inputs[1]
  source = _grad_source(flow)
  flow_out = _identity(op.outputs[0], "flow_out")
  with _ops.control_dependencies([flow_out]):
    flow = _identity(flow, "write_barrier")
  g = _grad_ta(op, op.get_attr("T"), flow, source)
  grad = g.gather(indices)
  return [None, None, grad, flow]


@RegisterGradient("TensorArrayConcatV3")
def _tensor_array_concat_grad(op, grad, unused_lengths_grad):
  flow = op.inputs[1]
  lengths = op.outputs[1]
  g = _grad_ta(op, op.get_attr("dtype"), flow, _grad_source(grad))
  u_g = g.split(grad, lengths=lengths)
  return [None, u_g.flow]


@RegisterGradient("TensorArraySplitV3")
def _tensor_array_split_grad(op, flow):
  source = _grad_source(flow)
  flow_out = _identity(op.outputs[0], "flow_out")
  with _ops.control_dependencies([flow_out]):
    flow = _identity(flow, "write_barrier")
  g = _grad_ta(op, op.get_attr("T"), flow, source)
  grad = g.concat()
  return [None, grad, None, flow]
