/*
 * executor.c — dataflow execution of partitions (see executor.h).
 */
#include "runtime/executor.h"
#include "runtime/executor_internal.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/alloc.h"
#include "base/hashmap.h"

/* ---- kernel cache (stateful kernels shared across plans) ---- */

typedef struct cached_kernel {
  const tfc_kernel_def *def;
  void *state;
} cached_kernel;

struct tfc_kernel_cache {
  pthread_mutex_t mu;
  tfc_hashmap map;  /* node name -> cached_kernel* */
};

/* Creates an empty cache; NULL on OOM. */
tfc_kernel_cache *tfc_kernel_cache_new(void) {
  tfc_kernel_cache *c = tfc_calloc(1, sizeof *c);
  if (!c) return NULL;
  pthread_mutex_init(&c->mu, NULL);
  tfc_hashmap_init(&c->map);
  return c;
}

/* Destroys every cached state and the cache. */
void tfc_kernel_cache_free(tfc_kernel_cache *c) {
  if (!c) return;
  for (size_t i = 0; i < c->map.cap; i++) {
    const char *k;
    size_t kl;
    void *v;
    if (!tfc_hashmap_slot(&c->map, i, &k, &kl, &v)) continue;
    cached_kernel *ck = v;
    if (ck->def->destroy && ck->state) ck->def->destroy(ck->state);
    tfc_free(ck);
  }
  tfc_hashmap_destroy(&c->map);
  pthread_mutex_destroy(&c->mu);
  tfc_free(c);
}

/* ---- the immutable plan (records in executor_internal.h) ---- */

/* Frees an executor and the kernel states it owns. */
void tfc_executor_free(tfc_executor *x) {
  if (!x) return;
  for (int i = 0; i < x->n; i++) {
    xnode *xn = &x->nodes[i];
    if (xn->owns_state && xn->kdef && xn->kdef->destroy && xn->kstate) xn->kdef->destroy(xn->kstate);
    tfc_free(xn->consumers);
    tfc_free(xn->out_uses);
  }
  tfc_free(x->nodes);
  tfc_free(x->roots);
  tfc_cf_plan_free(x->cf);
  tfc_free(x);
}

/* Number of nodes. */
int tfc_executor_size(const tfc_executor *x) { return x->n; }

/* Writes "T=DT_FLOAT, ..."-style attr summary used in missing-kernel errors. */
static void describe_type_attrs(const tfc_attrs *a, char *buf, size_t size) {
  size_t n = 0;
  buf[0] = 0;
  for (int i = 0; i < a->n && n < size; i++) {
    if (a->items[i].value.kind != TFC_ATTR_TYPE) continue;
    n += (size_t)snprintf(buf + n, size - n, "%s%s=%s", n ? "; " : "", a->items[i].name,
                          tfc_dtype_name(a->items[i].value.v.type));
  }
}

/* Looks up and initialises the kernel of xn (or shares a cached one). */
static bool init_kernel(tfc_executor *x, xnode *xn, const tfc_exec_env *env, tfc_status *st) {
  const tfc_snode *sn = xn->sn;
  /* a call by function name runs on the PartitionedCall kernel */
  const char *kop = (sn->def->flags & TFC_OP_FUNCTION) ? "PartitionedCall" : sn->def->name;
  xn->kdef = tfc_kernel_lookup(kop, env->device_type, sn->attrs);
  if (!xn->kdef) {
    char attrs[256];
    describe_type_attrs(sn->attrs, attrs, sizeof attrs);
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                   "No OpKernel was registered to support Op '%s' used by {{node %s}} with these "
                   "attrs: [%s]\nRegistered devices: [%s]",
                   sn->def->name, sn->name, attrs, env->device_type);
    tfc_status_set_node(st, sn->name);
    return false;
  }
  if (!xn->kdef->init) return true;
  bool share = (sn->def->flags & TFC_OP_STATEFUL) && sn->gnode && env->kernel_cache &&
               !(xn->kdef->flags & TFC_KERNEL_PER_PLAN);
  tfc_kernel_cache *kc = env->kernel_cache;
  size_t klen = share ? strlen(sn->name) : 0;
  if (share) {
    pthread_mutex_lock(&kc->mu);
    bool found = false;
    cached_kernel *ck = tfc_hashmap_get(&kc->map, sn->name, klen, &found);
    if (found && ck->def == xn->kdef) {
      xn->kstate = ck->state;
      pthread_mutex_unlock(&kc->mu);
      return true;
    }
  }
  tfc_kernel_init ki = {
      .node_name = sn->name,
      .op_type = sn->def->name,
      .attrs = sn->attrs,
      .n_inputs = sn->n_inputs,
      .in_types = sn->in_types,
      .n_outputs = sn->n_outputs,
      .out_types = sn->out_types,
      .node = sn->gnode,
      .st = st,
      .flib = env->flib,
  };
  void *state = NULL;
  bool ok = xn->kdef->init(&ki, &state);
  if (!ok) {
    if (st->code == TFC_CODE_OK) tfc_status_set(st, TFC_CODE_INTERNAL, "kernel init failed");
    tfc_status_set_node(st, sn->name);
  }
  if (share) {
    cached_kernel *ck = ok ? tfc_calloc(1, sizeof *ck) : NULL;
    if (ck) {
      ck->def = xn->kdef;
      ck->state = state;
      if (tfc_hashmap_put(&kc->map, sn->name, klen, ck) != 0) {
        tfc_free(ck);
        ck = NULL;
      }
    }
    if (ok && !ck) xn->owns_state = true; /* could not cache: keep it private */
    pthread_mutex_unlock(&kc->mu);
  } else {
    xn->owns_state = true;
  }
  xn->kstate = state;
  (void)x;
  return ok;
}

