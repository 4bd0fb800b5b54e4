/*
 * ops_lrn.c — op definitions of local response normalization: LRN and its
 * gradient LRNGrad (TF's names, attrs and defaults; 4-D inputs, the window
 * over the last dimension). Kernels in kernels/lrn.c.
 */
#include "core/op_registry.h"
#include "core/op_tables.h"

/* LRN: a 4-D input, the output of the same shape. */
static bool lrn_shape_fn(tfc_shape_ctx *ctx) {
  const tfc_shape *in = &ctx->in_shapes[0];
  if (in->rank >= 0 && in->rank != 4)
    return tfc_shape_fail(ctx, "Shape must be rank 4 but is rank %d", in->rank);
  ctx->out_shapes[0] = in->rank >= 0 ? *in : tfc_shape_unknown_dims(4);
  return true;
}

#define LRN_ATTRS \
  "depth_radius: int = 5; bias: float = 1.0; alpha: float = 1.0; beta: float = 0.5; " \
  "T: {half, bfloat16, float} = float"

static const tfc_op_spec specs[] = {
    {"LRN", "input: T", "output: T", LRN_ATTRS, 0, lrn_shape_fn},
    {"LRNGrad", "input_grads: T; input_image: T; output_image: T", "output: T", LRN_ATTRS, 0,
     lrn_shape_fn},
};

const tfc_op_table tfc_ops_lrn = {specs, (int)(sizeof specs / sizeof specs[0])};
