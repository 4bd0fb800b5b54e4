/*
 * ops_image_detect.c — op definitions of the detection-style image ops:
 * NonMaxSuppression (V1..V5), NonMaxSuppressionWithOverlaps,
 * CombinedNonMaxSuppression, CropAndResize and its two gradients,
 * DrawBoundingBoxes(V2), ExtractGlimpse(V2), SampleDistortedBoundingBox(V2)
 * and ResizeArea. Names, argument order, attrs and defaults are TF's
 * (image_ops.cc); the shape functions follow TF's. Kernels live in
 * kernels/nms.c, kernels/crop_and_resize.c, kernels/image_boxes.c and
 * kernels/resize_area.c.
 */
#include "core/op_registry.h"
#include "core/op_tables.h"

/* A known constant int input i's element k, or -1 when not known. */
static int64_t const_elem(tfc_shape_ctx *ctx, int i, int64_t k, int64_t n) {
  tfc_tensor *v = ctx->in_values ? ctx->in_values[i] : NULL;
  if (!v || v->nelems != n || (v->dtype != TFC_DTYPE_INT32 && v->dtype != TFC_DTYPE_INT64))
    return -1;
  return tfc_tensor_get_int64(v, k);
}

/* Inputs [first, n_inputs) must be scalars (unknown rank passes). */
static bool scalars_from(tfc_shape_ctx *ctx, int first) {
  for (int i = first; i < ctx->n_inputs; i++)
    if (!tfc_shape_rank_is(ctx, &ctx->in_shapes[i], 0)) return false;
  return true;
}

/* boxes [n, 4] (or overlaps [n, n]) and scores [n]. */
static bool nms_inputs(tfc_shape_ctx *ctx, bool overlaps) {
  const tfc_shape *b = &ctx->in_shapes[0], *s = &ctx->in_shapes[1];
  if (!tfc_shape_rank_is(ctx, b, 2) || !tfc_shape_rank_is(ctx, s, 1)) return false;
  int64_t d;
  if (b->rank == 2 && !overlaps && !tfc_shape_merge_dim_ctx(ctx, b->dims[1], 4, &d)) return false;
  if (b->rank == 2 && s->rank == 1 && !tfc_shape_merge_dim_ctx(ctx, b->dims[0], s->dims[0], &d))
    return false;
  return scalars_from(ctx, 2);
}

/* NonMaxSuppression V1..V3, WithOverlaps: selected_indices [?]. */
static bool nms_shape(tfc_shape_ctx *ctx) {
  bool overlaps = ctx->def->name[17] == 'W';  /* "NonMaxSuppressionWithOverlaps" */
  if (!nms_inputs(ctx, overlaps)) return false;
  int64_t d = -1;
  ctx->out_shapes[0] = tfc_shape_make(1, &d);
  return true;
}

/* NonMaxSuppression V4/V5: [max_output_size] when padded and known, else [?];
 * V5's scores likewise; valid_outputs a scalar. */
static bool nms_padded_shape(tfc_shape_ctx *ctx) {
  if (!nms_inputs(ctx, false)) return false;
  const tfc_attr_value *p = tfc_attrs_find(ctx->attrs, "pad_to_max_output_size");
  int64_t d = -1;
  if (p && p->kind == TFC_ATTR_B && p->v.b) {
    tfc_tensor *v = ctx->in_values ? ctx->in_values[2] : NULL;
    if (v && v->nelems == 1) {
      d = tfc_tensor_get_int64(v, 0);
      if (d < 0) return tfc_shape_fail(ctx, "max_output_size must be non-negative");
    }
  }
  for (int i = 0; i + 1 < ctx->n_outputs; i++) ctx->out_shapes[i] = tfc_shape_make(1, &d);
  ctx->out_shapes[ctx->n_outputs - 1] = tfc_shape_scalar();
  return true;
}

/* CombinedNonMaxSuppression: boxes [b, n, q, 4], scores [b, n, classes];
 * outputs [b, max_total_size, 4], [b, max_total_size] x2, [b] (the total
 * unknown when pad_per_class). */
