/*
 * queue.c — the queue resource: storage per kind, waiting requests and
 * their retries, batching of dequeued tuples (see queue.h).
 *
 * Storage is an array of tuples (n tensor pointers each): a ring for the
 * FIFO kinds, a vector for the shuffling queue (a dequeue takes a random
 * index and moves the last tuple there, as TF does, drawing indexes from a
 * Philox stream seeded like TF's), and a binary heap on (priority,
 * insertion number) for the priority queue (smallest first).
 */
#include "kernels/queue.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "kernels/philox.h"

typedef struct qwaiter {
  struct qwaiter *prev, *next;
  bool linked;
  bool is_enqueue;
  tfc_queue *q;
  tfc_cancel *reg;
  tfc_cancel_cb cb;
  bool in_cancel;             /* being completed by the cancel callback */
  /* enqueue */
  tfc_tensor **tuples;
  int64_t m, done_m;
  /* dequeue */
  tfc_dequeue_mode mode;
  int64_t want;
  tfc_tensor **got;
  int64_t n_got;
  tfc_status st;
  tfc_queue_done_fn done;
  void *arg;
} qwaiter;

typedef struct qlist {
  qwaiter *head, *tail;
} qlist;

struct tfc_queue {
  tfc_object base;
  tfc_queue_kind kind;
  char *name;
  int n;
  tfc_dtype *types;
  int n_shapes;
  tfc_shape *shapes;
  int64_t capacity;
  int64_t min_after_dequeue;
  pthread_mutex_t mu;
  bool closed;
  tfc_tensor **store;          /* cap tuples of n */
  uint64_t *seq;               /* PRIORITY: insertion numbers, parallel to store */
  int64_t cap, head, count;
  uint64_t next_seq;
  tfc_philox gen;
  tfc_philox_single single;
  qlist enq, deq;
};

static const char *const k_kind_names[TFC_QUEUE_NUM_KINDS] = {"FIFOQueue", "PaddingFIFOQueue",
                                                              "RandomShuffleQueue", "PriorityQueue"};

static void queue_destroy(tfc_object *o);

static const tfc_object_type k_types[TFC_QUEUE_NUM_KINDS] = {
    {"FIFOQueue", queue_destroy},
    {"PaddingFIFOQueue", queue_destroy},
    {"RandomShuffleQueue", queue_destroy},
    {"PriorityQueue", queue_destroy},
};

/* The object type of a kind. */
const tfc_object_type *tfc_queue_object_type(tfc_queue_kind kind) { return &k_types[kind]; }

/* True for the four queue object types. */
bool tfc_object_is_queue(const tfc_object *o) {
  return o && o->type >= &k_types[0] && o->type < &k_types[TFC_QUEUE_NUM_KINDS];
}

/* Frees the stored tuples and the queue (no waiters can remain: each holds
 * a reference through its step's handle tensor). */
static void queue_destroy(tfc_object *o) {
  tfc_queue *q = (tfc_queue *)o;
  for (int64_t i = 0; i < q->count; i++) {
    int64_t slot = (q->kind == TFC_QUEUE_FIFO || q->kind == TFC_QUEUE_PADDING_FIFO) ? (q->head + i) % q->cap : i;
    for (int c = 0; c < q->n; c++) tfc_tensor_unref(q->store[slot * q->n + c]);
  }
  tfc_free(q->store);
  tfc_free(q->seq);
  tfc_free(q->types);
  tfc_free(q->shapes);
  tfc_free(q->name);
  pthread_mutex_destroy(&q->mu);
  tfc_free(q);
}

