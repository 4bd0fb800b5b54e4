/*
 * checkpoint.c — CPU kernels of the V2 checkpoint ops: SaveV2, RestoreV2,
 * MergeV2Checkpoints, ShardedFilename, ShardedFilespec. The file formats
 * live in io/bundle.h; these kernels check their inputs as TF's do and hand
 * the intra-op pool to the bundle code for large tensors.
 */
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "io/bundle.h"
#include "io/bundle_slice.h"
#include "kernels/kernel.h"

/* A NUL-terminated copy of a string element (NULL + ctx failed on OOM). */
static char *cstr(tfc_kernel_ctx *ctx, const tfc_string *s) {
  char *p = tfc_malloc(s->len + 1);
  if (!p) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM copying a file name");
    return NULL;
  }
  if (s->len) memcpy(p, s->data, s->len);
  p[s->len] = 0;
  return p;
}

/* Copies a status from the io layer into the kernel's. */
static void fail_from(tfc_kernel_ctx *ctx, const tfc_status *st) {
  tfc_kernel_fail(ctx, st->code, "%s", st->msg);
}

/* Checks prefix (one element) and the names/slices vectors (n elements). */
static bool check_save_restore_inputs(tfc_kernel_ctx *ctx, int n) {
  const tfc_tensor *prefix = ctx->inputs[0], *names = ctx->inputs[1], *slices = ctx->inputs[2];
  if (prefix->nelems != 1)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "Input prefix should have a single element, got %lld instead.",
                           (long long)prefix->nelems);
  if (names->rank != 1 || names->nelems != n)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "Input tensor_names should be a vector of %d names, got %lld", n,
                           (long long)names->nelems);
  if (slices->rank != 1 || slices->nelems != n)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "Input shape_and_slices should be a vector of %d entries, got %lld", n,
                           (long long)slices->nelems);
  return true;
}

static void save_v2_compute(tfc_kernel_ctx *ctx) {
  int n = ctx->n_inputs - 3;
  if (!check_save_restore_inputs(ctx, n)) return;
  const tfc_string *names = ctx->inputs[1]->data, *slices = ctx->inputs[2]->data;
  char *prefix = cstr(ctx, (const tfc_string *)ctx->inputs[0]->data);
  if (!prefix) return;
  tfc_status st;
  tfc_status_clear(&st);
  tfc_bundle_writer *w = tfc_bundle_writer_new(prefix, &st);
  bool ok = w != NULL;
  for (int i = 0; ok && i < n; i++) {
    const char *key = names[i].data ? names[i].data : "";
    if (!slices[i].len) {
      ok = tfc_bundle_writer_add(w, key, names[i].len, ctx->inputs[3 + i], ctx->intra_pool, &st);
      continue;
    }
    /* a partitioned variable's piece: "<full dims> <extents>" */
    int rank = 0;
    int64_t full[TFC_MAX_RANK];
    tfc_bundle_slice slice;
    ok = tfc_bundle_parse_slice_spec(slices[i].data, slices[i].len, &rank, full, &slice, &st) &&
         tfc_bundle_writer_add_slice(w, key, names[i].len, rank, full, &slice, ctx->inputs[3 + i],
                                     ctx->intra_pool, &st);
  }
  ok = ok && tfc_bundle_writer_finish(w, &st);
  tfc_bundle_writer_free(w);
  if (!ok) fail_from(ctx, &st);
  tfc_free(prefix);
}

static void restore_v2_compute(tfc_kernel_ctx *ctx) {
  int n = ctx->n_outputs;
  if (!check_save_restore_inputs(ctx, n)) return;
  const tfc_attr_list *dtypes;
  if (!tfc_attrs_get_list(ctx->attrs, "dtypes", &dtypes, ctx->st)) return;
  const tfc_string *names = ctx->inputs[1]->data, *slices = ctx->inputs[2]->data;
  char *prefix = cstr(ctx, (const tfc_string *)ctx->inputs[0]->data);
  if (!prefix) return;
  tfc_status st;
  tfc_status_clear(&st);
  tfc_bundle_reader *r = tfc_bundle_reader_open(prefix, &st);
  bool ok = r != NULL;
  for (int i = 0; ok && i < n; i++) {
    const char *key = names[i].data ? names[i].data : "";
    size_t klen = names[i].len;
    tfc_bundle_entry e;
    if (!tfc_bundle_reader_lookup(r, key, klen, &e, &st)) {
      ok = false;
      break;
    }
    tfc_dtype want = dtypes->v.type[i];
    if (e.dtype != want) {
      ok = tfc_status_set(&st, TFC_CODE_INVALID_ARGUMENT,
                          "tensor_name = %.*s; expected dtype %s does not equal restored dtype %s",
                          (int)klen, key, tfc_op_dtype_string(want), tfc_op_dtype_string(e.dtype));
      tfc_bundle_entry_clear(&e);
      break;
    }
    tfc_bundle_slice slice;
    int rank = 0;
    int64_t full[TFC_MAX_RANK];
    if (slices[i].len) {
      ok = tfc_bundle_parse_slice_spec(slices[i].data, slices[i].len, &rank, full, &slice, &st);
      bool same = ok && rank == e.rank;
      for (int d = 0; same && d < rank; d++) same = full[d] == e.dims[d];
      if (ok && !same)
        ok = tfc_status_set(&st, TFC_CODE_INVALID_ARGUMENT,
                            "tensor_name = %.*s; shape in shape_and_slice spec %.*s does not "
                            "match the shape stored in checkpoint",
                            (int)klen, key, (int)slices[i].len, slices[i].data);
    }
    tfc_bundle_entry_clear(&e);
    if (!ok) break;
    tfc_tensor *t = tfc_bundle_reader_read(r, key, klen, ctx->intra_pool, &st);
    if (t && slices[i].len) {
      tfc_tensor *part = tfc_bundle_extract_slice(t, &slice, &st);
      tfc_tensor_unref(t);
      t = part;
    }
    if (!t) {
      ok = false;
      break;
    }
    tfc_kernel_set_output(ctx, i, t);
  }
  tfc_bundle_reader_free(r);
  if (!ok) fail_from(ctx, &st);
  tfc_free(prefix);
}

