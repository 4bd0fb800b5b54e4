/*
 * executor_cf.c — running plans that hold version-1 control flow.
 *
 * Plans with Switch/Merge/Enter/Exit/NextIteration come here; every other
 * plan keeps the straight-line runner of executor.c, which pays nothing for
 * frames.
 *
 * The plan side (tfc_cf_plan, immutable): every node's static frame found by
 * a walk from the roots (an Enter's consumers are in the frame named by its
 * frame_name, an Exit's in the parent of its own), numbered per frame, with
 * out-edge lists that say which input slot of the consumer an output fills.
 *
 * The step side (per run): frames are instances of static frames, one per
 * (parent frame, parent iteration, frame name); each holds a ring of
 * parallel_iterations + 1 iteration states, and each iteration state holds
 * pending counts, dead-input counts and the input values of the frame's
 * nodes. A value slot without a value is a dead tensor. Semantics are
 * TensorFlow's:
 *  - a node with a dead input does not run; all its outputs are dead
 *    (ControlTrigger runs live anyway);
 *  - Switch leaves the output it does not take dead; Merge runs on the first
 *    live data input once its control inputs are done, and is dead only when
 *    every data input is dead (pending counts keep "no live input yet" in bit
 *    0 and count control inputs in steps of 2);
 *  - Enter starts (or joins) the child frame; an is_constant Enter's value
 *    reaches every iteration; Exit hands a live value to the parent frame and
 *    a dead one is remembered and propagated when the frame ends;
 *    NextIteration feeds iteration i + 1, started at once or deferred until
 *    an iteration ends when parallel_iterations are already running;
 *  - a dead Enter makes the Merge it feeds dead at once;
 *  - _Send/_Recv (and _HostSend/_HostRecv) run even when dead, so the other
 *    side learns of the deadness; kernels get the frame instance's id
 *    (TensorFlow's, see frame_id_of) and the iteration, which transfers
 *    inside a loop put in their rendezvous key.
 * One step-wide mutex guards the frames and the ready queue; kernels run
 * without it. The step checks cancellation (a failed node, the session's
 * cancel flag, the deadline) before every node, so a loop that never ends
 * stops with CANCELLED or DEADLINE_EXCEEDED.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/alloc.h"
#include "base/hashmap.h"
#include "runtime/executor_internal.h"

/* ---------------------------------------------------------------- the plan */

enum { CF_NORMAL, CF_SWITCH, CF_MERGE, CF_ENTER, CF_EXIT, CF_NEXT, CF_TRIGGER, CF_TRANSFER };

typedef struct cf_edge {
  int dst;      /* consumer node */
  int src_out;  /* producer output, -1 for a control edge */
  int dst_in;   /* consumer input slot, -1 for a control edge */
  bool last;    /* the last data edge of src_out: the value may move instead of being copied */
  /* the consumer's facts activation needs, copied here to keep it on one cache line */
  unsigned char dst_kind;
  int dst_local;
  int dst_slot;     /* consumer's input slot index in its frame (in_base + dst_in) */
  int dst_n_data;   /* consumer's data inputs over edges */
} cf_edge;

enum { FWD_NONE, FWD_COPY, FWD_SWITCH, FWD_MERGE };

typedef struct cf_node {
  unsigned char kind;
  unsigned char fwd;    /* FWD_*: forwarding done by the runner itself, no kernel call */
  bool is_constant;     /* Enter: loop invariant */
  int sframe;           /* static frame the node runs in */
  int out_frame;        /* static frame of its consumers */
  int local;            /* index among its frame's nodes */
  int in_base;          /* first input slot among its frame's slots */
  int n_data_in;        /* data inputs that arrive over edges */
  int n_edges;
  cf_edge *edges;
  int n_fetch;
  int *fetch;           /* fetch indices served by this node */
  tfc_tensor **vidx;    /* Merge: value_index scalars 0..n_inputs-1, made once */
  int nin, nout;        /* the snode's inputs and outputs */
  bool any_feed;        /* some input is fed */
  bool ref_in;          /* input 0 is a Ref input (forwarding ops: all of them are) */
} cf_node;

typedef struct cf_frame {
  char *name;
  int parent;           /* -1 for the root frame */
  int n_nodes;
  int n_inputs;
  int n_enters;         /* Enter nodes feeding the frame */
  int par_iters;
  int *init_pending;    /* by local index */
} cf_frame;

struct tfc_cf_plan {
  int n;
  cf_node *nodes;
  int n_frames;
  cf_frame *frames;
};