static bool combined_nms_shape(tfc_shape_ctx *ctx) {
  const tfc_shape *b = &ctx->in_shapes[0], *s = &ctx->in_shapes[1];
  if (!tfc_shape_rank_is(ctx, b, 4) || !tfc_shape_rank_is(ctx, s, 3)) return false;
  if (!scalars_from(ctx, 2)) return false;
  int64_t batch = -1, d;
  if (b->rank == 4) {
    batch = b->dims[0];
    if (!tfc_shape_merge_dim_ctx(ctx, b->dims[3], 4, &d)) return false;
  }
  if (s->rank == 3 && !tfc_shape_merge_dim_ctx(ctx, batch, s->dims[0], &batch)) return false;
  if (b->rank == 4 && s->rank == 3 && !tfc_shape_merge_dim_ctx(ctx, b->dims[1], s->dims[1], &d))
    return false;
  if (b->rank == 4 && s->rank == 3 && b->dims[2] >= 0 && s->dims[2] >= 0 && b->dims[2] != 1 &&
      b->dims[2] != s->dims[2])
    return tfc_shape_fail(ctx, "third dimension of boxes must be either 1 or equal to the third "
                               "dimension of scores");
  int64_t total = -1;
  const tfc_attr_value *p = tfc_attrs_find(ctx->attrs, "pad_per_class");
  if (!(p && p->kind == TFC_ATTR_B && p->v.b)) {
    tfc_tensor *v = ctx->in_values ? ctx->in_values[3] : NULL;
    if (v && v->nelems == 1) {
      total = tfc_tensor_get_int64(v, 0);
      if (total <= 0) return tfc_shape_fail(ctx, "max_total_size should be > 0");
    }
  }
  int64_t bd[3] = {batch, total, 4};
  ctx->out_shapes[0] = tfc_shape_make(3, bd);
  ctx->out_shapes[1] = tfc_shape_make(2, bd);
  ctx->out_shapes[2] = tfc_shape_make(2, bd);
  ctx->out_shapes[3] = tfc_shape_make(1, bd);
  return true;
}

/* CropAndResize: image [b, h, w, c], boxes [n, 4], box_ind [n], crop_size [2]
 * -> [n, crop_h, crop_w, c]. */
static bool crop_and_resize_shape(tfc_shape_ctx *ctx) {
  const tfc_shape *im = &ctx->in_shapes[0], *bx = &ctx->in_shapes[1], *bi = &ctx->in_shapes[2];
  if (!tfc_shape_rank_is(ctx, im, 4) || !tfc_shape_rank_is(ctx, bx, 2) ||
      !tfc_shape_rank_is(ctx, bi, 1) || !tfc_shape_rank_is(ctx, &ctx->in_shapes[3], 1))
    return false;
  int64_t n = bx->rank == 2 ? bx->dims[0] : -1, d;
  if (bx->rank == 2 && !tfc_shape_merge_dim_ctx(ctx, bx->dims[1], 4, &d)) return false;
  if (bi->rank == 1 && !tfc_shape_merge_dim_ctx(ctx, n, bi->dims[0], &n)) return false;
  int64_t od[4] = {n, const_elem(ctx, 3, 0, 2), const_elem(ctx, 3, 1, 2),
                   im->rank == 4 ? im->dims[3] : -1};
  ctx->out_shapes[0] = tfc_shape_make(4, od);
  return true;
}

/* CropAndResizeGradImage: the image shape from the constant image_size. */
static bool crop_grad_image_shape(tfc_shape_ctx *ctx) {
  if (!tfc_shape_rank_is(ctx, &ctx->in_shapes[0], 4) ||
      !tfc_shape_rank_is(ctx, &ctx->in_shapes[3], 1))
    return false;
  int64_t od[4];
  for (int k = 0; k < 4; k++) od[k] = const_elem(ctx, 3, k, 4);
  ctx->out_shapes[0] = tfc_shape_make(4, od);
  return true;
}

/* CropAndResizeGradBoxes: the boxes' shape. */
static bool crop_grad_boxes_shape(tfc_shape_ctx *ctx) {
  if (!tfc_shape_rank_is(ctx, &ctx->in_shapes[0], 4) ||
      !tfc_shape_rank_is(ctx, &ctx->in_shapes[1], 4))
    return false;
  ctx->out_shapes[0] = ctx->in_shapes[2];
  return true;
}

