/*
 * array_extra.c — kernels of core/ops_array_extra.c: EnsureShape,
 * BroadcastArgs, Bitcast, UnravelIndex and HistogramFixedWidth. Each checks
 * its inputs with TF's error codes before writing anything.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/attr.h"
#include "kernels/array_internal.h"
#include "kernels/kernel_tables.h"

/* EnsureShape: forwards the input when its shape fits the attr (unknown dims match anything). */
static void ensure_shape_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *x = ctx->inputs[0];
  tfc_shape want;
  if (!tfc_attrs_get_shape(ctx->attrs, "shape", &want, ctx->st)) return;
  bool ok = want.rank < 0 || want.rank == x->rank;
  for (int d = 0; ok && want.rank >= 0 && d < x->rank; d++)
    ok = want.dims[d] < 0 || want.dims[d] == x->dims[d];
  if (!ok) {
    char a[160], b[160] = "<unknown>";
    arr_dims_str(x->rank, x->dims, a, sizeof a);
    if (want.rank >= 0) {
      size_t p = 0;
      p += (size_t)snprintf(b, sizeof b, "[");
      for (int d = 0; d < want.rank && p < sizeof b; d++) {
        if (want.dims[d] < 0) p += (size_t)snprintf(b + p, sizeof b - p, "%s?", d ? "," : "");
        else p += (size_t)snprintf(b + p, sizeof b - p, "%s%lld", d ? "," : "", (long long)want.dims[d]);
      }
      if (p < sizeof b) snprintf(b + p, sizeof b - p, "]");
    }
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Shape of tensor %s %s is not compatible with expected shape %s.",
                    ctx->node_name ? ctx->node_name : "input", a, b);
    return;
  }
  tfc_kernel_forward(ctx, 0, 0);
}

/* BroadcastArgs(s0, s1): the NumPy broadcast of two shape vectors. */
static void broadcast_args_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *a = ctx->inputs[0], *b = ctx->inputs[1];
  if (a->rank != 1 || b->rank != 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "In[0] and In[1] must be vectors.");
    return;
  }
  int64_t na = a->nelems, nb = b->nelems, n = na > nb ? na : nb;
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, a->dtype, 1, &n);
  if (!out) return;
  for (int64_t i = 0; i < n; i++) {
    int64_t ia = i - (n - na), ib = i - (n - nb);
    int64_t da = ia >= 0 ? tfc_tensor_get_int64(a, ia) : 1;
    int64_t db = ib >= 0 ? tfc_tensor_get_int64(b, ib) : 1;
    int64_t r;
    if (da == db || db == 1) r = da;
    else if (da == 1) r = db;
    else {
      char sa[160], sb[160];
      size_t pa = 0, pb = 0;
      pa += (size_t)snprintf(sa, sizeof sa, "[");
      for (int64_t k = 0; k < na && pa < sizeof sa; k++)
        pa += (size_t)snprintf(sa + pa, sizeof sa - pa, "%s%lld", k ? "," : "",
                               (long long)tfc_tensor_get_int64(a, k));
      if (pa < sizeof sa) snprintf(sa + pa, sizeof sa - pa, "]");
      pb += (size_t)snprintf(sb, sizeof sb, "[");
      for (int64_t k = 0; k < nb && pb < sizeof sb; k++)
        pb += (size_t)snprintf(sb + pb, sizeof sb - pb, "%s%lld", k ? "," : "",
                               (long long)tfc_tensor_get_int64(b, k));
      if (pb < sizeof sb) snprintf(sb + pb, sizeof sb - pb, "]");
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Incompatible shapes: %s vs. %s", sa, sb);
      return;
    }
    if (a->dtype == TFC_DTYPE_INT64) ((int64_t *)out->data)[i] = r;
    else ((int32_t *)out->data)[i] = (int32_t)r;
  }
}

/* Bitcast: the input's bytes as elements of `type`. */
static void bitcast_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *x = ctx->inputs[0];
  tfc_dtype ot;
  if (!tfc_attrs_get_type(ctx->attrs, "type", &ot, ctx->st)) return;
  ot = tfc_dtype_base(ot);
  size_t is = tfc_dtype_size(x->dtype), os = tfc_dtype_size(ot);
  int64_t dims[TFC_MAX_RANK];
  int rank = x->rank;
  for (int d = 0; d < rank; d++) dims[d] = x->dims[d];
  char s[160];
  if (is > os) {
    if (rank >= TFC_MAX_RANK) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Bitcast output rank is too large");
      return;
    }
    dims[rank++] = (int64_t)(is / os);
  } else if (is < os) {
    if (rank == 0 || dims[rank - 1] != (int64_t)(os / is)) {
      arr_dims_str(x->rank, x->dims, s, sizeof s);
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Cannot bitcast from %d to %d: shape %s",
                      (int)x->dtype, (int)ot, s);
      return;
    }
    rank--;
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, ot, rank, dims);
  if (out && x->nelems) memcpy(out->data, x->data, (size_t)x->nelems * is);
}

