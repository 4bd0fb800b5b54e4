/*
 * dataset_group.c — datasets that group their input by a key: the list
 * dataset (a fixed sequence of elements: TF's ListDataset, and the window
 * handed to a reduce function), GroupByWindow (elements gathered per key
 * until the key's window size, then the reduce function's dataset over the
 * window; at the end of the input the remaining windows in ascending key
 * order, as TF's ordered map) and GroupByReducer (a state per key folded
 * over its elements, finalized per key in ascending order at the end).
 * Their iterators save and restore their position.
 */
#include <string.h>

#include "base/alloc.h"
#include "core/function.h"
#include "kernels/dataset_internal.h"

#define MAXC 64

/* Out-of-memory helper. */
static void *oom(tfc_status *st) {
  tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  return NULL;
}

/* ---- the list dataset ---- */

typedef struct list_ds {
  tfc_dataset ds;
  tfc_tensor **els; /* count * n */
  int64_t count;
} list_ds;

static void list_destroy(tfc_dataset *ds) {
  list_ds *l = (list_ds *)ds;
  for (int64_t i = 0; i < l->count * ds->n; i++) tfc_tensor_unref(l->els[i]);
  tfc_free(l->els);
}

typedef struct list_it {
  tfc_iter it;
  list_ds *d;
  int64_t pos;
} list_it;

static int list_next(tfc_iter *it, tfc_tensor **out, tfc_status *st) {
  (void)st;
  list_it *l = (list_it *)it;
  int n = l->d->ds.n;
  if (l->pos >= l->d->count) return 0;
  for (int c = 0; c < n; c++) out[c] = tfc_tensor_ref(l->d->els[l->pos * n + c]);
  l->pos++;
  return 1;
}

static void list_it_free(tfc_iter *it) {
  list_it *l = (list_it *)it;
  tfc_object_unref(&l->d->ds.base);
  tfc_free(l);
}

static bool list_save(tfc_iter *it, tfc_ds_writer *w, tfc_status *st) {
  return tfc_ds_put_i64(w, ((list_it *)it)->pos, st);
}

static bool list_restore(tfc_iter *it, tfc_ds_reader *r, tfc_status *st) {
  list_it *l = (list_it *)it;
  if (!tfc_ds_get_i64(r, &l->pos, st)) return false;
  if (l->pos < 0 || l->pos > l->d->count) return tfc_status_set(st, TFC_CODE_DATA_LOSS, "bad list position");
  return true;
}

static const tfc_iter_vt list_it_vt = {list_next, list_it_free, list_save, list_restore, "List", NULL};

static tfc_iter *list_make(tfc_dataset *ds, tfc_status *st) {
  list_it *l = tfc_calloc(1, sizeof *l);
  if (!l) return oom(st);
  l->it.vt = &list_it_vt;
  l->d = (list_ds *)tfc_object_ref(&ds->base);
  return &l->it;
}

static const tfc_dataset_vt list_vt = {"ListDataset", list_make, list_destroy};

tfc_dataset *tfc_ds_list(tfc_tensor *const *els, int64_t count, int n, const tfc_dtype *types,
                         const tfc_shape *shapes, tfc_status *st) {
  list_ds *l = (list_ds *)tfc_dataset_alloc(sizeof *l, NULL, n, types, shapes, st);
  if (!l) return NULL;
  l->els = tfc_calloc((size_t)(count * n) + 1, sizeof(tfc_tensor *));
  if (!l->els) {
    tfc_object_unref(&l->ds.base);
    return oom(st);
  }
  l->ds.vt = &list_vt;
  for (int64_t i = 0; i < count * n; i++) {
    if (els[i]->dtype != types[i % n]) {
      tfc_object_unref(&l->ds.base);
      tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Element %lld component %d has dtype %s, expected %s",
                     (long long)(i / n), (int)(i % n), tfc_dtype_name(els[i]->dtype), tfc_dtype_name(types[i % n]));
      return NULL;
    }
    l->els[i] = tfc_tensor_ref(els[i]);
    l->count = i / n + 1;
  }
  l->count = count;
  l->ds.cardinality = count;
  return &l->ds;
}

/* ---- grouping datasets ---- */

/* A function with its captured tensors. */
typedef struct gfn {
  const tfc_fhandle *f;
  tfc_tensor **captured;
  int n_captured;
} gfn;

typedef struct group_ds {
  tfc_dataset ds;
  bool reducer;  /* GroupByReducer (else GroupByWindow) */
  tfc_dataset *in;
  tfc_flib *flib;
  gfn fn[4];     /* window: key, reduce, window_size; reducer: key, init, reduce, finalize */
  int n_state;   /* reducer: components of the state */
} group_ds;

