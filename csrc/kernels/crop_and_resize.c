/*
 * crop_and_resize.c — CPU kernels CropAndResize, CropAndResizeGradImage and
 * CropAndResizeGradBoxes over NHWC images.
 *
 * Box b = (y1, x1, y2, x2) in normalised coordinates samples crop row y at
 * in_y = y1 * (H - 1) + y * (y2 - y1) * (H - 1) / (crop_h - 1) (the box
 * centre when crop_h == 1, computed in double as TF does), and likewise for
 * columns, all in float. Samples outside [0, H - 1] x [0, W - 1] get
 * extrapolation_value (and no gradient). Bilinear interpolates along x then
 * y; nearest rounds half away from zero. The gradients are TF's: the image
 * gradient scatters each crop gradient into the four (or one) source
 * pixels, the boxes gradient differentiates the sampling positions.
 * Errors are TF's: bad shapes INVALID_ARGUMENT, a box_ind outside
 * [0, batch) OUT_OF_RANGE, non-finite boxes INVALID_ARGUMENT.
 */
#include <math.h>
#include <string.h>

#include "core/attr.h"
#include "kernels/kernel_tables.h"

/* Element i of a real tensor as float. */
static float elem(const tfc_tensor *t, int64_t i) {
  switch (t->dtype) {
    case TFC_DTYPE_UINT8: return (float)((const uint8_t *)t->data)[i];
    case TFC_DTYPE_UINT16: return (float)((const uint16_t *)t->data)[i];
    case TFC_DTYPE_INT8: return (float)((const int8_t *)t->data)[i];
    case TFC_DTYPE_INT16: return (float)((const int16_t *)t->data)[i];
    case TFC_DTYPE_INT32: return (float)((const int32_t *)t->data)[i];
    case TFC_DTYPE_INT64: return (float)((const int64_t *)t->data)[i];
    case TFC_DTYPE_HALF: return tfc_half_to_float(((const uint16_t *)t->data)[i]);
    case TFC_DTYPE_DOUBLE: return (float)((const double *)t->data)[i];
    default: return ((const float *)t->data)[i];
  }
}

static const char *dbg(const tfc_tensor *t, char *buf, size_t cap) {
  tfc_shape s = tfc_tensor_shape(t);
  tfc_shape_debug_string(&s, buf, cap);
  return buf;
}

/* TF's box checks: boxes [n, 4], box_ind [n] (both empty passes); *n set. */
static bool check_boxes(tfc_kernel_ctx *ctx, const tfc_tensor *boxes, const tfc_tensor *bi,
                        int64_t *n) {
  char b[64];
  *n = 0;
  if (boxes->nelems == 0 && bi->nelems == 0) return true;
  if (boxes->rank != 2)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "boxes must be 2-D%s",
                           dbg(boxes, b, 64));
  *n = boxes->dims[0];
  if (boxes->dims[1] != 4)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "boxes must have 4 columns");
  if (bi->rank != 1)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "box_index must be 1-D%s",
                           dbg(bi, b, 64));
  if (bi->dims[0] != *n)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "box_index has incompatible shape");
  return true;
}

/* Every box_ind value in [0, batch), else OUT_OF_RANGE. */
static bool check_box_ind(tfc_kernel_ctx *ctx, const tfc_tensor *bi, int64_t n, int64_t batch) {
  const int32_t *p = bi->data;
  for (int64_t i = 0; i < n; i++)
    if (p[i] < 0 || p[i] >= batch)
      return tfc_kernel_fail(ctx, TFC_CODE_OUT_OF_RANGE,
                             "box_index has values outside [0, batch_size)");
  return true;
}

/* The sampling geometry of one box along one axis. */
typedef struct axis_geom {
  float lo, hi;   /* box edges (y1, y2) */
  int64_t in;     /* image extent */
  int64_t crop;   /* crop extent */
  float scale;    /* (hi - lo) * (in - 1) / (crop - 1), or 0 */
} axis_geom;

static axis_geom make_axis(float lo, float hi, int64_t in, int64_t crop) {
  axis_geom g = {lo, hi, in, crop, 0.0f};
  if (crop > 1) g.scale = (hi - lo) * (float)(in - 1) / (float)(crop - 1);
  return g;
}

/* Source coordinate of crop index i (TF's float/double arithmetic). */
static float axis_pos(const axis_geom *g, int64_t i) {
  if (g->crop > 1) return g->lo * (float)(g->in - 1) + (float)i * g->scale;
  return (float)(0.5 * (double)(g->lo + g->hi) * (double)(g->in - 1));
}

