/*
 * sparse_tensors_map.c — CPU kernels AddSparseToTensorsMap,
 * AddManySparseToTensorsMap and TakeManySparseFromTensorsMap: TF's
 * SparseTensorsMap, a session resource per (container, shared_name) (an
 * empty shared_name names the map after the adding node) holding sparse
 * tensors under int64 handles numbered from 0 in the order they are added.
 * Batching queues carry the handles; the take op removes the tensors it
 * reads and stacks them along a new first dimension (the other dimensions
 * the largest of each). Errors use TF's messages.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "base/hashmap.h"
#include "core/resource.h"
#include "kernels/kernel.h"
#include "kernels/kernel_tables.h"
#include "core/step.h"

/* One stored sparse tensor (references to its three tensors). */
typedef struct st_entry {
  tfc_tensor *indices, *values, *shape;
} st_entry;

typedef struct sparse_map {
  tfc_object base;
  pthread_mutex_t mu;
  int64_t counter;          /* the next handle */
  tfc_hashmap entries;      /* 8 handle bytes -> st_entry* */
} sparse_map;

/* Drops an entry's tensors and frees it. */
static void entry_free(st_entry *e) {
  if (!e) return;
  if (e->indices) tfc_tensor_unref(e->indices);
  if (e->values) tfc_tensor_unref(e->values);
  if (e->shape) tfc_tensor_unref(e->shape);
  tfc_free(e);
}

/* The object destructor: frees every stored tensor. */
static void map_destroy(tfc_object *o) {
  sparse_map *m = (sparse_map *)o;
  const char *k;
  size_t kl;
  void *v;
  for (size_t i = 0; i < m->entries.cap; i++)
    if (tfc_hashmap_slot(&m->entries, i, &k, &kl, &v)) entry_free(v);
  tfc_hashmap_destroy(&m->entries);
  pthread_mutex_destroy(&m->mu);
  tfc_free(m);
}

static const tfc_object_type k_map_type = {"SparseTensorsMap", map_destroy};

