/*
 * pool.c — CPU kernels for MaxPool, MaxPoolV2, MaxPoolGrad, MaxPoolGradV2,
 * AvgPool and AvgPoolGrad (NHWC, as TF's CPU kernels).
 *
 * Semantics follow TF's CPU kernels: windows are clipped to the input (SAME
 * padding never contributes values); MaxPool starts from the type's lowest
 * finite value and keeps x when x > max, so NaNs are skipped; AvgPool
 * divides by the number of input values in the clipped window; MaxPoolGrad
 * recomputes each window's argmax from the original input, starting at the
 * window's first element and moving on when max < x (so ties go to the
 * first maximum in row-major order), and adds the gradient there; AvgPoolGrad
 * spreads each gradient evenly over its clipped window. MaxPool also pools
 * across channels (ksize on the depth dimension), as TF does.
 *
 * Loops run along the contiguous channel dimension. Forward passes are
 * parallel over output rows; gradients, whose windows overlap in the
 * output, are parallel over (image, channel block) pairs, which never share
 * an output element. half and bfloat16 are computed in float.
 */
#include <float.h>
#include <stdint.h>
#include <string.h>

#include "base/alloc.h"
#include "kernels/conv_internal.h"

/* Channels per block of a gradient work unit. */
#define CB 64
/* Work (window elements) below which a pooling op runs on one thread. */
#define POOL_PAR_WORK ((int64_t)1 << 16)

/* The geometry of one 2-D pooling in NHWC. */
typedef struct pool_geom {
  int64_t batch, in_rows, in_cols, depth;
  int64_t win_rows, win_cols, stride_rows, stride_cols;
  int64_t out_rows, out_cols, out_depth;
  int64_t pad_top, pad_left;
  int64_t depth_window;  /* > 1: MaxPool across channels instead */
} pool_geom;

/* ---------------------------------------------------------------- parameters */

/* TF's PoolParameters: checks the input and works out the output geometry
 * for window attrs a (NHWC). */
static bool pool_params(tfc_kernel_ctx *ctx, const tfc_window_attrs *a, const tfc_tensor *in,
                        pool_geom *p) {
  if (in->rank != 4)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "tensor_in must be 4-dimensional");
  memset(p, 0, sizeof *p);
  p->batch = in->dims[0];
  p->in_rows = in->dims[1];
  p->in_cols = in->dims[2];
  p->depth = in->dims[3];
  p->win_rows = a->ksize[1];
  p->win_cols = a->ksize[2];
  p->stride_rows = a->strides[1];
  p->stride_cols = a->strides[2];
  p->depth_window = a->ksize[3];
  if (!(p->depth_window == 1 || (p->win_rows == 1 && p->win_cols == 1)))
    return tfc_kernel_fail(ctx, TFC_CODE_UNIMPLEMENTED,
                           "MaxPooling supports exactly one of pooling across depth or pooling "
                           "across width/height.");
  int64_t pt = a->explicit_paddings[2], pb = a->explicit_paddings[3];
  int64_t pl = a->explicit_paddings[4], pr = a->explicit_paddings[5];
  if (a->padding == TFC_PAD_EXPLICIT) {
    const char *names[4] = {"Top", "Bottom", "Left", "Right"};
    const int64_t pads[4] = {pt, pb, pl, pr}, wins[4] = {p->win_rows, p->win_rows, p->win_cols,
                                                         p->win_cols};
    for (int i = 0; i < 4; i++)
      if (pads[i] >= wins[i])
        return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                               "%s padding %lld needs to be smaller than the window size %lld",
                               names[i], (long long)pads[i], (long long)wins[i]);
  }
  if (p->depth_window == 1) {
    if (!tfc_windowed_output_size(ctx, p->in_rows, p->win_rows, 1, p->stride_rows, a->padding, &pt,
                                  &pb, &p->out_rows) ||
        !tfc_windowed_output_size(ctx, p->in_cols, p->win_cols, 1, p->stride_cols, a->padding, &pl,
                                  &pr, &p->out_cols))
      return false;
    p->pad_top = pt;
    p->pad_left = pl;
    p->out_depth = p->depth;
    return true;
  }
  if (p->depth % p->depth_window)
    return tfc_kernel_fail(ctx, TFC_CODE_UNIMPLEMENTED,
                           "Depthwise max pooling requires the depth window to evenly divide the "
                           "input depth");
  if (a->strides[3] != p->depth_window)
    return tfc_kernel_fail(ctx, TFC_CODE_UNIMPLEMENTED,
                           "Depthwise max pooling requires the depth window to equal the depth "
                           "stride");
  p->out_rows = p->in_rows;
  p->out_cols = p->in_cols;
  p->out_depth = p->depth / p->depth_window;
  return true;
}

