/*
 * ops_reduce.c — op definitions for reductions (Sum, Mean, Max, Min, Prod,
 * All, Any), ArgMax/ArgMin and the matrix products (MatMul, BatchMatMul,
 * BatchMatMulV2), with their shape functions.
 *
 * Names, attrs, defaults and shape-error messages follow TensorFlow
 * (math_ops.cc and common_shape_fns.cc), so a graph that fails to build in TF
 * fails here with the same text.
 */
#include <stdio.h>
#include <string.h>

#include "core/op_registry.h"
#include "core/op_tables.h"

/* ---------------------------------------------------------------- helpers */

/* Reads bool attr `name` (false when absent). */
static bool attr_bool(const tfc_shape_ctx *ctx, const char *name) {
  const tfc_attr_value *v = tfc_attrs_find(ctx->attrs, name);
  return v && v->kind == TFC_ATTR_B && v->v.b;
}

/* ---------------------------------------------------------------- reductions */

/* Shape of Sum/Mean/Max/Min/Prod/All/Any: exact when the reduction indices
 * are a build-time constant and the input rank is known; otherwise the input
 * rank (all dims unknown) with keep_dims, or unknown. */
static bool reduction_shape(tfc_shape_ctx *ctx) {
  const tfc_shape *in = &ctx->in_shapes[0];
  const tfc_shape *idx = &ctx->in_shapes[1];
  if (idx->rank > 1)
    return tfc_shape_fail(ctx, "Shape must be at most rank 1 but is rank %d", idx->rank);
  bool keep_dims = attr_bool(ctx, "keep_dims");
  const tfc_tensor *axes = ctx->in_values ? ctx->in_values[1] : NULL;
  if (!axes || in->rank < 0) {
    ctx->out_shapes[0] = keep_dims && in->rank >= 0 ? tfc_shape_unknown_dims(in->rank)
                                                     : tfc_shape_unknown();
    return true;
  }
  bool reduced[TFC_MAX_RANK] = {false};
  for (int64_t i = 0; i < axes->nelems; i++) {
    int64_t a = tfc_tensor_get_int64(axes, i);
    if (a < -in->rank || a >= in->rank)
      return tfc_shape_fail(ctx, "Invalid reduction dimension %lld for input with %d dimensions.",
                            (long long)a, in->rank);
    reduced[a < 0 ? a + in->rank : a] = true;
  }
  tfc_shape out = tfc_shape_scalar();
  for (int i = 0; i < in->rank; i++) {
    if (!reduced[i]) out.dims[out.rank++] = in->dims[i];
    else if (keep_dims) out.dims[out.rank++] = 1;
  }
  ctx->out_shapes[0] = out;
  return true;
}

/* Shape of ArgMax/ArgMin (TF's ArgOpShape): the input without the reduced
 * dimension; a scalar for inputs of rank <= 1. */
static bool arg_shape(tfc_shape_ctx *ctx) {
  const tfc_shape *in = &ctx->in_shapes[0];
  if (!tfc_shape_rank_is(ctx, &ctx->in_shapes[1], 0)) return false;
  if (in->rank < 0) return true;
  if (in->rank <= 1) {
    ctx->out_shapes[0] = tfc_shape_scalar();
    return true;
  }
  const tfc_tensor *dim = ctx->in_values ? ctx->in_values[1] : NULL;
  if (!dim || dim->nelems != 1) {
    ctx->out_shapes[0] = tfc_shape_unknown_dims(in->rank - 1);
    return true;
  }
  int64_t d = tfc_tensor_get_int64(dim, 0);
  if (d < -in->rank || d >= in->rank)
    return tfc_shape_fail(ctx,
                          "Dimension (%lld) must be in the range [%d, %d), where %d is the number "
                          "of dimensions in the input.",
                          (long long)d, -in->rank, in->rank, in->rank);
  if (d < 0) d += in->rank;
  tfc_shape out = tfc_shape_scalar();
  for (int i = 0; i < in->rank; i++)
    if (i != d) out.dims[out.rank++] = in->dims[i];
  ctx->out_shapes[0] = out;
  return true;
}

