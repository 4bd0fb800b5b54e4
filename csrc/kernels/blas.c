/*
 * blas.c — CBLAS wrappers (see blas.h). The only file that knows the BLAS.
 *
 * OpenBLAS is loaded on first use with dlopen, not when the extension is
 * imported: loading it costs several milliseconds (relocations and its CPU
 * set-up), which a process that never multiplies a matrix through it — a
 * frozen CNN's inference runs on oneDNN — should not pay. The few CBLAS
 * entry points tfc calls are looked up once into a table.
 *
 * OpenBLAS reads its settings from the environment when it is loaded, so the
 * load happens with:
 *   OPENBLAS_NUM_THREADS=1  it starts no threads of its own (fork safety; tfc
 *                           splits big products itself, and a BLAS spawning
 *                           workers inside tfc's pool would oversubscribe);
 *   OPENBLAS_CORETYPE       TFC_OPENBLAS_CORETYPE when set; otherwise, on CPUs
 *                           with AVX-512, a pin in the environment (some
 *                           machines pin an older kernel, halving GEMM speed)
 *                           is lifted so OpenBLAS detects the CPU itself.
 * Both are restored right after the load. glibc serialises setenv/unsetenv,
 * but a getenv in another thread during those microseconds is not locked;
 * tfc's own threads wait on the once-lock meanwhile.
 *
 * The pthread build of OpenBLAS is used on purpose: its calls are safe from
 * several threads at once, which Debian's serial build is not. If no OpenBLAS
 * can be loaded, plain loops compute the same products (slowly) and one line
 * on stderr says so.
 */
#include <complex.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/blas.h"

/* CBLAS enum values (cblas.h; fixed by the reference CBLAS interface). */
enum { CBLAS_ROW_MAJOR = 101, CBLAS_NO_TRANS = 111, CBLAS_TRANS = 112, CBLAS_CONJ_TRANS = 113 };

typedef void (*sgemm_fn)(int, int, int, int, int, int, float, const float *, int, const float *,
                         int, float, float *, int);
typedef void (*dgemm_fn)(int, int, int, int, int, int, double, const double *, int,
                         const double *, int, double, double *, int);
typedef void (*sgemv_fn)(int, int, int, int, float, const float *, int, const float *, int, float,
                         float *, int);
typedef void (*dgemv_fn)(int, int, int, int, double, const double *, int, const double *, int,
                         double, double *, int);
/* cgemm and zgemm share one prototype (alpha/beta and matrices by address). */
typedef void (*xgemm_fn)(int, int, int, int, int, int, const void *, const void *, int,
                         const void *, int, const void *, void *, int);
typedef void (*set_threads_fn)(int);
typedef char *(*get_text_fn)(void);

/* The loaded library's entry points; all NULL when none could be loaded. */
static void *g_lib;  /* the library handle (LAPACK symbols are looked up in it) */
static struct {
  sgemm_fn sgemm;
  dgemm_fn dgemm;
  sgemv_fn sgemv;
  dgemv_fn dgemv;
  xgemm_fn cgemm;  /* NULL when absent: complex products use plain loops */
  xgemm_fn zgemm;
  get_text_fn get_config;
  get_text_fn get_corename;
} g_blas;

static pthread_once_t g_once = PTHREAD_ONCE_INIT;

/* Library names tried in order (Debian's alternatives link first). */
static const char *const kLibraries[] = {"libopenblas.so.0", "libopenblas.so"};

/* Saves the current value of an environment variable into *saved (NULL when
 * unset; a malloc'd copy otherwise, which restore_env frees). */
static void save_env(const char *name, char **saved) {
  const char *v = getenv(name);
  *saved = v ? strdup(v) : NULL;
}

/* Puts back a variable saved by save_env and frees the copy. */
static void restore_env(const char *name, char *saved) {
  if (saved) {
    setenv(name, saved, 1);
    free(saved);
  } else {
    unsetenv(name);
  }
}

/* Loads OpenBLAS with the environment described at the top of the file and
 * fills g_blas; runs once per process. */
