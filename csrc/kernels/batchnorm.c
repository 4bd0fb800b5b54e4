/*
 * batchnorm.c — CPU kernels for FusedBatchNorm(V2, V3) and
 * FusedBatchNormGrad(V2, V3), in NHWC and NCHW (and their 5-D forms).
 *
 * Semantics are TF's CPU kernels:
 *  training:  mean and (biased) variance over all but the channel axis;
 *             y = (x - mean) * scale / sqrt(var + epsilon) + offset;
 *             batch_mean = mean, batch_variance = var * n / (n - 1) (n > 1),
 *             both blended as (1 - f) * running + f * batch when
 *             exponential_avg_factor f != 1; reserve_space_1/2 = mean and
 *             biased var (what the gradient needs); an empty x gives NaN
 *             batch statistics;
 *  inference: the given mean/variance normalise x and are passed through.
 *  gradient (training): with d = dy and xc = x - mean, inv = 1/sqrt(var+eps):
 *             dx = scale * inv * (d - mean(d) - xc * mean(d * xc) * inv^2),
 *             dscale = sum(d * xc) * inv, doffset = sum(d);
 *  gradient (inference): dx = d * scale * inv, same dscale and doffset.
 * V3's reserve_space_3 is a scalar 0 and the gradients' reserve spaces are
 * empty vectors, as TF's CPU kernels produce.
 *
 * x is viewed as [outer, C, inner] (NHWC: inner = 1; NCHW: outer = batch).
 * Per-channel sums accumulate in double, in per-chunk partials that are
 * added at the end; elementwise passes are parallel over `outer`. half and
 * bfloat16 x is computed in float.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "kernels/conv_internal.h"

/* Elements below which batch norm runs on one thread. */
#define BN_PAR_ELEMS ((int64_t)1 << 15)

/* The [outer, C, inner] view of x plus the per-channel parameters. */
typedef struct bn_job {
  int64_t O, C, I;
  const float *x, *dy;
  float *y;                 /* forward: y; gradient: dx */
  const float *mean;        /* per channel */
  const float *a;           /* per-channel multiplier */
  const float *b;           /* forward: offset; gradient: per-channel d coefficient */
  const float *k;           /* gradient: per-channel xc coefficient (training) */
  double *partials;         /* nchunks x 2C sums */
  int64_t nchunks;
  int pass;                 /* sums: 0 = sum x, 1 = sum (x - mean)^2, 2 = sum dy and dy * xc */
} bn_job;

/* ---------------------------------------------------------------- sums */

/* Accumulates chunk c's per-channel sums (see bn_job.pass) into its partials. */
static void sums_chunks(void *arg, int64_t b, int64_t e) {
  const bn_job *j = arg;
  const int64_t C = j->C, I = j->I;
  for (int64_t ch = b; ch < e; ch++) {
    double *s = j->partials + ch * 2 * C, *s2 = s + C;
    memset(s, 0, (size_t)(2 * C) * sizeof(double));
    int64_t o0 = ch * j->O / j->nchunks, o1 = (ch + 1) * j->O / j->nchunks;
    for (int64_t o = o0; o < o1; o++) {
      const float *x = j->x + o * C * I;
      const float *d = j->dy ? j->dy + o * C * I : NULL;
      if (I == 1) {
        if (j->pass == 0)
          for (int64_t c = 0; c < C; c++) s[c] += x[c];
        else if (j->pass == 1)
          for (int64_t c = 0; c < C; c++) {
            double t = (double)x[c] - j->mean[c];
            s[c] += t * t;
          }
        else
          for (int64_t c = 0; c < C; c++) {
            s[c] += d[c];
            s2[c] += (double)d[c] * ((double)x[c] - j->mean[c]);
          }
        continue;
      }
      for (int64_t c = 0; c < C; c++) {
        const float *xc = x + c * I;
        double acc = 0, acc2 = 0, m = j->pass ? j->mean[c] : 0;
        if (j->pass == 0) {
          for (int64_t i = 0; i < I; i++) acc += xc[i];
        } else if (j->pass == 1) {
          for (int64_t i = 0; i < I; i++) {
            double t = xc[i] - m;
            acc += t * t;
          }
        } else {
          const float *dc = d + c * I;
          for (int64_t i = 0; i < I; i++) {
            acc += dc[i];
            acc2 += (double)dc[i] * (xc[i] - m);
          }
        }
        s[c] += acc;
        s2[c] += acc2;
      }
    }
  }
}

