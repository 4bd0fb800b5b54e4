/*
 * ops_conv3d.c — op definitions of the 3-D convolution and pooling family:
 * Conv3D, Conv3DBackpropInputV2, Conv3DBackpropFilterV2, MaxPool3D,
 * AvgPool3D, MaxPool3DGrad, AvgPool3DGrad, MaxPool3DGradGrad. Names, args,
 * attrs and defaults are TF's (nn_ops.cc); the shape functions follow TF's
 * Conv3DShape / Pool3DShape. Kernels in kernels/conv3d.c and kernels/pool3d.c.
 */
#include "core/op_registry.h"
#include "core/op_tables.h"

/* Reads list(int) attr `name` into out (at most max values); its length or -1. */
static int int_list(const tfc_shape_ctx *ctx, const char *name, int64_t *out, int max) {
  const tfc_attr_value *v = tfc_attrs_find(ctx->attrs, name);
  if (!v || v->kind != TFC_ATTR_LIST) return -1;
  if (v->v.list.n > 0 && v->v.list.kind != TFC_ATTR_I) return -1;
  for (int i = 0; i < v->v.list.n && i < max; i++) out[i] = v->v.list.v.i[i];
  return v->v.list.n;
}

/* True for data_format NCDHW. */
static bool ncdhw(const tfc_shape_ctx *ctx) {
  return tfc_attrs_string_is(ctx->attrs, "data_format", "NCDHW");
}

/* Output size of one dimension (-1 unknown in), TF's windowed rule. */
static bool win(tfc_shape_ctx *ctx, int64_t in, int64_t k, int64_t dil, int64_t stride, bool same,
                int64_t *out) {
  if (stride <= 0) return tfc_shape_fail(ctx, "Stride must be > 0, but got %lld", (long long)stride);
  if (dil < 1) return tfc_shape_fail(ctx, "Dilation rate must be >= 1, but got %lld", (long long)dil);
  *out = -1;
  if (in < 0) return true;
  if (same) {
    *out = (in + stride - 1) / stride;
    return true;
  }
  if (k < 0) return true;
  int64_t eff = (k - 1) * dil + 1;
  if (in < eff)
    return tfc_shape_fail(ctx, "Negative dimension size caused by subtracting %lld from %lld",
                          (long long)eff, (long long)in);
  *out = (in - eff + stride) / stride;
  return true;
}

/* A 5-D shape from batch, three spatial dims and channels in the layout. */
static tfc_shape shape5(bool cf, int64_t n, const int64_t *sp, int64_t c) {
  int64_t d[5] = {n, sp[0], sp[1], sp[2], c};
  if (cf) d[1] = c, d[2] = sp[0], d[3] = sp[1], d[4] = sp[2];
  return tfc_shape_make(5, d);
}

/* Conv3D: TF's Conv3DShape. */
static bool conv3d_shape(tfc_shape_ctx *ctx) {
  const tfc_shape *in = &ctx->in_shapes[0], *f = &ctx->in_shapes[1];
  if (!tfc_shape_rank_is(ctx, in, 5) || !tfc_shape_rank_is(ctx, f, 5)) return false;
  int64_t st[5] = {1, 1, 1, 1, 1}, dl[5] = {1, 1, 1, 1, 1};
  if (int_list(ctx, "strides", st, 5) != 5)
    return tfc_shape_fail(ctx, "Conv3D requires the stride attribute to contain 5 values");
  int nd = int_list(ctx, "dilations", dl, 5);
  if (nd >= 0 && nd != 5)
    return tfc_shape_fail(ctx, "Conv3D requires the dilation attribute to contain 5 values");
  bool cf = ncdhw(ctx);
  int s0 = cf ? 2 : 1, c = cf ? 1 : 4;
  int64_t n = in->rank == 5 ? in->dims[0] : -1, ic = in->rank == 5 ? in->dims[c] : -1;
  int64_t fic = f->rank == 5 ? f->dims[3] : -1, oc = f->rank == 5 ? f->dims[4] : -1;
  if (ic >= 0 && fic > 0 && ic % fic != 0)
    return tfc_shape_fail(ctx, "Depth of input (%lld) is not a multiple of input depth of filter (%lld)",
                          (long long)ic, (long long)fic);
  if (ic >= 0 && fic > 0 && oc >= 0 && oc % (ic / fic) != 0)
    return tfc_shape_fail(ctx, "Depth of output (%lld) is not a multiple of the number of groups (%lld)",
                          (long long)oc, (long long)(ic / fic));
  bool same = tfc_attrs_string_is(ctx->attrs, "padding", "SAME");
  int64_t sp[3];
  for (int i = 0; i < 3; i++) {
    int64_t k = f->rank == 5 ? f->dims[i] : -1;
    if (!win(ctx, in->rank == 5 ? in->dims[s0 + i] : -1, k, dl[s0 + i], st[s0 + i], same, &sp[i]))
      return false;
  }
  ctx->out_shapes[0] = shape5(cf, n, sp, oc);
  return true;
}

