/*
 * dataset_function.c — datasets that run a graph function per element:
 * Map, ParallelMap (worker threads, results in input order), FlatMap,
 * Interleave (TF's cycle/block order), parallel Interleave (worker threads
 * filling the cycle's slots ahead of the consumer, same order) and Filter.
 *
 * The function is instantiated through the session's library runtime
 * (core/function.h) when the dataset op runs; each call gets the element's
 * components followed by the captured `other_arguments`. Calls are made with
 * no parent step (an iterator outlives the step that made it).
 */
#include <pthread.h>
#include <string.h>

#include "base/alloc.h"
#include "core/function.h"
#include "kernels/dataset_internal.h"

#define MAXC 64

typedef struct fn_ds {
  tfc_dataset ds;
  tfc_function_ds_kind kind;
  tfc_dataset *in;
  tfc_flib *flib;
  const tfc_fhandle *f;
  int n_captured;
  tfc_tensor **captured;
  int64_t a, b;                /* num_parallel_calls | cycle_length, block_length */
  int64_t workers, buffer;     /* parallel interleave */
  bool sloppy;
} fn_ds;

static void fn_destroy(tfc_dataset *ds) {
  fn_ds *d = (fn_ds *)ds;
  tfc_object_unref(&d->in->base);
  for (int i = 0; i < d->n_captured; i++) tfc_tensor_unref(d->captured[i]);
  tfc_free(d->captured);
}

/* Calls f on an element (n_in tensors) plus the captured tensors. */
static bool call(fn_ds *d, tfc_tensor *const *el, int n_in, tfc_tensor **out, tfc_status *st) {
  tfc_tensor *args[2 * MAXC];
  if (n_in + d->n_captured > 2 * MAXC)
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "too many function arguments");
  memcpy(args, el, sizeof(tfc_tensor *) * (size_t)n_in);
  memcpy(args + n_in, d->captured, sizeof(tfc_tensor *) * (size_t)d->n_captured);
  return tfc_func_run(d->flib, d->f, NULL, args, out, st);
}

/* ---- Map (sequential) ---- */

typedef struct map_it {
  tfc_iter it;
  fn_ds *d;
  tfc_iter *in;
  /* flat_map / interleave: the open inner iterators */
  tfc_iter **cur;
  tfc_tensor **args;           /* the input element each open inner iterator was made from */
  int64_t cycle_index, block_index, num_open;
  bool end_of_input;
} map_it;

static void map_it_free(tfc_iter *it) {
  map_it *m = (map_it *)it;
  tfc_iter_free(m->in);
  if (m->cur) {
    int64_t n = m->d->kind == TFC_FN_INTERLEAVE ? m->d->a : 1;
    for (int64_t i = 0; i < n; i++) tfc_iter_free(m->cur[i]);
    tfc_free(m->cur);
    for (int64_t i = 0; m->args && i < n * m->d->in->n; i++) tfc_tensor_unref(m->args[i]);
    tfc_free(m->args);
  }
  tfc_object_unref(&m->d->ds.base);
  tfc_free(m);
}

static int map_next(tfc_iter *it, tfc_tensor **out, tfc_status *st) {
  map_it *m = (map_it *)it;
  tfc_tensor *el[MAXC];
  int rc = m->in->vt->next(m->in, el, st);
  if (rc != 1) return rc;
  bool ok = call(m->d, el, m->d->in->n, out, st);
  tfc_element_clear(el, m->d->in->n);
  return ok ? 1 : -1;
}

static int filter_next(tfc_iter *it, tfc_tensor **out, tfc_status *st) {
  map_it *m = (map_it *)it;
  for (;;) {
    int rc = m->in->vt->next(m->in, out, st);
    if (rc != 1) return rc;
    tfc_tensor *keep = NULL;
    if (!call(m->d, out, m->d->in->n, &keep, st)) {
      tfc_element_clear(out, m->d->in->n);
      return -1;
    }
    bool yes = keep->dtype == TFC_DTYPE_BOOL && keep->nelems == 1 && *(const bool *)keep->data;
    bool bad = keep->dtype != TFC_DTYPE_BOOL || keep->nelems != 1;
    tfc_tensor_unref(keep);
    if (bad) {
      tfc_element_clear(out, m->d->in->n);
      return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Filter predicate `f` must return a scalar bool."), -1;
    }
    if (yes) return 1;
    tfc_element_clear(out, m->d->in->n);
  }
}

/* Makes the inner iterator for one input element (flat_map / interleave),
 * which stays the caller's. */
