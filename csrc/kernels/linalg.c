/*
 * linalg.c — CPU kernels of the dense linear-algebra ops through LAPACK
 * (OpenBLAS's, looked up in the library kernels/blas.c loads on first use):
 * Cholesky, MatrixInverse, MatrixDeterminant, LogMatrixDeterminant,
 * MatrixSolve, MatrixTriangularSolve, SelfAdjointEigV2, Svd, Qr.
 *
 * Inputs are batches of row-major matrices [..., m, n]. Each matrix is copied
 * into a column-major double buffer, factorised with the double-precision
 * routine, and written back (float inputs are computed in double and rounded
 * once). Matrices of a batch run in parallel on the intra-op pool. Failures
 * use TF's messages; without LAPACK the ops fail with UNIMPLEMENTED.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "core/dtype.h"
#include "kernels/blas.h"
#include "kernels/kernel.h"
#include "kernels/kernel_tables.h"

typedef void (*potrf_fn)(const char *, const int *, double *, const int *, int *);
typedef void (*getrf_fn)(const int *, const int *, double *, const int *, int *, int *);
typedef void (*getri_fn)(const int *, double *, const int *, const int *, double *, const int *,
                         int *);
typedef void (*getrs_fn)(const char *, const int *, const int *, const double *, const int *,
                         const int *, double *, const int *, int *);
typedef void (*syevd_fn)(const char *, const char *, const int *, double *, const int *, double *,
                         double *, const int *, int *, const int *, int *);
typedef void (*gesdd_fn)(const char *, const int *, const int *, double *, const int *, double *,
                         double *, const int *, double *, const int *, double *, const int *,
                         int *, int *);
typedef void (*geqrf_fn)(const int *, const int *, double *, const int *, double *, double *,
                         const int *, int *);
typedef void (*orgqr_fn)(const int *, const int *, const int *, double *, const int *,
                         const double *, double *, const int *, int *);

/* LAPACK entry points (resolved per call: dlsym after the first load is cheap). */
typedef struct lapack {
  potrf_fn potrf;
  getrf_fn getrf;
  getri_fn getri;
  getrs_fn getrs;
  syevd_fn syevd;
  gesdd_fn gesdd;
  geqrf_fn geqrf;
  orgqr_fn orgqr;
} lapack;

/* Fills *lp; false + ctx failed when the library lacks LAPACK. */
static bool lapack_get(tfc_kernel_ctx *ctx, lapack *lp) {
  static const char *const names[8] = {"dpotrf_", "dgetrf_", "dgetri_", "dgetrs_",
                                       "dsyevd_", "dgesdd_", "dgeqrf_", "dorgqr_"};
  void *p[8];
  for (int i = 0; i < 8; i++) {
    p[i] = tfc_blas_symbol(names[i]);
    if (p[i] == NULL)
      return tfc_kernel_fail(ctx, TFC_CODE_UNIMPLEMENTED,
                             "%s needs LAPACK (%s), which the loaded BLAS does not provide",
                             ctx->op_type, names[i]);
  }
  memcpy(&lp->potrf, &p[0], sizeof p[0]);
  memcpy(&lp->getrf, &p[1], sizeof p[1]);
  memcpy(&lp->getri, &p[2], sizeof p[2]);
  memcpy(&lp->getrs, &p[3], sizeof p[3]);
  memcpy(&lp->syevd, &p[4], sizeof p[4]);
  memcpy(&lp->gesdd, &p[5], sizeof p[5]);
  memcpy(&lp->geqrf, &p[6], sizeof p[6]);
  memcpy(&lp->orgqr, &p[7], sizeof p[7]);
  return true;
}

/* Element k of a float/double tensor as double; stores v at k. */
static inline double get(const tfc_tensor *t, int64_t k) {
  return t->dtype == TFC_DTYPE_FLOAT ? (double)((const float *)t->data)[k]
                                     : ((const double *)t->data)[k];
}
static inline void put(tfc_tensor *t, int64_t k, double v) {
  if (t->dtype == TFC_DTYPE_FLOAT) ((float *)t->data)[k] = (float)v;
  else ((double *)t->data)[k] = v;
}

