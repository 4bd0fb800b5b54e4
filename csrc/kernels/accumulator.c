/*
 * accumulator.c — the conditional accumulator resource: summing, staleness,
 * parked takes and their cancellation (see accumulator.h).
 *
 * The running sum is a tensor only the accumulator holds, so gradients are
 * added into it in place; a take hands that tensor out (after the division
 * for MEAN) and starts the next sum afresh, so nothing is copied twice.
 */
#include "kernels/accumulator.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"

typedef struct take_waiter {
  struct take_waiter *prev, *next;
  bool linked;
  bool in_cancel;      /* being completed by the cancel callback */
  tfc_accum *a;
  int64_t num_required;
  tfc_cancel *reg;
  tfc_cancel_cb cb;
  tfc_status st;
  tfc_tensor *outs[3];
  int nouts;
  tfc_accum_done_fn done;
  void *arg;
} take_waiter;

struct tfc_accum {
  tfc_object base;
  bool sparse, mean;
  tfc_dtype dtype;
  tfc_shape shape;
  char *name;
  pthread_mutex_t mu;
  int64_t counter;
  int64_t global_step;
  tfc_tensor *sum;      /* dense: the running sum; sparse: the values [nnz, ...] */
  int64_t *idx;         /* sparse: row indices, nnz of them */
  int64_t *counts;      /* sparse: gradients summed into each row */
  int64_t nnz;
  take_waiter *head, *tail;
};

static void accum_destroy(tfc_object *o);

static const tfc_object_type k_types[2] = {
    {"ConditionalAccumulator", accum_destroy},
    {"SparseConditionalAccumulator", accum_destroy},
};

/* The object type of dense (false) or sparse (true) accumulators. */
const tfc_object_type *tfc_accum_object_type(bool sparse) { return &k_types[sparse ? 1 : 0]; }

/* Frees the sum and the accumulator (no take can wait: each holds a reference). */
static void accum_destroy(tfc_object *o) {
  tfc_accum *a = (tfc_accum *)o;
  tfc_tensor_unref(a->sum);
  tfc_free(a->idx);
  tfc_free(a->counts);
  tfc_free(a->name);
  pthread_mutex_destroy(&a->mu);
  tfc_free(a);
}

/* New accumulator (see accumulator.h). */
tfc_accum *tfc_accum_new(const tfc_accum_config *cfg, tfc_status *st) {
  tfc_accum *a = tfc_calloc(1, sizeof *a);
  char *name = tfc_strdup(cfg->name ? cfg->name : "");
  if (!a || !name) {
    tfc_free(a);
    tfc_free(name);
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory creating an accumulator");
    return NULL;
  }
  tfc_object_init(&a->base, &k_types[cfg->sparse ? 1 : 0]);
  a->sparse = cfg->sparse;
  a->mean = cfg->mean;
  a->dtype = cfg->dtype;
  a->shape = cfg->shape;
  a->name = name;
  pthread_mutex_init(&a->mu, NULL);
  return a;
}

/* The element type. */
tfc_dtype tfc_accum_dtype(const tfc_accum *a) { return a->dtype; }

/* ---- arithmetic over the supported element types ---- */

/* dst[i] += src[i] for n elements of dtype. */
static void add_into(tfc_dtype dt, void *dst, const void *src, int64_t n) {
#define ADD_LOOP(T)                                                     \
  do {                                                                  \
    T *d = dst;                                                         \
    const T *s = src;                                                   \
    for (int64_t i = 0; i < n; i++) d[i] += s[i];                       \
  } while (0)
  switch (dt) {
    case TFC_DTYPE_FLOAT: ADD_LOOP(float); break;
    case TFC_DTYPE_DOUBLE: ADD_LOOP(double); break;
    case TFC_DTYPE_INT32: ADD_LOOP(int32_t); break;
    case TFC_DTYPE_INT64: ADD_LOOP(int64_t); break;
    default: break;
  }
#undef ADD_LOOP
}

/* dst[i] /= by for n elements of dtype (integer division for integer types). */
static void divide(tfc_dtype dt, void *dst, int64_t n, int64_t by) {
#define DIV_LOOP(T)                                                     \
  do {                                                                  \
    T *d = dst;                                                         \
    T b = (T)by;                                                        \
    for (int64_t i = 0; i < n; i++) d[i] /= b;                          \
  } while (0)
  if (by == 0) return;
  switch (dt) {
    case TFC_DTYPE_FLOAT: DIV_LOOP(float); break;
    case TFC_DTYPE_DOUBLE: DIV_LOOP(double); break;
    case TFC_DTYPE_INT32: DIV_LOOP(int32_t); break;
    case TFC_DTYPE_INT64: DIV_LOOP(int64_t); break;
    default: break;
  }
#undef DIV_LOOP
}

