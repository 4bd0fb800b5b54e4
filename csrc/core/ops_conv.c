/*
 * ops_conv.c — op definitions for convolutions, pooling and fused batch
 * norm: Conv2D, Conv2DBackpropInput, Conv2DBackpropFilter,
 * DepthwiseConv2dNative (+ BackpropInput/Filter), MaxPool, MaxPoolV2,
 * MaxPoolGrad, MaxPoolGradV2, AvgPool, AvgPoolGrad, FusedBatchNorm(V2, V3)
 * and FusedBatchNormGrad(V2, V3).
 *
 * Names, attrs and defaults are TensorFlow's (nn_ops.cc); the shape
 * functions follow common_shape_fns.cc (Conv2DShapeImpl,
 * DepthwiseConv2DNativeShape, MaxPoolShape, AvgPoolShape,
 * FusedBatchNorm(Grad)Shape, Conv2DBackpropInputShape): TF's windowed
 * output sizes for SAME / VALID / EXPLICIT padding with strides and
 * dilations, and TF's build-time messages ("Negative dimension size caused
 * by subtracting 3 from 2", "Depth of input (3) is not a multiple of input
 * depth of filter (2)", ...).
 */
#include <string.h>

#include "core/op_registry.h"
#include "core/op_tables.h"

/* ---------------------------------------------------------------- helpers */

/* TF's Padding attr values. */
typedef enum pad_kind { PAD_VALID, PAD_SAME, PAD_EXPLICIT } pad_kind;

/* The node's padding attr. */
static pad_kind padding_of(const tfc_shape_ctx *ctx) {
  if (tfc_attrs_string_is(ctx->attrs, "padding", "SAME")) return PAD_SAME;
  if (tfc_attrs_string_is(ctx->attrs, "padding", "EXPLICIT")) return PAD_EXPLICIT;
  return PAD_VALID;
}

/* True when data_format puts channels right after the batch (NCHW, NCDHW). */
static bool channels_first(const tfc_shape_ctx *ctx) {
  return tfc_attrs_string_is(ctx->attrs, "data_format", "NCHW") ||
         tfc_attrs_string_is(ctx->attrs, "data_format", "NCDHW");
}

/* Reads list(int) attr `name` into out (at most max values); returns its
 * length, or -1 when absent. */
static int int_list(const tfc_shape_ctx *ctx, const char *name, int64_t *out, int max) {
  const tfc_attr_value *v = tfc_attrs_find(ctx->attrs, name);
  if (!v || v->kind != TFC_ATTR_LIST) return -1;
  if (v->v.list.n > 0 && v->v.list.kind != TFC_ATTR_I) return -1;
  for (int i = 0; i < v->v.list.n && i < max; i++) out[i] = v->v.list.v.i[i];
  return v->v.list.n;
}

/* Input i as a shape of rank r (TF's WithRank): fails on a known other
 * rank; unknown rank becomes r unknown dims. */
static bool with_rank(tfc_shape_ctx *ctx, int i, int r, tfc_shape *out) {
  if (!tfc_shape_rank_is(ctx, &ctx->in_shapes[i], r)) return false;
  *out = ctx->in_shapes[i].rank < 0 ? tfc_shape_unknown_dims(r) : ctx->in_shapes[i];
  return true;
}

/* TF's CheckValidPadding for 4-D tensors (channel index c). */
static bool check_padding(tfc_shape_ctx *ctx, pad_kind p, const int64_t *pads, int n, int c) {
  if (p == PAD_EXPLICIT) {
    if (n != 8)
      return tfc_shape_fail(ctx, "explicit_paddings attribute must contain 8 values, but got: %d", n);
    for (int i = 0; i < 8; i++)
      if (pads[i] < 0)
        return tfc_shape_fail(ctx, "All elements of explicit_paddings must be nonnegative");
    if (pads[0] || pads[1] || pads[2 * c] || pads[2 * c + 1])
      return tfc_shape_fail(ctx,
                            "Nonzero explicit padding in the batch or depth dimensions is not "
                            "supported");
  } else if (n > 0) {
    return tfc_shape_fail(ctx,
                          "explicit_paddings attribute must be empty if the padding attribute is "
                          "not EXPLICIT");
  }
  return true;
}

/* TF's GetWindowedOutputSizeFromDimsV2: output size of a dimension of size
 * in (-1 unknown) for window k (-1 unknown), dilation, stride, padding
 * (before/after used for EXPLICIT). */
