/*
 * conv_gemm.c — fast 2-D convolution for float and double through the BLAS
 * (kernels/blas.h): forward, input gradient and filter gradient.
 *
 * With M = batch * out_rows * out_cols output pixels and a patch of
 * K = filter_rows * filter_cols * in_depth values, NHWC convolution is the
 * product  out[M x out_depth] = patches[M x K] * filter[K x out_depth]
 * (an HWIO filter already is that K x out_depth matrix). The patch matrix is
 * never built whole: M is cut into tiles of rows whose patches (im2col) fit
 * in the L2 cache, and each tile is one GEMM. A 1x1, stride-1, unpadded
 * convolution needs no patches at all: the input is the patch matrix.
 *
 * Input gradient: patch gradients dy[M x out_depth] * filter^T are computed
 * for a band of output rows and added back into dx (col2im). Bands of one
 * image are processed in two passes (even bands, then odd bands); a band is
 * tall enough that bands two apart never touch the same input rows, so the
 * bands of one pass can run concurrently without locks.
 *
 * Filter gradient: dfilter[K x out_depth] = patches^T * dy, summed over row
 * tiles; each parallel chunk accumulates into its own buffer and the buffers
 * are added at the end.
 *
 * Parallelism is tfc's own: work is cut into as many chunks as the intra-op
 * pool has threads (the BLAS is single-threaded), each chunk a contiguous run
 * of tiles with its own scratch buffer.
 */
#include <stdatomic.h>
#include <string.h>

#include "base/alloc.h"
#include "kernels/blas.h"
#include "kernels/conv_internal.h"

/* Bytes of patch matrix per tile (about the L2 size), unless that is
 * fewer than MIN_TILE_ROWS rows: short tiles make the GEMM inefficient. */
#define TILE_BYTES ((int64_t)1 << 20)
#define MIN_TILE_ROWS 256
/* Below this many multiply-adds a convolution runs on one thread. */
#define PAR_MACS ((int64_t)1 << 20)
/* Column blocks handed to the BLAS are multiples of this. */
#define COL_ALIGN 16

/* ---------------------------------------------------------------- helpers */

/* C[m x n] = op(A) op(B) + beta C for float or double (row-major). */
static void gemm(tfc_dtype t, bool ta, bool tb, int64_t m, int64_t n, int64_t k, const void *a,
                 int64_t lda, const void *b, int64_t ldb, double beta, void *c, int64_t ldc) {
  if (m <= 0 || n <= 0) return;
  if (t == TFC_DTYPE_FLOAT)
    tfc_blas_sgemm(ta, tb, m, n, k, 1.0f, a, lda, b, ldb, (float)beta, c, ldc);
  else
    tfc_blas_dgemm(ta, tb, m, n, k, 1.0, a, lda, b, ldb, beta, c, ldc);
}

/* True when the convolution is 1x1, stride 1 and unpadded: the input rows
 * are the patches. */
static bool is_pointwise(const tfc_conv_geom *g) {
  return g->filter_rows == 1 && g->filter_cols == 1 && g->stride_rows == 1 && g->stride_cols == 1 &&
         g->pad_top == 0 && g->pad_left == 0 && g->out_rows == g->in_rows &&
         g->out_cols == g->in_cols;
}

/* Patch length K. */
static int64_t patch_len(const tfc_conv_geom *g) {
  return g->filter_rows * g->filter_cols * g->in_depth;
}

/* Number of chunks to cut `units` of work (of `macs` multiply-adds in all) into. */
static int64_t chunk_count(const tfc_kernel_ctx *ctx, int64_t units, int64_t macs) {
  int64_t nt = tfc_conv_threads(ctx);
  if (macs < PAR_MACS) nt = 1;
  return units < nt ? (units > 0 ? units : 1) : nt;
}

/* Writes the patches of output pixels [m0, m0 + rows) (flattened over
 * batch, out_rows, out_cols) as rows of K elements of es bytes into cols;
 * taps that fall into the padding are zero. */