/* Reads the attrs of a pooling node; for the V2 ops (ksize/strides given
 * as inputs ksize_in and ksize_in + 1) reads and checks those instead. */
static bool pool_attrs(tfc_kernel_ctx *ctx, int ksize_in, tfc_window_attrs *a) {
  if (!tfc_window_read_attrs(ctx, TFC_WIN_POOL, a)) return false;
  if (ksize_in < 0) return true;
  if (!tfc_window_read_vec4(ctx, ctx->inputs[ksize_in], "ksize", a->ksize) ||
      !tfc_window_read_vec4(ctx, ctx->inputs[ksize_in + 1], "stride", a->strides))
    return false;
  for (int i = 0; i < 4; i++)
    if (a->ksize[i] <= 0)
      return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                             "Sliding window ksize for dimension %d was zero.", i);
  if (a->ksize[0] != 1 || a->strides[0] != 1)
    return tfc_kernel_fail(ctx, TFC_CODE_UNIMPLEMENTED,
                           "Pooling is not yet supported on the batch dimension.");
  return true;
}

/* Clips the window of output index o (stride s, window k, padding pad) to
 * [0, n): *b inclusive, *e exclusive. */
static inline void clip_window(int64_t o, int64_t s, int64_t k, int64_t pad, int64_t n, int64_t *b,
                               int64_t *e) {
  int64_t start = o * s - pad, end = start + k;
  *b = start < 0 ? 0 : start;
  *e = end > n ? n : end;
}

/* Minimum units per shard: all of them when the op is small. */
static int64_t min_units(int64_t work, int64_t units) {
  return work < POOL_PAR_WORK ? (units > 0 ? units : 1) : 1;
}

/* ---------------------------------------------------------------- kernels by type */

typedef struct pool_job {
  const pool_geom *p;
  const void *in, *grad;
  void *out;
  int64_t ncb;   /* channel blocks per image (gradients) */
} pool_job;

/* Defines the max-pool loops for element type T with lowest value LOWEST:
 * maxpool_<SUF> (output rows), maxpool_depth_<SUF> (pixels) and
 * maxgrad_<SUF> (image x channel-block units, dx pre-zeroed). */
