/*
 * dnn_backend.c — oneDNN convolution primitives and GEMM (see dnn_backend.h).
 * The only file that includes the library's header.
 *
 * The library is loaded with dlopen on first use, not linked into the
 * extension: its dynamic linking (it brings the C++ runtime, OpenMP and
 * OpenCL's loader with it) costs milliseconds that `import tfc` and a
 * process that never convolves should not pay. The header is still used
 * for the types and constants; the entry points below are looked up once
 * into g_lib (and the OpenMP team-size calls from the OpenMP runtime the
 * library brings). When the library cannot be loaded, tfc_dnn_available()
 * is false and the kernels use their other path.
 *
 * One CPU engine per process, created on first use. Each thread has its own
 * stream and scratch buffer (thread-specific data, freed when the thread
 * ends): primitives are created with a user-provided scratchpad, because
 * the library's own scratchpad belongs to the thread that created the
 * primitive, and tfc runs a primitive on whichever pool thread takes the
 * work. Activations and
 * filters are described in tfc's own layouts (NHWC, HWIO, HWIGO for
 * depthwise); the filter is reordered to and from the layout the library's
 * kernel wants, and a forward convolution with a spatial filter also runs
 * on activations in the library's blocked layout, reordered from and to
 * NHWC around the call (want_blocked says when and why).
 */
#include <dlfcn.h>
#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <oneapi/dnnl/dnnl.h>

#include "base/alloc.h"
#include "kernels/dnn_backend.h"

/* The library's entry points tfc calls, without their "dnnl_" prefix. */
#define DNNL_ENTRY_POINTS(X)                                                                   \
  X(dilated_convolution_backward_data_desc_init)                                               \
  X(dilated_convolution_backward_weights_desc_init)                                            \
  X(dilated_convolution_forward_desc_init)                                                     \
  X(engine_create) X(memory_create) X(memory_desc_equal) X(memory_desc_get_size)               \
  X(memory_desc_init_by_tag) X(memory_destroy) X(post_ops_append_binary)                       \
  X(post_ops_append_eltwise) X(post_ops_create) X(post_ops_destroy) X(primitive_attr_create)   \
  X(primitive_attr_destroy) X(primitive_attr_set_post_ops)                                     \
  X(primitive_attr_set_scratchpad_mode) X(primitive_create) X(primitive_desc_create)           \
  X(primitive_desc_destroy) X(primitive_desc_query) X(primitive_desc_query_md)                 \
  X(primitive_destroy) X(primitive_execute) X(reorder_primitive_desc_create) X(sgemm)          \
  X(stream_create) X(stream_destroy) X(stream_wait) X(version)

#define DNNL_FIELD(name) __typeof__(dnnl_##name) *name;

/* The loaded library's entry points (all set once g_ok is true). */
static struct {
  DNNL_ENTRY_POINTS(DNNL_FIELD)
  __typeof__(omp_get_max_threads) *omp_get_max_threads;
  __typeof__(omp_set_num_threads) *omp_set_num_threads;
} g_lib;

/* Library names tried in order: the soname of the 2.x API this file is written
 * against (version 3 removed the operation descriptors), then the dev link. */
static const char *const kLibraries[] = {"libdnnl.so.2", "libdnnl.so"};

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
  /* Forward in a blocked activation layout: the input is reordered from
   * NHWC into md_src_lib and the result from md_dst_lib back to NHWC around
   * the primitive (both in the thread's scratch buffer); NULL otherwise. */
  dnnl_primitive_t reorder_src, reorder_dst;
  dnnl_memory_desc_t md_src_lib, md_dst_lib;
  size_t src_lib_bytes, dst_lib_bytes;
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
  g_lib.stream_destroy(r->stream);
  tfc_aligned_free(r->scratch);
  tfc_free(r);
}

/* Looks name up in lib into *slot; false when it is missing. */
static bool lookup(void *lib, const char *name, void *slot) {
  void *sym = dlsym(lib, name);
  /* POSIX guarantees object and function pointers convert through void*. */
  if (sym) memcpy(slot, &sym, sizeof sym);
  return sym != NULL;
}

