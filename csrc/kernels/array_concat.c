/*
 * array_concat.c — ConcatV2, the old Concat (axis first) and Pack.
 *
 * All three view the output as [outer, total] and each input i as
 * [outer, width_i] (outer = product of the dims before the axis), and copy
 * every input as a column block with one strided copy (contiguous rows: one
 * memcpy per row, or a single memcpy when outer == 1).
 */
#include <stdio.h>
#include <string.h>

#include "kernels/array_internal.h"

/* Copies input block i ([outer, width]) into columns [col, col+width) of out ([outer, total]). */
static bool copy_block(tfc_kernel_ctx *ctx, tfc_tensor *out, const tfc_tensor *in, int64_t outer,
                       int64_t width, int64_t total, int64_t col) {
  if (outer == 0 || width == 0) return true;
  size_t es = tfc_dtype_size(out->dtype);
  int64_t dims[2] = {outer, width}, ds[2] = {total, 1}, ss[2] = {width, 1};
  return arr_strided_copy(ctx, out->dtype, 2, dims, (char *)out->data + (size_t)col * es, ds,
                          in->data, ss);
}

/* Concatenates values[0..n) along the axis given by axis_t (`what` names it in messages). */
static void concat(tfc_kernel_ctx *ctx, tfc_tensor *const *values, int n, const tfc_tensor *axis_t,
                   const char *what) {
  int64_t concat_dim;
  if (!arr_scalar_index(ctx, axis_t, what, &concat_dim)) return;
  const tfc_tensor *first = values[0];
  int rank = first->rank;
  int64_t axis = concat_dim < 0 ? concat_dim + rank : concat_dim;
  if (axis < 0 || axis >= rank) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "ConcatOp : Expected concatenating dimensions in the range [%d, %d), but got %lld",
                    -rank, rank, (long long)concat_dim);
    return;
  }
  int64_t total_axis = 0;
  int nonempty = 0, last_nonempty = -1;
  for (int i = 0; i < n; i++) {
    const tfc_tensor *in = values[i];
    char a[128], b[128];
    if (in->rank != rank) {
      arr_dims_str(first->rank, first->dims, a, sizeof a);
      arr_dims_str(in->rank, in->dims, b, sizeof b);
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                      "ConcatOp : Ranks of all input tensors should match: shape[0] = %s vs. shape[%d] = %s",
                      a, i, b);
      return;
    }
    for (int j = 0; j < rank; j++) {
      if (j != axis && in->dims[j] != first->dims[j]) {
        arr_dims_str(first->rank, first->dims, a, sizeof a);
        arr_dims_str(in->rank, in->dims, b, sizeof b);
        tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                        "ConcatOp : Dimension %d in both shapes must be equal: shape[0] = %s vs. "
                        "shape[%d] = %s",
                        j, a, i, b);
        return;
      }
    }
    total_axis += in->dims[axis];
    if (in->nelems > 0) {
      nonempty++;
      last_nonempty = i;
    }
  }
  int64_t dims[TFC_MAX_RANK];
  memcpy(dims, first->dims, sizeof(int64_t) * (size_t)rank);
  dims[axis] = total_axis;
  if (nonempty == 1 && values[last_nonempty]->dims[axis] == total_axis) {
    tfc_kernel_set_output(ctx, 0, tfc_tensor_ref(values[last_nonempty]));
    return;
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, first->dtype, rank, dims);
  if (!out || out->nelems == 0) return;
  int64_t outer = 1, after = 1;
  for (int j = 0; j < axis; j++) outer *= dims[j];
  for (int j = (int)axis + 1; j < rank; j++) after *= dims[j];
  int64_t total = total_axis * after, col = 0;
  for (int i = 0; i < n; i++) {
    int64_t width = values[i]->dims[axis] * after;
    if (!copy_block(ctx, out, values[i], outer, width, total, col)) return;
    col += width;
  }
}

/* ConcatV2(values..., axis). */
void arr_concat_v2_compute(tfc_kernel_ctx *ctx) {
  concat(ctx, ctx->inputs, ctx->n_inputs - 1, ctx->inputs[ctx->n_inputs - 1], "axis");
}

/* Concat(concat_dim, values...). */
void arr_concat_compute(tfc_kernel_ctx *ctx) {
  concat(ctx, ctx->inputs + 1, ctx->n_inputs - 1, ctx->inputs[0], "concat_dim");
}

