/*
 * conv.c — CPU kernels for Conv2D, Conv2DBackpropInput, Conv2DBackpropFilter,
 * DepthwiseConv2dNative and its two gradients, and the kernel table of the
 * whole conv family (pooling and batch-norm kernels live in pool.c and
 * batchnorm.c).
 *
 * This file checks attrs and shapes with the messages of TF's CPU kernels,
 * works out the convolution geometry (TF's windowed output-size and padding
 * rules) and hands the arithmetic to conv_dnn.c (float, through the DNN
 * library, unless TFC_CONV_BACKEND=openblas or it cannot do the shape),
 * conv_gemm.c (float/double Conv2D), conv_ref.c (int32) or conv_depthwise.c. The fused
 * convolutions (conv_fused.c) share the forward checks. half and bfloat16 are widened to
 * float, computed there and rounded back. Like TF 1.x on CPU, only NHWC is
 * accepted for convolutions.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "kernels/conv_internal.h"
#include "kernels/kernel_tables.h"

/* ---------------------------------------------------------------- geometry */

/* Fills the spatial part of *g (out sizes and paddings) from in/filter
 * sizes already in g and the window attrs (NHWC). */
static bool spatial_geom(tfc_kernel_ctx *ctx, const tfc_window_attrs *a, tfc_conv_geom *g) {
  g->stride_rows = a->strides[1];
  g->stride_cols = a->strides[2];
  g->dil_rows = a->dilations[1];
  g->dil_cols = a->dilations[2];
  g->pad_top = a->explicit_paddings[2];
  g->pad_bottom = a->explicit_paddings[3];
  g->pad_left = a->explicit_paddings[4];
  g->pad_right = a->explicit_paddings[5];
  return tfc_windowed_output_size(ctx, g->in_rows, g->filter_rows, g->dil_rows, g->stride_rows,
                                  a->padding, &g->pad_top, &g->pad_bottom, &g->out_rows) &&
         tfc_windowed_output_size(ctx, g->in_cols, g->filter_cols, g->dil_cols, g->stride_cols,
                                  a->padding, &g->pad_left, &g->pad_right, &g->out_cols);
}

/* Checks the filter dims fit TF's int32 bound ("filter too large"). */
static bool filter_fits(tfc_kernel_ctx *ctx, const int64_t *fd) {
  for (int i = 0; i < 4; i++)
    if (fd[i] > INT_MAX)
      return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "filter too large");
  return true;
}

/* The geometry of a backprop op from the (reconstructed) input dims, filter
 * dims and out_backprop, checked like TF's ConvBackpropComputeDimensionsV2
 * (Conv2D family, `label` prefixes messages) or like its depthwise
 * EXTRACT_AND_VERIFY_DIMENSIONS. */
static bool backprop_geom(tfc_kernel_ctx *ctx, const char *label, bool depthwise,
                          const tfc_window_attrs *a, const int64_t *id, const int64_t *fd,
                          const tfc_tensor *dy, tfc_conv_geom *g) {
  if (dy->rank != 4)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s: out_backprop must be 4-dimensional",
                           label);
  if (!filter_fits(ctx, fd)) return false;
  memset(g, 0, sizeof *g);
  g->batch = id[0];
  g->in_rows = id[1];
  g->in_cols = id[2];
  g->in_depth = id[3];
  g->filter_rows = fd[0];
  g->filter_cols = fd[1];
  if (id[0] != dy->dims[0]) {
    if (depthwise)
      return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                             "%s: input and out_backprop must have the same batch size", label);
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "%s: input and out_backprop must have the same batch size. Input batch: "
                           "%lld, outbackprop batch: %lld, batch_dim: 0",
                           label, (long long)id[0], (long long)dy->dims[0]);
  }
  if (depthwise) {
    if (id[3] != fd[2])
      return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                             "%s: input and filter must have the same in_depth", label);
    g->depth_mult = fd[3];
    g->out_depth = id[3] * fd[3];
    if (g->out_depth != dy->dims[3])
      return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                             "%s: depth_multiplier * in_depth not equal to out_depth", label);
  } else {
    if (fd[2] <= 0)
      return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                             "%s: filter depth must be strictly greated than zero", label);
    if (id[3] % fd[2])
      return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                             "%s: input depth must be evenly divisible by filter depth", label);
    g->depth_mult = 1;
    g->out_depth = fd[3];
    if (g->out_depth != dy->dims[3])
      return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                             "%s: filter and out_backprop must have the same out_depth", label);
  }
  if (!spatial_geom(ctx, a, g)) return false;
  const int64_t outs[2] = {g->out_rows, g->out_cols};
  for (int i = 0; i < 2; i++) {
    if (outs[i] == dy->dims[1 + i]) continue;
    if (depthwise)
      return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                             "%s: Number of %s of out_backprop doesn't match computed: actual = %lld, "
                             "computed = %lld",
                             label, i ? "columns" : "rows", (long long)dy->dims[1 + i],
                             (long long)outs[i]);
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "%s: Size of out_backprop doesn't match computed: actual = %lld, "
                           "computed = %lld spatial_dim: %d input: %lld filter: %lld output: %lld "
                           "stride: %lld dilation: %lld",
                           label, (long long)dy->dims[1 + i], (long long)outs[i], 1 + i,
                           (long long)id[1 + i], (long long)fd[i], (long long)dy->dims[1 + i],
                           (long long)a->strides[1 + i], (long long)a->dilations[1 + i]);
  }
  return true;
}

