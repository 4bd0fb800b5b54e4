/*
 * lookup_ops.c — CPU kernels of TF's lookup-table ops (core/ops_lookup.c):
 * the constructors HashTableV2, MutableHashTableV2,
 * MutableHashTableOfTensorsV2 and MutableDenseHashTableV2 (a session
 * resource per (container, shared_name) — the node name when
 * use_node_name_sharing, else one per node — output as a resource handle),
 * InitializeTableV2, and LookupTable{Find,Insert,Remove,Size,Export,Import}V2
 * over lookup_table.h. InitializeTableFromTextFileV2 is in lookup_text.c.
 * The version-1 ops (HashTable, MutableHashTable(OfTensors), InitializeTable*,
 * LookupTable{Find,Insert,Size,Export,Import}) are the same kernels over TF's
 * Ref(string) handle [container, name].
 */
#include <string.h>

#include "base/alloc.h"
#include "kernels/data_flow_internal.h"
#include "kernels/kernel_tables.h"
#include "kernels/lookup_ops.h"

typedef struct table_op {
  tfc_lookup_config cfg;
  char *container;
  char *name;
  bool ref_handle;      /* version-1 op: output the Ref(string) handle [container, name] */
} table_op;

/* Frees a constructor's parsed attrs. */
static void table_op_free(void *state) {
  table_op *op = state;
  if (!op) return;
  tfc_free(op->container);
  tfc_free(op->name);
  tfc_free(op);
}

/* Parses a constructor's attrs once: dtypes, value_shape, the dense
 * settings and the resource name. */
static bool table_op_init(const tfc_kernel_init *ki, void **state) {
  table_op *op = tfc_calloc(1, sizeof *op);
  if (!op) return tfc_status_set(ki->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  *state = op;
  const char *t = ki->op_type;
  op->ref_handle = t[strlen(t) - 2] != 'V';
  op->cfg.kind = strcmp(t, "HashTableV2") == 0 || strcmp(t, "HashTable") == 0 ? TFC_LOOKUP_HASH
                 : strcmp(t, "MutableDenseHashTableV2") == 0 ? TFC_LOOKUP_DENSE
                                                             : TFC_LOOKUP_MUTABLE;
  if (!tfc_attrs_get_type(ki->attrs, "key_dtype", &op->cfg.key_dtype, ki->st) ||
      !tfc_attrs_get_type(ki->attrs, "value_dtype", &op->cfg.value_dtype, ki->st))
    return false;
  op->cfg.value_shape = tfc_shape_scalar();
  if (tfc_attrs_find(ki->attrs, "value_shape") &&
      !tfc_attrs_get_shape(ki->attrs, "value_shape", &op->cfg.value_shape, ki->st))
    return false;
  if (strncmp(t, "MutableHashTableOfTensors", 25) == 0 && op->cfg.value_shape.rank != 1) {
    char b[64];
    tfc_shape_debug_string(&op->cfg.value_shape, b, sizeof b);
    return tfc_status_set(ki->st, TFC_CODE_INVALID_ARGUMENT, "Default value must be a vector, got shape %s", b);
  }
  if (op->cfg.kind == TFC_LOOKUP_DENSE) {
    if (!tfc_attrs_get_int(ki->attrs, "initial_num_buckets", &op->cfg.initial_num_buckets, ki->st) ||
        !tfc_attrs_get_float(ki->attrs, "max_load_factor", &op->cfg.max_load_factor, ki->st))
      return false;
  }
  bool share = false;
  if (tfc_attrs_find(ki->attrs, "use_node_name_sharing") &&
      !tfc_attrs_get_bool(ki->attrs, "use_node_name_sharing", &share, ki->st))
    return false;
  op->container = tfc_attrs_dup_string(ki->attrs, "container");
  op->name = tfc_attrs_dup_string(ki->attrs, "shared_name");
  if (!op->container || !op->name) return tfc_status_set(ki->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  if (!op->container[0]) {
    tfc_free(op->container);
    op->container = tfc_strdup(TFC_RESOURCE_DEFAULT_CONTAINER);
  }
  if (!op->name[0]) {
    tfc_free(op->name);
    op->name = share ? tfc_strdup(ki->node_name) : tfc_unique_resource_name(ki->node_name);
  }
  if (!op->container || !op->name) return tfc_status_set(ki->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  op->cfg.name = op->name;
  return true;
}

/* Creates the table for tfc_resource_object (arg: the config). */
static tfc_object *create_table(void *arg, tfc_status *st) {
  tfc_lookup_table *t = tfc_lookup_new(arg, st);
  return t ? (tfc_object *)t : NULL;
}

/* Outputs the handle of this node's table, creating the table on first use. */
static void table_op_compute(tfc_kernel_ctx *ctx) {
  table_op *op = ctx->state;
  tfc_lookup_config cfg = op->cfg;
  if (cfg.kind == TFC_LOOKUP_DENSE) {
    cfg.empty_key = ctx->inputs[0];
    cfg.deleted_key = ctx->inputs[1];
  }
  tfc_object *o = tfc_resource_object(ctx->step->resources, op->container, op->name, tfc_lookup_object_type(),
                                      create_table, &cfg, ctx->st);
  if (!o) return;
  tfc_lookup_table *t = (tfc_lookup_table *)o;
  if (tfc_lookup_key_dtype(t) != cfg.key_dtype || tfc_lookup_value_dtype(t) != cfg.value_dtype ||
      tfc_lookup_kind_of(t) != cfg.kind) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Conflicting key/value dtypes %s->%s with %s-%s for table %s", tfc_op_dtype_string(cfg.key_dtype),
                    tfc_op_dtype_string(cfg.value_dtype), tfc_op_dtype_string(tfc_lookup_key_dtype(t)),
                    tfc_op_dtype_string(tfc_lookup_value_dtype(t)), op->name);
    tfc_object_unref(o);
    return;
  }
  if (op->ref_handle) {
    tfc_object_unref(o);
    int64_t two = 2;
    tfc_tensor *h = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_STRING, 1, &two);
    if (h && tfc_tensor_set_string(h, 0, op->container, strlen(op->container), ctx->st))
      tfc_tensor_set_string(h, 1, op->name, strlen(op->name), ctx->st);
    return;
  }
  tfc_tensor *h = tfc_tensor_object_scalar(TFC_DTYPE_RESOURCE, o, ctx->st);
  tfc_object_unref(o);
  if (h) tfc_kernel_set_output(ctx, 0, h);
}

