/*
 * threadpool.h — a fixed-size pool of worker threads.
 *
 * Pools are created on demand (never at import, so tfc stays fork-safe).
 * tfc_threadpool_parallel_for splits [0, n) into shards and runs them on the
 * pool plus the calling thread, returning when all shards are done.
 */
#ifndef TFC_BASE_THREADPOOL_H
#define TFC_BASE_THREADPOOL_H

#include <stdint.h>

typedef struct tfc_threadpool tfc_threadpool;
typedef void (*tfc_task_fn)(void *arg);
typedef void (*tfc_range_fn)(void *ctx, int64_t begin, int64_t end);

/* Starts a pool with `nthreads` workers (>= 1). NULL on allocation/thread failure. */
tfc_threadpool *tfc_threadpool_new(int nthreads);
/* Waits for queued tasks to finish, joins the workers and frees the pool. NULL is a no-op. */
void tfc_threadpool_free(tfc_threadpool *pool);
/* Number of worker threads. */
int tfc_threadpool_size(const tfc_threadpool *pool);
/* Queues fn(arg) to run on some worker. Returns 0, or -1 if out of memory
 * (then fn was not queued and the caller must run or drop it). */
int tfc_threadpool_schedule(tfc_threadpool *pool, tfc_task_fn fn, void *arg);
/* Runs fn(ctx, b, e) over shards covering [0, n); shards are at least
 * `min_shard` long. With pool == NULL or a small n, runs inline in one call.
 * Blocks until every shard is done. */
void tfc_threadpool_parallel_for(tfc_threadpool *pool, int64_t n, int64_t min_shard,
                                 tfc_range_fn fn, void *ctx);

#endif
