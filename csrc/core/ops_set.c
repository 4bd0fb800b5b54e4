/*
 * ops_set.c — op definitions of TF's set_ops.cc: SetSize,
 * DenseToDenseSetOperation, DenseToSparseSetOperation and
 * SparseToSparseSetOperation, with TF's names, attrs and shape functions.
 * Kernels in kernels/set_ops.c.
 */
#include "core/op_registry.h"
#include "core/op_tables.h"

#define SET_T "T: {int8, int16, int32, int64, uint8, uint16, string}"

/* The result SparseTensor of rank r (unknown: -1): [?, r] indices, [?] values, [r] shape. */
static void set_result_shapes(tfc_shape_ctx *ctx, int64_t r) {
  int64_t i[2] = {-1, r}, v[1] = {-1}, s[1] = {r};
  ctx->out_shapes[0] = tfc_shape_make(2, i);
  ctx->out_shapes[1] = tfc_shape_make(1, v);
  ctx->out_shapes[2] = tfc_shape_make(1, s);
}

/* DenseToDenseSetOperation: both inputs rank >= 2 with the same group dims. */
static bool dense_dense_shape(tfc_shape_ctx *ctx) {
  const tfc_shape *a = &ctx->in_shapes[0], *b = &ctx->in_shapes[1];
  if (!tfc_shape_rank_at_least(ctx, a, 2) || !tfc_shape_rank_at_least(ctx, b, 2)) return false;
  int64_t r = a->rank >= 0 ? a->rank : b->rank;
  if (a->rank >= 0 && b->rank >= 0) {
    tfc_shape ga = *a, gb = *b, m;
    ga.rank--;
    gb.rank--;
    if (!tfc_shape_merge_ctx(ctx, &ga, &gb, &m)) return false;
  }
  set_result_shapes(ctx, r);
  return true;
}

/* DenseToSparseSetOperation: set1 rank >= 2; the rank is known from set1. */
static bool dense_sparse_shape(tfc_shape_ctx *ctx) {
  if (!tfc_shape_rank_at_least(ctx, &ctx->in_shapes[0], 2)) return false;
  set_result_shapes(ctx, ctx->in_shapes[0].rank);
  return true;
}

/* SparseToSparseSetOperation: the rank comes from the shapes' length. */
static bool sparse_sparse_shape(tfc_shape_ctx *ctx) {
  const tfc_shape *s = &ctx->in_shapes[2];
  set_result_shapes(ctx, s->rank == 1 ? s->dims[0] : -1);
  return true;
}

static const tfc_op_spec specs[] = {
    {"SetSize", "set_indices: int64; set_values: T; set_shape: int64", "size: int32",
     "validate_indices: bool = true; " SET_T, 0, tfc_shape_fn_none},
    {"DenseToDenseSetOperation", "set1: T; set2: T", "result_indices: int64; result_values: T; result_shape: int64",
     "set_operation: string; validate_indices: bool = true; " SET_T, 0, dense_dense_shape},
    {"DenseToSparseSetOperation", "set1: T; set2_indices: int64; set2_values: T; set2_shape: int64",
     "result_indices: int64; result_values: T; result_shape: int64",
     "set_operation: string; validate_indices: bool = true; " SET_T, 0, dense_sparse_shape},
    {"SparseToSparseSetOperation",
     "set1_indices: int64; set1_values: T; set1_shape: int64; set2_indices: int64; set2_values: T; "
     "set2_shape: int64",
     "result_indices: int64; result_values: T; result_shape: int64",
     "set_operation: string; validate_indices: bool = true; " SET_T, 0, sparse_sparse_shape},
};

const tfc_op_table tfc_ops_set = {specs, (int)(sizeof specs / sizeof specs[0])};
