/*
 * array_slice.c — Slice, StridedSlice and StridedSliceGrad.
 *
 * Specs are resolved by core/strided_slice.c (shared with shape inference);
 * the data moves with one strided copy over the processing shape. A slice
 * that covers the whole input is a buffer-sharing reshape.
 */
#include <string.h>

#include "core/strided_slice.h"
#include "kernels/array_internal.h"

/* Slice(input, begin, size): size -1 takes the rest of a dimension. */
void arr_slice_compute(tfc_kernel_ctx *ctx) {
  tfc_tensor *in = ctx->inputs[0], *bt = ctx->inputs[1], *st = ctx->inputs[2];
  int rank = in->rank;
  if (bt->rank != 1 || st->rank != 1 || bt->nelems != rank || st->nelems != rank) {
    char a[64], b[64];
    arr_dims_str(bt->rank, bt->dims, a, sizeof a);
    arr_dims_str(st->rank, st->dims, b, sizeof b);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Expected begin and size arguments to be 1-D tensors of size %d, but got shapes "
                    "%s and %s instead.",
                    rank, a, b);
    return;
  }
  int64_t begin[TFC_MAX_RANK], size[TFC_MAX_RANK];
  bool identity = true;
  for (int i = 0; i < rank; i++) {
    int64_t b = tfc_tensor_get_int64(bt, i), s = tfc_tensor_get_int64(st, i);
    int64_t dim = in->dims[i];
    if (s == -1) s = dim - b;
    if (dim == 0) {
      if (b != 0 || s != 0) {
        tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                        "Expected begin[%d] == 0 (got %lld) and size[%d] == 0 (got %lld) when "
                        "input.dim_size(%d) == 0",
                        i, (long long)b, i, (long long)s, i);
        return;
      }
    } else {
      if (b < 0 || b > dim) {
        tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Expected begin[%d] in [0, %lld], but got %lld",
                        i, (long long)dim, (long long)b);
        return;
      }
      if (s < 0 || b + s > dim) {
        tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Expected size[%d] in [0, %lld], but got %lld",
                        i, (long long)(dim - b), (long long)s);
        return;
      }
    }
    begin[i] = b;
    size[i] = s;
    identity &= b == 0 && s == dim;
  }
  if (identity) {
    tfc_kernel_forward(ctx, 0, 0);
    return;
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, in->dtype, rank, size);
  if (!out || out->nelems == 0) return;
  int64_t in_strides[TFC_MAX_RANK], out_strides[TFC_MAX_RANK], off = 0;
  arr_strides(rank, in->dims, in_strides);
  arr_strides(rank, size, out_strides);
  for (int i = 0; i < rank; i++) off += begin[i] * in_strides[i];
  arr_strided_copy(ctx, in->dtype, rank, size, out->data, out_strides,
                   (const char *)in->data + off * (int64_t)tfc_dtype_size(in->dtype), in_strides);
}

/* Reads the five mask attrs. */
static void read_masks(const tfc_kernel_ctx *ctx, int64_t m[5]) {
  static const char *const names[5] = {"begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask",
                                       "shrink_axis_mask"};
  for (int i = 0; i < 5; i++) {
    const tfc_attr_value *v = tfc_attrs_find(ctx->attrs, names[i]);
    m[i] = v && v->kind == TFC_ATTR_I ? v->v.i : 0;
  }
}

/* Resolves the spec of inputs begin/end/strides at b_i.. against dims. */
static bool resolve(tfc_kernel_ctx *ctx, int b_i, int rank, const int64_t *dims,
                    tfc_strided_slice *ss) {
  int64_t m[5];
  read_masks(ctx, m);
  tfc_shape s = tfc_shape_make(rank, dims);
  return tfc_strided_slice_resolve(ctx->inputs[b_i], ctx->inputs[b_i + 1], ctx->inputs[b_i + 2], &s,
                                   m[0], m[1], m[2], m[3], m[4], ss, ctx->st);
}

