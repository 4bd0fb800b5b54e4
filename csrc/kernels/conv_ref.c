/*
 * conv_ref.c — direct-loop 2-D convolution (forward, input gradient, filter
 * gradient) over a tfc_conv_geom. These loops are the obviously-correct
 * reference the im2col/GEMM kernels are tested against; they also serve
 * int32 Conv2D and shapes too large for the BLAS int type. Single-threaded.
 * Integer arithmetic wraps (computed unsigned), like TF's Eigen kernels on
 * any real machine.
 */
#include <string.h>

#include "kernels/conv_internal.h"

/* Defines fwd_<SUF>, bwd_in_<SUF>, bwd_f_<SUF> for element type T computed
 * as CT (CT unsigned for integer T so overflow wraps). */
#define DEFINE_REF(SUF, T, CT)                                                                  \
  static void fwd_##SUF(const tfc_conv_geom *g, const T *in, const T *f, T *out) {              \
    const int64_t IC = g->in_depth, OC = g->out_depth;                                          \
    for (int64_t n = 0; n < g->batch; n++)                                                      \
      for (int64_t oh = 0; oh < g->out_rows; oh++)                                              \
        for (int64_t ow = 0; ow < g->out_cols; ow++) {                                          \
          T *o = out + ((n * g->out_rows + oh) * g->out_cols + ow) * OC;                        \
          for (int64_t oc = 0; oc < OC; oc++) o[oc] = 0;                                        \
          for (int64_t kh = 0; kh < g->filter_rows; kh++) {                                     \
            int64_t ih = oh * g->stride_rows - g->pad_top + kh * g->dil_rows;                   \
            if (ih < 0 || ih >= g->in_rows) continue;                                           \
            for (int64_t kw = 0; kw < g->filter_cols; kw++) {                                   \
              int64_t iw = ow * g->stride_cols - g->pad_left + kw * g->dil_cols;                \
              if (iw < 0 || iw >= g->in_cols) continue;                                         \
              const T *x = in + ((n * g->in_rows + ih) * g->in_cols + iw) * IC;                 \
              const T *w = f + (kh * g->filter_cols + kw) * IC * OC;                            \
              for (int64_t ic = 0; ic < IC; ic++)                                               \
                for (int64_t oc = 0; oc < OC; oc++)                                             \
                  o[oc] = (T)((CT)o[oc] + (CT)x[ic] * (CT)w[ic * OC + oc]);                     \
            }                                                                                   \
          }                                                                                     \
        }                                                                                       \
  }                                                                                             \
  static void bwd_in_##SUF(const tfc_conv_geom *g, const T *f, const T *dy, T *dx) {            \
    const int64_t IC = g->in_depth, OC = g->out_depth;                                          \
    memset(dx, 0, (size_t)(g->batch * g->in_rows * g->in_cols * IC) * sizeof(T));               \
    for (int64_t n = 0; n < g->batch; n++)                                                      \
      for (int64_t oh = 0; oh < g->out_rows; oh++)                                              \
        for (int64_t ow = 0; ow < g->out_cols; ow++) {                                          \
          const T *d = dy + ((n * g->out_rows + oh) * g->out_cols + ow) * OC;                   \
          for (int64_t kh = 0; kh < g->filter_rows; kh++) {                                     \
            int64_t ih = oh * g->stride_rows - g->pad_top + kh * g->dil_rows;                   \
            if (ih < 0 || ih >= g->in_rows) continue;                                           \
            for (int64_t kw = 0; kw < g->filter_cols; kw++) {                                   \
              int64_t iw = ow * g->stride_cols - g->pad_left + kw * g->dil_cols;                \
              if (iw < 0 || iw >= g->in_cols) continue;                                         \
              T *x = dx + ((n * g->in_rows + ih) * g->in_cols + iw) * IC;                       \
              const T *w = f + (kh * g->filter_cols + kw) * IC * OC;                            \
              for (int64_t ic = 0; ic < IC; ic++) {                                             \
                CT s = 0;                                                                       \
                for (int64_t oc = 0; oc < OC; oc++) s += (CT)d[oc] * (CT)w[ic * OC + oc];       \
                x[ic] = (T)((CT)x[ic] + s);                                                     \
              }                                                                                 \
            }                                                                                   \
          }                                                                                     \
        }                                                                                       \
  }                                                                                             \
  static void bwd_f_##SUF(const tfc_conv_geom *g, const T *in, const T *dy, T *df) {            \
    const int64_t IC = g->in_depth, OC = g->out_depth;                                          \
    memset(df, 0, (size_t)(g->filter_rows * g->filter_cols * IC * OC) * sizeof(T));             \
    for (int64_t n = 0; n < g->batch; n++)                                                      \
      for (int64_t oh = 0; oh < g->out_rows; oh++)                                              \
        for (int64_t ow = 0; ow < g->out_cols; ow++) {                                          \
          const T *d = dy + ((n * g->out_rows + oh) * g->out_cols + ow) * OC;                   \
          for (int64_t kh = 0; kh < g->filter_rows; kh++) {                                     \
            int64_t ih = oh * g->stride_rows - g->pad_top + kh * g->dil_rows;                   \
            if (ih < 0 || ih >= g->in_rows) continue;                                           \
            for (int64_t kw = 0; kw < g->filter_cols; kw++) {                                   \
              int64_t iw = ow * g->stride_cols - g->pad_left + kw * g->dil_cols;                \
              if (iw < 0 || iw >= g->in_cols) continue;                                         \
              const T *x = in + ((n * g->in_rows + ih) * g->in_cols + iw) * IC;                 \
              T *w = df + (kh * g->filter_cols + kw) * IC * OC;                                 \
              for (int64_t ic = 0; ic < IC; ic++)                                               \
                for (int64_t oc = 0; oc < OC; oc++)                                             \
                  w[ic * OC + oc] = (T)((CT)w[ic * OC + oc] + (CT)x[ic] * (CT)d[oc]);           \
            }                                                                                   \
          }                                                                                     \
        }                                                                                       \
  }

