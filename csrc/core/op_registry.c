/*
 * op_registry.c — the process-wide table of op definitions.
 *
 * The built-in family tables (TFC_OP_TABLES) are indexed by name on first
 * use into a sorted snapshot (an immutable array of pointers to entries);
 * an entry's spec is parsed when the op is first looked up (a process that
 * uses a frozen graph of 15 op types parses 15 specs, not all of them: that
 * took about 4 ms of every cold start). The snapshot is published through an
 * atomic pointer and a parsed def through the entry's, so a lookup of a
 * parsed op takes no lock.
 * Adding a table (tfc_op_registry_add_table) builds a new snapshot under the
 * writer mutex and publishes it; old snapshots are kept on a retired list
 * (never freed, so a reader holding one stays safe) and op defs are never
 * freed or moved, so every pointer handed out stays valid for the process.
 *
 * A spec with a syntax error (or a repeated op name) is skipped when met,
 * printed once to stderr (abort() when built with -DTFC_DEBUG) and kept for
 * tfc_op_registry_check (which parses every spec); running out of memory
 * while indexing or parsing changes nothing, so the next call retries. (A mutex plus an atomic pointer is used
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

/* One registered op: its name, and its def, parsed on first use from the
 * built-in spec (spec != NULL) or parsed when its table was added. Entries
 * are never freed or moved; snapshots share them. */
typedef struct entry {
  const char *name;
  const tfc_op_spec *spec;          /* built-in: parsed on first use; NULL when def was set at once */
  _Atomic(const tfc_op_def *) def;  /* NULL until parsed */
  atomic_bool bad;                  /* the spec failed to parse: the op is not registered */
  int pos;                          /* position in table order (the first of duplicates wins) */
} entry;

typedef struct snapshot {
  int n;
  entry **ops;              /* sorted by name */
  bool clean;               /* every entry parsed and none bad (count/at may index it) */
  struct snapshot *retired; /* older snapshot kept alive for concurrent readers */
} snapshot;

static _Atomic(snapshot *) g_snap;
static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static tfc_status g_check;     /* first spec error seen; guarded by g_mu */
static bool g_check_set;

/* Orders entry pointers by name, then by table position. */
static int cmp_entry(const void *a, const void *b) {
  const entry *x = *(const entry *const *)a, *y = *(const entry *const *)b;
  int c = strcmp(x->name, y->name);
  return c ? c : (x->pos > y->pos) - (x->pos < y->pos);
}

/* Frees a parsed def that was never published. */
static void free_def(tfc_op_def *def) {
  if (!def) return;
  tfc_op_def_clear(def);
  tfc_free(def);
}

