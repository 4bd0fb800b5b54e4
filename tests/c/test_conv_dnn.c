/*
 * test_conv_dnn.c — float convolutions through the DNN library
 * (kernels/conv_dnn.c): Conv2D's three passes against the direct reference
 * loops and the depthwise passes against tfc's own depthwise kernels, on
 * many shapes (strides, dilations, SAME/VALID/explicit padding, odd batch
 * splits) with 1-3 intra-op threads; the primitive cache; the backend
 * switch; and that the library starts no threads of its own.
 * Test names start with "conv_dnn_" (make ctest T=conv_dnn_).
 */
#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/alloc.h"
#include "base/threadpool.h"
#include "harness.h"
#include "kernels/conv_internal.h"
#include "kernels/kernel.h"

/* Deterministic pseudo-random floats in [-1, 1). */
static float *rand_floats(int64_t n, uint64_t seed) {
  float *p = tfc_aligned_alloc((size_t)(n > 0 ? n : 1) * sizeof(float));
  for (int64_t i = 0; p && i < n; i++) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    p[i] = (float)((double)(seed >> 11) / (double)(1ULL << 52) - 1.0);
  }
  return p;
}

/* Largest |a - b| / (1 + |b|) over n floats. */
static double max_rel_err(const float *a, const float *b, int64_t n) {
  double m = 0;
  for (int64_t i = 0; i < n; i++) {
    double e = fabs((double)a[i] - (double)b[i]) / (1 + fabs((double)b[i]));
    if (e > m || e != e) m = e != e ? INFINITY : e;
  }
  return m;
}

/* A case: n h w c kh kw o(or multiplier) sh sw dh dw, padding 0 VALID /
 * 1 SAME / 2 EXPLICIT with pt pb pl pr. */
typedef struct dnn_case {
  int64_t n, h, w, c, kh, kw, o, sh, sw, dh, dw;
  int pad;
  int64_t pt, pb, pl, pr;
} dnn_case;

/* One output size (TF's rule) and its leading padding. */
static int64_t out_size(int64_t in, int64_t k, int64_t d, int64_t s, int pad, int64_t *before,
                        int64_t *after) {
  int64_t eff = (k - 1) * d + 1;
  if (pad == 1) {
    int64_t o = (in + s - 1) / s, need = (o - 1) * s + eff - in;
    *before = need > 0 ? need / 2 : 0;
    *after = need > 0 ? need - need / 2 : 0;
    return o;
  }
  if (pad == 0) *before = *after = 0;
  return (in + *before + *after - eff + s) / s;
}

/* The geometry of a case (depthwise: o is the multiplier). */
static tfc_conv_geom geom_of(const dnn_case *k, bool depthwise) {
  tfc_conv_geom g = {.batch = k->n, .in_rows = k->h, .in_cols = k->w, .in_depth = k->c,
                     .filter_rows = k->kh, .filter_cols = k->kw, .stride_rows = k->sh,
                     .stride_cols = k->sw, .dil_rows = k->dh, .dil_cols = k->dw,
                     .pad_top = k->pt, .pad_bottom = k->pb, .pad_left = k->pl,
                     .pad_right = k->pr};
  g.depth_mult = depthwise ? k->o : 1;
  g.out_depth = depthwise ? k->c * k->o : k->o;
  g.out_rows = out_size(k->h, k->kh, k->dh, k->sh, k->pad, &g.pad_top, &g.pad_bottom);
  g.out_cols = out_size(k->w, k->kw, k->dw, k->sw, k->pad, &g.pad_left, &g.pad_right);
  return g;
}

