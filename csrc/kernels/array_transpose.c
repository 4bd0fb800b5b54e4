/*
 * array_transpose.c — Transpose (a permuted strided copy; a reshape when only
 * size-1 dims move) and InvertPermutation.
 */
#include <stdio.h>
#include <string.h>

#include "kernels/array_internal.h"

/* Transpose(x, perm): y.dims[i] = x.dims[perm[i]]. */
void arr_transpose_compute(tfc_kernel_ctx *ctx) {
  tfc_tensor *in = ctx->inputs[0], *perm_t = ctx->inputs[1];
  char s[64];
  if (perm_t->rank != 1) {
    arr_dims_str(perm_t->rank, perm_t->dims, s, sizeof s);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "perm must be a vector, not %s", s);
    return;
  }
  int rank = in->rank;
  if (perm_t->nelems != rank) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "transpose expects a vector of size %d. But input(1) is a vector of size %lld",
                    rank, (long long)perm_t->nelems);
    return;
  }
  int perm[TFC_MAX_RANK];
  bool seen[TFC_MAX_RANK] = {false};
  for (int i = 0; i < rank; i++) {
    int64_t d = tfc_tensor_get_int64(perm_t, i);
    if (d < 0 && d >= -rank) d += rank;
    if (d < 0 || d >= rank) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%lld is out of range [0 .. %d)", (long long)d,
                      rank);
      return;
    }
    perm[i] = (int)d;
    seen[d] = true;
  }
  for (int i = 0; i < rank; i++) {
    if (!seen[i]) {
      char list[256];
      size_t pos = 0;
      list[0] = '\0';
      for (int k = 0; k < rank && pos < sizeof list; k++)
        pos += (size_t)snprintf(list + pos, sizeof list - pos, "%s%lld", k ? "," : "",
                                (long long)tfc_tensor_get_int64(perm_t, k));
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%d is missing from {%s}.", i, list);
      return;
    }
  }
  int64_t out_dims[TFC_MAX_RANK], in_strides[TFC_MAX_RANK], src_strides[TFC_MAX_RANK];
  int64_t dst_strides[TFC_MAX_RANK];
  bool in_order = true;
  int last = -1;
  for (int i = 0; i < rank; i++) {
    out_dims[i] = in->dims[perm[i]];
    if (out_dims[i] != 1) {
      if (perm[i] < last) in_order = false;
      last = perm[i];
    }
  }
  if (in_order) { /* only size-1 dims move: same memory order */
    tfc_tensor *r = tfc_tensor_reshaped(in, rank, out_dims, ctx->st);
    if (r) tfc_kernel_set_output(ctx, 0, r);
    return;
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, in->dtype, rank, out_dims);
  if (!out || out->nelems == 0) return;
  arr_strides(rank, in->dims, in_strides);
  arr_strides(rank, out_dims, dst_strides);
  for (int i = 0; i < rank; i++) src_strides[i] = in_strides[perm[i]];
  arr_strided_copy(ctx, in->dtype, rank, out_dims, out->data, dst_strides, in->data, src_strides);
}

/* InvertPermutation(x): y[x[i]] = i. */
void arr_invert_permutation_compute(tfc_kernel_ctx *ctx) {
  tfc_tensor *x = ctx->inputs[0];
  if (x->rank != 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "invert_permutation expects a 1D vector.");
    return;
  }
  int64_t n = x->nelems;
  if (n > INT32_MAX) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "permutation of nonnegative int32s must have <= int32 max elements");
    return;
  }
  tfc_tensor *y = tfc_kernel_alloc_output(ctx, 0, x->dtype, 1, &n);
  if (!y || n == 0) return;
  bool is32 = x->dtype == TFC_DTYPE_INT32;
  if (is32) memset(y->data, 0xff, (size_t)n * 4);  /* -1 marks unset */
  else memset(y->data, 0xff, (size_t)n * 8);
  for (int64_t i = 0; i < n; i++) {
    int64_t d = tfc_tensor_get_int64(x, i);
    if (d < 0 || d >= n) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%lld is not between 0 and %lld", (long long)d,
                      (long long)n);
      return;
    }
    int64_t prev = is32 ? ((int32_t *)y->data)[d] : ((int64_t *)y->data)[d];
    if (prev != -1) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%lld is duplicated in the input.", (long long)d);
      return;
    }
    if (is32) ((int32_t *)y->data)[d] = (int32_t)i;
    else ((int64_t *)y->data)[d] = i;
  }
}