/* Writes TF's text of a tensor shape ("[2,3]") into buf. */
static void dims_text(int rank, const int64_t *dims, char *buf, size_t cap) {
  size_t pos = (size_t)snprintf(buf, cap, "[");
  for (int i = 0; i < rank && pos < cap; i++) {
    if (dims[i] < 0) pos += (size_t)snprintf(buf + pos, cap - pos, "%s?", i ? "," : "");
    else pos += (size_t)snprintf(buf + pos, cap - pos, "%s%lld", i ? "," : "", (long long)dims[i]);
  }
  if (pos < cap) snprintf(buf + pos, cap - pos, "]");
}

/* Writes TF's text of a partial shape ("[2,?]", "<unknown>") into buf. */
static void shape_text(const tfc_shape *s, char *buf, size_t cap) {
  if (s->rank < 0) snprintf(buf, cap, "<unknown>");
  else dims_text(s->rank, s->dims, buf, cap);
}

/* ---- takes ---- */

/* Appends w to the waiting takes. Caller holds a->mu. */
static void list_append(tfc_accum *a, take_waiter *w) {
  w->prev = a->tail;
  w->next = NULL;
  if (a->tail) a->tail->next = w;
  else a->head = w;
  a->tail = w;
  w->linked = true;
}

/* Unlinks w. Caller holds a->mu. */
static void list_remove(tfc_accum *a, take_waiter *w) {
  if (w->prev) w->prev->next = w->next;
  else a->head = w->next;
  if (w->next) w->next->prev = w->prev;
  else a->tail = w->prev;
  w->prev = w->next = NULL;
  w->linked = false;
}

/* Produces the result of a take into w (the condition is met): increments the
 * global step, divides for MEAN, hands the sum out and resets the count.
 * Caller holds a->mu. */
static void take_locked(tfc_accum *a, take_waiter *w) {
  a->global_step++;
  tfc_status *st = &w->st;
  if (!a->sparse) {
    if (a->mean) divide(a->dtype, a->sum->data, a->sum->nelems, a->counter);
    w->outs[0] = a->sum;
    w->nouts = 1;
    a->sum = NULL;
    a->counter = 0;
    return;
  }
  tfc_tensor *vals = a->sum;
  int64_t nnz = a->nnz;
  int64_t row = nnz ? vals->nelems / nnz : 0;
  if (a->mean)
    for (int64_t i = 0; i < nnz; i++)
      divide(a->dtype, (char *)vals->data + (size_t)(i * row) * tfc_dtype_size(a->dtype), row, a->counts[i]);
  int64_t rank = vals->rank;
  tfc_tensor *idx = tfc_tensor_new(TFC_DTYPE_INT64, 1, &nnz, st);
  tfc_tensor *shape = idx ? tfc_tensor_new(TFC_DTYPE_INT64, 1, &rank, st) : NULL;
  if (!shape) {
    tfc_tensor_unref(idx);
    return; /* the sum stays; the take fails with RESOURCE_EXHAUSTED */
  }
  if (nnz) memcpy(idx->data, a->idx, sizeof(int64_t) * (size_t)nnz);
  int64_t *sd = shape->data;
  sd[0] = a->shape.rank > 0 ? a->shape.dims[0] : -1;
  for (int d = 1; d < vals->rank; d++) sd[d] = vals->dims[d];
  w->outs[0] = idx;
  w->outs[1] = vals;
  w->outs[2] = shape;
  w->nouts = 3;
  a->sum = NULL;
  tfc_free(a->idx);
  tfc_free(a->counts);
  a->idx = NULL;
  a->counts = NULL;
  a->nnz = 0;
  a->counter = 0;
}

/* Completes the waiting takes whose condition holds, in order; completed
 * ones go to *done (linked through next). Caller holds a->mu. */
static void flush_locked(tfc_accum *a, take_waiter **done) {
  while (a->head && a->counter >= a->head->num_required) {
    take_waiter *w = a->head;
    take_locked(a, w);
    list_remove(a, w);
    w->next = *done;
    *done = w;
  }
}

