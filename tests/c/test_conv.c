/*
 * test_conv.c — the conv family: the fast im2col/GEMM convolution kernels
 * against the direct reference loops (many shapes, strides, dilations,
 * paddings, 1-3 threads, float and double), the reference loops against
 * each other through the adjoint identity, the op kernels run by hand
 * through a tfc_kernel_ctx with values taken from TensorFlow (Conv2D and
 * its gradients, depthwise, pooling, fused batch norm), TF's kernel and
 * shape-function error messages, shape functions, and out-of-memory
 * handling. Test names start with "conv_" (make ctest T=conv_).
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "base/alloc.h"
#include "base/threadpool.h"
#include "core/attr.h"
#include "core/dtype.h"
#include "core/op_registry.h"
#include "core/tensor.h"
#include "harness.h"
#include "kernel_call.h"
#include "kernels/conv_internal.h"
#include "kernels/kernel.h"

/* ---------------------------------------------------------------- helpers */

/* Deterministic pseudo-random values in [-1, 1). */
static double rnd(uint64_t *s) {
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(*s >> 11) / (double)(1ULL << 52) - 1.0;
}

/* A tensor of type t with dims, filled from v (NULL: pseudo-random from seed). */
static tfc_tensor *mkr(tfc_dtype t, int rank, const int64_t *dims, const double *v, uint64_t seed) {
  if (v) return mk(t, rank, dims, v);
  int64_t n = 1;
  for (int i = 0; i < rank; i++) n *= dims[i];
  double *r = tfc_malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
  if (!r) return NULL;
  for (int64_t i = 0; i < n; i++) r[i] = rnd(&seed);
  tfc_tensor *x = mk(t, rank, dims, r);
  tfc_free(r);
  return x;
}

/* A 1-D int32 tensor of n values. */
static tfc_tensor *ivec(int n, const int64_t *v) {
  double d[8];
  for (int i = 0; i < n; i++) d[i] = (double)v[i];
  int64_t dims[1] = {n};
  return mkr(TFC_DTYPE_INT32, 1, dims, d, 0);
}

/* Sets the conv attrs: strides (sh, sw), dilations (dh, dw), padding. */
static void conv_attrs(call *c, int64_t sh, int64_t sw, int64_t dh, int64_t dw, const char *pad) {
  const int64_t s[4] = {1, sh, sw, 1}, d[4] = {1, dh, dw, 1};
  set_ints(c, "strides", 4, s);
  set_ints(c, "dilations", 4, d);
  set_str(c, "padding", pad);
  set_ints(c, "explicit_paddings", 0, NULL);
  set_str(c, "data_format", "NHWC");
}

/* Sets the pool attrs: ksize (kh, kw), strides (sh, sw), padding. */
static void pool_attrs(call *c, int64_t kh, int64_t kw, int64_t sh, int64_t sw, const char *pad) {
  const int64_t k[4] = {1, kh, kw, 1}, s[4] = {1, sh, sw, 1};
  set_ints(c, "ksize", 4, k);
  set_ints(c, "strides", 4, s);
  set_str(c, "padding", pad);
  set_str(c, "data_format", "NHWC");
}

/* A bare kernel context on pool (for calling the conv_internal.h functions). */
static tfc_kernel_ctx bare_ctx(tfc_status *st, tfc_threadpool *pool) {
  tfc_kernel_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  tfc_status_clear(st);
  ctx.node_name = ctx.op_type = "test";
  ctx.st = st;
  ctx.intra_pool = pool;
  return ctx;
}

/* Largest |a - b| / (1 + |b|) over n elements of two tensors. */
static double max_rel_err(const tfc_tensor *a, const tfc_tensor *b) {
  double m = 0;
  for (int64_t i = 0; i < a->nelems; i++) {
    double e = fabs(at(a, i) - at(b, i)) / (1 + fabs(at(b, i)));
    if (e > m || e != e) m = e != e ? INFINITY : e;
  }
  return m;
}

/* ---------------------------------------------------------------- geometry */

/* A convolution case: shapes, window and padding (0 VALID, 1 SAME, 2 EXPLICIT). */
typedef struct conv_case {
  int64_t n, h, w, c, kh, kw, o, sh, sw, dh, dw;
  int pad;
  int64_t pt, pb, pl, pr;
} conv_case;

/* One output size by TF's rule. */
static int64_t out_size(int64_t in, int64_t k, int64_t d, int64_t s, int pad, int64_t *before,
                        int64_t after) {
  int64_t eff = (k - 1) * d + 1;
  if (pad == 1) {
    int64_t o = (in + s - 1) / s, need = (o - 1) * s + eff - in;
    *before = need > 0 ? need / 2 : 0;
    return o;
  }
  if (pad == 0) *before = after = 0;
  return (in + *before + after - eff + s) / s;
}

/* The tfc_conv_geom of a case. */
static tfc_conv_geom geom_of(const conv_case *k) {
  tfc_conv_geom g = {.batch = k->n, .in_rows = k->h, .in_cols = k->w, .in_depth = k->c,
                     .filter_rows = k->kh, .filter_cols = k->kw, .out_depth = k->o, .depth_mult = 1,
                     .stride_rows = k->sh, .stride_cols = k->sw, .dil_rows = k->dh,
                     .dil_cols = k->dw, .pad_top = k->pt, .pad_left = k->pl};
  g.out_rows = out_size(k->h, k->kh, k->dh, k->sh, k->pad, &g.pad_top, k->pb);
  g.out_cols = out_size(k->w, k->kw, k->dw, k->sw, k->pad, &g.pad_left, k->pr);
  return g;
}

static const conv_case kCases[] = {
    {1, 5, 5, 3, 3, 3, 4, 1, 1, 1, 1, 1, 0, 0, 0, 0},
    {2, 7, 6, 5, 3, 3, 8, 2, 2, 1, 1, 1, 0, 0, 0, 0},
    {3, 8, 8, 4, 1, 1, 6, 1, 1, 1, 1, 0, 0, 0, 0, 0},     /* pointwise: direct GEMM */
    {2, 9, 9, 3, 1, 1, 5, 2, 2, 1, 1, 0, 0, 0, 0, 0},     /* 1x1 stride 2 */
    {1, 10, 11, 2, 5, 3, 3, 2, 3, 1, 1, 0, 0, 0, 0, 0},
    {2, 9, 9, 3, 3, 3, 4, 1, 1, 2, 2, 1, 0, 0, 0, 0},     /* dilated */
    {1, 12, 12, 3, 3, 2, 2, 3, 2, 2, 1, 1, 0, 0, 0, 0},
    {2, 6, 7, 3, 3, 3, 5, 1, 2, 1, 1, 2, 1, 2, 0, 3},     /* explicit */
    {1, 3, 3, 2, 4, 4, 3, 1, 1, 1, 1, 1, 0, 0, 0, 0},     /* filter larger than input */
    {2, 40, 40, 8, 3, 3, 16, 1, 1, 1, 1, 1, 0, 0, 0, 0},  /* several row tiles */
    {1, 64, 64, 32, 3, 3, 8, 1, 1, 1, 1, 1, 0, 0, 0, 0},  /* several gradient bands */
    {1, 70, 70, 16, 3, 3, 4, 1, 1, 3, 3, 0, 0, 0, 0, 0},  /* dilated bands */
    {2, 33, 33, 16, 5, 5, 40, 2, 2, 1, 1, 1, 0, 0, 0, 0}, /* split columns */
    {1, 2, 2, 64, 3, 3, 96, 1, 1, 1, 1, 1, 0, 0, 0, 0},   /* few rows, many columns */
};

/* ---------------------------------------------------------------- fast vs reference */

/* Runs the three fast kernels and the three reference loops on case k in
 * type t with `pool`; returns the largest relative error. */
