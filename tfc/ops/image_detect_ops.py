"""tf.image's detection-style ops (TF 1.15 names and signatures): non-max
suppression, crop_and_resize, bounding boxes, glimpses and area resizing.
Every function builds one kernel op (csrc/kernels/nms.c, crop_and_resize.c,
image_boxes.c, resize_area.c)."""
from tfc import dtypes as _dtypes
from tfc.framework import ops as _ops
from tfc.framework.op_def_library import _apply_op


def _f32(x, name):
  return _ops.convert_to_tensor(x, dtype=_dtypes.float32, name=name)


def _threshold(x, name, dtype=_dtypes.float32):
  return _ops.convert_to_tensor(x, dtype=dtype, name=name)


def non_max_suppression(boxes, scores, max_output_size, iou_threshold=0.5,
                        score_threshold=float("-inf"), name=None):
  """Greedily selects boxes by descending score, dropping any box whose IoU
  with an already selected box exceeds `iou_threshold` (NonMaxSuppressionV3).

  Returns the int32 indices of at most `max_output_size` selected boxes.
  """
  with _ops.name_scope(name, "non_max_suppression"):
    iou_threshold = _threshold(iou_threshold, "iou_threshold")
    score_threshold = _threshold(score_threshold, "score_threshold")
    return _apply_op("NonMaxSuppressionV3", None,
                     [boxes, scores, max_output_size, iou_threshold, score_threshold]).outputs[0]


def non_max_suppression_with_scores(boxes, scores, max_output_size, iou_threshold=0.5,
                                    score_threshold=float("-inf"), soft_nms_sigma=0.0,
                                    name=None):
  """non_max_suppression that also returns the selected boxes' scores; with
  `soft_nms_sigma` > 0 overlapping boxes have their scores decayed (Soft-NMS,
  exp(-iou^2 / (2 sigma))) instead of being dropped (NonMaxSuppressionV5).

  Returns (selected_indices, selected_scores).
  """
  with _ops.name_scope(name, "non_max_suppression_with_scores"):
    iou_threshold = _threshold(iou_threshold, "iou_threshold")
    score_threshold = _threshold(score_threshold, "score_threshold")
    soft_nms_sigma = _threshold(soft_nms_sigma, "soft_nms_sigma")
    outs = _apply_op("NonMaxSuppressionV5", None,
                     [boxes, scores, max_output_size, iou_threshold, score_threshold,
                      soft_nms_sigma], {"pad_to_max_output_size": False}).outputs
    return outs[0], outs[1]


def non_max_suppression_padded(boxes, scores, max_output_size, iou_threshold=0.5,
                               score_threshold=float("-inf"), pad_to_max_output_size=False,
                               name=None):
  """non_max_suppression returning (selected_indices, valid_outputs); with
  `pad_to_max_output_size` the indices are zero-padded to max_output_size
  (NonMaxSuppressionV4)."""
  with _ops.name_scope(name, "non_max_suppression_padded"):
    iou_threshold = _threshold(iou_threshold, "iou_threshold")
    score_threshold = _threshold(score_threshold, "score_threshold")
    outs = _apply_op("NonMaxSuppressionV4", None,
                     [boxes, scores, max_output_size, iou_threshold, score_threshold],
                     {"pad_to_max_output_size": bool(pad_to_max_output_size)}).outputs
    return outs[0], outs[1]


def non_max_suppression_overlaps(overlaps, scores, max_output_size, overlap_threshold=0.5,
                                 score_threshold=float("-inf"), name=None):
  """non_max_suppression with a given [n, n] overlap matrix as the similarity
  (NonMaxSuppressionWithOverlaps)."""
  with _ops.name_scope(name, "non_max_suppression_overlaps"):
    overlap_threshold = _threshold(overlap_threshold, "overlap_threshold")
    score_threshold = _threshold(score_threshold, "score_threshold")
    return _apply_op("NonMaxSuppressionWithOverlaps", None,
                     [overlaps, scores, max_output_size, overlap_threshold,
                      score_threshold]).outputs[0]


def combined_non_max_suppression(boxes, scores, max_output_size_per_class, max_total_size,
                                 iou_threshold=0.5, score_threshold=float("-inf"),
                                 pad_per_class=False, clip_boxes=True, name=None):
  """Per-class greedy NMS over a batch, merged by score
  (CombinedNonMaxSuppression).

  boxes: [batch, num_boxes, q, 4] (q = 1 or num_classes); scores:
  [batch, num_boxes, num_classes]. Returns (nmsed_boxes, nmsed_scores,
  nmsed_classes, valid_detections).
  """
  with _ops.name_scope(name, "combined_non_max_suppression"):
    iou_threshold = _threshold(iou_threshold, "iou_threshold")
    score_threshold = _threshold(score_threshold, "score_threshold")
    return tuple(_apply_op("CombinedNonMaxSuppression", None,
                           [boxes, scores, max_output_size_per_class, max_total_size,
                            iou_threshold, score_threshold],
                           {"pad_per_class": bool(pad_per_class),
                            "clip_boxes": bool(clip_boxes)}).outputs)


