/*
 * array_tile.c — Tile and BroadcastTo, both strided copies whose repeated
 * source dims have stride 0. Tile views output dim i (size m_i * d_i) as the
 * pair (m_i, d_i) with source strides (0, stride_i).
 */
#include <string.h>

#include "kernels/array_internal.h"

/* Tile(input, multiples). */
void arr_tile_compute(tfc_kernel_ctx *ctx) {
  tfc_tensor *in = ctx->inputs[0], *mt = ctx->inputs[1];
  int rank = in->rank;
  if (mt->rank > 1 || mt->nelems != rank) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Expected multiples argument to be a vector of length %d but got length %lld", rank,
                    (long long)(mt->rank ? mt->dims[0] : 1));
    return;
  }
  if (rank == 0) {
    tfc_kernel_forward(ctx, 0, 0);
    return;
  }
  int64_t mult[TFC_MAX_RANK], out_dims[TFC_MAX_RANK];
  bool same = true;
  for (int i = 0; i < rank; i++) {
    mult[i] = tfc_tensor_get_int64(mt, i);
    if (mult[i] < 0) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Expected multiples[%d] >= 0, but got %lld", i,
                      (long long)mult[i]);
      return;
    }
    if (__builtin_mul_overflow(in->dims[i], mult[i], &out_dims[i])) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Tile output dimension %d overflows", i);
      return;
    }
    same &= out_dims[i] == in->dims[i];
  }
  if (same) {
    tfc_kernel_forward(ctx, 0, 0);
    return;
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, in->dtype, rank, out_dims);
  if (!out || out->nelems == 0) return;
  int64_t in_strides[TFC_MAX_RANK], out_strides[TFC_MAX_RANK];
  int64_t dims[ARR_MAX_VRANK], ds[ARR_MAX_VRANK], ss[ARR_MAX_VRANK];
  arr_strides(rank, in->dims, in_strides);
  arr_strides(rank, out_dims, out_strides);
  for (int i = 0; i < rank; i++) {
    dims[2 * i] = mult[i];
    ds[2 * i] = in->dims[i] * out_strides[i];
    ss[2 * i] = 0;
    dims[2 * i + 1] = in->dims[i];
    ds[2 * i + 1] = out_strides[i];
    ss[2 * i + 1] = in_strides[i];
  }
  arr_strided_copy(ctx, in->dtype, 2 * rank, dims, out->data, ds, in->data, ss);
}

/* BroadcastTo(input, shape): NumPy broadcasting of input to `shape`. */
void arr_broadcast_to_compute(tfc_kernel_ctx *ctx) {
  tfc_tensor *in = ctx->inputs[0], *st = ctx->inputs[1];
  char a[128], b[128];
  if (st->rank != 1) {
    arr_dims_str(st->rank, st->dims, a, sizeof a);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "shape must be a vector of {int32,int64}, got shape %s", a);
    return;
  }
  if (st->nelems > TFC_MAX_RANK) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "BroadcastTo shape has more than %d dims", TFC_MAX_RANK);
    return;
  }
  int rank = (int)st->nelems;
  int64_t dims[TFC_MAX_RANK] = {0};
  for (int i = 0; i < rank; i++) {
    dims[i] = tfc_tensor_get_int64(st, i);
    if (dims[i] < 0) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Dimension %lld must be >= 0", (long long)dims[i]);
      return;
    }
  }
  bool same = rank == in->rank;
  for (int i = 0; same && i < rank; i++) same = dims[i] == in->dims[i];
  if (same) {
    tfc_kernel_forward(ctx, 0, 0);
    return;
  }
  if (in->rank > rank) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Rank of input (%d) must be no greater than rank of output shape (%d).", in->rank, rank);
    return;
  }
  int64_t n = arr_num_elements(rank, dims);
  int64_t in_strides[TFC_MAX_RANK], src[TFC_MAX_RANK], dst[TFC_MAX_RANK];
  arr_strides(in->rank, in->dims, in_strides);
  int off = rank - in->rank;
  for (int i = 0; i < rank; i++) {
    int k = i - off;
    int64_t d = k >= 0 ? in->dims[k] : 1;
    if (n > 0 && d != dims[i] && d != 1) {
      arr_dims_str(in->rank, in->dims, a, sizeof a);
      arr_dims_str(rank, dims, b, sizeof b);
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Incompatible shapes: %s vs. %s", a, b);
      return;
    }
    src[i] = k >= 0 && d != 1 ? in_strides[k] : 0;
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, in->dtype, rank, dims);
  if (!out || n == 0) return;
  arr_strides(rank, dims, dst);
  arr_strided_copy(ctx, in->dtype, rank, dims, out->data, dst, in->data, src);
}
