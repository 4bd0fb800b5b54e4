/*
 * sparse_reduce.c — CPU kernels reducing a COO sparse tensor's entries over
 * some dimensions: SparseReduceMax (dense result), SparseReduceMaxSparse and
 * SparseReduceSumSparse (sparse results). Ops in core/ops_sparse.c;
 * registered by sparse.c's table.
 *
 * As in TensorFlow, only the stored entries take part (implicit zeros are
 * ignored), and a cell of the dense result that no entry reaches holds 0. The sparse results list the cells
 * some entry reaches, in row-major order. Entries may come in any order.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "core/dtype.h"
#include "kernels/array_internal.h"
#include "kernels/kernel.h"
#include "kernels/sparse_internal.h"

#define MAX_RANK 32

/* The reduction problem: the kept dims (in order) and their sizes. */
typedef struct reduce_plan {
  int rank;
  int n_kept;
  int kept[MAX_RANK];
  bool reduced[MAX_RANK];
  int64_t dims[MAX_RANK];
  int64_t out_elems;     /* product of the kept dims */
} reduce_plan;

/* Validates the inputs and fills p; false with ctx failed. */
static bool make_plan(tfc_kernel_ctx *ctx, reduce_plan *p) {
  const tfc_tensor *ind = ctx->inputs[0], *vals = ctx->inputs[1], *shape = ctx->inputs[2];
  const tfc_tensor *axes = ctx->inputs[3];
  char a[160], b[160], c[160];
  arr_dims_str(ind->rank, ind->dims, a, sizeof a);
  arr_dims_str(vals->rank, vals->dims, b, sizeof b);
  arr_dims_str(shape->rank, shape->dims, c, sizeof c);
  if (ind->rank != 2)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "Input indices should be a matrix but received shape %s", a);
  if (vals->rank != 1)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "Input values should be a vector but received shape %s", b);
  if (shape->rank != 1)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "Input shape should be a vector but received shape %s", c);
  if (vals->dims[0] != ind->dims[0] || shape->dims[0] != ind->dims[1])
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "Input indices, values and shape do not agree: indices %s, values "
                           "%s, shape %s", a, b, c);
  if (shape->dims[0] > MAX_RANK)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "SparseTensor of rank %lld is not "
                           "supported (at most %d)", (long long)shape->dims[0], MAX_RANK);
  memset(p, 0, sizeof *p);
  p->rank = (int)shape->dims[0];
  for (int d = 0; d < p->rank; d++) {
    p->dims[d] = tfc_tensor_get_int64(shape, d);
    if (p->dims[d] < 0)
      return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Invalid shape dimension %lld",
                             (long long)p->dims[d]);
  }
  for (int64_t k = 0; k < axes->nelems; k++) {
    int64_t ax = tfc_tensor_get_int64(axes, k);
    if (ax < -p->rank || ax >= p->rank)
      return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                             "Invalid reduction dimension %lld, for input with %d dimensions.",
                             (long long)ax, p->rank);
    p->reduced[ax < 0 ? ax + p->rank : ax] = true;
  }
  p->out_elems = 1;
  for (int d = 0; d < p->rank; d++) {
    if (p->reduced[d]) continue;
    p->kept[p->n_kept++] = d;
    p->out_elems *= p->dims[d];
  }
  const int64_t *idx = ind->data;
  for (int64_t k = 0; k < ind->dims[0]; k++)
    for (int d = 0; d < p->rank; d++)
      if (idx[k * p->rank + d] < 0 || idx[k * p->rank + d] >= p->dims[d])
        return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                               "Index %lld at offset %lld of dimension %d is out of bounds "
                               "[0, %lld)", (long long)idx[k * p->rank + d], (long long)k, d,
                               (long long)p->dims[d]);
  return true;
}

/* keep_dims attr (default false). */
static bool keep_dims(const tfc_kernel_ctx *ctx) {
  const tfc_attr_value *v = tfc_attrs_find(ctx->attrs, "keep_dims");
  return v && v->kind == TFC_ATTR_B && v->v.b;
}

/* Row-major position of entry k over the kept dims. */
static int64_t kept_key(const reduce_plan *p, const int64_t *idx, int64_t k) {
  int64_t key = 0;
  for (int j = 0; j < p->n_kept; j++) key = key * p->dims[p->kept[j]] + idx[k * p->rank + p->kept[j]];
  return key;
}

