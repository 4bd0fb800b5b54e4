/*
 * ops_lookup.c — op definitions of TF's lookup_ops.cc (resource-handle
 * forms): the table constructors HashTableV2, MutableHashTableV2,
 * MutableHashTableOfTensorsV2, MutableDenseHashTableV2, the initializers
 * InitializeTableV2 and InitializeTableFromTextFileV2, and
 * LookupTable{Find,Insert,Remove,Size,Export,Import}V2, and the version-1
 * forms over a Ref(string) handle (HashTable, MutableHashTable,
 * MutableHashTableOfTensors, InitializeTable, InitializeTableFromTextFile,
 * LookupTable{Find,Insert,Size,Export,Import}), with TF's names, attrs and
 * defaults. Kernels in kernels/lookup_ops.c.
 */
#include "core/op_registry.h"
#include "core/op_tables.h"

/* InitializeTableV2: the handle is a scalar, keys and values vectors of one length. */
static bool init_table_shape(tfc_shape_ctx *ctx) {
  if (!tfc_shape_rank_is(ctx, &ctx->in_shapes[0], 0) || !tfc_shape_rank_is(ctx, &ctx->in_shapes[1], 1)) return false;
  tfc_shape m;
  return tfc_shape_merge_ctx(ctx, &ctx->in_shapes[1], &ctx->in_shapes[2], &m);
}

/* InitializeTableFromTextFileV2: handle and filename are scalars. */
static bool init_text_shape(tfc_shape_ctx *ctx) {
  return tfc_shape_rank_is(ctx, &ctx->in_shapes[0], 0) && tfc_shape_rank_is(ctx, &ctx->in_shapes[1], 0);
}

/* Ops taking the handle as input 0 with outputs left unknown: the handle is a scalar. */
static bool handle_input_shape(tfc_shape_ctx *ctx) { return tfc_shape_rank_is(ctx, &ctx->in_shapes[0], 0); }

/* LookupTableSizeV2: scalar handle, scalar size. */
static bool size_shape(tfc_shape_ctx *ctx) {
  if (!tfc_shape_rank_is(ctx, &ctx->in_shapes[0], 0)) return false;
  ctx->out_shapes[0] = tfc_shape_scalar();
  return true;
}

/* LookupTableExportV2: keys are [?] (or [?, key_size]), values [?, ...]. */
static bool export_shape(tfc_shape_ctx *ctx) {
  if (!tfc_shape_rank_is(ctx, &ctx->in_shapes[0], 0)) return false;
  ctx->out_shapes[0] = tfc_shape_unknown();
  ctx->out_shapes[1] = tfc_shape_unknown();
  return true;
}

/* Version-1 constructors: the handle is a 2-vector of strings. */
static bool ref_handle_shape(tfc_shape_ctx *ctx) {
  int64_t two = 2;
  ctx->out_shapes[0] = tfc_shape_make(1, &two);
  return true;
}

#define TABLE_ATTRS "container: string = ''; shared_name: string = ''; use_node_name_sharing: bool = false; "

static const tfc_op_spec specs[] = {
    {"HashTableV2", "", "table_handle: resource", TABLE_ATTRS "key_dtype: type; value_dtype: type",
     TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"MutableHashTableV2", "", "table_handle: resource", TABLE_ATTRS "key_dtype: type; value_dtype: type",
     TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"MutableHashTableOfTensorsV2", "", "table_handle: resource",
     TABLE_ATTRS "key_dtype: type; value_dtype: type; value_shape: shape = []", TFC_OP_STATEFUL,
     tfc_shape_fn_scalar},
    {"MutableDenseHashTableV2", "empty_key: key_dtype; deleted_key: key_dtype", "table_handle: resource",
     TABLE_ATTRS "key_dtype: type; value_dtype: type; value_shape: shape = []; "
                 "initial_num_buckets: int = 131072; max_load_factor: float = 0.8",
     TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"InitializeTableV2", "table_handle: resource; keys: Tkey; values: Tval", "", "Tkey: type; Tval: type",
     TFC_OP_STATEFUL, init_table_shape},
    {"InitializeTableFromTextFileV2", "table_handle: resource; filename: string", "",
     "key_index: int >= -2; value_index: int >= -2; vocab_size: int >= -1 = -1; delimiter: string = '\t'; "
     "offset: int = 0",
     TFC_OP_STATEFUL, init_text_shape},
    {"LookupTableFindV2", "table_handle: resource; keys: Tin; default_value: Tout", "values: Tout",
     "Tin: type; Tout: type", TFC_OP_STATEFUL, handle_input_shape},
    {"LookupTableInsertV2", "table_handle: resource; keys: Tin; values: Tout", "", "Tin: type; Tout: type",
     TFC_OP_STATEFUL, handle_input_shape},
    {"LookupTableRemoveV2", "table_handle: resource; keys: Tin", "", "Tin: type", TFC_OP_STATEFUL,
     handle_input_shape},
    {"LookupTableSizeV2", "table_handle: resource", "size: int64", "", TFC_OP_STATEFUL, size_shape},
    {"LookupTableExportV2", "table_handle: resource", "keys: Tkeys; values: Tvalues", "Tkeys: type; Tvalues: type",
     TFC_OP_STATEFUL, export_shape},
    {"LookupTableImportV2", "table_handle: resource; keys: Tin; values: Tout", "", "Tin: type; Tout: type",
     TFC_OP_STATEFUL, handle_input_shape},

    /* version 1: the handle is TF's Ref(string) vector [container, name] */
    {"HashTable", "", "table_handle: Ref(string)", TABLE_ATTRS "key_dtype: type; value_dtype: type",
     TFC_OP_STATEFUL, ref_handle_shape},
    {"MutableHashTable", "", "table_handle: Ref(string)", TABLE_ATTRS "key_dtype: type; value_dtype: type",
     TFC_OP_STATEFUL, ref_handle_shape},
    {"MutableHashTableOfTensors", "", "table_handle: Ref(string)",
     TABLE_ATTRS "key_dtype: type; value_dtype: type; value_shape: shape = []", TFC_OP_STATEFUL, ref_handle_shape},
    {"InitializeTable", "table_handle: Ref(string); keys: Tkey; values: Tval", "", "Tkey: type; Tval: type",
     TFC_OP_STATEFUL, tfc_shape_fn_none},
    {"InitializeTableFromTextFile", "table_handle: Ref(string); filename: string", "",
     "key_index: int >= -2; value_index: int >= -2; vocab_size: int >= -1 = -1; delimiter: string = '\t'; "
     "offset: int = 0",
     TFC_OP_STATEFUL, tfc_shape_fn_none},
    {"LookupTableFind", "table_handle: Ref(string); keys: Tin; default_value: Tout", "values: Tout",
     "Tin: type; Tout: type", TFC_OP_STATEFUL, tfc_shape_fn_none},
    {"LookupTableInsert", "table_handle: Ref(string); keys: Tin; values: Tout", "", "Tin: type; Tout: type",
     TFC_OP_STATEFUL, tfc_shape_fn_none},
    {"LookupTableSize", "table_handle: Ref(string)", "size: int64", "", TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"LookupTableExport", "table_handle: Ref(string)", "keys: Tkeys; values: Tvalues", "Tkeys: type; Tvalues: type",
     TFC_OP_STATEFUL, tfc_shape_fn_none},
    {"LookupTableImport", "table_handle: Ref(string); keys: Tin; values: Tout", "", "Tin: type; Tout: type",
     TFC_OP_STATEFUL, tfc_shape_fn_none},
};

const tfc_op_table tfc_ops_lookup = {specs, (int)(sizeof specs / sizeof specs[0])};
