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


# ---------------------------------------------------------------- TF 1.x tf.nn functions composed
# of the ops above (signatures as in TF 1.15's tf.nn / tf.compat.v1.nn).


def relu_layer(x, weights, biases, name=None):
  """relu(matmul(x, weights) + biases)."""
  with _ops.name_scope(name, "relu_layer", [x, weights, biases]) as name:
    x = _ops.convert_to_tensor(x, name="x")
    weights = _ops.convert_to_tensor(weights, name="weights")
    biases = _ops.convert_to_tensor(biases, name="biases")
    return relu(bias_add(_math_ops.matmul(x, weights), biases), name=name)


def l2_normalize(x, axis=None, epsilon=1e-12, name=None, dim=None):
  """x / sqrt(max(sum(x ** 2, axis), epsilon)) along `axis` (all dimensions when None)."""
  axis = _math_ops._deprecated_argument_lookup("axis", axis, "dim", dim)
  with _ops.name_scope(name, "l2_normalize", [x]) as name:
    x = _ops.convert_to_tensor(x, name="x")
    square_sum = _math_ops.reduce_sum(_math_ops.square(x), axis, keepdims=True)
    epsilon = _ops.convert_to_tensor(epsilon, dtype=square_sum.dtype.base_dtype)
    inv_norm = _math_ops.rsqrt(_math_ops.maximum(square_sum, epsilon))
    return _math_ops.multiply(x, inv_norm, name=name)


def zero_fraction(value, name=None):
  """The fraction of zeros in `value`, a float32 scalar."""
  with _ops.name_scope(name, "zero_fraction", [value]):
    value = _ops.convert_to_tensor(value, name="value")
    size = _array_ops.size(value, out_type=_dtypes.int64)
    nonzero = _math_ops.count_nonzero(value, dtype=_dtypes.int64)
    with _ops.name_scope("counts_to_fraction"):
      zeros = _math_ops.cast(size - nonzero, _dtypes.float32)
      fraction = zeros / _math_ops.cast(size, _dtypes.float32)
    return _array_ops.identity(fraction, "fraction")


def crelu(features, name=None, axis=-1):
  """Concatenated ReLU: relu(concat([features, -features], axis))."""
  with _ops.name_scope(name, "CRelu", [features]) as name:
    features = _ops.convert_to_tensor(features, name="features")
    both = _array_ops.concat([features, -features], axis, name=name)
    return relu(both)


def swish(features, beta=1.0):
  """features * sigmoid(beta * features) (also called SiLU)."""
  with _ops.name_scope(None, "swish", [features]):
    features = _ops.convert_to_tensor(features, name="features")
    gate = features if beta == 1.0 else features * _ops.convert_to_tensor(
        beta, dtype=features.dtype.base_dtype)
    return features * _math_ops.sigmoid(gate)


silu = swish


def log_poisson_loss(targets, log_input, compute_full_loss=False, name=None):
  """Poisson negative log-likelihood from log-rates: exp(log_input) - log_input * targets.

  With compute_full_loss, Stirling's approximation of log(targets!) is added where
  targets > 1 (log(0!) = log(1!) = 0).
  """
  with _ops.name_scope(name, "log_poisson_loss", [log_input, targets]) as name:
    log_input = _ops.convert_to_tensor(log_input, name="log_input")
    targets = _ops.convert_to_tensor(targets, name="targets")
    try:
      targets.get_shape().merge_with(log_input.get_shape())
    except ValueError:
      raise ValueError("log_input and targets must have the same shape (%s vs %s)"
                       % (log_input.get_shape(), targets.get_shape()))
    result = _math_ops.exp(log_input) - log_input * targets
    if compute_full_loss:
      import math as _pymath  # pylint: disable=g-import-not-at-top
      dtype = targets.dtype.base_dtype
      stirling = (targets * _math_ops.log(targets) - targets
                  + _ops.convert_to_tensor(0.5, dtype=dtype)
                  * _math_ops.log(_ops.convert_to_tensor(2 * _pymath.pi, dtype=dtype) * targets))
      zeros = _array_ops.zeros_like(targets)
      ones = _array_ops.ones_like(targets)
      small = _math_ops.logical_and(targets >= zeros, targets <= ones)
      result += _array_ops.where(small, zeros, stirling)
    return result


