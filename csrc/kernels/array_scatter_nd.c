/*
 * array_scatter_nd.c — the N-d index kernels: GatherNd, ScatterNd,
 * TensorScatter{Update,Add,Sub,Min,Max} and, on ref variables,
 * ScatterNd{Update,Add,Sub}.
 *
 * indices has shape [..., K]: each of its N = prod(shape[:-1]) rows names one
 * slice of the K leading dims of the data (params, or the scattered output),
 * a slice being the prod(shape[K:]) contiguous elements behind it. Every
 * index is range-checked before it is used (TF's InvalidArgument naming the
 * bad row). Gathers copy slices (strings deep-copied); scatters combine them
 * in index order, so duplicate indices add up (ScatterNd, Add, Sub), keep
 * the last (Update) or the extreme (Min, Max), the same on every run.
 */
#include <stdio.h>
#include <string.h>

#include "core/resource.h"
#include "kernels/array_internal.h"
#include "kernels/kernel_tables.h"

enum { ND_UPDATE, ND_ADD, ND_SUB, ND_MIN, ND_MAX };

/* Fails ctx with TF's message for index row i of idx (k values) not indexing
 * into `what` shape dims[0..rank). */
static void fail_bad_index(tfc_kernel_ctx *ctx, const tfc_tensor *idx, int64_t i, int k,
                           const char *what, int rank, const int64_t *dims) {
  char pos[128] = "", vals[256] = "", shp[160];
  int pr = idx->rank - 1;
  int64_t rem = i, coords[TFC_MAX_RANK];
  for (int d = pr - 1; d >= 0; d--) {
    coords[d] = idx->dims[d] ? rem % idx->dims[d] : 0;
    rem = idx->dims[d] ? rem / idx->dims[d] : 0;
  }
  size_t p = 0;
  for (int d = 0; d < pr && p < sizeof pos; d++)
    p += (size_t)snprintf(pos + p, sizeof pos - p, "%s%lld", d ? "," : "", (long long)coords[d]);
  p = 0;
  for (int j = 0; j < k && p < sizeof vals; j++)
    p += (size_t)snprintf(vals + p, sizeof vals - p, "%s%lld", j ? ", " : "",
                          (long long)tfc_tensor_get_int64(idx, i * k + j));
  arr_dims_str(rank, dims, shp, sizeof shp);
  tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                  "indices[%s] = [%s] does not index into %s shape %s", pos, vals, what, shp);
}

/* The flat element offset of the slice named by index row i, or -1 when out
 * of range. strides are the element strides of the first k dims. */
static int64_t row_offset(const tfc_tensor *idx, int64_t i, int k, const int64_t *dims,
                          const int64_t *strides) {
  int64_t off = 0;
  for (int j = 0; j < k; j++) {
    int64_t v = tfc_tensor_get_int64(idx, i * k + j);
    if (v < 0 || v >= dims[j]) return -1;
    off += v * strides[j];
  }
  return off;
}

/* Checks that indices has rank >= 1 and depth k <= rank; sets *k, *n (rows). */
static bool index_layout(tfc_kernel_ctx *ctx, const tfc_tensor *idx, int rank, int *k,
                         int64_t *n) {
  if (idx->rank < 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "indices must be at least a vector");
    return false;
  }
  int64_t depth = idx->dims[idx->rank - 1];
  if (depth > rank) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "index innermost dimension length must be <= params rank; saw: %lld vs. %d",
                    (long long)depth, rank);
    return false;
  }
  *k = (int)depth;
  *n = 1;
  for (int d = 0; d < idx->rank - 1; d++) *n *= idx->dims[d];
  return true;
}

