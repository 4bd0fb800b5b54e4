/*
 * ops_nn_window.c — op definitions of the windowed nn ops beside convolution:
 * MaxPoolWithArgmax, MaxPoolGradWithArgmax, Dilation2D and its two
 * gradients, ExtractImagePatches and ExtractVolumePatches. Names, args,
 * attrs and defaults are TF's (nn_ops.cc, array_ops.cc); shape functions
 * follow TF's. Kernels in kernels/pool_argmax.c, kernels/dilation.c and
 * kernels/patches.c.
 */
#include "core/op_registry.h"
#include "core/op_tables.h"

/* Reads list(int) attr `name` into out (at most max); its length or -1. */
static int int_list(const tfc_shape_ctx *ctx, const char *name, int64_t *out, int max) {
  const tfc_attr_value *v = tfc_attrs_find(ctx->attrs, name);
  if (!v || v->kind != TFC_ATTR_LIST) return -1;
  if (v->v.list.n > 0 && v->v.list.kind != TFC_ATTR_I) return -1;
  for (int i = 0; i < v->v.list.n && i < max; i++) out[i] = v->v.list.v.i[i];
  return v->v.list.n;
}

/* TF's windowed output size (-1 when in is unknown). */
static bool win(tfc_shape_ctx *ctx, int64_t in, int64_t eff, int64_t stride, bool same,
                int64_t *out) {
  if (stride <= 0) return tfc_shape_fail(ctx, "Stride must be > 0, but got %lld", (long long)stride);
  *out = -1;
  if (in < 0) return true;
  if (same) {
    *out = (in + stride - 1) / stride;
    return true;
  }
  if (in < eff)
    return tfc_shape_fail(ctx, "Negative dimension size caused by subtracting %lld from %lld",
                          (long long)eff, (long long)in);
  *out = (in - eff + stride) / stride;
  return true;
}

/* Windowed output of a rank-(n+2) input: spatial dims 1..n with windows
 * ks[i] dilated by rates[i] (NULL: 1); channels scaled by ch_mult. */
static bool windowed(tfc_shape_ctx *ctx, int n, const char *ks_name, const char *rates_name,
                     bool patch_depth) {
  const tfc_shape *in = &ctx->in_shapes[0];
  if (!tfc_shape_rank_is(ctx, in, n + 2)) return false;
  int64_t ks[5] = {1, 1, 1, 1, 1}, st[5] = {1, 1, 1, 1, 1}, rt[5] = {1, 1, 1, 1, 1};
  if (int_list(ctx, ks_name, ks, 5) != n + 2)
    return tfc_shape_fail(ctx, "%s must have %d entries", ks_name, n + 2);
  if (int_list(ctx, "strides", st, 5) != n + 2)
    return tfc_shape_fail(ctx, "strides must have %d entries", n + 2);
  if (rates_name && int_list(ctx, rates_name, rt, 5) != n + 2)
    return tfc_shape_fail(ctx, "%s must have %d entries", rates_name, n + 2);
  bool same = tfc_attrs_string_is(ctx->attrs, "padding", "SAME");
  int64_t d[5];
  d[0] = in->rank == n + 2 ? in->dims[0] : -1;
  int64_t ch = in->rank == n + 2 ? in->dims[n + 1] : -1, taps = 1;
  for (int i = 1; i <= n; i++) {
    int64_t eff = (ks[i] - 1) * rt[i] + 1;
    taps *= ks[i];
    if (!win(ctx, in->rank == n + 2 ? in->dims[i] : -1, eff, st[i], same, &d[i])) return false;
  }
  d[n + 1] = patch_depth ? (ch >= 0 ? ch * taps : -1) : ch;
  for (int o = 0; o < ctx->n_outputs; o++) ctx->out_shapes[o] = tfc_shape_make(n + 2, d);
  return true;
}

/* MaxPoolWithArgmax: output and argmax of the pooled shape. */
static bool argmax_shape(tfc_shape_ctx *ctx) { return windowed(ctx, 2, "ksize", NULL, false); }

/* Output = input 0's shape (rank 4). */
static bool like_input(tfc_shape_ctx *ctx) {
  if (!tfc_shape_rank_is(ctx, &ctx->in_shapes[0], 4)) return false;
  ctx->out_shapes[0] = ctx->in_shapes[0].rank < 0 ? tfc_shape_unknown_dims(4) : ctx->in_shapes[0];
  return true;
}

/* Output = input 1's shape (Dilation2DBackpropFilter: the filter, rank 3). */
static bool like_filter(tfc_shape_ctx *ctx) {
  if (!tfc_shape_rank_is(ctx, &ctx->in_shapes[1], 3)) return false;
  ctx->out_shapes[0] = ctx->in_shapes[1].rank < 0 ? tfc_shape_unknown_dims(3) : ctx->in_shapes[1];
  return true;
}