def weighted_cross_entropy_with_logits(labels=None, logits=None, pos_weight=None, name=None,
                                       targets=None):
  """Sigmoid cross-entropy with the positive term weighted by `pos_weight`:
  labels * -log(sigmoid(logits)) * pos_weight + (1 - labels) * -log(1 - sigmoid(logits)),
  computed stably. `targets` is the TF 1.x name of `labels`."""
  labels = _math_ops._deprecated_argument_lookup("labels", labels, "targets", targets)
  with _ops.name_scope(name, "logistic_loss", [logits, labels]) as name:
    logits = _ops.convert_to_tensor(logits, name="logits")
    labels = _ops.convert_to_tensor(labels, name="labels")
    try:
      labels.get_shape().merge_with(logits.get_shape())
    except ValueError:
      raise ValueError("logits and labels must have the same shape (%s vs %s)"
                       % (logits.get_shape(), labels.get_shape()))
    log_weight = 1 + (pos_weight - 1) * labels
    softplus_neg_abs = _math_ops.log1p(_math_ops.exp(-_math_ops.abs(logits)))
    return _math_ops.add((1 - labels) * logits,
                         log_weight * (softplus_neg_abs + relu(-logits)), name=name)


def _conv_attrs(strides, padding, data_format, dilations, n=2):
  data_format = _canonical_format(data_format)
  ci = 1 if data_format.startswith("NC") else n + 1
  padding, explicit = _padding_attrs(padding)
  attrs = {"strides": _spatial_sequence(strides, n, ci, "strides"), "padding": padding,
           "data_format": data_format,
           "dilations": _spatial_sequence(dilations, n, ci, "dilations")}
  if explicit is not None:
    attrs["explicit_paddings"] = explicit
  return attrs


def conv2d_backprop_input(input_sizes, filter=None, out_backprop=None, strides=None,  # noqa: A002
                          padding=None, use_cudnn_on_gpu=True, data_format="NHWC",
                          dilations=(1, 1, 1, 1), name=None, filters=None):
  """Gradient of conv2d with respect to its input (`Conv2DBackpropInput`)."""
  filter = _math_ops._deprecated_argument_lookup("filters", filters, "filter", filter)
  attrs = _conv_attrs(strides, padding, data_format, dilations)
  if not use_cudnn_on_gpu:
    attrs["use_cudnn_on_gpu"] = False
  return _apply_op("Conv2DBackpropInput", name, [input_sizes, filter, out_backprop],
                   attrs).outputs[0]


def conv2d_backprop_filter(input, filter_sizes, out_backprop, strides, padding,  # noqa: A002
                           use_cudnn_on_gpu=True, data_format="NHWC", dilations=(1, 1, 1, 1),
                           name=None):
  """Gradient of conv2d with respect to its filter (`Conv2DBackpropFilter`)."""
  attrs = _conv_attrs(strides, padding, data_format, dilations)
  if not use_cudnn_on_gpu:
    attrs["use_cudnn_on_gpu"] = False
  return _apply_op("Conv2DBackpropFilter", name, [input, filter_sizes, out_backprop],
                   attrs).outputs[0]


def depthwise_conv2d_native_backprop_input(input_sizes, filter, out_backprop, strides,  # noqa: A002
                                           padding, data_format="NHWC",
                                           dilations=(1, 1, 1, 1), name=None):
  """Gradient of depthwise_conv2d_native with respect to its input."""
  return _apply_op("DepthwiseConv2dNativeBackpropInput", name,
                   [input_sizes, filter, out_backprop],
                   _conv_attrs(strides, padding, data_format, dilations)).outputs[0]


def depthwise_conv2d_native_backprop_filter(input, filter_sizes, out_backprop, strides,  # noqa: A002
                                            padding, data_format="NHWC",
                                            dilations=(1, 1, 1, 1), name=None):
  """Gradient of depthwise_conv2d_native with respect to its filter."""
  return _apply_op("DepthwiseConv2dNativeBackpropFilter", name,
                   [input, filter_sizes, out_backprop],
                   _conv_attrs(strides, padding, data_format, dilations)).outputs[0]


