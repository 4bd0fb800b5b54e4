"""tf.layers: TF 1.15's functional layers over tf.get_variable.

Each call opens a variable scope named after the layer (`dense`, `dense_1`, ...
unless `name` is given) and creates the layer's variables there with TF's
names (`dense/kernel`, `dense/bias`, `conv2d/kernel`,
`batch_normalization/gamma`, ...) and default initializers (Glorot-uniform
kernels, zero biases). `reuse=True` with a `name` shares the variables of an
earlier call. Batch normalization puts its moving-average updates in
`tf.GraphKeys.UPDATE_OPS`, like TF 1.x.

`training` may be a Python bool or a boolean tensor; with a tensor both paths
are built and blended by the flag's value (tfc has no `tf.cond`).
"""
from tfc import dtypes as _dtypes
from tfc.framework import ops as _ops
from tfc.ops import array_ops as _array_ops
from tfc.ops import init_ops as _init_ops
from tfc.ops import math_ops as _math_ops
from tfc.ops import nn_ops as _nn_ops
from tfc.ops import state_ops as _state_ops
from tfc.ops import variable_scope as _vs
from tfc.ops import variables as _vs_variables

__all__ = ["dense", "conv2d", "max_pooling2d", "average_pooling2d", "flatten", "dropout",
           "batch_normalization", "max_pool2d", "average_pool2d", "conv2d_transpose", "conv1d",
           "max_pooling1d", "average_pooling1d", "separable_conv2d"]


def _tuple(value, n, arg_name):
  if isinstance(value, int):
    return (value,) * n
  value = tuple(int(v) for v in value)
  if len(value) != n:
    raise ValueError("The `%s` argument must be a tuple of %d integers. Received: %r"
                     % (arg_name, n, value))
  return value


def _padding(padding):
  p = padding.upper() if isinstance(padding, str) else padding
  if p not in ("SAME", "VALID"):
    raise ValueError("The `padding` argument must be one of 'valid', 'same'. Received: %r"
                     % (padding,))
  return p


def _data_format(data_format):
  fmt = (data_format or "channels_last").lower()
  if fmt not in ("channels_last", "channels_first"):
    raise ValueError("The `data_format` argument must be one of 'channels_first', "
                     "'channels_last'. Received: %r" % (data_format,))
  return "NHWC" if fmt == "channels_last" else "NCHW"


def _static_value(training):
  """True/False for a Python bool (or constant); None for a tensor decided at run time."""
  if isinstance(training, (_ops.Tensor, _vs_variables.Variable)):
    return None
  return bool(training)


def _activate(outputs, activation):
  return activation(outputs) if activation is not None else outputs


def _layer_scope(name, default_name, reuse, inputs):
  return _vs.variable_scope(name, default_name=default_name, reuse=reuse, values=[inputs])


def _add_activity_loss(activity_regularizer, outputs):
  if activity_regularizer is None:
    return
  with _ops.name_scope("ActivityRegularizer"):
    loss = activity_regularizer(outputs)
  if loss is not None:
    _ops.add_to_collection(_ops.GraphKeys.REGULARIZATION_LOSSES, loss)


def _kernel_and_bias(kernel_shape, units, dtype, use_bias, kernel_initializer, bias_initializer,
                     kernel_regularizer, bias_regularizer, kernel_constraint, bias_constraint,
                     trainable):
  kernel = _vs.get_variable("kernel", shape=kernel_shape, dtype=dtype,
                            initializer=kernel_initializer, regularizer=kernel_regularizer,
                            constraint=kernel_constraint, trainable=trainable)
  bias = None
  if use_bias:
    bias = _vs.get_variable("bias", shape=[units], dtype=dtype, initializer=bias_initializer,
                            regularizer=bias_regularizer, constraint=bias_constraint,
                            trainable=trainable)
  return kernel, bias


def _float_dtype(inputs):
  dtype = inputs.dtype.base_dtype
  return dtype if dtype.is_floating else _dtypes.float32


def dense(inputs, units, activation=None, use_bias=True, kernel_initializer=None,
          bias_initializer=_init_ops.zeros_initializer(), kernel_regularizer=None,
          bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
          bias_constraint=None, trainable=True, name=None, reuse=None):
  """activation(inputs @ kernel + bias) over the last axis of `inputs`."""
  units = int(units)
  if units <= 0:
    raise ValueError("Received an invalid value for `units`, expected a positive integer, "
                     "got %r." % units)
  with _layer_scope(name, "dense", reuse, inputs):
    inputs = _ops.convert_to_tensor(inputs)
    shape = inputs.get_shape()
    rank = shape.ndims
    if rank is None or shape[-1].value is None:
      raise ValueError("The last dimension of the inputs to `Dense` should be defined. "
                       "Found `None`.")
    dtype = _float_dtype(inputs)
    kernel, bias = _kernel_and_bias([shape[-1].value, units], units, dtype, use_bias,
                                    kernel_initializer, bias_initializer, kernel_regularizer,
                                    bias_regularizer, kernel_constraint, bias_constraint,
                                    trainable)
    if inputs.dtype.base_dtype != dtype:
      inputs = _math_ops.cast(inputs, dtype)
    if rank > 2:
      flat = _array_ops.reshape(inputs, [-1, shape[-1].value])
      outputs = _math_ops.matmul(flat, kernel, name="Tensordot")
      out_shape = _array_ops.concat([_array_ops.shape(inputs)[:-1], [units]], 0)
      outputs = _array_ops.reshape(outputs, out_shape)
      outputs.set_shape(shape[:-1].concatenate([units]))
    else:
      outputs = _math_ops.matmul(inputs, kernel)
    if bias is not None:
      outputs = _nn_ops.bias_add(outputs, bias)
    outputs = _activate(outputs, activation)
    _add_activity_loss(activity_regularizer, outputs)
    return outputs


