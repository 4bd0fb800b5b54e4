/*
 * pool_argmax.c — CPU kernels MaxPoolWithArgmax and MaxPoolGradWithArgmax
 * (NHWC).
 *
 * Each output is the maximum of its window's input cells (SAME padding adds
 * nothing), scanned row by row; a later cell replaces the current maximum
 * only when strictly greater, so ties keep the first cell (TF's rule). The
 * argmax of input cell (b, y, x, c) is ((y * width + x) * channels + c),
 * plus b * height * width * channels with include_batch_in_index.
 * MaxPoolGradWithArgmax adds each gradient to the input cell its argmax
 * names (within its image unless the index includes the batch); an index
 * outside the image is INVALID_ARGUMENT. Every real type; half and bfloat16
 * compare and add through float.
 */
#include <string.h>

#include "core/attr.h"
#include "kernels/conv_internal.h"
#include "kernels/kernel_tables.h"

typedef struct argmax_geom {
  int64_t batch, h, w, c, kh, kw, sh, sw, oh, ow, pt, pl;
  bool with_batch;
} argmax_geom;

/* Reads ksize/strides/padding/include_batch_in_index and computes the geometry
 * for input dims (TF's constructor and PoolParameters checks). */
static bool argmax_setup(tfc_kernel_ctx *ctx, const int64_t *dims, argmax_geom *g) {
  const tfc_attr_value *k = tfc_attrs_find(ctx->attrs, "ksize");
  const tfc_attr_value *s = tfc_attrs_find(ctx->attrs, "strides");
  if (!k || k->kind != TFC_ATTR_LIST || k->v.list.n != 4)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "Sliding window ksize field must specify 4 dimensions");
  if (!s || s->kind != TFC_ATTR_LIST || s->v.list.n != 4)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "Sliding window stride field must specify 4 dimensions");
  const int64_t *kv = k->v.list.v.i, *sv = s->v.list.v.i;
  if (kv[0] != 1 || sv[0] != 1)
    return tfc_kernel_fail(ctx, TFC_CODE_UNIMPLEMENTED,
                           "Pooling is not yet supported on the batch dimension.");
  if (kv[3] != 1 || sv[3] != 1)
    return tfc_kernel_fail(ctx, TFC_CODE_UNIMPLEMENTED,
                           "MaxPoolWithArgmax does not support pooling over the depth dimension.");
  const tfc_attr_value *ib = tfc_attrs_find(ctx->attrs, "include_batch_in_index");
  g->with_batch = ib && ib->kind == TFC_ATTR_B && ib->v.b;
  g->batch = dims[0], g->h = dims[1], g->w = dims[2], g->c = dims[3];
  g->kh = kv[1], g->kw = kv[2], g->sh = sv[1], g->sw = sv[2];
  bool same = tfc_attrs_string_is(ctx->attrs, "padding", "SAME");
  tfc_padding p = same ? TFC_PAD_SAME : TFC_PAD_VALID;
  int64_t after;
  return tfc_windowed_output_size(ctx, g->h, g->kh, 1, g->sh, p, &g->pt, &after, &g->oh) &&
         tfc_windowed_output_size(ctx, g->w, g->kw, 1, g->sw, p, &g->pl, &after, &g->ow);
}

/* Stores an argmax value into element i of an int32/int64 tensor. */
static void put_index(tfc_tensor *t, int64_t i, int64_t v) {
  if (t->dtype == TFC_DTYPE_INT32) ((int32_t *)t->data)[i] = (int32_t)v;
  else ((int64_t *)t->data)[i] = v;
}

