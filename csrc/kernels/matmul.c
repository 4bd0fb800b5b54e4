/*
 * matmul.c — CPU kernels for MatMul, BatchMatMul and BatchMatMulV2.
 *
 * float goes to oneDNN's sgemm (kernels/dnn_backend.h; the BLAS when
 * TFC_GEMM_BACKEND=openblas or oneDNN refuses), double to the BLAS
 * (kernels/blas.h); matrix-vector products use the BLAS gemv, except small
 * float row-vector products (gemv_row_f32, see SMALL_GEMV_KN). A big product is split
 * into row blocks of the output (or column blocks, when the output is wider
 * than tall), one BLAS call per block on the intra-op pool; the BLAS itself
 * is single-threaded. half and bfloat16 are widened to float, multiplied by
 * sgemm and rounded back. Integer types use a plain cache-blocked loop with
 * wrapping arithmetic; complex64/complex128 go to the BLAS cgemm/zgemm.
 * Batched products run several matrices at once on the
 * pool when the matrices are small, or one at a time with the split above.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "kernels/blas.h"
#include "kernels/dnn_backend.h"
#include "kernels/kernel.h"
#include "kernels/kernel_tables.h"

/* Below this many flops (2*m*n*k) a product runs on one thread. */
#define PAR_FLOPS ((int64_t)1 << 22)
/* Below this many multiply-adds (m*n*k) float products use the plain loop. */
#define SMALL_MNK 4096
/* A float row vector times a matrix with at most this many multiply-adds
 * (k * n) runs on gemv_row_f32 rather than the BLAS or oneDNN: the product
 * of a small network's classifier head (1x1024 by 1024x10: 5-9 us here,
 * like the libraries) then needs no library at all, where the first call
 * would load OpenBLAS (4-5 ms of CPU) or JIT-compile oneDNN's GEMM kernels
 * (about 6 million instructions). */
#define SMALL_GEMV_KN ((int64_t)1 << 16)
/* Row/column blocks handed to the BLAS are multiples of this. */
#define SPLIT_ALIGN 16

/* One product C[m x n] = op(A) op(B), row-major with leading dimensions. */
typedef struct gemm_args {
  tfc_dtype t;
  bool ta, tb;
  bool adj;  /* complex: a transposed operand is also conjugated (BatchMatMul adj_x/adj_y) */
  int64_t m, n, k;
  const void *a;
  int64_t lda;
  const void *b;
  int64_t ldb;
  void *c;
  int64_t ldc;
} gemm_args;

/* ---------------------------------------------------------------- plain loops */

/* Defines gemm_loop_<NAME>: C = op(A) op(B) for element type T, computing in
 * CT (unsigned and at least as wide as int, so overflow wraps instead of
 * being undefined). Loops i-p-j
 * over blocks so the innermost loop runs along contiguous rows of B and C;
 * a transposed operand is read with its strides (acceptable for the small or
 * integer products that land here). */
#define DEFINE_LOOP(NAME, T, CT)                                                              \
  static void gemm_loop_##NAME(const gemm_args *g) {                                         \
    const T *A = g->a, *B = g->b;                                                            \
    T *C = g->c;                                                                             \
    int64_t as_i = g->ta ? 1 : g->lda, as_p = g->ta ? g->lda : 1;                            \
    int64_t bs_p = g->tb ? 1 : g->ldb, bs_j = g->tb ? g->ldb : 1;                            \
    for (int64_t i = 0; i < g->m; i++)                                                       \
      for (int64_t j = 0; j < g->n; j++) C[i * g->ldc + j] = 0;                              \
    const int64_t PB = 256, JB = 512;                                                        \
    for (int64_t j0 = 0; j0 < g->n; j0 += JB) {                                              \
      int64_t j1 = j0 + JB < g->n ? j0 + JB : g->n;                                          \
      for (int64_t p0 = 0; p0 < g->k; p0 += PB) {                                            \
        int64_t p1 = p0 + PB < g->k ? p0 + PB : g->k;                                        \
        for (int64_t i = 0; i < g->m; i++) {                                                 \
          T *crow = C + i * g->ldc;                                                          \
          for (int64_t p = p0; p < p1; p++) {                                                \
            CT av = (CT)A[i * as_i + p * as_p];                                              \
            const T *brow = B + p * bs_p;                                                    \
            if (bs_j == 1) {                                                                 \
              for (int64_t j = j0; j < j1; j++) crow[j] = (T)((CT)crow[j] + av * (CT)brow[j]); \
            } else {                                                                         \
              for (int64_t j = j0; j < j1; j++)                                              \
                crow[j] = (T)((CT)crow[j] + av * (CT)brow[j * bs_j]);                        \
            }                                                                                \
          }                                                                                  \
        }                                                                                    \
      }                                                                                      \
    }                                                                                        \
  }

