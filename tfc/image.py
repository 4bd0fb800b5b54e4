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
      from tfc.ops import image_detect_ops  # pylint: disable=g-import-not-at-top
      images = image_detect_ops.resize_area(images, size_t, align_corners=align_corners)
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


# -- TF 1.x image functions composed of the ops above ------------------------------------

from tfc.ops.random_ops import random_crop  # noqa: E402,F401  (tf.image.random_crop)


def _image_rank(image, allowed=(3, 4)):
  ndims = image.get_shape().ndims
  if ndims is None:
    raise ValueError("'image' must have a known rank (%s), got an unknown shape"
                     % " or ".join(str(a) for a in allowed))
  if ndims not in allowed:
    raise ValueError("'image' (shape %s) must have either 3 or 4 dimensions."
                     % image.get_shape())
  return ndims


def _random_flip(image, axis_3d, seed, scope_name):
  """Reverses `axis_3d` (height 0, width 1) of each image with probability 1/2."""
  from tfc.ops import random_ops  # pylint: disable=g-import-not-at-top
  with _ops.name_scope(None, scope_name, [image]) as scope:
    image = _ops.convert_to_tensor(image, name="image")
    if _image_rank(image) == 3:
      flip = _math_ops.less(random_ops.random_uniform([], 0, 1.0, seed=seed), 0.5)
      return _array_ops.where_v2(flip, _array_ops.reverse(image, [axis_3d]), image, name=scope)
    batch = _array_ops.shape(image)[0]
    coins = random_ops.random_uniform(_array_ops.stack([batch]), 0, 1.0, seed=seed)
    flips = _math_ops.cast(_math_ops.round(_array_ops.reshape(coins, [-1, 1, 1, 1])),
                           image.dtype)
    flipped = _array_ops.reverse(image, [axis_3d + 1])
    return _math_ops.add(flips * flipped, (1 - flips) * image, name=scope)


def random_flip_left_right(image, seed=None):
  """Mirrors each image (3-D, or each of a 4-D batch) left to right with probability 1/2."""
  return _random_flip(image, 1, seed, "random_flip_left_right")


def random_flip_up_down(image, seed=None):
  """Flips each image (3-D, or each of a 4-D batch) upside down with probability 1/2."""
  return _random_flip(image, 0, seed, "random_flip_up_down")


def adjust_brightness(image, delta):
  """image + delta, in float ([0, 1] scale for integer images), back to the input dtype
  (saturating)."""
  with _ops.name_scope(None, "adjust_brightness", [image, delta]) as name:
    image = _ops.convert_to_tensor(image, name="image")
    orig_dtype = image.dtype
    flt = image if orig_dtype in (_dtypes.float16, _dtypes.float32) else \
        convert_image_dtype(image, _dtypes.float32)
    adjusted = _math_ops.add(flt, _math_ops.cast(delta, flt.dtype), name=name)
    return convert_image_dtype(adjusted, orig_dtype, saturate=True)


def random_brightness(image, max_delta, seed=None):
  """adjust_brightness by a delta drawn uniformly from [-max_delta, max_delta)."""
  from tfc.ops import random_ops  # pylint: disable=g-import-not-at-top
  if max_delta < 0:
    raise ValueError("max_delta must be non-negative.")
  delta = random_ops.random_uniform([], -max_delta, max_delta, seed=seed)
  return adjust_brightness(image, delta)


def random_contrast(image, lower, upper, seed=None):
  """adjust_contrast by a factor drawn uniformly from [lower, upper)."""
  from tfc.ops import random_ops  # pylint: disable=g-import-not-at-top
  if upper <= lower:
    raise ValueError("upper must be > lower.")
  if lower < 0:
    raise ValueError("lower must be non-negative.")
  factor = random_ops.random_uniform([], lower, upper, seed=seed)
  return adjust_contrast(image, factor)


