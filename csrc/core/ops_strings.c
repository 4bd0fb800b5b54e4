/*
 * ops_strings.c — op definitions of the tf.strings ops beyond StringJoin /
 * StaticRegexFullMatch (ops_string.c): StringLength, Substr, StringStrip,
 * StringUpper, StringLower, StringToNumber, AsString, ReduceJoin,
 * RegexFullMatch, RegexReplace, StaticRegexReplace, StringToHashBucketStrong,
 * StringToHashBucketFast, StringToHashBucket, Fingerprint (kernels in
 * kernels/string_hash.c).
 * Names, attrs and defaults are TensorFlow's (string_ops.cc, parsing_ops.cc).
 */
#include "core/op_registry.h"
#include "core/op_tables.h"

/* Substr: the output has the input's shape. */
static bool shape_substr(tfc_shape_ctx *ctx) {
  ctx->out_shapes[0] = ctx->in_shapes[0];
  return true;
}

/* ReduceJoin: known when the input rank and the constant axes are known. */
static bool shape_reduce_join(tfc_shape_ctx *ctx) {
  const tfc_shape *in = &ctx->in_shapes[0];
  const tfc_tensor *axes = ctx->in_values ? ctx->in_values[1] : NULL;
  const tfc_attr_value *kd = tfc_attrs_find(ctx->attrs, "keep_dims");
  bool keep = kd && kd->kind == TFC_ATTR_B && kd->v.b;
  if (in->rank < 0 || axes == NULL) return true;
  bool red[TFC_MAX_RANK] = {false};
  for (int64_t k = 0; k < axes->nelems; k++) {
    int64_t a = tfc_tensor_get_int64(axes, k);
    if (a < -in->rank || a >= in->rank)
      return tfc_shape_fail(ctx, "Invalid reduction dimension %lld for input with %d "
                            "dimension(s)", (long long)a, in->rank);
    red[a < 0 ? a + in->rank : a] = true;
  }
  tfc_shape out;
  out.rank = 0;
  for (int d = 0; d < in->rank; d++) {
    if (!red[d]) out.dims[out.rank++] = in->dims[d];
    else if (keep) out.dims[out.rank++] = 1;
  }
  ctx->out_shapes[0] = out;
  return true;
}

/* Fingerprint: data has rank >= 1, method is a scalar; [dim0, 8] uint8. */
static bool shape_fingerprint(tfc_shape_ctx *ctx) {
  if (!tfc_shape_rank_at_least(ctx, &ctx->in_shapes[0], 1)) return false;
  if (!tfc_shape_rank_is(ctx, &ctx->in_shapes[1], 0)) return false;
  int64_t dims[2] = {ctx->in_shapes[0].rank >= 1 ? ctx->in_shapes[0].dims[0] : -1, 8};
  ctx->out_shapes[0] = tfc_shape_make(2, dims);
  return true;
}

#define UNIT_ATTR "unit: {'BYTE', 'UTF8_CHAR'} = 'BYTE'"

static const tfc_op_spec specs[] = {
    {"StringLength", "input: string", "output: int32", UNIT_ATTR, 0, tfc_shape_fn_unchanged},
    {"Substr", "input: string; pos: T; len: T", "output: string",
     "T: {int32, int64}; " UNIT_ATTR, 0, shape_substr},
    {"StringStrip", "input: string", "output: string", "", 0, tfc_shape_fn_unchanged},
    {"StringUpper", "input: string", "output: string", "encoding: string = ''", 0,
     tfc_shape_fn_unchanged},
    {"StringLower", "input: string", "output: string", "encoding: string = ''", 0,
     tfc_shape_fn_unchanged},
    {"StringToNumber", "string_tensor: string", "output: out_type",
     "out_type: {float, double, int32, int64} = float", 0, tfc_shape_fn_unchanged},
    {"AsString", "input: T", "output: string",
     "T: {int8, int16, int32, int64, half, bfloat16, float, double, bool}; "
     "precision: int = -1; scientific: bool = false; shortest: bool = false; width: int = -1; "
     "fill: string = ''", 0, tfc_shape_fn_unchanged},
    {"ReduceJoin", "inputs: string; reduction_indices: int32", "output: string",
     "keep_dims: bool = false; separator: string = ''", 0, shape_reduce_join},
    {"RegexFullMatch", "input: string; pattern: string", "output: bool", "", 0,
     tfc_shape_fn_unchanged},
    {"RegexReplace", "input: string; pattern: string; rewrite: string", "output: string",
     "replace_global: bool = true", 0, tfc_shape_fn_unchanged},
    {"StaticRegexReplace", "input: string", "output: string",
     "pattern: string; rewrite: string; replace_global: bool = true", 0,
     tfc_shape_fn_unchanged},
    {"StringToHashBucketStrong", "input: string", "output: int64",
     "num_buckets: int >= 1; key: list(int)", 0, tfc_shape_fn_unchanged},
    {"StringToHashBucketFast", "input: string", "output: int64", "num_buckets: int >= 1", 0,
     tfc_shape_fn_unchanged},
    {"StringToHashBucket", "string_tensor: string", "output: int64", "num_buckets: int >= 1", 0,
     tfc_shape_fn_unchanged},
    {"Fingerprint", "data: T; method: string", "fingerprint: uint8", "T: type", 0, shape_fingerprint},
};

const tfc_op_table tfc_ops_strings = {specs, (int)(sizeof specs / sizeof specs[0])};
