/*
 * dataset_transform.c — datasets over other datasets: Zip, Concatenate,
 * Batch / PaddedBatch, Shuffle (TF's buffer algorithm and seeds, so fixed
 * seeds give TF's orders), Repeat, Take, Skip, Cache (in memory) and
 * Prefetch (a producer thread per iterator filling a bounded buffer).
 */
#include <pthread.h>
#include <string.h>

#include "base/alloc.h"
#include "kernels/dataset_internal.h"
#include "kernels/philox.h"

#define MAXC 64

/* Out-of-memory helper for iterator constructors. */
static void *oom(tfc_status *st) {
  tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  return NULL;
}

/* A generic transform dataset: inputs plus a few numbers. */
typedef struct xds {
  tfc_dataset ds;
  int k;
  tfc_dataset *in[MAXC];
  int64_t a, b, c;
  bool flag;
  /* padded batch */
  int64_t *pad_dims[MAXC];
  int pad_ranks[MAXC];
  tfc_tensor *pad_values[MAXC];
  bool padded;
  /* shuffle: the seed generator */
  pthread_mutex_t mu;
  tfc_philox seed_gen;
  tfc_philox_single seed_single;
  /* cache */
  tfc_tensor **cache;
  int64_t cache_n;
  bool cache_done;
} xds;

static void xds_destroy(tfc_dataset *ds) {
  xds *x = (xds *)ds;
  for (int i = 0; i < x->k; i++) tfc_object_unref(&x->in[i]->base);
  for (int c = 0; c < MAXC; c++) {
    tfc_free(x->pad_dims[c]);
    tfc_tensor_unref(x->pad_values[c]);
  }
  for (int64_t i = 0; i < x->cache_n * ds->n; i++) tfc_tensor_unref(x->cache[i]);
  tfc_free(x->cache);
  pthread_mutex_destroy(&x->mu);
}

/* Allocates a transform dataset over k inputs (referenced). */
static xds *xds_new(const tfc_dataset_vt *vt, tfc_dataset *const *in, int k, int n, const tfc_dtype *types,
                    const tfc_shape *shapes, tfc_status *st) {
  xds *x = (xds *)tfc_dataset_alloc(sizeof *x, NULL, n, types, shapes, st);
  if (!x) return NULL;
  pthread_mutex_init(&x->mu, NULL);
  for (int i = 0; i < k; i++) x->in[i] = (tfc_dataset *)tfc_object_ref(&in[i]->base);
  x->k = k;
  x->ds.vt = vt;
  return x;
}

/* An iterator over a transform dataset: input iterators and state. */
typedef struct xit {
  tfc_iter it;
  xds *ds;
  tfc_iter *in[MAXC];
  int cur;
  int64_t count, epoch_count;
  /* shuffle */
  tfc_philox gen;
  tfc_philox_single single;
  tfc_tensor **buf;
  int64_t start, end;
  bool in_done;
  /* cache */
  tfc_tensor **fill;
  int64_t fill_n, fill_cap;
  bool from_cache;
} xit;

static void xit_free(tfc_iter *it) {
  xit *x = (xit *)it;
  for (int i = 0; i < MAXC; i++) tfc_iter_free(x->in[i]);
  int n = x->ds->ds.n;
  if (x->buf) {
    for (int64_t i = x->start; i < x->end; i++) tfc_element_clear(x->buf + (i % x->ds->a) * n, n);
    tfc_free(x->buf);
  }
  for (int64_t i = 0; i < x->fill_n * n; i++) tfc_tensor_unref(x->fill[i]);
  tfc_free(x->fill);
  tfc_object_unref(&x->ds->ds.base);
  tfc_free(x);
}

/* A new iterator with input iterators for the first `open` inputs. */
static xit *xit_new(const tfc_iter_vt *vt, tfc_dataset *ds, int open, tfc_status *st) {
  xit *x = tfc_calloc(1, sizeof *x);
  if (!x) return oom(st);
  x->it.vt = vt;
  x->ds = (xds *)tfc_object_ref(&ds->base);
  for (int i = 0; i < open; i++) {
    x->in[i] = tfc_dataset_iter(x->ds->in[i], st);
    if (!x->in[i]) {
      xit_free(&x->it);
      return NULL;
    }
  }
  return x;
}

/* ---- iterator state ---- */

static const tfc_iter_vt shuffle_it_vt, cache_it_vt;