static void blas_load(void) {
  char *saved_threads, *saved_core;
  save_env("OPENBLAS_NUM_THREADS", &saved_threads);
  save_env("OPENBLAS_CORETYPE", &saved_core);
  setenv("OPENBLAS_NUM_THREADS", "1", 1);
  const char *want = getenv("TFC_OPENBLAS_CORETYPE");
  if (want && *want) {
    setenv("OPENBLAS_CORETYPE", want, 1);
  } else if (saved_core) {
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) unsetenv("OPENBLAS_CORETYPE");
  }
  void *lib = NULL;
  for (size_t i = 0; i < sizeof kLibraries / sizeof kLibraries[0] && !lib; i++)
    lib = dlopen(kLibraries[i], RTLD_NOW | RTLD_LOCAL);
  restore_env("OPENBLAS_NUM_THREADS", saved_threads);
  restore_env("OPENBLAS_CORETYPE", saved_core);
  if (!lib) {
    fprintf(stderr, "tfc: OpenBLAS could not be loaded (%s); matrix products use plain loops\n",
            dlerror());
    return;
  }
  g_lib = lib;
  /* POSIX guarantees object and function pointers convert through void*. */
  void *p[4] = {dlsym(lib, "cblas_sgemm"), dlsym(lib, "cblas_dgemm"), dlsym(lib, "cblas_sgemv"),
                dlsym(lib, "cblas_dgemv")};
  if (!p[0] || !p[1] || !p[2] || !p[3]) {
    fprintf(stderr, "tfc: %s lacks CBLAS entry points; matrix products use plain loops\n",
            kLibraries[0]);
    return;
  }
  memcpy(&g_blas.sgemm, &p[0], sizeof p[0]);
  memcpy(&g_blas.dgemm, &p[1], sizeof p[1]);
  memcpy(&g_blas.sgemv, &p[2], sizeof p[2]);
  memcpy(&g_blas.dgemv, &p[3], sizeof p[3]);
  void *pc = dlsym(lib, "cblas_cgemm"), *pz = dlsym(lib, "cblas_zgemm");
  if (pc && pz) {
    memcpy(&g_blas.cgemm, &pc, sizeof pc);
    memcpy(&g_blas.zgemm, &pz, sizeof pz);
  }
  void *set_threads = dlsym(lib, "openblas_set_num_threads");
  void *config = dlsym(lib, "openblas_get_config");
  void *core = dlsym(lib, "openblas_get_corename");
  if (set_threads) {
    set_threads_fn fn;
    memcpy(&fn, &set_threads, sizeof fn);
    fn(1);
  }
  if (config) memcpy(&g_blas.get_config, &config, sizeof config);
  if (core) memcpy(&g_blas.get_corename, &core, sizeof core);
}

/* Loads the BLAS once (cheap after the first call). */
static inline void blas_ready(void) { pthread_once(&g_once, blas_load); }

/* Looks up another entry point (a LAPACK routine) in the loaded library,
 * loading it first with the environment above; NULL when absent. */
void *tfc_blas_symbol(const char *name) {
  blas_ready();
  return g_lib ? dlsym(g_lib, name) : NULL;
}

/* True when every value is within the BLAS int range. */
bool tfc_blas_dims_ok(int64_t m, int64_t n, int64_t k, int64_t lda, int64_t ldb, int64_t ldc) {
  return m <= TFC_BLAS_MAX_DIM && n <= TFC_BLAS_MAX_DIM && k <= TFC_BLAS_MAX_DIM &&
         lda <= TFC_BLAS_MAX_DIM && ldb <= TFC_BLAS_MAX_DIM && ldc <= TFC_BLAS_MAX_DIM;
}

/* Element (i, j) of op(X) for a row-major X with row stride ld. */
#define OP_AT(x, trans, i, j, ld) ((trans) ? (x)[(j) * (ld) + (i)] : (x)[(i) * (ld) + (j)])

