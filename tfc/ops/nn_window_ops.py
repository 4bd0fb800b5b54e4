"""Windowed nn ops beside convolution (TF 1.15 names and signatures):
tf.nn.max_pool_with_argmax, dilation2d, erosion2d, atrous_conv2d_transpose,
with_space_to_batch, and patch extraction (tf.image.extract_patches,
tf.extract_image_patches, tf.extract_volume_patches). Kernels:
csrc/kernels/pool_argmax.c, dilation.c, patches.c."""
from tfc import dtypes as _dtypes
from tfc.framework import ops as _ops
from tfc.framework.op_def_library import _apply_op


def _four(value, name):
  from tfc.ops import nn_ops  # pylint: disable=g-import-not-at-top
  return nn_ops._spatial_sequence(value, 2, 3, name)  # pylint: disable=protected-access


def _pad(padding):
  if isinstance(padding, bytes):
    padding = padding.decode()
  if not isinstance(padding, str) or padding.upper() not in ("SAME", "VALID"):
    raise ValueError("padding must be 'SAME' or 'VALID', got %r" % (padding,))
  return padding.upper()


def max_pool_with_argmax(input, ksize, strides, padding, data_format="NHWC", Targmax=None,  # noqa: A002,N803  pylint: disable=redefined-builtin,invalid-name
                         name=None, output_dtype=None, include_batch_in_index=False):
  """Max pooling that also returns the flattened index of each maximum:
  (y * width + x) * channels + c, plus batch * height * width * channels
  with include_batch_in_index; ties keep the first cell scanned row by row.
  Returns (output, argmax)."""
  if data_format != "NHWC":
    raise ValueError("`data_format` values other  than 'NHWC' are not supported. Received: "
                     "data_format=%s" % (data_format,))
  if output_dtype is not None:
    if Targmax is not None:
      raise ValueError("Cannot specify both 'output_dtype' and 'Targmax'")
    Targmax = output_dtype  # pylint: disable=invalid-name
  if Targmax is None:
    Targmax = _dtypes.int64  # pylint: disable=invalid-name
  outs = _apply_op("MaxPoolWithArgmax", name, [input],
                   {"ksize": _four(ksize, "ksize"), "strides": _four(strides, "strides"),
                    "padding": _pad(padding), "Targmax": _dtypes.as_dtype(Targmax),
                    "include_batch_in_index": bool(include_batch_in_index)}).outputs
  return outs[0], outs[1]


def max_pool_with_argmax_v2(input, ksize, strides, padding, data_format="NHWC",  # noqa: A002  pylint: disable=redefined-builtin
                            output_dtype=_dtypes.int64, include_batch_in_index=False, name=None):
  """TF 2's tf.nn.max_pool_with_argmax."""
  return max_pool_with_argmax(input, ksize, strides, padding, data_format, Targmax=output_dtype,
                              name=name, include_batch_in_index=include_batch_in_index)


def dilation2d(input, filter=None, strides=None, rates=None, padding=None, name=None,  # noqa: A002  pylint: disable=redefined-builtin
               filters=None, dilations=None):
  """Grayscale morphological dilation: out = max over the (dilated) window of
  input + filter; input [b, h, w, c], filter [fh, fw, c], strides and rates
  of 4 entries."""
  if filters is not None:
    if filter is not None:
      raise ValueError("Cannot specify both 'filters' and 'filter'")
    filter = filters
  if dilations is not None:
    if rates is not None:
      raise ValueError("Cannot specify both 'dilations' and 'rates'")
    rates = dilations
  return _apply_op("Dilation2D", name, [input, filter],
                   {"strides": _four(strides, "strides"), "rates": _four(rates, "rates"),
                    "padding": _pad(padding)}).outputs[0]


def dilation2d_v2(input, filters, strides, padding, data_format, dilations, name=None):  # noqa: A002  pylint: disable=redefined-builtin
  """TF 2's tf.nn.dilation2d (NHWC only)."""
  if data_format != "NHWC":
    raise ValueError("Data formats other than NHWC are not yet supported")
  return dilation2d(input, filters, strides, dilations, padding, name=name)