static void group_destroy(tfc_dataset *ds) {
  group_ds *g = (group_ds *)ds;
  tfc_object_unref(&g->in->base);
  for (int i = 0; i < 4; i++) {
    for (int k = 0; k < g->fn[i].n_captured; k++) tfc_tensor_unref(g->fn[i].captured[k]);
    tfc_free(g->fn[i].captured);
  }
}

/* Runs function i on args (n_args tensors) plus its captured tensors. */
static bool gcall(group_ds *g, int i, tfc_tensor *const *args, int n_args, tfc_tensor **out, tfc_status *st) {
  tfc_tensor *all[3 * MAXC];
  if (n_args + g->fn[i].n_captured > 3 * MAXC) return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "too many arguments");
  memcpy(all, args, sizeof(tfc_tensor *) * (size_t)n_args);
  memcpy(all + n_args, g->fn[i].captured, sizeof(tfc_tensor *) * (size_t)g->fn[i].n_captured);
  return tfc_func_run(g->flib, g->fn[i].f, NULL, all, out, st);
}

/* Runs a function returning one scalar int64 (the key or a window size). */
static bool scalar_call(group_ds *g, int i, tfc_tensor *const *args, int n_args, const char *what, int64_t *v,
                        tfc_status *st) {
  tfc_tensor *out = NULL;
  if (!gcall(g, i, args, n_args, &out, st)) return false;
  bool ok = out->dtype == TFC_DTYPE_INT64 && out->nelems == 1;
  if (ok) *v = *(const int64_t *)out->data;
  tfc_tensor_unref(out);
  if (!ok) return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "`%s` must return a scalar int64.", what);
  return true;
}

/* One key's group: its window size (GroupByWindow) and elements, or its state (GroupByReducer). */
typedef struct group {
  int64_t key, window;
  tfc_tensor **els; /* count * n elements, or n_state state tensors */
  int64_t count, cap;
} group;

typedef struct group_it {
  tfc_iter it;
  group_ds *d;
  tfc_iter *in;
  bool end_of_input;
  group *groups; /* sorted by key */
  int64_t n_groups, cap_groups;
  /* GroupByWindow: the group being flushed and its reduce dataset's iterator */
  group cur;
  tfc_iter *cur_it;
  /* GroupByReducer: the next group to finalize after the input ended */
  int64_t emit;
} group_it;

/* Unrefs a group's tensors (n per element). */
static void group_clear(group *gr, int n) {
  for (int64_t i = 0; gr->els && i < gr->count * n; i++) tfc_tensor_unref(gr->els[i]);
  tfc_free(gr->els);
  memset(gr, 0, sizeof *gr);
}

/* Tensors per group entry: n for window elements, n_state for a reducer state. */
static int width(group_ds *g) { return g->reducer ? g->n_state : g->in->n; }

static void group_it_free(tfc_iter *it) {
  group_it *x = (group_it *)it;
  int w = width(x->d);
  tfc_iter_free(x->in);
  tfc_iter_free(x->cur_it);
  group_clear(&x->cur, x->d->in->n);
  for (int64_t i = 0; i < x->n_groups; i++) group_clear(&x->groups[i], w);
  tfc_free(x->groups);
  tfc_object_unref(&x->d->ds.base);
  tfc_free(x);
}

/* The index of key's group, or where it belongs (*found false). */
static int64_t find_group(group_it *x, int64_t key, bool *found) {
  int64_t lo = 0, hi = x->n_groups;
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (x->groups[mid].key < key) lo = mid + 1;
    else hi = mid;
  }
  *found = lo < x->n_groups && x->groups[lo].key == key;
  return lo;
}

/* Inserts an empty group for key at position pos. */
static group *insert_group(group_it *x, int64_t pos, int64_t key, tfc_status *st) {
  if (x->n_groups == x->cap_groups) {
    int64_t cap = x->cap_groups ? 2 * x->cap_groups : 8;
    group *g = tfc_realloc(x->groups, (size_t)cap * sizeof *g);
    if (!g) return oom(st);
    x->groups = g;
    x->cap_groups = cap;
  }
  memmove(x->groups + pos + 1, x->groups + pos, (size_t)(x->n_groups - pos) * sizeof *x->groups);
  x->n_groups++;
  group *gr = &x->groups[pos];
  memset(gr, 0, sizeof *gr);
  gr->key = key;
  return gr;
}