def conv2d(inputs, filters, kernel_size, strides=(1, 1), padding="valid",
           data_format="channels_last", dilation_rate=(1, 1), activation=None, use_bias=True,
           kernel_initializer=None, bias_initializer=_init_ops.zeros_initializer(),
           kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
           kernel_constraint=None, bias_constraint=None, trainable=True, name=None, reuse=None):
  """2-D convolution layer: kernel of shape kernel_size + (in_channels, filters)."""
  kernel_size = _tuple(kernel_size, 2, "kernel_size")
  strides = _tuple(strides, 2, "strides")
  dilation_rate = _tuple(dilation_rate, 2, "dilation_rate")
  padding = _padding(padding)
  fmt = _data_format(data_format)
  filters = int(filters)
  with _layer_scope(name, "conv2d", reuse, inputs):
    inputs = _ops.convert_to_tensor(inputs)
    shape = inputs.get_shape()
    if shape.ndims != 4:
      raise ValueError("Input 0 of layer conv2d is incompatible with the layer: expected "
                       "ndim=4, found ndim=%s. Full shape received: %s" % (shape.ndims, shape))
    ci = 1 if fmt == "NCHW" else 3
    in_ch = shape[ci].value
    if in_ch is None:
      raise ValueError("The channel dimension of the inputs should be defined. Found `None`.")
    dtype = _float_dtype(inputs)
    kernel, bias = _kernel_and_bias(list(kernel_size) + [in_ch, filters], filters, dtype,
                                    use_bias, kernel_initializer, bias_initializer,
                                    kernel_regularizer, bias_regularizer, kernel_constraint,
                                    bias_constraint, trainable)
    outputs = _nn_ops.conv2d(inputs, kernel, strides=list(strides), padding=padding,
                             data_format=fmt, dilations=list(dilation_rate), name="Conv2D")
    if bias is not None:
      outputs = _nn_ops.bias_add(outputs, bias, data_format=fmt)
    outputs = _activate(outputs, activation)
    _add_activity_loss(activity_regularizer, outputs)
    return outputs


def _pooling(fn, default_name, inputs, pool_size, strides, padding, data_format, name):
  pool_size = _tuple(pool_size, 2, "pool_size")
  strides = _tuple(strides, 2, "strides")
  padding = _padding(padding)
  fmt = _data_format(data_format)
  with _layer_scope(name, default_name, None, inputs):
    return fn(inputs, ksize=list(pool_size), strides=list(strides), padding=padding,
              data_format=fmt)


def max_pooling2d(inputs, pool_size, strides, padding="valid", data_format="channels_last",
                  name=None):
  """Max pooling over 2-D windows."""
  return _pooling(_nn_ops.max_pool, "max_pooling2d", inputs, pool_size, strides, padding,
                  data_format, name)


def average_pooling2d(inputs, pool_size, strides, padding="valid", data_format="channels_last",
                      name=None):
  """Average pooling over 2-D windows."""
  return _pooling(_nn_ops.avg_pool, "average_pooling2d", inputs, pool_size, strides, padding,
                  data_format, name)


max_pool2d = max_pooling2d
average_pool2d = average_pooling2d


def flatten(inputs, name=None, data_format="channels_last"):
  """Reshapes to [batch, -1] (channels-first inputs are moved to channels-last first)."""
  fmt = _data_format(data_format)
  with _layer_scope(name, "flatten", None, inputs):
    inputs = _ops.convert_to_tensor(inputs)
    shape = inputs.get_shape()
    rank = shape.ndims
    if fmt == "NCHW" and rank is not None and rank > 1:
      inputs = _array_ops.transpose(inputs, [0] + list(range(2, rank)) + [1])
      shape = inputs.get_shape()
    rest = shape[1:].as_list() if rank is not None else None
    if rest is not None and all(d is not None for d in rest):
      n = 1
      for d in rest:
        n *= d
      return _array_ops.reshape(inputs, [-1, n])
    batch = shape[0].value if rank else None
    if batch is None:
      batch = _array_ops.shape(inputs)[0]
      target = _array_ops.stack([batch, -1])
    else:
      target = [batch, -1]
    return _array_ops.reshape(inputs, target)