def erosion2d(value, kernel, strides, rates, padding, name=None):
  """Grayscale morphological erosion: -dilation2d(-value, reversed kernel)."""
  from tfc.ops import array_ops, math_ops  # pylint: disable=g-import-not-at-top
  with _ops.name_scope(name, "erosion2d", [value, kernel]) as name:
    return math_ops.negative(
        dilation2d(math_ops.negative(value), array_ops.reverse_v2(kernel, [0, 1]), strides,
                   rates, padding, name=name))


def extract_image_patches(images, ksizes=None, strides=None, rates=None, padding=None,
                          name=None, sizes=None):
  """Patches of size ksizes ([1, rows, cols, 1]) at `strides`, taps `rates`
  apart, flattened into the depth: [b, out_rows, out_cols, rows * cols * c]."""
  if sizes is not None:
    if ksizes is not None:
      raise ValueError("Cannot specify both 'sizes' and 'ksizes'")
    ksizes = sizes
  return _apply_op("ExtractImagePatches", name, [images],
                   {"ksizes": list(ksizes), "strides": list(strides), "rates": list(rates),
                    "padding": _pad(padding)}).outputs[0]


def extract_patches(images, sizes, strides, rates, padding, name=None):
  """tf.image.extract_patches: extract_image_patches with `sizes`."""
  return extract_image_patches(images, sizes, strides, rates, padding, name)


def extract_volume_patches(input, ksizes, strides, padding, name=None):  # noqa: A002  pylint: disable=redefined-builtin
  """3-D patches of size ksizes ([1, planes, rows, cols, 1]) flattened into
  the depth: [b, out_planes, out_rows, out_cols, planes * rows * cols * c]."""
  return _apply_op("ExtractVolumePatches", name, [input],
                   {"ksizes": list(ksizes), "strides": list(strides),
                    "padding": _pad(padding)}).outputs[0]


