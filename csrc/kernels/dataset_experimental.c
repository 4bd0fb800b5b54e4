/*
 * dataset_experimental.c — tf.data.experimental datasets without a
 * function: IgnoreErrors, AssertCardinality, Unique, DirectedInterleave
 * (choose_from_datasets) and Random (TF's seeded stream). Each iterator
 * saves and restores its position (input iterators included).
 */
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "base/hashmap.h"
#include "kernels/dataset_internal.h"
#include "kernels/philox.h"

#define MAXC 64

/* Out-of-memory helper. */
static void *oom(tfc_status *st) {
  tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  return NULL;
}

/* A dataset over inputs: in[0] is the main (or selector) input. */
typedef struct eds {
  tfc_dataset ds;
  int k;
  tfc_dataset **in;
  int64_t count;      /* AssertCardinality */
  bool stop_on_empty; /* DirectedInterleave */
  int64_t seed, seed2;
} eds;

static void eds_destroy(tfc_dataset *ds) {
  eds *e = (eds *)ds;
  for (int i = 0; i < e->k; i++) tfc_object_unref(&e->in[i]->base);
  tfc_free(e->in);
}

/* A dataset of kind vt over k inputs (referenced), with in[0]'s element
 * structure unless types/shapes are given. */
static eds *eds_new(const tfc_dataset_vt *vt, tfc_dataset *const *in, int k, int n, const tfc_dtype *types,
                    const tfc_shape *shapes, tfc_status *st) {
  eds *e = (eds *)tfc_dataset_alloc(sizeof *e, NULL, n, types, shapes, st);
  if (!e) return NULL;
  e->ds.vt = vt;
  e->in = tfc_calloc((size_t)k + 1, sizeof(tfc_dataset *));
  if (!e->in) {
    tfc_object_unref(&e->ds.base);
    return oom(st);
  }
  for (int i = 0; i < k; i++) e->in[i] = (tfc_dataset *)tfc_object_ref(&in[i]->base);
  e->k = k;
  return e;
}

/* The iterator of every kind here: input iterators plus a little state. */
typedef struct eit {
  tfc_iter it;
  eds *d;
  tfc_iter **in;      /* one per input; NULL once an input is exhausted (DirectedInterleave) */
  int64_t count;      /* elements produced (AssertCardinality) / active inputs (DirectedInterleave) */
  tfc_hashmap seen;   /* Unique: the serialized elements produced so far */
  tfc_philox gen;     /* Random */
  tfc_philox_single single;
} eit;

static void eit_free(tfc_iter *it) {
  eit *x = (eit *)it;
  for (int i = 0; x->in && i < x->d->k; i++) tfc_iter_free(x->in[i]);
  tfc_free(x->in);
  tfc_hashmap_destroy(&x->seen);
  tfc_object_unref(&x->d->ds.base);
  tfc_free(x);
}

/* A fresh iterator with an iterator over every input. */
static eit *eit_new(const tfc_iter_vt *vt, tfc_dataset *ds, tfc_status *st) {
  eit *x = tfc_calloc(1, sizeof *x);
  if (!x) return oom(st);
  x->it.vt = vt;
  x->d = (eds *)tfc_object_ref(&ds->base);
  tfc_hashmap_init(&x->seen);
  x->in = tfc_calloc((size_t)x->d->k + 1, sizeof(tfc_iter *));
  if (!x->in) {
    eit_free(&x->it);
    return oom(st);
  }
  for (int i = 0; i < x->d->k; i++)
    if (!(x->in[i] = tfc_dataset_iter(x->d->in[i], st))) {
      eit_free(&x->it);
      return NULL;
    }
  return x;
}

/* Saves the counter and every input iterator (absent ones flagged). */
static bool eit_save(tfc_iter *it, tfc_ds_writer *w, tfc_status *st) {
  eit *x = (eit *)it;
  if (!tfc_ds_put_i64(w, x->count, st)) return false;
  for (int i = 0; i < x->d->k; i++)
    if (!tfc_iter_save_opt(x->in[i], w, st)) return false;
  return true;
}

/* Restores what eit_save wrote. */
static bool eit_restore(tfc_iter *it, tfc_ds_reader *r, tfc_status *st) {
  eit *x = (eit *)it;
  if (!tfc_ds_get_i64(r, &x->count, st)) return false;
  for (int i = 0; i < x->d->k; i++)
    if (!tfc_iter_restore_opt(&x->in[i], x->d->in[i], r, st)) return false;
  return true;
}