/* The forward pass for element type C (loaded through L, compared with >). */
#define DEFINE_FWD(SUF, C, LOAD)                                                               \
  static void fwd_##SUF(const argmax_geom *g, const void *xv, void *yv, tfc_tensor *am) {     \
    const C *x = xv;                                                                           \
    C *y = yv;                                                                                 \
    int64_t oi = 0;                                                                            \
    for (int64_t b = 0; b < g->batch; b++)                                                     \
      for (int64_t oy = 0; oy < g->oh; oy++)                                                   \
        for (int64_t ox = 0; ox < g->ow; ox++)                                                 \
          for (int64_t ch = 0; ch < g->c; ch++, oi++) {                                        \
            int64_t best = -1;                                                                 \
            C bv = 0;                                                                          \
            for (int64_t iy = oy * g->sh - g->pt; iy < oy * g->sh - g->pt + g->kh; iy++) {     \
              if (iy < 0 || iy >= g->h) continue;                                              \
              for (int64_t ix = ox * g->sw - g->pl; ix < ox * g->sw - g->pl + g->kw; ix++) {   \
                if (ix < 0 || ix >= g->w) continue;                                            \
                int64_t ii = ((b * g->h + iy) * g->w + ix) * g->c + ch;                        \
                if (best < 0 || LOAD(bv) < LOAD(x[ii])) {                                      \
                  bv = x[ii];                                                                  \
                  best = ii;                                                                   \
                }                                                                              \
              }                                                                                \
            }                                                                                  \
            y[oi] = bv;                                                                        \
            put_index(am, oi, best < 0 ? -1 : (g->with_batch ? best : best % (g->h * g->w * g->c))); \
          }                                                                                    \
  }

#define ID(v) (v)
#define H2F(v) tfc_half_to_float(v)
#define B2F(v) tfc_bfloat16_to_float(v)
DEFINE_FWD(f, float, ID)
DEFINE_FWD(d, double, ID)
DEFINE_FWD(h, uint16_t, H2F)
DEFINE_FWD(bf, uint16_t, B2F)
DEFINE_FWD(i8, int8_t, ID)
DEFINE_FWD(u8, uint8_t, ID)
DEFINE_FWD(i16, int16_t, ID)
DEFINE_FWD(u16, uint16_t, ID)
DEFINE_FWD(i32, int32_t, ID)
DEFINE_FWD(u32, uint32_t, ID)
DEFINE_FWD(i64, int64_t, ID)
DEFINE_FWD(u64, uint64_t, ID)

/* MaxPoolWithArgmax(input) -> (output, argmax). */
static void max_pool_argmax_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *x = ctx->inputs[0];
  if (x->rank != 4) {
    char b[64];
    tfc_conv_dims_str(x, b, sizeof b);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "tensor_in must be 4-dimensional%s", b);
    return;
  }
  argmax_geom g;
  if (!argmax_setup(ctx, x->dims, &g)) return;
  int64_t od[4] = {g.batch, g.oh, g.ow, g.c};
  tfc_tensor *y = tfc_kernel_alloc_output(ctx, 0, x->dtype, 4, od);
  tfc_tensor *am = y ? tfc_kernel_alloc_output(ctx, 1, ctx->out_types[1], 4, od) : NULL;
  if (!am) return;
  switch (x->dtype) {
    case TFC_DTYPE_FLOAT: fwd_f(&g, x->data, y->data, am); break;
    case TFC_DTYPE_DOUBLE: fwd_d(&g, x->data, y->data, am); break;
    case TFC_DTYPE_HALF: fwd_h(&g, x->data, y->data, am); break;
    case TFC_DTYPE_BFLOAT16: fwd_bf(&g, x->data, y->data, am); break;
    case TFC_DTYPE_INT8: fwd_i8(&g, x->data, y->data, am); break;
    case TFC_DTYPE_UINT8: fwd_u8(&g, x->data, y->data, am); break;
    case TFC_DTYPE_INT16: fwd_i16(&g, x->data, y->data, am); break;
    case TFC_DTYPE_UINT16: fwd_u16(&g, x->data, y->data, am); break;
    case TFC_DTYPE_INT32: fwd_i32(&g, x->data, y->data, am); break;
    case TFC_DTYPE_UINT32: fwd_u32(&g, x->data, y->data, am); break;
    case TFC_DTYPE_INT64: fwd_i64(&g, x->data, y->data, am); break;
    case TFC_DTYPE_UINT64: fwd_u64(&g, x->data, y->data, am); break;
    default:
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "MaxPoolWithArgmax: unsupported type");
  }
}

/* out[i] += g[j] for element type C (half/bfloat16 through float). */
#define DEFINE_ADD(SUF, C, TOF, FROMF)                                           \
  static void add_##SUF(void *out, int64_t i, const void *g, int64_t j) {         \
    C *o = out;                                                                   \
    const C *gv = g;                                                              \
    o[i] = FROMF(TOF(o[i]) + TOF(gv[j]));                                         \
  }
