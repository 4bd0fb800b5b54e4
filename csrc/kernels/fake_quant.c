/*
 * fake_quant.c — CPU kernels for FakeQuantWithMinMaxArgs/Vars/VarsPerChannel
 * and their gradients (core/ops_fake_quant.c), with TF's nudging.
 *
 * The range [min, max] is nudged so that zero is exactly representable:
 * quant_min = narrow_range ? 1 : 0, quant_max = 2^num_bits - 1,
 * scale = (max - min) / (quant_max - quant_min), the zero point
 * quant_min - min / scale rounded (half away from zero) and clamped to
 * [quant_min, quant_max], nudged_min/max = (quant_min/max - zero point) *
 * scale. Outputs are floor((clamp(x) - nudged_min) * inv_scale - quant_zero
 * + 0.5) * scale in float32, in TF's operation order. Gradients pass where
 * nudged_min <= x <= nudged_max; the Vars gradients also sum the incoming
 * gradient below nudged_min (wrt min) and above nudged_max (wrt max).
 * min == max == 0 gives zero outputs, and gradients that pass unchanged to
 * the input and are 0 for min and max, as TF does.
 */
#include <math.h>
#include <stdio.h>

#include "base/alloc.h"
#include "kernels/kernel.h"
#include "kernels/kernel_tables.h"

/* One channel's nudged range. */
typedef struct nudged {
  float min, max, scale, inv_scale, quant_zero;
  bool zero;   /* min == max == 0: everything is zero */
} nudged;

/* TF's Nudge for [min, max] and the quantized range [qmin, qmax]. */
static nudged nudge(float min, float max, int qmin, int qmax) {
  nudged n = {0};
  n.zero = min == 0.0f && max == 0.0f;
  const float qmin_f = (float)qmin, qmax_f = (float)qmax;
  n.scale = (max - min) / (qmax_f - qmin_f);
  n.inv_scale = (qmax_f - qmin_f) / (max - min);
  const float zero_from_min = qmin_f - min / n.scale;
  uint16_t zp;
  if (zero_from_min < qmin_f) zp = (uint16_t)qmin;
  else if (zero_from_min > qmax_f) zp = (uint16_t)qmax;
  else zp = (uint16_t)roundf(zero_from_min);
  n.min = (qmin_f - zp) * n.scale;
  n.max = (qmax_f - zp) * n.scale;
  n.quant_zero = floorf(-n.min * n.inv_scale + 0.5f);
  return n;
}

/* Fake-quantizes one value with a nudged range. */
static float fake_quant(float x, const nudged *n) {
  if (n->zero) return 0.0f;
  float c = x < n->max ? x : n->max;
  c = c > n->min ? c : n->min;
  float shifted = c - n->min;
  return floorf(shifted * n->inv_scale - n->quant_zero + 0.5f) * n->scale;
}

/* Reads num_bits / narrow_range into the quantized range; fails ctx on a
 * num_bits outside [2, 16]. */
static bool quant_range(tfc_kernel_ctx *ctx, int *qmin, int *qmax) {
  const tfc_attr_value *b = tfc_attrs_find(ctx->attrs, "num_bits");
  const tfc_attr_value *r = tfc_attrs_find(ctx->attrs, "narrow_range");
  int64_t bits = (b && b->kind == TFC_ATTR_I) ? b->v.i : 8;
  bool narrow = r && r->kind == TFC_ATTR_B && r->v.b;
  if (bits < 2 || bits > 16)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "num_bits must be between 2 and 16, inclusive");
  *qmin = narrow ? 1 : 0;
  *qmax = (1 << bits) - 1;
  return true;
}

/* The nudged ranges of the op: one from the min/max attrs (Args), or one per
 * entry of the min/max inputs at `lo`, lo+1 (Vars: scalars; PerChannel:
 * vectors of the input's last dimension). NULL + ctx failed on bad input. */
