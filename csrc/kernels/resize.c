/*
 * resize.c — CPU kernels ResizeBilinear, ResizeNearestNeighbor and
 * ResizeBicubic over NHWC images.
 *
 * Source coordinates are computed in float exactly as TensorFlow does, so
 * outputs match bit for bit: scale = in / out, or (in - 1) / (out - 1) with
 * align_corners (and out > 1); the source of output index i is i * scale, or
 * (i + 0.5) * scale - 0.5 with half_pixel_centers (nearest neighbour drops
 * the -0.5 and rounds with roundf under align_corners, floors otherwise).
 * Bilinear interpolates along x then y in float; bicubic uses a 1025-entry
 * Keys kernel table (computed in double; A = -0.75, or -0.5 with half_pixel_centers, where
 * out-of-image taps get weight 0 and the weights are renormalised) and
 * interpolates along y then x. Inputs of any allowed type are read as float.
 * Work is split over batch * output rows on the intra-op pool.
 */
#include <math.h>
#include <string.h>

#include "base/alloc.h"
#include "kernels/image_internal.h"

/* ---------------------------------------------------------------- validation */

typedef struct resize_geom {
  int64_t batch, in_h, in_w, ch, out_h, out_w;
  float h_scale, w_scale;
  bool align_corners, half_pixel;
} resize_geom;

static float calc_scale(int64_t in, int64_t out, bool align) {
  return (align && out > 1) ? (float)(in - 1) / (float)(out - 1) : (float)in / (float)out;
}

static void shape_str(const tfc_tensor *t, char *buf, size_t cap) {
  tfc_shape s = tfc_tensor_shape(t);
  tfc_shape_debug_string(&s, buf, cap);
}

/* Checks the inputs and attrs and fills g; false with ctx failed. */
static bool resize_setup(tfc_kernel_ctx *ctx, resize_geom *g) {
  const tfc_tensor *in = ctx->inputs[0], *size = ctx->inputs[1];
  const tfc_attr_value *a = tfc_attrs_find(ctx->attrs, "align_corners");
  const tfc_attr_value *hp = tfc_attrs_find(ctx->attrs, "half_pixel_centers");
  g->align_corners = a && a->kind == TFC_ATTR_B && a->v.b;
  g->half_pixel = hp && hp->kind == TFC_ATTR_B && hp->v.b;
  char buf[128];
  if (g->half_pixel && g->align_corners)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "If half_pixel_centers is True, align_corners must be False.");
  if (in->rank != 4) {
    shape_str(in, buf, sizeof buf);
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "input must be 4-dimensional%s", buf);
  }
  if (size->rank != 1) {
    shape_str(size, buf, sizeof buf);
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "shape_t must be 1-dimensional%s", buf);
  }
  if (size->nelems != 2)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "shape_t must have two elements%s",
                           (shape_str(size, buf, sizeof buf), buf));
  const int32_t *sz = size->data;
  g->batch = in->dims[0];
  g->in_h = in->dims[1];
  g->in_w = in->dims[2];
  g->ch = in->dims[3];
  g->out_h = sz[0];
  g->out_w = sz[1];
  if (g->out_h <= 0 || g->out_w <= 0)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "output dimensions must be positive");
  if (g->in_h <= 0 || g->in_w <= 0)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "input image must be of non-zero size");
  if (g->ch <= 0 && g->batch > 0)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "image must have at least one channel");
  g->h_scale = calc_scale(g->in_h, g->out_h, g->align_corners);
  g->w_scale = calc_scale(g->in_w, g->out_w, g->align_corners);
  return true;
}

