/*
 * ops_state.c — op definitions for TF 1.x ref variables and the dense
 * training updates that act on them: VariableV2/Variable, TemporaryVariable,
 * DestroyTemporaryVariable, Assign, AssignAdd, AssignSub,
 * IsVariableInitialized, CountUpTo, the sparse row updates ScatterUpdate /
 * ScatterAdd / ScatterSub / ScatterMul / ScatterDiv / ScatterMin / ScatterMax
 * and ApplyGradientDescent / ApplyMomentum / ApplyAdam / ApplyAdagrad /
 * ApplyRMSProp / ApplyCenteredRMSProp, and their row-sparse forms
 * SparseApplyMomentum / SparseApplyAdagrad / SparseApplyRMSProp /
 * SparseApplyCenteredRMSProp.
 *
 * Names, argument order, attrs and defaults are TensorFlow's (state_ops.cc,
 * training_ops.cc), and so are the shape functions and their messages.
 */
#include <stdio.h>

#include "core/op_registry.h"
#include "core/op_tables.h"

/* Fails ctx unless input i has rank `rank` (or unknown rank). */
static bool with_rank(tfc_shape_ctx *ctx, int i, int rank) {
  const tfc_shape *s = &ctx->in_shapes[i];
  if (s->rank >= 0 && s->rank != rank)
    return tfc_shape_fail(ctx, "Shape must be rank %d but is rank %d", rank, s->rank);
  return true;
}

/* VariableV2 / Variable / TemporaryVariable: the output has the `shape` attr. */
static bool shape_explicit(tfc_shape_ctx *ctx) {
  const tfc_attr_value *v = tfc_attrs_find(ctx->attrs, "shape");
  ctx->out_shapes[0] = (v && v->kind == TFC_ATTR_SHAPE) ? v->v.shape : tfc_shape_unknown();
  return true;
}

/* Assign: with validate_shape the two inputs must merge; output is value's shape. */
static bool shape_assign(tfc_shape_ctx *ctx) {
  const tfc_attr_value *vs = tfc_attrs_find(ctx->attrs, "validate_shape");
  bool validate = !(vs && vs->kind == TFC_ATTR_B && !vs->v.b);
  if (validate) {
    tfc_shape unused;
    if (!tfc_shape_merge_ctx(ctx, &ctx->in_shapes[0], &ctx->in_shapes[1], &unused)) return false;
  }
  ctx->out_shapes[0] = ctx->in_shapes[1];
  return true;
}

/* AssignAdd / AssignSub: both inputs merge and the output is the merge. */
static bool shape_merge_both(tfc_shape_ctx *ctx) {
  return tfc_shape_merge_ctx(ctx, &ctx->in_shapes[0], &ctx->in_shapes[1], &ctx->out_shapes[0]);
}

/* CountUpTo: the variable is a scalar, and so is the output. */
static bool shape_count_up_to(tfc_shape_ctx *ctx) {
  if (!with_rank(ctx, 0, 0)) return false;
  ctx->out_shapes[0] = tfc_shape_scalar();
  return true;
}

/* Scatter*(ref, indices, updates): unless updates is a scalar it must merge
 * with indices.shape + ref.shape[1:] (a scalar ref counts as []); the output
 * has ref's shape. */
static bool shape_scatter(tfc_shape_ctx *ctx) {
  const tfc_shape *var = &ctx->in_shapes[0], *ind = &ctx->in_shapes[1], *upd = &ctx->in_shapes[2];
  ctx->out_shapes[0] = *var;
  if (upd->rank == 0 || var->rank < 0 || ind->rank < 0) return true;
  int sub = var->rank > 0 ? var->rank - 1 : 0;
  if (ind->rank + sub > TFC_MAX_RANK)
    return tfc_shape_fail(ctx, "Shape must have rank at most %d, but indices.shape + "
                               "ref.shape[1:] has rank %d", TFC_MAX_RANK, ind->rank + sub);
  tfc_shape want = *ind;
  want.rank = ind->rank + sub;
  for (int i = 0; i < sub; i++) want.dims[ind->rank + i] = var->dims[1 + i];
  tfc_shape unused;
  return tfc_shape_merge_ctx(ctx, upd, &want, &unused);
}

/* Shared by the Apply* ops: inputs flagged 'm' merge with the variable's
 * shape (input 0), inputs flagged 's' must be scalars; output is the merge. */
static bool shape_apply(tfc_shape_ctx *ctx, const char *pattern) {
  tfc_shape s = ctx->in_shapes[0];
  for (int i = 1; pattern[i] != '\0' && i < ctx->n_inputs; i++) {
    if (pattern[i] == 's') {
      if (!with_rank(ctx, i, 0)) return false;
    } else if (!tfc_shape_merge_ctx(ctx, &s, &ctx->in_shapes[i], &s)) {
      return false;
    }
  }
  ctx->out_shapes[0] = s;
  return true;
}