DEFINE_LOOP(f32, float, float)
DEFINE_LOOP(f64, double, double)
DEFINE_LOOP(i16, int16_t, uint32_t)
DEFINE_LOOP(i32, int32_t, uint32_t)
DEFINE_LOOP(i64, int64_t, uint64_t)
DEFINE_LOOP(u8, uint8_t, uint32_t)
DEFINE_LOOP(u16, uint16_t, uint32_t)
DEFINE_LOOP(u32, uint32_t, uint32_t)
DEFINE_LOOP(u64, uint64_t, uint64_t)

/* c[0, 0:n] = a[0, 0:k] B for a float row vector a (m == 1; a transposed
 * a is read with its stride) and a B that is not transposed: blocks of up
 * to 64 outputs are accumulated in a local array, four rows of B per pass,
 * so the inner loop is a multiply-add along B's contiguous rows that the
 * compiler vectorizes. */
static void gemv_row_f32(const gemm_args *g) {
  const float *a = g->a, *B = g->b;
  float *c = g->c;
  const int64_t as = g->ta ? g->lda : 1, ldb = g->ldb, k = g->k;
  for (int64_t j0 = 0; j0 < g->n; j0 += 64) {
    const int64_t jn = g->n - j0 < 64 ? g->n - j0 : 64;
    float acc[64] = {0};
    int64_t p = 0;
    for (; p + 4 <= k; p += 4) {
      const float *b0 = B + p * ldb + j0, *b1 = b0 + ldb, *b2 = b1 + ldb, *b3 = b2 + ldb;
      const float a0 = a[p * as], a1 = a[(p + 1) * as], a2 = a[(p + 2) * as],
                  a3 = a[(p + 3) * as];
      for (int64_t j = 0; j < jn; j++) acc[j] += a0 * b0[j] + a1 * b1[j] + a2 * b2[j] + a3 * b3[j];
    }
    for (; p < k; p++) {
      const float *b0 = B + p * ldb + j0;
      const float a0 = a[p * as];
      for (int64_t j = 0; j < jn; j++) acc[j] += a0 * b0[j];
    }
    memcpy(c + j0, acc, (size_t)jn * sizeof *c);
  }
}

/* ---------------------------------------------------------------- one product */

/* True when float products go to oneDNN's sgemm: the default, since it
 * measured faster than OpenBLAS on the training shapes (one thread: MLP step
 * 0.80 -> 0.73 ms) and level on large squares; TFC_GEMM_BACKEND=openblas
 * selects the BLAS. Read once; a benign race writes the same value. */
static bool use_dnn_gemm(void) {
  static _Atomic int v = -1;
  int cur = v;
  if (cur < 0) {
    const char *e = getenv("TFC_GEMM_BACKEND");
    cur = !(e && strcmp(e, "openblas") == 0);
    v = cur;
  }
  return cur == 1;
}

/* Computes one product on the calling thread (float/double through the BLAS
 * unless tiny or too large for its int type; integers by loop). */