depthwise_conv2d_backprop_input = depthwise_conv2d_native_backprop_input
depthwise_conv2d_backprop_filter = depthwise_conv2d_native_backprop_filter


def conv2d_transpose(value=None, filter=None, output_shape=None, strides=None,  # noqa: A002
                     padding="SAME", data_format="NHWC", name=None, input=None, filters=None,
                     dilations=None):
  """Transposed 2-D convolution ("deconvolution"): the gradient of conv2d with respect to
  its input, with `value` as the output gradient. filter is [height, width,
  output_channels, in_channels]; output_shape the 1-D shape of the result."""
  value = _math_ops._deprecated_argument_lookup("input", input, "value", value)
  filter = _math_ops._deprecated_argument_lookup("filters", filters, "filter", filter)
  with _ops.name_scope(name, "conv2d_transpose", [value, filter, output_shape]) as name:
    value = _ops.convert_to_tensor(value, name="value")
    filter = _ops.convert_to_tensor(filter, name="filter")
    data_format = _canonical_format(data_format)
    if data_format not in ("NHWC", "NCHW"):
      raise ValueError("data_format has to be either NCHW or NHWC.")
    axis = 3 if data_format == "NHWC" else 1
    vshape, fshape = value.get_shape(), filter.get_shape()
    if vshape.ndims is not None and fshape.ndims is not None and \
        not vshape[axis].is_compatible_with(fshape[3]):
      raise ValueError("input channels does not match filter's input channels, {} != {}"
                       .format(vshape[axis], fshape[3]))
    output_shape_ = _ops.convert_to_tensor(output_shape, name="output_shape")
    if not output_shape_.get_shape().is_compatible_with([4]):
      raise ValueError("output_shape must have shape (4,), got {}"
                       .format(output_shape_.get_shape()))
    if isinstance(output_shape, (list, tuple)) and fshape.ndims is not None and \
        not fshape[2].is_compatible_with(output_shape[axis]):
      raise ValueError("output_shape does not match filter's output channels, {} != {}"
                       .format(output_shape[axis], fshape[2]))
    return conv2d_backprop_input(output_shape_, filter, value, strides=strides, padding=padding,
                                 data_format=data_format,
                                 dilations=dilations if dilations is not None else 1, name=name)


def conv1d(value=None, filters=None, stride=None, padding=None, use_cudnn_on_gpu=None,
           data_format=None, name=None, input=None, dilations=None):  # noqa: A002
  """1-D convolution of [batch, width, channels] (NWC) or [batch, channels, width] (NCW)
  inputs with [width, in_channels, out_channels] filters, as a Conv2D over a height of 1."""
  value = _math_ops._deprecated_argument_lookup("input", input, "value", value)
  with _ops.name_scope(name, "conv1d", [value, filters]) as name:
    if data_format is None or data_format in ("NHWC", "NWC"):
      data_format, spatial, channel_index = "NHWC", 1, 2
    elif data_format in ("NCHW", "NCW"):
      data_format, spatial, channel_index = "NCHW", 2, 1
    else:
      raise ValueError('data_format must be "NWC" or "NCW".')
    strides = [1] + _spatial_sequence(stride, 1, channel_index, "stride")
    dilations = [1] + _spatial_sequence(dilations, 1, channel_index, "dilations")
    value = _array_ops.expand_dims(value, spatial)
    filters = _array_ops.expand_dims(filters, 0)
    result = conv2d(value, filters, strides, padding,
                    use_cudnn_on_gpu=True if use_cudnn_on_gpu is None else use_cudnn_on_gpu,
                    data_format=data_format, dilations=dilations, name=name)
    return _array_ops.squeeze(result, [spatial])


def _pool1d(pool, default_name, input, ksize, strides, padding, data_format, name):  # noqa: A002
  if data_format in (None, "NWC", "NHWC"):
    data_format, spatial, channel_index = "NHWC", 1, 2
  elif data_format in ("NCW", "NCHW"):
    data_format, spatial, channel_index = "NCHW", 2, 1
  else:
    raise ValueError('data_format must be "NWC" or "NCW".')
  ksize = [1] + _spatial_sequence(ksize, 1, channel_index, "ksize")
  strides = [1] + _spatial_sequence(strides, 1, channel_index, "strides")
  with _ops.name_scope(name, default_name, [input]) as name:
    expanded = _array_ops.expand_dims(input, spatial)
    result = pool(expanded, ksize, strides, padding, data_format=data_format)
    return _array_ops.squeeze(result, [spatial], name=name)