static bool windowed(tfc_shape_ctx *ctx, int64_t in, int64_t k, int64_t dil, int64_t stride,
                     pad_kind p, int64_t before, int64_t after, int64_t *out) {
  if (stride <= 0) return tfc_shape_fail(ctx, "Stride must be > 0, but got %lld", (long long)stride);
  if (dil < 1) return tfc_shape_fail(ctx, "Dilation rate must be >= 1, but got %lld", (long long)dil);
  *out = -1;
  if (p == PAD_SAME) {
    if (in >= 0) *out = (in + stride - 1) / stride;
    return true;
  }
  if (p == PAD_VALID) before = after = 0;
  int64_t window = k;
  if (dil > 1 && k >= 0) {
    if (k < 1)
      return tfc_shape_fail(ctx, "Negative dimension size caused by subtracting 1 from %lld",
                            (long long)k);
    window = (k - 1) * dil + 1;
  }
  if (in < 0 || window < 0) return true;
  int64_t padded = in + before + after;
  if (padded < window)
    return tfc_shape_fail(ctx, "Negative dimension size caused by subtracting %lld from %lld",
                          (long long)window, (long long)padded);
  *out = (padded - window + stride) / stride;
  return true;
}

/* Builds a 4-D shape from batch, rows, cols, channels in the given layout. */
static tfc_shape shape4(bool nchw, int64_t n, int64_t h, int64_t w, int64_t c) {
  int64_t d[4] = {n, h, w, c};
  if (nchw) d[1] = c, d[2] = h, d[3] = w;
  return tfc_shape_make(4, d);
}

/* Output i = a 4-D shape read from constant input `in` (TF's
 * MakeShapeFromShapeTensor followed by WithRank(4)). */
static bool shape_from_sizes(tfc_shape_ctx *ctx, int in, int i) {
  tfc_shape s;
  tfc_shape_from_const_input(ctx, in, &s);
  if (s.rank >= 0 && s.rank != 4)
    return tfc_shape_fail(ctx, "Shape must be rank 4 but is rank %d", s.rank);
  ctx->out_shapes[i] = s.rank < 0 ? tfc_shape_unknown_dims(4) : s;
  return true;
}

/* ---------------------------------------------------------------- convolutions */

/* Conv2D: TF's Conv2DShapeImpl with explicit padding. */
static bool conv2d_shape(tfc_shape_ctx *ctx) {
  bool nchw = channels_first(ctx);
  tfc_shape in, f;
  if (!with_rank(ctx, 0, 4, &in) || !with_rank(ctx, 1, 4, &f)) return false;
  int64_t dil[4], str[4], pads[8];
  int nd = int_list(ctx, "dilations", dil, 4), ns = int_list(ctx, "strides", str, 4);
  if (nd != 4)
    return tfc_shape_fail(ctx, "Conv2D requires the dilation attribute to contain 4 values, but got: %d",
                          nd < 0 ? 0 : nd);
  if (ns != 4)
    return tfc_shape_fail(ctx,
                          "Conv2D on data format %s requires the stride attribute to contain 4 "
                          "values, but got: %d",
                          nchw ? "NCHW" : "NHWC", ns < 0 ? 0 : ns);
  int hi = nchw ? 2 : 1, wi = nchw ? 3 : 2, ci = nchw ? 1 : 3;
  int64_t in_depth = in.dims[ci], f_depth = f.dims[2], out_depth = f.dims[3];
  if (in_depth >= 0 && f_depth >= 0) {
    if (f_depth == 0) return tfc_shape_fail(ctx, "Depth of filter must not be 0");
    if (in_depth % f_depth)
      return tfc_shape_fail(ctx, "Depth of input (%lld) is not a multiple of input depth of filter (%lld)",
                            (long long)in_depth, (long long)f_depth);
    if (in_depth != f_depth && out_depth >= 0) {
      int64_t groups = in_depth / f_depth;
      if (groups == 0) return tfc_shape_fail(ctx, "Number of groups must not be 0");
      if (out_depth % groups)
        return tfc_shape_fail(ctx, "Depth of output (%lld) is not a multiple of the number of groups (%lld)",
                              (long long)out_depth, (long long)groups);
    }
  }
  pad_kind p = padding_of(ctx);
  int np = int_list(ctx, "explicit_paddings", pads, 8);
  if (!check_padding(ctx, p, pads, np < 0 ? 0 : np, ci)) return false;
  int64_t oh, ow;
  if (!windowed(ctx, in.dims[hi], f.dims[0], dil[hi], str[hi], p, p == PAD_EXPLICIT ? pads[2 * hi] : 0,
                p == PAD_EXPLICIT ? pads[2 * hi + 1] : 0, &oh) ||
      !windowed(ctx, in.dims[wi], f.dims[1], dil[wi], str[wi], p, p == PAD_EXPLICIT ? pads[2 * wi] : 0,
                p == PAD_EXPLICIT ? pads[2 * wi + 1] : 0, &ow))
    return false;
  ctx->out_shapes[0] = shape4(nchw, in.dims[0], oh, ow, out_depth);
  return true;
}

