/*
 * conv_dnn.c — float convolutions through the DNN library
 * (kernels/dnn_backend.h), split across tfc's intra-op pool, with the
 * primitives each kernel instance needs cached in its state.
 *
 * The library runs every call on one thread (see dnn_backend.h), so the
 * parallelism is cut here: the batch is split into as many contiguous runs
 * of images as the pool has threads, each run one primitive call. For the
 * filter gradient each run writes its own partial gradient (the first one
 * straight into the output) and the partials are added at the end.
 *
 * Runs of a split differ by at most one image, so a kernel needs at most
 * two primitives per input shape; the cache keeps a few shapes per kernel
 * instance and creates a throwaway primitive once it is full.
 *
 * A forward filter the caller declares constant (a Const in a frozen graph,
 * or weights a fused kernel folded once) is reordered to the library's
 * layout once per cached primitive and kept with it, keyed by its address;
 * any other filter is reordered on every call.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "kernels/conv_internal.h"
#include "kernels/dnn_backend.h"

/* Shapes cached per kernel instance. */
#define CACHE_SLOTS 8
/* Below this many multiply-adds a convolution runs on one thread. */
#define PAR_MACS ((int64_t)1 << 20)

typedef struct dnn_slot {
  tfc_conv_pass pass;
  bool depthwise;
  bool bias;             /* forward only: a bias, a residual add and an activation post-op */
  bool residual;
  tfc_conv_act act;
  tfc_conv_geom g;
  tfc_dnn_conv *p;       /* NULL: the library does not support this shape */
  const float *wsrc;     /* the constant filter prepared in wlib, or NULL */
  void *wlib;            /* wsrc in the library's layout (set once, never changed) */
} dnn_slot;

struct tfc_conv_dnn_cache {
  pthread_mutex_t mu;
  int n;
  dnn_slot slots[CACHE_SLOTS];
};

/* Backend choice (see conv_internal.h). */
bool tfc_conv_dnn_wanted(void) {
  const char *b = getenv("TFC_CONV_BACKEND");
  if (b && strcmp(b, "openblas") == 0) return false;
  return tfc_dnn_available();
}

/* New empty cache (see conv_internal.h). */
tfc_conv_dnn_cache *tfc_conv_dnn_cache_new(void) {
  tfc_conv_dnn_cache *c = tfc_calloc(1, sizeof *c);
  if (c) pthread_mutex_init(&c->mu, NULL);
  return c;
}

/* Frees a cache and its primitives (see conv_internal.h). */
void tfc_conv_dnn_cache_free(tfc_conv_dnn_cache *c) {
  if (!c) return;
  for (int i = 0; i < c->n; i++) {
    tfc_dnn_conv_free(c->slots[i].p);
    tfc_aligned_free(c->slots[i].wlib);
  }
  pthread_mutex_destroy(&c->mu);
  tfc_free(c);
}

/* True when two geometries describe the same convolution. */
static bool geom_eq(const tfc_conv_geom *a, const tfc_conv_geom *b) {
  return memcmp(a, b, sizeof *a) == 0;
}

/* Prepares the constant filter w in the library's layout for slot s (under
 * the cache lock) unless s already holds a prepared filter; a failure only
 * leaves the filter to the per-call reorder. */
static void prepare_const(dnn_slot *s, const float *w) {
  if (s->wsrc || !s->p) return;
  size_t bytes = tfc_dnn_conv_weights_bytes(s->p);
  void *buf = bytes ? tfc_aligned_alloc(bytes) : NULL;
  if (!buf) return;
  if (!tfc_dnn_conv_prepare_weights(s->p, w, buf)) {
    tfc_aligned_free(buf);
    return;
  }
  s->wlib = buf;
  s->wsrc = w;
}

/* The cached primitive for (pass, depthwise, bias, residual, act, *g),
 * created on a miss. Sets *owned when the caller must free it (cache full). When
 * const_w is not NULL (a forward filter that never changes), *wlib is set to
 * that filter in the library's layout, prepared on first use, or NULL (run
 * with a per-call reorder). NULL when unsupported. */