/* New queue (see queue.h). */
tfc_queue *tfc_queue_new(const tfc_queue_config *cfg, tfc_status *st) {
  if (cfg->n < 1 || (cfg->n_shapes != 0 && cfg->n_shapes != cfg->n)) {
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                   "Number of shapes (%d) must be 0 or match the number of components (%d)", cfg->n_shapes,
                   cfg->n);
    return NULL;
  }
  if (cfg->kind == TFC_QUEUE_PADDING_FIFO && cfg->n_shapes == 0) {
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "PaddingFIFOQueue requires the shapes of its components");
    return NULL;
  }
  if (cfg->kind == TFC_QUEUE_RANDOM_SHUFFLE && cfg->capacity >= 0 && cfg->min_after_dequeue >= cfg->capacity) {
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "min_after_dequeue (%lld) must be less than capacity (%lld)",
                   (long long)cfg->min_after_dequeue, (long long)cfg->capacity);
    return NULL;
  }
  tfc_queue *q = tfc_calloc(1, sizeof *q);
  if (!q) goto oom;
  tfc_object_init(&q->base, &k_types[cfg->kind]);
  q->kind = cfg->kind;
  q->n = cfg->n;
  q->n_shapes = cfg->n_shapes;
  q->capacity = cfg->capacity < 0 ? INT64_MAX : cfg->capacity;
  q->min_after_dequeue = cfg->min_after_dequeue;
  pthread_mutex_init(&q->mu, NULL);
  q->name = tfc_strdup(cfg->name ? cfg->name : "");
  q->types = tfc_malloc(sizeof(tfc_dtype) * (size_t)cfg->n);
  q->shapes = tfc_malloc(sizeof(tfc_shape) * (size_t)(cfg->n_shapes + 1));
  if (!q->name || !q->types || !q->shapes) {
    queue_destroy(&q->base);
    goto oom;
  }
  memcpy(q->types, cfg->types, sizeof(tfc_dtype) * (size_t)cfg->n);
  if (cfg->n_shapes) memcpy(q->shapes, cfg->shapes, sizeof(tfc_shape) * (size_t)cfg->n_shapes);
  if (cfg->kind == TFC_QUEUE_RANDOM_SHUFFLE) {
    uint64_t s1 = (uint64_t)cfg->seed, s2 = (uint64_t)cfg->seed2;
    if (s1 == 0 && s2 == 0) {
      tfc_guarded_philox g;
      tfc_guarded_philox_init(&g, 0, 0);
      q->gen = g.gen;
      tfc_guarded_philox_destroy(&g);
    } else {
      tfc_philox_seed(&q->gen, s1, s2);
    }
    tfc_philox_single_init(&q->single, &q->gen);
  }
  return q;
oom:
  tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory creating a queue");
  return NULL;
}

/* The queue behind a handle tensor. */
tfc_queue *tfc_queue_from_handle(const tfc_tensor *handle, tfc_status *st) {
  tfc_object *o = tfc_tensor_object_at(handle, 0);
  if (!tfc_object_is_queue(o)) {
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Input is not a queue handle%s%s", o ? " but a " : "",
                   o ? o->type->name : "");
    return NULL;
  }
  return (tfc_queue *)o;
}

int tfc_queue_ncomponents(const tfc_queue *q) { return q->n; }
bool tfc_queue_has_shapes(const tfc_queue *q) {
  for (int c = 0; c < q->n_shapes; c++)
    if (q->kind != TFC_QUEUE_PADDING_FIFO && !tfc_shape_is_fully_defined(&q->shapes[c])) return false;
  return q->n_shapes > 0;
}
const tfc_dtype *tfc_queue_dtypes(const tfc_queue *q) { return q->types; }
const char *tfc_queue_name(const tfc_queue *q) { return q->name; }
const char *tfc_queue_kind_name(const tfc_queue *q) { return k_kind_names[q->kind]; }

/* Writes "[d0,d1]" ("?" for unknown dims, "<unknown>" for unknown rank). */
static void shape_text(const tfc_shape *s, char *buf, size_t cap) {
  if (s->rank < 0) {
    snprintf(buf, cap, "<unknown>");
    return;
  }
  size_t pos = (size_t)snprintf(buf, cap, "[");
  for (int i = 0; i < s->rank && pos < cap; i++) {
    if (s->dims[i] < 0) pos += (size_t)snprintf(buf + pos, cap - pos, "%s?", i ? "," : "");
    else pos += (size_t)snprintf(buf + pos, cap - pos, "%s%lld", i ? "," : "", (long long)s->dims[i]);
  }
  if (pos < cap) snprintf(buf + pos, cap - pos, "]");
}

