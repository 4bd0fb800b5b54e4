/*
 * conv_winograd.c — Winograd F(4x4, 3x3) forward convolution for float NHWC
 * tensors: 3x3 filter, stride 1, dilation 1, any padding.
 *
 * Each 4x4 block of output pixels (a tile) comes from a 6x6 block of input
 * pixels. With d the input block, g the 3x3 filter of one (in, out) channel
 * pair, U = G g G^T and V = B^T d B (both 6x6), the tile is A^T (sum over
 * input channels of U .* V) A. The sums over input channels are 36
 * independent matrix products, one per position e of the 6x6 grid:
 * M_e[tiles x K] = V_e[tiles x C] U_e[C x K], run through the BLAS. That is
 * 36 multiply-adds per 16 outputs and channel pair against 144 for a direct
 * convolution; the transforms add memory traffic, so the caller decides
 * where it pays (tfc_wino_wanted).
 *
 * Layout: U is [36][C][K] (made once per constant filter); tiles are
 * processed in blocks, V [36][tiles][C] and M [36][tiles][K] per block. The
 * transforms work on 8 channels at a time (GCC vector extension). The output
 * transform adds the bias and a residual and applies the activation.
 */
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "kernels/blas.h"
#include "kernels/conv_winograd.h"

/* 8-float vectors (GCC/clang vector extensions): an AVX register where the
 * target has AVX, two SSE registers otherwise. They only pass between this
 * file's static functions, so the ABI note compilers give for vector
 * arguments without AVX (-Wpsabi; the sanitizer and fuzz builds have no
 * -march=native) concerns no interface. */
#pragma GCC diagnostic ignored "-Wpsabi"
typedef float v8 __attribute__((vector_size(32)));
typedef int32_t v8i __attribute__((vector_size(32)));

/* Tiles per block: bounds the scratch buffers to 36 * TB * (C + K) floats. */
#define WINO_TILES_MAX 256

/* True when the geometry is one this kernel computes (see header). */
bool tfc_wino_supported(const tfc_conv_geom *g) {
  return g->filter_rows == 3 && g->filter_cols == 3 && g->stride_rows == 1 &&
         g->stride_cols == 1 && g->dil_rows == 1 && g->dil_cols == 1 && g->in_depth % 8 == 0 &&
         g->out_depth % 8 == 0 && g->batch > 0 && g->out_rows > 0 && g->out_cols > 0 &&
         tfc_blas_dims_ok(WINO_TILES_MAX, g->out_depth, g->in_depth, g->in_depth, g->out_depth,
                          g->out_depth);
}

/* Shape rule and switch (see header). */
bool tfc_wino_wanted(const tfc_conv_geom *g) {
  const char *e = getenv("TFC_CONV_WINOGRAD");
  if (e && strcmp(e, "0") == 0) return false;
  if (!tfc_wino_supported(g)) return false;
  /* Measured (docs/compute.md): faster than the library's direct AVX2
   * kernels where there are enough tiles per filter byte. */
  return g->out_rows >= 14 && g->out_cols >= 14 && g->in_depth >= 32 && g->out_depth >= 32;
}

/* Filter transform U = G g G^T for every channel pair (see header). */
void tfc_wino_filter(const float *w, int64_t C, int64_t K, float *u) {
  static const float G[6][3] = {{1.f / 4, 0, 0},
                                {-1.f / 6, -1.f / 6, -1.f / 6},
                                {-1.f / 6, 1.f / 6, -1.f / 6},
                                {1.f / 24, 1.f / 12, 1.f / 6},
                                {1.f / 24, -1.f / 12, 1.f / 6},
                                {0, 0, 1}};
  int64_t CK = C * K;
  for (int64_t ck = 0; ck < CK; ck++) {
    float gg[3][3], t[6][3];
    for (int r = 0; r < 3; r++)
      for (int c = 0; c < 3; c++) gg[r][c] = w[(r * 3 + c) * CK + ck];
    for (int i = 0; i < 6; i++)
      for (int c = 0; c < 3; c++)
        t[i][c] = G[i][0] * gg[0][c] + G[i][1] * gg[1][c] + G[i][2] * gg[2][c];
    for (int i = 0; i < 6; i++)
      for (int j = 0; j < 6; j++)
        u[(i * 6 + j) * CK + ck] = t[i][0] * G[j][0] + t[i][1] * G[j][1] + t[i][2] * G[j][2];
  }
}

