/*
 * parse_example.c — CPU kernels ParseExample, ParseExampleV2 and
 * ParseSingleExample: serialized tf.train.Examples into dense tensors,
 * sparse (indices, values, dense_shape) triples and ragged (values,
 * row_splits) pairs, with TensorFlow's attrs, outputs and error messages.
 *
 * Two passes over the batch, both split across the intra-op pool: the first
 * walks every Example's wire bytes once (io/example.h, no copies), keeps the
 * last Feature of each requested key, checks its type and counts its values;
 * after the output sizes are known the second copies the values straight
 * into the outputs. The first error of the lowest example index is reported.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "io/example.h"
#include "kernels/kernel.h"
#include "kernels/parsing_internal.h"

enum { KIND_SPARSE = 0, KIND_DENSE = 1, KIND_RAGGED = 2 };
enum { LINEAR_KEYS = 8 };

typedef enum { OP_V1, OP_V2, OP_SINGLE } op_variant;

/* One requested feature. */
typedef struct pkey {
  const char *key;
  size_t len;
  int kind, index;        /* KIND_*, position within its kind */
  tfc_dtype dtype;
  /* dense only */
  tfc_shape shape;        /* from dense_shapes */
  bool var;               /* leading -1: variable number of rows */
  int64_t stride;         /* values per row (var) or per example (fixed) */
  const tfc_tensor *def;  /* the default (may be empty) */
} pkey;

/* Attrs read once per kernel. */
typedef struct pstate {
  op_variant variant;
  int n_sparse, n_dense, n_ragged;
  tfc_dtype *sparse_types, *dense_types, *ragged_types, *split_types;
  tfc_shape *dense_shapes;
} pstate;

/* What one step needs. */
typedef struct prun {
  tfc_kernel_ctx *ctx;
  const pstate *ps;
  int nk;
  pkey *keys;
  int32_t *table;         /* open-addressing key table (nk > LINEAR_KEYS), -1 empty */
  uint32_t table_mask;
  const tfc_string *serialized;
  const tfc_string *names;  /* NULL: "<unknown>" */
  int64_t batch;
  int batch_rank;           /* 0 for a scalar input */
  tfc_feature *views;       /* [batch * nk]; .end == NULL when absent */
  int64_t *counts;          /* [batch * nk]: values (sparse, ragged, dense) */
  int64_t *offsets;         /* [batch * nk]: first value index (sparse, ragged) */
  tfc_tensor **outs;        /* per key: values / dense output */
  tfc_tensor **idx_outs;    /* per key: sparse indices or ragged row splits */
  int64_t *max_rows;        /* per key: dense var rows, sparse max count */
  pthread_mutex_t mu;
  atomic_llong err_at;      /* lowest example index that failed, or batch */
  tfc_status err;
} prun;

/* ---------------------------------------------------------------- state */

void tfc_parse_example_free(void *p) {
  pstate *ps = p;
  if (!ps) return;
  tfc_free(ps->sparse_types);
  tfc_free(ps->dense_types);
  tfc_free(ps->ragged_types);
  tfc_free(ps->split_types);
  tfc_free(ps->dense_shapes);
  tfc_free(ps);
}

/* Copies list(type) attr `name` into *out (n entries); absent = empty. */
static bool get_types(const tfc_attrs *a, const char *name, tfc_dtype **out, int *n, tfc_status *st) {
  const tfc_attr_value *v = tfc_attrs_find(a, name);
  *n = v && v->kind == TFC_ATTR_LIST ? v->v.list.n : 0;
  *out = tfc_calloc((size_t)*n + 1, sizeof **out);
  if (!*out) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM");
  for (int i = 0; i < *n; i++) (*out)[i] = v->v.list.v.type[i];
  return true;
}

