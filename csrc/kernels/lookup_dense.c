/*
 * lookup_dense.c — the DENSE lookup-table kind: TF's MutableDenseHashTable.
 * Keys (scalars or fixed-length vectors) and values live in two bucket
 * arrays of a power-of-two length; free buckets hold empty_key, removed
 * ones deleted_key. A key's first bucket is its hash (the integer itself,
 * TF's Hash64 for strings, combined across a vector key as TF's
 * Hash64Combine) masked by the bucket count; collisions probe
 * quadratically. An insert that would pass max_load_factor doubles the
 * buckets first and reinserts in bucket order, so the layout (and what
 * export returns) is TF's bucket for bucket. Callers hold the table lock.
 */
#include <string.h>

#include "base/alloc.h"
#include "base/fingerprint.h"
#include "core/op_registry.h"
#include "kernels/lookup_internal.h"

/* TF's Hash64Combine. */
static uint64_t combine(uint64_t a, uint64_t b) { return a ^ (b + 0x9e3779b97f4a7800ull + (a << 10) + (a >> 4)); }

/* TF's HashScalar of element i of data. */
static uint64_t hash_scalar(tfc_dtype dt, const void *data, int64_t i) {
  switch (dt) {
    case TFC_DTYPE_STRING: {
      const tfc_string *s = (const tfc_string *)data + i;
      return tfc_hash64(s->data, s->len, TFC_HASH64_DEFAULT_SEED);
    }
    case TFC_DTYPE_INT32: return (uint64_t)(int64_t)((const int32_t *)data)[i];
    default: return (uint64_t)((const int64_t *)data)[i];
  }
}

/* Hash of key row r of data (key_size elements per row). */
static uint64_t hash_key(const tfc_lookup_table *t, const void *data, int64_t r) {
  if (t->key_size == 1) return hash_scalar(t->key_dtype, data, r);
  uint64_t h = 0;
  for (int64_t j = 0; j < t->key_size; j++) h = combine(h, hash_scalar(t->key_dtype, data, r * t->key_size + j));
  return h;
}

/* True when key row ra of a equals key row rb of b. */
static bool key_equal(const tfc_lookup_table *t, const void *a, int64_t ra, const void *b, int64_t rb) {
  for (int64_t j = 0; j < t->key_size; j++)
    if (!tfc_lookup_elem_equal(t->key_dtype, a, ra * t->key_size + j, b, rb * t->key_size + j)) return false;
  return true;
}

/* Fails (INVALID_ARGUMENT, TF's words) when key row r of data is the empty or deleted key. */
static bool check_special(const tfc_lookup_table *t, const void *data, int64_t r, uint64_t h, tfc_status *st) {
  if (h == t->empty_hash && key_equal(t, t->empty_key->data, 0, data, r))
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Using the empty_key as a table key is not allowed");
  if (h == t->deleted_hash && key_equal(t, t->deleted_key->data, 0, data, r))
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Using the deleted_key as a table key is not allowed");
  return true;
}

/* Fails with TF's "Expected key shape [n, key...] got [...]". */
static bool key_shape_fail(const tfc_lookup_table *t, const tfc_tensor *keys, int64_t n, tfc_status *st) {
  tfc_shape want = tfc_shape_scalar(), got = tfc_tensor_shape(keys);
  want.rank = 1 + t->key_shape.rank;
  want.dims[0] = n;
  for (int i = 0; i < t->key_shape.rank; i++) want.dims[1 + i] = t->key_shape.dims[i];
  char a[96], b[96];
  tfc_shape_debug_string(&want, a, sizeof a);
  tfc_shape_debug_string(&got, b, sizeof b);
  return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Expected key shape %s got %s", a, b);
}