/* Builds the executor for one partition (see executor.h). */
tfc_executor *tfc_executor_new(const tfc_subgraph *sg, int part_index, const tfc_exec_env *env,
                               tfc_status *st) {
  const tfc_partition *part = &sg->parts[part_index];
  tfc_executor *x = tfc_calloc(1, sizeof *x);
  if (!x) goto oom;
  x->part_index = part_index;
  x->n = part->n;
  x->nodes = tfc_calloc((size_t)(part->n ? part->n : 1), sizeof(xnode));
  x->roots = tfc_malloc(sizeof(int) * (size_t)(part->n ? part->n : 1));
  int *ncons = tfc_calloc((size_t)(part->n ? part->n : 1), sizeof(int));
  if (!x->nodes || !x->roots || !ncons) {
    tfc_free(ncons);
    goto oom;
  }
  int slots = 0;
  for (int i = 0; i < part->n; i++) {
    const tfc_snode *sn = &part->nodes[i];
    xnode *xn = &x->nodes[i];
    xn->sn = sn;
    xn->out_base = slots;
    slots += sn->n_outputs;
    xn->out_uses = tfc_calloc((size_t)(sn->n_outputs ? sn->n_outputs : 1), sizeof(int));
    if (!xn->out_uses) {
      tfc_free(ncons);
      goto oom;
    }
    for (int k = 0; k < sn->n_inputs; k++)
      if (sn->inputs[k].src >= 0) {
        ncons[sn->inputs[k].src]++;
        xn->pending++;
      }
    for (int k = 0; k < sn->n_control; k++) {
      ncons[sn->control[k]]++;
      xn->pending++;
    }
  }
  x->n_slots = slots;
  for (int i = 0; i < part->n; i++) {
    x->nodes[i].consumers = tfc_malloc(sizeof(int) * (size_t)(ncons[i] ? ncons[i] : 1));
    if (!x->nodes[i].consumers) {
      tfc_free(ncons);
      goto oom;
    }
  }
  tfc_free(ncons);
  for (int i = 0; i < part->n; i++) {
    const tfc_snode *sn = &part->nodes[i];
    for (int k = 0; k < sn->n_inputs; k++) {
      int s = sn->inputs[k].src;
      if (s < 0) continue;
      xnode *src = &x->nodes[s];
      src->consumers[src->n_consumers++] = i;
      src->out_uses[sn->inputs[k].index]++;
    }
    for (int k = 0; k < sn->n_control; k++) {
      xnode *src = &x->nodes[sn->control[k]];
      src->consumers[src->n_consumers++] = i;
    }
  }
  for (int f = 0; f < sg->n_fetches; f++) {
    const tfc_fetch_loc *loc = &sg->fetches[f];
    if (loc->feed < 0 && loc->part == part_index) x->nodes[loc->snode].out_uses[loc->index]++;
  }
  for (int i = 0; i < part->n; i++) {
    if (x->nodes[i].pending == 0) x->roots[x->n_roots++] = i;
    if (strcmp(part->nodes[i].def->name, "TemporaryVariable") == 0) x->has_temp_vars = true;
  }
  /* the control-flow runner also serves a partition whose _Send/_Recv may
   * carry a dead tensor (the partitioner marks those of graphs with a Switch) */
  bool has_cf = false, conds_only = true;
  for (int i = 0; i < part->n; i++) {
    const tfc_snode *sn = &part->nodes[i];
    const char *op = sn->def->name;
    if (tfc_cf_is_control_op(op)) {
      has_cf = true;
      if (!strcmp(op, "Switch") || !strcmp(op, "RefSwitch"))
        x->nodes[i].cond_kind = TFC_COND_SWITCH;
      else if (!strcmp(op, "Merge") || !strcmp(op, "RefMerge"))
        x->nodes[i].cond_kind = TFC_COND_MERGE;
      else
        conds_only = false;
    } else if (strcmp(op, "_Recv") == 0 || strcmp(op, "_Send") == 0) {
      const tfc_attr_value *mark = tfc_attrs_find(sn->attrs, TFC_RECV_MAY_BE_DEAD_ATTR);
      if (mark && mark->kind == TFC_ATTR_B && mark->v.b) has_cf = true;
      /* a transfer runs even when dead, so the other side learns of it: the
       * control-flow runner's rule, whatever the partition's marks say */
      conds_only = false;
    } else if (strcmp(op, "_HostRecv") == 0 || strcmp(op, "_HostSend") == 0 ||
               strcmp(op, "ControlTrigger") == 0) {
      conds_only = false; /* ControlTrigger runs live on dead inputs */
    }
  }
  x->conds_only = has_cf && conds_only;
  if (x->conds_only) {
    /* deadness starts at a Switch and spreads to consumers (data or control):
     * mark what a Switch reaches. Node order is not always topological (a
     * cond rewires an op's input to a Switch made after it): repeat passes
     * until nothing changes. */
    for (bool changed = true; changed;) {
      changed = false;
      for (int i = 0; i < part->n; i++) {
        xnode *xn = &x->nodes[i];
        if (xn->may_be_dead) continue;
        const tfc_snode *sn = xn->sn;
        bool dead = false;
        for (int k = 0; k < sn->n_inputs && !dead; k++) {
          int src = sn->inputs[k].src;
          dead = src >= 0 && (x->nodes[src].may_be_dead || x->nodes[src].cond_kind == TFC_COND_SWITCH);
        }
        for (int k = 0; k < sn->n_control && !dead; k++) {
          int src = sn->control[k];
          dead = x->nodes[src].may_be_dead || x->nodes[src].cond_kind == TFC_COND_SWITCH;
        }
        if (dead) xn->may_be_dead = changed = true;
      }
    }
  }
  if (has_cf && !tfc_cf_plan_build(x, sg, part_index, st)) {
    tfc_executor_free(x);
    return NULL;
  }
  for (int i = 0; i < part->n; i++)
    if (!init_kernel(x, &x->nodes[i], env, st)) {
      tfc_executor_free(x);
      return NULL;
    }
  return x;
oom:
  tfc_executor_free(x);
  tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory building the executor");
  return NULL;
}

