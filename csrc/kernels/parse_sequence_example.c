/*
 * parse_sequence_example.c — CPU kernels ParseSingleSequenceExample,
 * ParseSequenceExample and ParseSequenceExampleV2: serialized
 * tf.train.SequenceExamples into the context's dense tensors and sparse
 * (indices, values, dense_shape) triples and the feature lists' dense
 * [steps, *shape] tensors (with their lengths) and sparse triples indexed
 * (step, position), with TensorFlow's attrs, outputs and error messages.
 *
 * Two passes over the batch: the first walks each SequenceExample's wire
 * bytes once (io/example.h for the context, io/sequence_example.h for the
 * feature lists), keeps the last entry of each requested key, checks types
 * and counts values and steps; after the output sizes are known the second
 * copies the values into the outputs. V2's ragged keys give (values,
 * row splits) for the context and (values, outer splits over the steps,
 * inner splits over the values) for feature lists.
 */
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "io/example.h"
#include "io/sequence_example.h"
#include "kernels/kernel.h"
#include "kernels/parsing_internal.h"

enum { G_CS = 0, G_CD = 1, G_FS = 2, G_FD = 3, G_CR = 4, G_FR = 5, N_GROUPS = 6 };

typedef enum { SQ_SINGLE, SQ_V1, SQ_V2 } sq_variant;

/* Attrs read once per kernel. */
typedef struct sqstate {
  sq_variant variant;
  int n[N_GROUPS];
  tfc_dtype *types[N_GROUPS];
  tfc_shape *shapes[N_GROUPS];   /* dense groups only */
  tfc_dtype *splits[N_GROUPS];   /* ragged groups only: int32 or int64 row splits */
} sqstate;

/* One requested key. */
typedef struct skey {
  const char *key;
  size_t len;
  int group, index;
  tfc_dtype dtype;
  tfc_shape shape;           /* dense: the (step) shape */
  int64_t stride;            /* dense: values per example (context) or step (list) */
  const tfc_tensor *def;     /* G_CD: the default (may be empty) */
  bool missing_ok;           /* G_FD: a missing list is empty */
} skey;

/* What one example holds for one key. */
typedef struct cell {
  tfc_feature f;             /* context: f.end NULL when absent */
  const uint8_t *list;       /* feature list payload, NULL when absent */
  size_t llen;
  int64_t count;             /* values (all steps for a list) */
  int64_t steps, max_step;   /* feature lists: steps, most values of one step */
  int64_t offset;            /* sparse, ragged: index of the first value in the output */
  int64_t step_offset;       /* ragged lists: index of the first step among the batch's */
} cell;

typedef struct srun {
  tfc_kernel_ctx *ctx;
  const sqstate *ps;
  int nk;
  skey *keys;
  const tfc_string *serialized;
  const tfc_string *names;   /* NULL: "<unknown>" */
  int64_t batch;
  int br;                    /* batch rank: 0 for a scalar input */
  cell *cells;               /* [batch * nk] */
  tfc_tensor **outs;         /* per key: values / dense output */
  tfc_tensor **idx;          /* per key: sparse indices */
  int64_t *max_steps;        /* per key: lists' most steps */
} srun;

/* ---------------------------------------------------------------- state */

/* Frees the attrs read by init. */
void tfc_parse_sequence_example_free(void *p) {
  sqstate *ps = p;
  if (!ps) return;
  for (int g = 0; g < N_GROUPS; g++) {
    tfc_free(ps->types[g]);
    tfc_free(ps->shapes[g]);
    tfc_free(ps->splits[g]);
  }
  tfc_free(ps);
}

/* Copies list(type) attr `name` into *out (*n entries; absent: none). */
static bool get_types(const tfc_attrs *a, const char *name, tfc_dtype **out, int *n, tfc_status *st) {
  const tfc_attr_value *v = tfc_attrs_find(a, name);
  *n = v && v->kind == TFC_ATTR_LIST ? v->v.list.n : 0;
  *out = tfc_calloc((size_t)*n + 1, sizeof **out);
  if (!*out) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM");
  for (int i = 0; i < *n; i++) (*out)[i] = v->v.list.v.type[i];
  return true;
}

/* Copies list(shape) attr `name` into *out; it must have n fully known entries. */
static bool get_shapes(const tfc_attrs *a, const char *name, int n, tfc_shape **out, tfc_status *st) {
  const tfc_attr_value *v = tfc_attrs_find(a, name);
  int have = v && v->kind == TFC_ATTR_LIST ? v->v.list.n : 0;
  if (have != n)
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "len(%s) != %d: %d", name, n, have);
  *out = tfc_calloc((size_t)n + 1, sizeof **out);
  if (!*out) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM");
  for (int i = 0; i < n; i++) {
    tfc_shape s = v->v.list.v.shape[i];
    if (s.rank < 0) return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "%s[%d] has unknown rank", name, i);
    for (int k = 0; k < s.rank; k++)
      if (s.dims[k] < 0)
        return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "%s[%d] must be fully defined", name, i);
    (*out)[i] = s;
  }
  return true;
}

