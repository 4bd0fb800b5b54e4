"""Gradient functions of the neural-network ops."""
from tfc import dtypes as _dtypes
from tfc.framework.op_def_library import _apply_op
from tfc.ops.gradient_registry import RegisterGradient
from tfc.ops.math_grad import _out, _const, _shape, _sum, _reshape

_int32 = _dtypes.int32


@RegisterGradient("Relu")
def _relu_grad(op, grad):
  return _out("ReluGrad", [grad, op.outputs[0]])


@RegisterGradient("ReluGrad")
def _relu_grad_grad(op, grad):
  x = op.inputs[1]
  return [_out("ReluGrad", [grad, x]), _out("ZerosLike", [x])]


@RegisterGradient("Relu6Grad")
def _relu6_grad_grad(op, grad):
  x = op.inputs[1]
  return [_out("Relu6Grad", [grad, x]), _out("ZerosLike", [x])]


@RegisterGradient("LeakyReluGrad")
def _leaky_relu_grad_grad(op, grad):
  x = op.inputs[1]
  return [_out("LeakyReluGrad", [grad, x], {"alpha": op.get_attr("alpha")}),
          _out("ZerosLike", [x])]


@RegisterGradient("EluGrad")
def _elu_grad_grad(op, grad):
  dy, y = op.inputs
  zero = _const(0, dtype=y.dtype.base_dtype)
  neg = _out("Less", [y, zero])
  return [_out("EluGrad", [grad, y]),
          _out("Select", [neg, _out("Mul", [grad, dy]), _out("ZerosLike", [y])])]


@RegisterGradient("BiasAddGrad")
def _bias_add_grad_grad(op, grad):
  dy = op.inputs[0]
  try:
    fmt = op.get_attr("data_format")
  except ValueError:
    fmt = b"NHWC"
  if fmt in (b"NCHW", "NCHW"):
    r = dy._rank()
    if r is None:
      raise LookupError("No gradient defined for BiasAddGrad (NCHW) with unknown rank")
    grad = _reshape(grad, _const([1, -1] + [1] * (r - 2)))
  return _out("BroadcastTo", [grad, _shape(dy)])


@RegisterGradient("Relu6")
def _relu6_grad(op, grad):
  return _out("Relu6Grad", [grad, op.inputs[0]])


@RegisterGradient("Elu")
def _elu_grad(op, grad):
  return _out("EluGrad", [grad, op.outputs[0]])


@RegisterGradient("Selu")
def _selu_grad(op, grad):
  return _out("SeluGrad", [grad, op.outputs[0]])


@RegisterGradient("LeakyRelu")
def _leaky_relu_grad(op, grad):
  return _out("LeakyReluGrad", [grad, op.inputs[0]], {"alpha": op.get_attr("alpha")})


@RegisterGradient("Softplus")
def _softplus_grad(op, grad):
  return _out("SoftplusGrad", [grad, op.inputs[0]])


@RegisterGradient("Softsign")
def _softsign_grad(op, grad):
  return _out("SoftsignGrad", [grad, op.inputs[0]])


@RegisterGradient("Softmax")
def _softmax_grad(op, grad):
  y = op.outputs[0]
  s = _out("Sum", [_out("Mul", [grad, y]), _const(-1)], {"keep_dims": True})
  return _out("Mul", [_out("Sub", [grad, s]), y])


@RegisterGradient("LogSoftmax")
def _log_softmax_grad(op, grad):
  y = op.outputs[0]
  s = _out("Sum", [grad, _const(-1)], {"keep_dims": True})
  return _out("Sub", [grad, _out("Mul", [s, _out("Exp", [y])])])


@RegisterGradient("BiasAdd")
def _bias_add_grad(op, grad):
  try:
    fmt = op.get_attr("data_format")
  except ValueError:
    fmt = b"NHWC"
  return [grad, _out("BiasAddGrad", [grad], {"data_format": fmt})]


@RegisterGradient("BiasAddV1")
def _bias_add_v1_grad(op, grad):
  r = grad._rank()
  if r is not None:
    axes = _const(list(range(r - 1)))
  else:
    axes = _out("Range", [_const(0), _out("Sub", [_out("Rank", [grad]), _const(1)]),
                          _const(1)])
  return [grad, _sum(grad, axes)]


@RegisterGradient("L2Loss")
def _l2_loss_grad(op, grad):
  return _out("Mul", [op.inputs[0], grad])


def _is_zero(t):
  op = t.op
  if op.type in ("ZerosLike", "Zeros"):
    return True
  if op.type == "Const":
    v = op.get_attr("value")
    return v is not None and not v.any()
  return False


def _times_last_dim(g, t):
  """expand_dims(g, -1) * t."""
  return _out("Mul", [_out("ExpandDims", [g, _const(-1)]), t])


