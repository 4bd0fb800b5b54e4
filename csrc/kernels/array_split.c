/*
 * array_split.c — Split, SplitV and Unpack: the inverse of array_concat.c.
 * The input is viewed as [outer, total] and output i takes the column block
 * [col_i, col_i + width_i) with one strided copy.
 */
#include <string.h>

#include "base/alloc.h"
#include "kernels/array_internal.h"

/* Copies columns [col, col+width) of in ([outer, total]) into out ([outer, width]). */
static bool take_block(tfc_kernel_ctx *ctx, tfc_tensor *out, const tfc_tensor *in, int64_t outer,
                       int64_t width, int64_t total, int64_t col) {
  if (outer == 0 || width == 0) return true;
  size_t es = tfc_dtype_size(in->dtype);
  int64_t dims[2] = {outer, width}, ds[2] = {width, 1}, ss[2] = {total, 1};
  return arr_strided_copy(ctx, in->dtype, 2, dims, out->data, ds,
                          (const char *)in->data + (size_t)col * es, ss);
}

/* Splits `in` along axis into pieces of sizes[i] (summing to the axis dim). */
static void split_pieces(tfc_kernel_ctx *ctx, tfc_tensor *in, int axis, const int64_t *sizes, int n) {
  int64_t outer = 1, after = 1;
  for (int j = 0; j < axis; j++) outer *= in->dims[j];
  for (int j = axis + 1; j < in->rank; j++) after *= in->dims[j];
  int64_t total = in->dims[axis] * after, col = 0;
  int64_t dims[TFC_MAX_RANK];
  memcpy(dims, in->dims, sizeof(int64_t) * (size_t)in->rank);
  for (int i = 0; i < n; i++) {
    dims[axis] = sizes[i];
    tfc_tensor *out = tfc_kernel_alloc_output(ctx, i, in->dtype, in->rank, dims);
    if (!out) return;
    int64_t width = sizes[i] * after;
    if (!take_block(ctx, out, in, outer, width, total, col)) return;
    col += width;
  }
}

/* Normalises a split_dim against rank; false + ctx failed when out of range. */
static bool split_axis(tfc_kernel_ctx *ctx, const tfc_tensor *t, int rank, int *axis) {
  if (t->nelems != 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "split_dim_tensor must have exactly one element.");
    return false;
  }
  int64_t orig = tfc_tensor_get_int64(t, 0);
  int64_t a = orig < 0 ? orig + rank : orig;
  if (a < 0 || a >= rank) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "-input rank(-%d) <= split_dim < input rank (%d), but got %lld", rank, rank,
                    (long long)orig);
    return false;
  }
  *axis = (int)a;
  return true;
}

/* Split(split_dim, value): num_split equal pieces. */
void arr_split_compute(tfc_kernel_ctx *ctx) {
  tfc_tensor *in = ctx->inputs[1];
  int n = ctx->n_outputs, axis;
  if (!split_axis(ctx, ctx->inputs[0], in->rank, &axis)) return;
  if (n <= 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Number of ways to split should be > 0, but got %d", n);
    return;
  }
  if (in->dims[axis] % n != 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Number of ways to split should evenly divide the split dimension, but got "
                    "split_dim %d (size = %lld) and num_split %d",
                    axis, (long long)in->dims[axis], n);
    return;
  }
  if (n == 1) {
    tfc_kernel_forward(ctx, 1, 0);
    return;
  }
  int64_t *sizes = tfc_malloc(sizeof(int64_t) * (size_t)n);
  if (!sizes) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in Split");
    return;
  }
  for (int i = 0; i < n; i++) sizes[i] = in->dims[axis] / n;
  split_pieces(ctx, in, axis, sizes, n);
  tfc_free(sizes);
}