#define DEFINE_MAX(SUF, T, LOWEST)                                                               \
  static void maxpool_##SUF(void *arg, int64_t b, int64_t e) {                                   \
    const pool_job *j = arg;                                                                     \
    const pool_geom *p = j->p;                                                                   \
    const T *in = j->in;                                                                         \
    T *out = j->out;                                                                             \
    const int64_t C = p->depth;                                                                  \
    for (int64_t u = b; u < e; u++) {                                                            \
      int64_t n = u / p->out_rows, oh = u % p->out_rows, hs, he;                                 \
      clip_window(oh, p->stride_rows, p->win_rows, p->pad_top, p->in_rows, &hs, &he);            \
      for (int64_t ow = 0; ow < p->out_cols; ow++) {                                             \
        int64_t ws, we;                                                                          \
        clip_window(ow, p->stride_cols, p->win_cols, p->pad_left, p->in_cols, &ws, &we);         \
        T *o = out + (u * p->out_cols + ow) * C;                                                 \
        for (int64_t c = 0; c < C; c++) o[c] = LOWEST;                                           \
        for (int64_t h = hs; h < he; h++)                                                        \
          for (int64_t w = ws; w < we; w++) {                                                    \
            const T *x = in + ((n * p->in_rows + h) * p->in_cols + w) * C;                       \
            for (int64_t c = 0; c < C; c++) o[c] = x[c] > o[c] ? x[c] : o[c];                    \
          }                                                                                      \
      }                                                                                          \
    }                                                                                            \
  }                                                                                              \
  static void maxpool_depth_##SUF(void *arg, int64_t b, int64_t e) {                             \
    const pool_job *j = arg;                                                                     \
    const pool_geom *p = j->p;                                                                   \
    const T *in = j->in;                                                                         \
    T *out = j->out;                                                                             \
    const int64_t dw = p->depth_window, OD = p->out_depth;                                       \
    for (int64_t u = b; u < e; u++)                                                              \
      for (int64_t d = 0; d < OD; d++) {                                                         \
        const T *x = in + u * p->depth + d * dw;                                                 \
        T m = LOWEST;                                                                            \
        for (int64_t k = 0; k < dw; k++) m = x[k] > m ? x[k] : m;                                \
        out[u * OD + d] = m;                                                                     \
      }                                                                                          \
  }                                                                                              \
  static void maxgrad_##SUF(void *arg, int64_t b, int64_t e) {                                   \
    const pool_job *j = arg;                                                                     \
    const pool_geom *p = j->p;                                                                   \
    const T *in = j->in, *g = j->grad;                                                           \
    T *dx = j->out;                                                                              \
    const int64_t C = p->depth;                                                                  \
    T best[CB];                                                                                  \
    int64_t arg_px[CB];                                                                          \
    for (int64_t u = b; u < e; u++) {                                                            \
      int64_t n = u / j->ncb, c0 = (u % j->ncb) * CB, nc = C - c0 < CB ? C - c0 : CB;            \
      for (int64_t oh = 0; oh < p->out_rows; oh++) {                                             \
        int64_t hs, he;                                                                          \
        clip_window(oh, p->stride_rows, p->win_rows, p->pad_top, p->in_rows, &hs, &he);          \
        for (int64_t ow = 0; ow < p->out_cols; ow++) {                                           \
          int64_t ws, we;                                                                        \
          clip_window(ow, p->stride_cols, p->win_cols, p->pad_left, p->in_cols, &ws, &we);       \
          if (hs >= he || ws >= we) continue;                                                    \
          int64_t first = (n * p->in_rows + hs) * p->in_cols + ws;                               \
          for (int64_t c = 0; c < nc; c++) {                                                     \
            best[c] = in[first * C + c0 + c];                                                    \
            arg_px[c] = first;                                                                   \
          }                                                                                      \
          for (int64_t h = hs; h < he; h++)                                                      \
            for (int64_t w = ws; w < we; w++) {                                                  \
              int64_t px = (n * p->in_rows + h) * p->in_cols + w;                                \
              const T *x = in + px * C + c0;                                                     \
              for (int64_t c = 0; c < nc; c++)                                                   \
                if (best[c] < x[c]) {                                                            \
                  best[c] = x[c];                                                                \
                  arg_px[c] = px;                                                                \
                }                                                                                \
            }                                                                                    \
          const T *gy = g + ((n * p->out_rows + oh) * p->out_cols + ow) * C + c0;                \
          for (int64_t c = 0; c < nc; c++) dx[arg_px[c] * C + c0 + c] += gy[c];                  \
        }                                                                                        \
      }                                                                                          \
    }                                                                                            \
  }

DEFINE_MAX(f32, float, -FLT_MAX)
DEFINE_MAX(f64, double, -DBL_MAX)
DEFINE_MAX(i8, int8_t, INT8_MIN)
DEFINE_MAX(i16, int16_t, INT16_MIN)
DEFINE_MAX(i32, int32_t, INT32_MIN)
DEFINE_MAX(i64, int64_t, INT64_MIN)
DEFINE_MAX(u8, uint8_t, 0)
DEFINE_MAX(u16, uint16_t, 0)
DEFINE_MAX(u32, uint32_t, 0)
DEFINE_MAX(u64, uint64_t, 0)

/* Defines the average-pool loops for floating type T: avgpool_<SUF>
 * (output rows) and avggrad_<SUF> (image x channel-block units, dx
 * pre-zeroed). */