/* UnravelIndex(indices, dims): the coordinates of flat indices in a dims-shaped array. */
static void unravel_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *idx = ctx->inputs[0], *dims = ctx->inputs[1];
  if (dims->rank != 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "dims must be a vector");
    return;
  }
  int64_t nd = dims->nelems, total = 1;
  for (int64_t d = 0; d < nd; d++) {
    int64_t v = tfc_tensor_get_int64(dims, d);
    if (v <= 0) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                      "Input dims must be > 0 for all dimensions, got %lld", (long long)v);
      return;
    }
    total *= v;
  }
  for (int64_t i = 0; i < idx->nelems; i++) {
    int64_t v = tfc_tensor_get_int64(idx, i);
    if (v < 0 || v >= total) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                      "index %lld is out of bound as with dims (total size %lld)", (long long)v,
                      (long long)total);
      return;
    }
  }
  int64_t od[2] = {nd, idx->nelems};
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, idx->dtype, idx->rank == 0 ? 1 : 2, od);
  if (!out) return;
  int64_t n = idx->nelems;
  for (int64_t i = 0; i < n; i++) {
    int64_t v = tfc_tensor_get_int64(idx, i);
    for (int64_t d = nd - 1; d >= 0; d--) {
      int64_t size = tfc_tensor_get_int64(dims, d);
      int64_t c = v % size;
      v /= size;
      if (idx->dtype == TFC_DTYPE_INT64) ((int64_t *)out->data)[d * n + i] = c;
      else ((int32_t *)out->data)[d * n + i] = (int32_t)c;
    }
  }
}

/* The value of element i of a numeric tensor as double. */
static double value_at(const tfc_tensor *t, int64_t i) {
  switch (t->dtype) {
    case TFC_DTYPE_FLOAT: return ((const float *)t->data)[i];
    case TFC_DTYPE_DOUBLE: return ((const double *)t->data)[i];
    default: return (double)tfc_tensor_get_int64(t, i);
  }
}

/* HistogramFixedWidth(values, value_range, nbins): counts of values in nbins
 * equal bins over value_range; values outside go to the first / last bin. */
static void histogram_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *v = ctx->inputs[0], *range = ctx->inputs[1], *nb = ctx->inputs[2];
  if (range->rank != 1 || range->nelems != 2) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "value_range should be a vector of 2 elements");
    return;
  }
  if (nb->rank != 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "nbins should be a scalar");
    return;
  }
  int64_t nbins = tfc_tensor_get_int64(nb, 0);
  if (nbins <= 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "nbins should be a positive number, but got '%lld'", (long long)nbins);
    return;
  }
  double lo = value_at(range, 0), hi = value_at(range, 1);
  if (!(lo < hi)) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "value_range should satisfy value_range[0] < value_range[1], but got [%g, %g]",
                    lo, hi);
    return;
  }
  tfc_dtype ot = TFC_DTYPE_INT32;
  const tfc_attr_value *dv = tfc_attrs_find(ctx->attrs, "dtype");
  if (dv && dv->kind == TFC_ATTR_TYPE) ot = tfc_dtype_base(dv->v.type);
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, ot, 1, &nbins);
  if (!out) return;
  memset(out->data, 0, (size_t)nbins * tfc_dtype_size(ot));
  /* bin = min((max(x, lo) - lo) / step, nbins - 1), the difference taken in
   * the values' own type and the division in double, as TF computes it */
  double step = (hi - lo) / (double)nbins, last = (double)(nbins - 1);
  for (int64_t i = 0; i < v->nelems; i++) {
    double diff;
    if (v->dtype == TFC_DTYPE_FLOAT) {
      float x = ((const float *)v->data)[i], l = (float)lo;
      diff = (double)((x > l ? x : l) - l);
    } else {
      double x = value_at(v, i);
      diff = (x > lo ? x : lo) - lo;
    }
    double b = diff / step;
    if (!(b < last)) b = last;
    int64_t bin = (int64_t)b;
    if (ot == TFC_DTYPE_INT64) ((int64_t *)out->data)[bin]++;
    else ((int32_t *)out->data)[bin]++;
  }
}

#define K(op, fn) {op, "CPU", NULL, NULL, NULL, fn, NULL, 0}

static const tfc_kernel_def defs[] = {
    K("EnsureShape", ensure_shape_compute),
    K("BroadcastArgs", broadcast_args_compute),
    K("Bitcast", bitcast_compute),
    K("UnravelIndex", unravel_compute),
    K("HistogramFixedWidth", histogram_compute),
};

const tfc_kernel_table tfc_kernels_array_extra = {defs, (int)(sizeof defs / sizeof defs[0])};
