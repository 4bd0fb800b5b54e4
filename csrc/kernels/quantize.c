/*
 * quantize.c — CPU kernels for QuantizeV2 and Dequantize
 * (core/ops_quantize.c) on quint8, qint8, quint16, qint16 and qint32, with
 * TF's formulas evaluated in float32 in TF's order, per tensor or per slice
 * of `axis`:
 *
 *  QuantizeV2 first widens [min, max] to contain 0 and to span at least
 *  ensure_minimum_range * max(1, |min|, |max|). Then
 *   MIN_COMBINED: q = round((clamp(x) - min) * scale - half), scale =
 *     (T_max - T_min) / (max - min), half = 2^(bits-1) for signed T;
 *   MIN_FIRST: q = clamp(round(x * s) - (round(min * s) - T_min)), s =
 *     (2^bits - 1) / (max - min);
 *   SCALED: s = min(T_lo / min, T_max / max) over the sides where the ratio
 *     is positive (T_lo = T_min + narrow_range), the ranges become T_lo / s,
 *     T_max / s and q = round(clamp(x) * s);
 *  rounding half away from zero, or half to even (SCALED only).
 *  Dequantize inverts each mode the way TF does.
 * QuantizedConcat concatenates quantized tensors into the union of their
 * ranges (with 0; symmetric for signed types), requantizing each input whose
 * range differs through float32 as TF's Eigen requantization does.
 * TF's kernels run with denormals flushed to zero; so are the inputs, the
 * ranges, the scales and the results here (ftz), which decides edge cases
 * such as SCALED on an unsigned type with a range <= 0.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "kernels/kernel.h"
#include "kernels/kernel_tables.h"

enum { MODE_MIN_COMBINED, MODE_MIN_FIRST, MODE_SCALED };

/* x, or a zero of its sign when x is denormal (flush-to-zero). */
static float ftz(float x) { return fabsf(x) < FLT_MIN ? copysignf(0.0f, x) : x; }

/* The range of a quantized type; false for others. */
static bool qrange(tfc_dtype t, int64_t *lo, int64_t *hi, int *bits) {
  switch (t) {
    case TFC_DTYPE_QUINT8: *lo = 0; *hi = 255; *bits = 8; return true;
    case TFC_DTYPE_QINT8: *lo = -128; *hi = 127; *bits = 8; return true;
    case TFC_DTYPE_QUINT16: *lo = 0; *hi = 65535; *bits = 16; return true;
    case TFC_DTYPE_QINT16: *lo = -32768; *hi = 32767; *bits = 16; return true;
    case TFC_DTYPE_QINT32: *lo = INT32_MIN; *hi = INT32_MAX; *bits = 32; return true;
    default: return false;
  }
}

/* Stores v (already in range) as element i of a quantized tensor. */
static void qstore(tfc_tensor *t, int64_t i, int64_t v) {
  switch (t->dtype) {
    case TFC_DTYPE_QUINT8: ((uint8_t *)t->data)[i] = (uint8_t)v; break;
    case TFC_DTYPE_QINT8: ((int8_t *)t->data)[i] = (int8_t)v; break;
    case TFC_DTYPE_QUINT16: ((uint16_t *)t->data)[i] = (uint16_t)v; break;
    case TFC_DTYPE_QINT16: ((int16_t *)t->data)[i] = (int16_t)v; break;
    default: ((int32_t *)t->data)[i] = (int32_t)v; break;
  }
}

/* Element i of a quantized tensor. */
static int64_t qload(const tfc_tensor *t, int64_t i) {
  switch (t->dtype) {
    case TFC_DTYPE_QUINT8: return ((const uint8_t *)t->data)[i];
    case TFC_DTYPE_QINT8: return ((const int8_t *)t->data)[i];
    case TFC_DTYPE_QUINT16: return ((const uint16_t *)t->data)[i];
    case TFC_DTYPE_QINT16: return ((const int16_t *)t->data)[i];
    default: return ((const int32_t *)t->data)[i];
  }
}