/* ---- per-step state ---- */

typedef struct slot {
  tfc_tensor *t;
  tfc_var *v;
  atomic_int uses;
} slot;

typedef struct xstate {
  const tfc_executor *x;
  atomic_int *pending;
  slot *slots;
  unsigned char *dead;         /* per node: skipped as dead this step (conds_only plans) */
  bool sample;                 /* time every node this step (node_cost.c) */
} xstate;

typedef struct item {
  int part;
  int node;
} item;

typedef struct run_step {
  tfc_step base;               /* what kernels see */
  const tfc_step_args *args;
  const tfc_exec_env *env;
  int n_parts;
  xstate *parts;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  item *queue;                 /* each node is pushed at most once per step */
  int head, tail;
  int outstanding;             /* pushed or running, not yet completed (under mu) */
  int helpers;                 /* pool workers asked to join drain() (under mu) */
  bool failed;
  tfc_status status;
  tfc_cancel cancel;           /* kernels waiting outside the step register here */
} run_step;

typedef struct async_node {
  tfc_kernel_ctx ctx;
  tfc_async_token token;
  tfc_status st;
  run_step *step;
  int part, node;
  tfc_tensor **temps;          /* values read from variables for this call */
  int n_temps;
  void *heap;                  /* the block holding the ctx arrays */
  int64_t start_ns;            /* when tracing */
} async_node;

