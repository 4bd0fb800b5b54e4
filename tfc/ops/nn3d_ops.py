"""tf.nn's 3-D convolution and pooling (TF 1.15 names and signatures):
conv3d, conv3d_transpose, conv3d_backprop_filter(_v2), max_pool3d,
avg_pool3d, and conv_transpose (1-, 2- or 3-D by the output shape's
length). Kernels: csrc/kernels/conv3d.c, csrc/kernels/pool3d.c."""
from tfc import dtypes as _dtypes
from tfc.framework import ops as _ops
from tfc.framework.op_def_library import _apply_op


def _fmt(data_format):
  if data_format is None:
    return "NDHWC"
  if isinstance(data_format, bytes):
    data_format = data_format.decode()
  if data_format not in ("NDHWC", "NCDHW"):
    raise ValueError("data_format must be 'NDHWC' or 'NCDHW', got %r" % (data_format,))
  return data_format


def _seq(value, data_format, arg_name):
  from tfc.ops import nn_ops  # pylint: disable=g-import-not-at-top
  return nn_ops._spatial_sequence(value, 3, 1 if data_format == "NCDHW" else 4, arg_name)  # pylint: disable=protected-access


def _pad(padding):
  if isinstance(padding, bytes):
    padding = padding.decode()
  if not isinstance(padding, str) or padding.upper() not in ("SAME", "VALID"):
    raise ValueError("padding must be 'SAME' or 'VALID', got %r" % (padding,))
  return padding.upper()


def _attrs(strides, padding, data_format, dilations):
  return {"strides": _seq(strides, data_format, "strides"), "padding": _pad(padding),
          "data_format": data_format, "dilations": _seq(dilations, data_format, "dilations")}


def conv3d(input, filter=None, strides=None, padding=None, data_format="NDHWC",  # noqa: A002  pylint: disable=redefined-builtin
           dilations=(1, 1, 1, 1, 1), name=None, filters=None):
  """3-D convolution (`Conv3D`): input [batch, depth, height, width, channels]
  (NDHWC), filter [depth, height, width, in_channels, out_channels];
  `filter` and `filters` are synonyms."""
  if filters is not None:
    if filter is not None:
      raise ValueError("Cannot specify both 'filters' and 'filter'")
    filter = filters
  if filter is None or strides is None or padding is None:
    raise ValueError("conv3d needs a filter, strides and a padding")
  fmt = _fmt(data_format)
  return _apply_op("Conv3D", name, [input, filter],
                   _attrs(strides, padding, fmt, dilations)).outputs[0]


def conv3d_v2(input, filters, strides, padding, data_format="NDHWC", dilations=None, name=None):  # noqa: A002  pylint: disable=redefined-builtin
  """TF 2's tf.nn.conv3d (filters required, dilations default 1)."""
  return conv3d(input, filters, strides, padding, data_format,
                dilations if dilations is not None else 1, name)


def conv3d_backprop_filter_v2(input, filter_sizes, out_backprop, strides, padding,  # noqa: A002  pylint: disable=redefined-builtin
                              data_format="NDHWC", dilations=(1, 1, 1, 1, 1), name=None):
  """Gradient of conv3d with respect to its filter (`Conv3DBackpropFilterV2`)."""
  fmt = _fmt(data_format)
  filter_sizes = _ops.convert_to_tensor(filter_sizes, dtype=_dtypes.int32, name="filter_sizes")
  return _apply_op("Conv3DBackpropFilterV2", name, [input, filter_sizes, out_backprop],
                   _attrs(strides, padding, fmt, dilations)).outputs[0]


conv3d_backprop_filter = conv3d_backprop_filter_v2


def conv3d_backprop_input_v2(input_sizes, filter, out_backprop, strides, padding,  # noqa: A002  pylint: disable=redefined-builtin
                             data_format="NDHWC", dilations=(1, 1, 1, 1, 1), name=None):
  """Gradient of conv3d with respect to its input (`Conv3DBackpropInputV2`)."""
  fmt = _fmt(data_format)
  input_sizes = _ops.convert_to_tensor(input_sizes, name="input_sizes")
  if input_sizes.dtype not in (_dtypes.int32, _dtypes.int64):
    input_sizes = _ops.convert_to_tensor(input_sizes, dtype=_dtypes.int32)
  return _apply_op("Conv3DBackpropInputV2", name, [input_sizes, filter, out_backprop],
                   _attrs(strides, padding, fmt, dilations)).outputs[0]


