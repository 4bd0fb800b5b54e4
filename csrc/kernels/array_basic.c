/*
 * array_basic.c — kernels that produce or re-describe tensors without moving
 * data: Const, Placeholder, the Identity family, Shape/ShapeN/Size/Rank and
 * the buffer-sharing reshapes (Reshape, Squeeze, ExpandDims).
 */
#include <stdio.h>
#include <string.h>

#include "kernels/array_internal.h"

/* The base type of output i: from the plan when known, else from attr `name`. */
static tfc_dtype out_type(tfc_kernel_ctx *ctx, int i, const char *name) {
  if (ctx->out_types) return tfc_dtype_base(ctx->out_types[i]);
  tfc_dtype t = TFC_DTYPE_INT32;
  const tfc_attr_value *v = tfc_attrs_find(ctx->attrs, name);
  if (v && v->kind == TFC_ATTR_TYPE) t = v->v.type;
  return t;
}

/* Sets output `out` to a new header over `in`'s buffer with the given dims. */
static void set_reshaped(tfc_kernel_ctx *ctx, int out, tfc_tensor *in, int rank, const int64_t *dims) {
  tfc_tensor *r = tfc_tensor_reshaped(in, rank, dims, ctx->st);
  if (r) tfc_kernel_set_output(ctx, out, r);
}

/* ------------------------------------------------------------------ Const / Placeholder */

/* Const init: checks the `value` attr against `dtype` and keeps a reference
 * to it as the kernel state. */
bool arr_const_init(const tfc_kernel_init *ki, void **state) {
  tfc_tensor *t = NULL;
  if (!tfc_attrs_get_tensor(ki->attrs, "value", &t, ki->st)) return false;
  if (!t)
    return tfc_status_set(ki->st, TFC_CODE_INVALID_ARGUMENT, "Const node '%s' has no value",
                          ki->node_name ? ki->node_name : "");
  tfc_dtype want = t->dtype;
  const tfc_attr_value *dt = tfc_attrs_find(ki->attrs, "dtype");
  if (dt && dt->kind == TFC_ATTR_TYPE) want = tfc_dtype_base(dt->v.type);
  if (want != t->dtype)
    return tfc_status_set(ki->st, TFC_CODE_INVALID_ARGUMENT,
                          "Type mismatch between value (%s) and dtype (%s)",
                          tfc_op_dtype_string(t->dtype), tfc_op_dtype_string(want));
  *state = tfc_tensor_ref(t);
  return true;
}

/* Const: outputs the `value` tensor by reference (no copy). */
void arr_const_compute(tfc_kernel_ctx *ctx) {
  tfc_tensor *t = ctx->state;
  if (!t && !tfc_attrs_get_tensor(ctx->attrs, "value", &t, ctx->st)) return;
  if (!t) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Const has no value");
    return;
  }
  tfc_kernel_set_output(ctx, 0, tfc_tensor_ref(t));
}

/* Placeholder: always fails, since a fed placeholder never runs its kernel. */
void arr_placeholder_compute(tfc_kernel_ctx *ctx) {
  tfc_dtype dt = out_type(ctx, 0, "dtype");
  const tfc_attr_value *s = tfc_attrs_find(ctx->attrs, "shape");
  const char *name = ctx->node_name ? ctx->node_name : "";
  if (s && s->kind == TFC_ATTR_SHAPE && s->v.shape.rank > 0) {
    char shape[256];
    size_t pos = 0;
    shape[pos++] = '[';
    for (int i = 0; i < s->v.shape.rank && pos + 24 < sizeof shape; i++) {
      if (i) shape[pos++] = ',';
      if (s->v.shape.dims[i] < 0) shape[pos++] = '?';
      else pos += (size_t)snprintf(shape + pos, sizeof shape - pos, "%lld", (long long)s->v.shape.dims[i]);
    }
    shape[pos++] = ']';
    shape[pos] = '\0';
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "You must feed a value for placeholder tensor '%s' with dtype %s and shape %s",
                    name, tfc_op_dtype_string(dt), shape);
    return;
  }
  tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                  "You must feed a value for placeholder tensor '%s' with dtype %s", name,
                  tfc_op_dtype_string(dt));
}

