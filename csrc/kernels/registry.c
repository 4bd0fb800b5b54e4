/*
 * registry.c — the kernel registry: the static family tables plus tables
 * added at run time, indexed by op name; and the small helpers every
 * kernel uses to produce outputs and report errors.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "kernels/kernel.h"
#include "kernels/kernel_tables.h"

#define MAX_EXTRA_TABLES 16

static const tfc_kernel_table *const static_tables[] = {TFC_KERNEL_TABLES};
static tfc_kernel_table extra_tables[MAX_EXTRA_TABLES];
static int n_extra_tables;
static pthread_mutex_t reg_mu = PTHREAD_MUTEX_INITIALIZER;

/* The flattened, op-sorted index; rebuilt when a table is added. */
static const tfc_kernel_def **index_defs;
static int index_n;

/* qsort comparator: by op name, stable on table order via pointer address. */
static int cmp_def(const void *a, const void *b) {
  const tfc_kernel_def *x = *(const tfc_kernel_def *const *)a;
  const tfc_kernel_def *y = *(const tfc_kernel_def *const *)b;
  int c = strcmp(x->op, y->op);
  if (c) return c;
  return (x < y) ? -1 : (x > y);
}

/* Builds index_defs from all tables. Caller holds reg_mu. Returns false on OOM. */
static bool build_index_locked(void) {
  int n = 0;
  for (size_t t = 0; t < sizeof static_tables / sizeof *static_tables; t++) n += static_tables[t]->n;
  for (int t = 0; t < n_extra_tables; t++) n += extra_tables[t].n;
  const tfc_kernel_def **defs = tfc_malloc(sizeof(*defs) * (size_t)(n ? n : 1));
  if (!defs) return false;
  int k = 0;
  for (size_t t = 0; t < sizeof static_tables / sizeof *static_tables; t++)
    for (int i = 0; i < static_tables[t]->n; i++) defs[k++] = &static_tables[t]->defs[i];
  for (int t = 0; t < n_extra_tables; t++)
    for (int i = 0; i < extra_tables[t].n; i++) defs[k++] = &extra_tables[t].defs[i];
  qsort(defs, (size_t)n, sizeof *defs, cmp_def);
  tfc_free((void *)index_defs);
  index_defs = defs;
  index_n = n;
  return true;
}

/* Returns the index, building it on first use; NULL only on OOM. */
static const tfc_kernel_def **get_index(int *n) {
  pthread_mutex_lock(&reg_mu);
  if (!index_defs) build_index_locked();
  const tfc_kernel_def **d = index_defs;
  *n = index_n;
  pthread_mutex_unlock(&reg_mu);
  return d;
}

/* Adds a run-time table (see kernel.h). */
bool tfc_kernel_register_table(const tfc_kernel_def *defs, int n) {
  pthread_mutex_lock(&reg_mu);
  for (int t = 0; t < n_extra_tables; t++) {
    if (extra_tables[t].defs == defs) {
      pthread_mutex_unlock(&reg_mu);
      return true;
    }
  }
  bool ok = n_extra_tables < MAX_EXTRA_TABLES;
  if (ok) {
    extra_tables[n_extra_tables].defs = defs;
    extra_tables[n_extra_tables].n = n;
    n_extra_tables++;
    if (index_defs && !build_index_locked()) {
      n_extra_tables--;
      ok = false;
    }
  }
  pthread_mutex_unlock(&reg_mu);
  return ok;
}

/* Number of kernel defs in the index. */
int tfc_kernel_count(void) {
  int n;
  get_index(&n);
  return n;
}

/* The i-th kernel def in op-name order. */
const tfc_kernel_def *tfc_kernel_at(int i) {
  int n;
  const tfc_kernel_def **d = get_index(&n);
  return (d && i >= 0 && i < n) ? d[i] : NULL;
}