static double fast_vs_ref(const conv_case *k, tfc_dtype t, tfc_threadpool *pool) {
  tfc_conv_geom g = geom_of(k);
  int64_t id[4] = {g.batch, g.in_rows, g.in_cols, g.in_depth};
  int64_t fd[4] = {g.filter_rows, g.filter_cols, g.in_depth, g.out_depth};
  int64_t od[4] = {g.batch, g.out_rows, g.out_cols, g.out_depth};
  tfc_tensor *x = mkr(t, 4, id, NULL, 1), *f = mkr(t, 4, fd, NULL, 2), *dy = mkr(t, 4, od, NULL, 3);
  tfc_tensor *y1 = mkr(t, 4, od, NULL, 9), *y2 = mkr(t, 4, od, NULL, 8);
  tfc_tensor *dx1 = mkr(t, 4, id, NULL, 9), *dx2 = mkr(t, 4, id, NULL, 8);
  tfc_tensor *df1 = mkr(t, 4, fd, NULL, 9), *df2 = mkr(t, 4, fd, NULL, 8);
  tfc_status st;
  tfc_kernel_ctx ctx = bare_ctx(&st, pool);
  double err = INFINITY;
  if (tfc_conv2d_fwd_gemm(&ctx, t, &g, x->data, f->data, y1->data) &&
      tfc_conv2d_bwd_input_gemm(&ctx, t, &g, f->data, dy->data, dx1->data) &&
      tfc_conv2d_bwd_filter_gemm(&ctx, t, &g, x->data, dy->data, df1->data)) {
    tfc_conv2d_fwd_ref(t, &g, x->data, f->data, y2->data);
    tfc_conv2d_bwd_input_ref(t, &g, f->data, dy->data, dx2->data);
    tfc_conv2d_bwd_filter_ref(t, &g, x->data, dy->data, df2->data);
    err = fmax(max_rel_err(y1, y2), fmax(max_rel_err(dx1, dx2), max_rel_err(df1, df2)));
  }
  tfc_tensor *all[9] = {x, f, dy, y1, y2, dx1, dx2, df1, df2};
  for (int i = 0; i < 9; i++) tfc_tensor_unref(all[i]);
  return err;
}

TFC_TEST(conv_gemm_matches_reference) {
  tfc_threadpool *pools[3] = {NULL, tfc_threadpool_new(1), tfc_threadpool_new(2)};
  for (size_t i = 0; i < sizeof kCases / sizeof kCases[0]; i++)
    for (int p = 0; p < 3; p++) {
      double e = fast_vs_ref(&kCases[i], TFC_DTYPE_FLOAT, pools[p]);
      if (!(e < 1e-4)) fprintf(stderr, "case %zu pool %d: float error %g\n", i, p, e);
      CHECK(e < 1e-4);
      if (p == 1) {
        e = fast_vs_ref(&kCases[i], TFC_DTYPE_DOUBLE, pools[p]);
        if (!(e < 1e-12)) fprintf(stderr, "case %zu: double error %g\n", i, e);
        CHECK(e < 1e-12);
      }
    }
  tfc_threadpool_free(pools[1]);
  tfc_threadpool_free(pools[2]);
}

/* Sum of a[i] * b[i] in double. */
static double dot(const tfc_tensor *a, const tfc_tensor *b) {
  double s = 0;
  for (int64_t i = 0; i < a->nelems; i++) s += at(a, i) * at(b, i);
  return s;
}

TFC_TEST(conv_reference_gradients_are_adjoint) {
  /* <dy, conv(x, f)> = <bwd_input(f, dy), x> = <bwd_filter(x, dy), f>. */
  for (size_t i = 0; i < sizeof kCases / sizeof kCases[0]; i++) {
    tfc_conv_geom g = geom_of(&kCases[i]);
    int64_t id[4] = {g.batch, g.in_rows, g.in_cols, g.in_depth};
    int64_t fd[4] = {g.filter_rows, g.filter_cols, g.in_depth, g.out_depth};
    int64_t od[4] = {g.batch, g.out_rows, g.out_cols, g.out_depth};
    tfc_dtype t = TFC_DTYPE_DOUBLE;
    tfc_tensor *x = mkr(t, 4, id, NULL, 4), *f = mkr(t, 4, fd, NULL, 5), *dy = mkr(t, 4, od, NULL, 6);
    tfc_tensor *y = mkr(t, 4, od, NULL, 0), *dx = mkr(t, 4, id, NULL, 0), *df = mkr(t, 4, fd, NULL, 0);
    tfc_conv2d_fwd_ref(t, &g, x->data, f->data, y->data);
    tfc_conv2d_bwd_input_ref(t, &g, f->data, dy->data, dx->data);
    tfc_conv2d_bwd_filter_ref(t, &g, x->data, dy->data, df->data);
    double a = dot(dy, y), b = dot(dx, x), c = dot(df, f);
    CHECK_NEAR(a, b, 1e-9 * (1 + fabs(a)));
    CHECK_NEAR(a, c, 1e-9 * (1 + fabs(a)));
    tfc_tensor *all[6] = {x, f, dy, y, dx, df};
    for (int k = 0; k < 6; k++) tfc_tensor_unref(all[k]);
  }
}

/* ---------------------------------------------------------------- Conv2D kernels */

TFC_TEST(conv_conv2d_matches_tensorflow) {
  const double xv[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9}, fv[4] = {1, 2, 3, 4};
  const double same[9] = {37, 47, 21, 67, 77, 33, 23, 26, 9}, valid[4] = {37, 47, 67, 77};
  const int64_t xd[4] = {1, 3, 3, 1}, fdims[4] = {2, 2, 1, 1};
  const tfc_dtype types[] = {TFC_DTYPE_FLOAT, TFC_DTYPE_DOUBLE, TFC_DTYPE_HALF, TFC_DTYPE_BFLOAT16,
                             TFC_DTYPE_INT32};
  for (size_t k = 0; k < sizeof types / sizeof types[0]; k++) {
    tfc_tensor *in[2] = {mkr(types[k], 4, xd, xv, 0), mkr(types[k], 4, fdims, fv, 0)};
    call c;
    call_init(&c, types[k]);
    conv_attrs(&c, 1, 1, 1, 1, "SAME");
    CHECK(call_run(&c, "Conv2D", 2, in, 1));
    CHECK(c.out[0]->dtype == types[k] && c.out[0]->dims[1] == 3 && c.out[0]->dims[2] == 3);
    for (int i = 0; i < 9; i++) CHECK_NEAR(at(c.out[0], i), same[i], 0.3);
    set_str(&c, "padding", "VALID");
    CHECK(call_run(&c, "Conv2D", 2, in, 1));
    CHECK(c.out[0]->dims[1] == 2 && c.out[0]->dims[2] == 2);
    for (int i = 0; i < 4; i++) CHECK_NEAR(at(c.out[0], i), valid[i], 0.3);
    /* EXPLICIT padding equal to SAME's (0 before, 1 after) gives SAME's result. */
    set_str(&c, "padding", "EXPLICIT");
    const int64_t pads[8] = {0, 0, 0, 1, 0, 1, 0, 0};
    set_ints(&c, "explicit_paddings", 8, pads);
    CHECK(call_run(&c, "Conv2D", 2, in, 1));
    for (int i = 0; i < 9; i++) CHECK_NEAR(at(c.out[0], i), same[i], 0.3);
    call_done(&c);
    tfc_tensor_unref(in[0]);
    tfc_tensor_unref(in[1]);
  }
}