/* Reads the mode attr. */
static int mode_attr(const tfc_kernel_ctx *ctx, const char **name) {
  const tfc_attr_value *m = tfc_attrs_find(ctx->attrs, "mode");
  *name = (m && m->kind == TFC_ATTR_S && m->v.s.data) ? m->v.s.data : "MIN_COMBINED";
  if (strcmp(*name, "MIN_FIRST") == 0) return MODE_MIN_FIRST;
  if (strcmp(*name, "SCALED") == 0) return MODE_SCALED;
  return MODE_MIN_COMBINED;
}

/* Reads an int / bool / float attr with a default. */
static int64_t iattr(const tfc_kernel_ctx *ctx, const char *n, int64_t d) {
  const tfc_attr_value *a = tfc_attrs_find(ctx->attrs, n);
  return (a && a->kind == TFC_ATTR_I) ? a->v.i : d;
}
static bool battr(const tfc_kernel_ctx *ctx, const char *n) {
  const tfc_attr_value *a = tfc_attrs_find(ctx->attrs, n);
  return a && a->kind == TFC_ATTR_B && a->v.b;
}
static float fattr(const tfc_kernel_ctx *ctx, const char *n, float d) {
  const tfc_attr_value *a = tfc_attrs_find(ctx->attrs, n);
  return (a && a->kind == TFC_ATTR_F) ? a->v.f : d;
}

/* The slicing of x by axis (-1: one slice) and the checks on the ranges:
 * sets *slices and *inner; fails ctx. */
static bool slicing(tfc_kernel_ctx *ctx, const tfc_tensor *x, int64_t axis, int64_t *slices,
                    int64_t *inner) {
  const tfc_tensor *lo = ctx->inputs[1], *hi = ctx->inputs[2];
  *slices = 1;
  *inner = 1;
  if (axis >= 0) {
    if (axis >= x->rank)
      return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                             "Axis must be less than input dimension(%d), got %lld", x->rank,
                             (long long)axis);
    *slices = x->dims[axis];
    for (int d = (int)axis + 1; d < x->rank; d++) *inner *= x->dims[d];
  }
  if (lo->nelems != *slices || hi->nelems != *slices)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "min_range and max_range must have %lld element(s), got %lld and %lld",
                           (long long)*slices, (long long)lo->nelems, (long long)hi->nelems);
  return true;
}

