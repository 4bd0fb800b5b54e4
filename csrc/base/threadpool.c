/*
 * threadpool.c — fixed-size pthread pool with a mutex/condvar task queue.
 *
 * Tasks are nodes of one FIFO list. Nodes from tfc_threadpool_schedule are
 * heap-allocated and freed by the worker; nodes of a parallel_for belong to
 * the caller, which after running its own shard takes back every shard no
 * worker has started yet and runs it inline, then waits on a latch for the
 * shards in flight. So a parallel_for always makes progress even when every
 * worker is busy, and one issued from a worker of the same pool runs inline.
 * Worker threads block all signals (they belong to the main thread).
 */
#include "base/threadpool.h"

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>

#include "base/alloc.h"

/* A latch shared by the shards of one parallel_for call. */
typedef struct pfor_group {
  tfc_range_fn fn;
  void *ctx;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int64_t pending; /* shards handed to workers and not finished */
} pfor_group;

typedef struct task {
  struct task *next;
  tfc_task_fn fn;      /* plain task (group == NULL) */
  void *arg;
  pfor_group *group;   /* parallel_for shard */
  int64_t begin, end;
} task;

struct tfc_threadpool {
  pthread_mutex_t mu;
  pthread_cond_t work_cv;
  task *head, *tail;
  bool shutdown;
  int nthreads;
  pthread_t *threads;
};

/* The pool whose worker the current thread is (NULL on other threads). */
static _Thread_local tfc_threadpool *tls_pool;

/* Runs one task node and, for plain tasks, frees it; for shards, counts the latch down. */
static void run_task(task *t) {
  if (t->group == NULL) {
    t->fn(t->arg);
    tfc_free(t);
    return;
  }
  pfor_group *g = t->group;
  g->fn(g->ctx, t->begin, t->end);
  pthread_mutex_lock(&g->mu);
  if (--g->pending == 0) pthread_cond_signal(&g->cv);
  pthread_mutex_unlock(&g->mu);
}

/* Worker loop: runs queued tasks until shutdown and the queue is empty. */
static void *worker_main(void *arg) {
  tfc_threadpool *pool = arg;
  tls_pool = pool;
  pthread_mutex_lock(&pool->mu);
  for (;;) {
    while (pool->head == NULL && !pool->shutdown) pthread_cond_wait(&pool->work_cv, &pool->mu);
    task *t = pool->head;
    if (t == NULL) break; /* shutdown with an empty queue */
    pool->head = t->next;
    if (pool->head == NULL) pool->tail = NULL;
    pthread_mutex_unlock(&pool->mu);
    run_task(t);
    pthread_mutex_lock(&pool->mu);
  }
  pthread_mutex_unlock(&pool->mu);
  return NULL;
}

/* Stops and joins the first `started` workers, then frees the pool. */
static void shutdown_and_free(tfc_threadpool *pool, int started) {
  pthread_mutex_lock(&pool->mu);
  pool->shutdown = true;
  pthread_cond_broadcast(&pool->work_cv);
  pthread_mutex_unlock(&pool->mu);
  for (int i = 0; i < started; i++) pthread_join(pool->threads[i], NULL);
  pthread_cond_destroy(&pool->work_cv);
  pthread_mutex_destroy(&pool->mu);
  tfc_free(pool->threads);
  tfc_free(pool);
}

/* Starts nthreads (>= 1) workers; NULL on bad count, OOM or thread failure. */
tfc_threadpool *tfc_threadpool_new(int nthreads) {
  if (nthreads < 1) return NULL;
  tfc_threadpool *pool = tfc_calloc(1, sizeof *pool);
  if (!pool) return NULL;
  pool->threads = tfc_calloc((size_t)nthreads, sizeof *pool->threads);
  if (!pool->threads) {
    tfc_free(pool);
    return NULL;
  }
  pthread_mutex_init(&pool->mu, NULL);
  pthread_cond_init(&pool->work_cv, NULL);
  pool->nthreads = nthreads;

  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  int started = 0;
  while (started < nthreads &&
         pthread_create(&pool->threads[started], NULL, worker_main, pool) == 0)
    started++;
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (started < nthreads) {
    shutdown_and_free(pool, started);
    return NULL;
  }
  return pool;
}

