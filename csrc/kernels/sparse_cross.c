/*
 * sparse_cross.c — CPU kernel of SparseCross (what crossed feature columns
 * build): per batch row, the cartesian product of the row's features of
 * every input (sparse inputs first, then dense ones; the last input varies
 * fastest), as TF's kernel orders it. hashed_output: each feature is hashed
 * (strings by Fingerprint64, int64 as their value) and the hashes chained
 * from hash_key with FingerprintCat64, then taken mod num_buckets (mod
 * INT64_MAX when 0); otherwise the features are joined as strings with "_X_"
 * (int64 as decimal). Sparse inputs are 2-D with row-sorted indices.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "base/fingerprint.h"
#include "base/strbuf.h"
#include "core/op_registry.h"
#include "kernels/kernel.h"
#include "kernels/kernel_tables.h"

/* One input column: where each batch row's features start and how many. */
typedef struct column {
  const tfc_tensor *values;  /* sparse values (vector) or dense matrix */
  bool dense;
  int64_t *start, *count;    /* per batch row (sparse only) */
} column;

/* Feature n of row b of column c: its value pointer index in c->values. */
static int64_t feature_index(const column *c, int64_t b, int64_t n) {
  return c->dense ? b * c->values->dims[1] + n : c->start[b] + n;
}

/* Features of row b of column c. */
static int64_t feature_count(const column *c, int64_t b) { return c->dense ? c->values->dims[1] : c->count[b]; }

/* The hash of feature n of row b (Fingerprint64 for strings, the value for int64). */
static uint64_t feature_hash(const column *c, int64_t b, int64_t n) {
  int64_t i = feature_index(c, b, n);
  if (c->values->dtype == TFC_DTYPE_STRING) {
    const tfc_string *s = (const tfc_string *)c->values->data + i;
    return tfc_fingerprint64(s->data, s->len);
  }
  return (uint64_t)((const int64_t *)c->values->data)[i];
}

/* Appends feature n of row b as text to sb. */
static bool feature_text(const column *c, int64_t b, int64_t n, tfc_strbuf *sb) {
  int64_t i = feature_index(c, b, n);
  if (c->values->dtype == TFC_DTYPE_STRING) {
    const tfc_string *s = (const tfc_string *)c->values->data + i;
    return tfc_strbuf_append(sb, s->data ? s->data : "", s->len);
  }
  char num[32];
  int k = snprintf(num, sizeof num, "%" PRId64, ((const int64_t *)c->values->data)[i]);
  return tfc_strbuf_append(sb, num, (size_t)k);
}

/* Fails with TF's message: msg, t's shape, " at position i". */
static void fail_at(tfc_kernel_ctx *ctx, const char *msg, const tfc_tensor *t, int i) {
  tfc_shape s = tfc_tensor_shape(t);
  char b[64];
  tfc_shape_debug_string(&s, b, sizeof b);
  tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s%s at position %d", msg, b, i);
}

/* Checks the inputs and fills the columns; false with ctx failed. */
static bool build_columns(tfc_kernel_ctx *ctx, int n_sparse, int n_dense, column *cols, int64_t *batch) {
  tfc_tensor **in = ctx->inputs;
  *batch = 0;
  if (n_sparse > 0) {
    const tfc_tensor *sh = in[2 * n_sparse];
    if (sh->rank != 1 || sh->nelems != 2) {
      fail_at(ctx, "shape should imply a 2D tensor, but got ", sh, 0);
      return false;
    }
    *batch = ((const int64_t *)sh->data)[0];
  } else if (n_dense > 0) {
    if (in[0]->rank != 2) {
      fail_at(ctx, "Dense inputs should be a matrix but received shape ", in[0], 0);
      return false;
    }
    *batch = in[0]->dims[0];
  }
  for (int i = 0; i < n_sparse; i++) {
    const tfc_tensor *ind = in[i], *val = in[n_sparse + i], *sh = in[2 * n_sparse + i];
    if (ind->rank != 2) return fail_at(ctx, "Input indices should be a matrix but received shape ", ind, i), false;
    if (ind->dims[1] != 2)
      return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Expected D2 of index to be 2 got %lld at position %d",
                             (long long)ind->dims[1], i);
    if (val->rank != 1) return fail_at(ctx, "Input values should be a vector but received shape ", val, i), false;
    if (val->dims[0] != ind->dims[0])
      return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                             "Expected size of values to be %lld got %lld at position %d", (long long)ind->dims[0],
                             (long long)val->dims[0], i);
    if (sh->rank != 1 || sh->nelems != 2)
      return fail_at(ctx, "shape should imply a 2D tensor, but got ", sh, i), false;
    if (((const int64_t *)sh->data)[0] != *batch)
      return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Expected batch size %lld got %lld at position %d",
                             (long long)*batch, (long long)((const int64_t *)sh->data)[0], i);
    column *c = &cols[i];
    c->values = val;
    c->start = tfc_calloc((size_t)(*batch > 0 ? *batch : 1), sizeof(int64_t));
    c->count = tfc_calloc((size_t)(*batch > 0 ? *batch : 1), sizeof(int64_t));
    if (!c->start || !c->count) return tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in SparseCross");
    const int64_t *ix = ind->data;
    int64_t row = 0, nnz = ind->dims[0];
    for (int64_t b = 0; b < *batch; b++) {
      c->start[b] = row;
      while (row < nnz && ix[2 * row] == b) row++;
      c->count[b] = row - c->start[b];
    }
  }
  for (int j = 0; j < n_dense; j++) {
    const tfc_tensor *d = in[3 * n_sparse + j];
    if (d->rank != 2) return fail_at(ctx, "Dense inputs should be a matrix but received shape ", d, j), false;
    if (d->dims[0] != *batch)
      return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Expected batch size %lld got %lld at dense tensor %d",
                             (long long)*batch, (long long)d->dims[0], j);
    cols[n_sparse + j].values = d;
    cols[n_sparse + j].dense = true;
  }
  return true;
}

