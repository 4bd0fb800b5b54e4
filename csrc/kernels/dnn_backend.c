/*
 * dnn_backend.c — oneDNN convolution primitives and GEMM (see dnn_backend.h).
 * The only file that includes the library's header.
 *
 * One CPU engine per process, created on first use. Each thread has its own
 * stream and scratch buffer (thread-specific data, freed when the thread
 * ends): primitives are created with a user-provided scratchpad, because
 * the library's own scratchpad belongs to the thread that created the
 * primitive, and tfc runs a primitive on whichever pool thread takes the
 * work. Activations and
 * filters are described in tfc's own layouts (NHWC, HWIO, HWIGO for
 * depthwise); only the filter is reordered to and from the layout the
 * library's kernel wants.
 */
#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <oneapi/dnnl/dnnl.h>

#include "base/alloc.h"
#include "kernels/dnn_backend.h"

struct tfc_dnn_conv {
  tfc_conv_pass pass;
  dnnl_primitive_t prim;
  dnnl_primitive_t reorder;       /* filter between tfc's layout and md_wlib, or NULL */
  dnnl_memory_desc_t md_a, md_b, md_out;  /* operands in tfc's layouts */
  dnnl_memory_desc_t md_bias;             /* forward with a bias: [out_depth] */
  bool has_bias;
  bool has_residual;                      /* forward: a binary-add post-op of md_out's shape */
  dnnl_memory_desc_t md_scratch, md_wlib;
  size_t scratch_bytes, wlib_bytes;
  int arg_a, arg_b, arg_out;
  char impl[64];
};

static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static dnnl_engine_t g_engine;
static pthread_key_t g_thread_key;
static bool g_ok;

/* What each thread keeps: its stream and a scratch buffer that grows. */
typedef struct thread_res {
  dnnl_stream_t stream;
  void *scratch;
  size_t scratch_bytes;
} thread_res;

/* Destructor of a thread's resources (thread-specific data). */
static void thread_res_free(void *arg) {
  thread_res *r = arg;
  dnnl_stream_destroy(r->stream);
  tfc_aligned_free(r->scratch);
  tfc_free(r);
}

/* Creates the engine and the stream key; runs once per process. */
static void dnn_setup(void) {
  if (pthread_key_create(&g_thread_key, thread_res_free) != 0) return;
  int prev = omp_get_max_threads();
  omp_set_num_threads(1);
  g_ok = dnnl_engine_create(&g_engine, dnnl_cpu, 0) == dnnl_success;
  omp_set_num_threads(prev);
}

/* Library is usable (see dnn_backend.h). */
bool tfc_dnn_available(void) {
  pthread_once(&g_once, dnn_setup);
  return g_ok;
}

/* The calling thread's resources with at least `scratch` bytes of scratch
 * buffer, created or grown on demand; NULL on failure. */
static thread_res *thread_resources(size_t scratch) {
  thread_res *r = pthread_getspecific(g_thread_key);
  if (!r) {
    r = tfc_calloc(1, sizeof *r);
    if (!r) return NULL;
    if (dnnl_stream_create(&r->stream, g_engine, dnnl_stream_default_flags) != dnnl_success) {
      tfc_free(r);
      return NULL;
    }
    if (pthread_setspecific(g_thread_key, r) != 0) {
      thread_res_free(r);
      return NULL;
    }
  }
  if (scratch > r->scratch_bytes) {
    void *p = tfc_aligned_alloc(scratch);
    if (!p) return NULL;
    tfc_aligned_free(r->scratch);
    r->scratch = p;
    r->scratch_bytes = scratch;
  }
  return r;
}

/* Sets the calling thread's OpenMP team size to one; returns the old value
 * for omp_restore. OpenMP then runs every parallel region inline. */
static int omp_single(void) {
  int prev = omp_get_max_threads();
  if (prev != 1) omp_set_num_threads(1);
  return prev;
}