/* Checks that int attr `name` (when present) equals n. */
static bool check_count(const tfc_attrs *a, const char *name, int n, tfc_status *st) {
  const tfc_attr_value *v = tfc_attrs_find(a, name);
  if (v && v->kind == TFC_ATTR_I && v->v.i != n)
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "%s (%lld) must match the number of types (%d)",
                          name, (long long)v->v.i, n);
  return true;
}

/* Reads the key types, dense shapes and (V2) ragged types once per node. */
bool tfc_parse_sequence_example_init(const tfc_kernel_init *ki, void **state) {
  sqstate *ps = tfc_calloc(1, sizeof *ps);
  if (!ps) return tfc_status_set(ki->st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM");
  ps->variant = !strcmp(ki->op_type, "ParseSingleSequenceExample") ? SQ_SINGLE
                : !strcmp(ki->op_type, "ParseSequenceExample") ? SQ_V1 : SQ_V2;
  bool ok = get_types(ki->attrs, "context_sparse_types", &ps->types[G_CS], &ps->n[G_CS], ki->st) &&
            get_types(ki->attrs, "Tcontext_dense", &ps->types[G_CD], &ps->n[G_CD], ki->st) &&
            get_types(ki->attrs, "feature_list_sparse_types", &ps->types[G_FS], &ps->n[G_FS], ki->st) &&
            get_types(ki->attrs, "feature_list_dense_types", &ps->types[G_FD], &ps->n[G_FD], ki->st) &&
            get_shapes(ki->attrs, "context_dense_shapes", ps->n[G_CD], &ps->shapes[G_CD], ki->st) &&
            get_shapes(ki->attrs, "feature_list_dense_shapes", ps->n[G_FD], &ps->shapes[G_FD], ki->st) &&
            check_count(ki->attrs, "Ncontext_sparse", ps->n[G_CS], ki->st) &&
            check_count(ki->attrs, "Ncontext_dense", ps->n[G_CD], ki->st) &&
            check_count(ki->attrs, "Nfeature_list_sparse", ps->n[G_FS], ki->st) &&
            check_count(ki->attrs, "Nfeature_list_dense", ps->n[G_FD], ki->st);
  if (ok && ps->variant == SQ_V2) {
    int ncs = 0, nfs = 0;
    ok = get_types(ki->attrs, "context_ragged_value_types", &ps->types[G_CR], &ps->n[G_CR], ki->st) &&
         get_types(ki->attrs, "feature_list_ragged_value_types", &ps->types[G_FR], &ps->n[G_FR], ki->st) &&
         get_types(ki->attrs, "context_ragged_split_types", &ps->splits[G_CR], &ncs, ki->st) &&
         get_types(ki->attrs, "feature_list_ragged_split_types", &ps->splits[G_FR], &nfs, ki->st);
    if (ok && (ncs != ps->n[G_CR] || nfs != ps->n[G_FR]))
      ok = tfc_status_set(ki->st, TFC_CODE_INVALID_ARGUMENT,
                          "len(ragged_split_types) != len(ragged_value_types): %d vs. %d, %d vs. %d", ncs,
                          ps->n[G_CR], nfs, ps->n[G_FR]);
  }
  if (!ok) {
    tfc_parse_sequence_example_free(ps);
    return false;
  }
  *state = ps;
  return true;
}

/* ---------------------------------------------------------------- helpers */

/* The Feature list kind that holds values of dtype t. */
static tfc_feature_kind dtype_kind(tfc_dtype t) {
  return t == TFC_DTYPE_FLOAT ? TFC_FEATURE_FLOAT
         : t == TFC_DTYPE_INT64 ? TFC_FEATURE_INT64 : TFC_FEATURE_BYTES;
}

/* True for the context's key groups (read from the Features, not the lists). */
static bool is_context(int group) { return group == G_CS || group == G_CD || group == G_CR; }

/* The index of key (p, n) among the requested keys of the context (context
 * true) or of the feature lists, or -1. */
static int find_key(const srun *r, bool context, const uint8_t *p, size_t n) {
  for (int k = 0; k < r->nk; k++)
    if (is_context(r->keys[k].group) == context && r->keys[k].len == n &&
        memcmp(r->keys[k].key, p, n) == 0)
      return k;
  return -1;
}

/* The name printed for example b ("<unknown>" without names). */
static void example_name(const srun *r, int64_t b, char *buf, size_t cap) {
  const tfc_string *s = r->names ? &r->names[b] : NULL;
  if (s && s->len)
    snprintf(buf, cap, "%.*s", (int)(s->len > 200 ? 200 : s->len), s->data);
  else
    snprintf(buf, cap, "<unknown>");
}

/* A key as a NUL-terminated string (cut at 255 bytes) for messages. */
static const char *key_str(const skey *k, char *buf, size_t cap) {
  snprintf(buf, cap, "%.*s", (int)(k->len > 255 ? 255 : k->len), k->key);
  return buf;
}

/* ---------------------------------------------------------------- pass 1 */

/* Walks the steps of feature list k of example b: checks types, counts. */
static bool scan_list(srun *r, int64_t b, const skey *pk, cell *c) {
  tfc_feature_list_iter it;
  tfc_feature_list_iter_init(&it, c->list, c->llen);
  tfc_feature f;
  int rc;
  char kb[256], shape[128];
  key_str(pk, kb, sizeof kb);
  while ((rc = tfc_feature_list_iter_next(&it, &f)) == 1) {
    if (f.kind != TFC_FEATURE_NONE && f.kind != dtype_kind(pk->dtype)) {
      char name[256];
      example_name(r, b, name, sizeof name);
      return tfc_kernel_fail(r->ctx, TFC_CODE_INVALID_ARGUMENT,
                             "Name: %s, Feature %s: %s, Index: %lld.  Data types don't match. "
                             "Expected type: %s", name, r->ps->variant == SQ_SINGLE ? "List" : "list", kb,
                             (long long)c->steps, tfc_op_dtype_string(pk->dtype));
    }
    int64_t n = tfc_feature_count(&f);
    if (n < 0) break;
    if (pk->group == G_FD && r->ps->variant == SQ_SINGLE && n != pk->stride) {
      tfc_shape_debug_string(&pk->shape, shape, sizeof shape);
      char name[256];
      example_name(r, b, name, sizeof name);
      if (pk->dtype == TFC_DTYPE_STRING) /* TF's message for bytes lists differs in two words */
        return tfc_kernel_fail(r->ctx, TFC_CODE_INVALID_ARGUMENT,
                               "Name: %s, Key %s, Index: %lld.  Number of bytes values != expected.  "
                               "Values size: %lld but output shape: %s", name, kb, (long long)c->steps,
                               (long long)n, shape);
      return tfc_kernel_fail(r->ctx, TFC_CODE_INVALID_ARGUMENT,
                             "Name: %s, Key: %s, Index: %lld.  Number of %s values != expected.  "
                             "values size: %lld but output shape: %s", name, kb, (long long)c->steps,
                             tfc_op_dtype_string(pk->dtype), (long long)n, shape);
    }
    c->count += n;
    c->steps++;
    if (n > c->max_step) c->max_step = n;
  }
  if (rc != 0) {
    char name[256];
    example_name(r, b, name, sizeof name);
    return tfc_kernel_fail(r->ctx, TFC_CODE_INVALID_ARGUMENT, "Invalid protocol message input, example id: %s",
                           name);
  }
  if (pk->group == G_FD && (pk->stride == 0 ? c->count != 0 : c->count % pk->stride != 0)) {
    tfc_shape full;
    full.rank = pk->shape.rank + 1;
    full.dims[0] = -1;
    for (int i = 0; i < pk->shape.rank; i++) full.dims[i + 1] = pk->shape.dims[i];
    tfc_shape_debug_string(&full, shape, sizeof shape);
    return tfc_kernel_fail(r->ctx, TFC_CODE_INVALID_ARGUMENT,
                           "Feature list '%s' has an unexpected number of values.  Total values size: "
                           "%lld is not consistent with output shape: %s", kb, (long long)c->count, shape);
  }
  return true;
}

/* Reads example b: keeps the requested entries, checks types, counts. */
static bool scan_example(srun *r, int64_t b) {
  cell *cells = r->cells + b * r->nk;
  memset(cells, 0, sizeof *cells * (size_t)r->nk);
  const tfc_string *s = &r->serialized[b];
  const uint8_t *data = (const uint8_t *)(s->data ? s->data : "");
  tfc_example_iter it;
  tfc_example_iter_init(&it, data, s->len);
  const uint8_t *key;
  size_t klen;
  tfc_feature f;
  int rc;
  while ((rc = tfc_example_iter_next(&it, &key, &klen, &f)) == 1) {
    int k = find_key(r, true, key, klen);
    if (k >= 0) cells[k].f = f;
  }
  tfc_feature_lists_iter lit;
  tfc_feature_lists_iter_init(&lit, data, s->len);
  const uint8_t *list;
  size_t llen;
  int lrc = 0;
  while (rc == 0 && (lrc = tfc_feature_lists_iter_next(&lit, &key, &klen, &list, &llen)) == 1) {
    int k = find_key(r, false, key, klen);
    if (k >= 0) {
      cells[k].list = list;
      cells[k].llen = llen;
    }
  }
  char name[256], kb[256];
  if (rc < 0 || lrc < 0) {
    example_name(r, b, name, sizeof name);
    return tfc_kernel_fail(r->ctx, TFC_CODE_INVALID_ARGUMENT, "Invalid protocol message input, example id: %s",
                           name);
  }
  for (int k = 0; k < r->nk; k++) {
    const skey *pk = &r->keys[k];
    cell *c = &cells[k];
    if (is_context(pk->group)) {
      if (!c->f.end) {
        c->count = pk->group == G_CD ? pk->def->nelems : 0;
        continue;
      }
      if (c->f.kind != TFC_FEATURE_NONE && c->f.kind != dtype_kind(pk->dtype)) {
        example_name(r, b, name, sizeof name);
        return tfc_kernel_fail(r->ctx, TFC_CODE_INVALID_ARGUMENT,
                               "Name: %s, Context feature: %s.  Data types don't match. Expected type: %s",
                               name, key_str(pk, kb, sizeof kb), tfc_op_dtype_string(pk->dtype));
      }
      c->count = tfc_feature_count(&c->f);
      if (c->count < 0) {
        example_name(r, b, name, sizeof name);
        return tfc_kernel_fail(r->ctx, TFC_CODE_INVALID_ARGUMENT,
                               "Invalid protocol message input, example id: %s", name);
      }
      continue;
    }
    if (!c->list) {
      if (pk->group == G_FD && !pk->missing_ok) {
        example_name(r, b, name, sizeof name);
        return tfc_kernel_fail(r->ctx, TFC_CODE_INVALID_ARGUMENT,
                               "Name: %s, Feature list '%s' is required but could not be found.  Did you "
                               "mean to include it in feature_list_dense_missing_assumed_empty or "
                               "feature_list_dense_defaults?", name, key_str(pk, kb, sizeof kb));
      }
      continue;
    }
    if (!scan_list(r, b, pk, c)) return false;
  }
  return true;
}

/* Checks the context's dense features against their shapes (TF's order: the
 * batch's largest count first, then each example). */
static bool check_context_dense(srun *r) {
  char kb[256], name[256], shape[128];
  for (int k = 0; k < r->nk; k++) {
    const skey *pk = &r->keys[k];
    if (pk->group != G_CD) continue;
    key_str(pk, kb, sizeof kb);
    if (r->ps->variant == SQ_SINGLE) {
      const cell *c = &r->cells[k];
      example_name(r, 0, name, sizeof name);
      if (!c->f.end && pk->def->nelems == 0)
        return tfc_kernel_fail(r->ctx, TFC_CODE_INVALID_ARGUMENT,
                               "Name: %s, Context feature '%s' is required but could not be found.", name, kb);
      if (c->count != pk->stride) {
        tfc_shape_debug_string(&pk->shape, shape, sizeof shape);
        return tfc_kernel_fail(r->ctx, TFC_CODE_INVALID_ARGUMENT,
                               "Name: %s, Key: %s, Index: 0.  Number of %s values != expected.  values "
                               "size: %lld but output shape: %s", name, kb, tfc_op_dtype_string(pk->dtype),
                               (long long)c->count, shape);
      }
      continue;
    }
    int64_t max = 0;
    for (int64_t b = 0; b < r->batch; b++)
      if (r->cells[b * r->nk + k].count > max) max = r->cells[b * r->nk + k].count;
    if (r->batch > 0 && max != pk->stride)
      return tfc_kernel_fail(r->ctx, TFC_CODE_INVALID_ARGUMENT,
                             "Inconsistent max number of elements for feature %s: expected %lld, but found %lld",
                             kb, (long long)pk->stride, (long long)max);
    for (int64_t b = 0; b < r->batch; b++) {
      const cell *c = &r->cells[b * r->nk + k];
      if (!c->f.end && pk->def->nelems == 0)
        return tfc_kernel_fail(r->ctx, TFC_CODE_INVALID_ARGUMENT,
                               "Feature: %s (data type: %s) is required but could not be found.", kb,
                               tfc_op_dtype_string(pk->dtype));
      if (c->count != pk->stride) {
        example_name(r, b, name, sizeof name);
        return tfc_kernel_fail(r->ctx, TFC_CODE_INVALID_ARGUMENT, "Unexpected number of elements in example %s",
                               name);
      }
    }
  }
  return true;
}

/* ---------------------------------------------------------------- outputs */

/* Output positions: sparse indices, values, shapes, dense values and
 * ragged values and splits of the context; sparse indices, values, shapes,
 * dense values, (V1, V2) dense lengths, ragged values, outer and inner
 * splits of the feature lists. G_FD + N_GROUPS: the lengths. */
static int out_base(const sqstate *ps, int group) {
  int cs = ps->n[G_CS], cd = ps->n[G_CD], cr = ps->n[G_CR], fs = ps->n[G_FS], fd = ps->n[G_FD];
  int fd_base = 3 * cs + cd + 2 * cr + 3 * fs;
  switch (group) {
    case G_CS: return 0;
    case G_CD: return 3 * cs;
    case G_CR: return 3 * cs + cd;
    case G_FS: return 3 * cs + cd + 2 * cr;
    case G_FD: return fd_base;
    default: return fd_base + 2 * fd;   /* G_FR, after the lengths */
  }
}

/* Sets element i of an int32 / int64 splits tensor. */
static void set_split(tfc_tensor *t, int64_t i, int64_t v) {
  if (t->dtype == TFC_DTYPE_INT32) ((int32_t *)t->data)[i] = (int32_t)v;
  else ((int64_t *)t->data)[i] = v;
}

/* Allocates a splits output of dtype: [n] for a batch, a scalar (holding
 * `scalar`) for a scalar input. */
static tfc_tensor *alloc_splits(srun *r, int o, tfc_dtype dtype, int64_t n, int64_t scalar) {
  tfc_tensor *t = tfc_kernel_alloc_output(r->ctx, o, dtype, r->br ? 1 : 0, &n);
  if (t && !r->br) set_split(t, 0, scalar);
  return t;
}

/* Allocates every output once the counts are known. */
static bool alloc_outputs(srun *r) {
  tfc_kernel_ctx *ctx = r->ctx;
  const sqstate *ps = r->ps;
  int br = r->br;
  for (int k = 0; k < r->nk; k++) {
    skey *pk = &r->keys[k];
    int ns = ps->n[pk->group];
    int base = out_base(ps, pk->group);
    int64_t total = 0, max = 0, max_steps = 0;
    for (int64_t b = 0; b < r->batch; b++) {
      cell *c = &r->cells[b * r->nk + k];
      c->offset = total;
      total += c->count;
      int64_t m = is_context(pk->group) ? c->count : c->max_step;
      if (m > max) max = m;
      if (c->steps > max_steps) max_steps = c->steps;
    }
    r->max_steps[k] = max_steps;
    if (pk->group == G_CR || pk->group == G_FR) {
      tfc_dtype st = ps->splits[pk->group][pk->index];
      int nr = ps->n[pk->group];
      int64_t steps = 0;
      for (int64_t b = 0; b < r->batch; b++) {
        r->cells[b * r->nk + k].step_offset = steps;
        steps += r->cells[b * r->nk + k].steps;
      }
      if (st == TFC_DTYPE_INT32 && (total > INT32_MAX || steps > INT32_MAX))
        return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                               "Ragged feature %.*s has more values than int32 row splits can hold",
                               (int)pk->len, pk->key);
      r->outs[k] = tfc_kernel_alloc_output(ctx, base + pk->index, pk->dtype, 1, &total);
      if (!r->outs[k]) return false;
      bool list = pk->group == G_FR;
      tfc_tensor *outer = alloc_splits(r, base + nr + pk->index, st, r->batch + 1, list ? steps : total);
      if (!outer) return false;
      if (r->br) {
        int64_t acc = 0;
        for (int64_t b = 0; b <= r->batch; b++) {
          set_split(outer, b, acc);
          if (b < r->batch) acc += list ? r->cells[b * r->nk + k].steps : r->cells[b * r->nk + k].count;
        }
      }
      if (list) {
        int64_t n_inner = steps + 1;
        r->idx[k] = tfc_kernel_alloc_output(ctx, base + 2 * nr + pk->index, st, 1, &n_inner);
        if (!r->idx[k]) return false;
        set_split(r->idx[k], 0, 0);
      }
      continue;
    }
    int64_t dims[TFC_MAX_RANK + 2];
    int rank = 0;
    if (br) dims[rank++] = r->batch;
    if (pk->group == G_CD || pk->group == G_FD) {
      if (pk->group == G_FD) dims[rank++] = max_steps;
      if (rank + pk->shape.rank > TFC_MAX_RANK)
        return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "dense output rank exceeds %d", TFC_MAX_RANK);
      for (int i = 0; i < pk->shape.rank; i++) dims[rank++] = pk->shape.dims[i];
      r->outs[k] = tfc_kernel_alloc_output(ctx, base + pk->index, pk->dtype, rank, dims);
      if (!r->outs[k]) return false;
      if (pk->dtype != TFC_DTYPE_STRING && r->outs[k]->data)
        memset(r->outs[k]->data, 0, (size_t)r->outs[k]->nelems * tfc_dtype_size(pk->dtype));
      if (pk->group == G_FD && ps->variant != SQ_SINGLE) {
        tfc_tensor *len = tfc_kernel_alloc_output(ctx, base + ps->n[G_FD] + pk->index, TFC_DTYPE_INT64, br,
                                                  &r->batch);
        if (!len) return false;
        for (int64_t b = 0; b < r->batch; b++) ((int64_t *)len->data)[b] = r->cells[b * r->nk + k].steps;
      }
      continue;
    }
    int ir = br + (pk->group == G_FS ? 2 : 1);
    int64_t idims[2] = {total, ir};
    r->idx[k] = tfc_kernel_alloc_output(ctx, base + pk->index, TFC_DTYPE_INT64, 2, idims);
    r->outs[k] = tfc_kernel_alloc_output(ctx, base + ns + pk->index, pk->dtype, 1, &total);
    int64_t sd = ir;
    tfc_tensor *shape = tfc_kernel_alloc_output(ctx, base + 2 * ns + pk->index, TFC_DTYPE_INT64, 1, &sd);
    if (!r->idx[k] || !r->outs[k] || !shape) return false;
    int64_t *sp = shape->data;
    int d = 0;
    if (br) sp[d++] = r->batch;
    if (pk->group == G_FS) sp[d++] = max_steps;
    sp[d] = max;
  }
  return true;
}

