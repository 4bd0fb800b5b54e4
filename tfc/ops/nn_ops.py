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


# ---------------------------------------------------------------- convolution, pooling, dropout,
# batch normalization (TF 1.15 `tf.nn` signatures).

def _op_exists(op_type):
  """Whether the C runtime defines `op_type` (the set is read once)."""
  global _OP_NAMES
  if _OP_NAMES is None:
    from tfc import _tfc
    _OP_NAMES = frozenset(_tfc.op_names())
  return op_type in _OP_NAMES


_OP_NAMES = None


def _canonical_format(data_format):
  if data_format is None:
    return "NHWC"
  if isinstance(data_format, bytes):
    data_format = data_format.decode()
  return data_format


def _spatial_sequence(value, n, channel_index, arg_name):
  """Expands an int or a list of 1, n or n+2 ints to the n+2 per-dimension values."""
  if value is None:
    value = 1
  if isinstance(value, int):
    value = [value]
  value = [int(getattr(v, "value", v)) for v in value]
  if len(value) == n + 2:
    return value
  if len(value) == 1:
    value = value * n
  elif len(value) != n:
    raise ValueError("%s should be of length 1, %d or %d but was %d"
                     % (arg_name, n, n + 2, len(value)))
  if channel_index == 1:
    return [1, 1] + value
  return [1] + value + [1]


def _padding_attrs(padding):
  """(padding string, explicit_paddings list or None) for the conv ops."""
  if isinstance(padding, bytes):
    padding = padding.decode()
  if isinstance(padding, str):
    padding = padding.upper()
    if padding not in ("SAME", "VALID"):
      raise ValueError("padding must be 'SAME', 'VALID' or a list of paddings, got %r" % padding)
    return padding, None
  flat = []
  for pair in padding:
    if len(pair) != 2:
      raise ValueError("explicit padding needs [before, after] per dimension, got %r" % (padding,))
    flat.extend(int(p) for p in pair)
  return "EXPLICIT", flat


def conv2d(input, filter=None, strides=None, padding=None, use_cudnn_on_gpu=True,  # noqa: A002
           data_format="NHWC", dilations=(1, 1, 1, 1), name=None, filters=None):
  """2-D convolution (`Conv2D`); `filter` and `filters` are synonyms."""
  filter = _math_ops._deprecated_argument_lookup("filters", filters, "filter", filter)
  if filter is None:
    raise ValueError("conv2d needs a filter")
  if padding is None:
    raise ValueError("conv2d needs a padding ('SAME', 'VALID' or explicit)")
  data_format = _canonical_format(data_format)
  ci = 1 if data_format.startswith("NC") else 3
  padding, explicit = _padding_attrs(padding)
  attrs = {"strides": _spatial_sequence(strides, 2, ci, "strides"), "padding": padding,
           "data_format": data_format,
           "dilations": _spatial_sequence(dilations, 2, ci, "dilations")}
  if explicit is not None:
    attrs["explicit_paddings"] = explicit
  if not use_cudnn_on_gpu:
    attrs["use_cudnn_on_gpu"] = False
  return _apply_op("Conv2D", name, [input, filter], attrs).outputs[0]


def conv2d_v2(input, filters, strides, padding, data_format="NHWC", dilations=None,  # noqa: A002
              name=None):
  return conv2d(input, filters, strides, padding, data_format=data_format,
                dilations=dilations if dilations is not None else 1, name=name)


def depthwise_conv2d_native(input, filter, strides, padding, data_format="NHWC",  # noqa: A002
                            dilations=(1, 1, 1, 1), name=None):
  """`DepthwiseConv2dNative` (needs the op in the C runtime)."""
  data_format = _canonical_format(data_format)
  ci = 1 if data_format.startswith("NC") else 3
  padding, explicit = _padding_attrs(padding)
  attrs = {"strides": _spatial_sequence(strides, 2, ci, "strides"), "padding": padding,
           "data_format": data_format,
           "dilations": _spatial_sequence(dilations, 2, ci, "dilations")}
  if explicit is not None:
    attrs["explicit_paddings"] = explicit
  return _apply_op("DepthwiseConv2dNative", name, [input, filter], attrs).outputs[0]


def _pool(op_type, default_name, value, ksize, strides, padding, data_format, name):
  data_format = _canonical_format(data_format)
  ci = 1 if data_format.startswith("NC") else 3
  if isinstance(padding, bytes):
    padding = padding.decode()
  with _ops.name_scope(name, default_name, [value]) as name:
    value = _ops.convert_to_tensor(value, name="input")
    attrs = {"ksize": _spatial_sequence(ksize, 2, ci, "ksize"),
             "strides": _spatial_sequence(strides, 2, ci, "strides"),
             "padding": padding.upper(), "data_format": data_format}
    return _apply_op(op_type, name, [value], attrs).outputs[0]