/* Creates an empty map for tfc_resource_object. */
static tfc_object *map_create(void *arg, tfc_status *st) {
  (void)arg;
  sparse_map *m = tfc_calloc(1, sizeof *m);
  if (!m) {
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  tfc_object_init(&m->base, &k_map_type);
  pthread_mutex_init(&m->mu, NULL);
  tfc_hashmap_init(&m->entries);
  return &m->base;
}

/* The attrs of a map op: container ("" = the default) and map name. */
typedef struct map_op {
  char *container, *name;
} map_op;

/* Frees a map op's parsed attrs. */
static void sparse_map_op_free(void *state) {
  map_op *op = state;
  if (!op) return;
  tfc_free(op->container);
  tfc_free(op->name);
  tfc_free(op);
}

/* Reads container and shared_name (empty: the node's name, as TF's map ops do). */
static bool sparse_map_op_init(const tfc_kernel_init *ki, void **state) {
  map_op *op = tfc_calloc(1, sizeof *op);
  if (!op) return tfc_status_set(ki->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  *state = op;
  op->container = tfc_attrs_dup_string(ki->attrs, "container");
  op->name = tfc_attrs_dup_string(ki->attrs, "shared_name");
  if (!op->container || !op->name) return tfc_status_set(ki->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  if (!op->container[0]) {
    tfc_free(op->container);
    op->container = tfc_strdup(TFC_RESOURCE_DEFAULT_CONTAINER);
  }
  if (!op->name[0]) {
    tfc_free(op->name);
    op->name = tfc_strdup(ki->node_name);
  }
  if (!op->container || !op->name) return tfc_status_set(ki->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  return true;
}

/* The node's map (a new reference), created when absent; NULL with ctx failed. */
static sparse_map *get_map(tfc_kernel_ctx *ctx) {
  const map_op *op = ctx->state;
  tfc_object *o = tfc_resource_object(ctx->step->resources, op->container, op->name, &k_map_type, map_create,
                                      NULL, ctx->st);
  return (sparse_map *)o;
}

/* Stores (indices, values, shape) under the next handle (the map's lock held). */
static bool map_add_locked(sparse_map *m, tfc_tensor *ind, tfc_tensor *val, tfc_tensor *shp, int64_t *handle,
                           tfc_status *st) {
  st_entry *e = tfc_calloc(1, sizeof *e);
  if (!e) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  e->indices = ind;
  e->values = val;
  e->shape = shp;
  int64_t h = m->counter;
  if (tfc_hashmap_put(&m->entries, (const char *)&h, sizeof h, e) != 0) {
    tfc_free(e);
    return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  }
  m->counter++;
  *handle = h;
  return true;
}

/* Checks a (indices, values, shape) input triple as TF's SparseTensor does:
 * matching row counts and ranks; with `sorted`, row-major order and bounds. */
static bool check_triple(tfc_kernel_ctx *ctx, bool sorted) {
  const tfc_tensor *ind = ctx->inputs[0], *val = ctx->inputs[1], *shp = ctx->inputs[2];
  if (ind->rank != 2 || ind->dtype != TFC_DTYPE_INT64)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Input indices should be a matrix but received shape "
                           "of rank %d", ind->rank);
  if (val->rank != 1)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Input values should be a vector but received shape "
                           "of rank %d", val->rank);
  if (shp->rank != 1 || shp->dtype != TFC_DTYPE_INT64)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Input shape should be a vector but received shape "
                           "of rank %d", shp->rank);
  if (ind->dims[0] != val->dims[0])
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "indices and values rows (indexing dimension) must match. (indices = %lld, values = "
                           "%lld)", (long long)ind->dims[0], (long long)val->dims[0]);
  if (ind->dims[1] != shp->dims[0])
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "Dimension mismatch between indices and shape: %lld vs. %lld",
                           (long long)ind->dims[1], (long long)shp->dims[0]);
  if (!sorted) return true;
  int64_t n = ind->dims[0], r = ind->dims[1];
  const int64_t *ix = ind->data, *sh = shp->data;
  for (int64_t i = 0; i < n; i++) {
    const int64_t *row = ix + i * r;
    bool out = false;
    for (int64_t d = 0; d < r; d++)
      if (row[d] < 0 || row[d] >= sh[d]) out = true;
    int cmp = 1;
    if (i > 0) {
      cmp = 0;
      for (int64_t d = 0; d < r && cmp == 0; d++) cmp = row[d] < row[d - r] ? -1 : row[d] > row[d - r] ? 1 : 0;
    }
    if (!out && cmp > 0) continue;
    char idx[256], shape[256];
    size_t a = 0, b = 0;
    for (int64_t d = 0; d < r && a < 200 && b < 200; d++) {
      a += (size_t)snprintf(idx + a, sizeof idx - a, "%s%lld", d ? "," : "", (long long)row[d]);
      b += (size_t)snprintf(shape + b, sizeof shape - b, "%s%lld", d ? "," : "", (long long)sh[d]);
    }
    if (out)
      return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                             "indices[%lld] = [%s] is out of bounds: need 0 <= index < [%s]", (long long)i, idx,
                             shape);
    if (cmp == 0)
      return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "indices[%lld] = [%s] is repeated", (long long)i, idx);
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "indices[%lld] = [%s] is out of order. Many sparse ops require sorted indices.\n"
                           "    Use `tf.sparse.reorder` to create a correctly ordered copy.\n\n",
                           (long long)i, idx);
  }
  return true;
}

/* AddSparseToTensorsMap: stores the input under a new handle (a scalar). */
static void add_sparse_compute(tfc_kernel_ctx *ctx) {
  if (!check_triple(ctx, false)) return;
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_INT64, 0, NULL);
  if (!out) return;
  sparse_map *m = get_map(ctx);
  if (!m) return;
  pthread_mutex_lock(&m->mu);
  map_add_locked(m, tfc_tensor_ref(ctx->inputs[0]), tfc_tensor_ref(ctx->inputs[1]), tfc_tensor_ref(ctx->inputs[2]),
                 out->data, ctx->st);
  pthread_mutex_unlock(&m->mu);
  tfc_object_unref(&m->base);
}

/* Row b of a minibatch as its own (indices, values, shape) triple:
 * entries [begin, end) of the input without their first coordinate. */