/* Inputs: var, alpha, delta. */
static bool shape_apply_gd(tfc_shape_ctx *ctx) { return shape_apply(ctx, "vsm"); }
/* Inputs: var, accum, lr, grad, momentum. */
static bool shape_apply_momentum(tfc_shape_ctx *ctx) { return shape_apply(ctx, "vmsms"); }
/* Inputs: var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad. */
static bool shape_apply_adam(tfc_shape_ctx *ctx) { return shape_apply(ctx, "vmmssssssm"); }
/* Inputs: var, accum, lr, grad. */
static bool shape_apply_adagrad(tfc_shape_ctx *ctx) { return shape_apply(ctx, "vmsm"); }
/* Inputs: var, ms, mom, lr, rho, momentum, epsilon, grad. */
static bool shape_apply_rmsprop(tfc_shape_ctx *ctx) { return shape_apply(ctx, "vmmssssm"); }
/* ApplyCenteredRMSProp: var, mg, ms, mom; lr, rho, momentum, epsilon; grad. */
static bool shape_apply_centered_rmsprop(tfc_shape_ctx *ctx) {
  return shape_apply(ctx, "vmmmssssm");
}

/* ApplyAdadelta: var, accum, accum_update; lr, rho, epsilon; grad. */
static bool shape_apply_adadelta(tfc_shape_ctx *ctx) { return shape_apply(ctx, "vmmsssm"); }
/* ApplyProximalAdagrad: var, accum; lr, l1, l2; grad. */
static bool shape_apply_proximal_adagrad(tfc_shape_ctx *ctx) { return shape_apply(ctx, "vmsssm"); }
/* ApplyProximalGradientDescent: var; alpha, l1, l2; delta. */
static bool shape_apply_proximal_gd(tfc_shape_ctx *ctx) { return shape_apply(ctx, "vsssm"); }
/* ApplyFtrl: var, accum, linear, grad; lr, l1, l2, lr_power. */
static bool shape_apply_ftrl(tfc_shape_ctx *ctx) { return shape_apply(ctx, "vmmmssss"); }
/* ApplyFtrlV2: var, accum, linear, grad; lr, l1, l2, l2_shrinkage, lr_power. */
static bool shape_apply_ftrl_v2(tfc_shape_ctx *ctx) { return shape_apply(ctx, "vmmmsssss"); }

/* Shared by the SparseApply* ops: inputs flagged 'm' merge with the variable's
 * shape (input 0), 's' are scalars, 'g' is the gradient (rows: dimension 0
 * matches the indices, the rest the variable's dims 1..), 'i' the indices
 * (a vector). The output has the merged variable shape. */
static bool shape_sparse_apply(tfc_shape_ctx *ctx, const char *pattern) {
  tfc_shape s = ctx->in_shapes[0];
  int gi = -1, ii = -1;
  for (int i = 1; pattern[i] != '\0' && i < ctx->n_inputs; i++) {
    if (pattern[i] == 's') {
      if (!with_rank(ctx, i, 0)) return false;
    } else if (pattern[i] == 'g') {
      gi = i;
    } else if (pattern[i] == 'i') {
      ii = i;
      if (!with_rank(ctx, i, 1)) return false;
    } else if (!tfc_shape_merge_ctx(ctx, &s, &ctx->in_shapes[i], &s)) {
      return false;
    }
  }
  if (gi >= 0 && ii >= 0) {
    const tfc_shape *g = &ctx->in_shapes[gi], *ind = &ctx->in_shapes[ii];
    if (g->rank == 0) return tfc_shape_fail(ctx, "Shape must be at least rank 1 but is rank 0");
    if (g->rank > 0 && ind->rank == 1 && g->dims[0] >= 0 && ind->dims[0] >= 0 &&
        g->dims[0] != ind->dims[0])
      return tfc_shape_fail(ctx, "Dimensions must be equal, but are %lld and %lld",
                            (long long)g->dims[0], (long long)ind->dims[0]);
    if (g->rank > 0 && s.rank >= 0) {
      if (g->rank != s.rank)
        return tfc_shape_fail(ctx, "Shapes must be equal rank, but are %d and %d", s.rank,
                              g->rank);
      for (int d = 1; d < s.rank; d++)
        if (g->dims[d] >= 0 && s.dims[d] >= 0 && g->dims[d] != s.dims[d])
          return tfc_shape_fail(ctx, "Dimension %d in both shapes must be equal, but are %lld "
                                "and %lld", d, (long long)s.dims[d], (long long)g->dims[d]);
    }
  }
  ctx->out_shapes[0] = s;
  return true;
}