/* Loads the library and fills g_lib; false (with one line on stderr) when
 * it or one of its entry points is missing. */
static bool dnn_load(void) {
  void *lib = NULL;
  for (size_t i = 0; i < sizeof kLibraries / sizeof kLibraries[0] && !lib; i++)
    lib = dlopen(kLibraries[i], RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    fprintf(stderr, "tfc: oneDNN could not be loaded (%s); convolutions use the BLAS path\n",
            dlerror());
    return false;
  }
  bool ok = true;
#define DNNL_LOOKUP(name) ok = lookup(lib, "dnnl_" #name, &g_lib.name) && ok;
  DNNL_ENTRY_POINTS(DNNL_LOOKUP)
#undef DNNL_LOOKUP
  /* dlsym on the handle also searches the library's dependencies, among
   * them the OpenMP runtime it is built on. */
  ok = lookup(lib, "omp_get_max_threads", &g_lib.omp_get_max_threads) && ok;
  ok = lookup(lib, "omp_set_num_threads", &g_lib.omp_set_num_threads) && ok;
  if (!ok)
    fprintf(stderr, "tfc: %s lacks entry points tfc needs; convolutions use the BLAS path\n",
            kLibraries[0]);
  return ok;
}

/* Loads the library, creates the engine and the stream key; runs once per
 * process. */