/* Writes a Philox generator and its single-word adapter's buffer. */
bool tfc_ds_put_philox(tfc_ds_writer *w, const tfc_philox *g, const tfc_philox_single *s, tfc_status *st) {
  bool ok = true;
  for (int i = 0; ok && i < 4; i++) ok = tfc_ds_put_i64(w, g->counter[i], st);
  for (int i = 0; ok && i < 2; i++) ok = tfc_ds_put_i64(w, g->key[i], st);
  for (int i = 0; ok && i < 4; i++) ok = tfc_ds_put_i64(w, s->words[i], st);
  return ok && tfc_ds_put_i64(w, s->used, st);
}

/* Reads what tfc_ds_put_philox wrote (s keeps pointing at g). */
bool tfc_ds_get_philox(tfc_ds_reader *r, tfc_philox *g, tfc_philox_single *s, tfc_status *st) {
  int64_t v[11];
  for (int i = 0; i < 11; i++)
    if (!tfc_ds_get_i64(r, &v[i], st)) return false;
  if (v[10] < 0 || v[10] > 4) return tfc_status_set(st, TFC_CODE_DATA_LOSS, "bad shuffle generator state");
  for (int i = 0; i < 4; i++) g->counter[i] = (uint32_t)v[i];
  for (int i = 0; i < 2; i++) g->key[i] = (uint32_t)v[4 + i];
  for (int i = 0; i < 4; i++) s->words[i] = (uint32_t)v[6 + i];
  s->used = (int)v[10];
  return true;
}

/* State of every transform iterator: counters, the input iterators, then
 * the shuffle buffer and generators, or the cache's elements. */
static bool xit_save(tfc_iter *it, tfc_ds_writer *w, tfc_status *st) {
  xit *x = (xit *)it;
  xds *d = x->ds;
  int n = d->ds.n;
  if (!tfc_ds_put_i64(w, x->cur, st) || !tfc_ds_put_i64(w, x->count, st) ||
      !tfc_ds_put_i64(w, x->epoch_count, st) || !tfc_ds_put_i64(w, x->in_done, st))
    return false;
  for (int i = 0; i < d->k; i++)
    if (!tfc_iter_save_opt(x->in[i], w, st)) return false;
  if (it->vt == &shuffle_it_vt) {
    pthread_mutex_lock(&d->mu);
    bool ok = tfc_ds_put_philox(w, &d->seed_gen, &d->seed_single, st);
    pthread_mutex_unlock(&d->mu);
    if (!ok || !tfc_ds_put_philox(w, &x->gen, &x->single, st) || !tfc_ds_put_i64(w, x->end - x->start, st)) return false;
    for (int64_t i = x->start; i < x->end; i++)
      if (!tfc_ds_put_element(w, x->buf + (i % d->a) * n, n, st)) return false;
  } else if (it->vt == &cache_it_vt) {
    tfc_tensor **els = x->from_cache ? d->cache : x->fill;
    int64_t count = x->from_cache ? d->cache_n : x->fill_n;
    if (!tfc_ds_put_i64(w, x->from_cache, st) || !tfc_ds_put_i64(w, count, st)) return false;
    for (int64_t i = 0; i < count; i++)
      if (!tfc_ds_put_element(w, els + i * n, n, st)) return false;
  }
  return true;
}

/* Reads count elements into a new array (tfc_free it after unref'ing). */
static tfc_tensor **get_elements(tfc_ds_reader *r, int64_t count, int n, tfc_status *st) {
  if (count < 0 || count > (r->end - r->p) / 16 + 1) {
    tfc_status_set(st, TFC_CODE_DATA_LOSS, "bad element count in the saved iterator state");
    return NULL;
  }
  tfc_tensor **els = tfc_calloc((size_t)(count * n + 1), sizeof(tfc_tensor *));
  if (!els) return oom(st);
  for (int64_t i = 0; i < count; i++)
    if (!tfc_ds_get_element(r, els + i * n, n, st)) {
      for (int64_t k = 0; k < i * n; k++) tfc_tensor_unref(els[k]);
      tfc_free(els);
      return NULL;
    }
  return els;
}