static tfc_iter *inner_iter(fn_ds *d, tfc_tensor *const *el, tfc_status *st) {
  tfc_tensor *v = NULL;
  if (!call(d, el, d->in->n, &v, st)) return NULL;
  tfc_dataset *inner = tfc_dataset_from_tensor(v, st);
  tfc_iter *it = NULL;
  if (inner) {
    if (inner->n != d->ds.n) {
      tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "The function returned a dataset of %d components, expected %d",
                     inner->n, d->ds.n);
    } else {
      it = tfc_dataset_iter(inner, st);
    }
  }
  tfc_tensor_unref(v);
  return it;
}

/* Opens the inner iterator of slot i for element el (whose references the
 * slot takes, also on failure). */
static bool open_slot(map_it *m, int64_t i, tfc_tensor **el, tfc_status *st) {
  int n_in = m->d->in->n;
  tfc_element_clear(m->args + i * n_in, n_in);
  memcpy(m->args + i * n_in, el, sizeof(tfc_tensor *) * (size_t)n_in);
  m->cur[i] = inner_iter(m->d, el, st);
  return m->cur[i] != NULL;
}

static int flat_map_next(tfc_iter *it, tfc_tensor **out, tfc_status *st) {
  map_it *m = (map_it *)it;
  for (;;) {
    if (m->cur[0]) {
      int rc = m->cur[0]->vt->next(m->cur[0], out, st);
      if (rc != 0) return rc;
      tfc_iter_free(m->cur[0]);
      m->cur[0] = NULL;
    }
    tfc_tensor *el[MAXC];
    int rc = m->in->vt->next(m->in, el, st);
    if (rc != 1) return rc;
    if (!open_slot(m, 0, el, st)) return -1;
  }
}

/* TF's interleave order: cycle_length open iterators, block_length elements each in turn. */
static int interleave_next(tfc_iter *it, tfc_tensor **out, tfc_status *st) {
  map_it *m = (map_it *)it;
  int64_t cycle = m->d->a, block = m->d->b;
  while (!m->end_of_input || m->num_open > 0) {
    tfc_iter **slot = &m->cur[m->cycle_index];
    if (*slot) {
      int rc = (*slot)->vt->next(*slot, out, st);
      if (rc < 0) return -1;
      if (rc == 1) {
        if (++m->block_index == block) {
          m->block_index = 0;
          m->cycle_index = (m->cycle_index + 1) % cycle;
        }
        return 1;
      }
      tfc_iter_free(*slot);
      *slot = NULL;
      m->num_open--;
      m->block_index = 0;
      m->cycle_index = (m->cycle_index + 1) % cycle;
    } else if (!m->end_of_input) {
      tfc_tensor *el[MAXC];
      int rc = m->in->vt->next(m->in, el, st);
      if (rc < 0) return -1;
      if (rc == 0) {
        m->end_of_input = true;
      } else {
        if (!open_slot(m, m->cycle_index, el, st)) return -1;
        m->num_open++;
      }
    } else {
      m->block_index = 0;
      m->cycle_index = (m->cycle_index + 1) % cycle;
    }
  }
  return 0;
}

/* State: the interleave position, the input iterator, then every inner
 * iterator with the input element it was made from. */
static bool map_save(tfc_iter *it, tfc_ds_writer *w, tfc_status *st) {
  map_it *m = (map_it *)it;
  if (!tfc_ds_put_i64(w, m->cycle_index, st) || !tfc_ds_put_i64(w, m->block_index, st) ||
      !tfc_ds_put_i64(w, m->num_open, st) || !tfc_ds_put_i64(w, m->end_of_input, st) ||
      !tfc_iter_save(m->in, w, st))
    return false;
  int64_t slots = !m->cur ? 0 : m->d->kind == TFC_FN_INTERLEAVE ? m->d->a : 1;
  int n_in = m->d->in->n;
  for (int64_t i = 0; i < slots; i++) {
    if (!tfc_ds_put_i64(w, m->cur[i] != NULL, st)) return false;
    if (m->cur[i] && (!tfc_ds_put_element(w, m->args + i * n_in, n_in, st) || !tfc_iter_save(m->cur[i], w, st)))
      return false;
  }
  return true;
}

