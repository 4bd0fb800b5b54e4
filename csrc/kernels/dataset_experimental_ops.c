/*
 * dataset_experimental_ops.c — kernels of tf.data.experimental's dataset
 * ops (IgnoreErrors, AssertCardinality, Unique, DirectedInterleave, Random,
 * Scan, TakeWhile, GroupByWindow, GroupByReducer, List, Rewrite and their "Experimental" spellings): each reads its
 * inputs and attrs and outputs the dataset as a scalar variant.
 */
#include <string.h>

#include "core/function.h"
#include "kernels/dataset_internal.h"
#include "kernels/kernel_tables.h"

#define MAXC 64

/* The dataset of input i (NULL + ctx->st). */
static tfc_dataset *in_ds(tfc_kernel_ctx *ctx, int i) { return tfc_dataset_from_tensor(ctx->inputs[i], ctx->st); }

/* Scalar int64 input i. */
static int64_t in_i64(tfc_kernel_ctx *ctx, int i) { return tfc_tensor_get_int64(ctx->inputs[i], 0); }

/* Bool attr `name`, or dflt when absent. */
static bool attr_bool(tfc_kernel_ctx *ctx, const char *name, bool dflt) {
  const tfc_attr_value *v = tfc_attrs_find(ctx->attrs, name);
  return v && v->kind == TFC_ATTR_B ? v->v.b : dflt;
}

/* Length of list attr `name` (0 when absent). */
static int attr_list_len(tfc_kernel_ctx *ctx, const char *name) {
  const tfc_attr_value *v = tfc_attrs_find(ctx->attrs, name);
  return v && v->kind == TFC_ATTR_LIST ? v->v.list.n : 0;
}

static void ignore_errors_compute(tfc_kernel_ctx *ctx) {
  tfc_dataset *in = in_ds(ctx, 0);
  if (in) tfc_ds_output(ctx, tfc_ds_ignore_errors(in, ctx->st));
}

static void assert_cardinality_compute(tfc_kernel_ctx *ctx) {
  tfc_dataset *in = in_ds(ctx, 0);
  if (in) tfc_ds_output(ctx, tfc_ds_assert_cardinality(in, in_i64(ctx, 1), ctx->st));
}

static void unique_compute(tfc_kernel_ctx *ctx) {
  tfc_dataset *in = in_ds(ctx, 0);
  if (in) tfc_ds_output(ctx, tfc_ds_unique(in, ctx->st));
}

static void directed_interleave_compute(tfc_kernel_ctx *ctx) {
  tfc_dataset *sel = in_ds(ctx, 0);
  if (!sel) return;
  int k = ctx->n_inputs - 1;
  if (k < 1 || k >= MAXC) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "DirectedInterleave needs 1 to %d data inputs", MAXC - 1);
    return;
  }
  tfc_dataset *ins[MAXC];
  for (int i = 0; i < k; i++)
    if (!(ins[i] = in_ds(ctx, 1 + i))) return;
  tfc_shape shapes[MAXC];
  int ns = tfc_ds_attr_shapes(ctx, "output_shapes", shapes);
  tfc_ds_output(ctx, tfc_ds_directed_interleave(sel, ins, k, attr_bool(ctx, "stop_on_empty_dataset", false),
                                                ns == ins[0]->n ? shapes : NULL, ctx->st));
}

static void random_compute(tfc_kernel_ctx *ctx) {
  tfc_ds_output(ctx, tfc_ds_random(in_i64(ctx, 0), in_i64(ctx, 1), ctx->st));
}

/* Instantiates function attr `name` (NULL + ctx->st). */
static const tfc_fhandle *func_attr(tfc_kernel_ctx *ctx, const char *name) {
  const tfc_attr_value *fv = tfc_attrs_find(ctx->attrs, name);
  if (!fv || fv->kind != TFC_ATTR_FUNC || fv->v.s.len >= 512) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s needs a function attr %s", ctx->op_type, name);
    return NULL;
  }
  char fname[512];
  memcpy(fname, fv->v.s.data, fv->v.s.len);
  fname[fv->v.s.len] = '\0';
  return tfc_func_instantiate(ctx->step->flib, fname, NULL, ctx->st);
}