/* One-dimensional input transform B^T x of six vectors into y (stride sy). */
static inline void bt6(const v8 x[6], v8 *y, int sy) {
  y[0 * sy] = 4 * x[0] - 5 * x[2] + x[4];
  y[1 * sy] = -4 * (x[1] + x[2]) + x[3] + x[4];
  y[2 * sy] = 4 * (x[1] - x[2]) - x[3] + x[4];
  y[3 * sy] = 2 * (x[3] - x[1]) - x[2] + x[4];
  y[4 * sy] = 2 * (x[1] - x[3]) - x[2] + x[4];
  y[5 * sy] = 4 * x[1] - 5 * x[3] + x[5];
}

/* One-dimensional output transform A^T x of six vectors into four. */
static inline void at6(const v8 x[6], v8 y[4]) {
  v8 a = x[1] + x[2], b = x[1] - x[2], c = x[3] + x[4], d = x[3] - x[4];
  y[0] = x[0] + a + c;
  y[1] = b + 2 * d;
  y[2] = a + 4 * c;
  y[3] = b + 8 * d + x[5];
}

static inline v8 load8(const float *p) {
  v8 v;
  memcpy(&v, p, sizeof v);
  return v;
}

static inline void store8(float *p, v8 v) { memcpy(p, &v, sizeof v); }

typedef struct wino_ctx {
  const tfc_conv_geom *g;
  int64_t tiles_r, tiles_c, tiles_img;
} wino_ctx;

/* Input transform of tiles [t0, t0 + nt) into v [36][nt][C]. */
static void input_tf(const wino_ctx *x, const float *in, int64_t t0, int64_t nt, float *v) {
  const tfc_conv_geom *g = x->g;
  int64_t C = g->in_depth, H = g->in_rows, W = g->in_cols;
  int64_t estride = nt * C;
  for (int64_t t = 0; t < nt; t++) {
    int64_t tt = t0 + t, n = tt / x->tiles_img, r = tt % x->tiles_img;
    int64_t ih0 = (r / x->tiles_c) * 4 - g->pad_top, iw0 = (r % x->tiles_c) * 4 - g->pad_left;
    const float *img = in + n * H * W * C;
    bool inside = ih0 >= 0 && iw0 >= 0 && ih0 + 6 <= H && iw0 + 6 <= W;
    for (int64_t c = 0; c < C; c += 8) {
      v8 d[6][6], tmp[6][6];
      for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++) {
          int64_t ih = ih0 + i, iw = iw0 + j;
          if (inside || (ih >= 0 && ih < H && iw >= 0 && iw < W))
            d[i][j] = load8(img + (ih * W + iw) * C + c);
          else
            d[i][j] = (v8){0};
        }
      /* Columns: tmp[.][j] = B^T d[.][j]; then rows. */
      for (int j = 0; j < 6; j++) {
        v8 col[6] = {d[0][j], d[1][j], d[2][j], d[3][j], d[4][j], d[5][j]};
        bt6(col, &tmp[0][j], 6);
      }
      for (int i = 0; i < 6; i++) {
        v8 o[6];
        bt6(tmp[i], o, 1);
        float *dst = v + (i * 6) * estride + t * C + c;
        for (int j = 0; j < 6; j++) store8(dst + j * estride, o[j]);
      }
    }
  }
}

/* Output transform of tiles [t0, t0 + nt) from m [36][nt][K], with the
 * epilogue, into out. */
