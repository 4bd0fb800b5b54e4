/*
 * conv_depthwise.c — depthwise 2-D convolution (DepthwiseConv2dNative and
 * its input and filter gradients) for float and double, NHWC.
 *
 * Output channel c * depth_mult + m is input channel c convolved with filter
 * slice [:, :, c, m]. Channels are contiguous in NHWC, so every inner loop
 * runs along the channels (vectorised by the compiler); for each filter tap
 * the range of output columns that tap reaches inside the input is worked
 * out once, so the hot loops carry no bounds checks. The forward pass is
 * parallel over output rows, the input gradient over input rows (each input
 * row gathers from the output rows that read it, so no two rows write the
 * same place), and the filter gradient sums per-chunk partial filters.
 */
#include <stdatomic.h>
#include <string.h>

#include "base/alloc.h"
#include "kernels/conv_internal.h"

/* Below this many multiply-adds a depthwise op runs on one thread. */
#define DW_PAR_MACS ((int64_t)1 << 18)

typedef struct dw_job {
  const tfc_conv_geom *g;
  const void *in_a, *in_b;  /* fwd: in, filter; bwd_in: filter, dy; bwd_f: in, dy */
  void *out;           /* fwd: out; bwd_in: dx; bwd_f: chunk-0 filter */
  void *partials;      /* bwd_f: chunks 1.., one filter each */
  int64_t units, nchunks;
} dw_job;

/* The output columns [*lo, *hi) whose filter tap kw lands inside the input. */
static void tap_cols(const tfc_conv_geom *g, int64_t kw, int64_t *lo, int64_t *hi) {
  int64_t off = kw * g->dil_cols - g->pad_left; /* iw = ow * stride + off */
  int64_t s = g->stride_cols;
  *lo = off >= 0 ? 0 : (-off + s - 1) / s;
  int64_t last = g->in_cols - 1 - off; /* largest ow * stride allowed */
  *hi = last < 0 ? 0 : last / s + 1;
  if (*hi > g->out_cols) *hi = g->out_cols;
  if (*lo > *hi) *lo = *hi;
}