static void scan_compute(tfc_kernel_ctx *ctx) {
  tfc_dataset *in = in_ds(ctx, 0);
  if (!in) return;
  const tfc_fhandle *f = func_attr(ctx, "f");
  if (!f) return;
  int n_state = attr_list_len(ctx, "Tstate");
  int n_captured = ctx->n_inputs - 1 - n_state;
  tfc_dtype t[MAXC];
  tfc_shape sh[MAXC];
  int nt = tfc_ds_attr_types(ctx, "output_types", t);
  int ns = tfc_ds_attr_shapes(ctx, "output_shapes", sh);
  if (nt <= 0 || ns != nt || n_captured < 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s needs output_types, output_shapes and Tstate", ctx->op_type);
    return;
  }
  tfc_dataset *ds = tfc_ds_scan(in, ctx->step->flib, f, ctx->inputs + 1, n_state, ctx->inputs + 1 + n_state,
                                n_captured, nt, t, sh, ctx->st);
  if (ds && !attr_bool(ctx, "preserve_cardinality", false)) ds->cardinality = TFC_DS_UNKNOWN;
  tfc_ds_output(ctx, ds);
}

static void take_while_compute(tfc_kernel_ctx *ctx) {
  tfc_dataset *in = in_ds(ctx, 0);
  if (!in) return;
  const tfc_fhandle *f = func_attr(ctx, "predicate");
  if (f) tfc_ds_output(ctx, tfc_ds_take_while(in, ctx->step->flib, f, ctx->inputs + 1, ctx->n_inputs - 1, ctx->st));
}

/* GroupByWindowDataset / GroupByReducerDataset: the functions and their
 * captured inputs, in the order of the op's function attrs. */
static void group_compute(tfc_kernel_ctx *ctx) {
  bool reducer = strstr(ctx->op_type, "Reducer") != NULL;
  static const char *const fattrs[2][4] = {{"key_func", "reduce_func", "window_size_func", NULL},
                                           {"key_func", "init_func", "reduce_func", "finalize_func"}};
  static const char *const targs[2][4] = {
      {"Tkey_func_other_arguments", "Treduce_func_other_arguments", "Twindow_size_func_other_arguments", NULL},
      {"Tkey_func_other_arguments", "Tinit_func_other_arguments", "Treduce_func_other_arguments",
       "Tfinalize_func_other_arguments"}};
  int nf = reducer ? 4 : 3;
  tfc_dataset *in = in_ds(ctx, 0);
  if (!in) return;
  const tfc_fhandle *fns[4];
  tfc_tensor *const *captured[4];
  int n_captured[4], next = 1;
  for (int i = 0; i < nf; i++) {
    if (!(fns[i] = func_attr(ctx, fattrs[reducer][i]))) return;
    n_captured[i] = attr_list_len(ctx, targs[reducer][i]);
    captured[i] = ctx->inputs + next;
    next += n_captured[i];
  }
  if (next != ctx->n_inputs) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s: the captured inputs do not match the T*_other_arguments attrs",
                    ctx->op_type);
    return;
  }
  tfc_dtype t[MAXC];
  tfc_shape sh[MAXC];
  int nt = tfc_ds_attr_types(ctx, "output_types", t);
  int ns = tfc_ds_attr_shapes(ctx, "output_shapes", sh);
  if (nt <= 0 || ns != nt) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s needs output_types and output_shapes", ctx->op_type);
    return;
  }
  tfc_ds_output(ctx, tfc_ds_group(reducer, in, ctx->step->flib, fns, captured, n_captured, nt, t, sh, ctx->st));
}

/* ListDataset: the input tensors, output_types' count per element. */
static void list_compute(tfc_kernel_ctx *ctx) {
  tfc_dtype t[MAXC];
  tfc_shape sh[MAXC];
  int nt = tfc_ds_attr_types(ctx, "output_types", t);
  int ns = tfc_ds_attr_shapes(ctx, "output_shapes", sh);
  if (nt <= 0 || ns != nt || ctx->n_inputs % nt != 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "ListDataset needs a whole number of elements of output_types");
    return;
  }
  tfc_ds_output(ctx, tfc_ds_list(ctx->inputs, ctx->n_inputs / nt, nt, t, sh, ctx->st));
}

/* CSVDataset / CSVDatasetV2 / ExperimentalCSVDataset: inputs filenames,
 * compression_type, buffer_size, header, field_delim, use_quote_delim,
 * na_value, select_cols, record_defaults... (V2: then exclude_cols). */
