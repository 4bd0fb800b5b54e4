/*
 * ops_resource.c — op definitions for TF's resource variables: the handle
 * (VarHandleOp), reads and writes through it (ReadVariableOp,
 * AssignVariableOp, AssignAddVariableOp, AssignSubVariableOp,
 * VarIsInitializedOp, DestroyResourceOp), row reads and updates
 * (ResourceGather, ResourceScatter{Update,Add,Sub,Mul,Div,Min,Max}) and the
 * dense training updates ResourceApply{GradientDescent, Momentum, Adam,
 * Adagrad, RMSProp, CenteredRMSProp} and the row updates
 * ResourceSparseApply{Momentum, Adagrad, RMSProp, CenteredRMSProp}.
 *
 * Names, argument order, attrs and defaults are TensorFlow's
 * (resource_variable_ops.cc, training_ops.cc). A handle is a scalar
 * DT_RESOURCE tensor; ops that take one do not know the variable's shape at
 * build time, so their outputs get unknown shapes unless the Python layer
 * sets them.
 */
#include "core/op_registry.h"
#include "core/op_tables.h"

/* ResourceGather: the indices must have a known-or-unknown shape; the
 * output's is unknown (the variable's shape is not known here). */
static bool shape_resource_gather(tfc_shape_ctx *ctx) {
  ctx->out_shapes[0] = tfc_shape_unknown();
  return true;
}

/* Every scalar input of a ResourceApply* op (flagged 's') must be a scalar
 * (or of unknown rank). */
static bool shape_resource_apply(tfc_shape_ctx *ctx, const char *pattern) {
  for (int i = 0; pattern[i] != '\0' && i < ctx->n_inputs; i++) {
    const tfc_shape *s = &ctx->in_shapes[i];
    if (pattern[i] == 's' && s->rank > 0)
      return tfc_shape_fail(ctx, "Shape must be rank 0 but is rank %d", s->rank);
  }
  return true;
}

/* Inputs: var, alpha, delta. */
static bool shape_rapply_gd(tfc_shape_ctx *ctx) { return shape_resource_apply(ctx, "rsm"); }
/* Inputs: var, accum, lr, grad, momentum. */
static bool shape_rapply_momentum(tfc_shape_ctx *ctx) { return shape_resource_apply(ctx, "rrsms"); }
/* Inputs: var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad. */
static bool shape_rapply_adam(tfc_shape_ctx *ctx) { return shape_resource_apply(ctx, "rrrssssssm"); }
/* Inputs: var, accum, lr, grad. */
static bool shape_rapply_adagrad(tfc_shape_ctx *ctx) { return shape_resource_apply(ctx, "rrsm"); }
/* Inputs: var, ms, mom, lr, rho, momentum, epsilon, grad. */
/* ResourceApplyAdadelta / ProximalAdagrad / ProximalGradientDescent / Ftrl / FtrlV2. */
static bool shape_rapply_adadelta(tfc_shape_ctx *ctx) { return shape_resource_apply(ctx, "rrrsssm"); }
static bool shape_rapply_proximal_adagrad(tfc_shape_ctx *ctx) {
  return shape_resource_apply(ctx, "rrsssm");
}
static bool shape_rapply_proximal_gd(tfc_shape_ctx *ctx) { return shape_resource_apply(ctx, "rsssm"); }
static bool shape_rapply_ftrl(tfc_shape_ctx *ctx) { return shape_resource_apply(ctx, "rrrmssss"); }
static bool shape_rapply_ftrl_v2(tfc_shape_ctx *ctx) {
  return shape_resource_apply(ctx, "rrrmsssss");
}
static bool shape_rapply_rmsprop(tfc_shape_ctx *ctx) { return shape_resource_apply(ctx, "rrrssssm"); }
/* Inputs: var, mg, ms, mom, lr, rho, momentum, epsilon, grad. */
static bool shape_rapply_crmsprop(tfc_shape_ctx *ctx) {
  return shape_resource_apply(ctx, "rrrrssssm");
}

/* Every ResourceSparseApply* op: inputs flagged 's' are scalars, 'i' the
 * indices (a vector), 'g' the gradient rows (at least rank 1, dimension 0 the
 * number of indices); 'r' are handles. No outputs. */
