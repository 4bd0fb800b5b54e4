/*
 * dataset_scan.c — datasets that run a graph function with state or a
 * stopping rule: Scan (f(state..., element..., captured...) returns the new
 * state then the output element) and TakeWhile (the input's elements up to
 * the first one the predicate rejects). Both save and restore their
 * position: the input iterator, plus Scan's current state.
 */
#include <string.h>

#include "base/alloc.h"
#include "core/function.h"
#include "kernels/dataset_internal.h"

#define MAXC 64

typedef struct scan_ds {
  tfc_dataset ds;
  tfc_dataset *in;
  tfc_flib *flib;
  const tfc_fhandle *f;
  int n_state, n_captured;
  tfc_tensor **init;     /* n_state initial state tensors */
  tfc_tensor **captured; /* n_captured */
  bool take_while;
} scan_ds;

static void scan_destroy(tfc_dataset *ds) {
  scan_ds *d = (scan_ds *)ds;
  tfc_object_unref(&d->in->base);
  for (int i = 0; i < d->n_state; i++) tfc_tensor_unref(d->init[i]);
  for (int i = 0; i < d->n_captured; i++) tfc_tensor_unref(d->captured[i]);
  tfc_free(d->init);
  tfc_free(d->captured);
}

typedef struct scan_it {
  tfc_iter it;
  scan_ds *d;
  tfc_iter *in;
  tfc_tensor *state[MAXC];
  bool done; /* TakeWhile: the predicate said no */
} scan_it;

static void scan_it_free(tfc_iter *it) {
  scan_it *s = (scan_it *)it;
  tfc_iter_free(s->in);
  tfc_element_clear(s->state, s->d->n_state);
  tfc_object_unref(&s->d->ds.base);
  tfc_free(s);
}

/* Calls the function on a (state..., element..., captured...) argument list. */
static bool call(scan_ds *d, tfc_tensor *const *state, tfc_tensor *const *el, tfc_tensor **out, tfc_status *st) {
  tfc_tensor *args[3 * MAXC];
  int n_in = d->in->n, k = 0;
  for (int i = 0; i < d->n_state; i++) args[k++] = state[i];
  for (int i = 0; i < n_in; i++) args[k++] = el[i];
  for (int i = 0; i < d->n_captured; i++) args[k++] = d->captured[i];
  return tfc_func_run(d->flib, d->f, NULL, args, out, st);
}

static int scan_next(tfc_iter *it, tfc_tensor **out, tfc_status *st) {
  scan_it *s = (scan_it *)it;
  scan_ds *d = s->d;
  tfc_tensor *el[MAXC], *res[2 * MAXC];
  int rc = s->in->vt->next(s->in, el, st);
  if (rc != 1) return rc;
  bool ok = call(d, s->state, el, res, st);
  tfc_element_clear(el, d->in->n);
  if (!ok) return -1;
  for (int i = 0; i < d->n_state; i++)
    if (res[i]->dtype != d->init[i]->dtype) {
      tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "State element %d has dtype %s but the function returned %s", i,
                     tfc_dtype_name(d->init[i]->dtype), tfc_dtype_name(res[i]->dtype));
      tfc_element_clear(res, d->n_state + d->ds.n);
      return -1;
    }
  tfc_element_clear(s->state, d->n_state);
  memcpy(s->state, res, sizeof(tfc_tensor *) * (size_t)d->n_state);
  memcpy(out, res + d->n_state, sizeof(tfc_tensor *) * (size_t)d->ds.n);
  return 1;
}

static int take_while_next(tfc_iter *it, tfc_tensor **out, tfc_status *st) {
  scan_it *s = (scan_it *)it;
  scan_ds *d = s->d;
  if (s->done) return 0;
  int rc = s->in->vt->next(s->in, out, st);
  if (rc != 1) return rc;
  tfc_tensor *keep = NULL;
  if (!call(d, NULL, out, &keep, st)) {
    tfc_element_clear(out, d->ds.n);
    return -1;
  }
  bool bad = keep->dtype != TFC_DTYPE_BOOL || keep->nelems != 1;
  bool yes = !bad && *(const bool *)keep->data;
  tfc_tensor_unref(keep);
  if (bad) {
    tfc_element_clear(out, d->ds.n);
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "`predicate` must returns a scalar bool tensor.");
    return -1;
  }
  if (yes) return 1;
  tfc_element_clear(out, d->ds.n);
  s->done = true;
  return 0;
}

/* State: the input iterator, the done flag, then Scan's state tensors. */
static bool scan_save(tfc_iter *it, tfc_ds_writer *w, tfc_status *st) {
  scan_it *s = (scan_it *)it;
  return tfc_ds_put_i64(w, s->done, st) && tfc_iter_save(s->in, w, st) &&
         tfc_ds_put_element(w, s->state, s->d->n_state, st);
}