static nudged *ranges(tfc_kernel_ctx *ctx, int lo, const tfc_tensor *x, int64_t *count) {
  int qmin = 0, qmax = 255;
  if (!quant_range(ctx, &qmin, &qmax)) return NULL;
  bool per_channel = ctx->op_type[sizeof "FakeQuantWithMinMaxVars" - 1] == 'P';
  bool args = lo < 0;
  float fmin = -6.0f, fmax = 6.0f;
  const tfc_tensor *tmin = NULL, *tmax = NULL;
  if (args) {
    const tfc_attr_value *a = tfc_attrs_find(ctx->attrs, "min");
    if (a && a->kind == TFC_ATTR_F) fmin = a->v.f;
    a = tfc_attrs_find(ctx->attrs, "max");
    if (a && a->kind == TFC_ATTR_F) fmax = a->v.f;
    if (!(fmin < fmax)) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "min has to be smaller than max, was: %g >= %g",
                      (double)fmin, (double)fmax);
      return NULL;
    }
    *count = 1;
  } else {
    tmin = ctx->inputs[lo];
    tmax = ctx->inputs[lo + 1];
    int want = per_channel ? 1 : 0;
    if (tmin->rank != want || tmax->rank != want) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "`%s` must be rank %d but is rank %d",
                      tmin->rank != want ? "min" : "max", want,
                      tmin->rank != want ? tmin->rank : tmax->rank);
      return NULL;
    }
    *count = per_channel ? tmin->dims[0] : 1;
    if (per_channel) {
      int64_t depth = x->rank > 0 ? x->dims[x->rank - 1] : 0;
      if (x->rank < 1 || tmin->dims[0] != depth || tmax->dims[0] != depth) {
        tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                        "min and max must be vectors of the input's last dimension (%lld), got "
                        "%lld and %lld", (long long)depth, (long long)tmin->dims[0],
                        (long long)tmax->dims[0]);
        return NULL;
      }
    }
  }
  nudged *n = tfc_malloc((size_t)(*count > 0 ? *count : 1) * sizeof *n);
  if (n == NULL) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory in %s", ctx->op_type);
    return NULL;
  }
  for (int64_t c = 0; c < *count; c++) {
    float lo_v = args ? fmin : ((const float *)tmin->data)[c];
    float hi_v = args ? fmax : ((const float *)tmax->data)[c];
    n[c] = nudge(lo_v, hi_v, qmin, qmax);
  }
  return n;
}

/* FakeQuantWithMinMax{Args,Vars,VarsPerChannel}: outputs = fake_quant(inputs). */
static void fake_quant_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *x = ctx->inputs[0];
  int64_t count;
  nudged *n = ranges(ctx, ctx->n_inputs == 1 ? -1 : 1, x, &count);
  if (n == NULL) return;
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_FLOAT, x->rank, x->dims);
  if (out != NULL) {
    const float *in = x->data;
    float *o = out->data;
    for (int64_t i = 0; i < x->nelems; i++) o[i] = fake_quant(in[i], &n[count > 1 ? i % count : 0]);
  }
  tfc_free(n);
}

/* The *Gradient ops: backprops = gradients where nudged_min <= x <= nudged_max;
 * Vars also output the sums below (wrt min) and above (wrt max) the range. */
static void fake_quant_grad_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *g = ctx->inputs[0], *x = ctx->inputs[1];
  bool same = g->rank == x->rank;
  for (int d = 0; same && d < g->rank; d++) same = g->dims[d] == x->dims[d];
  if (!same) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "gradients and inputs must be the same size");
    return;
  }
  int64_t count;
  nudged *n = ranges(ctx, ctx->n_inputs == 2 ? -1 : 2, x, &count);
  if (n == NULL) return;
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_FLOAT, x->rank, x->dims);
  tfc_tensor *dmin = NULL, *dmax = NULL;
  if (out != NULL && ctx->n_outputs == 3) {
    bool vec = ctx->inputs[2]->rank == 1;
    dmin = tfc_kernel_alloc_output(ctx, 1, TFC_DTYPE_FLOAT, vec ? 1 : 0, &count);
    dmax = dmin ? tfc_kernel_alloc_output(ctx, 2, TFC_DTYPE_FLOAT, vec ? 1 : 0, &count) : NULL;
    if (dmax == NULL) out = NULL;
  }
  if (out != NULL) {
    const float *gi = g->data, *in = x->data;
    float *o = out->data, *lo = dmin ? dmin->data : NULL, *hi = dmax ? dmax->data : NULL;
    for (int64_t c = 0; lo && c < count; c++) lo[c] = hi[c] = 0.0f;
    for (int64_t i = 0; i < x->nelems; i++) {
      int64_t c = count > 1 ? i % count : 0;
      const nudged *r = &n[c];
      if (r->zero) {   /* TF passes the gradient through, none to min / max */
        o[i] = gi[i];
        continue;
      }
      bool inside = in[i] >= r->min && in[i] <= r->max;
      o[i] = gi[i] * (inside ? 1.0f : 0.0f);
      if (lo && in[i] < r->min) lo[c] += gi[i];
      if (hi && in[i] > r->max) hi[c] += gi[i];
    }
  }
  tfc_free(n);
}

#define K(op, fn) {op, "CPU", NULL, NULL, NULL, fn, NULL, 0}

static const tfc_kernel_def defs[] = {
    K("FakeQuantWithMinMaxArgs", fake_quant_compute),
    K("FakeQuantWithMinMaxVars", fake_quant_compute),
    K("FakeQuantWithMinMaxVarsPerChannel", fake_quant_compute),
    K("FakeQuantWithMinMaxArgsGradient", fake_quant_grad_compute),
    K("FakeQuantWithMinMaxVarsGradient", fake_quant_grad_compute),
    K("FakeQuantWithMinMaxVarsPerChannelGradient", fake_quant_grad_compute),
};

const tfc_kernel_table tfc_kernels_fake_quant = {defs, (int)(sizeof defs / sizeof defs[0])};