static bool shape_resource_sparse_apply(tfc_shape_ctx *ctx, const char *pattern) {
  int gi = -1, ii = -1;
  for (int i = 0; pattern[i] != '\0' && i < ctx->n_inputs; i++) {
    const tfc_shape *s = &ctx->in_shapes[i];
    if (pattern[i] == 's' && s->rank > 0)
      return tfc_shape_fail(ctx, "Shape must be rank 0 but is rank %d", s->rank);
    if (pattern[i] == 'i') {
      ii = i;
      if (s->rank >= 0 && s->rank != 1)
        return tfc_shape_fail(ctx, "Shape must be rank 1 but is rank %d", s->rank);
    }
    if (pattern[i] == 'g') {
      gi = i;
      if (s->rank == 0) return tfc_shape_fail(ctx, "Shape must be at least rank 1 but is rank 0");
    }
  }
  if (gi >= 0 && ii >= 0) {
    const tfc_shape *g = &ctx->in_shapes[gi], *ind = &ctx->in_shapes[ii];
    if (g->rank > 0 && ind->rank == 1 && g->dims[0] >= 0 && ind->dims[0] >= 0 &&
        g->dims[0] != ind->dims[0])
      return tfc_shape_fail(ctx, "Dimensions must be equal, but are %lld and %lld",
                            (long long)g->dims[0], (long long)ind->dims[0]);
  }
  return true;
}

/* Inputs: var, accum, lr, grad, indices, momentum. */
static bool shape_rsapply_momentum(tfc_shape_ctx *ctx) {
  return shape_resource_sparse_apply(ctx, "rrsgis");
}
/* Inputs: var, accum, lr, grad, indices. */
static bool shape_rsapply_adagrad(tfc_shape_ctx *ctx) {
  return shape_resource_sparse_apply(ctx, "rrsgi");
}
/* Inputs: var, ms, mom, lr, rho, momentum, epsilon, grad, indices. */
static bool shape_rsapply_rmsprop(tfc_shape_ctx *ctx) {
  return shape_resource_sparse_apply(ctx, "rrrssssgi");
}
/* Inputs: var, mg, ms, mom, lr, rho, momentum, epsilon, grad, indices. */
static bool shape_rsapply_crmsprop(tfc_shape_ctx *ctx) {
  return shape_resource_sparse_apply(ctx, "rrrrssssgi");
}

#define RSCATTER(name, types)                                                                \
  {name, "resource: resource; indices: Tindices; updates: dtype", "",                        \
   "dtype: " types "; Tindices: {int32, int64}", TFC_OP_STATEFUL, tfc_shape_fn_none}