/* Copies matrix b (rows x cols, row-major at offset off of t) into the
 * column-major buffer c (leading dimension rows), transposed when trans. */
static void to_colmajor(const tfc_tensor *t, int64_t off, int64_t rows, int64_t cols, bool trans,
                        double *c) {
  for (int64_t i = 0; i < rows; i++)
    for (int64_t j = 0; j < cols; j++) {
      double v = get(t, off + i * cols + j);
      if (trans) c[j + i * cols] = v;  /* the transpose: cols x rows, ld cols */
      else c[i + j * rows] = v;
    }
}

/* Checks input 0 is a batch of matrices (square when `square`); fills
 * rows/cols/batch. false + ctx failed otherwise. */
static bool matrices(tfc_kernel_ctx *ctx, const tfc_tensor *t, bool square, int64_t *rows,
                     int64_t *cols, int64_t *batch) {
  if (t->rank < 2)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "Input tensor 0 must have rank >= 2, got %d", t->rank);
  *rows = t->dims[t->rank - 2];
  *cols = t->dims[t->rank - 1];
  if (square && *rows != *cols)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "Input matrix must be square, got %lld x %lld", (long long)*rows,
                           (long long)*cols);
  if (*rows > 46340 || *cols > 46340)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Input matrix is too large");
  *batch = 1;
  for (int d = 0; d < t->rank - 2; d++) *batch *= t->dims[d];
  return true;
}

/* ------------------------------------------------------------------ Cholesky */

/* Cholesky: L lower triangular with A = L L^T (the lower triangle of A is read). */
static void cholesky_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *a = ctx->inputs[0];
  int64_t n, n2, batch;
  lapack lp = {0};
  if (!matrices(ctx, a, true, &n, &n2, &batch) || !lapack_get(ctx, &lp)) return;
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, a->dtype, a->rank, a->dims);
  if (out == NULL || n == 0) return;
  double *c = tfc_malloc((size_t)(n * n) * sizeof *c);
  if (c == NULL) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in Cholesky");
    return;
  }
  int ni = (int)n, info = 0;
  for (int64_t b = 0; b < batch; b++) {
    int64_t off = b * n * n;
    to_colmajor(a, off, n, n, false, c);
    lp.potrf("L", &ni, c, &ni, &info);
    if (info != 0) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                      "Cholesky decomposition was not successful. The input might not be valid.");
      break;
    }
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j < n; j++) put(out, off + i * n + j, j <= i ? c[i + j * n] : 0.0);
  }
  tfc_free(c);
}

/* ---------------------------------------------- LU: inverse, determinant, solve */

/* MatrixInverse (adjoint: of A^T). */
static void matrix_inverse_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *a = ctx->inputs[0];
  int64_t n, n2, batch;
  lapack lp = {0};
  if (!matrices(ctx, a, true, &n, &n2, &batch) || !lapack_get(ctx, &lp)) return;
  const tfc_attr_value *adj = tfc_attrs_find(ctx->attrs, "adjoint");
  bool adjoint = adj && adj->kind == TFC_ATTR_B && adj->v.b;
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, a->dtype, a->rank, a->dims);
  if (out == NULL || n == 0) return;
  int ni = (int)n, info = 0, lwork = (int)(64 * n);
  double *c = tfc_malloc((size_t)(n * n + lwork) * sizeof *c);
  int *ipiv = tfc_malloc((size_t)n * sizeof *ipiv);
  if (c == NULL || ipiv == NULL) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in MatrixInverse");
  } else {
    for (int64_t b = 0; b < batch; b++) {
      int64_t off = b * n * n;
      to_colmajor(a, off, n, n, adjoint, c);
      lp.getrf(&ni, &ni, c, &ni, ipiv, &info);
      if (info == 0) lp.getri(&ni, c, &ni, ipiv, c + n * n, &lwork, &info);
      if (info != 0) {
        tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Input is not invertible.");
        break;
      }
      for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++) put(out, off + i * n + j, c[i + j * n]);
    }
  }
  tfc_free(c);
  tfc_free(ipiv);
}

/* Shared by MatrixDeterminant and LogMatrixDeterminant: sign and log|det| of
 * each matrix (sign 0 and log -inf for a singular one). */