/* Output 0 = the 5-D shape held by constant input i (else 5 unknown dims). */
static bool sizes_shape(tfc_shape_ctx *ctx, int i) {
  tfc_shape s;
  tfc_shape_from_const_input(ctx, i, &s);
  if (s.rank >= 0 && s.rank != 5) return tfc_shape_fail(ctx, "Shape must be rank 5 but is rank %d", s.rank);
  ctx->out_shapes[0] = s.rank < 0 ? tfc_shape_unknown_dims(5) : s;
  return true;
}

static bool sizes0_shape(tfc_shape_ctx *ctx) { return sizes_shape(ctx, 0); }
static bool sizes1_shape(tfc_shape_ctx *ctx) { return sizes_shape(ctx, 1); }

/* MaxPool3DGrad: the shape of orig_input, which must be 5-D. */
static bool like_input0(tfc_shape_ctx *ctx) {
  if (!tfc_shape_rank_is(ctx, &ctx->in_shapes[0], 5)) return false;
  ctx->out_shapes[0] =
      ctx->in_shapes[0].rank < 0 ? tfc_shape_unknown_dims(5) : ctx->in_shapes[0];
  return true;
}

/* MaxPool3D / AvgPool3D: TF's Pool3DShape. */
static bool pool3d_shape(tfc_shape_ctx *ctx) {
  const tfc_shape *in = &ctx->in_shapes[0];
  if (!tfc_shape_rank_is(ctx, in, 5)) return false;
  int64_t ks[5] = {1, 1, 1, 1, 1}, st[5] = {1, 1, 1, 1, 1};
  if (int_list(ctx, "strides", st, 5) != 5)
    return tfc_shape_fail(ctx, "AvgPool3D/MaxPool3D requires the stride attribute to contain 5 values");
  if (int_list(ctx, "ksize", ks, 5) != 5)
    return tfc_shape_fail(ctx, "AvgPool3D/MaxPool3D requires the ksize attribute to contain 5 values");
  bool cf = ncdhw(ctx);
  int s0 = cf ? 2 : 1, c = cf ? 1 : 4;
  bool same = tfc_attrs_string_is(ctx->attrs, "padding", "SAME");
  int64_t sp[3];
  for (int i = 0; i < 3; i++)
    if (!win(ctx, in->rank == 5 ? in->dims[s0 + i] : -1, ks[s0 + i], 1, st[s0 + i], same, &sp[i]))
      return false;
  ctx->out_shapes[0] = shape5(cf, in->rank == 5 ? in->dims[0] : -1, sp, in->rank == 5 ? in->dims[c] : -1);
  return true;
}

#define F3 "{half, bfloat16, float, double}"
#define CONV3D_ATTRS                                                                 \
  "strides: list(int) >= 5; padding: {'SAME', 'VALID'}; "                             \
  "data_format: {'NDHWC', 'NCDHW'} = 'NDHWC'; dilations: list(int) = [1, 1, 1, 1, 1]"
#define POOL3D_ATTRS                                                              \
  "ksize: list(int) >= 5; strides: list(int) >= 5; padding: {'SAME', 'VALID'}; " \
  "data_format: {'NDHWC', 'NCDHW'} = 'NDHWC'"

static const tfc_op_spec specs[] = {
    {"Conv3D", "input: T; filter: T", "output: T", "T: " F3 "; " CONV3D_ATTRS, 0, conv3d_shape},
    {"Conv3DBackpropInputV2", "input_sizes: Tshape; filter: T; out_backprop: T", "output: T",
     "T: " F3 "; " CONV3D_ATTRS "; Tshape: {int32, int64} = int32", 0, sizes0_shape},
    {"Conv3DBackpropFilterV2", "input: T; filter_sizes: int32; out_backprop: T", "output: T",
     "T: " F3 "; " CONV3D_ATTRS, 0, sizes1_shape},
    {"MaxPool3D", "input: T", "output: T", POOL3D_ATTRS "; T: {half, bfloat16, float}", 0,
     pool3d_shape},
    {"AvgPool3D", "input: T", "output: T", POOL3D_ATTRS "; T: " F3, 0, pool3d_shape},
    {"MaxPool3DGrad", "orig_input: TInput; orig_output: TInput; grad: T", "output: T",
     POOL3D_ATTRS "; T: {half, bfloat16, float} = float; TInput: {half, bfloat16, float} = float",
     0, like_input0},
    {"AvgPool3DGrad", "orig_input_shape: int32; grad: T", "output: T", POOL3D_ATTRS "; T: " F3, 0,
     sizes0_shape},
    {"MaxPool3DGradGrad", "orig_input: T; orig_output: T; grad: T", "output: T",
     POOL3D_ATTRS "; T: realnumbertype", 0, pool3d_shape},
};

const tfc_op_table tfc_ops_conv3d = {specs, (int)(sizeof specs / sizeof specs[0])};