/* Restores the team size saved by omp_single. */
static void omp_restore(int prev) {
  if (prev != 1) omp_set_num_threads(prev);
}

/* NHWC activation descriptor with logical dims {n, c, h, w}. */
static bool act_md(dnnl_memory_desc_t *md, int64_t n, int64_t c, int64_t h, int64_t w) {
  dnnl_dims_t d = {n, c, h, w};
  return dnnl_memory_desc_init_by_tag(md, 4, d, dnnl_f32, dnnl_nhwc) == dnnl_success;
}

/* Filter descriptor in tfc's layout: HWIO, or HWIGO (groups = channels) for
 * depthwise filters [KH, KW, C, M]. */
static bool filter_md(dnnl_memory_desc_t *md, bool depthwise, const tfc_conv_geom *g) {
  if (depthwise) {
    dnnl_dims_t d = {g->in_depth, g->depth_mult, 1, g->filter_rows, g->filter_cols};
    return dnnl_memory_desc_init_by_tag(md, 5, d, dnnl_f32, dnnl_hwigo) == dnnl_success;
  }
  dnnl_dims_t d = {g->out_depth, g->in_depth, g->filter_rows, g->filter_cols};
  return dnnl_memory_desc_init_by_tag(md, 4, d, dnnl_f32, dnnl_hwio) == dnnl_success;
}

/* Sets attr's post-ops: when residual is not NULL, an element-wise add of
 * a tensor described by *residual (the output's shape and layout), then
 * the activation act (nothing for TFC_CONV_ACT_NONE). False on a library
 * error. */
static bool set_post_ops(dnnl_primitive_attr_t attr, const dnnl_memory_desc_t *residual,
                         tfc_conv_act act) {
  if (!residual && act == TFC_CONV_ACT_NONE) return true;
  dnnl_post_ops_t po = NULL;
  if (dnnl_post_ops_create(&po) != dnnl_success) return false;
  bool ok = !residual ||
            dnnl_post_ops_append_binary(po, dnnl_binary_add, residual) == dnnl_success;
  if (ok && act == TFC_CONV_ACT_RELU)
    ok = dnnl_post_ops_append_eltwise(po, 1.0f, dnnl_eltwise_relu, 0.0f, 0.0f) == dnnl_success;
  else if (ok && act == TFC_CONV_ACT_RELU6)
    ok = dnnl_post_ops_append_eltwise(po, 1.0f, dnnl_eltwise_clip, 0.0f, 6.0f) == dnnl_success;
  ok = ok && dnnl_primitive_attr_set_post_ops(attr, po) == dnnl_success;
  dnnl_post_ops_destroy(po);
  return ok;
}

/* Creates a primitive descriptor for op_desc, scratchpad provided by the
 * caller, with the post-ops of set_post_ops (residual add, activation act),
 * on the engine (hint: the forward descriptor a backward pass needs, or
 * NULL). NULL when the library has no implementation for it. */
static dnnl_primitive_desc_t make_pd(const void *op_desc, const_dnnl_primitive_desc_t hint,
                                     const dnnl_memory_desc_t *residual, tfc_conv_act act) {
  dnnl_primitive_attr_t attr = NULL;
  if (dnnl_primitive_attr_create(&attr) != dnnl_success) return NULL;
  dnnl_primitive_desc_t pd = NULL;
  if (dnnl_primitive_attr_set_scratchpad_mode(attr, dnnl_scratchpad_mode_user) != dnnl_success ||
      !set_post_ops(attr, residual, act) ||
      dnnl_primitive_desc_create(&pd, op_desc, attr, g_engine, hint) != dnnl_success)
    pd = NULL;
  dnnl_primitive_attr_destroy(attr);
  return pd;
}

/* Round n up to a multiple of 64 bytes. */
static size_t align64(size_t n) { return (n + 63) & ~(size_t)63; }

/* Finishes p from the pass's primitive descriptor: the library's filter
 * layout (and a reorder to or from tfc's when they differ), the scratchpad
 * size, the implementation name and the primitive. False on failure. */