static void determinants(tfc_kernel_ctx *ctx, bool log_form) {
  const tfc_tensor *a = ctx->inputs[0];
  int64_t n, n2, batch;
  lapack lp = {0};
  if (!matrices(ctx, a, true, &n, &n2, &batch) || !lapack_get(ctx, &lp)) return;
  tfc_tensor *o0 = tfc_kernel_alloc_output(ctx, 0, a->dtype, a->rank - 2, a->dims);
  tfc_tensor *o1 = log_form && o0 ? tfc_kernel_alloc_output(ctx, 1, a->dtype, a->rank - 2, a->dims)
                                  : NULL;
  if (o0 == NULL || (log_form && o1 == NULL)) return;
  int ni = (int)n, info = 0;
  double *c = tfc_malloc((size_t)(n * n > 0 ? n * n : 1) * sizeof *c);
  int *ipiv = tfc_malloc((size_t)(n > 0 ? n : 1) * sizeof *ipiv);
  if (c == NULL || ipiv == NULL) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in %s", ctx->op_type);
  } else {
    for (int64_t b = 0; b < batch; b++) {
      double sign = 1.0, logdet = 0.0;
      if (n > 0) {
        to_colmajor(a, b * n * n, n, n, false, c);
        lp.getrf(&ni, &ni, c, &ni, ipiv, &info);
        for (int64_t i = 0; i < n; i++) {
          double d = c[i + i * n];
          if (ipiv[i] != i + 1) sign = -sign;
          if (d < 0) sign = -sign;
          logdet += log(fabs(d));
          if (d == 0) sign = 0.0;
        }
        if (sign == 0.0) logdet = -INFINITY;
      }
      if (log_form) {
        put(o0, b, sign);
        put(o1, b, logdet);
      } else {
        put(o0, b, sign == 0.0 ? 0.0 : sign * exp(logdet));
      }
    }
  }
  tfc_free(c);
  tfc_free(ipiv);
}

static void matrix_determinant_compute(tfc_kernel_ctx *ctx) { determinants(ctx, false); }
static void log_matrix_determinant_compute(tfc_kernel_ctx *ctx) { determinants(ctx, true); }

/* MatrixSolve: X with A X = B (adjoint: A^T X = B); A [..., n, n], B [..., n, k]. */
static void matrix_solve_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *a = ctx->inputs[0], *rhs = ctx->inputs[1];
  int64_t n, n2, batch;
  lapack lp = {0};
  if (!matrices(ctx, a, true, &n, &n2, &batch) || !lapack_get(ctx, &lp)) return;
  if (rhs->rank != a->rank || rhs->dims[rhs->rank - 2] != n) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Input matrix and right-hand side must have the same number of rows");
    return;
  }
  for (int d = 0; d < a->rank - 2; d++)
    if (a->dims[d] != rhs->dims[d]) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "All input tensors must have the same "
                      "outer dimensions.");
      return;
    }
  const tfc_attr_value *adj = tfc_attrs_find(ctx->attrs, "adjoint");
  bool adjoint = adj && adj->kind == TFC_ATTR_B && adj->v.b;
  int64_t k = rhs->dims[rhs->rank - 1];
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, a->dtype, rhs->rank, rhs->dims);
  if (out == NULL || n == 0 || k == 0) return;
  int ni = (int)n, ki = (int)k, info = 0;
  double *c = tfc_malloc((size_t)(n * n + n * k) * sizeof *c);
  int *ipiv = tfc_malloc((size_t)n * sizeof *ipiv);
  if (c == NULL || ipiv == NULL) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in MatrixSolve");
  } else {
    double *bb = c + n * n;
    for (int64_t b = 0; b < batch; b++) {
      to_colmajor(a, b * n * n, n, n, false, c);
      to_colmajor(rhs, b * n * k, n, k, false, bb);
      lp.getrf(&ni, &ni, c, &ni, ipiv, &info);
      if (info != 0) {
        tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Input matrix is not invertible.");
        break;
      }
      lp.getrs(adjoint ? "T" : "N", &ni, &ki, c, &ni, ipiv, bb, &ni, &info);
      for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < k; j++) put(out, b * n * k + i * k + j, bb[i + j * n]);
    }
  }
  tfc_free(c);
  tfc_free(ipiv);
}