/* GatherNd(params, indices). */
static void gather_nd_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *params = ctx->inputs[0], *idx = ctx->inputs[1];
  int k;
  int64_t n;
  if (!index_layout(ctx, idx, params->rank, &k, &n)) return;
  int out_rank = idx->rank - 1 + params->rank - k;
  if (out_rank > TFC_MAX_RANK) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "GatherNd output rank %d is too large",
                    out_rank);
    return;
  }
  int64_t dims[TFC_MAX_RANK], strides[TFC_MAX_RANK], slice = 1;
  for (int d = 0; d < idx->rank - 1; d++) dims[d] = idx->dims[d];
  for (int d = k; d < params->rank; d++) {
    dims[idx->rank - 1 + d - k] = params->dims[d];
    slice *= params->dims[d];
  }
  arr_strides(params->rank, params->dims, strides);
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, params->dtype, out_rank, dims);
  if (!out || out->nelems == 0) {
    if (out && n > 0 && params->nelems == 0 && k > 0) {
      /* every index is out of range of an empty params */
      fail_bad_index(ctx, idx, 0, k, "param", params->rank, params->dims);
    }
    return;
  }
  size_t es = tfc_dtype_size(params->dtype);
  for (int64_t i = 0; i < n; i++) {
    int64_t off = row_offset(idx, i, k, params->dims, strides);
    if (off < 0) {
      fail_bad_index(ctx, idx, i, k, "param", params->rank, params->dims);
      return;
    }
    if (!arr_copy(ctx, params->dtype, (char *)out->data + (size_t)(i * slice) * es,
                  (const char *)params->data + (size_t)off * es, slice))
      return;
  }
}

/* Combines slice u (m elements) into slice o with mode, for element type T. */
#define COMBINE(T, LOAD, STORE)                                                 \
  do {                                                                          \
    T *o = (T *)dst;                                                            \
    const T *u = (const T *)src;                                                \
    for (int64_t c = 0; c < m; c++) {                                           \
      __typeof__(LOAD(o[c])) a = LOAD(o[c]), b = LOAD(u[c]);                    \
      o[c] = STORE(mode == ND_ADD ? a + b : mode == ND_SUB ? a - b              \
                   : mode == ND_MIN ? (b < a ? b : a) : (b > a ? b : a));       \
    }                                                                           \
  } while (0)
#define SAME(v) (v)
#define HALF_IN(v) tfc_half_to_float(v)
#define HALF_OUT(v) tfc_float_to_half(v)
#define BF_IN(v) tfc_bfloat16_to_float(v)
#define BF_OUT(v) tfc_float_to_bfloat16(v)

/* Applies an arithmetic combine of m elements of dt; false for a dtype
 * without arithmetic. */
static bool combine(tfc_dtype dt, int mode, void *dst, const void *src, int64_t m) {
  switch (dt) {
    case TFC_DTYPE_FLOAT: COMBINE(float, SAME, SAME); return true;
    case TFC_DTYPE_DOUBLE: COMBINE(double, SAME, SAME); return true;
    case TFC_DTYPE_HALF: COMBINE(uint16_t, HALF_IN, HALF_OUT); return true;
    case TFC_DTYPE_BFLOAT16: COMBINE(uint16_t, BF_IN, BF_OUT); return true;
    case TFC_DTYPE_INT32: COMBINE(int32_t, SAME, SAME); return true;
    case TFC_DTYPE_INT64: COMBINE(int64_t, SAME, SAME); return true;
    case TFC_DTYPE_INT16: COMBINE(int16_t, SAME, SAME); return true;
    case TFC_DTYPE_INT8: COMBINE(int8_t, SAME, SAME); return true;
    case TFC_DTYPE_UINT8: COMBINE(uint8_t, SAME, SAME); return true;
    case TFC_DTYPE_UINT16: COMBINE(uint16_t, SAME, SAME); return true;
    case TFC_DTYPE_UINT32: COMBINE(uint32_t, SAME, SAME); return true;
    case TFC_DTYPE_UINT64: COMBINE(uint64_t, SAME, SAME); return true;
    default: return false;
  }
}