/* First index whose op is >= op (binary search). */
static int lower_bound(const tfc_kernel_def **d, int n, const char *op) {
  int lo = 0, hi = n;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (strcmp(d[mid]->op, op) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* True when def's dtype constraint accepts attrs. */
static bool constraint_ok(const tfc_kernel_def *def, const tfc_attrs *attrs) {
  if (!def->type_attr || !def->types) return true;
  const tfc_attr_value *v = attrs ? tfc_attrs_find(attrs, def->type_attr) : NULL;
  if (!v || v->kind != TFC_ATTR_TYPE) return false;
  for (const tfc_dtype *t = def->types; *t != TFC_DTYPE_INVALID; t++)
    if (*t == tfc_dtype_base(v->v.type)) return true;
  return false;
}

/* Finds the kernel for (op, device) accepting attrs; NULL when none. */
const tfc_kernel_def *tfc_kernel_lookup(const char *op, const char *device, const tfc_attrs *attrs) {
  int n;
  const tfc_kernel_def **d = get_index(&n);
  if (!d) return NULL;
  for (int i = lower_bound(d, n, op); i < n && strcmp(d[i]->op, op) == 0; i++)
    if (strcmp(d[i]->device, device) == 0 && constraint_ok(d[i], attrs)) return d[i];
  return NULL;
}

/* True when some kernel exists for (op, device). */
bool tfc_kernel_exists(const char *op, const char *device) {
  int n;
  const tfc_kernel_def **d = get_index(&n);
  if (!d) return false;
  for (int i = lower_bound(d, n, op); i < n && strcmp(d[i]->op, op) == 0; i++)
    if (strcmp(d[i]->device, device) == 0) return true;
  return false;
}

/* Allocates output i (see kernel.h). */
tfc_tensor *tfc_kernel_alloc_output(tfc_kernel_ctx *ctx, int i, tfc_dtype dtype, int rank,
                                    const int64_t *dims) {
  tfc_tensor *t = tfc_tensor_new(dtype, rank, dims, ctx->st);
  if (!t) return NULL;
  tfc_kernel_set_output(ctx, i, t);
  return t;
}

/* Sets output i, dropping any previous value. */
void tfc_kernel_set_output(tfc_kernel_ctx *ctx, int i, tfc_tensor *t) {
  if (i < 0 || i >= ctx->n_outputs) {
    tfc_tensor_unref(t);
    tfc_kernel_fail(ctx, TFC_CODE_INTERNAL, "output index %d out of range", i);
    return;
  }
  tfc_tensor_unref(ctx->outputs[i]);
  ctx->outputs[i] = t;
}

/* Shares input `in` as output `out`. */
void tfc_kernel_forward(tfc_kernel_ctx *ctx, int in, int out) {
  tfc_kernel_set_output(ctx, out, tfc_tensor_ref(ctx->inputs[in]));
}

/* Records the first failure of the kernel. */
bool tfc_kernel_fail(tfc_kernel_ctx *ctx, tfc_code code, const char *fmt, ...) {
  if (ctx->st->code != TFC_CODE_OK) return false;
  va_list ap;
  va_start(ap, fmt);
  tfc_status_vset(ctx->st, code, fmt, ap);
  va_end(ap);
  return false;
}

/* Parallel loop on the intra-op pool. */
void tfc_kernel_parallel_for(tfc_kernel_ctx *ctx, int64_t n, int64_t min_shard, tfc_range_fn fn,
                             void *arg) {
  if (n <= 0) return;
  if (!ctx->intra_pool || n < 2 * min_shard) {
    fn(arg, 0, n);
    return;
  }
  tfc_threadpool_parallel_for(ctx->intra_pool, n, min_shard, fn, arg);
}

/* Completes an async kernel. */
void tfc_kernel_async_done(tfc_kernel_ctx *ctx) {
  tfc_async_token *tok = ctx->async_token;
  tok->done(ctx, tok->arg);
}

/* Reads an int vector input (see kernel.h). */
int tfc_kernel_read_int_vector(tfc_kernel_ctx *ctx, const tfc_tensor *t, int64_t *out, int max,
                               const char *what) {
  if (t->dtype != TFC_DTYPE_INT32 && t->dtype != TFC_DTYPE_INT64) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s must be int32 or int64, got %s", what,
                    tfc_dtype_name(t->dtype));
    return -1;
  }
  if (t->rank > 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s must be a vector, got rank %d", what, t->rank);
    return -1;
  }
  if (t->nelems > max) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s has %lld elements, at most %d supported",
                    what, (long long)t->nelems, max);
    return -1;
  }
  for (int64_t i = 0; i < t->nelems; i++)
    out[i] = t->dtype == TFC_DTYPE_INT32 ? ((const int32_t *)t->data)[i] : ((const int64_t *)t->data)[i];
  return (int)t->nelems;
}
