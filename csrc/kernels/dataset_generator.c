/*
 * dataset_generator.c — the generator dataset (tfc's _PyGeneratorDataset
 * op behind Dataset.from_generator): each iterator opens the generator
 * registered under the op's token through the installed hooks.
 */
#include "kernels/dataset_generator.h"

#include <stdatomic.h>

#include "base/alloc.h"
#include "kernels/dataset_internal.h"

static _Atomic(const tfc_generator_hooks *) g_hooks;

/* Installs the hooks. */
void tfc_generator_set_hooks(const tfc_generator_hooks *hooks) { atomic_store(&g_hooks, hooks); }

typedef struct gen_ds {
  tfc_dataset ds;
  int64_t token;
} gen_ds;

typedef struct gen_it {
  tfc_iter it;
  gen_ds *ds;
  const tfc_generator_hooks *hooks;
  void *state;
  bool opened, ended;
} gen_it;

static int gen_next(tfc_iter *it, tfc_tensor **out, tfc_status *st) {
  gen_it *g = (gen_it *)it;
  if (g->ended) return 0;
  if (!g->opened) {
    g->state = g->hooks->open(g->ds->token, st);
    if (!g->state) return -1;
    g->opened = true;
  }
  int rc = g->hooks->next(g->state, g->ds->ds.n, g->ds->ds.types, out, st);
  if (rc == 0) g->ended = true;
  return rc;
}

static void gen_free(tfc_iter *it) {
  gen_it *g = (gen_it *)it;
  if (g->state) g->hooks->close(g->state);
  tfc_object_unref(&g->ds->ds.base);
  tfc_free(g);
}

/* A Python generator's position cannot be saved: TF's message for a
 * dataset with external state. */
static const tfc_iter_vt gen_it_vt = {gen_next, gen_free, NULL, NULL, "Generator", "PyFunc is stateful."};

static tfc_iter *gen_make(tfc_dataset *ds, tfc_status *st) {
  const tfc_generator_hooks *h = atomic_load(&g_hooks);
  if (!h) {
    tfc_status_set(st, TFC_CODE_FAILED_PRECONDITION, "No Python generator support is installed");
    return NULL;
  }
  gen_it *g = tfc_calloc(1, sizeof *g);
  if (!g) {
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  g->it.vt = &gen_it_vt;
  g->hooks = h;
  g->ds = (gen_ds *)tfc_object_ref(&ds->base);
  return &g->it;
}

static const tfc_dataset_vt gen_vt = {"_PyGeneratorDataset", gen_make, NULL};

/* A generator dataset of n components. */
tfc_dataset *tfc_ds_generator(int64_t token, int n, const tfc_dtype *types, const tfc_shape *shapes, tfc_status *st) {
  gen_ds *d = (gen_ds *)tfc_dataset_alloc(sizeof *d, NULL, n, types, shapes, st);
  if (!d) return NULL;
  d->ds.vt = &gen_vt;
  d->token = token;
  return &d->ds;
}