static tfc_dnn_conv *lookup(tfc_conv_dnn_cache *c, tfc_conv_pass pass, bool depthwise, bool bias,
                            bool residual, tfc_conv_act act, const tfc_conv_geom *g,
                            const float *const_w, bool *owned, const void **wlib) {
  *owned = false;
  *wlib = NULL;
  pthread_mutex_lock(&c->mu);
  dnn_slot *s = NULL;
  for (int i = 0; i < c->n && !s; i++) {
    dnn_slot *t = &c->slots[i];
    if (t->pass == pass && t->depthwise == depthwise && t->bias == bias &&
        t->residual == residual && t->act == act && geom_eq(&t->g, g))
      s = t;
  }
  tfc_dnn_conv *p;
  if (s) {
    p = s->p;
  } else {
    /* Created under the lock: concurrent first steps wait instead of
     * compiling the same primitive twice. */
    p = pass == TFC_CONV_FWD ? tfc_dnn_conv_new_fwd(depthwise, g, bias, residual, act)
                             : tfc_dnn_conv_new(pass, depthwise, g);
    if (c->n < CACHE_SLOTS) {
      s = &c->slots[c->n++];
      *s = (dnn_slot){.pass = pass, .depthwise = depthwise, .bias = bias, .residual = residual,
                      .act = act, .g = *g, .p = p};
    } else {
      *owned = true;
    }
  }
  if (s && const_w) {
    prepare_const(s, const_w);
    if (s->wsrc == const_w) *wlib = s->wlib;
  }
  pthread_mutex_unlock(&c->mu);
  return p;
}

typedef struct dnn_job {
  tfc_conv_dnn_cache *cache;
  tfc_conv_pass pass;
  bool depthwise;
  const tfc_conv_geom *g;
  const tfc_conv_epilogue *ep;  /* forward only, may be NULL */
  const float *a, *b;
  float *out;
  float *partials;           /* filter gradient: chunks 1.. write here */
  int64_t nchunks;
  int64_t in_img, out_img;   /* floats per image of input and output */
  int64_t filter_len;
  atomic_int failed;         /* 1: unsupported shape, 2: library error */
} dnn_job;

/* Runs chunks [b, e): each a contiguous run of images through one call. */
static void dnn_chunk(void *arg, int64_t b, int64_t e) {
  dnn_job *j = arg;
  for (int64_t c = b; c < e; c++) {
    int64_t n0 = c * j->g->batch / j->nchunks, n1 = (c + 1) * j->g->batch / j->nchunks;
    tfc_conv_geom g = *j->g;
    g.batch = n1 - n0;
    bool owned;
    const void *wlib;
    const tfc_conv_epilogue *ep = j->ep;
    tfc_dnn_conv *p = lookup(j->cache, j->pass, j->depthwise, ep && ep->bias,
                             ep && ep->residual, ep ? ep->act : TFC_CONV_ACT_NONE, &g,
                             ep && ep->const_filter ? j->b : NULL, &owned, &wlib);
    if (!p) {
      atomic_store(&j->failed, 1);
      return;
    }
    bool ok;
    if (j->pass == TFC_CONV_FWD) {
      const float *res = ep && ep->residual ? ep->residual + n0 * j->out_img : NULL;
      ok = tfc_dnn_conv_run_fwd(p, j->a + n0 * j->in_img, j->b, wlib, ep ? ep->bias : NULL, res,
                                j->out + n0 * j->out_img);
    } else if (j->pass == TFC_CONV_BWD_INPUT) {
      ok = tfc_dnn_conv_run(p, j->a, j->b + n0 * j->out_img, j->out + n0 * j->in_img);
    } else {
      float *dst = c == 0 ? j->out : j->partials + (c - 1) * j->filter_len;
      ok = tfc_dnn_conv_run(p, j->a + n0 * j->in_img, j->b + n0 * j->out_img, dst);
    }
    if (owned) tfc_dnn_conv_free(p);
    if (!ok) {
      atomic_store(&j->failed, 2);
      return;
    }
  }
}

/* Adds the partial filter gradients into out, elements [b, e). */
static void sum_partials(void *arg, int64_t b, int64_t e) {
  dnn_job *j = arg;
  for (int64_t c = 1; c < j->nchunks; c++) {
    const float *p = j->partials + (c - 1) * j->filter_len;
    for (int64_t i = b; i < e; i++) j->out[i] += p[i];
  }
}

