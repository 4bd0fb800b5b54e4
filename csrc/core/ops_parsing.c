/*
 * ops_parsing.c — op definitions for input parsing (TF's parsing_ops.cc and
 * the string splitters of string_ops.cc): ParseExample, ParseExampleV2,
 * ParseSingleExample, ParseSingleSequenceExample, ParseSequenceExample,
 * ParseSequenceExampleV2, DecodeRaw, DecodeCSV, StringSplit, StringSplitV2.
 */
#include "core/op_registry.h"
#include "core/op_tables.h"

/* Reads int attr `name` (0 when absent). */
static int64_t attr_int(const tfc_shape_ctx *ctx, const char *name) {
  const tfc_attr_value *v = tfc_attrs_find(ctx->attrs, name);
  return v && v->kind == TFC_ATTR_I ? v->v.i : 0;
}

/* The dense_shapes attr entry d, or the unknown shape. */
static tfc_shape dense_shape(const tfc_shape_ctx *ctx, int d) {
  const tfc_attr_value *v = tfc_attrs_find(ctx->attrs, "dense_shapes");
  if (!v || v->kind != TFC_ATTR_LIST || d >= v->v.list.n || v->v.list.kind != TFC_ATTR_SHAPE)
    return tfc_shape_unknown();
  return v->v.list.v.shape[d];
}

/* Fills the sparse and dense outputs common to the three Example parsers:
 * n_sparse triples of ([?, idx_rank], [?], [idx_rank]), then n_dense values of
 * batch (when batch_rank is 1: [batch] prepended) + dense shape (a leading -1
 * is a variable-length dimension). Returns the index of the next output. */
static int example_outputs(tfc_shape_ctx *ctx, int n_sparse, int n_dense, int batch_rank,
                           int64_t batch) {
  int idx_rank = batch_rank + 1;
  int o = 0;
  for (int i = 0; i < n_sparse; i++) {
    int64_t d[2] = {-1, idx_rank};
    ctx->out_shapes[o + i] = tfc_shape_make(2, d);
    ctx->out_shapes[o + n_sparse + i] = tfc_shape_unknown_dims(1);
    int64_t r = idx_rank;
    ctx->out_shapes[o + 2 * n_sparse + i] = tfc_shape_make(1, &r);
  }
  o += 3 * n_sparse;
  for (int i = 0; i < n_dense; i++) {
    tfc_shape s = dense_shape(ctx, i);
    if (s.rank < 0 || s.rank + batch_rank > TFC_MAX_RANK) {
      ctx->out_shapes[o + i] = tfc_shape_unknown();
      continue;
    }
    tfc_shape out;
    out.rank = s.rank + batch_rank;
    if (batch_rank) out.dims[0] = batch;
    for (int k = 0; k < s.rank; k++) out.dims[batch_rank + k] = s.dims[k];
    ctx->out_shapes[o + i] = out;
  }
  return o + n_dense;
}

/* ParseExample: serialized and names are vectors (names may be empty). */
static bool parse_example_shape(tfc_shape_ctx *ctx) {
  if (!tfc_shape_rank_is(ctx, &ctx->in_shapes[0], 1)) return false;
  int64_t batch = ctx->in_shapes[0].rank == 1 ? ctx->in_shapes[0].dims[0] : -1;
  example_outputs(ctx, (int)attr_int(ctx, "Nsparse"), (int)attr_int(ctx, "Ndense"), 1, batch);
  return true;
}

/* Length of list attr `name` (0 when absent). */
static int list_len(const tfc_shape_ctx *ctx, const char *name) {
  const tfc_attr_value *v = tfc_attrs_find(ctx->attrs, name);
  return v && v->kind == TFC_ATTR_LIST ? v->v.list.n : 0;
}

