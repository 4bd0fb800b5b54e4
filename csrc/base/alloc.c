/*
 * alloc.c — the allocation funnel with failure injection for tests.
 *
 * Injection state is one atomic countdown: 0 means off; k > 0 means the k-th
 * allocation from now fails. It stays at 1 once reached, so every later
 * allocation fails too, until tfc_alloc_fail_after(0).
 */
#include "base/alloc.h"

#include "base/block_cache.h"

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

/* TFC_ALIGN-aligned block of at least size bytes (rounded up to TFC_ALIGN,
 * at least TFC_ALIGN); NULL on overflow or failure. */
void *tfc_aligned_alloc(size_t size) {
  if (size > SIZE_MAX - (TFC_ALIGN - 1)) return NULL;
  size_t rounded = size ? (size + TFC_ALIGN - 1) & ~(size_t)(TFC_ALIGN - 1) : TFC_ALIGN;
  if (inject_failure()) return NULL;
  void *p = NULL;
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

/* Frees a block from tfc_aligned_alloc; NULL is a no-op. Large blocks go to
 * the block cache for the next step's buffers of the same size. */
void tfc_aligned_free(void *p) {
  if (!tfc_block_cache_put(p)) free(p);
}
