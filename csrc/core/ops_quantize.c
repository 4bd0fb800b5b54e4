/*
 * ops_quantize.c — op definitions of QuantizeV2, Dequantize and
 * QuantizeAndDequantizeV2/V3 (TF's
 * array_ops.cc names, args, attrs and shape functions); kernels in
 * kernels/quantize.c.
 */
#include "core/op_registry.h"
#include "core/op_tables.h"

/* QuantizeV2 / Dequantize: the output has the input's shape; the ranges
 * (and QuantizeV2's output ranges) are scalars, or vectors of the axis's
 * dimension when axis >= 0. */
static bool quantize_shape(tfc_shape_ctx *ctx) {
  const tfc_attr_value *a = tfc_attrs_find(ctx->attrs, "axis");
  int64_t axis = (a && a->kind == TFC_ATTR_I) ? a->v.i : -1;
  const tfc_shape *x = &ctx->in_shapes[0];
  int want = axis < 0 ? 0 : 1;
  for (int i = 1; i <= 2; i++)
    if (ctx->in_shapes[i].rank >= 0 && ctx->in_shapes[i].rank != want)
      return tfc_shape_fail(ctx, "Shape must be rank %d but is rank %d", want,
                            ctx->in_shapes[i].rank);
  if (axis >= 0 && x->rank >= 0 && axis >= x->rank)
    return tfc_shape_fail(ctx, "axis should be smaller than input dimension: %lld vs. %d",
                          (long long)axis, x->rank);
  int64_t d = (axis >= 0 && x->rank > axis) ? x->dims[axis] : -1;
  for (int i = 1; i <= 2 && axis >= 0; i++) {
    const tfc_shape *m = &ctx->in_shapes[i];
    if (m->rank == 1 && m->dims[0] >= 0 && d >= 0 && m->dims[0] != d)
      return tfc_shape_fail(ctx, "Dimensions must be equal, but are %lld and %lld",
                            (long long)m->dims[0], (long long)d);
  }
  ctx->out_shapes[0] = *x;
  if (ctx->n_outputs == 3) {
    ctx->out_shapes[1] = axis < 0 ? tfc_shape_scalar() : tfc_shape_make(1, &d);
    ctx->out_shapes[2] = ctx->out_shapes[1];
  }
  return true;
}

/* QuantizeAndDequantizeV2/V3: the input's shape; input_min / input_max
 * scalars, or vectors of the axis's dimension when axis >= 0; V3's num_bits
 * a scalar. */
static bool qdq_shape(tfc_shape_ctx *ctx) {
  const tfc_attr_value *a = tfc_attrs_find(ctx->attrs, "axis");
  int64_t axis = (a && a->kind == TFC_ATTR_I) ? a->v.i : -1;
  const tfc_shape *x = &ctx->in_shapes[0];
  int want = axis < 0 ? 0 : 1;
  for (int i = 1; i <= 2; i++)
    if (ctx->in_shapes[i].rank >= 0 && ctx->in_shapes[i].rank != want)
      return tfc_shape_fail(ctx, "Shape must be rank %d but is rank %d", want,
                            ctx->in_shapes[i].rank);
  if (ctx->n_inputs > 3 && ctx->in_shapes[3].rank > 0)
    return tfc_shape_fail(ctx, "Shape must be rank 0 but is rank %d", ctx->in_shapes[3].rank);
  if (axis >= 0 && x->rank >= 0 && axis >= x->rank)
    return tfc_shape_fail(ctx, "axis should be smaller than input dimension: %lld vs. %d",
                          (long long)axis, x->rank);
  ctx->out_shapes[0] = *x;
  return true;
}

#define QDQ_COMMON \
  "signed_input: bool = true; T: {bfloat16, half, float, double}; narrow_range: bool = false; " \
  "axis: int = -1"

static const tfc_op_spec specs[] = {
    {"QuantizeAndDequantizeV2", "input: T; input_min: T; input_max: T", "output: T",
     QDQ_COMMON "; num_bits: int = 8; range_given: bool = false; "
     "round_mode: {'HALF_TO_EVEN', 'HALF_UP'} = 'HALF_TO_EVEN'",
     0, qdq_shape},
    {"QuantizeAndDequantizeV3", "input: T; input_min: T; input_max: T; num_bits: int32",
     "output: T", QDQ_COMMON "; range_given: bool = true", 0, qdq_shape},
    {"QuantizeV2", "input: float; min_range: float; max_range: float",
     "output: T; output_min: float; output_max: float",
     "T: quantizedtype; mode: {'MIN_COMBINED', 'MIN_FIRST', 'SCALED'} = 'MIN_COMBINED'; "
     "round_mode: {'HALF_AWAY_FROM_ZERO', 'HALF_TO_EVEN'} = 'HALF_AWAY_FROM_ZERO'; "
     "narrow_range: bool = false; axis: int = -1; ensure_minimum_range: float = 0.01",
     0, quantize_shape},
    {"Dequantize", "input: T; min_range: float; max_range: float", "output: dtype",
     "T: quantizedtype; mode: {'MIN_COMBINED', 'MIN_FIRST', 'SCALED'} = 'MIN_COMBINED'; "
     "narrow_range: bool = false; axis: int = -1; dtype: {bfloat16, float} = float",
     0, quantize_shape},
};

const tfc_op_table tfc_ops_quantize = {specs, (int)(sizeof specs / sizeof specs[0])};