/* ---- IgnoreErrors ---- */

/* The input's next element, skipping the ones whose production failed
 * (every error but CANCELLED, as TF). */
static int ignore_next(tfc_iter *it, tfc_tensor **out, tfc_status *st) {
  eit *x = (eit *)it;
  for (;;) {
    int rc = x->in[0]->vt->next(x->in[0], out, st);
    if (rc != -1 || st->code == TFC_CODE_CANCELLED) return rc;
    tfc_status_clear(st);
  }
}

static const tfc_iter_vt ignore_vt = {ignore_next, eit_free, eit_save, eit_restore, "IgnoreErrors", NULL};

static tfc_iter *ignore_make(tfc_dataset *ds, tfc_status *st) {
  eit *x = eit_new(&ignore_vt, ds, st);
  return x ? &x->it : NULL;
}

static const tfc_dataset_vt ignore_ds_vt = {"IgnoreErrorsDataset", ignore_make, eds_destroy};

tfc_dataset *tfc_ds_ignore_errors(tfc_dataset *in, tfc_status *st) {
  eds *e = eds_new(&ignore_ds_vt, &in, 1, in->n, in->types, in->shapes, st);
  if (!e) return NULL;
  e->ds.cardinality = TFC_DS_UNKNOWN; /* TF: even over an infinite input */
  return &e->ds;
}

/* ---- AssertCardinality ---- */

/* TF's wording of an element count. */
static void element_string(char *buf, size_t n, int64_t count) {
  if (count == TFC_DS_INFINITE) snprintf(buf, n, "an infinite number of elements");
  else snprintf(buf, n, "%lld element%s", (long long)count, count == 1 ? "" : "s");
}

static int assert_next(tfc_iter *it, tfc_tensor **out, tfc_status *st) {
  eit *x = (eit *)it;
  int rc = x->in[0]->vt->next(x->in[0], out, st);
  if (rc < 0) return rc;
  if (rc == 1) x->count++;
  char want[64], got[64];
  element_string(want, sizeof want, x->d->count);
  element_string(got, sizeof got, x->count);
  if (rc == 0 && x->count != x->d->count) {
    tfc_status_set(st, TFC_CODE_FAILED_PRECONDITION,
                   "Input dataset was expected to contain %s but contained only %s.", want, got);
    return -1;
  }
  if (rc == 1 && x->d->count != TFC_DS_INFINITE && x->count > x->d->count) {
    tfc_element_clear(out, x->d->ds.n);
    tfc_status_set(st, TFC_CODE_FAILED_PRECONDITION,
                   "Input dataset was expected to contain %s but contained at least %s.", want, got);
    return -1;
  }
  return rc;
}

static const tfc_iter_vt assert_vt = {assert_next, eit_free, eit_save, eit_restore, "AssertCardinality", NULL};

static tfc_iter *assert_make(tfc_dataset *ds, tfc_status *st) {
  eit *x = eit_new(&assert_vt, ds, st);
  return x ? &x->it : NULL;
}

static const tfc_dataset_vt assert_ds_vt = {"AssertCardinalityDataset", assert_make, eds_destroy};

tfc_dataset *tfc_ds_assert_cardinality(tfc_dataset *in, int64_t count, tfc_status *st) {
  eds *e = eds_new(&assert_ds_vt, &in, 1, in->n, in->types, in->shapes, st);
  if (!e) return NULL;
  e->count = count;
  e->ds.cardinality = count;
  return &e->ds;
}

/* ---- Unique ---- */

/* The element's canonical bytes (dtype, shape and values) in w. */
static bool element_key(tfc_ds_writer *w, tfc_tensor *const *el, int n, tfc_status *st) {
  w->len = 0;
  return tfc_ds_put_element(w, el, n, st);
}

static int unique_next(tfc_iter *it, tfc_tensor **out, tfc_status *st) {
  eit *x = (eit *)it;
  int n = x->d->ds.n;
  tfc_ds_writer w = {0};
  for (;;) {
    int rc = x->in[0]->vt->next(x->in[0], out, st);
    if (rc != 1) {
      tfc_free(w.buf);
      return rc;
    }
    bool found = false;
    if (!element_key(&w, out, n, st)) break;
    tfc_hashmap_get(&x->seen, w.buf, w.len, &found);
    if (found) {
      tfc_element_clear(out, n);
      continue;
    }
    if (tfc_hashmap_put(&x->seen, w.buf, w.len, x) != 0) {
      oom(st);
      break;
    }
    tfc_free(w.buf);
    return 1;
  }
  tfc_element_clear(out, n);
  tfc_free(w.buf);
  return -1;
}