/* ---------------------------------------------------------------- matmul */

/* Shape of MatMul: [rows of op(a), cols of op(b)], inner dims merged. */
static bool matmul_shape(tfc_shape_ctx *ctx) {
  const tfc_shape *a = &ctx->in_shapes[0], *b = &ctx->in_shapes[1];
  if (!tfc_shape_rank_is(ctx, a, 2) || !tfc_shape_rank_is(ctx, b, 2)) return false;
  bool ta = attr_bool(ctx, "transpose_a"), tb = attr_bool(ctx, "transpose_b");
  tfc_shape A = a->rank < 0 ? tfc_shape_unknown_dims(2) : *a;
  tfc_shape B = b->rank < 0 ? tfc_shape_unknown_dims(2) : *b;
  int64_t inner;
  if (!tfc_shape_merge_dim_ctx(ctx, A.dims[ta ? 0 : 1], B.dims[tb ? 1 : 0], &inner)) return false;
  int64_t dims[2] = {A.dims[ta ? 1 : 0], B.dims[tb ? 0 : 1]};
  ctx->out_shapes[0] = tfc_shape_make(2, dims);
  return true;
}

/* Shape of BatchMatMul (v1): equal batch dims, merged inner dims. */
static bool batch_matmul_shape(tfc_shape_ctx *ctx) {
  const tfc_shape *a = &ctx->in_shapes[0], *b = &ctx->in_shapes[1];
  if (!tfc_shape_rank_at_least(ctx, a, 2) || !tfc_shape_rank_at_least(ctx, b, 2)) return false;
  bool adj_x = attr_bool(ctx, "adj_x"), adj_y = attr_bool(ctx, "adj_y");
  int64_t rows = -1, cols = -1, ia = -1, ib = -1;
  tfc_shape ab = tfc_shape_unknown(), bb = tfc_shape_unknown(), batch;
  if (a->rank >= 0) {
    rows = a->dims[a->rank - (adj_x ? 1 : 2)];
    ia = a->dims[a->rank - (adj_x ? 2 : 1)];
    ab = tfc_shape_make(a->rank - 2, a->dims);
  }
  if (b->rank >= 0) {
    cols = b->dims[b->rank - (adj_y ? 2 : 1)];
    ib = b->dims[b->rank - (adj_y ? 1 : 2)];
    bb = tfc_shape_make(b->rank - 2, b->dims);
  }
  if (!tfc_shape_merge_ctx(ctx, &ab, &bb, &batch)) return false;
  int64_t inner;
  if (!tfc_shape_merge_dim_ctx(ctx, ia, ib, &inner)) return false;
  if (batch.rank < 0) return true;
  batch.dims[batch.rank++] = rows;
  batch.dims[batch.rank++] = cols;
  ctx->out_shapes[0] = batch;
  return true;
}

/* Shape of BatchMatMulV2: merged inner dims, NumPy-broadcast batch dims. */
static bool batch_matmul_v2_shape(tfc_shape_ctx *ctx) {
  const tfc_shape *a = &ctx->in_shapes[0], *b = &ctx->in_shapes[1];
  if (!tfc_shape_rank_at_least(ctx, a, 2) || !tfc_shape_rank_at_least(ctx, b, 2)) return false;
  bool adj_x = attr_bool(ctx, "adj_x"), adj_y = attr_bool(ctx, "adj_y");
  int64_t ia = a->rank >= 0 ? a->dims[a->rank - (adj_x ? 2 : 1)] : -1;
  int64_t ib = b->rank >= 0 ? b->dims[b->rank - (adj_y ? 1 : 2)] : -1;
  int64_t inner;
  if (!tfc_shape_merge_dim_ctx(ctx, ia, ib, &inner)) return false;
  if (a->rank < 0 || b->rank < 0) return true;
  int ra = a->rank - 2, rb = b->rank - 2, rank = ra > rb ? ra : rb;
  if (rank + 2 > TFC_MAX_RANK) return tfc_shape_fail(ctx, "Rank %d is too large", rank + 2);
  tfc_shape out = tfc_shape_unknown_dims(rank + 2);
  for (int i = 0; i < rank; i++) {
    int xi = ra - rank + i, yi = rb - rank + i;
    int64_t dx = xi >= 0 ? a->dims[xi] : 1, dy = yi >= 0 ? b->dims[yi] : 1, d;
    if (dx == 1) d = dy;
    else if (dy == 1) d = dx;
    else if (dx < 0) d = dy;
    else if (dy < 0) d = dx;
    else if (dx == dy) d = dx;
    else
      return tfc_shape_fail(ctx, "Dimensions must be equal, but are %lld and %lld", (long long)dx,
                            (long long)dy);
    out.dims[i] = d;
  }
  out.dims[rank] = a->dims[a->rank - (adj_x ? 1 : 2)];
  out.dims[rank + 1] = b->dims[b->rank - (adj_y ? 2 : 1)];
  ctx->out_shapes[0] = out;
  return true;
}