static void output_tf(const wino_ctx *x, const float *m, int64_t t0, int64_t nt,
                      const float *bias, const float *residual, tfc_conv_act act, float *out) {
  const tfc_conv_geom *g = x->g;
  int64_t K = g->out_depth, OH = g->out_rows, OW = g->out_cols;
  int64_t estride = nt * K;
  for (int64_t t = 0; t < nt; t++) {
    int64_t tt = t0 + t, n = tt / x->tiles_img, r = tt % x->tiles_img;
    int64_t oh0 = (r / x->tiles_c) * 4, ow0 = (r % x->tiles_c) * 4;
    int64_t rows = OH - oh0 < 4 ? OH - oh0 : 4, cols = OW - ow0 < 4 ? OW - ow0 : 4;
    float *img = out + n * OH * OW * K;
    const float *rimg = residual ? residual + n * OH * OW * K : NULL;
    for (int64_t k = 0; k < K; k += 8) {
      v8 tmp[4][6];
      const float *src = m + t * K + k;
      for (int j = 0; j < 6; j++) {
        v8 col[6], o[4];
        for (int i = 0; i < 6; i++) col[i] = load8(src + (i * 6 + j) * estride);
        at6(col, o);
        for (int i = 0; i < 4; i++) tmp[i][j] = o[i];
      }
      v8 b = bias ? load8(bias + k) : (v8){0};
      for (int i = 0; i < rows; i++) {
        v8 o[4];
        at6(tmp[i], o);
        for (int j = 0; j < cols; j++) {
          int64_t off = ((oh0 + i) * OW + ow0 + j) * K + k;
          v8 y = o[j] + b;
          if (rimg) y += load8(rimg + off);
          if (act != TFC_CONV_ACT_NONE) {
            v8 z = {0};
            y = (v8)((v8i)y & (y > z));
            if (act == TFC_CONV_ACT_RELU6) {
              v8 six = z + 6;
              v8i lt = y < six;
              y = (v8)(((v8i)y & lt) | ((v8i)six & ~lt));
            }
          }
          store8(img + off, y);
        }
      }
    }
  }
}

/* Scratch floats one call of tfc_wino_run needs (see header). */
int64_t tfc_wino_scratch_floats(const tfc_conv_geom *g, int64_t t0, int64_t t1) {
  int64_t nt = t1 - t0 < WINO_TILES_MAX ? t1 - t0 : WINO_TILES_MAX;
  return 36 * nt * (g->in_depth + g->out_depth);
}

/* Number of tiles of a geometry (see header). */
int64_t tfc_wino_tiles(const tfc_conv_geom *g) {
  return g->batch * ((g->out_rows + 3) / 4) * ((g->out_cols + 3) / 4);
}

/* The convolution of tiles [t0, t1) (see header). */
void tfc_wino_run(const tfc_conv_geom *g, const float *in, const float *u, const float *bias,
                  const float *residual, tfc_conv_act act, int64_t t0, int64_t t1, float *scratch,
                  float *out) {
  wino_ctx x = {.g = g, .tiles_r = (g->out_rows + 3) / 4, .tiles_c = (g->out_cols + 3) / 4};
  x.tiles_img = x.tiles_r * x.tiles_c;
  int64_t C = g->in_depth, K = g->out_depth;
  for (int64_t b = t0; b < t1; b += WINO_TILES_MAX) {
    int64_t nt = t1 - b < WINO_TILES_MAX ? t1 - b : WINO_TILES_MAX;
    float *v = scratch, *m = scratch + 36 * nt * C;
    input_tf(&x, in, b, nt, v);
    for (int e = 0; e < 36; e++)
      tfc_blas_sgemm(false, false, nt, K, C, 1.f, v + e * nt * C, C, u + e * C * K, K, 0.f,
                     m + e * nt * K, K);
    output_tf(&x, m, b, nt, bias, residual, act, out);
  }
}