/* Defines the three depthwise loops for element type T. */
#define DEFINE_DW(SUF, T)                                                                        \
  /* Forward over output rows [b, e) (flattened batch x out_rows): for each  \
   * filter tap, one pass over the output columns that tap reaches. */       \
  static void fwd_rows_##SUF(void *arg, int64_t b, int64_t e) {                                  \
    const dw_job *j = arg;                                                                       \
    const tfc_conv_geom *g = j->g;                                                               \
    const T *in = j->in_a, *f = j->in_b;                                                         \
    T *out = j->out;                                                                             \
    const int64_t IC = g->in_depth, DM = g->depth_mult, OC = g->out_depth;                       \
    for (int64_t u = b; u < e; u++) {                                                            \
      int64_t n = u / g->out_rows, oh = u % g->out_rows;                                         \
      T *orow = out + u * g->out_cols * OC;                                                      \
      for (int64_t i = 0; i < g->out_cols * OC; i++) orow[i] = 0;                                \
      for (int64_t kh = 0; kh < g->filter_rows; kh++) {                                          \
        int64_t ih = oh * g->stride_rows - g->pad_top + kh * g->dil_rows;                        \
        if (ih < 0 || ih >= g->in_rows) continue;                                                \
        const T *irow = in + (n * g->in_rows + ih) * g->in_cols * IC;                            \
        for (int64_t kw = 0; kw < g->filter_cols; kw++) {                                        \
          int64_t lo, hi;                                                                        \
          tap_cols(g, kw, &lo, &hi);                                                             \
          const T *w = f + (kh * g->filter_cols + kw) * OC;                                      \
          for (int64_t ow = lo; ow < hi; ow++) {                                                 \
            T *o = orow + ow * OC;                                                               \
            const T *x = irow + (ow * g->stride_cols - g->pad_left + kw * g->dil_cols) * IC;     \
            if (DM == 1) {                                                                       \
              for (int64_t c = 0; c < IC; c++) o[c] += x[c] * w[c];                              \
            } else {                                                                             \
              for (int64_t c = 0; c < IC; c++)                                                   \
                for (int64_t m = 0; m < DM; m++) o[c * DM + m] += x[c] * w[c * DM + m];          \
            }                                                                                    \
          }                                                                                      \
        }                                                                                        \
      }                                                                                          \
    }                                                                                            \
  }                                                                                              \
  /* Input gradient over input rows [b, e) (flattened batch x in_rows): each \
   * input row gathers from the output rows and taps that read it. */         \
  static void bwd_in_rows_##SUF(void *arg, int64_t b, int64_t e) {                               \
    const dw_job *j = arg;                                                                       \
    const tfc_conv_geom *g = j->g;                                                               \
    const T *f = j->in_a, *dy = j->in_b;                                                         \
    T *dx = j->out;                                                                              \
    const int64_t IC = g->in_depth, DM = g->depth_mult, OC = g->out_depth;                       \
    for (int64_t u = b; u < e; u++) {                                                            \
      int64_t n = u / g->in_rows, ih = u % g->in_rows;                                           \
      T *drow = dx + u * g->in_cols * IC;                                                        \
      for (int64_t i = 0; i < g->in_cols * IC; i++) drow[i] = 0;                                 \
      for (int64_t kh = 0; kh < g->filter_rows; kh++) {                                          \
        int64_t th = ih + g->pad_top - kh * g->dil_rows;                                         \
        if (th < 0 || th % g->stride_rows) continue;                                             \
        int64_t oh = th / g->stride_rows;                                                        \
        if (oh >= g->out_rows) continue;                                                         \
        const T *yrow = dy + (n * g->out_rows + oh) * g->out_cols * OC;                          \
        for (int64_t kw = 0; kw < g->filter_cols; kw++) {                                        \
          int64_t lo, hi;                                                                        \
          tap_cols(g, kw, &lo, &hi);                                                             \
          const T *w = f + (kh * g->filter_cols + kw) * OC;                                      \
          for (int64_t ow = lo; ow < hi; ow++) {                                                 \
            T *d = drow + (ow * g->stride_cols - g->pad_left + kw * g->dil_cols) * IC;           \
            const T *y = yrow + ow * OC;                                                         \
            if (DM == 1) {                                                                       \
              for (int64_t c = 0; c < IC; c++) d[c] += y[c] * w[c];                              \
            } else {                                                                             \
              for (int64_t c = 0; c < IC; c++) {                                                 \
                T acc = 0;                                                                       \
                for (int64_t m = 0; m < DM; m++) acc += y[c * DM + m] * w[c * DM + m];           \
                d[c] += acc;                                                                     \
              }                                                                                  \
            }                                                                                    \
          }                                                                                      \
        }                                                                                        \
      }                                                                                          \
    }                                                                                            \
  }                                                                                              \
  /* Filter gradient of chunks [b, e): chunk c sums output rows of its share. */ \
  static void bwd_f_chunks_##SUF(void *arg, int64_t b, int64_t e) {                              \
    const dw_job *j = arg;                                                                       \
    const tfc_conv_geom *g = j->g;                                                               \
    const T *in = j->in_a, *dy = j->in_b;                                                        \
    const int64_t IC = g->in_depth, DM = g->depth_mult, OC = g->out_depth;                       \
    const int64_t fsize = g->filter_rows * g->filter_cols * OC;                                  \
    for (int64_t c = b; c < e; c++) {                                                            \
      T *df = c == 0 ? (T *)j->out : (T *)j->partials + (c - 1) * fsize;                         \
      memset(df, 0, (size_t)fsize * sizeof(T));                                                  \
      int64_t u0 = c * j->units / j->nchunks, u1 = (c + 1) * j->units / j->nchunks;              \
      for (int64_t u = u0; u < u1; u++) {                                                        \
        int64_t n = u / g->out_rows, oh = u % g->out_rows;                                       \
        const T *yrow = dy + u * g->out_cols * OC;                                               \
        for (int64_t kh = 0; kh < g->filter_rows; kh++) {                                        \
          int64_t ih = oh * g->stride_rows - g->pad_top + kh * g->dil_rows;                      \
          if (ih < 0 || ih >= g->in_rows) continue;                                              \
          const T *irow = in + (n * g->in_rows + ih) * g->in_cols * IC;                          \
          for (int64_t kw = 0; kw < g->filter_cols; kw++) {                                      \
            int64_t lo, hi;                                                                      \
            tap_cols(g, kw, &lo, &hi);                                                           \
            T *w = df + (kh * g->filter_cols + kw) * OC;                                         \
            for (int64_t ow = lo; ow < hi; ow++) {                                               \
              const T *x = irow + (ow * g->stride_cols - g->pad_left + kw * g->dil_cols) * IC;   \
              const T *y = yrow + ow * OC;                                                       \
              if (DM == 1) {                                                                     \
                for (int64_t ch = 0; ch < IC; ch++) w[ch] += x[ch] * y[ch];                      \
              } else {                                                                           \
                for (int64_t ch = 0; ch < IC; ch++)                                              \
                  for (int64_t m = 0; m < DM; m++) w[ch * DM + m] += x[ch] * y[ch * DM + m];     \
              }                                                                                  \
            }                                                                                    \
          }                                                                                      \
        }                                                                                        \
      }                                                                                          \
    }                                                                                            \
  }
