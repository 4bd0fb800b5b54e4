/*
 * array_where.c — data-dependent output sizes: Where (coordinates of true /
 * non-zero elements), Unique (distinct values in first-occurrence order) and
 * ListDiff (the elements of x that are not in y, in x's order).
 */
#include <string.h>

#include "base/alloc.h"
#include "kernels/array_internal.h"

/* ------------------------------------------------------------------ Where */

/* Writes mask[i] = (element i of t is non-zero); false for unsupported types. */
static bool truth_mask(const tfc_tensor *t, uint8_t *mask) {
  int64_t n = t->nelems;
#define MASK_LOOP(T, EXPR)                                   \
  do {                                                       \
    const T *p = t->data;                                    \
    for (int64_t i = 0; i < n; i++) mask[i] = (EXPR) != 0;   \
  } while (0)
  switch (t->dtype) {
    case TFC_DTYPE_FLOAT: MASK_LOOP(float, p[i] != 0.0f); return true;
    case TFC_DTYPE_DOUBLE: MASK_LOOP(double, p[i] != 0.0); return true;
    case TFC_DTYPE_HALF: case TFC_DTYPE_BFLOAT16: MASK_LOOP(uint16_t, p[i] & 0x7fff); return true;
    case TFC_DTYPE_COMPLEX64: MASK_LOOP(float, p[2 * i] != 0.0f || p[2 * i + 1] != 0.0f); return true;
    case TFC_DTYPE_COMPLEX128: MASK_LOOP(double, p[2 * i] != 0.0 || p[2 * i + 1] != 0.0); return true;
    case TFC_DTYPE_STRING: return false;
    default: break;
  }
  switch (tfc_dtype_size(t->dtype)) {
    case 1: MASK_LOOP(uint8_t, p[i]); return true;
    case 2: MASK_LOOP(uint16_t, p[i]); return true;
    case 4: MASK_LOOP(uint32_t, p[i]); return true;
    case 8: MASK_LOOP(uint64_t, p[i]); return true;
    default: return false;
  }
#undef MASK_LOOP
}

/* Where(input): int64 [num_true, rank] coordinates in row-major order.
 * Fails with INVALID_ARGUMENT for a scalar input, as TF's CPU kernel does
 * (it handles ranks 1 to 8 only). */
void arr_where_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *in = ctx->inputs[0];
  int rank = in->rank;
  if (rank == 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "WhereOp : Unhandled input dimensions: 0");
    return;
  }
  int64_t n = in->nelems;
  uint8_t *mask = n ? tfc_malloc((size_t)n) : NULL;
  if (n && !mask) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in Where");
    return;
  }
  if (n && !truth_mask(in, mask)) {
    tfc_free(mask);
    tfc_kernel_fail(ctx, TFC_CODE_UNIMPLEMENTED, "Where does not support %s", tfc_op_dtype_string(in->dtype));
    return;
  }
  int64_t count = 0;
  for (int64_t i = 0; i < n; i++) count += mask[i];
  int64_t dims[2] = {count, rank};
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_INT64, 2, dims);
  if (out && count > 0 && rank > 0) {
    int64_t *o = out->data, idx[TFC_MAX_RANK] = {0};
    for (int64_t i = 0; i < n; i++) {
      if (mask[i]) {
        memcpy(o, idx, sizeof(int64_t) * (size_t)rank);
        o += rank;
      }
      for (int k = rank - 1; k >= 0; k--) {
        if (++idx[k] < in->dims[k]) break;
        idx[k] = 0;
      }
    }
  }
  tfc_free(mask);
}

/* ------------------------------------------------------------------ Unique */

/* Element access for hashing and equality. */
typedef struct uniq {
  tfc_dtype dt;
  size_t es;
  const char *base;
} uniq;

/* FNV-1a over n bytes, continuing from h. */
static uint64_t fnv(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ull;
  return h;
}

/* Hash of element i, consistent with elem_eq (+0 and -0 hash alike). */
static uint64_t elem_hash(const uniq *u, int64_t i) {
  uint64_t h = 14695981039346656037ull;
  const char *p = u->base + (size_t)i * u->es;
  switch (u->dt) {
    case TFC_DTYPE_STRING: {
      const tfc_string *s = (const tfc_string *)(const void *)p;
      return fnv(h, s->data ? s->data : "", s->len);
    }
    case TFC_DTYPE_FLOAT: {
      float f;
      memcpy(&f, p, 4);
      if (f == 0.0f) f = 0.0f;
      return fnv(h, &f, 4);
    }
    case TFC_DTYPE_DOUBLE: {
      double d;
      memcpy(&d, p, 8);
      if (d == 0.0) d = 0.0;
      return fnv(h, &d, 8);
    }
    case TFC_DTYPE_HALF: case TFC_DTYPE_BFLOAT16: {
      uint16_t v;
      memcpy(&v, p, 2);
      if ((v & 0x7fff) == 0) v = 0;
      return fnv(h, &v, 2);
    }
    case TFC_DTYPE_COMPLEX64: {
      float c[2];
      memcpy(c, p, 8);
      for (int k = 0; k < 2; k++) if (c[k] == 0.0f) c[k] = 0.0f;
      return fnv(h, c, 8);
    }
    case TFC_DTYPE_COMPLEX128: {
      double c[2];
      memcpy(c, p, 16);
      for (int k = 0; k < 2; k++) if (c[k] == 0.0) c[k] = 0.0;
      return fnv(h, c, 16);
    }
    default: return fnv(h, p, u->es);
  }
}

