/*
 * ops_image_hsv.c — op definitions of the HSV colour ops: RGBToHSV,
 * HSVToRGB, AdjustHue and AdjustSaturation (TF's names, args and types; the
 * last dimension holds the 3 channels). Kernels in kernels/image_hsv.c.
 */
#include "core/op_registry.h"
#include "core/op_tables.h"

/* The images' shape; a known last dimension must be 3 (and the adjustments,
 * which have a second input, need rank >= 3). */
static bool hsv_shape_fn(tfc_shape_ctx *ctx) {
  const tfc_shape *in = &ctx->in_shapes[0];
  if (in->rank == 0) return tfc_shape_fail(ctx, "Shape must be at least rank 1 but is rank 0");
  if (in->rank > 0 && in->dims[in->rank - 1] >= 0 && in->dims[in->rank - 1] != 3)
    return tfc_shape_fail(ctx, "Dimension must be 3 but is %lld",
                          (long long)in->dims[in->rank - 1]);
  if (ctx->n_inputs > 1 && in->rank >= 0 && in->rank < 3)
    return tfc_shape_fail(ctx, "Shape must be at least rank 3 but is rank %d", in->rank);
  for (int i = 1; i < ctx->n_inputs; i++)
    if (ctx->in_shapes[i].rank > 0)
      return tfc_shape_fail(ctx, "Shape must be rank 0 but is rank %d", ctx->in_shapes[i].rank);
  ctx->out_shapes[0] = *in;
  return true;
}

static const tfc_op_spec specs[] = {
    {"RGBToHSV", "images: T", "output: T", "T: {half, bfloat16, float, double} = float", 0,
     hsv_shape_fn},
    {"HSVToRGB", "images: T", "output: T", "T: {half, bfloat16, float, double} = float", 0,
     hsv_shape_fn},
    {"AdjustHue", "images: T; delta: float", "output: T", "T: {half, float} = float", 0,
     hsv_shape_fn},
    {"AdjustSaturation", "images: T; scale: float", "output: T", "T: {half, float} = float", 0,
     hsv_shape_fn},
};

const tfc_op_table tfc_ops_image_hsv = {specs, (int)(sizeof specs / sizeof specs[0])};