/* Hands a completed take's result to its callback and frees it (no lock held). */
static void waiter_finish(take_waiter *w) {
  if (w->reg && !w->in_cancel) tfc_cancel_deregister(w->reg, &w->cb);
  tfc_object *ao = &w->a->base;
  if (w->st.code == TFC_CODE_OK) {
    w->done(w->arg, &w->st, w->outs, w->nouts);
  } else {
    for (int i = 0; i < w->nouts; i++) tfc_tensor_unref(w->outs[i]);
    w->done(w->arg, &w->st, NULL, 0);
  }
  tfc_free(w);
  tfc_object_unref(ao);
}

/* Completes every take of a done list (no lock held). */
static void finish_all(take_waiter *done) {
  while (done) {
    take_waiter *next = done->next;
    waiter_finish(done);
    done = next;
  }
}

/* Step cancellation: completes w with the reason if it still waits. */
static void take_cancelled(void *arg, const tfc_status *why) {
  take_waiter *w = arg;
  tfc_accum *a = w->a;
  pthread_mutex_lock(&a->mu);
  bool mine = w->linked;
  if (mine) list_remove(a, w);
  pthread_mutex_unlock(&a->mu);
  if (!mine) return;
  if (why->code == TFC_CODE_DEADLINE_EXCEEDED)
    tfc_status_set(&w->st, TFC_CODE_DEADLINE_EXCEEDED,
                   "TakeGrad operation was cancelled: timed out waiting for %lld gradients in '%s'",
                   (long long)w->num_required, a->name);
  else
    tfc_status_set(&w->st, TFC_CODE_CANCELLED, "TakeGrad operation was cancelled");
  w->in_cancel = true;
  waiter_finish(w);
}

/* Take request (see accumulator.h). */
void tfc_accum_take(tfc_accum *a, int64_t num_required, tfc_cancel *reg, tfc_accum_done_fn done, void *arg) {
  tfc_status e;
  tfc_status_clear(&e);
  if (num_required <= 0) {
    tfc_status_set(&e, TFC_CODE_INVALID_ARGUMENT, "Argument num_required must be positive, but was %lld",
                   (long long)num_required);
    done(arg, &e, NULL, 0);
    return;
  }
  take_waiter *w = tfc_calloc(1, sizeof *w);
  if (!w) {
    tfc_status_set(&e, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory taking a gradient");
    done(arg, &e, NULL, 0);
    return;
  }
  tfc_object_ref(&a->base);
  w->a = a;
  w->num_required = num_required;
  w->reg = reg;
  w->done = done;
  w->arg = arg;
  tfc_status_clear(&w->st);
  take_waiter *finished = NULL;
  /* fast path: no earlier take waits and enough gradients are in */
  pthread_mutex_lock(&a->mu);
  list_append(a, w);
  flush_locked(a, &finished);
  bool waiting = w->linked;
  if (waiting) list_remove(a, w);
  pthread_mutex_unlock(&a->mu);
  if (waiting && reg) {
    /* register first (the cancel callback takes a->mu), then wait */
    w->cb.fn = take_cancelled;
    w->cb.arg = w;
    tfc_status why;
    tfc_status_clear(&why);
    if (!tfc_cancel_register(reg, &w->cb, &why)) {
      w->reg = NULL;
      tfc_status_set(&w->st, why.code == TFC_CODE_DEADLINE_EXCEEDED ? why.code : TFC_CODE_CANCELLED,
                     "TakeGrad operation was cancelled");
      waiter_finish(w);
      finish_all(finished);
      return;
    }
  }
  if (waiting) {
    pthread_mutex_lock(&a->mu);
    list_append(a, w);
    flush_locked(a, &finished);
    pthread_mutex_unlock(&a->mu);
  }
  finish_all(finished);
}

/* ---- applies ---- */

/* Adds a dense gradient (see accumulator.h). */
bool tfc_accum_apply_dense(tfc_accum *a, int64_t local_step, const tfc_tensor *grad, tfc_status *st) {
  if (grad->dtype != a->dtype)
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Accumulator '%s' holds %s gradients, got %s", a->name,
                          tfc_dtype_name(a->dtype), tfc_dtype_name(grad->dtype));
  take_waiter *finished = NULL;
  bool ok = true;
  pthread_mutex_lock(&a->mu);
  if (local_step >= a->global_step) {
    char want[256], got[256];
    tfc_shape gs = tfc_tensor_shape(grad);
    if (a->counter > 0 && !tfc_tensor_same_shape(a->sum, grad)) {
      dims_text(a->sum->rank, a->sum->dims, want, sizeof want);
      dims_text(grad->rank, grad->dims, got, sizeof got);
      ok = tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Shape mismatch: expected %s, got %s", want, got);
    } else if (!tfc_shape_compatible(&a->shape, &gs)) {
      shape_text(&a->shape, want, sizeof want);
      dims_text(grad->rank, grad->dims, got, sizeof got);
      ok = tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Shape mismatch: expected %s, got %s", want, got);
    } else if (a->counter > 0) {
      add_into(a->dtype, a->sum->data, grad->data, grad->nelems);
      a->counter++;
    } else {
      tfc_tensor *copy = tfc_tensor_copy(grad, st);
      if (!copy) {
        ok = false;
      } else {
        tfc_tensor_unref(a->sum);
        a->sum = copy;
        a->counter = 1;
      }
    }
    if (ok) flush_locked(a, &finished);
  }
  pthread_mutex_unlock(&a->mu);
  finish_all(finished);
  return ok;
}

