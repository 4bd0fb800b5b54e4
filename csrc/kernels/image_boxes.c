/*
 * image_boxes.c — CPU kernels of the bounding-box image ops:
 * DrawBoundingBoxes(V2), ExtractGlimpse(V2) and SampleDistortedBoundingBox(V2).
 *
 * DrawBoundingBoxes outlines each box (y_min, x_min, y_max, x_max in [0, 1]
 * scaled by size - 1 and truncated) with a one-pixel frame in a colour of
 * TF's default table (or the given colours), box i using colour i mod n.
 *
 * ExtractGlimpse cuts a [h, w] window per image at an offset given as
 * (y, x), TF's way: version 1 (ExtractGlimpse) always removes half the
 * window and halves centred offsets; version 2 only does that for
 * normalised centred offsets. The top-left corner is truncated towards
 * zero. A window reaching outside the image is first filled with noise:
 * "zero", "uniform" (uniform between the image's min and max) or
 * "gaussian" (per channel mean + sigma * N(0, 1), clamped to the channel's
 * range); the noise is not reproducible, as in TF.
 *
 * SampleDistortedBoundingBox draws a random crop with TF's algorithm and
 * TF's Philox stream (seed, seed2): per attempt an aspect ratio, then a
 * height (exact uniform integers by rejection), then the corner; the first
 * crop covering at least min_object_covered of some box wins, else the
 * whole image.
 */
#include <math.h>
#include <string.h>
#include <time.h>

#include "base/alloc.h"
#include "core/attr.h"
#include "kernels/kernel_tables.h"
#include "kernels/philox.h"

static const char *dbg(const tfc_tensor *t, char *buf, size_t cap) {
  tfc_shape s = tfc_tensor_shape(t);
  tfc_shape_debug_string(&s, buf, cap);
  return buf;
}

/* ---------------------------------------------------------------- DrawBoundingBoxes */

static const float default_colors[10][4] = {
    {1, 1, 0, 1}, {0, 0, 1, 1}, {1, 0, 0, 1},   {0, 1, 0, 1}, {0.5f, 0, 0.5f, 1},
    {0.5f, 0.5f, 0, 1}, {0.5f, 0, 0, 1}, {0, 0, 0.5f, 1}, {0, 1, 1, 1}, {1, 0, 1, 1}};

/* Writes colour `col` (depth floats) into pixel p of a float/half canvas. */
static void put_pixel(tfc_tensor *out, int64_t p, int64_t depth, const float *col) {
  for (int64_t c = 0; c < depth; c++) {
    if (out->dtype == TFC_DTYPE_HALF) ((uint16_t *)out->data)[p * depth + c] = tfc_float_to_half(col[c]);
    else ((float *)out->data)[p * depth + c] = col[c];
  }
}

