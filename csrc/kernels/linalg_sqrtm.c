/*
 * linalg_sqrtm.c — CPU kernel of MatrixSquareRoot for real matrices: the
 * principal square root by the real Schur method (Higham 1987), as Eigen's
 * MatrixSquareRoot which TF's kernel runs. A = Z T Z^T (LAPACK dgees of the
 * lazily loaded OpenBLAS; T quasi upper triangular with 2x2 blocks for
 * complex eigenvalue pairs), R with R R = T block by block (1x1: sqrt;
 * 2x2: alpha I + (B - theta I) / (2 alpha); off-diagonal blocks from small
 * Sylvester equations), then Z R Z^T. A negative real eigenvalue has no
 * real square root: the result holds NaNs, as in TF.
 */
#include <math.h>
#include <string.h>

#include "base/alloc.h"
#include "core/dtype.h"
#include "kernels/blas.h"
#include "kernels/kernel.h"
#include "kernels/kernel_tables.h"

typedef void (*gees_fn)(const char *, const char *, void *, const int *, double *, const int *, int *, double *,
                        double *, double *, const int *, double *, const int *, int *, int *);

/* Element k of a float/double tensor as double. */
static inline double get(const tfc_tensor *t, int64_t k) {
  return t->dtype == TFC_DTYPE_FLOAT ? (double)((const float *)t->data)[k] : ((const double *)t->data)[k];
}

/* Stores v at element k of a float/double tensor. */
static inline void put(tfc_tensor *t, int64_t k, double v) {
  if (t->dtype == TFC_DTYPE_FLOAT) ((float *)t->data)[k] = (float)v;
  else ((double *)t->data)[k] = v;
}

/* Solves the m x m system a x = b (m <= 4, row-major a, destroyed) by
 * Gaussian elimination with partial pivoting; a zero pivot gives NaNs. */
static void small_solve(double *a, double *b, int m) {
  for (int c = 0; c < m; c++) {
    int p = c;
    for (int r = c + 1; r < m; r++)
      if (fabs(a[r * m + c]) > fabs(a[p * m + c])) p = r;
    if (p != c) {
      for (int k = 0; k < m; k++) {
        double t = a[c * m + k];
        a[c * m + k] = a[p * m + k];
        a[p * m + k] = t;
      }
      double t = b[c];
      b[c] = b[p];
      b[p] = t;
    }
    for (int r = c + 1; r < m; r++) {
      double f = a[r * m + c] / a[c * m + c];
      for (int k = c; k < m; k++) a[r * m + k] -= f * a[c * m + k];
      b[r] -= f * b[c];
    }
  }
  for (int r = m - 1; r >= 0; r--) {
    double v = b[r];
    for (int k = r + 1; k < m; k++) v -= a[r * m + k] * b[k];
    b[r] = v / a[r * m + r];
  }
}

/* R (n x n, column-major like t) with R R = T for the quasi upper
 * triangular t. start[b], size[b]: the diagonal blocks. */
static void sqrt_quasi_triangular(const double *t, double *r, int n, const int *start, const int *size, int nb) {
  memset(r, 0, sizeof(double) * (size_t)n * (size_t)n);
#define T(i, j) t[(i) + (size_t)(j) * (size_t)n]
#define R(i, j) r[(i) + (size_t)(j) * (size_t)n]
  for (int b = 0; b < nb; b++) {
    int i = start[b];
    if (size[b] == 1) {
      R(i, i) = sqrt(T(i, i));
    } else {
      double theta = (T(i, i) + T(i + 1, i + 1)) / 2;
      double m00 = T(i, i) - theta, m11 = T(i + 1, i + 1) - theta;
      double mu2 = m00 * m11 - T(i, i + 1) * T(i + 1, i); /* det(M) = mu^2 */
      double mod = sqrt(theta * theta + mu2);
      double alpha = sqrt((theta + mod) / 2);
      R(i, i) = alpha + m00 / (2 * alpha);
      R(i + 1, i + 1) = alpha + m11 / (2 * alpha);
      R(i, i + 1) = T(i, i + 1) / (2 * alpha);
      R(i + 1, i) = T(i + 1, i) / (2 * alpha);
    }
  }
  /* off-diagonal blocks: R_ii X + X R_jj = T_ij - sum_k R_ik R_kj */
  for (int bj = 1; bj < nb; bj++) {
    int j = start[bj], q = size[bj];
    for (int bi = bj - 1; bi >= 0; bi--) {
      int i = start[bi], p = size[bi];
      double c[4], a[16];
      for (int y = 0; y < q; y++)
        for (int x = 0; x < p; x++) {
          double v = T(i + x, j + y);
          for (int k = i + p; k < j; k++) v -= R(i + x, k) * R(k, j + y);
          c[x + y * p] = v;
        }
      /* vec(X) column-major: (I_q (x) R_ii + R_jj^T (x) I_p) */
      int m = p * q;
      memset(a, 0, sizeof a);
      for (int y = 0; y < q; y++)
        for (int x = 0; x < p; x++) {
          int row = x + y * p;
          for (int x2 = 0; x2 < p; x2++) a[row * m + x2 + y * p] += R(i + x, i + x2);
          for (int y2 = 0; y2 < q; y2++) a[row * m + x + y2 * p] += R(j + y2, j + y);
        }
      small_solve(a, c, m);
      for (int y = 0; y < q; y++)
        for (int x = 0; x < p; x++) R(i + x, j + y) = c[x + y * p];
    }
  }
#undef T
#undef R
}