def dropout(inputs, rate=0.5, noise_shape=None, seed=None, training=False, name=None):
  """Dropout when `training` is true (scaled by 1/(1 - rate)); the identity otherwise."""
  with _layer_scope(name, "dropout", None, inputs):
    inputs = _ops.convert_to_tensor(inputs)
    flag = _static_value(training)
    if flag is False:
      return _array_ops.identity(inputs)
    if flag is True:
      return _nn_ops.dropout(inputs, noise_shape=noise_shape, seed=seed, rate=rate)
    # Run-time flag: out = x * (t * mask + (1 - t)), mask the scaled keep mask.
    t = _math_ops.cast(training, inputs.dtype)
    mask_shape = noise_shape if noise_shape is not None else _array_ops.shape(inputs)
    mask = _nn_ops.dropout(_array_ops.ones(mask_shape, dtype=inputs.dtype), seed=seed, rate=rate)
    out = inputs * (t * mask + (1.0 - t))
    out.set_shape(inputs.get_shape())
    return out


def _assign_moving_average(variable, value, decay_factor):
  """variable -= (variable - value) * decay_factor, named AssignMovingAvg."""
  with _ops.name_scope(None, "AssignMovingAvg", [variable, value]) as scope:
    with _ops.colocate_with(variable):
      decay = _ops.convert_to_tensor(decay_factor, name="decay") \
          if not isinstance(decay_factor, _ops.Tensor) else decay_factor
      if decay.dtype != variable.dtype.base_dtype:
        decay = _math_ops.cast(decay, variable.dtype.base_dtype)
      value = _math_ops.cast(value, variable.dtype.base_dtype) \
          if value.dtype.base_dtype != variable.dtype.base_dtype else value
      delta = (variable - value) * decay
      return _state_ops.assign_sub(variable, delta, name=scope)


def _fused_ok(ndims, axes):
  if ndims != 4 or axes not in ([1], [3]):
    return False
  return _nn_ops._op_exists("FusedBatchNormV3") or _nn_ops._op_exists("FusedBatchNormV2") or \
      _nn_ops._op_exists("FusedBatchNorm")


def batch_normalization(inputs, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True,
                        beta_initializer=_init_ops.zeros_initializer(),
                        gamma_initializer=_init_ops.ones_initializer(),
                        moving_mean_initializer=_init_ops.zeros_initializer(),
                        moving_variance_initializer=_init_ops.ones_initializer(),
                        beta_regularizer=None, gamma_regularizer=None, beta_constraint=None,
                        gamma_constraint=None, training=False, trainable=True, name=None,
                        reuse=None, renorm=False, renorm_clipping=None, renorm_momentum=0.99,
                        fused=None, virtual_batch_size=None, adjustment=None):
  """Batch normalization (TF 1.15's layer).

  Training normalizes with the batch statistics and adds the two moving-average
  updates (`moving = moving - (moving - batch) * (1 - momentum)`) to UPDATE_OPS;
  inference uses the moving statistics. 4-D inputs normalized over the channel
  axis use one FusedBatchNorm op when the runtime has it (`fused=None` or True)."""
  if renorm or virtual_batch_size is not None or adjustment is not None:
    raise NotImplementedError("batch_normalization: renorm, virtual_batch_size and adjustment "
                              "are not supported by tfc")
  with _layer_scope(name, "batch_normalization", reuse, inputs):
    inputs = _ops.convert_to_tensor(inputs)
    shape = inputs.get_shape()
    ndims = shape.ndims
    if ndims is None:
      raise ValueError("Input has undefined rank.")
    axes = list(axis) if isinstance(axis, (list, tuple)) else [axis]
    axes = sorted(a + ndims if a < 0 else a for a in axes)
    for a in axes:
      if a < 0 or a >= ndims:
        raise ValueError("Invalid axis: %d" % a)
    param_shape = [shape[a].value for a in axes]
    if any(d is None for d in param_shape):
      raise ValueError("Input has undefined `axis` dimension. Input shape: %s" % shape)
    if len(axes) == 1:
      param_shape = param_shape[0:1]
    use_fused = fused if fused is not None else True
    if use_fused and not _fused_ok(ndims, axes):
      if fused:
        raise ValueError("Unsupported axis/rank for fused batch norm: axis=%r, rank %d"
                         % (axis, ndims))
      use_fused = False
    dtype = _float_dtype(inputs)
    param_dtype = _dtypes.float32 if dtype in (_dtypes.float16, _dtypes.bfloat16) else dtype
    gamma = beta = None
    if scale:
      gamma = _vs.get_variable("gamma", shape=param_shape, dtype=param_dtype,
                               initializer=gamma_initializer, regularizer=gamma_regularizer,
                               constraint=gamma_constraint, trainable=trainable)
    if center:
      beta = _vs.get_variable("beta", shape=param_shape, dtype=param_dtype,
                              initializer=beta_initializer, regularizer=beta_regularizer,
                              constraint=beta_constraint, trainable=trainable)
    moving_mean = _vs.get_variable("moving_mean", shape=param_shape, dtype=param_dtype,
                                   initializer=moving_mean_initializer, trainable=False)
    moving_variance = _vs.get_variable("moving_variance", shape=param_shape, dtype=param_dtype,
                                       initializer=moving_variance_initializer, trainable=False)
    flag = _static_value(training)
    t = None if flag is not None else _math_ops.cast(training, param_dtype)
    if use_fused:
      outputs, mean, variance = _fused_bn(inputs, gamma, beta, moving_mean, moving_variance,
                                          epsilon, "NCHW" if axes == [1] else "NHWC",
                                          param_shape, param_dtype, flag, t)
    else:
      outputs, mean, variance = _plain_bn(inputs, gamma, beta, moving_mean, moving_variance,
                                          epsilon, axes, ndims, flag, t)
    if flag is not False:
      decay = 1.0 - momentum
      if t is not None:
        decay = _ops.convert_to_tensor(decay, dtype=param_dtype) * t
      upd_mean = _assign_moving_average(moving_mean, mean, decay)
      upd_var = _assign_moving_average(moving_variance, variance, decay)
      _ops.add_to_collection(_ops.GraphKeys.UPDATE_OPS, upd_mean)
      _ops.add_to_collection(_ops.GraphKeys.UPDATE_OPS, upd_var)
    return outputs


