/*
 * dilation.c — CPU kernels of grayscale morphological dilation: Dilation2D,
 * Dilation2DBackpropInput and Dilation2DBackpropFilter (NHWC input, filter
 * [fh, fw, c]).
 *
 * out[b, y, x, c] = max over taps (i, j) inside the image of
 * in[b, y*sh + i*rh - pad_top, x*sw + j*rw - pad_left, c] + filter[i, j, c]
 * (the lowest value of the type when no tap is inside). The gradients send
 * each output gradient to the input cell / filter tap of the first maximum
 * (taps scanned row by row, later ones win only when strictly greater; with
 * no tap above the lowest value, the window's first cell and tap), as TF's
 * CPU kernels do. Sizes follow TF: the effective filter is
 * (f - 1) * rate + 1, SAME pads it like a convolution. Float types compute
 * in double (half/bfloat16 sums rounded to their type), integers natively.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "core/attr.h"
#include "kernels/conv_internal.h"
#include "kernels/kernel_tables.h"

typedef struct dil_geom {
  int64_t batch, h, w, c, fh, fw, sh, sw, rh, rw, oh, ow, pt, pl;
} dil_geom;

/* Checks the attrs and shapes (TF's ParseSizes) and fills g. */
static bool dil_setup(tfc_kernel_ctx *ctx, dil_geom *g) {
  const tfc_tensor *in = ctx->inputs[0], *f = ctx->inputs[1];
  const tfc_attr_value *s = tfc_attrs_find(ctx->attrs, "strides");
  const tfc_attr_value *r = tfc_attrs_find(ctx->attrs, "rates");
  if (!s || s->kind != TFC_ATTR_LIST || s->v.list.n != 4)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "Sliding window stride field must specify 4 dimensions");
  const int64_t *sv = s->v.list.v.i;
  if (sv[0] != 1 || sv[3] != 1)
    return tfc_kernel_fail(ctx, TFC_CODE_UNIMPLEMENTED,
                           "Current implementation does not yet support strides in the batch and "
                           "depth dimensions.");
  if (!r || r->kind != TFC_ATTR_LIST || r->v.list.n != 4)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "Input stride (atrous rate) field must specify 4 dimensions");
  const int64_t *rv = r->v.list.v.i;
  if (rv[0] != 1 || rv[3] != 1)
    return tfc_kernel_fail(ctx, TFC_CODE_UNIMPLEMENTED,
                           "Current implementation does not yet support rates in the batch and "
                           "depth dimensions.");
  char b[64];
  if (in->rank != 4) {
    tfc_conv_dims_str(in, b, sizeof b);
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "input must be 4-dimensional%s", b);
  }
  if (f->rank != 3) {
    tfc_conv_dims_str(f, b, sizeof b);
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "filter must be 3-dimensional: %s", b);
  }
  g->batch = in->dims[0], g->h = in->dims[1], g->w = in->dims[2], g->c = in->dims[3];
  if (f->dims[2] != g->c)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "input and filter must have the same depth: %lld vs %lld",
                           (long long)g->c, (long long)f->dims[2]);
  g->fh = f->dims[0], g->fw = f->dims[1], g->sh = sv[1], g->sw = sv[2], g->rh = rv[1], g->rw = rv[2];
  bool same = tfc_attrs_string_is(ctx->attrs, "padding", "SAME");
  tfc_padding p = same ? TFC_PAD_SAME : TFC_PAD_VALID;
  int64_t after;
  return tfc_windowed_output_size(ctx, g->h, (g->fh - 1) * g->rh + 1, 1, g->sh, p, &g->pt, &after,
                                  &g->oh) &&
         tfc_windowed_output_size(ctx, g->w, (g->fw - 1) * g->rw + 1, 1, g->sw, p, &g->pl, &after,
                                  &g->ow);
}

/* Element access through double (float types) or int64/uint64 (integers),
 * per type: D(x) reads, the sum is computed with SUM and rounded by STORE. */
