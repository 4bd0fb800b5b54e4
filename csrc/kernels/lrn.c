/*
 * lrn.c — local response normalization over the last dimension of a 4-D
 * tensor: out[d] = in[d] / (bias + alpha * sum_{|k-d|<=r} in[k]^2)^beta, and
 * its gradient
 *   dx[j] = dy[j] * N[j]^-beta
 *           - 2 alpha beta x[j] * sum_{|i-j|<=r} dy[i] y[i] / N[i],
 * N[i] being the window sum term of position i and y the forward output
 * (y[i] = x[i] N[i]^-beta; the gradient takes it from output_image, as TF does). Rows (all positions but the
 * last dimension) are sharded over the intra-op pool; the window sums slide,
 * computed in double. half and bfloat16 go through float.
 */
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>

#include "base/alloc.h"
#include "core/attr.h"
#include "kernels/kernel_tables.h"

typedef struct lrn_job {
  tfc_dtype dt;
  const void *dy, *x, *y;
  void *out;
  int64_t depth, r;
  double bias, alpha, beta;
  bool grad;
  atomic_bool oom;
} lrn_job;

/* Element i of a float / half / bfloat16 array as double. */
static inline double ld(tfc_dtype dt, const void *p, int64_t i) {
  if (dt == TFC_DTYPE_HALF) return tfc_half_to_float(((const uint16_t *)p)[i]);
  if (dt == TFC_DTYPE_BFLOAT16) return tfc_bfloat16_to_float(((const uint16_t *)p)[i]);
  return ((const float *)p)[i];
}

/* Stores v as element i. */
static inline void st(tfc_dtype dt, void *p, int64_t i, double v) {
  if (dt == TFC_DTYPE_HALF) ((uint16_t *)p)[i] = tfc_float_to_half((float)v);
  else if (dt == TFC_DTYPE_BFLOAT16) ((uint16_t *)p)[i] = tfc_float_to_bfloat16((float)v);
  else ((float *)p)[i] = (float)v;
}

/* Runs rows [r0, r1). */
static void lrn_rows(void *arg, int64_t r0, int64_t r1) {
  lrn_job *j = arg;
  int64_t n = j->depth;
  double *norm = tfc_malloc(sizeof(double) * 2 * (size_t)(n > 0 ? n : 1));
  if (!norm) {
    atomic_store(&j->oom, true);
    return;
  }
  double *scaled = norm + n;
  for (int64_t row = r0; row < r1; row++) {
    int64_t base = row * n;
    /* N[d] = bias + alpha * window sum of squares, by a sliding window */
    double win = 0;
    for (int64_t k = 0; k < n && k <= j->r; k++) win += ld(j->dt, j->x, base + k) * ld(j->dt, j->x, base + k);
    for (int64_t d = 0; d < n; d++) {
      norm[d] = j->bias + j->alpha * win;
      int64_t add = d + j->r + 1, drop = d - j->r;
      if (add < n) win += ld(j->dt, j->x, base + add) * ld(j->dt, j->x, base + add);
      if (drop >= 0) win -= ld(j->dt, j->x, base + drop) * ld(j->dt, j->x, base + drop);
    }
    if (!j->grad) {
      for (int64_t d = 0; d < n; d++)
        st(j->dt, j->out, base + d, ld(j->dt, j->x, base + d) * pow(norm[d], -j->beta));
      continue;
    }
    /* scaled[i] = dy[i] y[i] / N[i]; dx[j] = dy[j] N[j]^-beta - 2 a b x[j] sum scaled */
    for (int64_t i = 0; i < n; i++)
      scaled[i] = ld(j->dt, j->dy, base + i) * ld(j->dt, j->y, base + i) / norm[i];
    double s = 0;
    for (int64_t k = 0; k < n && k <= j->r; k++) s += scaled[k];
    for (int64_t d = 0; d < n; d++) {
      double v = ld(j->dt, j->dy, base + d) * pow(norm[d], -j->beta) -
                 2 * j->alpha * j->beta * ld(j->dt, j->x, base + d) * s;
      st(j->dt, j->out, base + d, v);
      int64_t add = d + j->r + 1, drop = d - j->r;
      if (add < n) s += scaled[add];
      if (drop >= 0) s -= scaled[drop];
    }
  }
  tfc_free(norm);
}

/* LRN (grad = false) or LRNGrad (grad = true). */
static void lrn_compute(tfc_kernel_ctx *ctx, bool grad) {
  const tfc_tensor *x = ctx->inputs[grad ? 1 : 0];
  const tfc_tensor *dy = grad ? ctx->inputs[0] : NULL;
  if (x->rank != 4) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "input must be 4-dimensional");
    return;
  }
  if (grad) {
    const tfc_tensor *y = ctx->inputs[2];
    bool same = dy->rank == 4 && y->rank == 4;
    for (int d = 0; same && d < 4; d++) same = dy->dims[d] == x->dims[d] && y->dims[d] == x->dims[d];
    if (!same) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                      "input_grads, input_image and output_image must have the same 4-D shape");
      return;
    }
  }
  int64_t r = 5;
  float bias = 1, alpha = 1, beta = 0.5f;
  const tfc_attr_value *v;
  if ((v = tfc_attrs_find(ctx->attrs, "depth_radius")) && v->kind == TFC_ATTR_I) r = v->v.i;
  if ((v = tfc_attrs_find(ctx->attrs, "bias")) && v->kind == TFC_ATTR_F) bias = v->v.f;
  if ((v = tfc_attrs_find(ctx->attrs, "alpha")) && v->kind == TFC_ATTR_F) alpha = v->v.f;
  if ((v = tfc_attrs_find(ctx->attrs, "beta")) && v->kind == TFC_ATTR_F) beta = v->v.f;
  if (r < 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "depth_radius = %lld must be non-negative",
                    (long long)r);
    return;
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, x->dtype, 4, x->dims);
  if (!out || x->nelems == 0) return;
  int64_t depth = x->dims[3], rows = x->nelems / depth;
  lrn_job j = {x->dtype, dy ? dy->data : NULL, x->data, grad ? ctx->inputs[2]->data : NULL,
               out->data, depth, r,
               bias, alpha, beta, grad, false};
  int64_t min_rows = depth >= 2048 ? 1 : 2048 / depth;
  tfc_kernel_parallel_for(ctx, rows, min_rows, lrn_rows, &j);
  if (atomic_load(&j.oom)) tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in %s", ctx->op_type);
}

/* LRN(input). */
static void lrn_fwd_compute(tfc_kernel_ctx *ctx) { lrn_compute(ctx, false); }
/* LRNGrad(input_grads, input_image, output_image). */
static void lrn_grad_compute(tfc_kernel_ctx *ctx) { lrn_compute(ctx, true); }

static const tfc_dtype t_lrn[] = {TFC_DTYPE_FLOAT, TFC_DTYPE_HALF, TFC_DTYPE_BFLOAT16,
                                  TFC_DTYPE_INVALID};

static const tfc_kernel_def defs[] = {
    {"LRN", "CPU", "T", t_lrn, NULL, lrn_fwd_compute, NULL, 0},
    {"LRNGrad", "CPU", "T", t_lrn, NULL, lrn_grad_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_lrn = {defs, (int)(sizeof defs / sizeof defs[0])};