/* ParseExampleV2: serialized is a scalar or a vector; ragged outputs follow. */
static bool parse_example_v2_shape(tfc_shape_ctx *ctx) {
  const tfc_shape *s = &ctx->in_shapes[0];
  if (s->rank > 1) return tfc_shape_fail(ctx, "Shape must be at most rank 1 but is rank %d", s->rank);
  int batch_rank = s->rank < 0 ? 1 : s->rank;
  int64_t batch = s->rank == 1 ? s->dims[0] : -1;
  int o = example_outputs(ctx, (int)attr_int(ctx, "num_sparse"), list_len(ctx, "Tdense"),
                          batch_rank, batch);
  int n_ragged = list_len(ctx, "ragged_value_types");
  for (int i = 0; i < n_ragged; i++) {
    ctx->out_shapes[o + i] = tfc_shape_unknown_dims(1);
    int64_t splits = batch >= 0 ? batch + 1 : -1;
    ctx->out_shapes[o + n_ragged + i] = tfc_shape_make(1, &splits);
  }
  if (s->rank < 0) {
    /* scalar or vector: the dense ranks are not known either */
    for (int i = 0; i < ctx->n_outputs; i++)
      if (i >= 3 * (int)attr_int(ctx, "num_sparse")) ctx->out_shapes[i] = tfc_shape_unknown();
  }
  return true;
}

/* ParseSingleExample: serialized is a scalar. */
static bool parse_single_example_shape(tfc_shape_ctx *ctx) {
  if (!tfc_shape_rank_is(ctx, &ctx->in_shapes[0], 0)) return false;
  example_outputs(ctx, (int)attr_int(ctx, "num_sparse"), list_len(ctx, "dense_keys"), 0, 0);
  return true;
}

/* The shape attr entry d of list attr `name`, or the unknown shape. */
static tfc_shape shape_attr(const tfc_shape_ctx *ctx, const char *name, int d) {
  const tfc_attr_value *v = tfc_attrs_find(ctx->attrs, name);
  if (!v || v->kind != TFC_ATTR_LIST || d >= v->v.list.n || v->v.list.kind != TFC_ATTR_SHAPE)
    return tfc_shape_unknown();
  return v->v.list.v.shape[d];
}

/* Sets out_shapes[o] to prefix (n dims) + shape (unknown when too long or unknown). */
static void prefixed(tfc_shape_ctx *ctx, int o, const int64_t *prefix, int n, tfc_shape s) {
  if (s.rank < 0 || s.rank + n > TFC_MAX_RANK) {
    ctx->out_shapes[o] = tfc_shape_unknown();
    return;
  }
  tfc_shape out;
  out.rank = s.rank + n;
  for (int k = 0; k < n; k++) out.dims[k] = prefix[k];
  for (int k = 0; k < s.rank; k++) out.dims[n + k] = s.dims[k];
  ctx->out_shapes[o] = out;
}

/* Sets n sparse triples from output o: indices [?, rank], values [?], shape [rank]. */
static int sparse_triples(tfc_shape_ctx *ctx, int o, int n, int64_t rank) {
  for (int i = 0; i < n; i++) {
    int64_t d[2] = {-1, rank};
    ctx->out_shapes[o + i] = rank > 0 ? tfc_shape_make(2, d) : tfc_shape_unknown();
    ctx->out_shapes[o + n + i] = tfc_shape_unknown_dims(1);
    ctx->out_shapes[o + 2 * n + i] = rank > 0 ? tfc_shape_make(1, &rank) : tfc_shape_unknown_dims(1);
  }
  return o + 3 * n;
}

/* The outputs of the three SequenceExample parsers for a batch of rank br
 * (-1: unknown) and size batch: context sparse triples, context dense,
 * [context ragged values and splits], list sparse triples, list dense,
 * [lengths], [list ragged values, outer and inner splits]. */
static void sequence_outputs(tfc_shape_ctx *ctx, int br, int64_t batch, bool lengths, bool ragged) {
  int ncs = (int)attr_int(ctx, "Ncontext_sparse"), ncd = list_len(ctx, "Tcontext_dense");
  int nfs = (int)attr_int(ctx, "Nfeature_list_sparse"), nfd = list_len(ctx, "feature_list_dense_types");
  int ncr = ragged ? list_len(ctx, "context_ragged_value_types") : 0;
  int nfr = ragged ? list_len(ctx, "feature_list_ragged_value_types") : 0;
  int64_t pre[2] = {batch, -1};
  int o = sparse_triples(ctx, 0, ncs, br < 0 ? -1 : br + 1);
  for (int i = 0; i < ncd; i++, o++)
    if (br < 0) ctx->out_shapes[o] = tfc_shape_unknown();
    else prefixed(ctx, o, pre, br, shape_attr(ctx, "context_dense_shapes", i));
  for (int i = 0; i < 2 * ncr; i++, o++) ctx->out_shapes[o] = tfc_shape_unknown_dims(1);
  o = sparse_triples(ctx, o, nfs, br < 0 ? -1 : br + 2);
  int64_t steps[2] = {-1, -1};
  for (int i = 0; i < nfd; i++, o++)
    if (br < 0) ctx->out_shapes[o] = tfc_shape_unknown();
    else prefixed(ctx, o, br ? pre : steps, br + 1, shape_attr(ctx, "feature_list_dense_shapes", i));
  for (int i = 0; lengths && i < nfd; i++, o++)
    ctx->out_shapes[o] = br < 0 ? tfc_shape_unknown() : br ? tfc_shape_make(1, &batch) : tfc_shape_make(0, NULL);
  for (int i = 0; i < 3 * nfr; i++, o++) ctx->out_shapes[o] = tfc_shape_unknown_dims(1);
}

