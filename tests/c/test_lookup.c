/*
 * test_lookup.c — unit tests of base/fingerprint.c (FarmHash Fingerprint64,
 * TF's Hash64 and FingerprintCat64 against values TensorFlow computed) and of
 * the lookup tables of kernels/lookup_table.h (mutable and dense tables
 * against a reference, removals, exports, out-of-memory paths).
 */
#include <stdint.h>
#include <string.h>

#include "base/alloc.h"
#include "base/fingerprint.h"
#include "harness.h"
#include "kernels/lookup_table.h"

TFC_TEST(fingerprint64_matches_tensorflow) {
  /* tf.fingerprint of these strings (lengths 0, 1, 5, 17, 33, 65, 200: every code path) */
  unsigned char bytes[200];
  for (int i = 0; i < 200; i++) bytes[i] = (unsigned char)i;
  char xs[33];
  memset(xs, 'x', sizeof xs);
  CHECK(tfc_fingerprint64(NULL, 0) == 0x9ae16a3b2f90404full);
  CHECK(tfc_fingerprint64("a", 1) == 0xb3454265b6df75e3ull);
  CHECK(tfc_fingerprint64("hello", 5) == 0xb48be5a931380ce8ull);
  CHECK(tfc_fingerprint64("0123456789abcdefg", 17) == 0xa6ddff87a449d24aull);
  CHECK(tfc_fingerprint64(xs, 33) == 0xaa49185443e61637ull);
  CHECK(tfc_fingerprint64(bytes, 65) == 0xc6a3282c3e793dbeull);
  CHECK(tfc_fingerprint64(bytes, 200) == 0x074c7fcc26d66fb3ull);
}

TFC_TEST(hash64_matches_tensorflow) {
  /* tf.strings.to_hash_bucket(s, 2**63 - 1): TF's Hash64 mod INT64_MAX */
  unsigned char bytes[200];
  for (int i = 0; i < 200; i++) bytes[i] = (unsigned char)i;
  const uint64_t m = (uint64_t)INT64_MAX;
  CHECK(tfc_hash64("", 0, TFC_HASH64_DEFAULT_SEED) % m == 105434511174508092ull);
  CHECK(tfc_hash64("a", 1, TFC_HASH64_DEFAULT_SEED) % m == 2996632905371535868ull);
  CHECK(tfc_hash64("hello", 5, TFC_HASH64_DEFAULT_SEED) % m == 5943547241907780938ull);
  CHECK(tfc_hash64("0123456789abcdefg", 17, TFC_HASH64_DEFAULT_SEED) % m == 6397438232669942879ull);
  CHECK(tfc_hash64(bytes, 200, TFC_HASH64_DEFAULT_SEED) % m == 8797224591143368235ull);
  /* order matters when combining */
  CHECK(tfc_fingerprint_cat64(1, 2) != tfc_fingerprint_cat64(2, 1));
}

/* A 1-D int64 tensor of n values v[i]. */
static tfc_tensor *i64_vec(const int64_t *v, int64_t n) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_tensor *t = tfc_tensor_new(TFC_DTYPE_INT64, 1, &n, &st);
  if (t && n) memcpy(t->data, v, (size_t)n * sizeof *v);
  return t;
}

/* A 1-D double tensor of n values v[i]. */
static tfc_tensor *f64_vec(const double *v, int64_t n) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_tensor *t = tfc_tensor_new(TFC_DTYPE_DOUBLE, 1, &n, &st);
  if (t && n) memcpy(t->data, v, (size_t)n * sizeof *v);
  return t;
}