@RegisterGradient("SoftmaxCrossEntropyWithLogits")
def _softmax_xent_grad(op, grad_loss, grad_grad):
  backprop = op.outputs[1]
  logits = op.inputs[0]
  g = _times_last_dim(grad_loss, backprop)
  if grad_grad is not None and not _is_zero(grad_grad):
    sm = _out("Softmax", [logits])
    inner = _out("Sum", [_out("Mul", [grad_grad, sm]), _const(-1)], {"keep_dims": True})
    g = _out("AddV2", [g, _out("Mul", [_out("Sub", [grad_grad, inner]), sm])])
  g_labels = _times_last_dim(grad_loss, _out("Neg", [_out("LogSoftmax", [logits])]))
  return [g, g_labels]


@RegisterGradient("SparseSoftmaxCrossEntropyWithLogits")
def _sparse_softmax_xent_grad(op, grad_loss, unused_grad_grad):
  return [_times_last_dim(grad_loss, op.outputs[1]), None]


def _attrs(op, names):
  out = {}
  for n in names:
    try:
      out[n] = op.get_attr(n)
    except ValueError:
      pass
  return out


@RegisterGradient("Conv2D")
def _conv2d_grad(op, grad):
  x, w = op.inputs
  attrs = _attrs(op, ("strides", "padding", "use_cudnn_on_gpu", "explicit_paddings",
                      "data_format", "dilations"))
  sx, sw = _apply_op("ShapeN", None, [[x, w]], {"out_type": _int32}).outputs
  gx = _out("Conv2DBackpropInput", [sx, w, grad], attrs)
  gw = _out("Conv2DBackpropFilter", [x, sw, grad], attrs)
  return [gx, gw]


@RegisterGradient("Conv2DBackpropInput")
def _conv2d_backprop_input_grad(op, grad):
  """conv2d_transpose's gradient: a Conv2D of grad for the output gradient it took, a
  Conv2DBackpropFilter for the filter; none for the sizes."""
  w, dy = op.inputs[1], op.inputs[2]
  attrs = _attrs(op, ("strides", "padding", "use_cudnn_on_gpu", "explicit_paddings",
                      "data_format", "dilations"))
  gw = _out("Conv2DBackpropFilter", [grad, _shape(w), dy], attrs)
  gdy = _out("Conv2D", [grad, w], attrs)
  return [None, gw, gdy]


@RegisterGradient("DepthwiseConv2dNative")
def _depthwise_conv2d_native_grad(op, grad):
  x, w = op.inputs
  attrs = _attrs(op, ("strides", "padding", "explicit_paddings", "data_format", "dilations"))
  sx, sw = _apply_op("ShapeN", None, [[x, w]], {"out_type": _int32}).outputs
  gx = _out("DepthwiseConv2dNativeBackpropInput", [sx, w, grad], attrs)
  gw = _out("DepthwiseConv2dNativeBackpropFilter", [x, sw, grad], attrs)
  return [gx, gw]


@RegisterGradient("MaxPool")
def _max_pool_grad(op, grad):
  attrs = _attrs(op, ("ksize", "strides", "padding", "data_format"))
  return _out("MaxPoolGrad", [op.inputs[0], op.outputs[0], grad], attrs)


@RegisterGradient("AvgPool")
def _avg_pool_grad(op, grad):
  attrs = _attrs(op, ("ksize", "strides", "padding", "data_format"))
  return _out("AvgPoolGrad", [_shape(op.inputs[0]), grad], attrs)


def _fused_bn_grad(op, grad_type, grads):
  x, scale = op.inputs[0], op.inputs[1]
  attrs = _attrs(op, ("epsilon", "data_format", "is_training"))
  training = attrs.get("is_training", True)
  if training:
    r1, r2 = op.outputs[3], op.outputs[4]
  else:
    r1, r2 = op.inputs[3], op.inputs[4]
  ins = [grads[0], x, scale, r1, r2]
  if grad_type == "FusedBatchNormGradV3":
    ins.append(op.outputs[5])
  outs = _apply_op(grad_type, None, ins, attrs).outputs
  return [outs[0], outs[1], outs[2], None, None]


@RegisterGradient("FusedBatchNorm")
def _fused_bn_v1_grad(op, *grads):
  return _fused_bn_grad(op, "FusedBatchNormGrad", grads)


@RegisterGradient("FusedBatchNormV2")
def _fused_bn_v2_grad(op, *grads):
  return _fused_bn_grad(op, "FusedBatchNormGradV2", grads)


@RegisterGradient("FusedBatchNormV3")
def _fused_bn_v3_grad(op, *grads):
  return _fused_bn_grad(op, "FusedBatchNormGradV3", grads)


