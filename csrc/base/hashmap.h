/*
 * hashmap.h — string-keyed open-addressing hash map (keys copied, values borrowed).
 */
#ifndef TFC_BASE_HASHMAP_H
#define TFC_BASE_HASHMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct tfc_hashmap {
  struct tfc_hashmap_slot *slots;
  size_t cap;   /* power of two, or 0 */
  size_t count;
} tfc_hashmap;

/* Zero-initialises an empty map (no allocation). */
void tfc_hashmap_init(tfc_hashmap *m);
/* Frees the keys and slot array; values are not touched. */
void tfc_hashmap_destroy(tfc_hashmap *m);
/* Looks up key (len bytes); returns the value or NULL, with *found set if non-NULL. */
void *tfc_hashmap_get(const tfc_hashmap *m, const char *key, size_t len, bool *found);
/* Inserts or replaces key → value. Returns 0, or -1 on out of memory. */
int tfc_hashmap_put(tfc_hashmap *m, const char *key, size_t len, void *value);
/* Removes key; returns its value or NULL when absent. */
void *tfc_hashmap_remove(tfc_hashmap *m, const char *key, size_t len);
/* FNV-1a hash of len bytes. */
uint64_t tfc_hash_bytes(const void *data, size_t len);
/* MurmurHash64A of len bytes (little-endian words) with `seed`; with seed
 * TFC_HASH64_TF_SEED it is TensorFlow's Hash64 of a string. */
uint64_t tfc_hash64_murmur(const void *data, size_t len, uint64_t seed);
#define TFC_HASH64_TF_SEED 0xDECAFCAFFEull
/* TensorFlow's Hash64Combine: a ^ (b + golden ratio + (a << 10) + (a >> 4)). */
uint64_t tfc_hash64_combine(uint64_t a, uint64_t b);

/* Iteration: i from 0 while < m->cap; returns true and fills key/value for used slots. */
bool tfc_hashmap_slot(const tfc_hashmap *m, size_t i, const char **key, size_t *len, void **value);

#endif
