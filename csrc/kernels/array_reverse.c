/*
 * array_reverse.c — Reverse (bool mask per dim) and ReverseV2 (axis list):
 * a strided copy with negative source strides on the reversed dims.
 */
#include "kernels/array_internal.h"

/* Writes input 0 reversed along the dims flagged in rev (forwards when none moves). */
static void reverse_dims(tfc_kernel_ctx *ctx, const bool *rev) {
  tfc_tensor *in = ctx->inputs[0];
  int rank = in->rank;
  bool any = false;
  for (int i = 0; i < rank; i++) any |= rev[i] && in->dims[i] > 1;
  if (!any || in->nelems == 0) {
    tfc_kernel_forward(ctx, 0, 0);
    return;
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, in->dtype, rank, in->dims);
  if (!out) return;
  int64_t strides[TFC_MAX_RANK], src[TFC_MAX_RANK], off = 0;
  arr_strides(rank, in->dims, strides);
  for (int i = 0; i < rank; i++) {
    src[i] = rev[i] ? -strides[i] : strides[i];
    if (rev[i]) off += (in->dims[i] - 1) * strides[i];
  }
  arr_strided_copy(ctx, in->dtype, rank, in->dims, out->data, strides,
                   (const char *)in->data + off * (int64_t)tfc_dtype_size(in->dtype), src);
}

/* Reverse(tensor, dims): dims is a bool per input dim. */
void arr_reverse_compute(tfc_kernel_ctx *ctx) {
  tfc_tensor *in = ctx->inputs[0], *dims = ctx->inputs[1];
  if (in->rank == 0) {
    tfc_kernel_forward(ctx, 0, 0);
    return;
  }
  if (dims->rank != 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "'dims' must be 1-dimension, not %d", dims->rank);
    return;
  }
  if (dims->dims[0] != in->rank) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "'dims' must have the same number of values as 'input' has dimensions. 'input' "
                    "has %d'dims' has %lld values",
                    in->rank, (long long)dims->dims[0]);
    return;
  }
  bool rev[TFC_MAX_RANK];
  for (int i = 0; i < in->rank; i++) rev[i] = tfc_tensor_get_int64(dims, i) != 0;
  reverse_dims(ctx, rev);
}

/* ReverseV2(tensor, axis): axis lists distinct dims (negative from the end). */
void arr_reverse_v2_compute(tfc_kernel_ctx *ctx) {
  tfc_tensor *in = ctx->inputs[0], *axis = ctx->inputs[1];
  if (in->rank == 0 || in->nelems == 0) {
    tfc_kernel_forward(ctx, 0, 0);
    return;
  }
  if (axis->rank != 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "'dims' must be 1-dimension, not %d", axis->rank);
    return;
  }
  bool rev[TFC_MAX_RANK] = {false};
  for (int64_t k = 0; k < axis->nelems; k++) {
    int64_t a = tfc_tensor_get_int64(axis, k);
    int64_t c = a < 0 ? a + in->rank : a;
    if (c < 0 || c >= in->rank) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "'axis'[%lld] = %lld is out of valid range [0, %d",
                      (long long)k, (long long)a, in->rank - 1);
      return;
    }
    if (rev[c]) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "axis %lld specified more than once.", (long long)c);
      return;
    }
    rev[c] = true;
  }
  reverse_dims(ctx, rev);
}
