"""tf.image namespace (TF 1.15 names, semantics and default op names)."""
from tfc import dtypes as _dtypes
from tfc.framework import ops as _ops
from tfc.framework.op_def_library import _apply_op
from tfc.io import (decode_jpeg, decode_png, decode_bmp, decode_image, encode_jpeg,  # noqa: F401
                    encode_png)
from tfc.ops import array_ops as _array_ops
from tfc.ops import math_ops as _math_ops
from tfc.ops import nn_ops as _nn_ops


class ResizeMethod(object):
  """Resize methods of resize_images (TF 1.x values)."""
  BILINEAR = 0
  NEAREST_NEIGHBOR = 1
  BICUBIC = 2
  AREA = 3


def _resize_op(op_type, images, size, align_corners, half_pixel_centers, name):
  attrs = {"align_corners": bool(align_corners), "half_pixel_centers": bool(half_pixel_centers)}
  size = _ops.convert_to_tensor(size, dtype=_dtypes.int32, name="size")
  return _apply_op(op_type, name, [images, size], attrs).outputs[0]


def resize_bilinear(images, size, align_corners=False, name=None, half_pixel_centers=False):
  """Bilinear resize of a 4-D image batch; the output is float32."""
  return _resize_op("ResizeBilinear", images, size, align_corners, half_pixel_centers, name)


def resize_nearest_neighbor(images, size, align_corners=False, name=None,
                            half_pixel_centers=False):
  """Nearest-neighbour resize of a 4-D image batch; the output keeps the input dtype."""
  return _resize_op("ResizeNearestNeighbor", images, size, align_corners, half_pixel_centers,
                    name)


def resize_bicubic(images, size, align_corners=False, name=None, half_pixel_centers=False):
  """Bicubic resize of a 4-D image batch; the output is float32."""
  return _resize_op("ResizeBicubic", images, size, align_corners, half_pixel_centers, name)


def _static_size(size):
  """(height, width) as ints or None each, when size is a Python sequence."""
  if isinstance(size, (list, tuple)) and len(size) == 2:
    return tuple(int(s) if isinstance(s, int) else None for s in size)
  return (None, None)


def resize_images(images, size, method=ResizeMethod.BILINEAR, align_corners=False,
                  preserve_aspect_ratio=False, name=None):
  """Resizes 3-D or 4-D images to `size` = [new_height, new_width] (TF 1.x resize_images).

  Returns the images unchanged when their static size already matches.
  """
  with _ops.name_scope(name, "resize", [images, size]):
    images = _ops.convert_to_tensor(images, name="images")
    shape = images.get_shape()
    if shape.ndims is None:
      raise ValueError("'images' contains no shape.")
    is_batch = True
    if shape.ndims == 3:
      is_batch = False
      images = _array_ops.expand_dims(images, 0)
    elif shape.ndims != 4:
      raise ValueError("'images' must have either 3 or 4 dimensions.")
    _, height, width, _ = images.get_shape().as_list()
    new_h, new_w = _static_size(size)
    if preserve_aspect_ratio:
      if new_h is None or new_w is None or height is None or width is None:
        raise NotImplementedError("preserve_aspect_ratio needs static sizes in tfc")
      scale = min(new_h / float(height), new_w / float(width))
      new_h, new_w = int(height * scale), int(width * scale)
      size = [new_h, new_w]
    try:
      size_t = _ops.convert_to_tensor(size, _dtypes.int32, name="size")
    except (TypeError, ValueError):
      raise ValueError("'size' must be a 1-D int32 Tensor")
    if not size_t.get_shape().is_compatible_with([2]):
      raise ValueError("'size' must be a 1-D Tensor of 2 elements: new_height, new_width")
    if (None not in (new_h, new_w, height, width)) and width == new_w and height == new_h:
      if not is_batch:
        images = _array_ops.squeeze(images, axis=[0])
      return images
    if method == ResizeMethod.BILINEAR:
      images = resize_bilinear(images, size_t, align_corners=align_corners)
    elif method == ResizeMethod.NEAREST_NEIGHBOR:
      images = resize_nearest_neighbor(images, size_t, align_corners=align_corners)
    elif method == ResizeMethod.BICUBIC:
      images = resize_bicubic(images, size_t, align_corners=align_corners)
    elif method == ResizeMethod.AREA:
      raise NotImplementedError("ResizeMethod.AREA is not implemented in tfc")
    else:
      raise ValueError("Resize method is not implemented.")
    images.set_shape([None, new_h, new_w, None])
    if not is_batch:
      images = _array_ops.squeeze(images, axis=[0])
    return images


resize = resize_images