static bool map_restore(tfc_iter *it, tfc_ds_reader *r, tfc_status *st) {
  map_it *m = (map_it *)it;
  int64_t end;
  if (!tfc_ds_get_i64(r, &m->cycle_index, st) || !tfc_ds_get_i64(r, &m->block_index, st) ||
      !tfc_ds_get_i64(r, &m->num_open, st) || !tfc_ds_get_i64(r, &end, st) || !tfc_iter_restore(m->in, r, st))
    return false;
  m->end_of_input = end != 0;
  int64_t slots = !m->cur ? 0 : m->d->kind == TFC_FN_INTERLEAVE ? m->d->a : 1;
  if (m->cycle_index < 0 || m->cycle_index >= (slots ? slots : 1) || m->num_open < 0 || m->num_open > slots)
    return tfc_status_set(st, TFC_CODE_NOT_FOUND, "Iterator::Interleave::cycle_index");
  int n_in = m->d->in->n;
  for (int64_t i = 0; i < slots; i++) {
    int64_t has;
    if (!tfc_ds_get_i64(r, &has, st)) return false;
    if (!has) continue;
    tfc_tensor *el[MAXC];
    if (!tfc_ds_get_element(r, el, n_in, st) || !open_slot(m, i, el, st) || !tfc_iter_restore(m->cur[i], r, st))
      return false;
  }
  return true;
}

static const tfc_iter_vt map_vt = {map_next, map_it_free, map_save, map_restore, "Map", NULL};
static const tfc_iter_vt filter_vt = {filter_next, map_it_free, map_save, map_restore, "Filter", NULL};
static const tfc_iter_vt flat_map_vt = {flat_map_next, map_it_free, map_save, map_restore, "FlatMap", NULL};
static const tfc_iter_vt interleave_vt = {interleave_next, map_it_free, map_save, map_restore, "Interleave", NULL};

/* ---- ParallelMap ---- */

typedef struct pmap_it {
  tfc_iter it;
  fn_ds *d;
  tfc_iter *in;
  int workers;
  pthread_t *threads;
  int started;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int64_t cap;                 /* result slots */
  tfc_tensor **res;            /* cap * n */
  int *state;                  /* 0 empty, 1 running, 2 ready, 3 end, 4 error */
  tfc_status *errs;
  int64_t next_in, next_out;   /* sequence numbers */
  bool stop, in_done;
} pmap_it;

/* Worker: pulls input elements in order and fills their result slots. */
static void *pmap_worker(void *arg) {
  pmap_it *p = arg;
  int n_in = p->d->in->n, n = p->d->ds.n;
  tfc_tensor *el[MAXC];
  pthread_mutex_lock(&p->mu);
  for (;;) {
    while (!p->stop && !p->in_done && p->next_in - p->next_out >= p->cap) pthread_cond_wait(&p->cv, &p->mu);
    if (p->stop || p->in_done) break;
    int64_t seq = p->next_in++;
    int64_t slot = seq % p->cap;
    tfc_status st;
    tfc_status_clear(&st);
    int rc = p->in->vt->next(p->in, el, &st); /* under the lock: input iterators are single-threaded */
    if (rc != 1) {
      p->in_done = true;
      p->state[slot] = rc == 0 ? 3 : 4;
      if (rc < 0) tfc_status_copy(&p->errs[slot], &st);
      pthread_cond_broadcast(&p->cv);
      break;
    }
    p->state[slot] = 1;
    pthread_mutex_unlock(&p->mu);
    bool ok = call(p->d, el, n_in, p->res + slot * n, &st);
    tfc_element_clear(el, n_in);
    pthread_mutex_lock(&p->mu);
    p->state[slot] = ok ? 2 : 4;
    if (!ok) tfc_status_copy(&p->errs[slot], &st);
    pthread_cond_broadcast(&p->cv);
  }
  pthread_mutex_unlock(&p->mu);
  return NULL;
}

static int pmap_next(tfc_iter *it, tfc_tensor **out, tfc_status *st) {
  pmap_it *p = (pmap_it *)it;
  int n = p->d->ds.n;
  pthread_mutex_lock(&p->mu);
  while (p->started < p->workers) {
    if (pthread_create(&p->threads[p->started], NULL, pmap_worker, p) != 0) break;
    p->started++;
  }
  if (p->started == 0) {
    pthread_mutex_unlock(&p->mu);
    return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "cannot start map threads"), -1;
  }
  int64_t slot = p->next_out % p->cap;
  for (;;) {
    int s = p->state[slot];
    if (s >= 2) break;
    if (s == 0 && p->in_done && p->next_out >= p->next_in) break;
    pthread_cond_wait(&p->cv, &p->mu);
  }
  int rc;
  switch (p->state[slot]) {
    case 2:
      memcpy(out, p->res + slot * n, sizeof(tfc_tensor *) * (size_t)n);
      memset(p->res + slot * n, 0, sizeof(tfc_tensor *) * (size_t)n);
      p->state[slot] = 0;
      p->next_out++;
      rc = 1;
      break;
    case 4:
      tfc_status_copy(st, &p->errs[slot]);
      p->state[slot] = 0;
      p->next_out++; /* the next call goes on with the next element, as in TF */
      rc = -1;
      break;
    default:
      rc = 0;
  }
  pthread_cond_broadcast(&p->cv);
  pthread_mutex_unlock(&p->mu);
  return rc;
}

