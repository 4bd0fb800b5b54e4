/*
 * resize_area.c — the CPU kernel of ResizeArea over NHWC images.
 *
 * Each output pixel is the area-weighted mean of the input pixels its
 * footprint [i * scale, (i + 1) * scale) covers along both axes, in float,
 * summed in TF's order (per covered input row: first column * its
 * fraction, whole columns, last column * its fraction; then rows * their
 * fractions; times 1 / (h_scale * w_scale)). scale = in / out, or
 * (in - 1) / (out - 1) with align_corners; indices past the edge are
 * clamped. Output float32.
 */
#include <math.h>

#include "base/alloc.h"
#include "core/attr.h"
#include "kernels/kernel_tables.h"

static const char *dbg(const tfc_tensor *t, char *buf, size_t cap) {
  tfc_shape s = tfc_tensor_shape(t);
  tfc_shape_debug_string(&s, buf, cap);
  return buf;
}

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
    case TFC_DTYPE_BFLOAT16: return tfc_bfloat16_to_float(((const uint16_t *)t->data)[i]);
    case TFC_DTYPE_DOUBLE: return (float)((const double *)t->data)[i];
    default: return ((const float *)t->data)[i];
  }
}

/* Fraction of input cell v inside [in0, in1) (TF's expression, in float). */
static float cell_scale(int64_t v, float in0, float in1, float scale) {
  if ((float)v < in0) return (float)(v + 1) > in1 ? scale : (float)(v + 1) - in0;
  return (float)(v + 1) > in1 ? in1 - (float)v : 1.0f;
}

static int64_t bound(int64_t v, int64_t limit) {
  return v < 0 ? 0 : (v > limit - 1 ? limit - 1 : v);
}

/* ResizeArea(images, size) -> float. */
static void resize_area_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *in = ctx->inputs[0], *size = ctx->inputs[1];
  char b[64];
  bool align = false;
  const tfc_attr_value *a = tfc_attrs_find(ctx->attrs, "align_corners");
  if (a && a->kind == TFC_ATTR_B) align = a->v.b;
  if (in->rank != 4) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "input must be 4-dimensional%s", dbg(in, b, 64));
    return;
  }
  if (size->rank != 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "shape_t must be 1-dimensional%s",
                    dbg(size, b, 64));
    return;
  }
  if (size->nelems != 2) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "shape_t must have two elements%s",
                    dbg(size, b, 64));
    return;
  }
  int64_t batch = in->dims[0], ih = in->dims[1], iw = in->dims[2], ch = in->dims[3];
  int64_t oh = ((const int32_t *)size->data)[0], ow = ((const int32_t *)size->data)[1];
  if (oh <= 0 || ow <= 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "output dimensions must be positive");
    return;
  }
  if (ih <= 0 || iw <= 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "input image must be of non-zero size");
    return;
  }
  float hs = (align && oh > 1) ? (float)(ih - 1) / (float)(oh - 1) : (float)ih / (float)oh;
  float ws = (align && ow > 1) ? (float)(iw - 1) / (float)(ow - 1) : (float)iw / (float)ow;
  int64_t od[4] = {batch, oh, ow, ch};
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_FLOAT, 4, od);
  if (!out) return;
  float scale = (float)(1.0 / (double)(hs * ws));
  float *o = out->data;
  int64_t max_rows = (int64_t)ceilf(hs) + 2;
  float *ysc = tfc_malloc(sizeof(float) * (size_t)max_rows);
  int64_t *yrow = tfc_malloc(sizeof(int64_t) * (size_t)max_rows);
  if (!ysc || !yrow) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in ResizeArea");
    goto done;
  }
  for (int64_t bi = 0; bi < batch; bi++) {
    for (int64_t y = 0; y < oh; y++) {
      float in_y = (float)y * hs, in_y1 = (float)(y + 1) * hs;
      int64_t y0 = (int64_t)floorf(in_y), y1 = (int64_t)ceilf(in_y1), ny = 0;
      for (int64_t i = y0; i < y1 && ny < max_rows; i++, ny++) {
        ysc[ny] = cell_scale(i, in_y, in_y1, hs);
        yrow[ny] = (bi * ih + bound(i, ih)) * iw * ch;
      }
      for (int64_t x = 0; x < ow; x++) {
        float in_x = (float)x * ws, in_x1 = (float)(x + 1) * ws;
        int64_t xs = (int64_t)floorf(in_x), xe = (int64_t)ceilf(in_x1);
        float s0 = cell_scale(xs, in_x, in_x1, ws), s1 = cell_scale(xe - 1, in_x, in_x1, ws);
        for (int64_t c = 0; c < ch; c++) {
          float sum = 0;
          for (int64_t r = 0; r < ny; r++) {
            int64_t row = yrow[r];
            float sy = elem(in, row + bound(xs, iw) * ch + c) * s0;
            if (xs + 1 != xe) {
              for (int64_t xx = xs + 1; xx < xe - 1; xx++) sy += elem(in, row + bound(xx, iw) * ch + c);
              sy += elem(in, row + bound(xe - 1, iw) * ch + c) * s1;
            }
            sum += sy * ysc[r];
          }
          o[((bi * oh + y) * ow + x) * ch + c] = sum * scale;
        }
      }
    }
  }
done:
  tfc_free(ysc);
  tfc_free(yrow);
}

static const tfc_kernel_def defs[] = {
    {"ResizeArea", "CPU", NULL, NULL, NULL, resize_area_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_resize_area = {defs, (int)(sizeof defs / sizeof defs[0])};