/* Writes the crosses of every row into the outputs (sizes counted first). */
static void emit(tfc_kernel_ctx *ctx, column *cols, int nc, int64_t batch, bool hashed, int64_t buckets,
                 uint64_t key) {
  int64_t total = 0, widest = 0;
  for (int64_t b = 0; b < batch; b++) {
    int64_t n = nc ? 1 : 0;
    for (int i = 0; i < nc; i++) n *= feature_count(&cols[i], b);
    total += n;
    if (n > widest) widest = n;
  }
  int64_t idims[2] = {total, 2}, vdims[1] = {total}, sdims[1] = {2};
  tfc_tensor *oi = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_INT64, 2, idims);
  tfc_tensor *ov = oi ? tfc_kernel_alloc_output(ctx, 1, hashed ? TFC_DTYPE_INT64 : TFC_DTYPE_STRING, 1, vdims) : NULL;
  tfc_tensor *os = ov ? tfc_kernel_alloc_output(ctx, 2, TFC_DTYPE_INT64, 1, sdims) : NULL;
  if (!os) return;
  ((int64_t *)os->data)[0] = batch;
  ((int64_t *)os->data)[1] = widest;
  int64_t *perm = tfc_calloc((size_t)(nc ? nc : 1), sizeof *perm);
  tfc_strbuf sb;
  tfc_strbuf_init(&sb);
  if (!perm) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in SparseCross");
    return;
  }
  int64_t *ix = oi->data, out = 0;
  for (int64_t b = 0; b < batch && tfc_kernel_ok(ctx); b++) {
    bool any = nc > 0;
    for (int i = 0; i < nc; i++) {
      perm[i] = 0;
      if (feature_count(&cols[i], b) == 0) any = false;
    }
    for (int64_t k = 0; any; k++, out++) {
      ix[2 * out] = b;
      ix[2 * out + 1] = k;
      if (hashed) {
        uint64_t h = key;
        for (int i = 0; i < nc; i++) h = tfc_fingerprint_cat64(h, feature_hash(&cols[i], b, perm[i]));
        ((int64_t *)ov->data)[out] = (int64_t)(buckets > 0 ? h % (uint64_t)buckets : h % (uint64_t)INT64_MAX);
      } else {
        sb.len = 0;
        bool ok = true;
        for (int i = 0; ok && i < nc; i++)
          ok = (i == 0 || tfc_strbuf_append(&sb, "_X_", 3)) && feature_text(&cols[i], b, perm[i], &sb);
        if (!ok) {
          tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in SparseCross");
          break;
        }
        if (!tfc_tensor_set_string(ov, out, sb.data, sb.len, ctx->st)) break;
      }
      /* next permutation: the last column varies fastest */
      int i = nc - 1;
      for (; i >= 0; i--) {
        if (++perm[i] < feature_count(&cols[i], b)) break;
        perm[i] = 0;
      }
      if (i < 0) any = false;
    }
  }
  tfc_strbuf_free(&sb);
  tfc_free(perm);
}

/* SparseCross(indices, values, shapes, dense_inputs) -> (indices, values, shape). */
static void sparse_cross_compute(tfc_kernel_ctx *ctx) {
  int64_t n = 0, buckets = 0, key = 0;
  bool hashed = false;
  const tfc_attr_list *st = NULL, *dt = NULL;
  if (!tfc_attrs_get_int(ctx->attrs, "N", &n, ctx->st) ||
      !tfc_attrs_get_bool(ctx->attrs, "hashed_output", &hashed, ctx->st) ||
      !tfc_attrs_get_int(ctx->attrs, "num_buckets", &buckets, ctx->st) ||
      !tfc_attrs_get_int(ctx->attrs, "hash_key", &key, ctx->st) ||
      !tfc_attrs_get_list(ctx->attrs, "sparse_types", &st, ctx->st) ||
      !tfc_attrs_get_list(ctx->attrs, "dense_types", &dt, ctx->st))
    return;
  int n_sparse = (int)n, n_dense = dt->n;
  if (st->n != n_sparse) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Expected %d input values, got %d", n_sparse, st->n);
    return;
  }
  int nc = n_sparse + n_dense;
  column *cols = tfc_calloc((size_t)(nc ? nc : 1), sizeof *cols);
  if (!cols) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in SparseCross");
    return;
  }
  int64_t batch = 0;
  if (build_columns(ctx, n_sparse, n_dense, cols, &batch)) emit(ctx, cols, nc, batch, hashed, buckets, (uint64_t)key);
  for (int i = 0; i < nc; i++) {
    tfc_free(cols[i].start);
    tfc_free(cols[i].count);
  }
  tfc_free(cols);
}

static const tfc_kernel_def defs[] = {
    {"SparseCross", "CPU", NULL, NULL, NULL, sparse_cross_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_sparse_cross = {defs, (int)(sizeof defs / sizeof defs[0])};
