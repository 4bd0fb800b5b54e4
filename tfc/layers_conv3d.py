"""tf.layers' 3-D convolution and pooling layers and separable_conv1d (TF 1.15
names, arguments and variable names), functional and class forms. Loaded on
first use through tfc.layers."""
from tfc.framework import ops as _ops
from tfc.ops import array_ops as _array_ops
from tfc.ops import init_ops as _init_ops
from tfc.ops import nn_ops as _nn_ops
from tfc.ops import nn3d_ops as _nn3d_ops
from tfc.ops import variable_scope as _vs
from tfc import layers as _layers


def _fmt3(data_format):
  return "NCDHW" if _layers._data_format(data_format) == "NCHW" else "NDHWC"  # pylint: disable=protected-access


def _bias3(outputs, bias, fmt, filters):
  if bias is None:
    return outputs
  if fmt == "NCDHW":
    return outputs + _array_ops.reshape(bias, [1, filters, 1, 1, 1])
  return _nn_ops.bias_add(outputs, bias)


def conv3d(inputs, filters, kernel_size, strides=(1, 1, 1), padding="valid",
           data_format="channels_last", dilation_rate=(1, 1, 1), activation=None, use_bias=True,
           kernel_initializer=None, bias_initializer=_init_ops.zeros_initializer(),
           kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
           kernel_constraint=None, bias_constraint=None, trainable=True, name=None, reuse=None):
  """3-D convolution layer over [batch, depth, height, width, channels] inputs
  (or channels_first): kernel of shape kernel_size + (in_channels, filters)."""
  kernel_size = _layers._tuple(kernel_size, 3, "kernel_size")  # pylint: disable=protected-access
  strides = _layers._tuple(strides, 3, "strides")  # pylint: disable=protected-access
  dilation_rate = _layers._tuple(dilation_rate, 3, "dilation_rate")  # pylint: disable=protected-access
  padding = _layers._padding(padding)  # pylint: disable=protected-access
  fmt = _fmt3(data_format)
  filters = int(filters)
  with _layers._layer_scope(name, "conv3d", reuse, inputs):  # pylint: disable=protected-access
    inputs, shape = _layers._input_with_rank(inputs, "conv3d", 5)  # pylint: disable=protected-access
    in_ch = _layers._channels(shape, 1 if fmt == "NCDHW" else 4)  # pylint: disable=protected-access
    dtype = _layers._float_dtype(inputs)  # pylint: disable=protected-access
    kernel, bias = _layers._kernel_and_bias(  # pylint: disable=protected-access
        list(kernel_size) + [in_ch, filters], filters, dtype, use_bias, kernel_initializer,
        bias_initializer, kernel_regularizer, bias_regularizer, kernel_constraint,
        bias_constraint, trainable)
    outputs = _nn3d_ops.conv3d(inputs, kernel, strides=list(strides), padding=padding,
                               data_format=fmt, dilations=list(dilation_rate), name="Conv3D")
    outputs = _layers._activate(_bias3(outputs, bias, fmt, filters), activation)  # pylint: disable=protected-access
    _layers._add_activity_loss(activity_regularizer, outputs)  # pylint: disable=protected-access
    return outputs