def crop_and_resize(image, boxes, box_ind=None, crop_size=None, method="bilinear",
                    extrapolation_value=0, name=None, box_indices=None):
  """Crops boxes (normalised [y1, x1, y2, x2]) out of a batch of images and
  resizes each to crop_size (bilinear or nearest sampling); samples outside
  the image get extrapolation_value. Returns float32 [num_boxes, h, w, depth]."""
  if box_indices is not None:
    if box_ind is not None:
      raise ValueError("Cannot specify both 'box_ind' and 'box_indices'.")
    box_ind = box_indices
  if box_ind is None:
    raise TypeError("crop_and_resize() missing required argument 'box_ind'")
  if crop_size is None:
    raise TypeError("crop_and_resize() missing required argument 'crop_size'")
  return _apply_op("CropAndResize", name, [image, boxes, box_ind, crop_size],
                   {"method": method, "extrapolation_value": float(extrapolation_value)}).outputs[0]


def draw_bounding_boxes(images, boxes, name=None, colors=None):
  """Draws one-pixel box outlines (boxes [batch, n, 4], normalised) on a batch
  of float images; colours cycle through `colors` ([m, depth]) or TF's table."""
  if colors is None:
    return _apply_op("DrawBoundingBoxes", name, [images, boxes]).outputs[0]
  return _apply_op("DrawBoundingBoxesV2", name, [images, boxes, _f32(colors, "colors")]).outputs[0]


def extract_glimpse(input, size, offsets, centered=True, normalized=True,  # pylint: disable=redefined-builtin
                    uniform_noise=True, name=None):
  """Extracts [height, width] = size windows at offsets ([batch, 2], (y, x))
  from a batch of images (TF 1.x's ExtractGlimpse semantics); parts outside
  the image are uniform noise, or gaussian noise when uniform_noise is False."""
  attrs = {"centered": bool(centered), "normalized": bool(normalized),
           "uniform_noise": bool(uniform_noise)}
  if not uniform_noise:
    attrs["noise"] = ""
  return _apply_op("ExtractGlimpse", name, [input, size, offsets], attrs).outputs[0]


def extract_glimpse_v2(input, size, offsets, centered=True, normalized=True,  # pylint: disable=redefined-builtin
                       noise="uniform", name=None):
  """TF 2.x's tf.image.extract_glimpse (ExtractGlimpseV2): non-normalised
  offsets are the window's top-left corner; noise is 'uniform', 'gaussian'
  or 'zero'."""
  return _apply_op("ExtractGlimpseV2", name, [input, size, offsets],
                   {"centered": bool(centered), "normalized": bool(normalized),
                    "uniform_noise": False, "noise": noise}).outputs[0]


def sample_distorted_bounding_box(image_size, bounding_boxes, seed=None, seed2=None,
                                  min_object_covered=0.1, aspect_ratio_range=None,
                                  area_range=None, max_attempts=None,
                                  use_image_if_no_bounding_boxes=None, name=None):
  """Draws a random crop of an image of `image_size` ([h, w, c]) covering at
  least min_object_covered of one of `bounding_boxes` ([batch, n, 4]).

  Returns (begin, size, bboxes) for tf.slice and draw_bounding_boxes.
  `seed` and `seed2` are the op's attrs as in TF 1.x (both 0 or None: a
  nondeterministic stream); the same seeds give TF's crop.
  """
  attrs = {"seed": int(seed or 0), "seed2": int(seed2 or 0)}
  if aspect_ratio_range is not None:
    attrs["aspect_ratio_range"] = [float(v) for v in aspect_ratio_range]
  if area_range is not None:
    attrs["area_range"] = [float(v) for v in area_range]
  if max_attempts is not None:
    attrs["max_attempts"] = int(max_attempts)
  if use_image_if_no_bounding_boxes is not None:
    attrs["use_image_if_no_bounding_boxes"] = bool(use_image_if_no_bounding_boxes)
  with _ops.name_scope(name, "sample_distorted_bounding_box"):
    outs = _apply_op("SampleDistortedBoundingBoxV2", None,
                     [image_size, bounding_boxes, _f32(min_object_covered, "min_object_covered")],
                     attrs).outputs
    return outs[0], outs[1], outs[2]


def resize_area(images, size, align_corners=False, name=None):
  """Area (box-filter) resize of a 4-D image batch to size = [h, w]; float32."""
  size = _ops.convert_to_tensor(size, dtype=_dtypes.int32, name="size")
  return _apply_op("ResizeArea", name, [images, size],
                   {"align_corners": bool(align_corners)}).outputs[0]