static void gemm_serial(const gemm_args *g) {
  if (g->m <= 0 || g->n <= 0) return;
  bool blas_ok = tfc_blas_dims_ok(g->m, g->n, g->k, g->lda, g->ldb, g->ldc) &&
                 g->m * g->n * g->k > SMALL_MNK;
  switch (g->t) {
    case TFC_DTYPE_FLOAT:
      if (g->m == 1 && !g->tb && g->k * g->n <= SMALL_GEMV_KN) gemv_row_f32(g);
      else if (!blas_ok) gemm_loop_f32(g);
      else if (g->m == 1 && g->k > 0)
        tfc_blas_sgemv(!g->tb, g->tb ? g->n : g->k, g->tb ? g->k : g->n, 1.0f, g->b, g->ldb, g->a,
                       g->ta ? g->lda : 1, 0.0f, g->c, 1);
      else if (g->n == 1 && g->k > 0)
        tfc_blas_sgemv(g->ta, g->ta ? g->k : g->m, g->ta ? g->m : g->k, 1.0f, g->a, g->lda, g->b,
                       g->tb ? 1 : g->ldb, 0.0f, g->c, g->ldc);
      else if (!use_dnn_gemm() ||
               !tfc_dnn_sgemm(g->ta, g->tb, g->m, g->n, g->k, 1.0f, g->a, g->lda, g->b, g->ldb,
                              0.0f, g->c, g->ldc))
        tfc_blas_sgemm(g->ta, g->tb, g->m, g->n, g->k, 1.0f, g->a, g->lda, g->b, g->ldb, 0.0f, g->c,
                       g->ldc);
      break;
    case TFC_DTYPE_DOUBLE:
      if (!blas_ok) gemm_loop_f64(g);
      else if (g->m == 1 && g->k > 0)
        tfc_blas_dgemv(!g->tb, g->tb ? g->n : g->k, g->tb ? g->k : g->n, 1.0, g->b, g->ldb, g->a,
                       g->ta ? g->lda : 1, 0.0, g->c, 1);
      else if (g->n == 1 && g->k > 0)
        tfc_blas_dgemv(g->ta, g->ta ? g->k : g->m, g->ta ? g->m : g->k, 1.0, g->a, g->lda, g->b,
                       g->tb ? 1 : g->ldb, 0.0, g->c, g->ldc);
      else
        tfc_blas_dgemm(g->ta, g->tb, g->m, g->n, g->k, 1.0, g->a, g->lda, g->b, g->ldb, 0.0, g->c,
                       g->ldc);
      break;
    case TFC_DTYPE_COMPLEX64:
    case TFC_DTYPE_COMPLEX128: {
      int oa = g->ta ? (g->adj ? 2 : 1) : 0, ob = g->tb ? (g->adj ? 2 : 1) : 0;
      if (g->t == TFC_DTYPE_COMPLEX64)
        tfc_blas_cgemm(oa, ob, g->m, g->n, g->k, g->a, g->lda, g->b, g->ldb, g->c, g->ldc);
      else
        tfc_blas_zgemm(oa, ob, g->m, g->n, g->k, g->a, g->lda, g->b, g->ldb, g->c, g->ldc);
      break;
    }
    case TFC_DTYPE_INT16: gemm_loop_i16(g); break;
    case TFC_DTYPE_INT32: gemm_loop_i32(g); break;
    case TFC_DTYPE_INT64: gemm_loop_i64(g); break;
    case TFC_DTYPE_UINT8: gemm_loop_u8(g); break;
    case TFC_DTYPE_UINT16: gemm_loop_u16(g); break;
    case TFC_DTYPE_UINT32: gemm_loop_u32(g); break;
    case TFC_DTYPE_UINT64: gemm_loop_u64(g); break;
    default: break;
  }
}

/* A product split into blocks of `chunk` rows (split_m) or columns. */
typedef struct split_job {
  gemm_args g;
  bool split_m;
  int64_t chunk;
} split_job;

