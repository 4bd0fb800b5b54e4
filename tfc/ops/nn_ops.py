"""tf.nn wrappers (TF 1.15 names and default op names)."""
from tfc import dtypes as _dtypes
from tfc.framework import ops as _ops
from tfc.framework.op_def_library import _apply_op
from tfc.ops import array_ops as _array_ops
from tfc.ops import math_ops as _math_ops


def relu(features, name=None):
  return _apply_op("Relu", name, [features]).outputs[0]


def relu6(features, name=None):
  with _ops.name_scope(name, "Relu6", [features]) as name:
    features = _ops.convert_to_tensor(features, name="features")
    return _apply_op("Relu6", name, [features]).outputs[0]


def elu(features, name=None):
  return _apply_op("Elu", name, [features]).outputs[0]


def selu(features, name=None):
  return _apply_op("Selu", name, [features]).outputs[0]


def softplus(features, name=None):
  return _apply_op("Softplus", name, [features]).outputs[0]


def softsign(features, name=None):
  return _apply_op("Softsign", name, [features]).outputs[0]


def leaky_relu(features, alpha=0.2, name=None):
  with _ops.name_scope(name, "LeakyRelu", [features, alpha]) as name:
    features = _ops.convert_to_tensor(features, name="features")
    return _apply_op("LeakyRelu", name, [features], {"alpha": float(alpha)}).outputs[0]


sigmoid = _math_ops.sigmoid
tanh = _math_ops.tanh


def _softmax(logits, op_type, axis, name):
  logits = _ops.convert_to_tensor(logits)
  if axis is None:
    axis = -1
  rank = logits._rank()
  if axis == -1 or (rank is not None and axis == rank - 1):
    return _apply_op(op_type, name, [logits]).outputs[0]
  if rank is None:
    raise ValueError("softmax over a non-last axis needs a known rank")
  if axis < 0:
    axis += rank
  if axis < 0 or axis >= rank:
    raise ValueError("`dim` must be in the range [%d, %d) where %d is the number of dimensions "
                     "in the input. Received: %d" % (-rank, rank, rank, axis))
  perm = list(range(rank))
  perm[axis], perm[rank - 1] = perm[rank - 1], perm[axis]
  t = _array_ops.transpose(logits, perm)
  out = _apply_op(op_type, None, [t]).outputs[0]
  return _array_ops.transpose(out, perm, name=name)


def softmax(logits, axis=None, name=None, dim=None):
  axis = _math_ops._deprecated_argument_lookup("axis", axis, "dim", dim)
  return _softmax(logits, "Softmax", axis, name)


def log_softmax(logits, axis=None, name=None, dim=None):
  axis = _math_ops._deprecated_argument_lookup("axis", axis, "dim", dim)
  return _softmax(logits, "LogSoftmax", axis, name)


def bias_add(value, bias, data_format=None, name=None):
  with _ops.name_scope(name, "BiasAdd", [value, bias]) as name:
    attrs = {}
    if data_format is not None:
      if data_format.startswith("NC"):
        data_format = "NCHW"
      elif data_format.startswith("N") and data_format.endswith("C"):
        data_format = "NHWC"
      attrs["data_format"] = data_format
    value = _ops.convert_to_tensor(value, name="input")
    bias = _ops.convert_to_tensor(bias, dtype=value.dtype, name="bias")
    return _apply_op("BiasAdd", name, [value, bias], attrs).outputs[0]


def l2_loss(t, name=None):
  return _apply_op("L2Loss", name, [t]).outputs[0]


def xw_plus_b(x, weights, biases, name=None):
  with _ops.name_scope(name, "xw_plus_b", [x, weights, biases]) as name:
    x = _ops.convert_to_tensor(x, name="x")
    weights = _ops.convert_to_tensor(weights, name="weights")
    biases = _ops.convert_to_tensor(biases, name="biases")
    mm = _math_ops.matmul(x, weights)
    return bias_add(mm, biases, name=name)