def atrous_conv2d_transpose(value, filters, output_shape, rate, padding, name=None):
  """The transpose of atrous_conv2d: conv2d_transpose with the filter dilated
  by `rate`, computed as TF does through space_to_batch, a VALID transposed
  convolution and batch_to_space."""
  from tfc.ops import array_ops, nn_ops  # pylint: disable=g-import-not-at-top
  with _ops.name_scope(name, "atrous_conv2d_transpose", [value, filters, output_shape]) as name:
    value = _ops.convert_to_tensor(value, name="value")
    filters = _ops.convert_to_tensor(filters, name="filters")
    vshape, fshape = value.get_shape(), filters.get_shape()
    if vshape.ndims is not None and fshape.ndims is not None and \
        not vshape[3].is_compatible_with(fshape[3]):
      raise ValueError("value's input channels does not match filters' input channels, "
                       "{} != {}".format(vshape[3], fshape[3]))
    if rate < 1:
      raise ValueError("rate {} cannot be less than one".format(rate))
    if rate == 1:
      return nn_ops.conv2d_transpose(value, filters, output_shape, strides=[1, 1, 1, 1],
                                     padding=padding, data_format="NHWC")
    output_shape_ = _ops.convert_to_tensor(output_shape, name="output_shape")
    if not output_shape_.get_shape().is_compatible_with([4]):
      raise ValueError("output_shape must have shape (4,), got {}"
                       .format(output_shape_.get_shape()))
    if isinstance(output_shape, (list, tuple)) and fshape.ndims is not None and \
        not fshape[2].is_compatible_with(output_shape[3]):
      raise ValueError("output_shape does not match filter's output channels, {} != {}"
                       .format(output_shape[3], fshape[2]))
    padding = _pad(padding)
    if padding == "SAME":
      if fshape.is_fully_defined():
        fh, fw = fshape.as_list()[:2]
      else:
        dyn = array_ops.shape(filters)
        fh, fw = dyn[0], dyn[1]
      pad_h = fh + (fh - 1) * (rate - 1) - 1
      pad_w = fw + (fw - 1) * (rate - 1) - 1
      pad_top, pad_left = pad_h // 2, pad_w // 2
      pad_bottom, pad_right = pad_h - pad_top, pad_w - pad_left
    else:
      pad_top = pad_bottom = pad_left = pad_right = 0
    if not isinstance(output_shape, (list, tuple)):
      output_shape = output_shape_
    in_h = output_shape[1] + pad_top + pad_bottom
    in_w = output_shape[2] + pad_left + pad_right
    extra_b = (rate - in_h % rate) % rate
    extra_r = (rate - in_w % rate) % rate
    value = array_ops.space_to_batch(value, [[0, extra_b], [0, extra_r]], block_size=rate)
    input_sizes = [rate * rate * output_shape[0], (in_h + extra_b) // rate,
                   (in_w + extra_r) // rate, output_shape[3]]
    if not all(isinstance(v, int) for v in input_sizes):
      input_sizes = array_ops.stack(input_sizes)
    value = nn_ops.conv2d_backprop_input(input_sizes, filters, value, strides=[1, 1, 1, 1],
                                         padding="VALID", data_format="NHWC")
    crops = [[pad_top, pad_bottom + extra_b], [pad_left, pad_right + extra_r]]
    return array_ops.batch_to_space(value, crops, block_size=rate)


def with_space_to_batch(input, dilation_rate, padding, op, filter_shape=None,  # noqa: A002  pylint: disable=redefined-builtin
                        spatial_dims=None, data_format=None):
  """Runs op(converted_input, num_spatial_dims, padding) on the input turned
  into a batch of `dilation_rate`-strided sub-grids (space_to_batch_nd), then
  turns the result back (batch_to_space_nd): a dilated version of op. With
  'SAME' padding the filter_shape decides the padding, as in TF. The input's
  spatial sizes must be known statically."""
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  import numpy as np  # pylint: disable=g-import-not-at-top
  input = _ops.convert_to_tensor(input, name="input")  # pylint: disable=redefined-builtin
  rate = np.asarray(dilation_rate, dtype=np.int64).reshape(-1)
  n = rate.shape[0]
  if n == 0:
    raise ValueError("rate must be at least one-dimensional")
  if np.any(rate < 1):
    raise ValueError("rate must be positive")
  if spatial_dims is None:
    start = 2 if data_format is not None and str(data_format).startswith("NC") else 1
    spatial_dims = list(range(start, start + n))
  spatial_dims = sorted(set(int(d) for d in spatial_dims))
  if len(spatial_dims) != n:
    raise ValueError("spatial_dims must be a list of %d unique dimensions" % n)
  padding = _pad(padding)
  if np.all(rate == 1):
    return op(input, n, padding)
  if spatial_dims[-1] - spatial_dims[0] + 1 != n:
    raise ValueError("spatial_dims must be contiguous")
  in_spatial = [input.get_shape()[d].value for d in spatial_dims] \
      if input.get_shape().ndims is not None else [None] * n
  if padding == "SAME":
    if filter_shape is None:
      raise ValueError("filter_shape must be specified for SAME padding")
    fspatial = np.asarray([int(getattr(v, "value", v)) for v in list(filter_shape)[:n]])
    extra = (fspatial - 1) * rate
    base_start = extra // 2
    base_end = extra - base_start
  else:
    base_start = base_end = np.zeros(n, np.int64)
  if any(v is None for v in in_spatial):
    raise NotImplementedError("with_space_to_batch needs the input's spatial sizes statically "
                              "known in tfc")
  full = np.asarray(in_spatial) + base_start + base_end
  extra_end = (rate - full % rate) % rate
  lead = spatial_dims[0] - 1
  block = [1] * lead + [int(r) for r in rate]
  paddings = [[0, 0]] * lead + [[int(a), int(b)] for a, b in zip(base_start, base_end + extra_end)]
  crops = [[0, 0]] * lead + [[0, int(e)] for e in extra_end]
  converted = array_ops.space_to_batch_nd(input, block, paddings)
  result = op(converted, n, "VALID")
  return array_ops.batch_to_space_nd(result, block, crops)