/* Missing-resource constructor: a table is only made by its own op. */
static tfc_object *no_create(void *arg, tfc_status *st) {
  const char *const *cn = arg;
  tfc_status_set(st, TFC_CODE_NOT_FOUND, "Resource %s/%s does not exist.", cn[0], cn[1]);
  return NULL;
}

/* The table a version-1 handle [container, name] names (a new reference), or NULL with ctx failed. */
static tfc_object *table_from_string_handle(tfc_kernel_ctx *ctx, const tfc_tensor *h) {
  if (h->nelems != 2) {
    tfc_shape s = tfc_tensor_shape(h);
    char b[64];
    tfc_shape_debug_string(&s, b, sizeof b);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Lookup table handle must be scalar, but had shape: %s", b);
    return NULL;
  }
  const tfc_string *s = h->data;
  char *c = tfc_strndup(s[0].data ? s[0].data : "", s[0].len), *n = tfc_strndup(s[1].data ? s[1].data : "", s[1].len);
  tfc_object *o = NULL;
  if (c && n) {
    const char *cn[2] = {c, n};
    o = tfc_resource_object(ctx->step->resources, c, n, tfc_lookup_object_type(), no_create, (void *)cn, ctx->st);
  } else {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  }
  tfc_free(c);
  tfc_free(n);
  return o;
}

tfc_lookup_table *tfc_lookup_from_input(tfc_kernel_ctx *ctx) {
  const tfc_tensor *h = ctx->inputs[0];
  tfc_object *o = NULL;
  if (h && h->dtype == TFC_DTYPE_STRING) {
    o = table_from_string_handle(ctx, h);
    if (!o) return NULL;
    /* the resource manager keeps the table alive for the step: drop the lookup's reference */
    tfc_object_unref(o);
  } else if (h && h->dtype == TFC_DTYPE_RESOURCE && h->nelems == 1) {
    o = tfc_tensor_object_at(h, 0);
  }
  if (!o || o->type != tfc_lookup_object_type()) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Input 0 of %s is not a lookup table handle%s%s", ctx->op_type,
                    o ? " but a " : "", o ? o->type->name : "");
    return NULL;
  }
  return (tfc_lookup_table *)o;
}

/* LookupTableFindV2(table, keys, default_value) -> values. */
static void find_compute(tfc_kernel_ctx *ctx) {
  tfc_lookup_table *t = tfc_lookup_from_input(ctx);
  if (!t) return;
  tfc_tensor *out = tfc_lookup_find(t, ctx->inputs[1], ctx->inputs[2], ctx->st);
  if (out) tfc_kernel_set_output(ctx, 0, out);
}

/* LookupTableInsertV2(table, keys, values). */
static void insert_compute(tfc_kernel_ctx *ctx) {
  tfc_lookup_table *t = tfc_lookup_from_input(ctx);
  if (t) tfc_lookup_insert(t, ctx->inputs[1], ctx->inputs[2], ctx->st);
}

/* LookupTableRemoveV2(table, keys). */
static void remove_compute(tfc_kernel_ctx *ctx) {
  tfc_lookup_table *t = tfc_lookup_from_input(ctx);
  if (t) tfc_lookup_remove(t, ctx->inputs[1], ctx->st);
}