#define DEFINE_DIL(SUF, C, ACC, LOAD, STORE, LOWEST)                                            \
  /* Forward (mode 0), input gradient (1) or filter gradient (2). */                            \
  static void dil_##SUF(const dil_geom *g, const void *inv, const void *fv, const void *dyv,    \
                        void *outv, int mode) {                                                 \
    const C *in = inv, *f = fv, *dy = dyv;                                                      \
    C *out = outv;                                                                              \
    int64_t oi = 0;                                                                             \
    for (int64_t b = 0; b < g->batch; b++)                                                      \
      for (int64_t y = 0; y < g->oh; y++)                                                       \
        for (int64_t x = 0; x < g->ow; x++)                                                     \
          for (int64_t c = 0; c < g->c; c++, oi++) {                                            \
            ACC best = LOWEST;                                                                  \
            int64_t bi = -1, bf = -1;                                                           \
            for (int64_t i = 0; i < g->fh; i++) {                                               \
              int64_t iy = y * g->sh + i * g->rh - g->pt;                                       \
              if (iy < 0 || iy >= g->h) continue;                                               \
              for (int64_t j = 0; j < g->fw; j++) {                                             \
                int64_t ix = x * g->sw + j * g->rw - g->pl;                                     \
                if (ix < 0 || ix >= g->w) continue;                                             \
                int64_t ii = ((b * g->h + iy) * g->w + ix) * g->c + c;                          \
                int64_t fi = (i * g->fw + j) * g->c + c;                                        \
                ACC v = STORE##_R((ACC)LOAD(in[ii]) + (ACC)LOAD(f[fi]));                        \
                if (v > best) {                                                                 \
                  best = v;                                                                     \
                  bi = ii, bf = fi;                                                             \
                }                                                                               \
              }                                                                                 \
            }                                                                                   \
            if (bi < 0) { /* no tap above the lowest value: TF's initial taps */                \
              int64_t y0 = y * g->sh - g->pt, x0 = x * g->sw - g->pl;                           \
              bf = c;                                                                           \
              if (y0 >= 0 && y0 < g->h && x0 >= 0 && x0 < g->w)                                \
                bi = ((b * g->h + y0) * g->w + x0) * g->c + c;                                  \
            }                                                                                   \
            if (mode == 0) {                                                                    \
              out[oi] = STORE(best);                                                            \
            } else if (mode == 2 || bi >= 0) {                                                  \
              int64_t t = mode == 1 ? bi : bf;                                                  \
              out[t] = STORE((ACC)LOAD(out[t]) + (ACC)LOAD(dy[oi]));                            \
            }                                                                                   \
          }                                                                                     \
  }

#define IDL(v) (v)
#define H2F(v) tfc_half_to_float(v)
#define B2F(v) tfc_bfloat16_to_float(v)
#define S_F(v) ((float)(v))
#define S_F_R(v) ((double)(float)(v))
#define S_D(v) ((double)(v))
#define S_D_R(v) (v)
#define S_H(v) tfc_float_to_half((float)(v))
#define S_H_R(v) ((double)tfc_half_to_float(tfc_float_to_half((float)(v))))
#define S_B(v) tfc_float_to_bfloat16((float)(v))
#define S_B_R(v) ((double)tfc_bfloat16_to_float(tfc_float_to_bfloat16((float)(v))))
#define S_I8(v) ((int8_t)(v))
#define S_I8_R(v) ((int64_t)(int8_t)(v))
#define S_U8(v) ((uint8_t)(v))
#define S_U8_R(v) ((int64_t)(uint8_t)(v))
#define S_I16(v) ((int16_t)(v))
#define S_I16_R(v) ((int64_t)(int16_t)(v))
#define S_U16(v) ((uint16_t)(v))
#define S_U16_R(v) ((int64_t)(uint16_t)(v))
#define S_I32(v) ((int32_t)(uint32_t)(v))
#define S_I32_R(v) ((int64_t)(int32_t)(uint32_t)(v))
#define S_U32(v) ((uint32_t)(v))
#define S_U32_R(v) ((int64_t)(uint32_t)(v))
#define S_I64(v) ((int64_t)(v))
#define S_I64_R(v) ((int64_t)(v))
#define S_U64(v) ((uint64_t)(v))
#define S_U64_R(v) ((uint64_t)(v))

DEFINE_DIL(f, float, double, IDL, S_F, -(double)FLT_MAX)
DEFINE_DIL(d, double, double, IDL, S_D, -DBL_MAX)
DEFINE_DIL(h, uint16_t, double, H2F, S_H, -65504.0)
DEFINE_DIL(bf, uint16_t, double, B2F, S_B, -3.3895313892515355e38)
DEFINE_DIL(i8, int8_t, int64_t, IDL, S_I8, INT8_MIN)
DEFINE_DIL(u8, uint8_t, int64_t, IDL, S_U8, 0)
DEFINE_DIL(i16, int16_t, int64_t, IDL, S_I16, INT16_MIN)
DEFINE_DIL(u16, uint16_t, int64_t, IDL, S_U16, 0)
DEFINE_DIL(i32, int32_t, int64_t, IDL, S_I32, INT32_MIN)
DEFINE_DIL(u32, uint32_t, int64_t, IDL, S_U32, 0)
DEFINE_DIL(i64, int64_t, int64_t, IDL, S_I64, INT64_MIN)
DEFINE_DIL(u64, uint64_t, uint64_t, IDL, S_U64, 0)