#define DEFINE_AVG(SUF, T)                                                                       \
  static void avgpool_##SUF(void *arg, int64_t b, int64_t e) {                                   \
    const pool_job *j = arg;                                                                     \
    const pool_geom *p = j->p;                                                                   \
    const T *in = j->in;                                                                         \
    T *out = j->out;                                                                             \
    const int64_t C = p->depth;                                                                  \
    for (int64_t u = b; u < e; u++) {                                                            \
      int64_t n = u / p->out_rows, oh = u % p->out_rows, hs, he;                                 \
      clip_window(oh, p->stride_rows, p->win_rows, p->pad_top, p->in_rows, &hs, &he);            \
      for (int64_t ow = 0; ow < p->out_cols; ow++) {                                             \
        int64_t ws, we;                                                                          \
        clip_window(ow, p->stride_cols, p->win_cols, p->pad_left, p->in_cols, &ws, &we);         \
        T *o = out + (u * p->out_cols + ow) * C;                                                 \
        for (int64_t c = 0; c < C; c++) o[c] = 0;                                                \
        for (int64_t h = hs; h < he; h++)                                                        \
          for (int64_t w = ws; w < we; w++) {                                                    \
            const T *x = in + ((n * p->in_rows + h) * p->in_cols + w) * C;                       \
            for (int64_t c = 0; c < C; c++) o[c] += x[c];                                        \
          }                                                                                      \
        T count = (T)((he - hs) * (we - ws));                                                    \
        for (int64_t c = 0; c < C; c++) o[c] /= count;                                           \
      }                                                                                          \
    }                                                                                            \
  }                                                                                              \
  static void avggrad_##SUF(void *arg, int64_t b, int64_t e) {                                   \
    const pool_job *j = arg;                                                                     \
    const pool_geom *p = j->p;                                                                   \
    const T *g = j->grad;                                                                        \
    T *dx = j->out;                                                                              \
    const int64_t C = p->depth;                                                                  \
    for (int64_t u = b; u < e; u++) {                                                            \
      int64_t n = u / j->ncb, c0 = (u % j->ncb) * CB, nc = C - c0 < CB ? C - c0 : CB;            \
      for (int64_t oh = 0; oh < p->out_rows; oh++) {                                             \
        int64_t hs, he;                                                                          \
        clip_window(oh, p->stride_rows, p->win_rows, p->pad_top, p->in_rows, &hs, &he);          \
        for (int64_t ow = 0; ow < p->out_cols; ow++) {                                           \
          int64_t ws, we;                                                                        \
          clip_window(ow, p->stride_cols, p->win_cols, p->pad_left, p->in_cols, &ws, &we);       \
          if (hs >= he || ws >= we) continue;                                                    \
          T scale = (T)1 / (T)((he - hs) * (we - ws));                                           \
          const T *gy = g + ((n * p->out_rows + oh) * p->out_cols + ow) * C + c0;                \
          T v[CB];                                                                               \
          for (int64_t c = 0; c < nc; c++) v[c] = gy[c] * scale;                                 \
          for (int64_t h = hs; h < he; h++)                                                      \
            for (int64_t w = ws; w < we; w++) {                                                  \
              T *d = dx + ((n * p->in_rows + h) * p->in_cols + w) * C + c0;                      \
              for (int64_t c = 0; c < nc; c++) d[c] += v[c];                                     \
            }                                                                                    \
        }                                                                                        \
      }                                                                                          \
    }                                                                                            \
  }

DEFINE_AVG(f32, float)
DEFINE_AVG(f64, double)

/* MaxPoolGrad for float when no two windows overlap (strides at least the
 * window: the common 2x2 / stride 2 pooling of CNNs). Each window's
 * gradient goes to its first maximum, as in maxgrad_f32, but every pixel of
 * the window is assigned (the gradient or zero) in one vectorizable pass
 * over the channel block, with no scatter: per channel the argmax is kept
 * as a window position. Pixels outside every window keep the pre-zeroed
 * value. Same units as maxgrad_f32. */