/* False for the Conv2D cases where the im2col + BLAS kernels measured
 * faster (tools/bench_conv_backends.c): a batch too small to give every
 * thread an image (the BLAS path splits rows instead), the input gradient
 * of a single-channel input, and the filter gradient of a 1x1, stride-1,
 * unpadded convolution (one plain GEMM). Depthwise always goes to the
 * library (tfc's own loops are slower everywhere measured). */
static bool dnn_preferred(tfc_conv_pass pass, bool depthwise, const tfc_conv_geom *g, int64_t nt) {
  if (depthwise) return true;
  if (g->batch < nt) return false;
  if (pass == TFC_CONV_BWD_INPUT && g->in_depth == 1) return false;
  bool pointwise = g->filter_rows == 1 && g->filter_cols == 1 && g->stride_rows == 1 &&
                   g->stride_cols == 1 && g->pad_top == 0 && g->pad_left == 0 &&
                   g->out_rows == g->in_rows && g->out_cols == g->in_cols;
  return !(pass == TFC_CONV_BWD_FILTER && pointwise);
}

/* One convolution pass (ep: the forward pass's bias, activation and
 * constant-filter hint, or NULL) through the library; the contract of
 * tfc_conv_dnn_run. */
static int dnn_run(tfc_kernel_ctx *ctx, tfc_conv_dnn_cache *cache, tfc_conv_pass pass,
                   bool depthwise, const tfc_conv_geom *g, const float *a, const float *b,
                   const tfc_conv_epilogue *ep, float *out) {
  if (!cache || g->batch <= 0) return 0;
  int64_t K = g->filter_rows * g->filter_cols * (depthwise ? 1 : g->in_depth);
  int64_t macs = g->batch * g->out_rows * g->out_cols * g->out_depth * K;
  int64_t nt = macs < PAR_MACS ? 1 : tfc_conv_threads(ctx);
  if (!dnn_preferred(pass, depthwise, g, nt)) return 0;
  dnn_job j = {.cache = cache, .pass = pass, .depthwise = depthwise, .g = g, .ep = ep,
               .a = a, .b = b,
               .out = out, .nchunks = nt < g->batch ? nt : g->batch,
               .in_img = g->in_rows * g->in_cols * g->in_depth,
               .out_img = g->out_rows * g->out_cols * g->out_depth,
               .filter_len = g->filter_rows * g->filter_cols * g->in_depth *
                             (depthwise ? g->depth_mult : g->out_depth)};
  atomic_init(&j.failed, 0);
  if (pass == TFC_CONV_BWD_FILTER && j.nchunks > 1) {
    j.partials = tfc_aligned_alloc((size_t)((j.nchunks - 1) * j.filter_len) * sizeof(float));
    if (!j.partials) j.nchunks = 1;
  }
  if (j.nchunks > 1) tfc_kernel_parallel_for(ctx, j.nchunks, 1, dnn_chunk, &j);
  else dnn_chunk(&j, 0, 1);
  int failed = atomic_load(&j.failed);
  if (!failed && j.partials)
    tfc_kernel_parallel_for(ctx, j.filter_len, (int64_t)1 << 14, sum_partials, &j);
  tfc_aligned_free(j.partials);
  if (failed == 1) return 0;
  if (failed == 2) {
    tfc_kernel_fail(ctx, TFC_CODE_INTERNAL, "the DNN library failed to run a convolution");
    return -1;
  }
  return 1;
}

/* One convolution pass through the library (see conv_internal.h). */
int tfc_conv_dnn_run(tfc_kernel_ctx *ctx, tfc_conv_dnn_cache *cache, tfc_conv_pass pass,
                     bool depthwise, const tfc_conv_geom *g, const float *a, const float *b,
                     float *out) {
  return dnn_run(ctx, cache, pass, depthwise, g, a, b, NULL, out);
}

/* A forward convolution with epilogue through the library (see conv_internal.h). */
int tfc_conv_dnn_fwd(tfc_kernel_ctx *ctx, tfc_conv_dnn_cache *cache, bool depthwise,
                     const tfc_conv_geom *g, const float *in, const float *filter,
                     const tfc_conv_epilogue *ep, float *out) {
  return dnn_run(ctx, cache, TFC_CONV_FWD, depthwise, g, in, filter, ep, out);
}
