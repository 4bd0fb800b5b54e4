/*
 * ops_control.c — op definitions for version-1 control flow: Switch, Merge,
 * Enter, Exit, NextIteration, LoopCond and their Ref variants (TF's
 * control_flow_ops.cc), and RefIdentity (which loops over variables use),
 * with TF's names, attrs and shape functions.
 * ControlTrigger lives with NoOp in ops_logging.c.
 */
#include "core/op_registry.h"
#include "core/op_tables.h"

/* Switch / RefSwitch: pred must be a scalar; both outputs take data's shape. */
static bool switch_shape(tfc_shape_ctx *ctx) {
  if (!tfc_shape_rank_is(ctx, &ctx->in_shapes[ctx->n_inputs - 1], 0)) return false;
  ctx->out_shapes[0] = ctx->in_shapes[0];
  ctx->out_shapes[1] = ctx->in_shapes[0];
  return true;
}

/* Merge / RefMerge: the inputs' common shape (dims that differ become
 * unknown; differing or unknown ranks give an unknown shape); value_index
 * is a scalar. */
static bool merge_shape(tfc_shape_ctx *ctx) {
  tfc_shape out = ctx->n_inputs > 0 ? ctx->in_shapes[0] : tfc_shape_unknown();
  for (int i = 1; i < ctx->n_inputs && out.rank >= 0; i++) {
    const tfc_shape *s = &ctx->in_shapes[i];
    if (s->rank != out.rank) {
      out = tfc_shape_unknown();
      break;
    }
    for (int d = 0; d < out.rank; d++)
      if (s->dims[d] != out.dims[d]) out.dims[d] = -1;
  }
  ctx->out_shapes[0] = out;
  ctx->out_shapes[1] = tfc_shape_scalar();
  return true;
}

/* LoopCond: the input must be a scalar bool; so is the output. */
static bool loop_cond_shape(tfc_shape_ctx *ctx) {
  if (!tfc_shape_rank_is(ctx, &ctx->in_shapes[0], 0)) return false;
  ctx->out_shapes[0] = tfc_shape_scalar();
  return true;
}

/* Enter / RefEnter: a constant Enter keeps its input's shape; a loop
 * variable's is unknown here (the builder sets the shape it enters with). */
static bool enter_shape(tfc_shape_ctx *ctx) {
  const tfc_attr_value *c = tfc_attrs_find(ctx->attrs, "is_constant");
  ctx->out_shapes[0] = (c && c->kind == TFC_ATTR_B && c->v.b) ? ctx->in_shapes[0] : tfc_shape_unknown();
  return true;
}

#define ENTER_ATTRS "T: type; frame_name: string; is_constant: bool = false; parallel_iterations: int = 10"

static const tfc_op_spec specs[] = {
    {"Switch", "data: T; pred: bool", "output_false: T; output_true: T", "T: type", 0, switch_shape},
    {"RefSwitch", "data: Ref(T); pred: bool", "output_false: Ref(T); output_true: Ref(T)", "T: type",
     TFC_OP_ALLOWS_UNINIT, switch_shape},
    {"Merge", "inputs: N * T", "output: T; value_index: int32", "T: type; N: int >= 1", 0, merge_shape},
    {"RefMerge", "inputs: Ref(N * T)", "output: Ref(T); value_index: int32", "T: type; N: int >= 1",
     TFC_OP_ALLOWS_UNINIT, merge_shape},
    {"Enter", "data: T", "output: T", ENTER_ATTRS, 0, enter_shape},
    {"RefEnter", "data: Ref(T)", "output: Ref(T)", ENTER_ATTRS, TFC_OP_ALLOWS_UNINIT, enter_shape},
    {"Exit", "data: T", "output: T", "T: type", 0, tfc_shape_fn_unchanged},
    {"RefExit", "data: Ref(T)", "output: Ref(T)", "T: type", TFC_OP_ALLOWS_UNINIT, tfc_shape_fn_unchanged},
    {"NextIteration", "data: T", "output: T", "T: type", 0, tfc_shape_fn_unchanged},
    {"RefNextIteration", "data: Ref(T)", "output: Ref(T)", "T: type", TFC_OP_ALLOWS_UNINIT,
     tfc_shape_fn_unchanged},
    {"LoopCond", "input: bool", "output: bool", "", 0, loop_cond_shape},
    {"RefIdentity", "input: Ref(T)", "output: Ref(T)", "T: type", TFC_OP_ALLOWS_UNINIT, tfc_shape_fn_unchanged},
};

const tfc_op_table tfc_ops_control = {specs, (int)(sizeof specs / sizeof specs[0])};