static void im2col(const tfc_conv_geom *g, size_t es, const char *in, int64_t m0, int64_t rows,
                   char *cols) {
  const int64_t IH = g->in_rows, IW = g->in_cols, KW = g->filter_cols;
  const size_t pix = (size_t)g->in_depth * es, krow = (size_t)KW * pix;
  const size_t K = (size_t)patch_len(g) * es;
  int64_t plane = g->out_rows * g->out_cols;
  int64_t n = m0 / plane, r = m0 % plane, oh = r / g->out_cols, ow = r % g->out_cols;
  for (int64_t m = 0; m < rows; m++) {
    char *dst = cols + (size_t)m * K;
    int64_t ih0 = oh * g->stride_rows - g->pad_top, iw0 = ow * g->stride_cols - g->pad_left;
    bool wfull = g->dil_cols == 1 && iw0 >= 0 && iw0 + KW <= IW;
    for (int64_t kh = 0; kh < g->filter_rows; kh++) {
      char *d = dst + (size_t)kh * krow;
      int64_t ih = ih0 + kh * g->dil_rows;
      if (ih < 0 || ih >= IH) {
        memset(d, 0, krow);
        continue;
      }
      const char *src = in + (size_t)((n * IH + ih) * IW) * pix;
      if (wfull) {
        memcpy(d, src + (size_t)iw0 * pix, krow);
        continue;
      }
      for (int64_t kw = 0; kw < KW; kw++) {
        int64_t iw = iw0 + kw * g->dil_cols;
        if (iw < 0 || iw >= IW) memset(d + (size_t)kw * pix, 0, pix);
        else memcpy(d + (size_t)kw * pix, src + (size_t)iw * pix, pix);
      }
    }
    if (++ow == g->out_cols) {
      ow = 0;
      if (++oh == g->out_rows) {
        oh = 0;
        n++;
      }
    }
  }
}

/* Defines col2im_<SUF>: adds patch gradients of output rows [oh0, oh0 + rows)
 * of image n (rows * out_cols patches of K values) into dx. */
#define DEFINE_COL2IM(SUF, T)                                                                    \
  static void col2im_##SUF(const tfc_conv_geom *g, const T *cols, int64_t n, int64_t oh0,        \
                           int64_t rows, T *dx) {                                                \
    const int64_t IC = g->in_depth, K = patch_len(g);                                            \
    for (int64_t r = 0; r < rows; r++) {                                                         \
      int64_t oh = oh0 + r;                                                                      \
      for (int64_t ow = 0; ow < g->out_cols; ow++) {                                             \
        const T *src = cols + (r * g->out_cols + ow) * K;                                        \
        int64_t ih0 = oh * g->stride_rows - g->pad_top, iw0 = ow * g->stride_cols - g->pad_left; \
        for (int64_t kh = 0; kh < g->filter_rows; kh++) {                                        \
          int64_t ih = ih0 + kh * g->dil_rows;                                                   \
          if (ih < 0 || ih >= g->in_rows) continue;                                              \
          T *drow = dx + ((n * g->in_rows + ih) * g->in_cols) * IC;                              \
          for (int64_t kw = 0; kw < g->filter_cols; kw++) {                                      \
            int64_t iw = iw0 + kw * g->dil_cols;                                                 \
            if (iw < 0 || iw >= g->in_cols) continue;                                            \
            T *d = drow + iw * IC;                                                               \
            const T *s = src + (kh * g->filter_cols + kw) * IC;                                  \
            for (int64_t c = 0; c < IC; c++) d[c] += s[c];                                       \
          }                                                                                      \
        }                                                                                        \
      }                                                                                          \
    }                                                                                            \
  }
DEFINE_COL2IM(f32, float)
DEFINE_COL2IM(f64, double)

/* Rows per im2col tile for a patch of K elements of es bytes. */
static int64_t tile_rows(int64_t K, size_t es) {
  int64_t r = TILE_BYTES / (K * (int64_t)es);
  if (r < MIN_TILE_ROWS) r = MIN_TILE_ROWS;
  if (r > 4096) r = 4096;
  return r;
}

/* ---------------------------------------------------------------- forward */

typedef struct fwd_job {
  const tfc_conv_geom *g;
  tfc_dtype t;
  size_t es;
  const char *in, *filter;
  char *out;
  int64_t M, K, OC;
  int64_t tm, ntm;   /* rows per tile, row tiles */
  int64_t tn, ntn;   /* columns per tile, column tiles */
  int64_t nchunks;
  bool pointwise;
  atomic_bool oom;
} fwd_job;