/* ------------------------------------------------------------------ identities */

/* Identity, Snapshot, StopGradient, PreventGradient, PlaceholderWithDefault:
 * the input passes through (shared buffer). */
void arr_identity_compute(tfc_kernel_ctx *ctx) { tfc_kernel_forward(ctx, 0, 0); }

/* IdentityN: every input passes through to the matching output. */
void arr_identity_n_compute(tfc_kernel_ctx *ctx) {
  for (int i = 0; i < ctx->n_inputs && i < ctx->n_outputs; i++) tfc_kernel_forward(ctx, i, i);
}

/* ------------------------------------------------------------------ shape queries */

/* Writes t's dims into output `out` as an int32/int64 vector. */
static void emit_shape(tfc_kernel_ctx *ctx, int out, const tfc_tensor *t, tfc_dtype type) {
  int64_t n = t->rank;
  if (type == TFC_DTYPE_INT32) {
    for (int i = 0; i < t->rank; i++)
      if (t->dims[i] > INT32_MAX) {
        tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                        "Shape output type is 32-bit  but dim %d is %lld", i, (long long)t->dims[i]);
        return;
      }
  }
  tfc_tensor *o = tfc_kernel_alloc_output(ctx, out, type, 1, &n);
  if (!o) return;
  for (int i = 0; i < t->rank; i++) {
    if (type == TFC_DTYPE_INT32) ((int32_t *)o->data)[i] = (int32_t)t->dims[i];
    else ((int64_t *)o->data)[i] = t->dims[i];
  }
}

/* Shape: the input's dims as a vector of out_type. */
void arr_shape_compute(tfc_kernel_ctx *ctx) {
  emit_shape(ctx, 0, ctx->inputs[0], out_type(ctx, 0, "out_type"));
}

/* ShapeN: output i is the shape of input i. */
void arr_shape_n_compute(tfc_kernel_ctx *ctx) {
  tfc_dtype type = out_type(ctx, 0, "out_type");
  for (int i = 0; i < ctx->n_inputs && i < ctx->n_outputs && tfc_kernel_ok(ctx); i++)
    emit_shape(ctx, i, ctx->inputs[i], type);
}

/* Size: the element count as a scalar of out_type. */
void arr_size_compute(tfc_kernel_ctx *ctx) {
  tfc_dtype type = out_type(ctx, 0, "out_type");
  int64_t n = ctx->inputs[0]->nelems;
  if (type == TFC_DTYPE_INT32 && n > INT32_MAX) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Number of elements was larger than representable by 32-bit output type");
    return;
  }
  tfc_tensor *o = tfc_kernel_alloc_output(ctx, 0, type, 0, NULL);
  if (!o) return;
  if (type == TFC_DTYPE_INT32) *(int32_t *)o->data = (int32_t)n;
  else *(int64_t *)o->data = n;
}

/* Rank: the number of dims as an int32 scalar. */
void arr_rank_compute(tfc_kernel_ctx *ctx) {
  tfc_tensor *o = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_INT32, 0, NULL);
  if (o) *(int32_t *)o->data = ctx->inputs[0]->rank;
}

/* ------------------------------------------------------------------ reshapes */