def max_pool(value, ksize, strides, padding, data_format="NHWC", name=None, input=None):  # noqa: A002
  """`MaxPool` over the spatial dimensions."""
  value = _math_ops._deprecated_argument_lookup("input", input, "value", value)
  return _pool("MaxPool", "MaxPool", value, ksize, strides, padding, data_format, name)


def max_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
  return _pool("MaxPool", "MaxPool2d", input, ksize, strides, padding, data_format, name)


def avg_pool(value, ksize, strides, padding, data_format="NHWC", name=None, input=None):  # noqa: A002
  """`AvgPool` over the spatial dimensions (padding cells are not counted)."""
  value = _math_ops._deprecated_argument_lookup("input", input, "value", value)
  return _pool("AvgPool", "AvgPool", value, ksize, strides, padding, data_format, name)


def avg_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
  return _pool("AvgPool", "AvgPool2D", input, ksize, strides, padding, data_format, name)


def dropout(x, keep_prob=None, noise_shape=None, seed=None, name=None, rate=None):
  """Inverted dropout: keeps each element with probability 1 - rate and scales it by 1/(1 - rate).

  TF 1.x form: give either `keep_prob` (deprecated) or `rate`. The mask comes from
  `RandomUniform` (values >= rate are kept), so seeds select the same elements as TF."""
  if keep_prob is not None and rate is not None:
    raise ValueError("Cannot specify both 'rate' and 'keep_prob'.")
  if keep_prob is None and rate is None:
    raise ValueError("You must provide a rate to dropout.")
  if keep_prob is not None:
    if isinstance(keep_prob, (int, float)) and not 0 < keep_prob <= 1:
      raise ValueError("keep_prob must be a scalar tensor or a float in the range (0, 1], got %g"
                       % keep_prob)
    rate = 1 - keep_prob
  return dropout_v2(x, rate, noise_shape=noise_shape, seed=seed, name=name)


def dropout_v2(x, rate, noise_shape=None, seed=None, name=None):
  from tfc.ops import random_ops as _random_ops
  with _ops.name_scope(name, "dropout", [x]) as name:
    x = _ops.convert_to_tensor(x, name="x")
    if not x.dtype.is_floating:
      raise ValueError("x has to be a floating point tensor since it's going to be scaled. "
                       "Got a %s tensor instead." % x.dtype)
    if isinstance(rate, (int, float)):
      if not 0 <= rate < 1:
        raise ValueError("rate must be a scalar tensor or a float in the range [0, 1), got %g"
                         % rate)
      if rate == 0:
        return x
      keep_prob = 1 - rate
      scale = 1 / keep_prob
    else:
      rate = _ops.convert_to_tensor(rate, dtype=x.dtype, name="rate")
      keep_prob = 1 - rate
      scale = 1 / keep_prob
    if noise_shape is None:
      noise_shape = _array_ops.shape(x)
    rnd = _random_ops.random_uniform(noise_shape, seed=seed, dtype=x.dtype)
    keep_mask = rnd >= rate
    ret = x * scale * _math_ops.cast(keep_mask, x.dtype)
    ret.set_shape(x.get_shape())
    return ret


def batch_normalization(x, mean, variance, offset, scale, variance_epsilon, name=None):
  """(x - mean) / sqrt(variance + eps) * scale + offset, as x * inv + (offset - mean * inv)."""
  with _ops.name_scope(name, "batchnorm", [x, mean, variance, scale, offset]):
    inv = _math_ops.rsqrt(variance + variance_epsilon)
    if scale is not None:
      inv *= scale
    shift = offset - mean * inv if offset is not None else -mean * inv
    return x * _math_ops.cast(inv, x.dtype) + _math_ops.cast(shift, x.dtype)


def fused_batch_norm(x, scale, offset, mean=None, variance=None, epsilon=0.001,
                     data_format="NHWC", is_training=True, name=None):
  """One `FusedBatchNormV3` (V2/V1 when the runtime lacks V3) op: (y, batch_mean, batch_var).

  In training the batch statistics are computed (the returned variance has Bessel's
  correction); otherwise `mean` and `variance` are used."""
  x = _ops.convert_to_tensor(x, name="input")
  scale = _ops.convert_to_tensor(scale, name="scale")
  offset = _ops.convert_to_tensor(offset, name="offset")
  if mean is None:
    mean = _ops.convert_to_tensor([], dtype=scale.dtype)
  if variance is None:
    variance = _ops.convert_to_tensor([], dtype=scale.dtype)
  epsilon = max(float(epsilon), 1.001e-5)
  attrs = {"epsilon": epsilon, "data_format": _canonical_format(data_format),
           "is_training": bool(is_training)}
  for op_type in ("FusedBatchNormV3", "FusedBatchNormV2", "FusedBatchNorm"):
    if _op_exists(op_type):
      break
  outs = _apply_op(op_type, name, [x, scale, offset, mean, variance], attrs).outputs
  return outs[0], outs[1], outs[2]