/* MatrixSquareRoot: the principal square root of each square matrix. */
static void matrix_square_root_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *a = ctx->inputs[0];
  if (a->rank < 2) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Input tensor 0 must have rank >= 2, got %d", a->rank);
    return;
  }
  int64_t n = a->dims[a->rank - 1];
  if (a->dims[a->rank - 2] != n) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Input matrix must be square.");
    return;
  }
  if (n > 46340) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Input matrix is too large");
    return;
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, a->dtype, a->rank, a->dims);
  if (!out || n == 0) return;
  void *sym = tfc_blas_symbol("dgees_");
  if (!sym) {
    tfc_kernel_fail(ctx, TFC_CODE_UNIMPLEMENTED,
                    "MatrixSquareRoot needs LAPACK (dgees_), which the loaded BLAS does not provide");
    return;
  }
  gees_fn gees;
  memcpy(&gees, &sym, sizeof sym);
  int ni = (int)n, lwork = (int)(8 * n + 64), sdim = 0, info = 0;
  size_t nn = (size_t)(n * n);
  double *buf = tfc_malloc((4 * nn + 2 * (size_t)n + (size_t)lwork) * sizeof *buf);
  int *ints = tfc_malloc((size_t)(3 * n + 1) * sizeof *ints);
  if (!buf || !ints) {
    tfc_free(buf);
    tfc_free(ints);
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in MatrixSquareRoot");
    return;
  }
  double *t = buf, *z = t + nn, *r = z + nn, *tmp = r + nn, *wr = tmp + nn, *wi = wr + n, *work = wi + n;
  int *bwork = ints, *start = ints + n, *size = start + n;
  int64_t batch = 1;
  for (int d = 0; d < a->rank - 2; d++) batch *= a->dims[d];
  for (int64_t b = 0; b < batch; b++) {
    int64_t off = b * n * n;
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j < n; j++) t[i + j * n] = get(a, off + i * n + j);
    gees("V", "N", NULL, &ni, t, &ni, &sdim, wr, wi, z, &ni, work, &lwork, bwork, &info);
    if (info != 0) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "The Schur decomposition of the input did not converge.");
      break;
    }
    int nb = 0;
    for (int i = 0; i < ni; nb++) {
      start[nb] = i;
      size[nb] = i + 1 < ni && t[(i + 1) + (size_t)i * (size_t)n] != 0.0 ? 2 : 1;
      i += size[nb];
    }
    sqrt_quasi_triangular(t, r, ni, start, size, nb);
    /* out = Z R Z^T: tmp = Z R, then tmp Z^T */
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j < n; j++) {
        double v = 0;
        for (int64_t k = 0; k <= j + 1 && k < n; k++) v += z[i + k * n] * r[k + j * n];
        tmp[i + j * n] = v;
      }
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j < n; j++) {
        double v = 0;
        for (int64_t k = 0; k < n; k++) v += tmp[i + k * n] * z[j + k * n];
        put(out, off + i * n + j, v);
      }
  }
  tfc_free(buf);
  tfc_free(ints);
}

static const tfc_dtype real_types[] = {TFC_DTYPE_FLOAT, TFC_DTYPE_DOUBLE, TFC_DTYPE_INVALID};

static const tfc_kernel_def defs[] = {
    {"MatrixSquareRoot", "CPU", "T", real_types, NULL, matrix_square_root_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_linalg_sqrtm = {defs, (int)(sizeof defs / sizeof defs[0])};
