/*
 * ops_optional.c — op definitions of TF's Optional values
 * (OptionalFromValue, OptionalNone, OptionalHasValue, OptionalGetValue) and
 * of IteratorGetNextAsOptional.
 */
#include "core/op_registry.h"
#include "core/op_tables.h"

/* OptionalGetValue: each component takes its output_shapes entry. */
static bool get_value_shape(tfc_shape_ctx *ctx) {
  const tfc_attr_value *v = tfc_attrs_find(ctx->attrs, "output_shapes");
  if (!v || v->kind != TFC_ATTR_LIST || v->v.list.kind != TFC_ATTR_SHAPE) return true;
  for (int i = 0; i < ctx->n_outputs && i < v->v.list.n; i++) ctx->out_shapes[i] = v->v.list.v.shape[i];
  return true;
}

static const tfc_op_spec specs[] = {
    {"OptionalFromValue", "components: Toutput_types", "optional: variant", "Toutput_types: list(type) >= 1", 0,
     tfc_shape_fn_scalar},
    {"OptionalNone", "", "optional: variant", "", 0, tfc_shape_fn_scalar},
    {"OptionalHasValue", "optional: variant", "has_value: bool", "", 0, tfc_shape_fn_scalar},
    {"OptionalGetValue", "optional: variant", "components: output_types",
     "output_types: list(type) >= 1; output_shapes: list(shape) >= 1", 0, get_value_shape},
    {"IteratorGetNextAsOptional", "iterator: resource", "optional: variant",
     "output_types: list(type) >= 1; output_shapes: list(shape) >= 1", TFC_OP_STATEFUL, tfc_shape_fn_scalar},
};

const tfc_op_table tfc_ops_optional = {specs, (int)(sizeof specs / sizeof specs[0])};
