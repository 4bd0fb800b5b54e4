/*
 * array_gather.c — GatherV2 (axis, batch_dims) and the old Gather (axis 0).
 *
 * params is viewed as [batch, outer, N, inner] and indices as [batch, nidx];
 * the output [batch, outer, nidx, inner] is filled row by row: one memcpy of
 * `inner` elements per (batch, outer, index), sharded over the intra-op pool.
 * Indices are validated in a first pass so a bad index fails before any copy.
 */
#include <stdio.h>
#include <string.h>

#include "kernels/array_internal.h"

typedef struct gather_job {
  const char *params;
  const tfc_tensor *indices;
  char *out;
  int64_t outer, n, nidx, inner;
  size_t row_bytes;
} gather_job;

/* Index k of an int16/int32/int64 tensor. */
static inline int64_t index_at(const tfc_tensor *t, int64_t k) {
  switch (t->dtype) {
    case TFC_DTYPE_INT32: return ((const int32_t *)t->data)[k];
    case TFC_DTYPE_INT64: return ((const int64_t *)t->data)[k];
    case TFC_DTYPE_INT16: return ((const int16_t *)t->data)[k];
    default: return tfc_tensor_get_int64(t, k);
  }
}

/* Copies `count` rows whose indices start at ip (index type IT) from the
 * params block src into dst, rows of rb bytes. */
#define GATHER_RUN(IT)                                                              \
  do {                                                                              \
    const IT *ip = (const IT *)j->indices->data + b * j->nidx + i;                  \
    switch (rb) {                                                                   \
      case 4:                                                                       \
        for (int64_t k = 0; k < count; k++)                                         \
          ((uint32_t *)(void *)dst)[k] = ((const uint32_t *)(const void *)src)[ip[k]]; \
        break;                                                                      \
      case 8:                                                                       \
        for (int64_t k = 0; k < count; k++)                                         \
          ((uint64_t *)(void *)dst)[k] = ((const uint64_t *)(const void *)src)[ip[k]]; \
        break;                                                                      \
      case 1:                                                                       \
        for (int64_t k = 0; k < count; k++) dst[k] = src[ip[k]];                    \
        break;                                                                      \
      default:                                                                      \
        for (int64_t k = 0; k < count; k++)                                         \
          memcpy(dst + (size_t)k * rb, src + (size_t)ip[k] * rb, rb);               \
    }                                                                               \
  } while (0)

/* Copies output rows [begin, end) (row = (b*outer + o)*nidx + i) for fixed-size
 * types, walking (b, o, i) incrementally. */
static void gather_rows(void *arg, int64_t begin, int64_t end) {
  const gather_job *j = arg;
  size_t rb = j->row_bytes;
  int64_t bo = begin / j->nidx, i = begin % j->nidx;
  int64_t b = bo / j->outer, o = bo % j->outer;
  for (int64_t r = begin; r < end;) {
    int64_t count = j->nidx - i < end - r ? j->nidx - i : end - r;
    const char *src = j->params + (size_t)(bo * j->n) * rb;
    char *dst = j->out + (size_t)r * rb;
    switch (j->indices->dtype) {
      case TFC_DTYPE_INT32: GATHER_RUN(int32_t); break;
      case TFC_DTYPE_INT64: GATHER_RUN(int64_t); break;
      default: GATHER_RUN(int16_t); break;
    }
    r += count;
    i = 0;
    bo++;
    if (++o == j->outer) {
      o = 0;
      b++;
    }
  }
}
#undef GATHER_RUN

