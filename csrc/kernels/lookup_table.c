/*
 * lookup_table.c — the lookup-table object (lookup_table.h): creation, TF's
 * argument checks, and the HASH / MUTABLE kinds. Those keep their entries
 * as dense rows (keys[i], values[i*value_size ...]) under an open-addressing
 * index of row numbers; a removal moves the last row into the hole, so
 * export is a plain copy of the rows. The DENSE kind is in lookup_dense.c.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "base/fingerprint.h"
#include "core/op_registry.h"
#include "kernels/lookup_internal.h"

#define SLOT_EMPTY (-1)
#define SLOT_DELETED (-2)

/* ------------------------------------------------------------ elements */

bool tfc_lookup_elem_equal(tfc_dtype dt, const void *a, int64_t ia, const void *b, int64_t ib) {
  if (dt == TFC_DTYPE_STRING) {
    const tfc_string *x = (const tfc_string *)a + ia, *y = (const tfc_string *)b + ib;
    return x->len == y->len && (x->len == 0 || memcmp(x->data, y->data, x->len) == 0);
  }
  size_t sz = tfc_dtype_size(dt);
  return memcmp((const char *)a + (size_t)ia * sz, (const char *)b + (size_t)ib * sz, sz) == 0;
}

bool tfc_lookup_elem_copy(tfc_dtype dt, void *dst, int64_t id, const void *src, int64_t is) {
  if (dt == TFC_DTYPE_STRING) {
    tfc_string *d = (tfc_string *)dst + id;
    const tfc_string *s = (const tfc_string *)src + is;
    char *p = NULL;
    if (s->len) {
      p = tfc_malloc(s->len);
      if (!p) return false;
      memcpy(p, s->data, s->len);
    }
    tfc_free(d->data);
    d->data = p;
    d->len = s->len;
    return true;
  }
  size_t sz = tfc_dtype_size(dt);
  memcpy((char *)dst + (size_t)id * sz, (const char *)src + (size_t)is * sz, sz);
  return true;
}

void tfc_lookup_elem_format(tfc_dtype dt, const void *data, int64_t i, char *buf, size_t n) {
  switch (dt) {
    case TFC_DTYPE_STRING: {
      const tfc_string *s = (const tfc_string *)data + i;
      snprintf(buf, n, "%.*s", s->len > 200 ? 200 : (int)s->len, s->data ? s->data : "");
      return;
    }
    case TFC_DTYPE_BOOL: snprintf(buf, n, "%d", ((const uint8_t *)data)[i] ? 1 : 0); return;
    case TFC_DTYPE_INT32: snprintf(buf, n, "%" PRId32, ((const int32_t *)data)[i]); return;
    case TFC_DTYPE_INT64: snprintf(buf, n, "%" PRId64, ((const int64_t *)data)[i]); return;
    case TFC_DTYPE_FLOAT: snprintf(buf, n, "%g", (double)((const float *)data)[i]); return;
    case TFC_DTYPE_DOUBLE: snprintf(buf, n, "%g", ((const double *)data)[i]); return;
    default: snprintf(buf, n, "?"); return;
  }
}

/* Frees n string elements of arr (nothing for other dtypes). */
static void free_strings(tfc_dtype dt, void *arr, int64_t n) {
  if (dt != TFC_DTYPE_STRING || !arr) return;
  tfc_string *s = arr;
  for (int64_t i = 0; i < n; i++) {
    tfc_free(s[i].data);
    s[i].data = NULL;
    s[i].len = 0;
  }
}

/* ------------------------------------------------------------ the object */

/* Destructor of the table object. */
static void table_destroy(tfc_object *o) {
  tfc_lookup_table *t = (tfc_lookup_table *)o;
  if (t->kind == TFC_LOOKUP_DENSE) {
    tfc_lookup_dense_destroy(t);
  } else {
    free_strings(t->key_dtype, t->keys, t->n);
    free_strings(t->value_dtype, t->values, t->n * t->value_size);
    tfc_free(t->keys);
    tfc_free(t->values);
    tfc_free(t->slots);
  }
  pthread_rwlock_destroy(&t->mu);
  tfc_free(t->name);
  tfc_free(t);
}