/* Inserts keys 0..n-1 (times 7919) with value key/2, removes the multiples of 3, checks finds and size. */
static void exercise_table(tfc_lookup_table *t, int64_t n) {
  tfc_status st;
  tfc_status_clear(&st);
  int64_t *k = tfc_malloc((size_t)n * sizeof *k);
  double *v = tfc_malloc((size_t)n * sizeof *v);
  for (int64_t i = 0; i < n; i++) {
    k[i] = i * 7919 + 1;
    v[i] = (double)k[i] / 2;
  }
  tfc_tensor *keys = i64_vec(k, n), *vals = f64_vec(v, n);
  CHECK(tfc_lookup_insert(t, keys, vals, &st));
  CHECK_STATUS_OK(&st);
  int64_t nr = 0;
  for (int64_t i = 0; i < n; i += 3) k[nr++] = i * 7919 + 1;
  tfc_tensor *rm = i64_vec(k, nr);
  CHECK(tfc_lookup_remove(t, rm, &st));
  CHECK_STATUS_OK(&st);
  CHECK(tfc_lookup_size(t) == n - nr);
  double dflt = -1;
  tfc_tensor *d = f64_vec(&dflt, 1);
  tfc_tensor *dd = NULL;
  {
    int64_t zero = 0;
    dd = tfc_tensor_reshaped(d, 0, &zero, &st);
  }
  tfc_tensor *found = tfc_lookup_find(t, keys, dd, &st);
  CHECK_STATUS_OK(&st);
  CHECK(found != NULL);
  if (found) {
    const double *f = found->data;
    int bad = 0;
    for (int64_t i = 0; i < n; i++) bad += f[i] != (i % 3 == 0 ? -1.0 : v[i]);
    CHECK(bad == 0);
  }
  tfc_tensor *ek, *ev;
  CHECK(tfc_lookup_export(t, &ek, &ev, &st));
  CHECK_STATUS_OK(&st);
  tfc_tensor_unref(ek);
  tfc_tensor_unref(ev);
  tfc_tensor_unref(found);
  tfc_tensor_unref(dd);
  tfc_tensor_unref(d);
  tfc_tensor_unref(rm);
  tfc_tensor_unref(keys);
  tfc_tensor_unref(vals);
  tfc_free(k);
  tfc_free(v);
}

TFC_TEST(mutable_and_dense_tables_insert_remove_find) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_lookup_config cfg;
  memset(&cfg, 0, sizeof cfg);
  cfg.kind = TFC_LOOKUP_MUTABLE;
  cfg.key_dtype = TFC_DTYPE_INT64;
  cfg.value_dtype = TFC_DTYPE_DOUBLE;
  cfg.value_shape = tfc_shape_scalar();
  cfg.name = "m";
  tfc_lookup_table *m = tfc_lookup_new(&cfg, &st);
  CHECK_STATUS_OK(&st);
  exercise_table(m, 5000);
  tfc_object_unref((tfc_object *)m);

  int64_t e = 0, del = -1;
  tfc_tensor *ek = tfc_tensor_scalar(TFC_DTYPE_INT64, &e, &st), *dk = tfc_tensor_scalar(TFC_DTYPE_INT64, &del, &st);
  cfg.kind = TFC_LOOKUP_DENSE;
  cfg.empty_key = ek;
  cfg.deleted_key = dk;
  cfg.initial_num_buckets = 4;
  cfg.max_load_factor = 0.8f;
  tfc_lookup_table *dt = tfc_lookup_new(&cfg, &st);
  CHECK_STATUS_OK(&st);
  exercise_table(dt, 5000);
  tfc_object_unref((tfc_object *)dt);

  cfg.initial_num_buckets = 6;
  CHECK(tfc_lookup_new(&cfg, &st) == NULL);
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  tfc_status_clear(&st);
  cfg.deleted_key = ek;
  cfg.initial_num_buckets = 8;
  CHECK(tfc_lookup_new(&cfg, &st) == NULL);
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  tfc_tensor_unref(ek);
  tfc_tensor_unref(dk);
}

TFC_TEST(table_insert_out_of_memory_fails_cleanly) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_lookup_config cfg;
  memset(&cfg, 0, sizeof cfg);
  cfg.kind = TFC_LOOKUP_MUTABLE;
  cfg.key_dtype = TFC_DTYPE_INT64;
  cfg.value_dtype = TFC_DTYPE_DOUBLE;
  cfg.value_shape = tfc_shape_scalar();
  cfg.name = "oom";
  tfc_lookup_table *m = tfc_lookup_new(&cfg, &st);
  int64_t k[3] = {1, 2, 3};
  double v[3] = {1, 2, 3};
  tfc_tensor *keys = i64_vec(k, 3), *vals = f64_vec(v, 3);
  tfc_alloc_fail_after(1);
  CHECK(!tfc_lookup_insert(m, keys, vals, &st));
  tfc_alloc_fail_after(0);
  CHECK_CODE(&st, TFC_CODE_RESOURCE_EXHAUSTED);
  tfc_status_clear(&st);
  CHECK(tfc_lookup_insert(m, keys, vals, &st));
  CHECK(tfc_lookup_size(m) == 3);
  tfc_tensor_unref(keys);
  tfc_tensor_unref(vals);
  tfc_object_unref((tfc_object *)m);
}