/* Runs chunks [b, e) of a forward job: each chunk a contiguous run of tiles. */
static void fwd_chunk(void *arg, int64_t b, int64_t e) {
  fwd_job *j = arg;
  int64_t ntiles = j->ntm * j->ntn;
  char *scratch = NULL;
  if (!j->pointwise) {
    scratch = tfc_aligned_alloc((size_t)(j->tm * j->K) * j->es);
    if (!scratch) {
      atomic_store(&j->oom, true);
      return;
    }
  }
  for (int64_t c = b; c < e; c++) {
    int64_t t0 = c * ntiles / j->nchunks, t1 = (c + 1) * ntiles / j->nchunks, prev = -1;
    for (int64_t tile = t0; tile < t1; tile++) {
      int64_t mi = tile / j->ntn, ni = tile % j->ntn;
      int64_t m0 = mi * j->tm, rows = j->M - m0 < j->tm ? j->M - m0 : j->tm;
      int64_t n0 = ni * j->tn, cols = j->OC - n0 < j->tn ? j->OC - n0 : j->tn;
      const char *a;
      if (j->pointwise) {
        a = j->in + (size_t)(m0 * j->K) * j->es;
      } else {
        if (mi != prev) im2col(j->g, j->es, j->in, m0, rows, scratch);
        a = scratch;
      }
      prev = mi;
      gemm(j->t, false, false, rows, cols, j->K, a, j->K, j->filter + (size_t)n0 * j->es, j->OC, 0.0,
           j->out + (size_t)(m0 * j->OC + n0) * j->es, j->OC);
    }
  }
  tfc_aligned_free(scratch);
}

/* Fast forward convolution (see conv_internal.h). */
bool tfc_conv2d_fwd_gemm(tfc_kernel_ctx *ctx, tfc_dtype t, const tfc_conv_geom *g, const void *in,
                         const void *filter, void *out) {
  fwd_job j = {.g = g, .t = t, .es = tfc_dtype_size(t), .in = in, .filter = filter, .out = out,
               .K = patch_len(g), .OC = g->out_depth, .pointwise = is_pointwise(g)};
  j.M = g->batch * g->out_rows * g->out_cols;
  if (j.M == 0 || j.OC == 0) return true;
  if (j.K == 0) {
    memset(out, 0, (size_t)(j.M * j.OC) * j.es);
    return true;
  }
  if (!tfc_blas_dims_ok(j.M, j.OC, j.K, j.K, j.OC, j.OC)) {
    tfc_conv2d_fwd_ref(t, g, in, filter, out);
    return true;
  }
  int64_t nt = chunk_count(ctx, INT64_MAX, j.M * j.K * j.OC);
  j.tm = j.pointwise ? (j.M + nt - 1) / nt : tile_rows(j.K, j.es);
  j.ntm = (j.M + j.tm - 1) / j.tm;
  if (nt > 1) { /* balance: a multiple of nt row tiles */
    int64_t want = (j.ntm + nt - 1) / nt * nt;
    j.tm = (j.M + want - 1) / want;
    j.ntm = (j.M + j.tm - 1) / j.tm;
  }
  j.tn = j.OC;
  j.ntn = 1;
  if (j.ntm < nt && j.OC >= 2 * COL_ALIGN) { /* too few rows: split the columns too */
    int64_t tn = (j.OC + nt - 1) / nt;
    j.tn = (tn + COL_ALIGN - 1) / COL_ALIGN * COL_ALIGN;
    j.ntn = (j.OC + j.tn - 1) / j.tn;
  }
  j.nchunks = j.ntm * j.ntn < nt ? j.ntm * j.ntn : nt;
  atomic_init(&j.oom, false);
  tfc_kernel_parallel_for(ctx, j.nchunks, 1, fwd_chunk, &j);
  if (atomic_load(&j.oom))
    return tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM allocating convolution scratch");
  return true;
}

/* ---------------------------------------------------------------- input gradient */

typedef struct bin_job {
  const tfc_conv_geom *g;
  tfc_dtype t;
  size_t es;
  const char *filter, *dy;
  char *dx;
  int64_t K, OC;
  int64_t R, nb;      /* output rows per band, bands per image */
  int parity;         /* pass: bands b with b % 2 == parity */
  int64_t units;      /* batch * bands of this parity */
  int64_t nchunks;
  bool pointwise;
  atomic_bool oom;
} bin_job;