/* CLOCK_REALTIME in nanoseconds (step tracing only). */
static int64_t trace_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static atomic_llong next_step_id = 1;

/* The rendezvous of a running step. */
tfc_rendezvous *tfc_step_rendezvous(tfc_step *step) {
  return ((const tfc_step_args *)step->runtime)->rendezvous;
}

/* Records the step's first error (with the node name) and aborts the rendezvous. */
static void step_fail(run_step *s, const tfc_status *st, const char *node) {
  bool first = false;
  pthread_mutex_lock(&s->mu);
  if (!s->failed) {
    s->failed = true;
    first = true;
    tfc_status_copy(&s->status, st);
    if (node && !s->status.node[0]) {
      tfc_status_set_node(&s->status, node);
      size_t len = strlen(s->status.msg);
      snprintf(s->status.msg + len, sizeof s->status.msg - len, "\n\t [[{{node %s}}]]", node);
    }
  }
  pthread_mutex_unlock(&s->mu);
  if (first) {
    atomic_store(&s->base.cancelled, 1);
    if (s->args->rendezvous) s->args->rendezvous->ops->abort(s->args->rendezvous, &s->status);
    tfc_cancel_fire(&s->cancel, &s->status);
  }
}

/* Fails the step with CANCELLED (session closed) or DEADLINE_EXCEEDED when
 * either happened; called by the step's owner while it waits. */
static void check_external_cancel(run_step *s) {
  const tfc_step_args *a = s->args;
  tfc_status e;
  tfc_status_clear(&e);
  if (a->cancel && atomic_load(a->cancel)) {
    tfc_status_set(&e, TFC_CODE_CANCELLED, "Session has been closed or the step was cancelled.");
  } else if (a->deadline_ns > 0) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    if ((int64_t)ts.tv_sec * 1000000000ll + ts.tv_nsec > a->deadline_ns)
      tfc_status_set(&e, TFC_CODE_DEADLINE_EXCEEDED, "Timed out waiting for notification");
  }
  if (e.code != TFC_CODE_OK) step_fail(s, &e, NULL);
}

static void drain(run_step *s);

/* Pool task: helps drain the step's queue. */
static void helper_task(void *arg) {
  run_step *s = arg;
  drain(s);
  pthread_mutex_lock(&s->mu);
  s->helpers--;
  pthread_cond_broadcast(&s->cv);
  pthread_mutex_unlock(&s->mu);
}

/* Marks node (p, i) complete: releases its inputs, pushes ready consumers. */
static void finish_node(run_step *s, int p, int i) {
  xstate *xs = &s->parts[p];
  const xnode *xn = &xs->x->nodes[i];
  const tfc_snode *sn = xn->sn;
  for (int k = 0; k < sn->n_inputs; k++) {
    int src = sn->inputs[k].src;
    if (src < 0) continue;
    slot *sl = &xs->slots[xs->x->nodes[src].out_base + sn->inputs[k].index];
    if (atomic_fetch_sub(&sl->uses, 1) == 1) {
      tfc_tensor_unref(sl->t);
      tfc_var_unref(sl->v);
      sl->t = NULL;
      sl->v = NULL;
    }
  }
  pthread_mutex_lock(&s->mu);
  for (int c = 0; c < xn->n_consumers; c++) {
    int cn = xn->consumers[c];
    if (atomic_fetch_sub(&xs->pending[cn], 1) == 1) {
      s->queue[s->tail].part = p;
      s->queue[s->tail].node = cn;
      s->tail++;
      s->outstanding++;
    }
  }
  s->outstanding--;
  pthread_cond_broadcast(&s->cv);
  pthread_mutex_unlock(&s->mu);
}

