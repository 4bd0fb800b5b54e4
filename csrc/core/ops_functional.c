/*
 * ops_functional.c — op definitions that call functions of a graph's
 * library (TF's functional_ops.cc): PartitionedCall, StatefulPartitionedCall,
 * If/StatelessIf, Case/StatelessCase, While/StatelessWhile and
 * SymbolicGradient (the gradient of a function call), with TF's names,
 * attrs and shape functions (output_shapes when given). Their kernels live in
 * the runtime (runtime/function_ops.c).
 */
#include "core/op_registry.h"
#include "core/op_tables.h"

/* Outputs take the `output_shapes` attr when it lists one shape per output;
 * otherwise they stay unknown, or (While) take the inputs' shapes. */
static bool functional_shape(tfc_shape_ctx *ctx, bool like_inputs) {
  const tfc_attr_value *v = tfc_attrs_find(ctx->attrs, "output_shapes");
  if (v && v->kind == TFC_ATTR_LIST && v->v.list.kind == TFC_ATTR_SHAPE && v->v.list.n == ctx->n_outputs) {
    for (int i = 0; i < ctx->n_outputs; i++) ctx->out_shapes[i] = v->v.list.v.shape[i];
    return true;
  }
  if (like_inputs && ctx->n_inputs == ctx->n_outputs)
    for (int i = 0; i < ctx->n_outputs; i++) ctx->out_shapes[i] = ctx->in_shapes[i];
  return true;
}

/* If, Case, calls: output_shapes or unknown. */
static bool call_shape(tfc_shape_ctx *ctx) { return functional_shape(ctx, false); }

/* While: output_shapes or the loop variables' input shapes. */
static bool while_shape(tfc_shape_ctx *ctx) { return functional_shape(ctx, true); }

/* SymbolicGradient: inputs are the function's arguments then the gradients
 * of its results; output i has the shape of input i (argument i). */
static bool symbolic_gradient_shape(tfc_shape_ctx *ctx) {
  if (ctx->n_inputs < ctx->n_outputs)
    return tfc_shape_fail(ctx, "len(inputs) < len(outputs)");
  for (int i = 0; i < ctx->n_outputs; i++) ctx->out_shapes[i] = ctx->in_shapes[i];
  return true;
}

#define CALL_ATTRS                                                                                 \
  "Tin: list(type) >= 0; Tout: list(type) >= 0; f: func; config: string = ''; "                   \
  "config_proto: string = ''; executor_type: string = ''"
#define IF_ATTRS                                                                                   \
  "Tcond: type; Tin: list(type) >= 0; Tout: list(type) >= 0; then_branch: func; "                 \
  "else_branch: func; output_shapes: list(shape) = []"
#define CASE_ATTRS                                                                                 \
  "Tin: list(type) >= 0; Tout: list(type) >= 0; branches: list(func) >= 1; "                      \
  "output_shapes: list(shape) = []"
#define WHILE_ATTRS                                                                                \
  "T: list(type) >= 0; cond: func; body: func; output_shapes: list(shape) = []; "                 \
  "parallel_iterations: int = 10"

static const tfc_op_spec specs[] = {
    {"PartitionedCall", "args: Tin", "output: Tout", CALL_ATTRS, 0, call_shape},
    {"StatefulPartitionedCall", "args: Tin", "output: Tout", CALL_ATTRS, TFC_OP_STATEFUL, call_shape},
    {"If", "cond: Tcond; input: Tin", "output: Tout", IF_ATTRS, TFC_OP_STATEFUL, call_shape},
    {"StatelessIf", "cond: Tcond; input: Tin", "output: Tout", IF_ATTRS, 0, call_shape},
    {"Case", "branch_index: int32; input: Tin", "output: Tout", CASE_ATTRS, TFC_OP_STATEFUL, call_shape},
    {"StatelessCase", "branch_index: int32; input: Tin", "output: Tout", CASE_ATTRS, 0, call_shape},
    {"While", "input: T", "output: T", WHILE_ATTRS, TFC_OP_STATEFUL, while_shape},
    {"StatelessWhile", "input: T", "output: T", WHILE_ATTRS, 0, while_shape},
    {"SymbolicGradient", "input: Tin", "output: Tout",
     "Tin: list(type) >= 1; Tout: list(type) >= 1; f: func", 0, symbolic_gradient_shape},
};

const tfc_op_table tfc_ops_functional = {specs, (int)(sizeof specs / sizeof specs[0])};