/* SplitV(value, size_splits, split_dim): pieces of the given sizes (one may be -1). */
void arr_split_v_compute(tfc_kernel_ctx *ctx) {
  tfc_tensor *in = ctx->inputs[0], *st = ctx->inputs[1];
  int n = ctx->n_outputs, axis = 0;
  if (ctx->inputs[2]->nelems != 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "split_dim_tensor must have exactly one element.");
    return;
  }
  if (st->rank != 1 || st->nelems != n) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "size of the split_tensor must be 1-D and have the same elements as outputs got "
                    "%d -D and %lld elements",
                    st->rank, (long long)st->nelems);
    return;
  }
  if (n <= 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Number of ways to split should be > 0, but got %d", n);
    return;
  }
  if (!split_axis(ctx, ctx->inputs[2], in->rank, &axis)) return;
  int64_t dim = in->dims[axis];
  if (n == 1) {
    int64_t s0 = tfc_tensor_get_int64(st, 0);
    if (s0 != dim && s0 != -1) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                      "If there is only one output, it must have the same size as the input. Input "
                      "size: %lld output size: %lld",
                      (long long)dim, (long long)s0);
      return;
    }
    tfc_kernel_forward(ctx, 0, 0);
    return;
  }
  int64_t *sizes = tfc_malloc(sizeof(int64_t) * (size_t)n);
  if (!sizes) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in SplitV");
    return;
  }
  int neg_one = -1;
  int64_t determined = 0;
  bool ok = true;
  for (int i = 0; i < n && ok; i++) {
    sizes[i] = tfc_tensor_get_int64(st, i);
    if (sizes[i] == -1) {
      if (neg_one != -1)
        ok = tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "There can only be one -1 in the input.");
      neg_one = i;
    } else {
      determined += sizes[i];
    }
  }
  if (ok && !((neg_one == -1 && determined == dim) || (neg_one >= 0 && determined <= dim)))
    ok = tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                         "Determined shape must either match input shape along split_dim exactly if "
                         "fully specified, or be less than the size of the input along split_dim if "
                         "not fully specified.  Got: %lld",
                         (long long)determined);
  if (ok && neg_one >= 0) sizes[neg_one] = dim - determined;
  for (int i = 0; i < n && ok; i++)
    if (sizes[i] < 0)
      ok = tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Split size at index %d must be >= 0. Got: %lld",
                           i, (long long)sizes[i]);
  if (ok) split_pieces(ctx, in, axis, sizes, n);
  tfc_free(sizes);
}

/* Unpack(value): num tensors, slices along `axis`. */
void arr_unpack_compute(tfc_kernel_ctx *ctx) {
  tfc_tensor *in = ctx->inputs[0];
  int num = ctx->n_outputs, rank = in->rank;
  int64_t axis_attr = 0;
  const tfc_attr_value *av = tfc_attrs_find(ctx->attrs, "axis");
  if (av && av->kind == TFC_ATTR_I) axis_attr = av->v.i;
  int64_t axis = axis_attr < 0 ? axis_attr + rank : axis_attr;
  if (axis < 0 || axis >= rank) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "axis = %lld not in [%d, %d)", (long long)axis_attr,
                    -rank, rank);
    return;
  }
  if (in->dims[axis] != num) {
    char s[128];
    arr_dims_str(in->rank, in->dims, s, sizeof s);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Input shape axis %lld must equal %d, got shape %s",
                    (long long)axis, num, s);
    return;
  }
  int64_t dims[TFC_MAX_RANK];
  int out_rank = 0;
  for (int j = 0; j < rank; j++)
    if (j != axis) dims[out_rank++] = in->dims[j];
  if (num == 1) {
    tfc_tensor *r = tfc_tensor_reshaped(in, out_rank, dims, ctx->st);
    if (r) tfc_kernel_set_output(ctx, 0, r);
    return;
  }
  int64_t outer = 1, after = 1;
  for (int j = 0; j < axis; j++) outer *= in->dims[j];
  for (int j = (int)axis + 1; j < rank; j++) after *= in->dims[j];
  for (int i = 0; i < num; i++) {
    tfc_tensor *out = tfc_kernel_alloc_output(ctx, i, in->dtype, out_rank, dims);
    if (!out) return;
    if (!take_block(ctx, out, in, outer, after, after * num, after * i)) return;
  }
}