/* Dilation2D: input [b, h, w, c], filter [fh, fw, c]; TF's Dilation2D shape fn. */
static bool dilation_shape(tfc_shape_ctx *ctx) {
  const tfc_shape *in = &ctx->in_shapes[0], *f = &ctx->in_shapes[1];
  if (!tfc_shape_rank_is(ctx, in, 4) || !tfc_shape_rank_is(ctx, f, 3)) return false;
  int64_t st[4] = {1, 1, 1, 1}, rt[4] = {1, 1, 1, 1};
  if (int_list(ctx, "strides", st, 4) != 4)
    return tfc_shape_fail(ctx, "Dilation2D requires the stride attribute to contain 4 values, "
                               "but got: %d", int_list(ctx, "strides", st, 4));
  if (int_list(ctx, "rates", rt, 4) != 4)
    return tfc_shape_fail(ctx, "Dilation2D requires the rates attribute to contain 4 values, "
                               "but got: %d", int_list(ctx, "rates", rt, 4));
  int64_t ch = in->rank == 4 ? in->dims[3] : -1, d = -1;
  if (f->rank == 3 && !tfc_shape_merge_dim_ctx(ctx, ch, f->dims[2], &ch)) return false;
  bool same = tfc_attrs_string_is(ctx->attrs, "padding", "SAME");
  int64_t od[4] = {in->rank == 4 ? in->dims[0] : -1, -1, -1, ch};
  for (int i = 0; i < 2; i++) {
    int64_t k = f->rank == 3 ? f->dims[i] : -1;
    int64_t ind = in->rank == 4 ? in->dims[1 + i] : -1;
    if (k < 0) {
      if (same && ind >= 0) od[1 + i] = (ind + st[1 + i] - 1) / st[1 + i];
      continue;
    }
    if (!win(ctx, ind, (k - 1) * rt[1 + i] + 1, st[1 + i], same, &d)) return false;
    od[1 + i] = d;
  }
  ctx->out_shapes[0] = tfc_shape_make(4, od);
  return true;
}

/* ExtractImagePatches: [b, oh, ow, kh * kw * c]. */
static bool image_patches_shape(tfc_shape_ctx *ctx) { return windowed(ctx, 2, "ksizes", "rates", true); }
/* ExtractVolumePatches: [b, od, oh, ow, kd * kh * kw * c]. */
static bool volume_patches_shape(tfc_shape_ctx *ctx) { return windowed(ctx, 3, "ksizes", NULL, true); }

#define ARGMAX_T "T: realnumbertype"
#define POOL4 "ksize: list(int) >= 4; strides: list(int) >= 4; padding: {'SAME', 'VALID'}; " \
              "include_batch_in_index: bool = false"
#define DIL_ATTRS "T: realnumbertype; strides: list(int) >= 4; rates: list(int) >= 4; " \
                  "padding: {'SAME', 'VALID'}"

static const tfc_op_spec specs[] = {
    {"MaxPoolWithArgmax", "input: T", "output: T; argmax: Targmax",
     POOL4 "; Targmax: {int32, int64} = int64; " ARGMAX_T, 0, argmax_shape},
    {"MaxPoolGradWithArgmax", "input: T; grad: T; argmax: Targmax", "output: T",
     POOL4 "; Targmax: {int32, int64}; " ARGMAX_T, 0, like_input},
    {"Dilation2D", "input: T; filter: T", "output: T", DIL_ATTRS, 0, dilation_shape},
    {"Dilation2DBackpropInput", "input: T; filter: T; out_backprop: T", "in_backprop: T",
     DIL_ATTRS, 0, like_input},
    {"Dilation2DBackpropFilter", "input: T; filter: T; out_backprop: T", "filter_backprop: T",
     DIL_ATTRS, 0, like_filter},
    {"ExtractImagePatches", "images: T", "patches: T",
     "ksizes: list(int) >= 4; strides: list(int) >= 4; rates: list(int) >= 4; "
     "T: {bfloat16, half, float, double, int8, int16, int32, int64, uint8, uint16, uint32, "
     "uint64, complex64, complex128, bool}; padding: {'SAME', 'VALID'}",
     0, image_patches_shape},
    {"ExtractVolumePatches", "input: T", "patches: T",
     "ksizes: list(int) >= 5; strides: list(int) >= 5; T: realnumbertype; "
     "padding: {'SAME', 'VALID'}",
     0, volume_patches_shape},
};

const tfc_op_table tfc_ops_nn_window = {specs, (int)(sizeof specs / sizeof specs[0])};