/* SparseApplyMomentum: var, accum, lr, grad, indices, momentum. */
static bool shape_sparse_apply_momentum(tfc_shape_ctx *ctx) {
  return shape_sparse_apply(ctx, "vmsgis");
}
/* SparseApplyAdagrad: var, accum, lr, grad, indices. */
static bool shape_sparse_apply_adagrad(tfc_shape_ctx *ctx) {
  return shape_sparse_apply(ctx, "vmsgi");
}
/* SparseApplyRMSProp: var, ms, mom, lr, rho, momentum, epsilon, grad, indices. */
static bool shape_sparse_apply_rmsprop(tfc_shape_ctx *ctx) {
  return shape_sparse_apply(ctx, "vmmssssgi");
}
/* SparseApplyCenteredRMSProp: var, mg, ms, mom, lr, rho, momentum, epsilon, grad, indices. */
static bool shape_sparse_apply_centered_rmsprop(tfc_shape_ctx *ctx) {
  return shape_sparse_apply(ctx, "vmmmssssgi");
}

#define VAR_ATTRS "shape: shape; dtype: type; container: string = ''; shared_name: string = ''"

/* Attrs of the Scatter* ops other than ScatterUpdate, for a type set. */
#define SCATTER_ATTRS(types) "T: " types "; Tindices: {int32, int64}; use_locking: bool = false"

