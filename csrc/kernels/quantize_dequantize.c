/*
 * quantize_dequantize.c — CPU kernels for QuantizeAndDequantizeV2/V3
 * (core/ops_quantize.c) on float and double: values rounded to the integer
 * grid of num_bits and mapped back, as TF's QuantizeAndDequantizeOneScale.
 *
 * Per tensor (axis -1) or per slice of `axis`: the range is the data's
 * min/max unless range_given; the integer range is [-2^(b-1) (+1 with
 * narrow_range), 2^(b-1) - 1] when signed_input, else [0, 2^b - 1]; the
 * scale is the largest that keeps both range ends inside it with 0 fixed,
 * the other end of the range recomputed from it; with range_given the input
 * is clamped to the (adjusted) range first. Rounding HALF_TO_EVEN or HALF_UP
 * (floor(x + 0.5)). V3 takes num_bits as a scalar input. Per-axis ranges
 * come from the data only: a given range with axis >= 0 fails as in TF.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "kernels/kernel.h"
#include "kernels/kernel_tables.h"

/* The settings of one node. */
typedef struct qdq_cfg {
  bool signed_input, range_given, narrow, half_up;
  int64_t num_bits, axis;
} qdq_cfg;

#define QDQ_IMPL(SUF, T, TMAX, FLOOR, RINT, FABS)                                                 \
  /* Quantizes and dequantizes elements [.., ..) of slice s (stride pattern as in quantize.c). */ \
  static void qdq_slice_##SUF(tfc_kernel_ctx *ctx, const qdq_cfg *c, const T *in, T *out,       \
                              int64_t n, int64_t s, int64_t slices, int64_t inner, T lo, T hi) { \
    if (!c->range_given) {                                                                      \
      bool first = true;                                                                        \
      for (int64_t i = s * inner; i < n; i += (i + 1) % inner == 0 ? (slices - 1) * inner + 1 : 1) { \
        if (first || in[i] < lo) lo = in[i];                                                    \
        if (first || in[i] > hi) hi = in[i];                                                    \
        first = false;                                                                          \
      }                                                                                         \
    } else if (lo > hi) {                                                                       \
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Invalid range: input_min %g > input_max %g", \
                      (double)lo, (double)hi);                                                  \
      return;                                                                                   \
    }                                                                                           \
    const int64_t qmin = c->signed_input                                                        \
                             ? (c->narrow ? -((int64_t)1 << (c->num_bits - 1)) + 1               \
                                          : -((int64_t)1 << (c->num_bits - 1)))                  \
                             : 0;                                                               \
    const int64_t qmax = c->signed_input ? ((int64_t)1 << (c->num_bits - 1)) - 1                \
                                         : ((int64_t)1 << c->num_bits) - 1;                     \
    const T from_min = ((T)qmin * lo > 0) ? (T)qmin / lo : TMAX;                                \
    const T from_max = ((T)qmax * hi > 0) ? (T)qmax / hi : TMAX;                                \
    T scale, inv;                                                                               \
    if (from_min < from_max) {                                                                  \
      scale = from_min;                                                                         \
      inv = lo / (T)qmin;                                                                       \
      hi = (T)qmax * inv;                                                                       \
    } else {                                                                                    \
      scale = from_max;                                                                         \
      inv = hi / (T)qmax;                                                                       \
      lo = (T)qmin * inv;                                                                       \
    }                                                                                           \
    for (int64_t i = s * inner; i < n; i += (i + 1) % inner == 0 ? (slices - 1) * inner + 1 : 1) { \
      T v = in[i];                                                                              \
      if (c->range_given) {                                                                     \
        v = v < hi ? v : hi;                                                                    \
        v = v > lo ? v : lo;                                                                    \
      }                                                                                         \
      T x = v * scale;                                                                          \
      x = c->half_up ? FLOOR(x + (T)0.5) : RINT(x);                                             \
      out[i] = x * inv;                                                                         \
    }                                                                                           \
  }

QDQ_IMPL(f32, float, FLT_MAX, floorf, rintf, fabsf)
QDQ_IMPL(f64, double, DBL_MAX, floor, rint, fabs)

/* Reads the node's settings; V3 reads num_bits from input 3. */
static bool read_cfg(tfc_kernel_ctx *ctx, qdq_cfg *c) {
  const tfc_attr_value *a;
  memset(c, 0, sizeof *c);
  a = tfc_attrs_find(ctx->attrs, "signed_input");
  c->signed_input = !(a && a->kind == TFC_ATTR_B && !a->v.b);
  a = tfc_attrs_find(ctx->attrs, "range_given");
  c->range_given = a && a->kind == TFC_ATTR_B ? a->v.b : ctx->n_inputs > 3;
  a = tfc_attrs_find(ctx->attrs, "narrow_range");
  c->narrow = a && a->kind == TFC_ATTR_B && a->v.b;
  a = tfc_attrs_find(ctx->attrs, "round_mode");
  c->half_up = a && a->kind == TFC_ATTR_S && a->v.s.data && strcmp(a->v.s.data, "HALF_UP") == 0;
  a = tfc_attrs_find(ctx->attrs, "axis");
  c->axis = a && a->kind == TFC_ATTR_I ? a->v.i : -1;
  if (ctx->n_inputs > 3) {
    const tfc_tensor *nb = ctx->inputs[3];
    if (nb->rank != 0)
      return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "num_bits must be a scalar");
    c->num_bits = *(const int32_t *)nb->data;
  } else {
    a = tfc_attrs_find(ctx->attrs, "num_bits");
    c->num_bits = a && a->kind == TFC_ATTR_I ? a->v.i : 8;
  }
  if (c->num_bits <= 0 || c->num_bits >= (c->signed_input ? 62 : 63))
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "num_bits is out of range: %lld with signed_input_ %d",
                           (long long)c->num_bits, c->signed_input ? 1 : 0);
  return true;
}