/* Runs one sums pass and adds the chunks' partials into out (2C doubles). */
static void channel_sums(tfc_kernel_ctx *ctx, bn_job *j, int pass, double *out) {
  j->pass = pass;
  tfc_kernel_parallel_for(ctx, j->nchunks, 1, sums_chunks, j);
  memset(out, 0, (size_t)(2 * j->C) * sizeof(double));
  for (int64_t ch = 0; ch < j->nchunks; ch++)
    for (int64_t c = 0; c < 2 * j->C; c++) out[c] += j->partials[ch * 2 * j->C + c];
}

/* ---------------------------------------------------------------- elementwise passes */

/* Forward: y = (x - mean) * a + b over outer rows [b0, e0). */
static void normalize_rows(void *arg, int64_t b0, int64_t e0) {
  const bn_job *j = arg;
  const int64_t C = j->C, I = j->I;
  /* local restrict copies: without them every store to y may alias the
   * coefficient arrays and the loops stay scalar */
  const float *restrict mean = j->mean, *restrict ca = j->a, *restrict cb = j->b;
  for (int64_t o = b0; o < e0; o++) {
    const float *restrict x = j->x + o * C * I;
    float *restrict y = j->y + o * C * I;
    if (I == 1) {
      for (int64_t c = 0; c < C; c++) y[c] = (x[c] - mean[c]) * ca[c] + cb[c];
      continue;
    }
    for (int64_t c = 0; c < C; c++) {
      float m = mean[c], a = ca[c], b = cb[c];
      for (int64_t i = 0; i < I; i++) y[c * I + i] = (x[c * I + i] - m) * a + b;
    }
  }
}

/* Gradient: dx = a * dy - b - k * (x - mean) over outer rows [b0, e0)
 * (k and b are zero in inference mode). */
static void grad_rows(void *arg, int64_t b0, int64_t e0) {
  const bn_job *j = arg;
  const int64_t C = j->C, I = j->I;
  const float *restrict mean = j->mean, *restrict ca = j->a, *restrict cb = j->b,
                        *restrict ck = j->k;
  for (int64_t o = b0; o < e0; o++) {
    const float *restrict x = j->x + o * C * I, *restrict d = j->dy + o * C * I;
    float *restrict dx = j->y + o * C * I;
    if (I == 1) {
      for (int64_t c = 0; c < C; c++) dx[c] = ca[c] * d[c] - cb[c] - ck[c] * (x[c] - mean[c]);
      continue;
    }
    for (int64_t c = 0; c < C; c++) {
      float m = mean[c], a = ca[c], b = cb[c], k = ck[c];
      for (int64_t i = 0; i < I; i++) dx[c * I + i] = a * d[c * I + i] - b - k * (x[c * I + i] - m);
    }
  }
}

/* ---------------------------------------------------------------- shared checks */

/* Fails ctx with "<what> must be 1-dimensional<shape>" unless t is a vector. */
static bool is_vector(tfc_kernel_ctx *ctx, const tfc_tensor *t, const char *what) {
  if (t->rank == 1) return true;
  char buf[160];
  tfc_conv_dims_str(t, buf, sizeof buf);
  return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s must be 1-dimensional%s", what, buf);
}

/* Fails ctx unless t has C elements ("<prefix><what> must have the same
 * number of elements as the channels of x, got N and C"). */
static bool has_channels(tfc_kernel_ctx *ctx, const tfc_tensor *t, int64_t C, const char *prefix,
                         const char *what) {
  if (t->nelems == C) return true;
  return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                         "%s%s must have the same number of elements as the channels of x, got %lld "
                         "and %lld",
                         prefix, what, (long long)t->nelems, (long long)C);
}

