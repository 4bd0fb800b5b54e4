/*
 * block_cache.h — keeps recently freed large aligned blocks for reuse.
 *
 * A training or inference step allocates the same large buffers (activations,
 * im2col scratch, gradients) every time it runs. Returning them to the C
 * library makes glibc unmap them, so the next step pays a page fault and a
 * kernel-side zeroing per 4 KiB page. The cache holds a bounded number of
 * freed blocks (at most TFC_BLOCK_CACHE_BYTES in all) and hands a block back
 * when a request of nearly the same size comes, but only while some user
 * (a session) holds it: with no holder, freed blocks go back to the C
 * library, so memory freed after the last session is not kept. Only the
 * allocation funnel (alloc.c) takes and puts blocks. Thread-safe and fork-safe (the lock is taken around
 * fork). Disabled in sanitizer builds, where reuse would hide
 * use-after-free reports.
 */
#ifndef TFC_BASE_BLOCK_CACHE_H
#define TFC_BASE_BLOCK_CACHE_H

#include <stdbool.h>
#include <stddef.h>

/* Smallest block the cache keeps; smaller ones go straight back to malloc,
 * which recycles them without page faults. */
#define TFC_BLOCK_CACHE_MIN ((size_t)64 << 10)
/* Upper bound on the bytes held idle in the cache. */
#define TFC_BLOCK_CACHE_BYTES ((size_t)512 << 20)

/* A cached block of at least size bytes whose address is a multiple of
 * align (a power of two), removed from the cache; NULL when none fits.
 * Blocks more than an eighth (plus align) larger than size are not handed
 * out. */
void *tfc_block_cache_take(size_t size, size_t align);

/* Offers block p (from posix_memalign) to the cache. Returns true when the
 * cache kept it, false when the caller must free it itself. */
bool tfc_block_cache_put(void *p);

/* Frees every cached block. */
void tfc_block_cache_trim(void);

/* A user (a session) starts relying on the cache: freed blocks are kept. */
void tfc_block_cache_retain(void);
/* The user is done; when no user is left the cache is emptied and keeps
 * nothing more until the next retain. */
void tfc_block_cache_release(void);

/* Bytes currently held idle in the cache (for tests). */
size_t tfc_block_cache_bytes(void);

#endif