def softmax_cross_entropy_with_logits_v2(_sentinel=None, labels=None, logits=None, axis=None,
                                         name=None, dim=None):
  """Softmax cross-entropy between `logits` and `labels` along the last axis.

  Gradients flow into both logits and labels (TF's v2 behaviour)."""
  if _sentinel is not None:
    raise ValueError("Only call `softmax_cross_entropy_with_logits_v2` with named arguments "
                     "(labels=..., logits=..., ...)")
  if labels is None or logits is None:
    raise ValueError("Both labels and logits must be provided.")
  axis = _math_ops._deprecated_argument_lookup("axis", axis, "dim", dim)
  with _ops.name_scope(name, "softmax_cross_entropy_with_logits", [logits, labels]) as name:
    logits = _ops.convert_to_tensor(logits, name="logits")
    labels = _ops.convert_to_tensor(labels, name="labels")
    if axis not in (None, -1) and axis != (logits._rank() or 0) - 1:
      raise NotImplementedError("softmax_cross_entropy_with_logits over a non-last axis")
    return _apply_op("SoftmaxCrossEntropyWithLogits", name, [logits, labels]).outputs[0]


def softmax_cross_entropy_with_logits(_sentinel=None, labels=None, logits=None, dim=-1,
                                      name=None, axis=None):
  """TF 1.x's (deprecated) form: like the v2 op, but no gradient reaches `labels`."""
  if _sentinel is not None:
    raise ValueError("Only call `softmax_cross_entropy_with_logits` with named arguments "
                     "(labels=..., logits=..., ...)")
  if labels is None or logits is None:
    raise ValueError("Both labels and logits must be provided.")
  axis = _math_ops._deprecated_argument_lookup("axis", axis, "dim", dim if dim != -1 else None)
  labels = _array_ops.stop_gradient(labels, name="labels_stop_gradient")
  return softmax_cross_entropy_with_logits_v2(labels=labels, logits=logits, axis=axis, name=name)


def sparse_softmax_cross_entropy_with_logits(_sentinel=None, labels=None, logits=None,
                                             name=None):
  if _sentinel is not None:
    raise ValueError("Only call `sparse_softmax_cross_entropy_with_logits` with named "
                     "arguments (labels=..., logits=..., ...)")
  with _ops.name_scope(name, "SparseSoftmaxCrossEntropyWithLogits", [labels, logits]):
    labels = _ops.convert_to_tensor(labels)
    logits = _ops.convert_to_tensor(logits)
    if logits.dtype == _dtypes.float16:
      logits = _math_ops.cast(logits, _dtypes.float32)
    return _apply_op("SparseSoftmaxCrossEntropyWithLogits", None, [logits, labels]).outputs[0]


def sigmoid_cross_entropy_with_logits(_sentinel=None, labels=None, logits=None, name=None):
  if _sentinel is not None:
    raise ValueError("Only call `sigmoid_cross_entropy_with_logits` with named arguments "
                     "(labels=..., logits=..., ...)")
  with _ops.name_scope(name, "logistic_loss", [logits, labels]) as name:
    logits = _ops.convert_to_tensor(logits, name="logits")
    labels = _ops.convert_to_tensor(labels, name="labels")
    zeros = _array_ops.zeros_like(logits, dtype=logits.dtype)
    cond = logits >= zeros
    relu_logits = _array_ops.where(cond, logits, zeros)
    neg_abs_logits = _array_ops.where(cond, -logits, logits)
    return _math_ops.add(relu_logits - logits * labels,
                         _math_ops.log1p(_math_ops.exp(neg_abs_logits)), name=name)


def moments(x, axes, shift=None, name=None, keep_dims=None, keepdims=None):
  keep_dims = _math_ops._deprecated_argument_lookup("keepdims", keepdims, "keep_dims", keep_dims)
  if keep_dims is None:
    keep_dims = False
  with _ops.name_scope(name, "moments", [x, axes]):
    y = _ops.convert_to_tensor(x)
    mean = _math_ops.reduce_mean(y, axes, keepdims=True, name="mean")
    variance = _math_ops.reduce_mean(
        _math_ops.squared_difference(y, _array_ops.stop_gradient(mean)), axes, keepdims=True,
        name="variance")
    if not keep_dims:
      mean = _array_ops.squeeze(mean, axes)
      variance = _array_ops.squeeze(variance, axes)
    return mean, variance