/* True for the control-flow ops that need the frame-aware runner. */
bool tfc_cf_is_control_op(const char *op) {
  static const char *const names[] = {"Switch", "RefSwitch", "Merge", "RefMerge", "Enter", "RefEnter",
                                      "Exit", "RefExit", "NextIteration", "RefNextIteration", "LoopCond"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (strcmp(op, names[i]) == 0) return true;
  return false;
}

/* The runner's kind of an op. */
static unsigned char kind_of(const char *op) {
  if (!strcmp(op, "Switch") || !strcmp(op, "RefSwitch")) return CF_SWITCH;
  if (!strcmp(op, "Merge") || !strcmp(op, "RefMerge")) return CF_MERGE;
  if (!strcmp(op, "Enter") || !strcmp(op, "RefEnter")) return CF_ENTER;
  if (!strcmp(op, "Exit") || !strcmp(op, "RefExit")) return CF_EXIT;
  if (!strcmp(op, "NextIteration") || !strcmp(op, "RefNextIteration")) return CF_NEXT;
  if (!strcmp(op, "ControlTrigger")) return CF_TRIGGER;
  if (!strcmp(op, "_Send") || !strcmp(op, "_Recv") || !strcmp(op, "_HostSend") || !strcmp(op, "_HostRecv"))
    return CF_TRANSFER;
  return CF_NORMAL;
}

/* The forwarding a node's runner may do itself (FWD_*). */
static unsigned char fwd_of(const char *op) {
  static const char *const copy[] = {"Enter", "RefEnter", "Exit", "RefExit", "NextIteration",
                                     "RefNextIteration", "LoopCond", "Identity", "RefIdentity"};
  for (size_t i = 0; i < sizeof copy / sizeof copy[0]; i++)
    if (strcmp(op, copy[i]) == 0) return FWD_COPY;
  if (!strcmp(op, "Switch") || !strcmp(op, "RefSwitch")) return FWD_SWITCH;
  if (!strcmp(op, "Merge") || !strcmp(op, "RefMerge")) return FWD_MERGE;
  return FWD_NONE;
}

/* Frees a control-flow plan. */
void tfc_cf_plan_free(tfc_cf_plan *cf) {
  if (!cf) return;
  for (int i = 0; cf->nodes && i < cf->n; i++) {
    cf_node *c = &cf->nodes[i];
    if (!c->vidx) continue;
    for (int k = 0; c->vidx[k]; k++) tfc_tensor_unref(c->vidx[k]);
    tfc_free(c->vidx);
  }
  for (int f = 0; f < cf->n_frames; f++) {
    tfc_free(cf->frames[f].name);
    tfc_free(cf->frames[f].init_pending);
  }
  tfc_free(cf->frames);
  tfc_free(cf->nodes);
  tfc_free(cf);
}

/* Finds the static frame called name, or adds it under parent; -1 on OOM. */
static int frame_for(tfc_cf_plan *cf, const char *name, int parent) {
  for (int f = 0; f < cf->n_frames; f++)
    if (strcmp(cf->frames[f].name, name) == 0) return f;
  cf_frame *nf = tfc_realloc(cf->frames, sizeof *nf * (size_t)(cf->n_frames + 1));
  if (!nf) return -1;
  cf->frames = nf;
  memset(&nf[cf->n_frames], 0, sizeof *nf);
  nf[cf->n_frames].name = tfc_strdup(name);
  nf[cf->n_frames].parent = parent;
  nf[cf->n_frames].par_iters = 10;
  if (!nf[cf->n_frames].name) return -1;
  return cf->n_frames++;
}

/* Builds x->cf (see executor_internal.h). */
bool tfc_cf_plan_build(tfc_executor *x, const tfc_subgraph *sg, int part_index, tfc_status *st) {
  int n = x->n;
  tfc_cf_plan *cf = tfc_calloc(1, sizeof *cf);
  int *queue = tfc_malloc(sizeof(int) * (size_t)(n + 1));
  int *n_out = tfc_calloc((size_t)(n + 1), sizeof(int));
  int *n_fetch = tfc_calloc((size_t)(n + 1), sizeof(int));
  size_t n_edges = 0, n_fetch_all = 0;
  for (int i = 0; i < n; i++) {
    const tfc_snode *sn = x->nodes[i].sn;
    for (int k = 0; k < sn->n_inputs; k++)
      if (sn->inputs[k].src >= 0) n_edges++;
    n_edges += (size_t)sn->n_control;
  }
  for (int f = 0; f < sg->n_fetches; f++)
    if (sg->fetches[f].feed < 0 && sg->fetches[f].part == part_index) n_fetch_all++;
  /* one block for nodes, edges and fetch lists */
  size_t sz_nodes = sizeof(cf_node) * (size_t)(n + 1);
  size_t sz_edges = sizeof(cf_edge) * (n_edges + 1);
  char *block = tfc_calloc(1, sz_nodes + sz_edges + sizeof(int) * (n_fetch_all + 1));
  if (!cf || !queue || !n_out || !n_fetch || !block) goto oom;
  x->cf = cf;
  cf->n = n;
  cf->nodes = (cf_node *)block;
  cf_edge *edges = (cf_edge *)(block + sz_nodes);
  int *fetch_mem = (int *)(block + sz_nodes + sz_edges);
  for (int i = 0; i < n; i++) {
    const tfc_snode *sn = x->nodes[i].sn;
    for (int k = 0; k < sn->n_inputs; k++)
      if (sn->inputs[k].src >= 0) {
        n_out[sn->inputs[k].src]++;
        cf->nodes[i].n_data_in++;
      }
    for (int k = 0; k < sn->n_control; k++) n_out[sn->control[k]]++;
  }
  for (int f = 0; f < sg->n_fetches; f++)
    if (sg->fetches[f].feed < 0 && sg->fetches[f].part == part_index) n_fetch[sg->fetches[f].snode]++;
  for (int i = 0; i < n; i++) {
    cf_node *c = &cf->nodes[i];
    c->edges = edges;
    edges += n_out[i];
    c->fetch = fetch_mem;
    fetch_mem += n_fetch[i];
    c->sframe = -1;
    c->kind = kind_of(x->nodes[i].sn->def->name);
    c->fwd = fwd_of(x->nodes[i].sn->def->name);
    const tfc_snode *csn = x->nodes[i].sn;
    c->nin = csn->n_inputs;
    c->nout = csn->n_outputs;
    for (int k = 0; k < csn->n_inputs; k++) c->any_feed = c->any_feed || csn->inputs[k].src < 0;
    c->ref_in = csn->n_inputs > 0 && tfc_dtype_is_ref(csn->in_types[0]);
    if (c->fwd == FWD_MERGE) {
      int ni = x->nodes[i].sn->n_inputs;
      c->vidx = tfc_calloc((size_t)ni + 2, sizeof(tfc_tensor *));
      if (!c->vidx) goto oom;
      for (int k = 0; k < ni; k++) {
        int32_t v = k;
        c->vidx[k] = tfc_tensor_scalar(TFC_DTYPE_INT32, &v, st);
        if (!c->vidx[k]) goto oom;
      }
    }
    if (c->kind == CF_ENTER) {
      const tfc_attr_value *a = tfc_attrs_find(x->nodes[i].sn->attrs, "is_constant");
      c->is_constant = a && a->kind == TFC_ATTR_B && a->v.b;
    }
  }
  for (int i = 0; i < n; i++) {
    const tfc_snode *sn = x->nodes[i].sn;
    for (int k = 0; k < sn->n_inputs; k++) {
      int s = sn->inputs[k].src;
      if (s < 0) continue;
      cf_node *p = &cf->nodes[s];
      p->edges[p->n_edges++] = (cf_edge){i, sn->inputs[k].index, k, false, 0, 0, 0, 0};
    }
    for (int k = 0; k < sn->n_control; k++) {
      cf_node *p = &cf->nodes[sn->control[k]];
      p->edges[p->n_edges++] = (cf_edge){i, -1, -1, false, 0, 0, 0, 0};
    }
  }
  for (int f = 0; f < sg->n_fetches; f++) {
    const tfc_fetch_loc *loc = &sg->fetches[f];
    if (loc->feed < 0 && loc->part == part_index) {
      cf_node *c = &cf->nodes[loc->snode];
      c->fetch[c->n_fetch++] = f;
    }
  }
  for (int i = 0; i < n; i++) {
    cf_node *c = &cf->nodes[i];
    for (int e = c->n_edges - 1; e >= 0; e--) {
      int o = c->edges[e].src_out;
      if (o < 0) continue;
      bool later = false;
      for (int f = e + 1; f < c->n_edges && !later; f++) later = c->edges[f].src_out == o;
      c->edges[e].last = !later;
    }
  }
  /* static frames: a walk from the roots */
  if (frame_for(cf, "", -1) != 0) goto oom;
  int qh = 0, qt = 0;
  for (int r = 0; r < x->n_roots; r++) {
    cf->nodes[x->roots[r]].sframe = 0;
    queue[qt++] = x->roots[r];
  }
  while (qh < qt) {
    int i = queue[qh++];
    cf_node *c = &cf->nodes[i];
    const tfc_snode *sn = x->nodes[i].sn;
    int of = c->sframe;
    if (c->kind == CF_ENTER) {
      const tfc_attr_value *a = tfc_attrs_find(sn->attrs, "frame_name");
      if (!a || a->kind != TFC_ATTR_S || !a->v.s.data || a->v.s.len == 0) {
        tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Enter node '%s' has no frame_name", sn->name);
        goto fail;
      }
      of = frame_for(cf, a->v.s.data, c->sframe);
      if (of < 0) goto oom;
      if (cf->frames[of].parent != c->sframe) {
        tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                       "The node '%s' enters frame '%s' from frame '%s', but the frame was entered "
                       "from frame '%s' before",
                       sn->name, cf->frames[of].name, cf->frames[c->sframe].name,
                       cf->frames[of].parent >= 0 ? cf->frames[cf->frames[of].parent].name : "");
        goto fail;
      }
      cf->frames[of].n_enters++;
      const tfc_attr_value *pi = tfc_attrs_find(sn->attrs, "parallel_iterations");
      if (pi && pi->kind == TFC_ATTR_I && pi->v.i > 0)
        cf->frames[of].par_iters = pi->v.i > (1 << 16) ? (1 << 16) : (int)pi->v.i;
    } else if (c->kind == CF_EXIT) {
      of = cf->frames[c->sframe].parent;
      if (of < 0) {
        tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Exit node '%s' is not inside a while loop frame",
                       sn->name);
        goto fail;
      }
    }
    c->out_frame = of;
    for (int e = 0; e < c->n_edges; e++) {
      int d = c->edges[e].dst;
      cf_node *dc = &cf->nodes[d];
      if (dc->sframe < 0) {
        dc->sframe = of;
        queue[qt++] = d;
      } else if (dc->sframe != of) {
        tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                       "The node '%s' has inputs from different frames. The input '%s' is in frame "
                       "'%s'. Another input is in frame '%s'.",
                       x->nodes[d].sn->name, sn->name, cf->frames[of].name, cf->frames[dc->sframe].name);
        tfc_status_set_node(st, x->nodes[d].sn->name);
        goto fail;
      }
    }
  }
  for (int i = 0; i < n; i++) {
    cf_node *c = &cf->nodes[i];
    const tfc_snode *sn = x->nodes[i].sn;
    if (c->sframe < 0) {
      tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                     "The node '%s' is in a cycle that no Enter node starts (a Merge needs an input "
                     "from outside the loop)",
                     sn->name);
      tfc_status_set_node(st, sn->name);
      goto fail;
    }
    if (c->n_fetch > 0 && c->out_frame != 0) {
      tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                     "Cannot fetch '%s': it is inside the while loop frame '%s'", sn->name,
                     cf->frames[c->sframe].name);
      goto fail;
    }
    cf_frame *fr = &cf->frames[c->sframe];
    c->local = fr->n_nodes++;
    c->in_base = fr->n_inputs;
    fr->n_inputs += sn->n_inputs;
  }
  for (int i = 0; i < n; i++) {
    cf_node *c = &cf->nodes[i];
    for (int e = 0; e < c->n_edges; e++) {
      cf_edge *ed = &c->edges[e];
      const cf_node *dc = &cf->nodes[ed->dst];
      ed->dst_kind = dc->kind;
      ed->dst_local = dc->local;
      ed->dst_slot = dc->in_base + (ed->dst_in < 0 ? 0 : ed->dst_in);
      ed->dst_n_data = dc->n_data_in;
    }
  }
  for (int f = 0; f < cf->n_frames; f++) {
    cf->frames[f].init_pending = tfc_calloc((size_t)cf->frames[f].n_nodes + 1, sizeof(int));
    if (!cf->frames[f].init_pending) goto oom;
  }
  for (int i = 0; i < n; i++) {
    cf_node *c = &cf->nodes[i];
    const tfc_snode *sn = x->nodes[i].sn;
    cf->frames[c->sframe].init_pending[c->local] =
        c->kind == CF_MERGE ? 1 + 2 * sn->n_control : c->n_data_in + sn->n_control;
  }
  tfc_free(queue);
  tfc_free(n_out);
  tfc_free(n_fetch);
  return true;