static bool scan_restore(tfc_iter *it, tfc_ds_reader *r, tfc_status *st) {
  scan_it *s = (scan_it *)it;
  int64_t done;
  tfc_tensor *state[MAXC];
  if (!tfc_ds_get_i64(r, &done, st) || !tfc_iter_restore(s->in, r, st) ||
      !tfc_ds_get_element(r, state, s->d->n_state, st))
    return false;
  s->done = done != 0;
  tfc_element_clear(s->state, s->d->n_state);
  memcpy(s->state, state, sizeof(tfc_tensor *) * (size_t)s->d->n_state);
  return true;
}

static const tfc_iter_vt scan_vt = {scan_next, scan_it_free, scan_save, scan_restore, "Scan", NULL};
static const tfc_iter_vt take_while_vt = {take_while_next, scan_it_free, scan_save, scan_restore, "TakeWhile", NULL};

static tfc_iter *scan_make(tfc_dataset *ds, tfc_status *st) {
  scan_ds *d = (scan_ds *)ds;
  scan_it *s = tfc_calloc(1, sizeof *s);
  if (!s) {
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  s->it.vt = d->take_while ? &take_while_vt : &scan_vt;
  s->d = (scan_ds *)tfc_object_ref(&ds->base);
  for (int i = 0; i < d->n_state; i++) s->state[i] = tfc_tensor_ref(d->init[i]);
  if (!(s->in = tfc_dataset_iter(d->in, st))) {
    scan_it_free(&s->it);
    return NULL;
  }
  return &s->it;
}

static const tfc_dataset_vt scan_vts[] = {{"ScanDataset", scan_make, scan_destroy},
                                          {"TakeWhileDataset", scan_make, scan_destroy}};

/* The common constructor: checks f's signature against the state, element
 * and captured tensors and its result count. */
static tfc_dataset *make(bool take_while, tfc_dataset *in, tfc_flib *flib, const tfc_fhandle *f,
                         tfc_tensor *const *state, int n_state, tfc_tensor *const *captured, int n_captured, int n,
                         const tfc_dtype *types, const tfc_shape *shapes, tfc_status *st) {
  if (n_state > MAXC || n > MAXC || in->n + n_state + n_captured > 3 * MAXC) {
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "too many function arguments");
    return NULL;
  }
  if (f->n_inputs != n_state + in->n + n_captured) {
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                   "The function %s takes %d arguments, the state has %d, the element %d and %d are captured",
                   f->name, f->n_inputs, n_state, in->n, n_captured);
    return NULL;
  }
  int want = take_while ? 1 : n_state + n;
  if (f->n_outputs != want) {
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "The function %s returns %d values, expected %d", f->name,
                   f->n_outputs, want);
    return NULL;
  }
  scan_ds *d = (scan_ds *)tfc_dataset_alloc(sizeof *d, NULL, n, types, shapes, st);
  if (!d) return NULL;
  d->in = (tfc_dataset *)tfc_object_ref(&in->base);
  d->ds.vt = &scan_vts[take_while ? 1 : 0];
  d->take_while = take_while;
  d->flib = flib;
  d->f = f;
  d->init = tfc_calloc((size_t)n_state + 1, sizeof(tfc_tensor *));
  d->captured = tfc_calloc((size_t)n_captured + 1, sizeof(tfc_tensor *));
  if (!d->init || !d->captured) {
    tfc_object_unref(&d->ds.base);
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  for (int i = 0; i < n_state; i++) d->init[i] = tfc_tensor_ref(state[i]);
  d->n_state = n_state;
  for (int i = 0; i < n_captured; i++) d->captured[i] = tfc_tensor_ref(captured[i]);
  d->n_captured = n_captured;
  /* Scan keeps its input's count (TF's preserve_cardinality); TakeWhile's is unknown */
  d->ds.cardinality = take_while ? TFC_DS_UNKNOWN : in->cardinality;
  return &d->ds;
}

tfc_dataset *tfc_ds_scan(tfc_dataset *in, tfc_flib *flib, const tfc_fhandle *f, tfc_tensor *const *state,
                         int n_state, tfc_tensor *const *captured, int n_captured, int n, const tfc_dtype *types,
                         const tfc_shape *shapes, tfc_status *st) {
  return make(false, in, flib, f, state, n_state, captured, n_captured, n, types, shapes, st);
}

tfc_dataset *tfc_ds_take_while(tfc_dataset *in, tfc_flib *flib, const tfc_fhandle *f, tfc_tensor *const *captured,
                               int n_captured, tfc_status *st) {
  return make(true, in, flib, f, NULL, 0, captured, n_captured, in->n, in->types, in->shapes, st);
}
