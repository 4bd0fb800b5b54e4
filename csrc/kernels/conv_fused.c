/*
 * conv_fused.c — the kernels of _FusedConv2D and _FusedDepthwiseConv2dNative
 * (TF's names and attrs): a float NHWC convolution followed by BiasAdd, an
 * inference-mode FusedBatchNorm or both, then optionally the Add of a
 * tensor of the output's shape (the last argument, a residual), then
 * optionally Relu or Relu6, in one node.
 * The plan builder (runtime/remap.c) rewrites such chains into these ops; a
 * GraphDef may also contain them.
 *
 * The batch norm is folded into the convolution: with
 * scale = gamma / sqrt(variance + epsilon), the filter's output channel o is
 * multiplied by scale[o] and the bias is offset - mean * scale. The DNN
 * library then adds the bias and the residual and applies the activation
 * as it writes the output (the residual is only read, so it may be any
 * tensor, fetched or read elsewhere too). When the node's filter and arguments come from Const nodes
 * (TFC_CONV_CONST_ATTR) the folded filter and bias are computed once per
 * kernel instance and kept, and conv_dnn.c keeps the filter reordered to its
 * layout too; otherwise both happen on every call. Where the library cannot
 * or should not run the shape, the folded filter goes through tfc's own
 * convolution and a loop adds the bias (and residual) and applies the
 * activation. A residual whose shape differs from the convolution's output
 * is added with AddV2's broadcasting, after the convolution.
 */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "kernels/conv_internal.h"
#include "kernels/conv_winograd.h"
#include "kernels/elementwise_internal.h"

/* Arguments at most (BiasAdd then FusedBatchNorm then Add: bias, scale,
 * offset, mean, variance, residual). */
#define MAX_ARGS 6

typedef struct fused_state {
  bool depthwise;
  bool bias;                   /* BiasAdd (1 arg, first) */
  bool bn;                     /* FusedBatchNorm (4 args, after the bias) */
  bool add;                    /* Add (1 arg, the last: the residual) */
  tfc_conv_act act;
  float epsilon;
  int n_args;
  bool const_weights;          /* filter and args come from Const nodes */
  tfc_conv_dnn_cache *dnn;     /* NULL: the library is off */
  pthread_mutex_t mu;          /* guards the fields below */
  bool folded;                 /* w and b hold the folded weights of `held` */
  tfc_tensor *held[2 + MAX_ARGS]; /* references to the inputs folded (filter, args) */
  float *w, *b;
  /* Winograd (kernels/conv_winograd.h): the transformed constant filter
   * wino_u of the filter at wino_src (kept alive by wino_held when it is
   * the input itself), made on first use. */
  const float *wino_src;
  tfc_tensor *wino_held;
  float *wino_u;
} fused_state;

/* Frees a fused kernel's state (see conv_internal.h). */
void tfc_fused_conv_destroy(void *state) {
  fused_state *s = state;
  if (!s) return;
  tfc_conv_dnn_cache_free(s->dnn);
  for (int i = 0; i < 2 + MAX_ARGS; i++) tfc_tensor_unref(s->held[i]);
  tfc_aligned_free(s->w);
  tfc_aligned_free(s->b);
  tfc_tensor_unref(s->wino_held);
  tfc_aligned_free(s->wino_u);
  pthread_mutex_destroy(&s->mu);
  tfc_free(s);
}

/* Writes the fused_ops list as "[A,B]" into buf (for messages). */
static void ops_str(const tfc_attr_list *l, char *buf, size_t cap) {
  size_t n = (size_t)snprintf(buf, cap, "[");
  for (int i = 0; l && i < l->n && n < cap; i++)
    n += (size_t)snprintf(buf + n, cap - n, "%s%.*s", i ? "," : "", (int)l->v.s[i].len,
                          l->v.s[i].data);
  if (n < cap) snprintf(buf + n, cap - n, "]");
}

/* True when list element i is the string s. */
static bool op_is(const tfc_attr_list *l, int i, const char *s) {
  return l->v.s[i].len == strlen(s) && memcmp(l->v.s[i].data, s, l->v.s[i].len) == 0;
}

/* Parses fused_ops, num_args and epsilon (see conv_internal.h). Supported:
 * [BiasAdd], [FusedBatchNorm] or (beyond TF, for the plan builder's
 * Conv2D -> BiasAdd -> FusedBatchNorm chains) [BiasAdd, FusedBatchNorm],
 * each optionally followed by Add, then optionally by Relu or Relu6. */