static bool finish(tfc_dnn_conv *p, const_dnnl_primitive_desc_t pd, const dnnl_memory_desc_t *user_w) {
  const char *impl = NULL;
  if (dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl) == dnnl_success && impl)
    snprintf(p->impl, sizeof p->impl, "%s", impl);
  const dnnl_memory_desc_t *sm = dnnl_primitive_desc_query_md(pd, dnnl_query_scratchpad_md, 0);
  if (sm) p->md_scratch = *sm;
  p->scratch_bytes = sm ? dnnl_memory_desc_get_size(sm) : 0;
  const dnnl_memory_desc_t *lw = dnnl_primitive_desc_query_md(
      pd, p->pass == TFC_CONV_BWD_FILTER ? dnnl_query_diff_weights_md : dnnl_query_weights_md, 0);
  if (!lw) return false;
  p->md_wlib = *lw;
  if (!dnnl_memory_desc_equal(lw, user_w)) {
    p->wlib_bytes = dnnl_memory_desc_get_size(lw);
    dnnl_primitive_desc_t rpd = NULL;
    bool to_user = p->pass == TFC_CONV_BWD_FILTER;
    if (dnnl_reorder_primitive_desc_create(&rpd, to_user ? lw : user_w, g_engine,
                                           to_user ? user_w : lw, g_engine, NULL) != dnnl_success)
      return false;
    bool ok = dnnl_primitive_create(&p->reorder, rpd) == dnnl_success;
    dnnl_primitive_desc_destroy(rpd);
    if (!ok) return false;
  }
  return dnnl_primitive_create(&p->prim, pd) == dnnl_success;
}

/* A primitive for one pass (see tfc_dnn_conv_new); a forward pass may add a
 * bias, then a residual tensor of the output's shape, then an activation
 * post-op. */