static bool pstate_init(const tfc_kernel_init *ki, void **state, op_variant variant) {
  pstate *ps = tfc_calloc(1, sizeof *ps);
  if (!ps) return tfc_status_set(ki->st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM");
  ps->variant = variant;
  int n_splits = 0, n_shapes;
  bool ok = get_types(ki->attrs, "sparse_types", &ps->sparse_types, &ps->n_sparse, ki->st) &&
            get_types(ki->attrs, "Tdense", &ps->dense_types, &ps->n_dense, ki->st) &&
            get_types(ki->attrs, "ragged_value_types", &ps->ragged_types, &ps->n_ragged, ki->st) &&
            get_types(ki->attrs, "ragged_split_types", &ps->split_types, &n_splits, ki->st);
  const tfc_attr_value *shapes = ok ? tfc_attrs_find(ki->attrs, "dense_shapes") : NULL;
  n_shapes = shapes && shapes->kind == TFC_ATTR_LIST ? shapes->v.list.n : 0;
  if (ok && n_shapes != ps->n_dense)
    ok = tfc_status_set(ki->st, TFC_CODE_INVALID_ARGUMENT,
                        "len(dense_keys) != len(dense_shapes): %d vs. %d", ps->n_dense, n_shapes);
  if (ok && n_splits != ps->n_ragged)
    ok = tfc_status_set(ki->st, TFC_CODE_INVALID_ARGUMENT,
                        "len(ragged_split_types) != len(ragged_value_types): %d vs. %d", n_splits,
                        ps->n_ragged);
  if (ok) {
    ps->dense_shapes = tfc_calloc((size_t)ps->n_dense + 1, sizeof *ps->dense_shapes);
    if (!ps->dense_shapes) ok = tfc_status_set(ki->st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM");
  }
  for (int d = 0; ok && d < ps->n_dense; d++) {
    tfc_shape s = shapes->v.list.v.shape[d];
    if (s.rank < 0)
      ok = tfc_status_set(ki->st, TFC_CODE_INVALID_ARGUMENT, "dense_shapes[%d] has unknown rank", d);
    for (int k = 0; ok && k < s.rank; k++)
      if (s.dims[k] < 0 && k > 0)
        ok = tfc_status_set(ki->st, TFC_CODE_INVALID_ARGUMENT,
                            "dense_shapes[%d] has unknown dimension %d; only the first may be "
                            "unknown (a variable number of rows)", d, k);
    ps->dense_shapes[d] = s;
  }
  if (ok && variant == OP_SINGLE) {
    int64_t ns;
    const tfc_attr_list *sk, *dk;
    ok = tfc_attrs_get_int(ki->attrs, "num_sparse", &ns, ki->st) &&
         tfc_attrs_get_list(ki->attrs, "sparse_keys", &sk, ki->st) &&
         tfc_attrs_get_list(ki->attrs, "dense_keys", &dk, ki->st);
    if (ok && (sk->n != ps->n_sparse || ns != ps->n_sparse))
      ok = tfc_status_set(ki->st, TFC_CODE_INVALID_ARGUMENT,
                          "len(sparse_keys) != len(sparse_types): %d vs. %d", sk->n, ps->n_sparse);
    if (ok && dk->n != ps->n_dense)
      ok = tfc_status_set(ki->st, TFC_CODE_INVALID_ARGUMENT,
                          "len(dense_keys) != len(dense_types): %d vs. %d", dk->n, ps->n_dense);
  }
  if (ok && variant == OP_V2) {
    int64_t ns;
    ok = tfc_attrs_get_int(ki->attrs, "num_sparse", &ns, ki->st);
    if (ok && ns != ps->n_sparse)
      ok = tfc_status_set(ki->st, TFC_CODE_INVALID_ARGUMENT,
                          "len(sparse_types) != num_sparse: %d vs. %lld", ps->n_sparse, (long long)ns);
  }
  if (!ok) {
    tfc_parse_example_free(ps);
    return false;
  }
  *state = ps;
  return true;
}

bool tfc_parse_example_init(const tfc_kernel_init *ki, void **state) {
  op_variant v = !strcmp(ki->op_type, "ParseExample") ? OP_V1
                 : !strcmp(ki->op_type, "ParseExampleV2") ? OP_V2 : OP_SINGLE;
  return pstate_init(ki, state, v);
}

/* ---------------------------------------------------------------- keys */

static uint32_t key_hash(const uint8_t *p, size_t n) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 16777619u;
  return h;
}

/* The index of key (p, n) among the requested ones, or -1. */
static int find_key(const prun *r, const uint8_t *p, size_t n) {
  if (!r->table) {
    for (int k = 0; k < r->nk; k++)
      if (r->keys[k].len == n && memcmp(r->keys[k].key, p, n) == 0) return k;
    return -1;
  }
  for (uint32_t h = key_hash(p, n) & r->table_mask;; h = (h + 1) & r->table_mask) {
    int k = r->table[h];
    if (k < 0) return -1;
    if (r->keys[k].len == n && memcmp(r->keys[k].key, p, n) == 0) return k;
  }
}

/* Builds the key table for more than LINEAR_KEYS keys; rejects duplicates. */
static bool build_table(prun *r) {
  for (int a = 0; a < r->nk && r->nk <= LINEAR_KEYS; a++)
    for (int b = a + 1; b < r->nk; b++)
      if (r->keys[a].len == r->keys[b].len && memcmp(r->keys[a].key, r->keys[b].key, r->keys[a].len) == 0)
        return tfc_kernel_fail(r->ctx, TFC_CODE_INVALID_ARGUMENT, "Duplicate key: %.*s",
                               (int)r->keys[a].len, r->keys[a].key);
  if (r->nk <= LINEAR_KEYS) return true;
  uint32_t cap = 16;
  while (cap < 2u * (uint32_t)r->nk) cap <<= 1;
  r->table = tfc_malloc(sizeof *r->table * cap);
  if (!r->table) return tfc_kernel_fail(r->ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM");
  for (uint32_t i = 0; i < cap; i++) r->table[i] = -1;
  r->table_mask = cap - 1;
  for (int k = 0; k < r->nk; k++) {
    const uint8_t *p = (const uint8_t *)r->keys[k].key;
    if (find_key(r, p, r->keys[k].len) >= 0)
      return tfc_kernel_fail(r->ctx, TFC_CODE_INVALID_ARGUMENT, "Duplicate key: %.*s",
                             (int)r->keys[k].len, r->keys[k].key);
    uint32_t h = key_hash(p, r->keys[k].len) & r->table_mask;
    while (r->table[h] >= 0) h = (h + 1) & r->table_mask;
    r->table[h] = k;
  }
  return true;
}

/* ---------------------------------------------------------------- errors */

/* The name printed for example b ("<unknown>" without names). */
static void example_name(const prun *r, int64_t b, char *buf, size_t cap) {
  if (r->names && r->names[b].len)
    snprintf(buf, cap, "%.*s", (int)(r->names[b].len > 200 ? 200 : r->names[b].len), r->names[b].data);
  else
    snprintf(buf, cap, "<unknown>");
}

/* Records an error for example b unless an earlier example already failed. */
static void fail_at(prun *r, int64_t b, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fail_at(prun *r, int64_t b, const char *fmt, ...) {
  pthread_mutex_lock(&r->mu);
  if (b < atomic_load(&r->err_at)) {
    atomic_store(&r->err_at, b);
    va_list ap;
    va_start(ap, fmt);
    tfc_status_vset(&r->err, TFC_CODE_INVALID_ARGUMENT, fmt, ap);
    va_end(ap);
  }
  pthread_mutex_unlock(&r->mu);
}

/* The message prefix naming the example and key, in TF's two forms. */
static void where(const prun *r, int64_t b, const pkey *k, char *buf, size_t cap) {
  if (r->ps->variant == OP_SINGLE) {
    snprintf(buf, cap, "Key: %.*s.", (int)k->len, k->key);
    return;
  }
  char name[256];
  example_name(r, b, name, sizeof name);
  snprintf(buf, cap, "Name: %s, Key: %.*s, Index: %lld.", name, (int)k->len, k->key, (long long)b);
}

/* Reports bytes that are no Example, quoting them (escaped, cut at 64 bytes). */
static void fail_unparsable(prun *r, int64_t b) {
  const tfc_string *s = &r->serialized[b];
  char quoted[300];
  size_t q = 0;
  for (size_t i = 0; i < s->len && i < 64 && q + 5 < sizeof quoted; i++) {
    unsigned char c = (unsigned char)s->data[i];
    if (c >= 0x20 && c < 0x7f && c != '\\' && c != '\'') quoted[q++] = (char)c;
    else q += (size_t)snprintf(quoted + q, sizeof quoted - q, "\\x%02x", c);
  }
  quoted[q] = 0;
  fail_at(r, b, "Could not parse example input, value: '%s%s'", quoted, s->len > 64 ? "..." : "");
}

static const char *kind_dtype_name(tfc_feature_kind k) {
  switch (k) {
    case TFC_FEATURE_BYTES: return "string";
    case TFC_FEATURE_FLOAT: return "float";
    case TFC_FEATURE_INT64: return "int64";
    default: return "invalid";
  }
}

static tfc_feature_kind dtype_kind(tfc_dtype t) {
  return t == TFC_DTYPE_FLOAT ? TFC_FEATURE_FLOAT
         : t == TFC_DTYPE_INT64 ? TFC_FEATURE_INT64 : TFC_FEATURE_BYTES;
}

/* ---------------------------------------------------------------- pass 1 */

/* Walks examples [begin, end): keeps the features, checks types and counts. */
static void scan_range(void *arg, int64_t begin, int64_t end) {
  prun *r = arg;
  for (int64_t b = begin; b < end; b++) {
    if (b > atomic_load(&r->err_at)) return;
    tfc_feature *views = r->views + b * r->nk;
    int64_t *counts = r->counts + b * r->nk;
    for (int k = 0; k < r->nk; k++) views[k].end = NULL;
    const tfc_string *s = &r->serialized[b];
    tfc_example_iter it;
    tfc_example_iter_init(&it, (const uint8_t *)s->data, s->len);
    const uint8_t *key;
    size_t klen;
    tfc_feature f;
    int rc;
    while ((rc = tfc_example_iter_next(&it, &key, &klen, &f)) == 1) {
      int k = find_key(r, key, klen);
      if (k >= 0) views[k] = f;
    }
    if (rc < 0) {
      fail_unparsable(r, b);
      return;
    }
    for (int k = 0; k < r->nk; k++) {
      const pkey *pk = &r->keys[k];
      char at[512];
      counts[k] = 0;
      bool present = views[k].end && views[k].kind != TFC_FEATURE_NONE;
      if (!present) {
        views[k].end = NULL;
        if (pk->kind == KIND_DENSE && !pk->var && pk->def->nelems == 0) {
          if (r->ps->variant == OP_SINGLE)
            fail_at(r, b, "Feature: %.*s (data type: %s) is required but could not be found.",
                    (int)pk->len, pk->key, tfc_op_dtype_string(pk->dtype));
          else {
            char name[256];
            example_name(r, b, name, sizeof name);
            fail_at(r, b, "Name: %s, Feature: %.*s (data type: %s) is required but could not be found.",
                    name, (int)pk->len, pk->key, tfc_op_dtype_string(pk->dtype));
          }
          return;
        }
        continue;
      }
      if (views[k].kind != dtype_kind(pk->dtype)) {
        where(r, b, pk, at, sizeof at);
        if (pk->kind == KIND_DENSE)
          fail_at(r, b, "%s  Data types don't match. Data type: %s but expected type: %s", at,
                  kind_dtype_name(views[k].kind), tfc_op_dtype_string(pk->dtype));
        else
          fail_at(r, b, "%s  Data types don't match. Expected type: %s, Actual type: %s", at,
                  tfc_op_dtype_string(pk->dtype), kind_dtype_name(views[k].kind));
        return;
      }
      int64_t n = tfc_feature_count(&views[k]);
      if (n < 0) {
        fail_unparsable(r, b);
        return;
      }
      if (pk->kind == KIND_DENSE) {
        if (!pk->var && n != pk->stride) {
          char shape[128];
          tfc_shape_debug_string(&pk->shape, shape, sizeof shape);
          where(r, b, pk, at, sizeof at);
          fail_at(r, b, "%s  Number of %s values != expected.  Values size: %lld but output shape: %s",
                  at, tfc_op_dtype_string(pk->dtype), (long long)n, shape);
          return;
        }
        if (pk->var && (pk->stride == 0 ? n != 0 : n % pk->stride != 0)) {
          char shape[128];
          tfc_shape_debug_string(&pk->shape, shape, sizeof shape);
          where(r, b, pk, at, sizeof at);
          fail_at(r, b, "%s  Number of %s values is not a multiple of stride length. Saw %lld "
                  "values but output shape is: %s", at, tfc_op_dtype_string(pk->dtype),
                  (long long)n, shape);
          return;
        }
      }
      counts[k] = n;
    }
  }
}

/* ---------------------------------------------------------------- pass 2 */

bool tfc_parse_copy_values(const tfc_feature *f, tfc_tensor *out, int64_t at, int64_t n, tfc_status *st) {
  switch (out->dtype) {
    case TFC_DTYPE_FLOAT:
      return tfc_feature_floats(f, (float *)out->data + at, n);
    case TFC_DTYPE_INT64:
      return tfc_feature_int64s(f, (int64_t *)out->data + at, n);
    default: {
      tfc_bytes_iter it;
      tfc_bytes_iter_init(&it, f);
      const uint8_t *d;
      size_t len;
      int64_t i = 0;
      int rc;
      while ((rc = tfc_bytes_iter_next(&it, &d, &len)) == 1 && i < n)
        if (!tfc_tensor_set_string(out, at + i++, (const char *)d, len, st)) return false;
      return rc >= 0 && i == n;
    }
  }
}

bool tfc_parse_copy_elems(const tfc_tensor *src, int64_t s_at, tfc_tensor *dst, int64_t d_at, int64_t n,
                       tfc_status *st) {
  if (n <= 0) return true;
  if (dst->dtype == TFC_DTYPE_STRING) {
    const tfc_string *s = (const tfc_string *)src->data + s_at;
    for (int64_t i = 0; i < n; i++)
      if (!tfc_tensor_set_string(dst, d_at + i, s[i].data, s[i].len, st)) return false;
    return true;
  }
  size_t es = tfc_dtype_size(dst->dtype);
  memcpy((char *)dst->data + (size_t)d_at * es, (const char *)src->data + (size_t)s_at * es, (size_t)n * es);
  return true;
}

/* Fills examples [begin, end) into the allocated outputs. */
static void fill_range(void *arg, int64_t begin, int64_t end) {
  prun *r = arg;
  tfc_status st;
  tfc_status_clear(&st);
  for (int64_t b = begin; b < end; b++) {
    const tfc_feature *views = r->views + b * r->nk;
    const int64_t *counts = r->counts + b * r->nk;
    for (int k = 0; k < r->nk; k++) {
      const pkey *pk = &r->keys[k];
      tfc_tensor *out = r->outs[k];
      int64_t n = counts[k];
      bool ok = true;
      if (pk->kind == KIND_DENSE) {
        int64_t per_example = pk->var ? r->max_rows[k] * pk->stride : pk->stride;
        int64_t at = b * per_example;
        if (views[k].end) {
          ok = tfc_parse_copy_values(&views[k], out, at, n, &st);
        } else if (!pk->var) {
          ok = tfc_parse_copy_elems(pk->def, 0, out, at, per_example, &st);
          n = per_example;
        } else {
          n = 0;
        }
        /* padding of variable-length rows with the default (or zeros) */
        for (int64_t i = n; ok && i < per_example; i++) {
          ok = tfc_parse_copy_elems(pk->def, 0, out, at + i, 1, &st);
        }
      } else if (n > 0) {
        int64_t at = r->offsets[b * r->nk + k];
        ok = tfc_parse_copy_values(&views[k], out, at, n, &st);
        if (pk->kind == KIND_SPARSE) {
          int64_t *idx = r->idx_outs[k]->data;
          int ir = r->batch_rank + 1;
          for (int64_t i = 0; i < n; i++) {
            if (ir == 2) idx[(at + i) * 2] = b;
            idx[(at + i) * ir + ir - 1] = i;
          }
        }
      }
      if (!ok) {
        if (st.code != TFC_CODE_OK) {
          pthread_mutex_lock(&r->mu);
          if (r->err.code == TFC_CODE_OK) tfc_status_copy(&r->err, &st);
          atomic_store(&r->err_at, 0);
          pthread_mutex_unlock(&r->mu);
        } else {
          fail_unparsable(r, b);
        }
        return;
      }
    }
  }
}

/* ---------------------------------------------------------------- compute */

/* Reads the keys of kind `kind` (n of them) from the string tensor t, or the
 * scalar inputs first..first+n (t NULL), into r->keys from position at. */
static bool take_keys(prun *r, int at, int kind, int n, const tfc_tensor *t, int first,
                      const char *what) {
  tfc_kernel_ctx *ctx = r->ctx;
  if (t && t->nelems != n)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Expected len(%s) == %d, got %lld", what, n,
                           (long long)t->nelems);
  for (int i = 0; i < n; i++) {
    const tfc_string *s;
    if (t) {
      s = (const tfc_string *)t->data + i;
    } else {
      const tfc_tensor *in = ctx->inputs[first + i];
      if (in->rank != 0)
        return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Expected %s[%d] to be a scalar, got shape %s",
                               what, i, "non-scalar");
      s = in->data;
    }
    pkey *k = &r->keys[at + i];
    k->key = s->data ? s->data : "";
    k->len = s->len;
    k->kind = kind;
    k->index = i;
  }
  return true;
}

/* Sets up the dense keys' types, shapes and defaults (inputs from `first`). */
static bool setup_dense(prun *r, int at, int first) {
  const pstate *ps = r->ps;
  for (int d = 0; d < ps->n_dense; d++) {
    pkey *k = &r->keys[at + d];
    k->dtype = ps->dense_types[d];
    k->shape = ps->dense_shapes[d];
    k->var = k->shape.rank > 0 && k->shape.dims[0] < 0;
    k->stride = 1;
    for (int i = k->var ? 1 : 0; i < k->shape.rank; i++) k->stride *= k->shape.dims[i];
    k->def = r->ctx->inputs[first + d];
    if (k->def->dtype != k->dtype)
      return tfc_kernel_fail(r->ctx, TFC_CODE_INVALID_ARGUMENT, "dense_defaults[%d] has type %s, expected %s",
                             d, tfc_op_dtype_string(k->def->dtype), tfc_op_dtype_string(k->dtype));
    char shape[128], dshape[128];
    tfc_shape_debug_string(&k->shape, shape, sizeof shape);
    tfc_shape ds = tfc_tensor_shape(k->def);
    tfc_shape_debug_string(&ds, dshape, sizeof dshape);
    if (k->var && k->def->nelems != 1)
      return tfc_kernel_fail(r->ctx, TFC_CODE_INVALID_ARGUMENT,
                             "dense_shape[%d] is a variable length shape: %s, therefore def_value[%d] "
                             "must contain a single element (the padding element).  But its shape "
                             "is: %s", d, shape, d, dshape);
    if (!k->var && k->def->nelems != 0 && k->def->nelems != k->stride)
      return tfc_kernel_fail(r->ctx, TFC_CODE_INVALID_ARGUMENT,
                             "def_value[%d].shape() == %s is not compatible with dense_shapes_[%d] "
                             "== %s", d, dshape, d, shape);
  }
  return true;
}

/* Allocates the outputs once the counts are known. Output layout:
 * sparse indices, values, shapes; dense values; ragged values, row splits. */
static bool alloc_outputs(prun *r) {
  tfc_kernel_ctx *ctx = r->ctx;
  const pstate *ps = r->ps;
  int S = ps->n_sparse, D = ps->n_dense, R = ps->n_ragged;
  int br = r->batch_rank;
  for (int k = 0; k < r->nk; k++) {
    pkey *pk = &r->keys[k];
    int64_t total = 0, max = 0;
    for (int64_t b = 0; b < r->batch; b++) {
      int64_t n = r->counts[b * r->nk + k];
      if (pk->kind != KIND_DENSE) r->offsets[b * r->nk + k] = total;
      total += n;
      if (n > max) max = n;
    }
    if (pk->kind == KIND_DENSE) {
      int64_t dims[TFC_MAX_RANK + 1];
      int rank = 0;
      if (br) dims[rank++] = r->batch;
      if (pk->var) {
        r->max_rows[k] = pk->stride ? max / pk->stride : 0;
        dims[rank++] = r->max_rows[k];
        for (int i = 1; i < pk->shape.rank; i++) dims[rank++] = pk->shape.dims[i];
      } else {
        for (int i = 0; i < pk->shape.rank; i++) dims[rank++] = pk->shape.dims[i];
      }
      if (rank > TFC_MAX_RANK)
        return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "dense output rank exceeds %d", TFC_MAX_RANK);
      r->outs[k] = tfc_kernel_alloc_output(ctx, 3 * S + pk->index, pk->dtype, rank, dims);
      if (!r->outs[k]) return false;
    } else if (pk->kind == KIND_SPARSE) {
      int64_t idims[2] = {total, br + 1};
      r->idx_outs[k] = tfc_kernel_alloc_output(ctx, pk->index, TFC_DTYPE_INT64, 2, idims);
      r->outs[k] = tfc_kernel_alloc_output(ctx, S + pk->index, pk->dtype, 1, &total);
      int64_t sd = br + 1;
      tfc_tensor *shape = tfc_kernel_alloc_output(ctx, 2 * S + pk->index, TFC_DTYPE_INT64, 1, &sd);
      if (!r->idx_outs[k] || !r->outs[k] || !shape) return false;
      int64_t *sp = shape->data;
      if (br) sp[0] = r->batch;
      sp[br] = max;
    } else {
      r->outs[k] = tfc_kernel_alloc_output(ctx, 3 * S + D + pk->index, pk->dtype, 1, &total);
      int64_t ns = r->batch + 1;
      tfc_dtype st = ps->split_types[pk->index];
      tfc_tensor *splits = tfc_kernel_alloc_output(ctx, 3 * S + D + R + pk->index, st, 1, &ns);
      if (!r->outs[k] || !splits) return false;
      int64_t acc = 0;
      for (int64_t b = 0; b <= r->batch; b++) {
        if (st == TFC_DTYPE_INT32) ((int32_t *)splits->data)[b] = (int32_t)acc;
        else ((int64_t *)splits->data)[b] = acc;
        if (b < r->batch) acc += r->counts[b * r->nk + k];
      }
      if (st == TFC_DTYPE_INT32 && acc > INT32_MAX)
        return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                               "Ragged feature %.*s has more values than int32 row splits can hold",
                               (int)pk->len, pk->key);
    }
  }
  return true;
}