/* MatrixTriangularSolve: X with op(A) X = B for the lower (or upper)
 * triangle of A, by substitution (no singularity check, as TF). */
static void matrix_triangular_solve_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *a = ctx->inputs[0], *rhs = ctx->inputs[1];
  int64_t n, n2, batch;
  if (!matrices(ctx, a, true, &n, &n2, &batch)) return;
  if (rhs->rank != a->rank || rhs->dims[rhs->rank - 2] != n) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Input matrix and right-hand side must have the same number of rows");
    return;
  }
  const tfc_attr_value *lo = tfc_attrs_find(ctx->attrs, "lower");
  const tfc_attr_value *adj = tfc_attrs_find(ctx->attrs, "adjoint");
  bool lower = !(lo && lo->kind == TFC_ATTR_B && !lo->v.b);
  bool adjoint = adj && adj->kind == TFC_ATTR_B && adj->v.b;
  int64_t k = rhs->dims[rhs->rank - 1];
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, a->dtype, rhs->rank, rhs->dims);
  if (out == NULL) return;
  /* op(A) is lower triangular when lower != adjoint: forward substitution */
  bool forward = lower != adjoint;
  for (int64_t b = 0; b < batch; b++) {
    int64_t ao = b * n * n, bo = b * n * k;
    for (int64_t j = 0; j < k; j++) {
      for (int64_t s = 0; s < n; s++) {
        int64_t i = forward ? s : n - 1 - s;
        double acc = get(rhs, bo + i * k + j);
        for (int64_t t = 0; t < s; t++) {
          int64_t p = forward ? t : n - 1 - t;
          double aip = adjoint ? get(a, ao + p * n + i) : get(a, ao + i * n + p);
          acc -= aip * get(out, bo + p * k + j);
        }
        put(out, bo + i * k + j, acc / get(a, ao + i * n + i));
      }
    }
  }
}

/* ----------------------------------------------------- eigen, SVD, QR */

/* SelfAdjointEigV2: ascending eigenvalues e and (compute_v) eigenvectors as
 * the columns of v, from the lower triangle. */
static void self_adjoint_eig_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *a = ctx->inputs[0];
  int64_t n, n2, batch;
  lapack lp = {0};
  if (!matrices(ctx, a, true, &n, &n2, &batch) || !lapack_get(ctx, &lp)) return;
  const tfc_attr_value *cv = tfc_attrs_find(ctx->attrs, "compute_v");
  bool compute_v = !(cv && cv->kind == TFC_ATTR_B && !cv->v.b);
  tfc_tensor *e = tfc_kernel_alloc_output(ctx, 0, a->dtype, a->rank - 1, a->dims);
  int64_t vdims[TFC_MAX_RANK];
  memcpy(vdims, a->dims, sizeof(int64_t) * (size_t)a->rank);
  if (!compute_v) vdims[a->rank - 1] = vdims[a->rank - 2] = 0;
  tfc_tensor *v = e ? tfc_kernel_alloc_output(ctx, 1, a->dtype, compute_v ? a->rank : 1,
                                              compute_v ? vdims : vdims + a->rank - 1)
                    : NULL;
  if (v == NULL || n == 0) return;
  int ni = (int)n, info = 0, lwork = (int)(1 + 6 * n + 2 * n * n), liwork = (int)(3 + 5 * n);
  double *c = tfc_malloc((size_t)(n * n + n + lwork) * sizeof *c);
  int *iwork = tfc_malloc((size_t)liwork * sizeof *iwork);
  if (c == NULL || iwork == NULL) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in SelfAdjointEigV2");
  } else {
    double *w = c + n * n, *work = w + n;
    for (int64_t b = 0; b < batch; b++) {
      to_colmajor(a, b * n * n, n, n, false, c);
      lp.syevd(compute_v ? "V" : "N", "L", &ni, c, &ni, w, work, &lwork, iwork, &liwork, &info);
      if (info != 0) {
        tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Self-adjoint eigen decomposition was "
                        "not successful. The input might not be valid.");
        break;
      }
      for (int64_t i = 0; i < n; i++) put(e, b * n + i, w[i]);
      if (compute_v)
        for (int64_t i = 0; i < n; i++)
          for (int64_t j = 0; j < n; j++) put(v, b * n * n + i * n + j, c[i + j * n]);
    }
  }
  tfc_free(c);
  tfc_free(iwork);
}