static void maxgrad_disjoint_f32(void *arg, int64_t b, int64_t e) {
  const pool_job *j = arg;
  const pool_geom *p = j->p;
  const float *in = j->in, *g = j->grad;
  float *dx = j->out;
  const int64_t C = p->depth;
  float best[CB];
  int32_t arg_k[CB];
  for (int64_t u = b; u < e; u++) {
    int64_t n = u / j->ncb, c0 = (u % j->ncb) * CB, nc = C - c0 < CB ? C - c0 : CB;
    for (int64_t oh = 0; oh < p->out_rows; oh++) {
      int64_t hs, he;
      clip_window(oh, p->stride_rows, p->win_rows, p->pad_top, p->in_rows, &hs, &he);
      for (int64_t ow = 0; ow < p->out_cols; ow++) {
        int64_t ws, we;
        clip_window(ow, p->stride_cols, p->win_cols, p->pad_left, p->in_cols, &ws, &we);
        if (hs >= he || ws >= we) continue;
        const float *x0 = in + ((n * p->in_rows + hs) * p->in_cols + ws) * C + c0;
        for (int64_t c = 0; c < nc; c++) {
          best[c] = x0[c];
          arg_k[c] = 0;
        }
        int32_t k = 0;
        for (int64_t h = hs; h < he; h++)
          for (int64_t w = ws; w < we; w++, k++) {
            const float *x = in + ((n * p->in_rows + h) * p->in_cols + w) * C + c0;
            for (int64_t c = 0; c < nc; c++) {
              bool take = best[c] < x[c];
              best[c] = take ? x[c] : best[c];
              arg_k[c] = take ? k : arg_k[c];
            }
          }
        const float *gy = g + ((n * p->out_rows + oh) * p->out_cols + ow) * C + c0;
        k = 0;
        for (int64_t h = hs; h < he; h++)
          for (int64_t w = ws; w < we; w++, k++) {
            float *d = dx + ((n * p->in_rows + h) * p->in_cols + w) * C + c0;
            for (int64_t c = 0; c < nc; c++) d[c] = arg_k[c] == k ? gy[c] : 0.0f;
          }
      }
    }
  }
}

/* The max-pool loops for a dtype (16-bit types use the float ones on float
 * copies); NULL when the dtype has none. */
static void max_fns(tfc_dtype t, tfc_range_fn *fwd, tfc_range_fn *depth, tfc_range_fn *grad) {
  tfc_range_fn f = NULL, d = NULL, g = NULL;
  switch (t) {
#define CASE(DT, SUF)          \
  case DT:                     \
    f = maxpool_##SUF;         \
    d = maxpool_depth_##SUF;   \
    g = maxgrad_##SUF;         \
    break;
    CASE(TFC_DTYPE_FLOAT, f32)
    CASE(TFC_DTYPE_HALF, f32)
    CASE(TFC_DTYPE_BFLOAT16, f32)
    CASE(TFC_DTYPE_DOUBLE, f64)
    CASE(TFC_DTYPE_INT8, i8)
    CASE(TFC_DTYPE_QINT8, i8)
    CASE(TFC_DTYPE_INT16, i16)
    CASE(TFC_DTYPE_INT32, i32)
    CASE(TFC_DTYPE_INT64, i64)
    CASE(TFC_DTYPE_UINT8, u8)
    CASE(TFC_DTYPE_UINT16, u16)
    CASE(TFC_DTYPE_UINT32, u32)
    CASE(TFC_DTYPE_UINT64, u64)
#undef CASE
    default: break;
  }
  if (fwd) *fwd = f;
  if (depth) *depth = d;
  if (grad) *grad = g;
}

/* ---------------------------------------------------------------- shared driver */

/* Runs `fn` over `units` with job j whose input `in` (and `grad`) may be
 * 16-bit: those are widened to float copies, out is computed in a float
 * buffer and narrowed into out_t. zero_out clears the (float) output
 * first. Fails ctx on OOM. */
static void run_pool(tfc_kernel_ctx *ctx, tfc_range_fn fn, pool_job *j, int64_t units,
                     int64_t min_shard, const tfc_tensor *in, const tfc_tensor *grad,
                     tfc_tensor *out, bool zero_out) {
  tfc_dtype t = out->dtype;
  if (!tfc_conv_is16(t)) {
    j->in = in ? in->data : NULL;
    j->grad = grad ? grad->data : NULL;
    j->out = out->data;
    if (zero_out) memset(out->data, 0, tfc_tensor_nbytes(out));
    tfc_kernel_parallel_for(ctx, units, min_shard, fn, j);
    return;
  }
  float *inf = in ? tfc_conv_widen_copy(ctx, in) : NULL;
  float *gf = (!in || inf) && grad ? tfc_conv_widen_copy(ctx, grad) : NULL;
  float *of = NULL;
  if ((!in || inf) && (!grad || gf)) {
    of = tfc_aligned_alloc((size_t)out->nelems * sizeof(float));
    if (!of) tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM allocating a float output");
  }
  if (of) {
    j->in = inf;
    j->grad = gf;
    j->out = of;
    if (zero_out) memset(of, 0, (size_t)out->nelems * sizeof(float));
    tfc_kernel_parallel_for(ctx, units, min_shard, fn, j);
    tfc_conv_narrow(ctx, t, of, (uint16_t *)out->data, out->nelems);
  }
  tfc_aligned_free(inf);
  tfc_aligned_free(gf);
  tfc_aligned_free(of);
}

