/*
 * array_fill.c — kernels that synthesise tensors: Fill, Range and OneHot.
 */
#include <stdio.h>
#include <string.h>

#include "core/shape_fns_array.h"
#include "kernels/array_internal.h"

/* Fill(dims, value): a tensor of shape dims with every element = value. */
void arr_fill_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *dt = ctx->inputs[0], *vt = ctx->inputs[1];
  char s[64];
  if (dt->rank != 1) {
    arr_dims_str(dt->rank, dt->dims, s, sizeof s);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "dims must represent a vector, got shape %s", s);
    return;
  }
  if (vt->rank != 0) {
    arr_dims_str(vt->rank, vt->dims, s, sizeof s);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "value must represent a scalar, got shape %s", s);
    return;
  }
  if (dt->nelems > TFC_MAX_RANK) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Fill: rank %lld exceeds the maximum rank %d",
                    (long long)dt->nelems, TFC_MAX_RANK);
    return;
  }
  int rank = (int)dt->nelems;
  int64_t dims[TFC_MAX_RANK];
  for (int i = 0; i < rank; i++) {
    dims[i] = tfc_tensor_get_int64(dt, i);
    if (dims[i] < 0) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Dimension %lld must be >= 0", (long long)dims[i]);
      return;
    }
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, vt->dtype, rank, dims);
  if (!out || out->nelems == 0) return;
  arr_fill(ctx, vt->dtype, out->data, vt->data, out->nelems);
}

/* Checks that a Range argument holds exactly one value. */
static bool range_scalar(tfc_kernel_ctx *ctx, const tfc_tensor *t, const char *what) {
  if (t->nelems == 1 && t->rank <= 1) return true;
  char s[64];
  arr_dims_str(t->rank, t->dims, s, sizeof s);
  return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s must be a scalar, not shape %s", what, s);
}

/* Range(start, limit, delta): start + i * delta for i in [0, size), in the
 * arithmetic of Tidx (half/bfloat16 products and sums rounded to the type). */
void arr_range_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *st = ctx->inputs[0], *lt = ctx->inputs[1], *dt = ctx->inputs[2];
  if (!range_scalar(ctx, st, "start") || !range_scalar(ctx, lt, "limit") ||
      !range_scalar(ctx, dt, "delta"))
    return;
  tfc_dtype t = st->dtype;
  int64_t size;
  if (!tfc_array_range_size(t, st, lt, dt, &size, ctx->st)) return;
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, t, 1, &size);
  if (!out || size == 0) return;
  double fs = tfc_tensor_get_double(st, 0), fd = tfc_tensor_get_double(dt, 0);
  int64_t is = tfc_tensor_get_int64(st, 0), id = tfc_tensor_get_int64(dt, 0);
  switch (t) {
    case TFC_DTYPE_FLOAT: {
      float *o = out->data, s = (float)fs, d = (float)fd;
      for (int64_t i = 0; i < size; i++) o[i] = s + (float)i * d;
      break;
    }
    case TFC_DTYPE_DOUBLE: {
      double *o = out->data;
      for (int64_t i = 0; i < size; i++) o[i] = fs + (double)i * fd;
      break;
    }
    case TFC_DTYPE_HALF: {
      uint16_t *o = out->data;
      for (int64_t i = 0; i < size; i++) {
        float prod = tfc_half_to_float(tfc_float_to_half(
            tfc_half_to_float(tfc_float_to_half((float)i)) * (float)fd));
        o[i] = tfc_float_to_half((float)fs + prod);
      }
      break;
    }
    case TFC_DTYPE_BFLOAT16: {
      uint16_t *o = out->data;
      for (int64_t i = 0; i < size; i++) {
        float prod = tfc_bfloat16_to_float(tfc_float_to_bfloat16(
            tfc_bfloat16_to_float(tfc_float_to_bfloat16((float)i)) * (float)fd));
        o[i] = tfc_float_to_bfloat16((float)fs + prod);
      }
      break;
    }
    case TFC_DTYPE_INT8: {
      int8_t *o = out->data;
      for (int64_t i = 0; i < size; i++) o[i] = (int8_t)((uint64_t)is + (uint64_t)i * (uint64_t)id);
      break;
    }
    case TFC_DTYPE_INT16: {
      int16_t *o = out->data;
      for (int64_t i = 0; i < size; i++) o[i] = (int16_t)((uint64_t)is + (uint64_t)i * (uint64_t)id);
      break;
    }
    case TFC_DTYPE_INT32: {
      int32_t *o = out->data;
      for (int64_t i = 0; i < size; i++) o[i] = (int32_t)((uint64_t)is + (uint64_t)i * (uint64_t)id);
      break;
    }
    case TFC_DTYPE_INT64: {
      int64_t *o = out->data;
      for (int64_t i = 0; i < size; i++) o[i] = (int64_t)((uint64_t)is + (uint64_t)i * (uint64_t)id);
      break;
    }
    case TFC_DTYPE_UINT16: {
      uint16_t *o = out->data;
      for (int64_t i = 0; i < size; i++) o[i] = (uint16_t)((uint64_t)is + (uint64_t)i * (uint64_t)id);
      break;
    }
    case TFC_DTYPE_UINT32: {
      uint32_t *o = out->data;
      for (int64_t i = 0; i < size; i++) o[i] = (uint32_t)((uint64_t)is + (uint64_t)i * (uint64_t)id);
      break;
    }
    case TFC_DTYPE_UINT64: {
      uint64_t *o = out->data;
      for (int64_t i = 0; i < size; i++) o[i] = (uint64_t)is + (uint64_t)i * (uint64_t)id;
      break;
    }
    default:
      tfc_kernel_fail(ctx, TFC_CODE_UNIMPLEMENTED, "Range does not support %s", tfc_op_dtype_string(t));
  }
}

