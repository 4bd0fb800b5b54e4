/*
 * sparse_cwise.c — CPU kernels that combine the values of COO sparse
 * tensors entry by entry: SparseSoftmax (a softmax over each innermost row
 * of one tensor's entries) and SparseSparseMaximum / SparseSparseMinimum
 * (the union of two tensors' entries, an entry missing on one side counting
 * as zero). Ops in core/ops_sparse.c; registered by sparse.c's table.
 *
 * As in TensorFlow, the entries must be in row-major (canonical) order:
 * SparseSoftmax groups consecutive entries that share all but the last
 * coordinate, and the binary ops merge the two entry lists in one pass.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "core/dtype.h"
#include "kernels/array_internal.h"
#include "kernels/kernel.h"
#include "kernels/sparse_internal.h"

/* Fails ctx unless ind is a matrix, vals a vector with one value per row of
 * ind and shape a vector with one entry per column of ind. `what` names the
 * operand in messages ("" or "a_"). */
static bool check_coo(tfc_kernel_ctx *ctx, const tfc_tensor *ind, const tfc_tensor *vals,
                      const tfc_tensor *shape, const char *what) {
  char a[160], b[160], c[160];
  arr_dims_str(ind->rank, ind->dims, a, sizeof a);
  arr_dims_str(vals->rank, vals->dims, b, sizeof b);
  arr_dims_str(shape->rank, shape->dims, c, sizeof c);
  if (ind->rank != 2)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "Input %sindices should be a matrix but received shape: %s", what, a);
  if (vals->rank != 1)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "Input %svalues should be a vector but received shape: %s", what, b);
  if (shape->rank != 1)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "Input %sshape should be a vector but received shape: %s", what, c);
  if (vals->dims[0] != ind->dims[0] || shape->dims[0] != ind->dims[1])
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "Input %sindices, values and shape do not agree: indices %s, "
                           "values %s, shape %s", what, a, b, c);
  return true;
}

/* Value i of a float/double/half tensor as a double. */
static double value_at(const tfc_tensor *t, int64_t i) { return tfc_tensor_get_double(t, i); }

/* Stores v as element i of a float/double/half/int tensor. */
static void store(tfc_tensor *t, int64_t i, double v) {
  switch (t->dtype) {
    case TFC_DTYPE_FLOAT: ((float *)t->data)[i] = (float)v; break;
    case TFC_DTYPE_DOUBLE: ((double *)t->data)[i] = v; break;
    case TFC_DTYPE_HALF: ((tfc_half *)t->data)[i] = tfc_float_to_half((float)v); break;
    case TFC_DTYPE_BFLOAT16: ((uint16_t *)t->data)[i] = tfc_float_to_bfloat16((float)v); break;
    case TFC_DTYPE_INT32: ((int32_t *)t->data)[i] = (int32_t)v; break;
    case TFC_DTYPE_INT64: ((int64_t *)t->data)[i] = (int64_t)v; break;
    case TFC_DTYPE_INT16: ((int16_t *)t->data)[i] = (int16_t)v; break;
    case TFC_DTYPE_INT8: ((int8_t *)t->data)[i] = (int8_t)v; break;
    case TFC_DTYPE_UINT8: ((uint8_t *)t->data)[i] = (uint8_t)v; break;
    case TFC_DTYPE_UINT16: ((uint16_t *)t->data)[i] = (uint16_t)v; break;
    case TFC_DTYPE_UINT32: ((uint32_t *)t->data)[i] = (uint32_t)v; break;
    case TFC_DTYPE_UINT64: ((uint64_t *)t->data)[i] = (uint64_t)v; break;
    default: break;
  }
}

/* ---------------------------------------------------------- SparseSoftmax */

/* SparseSoftmax(sp_indices, sp_values, sp_shape): for each run of entries
 * sharing all coordinates but the last, values -> exp(v - max) / sum. */
void sparse_softmax_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *ind = ctx->inputs[0], *vals = ctx->inputs[1], *shape = ctx->inputs[2];
  if (!check_coo(ctx, ind, vals, shape, "")) return;
  if (shape->dims[0] < 2) {
    char a[160];
    arr_dims_str(shape->rank, shape->dims, a, sizeof a);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Input should have rank >= 2, but received shape: %s", a);
    return;
  }
  int64_t n = ind->dims[0], r = ind->dims[1];
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, vals->dtype, 1, vals->dims);
  if (out == NULL) return;
  const int64_t *idx = ind->data;
  for (int64_t start = 0; start < n;) {
    int64_t end = start + 1;
    while (end < n && memcmp(idx + end * r, idx + start * r, (size_t)(r - 1) * sizeof *idx) == 0)
      end++;
    double mx = -INFINITY;
    for (int64_t k = start; k < end; k++) mx = fmax(mx, value_at(vals, k));
    double sum = 0;
    for (int64_t k = start; k < end; k++) sum += exp(value_at(vals, k) - mx);
    for (int64_t k = start; k < end; k++) store(out, k, exp(value_at(vals, k) - mx) / sum);
    start = end;
  }
}