/* ---------------------------------------------------------------- MaxPool */

/* MaxPool / MaxPoolV2 (see conv_internal.h). */
void tfc_max_pool_compute(tfc_kernel_ctx *ctx) {
  tfc_window_attrs a;
  if (!pool_attrs(ctx, ctx->n_inputs == 3 ? 1 : -1, &a)) return;
  if (a.nchw) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Default MaxPoolingOp only supports NHWC on device type CPU");
    return;
  }
  const tfc_tensor *in = ctx->inputs[0];
  pool_geom p;
  if (!pool_params(ctx, &a, in, &p)) return;
  int64_t od[4] = {p.batch, p.out_rows, p.out_cols, p.out_depth};
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, in->dtype, 4, od);
  if (!out || out->nelems == 0) return;
  tfc_range_fn fwd, depth;
  max_fns(in->dtype, &fwd, &depth, NULL);
  if (!fwd) {
    tfc_kernel_fail(ctx, TFC_CODE_UNIMPLEMENTED, "MaxPool is not implemented for %s",
                    tfc_dtype_name(in->dtype));
    return;
  }
  pool_job j = {.p = &p};
  if (p.depth_window > 1) {
    int64_t units = p.batch * p.in_rows * p.in_cols;
    run_pool(ctx, depth, &j, units, min_units(in->nelems, units), in, NULL, out, false);
  } else {
    int64_t units = p.batch * p.out_rows;
    run_pool(ctx, fwd, &j, units, min_units(out->nelems * p.win_rows * p.win_cols, units), in, NULL,
             out, false);
  }
}

/* Fails ctx unless t has exactly the dims of want ("Expected <what> shape to
 * be [..], but got [..]"). */
static bool expect_dims(tfc_kernel_ctx *ctx, const tfc_tensor *t, const int64_t *want,
                        const char *what) {
  bool same = t->rank == 4;
  for (int i = 0; same && i < 4; i++) same = t->dims[i] == want[i];
  if (same) return true;
  char a[160], b[160];
  tfc_tensor w = {.rank = 4};
  memcpy(w.dims, want, 4 * sizeof want[0]);
  tfc_conv_dims_str(&w, a, sizeof a);
  tfc_conv_dims_str(t, b, sizeof b);
  return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Expected %s shape to be %s, but got %s",
                         what, a, b);
}

/* MaxPoolGrad / MaxPoolGradV2 (see conv_internal.h). */
void tfc_max_pool_grad_compute(tfc_kernel_ctx *ctx) {
  tfc_window_attrs a;
  if (!pool_attrs(ctx, ctx->n_inputs == 5 ? 3 : -1, &a)) return;
  if (a.nchw) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Default MaxPoolingGradOp only supports NHWC on device type CPU");
    return;
  }
  if (a.ksize[3] != 1 || a.strides[3] != 1) {
    tfc_kernel_fail(ctx, TFC_CODE_UNIMPLEMENTED,
                    "MaxPoolingGrad is not yet supported on the depth dimension.");
    return;
  }
  const tfc_tensor *in = ctx->inputs[0], *orig_out = ctx->inputs[1], *grad = ctx->inputs[2];
  if (in->rank != 4) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "tensor_in must be 4-dimensional");
    return;
  }
  if (orig_out->rank != 4) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "tensor_out must be 4-dimensional");
    return;
  }
  if (grad->rank != 4) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "out_backprop must be 4-dimensional");
    return;
  }
  pool_geom p;
  if (!pool_params(ctx, &a, in, &p)) return;
  int64_t od[4] = {p.batch, p.out_rows, p.out_cols, p.out_depth};
  if (!expect_dims(ctx, orig_out, od, "orig_output") || !expect_dims(ctx, grad, od, "grad")) return;
  tfc_tensor *dx = tfc_kernel_alloc_output(ctx, 0, in->dtype, 4, in->dims);
  if (!dx || dx->nelems == 0) return;
  tfc_range_fn fn;
  max_fns(in->dtype, NULL, NULL, &fn);
  if (!fn) {
    tfc_kernel_fail(ctx, TFC_CODE_UNIMPLEMENTED, "MaxPoolGrad is not implemented for %s",
                    tfc_dtype_name(in->dtype));
    return;
  }
  pool_job j = {.p = &p, .ncb = (p.depth + CB - 1) / CB};
  int64_t units = p.batch * j.ncb;
  /* Windows that never overlap take the single-pass loop; when they also
   * tile the input exactly, every dx element is written by it and the
   * output needs no clearing first. */
  bool zero = true;
  if (fn == maxgrad_f32 && p.stride_rows >= p.win_rows && p.stride_cols >= p.win_cols) {
    fn = maxgrad_disjoint_f32;
    zero = !(p.stride_rows == p.win_rows && p.stride_cols == p.win_cols && p.pad_top == 0 &&
             p.pad_left == 0 && p.out_rows * p.win_rows == p.in_rows &&
             p.out_cols * p.win_cols == p.in_cols);
  }
  run_pool(ctx, fn, &j, units, min_units(grad->nelems * p.win_rows * p.win_cols, units), in, grad,
           dx, zero);
}