/* Validates a tuple against types and shapes (see queue.h). */
bool tfc_queue_validate(const tfc_queue *q, tfc_tensor *const *comps, int ncomp, bool many, tfc_status *st) {
  if (ncomp != q->n)
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Expected %d components for %s '%s', got %d", q->n,
                          k_kind_names[q->kind], q->name, ncomp);
  int64_t rows = -1;
  for (int c = 0; c < q->n; c++) {
    const tfc_tensor *t = comps[c];
    if (t->dtype != q->types[c])
      return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                            "Type mismatch in tuple component %d. Expected %s, got %s", c,
                            tfc_dtype_name(q->types[c]), tfc_dtype_name(t->dtype));
    int off = 0;
    if (many) {
      if (t->rank < 1)
        return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                              "Tuple component %d of an enqueue_many must have a batch dimension, got a scalar", c);
      if (rows >= 0 && t->dims[0] != rows)
        return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                              "All input tensors must have the same size in the 0th dimension. Component 0 has "
                              "%lld rows, but component %d has %lld",
                              (long long)rows, c, (long long)t->dims[0]);
      rows = t->dims[0];
      off = 1;
    }
    if (c == 0 && q->kind == TFC_QUEUE_PRIORITY && t->rank - off != 0)
      return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "The priority component must be a scalar (per element)");
    if (q->n_shapes) {
      const tfc_shape *want = &q->shapes[c];
      bool ok = want->rank < 0 || want->rank == t->rank - off;
      for (int d = 0; ok && want->rank >= 0 && d < want->rank; d++)
        if (want->dims[d] >= 0 && want->dims[d] != t->dims[d + off]) ok = false;
      if (!ok) {
        char w[160], g[160];
        shape_text(want, w, sizeof w);
        tfc_shape gs = tfc_shape_make(t->rank - off, t->dims + off);
        shape_text(&gs, g, sizeof g);
        return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                              "Shape mismatch in tuple component %d. Expected %s, got %s", c, w, g);
      }
    }
  }
  return true;
}

/* ---- storage ---- */

/* Makes room for one more tuple; false on OOM. */
static bool store_reserve(tfc_queue *q) {
  if (q->count < q->cap) return true;
  int64_t ncap = q->cap ? q->cap * 2 : 16;
  tfc_tensor **ns = tfc_malloc(sizeof(tfc_tensor *) * (size_t)(ncap * q->n));
  uint64_t *nseq = q->kind == TFC_QUEUE_PRIORITY ? tfc_malloc(sizeof(uint64_t) * (size_t)ncap) : NULL;
  if (!ns || (q->kind == TFC_QUEUE_PRIORITY && !nseq)) {
    tfc_free(ns);
    tfc_free(nseq);
    return false;
  }
  bool ring = q->kind == TFC_QUEUE_FIFO || q->kind == TFC_QUEUE_PADDING_FIFO;
  for (int64_t i = 0; i < q->count; i++) {
    int64_t from = ring ? (q->head + i) % q->cap : i;
    memcpy(ns + i * q->n, q->store + from * q->n, sizeof(tfc_tensor *) * (size_t)q->n);
    if (nseq) nseq[i] = q->seq[i];
  }
  tfc_free(q->store);
  tfc_free(q->seq);
  q->store = ns;
  q->seq = nseq;
  q->cap = ncap;
  q->head = 0;
  return true;
}

/* Priority of stored tuple i (PRIORITY queues). */
static int64_t prio_at(const tfc_queue *q, int64_t i) {
  return tfc_tensor_get_int64(q->store[i * q->n], 0);
}

/* Heap order: smaller priority first, then earlier insertion. */
static bool heap_less(const tfc_queue *q, int64_t a, int64_t b) {
  int64_t pa = prio_at(q, a), pb = prio_at(q, b);
  return pa < pb || (pa == pb && q->seq[a] < q->seq[b]);
}