/* ---------------------------------------------------------------- dtype dispatch */

/* One convolution computation on float/double/int32 data: a, b are its two
 * inputs (in/filter, filter/dy or in/dy), out its result. */
typedef bool (*conv_fn)(tfc_kernel_ctx *ctx, tfc_dtype t, const tfc_conv_geom *g, const void *a,
                        const void *b, void *out);

/* A convolution kernel's state: its DNN primitive cache (NULL when that
 * backend is off) and whether its filter is a constant (TFC_CONV_CONST_ATTR). */
typedef struct conv_state {
  tfc_conv_dnn_cache *dnn;
  bool const_filter;
} conv_state;

/* Tries the DNN library for a float pass (ctx->state is the kernel's
 * conv_state or NULL). True with *ok set when it handled the pass; false
 * when the caller must use its own kernel. A constant float filter of the
 * forward pass (not a half/bfloat16 one: its float copy is made per call)
 * keeps its reordered form in the cache. */
static bool try_dnn(tfc_kernel_ctx *ctx, tfc_dtype t, tfc_conv_pass pass, bool depthwise,
                    const tfc_conv_geom *g, const void *a, const void *b, void *out, bool *ok) {
  const conv_state *cs = ctx->state;
  if (t != TFC_DTYPE_FLOAT || !cs || !cs->dnn) return false;
  int rc;
  if (pass == TFC_CONV_FWD && cs->const_filter && !tfc_conv_is16(ctx->inputs[1]->dtype)) {
    tfc_conv_epilogue ep = {.const_filter = true};
    rc = tfc_conv_dnn_fwd(ctx, cs->dnn, depthwise, g, a, b, &ep, out);
  } else {
    rc = tfc_conv_dnn_run(ctx, cs->dnn, pass, depthwise, g, a, b, out);
  }
  *ok = rc > 0;
  return rc != 0;
}

/* One convolution pass: which one, and the kernel that computes it when the
 * DNN library does not (the BLAS path for floats, direct loops otherwise). */
typedef struct conv_op {
  tfc_conv_pass pass;
  bool depthwise;
  conv_fn fallback;
} conv_op;

/* Conv2D forward fallback: the BLAS path for floats, direct loops for int32. */
static bool conv_fwd_fn(tfc_kernel_ctx *ctx, tfc_dtype t, const tfc_conv_geom *g, const void *a,
                        const void *b, void *out) {
  if (t != TFC_DTYPE_INT32) return tfc_conv2d_fwd_gemm(ctx, t, g, a, b, out);
  tfc_conv2d_fwd_ref(t, g, a, b, out);
  return true;
}

/* Conv2D input-gradient fallback (a = filter, b = dy). */
static bool conv_bin_fn(tfc_kernel_ctx *ctx, tfc_dtype t, const tfc_conv_geom *g, const void *a,
                        const void *b, void *out) {
  if (t != TFC_DTYPE_INT32) return tfc_conv2d_bwd_input_gemm(ctx, t, g, a, b, out);
  tfc_conv2d_bwd_input_ref(t, g, a, b, out);
  return true;
}