/* Reads n elements of type t from src (element offset off) into float dst. */
static void load_float(tfc_dtype t, const void *src, int64_t off, int64_t n, float *dst) {
  switch (t) {
#define LOAD(E, C) \
  case E: { const C *p = (const C *)src + off; for (int64_t i = 0; i < n; i++) dst[i] = (float)p[i]; } break;
    LOAD(TFC_DTYPE_INT8, int8_t)
    LOAD(TFC_DTYPE_UINT8, uint8_t)
    LOAD(TFC_DTYPE_INT16, int16_t)
    LOAD(TFC_DTYPE_UINT16, uint16_t)
    LOAD(TFC_DTYPE_INT32, int32_t)
    LOAD(TFC_DTYPE_INT64, int64_t)
    LOAD(TFC_DTYPE_FLOAT, float)
    LOAD(TFC_DTYPE_DOUBLE, double)
#undef LOAD
    case TFC_DTYPE_HALF: {
      const uint16_t *p = (const uint16_t *)src + off;
      for (int64_t i = 0; i < n; i++) dst[i] = tfc_half_to_float(p[i]);
    } break;
    case TFC_DTYPE_BFLOAT16: {
      const uint16_t *p = (const uint16_t *)src + off;
      for (int64_t i = 0; i < n; i++) dst[i] = tfc_bfloat16_to_float(p[i]);
    } break;
    default:
      memset(dst, 0, sizeof(float) * (size_t)n);
  }
}

/* The whole input as float (a fresh buffer; the input itself when float). */
static float *input_as_float(tfc_kernel_ctx *ctx, bool *owned) {
  const tfc_tensor *in = ctx->inputs[0];
  *owned = false;
  if (in->dtype == TFC_DTYPE_FLOAT) return in->data;
  float *f = tfc_malloc(sizeof(float) * (size_t)in->nelems);
  if (!f) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM when allocating resize buffer");
    return NULL;
  }
  *owned = true;
  load_float(in->dtype, in->data, 0, in->nelems, f);
  return f;
}

/* ---------------------------------------------------------------- bilinear */

typedef struct lerp_pt {
  int64_t lo, hi;
  float frac;
} lerp_pt;

static void lerp_weights(int64_t out, int64_t in, float scale, bool half, lerp_pt *w) {
  for (int64_t i = 0; i < out; i++) {
    float src = half ? ((float)i + 0.5f) * scale - 0.5f : (float)i * scale;
    float fl = floorf(src);
    int64_t lo = (int64_t)fl;
    int64_t hi = (int64_t)ceilf(src);
    w[i].lo = lo < 0 ? 0 : lo;
    w[i].hi = hi < in - 1 ? hi : in - 1;
    w[i].frac = src - fl;
  }
}

typedef struct bilinear_job {
  const resize_geom *g;
  const float *in;
  float *out;
  const lerp_pt *ys, *xs;
} bilinear_job;

static void bilinear_rows(void *arg, int64_t begin, int64_t end) {
  const bilinear_job *j = arg;
  const resize_geom *g = j->g;
  int64_t ch = g->ch, row_in = g->in_w * ch;
  for (int64_t r = begin; r < end; r++) {
    int64_t b = r / g->out_h, y = r % g->out_h;
    const float *top = j->in + (b * g->in_h + j->ys[y].lo) * row_in;
    const float *bot = j->in + (b * g->in_h + j->ys[y].hi) * row_in;
    float yl = j->ys[y].frac;
    float *o = j->out + r * g->out_w * ch;
    for (int64_t x = 0; x < g->out_w; x++) {
      int64_t xl = j->xs[x].lo * ch, xh = j->xs[x].hi * ch;
      float xf = j->xs[x].frac;
      for (int64_t c = 0; c < ch; c++) {
        float tl = top[xl + c], tr = top[xh + c], bl = bot[xl + c], br = bot[xh + c];
        float t = tl + (tr - tl) * xf;
        float bb = bl + (br - bl) * xf;
        o[x * ch + c] = t + (bb - t) * yl;
      }
    }
  }
}

void tfc_image_resize_bilinear(tfc_kernel_ctx *ctx) {
  resize_geom g;
  if (!resize_setup(ctx, &g)) return;
  int64_t dims[4] = {g.batch, g.out_h, g.out_w, g.ch};
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_FLOAT, 4, dims);
  if (!out || out->nelems == 0) return;
  bool owned;
  float *in = input_as_float(ctx, &owned);
  lerp_pt *ys = tfc_malloc(sizeof(lerp_pt) * (size_t)(g.out_h + g.out_w));
  if (!in || !ys) {
    if (in && !ys) tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in ResizeBilinear");
    if (owned) tfc_free(in);
    tfc_free(ys);
    return;
  }
  lerp_pt *xs = ys + g.out_h;
  lerp_weights(g.out_h, g.in_h, g.h_scale, g.half_pixel, ys);
  lerp_weights(g.out_w, g.in_w, g.w_scale, g.half_pixel, xs);
  bilinear_job j = {&g, in, out->data, ys, xs};
  int64_t shard = 1 + (1 << 14) / (g.out_w * g.ch + 1);
  tfc_kernel_parallel_for(ctx, g.batch * g.out_h, shard, bilinear_rows, &j);
  if (owned) tfc_free(in);
  tfc_free(ys);
}