/* Appends w tensors (references taken) to a group. */
static bool group_push(group *gr, tfc_tensor **el, int w, tfc_status *st) {
  if (gr->count == gr->cap) {
    int64_t cap = gr->cap ? 2 * gr->cap : 4;
    tfc_tensor **e = tfc_realloc(gr->els, (size_t)(cap * w) * sizeof *e);
    if (!e) {
      tfc_element_clear(el, w);
      return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    }
    gr->els = e;
    gr->cap = cap;
  }
  memcpy(gr->els + gr->count * w, el, sizeof(tfc_tensor *) * (size_t)w);
  gr->count++;
  return true;
}

/* Opens the reduce function's dataset over x->cur (GroupByWindow). */
static bool open_window(group_it *x, tfc_status *st) {
  group_ds *g = x->d;
  tfc_dataset *win = tfc_ds_list(x->cur.els, x->cur.count, g->in->n, g->in->types, g->in->shapes, st);
  if (!win) return false;
  tfc_tensor *args[2] = {tfc_tensor_new(TFC_DTYPE_INT64, 0, NULL, st), NULL};
  if (args[0]) {
    *(int64_t *)args[0]->data = x->cur.key;
    args[1] = tfc_tensor_object_scalar(TFC_DTYPE_VARIANT, &win->base, st);
  }
  tfc_object_unref(&win->base);
  tfc_tensor *v = NULL;
  bool ok = args[1] && gcall(g, 1, args, 2, &v, st);
  tfc_tensor_unref(args[0]);
  tfc_tensor_unref(args[1]);
  if (!ok) return false;
  tfc_dataset *out = tfc_dataset_from_tensor(v, st);
  if (out && out->n != g->ds.n)
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "`reduce_func` returned a dataset of %d components, expected %d",
                   out->n, g->ds.n);
  else if (out)
    x->cur_it = tfc_dataset_iter(out, st);
  tfc_tensor_unref(v);
  return x->cur_it != NULL;
}

/* Moves group i into x->cur and opens its window. */
static bool flush_group(group_it *x, int64_t i, tfc_status *st) {
  x->cur = x->groups[i];
  memmove(x->groups + i, x->groups + i + 1, (size_t)(x->n_groups - i - 1) * sizeof *x->groups);
  x->n_groups--;
  return open_window(x, st);
}

static int window_next(tfc_iter *it, tfc_tensor **out, tfc_status *st) {
  group_it *x = (group_it *)it;
  group_ds *g = x->d;
  int n = g->in->n;
  for (;;) {
    if (x->cur_it) {
      int rc = x->cur_it->vt->next(x->cur_it, out, st);
      if (rc != 0) return rc;
      tfc_iter_free(x->cur_it);
      x->cur_it = NULL;
      group_clear(&x->cur, n);
    }
    if (x->end_of_input) {
      if (x->n_groups == 0) return 0;
      if (!flush_group(x, 0, st)) return -1;
      continue;
    }
    tfc_tensor *el[MAXC];
    int rc = x->in->vt->next(x->in, el, st);
    if (rc < 0) return rc;
    if (rc == 0) {
      x->end_of_input = true;
      continue;
    }
    int64_t key = 0;
    if (!scalar_call(g, 0, el, n, "key_func", &key, st)) {
      tfc_element_clear(el, n);
      return -1;
    }
    bool found;
    int64_t pos = find_group(x, key, &found);
    group *gr = found ? &x->groups[pos] : NULL;
    if (!gr) {
      tfc_tensor *k = tfc_tensor_new(TFC_DTYPE_INT64, 0, NULL, st);
      int64_t window = 0;
      bool ok = k != NULL;
      if (ok) {
        *(int64_t *)k->data = key;
        ok = scalar_call(g, 2, &k, 1, "window_size_func", &window, st);
        tfc_tensor_unref(k);
      }
      if (ok && window <= 0)
        ok = tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Window size must be greater than zero, but got %lld.",
                            (long long)window);
      if (ok) ok = (gr = insert_group(x, pos, key, st)) != NULL;
      if (!ok) {
        tfc_element_clear(el, n);
        return -1;
      }
      gr->window = window;
    }
    if (!group_push(gr, el, n, st)) return -1;
    if (gr->count == gr->window && !flush_group(x, pos, st)) return -1;
  }
}

/* ---- GroupByReducer ---- */