static bool slice_row(tfc_kernel_ctx *ctx, int64_t begin, int64_t end, tfc_tensor **ind, tfc_tensor **val,
                      tfc_tensor **shp) {
  const tfc_tensor *in_i = ctx->inputs[0], *in_v = ctx->inputs[1], *in_s = ctx->inputs[2];
  int64_t r = in_i->dims[1], n = end - begin;
  int64_t idims[2] = {n, r - 1}, sd = r - 1;
  *ind = tfc_tensor_new(TFC_DTYPE_INT64, 2, idims, ctx->st);
  *val = *ind ? tfc_tensor_new(in_v->dtype, 1, &n, ctx->st) : NULL;
  *shp = *val ? tfc_tensor_new(TFC_DTYPE_INT64, 1, &sd, ctx->st) : NULL;
  if (!*shp) return false;
  const int64_t *src = in_i->data;
  int64_t *dst = (*ind)->data;
  for (int64_t i = 0; i < n; i++)
    memcpy(dst + i * (r - 1), src + (begin + i) * r + 1, sizeof(int64_t) * (size_t)(r - 1));
  memcpy((*shp)->data, (const int64_t *)in_s->data + 1, sizeof(int64_t) * (size_t)(r - 1));
  if (in_v->dtype == TFC_DTYPE_STRING) {
    const tfc_string *s = (const tfc_string *)in_v->data + begin;
    for (int64_t i = 0; i < n; i++)
      if (!tfc_tensor_set_string(*val, i, s[i].data, s[i].len, ctx->st)) return false;
  } else if (n > 0) {
    size_t es = tfc_dtype_size(in_v->dtype);
    memcpy((*val)->data, (const char *)in_v->data + (size_t)begin * es, (size_t)n * es);
  }
  return true;
}

/* AddManySparseToTensorsMap: stores each row of the first dimension under a
 * new handle; rows with entries first (in order), then the empty ones. */
static void add_many_sparse_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *shp = ctx->inputs[2];
  if (shp->rank == 1 && shp->dims[0] <= 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Rank of input SparseTensor should be > 1, but saw rank: %lld",
                    (long long)shp->dims[0]);
    return;
  }
  if (!check_triple(ctx, true)) return;
  int64_t rows = ((const int64_t *)shp->data)[0];
  const tfc_tensor *ind = ctx->inputs[0];
  int64_t n = ind->dims[0], r = ind->dims[1];
  const int64_t *ix = ind->data;
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_INT64, 1, &rows);
  if (!out) return;
  int64_t *handles = out->data;
  sparse_map *m = get_map(ctx);
  if (!m) return;
  pthread_mutex_lock(&m->mu);
  bool ok = true;
  for (int pass = 0; pass < 2 && ok; pass++) {
    int64_t i = 0;
    for (int64_t b = 0; b < rows && ok; b++) {
      int64_t begin = i;
      while (i < n && ix[i * r] == b) i++;
      if ((pass == 0) != (i > begin)) continue;
      tfc_tensor *t_i = NULL, *t_v = NULL, *t_s = NULL;
      ok = slice_row(ctx, begin, i, &t_i, &t_v, &t_s) && map_add_locked(m, t_i, t_v, t_s, &handles[b], ctx->st);
      if (!ok) {
        if (t_i) tfc_tensor_unref(t_i);
        if (t_v) tfc_tensor_unref(t_v);
        if (t_s) tfc_tensor_unref(t_s);
      }
    }
  }
  pthread_mutex_unlock(&m->mu);
  tfc_object_unref(&m->base);
}

/* TakeManySparseFromTensorsMap: removes the tensors of the handles and
 * stacks them ([N] + the largest of each dimension). */
