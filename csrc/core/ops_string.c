/*
 * ops_string.c — op definitions for string ops (TF's string_ops.cc):
 * StringJoin, StaticRegexFullMatch.
 */
#include "core/op_registry.h"
#include "core/op_tables.h"

/* StringJoin: inputs are scalars or share one shape; the output has it. */
static bool string_join_shape(tfc_shape_ctx *ctx) {
  tfc_shape out = tfc_shape_scalar();
  bool all_scalar = true;
  for (int i = 0; i < ctx->n_inputs; i++) {
    const tfc_shape *s = &ctx->in_shapes[i];
    if (s->rank == 0) continue;
    if (all_scalar) {
      out = *s;
      all_scalar = false;
      continue;
    }
    tfc_shape merged;
    if (!tfc_shape_merge_ctx(ctx, &out, s, &merged)) return false;
    out = merged;
  }
  if (!all_scalar) {
    /* an input of unknown rank may still be a scalar */
    ctx->out_shapes[0] = out;
    return true;
  }
  bool unknown = false;
  for (int i = 0; i < ctx->n_inputs; i++) unknown |= ctx->in_shapes[i].rank < 0;
  ctx->out_shapes[0] = unknown ? tfc_shape_unknown() : out;
  return true;
}

static const tfc_op_spec specs[] = {
    {"StringJoin", "inputs: N * string", "output: string", "N: int >= 0; separator: string = ''", 0,
     string_join_shape},
    {"StaticRegexFullMatch", "input: string", "output: bool", "pattern: string", 0,
     tfc_shape_fn_unchanged},
};

const tfc_op_table tfc_ops_string = {specs, (int)(sizeof specs / sizeof specs[0])};