TFC_TEST(conv_gradients_match_tensorflow) {
  /* 4x4 input, 3x3 filter, stride 2, SAME (values from TF 2.21). */
  double xv[16], fv[9];
  for (int i = 0; i < 16; i++) xv[i] = i + 1;
  for (int i = 0; i < 9; i++) fv[i] = i + 1;
  const double gv[4] = {1, 2, 3, 4};
  const double want_dx[16] = {1, 2, 5, 4, 4, 5, 14, 10, 10, 14, 36, 24, 12, 15, 34, 20};
  const double want_df[9] = {78, 88, 36, 118, 128, 52, 31, 34, 11};
  const int64_t xd[4] = {1, 4, 4, 1}, fd[4] = {3, 3, 1, 1}, gd[4] = {1, 2, 2, 1};
  const int64_t sizes4[4] = {1, 4, 4, 1}, sizes2[2] = {4, 4}, fsizes[4] = {3, 3, 1, 1};
  tfc_tensor *x = mkr(TFC_DTYPE_FLOAT, 4, xd, xv, 0), *f = mkr(TFC_DTYPE_FLOAT, 4, fd, fv, 0);
  tfc_tensor *g = mkr(TFC_DTYPE_FLOAT, 4, gd, gv, 0);
  tfc_tensor *s4 = ivec(4, sizes4), *s2 = ivec(2, sizes2), *fs = ivec(4, fsizes);
  call c;
  call_init(&c, TFC_DTYPE_FLOAT);
  conv_attrs(&c, 2, 2, 1, 1, "SAME");
  tfc_tensor *bi[3] = {s4, f, g};
  CHECK(call_run(&c, "Conv2DBackpropInput", 3, bi, 1));
  for (int i = 0; i < 16; i++) CHECK_NEAR(at(c.out[0], i), want_dx[i], 1e-4);
  bi[0] = s2; /* input_sizes may give just the spatial dims */
  CHECK(call_run(&c, "Conv2DBackpropInput", 3, bi, 1));
  CHECK(c.out[0]->rank == 4 && c.out[0]->dims[0] == 1 && c.out[0]->dims[3] == 1);
  for (int i = 0; i < 16; i++) CHECK_NEAR(at(c.out[0], i), want_dx[i], 1e-4);
  tfc_tensor *bf[3] = {x, fs, g};
  CHECK(call_run(&c, "Conv2DBackpropFilter", 3, bf, 1));
  for (int i = 0; i < 9; i++) CHECK_NEAR(at(c.out[0], i), want_df[i], 1e-4);
  /* out_backprop of the wrong size: TF's message. */
  const int64_t gd3[4] = {1, 3, 3, 1};
  tfc_tensor *g3 = mkr(TFC_DTYPE_FLOAT, 4, gd3, NULL, 1);
  bf[2] = g3;
  CHECK(!call_run(&c, "Conv2DBackpropFilter", 3, bf, 1));
  CHECK(strcmp(c.st.msg, "Conv2DCustomBackpropFilter: Size of out_backprop doesn't match computed: "
                         "actual = 3, computed = 2 spatial_dim: 1 input: 4 filter: 3 output: 3 "
                         "stride: 2 dilation: 1") == 0);
  bi[0] = s4;
  bi[2] = g3;
  CHECK(!call_run(&c, "Conv2DBackpropInput", 3, bi, 1));
  CHECK(strstr(c.st.msg, "Conv2DCustomBackpropInput: Size of out_backprop doesn't match") == c.st.msg);
  tfc_tensor *bad = ivec(3, sizes4);
  bi[0] = bad;
  bi[2] = g;
  CHECK(!call_run(&c, "Conv2DBackpropInput", 3, bi, 1));
  CHECK(strcmp(c.st.msg, "Conv2DBackpropInput requires input_sizes to contain 4 values or 2 values, "
                         "but got: 3") == 0);
  call_done(&c);
  tfc_tensor *all[8] = {x, f, g, s4, s2, fs, g3, bad};
  for (int i = 0; i < 8; i++) tfc_tensor_unref(all[i]);
}

TFC_TEST(conv_kernel_errors_are_tfs) {
  const int64_t xd[4] = {2, 5, 5, 3}, fd[4] = {3, 3, 3, 4}, fd2[4] = {3, 3, 2, 4}, x3[3] = {5, 5, 3};
  tfc_tensor *x = mkr(TFC_DTYPE_FLOAT, 4, xd, NULL, 1), *f = mkr(TFC_DTYPE_FLOAT, 4, fd, NULL, 2);
  tfc_tensor *f2 = mkr(TFC_DTYPE_FLOAT, 4, fd2, NULL, 2), *xr3 = mkr(TFC_DTYPE_FLOAT, 3, x3, NULL, 1);
  tfc_tensor *in[2] = {x, f};
  call c;
  call_init(&c, TFC_DTYPE_FLOAT);
  conv_attrs(&c, 1, 1, 1, 1, "SAME");
  const int64_t bs[4] = {2, 1, 1, 1}, s0[4] = {1, 0, 1, 1}, s3[3] = {1, 1, 1};
  set_ints(&c, "strides", 4, bs);
  CHECK(!call_run(&c, "Conv2D", 2, in, 1));
  CHECK_CODE(&c.st, TFC_CODE_UNIMPLEMENTED);
  CHECK(strcmp(c.st.msg, "Current implementation does not yet support strides in the batch and depth "
                         "dimensions.") == 0);
  set_ints(&c, "strides", 4, s0);
  CHECK(!call_run(&c, "Conv2D", 2, in, 1));
  CHECK(strcmp(c.st.msg, "Row and column strides should be larger than 0.") == 0);
  set_ints(&c, "strides", 3, s3);
  CHECK(!call_run(&c, "Conv2D", 2, in, 1));
  CHECK(strcmp(c.st.msg, "Sliding window strides field must specify 4 dimensions") == 0);
  conv_attrs(&c, 1, 1, 1, 1, "SAME");
  const int64_t d0[4] = {1, 0, 1, 1};
  set_ints(&c, "dilations", 4, d0);
  CHECK(!call_run(&c, "Conv2D", 2, in, 1));
  CHECK(strcmp(c.st.msg, "Dilated rates should be larger than 0.") == 0);
  conv_attrs(&c, 1, 1, 1, 1, "EXPLICIT");
  const int64_t p6[6] = {0, 0, 1, 1, 1, 1}, pb[8] = {1, 0, 1, 1, 1, 1, 0, 0},
                pn[8] = {0, 0, -1, 1, 1, 1, 0, 0};
  set_ints(&c, "explicit_paddings", 6, p6);
  CHECK(!call_run(&c, "Conv2D", 2, in, 1));
  CHECK(strcmp(c.st.msg, "explicit_paddings attribute must contain 8 values, but got: 6") == 0);
  set_ints(&c, "explicit_paddings", 8, pb);
  CHECK(!call_run(&c, "Conv2D", 2, in, 1));
  CHECK(strcmp(c.st.msg, "Nonzero explicit padding in the batch or depth dimensions is not supported") == 0);
  set_ints(&c, "explicit_paddings", 8, pn);
  CHECK(!call_run(&c, "Conv2D", 2, in, 1));
  CHECK(strcmp(c.st.msg, "All elements of explicit_paddings must be nonnegative") == 0);
  conv_attrs(&c, 1, 1, 1, 1, "SAME");
  set_ints(&c, "explicit_paddings", 8, pb);
  CHECK(!call_run(&c, "Conv2D", 2, in, 1));
  CHECK(strcmp(c.st.msg, "explicit_paddings attribute must be empty if the padding attribute is not "
                         "EXPLICIT") == 0);
  conv_attrs(&c, 1, 1, 1, 1, "SAME");
  in[1] = f2;
  CHECK(!call_run(&c, "Conv2D", 2, in, 1));
  CHECK(strcmp(c.st.msg, "input depth must be evenly divisible by filter depth: 3 vs 2") == 0);
  in[1] = f;
  in[0] = xr3;
  CHECK(!call_run(&c, "Conv2D", 2, in, 1));
  CHECK(strcmp(c.st.msg, "input must be 4-dimensional[5,5,3]") == 0);
  in[0] = x;
  set_str(&c, "data_format", "NCHW");
  CHECK(!call_run(&c, "Conv2D", 2, in, 1));
  CHECK_CODE(&c.st, TFC_CODE_UNIMPLEMENTED);
  CHECK(strstr(c.st.msg, "only supports the NHWC tensor format on the CPU") != NULL);
  /* A 7x7 VALID filter on a 5x5 input. */
  conv_attrs(&c, 1, 1, 1, 1, "VALID");
  const int64_t fd7[4] = {7, 7, 3, 4};
  tfc_tensor *f7 = mkr(TFC_DTYPE_FLOAT, 4, fd7, NULL, 3);
  in[1] = f7;
  CHECK(!call_run(&c, "Conv2D", 2, in, 1));
  CHECK(strcmp(c.st.msg, "Computed output size would be negative: -1 [input_size: 5, "
                         "effective_filter_size: 7, stride: 1]") == 0);
  call_done(&c);
  tfc_tensor *all[5] = {x, f, f2, xr3, f7};
  for (int i = 0; i < 5; i++) tfc_tensor_unref(all[i]);
}

/* ---------------------------------------------------------------- depthwise */

/* Naive depthwise forward in double. */
static void dw_naive(const tfc_conv_geom *g, const tfc_tensor *x, const tfc_tensor *f, double *out) {
  int64_t C = g->in_depth, M = g->depth_mult, OC = C * M;
  for (int64_t n = 0; n < g->batch; n++)
    for (int64_t oh = 0; oh < g->out_rows; oh++)
      for (int64_t ow = 0; ow < g->out_cols; ow++)
        for (int64_t c = 0; c < C; c++)
          for (int64_t m = 0; m < M; m++) {
            double s = 0;
            for (int64_t kh = 0; kh < g->filter_rows; kh++)
              for (int64_t kw = 0; kw < g->filter_cols; kw++) {
                int64_t ih = oh * g->stride_rows - g->pad_top + kh * g->dil_rows;
                int64_t iw = ow * g->stride_cols - g->pad_left + kw * g->dil_cols;
                if (ih < 0 || ih >= g->in_rows || iw < 0 || iw >= g->in_cols) continue;
                s += at(x, ((n * g->in_rows + ih) * g->in_cols + iw) * C + c) *
                     at(f, ((kh * g->filter_cols + kw) * C + c) * M + m);
              }
            out[((n * g->out_rows + oh) * g->out_cols + ow) * OC + c * M + m] = s;
          }
}