/* Conv2DBackpropInput: TF's Conv2DBackpropInputShape (input_sizes with 4
 * values, or 2 spatial values). */
static bool conv2d_bwd_input_shape(tfc_shape_ctx *ctx) {
  bool nchw = channels_first(ctx);
  tfc_shape dy, f;
  if (!with_rank(ctx, 2, 4, &dy) || !with_rank(ctx, 1, 4, &f)) return false;
  int ci = nchw ? 1 : 3;
  int64_t unused;
  if (!tfc_shape_merge_dim_ctx(ctx, dy.dims[ci], f.dims[3], &unused)) return false;
  tfc_shape s;
  tfc_shape_from_const_input(ctx, 0, &s);
  if (s.rank < 0) s = tfc_shape_unknown_dims(4);
  if (s.rank == 4) {
    int64_t batch;
    if (!tfc_shape_merge_dim_ctx(ctx, s.dims[0], dy.dims[0], &batch)) return false;
    ctx->out_shapes[0] = s;
    ctx->out_shapes[0].dims[0] = dy.dims[0] >= 0 ? dy.dims[0] : s.dims[0];
    return true;
  }
  if (s.rank == 2) {
    ctx->out_shapes[0] = shape4(nchw, dy.dims[0], s.dims[0], s.dims[1], f.dims[2]);
    return true;
  }
  return tfc_shape_fail(ctx,
                        "Conv2DBackpropInput requires input_sizes to contain 4 values or 2 values, "
                        "but got: %d",
                        s.rank);
}

/* Conv2DBackpropFilter and the depthwise filter gradient: the filter_sizes value. */
static bool filter_sizes_shape(tfc_shape_ctx *ctx) { return shape_from_sizes(ctx, 1, 0); }

/* DepthwiseConv2dNativeBackpropInput: the input_sizes value. */
static bool input_sizes_shape(tfc_shape_ctx *ctx) { return shape_from_sizes(ctx, 0, 0); }

/* DepthwiseConv2dNative: TF's DepthwiseConv2DNativeShapeImpl (dilations and
 * explicit padding). Output depth = in_depth * depth_multiplier. */
static bool depthwise_shape(tfc_shape_ctx *ctx) {
  bool nchw = channels_first(ctx);
  tfc_shape in, f;
  if (!with_rank(ctx, 0, 4, &in) || !with_rank(ctx, 1, 4, &f)) return false;
  int64_t str[4], dil[4] = {1, 1, 1, 1}, pads[8];
  int ns = int_list(ctx, "strides", str, 4);
  if (ns != 4)
    return tfc_shape_fail(ctx, "DepthwiseConv2D requires the stride attribute to contain 4 values, but got: %d",
                          ns < 0 ? 0 : ns);
  int nd = int_list(ctx, "dilations", dil, 4);
  if (nd >= 0 && nd != 4)
    return tfc_shape_fail(ctx,
                          "DepthwiseConv2D requires the dilations attribute to contain 4 values, but "
                          "got: %d",
                          nd);
  int hi = nchw ? 2 : 1, wi = nchw ? 3 : 2, ci = nchw ? 1 : 3;
  int64_t depth, mult = f.dims[3];
  if (!tfc_shape_merge_dim_ctx(ctx, in.dims[ci], f.dims[2], &depth)) return false;
  int64_t out_depth = depth >= 0 && mult >= 0 ? depth * mult : (depth == 0 || mult == 0 ? 0 : -1);
  pad_kind p = padding_of(ctx);
  int np = int_list(ctx, "explicit_paddings", pads, 8);
  if (!check_padding(ctx, p, pads, np < 0 ? 0 : np, ci)) return false;
  int64_t oh, ow;
  if (!windowed(ctx, in.dims[hi], f.dims[0], dil[hi], str[hi], p, p == PAD_EXPLICIT ? pads[2 * hi] : 0,
                p == PAD_EXPLICIT ? pads[2 * hi + 1] : 0, &oh) ||
      !windowed(ctx, in.dims[wi], f.dims[1], dil[wi], str[wi], p, p == PAD_EXPLICIT ? pads[2 * wi] : 0,
                p == PAD_EXPLICIT ? pads[2 * wi + 1] : 0, &ow))
    return false;
  ctx->out_shapes[0] = shape4(nchw, in.dims[0], oh, ow, out_depth);
  return true;
}