def _fused_bn(inputs, gamma, beta, moving_mean, moving_variance, epsilon, fmt, param_shape,
              param_dtype, flag, t):
  if gamma is None:
    gamma = _array_ops.ones(param_shape, dtype=param_dtype)
  if beta is None:
    beta = _array_ops.zeros(param_shape, dtype=param_dtype)
  if flag is False:
    y, _, _ = _nn_ops.fused_batch_norm(inputs, gamma, beta, mean=moving_mean,
                                       variance=moving_variance, epsilon=epsilon,
                                       data_format=fmt, is_training=False)
    return y, None, None
  y, mean, variance = _nn_ops.fused_batch_norm(inputs, gamma, beta, epsilon=epsilon,
                                               data_format=fmt)
  if t is not None:
    y_inf, _, _ = _nn_ops.fused_batch_norm(inputs, gamma, beta, mean=moving_mean,
                                           variance=moving_variance, epsilon=epsilon,
                                           data_format=fmt, is_training=False)
    tx = _math_ops.cast(t, y.dtype)
    y = y_inf + tx * (y - y_inf)
  return y, mean, variance


def _plain_bn(inputs, gamma, beta, moving_mean, moving_variance, epsilon, axes, ndims, flag, t):
  reduction_axes = [i for i in range(ndims) if i not in axes]
  bshape = [1] * ndims
  shape = inputs.get_shape()
  for a in axes:
    bshape[a] = shape[a].value
  need_bcast = reduction_axes != list(range(ndims - 1))

  def _broadcast(v):
    if v is not None and need_bcast:
      return _array_ops.reshape(v, bshape)
    return v

  if flag is False:
    mean, variance = moving_mean, moving_variance
    batch_mean = batch_var = None
  else:
    keep = len(axes) > 1
    batch_mean, batch_var = _nn_ops.moments(inputs, reduction_axes, keep_dims=keep)
    if keep:
      batch_mean = _array_ops.reshape(batch_mean, moving_mean.get_shape().as_list())
      batch_var = _array_ops.reshape(batch_var, moving_variance.get_shape().as_list())
    mean, variance = batch_mean, batch_var
    if t is not None:
      mean = moving_mean + t * (batch_mean - moving_mean)
      variance = moving_variance + t * (batch_var - moving_variance)
  dt = inputs.dtype.base_dtype
  if mean.dtype.base_dtype != dt:
    mean = _math_ops.cast(mean, dt)
    variance = _math_ops.cast(variance, dt)
  g = _math_ops.cast(gamma, dt) if gamma is not None and gamma.dtype.base_dtype != dt else gamma
  b = _math_ops.cast(beta, dt) if beta is not None and beta.dtype.base_dtype != dt else beta
  outputs = _nn_ops.batch_normalization(inputs, _broadcast(mean), _broadcast(variance),
                                        _broadcast(b), _broadcast(g), epsilon)
  outputs.set_shape(shape)
  return outputs, batch_mean, batch_var


# -- more of TF 1.15's functional layers, composed of the tf.nn functions ----------------


def _input_with_rank(inputs, layer, ndim):
  inputs = _ops.convert_to_tensor(inputs)
  shape = inputs.get_shape()
  if shape.ndims != ndim:
    raise ValueError("Input 0 of layer %s is incompatible with the layer: expected ndim=%d, "
                     "found ndim=%s. Full shape received: %s" % (layer, ndim, shape.ndims, shape))
  return inputs, shape


def _channels(shape, index):
  channels = shape[index].value
  if channels is None:
    raise ValueError("The channel dimension of the inputs should be defined. Found `None`.")
  return channels


def _transposed_length(length, kernel, stride, padding):
  """Output length of a transposed convolution (None when the input length is unknown)."""
  if length is None:
    return None
  if padding == "VALID":
    return length * stride + max(kernel - stride, 0)
  return length * stride


