/*
 * sort.c — the ordering kernels: TopKV2 and LowerBound / UpperBound.
 *
 * TopKV2 orders each row of the last dimension by value, larger first and,
 * among equal values, lower index first (TF's order), with a stable sort of
 * the row's indices on the values; rows are sharded over the intra-op pool.
 * Values are compared as double for float types and small integers, as
 * int64 / uint64 for the wide integers (exact either way). The bound ops
 * binary-search each value in its row of sorted_inputs.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "core/attr.h"
#include "kernels/kernel_tables.h"

/* One row entry: its key in one of three exact representations, and its index. */
typedef struct key_ent {
  union {
    double d;
    int64_t i;
    uint64_t u;
  } k;
  int64_t idx;
} key_ent;

enum { KEY_D, KEY_I, KEY_U };

/* Which key representation dt compares exactly in; -1 for an unsupported dtype. */
static int key_kind(tfc_dtype dt) {
  switch (dt) {
    case TFC_DTYPE_FLOAT: case TFC_DTYPE_DOUBLE: case TFC_DTYPE_HALF: case TFC_DTYPE_BFLOAT16:
    case TFC_DTYPE_INT8: case TFC_DTYPE_INT16: case TFC_DTYPE_INT32: case TFC_DTYPE_UINT8:
    case TFC_DTYPE_UINT16: case TFC_DTYPE_UINT32:
      return KEY_D;
    case TFC_DTYPE_INT64: return KEY_I;
    case TFC_DTYPE_UINT64: return KEY_U;
    default: return -1;
  }
}

/* Reads element i of a dt array into e's key. */
static void load_key(tfc_dtype dt, const void *p, int64_t i, key_ent *e) {
  switch (dt) {
    case TFC_DTYPE_FLOAT: e->k.d = ((const float *)p)[i]; break;
    case TFC_DTYPE_DOUBLE: e->k.d = ((const double *)p)[i]; break;
    case TFC_DTYPE_HALF: e->k.d = tfc_half_to_float(((const uint16_t *)p)[i]); break;
    case TFC_DTYPE_BFLOAT16: e->k.d = tfc_bfloat16_to_float(((const uint16_t *)p)[i]); break;
    case TFC_DTYPE_INT8: e->k.d = ((const int8_t *)p)[i]; break;
    case TFC_DTYPE_INT16: e->k.d = ((const int16_t *)p)[i]; break;
    case TFC_DTYPE_INT32: e->k.d = ((const int32_t *)p)[i]; break;
    case TFC_DTYPE_UINT8: e->k.d = ((const uint8_t *)p)[i]; break;
    case TFC_DTYPE_UINT16: e->k.d = ((const uint16_t *)p)[i]; break;
    case TFC_DTYPE_UINT32: e->k.d = ((const uint32_t *)p)[i]; break;
    case TFC_DTYPE_INT64: e->k.i = ((const int64_t *)p)[i]; break;
    case TFC_DTYPE_UINT64: e->k.u = ((const uint64_t *)p)[i]; break;
    default: break;
  }
}

/* -1 / 0 / 1 as a < b / equal / a > b under key kind `kind` (NaN above everything). */
static int key_cmp(int kind, const key_ent *a, const key_ent *b) {
  if (kind == KEY_I) return (a->k.i > b->k.i) - (a->k.i < b->k.i);
  if (kind == KEY_U) return (a->k.u > b->k.u) - (a->k.u < b->k.u);
  double x = a->k.d, y = b->k.d;
  if (x != x || y != y) return (x != x) - (y != y);
  return (x > y) - (x < y);
}

/* Descending by key, ascending by index (qsort_r comparator; arg: &kind). */
static int desc_cmp(const void *pa, const void *pb, void *arg) {
  const key_ent *a = pa, *b = pb;
  int c = key_cmp(*(const int *)arg, b, a);
  return c ? c : (a->idx > b->idx) - (a->idx < b->idx);
}

typedef struct topk_job {
  tfc_dtype dt, it;
  const char *in;
  char *vals;
  char *idx;
  int64_t n, k;
  int kind;
  atomic_bool oom;
} topk_job;

/* Sorts rows [r0, r1) and writes their first k entries. */
static void topk_rows(void *arg, int64_t r0, int64_t r1) {
  topk_job *j = arg;
  key_ent *ents = tfc_malloc(sizeof(key_ent) * (size_t)(j->n > 0 ? j->n : 1));
  if (!ents) {
    atomic_store(&j->oom, true);
    return;
  }
  size_t es = tfc_dtype_size(j->dt);
  for (int64_t r = r0; r < r1; r++) {
    const char *row = j->in + (size_t)(r * j->n) * es;
    for (int64_t c = 0; c < j->n; c++) {
      load_key(j->dt, row, c, &ents[c]);
      ents[c].idx = c;
    }
    qsort_r(ents, (size_t)j->n, sizeof *ents, desc_cmp, &j->kind);
    for (int64_t c = 0; c < j->k; c++) {
      memcpy(j->vals + (size_t)(r * j->k + c) * es, row + (size_t)ents[c].idx * es, es);
      int64_t v = ents[c].idx;
      switch (j->it) {
        case TFC_DTYPE_INT16: ((int16_t *)j->idx)[r * j->k + c] = (int16_t)v; break;
        case TFC_DTYPE_INT64: ((int64_t *)j->idx)[r * j->k + c] = v; break;
        default: ((int32_t *)j->idx)[r * j->k + c] = (int32_t)v; break;
      }
    }
  }
  tfc_free(ents);
}

