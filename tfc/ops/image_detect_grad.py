"""Gradients of the detection-style image ops: CropAndResize (image and box
gradients through CropAndResizeGradImage / CropAndResizeGradBoxes); the ops
TF declares non-differentiable are declared so here too."""
from tfc import dtypes as _dtypes
from tfc.ops.gradient_registry import NoGradient, RegisterGradient
from tfc.ops.math_grad import _out

for _op in ("NonMaxSuppression", "NonMaxSuppressionV2", "NonMaxSuppressionWithOverlaps",
            "DrawBoundingBoxes", "ExtractGlimpse", "SampleDistortedBoundingBox",
            "SampleDistortedBoundingBoxV2"):
  NoGradient(_op)


@RegisterGradient("CropAndResize")
def _crop_and_resize_grad(op, grad):
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  image = op.inputs[0]
  shape = image.get_shape()
  if shape.is_fully_defined():
    image_shape = shape.as_list()
  else:
    image_shape = array_ops.shape(image)
  grad0 = None
  if image.dtype in (_dtypes.float16, _dtypes.float32, _dtypes.float64):
    grad0 = _out("CropAndResizeGradImage", [grad, op.inputs[1], op.inputs[2], image_shape],
                 {"T": image.dtype, "method": op.get_attr("method")})
  grad1 = _out("CropAndResizeGradBoxes", [grad, op.inputs[0], op.inputs[1], op.inputs[2]], {})
  return [grad0, grad1, None, None]
