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
} xnode;

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
};

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