/* ---------------------------------------------------------------- AvgPool */

/* Rejects pooling across channels, which TF's AvgPool does not do. */
static bool avg_spatial_only(tfc_kernel_ctx *ctx, const pool_geom *p) {
  if (p->depth_window != 1)
    return tfc_kernel_fail(ctx, TFC_CODE_UNIMPLEMENTED,
                           "Non-spatial pooling is not yet supported. Volunteers? :)");
  return true;
}

/* AvgPool (see conv_internal.h). */
void tfc_avg_pool_compute(tfc_kernel_ctx *ctx) {
  tfc_window_attrs a;
  if (!pool_attrs(ctx, -1, &a)) return;
  if (a.nchw) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Default AvgPoolingOp only supports NHWC on device type CPU");
    return;
  }
  const tfc_tensor *in = ctx->inputs[0];
  pool_geom p;
  if (!pool_params(ctx, &a, in, &p) || !avg_spatial_only(ctx, &p)) return;
  int64_t od[4] = {p.batch, p.out_rows, p.out_cols, p.out_depth};
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, in->dtype, 4, od);
  if (!out || out->nelems == 0) return;
  pool_job j = {.p = &p};
  int64_t units = p.batch * p.out_rows;
  run_pool(ctx, in->dtype == TFC_DTYPE_DOUBLE ? avgpool_f64 : avgpool_f32, &j, units,
           min_units(out->nelems * p.win_rows * p.win_cols, units), in, NULL, out, false);
}

/* AvgPoolGrad (see conv_internal.h). */
void tfc_avg_pool_grad_compute(tfc_kernel_ctx *ctx) {
  tfc_window_attrs a;
  if (!pool_attrs(ctx, -1, &a)) return;
  if (a.nchw) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Default AvgPoolingGradOp only supports NHWC on device type CPU");
    return;
  }
  const tfc_tensor *shape = ctx->inputs[0], *grad = ctx->inputs[1];
  if (shape->rank != 1 || shape->nelems != 4) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "out_backprop must be 1-dimensional and 4 elements");
    return;
  }
  if (grad->rank != 4) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "out_backprop must be 4-dimensional");
    return;
  }
  int64_t id[4];
  if (tfc_kernel_read_int_vector(ctx, shape, id, 4, "orig_input_shape") < 0) return;
  for (int i = 0; i < 4; i++)
    if (id[i] < 0) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Dimension %lld must be >= 0", (long long)id[i]);
      return;
    }
  tfc_tensor fake = {.rank = 4};
  memcpy(fake.dims, id, sizeof id);
  pool_geom p;
  if (!pool_params(ctx, &a, &fake, &p) || !avg_spatial_only(ctx, &p)) return;
  int64_t od[4] = {p.batch, p.out_rows, p.out_cols, p.out_depth};
  if (!expect_dims(ctx, grad, od, "grad")) return;
  tfc_tensor *dx = tfc_kernel_alloc_output(ctx, 0, grad->dtype, 4, id);
  if (!dx || dx->nelems == 0) return;
  pool_job j = {.p = &p, .ncb = (p.depth + CB - 1) / CB};
  int64_t units = p.batch * j.ncb;
  run_pool(ctx, grad->dtype == TFC_DTYPE_DOUBLE ? avggrad_f64 : avggrad_f32, &j, units,
           min_units(grad->nelems * p.win_rows * p.win_cols, units), NULL, grad, dx, true);
}