/* ---------------------------------------------------------------- pooling */

/* The output of a 2-D pooling of `in` (NHWC/NCHW) with ksize, strides and
 * padding; `op` names the op in size messages. Pools across depth too (the
 * depth window/stride are applied like the spatial ones, as TF's shape
 * function does). */
static bool pool_out(tfc_shape_ctx *ctx, const char *op, const tfc_shape *in, const int64_t *ks,
                     int nk, const int64_t *st, int ns, pad_kind p, const int64_t *pads) {
  if (ns != 4)
    return tfc_shape_fail(ctx, "%s requires the stride attribute to contain 4 values, but got: %d", op,
                          ns < 0 ? 0 : ns);
  if (nk != 4)
    return tfc_shape_fail(ctx, "%s requires the ksize attribute to contain 4 values, but got: %d", op,
                          nk < 0 ? 0 : nk);
  bool nchw = channels_first(ctx);
  int hi = nchw ? 2 : 1, wi = nchw ? 3 : 2, ci = nchw ? 1 : 3;
  int64_t oh, ow, od;
  if (!windowed(ctx, in->dims[hi], ks[hi], 1, st[hi], p, pads ? pads[2 * hi] : 0,
                pads ? pads[2 * hi + 1] : 0, &oh) ||
      !windowed(ctx, in->dims[wi], ks[wi], 1, st[wi], p, pads ? pads[2 * wi] : 0,
                pads ? pads[2 * wi + 1] : 0, &ow))
    return false;
  if (strcmp(op, "AvgPool") == 0) od = in->dims[ci];
  else if (!windowed(ctx, in->dims[ci], ks[ci], 1, st[ci], p, 0, 0, &od)) return false;
  ctx->out_shapes[0] = shape4(nchw, in->dims[0], oh, ow, od);
  return true;
}

/* True for data_format NCHW_VECT_C, whose 5-D layout tfc leaves unknown. */
static bool vect_c(const tfc_shape_ctx *ctx) {
  return tfc_attrs_string_is(ctx->attrs, "data_format", "NCHW_VECT_C");
}

/* MaxPool: TF's MaxPoolShapeWithExplicitPadding. */
static bool max_pool_shape(tfc_shape_ctx *ctx) {
  if (vect_c(ctx)) return tfc_shape_rank_is(ctx, &ctx->in_shapes[0], 5);
  tfc_shape in;
  if (!with_rank(ctx, 0, 4, &in)) return false;
  int64_t ks[4], st[4], pads[8];
  int nk = int_list(ctx, "ksize", ks, 4), ns = int_list(ctx, "strides", st, 4);
  pad_kind p = padding_of(ctx);
  int np = int_list(ctx, "explicit_paddings", pads, 8);
  if (!check_padding(ctx, p, pads, np < 0 ? 0 : np, channels_first(ctx) ? 1 : 3)) return false;
  return pool_out(ctx, "MaxPool", &in, ks, nk, st, ns, p, p == PAD_EXPLICIT ? pads : NULL);
}

/* MaxPoolV2: ksize and strides come from constant inputs 1 and 2 (unknown
 * output when they are not constant). */