/* Scatters updates into out (already holding its initial values) by idx. */
static void scatter_into(tfc_kernel_ctx *ctx, tfc_tensor *out, const tfc_tensor *idx,
                         const tfc_tensor *upd, int mode) {
  int k;
  int64_t n;
  if (!index_layout(ctx, idx, out->rank, &k, &n)) return;
  /* updates must be indices.shape[:-1] + out.shape[k:] */
  bool ok = upd->rank == idx->rank - 1 + out->rank - k;
  for (int d = 0; ok && d < idx->rank - 1; d++) ok = upd->dims[d] == idx->dims[d];
  for (int d = k; ok && d < out->rank; d++) ok = upd->dims[idx->rank - 1 + d - k] == out->dims[d];
  if (!ok) {
    char a[160], b[160], c[160];
    arr_dims_str(upd->rank, upd->dims, a, sizeof a);
    arr_dims_str(idx->rank, idx->dims, b, sizeof b);
    arr_dims_str(out->rank, out->dims, c, sizeof c);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "updates shape %s must be indices.shape[:-1] + shape[indices.shape[-1]:] "
                    "(indices shape %s, shape %s)", a, b, c);
    return;
  }
  if (n > 0 && out->nelems == 0 && k > 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Indices and updates specified for empty output shape");
    return;
  }
  if (mode != ND_UPDATE && !combine(out->dtype, mode, NULL, NULL, 0)) {
    tfc_kernel_fail(ctx, TFC_CODE_UNIMPLEMENTED, "%s is not implemented for dtype %s",
                    ctx->op_type, tfc_dtype_name(out->dtype));
    return;
  }
  int64_t strides[TFC_MAX_RANK], slice = 1;
  arr_strides(out->rank, out->dims, strides);
  for (int d = k; d < out->rank; d++) slice *= out->dims[d];
  size_t es = tfc_dtype_size(out->dtype);
  for (int64_t i = 0; i < n; i++) {
    int64_t off = row_offset(idx, i, k, out->dims, strides);
    if (off < 0) {
      fail_bad_index(ctx, idx, i, k, "output", out->rank, out->dims);
      return;
    }
    char *dst = (char *)out->data + (size_t)off * es;
    const char *src = (const char *)upd->data + (size_t)(i * slice) * es;
    if (mode == ND_UPDATE) {
      if (!arr_copy(ctx, out->dtype, dst, src, slice)) return;
    } else {
      combine(out->dtype, mode, dst, src, slice);
    }
  }
}

/* ScatterNd(indices, updates, shape): zeros of `shape` plus the updates. */
static void scatter_nd_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *idx = ctx->inputs[0], *upd = ctx->inputs[1], *shp = ctx->inputs[2];
  if (shp->rank != 1 || shp->nelems > TFC_MAX_RANK) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Shape must be a vector of at most %d dims",
                    TFC_MAX_RANK);
    return;
  }
  int64_t dims[TFC_MAX_RANK];
  for (int64_t d = 0; d < shp->nelems; d++) {
    dims[d] = tfc_tensor_get_int64(shp, d);
    if (dims[d] < 0) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Dimension %lld must be >= 0",
                      (long long)dims[d]);
      return;
    }
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, upd->dtype, (int)shp->nelems, dims);
  if (!out) return;
  if (out->nelems) memset(out->data, 0, (size_t)out->nelems * tfc_dtype_size(out->dtype));
  scatter_into(ctx, out, idx, upd, ND_ADD);
}

/* TensorScatter<mode>(tensor, indices, updates): a copy of tensor with the updates applied. */
static void tensor_scatter(tfc_kernel_ctx *ctx, int mode) {
  const tfc_tensor *t = ctx->inputs[0], *idx = ctx->inputs[1], *upd = ctx->inputs[2];
  if (upd->dtype != t->dtype) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "tensor and updates must have the same type");
    return;
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, t->dtype, t->rank, t->dims);
  if (!out) return;
  if (!arr_copy(ctx, t->dtype, out->data, t->data, t->nelems)) return;
  scatter_into(ctx, out, idx, upd, mode);
}