static tfc_dnn_conv *conv_new(tfc_conv_pass pass, bool depthwise, const tfc_conv_geom *g,
                              bool bias, bool residual, tfc_conv_act act) {
  if (!tfc_dnn_available()) return NULL;
  if (pass != TFC_CONV_FWD && (bias || residual || act != TFC_CONV_ACT_NONE)) return NULL;
  tfc_dnn_conv *p = tfc_calloc(1, sizeof *p);
  if (!p) return NULL;
  p->pass = pass;
  p->has_bias = bias;
  p->has_residual = residual;
  dnnl_memory_desc_t src, wei, dst, wany;
  dnnl_dims_t bias_dims = {g->out_depth};
  if ((bias && dnnl_memory_desc_init_by_tag(&p->md_bias, 1, bias_dims, dnnl_f32, dnnl_a) !=
                   dnnl_success) ||
      !act_md(&src, g->batch, g->in_depth, g->in_rows, g->in_cols) ||
      !act_md(&dst, g->batch, g->out_depth, g->out_rows, g->out_cols) ||
      !filter_md(&wei, depthwise, g) ||
      dnnl_memory_desc_init_by_tag(&wany, wei.ndims, wei.dims, dnnl_f32, dnnl_format_tag_any) !=
          dnnl_success) {
    tfc_free(p);
    return NULL;
  }
  dnnl_dims_t strides = {g->stride_rows, g->stride_cols};
  dnnl_dims_t dil = {g->dil_rows - 1, g->dil_cols - 1};
  dnnl_dims_t pad_l = {g->pad_top, g->pad_left};
  /* The far padding the library's size rule needs for tfc's output size. */
  dnnl_dims_t pad_r = {
      (g->out_rows - 1) * g->stride_rows + (g->filter_rows - 1) * g->dil_rows + 1 - g->in_rows -
          g->pad_top,
      (g->out_cols - 1) * g->stride_cols + (g->filter_cols - 1) * g->dil_cols + 1 - g->in_cols -
          g->pad_left};
  int prev = omp_single();
  dnnl_convolution_desc_t fwd_d, d;
  dnnl_primitive_desc_t fwd_pd = NULL, pd = NULL;
  /* The filter layout is left to the library: its fast kernels want a
   * blocked one, and reordering the (small) filter per call is cheap. */
  bool ok = dnnl_dilated_convolution_forward_desc_init(
                &fwd_d, pass == TFC_CONV_FWD ? dnnl_forward_inference : dnnl_forward_training,
                dnnl_convolution_direct, &src, &wany, bias ? &p->md_bias : NULL, &dst, strides,
                dil, pad_l, pad_r) == dnnl_success &&
            (fwd_pd = make_pd(&fwd_d, NULL, residual ? &dst : NULL, act)) != NULL;
  if (ok && pass == TFC_CONV_FWD) {
    pd = fwd_pd;
    fwd_pd = NULL;
    p->md_a = src;
    p->md_b = wei;
    p->md_out = dst;
    p->arg_a = DNNL_ARG_SRC;
    p->arg_b = DNNL_ARG_WEIGHTS;
    p->arg_out = DNNL_ARG_DST;
  } else if (ok && pass == TFC_CONV_BWD_INPUT) {
    ok = dnnl_dilated_convolution_backward_data_desc_init(&d, dnnl_convolution_direct, &src, &wany,
                                                          &dst, strides, dil, pad_l,
                                                          pad_r) == dnnl_success &&
         (pd = make_pd(&d, fwd_pd, NULL, TFC_CONV_ACT_NONE)) != NULL;
    p->md_a = wei;
    p->md_b = dst;
    p->md_out = src;
    p->arg_a = DNNL_ARG_WEIGHTS;
    p->arg_b = DNNL_ARG_DIFF_DST;
    p->arg_out = DNNL_ARG_DIFF_SRC;
  } else if (ok) {
    ok = dnnl_dilated_convolution_backward_weights_desc_init(&d, dnnl_convolution_direct, &src,
                                                             &wany, NULL, &dst, strides, dil,
                                                             pad_l, pad_r) == dnnl_success &&
         (pd = make_pd(&d, fwd_pd, NULL, TFC_CONV_ACT_NONE)) != NULL;
    p->md_a = src;
    p->md_b = dst;
    p->md_out = wei;
    p->arg_a = DNNL_ARG_SRC;
    p->arg_b = DNNL_ARG_DIFF_DST;
    p->arg_out = DNNL_ARG_DIFF_WEIGHTS;
  }
  if (ok) ok = finish(p, pd, &wei);
  if (fwd_pd) dnnl_primitive_desc_destroy(fwd_pd);
  if (pd) dnnl_primitive_desc_destroy(pd);
  omp_restore(prev);
  if (!ok) {
    tfc_dnn_conv_free(p);
    return NULL;
  }
  return p;
}

/* Convolution primitive (see dnn_backend.h). */
tfc_dnn_conv *tfc_dnn_conv_new(tfc_conv_pass pass, bool depthwise, const tfc_conv_geom *g) {
  return conv_new(pass, depthwise, g, false, false, TFC_CONV_ACT_NONE);
}

/* Forward primitive with bias, residual add and activation (see dnn_backend.h). */
tfc_dnn_conv *tfc_dnn_conv_new_fwd(bool depthwise, const tfc_conv_geom *g, bool bias,
                                   bool residual, tfc_conv_act act) {
  return conv_new(TFC_CONV_FWD, depthwise, g, bias, residual, act);
}

/* Runs a reorder primitive from memory `from` to memory `to` on stream s. */
static bool run_reorder(const_dnnl_primitive_t r, dnnl_stream_t s, dnnl_memory_t from,
                        dnnl_memory_t to) {
  dnnl_exec_arg_t args[2] = {{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, to}};
  return dnnl_primitive_execute(r, s, 2, args) == dnnl_success;
}