/* Reshape: new dims from the shape input, one -1 inferred; shares the buffer. */
void arr_reshape_compute(tfc_kernel_ctx *ctx) {
  tfc_tensor *in = ctx->inputs[0], *sizes = ctx->inputs[1];
  if (sizes->rank != 1) {
    char s[64];
    arr_dims_str(sizes->rank, sizes->dims, s, sizeof s);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "sizes input must be 1-D, not %s", s);
    return;
  }
  if (sizes->nelems > TFC_MAX_RANK) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Reshape to rank %lld exceeds the maximum rank %d",
                    (long long)sizes->nelems, TFC_MAX_RANK);
    return;
  }
  int rank = (int)sizes->nelems;
  int64_t dims[TFC_MAX_RANK];
  int64_t product = 1;
  int unknown = -1;
  bool has_zero = false;
  for (int d = 0; d < rank; d++) {
    int64_t v = tfc_tensor_get_int64(sizes, d);
    if (v == -1) {
      if (unknown != -1) {
        tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                        "Only one input size may be -1, not both %d and %d", unknown, d);
        return;
      }
      unknown = d;
      dims[d] = 1;
    } else if (v < 0) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Size %d must be non-negative, not %lld", d,
                      (long long)v);
      return;
    } else if (v == 0) {
      has_zero = true;
      dims[d] = 0;
    } else {
      if (__builtin_mul_overflow(product, v, &product)) {
        tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Reshape requested shape overflows int64");
        return;
      }
      dims[d] = v;
    }
  }
  if (unknown != -1) {
    int64_t in_count = 1;
    for (int d = 0; d < in->rank; d++)
      if (in->dims[d] > 0 || !has_zero) in_count *= in->dims[d];
    int64_t missing = product ? in_count / product : 0;
    if (product == 0 || product * missing != in_count) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                      "Input to reshape is a tensor with %lld values, but the requested shape "
                      "requires a multiple of %lld",
                      (long long)in->nelems, (long long)product);
      return;
    }
    dims[unknown] = missing;
  }
  int64_t n = arr_num_elements(rank, dims);
  if (n != in->nelems) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Input to reshape is a tensor with %lld values, but the requested shape has %lld",
                    (long long)in->nelems, (long long)n);
    return;
  }
  set_reshaped(ctx, 0, in, rank, dims);
}

/* Squeeze: drops the listed size-1 dims (all size-1 dims when none listed). */
void arr_squeeze_compute(tfc_kernel_ctx *ctx) {
  tfc_tensor *in = ctx->inputs[0];
  const tfc_attr_value *a = tfc_attrs_find(ctx->attrs, "squeeze_dims");
  int n = a && a->kind == TFC_ATTR_LIST && a->v.list.kind == TFC_ATTR_I ? a->v.list.n : 0;
  bool wanted[TFC_MAX_RANK] = {false};
  for (int i = 0; i < n; i++) {
    int64_t d = a->v.list.v.i[i];
    if (d < -in->rank || d >= in->rank) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                      "Tried to squeeze dim index %lld for tensor with %d dimensions.", (long long)d,
                      in->rank);
      return;
    }
    wanted[d < 0 ? d + in->rank : d] = true;
  }
  int64_t dims[TFC_MAX_RANK];
  int rank = 0;
  for (int i = 0; i < in->rank; i++) {
    int64_t d = in->dims[i];
    if (n > 0) {
      if (wanted[i]) {
        if (d != 1) {
          tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                          "Can not squeeze dim[%d], expected a dimension of 1, got %lld", i,
                          (long long)d);
          return;
        }
      } else {
        dims[rank++] = d;
      }
    } else if (d != 1) {
      dims[rank++] = d;
    }
  }
  set_reshaped(ctx, 0, in, rank, dims);
}

/* ExpandDims: inserts a size-1 dim at `dim` (negative counts from the end). */
void arr_expand_dims_compute(tfc_kernel_ctx *ctx) {
  tfc_tensor *in = ctx->inputs[0], *dt = ctx->inputs[1];
  if (dt->nelems != 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "'dim' must be a tensor with a single value");
    return;
  }
  int64_t dim = tfc_tensor_get_int64(dt, 0);
  if (dim < -1 - in->rank || dim > in->rank) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Tried to expand dim index %lld for tensor with %d dimensions.", (long long)dim,
                    in->rank);
    return;
  }
  if (in->rank >= TFC_MAX_RANK) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "ExpandDims would exceed the maximum rank %d",
                    TFC_MAX_RANK);
    return;
  }
  if (dim < 0) dim += in->rank + 1;
  int64_t dims[TFC_MAX_RANK];
  for (int i = 0, k = 0; i <= in->rank; i++) dims[i] = i == dim ? 1 : in->dims[k++];
  set_reshaped(ctx, 0, in, in->rank + 1, dims);
}
