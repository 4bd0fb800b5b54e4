/*
 * ops_script.c — op definitions for calling Python from a graph: PyFunc,
 * PyFuncStateless and EagerPyFunc (TF's script_ops.cc). `token` names the
 * Python function registered in the process that built the graph; outputs
 * have unknown shapes.
 */
#include "core/op_registry.h"
#include "core/op_tables.h"

static const tfc_op_spec specs[] = {
    {"PyFunc", "input: Tin", "output: Tout", "token: string; Tin: list(type) >= 0; Tout: list(type) >= 0",
     TFC_OP_STATEFUL, tfc_shape_fn_none},
    {"PyFuncStateless", "input: Tin", "output: Tout",
     "token: string; Tin: list(type) >= 0; Tout: list(type) >= 0", 0, tfc_shape_fn_none},
    {"EagerPyFunc", "input: Tin", "output: Tout",
     "token: string; is_async: bool = false; Tin: list(type) >= 0; Tout: list(type) >= 0",
     TFC_OP_STATEFUL, tfc_shape_fn_none},
};

const tfc_op_table tfc_ops_script = {specs, (int)(sizeof specs / sizeof specs[0])};