/* QuantizeV2 compute (see the file comment). */
static void quantize_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *x = ctx->inputs[0];
  const char *mode_name;
  int mode = mode_attr(ctx, &mode_name);
  const tfc_attr_value *r = tfc_attrs_find(ctx->attrs, "round_mode");
  bool to_even = r && r->kind == TFC_ATTR_S && r->v.s.data && strcmp(r->v.s.data, "HALF_TO_EVEN") == 0;
  if (to_even && mode != MODE_SCALED) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Round mode 'HALF_TO_EVEN' only supported for mode 'SCALED', but mode is "
                    "'%s'.", mode_name);
    return;
  }
  bool narrow = battr(ctx, "narrow_range");
  float ensure = fattr(ctx, "ensure_minimum_range", 0.01f);
  int64_t axis = iattr(ctx, "axis", -1), slices, inner;
  if (mode == MODE_MIN_FIRST && axis != -1) {
    tfc_kernel_fail(ctx, TFC_CODE_UNIMPLEMENTED,
                    "MIN_FIRST mode is not implemented for Quantize with axis != -1.");
    return;
  }
  if (!slicing(ctx, x, axis, &slices, &inner)) return;
  tfc_dtype qt = tfc_dtype_base(ctx->out_types[0]);
  int64_t tmin, tmax;
  int bits;
  if (!qrange(qt, &tmin, &tmax, &bits)) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "QuantizeV2: unsupported type %s", tfc_dtype_name(qt));
    return;
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, qt, x->rank, x->dims);
  int rrank = axis >= 0 ? 1 : 0;
  tfc_tensor *omin = out ? tfc_kernel_alloc_output(ctx, 1, TFC_DTYPE_FLOAT, rrank, &slices) : NULL;
  tfc_tensor *omax = omin ? tfc_kernel_alloc_output(ctx, 2, TFC_DTYPE_FLOAT, rrank, &slices) : NULL;
  if (omax == NULL) return;
  const float *in = x->data;
  const float half = tmin < 0 ? (float)(((double)tmax - (double)tmin + 1) / 2.0) : 0.0f;
  for (int64_t s = 0; s < slices; s++) {
    float in_lo = ftz(((const float *)ctx->inputs[1]->data)[s]);
    float in_hi = ftz(((const float *)ctx->inputs[2]->data)[s]);
    if (in_hi < in_lo) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                      "input_max_range must be larger than input_min_range.");
      return;
    }
    float lo = fminf(0.0f, in_lo);
    const float eps = fmaxf(1.0f, fmaxf(fabsf(in_lo), fabsf(in_hi))) * ensure;
    float hi = fmaxf(0.0f, fmaxf(in_hi, lo + eps));
    float scale = 0, rscale = 0, rmin_scaled = 0;
    if (mode == MODE_MIN_COMBINED) {
      scale = (float)(((double)tmax - (double)tmin) / (hi - lo));
    } else if (mode == MODE_MIN_FIRST) {
      double steps = (double)((int64_t)1 << bits);
      rscale = hi == lo ? 0.0f : (float)((steps - 1.0) / (double)(hi - lo));
      rmin_scaled = roundf(lo * rscale);
    } else {
      const int64_t lo_out = tmin + (narrow ? 1 : 0);
      const float from_min = ((float)lo_out * lo > 0) ? (float)lo_out / lo : FLT_MAX;
      const float from_max = ((float)tmax * hi > 0) ? (float)tmax / hi : FLT_MAX;
      scale = fminf(from_min, from_max);
      lo = ftz((float)lo_out / scale);
      hi = ftz((float)tmax / scale);
    }
    ((float *)omin->data)[s] = lo;
    ((float *)omax->data)[s] = hi;
    const float lower = fmaxf((float)tmin, -2.147483648e+09f);
    const float upper = fminf((float)tmax, +2.147483520e+09f);
    for (int64_t i = s * inner; i < x->nelems; i += (i + 1) % inner == 0 ? (slices - 1) * inner + 1 : 1) {
      float v = ftz(in[i]);
      int64_t q;
      if (mode == MODE_MIN_FIRST) {
        float f = roundf(v * rscale) - (rmin_scaled - (float)tmin);
        f = fminf(fmaxf(f, lower), upper);
        q = (int64_t)(int32_t)f;
      } else {
        float c = fmaxf(fminf(v, hi), lo);
        float f = mode == MODE_MIN_COMBINED ? (c - lo) * scale - half : ftz(c * scale);
        f = to_even ? rintf(f) : roundf(f);
        if (qt == TFC_DTYPE_QINT32 && !(f >= -2147483648.0f && f < 2147483648.0f)) {
          q = INT32_MIN;   /* what TF's float -> int32 conversion gives out of range (x86) */
        } else {
          q = (int64_t)f;
          if (q < tmin) q = tmin;
          if (q > tmax) q = tmax;
        }
      }
      qstore(out, i, q);
    }
  }
}