static void dnn_setup(void) {
  if (!dnn_load()) return;
  if (pthread_key_create(&g_thread_key, thread_res_free) != 0) return;
  int prev = g_lib.omp_get_max_threads();
  g_lib.omp_set_num_threads(1);
  g_ok = g_lib.engine_create(&g_engine, dnnl_cpu, 0) == dnnl_success;
  g_lib.omp_set_num_threads(prev);
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
    if (g_lib.stream_create(&r->stream, g_engine, dnnl_stream_default_flags) != dnnl_success) {
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
  int prev = g_lib.omp_get_max_threads();
  if (prev != 1) g_lib.omp_set_num_threads(1);
  return prev;
}

/* Restores the team size saved by omp_single. */
static void omp_restore(int prev) {
  if (prev != 1) g_lib.omp_set_num_threads(prev);
}

/* NHWC activation descriptor with logical dims {n, c, h, w}. */
static bool act_md(dnnl_memory_desc_t *md, int64_t n, int64_t c, int64_t h, int64_t w) {
  dnnl_dims_t d = {n, c, h, w};
  return g_lib.memory_desc_init_by_tag(md, 4, d, dnnl_f32, dnnl_nhwc) == dnnl_success;
}

/* Filter descriptor in tfc's layout: HWIO, or HWIGO (groups = channels) for
 * depthwise filters [KH, KW, C, M]. */
static bool filter_md(dnnl_memory_desc_t *md, bool depthwise, const tfc_conv_geom *g) {
  if (depthwise) {
    dnnl_dims_t d = {g->in_depth, g->depth_mult, 1, g->filter_rows, g->filter_cols};
    return g_lib.memory_desc_init_by_tag(md, 5, d, dnnl_f32, dnnl_hwigo) == dnnl_success;
  }
  dnnl_dims_t d = {g->out_depth, g->in_depth, g->filter_rows, g->filter_cols};
  return g_lib.memory_desc_init_by_tag(md, 4, d, dnnl_f32, dnnl_hwio) == dnnl_success;
}

/* Sets attr's post-ops: when residual is not NULL, an element-wise add of
 * a tensor described by *residual (the output's shape and layout), then
 * the activation act (nothing for TFC_CONV_ACT_NONE). False on a library
 * error. */
static bool set_post_ops(dnnl_primitive_attr_t attr, const dnnl_memory_desc_t *residual,
                         tfc_conv_act act) {
  if (!residual && act == TFC_CONV_ACT_NONE) return true;
  dnnl_post_ops_t po = NULL;
  if (g_lib.post_ops_create(&po) != dnnl_success) return false;
  bool ok = !residual ||
            g_lib.post_ops_append_binary(po, dnnl_binary_add, residual) == dnnl_success;
  if (ok && act == TFC_CONV_ACT_RELU)
    ok = g_lib.post_ops_append_eltwise(po, 1.0f, dnnl_eltwise_relu, 0.0f, 0.0f) == dnnl_success;
  else if (ok && act == TFC_CONV_ACT_RELU6)
    ok = g_lib.post_ops_append_eltwise(po, 1.0f, dnnl_eltwise_clip, 0.0f, 6.0f) == dnnl_success;
  ok = ok && g_lib.primitive_attr_set_post_ops(attr, po) == dnnl_success;
  g_lib.post_ops_destroy(po);
  return ok;
}

/* Creates a primitive descriptor for op_desc, scratchpad provided by the
 * caller, with the post-ops of set_post_ops (residual add, activation act),
 * on the engine (hint: the forward descriptor a backward pass needs, or
 * NULL). NULL when the library has no implementation for it. */
static dnnl_primitive_desc_t make_pd(const void *op_desc, const_dnnl_primitive_desc_t hint,
                                     const dnnl_memory_desc_t *residual, tfc_conv_act act) {
  dnnl_primitive_attr_t attr = NULL;
  if (g_lib.primitive_attr_create(&attr) != dnnl_success) return NULL;
  dnnl_primitive_desc_t pd = NULL;
  if (g_lib.primitive_attr_set_scratchpad_mode(attr, dnnl_scratchpad_mode_user) != dnnl_success ||
      !set_post_ops(attr, residual, act) ||
      g_lib.primitive_desc_create(&pd, op_desc, attr, g_engine, hint) != dnnl_success)
    pd = NULL;
  g_lib.primitive_attr_destroy(attr);
  return pd;
}

/* Round n up to a multiple of 64 bytes. */
static size_t align64(size_t n) { return (n + 63) & ~(size_t)63; }

/* Finishes p from the pass's primitive descriptor: the library's filter
 * layout (and a reorder to or from tfc's when they differ), the scratchpad
 * size, the implementation name and the primitive. False on failure. */
static bool finish(tfc_dnn_conv *p, const_dnnl_primitive_desc_t pd, const dnnl_memory_desc_t *user_w) {
  const char *impl = NULL;
  if (g_lib.primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl) == dnnl_success && impl)
    snprintf(p->impl, sizeof p->impl, "%s", impl);
  const dnnl_memory_desc_t *sm = g_lib.primitive_desc_query_md(pd, dnnl_query_scratchpad_md, 0);
  if (sm) p->md_scratch = *sm;
  p->scratch_bytes = sm ? g_lib.memory_desc_get_size(sm) : 0;
  const dnnl_memory_desc_t *lw = g_lib.primitive_desc_query_md(
      pd, p->pass == TFC_CONV_BWD_FILTER ? dnnl_query_diff_weights_md : dnnl_query_weights_md, 0);
  if (!lw) return false;
  p->md_wlib = *lw;
  if (!g_lib.memory_desc_equal(lw, user_w)) {
    p->wlib_bytes = g_lib.memory_desc_get_size(lw);
    dnnl_primitive_desc_t rpd = NULL;
    bool to_user = p->pass == TFC_CONV_BWD_FILTER;
    if (g_lib.reorder_primitive_desc_create(&rpd, to_user ? lw : user_w, g_engine,
                                           to_user ? user_w : lw, g_engine, NULL) != dnnl_success)
      return false;
    bool ok = g_lib.primitive_create(&p->reorder, rpd) == dnnl_success;
    g_lib.primitive_desc_destroy(rpd);
    if (!ok) return false;
  }
  return g_lib.primitive_create(&p->prim, pd) == dnnl_success;
}

/* True when a forward convolution of geometry *g should run on activations
 * in the library's blocked layout (channels in blocks of the vector width)
 * rather than in NHWC: measured with the library's AVX2 kernels (thread CPU
 * time, docs/compute.md), a spatial (3x3, 5x5, ...) filter over at least 8
 * input channels ran 1.1-1.6x faster blocked, more than paying for the two
 * reorders, while 1x1 filters, the first layer of an image network (3
 * channels) and depthwise filters gain nothing. A residual post-op keeps
 * NHWC (its operand would need a third reorder). TFC_CONV_BLOCKED=0 turns
 * the choice off. */
