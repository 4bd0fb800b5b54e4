/*
 * bench_conv_backends.c — compares the convolution and GEMM backends tfc can
 * use: the im2col + BLAS kernels (kernels/conv_gemm.c) and tfc's own
 * depthwise loops (kernels/conv_depthwise.c) against the DNN library
 * (kernels/conv_dnn.c through kernels/dnn_backend.h), on 1 and 2 intra-op
 * threads, and BLAS sgemm against the DNN library's sgemm on the MLP
 * training shapes. Both backends run exactly as the kernels run them
 * (tfc's intra-op pool, the DNN library on one OpenMP thread per call).
 *
 *   make bench-backends            (builds build/bench_conv_backends and runs it)
 *   build/bench_conv_backends [seconds-per-measurement]
 *
 * Prints one Markdown table row per case: median milliseconds per call of
 * several timed batches, and the speed-up of the DNN library over the
 * other path.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/alloc.h"
#include "base/status.h"
#include "base/threadpool.h"
#include "kernels/blas.h"
#include "kernels/conv_internal.h"
#include "kernels/dnn_backend.h"

/* Timing rounds per measurement (the median is reported). */
#define ROUNDS 7

typedef struct bench_case {
  const char *name;
  int64_t n, h, w, c, kh, kw, oc, stride;  /* oc: output channels (depthwise: multiplier) */
  bool depthwise;
} bench_case;

static const bench_case kCases[] = {
    {"cnn conv1 5x5 1->32 28x28", 64, 28, 28, 1, 5, 5, 32, 1, false},
    {"cnn conv2 5x5 32->64 14x14", 64, 14, 14, 32, 5, 5, 64, 1, false},
    {"resnet50 3x3 256->256 14x14", 1, 14, 14, 256, 3, 3, 256, 1, false},
    {"resnet50 3x3 256->256 14x14", 32, 14, 14, 256, 3, 3, 256, 1, false},
    {"resnet50 3x3 64->64 56x56", 1, 56, 56, 64, 3, 3, 64, 1, false},
    {"resnet50 1x1 64->256 56x56", 1, 56, 56, 64, 1, 1, 256, 1, false},
    {"resnet50 1x1 64->256 56x56", 32, 56, 56, 64, 1, 1, 256, 1, false},
    {"resnet50 1x1 1024->256 14x14", 1, 14, 14, 1024, 1, 1, 256, 1, false},
    {"mobilenetv2 dw3x3 144 56x56", 1, 56, 56, 144, 3, 3, 1, 1, true},
    {"mobilenetv2 dw3x3 144 56x56", 32, 56, 56, 144, 3, 3, 1, 1, true},
    {"mobilenetv2 dw3x3 s2 96 112x112", 1, 112, 112, 96, 3, 3, 1, 2, true},
    {"mobilenetv2 dw3x3 s2 96 112x112", 32, 112, 112, 96, 3, 3, 1, 2, true},
};

/* Seconds on the monotonic clock. */
static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* qsort comparator for doubles. */
static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

typedef void (*bench_fn)(void *arg);

/* Median seconds per call of fn(arg) over ROUNDS rounds of about
 * budget / ROUNDS seconds each (after one warm-up call). */
static double time_it(bench_fn fn, void *arg, double budget) {
  fn(arg);
  double t0 = now();
  fn(arg);
  double once = now() - t0;
  int reps = (int)(budget / ROUNDS / (once > 1e-7 ? once : 1e-7));
  if (reps < 1) reps = 1;
  double r[ROUNDS];
  for (int i = 0; i < ROUNDS; i++) {
    t0 = now();
    for (int k = 0; k < reps; k++) fn(arg);
    r[i] = (now() - t0) / reps;
  }
  qsort(r, ROUNDS, sizeof r[0], cmp_double);
  return r[ROUNDS / 2];
}

/* A buffer of n floats filled with values in [-1, 1). */
static float *rand_buf(int64_t n) {
  float *p = tfc_aligned_alloc((size_t)n * sizeof(float));
  if (!p) {
    fprintf(stderr, "out of memory\n");
    exit(1);
  }
  for (int64_t i = 0; i < n; i++) p[i] = (float)rand() / (float)RAND_MAX * 2.0f - 1.0f;
  return p;
}