/* ---------------------------------------------------------------- nearest neighbour */

static void nearest_index(int64_t out, int64_t in, float scale, bool align, bool half, int64_t *idx) {
  for (int64_t i = 0; i < out; i++) {
    float src = half ? ((float)i + 0.5f) * scale : (float)i * scale;
    int64_t v = align ? (int64_t)roundf(src) : (int64_t)floorf(src);
    if (v > in - 1) v = in - 1;
    if (half && v < 0) v = 0;
    idx[i] = v;
  }
}

typedef struct nearest_job {
  const resize_geom *g;
  const char *in;
  char *out;
  size_t esz;
  const int64_t *ys, *xs;
} nearest_job;

static void nearest_rows(void *arg, int64_t begin, int64_t end) {
  const nearest_job *j = arg;
  const resize_geom *g = j->g;
  size_t px = (size_t)g->ch * j->esz;
  for (int64_t r = begin; r < end; r++) {
    int64_t b = r / g->out_h, y = r % g->out_h;
    const char *src = j->in + (size_t)((b * g->in_h + j->ys[y]) * g->in_w) * px;
    char *o = j->out + (size_t)(r * g->out_w) * px;
    for (int64_t x = 0; x < g->out_w; x++) memcpy(o + (size_t)x * px, src + (size_t)j->xs[x] * px, px);
  }
}

void tfc_image_resize_nearest(tfc_kernel_ctx *ctx) {
  resize_geom g;
  if (!resize_setup(ctx, &g)) return;
  const tfc_tensor *in = ctx->inputs[0];
  int64_t dims[4] = {g.batch, g.out_h, g.out_w, g.ch};
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, in->dtype, 4, dims);
  if (!out || out->nelems == 0) return;
  int64_t *ys = tfc_malloc(sizeof(int64_t) * (size_t)(g.out_h + g.out_w));
  if (!ys) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in ResizeNearestNeighbor");
    return;
  }
  int64_t *xs = ys + g.out_h;
  nearest_index(g.out_h, g.in_h, g.h_scale, g.align_corners, g.half_pixel, ys);
  nearest_index(g.out_w, g.in_w, g.w_scale, g.align_corners, g.half_pixel, xs);
  nearest_job j = {&g, in->data, out->data, tfc_dtype_size(in->dtype), ys, xs};
  int64_t shard = 1 + (1 << 14) / (g.out_w * g.ch + 1);
  tfc_kernel_parallel_for(ctx, g.batch * g.out_h, shard, nearest_rows, &j);
  tfc_free(ys);
}

/* ---------------------------------------------------------------- bicubic */

#define CUBIC_TABLE 1024

typedef struct cubic_pt {
  int64_t idx[4];
  float w[4];
} cubic_pt;

/* Fills tab[0..2*(CUBIC_TABLE+1)) with the Keys kernel for parameter a:
 * tab[2i] = k(i / N), tab[2i + 1] = k(i / N + 1). */
static void cubic_table(double a, float *tab) {
  for (int i = 0; i <= CUBIC_TABLE; i++) {
    float x = (float)(i * 1.0 / CUBIC_TABLE);
    tab[i * 2] = (float)(((a + 2) * x - (a + 3)) * x * x + 1);
    x += 1.0f;
    tab[i * 2 + 1] = (float)(((a * x - 5 * a) * x + 8 * a) * x - 4 * a);
  }
}

static inline int64_t clamp_idx(int64_t v, int64_t n) { return v < 0 ? 0 : (v > n - 1 ? n - 1 : v); }