/* DrawBoundingBoxes(V2): the images' shape (rank >= 3). */
static bool draw_boxes_shape(tfc_shape_ctx *ctx) {
  if (!tfc_shape_rank_at_least(ctx, &ctx->in_shapes[0], 3)) return false;
  ctx->out_shapes[0] = ctx->in_shapes[0];
  return true;
}

/* ExtractGlimpse(V2): [batch, size[0], size[1], channels]. */
static bool glimpse_shape(tfc_shape_ctx *ctx) {
  const tfc_shape *in = &ctx->in_shapes[0], *sz = &ctx->in_shapes[1];
  if (!tfc_shape_rank_is(ctx, in, 4) || !tfc_shape_rank_is(ctx, sz, 1) ||
      !tfc_shape_rank_is(ctx, &ctx->in_shapes[2], 2))
    return false;
  int64_t d;
  if (sz->rank == 1 && !tfc_shape_merge_dim_ctx(ctx, sz->dims[0], 2, &d)) return false;
  const tfc_attr_value *u = tfc_attrs_find(ctx->attrs, "uniform_noise");
  const tfc_attr_value *n = tfc_attrs_find(ctx->attrs, "noise");
  if (u && u->kind == TFC_ATTR_B && u->v.b && n && n->kind == TFC_ATTR_S && n->v.s.len > 0 &&
      !tfc_attrs_string_is(ctx->attrs, "noise", "uniform"))
    return tfc_shape_fail(ctx, "The uniform_noise should not be True when noise is not uniform");
  int64_t od[4] = {in->rank == 4 ? in->dims[0] : -1, const_elem(ctx, 1, 0, 2),
                   const_elem(ctx, 1, 1, 2), in->rank == 4 ? in->dims[3] : -1};
  ctx->out_shapes[0] = tfc_shape_make(4, od);
  return true;
}

/* SampleDistortedBoundingBox(V2): begin [3], size [3], bboxes [1, 1, 4]. */
static bool sample_bbox_shape(tfc_shape_ctx *ctx) {
  const tfc_shape *sz = &ctx->in_shapes[0];
  if (!tfc_shape_rank_is(ctx, sz, 1) || !tfc_shape_rank_is(ctx, &ctx->in_shapes[1], 3))
    return false;
  int64_t d;
  if (sz->rank == 1 && !tfc_shape_merge_dim_ctx(ctx, sz->dims[0], 3, &d)) return false;
  if (ctx->n_inputs > 2 && !tfc_shape_rank_is(ctx, &ctx->in_shapes[2], 0)) return false;
  int64_t three = 3, bb[3] = {1, 1, 4};
  ctx->out_shapes[0] = tfc_shape_make(1, &three);
  ctx->out_shapes[1] = tfc_shape_make(1, &three);
  ctx->out_shapes[2] = tfc_shape_make(3, bb);
  return true;
}

/* ResizeArea: [batch, size[0], size[1], channels]. */
static bool resize_area_shape(tfc_shape_ctx *ctx) {
  const tfc_shape *in = &ctx->in_shapes[0], *sz = &ctx->in_shapes[1];
  if (!tfc_shape_rank_is(ctx, in, 4) || !tfc_shape_rank_is(ctx, sz, 1)) return false;
  int64_t d;
  if (sz->rank == 1 && !tfc_shape_merge_dim_ctx(ctx, sz->dims[0], 2, &d)) return false;
  int64_t od[4] = {in->rank == 4 ? in->dims[0] : -1, const_elem(ctx, 1, 0, 2),
                   const_elem(ctx, 1, 1, 2), in->rank == 4 ? in->dims[3] : -1};
  ctx->out_shapes[0] = tfc_shape_make(4, od);
  return true;
}

#define NMS_T "T: {half, float} = float"
#define NMS_TT NMS_T "; T_threshold: {half, float} = float"
#define CROP_T "T: {uint8, uint16, int8, int16, int32, int64, half, float, double}"
#define SDBB_COMMON                                                                  \
  "T: {uint8, int8, int16, int32, int64}; seed: int = 0; seed2: int = 0; "            \
  "aspect_ratio_range: list(float) = [0.75, 1.33]; area_range: list(float) = [0.05, 1.0]; " \
  "max_attempts: int = 100; use_image_if_no_bounding_boxes: bool = false"
#define GLIMPSE_ATTRS                                                              \
  "centered: bool = true; normalized: bool = true; uniform_noise: bool = true; " \
  "noise: string = 'uniform'"