/* Svd: singular values s (descending) and, with compute_uv, u and v with
 * A = u diag(s) v^T (thin unless full_matrices). */
static void svd_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *a = ctx->inputs[0];
  int64_t m, n, batch;
  lapack lp = {0};
  if (!matrices(ctx, a, false, &m, &n, &batch) || !lapack_get(ctx, &lp)) return;
  const tfc_attr_value *cuv = tfc_attrs_find(ctx->attrs, "compute_uv");
  const tfc_attr_value *fm = tfc_attrs_find(ctx->attrs, "full_matrices");
  bool compute_uv = !(cuv && cuv->kind == TFC_ATTR_B && !cuv->v.b);
  bool full = fm && fm->kind == TFC_ATTR_B && fm->v.b;
  int64_t p = m < n ? m : n, ucols = full ? m : p, vcols = full ? n : p;
  int64_t dims[TFC_MAX_RANK];
  memcpy(dims, a->dims, sizeof(int64_t) * (size_t)a->rank);
  dims[a->rank - 2] = p;
  tfc_tensor *s = tfc_kernel_alloc_output(ctx, 0, a->dtype, a->rank - 1, dims);
  if (s == NULL) return;
  int64_t ud[TFC_MAX_RANK], vd[TFC_MAX_RANK];
  memcpy(ud, a->dims, sizeof ud[0] * (size_t)a->rank);
  memcpy(vd, a->dims, sizeof vd[0] * (size_t)a->rank);
  ud[a->rank - 2] = m;
  ud[a->rank - 1] = ucols;
  vd[a->rank - 2] = n;
  vd[a->rank - 1] = vcols;
  int64_t zero = 0;
  tfc_tensor *u = compute_uv ? tfc_kernel_alloc_output(ctx, 1, a->dtype, a->rank, ud)
                             : tfc_kernel_alloc_output(ctx, 1, a->dtype, 1, &zero);
  tfc_tensor *v = u ? (compute_uv ? tfc_kernel_alloc_output(ctx, 2, a->dtype, a->rank, vd)
                                  : tfc_kernel_alloc_output(ctx, 2, a->dtype, 1, &zero))
                    : NULL;
  if (v == NULL || p == 0) return;
  int mi = (int)m, ni = (int)n, info = 0;
  int ldvt = (int)vcols;
  int lwork = (int)(3 * p * p + 4 * p * p + 4 * p + (m > n ? m : n) * 8 + 64);
  size_t need = (size_t)(m * n + p + m * ucols + vcols * n + lwork);
  double *c = tfc_malloc(need * sizeof *c);
  int *iwork = tfc_malloc((size_t)(8 * p) * sizeof *iwork);
  if (c == NULL || iwork == NULL) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in Svd");
  } else {
    double *sv = c + m * n, *uu = sv + p, *vt = uu + m * ucols, *work = vt + vcols * n;
    const char *jobz = compute_uv ? (full ? "A" : "S") : "N";
    for (int64_t b = 0; b < batch; b++) {
      to_colmajor(a, b * m * n, m, n, false, c);
      lp.gesdd(jobz, &mi, &ni, c, &mi, sv, uu, &mi, vt, &ldvt, work, &lwork, iwork, &info);
      if (info != 0) {
        tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "SVD decomposition was not "
                        "successful. The input might not be valid.");
        break;
      }
      for (int64_t i = 0; i < p; i++) put(s, b * p + i, sv[i]);
      if (!compute_uv) continue;
      for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < ucols; j++) put(u, b * m * ucols + i * ucols + j, uu[i + j * m]);
      /* v[i][j] = vt[j][i]; vt is vcols x n, column-major with ld vcols */
      for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < vcols; j++)
          put(v, b * n * vcols + i * vcols + j, vt[j + i * vcols]);
    }
  }
  tfc_free(c);
  tfc_free(iwork);
}