/* Restores what xit_save wrote into a fresh iterator. */
static bool xit_restore(tfc_iter *it, tfc_ds_reader *r, tfc_status *st) {
  xit *x = (xit *)it;
  xds *d = x->ds;
  int n = d->ds.n;
  int64_t cur, done;
  if (!tfc_ds_get_i64(r, &cur, st) || !tfc_ds_get_i64(r, &x->count, st) || !tfc_ds_get_i64(r, &x->epoch_count, st) ||
      !tfc_ds_get_i64(r, &done, st))
    return false;
  if (cur < 0 || cur >= (d->k > 0 ? d->k : 1)) return tfc_status_set(st, TFC_CODE_DATA_LOSS, "bad iterator state");
  x->cur = (int)cur;
  x->in_done = done != 0;
  for (int i = 0; i < d->k; i++)
    if (!tfc_iter_restore_opt(&x->in[i], d->in[i], r, st)) return false;
  if (it->vt == &shuffle_it_vt) {
    tfc_philox g;
    tfc_philox_single s;
    int64_t count;
    if (!tfc_ds_get_philox(r, &g, &s, st)) return false;
    pthread_mutex_lock(&d->mu);
    d->seed_gen = g;
    d->seed_single.used = s.used;
    memcpy(d->seed_single.words, s.words, sizeof s.words);
    pthread_mutex_unlock(&d->mu);
    if (!tfc_ds_get_philox(r, &x->gen, &x->single, st) || !tfc_ds_get_i64(r, &count, st)) return false;
    if (count > d->a) return tfc_status_set(st, TFC_CODE_NOT_FOUND, "Iterator::Shuffle::buffer_size");
    tfc_tensor **els = get_elements(r, count, n, st);
    if (!els) return false;
    for (int64_t i = x->start; i < x->end; i++) tfc_element_clear(x->buf + (i % d->a) * n, n);
    memcpy(x->buf, els, sizeof(tfc_tensor *) * (size_t)(count * n));
    tfc_free(els);
    x->start = 0;
    x->end = count;
  } else if (it->vt == &cache_it_vt) {
    int64_t from_cache, count;
    if (!tfc_ds_get_i64(r, &from_cache, st) || !tfc_ds_get_i64(r, &count, st)) return false;
    tfc_tensor **els = get_elements(r, count, n, st);
    if (!els) return false;
    if (from_cache) {
      pthread_mutex_lock(&d->mu);
      if (!d->cache_done) {
        d->cache = els;
        d->cache_n = count;
        d->cache_done = true;
        els = NULL;
      }
      pthread_mutex_unlock(&d->mu);
      if (els) {
        for (int64_t i = 0; i < count * n; i++) tfc_tensor_unref(els[i]);
        tfc_free(els);
      }
      tfc_iter_free(x->in[0]);
      x->in[0] = NULL;
      x->from_cache = true;
    } else {
      for (int64_t i = 0; i < x->fill_n * n; i++) tfc_tensor_unref(x->fill[i]);
      tfc_free(x->fill);
      x->fill = els;
      x->fill_n = x->fill_cap = count;
      x->from_cache = false;
    }
  }
  return true;
}

/* ---- Zip ---- */

static int zip_next(tfc_iter *it, tfc_tensor **out, tfc_status *st) {
  xit *x = (xit *)it;
  int o = 0;
  for (int i = 0; i < x->ds->k; i++) {
    int rc = x->in[i]->vt->next(x->in[i], out + o, st);
    if (rc != 1) {
      tfc_element_clear(out, o);
      return rc;
    }
    o += x->ds->in[i]->n;
  }
  return 1;
}

static const tfc_iter_vt zip_it_vt = {zip_next, xit_free, xit_save, xit_restore, "Zip", NULL};

static tfc_iter *zip_make(tfc_dataset *ds, tfc_status *st) {
  xit *x = xit_new(&zip_it_vt, ds, ((xds *)ds)->k, st);
  return x ? &x->it : NULL;
}

static const tfc_dataset_vt zip_vt = {"ZipDataset", zip_make, xds_destroy};

tfc_dataset *tfc_ds_zip(tfc_dataset *const *inputs, int k, tfc_status *st) {
  tfc_dtype types[MAXC] = {0};
  tfc_shape shapes[MAXC];
  memset(shapes, 0, sizeof shapes);
  int n = 0;
  for (int i = 0; i < k; i++)
    for (int c = 0; c < inputs[i]->n; c++) {
      if (n >= MAXC) {
        tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "too many components");
        return NULL;
      }
      types[n] = inputs[i]->types[c];
      shapes[n++] = inputs[i]->shapes[c];
    }
  if (k > MAXC) {
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "too many datasets to zip");
    return NULL;
  }
  xds *x = xds_new(&zip_vt, inputs, k, n, types, shapes, st);
  if (x) x->ds.cardinality = tfc_ds_card_zip(inputs, k);
  return x ? &x->ds : NULL;
}

/* ---- Concatenate ---- */