def conv2d_transpose(inputs, filters, kernel_size, strides=(1, 1), padding="valid",
                     data_format="channels_last", activation=None, use_bias=True,
                     kernel_initializer=None, bias_initializer=_init_ops.zeros_initializer(),
                     kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                     kernel_constraint=None, bias_constraint=None, trainable=True, name=None,
                     reuse=None):
  """Transposed 2-D convolution layer: kernel of shape kernel_size + (filters, in_channels);
  each spatial size grows to size * stride (+ max(kernel - stride, 0) with 'valid')."""
  kernel_size = _tuple(kernel_size, 2, "kernel_size")
  strides = _tuple(strides, 2, "strides")
  padding = _padding(padding)
  fmt = _data_format(data_format)
  filters = int(filters)
  with _layer_scope(name, "conv2d_transpose", reuse, inputs):
    inputs, shape = _input_with_rank(inputs, "conv2d_transpose", 4)
    ci, (hi, wi) = (1, (2, 3)) if fmt == "NCHW" else (3, (1, 2))
    in_ch = _channels(shape, ci)
    dtype = _float_dtype(inputs)
    kernel, bias = _kernel_and_bias(list(kernel_size) + [filters, in_ch], filters, dtype,
                                    use_bias, kernel_initializer, bias_initializer,
                                    kernel_regularizer, bias_regularizer, kernel_constraint,
                                    bias_constraint, trainable)
    dynamic = _array_ops.shape(inputs)
    sizes = []
    for axis, k, s in ((hi, kernel_size[0], strides[0]), (wi, kernel_size[1], strides[1])):
      static = _transposed_length(shape[axis].value, k, s, padding)
      if static is not None:
        sizes.append(static)
      else:
        grow = max(k - s, 0) if padding == "VALID" else 0
        sizes.append(dynamic[axis] * s + grow)
    out_shape = ([dynamic[0], filters] + sizes) if fmt == "NCHW" else \
        ([dynamic[0]] + sizes + [filters])
    full_strides = [1, 1] + list(strides) if fmt == "NCHW" else [1] + list(strides) + [1]
    outputs = _nn_ops.conv2d_transpose(inputs, kernel, _array_ops.stack(out_shape),
                                       full_strides, padding=padding, data_format=fmt,
                                       name="conv2d_transpose")
    static_sizes = [s if isinstance(s, int) else None for s in sizes]
    outputs.set_shape([shape[0].value, filters] + static_sizes if fmt == "NCHW"
                      else [shape[0].value] + static_sizes + [filters])
    if bias is not None:
      outputs = _nn_ops.bias_add(outputs, bias, data_format=fmt)
    outputs = _activate(outputs, activation)
    _add_activity_loss(activity_regularizer, outputs)
    return outputs


def conv1d(inputs, filters, kernel_size, strides=1, padding="valid",
           data_format="channels_last", dilation_rate=1, activation=None, use_bias=True,
           kernel_initializer=None, bias_initializer=_init_ops.zeros_initializer(),
           kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
           kernel_constraint=None, bias_constraint=None, trainable=True, name=None, reuse=None):
  """1-D convolution layer over [batch, width, channels] (or channels_first) inputs: kernel
  of shape (kernel_size, in_channels, filters)."""
  kernel_size = _tuple(kernel_size, 1, "kernel_size")
  strides = _tuple(strides, 1, "strides")
  dilation_rate = _tuple(dilation_rate, 1, "dilation_rate")
  padding = _padding(padding)
  fmt = "NWC" if _data_format(data_format) == "NHWC" else "NCW"
  filters = int(filters)
  with _layer_scope(name, "conv1d", reuse, inputs):
    inputs, shape = _input_with_rank(inputs, "conv1d", 3)
    in_ch = _channels(shape, 1 if fmt == "NCW" else 2)
    dtype = _float_dtype(inputs)
    kernel, bias = _kernel_and_bias(list(kernel_size) + [in_ch, filters], filters, dtype,
                                    use_bias, kernel_initializer, bias_initializer,
                                    kernel_regularizer, bias_regularizer, kernel_constraint,
                                    bias_constraint, trainable)
    outputs = _nn_ops.conv1d(inputs, kernel, stride=list(strides), padding=padding,
                             data_format=fmt, dilations=list(dilation_rate))
    if bias is not None:
      if fmt == "NCW":
        outputs = outputs + _array_ops.reshape(bias, [1, filters, 1])
      else:
        outputs = _nn_ops.bias_add(outputs, bias)
    outputs = _activate(outputs, activation)
    _add_activity_loss(activity_regularizer, outputs)
    return outputs


def _pooling1d(fn, default_name, inputs, pool_size, strides, padding, data_format, name):
  pool_size = _tuple(pool_size, 1, "pool_size")
  strides = _tuple(strides, 1, "strides")
  padding = _padding(padding)
  fmt = "NWC" if _data_format(data_format) == "NHWC" else "NCW"
  with _layer_scope(name, default_name, None, inputs):
    inputs, _ = _input_with_rank(inputs, default_name, 3)
    return fn(inputs, list(pool_size), list(strides), padding, data_format=fmt)


def max_pooling1d(inputs, pool_size, strides, padding="valid", data_format="channels_last",
                  name=None):
  """Max pooling over 1-D windows of [batch, width, channels] inputs."""
  return _pooling1d(_nn_ops.max_pool1d, "max_pooling1d", inputs, pool_size, strides, padding,
                    data_format, name)