/* Dequantize compute (see the file comment). */
static void dequantize_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *x = ctx->inputs[0];
  const char *mode_name;
  int mode = mode_attr(ctx, &mode_name);
  bool narrow = battr(ctx, "narrow_range");
  int64_t axis = iattr(ctx, "axis", -1), slices, inner;
  if (mode == MODE_MIN_FIRST && axis != -1) {
    tfc_kernel_fail(ctx, TFC_CODE_UNIMPLEMENTED,
                    "MIN_FIRST mode is not implemented for Dequantize with axis != -1.");
    return;
  }
  if (!slicing(ctx, x, axis, &slices, &inner)) return;
  int64_t tmin, tmax;
  int bits;
  if (!qrange(x->dtype, &tmin, &tmax, &bits)) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Dequantize: unsupported type %s",
                    tfc_dtype_name(x->dtype));
    return;
  }
  tfc_dtype ot = tfc_dtype_base(ctx->out_types[0]);
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, ot, x->rank, x->dims);
  if (out == NULL) return;
  const float half = tmin < 0 ? (float)(((double)tmax - (double)tmin + 1) / 2.0) : 0.0f;
  for (int64_t s = 0; s < slices; s++) {
    float lo = ftz(((const float *)ctx->inputs[1]->data)[s]);
    float hi = ftz(((const float *)ctx->inputs[2]->data)[s]);
    float scale = 0, base = 0;
    if (mode == MODE_MIN_COMBINED) {
      scale = (hi - lo) / ((float)tmax - (float)tmin);
    } else if (mode == MODE_MIN_FIRST) {
      double steps = (double)((int64_t)1 << bits);
      scale = (float)((double)(hi - lo) / (steps - 1.0));
      float min_rounded = hi == lo ? lo : roundf(lo / scale) * scale;
      base = min_rounded - (float)tmin * scale;
    } else {
      const int64_t lo_out = tmin + (narrow ? 1 : 0);
      scale = tmin == 0 ? hi / (float)tmax : fmaxf(lo / (float)lo_out, hi / (float)tmax);
    }
    scale = ftz(scale);
    for (int64_t i = s * inner; i < x->nelems; i += (i + 1) % inner == 0 ? (slices - 1) * inner + 1 : 1) {
      float q = (float)qload(x, i), v;
      if (mode == MODE_MIN_COMBINED) v = ((q + half) * scale) + lo;
      else if (mode == MODE_MIN_FIRST) v = base + q * scale;
      else v = q * scale;
      v = ftz(v);
      if (ot == TFC_DTYPE_BFLOAT16) ((uint16_t *)out->data)[i] = tfc_float_to_bfloat16(v);
      else ((float *)out->data)[i] = v;
    }
  }
}

/* TF's Eigen requantization (DEQUANTIZE_WITH_EIGEN then QUANTIZE_WITH_EIGEN,
 * float32 throughout) of one value from [lo, hi] to [olo, ohi]. */
static int64_t requantize(int64_t q, float lo, float hi, float olo, float ohi, int bits,
                          int64_t tmin, int64_t tmax) {
  const double steps = (double)((int64_t)1 << bits);
  const float scale = (float)((double)(hi - lo) / (steps - 1.0));
  const float min_rounded = hi == lo ? lo : roundf(lo / scale) * scale;
  const float f = (min_rounded - (float)tmin * scale) + (float)q * scale;
  const float rscale = ohi == olo ? 0.0f : (float)((steps - 1.0) / (double)(ohi - olo));
  const float rmin_scaled = roundf(olo * rscale);
  float r = roundf(f * rscale) - (rmin_scaled - (float)tmin);
  r = fminf(fmaxf(r, fmaxf((float)tmin, -2.147483648e+09f)), fminf((float)tmax, +2.147483520e+09f));
  return (int64_t)(int32_t)r;
}

static const tfc_dtype k_concat_types[] = {TFC_DTYPE_QUINT8, TFC_DTYPE_QINT32, TFC_DTYPE_INVALID};