static int reducer_next(tfc_iter *it, tfc_tensor **out, tfc_status *st) {
  group_it *x = (group_it *)it;
  group_ds *g = x->d;
  int n = g->in->n, ns = g->n_state;
  while (!x->end_of_input) {
    tfc_tensor *el[MAXC];
    int rc = x->in->vt->next(x->in, el, st);
    if (rc < 0) return rc;
    if (rc == 0) {
      x->end_of_input = true;
      break;
    }
    int64_t key = 0;
    if (!scalar_call(g, 0, el, n, "key_func", &key, st)) {
      tfc_element_clear(el, n);
      return -1;
    }
    bool found;
    int64_t pos = find_group(x, key, &found);
    group *gr = found ? &x->groups[pos] : NULL;
    if (!gr) {
      tfc_tensor *k = tfc_tensor_new(TFC_DTYPE_INT64, 0, NULL, st);
      tfc_tensor *init[MAXC];
      bool ok = k != NULL;
      if (ok) {
        *(int64_t *)k->data = key;
        ok = gcall(g, 1, &k, 1, init, st);
        tfc_tensor_unref(k);
      }
      if (ok && !(gr = insert_group(x, pos, key, st))) {
        tfc_element_clear(init, ns);
        ok = false;
      }
      if (ok) ok = group_push(gr, init, ns, st);
      if (!ok) {
        tfc_element_clear(el, n);
        return -1;
      }
    }
    tfc_tensor *args[2 * MAXC], *next[MAXC];
    memcpy(args, gr->els, sizeof(tfc_tensor *) * (size_t)ns);
    memcpy(args + ns, el, sizeof(tfc_tensor *) * (size_t)n);
    bool ok = gcall(g, 2, args, ns + n, next, st);
    tfc_element_clear(el, n);
    if (!ok) return -1;
    for (int i = 0; i < ns; i++)
      if (next[i]->dtype != gr->els[i]->dtype) {
        tfc_element_clear(next, ns);
        tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "`reduce_func` changed the dtype of state component %d", i);
        return -1;
      }
    tfc_element_clear(gr->els, ns);
    memcpy(gr->els, next, sizeof(tfc_tensor *) * (size_t)ns);
  }
  if (x->emit >= x->n_groups) return 0;
  return gcall(g, 3, x->groups[x->emit++].els, ns, out, st) ? 1 : -1;
}

/* ---- state ---- */

/* Writes a group: key, window, count and its tensors (w per entry). */
static bool put_group(tfc_ds_writer *w, const group *gr, int wd, tfc_status *st) {
  if (!tfc_ds_put_i64(w, gr->key, st) || !tfc_ds_put_i64(w, gr->window, st) || !tfc_ds_put_i64(w, gr->count, st))
    return false;
  for (int64_t i = 0; i < gr->count; i++)
    if (!tfc_ds_put_element(w, gr->els + i * wd, wd, st)) return false;
  return true;
}

/* Reads what put_group wrote into an empty group. */
static bool get_group(tfc_ds_reader *r, group *gr, int wd, tfc_status *st) {
  int64_t count;
  if (!tfc_ds_get_i64(r, &gr->key, st) || !tfc_ds_get_i64(r, &gr->window, st) || !tfc_ds_get_i64(r, &count, st))
    return false;
  if (count < 0 || count > r->end - r->p) return tfc_status_set(st, TFC_CODE_DATA_LOSS, "bad group state");
  for (int64_t i = 0; i < count; i++) {
    tfc_tensor *el[MAXC];
    if (!tfc_ds_get_element(r, el, wd, st) || !group_push(gr, el, wd, st)) return false;
  }
  return true;
}

static bool group_save(tfc_iter *it, tfc_ds_writer *w, tfc_status *st) {
  group_it *x = (group_it *)it;
  int wd = width(x->d);
  if (!tfc_ds_put_i64(w, x->end_of_input, st) || !tfc_ds_put_i64(w, x->emit, st) || !tfc_iter_save(x->in, w, st) ||
      !tfc_ds_put_i64(w, x->n_groups, st))
    return false;
  for (int64_t i = 0; i < x->n_groups; i++)
    if (!put_group(w, &x->groups[i], wd, st)) return false;
  if (!tfc_ds_put_i64(w, x->cur_it != NULL, st)) return false;
  return !x->cur_it || (put_group(w, &x->cur, x->d->in->n, st) && tfc_iter_save(x->cur_it, w, st));
}