DEFINE_DW(f32, float)
DEFINE_DW(f64, double)

/* Multiply-adds of one depthwise pass (for the parallel threshold). */
static int64_t dw_macs(const tfc_conv_geom *g) {
  return g->batch * g->out_rows * g->out_cols * g->out_depth * g->filter_rows * g->filter_cols;
}

/* Minimum rows per shard so small ops stay on one thread. */
static int64_t min_rows(const tfc_conv_geom *g, int64_t rows) {
  return dw_macs(g) < DW_PAR_MACS ? rows : 1;
}

/* Depthwise forward (see conv_internal.h). */
void tfc_depthwise_fwd(tfc_kernel_ctx *ctx, tfc_dtype t, const tfc_conv_geom *g, const void *in,
                       const void *filter, void *out) {
  dw_job j = {.g = g, .in_a = in, .in_b = filter, .out = out};
  int64_t rows = g->batch * g->out_rows;
  tfc_kernel_parallel_for(ctx, rows, min_rows(g, rows), t == TFC_DTYPE_FLOAT ? fwd_rows_f32 : fwd_rows_f64,
                          &j);
}

/* Depthwise input gradient (see conv_internal.h). */
void tfc_depthwise_bwd_input(tfc_kernel_ctx *ctx, tfc_dtype t, const tfc_conv_geom *g,
                             const void *filter, const void *dy, void *dx) {
  dw_job j = {.g = g, .in_a = filter, .in_b = dy, .out = dx};
  int64_t rows = g->batch * g->in_rows;
  tfc_kernel_parallel_for(ctx, rows, min_rows(g, rows),
                          t == TFC_DTYPE_FLOAT ? bwd_in_rows_f32 : bwd_in_rows_f64, &j);
}

/* Depthwise filter gradient (see conv_internal.h). */
bool tfc_depthwise_bwd_filter(tfc_kernel_ctx *ctx, tfc_dtype t, const tfc_conv_geom *g,
                              const void *in, const void *dy, void *dfilter) {
  dw_job j = {.g = g, .in_a = in, .in_b = dy, .out = dfilter, .units = g->batch * g->out_rows};
  int64_t nt = dw_macs(g) < DW_PAR_MACS ? 1 : tfc_conv_threads(ctx);
  j.nchunks = j.units < nt ? (j.units > 0 ? j.units : 1) : nt;
  int64_t fsize = g->filter_rows * g->filter_cols * g->out_depth;
  size_t es = tfc_dtype_size(t);
  if (j.nchunks > 1) {
    j.partials = tfc_aligned_alloc((size_t)((j.nchunks - 1) * fsize) * es);
    if (!j.partials)
      return tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM allocating depthwise scratch");
  }
  tfc_kernel_parallel_for(ctx, j.nchunks, 1, t == TFC_DTYPE_FLOAT ? bwd_f_chunks_f32 : bwd_f_chunks_f64,
                          &j);
  for (int64_t c = 1; c < j.nchunks; c++) {
    if (t == TFC_DTYPE_FLOAT) {
      float *d = dfilter;
      const float *p = (const float *)j.partials + (c - 1) * fsize;
      for (int64_t i = 0; i < fsize; i++) d[i] += p[i];
    } else {
      double *d = dfilter;
      const double *p = (const double *)j.partials + (c - 1) * fsize;
      for (int64_t i = 0; i < fsize; i++) d[i] += p[i];
    }
  }
  tfc_aligned_free(j.partials);
  return true;
}
