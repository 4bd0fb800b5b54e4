/*
 * conv3d.c — CPU kernels of the 3-D convolution: Conv3D,
 * Conv3DBackpropInput(V2) and Conv3DBackpropFilter(V2), NDHWC only (as TF's
 * CPU kernels), filters [kd, kh, kw, in_c, out_c].
 *
 * Each pass works one output plane (one output depth index of one image) at
 * a time: the plane's input windows are unfolded into a [rows*cols, K]
 * matrix (K = kd*kh*kw*in_c, zeros for padding) and multiplied through the
 * BLAS: forward out = col x W; input gradient dcol = dy x W^T, folded back
 * (summed) into dx; filter gradient dW += col^T x dy. Images are split
 * across the intra-op pool for the forward and input-gradient passes.
 * float and double run natively, half and bfloat16 through float.
 * Like TF's CPU kernels: no dilations > 1, no grouped convolution, NDHWC.
 */
#include <string.h>

#include "base/alloc.h"
#include "core/attr.h"
#include "kernels/blas.h"
#include "kernels/conv_internal.h"
#include "kernels/kernel_tables.h"

typedef struct conv3d_geom {
  int64_t batch, in[3], ic, k[3], oc, out[3], stride[3], pad[3];
} conv3d_geom;

/* Reads and checks strides / dilations / padding / data_format (TF's
 * constructor and CPU launch checks; v2_name: the backprop ops' messages);
 * fills stride and same. */
static bool conv3d_attrs(tfc_kernel_ctx *ctx, bool v2_name, int64_t stride[3], bool *same) {
  const tfc_attr_value *s = tfc_attrs_find(ctx->attrs, "strides");
  if (!s || s->kind != TFC_ATTR_LIST || s->v.list.n != 5)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "Sliding window strides field must specify 5 dimensions");
  const int64_t *sv = s->v.list.v.i;
  if (sv[0] != 1 || sv[4] != 1)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "Current implementation does not yet support strides in the batch and "
                           "depth dimensions.");
  for (int i = 0; i < 3; i++) {
    if (sv[1 + i] <= 0)
      return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Spatial strides should be larger than 0.");
    stride[i] = sv[1 + i];
  }
  const tfc_attr_value *d = tfc_attrs_find(ctx->attrs, "dilations");
  if (d && d->kind == TFC_ATTR_LIST) {
    if (d->v.list.n != 5)
      return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                             "Dilation rates field must specify 5 dimensions");
    const int64_t *dv = d->v.list.v.i;
    if (dv[0] != 1 || dv[4] != 1)
      return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                             "Current implementation does not yet support dilation rates in the "
                             "batch and depth dimensions.");
    for (int i = 1; i < 4; i++) {
      if (dv[i] <= 0)
        return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Dilated rates should be larger than 0.");
      if (dv[i] != 1)
        return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                               v2_name ? "Current CPU implementation does not yet support dilation "
                                         "rates larger than 1."
                                       : "CPU implementation of Conv3D currently only supports "
                                         "dilated rates of 1.");
    }
  }
  if (tfc_attrs_string_is(ctx->attrs, "data_format", "NCDHW"))
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           v2_name ? "%s only supports NDHWC on the CPU."
                                   : "CPU implementation of %s currently only supports the NHWC "
                                     "tensor format.",
                           v2_name ? (ctx->op_type[14] == 'I' ? "Conv3DBackpropInputOpV2"
                                                              : "Conv3DBackpropFilterOpV2")
                                   : "Conv3D");
  *same = tfc_attrs_string_is(ctx->attrs, "padding", "SAME");
  return true;
}

/* Fills g from input dims, filter dims and the window attrs; checks that
 * they describe a convolution (TF's messages). */