/* Runs chunks [b, e) of one pass of an input-gradient job. */
static void bin_chunk(void *arg, int64_t b, int64_t e) {
  bin_job *j = arg;
  const tfc_conv_geom *g = j->g;
  if (j->pointwise) { /* dx[M x IC] = dy[M x OC] * filter[IC x OC]^T */
    int64_t M = g->batch * g->out_rows * g->out_cols;
    for (int64_t c = b; c < e; c++) {
      int64_t m0 = c * M / j->nchunks, m1 = (c + 1) * M / j->nchunks;
      gemm(j->t, false, true, m1 - m0, g->in_depth, j->OC, j->dy + (size_t)(m0 * j->OC) * j->es,
           j->OC, j->filter, j->OC, 0.0, j->dx + (size_t)(m0 * g->in_depth) * j->es, g->in_depth);
    }
    return;
  }
  char *cols = tfc_aligned_alloc((size_t)(j->R * g->out_cols * j->K) * j->es);
  if (!cols) {
    atomic_store(&j->oom, true);
    return;
  }
  int64_t per_image = (j->nb - j->parity + 1) / 2;
  for (int64_t c = b; c < e; c++) {
    int64_t u0 = c * j->units / j->nchunks, u1 = (c + 1) * j->units / j->nchunks;
    for (int64_t u = u0; u < u1; u++) {
      int64_t n = u / per_image, band = j->parity + 2 * (u % per_image);
      int64_t oh0 = band * j->R, rows = g->out_rows - oh0 < j->R ? g->out_rows - oh0 : j->R;
      const char *dyb = j->dy + (size_t)((n * g->out_rows + oh0) * g->out_cols * j->OC) * j->es;
      gemm(j->t, false, true, rows * g->out_cols, j->K, j->OC, dyb, j->OC, j->filter, j->OC, 0.0,
           cols, j->K);
      if (j->t == TFC_DTYPE_FLOAT) col2im_f32(g, (const float *)cols, n, oh0, rows, (float *)j->dx);
      else col2im_f64(g, (const double *)cols, n, oh0, rows, (double *)j->dx);
    }
  }
  tfc_aligned_free(cols);
}

typedef struct zero_job {
  char *p;
} zero_job;

/* Zeroes bytes [b, e) of a buffer. */
static void zero_shard(void *arg, int64_t b, int64_t e) {
  memset(((zero_job *)arg)->p + b, 0, (size_t)(e - b));
}

/* Fast input gradient (see conv_internal.h). */
bool tfc_conv2d_bwd_input_gemm(tfc_kernel_ctx *ctx, tfc_dtype t, const tfc_conv_geom *g,
                               const void *filter, const void *dy, void *dx) {
  bin_job j = {.g = g, .t = t, .es = tfc_dtype_size(t), .filter = filter, .dy = dy, .dx = dx,
               .K = patch_len(g), .OC = g->out_depth, .pointwise = is_pointwise(g)};
  int64_t M = g->batch * g->out_rows * g->out_cols;
  int64_t nx = g->batch * g->in_rows * g->in_cols * g->in_depth;
  if (nx == 0) return true;
  if (M == 0 || j.K == 0 || j.OC == 0 || !tfc_blas_dims_ok(M, j.K, j.OC, j.OC, j.OC, j.K)) {
    tfc_conv2d_bwd_input_ref(t, g, filter, dy, dx);
    return true;
  }
  int64_t macs = M * j.K * j.OC;
  atomic_init(&j.oom, false);
  if (j.pointwise) {
    j.nchunks = chunk_count(ctx, M, macs);
    tfc_kernel_parallel_for(ctx, j.nchunks, 1, bin_chunk, &j);
    return true;
  }
  zero_job z = {dx};
  tfc_kernel_parallel_for(ctx, nx * (int64_t)j.es, (int64_t)1 << 20, zero_shard, &z);
  /* Bands at least this tall never share input rows with the band after next. */
  int64_t rmin = ((g->filter_rows - 1) * g->dil_rows + g->stride_rows) / g->stride_rows;
  int64_t r = TILE_BYTES / (g->out_cols * j.K * (int64_t)j.es);
  int64_t rrows = (MIN_TILE_ROWS + g->out_cols - 1) / g->out_cols;
  j.R = r > rmin ? r : rmin;
  if (j.R < rrows) j.R = rrows;
  if (j.R > g->out_rows) j.R = g->out_rows;
  j.nb = (g->out_rows + j.R - 1) / j.R;
  for (int p = 0; p < 2 && p < j.nb; p++) {
    j.parity = p;
    j.units = g->batch * ((j.nb - p + 1) / 2);
    j.nchunks = chunk_count(ctx, j.units, macs);
    tfc_kernel_parallel_for(ctx, j.nchunks, 1, bin_chunk, &j);
    if (atomic_load(&j.oom))
      return tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM allocating convolution scratch");
  }
  return true;
}