/* DrawBoundingBoxes(images, boxes[, colors]). */
static void draw_boxes_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *images = ctx->inputs[0], *boxes = ctx->inputs[1];
  char b[64];
  if (images->rank != 4) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "The rank of the images should be 4");
    return;
  }
  if (boxes->rank != 3) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "The rank of the boxes tensor should be 3");
    return;
  }
  if (images->dims[0] != boxes->dims[0]) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "The batch sizes should be the same");
    return;
  }
  int64_t depth = images->dims[3];
  if (depth != 4 && depth != 1 && depth != 3) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Channel depth should be either 1 (GRY), 3 (RGB), or 4 (RGBA)");
    return;
  }
  if (boxes->dims[2] != 4) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "The size of the third dimension of the box must be 4. Received: %lld",
                    (long long)boxes->dims[2]);
    return;
  }
  int64_t n_colors = 10;
  const float *colors = NULL;
  if (ctx->n_inputs == 3) {
    const tfc_tensor *ct = ctx->inputs[2];
    if (ct->rank != 2) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "colors must be a 2-D matrix%s",
                      dbg(ct, b, 64));
      return;
    }
    if (ct->dims[1] < depth) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                      "colors must have equal or more channels than the image provided: %s",
                      dbg(ct, b, 64));
      return;
    }
    if (ct->nelems != 0) {
      colors = ct->data;
      n_colors = ct->dims[0];
    }
  }
  int64_t stride = colors ? ctx->inputs[2]->dims[1] : 4;
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, images->dtype, 4, images->dims);
  if (!out) return;
  memcpy(out->data, images->data, tfc_dtype_size(images->dtype) * (size_t)images->nelems);
  int64_t batch = images->dims[0], h = images->dims[1], w = images->dims[2], nb = boxes->dims[1];
  const float *bx = boxes->data;
  for (int64_t bi = 0; bi < batch; bi++) {
    for (int64_t k = 0; k < nb; k++) {
      const float *box = bx + (bi * nb + k) * 4;
      float col[4];
      int64_t ci = k % n_colors;
      for (int64_t c = 0; c < depth; c++)
        col[c] = colors ? colors[ci * stride + c] : default_colors[ci][c];
      if (!colors && depth == 1) col[0] = 1;
      int64_t r0 = (int64_t)(box[0] * (float)(h - 1)), r1 = (int64_t)(box[2] * (float)(h - 1));
      int64_t c0 = (int64_t)(box[1] * (float)(w - 1)), c1 = (int64_t)(box[3] * (float)(w - 1));
      if (r0 > r1 || c0 > c1) continue;
      if (r0 >= h || r1 < 0 || c0 >= w || c1 < 0) continue;
      int64_t r0c = r0 > 0 ? r0 : 0, r1c = r1 < h - 1 ? r1 : h - 1;
      int64_t c0c = c0 > 0 ? c0 : 0, c1c = c1 < w - 1 ? c1 : w - 1;
      int64_t img = bi * h * w;
      if (r0 >= 0)
        for (int64_t j = c0c; j <= c1c; j++) put_pixel(out, img + r0 * w + j, depth, col);
      if (r1 < h)
        for (int64_t j = c0c; j <= c1c; j++) put_pixel(out, img + r1 * w + j, depth, col);
      if (c0 >= 0)
        for (int64_t i = r0c; i <= r1c; i++) put_pixel(out, img + i * w + c0, depth, col);
      if (c1 < w)
        for (int64_t i = r0c; i <= r1c; i++) put_pixel(out, img + i * w + c1, depth, col);
    }
  }
}

/* ---------------------------------------------------------------- ExtractGlimpse */

enum { NOISE_UNIFORM, NOISE_GAUSSIAN, NOISE_ZERO };

/* A uniform float in [0, 1) from a xorshift state. */
static float noise_uniform(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return (float)(*s >> 40) / (float)(1u << 24);
}

/* A standard normal (Box-Muller) from the xorshift state. */
static float noise_normal(uint64_t *s) {
  float u = noise_uniform(s), v = noise_uniform(s);
  if (u < 1e-12f) u = 1e-12f;
  return sqrtf(-2.0f * logf(u)) * cosf(6.2831853f * v);
}

/* Fills glimpse `o` [gh, gw, ch] of image `in` [H, W, ch] with noise. */
static void glimpse_noise(int mode, const float *in, int64_t H, int64_t W, int64_t ch, float *o,
                          int64_t gh, int64_t gw, uint64_t *state) {
  int64_t on = gh * gw * ch, in_n = H * W * ch;
  if (mode == NOISE_ZERO) {
    memset(o, 0, sizeof(float) * (size_t)on);
    return;
  }
  if (mode == NOISE_UNIFORM) {
    float mn = in[0], mx = in[0];
    for (int64_t i = 1; i < in_n; i++) {
      mn = in[i] < mn ? in[i] : mn;
      mx = in[i] > mx ? in[i] : mx;
    }
    for (int64_t i = 0; i < on; i++) o[i] = mn + noise_uniform(state) * (mx - mn);
    return;
  }
  for (int64_t c = 0; c < ch; c++) {
    double sum = 0;
    float mn = in[c], mx = in[c];
    for (int64_t p = 0; p < H * W; p++) {
      float v = in[p * ch + c];
      sum += v;
      mn = v < mn ? v : mn;
      mx = v > mx ? v : mx;
    }
    float mean = (float)(sum / (double)(H * W));
    double var = 0;
    for (int64_t p = 0; p < H * W; p++) var += ((double)in[p * ch + c] - mean) * ((double)in[p * ch + c] - mean);
    float sigma = (float)sqrt(var / (double)(H * W));
    for (int64_t p = 0; p < gh * gw; p++) {
      float v = mean + noise_normal(state) * sigma;
      o[p * ch + c] = fmaxf(fminf(v, mx), mn);
    }
  }
}