TFC_TEST(conv_depthwise_matches_naive_and_adjoint) {
  /* n h w c kh kw mult sh sw dh dw pad */
  const conv_case cases[] = {
      {1, 5, 5, 3, 3, 3, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0},
      {2, 8, 7, 4, 3, 3, 2, 2, 2, 1, 1, 1, 0, 0, 0, 0},
      {3, 9, 9, 5, 3, 2, 3, 1, 2, 2, 1, 0, 0, 0, 0, 0},
      {2, 6, 6, 8, 5, 5, 1, 1, 1, 1, 1, 2, 2, 1, 0, 2},
      {2, 32, 32, 16, 3, 3, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0},
  };
  tfc_threadpool *pool = tfc_threadpool_new(2);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    tfc_conv_geom g = geom_of(&cases[i]);
    g.depth_mult = cases[i].o;
    g.out_depth = g.in_depth * g.depth_mult;
    int64_t id[4] = {g.batch, g.in_rows, g.in_cols, g.in_depth};
    int64_t fd[4] = {g.filter_rows, g.filter_cols, g.in_depth, g.depth_mult};
    int64_t od[4] = {g.batch, g.out_rows, g.out_cols, g.out_depth};
    for (int tt = 0; tt < 2; tt++) {
      tfc_dtype t = tt ? TFC_DTYPE_DOUBLE : TFC_DTYPE_FLOAT;
      tfc_tensor *x = mkr(t, 4, id, NULL, 11), *f = mkr(t, 4, fd, NULL, 12), *dy = mkr(t, 4, od, NULL, 13);
      tfc_tensor *y = mkr(t, 4, od, NULL, 0), *dx = mkr(t, 4, id, NULL, 0), *df = mkr(t, 4, fd, NULL, 0);
      tfc_status st;
      tfc_kernel_ctx ctx = bare_ctx(&st, pool);
      tfc_depthwise_fwd(&ctx, t, &g, x->data, f->data, y->data);
      tfc_depthwise_bwd_input(&ctx, t, &g, f->data, dy->data, dx->data);
      CHECK(tfc_depthwise_bwd_filter(&ctx, t, &g, x->data, dy->data, df->data));
      double *want = tfc_malloc((size_t)y->nelems * sizeof(double));
      dw_naive(&g, x, f, want);
      for (int64_t k = 0; k < y->nelems; k++) CHECK_NEAR(at(y, k), want[k], 1e-5 * (1 + fabs(want[k])));
      tfc_free(want);
      double a = dot(dy, y), b = dot(dx, x), c = dot(df, f), tol = (tt ? 1e-9 : 1e-4) * (1 + fabs(a));
      CHECK_NEAR(a, b, tol);
      CHECK_NEAR(a, c, tol);
      tfc_tensor *all[6] = {x, f, dy, y, dx, df};
      for (int k = 0; k < 6; k++) tfc_tensor_unref(all[k]);
    }
  }
  tfc_threadpool_free(pool);
}

TFC_TEST(conv_depthwise_kernel_matches_tensorflow) {
  double xv[18], fv[16];
  for (int i = 0; i < 18; i++) xv[i] = i + 1;
  for (int i = 0; i < 16; i++) fv[i] = (i + 1) / 10.0;
  const double want[36] = {19.6, 21.6, 27.2, 29.6, 25.2, 28,   34.4, 37.6, 10.4, 12,   15,   16.8,
                           36.4, 40.8, 48.8, 53.6, 42,   47.2, 56,   61.6, 16.4, 19.2, 23.4, 26.4,
                           8.8,  11.6, 15.4, 18.4, 10,   13.2, 17.4, 20.8, 1.7,  3.4,  5.4,  7.2};
  const int64_t xd[4] = {1, 3, 3, 2}, fd[4] = {2, 2, 2, 2};
  tfc_tensor *in[2] = {mkr(TFC_DTYPE_FLOAT, 4, xd, xv, 0), mkr(TFC_DTYPE_FLOAT, 4, fd, fv, 0)};
  call c;
  call_init(&c, TFC_DTYPE_FLOAT);
  conv_attrs(&c, 1, 1, 1, 1, "SAME");
  CHECK(call_run(&c, "DepthwiseConv2dNative", 2, in, 1));
  CHECK(c.out[0]->dims[3] == 4);
  for (int i = 0; i < 36; i++) CHECK_NEAR(at(c.out[0], i), want[i], 1e-4);
  set_str(&c, "data_format", "NCHW");
  CHECK(!call_run(&c, "DepthwiseConv2dNative", 2, in, 1));
  CHECK_CODE(&c.st, TFC_CODE_UNIMPLEMENTED);
  call_done(&c);
  tfc_tensor_unref(in[0]);
  tfc_tensor_unref(in[1]);
}

/* ---------------------------------------------------------------- pooling */

TFC_TEST(conv_pools_match_tensorflow) {
  double xv[16];
  for (int i = 0; i < 16; i++) xv[i] = i + 1;
  const int64_t xd[4] = {1, 4, 4, 1}, gd[4] = {1, 2, 2, 1}, shape[4] = {1, 4, 4, 1};
  const double gv[4] = {1, 2, 3, 4};
  const double want_max[4] = {11, 12, 15, 16}, want_avg[4] = {6, 7.5, 12, 13.5};
  const double want_avg_grad[16] = {1 / 9.0, 1 / 9.0, 4 / 9.0, 1 / 3.0, 1 / 9.0, 1 / 9.0,
                                    4 / 9.0, 1 / 3.0, 0.6111111, 0.6111111, 1.9444444, 1.3333334,
                                    0.5,     0.5,     1.5,     1};
  const tfc_dtype types[] = {TFC_DTYPE_FLOAT, TFC_DTYPE_DOUBLE, TFC_DTYPE_HALF, TFC_DTYPE_INT32};
  for (size_t k = 0; k < sizeof types / sizeof types[0]; k++) {
    tfc_tensor *x = mkr(types[k], 4, xd, xv, 0);
    call c;
    call_init(&c, types[k]);
    pool_attrs(&c, 3, 3, 2, 2, "SAME");
    set_ints(&c, "explicit_paddings", 0, NULL);
    CHECK(call_run(&c, "MaxPool", 1, &x, 1));
    for (int i = 0; i < 4; i++) CHECK_NEAR(at(c.out[0], i), want_max[i], 1e-6);
    /* MaxPoolV2 takes ksize and strides as inputs. */
    const int64_t ks[4] = {1, 3, 3, 1}, ss[4] = {1, 2, 2, 1};
    tfc_tensor *v2[3] = {x, ivec(4, ks), ivec(4, ss)};
    call c2;
    call_init(&c2, types[k]);
    set_str(&c2, "padding", "SAME");
    set_str(&c2, "data_format", "NHWC");
    CHECK(call_run(&c2, "MaxPoolV2", 3, v2, 1));
    for (int i = 0; i < 4; i++) CHECK_NEAR(at(c2.out[0], i), want_max[i], 1e-6);
    call_done(&c2);
    tfc_tensor_unref(v2[1]);
    tfc_tensor_unref(v2[2]);
    if (types[k] != TFC_DTYPE_INT32) {
      CHECK(call_run(&c, "AvgPool", 1, &x, 1));
      for (int i = 0; i < 4; i++) CHECK_NEAR(at(c.out[0], i), want_avg[i], 1e-2);
      tfc_tensor *ag[2] = {ivec(4, shape), mkr(types[k], 4, gd, gv, 0)};
      CHECK(call_run(&c, "AvgPoolGrad", 2, ag, 1));
      for (int i = 0; i < 16; i++) CHECK_NEAR(at(c.out[0], i), want_avg_grad[i], 2e-3);
      tfc_tensor_unref(ag[0]);
      tfc_tensor_unref(ag[1]);
    }
    call_done(&c);
    tfc_tensor_unref(x);
  }
}