/* The fallback GEMM: C = alpha * op(A) op(B) + beta * C with plain loops. */
#define LOOP_GEMM(T)                                                             \
  for (int64_t i = 0; i < m; i++)                                                \
    for (int64_t j = 0; j < n; j++) {                                            \
      T acc = 0;                                                                 \
      for (int64_t p = 0; p < k; p++)                                            \
        acc += OP_AT(a, trans_a, i, p, lda) * OP_AT(b, trans_b, p, j, ldb);      \
      c[i * ldc + j] = alpha * acc + (beta == 0 ? (T)0 : beta * c[i * ldc + j]); \
    }

/* The fallback GEMV: y = alpha * op(A) x + beta * y with plain loops. */
#define LOOP_GEMV(T)                                                           \
  {                                                                            \
    int64_t rows = trans ? n : m, cols = trans ? m : n;                        \
    for (int64_t i = 0; i < rows; i++) {                                       \
      T acc = 0;                                                               \
      for (int64_t j = 0; j < cols; j++) acc += OP_AT(a, trans, i, j, lda) * x[j * incx]; \
      y[i * incy] = alpha * acc + (beta == 0 ? (T)0 : beta * y[i * incy]);     \
    }                                                                          \
  }

/* Row-major single-precision GEMM; see blas.h. */
void tfc_blas_sgemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, float alpha,
                    const float *a, int64_t lda, const float *b, int64_t ldb, float beta, float *c,
                    int64_t ldc) {
  if (m <= 0 || n <= 0) return;
  blas_ready();
  if (!g_blas.sgemm) {
    LOOP_GEMM(float)
    return;
  }
  g_blas.sgemm(CBLAS_ROW_MAJOR, trans_a ? CBLAS_TRANS : CBLAS_NO_TRANS,
               trans_b ? CBLAS_TRANS : CBLAS_NO_TRANS, (int)m, (int)n, (int)k, alpha, a,
               (int)(lda > 0 ? lda : 1), b, (int)(ldb > 0 ? ldb : 1), beta, c,
               (int)(ldc > 0 ? ldc : 1));
}

/* Row-major double-precision GEMM; see blas.h. */
void tfc_blas_dgemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, double alpha,
                    const double *a, int64_t lda, const double *b, int64_t ldb, double beta,
                    double *c, int64_t ldc) {
  if (m <= 0 || n <= 0) return;
  blas_ready();
  if (!g_blas.dgemm) {
    LOOP_GEMM(double)
    return;
  }
  g_blas.dgemm(CBLAS_ROW_MAJOR, trans_a ? CBLAS_TRANS : CBLAS_NO_TRANS,
               trans_b ? CBLAS_TRANS : CBLAS_NO_TRANS, (int)m, (int)n, (int)k, alpha, a,
               (int)(lda > 0 ? lda : 1), b, (int)(ldb > 0 ? ldb : 1), beta, c,
               (int)(ldc > 0 ? ldc : 1));
}

/* Row-major single-precision GEMV; see blas.h. */
void tfc_blas_sgemv(bool trans, int64_t m, int64_t n, float alpha, const float *a, int64_t lda,
                    const float *x, int64_t incx, float beta, float *y, int64_t incy) {
  if (m <= 0 || n <= 0) return;
  blas_ready();
  if (!g_blas.sgemv) {
    LOOP_GEMV(float)
    return;
  }
  g_blas.sgemv(CBLAS_ROW_MAJOR, trans ? CBLAS_TRANS : CBLAS_NO_TRANS, (int)m, (int)n, alpha, a,
               (int)(lda > 0 ? lda : 1), x, (int)incx, beta, y, (int)incy);
}

/* Row-major double-precision GEMV; see blas.h. */
void tfc_blas_dgemv(bool trans, int64_t m, int64_t n, double alpha, const double *a, int64_t lda,
                    const double *x, int64_t incx, double beta, double *y, int64_t incy) {
  if (m <= 0 || n <= 0) return;
  blas_ready();
  if (!g_blas.dgemv) {
    LOOP_GEMV(double)
    return;
  }
  g_blas.dgemv(CBLAS_ROW_MAJOR, trans ? CBLAS_TRANS : CBLAS_NO_TRANS, (int)m, (int)n, alpha, a,
               (int)(lda > 0 ? lda : 1), x, (int)incx, beta, y, (int)incy);
}