def conv3d_transpose(inputs, filters, kernel_size, strides=(1, 1, 1), padding="valid",
                     data_format="channels_last", activation=None, use_bias=True,
                     kernel_initializer=None, bias_initializer=_init_ops.zeros_initializer(),
                     kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                     kernel_constraint=None, bias_constraint=None, trainable=True, name=None,
                     reuse=None):
  """Transposed 3-D convolution layer: kernel of shape kernel_size + (filters,
  in_channels); each spatial size grows to size * stride (+ max(kernel -
  stride, 0) with 'valid')."""
  kernel_size = _layers._tuple(kernel_size, 3, "kernel_size")  # pylint: disable=protected-access
  strides = _layers._tuple(strides, 3, "strides")  # pylint: disable=protected-access
  padding = _layers._padding(padding)  # pylint: disable=protected-access
  fmt = _fmt3(data_format)
  filters = int(filters)
  with _layers._layer_scope(name, "conv3d_transpose", reuse, inputs):  # pylint: disable=protected-access
    inputs, shape = _layers._input_with_rank(inputs, "conv3d_transpose", 5)  # pylint: disable=protected-access
    ci, axes = (1, (2, 3, 4)) if fmt == "NCDHW" else (4, (1, 2, 3))
    in_ch = _layers._channels(shape, ci)  # pylint: disable=protected-access
    dtype = _layers._float_dtype(inputs)  # pylint: disable=protected-access
    kernel, bias = _layers._kernel_and_bias(  # pylint: disable=protected-access
        list(kernel_size) + [filters, in_ch], filters, dtype, use_bias, kernel_initializer,
        bias_initializer, kernel_regularizer, bias_regularizer, kernel_constraint,
        bias_constraint, trainable)
    dynamic = _array_ops.shape(inputs)
    sizes = []
    for axis, k, s in zip(axes, kernel_size, strides):
      static = _layers._transposed_length(shape[axis].value, k, s, padding)  # pylint: disable=protected-access
      if static is not None:
        sizes.append(static)
      else:
        grow = max(k - s, 0) if padding == "VALID" else 0
        sizes.append(dynamic[axis] * s + grow)
    out_shape = ([dynamic[0], filters] + sizes) if fmt == "NCDHW" else \
        ([dynamic[0]] + sizes + [filters])
    outputs = _nn3d_ops.conv3d_transpose(inputs, kernel, _array_ops.stack(out_shape),
                                         list(strides), padding=padding, data_format=fmt,
                                         name="conv3d_transpose")
    static_sizes = [s if isinstance(s, int) else None for s in sizes]
    outputs.set_shape([shape[0].value, filters] + static_sizes if fmt == "NCDHW"
                      else [shape[0].value] + static_sizes + [filters])
    outputs = _layers._activate(_bias3(outputs, bias, fmt, filters), activation)  # pylint: disable=protected-access
    _layers._add_activity_loss(activity_regularizer, outputs)  # pylint: disable=protected-access
    return outputs


def _pooling3d(fn, default_name, inputs, pool_size, strides, padding, data_format, name):
  pool_size = _layers._tuple(pool_size, 3, "pool_size")  # pylint: disable=protected-access
  strides = _layers._tuple(strides, 3, "strides")  # pylint: disable=protected-access
  padding = _layers._padding(padding)  # pylint: disable=protected-access
  fmt = _fmt3(data_format)
  with _layers._layer_scope(name, default_name, None, inputs):  # pylint: disable=protected-access
    inputs, _ = _layers._input_with_rank(inputs, default_name, 5)  # pylint: disable=protected-access
    return fn(inputs, list(pool_size), list(strides), padding, data_format=fmt)


def max_pooling3d(inputs, pool_size, strides, padding="valid", data_format="channels_last",
                  name=None):
  """Max pooling over 3-D windows of [batch, depth, height, width, channels] inputs."""
  return _pooling3d(_nn3d_ops.max_pool3d, "max_pooling3d", inputs, pool_size, strides, padding,
                    data_format, name)


def average_pooling3d(inputs, pool_size, strides, padding="valid", data_format="channels_last",
                      name=None):
  """Average pooling over 3-D windows of [batch, depth, height, width, channels] inputs."""
  return _pooling3d(_nn3d_ops.avg_pool3d, "average_pooling3d", inputs, pool_size, strides,
                    padding, data_format, name)