/* The result dims: the kept dims, with 1 for each reduced dim when keep. */
static int out_dims(const reduce_plan *p, bool keep, int64_t *dims) {
  int r = 0;
  for (int d = 0; d < p->rank; d++)
    if (!p->reduced[d]) dims[r++] = p->dims[d];
    else if (keep) dims[r++] = 1;
  return r;
}

/* Writes v (a double, or exactly an int64 for integer types) as element i. */
static void put(tfc_tensor *t, int64_t i, double v, int64_t iv) {
  switch (t->dtype) {
    case TFC_DTYPE_FLOAT: ((float *)t->data)[i] = (float)v; break;
    case TFC_DTYPE_DOUBLE: ((double *)t->data)[i] = v; break;
    case TFC_DTYPE_HALF: ((tfc_half *)t->data)[i] = tfc_float_to_half((float)v); break;
    case TFC_DTYPE_BFLOAT16: ((uint16_t *)t->data)[i] = tfc_float_to_bfloat16((float)v); break;
    case TFC_DTYPE_INT64: ((int64_t *)t->data)[i] = iv; break;
    case TFC_DTYPE_INT32: ((int32_t *)t->data)[i] = (int32_t)iv; break;
    case TFC_DTYPE_INT16: ((int16_t *)t->data)[i] = (int16_t)iv; break;
    case TFC_DTYPE_INT8: ((int8_t *)t->data)[i] = (int8_t)iv; break;
    case TFC_DTYPE_UINT8: ((uint8_t *)t->data)[i] = (uint8_t)iv; break;
    case TFC_DTYPE_UINT16: ((uint16_t *)t->data)[i] = (uint16_t)iv; break;
    case TFC_DTYPE_UINT32: ((uint32_t *)t->data)[i] = (uint32_t)iv; break;
    case TFC_DTYPE_UINT64: ((uint64_t *)t->data)[i] = (uint64_t)iv; break;
    default: break;
  }
}

/* The lowest value of an integer dtype. */
static int64_t int_lowest(tfc_dtype dt) {
  switch (dt) {
    case TFC_DTYPE_INT8: return INT8_MIN;
    case TFC_DTYPE_INT16: return INT16_MIN;
    case TFC_DTYPE_INT32: return INT32_MIN;
    case TFC_DTYPE_INT64: return INT64_MIN;
    default: return 0;   /* unsigned */
  }
}

/* SparseReduceMax: the dense maximum of the entries over reduction_axes. */
void sparse_reduce_max_compute(tfc_kernel_ctx *ctx) {
  reduce_plan p;
  if (!make_plan(ctx, &p)) return;
  const tfc_tensor *ind = ctx->inputs[0], *vals = ctx->inputs[1];
  int64_t dims[MAX_RANK];
  int r = out_dims(&p, keep_dims(ctx), dims);
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, vals->dtype, r, dims);
  if (out == NULL) return;
  bool is_int = tfc_dtype_is_integer(vals->dtype);
  int64_t lo = int_lowest(vals->dtype);
  int64_t *best_i = NULL;
  double *best_d = NULL;
  if (is_int) best_i = tfc_malloc((size_t)(p.out_elems ? p.out_elems : 1) * sizeof *best_i);
  else best_d = tfc_malloc((size_t)(p.out_elems ? p.out_elems : 1) * sizeof *best_d);
  bool *reached = tfc_calloc((size_t)(p.out_elems ? p.out_elems : 1), sizeof *reached);
  if ((best_i == NULL && best_d == NULL) || reached == NULL) {
    tfc_free(best_i);
    tfc_free(best_d);
    tfc_free(reached);
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in SparseReduceMax");
    return;
  }
  for (int64_t o = 0; o < p.out_elems; o++) {
    if (is_int) best_i[o] = lo;
    else best_d[o] = -INFINITY;
  }
  const int64_t *idx = ind->data;
  for (int64_t k = 0; k < ind->dims[0]; k++) {
    int64_t key = kept_key(&p, idx, k);
    reached[key] = true;
    if (is_int) {
      int64_t v = tfc_tensor_get_int64(vals, k);
      if (v > best_i[key]) best_i[key] = v;
    } else {
      double v = tfc_tensor_get_double(vals, k);
      if (v > best_d[key] || isnan(v)) best_d[key] = v;
    }
  }
  for (int64_t o = 0; o < p.out_elems; o++) {
    if (!reached[o]) put(out, o, 0, 0);
    else put(out, o, is_int ? (double)best_i[o] : best_d[o], is_int ? best_i[o] : 0);
  }
  tfc_free(reached);
  tfc_free(best_i);
  tfc_free(best_d);
}

