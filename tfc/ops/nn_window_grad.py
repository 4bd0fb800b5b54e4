"""Gradients of MaxPoolWithArgmax, Dilation2D and the patch extractions, as TF
defines them (patch gradients: each input cell sums the patch entries it was
copied to)."""
from tfc import dtypes as _dtypes
from tfc.ops.gradient_registry import RegisterGradient
from tfc.ops.math_grad import _out


def _attrs(op, names):
  return {n: op.get_attr(n) for n in names}


@RegisterGradient("MaxPoolWithArgmax")
def _max_pool_with_argmax_grad(op, grad, unused_argmax_grad):
  return _out("MaxPoolGradWithArgmax", [op.inputs[0], grad, op.outputs[1]],
              _attrs(op, ("ksize", "strides", "padding", "include_batch_in_index")))


@RegisterGradient("Dilation2D")
def _dilation2d_grad(op, grad):
  attrs = _attrs(op, ("strides", "rates", "padding"))
  x, w = op.inputs
  return [_out("Dilation2DBackpropInput", [x, w, grad], attrs),
          _out("Dilation2DBackpropFilter", [x, w, grad], attrs)]


def _patches_grad(op, grad, n, ksize_attr, op_attrs):
  """Sums grad's patch entries back into the cells they came from: an index
  image (1-based, 0 marks padding) is run through the same op, and the
  gradient is segment-summed by those indices."""
  from tfc.ops import array_ops, math_ops  # pylint: disable=g-import-not-at-top
  x = op.inputs[0]
  xs = array_ops.shape(x, out_type=_dtypes.int64)
  ys = array_ops.shape(op.outputs[0], out_type=_dtypes.int64)
  batch, channels = xs[0], xs[n + 1]
  cells = xs[1]
  for i in range(2, n + 1):
    cells = cells * xs[i]
  idx = array_ops.reshape(math_ops.range(1, cells + 1, dtype=_dtypes.int64),
                          array_ops.concat([[1], xs[1:n + 1], [1]], 0))
  patched = _out(op.type, [idx], _attrs(op, op_attrs))
  taps = 1
  for k in op.get_attr(ksize_attr)[1:n + 1]:
    taps *= k
  outs = ys[1]
  for i in range(2, n + 1):
    outs = outs * ys[i]
  # grad [b, out..., taps * c] -> [out... * taps, b, c]
  g = array_ops.reshape(grad, array_ops.stack([batch, outs * taps, channels]))
  g = array_ops.transpose(g, [1, 0, 2])
  ids = array_ops.reshape(patched, [-1])
  summed = math_ops.unsorted_segment_sum(g, ids, cells + 1)
  summed = summed[1:]
  summed = array_ops.transpose(summed, [1, 0, 2])
  return [array_ops.reshape(summed, xs)]


@RegisterGradient("ExtractImagePatches")
def _extract_image_patches_grad(op, grad):
  return _patches_grad(op, grad, 2, "ksizes", ("ksizes", "strides", "rates", "padding"))


@RegisterGradient("ExtractVolumePatches")
def _extract_volume_patches_grad(op, grad):
  return _patches_grad(op, grad, 3, "ksizes", ("ksizes", "strides", "padding"))
