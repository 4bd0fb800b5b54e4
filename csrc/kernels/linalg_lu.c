/*
 * linalg_lu.c — CPU kernels of Lu (LAPACK getrf of the lazily loaded
 * OpenBLAS: L and U packed in one matrix plus the row permutation) and of
 * the tridiagonal ops TridiagonalSolve (Gaussian elimination with partial
 * pivoting, or the Thomas algorithm without) and TridiagonalMatMul.
 *
 * Batches of row-major matrices [..., m, n]; each is computed in double and
 * rounded once for float inputs. Failures use TF's messages.
 */
#include <math.h>
#include <string.h>

#include "base/alloc.h"
#include "core/dtype.h"
#include "kernels/blas.h"
#include "kernels/kernel.h"
#include "kernels/kernel_tables.h"

typedef void (*getrf_fn)(const int *, const int *, double *, const int *, int *, int *);

/* Element k of a float/double tensor as double. */
static inline double get(const tfc_tensor *t, int64_t k) {
  return t->dtype == TFC_DTYPE_FLOAT ? (double)((const float *)t->data)[k] : ((const double *)t->data)[k];
}

/* Stores v at element k of a float/double tensor. */
static inline void put(tfc_tensor *t, int64_t k, double v) {
  if (t->dtype == TFC_DTYPE_FLOAT) ((float *)t->data)[k] = (float)v;
  else ((double *)t->data)[k] = v;
}

/* Product of dims[0..rank-2) (the batch size). */
static int64_t outer(const tfc_tensor *t, int keep) {
  int64_t b = 1;
  for (int d = 0; d < t->rank - keep; d++) b *= t->dims[d];
  return b;
}

/* ------------------------------------------------------------------ Lu */

/* Lu: for each square matrix A, lu holds U on and above the diagonal and
 * L's multipliers below it (L has a unit diagonal), and p the row
 * permutation with A[p] = L U. */
static void lu_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *a = ctx->inputs[0];
  if (a->rank < 2) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Input must have rank >= 2, got %d", a->rank);
    return;
  }
  int64_t n = a->dims[a->rank - 1];
  if (a->dims[a->rank - 2] != n) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Input matrices must be squares, got %lld != %lld",
                    (long long)a->dims[a->rank - 2], (long long)n);
    return;
  }
  if (n > 46340) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Input matrix is too large");
    return;
  }
  const tfc_attr_value *it = tfc_attrs_find(ctx->attrs, "output_idx_type");
  tfc_dtype idx = it && it->kind == TFC_ATTR_TYPE ? it->v.type : TFC_DTYPE_INT32;
  tfc_tensor *lu = tfc_kernel_alloc_output(ctx, 0, a->dtype, a->rank, a->dims);
  tfc_tensor *p = lu ? tfc_kernel_alloc_output(ctx, 1, idx, a->rank - 1, a->dims) : NULL;
  if (!p || n == 0) return;
  void *sym = tfc_blas_symbol("dgetrf_");
  if (!sym) {
    tfc_kernel_fail(ctx, TFC_CODE_UNIMPLEMENTED, "Lu needs LAPACK (dgetrf_), which the loaded BLAS does not provide");
    return;
  }
  getrf_fn getrf;
  memcpy(&getrf, &sym, sizeof sym);
  double *c = tfc_malloc((size_t)(n * n) * sizeof *c);
  int *ipiv = tfc_malloc((size_t)n * sizeof *ipiv);
  int64_t *perm = tfc_malloc((size_t)n * sizeof *perm);
  if (!c || !ipiv || !perm) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in Lu");
  } else {
    int ni = (int)n, info = 0;
    int64_t batch = outer(a, 2);
    for (int64_t b = 0; b < batch; b++) {
      int64_t off = b * n * n;
      for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++) c[i + j * n] = get(a, off + i * n + j);
      getrf(&ni, &ni, c, &ni, ipiv, &info);
      bool singular = info > 0;
      for (int64_t i = 0; i < n; i++) singular = singular || !(fabs(c[i + i * n]) > 0);
      if (info < 0 || singular) {
        tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Input is not invertible.");
        break;
      }
      for (int64_t i = 0; i < n; i++) perm[i] = i;
      for (int64_t i = 0; i < n; i++) {
        int64_t k = ipiv[i] - 1, t = perm[i];
        perm[i] = perm[k];
        perm[k] = t;
      }
      for (int64_t i = 0; i < n; i++) {
        for (int64_t j = 0; j < n; j++) put(lu, off + i * n + j, c[i + j * n]);
        if (idx == TFC_DTYPE_INT64) ((int64_t *)p->data)[b * n + i] = perm[i];
        else ((int32_t *)p->data)[b * n + i] = (int32_t)perm[i];
      }
    }
  }
  tfc_free(c);
  tfc_free(ipiv);
  tfc_free(perm);
}

