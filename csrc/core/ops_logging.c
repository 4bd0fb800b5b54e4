/*
 * ops_logging.c — op definitions for logging and pure control ops: NoOp,
 * ControlTrigger, Print and Assert (TF's no_op.cc, control_flow_ops.cc,
 * logging_ops.cc).
 */
#include "core/op_registry.h"
#include "core/op_tables.h"

static const tfc_op_spec specs[] = {
    {"NoOp", "", "", "", 0, tfc_shape_fn_none},
    {"ControlTrigger", "", "", "", 0, tfc_shape_fn_none},
    {"Print", "input: T; data: U", "output: T",
     "T: type; U: list(type) >= 0; message: string = ''; first_n: int = -1; summarize: int = 3",
     TFC_OP_STATEFUL, tfc_shape_fn_unchanged},
    {"Assert", "condition: bool; data: T", "", "T: list(type) >= 1; summarize: int = 3",
     TFC_OP_STATEFUL, tfc_shape_fn_none},
};

const tfc_op_table tfc_ops_logging = {specs, (int)(sizeof specs / sizeof specs[0])};
