/*
 * test_conv_winograd.c — the Winograd F(4x4, 3x3) kernel
 * (kernels/conv_winograd.c) against the direct reference loops plus a plain
 * epilogue: odd sizes (partial tiles), batch > 1, SAME / VALID / explicit
 * padding, bias, residual, Relu and Relu6, and tile ranges run separately;
 * which geometries it accepts; the TFC_CONV_WINOGRAD switch.
 * Test names start with "conv_winograd_" (make ctest T=conv_winograd_).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "base/alloc.h"
#include "harness.h"
#include "kernels/conv_internal.h"
#include "kernels/conv_winograd.h"

/* Deterministic pseudo-random floats in [-1, 1). */
static float *rand_floats(int64_t n, uint64_t seed) {
  float *p = tfc_aligned_alloc((size_t)(n > 0 ? n : 1) * sizeof(float));
  for (int64_t i = 0; p && i < n; i++) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    p[i] = (float)((double)(seed >> 11) / (double)(1ULL << 52) - 1.0);
  }
  return p;
}

/* A 3x3 stride-1 geometry: n h w c -> o with paddings top/bottom/left/right
 * (output size from them). */
static tfc_conv_geom geom(int64_t n, int64_t h, int64_t w, int64_t c, int64_t o, int64_t pt,
                          int64_t pb, int64_t pl, int64_t pr) {
  return (tfc_conv_geom){.batch = n, .in_rows = h, .in_cols = w, .in_depth = c,
                         .filter_rows = 3, .filter_cols = 3, .out_depth = o, .depth_mult = 1,
                         .out_rows = h + pt + pb - 2, .out_cols = w + pl + pr - 2,
                         .stride_rows = 1, .stride_cols = 1, .dil_rows = 1, .dil_cols = 1,
                         .pad_top = pt, .pad_bottom = pb, .pad_left = pl, .pad_right = pr};
}

/* Runs geometry *g through Winograd (tiles split into `parts` ranges) and
 * through the reference with the epilogue; returns the largest
 * |a - b| / (1 + |b|). */
static double wino_vs_ref(const tfc_conv_geom *g, bool bias, bool residual, tfc_conv_act act,
                          int parts) {
  int64_t nin = g->batch * g->in_rows * g->in_cols * g->in_depth;
  int64_t nout = g->batch * g->out_rows * g->out_cols * g->out_depth;
  int64_t nw = 9 * g->in_depth * g->out_depth;
  float *x = rand_floats(nin, 1), *w = rand_floats(nw, 2), *b = rand_floats(g->out_depth, 3);
  float *r = rand_floats(nout, 4), *y1 = rand_floats(nout, 5), *y2 = rand_floats(nout, 6);
  float *u = tfc_aligned_alloc((size_t)(36 * g->in_depth * g->out_depth) * sizeof(float));
  for (int64_t i = 0; i < nw; i++) w[i] *= 0.3f; /* outputs straddle 0 and 6 */
  tfc_wino_filter(w, g->in_depth, g->out_depth, u);
  int64_t tiles = tfc_wino_tiles(g);
  for (int p = 0; p < parts; p++) {
    int64_t t0 = tiles * p / parts, t1 = tiles * (p + 1) / parts;
    float *scratch =
        tfc_aligned_alloc((size_t)tfc_wino_scratch_floats(g, t0, t1) * sizeof(float) + 64);
    tfc_wino_run(g, x, u, bias ? b : NULL, residual ? r : NULL, act, t0, t1, scratch, y1);
    tfc_aligned_free(scratch);
  }
  tfc_conv2d_fwd_ref(TFC_DTYPE_FLOAT, g, x, w, y2);
  double m = 0;
  for (int64_t i = 0; i < nout; i++) {
    double v = y2[i] + (bias ? b[i % g->out_depth] : 0) + (residual ? r[i] : 0);
    if (act != TFC_CONV_ACT_NONE) v = v > 0 ? v : 0;
    if (act == TFC_CONV_ACT_RELU6) v = v < 6 ? v : 6;
    double e = fabs(y1[i] - v) / (1 + fabs(v));
    if (!(e <= m)) m = e != e ? INFINITY : e;
  }
  tfc_aligned_free(x), tfc_aligned_free(w), tfc_aligned_free(b), tfc_aligned_free(r);
  tfc_aligned_free(y1), tfc_aligned_free(y2), tfc_aligned_free(u);
  return m;
}

TFC_TEST(conv_winograd_matches_reference) {
  /* n h w c o pt pb pl pr */
  static const int64_t cases[][9] = {
      {1, 8, 8, 8, 8, 1, 1, 1, 1},      {1, 7, 9, 8, 16, 1, 1, 1, 1},
      {3, 13, 11, 16, 8, 1, 1, 1, 1},   {2, 6, 6, 8, 8, 0, 0, 0, 0},
      {1, 17, 5, 24, 32, 0, 0, 0, 0},   {2, 10, 12, 8, 24, 2, 0, 1, 3},
      {1, 14, 14, 64, 64, 1, 1, 1, 1},  {1, 3, 3, 8, 8, 1, 1, 1, 1},
      {300, 4, 4, 8, 8, 1, 1, 1, 1},
  };
  int n = (int)(sizeof cases / sizeof cases[0]);
  for (int i = 0; i < n; i++) {
    const int64_t *k = cases[i];
    tfc_conv_geom g = geom(k[0], k[1], k[2], k[3], k[4], k[5], k[6], k[7], k[8]);
    CHECK(tfc_wino_supported(&g));
    for (int v = 0; v < 4; v++) {
      tfc_conv_act act = v == 1 ? TFC_CONV_ACT_RELU : v == 2 ? TFC_CONV_ACT_RELU6
                                                               : TFC_CONV_ACT_NONE;
      double e = wino_vs_ref(&g, v != 0, v == 3, act, 1 + v % 3);
      if (!(e < 5e-5)) fprintf(stderr, "case %d variant %d: error %g\n", i, v, e);
      CHECK(e < 5e-5); /* F(4x4, 3x3) rounds a little more than direct sums */
    }
  }
}

TFC_TEST(conv_winograd_supported_shapes) {
  tfc_conv_geom g = geom(1, 8, 8, 8, 8, 1, 1, 1, 1);
  CHECK(tfc_wino_supported(&g));
  tfc_conv_geom s = g;
  s.stride_rows = s.stride_cols = 2;
  CHECK(!tfc_wino_supported(&s));
  s = g;
  s.dil_rows = 2;
  CHECK(!tfc_wino_supported(&s));
  s = g;
  s.filter_rows = s.filter_cols = 5;
  CHECK(!tfc_wino_supported(&s));
  s = geom(1, 8, 8, 3, 8, 1, 1, 1, 1);
  CHECK(!tfc_wino_supported(&s));
  s = geom(1, 8, 8, 8, 12, 1, 1, 1, 1);
  CHECK(!tfc_wino_supported(&s));
  /* the measured rule: 14x14+ outputs with 32+ channels each way */
  tfc_conv_geom big = geom(1, 56, 56, 64, 64, 1, 1, 1, 1);
  tfc_conv_geom small = geom(1, 7, 7, 512, 512, 1, 1, 1, 1);
  CHECK(tfc_wino_wanted(&big));
  CHECK(!tfc_wino_wanted(&small));
  setenv("TFC_CONV_WINOGRAD", "0", 1);
  CHECK(!tfc_wino_wanted(&big));
  unsetenv("TFC_CONV_WINOGRAD");
  CHECK(tfc_wino_wanted(&big));
}