bool tfc_fused_conv_init(const tfc_kernel_init *ki, void **state) {
  *state = NULL;
  const tfc_attr_list *ops = NULL;
  int64_t num_args = 0;
  float eps = 1e-4f;
  if (!tfc_attrs_get_list(ki->attrs, "fused_ops", &ops, ki->st) ||
      !tfc_attrs_get_int(ki->attrs, "num_args", &num_args, ki->st))
    return false;
  const tfc_attr_value *e = tfc_attrs_find(ki->attrs, "epsilon");
  if (e && e->kind == TFC_ATTR_F) eps = e->v.f;
  bool is_str = ops->kind == TFC_ATTR_S || ops->n == 0;
  int k = 0;
  bool bias = is_str && k < ops->n && op_is(ops, k, "BiasAdd");
  k += bias;
  bool bn = is_str && k < ops->n && op_is(ops, k, "FusedBatchNorm");
  k += bn;
  bool add = (bias || bn) && k < ops->n && op_is(ops, k, "Add");
  k += add;
  tfc_conv_act act = TFC_CONV_ACT_NONE;
  bool ok = bias || bn;
  if (ok && k < ops->n) {
    if (op_is(ops, k, "Relu")) act = TFC_CONV_ACT_RELU;
    else if (op_is(ops, k, "Relu6")) act = TFC_CONV_ACT_RELU6;
    else ok = false;
    k++;
  }
  ok = ok && k == ops->n;
  if (!ok) {
    char buf[160];
    ops_str(is_str ? ops : NULL, buf, sizeof buf);
    tfc_status_set(ki->st, TFC_CODE_UNIMPLEMENTED, "Fusion is not implemented: %s", buf);
    return false;
  }
  int want = (bias ? 1 : 0) + (bn ? 4 : 0) + (add ? 1 : 0);
  if (num_args != want) {
    tfc_status_set(ki->st, TFC_CODE_INVALID_ARGUMENT, "%s%s must have %d argument%s",
                   bn ? "Fused batch norm" : "Fused BiasAdd", add ? " + Add" : "", want,
                   want > 1 ? "s" : "");
    return false;
  }
  fused_state *s = tfc_calloc(1, sizeof *s);
  if (!s) {
    tfc_status_set(ki->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory creating a fused conv");
    return false;
  }
  pthread_mutex_init(&s->mu, NULL);
  s->depthwise = strcmp(ki->op_type, "_FusedDepthwiseConv2dNative") == 0;
  s->bias = bias;
  s->bn = bn;
  s->add = add;
  s->act = act;
  s->epsilon = eps;
  s->n_args = (int)num_args;
  const tfc_attr_value *c = tfc_attrs_find(ki->attrs, TFC_CONV_CONST_ATTR);
  s->const_weights = c && c->kind == TFC_ATTR_B && c->v.b;
  if (tfc_conv_dnn_wanted()) s->dnn = tfc_conv_dnn_cache_new(); /* NULL: own kernels */
  *state = s;
  return true;
}

/* Number of arguments that are weights (all but the residual). */
static int n_weights(const fused_state *s) { return s->n_args - (s->add ? 1 : 0); }

/* Folds the batch norm (args: [bias,] scale, offset, mean, variance) into w
 * (a copy of filter, flen floats, output channel = index % od) and b ([od]):
 * b = offset + (bias - mean) * scale. */
static void fold_bn(const fused_state *s, const float *filter, int64_t flen, int64_t od,
                    tfc_tensor *const *args, float *w, float *b) {
  const float *bias = s->bias ? args[0]->data : NULL;
  args += s->bias;
  const float *gamma = args[0]->data, *beta = args[1]->data, *mean = args[2]->data,
              *var = args[3]->data;
  float *scale = b; /* b holds the scales until the last loop */
  for (int64_t o = 0; o < od; o++) scale[o] = gamma[o] / sqrtf(var[o] + s->epsilon);
  for (int64_t i = 0; i < flen; i += od)
    for (int64_t o = 0; o < od; o++) w[i + o] = filter[i + o] * scale[o];
  for (int64_t o = 0; o < od; o++)
    b[o] = beta[o] + ((bias ? bias[o] : 0.0f) - mean[o]) * scale[o];
}

/* Folded filter and bias for this call: *w and *b point at the state's
 * copies (constant weights, folded once), at the inputs themselves (BiasAdd:
 * nothing to fold) or at *tmp_w / *tmp_b that the caller frees. *cached is
 * true when they are the kernel instance's own and never change. false +
 * ctx failed on OOM. */
static bool folded_weights(tfc_kernel_ctx *ctx, fused_state *s, int64_t od, const float **w,
                           const float **b, float **tmp_w, float **tmp_b, bool *cached) {
  const tfc_tensor *f = ctx->inputs[1];
  tfc_tensor *const *args = ctx->inputs + 2;
  *tmp_w = *tmp_b = NULL;
  *cached = s->const_weights;
  if (!s->bn) {
    *w = f->data;
    *b = args[0]->data;
    return true;
  }
  if (s->const_weights) {
    pthread_mutex_lock(&s->mu);
    /* the references held keep the folded tensors alive, so equal
     * addresses mean the very tensors that were folded */
    bool same = s->folded;
    for (int i = 1; same && i < 2 + n_weights(s); i++) same = s->held[i] == ctx->inputs[i];
    if (!s->folded) {
      s->w = tfc_aligned_alloc((size_t)f->nelems * sizeof(float));
      s->b = tfc_aligned_alloc((size_t)od * sizeof(float));
      if (s->w && s->b) {
        fold_bn(s, f->data, f->nelems, od, args, s->w, s->b);
        for (int i = 1; i < 2 + n_weights(s); i++) s->held[i] = tfc_tensor_ref(ctx->inputs[i]);
        s->folded = same = true;
      } else {
        tfc_aligned_free(s->w);
        tfc_aligned_free(s->b);
        s->w = s->b = NULL;
      }
    }
    pthread_mutex_unlock(&s->mu);
    if (same) {
      *w = s->w;
      *b = s->b;
      return true;
    }
    *cached = false; /* other tensors than the ones folded: fold for this call */
  }
  *tmp_w = tfc_aligned_alloc((size_t)f->nelems * sizeof(float));
  *tmp_b = tfc_aligned_alloc((size_t)od * sizeof(float));
  if (!*tmp_w || !*tmp_b)
    return tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM folding a batch norm");
  fold_bn(s, f->data, f->nelems, od, args, *tmp_w, *tmp_b);
  *w = *tmp_w;
  *b = *tmp_b;
  return true;
}

typedef struct epilogue_job {
  float *out;
  const float *bias;       /* [od], or NULL: already added */
  const float *residual;   /* the output's shape, or NULL */
  int64_t od;
  tfc_conv_act act;
} epilogue_job;

/* Applies act to v. */
static inline float apply_act(tfc_conv_act act, float v) {
  if (act == TFC_CONV_ACT_RELU) return v > 0.0f ? v : 0.0f;
  if (act == TFC_CONV_ACT_RELU6) return v > 0.0f ? (v < 6.0f ? v : 6.0f) : 0.0f;
  return v;
}

/* Adds the bias and the residual and applies the activation to output
 * pixels [p0, p1). */
static void epilogue_range(void *arg, int64_t p0, int64_t p1) {
  const epilogue_job *j = arg;
  for (int64_t p = p0; p < p1; p++) {
    float *restrict o = j->out + p * j->od;
    const float *restrict b = j->bias;
    const float *restrict r = j->residual ? j->residual + p * j->od : NULL;
    if (b && r) {
      for (int64_t c = 0; c < j->od; c++) o[c] = apply_act(j->act, o[c] + b[c] + r[c]);
    } else if (b) {
      for (int64_t c = 0; c < j->od; c++) o[c] = apply_act(j->act, o[c] + b[c]);
    } else if (r) {
      for (int64_t c = 0; c < j->od; c++) o[c] = apply_act(j->act, o[c] + r[c]);
    } else {
      for (int64_t c = 0; c < j->od; c++) o[c] = apply_act(j->act, o[c]);
    }
  }
}

/* Runs the epilogue job j over the pixels of an output of n floats. */
static void run_epilogue(tfc_kernel_ctx *ctx, epilogue_job *j, int64_t n) {
  int64_t pixels = n / j->od;
  int64_t shard = (int64_t)1 << 14;
  shard = shard / j->od > 0 ? shard / j->od : 1;
  tfc_kernel_parallel_for(ctx, pixels, shard, epilogue_range, j);
}

/* Checks that every weight argument is a float vector of od values. */
static bool check_args(tfc_kernel_ctx *ctx, const fused_state *s, int64_t od) {
  if (ctx->n_inputs != 2 + s->n_args)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "expected %d inputs, got %d",
                           2 + s->n_args, ctx->n_inputs);
  for (int i = 0; i < n_weights(s); i++) {
    const tfc_tensor *a = ctx->inputs[2 + i];
    if (a->rank != 1 || a->dims[0] != od)
      return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                             "fused argument %d must be a vector of %lld values (the output depth)",
                             i, (long long)od);
  }
  return true;
}

