/*
 * sparse.c — CPU kernels for row partitioning and stitching (DynamicPartition,
 * DynamicStitch, ParallelDynamicStitch) and for sparse tensors in COO form
 * (SparseToDense, SparseTensorDenseMatMul, SparseReorder; the table also
 * registers sparse_cwise.c's SparseSoftmax and SparseSparseMaximum/Minimum
 * and sparse_reduce.c's SparseReduceMax, SparseReduceMaxSparse and
 * SparseReduceSumSparse).
 * Ops in core/ops_sparse.c.
 *
 * Rows move by element size (strings are deep-copied through the array
 * family's copy helpers); checks and messages follow TensorFlow's kernels.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "core/dtype.h"
#include "kernels/array_internal.h"
#include "kernels/kernel.h"
#include "kernels/kernel_tables.h"
#include "kernels/sparse_internal.h"

/* Product of dims[from..rank). */
static int64_t tail_elems(const tfc_tensor *t, int from) {
  int64_t n = 1;
  for (int d = from; d < t->rank; d++) n *= t->dims[d];
  return n;
}

/* Zero-fills a freshly allocated numeric output (strings start empty). */
static void zero_fill(tfc_tensor *t) {
  if (t->dtype != TFC_DTYPE_STRING && t->nelems > 0)
    memset(t->data, 0, (size_t)t->nelems * tfc_dtype_size(t->dtype));
}

/* ------------------------------------------------------------ DynamicPartition */

/* DynamicPartition: row k of data (the elements under partitions' flat
 * position k) goes to output partitions[k], rows keeping their order. */
static void dynamic_partition_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *data = ctx->inputs[0], *part = ctx->inputs[1];
  int np = ctx->n_outputs;
  bool prefix = part->rank <= data->rank;
  for (int d = 0; prefix && d < part->rank; d++) prefix = data->dims[d] == part->dims[d];
  if (!prefix) {
    char a[160], b[160];
    arr_dims_str(data->rank, data->dims, a, sizeof a);
    arr_dims_str(part->rank, part->dims, b, sizeof b);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "data.shape must start with partitions.shape, got data.shape = %s, "
                    "partitions.shape = %s", a, b);
    return;
  }
  const int32_t *p = part->data;
  int64_t n = part->nelems;
  int64_t *counts = tfc_calloc((size_t)np, sizeof *counts);
  if (counts == NULL) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in DynamicPartition");
    return;
  }
  for (int64_t k = 0; k < n; k++) {
    if (p[k] < 0 || p[k] >= np) {
      char where[96];
      arr_element_name("partitions", part, k, where, sizeof where);
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s = %d is not in [0, %d)", where,
                      (int)p[k], np);
      tfc_free(counts);
      return;
    }
    counts[p[k]]++;
  }
  int64_t inner = tail_elems(data, part->rank);
  size_t es = tfc_dtype_size(data->dtype);
  int64_t dims[TFC_MAX_RANK + 1];
  int out_rank = 1 + data->rank - part->rank;
  for (int d = part->rank; d < data->rank; d++) dims[1 + d - part->rank] = data->dims[d];
  char **dst = tfc_calloc((size_t)np, sizeof *dst);
  if (dst == NULL) {
    tfc_free(counts);
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in DynamicPartition");
    return;
  }
  for (int i = 0; i < np; i++) {
    dims[0] = counts[i];
    tfc_tensor *o = tfc_kernel_alloc_output(ctx, i, data->dtype, out_rank, dims);
    if (o == NULL) goto done;
    dst[i] = o->data;
  }
  for (int64_t k = 0; k < n && inner > 0; k++) {
    if (!arr_copy(ctx, data->dtype, dst[p[k]], (const char *)data->data + (size_t)(k * inner) * es,
                  inner))
      goto done;
    dst[p[k]] += (size_t)inner * es;
  }
done:
  tfc_free(dst);
  tfc_free(counts);
}

/* --------------------------------------------------------------- DynamicStitch */

