/*
 * edit_distance.c — CPU kernel for EditDistance (core/ops_array_extra.c):
 * the Levenshtein distance between the sequences of two sparse tensors.
 *
 * Both inputs are (indices [N, R], values [N], dense shape [R]) with entries
 * in row-major order. The entries that share their first R-1 coordinates form
 * one sequence (in entry order); the output has shape max(hyp_shape,
 * truth_shape)[:-1] and holds, per position, the distance between the
 * hypothesis and truth sequences there (0 where both are empty). With
 * `normalize` the distance is divided by the truth length: a hypothesis with
 * no truth gives +inf, a truth with no hypothesis 1.
 */
#include <math.h>
#include <string.h>

#include "base/alloc.h"
#include "core/dtype.h"
#include "kernels/kernel.h"
#include "kernels/kernel_tables.h"

/* One sparse input: its tensors and the number of entries. */
typedef struct sparse_in {
  const tfc_tensor *ind, *val, *shape;
  int64_t n, rank;
} sparse_in;

/* Checks one sparse input's shapes as TF's ValidateShapes does; fails ctx. */
static bool check_sparse(tfc_kernel_ctx *ctx, const char *name, int base, sparse_in *s) {
  s->ind = ctx->inputs[base];
  s->val = ctx->inputs[base + 1];
  s->shape = ctx->inputs[base + 2];
  if (s->ind->rank != 2)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s_indices should be a matrix, but got "
                           "shape of rank %d", name, s->ind->rank), false;
  if (s->val->rank != 1)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s_values should be a vector, but got "
                           "shape of rank %d", name, s->val->rank), false;
  if (s->shape->rank != 1)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s_shape should be a vector, but got "
                           "shape of rank %d", name, s->shape->rank), false;
  s->n = s->ind->dims[0];
  s->rank = s->ind->dims[1];
  if (s->val->dims[0] != s->n)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Expected %s_values.NumElements == "
                           "#rows(%s_indices), their shapes are: [%lld] and [%lld,%lld]", name, name,
                           (long long)s->val->dims[0], (long long)s->n, (long long)s->rank), false;
  if (s->shape->dims[0] != s->rank)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Expected %s_shape.NumElements == "
                           "#cols(%s_indices), their shapes are: [%lld] and [%lld,%lld]", name, name,
                           (long long)s->shape->dims[0], (long long)s->n, (long long)s->rank), false;
  return true;
}

/* True when value i of a equals value j of b (same dtype; numeric ==). */
static bool value_eq(const tfc_tensor *a, int64_t i, const tfc_tensor *b, int64_t j) {
  switch (a->dtype) {
    case TFC_DTYPE_STRING: {
      const tfc_string *x = &((const tfc_string *)a->data)[i];
      const tfc_string *y = &((const tfc_string *)b->data)[j];
      return x->len == y->len && (x->len == 0 || memcmp(x->data, y->data, x->len) == 0);
    }
    case TFC_DTYPE_FLOAT: return ((const float *)a->data)[i] == ((const float *)b->data)[j];
    case TFC_DTYPE_DOUBLE: return ((const double *)a->data)[i] == ((const double *)b->data)[j];
    case TFC_DTYPE_HALF: return tfc_half_to_float(((const uint16_t *)a->data)[i]) ==
                                tfc_half_to_float(((const uint16_t *)b->data)[j]);
    default: {
      size_t es = tfc_dtype_size(a->dtype);
      return memcmp((const char *)a->data + (size_t)i * es, (const char *)b->data + (size_t)j * es,
                    es) == 0;
    }
  }
}

/* Levenshtein distance between values [h0, h0+hn) of h and [t0, t0+tn) of t,
 * using the scratch row `row` (tn + 1 entries). */
static int64_t levenshtein(const tfc_tensor *h, int64_t h0, int64_t hn, const tfc_tensor *t,
                           int64_t t0, int64_t tn, int64_t *row) {
  for (int64_t j = 0; j <= tn; j++) row[j] = j;
  for (int64_t i = 1; i <= hn; i++) {
    int64_t diag = row[0];
    row[0] = i;
    for (int64_t j = 1; j <= tn; j++) {
      int64_t up = row[j];
      int64_t best = diag + (value_eq(h, h0 + i - 1, t, t0 + j - 1) ? 0 : 1);
      if (up + 1 < best) best = up + 1;
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      row[j] = best;
      diag = up;
    }
  }
  return row[tn];
}