static void cubic_weights(int64_t out, int64_t in, float scale, bool half, const float *tab,
                          cubic_pt *p) {
  for (int64_t i = 0; i < out; i++) {
    float src = half ? ((float)i + 0.5f) * scale - 0.5f : (float)i * scale;
    int64_t whole = (int64_t)floorf(src);
    float delta = src - (float)whole;
    int64_t off = lrintf(delta * CUBIC_TABLE);
    float w[4] = {tab[off * 2 + 1], tab[off * 2], tab[(CUBIC_TABLE - off) * 2],
                  tab[(CUBIC_TABLE - off) * 2 + 1]};
    for (int k = 0; k < 4; k++) {
      p[i].idx[k] = clamp_idx(whole - 1 + k, in);
      p[i].w[k] = w[k];
    }
    if (half) {
      for (int k = 0; k < 4; k++)
        if (p[i].idx[k] != whole - 1 + k) p[i].w[k] = 0.0f;
      float sum = p[i].w[0] + p[i].w[1] + p[i].w[2] + p[i].w[3];
      if (fabsf(sum) >= 1000.0f * 1.17549435e-38f) {
        float inv = 1.0f / sum;
        for (int k = 0; k < 4; k++) p[i].w[k] *= inv;
      }
    }
  }
}

typedef struct bicubic_job {
  const resize_geom *g;
  const float *in;
  float *out;
  const cubic_pt *ys, *xs;
} bicubic_job;

static void bicubic_rows(void *arg, int64_t begin, int64_t end) {
  const bicubic_job *j = arg;
  const resize_geom *g = j->g;
  int64_t ch = g->ch, row_in = g->in_w * ch;
  for (int64_t r = begin; r < end; r++) {
    int64_t b = r / g->out_h, y = r % g->out_h;
    const cubic_pt *yp = &j->ys[y];
    const float *rows[4];
    for (int k = 0; k < 4; k++) rows[k] = j->in + (b * g->in_h + yp->idx[k]) * row_in;
    float *o = j->out + r * g->out_w * ch;
    for (int64_t x = 0; x < g->out_w; x++) {
      const cubic_pt *xp = &j->xs[x];
      for (int64_t c = 0; c < ch; c++) {
        float col[4];
        for (int k = 0; k < 4; k++) {
          int64_t xi = xp->idx[k] * ch + c;
          col[k] = rows[0][xi] * yp->w[0] + rows[1][xi] * yp->w[1] + rows[2][xi] * yp->w[2] +
                   rows[3][xi] * yp->w[3];
        }
        o[x * ch + c] = col[0] * xp->w[0] + col[1] * xp->w[1] + col[2] * xp->w[2] + col[3] * xp->w[3];
      }
    }
  }
}

void tfc_image_resize_bicubic(tfc_kernel_ctx *ctx) {
  resize_geom g;
  if (!resize_setup(ctx, &g)) return;
  int64_t dims[4] = {g.batch, g.out_h, g.out_w, g.ch};
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_FLOAT, 4, dims);
  if (!out || out->nelems == 0) return;
  bool owned;
  float *in = input_as_float(ctx, &owned);
  cubic_pt *ys = tfc_malloc(sizeof(cubic_pt) * (size_t)(g.out_h + g.out_w));
  float *tab = tfc_malloc(sizeof(float) * 2 * (CUBIC_TABLE + 1));
  if (!in || !ys || !tab) {
    if (in) tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in ResizeBicubic");
    if (owned) tfc_free(in);
    tfc_free(ys);
    tfc_free(tab);
    return;
  }
  cubic_pt *xs = ys + g.out_h;
  cubic_table(g.half_pixel ? -0.5 : -0.75, tab);
  cubic_weights(g.out_h, g.in_h, g.h_scale, g.half_pixel, tab, ys);
  cubic_weights(g.out_w, g.in_w, g.w_scale, g.half_pixel, tab, xs);
  bicubic_job j = {&g, in, out->data, ys, xs};
  int64_t shard = 1 + (1 << 14) / (g.out_w * g.ch * 4 + 1);
  tfc_kernel_parallel_for(ctx, g.batch * g.out_h, shard, bicubic_rows, &j);
  if (owned) tfc_free(in);
  tfc_free(ys);
  tfc_free(tab);
}