static void take_many_sparse_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *h = ctx->inputs[0];
  if (h->rank != 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "sparse_handles should be a vector but received shape of rank %d",
                    h->rank);
    return;
  }
  int64_t rows = h->dims[0];
  if (rows < 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Must have at least 1 serialized SparseTensor, but input matrix has 0 rows");
    return;
  }
  tfc_dtype want;
  if (!tfc_attrs_get_type(ctx->attrs, "dtype", &want, ctx->st)) return;
  st_entry **parts = tfc_calloc((size_t)rows, sizeof *parts);
  if (!parts) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  sparse_map *m = get_map(ctx);
  bool ok = m != NULL;
  if (ok) {
    const map_op *op = ctx->state;
    const int64_t *hv = h->data;
    pthread_mutex_lock(&m->mu);
    for (int64_t b = 0; b < rows && ok; b++) {
      parts[b] = tfc_hashmap_remove(&m->entries, (const char *)&hv[b], sizeof hv[b]);
      if (!parts[b])
        ok = tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Unable to find SparseTensor: %lld in map: %s",
                             (long long)hv[b], op->name);
    }
    pthread_mutex_unlock(&m->mu);
    tfc_object_unref(&m->base);
  }
  int64_t rank = -1, total = 0, max_dims[TFC_MAX_RANK] = {0};
  for (int64_t b = 0; b < rows && ok; b++) {
    const st_entry *e = parts[b];
    if (e->values->dtype != want) {
      ok = tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "Requested SparseTensor of type %s but SparseTensor[%lld].values.dtype() == %s",
                           tfc_op_dtype_string(want), (long long)b, tfc_op_dtype_string(e->values->dtype));
      break;
    }
    int64_t er = e->shape->dims[0];
    if (rank < 0) {
      rank = er;
      if (rank + 1 > TFC_MAX_RANK) ok = tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "rank exceeds %d", TFC_MAX_RANK);
    } else if (er != rank) {
      ok = tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "Inconsistent rank across SparseTensors: rank prior to SparseTensor[%lld] was: %lld but "
                           "rank of SparseTensor[%lld] is: %lld", (long long)b, (long long)rank, (long long)b,
                           (long long)er);
    }
    for (int64_t d = 0; ok && d < rank; d++) {
      int64_t v = ((const int64_t *)e->shape->data)[d];
      if (v > max_dims[d]) max_dims[d] = v;
    }
    total += e->values->dims[0];
  }
  if (ok) {
    int64_t idims[2] = {total, rank + 1}, sl = rank + 1;
    tfc_tensor *oi = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_INT64, 2, idims);
    tfc_tensor *ov = oi ? tfc_kernel_alloc_output(ctx, 1, want, 1, &total) : NULL;
    tfc_tensor *os = ov ? tfc_kernel_alloc_output(ctx, 2, TFC_DTYPE_INT64, 1, &sl) : NULL;
    if (os) {
      int64_t *shape = os->data, *oidx = oi->data, at = 0;
      shape[0] = rows;
      for (int64_t d = 0; d < rank; d++) shape[d + 1] = max_dims[d];
      size_t es = tfc_dtype_size(want);
      for (int64_t b = 0; b < rows && ok; b++) {
        const st_entry *e = parts[b];
        const int64_t *src = e->indices->data;
        int64_t n = e->values->dims[0];
        for (int64_t i = 0; i < n && ok; i++, at++) {
          oidx[at * (rank + 1)] = b;
          if (rank > 0) memcpy(&oidx[at * (rank + 1) + 1], &src[i * rank], sizeof(int64_t) * (size_t)rank);
          if (want == TFC_DTYPE_STRING) {
            const tfc_string *v = &((const tfc_string *)e->values->data)[i];
            ok = tfc_tensor_set_string(ov, at, v->data, v->len, ctx->st);
          } else {
            memcpy((char *)ov->data + (size_t)at * es, (const char *)e->values->data + (size_t)i * es, es);
          }
        }
      }
    }
  }
  for (int64_t b = 0; b < rows; b++) entry_free(parts[b]);
  tfc_free(parts);
}

static const tfc_kernel_def defs[] = {
    {"AddSparseToTensorsMap", "CPU", NULL, NULL, sparse_map_op_init, add_sparse_compute, sparse_map_op_free, 0},
    {"AddManySparseToTensorsMap", "CPU", NULL, NULL, sparse_map_op_init, add_many_sparse_compute,
     sparse_map_op_free, 0},
    {"TakeManySparseFromTensorsMap", "CPU", NULL, NULL, sparse_map_op_init, take_many_sparse_compute,
     sparse_map_op_free, 0},
};

const tfc_kernel_table tfc_kernels_sparse_map = {defs, (int)(sizeof defs / sizeof defs[0])};