static int concat_next(tfc_iter *it, tfc_tensor **out, tfc_status *st) {
  xit *x = (xit *)it;
  for (;;) {
    int rc = x->in[x->cur]->vt->next(x->in[x->cur], out, st);
    if (rc != 0 || x->cur == 1) return rc;
    x->cur = 1;
    x->in[1] = tfc_dataset_iter(x->ds->in[1], st);
    if (!x->in[1]) return -1;
  }
}

static const tfc_iter_vt concat_it_vt = {concat_next, xit_free, xit_save, xit_restore, "Concatenate", NULL};

static tfc_iter *concat_make(tfc_dataset *ds, tfc_status *st) {
  xit *x = xit_new(&concat_it_vt, ds, 1, st);
  return x ? &x->it : NULL;
}

static const tfc_dataset_vt concat_vt = {"ConcatenateDataset", concat_make, xds_destroy};

tfc_dataset *tfc_ds_concatenate(tfc_dataset *a, tfc_dataset *b, tfc_status *st) {
  if (a->n != b->n) {
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Concatenated datasets must have the same structure");
    return NULL;
  }
  for (int c = 0; c < a->n; c++)
    if (a->types[c] != b->types[c]) {
      tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Concatenated datasets must have the same component types");
      return NULL;
    }
  tfc_dataset *in[2] = {a, b};
  tfc_shape shapes[MAXC];
  memset(shapes, 0, sizeof shapes);
  for (int c = 0; c < a->n && c < MAXC; c++) {
    /* the most specific shape both inputs' elements have */
    const tfc_shape *sa = &a->shapes[c], *sb = &b->shapes[c];
    if (sa->rank < 0 || sa->rank != sb->rank) {
      shapes[c] = tfc_shape_unknown();
    } else {
      shapes[c] = *sa;
      for (int d = 0; d < sa->rank; d++)
        if (sa->dims[d] != sb->dims[d]) shapes[c].dims[d] = -1;
    }
  }
  xds *x = xds_new(&concat_vt, in, 2, a->n, a->types, shapes, st);
  if (x) x->ds.cardinality = tfc_ds_card_concatenate(a->cardinality, b->cardinality);
  return x ? &x->ds : NULL;
}

/* ---- Batch / PaddedBatch ---- */

static int batch_next(tfc_iter *it, tfc_tensor **out, tfc_status *st) {
  xit *x = (xit *)it;
  xds *d = x->ds;
  int n = d->ds.n;
  int64_t bs = d->a;
  if (x->in_done) return 0;
  tfc_tensor **el = tfc_calloc((size_t)(bs * n + 1), sizeof(tfc_tensor *));
  if (!el) return oom(st), -1;
  int64_t got = 0;
  int rc = 1;
  while (got < bs) {
    rc = x->in[0]->vt->next(x->in[0], el + got * n, st);
    if (rc != 1) break;
    got++;
  }
  int result;
  if (rc < 0) {
    result = -1;
  } else if (got == 0 || (got < bs && d->flag)) {
    x->in_done = true;
    result = 0;
  } else {
    if (got < bs) x->in_done = true;
    result = 1;
    for (int c = 0; c < n; c++) {
      out[c] = tfc_ds_stack(el, got, n, c, d->padded ? d->pad_dims[c] : NULL, d->pad_ranks[c], d->pad_values[c], st);
      if (!out[c]) {
        tfc_element_clear(out, c);
        result = -1;
        break;
      }
    }
  }
  for (int64_t i = 0; i < got * n; i++) tfc_tensor_unref(el[i]);
  tfc_free(el);
  return result;
}

static const tfc_iter_vt batch_it_vt = {batch_next, xit_free, xit_save, xit_restore, "Batch", NULL};

static tfc_iter *batch_make(tfc_dataset *ds, tfc_status *st) {
  xit *x = xit_new(&batch_it_vt, ds, 1, st);
  return x ? &x->it : NULL;
}

static const tfc_dataset_vt batch_vt = {"BatchDatasetV2", batch_make, xds_destroy};
static const tfc_dataset_vt padded_batch_vt = {"PaddedBatchDatasetV2", batch_make, xds_destroy};