typedef struct conv_run {
  tfc_kernel_ctx *ctx;
  tfc_conv_dnn_cache *cache;   /* NULL: the BLAS / tfc path */
  const tfc_conv_geom *g;
  tfc_conv_pass pass;
  bool depthwise;
  const float *a, *b;
  float *out;
} conv_run;

/* One pass of one convolution on the chosen backend. */
static void conv_once(void *arg) {
  conv_run *r = arg;
  if (r->cache) {
    if (tfc_conv_dnn_run(r->ctx, r->cache, r->pass, r->depthwise, r->g, r->a, r->b, r->out) != 1) {
      fprintf(stderr, "DNN library failed (%s)\n", r->ctx->st->msg[0] ? r->ctx->st->msg : "unsupported");
      exit(1);
    }
    return;
  }
  tfc_dtype f = TFC_DTYPE_FLOAT;
  if (r->depthwise) {
    if (r->pass == TFC_CONV_FWD) tfc_depthwise_fwd(r->ctx, f, r->g, r->a, r->b, r->out);
    else if (r->pass == TFC_CONV_BWD_INPUT) tfc_depthwise_bwd_input(r->ctx, f, r->g, r->a, r->b, r->out);
    else tfc_depthwise_bwd_filter(r->ctx, f, r->g, r->a, r->b, r->out);
  } else {
    if (r->pass == TFC_CONV_FWD) tfc_conv2d_fwd_gemm(r->ctx, f, r->g, r->a, r->b, r->out);
    else if (r->pass == TFC_CONV_BWD_INPUT) tfc_conv2d_bwd_input_gemm(r->ctx, f, r->g, r->a, r->b, r->out);
    else tfc_conv2d_bwd_filter_gemm(r->ctx, f, r->g, r->a, r->b, r->out);
  }
}

/* The geometry of a case with SAME padding. */
static tfc_conv_geom geom_of(const bench_case *k) {
  tfc_conv_geom g = {.batch = k->n, .in_rows = k->h, .in_cols = k->w, .in_depth = k->c,
                     .filter_rows = k->kh, .filter_cols = k->kw, .stride_rows = k->stride,
                     .stride_cols = k->stride, .dil_rows = 1, .dil_cols = 1};
  g.depth_mult = k->depthwise ? k->oc : 1;
  g.out_depth = k->depthwise ? k->c * k->oc : k->oc;
  g.out_rows = (k->h + k->stride - 1) / k->stride;
  g.out_cols = (k->w + k->stride - 1) / k->stride;
  int64_t pr = (g.out_rows - 1) * k->stride + k->kh - k->h, pc = (g.out_cols - 1) * k->stride + k->kw - k->w;
  if (pr < 0) pr = 0;
  if (pc < 0) pc = 0;
  g.pad_top = pr / 2;
  g.pad_bottom = pr - pr / 2;
  g.pad_left = pc / 2;
  g.pad_right = pc - pc / 2;
  return g;
}

static const char *kPassNames[] = {"fwd", "bwd-input", "bwd-filter"};

/* Times every pass of case k on nt threads and prints one row per pass. */
static void bench_conv(const bench_case *k, int nt, double budget) {
  tfc_conv_geom g = geom_of(k);
  int64_t nin = g.batch * g.in_rows * g.in_cols * g.in_depth;
  int64_t nout = g.batch * g.out_rows * g.out_cols * g.out_depth;
  int64_t nf = g.filter_rows * g.filter_cols * g.in_depth * (k->depthwise ? g.depth_mult : g.out_depth);
  float *in = rand_buf(nin), *f = rand_buf(nf), *dy = rand_buf(nout);
  float *out = rand_buf(nout), *dx = rand_buf(nin), *df = rand_buf(nf);
  tfc_threadpool *pool = nt > 1 ? tfc_threadpool_new(nt - 1) : NULL;
  tfc_status st = {0};
  tfc_kernel_ctx ctx = {.st = &st, .intra_pool = pool};
  tfc_conv_dnn_cache *cache = tfc_conv_dnn_cache_new();
  for (int p = 0; p < 3; p++) {
    conv_run r = {.ctx = &ctx, .g = &g, .pass = (tfc_conv_pass)p, .depthwise = k->depthwise};
    if (p == TFC_CONV_FWD) { r.a = in; r.b = f; r.out = out; }
    else if (p == TFC_CONV_BWD_INPUT) { r.a = f; r.b = dy; r.out = dx; }
    else { r.a = in; r.b = dy; r.out = df; }
    double t_blas = time_it(conv_once, &r, budget);
    r.cache = cache;
    double t_dnn = time_it(conv_once, &r, budget);
    printf("| %s | %lld | %d | %s | %.3f | %.3f | %.2fx |\n", k->name, (long long)k->n, nt,
           kPassNames[p], t_blas * 1e3, t_dnn * 1e3, t_blas / t_dnn);
    fflush(stdout);
  }
  tfc_conv_dnn_cache_free(cache);
  tfc_threadpool_free(pool);
  tfc_aligned_free(in);
  tfc_aligned_free(f);
  tfc_aligned_free(dy);
  tfc_aligned_free(out);
  tfc_aligned_free(dx);
  tfc_aligned_free(df);
}