/* ExtractGlimpse / ExtractGlimpseV2 (version 1 / 2). */
static void glimpse_compute(tfc_kernel_ctx *ctx, int version) {
  const tfc_tensor *in = ctx->inputs[0], *size = ctx->inputs[1], *offs = ctx->inputs[2];
  char b[64];
  bool uniform_noise = true, normalized = true, centered = true;
  const tfc_attr_value *a = tfc_attrs_find(ctx->attrs, "uniform_noise");
  if (a && a->kind == TFC_ATTR_B) uniform_noise = a->v.b;
  a = tfc_attrs_find(ctx->attrs, "normalized");
  if (a && a->kind == TFC_ATTR_B) normalized = a->v.b;
  a = tfc_attrs_find(ctx->attrs, "centered");
  if (a && a->kind == TFC_ATTR_B) centered = a->v.b;
  const tfc_string *noise = NULL;
  a = tfc_attrs_find(ctx->attrs, "noise");
  if (a && a->kind == TFC_ATTR_S) noise = &a->v.s;
  size_t nl = noise ? noise->len : 0;
  const char *ns = noise && noise->data ? noise->data : "";
  bool is_uniform = nl == 7 && memcmp(ns, "uniform", 7) == 0;
  if (uniform_noise && nl != 0 && !is_uniform) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "The uniform_noise and noise could not be specified at the same time");
    return;
  }
  int mode;
  if (nl == 0) mode = uniform_noise ? NOISE_UNIFORM : NOISE_GAUSSIAN;
  else if (is_uniform) mode = NOISE_UNIFORM;
  else if (nl == 8 && memcmp(ns, "gaussian", 8) == 0) mode = NOISE_GAUSSIAN;
  else if (nl == 4 && memcmp(ns, "zero", 4) == 0) mode = NOISE_ZERO;
  else {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "The noise could only be uniform, gaussian, or zero, got%.*s", (int)nl, ns);
    return;
  }
  if (in->rank != 4) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "input must be 4-dimensional (batch_size, height, width, depth)%s",
                    dbg(in, b, 64));
    return;
  }
  if (size->rank != 1 || size->dims[0] != 2) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "input must be a vector of size 2 (height, width)%s", dbg(size, b, 64));
    return;
  }
  int64_t gh = ((const int32_t *)size->data)[0], gw = ((const int32_t *)size->data)[1];
  if (gh < 0 || gw < 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Dimension %lld must be >= 0",
                    (long long)(gh < 0 ? gh : gw));
    return;
  }
  int64_t batch = in->dims[0], H = in->dims[1], W = in->dims[2], ch = in->dims[3];
  if (offs->rank != 2) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "input must be a matrix%s", dbg(offs, b, 64));
    return;
  }
  if (offs->dims[0] != batch) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "first dimension should be batch%s",
                    dbg(offs, b, 64));
    return;
  }
  if (offs->dims[1] != 2) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "second dimension should be of size 2 (y,x)%s", dbg(offs, b, 64));
    return;
  }
  int64_t od[4] = {batch, gh, gw, ch};
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_FLOAT, 4, od);
  if (!out || out->nelems == 0) return;
  const float *id = in->data, *off = offs->data;
  float *o = out->data;
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  uint64_t state = 0x9E3779B97F4A7C15ull ^ (uint64_t)(uintptr_t)out->data ^
                   ((uint64_t)now.tv_sec << 30) ^ (uint64_t)now.tv_nsec;
  if (state == 0) state = 1;
  for (int64_t i = 0; i < batch; i++) {
    float y = off[2 * i], x = off[2 * i + 1];
    float fW = (float)W, fH = (float)H;
    if (version == 1) {
      if (normalized) {
        x *= fW;
        y *= fH;
      }
      if (centered) {
        x /= 2.0f;
        y /= 2.0f;
        x += fW / 2.0f;
        y += fH / 2.0f;
      }
      x -= (float)gw / 2.0f;
      y -= (float)gh / 2.0f;
    } else if (normalized) {
      x *= fW;
      y *= fH;
      if (centered) {
        x /= 2.0f;
        y /= 2.0f;
        x += fW / 2.0f;
        y += fH / 2.0f;
        x -= (float)gw / 2.0f;
        y -= (float)gh / 2.0f;
      }
    } else if (centered) {
      x += fW / 2.0f;
      y += fH / 2.0f;
    }
    int64_t ox = (int64_t)x, oy = (int64_t)y;
    int64_t vis_w = gw, vis_h = gh, src_x = ox, src_y = oy, ext_x = gw, ext_y = gh, dst_x = 0,
            dst_y = 0;
    bool partial = false;
    if (ox < 0) {
      src_x = 0;
      vis_w = gw + ox > 0 ? gw + ox : 0;
      ext_x = vis_w;
      dst_x = gw - vis_w;
      partial = true;
    } else if (ox + gw >= W) {
      vis_w = W - ox > 0 ? W - ox : 0;
      ext_x = vis_w;
      partial = true;
    }
    if (oy < 0) {
      src_y = 0;
      vis_h = gh + oy > 0 ? gh + oy : 0;
      ext_y = vis_h;
      dst_y = gh - vis_h;
      partial = true;
    } else if (oy + gh >= H) {
      vis_h = H - oy > 0 ? H - oy : 0;
      ext_y = vis_h;
      partial = true;
    }
    ext_x = ext_x < W ? ext_x : W;
    ext_y = ext_y < H ? ext_y : H;
    const float *img = id + i * H * W * ch;
    float *g = o + i * gh * gw * ch;
    if (partial) {
      glimpse_noise(mode, img, H, W, ch, g, gh, gw, &state);
      if (vis_w == 0 || vis_h == 0) continue;
    }
    for (int64_t r = 0; r < ext_y; r++)
      memcpy(g + ((dst_y + r) * gw + dst_x) * ch, img + ((src_y + r) * W + src_x) * ch,
             sizeof(float) * (size_t)(ext_x * ch));
  }
}