TFC_TEST(conv_max_pool_grad_ties_and_nans) {
  /* All-equal window: the gradient goes to the first element (TF). */
  double ones[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  const double gv[4] = {1, 2, 3, 4};
  const int64_t xd[4] = {1, 3, 3, 1}, od[4] = {1, 2, 2, 1};
  tfc_tensor *in[3] = {mkr(TFC_DTYPE_FLOAT, 4, xd, ones, 0), mkr(TFC_DTYPE_FLOAT, 4, od, NULL, 0),
                       mkr(TFC_DTYPE_FLOAT, 4, od, gv, 0)};
  call c;
  call_init(&c, TFC_DTYPE_FLOAT);
  pool_attrs(&c, 2, 2, 1, 1, "VALID");
  set_ints(&c, "explicit_paddings", 0, NULL);
  CHECK(call_run(&c, "MaxPoolGrad", 3, in, 1));
  const double want1[9] = {1, 2, 0, 3, 4, 0, 0, 0, 0};
  for (int i = 0; i < 9; i++) CHECK_NEAR(at(c.out[0], i), want1[i], 0);
  /* NaNs: skipped by MaxPool; MaxPoolGrad keeps a NaN that starts a window. */
  double nv[9] = {1, NAN, 3, 2, 5, NAN, 0, 1, 1};
  tfc_tensor_unref(in[0]);
  in[0] = mkr(TFC_DTYPE_FLOAT, 4, xd, nv, 0);
  CHECK(call_run(&c, "MaxPool", 1, in, 1));
  for (int i = 0; i < 4; i++) CHECK_NEAR(at(c.out[0], i), 5, 0);
  CHECK(call_run(&c, "MaxPoolGrad", 3, in, 1));
  const double want2[9] = {0, 2, 0, 0, 8, 0, 0, 0, 0};
  for (int i = 0; i < 9; i++) CHECK_NEAR(at(c.out[0], i), want2[i], 0);
  /* -inf everywhere: MaxPool gives the lowest finite float, as TF. */
  double ninf[9];
  for (int i = 0; i < 9; i++) ninf[i] = -INFINITY;
  tfc_tensor *xi = mkr(TFC_DTYPE_FLOAT, 4, xd, ninf, 0);
  CHECK(call_run(&c, "MaxPool", 1, &xi, 1));
  CHECK(at(c.out[0], 0) == -3.4028234663852886e38);
  /* Wrong grad shape. */
  tfc_tensor_unref(in[2]);
  in[2] = mkr(TFC_DTYPE_FLOAT, 4, xd, NULL, 0);
  CHECK(!call_run(&c, "MaxPoolGrad", 3, in, 1));
  CHECK(strcmp(c.st.msg, "Expected grad shape to be [1,2,2,1], but got [1,3,3,1]") == 0);
  call_done(&c);
  for (int i = 0; i < 3; i++) tfc_tensor_unref(in[i]);
  tfc_tensor_unref(xi);
}

/* Naive max / avg pooling of x (NHWC) in double for geometry g (window =
 * filter dims, stride, pads). */
static void pool_naive(const tfc_conv_geom *g, const tfc_tensor *x, bool avg, double *out) {
  int64_t C = g->in_depth;
  for (int64_t n = 0; n < g->batch; n++)
    for (int64_t oh = 0; oh < g->out_rows; oh++)
      for (int64_t ow = 0; ow < g->out_cols; ow++)
        for (int64_t c = 0; c < C; c++) {
          double m = -INFINITY, s = 0;
          int cnt = 0;
          for (int64_t kh = 0; kh < g->filter_rows; kh++)
            for (int64_t kw = 0; kw < g->filter_cols; kw++) {
              int64_t ih = oh * g->stride_rows - g->pad_top + kh;
              int64_t iw = ow * g->stride_cols - g->pad_left + kw;
              if (ih < 0 || ih >= g->in_rows || iw < 0 || iw >= g->in_cols) continue;
              double v = at(x, ((n * g->in_rows + ih) * g->in_cols + iw) * C + c);
              m = v > m ? v : m;
              s += v;
              cnt++;
            }
          out[((n * g->out_rows + oh) * g->out_cols + ow) * C + c] = avg ? s / cnt : m;
        }
}

TFC_TEST(conv_pools_match_naive_with_threads) {
  /* n h w c kh kw - sh sw - - pad */
  const conv_case cases[] = {
      {1, 7, 7, 3, 3, 3, 0, 2, 2, 1, 1, 1, 0, 0, 0, 0},
      {3, 8, 9, 70, 2, 3, 0, 2, 1, 1, 1, 0, 0, 0, 0, 0},
      {2, 16, 16, 130, 3, 3, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0},
      {2, 5, 6, 4, 5, 5, 0, 3, 3, 1, 1, 1, 0, 0, 0, 0},
  };
  tfc_threadpool *pool = tfc_threadpool_new(2);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    tfc_conv_geom g = geom_of(&cases[i]);
    int64_t id[4] = {g.batch, g.in_rows, g.in_cols, g.in_depth};
    int64_t od[4] = {g.batch, g.out_rows, g.out_cols, g.in_depth};
    for (int tt = 0; tt < 2; tt++) {
      tfc_dtype t = tt ? TFC_DTYPE_DOUBLE : TFC_DTYPE_FLOAT;
      tfc_tensor *x = mkr(t, 4, id, NULL, 21), *dy = mkr(t, 4, od, NULL, 22);
      call c;
      call_init(&c, t);
      c.pool = pool;
      pool_attrs(&c, g.filter_rows, g.filter_cols, g.stride_rows, g.stride_cols,
                 cases[i].pad ? "SAME" : "VALID");
      set_ints(&c, "explicit_paddings", 0, NULL);
      double *want = tfc_malloc((size_t)dy->nelems * sizeof(double));
      for (int avg = 0; avg < 2; avg++) {
        CHECK(call_run(&c, avg ? "AvgPool" : "MaxPool", 1, &x, 1));
        CHECK(c.out[0]->nelems == dy->nelems);
        pool_naive(&g, x, avg, want);
        for (int64_t k = 0; k < dy->nelems; k++) CHECK_NEAR(at(c.out[0], k), want[k], 1e-6);
      }
      tfc_free(want);
      /* Gradients are the adjoints of the (locally linear) forward ops. */
      CHECK(call_run(&c, "MaxPool", 1, &x, 1));
      tfc_tensor *y = tfc_tensor_ref(c.out[0]);
      tfc_tensor *mg[3] = {x, y, dy};
      CHECK(call_run(&c, "MaxPoolGrad", 3, mg, 1));
      CHECK_NEAR(dot(c.out[0], x), dot(dy, y), 1e-4 * (1 + fabs(dot(dy, y))));
      tfc_tensor_unref(y);
      CHECK(call_run(&c, "AvgPool", 1, &x, 1));
      y = tfc_tensor_ref(c.out[0]);
      tfc_tensor *ag[2] = {ivec(4, id), dy};
      CHECK(call_run(&c, "AvgPoolGrad", 2, ag, 1));
      CHECK_NEAR(dot(c.out[0], x), dot(dy, y), 1e-4 * (1 + fabs(dot(dy, y))));
      tfc_tensor_unref(y);
      tfc_tensor_unref(ag[0]);
      call_done(&c);
      tfc_tensor_unref(x);
      tfc_tensor_unref(dy);
    }
  }
  tfc_threadpool_free(pool);
}

TFC_TEST(conv_pool_errors_and_depth_pooling) {
  double xv[16];
  for (int i = 0; i < 16; i++) xv[i] = i;
  const int64_t xd[4] = {1, 2, 2, 4};
  tfc_tensor *x = mkr(TFC_DTYPE_FLOAT, 4, xd, xv, 0);
  call c;
  call_init(&c, TFC_DTYPE_FLOAT);
  set_ints(&c, "explicit_paddings", 0, NULL);
  const int64_t kd[4] = {1, 1, 1, 2};
  set_ints(&c, "ksize", 4, kd);
  set_ints(&c, "strides", 4, kd);
  set_str(&c, "padding", "VALID");
  set_str(&c, "data_format", "NHWC");
  CHECK(call_run(&c, "MaxPool", 1, &x, 1));
  CHECK(c.out[0]->dims[3] == 2 && c.out[0]->dims[1] == 2);
  for (int i = 0; i < 8; i++) CHECK_NEAR(at(c.out[0], i), 2 * i + 1, 0);
  const int64_t k3[4] = {1, 1, 1, 3};
  set_ints(&c, "ksize", 4, k3);
  set_ints(&c, "strides", 4, k3);
  CHECK(!call_run(&c, "MaxPool", 1, &x, 1));
  CHECK(strcmp(c.st.msg, "Depthwise max pooling requires the depth window to evenly divide the input "
                         "depth") == 0);
  const int64_t kb[4] = {2, 1, 1, 1};
  set_ints(&c, "ksize", 4, kb);
  CHECK(!call_run(&c, "MaxPool", 1, &x, 1));
  CHECK_CODE(&c.st, TFC_CODE_UNIMPLEMENTED);
  CHECK(strcmp(c.st.msg, "Pooling is not yet supported on the batch dimension.") == 0);
  pool_attrs(&c, 2, 2, 1, 1, "EXPLICIT");
  const int64_t pads[8] = {0, 0, 2, 1, 1, 1, 0, 0};
  set_ints(&c, "explicit_paddings", 8, pads);
  CHECK(!call_run(&c, "MaxPool", 1, &x, 1));
  CHECK(strcmp(c.st.msg, "Top padding 2 needs to be smaller than the window size 2") == 0);
  const int64_t pads1[8] = {0, 0, 1, 1, 1, 0, 0, 0};
  set_ints(&c, "explicit_paddings", 8, pads1);
  CHECK(call_run(&c, "MaxPool", 1, &x, 1));
  CHECK(c.out[0]->dims[1] == 3 && c.out[0]->dims[2] == 2);
  pool_attrs(&c, 2, 2, 1, 1, "SAME");
  set_ints(&c, "explicit_paddings", 0, NULL);
  set_str(&c, "data_format", "NCHW");
  CHECK(!call_run(&c, "MaxPool", 1, &x, 1));
  CHECK(strcmp(c.st.msg, "Default MaxPoolingOp only supports NHWC on device type CPU") == 0);
  CHECK(!call_run(&c, "AvgPool", 1, &x, 1));
  CHECK(strcmp(c.st.msg, "Default AvgPoolingOp only supports NHWC on device type CPU") == 0);
  call_done(&c);
  tfc_tensor_unref(x);
}