static bool max_pool_v2_shape(tfc_shape_ctx *ctx) {
  if (vect_c(ctx)) return tfc_shape_rank_is(ctx, &ctx->in_shapes[0], 5);
  tfc_shape in;
  if (!with_rank(ctx, 0, 4, &in)) return false;
  for (int i = 1; i <= 2; i++) {
    tfc_shape v;
    if (!with_rank(ctx, i, 1, &v)) return false;
    if (v.dims[0] >= 0 && v.dims[0] != 4)
      return tfc_shape_fail(ctx, "Dimension must be 4 but is %lld", (long long)v.dims[0]);
  }
  tfc_tensor *kt = ctx->in_values ? ctx->in_values[1] : NULL;
  tfc_tensor *stt = ctx->in_values ? ctx->in_values[2] : NULL;
  if (!kt || !stt) return true;
  int64_t ks[4] = {0}, st[4] = {0};
  int nk = (int)kt->nelems, ns = (int)stt->nelems;
  for (int i = 0; i < 4 && i < nk; i++) ks[i] = tfc_tensor_get_int64(kt, i);
  for (int i = 0; i < 4 && i < ns; i++) st[i] = tfc_tensor_get_int64(stt, i);
  return pool_out(ctx, "MaxPool", &in, ks, nk, st, ns, padding_of(ctx), NULL);
}

/* AvgPool: TF's AvgPoolShape. */
static bool avg_pool_shape(tfc_shape_ctx *ctx) {
  tfc_shape in;
  if (!with_rank(ctx, 0, 4, &in)) return false;
  int64_t ks[4], st[4];
  int nk = int_list(ctx, "ksize", ks, 4), ns = int_list(ctx, "strides", st, 4);
  return pool_out(ctx, "AvgPool", &in, ks, nk, st, ns, padding_of(ctx), NULL);
}

/* MaxPoolGrad(V2): the orig_input shape, which must be 4-D. */
static bool max_pool_grad_shape(tfc_shape_ctx *ctx) {
  tfc_shape in;
  if (!with_rank(ctx, 0, 4, &in)) return false;
  ctx->out_shapes[0] = in;
  return true;
}

/* AvgPoolGrad: the orig_input_shape value. */
static bool avg_pool_grad_shape(tfc_shape_ctx *ctx) { return shape_from_sizes(ctx, 0, 0); }

/* ---------------------------------------------------------------- batch norm */

/* Rank of x for the node's data_format (5 for NDHWC/NCDHW). */
static int bn_rank(const tfc_shape_ctx *ctx) {
  return tfc_attrs_string_is(ctx->attrs, "data_format", "NDHWC") ||
                 tfc_attrs_string_is(ctx->attrs, "data_format", "NCDHW")
             ? 5
             : 4;
}

/* Merges the length of vector input i into *channels. */
static bool merge_vector(tfc_shape_ctx *ctx, int i, int64_t *channels) {
  tfc_shape v;
  if (!with_rank(ctx, i, 1, &v)) return false;
  return tfc_shape_merge_dim_ctx(ctx, *channels, v.dims[0], channels);
}

/* FusedBatchNorm(V2, V3): y like x with the channel dim merged with scale
 * and offset (and mean/variance unless training with factor 1); four
 * channel vectors; V3's reserve_space_3 unknown. */
static bool fused_bn_shape(tfc_shape_ctx *ctx) {
  int rank = bn_rank(ctx);
  tfc_shape x;
  if (!with_rank(ctx, 0, rank, &x)) return false;
  const tfc_attr_value *tr = tfc_attrs_find(ctx->attrs, "is_training");
  const tfc_attr_value *fa = tfc_attrs_find(ctx->attrs, "exponential_avg_factor");
  bool training = !tr || tr->kind != TFC_ATTR_B || tr->v.b;
  float factor = fa && fa->kind == TFC_ATTR_F ? fa->v.f : 1.0f;
  int ninputs = training && factor == 1.0f ? 3 : 5;
  int ci = channels_first(ctx) ? 1 : rank - 1;
  int64_t c = x.dims[ci];
  for (int i = 1; i < ninputs; i++)
    if (!merge_vector(ctx, i, &c)) return false;
  x.dims[ci] = c;
  ctx->out_shapes[0] = x;
  for (int i = 1; i <= 4; i++) ctx->out_shapes[i] = tfc_shape_make(1, &c);
  return true;
}

/* FusedBatchNormGrad(V2, V3): x_backprop like y_backprop with the channel
 * dim merged across y_backprop, x, scale and the reserve spaces;
 * scale/offset gradients are channel vectors; the last two outputs are
 * [0] in training and channel vectors otherwise. */