static bool conv3d_geometry(tfc_kernel_ctx *ctx, const int64_t *in, const int64_t *f,
                            const int64_t stride[3], bool same, conv3d_geom *g) {
  if (in[4] != f[3])
    return f[3] > 0 && in[4] % f[3] == 0
               ? tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                                 "Number of channels in filter (%lld) must match last dimension of "
                                 "input (%lld)",
                                 (long long)f[3], (long long)in[4])
               : tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                                 "Input depth must be evenly divisible by filter depth: %lld vs %lld",
                                 (long long)in[4], (long long)f[3]);
  g->batch = in[0];
  g->ic = in[4];
  g->oc = f[4];
  for (int i = 0; i < 3; i++) {
    g->in[i] = in[1 + i];
    g->k[i] = f[i];
    g->stride[i] = stride[i];
    int64_t after;
    if (!tfc_windowed_output_size(ctx, g->in[i], g->k[i], 1, g->stride[i],
                                  same ? TFC_PAD_SAME : TFC_PAD_VALID, &g->pad[i], &after,
                                  &g->out[i]))
      return false;
  }
  return true;
}

/* ---------------------------------------------------------------- unfold / fold */

#define DEFINE_COL(T, SUF)                                                                      \
  /* col[P, K] of image `img` for output plane od. */                                          \
  static void vol2col_##SUF(const conv3d_geom *g, const T *img, int64_t od, T *col) {          \
    int64_t K = g->k[0] * g->k[1] * g->k[2] * g->ic;                                            \
    for (int64_t oh = 0; oh < g->out[1]; oh++)                                                  \
      for (int64_t ow = 0; ow < g->out[2]; ow++) {                                              \
        T *row = col + (oh * g->out[2] + ow) * K;                                               \
        for (int64_t a = 0; a < g->k[0]; a++) {                                                 \
          int64_t id = od * g->stride[0] - g->pad[0] + a;                                       \
          for (int64_t b = 0; b < g->k[1]; b++) {                                               \
            int64_t ih = oh * g->stride[1] - g->pad[1] + b;                                     \
            for (int64_t c = 0; c < g->k[2]; c++) {                                             \
              int64_t iw = ow * g->stride[2] - g->pad[2] + c;                                   \
              T *dst = row + ((a * g->k[1] + b) * g->k[2] + c) * g->ic;                         \
              if (id < 0 || id >= g->in[0] || ih < 0 || ih >= g->in[1] || iw < 0 ||            \
                  iw >= g->in[2]) {                                                             \
                memset(dst, 0, sizeof(T) * (size_t)g->ic);                                      \
              } else {                                                                          \
                memcpy(dst, img + ((id * g->in[1] + ih) * g->in[2] + iw) * g->ic,               \
                       sizeof(T) * (size_t)g->ic);                                              \
              }                                                                                 \
            }                                                                                   \
          }                                                                                     \
        }                                                                                       \
      }                                                                                         \
  }                                                                                             \
  /* Adds col[P, K] of output plane od back into image gradient `img`. */                      \
  static void col2vol_##SUF(const conv3d_geom *g, const T *col, int64_t od, T *img) {          \
    int64_t K = g->k[0] * g->k[1] * g->k[2] * g->ic;                                            \
    for (int64_t oh = 0; oh < g->out[1]; oh++)                                                  \
      for (int64_t ow = 0; ow < g->out[2]; ow++) {                                              \
        const T *row = col + (oh * g->out[2] + ow) * K;                                         \
        for (int64_t a = 0; a < g->k[0]; a++) {                                                 \
          int64_t id = od * g->stride[0] - g->pad[0] + a;                                       \
          if (id < 0 || id >= g->in[0]) continue;                                               \
          for (int64_t b = 0; b < g->k[1]; b++) {                                               \
            int64_t ih = oh * g->stride[1] - g->pad[1] + b;                                     \
            if (ih < 0 || ih >= g->in[1]) continue;                                             \
            for (int64_t c = 0; c < g->k[2]; c++) {                                             \
              int64_t iw = ow * g->stride[2] - g->pad[2] + c;                                   \
              if (iw < 0 || iw >= g->in[2]) continue;                                           \
              const T *src = row + ((a * g->k[1] + b) * g->k[2] + c) * g->ic;                   \
              T *dst = img + ((id * g->in[1] + ih) * g->in[2] + iw) * g->ic;                    \
              for (int64_t ci = 0; ci < g->ic; ci++) dst[ci] += src[ci];                        \
            }                                                                                   \
          }                                                                                     \
        }                                                                                       \
      }                                                                                         \
  }