static void pmap_free(tfc_iter *it) {
  pmap_it *p = (pmap_it *)it;
  pthread_mutex_lock(&p->mu);
  p->stop = true;
  pthread_cond_broadcast(&p->cv);
  pthread_mutex_unlock(&p->mu);
  for (int i = 0; i < p->started; i++) pthread_join(p->threads[i], NULL);
  int n = p->d->ds.n;
  for (int64_t s = 0; p->res && s < p->cap; s++) tfc_element_clear(p->res + s * n, n);
  tfc_free(p->res);
  tfc_free(p->state);
  tfc_free(p->errs);
  tfc_free(p->threads);
  tfc_iter_free(p->in);
  pthread_cond_destroy(&p->cv);
  pthread_mutex_destroy(&p->mu);
  tfc_object_unref(&p->d->ds.base);
  tfc_free(p);
}

/* State: the results ready in order (stopping at one still running is
 * avoided by waiting for the workers to finish their calls), the end or
 * error that follows them, and the input iterator. */
static bool pmap_save(tfc_iter *it, tfc_ds_writer *w, tfc_status *st) {
  pmap_it *p = (pmap_it *)it;
  int n = p->d->ds.n;
  pthread_mutex_lock(&p->mu);
  for (;;) {
    bool running = false;
    for (int64_t s = 0; s < p->cap; s++) running |= p->state[s] == 1;
    if (!running) break;
    pthread_cond_wait(&p->cv, &p->mu);
  }
  int64_t ready = 0;
  int end_state = 0;
  tfc_status *err = NULL;
  for (int64_t q = p->next_out; q < p->next_in; q++) {
    int s = p->state[q % p->cap];
    if (s != 2) {
      end_state = s;
      if (s == 4) err = &p->errs[q % p->cap];
      break;
    }
    ready++;
  }
  bool ok = tfc_ds_put_i64(w, ready, st);
  for (int64_t q = 0; ok && q < ready; q++) ok = tfc_ds_put_element(w, p->res + ((p->next_out + q) % p->cap) * n, n, st);
  ok = ok && tfc_ds_put_i64(w, end_state, st) && tfc_ds_put_i64(w, err ? err->code : 0, st) &&
       tfc_ds_put_bytes(w, err ? err->msg : "", err ? strlen(err->msg) : 0, st) && tfc_iter_save(p->in, w, st);
  pthread_mutex_unlock(&p->mu);
  return ok;
}

/* Restores a fresh parallel map iterator (no worker has started). */
static bool pmap_restore(tfc_iter *it, tfc_ds_reader *r, tfc_status *st) {
  pmap_it *p = (pmap_it *)it;
  int n = p->d->ds.n;
  int64_t ready, end_state, code;
  const void *msg;
  size_t mlen;
  if (!tfc_ds_get_i64(r, &ready, st)) return false;
  if (ready < 0 || ready > p->cap) return tfc_status_set(st, TFC_CODE_NOT_FOUND, "Iterator::ParallelMap::num_parallel_calls");
  for (int64_t q = 0; q < ready; q++) {
    if (!tfc_ds_get_element(r, p->res + q * n, n, st)) return false;
    p->state[q] = 2;
  }
  p->next_out = 0;
  p->next_in = ready;
  if (!tfc_ds_get_i64(r, &end_state, st) || !tfc_ds_get_i64(r, &code, st) || !tfc_ds_get_bytes(r, &msg, &mlen, st))
    return false;
  if ((end_state == 3 || end_state == 4) && ready < p->cap) {
    p->state[ready] = (int)end_state;
    p->next_in = ready + 1;
    p->in_done = true;
    if (end_state == 4)
      tfc_status_set(&p->errs[ready], code ? (tfc_code)code : TFC_CODE_UNKNOWN, "%.*s", (int)mlen, (const char *)msg);
  }
  return tfc_iter_restore(p->in, r, st);
}

static const tfc_iter_vt pmap_vt = {pmap_next, pmap_free, pmap_save, pmap_restore, "ParallelMap", NULL};

/* ---- parallel Interleave ----
 * The consumer walks the cycle exactly as interleave_next does; a slot is
 * given the next input element as soon as it is free (initially, in slot
 * order, and when its inner iterator ends), which hands out input elements
 * in the order the sequential walk would. Worker threads call the function
 * and pull elements from the slots' inner iterators into per-slot rings, so
 * the inner pipelines (file reads, parsing) run in parallel. */