static bool fused_bn_grad_shape(tfc_shape_ctx *ctx) {
  int rank = bn_rank(ctx);
  tfc_shape dy, x;
  if (!with_rank(ctx, 0, rank, &dy) || !with_rank(ctx, 1, rank, &x)) return false;
  const tfc_attr_value *tr = tfc_attrs_find(ctx->attrs, "is_training");
  bool training = !tr || tr->kind != TFC_ATTR_B || tr->v.b;
  int ci = channels_first(ctx) ? 1 : rank - 1;
  int64_t c;
  if (!tfc_shape_merge_dim_ctx(ctx, dy.dims[ci], x.dims[ci], &c)) return false;
  for (int i = 2; i < 5; i++)
    if (!merge_vector(ctx, i, &c)) return false;
  dy.dims[ci] = c;
  ctx->out_shapes[0] = dy;
  ctx->out_shapes[1] = ctx->out_shapes[2] = tfc_shape_make(1, &c);
  int64_t zero = 0;
  ctx->out_shapes[3] = ctx->out_shapes[4] = tfc_shape_make(1, training ? &zero : &c);
  return true;
}

/* ---------------------------------------------------------------- table */

#define FLOATS "{half, bfloat16, float, double}"
#define CONV_ATTRS                                                                             \
  "strides: list(int); use_cudnn_on_gpu: bool = true; padding: {'SAME', 'VALID', 'EXPLICIT'}; " \
  "explicit_paddings: list(int) = []; data_format: {'NHWC', 'NCHW'} = 'NHWC'; "                 \
  "dilations: list(int) = [1, 1, 1, 1]"
#define DW_ATTRS                                                                               \
  "T: " FLOATS "; strides: list(int); padding: {'SAME', 'VALID', 'EXPLICIT'}; "                 \
  "explicit_paddings: list(int) = []; data_format: {'NHWC', 'NCHW'} = 'NHWC'; "                 \
  "dilations: list(int) = [1, 1, 1, 1]"
#define MAXPOOL_T "T: {half, bfloat16, float, double, int32, int64, uint8, int16, int8, uint16, qint8} = float"
#define POOL_FORMATS "data_format: {'NHWC', 'NCHW', 'NCHW_VECT_C'} = 'NHWC'"
#define BN_ATTRS "epsilon: float = 0.0001; exponential_avg_factor: float = 1.0; "
#define BN_FORMAT2 "data_format: {'NHWC', 'NCHW'} = 'NHWC'"
#define BN_FORMAT3 "data_format: {'NHWC', 'NCHW', 'NDHWC', 'NCDHW'} = 'NHWC'"