/* Checks a sparse gradient against the declared shape and the sum so far
 * (TF's rules). Caller holds a->mu. */
static bool validate_sparse_locked(tfc_accum *a, const tfc_tensor *indices, const tfc_tensor *values,
                                   const tfc_tensor *shape, tfc_status *st) {
  int r = a->shape.rank; /* -1: unknown, nothing to check against */
  if (shape) {
    if (r > shape->nelems)
      return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Shape mismatch: expected shape rank at least %d, got %lld",
                            r, (long long)shape->nelems);
    const int64_t *sd = shape->data;
    for (int i = 0; i < r; i++)
      if (a->shape.dims[i] != -1 && a->shape.dims[i] != sd[i])
        return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Shape mismatch: expected shape dim %d to be %lld, got %lld",
                              i, (long long)a->shape.dims[i], (long long)sd[i]);
  }
  if (r > 0 && a->shape.dims[0] != -1) {
    const int64_t *id = indices->data;
    for (int64_t i = 0; i < indices->nelems; i++)
      if (id[i] >= a->shape.dims[0])
        return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                              "Shape mismatch: index of slice %lld exceeded limits of shape; index is %lld exceeded %lld",
                              (long long)i, (long long)id[i], (long long)a->shape.dims[0]);
  }
  if (a->counter > 0) {
    if (a->sum->rank != values->rank)
      return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Shape mismatch: expected values rank %d, got %d",
                            a->sum->rank, values->rank);
    for (int i = 1; i < values->rank; i++)
      if (a->sum->dims[i] != values->dims[i])
        return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Shape mismatch: expected values dim %d to be %lld, got %lld",
                              i, (long long)a->sum->dims[i], (long long)values->dims[i]);
  } else {
    if (r > values->rank)
      return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Shape mismatch: expected values rank at least %d, got %d",
                            r, values->rank);
    for (int i = 1; i < r; i++)
      if (a->shape.dims[i] != -1 && a->shape.dims[i] != values->dims[i])
        return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Shape mismatch: expected values dim %d to be %lld, got %lld",
                              i, (long long)a->shape.dims[i], (long long)values->dims[i]);
  }
  return true;
}

/* Merges a gradient into the sparse sum: rows are taken from both lists in
 * step (each taken as ascending); equal indices are summed. Caller holds a->mu. */