/* An entry's key and position, sorted by key then position. */
typedef struct keyed {
  int64_t key, pos;
} keyed;

/* qsort comparator of keyed. */
static int keyed_cmp(const void *a, const void *b) {
  const keyed *x = a, *y = b;
  if (x->key != y->key) return x->key < y->key ? -1 : 1;
  return (x->pos > y->pos) - (x->pos < y->pos);
}

/* Shared by SparseReduceMaxSparse (take_max) and SparseReduceSumSparse: one
 * output entry per reached cell, in row-major order. */
static void reduce_sparse(tfc_kernel_ctx *ctx, bool take_max) {
  reduce_plan p;
  if (!make_plan(ctx, &p)) return;
  const tfc_tensor *ind = ctx->inputs[0], *vals = ctx->inputs[1];
  bool keep = keep_dims(ctx);
  int64_t n = ind->dims[0];
  keyed *ks = tfc_malloc((size_t)(n ? n : 1) * sizeof *ks);
  if (ks == NULL) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in %s", ctx->op_type);
    return;
  }
  const int64_t *idx = ind->data;
  for (int64_t k = 0; k < n; k++) {
    ks[k].key = kept_key(&p, idx, k);
    ks[k].pos = k;
  }
  qsort(ks, (size_t)n, sizeof *ks, keyed_cmp);
  int64_t groups = 0;
  for (int64_t k = 0; k < n; k++)
    if (k == 0 || ks[k].key != ks[k - 1].key) groups++;
  int64_t dims[MAX_RANK];
  int r = out_dims(&p, keep, dims);
  int64_t idims[2] = {groups, r}, rr = r;
  tfc_tensor *oi = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_INT64, 2, idims);
  tfc_tensor *ov = oi ? tfc_kernel_alloc_output(ctx, 1, vals->dtype, 1, &groups) : NULL;
  tfc_tensor *os = ov ? tfc_kernel_alloc_output(ctx, 2, TFC_DTYPE_INT64, 1, &rr) : NULL;
  if (os == NULL) {
    tfc_free(ks);
    return;
  }
  if (r > 0) memcpy(os->data, dims, (size_t)r * sizeof *dims);
  bool is_int = tfc_dtype_is_integer(vals->dtype);
  int64_t *oidx = oi->data;
  int64_t g = -1;
  double acc = 0;
  int64_t iacc = 0;
  for (int64_t k = 0; k <= n; k++) {
    bool start = k < n && (k == 0 || ks[k].key != ks[k - 1].key);
    if ((start || k == n) && g >= 0) put(ov, g, acc, iacc);
    if (k == n) break;
    int64_t pos = ks[k].pos;
    double v = is_int ? 0 : tfc_tensor_get_double(vals, pos);
    int64_t iv = is_int ? tfc_tensor_get_int64(vals, pos) : 0;
    if (start) {
      g++;
      int c = 0;
      for (int d = 0; d < p.rank; d++)
        if (!p.reduced[d]) oidx[g * r + c++] = idx[pos * p.rank + d];
        else if (keep) oidx[g * r + c++] = 0;
      acc = v;
      iacc = iv;
    } else if (take_max) {
      if (v > acc || isnan(v)) acc = v;
      if (iv > iacc) iacc = iv;
    } else {
      acc += v;
      iacc += iv;
    }
  }
  tfc_free(ks);
}

/* SparseReduceMaxSparse: the maximum over reduction_axes, as a sparse tensor. */
void sparse_reduce_max_sparse_compute(tfc_kernel_ctx *ctx) { reduce_sparse(ctx, true); }

/* SparseReduceSumSparse: the sum over reduction_axes, as a sparse tensor. */
void sparse_reduce_sum_sparse_compute(tfc_kernel_ctx *ctx) { reduce_sparse(ctx, false); }