def separable_conv1d(inputs, filters, kernel_size, strides=1, padding="valid",
                     data_format="channels_last", dilation_rate=1, depth_multiplier=1,
                     activation=None, use_bias=True, depthwise_initializer=None,
                     pointwise_initializer=None, bias_initializer=_init_ops.zeros_initializer(),
                     depthwise_regularizer=None, pointwise_regularizer=None,
                     bias_regularizer=None, activity_regularizer=None, depthwise_constraint=None,
                     pointwise_constraint=None, bias_constraint=None, trainable=True, name=None,
                     reuse=None):
  """Depthwise-separable 1-D convolution layer: depthwise_kernel (kernel_size,
  in_channels, depth_multiplier), then pointwise_kernel (1, in_channels *
  depth_multiplier, filters), computed as a separable 2-D convolution over a
  height of 1."""
  kernel_size = _layers._tuple(kernel_size, 1, "kernel_size")  # pylint: disable=protected-access
  strides = _layers._tuple(strides, 1, "strides")  # pylint: disable=protected-access
  dilation_rate = _layers._tuple(dilation_rate, 1, "dilation_rate")  # pylint: disable=protected-access
  padding = _layers._padding(padding)  # pylint: disable=protected-access
  fmt = _layers._data_format(data_format)  # pylint: disable=protected-access
  filters, depth_multiplier = int(filters), int(depth_multiplier)
  with _layers._layer_scope(name, "separable_conv1d", reuse, inputs):  # pylint: disable=protected-access
    inputs, shape = _layers._input_with_rank(inputs, "separable_conv1d", 3)  # pylint: disable=protected-access
    in_ch = _layers._channels(shape, 1 if fmt == "NCHW" else 2)  # pylint: disable=protected-access
    dtype = _layers._float_dtype(inputs)  # pylint: disable=protected-access
    depthwise = _vs.get_variable("depthwise_kernel",
                                 shape=list(kernel_size) + [in_ch, depth_multiplier],
                                 dtype=dtype, initializer=depthwise_initializer,
                                 regularizer=depthwise_regularizer,
                                 constraint=depthwise_constraint, trainable=trainable)
    pointwise = _vs.get_variable("pointwise_kernel",
                                 shape=[1, in_ch * depth_multiplier, filters], dtype=dtype,
                                 initializer=pointwise_initializer,
                                 regularizer=pointwise_regularizer,
                                 constraint=pointwise_constraint, trainable=trainable)
    bias = None
    if use_bias:
      bias = _vs.get_variable("bias", shape=[filters], dtype=dtype, initializer=bias_initializer,
                              regularizer=bias_regularizer, constraint=bias_constraint,
                              trainable=trainable)
    if fmt == "NCHW":
      spatial, full_strides = 2, [1, 1, 1, strides[0]]
    else:
      spatial, full_strides = 1, [1, 1, strides[0], 1]
    x = _array_ops.expand_dims(inputs, spatial)
    outputs = _nn_ops.separable_conv2d(x, _array_ops.expand_dims(depthwise, 0),
                                       _array_ops.expand_dims(pointwise, 0), full_strides,
                                       padding, rate=[1, dilation_rate[0]], data_format=fmt)
    outputs = _array_ops.squeeze(outputs, [spatial])
    if bias is not None:
      if fmt == "NCHW":
        outputs = outputs + _array_ops.reshape(bias, [1, filters, 1])
      else:
        outputs = _nn_ops.bias_add(outputs, bias)
    outputs = _layers._activate(outputs, activation)  # pylint: disable=protected-access
    _layers._add_activity_loss(activity_regularizer, outputs)  # pylint: disable=protected-access
    return outputs


_fl = _layers._functional_layer  # pylint: disable=protected-access
Conv3D = _fl("Conv3D", "conv3d", conv3d)
Conv3DTranspose = _fl("Conv3DTranspose", "conv3d_transpose", conv3d_transpose)
SeparableConv1D = _fl("SeparableConv1D", "separable_conv1d", separable_conv1d)
MaxPooling3D = _fl("MaxPooling3D", "max_pooling3d", max_pooling3d, has_variables=False)
AveragePooling3D = _fl("AveragePooling3D", "average_pooling3d", average_pooling3d,
                       has_variables=False)
MaxPool3D, AvgPool3D = MaxPooling3D, AveragePooling3D
Convolution3D, Convolution3DTranspose = Conv3D, Conv3DTranspose
SeparableConvolution1D = SeparableConv1D
max_pool3d, average_pool3d = max_pooling3d, average_pooling3d