/* ---------------------------------------------------------------- batch norm */

TFC_TEST(conv_fused_batch_norm_matches_tensorflow) {
  double xv[24], dyv[24];
  for (int i = 0; i < 24; i++) xv[i] = pow(i, 1.5) / 7, dyv[i] = cos(i);
  const double sv[3] = {1, 2, 0.5}, ov[3] = {0.1, -0.2, 0.3}, mv[3] = {1, 2, 3}, vv[3] = {4, 5, 6};
  const double want_y[24] = {-1.12858,   -2.7430546, -0.35035986, -0.968562,  -2.333855,  -0.23377198,
                             -0.6759809, -1.7188714, -0.07397738, -0.29710245, -0.9529363, 0.11943676,
                             0.15156354, -0.06150155, 0.34139618, 0.6604748,  0.939742,   0.58861196,
                             1.2231936,  2.0398502,  0.85872567,  1.8349937,  3.2306252,  1.1499388};
  const double want_bm[3] = {2.1748157, 3.0893903, 4.0149193}, want_bv[3] = {9.148117, 10.575011, 11.980392};
  const double want_rs1[3] = {5.699262, 6.3575616, 7.0596766}, want_rs2[3] = {21.51841, 23.887539, 26.181374};
  const double want_dx[24] = {0.17077343, 0.14742322,  -0.03810478, -0.2532692, -0.32714534, 0.03099418,
                              0.17615019, 0.2698528,   -0.00995986, -0.21555431, -0.35579836, 0.00587883,
                              0.17660606, 0.3893611,   0.02017175,  -0.15336664, -0.33959958, -0.01855833,
                              0.1701013,  0.49447283,  0.04986554,  -0.07144087, -0.27856672, -0.04028733};
  const double want_ds[3] = {-1.1448905, -1.3371481, -0.2515514}, want_do[3] = {0.25580102, -0.2599795, -0.5367361};
  const int64_t xd[4] = {2, 2, 2, 3}, cd[1] = {3};
  tfc_tensor *in[5] = {mkr(TFC_DTYPE_FLOAT, 4, xd, xv, 0), mkr(TFC_DTYPE_FLOAT, 1, cd, sv, 0),
                       mkr(TFC_DTYPE_FLOAT, 1, cd, ov, 0), mkr(TFC_DTYPE_FLOAT, 1, cd, mv, 0),
                       mkr(TFC_DTYPE_FLOAT, 1, cd, vv, 0)};
  call c;
  call_init(&c, TFC_DTYPE_FLOAT);
  set_float(&c, "epsilon", 0.001f);
  set_float(&c, "exponential_avg_factor", 0.25f);
  set_bool(&c, "is_training", true);
  set_str(&c, "data_format", "NHWC");
  CHECK(call_run(&c, "FusedBatchNormV3", 5, in, 6));
  for (int i = 0; i < 24; i++) CHECK_NEAR(at(c.out[0], i), want_y[i], 1e-5);
  for (int i = 0; i < 3; i++) {
    CHECK_NEAR(at(c.out[1], i), want_bm[i], 1e-5);
    CHECK_NEAR(at(c.out[2], i), want_bv[i], 1e-4);
    CHECK_NEAR(at(c.out[3], i), want_rs1[i], 1e-5);
    CHECK_NEAR(at(c.out[4], i), want_rs2[i], 1e-4);
  }
  CHECK(c.out[5]->rank == 0);
  tfc_tensor *g[6] = {mkr(TFC_DTYPE_FLOAT, 4, xd, dyv, 0), in[0], in[1], tfc_tensor_ref(c.out[3]),
                      tfc_tensor_ref(c.out[4]), tfc_tensor_ref(c.out[5])};
  call cg;
  call_init(&cg, TFC_DTYPE_FLOAT);
  set_float(&cg, "epsilon", 0.001f);
  set_bool(&cg, "is_training", true);
  set_str(&cg, "data_format", "NHWC");
  CHECK(call_run(&cg, "FusedBatchNormGradV3", 6, g, 5));
  for (int i = 0; i < 24; i++) CHECK_NEAR(at(cg.out[0], i), want_dx[i], 1e-5);
  for (int i = 0; i < 3; i++) {
    CHECK_NEAR(at(cg.out[1], i), want_ds[i], 1e-5);
    CHECK_NEAR(at(cg.out[2], i), want_do[i], 1e-5);
  }
  CHECK(cg.out[3]->rank == 1 && cg.out[3]->dims[0] == 0);
  /* Inference mode uses the given statistics and passes them through. */
  set_bool(&c, "is_training", false);
  CHECK(call_run(&c, "FusedBatchNormV3", 5, in, 6));
  for (int i = 0; i < 24; i++) {
    int ch = i % 3;
    double want = (xv[i] - mv[ch]) * sv[ch] / sqrt(vv[ch] + 0.001) + ov[ch];
    CHECK_NEAR(at(c.out[0], i), want, 1e-5);
  }
  for (int i = 0; i < 3; i++) CHECK(at(c.out[1], i) == mv[i] && at(c.out[2], i) == vv[i]);
  /* Error messages. */
  tfc_tensor *empty = mkr(TFC_DTYPE_FLOAT, 1, (const int64_t[]){0}, NULL, 0);
  tfc_tensor *saved = in[3];
  in[3] = empty;
  CHECK(!call_run(&c, "FusedBatchNormV3", 5, in, 6));
  CHECK(strcmp(c.st.msg, "When is_training=false, mean must have the same number of elements as the "
                         "channels of x, got 0 and 3") == 0);
  set_bool(&c, "is_training", true);
  set_float(&c, "exponential_avg_factor", 1.0f);
  CHECK(call_run(&c, "FusedBatchNormV3", 5, in, 6)); /* training with factor 1 ignores them */
  in[3] = saved;
  call_done(&c);
  call_done(&cg);
  tfc_tensor_unref(empty);
  for (int i = 0; i < 5; i++) tfc_tensor_unref(in[i]);
  tfc_tensor_unref(g[0]);
  for (int i = 3; i < 6; i++) tfc_tensor_unref(g[i]);
}