/* TensorScatterUpdate: duplicate indices keep the last update. */
static void ts_update_compute(tfc_kernel_ctx *ctx) { tensor_scatter(ctx, ND_UPDATE); }
/* TensorScatterAdd: updates added (duplicates add up). */
static void ts_add_compute(tfc_kernel_ctx *ctx) { tensor_scatter(ctx, ND_ADD); }
/* TensorScatterSub: updates subtracted. */
static void ts_sub_compute(tfc_kernel_ctx *ctx) { tensor_scatter(ctx, ND_SUB); }
/* TensorScatterMin: the elementwise minimum with the updates. */
static void ts_min_compute(tfc_kernel_ctx *ctx) { tensor_scatter(ctx, ND_MIN); }
/* TensorScatterMax: the elementwise maximum with the updates. */
static void ts_max_compute(tfc_kernel_ctx *ctx) { tensor_scatter(ctx, ND_MAX); }

/* ScatterNd<mode> on a ref variable: the variable's value with the updates
 * applied (as TensorScatter<mode>), built on a copy under the variable's lock
 * and installed only when every index was valid, so a failing step leaves
 * the variable unchanged. Outputs the ref. */
static void ref_scatter_nd(tfc_kernel_ctx *ctx, int mode) {
  tfc_var *v = ctx->ref_inputs ? ctx->ref_inputs[0] : NULL;
  if (v == NULL) {
    tfc_kernel_fail(ctx, TFC_CODE_INTERNAL, "%s: input 0 must be a variable reference",
                    ctx->op_type);
    return;
  }
  const tfc_tensor *idx = ctx->inputs[1], *upd = ctx->inputs[2];
  pthread_mutex_lock(&v->mu);
  if (v->value == NULL) {
    pthread_mutex_unlock(&v->mu);
    tfc_kernel_fail(ctx, TFC_CODE_FAILED_PRECONDITION, "Attempting to use uninitialized value %s",
                    v->name ? v->name : ctx->node_name);
    return;
  }
  if (v->value->dtype != upd->dtype) {
    pthread_mutex_unlock(&v->mu);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s: updates has type %s, the variable is %s",
                    ctx->op_type, tfc_dtype_name(upd->dtype), tfc_dtype_name(v->value->dtype));
    return;
  }
  tfc_tensor *copy = tfc_tensor_copy(v->value, ctx->st);
  if (copy != NULL) {
    scatter_into(ctx, copy, idx, upd, mode);
    if (tfc_kernel_ok(ctx)) {
      tfc_tensor *old = v->value;
      v->value = copy;
      copy = old;
    }
    tfc_tensor_unref(copy);
  }
  pthread_mutex_unlock(&v->mu);
  if (tfc_kernel_ok(ctx)) ctx->ref_outputs[0] = tfc_var_ref(v);
}

/* ScatterNdUpdate: ref[indices] = updates (duplicates: the last wins). */
static void ref_nd_update_compute(tfc_kernel_ctx *ctx) { ref_scatter_nd(ctx, ND_UPDATE); }
/* ScatterNdAdd: ref[indices] += updates. */
static void ref_nd_add_compute(tfc_kernel_ctx *ctx) { ref_scatter_nd(ctx, ND_ADD); }
/* ScatterNdSub: ref[indices] -= updates. */
static void ref_nd_sub_compute(tfc_kernel_ctx *ctx) { ref_scatter_nd(ctx, ND_SUB); }

#define K(op, fn) {op, "CPU", NULL, NULL, NULL, fn, NULL, 0}

static const tfc_kernel_def defs[] = {
    K("GatherNd", gather_nd_compute),
    K("ScatterNd", scatter_nd_compute),
    K("TensorScatterUpdate", ts_update_compute),
    K("TensorScatterAdd", ts_add_compute),
    K("TensorScatterSub", ts_sub_compute),
    K("TensorScatterMin", ts_min_compute),
    K("TensorScatterMax", ts_max_compute),
    K("ScatterNdUpdate", ref_nd_update_compute),
    K("ScatterNdAdd", ref_nd_add_compute),
    K("ScatterNdSub", ref_nd_sub_compute),
};

const tfc_kernel_table tfc_kernels_scatter_nd = {defs, (int)(sizeof defs / sizeof defs[0])};