oom:
  tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory planning control flow");
fail:
  if (x->cf) {
    tfc_cf_plan_free(cf);
  } else {
    tfc_free(cf);
    tfc_free(block);
  }
  x->cf = NULL;
  tfc_free(queue);
  tfc_free(n_out);
  tfc_free(n_fetch);
  return false;
}

/* ---------------------------------------------------------------- the step */

typedef struct cval {
  tfc_tensor *t;
  tfc_var *v;
  bool has;            /* false: dead (or not arrived) */
} cval;

struct rframe;

typedef struct iter_st {
  int *pending;
  int *dead;
  cval *in;
  int outstanding_ops;
  int outstanding_frames;
  struct rframe *children;    /* child frames started in this iteration */
  struct iter_st *next_free;
} iter_st;

typedef struct pend_val {
  int node;
  cval v;
} pend_val;

typedef struct rframe {
  int part, sf;
  uint64_t id;                /* 0 for the root frame; else TF's id from the parent's id, the
                                 parent iteration and the frame name (frame_id_of) */
  const cf_frame *sfr;
  struct rframe *parent;
  int64_t parent_iter;
  struct rframe *sibling;     /* next child of the same parent iteration */
  int ring;                   /* a power of two > parallel_iterations (slots of iters) */
  int max_par;                /* parallel_iterations */
  int64_t iteration_count;
  int n_outstanding_iters;
  int n_pending_inputs;
  iter_st **iters;
  pend_val *next_roots;       /* NextIteration values waiting for a free iteration */
  int n_next, cap_next;
  pend_val *invs;             /* loop invariants (is_constant Enter values) */
  int n_inv, cap_inv;
  int *dead_exits;
  int n_dead, cap_dead;
  iter_st *free_iters;
  struct rframe *all_prev, *all_next;
} rframe;

typedef struct citem {
  int part, node;
  const cf_node *c;            /* the node's plan record */
  rframe *f;
  iter_st *it;                 /* the state of iteration iter of f */
  int64_t iter;
  bool dead;
} citem;

typedef struct cf_step {
  tfc_step base;
  const tfc_step_args *args;
  const tfc_exec_env *env;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  citem *q;                   /* ring buffer of ready nodes */
  int qcap, qhead, qlen;       /* qcap: a power of two */
  int outstanding;            /* queued or running nodes */
  int helpers;
  int waiters;                /* threads in pthread_cond_*wait on cv */
  bool helpers_possible;      /* the inter-op pool can lend threads */
  bool sample;                /* time every node this step (node_cost.c) */
  bool failed;
  bool oom;
  bool abort_pending;         /* failed: the rendezvous still needs aborting */
  tfc_status status;
  tfc_cancel cancel;          /* kernels waiting outside the step register here */
  unsigned ticks;             /* nodes run, for reading the clock now and then */
  rframe **roots;             /* the root frame of every partition */
  rframe *all;                /* every live frame (for cleanup) */
  tfc_tensor **fetch_t;
  tfc_var **fetch_v;
  bool *fetch_has;
} cf_step;

typedef struct cf_async {
  tfc_kernel_ctx ctx;
  tfc_async_token token;
  tfc_status st;
  cf_step *step;
  citem it;
  cval *ins;
  tfc_tensor **temps;
  int n_temps;
  void *heap;
} cf_async;

static atomic_llong cf_next_step_id = (1ll << 40);

/* Records the step's first error, naming the node (caller holds s->mu); the
 * rendezvous is aborted by abort_if_failed once the lock is dropped. */
static void cf_fail_locked(cf_step *s, const tfc_status *st, const char *node) {
  if (s->failed) return;
  s->failed = true;
  s->abort_pending = true;
  tfc_status_copy(&s->status, st);
  if (node && !s->status.node[0]) {
    tfc_status_set_node(&s->status, node);
    size_t len = strlen(s->status.msg);
    snprintf(s->status.msg + len, sizeof s->status.msg - len, "\n\t [[{{node %s}}]]", node);
  }
  atomic_store(&s->base.cancelled, 1);
}

/* Aborts the rendezvous after the step's first error (caller does not hold s->mu). */
static void abort_if_failed(cf_step *s) {
  if (!atomic_load(&s->base.cancelled)) return;
  pthread_mutex_lock(&s->mu);
  bool go = s->abort_pending;
  s->abort_pending = false;
  pthread_mutex_unlock(&s->mu);
  if (go && s->args->rendezvous) s->args->rendezvous->ops->abort(s->args->rendezvous, &s->status);
  if (go) tfc_cancel_fire(&s->cancel, &s->status);
}