/* Fails ctx unless x is 4-D or 5-D ("input must be 4 or 5-dimensional[..]"). */
static bool rank_4_or_5(tfc_kernel_ctx *ctx, const tfc_tensor *x) {
  if (x->rank == 4 || x->rank == 5) return true;
  char buf[160];
  tfc_conv_dims_str(x, buf, sizeof buf);
  return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "input must be 4 or 5-dimensional%s", buf);
}

/* Fills j's outer/C/inner view of x for the node's data_format. */
static void view_of(const tfc_kernel_ctx *ctx, const tfc_tensor *x, bn_job *j) {
  bool cfirst = tfc_attrs_string_is(ctx->attrs, "data_format", "NCHW") ||
                tfc_attrs_string_is(ctx->attrs, "data_format", "NCDHW");
  j->C = x->dims[cfirst ? 1 : x->rank - 1];
  j->O = 1;
  j->I = 1;
  if (cfirst) {
    j->O = x->dims[0];
    for (int i = 2; i < x->rank; i++) j->I *= x->dims[i];
  } else {
    for (int i = 0; i < x->rank - 1; i++) j->O *= x->dims[i];
  }
}

/* Chunks for the per-channel sums of x with n elements. */
static int64_t sum_chunks(const tfc_kernel_ctx *ctx, const bn_job *j, int64_t n) {
  int64_t nt = n < BN_PAR_ELEMS ? 1 : tfc_conv_threads(ctx);
  return j->O < nt ? (j->O > 0 ? j->O : 1) : nt;
}

/* A float attr with a default when absent. */
static float attr_float(const tfc_kernel_ctx *ctx, const char *name, float dflt) {
  const tfc_attr_value *v = tfc_attrs_find(ctx->attrs, name);
  return v && v->kind == TFC_ATTR_F ? v->v.f : dflt;
}

/* The bool attr is_training (true when absent, TF's default). */
static bool attr_training(const tfc_kernel_ctx *ctx) {
  const tfc_attr_value *v = tfc_attrs_find(ctx->attrs, "is_training");
  return v && v->kind == TFC_ATTR_B ? v->v.b : true;
}

/* Allocates a float vector output of n elements. */
static float *vec_out(tfc_kernel_ctx *ctx, int i, int64_t n) {
  tfc_tensor *t = tfc_kernel_alloc_output(ctx, i, TFC_DTYPE_FLOAT, 1, &n);
  return t ? (float *)t->data : NULL;
}

/* ---------------------------------------------------------------- forward */