void tfc_parse_example_compute(tfc_kernel_ctx *ctx) {
  const pstate *ps = ctx->state;
  prun r;
  memset(&r, 0, sizeof r);
  r.ctx = ctx;
  r.ps = ps;
  r.nk = ps->n_sparse + ps->n_dense + ps->n_ragged;
  const tfc_tensor *ser = ctx->inputs[0];
  if (ps->variant == OP_V1 && ser->rank != 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Expected serialized to be a vector, got shape: rank %d",
                    ser->rank);
    return;
  }
  if (ps->variant == OP_SINGLE && ser->rank != 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Expected serialized to be a scalar, got shape: rank %d",
                    ser->rank);
    return;
  }
  if (ps->variant == OP_V2 && ser->rank > 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Expected serialized to be a scalar or vector, got shape: rank %d", ser->rank);
    return;
  }
  r.serialized = ser->data;
  r.batch = ser->nelems;
  r.batch_rank = ser->rank;
  if (ps->variant != OP_SINGLE) {
    const tfc_tensor *names = ctx->inputs[1];
    if (names->nelems > 0) {
      if (names->nelems != r.batch || names->rank != ser->rank) {
        tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                        "Expected len(names) == len(serialized), but got: %lld vs. %lld",
                        (long long)names->nelems, (long long)r.batch);
        return;
      }
      r.names = names->data;
    }
  }
  r.keys = tfc_calloc((size_t)r.nk + 1, sizeof *r.keys);
  r.outs = tfc_calloc((size_t)r.nk + 1, sizeof *r.outs);
  r.idx_outs = tfc_calloc((size_t)r.nk + 1, sizeof *r.idx_outs);
  r.max_rows = tfc_calloc((size_t)r.nk + 1, sizeof *r.max_rows);
  size_t cells = (size_t)(r.batch * r.nk) + 1;
  r.views = tfc_malloc(sizeof *r.views * cells);
  r.counts = tfc_malloc(sizeof *r.counts * cells);
  r.offsets = tfc_calloc(cells, sizeof *r.offsets);
  bool ok = r.keys && r.outs && r.idx_outs && r.max_rows && r.views && r.counts && r.offsets;
  if (!ok) tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM parsing %lld examples", (long long)r.batch);
  int S = ps->n_sparse, D = ps->n_dense, R = ps->n_ragged;
  /* keys: sparse, dense, ragged */
  if (ok) {
    if (ps->variant == OP_V1) {
      ok = take_keys(&r, 0, KIND_SPARSE, S, NULL, 2, "sparse_keys") &&
           take_keys(&r, S, KIND_DENSE, D, NULL, 2 + S, "dense_keys") && setup_dense(&r, S, 2 + S + D);
    } else if (ps->variant == OP_V2) {
      ok = take_keys(&r, 0, KIND_SPARSE, S, ctx->inputs[2], 0, "sparse_keys") &&
           take_keys(&r, S, KIND_DENSE, D, ctx->inputs[3], 0, "dense_keys") &&
           take_keys(&r, S + D, KIND_RAGGED, R, ctx->inputs[4], 0, "ragged_keys") && setup_dense(&r, S, 5);
    } else {
      const tfc_attr_list *sk, *dk;
      ok = tfc_attrs_get_list(ctx->attrs, "sparse_keys", &sk, ctx->st) &&
           tfc_attrs_get_list(ctx->attrs, "dense_keys", &dk, ctx->st);
      for (int i = 0; ok && i < S; i++)
        r.keys[i] = (pkey){.key = sk->v.s[i].data ? sk->v.s[i].data : "", .len = sk->v.s[i].len,
                           .kind = KIND_SPARSE, .index = i};
      for (int i = 0; ok && i < D; i++)
        r.keys[S + i] = (pkey){.key = dk->v.s[i].data ? dk->v.s[i].data : "", .len = dk->v.s[i].len,
                               .kind = KIND_DENSE, .index = i};
      ok = ok && setup_dense(&r, S, 1);
    }
  }
  for (int i = 0; ok && i < S; i++) r.keys[i].dtype = ps->sparse_types[i];
  for (int i = 0; ok && i < R; i++) r.keys[S + D + i].dtype = ps->ragged_types[i];
  ok = ok && build_table(&r);
  if (ok) {
    pthread_mutex_init(&r.mu, NULL);
    atomic_store(&r.err_at, r.batch);
    tfc_status_clear(&r.err);
    tfc_kernel_parallel_for(ctx, r.batch, 16, scan_range, &r);
    if (atomic_load(&r.err_at) < r.batch || r.err.code != TFC_CODE_OK) {
      tfc_status_copy(ctx->st, &r.err);
      ok = false;
    }
    ok = ok && alloc_outputs(&r);
    if (ok) {
      tfc_kernel_parallel_for(ctx, r.batch, 16, fill_range, &r);
      if (r.err.code != TFC_CODE_OK) tfc_status_copy(ctx->st, &r.err);
    }
    pthread_mutex_destroy(&r.mu);
  }
  tfc_free(r.keys);
  tfc_free(r.outs);
  tfc_free(r.idx_outs);
  tfc_free(r.max_rows);
  tfc_free(r.views);
  tfc_free(r.counts);
  tfc_free(r.offsets);
  tfc_free(r.table);
}