static const tfc_object_type lookup_type = {"LookupTable", table_destroy};

const tfc_object_type *tfc_lookup_object_type(void) { return &lookup_type; }

/* True for the key dtypes the tables take. */
static bool key_type_ok(tfc_dtype t) {
  return t == TFC_DTYPE_INT32 || t == TFC_DTYPE_INT64 || t == TFC_DTYPE_STRING;
}

/* True for the value dtypes the tables take. */
static bool value_type_ok(tfc_dtype t) {
  return t == TFC_DTYPE_BOOL || t == TFC_DTYPE_INT32 || t == TFC_DTYPE_INT64 || t == TFC_DTYPE_FLOAT ||
         t == TFC_DTYPE_DOUBLE || t == TFC_DTYPE_STRING;
}

tfc_lookup_table *tfc_lookup_new(const tfc_lookup_config *cfg, tfc_status *st) {
  if (!key_type_ok(cfg->key_dtype) || !value_type_ok(cfg->value_dtype)) {
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Lookup tables of %s -> %s are not supported",
                   tfc_op_dtype_string(cfg->key_dtype), tfc_op_dtype_string(cfg->value_dtype));
    return NULL;
  }
  if (!tfc_shape_is_fully_defined(&cfg->value_shape) || cfg->value_shape.rank > 1) {
    char b[64];
    tfc_shape_debug_string(&cfg->value_shape, b, sizeof b);
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Default value must be a vector, got shape %s", b);
    return NULL;
  }
  tfc_lookup_table *t = tfc_calloc(1, sizeof *t);
  if (!t) {
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM when creating a lookup table");
    return NULL;
  }
  tfc_object_init(&t->hdr, &lookup_type);
  pthread_rwlock_init(&t->mu, NULL);
  t->kind = cfg->kind;
  t->key_dtype = cfg->key_dtype;
  t->value_dtype = cfg->value_dtype;
  t->key_shape = tfc_shape_scalar();
  t->value_shape = cfg->value_shape;
  t->key_size = 1;
  t->value_size = tfc_shape_num_elements(&cfg->value_shape);
  t->name = tfc_strdup(cfg->name ? cfg->name : "");
  t->initialized = cfg->kind != TFC_LOOKUP_HASH;
  if (!t->name) {
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM when creating a lookup table");
    tfc_object_unref(&t->hdr);
    return NULL;
  }
  if (cfg->kind == TFC_LOOKUP_DENSE && !tfc_lookup_dense_init(t, cfg, st)) {
    tfc_object_unref(&t->hdr);
    return NULL;
  }
  return t;
}

tfc_lookup_kind tfc_lookup_kind_of(const tfc_lookup_table *t) { return t->kind; }
tfc_dtype tfc_lookup_key_dtype(const tfc_lookup_table *t) { return t->key_dtype; }
tfc_dtype tfc_lookup_value_dtype(const tfc_lookup_table *t) { return t->value_dtype; }

int64_t tfc_lookup_size(tfc_lookup_table *t) {
  pthread_rwlock_rdlock(&t->mu);
  int64_t n = t->kind == TFC_LOOKUP_DENSE ? t->num_entries : t->n;
  pthread_rwlock_unlock(&t->mu);
  return n;
}

bool tfc_lookup_is_initialized(tfc_lookup_table *t) {
  pthread_rwlock_rdlock(&t->mu);
  bool b = t->initialized;
  pthread_rwlock_unlock(&t->mu);
  return b;
}

/* ------------------------------------------------------------ checks (TF's) */

/* Fails unless keys/values have the table's dtypes ("Key must be type ..."). */
static bool check_types(const tfc_lookup_table *t, const tfc_tensor *keys, const tfc_tensor *values,
                        tfc_status *st) {
  if (keys->dtype != t->key_dtype)
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Key must be type %s but got %s",
                          tfc_op_dtype_string(t->key_dtype), tfc_op_dtype_string(keys->dtype));
  if (values && values->dtype != t->value_dtype)
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Value must be type %s but got %s",
                          tfc_op_dtype_string(t->value_dtype), tfc_op_dtype_string(values->dtype));
  return true;
}