/* CropAndResize(image, boxes, box_ind, crop_size) -> crops float. */
static void crop_and_resize_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *image = ctx->inputs[0], *boxes = ctx->inputs[1], *bi = ctx->inputs[2],
                   *cs = ctx->inputs[3];
  char b[64];
  if (image->rank != 4) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "input image must be 4-D%s", dbg(image, b, 64));
    return;
  }
  int64_t batch = image->dims[0], ih = image->dims[1], iw = image->dims[2], depth = image->dims[3];
  if (!(ih > 0 && iw > 0)) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "image dimensions must be positive");
    return;
  }
  if (boxes->rank != 2) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "boxes must be 2-D, got: %s", dbg(boxes, b, 64));
    return;
  }
  if (bi->rank != 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "box_indices must be rank 1 but is shape %s",
                    dbg(bi, b, 64));
    return;
  }
  int64_t n;
  if (!check_boxes(ctx, boxes, bi, &n)) return;
  if (cs->rank != 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "crop_size must be 1-D%s", dbg(cs, b, 64));
    return;
  }
  if (cs->dims[0] != 2) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "crop_size must have two elements%s",
                    dbg(cs, b, 64));
    return;
  }
  int64_t ch = ((const int32_t *)cs->data)[0], cw = ((const int32_t *)cs->data)[1];
  if (!(ch > 0 && cw > 0)) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "crop dimensions must be positive");
    return;
  }
  int64_t od[4] = {n, ch, cw, depth};
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_FLOAT, 4, od);
  if (!out || !check_box_ind(ctx, bi, n, batch)) return;
  const float *bx = boxes->data;
  for (int64_t i = 0; i < 4 * n; i++)
    if (!isfinite(bx[i])) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                      "Boxes contains at least one element that is not finite");
      return;
    }
  float extrap = 0.0f;
  const tfc_attr_value *a = tfc_attrs_find(ctx->attrs, "extrapolation_value");
  if (a && a->kind == TFC_ATTR_F) extrap = a->v.f;
  bool nearest = tfc_attrs_string_is(ctx->attrs, "method", "nearest");
  float *o = out->data;
  const int32_t *ind = bi->data;
  for (int64_t k = 0; k < n; k++) {
    axis_geom gy = make_axis(bx[4 * k], bx[4 * k + 2], ih, ch);
    axis_geom gx = make_axis(bx[4 * k + 1], bx[4 * k + 3], iw, cw);
    int64_t base = (int64_t)ind[k] * ih * iw * depth;
    for (int64_t y = 0; y < ch; y++) {
      float in_y = axis_pos(&gy, y);
      float *row = o + ((k * ch + y) * cw) * depth;
      if (in_y < 0 || in_y > (float)(ih - 1)) {
        for (int64_t e = 0; e < cw * depth; e++) row[e] = extrap;
        continue;
      }
      int64_t top = (int64_t)floorf(in_y), bot = (int64_t)ceilf(in_y);
      float yl = in_y - (float)top;
      for (int64_t x = 0; x < cw; x++) {
        float in_x = axis_pos(&gx, x);
        float *px = row + x * depth;
        if (in_x < 0 || in_x > (float)(iw - 1)) {
          for (int64_t d = 0; d < depth; d++) px[d] = extrap;
          continue;
        }
        if (nearest) {
          int64_t cx = (int64_t)roundf(in_x), cy = (int64_t)roundf(in_y);
          for (int64_t d = 0; d < depth; d++) px[d] = elem(image, base + (cy * iw + cx) * depth + d);
          continue;
        }
        int64_t left = (int64_t)floorf(in_x), right = (int64_t)ceilf(in_x);
        float xl = in_x - (float)left;
        for (int64_t d = 0; d < depth; d++) {
          float tl = elem(image, base + (top * iw + left) * depth + d);
          float tr = elem(image, base + (top * iw + right) * depth + d);
          float bl = elem(image, base + (bot * iw + left) * depth + d);
          float br = elem(image, base + (bot * iw + right) * depth + d);
          float t = tl + (tr - tl) * xl;
          float bo = bl + (br - bl) * xl;
          px[d] = t + (bo - t) * yl;
        }
      }
    }
  }
}

/* Adds v to element i of a float/half/double tensor (half rounds each add). */
static void acc(tfc_tensor *t, int64_t i, float v) {
  switch (t->dtype) {
    case TFC_DTYPE_HALF: {
      uint16_t *p = t->data;
      float h = tfc_half_to_float(tfc_float_to_half(v));
      p[i] = tfc_float_to_half(tfc_half_to_float(p[i]) + h);
    } break;
    case TFC_DTYPE_DOUBLE: ((double *)t->data)[i] += (double)v; break;
    default: ((float *)t->data)[i] += v; break;
  }
}