/* Computes blocks [b, e) of a split product. */
static void split_shard(void *arg, int64_t b, int64_t e) {
  const split_job *s = arg;
  size_t es = tfc_dtype_size(s->g.t);
  for (int64_t blk = b; blk < e; blk++) {
    gemm_args g = s->g;
    if (s->split_m) {
      int64_t i0 = blk * s->chunk, rows = g.m - i0 < s->chunk ? g.m - i0 : s->chunk;
      g.m = rows;
      g.a = (const char *)g.a + (size_t)(g.ta ? i0 : i0 * g.lda) * es;
      g.c = (char *)g.c + (size_t)(i0 * g.ldc) * es;
    } else {
      int64_t j0 = blk * s->chunk, cols = g.n - j0 < s->chunk ? g.n - j0 : s->chunk;
      g.n = cols;
      g.b = (const char *)g.b + (size_t)(g.tb ? j0 * g.ldb : j0) * es;
      g.c = (char *)g.c + (size_t)j0 * es;
    }
    gemm_serial(&g);
  }
}

/* Number of threads the intra-op pool offers (the caller included). */
static int pool_threads(const tfc_kernel_ctx *ctx) {
  return ctx->intra_pool ? tfc_threadpool_size(ctx->intra_pool) + 1 : 1;
}

/* Computes one product, split across the intra-op pool when it is big. */
static void gemm_parallel(tfc_kernel_ctx *ctx, const gemm_args *g) {
  int nt = pool_threads(ctx);
  int64_t flops = 2 * g->m * g->n * g->k;
  if (nt <= 1 || flops < PAR_FLOPS || (g->m < 2 * SPLIT_ALIGN && g->n < 2 * SPLIT_ALIGN)) {
    gemm_serial(g);
    return;
  }
  split_job s = {.g = *g, .split_m = g->m >= g->n};
  int64_t len = s.split_m ? g->m : g->n;
  int64_t chunk = (len + nt - 1) / nt;
  chunk = (chunk + SPLIT_ALIGN - 1) / SPLIT_ALIGN * SPLIT_ALIGN;
  s.chunk = chunk;
  int64_t nblocks = (len + chunk - 1) / chunk;
  tfc_kernel_parallel_for(ctx, nblocks, 1, split_shard, &s);
}

/* ---------------------------------------------------------------- 16-bit floats */

/* Widens n half/bfloat16 values to float. */
static void widen16(tfc_dtype t, const uint16_t *src, float *dst, int64_t n) {
  if (t == TFC_DTYPE_HALF)
    for (int64_t i = 0; i < n; i++) dst[i] = tfc_half_to_float(src[i]);
  else
    for (int64_t i = 0; i < n; i++) dst[i] = tfc_bfloat16_to_float(src[i]);
}

/* Rounds n floats to half/bfloat16. */
static void narrow16(tfc_dtype t, const float *src, uint16_t *dst, int64_t n) {
  if (t == TFC_DTYPE_HALF)
    for (int64_t i = 0; i < n; i++) dst[i] = tfc_float_to_half(src[i]);
  else
    for (int64_t i = 0; i < n; i++) dst[i] = tfc_float_to_bfloat16(src[i]);
}

/* ---------------------------------------------------------------- batched driver */

/* A batch of products: item i multiplies x at xoff[i] by y at yoff[i] (in
 * elements) into output matrix i. */
typedef struct batch_job {
  gemm_args g;  /* a/b/c are the bases; m, n, k, flags and strides shared */
  const int64_t *xoff, *yoff;
  int64_t csize;  /* elements per output matrix */
} batch_job;

/* Computes batch items [b, e), each on this thread. */
static void batch_shard(void *arg, int64_t b, int64_t e) {
  const batch_job *j = arg;
  size_t es = tfc_dtype_size(j->g.t);
  for (int64_t i = b; i < e; i++) {
    gemm_args g = j->g;
    g.a = (const char *)g.a + (size_t)j->xoff[i] * es;
    g.b = (const char *)g.b + (size_t)j->yoff[i] * es;
    g.c = (char *)g.c + (size_t)(i * j->csize) * es;
    gemm_serial(&g);
  }
}