def average_pooling1d(inputs, pool_size, strides, padding="valid", data_format="channels_last",
                      name=None):
  """Average pooling over 1-D windows of [batch, width, channels] inputs."""
  return _pooling1d(_nn_ops.avg_pool1d, "average_pooling1d", inputs, pool_size, strides,
                    padding, data_format, name)


def separable_conv2d(inputs, filters, kernel_size, strides=(1, 1), padding="valid",
                     data_format="channels_last", dilation_rate=(1, 1), depth_multiplier=1,
                     activation=None, use_bias=True, depthwise_initializer=None,
                     pointwise_initializer=None, bias_initializer=_init_ops.zeros_initializer(),
                     depthwise_regularizer=None, pointwise_regularizer=None,
                     bias_regularizer=None, activity_regularizer=None, depthwise_constraint=None,
                     pointwise_constraint=None, bias_constraint=None, trainable=True, name=None,
                     reuse=None):
  """Depthwise-separable 2-D convolution layer: depthwise_kernel kernel_size +
  (in_channels, depth_multiplier), then pointwise_kernel (1, 1, in_channels *
  depth_multiplier, filters)."""
  kernel_size = _tuple(kernel_size, 2, "kernel_size")
  strides = _tuple(strides, 2, "strides")
  dilation_rate = _tuple(dilation_rate, 2, "dilation_rate")
  padding = _padding(padding)
  fmt = _data_format(data_format)
  filters, depth_multiplier = int(filters), int(depth_multiplier)
  with _layer_scope(name, "separable_conv2d", reuse, inputs):
    inputs, shape = _input_with_rank(inputs, "separable_conv2d", 4)
    in_ch = _channels(shape, 1 if fmt == "NCHW" else 3)
    dtype = _float_dtype(inputs)
    depthwise = _vs.get_variable("depthwise_kernel",
                                 shape=list(kernel_size) + [in_ch, depth_multiplier],
                                 dtype=dtype, initializer=depthwise_initializer,
                                 regularizer=depthwise_regularizer,
                                 constraint=depthwise_constraint, trainable=trainable)
    pointwise = _vs.get_variable("pointwise_kernel",
                                 shape=[1, 1, in_ch * depth_multiplier, filters], dtype=dtype,
                                 initializer=pointwise_initializer,
                                 regularizer=pointwise_regularizer,
                                 constraint=pointwise_constraint, trainable=trainable)
    bias = None
    if use_bias:
      bias = _vs.get_variable("bias", shape=[filters], dtype=dtype, initializer=bias_initializer,
                              regularizer=bias_regularizer, constraint=bias_constraint,
                              trainable=trainable)
    full_strides = [1, 1] + list(strides) if fmt == "NCHW" else [1] + list(strides) + [1]
    outputs = _nn_ops.separable_conv2d(inputs, depthwise, pointwise, full_strides, padding,
                                       rate=list(dilation_rate), data_format=fmt)
    if bias is not None:
      outputs = _nn_ops.bias_add(outputs, bias, data_format=fmt)
    outputs = _activate(outputs, activation)
    _add_activity_loss(activity_regularizer, outputs)
    return outputs


# -- TF 1.15's layer classes (tf.layers.Dense, ...) over the functional forms ----------------


class InputSpec(object):
  """What a layer accepts: dtype, shape, ndim, max_ndim, min_ndim, axes ({axis: size})."""

  def __init__(self, dtype=None, shape=None, ndim=None, max_ndim=None, min_ndim=None,
               axes=None):
    self.dtype = dtype
    self.shape = shape
    self.ndim = len(shape) if shape is not None else ndim
    self.max_ndim = max_ndim
    self.min_ndim = min_ndim
    self.axes = axes or {}

  def __repr__(self):
    spec = [("dtype=" + str(self.dtype)) if self.dtype else "",
            ("shape=" + str(self.shape)) if self.shape else "",
            ("ndim=" + str(self.ndim)) if self.ndim else "",
            ("max_ndim=" + str(self.max_ndim)) if self.max_ndim else "",
            ("min_ndim=" + str(self.min_ndim)) if self.min_ndim else "",
            ("axes=" + str(self.axes)) if self.axes else ""]
    return "InputSpec(%s)" % ", ".join(x for x in spec if x)


def _snake_case(name):
  """'MyDenseLayer' -> 'my_dense_layer' (the default scope name of a layer class)."""
  import re  # pylint: disable=g-import-not-at-top
  name = re.sub(r"(.)([A-Z][a-z0-9]+)", r"\1_\2", name)
  return re.sub(r"([a-z])([A-Z])", r"\1_\2", name).lower()