TFC_TEST(conv_fused_batch_norm_nchw_half_and_threads) {
  /* NCHW and half give the NHWC float result (transposed / rounded). */
  const int64_t N = 3, H = 5, W = 7, C = 4;
  const int64_t nhwc[4] = {N, H, W, C}, nchw[4] = {N, C, H, W}, cd[1] = {C};
  tfc_tensor *x = mkr(TFC_DTYPE_FLOAT, 4, nhwc, NULL, 31);
  double *t = tfc_malloc((size_t)x->nelems * sizeof(double));
  for (int64_t n = 0; n < N; n++)
    for (int64_t h = 0; h < H; h++)
      for (int64_t w = 0; w < W; w++)
        for (int64_t c = 0; c < C; c++)
          t[((n * C + c) * H + h) * W + w] = at(x, ((n * H + h) * W + w) * C + c);
  tfc_tensor *xt = mkr(TFC_DTYPE_FLOAT, 4, nchw, t, 0);
  tfc_tensor *xh = mkr(TFC_DTYPE_HALF, 4, nhwc, NULL, 31);
  tfc_tensor *s = mkr(TFC_DTYPE_FLOAT, 1, cd, NULL, 32), *o = mkr(TFC_DTYPE_FLOAT, 1, cd, NULL, 33);
  tfc_tensor *in[5] = {x, s, o, s, o};
  tfc_threadpool *pool = tfc_threadpool_new(2);
  call a, b, h;
  call_init(&a, TFC_DTYPE_FLOAT);
  call_init(&b, TFC_DTYPE_FLOAT);
  call_init(&h, TFC_DTYPE_HALF);
  b.pool = pool;
  set_str(&a, "data_format", "NHWC");
  set_str(&b, "data_format", "NCHW");
  set_str(&h, "data_format", "NHWC");
  h.out_types[1] = h.out_types[2] = h.out_types[3] = h.out_types[4] = TFC_DTYPE_FLOAT;
  CHECK(call_run(&a, "FusedBatchNorm", 5, in, 5));
  in[0] = xt;
  CHECK(call_run(&b, "FusedBatchNormV2", 5, in, 5));
  in[0] = xh;
  CHECK(call_run(&h, "FusedBatchNormV2", 5, in, 5));
  CHECK(h.out[0]->dtype == TFC_DTYPE_HALF);
  for (int64_t n = 0; n < N; n++)
    for (int64_t hh = 0; hh < H; hh++)
      for (int64_t w = 0; w < W; w++)
        for (int64_t c = 0; c < C; c++) {
          double va = at(a.out[0], ((n * H + hh) * W + w) * C + c);
          CHECK_NEAR(at(b.out[0], ((n * C + c) * H + hh) * W + w), va, 1e-5);
          CHECK_NEAR(at(h.out[0], ((n * H + hh) * W + w) * C + c), va, 2e-2 * (1 + fabs(va)));
        }
  for (int i = 1; i < 5; i++)
    for (int64_t c = 0; c < C; c++) CHECK_NEAR(at(b.out[i], c), at(a.out[i], c), 1e-5);
  /* The mean of y is offset and its variance scale^2 * var / (var + eps). */
  for (int64_t c = 0; c < C; c++) {
    double m = 0;
    for (int64_t i = c; i < x->nelems; i += C) m += at(a.out[0], i);
    CHECK_NEAR(m / (N * H * W), at(o, c), 1e-5);
    CHECK_NEAR(at(a.out[2], c) * (N * H * W - 1) / (N * H * W), at(a.out[4], c), 1e-6);
  }
  call_done(&a);
  call_done(&b);
  call_done(&h);
  tfc_threadpool_free(pool);
  tfc_free(t);
  tfc_tensor *all[5] = {x, xt, xh, s, o};
  for (int i = 0; i < 5; i++) tfc_tensor_unref(all[i]);
}

TFC_TEST(conv_fused_batch_norm_grad_finite_differences) {
  /* d/dx of L = sum(y * dy) through the training forward pass. */
  const int64_t xd[4] = {2, 3, 2, 2}, cd[1] = {2};
  tfc_tensor *x = mkr(TFC_DTYPE_FLOAT, 4, xd, NULL, 41), *dy = mkr(TFC_DTYPE_FLOAT, 4, xd, NULL, 42);
  tfc_tensor *s = mkr(TFC_DTYPE_FLOAT, 1, cd, NULL, 43), *o = mkr(TFC_DTYPE_FLOAT, 1, cd, NULL, 44);
  call f, g;
  call_init(&f, TFC_DTYPE_FLOAT);
  call_init(&g, TFC_DTYPE_FLOAT);
  set_str(&f, "data_format", "NHWC");
  set_str(&g, "data_format", "NHWC");
  tfc_tensor *in[5] = {x, s, o, s, o};
  CHECK(call_run(&f, "FusedBatchNorm", 5, in, 5));
  tfc_tensor *gin[5] = {dy, x, s, tfc_tensor_ref(f.out[3]), tfc_tensor_ref(f.out[4])};
  CHECK(call_run(&g, "FusedBatchNormGrad", 5, gin, 5));
  float *xp = x->data;
  for (int64_t i = 0; i < x->nelems; i++) {
    float keep = xp[i];
    double l[2];
    for (int k = 0; k < 2; k++) {
      xp[i] = keep + (k ? 1e-2f : -1e-2f);
      CHECK(call_run(&f, "FusedBatchNorm", 5, in, 5));
      l[k] = dot(f.out[0], dy);
    }
    xp[i] = keep;
    CHECK_NEAR(at(g.out[0], i), (l[1] - l[0]) / 2e-2, 2e-2);
  }
  call_done(&f);
  call_done(&g);
  tfc_tensor *all[6] = {x, dy, s, o, gin[3], gin[4]};
  for (int i = 0; i < 6; i++) tfc_tensor_unref(all[i]);
}

/* ---------------------------------------------------------------- shape functions */

/* Runs op's shape function on n input shapes with the attrs of c; fills out. */
static bool infer(const char *op, call *c, int n, const tfc_shape *in, tfc_tensor **vals,
                  tfc_shape *out) {
  const tfc_op_def *def = tfc_op_lookup(op);
  if (!def) return tfc_status_set(&c->st, TFC_CODE_NOT_FOUND, "no op %s", op);
  tfc_dtype types[6] = {TFC_DTYPE_FLOAT, TFC_DTYPE_FLOAT, TFC_DTYPE_FLOAT,
                        TFC_DTYPE_FLOAT, TFC_DTYPE_FLOAT, TFC_DTYPE_FLOAT};
  tfc_tensor *none[6] = {NULL};
  const char *names[6] = {"a", "b", "c", "d", "e", "f"};
  for (int i = 0; i < 6; i++) out[i] = tfc_shape_unknown();
  tfc_status_clear(&c->st);
  tfc_shape_ctx ctx = {def, &c->attrs, op, n, in, types, vals ? vals : none, def->n_outputs, out,
                       &c->st, names};
  return def->shape_fn(&ctx);
}

/* A 4-D shape. */
static tfc_shape s4(int64_t a, int64_t b, int64_t c, int64_t d) {
  int64_t v[4] = {a, b, c, d};
  return tfc_shape_make(4, v);
}

/* True when s is the 4-D shape (a, b, c, d). */
static bool is4(const tfc_shape *s, int64_t a, int64_t b, int64_t c, int64_t d) {
  return s->rank == 4 && s->dims[0] == a && s->dims[1] == b && s->dims[2] == c && s->dims[3] == d;
}