/* Writes the sparse indices of n values from output row `at`: (b,) (step,) i. */
static void write_indices(tfc_tensor *idx, int64_t at, int64_t n, int br, int64_t b, bool list, int64_t step) {
  int ir = br + (list ? 2 : 1);
  int64_t *p = (int64_t *)idx->data + at * ir;
  for (int64_t i = 0; i < n; i++, p += ir) {
    int d = 0;
    if (br) p[d++] = b;
    if (list) p[d++] = step;
    p[d] = i;
  }
}

/* Copies example b's values into the outputs. */
static bool fill_example(srun *r, int64_t b) {
  tfc_kernel_ctx *ctx = r->ctx;
  char name[256], kb[256], shape[128];
  for (int k = 0; k < r->nk; k++) {
    const skey *pk = &r->keys[k];
    const cell *c = &r->cells[b * r->nk + k];
    tfc_tensor *out = r->outs[k];
    bool ok = true;
    if (pk->group == G_CD) {
      int64_t at = b * pk->stride;
      ok = c->f.end ? tfc_parse_copy_values(&c->f, out, at, pk->stride, ctx->st)
                    : tfc_parse_copy_elems(pk->def, 0, out, at, pk->stride, ctx->st);
    } else if (pk->group == G_CS || pk->group == G_CR) {
      if (c->count > 0) {
        ok = tfc_parse_copy_values(&c->f, out, c->offset, c->count, ctx->st);
        if (pk->group == G_CS) write_indices(r->idx[k], c->offset, c->count, r->br, b, false, 0);
      }
    } else if (c->list) {
      tfc_feature_list_iter it;
      tfc_feature_list_iter_init(&it, c->list, c->llen);
      tfc_feature f;
      int64_t step = 0;
      int64_t at = pk->group == G_FD ? b * r->max_steps[k] * pk->stride : c->offset;
      while (ok && tfc_feature_list_iter_next(&it, &f) == 1) {
        int64_t n = tfc_feature_count(&f);
        if (pk->group == G_FD && n != pk->stride) {
          example_name(r, b, name, sizeof name);
          tfc_shape_debug_string(&pk->shape, shape, sizeof shape);
          return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                                 "Name: %s, Key: %s, Index: %lld.  Number of values != expected.  values "
                                 "size: %lld but output shape: %s", name, key_str(pk, kb, sizeof kb),
                                 (long long)step, (long long)n, shape);
        }
        if (n > 0) ok = tfc_parse_copy_values(&f, out, at, n, ctx->st);
        if (ok && pk->group == G_FS) write_indices(r->idx[k], at, n, r->br, b, true, step);
        at += n;
        if (pk->group == G_FR) set_split(r->idx[k], c->step_offset + step + 1, at);
        step++;
      }
    }
    if (!ok) {
      if (tfc_kernel_ok(ctx)) {
        example_name(r, b, name, sizeof name);
        tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Invalid protocol message input, example id: %s", name);
      }
      return false;
    }
  }
  return true;
}