/* Saves the input iterator, then the keys of the elements seen. */
static bool unique_save(tfc_iter *it, tfc_ds_writer *w, tfc_status *st) {
  eit *x = (eit *)it;
  if (!eit_save(it, w, st) || !tfc_ds_put_i64(w, (int64_t)x->seen.count, st)) return false;
  for (size_t i = 0; i < x->seen.cap; i++) {
    const char *key;
    size_t len;
    void *v;
    if (tfc_hashmap_slot(&x->seen, i, &key, &len, &v) && !tfc_ds_put_bytes(w, key, len, st)) return false;
  }
  return true;
}

static bool unique_restore(tfc_iter *it, tfc_ds_reader *r, tfc_status *st) {
  eit *x = (eit *)it;
  int64_t count;
  if (!eit_restore(it, r, st) || !tfc_ds_get_i64(r, &count, st)) return false;
  if (count < 0 || count > r->end - r->p) return tfc_status_set(st, TFC_CODE_DATA_LOSS, "bad unique state");
  for (int64_t i = 0; i < count; i++) {
    const void *p;
    size_t len;
    if (!tfc_ds_get_bytes(r, &p, &len, st)) return false;
    if (tfc_hashmap_put(&x->seen, p, len, x) != 0) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  }
  return true;
}

static const tfc_iter_vt unique_vt = {unique_next, eit_free, unique_save, unique_restore, "Unique", NULL};

static tfc_iter *unique_make(tfc_dataset *ds, tfc_status *st) {
  eit *x = eit_new(&unique_vt, ds, st);
  return x ? &x->it : NULL;
}

static const tfc_dataset_vt unique_ds_vt = {"UniqueDataset", unique_make, eds_destroy};

tfc_dataset *tfc_ds_unique(tfc_dataset *in, tfc_status *st) {
  if (in->n != 1 || (in->types[0] != TFC_DTYPE_INT32 && in->types[0] != TFC_DTYPE_INT64 &&
                     in->types[0] != TFC_DTYPE_STRING)) {
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                   "UniqueDataset only supports inputs with a single int32, int64 or string component.");
    return NULL;
  }
  eds *e = eds_new(&unique_ds_vt, &in, 1, in->n, in->types, in->shapes, st);
  if (!e) return NULL;
  e->ds.cardinality = TFC_DS_UNKNOWN;
  return &e->ds;
}

/* ---- DirectedInterleave ---- */

/* Frees every input iterator (the end of the sequence). */
static void directed_reset(eit *x) {
  for (int i = 0; i < x->d->k; i++) {
    tfc_iter_free(x->in[i]);
    x->in[i] = NULL;
  }
}

static int directed_next(tfc_iter *it, tfc_tensor **out, tfc_status *st) {
  eit *x = (eit *)it;
  int k = x->d->k - 1; /* data inputs are in[1..k] */
  for (;;) {
    if (!x->in[0]) return 0;
    tfc_tensor *sel = NULL;
    int rc = x->in[0]->vt->next(x->in[0], &sel, st);
    if (rc < 0) return rc;
    if (rc == 0) {
      directed_reset(x);
      return 0;
    }
    int64_t i = tfc_tensor_get_int64(sel, 0);
    bool scalar = sel->nelems == 1;
    tfc_tensor_unref(sel);
    if (!scalar) return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "The selector must produce int64 scalars"), -1;
    if (i < 0 || i >= k) {
      tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Selector index out of range: %lld >= %d", (long long)i, k);
      return -1;
    }
    tfc_iter *in = x->in[1 + i];
    if (!in) continue; /* an exhausted input: ask the selector again */
    rc = in->vt->next(in, out, st);
    if (rc != 0) return rc;
    if (x->d->stop_on_empty) {
      directed_reset(x);
      return 0;
    }
    tfc_iter_free(in);
    x->in[1 + i] = NULL;
    if (--x->count == 0) {
      directed_reset(x);
      return 0;
    }
  }
}

static const tfc_iter_vt directed_vt = {directed_next, eit_free, eit_save, eit_restore, "DirectedInterleave", NULL};

static tfc_iter *directed_make(tfc_dataset *ds, tfc_status *st) {
  eit *x = eit_new(&directed_vt, ds, st);
  if (x) x->count = x->d->k - 1;
  return x ? &x->it : NULL;
}