typedef struct pi_slot {
  bool active;                 /* holds an input element */
  bool busy;                   /* a worker is inside its inner iterator */
  bool ended;                  /* the inner iterator ended (or failed: err) */
  tfc_tensor **args;           /* the input element */
  tfc_iter *inner;             /* made by a worker from args */
  tfc_tensor **ring;           /* buffer * n elements */
  int64_t head, count;
  tfc_status err;
} pi_slot;

typedef struct pi_it {
  tfc_iter it;
  fn_ds *d;
  tfc_iter *in;
  pi_slot *slots;
  int64_t cycle_index, block_index, num_open;
  bool end_of_input, stop, pause;
  pthread_mutex_t mu;
  pthread_cond_t work_cv, ready_cv;
  pthread_t *threads;
  int started;
} pi_it;

/* Frees what a slot holds (under the lock, the slot not busy). */
static void pi_slot_clear(pi_it *p, pi_slot *s) {
  int n = p->d->ds.n, n_in = p->d->in->n;
  tfc_iter_free(s->inner);
  s->inner = NULL;
  for (int64_t i = 0; i < s->count; i++) tfc_element_clear(s->ring + ((s->head + i) % p->d->buffer) * n, n);
  s->head = s->count = 0;
  tfc_element_clear(s->args, n_in);
  s->active = s->ended = false;
  tfc_status_clear(&s->err);
}

/* A slot a worker can advance: active, not ended, room in its ring. */
static pi_slot *pi_find_work(pi_it *p) {
  int64_t cycle = p->d->a;
  for (int64_t k = 0; k < cycle; k++) {
    pi_slot *s = &p->slots[(p->cycle_index + k) % cycle];
    if (s->active && !s->busy && !s->ended && s->count < p->d->buffer) return s;
  }
  return NULL;
}

/* Worker: makes inner iterators and moves their elements into the rings. */
static void *pi_worker(void *arg) {
  pi_it *p = arg;
  int n = p->d->ds.n;
  tfc_tensor *el[MAXC];
  pthread_mutex_lock(&p->mu);
  for (;;) {
    pi_slot *s = NULL;
    while (!p->stop && (p->pause || !(s = pi_find_work(p)))) pthread_cond_wait(&p->work_cv, &p->mu);
    if (p->stop) break;
    s->busy = true;
    pthread_mutex_unlock(&p->mu);
    tfc_status st;
    tfc_status_clear(&st);
    int rc;
    if (!s->inner && !(s->inner = inner_iter(p->d, s->args, &st))) rc = -1;
    else rc = s->inner->vt->next(s->inner, el, &st);
    pthread_mutex_lock(&p->mu);
    s->busy = false;
    if (rc == 1) {
      memcpy(s->ring + ((s->head + s->count) % p->d->buffer) * n, el, sizeof(tfc_tensor *) * (size_t)n);
      s->count++;
    } else {
      s->ended = true;
      if (rc < 0) tfc_status_copy(&s->err, &st);
    }
    pthread_cond_broadcast(&p->ready_cv);
    pthread_cond_broadcast(&p->work_cv);
  }
  pthread_mutex_unlock(&p->mu);
  return NULL;
}

/* Gives every free slot the next input element, in slot order from the
 * cycle position (under the lock; the input is read by the consumer only). */
static bool pi_fill(pi_it *p, tfc_status *st) {
  int64_t cycle = p->d->a;
  int n_in = p->d->in->n;
  for (int64_t k = 0; k < cycle && !p->end_of_input; k++) {
    pi_slot *s = &p->slots[(p->cycle_index + k) % cycle];
    if (s->active) continue;
    tfc_tensor *el[MAXC];
    int rc = p->in->vt->next(p->in, el, st);
    if (rc < 0) return false;
    if (rc == 0) {
      p->end_of_input = true;
      break;
    }
    memcpy(s->args, el, sizeof(tfc_tensor *) * (size_t)n_in);
    s->active = true;
    p->num_open++;
    pthread_cond_broadcast(&p->work_cv);
  }
  return true;
}

/* Starts the workers on the first call. */
static bool pi_start(pi_it *p, tfc_status *st) {
  while (p->started < p->d->workers) {
    if (pthread_create(&p->threads[p->started], NULL, pi_worker, p) != 0) break;
    p->started++;
  }
  return p->started > 0 || tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "cannot start interleave threads");
}

/* Takes the front element of slot s into out and moves the walk on. */
static void pi_take(pi_it *p, pi_slot *s, tfc_tensor **out) {
  int n = p->d->ds.n;
  memcpy(out, s->ring + s->head * n, sizeof(tfc_tensor *) * (size_t)n);
  s->head = (s->head + 1) % p->d->buffer;
  s->count--;
  pthread_cond_broadcast(&p->work_cv);
}