/* StridedSlice(input, begin, end, strides). */
void arr_strided_slice_compute(tfc_kernel_ctx *ctx) {
  tfc_tensor *in = ctx->inputs[0];
  tfc_strided_slice ss;
  if (!resolve(ctx, 1, in->rank, in->dims, &ss)) return;
  if (ss.is_identity) {
    tfc_tensor *r = tfc_tensor_reshaped(in, ss.final_rank, ss.final_dims, ctx->st);
    if (r) tfc_kernel_set_output(ctx, 0, r);
    return;
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, in->dtype, ss.final_rank, ss.final_dims);
  if (!out || out->nelems == 0) return;
  int rank = in->rank;
  int64_t in_strides[TFC_MAX_RANK], src_strides[TFC_MAX_RANK], dst_strides[TFC_MAX_RANK], off = 0;
  arr_strides(rank, in->dims, in_strides);
  arr_strides(rank, ss.processing_dims, dst_strides);
  for (int i = 0; i < rank; i++) {
    off += ss.begin[i] * in_strides[i];
    src_strides[i] = in_strides[i] * ss.strides[i];
  }
  arr_strided_copy(ctx, in->dtype, rank, ss.processing_dims, out->data, dst_strides,
                   (const char *)in->data + off * (int64_t)tfc_dtype_size(in->dtype), src_strides);
}

/* StridedSliceGrad(shape, begin, end, strides, dy): zeros of `shape` with dy
 * scattered into the sliced window. */
void arr_strided_slice_grad_compute(tfc_kernel_ctx *ctx) {
  tfc_tensor *shape_t = ctx->inputs[0], *dy = ctx->inputs[4];
  char a[128], b[128];
  if (shape_t->rank != 1) {
    arr_dims_str(shape_t->rank, shape_t->dims, a, sizeof a);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "shape must be 1-D, got shape.shape = %s", a);
    return;
  }
  if (shape_t->nelems > TFC_MAX_RANK) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "shape has more than %d dims", TFC_MAX_RANK);
    return;
  }
  int rank = (int)shape_t->nelems;
  int64_t dims[TFC_MAX_RANK];
  for (int i = 0; i < rank; i++) {
    dims[i] = tfc_tensor_get_int64(shape_t, i);
    if (dims[i] < 0) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Dimension %lld must be >= 0", (long long)dims[i]);
      return;
    }
  }
  tfc_strided_slice ss;
  if (!resolve(ctx, 1, rank, dims, &ss)) return;
  bool same = dy->rank == ss.final_rank;
  for (int i = 0; same && i < dy->rank; i++) same = dy->dims[i] == ss.final_dims[i];
  if (!same) {
    arr_dims_str(dy->rank, dy->dims, a, sizeof a);
    arr_dims_str(ss.final_rank, ss.final_dims, b, sizeof b);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "shape of dy was %s instead of %s", a, b);
    return;
  }
  if (ss.is_identity) {
    tfc_tensor *r = tfc_tensor_reshaped(dy, rank, dims, ctx->st);
    if (r) tfc_kernel_set_output(ctx, 0, r);
    return;
  }
  tfc_tensor *out = tfc_tensor_zeros(dy->dtype, rank, dims, ctx->st);
  if (!out) return;
  tfc_kernel_set_output(ctx, 0, out);
  if (dy->nelems == 0) return;
  int64_t out_strides[TFC_MAX_RANK], dst_strides[TFC_MAX_RANK], src_strides[TFC_MAX_RANK], off = 0;
  arr_strides(rank, dims, out_strides);
  arr_strides(rank, ss.processing_dims, src_strides);
  for (int i = 0; i < rank; i++) {
    off += ss.begin[i] * out_strides[i];
    dst_strides[i] = out_strides[i] * ss.strides[i];
  }
  arr_strided_copy(ctx, dy->dtype, rank, ss.processing_dims,
                   (char *)out->data + off * (int64_t)tfc_dtype_size(dy->dtype), dst_strides, dy->data,
                   src_strides);
}