/* Multiplies nbatch pairs of matrices (x rows x cols per matrix as stored,
 * op per ta/tb) from x and y (type t) into out: m x n matrices, contiguous.
 * xoff/yoff give each pair's element offsets. half/bfloat16 go through
 * float copies; adj conjugates a transposed complex operand. false with ctx
 * failed on OOM. */
static bool batched_gemm(tfc_kernel_ctx *ctx, tfc_dtype t, bool ta, bool tb, bool adj, int64_t m,
                         int64_t n,
                         int64_t k, const void *x, int64_t xn, const void *y, int64_t yn, void *out,
                         int64_t nbatch, const int64_t *xoff, const int64_t *yoff) {
  int64_t csize = m * n;
  if (csize == 0 || nbatch == 0) return true;
  size_t es = tfc_dtype_size(t);
  if (k == 0) {
    memset(out, 0, (size_t)(csize * nbatch) * es);
    return true;
  }
  float *xf = NULL, *yf = NULL, *of = NULL;
  tfc_dtype ct = t;
  if (t == TFC_DTYPE_HALF || t == TFC_DTYPE_BFLOAT16) {
    xf = tfc_aligned_alloc((size_t)xn * sizeof(float));
    yf = tfc_aligned_alloc((size_t)yn * sizeof(float));
    of = tfc_aligned_alloc((size_t)(csize * nbatch) * sizeof(float));
    if (!xf || !yf || !of) {
      tfc_aligned_free(xf);
      tfc_aligned_free(yf);
      tfc_aligned_free(of);
      return tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    }
    widen16(t, x, xf, xn);
    widen16(t, y, yf, yn);
    x = xf;
    y = yf;
    ct = TFC_DTYPE_FLOAT;
  }
  batch_job j = {.g = {.t = ct, .ta = ta, .tb = tb, .adj = adj, .m = m, .n = n, .k = k, .a = x,
                       .lda = ta ? m : k, .b = y, .ldb = tb ? k : n, .c = of ? (void *)of : out,
                       .ldc = n},
                 .xoff = xoff, .yoff = yoff, .csize = csize};
  int nt = pool_threads(ctx);
  int64_t flops = 2 * m * n * k;
  if (nbatch == 1 || (nbatch < 2 * nt && flops >= PAR_FLOPS)) {
    for (int64_t i = 0; i < nbatch; i++) {
      gemm_args g = j.g;
      g.a = (const char *)g.a + (size_t)xoff[i] * tfc_dtype_size(ct);
      g.b = (const char *)g.b + (size_t)yoff[i] * tfc_dtype_size(ct);
      g.c = (char *)g.c + (size_t)(i * csize) * tfc_dtype_size(ct);
      gemm_parallel(ctx, &g);
    }
  } else {
    int64_t min_shard = PAR_FLOPS / (flops > 0 ? flops : 1);
    tfc_kernel_parallel_for(ctx, nbatch, min_shard > 0 ? min_shard : 1, batch_shard, &j);
  }
  if (of) narrow16(t, of, out, csize * nbatch);
  tfc_aligned_free(xf);
  tfc_aligned_free(yf);
  tfc_aligned_free(of);
  return true;
}

/* ---------------------------------------------------------------- kernels */

/* Formats dims as TF's "[2,3]" into buf. */
static void dims_str(const tfc_tensor *t, char *buf, size_t cap) {
  size_t len = (size_t)snprintf(buf, cap, "[");
  for (int i = 0; i < t->rank && len < cap; i++)
    len += (size_t)snprintf(buf + len, cap - len, "%s%lld", i ? "," : "", (long long)t->dims[i]);
  if (len < cap) snprintf(buf + len, cap - len, "]");
}

/* Reads bool attr `name` (false when absent). */
static bool attr_bool(const tfc_kernel_ctx *ctx, const char *name) {
  const tfc_attr_value *v = tfc_attrs_find(ctx->attrs, name);
  return v && v->kind == TFC_ATTR_B && v->v.b;
}