/* ---------------------------------------------------------------- filter gradient */

typedef struct bf_job {
  const tfc_conv_geom *g;
  tfc_dtype t;
  size_t es;
  const char *in, *dy;
  char *df;         /* chunk 0 accumulates here */
  char *partials;   /* chunks 1.. accumulate here, K * OC each */
  int64_t M, K, OC, tm, ntm, nchunks;
  bool pointwise;
  atomic_bool oom;
} bf_job;

/* Runs chunks [b, e) of a filter-gradient job. */
static void bf_chunk(void *arg, int64_t b, int64_t e) {
  bf_job *j = arg;
  char *scratch = NULL;
  if (!j->pointwise) {
    scratch = tfc_aligned_alloc((size_t)(j->tm * j->K) * j->es);
    if (!scratch) {
      atomic_store(&j->oom, true);
      return;
    }
  }
  for (int64_t c = b; c < e; c++) {
    char *acc = c == 0 ? j->df : j->partials + (size_t)((c - 1) * j->K * j->OC) * j->es;
    memset(acc, 0, (size_t)(j->K * j->OC) * j->es);
    int64_t t0 = c * j->ntm / j->nchunks, t1 = (c + 1) * j->ntm / j->nchunks;
    for (int64_t tile = t0; tile < t1; tile++) {
      int64_t m0 = tile * j->tm, rows = j->M - m0 < j->tm ? j->M - m0 : j->tm;
      const char *a;
      if (j->pointwise) {
        a = j->in + (size_t)(m0 * j->K) * j->es;
      } else {
        im2col(j->g, j->es, j->in, m0, rows, scratch);
        a = scratch;
      }
      gemm(j->t, true, false, j->K, j->OC, rows, a, j->K, j->dy + (size_t)(m0 * j->OC) * j->es,
           j->OC, 1.0, acc, j->OC);
    }
  }
  tfc_aligned_free(scratch);
}

/* Fast filter gradient (see conv_internal.h). */
bool tfc_conv2d_bwd_filter_gemm(tfc_kernel_ctx *ctx, tfc_dtype t, const tfc_conv_geom *g,
                                const void *in, const void *dy, void *dfilter) {
  bf_job j = {.g = g, .t = t, .es = tfc_dtype_size(t), .in = in, .dy = dy, .df = dfilter,
              .K = patch_len(g), .OC = g->out_depth, .pointwise = is_pointwise(g)};
  j.M = g->batch * g->out_rows * g->out_cols;
  if (j.K == 0 || j.OC == 0) return true;
  if (j.M == 0 || !tfc_blas_dims_ok(j.K, j.OC, j.M, j.K, j.OC, j.OC)) {
    tfc_conv2d_bwd_filter_ref(t, g, in, dy, dfilter);
    return true;
  }
  int64_t nt = chunk_count(ctx, INT64_MAX, j.M * j.K * j.OC);
  j.tm = j.pointwise ? (j.M + nt - 1) / nt : tile_rows(j.K, j.es);
  j.ntm = (j.M + j.tm - 1) / j.tm;
  if (nt > 1) {
    int64_t want = (j.ntm + nt - 1) / nt * nt;
    j.tm = (j.M + want - 1) / want;
    j.ntm = (j.M + j.tm - 1) / j.tm;
  }
  j.nchunks = j.ntm < nt ? j.ntm : nt;
  if (j.nchunks > 1) {
    j.partials = tfc_aligned_alloc((size_t)((j.nchunks - 1) * j.K * j.OC) * j.es);
    if (!j.partials)
      return tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM allocating convolution scratch");
  }
  atomic_init(&j.oom, false);
  tfc_kernel_parallel_for(ctx, j.nchunks, 1, bf_chunk, &j);
  if (atomic_load(&j.oom)) {
    tfc_aligned_free(j.partials);
    return tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM allocating convolution scratch");
  }
  int64_t n = j.K * j.OC;
  for (int64_t c = 1; c < j.nchunks; c++) {
    if (t == TFC_DTYPE_FLOAT) {
      float *d = dfilter;
      const float *p = (const float *)j.partials + (c - 1) * n;
      for (int64_t i = 0; i < n; i++) d[i] += p[i];
    } else {
      double *d = dfilter;
      const double *p = (const double *)j.partials + (c - 1) * n;
      for (int64_t i = 0; i < n; i++) d[i] += p[i];
    }
  }
  tfc_aligned_free(j.partials);
  return true;
}