/* Binary search in a sorted array of entries. */
static entry *find_in(entry *const *ops, int n, const char *name) {
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

/* Records the first registry error (caller holds g_mu) and says so once, loudly. */
static void report_bad_locked(const tfc_status *bad) {
  if (g_check_set) return;
  tfc_status_copy(&g_check, bad);
  g_check_set = true;
  fprintf(stderr, "tfc: bad op definition skipped: %s\n", g_check.msg);
#ifdef TFC_DEBUG
  abort();
#endif
}

/* The def of e, parsing its spec now if it was never used. NULL for a spec
 * that does not parse (recorded for tfc_op_registry_check, and the op stays
 * unregistered) or when memory ran out (a later call retries). */
static const tfc_op_def *resolve(entry *e) {
  const tfc_op_def *d = atomic_load_explicit(&e->def, memory_order_acquire);
  if (d || atomic_load_explicit(&e->bad, memory_order_relaxed)) return d;
  pthread_mutex_lock(&g_mu);
  d = atomic_load_explicit(&e->def, memory_order_acquire);
  if (!d && !atomic_load_explicit(&e->bad, memory_order_relaxed)) {
    tfc_op_def *def = tfc_calloc(1, sizeof *def);
    tfc_status pst;
    tfc_status_clear(&pst);
    if (def && tfc_op_spec_parse(e->spec, def, &pst)) {
      atomic_store_explicit(&e->def, def, memory_order_release);
      d = def;
    } else {
      tfc_free(def);
      if (def && pst.code != TFC_CODE_RESOURCE_EXHAUSTED) {
        atomic_store_explicit(&e->bad, true, memory_order_relaxed);
        report_bad_locked(&pst);
      }
    }
  }
  pthread_mutex_unlock(&g_mu);
  return d;
}

/* Publishes a snapshot of old's entries plus add[0..n) (names not in old;
 * caller checks), sorted by name; within add the first of several entries
 * with one name (by pos) wins, the others are reported and freed. Caller
 * holds g_mu. false + RESOURCE_EXHAUSTED with nothing changed (the caller
 * still owns add's entries then). */
static bool publish(snapshot *old, entry **add, int n, tfc_status *st) {
  int total = (old ? old->n : 0) + n;
  snapshot *s = tfc_calloc(1, sizeof *s);
  entry **ops = tfc_malloc(sizeof *ops * (size_t)(total > 0 ? total : 1));
  if (!s || !ops) {
    tfc_free(s);
    tfc_free(ops);
    return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory loading ops");
  }
  qsort(add, (size_t)n, sizeof *add, cmp_entry);
  int k = 0;
  const entry *kept = NULL;  /* last entry kept from add (sorted by name) */
  bool clean = !old || old->clean;
  for (int i = 0; i < n; i++) {
    if (kept && strcmp(add[i]->name, kept->name) == 0) {
      tfc_status dup;
      tfc_status_clear(&dup);
      tfc_status_set(&dup, TFC_CODE_INVALID_ARGUMENT, "Op '%s' is registered twice", add[i]->name);
      report_bad_locked(&dup);
      free_def((tfc_op_def *)atomic_load_explicit(&add[i]->def, memory_order_relaxed));
      tfc_free(add[i]);
      add[i] = NULL;
      continue;
    }
    ops[k++] = add[i];
    kept = add[i];
    if (!atomic_load_explicit(&add[i]->def, memory_order_relaxed)) clean = false;
  }
  /* merge with old's (sorted) entries */
  if (old && old->n) {
    entry **mine = tfc_malloc(sizeof *mine * (size_t)(k > 0 ? k : 1));
    if (!mine) {
      /* undo nothing: the entries dropped as duplicates are gone, which the
       * caller's retry does not need */
      tfc_free(s);
      tfc_free(ops);
      return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory loading ops");
    }
    memcpy(mine, ops, sizeof *mine * (size_t)k);
    int i = 0, j = 0, m = 0;
    while (i < old->n || j < k) {
      if (j >= k || (i < old->n && strcmp(old->ops[i]->name, mine[j]->name) < 0)) ops[m++] = old->ops[i++];
      else ops[m++] = mine[j++];
    }
    k = m;
    tfc_free(mine);
  }
  s->n = k;
  s->ops = ops;
  s->clean = clean;
  s->retired = old;
  atomic_store_explicit(&g_snap, s, memory_order_release);
  return true;
}

/* Indexes the built-in tables under g_mu unless a snapshot exists: names
 * only; each spec is parsed when its op is first looked up. */
static bool load_locked(tfc_status *st) {
  if (atomic_load_explicit(&g_snap, memory_order_acquire)) return true;
  static const tfc_op_table *const tables[] = {TFC_OP_TABLES};
  int n = 0;
  for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++) n += tables[i]->n;
  entry *block = tfc_calloc((size_t)(n > 0 ? n : 1), sizeof *block);
  entry **add = tfc_malloc(sizeof *add * (size_t)(n > 0 ? n : 1));
  if (!block || !add) {
    tfc_free(block);
    tfc_free(add);
    return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory loading ops");
  }
  int k = 0;
  for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++)
    for (int j = 0; j < tables[i]->n; j++, k++) {
      block[k].name = tables[i]->specs[j].name ? tables[i]->specs[j].name : "";
      block[k].spec = &tables[i]->specs[j];
      block[k].pos = k;
      add[k] = &block[k];
    }
  /* the block is one allocation: duplicates are dropped from the index but
   * stay in it (publish frees only separately allocated entries) */
  qsort(add, (size_t)n, sizeof *add, cmp_entry);
  int m = 0;
  for (int i = 0; i < n; i++) {
    if (m > 0 && strcmp(add[i]->name, add[m - 1]->name) == 0) {
      tfc_status dup;
      tfc_status_clear(&dup);
      tfc_status_set(&dup, TFC_CODE_INVALID_ARGUMENT, "Op '%s' is registered twice", add[i]->name);
      report_bad_locked(&dup);
      continue;
    }
    add[m++] = add[i];
  }
  snapshot *s = tfc_calloc(1, sizeof *s);
  if (!s) {
    tfc_free(block);
    tfc_free(add);
    return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory loading ops");
  }
  s->n = m;
  s->ops = add;
  s->clean = m == 0;
  atomic_store_explicit(&g_snap, s, memory_order_release);
  return true;
}

/* Makes sure the built-in tables are indexed. See op_registry.h. */
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

/* The current snapshot with every entry parsed and the bad ones left out
 * (publishing a clean one when needed); NULL when memory ran out. */
