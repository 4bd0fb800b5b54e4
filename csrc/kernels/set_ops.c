/*
 * set_ops.c — CPU kernels of TF's set ops (core/ops_feature.c): SetSize,
 * DenseToDenseSetOperation, DenseToSparseSetOperation and
 * SparseToSparseSetOperation. A set is the last dimension of its input: a
 * dense [..., n] tensor holds one set of n values per leading index (its
 * "group"); a sparse [..., n] tensor the values of the entries of each group
 * (indices in row-major order, checked when validate_indices). Duplicates
 * count once. The operations ("a-b", "b-a", "intersection", "union") give a
 * sparse [groups..., max result size] tensor whose rows hold each group's
 * result sorted ascending (strings by bytes), as TF's kernels do; groups of
 * both inputs must have the same shape.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "core/op_registry.h"
#include "kernels/kernel.h"
#include "kernels/kernel_tables.h"

/* A set input: dense (values [groups..., n]) or sparse (indices, values, shape). */
typedef struct set_input {
  const tfc_tensor *values;
  const tfc_tensor *indices;   /* NULL for dense */
  int rank;                    /* rank of the full [groups..., n] shape */
  int64_t shape[TFC_MAX_RANK];
} set_input;

/* -1, 0 or 1 as element i of a (of C type T) is below, equal to or above element j of b. */
#define CMP3(T, a, i, b, j) ((((const T *)(a))[i] > ((const T *)(b))[j]) - (((const T *)(a))[i] < ((const T *)(b))[j]))

/* Three-way comparison of elements i and j of values (dtype dt). */
static int elem_cmp(tfc_dtype dt, const void *a, int64_t i, const void *b, int64_t j) {
  switch (dt) {
    case TFC_DTYPE_STRING: {
      const tfc_string *x = (const tfc_string *)a + i, *y = (const tfc_string *)b + j;
      size_t n = x->len < y->len ? x->len : y->len;
      int c = n ? memcmp(x->data, y->data, n) : 0;
      if (c) return c;
      return x->len < y->len ? -1 : x->len > y->len;
    }
    case TFC_DTYPE_INT8: return CMP3(int8_t, a, i, b, j);
    case TFC_DTYPE_INT16: return CMP3(int16_t, a, i, b, j);
    case TFC_DTYPE_INT32: return CMP3(int32_t, a, i, b, j);
    case TFC_DTYPE_UINT8: return CMP3(uint8_t, a, i, b, j);
    case TFC_DTYPE_UINT16: return CMP3(uint16_t, a, i, b, j);
    default: return CMP3(int64_t, a, i, b, j);
  }
}

/* qsort context (qsort has none: one sort runs per call, under no lock, so
 * the comparator reads a thread-local). */
static _Thread_local const tfc_tensor *sort_values;

/* qsort comparator over element positions of sort_values. */
static int pos_cmp(const void *pa, const void *pb) {
  int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
  return elem_cmp(sort_values->dtype, sort_values->data, a, sort_values->data, b);
}

/* Sorts positions p[0..n) of values and drops duplicate values; returns the new count. */
static int64_t sort_unique(const tfc_tensor *values, int64_t *p, int64_t n) {
  sort_values = values;
  qsort(p, (size_t)n, sizeof *p, pos_cmp);
  int64_t k = 0;
  for (int64_t i = 0; i < n; i++)
    if (k == 0 || elem_cmp(values->dtype, values->data, p[k - 1], values->data, p[i]) != 0) p[k++] = p[i];
  return k;
}

/* Reads a sparse input (indices [nnz, r], values [nnz], shape [r]); false with ctx failed. */
static bool read_sparse(tfc_kernel_ctx *ctx, const tfc_tensor *ind, const tfc_tensor *val, const tfc_tensor *shp,
                        bool validate, const char *what, set_input *s) {
  if (ind->rank != 2 || val->rank != 1 || shp->rank != 1 || ind->dims[0] != val->dims[0] ||
      ind->dims[1] != shp->dims[0])
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "%s: indices must be [nnz, rank], values [nnz] and shape [rank]", what);
  int r = (int)shp->dims[0];
  if (r < 2 || r > TFC_MAX_RANK)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s: Invalid rank %d (must be 2..%d).", what, r,
                           TFC_MAX_RANK);
  s->values = val;
  s->indices = ind;
  s->rank = r;
  for (int d = 0; d < r; d++) s->shape[d] = ((const int64_t *)shp->data)[d];
  const int64_t *ix = ind->data;
  for (int64_t i = 0; i < ind->dims[0]; i++) {
    /* bounds are checked even without validate_indices: group numbers come from them */
    for (int d = 0; d < r; d++)
      if (ix[i * r + d] < 0 || ix[i * r + d] >= s->shape[d])
        return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s: indices[%lld] is out of bounds", what,
                               (long long)i);
    if (validate && i > 0) {
      int c = 0;
      const int64_t *cur = ix + i * r, *prev = ix + (i - 1) * r;
      for (int d = 0; d < r && c == 0; d++) c = (cur[d] > prev[d]) - (cur[d] < prev[d]);
      if (c <= 0)
        return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                               "%s: indices[%lld] is out of order. Many sparse ops require sorted indices. Use "
                               "`tf.sparse.reorder` to create a correctly ordered copy.",
                               what, (long long)i);
    }
  }
  return true;
}

