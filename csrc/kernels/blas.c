/*
 * blas.c — CBLAS wrappers (see blas.h). The only file that includes <cblas.h>.
 *
 * OpenBLAS is asked once, on first use, to run every call on the calling
 * thread (openblas_set_num_threads(1)): tfc splits big products itself, and a
 * BLAS that spawned its own workers from inside our pool would oversubscribe
 * the cores. The pthread build of OpenBLAS is used on purpose: its calls are
 * safe from several threads at once, which Debian's serial build is not.
 */
#include <pthread.h>
#include <stdio.h>

#include <cblas.h>

#include "kernels/blas.h"

static pthread_once_t g_once = PTHREAD_ONCE_INIT;

/* Makes the BLAS single-threaded per call; runs once per process. */
static void blas_setup(void) {
#if defined(OPENBLAS_VERSION)
  openblas_set_num_threads(1);
#endif
}

/* Runs blas_setup once (cheap after the first call). */
static inline void blas_ready(void) { pthread_once(&g_once, blas_setup); }

/* True when every value is within the BLAS int range. */
bool tfc_blas_dims_ok(int64_t m, int64_t n, int64_t k, int64_t lda, int64_t ldb, int64_t ldc) {
  return m <= TFC_BLAS_MAX_DIM && n <= TFC_BLAS_MAX_DIM && k <= TFC_BLAS_MAX_DIM &&
         lda <= TFC_BLAS_MAX_DIM && ldb <= TFC_BLAS_MAX_DIM && ldc <= TFC_BLAS_MAX_DIM;
}

/* Row-major single-precision GEMM; see blas.h. */
void tfc_blas_sgemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, float alpha,
                    const float *a, int64_t lda, const float *b, int64_t ldb, float beta, float *c,
                    int64_t ldc) {
  if (m <= 0 || n <= 0) return;
  blas_ready();
  cblas_sgemm(CblasRowMajor, trans_a ? CblasTrans : CblasNoTrans, trans_b ? CblasTrans : CblasNoTrans,
              (int)m, (int)n, (int)k, alpha, a, (int)(lda > 0 ? lda : 1), b, (int)(ldb > 0 ? ldb : 1),
              beta, c, (int)(ldc > 0 ? ldc : 1));
}

/* Row-major double-precision GEMM; see blas.h. */
void tfc_blas_dgemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, double alpha,
                    const double *a, int64_t lda, const double *b, int64_t ldb, double beta,
                    double *c, int64_t ldc) {
  if (m <= 0 || n <= 0) return;
  blas_ready();
  cblas_dgemm(CblasRowMajor, trans_a ? CblasTrans : CblasNoTrans, trans_b ? CblasTrans : CblasNoTrans,
              (int)m, (int)n, (int)k, alpha, a, (int)(lda > 0 ? lda : 1), b, (int)(ldb > 0 ? ldb : 1),
              beta, c, (int)(ldc > 0 ? ldc : 1));
}

/* Row-major single-precision GEMV; see blas.h. */
void tfc_blas_sgemv(bool trans, int64_t m, int64_t n, float alpha, const float *a, int64_t lda,
                    const float *x, int64_t incx, float beta, float *y, int64_t incy) {
  if (m <= 0 || n <= 0) return;
  blas_ready();
  cblas_sgemv(CblasRowMajor, trans ? CblasTrans : CblasNoTrans, (int)m, (int)n, alpha, a,
              (int)(lda > 0 ? lda : 1), x, (int)incx, beta, y, (int)incy);
}

/* Row-major double-precision GEMV; see blas.h. */
void tfc_blas_dgemv(bool trans, int64_t m, int64_t n, double alpha, const double *a, int64_t lda,
                    const double *x, int64_t incx, double beta, double *y, int64_t incy) {
  if (m <= 0 || n <= 0) return;
  blas_ready();
  cblas_dgemv(CblasRowMajor, trans ? CblasTrans : CblasNoTrans, (int)m, (int)n, alpha, a,
              (int)(lda > 0 ? lda : 1), x, (int)incx, beta, y, (int)incy);
}

static char g_desc[256];
static pthread_once_t g_desc_once = PTHREAD_ONCE_INIT;

/* Fills g_desc from the library's own report. */
static void describe_once(void) {
#if defined(OPENBLAS_VERSION)
  snprintf(g_desc, sizeof g_desc, "%s core=%s", openblas_get_config(), openblas_get_corename());
#else
  snprintf(g_desc, sizeof g_desc, "CBLAS");
#endif
}

/* Text describing the BLAS; see blas.h. */
const char *tfc_blas_describe(void) {
  blas_ready();
  pthread_once(&g_desc_once, describe_once);
  return g_desc;
}