/* Depthwise forward fallback (a = input, b = filter). */
static bool dw_fwd_fn(tfc_kernel_ctx *ctx, tfc_dtype t, const tfc_conv_geom *g, const void *a,
                      const void *b, void *out) {
  tfc_depthwise_fwd(ctx, t, g, a, b, out);
  return true;
}

/* Depthwise input-gradient fallback (a = filter, b = dy). */
static bool dw_bin_fn(tfc_kernel_ctx *ctx, tfc_dtype t, const tfc_conv_geom *g, const void *a,
                      const void *b, void *out) {
  tfc_depthwise_bwd_input(ctx, t, g, a, b, out);
  return true;
}

static const conv_op op_conv_fwd = {TFC_CONV_FWD, false, conv_fwd_fn};
static const conv_op op_conv_bin = {TFC_CONV_BWD_INPUT, false, conv_bin_fn};
static const conv_op op_conv_bf = {TFC_CONV_BWD_FILTER, false, tfc_conv2d_bwd_filter_gemm};
static const conv_op op_dw_fwd = {TFC_CONV_FWD, true, dw_fwd_fn};
static const conv_op op_dw_bin = {TFC_CONV_BWD_INPUT, true, dw_bin_fn};
static const conv_op op_dw_bf = {TFC_CONV_BWD_FILTER, true, tfc_depthwise_bwd_filter};

/* Computes op on raw data of type t: the DNN library first, else its fallback. */
static bool compute(tfc_kernel_ctx *ctx, const conv_op *op, tfc_dtype t, const tfc_conv_geom *g,
                    const void *a, const void *b, void *out) {
  bool ok;
  if (try_dnn(ctx, t, op->pass, op->depthwise, g, a, b, out, &ok)) return ok;
  return op->fallback(ctx, t, g, a, b, out);
}

/* Kernel init for the convolutions: a primitive cache for the DNN library
 * when the node computes in float (float, half, bfloat16) and that backend
 * is selected; no state otherwise (the BLAS / direct kernels need none). */
static bool conv_init(const tfc_kernel_init *ki, void **state) {
  *state = NULL;
  tfc_dtype t = ki->n_outputs > 0 ? ki->out_types[0] : TFC_DTYPE_INVALID;
  if (!(t == TFC_DTYPE_FLOAT || tfc_conv_is16(t)) || !tfc_conv_dnn_wanted()) return true;
  conv_state *cs = tfc_calloc(1, sizeof *cs);
  if (!cs) return true; /* OOM: the BLAS path still works */
  cs->dnn = tfc_conv_dnn_cache_new();
  const tfc_attr_value *c = tfc_attrs_find(ki->attrs, TFC_CONV_CONST_ATTR);
  cs->const_filter = c && c->kind == TFC_ATTR_B && c->v.b;
  *state = cs;
  return true;
}

/* Kernel destroy for the convolutions: frees the primitive cache. */
static void conv_destroy(void *state) {
  conv_state *cs = state;
  if (!cs) return;
  tfc_conv_dnn_cache_free(cs->dnn);
  tfc_free(cs);
}

/* Runs op on tensors a, b into out; half/bfloat16 go through float copies. */
static void run_conv(tfc_kernel_ctx *ctx, const conv_op *op, const tfc_conv_geom *g,
                     const tfc_tensor *a, const tfc_tensor *b, tfc_tensor *out) {
  tfc_dtype t = out->dtype;
  if (!tfc_conv_is16(t)) {
    compute(ctx, op, t, g, a->data, b->data, out->data);
    return;
  }
  float *af = tfc_conv_widen_copy(ctx, a);
  float *bf = af ? tfc_conv_widen_copy(ctx, b) : NULL;
  float *of = bf ? tfc_aligned_alloc((size_t)out->nelems * sizeof(float)) : NULL;
  if (bf && !of) tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM allocating a float output");
  if (of && compute(ctx, op, TFC_DTYPE_FLOAT, g, af, bf, of))
    tfc_conv_narrow(ctx, t, of, (uint16_t *)out->data, out->nelems);
  tfc_aligned_free(af);
  tfc_aligned_free(bf);
  tfc_aligned_free(of);
}

/* ---------------------------------------------------------------- Conv2D */