/* ---------------------------------------------------------- tridiagonal */

/* Solves one system in place: du, d, dl (n each; du[n-1] and dl[0] unused,
 * as in TF's compact format) and x (n x k, row-major; the rhs on entry).
 * Partial pivoting is LAPACK gtsv's elimination; without it, the Thomas
 * algorithm. du2 is scratch of n. Returns false when a pivot is zero. */
static bool tridiag_solve(double *du, double *d, double *dl, double *x, int64_t n, int64_t k, bool pivot,
                          double *du2) {
  for (int64_t i = 0; i + 1 < n; i++) {
    double *r0 = x + i * k, *r1 = r0 + k;
    if (!pivot || fabs(d[i]) >= fabs(dl[i + 1])) {
      if (d[i] == 0) return false;
      double f = dl[i + 1] / d[i];
      d[i + 1] -= f * du[i];
      for (int64_t j = 0; j < k; j++) r1[j] -= f * r0[j];
      du2[i] = 0;
    } else {
      double f = d[i] / dl[i + 1];
      d[i] = dl[i + 1];
      double t = d[i + 1];
      d[i + 1] = du[i] - f * t;
      if (i + 2 < n) {
        du2[i] = du[i + 1];
        du[i + 1] = -f * du2[i];
      } else {
        du2[i] = 0;
      }
      du[i] = t;
      for (int64_t j = 0; j < k; j++) {
        double v = r0[j];
        r0[j] = r1[j];
        r1[j] = v - f * r1[j];
      }
    }
  }
  if (n > 0 && d[n - 1] == 0) return false;
  for (int64_t i = n - 1; i >= 0; i--) {
    double *r = x + i * k;
    for (int64_t j = 0; j < k; j++) {
      double v = r[j];
      if (i + 1 < n) v -= du[i] * x[(i + 1) * k + j];
      if (i + 2 < n) v -= du2[i] * x[(i + 2) * k + j];
      r[j] = v / d[i];
    }
  }
  return true;
}