/* True when the elements at a and b (of u's type) compare equal with the
 * type's == (NaN != NaN). */
static bool ptr_eq(const uniq *u, const char *a, const char *b) {
  switch (u->dt) {
    case TFC_DTYPE_STRING: {
      const tfc_string *x = (const tfc_string *)(const void *)a, *y = (const tfc_string *)(const void *)b;
      return x->len == y->len && (x->len == 0 || memcmp(x->data, y->data, x->len) == 0);
    }
    case TFC_DTYPE_FLOAT: {
      float x, y;
      memcpy(&x, a, 4);
      memcpy(&y, b, 4);
      return x == y;
    }
    case TFC_DTYPE_DOUBLE: {
      double x, y;
      memcpy(&x, a, 8);
      memcpy(&y, b, 8);
      return x == y;
    }
    case TFC_DTYPE_HALF: case TFC_DTYPE_BFLOAT16: {
      uint16_t x, y;
      memcpy(&x, a, 2);
      memcpy(&y, b, 2);
      float fx = u->dt == TFC_DTYPE_HALF ? tfc_half_to_float(x) : tfc_bfloat16_to_float(x);
      float fy = u->dt == TFC_DTYPE_HALF ? tfc_half_to_float(y) : tfc_bfloat16_to_float(y);
      return fx == fy;
    }
    case TFC_DTYPE_COMPLEX64: {
      float x[2], y[2];
      memcpy(x, a, 8);
      memcpy(y, b, 8);
      return x[0] == y[0] && x[1] == y[1];
    }
    case TFC_DTYPE_COMPLEX128: {
      double x[2], y[2];
      memcpy(x, a, 16);
      memcpy(y, b, 16);
      return x[0] == y[0] && x[1] == y[1];
    }
    default: return memcmp(a, b, u->es) == 0;
  }
}

/* True when elements i and j compare equal with the type's == (NaN != NaN). */
static bool elem_eq(const uniq *u, int64_t i, int64_t j) {
  return ptr_eq(u, u->base + (size_t)i * u->es, u->base + (size_t)j * u->es);
}

/* Unique(x): y = distinct values of the vector x in order of first
 * occurrence, idx[i] = position of x[i] in y. UniqueWithCounts (a third
 * output) also gives count[k] = how often y[k] occurs in x (type out_idx). */
void arr_unique_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *x = ctx->inputs[0];
  if (x->rank != 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "unique expects a 1D vector.");
    return;
  }
  tfc_dtype idx_type = TFC_DTYPE_INT32;
  if (ctx->out_types) {
    idx_type = tfc_dtype_base(ctx->out_types[1]);
  } else {
    const tfc_attr_value *v = tfc_attrs_find(ctx->attrs, "out_idx");
    if (v && v->kind == TFC_ATTR_TYPE) idx_type = v->v.type;
  }
  int64_t n = x->nelems;
  if (idx_type == TFC_DTYPE_INT32 && n > INT32_MAX) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "unique does not support input sizes that exceed int32");
    return;
  }
  tfc_tensor *idx = tfc_kernel_alloc_output(ctx, 1, idx_type, 1, &n);
  if (!idx) return;
  uniq u = {x->dtype, tfc_dtype_size(x->dtype), x->data};
  size_t cap = 16;
  while (cap < (size_t)n * 2) cap <<= 1;
  int64_t *slots = tfc_malloc(cap * sizeof(int64_t));        /* x index of the representative, -1 empty */
  int64_t *first = tfc_malloc(((size_t)n + 1) * sizeof(int64_t)); /* unique k -> x index */
  int64_t *slot_id = tfc_malloc(cap * sizeof(int64_t));      /* slot -> unique k */
  int64_t *counts = ctx->n_outputs > 2 ? tfc_calloc((size_t)n + 1, sizeof(int64_t)) : NULL;
  if (!slots || !first || !slot_id || (ctx->n_outputs > 2 && !counts)) {
    tfc_free(counts);
    tfc_free(slots);
    tfc_free(first);
    tfc_free(slot_id);
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in Unique");
    return;
  }
  memset(slots, 0xff, cap * sizeof(int64_t));
  int64_t nu = 0;
  for (int64_t i = 0; i < n; i++) {
    size_t s = (size_t)elem_hash(&u, i) & (cap - 1);
    while (slots[s] >= 0 && !elem_eq(&u, slots[s], i)) s = (s + 1) & (cap - 1);
    int64_t k;
    if (slots[s] < 0) {
      slots[s] = i;
      slot_id[s] = k = nu;
      first[nu++] = i;
    } else {
      k = slot_id[s];
    }
    if (counts) counts[k]++;
    if (idx_type == TFC_DTYPE_INT32) ((int32_t *)idx->data)[i] = (int32_t)k;
    else ((int64_t *)idx->data)[i] = k;
  }
  tfc_tensor *y = tfc_kernel_alloc_output(ctx, 0, x->dtype, 1, &nu);
  if (y) {
    char *d = y->data;
    for (int64_t k = 0; k < nu; k++)
      if (!arr_copy(ctx, x->dtype, d + (size_t)k * u.es, u.base + (size_t)first[k] * u.es, 1)) break;
  }
  tfc_tensor *count = (y && counts) ? tfc_kernel_alloc_output(ctx, 2, idx_type, 1, &nu) : NULL;
  for (int64_t k = 0; count && k < nu; k++) {
    if (idx_type == TFC_DTYPE_INT32) ((int32_t *)count->data)[k] = (int32_t)counts[k];
    else ((int64_t *)count->data)[k] = counts[k];
  }
  tfc_free(counts);
  tfc_free(slots);
  tfc_free(first);
  tfc_free(slot_id);
}