/* Element (i, j) of op(X) for complex X: transposed, conjugated when conj. */
#define COP_AT(x, op, i, j, ld) \
  ((op) == 2 ? conj((x)[(j) * (ld) + (i)]) : OP_AT(x, (op) == 1, i, j, ld))

/* The fallback complex GEMM (alpha 1, beta 0) with plain loops. */
#define LOOP_XGEMM(T)                                                                \
  {                                                                                  \
    const T *a = av, *b = bv;                                                        \
    T *c = cv;                                                                       \
    for (int64_t i = 0; i < m; i++)                                                  \
      for (int64_t j = 0; j < n; j++) {                                              \
        T acc = 0;                                                                   \
        for (int64_t p = 0; p < k; p++)                                              \
          acc += COP_AT(a, op_a, i, p, lda) * COP_AT(b, op_b, p, j, ldb);            \
        c[i * ldc + j] = acc;                                                        \
      }                                                                              \
  }

/* CBLAS transpose code of an operand code (0 none, 1 transpose, 2 adjoint). */
static int cblas_op(int op) {
  return op == 2 ? CBLAS_CONJ_TRANS : op == 1 ? CBLAS_TRANS : CBLAS_NO_TRANS;
}

/* Row-major complex64 GEMM; see blas.h. */
void tfc_blas_cgemm(int op_a, int op_b, int64_t m, int64_t n, int64_t k, const void *av,
                    int64_t lda, const void *bv, int64_t ldb, void *cv, int64_t ldc) {
  if (m <= 0 || n <= 0) return;
  blas_ready();
  if (!g_blas.cgemm || k == 0 || !tfc_blas_dims_ok(m, n, k, lda, ldb, ldc)) {
    LOOP_XGEMM(float _Complex)
    return;
  }
  const float one[2] = {1.0f, 0.0f}, zero[2] = {0.0f, 0.0f};
  g_blas.cgemm(CBLAS_ROW_MAJOR, cblas_op(op_a), cblas_op(op_b), (int)m, (int)n, (int)k, one, av,
               (int)(lda > 0 ? lda : 1), bv, (int)(ldb > 0 ? ldb : 1), zero, cv,
               (int)(ldc > 0 ? ldc : 1));
}

/* Row-major complex128 GEMM; see blas.h. */
void tfc_blas_zgemm(int op_a, int op_b, int64_t m, int64_t n, int64_t k, const void *av,
                    int64_t lda, const void *bv, int64_t ldb, void *cv, int64_t ldc) {
  if (m <= 0 || n <= 0) return;
  blas_ready();
  if (!g_blas.zgemm || k == 0 || !tfc_blas_dims_ok(m, n, k, lda, ldb, ldc)) {
    LOOP_XGEMM(double _Complex)
    return;
  }
  const double one[2] = {1.0, 0.0}, zero[2] = {0.0, 0.0};
  g_blas.zgemm(CBLAS_ROW_MAJOR, cblas_op(op_a), cblas_op(op_b), (int)m, (int)n, (int)k, one, av,
               (int)(lda > 0 ? lda : 1), bv, (int)(ldb > 0 ? ldb : 1), zero, cv,
               (int)(ldc > 0 ? ldc : 1));
}

static char g_desc[256];
static pthread_once_t g_desc_once = PTHREAD_ONCE_INIT;

/* Fills g_desc from the library's own report. */
static void describe_once(void) {
  if (g_blas.get_config && g_blas.get_corename)
    snprintf(g_desc, sizeof g_desc, "%s core=%s", g_blas.get_config(), g_blas.get_corename());
  else if (g_blas.sgemm)
    snprintf(g_desc, sizeof g_desc, "CBLAS (%s)", kLibraries[0]);
  else
    snprintf(g_desc, sizeof g_desc, "plain loops (no OpenBLAS)");
}

/* Text describing the BLAS; see blas.h. */
const char *tfc_blas_describe(void) {
  blas_ready();
  pthread_once(&g_desc_once, describe_once);
  return g_desc;
}