static const tfc_op_spec specs[] = {
    {"VarHandleOp", "", "resource: resource",
     "container: string = ''; shared_name: string = ''; debug_name: string = ''; dtype: type; "
     "shape: shape; allowed_devices: list(string) = []",
     TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"ReadVariableOp", "resource: resource", "value: dtype", "dtype: type", TFC_OP_STATEFUL,
     tfc_shape_fn_none},
    {"AssignVariableOp", "resource: resource; value: dtype", "",
     "dtype: type; validate_shape: bool = false", TFC_OP_STATEFUL, tfc_shape_fn_none},
    {"AssignAddVariableOp", "resource: resource; value: dtype", "", "dtype: type",
     TFC_OP_STATEFUL, tfc_shape_fn_none},
    {"AssignSubVariableOp", "resource: resource; value: dtype", "", "dtype: type",
     TFC_OP_STATEFUL, tfc_shape_fn_none},
    {"ResourceCountUpTo", "resource: resource", "output: T", "limit: int; T: {int32, int64}",
     TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"VarIsInitializedOp", "resource: resource", "is_initialized: bool", "", TFC_OP_STATEFUL,
     tfc_shape_fn_scalar},
    {"DestroyResourceOp", "resource: resource", "", "ignore_lookup_error: bool = true",
     TFC_OP_STATEFUL, tfc_shape_fn_none},
    {"ResourceGather", "resource: resource; indices: Tindices", "output: dtype",
     "batch_dims: int = 0; validate_indices: bool = true; dtype: type; Tindices: {int32, int64}",
     TFC_OP_STATEFUL, shape_resource_gather},
    RSCATTER("ResourceScatterUpdate", "type"),
    RSCATTER("ResourceScatterAdd", "numbertype"),
    RSCATTER("ResourceScatterSub", "numbertype"),
    RSCATTER("ResourceScatterMul", "numbertype"),
    RSCATTER("ResourceScatterDiv", "numbertype"),
    RSCATTER("ResourceScatterMin", "numbertype"),
    RSCATTER("ResourceScatterMax", "numbertype"),
    {"ResourceApplyGradientDescent", "var: resource; alpha: T; delta: T", "",
     "T: numbertype; use_locking: bool = false", TFC_OP_STATEFUL, shape_rapply_gd},
    {"ResourceApplyMomentum", "var: resource; accum: resource; lr: T; grad: T; momentum: T", "",
     "T: numbertype; use_locking: bool = false; use_nesterov: bool = false", TFC_OP_STATEFUL,
     shape_rapply_momentum},
    {"ResourceApplyAdam",
     "var: resource; m: resource; v: resource; beta1_power: T; beta2_power: T; lr: T; beta1: T; "
     "beta2: T; epsilon: T; grad: T",
     "", "T: numbertype; use_locking: bool = false; use_nesterov: bool = false", TFC_OP_STATEFUL,
     shape_rapply_adam},
    {"ResourceApplyAdagrad", "var: resource; accum: resource; lr: T; grad: T", "",
     "T: numbertype; use_locking: bool = false; update_slots: bool = true", TFC_OP_STATEFUL,
     shape_rapply_adagrad},
    {"ResourceApplyAdadelta",
     "var: resource; accum: resource; accum_update: resource; lr: T; rho: T; epsilon: T; grad: T",
     "", "T: numbertype; use_locking: bool = false", TFC_OP_STATEFUL, shape_rapply_adadelta},
    {"ResourceApplyProximalAdagrad", "var: resource; accum: resource; lr: T; l1: T; l2: T; grad: T",
     "", "T: numbertype; use_locking: bool = false", TFC_OP_STATEFUL,
     shape_rapply_proximal_adagrad},
    {"ResourceApplyProximalGradientDescent", "var: resource; alpha: T; l1: T; l2: T; delta: T", "",
     "T: numbertype; use_locking: bool = false", TFC_OP_STATEFUL, shape_rapply_proximal_gd},
    {"ResourceApplyFtrl",
     "var: resource; accum: resource; linear: resource; grad: T; lr: T; l1: T; l2: T; lr_power: T",
     "", "T: numbertype; use_locking: bool = false; multiply_linear_by_lr: bool = false",
     TFC_OP_STATEFUL, shape_rapply_ftrl},
    {"ResourceApplyFtrlV2",
     "var: resource; accum: resource; linear: resource; grad: T; lr: T; l1: T; l2: T; "
     "l2_shrinkage: T; lr_power: T",
     "", "T: numbertype; use_locking: bool = false; multiply_linear_by_lr: bool = false",
     TFC_OP_STATEFUL, shape_rapply_ftrl_v2},
    {"ResourceApplyRMSProp",
     "var: resource; ms: resource; mom: resource; lr: T; rho: T; momentum: T; epsilon: T; grad: T",
     "", "T: numbertype; use_locking: bool = false", TFC_OP_STATEFUL, shape_rapply_rmsprop},
    {"ResourceApplyCenteredRMSProp",
     "var: resource; mg: resource; ms: resource; mom: resource; lr: T; rho: T; momentum: T; "
     "epsilon: T; grad: T",
     "", "T: numbertype; use_locking: bool = false", TFC_OP_STATEFUL, shape_rapply_crmsprop},
    {"ResourceSparseApplyMomentum",
     "var: resource; accum: resource; lr: T; grad: T; indices: Tindices; momentum: T", "",
     "T: numbertype; Tindices: {int32, int64}; use_locking: bool = false; "
     "use_nesterov: bool = false",
     TFC_OP_STATEFUL, shape_rsapply_momentum},
    {"ResourceSparseApplyAdagrad",
     "var: resource; accum: resource; lr: T; grad: T; indices: Tindices", "",
     "T: numbertype; Tindices: {int32, int64}; use_locking: bool = false; "
     "update_slots: bool = true",
     TFC_OP_STATEFUL, shape_rsapply_adagrad},
    {"ResourceSparseApplyRMSProp",
     "var: resource; ms: resource; mom: resource; lr: T; rho: T; momentum: T; epsilon: T; "
     "grad: T; indices: Tindices",
     "", "T: numbertype; Tindices: {int32, int64}; use_locking: bool = false", TFC_OP_STATEFUL,
     shape_rsapply_rmsprop},
    {"ResourceSparseApplyCenteredRMSProp",
     "var: resource; mg: resource; ms: resource; mom: resource; lr: T; rho: T; momentum: T; "
     "epsilon: T; grad: T; indices: Tindices",
     "", "T: numbertype; Tindices: {int32, int64}; use_locking: bool = false", TFC_OP_STATEFUL,
     shape_rsapply_crmsprop},
};

const tfc_op_table tfc_ops_resource = {specs, (int)(sizeof specs / sizeof specs[0])};