/* Broadcast inner loop: out = act(in0 + in1) over n elements (arg: the
 * activation). */
static int add_act_inner(void *arg, const char *const *in, const int *step, char *out, int64_t n) {
  tfc_conv_act act = *(const tfc_conv_act *)arg;
  const float *x = (const float *)in[0], *y = (const float *)in[1];
  float *z = (float *)out;
  for (int64_t i = 0; i < n; i++) z[i] = apply_act(act, x[i * step[0]] + y[i * step[1]]);
  return 0;
}

/* The convolution with bias into its own tensor y (no residual, no
 * activation), then output 0 = act(y + residual) with AddV2's broadcasting:
 * for a residual whose shape differs from y's. */
static void conv_then_broadcast_add(tfc_kernel_ctx *ctx, fused_state *s, const tfc_conv_geom *g,
                                    const float *w, const float *b, bool cached,
                                    const tfc_tensor *res) {
  int64_t od[4] = {g->batch, g->out_rows, g->out_cols, g->out_depth};
  tfc_tensor *y = tfc_tensor_new(TFC_DTYPE_FLOAT, 4, od, ctx->st);
  if (!y) return;
  const float *in = ctx->inputs[0]->data;
  int rc = 0;
  if (s->dnn && y->nelems) {
    tfc_conv_epilogue ep = {.bias = b, .act = TFC_CONV_ACT_NONE, .const_filter = cached};
    rc = tfc_conv_dnn_fwd(ctx, s->dnn, s->depthwise, g, in, w, &ep, y->data);
  }
  if (rc == 0 && y->nelems) {
    if (s->depthwise) {
      tfc_depthwise_fwd(ctx, TFC_DTYPE_FLOAT, g, in, w, y->data);
    } else if (!tfc_conv2d_fwd_gemm(ctx, TFC_DTYPE_FLOAT, g, in, w, y->data)) {
      rc = -1;
    }
    if (rc == 0) {
      epilogue_job j = {.out = y->data, .bias = b, .od = g->out_depth, .act = TFC_CONV_ACT_NONE};
      run_epilogue(ctx, &j, y->nelems);
    }
  }
  const tfc_tensor *ins[2] = {y, res};
  tfc_ew_plan plan;
  if (rc >= 0 && tfc_kernel_ok(ctx) && !tfc_ew_plan_make(&plan, 2, ins)) {
    char sa[400], sb[400];
    tfc_ew_dims_string(y->rank, y->dims, sa, sizeof sa);
    tfc_ew_dims_string(res->rank, res->dims, sb, sizeof sb);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Incompatible shapes: %s vs. %s", sa, sb);
  } else if (rc >= 0 && tfc_kernel_ok(ctx)) {
    tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_FLOAT, plan.out_rank, plan.out_dims);
    if (out && out->nelems) {
      const void *data[2] = {y->data, res->data};
      size_t esz[2] = {sizeof(float), sizeof(float)};
      tfc_conv_act act = s->act;
      tfc_ew_plan_run(ctx, &plan, data, esz, out->data, sizeof(float), TFC_EW_SHARD,
                      add_act_inner, &act);
    }
  }
  tfc_tensor_unref(y);
}