/* ParseSingleSequenceExample: a scalar SequenceExample. */
static bool parse_single_sequence_example_shape(tfc_shape_ctx *ctx) {
  if (!tfc_shape_rank_is(ctx, &ctx->in_shapes[0], 0)) return false;
  sequence_outputs(ctx, 0, 0, false, false);
  return true;
}

/* ParseSequenceExample: a vector of SequenceExamples. */
static bool parse_sequence_example_shape(tfc_shape_ctx *ctx) {
  if (!tfc_shape_rank_is(ctx, &ctx->in_shapes[0], 1)) return false;
  const tfc_shape *s = &ctx->in_shapes[0];
  sequence_outputs(ctx, 1, s->rank == 1 ? s->dims[0] : -1, true, false);
  return true;
}

/* ParseSequenceExampleV2: a scalar or a vector. */
static bool parse_sequence_example_v2_shape(tfc_shape_ctx *ctx) {
  const tfc_shape *s = &ctx->in_shapes[0];
  if (s->rank > 1) return tfc_shape_fail(ctx, "Shape must be at most rank 1 but is rank %d", s->rank);
  sequence_outputs(ctx, s->rank, s->rank == 1 ? s->dims[0] : -1, true, true);
  return true;
}

/* DecodeRaw: the input's shape plus one unknown dimension. */
static bool decode_raw_shape(tfc_shape_ctx *ctx) {
  const tfc_shape *s = &ctx->in_shapes[0];
  if (s->rank < 0 || s->rank >= TFC_MAX_RANK) return true;
  tfc_shape out = *s;
  out.dims[out.rank++] = -1;
  ctx->out_shapes[0] = out;
  return true;
}

/* DecodeCSV: every output has the records' shape; defaults are rank <= 1. */
static bool decode_csv_shape(tfc_shape_ctx *ctx) {
  for (int i = 1; i < ctx->n_inputs; i++) {
    const tfc_shape *d = &ctx->in_shapes[i];
    if (d->rank > 1)
      return tfc_shape_fail(ctx, "Shape must be at most rank 1 but is rank %d", d->rank);
    if (d->rank == 1 && d->dims[0] > 1)
      return tfc_shape_fail(ctx, "Shape of a default must be a length-0 or length-1 vector, or a scalar.");
  }
  for (int i = 0; i < ctx->n_outputs; i++) ctx->out_shapes[i] = ctx->in_shapes[0];
  return true;
}

/* StringSplit / StringSplitV2: a vector in, a SparseTensor of rank 2 out. */
static bool string_split_shape(tfc_shape_ctx *ctx) {
  if (!tfc_shape_rank_is(ctx, &ctx->in_shapes[0], 1)) return false;
  if (!tfc_shape_rank_is(ctx, &ctx->in_shapes[1], 0)) return false;
  int64_t d[2] = {-1, 2};
  ctx->out_shapes[0] = tfc_shape_make(2, d);
  ctx->out_shapes[1] = tfc_shape_unknown_dims(1);
  int64_t two = 2;
  ctx->out_shapes[2] = tfc_shape_make(1, &two);
  return true;
}

#define PARSE_TYPES "{float, int64, string}"

