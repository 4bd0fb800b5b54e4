/*
 * op_registry.c — the process-wide table of op definitions.
 *
 * The built-in family tables (TFC_OP_TABLES) are parsed on first use into a
 * sorted snapshot: an immutable array of pointers to heap tfc_op_defs. The
 * snapshot is published through an atomic pointer, so lookups take no lock.
 * Adding a table (tfc_op_registry_add_table) builds a new snapshot under the
 * writer mutex and publishes it; old snapshots are kept on a retired list
 * (never freed, so a reader holding one stays safe) and op defs are never
 * freed or moved, so every pointer handed out stays valid for the process.
 *
 * A spec with a syntax error (or a repeated op name) is skipped, printed once
 * to stderr (abort() when built with -DTFC_DEBUG) and kept for
 * tfc_op_registry_check; running out of memory while loading publishes
 * nothing, so the next call retries. (A mutex plus an atomic pointer is used
 * instead of pthread_once so that a load that ran out of memory can retry.)
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "core/op_registry.h"
#include "core/op_tables.h"

typedef struct snapshot {
  int n;
  const tfc_op_def **ops;   /* sorted by name */
  struct snapshot *retired; /* older snapshot kept alive for concurrent readers */
} snapshot;

static _Atomic(snapshot *) g_snap;
static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static tfc_status g_check;     /* first spec error seen while loading; guarded by g_mu */
static bool g_check_set;

/* Orders op def pointers by name. */
static int cmp_def(const void *a, const void *b) {
  const tfc_op_def *x = *(const tfc_op_def *const *)a, *y = *(const tfc_op_def *const *)b;
  return strcmp(x->name, y->name);
}

/* A def with its position in table order, to keep the first of duplicates. */
typedef struct ranked {
  tfc_op_def *def;
  int pos;
} ranked;

/* Orders by name, then by table position. */
static int cmp_ranked(const void *a, const void *b) {
  const ranked *x = a, *y = b;
  int c = strcmp(x->def->name, y->def->name);
  return c ? c : (x->pos > y->pos) - (x->pos < y->pos);
}

/* Frees a list of parsed defs that were never published (NULL entries skipped). */
static void free_defs(tfc_op_def **defs, int n) {
  for (int i = 0; i < n; i++) {
    if (!defs[i]) continue;
    tfc_op_def_clear(defs[i]);
    tfc_free(defs[i]);
    defs[i] = NULL;
  }
}