/* TopKV2(input, k). */
static void top_k_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *x = ctx->inputs[0], *kt = ctx->inputs[1];
  if (kt->nelems != 1 || kt->rank != 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "k must be scalar, got rank %d", kt->rank);
    return;
  }
  int64_t k = tfc_tensor_get_int64(kt, 0);
  if (k < 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Need k >= 0, got %lld", (long long)k);
    return;
  }
  if (x->rank < 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "input must be >= 1-D, got shape []");
    return;
  }
  int64_t n = x->dims[x->rank - 1];
  if (n < k) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "input must have at least k columns. Had %lld, needed %lld", (long long)n,
                    (long long)k);
    return;
  }
  int kind = key_kind(x->dtype);
  if (kind < 0) {
    tfc_kernel_fail(ctx, TFC_CODE_UNIMPLEMENTED, "TopKV2 is not implemented for dtype %s",
                    tfc_dtype_name(x->dtype));
    return;
  }
  tfc_dtype it = TFC_DTYPE_INT32;
  const tfc_attr_value *iv = tfc_attrs_find(ctx->attrs, "index_type");
  if (iv && iv->kind == TFC_ATTR_TYPE) it = tfc_dtype_base(iv->v.type);
  int64_t dims[TFC_MAX_RANK];
  for (int d = 0; d < x->rank; d++) dims[d] = x->dims[d];
  dims[x->rank - 1] = k;
  tfc_tensor *vals = tfc_kernel_alloc_output(ctx, 0, x->dtype, x->rank, dims);
  if (!vals) return;
  tfc_tensor *idx = tfc_kernel_alloc_output(ctx, 1, it, x->rank, dims);
  if (!idx || vals->nelems == 0) return;
  int64_t rows = x->nelems / (n > 0 ? n : 1);
  topk_job j = {x->dtype, it, x->data, vals->data, idx->data, n, k, kind, false};
  int64_t min_rows = n >= 4096 ? 1 : 4096 / (n > 0 ? n : 1);
  tfc_kernel_parallel_for(ctx, rows, min_rows, topk_rows, &j);
  if (atomic_load(&j.oom)) tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in TopKV2");
}

/* LowerBound (upper = false) / UpperBound (upper = true) over 2-D inputs. */
static void bound_compute(tfc_kernel_ctx *ctx, bool upper) {
  const tfc_tensor *s = ctx->inputs[0], *v = ctx->inputs[1];
  if (s->rank != 2 || v->rank != 2 || s->dims[0] != v->dims[0]) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Leading dim_size of both tensors must match (sorted_inputs and values "
                    "must be 2-D with the same number of rows)");
    return;
  }
  int kind = key_kind(s->dtype);
  if (kind < 0) {
    tfc_kernel_fail(ctx, TFC_CODE_UNIMPLEMENTED, "%s is not implemented for dtype %s",
                    ctx->op_type, tfc_dtype_name(s->dtype));
    return;
  }
  tfc_dtype ot = TFC_DTYPE_INT32;
  const tfc_attr_value *ov = tfc_attrs_find(ctx->attrs, "out_type");
  if (ov && ov->kind == TFC_ATTR_TYPE) ot = tfc_dtype_base(ov->v.type);
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, ot, v->rank, v->dims);
  if (!out) return;
  int64_t n = s->dims[1], m = v->dims[1];
  for (int64_t r = 0; r < v->dims[0]; r++) {
    for (int64_t c = 0; c < m; c++) {
      key_ent want = {.idx = 0}, mid = {.idx = 0};
      load_key(v->dtype, v->data, r * m + c, &want);
      int64_t lo = 0, hi = n;
      while (lo < hi) {
        int64_t h = lo + (hi - lo) / 2;
        load_key(s->dtype, s->data, r * n + h, &mid);
        int cmp = key_cmp(kind, &mid, &want);
        if (upper ? cmp <= 0 : cmp < 0) lo = h + 1;
        else hi = h;
      }
      if (ot == TFC_DTYPE_INT64) ((int64_t *)out->data)[r * m + c] = lo;
      else ((int32_t *)out->data)[r * m + c] = (int32_t)lo;
    }
  }
}

/* LowerBound: the first position whose value is not less than each value. */
static void lower_bound_compute(tfc_kernel_ctx *ctx) { bound_compute(ctx, false); }
/* UpperBound: the first position whose value is greater than each value. */
static void upper_bound_compute(tfc_kernel_ctx *ctx) { bound_compute(ctx, true); }

#define K(op, fn) {op, "CPU", NULL, NULL, NULL, fn, NULL, 0}

static const tfc_kernel_def defs[] = {
    K("TopKV2", top_k_compute),
    K("LowerBound", lower_bound_compute),
    K("UpperBound", upper_bound_compute),
};

const tfc_kernel_table tfc_kernels_sort = {defs, (int)(sizeof defs / sizeof defs[0])};