/* The Conv2D checks of tfc_conv_fwd_geom. */
static bool conv2d_geom(tfc_kernel_ctx *ctx, const char *op, tfc_conv_geom *g) {
  tfc_window_attrs a;
  if (!tfc_window_read_attrs(ctx, TFC_WIN_CONV, &a)) return false;
  if (a.nchw)
    return tfc_kernel_fail(ctx, TFC_CODE_UNIMPLEMENTED,
                           "The %s op currently only supports the NHWC tensor format on the CPU. "
                           "The op was given the format: NCHW",
                           op);
  const tfc_tensor *in = ctx->inputs[0], *f = ctx->inputs[1];
  char buf[160];
  if (in->rank != 4) {
    tfc_conv_dims_str(in, buf, sizeof buf);
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "input must be 4-dimensional%s", buf);
  }
  if (f->rank != 4) {
    tfc_conv_dims_str(f, buf, sizeof buf);
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "filter must be 4-dimensional: %s", buf);
  }
  if (!filter_fits(ctx, f->dims)) return false;
  int64_t patch_depth = f->dims[2];
  if (patch_depth <= 0)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "filter depth must be stricly positive, got %lld", (long long)patch_depth);
  if (in->dims[3] % patch_depth)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "input depth must be evenly divisible by filter depth: %lld vs %lld",
                           (long long)in->dims[3], (long long)patch_depth);
  if (in->dims[3] != patch_depth)
    return tfc_kernel_fail(
        ctx, TFC_CODE_UNIMPLEMENTED,
        "Generic conv implementation does not support grouped convolutions for now.");
  *g = (tfc_conv_geom){.batch = in->dims[0], .in_rows = in->dims[1], .in_cols = in->dims[2],
                       .in_depth = in->dims[3], .filter_rows = f->dims[0],
                       .filter_cols = f->dims[1], .out_depth = f->dims[3], .depth_mult = 1};
  return spatial_geom(ctx, &a, g);
}

/* Conv2D: input [N, H, W, C] * filter [KH, KW, C, O] -> [N, OH, OW, O]. */
static void conv2d_compute(tfc_kernel_ctx *ctx) {
  tfc_conv_geom g;
  if (!tfc_conv_fwd_geom(ctx, false, "Conv2D", &g)) return;
  const tfc_tensor *in = ctx->inputs[0], *f = ctx->inputs[1];
  int64_t od[4] = {g.batch, g.out_rows, g.out_cols, g.out_depth};
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, in->dtype, 4, od);
  if (!out || out->nelems == 0) return;
  run_conv(ctx, &op_conv_fwd, &g, in, f, out);
}

/* Conv2DBackpropInput: the gradient of Conv2D with respect to its input. */
static void conv2d_bwd_input_compute(tfc_kernel_ctx *ctx) {
  tfc_window_attrs a;
  if (!tfc_window_read_attrs(ctx, TFC_WIN_CONV, &a)) return;
  if (a.nchw) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Conv2DCustomBackpropInputOp only supports NHWC.");
    return;
  }
  const tfc_tensor *sizes = ctx->inputs[0], *f = ctx->inputs[1], *dy = ctx->inputs[2];
  if (dy->rank != 4) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "input_sizes must be 4-dimensional, got: %d",
                    dy->rank);
    return;
  }
  if (sizes->rank != 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Conv2DBackpropInput: input_sizes input must be 1-dim, not %d", sizes->rank);
    return;
  }
  if (f->rank != 4) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Conv2DCustomBackpropInput: filter must be 4-dimensional");
    return;
  }
  int64_t v[4], id[4];
  int n = tfc_kernel_read_int_vector(ctx, sizes, v, 4, "input_sizes");
  if (n < 0) return;
  if (n == 4) {
    memcpy(id, v, sizeof id);
  } else if (n == 2) {
    id[0] = dy->dims[0];
    id[1] = v[0];
    id[2] = v[1];
    id[3] = f->dims[2];
  } else {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Conv2DBackpropInput requires input_sizes to contain 4 values or 2 values, but "
                    "got: %d",
                    n);
    return;
  }
  for (int i = 0; i < 4; i++)
    if (id[i] < 0) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Dimension %lld must be >= 0",
                      (long long)id[i]);
      return;
    }
  tfc_conv_geom g;
  if (!backprop_geom(ctx, "Conv2DCustomBackpropInput", false, &a, id, f->dims, dy, &g)) return;
  if (g.in_depth != f->dims[2]) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Gradients for grouped convolutions are not supported on CPU. Please file a "
                    "feature request if you run into this issue. Computed input depth %lld doesn't "
                    "match filter input depth %lld",
                    (long long)g.in_depth, (long long)f->dims[2]);
    return;
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, f->dtype, 4, id);
  if (!out || out->nelems == 0) return;
  run_conv(ctx, &op_conv_bin, &g, f, dy, out);
}