/* Checks grads [n, ch, cw, d] with positive crop dims. */
static bool check_grads(tfc_kernel_ctx *ctx, const tfc_tensor *g) {
  char b[64];
  if (g->rank != 4)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "grads image must be 4-D%s",
                           dbg(g, b, 64));
  if (!(g->dims[1] > 0 && g->dims[2] > 0))
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "grads dimensions must be positive");
  return true;
}

/* CropAndResizeGradImage(grads, boxes, box_ind, image_size) -> output T. */
static void crop_grad_image_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *g = ctx->inputs[0], *boxes = ctx->inputs[1], *bi = ctx->inputs[2],
                   *isz = ctx->inputs[3];
  char b[64];
  if (!check_grads(ctx, g)) return;
  int64_t n;
  if (!check_boxes(ctx, boxes, bi, &n)) return;
  if (g->dims[0] != n) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "boxes and grads have incompatible shape");
    return;
  }
  if (isz->rank != 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "image_size must be 1-D%s", dbg(isz, b, 64));
    return;
  }
  if (isz->dims[0] != 4) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "image_size must have 4 elements%s",
                    dbg(isz, b, 64));
    return;
  }
  const int32_t *sz = isz->data;
  int64_t batch = sz[0], ih = sz[1], iw = sz[2], depth = sz[3];
  if (!(ih > 0 && iw > 0)) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "image dimensions must be positive");
    return;
  }
  if (g->dims[3] != depth) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "image_size and grads are incompatible");
    return;
  }
  if (batch < 0 || depth < 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Dimension -1 must be >= 0");
    return;
  }
  int64_t od[4] = {batch, ih, iw, depth};
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, ctx->out_types[0], 4, od);
  if (!out || !check_box_ind(ctx, bi, n, batch)) return;
  memset(out->data, 0, tfc_dtype_size(out->dtype) * (size_t)out->nelems);
  bool nearest = tfc_attrs_string_is(ctx->attrs, "method", "nearest");
  const float *bx = boxes->data, *gd = g->data;
  const int32_t *ind = bi->data;
  int64_t ch = g->dims[1], cw = g->dims[2];
  for (int64_t k = 0; k < n; k++) {
    axis_geom gy = make_axis(bx[4 * k], bx[4 * k + 2], ih, ch);
    axis_geom gx = make_axis(bx[4 * k + 1], bx[4 * k + 3], iw, cw);
    int64_t base = (int64_t)ind[k] * ih * iw * depth;
    for (int64_t y = 0; y < ch; y++) {
      float in_y = axis_pos(&gy, y);
      if (in_y < 0 || in_y > (float)(ih - 1)) continue;
      int64_t top = (int64_t)floorf(in_y), bot = (int64_t)ceilf(in_y);
      float yl = in_y - (float)top;
      for (int64_t x = 0; x < cw; x++) {
        float in_x = axis_pos(&gx, x);
        if (in_x < 0 || in_x > (float)(iw - 1)) continue;
        const float *gp = gd + ((k * ch + y) * cw + x) * depth;
        if (nearest) {
          int64_t cx = (int64_t)roundf(in_x), cy = (int64_t)roundf(in_y);
          for (int64_t d = 0; d < depth; d++) acc(out, base + (cy * iw + cx) * depth + d, gp[d]);
          continue;
        }
        int64_t left = (int64_t)floorf(in_x), right = (int64_t)ceilf(in_x);
        float xl = in_x - (float)left;
        for (int64_t d = 0; d < depth; d++) {
          float dtop = (1 - yl) * gp[d];
          acc(out, base + (top * iw + left) * depth + d, (1 - xl) * dtop);
          acc(out, base + (top * iw + right) * depth + d, xl * dtop);
          float dbot = yl * gp[d];
          acc(out, base + (bot * iw + left) * depth + d, (1 - xl) * dbot);
          acc(out, base + (bot * iw + right) * depth + d, xl * dbot);
        }
      }
    }
  }
}