static const tfc_op_spec specs[] = {
    {"Conv2D", "input: T; filter: T", "output: T",
     "T: {half, bfloat16, float, double, int32}; " CONV_ATTRS, 0, conv2d_shape},
    {"Conv2DBackpropInput", "input_sizes: int32; filter: T; out_backprop: T", "output: T",
     "T: {half, bfloat16, float, double, int32}; " CONV_ATTRS, 0, conv2d_bwd_input_shape},
    {"Conv2DBackpropFilter", "input: T; filter_sizes: int32; out_backprop: T", "output: T",
     "T: " FLOATS "; " CONV_ATTRS, 0, filter_sizes_shape},
    {"DepthwiseConv2dNative", "input: T; filter: T", "output: T", DW_ATTRS, 0, depthwise_shape},
    {"DepthwiseConv2dNativeBackpropInput", "input_sizes: int32; filter: T; out_backprop: T",
     "output: T", DW_ATTRS, 0, input_sizes_shape},
    {"DepthwiseConv2dNativeBackpropFilter", "input: T; filter_sizes: int32; out_backprop: T",
     "output: T", DW_ATTRS, 0, filter_sizes_shape},
    /* internal: the plan builder's fusions (runtime/remap.c), as TF's remapper writes them */
    {"_FusedConv2D", "input: T; filter: T; args: num_args * T", "output: T",
     "T: {float, double}; num_args: int >= 0; " CONV_ATTRS
     "; fused_ops: list(string) = []; epsilon: float = 0.0001",
     0, conv2d_shape},
    {"_FusedDepthwiseConv2dNative", "input: T; filter: T; args: num_args * T", "output: T",
     "T: " FLOATS "; num_args: int >= 0; strides: list(int); padding: {'SAME', 'VALID'}; "
     "data_format: {'NHWC', 'NCHW'} = 'NHWC'; dilations: list(int) = [1, 1, 1, 1]; "
     "fused_ops: list(string) = []; epsilon: float = 0.0001; leakyrelu_alpha: float = 0.2",
     0, depthwise_shape},
    {"MaxPool", "input: T", "output: T",
     MAXPOOL_T "; ksize: list(int) >= 4; strides: list(int) >= 4; "
               "padding: {'SAME', 'VALID', 'EXPLICIT'}; explicit_paddings: list(int) = []; " POOL_FORMATS,
     0, max_pool_shape},
    {"MaxPoolV2", "input: T; ksize: int32; strides: int32", "output: T",
     MAXPOOL_T "; padding: {'SAME', 'VALID'}; " POOL_FORMATS, 0, max_pool_v2_shape},
    {"MaxPoolGrad", "orig_input: T; orig_output: T; grad: T", "output: T",
     "ksize: list(int) >= 4; strides: list(int) >= 4; padding: {'SAME', 'VALID', 'EXPLICIT'}; "
     "explicit_paddings: list(int) = []; data_format: {'NHWC', 'NCHW'} = 'NHWC'; "
     "T: realnumbertype = float",
     0, max_pool_grad_shape},
    {"MaxPoolGradV2", "orig_input: T; orig_output: T; grad: T; ksize: int32; strides: int32",
     "output: T",
     "padding: {'SAME', 'VALID'}; data_format: {'NHWC', 'NCHW'} = 'NHWC'; T: realnumbertype = float",
     0, max_pool_grad_shape},
    {"AvgPool", "value: T", "output: T",
     "ksize: list(int) >= 4; strides: list(int) >= 4; padding: {'SAME', 'VALID'}; "
     "data_format: {'NHWC', 'NCHW'} = 'NHWC'; T: " FLOATS,
     0, avg_pool_shape},
    {"AvgPoolGrad", "orig_input_shape: int32; grad: T", "output: T",
     "ksize: list(int) >= 4; strides: list(int) >= 4; padding: {'SAME', 'VALID'}; "
     "data_format: {'NHWC', 'NCHW'} = 'NHWC'; T: " FLOATS,
     0, avg_pool_grad_shape},
    {"FusedBatchNorm", "x: T; scale: T; offset: T; mean: T; variance: T",
     "y: T; batch_mean: T; batch_variance: T; reserve_space_1: T; reserve_space_2: T",
     "T: {float}; " BN_ATTRS BN_FORMAT2 "; is_training: bool = true", 0, fused_bn_shape},
    {"FusedBatchNormV2", "x: T; scale: U; offset: U; mean: U; variance: U",
     "y: T; batch_mean: U; batch_variance: U; reserve_space_1: U; reserve_space_2: U",
     "T: {half, bfloat16, float}; U: {float}; " BN_ATTRS BN_FORMAT2 "; is_training: bool = true", 0,
     fused_bn_shape},
    {"FusedBatchNormV3", "x: T; scale: U; offset: U; mean: U; variance: U",
     "y: T; batch_mean: U; batch_variance: U; reserve_space_1: U; reserve_space_2: U; "
     "reserve_space_3: U",
     "T: {half, bfloat16, float}; U: {float}; " BN_ATTRS BN_FORMAT3 "; is_training: bool = true", 0,
     fused_bn_shape},
    {"FusedBatchNormGrad", "y_backprop: T; x: T; scale: T; reserve_space_1: T; reserve_space_2: T",
     "x_backprop: T; scale_backprop: T; offset_backprop: T; reserve_space_3: T; reserve_space_4: T",
     "T: {float}; epsilon: float = 0.0001; " BN_FORMAT2 "; is_training: bool = true", 0,
     fused_bn_grad_shape},
    {"FusedBatchNormGradV2",
     "y_backprop: T; x: T; scale: float; reserve_space_1: U; reserve_space_2: U",
     "x_backprop: T; scale_backprop: U; offset_backprop: U; reserve_space_3: U; reserve_space_4: U",
     "T: {half, bfloat16, float}; U: {float}; epsilon: float = 0.0001; " BN_FORMAT2
     "; is_training: bool = true",
     0, fused_bn_grad_shape},
    {"FusedBatchNormGradV3",
     "y_backprop: T; x: T; scale: float; reserve_space_1: U; reserve_space_2: U; reserve_space_3: U",
     "x_backprop: T; scale_backprop: U; offset_backprop: U; reserve_space_4: U; reserve_space_5: U",
     "T: {half, bfloat16, float}; U: {float}; epsilon: float = 0.0001; " BN_FORMAT3
     "; is_training: bool = true",
     0, fused_bn_grad_shape},
};

const tfc_op_table tfc_ops_conv = {specs, (int)(sizeof specs / sizeof specs[0])};