/* LookupTableSizeV2(table) -> int64 scalar. */
static void size_compute(tfc_kernel_ctx *ctx) {
  tfc_lookup_table *t = tfc_lookup_from_input(ctx);
  if (!t) return;
  int64_t n = tfc_lookup_size(t);
  tfc_tensor *out = tfc_tensor_scalar(TFC_DTYPE_INT64, &n, ctx->st);
  if (out) tfc_kernel_set_output(ctx, 0, out);
}

/* LookupTableExportV2(table) -> keys, values. */
static void export_compute(tfc_kernel_ctx *ctx) {
  tfc_lookup_table *t = tfc_lookup_from_input(ctx);
  if (!t) return;
  if (tfc_dtype_base(ctx->out_types[0]) != tfc_lookup_key_dtype(t) ||
      tfc_dtype_base(ctx->out_types[1]) != tfc_lookup_value_dtype(t)) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Table holds %s -> %s, the op exports %s -> %s",
                    tfc_op_dtype_string(tfc_lookup_key_dtype(t)), tfc_op_dtype_string(tfc_lookup_value_dtype(t)),
                    tfc_op_dtype_string(ctx->out_types[0]), tfc_op_dtype_string(ctx->out_types[1]));
    return;
  }
  tfc_tensor *k, *v;
  if (!tfc_lookup_export(t, &k, &v, ctx->st)) return;
  tfc_kernel_set_output(ctx, 0, k);
  tfc_kernel_set_output(ctx, 1, v);
}

/* LookupTableImportV2(table, keys, values): replaces the contents. */
static void import_compute(tfc_kernel_ctx *ctx) {
  tfc_lookup_table *t = tfc_lookup_from_input(ctx);
  if (t) tfc_lookup_import(t, ctx->inputs[1], ctx->inputs[2], ctx->st);
}

/* InitializeTableV2(table, keys, values). */
static void initialize_compute(tfc_kernel_ctx *ctx) {
  tfc_lookup_table *t = tfc_lookup_from_input(ctx);
  if (t) tfc_lookup_initialize(t, ctx->inputs[1], ctx->inputs[2], ctx->st);
}

static const tfc_kernel_def defs[] = {
    {"HashTableV2", "CPU", NULL, NULL, table_op_init, table_op_compute, table_op_free, 0},
    {"MutableHashTableV2", "CPU", NULL, NULL, table_op_init, table_op_compute, table_op_free, 0},
    {"MutableHashTableOfTensorsV2", "CPU", NULL, NULL, table_op_init, table_op_compute, table_op_free, 0},
    {"MutableDenseHashTableV2", "CPU", NULL, NULL, table_op_init, table_op_compute, table_op_free, 0},
    {"InitializeTableV2", "CPU", NULL, NULL, NULL, initialize_compute, NULL, 0},
    {"InitializeTableFromTextFileV2", "CPU", NULL, NULL, NULL, tfc_lookup_init_from_text_compute, NULL, 0},
    {"LookupTableFindV2", "CPU", NULL, NULL, NULL, find_compute, NULL, 0},
    {"LookupTableInsertV2", "CPU", NULL, NULL, NULL, insert_compute, NULL, 0},
    {"LookupTableRemoveV2", "CPU", NULL, NULL, NULL, remove_compute, NULL, 0},
    {"LookupTableSizeV2", "CPU", NULL, NULL, NULL, size_compute, NULL, 0},
    {"LookupTableExportV2", "CPU", NULL, NULL, NULL, export_compute, NULL, 0},
    {"LookupTableImportV2", "CPU", NULL, NULL, NULL, import_compute, NULL, 0},
    {"HashTable", "CPU", NULL, NULL, table_op_init, table_op_compute, table_op_free, 0},
    {"MutableHashTable", "CPU", NULL, NULL, table_op_init, table_op_compute, table_op_free, 0},
    {"MutableHashTableOfTensors", "CPU", NULL, NULL, table_op_init, table_op_compute, table_op_free, 0},
    {"InitializeTable", "CPU", NULL, NULL, NULL, initialize_compute, NULL, 0},
    {"InitializeTableFromTextFile", "CPU", NULL, NULL, NULL, tfc_lookup_init_from_text_compute, NULL, 0},
    {"LookupTableFind", "CPU", NULL, NULL, NULL, find_compute, NULL, 0},
    {"LookupTableInsert", "CPU", NULL, NULL, NULL, insert_compute, NULL, 0},
    {"LookupTableSize", "CPU", NULL, NULL, NULL, size_compute, NULL, 0},
    {"LookupTableExport", "CPU", NULL, NULL, NULL, export_compute, NULL, 0},
    {"LookupTableImport", "CPU", NULL, NULL, NULL, import_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_lookup = {defs, (int)(sizeof defs / sizeof defs[0])};