/* Reads a dense input [groups..., n]; false with ctx failed. */
static bool read_dense(tfc_kernel_ctx *ctx, const tfc_tensor *t, const char *what, set_input *s) {
  if (t->rank < 2)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s: Invalid rank %d (must be >= 2).", what, t->rank);
  s->values = t;
  s->indices = NULL;
  s->rank = t->rank;
  for (int d = 0; d < t->rank; d++) s->shape[d] = t->dims[d];
  return true;
}

/* Walks the groups of one input in row-major order. */
typedef struct group_cursor {
  const set_input *in;
  int64_t next;      /* sparse: next entry; dense: next group number */
  int64_t ngroups;   /* dense: number of groups */
} group_cursor;

/* Linear group number of sparse entry i (row-major over the group dims). */
static int64_t sparse_group(const set_input *s, int64_t i) {
  const int64_t *ix = (const int64_t *)s->indices->data + i * s->rank;
  int64_t g = 0;
  for (int d = 0; d < s->rank - 1; d++) g = g * s->shape[d] + ix[d];
  return g;
}

/* The next non-empty group of the cursor: its number (or -1 when done) and
 * its elements' positions appended to p (count in *n). */
static int64_t next_group(group_cursor *c, int64_t *p, int64_t *n) {
  const set_input *s = c->in;
  *n = 0;
  if (!s->indices) {
    int64_t width = s->shape[s->rank - 1];
    while (c->next < c->ngroups && width == 0) c->next++;
    if (c->next >= c->ngroups) return -1;
    int64_t g = c->next++;
    for (int64_t j = 0; j < width; j++) p[(*n)++] = g * width + j;
    return g;
  }
  int64_t nnz = s->indices->dims[0];
  if (c->next >= nnz) return -1;
  int64_t g = sparse_group(s, c->next);
  while (c->next < nnz && sparse_group(s, c->next) == g) p[(*n)++] = c->next++;
  return g;
}

/* A growing list of result entries: group number, position in the row, and the source element. */
typedef struct result {
  int64_t n, cap;
  int64_t *group, *col, *src;  /* src >= 0: element of a; < 0: element -src-1 of b */
} result;

/* Appends one entry; false on OOM. */
static bool result_push(result *r, int64_t g, int64_t col, int64_t src) {
  if (r->n == r->cap) {
    int64_t cap = r->cap ? r->cap * 2 : 64;
    int64_t *a = tfc_realloc(r->group, (size_t)cap * sizeof *a);
    if (!a) return false;
    r->group = a;
    int64_t *b = tfc_realloc(r->col, (size_t)cap * sizeof *b);
    if (!b) return false;
    r->col = b;
    int64_t *c = tfc_realloc(r->src, (size_t)cap * sizeof *c);
    if (!c) return false;
    r->src = c;
    r->cap = cap;
  }
  r->group[r->n] = g;
  r->col[r->n] = col;
  r->src[r->n] = src;
  r->n++;
  return true;
}

enum { OP_A_MINUS_B, OP_B_MINUS_A, OP_INTERSECTION, OP_UNION };

/* Merges the sorted unique sets pa[0..na) of a and pb[0..nb) of b of group g
 * into r by op; returns the result size, or -1 on OOM. */
static int64_t combine(int op, const tfc_tensor *a, const int64_t *pa, int64_t na, const tfc_tensor *b,
                       const int64_t *pb, int64_t nb, int64_t g, result *r) {
  int64_t i = 0, j = 0, k = 0;
  tfc_dtype dt = a->dtype;
  while (i < na || j < nb) {
    int c = i >= na ? 1 : j >= nb ? -1 : elem_cmp(dt, a->data, pa[i], b->data, pb[j]);
    int64_t src = 0;
    bool take = false;
    if (c < 0) {
      take = op == OP_A_MINUS_B || op == OP_UNION;
      src = pa[i++];
    } else if (c > 0) {
      take = op == OP_B_MINUS_A || op == OP_UNION;
      src = -pb[j++] - 1;
    } else {
      take = op == OP_INTERSECTION || op == OP_UNION;
      src = pa[i++];
      j++;
    }
    if (take) {
      if (!result_push(r, g, k, src)) return -1;
      k++;
    }
  }
  return k;
}