/* DynamicStitch / ParallelDynamicStitch: merged[indices[i][k], ...] =
 * data[i][k, ...]; later (i, k) win; rows no index names are zero. */
static void dynamic_stitch_compute(tfc_kernel_ctx *ctx) {
  int n = ctx->n_inputs / 2;
  const tfc_tensor *ind0 = ctx->inputs[0], *data0 = ctx->inputs[n];
  char a[160], b[160];
  if (data0->rank < ind0->rank) {
    arr_dims_str(data0->rank, data0->dims, a, sizeof a);
    arr_dims_str(ind0->rank, ind0->dims, b, sizeof b);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "data[0].shape = %s does not start with indices[0].shape = %s", a, b);
    return;
  }
  int slice_rank = data0->rank - ind0->rank;
  const int64_t *slice_dims = data0->dims + ind0->rank;
  int64_t inner = tail_elems(data0, ind0->rank);
  int64_t max_index = -1;
  for (int i = 0; i < n; i++) {
    const tfc_tensor *ind = ctx->inputs[i], *data = ctx->inputs[n + i];
    bool ok = data->rank == ind->rank + slice_rank;
    for (int d = 0; ok && d < ind->rank; d++) ok = data->dims[d] == ind->dims[d];
    if (!ok) {
      arr_dims_str(data->rank, data->dims, a, sizeof a);
      arr_dims_str(ind->rank, ind->dims, b, sizeof b);
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                      "data[%d].shape = %s does not start with indices[%d].shape = %s", i, a, i,
                      b);
      return;
    }
    for (int d = 0; d < slice_rank; d++) {
      if (data->dims[ind->rank + d] != slice_dims[d]) {
        arr_dims_str(slice_rank, slice_dims, a, sizeof a);
        arr_dims_str(slice_rank, data->dims + ind->rank, b, sizeof b);
        tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                        "Need data[0].shape[%d:] = %s to match data[%d].shape[%d:] = %s",
                        ind0->rank, a, i, ind->rank, b);
        return;
      }
    }
    const int32_t *v = ind->data;
    for (int64_t k = 0; k < ind->nelems; k++) {
      if (v[k] < 0) {
        tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "indices[%d] is out of range", i);
        return;
      }
      if (v[k] > max_index) max_index = v[k];
    }
  }
  int64_t dims[TFC_MAX_RANK + 1];
  dims[0] = max_index + 1;
  for (int d = 0; d < slice_rank; d++) dims[1 + d] = slice_dims[d];
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, data0->dtype, 1 + slice_rank, dims);
  if (out == NULL) return;
  zero_fill(out);
  size_t row = (size_t)inner * tfc_dtype_size(data0->dtype);
  for (int i = 0; i < n && inner > 0; i++) {
    const tfc_tensor *ind = ctx->inputs[i], *data = ctx->inputs[n + i];
    const int32_t *v = ind->data;
    for (int64_t k = 0; k < ind->nelems; k++)
      if (!arr_copy(ctx, data0->dtype, (char *)out->data + (size_t)v[k] * row,
                    (const char *)data->data + (size_t)k * row, inner))
        return;
  }
}

/* --------------------------------------------------------------- SparseToDense */

/* Writes "[i, j, ...]"-style TF text of row k of an [N, R] index matrix. */
static void index_row_text(const tfc_tensor *ind, int64_t k, int r, char *buf, size_t cap) {
  size_t len = 0;
  buf[0] = '\0';
  for (int j = 0; j < r && len < cap; j++)
    len += (size_t)snprintf(buf + len, cap - len, "%s%lld", j ? "," : "",
                            (long long)tfc_tensor_get_int64(ind, k * r + j));
}

/* SparseToDense: dense of output_shape filled with default_value, then
 * dense[sparse_indices[k]] = sparse_values[k] (or the scalar value). With
 * validate_indices the indices must be in bounds, sorted and unique. */