#define F2H(v) tfc_float_to_half(v)
#define F2B(v) tfc_float_to_bfloat16(v)
#define CAST(C) (C)
DEFINE_ADD(f, float, ID, ID)
DEFINE_ADD(d, double, ID, ID)
DEFINE_ADD(h, uint16_t, H2F, F2H)
DEFINE_ADD(bf, uint16_t, B2F, F2B)
DEFINE_ADD(i8, int8_t, ID, CAST(int8_t))
DEFINE_ADD(u8, uint8_t, ID, CAST(uint8_t))
DEFINE_ADD(i16, int16_t, ID, CAST(int16_t))
DEFINE_ADD(u16, uint16_t, ID, CAST(uint16_t))
DEFINE_ADD(i32, int32_t, (uint32_t), CAST(int32_t))
DEFINE_ADD(u32, uint32_t, ID, ID)
DEFINE_ADD(i64, int64_t, (uint64_t), CAST(int64_t))
DEFINE_ADD(u64, uint64_t, ID, ID)

/* MaxPoolGradWithArgmax(input, grad, argmax) -> output (input's shape). */
static void max_pool_grad_argmax_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *x = ctx->inputs[0], *gr = ctx->inputs[1], *am = ctx->inputs[2];
  if (x->rank != 4) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "tensor_in must be 4-dimensional");
    return;
  }
  argmax_geom g;
  if (!argmax_setup(ctx, x->dims, &g)) return;
  if (gr->nelems != am->nelems || gr->rank != 4 || gr->dims[0] != g.batch || gr->dims[1] != g.oh ||
      gr->dims[2] != g.ow || gr->dims[3] != g.c) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Expected grad and argmax to have the pooled shape [%lld,%lld,%lld,%lld]",
                    (long long)g.batch, (long long)g.oh, (long long)g.ow, (long long)g.c);
    return;
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, x->dtype, 4, x->dims);
  if (!out) return;
  size_t es = tfc_dtype_size(x->dtype);
  memset(out->data, 0, es * (size_t)out->nelems);
  void (*add)(void *, int64_t, const void *, int64_t) = NULL;
  switch (x->dtype) {
    case TFC_DTYPE_FLOAT: add = add_f; break;
    case TFC_DTYPE_DOUBLE: add = add_d; break;
    case TFC_DTYPE_HALF: add = add_h; break;
    case TFC_DTYPE_BFLOAT16: add = add_bf; break;
    case TFC_DTYPE_INT8: add = add_i8; break;
    case TFC_DTYPE_UINT8: add = add_u8; break;
    case TFC_DTYPE_INT16: add = add_i16; break;
    case TFC_DTYPE_UINT16: add = add_u16; break;
    case TFC_DTYPE_INT32: add = add_i32; break;
    case TFC_DTYPE_UINT32: add = add_u32; break;
    case TFC_DTYPE_INT64: add = add_i64; break;
    case TFC_DTYPE_UINT64: add = add_u64; break;
    default:
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "MaxPoolGradWithArgmax: unsupported type");
      return;
  }
  int64_t per_image = g.h * g.w * g.c, per_out = g.oh * g.ow * g.c;
  for (int64_t j = 0; j < gr->nelems; j++) {
    int64_t idx = am->dtype == TFC_DTYPE_INT32 ? ((const int32_t *)am->data)[j]
                                               : ((const int64_t *)am->data)[j];
    int64_t b = j / (per_out > 0 ? per_out : 1);
    int64_t lo = g.with_batch ? b * per_image : 0;
    if (idx < lo || idx >= lo + per_image) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                      "Received input index %lld outside [%lld, %lld) for output %lld",
                      (long long)idx, (long long)lo, (long long)(lo + per_image), (long long)j);
      return;
    }
    add(out->data, g.with_batch ? idx : b * per_image + idx, gr->data, j);
  }
}

static const tfc_kernel_def defs[] = {
    {"MaxPoolWithArgmax", "CPU", NULL, NULL, NULL, max_pool_argmax_compute, NULL, 0},
    {"MaxPoolGradWithArgmax", "CPU", NULL, NULL, NULL, max_pool_grad_argmax_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_pool_argmax = {defs, (int)(sizeof defs / sizeof defs[0])};
