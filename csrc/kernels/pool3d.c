/*
 * pool3d.c — CPU kernels of 3-D pooling over NDHWC tensors: MaxPool3D,
 * AvgPool3D, MaxPool3DGrad, AvgPool3DGrad and MaxPool3DGradGrad.
 *
 * Windows are clipped to the input (SAME padding adds nothing): the max is
 * over the window's input cells, the average divides by their count. The
 * gradients follow TF's CPU kernels exactly: MaxPool3DGrad sends each
 * output gradient to every input cell of its window within 1e-5 of the
 * maximum (ties all receive it); AvgPool3DGrad spreads it evenly over a
 * window whose extent is TF's broadcast size (GetBroadcastSize, including
 * its rule for windows starting in the padding); MaxPool3DGradGrad takes,
 * per output cell, the incoming gradient at the first input cell equal to
 * the maximum (depth, row, column order). float and bfloat16 (computed in
 * float), the types of TF's CPU kernels.
 */
#include <math.h>
#include <string.h>

#include "base/alloc.h"
#include "core/attr.h"
#include "kernels/conv_internal.h"
#include "kernels/kernel_tables.h"

typedef struct pool3d {
  int64_t batch, in[3], c, k[3], stride[3], out[3], pad[3];
} pool3d;

/* Reads ksize/strides/padding/data_format with TF's constructor checks
 * (`who` names the op in the NDHWC message). */
static bool pool3d_attrs(tfc_kernel_ctx *ctx, const char *who, pool3d *p, bool *same) {
  const tfc_attr_value *k = tfc_attrs_find(ctx->attrs, "ksize");
  const tfc_attr_value *s = tfc_attrs_find(ctx->attrs, "strides");
  if (tfc_attrs_string_is(ctx->attrs, "data_format", "NCDHW"))
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s", who);
  if (!k || k->kind != TFC_ATTR_LIST || k->v.list.n != 5)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "Sliding window ksize field must specify 5 dimensions");
  if (!s || s->kind != TFC_ATTR_LIST || s->v.list.n != 5)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "Sliding window stride field must specify 5 dimensions");
  const int64_t *kv = k->v.list.v.i, *sv = s->v.list.v.i;
  if (kv[0] != 1 || sv[0] != 1)
    return tfc_kernel_fail(ctx, TFC_CODE_UNIMPLEMENTED,
                           "Pooling is not yet supported on the batch dimension.");
  if (kv[4] != 1 || sv[4] != 1)
    return tfc_kernel_fail(ctx, TFC_CODE_UNIMPLEMENTED,
                           "Pooling is not yet supported on the depth dimension.");
  for (int i = 0; i < 3; i++) {
    p->k[i] = kv[1 + i];
    p->stride[i] = sv[1 + i];
  }
  *same = tfc_attrs_string_is(ctx->attrs, "padding", "SAME");
  return true;
}

/* Fills the geometry from the input dims (TF's Get3dOutputSize). */
static bool pool3d_geom(tfc_kernel_ctx *ctx, const int64_t *dims, bool same, pool3d *p) {
  p->batch = dims[0];
  p->c = dims[4];
  for (int i = 0; i < 3; i++) {
    p->in[i] = dims[1 + i];
    int64_t after;
    if (!tfc_windowed_output_size(ctx, p->in[i], p->k[i], 1, p->stride[i],
                                  same ? TFC_PAD_SAME : TFC_PAD_VALID, &p->pad[i], &after,
                                  &p->out[i]))
      return false;
  }
  return true;
}

/* Element i of a float-like tensor as double. */
static double ld(const tfc_tensor *t, int64_t i) {
  switch (t->dtype) {
    case TFC_DTYPE_HALF: return tfc_half_to_float(((const uint16_t *)t->data)[i]);
    case TFC_DTYPE_BFLOAT16: return tfc_bfloat16_to_float(((const uint16_t *)t->data)[i]);
    case TFC_DTYPE_DOUBLE: return ((const double *)t->data)[i];
    default: return ((const float *)t->data)[i];
  }
}

/* Stores v (rounded to the tensor's type) as element i. */
static void st(tfc_tensor *t, int64_t i, double v) {
  switch (t->dtype) {
    case TFC_DTYPE_HALF: ((uint16_t *)t->data)[i] = tfc_float_to_half((float)v); break;
    case TFC_DTYPE_BFLOAT16: ((uint16_t *)t->data)[i] = tfc_float_to_bfloat16((float)v); break;
    case TFC_DTYPE_DOUBLE: ((double *)t->data)[i] = v; break;
    default: ((float *)t->data)[i] = (float)v; break;
  }
}