/* Writes the result SparseTensor: indices [n, rank], values [n], shape [rank]. */
static void emit(tfc_kernel_ctx *ctx, const set_input *a, const set_input *b, const result *r, int64_t widest) {
  int rank = a->rank;
  int64_t idims[2] = {r->n, rank}, vdims[1] = {r->n}, sdims[1] = {rank};
  tfc_tensor *oi = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_INT64, 2, idims);
  tfc_tensor *ov = oi ? tfc_kernel_alloc_output(ctx, 1, a->values->dtype, 1, vdims) : NULL;
  tfc_tensor *os = ov ? tfc_kernel_alloc_output(ctx, 2, TFC_DTYPE_INT64, 1, sdims) : NULL;
  if (!os) return;
  int64_t *shape = os->data;
  for (int d = 0; d < rank - 1; d++) shape[d] = a->shape[d];
  shape[rank - 1] = widest;
  int64_t *ix = oi->data;
  size_t esz = tfc_dtype_size(a->values->dtype);
  for (int64_t e = 0; e < r->n; e++) {
    int64_t g = r->group[e];
    for (int d = rank - 2; d >= 0; d--) {
      ix[e * rank + d] = g % a->shape[d];
      g /= a->shape[d];
    }
    ix[e * rank + rank - 1] = r->col[e];
    const tfc_tensor *src = r->src[e] >= 0 ? a->values : b->values;
    int64_t si = r->src[e] >= 0 ? r->src[e] : -r->src[e] - 1;
    if (src->dtype == TFC_DTYPE_STRING) {
      const tfc_string *s = (const tfc_string *)src->data + si;
      if (!tfc_tensor_set_string(ov, e, s->data, s->len, ctx->st)) return;
    } else {
      memcpy((char *)ov->data + (size_t)e * esz, (const char *)src->data + (size_t)si * esz, esz);
    }
  }
}

/* The set operation named by the set_operation attr, or -1 with ctx failed. */
static int read_op(tfc_kernel_ctx *ctx) {
  const tfc_string *s = NULL;
  if (!tfc_attrs_get_string(ctx->attrs, "set_operation", &s, ctx->st)) return -1;
  static const char *const names[] = {"a-b", "b-a", "intersection", "union"};
  for (int i = 0; i < 4; i++)
    if (s->len == strlen(names[i]) && memcmp(s->data, names[i], s->len) == 0) return i;
  tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Invalid set_operation %.*s.", (int)s->len, s->data ? s->data : "");
  return -1;
}

/* Number of groups of an input (product of all but the last dim). */
static int64_t group_count(const set_input *s) {
  int64_t n = 1;
  for (int d = 0; d < s->rank - 1; d++) n *= s->shape[d];
  return n;
}

/* Elements an input's group can hold at most (for the position buffers). */
static int64_t max_group_elems(const set_input *s) {
  return s->indices ? s->indices->dims[0] : s->shape[s->rank - 1];
}

/* The common body of the three set operations over inputs a and b. */
static void set_operation(tfc_kernel_ctx *ctx, set_input *a, set_input *b) {
  int op = read_op(ctx);
  if (op < 0) return;
  bool same = a->rank == b->rank;
  for (int d = 0; same && d < a->rank - 1; d++) same = a->shape[d] == b->shape[d];
  if (!same) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Mismatched group shapes of set1 (rank %d) and set2 (rank %d).",
                    a->rank, b->rank);
    return;
  }
  int64_t ma = max_group_elems(a), mb = max_group_elems(b);
  int64_t *pa = tfc_malloc((size_t)(ma ? ma : 1) * sizeof *pa), *pb = tfc_malloc((size_t)(mb ? mb : 1) * sizeof *pb);
  result r = {0, 0, NULL, NULL, NULL};
  if (!pa || !pb) goto oom;
  group_cursor ca = {a, 0, group_count(a)}, cb = {b, 0, group_count(b)};
  int64_t na = 0, nb = 0, widest = 0;
  int64_t ga = next_group(&ca, pa, &na), gb = next_group(&cb, pb, &nb);
  while (ga >= 0 || gb >= 0) {
    int64_t g = ga < 0 ? gb : gb < 0 ? ga : (ga < gb ? ga : gb);
    int64_t ua = ga == g ? sort_unique(a->values, pa, na) : 0;
    int64_t ub = gb == g ? sort_unique(b->values, pb, nb) : 0;
    int64_t k = combine(op, a->values, pa, ua, b->values, pb, ub, g, &r);
    if (k < 0) goto oom;
    if (k > widest) widest = k;
    if (ga == g) ga = next_group(&ca, pa, &na);
    if (gb == g) gb = next_group(&cb, pb, &nb);
  }
  emit(ctx, a, b, &r, widest);
  goto done;