class Layer(object):
  """Base class of the layers: `outputs = layer(inputs)`.

  The first call captures a variable scope named after the layer (`dense`, `dense_1`,
  ... or `name`) and builds the layer's variables there (TF's names: `dense/kernel`,
  ...); later calls reuse them. Subclasses define `build(input_shape)` (variables from
  `add_weight`) and `call(inputs)`, or, as the layers here do, `_apply(inputs, scope,
  reuse, **kwargs)` running the functional form in the captured scope.
  """

  _base_name = "layer"

  def __init__(self, trainable=True, name=None, dtype=None, **kwargs):
    allowed = {"_reuse", "_scope", "input_shape", "batch_input_shape", "batch_size",
               "weights", "activity_regularizer", "autocast"}
    unknown = set(kwargs) - allowed
    if unknown:
      raise TypeError("Keyword argument not understood: %s" % sorted(unknown)[0])
    self.trainable = trainable
    self._name = name
    self._dtype = _dtypes.as_dtype(dtype) if dtype is not None else None
    self._reuse = kwargs.get("_reuse")
    self._scope = None
    self.built = False
    self.input_spec = None
    self._own_variables = []
    self._updates = []
    self._losses = []
    if type(self)._base_name == "layer" and type(self) is not Layer:
      self._base_name = _snake_case(type(self).__name__)

  @property
  def name(self):
    if self._scope is not None:
      return self._scope.name.split("/")[-1]
    return self._name or self._base_name

  @property
  def dtype(self):
    return self._dtype

  @property
  def scope_name(self):
    if self._scope is None:
      raise ValueError("No name available for layer scope because the layer \"%s\" has not "
                       "been used yet." % self.name)
    return self._scope.name

  @property
  def variables(self):
    """The layer's variables (trainable first, as TF lists them)."""
    return self.trainable_variables + self.non_trainable_variables

  weights = variables

  def _scoped(self, key):
    if self._scope is None:
      return []
    prefix = self._scope.name + "/"
    found = [v for v in _ops.get_collection(key) if v.op.name.startswith(prefix)]
    return found + [v for v in self._own_variables if v not in found and
                    (key != _ops.GraphKeys.TRAINABLE_VARIABLES or v.trainable)]

  @property
  def trainable_variables(self):
    return self._scoped(_ops.GraphKeys.TRAINABLE_VARIABLES) if self.trainable else []

  trainable_weights = trainable_variables

  @property
  def non_trainable_variables(self):
    trainable = set(id(v) for v in self.trainable_variables)
    everything = self._scoped(_ops.GraphKeys.GLOBAL_VARIABLES)
    return [v for v in everything if id(v) not in trainable]

  non_trainable_weights = non_trainable_variables

  @property
  def losses(self):
    """The regularization losses the layer's calls added."""
    return list(self._losses)

  @property
  def updates(self):
    """The update ops (UPDATE_OPS) the layer's calls added, e.g. batch norm's moving
    averages."""
    return list(self._updates)

  def add_weight(self, name, shape, dtype=None, initializer=None, regularizer=None,
                 trainable=True, constraint=None, **kwargs):
    """A variable of this layer (tf.get_variable in the layer's scope)."""
    var = _vs.get_variable(name, shape=shape, dtype=dtype or self._dtype or _dtypes.float32,
                           initializer=initializer, regularizer=regularizer,
                           trainable=trainable and self.trainable, constraint=constraint)
    self._own_variables.append(var)
    return var

  add_variable = add_weight

  def build(self, input_shape):  # pylint: disable=unused-argument
    self.built = True

  def call(self, inputs, **kwargs):  # pylint: disable=unused-argument
    return inputs

  def _apply(self, inputs, scope, reuse, **kwargs):
    """Runs build (once) and call inside the layer's scope."""
    with _vs.variable_scope(scope, reuse=reuse, auxiliary_name_scope=False):
      with _ops.name_scope(scope.name.split("/")[-1]):
        inputs = _ops.convert_to_tensor(inputs)
        if not self.built:
          if self._dtype is None:
            self._dtype = inputs.dtype.base_dtype
          self.build(inputs.get_shape())
          self.built = True
        return self.call(inputs, **kwargs)

  def __call__(self, inputs, *args, **kwargs):
    scope = kwargs.pop("scope", None)
    if self._scope is None:
      # reserve the variable scope's name, not the name scope's: the ops of the first
      # call go under `dense/`, later calls under `dense_1/`, ... as in TF
      base = self._name or self._base_name
      if self._reuse:
        with _vs.variable_scope(scope if scope is not None else base,
                                auxiliary_name_scope=False) as captured:
          self._scope = captured
      else:
        with _vs.variable_scope(scope, default_name=base,
                                auxiliary_name_scope=False) as captured:
          self._scope = captured
    reuse = True if self.built else self._reuse
    updates_before = list(_ops.get_collection(_ops.GraphKeys.UPDATE_OPS))
    losses_before = list(_ops.get_collection(_ops.GraphKeys.REGULARIZATION_LOSSES))
    outputs = self._apply(inputs, self._scope, reuse, *args, **kwargs)
    self._updates += [u for u in _ops.get_collection(_ops.GraphKeys.UPDATE_OPS)
                      if u not in updates_before]
    self._losses += [l for l in _ops.get_collection(_ops.GraphKeys.REGULARIZATION_LOSSES)
                     if l not in losses_before]
    self.built = True
    return outputs

  apply = __call__

  def get_weights(self):
    raise NotImplementedError("get_weights needs an eager or Keras session; run the "
                              "variables in a tf.Session instead")