/* Conv2DBackpropFilter: the gradient of Conv2D with respect to its filter. */
static void conv2d_bwd_filter_compute(tfc_kernel_ctx *ctx) {
  tfc_window_attrs a;
  if (!tfc_window_read_attrs(ctx, TFC_WIN_CONV, &a)) return;
  if (a.nchw) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Conv2DCustomBackpropFilterOp only supports NHWC.");
    return;
  }
  const tfc_tensor *in = ctx->inputs[0], *sizes = ctx->inputs[1], *dy = ctx->inputs[2];
  if (sizes->rank != 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Conv2DBackpropFilter: filter_sizes input must be 1-dim, not %d", sizes->rank);
    return;
  }
  int64_t fd[4];
  int n = tfc_kernel_read_int_vector(ctx, sizes, fd, 4, "filter_sizes");
  if (n < 0) return;
  if (n != 4) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Conv2DCustomBackpropFilter: filter must be 4-dimensional");
    return;
  }
  for (int i = 0; i < 4; i++)
    if (fd[i] < 0) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Dimension %lld must be >= 0",
                      (long long)fd[i]);
      return;
    }
  if (in->rank != 4) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Conv2DCustomBackpropFilter: input must be 4-dimensional");
    return;
  }
  tfc_conv_geom g;
  if (!backprop_geom(ctx, "Conv2DCustomBackpropFilter", false, &a, in->dims, fd, dy, &g)) return;
  if (g.in_depth != fd[2]) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Gradients for grouped convolutions are not supported on CPU. Please file a "
                    "feature request if you run into this issue. Computed input depth %lld doesn't "
                    "match filter input depth %lld",
                    (long long)g.in_depth, (long long)fd[2]);
    return;
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, in->dtype, 4, fd);
  if (!out || out->nelems == 0) return;
  run_conv(ctx, &op_conv_bf, &g, in, dy, out);
}

/* ---------------------------------------------------------------- depthwise */

/* Reads the depthwise attrs and rejects NCHW (TF's CPU kernels do). */
static bool depthwise_attrs(tfc_kernel_ctx *ctx, tfc_window_attrs *a) {
  if (!tfc_window_read_attrs(ctx, TFC_WIN_DEPTHWISE, a)) return false;
  if (a->nchw)
    return tfc_kernel_fail(ctx, TFC_CODE_UNIMPLEMENTED,
                           "Depthwise convolution on CPU is only supported for NHWC format");
  return true;
}

/* The DepthwiseConv2dNative checks of tfc_conv_fwd_geom. */
static bool depthwise_geom(tfc_kernel_ctx *ctx, tfc_conv_geom *g) {
  tfc_window_attrs a;
  if (!depthwise_attrs(ctx, &a)) return false;
  const tfc_tensor *in = ctx->inputs[0], *f = ctx->inputs[1];
  char buf[160];
  if (in->rank != 4) {
    tfc_conv_dims_str(in, buf, sizeof buf);
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "input must be 4-dimensional%s", buf);
  }
  if (f->rank != 4) {
    tfc_conv_dims_str(f, buf, sizeof buf);
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "filter must be 4-dimensional: %s", buf);
  }
  if (in->dims[3] != f->dims[2])
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "input and filter must have the same depth: %lld vs %lld",
                           (long long)in->dims[3], (long long)f->dims[2]);
  if (!filter_fits(ctx, f->dims)) return false;
  *g = (tfc_conv_geom){.batch = in->dims[0], .in_rows = in->dims[1], .in_cols = in->dims[2],
                       .in_depth = in->dims[3], .filter_rows = f->dims[0],
                       .filter_cols = f->dims[1], .depth_mult = f->dims[3],
                       .out_depth = in->dims[3] * f->dims[3]};
  return spatial_geom(ctx, &a, g);
}