tfc_dataset *tfc_ds_batch(tfc_dataset *in, int64_t batch, bool drop_remainder, const int64_t *const *pad_dims,
                          const int *pad_ranks, tfc_tensor *const *pad_values, const tfc_shape *out_shapes,
                          tfc_status *st) {
  if (batch <= 0) {
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Batch size must be greater than zero.");
    return NULL;
  }
  xds *x = xds_new(pad_dims ? &padded_batch_vt : &batch_vt, &in, 1, in->n, in->types, out_shapes, st);
  if (!x) return NULL;
  x->a = batch;
  x->flag = drop_remainder;
  x->ds.cardinality = tfc_ds_card_batch(in->cardinality, batch, drop_remainder);
  if (pad_dims) {
    x->padded = true;
    for (int c = 0; c < in->n; c++) {
      x->pad_ranks[c] = pad_ranks[c];
      x->pad_dims[c] = tfc_malloc(sizeof(int64_t) * (size_t)(pad_ranks[c] + 1));
      if (!x->pad_dims[c]) {
        tfc_object_unref(&x->ds.base);
        return oom(st);
      }
      memcpy(x->pad_dims[c], pad_dims[c], sizeof(int64_t) * (size_t)pad_ranks[c]);
      x->pad_values[c] = tfc_tensor_ref(pad_values[c]);
    }
  }
  return &x->ds;
}

/* ---- Shuffle ---- */

static int shuffle_next(tfc_iter *it, tfc_tensor **out, tfc_status *st) {
  xit *x = (xit *)it;
  int n = x->ds->ds.n;
  int64_t bs = x->ds->a;
  while (!x->in_done && x->end - x->start < bs) {
    tfc_tensor **slot = x->buf + (x->end % bs) * n;
    int rc = x->in[0]->vt->next(x->in[0], slot, st);
    if (rc < 0) return -1;
    if (rc == 0) {
      x->in_done = true;
      break;
    }
    x->end++;
  }
  if (x->end == x->start) return 0;
  int64_t off = (int64_t)(tfc_philox_single_next(&x->single) % (uint64_t)(x->end - x->start));
  int64_t idx = (x->start + off) % bs, first = x->start % bs;
  memcpy(out, x->buf + idx * n, sizeof(tfc_tensor *) * (size_t)n);
  memcpy(x->buf + idx * n, x->buf + first * n, sizeof(tfc_tensor *) * (size_t)n);
  memset(x->buf + first * n, 0, sizeof(tfc_tensor *) * (size_t)n);
  x->start++;
  return 1;
}

static const tfc_iter_vt shuffle_it_vt = {shuffle_next, xit_free, xit_save, xit_restore, "Shuffle", NULL};

static tfc_iter *shuffle_make(tfc_dataset *ds, tfc_status *st) {
  xds *d = (xds *)ds;
  xit *x = xit_new(&shuffle_it_vt, ds, 1, st);
  if (!x) return NULL;
  x->buf = tfc_calloc((size_t)(d->a * ds->n + 1), sizeof(tfc_tensor *));
  if (!x->buf) {
    xit_free(&x->it);
    return oom(st);
  }
  /* reshuffling: each iterator's seeds are the next two words of the
   * dataset's seed generator (TF's RandomSeedGenerator); otherwise every
   * iterator uses the op's seeds themselves (TF's fixed-seed dataset) */
  uint64_t s1 = 0, s2 = 0;
  pthread_mutex_lock(&d->mu);
  if (d->flag) {
    s1 = tfc_philox_single_next(&d->seed_single);
    s2 = tfc_philox_single_next(&d->seed_single);
  }
  pthread_mutex_unlock(&d->mu);
  if (d->flag) tfc_philox_seed(&x->gen, s1, s2);
  else x->gen = d->seed_gen; /* every iterator replays the op's own seeds */
  tfc_philox_single_init(&x->single, &x->gen);
  return &x->it;
}

static const tfc_dataset_vt shuffle_vt = {"ShuffleDataset", shuffle_make, xds_destroy};

tfc_dataset *tfc_ds_shuffle(tfc_dataset *in, int64_t buffer, int64_t seed, int64_t seed2, bool reshuffle,
                            tfc_status *st) {
  if (buffer <= 0) {
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "buffer_size must be greater than zero.");
    return NULL;
  }
  xds *x = xds_new(&shuffle_vt, &in, 1, in->n, in->types, in->shapes, st);
  if (!x) return NULL;
  x->a = buffer;
  x->flag = reshuffle;
  x->ds.cardinality = in->cardinality;
  if (seed == 0 && seed2 == 0) {
    tfc_guarded_philox g;
    tfc_guarded_philox_init(&g, 0, 0);
    x->seed_gen = g.gen;
    tfc_guarded_philox_destroy(&g);
  } else {
    tfc_philox_seed(&x->seed_gen, (uint64_t)seed, (uint64_t)seed2);
  }
  tfc_philox_single_init(&x->seed_single, &x->seed_gen);
  return &x->ds;
}