static void merge_v2_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *srcs = ctx->inputs[0], *dest = ctx->inputs[1];
  if (srcs->rank != 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Input checkpoint_prefixes should be a vector");
    return;
  }
  if (dest->nelems != 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Input destination_prefix should be a scalar tensor, got %lld elements",
                    (long long)dest->nelems);
    return;
  }
  bool delete_old = true, allow_missing = false;
  tfc_attrs_get_bool(ctx->attrs, "delete_old_dirs", &delete_old, ctx->st);
  if (tfc_attrs_find(ctx->attrs, "allow_missing_files"))
    tfc_attrs_get_bool(ctx->attrs, "allow_missing_files", &allow_missing, ctx->st);
  if (!tfc_kernel_ok(ctx)) return;
  int n = (int)srcs->nelems;
  char **names = tfc_calloc((size_t)(n ? n : 1), sizeof *names);
  char *d = cstr(ctx, (const tfc_string *)dest->data);
  bool ok = names && d;
  for (int i = 0; ok && i < n; i++) ok = (names[i] = cstr(ctx, (const tfc_string *)srcs->data + i)) != NULL;
  if (ok) {
    tfc_status st;
    tfc_status_clear(&st);
    if (!tfc_bundle_merge((const char *const *)names, n, d, delete_old, allow_missing, &st))
      fail_from(ctx, &st);
  } else if (tfc_kernel_ok(ctx)) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM");
  }
  for (int i = 0; names && i < n; i++) tfc_free(names[i]);
  tfc_free(names);
  tfc_free(d);
}

/* Builds "<basename><suffix>" as the scalar string output. */
static void emit_name(tfc_kernel_ctx *ctx, const char *suffix) {
  const tfc_string *base = ctx->inputs[0]->data;
  size_t n = base->len + strlen(suffix);
  char *s = tfc_malloc(n + 1);
  if (!s) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM");
    return;
  }
  if (base->len) memcpy(s, base->data, base->len);
  memcpy(s + base->len, suffix, strlen(suffix) + 1);
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_STRING, 0, NULL);
  if (out) tfc_tensor_set_string(out, 0, s, n, ctx->st);
  tfc_free(s);
}

/* Fails unless every input is a scalar. */
static bool scalars(tfc_kernel_ctx *ctx) {
  static const char *const what[] = {"basename", "shard", "num_shards"};
  for (int i = 0; i < ctx->n_inputs; i++)
    if (ctx->inputs[i]->rank != 0) {
      const char *w = ctx->n_inputs == 2 && i == 1 ? "num_shards" : what[i < 3 ? i : 2];
      return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s must be a scalar", w);
    }
  return true;
}

static void sharded_filename_compute(tfc_kernel_ctx *ctx) {
  if (!scalars(ctx)) return;
  char suffix[64];
  snprintf(suffix, sizeof suffix, "-%05d-of-%05d", ((const int32_t *)ctx->inputs[1]->data)[0],
           ((const int32_t *)ctx->inputs[2]->data)[0]);
  emit_name(ctx, suffix);
}

static void sharded_filespec_compute(tfc_kernel_ctx *ctx) {
  if (!scalars(ctx)) return;
  char suffix[64];
  snprintf(suffix, sizeof suffix, "-?\?\?\?\?-of-%05d", ((const int32_t *)ctx->inputs[1]->data)[0]);
  emit_name(ctx, suffix);
}

static const tfc_kernel_def defs[] = {
    {"SaveV2", "CPU", NULL, NULL, NULL, save_v2_compute, NULL, 0},
    {"RestoreV2", "CPU", NULL, NULL, NULL, restore_v2_compute, NULL, 0},
    {"MergeV2Checkpoints", "CPU", NULL, NULL, NULL, merge_v2_compute, NULL, 0},
    {"ShardedFilename", "CPU", NULL, NULL, NULL, sharded_filename_compute, NULL, 0},
    {"ShardedFilespec", "CPU", NULL, NULL, NULL, sharded_filespec_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_checkpoint = {defs, (int)(sizeof defs / sizeof defs[0])};