typedef struct gemm_case {
  const char *name;
  bool ta, tb;
  int64_t m, n, k;
} gemm_case;

/* The GEMMs of one step of the 784-256-10 MLP, batch 128. */
static const gemm_case kGemms[] = {
    {"fwd x*W1 128x784 * 784x256", false, false, 128, 256, 784},
    {"fwd h*W2 128x256 * 256x10", false, false, 128, 10, 256},
    {"dW1 = x^T*dh 784x128 * 128x256", true, false, 784, 256, 128},
    {"dW2 = h^T*dz 256x128 * 128x10", true, false, 256, 10, 128},
    {"dh = dz*W2^T 128x10 * 10x256", false, true, 128, 256, 10},
    {"dx = dh*W1^T 128x256 * 256x784", false, true, 128, 784, 256},
};

typedef struct gemm_run {
  const gemm_case *c;
  bool dnn;
  const float *a, *b;
  float *out;
} gemm_run;

/* One GEMM on the chosen library. */
static void gemm_once(void *arg) {
  gemm_run *r = arg;
  const gemm_case *c = r->c;
  int64_t lda = c->ta ? c->m : c->k, ldb = c->tb ? c->k : c->n;
  if (r->dnn) tfc_dnn_sgemm(c->ta, c->tb, c->m, c->n, c->k, 1.0f, r->a, lda, r->b, ldb, 0.0f, r->out, c->n);
  else tfc_blas_sgemm(c->ta, c->tb, c->m, c->n, c->k, 1.0f, r->a, lda, r->b, ldb, 0.0f, r->out, c->n);
}

/* Main: conv table, then GEMM table. */
int main(int argc, char **argv) {
  double budget = argc > 1 ? atof(argv[1]) : 0.5;
  if (!tfc_dnn_available()) {
    fprintf(stderr, "the DNN library is not usable\n");
    return 1;
  }
  printf("BLAS: %s\nDNN:  %s\n\n", tfc_blas_describe(), tfc_dnn_describe());
  printf("| layer | batch | threads | pass | OpenBLAS/tfc ms | oneDNN ms | oneDNN speed-up |\n");
  printf("|---|---|---|---|---|---|---|\n");
  for (size_t i = 0; i < sizeof kCases / sizeof kCases[0]; i++)
    for (int nt = 1; nt <= 2; nt++) bench_conv(&kCases[i], nt, budget);
  printf("\n| sgemm (row-major, 1 thread) | OpenBLAS us | oneDNN us | oneDNN speed-up |\n");
  printf("|---|---|---|---|\n");
  for (size_t i = 0; i < sizeof kGemms / sizeof kGemms[0]; i++) {
    const gemm_case *c = &kGemms[i];
    float *a = rand_buf(c->m * c->k), *b = rand_buf(c->k * c->n), *out = rand_buf(c->m * c->n);
    gemm_run r = {.c = c, .a = a, .b = b, .out = out};
    double t_blas = time_it(gemm_once, &r, budget);
    r.dnn = true;
    double t_dnn = time_it(gemm_once, &r, budget);
    printf("| %s | %.1f | %.1f | %.2fx |\n", c->name, t_blas * 1e6, t_dnn * 1e6, t_blas / t_dnn);
    tfc_aligned_free(a);
    tfc_aligned_free(b);
    tfc_aligned_free(out);
  }
  return 0;
}