/* FusedBatchNorm / V2 / V3 (see conv_internal.h). */
void tfc_fused_batch_norm_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *x = ctx->inputs[0], *scale = ctx->inputs[1], *offset = ctx->inputs[2];
  const tfc_tensor *est_mean = ctx->inputs[3], *est_var = ctx->inputs[4];
  float eps = attr_float(ctx, "epsilon", 1e-4f), factor = attr_float(ctx, "exponential_avg_factor", 1);
  bool training = attr_training(ctx);
  if (!rank_4_or_5(ctx, x) || !is_vector(ctx, scale, "scale") || !is_vector(ctx, offset, "offset") ||
      !is_vector(ctx, est_mean, "mean") || !is_vector(ctx, est_var, "variance"))
    return;
  bn_job j = {0};
  view_of(ctx, x, &j);
  const int64_t C = j.C;
  if (!has_channels(ctx, scale, C, "", "scale") || !has_channels(ctx, offset, C, "", "offset"))
    return;
  if (!training || factor != 1) {
    const char *pre = training ? "When exponential_avg_factor != 1, " : "When is_training=false, ";
    if (!has_channels(ctx, est_mean, C, pre, "mean") || !has_channels(ctx, est_var, C, pre, "variance"))
      return;
  }
  tfc_tensor *y = tfc_kernel_alloc_output(ctx, 0, x->dtype, x->rank, x->dims);
  if (!y) return;
  float *bm = vec_out(ctx, 1, C), *bv = bm ? vec_out(ctx, 2, C) : NULL;
  float *rs1 = bv ? vec_out(ctx, 3, C) : NULL, *rs2 = rs1 ? vec_out(ctx, 4, C) : NULL;
  if (!rs2) return;
  if (ctx->n_outputs > 5) {
    tfc_tensor *rs3 = tfc_kernel_alloc_output(ctx, 5, TFC_DTYPE_FLOAT, 0, NULL);
    if (!rs3) return;
    *(float *)rs3->data = 0;
  }
  const float *sc = scale->data, *off = offset->data;
  int64_t rest = x->nelems / (C > 0 ? C : 1);
  if (training && x->nelems == 0) {
    for (int64_t c = 0; c < C; c++) bm[c] = bv[c] = NAN, rs1[c] = rs2[c] = 0;
    return;
  }
  if (C == 0) return;

  bool wide = tfc_conv_is16(x->dtype);
  float *xf = (float *)x->data, *yf = (float *)y->data, *coef = NULL;
  double *sums = NULL;
  if (wide) {
    xf = tfc_conv_widen_copy(ctx, x);
    yf = xf ? tfc_aligned_alloc((size_t)x->nelems * sizeof(float)) : NULL;
    if (!yf) goto oom;
  }
  coef = tfc_malloc((size_t)(2 * C) * sizeof(float));
  sums = tfc_malloc((size_t)(2 * C) * sizeof(double));
  j.nchunks = sum_chunks(ctx, &j, x->nelems);
  if (training) j.partials = tfc_malloc((size_t)(j.nchunks * 2 * C) * sizeof(double));
  if (!coef || !sums || (training && !j.partials)) goto oom;
  j.x = xf;
  j.y = yf;
  float *a = coef, *mean_used = coef + C;
  if (training) {
    channel_sums(ctx, &j, 0, sums);
    for (int64_t c = 0; c < C; c++) mean_used[c] = (float)(sums[c] / (double)rest);
    j.mean = mean_used;
    channel_sums(ctx, &j, 1, sums);
    double adjust = rest > 1 ? (double)rest / (double)(rest - 1) : 1.0;
    const float *rm = est_mean->data, *rv = est_var->data;
    for (int64_t c = 0; c < C; c++) {
      float var = (float)(sums[c] / (double)rest);
      a[c] = sc[c] / sqrtf(var + eps);
      rs1[c] = mean_used[c];
      rs2[c] = var;
      if (factor == 1) {
        bm[c] = mean_used[c];
        bv[c] = (float)(var * adjust);
      } else {
        bm[c] = (1 - factor) * rm[c] + factor * mean_used[c];
        bv[c] = (float)((1 - factor) * rv[c] + factor * adjust * var);
      }
    }
  } else {
    const float *m = est_mean->data, *v = est_var->data;
    for (int64_t c = 0; c < C; c++) {
      mean_used[c] = m[c];
      a[c] = sc[c] / sqrtf(v[c] + eps);
      bm[c] = rs1[c] = m[c];
      bv[c] = rs2[c] = v[c];
    }
  }
  j.mean = mean_used;
  j.a = a;
  j.b = off;
  tfc_kernel_parallel_for(ctx, j.O, x->nelems < BN_PAR_ELEMS ? j.O : 1, normalize_rows, &j);
  if (wide) tfc_conv_narrow(ctx, x->dtype, yf, (uint16_t *)y->data, y->nelems);
  goto done;
oom:
  if (tfc_kernel_ok(ctx)) tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in FusedBatchNorm");
done:
  if (wide) {
    tfc_aligned_free(xf);
    tfc_aligned_free(yf);
  }
  tfc_free(coef);
  tfc_free(sums);
  tfc_free(j.partials);
}

/* ---------------------------------------------------------------- gradient */