static void sparse_to_dense_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *ind = ctx->inputs[0], *oshape = ctx->inputs[1];
  const tfc_tensor *vals = ctx->inputs[2], *def = ctx->inputs[3];
  char a[160], b[160];
  if (ind->rank > 2) {
    arr_dims_str(ind->rank, ind->dims, a, sizeof a);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "sparse_indices should be a scalar, vector, or matrix, got shape %s", a);
    return;
  }
  if (oshape->rank != 1) {
    arr_dims_str(oshape->rank, oshape->dims, a, sizeof a);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "output_shape should be a vector, got shape %s",
                    a);
    return;
  }
  int64_t num_elems = ind->rank > 0 ? ind->dims[0] : 1;
  int64_t num_dims = ind->rank > 1 ? ind->dims[1] : 1;
  if (!(vals->rank == 0 || (vals->rank == 1 && vals->dims[0] == num_elems))) {
    arr_dims_str(vals->rank, vals->dims, a, sizeof a);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "sparse_values has incorrect shape %s, should be [] or [%lld]", a,
                    (long long)num_elems);
    return;
  }
  if (def->rank != 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "default_value should be a scalar.");
    return;
  }
  if (oshape->nelems != num_dims) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "output_shape has incorrect number of elements: %lld should be: %lld",
                    (long long)oshape->nelems, (long long)num_dims);
    return;
  }
  if (num_dims > TFC_MAX_RANK) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "output_shape has more than %d dims",
                    TFC_MAX_RANK);
    return;
  }
  int r = (int)num_dims;
  int64_t dims[TFC_MAX_RANK];
  for (int j = 0; j < r; j++) {
    dims[j] = tfc_tensor_get_int64(oshape, j);
    if (dims[j] < 0) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Dimension %lld must be >= 0",
                      (long long)dims[j]);
      return;
    }
  }
  const tfc_attr_value *vi = tfc_attrs_find(ctx->attrs, "validate_indices");
  bool validate = !(vi && vi->kind == TFC_ATTR_B && !vi->v.b);
  int64_t strides[TFC_MAX_RANK];
  arr_strides(r, dims, strides);
  /* Bounds are always checked (an index outside the output would write out of
   * it); order and uniqueness only with validate_indices. */
  int64_t prev = -1;
  for (int64_t k = 0; k < num_elems; k++) {
    int64_t flat = 0;
    bool in = true;
    for (int j = 0; j < r; j++) {
      int64_t x = tfc_tensor_get_int64(ind, k * r + j);
      if (x < 0 || x >= dims[j]) in = false;
      flat += x * strides[j];
    }
    if (!in) {
      index_row_text(ind, k, r, a, sizeof a);
      arr_dims_str(r, dims, b, sizeof b);
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                      "indices[%lld] = [%s] is out of bounds: need 0 <= index < %s", (long long)k,
                      a, b);
      return;
    }
    if (validate && k > 0 && flat <= prev) {
      index_row_text(ind, k, r, a, sizeof a);
      if (flat == prev)
        tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "indices[%lld] = [%s] is repeated",
                        (long long)k, a);
      else
        tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                        "indices[%lld] = [%s] is out of order. Many sparse ops require sorted "
                        "indices.\n    Use `tf.sparse.reorder` to create a correctly ordered "
                        "copy.\n\n", (long long)k, a);
      return;
    }
    prev = flat;
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, vals->dtype, r, dims);
  if (out == NULL) return;
  if (!arr_fill(ctx, vals->dtype, out->data, def->data, out->nelems)) return;
  size_t es = tfc_dtype_size(vals->dtype);
  for (int64_t k = 0; k < num_elems; k++) {
    int64_t flat = 0;
    for (int j = 0; j < r; j++) flat += tfc_tensor_get_int64(ind, k * r + j) * strides[j];
    const char *src = (const char *)vals->data + (vals->rank == 0 ? 0 : (size_t)k * es);
    if (!arr_copy(ctx, vals->dtype, (char *)out->data + (size_t)flat * es, src, 1)) return;
  }
}