/* New bucket arrays of n buckets: every key the empty key, every value zero. */
static bool allocate_buckets(tfc_lookup_table *t, int64_t n, tfc_status *st) {
  if (n < 4 || (n & (n - 1)) != 0)
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                          "Number of buckets must be at least 4 and a power of 2, got: %lld", (long long)n);
  int64_t kd[2] = {n, t->key_size}, vd[2] = {n, t->value_size};
  tfc_tensor *k = tfc_tensor_new(t->key_dtype, 2, kd, st);
  tfc_tensor *v = k ? tfc_tensor_zeros(t->value_dtype, 2, vd, st) : NULL;
  if (!v) {
    tfc_tensor_unref(k);
    return false;
  }
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < t->key_size; j++)
      if (!tfc_lookup_elem_copy(t->key_dtype, k->data, i * t->key_size + j, t->empty_key->data, j)) {
        tfc_tensor_unref(k);
        tfc_tensor_unref(v);
        return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM when allocating table buckets");
      }
  tfc_tensor_unref(t->key_buckets);
  tfc_tensor_unref(t->value_buckets);
  t->key_buckets = k;
  t->value_buckets = v;
  t->num_buckets = n;
  t->num_entries = 0;
  return true;
}

bool tfc_lookup_dense_init(tfc_lookup_table *t, const tfc_lookup_config *cfg, tfc_status *st) {
  char a[64], b[64];
  if (!(cfg->max_load_factor > 0 && cfg->max_load_factor < 1))
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "max_load_factor must be between 0 and 1, got: %g",
                          (double)cfg->max_load_factor);
  t->max_load_factor = cfg->max_load_factor;
  const tfc_tensor *ek = cfg->empty_key, *dk = cfg->deleted_key;
  tfc_shape es = tfc_tensor_shape(ek), ds = tfc_tensor_shape(dk);
  if (es.rank > 1) {
    tfc_shape_debug_string(&es, a, sizeof a);
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Empty key must be a scalar or a vector, got shape %s", a);
  }
  if (!tfc_shape_equal(&es, &ds) && !(es.rank <= 1 && ds.rank <= 1 && ek->nelems == dk->nelems)) {
    tfc_shape_debug_string(&es, a, sizeof a);
    tfc_shape_debug_string(&ds, b, sizeof b);
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                          "Empty and deleted keys must have same shape, got shapes: %s and %s", a, b);
  }
  if (ek->dtype != t->key_dtype || dk->dtype != t->key_dtype)
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "empty_key and deleted_key must be %s",
                          tfc_op_dtype_string(t->key_dtype));
  t->key_shape = es;
  t->key_size = ek->nelems;
  if (t->key_size < 1) return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Empty key must not be empty");
  t->empty_key = tfc_tensor_copy(ek, st);
  t->deleted_key = t->empty_key ? tfc_tensor_copy(dk, st) : NULL;
  if (!t->deleted_key) return false;
  t->empty_hash = hash_key(t, t->empty_key->data, 0);
  t->deleted_hash = hash_key(t, t->deleted_key->data, 0);
  if (t->empty_hash == t->deleted_hash && key_equal(t, t->empty_key->data, 0, t->deleted_key->data, 0))
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Empty and deleted keys cannot be equal");
  return allocate_buckets(t, cfg->initial_num_buckets, st);
}

void tfc_lookup_dense_destroy(tfc_lookup_table *t) {
  tfc_tensor_unref(t->key_buckets);
  tfc_tensor_unref(t->value_buckets);
  tfc_tensor_unref(t->empty_key);
  tfc_tensor_unref(t->deleted_key);
}