DEFINE_REF(f32, float, float)
DEFINE_REF(f64, double, double)
DEFINE_REF(i32, int32_t, uint32_t)

/* Reference forward convolution (float, double or int32). */
void tfc_conv2d_fwd_ref(tfc_dtype t, const tfc_conv_geom *g, const void *in, const void *filter,
                        void *out) {
  switch (t) {
    case TFC_DTYPE_FLOAT: fwd_f32(g, in, filter, out); break;
    case TFC_DTYPE_DOUBLE: fwd_f64(g, in, filter, out); break;
    case TFC_DTYPE_INT32: fwd_i32(g, in, filter, out); break;
    default: break;
  }
}

/* Reference input gradient (float, double or int32). */
void tfc_conv2d_bwd_input_ref(tfc_dtype t, const tfc_conv_geom *g, const void *filter,
                              const void *dy, void *dx) {
  switch (t) {
    case TFC_DTYPE_FLOAT: bwd_in_f32(g, filter, dy, dx); break;
    case TFC_DTYPE_DOUBLE: bwd_in_f64(g, filter, dy, dx); break;
    case TFC_DTYPE_INT32: bwd_in_i32(g, filter, dy, dx); break;
    default: break;
  }
}

/* Reference filter gradient (float, double or int32). */
void tfc_conv2d_bwd_filter_ref(tfc_dtype t, const tfc_conv_geom *g, const void *in,
                               const void *dy, void *dfilter) {
  switch (t) {
    case TFC_DTYPE_FLOAT: bwd_f_f32(g, in, dy, dfilter); break;
    case TFC_DTYPE_DOUBLE: bwd_f_f64(g, in, dy, dfilter); break;
    case TFC_DTYPE_INT32: bwd_f_i32(g, in, dy, dfilter); break;
    default: break;
  }
}