/* MatMul: product = op(a) op(b) for 2-D a and b. */
static void matmul_compute(tfc_kernel_ctx *ctx) {
  tfc_tensor *a = ctx->inputs[0], *b = ctx->inputs[1];
  bool ta = attr_bool(ctx, "transpose_a"), tb = attr_bool(ctx, "transpose_b");
  char sa[128], sb[128];
  if (a->rank != 2 || b->rank != 2) {
    const tfc_tensor *bad = a->rank != 2 ? a : b;
    dims_str(bad, sa, sizeof sa);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "In[%d] is not a matrix. Instead it has shape %s",
                    a->rank != 2 ? 0 : 1, sa);
    return;
  }
  int64_t m = a->dims[ta ? 1 : 0], k = a->dims[ta ? 0 : 1];
  int64_t kb = b->dims[tb ? 1 : 0], n = b->dims[tb ? 0 : 1];
  if (k != kb) {
    dims_str(a, sa, sizeof sa);
    dims_str(b, sb, sizeof sb);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Matrix size-incompatible: In[0]: %s, In[1]: %s",
                    sa, sb);
    return;
  }
  int64_t dims[2] = {m, n};
  tfc_tensor *o = tfc_kernel_alloc_output(ctx, 0, a->dtype, 2, dims);
  if (!o) return;
  int64_t zero = 0;
  batched_gemm(ctx, a->dtype, ta, tb, false, m, n, k, a->data, a->nelems, b->data, b->nelems,
               o->data, 1, &zero, &zero);
}

/* Shared compute of BatchMatMul (v2 == false: equal batch dims required) and
 * BatchMatMulV2 (batch dims broadcast). adj_x/adj_y transpose the last two
 * dims (conjugating complex matrices). */
static void batch_matmul_compute_impl(tfc_kernel_ctx *ctx, bool v2) {
  tfc_tensor *x = ctx->inputs[0], *y = ctx->inputs[1];
  bool ax = attr_bool(ctx, "adj_x"), ay = attr_bool(ctx, "adj_y");
  char sx[160], sy[160];
  dims_str(x, sx, sizeof sx);
  dims_str(y, sy, sizeof sy);
  if (x->rank < 2 || y->rank < 2) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "In[%d] ndims must be >= 2: %d", x->rank < 2 ? 0 : 1,
                    x->rank < 2 ? x->rank : y->rank);
    return;
  }
  if (!v2 && x->rank != y->rank) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "In[0] and In[1] has different ndims: %s vs. %s", sx,
                    sy);
    return;
  }
  int bx = x->rank - 2, by = y->rank - 2, br = bx > by ? bx : by;
  int64_t odims[TFC_MAX_RANK];
  int64_t nbatch = 1;
  for (int i = 0; i < br; i++) {
    int xi = bx - br + i, yi = by - br + i;
    int64_t dx = xi >= 0 ? x->dims[xi] : 1, dy = yi >= 0 ? y->dims[yi] : 1;
    if (!v2 && dx != dy) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                      "In[0].dim(%d) and In[1].dim(%d) must be the same: %s vs %s", i, i, sx, sy);
      return;
    }
    if (dx != dy && dx != 1 && dy != 1) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                      "In[0] and In[1] must have compatible batch dimensions: %s vs. %s", sx, sy);
      return;
    }
    odims[i] = dx == 1 ? dy : dx;
    nbatch *= odims[i];
  }
  int64_t xr = x->dims[bx], xc = x->dims[bx + 1], yr = y->dims[by], yc = y->dims[by + 1];
  int64_t m = ax ? xc : xr, k = ax ? xr : xc, kb = ay ? yc : yr, n = ay ? yr : yc;
  if (k != kb) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Matrix size-incompatible: In[0]: %s, In[1]: %s %d %d",
                    sx, sy, ax ? 1 : 0, ay ? 1 : 0);
    return;
  }
  odims[br] = m;
  odims[br + 1] = n;
  tfc_tensor *o = tfc_kernel_alloc_output(ctx, 0, x->dtype, br + 2, odims);
  if (!o || o->nelems == 0) return;
  int64_t *xoff = tfc_malloc(sizeof(int64_t) * (size_t)nbatch * 2);
  if (!xoff) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  int64_t *yoff = xoff + nbatch;
  /* Walk the output batch index and map it into x and y (size-1 dims broadcast). */
  int64_t idx[TFC_MAX_RANK] = {0};
  for (int64_t bi = 0; bi < nbatch; bi++) {
    int64_t xo = 0, yo = 0, xs = xr * xc, ys = yr * yc;
    for (int i = br - 1; i >= 0; i--) {
      int xi = bx - br + i, yi = by - br + i;
      if (xi >= 0) {
        if (x->dims[xi] != 1) xo += idx[i] * xs;
        xs *= x->dims[xi];
      }
      if (yi >= 0) {
        if (y->dims[yi] != 1) yo += idx[i] * ys;
        ys *= y->dims[yi];
      }
    }
    xoff[bi] = xo;
    yoff[bi] = yo;
    for (int i = br - 1; i >= 0; i--) {
      if (++idx[i] < odims[i]) break;
      idx[i] = 0;
    }
  }
  batched_gemm(ctx, x->dtype, ax, ay, true, m, n, k, x->data, x->nelems, y->data, y->nelems, o->data,
               nbatch, xoff, yoff);
  tfc_free(xoff);
}