static const dnn_case kCases[] = {
    {1, 5, 5, 3, 3, 3, 4, 1, 1, 1, 1, 1, 0, 0, 0, 0},
    {3, 7, 6, 5, 3, 3, 8, 2, 2, 1, 1, 1, 0, 0, 0, 0},     /* odd batch split */
    {3, 8, 8, 4, 1, 1, 6, 1, 1, 1, 1, 0, 0, 0, 0, 0},     /* pointwise */
    {2, 9, 9, 3, 1, 1, 5, 2, 2, 1, 1, 0, 0, 0, 0, 0},     /* 1x1 stride 2 */
    {1, 10, 11, 2, 5, 3, 3, 2, 3, 1, 1, 0, 0, 0, 0, 0},   /* VALID with a remainder */
    {2, 9, 9, 3, 3, 3, 4, 1, 1, 2, 2, 1, 0, 0, 0, 0},     /* dilated */
    {2, 6, 7, 3, 3, 3, 5, 1, 2, 1, 1, 2, 1, 2, 0, 3},     /* explicit, asymmetric */
    {1, 3, 3, 2, 4, 4, 3, 1, 1, 1, 1, 1, 0, 0, 0, 0},     /* filter larger than input */
    {4, 28, 28, 1, 5, 5, 32, 1, 1, 1, 1, 1, 0, 0, 0, 0},  /* one input channel */
    {5, 14, 14, 32, 5, 5, 64, 1, 1, 1, 1, 1, 0, 0, 0, 0}, /* big enough to split */
};

/* Passes the library took in conv_vs_ref (the rest went to the BLAS kernels,
 * as the Conv2D kernels do when tfc_conv_dnn_run declines). */
static int g_dnn_passes;

/* One Conv2D pass through the library, or the BLAS kernel when it declines;
 * false on failure. */
static bool conv_pass(tfc_kernel_ctx *ctx, tfc_conv_dnn_cache *cache, tfc_conv_pass pass,
                      const tfc_conv_geom *g, const float *a, const float *b, float *out) {
  int rc = tfc_conv_dnn_run(ctx, cache, pass, false, g, a, b, out);
  if (rc != 0) {
    g_dnn_passes += rc > 0;
    return rc > 0;
  }
  tfc_dtype f = TFC_DTYPE_FLOAT;
  if (pass == TFC_CONV_FWD) return tfc_conv2d_fwd_gemm(ctx, f, g, a, b, out);
  if (pass == TFC_CONV_BWD_INPUT) return tfc_conv2d_bwd_input_gemm(ctx, f, g, a, b, out);
  return tfc_conv2d_bwd_filter_gemm(ctx, f, g, a, b, out);
}

/* Runs the three passes of Conv2D case k on pool (the library where it takes
 * them) and compares them with the reference loops; returns the largest
 * relative error (INFINITY when a pass failed). */
static double conv_vs_ref(const dnn_case *k, tfc_threadpool *pool, tfc_conv_dnn_cache *cache) {
  tfc_conv_geom g = geom_of(k, false);
  int64_t nx = g.batch * g.in_rows * g.in_cols * g.in_depth;
  int64_t nf = g.filter_rows * g.filter_cols * g.in_depth * g.out_depth;
  int64_t ny = g.batch * g.out_rows * g.out_cols * g.out_depth;
  float *x = rand_floats(nx, 1), *f = rand_floats(nf, 2), *dy = rand_floats(ny, 3);
  float *y1 = rand_floats(ny, 4), *y2 = rand_floats(ny, 5), *dx1 = rand_floats(nx, 6);
  float *dx2 = rand_floats(nx, 7), *df1 = rand_floats(nf, 8), *df2 = rand_floats(nf, 9);
  tfc_status st;
  tfc_status_clear(&st);
  tfc_kernel_ctx ctx = {.node_name = "test", .op_type = "test", .st = &st, .intra_pool = pool};
  double err = INFINITY;
  if (conv_pass(&ctx, cache, TFC_CONV_FWD, &g, x, f, y1) &&
      conv_pass(&ctx, cache, TFC_CONV_BWD_INPUT, &g, f, dy, dx1) &&
      conv_pass(&ctx, cache, TFC_CONV_BWD_FILTER, &g, x, dy, df1)) {
    tfc_conv2d_fwd_ref(TFC_DTYPE_FLOAT, &g, x, f, y2);
    tfc_conv2d_bwd_input_ref(TFC_DTYPE_FLOAT, &g, f, dy, dx2);
    tfc_conv2d_bwd_filter_ref(TFC_DTYPE_FLOAT, &g, x, dy, df2);
    err = fmax(max_rel_err(y1, y2, ny), fmax(max_rel_err(dx1, dx2, nx), max_rel_err(df1, df2, nf)));
  }
  float *all[9] = {x, f, dy, y1, y2, dx1, dx2, df1, df2};
  for (int i = 0; i < 9; i++) tfc_aligned_free(all[i]);
  return err;
}