def max_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):  # noqa: A002
  """Max pooling over the width of [batch, width, channels] (NWC) or NCW inputs."""
  return _pool1d(max_pool, "MaxPool1d", input, ksize, strides, padding, data_format, name)


def avg_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):  # noqa: A002
  """Average pooling over the width of [batch, width, channels] (NWC) or NCW inputs."""
  return _pool1d(avg_pool, "AvgPool1D", input, ksize, strides, padding, data_format, name)


def _rate_as_dilations(rate, dilations):
  rate = _math_ops._deprecated_argument_lookup("dilations", dilations, "rate", rate)
  if rate is None:
    return [1, 1]
  if isinstance(rate, int):
    return [rate, rate]
  rate = [int(getattr(r, "value", r)) for r in rate]
  if len(rate) != 2:
    raise ValueError("rate must have two elements (height and width), got %r" % (rate,))
  return rate


def depthwise_conv2d(input, filter, strides, padding, rate=None, name=None,  # noqa: A002
                     data_format=None, dilations=None):
  """Depthwise 2-D convolution: filter [h, w, in_channels, multiplier]; output channels
  in_channels * multiplier. `rate` (or `dilations`) dilates the filter (atrous), which
  needs strides of 1, as in TF."""
  rate = _rate_as_dilations(rate, dilations)
  fmt = _canonical_format(data_format)
  strides = _spatial_sequence(strides, 2, 1 if fmt == "NCHW" else 3, "strides")
  spatial_strides = strides[2:] if fmt == "NCHW" else strides[1:3]
  if rate != [1, 1] and spatial_strides != [1, 1]:
    raise ValueError("strides > 1 not supported in conjunction with dilation_rate > 1")
  with _ops.name_scope(name, "depthwise", [input, filter]) as name:
    input = _ops.convert_to_tensor(input, name="tensor_in")
    filter = _ops.convert_to_tensor(filter, name="filter_in")
    return depthwise_conv2d_native(input, filter, strides, padding, data_format=fmt,
                                   dilations=rate, name=name)


def separable_conv2d(input, depthwise_filter, pointwise_filter, strides, padding, rate=None,  # noqa: A002
                     name=None, data_format=None, dilations=None):
  """Depthwise convolution followed by a 1x1 convolution mixing the channels.

  depthwise_filter [h, w, in_channels, multiplier]; pointwise_filter
  [1, 1, in_channels * multiplier, out_channels]."""
  rate = _rate_as_dilations(rate, dilations)
  with _ops.name_scope(name, "separable_conv2d",
                       [input, depthwise_filter, pointwise_filter]) as name:
    input = _ops.convert_to_tensor(input, name="tensor_in")
    depthwise_filter = _ops.convert_to_tensor(depthwise_filter, name="depthwise_filter")
    pointwise_filter = _ops.convert_to_tensor(pointwise_filter, name="pointwise_filter")
    pshape = pointwise_filter.get_shape().with_rank(4)
    if pshape[0].value not in (None, 1) or pshape[1].value not in (None, 1):
      raise ValueError("pointwise_filter must be 1x1, got %s" % pshape)
    depthwise_filter.get_shape().with_rank(4)
    fmt = _canonical_format(data_format)
    depthwise = depthwise_conv2d(input, depthwise_filter, strides, padding, rate=rate,
                                 name="depthwise", data_format=fmt)
    return conv2d(depthwise, pointwise_filter, [1, 1, 1, 1], padding="VALID",
                  data_format=fmt, name=name)


def _clip_rows(params, ids, max_norm):
  """Rows of params gathered by ids, rescaled to an L2 norm of at most max_norm."""
  if max_norm is None:
    return params
  from tfc.ops import clip_ops  # pylint: disable=g-import-not-at-top
  ids_rank, params_rank = ids.get_shape().ndims, params.get_shape().ndims
  if ids_rank is None or params_rank is None:
    raise ValueError("embedding_lookup with max_norm needs ids and params of known rank")
  return clip_ops.clip_by_norm(params, max_norm, axes=list(range(ids_rank, params_rank)))