/* BatchMatMul (v1): batch dims must be equal. */
static void batch_matmul_compute(tfc_kernel_ctx *ctx) { batch_matmul_compute_impl(ctx, false); }
/* BatchMatMulV2: batch dims broadcast. */
static void batch_matmul_v2_compute(tfc_kernel_ctx *ctx) { batch_matmul_compute_impl(ctx, true); }

/* ---------------------------------------------------------------- table */

static const tfc_dtype k_matmul_types[] = {
    TFC_DTYPE_FLOAT,  TFC_DTYPE_DOUBLE, TFC_DTYPE_HALF,   TFC_DTYPE_BFLOAT16, TFC_DTYPE_INT32,
    TFC_DTYPE_INT64,  TFC_DTYPE_UINT8,  TFC_DTYPE_UINT16, TFC_DTYPE_UINT32,   TFC_DTYPE_UINT64,
    TFC_DTYPE_COMPLEX64, TFC_DTYPE_COMPLEX128, TFC_DTYPE_INVALID};
static const tfc_dtype k_bmm_types[] = {
    TFC_DTYPE_FLOAT, TFC_DTYPE_DOUBLE, TFC_DTYPE_HALF, TFC_DTYPE_BFLOAT16, TFC_DTYPE_INT32,
    TFC_DTYPE_INT64, TFC_DTYPE_COMPLEX64, TFC_DTYPE_COMPLEX128, TFC_DTYPE_INVALID};
static const tfc_dtype k_bmm2_types[] = {
    TFC_DTYPE_FLOAT,  TFC_DTYPE_DOUBLE, TFC_DTYPE_HALF,   TFC_DTYPE_BFLOAT16, TFC_DTYPE_INT16,
    TFC_DTYPE_INT32,  TFC_DTYPE_INT64,  TFC_DTYPE_UINT8,  TFC_DTYPE_UINT16,   TFC_DTYPE_UINT32,
    TFC_DTYPE_UINT64, TFC_DTYPE_COMPLEX64, TFC_DTYPE_COMPLEX128, TFC_DTYPE_INVALID};

static const tfc_kernel_def defs[] = {
    {"MatMul", "CPU", "T", k_matmul_types, NULL, matmul_compute, NULL, 0},
    {"BatchMatMul", "CPU", "T", k_bmm_types, NULL, batch_matmul_compute, NULL, 0},
    {"BatchMatMulV2", "CPU", "T", k_bmm2_types, NULL, batch_matmul_v2_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_matmul = {defs, (int)(sizeof defs / sizeof defs[0])};