/* TridiagonalSolve: diagonals [..., 3, n] (super, main, sub), rhs [..., n, k]. */
static void tridiagonal_solve_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *dg = ctx->inputs[0], *rhs = ctx->inputs[1];
  if (dg->rank < 2 || dg->dims[dg->rank - 2] != 3) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Expected diagonals to be provided as a tensor with shape "
                    "[..., 3, num_rows].");
    return;
  }
  int64_t n = dg->dims[dg->rank - 1];
  if (rhs->rank != dg->rank || rhs->dims[rhs->rank - 2] != n) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Expected rhs to have shape [..., %lld, num_rhs] matching the "
                    "diagonals' batch shape.", (long long)n);
    return;
  }
  for (int d = 0; d < dg->rank - 2; d++)
    if (dg->dims[d] != rhs->dims[d]) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Batch shapes of diagonals and rhs are incompatible");
      return;
    }
  const tfc_attr_value *pp = tfc_attrs_find(ctx->attrs, "partial_pivoting");
  const tfc_attr_value *ps = tfc_attrs_find(ctx->attrs, "perturb_singular");
  bool pivot = !(pp && pp->kind == TFC_ATTR_B && !pp->v.b);
  if (ps && ps->kind == TFC_ATTR_B && ps->v.b) {
    tfc_kernel_fail(ctx, TFC_CODE_UNIMPLEMENTED, "TridiagonalSolve with perturb_singular is not supported");
    return;
  }
  int64_t k = rhs->dims[rhs->rank - 1];
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, rhs->dtype, rhs->rank, rhs->dims);
  if (!out || n == 0) return;
  double *buf = tfc_malloc((size_t)(4 * n + n * k + 1) * sizeof *buf);
  if (!buf) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in TridiagonalSolve");
    return;
  }
  double *du = buf, *d = du + n, *dl = d + n, *du2 = dl + n, *x = du2 + n;
  int64_t batch = outer(dg, 2);
  for (int64_t b = 0; b < batch; b++) {
    for (int64_t i = 0; i < n; i++) {
      du[i] = get(dg, b * 3 * n + i);
      d[i] = get(dg, b * 3 * n + n + i);
      dl[i] = get(dg, b * 3 * n + 2 * n + i);
    }
    for (int64_t i = 0; i < n * k; i++) x[i] = get(rhs, b * n * k + i);
    if (!tridiag_solve(du, d, dl, x, n, k, pivot, du2)) {
      if (n == 1) tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "The matrix is not invertible: it is a scalar with value zero.");
      else if (pivot) tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "The matrix is not invertible.");
      else
        tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "The matrix is either not invertible, or requires pivoting. "
                        "Try setting partial_pivoting = True.");
      break;
    }
    for (int64_t i = 0; i < n * k; i++) put(out, b * n * k + i, x[i]);
  }
  tfc_free(buf);
}

/* TridiagonalMatMul: superdiag, maindiag, subdiag [..., 1, n], rhs [..., n, k]:
 * out[i] = sub[i] rhs[i-1] + main[i] rhs[i] + super[i] rhs[i+1]. */
static void tridiagonal_matmul_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *sup = ctx->inputs[0], *mid = ctx->inputs[1], *sub = ctx->inputs[2], *rhs = ctx->inputs[3];
  if (rhs->rank < 2) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Input must have rank >= 2, but got %d", rhs->rank);
    return;
  }
  int64_t n = rhs->dims[rhs->rank - 2], k = rhs->dims[rhs->rank - 1];
  const tfc_tensor *diags[3] = {sup, mid, sub};
  for (int i = 0; i < 3; i++) {
    const tfc_tensor *t = diags[i];
    bool ok = t->rank == rhs->rank && t->dims[t->rank - 2] == 1 && t->dims[t->rank - 1] == n;
    for (int d = 0; ok && d < t->rank - 2; d++) ok = t->dims[d] == rhs->dims[d];
    if (!ok) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Expected %s to have shape [..., 1, %lld] matching rhs",
                      i == 0 ? "superdiag" : i == 1 ? "maindiag" : "subdiag", (long long)n);
      return;
    }
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, rhs->dtype, rhs->rank, rhs->dims);
  if (!out) return;
  int64_t batch = outer(rhs, 2);
  for (int64_t b = 0; b < batch; b++)
    for (int64_t i = 0; i < n; i++) {
      double u = get(sup, b * n + i), m = get(mid, b * n + i), l = get(sub, b * n + i);
      for (int64_t j = 0; j < k; j++) {
        int64_t o = b * n * k + i * k + j;
        double v = m * get(rhs, o);
        if (i > 0) v += l * get(rhs, o - k);
        if (i + 1 < n) v += u * get(rhs, o + k);
        put(out, o, v);
      }
    }
}

static const tfc_dtype real_types[] = {TFC_DTYPE_FLOAT, TFC_DTYPE_DOUBLE, TFC_DTYPE_INVALID};

static const tfc_kernel_def defs[] = {
    {"Lu", "CPU", "T", real_types, NULL, lu_compute, NULL, 0},
    {"TridiagonalSolve", "CPU", "T", real_types, NULL, tridiagonal_solve_compute, NULL, 0},
    {"TridiagonalMatMul", "CPU", "T", real_types, NULL, tridiagonal_matmul_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_linalg_lu = {defs, (int)(sizeof defs / sizeof defs[0])};