/* Swaps stored tuples a and b. */
static void swap_tuples(tfc_queue *q, int64_t a, int64_t b) {
  for (int c = 0; c < q->n; c++) {
    tfc_tensor *t = q->store[a * q->n + c];
    q->store[a * q->n + c] = q->store[b * q->n + c];
    q->store[b * q->n + c] = t;
  }
  if (q->seq) {
    uint64_t s = q->seq[a];
    q->seq[a] = q->seq[b];
    q->seq[b] = s;
  }
}

/* Appends a tuple (references taken over); at_front puts it first (FIFO
 * kinds, for restoring). Caller reserved room. */
static void store_push(tfc_queue *q, tfc_tensor **tuple, bool at_front) {
  bool ring = q->kind == TFC_QUEUE_FIFO || q->kind == TFC_QUEUE_PADDING_FIFO;
  int64_t slot;
  if (ring) {
    if (at_front) {
      q->head = (q->head + q->cap - 1) % q->cap;
      slot = q->head;
    } else {
      slot = (q->head + q->count) % q->cap;
    }
  } else {
    slot = q->count;
  }
  memcpy(q->store + slot * q->n, tuple, sizeof(tfc_tensor *) * (size_t)q->n);
  q->count++;
  if (q->kind == TFC_QUEUE_PRIORITY) {
    q->seq[slot] = q->next_seq++;
    int64_t i = slot;
    while (i > 0 && heap_less(q, i, (i - 1) / 2)) {
      swap_tuples(q, i, (i - 1) / 2);
      i = (i - 1) / 2;
    }
  }
}

/* Removes the next tuple into out (references handed over). */
static void store_pop(tfc_queue *q, tfc_tensor **out) {
  int64_t slot;
  switch (q->kind) {
    case TFC_QUEUE_RANDOM_SHUFFLE:
      slot = (int64_t)(tfc_philox_single_next(&q->single) % (uint64_t)q->count);
      memcpy(out, q->store + slot * q->n, sizeof(tfc_tensor *) * (size_t)q->n);
      memcpy(q->store + slot * q->n, q->store + (q->count - 1) * q->n, sizeof(tfc_tensor *) * (size_t)q->n);
      q->count--;
      return;
    case TFC_QUEUE_PRIORITY: {
      memcpy(out, q->store, sizeof(tfc_tensor *) * (size_t)q->n);
      q->count--;
      if (q->count > 0) {
        memcpy(q->store, q->store + q->count * q->n, sizeof(tfc_tensor *) * (size_t)q->n);
        q->seq[0] = q->seq[q->count];
        int64_t i = 0;
        for (;;) {
          int64_t l = 2 * i + 1, r = l + 1, m = i;
          if (l < q->count && heap_less(q, l, m)) m = l;
          if (r < q->count && heap_less(q, r, m)) m = r;
          if (m == i) break;
          swap_tuples(q, i, m);
          i = m;
        }
      }
      return;
    }
    default:
      memcpy(out, q->store + q->head * q->n, sizeof(tfc_tensor *) * (size_t)q->n);
      q->head = (q->head + 1) % q->cap;
      q->count--;
      return;
  }
}

/* ---- waiters ---- */

/* Appends w to list l. */
static void list_append(qlist *l, qwaiter *w) {
  w->prev = l->tail;
  w->next = NULL;
  if (l->tail) l->tail->next = w;
  else l->head = w;
  l->tail = w;
  w->linked = true;
}

/* Unlinks w from l. */
static void list_remove(qlist *l, qwaiter *w) {
  if (w->prev) w->prev->next = w->next;
  else l->head = w->next;
  if (w->next) w->next->prev = w->prev;
  else l->tail = w->prev;
  w->prev = w->next = NULL;
  w->linked = false;
}

/* Drops a waiter's remaining tensors and frees it. */
static void waiter_free(qwaiter *w) {
  if (w->is_enqueue) {
    for (int64_t i = w->done_m * w->q->n; i < w->m * w->q->n; i++) tfc_tensor_unref(w->tuples[i]);
    tfc_free(w->tuples);
  } else if (w->got) {
    for (int64_t i = 0; i < w->n_got * w->q->n; i++) tfc_tensor_unref(w->got[i]);
    tfc_free(w->got);
  }
  tfc_free(w);
}