/* Binary search in a sorted array of defs. */
static const tfc_op_def *find_in(const tfc_op_def *const *ops, int n, const char *name) {
  int lo = 0, hi = n - 1;
  while (lo <= hi) {
    int mid = lo + (hi - lo) / 2;
    int c = strcmp(ops[mid]->name, name);
    if (c == 0) return ops[mid];
    if (c < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return NULL;
}

/* Parses every spec of table t and appends the defs to (*defs, *n, *cap).
 * With `strict`, the first bad spec fails the call (INVALID_ARGUMENT);
 * otherwise it is skipped and its error recorded in *bad (first one only).
 * Out of memory always fails with RESOURCE_EXHAUSTED. */
static bool parse_table(const tfc_op_table *t, bool strict, tfc_op_def ***defs, int *n, int *cap,
                        tfc_status *bad, bool *bad_set, tfc_status *st) {
  for (int i = 0; i < t->n; i++) {
    if (*n == *cap) {
      int nc = *cap ? *cap * 2 : 256;
      tfc_op_def **d = tfc_realloc(*defs, sizeof *d * (size_t)nc);
      if (!d) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory loading ops");
      *defs = d;
      *cap = nc;
    }
    tfc_op_def *def = tfc_calloc(1, sizeof *def);
    if (!def) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory loading ops");
    tfc_status pst;
    tfc_status_clear(&pst);
    if (!tfc_op_spec_parse(&t->specs[i], def, &pst)) {
      tfc_free(def);
      if (pst.code == TFC_CODE_RESOURCE_EXHAUSTED || strict) {
        tfc_status_copy(st, &pst);
        return false;
      }
      if (!*bad_set) {
        tfc_status_copy(bad, &pst);
        *bad_set = true;
      }
      continue;
    }
    (*defs)[(*n)++] = def;
  }
  return true;
}

/* Builds and publishes a snapshot holding old's ops plus defs[0..n) (which
 * must not repeat a name of old; caller checks). Within defs, the first of
 * several defs with one name wins: later ones are freed, set to NULL in defs
 * and reported in g_check. Caller holds g_mu. On success the snapshot owns
 * every remaining def; on failure (RESOURCE_EXHAUSTED) nothing changed. */
static bool publish(snapshot *old, tfc_op_def **defs, int n, tfc_status *st) {
  int total = (old ? old->n : 0) + n;
  snapshot *s = tfc_calloc(1, sizeof *s);
  const tfc_op_def **ops = tfc_malloc(sizeof *ops * (size_t)(total > 0 ? total : 1));
  ranked *r = tfc_malloc(sizeof *r * (size_t)(n > 0 ? n : 1));
  if (!s || !ops || !r) {
    tfc_free(s);
    tfc_free(ops);
    tfc_free(r);
    return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory loading ops");
  }
  for (int i = 0; i < n; i++) r[i] = (ranked){defs[i], i};
  qsort(r, (size_t)n, sizeof *r, cmp_ranked);
  int k = 0;
  if (old) memcpy(ops, old->ops, sizeof *ops * (size_t)old->n), k = old->n;
  const tfc_op_def *kept = NULL;  /* last def kept from defs (sorted by name) */
  for (int i = 0; i < n; i++) {
    if (kept && strcmp(r[i].def->name, kept->name) == 0) {
      if (!g_check_set) {
        tfc_status_set(&g_check, TFC_CODE_INVALID_ARGUMENT, "Op '%s' is registered twice",
                       r[i].def->name);
        g_check_set = true;
      }
      defs[r[i].pos] = NULL;
      tfc_op_def_clear(r[i].def);
      tfc_free(r[i].def);
      continue;
    }
    ops[k++] = kept = r[i].def;
  }
  tfc_free(r);
  qsort(ops, (size_t)k, sizeof *ops, cmp_def);
  s->n = k;
  s->ops = ops;
  s->retired = old;
  atomic_store_explicit(&g_snap, s, memory_order_release);
  return true;
}

/* Loads the built-in tables under g_mu unless a snapshot exists. */
static bool load_locked(tfc_status *st) {
  if (atomic_load_explicit(&g_snap, memory_order_acquire)) return true;
  static const tfc_op_table *const tables[] = {TFC_OP_TABLES};
  tfc_op_def **defs = NULL;
  int n = 0, cap = 0;
  tfc_status bad;
  tfc_status_clear(&bad);
  bool bad_set = false;
  bool ok = true;
  for (size_t i = 0; ok && i < sizeof tables / sizeof tables[0]; i++)
    ok = parse_table(tables[i], false, &defs, &n, &cap, &bad, &bad_set, st);
  if (ok) {
    if (bad_set && !g_check_set) {
      tfc_status_copy(&g_check, &bad);
      g_check_set = true;
    }
    ok = publish(NULL, defs, n, st);
  }
  if (!ok) {
    free_defs(defs, n);
  } else if (g_check_set) {
    /* A table bug: say so once, loudly, rather than let the op look unregistered. */
    fprintf(stderr, "tfc: bad op definition skipped: %s\n", g_check.msg);
#ifdef TFC_DEBUG
    abort();
#endif
  }
  tfc_free(defs);
  return ok;
}

/* Makes sure the built-in tables are parsed. See op_registry.h. */
bool tfc_op_registry_load(tfc_status *st) {
  if (atomic_load_explicit(&g_snap, memory_order_acquire)) return true;
  pthread_mutex_lock(&g_mu);
  bool ok = load_locked(st);
  pthread_mutex_unlock(&g_mu);
  return ok;
}

/* The current snapshot, loading it if needed; NULL when loading ran out of memory. */
static snapshot *snap(void) {
  snapshot *s = atomic_load_explicit(&g_snap, memory_order_acquire);
  if (s) return s;
  tfc_status st;
  tfc_status_clear(&st);
  if (!tfc_op_registry_load(&st)) return NULL;
  return atomic_load_explicit(&g_snap, memory_order_acquire);
}

/* Registers an extra table. See op_registry.h. */
bool tfc_op_registry_add_table(const tfc_op_table *t, tfc_status *st) {
  pthread_mutex_lock(&g_mu);
  bool ok = load_locked(st);
  tfc_op_def **defs = NULL;
  int n = 0, cap = 0;
  tfc_status bad;
  tfc_status_clear(&bad);
  bool bad_set = false;
  if (ok) ok = parse_table(t, true, &defs, &n, &cap, &bad, &bad_set, st);
  snapshot *old = atomic_load_explicit(&g_snap, memory_order_acquire);
  for (int i = 0; ok && i < n; i++) {
    if (find_in(old->ops, old->n, defs[i]->name))
      ok = tfc_status_set(st, TFC_CODE_ALREADY_EXISTS, "Op '%s' is already registered",
                          defs[i]->name);
    for (int j = 0; ok && j < i; j++)
      if (strcmp(defs[i]->name, defs[j]->name) == 0)
        ok = tfc_status_set(st, TFC_CODE_ALREADY_EXISTS, "Op '%s' is already registered",
                            defs[i]->name);
  }
  if (ok) ok = publish(old, defs, n, st);
  if (!ok) free_defs(defs, n);
  tfc_free(defs);
  pthread_mutex_unlock(&g_mu);
  return ok;
}

/* Looks up an op by name (binary search over the sorted snapshot). */
const tfc_op_def *tfc_op_lookup(const char *name) {
  snapshot *s = snap();
  if (!s || !name) return NULL;
  return find_in(s->ops, s->n, name);
}

/* Number of registered ops (0 when loading failed). */
int tfc_op_count(void) {
  snapshot *s = snap();
  return s ? s->n : 0;
}

/* The i-th op in name order, or NULL when out of range. */
const tfc_op_def *tfc_op_at(int i) {
  snapshot *s = snap();
  if (!s || i < 0 || i >= s->n) return NULL;
  return s->ops[i];
}

/* Reports the first bad spec or duplicate found while loading. */
bool tfc_op_registry_check(tfc_status *st) {
  if (!tfc_op_registry_load(st)) return false;
  pthread_mutex_lock(&g_mu);
  bool ok = !g_check_set;
  if (!ok) tfc_status_copy(st, &g_check);
  pthread_mutex_unlock(&g_mu);
  return ok;
}

/* The attr def of `name` in op, or NULL (linear: ops have few attrs). */
const tfc_attr_def *tfc_op_find_attr(const tfc_op_def *op, const char *name) {
  if (!op || !name) return NULL;
  for (int i = 0; i < op->n_attrs; i++)
    if (strcmp(op->attrs[i].name, name) == 0) return &op->attrs[i];
  return NULL;
}