/* Forward geometry of a Conv2D-like or depthwise node (see conv_internal.h). */
bool tfc_conv_fwd_geom(tfc_kernel_ctx *ctx, bool depthwise, const char *op, tfc_conv_geom *g) {
  return depthwise ? depthwise_geom(ctx, g) : conv2d_geom(ctx, op, g);
}

/* DepthwiseConv2dNative: input [N, H, W, C] with filter [KH, KW, C, M] ->
 * [N, OH, OW, C * M]. */
static void depthwise_compute(tfc_kernel_ctx *ctx) {
  tfc_conv_geom g;
  if (!tfc_conv_fwd_geom(ctx, true, "DepthwiseConv2dNative", &g)) return;
  const tfc_tensor *in = ctx->inputs[0], *f = ctx->inputs[1];
  int64_t od[4] = {g.batch, g.out_rows, g.out_cols, g.out_depth};
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, in->dtype, 4, od);
  if (!out || out->nelems == 0) return;
  run_conv(ctx, &op_dw_fwd, &g, in, f, out);
}

/* Reads a 4-value int vector input (input_sizes / filter_sizes) into d. */
static bool read_sizes(tfc_kernel_ctx *ctx, const tfc_tensor *t, const char *label, const char *what,
                       int64_t *d) {
  int n = tfc_kernel_read_int_vector(ctx, t, d, 4, what);
  if (n < 0) return false;
  if (n != 4)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s: %s must be 4-dimensional", label,
                           strcmp(what, "input_sizes") ? "filter" : "input");
  for (int i = 0; i < 4; i++)
    if (d[i] < 0)
      return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Dimension %lld must be >= 0",
                             (long long)d[i]);
  return true;
}

/* DepthwiseConv2dNativeBackpropInput. */
static void depthwise_bwd_input_compute(tfc_kernel_ctx *ctx) {
  static const char label[] = "DepthwiseConv2DBackpropInput";
  tfc_window_attrs a;
  if (!depthwise_attrs(ctx, &a)) return;
  const tfc_tensor *sizes = ctx->inputs[0], *f = ctx->inputs[1], *dy = ctx->inputs[2];
  int64_t id[4];
  if (!read_sizes(ctx, sizes, label, "input_sizes", id)) return;
  if (f->rank != 4) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s: filter must be 4-dimensional", label);
    return;
  }
  tfc_conv_geom g;
  if (!backprop_geom(ctx, label, true, &a, id, f->dims, dy, &g)) return;
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, f->dtype, 4, id);
  if (!out || out->nelems == 0) return;
  run_conv(ctx, &op_dw_bin, &g, f, dy, out);
}

/* DepthwiseConv2dNativeBackpropFilter. */
static void depthwise_bwd_filter_compute(tfc_kernel_ctx *ctx) {
  static const char label[] = "DepthwiseConv2DBackpropFilter";
  tfc_window_attrs a;
  if (!depthwise_attrs(ctx, &a)) return;
  const tfc_tensor *in = ctx->inputs[0], *sizes = ctx->inputs[1], *dy = ctx->inputs[2];
  int64_t fd[4];
  if (!read_sizes(ctx, sizes, label, "filter_sizes", fd)) return;
  if (in->rank != 4) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s: input must be 4-dimensional", label);
    return;
  }
  tfc_conv_geom g;
  if (!backprop_geom(ctx, label, true, &a, in->dims, fd, dy, &g)) return;
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, in->dtype, 4, fd);
  if (!out || out->nelems == 0) return;
  run_conv(ctx, &op_dw_bf, &g, in, dy, out);
}

/* ---------------------------------------------------------------- table */

#define F16 TFC_DTYPE_HALF, TFC_DTYPE_BFLOAT16
static const tfc_dtype k_conv_types[] = {F16, TFC_DTYPE_FLOAT, TFC_DTYPE_DOUBLE, TFC_DTYPE_INT32,
                                         TFC_DTYPE_INVALID};