/* ExtractGlimpse(input, size, offsets). */
static void glimpse_v1_compute(tfc_kernel_ctx *ctx) { glimpse_compute(ctx, 1); }
/* ExtractGlimpseV2(input, size, offsets). */
static void glimpse_v2_compute(tfc_kernel_ctx *ctx) { glimpse_compute(ctx, 2); }

/* ---------------------------------------------------------------- SampleDistortedBoundingBox */

typedef struct sdbb_state {
  tfc_guarded_philox gen;
  float aspect[2], area[2];
  float min_object_covered;  /* V1's attr */
  int64_t max_attempts;
  bool use_image;
} sdbb_state;

/* Reads a list(float) attr of exactly 2 values into out. */
static bool two_floats(const tfc_attrs *attrs, const char *name, float out[2]) {
  const tfc_attr_value *a = tfc_attrs_find(attrs, name);
  if (!a || a->kind != TFC_ATTR_LIST || a->v.list.n != 2) return false;
  if (a->v.list.kind != TFC_ATTR_F) return false;
  out[0] = a->v.list.v.f[0];
  out[1] = a->v.list.v.f[1];
  return true;
}

/* init: validates the attrs (TF's construction-time errors) and seeds the generator. */
static bool sdbb_init(const tfc_kernel_init *ki, void **state) {
  sdbb_state *s = tfc_calloc(1, sizeof *s);
  if (!s) return tfc_status_set(ki->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  const tfc_attr_value *a;
  bool ok = false;
  if (ki->n_inputs == 2) {
    a = tfc_attrs_find(ki->attrs, "min_object_covered");
    s->min_object_covered = a && a->kind == TFC_ATTR_F ? a->v.f : 0.1f;
    if (!(s->min_object_covered >= 0)) {
      tfc_status_set(ki->st, TFC_CODE_INVALID_ARGUMENT, "Min object covered must be non-negative: %g",
                     (double)s->min_object_covered);
      goto out;
    }
  }
  a = tfc_attrs_find(ki->attrs, "use_image_if_no_bounding_boxes");
  s->use_image = a && a->kind == TFC_ATTR_B && a->v.b;
  if (!two_floats(ki->attrs, "aspect_ratio_range", s->aspect)) {
    tfc_status_set(ki->st, TFC_CODE_INVALID_ARGUMENT,
                   "Aspect ratio range field must specify 2 dimensions");
    goto out;
  }
  if (!(s->aspect[0] > 0 && s->aspect[1] > 0)) {
    tfc_status_set(ki->st, TFC_CODE_INVALID_ARGUMENT, "Aspect ratio range must be non-negative: [%g, %g]",
                   (double)s->aspect[0], (double)s->aspect[1]);
    goto out;
  }
  if (!two_floats(ki->attrs, "area_range", s->area)) {
    tfc_status_set(ki->st, TFC_CODE_INVALID_ARGUMENT, "Area range field must specify 2 dimensions");
    goto out;
  }
  if (!(s->area[0] > 0 && s->area[1] > 0)) {
    tfc_status_set(ki->st, TFC_CODE_INVALID_ARGUMENT, "Area range must be non-negative: [%g, %g]",
                   (double)s->area[0], (double)s->area[1]);
    goto out;
  }
  if (!(s->area[0] <= 1 && s->area[1] <= 1)) {
    tfc_status_set(ki->st, TFC_CODE_INVALID_ARGUMENT,
                   "Area range must be less then or equal to 1.0: [%g, %g]", (double)s->area[0],
                   (double)s->area[1]);
    goto out;
  }
  a = tfc_attrs_find(ki->attrs, "max_attempts");
  s->max_attempts = a && a->kind == TFC_ATTR_I ? a->v.i : 100;
  if (s->max_attempts <= 0) {
    tfc_status_set(ki->st, TFC_CODE_INVALID_ARGUMENT, "Max attempts must be non-negative: %lld",
                   (long long)s->max_attempts);
    goto out;
  }
  int64_t seed = 0, seed2 = 0;
  a = tfc_attrs_find(ki->attrs, "seed");
  if (a && a->kind == TFC_ATTR_I) seed = a->v.i;
  a = tfc_attrs_find(ki->attrs, "seed2");
  if (a && a->kind == TFC_ATTR_I) seed2 = a->v.i;
  if (!tfc_guarded_philox_init(&s->gen, seed, seed2)) {
    tfc_status_set(ki->st, TFC_CODE_INTERNAL, "cannot create a lock");
    goto out;
  }
  ok = true;
out:
  if (!ok) {
    tfc_free(s);
    return false;
  }
  *state = s;
  return true;
}

/* destroy: frees the state. */
static void sdbb_destroy(void *state) {
  if (!state) return;
  tfc_guarded_philox_destroy(&((sdbb_state *)state)->gen);
  tfc_free(state);
}

typedef struct rect {
  int min_x, min_y, max_x, max_y;
} rect;

static float rect_area(rect r) { return (float)((r.max_x - r.min_x) * (r.max_y - r.min_y)); }

/* TF's Rectangle::Intersect (an empty intersection is the zero rectangle). */
static rect rect_intersect(rect a, rect b) {
  rect r = {a.min_x > b.min_x ? a.min_x : b.min_x, a.min_y > b.min_y ? a.min_y : b.min_y,
            a.max_x < b.max_x ? a.max_x : b.max_x, a.max_y < b.max_y ? a.max_y : b.max_y};
  if (r.min_x > r.max_x || r.min_y > r.max_y) return (rect){0, 0, 0, 0};
  return r;
}

/* TF's exact uniform integer in [0, n) by rejection over 32-bit words. */
static uint32_t uniform_int(tfc_philox_single *rng, uint32_t n) {
  if (n == 0) return tfc_philox_single_next(rng) * 0u;
  if ((n & (n - 1)) == 0) return tfc_philox_single_next(rng) & (n - 1);
  uint32_t rem = (UINT32_MAX % n) + 1, r;
  do r = tfc_philox_single_next(rng);
  while (r < rem);
  return r % n;
}

/* TF's GenerateRandomCrop; false when the constraints cannot be met. */
static bool random_crop(int ow, int oh, float min_rel, float max_rel, float aspect,
                        tfc_philox_single *rng, rect *out) {
  if (max_rel <= 0.0f || aspect <= 0.0f || ow <= 0 || oh <= 0 || min_rel > max_rel) return false;
  float min_area = min_rel * (float)ow * (float)oh;
  float max_area = max_rel * (float)ow * (float)oh;
  int height = (int)lrintf(sqrtf(min_area / aspect));
  int max_height = (int)lrintf(sqrtf(max_area / aspect));
  if (lrintf((float)max_height * aspect) > ow) {
    const float eps = 0.0000001f;
    max_height = (int)(((double)ow + 0.5 - (double)eps) / (double)aspect);
    if (lrintf((float)max_height * aspect) > ow) max_height -= 1;
  }
  if (max_height > oh) max_height = oh;
  if (height >= max_height) height = max_height;
  if (height < max_height) height += (int)uniform_int(rng, (uint32_t)(max_height - height + 1));
  int width = (int)lrintf((float)height * aspect);
  float area = (float)(width * height);
  if (area < min_area) {
    height += 1;
    width = (int)lrintf((float)height * aspect);
    area = (float)(width * height);
  }
  if (area > max_area) {
    height -= 1;
    width = (int)lrintf((float)height * aspect);
    area = (float)(width * height);
  }
  if (area < min_area || area > max_area || width > ow || height > oh || width <= 0 || height <= 0)
    return false;
  int y = height < oh ? (int)uniform_int(rng, (uint32_t)(oh - height)) : 0;
  int x = width < ow ? (int)uniform_int(rng, (uint32_t)(ow - width)) : 0;
  *out = (rect){x, y, x + width, y + height};
  return true;
}

/* True when crop covers at least `min_cov` of one of the boxes (TF's rule). */
static bool covers(rect crop, float min_cov, const rect *boxes, int64_t n) {
  if (rect_area(crop) < 1.0f) return false;
  for (int64_t i = 0; i < n; i++) {
    float oa = rect_area(boxes[i]);
    if (oa < 1.0f) continue;
    if (rect_area(rect_intersect(crop, boxes[i])) / oa >= min_cov) return true;
  }
  return false;
}

/* Stores v into element i of an integer tensor of image_size's type. */
static void put_int(tfc_tensor *t, int64_t i, int64_t v) {
  switch (t->dtype) {
    case TFC_DTYPE_UINT8: ((uint8_t *)t->data)[i] = (uint8_t)v; break;
    case TFC_DTYPE_INT8: ((int8_t *)t->data)[i] = (int8_t)v; break;
    case TFC_DTYPE_INT16: ((int16_t *)t->data)[i] = (int16_t)v; break;
    case TFC_DTYPE_INT64: ((int64_t *)t->data)[i] = v; break;
    default: ((int32_t *)t->data)[i] = (int32_t)v; break;
  }
}

/* Element i of an integer tensor as an unsigned 64-bit value (TF's cast). */
static uint64_t get_uint(const tfc_tensor *t, int64_t i) {
  switch (t->dtype) {
    case TFC_DTYPE_UINT8: return ((const uint8_t *)t->data)[i];
    case TFC_DTYPE_INT8: return (uint64_t)(int64_t)((const int8_t *)t->data)[i];
    case TFC_DTYPE_INT16: return (uint64_t)(int64_t)((const int16_t *)t->data)[i];
    case TFC_DTYPE_INT64: return (uint64_t)((const int64_t *)t->data)[i];
    default: return (uint64_t)(int64_t)((const int32_t *)t->data)[i];
  }
}

/* SampleDistortedBoundingBox(V2)(image_size, bounding_boxes[, min_object_covered]). */
static void sdbb_compute(tfc_kernel_ctx *ctx) {
  sdbb_state *s = ctx->state;
  tfc_philox gen = tfc_guarded_philox_reserve(&s->gen, (uint64_t)(4 * s->max_attempts + 3) / 4);
  const tfc_tensor *isz = ctx->inputs[0], *ib = ctx->inputs[1];
  char b[64];
  if (isz->rank != 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "image_size must be 1-dimensional%s",
                    dbg(isz, b, 64));
    return;
  }
  if (isz->dims[0] != 3) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "image_size must contain 3 elements%s",
                    dbg(isz, b, 64));
    return;
  }
  uint64_t hr = get_uint(isz, 0), wr = get_uint(isz, 1);
  if (hr >= 2147483647u) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "image height cannot be >= int32 max");
    return;
  }
  if (wr >= 2147483647u) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "image width cannot be >= int32 max");
    return;
  }
  int height = (int)hr, width = (int)wr;
  if (ib->rank != 3) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "input boxes must be 3-dimensional [batch, num_boxes, coords]: %s",
                    dbg(ib, b, 64));
    return;
  }
  if (ib->dims[2] != 4) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "bounding boxes must have shape [4] or [*, 4], got %s", dbg(ib, b, 64));
    return;
  }
  float min_cov = s->min_object_covered;
  if (ctx->n_inputs >= 3) {
    const tfc_tensor *mc = ctx->inputs[2];
    if (mc->rank != 0) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "min_object_covered must be 0-D, got shape %s",
                      dbg(mc, b, 64));
      return;
    }
    min_cov = ((const float *)mc->data)[0];
    if (!(min_cov >= 0)) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Min object covered must be non-negative: %g",
                      (double)min_cov);
      return;
    }
  }
  int64_t nbox = ib->nelems / 4;
  rect *boxes = tfc_malloc(sizeof(rect) * (size_t)(nbox + 1));
  if (!boxes) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in SampleDistortedBoundingBox");
    return;
  }
  const float *bd = ib->data;
  for (int64_t k = 0; k < nbox; k++) {
    for (int i = 0; i < 4; i++)
      if (!(bd[4 * k + i] >= 0.0f && bd[4 * k + i] <= 1.0f)) {
        tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                        "All bounding box coordinates must be in [0.0, 1.0]: %g",
                        (double)bd[4 * k + i]);
        tfc_free(boxes);
        return;
      }
    boxes[k] = (rect){(int32_t)(bd[4 * k + 1] * (float)width), (int32_t)(bd[4 * k] * (float)height),
                      (int32_t)(bd[4 * k + 3] * (float)width), (int32_t)(bd[4 * k + 2] * (float)height)};
  }
  rect image_rect = {0, 0, width, height};
  if (nbox == 0) {
    if (!s->use_image) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                      "No bounding boxes provided as input. One must enable "
                      "use_image_if_no_bounding_boxes if you wish to not provide any bounding "
                      "boxes.");
      tfc_free(boxes);
      return;
    }
    boxes[0] = image_rect;
    nbox = 1;
  }
  tfc_philox_single rng;
  tfc_philox_single_init(&rng, &gen);
  rect crop = {0, 0, 0, 0};
  bool found = false;
  for (int64_t i = 0; i < s->max_attempts; i++) {
    float ar = tfc_philox_to_float(tfc_philox_single_next(&rng)) * (s->aspect[1] - s->aspect[0]) +
               s->aspect[0];
    if (random_crop(width, height, s->area[0], s->area[1], ar, &rng, &crop) &&
        covers(crop, min_cov, boxes, nbox)) {
      found = true;
      break;
    }
  }
  tfc_free(boxes);
  if (!found) crop = image_rect;
  int64_t three = 3, bbd[3] = {1, 1, 4};
  tfc_tensor *begin = tfc_kernel_alloc_output(ctx, 0, isz->dtype, 1, &three);
  tfc_tensor *size = begin ? tfc_kernel_alloc_output(ctx, 1, isz->dtype, 1, &three) : NULL;
  tfc_tensor *bb = size ? tfc_kernel_alloc_output(ctx, 2, TFC_DTYPE_FLOAT, 3, bbd) : NULL;
  if (!bb) return;
  put_int(begin, 0, crop.min_y);
  put_int(begin, 1, crop.min_x);
  put_int(begin, 2, 0);
  put_int(size, 0, crop.max_y - crop.min_y);
  put_int(size, 1, crop.max_x - crop.min_x);
  put_int(size, 2, -1);
  float *o = bb->data;
  o[0] = (float)crop.min_y / (float)height;
  o[1] = (float)crop.min_x / (float)width;
  o[2] = (float)crop.max_y / (float)height;
  o[3] = (float)crop.max_x / (float)width;
}

#define K(op, fn) {op, "CPU", NULL, NULL, NULL, fn, NULL, 0}

static const tfc_kernel_def defs[] = {
    K("DrawBoundingBoxes", draw_boxes_compute),
    K("DrawBoundingBoxesV2", draw_boxes_compute),
    K("ExtractGlimpse", glimpse_v1_compute),
    K("ExtractGlimpseV2", glimpse_v2_compute),
    {"SampleDistortedBoundingBox", "CPU", NULL, NULL, sdbb_init, sdbb_compute, sdbb_destroy, 0},
    {"SampleDistortedBoundingBoxV2", "CPU", NULL, NULL, sdbb_init, sdbb_compute, sdbb_destroy, 0},
};

const tfc_kernel_table tfc_kernels_image_boxes = {defs, (int)(sizeof defs / sizeof defs[0])};
