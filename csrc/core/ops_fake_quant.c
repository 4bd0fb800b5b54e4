/*
 * ops_fake_quant.c — op definitions of the fake-quantization ops:
 * FakeQuantWithMinMaxArgs, FakeQuantWithMinMaxVars,
 * FakeQuantWithMinMaxVarsPerChannel and their *Gradient ops (TF's
 * array_ops.cc names, args, attrs and shape functions). Kernels in
 * kernels/fake_quant.c.
 */
#include "core/op_registry.h"
#include "core/op_tables.h"

/* Fails unless in_shapes[i] has rank `rank` or an unknown rank. */
static bool need_rank(tfc_shape_ctx *ctx, int i, int rank) {
  if (ctx->in_shapes[i].rank >= 0 && ctx->in_shapes[i].rank != rank)
    return tfc_shape_fail(ctx, "Shape must be rank %d but is rank %d", rank,
                          ctx->in_shapes[i].rank);
  return true;
}

/* Args gradient: gradients and inputs have the same shape, the output too. */
static bool args_grad_shape(tfc_shape_ctx *ctx) {
  return tfc_shape_merge_ctx(ctx, &ctx->in_shapes[0], &ctx->in_shapes[1], &ctx->out_shapes[0]);
}

/* Vars: min and max scalars; the output has the input's shape. */
static bool vars_shape(tfc_shape_ctx *ctx) {
  if (!need_rank(ctx, 1, 0) || !need_rank(ctx, 2, 0)) return false;
  ctx->out_shapes[0] = ctx->in_shapes[0];
  return true;
}

/* Vars gradient: inputs' shape, then two scalars. */
static bool vars_grad_shape(tfc_shape_ctx *ctx) {
  if (!need_rank(ctx, 2, 0) || !need_rank(ctx, 3, 0)) return false;
  if (!tfc_shape_merge_ctx(ctx, &ctx->in_shapes[0], &ctx->in_shapes[1], &ctx->out_shapes[0]))
    return false;
  ctx->out_shapes[1] = tfc_shape_scalar();
  ctx->out_shapes[2] = tfc_shape_scalar();
  return true;
}

/* The per-channel depth: min and max vectors of the input's last dimension.
 * in: the input's index; lo: min's index. Sets *depth (-1 unknown). */
static bool per_channel_depth(tfc_shape_ctx *ctx, int in, int lo, int64_t *depth) {
  const tfc_shape *x = &ctx->in_shapes[in];
  if (x->rank == 0 || (x->rank > 4))
    return tfc_shape_fail(ctx, "Shape must be at least rank 1 and at most rank 4 but is rank %d",
                          x->rank);
  if (!need_rank(ctx, lo, 1) || !need_rank(ctx, lo + 1, 1)) return false;
  *depth = x->rank > 0 ? x->dims[x->rank - 1] : -1;
  for (int k = lo; k <= lo + 1; k++) {
    const tfc_shape *m = &ctx->in_shapes[k];
    int64_t d = m->rank == 1 ? m->dims[0] : -1;
    if (d >= 0 && *depth >= 0 && d != *depth)
      return tfc_shape_fail(ctx, "Dimensions must be equal, but are %lld and %lld",
                            (long long)*depth, (long long)d);
    if (*depth < 0) *depth = d;
  }
  return true;
}

/* PerChannel: the output has the input's shape. */
static bool per_channel_shape(tfc_shape_ctx *ctx) {
  int64_t depth;
  if (!per_channel_depth(ctx, 0, 1, &depth)) return false;
  ctx->out_shapes[0] = ctx->in_shapes[0];
  return true;
}

/* PerChannel gradient: inputs' shape, then two vectors of the depth. */
static bool per_channel_grad_shape(tfc_shape_ctx *ctx) {
  int64_t depth;
  if (!per_channel_depth(ctx, 1, 2, &depth)) return false;
  if (!tfc_shape_merge_ctx(ctx, &ctx->in_shapes[0], &ctx->in_shapes[1], &ctx->out_shapes[0]))
    return false;
  ctx->out_shapes[1] = tfc_shape_make(1, &depth);
  ctx->out_shapes[2] = tfc_shape_make(1, &depth);
  return true;
}

#define ARGS_ATTRS \
  "min: float = -6.0; max: float = 6.0; num_bits: int = 8; narrow_range: bool = false"
#define VARS_ATTRS "num_bits: int = 8; narrow_range: bool = false"

static const tfc_op_spec specs[] = {
    {"FakeQuantWithMinMaxArgs", "inputs: float", "outputs: float", ARGS_ATTRS, 0,
     tfc_shape_fn_unchanged},
    {"FakeQuantWithMinMaxArgsGradient", "gradients: float; inputs: float", "backprops: float",
     ARGS_ATTRS, 0, args_grad_shape},
    {"FakeQuantWithMinMaxVars", "inputs: float; min: float; max: float", "outputs: float",
     VARS_ATTRS, 0, vars_shape},
    {"FakeQuantWithMinMaxVarsGradient", "gradients: float; inputs: float; min: float; max: float",
     "backprops_wrt_input: float; backprop_wrt_min: float; backprop_wrt_max: float", VARS_ATTRS, 0,
     vars_grad_shape},
    {"FakeQuantWithMinMaxVarsPerChannel", "inputs: float; min: float; max: float",
     "outputs: float", VARS_ATTRS, 0, per_channel_shape},
    {"FakeQuantWithMinMaxVarsPerChannelGradient",
     "gradients: float; inputs: float; min: float; max: float",
     "backprops_wrt_input: float; backprop_wrt_min: float; backprop_wrt_max: float", VARS_ATTRS, 0,
     per_channel_grad_shape},
};

const tfc_op_table tfc_ops_fake_quant = {specs, (int)(sizeof specs / sizeof specs[0])};