TFC_TEST(conv_shape_functions) {
  call c;
  call_init(&c, TFC_DTYPE_FLOAT);
  conv_attrs(&c, 2, 2, 1, 1, "SAME");
  tfc_shape in[6], out[6];
  in[0] = s4(8, 224, 224, 3);
  in[1] = s4(7, 7, 3, 64);
  CHECK(infer("Conv2D", &c, 2, in, NULL, out));
  CHECK(is4(&out[0], 8, 112, 112, 64));
  set_str(&c, "padding", "VALID");
  CHECK(infer("Conv2D", &c, 2, in, NULL, out));
  CHECK(is4(&out[0], 8, 109, 109, 64));
  const int64_t d2[4] = {1, 2, 2, 1};
  set_ints(&c, "dilations", 4, d2);
  CHECK(infer("Conv2D", &c, 2, in, NULL, out));
  CHECK(is4(&out[0], 8, 106, 106, 64));
  conv_attrs(&c, 1, 1, 1, 1, "EXPLICIT");
  const int64_t pads[8] = {0, 0, 1, 2, 3, 4, 0, 0};
  set_ints(&c, "explicit_paddings", 8, pads);
  in[0] = s4(-1, 10, -1, 3);
  in[1] = s4(3, 3, 3, -1);
  CHECK(infer("Conv2D", &c, 2, in, NULL, out));
  CHECK(is4(&out[0], -1, 11, -1, -1));
  /* NCHW shapes. */
  conv_attrs(&c, 2, 2, 1, 1, "SAME");
  const int64_t snchw[4] = {1, 1, 2, 2};
  set_ints(&c, "strides", 4, snchw);
  set_str(&c, "data_format", "NCHW");
  in[0] = s4(4, 3, 9, 10);
  in[1] = s4(3, 3, 3, 6);
  CHECK(infer("Conv2D", &c, 2, in, NULL, out));
  CHECK(is4(&out[0], 4, 6, 5, 5));
  /* Build-time errors. */
  conv_attrs(&c, 1, 1, 1, 1, "VALID");
  in[0] = s4(1, 2, 2, 1);
  in[1] = s4(3, 3, 1, 1);
  CHECK(!infer("Conv2D", &c, 2, in, NULL, out));
  CHECK(strstr(c.st.msg, "Negative dimension size caused by subtracting 3 from 2 for '{{node Conv2D}} = "
                         "Conv2D[") == c.st.msg);
  CHECK(strstr(c.st.msg, "with input shapes: [1,2,2,1], [3,3,1,1].") != NULL);
  in[0] = s4(1, 5, 5, 3);
  in[1] = s4(3, 3, 2, 4);
  CHECK(!infer("Conv2D", &c, 2, in, NULL, out));
  CHECK(strstr(c.st.msg, "Depth of input (3) is not a multiple of input depth of filter (2)") == c.st.msg);
  in[0] = tfc_shape_make(3, (const int64_t[]){5, 5, 3});
  CHECK(!infer("Conv2D", &c, 2, in, NULL, out));
  CHECK(strstr(c.st.msg, "Shape must be rank 4 but is rank 3") == c.st.msg);
  const int64_t s3[3] = {1, 1, 1};
  set_ints(&c, "strides", 3, s3);
  in[0] = s4(1, 5, 5, 3);
  in[1] = s4(3, 3, 3, 4);
  CHECK(!infer("Conv2D", &c, 2, in, NULL, out));
  CHECK(strstr(c.st.msg, "Conv2D on data format NHWC requires the stride attribute to contain 4 values, "
                         "but got: 3") == c.st.msg);
  /* Depthwise: out depth = C * multiplier. */
  conv_attrs(&c, 2, 2, 1, 1, "SAME");
  in[0] = s4(2, 9, 9, 3);
  in[1] = s4(3, 3, 3, 2);
  CHECK(infer("DepthwiseConv2dNative", &c, 2, in, NULL, out));
  CHECK(is4(&out[0], 2, 5, 5, 6));
  in[1] = s4(3, 3, 4, 2);
  CHECK(!infer("DepthwiseConv2dNative", &c, 2, in, NULL, out));
  CHECK(strstr(c.st.msg, "Dimensions must be equal, but are 3 and 4") == c.st.msg);
  /* Gradients take their shape from the sizes input when it is constant. */
  const int64_t sz[4] = {2, 9, 9, 3}, sz2[2] = {9, 9};
  tfc_tensor *v4 = ivec(4, sz), *v2 = ivec(2, sz2);
  tfc_tensor *vals[3] = {v4, NULL, NULL};
  in[0] = tfc_shape_make(1, (const int64_t[]){4});
  in[1] = s4(3, 3, 3, 8);
  in[2] = s4(2, 5, 5, 8);
  CHECK(infer("Conv2DBackpropInput", &c, 3, in, vals, out));
  CHECK(is4(&out[0], 2, 9, 9, 3));
  vals[0] = v2;
  in[0] = tfc_shape_make(1, (const int64_t[]){2});
  CHECK(infer("Conv2DBackpropInput", &c, 3, in, vals, out));
  CHECK(is4(&out[0], 2, 9, 9, 3));
  vals[0] = NULL;
  CHECK(infer("Conv2DBackpropInput", &c, 3, in, vals, out));
  CHECK(out[0].rank == 4 && out[0].dims[0] == 2 && out[0].dims[1] == -1 && out[0].dims[3] == 3);
  in[2] = s4(2, 5, 5, 7);
  CHECK(!infer("Conv2DBackpropInput", &c, 3, in, vals, out));
  CHECK(strstr(c.st.msg, "Dimensions must be equal, but are 7 and 8") == c.st.msg);
  tfc_tensor *fvals[3] = {NULL, v4, NULL};
  in[0] = s4(2, 9, 9, 3);
  in[1] = tfc_shape_make(1, (const int64_t[]){4});
  CHECK(infer("Conv2DBackpropFilter", &c, 3, in, fvals, out));
  CHECK(is4(&out[0], 2, 9, 9, 3));
  /* Pools. */
  call p;
  call_init(&p, TFC_DTYPE_FLOAT);
  pool_attrs(&p, 3, 3, 2, 2, "SAME");
  set_ints(&p, "explicit_paddings", 0, NULL);
  in[0] = s4(4, 112, 111, 64);
  CHECK(infer("MaxPool", &p, 1, in, NULL, out));
  CHECK(is4(&out[0], 4, 56, 56, 64));
  CHECK(infer("AvgPool", &p, 1, in, NULL, out));
  CHECK(is4(&out[0], 4, 56, 56, 64));
  set_str(&p, "padding", "VALID");
  CHECK(infer("MaxPool", &p, 1, in, NULL, out));
  CHECK(is4(&out[0], 4, 55, 55, 64));
  in[0] = s4(4, 2, 2, 64);
  CHECK(!infer("MaxPool", &p, 1, in, NULL, out));
  CHECK(strstr(c.st.msg, "") && strstr(p.st.msg, "Negative dimension size caused by subtracting 3 from 2") ==
                                    p.st.msg);
  const int64_t k3[3] = {1, 2, 2};
  set_ints(&p, "ksize", 3, k3);
  CHECK(!infer("AvgPool", &p, 1, in, NULL, out));
  CHECK(strstr(p.st.msg, "AvgPool requires the ksize attribute to contain 4 values, but got: 3") == p.st.msg);
  CHECK(infer("MaxPoolGrad", &p, 3, in, NULL, out));
  CHECK(is4(&out[0], 4, 2, 2, 64));
  /* Batch norm. */
  call b;
  call_init(&b, TFC_DTYPE_FLOAT);
  set_str(&b, "data_format", "NCHW");
  set_bool(&b, "is_training", true);
  set_float(&b, "exponential_avg_factor", 1.0f);
  in[0] = s4(8, -1, 5, 5);
  in[1] = in[2] = tfc_shape_make(1, (const int64_t[]){16});
  in[3] = in[4] = tfc_shape_make(1, (const int64_t[]){0});
  CHECK(infer("FusedBatchNormV3", &b, 5, in, NULL, out));
  CHECK(is4(&out[0], 8, 16, 5, 5) && out[1].dims[0] == 16 && out[4].dims[0] == 16 && out[5].rank < 0);
  set_bool(&b, "is_training", false);
  CHECK(!infer("FusedBatchNormV3", &b, 5, in, NULL, out));
  CHECK(strstr(b.st.msg, "Dimensions must be equal, but are 16 and 0") == b.st.msg);
  in[1] = s4(8, 16, 5, 5);
  in[2] = tfc_shape_make(1, (const int64_t[]){16});
  in[3] = in[4] = tfc_shape_make(1, (const int64_t[]){-1});
  in[0] = s4(8, -1, 5, 5);
  set_bool(&b, "is_training", true);
  CHECK(infer("FusedBatchNormGradV3", &b, 6, in, NULL, out));
  CHECK(is4(&out[0], 8, 16, 5, 5) && out[3].rank == 1 && out[3].dims[0] == 0);
  call_done(&c);
  call_done(&p);
  call_done(&b);
  tfc_tensor_unref(v4);
  tfc_tensor_unref(v2);
}

/* ---------------------------------------------------------------- out of memory */

TFC_TEST(conv_oom_is_a_status) {
  const int64_t xd[4] = {2, 12, 12, 8}, fd[4] = {3, 3, 8, 16}, cd[1] = {8};
  const tfc_dtype types[2] = {TFC_DTYPE_FLOAT, TFC_DTYPE_HALF};
  tfc_threadpool *pool = tfc_threadpool_new(1);
  for (int k = 0; k < 2; k++) {
    tfc_tensor *x = mkr(types[k], 4, xd, NULL, 1), *f = mkr(types[k], 4, fd, NULL, 2);
    tfc_tensor *s = mkr(TFC_DTYPE_FLOAT, 1, cd, NULL, 3);
    tfc_tensor *in[2] = {x, f}, *bn[5] = {x, s, s, s, s};
    for (int n = 1; n < 8; n++) {
      call c;
      call_init(&c, types[k]);
      c.pool = pool;
      conv_attrs(&c, 1, 1, 1, 1, "SAME");
      pool_attrs(&c, 2, 2, 2, 2, "SAME");
      c.out_types[1] = c.out_types[2] = c.out_types[3] = c.out_types[4] = c.out_types[5] = TFC_DTYPE_FLOAT;
      const char *ops[3] = {"Conv2D", "MaxPool", "FusedBatchNormV3"};
      for (int o = 0; o < 3; o++) {
        tfc_alloc_fail_after(n);
        bool ok = call_run(&c, ops[o], o == 2 ? 5 : o == 1 ? 1 : 2, o == 2 ? bn : in, o == 2 ? 6 : 1);
        tfc_alloc_fail_after(0);
        CHECK(ok || c.st.code == TFC_CODE_RESOURCE_EXHAUSTED);
      }
      call_done(&c);
    }
    tfc_tensor_unref(x);
    tfc_tensor_unref(f);
    tfc_tensor_unref(s);
  }
  tfc_threadpool_free(pool);
}