/* Gathers along axis with batch_dims (both already normalised and checked). */
static void gather(tfc_kernel_ctx *ctx, const tfc_tensor *params, const tfc_tensor *indices,
                   int axis, int batch_dims) {
  int out_rank = params->rank - 1 + indices->rank - batch_dims;
  if (out_rank > TFC_MAX_RANK) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Gather output would exceed the maximum rank %d",
                    TFC_MAX_RANK);
    return;
  }
  int64_t dims[TFC_MAX_RANK];
  int r = 0;
  for (int d = 0; d < axis; d++) dims[r++] = params->dims[d];
  for (int d = batch_dims; d < indices->rank; d++) dims[r++] = indices->dims[d];
  for (int d = axis + 1; d < params->rank; d++) dims[r++] = params->dims[d];
  int64_t batch = 1, outer = 1, inner = 1, nidx = 1, n = params->dims[axis];
  for (int d = 0; d < batch_dims; d++) batch *= params->dims[d];
  for (int d = batch_dims; d < axis; d++) outer *= params->dims[d];
  for (int d = axis + 1; d < params->rank; d++) inner *= params->dims[d];
  for (int d = batch_dims; d < indices->rank; d++) nidx *= indices->dims[d];
  for (int64_t k = 0; k < indices->nelems; k++) {
    int64_t v = index_at(indices, k);
    if (v < 0 || v >= n) {
      char name[128];
      arr_element_name("indices", indices, k, name, sizeof name);
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s = %lld is not in [0, %lld)", name,
                      (long long)v, (long long)n);
      return;
    }
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, params->dtype, out_rank, dims);
  if (!out || out->nelems == 0) return;
  int64_t rows = batch * outer * nidx;
  if (params->dtype == TFC_DTYPE_STRING) {
    const tfc_string *src = params->data;
    tfc_string *dst = out->data;
    for (int64_t row = 0; row < rows; row++) {
      int64_t i = row % nidx, bo = row / nidx, b = bo / outer;
      int64_t idx = index_at(indices, b * nidx + i);
      if (!arr_copy(ctx, TFC_DTYPE_STRING, dst + row * inner, src + (bo * n + idx) * inner, inner))
        return;
    }
    return;
  }
  gather_job job = {params->data, indices, out->data, outer, n, nidx, inner,
                    (size_t)inner * tfc_dtype_size(params->dtype)};
  int64_t min_shard = 16384 / (inner > 0 ? inner : 1);
  tfc_kernel_parallel_for(ctx, rows, min_shard > 0 ? min_shard : 1, gather_rows, &job);
}

/* GatherV2(params, indices, axis). */
void arr_gather_v2_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *params = ctx->inputs[0], *indices = ctx->inputs[1];
  int64_t axis;
  if (!arr_scalar_index(ctx, ctx->inputs[2], "axis", &axis)) return;
  if (params->rank < 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "params must be at least 1 dimensional");
    return;
  }
  if (axis < -params->rank || axis >= params->rank) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Expected axis in the range [%d, %d), but got %lld", -params->rank, params->rank,
                    (long long)axis);
    return;
  }
  if (axis < 0) axis += params->rank;
  int64_t bd = 0;
  const tfc_attr_value *v = tfc_attrs_find(ctx->attrs, "batch_dims");
  if (v && v->kind == TFC_ATTR_I) bd = v->v.i;
  if (bd != 0) {
    if (bd < -indices->rank || bd > indices->rank) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Expected batch_dims in the range [%d, %d], but got %lld",
                      -indices->rank, indices->rank, (long long)bd);
      return;
    }
    if (bd < 0) bd += indices->rank;
    if (bd >= params->rank) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "batch_dims (%lld) must be less than rank(params) (%d).",
                      (long long)bd, params->rank);
      return;
    }
    if (axis < bd) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                      "batch_dims (%lld) must be less than or equal to axis (%lld).", (long long)bd,
                      (long long)axis);
      return;
    }
    for (int i = 0; i < bd; i++) {
      if (params->dims[i] != indices->dims[i]) {
        tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                        "params.shape[%d]: %lld should be equal to indices.shape[%d]: %lld", i,
                        (long long)params->dims[i], i, (long long)indices->dims[i]);
        return;
      }
    }
  }
  gather(ctx, params, indices, (int)axis, (int)bd);
}

/* Gather(params, indices): rows of params along dim 0. */
void arr_gather_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *params = ctx->inputs[0];
  if (params->rank < 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "params must be at least 1 dimensional");
    return;
  }
  gather(ctx, params, ctx->inputs[1], 0, 0);
}
