/*
 * ops_logging.c — op definitions for logging and pure control ops: NoOp,
 * ControlTrigger, Print, PrintV2 and Assert (TF's no_op.cc,
 * control_flow_ops.cc, logging_ops.cc).
 */
#include "core/op_registry.h"
#include "core/op_tables.h"

/* PrintV2: the input must be a scalar (the formatted string); no outputs. */
static bool shape_print_v2(tfc_shape_ctx *ctx) {
  if (ctx->in_shapes[0].rank > 0)
    return tfc_shape_fail(ctx, "input must be a scalar, but has rank: %d", ctx->in_shapes[0].rank);
  return true;
}

static const tfc_op_spec specs[] = {
    {"NoOp", "", "", "", 0, tfc_shape_fn_none},
    {"ControlTrigger", "", "", "", 0, tfc_shape_fn_none},
    {"Print", "input: T; data: U", "output: T",
     "T: type; U: list(type) >= 0; message: string = ''; first_n: int = -1; summarize: int = 3",
     TFC_OP_STATEFUL, tfc_shape_fn_unchanged},
    {"PrintV2", "input: string", "", "output_stream: string = 'stderr'; end: string = '\\n'",
     TFC_OP_STATEFUL, shape_print_v2},
    {"Assert", "condition: bool; data: T", "", "T: list(type) >= 1; summarize: int = 3",
     TFC_OP_STATEFUL, tfc_shape_fn_none},
};

const tfc_op_table tfc_ops_logging = {specs, (int)(sizeof specs / sizeof specs[0])};
