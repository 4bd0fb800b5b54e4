/*
 * ops_util.c — op definitions for small utility ops: EnsureShape (a run-time
 * shape check that also refines the static shape), GuaranteeConst (an identity
 * that promises a constant value) and Timestamp (the wall clock in seconds).
 * TF's array_ops.cc and logging_ops.cc.
 */
#include <stdio.h>

#include "core/op_registry.h"
#include "core/op_tables.h"

/* EnsureShape: the input's shape merged with the `shape` attr; an error when they
 * cannot both hold (TF's message). */
static bool shape_fn_ensure_shape(tfc_shape_ctx *ctx) {
  tfc_shape want;
  if (!tfc_attrs_get_shape(ctx->attrs, "shape", &want, ctx->st)) return false;
  const tfc_shape *in = &ctx->in_shapes[0];
  if (!tfc_shape_merge(in, &want, &ctx->out_shapes[0])) {
    char a[128], b[128];
    tfc_shape_debug_string(&want, a, sizeof a);
    tfc_shape_debug_string(in, b, sizeof b);
    return tfc_status_set(ctx->st, TFC_CODE_INVALID_ARGUMENT,
                          "Shapes must be compatible, but are %s and %s", a, b);
  }
  return true;
}

static const tfc_op_spec specs[] = {
    {"EnsureShape", "input: T", "output: T", "shape: shape; T: type", 0, shape_fn_ensure_shape},
    {"GuaranteeConst", "input: T", "output: T", "T: type", TFC_OP_STATEFUL,
     tfc_shape_fn_unchanged},
    {"Timestamp", "", "ts: double", "", TFC_OP_STATEFUL, tfc_shape_fn_scalar},
};

const tfc_op_table tfc_ops_util = {specs, (int)(sizeof specs / sizeof specs[0])};