/* ---------------------------------------------------------------- keys */

/* Sets key i of group g from bytes s. */
static void set_key(srun *r, int *at, int g, int i, const tfc_string *s) {
  skey *k = &r->keys[(*at)++];
  k->key = s->data ? s->data : "";
  k->len = s->len;
  k->group = g;
  k->index = i;
  k->dtype = r->ps->types[g][i];
  k->stride = 1;
  if (g == G_CD || g == G_FD) {
    k->shape = r->ps->shapes[g][i];
    for (int d = 0; d < k->shape.rank; d++) k->stride *= k->shape.dims[d];
  }
}

/* Reads the keys of group g from a string vector tensor. */
static bool keys_from_vector(srun *r, int *at, int g, const tfc_tensor *t, const char *what) {
  if (t->nelems != r->ps->n[g])
    return tfc_kernel_fail(r->ctx, TFC_CODE_INVALID_ARGUMENT, "Expected len(%s) == %d, got %lld", what,
                           r->ps->n[g], (long long)t->nelems);
  for (int i = 0; i < r->ps->n[g]; i++) set_key(r, at, g, i, (const tfc_string *)t->data + i);
  return true;
}

/* Reads the keys of group g from list(string) attr `name`. */
static bool keys_from_attr(srun *r, int *at, int g, const char *name) {
  const tfc_attr_list *l;
  if (!tfc_attrs_get_list(r->ctx->attrs, name, &l, r->ctx->st)) return false;
  if (l->n != r->ps->n[g])
    return tfc_kernel_fail(r->ctx, TFC_CODE_INVALID_ARGUMENT, "len(%s) != %d: %d", name, r->ps->n[g], l->n);
  for (int i = 0; i < l->n; i++) {
    tfc_string s = {.data = l->v.s[i].data, .len = l->v.s[i].len};
    set_key(r, at, g, i, &s);
  }
  return true;
}