/* Window of output cell o along axis a, clipped to the input: [*lo, *hi). */
static void window(const pool3d *p, int a, int64_t o, int64_t *lo, int64_t *hi) {
  int64_t s = o * p->stride[a] - p->pad[a], e = s + p->k[a];
  *lo = s < 0 ? 0 : s;
  *hi = e > p->in[a] ? p->in[a] : e;
}

/* Flat index of input cell (n, d, h, w, ch). */
static int64_t in_idx(const pool3d *p, int64_t n, int64_t d, int64_t h, int64_t w, int64_t ch) {
  return (((n * p->in[0] + d) * p->in[1] + h) * p->in[2] + w) * p->c + ch;
}

/* MaxPool3D (max true) / AvgPool3D. */
static void pool3d_fwd(tfc_kernel_ctx *ctx, bool max) {
  pool3d p;
  bool same = false;
  if (!pool3d_attrs(ctx, "Default Pooling3DOp only supports NDHWC on device type CPU", &p, &same))
    return;
  const tfc_tensor *x = ctx->inputs[0];
  if (x->rank != 5) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "tensor_in must be 5-dimensional");
    return;
  }
  if (!pool3d_geom(ctx, x->dims, same, &p)) return;
  int64_t od[5] = {p.batch, p.out[0], p.out[1], p.out[2], p.c};
  tfc_tensor *y = tfc_kernel_alloc_output(ctx, 0, x->dtype, 5, od);
  if (!y || y->nelems == 0) return;
  bool dbl = x->dtype == TFC_DTYPE_DOUBLE;
  int64_t oi = 0;
  for (int64_t n = 0; n < p.batch; n++)
    for (int64_t a = 0; a < p.out[0]; a++)
      for (int64_t b = 0; b < p.out[1]; b++)
        for (int64_t c = 0; c < p.out[2]; c++) {
          int64_t d0, d1, h0, h1, w0, w1;
          window(&p, 0, a, &d0, &d1);
          window(&p, 1, b, &h0, &h1);
          window(&p, 2, c, &w0, &w1);
          for (int64_t ch = 0; ch < p.c; ch++, oi++) {
            double acc = max ? -INFINITY : 0.0;
            float facc = 0.0f;
            int64_t cnt = 0;
            for (int64_t d = d0; d < d1; d++)
              for (int64_t h = h0; h < h1; h++)
                for (int64_t w = w0; w < w1; w++) {
                  double v = ld(x, in_idx(&p, n, d, h, w, ch));
                  if (max) acc = v > acc || isnan(v) ? v : acc;
                  else if (dbl) acc += v;
                  else facc += (float)v;
                  cnt++;
                }
            if (!max) acc = dbl ? acc / (double)cnt : (double)(facc / (float)cnt);
            st(y, oi, acc);
          }
        }
}

/* MaxPool3D(input). */
static void max_pool3d_compute(tfc_kernel_ctx *ctx) { pool3d_fwd(ctx, true); }
/* AvgPool3D(input). */
static void avg_pool3d_compute(tfc_kernel_ctx *ctx) { pool3d_fwd(ctx, false); }

/* TF's GetBroadcastSize: start and extent of output index `index`'s window. */
static bool broadcast_size(tfc_kernel_ctx *ctx, int64_t index, int64_t in, int64_t k,
                           int64_t stride, int64_t pad, int64_t *start, int64_t *size) {
  if (index * stride > in)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "index * stride must be less than or equal to input size");
  *start = index * stride;
  *size = k;
  if (*start < pad) {
    *size = k + *start - pad;
    *start = 0;
  } else {
    *start -= pad;
  }
  if (*start + k > in) *size = (in - *start) < k ? in - *start : k;
  return true;
}