static bool merge_sparse_locked(tfc_accum *a, const tfc_tensor *indices, const tfc_tensor *values, tfc_status *st) {
  const int64_t *gi = indices->data;
  int64_t gn = indices->nelems, an = a->nnz;
  size_t esz = tfc_dtype_size(a->dtype);
  int64_t row = gn ? values->nelems / gn : (an ? a->sum->nelems / an : 0);
  int64_t cap = an + gn;
  int64_t *idx = tfc_malloc(sizeof(int64_t) * (size_t)(cap + 1));
  int64_t *counts = tfc_malloc(sizeof(int64_t) * (size_t)(cap + 1));
  int64_t dims[TFC_MAX_RANK];
  memcpy(dims, values->dims, sizeof dims);
  /* count the merged rows first so the values tensor has its final size */
  int64_t n = 0;
  for (int64_t i = 0, j = 0; i < an || j < gn; n++) {
    if (i < an && j < gn && a->idx[i] == gi[j]) i++, j++;
    else if (j >= gn || (i < an && a->idx[i] < gi[j])) i++;
    else j++;
  }
  dims[0] = n;
  tfc_tensor *sum = idx && counts ? tfc_tensor_new(a->dtype, values->rank, dims, st) : NULL;
  if (!sum) {
    tfc_free(idx);
    tfc_free(counts);
    if (st->code == TFC_CODE_OK) tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory summing gradients");
    return false;
  }
  const char *av = a->sum->data, *gv = values->data;
  char *out = sum->data;
  size_t rb = (size_t)row * esz;
  int64_t k = 0;
  for (int64_t i = 0, j = 0; i < an || j < gn; k++) {
    char *dst = out + (size_t)k * rb;
    if (i < an && j < gn && a->idx[i] == gi[j]) {
      idx[k] = a->idx[i];
      counts[k] = a->counts[i] + 1;
      if (rb) memcpy(dst, av + (size_t)i * rb, rb);
      add_into(a->dtype, dst, gv + (size_t)j * rb, row);
      i++, j++;
    } else if (j >= gn || (i < an && a->idx[i] < gi[j])) {
      idx[k] = a->idx[i];
      counts[k] = a->counts[i];
      if (rb) memcpy(dst, av + (size_t)i * rb, rb);
      i++;
    } else {
      idx[k] = gi[j];
      counts[k] = 1;
      if (rb) memcpy(dst, gv + (size_t)j * rb, rb);
      j++;
    }
  }
  tfc_tensor_unref(a->sum);
  tfc_free(a->idx);
  tfc_free(a->counts);
  a->sum = sum;
  a->idx = idx;
  a->counts = counts;
  a->nnz = n;
  return true;
}

/* Adds a sparse gradient (see accumulator.h). */
bool tfc_accum_apply_sparse(tfc_accum *a, int64_t local_step, const tfc_tensor *indices,
                            const tfc_tensor *values, const tfc_tensor *shape, tfc_status *st) {
  if (values->dtype != a->dtype)
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Accumulator '%s' holds %s gradients, got %s", a->name,
                          tfc_dtype_name(a->dtype), tfc_dtype_name(values->dtype));
  take_waiter *finished = NULL;
  bool ok = true;
  pthread_mutex_lock(&a->mu);
  if (local_step >= a->global_step) {
    if (indices->rank != 1) {
      char got[256];
      dims_text(indices->rank, indices->dims, got, sizeof got);
      ok = tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Input indices should be vector but received shape: %s", got);
    } else if (values->rank < 1) {
      ok = tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Values cannot be 0-dimensional.");
    } else if (values->dims[0] != indices->dims[0]) {
      ok = tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Expected %lld non-empty input values, got %lld",
                          (long long)indices->dims[0], (long long)values->dims[0]);
    } else {
      ok = validate_sparse_locked(a, indices, values, shape, st);
    }
    if (ok && a->counter > 0) {
      ok = merge_sparse_locked(a, indices, values, st);
    } else if (ok) {
      int64_t n = indices->nelems;
      tfc_tensor *copy = tfc_tensor_copy(values, st);
      int64_t *idx = tfc_malloc(sizeof(int64_t) * (size_t)(n + 1));
      int64_t *counts = tfc_malloc(sizeof(int64_t) * (size_t)(n + 1));
      if (!copy || !idx || !counts) {
        tfc_tensor_unref(copy);
        tfc_free(idx);
        tfc_free(counts);
        if (st->code == TFC_CODE_OK) tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory summing gradients");
        ok = false;
      } else {
        if (n) memcpy(idx, indices->data, sizeof(int64_t) * (size_t)n);
        for (int64_t i = 0; i < n; i++) counts[i] = 1;
        tfc_tensor_unref(a->sum);
        tfc_free(a->idx);
        tfc_free(a->counts);
        a->sum = copy;
        a->idx = idx;
        a->counts = counts;
        a->nnz = n;
      }
    }
    if (ok) {
      a->counter++;
      flush_locked(a, &finished);
    }
  }
  pthread_mutex_unlock(&a->mu);
  finish_all(finished);
  return ok;
}

/* Gradients summed since the last take. */
int64_t tfc_accum_num_accumulated(tfc_accum *a) {
  pthread_mutex_lock(&a->mu);
  int64_t n = a->counter;
  pthread_mutex_unlock(&a->mu);
  return n;
}

/* Sets the global step. */
void tfc_accum_set_global_step(tfc_accum *a, int64_t step) {
  pthread_mutex_lock(&a->mu);
  a->global_step = step;
  pthread_mutex_unlock(&a->mu);
}
