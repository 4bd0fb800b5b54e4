/*
 * ops_util.c — op definitions for small utility ops: GuaranteeConst (an
 * identity that promises a constant value) and Timestamp (the wall clock in
 * seconds). TF's array_ops.cc and logging_ops.cc. (EnsureShape is in
 * ops_array_extra.c.)
 */
#include <stdio.h>

#include "core/op_registry.h"
#include "core/op_tables.h"

static const tfc_op_spec specs[] = {
    {"GuaranteeConst", "input: T", "output: T", "T: type", TFC_OP_STATEFUL,
     tfc_shape_fn_unchanged},
    {"Timestamp", "", "ts: double", "", TFC_OP_STATEFUL, tfc_shape_fn_scalar},
};

const tfc_op_table tfc_ops_util = {specs, (int)(sizeof specs / sizeof specs[0])};