/* Stores the kernel's outputs into the node's slots; false on a kernel bug. */
static bool store_outputs(run_step *s, int p, int i, tfc_kernel_ctx *ctx) {
  xstate *xs = &s->parts[p];
  const xnode *xn = &xs->x->nodes[i];
  bool ok = true;
  for (int j = 0; j < ctx->n_outputs; j++) {
    tfc_tensor *t = ctx->outputs[j];
    tfc_var *v = ctx->ref_outputs[j];
    if (ok && xn->out_uses[j] > 0) {
      if (!t && !v && xn->cond_kind == TFC_COND_SWITCH && xs->x->conds_only) {
        /* the output Switch did not take: dead, its slot stays empty */
      } else if (!t && !v) {
        tfc_status e;
        tfc_status_clear(&e);
        if (strcmp(ctx->op_type, "_Recv") == 0)
          tfc_status_set(&e, TFC_CODE_INTERNAL,
                         "%s received a dead tensor in a partition that has no control flow",
                         ctx->node_name);
        else
          tfc_status_set(&e, TFC_CODE_INTERNAL, "Kernel for %s did not produce output %d", ctx->op_type, j);
        step_fail(s, &e, ctx->node_name);
        ok = false;
      } else if (t && t->dtype != tfc_dtype_base(ctx->out_types[j])) {
        tfc_status e;
        tfc_status_clear(&e);
        tfc_status_set(&e, TFC_CODE_INTERNAL, "Kernel for %s produced %s for output %d, expected %s",
                       ctx->op_type, tfc_dtype_name(t->dtype), j, tfc_dtype_name(ctx->out_types[j]));
        step_fail(s, &e, ctx->node_name);
        ok = false;
      }
    }
    if (ok && xn->out_uses[j] > 0) {
      slot *sl = &xs->slots[xn->out_base + j];
      sl->t = t;
      sl->v = v;
      atomic_store(&sl->uses, xn->out_uses[j]);
    } else {
      tfc_tensor_unref(t);
      tfc_var_unref(v);
    }
    ctx->outputs[j] = NULL;
    ctx->ref_outputs[j] = NULL;
  }
  return ok;
}

/* Completion of an async kernel. */
static void async_done(tfc_kernel_ctx *ctx, void *arg) {
  async_node *an = arg;
  run_step *s = an->step;
  if (__builtin_expect(s->args->node_stats != NULL, 0))
    s->args->node_stats(s->args->node_stats_ctx, s->parts[an->part].x->nodes[an->node].sn, an->start_ns,
                        trace_now_ns(), ctx->n_outputs, ctx->outputs);
  if (an->st.code != TFC_CODE_OK) step_fail(s, &an->st, ctx->node_name);
  store_outputs(s, an->part, an->node, ctx);
  for (int k = 0; k < an->n_temps; k++) tfc_tensor_unref(an->temps[k]);
  int p = an->part, i = an->node;
  tfc_free(an->heap);
  tfc_free(an);
  finish_node(s, p, i);
}

/* Gathers the inputs of node (p, i) into ctx; values read from variables
 * are appended to temps (owned). Returns false with st set on failure. */
static bool gather_inputs(run_step *s, int p, int i, tfc_tensor **inputs, tfc_var **refs, tfc_tensor **temps,
                          int *n_temps, tfc_status *st) {
  xstate *xs = &s->parts[p];
  const tfc_snode *sn = xs->x->nodes[i].sn;
  for (int k = 0; k < sn->n_inputs; k++) {
    const tfc_sinput *in = &sn->inputs[k];
    refs[k] = NULL;
    if (in->src < 0) {
      inputs[k] = s->args->feeds[in->index];
      continue;
    }
    slot *sl = &xs->slots[xs->x->nodes[in->src].out_base + in->index];
    if (sl->v) {
      tfc_tensor *val = tfc_var_read(sl->v);
      if (val) temps[(*n_temps)++] = val;
      inputs[k] = val;
      if (tfc_dtype_is_ref(sn->in_types[k])) {
        refs[k] = sl->v;
      } else if (!val) {
        return tfc_status_set(st, TFC_CODE_FAILED_PRECONDITION, "Attempting to use uninitialized value %s",
                              sl->v->name ? sl->v->name : xs->x->nodes[in->src].sn->name);
      }
    } else {
      inputs[k] = sl->t;
    }
  }
  return true;
}

/* In a conds_only plan, whether node (p, i) is dead this step, TF's rule
 * without frames: a slot without a value is a dead tensor; Merge is dead
 * when every data input is, any other node when a data input is or a
 * control input's node was. Every input has arrived (the node is ready), so
 * Merge sees the whole picture and takes the first live input. */
static bool cond_node_is_dead(const run_step *s, int p, int i) {
  const xstate *xs = &s->parts[p];
  const xnode *xn = &xs->x->nodes[i];
  const tfc_snode *sn = xn->sn;
  int dead_data = 0, data = 0;
  for (int k = 0; k < sn->n_inputs; k++) {
    int src = sn->inputs[k].src;
    if (src < 0) continue; /* a feed is live */
    data++;
    const slot *sl = &xs->slots[xs->x->nodes[src].out_base + sn->inputs[k].index];
    if (!sl->t && !sl->v) dead_data++;
  }
  if (xn->cond_kind == TFC_COND_MERGE) return data > 0 && dead_data == data && data == sn->n_inputs;
  if (dead_data > 0) return true;
  for (int k = 0; k < sn->n_control; k++)
    if (xs->dead[sn->control[k]]) return true;
  return false;
}