/* ----------------------------------------------------- SparseTensorDenseMatMul */

#define DEFINE_SPMM(T, SUF)                                                              \
  /* out[m, n] += a * op(B)[k, :] for every nonzero (i, k) of op(A). */                  \
  static void spmm_##SUF(const tfc_tensor *ind, const tfc_tensor *vals, const tfc_tensor *b, \
                         bool adj_a, bool adj_b, tfc_tensor *out) {                      \
    const T *a = vals->data, *bd = b->data;                                              \
    T *o = out->data;                                                                    \
    int64_t n = out->dims[1], bcols = b->dims[1];                                        \
    for (int64_t z = 0; z < vals->nelems; z++) {                                         \
      int64_t r = tfc_tensor_get_int64(ind, 2 * z), c = tfc_tensor_get_int64(ind, 2 * z + 1); \
      int64_t i = adj_a ? c : r, k = adj_a ? r : c;                                      \
      T av = a[z];                                                                       \
      T *orow = o + i * n;                                                               \
      if (!adj_b) {                                                                      \
        const T *brow = bd + k * bcols;                                                  \
        for (int64_t j = 0; j < n; j++) orow[j] += av * brow[j];                         \
      } else {                                                                           \
        for (int64_t j = 0; j < n; j++) orow[j] += av * bd[j * bcols + k];              \
      }                                                                                  \
    }                                                                                    \
  }

DEFINE_SPMM(float, f32)
DEFINE_SPMM(double, f64)
DEFINE_SPMM(int32_t, i32)
DEFINE_SPMM(int64_t, i64)

/* SparseTensorDenseMatMul: op(A) @ op(B) with A in COO form (indices
 * [nnz, 2], values [nnz], shape [2]); op is a transpose when adjoint_*. */
static void sparse_dense_matmul_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *ind = ctx->inputs[0], *vals = ctx->inputs[1];
  const tfc_tensor *ashape = ctx->inputs[2], *b = ctx->inputs[3];
  const tfc_attr_value *aa = tfc_attrs_find(ctx->attrs, "adjoint_a");
  const tfc_attr_value *ab = tfc_attrs_find(ctx->attrs, "adjoint_b");
  bool adj_a = aa && aa->kind == TFC_ATTR_B && aa->v.b;
  bool adj_b = ab && ab->kind == TFC_ATTR_B && ab->v.b;
  if (ashape->rank != 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Tensor 'a_shape' is not a vector");
    return;
  }
  if (ashape->nelems != 2) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Tensor 'a_shape' must have 2 elements");
    return;
  }
  if (vals->rank != 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Tensor 'a_values' is not a vector");
    return;
  }
  if (ind->rank != 2) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Tensor 'a_indices' is not a matrix");
    return;
  }
  if (ind->dims[0] != vals->dims[0]) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Number of rows of a_indices does not match number of entries in a_values");
    return;
  }
  if (ind->dims[1] != 2) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Number of columns of a_indices does not match number of entries in a_shape");
    return;
  }
  if (b->rank != 2) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Tensor 'b' is not a matrix");
    return;
  }
  int64_t ar = tfc_tensor_get_int64(ashape, 0), ac = tfc_tensor_get_int64(ashape, 1);
  int64_t m = adj_a ? ac : ar, inner_a = adj_a ? ar : ac;
  int64_t inner_b = adj_b ? b->dims[1] : b->dims[0], n = adj_b ? b->dims[0] : b->dims[1];
  if (m < 0 || inner_a < 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Tensor 'a_shape' has a negative dimension");
    return;
  }
  if (inner_a != inner_b) {
    char bs[96];
    arr_dims_str(b->rank, b->dims, bs, sizeof bs);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Cannot multiply A and B because inner dimension does not match: %lld vs. "
                    "%lld.  Did you forget a transpose?  Dimensions of A: [%lld, %lld).  "
                    "Dimensions of B: %s", (long long)inner_a, (long long)inner_b,
                    (long long)ar, (long long)ac, bs);
    return;
  }
  for (int64_t z = 0; z < ind->dims[0]; z++) {
    int64_t r = tfc_tensor_get_int64(ind, 2 * z), c = tfc_tensor_get_int64(ind, 2 * z + 1);
    int64_t i = adj_a ? c : r, k = adj_a ? r : c;
    if (k < 0 || k >= inner_a) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "k (%lld) from index[%lld,%d] out of "
                      "bounds (>=%lld)", (long long)k, (long long)z, adj_a ? 0 : 1,
                      (long long)inner_a);
      return;
    }
    if (i < 0 || i >= m) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "i (%lld) from index[%lld,%d] out of "
                      "bounds (>=%lld)", (long long)i, (long long)z, adj_a ? 1 : 0, (long long)m);
      return;
    }
  }
  int64_t dims[2] = {m, n};
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, b->dtype, 2, dims);
  if (out == NULL) return;
  zero_fill(out);
  switch (b->dtype) {
    case TFC_DTYPE_FLOAT: spmm_f32(ind, vals, b, adj_a, adj_b, out); break;
    case TFC_DTYPE_DOUBLE: spmm_f64(ind, vals, b, adj_a, adj_b, out); break;
    case TFC_DTYPE_INT32: spmm_i32(ind, vals, b, adj_a, adj_b, out); break;
    case TFC_DTYPE_INT64: spmm_i64(ind, vals, b, adj_a, adj_b, out); break;
    default:
      tfc_kernel_fail(ctx, TFC_CODE_UNIMPLEMENTED, "SparseTensorDenseMatMul: no kernel for %s",
                      tfc_dtype_name(b->dtype));
  }
}