/* QuantizeAndDequantizeV2/V3 compute (see the file comment). */
static void qdq_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *x = ctx->inputs[0], *lo = ctx->inputs[1], *hi = ctx->inputs[2];
  qdq_cfg c;
  if (!read_cfg(ctx, &c)) return;
  int64_t slices = 1, inner = 1;
  if (c.axis >= 0) {
    if (c.axis >= x->rank) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Axis requested is larger than input dimensions. Axis: %lld Input Dimensions: %d",
                      (long long)c.axis, x->rank);
      return;
    }
    slices = x->dims[c.axis];
    for (int d = (int)c.axis + 1; d < x->rank; d++) inner *= x->dims[d];
    if (c.range_given) {   /* TF 2.21's kernel rejects per-axis given ranges this way */
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "input_min must be a scalar.");
      return;
    }
  } else if (lo->rank != 0 || hi->rank != 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "input_min and input_max must be scalars.");
    return;
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, x->dtype, x->rank, x->dims);
  if (out == NULL) return;
  for (int64_t s = 0; s < slices && tfc_kernel_ok(ctx); s++) {
    int64_t k = c.range_given ? s : 0;
    if (x->dtype == TFC_DTYPE_FLOAT)
      qdq_slice_f32(ctx, &c, x->data, out->data, x->nelems, s, slices, inner,
                    lo->nelems ? ((const float *)lo->data)[k] : 0, hi->nelems ? ((const float *)hi->data)[k] : 0);
    else
      qdq_slice_f64(ctx, &c, x->data, out->data, x->nelems, s, slices, inner,
                    lo->nelems ? ((const double *)lo->data)[k] : 0, hi->nelems ? ((const double *)hi->data)[k] : 0);
  }
}

static const tfc_dtype k_types[] = {TFC_DTYPE_FLOAT, TFC_DTYPE_DOUBLE, TFC_DTYPE_INVALID};

static const tfc_kernel_def defs[] = {
    {"QuantizeAndDequantizeV2", "CPU", "T", k_types, NULL, qdq_compute, NULL, 0},
    {"QuantizeAndDequantizeV3", "CPU", "T", k_types, NULL, qdq_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_quantize_dequantize = {defs, (int)(sizeof defs / sizeof defs[0])};