def adjust_gamma(image, gamma=1, gain=1):
  """gain * image ** gamma, in float ([0, 1] scale for integer images), back to the input
  dtype (saturating)."""
  with _ops.name_scope(None, "adjust_gamma", [image, gamma, gain]):
    image = _ops.convert_to_tensor(image, name="image")
    orig_dtype = image.dtype
    flt = image if orig_dtype in (_dtypes.float16, _dtypes.float32) else \
        convert_image_dtype(image, _dtypes.float32)
    if isinstance(gamma, (int, float)) and gamma < 0:
      raise ValueError("Gamma should be a non-negative real number.")
    gamma = _math_ops.cast(gamma, flt.dtype)
    adjusted = _math_ops.cast(gain, flt.dtype) * _math_ops.pow(flt, gamma)
    return convert_image_dtype(adjusted, orig_dtype, saturate=True)


def _as_batch(image):
  """(4-D image, was_3d) for a 3-D or 4-D image."""
  if _image_rank(image) == 3:
    return _array_ops.expand_dims(image, 0), True
  return image, False


def _dims(image):
  """[batch, height, width, depth] of a 4-D image: ints where static, else tensors."""
  static = image.get_shape().as_list()
  dynamic = _array_ops.shape(image)
  return [s if s is not None else dynamic[i] for i, s in enumerate(static)]


def _static_check(condition, message):
  if isinstance(condition, bool) and not condition:
    raise ValueError(message)


def _is_int(x):
  return isinstance(x, int)


def crop_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
  """image[offset_height:offset_height + target_height,
  offset_width:offset_width + target_width] of each 3-D image or 4-D batch."""
  with _ops.name_scope(None, "crop_to_bounding_box", [image]):
    image = _ops.convert_to_tensor(image, name="image")
    batch, was_3d = _as_batch(image)
    _, height, width, _ = _dims(batch)
    for value, message in ((offset_width, "offset_width must be >= 0."),
                           (offset_height, "offset_height must be >= 0.")):
      _static_check(not _is_int(value) or value >= 0, message)
    for value, message in ((target_width, "target_width must be > 0."),
                           (target_height, "target_height must be > 0.")):
      _static_check(not _is_int(value) or value > 0, message)
    if all(_is_int(v) for v in (width, target_width, offset_width)):
      _static_check(width >= target_width + offset_width, "width must be >= target + offset.")
    if all(_is_int(v) for v in (height, target_height, offset_height)):
      _static_check(height >= target_height + offset_height,
                    "height must be >= target + offset.")
    begin = _array_ops.stack([0, offset_height, offset_width, 0])
    size = _array_ops.stack([-1, target_height, target_width, -1])
    cropped = _array_ops.slice(batch, begin, size)
    cropped.set_shape([batch.get_shape()[0].value,
                       target_height if _is_int(target_height) else None,
                       target_width if _is_int(target_width) else None,
                       batch.get_shape()[3].value])
    return _array_ops.squeeze(cropped, axis=[0]) if was_3d else cropped


def pad_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
  """Zero-pads each 3-D image or 4-D batch to target_height x target_width with the image's
  top-left corner at (offset_height, offset_width)."""
  with _ops.name_scope(None, "pad_to_bounding_box", [image]):
    image = _ops.convert_to_tensor(image, name="image")
    batch, was_3d = _as_batch(image)
    _, height, width, _ = _dims(batch)
    after_padding_width = target_width - offset_width - width
    after_padding_height = target_height - offset_height - height
    _static_check(not _is_int(offset_height) or offset_height >= 0,
                  "offset_height must be >= 0")
    _static_check(not _is_int(offset_width) or offset_width >= 0, "offset_width must be >= 0")
    _static_check(not _is_int(after_padding_width) or after_padding_width >= 0,
                  "width must be <= target - offset")
    _static_check(not _is_int(after_padding_height) or after_padding_height >= 0,
                  "height must be <= target - offset")
    paddings = _array_ops.reshape(
        _array_ops.stack([0, 0, offset_height, after_padding_height, offset_width,
                          after_padding_width, 0, 0]), [4, 2])
    padded = _array_ops.pad(batch, paddings)
    padded.set_shape([batch.get_shape()[0].value,
                      target_height if _is_int(target_height) else None,
                      target_width if _is_int(target_width) else None,
                      batch.get_shape()[3].value])
    return _array_ops.squeeze(padded, axis=[0]) if was_3d else padded