static bool group_restore(tfc_iter *it, tfc_ds_reader *r, tfc_status *st) {
  group_it *x = (group_it *)it;
  int wd = width(x->d);
  int64_t end, count, has_cur;
  if (!tfc_ds_get_i64(r, &end, st) || !tfc_ds_get_i64(r, &x->emit, st) || !tfc_iter_restore(x->in, r, st) ||
      !tfc_ds_get_i64(r, &count, st))
    return false;
  x->end_of_input = end != 0;
  if (count < 0 || count > r->end - r->p) return tfc_status_set(st, TFC_CODE_DATA_LOSS, "bad group count");
  for (int64_t i = 0; i < count; i++) {
    group *gr = insert_group(x, x->n_groups, 0, st);
    if (!gr || !get_group(r, gr, wd, st)) return false;
  }
  if (x->emit < 0 || x->emit > x->n_groups) return tfc_status_set(st, TFC_CODE_DATA_LOSS, "bad group position");
  if (!tfc_ds_get_i64(r, &has_cur, st)) return false;
  if (!has_cur) return true;
  return get_group(r, &x->cur, x->d->in->n, st) && open_window(x, st) && tfc_iter_restore(x->cur_it, r, st);
}

static const tfc_iter_vt window_vt = {window_next, group_it_free, group_save, group_restore, "GroupByWindow", NULL};
static const tfc_iter_vt reducer_vt = {reducer_next, group_it_free, group_save, group_restore, "GroupByReducer",
                                       NULL};

static tfc_iter *group_make(tfc_dataset *ds, tfc_status *st) {
  group_ds *g = (group_ds *)ds;
  group_it *x = tfc_calloc(1, sizeof *x);
  if (!x) return oom(st);
  x->it.vt = g->reducer ? &reducer_vt : &window_vt;
  x->d = (group_ds *)tfc_object_ref(&ds->base);
  if (!(x->in = tfc_dataset_iter(g->in, st))) {
    group_it_free(&x->it);
    return NULL;
  }
  return &x->it;
}

static const tfc_dataset_vt group_vts[] = {{"GroupByWindowDataset", group_make, group_destroy},
                                           {"GroupByReducerDataset", group_make, group_destroy}};

tfc_dataset *tfc_ds_group(bool reducer, tfc_dataset *in, tfc_flib *flib, const tfc_fhandle *const *fns,
                          tfc_tensor *const *const *captured, const int *n_captured, int n, const tfc_dtype *types,
                          const tfc_shape *shapes, tfc_status *st) {
  int nf = reducer ? 4 : 3;
  /* argument and result counts: key_func(element) -> key; window: reduce(key, window) -> dataset,
   * window_size(key) -> size; reducer: init(key) -> state, reduce(state, element) -> state,
   * finalize(state) -> element */
  int n_state = reducer ? fns[1]->n_outputs : 0;
  int want_in[4] = {in->n, reducer ? 1 : 2, reducer ? n_state + in->n : 1, n_state};
  int want_out[4] = {1, reducer ? n_state : 1, reducer ? n_state : 1, n};
  static const char *const names[2][4] = {{"key_func", "reduce_func", "window_size_func", ""},
                                          {"key_func", "init_func", "reduce_func", "finalize_func"}};
  if (n_state > MAXC) {
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "too many state components");
    return NULL;
  }
  for (int i = 0; i < nf; i++)
    if (fns[i]->n_inputs != want_in[i] + n_captured[i] || fns[i]->n_outputs != want_out[i]) {
      tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                     "`%s` (%s) takes %d arguments and returns %d values, expected %d (%d captured) and %d",
                     names[reducer][i], fns[i]->name, fns[i]->n_inputs, fns[i]->n_outputs,
                     want_in[i] + n_captured[i], n_captured[i], want_out[i]);
      return NULL;
    }
  group_ds *g = (group_ds *)tfc_dataset_alloc(sizeof *g, NULL, n, types, shapes, st);
  if (!g) return NULL;
  g->ds.vt = &group_vts[reducer ? 1 : 0];
  g->reducer = reducer;
  g->in = (tfc_dataset *)tfc_object_ref(&in->base);
  g->flib = flib;
  g->n_state = n_state;
  for (int i = 0; i < nf; i++) {
    g->fn[i].f = fns[i];
    g->fn[i].captured = tfc_calloc((size_t)n_captured[i] + 1, sizeof(tfc_tensor *));
    if (!g->fn[i].captured) {
      tfc_object_unref(&g->ds.base);
      return oom(st);
    }
    for (int k = 0; k < n_captured[i]; k++) g->fn[i].captured[k] = tfc_tensor_ref(captured[i][k]);
    g->fn[i].n_captured = n_captured[i];
  }
  g->ds.cardinality = !reducer && in->cardinality == TFC_DS_INFINITE ? TFC_DS_INFINITE : TFC_DS_UNKNOWN;
  return &g->ds;
}