static int pi_next(tfc_iter *it, tfc_tensor **out, tfc_status *st) {
  pi_it *p = (pi_it *)it;
  int64_t cycle = p->d->a, block = p->d->b;
  int rc = 0;
  pthread_mutex_lock(&p->mu);
  if (!pi_start(p, st) || !pi_fill(p, st)) {
    pthread_mutex_unlock(&p->mu);
    return -1;
  }
  while (!p->end_of_input || p->num_open > 0) {
    pi_slot *s = &p->slots[p->cycle_index];
    if (p->d->sloppy && !(s->active && (s->count > 0 || s->ended))) {
      /* any slot with an element ready will do */
      for (int64_t k = 1; k < cycle; k++) {
        pi_slot *o = &p->slots[(p->cycle_index + k) % cycle];
        if (o->active && o->count > 0) {
          pi_take(p, o, out);
          rc = 1;
          goto done;
        }
      }
    }
    if (!s->active) {
      p->block_index = 0;
      p->cycle_index = (p->cycle_index + 1) % cycle;
      continue;
    }
    if (s->count > 0) {
      pi_take(p, s, out);
      if (++p->block_index == block) {
        p->block_index = 0;
        p->cycle_index = (p->cycle_index + 1) % cycle;
      }
      rc = 1;
      break;
    }
    if (s->ended) {
      bool failed = s->err.code != TFC_CODE_OK;
      if (failed) tfc_status_copy(st, &s->err);
      pi_slot_clear(p, s);
      p->num_open--;
      p->block_index = 0;
      p->cycle_index = (p->cycle_index + 1) % cycle;
      if (!pi_fill(p, st) || failed) {
        rc = -1;
        break;
      }
      continue;
    }
    pthread_cond_wait(&p->ready_cv, &p->mu);
  }
done:
  pthread_mutex_unlock(&p->mu);
  return rc;
}

static void pi_free(tfc_iter *it) {
  pi_it *p = (pi_it *)it;
  pthread_mutex_lock(&p->mu);
  p->stop = true;
  pthread_cond_broadcast(&p->work_cv);
  pthread_mutex_unlock(&p->mu);
  for (int i = 0; i < p->started; i++) pthread_join(p->threads[i], NULL);
  for (int64_t i = 0; p->slots && i < p->d->a; i++) {
    pi_slot_clear(p, &p->slots[i]);
    tfc_free(p->slots[i].args);
    tfc_free(p->slots[i].ring);
  }
  tfc_free(p->slots);
  tfc_free(p->threads);
  tfc_iter_free(p->in);
  pthread_cond_destroy(&p->work_cv);
  pthread_cond_destroy(&p->ready_cv);
  pthread_mutex_destroy(&p->mu);
  tfc_object_unref(&p->d->ds.base);
  tfc_free(p);
}

/* Waits until no worker is inside an inner iterator (under the lock). */
static void pi_quiesce(pi_it *p) {
  p->pause = true; /* workers park until the save is written */
  for (;;) {
    bool busy = false;
    for (int64_t i = 0; i < p->d->a; i++) busy |= p->slots[i].busy;
    if (!busy) break;
    pthread_cond_wait(&p->ready_cv, &p->mu);
  }
}

/* State: the walk, the input, then per slot its input element, inner
 * iterator and buffered elements. */
static bool pi_save(tfc_iter *it, tfc_ds_writer *w, tfc_status *st) {
  pi_it *p = (pi_it *)it;
  int n = p->d->ds.n, n_in = p->d->in->n;
  pthread_mutex_lock(&p->mu);
  pi_quiesce(p);
  bool ok = tfc_ds_put_i64(w, p->cycle_index, st) && tfc_ds_put_i64(w, p->block_index, st) &&
            tfc_ds_put_i64(w, p->end_of_input, st) && tfc_iter_save(p->in, w, st);
  for (int64_t i = 0; ok && i < p->d->a; i++) {
    pi_slot *s = &p->slots[i];
    ok = tfc_ds_put_i64(w, s->active, st);
    if (!ok || !s->active) continue;
    ok = tfc_ds_put_element(w, s->args, n_in, st) && tfc_ds_put_i64(w, s->count, st);
    for (int64_t k = 0; ok && k < s->count; k++)
      ok = tfc_ds_put_element(w, s->ring + ((s->head + k) % p->d->buffer) * n, n, st);
    ok = ok && tfc_ds_put_i64(w, s->ended, st) && tfc_ds_put_i64(w, s->err.code, st) &&
         tfc_ds_put_bytes(w, s->err.msg, strlen(s->err.msg), st) && tfc_iter_save_opt(s->inner, w, st);
  }
  p->pause = false;
  pthread_cond_broadcast(&p->work_cv);
  pthread_mutex_unlock(&p->mu);
  return ok;
}