/* ListDiff(x, y) (tf.setdiff1d): out = the elements of the vector x that do
 * not occur in the vector y, in x's order (repeats kept), idx = their
 * positions in x. y's elements go into an open-addressing table first, so
 * the cost is O(len(x) + len(y)). */
void arr_list_diff_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *x = ctx->inputs[0], *y = ctx->inputs[1];
  if (x->rank != 1 || y->rank != 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "x should be a 1D vector.");
    if (x->rank == 1) tfc_status_set(ctx->st, TFC_CODE_INVALID_ARGUMENT, "y should be a 1D vector.");
    return;
  }
  tfc_dtype idx_type = TFC_DTYPE_INT32;
  if (ctx->out_types) {
    idx_type = tfc_dtype_base(ctx->out_types[1]);
  } else {
    const tfc_attr_value *v = tfc_attrs_find(ctx->attrs, "out_idx");
    if (v && v->kind == TFC_ATTR_TYPE) idx_type = v->v.type;
  }
  int64_t n = x->nelems, m = y->nelems;
  if (idx_type == TFC_DTYPE_INT32 && n > INT32_MAX) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "setdiff1d does not support input sizes that exceed int32");
    return;
  }
  uniq ux = {x->dtype, tfc_dtype_size(x->dtype), x->data};
  uniq uy = {y->dtype, tfc_dtype_size(y->dtype), y->data};
  size_t cap = 16;
  while (cap < (size_t)m * 2) cap <<= 1;
  int64_t *slots = tfc_malloc(cap * sizeof(int64_t));   /* y index, -1 empty */
  int64_t *keep = tfc_malloc(((size_t)n + 1) * sizeof(int64_t));
  if (!slots || !keep) {
    tfc_free(slots);
    tfc_free(keep);
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in ListDiff");
    return;
  }
  memset(slots, 0xff, cap * sizeof(int64_t));
  for (int64_t j = 0; j < m; j++) {
    size_t s = (size_t)elem_hash(&uy, j) & (cap - 1);
    while (slots[s] >= 0 && !elem_eq(&uy, slots[s], j)) s = (s + 1) & (cap - 1);
    if (slots[s] < 0) slots[s] = j;
  }
  int64_t nk = 0;
  for (int64_t i = 0; i < n; i++) {
    const char *p = ux.base + (size_t)i * ux.es;
    size_t s = (size_t)elem_hash(&ux, i) & (cap - 1);
    bool found = false;
    while (slots[s] >= 0) {
      if (ptr_eq(&ux, p, uy.base + (size_t)slots[s] * uy.es)) {
        found = true;
        break;
      }
      s = (s + 1) & (cap - 1);
    }
    if (!found) keep[nk++] = i;
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, x->dtype, 1, &nk);
  tfc_tensor *idx = out ? tfc_kernel_alloc_output(ctx, 1, idx_type, 1, &nk) : NULL;
  if (idx) {
    for (int64_t k = 0; k < nk; k++) {
      if (!arr_copy(ctx, x->dtype, (char *)out->data + (size_t)k * ux.es,
                    ux.base + (size_t)keep[k] * ux.es, 1))
        break;
      if (idx_type == TFC_DTYPE_INT32) ((int32_t *)idx->data)[k] = (int32_t)keep[k];
      else ((int64_t *)idx->data)[k] = keep[k];
    }
  }
  tfc_free(slots);
  tfc_free(keep);
}