bool tfc_lookup_dense_find(tfc_lookup_table *t, const tfc_tensor *keys, int64_t n, const tfc_tensor *dflt,
                           tfc_tensor *out, tfc_status *st) {
  if (keys->nelems != n * t->key_size) return key_shape_fail(t, keys, n, st);
  uint64_t mask = (uint64_t)t->num_buckets - 1;
  const void *kb = t->key_buckets->data, *vb = t->value_buckets->data;
  for (int64_t i = 0; i < n; i++) {
    uint64_t h = hash_key(t, keys->data, i);
    if (!check_special(t, keys->data, i, h, st)) return false;
    uint64_t b = h & mask;
    for (int64_t probes = 0;;) {
      const void *src = NULL;
      int64_t row = 0;
      if (key_equal(t, kb, (int64_t)b, keys->data, i)) {
        src = vb;
        row = (int64_t)b;
      } else if (key_equal(t, kb, (int64_t)b, t->empty_key->data, 0)) {
        src = dflt->data;
      }
      if (src) {
        for (int64_t j = 0; j < t->value_size; j++)
          if (!tfc_lookup_elem_copy(t->value_dtype, out->data, i * t->value_size + j, src, row * t->value_size + j))
            return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in a table lookup");
        break;
      }
      ++probes;
      b = (b + (uint64_t)probes) & mask;
      if (probes >= t->num_buckets)
        return tfc_status_set(st, TFC_CODE_INTERNAL, "Internal error in MutableDenseHashTable lookup");
    }
  }
  return true;
}

/* Inserts n key rows of kdata with value rows of vdata; `skip_special`
 * (rebucketing) passes over empty/deleted keys instead of failing. */
static bool do_insert(tfc_lookup_table *t, const void *kdata, const void *vdata, int64_t n, bool skip_special,
                      tfc_status *st) {
  uint64_t mask = (uint64_t)t->num_buckets - 1;
  void *kb = t->key_buckets->data, *vb = t->value_buckets->data;
  for (int64_t i = 0; i < n; i++) {
    uint64_t h = hash_key(t, kdata, i);
    bool special = (h == t->empty_hash && key_equal(t, t->empty_key->data, 0, kdata, i)) ||
                   (h == t->deleted_hash && key_equal(t, t->deleted_key->data, 0, kdata, i));
    if (special) {
      if (skip_special) continue;
      return check_special(t, kdata, i, h, st);
    }
    uint64_t b = h & mask;
    for (int64_t probes = 0;;) {
      bool same = key_equal(t, kb, (int64_t)b, kdata, i);
      bool free_b = !same && (key_equal(t, kb, (int64_t)b, t->empty_key->data, 0) ||
                              key_equal(t, kb, (int64_t)b, t->deleted_key->data, 0));
      if (same || free_b) {
        bool ok = true;
        if (free_b) {
          ++t->num_entries;
          for (int64_t j = 0; ok && j < t->key_size; j++)
            ok = tfc_lookup_elem_copy(t->key_dtype, kb, (int64_t)b * t->key_size + j, kdata, i * t->key_size + j);
        }
        for (int64_t j = 0; ok && j < t->value_size; j++)
          ok = tfc_lookup_elem_copy(t->value_dtype, vb, (int64_t)b * t->value_size + j, vdata,
                                    i * t->value_size + j);
        if (!ok) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM when inserting into a table");
        break;
      }
      ++probes;
      b = (b + (uint64_t)probes) & mask;
      if (probes >= t->num_buckets)
        return tfc_status_set(st, TFC_CODE_INTERNAL, "Internal error in MutableDenseHashTable insert");
    }
  }
  return true;
}

bool tfc_lookup_dense_insert(tfc_lookup_table *t, const tfc_tensor *keys, int64_t n, const tfc_tensor *values,
                             tfc_status *st) {
  if (keys->nelems != n * t->key_size) return key_shape_fail(t, keys, n, st);
  int64_t pending = t->num_entries + n;
  if ((float)pending > (float)t->num_buckets * t->max_load_factor) {
    int64_t nb = t->num_buckets;
    do {
      nb <<= 1;
    } while ((float)pending > (float)nb * t->max_load_factor);
    tfc_tensor *ok = t->key_buckets, *ov = t->value_buckets;
    int64_t old_n = t->num_buckets;
    t->key_buckets = t->value_buckets = NULL;
    if (!allocate_buckets(t, nb, st)) {
      t->key_buckets = ok;
      t->value_buckets = ov;
      t->num_buckets = old_n;
      return false;
    }
    bool r = do_insert(t, ok->data, ov->data, old_n, true, st);
    tfc_tensor_unref(ok);
    tfc_tensor_unref(ov);
    if (!r) return false;
  }
  return do_insert(t, keys->data, values->data, n, false, st);
}