/* FusedBatchNormGrad / V2 / V3 (see conv_internal.h). */
void tfc_fused_batch_norm_grad_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *dy = ctx->inputs[0], *x = ctx->inputs[1], *scale = ctx->inputs[2];
  const tfc_tensor *rs1 = ctx->inputs[3], *rs2 = ctx->inputs[4];
  float eps = attr_float(ctx, "epsilon", 1e-4f);
  bool training = attr_training(ctx);
  if (!rank_4_or_5(ctx, dy) || !rank_4_or_5(ctx, x) || !is_vector(ctx, scale, "scale") ||
      !is_vector(ctx, rs1, "saved mean") || !is_vector(ctx, rs2, "saved variance"))
    return;
  if (!tfc_tensor_same_shape(x, dy)) {
    char sx[160], sd[160];
    tfc_conv_dims_str(x, sx, sizeof sx);
    tfc_conv_dims_str(dy, sd, sizeof sd);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "x and y_backprop must have same shape, but x has shape %s and y_backprop has "
                    "shape %s",
                    sx, sd);
    return;
  }
  bn_job j = {0};
  view_of(ctx, x, &j);
  const int64_t C = j.C;
  if (!has_channels(ctx, scale, C, "", "scale") || !has_channels(ctx, rs1, C, "", "reserve_space_1") ||
      !has_channels(ctx, rs2, C, "", "reserve_space_2"))
    return;
  tfc_tensor *dx = tfc_kernel_alloc_output(ctx, 0, x->dtype, x->rank, x->dims);
  if (!dx) return;
  float *dscale = vec_out(ctx, 1, C), *doffset = dscale ? vec_out(ctx, 2, C) : NULL;
  int64_t zero = 0;
  if (!doffset || !tfc_kernel_alloc_output(ctx, 3, TFC_DTYPE_FLOAT, 1, &zero) ||
      !tfc_kernel_alloc_output(ctx, 4, TFC_DTYPE_FLOAT, 1, &zero))
    return;
  if (C == 0) return;
  if (x->nelems == 0) {
    for (int64_t c = 0; c < C; c++) dscale[c] = doffset[c] = 0;
    return;
  }
  int64_t rest = x->nelems / C;
  bool wide = tfc_conv_is16(x->dtype);
  float *xf = (float *)x->data, *df = (float *)dy->data, *dxf = (float *)dx->data, *coef = NULL;
  double *sums = NULL;
  if (wide) {
    xf = tfc_conv_widen_copy(ctx, x);
    df = xf ? tfc_conv_widen_copy(ctx, dy) : NULL;
    dxf = df ? tfc_aligned_alloc((size_t)x->nelems * sizeof(float)) : NULL;
    if (!dxf) goto oom;
  }
  coef = tfc_malloc((size_t)(3 * C) * sizeof(float));
  sums = tfc_malloc((size_t)(2 * C) * sizeof(double));
  j.nchunks = sum_chunks(ctx, &j, x->nelems);
  j.partials = tfc_malloc((size_t)(j.nchunks * 2 * C) * sizeof(double));
  if (!coef || !sums || !j.partials) goto oom;
  j.x = xf;
  j.dy = df;
  j.y = dxf;
  j.mean = rs1->data;
  channel_sums(ctx, &j, 2, sums);
  const float *sc = scale->data, *var = rs2->data;
  float *a = coef, *b = coef + C, *k = coef + 2 * C;
  for (int64_t c = 0; c < C; c++) {
    double inv = 1.0 / sqrt((double)var[c] + eps);
    double sum_d = sums[c], sum_dxc = sums[C + c];
    doffset[c] = (float)sum_d;
    dscale[c] = (float)(sum_dxc * inv);
    a[c] = (float)(sc[c] * inv);
    if (training) {
      b[c] = (float)(sc[c] * inv * sum_d / (double)rest);
      k[c] = (float)(sc[c] * inv * inv * inv * sum_dxc / (double)rest);
    } else {
      b[c] = k[c] = 0;
    }
  }
  j.a = a;
  j.b = b;
  j.k = k;
  tfc_kernel_parallel_for(ctx, j.O, x->nelems < BN_PAR_ELEMS ? j.O : 1, grad_rows, &j);
  if (wide) tfc_conv_narrow(ctx, x->dtype, dxf, (uint16_t *)dx->data, dx->nelems);
  goto done;
oom:
  if (tfc_kernel_ok(ctx)) tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in FusedBatchNormGrad");
done:
  if (wide) {
    tfc_aligned_free(xf);
    tfc_aligned_free(df);
    tfc_aligned_free(dxf);
  }
  tfc_free(coef);
  tfc_free(sums);
  tfc_free(j.partials);
}