def _max(a, b):
  return max(a, b) if _is_int(a) and _is_int(b) else _math_ops.maximum(a, b)


def _min(a, b):
  return min(a, b) if _is_int(a) and _is_int(b) else _math_ops.minimum(a, b)


def resize_image_with_crop_or_pad(image, target_height, target_width):
  """Crops (centrally) or zero-pads (evenly) each image to target_height x target_width."""
  with _ops.name_scope(None, "resize_image_with_crop_or_pad", [image]):
    image = _ops.convert_to_tensor(image, name="image")
    batch, was_3d = _as_batch(image)
    _static_check(not _is_int(target_width) or target_width > 0, "target_width must be > 0.")
    _static_check(not _is_int(target_height) or target_height > 0,
                  "target_height must be > 0.")
    _, height, width, _ = _dims(batch)
    width_diff = target_width - width
    height_diff = target_height - height
    cropped = crop_to_bounding_box(batch, _max(-height_diff // 2, 0), _max(-width_diff // 2, 0),
                                   _min(target_height, height), _min(target_width, width))
    resized = pad_to_bounding_box(cropped, _max(height_diff // 2, 0), _max(width_diff // 2, 0),
                                  target_height, target_width)
    return _array_ops.squeeze(resized, axis=[0]) if was_3d else resized


resize_with_crop_or_pad = resize_image_with_crop_or_pad


def central_crop(image, central_fraction):
  """The central `central_fraction` (0, 1] of each image's height and width."""
  with _ops.name_scope(None, "central_crop", [image]):
    image = _ops.convert_to_tensor(image, name="image")
    if central_fraction <= 0.0 or central_fraction > 1.0:
      raise ValueError("central_fraction must be within (0, 1]")
    if central_fraction == 1.0:
      return image
    batch, was_3d = _as_batch(image)
    _, height, width, _ = _dims(batch)

    def start(size):
      if _is_int(size):
        return int((float(size) - float(size) * central_fraction) / 2)
      sized = _math_ops.cast(size, _dtypes.float64)
      return _math_ops.cast((sized - sized * central_fraction) / 2, _dtypes.int32)

    h0, w0 = start(height), start(width)
    cropped = crop_to_bounding_box(batch, h0, w0, height - h0 * 2, width - w0 * 2)
    return _array_ops.squeeze(cropped, axis=[0]) if was_3d else cropped


def rot90(image, k=1, name=None):
  """Rotates each image (3-D, or each of a 4-D batch) by k * 90 degrees counter-clockwise;
  k a Python int."""
  with _ops.name_scope(name, "rot90", [image, k]) as scope:
    image = _ops.convert_to_tensor(image, name="image")
    if not isinstance(k, int):
      raise TypeError("tfc's rot90 needs k as a Python int (a tensor k needs tf.case)")
    k %= 4
    h, w = (0, 1) if _image_rank(image) == 3 else (1, 2)
    perm = list(range(image.get_shape().ndims))
    perm[h], perm[w] = perm[w], perm[h]
    if k == 0:
      return _array_ops.identity(image, name=scope)
    if k == 1:
      return _array_ops.transpose(_array_ops.reverse(image, [w]), perm, name=scope)
    if k == 2:
      return _array_ops.reverse(image, [h, w], name=scope)
    return _array_ops.reverse(_array_ops.transpose(image, perm), [w], name=scope)


def transpose_image(image):
  """Swaps the height and width of each image (3-D, or each of a 4-D batch)."""
  with _ops.name_scope(None, "transpose_image", [image]):
    image = _ops.convert_to_tensor(image, name="image")
    perm = [1, 0, 2] if _image_rank(image) == 3 else [0, 2, 1, 3]
    return _array_ops.transpose(image, perm)


def transpose(image, name=None):
  """Swaps the height and width of each image (3-D, or each of a 4-D batch)."""
  with _ops.name_scope(name, "transpose", [image]):
    return transpose_image(image)


def grayscale_to_rgb(images, name=None):
  """Repeats the single channel of grayscale images three times."""
  with _ops.name_scope(name, "grayscale_to_rgb", [images]) as name:
    images = _ops.convert_to_tensor(images, name="images")
    shape = images.get_shape()
    if shape.ndims is not None and (shape.ndims < 2 or shape[-1].value not in (None, 1)):
      raise ValueError("Last dimension of a grayscale image should be size 1.")
    rank_minus_one = _array_ops.expand_dims(_array_ops.rank(images) - 1, 0)
    multiples = _array_ops.concat([_array_ops.ones(rank_minus_one, _dtypes.int32), [3]], 0)
    rgb = _array_ops.tile(images, multiples, name=name)
    if shape.ndims is not None:
      rgb.set_shape(shape[:-1].concatenate([3]))
    return rgb


def total_variation(images, name=None):
  """Sum of the absolute differences of vertically and horizontally adjacent pixels: a
  scalar for a 3-D image, one value per image for a 4-D batch."""
  with _ops.name_scope(name, "total_variation"):
    images = _ops.convert_to_tensor(images, name="images")
    if _image_rank(images) == 3:
      dif_h = images[1:, :, :] - images[:-1, :, :]
      dif_w = images[:, 1:, :] - images[:, :-1, :]
      axis = None
    else:
      dif_h = images[:, 1:, :, :] - images[:, :-1, :, :]
      dif_w = images[:, :, 1:, :] - images[:, :, :-1, :]
      axis = [1, 2, 3]
    return (_math_ops.reduce_sum(_math_ops.abs(dif_h), axis=axis)
            + _math_ops.reduce_sum(_math_ops.abs(dif_w), axis=axis))


def image_gradients(image):
  """(dy, dx): forward differences of a 4-D batch along height and width, zero in the last
  row / column, each of the image's shape."""
  image = _ops.convert_to_tensor(image, name="image")
  if image.get_shape().ndims != 4:
    raise ValueError("image_gradients expects a 4D tensor [batch_size, h, w, d], not %s."
                     % image.get_shape())
  shape = _array_ops.shape(image)
  batch, height, width, depth = [shape[i] for i in range(4)]
  dy = image[:, 1:, :, :] - image[:, :-1, :, :]
  dx = image[:, :, 1:, :] - image[:, :, :-1, :]
  dy = _array_ops.concat([dy, _array_ops.zeros(_array_ops.stack([batch, 1, width, depth]),
                                                image.dtype)], 1)
  dx = _array_ops.concat([dx, _array_ops.zeros(_array_ops.stack([batch, height, 1, depth]),
                                                image.dtype)], 2)
  return _array_ops.reshape(dy, shape), _array_ops.reshape(dx, shape)


def psnr(a, b, max_val, name=None):
  """Peak signal-to-noise ratio of two images (or batches) in dB: 20 log10(max_val) -
  10 log10(mean squared error over the last three axes); float32."""
  import numpy as np  # pylint: disable=g-import-not-at-top
  with _ops.name_scope(name, "PSNR", [a, b]):
    a = _ops.convert_to_tensor(a, name="a")
    b = _ops.convert_to_tensor(b, name="b")
    max_val = _math_ops.cast(max_val, a.dtype)
    max_val = convert_image_dtype(max_val, _dtypes.float32)
    a = convert_image_dtype(a, _dtypes.float32)
    b = convert_image_dtype(b, _dtypes.float32)
    mse = _math_ops.reduce_mean(_math_ops.squared_difference(a, b), [-3, -2, -1])
    return _math_ops.subtract(
        20 * _math_ops.log(max_val) / _math_ops.log(_ops.convert_to_tensor(10.0)),
        np.float32(10 / np.log(10)) * _math_ops.log(mse), name="psnr")


# Colour-space matrices (rows: input channel, columns: output channel).
_RGB_TO_YIQ = [[0.299, 0.59590059, 0.2115], [0.587, -0.27455667, -0.52273617],
               [0.114, -0.32134392, 0.31119955]]
_YIQ_TO_RGB = [[1, 1, 1], [0.95598634, -0.27201283, -1.10674021],
               [0.6208248, -0.64720424, 1.70423049]]
_RGB_TO_YUV = [[0.299, -0.14714119, 0.61497538], [0.587, -0.28886916, -0.51496512],
               [0.114, 0.43601035, -0.10001026]]
_YUV_TO_RGB = [[1, 1, 1], [0, -0.394642334, 2.03206185], [1.13988303, -0.58062185, 0]]


def _convert_colors(images, kernel):
  from tfc.ops import linalg_ops  # pylint: disable=g-import-not-at-top
  images = _ops.convert_to_tensor(images, name="images")
  kernel = _ops.convert_to_tensor(kernel, dtype=images.dtype.base_dtype, name="kernel")
  ndims = images.get_shape().ndims
  return linalg_ops.tensordot(images, kernel, axes=[[ndims - 1], [0]])


def rgb_to_yiq(images):
  """RGB (floats in [0, 1], last dimension 3) to YIQ."""
  return _convert_colors(images, _RGB_TO_YIQ)


def yiq_to_rgb(images):
  """YIQ to RGB."""
  return _convert_colors(images, _YIQ_TO_RGB)


def rgb_to_yuv(images):
  """RGB (floats in [0, 1], last dimension 3) to YUV."""
  return _convert_colors(images, _RGB_TO_YUV)


def yuv_to_rgb(images):
  """YUV to RGB."""
  return _convert_colors(images, _YUV_TO_RGB)


def sobel_edges(image):
  """Sobel gradients of a 4-D batch, per channel: [batch, h, w, d, 2] with the vertical
  (dy) then horizontal (dx) response, the border reflected."""
  import numpy as np  # pylint: disable=g-import-not-at-top
  image = _ops.convert_to_tensor(image, name="image")
  static_shape = image.get_shape()
  shape = _array_ops.shape(image)
  kernels = np.array([[[-1, -2, -1], [0, 0, 0], [1, 2, 1]],
                      [[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]]])
  kernels = np.expand_dims(np.transpose(kernels, (1, 2, 0)), -2)  # [3, 3, 1, 2]
  filters = _array_ops.tile(_ops.convert_to_tensor(kernels, dtype=image.dtype.base_dtype),
                            _array_ops.stack([1, 1, shape[-1], 1]), name="sobel_filters")
  padded = _array_ops.pad(image, [[0, 0], [1, 1], [1, 1], [0, 0]], mode="REFLECT")
  edges = _nn_ops.depthwise_conv2d(padded, filters, [1, 1, 1, 1], "VALID")
  edges = _array_ops.reshape(edges, _array_ops.concat([shape, [2]], 0))
  edges.set_shape(static_shape.concatenate([2]))
  return edges


def resize_image_with_pad(image, target_height, target_width, method=ResizeMethod.BILINEAR,
                          align_corners=False):
  """Resizes keeping the aspect ratio so the image fits target_height x target_width,
  then zero-pads it (centred) to exactly that size."""
  with _ops.name_scope(None, "resize_image_with_pad", [image]):
    image = _ops.convert_to_tensor(image, name="image")
    batch, was_3d = _as_batch(image)
    _, height, width, _ = _dims(batch)
    f32 = _dtypes.float32
    f_height, f_width = _math_ops.cast(height, f32), _math_ops.cast(width, f32)
    f_target_h, f_target_w = _math_ops.cast(target_height, f32), _math_ops.cast(target_width, f32)
    ratio = _math_ops.maximum(f_width / f_target_w, f_height / f_target_h)
    new_h_f, new_w_f = f_height / ratio, f_width / ratio
    new_h = _math_ops.cast(_math_ops.floor(new_h_f), _dtypes.int32)
    new_w = _math_ops.cast(_math_ops.floor(new_w_f), _dtypes.int32)
    zero = _array_ops.zeros([], _dtypes.int32)
    pad_h = _math_ops.maximum(zero, _math_ops.cast(_math_ops.floor((f_target_h - new_h_f) / 2),
                                                   _dtypes.int32))
    pad_w = _math_ops.maximum(zero, _math_ops.cast(_math_ops.floor((f_target_w - new_w_f) / 2),
                                                   _dtypes.int32))
    resized = resize_images(batch, _array_ops.stack([new_h, new_w]), method, align_corners)
    padded = pad_to_bounding_box(resized, pad_h, pad_w, target_height, target_width)
    return _array_ops.squeeze(padded, axis=[0]) if was_3d else padded


def rgb_to_hsv(images, name=None):
  """RGB images (last dimension 3, floats in [0, 1]) to HSV, hue in [0, 1)."""
  return _apply_op("RGBToHSV", name, [images]).outputs[0]


def hsv_to_rgb(images, name=None):
  """HSV images (last dimension 3, floats in [0, 1]) to RGB."""
  return _apply_op("HSVToRGB", name, [images]).outputs[0]


def _adjust_hsv(op_type, default_name, image, value, name):
  with _ops.name_scope(name, default_name, [image, value]) as name:
    image = _ops.convert_to_tensor(image, name="image")
    orig_dtype = image.dtype
    if orig_dtype in (_dtypes.float16, _dtypes.float32):
      flt = image
    else:
      flt = convert_image_dtype(image, _dtypes.float32)
    value = _ops.convert_to_tensor(value, dtype=_dtypes.float32)
    adjusted = _apply_op(op_type, None, [flt, value]).outputs[0]
    return convert_image_dtype(adjusted, orig_dtype, name=name)


def adjust_hue(image, delta, name=None):
  """Rotates the hue of RGB images by delta (a fraction of the colour wheel, in [-1, 1])."""
  return _adjust_hsv("AdjustHue", "adjust_hue", image, delta, name)


def adjust_saturation(image, saturation_factor, name=None):
  """Multiplies the saturation of RGB images by saturation_factor (clamped to [0, 1])."""
  return _adjust_hsv("AdjustSaturation", "adjust_saturation", image, saturation_factor, name)


def random_hue(image, max_delta, seed=None):
  """adjust_hue by a delta drawn uniformly from [-max_delta, max_delta), max_delta in [0, 0.5]."""
  from tfc.ops import random_ops  # pylint: disable=g-import-not-at-top
  if max_delta > 0.5:
    raise ValueError("max_delta must be <= 0.5.")
  if max_delta < 0:
    raise ValueError("max_delta must be non-negative.")
  delta = random_ops.random_uniform([], -max_delta, max_delta, seed=seed)
  return adjust_hue(image, delta)


def random_saturation(image, lower, upper, seed=None):
  """adjust_saturation by a factor drawn uniformly from [lower, upper)."""
  from tfc.ops import random_ops  # pylint: disable=g-import-not-at-top
  if upper <= lower:
    raise ValueError("upper must be > lower.")
  if lower < 0:
    raise ValueError("lower must be non-negative.")
  factor = random_ops.random_uniform([], lower, upper, seed=seed)
  return adjust_saturation(image, factor)


_DETECT_NAMES = ("non_max_suppression", "non_max_suppression_with_scores",
                 "non_max_suppression_padded", "non_max_suppression_overlaps",
                 "combined_non_max_suppression", "crop_and_resize", "draw_bounding_boxes",
                 "extract_glimpse", "sample_distorted_bounding_box", "resize_area")


def __getattr__(name):
  """The detection-style ops (tfc/ops/image_detect_ops.py) load on first use."""
  if name in _DETECT_NAMES:
    from tfc.ops import image_detect_ops  # pylint: disable=g-import-not-at-top
    value = getattr(image_detect_ops, name)
    globals()[name] = value
    return value
  if name in ("extract_patches", "extract_image_patches"):
    from tfc.ops import nn_window_ops  # pylint: disable=g-import-not-at-top
    value = getattr(nn_window_ops, name)
    globals()[name] = value
    return value
  raise AttributeError("module 'tfc.image' has no attribute %r" % name)


def __dir__():
  return sorted(set(globals()) | set(_DETECT_NAMES) | {"extract_patches", "extract_image_patches"})