typedef struct wino_job {
  const tfc_conv_geom *g;
  const float *in, *u, *bias, *residual;
  tfc_conv_act act;
  float *out;
  atomic_bool oom;
} wino_job;

/* Runs Winograd tiles [t0, t1) of job arg with scratch of its own. */
static void wino_range(void *arg, int64_t t0, int64_t t1) {
  wino_job *j = arg;
  float *scratch =
      tfc_aligned_alloc((size_t)tfc_wino_scratch_floats(j->g, t0, t1) * sizeof(float));
  if (!scratch) {
    atomic_store(&j->oom, true);
    return;
  }
  tfc_wino_run(j->g, j->in, j->u, j->bias, j->residual, j->act, t0, t1, scratch, j->out);
  tfc_aligned_free(scratch);
}

/* The transformed filter of the constant filter w (held by the state or by
 * the filter input), made on first use, or NULL (not made: OOM, or another
 * filter than the one transformed). */
static const float *wino_filter(tfc_kernel_ctx *ctx, fused_state *s, const tfc_conv_geom *g,
                                const float *w) {
  pthread_mutex_lock(&s->mu);
  if (!s->wino_u) {
    s->wino_u = tfc_aligned_alloc((size_t)(36 * g->in_depth * g->out_depth) * sizeof(float));
    if (s->wino_u) {
      tfc_wino_filter(w, g->in_depth, g->out_depth, s->wino_u);
      s->wino_src = w;
      if (w == ctx->inputs[1]->data) s->wino_held = tfc_tensor_ref(ctx->inputs[1]);
    }
  }
  const float *u = s->wino_u && s->wino_src == w ? s->wino_u : NULL;
  pthread_mutex_unlock(&s->mu);
  return u;
}