TFC_TEST(conv_dnn_conv2d_matches_reference) {
  if (!tfc_conv_dnn_wanted()) return; /* library not usable or switched off */
  tfc_threadpool *pools[3] = {NULL, tfc_threadpool_new(1), tfc_threadpool_new(2)};
  tfc_conv_dnn_cache *cache = tfc_conv_dnn_cache_new();
  CHECK(cache != NULL);
  g_dnn_passes = 0;
  int n = (int)(sizeof kCases / sizeof kCases[0]);
  for (int i = 0; i < n; i++)
    for (int p = 0; p < 3; p++) {
      double e = conv_vs_ref(&kCases[i], pools[p], cache);
      if (!(e < 1e-4)) fprintf(stderr, "case %d pool %d: error %g\n", i, p, e);
      CHECK(e < 1e-4);
    }
  CHECK(g_dnn_passes > n * 3 * 3 * 3 / 4); /* the library took most passes */
  tfc_conv_dnn_cache_free(cache);
  tfc_threadpool_free(pools[1]);
  tfc_threadpool_free(pools[2]);
}

TFC_TEST(conv_dnn_depthwise_matches_tfc_kernels) {
  if (!tfc_conv_dnn_wanted()) return;
  /* n h w c kh kw mult sh sw dh dw pad */
  const dnn_case cases[] = {
      {1, 5, 5, 3, 3, 3, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0},
      {3, 8, 7, 4, 3, 3, 2, 2, 2, 1, 1, 1, 0, 0, 0, 0},
      {3, 9, 9, 5, 3, 2, 3, 1, 2, 2, 1, 0, 0, 0, 0, 0},
      {2, 6, 6, 8, 5, 5, 1, 1, 1, 1, 1, 2, 2, 1, 0, 2},
      {4, 32, 32, 16, 3, 3, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0},
      {2, 56, 56, 24, 3, 3, 1, 2, 2, 1, 1, 1, 0, 0, 0, 0},
  };
  tfc_threadpool *pools[2] = {NULL, tfc_threadpool_new(2)};
  tfc_conv_dnn_cache *cache = tfc_conv_dnn_cache_new();
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    for (int p = 0; p < 2; p++) {
      tfc_conv_geom g = geom_of(&cases[i], true);
      int64_t nx = g.batch * g.in_rows * g.in_cols * g.in_depth;
      int64_t nf = g.filter_rows * g.filter_cols * g.in_depth * g.depth_mult;
      int64_t ny = g.batch * g.out_rows * g.out_cols * g.out_depth;
      float *x = rand_floats(nx, 11), *f = rand_floats(nf, 12), *dy = rand_floats(ny, 13);
      float *y1 = rand_floats(ny, 1), *y2 = rand_floats(ny, 2), *dx1 = rand_floats(nx, 3);
      float *dx2 = rand_floats(nx, 4), *df1 = rand_floats(nf, 5), *df2 = rand_floats(nf, 6);
      tfc_status st;
      tfc_status_clear(&st);
      tfc_kernel_ctx ctx = {.node_name = "t", .op_type = "t", .st = &st, .intra_pool = pools[p]};
      CHECK_EQ_INT(tfc_conv_dnn_run(&ctx, cache, TFC_CONV_FWD, true, &g, x, f, y1), 1);
      CHECK_EQ_INT(tfc_conv_dnn_run(&ctx, cache, TFC_CONV_BWD_INPUT, true, &g, f, dy, dx1), 1);
      CHECK_EQ_INT(tfc_conv_dnn_run(&ctx, cache, TFC_CONV_BWD_FILTER, true, &g, x, dy, df1), 1);
      tfc_depthwise_fwd(&ctx, TFC_DTYPE_FLOAT, &g, x, f, y2);
      tfc_depthwise_bwd_input(&ctx, TFC_DTYPE_FLOAT, &g, f, dy, dx2);
      CHECK(tfc_depthwise_bwd_filter(&ctx, TFC_DTYPE_FLOAT, &g, x, dy, df2));
      double e = fmax(max_rel_err(y1, y2, ny),
                      fmax(max_rel_err(dx1, dx2, nx), max_rel_err(df1, df2, nf)));
      if (!(e < 1e-4)) fprintf(stderr, "depthwise case %zu pool %d: error %g\n", i, p, e);
      CHECK(e < 1e-4);
      float *all[9] = {x, f, dy, y1, y2, dx1, dx2, df1, df2};
      for (int k = 0; k < 9; k++) tfc_aligned_free(all[k]);
    }
  tfc_conv_dnn_cache_free(cache);
  tfc_threadpool_free(pools[1]);
}

