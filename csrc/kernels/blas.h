/*
 * blas.h — the only door to the BLAS library (OpenBLAS through CBLAS).
 *
 * Kernels call these small wrappers instead of including <cblas.h>, so the
 * BLAS implementation can be swapped in one file (kernels/blas.c).
 * All matrices are row-major. Every call is single-threaded on the calling
 * thread: intra-op parallelism is tfc's own (kernels split big products
 * across tfc_kernel_parallel_for), so the BLAS is told to use one thread.
 *
 * OpenBLAS is loaded on the first call (blas.c says how, and with which
 * OPENBLAS_NUM_THREADS / OPENBLAS_CORETYPE), so importing tfc does not pay
 * for it and starts no thread.
 */
#ifndef TFC_KERNELS_BLAS_H
#define TFC_KERNELS_BLAS_H

#include <stdbool.h>
#include <stdint.h>

/* Largest dimension or leading dimension the BLAS accepts (its int type). */
#define TFC_BLAS_MAX_DIM 2147483647LL

/* True when m, n, k and the leading dimensions all fit the BLAS int type;
 * callers use a plain loop otherwise. */
bool tfc_blas_dims_ok(int64_t m, int64_t n, int64_t k, int64_t lda, int64_t ldb, int64_t ldc);

/* C[m x n] = alpha * op(A) * op(B) + beta * C, row-major, where op(A) is
 * m x k (A is k x m when trans_a) and op(B) is k x n (B is n x k when
 * trans_b). lda/ldb/ldc are row strides in elements. Dims must satisfy
 * tfc_blas_dims_ok; m, n or k may be 0 (k == 0 scales C by beta). */
void tfc_blas_sgemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, float alpha,
                    const float *a, int64_t lda, const float *b, int64_t ldb, float beta, float *c,
                    int64_t ldc);
/* Double-precision form of tfc_blas_sgemm. */
void tfc_blas_dgemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, double alpha,
                    const double *a, int64_t lda, const double *b, int64_t ldb, double beta,
                    double *c, int64_t ldc);

/* C[m x n] = op(A) * op(B) for complex64 matrices (interleaved float pairs),
 * row-major; op_a/op_b: 0 = as is, 1 = transposed, 2 = conjugate-transposed
 * (the stored A is then k x m, B n x k). Any dims (plain loops past the BLAS
 * int range or without a BLAS). */
void tfc_blas_cgemm(int op_a, int op_b, int64_t m, int64_t n, int64_t k, const void *a,
                    int64_t lda, const void *b, int64_t ldb, void *c, int64_t ldc);
/* complex128 form of tfc_blas_cgemm. */
void tfc_blas_zgemm(int op_a, int op_b, int64_t m, int64_t n, int64_t k, const void *a,
                    int64_t lda, const void *b, int64_t ldb, void *c, int64_t ldc);

/* y[m'] = alpha * op(A) * x + beta * y, row-major A with m rows, n columns and
 * row stride lda; op(A) is A^T when trans (then x has m entries and y n).
 * incx/incy are element strides of x and y (> 0). */
void tfc_blas_sgemv(bool trans, int64_t m, int64_t n, float alpha, const float *a, int64_t lda,
                    const float *x, int64_t incx, float beta, float *y, int64_t incy);
/* Double-precision form of tfc_blas_sgemv. */
void tfc_blas_dgemv(bool trans, int64_t m, int64_t n, double alpha, const double *a, int64_t lda,
                    const double *x, int64_t incx, double beta, double *y, int64_t incy);

/* A short description of the BLAS in use ("OpenBLAS 0.3.21 ... core=SkylakeX"),
 * for benchmarks and bug reports. Never NULL; static storage. */
const char *tfc_blas_describe(void);

/* Another entry point of the loaded OpenBLAS (its LAPACK routines, e.g.
 * "dgetrf_"), loading the library first as above; NULL when it is absent. */
void *tfc_blas_symbol(const char *name);

#endif