/* ---------------------------------------------------------------- SparseReorder */

typedef struct reorder_key {
  int64_t key;   /* row-major position in the dense shape */
  int64_t pos;   /* original position (ties keep their order) */
} reorder_key;

/* qsort order: by key, then by original position. */
static int reorder_cmp(const void *a, const void *b) {
  const reorder_key *x = a, *y = b;
  if (x->key != y->key) return x->key < y->key ? -1 : 1;
  return (x->pos > y->pos) - (x->pos < y->pos);
}

/* SparseReorder: the entries of a COO tensor sorted into row-major order
 * (stable: repeated coordinates keep their order). */
static void sparse_reorder_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *ind = ctx->inputs[0], *vals = ctx->inputs[1], *shape = ctx->inputs[2];
  char a[160];
  if (ind->rank != 2) {
    arr_dims_str(ind->rank, ind->dims, a, sizeof a);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Input indices should be a matrix but "
                    "received shape %s", a);
    return;
  }
  if (vals->rank != 1) {
    arr_dims_str(vals->rank, vals->dims, a, sizeof a);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Input values should be a vector but "
                    "received shape %s", a);
    return;
  }
  if (shape->rank != 1) {
    arr_dims_str(shape->rank, shape->dims, a, sizeof a);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Input shape should be a vector but "
                    "received shape %s", a);
    return;
  }
  int64_t n = ind->dims[0], r = ind->dims[1];
  if (vals->dims[0] != n || shape->dims[0] != r) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Input indices, values and shape do not "
                    "agree: indices [%lld,%lld], values [%lld], shape [%lld]", (long long)n,
                    (long long)r, (long long)vals->dims[0], (long long)shape->dims[0]);
    return;
  }
  reorder_key *keys = tfc_malloc((size_t)(n > 0 ? n : 1) * sizeof *keys);
  if (keys == NULL) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in SparseReorder");
    return;
  }
  for (int64_t k = 0; k < n; k++) {
    int64_t key = 0;
    for (int64_t j = 0; j < r; j++) {
      int64_t d = tfc_tensor_get_int64(shape, j), x = tfc_tensor_get_int64(ind, k * r + j);
      if (x < 0 || x >= d) {
        tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                        "Index %lld at offset %lld of dimension %lld is out of bounds [0, %lld)",
                        (long long)x, (long long)k, (long long)j, (long long)d);
        tfc_free(keys);
        return;
      }
      key = key * d + x;
    }
    keys[k].key = key;
    keys[k].pos = k;
  }
  qsort(keys, (size_t)n, sizeof *keys, reorder_cmp);
  tfc_tensor *oi = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_INT64, 2, ind->dims);
  tfc_tensor *ov = oi ? tfc_kernel_alloc_output(ctx, 1, vals->dtype, 1, vals->dims) : NULL;
  if (ov != NULL) {
    int64_t *dst = oi->data;
    const int64_t *src = ind->data;
    size_t es = tfc_dtype_size(vals->dtype);
    for (int64_t k = 0; k < n; k++) {
      memcpy(dst + k * r, src + keys[k].pos * r, (size_t)r * sizeof *dst);
      if (!arr_copy(ctx, vals->dtype, (char *)ov->data + (size_t)k * es,
                    (const char *)vals->data + (size_t)keys[k].pos * es, 1))
        break;
    }
  }
  tfc_free(keys);
}

