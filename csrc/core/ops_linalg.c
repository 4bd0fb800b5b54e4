/*
 * ops_linalg.c — op definitions of the dense linear-algebra ops (TF's
 * linalg_ops.cc): Cholesky, MatrixInverse, MatrixDeterminant,
 * LogMatrixDeterminant, MatrixSolve, MatrixTriangularSolve,
 * SelfAdjointEigV2, Svd, Qr, with TF's attrs and shape rules.
 */
#include <string.h>

#include "core/op_registry.h"
#include "core/op_tables.h"

/* Fails unless s is a batch of matrices (square when `square`). */
static bool batch_matrix(tfc_shape_ctx *ctx, const tfc_shape *s, bool square) {
  if (s->rank < 0) return true;
  if (s->rank < 2) return tfc_shape_fail(ctx, "Shape must be at least rank 2 but is rank %d", s->rank);
  int64_t r = s->dims[s->rank - 2], c = s->dims[s->rank - 1];
  if (square && r >= 0 && c >= 0 && r != c)
    return tfc_shape_fail(ctx, "Dimensions must be equal, but are %lld and %lld", (long long)r,
                          (long long)c);
  return true;
}

/* Square batch in, same shape out (Cholesky, MatrixInverse). */
static bool shape_square_same(tfc_shape_ctx *ctx) {
  if (!batch_matrix(ctx, &ctx->in_shapes[0], true)) return false;
  ctx->out_shapes[0] = ctx->in_shapes[0];
  return true;
}

/* Square batch in, the batch shape out (each output). */
static bool shape_determinant(tfc_shape_ctx *ctx) {
  const tfc_shape *s = &ctx->in_shapes[0];
  if (!batch_matrix(ctx, s, true)) return false;
  tfc_shape out = tfc_shape_unknown();
  if (s->rank >= 2) {
    out = *s;
    out.rank -= 2;
  }
  for (int i = 0; i < ctx->n_outputs; i++) ctx->out_shapes[i] = out;
  return true;
}

/* MatrixSolve / MatrixTriangularSolve: the rhs's shape. */
static bool shape_solve(tfc_shape_ctx *ctx) {
  if (!batch_matrix(ctx, &ctx->in_shapes[0], true) ||
      !batch_matrix(ctx, &ctx->in_shapes[1], false))
    return false;
  const tfc_shape *a = &ctx->in_shapes[0], *b = &ctx->in_shapes[1];
  if (a->rank >= 2 && b->rank >= 2) {
    int64_t n = a->dims[a->rank - 1], rows = b->dims[b->rank - 2];
    if (n >= 0 && rows >= 0 && n != rows)
      return tfc_shape_fail(ctx, "Dimensions must be equal, but are %lld and %lld",
                            (long long)n, (long long)rows);
  }
  ctx->out_shapes[0] = *b;
  return true;
}

/* SelfAdjointEigV2: e [..., n], v [..., n, n] (or [0] without compute_v). */
static bool shape_eig(tfc_shape_ctx *ctx) {
  const tfc_shape *s = &ctx->in_shapes[0];
  if (!batch_matrix(ctx, s, true)) return false;
  const tfc_attr_value *cv = tfc_attrs_find(ctx->attrs, "compute_v");
  bool compute_v = !(cv && cv->kind == TFC_ATTR_B && !cv->v.b);
  if (s->rank >= 2) {
    tfc_shape e = *s;
    e.rank -= 1;
    ctx->out_shapes[0] = e;
  }
  if (compute_v) ctx->out_shapes[1] = *s;
  else {
    int64_t zero = 0;
    ctx->out_shapes[1] = tfc_shape_make(1, &zero);
  }
  return true;
}

/* Svd: s [..., p], u [..., m, m|p], v [..., n, n|p]; Qr: q [..., m, m|p], r [..., m|p, n]. */
static bool shape_factor(tfc_shape_ctx *ctx, bool svd) {
  const tfc_shape *s = &ctx->in_shapes[0];
  if (!batch_matrix(ctx, s, false)) return false;
  if (s->rank < 0) return true;
  const tfc_attr_value *fm = tfc_attrs_find(ctx->attrs, "full_matrices");
  const tfc_attr_value *cuv = tfc_attrs_find(ctx->attrs, "compute_uv");
  bool full = fm && fm->kind == TFC_ATTR_B && fm->v.b;
  bool compute_uv = !(cuv && cuv->kind == TFC_ATTR_B && !cuv->v.b);
  int64_t m = s->dims[s->rank - 2], n = s->dims[s->rank - 1];
  int64_t p = (m < 0 || n < 0) ? -1 : (m < n ? m : n);
  tfc_shape a = *s, b = *s;
  if (svd) {
    tfc_shape sv = *s;
    sv.rank -= 1;
    sv.dims[sv.rank - 1] = p;
    ctx->out_shapes[0] = sv;
    a.dims[s->rank - 1] = full ? m : p;
    b.dims[s->rank - 2] = n;
    b.dims[s->rank - 1] = full ? n : p;
    if (compute_uv) {
      ctx->out_shapes[1] = a;
      ctx->out_shapes[2] = b;
    } else {
      int64_t zero = 0;
      ctx->out_shapes[1] = ctx->out_shapes[2] = tfc_shape_make(1, &zero);
    }
  } else {
    a.dims[s->rank - 1] = full ? m : p;
    b.dims[s->rank - 2] = full ? m : p;
    ctx->out_shapes[0] = a;
    ctx->out_shapes[1] = b;
  }
  return true;
}

static bool shape_svd(tfc_shape_ctx *ctx) { return shape_factor(ctx, true); }
static bool shape_qr(tfc_shape_ctx *ctx) { return shape_factor(ctx, false); }

#define T_REAL "T: {double, float, half, complex64, complex128}"

static const tfc_op_spec specs[] = {
    {"Cholesky", "input: T", "output: T", T_REAL, 0, shape_square_same},
    {"MatrixInverse", "input: T", "output: T", "adjoint: bool = false; " T_REAL, 0,
     shape_square_same},
    {"MatrixDeterminant", "input: T", "output: T", T_REAL, 0, shape_determinant},
    {"LogMatrixDeterminant", "input: T", "sign: T; log_abs_determinant: T", T_REAL, 0,
     shape_determinant},
    {"MatrixSolve", "matrix: T; rhs: T", "output: T", "adjoint: bool = false; " T_REAL, 0,
     shape_solve},
    {"MatrixTriangularSolve", "matrix: T; rhs: T", "output: T",
     "lower: bool = true; adjoint: bool = false; " T_REAL, 0, shape_solve},
    {"SelfAdjointEigV2", "input: T", "e: T; v: T", "compute_v: bool = true; " T_REAL, 0,
     shape_eig},
    {"Svd", "input: T", "s: T; u: T; v: T",
     "compute_uv: bool = true; full_matrices: bool = false; " T_REAL, 0, shape_svd},
    {"Qr", "input: T", "q: T; r: T", "full_matrices: bool = false; " T_REAL, 0, shape_qr},
};

const tfc_op_table tfc_ops_linalg = {specs, (int)(sizeof specs / sizeof specs[0])};