/* Runs p (see tfc_dnn_conv_run_fwd): w_lib, when not NULL, is the filter
 * operand already in the library's layout; bias and residual are the
 * forward pass's bias and residual addend or NULL. The thread's scratch buffer holds the scratchpad, then (when the
 * filter goes through a per-call reorder) the filter in the library's layout. */
static bool conv_run(const tfc_dnn_conv *p, const float *a, const float *b, const void *w_lib,
                     const float *bias, const float *residual, float *out) {
  int prev = omp_single();
  bool reorder = p->reorder && !w_lib;
  size_t soff = align64(p->scratch_bytes);
  thread_res *r = thread_resources(soff + (reorder ? p->wlib_bytes : 0));
  dnnl_memory_t ma = NULL, mb = NULL, mo = NULL, ms = NULL, mw = NULL, mbias = NULL, mres = NULL;
  /* the filter operand: a for the input gradient, b for the other passes */
  bool filter_is_a = p->pass == TFC_CONV_BWD_INPUT;
  bool ok = r &&
            dnnl_memory_create(&ma, filter_is_a && w_lib ? &p->md_wlib : &p->md_a, g_engine,
                               filter_is_a && w_lib ? (void *)w_lib : (void *)a) == dnnl_success &&
            dnnl_memory_create(&mb, !filter_is_a && w_lib ? &p->md_wlib : &p->md_b, g_engine,
                               !filter_is_a && w_lib ? (void *)w_lib : (void *)b) == dnnl_success &&
            dnnl_memory_create(&mo, &p->md_out, g_engine, out) == dnnl_success &&
            (!p->scratch_bytes ||
             dnnl_memory_create(&ms, &p->md_scratch, g_engine, r->scratch) == dnnl_success) &&
            (!p->has_bias ||
             dnnl_memory_create(&mbias, &p->md_bias, g_engine, (void *)bias) == dnnl_success) &&
            (!p->has_residual ||
             dnnl_memory_create(&mres, &p->md_out, g_engine, (void *)residual) == dnnl_success) &&
            (!reorder || dnnl_memory_create(&mw, &p->md_wlib, g_engine,
                                            (char *)r->scratch + soff) == dnnl_success);
  if (ok && ((p->has_bias && !bias) || (p->has_residual && !residual))) ok = false;
  if (ok) {
    dnnl_stream_t s = r->stream;
    dnnl_exec_arg_t args[6] = {{p->arg_a, ma}, {p->arg_b, mb}, {p->arg_out, mo}};
    int nargs = 3;
    if (ms) args[nargs++] = (dnnl_exec_arg_t){DNNL_ARG_SCRATCHPAD, ms};
    if (mbias) args[nargs++] = (dnnl_exec_arg_t){DNNL_ARG_BIAS, mbias};
    if (mres)
      args[nargs++] = (dnnl_exec_arg_t){DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1, mres};
    if (mw) { /* the filter operand goes through the library's layout */
      dnnl_memory_t *user = p->pass == TFC_CONV_FWD ? &args[1].memory
                            : p->pass == TFC_CONV_BWD_INPUT ? &args[0].memory
                                                            : &args[2].memory;
      if (p->pass != TFC_CONV_BWD_FILTER) ok = run_reorder(p->reorder, s, *user, mw);
      dnnl_memory_t u = *user;
      *user = mw;
      ok = ok && dnnl_primitive_execute(p->prim, s, nargs, args) == dnnl_success;
      if (ok && p->pass == TFC_CONV_BWD_FILTER) ok = run_reorder(p->reorder, s, mw, u);
    } else {
      ok = dnnl_primitive_execute(p->prim, s, nargs, args) == dnnl_success;
    }
    ok = ok && dnnl_stream_wait(s) == dnnl_success;
  }
  if (mw) dnnl_memory_destroy(mw);
  if (ms) dnnl_memory_destroy(ms);
  if (mbias) dnnl_memory_destroy(mbias);
  if (mres) dnnl_memory_destroy(mres);
  if (ma) dnnl_memory_destroy(ma);
  if (mb) dnnl_memory_destroy(mb);
  if (mo) dnnl_memory_destroy(mo);
  omp_restore(prev);
  return ok;
}