static const tfc_dataset_vt directed_ds_vt = {"DirectedInterleaveDataset", directed_make, eds_destroy};

tfc_dataset *tfc_ds_directed_interleave(tfc_dataset *selector, tfc_dataset *const *inputs, int k,
                                        bool stop_on_empty, const tfc_shape *shapes, tfc_status *st) {
  if (selector->n != 1 || selector->types[0] != TFC_DTYPE_INT64) {
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "The selector dataset must produce int64 scalars");
    return NULL;
  }
  if (k < 1 || k >= MAXC) {
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "DirectedInterleave needs 1 to %d data inputs", MAXC - 1);
    return NULL;
  }
  tfc_dataset *all[MAXC];
  all[0] = selector;
  for (int i = 0; i < k; i++) {
    all[1 + i] = inputs[i];
    bool same = inputs[i]->n == inputs[0]->n;
    for (int c = 0; same && c < inputs[0]->n; c++) same = inputs[i]->types[c] == inputs[0]->types[c];
    if (!same) {
      tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "All data inputs must have the same component types");
      return NULL;
    }
  }
  eds *e = eds_new(&directed_ds_vt, all, k + 1, inputs[0]->n, inputs[0]->types, shapes ? shapes : inputs[0]->shapes, st);
  if (!e) return NULL;
  e->stop_on_empty = stop_on_empty;
  /* TF: an infinite data input makes the result infinite, else unknown */
  e->ds.cardinality = TFC_DS_UNKNOWN;
  for (int i = 0; i < k; i++)
    if (inputs[i]->cardinality == TFC_DS_INFINITE) e->ds.cardinality = TFC_DS_INFINITE;
  return &e->ds;
}

/* ---- Random ---- */

static int random_next(tfc_iter *it, tfc_tensor **out, tfc_status *st) {
  eit *x = (eit *)it;
  tfc_tensor *t = tfc_tensor_new(TFC_DTYPE_INT64, 0, NULL, st);
  if (!t) return -1;
  *(int64_t *)t->data = (int64_t)tfc_philox_single_next(&x->single);
  out[0] = t;
  return 1;
}

static bool random_save(tfc_iter *it, tfc_ds_writer *w, tfc_status *st) {
  eit *x = (eit *)it;
  return tfc_ds_put_philox(w, &x->gen, &x->single, st);
}

static bool random_restore(tfc_iter *it, tfc_ds_reader *r, tfc_status *st) {
  eit *x = (eit *)it;
  return tfc_ds_get_philox(r, &x->gen, &x->single, st);
}

static const tfc_iter_vt random_vt = {random_next, eit_free, random_save, random_restore, "Random", NULL};

/* Every iterator replays the stream of the dataset's seeds (TF's
 * RandomDataset: Philox seeded (seed, seed2), one 32-bit word per element;
 * both 0 picks random seeds once per dataset). */
static tfc_iter *random_make(tfc_dataset *ds, tfc_status *st) {
  eit *x = eit_new(&random_vt, ds, st);
  if (!x) return NULL;
  tfc_philox_seed(&x->gen, (uint64_t)x->d->seed, (uint64_t)x->d->seed2);
  tfc_philox_single_init(&x->single, &x->gen);
  return &x->it;
}

static const tfc_dataset_vt random_ds_vt = {"RandomDataset", random_make, eds_destroy};

tfc_dataset *tfc_ds_random(int64_t seed, int64_t seed2, tfc_status *st) {
  tfc_dtype t = TFC_DTYPE_INT64;
  tfc_shape s = tfc_shape_scalar();
  eds *e = eds_new(&random_ds_vt, NULL, 0, 1, &t, &s, st);
  if (!e) return NULL;
  if (seed == 0 && seed2 == 0) {
    tfc_guarded_philox g;
    if (!tfc_guarded_philox_init(&g, 0, 0)) {
      tfc_object_unref(&e->ds.base);
      return oom(st);
    }
    seed = (int64_t)g.gen.key[0] | ((int64_t)g.gen.key[1] << 32);
    seed2 = (int64_t)g.gen.counter[2] | ((int64_t)g.gen.counter[3] << 32);
    tfc_guarded_philox_destroy(&g);
  }
  e->seed = seed;
  e->seed2 = seed2;
  e->ds.cardinality = TFC_DS_INFINITE;
  return &e->ds;
}