oom:
  tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in %s", ctx->op_type);
done:
  tfc_free(pa);
  tfc_free(pb);
  tfc_free(r.group);
  tfc_free(r.col);
  tfc_free(r.src);
}

/* validate_indices attr (default true). */
static bool validate_attr(tfc_kernel_ctx *ctx) {
  bool v = true;
  if (tfc_attrs_find(ctx->attrs, "validate_indices")) tfc_attrs_get_bool(ctx->attrs, "validate_indices", &v, ctx->st);
  return v;
}

/* DenseToDenseSetOperation(set1, set2). */
static void dense_dense_compute(tfc_kernel_ctx *ctx) {
  set_input a, b;
  if (read_dense(ctx, ctx->inputs[0], "set1", &a) && read_dense(ctx, ctx->inputs[1], "set2", &b))
    set_operation(ctx, &a, &b);
}

/* DenseToSparseSetOperation(set1, set2_indices, set2_values, set2_shape). */
static void dense_sparse_compute(tfc_kernel_ctx *ctx) {
  set_input a, b;
  bool v = validate_attr(ctx);
  if (read_dense(ctx, ctx->inputs[0], "set1", &a) &&
      read_sparse(ctx, ctx->inputs[1], ctx->inputs[2], ctx->inputs[3], v, "set2", &b))
    set_operation(ctx, &a, &b);
}

/* SparseToSparseSetOperation(set1_indices, set1_values, set1_shape, set2_...). */
static void sparse_sparse_compute(tfc_kernel_ctx *ctx) {
  set_input a, b;
  bool v = validate_attr(ctx);
  if (read_sparse(ctx, ctx->inputs[0], ctx->inputs[1], ctx->inputs[2], v, "set1", &a) &&
      read_sparse(ctx, ctx->inputs[3], ctx->inputs[4], ctx->inputs[5], v, "set2", &b))
    set_operation(ctx, &a, &b);
}

/* SetSize(set_indices, set_values, set_shape) -> int32 [groups...]: unique values per group. */
static void set_size_compute(tfc_kernel_ctx *ctx) {
  set_input s;
  if (!read_sparse(ctx, ctx->inputs[0], ctx->inputs[1], ctx->inputs[2], validate_attr(ctx), "set", &s)) return;
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_INT32, s.rank - 1, s.shape);
  if (!out) return;
  int32_t *o = out->data;
  memset(o, 0, (size_t)out->nelems * sizeof *o);
  int64_t nnz = s.indices->dims[0];
  int64_t *p = tfc_malloc((size_t)(nnz ? nnz : 1) * sizeof *p);
  if (!p) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in SetSize");
    return;
  }
  /* entries of a group are adjacent in row-major order (checked when validate_indices) */
  int64_t i = 0;
  while (i < nnz) {
    int64_t g = sparse_group(&s, i), n = 0;
    while (i < nnz && sparse_group(&s, i) == g) p[n++] = i++;
    if (g >= 0 && g < out->nelems) o[g] += (int32_t)sort_unique(s.values, p, n);
  }
  tfc_free(p);
}

static const tfc_dtype set_types[] = {TFC_DTYPE_INT8,  TFC_DTYPE_INT16,  TFC_DTYPE_INT32,  TFC_DTYPE_INT64,
                                      TFC_DTYPE_UINT8, TFC_DTYPE_UINT16, TFC_DTYPE_STRING, TFC_DTYPE_INVALID};

static const tfc_kernel_def defs[] = {
    {"SetSize", "CPU", "T", set_types, NULL, set_size_compute, NULL, 0},
    {"DenseToDenseSetOperation", "CPU", "T", set_types, NULL, dense_dense_compute, NULL, 0},
    {"DenseToSparseSetOperation", "CPU", "T", set_types, NULL, dense_sparse_compute, NULL, 0},
    {"SparseToSparseSetOperation", "CPU", "T", set_types, NULL, sparse_sparse_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_set_ops = {defs, (int)(sizeof defs / sizeof defs[0])};