static const tfc_op_spec specs[] = {
    {"NonMaxSuppression", "boxes: float; scores: float; max_output_size: int32",
     "selected_indices: int32", "iou_threshold: float = 0.5", 0, nms_shape},
    {"NonMaxSuppressionV2",
     "boxes: T; scores: T; max_output_size: int32; iou_threshold: T_threshold",
     "selected_indices: int32", NMS_TT, 0, nms_shape},
    {"NonMaxSuppressionV3",
     "boxes: T; scores: T; max_output_size: int32; iou_threshold: T_threshold; "
     "score_threshold: T_threshold",
     "selected_indices: int32", NMS_TT, 0, nms_shape},
    {"NonMaxSuppressionV4",
     "boxes: T; scores: T; max_output_size: int32; iou_threshold: T_threshold; "
     "score_threshold: T_threshold",
     "selected_indices: int32; valid_outputs: int32",
     NMS_TT "; pad_to_max_output_size: bool = false", 0, nms_padded_shape},
    {"NonMaxSuppressionV5",
     "boxes: T; scores: T; max_output_size: int32; iou_threshold: T; score_threshold: T; "
     "soft_nms_sigma: T",
     "selected_indices: int32; selected_scores: T; valid_outputs: int32",
     NMS_T "; pad_to_max_output_size: bool = false", 0, nms_padded_shape},
    {"NonMaxSuppressionWithOverlaps",
     "overlaps: float; scores: float; max_output_size: int32; overlap_threshold: float; "
     "score_threshold: float",
     "selected_indices: int32", "", 0, nms_shape},
    {"CombinedNonMaxSuppression",
     "boxes: float; scores: float; max_output_size_per_class: int32; max_total_size: int32; "
     "iou_threshold: float; score_threshold: float",
     "nmsed_boxes: float; nmsed_scores: float; nmsed_classes: float; valid_detections: int32",
     "pad_per_class: bool = false; clip_boxes: bool = true", 0, combined_nms_shape},
    {"CropAndResize", "image: T; boxes: float; box_ind: int32; crop_size: int32", "crops: float",
     CROP_T "; method: {'bilinear', 'nearest'} = 'bilinear'; extrapolation_value: float = 0", 0,
     crop_and_resize_shape},
    {"CropAndResizeGradImage", "grads: float; boxes: float; box_ind: int32; image_size: int32",
     "output: T", "T: {float, half, double}; method: {'bilinear', 'nearest'} = 'bilinear'", 0,
     crop_grad_image_shape},
    {"CropAndResizeGradBoxes", "grads: float; image: T; boxes: float; box_ind: int32",
     "output: float", CROP_T "; method: {'bilinear'} = 'bilinear'", 0, crop_grad_boxes_shape},
    {"DrawBoundingBoxes", "images: T; boxes: float", "output: T", "T: {float, half} = float", 0,
     draw_boxes_shape},
    {"DrawBoundingBoxesV2", "images: T; boxes: float; colors: float", "output: T",
     "T: {float, half} = float", 0, draw_boxes_shape},
    {"ExtractGlimpse", "input: float; size: int32; offsets: float", "glimpse: float",
     GLIMPSE_ATTRS, 0, glimpse_shape},
    {"ExtractGlimpseV2", "input: float; size: int32; offsets: float", "glimpse: float",
     GLIMPSE_ATTRS, 0, glimpse_shape},
    {"SampleDistortedBoundingBox", "image_size: T; bounding_boxes: float",
     "begin: T; size: T; bboxes: float", SDBB_COMMON "; min_object_covered: float = 0.1",
     TFC_OP_STATEFUL, sample_bbox_shape},
    {"SampleDistortedBoundingBoxV2",
     "image_size: T; bounding_boxes: float; min_object_covered: float",
     "begin: T; size: T; bboxes: float", SDBB_COMMON, TFC_OP_STATEFUL, sample_bbox_shape},
    {"ResizeArea", "images: T; size: int32", "resized_images: float",
     "T: {int8, uint8, int16, uint16, int32, int64, half, float, double, bfloat16}; "
     "align_corners: bool = false",
     0, resize_area_shape},
};

const tfc_op_table tfc_ops_image_detect = {specs, (int)(sizeof specs / sizeof specs[0])};