def _parameters(fn):
  import inspect  # pylint: disable=g-import-not-at-top
  return set(inspect.signature(fn).parameters)


def _functional_layer(class_name, base_name, fn, has_variables=True, training_arg=False,
                      doc=None):
  """A Layer class running the functional layer `fn` in its scope."""

  def __init__(self, *args, **kwargs):
    layer_kwargs = {k: kwargs.pop(k) for k in ("name", "dtype", "_reuse", "_scope",
                                               "input_shape", "batch_input_shape",
                                               "batch_size", "autocast") if k in kwargs}
    trainable = kwargs.get("trainable", True)
    accepted = _parameters(fn)
    for key in kwargs:
      if key not in accepted or key in ("inputs", "name", "reuse", "training"):
        raise TypeError("Keyword argument not understood: %s" % key)
    Layer.__init__(self, trainable=trainable, **layer_kwargs)
    self._args = args
    self._kwargs = kwargs

  def _apply(self, inputs, scope, reuse, training=False):
    kwargs = dict(self._kwargs)
    if training_arg:
      kwargs["training"] = training
    if has_variables:
      kwargs["reuse"] = reuse
    outputs = fn(inputs, *self._args, name=scope, **kwargs)
    self._dtype = self._dtype or _ops.convert_to_tensor(inputs).dtype.base_dtype
    return outputs

  def __getattr__(self, attr):
    # kernel, bias, gamma, beta, moving_mean, ...: the layer's variable of that name
    if attr.startswith("_") or self.__dict__.get("_scope") is None:
      raise AttributeError("'%s' object has no attribute '%s'" % (class_name, attr))
    for v in self.variables:
      if v.op.name == self._scope.name + "/" + attr:
        return v
    raise AttributeError("'%s' object has no attribute '%s'" % (class_name, attr))

  attrs = {"__init__": __init__, "_apply": _apply, "_base_name": base_name,
           "__doc__": doc or "TF 1.15's tf.layers.%s (the class form of tf.layers.%s)."
           % (class_name, fn.__name__)}
  if has_variables:
    attrs["__getattr__"] = __getattr__
  return type(class_name, (Layer,), attrs)


Dense = _functional_layer("Dense", "dense", dense)
Conv1D = _functional_layer("Conv1D", "conv1d", conv1d)
Conv2D = _functional_layer("Conv2D", "conv2d", conv2d)
Conv2DTranspose = _functional_layer("Conv2DTranspose", "conv2d_transpose", conv2d_transpose)
SeparableConv2D = _functional_layer("SeparableConv2D", "separable_conv2d", separable_conv2d)
BatchNormalization = _functional_layer("BatchNormalization", "batch_normalization",
                                       batch_normalization, training_arg=True)
MaxPooling1D = _functional_layer("MaxPooling1D", "max_pooling1d", max_pooling1d,
                                 has_variables=False)
MaxPooling2D = _functional_layer("MaxPooling2D", "max_pooling2d", max_pooling2d,
                                 has_variables=False)
AveragePooling1D = _functional_layer("AveragePooling1D", "average_pooling1d",
                                     average_pooling1d, has_variables=False)
AveragePooling2D = _functional_layer("AveragePooling2D", "average_pooling2d",
                                     average_pooling2d, has_variables=False)
Dropout = _functional_layer("Dropout", "dropout", dropout, has_variables=False,
                            training_arg=True)
Flatten = _functional_layer("Flatten", "flatten", flatten, has_variables=False)
MaxPool1D, MaxPool2D = MaxPooling1D, MaxPooling2D
AvgPool1D, AvgPool2D = AveragePooling1D, AveragePooling2D
Convolution1D, Convolution2D = Conv1D, Conv2D
Convolution2DTranspose = Conv2DTranspose
SeparableConvolution2D = SeparableConv2D

__all__ += ["Layer", "InputSpec", "Dense", "Conv1D", "Conv2D", "Conv2DTranspose",
            "SeparableConv2D", "BatchNormalization", "MaxPooling1D", "MaxPooling2D",
            "AveragePooling1D", "AveragePooling2D", "Dropout", "Flatten"]

_CONV3D_NAMES = ("conv3d", "conv3d_transpose", "max_pooling3d", "average_pooling3d",
                 "separable_conv1d", "max_pool3d", "average_pool3d", "Conv3D", "Conv3DTranspose",
                 "SeparableConv1D", "MaxPooling3D", "AveragePooling3D", "MaxPool3D", "AvgPool3D",
                 "Convolution3D", "Convolution3DTranspose", "SeparableConvolution1D")


def __getattr__(name):
  """The 3-D layers and separable_conv1d (tfc/layers_conv3d.py) load on first use."""
  if name in _CONV3D_NAMES:
    from tfc import layers_conv3d  # pylint: disable=g-import-not-at-top
    value = getattr(layers_conv3d, name)
    globals()[name] = value
    return value
  raise AttributeError("module 'tfc.layers' has no attribute %r" % name)