static bool want_blocked(bool depthwise, const tfc_conv_geom *g, bool residual) {
  if (depthwise || residual || g->in_depth < 8) return false;
  if (g->filter_rows * g->filter_cols <= 1) return false;
  const char *e = getenv("TFC_CONV_BLOCKED");
  return !(e && strcmp(e, "0") == 0);
}

/* Creates a reorder primitive from md `from` to md `to` into *out; false on
 * a library error. */
static bool make_reorder(dnnl_primitive_t *out, const dnnl_memory_desc_t *from,
                         const dnnl_memory_desc_t *to) {
  dnnl_primitive_desc_t rpd = NULL;
  if (g_lib.reorder_primitive_desc_create(&rpd, from, g_engine, to, g_engine, NULL) !=
      dnnl_success)
    return false;
  bool ok = g_lib.primitive_create(out, rpd) == dnnl_success;
  g_lib.primitive_desc_destroy(rpd);
  return ok;
}

/* For a forward pd made with layout-free activations: records the library's
 * source and destination layouts in p with the reorders from and to tfc's
 * NHWC (src, dst), or nothing when the library kept NHWC. False on a library
 * error. */
static bool setup_blocked(tfc_dnn_conv *p, const_dnnl_primitive_desc_t pd,
                          const dnnl_memory_desc_t *src, const dnnl_memory_desc_t *dst) {
  const dnnl_memory_desc_t *ls = g_lib.primitive_desc_query_md(pd, dnnl_query_src_md, 0);
  const dnnl_memory_desc_t *ld = g_lib.primitive_desc_query_md(pd, dnnl_query_dst_md, 0);
  if (!ls || !ld) return false;
  if (g_lib.memory_desc_equal(ls, src) && g_lib.memory_desc_equal(ld, dst)) return true;
  p->md_src_lib = *ls;
  p->md_dst_lib = *ld;
  p->src_lib_bytes = g_lib.memory_desc_get_size(ls);
  p->dst_lib_bytes = g_lib.memory_desc_get_size(ld);
  return make_reorder(&p->reorder_src, src, ls) && make_reorder(&p->reorder_dst, ld, dst);
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
  if ((bias && g_lib.memory_desc_init_by_tag(&p->md_bias, 1, bias_dims, dnnl_f32, dnnl_a) !=
                   dnnl_success) ||
      !act_md(&src, g->batch, g->in_depth, g->in_rows, g->in_cols) ||
      !act_md(&dst, g->batch, g->out_depth, g->out_rows, g->out_cols) ||
      !filter_md(&wei, depthwise, g) ||
      g_lib.memory_desc_init_by_tag(&wany, wei.ndims, wei.dims, dnnl_f32, dnnl_format_tag_any) !=
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
   * blocked one, and reordering the (small) filter per call is cheap. A
   * forward pass may leave the activations' layout to it too (want_blocked);
   * when that fails it is made on NHWC. */
  bool blocked = pass == TFC_CONV_FWD && want_blocked(depthwise, g, residual);
  dnnl_memory_desc_t src_any, dst_any;
  blocked = blocked &&
            g_lib.memory_desc_init_by_tag(&src_any, 4, src.dims, dnnl_f32,
                                          dnnl_format_tag_any) == dnnl_success &&
            g_lib.memory_desc_init_by_tag(&dst_any, 4, dst.dims, dnnl_f32,
                                          dnnl_format_tag_any) == dnnl_success &&
            g_lib.dilated_convolution_forward_desc_init(
                &fwd_d, dnnl_forward_inference, dnnl_convolution_direct, &src_any, &wany,
                bias ? &p->md_bias : NULL, &dst_any, strides, dil, pad_l, pad_r) ==
                dnnl_success &&
            (fwd_pd = make_pd(&fwd_d, NULL, NULL, act)) != NULL;
  bool ok = blocked ||
            (g_lib.dilated_convolution_forward_desc_init(
                 &fwd_d, pass == TFC_CONV_FWD ? dnnl_forward_inference : dnnl_forward_training,
                 dnnl_convolution_direct, &src, &wany, bias ? &p->md_bias : NULL, &dst, strides,
                 dil, pad_l, pad_r) == dnnl_success &&
             (fwd_pd = make_pd(&fwd_d, NULL, residual ? &dst : NULL, act)) != NULL);
  if (ok && blocked) ok = setup_blocked(p, fwd_pd, &src, &dst);
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
    ok = g_lib.dilated_convolution_backward_data_desc_init(&d, dnnl_convolution_direct, &src, &wany,
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
    ok = g_lib.dilated_convolution_backward_weights_desc_init(&d, dnnl_convolution_direct, &src,
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
  if (fwd_pd) g_lib.primitive_desc_destroy(fwd_pd);
  if (pd) g_lib.primitive_desc_destroy(pd);
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
  return g_lib.primitive_execute(r, s, 2, args) == dnnl_success;
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
  size_t woff = soff + align64(reorder ? p->wlib_bytes : 0);
  size_t doff = woff + align64(p->src_lib_bytes);
  thread_res *r = thread_resources(doff + p->dst_lib_bytes);
  dnnl_memory_t ma = NULL, mb = NULL, mo = NULL, ms = NULL, mw = NULL, mbias = NULL, mres = NULL;
  dnnl_memory_t msrc = NULL, mdst = NULL; /* blocked activations */
  /* the filter operand: a for the input gradient, b for the other passes */
  bool filter_is_a = p->pass == TFC_CONV_BWD_INPUT;
  bool ok = r &&
            g_lib.memory_create(&ma, filter_is_a && w_lib ? &p->md_wlib : &p->md_a, g_engine,
                               filter_is_a && w_lib ? (void *)w_lib : (void *)a) == dnnl_success &&
            g_lib.memory_create(&mb, !filter_is_a && w_lib ? &p->md_wlib : &p->md_b, g_engine,
                               !filter_is_a && w_lib ? (void *)w_lib : (void *)b) == dnnl_success &&
            g_lib.memory_create(&mo, &p->md_out, g_engine, out) == dnnl_success &&
            (!p->scratch_bytes ||
             g_lib.memory_create(&ms, &p->md_scratch, g_engine, r->scratch) == dnnl_success) &&
            (!p->has_bias ||
             g_lib.memory_create(&mbias, &p->md_bias, g_engine, (void *)bias) == dnnl_success) &&
            (!p->has_residual ||
             g_lib.memory_create(&mres, &p->md_out, g_engine, (void *)residual) == dnnl_success) &&
            (!reorder || g_lib.memory_create(&mw, &p->md_wlib, g_engine,
                                            (char *)r->scratch + soff) == dnnl_success) &&
            (!p->reorder_src ||
             (g_lib.memory_create(&msrc, &p->md_src_lib, g_engine, (char *)r->scratch + woff) ==
                  dnnl_success &&
              g_lib.memory_create(&mdst, &p->md_dst_lib, g_engine, (char *)r->scratch + doff) ==
                  dnnl_success));
  if (ok && ((p->has_bias && !bias) || (p->has_residual && !residual))) ok = false;
  if (ok) {
    dnnl_stream_t s = r->stream;
    dnnl_exec_arg_t args[6] = {{p->arg_a, ma}, {p->arg_b, mb}, {p->arg_out, mo}};
    int nargs = 3;
    if (ms) args[nargs++] = (dnnl_exec_arg_t){DNNL_ARG_SCRATCHPAD, ms};
    if (mbias) args[nargs++] = (dnnl_exec_arg_t){DNNL_ARG_BIAS, mbias};
    if (mres)
      args[nargs++] = (dnnl_exec_arg_t){DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1, mres};
    if (msrc) { /* forward on blocked activations: reorder in, run, reorder out below */
      ok = run_reorder(p->reorder_src, s, ma, msrc);
      args[0].memory = msrc;
      args[2].memory = mdst;
    }
    if (ok && mw) { /* the filter operand goes through the library's layout */
      dnnl_memory_t *user = p->pass == TFC_CONV_FWD ? &args[1].memory
                            : p->pass == TFC_CONV_BWD_INPUT ? &args[0].memory
                                                            : &args[2].memory;
      if (p->pass != TFC_CONV_BWD_FILTER) ok = run_reorder(p->reorder, s, *user, mw);
      dnnl_memory_t u = *user;
      *user = mw;
      ok = ok && g_lib.primitive_execute(p->prim, s, nargs, args) == dnnl_success;
      if (ok && p->pass == TFC_CONV_BWD_FILTER) ok = run_reorder(p->reorder, s, mw, u);
    } else if (ok) {
      ok = g_lib.primitive_execute(p->prim, s, nargs, args) == dnnl_success;
    }
    if (ok && mdst) ok = run_reorder(p->reorder_dst, s, mdst, mo);
    ok = ok && g_lib.stream_wait(s) == dnnl_success;
  }
  if (msrc) g_lib.memory_destroy(msrc);
  if (mdst) g_lib.memory_destroy(mdst);
  if (mw) g_lib.memory_destroy(mw);
  if (ms) g_lib.memory_destroy(ms);
  if (mbias) g_lib.memory_destroy(mbias);
  if (mres) g_lib.memory_destroy(mres);
  if (ma) g_lib.memory_destroy(ma);
  if (mb) g_lib.memory_destroy(mb);
  if (mo) g_lib.memory_destroy(mo);
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
  bool ok = r && g_lib.memory_create(&from, user, g_engine, (void *)filter) == dnnl_success &&
            g_lib.memory_create(&to, &p->md_wlib, g_engine, dst) == dnnl_success &&
            run_reorder(p->reorder, r->stream, from, to) &&
            g_lib.stream_wait(r->stream) == dnnl_success;
  if (from) g_lib.memory_destroy(from);
  if (to) g_lib.memory_destroy(to);
  omp_restore(prev);
  return ok;
}

/* Implementation name (see dnn_backend.h). */
const char *tfc_dnn_conv_impl(const tfc_dnn_conv *p) { return p->impl[0] ? p->impl : "?"; }

/* Frees a primitive (see dnn_backend.h). */
void tfc_dnn_conv_free(tfc_dnn_conv *p) {
  if (!p) return;
  if (p->prim) g_lib.primitive_destroy(p->prim);
  if (p->reorder) g_lib.primitive_destroy(p->reorder);
  if (p->reorder_src) g_lib.primitive_destroy(p->reorder_src);
  if (p->reorder_dst) g_lib.primitive_destroy(p->reorder_dst);
  tfc_free(p);
}

/* Row-major SGEMM through the library (see dnn_backend.h). */
bool tfc_dnn_sgemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, float alpha,
                   const float *a, int64_t lda, const float *b, int64_t ldb, float beta, float *c,
                   int64_t ldc) {
  if (m <= 0 || n <= 0) return true;
  if (!tfc_dnn_available()) return false;
  int prev = omp_single();
  bool ok = g_lib.sgemm(trans_a ? 'T' : 'N', trans_b ? 'T' : 'N', m, n, k, alpha, a, lda, b, ldb,
                       beta, c, ldc) == dnnl_success;
  omp_restore(prev);
  return ok;
}

static char g_desc[96];
static pthread_once_t g_desc_once = PTHREAD_ONCE_INIT;

/* Fills g_desc from the library's version report. */
static void describe_once(void) {
  if (!tfc_dnn_available()) {
    snprintf(g_desc, sizeof g_desc, "oneDNN (not loaded)");
    return;
  }
  const dnnl_version_t *v = g_lib.version();
  snprintf(g_desc, sizeof g_desc, "oneDNN %d.%d.%d (cpu runtime %s)", v->major, v->minor, v->patch,
           v->cpu_runtime == DNNL_RUNTIME_OMP ? "OpenMP" : "other");
}

/* Library description (see dnn_backend.h). */
const char *tfc_dnn_describe(void) {
  pthread_once(&g_desc_once, describe_once);
  return g_desc;
}
