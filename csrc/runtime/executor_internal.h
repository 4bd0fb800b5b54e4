/*
 * executor_internal.h — the executor's plan records, shared by the
 * straight-line runner (executor.c) and the control-flow runner
 * (executor_cf.c). Not a public interface.
 */
#ifndef TFC_RUNTIME_EXECUTOR_INTERNAL_H
#define TFC_RUNTIME_EXECUTOR_INTERNAL_H

#include "runtime/executor.h"

typedef struct xnode {
  const tfc_snode *sn;
  const tfc_kernel_def *kdef;
  void *kstate;
  bool owns_state;
  int out_base;           /* first slot of this node's outputs */
  int n_consumers;
  int *consumers;         /* node indices, one per edge (data or control) */
  int pending;            /* initial pending count */
  int *out_uses;          /* per output: consumers + fetches */
  /* Measured compute time (node_cost.c), the one mutable field of the plan:
   * a running estimate in ns, 0 until the node has run once. */
  atomic_llong cost_ns;
  unsigned char cond_kind; /* TFC_COND_*: the node's part in a plan run with conds only */
  bool may_be_dead;        /* conds_only plans: downstream of a Switch (deadness is checked) */
} xnode;

/* What a node is to the straight-line runner of a plan whose only control
 * flow is conds (Switch/Merge, no frames): see tfc_executor.conds_only. */
enum { TFC_COND_NONE, TFC_COND_SWITCH, TFC_COND_MERGE };

typedef struct tfc_cf_plan tfc_cf_plan;

struct tfc_executor {
  int n;
  xnode *nodes;
  int n_slots;
  int n_roots;
  int *roots;
  int part_index;
  bool has_temp_vars;     /* a TemporaryVariable runs here: clear its container per step */
  tfc_cf_plan *cf;        /* control-flow facts, NULL for a plan without control-flow ops */
  /* The control flow is conds only (Switch, RefSwitch, Merge, RefMerge; no
   * frames, ControlTrigger or transfers that may carry a dead tensor): the
   * straight-line runner runs the plan, tracking deadness itself. cf is built
   * as well, for a step that also runs a partition with loops. */
  bool conds_only;
  atomic_uint steps;      /* steps started on this plan (node_cost.c samples by it) */
};

/* Node costs (node_cost.c). A node is "expensive" once it has been timed
 * and while its estimate is at least TFC_NODE_EXPENSIVE_NS (a node never
 * timed is not: a plan's first step runs inline, in order); the runners hand
 * work to the inter-op pool only when a thread is about to run an expensive
 * node and more ready nodes wait, so steps of cheap nodes (the usual small
 * Session.run) never leave the calling thread. */
#define TFC_NODE_EXPENSIVE_NS 10000

/* True when a step starting on x should time every node it runs (the first
 * few steps, then one in 16); counts the step. */
bool tfc_node_cost_sample_step(tfc_executor *x);
/* True when xn should be timed now: the step samples, or xn was never timed. */
bool tfc_node_cost_wanted(const xnode *xn, bool step_samples);
/* Folds one measured compute time (ns) into xn's estimate. */
void tfc_node_cost_record(const xnode *xn, int64_t ns);
/* True when xn's kernel is worth a pool thread (see above). */
bool tfc_node_cost_expensive(const xnode *xn);
/* CLOCK_MONOTONIC in nanoseconds. */
int64_t tfc_node_cost_now_ns(void);

/* True when op is one of the control-flow ops that need frames and
 * deadness (Switch, Merge, Enter, Exit, NextIteration, LoopCond and Ref forms). */
bool tfc_cf_is_control_op(const char *op);
/* Builds x->cf for partition part_index of sg: the static frame of every
 * node (TF's control-flow info), per-frame node and input-slot numbering and
 * edge lists. INVALID_ARGUMENT for inconsistent frames, RESOURCE_EXHAUSTED on OOM. */
bool tfc_cf_plan_build(tfc_executor *x, const tfc_subgraph *sg, int part_index, tfc_status *st);
/* Frees a control-flow plan (NULL is fine). */
void tfc_cf_plan_free(tfc_cf_plan *cf);
/* Runs one step whose executors hold control flow (see executor.h). */
bool tfc_run_step_cf(const tfc_step_args *args, const tfc_exec_env *env, tfc_status *st);

#endif