/* Pack(values...): stacks N equal-shaped tensors along a new `axis` dim. */
void arr_pack_compute(tfc_kernel_ctx *ctx) {
  int n = ctx->n_inputs;
  const tfc_tensor *first = ctx->inputs[0];
  int out_rank = first->rank + 1;
  int64_t axis_attr = 0;
  const tfc_attr_value *av = tfc_attrs_find(ctx->attrs, "axis");
  if (av && av->kind == TFC_ATTR_I) axis_attr = av->v.i;
  int64_t axis = axis_attr < 0 ? axis_attr + out_rank : axis_attr;
  if (axis < 0 || axis >= out_rank) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "axis = %lld not in [%d, %d)",
                    (long long)axis_attr, -out_rank, out_rank);
    return;
  }
  if (out_rank > TFC_MAX_RANK) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Pack would exceed the maximum rank %d",
                    TFC_MAX_RANK);
    return;
  }
  for (int i = 1; i < n; i++) {
    if (!tfc_tensor_same_shape(first, ctx->inputs[i])) {
      char a[128], b[128];
      arr_dims_str(first->rank, first->dims, a, sizeof a);
      arr_dims_str(ctx->inputs[i]->rank, ctx->inputs[i]->dims, b, sizeof b);
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                      "Shapes of all inputs must match: values[0].shape = %s != values[%d].shape = %s",
                      a, i, b);
      return;
    }
  }
  int64_t dims[TFC_MAX_RANK];
  for (int i = 0, k = 0; i < out_rank; i++) dims[i] = i == axis ? n : first->dims[k++];
  if (n == 1) {
    tfc_tensor *r = tfc_tensor_reshaped(ctx->inputs[0], out_rank, dims, ctx->st);
    if (r) tfc_kernel_set_output(ctx, 0, r);
    return;
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, first->dtype, out_rank, dims);
  if (!out || out->nelems == 0) return;
  int64_t outer = 1, inner = 1;
  for (int j = 0; j < axis; j++) outer *= first->dims[j];
  for (int j = (int)axis; j < first->rank; j++) inner *= first->dims[j];
  for (int i = 0; i < n; i++)
    if (!copy_block(ctx, out, ctx->inputs[i], outer, inner, inner * n, inner * i)) return;
}

/* Writes the values of a 1-D int tensor as "2 3 4" (TF's SummarizeValue, at most 10). */
static void values_text(const tfc_tensor *t, char *buf, size_t cap) {
  size_t pos = 0;
  buf[0] = '\0';
  for (int64_t i = 0; i < t->nelems && i < 10 && pos < cap; i++)
    pos += (size_t)snprintf(buf + pos, cap - pos, "%s%lld", i ? " " : "", (long long)tfc_tensor_get_int64(t, i));
  if (t->nelems > 10 && pos < cap) snprintf(buf + pos, cap - pos, "...");
}

/* ConcatOffset(concat_dim, shape...): offset i is 0 except along the concat
 * dim, where it is the sum of the previous shapes' sizes there. */
void arr_concat_offset_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *cd = ctx->inputs[0];
  int n = ctx->n_inputs - 1;
  char a[64], b[256];
  if (cd->rank != 0) {
    arr_dims_str(cd->rank, cd->dims, a, sizeof a);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Concat dim tensor should be a scalar integer, but got shape %s", a);
    return;
  }
  for (int i = 1; i <= n; i++) {
    if (ctx->inputs[i]->rank != 1) {
      arr_dims_str(ctx->inputs[i]->rank, ctx->inputs[i]->dims, a, sizeof a);
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "input %d should be a 1-D tensor, but got shape %s", i, a);
      return;
    }
  }
  const tfc_tensor *in0 = ctx->inputs[1];
  int64_t dims = in0->nelems, cdim = tfc_tensor_get_int64(cd, 0);
  int64_t axis = cdim < 0 ? cdim + dims : cdim;
  if (axis < 0 || axis >= dims) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Concat dim is out of range: %lld vs. %lld",
                    (long long)cdim, (long long)dims);
    return;
  }
  int64_t offset = 0;
  for (int i = 0; i < n; i++) {
    const tfc_tensor *in = ctx->inputs[1 + i];
    if (in->nelems != dims) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "input %d should contain %lld elements, but got %lld",
                      i, (long long)dims, (long long)in->nelems);
      return;
    }
    tfc_tensor *out = tfc_kernel_alloc_output(ctx, i, in->dtype, 1, &dims);
    if (!out) return;
    for (int64_t j = 0; j < dims; j++) {
      int64_t v;
      if (j == axis) {
        v = offset;
        offset += tfc_tensor_get_int64(in, j);
      } else {
        if (tfc_tensor_get_int64(in0, j) != tfc_tensor_get_int64(in, j)) {
          values_text(in, a, sizeof a);
          values_text(in0, b, sizeof b);
          tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                          "All dimensions except %lld must match. Input %d has shape [%s] and doesn't "
                          "match input 0 with shape [%s].",
                          (long long)axis, i, a, b);
          return;
        }
        v = 0;
      }
      if (in->dtype == TFC_DTYPE_INT32) ((int32_t *)out->data)[j] = (int32_t)v;
      else ((int64_t *)out->data)[j] = v;
    }
  }
}