/* MaxPool3DGrad(orig_input, orig_output, grad) and AvgPool3DGrad(orig_input_shape, grad). */
static void pool3d_grad(tfc_kernel_ctx *ctx, bool max) {
  pool3d p;
  bool same = false;
  if (!pool3d_attrs(ctx,
                    max ? "Default MaxPooling3dGradOp only supports NDHWC on device type CPU"
                        : "Default AvgPooling3dGradOp only supports NDHWC on device type CPU",
                    &p, &same))
    return;
  const tfc_tensor *dy = ctx->inputs[max ? 2 : 1], *x = NULL, *y = NULL;
  int64_t dims[5];
  if (max) {
    x = ctx->inputs[0];
    y = ctx->inputs[1];
    if (x->rank != 5) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "tensor_in must be 5-dimensional");
      return;
    }
    if (y->rank != 5) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "tensor_out must be 5-dimensional");
      return;
    }
    if (x->dtype != dy->dtype) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "orig_input and grad must have the same type");
      return;
    }
    memcpy(dims, x->dims, sizeof dims);
  } else {
    const tfc_tensor *s = ctx->inputs[0];
    if (s->rank != 1 || s->nelems != 5) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "tensor_in must be 1-dimensional and 5 elements");
      return;
    }
    for (int i = 0; i < 5; i++) {
      dims[i] = ((const int32_t *)s->data)[i];
      if (dims[i] < 0) {
        tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Dimension %lld must be >= 0",
                        (long long)dims[i]);
        return;
      }
    }
  }
  if (dy->rank != 5) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "out_backprop must be 5-dimensional");
    return;
  }
  tfc_tensor *dx = tfc_kernel_alloc_output(ctx, 0, dy->dtype, 5, dims);
  if (!dx) return;
  if (!pool3d_geom(ctx, dims, same, &p)) return;
  if (!max && (dims[0] != dy->dims[0] || dims[4] != dy->dims[4])) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Expected %s dimension of tensor_in_shape and out_backprop to match, got %lld "
                    "and %lld",
                    dims[0] != dy->dims[0] ? "first" : "last",
                    (long long)(dims[0] != dy->dims[0] ? dims[0] : dims[4]),
                    (long long)(dims[0] != dy->dims[0] ? dy->dims[0] : dy->dims[4]));
    return;
  }
  if (max && (y->nelems != dy->nelems)) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "tensor_out and out_backprop must match");
    return;
  }
  int64_t n_out = dy->dims[1] * dy->dims[2] * dy->dims[3];
  double *acc = tfc_calloc((size_t)(dx->nelems > 0 ? dx->nelems : 1), sizeof(double));
  if (!acc) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in 3-D pooling gradient");
    return;
  }
  bool dbl = dy->dtype == TFC_DTYPE_DOUBLE;
  for (int64_t a = 0; a < dy->dims[1]; a++) {
    int64_t ds = 0, dn = 0;
    if (!broadcast_size(ctx, a, p.in[0], p.k[0], p.stride[0], p.pad[0], &ds, &dn)) goto done;
    for (int64_t b = 0; b < dy->dims[2]; b++) {
      int64_t hs = 0, hn = 0;
      if (!broadcast_size(ctx, b, p.in[1], p.k[1], p.stride[1], p.pad[1], &hs, &hn)) goto done;
      for (int64_t c = 0; c < dy->dims[3]; c++) {
        int64_t ws = 0, wn = 0;
        if (!broadcast_size(ctx, c, p.in[2], p.k[2], p.stride[2], p.pad[2], &ws, &wn)) goto done;
        float inv = 1.0f / (float)(hn * wn * dn);
        for (int64_t n = 0; n < dy->dims[0]; n++)
          for (int64_t ch = 0; ch < p.c; ch++) {
            int64_t oi = (((n * dy->dims[1] + a) * dy->dims[2] + b) * dy->dims[3] + c) * p.c + ch;
            double g = ld(dy, oi), ymax = max ? ld(y, oi) : 0.0;
            if (!max) g = dbl ? g * (double)inv : (double)((float)g * inv);
            for (int64_t d = ds; d < ds + dn; d++)
              for (int64_t h = hs; h < hs + hn; h++)
                for (int64_t w = ws; w < ws + wn; w++) {
                  int64_t ii = in_idx(&p, n, d, h, w, ch);
                  if (max && !(fabs(ld(x, ii) - ymax) < 1e-5)) continue;
                  acc[ii] = dbl ? acc[ii] + g : (double)((float)acc[ii] + (float)g);
                }
          }
      }
    }
  }
  (void)n_out;
  for (int64_t i = 0; i < dx->nelems; i++) st(dx, i, acc[i]);
done:
  tfc_free(acc);
}