/* The output position of entry e of s (its first R-1 coordinates, row-major
 * in out_dims), or -1 when a coordinate is outside the output. */
static int64_t entry_loc(const sparse_in *s, int64_t e, const int64_t *out_dims) {
  const int64_t *ix = (const int64_t *)s->ind->data + e * s->rank;
  int64_t loc = 0;
  for (int64_t d = 0; d + 1 < s->rank; d++) {
    if (ix[d] < 0 || ix[d] >= out_dims[d]) return -1;
    loc = loc * out_dims[d] + ix[d];
  }
  return loc;
}

/* EditDistance compute (see the file comment). */
static void edit_distance_compute(tfc_kernel_ctx *ctx) {
  sparse_in h, t;
  if (!check_sparse(ctx, "hypothesis", 0, &h) || !check_sparse(ctx, "truth", 3, &t)) return;
  if (h.rank != t.rank) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Expected hypothesis_shape.NumElements == "
                    "truth_shape.NumElements: %lld vs. %lld", (long long)h.rank, (long long)t.rank);
    return;
  }
  if (h.rank < 1 || h.rank - 1 > TFC_MAX_RANK) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "EditDistance needs sparse tensors of rank "
                    "1 to %d, got rank %lld", TFC_MAX_RANK + 1, (long long)h.rank);
    return;
  }
  const tfc_attr_value *nv = tfc_attrs_find(ctx->attrs, "normalize");
  bool normalize = !(nv && nv->kind == TFC_ATTR_B && !nv->v.b);
  int64_t out_dims[TFC_MAX_RANK];
  int64_t total = 1;
  for (int64_t d = 0; d + 1 < h.rank; d++) {
    int64_t a = ((const int64_t *)h.shape->data)[d], b = ((const int64_t *)t.shape->data)[d];
    out_dims[d] = a > b ? a : b;
    if (out_dims[d] < 0) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Dimension %lld of the shapes is negative",
                      (long long)d);
      return;
    }
    total *= out_dims[d];
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_FLOAT, (int)(h.rank - 1), out_dims);
  if (out == NULL) return;
  float *o = out->data;
  for (int64_t i = 0; i < total; i++) o[i] = 0.0f;
  int64_t *row = tfc_malloc(((size_t)t.n + 1) * sizeof(int64_t));
  if (row == NULL) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory in EditDistance");
    return;
  }
  int64_t hi = 0, ti = 0;
  while (hi < h.n || ti < t.n) {
    int64_t hl = hi < h.n ? entry_loc(&h, hi, out_dims) : INT64_MAX;
    int64_t tl = ti < t.n ? entry_loc(&t, ti, out_dims) : INT64_MAX;
    if (hl < 0 || tl < 0) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s index %lld is out of bounds of the "
                      "output", hl < 0 ? "hypothesis" : "truth", (long long)(hl < 0 ? hi : ti));
      break;
    }
    int64_t hn = 0, tn = 0;
    if (hl <= tl)
      while (hi + hn < h.n && entry_loc(&h, hi + hn, out_dims) == hl) hn++;
    if (tl <= hl)
      while (ti + tn < t.n && entry_loc(&t, ti + tn, out_dims) == tl) tn++;
    int64_t loc = hl < tl ? hl : tl;
    if (hn > 0 && tn > 0) {
      int64_t dist = levenshtein(h.val, hi, hn, t.val, ti, tn, row);
      o[loc] = normalize ? (float)((double)dist / (double)tn) : (float)dist;
    } else if (hn > 0) {
      o[loc] = normalize ? INFINITY : (float)hn;
    } else {
      o[loc] = normalize ? 1.0f : (float)tn;
    }
    hi += hn;
    ti += tn;
  }
  tfc_free(row);
}

static const tfc_kernel_def defs[] = {
    {"EditDistance", "CPU", NULL, NULL, NULL, edit_distance_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_edit_distance = {defs, (int)(sizeof defs / sizeof defs[0])};