/* Fails the step with RESOURCE_EXHAUSTED (caller holds s->mu). */
static void cf_oom_locked(cf_step *s) {
  if (s->failed) return;
  s->failed = true;
  s->oom = true;
  tfc_status_clear(&s->status);
  tfc_status_set(&s->status, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory running a loop");
  atomic_store(&s->base.cancelled, 1);
}

/* Drops the references a value holds. */
static void cval_clear(cval *v) {
  if (v->t) tfc_tensor_unref(v->t);
  if (v->v) tfc_var_unref(v->v);
  v->t = NULL;
  v->v = NULL;
  v->has = false;
}

/* A new reference to the same value. */
static cval cval_copy(const cval *v) {
  cval c = {v->has && v->t ? tfc_tensor_ref(v->t) : NULL, v->has && v->v ? tfc_var_ref(v->v) : NULL, v->has};
  return c;
}

/* Pushes a ready node (caller holds s->mu); grows the ring on demand. */
static void push_locked(cf_step *s, int part, int node, const cf_node *c, rframe *f, iter_st *it,
                        int64_t iter, bool dead) {
  if (s->qlen == s->qcap) {
    int cap = s->qcap ? s->qcap * 2 : 64;
    citem *nq = tfc_malloc(sizeof *nq * (size_t)cap);
    if (!nq) {
      cf_oom_locked(s);
      return;
    }
    for (int k = 0; k < s->qlen; k++) nq[k] = s->q[(s->qhead + k) & (s->qcap - 1)];
    tfc_free(s->q);
    s->q = nq;
    s->qcap = cap;
    s->qhead = 0;
  }
  s->q[(s->qhead + s->qlen) & (s->qcap - 1)] = (citem){part, node, c, f, it, iter, dead};
  s->qlen++;
  s->outstanding++;
}

/* The state of iteration iter of f (NULL when not live). */
static iter_st *get_iter(rframe *f, int64_t iter) { return f->iters[iter & (f->ring - 1)]; }

/* A fresh iteration state for f (pending counts from the plan); NULL on OOM. */
static iter_st *new_iter(rframe *f) {
  iter_st *it = f->free_iters;
  const cf_frame *sfr = f->sfr;
  if (it) {
    f->free_iters = it->next_free;
  } else {
    size_t sz = sizeof(iter_st) + sizeof(int) * 2 * (size_t)(sfr->n_nodes + 1) +
                sizeof(cval) * (size_t)(sfr->n_inputs + 1);
    char *b = tfc_malloc(sz);
    if (!b) return NULL;
    it = (iter_st *)b;
    it->pending = (int *)(b + sizeof(iter_st));
    it->dead = it->pending + sfr->n_nodes + 1;
    it->in = (cval *)(it->dead + sfr->n_nodes + 1);
  }
  memcpy(it->pending, sfr->init_pending, sizeof(int) * (size_t)sfr->n_nodes);
  memset(it->dead, 0, sizeof(int) * (size_t)sfr->n_nodes);
  memset(it->in, 0, sizeof(cval) * (size_t)sfr->n_inputs);
  it->outstanding_ops = 0;
  it->outstanding_frames = 0;
  it->children = NULL;
  it->next_free = NULL;
  return it;
}

/* Returns an iteration state to f's free list, dropping values left in it. */
static void free_iter(rframe *f, iter_st *it) {
  for (int k = 0; k < f->sfr->n_inputs; k++)
    if (it->in[k].t || it->in[k].v) cval_clear(&it->in[k]);
  it->next_free = f->free_iters;
  f->free_iters = it;
}

/* The id of the child frame `name` started in iteration parent_iter of the
 * frame instance parent_id, computed as TensorFlow's executor does
 * (Hash64Combine(parent, Hash64Combine(iteration, Hash64(name)))), so that
 * every partition taking part in the loop, tfc's or TensorFlow's, keys the
 * _Send/_Recv of one iteration alike. */
static uint64_t frame_id_of(uint64_t parent_id, int64_t parent_iter, const char *name) {
  uint64_t name_hash = tfc_hash64_murmur(name, strlen(name), TFC_HASH64_TF_SEED);
  return tfc_hash64_combine(parent_id, tfc_hash64_combine((uint64_t)parent_iter, name_hash));
}

/* Creates a frame instance (caller holds s->mu); NULL on OOM. */
static rframe *new_frame(cf_step *s, int part, int sf, rframe *parent, int64_t parent_iter, int par) {
  int ring = 2;
  while (ring <= par) ring *= 2;
  const tfc_cf_plan *cf = s->args->execs[part]->cf;
  rframe *f = tfc_calloc(1, sizeof *f);
  if (!f) return NULL;
  f->iters = tfc_calloc((size_t)ring, sizeof(iter_st *));
  if (!f->iters) {
    tfc_free(f);
    return NULL;
  }
  f->part = part;
  f->sf = sf;
  f->sfr = &cf->frames[sf];
  f->id = parent ? frame_id_of(parent->id, parent_iter, cf->frames[sf].name) : 0;
  f->parent = parent;
  f->parent_iter = parent_iter;
  f->ring = ring;
  f->max_par = par;
  f->n_pending_inputs = cf->frames[sf].n_enters;
  iter_st *it0 = new_iter(f);
  if (!it0) {
    tfc_free(f->iters);
    tfc_free(f);
    return NULL;
  }
  f->iters[0] = it0;
  f->n_outstanding_iters = 1;
  f->all_next = s->all;
  if (s->all) s->all->all_prev = f;
  s->all = f;
  return f;
}

/* Frees a frame instance and every value it still holds (caller holds s->mu). */
static void destroy_frame(cf_step *s, rframe *f) {
  for (int k = 0; k < f->ring; k++)
    if (f->iters[k]) free_iter(f, f->iters[k]);
  while (f->free_iters) {
    iter_st *n = f->free_iters->next_free;
    tfc_free(f->free_iters);
    f->free_iters = n;
  }
  for (int k = 0; k < f->n_next; k++) cval_clear(&f->next_roots[k].v);
  for (int k = 0; k < f->n_inv; k++) cval_clear(&f->invs[k].v);
  tfc_free(f->next_roots);
  tfc_free(f->invs);
  tfc_free(f->dead_exits);
  tfc_free(f->iters);
  if (f->all_prev) f->all_prev->all_next = f->all_next;
  else s->all = f->all_next;
  if (f->all_next) f->all_next->all_prev = f->all_prev;
  tfc_free(f);
}

/* Delivers node's outputs (outs, n_outputs values; is_dead: the node was dead)
 * to its consumers in iteration iter of frame f, TF's activation rules
 * (caller holds s->mu). */
static void activate(cf_step *s, int part, int node, bool is_dead, cval *outs, bool can_move, rframe *f,
                     int64_t iter) {
  const tfc_executor *x = s->args->execs[part];
  const cf_node *c = &x->cf->nodes[node];
  iter_st *it = get_iter(f, iter);
  for (int e = 0; e < c->n_edges; e++) {
    const cf_edge *ed = &c->edges[e];
    int id = ed->dst_local;
    bool control = ed->src_out < 0;
    bool has = !control && !is_dead && outs[ed->src_out].has;
    bool dst_dead = false, dst_ready = false, need_input = false;
    if (ed->dst_kind == CF_MERGE) {
      if (control) {
        it->pending[id] -= 2;
        dst_dead = it->dead[id] == ed->dst_n_data;
        dst_ready = it->pending[id] == 0 || (it->pending[id] == 1 && dst_dead);
      } else if (has) {
        int count = it->pending[id];
        it->pending[id] &= ~1;
        dst_ready = count == 1;
        need_input = (count & 1) == 1;
      } else {
        /* a dead Enter makes the Merge it feeds dead at once (a loop on the
         * untaken side of a cond, or a loop's per-device control copy whose
         * outer iteration carries no data): the back edge never comes */
        it->dead[id]++;
        dst_dead = it->dead[id] == ed->dst_n_data || c->kind == CF_ENTER;
        dst_ready = it->pending[id] == 1 && dst_dead;
      }
    } else {
      if (is_dead || (!control && !has)) it->dead[id]++;
      it->pending[id]--;
      dst_dead = it->dead[id] > 0;
      dst_ready = it->pending[id] == 0;
      need_input = !control && has;
    }
    if (need_input) {
      cval *slot = &it->in[ed->dst_slot];
      if (slot->has) cval_clear(slot);
      if (can_move && ed->last) {
        *slot = outs[ed->src_out];
        outs[ed->src_out] = (cval){0};
      } else {
        *slot = cval_copy(&outs[ed->src_out]);
      }
    }
    if (dst_ready) {
      if (ed->dst_kind == CF_TRIGGER) dst_dead = false;
      push_locked(s, part, ed->dst, &x->cf->nodes[ed->dst], f, it, iter, dst_dead);
      it->outstanding_ops++;
    }
  }
}

/* Appends a pending value to a growable list; false on OOM. */
static bool pend_push(pend_val **arr, int *n, int *cap, int node, cval v) {
  if (*n == *cap) {
    int nc = *cap ? *cap * 2 : 4;
    pend_val *na = tfc_realloc(*arr, sizeof *na * (size_t)nc);
    if (!na) return false;
    *arr = na;
    *cap = nc;
  }
  (*arr)[(*n)++] = (pend_val){node, v};
  return true;
}

/* Starts iteration iteration_count + 1 of f: delivers deferred NextIteration
 * values and the loop invariants (caller holds s->mu). */
static void increment_iteration(cf_step *s, rframe *f) {
  f->iteration_count++;
  int64_t next = f->iteration_count;
  iter_st *it = new_iter(f);
  if (!it) {
    cf_oom_locked(s);
    return;
  }
  f->iters[next & (f->ring - 1)] = it;
  f->n_outstanding_iters++;
  f->n_dead = 0;
  pend_val *roots = f->next_roots;
  int nr = f->n_next;
  f->next_roots = NULL;
  f->n_next = f->cap_next = 0;
  for (int k = 0; k < nr; k++) {
    activate(s, f->part, roots[k].node, !roots[k].v.has, &roots[k].v, true, f, next);
    cval_clear(&roots[k].v);
  }
  tfc_free(roots);
  for (int k = 0; k < f->n_inv; k++)
    activate(s, f->part, f->invs[k].node, !f->invs[k].v.has, &f->invs[k].v, false, f, next);
}

/* True when iteration iter of f has finished (caller holds s->mu). */
static bool iteration_done(rframe *f, int64_t iter) {
  iter_st *it = get_iter(f, iter);
  if (it->outstanding_ops != 0 || it->outstanding_frames != 0) return false;
  if (iter == 0) return f->n_pending_inputs == 0;
  return get_iter(f, iter - 1) == NULL;
}

/* Retires finished iterations from iter on, starting deferred ones; returns
 * true when the whole frame is done (caller holds s->mu). */
static bool cleanup_iterations(cf_step *s, rframe *f, int64_t iter) {
  int64_t cur = iter;
  while (cur <= f->iteration_count && get_iter(f, cur) && iteration_done(f, cur)) {
    free_iter(f, get_iter(f, cur));
    f->iters[cur & (f->ring - 1)] = NULL;
    f->n_outstanding_iters--;
    cur++;
    if (f->n_next > 0) increment_iteration(s, f);
  }
  return f->n_pending_inputs == 0 && f->n_outstanding_iters == 0;
}

/* A node of iteration iter of f completed (caller holds s->mu): true when
 * that finished the frame. */
static bool decrement_outstanding(cf_step *s, rframe *f, iter_st *it, int64_t iter) {
  if (--it->outstanding_ops != 0) return false;
  return cleanup_iterations(s, f, iter);
}

/* Propagates f's dead exits into its parent, unlinks and frees f, then lets
 * the parent iteration finish in turn (caller holds s->mu). */
static void delete_frame(cf_step *s, rframe *f) {
  for (;;) {
    rframe *parent = f->parent;
    int64_t piter = f->parent_iter;
    const tfc_executor *x = s->args->execs[f->part];
    if (parent) {
      iter_st *pit = get_iter(parent, piter);
      for (int k = 0; k < f->n_dead; k++) {
        const cf_node *c = &x->cf->nodes[f->dead_exits[k]];
        for (int e = 0; e < c->n_edges; e++) {
          const cf_edge *ed = &c->edges[e];
          const cf_node *dc = &x->cf->nodes[ed->dst];
          int id = dc->local;
          bool dst_dead = true, dst_ready;
          if (dc->kind == CF_MERGE) {
            if (ed->src_out < 0) {
              pit->pending[id] -= 2;
              dst_dead = pit->dead[id] == dc->n_data_in;
              dst_ready = pit->pending[id] == 0 || (pit->pending[id] == 1 && dst_dead);
            } else {
              pit->dead[id]++;
              dst_dead = pit->dead[id] == dc->n_data_in;
              dst_ready = pit->pending[id] == 1 && dst_dead;
            }
          } else {
            pit->dead[id]++;
            dst_ready = --pit->pending[id] == 0;
          }
          if (dst_ready) {
            if (dc->kind == CF_TRIGGER) dst_dead = false;
            push_locked(s, f->part, ed->dst, dc, parent, pit, piter, dst_dead);
            pit->outstanding_ops++;
          }
        }
      }
      /* unlink from the parent iteration's children */
      rframe **pp = &pit->children;
      while (*pp && *pp != f) pp = &(*pp)->sibling;
      if (*pp) *pp = f->sibling;
    }
    destroy_frame(s, f);
    if (!parent) return;
    iter_st *pit = get_iter(parent, piter);
    pit->outstanding_frames--;
    if (!cleanup_iterations(s, parent, piter)) return;
    f = parent;
  }
}

/* Finds or starts the child frame `sf` of iteration iter of f (caller holds s->mu). */
static rframe *child_frame(cf_step *s, rframe *f, int64_t iter, int sf, int enter_node) {
  iter_st *it = get_iter(f, iter);
  for (rframe *c = it->children; c; c = c->sibling)
    if (c->sf == sf) return c;
  const tfc_executor *x = s->args->execs[f->part];
  int par = 10;
  const tfc_attr_value *pi = tfc_attrs_find(x->nodes[enter_node].sn->attrs, "parallel_iterations");
  if (pi && pi->kind == TFC_ATTR_I && pi->v.i > 0) par = pi->v.i > (1 << 16) ? (1 << 16) : (int)pi->v.i;
  rframe *c = new_frame(s, f->part, sf, f, iter, par);
  if (!c) {
    cf_oom_locked(s);
    return NULL;
  }
  c->sibling = it->children;
  it->children = c;
  it->outstanding_frames++;
  return c;
}

/* Hands a completed node's outputs on according to its kind and retires it
 * (caller holds s->mu). Values may be moved out of outs (the caller clears it). */
static void propagate_locked(cf_step *s, const citem *ci, bool is_dead, cval *outs) {
  const cf_node *c = ci->c;
  rframe *f = ci->f;
  int64_t iter = ci->iter;
  if (c->n_fetch > 0) { /* the plan keeps fetches to nodes whose outputs land in the root frame */
    for (int k = 0; k < c->n_fetch; k++) {
      int fi = c->fetch[k];
      int idx = s->args->sg->fetches[fi].index;
      if (!is_dead && outs[idx].has) {
        s->fetch_t[fi] = tfc_tensor_ref(outs[idx].t);
        s->fetch_v[fi] = tfc_var_ref(outs[idx].v);
        s->fetch_has[fi] = true;
      }
    }
  }
  bool done;
  if (s->failed) {
    done = decrement_outstanding(s, f, ci->it, iter);
  } else if (c->kind == CF_ENTER) {
    rframe *child = child_frame(s, f, iter, c->out_frame, ci->node);
    if (child) {
      if (c->is_constant) {
        cval v = is_dead ? (cval){0} : cval_copy(&outs[0]);
        if (!pend_push(&child->invs, &child->n_inv, &child->cap_inv, ci->node, v)) {
          cval_clear(&v);
          cf_oom_locked(s);
        } else {
          int64_t first = child->iteration_count - child->n_outstanding_iters + 1;
          for (int64_t i = first; i <= child->iteration_count; i++)
            if (get_iter(child, i)) activate(s, ci->part, ci->node, is_dead, outs, false, child, i);
        }
      } else {
        activate(s, ci->part, ci->node, is_dead, outs, true, child, 0);
      }
      child->n_pending_inputs--;
    }
    done = decrement_outstanding(s, f, ci->it, iter);
  } else if (c->kind == CF_EXIT) {
    if (is_dead || !outs[0].has) {
      if (iter == f->iteration_count) {
        if (f->n_dead == f->cap_dead) {
          int nc = f->cap_dead ? f->cap_dead * 2 : 4;
          int *nd = tfc_realloc(f->dead_exits, sizeof(int) * (size_t)nc);
          if (!nd) {
            cf_oom_locked(s);
          } else {
            f->dead_exits = nd;
            f->cap_dead = nc;
          }
        }
        if (f->n_dead < f->cap_dead) f->dead_exits[f->n_dead++] = ci->node;
      }
    } else {
      activate(s, ci->part, ci->node, false, outs, true, f->parent, f->parent_iter);
    }
    done = decrement_outstanding(s, f, ci->it, iter);
  } else if (c->kind == CF_NEXT) {
    if (!is_dead && outs[0].has) {
      if (iter == f->iteration_count && f->n_outstanding_iters == f->max_par) {
        cval v = cval_copy(&outs[0]);
        if (!pend_push(&f->next_roots, &f->n_next, &f->cap_next, ci->node, v)) {
          cval_clear(&v);
          cf_oom_locked(s);
        }
      } else {
        if (iter == f->iteration_count) increment_iteration(s, f);
        if (!s->failed) activate(s, ci->part, ci->node, false, outs, true, f, iter + 1);
      }
    }
    done = decrement_outstanding(s, f, ci->it, iter);
  } else {
    activate(s, ci->part, ci->node, is_dead, outs, true, f, iter);
    done = decrement_outstanding(s, f, ci->it, iter);
  }
  if (done && f->parent) delete_frame(s, f);
}

static void cf_drain(cf_step *s);

/* Pool task: helps drain the queue. */
static void cf_helper(void *arg) {
  cf_step *s = arg;
  cf_drain(s);
  pthread_mutex_lock(&s->mu);
  s->helpers--;
  pthread_cond_broadcast(&s->cv);
  pthread_mutex_unlock(&s->mu);
}

/* Retires a node: propagates its outputs and wakes waiters (caller holds s->mu). */
static void complete_locked(cf_step *s, const citem *ci, bool is_dead, cval *outs) {
  propagate_locked(s, ci, is_dead, outs);
  s->outstanding--;
  if (s->waiters > 0) pthread_cond_broadcast(&s->cv);
}

/* Schedules a helper counted in s->helpers by cf_drain (caller does not hold s->mu). */
static void spawn_helper(cf_step *s) {
  if (tfc_threadpool_schedule(s->env->inter_pool, cf_helper, s) != 0) {
    pthread_mutex_lock(&s->mu);
    s->helpers--;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
  }
}

/* Nanoseconds on CLOCK_MONOTONIC. */
static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

/* Fails the step when it was cancelled from outside or ran past its deadline
 * (caller holds s->mu); false when the step must stop. The clock is read
 * every 64 nodes. */
static bool check_cancel_locked(cf_step *s) {
  if (atomic_load(&s->base.cancelled)) return false;
  tfc_status e;
  if (s->args->cancel && atomic_load(s->args->cancel)) {
    tfc_status_clear(&e);
    tfc_status_set(&e, TFC_CODE_CANCELLED, "Session has been closed or the step was cancelled.");
    cf_fail_locked(s, &e, NULL);
    return false;
  }
  if (s->args->deadline_ns > 0 && (s->ticks++ & 63) == 0 && now_ns() > s->args->deadline_ns) {
    tfc_status_clear(&e);
    tfc_status_set(&e, TFC_CODE_DEADLINE_EXCEEDED, "Timed out waiting for notification");
    cf_fail_locked(s, &e, NULL);
    return false;
  }
  return true;
}

/* Turns a kernel's outputs into values (checking their dtypes) in outs;
 * false when the kernel failed or misbehaved (the step is failed, caller
 * holds s->mu). */
static bool collect_outputs_locked(cf_step *s, tfc_kernel_ctx *ctx, cval *outs) {
  bool ok = ctx->st->code == TFC_CODE_OK;
  if (!ok) cf_fail_locked(s, ctx->st, ctx->node_name);
  for (int j = 0; j < ctx->n_outputs; j++) {
    tfc_tensor *t = ctx->outputs[j];
    tfc_var *v = ctx->ref_outputs[j];
    if (ok && t && t->dtype != tfc_dtype_base(ctx->out_types[j])) {
      tfc_status e;
      tfc_status_clear(&e);
      tfc_status_set(&e, TFC_CODE_INTERNAL, "Kernel for %s produced %s for output %d, expected %s",
                     ctx->op_type, tfc_dtype_name(t->dtype), j, tfc_dtype_name(ctx->out_types[j]));
      cf_fail_locked(s, &e, ctx->node_name);
      ok = false;
    }
    outs[j] = (cval){t, v, t != NULL || v != NULL};
    ctx->outputs[j] = NULL;
    ctx->ref_outputs[j] = NULL;
  }
  return ok;
}

/* Completion of an async kernel (a _Recv). */
static void cf_async_done(tfc_kernel_ctx *ctx, void *arg) {
  cf_async *an = arg;
  cf_step *s = an->step;
  citem it = an->it;
  cval small[8];
  cval *outs = ctx->n_outputs <= 8 ? small : tfc_calloc((size_t)ctx->n_outputs, sizeof(cval));
  pthread_mutex_lock(&s->mu);
  bool ok = outs != NULL;
  if (!ok) {
    tfc_status e;
    tfc_status_clear(&e);
    tfc_status_set(&e, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory running %s", ctx->node_name);
    cf_fail_locked(s, &e, ctx->node_name);
  } else {
    ok = collect_outputs_locked(s, ctx, outs);
  }
  complete_locked(s, &it, !ok, outs);
  /* counted as a helper until it lets go of s: the node is complete, so the
   * step could otherwise end (and s go away) while abort_if_failed runs */
  s->helpers++;
  pthread_mutex_unlock(&s->mu);
  abort_if_failed(s);
  pthread_mutex_lock(&s->mu);
  s->helpers--;
  pthread_cond_broadcast(&s->cv);
  pthread_mutex_unlock(&s->mu);
  for (int j = 0; outs && j < ctx->n_outputs; j++) cval_clear(&outs[j]);
  for (int j = 0; !outs && j < ctx->n_outputs; j++) {
    tfc_tensor_unref(ctx->outputs[j]);
    tfc_var_unref(ctx->ref_outputs[j]);
  }
  if (outs != small) tfc_free(outs);
  for (int k = 0; k < an->n_temps; k++) tfc_tensor_unref(an->temps[k]);
  for (int k = 0; k < ctx->n_inputs; k++) cval_clear(&an->ins[k]);
  tfc_free(an->heap);
  tfc_free(an);
}

/* True when slot value v may be forwarded to an input of type t as it is
 * (a variable reaching a non-ref input must be read by the kernel path). */
static bool fwd_ok(const cval *v, bool ref) { return v->has && (!v->v || ref); }

/* Runs a forwarding node (Enter, Exit, NextIteration, LoopCond, Identity,
 * Switch, Merge and Ref forms) without a kernel call, under the lock: the
 * input values move to the outputs. false when the node needs the kernel
 * path (a fed input, a variable read, a malformed predicate). */
static bool forward_locked(cf_step *s, const citem *ci, const cf_node *c, cval *slots) {
  cval outs[2] = {{0}, {0}};
  if (c->any_feed) return false;
  switch (c->fwd) {
    case FWD_COPY:
      if (!fwd_ok(&slots[0], c->ref_in)) return false;
      outs[0] = slots[0];
      slots[0] = (cval){0};
      break;
    case FWD_SWITCH: {
      const tfc_tensor *p = slots[1].t;
      if (!fwd_ok(&slots[0], c->ref_in) || !slots[1].has || !p || p->rank != 0) return false;
      bool taken = *(const bool *)p->data;
      outs[taken ? 1 : 0] = slots[0];
      slots[0] = (cval){0};
      cval_clear(&slots[1]);
      break;
    }
    case FWD_MERGE: {
      int k = 0;
      while (k < c->nin && !slots[k].has) k++;
      if (k == c->nin || !fwd_ok(&slots[k], c->ref_in)) return false;
      outs[0] = slots[k];
      slots[k] = (cval){0};
      outs[1] = (cval){tfc_tensor_ref(c->vidx[k]), NULL, true};
      for (int j = k + 1; j < c->nin; j++)
        if (slots[j].has) cval_clear(&slots[j]);
      break;
    }
    default:
      return false;
  }
  complete_locked(s, ci, false, outs);
  cval_clear(&outs[0]);
  cval_clear(&outs[1]);
  const xnode *xn = &s->args->execs[ci->part]->nodes[ci->node];
  if (tfc_node_cost_wanted(xn, false)) tfc_node_cost_record(xn, 1); /* no kernel ran: cheap */
  return true;
}

/* Runs one ready node (caller holds s->mu; it is held again on return). A
 * dead node only propagates deadness; a live one takes its inputs out of the
 * iteration's slots, runs its kernel without the lock and propagates. */
static void cf_process_locked(cf_step *s, const citem *ci) {
  const cf_node *c = ci->c;
  int nin = c->nin, nout = c->nout;
  iter_st *it = ci->it;
  cval *slots = it->in + c->in_base;
  if (!check_cancel_locked(s) || (ci->dead && c->kind != CF_TRANSFER)) {
    for (int k = 0; k < nin; k++)
      if (slots[k].has) cval_clear(&slots[k]);
    complete_locked(s, ci, true, NULL);
    return;
  }
  if (c->fwd != FWD_NONE && forward_locked(s, ci, c, slots)) return;
  const tfc_executor *x = s->args->execs[ci->part];
  const xnode *xn = &x->nodes[ci->node];
  const tfc_snode *sn = xn->sn;
  enum { SMALL = 8 };
  bool async = (xn->kdef->flags & TFC_KERNEL_ASYNC) != 0;
  tfc_tensor *in_small[SMALL], *tmp_small[SMALL], *out_small[SMALL];
  tfc_var *ref_small[SMALL], *rout_small[SMALL];
  cval ins_small[SMALL], outs_small[SMALL];
  tfc_tensor **inputs = in_small, **temps = tmp_small, **outputs = out_small;
  tfc_var **refs = ref_small, **routs = rout_small;
  cval *ins = ins_small, *outs = outs_small;
  cf_async *an = NULL;
  void *heap = NULL;
  if (async || nin > SMALL || nout > SMALL) {
    size_t need = sizeof(void *) * (size_t)(3 * nin + 2 * nout + 5) + sizeof(cval) * (size_t)(nin + nout + 2);
    an = async ? tfc_calloc(1, sizeof *an) : NULL;
    heap = (!async || an) ? tfc_calloc(1, need) : NULL;
    if (!heap) {
      tfc_free(an);
      tfc_status e;
      tfc_status_clear(&e);
      tfc_status_set(&e, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory running %s", sn->name);
      cf_fail_locked(s, &e, sn->name);
      for (int k = 0; k < nin; k++)
        if (slots[k].has) cval_clear(&slots[k]);
      complete_locked(s, ci, true, NULL);
      return;
    }
    void **h = heap;
    inputs = (tfc_tensor **)h;
    temps = (tfc_tensor **)(h + nin + 1);
    refs = (tfc_var **)(h + 2 * nin + 2);
    outputs = (tfc_tensor **)(h + 3 * nin + 3);
    routs = (tfc_var **)(h + 3 * nin + nout + 4);
    ins = (cval *)(h + 3 * nin + 2 * nout + 5);
    outs = ins + nin + 1;
  }
  for (int k = 0; k < nin; k++) {
    ins[k] = slots[k];
    slots[k] = (cval){0};
  }
  /* with no pool thread that could help, the kernel runs under the lock; a
   * _Send never does: it may complete a _Recv of this very step inline */
  bool unlock = async || s->helpers_possible || c->kind == CF_TRANSFER;
  if (unlock) pthread_mutex_unlock(&s->mu);
  tfc_status local_st;
  tfc_status *st = an ? &an->st : &local_st;
  tfc_status_clear(st);
  int n_temps = 0;
  bool ok = true;
  for (int k = 0; k < nin && ok; k++) {
    const tfc_sinput *in = &sn->inputs[k];
    refs[k] = NULL;
    inputs[k] = NULL;
    if (in->src < 0) {
      inputs[k] = s->args->feeds[in->index];
      continue;
    }
    if (c->kind == CF_TRANSFER && (ci->dead || !ins[k].has)) {
      /* a dead _Send runs with no input: its tensor arrives dead */
      cval_clear(&ins[k]);
      continue;
    }
    if (!ins[k].has) {
      if (c->kind == CF_MERGE) continue;
      ok = tfc_status_set(st, TFC_CODE_INTERNAL, "Input %d of node %s did not arrive", k, sn->name);
      break;
    }
    if (ins[k].v) {
      tfc_tensor *val = tfc_var_read(ins[k].v);
      if (val) temps[n_temps++] = val;
      inputs[k] = val;
      if (tfc_dtype_is_ref(sn->in_types[k])) {
        refs[k] = ins[k].v;
      } else if (!val) {
        ok = tfc_status_set(st, TFC_CODE_FAILED_PRECONDITION, "Attempting to use uninitialized value %s",
                            ins[k].v->name ? ins[k].v->name : x->nodes[in->src].sn->name);
      }
    } else {
      inputs[k] = ins[k].t;
    }
  }
  for (int j = 0; j < nout; j++) {
    outputs[j] = NULL;
    routs[j] = NULL;
  }
  tfc_kernel_ctx local_ctx;
  tfc_kernel_ctx *ctx = an ? &an->ctx : &local_ctx;
  ctx->node_name = sn->name;
  ctx->op_type = sn->def->name;
  ctx->attrs = sn->attrs;
  ctx->state = xn->kstate;
  ctx->n_inputs = nin;
  ctx->inputs = inputs;
  ctx->ref_inputs = refs;
  ctx->n_outputs = nout;
  ctx->outputs = outputs;
  ctx->ref_outputs = routs;
  ctx->out_types = sn->out_types;
  ctx->st = st;
  ctx->intra_pool = s->env->intra_pool;
  ctx->step = &s->base;
  ctx->node = sn->gnode;
  ctx->async_token = NULL;
  ctx->frame_id = ci->f->id;
  ctx->iter_id = ci->iter;
  if (ok && an) {
    an->step = s;
    an->it = *ci;
    an->ins = ins;
    an->temps = temps;
    an->n_temps = n_temps;
    an->heap = heap;
    an->token.done = cf_async_done;
    an->token.arg = an;
    ctx->async_token = &an->token;
    bool timed = tfc_node_cost_wanted(xn, s->sample);
    int64_t c0 = timed ? tfc_node_cost_now_ns() : 0;
    xn->kdef->compute(ctx);
    if (timed) tfc_node_cost_record(xn, tfc_node_cost_now_ns() - c0);
    pthread_mutex_lock(&s->mu);
    return; /* cf_async_done completes */
  }
  bool timed = ok && tfc_node_cost_wanted(xn, s->sample);
  int64_t c0 = timed ? tfc_node_cost_now_ns() : 0;
  if (ok && __builtin_expect(s->args->node_stats != NULL, 0)) {
    struct timespec t0, t1;
    clock_gettime(CLOCK_REALTIME, &t0);
    xn->kdef->compute(ctx);
    clock_gettime(CLOCK_REALTIME, &t1);
    s->args->node_stats(s->args->node_stats_ctx, sn, (int64_t)t0.tv_sec * 1000000000ll + t0.tv_nsec,
                        (int64_t)t1.tv_sec * 1000000000ll + t1.tv_nsec, ctx->n_outputs, ctx->outputs);
  } else if (ok) {
    xn->kdef->compute(ctx);
  }
  if (timed) tfc_node_cost_record(xn, tfc_node_cost_now_ns() - c0);
  for (int k = 0; k < n_temps; k++) tfc_tensor_unref(temps[k]);
  for (int k = 0; k < nin; k++) cval_clear(&ins[k]);
  if (unlock) pthread_mutex_lock(&s->mu);
  ok = collect_outputs_locked(s, ctx, outs);
  complete_locked(s, ci, !ok, outs);
  if (s->abort_pending) {
    pthread_mutex_unlock(&s->mu);
    abort_if_failed(s);
    for (int j = 0; j < nout; j++) cval_clear(&outs[j]);
    pthread_mutex_lock(&s->mu);
  } else {
    for (int j = 0; j < nout; j++) cval_clear(&outs[j]);
  }
  tfc_free(an);
  tfc_free(heap);
}

/* Pops and runs ready nodes until the queue is empty. Before running an
 * expensive node (node_cost.c) while other nodes wait, asks a pool worker to
 * join, so steps of cheap nodes never pay for a thread hand-off. */
static void cf_drain(cf_step *s) {
  pthread_mutex_lock(&s->mu);
  while (s->qlen > 0) {
    citem it = s->q[s->qhead];
    s->qhead = (s->qhead + 1) & (s->qcap - 1);
    s->qlen--;
    if (s->qlen > 0 && s->env->inter_pool && s->helpers < tfc_threadpool_size(s->env->inter_pool) &&
        !it.dead && tfc_node_cost_expensive(&s->args->execs[it.part]->nodes[it.node])) {
      s->helpers++;
      pthread_mutex_unlock(&s->mu);
      spawn_helper(s);
      pthread_mutex_lock(&s->mu);
    }
    cf_process_locked(s, &it);
  }
  pthread_mutex_unlock(&s->mu);
  abort_if_failed(s);
}

/* Runs one step of executors with control flow (see executor_internal.h). */
bool tfc_run_step_cf(const tfc_step_args *a, const tfc_exec_env *env, tfc_status *st) {
  const tfc_subgraph *sg = a->sg;
  cf_step s;
  memset(&s, 0, sizeof s);
  s.args = a;
  s.env = env;
  s.base.step_id = atomic_fetch_add(&cf_next_step_id, 1);
  s.base.resources = env->resources;
  s.base.log = env->log;
  s.base.log_ctx = env->log_ctx;
  s.base.out = env->out;
  s.base.runtime = (void *)a;
  s.base.flib = env->flib;
  tfc_cancel_init(&s.cancel);
  s.base.cancel_reg = &s.cancel;
  s.helpers_possible = env->inter_pool && tfc_threadpool_size(env->inter_pool) > 0;
  int nf = sg->n_fetches;
  s.roots = tfc_calloc((size_t)a->n_execs + 1, sizeof(rframe *));
  s.fetch_t = tfc_calloc((size_t)nf + 1, sizeof(tfc_tensor *));
  s.fetch_v = tfc_calloc((size_t)nf + 1, sizeof(tfc_var *));
  s.fetch_has = tfc_calloc((size_t)nf + 1, sizeof(bool));
  pthread_mutex_init(&s.mu, NULL);
  pthread_cond_init(&s.cv, NULL);
  bool ok = s.roots && s.fetch_t && s.fetch_v && s.fetch_has;
  pthread_mutex_lock(&s.mu);
  for (int p = 0; p < a->n_execs; p++) s.sample = tfc_node_cost_sample_step(a->execs[p]) || s.sample;
  for (int p = 0; ok && p < a->n_execs; p++) {
    const tfc_executor *x = a->execs[p];
    if (!x->cf) {
      tfc_status_set(&s.status, TFC_CODE_INTERNAL, "partition %d has no control-flow plan", p);
      s.failed = true;
      ok = false;
      break;
    }
    s.roots[p] = new_frame(&s, p, 0, NULL, 0, 1);
    if (!s.roots[p]) {
      cf_oom_locked(&s);
      ok = false;
      break;
    }
    iter_st *it0 = s.roots[p]->iters[0];
    for (int r = 0; r < x->n_roots; r++) {
      push_locked(&s, p, x->roots[r], &x->cf->nodes[x->roots[r]], s.roots[p], it0, 0, false);
      it0->outstanding_ops++;
    }
  }
  if (!ok && !s.failed) cf_oom_locked(&s);
  pthread_mutex_unlock(&s.mu);
  for (;;) {
    cf_drain(&s);
    pthread_mutex_lock(&s.mu);
    while (s.qlen == 0 && (s.outstanding > 0 || s.helpers > 0)) {
      if (a->deadline_ns > 0 || a->cancel) {
        /* wake up now and then to notice a deadline or a close while a kernel blocks */
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 50 * 1000000;
        if (ts.tv_nsec >= 1000000000) {
          ts.tv_sec++;
          ts.tv_nsec -= 1000000000;
        }
        s.waiters++;
        pthread_cond_timedwait(&s.cv, &s.mu, &ts);
        s.waiters--;
        s.ticks = 0;
        check_cancel_locked(&s);
      } else {
        s.waiters++;
        pthread_cond_wait(&s.cv, &s.mu);
        s.waiters--;
      }
    }
    bool done = s.qlen == 0 && s.outstanding == 0 && s.helpers == 0;
    pthread_mutex_unlock(&s.mu);
    abort_if_failed(&s);
    if (done) break;
  }
  ok = !s.failed;
  for (int f = 0; ok && f < nf; f++) {
    const tfc_fetch_loc *loc = &sg->fetches[f];
    tfc_tensor *t = NULL;
    if (loc->feed >= 0) {
      t = tfc_tensor_ref(a->feeds[loc->feed]);
    } else if (!s.fetch_has[f]) {
      tfc_status_clear(&s.status);
      tfc_status_set(&s.status, TFC_CODE_INVALID_ARGUMENT, "Retval[%d] does not have value", f);
      ok = false;
    } else if (s.fetch_v[f]) {
      t = tfc_var_read(s.fetch_v[f]);
      if (!t) {
        const char *nm = a->execs[loc->part]->nodes[loc->snode].sn->name;
        tfc_status_clear(&s.status);
        tfc_status_set(&s.status, TFC_CODE_FAILED_PRECONDITION, "Attempting to use uninitialized value %s",
                       s.fetch_v[f]->name ? s.fetch_v[f]->name : nm);
        tfc_status_set_node(&s.status, nm);
        ok = false;
      }
    } else {
      t = tfc_tensor_ref(s.fetch_t[f]);
    }
    a->fetch_out[f] = t;
  }
  if (!ok) {
    for (int f = 0; f < nf; f++) {
      tfc_tensor_unref(a->fetch_out[f]);
      a->fetch_out[f] = NULL;
    }
    tfc_status_copy(st, &s.status);
  }
  for (int f = 0; f < nf && s.fetch_t; f++) {
    tfc_tensor_unref(s.fetch_t[f]);
    tfc_var_unref(s.fetch_v[f]);
  }
  pthread_mutex_lock(&s.mu);
  while (s.all) destroy_frame(&s, s.all);
  pthread_mutex_unlock(&s.mu);
  bool temps = false;
  for (int p = 0; p < a->n_execs; p++) temps = temps || a->execs[p]->has_temp_vars;
  if (temps) {
    char tmp_container[64];
    snprintf(tmp_container, sizeof tmp_container, "_tmp_step_%lld", (long long)s.base.step_id);
    tfc_resource_mgr_clear_container(env->resources, tmp_container);
  }
  tfc_free(s.q);
  tfc_free(s.roots);
  tfc_free(s.fetch_t);
  tfc_free(s.fetch_v);
  tfc_free(s.fetch_has);
  tfc_cancel_destroy(&s.cancel);
  pthread_cond_destroy(&s.cv);
  pthread_mutex_destroy(&s.mu);
  return ok;
}