def conv3d_transpose(value, filter=None, output_shape=None, strides=None, padding="SAME",  # noqa: A002  pylint: disable=redefined-builtin
                     data_format="NDHWC", name=None, input=None, filters=None, dilations=None):  # noqa: A002  pylint: disable=redefined-builtin
  """Transposed 3-D convolution: the gradient of conv3d with respect to its
  input, with `value` as the output gradient; filter [depth, height, width,
  output_channels, in_channels]."""
  if input is not None:
    if value is not None:
      raise ValueError("Cannot specify both 'input' and 'value'")
    value = input
  if filters is not None:
    if filter is not None:
      raise ValueError("Cannot specify both 'filters' and 'filter'")
    filter = filters
  return conv3d_transpose_v2(value, filter, output_shape, strides, padding, data_format,
                             dilations, name)


def conv3d_transpose_v2(input, filters, output_shape, strides, padding="SAME",  # noqa: A002  pylint: disable=redefined-builtin
                        data_format="NDHWC", dilations=None, name=None):
  """TF 2's tf.nn.conv3d_transpose."""
  with _ops.name_scope(name, "conv3d_transpose", [input, filters, output_shape]) as name:
    fmt = _fmt(data_format)
    return conv3d_backprop_input_v2(output_shape, filters, input, strides, padding,
                                    data_format=fmt,
                                    dilations=dilations if dilations is not None else 1,
                                    name=name)


def conv_transpose(input, filters, output_shape, strides, padding="SAME", data_format=None,  # noqa: A002  pylint: disable=redefined-builtin
                   dilations=None, name=None):
  """Transposed convolution of 1, 2 or 3 spatial dimensions, chosen by the
  length of output_shape (3, 4 or 5)."""
  from tfc.ops import nn_ops  # pylint: disable=g-import-not-at-top
  with _ops.name_scope(name, "conv_transpose", [input, filters, output_shape]) as name:
    if isinstance(output_shape, _ops.Tensor):
      n = output_shape.get_shape()[0].value
      if n is None:
        raise ValueError("output_shape must be a tensor or sized collection.")
      n -= 2
    elif hasattr(output_shape, "__len__"):
      n = len(output_shape) - 2
    else:
      raise ValueError("output_shape must be a tensor or sized collection.")
    if not 1 <= n <= 3:
      raise ValueError("output_shape must be of length 3, 4 or 5 but was {}.".format(n + 2))
    if n == 1:
      return nn_ops.conv1d_transpose(input, filters, output_shape, strides, padding=padding,
                                     data_format=data_format or "NWC", dilations=dilations,
                                     name=name)
    if n == 2:
      return nn_ops.conv2d_transpose(input, filters, output_shape, strides, padding=padding,
                                     data_format=data_format or "NHWC", name=name,
                                     dilations=dilations)
    return conv3d_transpose_v2(input, filters, output_shape, strides, padding=padding,
                               data_format=data_format or "NDHWC", dilations=dilations,
                               name=name)


def _pool3d(op_type, input, ksize, strides, padding, data_format, name):  # noqa: A002  pylint: disable=redefined-builtin
  fmt = _fmt(data_format)
  attrs = {"ksize": _seq(ksize, fmt, "ksize"), "strides": _seq(strides, fmt, "strides"),
           "padding": _pad(padding), "data_format": fmt}
  return _apply_op(op_type, name, [input], attrs).outputs[0]


def max_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None):  # noqa: A002  pylint: disable=redefined-builtin
  """Max pooling over 3-D windows of [batch, depth, height, width, channels]."""
  return _pool3d("MaxPool3D", input, ksize, strides, padding, data_format, name)


def avg_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None):  # noqa: A002  pylint: disable=redefined-builtin
  """Average pooling over 3-D windows (padding cells are not counted)."""
  return _pool3d("AvgPool3D", input, ksize, strides, padding, data_format, name)