/* Number of threads of this process. */
static int thread_count(void) {
  DIR *d = opendir("/proc/self/task");
  if (!d) return -1;
  int n = 0;
  for (struct dirent *e; (e = readdir(d));)
    if (e->d_name[0] != '.') n++;
  closedir(d);
  return n;
}

TFC_TEST(conv_dnn_starts_no_threads) {
  /* The library runs on the calling thread: OpenMP must never start a team
   * (fork safety). A big convolution without a pool leaves the count alone. */
  if (!tfc_conv_dnn_wanted()) return;
  int before = thread_count();
  tfc_conv_dnn_cache *cache = tfc_conv_dnn_cache_new();
  dnn_case k = {8, 14, 14, 32, 5, 5, 64, 1, 1, 1, 1, 1, 0, 0, 0, 0};
  CHECK(conv_vs_ref(&k, NULL, cache) < 1e-4);
  tfc_conv_dnn_cache_free(cache);
  /* An OpenMP team would stay for good; a thread of someone else's that is
   * just starting or ending (the process is shared with the other tests) is
   * gone within moments, so wait up to a second for the count to settle. */
  int after = thread_count();
  for (int i = 0; i < 100 && after > before; i++) {
    struct timespec ts = {0, 10 * 1000 * 1000};
    nanosleep(&ts, NULL);
    after = thread_count();
  }
  CHECK(after <= before);
}

TFC_TEST(conv_dnn_backend_switch) {
  const char *old = getenv("TFC_CONV_BACKEND");
  char *saved = old ? strdup(old) : NULL;
  setenv("TFC_CONV_BACKEND", "openblas", 1);
  CHECK(!tfc_conv_dnn_wanted());
  /* No cache means "not handled": the caller falls back to its own kernel. */
  tfc_status st;
  tfc_status_clear(&st);
  tfc_kernel_ctx ctx = {.node_name = "t", .op_type = "t", .st = &st};
  dnn_case k = {1, 5, 5, 3, 3, 3, 4, 1, 1, 1, 1, 1, 0, 0, 0, 0};
  tfc_conv_geom g = geom_of(&k, false);
  float buf[256] = {0};
  CHECK_EQ_INT(tfc_conv_dnn_run(&ctx, NULL, TFC_CONV_FWD, false, &g, buf, buf, buf), 0);
  if (saved) setenv("TFC_CONV_BACKEND", saved, 1);
  else unsetenv("TFC_CONV_BACKEND");
  free(saved);
}
