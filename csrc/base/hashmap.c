/*
 * hashmap.c — string-keyed open-addressing hash map.
 *
 * Linear probing over a power-of-two slot array kept at most 3/4 full;
 * removal uses backward-shift deletion, so there are no tombstones. Keys are
 * copied (NUL-terminated, may contain NULs); values are borrowed.
 * The map must not be modified while it is being iterated.
 */
#include "base/hashmap.h"

#include <string.h>

#include "base/alloc.h"

struct tfc_hashmap_slot {
  char *key;      /* NULL: empty slot */
  size_t len;
  uint64_t hash;
  void *value;
};

/* FNV-1a 64-bit hash of len bytes. */
uint64_t tfc_hash_bytes(const void *data, size_t len) {
  const unsigned char *p = data;
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < len; i++) {
    h ^= p[i];
    h *= 1099511628211ull;
  }
  return h;
}

/* MurmurHash64A of len bytes with the given seed (the 64-bit hash
 * TensorFlow's runtime uses for frame ids; see hashmap.h). */
uint64_t tfc_hash64_murmur(const void *data, size_t len, uint64_t seed) {
  const uint64_t mul = 0xc6a4a7935bd1e995ull;
  const unsigned char *p = data;
  uint64_t h = seed ^ ((uint64_t)len * mul);
  for (; len >= 8; len -= 8, p += 8) {
    uint64_t k = 0;
    for (int b = 7; b >= 0; b--) k = (k << 8) | p[b];
    k *= mul;
    k ^= k >> 47;
    k *= mul;
    h ^= k;
    h *= mul;
  }
  if (len > 0) {
    for (size_t b = len; b-- > 0;) h ^= (uint64_t)p[b] << (8 * b);
    h *= mul;
  }
  h ^= h >> 47;
  h *= mul;
  h ^= h >> 47;
  return h;
}

/* Mixes hash b into hash a, order-dependent (TensorFlow's Hash64Combine). */
uint64_t tfc_hash64_combine(uint64_t a, uint64_t b) {
  return a ^ (b + 0x9e3779b97f4a7800ull + (a << 10) + (a >> 4));
}

/* Empty map without allocation. */
void tfc_hashmap_init(tfc_hashmap *m) {
  m->slots = NULL;
  m->cap = 0;
  m->count = 0;
}

/* Frees the copied keys and the slot array; values are untouched. */
void tfc_hashmap_destroy(tfc_hashmap *m) {
  for (size_t i = 0; i < m->cap; i++) tfc_free(m->slots[i].key);
  tfc_free(m->slots);
  tfc_hashmap_init(m);
}

/* Index of the slot holding key, or of the empty slot where it would go.
 * Requires cap > 0 and at least one empty slot. */
static size_t find_slot(const tfc_hashmap *m, const char *key, size_t len, uint64_t h) {
  size_t mask = m->cap - 1;
  size_t i = (size_t)h & mask;
  for (;;) {
    const struct tfc_hashmap_slot *s = &m->slots[i];
    if (s->key == NULL) return i;
    if (s->hash == h && s->len == len && (len == 0 || memcmp(s->key, key, len) == 0)) return i;
    i = (i + 1) & mask;
  }
}

/* Looks up key; returns its value or NULL, setting *found when non-NULL. */
void *tfc_hashmap_get(const tfc_hashmap *m, const char *key, size_t len, bool *found) {
  if (found) *found = false;
  if (m->cap == 0) return NULL;
  size_t i = find_slot(m, key, len, tfc_hash_bytes(key, len));
  if (m->slots[i].key == NULL) return NULL;
  if (found) *found = true;
  return m->slots[i].value;
}

/* Rehashes into a slot array of new_cap (a power of two). -1 on OOM (map unchanged). */
static int resize(tfc_hashmap *m, size_t new_cap) {
  struct tfc_hashmap_slot *slots = tfc_calloc(new_cap, sizeof *slots);
  if (!slots) return -1;
  tfc_hashmap old = *m;
  m->slots = slots;
  m->cap = new_cap;
  for (size_t i = 0; i < old.cap; i++) {
    if (old.slots[i].key == NULL) continue;
    size_t j = find_slot(m, old.slots[i].key, old.slots[i].len, old.slots[i].hash);
    m->slots[j] = old.slots[i];
  }
  tfc_free(old.slots);
  return 0;
}

/* Inserts or replaces key → value. 0, or -1 on out of memory (map unchanged). */
int tfc_hashmap_put(tfc_hashmap *m, const char *key, size_t len, void *value) {
  uint64_t h = tfc_hash_bytes(key, len);
  if (m->cap) {
    size_t i = find_slot(m, key, len, h);
    if (m->slots[i].key != NULL) {
      m->slots[i].value = value;
      return 0;
    }
  }
  if ((m->count + 1) * 4 > m->cap * 3) {
    if (m->cap > SIZE_MAX / 2 / sizeof(struct tfc_hashmap_slot)) return -1;
    if (resize(m, m->cap ? m->cap * 2 : 8) != 0) return -1;
  }
  char *copy = tfc_malloc(len + 1);
  if (!copy) return -1;
  if (len) memcpy(copy, key, len);
  copy[len] = '\0';
  size_t i = find_slot(m, key, len, h);
  m->slots[i] = (struct tfc_hashmap_slot){copy, len, h, value};
  m->count++;
  return 0;
}

/* Removes key and returns its value (NULL when absent). */
void *tfc_hashmap_remove(tfc_hashmap *m, const char *key, size_t len) {
  if (m->cap == 0) return NULL;
  size_t mask = m->cap - 1;
  size_t i = find_slot(m, key, len, tfc_hash_bytes(key, len));
  if (m->slots[i].key == NULL) return NULL;
  void *value = m->slots[i].value;
  tfc_free(m->slots[i].key);
  m->slots[i].key = NULL;
  m->count--;
  /* Backward shift: pull later entries of the probe run into the hole when
   * the hole lies between their home slot and their current slot. */
  size_t hole = i, j = i;
  for (;;) {
    j = (j + 1) & mask;
    struct tfc_hashmap_slot *s = &m->slots[j];
    if (s->key == NULL) break;
    size_t home = (size_t)s->hash & mask;
    size_t dist_cur = (j - home) & mask, dist_hole = (hole - home) & mask;
    if (dist_hole < dist_cur) {
      m->slots[hole] = *s;
      s->key = NULL;
      hole = j;
    }
  }
  return value;
}

/* Iteration helper: true and key/len/value filled when slot i is in use. */
bool tfc_hashmap_slot(const tfc_hashmap *m, size_t i, const char **key, size_t *len, void **value) {
  if (i >= m->cap || m->slots[i].key == NULL) return false;
  if (key) *key = m->slots[i].key;
  if (len) *len = m->slots[i].len;
  if (value) *value = m->slots[i].value;
  return true;
}
