/*
 * ops_linalg_lu.c — op definitions of Lu, TridiagonalSolve,
 * TridiagonalMatMul and MatrixSquareRoot (TF's linalg_ops.cc), with TF's
 * attrs and shape rules.
 */
#include "core/op_registry.h"
#include "core/op_tables.h"

/* Lu: lu like the (square) input, p its batch shape plus n. */
static bool shape_lu(tfc_shape_ctx *ctx) {
  const tfc_shape *s = &ctx->in_shapes[0];
  ctx->out_shapes[0] = *s;
  ctx->out_shapes[1] = tfc_shape_unknown();
  if (s->rank < 0) return true;
  if (s->rank < 2) return tfc_shape_fail(ctx, "Shape must be at least rank 2 but is rank %d", s->rank);
  int64_t r = s->dims[s->rank - 2], c = s->dims[s->rank - 1];
  if (r >= 0 && c >= 0 && r != c)
    return tfc_shape_fail(ctx, "Dimensions must be equal, but are %lld and %lld", (long long)r, (long long)c);
  ctx->out_shapes[1] = *s;
  ctx->out_shapes[1].rank = s->rank - 1;
  ctx->out_shapes[1].dims[s->rank - 2] = c >= 0 ? c : r;
  return true;
}

/* MatrixSquareRoot: a square batch in, the same shape out. */
static bool shape_square(tfc_shape_ctx *ctx) {
  const tfc_shape *s = &ctx->in_shapes[0];
  ctx->out_shapes[0] = *s;
  if (s->rank < 0) return true;
  if (s->rank < 2) return tfc_shape_fail(ctx, "Shape must be at least rank 2 but is rank %d", s->rank);
  int64_t r = s->dims[s->rank - 2], c = s->dims[s->rank - 1];
  if (r >= 0 && c >= 0 && r != c)
    return tfc_shape_fail(ctx, "Dimensions must be equal, but are %lld and %lld", (long long)r, (long long)c);
  return true;
}

/* Tridiagonal ops: the rhs's shape (the last input). */
static bool shape_rhs(tfc_shape_ctx *ctx) {
  const tfc_shape *rhs = &ctx->in_shapes[ctx->n_inputs - 1];
  if (rhs->rank >= 0 && rhs->rank < 2)
    return tfc_shape_fail(ctx, "Shape must be at least rank 2 but is rank %d", rhs->rank);
  ctx->out_shapes[0] = *rhs;
  return true;
}

#define T_REAL "T: {double, float, half, complex64, complex128}"
#define T_TRI "T: {double, float, complex64, complex128}"

static const tfc_op_spec specs[] = {
    {"Lu", "input: T", "lu: T; p: output_idx_type", T_REAL "; output_idx_type: {int32, int64} = int32", 0,
     shape_lu},
    {"TridiagonalSolve", "diagonals: T; rhs: T", "output: T",
     "partial_pivoting: bool = true; perturb_singular: bool = false; " T_TRI, 0, shape_rhs},
    {"TridiagonalMatMul", "superdiag: T; maindiag: T; subdiag: T; rhs: T", "output: T", T_TRI, 0, shape_rhs},
    {"MatrixSquareRoot", "input: T", "output: T", T_REAL, 0, shape_square},
};

const tfc_op_table tfc_ops_linalg_lu = {specs, (int)(sizeof specs / sizeof specs[0])};