/* Restores a fresh parallel interleave iterator (no worker started yet). */
static bool pi_restore(tfc_iter *it, tfc_ds_reader *r, tfc_status *st) {
  pi_it *p = (pi_it *)it;
  int n = p->d->ds.n, n_in = p->d->in->n;
  int64_t end;
  if (!tfc_ds_get_i64(r, &p->cycle_index, st) || !tfc_ds_get_i64(r, &p->block_index, st) ||
      !tfc_ds_get_i64(r, &end, st) || !tfc_iter_restore(p->in, r, st))
    return false;
  if (p->cycle_index < 0 || p->cycle_index >= p->d->a)
    return tfc_status_set(st, TFC_CODE_NOT_FOUND, "Iterator::ParallelInterleave::cycle_index");
  p->end_of_input = end != 0;
  p->num_open = 0;
  for (int64_t i = 0; i < p->d->a; i++) {
    pi_slot *s = &p->slots[i];
    int64_t active, count, ended, code;
    const void *msg;
    size_t mlen;
    if (!tfc_ds_get_i64(r, &active, st)) return false;
    if (!active) continue;
    if (!tfc_ds_get_element(r, s->args, n_in, st)) return false;
    s->active = true;
    p->num_open++;
    if (!tfc_ds_get_i64(r, &count, st)) return false;
    if (count < 0 || count > p->d->buffer)
      return tfc_status_set(st, TFC_CODE_NOT_FOUND, "Iterator::ParallelInterleave::buffer_output_elements");
    for (int64_t k = 0; k < count; k++) {
      if (!tfc_ds_get_element(r, s->ring + k * n, n, st)) return false;
      s->count++;
    }
    if (!tfc_ds_get_i64(r, &ended, st) || !tfc_ds_get_i64(r, &code, st) || !tfc_ds_get_bytes(r, &msg, &mlen, st))
      return false;
    s->ended = ended != 0;
    if (code != TFC_CODE_OK) tfc_status_set(&s->err, (tfc_code)code, "%.*s", (int)mlen, (const char *)msg);
    int64_t has;
    if (!tfc_ds_get_i64(r, &has, st)) return false;
    if (has) {
      /* the inner dataset again from the same input element, then its position */
      if (!(s->inner = inner_iter(p->d, s->args, st)) || !tfc_iter_restore(s->inner, r, st)) return false;
    }
  }
  return true;
}

static const tfc_iter_vt pi_vt = {pi_next, pi_free, pi_save, pi_restore, "ParallelInterleave", NULL};