/* ---- Repeat / Take / Skip ---- */

static int repeat_next(tfc_iter *it, tfc_tensor **out, tfc_status *st) {
  xit *x = (xit *)it;
  for (;;) {
    if (!x->in[0]) return 0;
    int rc = x->in[0]->vt->next(x->in[0], out, st);
    if (rc != 0) {
      if (rc == 1) x->epoch_count++;
      return rc;
    }
    x->count++;
    tfc_iter_free(x->in[0]);
    x->in[0] = NULL;
    bool empty_epoch = x->epoch_count == 0;
    x->epoch_count = 0;
    if ((x->ds->a >= 0 && x->count >= x->ds->a) || empty_epoch) return 0;
    x->in[0] = tfc_dataset_iter(x->ds->in[0], st);
    if (!x->in[0]) return -1;
  }
}

static int take_next(tfc_iter *it, tfc_tensor **out, tfc_status *st) {
  xit *x = (xit *)it;
  if (x->ds->a >= 0 && x->count >= x->ds->a) return 0;
  int rc = x->in[0]->vt->next(x->in[0], out, st);
  if (rc == 1) x->count++;
  return rc;
}

static int skip_next(tfc_iter *it, tfc_tensor **out, tfc_status *st) {
  xit *x = (xit *)it;
  while (x->ds->a < 0 || x->count < x->ds->a) {
    int rc = x->in[0]->vt->next(x->in[0], out, st);
    if (rc != 1) return rc;
    tfc_element_clear(out, x->ds->ds.n);
    x->count++;
  }
  return x->in[0]->vt->next(x->in[0], out, st);
}

static const tfc_iter_vt repeat_it_vt = {repeat_next, xit_free, xit_save, xit_restore, "Repeat", NULL};
static const tfc_iter_vt take_it_vt = {take_next, xit_free, xit_save, xit_restore, "Take", NULL};
static const tfc_iter_vt skip_it_vt = {skip_next, xit_free, xit_save, xit_restore, "Skip", NULL};

static tfc_iter *repeat_make(tfc_dataset *ds, tfc_status *st) {
  xit *x = xit_new(&repeat_it_vt, ds, ((xds *)ds)->a == 0 ? 0 : 1, st);
  return x ? &x->it : NULL;
}
static tfc_iter *take_make(tfc_dataset *ds, tfc_status *st) {
  xit *x = xit_new(&take_it_vt, ds, 1, st);
  return x ? &x->it : NULL;
}
static tfc_iter *skip_make(tfc_dataset *ds, tfc_status *st) {
  xit *x = xit_new(&skip_it_vt, ds, 1, st);
  return x ? &x->it : NULL;
}

static const tfc_dataset_vt repeat_vt = {"RepeatDataset", repeat_make, xds_destroy};
static const tfc_dataset_vt take_vt = {"TakeDataset", take_make, xds_destroy};
static const tfc_dataset_vt skip_vt = {"SkipDataset", skip_make, xds_destroy};

tfc_dataset *tfc_ds_count(tfc_ds_count_kind kind, tfc_dataset *in, int64_t count, tfc_status *st) {
  const tfc_dataset_vt *vt = kind == TFC_DS_REPEAT ? &repeat_vt : kind == TFC_DS_TAKE ? &take_vt : &skip_vt;
  xds *x = xds_new(vt, &in, 1, in->n, in->types, in->shapes, st);
  if (!x) return NULL;
  x->a = count;
  x->ds.cardinality = tfc_ds_card_count(kind, in->cardinality, count);
  return &x->ds;
}

/* ---- Cache (memory) ---- */

static int cache_next(tfc_iter *it, tfc_tensor **out, tfc_status *st) {
  xit *x = (xit *)it;
  xds *d = x->ds;
  int n = d->ds.n;
  if (x->from_cache) {
    if (x->count >= d->cache_n) return 0;
    for (int c = 0; c < n; c++) out[c] = tfc_tensor_ref(d->cache[x->count * n + c]);
    x->count++;
    return 1;
  }
  int rc = x->in[0]->vt->next(x->in[0], out, st);
  if (rc == 1) {
    if (x->fill_n == x->fill_cap) {
      int64_t ncap = x->fill_cap ? x->fill_cap * 2 : 64;
      tfc_tensor **nf = tfc_realloc(x->fill, sizeof(tfc_tensor *) * (size_t)(ncap * n));
      if (!nf) {
        tfc_element_clear(out, n);
        return oom(st), -1;
      }
      x->fill = nf;
      x->fill_cap = ncap;
    }
    for (int c = 0; c < n; c++) x->fill[x->fill_n * n + c] = tfc_tensor_ref(out[c]);
    x->fill_n++;
  } else if (rc == 0) {
    pthread_mutex_lock(&d->mu);
    if (!d->cache_done) {
      d->cache = x->fill;
      d->cache_n = x->fill_n;
      d->cache_done = true;
      x->fill = NULL;
      x->fill_n = 0;
    }
    pthread_mutex_unlock(&d->mu);
  }
  return rc;
}