static snapshot *clean_snap(void) {
  snapshot *s = snap();
  if (!s || s->clean) return s;
  for (int i = 0; i < s->n; i++) resolve(s->ops[i]);
  pthread_mutex_lock(&g_mu);
  snapshot *cur = atomic_load_explicit(&g_snap, memory_order_acquire);
  if (!cur->clean) {
    bool all = true;
    int good = 0;
    for (int i = 0; i < cur->n; i++) {
      if (atomic_load_explicit(&cur->ops[i]->def, memory_order_acquire)) good++;
      else if (!atomic_load_explicit(&cur->ops[i]->bad, memory_order_relaxed)) all = false;
    }
    snapshot *ns = all ? tfc_calloc(1, sizeof *ns) : NULL;
    entry **ops = ns ? tfc_malloc(sizeof *ops * (size_t)(good > 0 ? good : 1)) : NULL;
    if (ops) {
      int k = 0;
      for (int i = 0; i < cur->n; i++)
        if (atomic_load_explicit(&cur->ops[i]->def, memory_order_acquire)) ops[k++] = cur->ops[i];
      ns->n = k;
      ns->ops = ops;
      ns->clean = true;
      ns->retired = cur;
      atomic_store_explicit(&g_snap, ns, memory_order_release);
      cur = ns;
    } else {
      tfc_free(ns);
      cur = NULL; /* out of memory (or a spec hit it): not clean yet */
    }
  }
  pthread_mutex_unlock(&g_mu);
  return cur;
}

/* Registers an extra table. See op_registry.h. */
bool tfc_op_registry_add_table(const tfc_op_table *t, tfc_status *st) {
  pthread_mutex_lock(&g_mu);
  bool ok = load_locked(st);
  entry **add = ok ? tfc_calloc((size_t)(t->n > 0 ? t->n : 1), sizeof *add) : NULL;
  if (ok && !add) ok = tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory loading ops");
  int n = 0;
  for (int i = 0; ok && i < t->n; i++) {
    entry *e = tfc_calloc(1, sizeof *e);
    tfc_op_def *def = e ? tfc_calloc(1, sizeof *def) : NULL;
    if (!def) {
      tfc_free(e);
      ok = tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory loading ops");
      break;
    }
    tfc_status pst;
    tfc_status_clear(&pst);
    if (!tfc_op_spec_parse(&t->specs[i], def, &pst)) {
      tfc_free(def);
      tfc_free(e);
      tfc_status_copy(st, &pst);
      ok = false;
      break;
    }
    e->name = def->name;
    atomic_store_explicit(&e->def, def, memory_order_relaxed);
    e->pos = i;
    add[n++] = e;
  }
  snapshot *old = atomic_load_explicit(&g_snap, memory_order_acquire);
  for (int i = 0; ok && i < n; i++) {
    entry *hit = find_in(old->ops, old->n, add[i]->name);
    if (hit && !atomic_load_explicit(&hit->bad, memory_order_relaxed))
      ok = tfc_status_set(st, TFC_CODE_ALREADY_EXISTS, "Op '%s' is already registered", add[i]->name);
    for (int j = 0; ok && j < i; j++)
      if (strcmp(add[i]->name, add[j]->name) == 0)
        ok = tfc_status_set(st, TFC_CODE_ALREADY_EXISTS, "Op '%s' is already registered", add[i]->name);
  }
  if (ok) ok = publish(old, add, n, st);
  if (!ok)
    for (int i = 0; i < n; i++) {
      if (!add[i]) continue;
      free_def((tfc_op_def *)atomic_load_explicit(&add[i]->def, memory_order_relaxed));
      tfc_free(add[i]);
    }
  tfc_free(add);
  pthread_mutex_unlock(&g_mu);
  return ok;
}

/* Looks up an op by name (binary search over the sorted snapshot; the spec
 * is parsed on the first lookup). */
const tfc_op_def *tfc_op_lookup(const char *name) {
  snapshot *s = snap();
  if (!s || !name) return NULL;
  entry *e = find_in(s->ops, s->n, name);
  return e ? resolve(e) : NULL;
}

/* Number of registered ops (0 when loading failed); parses every spec. */
int tfc_op_count(void) {
  snapshot *s = clean_snap();
  return s ? s->n : 0;
}

/* The i-th op in name order, or NULL when out of range. */
const tfc_op_def *tfc_op_at(int i) {
  snapshot *s = clean_snap();
  if (!s || i < 0 || i >= s->n) return NULL;
  return atomic_load_explicit(&s->ops[i]->def, memory_order_acquire);
}

/* Parses every spec; reports the first bad spec or duplicate. */
bool tfc_op_registry_check(tfc_status *st) {
  if (!tfc_op_registry_load(st)) return false;
  if (!clean_snap()) {
    /* a spec that hit out of memory is retried by the next call */
    pthread_mutex_lock(&g_mu);
    bool bad = g_check_set;
    pthread_mutex_unlock(&g_mu);
    if (!bad) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory loading ops");
  }
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