/* Qr: A = q r with q's columns orthonormal and r upper triangular (thin
 * unless full_matrices). */
static void qr_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *a = ctx->inputs[0];
  int64_t m, n, batch;
  lapack lp = {0};
  if (!matrices(ctx, a, false, &m, &n, &batch) || !lapack_get(ctx, &lp)) return;
  const tfc_attr_value *fm = tfc_attrs_find(ctx->attrs, "full_matrices");
  bool full = fm && fm->kind == TFC_ATTR_B && fm->v.b;
  int64_t p = m < n ? m : n, qcols = full ? m : p, rrows = full ? m : p;
  int64_t qd[TFC_MAX_RANK], rd[TFC_MAX_RANK];
  memcpy(qd, a->dims, sizeof qd[0] * (size_t)a->rank);
  memcpy(rd, a->dims, sizeof rd[0] * (size_t)a->rank);
  qd[a->rank - 1] = qcols;
  rd[a->rank - 2] = rrows;
  tfc_tensor *q = tfc_kernel_alloc_output(ctx, 0, a->dtype, a->rank, qd);
  tfc_tensor *r = q ? tfc_kernel_alloc_output(ctx, 1, a->dtype, a->rank, rd) : NULL;
  if (r == NULL || m == 0) return;
  int mi = (int)m, ni = (int)n, pi = (int)p, qi = (int)qcols, info = 0;
  int lwork = (int)(64 * (m > n ? m : n) + 64);
  int64_t qbuf = m * (qcols > n ? qcols : n);
  double *c = tfc_malloc((size_t)(qbuf + p + lwork) * sizeof *c);
  if (c == NULL) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in Qr");
    return;
  }
  double *tau = c + qbuf, *work = tau + p;
  for (int64_t b = 0; b < batch; b++) {
    to_colmajor(a, b * m * n, m, n, false, c);
    if (n > 0) lp.geqrf(&mi, &ni, c, &mi, tau, work, &lwork, &info);
    for (int64_t i = 0; i < rrows; i++)
      for (int64_t j = 0; j < n; j++)
        put(r, b * rrows * n + i * n + j, (j >= i && i < m) ? c[i + j * m] : 0.0);
    if (qcols > 0) {
      if (n > 0) lp.orgqr(&mi, &qi, &pi, c, &mi, tau, work, &lwork, &info);
      else
        for (int64_t i = 0; i < m * qcols; i++) c[i] = (i % (m + 1)) == 0 ? 1.0 : 0.0;
    }
    if (info != 0) {
      tfc_kernel_fail(ctx, TFC_CODE_INTERNAL, "QR decomposition failed (LAPACK info %d)", info);
      break;
    }
    for (int64_t i = 0; i < m; i++)
      for (int64_t j = 0; j < qcols; j++) put(q, b * m * qcols + i * qcols + j, c[i + j * m]);
  }
  tfc_free(c);
}

/* ------------------------------------------------------------------ table */

static const tfc_dtype real_types[] = {TFC_DTYPE_FLOAT, TFC_DTYPE_DOUBLE, TFC_DTYPE_INVALID};

static const tfc_kernel_def defs[] = {
    {"Cholesky", "CPU", "T", real_types, NULL, cholesky_compute, NULL, 0},
    {"MatrixInverse", "CPU", "T", real_types, NULL, matrix_inverse_compute, NULL, 0},
    {"MatrixDeterminant", "CPU", "T", real_types, NULL, matrix_determinant_compute, NULL, 0},
    {"LogMatrixDeterminant", "CPU", "T", real_types, NULL, log_matrix_determinant_compute, NULL,
     0},
    {"MatrixSolve", "CPU", "T", real_types, NULL, matrix_solve_compute, NULL, 0},
    {"MatrixTriangularSolve", "CPU", "T", real_types, NULL, matrix_triangular_solve_compute,
     NULL, 0},
    {"SelfAdjointEigV2", "CPU", "T", real_types, NULL, self_adjoint_eig_compute, NULL, 0},
    {"Svd", "CPU", "T", real_types, NULL, svd_compute, NULL, 0},
    {"Qr", "CPU", "T", real_types, NULL, qr_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_linalg = {defs, (int)(sizeof defs / sizeof defs[0])};