/* Completes a waiter that is no longer in any list: deregisters it from
 * the step (unless the cancel callback is completing it), hands the result
 * to its callback and frees it. Called without the queue lock. */
static void waiter_finish(qwaiter *w) {
  if (w->reg && !w->in_cancel) tfc_cancel_deregister(w->reg, &w->cb);
  tfc_object *qo = &w->q->base;
  if (w->st.code == TFC_CODE_OK && !w->is_enqueue) {
    tfc_tensor **got = w->got;
    int64_t n_got = w->n_got;
    w->got = NULL;
    w->n_got = 0;
    w->done(w->arg, &w->st, got, n_got);
  } else {
    w->done(w->arg, &w->st, NULL, 0);
  }
  waiter_free(w);
  tfc_object_unref(qo);
}

/* A dequeue that fails on a closed queue puts back what it took (TF's order). */
static void restore_got_locked(tfc_queue *q, qwaiter *w) {
  for (int64_t i = w->n_got - 1; i >= 0; i--) {
    if (!store_reserve(q)) break; /* out of memory: the tuples are dropped with the waiter */
    bool front = q->kind == TFC_QUEUE_FIFO || q->kind == TFC_QUEUE_PADDING_FIFO;
    store_push(q, w->got + i * q->n, front);
    w->n_got = i;
  }
}

/* Retries waiting requests in order until none progresses; completed ones
 * are moved to *done (linked through next). Caller holds q->mu. */