static const tfc_dtype k_float_types[] = {F16, TFC_DTYPE_FLOAT, TFC_DTYPE_DOUBLE, TFC_DTYPE_INVALID};
static const tfc_dtype k_maxpool_types[] = {
    F16,              TFC_DTYPE_FLOAT, TFC_DTYPE_DOUBLE, TFC_DTYPE_INT32,  TFC_DTYPE_INT64,
    TFC_DTYPE_UINT8,  TFC_DTYPE_INT16, TFC_DTYPE_INT8,   TFC_DTYPE_UINT16, TFC_DTYPE_QINT8,
    TFC_DTYPE_INVALID};
static const tfc_dtype k_maxpool_grad_types[] = {
    F16,              TFC_DTYPE_FLOAT, TFC_DTYPE_DOUBLE, TFC_DTYPE_INT32,  TFC_DTYPE_INT64,
    TFC_DTYPE_UINT8,  TFC_DTYPE_INT16, TFC_DTYPE_INT8,   TFC_DTYPE_UINT16, TFC_DTYPE_UINT32,
    TFC_DTYPE_UINT64, TFC_DTYPE_INVALID};
static const tfc_dtype k_bn_types[] = {F16, TFC_DTYPE_FLOAT, TFC_DTYPE_INVALID};
static const tfc_dtype k_f32[] = {TFC_DTYPE_FLOAT, TFC_DTYPE_INVALID};

static const tfc_kernel_def defs[] = {
    {"Conv2D", "CPU", "T", k_conv_types, conv_init, conv2d_compute, conv_destroy, 0},
    {"Conv2DBackpropInput", "CPU", "T", k_conv_types, conv_init, conv2d_bwd_input_compute, conv_destroy, 0},
    {"Conv2DBackpropFilter", "CPU", "T", k_float_types, conv_init, conv2d_bwd_filter_compute, conv_destroy, 0},
    {"DepthwiseConv2dNative", "CPU", "T", k_float_types, conv_init, depthwise_compute, conv_destroy, 0},
    {"DepthwiseConv2dNativeBackpropInput", "CPU", "T", k_float_types, conv_init,
     depthwise_bwd_input_compute, conv_destroy, 0},
    {"DepthwiseConv2dNativeBackpropFilter", "CPU", "T", k_float_types, conv_init,
     depthwise_bwd_filter_compute, conv_destroy, 0},
    {"_FusedConv2D", "CPU", "T", k_f32, tfc_fused_conv_init, tfc_fused_conv_compute,
     tfc_fused_conv_destroy, 0},
    {"_FusedDepthwiseConv2dNative", "CPU", "T", k_f32, tfc_fused_conv_init,
     tfc_fused_conv_compute, tfc_fused_conv_destroy, 0},
    {"MaxPool", "CPU", "T", k_maxpool_types, NULL, tfc_max_pool_compute, NULL, 0},
    {"MaxPoolV2", "CPU", "T", k_maxpool_types, NULL, tfc_max_pool_compute, NULL, 0},
    {"MaxPoolGrad", "CPU", "T", k_maxpool_grad_types, NULL, tfc_max_pool_grad_compute, NULL, 0},
    {"MaxPoolGradV2", "CPU", "T", k_maxpool_grad_types, NULL, tfc_max_pool_grad_compute, NULL, 0},
    {"AvgPool", "CPU", "T", k_float_types, NULL, tfc_avg_pool_compute, NULL, 0},
    {"AvgPoolGrad", "CPU", "T", k_float_types, NULL, tfc_avg_pool_grad_compute, NULL, 0},
    {"FusedBatchNorm", "CPU", "T", k_f32, NULL, tfc_fused_batch_norm_compute, NULL, 0},
    {"FusedBatchNormV2", "CPU", "T", k_bn_types, NULL, tfc_fused_batch_norm_compute, NULL, 0},
    {"FusedBatchNormV3", "CPU", "T", k_bn_types, NULL, tfc_fused_batch_norm_compute, NULL, 0},
    {"FusedBatchNormGrad", "CPU", "T", k_f32, NULL, tfc_fused_batch_norm_grad_compute, NULL, 0},
    {"FusedBatchNormGradV2", "CPU", "T", k_bn_types, NULL, tfc_fused_batch_norm_grad_compute, NULL,
     0},
    {"FusedBatchNormGradV3", "CPU", "T", k_bn_types, NULL, tfc_fused_batch_norm_grad_compute, NULL,
     0},
};

const tfc_kernel_table tfc_kernels_conv = {defs, (int)(sizeof defs / sizeof defs[0])};