static const tfc_iter_vt cache_it_vt = {cache_next, xit_free, xit_save, xit_restore, "Cache", NULL};

static tfc_iter *cache_make(tfc_dataset *ds, tfc_status *st) {
  xds *d = (xds *)ds;
  pthread_mutex_lock(&d->mu);
  bool done = d->cache_done;
  pthread_mutex_unlock(&d->mu);
  xit *x = xit_new(&cache_it_vt, ds, done ? 0 : 1, st);
  if (x) x->from_cache = done;
  return x ? &x->it : NULL;
}

static const tfc_dataset_vt cache_vt = {"CacheDataset", cache_make, xds_destroy};

tfc_dataset *tfc_ds_cache(tfc_dataset *in, tfc_status *st) {
  xds *x = xds_new(&cache_vt, &in, 1, in->n, in->types, in->shapes, st);
  if (x) x->ds.cardinality = in->cardinality;
  return x ? &x->ds : NULL;
}

/* ---- Prefetch ---- */

typedef struct pf_it {
  tfc_iter it;
  tfc_dataset *ds;
  tfc_iter *in;
  int n;
  int64_t cap;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  pthread_t thread;
  bool started, stop, ended;
  bool pause, busy;       /* a save waits for the producer to leave the input */
  tfc_status err;
  tfc_tensor **ring;
  int64_t head, count;
} pf_it;

/* Producer thread: fills the ring until the input ends or stop. */
static void *pf_thread(void *arg) {
  pf_it *p = arg;
  tfc_tensor *el[MAXC];
  for (;;) {
    pthread_mutex_lock(&p->mu);
    while (!p->stop && (p->count >= p->cap || p->pause)) pthread_cond_wait(&p->cv, &p->mu);
    bool stop = p->stop;
    p->busy = !stop;
    pthread_mutex_unlock(&p->mu);
    if (stop) break;
    tfc_status st;
    tfc_status_clear(&st);
    int rc = p->in->vt->next(p->in, el, &st);
    pthread_mutex_lock(&p->mu);
    p->busy = false;
    if (rc == 1) {
      memcpy(p->ring + ((p->head + p->count) % p->cap) * p->n, el, sizeof(tfc_tensor *) * (size_t)p->n);
      p->count++;
    } else {
      p->ended = true;
      if (rc < 0) tfc_status_copy(&p->err, &st);
    }
    pthread_cond_broadcast(&p->cv);
    bool done = p->ended;
    pthread_mutex_unlock(&p->mu);
    if (done) break;
  }
  return NULL;
}

static int pf_next(tfc_iter *it, tfc_tensor **out, tfc_status *st) {
  pf_it *p = (pf_it *)it;
  pthread_mutex_lock(&p->mu);
  if (!p->started && !p->ended) {
    p->started = pthread_create(&p->thread, NULL, pf_thread, p) == 0;
    if (!p->started) {
      pthread_mutex_unlock(&p->mu);
      return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "cannot start the prefetch thread"), -1;
    }
  }
  while (p->count == 0 && !p->ended) pthread_cond_wait(&p->cv, &p->mu);
  int rc;
  if (p->count > 0) {
    memcpy(out, p->ring + p->head * p->n, sizeof(tfc_tensor *) * (size_t)p->n);
    p->head = (p->head + 1) % p->cap;
    p->count--;
    rc = 1;
    pthread_cond_broadcast(&p->cv);
  } else if (p->err.code != TFC_CODE_OK) {
    tfc_status_copy(st, &p->err);
    rc = -1;
  } else {
    rc = 0;
  }
  pthread_mutex_unlock(&p->mu);
  return rc;
}

