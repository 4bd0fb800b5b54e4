/*
 * image_hsv.c — RGB <-> HSV conversion and the hue / saturation adjustments
 * built on it. Hue is in [0, 1) (a sixth per sector, 0 for greys),
 * saturation is range / max (0 for black), value is the max channel; the
 * conversions are TF's formulas. AdjustHue rotates the hue by delta (mod 1),
 * AdjustSaturation scales the saturation (clamped to [0, 1]). Pixels are
 * the last dimension's triples, computed in float (double for double).
 */
#include <math.h>
#include <stdint.h>

#include "core/attr.h"
#include "kernels/kernel_tables.h"

/* (r, g, b) -> (h, s, v). */
static void rgb_to_hsv(double r, double g, double b, double *h, double *s, double *v) {
  double mx = r > g ? (r > b ? r : b) : (g > b ? g : b);
  double mn = r < g ? (r < b ? r : b) : (g < b ? g : b);
  double range = mx - mn;
  *v = mx;
  *s = mx > 0 ? range / mx : 0;
  double hh = 0;
  if (range > 0) {
    double norm = 1.0 / (6.0 * range);
    if (r == mx) hh = norm * (g - b);
    else if (g == mx) hh = norm * (b - r) + 2.0 / 6.0;
    else hh = norm * (r - g) + 4.0 / 6.0;
  }
  if (hh < 0) hh += 1;
  *h = hh;
}

/* (h, s, v) -> (r, g, b). */
static void hsv_to_rgb(double h, double s, double v, double *r, double *g, double *b) {
  double c = s * v, m = v - c, dh = h * 6;
  int cat = (int)floor(dh);
  double x = c * (1 - fabs(fmod(dh, 2.0) - 1));
  double rr = 0, gg = 0, bb = 0;
  switch (cat) {
    case 0: rr = c; gg = x; break;
    case 1: rr = x; gg = c; break;
    case 2: gg = c; bb = x; break;
    case 3: gg = x; bb = c; break;
    case 4: rr = x; bb = c; break;
    case 5: rr = c; bb = x; break;
    default: break;
  }
  *r = rr + m;
  *g = gg + m;
  *b = bb + m;
}

enum { HSV_TO, HSV_FROM, HSV_HUE, HSV_SAT };

/* Pixel i (channel triple) of images as doubles. */
static void load3(tfc_dtype dt, const void *p, int64_t i, double *o) {
  for (int c = 0; c < 3; c++) {
    int64_t k = 3 * i + c;
    switch (dt) {
      case TFC_DTYPE_DOUBLE: o[c] = ((const double *)p)[k]; break;
      case TFC_DTYPE_HALF: o[c] = tfc_half_to_float(((const uint16_t *)p)[k]); break;
      case TFC_DTYPE_BFLOAT16: o[c] = tfc_bfloat16_to_float(((const uint16_t *)p)[k]); break;
      default: o[c] = ((const float *)p)[k]; break;
    }
  }
}

/* Stores a channel triple as pixel i (float types round through float). */
static void store3(tfc_dtype dt, void *p, int64_t i, const double *v) {
  for (int c = 0; c < 3; c++) {
    int64_t k = 3 * i + c;
    switch (dt) {
      case TFC_DTYPE_DOUBLE: ((double *)p)[k] = v[c]; break;
      case TFC_DTYPE_HALF: ((uint16_t *)p)[k] = tfc_float_to_half((float)v[c]); break;
      case TFC_DTYPE_BFLOAT16: ((uint16_t *)p)[k] = tfc_float_to_bfloat16((float)v[c]); break;
      default: ((float *)p)[k] = (float)v[c]; break;
    }
  }
}

/* Runs conversion `mode` over every pixel (param: delta or scale). */
static void hsv_compute(tfc_kernel_ctx *ctx, int mode) {
  const tfc_tensor *x = ctx->inputs[0];
  if (x->rank < 1 || x->dims[x->rank - 1] != 3) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "input must have 3 channels but input only has %lld channels.",
                    (long long)(x->rank ? x->dims[x->rank - 1] : 0));
    return;
  }
  double param = 0;
  if ((mode == HSV_HUE || mode == HSV_SAT) && x->rank < 3) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "input must be at least 3-D, got shape rank %d",
                    x->rank);
    return;
  }
  if (mode == HSV_HUE || mode == HSV_SAT) {
    const tfc_tensor *p = ctx->inputs[1];
    if (p->rank != 0) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s must be a scalar",
                      mode == HSV_HUE ? "delta" : "scale");
      return;
    }
    param = ((const float *)p->data)[0];
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, x->dtype, x->rank, x->dims);
  if (!out) return;
  int64_t n = x->nelems / 3;
  for (int64_t i = 0; i < n; i++) {
    double in[3], o[3], h, s, v;
    load3(x->dtype, x->data, i, in);
    switch (mode) {
      case HSV_TO:
        rgb_to_hsv(in[0], in[1], in[2], &o[0], &o[1], &o[2]);
        break;
      case HSV_FROM:
        hsv_to_rgb(in[0], in[1], in[2], &o[0], &o[1], &o[2]);
        break;
      case HSV_HUE:
        rgb_to_hsv(in[0], in[1], in[2], &h, &s, &v);
        h = fmod(h + param, 1.0);
        if (h < 0) h += 1;
        hsv_to_rgb(h, s, v, &o[0], &o[1], &o[2]);
        break;
      default:
        rgb_to_hsv(in[0], in[1], in[2], &h, &s, &v);
        s *= param;
        s = s < 0 ? 0 : (s > 1 ? 1 : s);
        hsv_to_rgb(h, s, v, &o[0], &o[1], &o[2]);
        break;
    }
    store3(x->dtype, out->data, i, o);
  }
}

/* RGBToHSV(images). */
static void rgb_to_hsv_compute(tfc_kernel_ctx *ctx) { hsv_compute(ctx, HSV_TO); }
/* HSVToRGB(images). */
static void hsv_to_rgb_compute(tfc_kernel_ctx *ctx) { hsv_compute(ctx, HSV_FROM); }
/* AdjustHue(images, delta). */
static void adjust_hue_compute(tfc_kernel_ctx *ctx) { hsv_compute(ctx, HSV_HUE); }
/* AdjustSaturation(images, scale). */
static void adjust_saturation_compute(tfc_kernel_ctx *ctx) { hsv_compute(ctx, HSV_SAT); }

#define K(op, fn) {op, "CPU", NULL, NULL, NULL, fn, NULL, 0}

static const tfc_kernel_def defs[] = {
    K("RGBToHSV", rgb_to_hsv_compute),
    K("HSVToRGB", hsv_to_rgb_compute),
    K("AdjustHue", adjust_hue_compute),
    K("AdjustSaturation", adjust_saturation_compute),
};

const tfc_kernel_table tfc_kernels_image_hsv = {defs, (int)(sizeof defs / sizeof defs[0])};