static tfc_iter *pi_make(fn_ds *d, tfc_status *st) {
  pi_it *p = tfc_calloc(1, sizeof *p);
  if (!p) {
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  p->it.vt = &pi_vt;
  p->d = (fn_ds *)tfc_object_ref(&d->ds.base);
  pthread_mutex_init(&p->mu, NULL);
  pthread_cond_init(&p->work_cv, NULL);
  pthread_cond_init(&p->ready_cv, NULL);
  p->threads = tfc_calloc((size_t)d->workers, sizeof(pthread_t));
  p->slots = tfc_calloc((size_t)d->a, sizeof(pi_slot));
  bool ok = p->threads && p->slots;
  for (int64_t i = 0; ok && i < d->a; i++) {
    p->slots[i].args = tfc_calloc((size_t)d->in->n + 1, sizeof(tfc_tensor *));
    p->slots[i].ring = tfc_calloc((size_t)(d->buffer * d->ds.n + 1), sizeof(tfc_tensor *));
    ok = p->slots[i].args && p->slots[i].ring;
  }
  if (!ok) {
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    pi_free(&p->it);
    return NULL;
  }
  if (!(p->in = tfc_dataset_iter(d->in, st))) {
    pi_free(&p->it);
    return NULL;
  }
  return &p->it;
}

/* Makes an interleave dataset parallel (see dataset_internal.h). */
void tfc_ds_interleave_set_parallel(tfc_dataset *ds, int64_t workers, int64_t buffer, bool sloppy) {
  fn_ds *d = (fn_ds *)ds;
  d->workers = workers < 1 ? 1 : workers > 64 ? 64 : workers;
  d->buffer = buffer < 1 ? 1 : buffer;
  d->sloppy = sloppy;
  d->kind = TFC_FN_PARALLEL_INTERLEAVE;
}

static tfc_iter *fn_make(tfc_dataset *ds, tfc_status *st) {
  fn_ds *d = (fn_ds *)ds;
  if (d->kind == TFC_FN_PARALLEL_INTERLEAVE) return pi_make(d, st);
  if (d->kind == TFC_FN_PARALLEL_MAP && d->a > 1) {
    pmap_it *p = tfc_calloc(1, sizeof *p);
    if (!p) goto oom;
    p->it.vt = &pmap_vt;
    p->d = (fn_ds *)tfc_object_ref(&ds->base);
    p->workers = (int)(d->a > 16 ? 16 : d->a);
    p->cap = 2 * p->workers;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    p->threads = tfc_calloc((size_t)p->workers, sizeof(pthread_t));
    p->res = tfc_calloc((size_t)(p->cap * ds->n + 1), sizeof(tfc_tensor *));
    p->state = tfc_calloc((size_t)p->cap, sizeof(int));
    p->errs = tfc_calloc((size_t)p->cap, sizeof(tfc_status));
    p->in = p->threads && p->res && p->state && p->errs ? tfc_dataset_iter(d->in, st) : NULL;
    if (!p->in) {
      if (!(p->threads && p->res && p->state && p->errs)) tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
      pmap_free(&p->it);
      return NULL;
    }
    return &p->it;
  }
  map_it *m = tfc_calloc(1, sizeof *m);
  if (!m) goto oom;
  m->d = (fn_ds *)tfc_object_ref(&ds->base);
  m->it.vt = d->kind == TFC_FN_FILTER       ? &filter_vt
             : d->kind == TFC_FN_FLAT_MAP   ? &flat_map_vt
             : d->kind == TFC_FN_INTERLEAVE ? &interleave_vt
                                            : &map_vt;
  if (d->kind == TFC_FN_FLAT_MAP || d->kind == TFC_FN_INTERLEAVE) {
    size_t slots = (size_t)(d->kind == TFC_FN_INTERLEAVE ? d->a : 1);
    m->cur = tfc_calloc(slots, sizeof(tfc_iter *));
    m->args = tfc_calloc(slots * (size_t)d->in->n + 1, sizeof(tfc_tensor *));
    if (!m->cur || !m->args) {
      map_it_free(&m->it);
      goto oom;
    }
  }
  m->in = tfc_dataset_iter(d->in, st);
  if (!m->in) {
    map_it_free(&m->it);
    return NULL;
  }
  return &m->it;
oom:
  tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  return NULL;
}

static const tfc_dataset_vt fn_vts[] = {
    {"MapDataset", fn_make, fn_destroy},        {"ParallelMapDataset", fn_make, fn_destroy},
    {"FlatMapDataset", fn_make, fn_destroy},    {"InterleaveDataset", fn_make, fn_destroy},
    {"FilterDataset", fn_make, fn_destroy},
};

/* A function dataset (see dataset_internal.h). */
tfc_dataset *tfc_ds_function(tfc_function_ds_kind kind, tfc_dataset *in, tfc_flib *flib, const tfc_fhandle *f,
                             tfc_tensor *const *captured, int n_captured, int n, const tfc_dtype *types,
                             const tfc_shape *shapes, int64_t a, int64_t b, tfc_status *st) {
  /* the function's signature must take the element plus the captured tensors */
  if (f->n_inputs != in->n + n_captured) {
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "The function %s takes %d arguments, the element has %d and %d are captured",
                   f->name, f->n_inputs, in->n, n_captured);
    return NULL;
  }
  for (int i = 0; i < in->n; i++)
    if (f->in_types[i] != in->types[i]) {
      tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "The function %s takes %s for argument %d, the element has %s",
                     f->name, tfc_dtype_name(f->in_types[i]), i, tfc_dtype_name(in->types[i]));
      return NULL;
    }
  int want_out = kind == TFC_FN_FILTER ? 1 : (kind == TFC_FN_FLAT_MAP || kind == TFC_FN_INTERLEAVE) ? 1 : n;
  if (f->n_outputs != want_out) {
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "The function %s returns %d values, expected %d", f->name,
                   f->n_outputs, want_out);
    return NULL;
  }
  if (kind == TFC_FN_INTERLEAVE && (a <= 0 || b <= 0)) {
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "cycle_length and block_length must be positive");
    return NULL;
  }
  fn_ds *d = (fn_ds *)tfc_dataset_alloc(sizeof *d, NULL, n, types, shapes, st);
  if (!d) return NULL;
  d->captured = tfc_calloc((size_t)n_captured + 1, sizeof(tfc_tensor *));
  if (!d->captured) {
    tfc_object_unref(&d->ds.base);
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  d->in = (tfc_dataset *)tfc_object_ref(&in->base);
  d->ds.vt = &fn_vts[kind];
  d->kind = kind;
  d->flib = flib;
  d->f = f;
  for (int i = 0; i < n_captured; i++) d->captured[i] = tfc_tensor_ref(captured[i]);
  d->n_captured = n_captured;
  d->a = a;
  d->b = b;
  return &d->ds;
}