/* Reads the keys of group g from n scalar string inputs from `first`. */
static bool keys_from_scalars(srun *r, int *at, int g, int first) {
  for (int i = 0; i < r->ps->n[g]; i++) {
    const tfc_tensor *t = r->ctx->inputs[first + i];
    if (t->rank != 0 || t->dtype != TFC_DTYPE_STRING)
      return tfc_kernel_fail(r->ctx, TFC_CODE_INVALID_ARGUMENT, "Expected key %d to be a scalar string", i);
    set_key(r, at, g, i, t->data);
  }
  return true;
}

/* Sets up defaults (inputs from `first`) and which lists may be missing. */
static bool setup_dense(srun *r, int first, const tfc_tensor *missing) {
  const tfc_attr_list *missing_attr = NULL;
  if (r->ps->variant == SQ_V1 &&
      !tfc_attrs_get_list(r->ctx->attrs, "feature_list_dense_missing_assumed_empty", &missing_attr, r->ctx->st))
    return false;
  if (r->ps->variant == SQ_V2 && missing && missing->nelems != r->ps->n[G_FD])
    return tfc_kernel_fail(r->ctx, TFC_CODE_INVALID_ARGUMENT,
                           "Expected len(feature_list_dense_missing_assumed_empty) == %d, got %lld",
                           r->ps->n[G_FD], (long long)missing->nelems);
  char shape[128], dshape[128];
  for (int k = 0; k < r->nk; k++) {
    skey *pk = &r->keys[k];
    if (pk->group == G_CD) {
      pk->def = r->ctx->inputs[first + pk->index];
      if (pk->def->dtype != pk->dtype)
        return tfc_kernel_fail(r->ctx, TFC_CODE_INVALID_ARGUMENT, "context_dense_defaults[%d] has type %s, expected %s",
                               pk->index, tfc_op_dtype_string(pk->def->dtype), tfc_op_dtype_string(pk->dtype));
      if (pk->def->nelems != 0 && pk->def->nelems != pk->stride) {
        tfc_shape_debug_string(&pk->shape, shape, sizeof shape);
        tfc_shape ds = tfc_tensor_shape(pk->def);
        tfc_shape_debug_string(&ds, dshape, sizeof dshape);
        return tfc_kernel_fail(r->ctx, TFC_CODE_INVALID_ARGUMENT,
                               "Default value for context_dense_keys[%d] has an incorrect shape: %s vs. %s",
                               pk->index, dshape, shape);
      }
    } else if (pk->group == G_FD) {
      if (r->ps->variant == SQ_V2) {
        pk->missing_ok = ((const bool *)missing->data)[pk->index];
      } else if (r->ps->variant == SQ_V1) {
        for (int i = 0; i < missing_attr->n && !pk->missing_ok; i++)
          pk->missing_ok = missing_attr->v.s[i].len == pk->len &&
                           memcmp(missing_attr->v.s[i].data, pk->key, pk->len) == 0;
      } else {
        const tfc_string *s = missing->data;
        for (int64_t i = 0; i < missing->nelems && !pk->missing_ok; i++)
          pk->missing_ok = s[i].len == pk->len && memcmp(s[i].data, pk->key, pk->len) == 0;
      }
    }
  }
  return true;
}