def convert_image_dtype(image, dtype, saturate=False, name=None):
  """Converts between image dtypes with TF's scaling: integers span [0, MAX], floats [0, 1)."""
  image = _ops.convert_to_tensor(image, name="image")
  dtype = _dtypes.as_dtype(dtype)
  if not dtype.is_floating and not dtype.is_integer:
    raise AttributeError("dtype must be either floating point or integer")
  if dtype == image.dtype:
    return _array_ops.identity(image, name=name)
  with _ops.name_scope(name, "convert_image", [image]) as name:
    src = image.dtype
    if src.is_integer and dtype.is_integer:
      scale_in, scale_out = src.max, dtype.max
      if scale_in > scale_out:
        scale = (scale_in + 1) // (scale_out + 1)
        scaled = _math_ops.floordiv(image, scale)
        if saturate:
          return _math_ops.saturate_cast(scaled, dtype, name=name)
        return _math_ops.cast(scaled, dtype, name=name)
      cast = _math_ops.saturate_cast(image, dtype) if saturate else _math_ops.cast(image, dtype)
      scale = (scale_out + 1) // (scale_in + 1)
      return _math_ops.multiply(cast, scale, name=name)
    if src.is_floating and dtype.is_floating:
      return _math_ops.cast(image, dtype, name=name)
    if src.is_integer:
      cast = _math_ops.cast(image, dtype)
      return _math_ops.multiply(cast, 1. / src.max, name=name)
    scaled = _math_ops.multiply(image, dtype.max + 0.5)
    if saturate:
      return _math_ops.saturate_cast(scaled, dtype, name=name)
    return _math_ops.cast(scaled, dtype, name=name)


def _check_at_least_3d(image):
  ndims = image.get_shape().ndims
  if ndims is not None and ndims < 3:
    raise ValueError("'image' (shape %s) must be at least three-dimensional." % image.get_shape())


def per_image_standardization(image):
  """(x - mean) / max(stddev, 1/sqrt(num_pixels)) over each image's last three axes (float32)."""
  with _ops.name_scope(None, "per_image_standardization", [image]) as scope:
    image = _ops.convert_to_tensor(image, name="image")
    _check_at_least_3d(image)
    num_pixels = _math_ops.reduce_prod(_array_ops.shape(image)[-3:])
    image = _math_ops.cast(image, dtype=_dtypes.float32)
    mean = _math_ops.reduce_mean(image, axis=[-1, -2, -3], keepdims=True)
    variance = (_math_ops.reduce_mean(_math_ops.square(image), axis=[-1, -2, -3], keepdims=True) -
                _math_ops.square(mean))
    variance = _nn_ops.relu(variance)
    stddev = _math_ops.sqrt(variance)
    min_stddev = _math_ops.rsqrt(_math_ops.cast(num_pixels, _dtypes.float32))
    pixel_value_scale = _math_ops.maximum(stddev, min_stddev)
    image = _math_ops.subtract(image, mean)
    return _math_ops.div(image, pixel_value_scale, name=scope)


def rgb_to_grayscale(images, name=None):
  """Weighted sum (0.2989, 0.5870, 0.1140) of the RGB channels, keeping a channel axis of 1."""
  with _ops.name_scope(name, "rgb_to_grayscale", [images]) as name:
    images = _ops.convert_to_tensor(images, name="images")
    orig_dtype = images.dtype
    flt = convert_image_dtype(images, _dtypes.float32)
    weights = _ops.convert_to_tensor([0.2989, 0.5870, 0.1140], dtype=_dtypes.float32)
    gray = _math_ops.reduce_sum(_math_ops.multiply(flt, weights), axis=-1, keepdims=True)
    return convert_image_dtype(gray, orig_dtype, name=name)


def adjust_contrast(images, contrast_factor):
  """(x - mean) * contrast_factor + mean per image and channel, in float, back to the input dtype."""
  with _ops.name_scope(None, "adjust_contrast", [images, contrast_factor]) as name:
    images = _ops.convert_to_tensor(images, name="images")
    orig_dtype = images.dtype
    if orig_dtype in (_dtypes.float16, _dtypes.float32):
      flt = images
    else:
      flt = convert_image_dtype(images, _dtypes.float32)
    adjusted = _apply_op("AdjustContrastv2", None,
                         [flt, _ops.convert_to_tensor(contrast_factor, dtype=_dtypes.float32)]
                         ).outputs[0]
    return convert_image_dtype(adjusted, orig_dtype, name=name)


def _flip(image, axis_3d, name, default_name):
  with _ops.name_scope(name, default_name, [image]) as scope:
    image = _ops.convert_to_tensor(image, name="image")
    ndims = image.get_shape().ndims
    if ndims == 3:
      return _array_ops.reverse(image, [axis_3d], name=scope)
    if ndims == 4:
      return _array_ops.reverse(image, [axis_3d + 1], name=scope)
    raise ValueError("'image' must have either 3 or 4 dimensions.")


def flip_left_right(image):
  """Reverses the width axis."""
  return _flip(image, 1, None, "flip_left_right")


def flip_up_down(image):
  """Reverses the height axis."""
  return _flip(image, 0, None, "flip_up_down")