bool tfc_lookup_dense_remove(tfc_lookup_table *t, const tfc_tensor *keys, int64_t n, tfc_status *st) {
  if (keys->nelems != n * t->key_size) return key_shape_fail(t, keys, n, st);
  uint64_t mask = (uint64_t)t->num_buckets - 1;
  void *kb = t->key_buckets->data;
  for (int64_t i = 0; i < n; i++) {
    uint64_t h = hash_key(t, keys->data, i);
    if (!check_special(t, keys->data, i, h, st)) return false;
    uint64_t b = h & mask;
    for (int64_t probes = 0;;) {
      if (key_equal(t, kb, (int64_t)b, keys->data, i)) {
        --t->num_entries;
        for (int64_t j = 0; j < t->key_size; j++)
          if (!tfc_lookup_elem_copy(t->key_dtype, kb, (int64_t)b * t->key_size + j, t->deleted_key->data, j))
            return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM when removing from a table");
        break;
      }
      if (key_equal(t, kb, (int64_t)b, t->empty_key->data, 0)) break;
      ++probes;
      b = (b + (uint64_t)probes) & mask;
      if (probes >= t->num_buckets)
        return tfc_status_set(st, TFC_CODE_INTERNAL, "Internal error in MutableDenseHashTable remove");
    }
  }
  return true;
}

bool tfc_lookup_dense_import(tfc_lookup_table *t, const tfc_tensor *keys, const tfc_tensor *values,
                             tfc_status *st) {
  /* TF's CheckKeyAndValueTensorsForImport: keys [N] + key_shape (a scalar key
   * stored as [1]), values [N, value_size]. */
  int64_t n = keys->rank == 0 ? 1 : keys->dims[0];
  bool ok = keys->rank >= 1 && keys->nelems == n * t->key_size && values->rank >= 1 && values->dims[0] == n &&
            values->nelems == n * t->value_size;
  if (!ok) {
    tfc_shape ks = tfc_tensor_shape(keys), vs = tfc_tensor_shape(values);
    char a[96], b[96];
    tfc_shape_debug_string(&ks, a, sizeof a);
    tfc_shape_debug_string(&vs, b, sizeof b);
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                          "Expected [num_buckets, %lld] keys and [num_buckets, %lld] values, got %s and %s",
                          (long long)t->key_size, (long long)t->value_size, a, b);
  }
  int64_t kd[2] = {n, t->key_size}, vd[2] = {n, t->value_size};
  tfc_tensor *k = tfc_tensor_new(t->key_dtype, 2, kd, st);
  tfc_tensor *v = k ? tfc_tensor_new(t->value_dtype, 2, vd, st) : NULL;
  ok = v != NULL;
  for (int64_t e = 0; ok && e < n * t->key_size; e++)
    ok = tfc_lookup_elem_copy(t->key_dtype, k->data, e, keys->data, e);
  for (int64_t e = 0; ok && e < n * t->value_size; e++)
    ok = tfc_lookup_elem_copy(t->value_dtype, v->data, e, values->data, e);
  if (!ok) {
    tfc_tensor_unref(k);
    tfc_tensor_unref(v);
    if (st->code == TFC_CODE_OK) tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM when importing a table");
    return false;
  }
  tfc_tensor_unref(t->key_buckets);
  tfc_tensor_unref(t->value_buckets);
  t->key_buckets = k;
  t->value_buckets = v;
  t->num_buckets = n;
  t->num_entries = 0;
  for (int64_t i = 0; i < n; i++)
    if (!key_equal(t, k->data, i, t->empty_key->data, 0) && !key_equal(t, k->data, i, t->deleted_key->data, 0))
      t->num_entries++;
  return true;
}