static void pf_free(tfc_iter *it) {
  pf_it *p = (pf_it *)it;
  pthread_mutex_lock(&p->mu);
  p->stop = true;
  pthread_cond_broadcast(&p->cv);
  pthread_mutex_unlock(&p->mu);
  if (p->started) pthread_join(p->thread, NULL);
  for (int64_t i = 0; i < p->count; i++) tfc_element_clear(p->ring + ((p->head + i) % p->cap) * p->n, p->n);
  tfc_free(p->ring);
  tfc_iter_free(p->in);
  pthread_cond_destroy(&p->cv);
  pthread_mutex_destroy(&p->mu);
  tfc_object_unref(&p->ds->base);
  tfc_free(p);
}

/* State: the buffered elements, whether the input ended (and its error),
 * then the input iterator; the producer is paused meanwhile. */
static bool pf_save(tfc_iter *it, tfc_ds_writer *w, tfc_status *st) {
  pf_it *p = (pf_it *)it;
  pthread_mutex_lock(&p->mu);
  p->pause = true;
  while (p->busy) pthread_cond_wait(&p->cv, &p->mu);
  bool ok = tfc_ds_put_i64(w, p->count, st);
  for (int64_t i = 0; ok && i < p->count; i++)
    ok = tfc_ds_put_element(w, p->ring + ((p->head + i) % p->cap) * p->n, p->n, st);
  ok = ok && tfc_ds_put_i64(w, p->ended, st) && tfc_ds_put_i64(w, p->err.code, st) &&
       tfc_ds_put_bytes(w, p->err.msg, strlen(p->err.msg), st) && tfc_iter_save(p->in, w, st);
  p->pause = false;
  pthread_cond_broadcast(&p->cv);
  pthread_mutex_unlock(&p->mu);
  return ok;
}

/* Restores a fresh prefetch iterator (its producer has not started). */
static bool pf_restore(tfc_iter *it, tfc_ds_reader *r, tfc_status *st) {
  pf_it *p = (pf_it *)it;
  int64_t count, ended, code;
  const void *msg;
  size_t mlen;
  if (!tfc_ds_get_i64(r, &count, st)) return false;
  if (count < 0 || count > p->cap) return tfc_status_set(st, TFC_CODE_NOT_FOUND, "Iterator::Prefetch::buffer_size");
  for (int64_t i = 0; i < count; i++)
    if (!tfc_ds_get_element(r, p->ring + i * p->n, p->n, st)) {
      for (int64_t k = 0; k < i; k++) tfc_element_clear(p->ring + k * p->n, p->n);
      return false;
    }
  p->head = 0;
  p->count = count;
  if (!tfc_ds_get_i64(r, &ended, st) || !tfc_ds_get_i64(r, &code, st) || !tfc_ds_get_bytes(r, &msg, &mlen, st))
    return false;
  p->ended = ended != 0;
  if (code != TFC_CODE_OK) tfc_status_set(&p->err, (tfc_code)code, "%.*s", (int)mlen, (const char *)msg);
  return tfc_iter_restore(p->in, r, st); /* an ended input starts no producer (pf_next) */
}

static const tfc_iter_vt pf_it_vt = {pf_next, pf_free, pf_save, pf_restore, "Prefetch", NULL};

static tfc_iter *pf_make(tfc_dataset *ds, tfc_status *st) {
  xds *d = (xds *)ds;
  pf_it *p = tfc_calloc(1, sizeof *p);
  if (!p) return oom(st);
  p->it.vt = &pf_it_vt;
  p->ds = (tfc_dataset *)tfc_object_ref(&ds->base);
  p->n = ds->n;
  p->cap = d->a > 0 ? d->a : 8;
  pthread_mutex_init(&p->mu, NULL);
  pthread_cond_init(&p->cv, NULL);
  tfc_status_clear(&p->err);
  p->ring = tfc_calloc((size_t)(p->cap * p->n + 1), sizeof(tfc_tensor *));
  p->in = p->ring ? tfc_dataset_iter(d->in[0], st) : NULL;
  if (!p->ring || !p->in) {
    if (!p->ring) oom(st);
    pf_free(&p->it);
    return NULL;
  }
  return &p->it;
}

static const tfc_dataset_vt prefetch_vt = {"PrefetchDataset", pf_make, xds_destroy};

tfc_dataset *tfc_ds_prefetch(tfc_dataset *in, int64_t buffer, tfc_status *st) {
  xds *x = xds_new(&prefetch_vt, &in, 1, in->n, in->types, in->shapes, st);
  if (!x) return NULL;
  x->a = buffer;
  x->ds.cardinality = in->cardinality;
  return &x->ds;
}