def embedding_lookup(params, ids, partition_strategy="mod", name=None, validate_indices=True,
                     max_norm=None):
  """Rows of `params` selected by `ids` (a gather along the first dimension).

  `params` is one tensor or variable, or a list of shards of one table (e.g.
  variables on several parameter servers), split by `partition_strategy`:
  "mod" puts id i in shard i % n (row i // n there); "div" gives each shard a
  contiguous block of ids, the first (total % n) shards one id more. The ids
  are split with DynamicPartition, each shard gathered where it lives, and
  the rows put back in order with ParallelDynamicStitch. The gradient with
  respect to each shard is an IndexedSlices of the rows looked up. With
  max_norm, each row found is rescaled to an L2 norm of at most max_norm.
  """
  del validate_indices
  if partition_strategy not in ("mod", "div"):
    raise ValueError("Unrecognized partition strategy: " + str(partition_strategy))
  if params is None:
    raise ValueError("Need at least one param")
  if isinstance(params, (list, tuple)):
    params = list(params)
    if not params:
      raise ValueError("Need at least one param")
  else:
    params = [params]
  with _ops.name_scope(name, "embedding_lookup", params + [ids]) as name:
    np_ = len(params)
    ids = _ops.convert_to_tensor(ids, name="ids")
    if np_ == 1:
      with _ops.colocate_with(params[0]):
        rows = _clip_rows(_array_ops.gather(params[0], ids, name=name), ids, max_norm)
      return _array_ops.identity(rows)
    from tfc.ops import data_flow_ops  # pylint: disable=g-import-not-at-top
    from tfc.framework import tensor_shape  # pylint: disable=g-import-not-at-top
    params = [p if hasattr(p, "get_shape") else _ops.convert_to_tensor(p, name="params")
              for p in params]
    flat_ids = _array_ops.reshape(ids, [-1])
    original_indices = _math_ops.range(_array_ops.size(flat_ids))
    if partition_strategy == "mod":
      p_assignments = flat_ids % np_
      new_ids = flat_ids // np_
    else:
      dim_0 = 0
      for p in params:
        d = tensor_shape.dimension_value(p.get_shape()[0]) if p.get_shape().ndims else None
        if d is None:
          dim_0 = None
          break
        dim_0 += d
      if dim_0 is not None:
        num_total_ids = _ops.convert_to_tensor(dim_0, dtype=flat_ids.dtype)
      else:
        dims = []
        for p in params:
          with _ops.colocate_with(p):
            dims.append(_array_ops.shape(p)[0])
        num_total_ids = _math_ops.reduce_sum(_math_ops.cast(_array_ops.stack(dims),
                                                            flat_ids.dtype))
      ids_per_partition = num_total_ids // np_
      extras = num_total_ids % np_
      p_assignments = _math_ops.maximum(flat_ids // (ids_per_partition + 1),
                                        (flat_ids - extras) // ids_per_partition)
      is_in_first_extras_partitions = _math_ops.cast(p_assignments < extras, flat_ids.dtype)
      new_ids = (is_in_first_extras_partitions * (flat_ids % (ids_per_partition + 1)) +
                 (1 - is_in_first_extras_partitions) *
                 ((flat_ids - extras) % ids_per_partition))
    p_assignments = _math_ops.cast(p_assignments, _dtypes.int32)
    gather_ids = data_flow_ops.dynamic_partition(new_ids, p_assignments, np_)
    pindices = data_flow_ops.dynamic_partition(original_indices, p_assignments, np_)
    partitioned_result = []
    for p in range(np_):
      with _ops.colocate_with(params[p]):
        partitioned_result.append(_array_ops.gather(params[p], gather_ids[p]))
    ret = data_flow_ops.parallel_dynamic_stitch(pindices, partitioned_result, name=name)
    element_shape = params[0].get_shape()[1:]
    for p in params[1:]:
      element_shape = element_shape.merge_with(p.get_shape()[1:])
    if element_shape.is_fully_defined():
      element_shape_d = _ops.convert_to_tensor(element_shape.as_list(), dtype=_dtypes.int32)
    else:
      with _ops.colocate_with(params[0]):
        element_shape_d = _array_ops.shape(params[0])[1:]
    ret = _array_ops.reshape(ret, _array_ops.concat(
        [_array_ops.shape(ids), element_shape_d], 0))
    ret.set_shape(ids.get_shape().concatenate(element_shape))
    return _clip_rows(ret, ids, max_norm)


def batch_norm_with_global_normalization(t=None, m=None, v=None, beta=None, gamma=None,
                                         variance_epsilon=None, scale_after_normalization=None,
                                         name=None, input=None, mean=None, variance=None):  # noqa: A002
  """TF 0.x batch normalization: (t - m) / sqrt(v + eps) * gamma + beta, gamma used only
  when scale_after_normalization."""
  t = _math_ops._deprecated_argument_lookup("input", input, "t", t)
  m = _math_ops._deprecated_argument_lookup("mean", mean, "m", m)
  v = _math_ops._deprecated_argument_lookup("variance", variance, "v", v)
  return batch_normalization(t, m, v, beta, gamma if scale_after_normalization else None,
                             variance_epsilon, name)


def sufficient_statistics(x, axes, shift=None, keep_dims=None, name=None, keepdims=None):
  """(count, sum(x - shift), sum((x - shift) ** 2), shift) over `axes`: what
  normalize_moments turns into the mean and variance."""
  axes = sorted(set(axes))
  keep_dims = _math_ops._deprecated_argument_lookup("keepdims", keepdims, "keep_dims", keep_dims)
  keep_dims = bool(keep_dims)
  with _ops.name_scope(name, "sufficient_statistics", [x, shift]):
    x = _ops.convert_to_tensor(x, name="x")
    dims = x.get_shape().dims
    if dims is not None and all(dims[d].value is not None for d in axes):
      count = 1
      for d in axes:
        count *= dims[d].value
      counts = _ops.convert_to_tensor(count, dtype=x.dtype.base_dtype)
    else:
      sizes = _array_ops.gather(_math_ops.cast(_array_ops.shape(x), x.dtype.base_dtype), axes)
      counts = _math_ops.reduce_prod(sizes, name="count")
    if shift is not None:
      shift = _ops.convert_to_tensor(shift, name="shift")
      m_ss, v_ss = _math_ops.subtract(x, shift), _math_ops.squared_difference(x, shift)
    else:
      m_ss, v_ss = x, _math_ops.square(x)
    m_ss = _math_ops.reduce_sum(m_ss, axes, keepdims=keep_dims, name="mean_ss")
    v_ss = _math_ops.reduce_sum(v_ss, axes, keepdims=keep_dims, name="var_ss")
  return counts, m_ss, v_ss, shift


def normalize_moments(counts, mean_ss, variance_ss, shift, name=None):
  """(mean, variance) from sufficient_statistics' count, sums and shift."""
  with _ops.name_scope(name, "normalize", [counts, mean_ss, variance_ss, shift]):
    divisor = _math_ops.reciprocal(counts, name="divisor")
    if shift is not None:
      shifted_mean = _math_ops.multiply(mean_ss, divisor, name="shifted_mean")
      mean = _math_ops.add(shifted_mean, shift, name="mean")
    else:
      shifted_mean = _math_ops.multiply(mean_ss, divisor, name="mean")
      mean = shifted_mean
    variance = _math_ops.subtract(_math_ops.multiply(variance_ss, divisor),
                                  _math_ops.square(shifted_mean), name="variance")
  return mean, variance


def weighted_moments(x, axes, frequency_weights, name=None, keep_dims=None, keepdims=None):
  """Weighted mean and variance of x over `axes`, each element counted
  `frequency_weights` times (weights broadcast against x)."""
  keep_dims = _math_ops._deprecated_argument_lookup("keepdims", keepdims, "keep_dims", keep_dims)
  keep_dims = bool(keep_dims)
  with _ops.name_scope(name, "weighted_moments", [x, frequency_weights, axes]):
    x = _ops.convert_to_tensor(x, name="x")
    weights = _ops.convert_to_tensor(frequency_weights, name="frequency_weights")
    half = x.dtype.base_dtype == _dtypes.float16
    if half:
      x = _math_ops.cast(x, _dtypes.float32)
    if weights.dtype.base_dtype != x.dtype.base_dtype:
      weights = _math_ops.cast(weights, x.dtype.base_dtype)
    weighted_sum = _math_ops.reduce_sum(weights * x, axes, keepdims=True,
                                        name="weighted_input_sum")
    weight_sum = _math_ops.reduce_sum(weights + _array_ops.zeros_like(x), axes, keepdims=True,
                                      name="sum_of_weights")
    inv_weight_sum = _math_ops.reciprocal(weight_sum, name="inv_weight_sum")
    mean = _math_ops.multiply(weighted_sum, inv_weight_sum)
    distsq = _math_ops.reduce_sum(
        weights * _math_ops.squared_difference(x, _array_ops.stop_gradient(mean)), axes,
        keepdims=True, name="weighted_distsq")
    variance = _math_ops.multiply(distsq, inv_weight_sum)
    if not keep_dims:
      mean = _array_ops.squeeze(mean, axes)
      variance = _array_ops.squeeze(variance, axes)
    if half:
      mean = _math_ops.cast(mean, _dtypes.float16)
      variance = _math_ops.cast(variance, _dtypes.float16)
    return mean, variance


def in_top_k(predictions, targets, k, name=None):
  """Per row: whether the target class's prediction is among the k largest (ties at the
  boundary count as in); false when the target is out of range or the row holds a NaN
  or an infinity."""
  with _ops.name_scope(name, "in_top_k", [predictions, targets, k]):
    predictions = _ops.convert_to_tensor(predictions, name="predictions")
    targets = _ops.convert_to_tensor(targets, name="targets")
    if predictions.get_shape().ndims not in (None, 2) or targets.get_shape().ndims not in (None,
                                                                                          1):
      raise ValueError("in_top_k needs predictions [batch, classes] and targets [batch], got "
                       "%s and %s" % (predictions.get_shape(), targets.get_shape()))
    index_type = targets.dtype.base_dtype
    num_classes = _math_ops.cast(_array_ops.shape(predictions)[1], index_type)
    zero = _array_ops.zeros([], index_type)
    valid = _math_ops.logical_and(_math_ops.greater_equal(targets, zero),
                                  _math_ops.less(targets, num_classes))
    safe = _array_ops.where(valid, targets, _array_ops.zeros_like(targets))
    is_target = _array_ops.one_hot(safe, _math_ops.cast(num_classes, _dtypes.int32),
                                   on_value=True, off_value=False, dtype=_dtypes.bool)
    scores = _math_ops.reduce_sum(
        _array_ops.where_v2(is_target, predictions, _array_ops.zeros([], predictions.dtype)), 1)
    higher = _math_ops.reduce_sum(_math_ops.cast(
        _math_ops.greater(predictions, _array_ops.expand_dims(scores, 1)), _dtypes.int32), 1)
    finite = _math_ops.reduce_all(_math_ops.is_finite(predictions), 1)
    k = _math_ops.cast(k, _dtypes.int32)
    return _math_ops.logical_and(_math_ops.logical_and(valid, finite),
                                 _math_ops.less(higher, k))


def convolution(input, filter=None, padding=None, strides=None, dilation_rate=None,  # noqa: A002
                name=None, data_format=None, filters=None, dilations=None):
  """N-d convolution for N = 1 (conv1d), 2 (conv2d) or 3 (conv3d), by the input's rank."""
  filter = _math_ops._deprecated_argument_lookup("filters", filters, "filter", filter)
  dilation_rate = _math_ops._deprecated_argument_lookup("dilations", dilations,
                                                        "dilation_rate", dilation_rate)
  with _ops.name_scope(name, "convolution", [input, filter]) as name:
    input = _ops.convert_to_tensor(input, name="input")
    rank = input.get_shape().ndims
    if rank == 3:
      return conv1d(input, filter, 1 if strides is None else strides, padding,
                    data_format=data_format, dilations=dilation_rate, name=name)
    if rank == 4:
      return conv2d(input, filter, 1 if strides is None else strides, padding,
                    data_format=data_format or "NHWC",
                    dilations=1 if dilation_rate is None else dilation_rate, name=name)
    if rank == 5:
      from tfc.ops import nn3d_ops  # pylint: disable=g-import-not-at-top
      return nn3d_ops.conv3d(input, filter, 1 if strides is None else strides, padding,
                             data_format=data_format or "NDHWC",
                             dilations=1 if dilation_rate is None else dilation_rate, name=name)
    raise NotImplementedError("convolution over %s spatial dimensions is not supported by tfc "
                              "(1, 2 and 3 are)" % (None if rank is None else rank - 2))


def pool(input, window_shape, pooling_type, padding, dilation_rate=None, strides=None,  # noqa: A002
         name=None, data_format=None, dilations=None):
  """Max or average pooling over 1, 2 or 3 spatial dimensions (without dilation)."""
  dilation_rate = _math_ops._deprecated_argument_lookup("dilations", dilations,
                                                        "dilation_rate", dilation_rate)
  if pooling_type not in ("MAX", "AVG"):
    raise ValueError("Invalid pooling_type: %s" % pooling_type)
  rates = [dilation_rate] if isinstance(dilation_rate, int) else list(dilation_rate or [])
  if any(d != 1 for d in rates):
    raise NotImplementedError("dilated pooling is not supported by tfc")
  window_shape = list(window_shape)
  strides = list(strides) if strides is not None else [1] * len(window_shape)
  with _ops.name_scope(name, "%s_pool" % pooling_type.lower(), [input]) as scope:
    input = _ops.convert_to_tensor(input, name="input")
    if len(window_shape) == 1:
      fn = max_pool1d if pooling_type == "MAX" else avg_pool1d
      return fn(input, window_shape, strides, padding, data_format=data_format or "NWC",
                name=scope)
    if len(window_shape) == 2:
      fn = max_pool if pooling_type == "MAX" else avg_pool
      return fn(input, window_shape, strides, padding, data_format=data_format or "NHWC",
                name=scope)
    if len(window_shape) == 3:
      from tfc.ops import nn3d_ops  # pylint: disable=g-import-not-at-top
      fn = nn3d_ops.max_pool3d if pooling_type == "MAX" else nn3d_ops.avg_pool3d
      return fn(input, window_shape, strides, padding, data_format=data_format or "NDHWC",
                name=scope)
    raise NotImplementedError("pooling over %d spatial dimensions is not supported by tfc"
                              % len(window_shape))


def atrous_conv2d(value, filters, rate, padding, name=None):
  """2-D convolution with the filter dilated by `rate` (holes between its taps)."""
  if rate < 1:
    raise ValueError("rate {} cannot be less than one".format(rate))
  return conv2d(value, filters, [1, 1, 1, 1], padding, dilations=[1, rate, rate, 1], name=name)


def conv1d_transpose(input, filters, output_shape, strides, padding="SAME",  # noqa: A002
                     data_format="NWC", dilations=None, name=None):
  """Transposed 1-D convolution (conv2d_transpose over a height of 1); filters
  [width, output_channels, in_channels]."""
  with _ops.name_scope(name, "conv1d_transpose", [input, filters, output_shape]) as name:
    if data_format is None or data_format == "NWC":
      fmt, spatial, channel_index = "NHWC", 1, 2
    elif data_format == "NCW":
      fmt, spatial, channel_index = "NCHW", 2, 1
    else:
      raise ValueError("data_format must be \"NWC\" or \"NCW\".")
    full_strides = [1] + _spatial_sequence(strides, 1, channel_index, "stride")
    full_dilations = [1] + _spatial_sequence(dilations, 1, channel_index, "dilations")
    value = _array_ops.expand_dims(input, spatial)
    filters = _array_ops.expand_dims(filters, 0)
    if isinstance(output_shape, _ops.Tensor):
      out = _array_ops.concat([output_shape[:spatial], [1], output_shape[spatial:]], 0)
    else:
      shape = list(output_shape)
      out = shape[:spatial] + [1] + shape[spatial:]
    result = conv2d_backprop_input(out, filters, value, full_strides, padding, data_format=fmt,
                                   dilations=full_dilations)
    return _array_ops.squeeze(result, [spatial], name=name)