static const tfc_op_spec specs[] = {
    {"ParseExample",
     "serialized: string; names: string; sparse_keys: Nsparse * string; "
     "dense_keys: Ndense * string; dense_defaults: Tdense",
     "sparse_indices: Nsparse * int64; sparse_values: sparse_types; "
     "sparse_shapes: Nsparse * int64; dense_values: Tdense",
     "Nsparse: int >= 0; Ndense: int >= 0; sparse_types: list(" PARSE_TYPES ") >= 0; "
     "Tdense: list(" PARSE_TYPES ") >= 0; dense_shapes: list(shape) >= 0",
     0, parse_example_shape},
    {"ParseExampleV2",
     "serialized: string; names: string; sparse_keys: string; dense_keys: string; "
     "ragged_keys: string; dense_defaults: Tdense",
     "sparse_indices: num_sparse * int64; sparse_values: sparse_types; "
     "sparse_shapes: num_sparse * int64; dense_values: Tdense; "
     "ragged_values: ragged_value_types; ragged_row_splits: ragged_split_types",
     "Tdense: list(" PARSE_TYPES ") >= 0; num_sparse: int >= 0; "
     "sparse_types: list(" PARSE_TYPES ") >= 0; ragged_value_types: list(" PARSE_TYPES ") >= 0; "
     "ragged_split_types: list({int32, int64}) >= 0; dense_shapes: list(shape) >= 0",
     0, parse_example_v2_shape},
    {"ParseSingleExample", "serialized: string; dense_defaults: Tdense",
     "sparse_indices: num_sparse * int64; sparse_values: sparse_types; "
     "sparse_shapes: num_sparse * int64; dense_values: Tdense",
     "num_sparse: int >= 0; sparse_keys: list(string) >= 0; dense_keys: list(string) >= 0; "
     "sparse_types: list(" PARSE_TYPES ") >= 0; Tdense: list(" PARSE_TYPES ") >= 0; "
     "dense_shapes: list(shape) >= 0",
     0, parse_single_example_shape},
    {"ParseSingleSequenceExample",
     "serialized: string; feature_list_dense_missing_assumed_empty: string; "
     "context_sparse_keys: Ncontext_sparse * string; context_dense_keys: Ncontext_dense * string; "
     "feature_list_sparse_keys: Nfeature_list_sparse * string; "
     "feature_list_dense_keys: Nfeature_list_dense * string; context_dense_defaults: Tcontext_dense; "
     "debug_name: string",
     "context_sparse_indices: Ncontext_sparse * int64; context_sparse_values: context_sparse_types; "
     "context_sparse_shapes: Ncontext_sparse * int64; context_dense_values: Tcontext_dense; "
     "feature_list_sparse_indices: Nfeature_list_sparse * int64; "
     "feature_list_sparse_values: feature_list_sparse_types; "
     "feature_list_sparse_shapes: Nfeature_list_sparse * int64; "
     "feature_list_dense_values: feature_list_dense_types",
     "Ncontext_sparse: int >= 0 = 0; Ncontext_dense: int >= 0 = 0; Nfeature_list_sparse: int >= 0 = 0; "
     "Nfeature_list_dense: int >= 0 = 0; context_sparse_types: list(" PARSE_TYPES ") >= 0 = []; "
     "Tcontext_dense: list(" PARSE_TYPES ") >= 0 = []; "
     "feature_list_dense_types: list(" PARSE_TYPES ") >= 0 = []; "
     "context_dense_shapes: list(shape) >= 0 = []; "
     "feature_list_sparse_types: list(" PARSE_TYPES ") >= 0 = []; "
     "feature_list_dense_shapes: list(shape) >= 0 = []",
     0, parse_single_sequence_example_shape},
    {"ParseSequenceExample", "serialized: string; debug_name: string; context_dense_defaults: Tcontext_dense",
     "context_sparse_indices: Ncontext_sparse * int64; context_sparse_values: context_sparse_types; "
     "context_sparse_shapes: Ncontext_sparse * int64; context_dense_values: Tcontext_dense; "
     "feature_list_sparse_indices: Nfeature_list_sparse * int64; "
     "feature_list_sparse_values: feature_list_sparse_types; "
     "feature_list_sparse_shapes: Nfeature_list_sparse * int64; "
     "feature_list_dense_values: feature_list_dense_types; "
     "feature_list_dense_lengths: Nfeature_list_dense * int64",
     "feature_list_dense_missing_assumed_empty: list(string) >= 0; context_sparse_keys: list(string) >= 0; "
     "context_dense_keys: list(string) >= 0; feature_list_sparse_keys: list(string) >= 0; "
     "feature_list_dense_keys: list(string) >= 0; "
     "Ncontext_sparse: int >= 0 = 0; Ncontext_dense: int >= 0 = 0; Nfeature_list_sparse: int >= 0 = 0; "
     "Nfeature_list_dense: int >= 0 = 0; context_sparse_types: list(" PARSE_TYPES ") >= 0 = []; "
     "Tcontext_dense: list(" PARSE_TYPES ") >= 0 = []; "
     "feature_list_dense_types: list(" PARSE_TYPES ") >= 0 = []; "
     "context_dense_shapes: list(shape) >= 0 = []; "
     "feature_list_sparse_types: list(" PARSE_TYPES ") >= 0 = []; "
     "feature_list_dense_shapes: list(shape) >= 0 = []",
     0, parse_sequence_example_shape},
    {"ParseSequenceExampleV2",
     "serialized: string; debug_name: string; context_sparse_keys: string; context_dense_keys: string; "
     "context_ragged_keys: string; feature_list_sparse_keys: string; feature_list_dense_keys: string; "
     "feature_list_ragged_keys: string; feature_list_dense_missing_assumed_empty: bool; "
     "context_dense_defaults: Tcontext_dense",
     "context_sparse_indices: Ncontext_sparse * int64; context_sparse_values: context_sparse_types; "
     "context_sparse_shapes: Ncontext_sparse * int64; context_dense_values: Tcontext_dense; "
     "context_ragged_values: context_ragged_value_types; "
     "context_ragged_row_splits: context_ragged_split_types; "
     "feature_list_sparse_indices: Nfeature_list_sparse * int64; "
     "feature_list_sparse_values: feature_list_sparse_types; "
     "feature_list_sparse_shapes: Nfeature_list_sparse * int64; "
     "feature_list_dense_values: feature_list_dense_types; "
     "feature_list_dense_lengths: Nfeature_list_dense * int64; "
     "feature_list_ragged_values: feature_list_ragged_value_types; "
     "feature_list_ragged_outer_splits: feature_list_ragged_split_types; "
     "feature_list_ragged_inner_splits: feature_list_ragged_split_types",
     "Ncontext_sparse: int >= 0 = 0; Tcontext_dense: list(" PARSE_TYPES ") >= 0 = []; "
     "context_sparse_types: list(" PARSE_TYPES ") >= 0 = []; "
     "context_ragged_value_types: list(" PARSE_TYPES ") >= 0 = []; "
     "context_ragged_split_types: list({int32, int64}) >= 0 = []; "
     "context_dense_shapes: list(shape) >= 0 = []; "
     "Nfeature_list_sparse: int >= 0 = 0; Nfeature_list_dense: int >= 0 = 0; "
     "feature_list_dense_types: list(" PARSE_TYPES ") >= 0 = []; "
     "feature_list_sparse_types: list(" PARSE_TYPES ") >= 0 = []; "
     "feature_list_ragged_value_types: list(" PARSE_TYPES ") >= 0 = []; "
     "feature_list_ragged_split_types: list({int32, int64}) >= 0 = []; "
     "feature_list_dense_shapes: list(shape) >= 0 = []",
     0, parse_sequence_example_v2_shape},
    {"DecodeRaw", "bytes: string", "output: out_type",
     "out_type: {half, float, double, int32, uint16, uint8, int16, int8, int64, complex64, "
     "complex128, bool, bfloat16}; little_endian: bool = true",
     0, decode_raw_shape},
    {"DecodeCSV", "records: string; record_defaults: OUT_TYPE", "output: OUT_TYPE",
     "OUT_TYPE: list({float, double, int32, int64, string}) >= 1; field_delim: string = ','; "
     "use_quote_delim: bool = true; na_value: string = ''; select_cols: list(int) = []",
     0, decode_csv_shape},
    {"StringSplit", "input: string; delimiter: string",
     "indices: int64; values: string; shape: int64", "skip_empty: bool = true", 0,
     string_split_shape},
    {"StringSplitV2", "input: string; sep: string",
     "indices: int64; values: string; shape: int64", "maxsplit: int = -1", 0, string_split_shape},
};

const tfc_op_table tfc_ops_parsing = {specs, (int)(sizeof specs / sizeof specs[0])};
