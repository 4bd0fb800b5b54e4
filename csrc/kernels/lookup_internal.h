/*
 * lookup_internal.h — what the lookup-table files share (lookup_table.c:
 * the object, argument checks and the hash kinds; lookup_dense.c: the
 * dense kind): the table struct and element helpers.
 */
#ifndef TFC_KERNELS_LOOKUP_INTERNAL_H
#define TFC_KERNELS_LOOKUP_INTERNAL_H

#include <pthread.h>

#include "kernels/lookup_table.h"

struct tfc_lookup_table {
  tfc_object hdr;
  pthread_rwlock_t mu;
  tfc_lookup_kind kind;
  tfc_dtype key_dtype, value_dtype;
  tfc_shape key_shape, value_shape;
  int64_t key_size, value_size;   /* elements per key / value */
  char *name;
  bool initialized;               /* HASH: filled by an initializer */
  /* HASH / MUTABLE: rows [0, n) of keys and values, and an open-addressing
   * index over them (slot -1: empty, -2: deleted, else a row). */
  int64_t n, cap;
  void *keys;                     /* int64_t[cap] (int32 keys widened) or tfc_string[cap] */
  void *values;                   /* cap * value_size elements (tfc_string owned for STRING) */
  int64_t *slots;
  int64_t nslots, used_slots;     /* used: rows + deleted marks */
  /* DENSE: TF's bucket arrays [num_buckets, key_size] / [num_buckets, value_size]. */
  tfc_tensor *key_buckets, *value_buckets;
  tfc_tensor *empty_key, *deleted_key;
  uint64_t empty_hash, deleted_hash;
  int64_t num_buckets, num_entries;
  float max_load_factor;
};

/* True when element ia of a (a tensor's data, dtype dt) equals element ib of b. */
bool tfc_lookup_elem_equal(tfc_dtype dt, const void *a, int64_t ia, const void *b, int64_t ib);
/* Copies element is of src into element id of dst (strings duplicated; the
 * old one freed). false on OOM. */
bool tfc_lookup_elem_copy(tfc_dtype dt, void *dst, int64_t id, const void *src, int64_t is);
/* Writes element i of data as text into buf (for messages). */
void tfc_lookup_elem_format(tfc_dtype dt, const void *data, int64_t i, char *buf, size_t n);

/* Dense kind (lookup_dense.c); callers hold the table lock (init/destroy excepted). */
/* Checks the dense settings (empty/deleted keys, load factor, bucket count)
 * and allocates the first buckets; false + st (INVALID_ARGUMENT, TF's words). */
bool tfc_lookup_dense_init(tfc_lookup_table *t, const tfc_lookup_config *cfg, tfc_status *st);
/* Drops the bucket arrays and the empty/deleted keys. */
void tfc_lookup_dense_destroy(tfc_lookup_table *t);
/* Writes the values of n key rows into out (default row 0 for missing keys). */
bool tfc_lookup_dense_find(tfc_lookup_table *t, const tfc_tensor *keys, int64_t n, const tfc_tensor *dflt,
                           tfc_tensor *out, tfc_status *st);
/* Inserts or overwrites n key rows, doubling the buckets first past max load. */
bool tfc_lookup_dense_insert(tfc_lookup_table *t, const tfc_tensor *keys, int64_t n, const tfc_tensor *values,
                             tfc_status *st);
/* Marks the buckets of the n key rows present as deleted. */
bool tfc_lookup_dense_remove(tfc_lookup_table *t, const tfc_tensor *keys, int64_t n, tfc_status *st);
/* Replaces the buckets with exported ones ([N, key_size] keys, [N, value_size] values). */
bool tfc_lookup_dense_import(tfc_lookup_table *t, const tfc_tensor *keys, const tfc_tensor *values,
                             tfc_status *st);

#endif
