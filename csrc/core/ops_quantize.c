/*
 * ops_quantize.c — op definitions of QuantizeV2, Dequantize,
 * QuantizeAndDequantizeV2/V3 and QuantizedConcat (TF's
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

/* QuantizedConcat: inputs (concat_dim, N values, N mins, N maxes); the
 * output has the values' rank (dims known when all agree off the concat
 * dim and it is constant), then two scalars. */
static bool quantized_concat_shape(tfc_shape_ctx *ctx) {
  int n = (ctx->n_inputs - 1) / 3;
  for (int i = 1 + n; i < ctx->n_inputs; i++)
    if (ctx->in_shapes[i].rank > 0)
      return tfc_shape_fail(ctx, "Shape must be rank 0 but is rank %d", ctx->in_shapes[i].rank);
  int rank = -1;
  for (int i = 1; i <= n; i++) {
    int r = ctx->in_shapes[i].rank;
    if (r >= 0 && rank >= 0 && r != rank)
      return tfc_shape_fail(ctx, "Shape must be rank %d but is rank %d", rank, r);
    if (r >= 0) rank = r;
  }
  const tfc_tensor *cd = ctx->in_values ? ctx->in_values[0] : NULL;
  tfc_shape out = rank >= 0 ? tfc_shape_unknown_dims(rank) : tfc_shape_unknown();
  if (cd != NULL && rank > 0) {
    int64_t d = tfc_tensor_get_int64(cd, 0);
    if (d < 0) d += rank;
    for (int k = 0; k < rank; k++) {
      int64_t v = k == d ? 0 : -1;
      for (int i = 1; i <= n; i++) {
        const tfc_shape *s = &ctx->in_shapes[i];
        int64_t x = s->rank == rank ? s->dims[k] : -1;
        if (k == d) v = (v < 0 || x < 0) ? -1 : v + x;
        else if (v < 0) v = x;
      }
      out.dims[k] = v;
    }
  }
  ctx->out_shapes[0] = out;
  ctx->out_shapes[1] = tfc_shape_scalar();
  ctx->out_shapes[2] = tfc_shape_scalar();
  return true;
}

static const tfc_op_spec specs[] = {
    {"QuantizedConcat", "concat_dim: int32; values: N * T; input_mins: N * float; "
     "input_maxes: N * float", "output: T; output_min: float; output_max: float",
     "N: int >= 2; T: type", 0, quantized_concat_shape},
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