/* CropAndResizeGradBoxes(grads, image, boxes, box_ind) -> output float [n, 4]. */
static void crop_grad_boxes_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *g = ctx->inputs[0], *image = ctx->inputs[1], *boxes = ctx->inputs[2],
                   *bi = ctx->inputs[3];
  char b[64];
  if (!check_grads(ctx, g)) return;
  int64_t ch = g->dims[1], cw = g->dims[2], depth = g->dims[3];
  if (image->rank != 4) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "input image must be 4-D%s", dbg(image, b, 64));
    return;
  }
  int64_t batch = image->dims[0], ih = image->dims[1], iw = image->dims[2];
  if (!(ih > 0 && iw > 0)) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "image dimensions must be positive");
    return;
  }
  if (image->dims[3] != depth) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "image, grads depth differ");
    return;
  }
  int64_t n;
  if (!check_boxes(ctx, boxes, bi, &n)) return;
  if (g->dims[0] != n) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "boxes and grads have incompatible shape");
    return;
  }
  int64_t od[2] = {n, 4};
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_FLOAT, 2, od);
  if (!out || !check_box_ind(ctx, bi, n, batch)) return;
  float *gb = out->data;
  memset(gb, 0, sizeof(float) * (size_t)out->nelems);
  const float *bx = boxes->data, *gd = g->data;
  const int32_t *ind = bi->data;
  for (int64_t k = 0; k < n; k++) {
    float y1 = bx[4 * k], x1 = bx[4 * k + 1], y2 = bx[4 * k + 2], x2 = bx[4 * k + 3];
    int64_t base = (int64_t)ind[k] * ih * iw * depth;
    float hr = ch > 1 ? (float)(ih - 1) / (float)(ch - 1) : 0.0f;
    float wr = cw > 1 ? (float)(iw - 1) / (float)(cw - 1) : 0.0f;
    float hs = ch > 1 ? (y2 - y1) * hr : 0.0f, ws = cw > 1 ? (x2 - x1) * wr : 0.0f;
    float *o = gb + 4 * k;
    for (int64_t y = 0; y < ch; y++) {
      float in_y = ch > 1 ? y1 * (float)(ih - 1) + (float)y * hs
                          : (float)(0.5 * (double)(y1 + y2) * (double)(ih - 1));
      if (in_y < 0 || in_y > (float)(ih - 1)) continue;
      int64_t top = (int64_t)floorf(in_y), bot = (int64_t)ceilf(in_y);
      float yl = in_y - (float)top;
      for (int64_t x = 0; x < cw; x++) {
        float in_x = cw > 1 ? x1 * (float)(iw - 1) + (float)x * ws
                            : (float)(0.5 * (double)(x1 + x2) * (double)(iw - 1));
        if (in_x < 0 || in_x > (float)(iw - 1)) continue;
        int64_t left = (int64_t)floorf(in_x), right = (int64_t)ceilf(in_x);
        float xl = in_x - (float)left;
        for (int64_t d = 0; d < depth; d++) {
          float tl = elem(image, base + (top * iw + left) * depth + d);
          float tr = elem(image, base + (top * iw + right) * depth + d);
          float bl = elem(image, base + (bot * iw + left) * depth + d);
          float br = elem(image, base + (bot * iw + right) * depth + d);
          float gy = (1 - xl) * (bl - tl) + xl * (br - tr);
          float gx = (1 - yl) * (tr - tl) + yl * (br - bl);
          float tg = gd[((k * ch + y) * cw + x) * depth + d];
          gy *= tg;
          gx *= tg;
          if (ch > 1) {
            o[0] += gy * ((float)(ih - 1) - (float)y * hr);
            o[2] += gy * ((float)y * hr);
          } else {
            o[0] = (float)((double)o[0] + (double)gy * 0.5 * (double)(ih - 1));
            o[2] = (float)((double)o[2] + (double)gy * 0.5 * (double)(ih - 1));
          }
          if (cw > 1) {
            o[1] += gx * ((float)(iw - 1) - (float)x * wr);
            o[3] += gx * ((float)x * wr);
          } else {
            o[1] = (float)((double)o[1] + (double)gx * 0.5 * (double)(iw - 1));
            o[3] = (float)((double)o[3] + (double)gx * 0.5 * (double)(iw - 1));
          }
        }
      }
    }
  }
}

#define K(op, fn) {op, "CPU", NULL, NULL, NULL, fn, NULL, 0}

static const tfc_kernel_def defs[] = {
    K("CropAndResize", crop_and_resize_compute),
    K("CropAndResizeGradImage", crop_grad_image_compute),
    K("CropAndResizeGradBoxes", crop_grad_boxes_compute),
};

const tfc_kernel_table tfc_kernels_crop_and_resize = {defs, (int)(sizeof defs / sizeof defs[0])};