/* MaxPool3DGrad. */
static void max_pool3d_grad_compute(tfc_kernel_ctx *ctx) { pool3d_grad(ctx, true); }
/* AvgPool3DGrad. */
static void avg_pool3d_grad_compute(tfc_kernel_ctx *ctx) { pool3d_grad(ctx, false); }

/* True when element i of a equals element j of b (same dtype). */
static bool same_value(const tfc_tensor *a, int64_t i, const tfc_tensor *b, int64_t j) {
  switch (a->dtype) {
    case TFC_DTYPE_FLOAT: return ((const float *)a->data)[i] == ((const float *)b->data)[j];
    case TFC_DTYPE_DOUBLE: return ((const double *)a->data)[i] == ((const double *)b->data)[j];
    case TFC_DTYPE_HALF:
    case TFC_DTYPE_BFLOAT16: return ld(a, i) == ld(b, j);
    default: {
      size_t es = tfc_dtype_size(a->dtype);
      return memcmp((const char *)a->data + (size_t)i * es, (const char *)b->data + (size_t)j * es,
                    es) == 0;
    }
  }
}

/* MaxPool3DGradGrad(orig_input, orig_output, grad). */
static void max_pool3d_grad_grad_compute(tfc_kernel_ctx *ctx) {
  pool3d p;
  bool same = false;
  if (!pool3d_attrs(ctx, "Default MaxPooling3dGradGradOp only supportsNDHWC on CPU device type",
                    &p, &same))
    return;
  const tfc_tensor *x = ctx->inputs[0], *y = ctx->inputs[1], *g = ctx->inputs[2];
  const char *names[3] = {"tensor_in", "tensor_out", "out_grad_backprop"};
  for (int i = 0; i < 3; i++)
    if (ctx->inputs[i]->rank != 5) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s must be 5-dimensional", names[i]);
      return;
    }
  if (!pool3d_geom(ctx, x->dims, same, &p)) return;
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, y->dtype, 5, y->dims);
  if (!out) return;
  for (int i = 0; i < 3; i++)
    if (ctx->inputs[i]->nelems == 0) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "received empty tensor %s", names[i]);
      return;
    }
  if (x->nelems != g->nelems) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "tensor_in and out_grad_backprop must have same number of elements");
    return;
  }
  if (y->nelems != p.batch * p.out[0] * p.out[1] * p.out[2] * p.c) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "tensor_out and output must have same number of elements");
    return;
  }
  size_t es = tfc_dtype_size(y->dtype);
  memset(out->data, 0, es * (size_t)out->nelems);
  int64_t oi = 0;
  for (int64_t n = 0; n < p.batch; n++)
    for (int64_t a = 0; a < p.out[0]; a++)
      for (int64_t b = 0; b < p.out[1]; b++)
        for (int64_t c = 0; c < p.out[2]; c++) {
          int64_t d0, d1, h0, h1, w0, w1;
          window(&p, 0, a, &d0, &d1);
          window(&p, 1, b, &h0, &h1);
          window(&p, 2, c, &w0, &w1);
          for (int64_t ch = 0; ch < p.c; ch++, oi++) {
            bool done = false;
            for (int64_t d = d0; d < d1 && !done; d++)
              for (int64_t h = h0; h < h1 && !done; h++)
                for (int64_t w = w0; w < w1 && !done; w++) {
                  int64_t ii = in_idx(&p, n, d, h, w, ch);
                  if (same_value(y, oi, x, ii)) {
                    memcpy((char *)out->data + (size_t)oi * es, (const char *)g->data + (size_t)ii * es, es);
                    done = true;
                  }
                }
          }
        }
}

/* TF's CPU kernels take float and bfloat16 only. */
static const tfc_dtype pool3d_types[] = {TFC_DTYPE_FLOAT, TFC_DTYPE_BFLOAT16, TFC_DTYPE_INVALID};

#define K(op, fn) {op, "CPU", "T", pool3d_types, NULL, fn, NULL, 0}

static const tfc_kernel_def defs[] = {
    K("MaxPool3D", max_pool3d_compute),
    K("AvgPool3D", avg_pool3d_compute),
    K("MaxPool3DGrad", max_pool3d_grad_compute),
    K("AvgPool3DGrad", avg_pool3d_grad_compute),
    K("MaxPool3DGradGrad", max_pool3d_grad_grad_compute),
};

const tfc_kernel_table tfc_kernels_pool3d = {defs, (int)(sizeof defs / sizeof defs[0])};