static void csv_compute(tfc_kernel_ctx *ctx) {
  bool v2 = strcmp(ctx->op_type, "CSVDatasetV2") == 0;
  int nd = ctx->n_inputs - 8 - (v2 ? 1 : 0);
  const tfc_tensor *files = ctx->inputs[0], *comp = ctx->inputs[1], *delim = ctx->inputs[4], *na = ctx->inputs[6];
  const tfc_tensor *sel = ctx->inputs[7], *exc = v2 ? ctx->inputs[ctx->n_inputs - 1] : NULL;
  if (files->dtype != TFC_DTYPE_STRING || files->rank > 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "`filenames` must be a scalar or a vector.");
    return;
  }
  const tfc_string *cs = comp->data, *ds = delim->data, *ns = na->data;
  int kind = 0;
  if (cs->len == 4 && memcmp(cs->data, "ZLIB", 4) == 0) kind = 1;
  else if (cs->len == 4 && memcmp(cs->data, "GZIP", 4) == 0) kind = 2;
  else if (cs->len != 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Unsupported compression_type: %.*s.", (int)cs->len, cs->data);
    return;
  }
  if (ds->len != 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "field_delim should be only 1 char");
    return;
  }
  if (in_i64(ctx, 2) <= 0 && in_i64(ctx, 2) != -1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "buffer_size should be positive");
    return;
  }
  if (sel->nelems > 0 && exc && exc->nelems > 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Either select_cols or exclude_cols should be empty");
    return;
  }
  tfc_shape sh[MAXC];
  int ns_ = tfc_ds_attr_shapes(ctx, "output_shapes", sh);
  bool header = *(const bool *)ctx->inputs[3]->data, quote = *(const bool *)ctx->inputs[5]->data;
  tfc_ds_output(ctx, tfc_ds_csv(files, kind, header, ds->data[0], quote, ns->data, ns->len,
                                sel->nelems ? (const int64_t *)sel->data : NULL, (int)sel->nelems,
                                exc && exc->nelems ? (const int64_t *)exc->data : NULL, exc ? (int)exc->nelems : 0,
                                ctx->inputs + 8, nd, ns_ == nd ? sh : NULL, ctx->st));
}

/* RewriteDataset: the input dataset itself (TF's rewrites, optimizations
 * and split-replication, keep its elements and their order). */
static void rewrite_compute(tfc_kernel_ctx *ctx) {
  tfc_dataset *in = in_ds(ctx, 0);
  if (in) tfc_ds_output(ctx, (tfc_dataset *)tfc_object_ref(&in->base));
}

static const tfc_kernel_def defs[] = {
    {"IgnoreErrorsDataset", "CPU", NULL, NULL, NULL, ignore_errors_compute, NULL, 0},
    {"ExperimentalIgnoreErrorsDataset", "CPU", NULL, NULL, NULL, ignore_errors_compute, NULL, 0},
    {"AssertCardinalityDataset", "CPU", NULL, NULL, NULL, assert_cardinality_compute, NULL, 0},
    {"UniqueDataset", "CPU", NULL, NULL, NULL, unique_compute, NULL, 0},
    {"ExperimentalUniqueDataset", "CPU", NULL, NULL, NULL, unique_compute, NULL, 0},
    {"DirectedInterleaveDataset", "CPU", NULL, NULL, NULL, directed_interleave_compute, NULL, 0},
    {"ExperimentalDirectedInterleaveDataset", "CPU", NULL, NULL, NULL, directed_interleave_compute, NULL, 0},
    {"RandomDataset", "CPU", NULL, NULL, NULL, random_compute, NULL, 0},
    {"ExperimentalRandomDataset", "CPU", NULL, NULL, NULL, random_compute, NULL, 0},
    {"ScanDataset", "CPU", NULL, NULL, NULL, scan_compute, NULL, 0},
    {"ExperimentalScanDataset", "CPU", NULL, NULL, NULL, scan_compute, NULL, 0},
    {"TakeWhileDataset", "CPU", NULL, NULL, NULL, take_while_compute, NULL, 0},
    {"ExperimentalTakeWhileDataset", "CPU", NULL, NULL, NULL, take_while_compute, NULL, 0},
    {"RewriteDataset", "CPU", NULL, NULL, NULL, rewrite_compute, NULL, 0},
    {"GroupByWindowDataset", "CPU", NULL, NULL, NULL, group_compute, NULL, 0},
    {"ExperimentalGroupByWindowDataset", "CPU", NULL, NULL, NULL, group_compute, NULL, 0},
    {"GroupByReducerDataset", "CPU", NULL, NULL, NULL, group_compute, NULL, 0},
    {"ExperimentalGroupByReducerDataset", "CPU", NULL, NULL, NULL, group_compute, NULL, 0},
    {"ListDataset", "CPU", NULL, NULL, NULL, list_compute, NULL, 0},
    {"CSVDataset", "CPU", NULL, NULL, NULL, csv_compute, NULL, 0},
    {"CSVDatasetV2", "CPU", NULL, NULL, NULL, csv_compute, NULL, 0},
    {"ExperimentalCSVDataset", "CPU", NULL, NULL, NULL, csv_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_dataset_experimental = {defs, (int)(sizeof defs / sizeof defs[0])};