/* Drains the queue, joins the workers and frees the pool. Must not be called
 * from one of the pool's own tasks. NULL is a no-op. */
void tfc_threadpool_free(tfc_threadpool *pool) {
  if (pool) shutdown_and_free(pool, pool->nthreads);
}

/* Number of worker threads (0 for NULL). */
int tfc_threadpool_size(const tfc_threadpool *pool) { return pool ? pool->nthreads : 0; }

/* Appends the chain first..last to the queue and wakes `n` workers. Caller holds no lock. */
static void enqueue(tfc_threadpool *pool, task *first, task *last, int64_t n) {
  pthread_mutex_lock(&pool->mu);
  if (pool->tail) pool->tail->next = first;
  else pool->head = first;
  pool->tail = last;
  if (n == 1) pthread_cond_signal(&pool->work_cv);
  else pthread_cond_broadcast(&pool->work_cv);
  pthread_mutex_unlock(&pool->mu);
}

/* Queues fn(arg) on a worker. 0, or -1 when out of memory (nothing queued). */
int tfc_threadpool_schedule(tfc_threadpool *pool, tfc_task_fn fn, void *arg) {
  task *t = tfc_malloc(sizeof *t);
  if (!t) return -1;
  *t = (task){.fn = fn, .arg = arg};
  enqueue(pool, t, t, 1);
  return 0;
}

/* Start of shard i of `shards` near-equal shards of [0, n). */
static int64_t shard_begin(int64_t n, int64_t shards, int64_t i) {
  int64_t q = n / shards, r = n % shards;
  return i * q + (i < r ? i : r);
}

/* Runs fn over [0, n) in min(nthreads + 1, ceil(n / min_shard)) shards, one on
 * the calling thread; inline in one call for a NULL pool, small n, a call from
 * one of the pool's workers, or when the shard table cannot be allocated. */
void tfc_threadpool_parallel_for(tfc_threadpool *pool, int64_t n, int64_t min_shard,
                                 tfc_range_fn fn, void *ctx) {
  if (n <= 0) return;
  if (min_shard < 1) min_shard = 1;
  int64_t by_size = (n - 1) / min_shard + 1;
  int64_t shards = pool ? (int64_t)pool->nthreads + 1 : 1;
  if (by_size < shards) shards = by_size;
  if (shards <= 1 || tls_pool == pool) {
    fn(ctx, 0, n);
    return;
  }
  task *nodes = tfc_calloc((size_t)(shards - 1), sizeof *nodes);
  if (!nodes) {
    fn(ctx, 0, n);
    return;
  }
  pfor_group g = {.fn = fn, .ctx = ctx, .pending = shards - 1};
  pthread_mutex_init(&g.mu, NULL);
  pthread_cond_init(&g.cv, NULL);
  for (int64_t k = 0; k < shards - 1; k++) {
    nodes[k].group = &g;
    nodes[k].begin = shard_begin(n, shards, k + 1);
    nodes[k].end = shard_begin(n, shards, k + 2);
    nodes[k].next = k + 1 < shards - 1 ? &nodes[k + 1] : NULL;
  }
  enqueue(pool, &nodes[0], &nodes[shards - 2], shards - 1);

  fn(ctx, 0, shard_begin(n, shards, 1));

  /* Take back the shards no worker has started. */
  task *mine = NULL;
  pthread_mutex_lock(&pool->mu);
  task *prev = NULL;
  for (task *t = pool->head; t;) {
    task *next = t->next;
    if (t->group == &g) {
      if (prev) prev->next = next;
      else pool->head = next;
      if (pool->tail == t) pool->tail = prev;
      t->next = mine;
      mine = t;
    } else {
      prev = t;
    }
    t = next;
  }
  pthread_mutex_unlock(&pool->mu);
  int64_t taken = 0;
  for (task *t = mine; t; t = t->next) {
    fn(ctx, t->begin, t->end);
    taken++;
  }

  pthread_mutex_lock(&g.mu);
  g.pending -= taken;
  while (g.pending > 0) pthread_cond_wait(&g.cv, &g.mu);
  pthread_mutex_unlock(&g.mu);
  pthread_cond_destroy(&g.cv);
  pthread_mutex_destroy(&g.mu);
  tfc_free(nodes);
}