static const tfc_op_spec specs[] = {
    {"VariableV2", "", "ref: Ref(dtype)", VAR_ATTRS, TFC_OP_STATEFUL, shape_explicit},
    {"Variable", "", "ref: Ref(dtype)", VAR_ATTRS, TFC_OP_STATEFUL, shape_explicit},
    {"TemporaryVariable", "", "ref: Ref(dtype)", "shape: shape; dtype: type; var_name: string = ''",
     TFC_OP_STATEFUL, shape_explicit},
    {"DestroyTemporaryVariable", "ref: Ref(T)", "value: T", "T: type; var_name: string", 0,
     tfc_shape_fn_unchanged},
    {"Assign", "ref: Ref(T); value: T", "output_ref: Ref(T)",
     "T: type; validate_shape: bool = true; use_locking: bool = true", TFC_OP_ALLOWS_UNINIT,
     shape_assign},
    {"AssignAdd", "ref: Ref(T); value: T", "output_ref: Ref(T)",
     "T: numbertype; use_locking: bool = false", 0, shape_merge_both},
    {"AssignSub", "ref: Ref(T); value: T", "output_ref: Ref(T)",
     "T: numbertype; use_locking: bool = false", 0, shape_merge_both},
    {"ScatterUpdate", "ref: Ref(T); indices: Tindices; updates: T", "output_ref: Ref(T)",
     "T: type; Tindices: {int32, int64}; use_locking: bool = true", 0, shape_scatter},
    {"ScatterAdd", "ref: Ref(T); indices: Tindices; updates: T", "output_ref: Ref(T)",
     SCATTER_ATTRS("numbertype"), 0, shape_scatter},
    {"ScatterSub", "ref: Ref(T); indices: Tindices; updates: T", "output_ref: Ref(T)",
     SCATTER_ATTRS("numbertype"), 0, shape_scatter},
    {"ScatterMul", "ref: Ref(T); indices: Tindices; updates: T", "output_ref: Ref(T)",
     SCATTER_ATTRS("numbertype"), 0, shape_scatter},
    {"ScatterDiv", "ref: Ref(T); indices: Tindices; updates: T", "output_ref: Ref(T)",
     SCATTER_ATTRS("numbertype"), 0, shape_scatter},
    {"ScatterMin", "ref: Ref(T); indices: Tindices; updates: T", "output_ref: Ref(T)",
     SCATTER_ATTRS("{half, bfloat16, float, double, int32, int64}"), 0, shape_scatter},
    {"ScatterMax", "ref: Ref(T); indices: Tindices; updates: T", "output_ref: Ref(T)",
     SCATTER_ATTRS("{half, bfloat16, float, double, int32, int64}"), 0, shape_scatter},
    {"IsVariableInitialized", "ref: Ref(dtype)", "is_initialized: bool", "dtype: type",
     TFC_OP_ALLOWS_UNINIT, tfc_shape_fn_scalar},
    {"CountUpTo", "ref: Ref(T)", "output: T", "limit: int; T: {int32, int64}", 0,
     shape_count_up_to},
    {"ApplyGradientDescent", "var: Ref(T); alpha: T; delta: T", "out: Ref(T)",
     "T: numbertype; use_locking: bool = false", 0, shape_apply_gd},
    {"ApplyMomentum", "var: Ref(T); accum: Ref(T); lr: T; grad: T; momentum: T", "out: Ref(T)",
     "T: numbertype; use_locking: bool = false; use_nesterov: bool = false", 0,
     shape_apply_momentum},
    {"ApplyAdam",
     "var: Ref(T); m: Ref(T); v: Ref(T); beta1_power: T; beta2_power: T; lr: T; beta1: T; "
     "beta2: T; epsilon: T; grad: T",
     "out: Ref(T)", "T: numbertype; use_locking: bool = false; use_nesterov: bool = false", 0,
     shape_apply_adam},
    {"ApplyAdagrad", "var: Ref(T); accum: Ref(T); lr: T; grad: T", "out: Ref(T)",
     "T: numbertype; use_locking: bool = false; update_slots: bool = true", 0,
     shape_apply_adagrad},
    {"ApplyAdadelta",
     "var: Ref(T); accum: Ref(T); accum_update: Ref(T); lr: T; rho: T; epsilon: T; grad: T",
     "out: Ref(T)", "T: numbertype; use_locking: bool = false", 0, shape_apply_adadelta},
    {"ApplyProximalAdagrad", "var: Ref(T); accum: Ref(T); lr: T; l1: T; l2: T; grad: T",
     "out: Ref(T)", "T: numbertype; use_locking: bool = false", 0, shape_apply_proximal_adagrad},
    {"ApplyProximalGradientDescent", "var: Ref(T); alpha: T; l1: T; l2: T; delta: T",
     "out: Ref(T)", "T: numbertype; use_locking: bool = false", 0, shape_apply_proximal_gd},
    {"ApplyFtrl",
     "var: Ref(T); accum: Ref(T); linear: Ref(T); grad: T; lr: T; l1: T; l2: T; lr_power: T",
     "out: Ref(T)", "T: numbertype; use_locking: bool = false; multiply_linear_by_lr: bool = false",
     0, shape_apply_ftrl},
    {"ApplyFtrlV2",
     "var: Ref(T); accum: Ref(T); linear: Ref(T); grad: T; lr: T; l1: T; l2: T; "
     "l2_shrinkage: T; lr_power: T",
     "out: Ref(T)", "T: numbertype; use_locking: bool = false; multiply_linear_by_lr: bool = false",
     0, shape_apply_ftrl_v2},
    {"ApplyRMSProp",
     "var: Ref(T); ms: Ref(T); mom: Ref(T); lr: T; rho: T; momentum: T; epsilon: T; grad: T",
     "out: Ref(T)", "T: numbertype; use_locking: bool = false", 0, shape_apply_rmsprop},
    {"ApplyCenteredRMSProp",
     "var: Ref(T); mg: Ref(T); ms: Ref(T); mom: Ref(T); lr: T; rho: T; momentum: T; epsilon: T; "
     "grad: T",
     "out: Ref(T)", "T: numbertype; use_locking: bool = false", 0, shape_apply_centered_rmsprop},
    {"SparseApplyMomentum",
     "var: Ref(T); accum: Ref(T); lr: T; grad: T; indices: Tindices; momentum: T", "out: Ref(T)",
     "T: numbertype; Tindices: {int32, int64}; use_locking: bool = false; "
     "use_nesterov: bool = false", 0, shape_sparse_apply_momentum},
    {"SparseApplyAdagrad", "var: Ref(T); accum: Ref(T); lr: T; grad: T; indices: Tindices",
     "out: Ref(T)",
     "T: numbertype; Tindices: {int32, int64}; use_locking: bool = false; "
     "update_slots: bool = true", 0, shape_sparse_apply_adagrad},
    {"SparseApplyRMSProp",
     "var: Ref(T); ms: Ref(T); mom: Ref(T); lr: T; rho: T; momentum: T; epsilon: T; grad: T; "
     "indices: Tindices",
     "out: Ref(T)", "T: numbertype; Tindices: {int32, int64}; use_locking: bool = false", 0,
     shape_sparse_apply_rmsprop},
    {"SparseApplyCenteredRMSProp",
     "var: Ref(T); mg: Ref(T); ms: Ref(T); mom: Ref(T); lr: T; rho: T; momentum: T; "
     "epsilon: T; grad: T; indices: Tindices",
     "out: Ref(T)", "T: numbertype; Tindices: {int32, int64}; use_locking: bool = false", 0,
     shape_sparse_apply_centered_rmsprop},
};

const tfc_op_table tfc_ops_state = {specs, (int)(sizeof specs / sizeof specs[0])};