DEFINE_COL(float, f)
DEFINE_COL(double, d)

/* ---------------------------------------------------------------- passes */

typedef struct conv3d_job {
  tfc_kernel_ctx *ctx;
  const conv3d_geom *g;
  bool dbl;
  const void *a, *b;  /* pass operands (see run_pass) */
  void *out;
  int failed;
} conv3d_job;

/* Forward or input-gradient pass over images [begin, end). */
static void conv3d_shard(void *arg, int64_t begin, int64_t end, bool fwd) {
  conv3d_job *j = arg;
  const conv3d_geom *g = j->g;
  int64_t P = g->out[1] * g->out[2], K = g->k[0] * g->k[1] * g->k[2] * g->ic;
  int64_t in_img = g->in[0] * g->in[1] * g->in[2] * g->ic, out_img = g->out[0] * P * g->oc;
  size_t es = j->dbl ? sizeof(double) : sizeof(float);
  void *col = tfc_aligned_alloc(es * (size_t)(P * K > 0 ? P * K : 1));
  if (!col) {
    j->failed = 1;
    return;
  }
  for (int64_t n = begin; n < end; n++) {
    for (int64_t od = 0; od < g->out[0]; od++) {
      if (fwd) {
        if (j->dbl) {
          vol2col_d(g, (const double *)j->a + n * in_img, od, col);
          tfc_blas_dgemm(false, false, P, g->oc, K, 1.0, col, K, j->b, g->oc, 0.0,
                         (double *)j->out + n * out_img + od * P * g->oc, g->oc);
        } else {
          vol2col_f(g, (const float *)j->a + n * in_img, od, col);
          tfc_blas_sgemm(false, false, P, g->oc, K, 1.0f, col, K, j->b, g->oc, 0.0f,
                         (float *)j->out + n * out_img + od * P * g->oc, g->oc);
        }
      } else if (j->dbl) {
        tfc_blas_dgemm(false, true, P, K, g->oc, 1.0, (const double *)j->b + n * out_img + od * P * g->oc,
                       g->oc, j->a, g->oc, 0.0, col, K);
        col2vol_d(g, col, od, (double *)j->out + n * in_img);
      } else {
        tfc_blas_sgemm(false, true, P, K, g->oc, 1.0f, (const float *)j->b + n * out_img + od * P * g->oc,
                       g->oc, j->a, g->oc, 0.0f, col, K);
        col2vol_f(g, col, od, (float *)j->out + n * in_img);
      }
    }
  }
  tfc_aligned_free(col);
}

static void fwd_shard(void *arg, int64_t b, int64_t e) { conv3d_shard(arg, b, e, true); }
static void bwd_input_shard(void *arg, int64_t b, int64_t e) { conv3d_shard(arg, b, e, false); }

/* Filter gradient: dW = sum over images and planes of col^T x dy. */
static bool conv3d_bwd_filter(tfc_kernel_ctx *ctx, const conv3d_geom *g, bool dbl, const void *in,
                              const void *dy, void *dw) {
  int64_t P = g->out[1] * g->out[2], K = g->k[0] * g->k[1] * g->k[2] * g->ic;
  int64_t in_img = g->in[0] * g->in[1] * g->in[2] * g->ic, out_img = g->out[0] * P * g->oc;
  size_t es = dbl ? sizeof(double) : sizeof(float);
  memset(dw, 0, es * (size_t)(K * g->oc));
  void *col = tfc_aligned_alloc(es * (size_t)(P * K > 0 ? P * K : 1));
  if (!col) return tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in Conv3D filter gradient");
  for (int64_t n = 0; n < g->batch; n++)
    for (int64_t od = 0; od < g->out[0]; od++) {
      if (dbl) {
        vol2col_d(g, (const double *)in + n * in_img, od, col);
        tfc_blas_dgemm(true, false, K, g->oc, P, 1.0, col, K,
                       (const double *)dy + n * out_img + od * P * g->oc, g->oc, 1.0, dw, g->oc);
      } else {
        vol2col_f(g, (const float *)in + n * in_img, od, col);
        tfc_blas_sgemm(true, false, K, g->oc, P, 1.0f, col, K,
                       (const float *)dy + n * out_img + od * P * g->oc, g->oc, 1.0f, dw, g->oc);
      }
    }
  tfc_aligned_free(col);
  return true;
}