/* Fails unless keys' shape ends with the key shape; *lead gets the number of
 * leading dims (the batch part). */
static bool check_key_shape(const tfc_lookup_table *t, const tfc_tensor *keys, int *lead, tfc_status *st) {
  int kr = t->key_shape.rank;
  bool ok = keys->rank >= kr;
  for (int i = 0; ok && i < kr; i++) ok = keys->dims[keys->rank - kr + i] == t->key_shape.dims[i];
  if (!ok) {
    tfc_shape ks = tfc_tensor_shape(keys);
    char a[96], b[64];
    tfc_shape_debug_string(&ks, a, sizeof a);
    tfc_shape_debug_string(&t->key_shape, b, sizeof b);
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                          "Input key shape %s must end with the table's key shape %s", a, b);
  }
  *lead = keys->rank - kr;
  return true;
}

/* The shape keys' batch dims + value_shape; false when it would pass TFC_MAX_RANK. */
static bool full_value_shape(const tfc_lookup_table *t, const tfc_tensor *keys, int lead, tfc_shape *out,
                             tfc_status *st) {
  if (lead + t->value_shape.rank > TFC_MAX_RANK)
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Lookup result would have rank > %d", TFC_MAX_RANK);
  out->rank = lead + t->value_shape.rank;
  for (int i = 0; i < lead; i++) out->dims[i] = keys->dims[i];
  for (int i = 0; i < t->value_shape.rank; i++) out->dims[lead + i] = t->value_shape.dims[i];
  return true;
}

/* TF's CheckKeyAndValueTensorsHelper (insert / import / initialize). */
static bool check_keys_values(const tfc_lookup_table *t, const tfc_tensor *keys, const tfc_tensor *values,
                              tfc_status *st) {
  int lead = 0;
  if (!check_types(t, keys, values, st) || !check_key_shape(t, keys, &lead, st)) return false;
  tfc_shape want;
  if (!full_value_shape(t, keys, lead, &want, st)) return false;
  tfc_shape got = tfc_tensor_shape(values);
  if (!tfc_shape_equal(&want, &got)) {
    char a[96], b[96];
    tfc_shape_debug_string(&want, a, sizeof a);
    tfc_shape_debug_string(&got, b, sizeof b);
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Expected shape %s for value, got %s", a, b);
  }
  return true;
}

/* ------------------------------------------------------------ HASH / MUTABLE rows */