/* QuantizedConcat compute (see the file comment). */
static void quantized_concat_compute(tfc_kernel_ctx *ctx) {
  int n = (ctx->n_inputs - 1) / 3;
  const tfc_tensor *cd = ctx->inputs[0];
  if (cd->rank != 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Concat dim tensor should be a scalar integer, but got rank %d", cd->rank);
    return;
  }
  const tfc_tensor *first = ctx->inputs[1];
  int64_t tmin, tmax;
  int bits;
  if (!qrange(first->dtype, &tmin, &tmax, &bits)) {
    tfc_kernel_fail(ctx, TFC_CODE_UNIMPLEMENTED, "QuantizedConcat: unsupported type %s",
                    tfc_dtype_name(first->dtype));
    return;
  }
  int rank = first->rank;
  int64_t dim = *(const int32_t *)cd->data;
  if (dim < 0 || dim >= rank) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "ConcatOp : Expected concatenating dimensions in the range [0, %d), but got %lld",
                    rank, (long long)dim);
    return;
  }
  float omin = FLT_MAX, omax = -FLT_MAX;
  int64_t dims[TFC_MAX_RANK];
  memcpy(dims, first->dims, sizeof(int64_t) * (size_t)rank);
  dims[dim] = 0;
  for (int i = 0; i < n; i++) {
    const tfc_tensor *v = ctx->inputs[1 + i], *mn = ctx->inputs[1 + n + i], *mx = ctx->inputs[1 + 2 * n + i];
    if (mn->nelems != 1 || mx->nelems != 1) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "input_mins and input_maxes must be scalars");
      return;
    }
    bool ok = v->rank == rank;
    for (int d = 0; ok && d < rank; d++) ok = d == dim || v->dims[d] == first->dims[d];
    if (!ok) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                      "ConcatOp : Dimensions of inputs should match: input 0 and input %d differ", i);
      return;
    }
    dims[dim] += v->dims[dim];
    float lo = *(const float *)mn->data, hi = *(const float *)mx->data;
    omin = fminf(omin, lo);
    omax = fmaxf(omax, hi);
  }
  omin = fminf(0.0f, omin);
  if (tmin < 0) {
    float largest = fmaxf(fabsf(omin), fabsf(omax));
    omin = -largest;
    omax = largest;
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, first->dtype, rank, dims);
  tfc_tensor *rmin = out ? tfc_kernel_alloc_output(ctx, 1, TFC_DTYPE_FLOAT, 0, NULL) : NULL;
  tfc_tensor *rmax = rmin ? tfc_kernel_alloc_output(ctx, 2, TFC_DTYPE_FLOAT, 0, NULL) : NULL;
  if (rmax == NULL) return;
  *(float *)rmin->data = omin;
  *(float *)rmax->data = omax;
  int64_t outer = 1;
  for (int d = 0; d < dim; d++) outer *= dims[d];
  int64_t inner = 1;
  for (int d = (int)dim + 1; d < rank; d++) inner *= dims[d];
  int64_t out_row = dims[dim] * inner, offset = 0;
  for (int i = 0; i < n; i++) {
    const tfc_tensor *v = ctx->inputs[1 + i];
    float lo = *(const float *)ctx->inputs[1 + n + i]->data;
    float hi = *(const float *)ctx->inputs[1 + 2 * n + i]->data;
    bool same = lo == omin && hi == omax;
    int64_t row = v->dims[dim] * inner;
    for (int64_t o = 0; o < outer; o++)
      for (int64_t j = 0; j < row; j++) {
        int64_t q = qload(v, o * row + j);
        if (!same) q = requantize(q, lo, hi, omin, omax, bits, tmin, tmax);
        qstore(out, o * out_row + offset + j, q);
      }
    offset += row;
  }
}

static const tfc_kernel_def defs[] = {
    {"QuantizedConcat", "CPU", "T", k_concat_types, NULL, quantized_concat_compute, NULL, 0},
    {"QuantizeV2", "CPU", NULL, NULL, NULL, quantize_compute, NULL, 0},
    {"Dequantize", "CPU", NULL, NULL, NULL, dequantize_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_quantize = {defs, (int)(sizeof defs / sizeof defs[0])};