/* ------------------------------------------- SparseSparseMaximum / Minimum */

/* -1, 0 or 1: row-major order of coordinate rows a and b of length r. */
static int coord_cmp(const int64_t *a, const int64_t *b, int64_t r) {
  for (int64_t j = 0; j < r; j++)
    if (a[j] != b[j]) return a[j] < b[j] ? -1 : 1;
  return 0;
}

/* Shared by SparseSparseMaximum (take_max) and SparseSparseMinimum: merges
 * the two ordered entry lists; a coordinate present on one side only is
 * combined with 0. */
static void sparse_sparse_minmax(tfc_kernel_ctx *ctx, bool take_max) {
  const tfc_tensor *ai = ctx->inputs[0], *av = ctx->inputs[1], *as = ctx->inputs[2];
  const tfc_tensor *bi = ctx->inputs[3], *bv = ctx->inputs[4], *bs = ctx->inputs[5];
  if (!check_coo(ctx, ai, av, as, "a_") || !check_coo(ctx, bi, bv, bs, "b_")) return;
  if (as->dims[0] != bs->dims[0]) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Operands do not have the same ranks; got shapes: [%lld] and [%lld]",
                    (long long)as->dims[0], (long long)bs->dims[0]);
    return;
  }
  int64_t r = as->dims[0];
  for (int64_t j = 0; j < r; j++) {
    int64_t x = tfc_tensor_get_int64(as, j), y = tfc_tensor_get_int64(bs, j);
    if (x != y) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                      "Operands' shapes do not match: got %lld and %lld for dimension %lld",
                      (long long)x, (long long)y, (long long)j);
      return;
    }
  }
  int64_t na = ai->dims[0], nb = bi->dims[0];
  const int64_t *pa = ai->data, *pb = bi->data;
  /* first pass: the size of the union */
  int64_t nu = 0;
  for (int64_t i = 0, k = 0; i < na || k < nb; nu++) {
    int c = i >= na ? 1 : k >= nb ? -1 : coord_cmp(pa + i * r, pb + k * r, r);
    if (c <= 0) i++;
    if (c >= 0) k++;
  }
  int64_t odims[2] = {nu, r};
  tfc_tensor *oi = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_INT64, 2, odims);
  tfc_tensor *ov = oi ? tfc_kernel_alloc_output(ctx, 1, av->dtype, 1, &nu) : NULL;
  if (ov == NULL) return;
  int64_t *dst = oi->data;
  int64_t o = 0;
  bool is_int = tfc_dtype_is_integer(av->dtype);
  for (int64_t i = 0, k = 0; i < na || k < nb; o++) {
    int c = i >= na ? 1 : k >= nb ? -1 : coord_cmp(pa + i * r, pb + k * r, r);
    int64_t ia = -1, ib = -1;
    if (c <= 0) {
      if (r > 0) memcpy(dst + o * r, pa + i * r, (size_t)r * sizeof *dst);
      ia = i++;
    }
    if (c >= 0) {
      if (c > 0 && r > 0) memcpy(dst + o * r, pb + k * r, (size_t)r * sizeof *dst);
      ib = k++;
    }
    if (is_int) {  /* exact for 64-bit integers */
      int64_t x = ia >= 0 ? tfc_tensor_get_int64(av, ia) : 0;
      int64_t y = ib >= 0 ? tfc_tensor_get_int64(bv, ib) : 0;
      int64_t v = take_max ? (x > y ? x : y) : (x < y ? x : y);
      if (ov->dtype == TFC_DTYPE_INT64) ((int64_t *)ov->data)[o] = v;
      else store(ov, o, (double)v);
    } else {
      double x = ia >= 0 ? value_at(av, ia) : 0, y = ib >= 0 ? value_at(bv, ib) : 0;
      store(ov, o, take_max ? (x > y ? x : y) : (x < y ? x : y));
    }
  }
}

/* SparseSparseMaximum: the element-wise maximum of two sparse tensors. */
void sparse_sparse_maximum_compute(tfc_kernel_ctx *ctx) { sparse_sparse_minmax(ctx, true); }

/* SparseSparseMinimum: the element-wise minimum of two sparse tensors. */
void sparse_sparse_minimum_compute(tfc_kernel_ctx *ctx) { sparse_sparse_minmax(ctx, false); }