/* ------------------------------------------------------------------ table */

static const tfc_dtype spmm_types[] = {TFC_DTYPE_FLOAT, TFC_DTYPE_DOUBLE, TFC_DTYPE_INT32,
                                       TFC_DTYPE_INT64, TFC_DTYPE_INVALID};
static const tfc_dtype softmax_types[] = {TFC_DTYPE_HALF, TFC_DTYPE_FLOAT, TFC_DTYPE_DOUBLE,
                                          TFC_DTYPE_INVALID};
/* TF's realnumbertypes with CPU kernels. */
static const tfc_dtype minmax_types[] = {
    TFC_DTYPE_FLOAT, TFC_DTYPE_DOUBLE, TFC_DTYPE_INT32, TFC_DTYPE_UINT8, TFC_DTYPE_INT16,
    TFC_DTYPE_INT8, TFC_DTYPE_INT64, TFC_DTYPE_BFLOAT16, TFC_DTYPE_UINT16, TFC_DTYPE_HALF,
    TFC_DTYPE_UINT32, TFC_DTYPE_UINT64, TFC_DTYPE_INVALID};

static const tfc_kernel_def defs[] = {
    {"DynamicPartition", "CPU", NULL, NULL, NULL, dynamic_partition_compute, NULL, 0},
    {"DynamicStitch", "CPU", NULL, NULL, NULL, dynamic_stitch_compute, NULL, 0},
    {"ParallelDynamicStitch", "CPU", NULL, NULL, NULL, dynamic_stitch_compute, NULL, 0},
    {"SparseToDense", "CPU", NULL, NULL, NULL, sparse_to_dense_compute, NULL, 0},
    {"SparseReorder", "CPU", NULL, NULL, NULL, sparse_reorder_compute, NULL, 0},
    {"SparseTensorDenseMatMul", "CPU", "T", spmm_types, NULL, sparse_dense_matmul_compute, NULL,
     0},
    {"SparseSoftmax", "CPU", "T", softmax_types, NULL, sparse_softmax_compute, NULL, 0},
    {"SparseSparseMaximum", "CPU", "T", minmax_types, NULL, sparse_sparse_maximum_compute, NULL, 0},
    {"SparseSparseMinimum", "CPU", "T", minmax_types, NULL, sparse_sparse_minimum_compute, NULL, 0},
    {"SparseReduceMax", "CPU", "T", minmax_types, NULL, sparse_reduce_max_compute, NULL, 0},
    {"SparseReduceMaxSparse", "CPU", "T", minmax_types, NULL, sparse_reduce_max_sparse_compute,
     NULL, 0},
    {"SparseReduceSumSparse", "CPU", "T", minmax_types, NULL, sparse_reduce_sum_sparse_compute,
     NULL, 0},
};

const tfc_kernel_table tfc_kernels_sparse = {defs, (int)(sizeof defs / sizeof defs[0])};