/* ---------------------------------------------------------------- table */

#define REDUCE_ATTRS(types) "keep_dims: bool = false; T: " types "; Tidx: {int32, int64} = int32"
#define SUM_TYPES "numbertype"
#define MINMAX_TYPES "{realnumbertype, quantizedtype}"
#define MATMUL_TYPES \
  "{bfloat16, half, float, double, int32, int64, uint8, uint16, uint32, uint64, complex64, complex128}"
#define BMM_TYPES \
  "{bfloat16, half, float, double, int16, int32, int64, uint8, uint16, uint32, uint64, complex64, " \
  "complex128}"

static const tfc_op_spec specs[] = {
    {"Sum", "input: T; reduction_indices: Tidx", "output: T", REDUCE_ATTRS(SUM_TYPES), 0,
     reduction_shape},
    {"Mean", "input: T; reduction_indices: Tidx", "output: T", REDUCE_ATTRS(SUM_TYPES), 0,
     reduction_shape},
    {"Prod", "input: T; reduction_indices: Tidx", "output: T", REDUCE_ATTRS(SUM_TYPES), 0,
     reduction_shape},
    {"Max", "input: T; reduction_indices: Tidx", "output: T", REDUCE_ATTRS(MINMAX_TYPES), 0,
     reduction_shape},
    {"Min", "input: T; reduction_indices: Tidx", "output: T", REDUCE_ATTRS(MINMAX_TYPES), 0,
     reduction_shape},
    {"All", "input: bool; reduction_indices: Tidx", "output: bool",
     "keep_dims: bool = false; Tidx: {int32, int64} = int32", 0, reduction_shape},
    {"Any", "input: bool; reduction_indices: Tidx", "output: bool",
     "keep_dims: bool = false; Tidx: {int32, int64} = int32", 0, reduction_shape},
    {"ArgMax", "input: T; dimension: Tidx", "output: output_type",
     "T: {realnumbertype, quantizedtype, bool}; Tidx: {int16, int32, int64} = int32; "
     "output_type: {int16, uint16, int32, int64} = int64",
     0, arg_shape},
    {"ArgMin", "input: T; dimension: Tidx", "output: output_type",
     "T: {realnumbertype, quantizedtype, bool}; Tidx: {int32, int64} = int32; "
     "output_type: {int32, int64} = int64",
     0, arg_shape},
    {"MatMul", "a: T; b: T", "product: T",
     "transpose_a: bool = false; transpose_b: bool = false; T: " MATMUL_TYPES
     "; grad_a: bool = false; grad_b: bool = false",
     0, matmul_shape},
    {"BatchMatMul", "x: T; y: T", "output: T",
     "T: {bfloat16, half, float, double, int32, int64, complex64, complex128}; adj_x: bool = false; "
     "adj_y: bool = false; grad_x: bool = false; grad_y: bool = false",
     0, batch_matmul_shape},
    {"BatchMatMulV2", "x: T; y: T", "output: T",
     "T: " BMM_TYPES "; adj_x: bool = false; adj_y: bool = false; grad_x: bool = false; "
     "grad_y: bool = false",
     0, batch_matmul_v2_shape},
};

const tfc_op_table tfc_ops_reduce = {specs, (int)(sizeof specs / sizeof specs[0])};