enum { PASS_FWD, PASS_BWD_INPUT, PASS_BWD_FILTER };

/* Runs one pass on tensors of type t: a/b as in conv3d_shard (forward: in,
 * filter; input gradient: filter, dy; filter gradient: in, dy), output out
 * (already allocated, of type t). */
static void run_pass(tfc_kernel_ctx *ctx, int pass, const conv3d_geom *g, const tfc_tensor *a,
                     const tfc_tensor *b, tfc_tensor *out) {
  int64_t K = g->k[0] * g->k[1] * g->k[2] * g->ic, P = g->out[1] * g->out[2];
  if (!tfc_blas_dims_ok(P, g->oc > K ? g->oc : K, K > P ? K : P, K, g->oc, K)) {
    tfc_kernel_fail(ctx, TFC_CODE_UNIMPLEMENTED, "Conv3D: dimensions too large");
    return;
  }
  tfc_dtype t = out->dtype;
  bool dbl = t == TFC_DTYPE_DOUBLE, narrow = tfc_conv_is16(t);
  const void *pa = a->data, *pb = b->data;
  float *wa = NULL, *wb = NULL, *wo = NULL;
  void *po = out->data;
  if (narrow) {
    wa = tfc_conv_widen_copy(ctx, a);
    wb = wa ? tfc_conv_widen_copy(ctx, b) : NULL;
    wo = wb ? tfc_aligned_alloc(sizeof(float) * (size_t)(out->nelems > 0 ? out->nelems : 1)) : NULL;
    if (!wo) {
      if (tfc_kernel_ok(ctx)) tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in Conv3D");
      goto done;
    }
    pa = wa, pb = wb, po = wo;
  }
  if (pass == PASS_BWD_FILTER) {
    if (!conv3d_bwd_filter(ctx, g, dbl, pa, pb, po)) goto done;
  } else {
    if (pass == PASS_BWD_INPUT)
      memset(po, 0, (dbl ? sizeof(double) : sizeof(float)) * (size_t)out->nelems);
    conv3d_job job = {ctx, g, dbl, pa, pb, po, 0};
    tfc_kernel_parallel_for(ctx, g->batch, 1, pass == PASS_FWD ? fwd_shard : bwd_input_shard, &job);
    if (job.failed) {
      tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in Conv3D");
      goto done;
    }
  }
  if (narrow) tfc_conv_narrow(ctx, t, wo, out->data, out->nelems);
done:
  tfc_aligned_free(wa);
  tfc_aligned_free(wb);
  tfc_aligned_free(wo);
}

/* Checks rank 5 of input i, named `what`. */
static bool rank5(tfc_kernel_ctx *ctx, int i, const char *what) {
  if (ctx->inputs[i]->rank == 5) return true;
  char b[64];
  tfc_conv_dims_str(ctx->inputs[i], b, sizeof b);
  return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s must be 5-dimensional%s", what, b);
}

/* Conv3D(input, filter). */
static void conv3d_compute(tfc_kernel_ctx *ctx) {
  int64_t stride[3];
  bool same = false;
  if (!conv3d_attrs(ctx, false, stride, &same)) return;
  if (!rank5(ctx, 0, "input") || !rank5(ctx, 1, "filter")) return;
  const tfc_tensor *in = ctx->inputs[0], *f = ctx->inputs[1];
  conv3d_geom g;
  if (!conv3d_geometry(ctx, in->dims, f->dims, stride, same, &g)) return;
  int64_t od[5] = {g.batch, g.out[0], g.out[1], g.out[2], g.oc};
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, in->dtype, 5, od);
  if (!out || out->nelems == 0) return;
  run_pass(ctx, PASS_FWD, &g, in, f, out);
}

/* Reads a 5-vector of sizes from an int32/int64 tensor; false + ctx failed. */
static bool read_sizes(tfc_kernel_ctx *ctx, const tfc_tensor *t, const char *what, int64_t out[5]) {
  if (t->rank != 1 || t->nelems != 5)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s must be a 1-D tensor of 5 elements",
                           what);
  for (int i = 0; i < 5; i++) {
    out[i] = tfc_tensor_get_int64(t, i);
    if (out[i] < 0)
      return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Dimension %lld must be >= 0",
                             (long long)out[i]);
  }
  return true;
}