/* OneHot(indices, depth, on_value, off_value): depth inserted at `axis`;
 * indices outside [0, depth) give an all-off row. */
void arr_one_hot_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *ind = ctx->inputs[0], *dep = ctx->inputs[1];
  const tfc_tensor *on = ctx->inputs[2], *off = ctx->inputs[3];
  int out_rank = ind->rank + 1;
  int64_t axis_attr = -1;
  const tfc_attr_value *v = tfc_attrs_find(ctx->attrs, "axis");
  if (v && v->kind == TFC_ATTR_I) axis_attr = v->v.i;
  char s[64];
  if (!(axis_attr == -1 || (axis_attr >= 0 && axis_attr < out_rank))) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Expected axis to be -1 or between [0, %d).  But received: %lld", out_rank,
                    (long long)axis_attr);
    return;
  }
  const tfc_tensor *checks[3] = {dep, on, off};
  static const char *const names[3] = {"depth", "on_value", "off_value"};
  for (int i = 0; i < 3; i++) {
    if (checks[i]->rank != 0) {
      arr_dims_str(checks[i]->rank, checks[i]->dims, s, sizeof s);
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s must be a scalar, but got: %s", names[i], s);
      return;
    }
  }
  int64_t depth = tfc_tensor_get_int64(dep, 0);
  if (depth < 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "depth must be non-negative, got: %lld", (long long)depth);
    return;
  }
  if (out_rank > TFC_MAX_RANK) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "OneHot output would exceed the maximum rank %d",
                    TFC_MAX_RANK);
    return;
  }
  int axis = axis_attr == -1 ? ind->rank : (int)axis_attr;
  int64_t dims[TFC_MAX_RANK], prefix = 1, suffix = 1;
  for (int i = 0, k = 0; i < out_rank; i++) dims[i] = i == axis ? depth : ind->dims[k++];
  for (int i = 0; i < axis; i++) prefix *= ind->dims[i];
  for (int i = axis; i < ind->rank; i++) suffix *= ind->dims[i];
  tfc_dtype t = on->dtype;
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, t, out_rank, dims);
  if (!out || out->nelems == 0) return;
  if (!arr_fill(ctx, t, out->data, off->data, out->nelems)) return;
  size_t es = tfc_dtype_size(t);
  char *o = out->data;
  bool is_string = t == TFC_DTYPE_STRING;
  for (int64_t p = 0; p < prefix; p++) {
    for (int64_t q = 0; q < suffix; q++) {
      int64_t idx = tfc_tensor_get_int64(ind, p * suffix + q);
      if (idx < 0 || idx >= depth) continue;
      char *dst = o + (size_t)((p * depth + idx) * suffix + q) * es;
      if (!is_string) memcpy(dst, on->data, es);
      else if (!arr_copy(ctx, t, dst, on->data, 1)) return;
    }
  }
}