/* Computes the convolution with its epilogue through Winograd when the
 * shape and a constant filter allow it; true when done (output written),
 * false to take the other kernels. */
static bool try_winograd(tfc_kernel_ctx *ctx, fused_state *s, const tfc_conv_geom *g,
                         const float *in, const float *w, const float *b, bool cached,
                         const float *rd, float *out) {
  if (!cached || s->depthwise || !tfc_wino_wanted(g)) return false;
  const float *u = wino_filter(ctx, s, g, w);
  if (!u) return false;
  wino_job j = {.g = g, .in = in, .u = u, .bias = b, .residual = rd, .act = s->act, .out = out};
  atomic_init(&j.oom, false);
  int64_t tiles = tfc_wino_tiles(g);
  int64_t nt = tfc_conv_threads(ctx);
  int64_t shard = (tiles + nt - 1) / nt;
  tfc_kernel_parallel_for(ctx, tiles, shard < 16 ? 16 : shard, wino_range, &j);
  if (atomic_load(&j.oom))
    return tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in a Winograd convolution");
  return true;
}

/* The fused convolution (see conv_internal.h). */
void tfc_fused_conv_compute(tfc_kernel_ctx *ctx) {
  fused_state *s = ctx->state;
  tfc_conv_geom g;
  if (!tfc_conv_fwd_geom(ctx, s->depthwise, ctx->op_type, &g)) return;
  if (!check_args(ctx, s, g.out_depth)) return;
  int64_t od[4] = {g.batch, g.out_rows, g.out_cols, g.out_depth};
  const tfc_tensor *res = s->add ? ctx->inputs[1 + s->n_args] : NULL;
  if (res && res->dtype != TFC_DTYPE_FLOAT)
    return (void)tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                                 "the residual addend must be float, got %s",
                                 tfc_dtype_name(res->dtype));
  bool res_same = res && res->rank == 4 && memcmp(res->dims, od, sizeof od) == 0;
  const float *w = NULL, *b = NULL;
  float *tmp_w = NULL, *tmp_b = NULL;
  bool cached;
  if (res && !res_same) {
    if (folded_weights(ctx, s, g.out_depth, &w, &b, &tmp_w, &tmp_b, &cached))
      conv_then_broadcast_add(ctx, s, &g, w, b, cached, res);
    goto done;
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_FLOAT, 4, od);
  if (!out || out->nelems == 0) return;
  if (!folded_weights(ctx, s, g.out_depth, &w, &b, &tmp_w, &tmp_b, &cached)) goto done;
  const float *in = ctx->inputs[0]->data;
  const float *rd = res ? res->data : NULL;
  int rc = 0;
  if (try_winograd(ctx, s, &g, in, w, b, cached, rd, out->data)) goto done;
  if (!tfc_kernel_ok(ctx)) goto done;
  if (s->dnn) {
    tfc_conv_epilogue ep = {.bias = b, .residual = rd, .act = s->act, .const_filter = cached};
    rc = tfc_conv_dnn_fwd(ctx, s->dnn, s->depthwise, &g, in, w, &ep, out->data);
  }
  if (rc == 0) {
    if (s->depthwise) {
      tfc_depthwise_fwd(ctx, TFC_DTYPE_FLOAT, &g, in, w, out->data);
    } else if (!tfc_conv2d_fwd_gemm(ctx, TFC_DTYPE_FLOAT, &g, in, w, out->data)) {
      goto done;
    }
    epilogue_job j = {.out = out->data, .bias = b, .residual = rd, .od = g.out_depth,
                      .act = s->act};
    run_epilogue(ctx, &j, out->nelems);
  }
done:
  tfc_aligned_free(tmp_w);
  tfc_aligned_free(tmp_b);
}