/* Hash of key element i of data (dtype dt). */
static uint64_t key_hash(tfc_dtype dt, const void *data, int64_t i) {
  if (dt == TFC_DTYPE_STRING) {
    const tfc_string *s = (const tfc_string *)data + i;
    return tfc_fingerprint64(s->data, s->len);
  }
  int64_t v = dt == TFC_DTYPE_INT32 ? ((const int32_t *)data)[i] : ((const int64_t *)data)[i];
  uint64_t z = (uint64_t)v + 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* True when stored row r holds key element i of data (dtype dt). */
static bool row_has_key(const tfc_lookup_table *t, int64_t r, tfc_dtype dt, const void *data, int64_t i) {
  if (dt == TFC_DTYPE_STRING) return tfc_lookup_elem_equal(TFC_DTYPE_STRING, t->keys, r, data, i);
  int64_t v = dt == TFC_DTYPE_INT32 ? ((const int32_t *)data)[i] : ((const int64_t *)data)[i];
  return ((const int64_t *)t->keys)[r] == v;
}

/* The slot of key i of data (dtype dt: the table's key dtype, or int64 for
 * the stored rows of an integer table): its row's slot when present (*found
 * true), else the first free (empty or deleted) slot of its probe sequence. */
static int64_t probe(const tfc_lookup_table *t, tfc_dtype dt, const void *data, int64_t i, bool *found) {
  uint64_t mask = (uint64_t)t->nslots - 1;
  uint64_t pos = key_hash(dt, data, i) & mask;
  int64_t free_slot = -1;
  for (uint64_t step = 1;; step++) {
    int64_t s = t->slots[pos];
    if (s == SLOT_EMPTY) {
      *found = false;
      return free_slot >= 0 ? free_slot : (int64_t)pos;
    }
    if (s == SLOT_DELETED) {
      if (free_slot < 0) free_slot = (int64_t)pos;
    } else if (row_has_key(t, s, dt, data, i)) {
      *found = true;
      return (int64_t)pos;
    }
    pos = (pos + step) & mask;
  }
}

/* The dtype of the stored key rows (integer keys are kept as int64). */
static tfc_dtype stored_dtype(const tfc_lookup_table *t) {
  return t->key_dtype == TFC_DTYPE_STRING ? TFC_DTYPE_STRING : TFC_DTYPE_INT64;
}

/* Rebuilds the index with nslots slots (a power of two > rows). */
static bool reindex(tfc_lookup_table *t, int64_t nslots) {
  int64_t *slots = tfc_malloc((size_t)nslots * sizeof *slots);
  if (!slots) return false;
  for (int64_t i = 0; i < nslots; i++) slots[i] = SLOT_EMPTY;
  tfc_free(t->slots);
  t->slots = slots;
  t->nslots = nslots;
  t->used_slots = t->n;
  for (int64_t r = 0; r < t->n; r++) {
    bool found;
    int64_t s = probe(t, stored_dtype(t), t->keys, r, &found);
    t->slots[s] = r;
  }
  return true;
}

/* Makes room for `more` new rows (row arrays and index). */
static bool reserve(tfc_lookup_table *t, int64_t more) {
  int64_t need = t->n + more;
  if (need > t->cap) {
    int64_t cap = t->cap ? t->cap : 16;
    while (cap < need) cap *= 2;
    size_t ksz = t->key_dtype == TFC_DTYPE_STRING ? sizeof(tfc_string) : sizeof(int64_t);
    size_t vsz = tfc_dtype_size(t->value_dtype) * (size_t)t->value_size;
    void *k = tfc_realloc(t->keys, (size_t)cap * ksz);
    if (!k) return false;
    t->keys = k;
    void *v = tfc_realloc(t->values, (size_t)cap * (vsz ? vsz : 1));
    if (!v) return false;
    t->values = v;
    memset((char *)t->keys + (size_t)t->cap * ksz, 0, (size_t)(cap - t->cap) * ksz);
    memset((char *)t->values + (size_t)t->cap * vsz, 0, (size_t)(cap - t->cap) * vsz);
    t->cap = cap;
  }
  if ((t->used_slots + more) * 10 >= t->nslots * 7) {
    int64_t ns = t->nslots ? t->nslots : 16;
    while ((need + 1) * 10 >= ns * 7) ns *= 2;
    if (!reindex(t, ns)) return false;
  }
  return true;
}

/* Sets row r's value to row vi of vals (value_size elements each). */
static bool set_row_value(tfc_lookup_table *t, int64_t r, const void *vals, int64_t vi) {
  for (int64_t j = 0; j < t->value_size; j++)
    if (!tfc_lookup_elem_copy(t->value_dtype, t->values, r * t->value_size + j, vals, vi * t->value_size + j))
      return false;
  return true;
}

/* True when row r's value equals row vi of vals. */
static bool row_value_equal(const tfc_lookup_table *t, int64_t r, const void *vals, int64_t vi) {
  for (int64_t j = 0; j < t->value_size; j++)
    if (!tfc_lookup_elem_equal(t->value_dtype, t->values, r * t->value_size + j, vals, vi * t->value_size + j))
      return false;
  return true;
}

/* Inserts or (when `overwrite`) updates n keys; without overwrite a key
 * already present with another value fails as TF's HashTable does. Caller
 * holds the write lock. */
static bool rows_insert(tfc_lookup_table *t, const tfc_tensor *keys, const tfc_tensor *values, bool overwrite,
                        tfc_status *st) {
  int64_t n = keys->nelems;
  if (!reserve(t, n)) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM when inserting into a table");
  for (int64_t i = 0; i < n; i++) {
    bool found;
    int64_t s = probe(t, t->key_dtype, keys->data, i, &found);
    if (found) {
      int64_t r = t->slots[s];
      if (overwrite) {
        if (!set_row_value(t, r, values->data, i)) goto oom;
      } else if (!row_value_equal(t, r, values->data, i)) {
        char k[224], a[224], b[224];
        tfc_lookup_elem_format(t->key_dtype, keys->data, i, k, sizeof k);
        tfc_lookup_elem_format(t->value_dtype, t->values, r * t->value_size, a, sizeof a);
        tfc_lookup_elem_format(t->value_dtype, values->data, i * t->value_size, b, sizeof b);
        return tfc_status_set(st, TFC_CODE_FAILED_PRECONDITION,
                              "HashTable has different value for same key. Key %s has %s and trying to add "
                              "value %s",
                              k, a, b);
      }
      continue;
    }
    int64_t r = t->n;
    if (t->key_dtype == TFC_DTYPE_STRING) {
      if (!tfc_lookup_elem_copy(TFC_DTYPE_STRING, t->keys, r, keys->data, i)) goto oom;
    } else {
      ((int64_t *)t->keys)[r] = t->key_dtype == TFC_DTYPE_INT32 ? ((const int32_t *)keys->data)[i]
                                                                : ((const int64_t *)keys->data)[i];
    }
    if (!set_row_value(t, r, values->data, i)) goto oom;
    if (t->slots[s] == SLOT_EMPTY) t->used_slots++;
    t->slots[s] = r;
    t->n++;
  }
  return true;
oom:
  return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM when inserting into a table");
}

/* Removes the n keys present; moves the last row into each hole. Caller
 * holds the write lock. */
static void rows_remove(tfc_lookup_table *t, const tfc_tensor *keys) {
  if (t->nslots == 0) return;
  size_t vsz = tfc_dtype_size(t->value_dtype) * (size_t)t->value_size;
  for (int64_t i = 0; i < keys->nelems; i++) {
    bool found;
    int64_t s = probe(t, t->key_dtype, keys->data, i, &found);
    if (!found) continue;
    int64_t r = t->slots[s], last = t->n - 1;
    t->slots[s] = SLOT_DELETED;
    if (t->key_dtype == TFC_DTYPE_STRING) free_strings(TFC_DTYPE_STRING, (tfc_string *)t->keys + r, 1);
    free_strings(t->value_dtype, (char *)t->values + (size_t)r * vsz, t->value_size);
    if (r != last) {
      bool f2;
      int64_t ls = probe(t, stored_dtype(t), t->keys, last, &f2);
      t->slots[ls] = r;
      if (t->key_dtype == TFC_DTYPE_STRING) {
        ((tfc_string *)t->keys)[r] = ((tfc_string *)t->keys)[last];
        ((tfc_string *)t->keys)[last] = (tfc_string){NULL, 0};
      } else {
        ((int64_t *)t->keys)[r] = ((int64_t *)t->keys)[last];
      }
      memcpy((char *)t->values + (size_t)r * vsz, (char *)t->values + (size_t)last * vsz, vsz);
      memset((char *)t->values + (size_t)last * vsz, 0, vsz);
    }
    t->n--;
  }
}

/* Drops every row (the index is reset too). Caller holds the write lock. */
static void rows_clear(tfc_lookup_table *t) {
  free_strings(t->key_dtype, t->keys, t->n);
  free_strings(t->value_dtype, t->values, t->n * t->value_size);
  t->n = 0;
  for (int64_t i = 0; i < t->nslots; i++) t->slots[i] = SLOT_EMPTY;
  t->used_slots = 0;
}

/* ------------------------------------------------------------ operations */

tfc_tensor *tfc_lookup_find(tfc_lookup_table *t, const tfc_tensor *keys, const tfc_tensor *dflt, tfc_status *st) {
  int lead = 0;
  if (!check_types(t, keys, dflt, st) || !check_key_shape(t, keys, &lead, st)) return NULL;
  tfc_shape full;
  if (!full_value_shape(t, keys, lead, &full, st)) return NULL;
  tfc_shape ds = tfc_tensor_shape(dflt);
  if (!tfc_shape_equal(&ds, &t->value_shape) && !tfc_shape_equal(&ds, &full)) {
    char a[64], b[96], c[96];
    tfc_shape_debug_string(&t->value_shape, a, sizeof a);
    tfc_shape_debug_string(&full, b, sizeof b);
    tfc_shape_debug_string(&ds, c, sizeof c);
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Expected shape %s or %s for default value, got %s", a, b, c);
    return NULL;
  }
  tfc_tensor *out = tfc_tensor_new(t->value_dtype, full.rank, full.dims, st);
  if (!out) return NULL;
  int64_t n = 1;
  for (int i = 0; i < lead; i++) n *= keys->dims[i];
  /* a full-size default gives each key its own (mutable tables only; TF's
   * HashTable and dense table take the first default value row) */
  bool per_key = t->kind == TFC_LOOKUP_MUTABLE && dflt->nelems == out->nelems && out->nelems != t->value_size;
  pthread_rwlock_rdlock(&t->mu);
  bool ok = true;
  if (!t->initialized) {
    ok = tfc_status_set(st, TFC_CODE_FAILED_PRECONDITION, "Table not initialized.");
  } else if (t->kind == TFC_LOOKUP_DENSE) {
    ok = tfc_lookup_dense_find(t, keys, n, dflt, out, st);
  } else {
    for (int64_t i = 0; ok && i < n; i++) {
      bool found = false;
      int64_t s = t->nslots ? probe(t, t->key_dtype, keys->data, i, &found) : 0;
      const void *src = found ? t->values : dflt->data;
      int64_t row = found ? t->slots[s] : (per_key ? i : 0);
      for (int64_t j = 0; ok && j < t->value_size; j++)
        ok = tfc_lookup_elem_copy(t->value_dtype, out->data, i * t->value_size + j, src, row * t->value_size + j);
      if (!ok) tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in a table lookup");
    }
  }
  pthread_rwlock_unlock(&t->mu);
  if (!ok) {
    tfc_tensor_unref(out);
    return NULL;
  }
  return out;
}

bool tfc_lookup_insert(tfc_lookup_table *t, const tfc_tensor *keys, const tfc_tensor *values, tfc_status *st) {
  if (t->kind == TFC_LOOKUP_HASH)
    return tfc_status_set(st, TFC_CODE_UNIMPLEMENTED,
                          "Insert not supported by InitializableLookupTable implementations");
  if (!check_keys_values(t, keys, values, st)) return false;
  pthread_rwlock_wrlock(&t->mu);
  bool ok;
  if (t->kind == TFC_LOOKUP_DENSE) {
    int64_t n = keys->rank == 0 ? 1 : keys->dims[0];
    ok = tfc_lookup_dense_insert(t, keys, n, values, st);
  } else {
    ok = rows_insert(t, keys, values, true, st);
  }
  pthread_rwlock_unlock(&t->mu);
  return ok;
}

bool tfc_lookup_remove(tfc_lookup_table *t, const tfc_tensor *keys, tfc_status *st) {
  if (t->kind == TFC_LOOKUP_HASH)
    return tfc_status_set(st, TFC_CODE_UNIMPLEMENTED,
                          "Remove not supported by InitializableLookupTable implementations");
  int lead = 0;
  if (!check_types(t, keys, NULL, st) || !check_key_shape(t, keys, &lead, st)) return false;
  pthread_rwlock_wrlock(&t->mu);
  bool ok = true;
  if (t->kind == TFC_LOOKUP_DENSE)
    ok = tfc_lookup_dense_remove(t, keys, keys->rank == 0 ? 1 : keys->dims[0], st);
  else
    rows_remove(t, keys);
  pthread_rwlock_unlock(&t->mu);
  return ok;
}

/* TF's test for a repeated initialization: a table "has the same entries"
 * when it has as many as offered (the entries themselves are not compared). */
static bool same_entries(const tfc_lookup_table *t, const tfc_tensor *keys) { return keys->nelems == t->n; }

bool tfc_lookup_initialize(tfc_lookup_table *t, const tfc_tensor *keys, const tfc_tensor *values,
                           tfc_status *st) {
  if (t->kind != TFC_LOOKUP_HASH)
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Table %s is not initializable", t->name);
  if (!check_keys_values(t, keys, values, st)) return false;
  pthread_rwlock_wrlock(&t->mu);
  bool ok = true;
  if (t->initialized) {
    if (!same_entries(t, keys))
      ok = tfc_status_set(st, TFC_CODE_FAILED_PRECONDITION, "Table was already initialized with different data.");
  } else {
    ok = rows_insert(t, keys, values, false, st);
    if (ok) t->initialized = true;
    else rows_clear(t);
  }
  pthread_rwlock_unlock(&t->mu);
  return ok;
}

bool tfc_lookup_export(tfc_lookup_table *t, tfc_tensor **keys, tfc_tensor **values, tfc_status *st) {
  *keys = *values = NULL;
  pthread_rwlock_rdlock(&t->mu);
  if (t->kind == TFC_LOOKUP_DENSE) {
    *keys = tfc_tensor_copy(t->key_buckets, st);
    *values = *keys ? tfc_tensor_copy(t->value_buckets, st) : NULL;
  } else {
    int64_t kd[1] = {t->n}, vd[2] = {t->n, t->value_shape.rank ? t->value_shape.dims[0] : 0};
    *keys = tfc_tensor_new(t->key_dtype, 1, kd, st);
    *values = *keys ? tfc_tensor_new(t->value_dtype, 1 + t->value_shape.rank, vd, st) : NULL;
    bool ok = *values != NULL;
    for (int64_t r = 0; ok && r < t->n; r++) {
      if (t->key_dtype == TFC_DTYPE_STRING) ok = tfc_lookup_elem_copy(TFC_DTYPE_STRING, (*keys)->data, r, t->keys, r);
      else if (t->key_dtype == TFC_DTYPE_INT32) ((int32_t *)(*keys)->data)[r] = (int32_t)((int64_t *)t->keys)[r];
      else ((int64_t *)(*keys)->data)[r] = ((int64_t *)t->keys)[r];
    }
    for (int64_t e = 0; ok && e < t->n * t->value_size; e++)
      ok = tfc_lookup_elem_copy(t->value_dtype, (*values)->data, e, t->values, e);
    if (!ok && *values) tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM when exporting a table");
  }
  pthread_rwlock_unlock(&t->mu);
  if (st->code != TFC_CODE_OK) {
    tfc_tensor_unref(*keys);
    tfc_tensor_unref(*values);
    *keys = *values = NULL;
    return false;
  }
  return true;
}

bool tfc_lookup_import(tfc_lookup_table *t, const tfc_tensor *keys, const tfc_tensor *values, tfc_status *st) {
  if (t->kind == TFC_LOOKUP_HASH) return tfc_lookup_initialize(t, keys, values, st);
  if (t->kind == TFC_LOOKUP_DENSE) {
    if (!check_types(t, keys, values, st)) return false;
    pthread_rwlock_wrlock(&t->mu);
    bool ok = tfc_lookup_dense_import(t, keys, values, st);
    pthread_rwlock_unlock(&t->mu);
    return ok;
  }
  if (!check_keys_values(t, keys, values, st)) return false;
  pthread_rwlock_wrlock(&t->mu);
  rows_clear(t);
  bool ok = rows_insert(t, keys, values, true, st);
  pthread_rwlock_unlock(&t->mu);
  return ok;
}
