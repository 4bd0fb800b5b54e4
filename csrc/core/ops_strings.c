/*
 * ops_strings.c — op definitions of the tf.strings ops beyond StringJoin /
 * StaticRegexFullMatch (ops_string.c): StringLength, Substr, StringStrip,
 * StringUpper, StringLower, StringToNumber, AsString, ReduceJoin,
 * RegexFullMatch, RegexReplace, StaticRegexReplace, StringToHashBucketStrong,
 * StringToHashBucketFast, StringToHashBucket, Fingerprint (kernels in
 * kernels/string_hash.c), StringFormat, UnsortedSegmentJoin, StringNGrams.
 * Names, attrs and defaults are TensorFlow's (string_ops.cc, parsing_ops.cc).
 */
#include <string.h>

#include "core/op_registry.h"
#include "core/op_tables.h"
#include "core/shape_fns_array.h"

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

/* StringFormat: a scalar; the template must hold one placeholder per input. */
static bool shape_string_format(tfc_shape_ctx *ctx) {
  const tfc_attr_value *t = tfc_attrs_find(ctx->attrs, "template");
  const tfc_attr_value *p = tfc_attrs_find(ctx->attrs, "placeholder");
  if (t && p && t->kind == TFC_ATTR_S && p->kind == TFC_ATTR_S && p->v.s.len > 0) {
    int64_t count = 0;
    const char *s = t->v.s.data ? t->v.s.data : "";
    size_t n = t->v.s.len, m = p->v.s.len;
    for (size_t i = 0; i + m <= n;) {
      if (memcmp(s + i, p->v.s.data, m) == 0) {
        count++;
        i += m;
      } else {
        i++;
      }
    }
    if (count != ctx->n_inputs)
      return tfc_shape_fail(ctx, "num placeholders in template and num inputs must match: "
                            "%lld vs. %d", (long long)count, ctx->n_inputs);
  }
  ctx->out_shapes[0].rank = 0;
  return true;
}

/* StringNGrams: data and data_splits vectors; ngrams and ngrams_splits
 * vectors (the splits as long as data_splits). */
static bool shape_string_ngrams(tfc_shape_ctx *ctx) {
  for (int i = 0; i < 2; i++)
    if (ctx->in_shapes[i].rank >= 0 && ctx->in_shapes[i].rank != 1)
      return tfc_shape_fail(ctx, "Shape must be rank 1 but is rank %d", ctx->in_shapes[i].rank);
  int64_t unknown = -1;
  ctx->out_shapes[0] = tfc_shape_make(1, &unknown);
  ctx->out_shapes[1] = ctx->in_shapes[1].rank == 1 ? ctx->in_shapes[1] : tfc_shape_make(1, &unknown);
  return true;
}

static const tfc_op_spec specs[] = {
    {"StringNGrams", "data: string; data_splits: Tsplits", "ngrams: string; ngrams_splits: Tsplits",
     "separator: string; ngram_widths: list(int) >= 0; left_pad: string; right_pad: string; "
     "pad_width: int; preserve_short_sequences: bool; Tsplits: {int32, int64} = int64",
     0, shape_string_ngrams},
    {"UnsortedSegmentJoin", "inputs: string; segment_ids: Tindices; num_segments: Tnumsegments",
     "output: string",
     "separator: string = ''; Tindices: {int32, int64}; Tnumsegments: {int32, int64} = int32", 0,
     tfc_shape_fn_unsorted_segment},
    {"StringFormat", "inputs: T", "output: string",
     "T: list(type) >= 0; template: string = '%s'; placeholder: string = '%s'; summarize: int = 3",
     0, shape_string_format},
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
