/*
 * array_reverse.c — Reverse (bool mask per dim) and ReverseV2 (axis list):
 * a strided copy with negative source strides on the reversed dims;
 * ReverseSequence (each batch entry reversed within its own length).
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

/* ReverseSequence(input, seq_lengths): for each batch entry b (along
 * batch_dim), the first seq_lengths[b] slices along seq_dim are reversed; the
 * rest are copied unchanged. Copies whole contiguous blocks of the dims after
 * max(seq_dim, batch_dim). */
void arr_reverse_sequence_compute(tfc_kernel_ctx *ctx) {
  tfc_tensor *in = ctx->inputs[0], *lens = ctx->inputs[1];
  int64_t seq_dim, batch_dim;
  if (!tfc_attrs_get_int(ctx->attrs, "seq_dim", &seq_dim, ctx->st) ||
      !tfc_attrs_get_int(ctx->attrs, "batch_dim", &batch_dim, ctx->st))
    return;
  int rank = in->rank;
  if (batch_dim < 0 || batch_dim >= rank) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Invalid batch_dim %lld", (long long)batch_dim);
    return;
  }
  if (seq_dim < 0 || seq_dim >= rank) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Invalid seq_dim %lld", (long long)seq_dim);
    return;
  }
  if (seq_dim == batch_dim) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "seq_dim == batch_dim == %lld", (long long)seq_dim);
    return;
  }
  if (lens->rank != 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "seq_lengths must be 1-dim, not %d", lens->rank);
    return;
  }
  if (lens->dims[0] != in->dims[batch_dim]) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Length of seq_lengths != input.dims(%lld), (%lld vs. %lld)", (long long)batch_dim,
                    (long long)lens->dims[0], (long long)in->dims[batch_dim]);
    return;
  }
  for (int64_t b = 0; b < lens->nelems; b++) {
    int64_t l = tfc_tensor_get_int64(lens, b);
    if (l < 0) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "seq_lens(%lld) < 0", (long long)b);
      return;
    }
    if (l > in->dims[seq_dim]) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "seq_lens(%lld) > input.dims(%lld)", (long long)b,
                      (long long)seq_dim);
      return;
    }
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, in->dtype, rank, in->dims);
  if (!out || in->nelems == 0) return;
  int last = (int)(seq_dim > batch_dim ? seq_dim : batch_dim);
  int64_t block = arr_num_elements(rank - last - 1, in->dims + last + 1);
  int64_t strides[TFC_MAX_RANK];
  arr_strides(rank, in->dims, strides);
  int64_t outer = arr_num_elements(last + 1, in->dims);
  size_t es = tfc_dtype_size(in->dtype);
  int64_t idx[TFC_MAX_RANK] = {0};
  for (int64_t k = 0; k < outer; k++) {
    int64_t l = tfc_tensor_get_int64(lens, idx[batch_dim]);
    int64_t s = idx[seq_dim];
    int64_t src_s = s < l ? l - 1 - s : s;
    int64_t dst_off = 0;
    for (int d = 0; d <= last; d++) dst_off += idx[d] * strides[d];
    int64_t src_off = dst_off + (src_s - s) * strides[seq_dim];
    if (!arr_copy(ctx, in->dtype, (char *)out->data + (size_t)dst_off * es,
                  (const char *)in->data + (size_t)src_off * es, block))
      return;
    for (int d = last; d >= 0; d--) {
      if (++idx[d] < in->dims[d]) break;
      idx[d] = 0;
    }
  }
}