/* ---------------------------------------------------------------- compute */

/* Parses the batch: keys and defaults, pass 1, the context checks, the
 * outputs, pass 2. */
void tfc_parse_sequence_example_compute(tfc_kernel_ctx *ctx) {
  const sqstate *ps = ctx->state;
  srun r;
  memset(&r, 0, sizeof r);
  r.ctx = ctx;
  r.ps = ps;
  r.nk = 0;
  for (int g = 0; g < N_GROUPS; g++) r.nk += ps->n[g];
  const tfc_tensor *ser = ctx->inputs[0];
  if ((ps->variant == SQ_SINGLE && ser->rank != 0) || (ps->variant == SQ_V1 && ser->rank != 1) ||
      ser->rank > 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Expected serialized to be a %s, got shape: rank %d",
                    ps->variant == SQ_SINGLE ? "scalar" : ps->variant == SQ_V1 ? "vector"
                                                                               : "scalar or vector",
                    ser->rank);
    return;
  }
  r.serialized = ser->data;
  r.batch = ser->nelems;
  r.br = ser->rank;
  const tfc_tensor *names = ctx->inputs[ps->variant == SQ_SINGLE ? ctx->n_inputs - 1 : 1];
  if (ps->variant == SQ_SINGLE) {
    if (names->nelems > 1) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Expected debug_name to be a scalar");
      return;
    }
  } else if (names->nelems > 0 && names->nelems != r.batch) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Expected len(debug_name) == len(serialized), but got: %lld vs. %lld",
                    (long long)names->nelems, (long long)r.batch);
    return;
  }
  if (names->nelems > 0) r.names = names->data;
  r.keys = tfc_calloc((size_t)r.nk + 1, sizeof *r.keys);
  r.outs = tfc_calloc((size_t)r.nk + 1, sizeof *r.outs);
  r.idx = tfc_calloc((size_t)r.nk + 1, sizeof *r.idx);
  r.max_steps = tfc_calloc((size_t)r.nk + 1, sizeof *r.max_steps);
  r.cells = tfc_calloc((size_t)(r.batch * r.nk) + 1, sizeof *r.cells);
  bool ok = r.keys && r.outs && r.idx && r.max_steps && r.cells;
  if (!ok) tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM parsing %lld examples", (long long)r.batch);
  int at = 0;
  if (ok && ps->variant == SQ_SINGLE) {
    int ncs = ps->n[G_CS], ncd = ps->n[G_CD], nfs = ps->n[G_FS], nfd = ps->n[G_FD];
    ok = keys_from_scalars(&r, &at, G_CS, 2) && keys_from_scalars(&r, &at, G_CD, 2 + ncs) &&
         keys_from_scalars(&r, &at, G_FS, 2 + ncs + ncd) && keys_from_scalars(&r, &at, G_FD, 2 + ncs + ncd + nfs) &&
         setup_dense(&r, 2 + ncs + ncd + nfs + nfd, ctx->inputs[1]);
  } else if (ok && ps->variant == SQ_V1) {
    ok = keys_from_attr(&r, &at, G_CS, "context_sparse_keys") &&
         keys_from_attr(&r, &at, G_CD, "context_dense_keys") &&
         keys_from_attr(&r, &at, G_FS, "feature_list_sparse_keys") &&
         keys_from_attr(&r, &at, G_FD, "feature_list_dense_keys") && setup_dense(&r, 2, NULL);
  } else if (ok) {
    ok = keys_from_vector(&r, &at, G_CS, ctx->inputs[2], "context_sparse_keys") &&
         keys_from_vector(&r, &at, G_CD, ctx->inputs[3], "context_dense_keys") &&
         keys_from_vector(&r, &at, G_FS, ctx->inputs[5], "feature_list_sparse_keys") &&
         keys_from_vector(&r, &at, G_FD, ctx->inputs[6], "feature_list_dense_keys") &&
         keys_from_vector(&r, &at, G_CR, ctx->inputs[4], "context_ragged_keys") &&
         keys_from_vector(&r, &at, G_FR, ctx->inputs[7], "feature_list_ragged_keys") &&
         setup_dense(&r, 9, ctx->inputs[8]);
  }
  for (int a = 0; ok && a < r.nk; a++)
    for (int b = a + 1; ok && b < r.nk; b++)
      if (is_context(r.keys[a].group) == is_context(r.keys[b].group) && r.keys[a].len == r.keys[b].len &&
          memcmp(r.keys[a].key, r.keys[b].key, r.keys[a].len) == 0)
        ok = tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Duplicate key: %.*s", (int)r.keys[a].len,
                             r.keys[a].key);
  for (int64_t b = 0; ok && b < r.batch; b++) ok = scan_example(&r, b);
  ok = ok && check_context_dense(&r) && alloc_outputs(&r);
  for (int64_t b = 0; ok && b < r.batch; b++) ok = fill_example(&r, b);
  tfc_free(r.keys);
  tfc_free(r.outs);
  tfc_free(r.idx);
  tfc_free(r.max_steps);
  tfc_free(r.cells);
}
