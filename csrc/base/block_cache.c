/*
 * block_cache.c — bounded cache of freed large aligned blocks (see
 * block_cache.h). A small array of (pointer, usable size) slots under one
 * mutex: large allocations are rare enough (a few dozen per step) that a
 * linear scan under a lock costs nothing next to the page faults it saves.
 */
#include "base/block_cache.h"

#include <malloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#if defined(__SANITIZE_ADDRESS__)
#define TFC_BLOCK_CACHE_ENABLED 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TFC_BLOCK_CACHE_ENABLED 0
#endif
#endif
#ifndef TFC_BLOCK_CACHE_ENABLED
#define TFC_BLOCK_CACHE_ENABLED 1
#endif

#define SLOTS 128

typedef struct {
  void *p;
  size_t size; /* malloc_usable_size(p) */
} slot_t;

static slot_t g_slots[SLOTS];
static int g_count;
static size_t g_bytes;
static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static atomic_int g_users; /* retain/release count; nothing is kept at 0 */
static pthread_once_t g_once = PTHREAD_ONCE_INIT;

/* fork() handlers: hold the lock across fork so the child never inherits it
 * taken by a thread that does not exist there. */
static void before_fork(void) { pthread_mutex_lock(&g_mu); }
static void after_fork(void) { pthread_mutex_unlock(&g_mu); }

/* Registers the fork handlers once. */
static void init_once(void) { pthread_atfork(before_fork, after_fork, after_fork); }

/* Removes slot i (order is not kept). Caller holds g_mu. */
static void drop_slot(int i) {
  g_bytes -= g_slots[i].size;
  g_slots[i] = g_slots[--g_count];
}

/* Takes the smallest fitting cached block (see block_cache.h). */
void *tfc_block_cache_take(size_t size, size_t align) {
  if (!TFC_BLOCK_CACHE_ENABLED || size < TFC_BLOCK_CACHE_MIN) return NULL;
  pthread_once(&g_once, init_once);
  /* malloc_usable_size of an over-aligned block includes up to align bytes
   * of slack beyond what was asked for, so allow that much as well */
  size_t limit = size + size / 8 + align;
  void *found = NULL;
  pthread_mutex_lock(&g_mu);
  int best = -1;
  for (int i = 0; i < g_count; i++) {
    const slot_t *s = &g_slots[i];
    if (s->size < size || s->size > limit || ((uintptr_t)s->p & (align - 1)) != 0) continue;
    if (best < 0 || s->size < g_slots[best].size) best = i;
  }
  if (best >= 0) {
    found = g_slots[best].p;
    drop_slot(best);
  }
  pthread_mutex_unlock(&g_mu);
  return found;
}

/* Keeps p unless it is too small or too large; evicts resident blocks
 * (whichever sit in the first slot) until p fits under the byte bound. */
bool tfc_block_cache_put(void *p) {
  if (!TFC_BLOCK_CACHE_ENABLED || p == NULL || atomic_load(&g_users) == 0) return false;
  size_t size = malloc_usable_size(p);
  if (size < TFC_BLOCK_CACHE_MIN || size > TFC_BLOCK_CACHE_BYTES / 4) return false;
  pthread_once(&g_once, init_once);
  void *evict[SLOTS];
  int n_evict = 0;
  pthread_mutex_lock(&g_mu);
  while (g_count > 0 && (g_count == SLOTS || g_bytes + size > TFC_BLOCK_CACHE_BYTES)) {
    evict[n_evict++] = g_slots[0].p;
    drop_slot(0);
  }
  g_slots[g_count].p = p;
  g_slots[g_count].size = size;
  g_count++;
  g_bytes += size;
  pthread_mutex_unlock(&g_mu);
  for (int i = 0; i < n_evict; i++) free(evict[i]);
  return true;
}

/* Empties the cache, freeing the blocks outside the lock. */
void tfc_block_cache_trim(void) {
  if (!TFC_BLOCK_CACHE_ENABLED) return;
  pthread_once(&g_once, init_once);
  void *all[SLOTS];
  int n = 0;
  pthread_mutex_lock(&g_mu);
  while (g_count > 0) {
    all[n++] = g_slots[0].p;
    drop_slot(0);
  }
  pthread_mutex_unlock(&g_mu);
  for (int i = 0; i < n; i++) free(all[i]);
}

/* One more user: freed blocks are kept from now on. */
void tfc_block_cache_retain(void) { atomic_fetch_add(&g_users, 1); }

/* One user less; the last one empties the cache. */
void tfc_block_cache_release(void) {
  if (atomic_fetch_sub(&g_users, 1) == 1) tfc_block_cache_trim();
}

/* Idle bytes held, read under the lock. */
size_t tfc_block_cache_bytes(void) {
  pthread_mutex_lock(&g_mu);
  size_t b = g_bytes;
  pthread_mutex_unlock(&g_mu);
  return b;
}