static void flush_locked(tfc_queue *q, qwaiter **done) {
  bool progress = true;
  while (progress) {
    progress = false;
    /* enqueues */
    while (q->enq.head) {
      qwaiter *w = q->enq.head;
      if (q->closed) {
        tfc_status_set(&w->st, TFC_CODE_CANCELLED, "%s '%s' is closed.", k_kind_names[q->kind], q->name);
      } else {
        while (w->done_m < w->m && q->count < q->capacity) {
          if (!store_reserve(q)) {
            tfc_status_set(&w->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory enqueueing into %s", q->name);
            break;
          }
          store_push(q, w->tuples + w->done_m * q->n, false);
          w->done_m++;
          progress = true;
        }
        if (w->done_m < w->m && w->st.code == TFC_CODE_OK) break;
      }
      list_remove(&q->enq, w);
      w->next = *done;
      *done = w;
      progress = true;
    }
    /* dequeues */
    while (q->deq.head) {
      qwaiter *w = q->deq.head;
      int64_t want = w->want;
      if (q->closed && q->count + w->n_got < want) {
        restore_got_locked(q, w);
        if (w->mode == TFC_DEQUEUE_UP_TO && q->count > 0) {
          want = w->want = q->count < want ? q->count : want;
        } else {
          tfc_status_set(&w->st, TFC_CODE_OUT_OF_RANGE,
                         "%s '%s' is closed and has insufficient elements (requested %lld, current size %lld)",
                         k_kind_names[q->kind], q->name, (long long)w->want, (long long)q->count);
          list_remove(&q->deq, w);
          w->next = *done;
          *done = w;
          progress = true;
          continue;
        }
      }
      int64_t keep = (q->kind == TFC_QUEUE_RANDOM_SHUFFLE && !q->closed) ? q->min_after_dequeue : 0;
      while (w->n_got < want && q->count > keep) {
        store_pop(q, w->got + w->n_got * q->n);
        w->n_got++;
        progress = true;
      }
      if (w->n_got < want) break;
      list_remove(&q->deq, w);
      w->next = *done;
      *done = w;
      progress = true;
    }
  }
}

/* Completes every waiter of a done list (no lock held). */
static void finish_all(qwaiter *done) {
  while (done) {
    qwaiter *next = done->next;
    waiter_finish(done);
    done = next;
  }
}

/* Step cancellation: completes w with the reason if it still waits. */
static void waiter_cancelled(void *arg, const tfc_status *why) {
  qwaiter *w = arg;
  tfc_queue *q = w->q;
  pthread_mutex_lock(&q->mu);
  bool mine = w->linked;
  if (mine) {
    list_remove(w->is_enqueue ? &q->enq : &q->deq, w);
    if (!w->is_enqueue) restore_got_locked(q, w);
  }
  qwaiter *done = NULL;
  if (mine) flush_locked(q, &done); /* restored elements may serve others */
  pthread_mutex_unlock(&q->mu);
  if (!mine) return;
  if (why->code == TFC_CODE_DEADLINE_EXCEEDED || why->code == TFC_CODE_CANCELLED)
    tfc_status_set(&w->st, why->code, "%s operation was cancelled%s", w->is_enqueue ? "Enqueue" : "Dequeue",
                   why->code == TFC_CODE_DEADLINE_EXCEEDED ? ": timed out waiting for notification" : "");
  else
    tfc_status_set(&w->st, TFC_CODE_CANCELLED, "%s operation was cancelled", w->is_enqueue ? "Enqueue" : "Dequeue");
  w->in_cancel = true;
  waiter_finish(w);
  finish_all(done);
}

/* Queues a request: registers it with the step, links it and retries. */
static void submit(tfc_queue *q, qwaiter *w) {
  tfc_object_ref(&q->base);
  w->q = q;
  qwaiter *done = NULL;
  /* fast path: nothing waits and the request completes at once */
  pthread_mutex_lock(&q->mu);
  list_append(w->is_enqueue ? &q->enq : &q->deq, w);
  flush_locked(q, &done);
  bool waiting = w->linked;
  if (waiting) list_remove(w->is_enqueue ? &q->enq : &q->deq, w);
  pthread_mutex_unlock(&q->mu);
  if (waiting) {
    /* register first (the cancel callback takes q->mu), then wait */
    if (w->reg) {
      w->cb.fn = waiter_cancelled;
      w->cb.arg = w;
      tfc_status why;
      tfc_status_clear(&why);
      if (!tfc_cancel_register(w->reg, &w->cb, &why)) {
        w->reg = NULL;
        tfc_status_set(&w->st, why.code == TFC_CODE_OK ? TFC_CODE_CANCELLED : why.code, "%s operation was cancelled",
                       w->is_enqueue ? "Enqueue" : "Dequeue");
        if (!w->is_enqueue) {
          pthread_mutex_lock(&q->mu);
          restore_got_locked(q, w);
          flush_locked(q, &done);
          pthread_mutex_unlock(&q->mu);
        }
        waiter_finish(w);
        finish_all(done);
        return;
      }
    }
    pthread_mutex_lock(&q->mu);
    /* requests that arrived meanwhile keep their place behind earlier ones */
    list_append(w->is_enqueue ? &q->enq : &q->deq, w);
    flush_locked(q, &done);
    pthread_mutex_unlock(&q->mu);
  }
  finish_all(done);
}

/* Enqueue request (see queue.h). */
void tfc_queue_enqueue(tfc_queue *q, tfc_tensor **tuples, int64_t m, tfc_cancel *reg, tfc_queue_done_fn done,
                       void *arg) {
  qwaiter *w = tfc_calloc(1, sizeof *w);
  if (!w) {
    for (int64_t i = 0; i < m * q->n; i++) tfc_tensor_unref(tuples[i]);
    tfc_free(tuples);
    tfc_status e;
    tfc_status_clear(&e);
    tfc_status_set(&e, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory enqueueing");
    done(arg, &e, NULL, 0);
    return;
  }
  w->is_enqueue = true;
  w->tuples = tuples;
  w->m = m;
  w->reg = reg;
  w->done = done;
  w->arg = arg;
  tfc_status_clear(&w->st);
  submit(q, w);
}

/* Dequeue request (see queue.h). */
void tfc_queue_dequeue(tfc_queue *q, tfc_dequeue_mode mode, int64_t n, tfc_cancel *reg, tfc_queue_done_fn done,
                       void *arg) {
  tfc_status e;
  tfc_status_clear(&e);
  if (mode == TFC_DEQUEUE_ONE) n = 1;
  qwaiter *w = tfc_calloc(1, sizeof *w);
  tfc_tensor **got = tfc_malloc(sizeof(tfc_tensor *) * (size_t)((n > 0 ? n : 1) * q->n));
  if (!w || !got) {
    tfc_free(w);
    tfc_free(got);
    tfc_status_set(&e, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory dequeueing %lld elements", (long long)n);
    done(arg, &e, NULL, 0);
    return;
  }
  w->mode = mode;
  w->want = n;
  w->got = got;
  w->reg = reg;
  w->done = done;
  w->arg = arg;
  tfc_status_clear(&w->st);
  submit(q, w);
}

/* Closes the queue and retries the waiters. */
void tfc_queue_close(tfc_queue *q, bool cancel_pending_enqueues) {
  qwaiter *done = NULL;
  pthread_mutex_lock(&q->mu);
  q->closed = true;
  if (cancel_pending_enqueues) {
    while (q->enq.head) {
      qwaiter *w = q->enq.head;
      tfc_status_set(&w->st, TFC_CODE_CANCELLED, "%s '%s' is closed.", k_kind_names[q->kind], q->name);
      list_remove(&q->enq, w);
      w->next = done;
      done = w;
    }
  }
  flush_locked(q, &done);
  pthread_mutex_unlock(&q->mu);
  finish_all(done);
}

/* Elements stored now. */
int64_t tfc_queue_size(tfc_queue *q) {
  pthread_mutex_lock(&q->mu);
  int64_t n = q->count;
  pthread_mutex_unlock(&q->mu);
  return n;
}

/* True after close. */
bool tfc_queue_is_closed(tfc_queue *q) {
  pthread_mutex_lock(&q->mu);
  bool c = q->closed;
  pthread_mutex_unlock(&q->mu);
  return c;
}

/* ---- batching ---- */

/* Copies element e (rank r, dims ed) into the batch slot at dst whose
 * per-element dims are od (od >= ed), zero padding already in place. */
static bool copy_padded(const tfc_tensor *e, char *dst, const int64_t *od, size_t esz, tfc_status *st) {
  int r = e->rank;
  if (e->nelems == 0) return true;
  int64_t inner = r ? e->dims[r - 1] : 1;
  int64_t outer = e->nelems / (inner ? inner : 1);
  int64_t idx[TFC_MAX_RANK] = {0};
  const char *src = e->data;
  for (int64_t o = 0; o < outer; o++) {
    /* offset of row idx[0..r-2] in the output element */
    int64_t off = 0;
    for (int d = 0; d < r - 1; d++) off = off * od[d] + idx[d];
    off *= r ? od[r - 1] : 1;
    if (e->dtype == TFC_DTYPE_STRING) {
      const tfc_string *s = (const tfc_string *)src + o * inner;
      tfc_string *t = (tfc_string *)dst + off;
      for (int64_t k = 0; k < inner; k++) {
        t[k].data = NULL;
        t[k].len = 0;
        if (s[k].len) {
          t[k].data = tfc_malloc(s[k].len + 1);
          if (!t[k].data) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory batching strings");
          memcpy(t[k].data, s[k].data, s[k].len);
          t[k].data[s[k].len] = '\0';
          t[k].len = s[k].len;
        }
      }
    } else {
      memcpy(dst + (size_t)off * esz, src + (size_t)(o * inner) * esz, (size_t)inner * esz);
    }
    for (int d = r - 2; d >= 0; d--) {
      if (++idx[d] < e->dims[d]) break;
      idx[d] = 0;
    }
  }
  return true;
}

/* Stacks tuples into batches (see queue.h). */
bool tfc_queue_batch(const tfc_queue *q, tfc_tensor *const *elems, int64_t count, tfc_tensor **outs,
                     tfc_status *st) {
  for (int c = 0; c < q->n; c++) outs[c] = NULL;
  for (int c = 0; c < q->n; c++) {
    int64_t dims[TFC_MAX_RANK + 1];
    int rank;
    if (count == 0) {
      const tfc_shape *s = q->n_shapes ? &q->shapes[c] : NULL;
      if (!s || s->rank < 0 || s->rank + 1 > TFC_MAX_RANK) {
        rank = 1;
      } else {
        rank = s->rank + 1;
        for (int d = 0; d < s->rank; d++) dims[d + 1] = s->dims[d] < 0 ? 0 : s->dims[d];
      }
    } else {
      const tfc_tensor *e0 = elems[c];
      rank = e0->rank + 1;
      if (rank > TFC_MAX_RANK) {
        tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Batched component %d would exceed the maximum rank", c);
        goto fail;
      }
      for (int d = 0; d < e0->rank; d++) dims[d + 1] = e0->dims[d];
      for (int64_t i = 1; i < count; i++) {
        const tfc_tensor *e = elems[i * q->n + c];
        bool same = e->rank == e0->rank;
        for (int d = 0; same && d < e0->rank; d++) {
          if (q->kind == TFC_QUEUE_PADDING_FIFO) {
            if (e->dims[d] > dims[d + 1]) dims[d + 1] = e->dims[d];
          } else if (e->dims[d] != e0->dims[d]) {
            same = false;
          }
        }
        if (!same) {
          tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                         "Shape mismatch in tuple component %d: elements of a batch must have the same shape", c);
          goto fail;
        }
      }
    }
    dims[0] = count;
    tfc_dtype dt = q->types[c];
    outs[c] = tfc_tensor_new(dt, rank, dims, st);
    if (!outs[c]) goto fail;
    int64_t per = 1;
    for (int d = 1; d < rank; d++) per *= dims[d];
    size_t esz = tfc_dtype_size(dt);
    char *base = outs[c]->data;
    bool padded = false;
    for (int64_t i = 0; i < count && !padded; i++)
      if (elems[i * q->n + c]->nelems != per) padded = true;
    if (padded && dt != TFC_DTYPE_STRING && base) memset(base, 0, (size_t)(count * per) * esz);
    for (int64_t i = 0; i < count; i++) {
      const tfc_tensor *e = elems[i * q->n + c];
      char *dst = base + (size_t)(i * per) * esz;
      if (!padded && dt != TFC_DTYPE_STRING) {
        if (per) memcpy(dst, e->data, (size_t)per * esz);
      } else if (!copy_padded(e, dst, dims + 1, esz, st)) {
        goto fail;
      }
    }
  }
  return true;
fail:
  for (int c = 0; c < q->n; c++) {
    tfc_tensor_unref(outs[c]);
    outs[c] = NULL;
  }
  return false;
}

/* Splits batches into tuples of row copies (see queue.h). */
bool tfc_queue_unbatch(tfc_tensor *const *comps, int n, int64_t m, tfc_tensor **tuples, tfc_status *st) {
  for (int64_t i = 0; i < m * n; i++) tuples[i] = NULL;
  for (int c = 0; c < n; c++) {
    const tfc_tensor *b = comps[c];
    int64_t per = m ? b->nelems / m : 0;
    size_t esz = tfc_dtype_size(b->dtype);
    for (int64_t i = 0; i < m; i++) {
      tfc_tensor *t = tfc_tensor_new(b->dtype, b->rank - 1, b->dims + 1, st);
      if (!t) goto fail;
      tuples[i * n + c] = t;
      if (b->dtype == TFC_DTYPE_STRING) {
        const tfc_string *s = (const tfc_string *)b->data + i * per;
        for (int64_t k = 0; k < per; k++)
          if (!tfc_tensor_set_string(t, k, s[k].data, s[k].len, st)) goto fail;
      } else if (per) {
        memcpy(t->data, (const char *)b->data + (size_t)(i * per) * esz, (size_t)per * esz);
      }
    }
  }
  return true;
fail:
  for (int64_t i = 0; i < m * n; i++) {
    tfc_tensor_unref(tuples[i]);
    tuples[i] = NULL;
  }
  return false;
}