/* Checks out_backprop against the geometry (TF's ConvBackpropComputeDimensions). */
static bool check_dy(tfc_kernel_ctx *ctx, const conv3d_geom *g, const tfc_tensor *dy,
                     const char *label) {
  if (dy->rank != 5)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s: out_backprop must be 5-dimensional",
                           label);
  if (dy->dims[0] != g->batch)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "%s: input and out_backprop must have the same batch size, got %lld and %lld",
                           label, (long long)g->batch, (long long)dy->dims[0]);
  for (int i = 0; i < 3; i++)
    if (dy->dims[1 + i] != g->out[i])
      return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                             "%s: Size of out_backprop doesn't match computed: actual = %lld, "
                             "computed = %lld spatial_dim: %d input: %lld filter: %lld output: %lld "
                             "stride: %lld dilation: 1",
                             label, (long long)dy->dims[1 + i], (long long)g->out[i], i + 1,
                             (long long)g->in[i], (long long)g->k[i], (long long)dy->dims[1 + i],
                             (long long)g->stride[i]);
  if (dy->dims[4] != g->oc)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "%s: filter and out_backprop must have the same out_depth", label);
  return true;
}

/* Conv3DBackpropInputV2(input_sizes, filter, out_backprop). */
static void conv3d_bwd_input_compute(tfc_kernel_ctx *ctx) {
  int64_t stride[3];
  bool same = false;
  if (!conv3d_attrs(ctx, true, stride, &same)) return;
  int64_t isz[5];
  if (!read_sizes(ctx, ctx->inputs[0], "input_sizes", isz)) return;
  if (!rank5(ctx, 1, "filter")) return;
  const tfc_tensor *f = ctx->inputs[1], *dy = ctx->inputs[2];
  conv3d_geom g;
  if (!conv3d_geometry(ctx, isz, f->dims, stride, same, &g)) return;
  if (!check_dy(ctx, &g, dy, "Conv3DBackpropInputOp")) return;
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, f->dtype, 5, isz);
  if (!out || out->nelems == 0) return;
  if (dy->nelems == 0) {
    memset(out->data, 0, tfc_dtype_size(out->dtype) * (size_t)out->nelems);
    return;
  }
  run_pass(ctx, PASS_BWD_INPUT, &g, f, dy, out);
}

/* Conv3DBackpropFilterV2(input, filter_sizes, out_backprop). */
static void conv3d_bwd_filter_compute(tfc_kernel_ctx *ctx) {
  int64_t stride[3];
  bool same = false;
  if (!conv3d_attrs(ctx, true, stride, &same)) return;
  int64_t fsz[5];
  if (!rank5(ctx, 0, "input")) return;
  if (!read_sizes(ctx, ctx->inputs[1], "filter_sizes", fsz)) return;
  const tfc_tensor *in = ctx->inputs[0], *dy = ctx->inputs[2];
  conv3d_geom g;
  if (!conv3d_geometry(ctx, in->dims, fsz, stride, same, &g)) return;
  if (!check_dy(ctx, &g, dy, "Conv3DBackpropFilterOp")) return;
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, in->dtype, 5, fsz);
  if (!out || out->nelems == 0) return;
  if (dy->nelems == 0 || in->nelems == 0) {
    memset(out->data, 0, tfc_dtype_size(out->dtype) * (size_t)out->nelems);
    return;
  }
  run_pass(ctx, PASS_BWD_FILTER, &g, in, dy, out);
}

#define K(op, fn) {op, "CPU", NULL, NULL, NULL, fn, NULL, 0}

static const tfc_kernel_def defs[] = {
    K("Conv3D", conv3d_compute),
    K("Conv3DBackpropInputV2", conv3d_bwd_input_compute),
    K("Conv3DBackpropFilterV2", conv3d_bwd_filter_compute),
};

const tfc_kernel_table tfc_kernels_conv3d = {defs, (int)(sizeof defs / sizeof defs[0])};