/* Runs one node: gathers inputs, computes, stores outputs, completes. */
static void process(run_step *s, int p, int i) {
  xstate *xs = &s->parts[p];
  const xnode *xn = &xs->x->nodes[i];
  const tfc_snode *sn = xn->sn;
  if (atomic_load(&s->base.cancelled)) {
    finish_node(s, p, i);
    return;
  }
  if (__builtin_expect(xn->may_be_dead, 0) && cond_node_is_dead(s, p, i)) {
    xs->dead[i] = 1; /* no kernel call; its output slots stay empty */
    finish_node(s, p, i);
    return;
  }
  int nin = sn->n_inputs, nout = sn->n_outputs;
  bool async = (xn->kdef->flags & TFC_KERNEL_ASYNC) != 0;
  enum { SMALL = 8 };
  tfc_tensor *in_small[SMALL], *tmp_small[SMALL], *out_small[SMALL];
  tfc_var *ref_small[SMALL], *rout_small[SMALL];
  async_node *an = NULL;
  tfc_tensor **inputs = in_small, **temps = tmp_small, **outputs = out_small;
  tfc_var **refs = ref_small, **routs = rout_small;
  void *heap = NULL;
  tfc_status local_st;
  tfc_status *st = &local_st;
  size_t need = sizeof(void *) * (size_t)(3 * nin + 2 * nout + 5);
  if (async || nin > SMALL || nout > SMALL) {
    if (async) {
      an = tfc_calloc(1, sizeof *an);
      heap = an ? tfc_calloc(1, need) : NULL;
      if (an) st = &an->st;
    } else {
      heap = tfc_calloc(1, need);
    }
    if (!heap) {
      tfc_free(an);
      tfc_status_clear(&local_st);
      tfc_status_set(&local_st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory running %s", sn->name);
      step_fail(s, &local_st, sn->name);
      finish_node(s, p, i);
      return;
    }
    void **h = heap;
    inputs = (tfc_tensor **)h;
    temps = (tfc_tensor **)(h + nin + 1);
    refs = (tfc_var **)(h + 2 * nin + 2);
    outputs = (tfc_tensor **)(h + 3 * nin + 3);
    routs = (tfc_var **)(h + 3 * nin + nout + 4);
  }
  tfc_status_clear(st);
  for (int j = 0; j < nout; j++) {
    outputs[j] = NULL;
    routs[j] = NULL;
  }
  int n_temps = 0;
  tfc_kernel_ctx local_ctx;
  tfc_kernel_ctx *ctx = an ? &an->ctx : &local_ctx;
  if (!gather_inputs(s, p, i, inputs, refs, temps, &n_temps, st)) {
    step_fail(s, st, sn->name);
    for (int k = 0; k < n_temps; k++) tfc_tensor_unref(temps[k]);
    tfc_free(an);
    tfc_free(heap);
    finish_node(s, p, i);
    return;
  }
  *ctx = (tfc_kernel_ctx){
      .node_name = sn->name,
      .op_type = sn->def->name,
      .attrs = sn->attrs,
      .state = xn->kstate,
      .n_inputs = nin,
      .inputs = inputs,
      .ref_inputs = refs,
      .n_outputs = nout,
      .outputs = outputs,
      .ref_outputs = routs,
      .out_types = sn->out_types,
      .st = st,
      .intra_pool = s->env->intra_pool,
      .step = &s->base,
      .node = sn->gnode,
  };
  if (an) {
    an->step = s;
    an->part = p;
    an->node = i;
    an->token.done = async_done;
    an->token.arg = an;
    an->temps = temps;
    an->n_temps = n_temps;
    an->heap = heap;
    ctx->async_token = &an->token;
    if (__builtin_expect(s->args->node_stats != NULL, 0)) an->start_ns = trace_now_ns();
    /* an async kernel occupies this thread only until compute returns */
    bool timed = tfc_node_cost_wanted(xn, xs->sample);
    int64_t c0 = timed ? tfc_node_cost_now_ns() : 0;
    xn->kdef->compute(ctx); /* async_done may run (and free an) before this returns */
    if (timed) tfc_node_cost_record(xn, tfc_node_cost_now_ns() - c0);
    return; /* async_done frees and completes */
  }
  bool timed = tfc_node_cost_wanted(xn, xs->sample);
  int64_t c0 = timed ? tfc_node_cost_now_ns() : 0;
  if (__builtin_expect(s->args->node_stats != NULL, 0)) {
    int64_t t0 = trace_now_ns();
    xn->kdef->compute(ctx);
    s->args->node_stats(s->args->node_stats_ctx, sn, t0, trace_now_ns(), ctx->n_outputs, ctx->outputs);
  } else {
    xn->kdef->compute(ctx);
  }
  if (timed) tfc_node_cost_record(xn, tfc_node_cost_now_ns() - c0);
  if (st->code != TFC_CODE_OK) step_fail(s, st, sn->name);
  store_outputs(s, p, i, ctx);
  for (int k = 0; k < n_temps; k++) tfc_tensor_unref(temps[k]);
  tfc_free(heap);
  finish_node(s, p, i);
}

/* Pops and processes queued nodes until the queue is empty. Before running
 * an expensive node (node_cost.c) while other nodes wait, asks a pool worker
 * to join, so cheap nodes never pay for a thread hand-off. */
static void drain(run_step *s) {
  pthread_mutex_lock(&s->mu);
  while (s->head < s->tail) {
    item it = s->queue[s->head++];
    bool spawn = s->head < s->tail && s->env->inter_pool &&
                 s->helpers < tfc_threadpool_size(s->env->inter_pool) &&
                 tfc_node_cost_expensive(&s->parts[it.part].x->nodes[it.node]);
    if (spawn) s->helpers++;
    pthread_mutex_unlock(&s->mu);
    if (spawn && tfc_threadpool_schedule(s->env->inter_pool, helper_task, s) != 0) {
      pthread_mutex_lock(&s->mu);
      s->helpers--;
      pthread_cond_broadcast(&s->cv);
      pthread_mutex_unlock(&s->mu);
    }
    process(s, it.part, it.node);
    pthread_mutex_lock(&s->mu);
  }
  pthread_mutex_unlock(&s->mu);
}

/* Runs one step (see executor.h). */
bool tfc_run_step(const tfc_step_args *a, const tfc_exec_env *env, tfc_status *st) {
  for (int p = 0; p < a->n_execs; p++)
    if (a->execs[p]->cf && !a->execs[p]->conds_only) return tfc_run_step_cf(a, env, st);
  const tfc_subgraph *sg = a->sg;
  run_step s;
  memset(&s, 0, sizeof s);
  s.args = a;
  s.env = env;
  s.n_parts = a->n_execs;
  s.base.step_id = atomic_fetch_add(&next_step_id, 1);
  s.base.resources = env->resources;
  s.base.log = env->log;
  s.base.log_ctx = env->log_ctx;
  s.base.out = env->out;
  s.base.runtime = (void *)a;
  s.base.flib = env->flib;
  tfc_cancel_init(&s.cancel);
  s.base.cancel_reg = &s.cancel;
  int total = 0, total_slots = 0;
  for (int p = 0; p < a->n_execs; p++) {
    total += a->execs[p]->n;
    total_slots += a->execs[p]->n_slots;
  }
  /* one block: parts, queue, pending counts, slots */
#define ALIGN16(x) (((x) + 15) & ~(size_t)15)
  size_t sz_parts = ALIGN16(sizeof(xstate) * (size_t)a->n_execs);
  size_t sz_queue = ALIGN16(sizeof(item) * (size_t)(total + 1));
  size_t sz_pend = ALIGN16(sizeof(atomic_int) * (size_t)(total + 1));
  size_t sz_slots = ALIGN16(sizeof(slot) * (size_t)(total_slots + 1));
  size_t sz_dead = ALIGN16((size_t)(total + 1));
#undef ALIGN16
  char *block = tfc_calloc(1, sz_parts + sz_queue + sz_pend + sz_slots + sz_dead);
  if (!block) {
    tfc_cancel_destroy(&s.cancel);
    return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory starting a step");
  }
  s.parts = (xstate *)block;
  s.queue = (item *)(block + sz_parts);
  atomic_int *pend = (atomic_int *)(block + sz_parts + sz_queue);
  slot *slots = (slot *)(block + sz_parts + sz_queue + sz_pend);
  unsigned char *dead = (unsigned char *)(block + sz_parts + sz_queue + sz_pend + sz_slots);
  pthread_mutex_init(&s.mu, NULL);
  pthread_cond_init(&s.cv, NULL);
  for (int p = 0; p < a->n_execs; p++) {
    const tfc_executor *x = a->execs[p];
    s.parts[p].x = x;
    s.parts[p].pending = pend;
    s.parts[p].slots = slots;
    s.parts[p].dead = dead;
    s.parts[p].sample = tfc_node_cost_sample_step(a->execs[p]);
    for (int i = 0; i < x->n; i++) atomic_init(&pend[i], x->nodes[i].pending);
    pend += x->n;
    dead += x->n;
    slots += x->n_slots;
    for (int r = 0; r < x->n_roots; r++) {
      s.queue[s.tail].part = p;
      s.queue[s.tail].node = x->roots[r];
      s.tail++;
      s.outstanding++;
    }
  }
  for (;;) {
    drain(&s);
    pthread_mutex_lock(&s.mu);
    while (s.head == s.tail && (s.outstanding > 0 || s.helpers > 0)) {
      if (a->deadline_ns > 0 || a->cancel) {
        /* wake up now and then to notice a deadline or a close while a kernel waits */
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 20 * 1000000;
        if (ts.tv_nsec >= 1000000000) {
          ts.tv_sec++;
          ts.tv_nsec -= 1000000000;
        }
        pthread_cond_timedwait(&s.cv, &s.mu, &ts);
        if (!s.failed) {
          pthread_mutex_unlock(&s.mu);
          check_external_cancel(&s);
          pthread_mutex_lock(&s.mu);
        }
      } else {
        pthread_cond_wait(&s.cv, &s.mu);
      }
    }
    bool done = s.head == s.tail && s.outstanding == 0 && s.helpers == 0;
    pthread_mutex_unlock(&s.mu);
    if (done) break;
  }
  bool ok = !s.failed;
  if (ok) {
    /* collect fetches */
    for (int f = 0; f < sg->n_fetches && ok; f++) {
      const tfc_fetch_loc *loc = &sg->fetches[f];
      tfc_tensor *t = NULL;
      if (loc->feed >= 0) {
        t = tfc_tensor_ref(a->feeds[loc->feed]);
      } else {
        xstate *xs = &s.parts[loc->part];
        slot *sl = &xs->slots[xs->x->nodes[loc->snode].out_base + loc->index];
        if (sl->v) {
          t = tfc_var_read(sl->v);
          if (!t) {
            tfc_status e;
            tfc_status_clear(&e);
            tfc_status_set(&e, TFC_CODE_FAILED_PRECONDITION, "Attempting to use uninitialized value %s",
                           sl->v->name ? sl->v->name : xs->x->nodes[loc->snode].sn->name);
            tfc_status_copy(&s.status, &e);
            tfc_status_set_node(&s.status, xs->x->nodes[loc->snode].sn->name);
            ok = false;
          }
        } else if (!sl->t) {
          /* only a conds_only plan leaves a fetched slot empty: the value is dead */
          tfc_status_set(&s.status, TFC_CODE_INVALID_ARGUMENT, "Retval[%d] does not have value", f);
          ok = false;
        } else {
          t = tfc_tensor_ref(sl->t);
        }
      }
      a->fetch_out[f] = t;
    }
    if (!ok)
      for (int f = 0; f < sg->n_fetches; f++) {
        tfc_tensor_unref(a->fetch_out[f]);
        a->fetch_out[f] = NULL;
      }
  }
  if (!ok) tfc_status_copy(st, &s.status);
  /* release everything still held in slots */
  for (int p = 0; p < a->n_execs; p++) {
    xstate *xs = &s.parts[p];
    for (int k = 0; k < xs->x->n_slots; k++) {
      tfc_tensor_unref(xs->slots[k].t);
      tfc_var_unref(xs->slots[k].v);
    }
  }
  /* temporary variables live for one step only */
  bool temps = false;
  for (int p = 0; p < a->n_execs; p++) temps = temps || a->execs[p]->has_temp_vars;
  if (temps) {
    char tmp_container[64];
    snprintf(tmp_container, sizeof tmp_container, "_tmp_step_%lld", (long long)s.base.step_id);
    tfc_resource_mgr_clear_container(env->resources, tmp_container);
  }
  tfc_cancel_destroy(&s.cancel);
  pthread_cond_destroy(&s.cv);
  pthread_mutex_destroy(&s.mu);
  tfc_free(block);
  return ok;
}
