/*
 * alloc.c — the allocation funnel with failure injection for tests.
 *
 * Injection state is one atomic countdown: 0 means off; k > 0 means the k-th
 * allocation from now fails. It stays at 1 once reached, so every later
 * allocation fails too, until tfc_alloc_fail_after(0).
 */
#include "base/alloc.h"

#include "base/block_cache.h"

#include <malloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static _Atomic int64_t g_fail_countdown;

/* Arms (n > 0) or disarms (n <= 0) failure injection. */
void tfc_alloc_fail_after(int64_t n) {
  atomic_store(&g_fail_countdown, n > 0 ? n : 0);
}

/* True when this allocation must fail (consumes one step of the countdown). */
static bool inject_failure(void) {
  int64_t v = atomic_load_explicit(&g_fail_countdown, memory_order_relaxed);
  while (v > 0) {
    if (v == 1) return true;
    if (atomic_compare_exchange_weak(&g_fail_countdown, &v, v - 1)) return false;
  }
  return false;
}

/* malloc through the funnel; size 0 gives a valid, freeable pointer. */
void *tfc_malloc(size_t size) {
  if (inject_failure()) return NULL;
  return malloc(size ? size : 1);
}

/* Zeroed allocation of n * size bytes; NULL on overflow or failure. */
void *tfc_calloc(size_t n, size_t size) {
  size_t total;
  if (__builtin_mul_overflow(n, size, &total)) return NULL;
  if (inject_failure()) return NULL;
  return total ? calloc(n, size) : calloc(1, 1);
}

/* realloc through the funnel; on failure p is untouched and NULL returned.
 * Size 0 keeps a valid 1-byte block rather than freeing p. */
void *tfc_realloc(void *p, size_t size) {
  if (inject_failure()) return NULL;
  return realloc(p, size ? size : 1);
}

/* Frees memory from tfc_malloc/calloc/realloc/strdup/strndup; NULL is a no-op. */
void tfc_free(void *p) { free(p); }

/* Duplicates s through the funnel. */
char *tfc_strdup(const char *s) {
  size_t n = strlen(s);
  char *d = tfc_malloc(n + 1);
  if (d) memcpy(d, s, n + 1);
  return d;
}

/* Duplicates at most n bytes of s (stopping at a NUL) and NUL-terminates. */
char *tfc_strndup(const char *s, size_t n) {
  size_t len = strnlen(s, n);
  char *d = tfc_malloc(len + 1);
  if (d) {
    memcpy(d, s, len);
    d[len] = '\0';
  }
  return d;
}

/* Small aligned blocks (the buffers of scalars and tiny tensors: loop
 * counters, flags) are kept per thread for reuse, as posix_memalign costs
 * several times a free-list pop. Every request of at most SMALL_BLOCK bytes
 * gets a SMALL_BLOCK block; a thread keeps at most SMALL_KEEP freed ones and
 * its blocks go back to the C library when it exits. Off in sanitizer builds,
 * where reuse would hide use-after-free reports. */
#if defined(__SANITIZE_ADDRESS__)
#define SMALL_CACHE_ENABLED 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SMALL_CACHE_ENABLED 0
#endif
#endif
#ifndef SMALL_CACHE_ENABLED
#define SMALL_CACHE_ENABLED 1
#endif
#define SMALL_BLOCK ((size_t)2 * TFC_ALIGN)
#define SMALL_KEEP 64

typedef struct small_cache {
  int n;
  void *blocks[SMALL_KEEP];
} small_cache;

static _Thread_local small_cache *tl_small;
static pthread_key_t small_key;
static pthread_once_t small_once = PTHREAD_ONCE_INIT;
static bool small_key_ok;

/* Thread-exit destructor: frees a thread's kept blocks. */
static void small_release(void *arg) {
  small_cache *c = arg;
  for (int i = 0; i < c->n; i++) free(c->blocks[i]);
  free(c);
}

/* Creates the thread-exit key once. */
static void small_init(void) { small_key_ok = pthread_key_create(&small_key, small_release) == 0; }

/* This thread's cache, made on first use; NULL when it cannot be. */
static small_cache *small_get(void) {
  if (tl_small) return tl_small;
  pthread_once(&small_once, small_init);
  if (!small_key_ok) return NULL;
  small_cache *c = calloc(1, sizeof *c);
  if (!c) return NULL;
  if (pthread_setspecific(small_key, c) != 0) {
    free(c);
    return NULL;
  }
  tl_small = c;
  return c;
}

/* TFC_ALIGN-aligned block of at least size bytes (rounded up to TFC_ALIGN,
 * at least TFC_ALIGN); NULL on overflow or failure. */
void *tfc_aligned_alloc(size_t size) {
  if (size > SIZE_MAX - (TFC_ALIGN - 1)) return NULL;
  size_t rounded = size ? (size + TFC_ALIGN - 1) & ~(size_t)(TFC_ALIGN - 1) : TFC_ALIGN;
  if (inject_failure()) return NULL;
  void *p = NULL;
  if (SMALL_CACHE_ENABLED && rounded <= SMALL_BLOCK) {
    small_cache *c = tl_small;
    if (c && c->n > 0) return c->blocks[--c->n];
    return posix_memalign(&p, TFC_ALIGN, SMALL_BLOCK) == 0 ? p : NULL;
  }
  /* Large blocks: 2 MiB alignment plus a transparent-huge-page hint, so a
   * fresh output costs few page faults (as NumPy does for large arrays). */
  const size_t huge = (size_t)2 << 20;
  bool big = rounded >= ((size_t)4 << 20);
  p = tfc_block_cache_take(rounded, big ? huge : TFC_ALIGN);
  if (p) return p; /* a recycled block keeps its huge-page hint */
  if (posix_memalign(&p, big ? huge : TFC_ALIGN, rounded) != 0) return NULL;
#ifdef MADV_HUGEPAGE
  if (big) madvise(p, rounded & ~(huge - 1), MADV_HUGEPAGE);
#endif
  return p;
}

/* Frees a block from tfc_aligned_alloc; NULL is a no-op. Small blocks stay
 * with the thread, large blocks go to the block cache for the next step's
 * buffers of the same size. */
void tfc_aligned_free(void *p) {
  if (SMALL_CACHE_ENABLED && p) {
    size_t usable = malloc_usable_size(p);
    if (usable >= SMALL_BLOCK && usable < SMALL_BLOCK + TFC_ALIGN) {
      small_cache *c = small_get();
      if (c && c->n < SMALL_KEEP) {
        c->blocks[c->n++] = p;
        return;
      }
      free(p);
      return;
    }
  }
  if (!tfc_block_cache_put(p)) free(p);
}
