/*
 * array_roll.c — Roll(input, shift, axis): every element moves `shift`
 * places along its axis, wrapping around; shifts of an axis named several
 * times add up. Each rolled axis splits the output into two blocks (the
 * wrapped part and the rest), so a roll over k axes is 2^k strided copies
 * (arr_strided_copy: any dtype, strings deep-copied).
 */
#include <stdint.h>

#include "kernels/array_internal.h"

/* Roll. */
void arr_roll_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *x = ctx->inputs[0], *sh = ctx->inputs[1], *ax = ctx->inputs[2];
  char a[64], b[64];
  if (x->rank < 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "input must be 1-D or higher");
    return;
  }
  if (sh->rank > 1) {
    arr_dims_str(sh->rank, sh->dims, a, sizeof a);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "shift must be a scalar or a 1-D vector. Found: %s", a);
    return;
  }
  if (ax->rank > 1) {
    arr_dims_str(ax->rank, ax->dims, a, sizeof a);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "axis must be a scalar or a 1-D vector. Found: %s", a);
    return;
  }
  if (sh->nelems != ax->nelems || sh->rank != ax->rank) {
    arr_dims_str(sh->rank, sh->dims, a, sizeof a);
    arr_dims_str(ax->rank, ax->dims, b, sizeof b);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "shift and axis must have the same size; got shift %s and axis %s", a, b);
    return;
  }
  int rank = x->rank;
  int64_t total[TFC_MAX_RANK] = {0};
  for (int64_t i = 0; i < sh->nelems; i++) {
    int64_t axis = tfc_tensor_get_int64(ax, i);
    if (axis < -rank || axis >= rank) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "axis %lld is out of range",
                      (long long)axis);
      return;
    }
    if (axis < 0) axis += rank;
    int64_t n = x->dims[axis];
    if (n == 0) continue;
    int64_t s = tfc_tensor_get_int64(sh, i) % n;
    total[axis] = ((total[axis] + s) % n + n) % n;
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, x->dtype, rank, x->dims);
  if (!out || x->nelems == 0) return;
  int64_t strides[TFC_MAX_RANK];
  arr_strides(rank, x->dims, strides);
  int rolled[TFC_MAX_RANK], k = 0;
  for (int d = 0; d < rank; d++)
    if (total[d]) rolled[k++] = d;
  size_t es = tfc_dtype_size(x->dtype);
  for (int mask = 0; mask < (1 << k); mask++) {
    int64_t dims[TFC_MAX_RANK];
    int64_t doff = 0, soff = 0;
    for (int d = 0; d < rank; d++) dims[d] = x->dims[d];
    for (int r = 0; r < k; r++) {
      int d = rolled[r];
      int64_t n = x->dims[d], s = total[d];
      if (mask & (1 << r)) {       /* output [0, s) <- input [n - s, n) */
        dims[d] = s;
        soff += (n - s) * strides[d];
      } else {                     /* output [s, n) <- input [0, n - s) */
        dims[d] = n - s;
        doff += s * strides[d];
      }
    }
    if (!arr_strided_copy(ctx, x->dtype, rank, dims, (char *)out->data + (size_t)doff * es,
                          strides, (const char *)x->data + (size_t)soff * es, strides))
      return;
  }
}