/* Runs mode 0/1/2 on tensors of dtype t; false when the type is unsupported. */
static bool dil_run(tfc_dtype t, const dil_geom *g, const void *in, const void *f, const void *dy,
                    void *out, int mode) {
  switch (t) {
    case TFC_DTYPE_FLOAT: dil_f(g, in, f, dy, out, mode); return true;
    case TFC_DTYPE_DOUBLE: dil_d(g, in, f, dy, out, mode); return true;
    case TFC_DTYPE_HALF: dil_h(g, in, f, dy, out, mode); return true;
    case TFC_DTYPE_BFLOAT16: dil_bf(g, in, f, dy, out, mode); return true;
    case TFC_DTYPE_INT8: dil_i8(g, in, f, dy, out, mode); return true;
    case TFC_DTYPE_UINT8: dil_u8(g, in, f, dy, out, mode); return true;
    case TFC_DTYPE_INT16: dil_i16(g, in, f, dy, out, mode); return true;
    case TFC_DTYPE_UINT16: dil_u16(g, in, f, dy, out, mode); return true;
    case TFC_DTYPE_INT32: dil_i32(g, in, f, dy, out, mode); return true;
    case TFC_DTYPE_UINT32: dil_u32(g, in, f, dy, out, mode); return true;
    case TFC_DTYPE_INT64: dil_i64(g, in, f, dy, out, mode); return true;
    case TFC_DTYPE_UINT64: dil_u64(g, in, f, dy, out, mode); return true;
    default: return false;
  }
}

/* The three kernels: mode 0 forward, 1 input gradient, 2 filter gradient. */
static void dil_compute(tfc_kernel_ctx *ctx, int mode) {
  dil_geom g;
  if (!dil_setup(ctx, &g)) return;
  const tfc_tensor *in = ctx->inputs[0], *f = ctx->inputs[1];
  const tfc_tensor *dy = mode ? ctx->inputs[2] : NULL;
  if (dy && (dy->rank != 4 || dy->dims[0] != g.batch || dy->dims[1] != g.oh ||
             dy->dims[2] != g.ow || dy->dims[3] != g.c)) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "out_backprop has incompatible size.");
    return;
  }
  int64_t od[4] = {g.batch, g.oh, g.ow, g.c};
  tfc_tensor *out = mode == 0   ? tfc_kernel_alloc_output(ctx, 0, in->dtype, 4, od)
                    : mode == 1 ? tfc_kernel_alloc_output(ctx, 0, in->dtype, 4, in->dims)
                                : tfc_kernel_alloc_output(ctx, 0, in->dtype, 3, f->dims);
  if (!out) return;
  if (mode) memset(out->data, 0, tfc_dtype_size(out->dtype) * (size_t)out->nelems);
  if (!dil_run(in->dtype, &g, in->data, f->data, dy ? dy->data : NULL, out->data, mode))
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Dilation2D: unsupported type");
}

/* Dilation2D(input, filter). */
static void dilation_compute(tfc_kernel_ctx *ctx) { dil_compute(ctx, 0); }
/* Dilation2DBackpropInput(input, filter, out_backprop). */
static void dilation_bwd_input_compute(tfc_kernel_ctx *ctx) { dil_compute(ctx, 1); }
/* Dilation2DBackpropFilter(input, filter, out_backprop). */
static void dilation_bwd_filter_compute(tfc_kernel_ctx *ctx) { dil_compute(ctx, 2); }

static const tfc_kernel_def defs[] = {
    {"Dilation2D", "CPU", NULL, NULL, NULL, dilation_compute, NULL, 0},
    {"Dilation2DBackpropInput", "CPU", NULL, NULL, NULL, dilation_bwd_input_compute, NULL, 0},
    {"Dilation2DBackpropFilter", "CPU", NULL, NULL, NULL, dilation_bwd_filter_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_dilation = {defs, (int)(sizeof defs / sizeof defs[0])};