/* Runs a convolution primitive (see dnn_backend.h). */
bool tfc_dnn_conv_run(const tfc_dnn_conv *p, const float *a, const float *b, float *out) {
  return conv_run(p, a, b, NULL, NULL, NULL, out);
}

/* Runs a forward primitive with bias / residual / prepared filter (see
 * dnn_backend.h). */
bool tfc_dnn_conv_run_fwd(const tfc_dnn_conv *p, const float *in, const float *filter,
                          const void *w_lib, const float *bias, const float *residual,
                          float *out) {
  if (p->pass != TFC_CONV_FWD) return false;
  return conv_run(p, in, filter, w_lib, bias, residual, out);
}

/* Bytes of the filter in the library's layout (see dnn_backend.h). */
size_t tfc_dnn_conv_weights_bytes(const tfc_dnn_conv *p) {
  return p->reorder && p->pass != TFC_CONV_BWD_FILTER ? p->wlib_bytes : 0;
}

/* Reorders a filter into the library's layout (see dnn_backend.h). */
bool tfc_dnn_conv_prepare_weights(const tfc_dnn_conv *p, const float *filter, void *dst) {
  if (!tfc_dnn_conv_weights_bytes(p)) return false;
  int prev = omp_single();
  thread_res *r = thread_resources(0);
  const dnnl_memory_desc_t *user = p->pass == TFC_CONV_BWD_INPUT ? &p->md_a : &p->md_b;
  dnnl_memory_t from = NULL, to = NULL;
  bool ok = r && dnnl_memory_create(&from, user, g_engine, (void *)filter) == dnnl_success &&
            dnnl_memory_create(&to, &p->md_wlib, g_engine, dst) == dnnl_success &&
            run_reorder(p->reorder, r->stream, from, to) &&
            dnnl_stream_wait(r->stream) == dnnl_success;
  if (from) dnnl_memory_destroy(from);
  if (to) dnnl_memory_destroy(to);
  omp_restore(prev);
  return ok;
}

/* Implementation name (see dnn_backend.h). */
const char *tfc_dnn_conv_impl(const tfc_dnn_conv *p) { return p->impl[0] ? p->impl : "?"; }

/* Frees a primitive (see dnn_backend.h). */
void tfc_dnn_conv_free(tfc_dnn_conv *p) {
  if (!p) return;
  if (p->prim) dnnl_primitive_destroy(p->prim);
  if (p->reorder) dnnl_primitive_destroy(p->reorder);
  tfc_free(p);
}

/* Row-major SGEMM through the library (see dnn_backend.h). */
bool tfc_dnn_sgemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, float alpha,
                   const float *a, int64_t lda, const float *b, int64_t ldb, float beta, float *c,
                   int64_t ldc) {
  if (m <= 0 || n <= 0) return true;
  int prev = omp_single();
  bool ok = dnnl_sgemm(trans_a ? 'T' : 'N', trans_b ? 'T' : 'N', m, n, k, alpha, a, lda, b, ldb,
                       beta, c, ldc) == dnnl_success;
  omp_restore(prev);
  return ok;
}

static char g_desc[96];
static pthread_once_t g_desc_once = PTHREAD_ONCE_INIT;

/* Fills g_desc from the library's version report. */
static void describe_once(void) {
  const dnnl_version_t *v = dnnl_version();
  snprintf(g_desc, sizeof g_desc, "oneDNN %d.%d.%d (cpu runtime %s)", v->major, v->minor, v->patch,
           v->cpu_runtime == DNNL_RUNTIME_OMP ? "OpenMP" : "other");
}

/* Library description (see dnn_backend.h). */
const char *tfc_dnn_describe(void) {
  pthread_once(&g_desc_once, describe_once);
  return g_desc;
}
