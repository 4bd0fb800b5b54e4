/*
 * tensor_array.c — CPU kernels for TensorArrayV3 and its ops
 * (core/ops_data_flow.c): Write, Read, Gather, Scatter, Concat, Split, Size,
 * Close and Grad.
 *
 * A tensor array is a list of tensors behind a RESOURCE handle; it lives as
 * long as its handle. Each slot remembers whether it was written, read and
 * cleared, with TF's rules: a second write to an index is an error (a gradient
 * array sums them instead), a write after a read is an error, reading a
 * cleared slot (clear_after_read) is an error, reading an unwritten slot gives
 * zeros when the element shape is known (else an error). `dynamic_size` arrays
 * grow on writes past their end. Gradient arrays (TensorArrayGradV3) are kept
 * in their forward array, one per `source`, and share its size and the
 * element shapes written so far. The flow outputs only order the ops.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "kernels/kernel.h"
#include "kernels/kernel_tables.h"

#define TA_MAGIC 0x54415252u

typedef struct ta_slot {
  tfc_tensor *t;     /* the value, NULL when unwritten, cleared or a zeros placeholder */
  tfc_shape shape;   /* shape of what was written (rank -1: none known) */
  bool written, read, cleared;
} ta_slot;

typedef struct ta_grad {
  char *source;
  tfc_tensor *handle; /* the gradient array's handle (a reference) */
} ta_grad;

typedef struct tensor_array {
  unsigned magic;     /* TA_MAGIC */
  pthread_mutex_t mu;
  tfc_dtype dtype;
  tfc_shape element_shape;
  bool identical_shapes, dynamic_size, clear_after_read, aggregate, is_grad, closed;
  int64_t n, cap;
  ta_slot *slots;
  int n_grads;
  ta_grad *grads;
  char name[160];
} tensor_array;

static atomic_long g_ta_counter;

/* Release callback of a tensor-array handle: frees slots, gradient arrays, the array. */
static void ta_release(void *owner, void *data) {
  (void)data;
  tensor_array *a = owner;
  for (int64_t i = 0; i < a->n; i++) tfc_tensor_unref(a->slots[i].t);
  tfc_free(a->slots);
  for (int i = 0; i < a->n_grads; i++) {
    tfc_free(a->grads[i].source);
    tfc_tensor_unref(a->grads[i].handle);
  }
  tfc_free(a->grads);
  pthread_mutex_destroy(&a->mu);
  tfc_free(a);
}

/* The array behind input 0, or NULL with ctx failed. */
static tensor_array *ta_input(tfc_kernel_ctx *ctx) {
  tensor_array *a = tfc_tensor_handle_object(ctx->inputs[0]);
  if (!a || a->magic != TA_MAGIC) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Input 0 of %s is not a TensorArray handle",
                    ctx->op_type);
    return NULL;
  }
  return a;
}

/* Grows the slot vector to hold at least n slots (new ones empty). Caller holds mu. */
static bool ta_resize(tfc_kernel_ctx *ctx, tensor_array *a, int64_t n) {
  if (n <= a->n) return true;
  if (n > a->cap) {
    int64_t cap = a->cap ? a->cap : 8;
    while (cap < n) cap *= 2;
    ta_slot *ns = tfc_realloc(a->slots, (size_t)cap * sizeof *ns);
    if (!ns) return tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM when growing TensorArray %s",
                                    a->name);
    a->slots = ns;
    a->cap = cap;
  }
  for (int64_t i = a->n; i < n; i++) {
    memset(&a->slots[i], 0, sizeof a->slots[i]);
    a->slots[i].shape = tfc_shape_unknown();
  }
  a->n = n;
  return true;
}

/* A new array object (not yet behind a handle); NULL with ctx failed on OOM. */
static tensor_array *ta_new(tfc_kernel_ctx *ctx, tfc_dtype dtype, int64_t size, const char *name) {
  tensor_array *a = tfc_malloc(sizeof *a);
  if (!a) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM when creating a TensorArray");
    return NULL;
  }
  memset(a, 0, sizeof *a);
  a->magic = TA_MAGIC;
  pthread_mutex_init(&a->mu, NULL);
  a->dtype = tfc_dtype_base(dtype);
  a->element_shape = tfc_shape_unknown();
  snprintf(a->name, sizeof a->name, "%s", name);
  if (!ta_resize(ctx, a, size)) {
    ta_release(a, a);
    return NULL;
  }
  return a;
}

/* A new handle owning a; frees a and returns NULL (st set) on OOM. */
static tfc_tensor *ta_publish(tfc_kernel_ctx *ctx, tensor_array *a) {
  tfc_tensor *h = tfc_tensor_handle(a, ta_release, ctx->st);
  if (!h) {
    ta_release(a, a);
    return NULL;
  }
  return h;
}

/* Sets output `i` to a float scalar 0 (the flow). */
static void ta_flow_out(tfc_kernel_ctx *ctx, int i) {
  float z = 0.f;
  tfc_tensor *f = tfc_tensor_scalar(TFC_DTYPE_FLOAT, &z, ctx->st);
  if (f) tfc_kernel_set_output(ctx, i, f);
}

/* TensorArrayV3(size) -> (handle, flow). */
static void ta_create_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *size_t_ = ctx->inputs[0];
  if (size_t_->rank != 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "TensorArray size must be scalar, but had shape: [%lld]",
                    (long long)(size_t_->rank ? size_t_->dims[0] : 0));
    return;
  }
  int32_t size = *(const int32_t *)size_t_->data;
  if (size < 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Size should be >= 0.");
    return;
  }
  tfc_dtype dtype;
  bool dyn, car, ident;
  const tfc_string *tan = NULL;
  tfc_shape es;
  if (!tfc_attrs_get_type(ctx->attrs, "dtype", &dtype, ctx->st) ||
      !tfc_attrs_get_bool(ctx->attrs, "dynamic_size", &dyn, ctx->st) ||
      !tfc_attrs_get_bool(ctx->attrs, "clear_after_read", &car, ctx->st) ||
      !tfc_attrs_get_bool(ctx->attrs, "identical_element_shapes", &ident, ctx->st) ||
      !tfc_attrs_get_string(ctx->attrs, "tensor_array_name", &tan, ctx->st) ||
      !tfc_attrs_get_shape(ctx->attrs, "element_shape", &es, ctx->st))
    return;
  char name[160];
  if (tan && tan->len)
    snprintf(name, sizeof name, "%.*s", tan->len > 150 ? 150 : (int)tan->len, tan->data);
  else
    snprintf(name, sizeof name, "%s_%ld", ctx->node_name, atomic_fetch_add(&g_ta_counter, 1));
  tensor_array *a = ta_new(ctx, dtype, size, name);
  if (!a) return;
  a->dynamic_size = dyn;
  a->clear_after_read = car;
  a->identical_shapes = ident;
  a->element_shape = es;
  tfc_tensor *h = ta_publish(ctx, a);
  if (!h) return;
  tfc_kernel_set_output(ctx, 0, h);
  ta_flow_out(ctx, 1);
}

/* TensorArrayGradV3(handle, flow) -> the gradient array for `source` (made once). */
static void ta_grad_compute(tfc_kernel_ctx *ctx) {
  tensor_array *a = ta_input(ctx);
  if (!a) return;
  const tfc_string *src = NULL;
  if (!tfc_attrs_get_string(ctx->attrs, "source", &src, ctx->st)) return;
  pthread_mutex_lock(&a->mu);
  if (a->closed) {
    pthread_mutex_unlock(&a->mu);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "TensorArray %s has already been closed.", a->name);
    return;
  }
  for (int i = 0; i < a->n_grads; i++) {
    if (strlen(a->grads[i].source) == src->len && memcmp(a->grads[i].source, src->data, src->len) == 0) {
      tfc_tensor *h = tfc_tensor_ref(a->grads[i].handle);
      pthread_mutex_unlock(&a->mu);
      tfc_kernel_set_output(ctx, 0, h);
      ta_flow_out(ctx, 1);
      return;
    }
  }
  char name[160];
  int src_len = src->len > 90 ? 90 : (int)src->len;
  snprintf(name, sizeof name, "%.60s@%.*s", a->name, src_len, src->data);
  tensor_array *g = ta_new(ctx, a->dtype, a->n, name);
  if (!g) {
    pthread_mutex_unlock(&a->mu);
    return;
  }
  ta_grad *ng = tfc_realloc(a->grads, (size_t)(a->n_grads + 1) * sizeof *ng);
  if (ng) a->grads = ng;
  char *s = ng ? tfc_malloc(src->len + 1) : NULL;
  if (!s) {
    pthread_mutex_unlock(&a->mu);
    ta_release(g, g);
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM when creating a TensorArray gradient");
    return;
  }
  memcpy(s, src->data, src->len);
  s[src->len] = '\0';
  g->aggregate = true;
  g->is_grad = true;
  g->clear_after_read = true;
  g->identical_shapes = a->identical_shapes;
  g->element_shape = a->element_shape;
  for (int64_t i = 0; i < a->n; i++)
    if (a->slots[i].written) g->slots[i].shape = a->slots[i].shape;
  a->dynamic_size = false; /* the forward array no longer grows once differentiated */
  tfc_tensor *h = tfc_tensor_handle(g, ta_release, ctx->st);
  if (!h) {
    pthread_mutex_unlock(&a->mu);
    tfc_free(s);
    ta_release(g, g);
    return;
  }
  a->grads[a->n_grads].source = s;
  a->grads[a->n_grads].handle = tfc_tensor_ref(h);
  a->n_grads++;
  pthread_mutex_unlock(&a->mu);
  tfc_kernel_set_output(ctx, 0, h);
  ta_flow_out(ctx, 1);
}

/* Adds src into *dst (same dtype and shape), replacing *dst with a new tensor. */
static bool ta_add(tfc_kernel_ctx *ctx, tensor_array *a, int64_t index, tfc_tensor **dst,
                   const tfc_tensor *src) {
  tfc_tensor *sum = tfc_tensor_new(src->dtype, src->rank, src->dims, ctx->st);
  if (!sum) return false;
  const tfc_tensor *d = *dst;
  int64_t n = src->nelems;
  switch (src->dtype) {
#define ADD_CASE(DT, CT)                                                         \
  case DT:                                                                       \
    for (int64_t i = 0; i < n; i++)                                              \
      ((CT *)sum->data)[i] = ((const CT *)d->data)[i] + ((const CT *)src->data)[i]; \
    break;
    ADD_CASE(TFC_DTYPE_FLOAT, float)
    ADD_CASE(TFC_DTYPE_DOUBLE, double)
    ADD_CASE(TFC_DTYPE_INT32, int32_t)
    ADD_CASE(TFC_DTYPE_INT64, int64_t)
#undef ADD_CASE
    default:
      tfc_tensor_unref(sum);
      return tfc_kernel_fail(ctx, TFC_CODE_UNIMPLEMENTED,
                             "TensorArray %s: cannot aggregate writes to index %lld of type %s", a->name,
                             (long long)index, tfc_dtype_name(src->dtype));
  }
  tfc_tensor_unref(*dst);
  *dst = sum;
  return true;
}

/* Writes (a reference to) v at index with TF's checks. Caller holds mu. */
static bool ta_write_locked(tfc_kernel_ctx *ctx, tensor_array *a, int64_t index, tfc_tensor *v) {
  if (a->closed)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "TensorArray %s has already been closed.", a->name);
  if (index < 0 || (!a->dynamic_size && index >= a->n))
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "TensorArray %s: Tried to write to index %lld but array is not resizeable and "
                           "size is: %lld",
                           a->name, (long long)index, (long long)a->n);
  if (index >= a->n && !ta_resize(ctx, a, index + 1)) return false;
  if (v->dtype != a->dtype)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "TensorArray %s: Could not write to TensorArray index %lld because the value "
                           "dtype is %s but TensorArray dtype is %s.",
                           a->name, (long long)index, tfc_op_dtype_string(v->dtype),
                           tfc_op_dtype_string(a->dtype));
  tfc_shape vs = tfc_tensor_shape(v);
  if (!tfc_shape_compatible(&a->element_shape, &vs)) {
    char b1[96], b2[96];
    tfc_shape_to_string(&vs, b1, sizeof b1);
    tfc_shape_to_string(&a->element_shape, b2, sizeof b2);
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "TensorArray %s: Could not write to TensorArray index %lld because the value "
                           "shape is %s which is incompatible with the TensorArray's inferred element "
                           "shape: %s (consider setting infer_shape=False).",
                           a->name, (long long)index, b1, b2);
  }
  if (a->identical_shapes && !tfc_shape_is_fully_defined(&a->element_shape)) a->element_shape = vs;
  ta_slot *s = &a->slots[index];
  if (s->read)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "TensorArray %s: Could not write to TensorArray index %lld because it has "
                           "already been read.",
                           a->name, (long long)index);
  if (s->written && !a->aggregate)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "TensorArray %s: Could not write to TensorArray index %lld because it has "
                           "already been written to.",
                           a->name, (long long)index);
  if (s->written) {
    if (s->shape.rank >= 0 && !tfc_shape_equal(&s->shape, &vs)) {
      char b1[96], b2[96];
      tfc_shape_to_string(&s->shape, b1, sizeof b1);
      tfc_shape_to_string(&vs, b2, sizeof b2);
      return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                             "TensorArray %s: Could not aggregate to TensorArray index %lld because the "
                             "existing shape is %s but the new input shape is %s.",
                             a->name, (long long)index, b1, b2);
    }
    if (!s->t) {
      s->t = tfc_tensor_ref(v);
      return true;
    }
    return ta_add(ctx, a, index, &s->t, v);
  }
  s->t = tfc_tensor_ref(v);
  s->shape = vs;
  s->written = true;
  return true;
}

/* Reads index into *out (a new reference) with TF's rules. Caller holds mu. */
static bool ta_read_locked(tfc_kernel_ctx *ctx, tensor_array *a, int64_t index, tfc_tensor **out) {
  if (a->closed)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "TensorArray %s has already been closed.", a->name);
  if (index < 0 || (!a->is_grad && index >= a->n))
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Tried to read from index %lld but array size is: %lld",
                           (long long)index, (long long)a->n);
  if (index >= a->n || !a->slots[index].written) {
    tfc_shape es;
    if (a->is_grad && index < a->n && a->slots[index].shape.rank > 0) {
      es = a->slots[index].shape;
    } else if (!tfc_shape_is_fully_defined(&a->element_shape)) {
      char b[96];
      tfc_shape_to_string(&a->element_shape, b, sizeof b);
      return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                             "TensorArray %s: Could not read from TensorArray index %lld.  Furthermore, "
                             "the element shape is not fully defined: %s.  It is possible you are "
                             "working with a resizeable TensorArray and stop_gradients is not allowing "
                             "the gradients to be written.  If you set the full element_shape property "
                             "on the forward TensorArray, the proper all-zeros tensor will be returned "
                             "instead of incurring this error.",
                             a->name, (long long)index, b);
    } else {
      es = a->element_shape;
    }
    int64_t old = a->n;
    if (index >= a->n && !ta_resize(ctx, a, index + 1)) return false;
    for (int64_t i = index >= old ? old : index; i <= index; i++) {
      a->slots[i].shape = es;
      a->slots[i].written = true;
    }
  }
  ta_slot *s = &a->slots[index];
  if (s->cleared)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "TensorArray %s: Could not read index %lld twice because it was cleared "
                           "after a previous read (perhaps try setting clear_after_read = false?).",
                           a->name, (long long)index);
  tfc_tensor *v = s->t;
  if (!v) {
    v = tfc_tensor_zeros(a->dtype, s->shape.rank, s->shape.dims, ctx->st);
    if (!v) return false;
  } else {
    tfc_tensor_ref(v);
  }
  if (a->clear_after_read) {
    tfc_tensor_unref(s->t);
    s->t = NULL;
    s->cleared = true;
  }
  s->read = true;
  *out = v;
  return true;
}

/* Reads an int32 index (scalar input i). */
static bool ta_scalar_index(tfc_kernel_ctx *ctx, int i, int64_t *out) {
  const tfc_tensor *t = ctx->inputs[i];
  if (t->rank != 0)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "TensorArray index must be scalar");
  *out = *(const int32_t *)t->data;
  return true;
}

/* TensorArrayWriteV3(handle, index, value, flow_in) -> flow_out. */
static void ta_write_compute(tfc_kernel_ctx *ctx) {
  tensor_array *a = ta_input(ctx);
  int64_t index = 0;
  if (!a || !ta_scalar_index(ctx, 1, &index)) return;
  pthread_mutex_lock(&a->mu);
  bool ok = ta_write_locked(ctx, a, index, ctx->inputs[2]);
  pthread_mutex_unlock(&a->mu);
  if (ok) tfc_kernel_forward(ctx, 3, 0);
}

/* TensorArrayReadV3(handle, index, flow_in) -> value. */
static void ta_read_compute(tfc_kernel_ctx *ctx) {
  tensor_array *a = ta_input(ctx);
  int64_t index = 0;
  if (!a || !ta_scalar_index(ctx, 1, &index)) return;
  tfc_tensor *v = NULL;
  pthread_mutex_lock(&a->mu);
  bool ok = ta_read_locked(ctx, a, index, &v);
  pthread_mutex_unlock(&a->mu);
  if (!ok) return;
  if (v->dtype != tfc_dtype_base(ctx->out_types[0])) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "TensorArray dtype is %s but Op requested dtype %s.", tfc_op_dtype_string(v->dtype),
                    tfc_op_dtype_string(ctx->out_types[0]));
    tfc_tensor_unref(v);
    return;
  }
  tfc_kernel_set_output(ctx, 0, v);
}

/* Copies n elements from src (from element so) into dst (from element dofs). */
static bool copy_elems(tfc_kernel_ctx *ctx, tfc_tensor *dst, int64_t dofs, const tfc_tensor *src, int64_t so,
                       int64_t n) {
  if (n <= 0) return true;
  if (dst->dtype == TFC_DTYPE_STRING) {
    const tfc_string *s = src->data;
    for (int64_t i = 0; i < n; i++)
      if (!tfc_tensor_set_string(dst, dofs + i, s[so + i].data, s[so + i].len, ctx->st)) return false;
    return true;
  }
  size_t es = tfc_dtype_size(dst->dtype);
  memcpy((char *)dst->data + (size_t)dofs * es, (const char *)src->data + (size_t)so * es, (size_t)n * es);
  return true;
}

/* Reads the elements at `idx` (n of them) and stacks them into a new tensor. */
static void ta_gather_compute(tfc_kernel_ctx *ctx) {
  tensor_array *a = ta_input(ctx);
  if (!a) return;
  const tfc_tensor *it = ctx->inputs[1];
  if (it->rank != 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "indices must be a vector");
    return;
  }
  int64_t n = it->nelems;
  const int32_t *idx = it->data;
  tfc_shape attr_es;
  if (!tfc_attrs_get_shape(ctx->attrs, "element_shape", &attr_es, ctx->st)) return;
  tfc_tensor **vals = tfc_calloc((size_t)(n ? n : 1), sizeof *vals);
  if (!vals) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in TensorArrayGather");
    return;
  }
  pthread_mutex_lock(&a->mu);
  bool ok = true;
  for (int64_t i = 0; i < n && ok; i++) ok = ta_read_locked(ctx, a, idx[i], &vals[i]);
  tfc_shape es = a->element_shape;
  pthread_mutex_unlock(&a->mu);
  tfc_tensor *out = NULL;
  if (ok && n == 0) {
    if (!tfc_shape_is_fully_defined(&es)) es = attr_es;
    if (!tfc_shape_is_fully_defined(&es)) {
      char b[96];
      tfc_shape_to_string(&es, b, sizeof b);
      ok = tfc_kernel_fail(ctx, TFC_CODE_UNIMPLEMENTED,
                           "TensorArray has size zero, but element shape %s is not fully defined. "
                           "Currently only static shapes are supported when packing zero-size "
                           "TensorArrays.", b);
    } else {
      int64_t dims[TFC_MAX_RANK];
      dims[0] = 0;
      for (int d = 0; d < es.rank && d + 1 < TFC_MAX_RANK; d++) dims[d + 1] = es.dims[d];
      out = tfc_tensor_new(a->dtype, es.rank + 1, dims, ctx->st);
      ok = out != NULL;
    }
  } else if (ok) {
    const tfc_tensor *v0 = vals[0];
    for (int64_t i = 1; i < n && ok; i++) {
      if (!tfc_tensor_same_shape(vals[i], v0)) {
        tfc_shape s0 = tfc_tensor_shape(v0), si = tfc_tensor_shape(vals[i]);
        char b1[96], b2[96];
        tfc_shape_to_string(&s0, b1, sizeof b1);
        tfc_shape_to_string(&si, b2, sizeof b2);
        ok = tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                             "TensorArray has inconsistent shapes.  Index 0 has shape: %s but index "
                             "%lld has shape: %s", b1, (long long)i, b2);
      }
    }
    if (ok && v0->rank + 1 > TFC_MAX_RANK)
      ok = tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "TensorArray elements have too many dimensions");
    if (ok) {
      int64_t dims[TFC_MAX_RANK];
      dims[0] = n;
      for (int d = 0; d < v0->rank; d++) dims[d + 1] = v0->dims[d];
      out = tfc_tensor_new(a->dtype, v0->rank + 1, dims, ctx->st);
      ok = out != NULL;
      for (int64_t i = 0; i < n && ok; i++) ok = copy_elems(ctx, out, i * v0->nelems, vals[i], 0, v0->nelems);
    }
  }
  for (int64_t i = 0; i < n; i++) tfc_tensor_unref(vals[i]);
  tfc_free(vals);
  if (ok)
    tfc_kernel_set_output(ctx, 0, out);
  else
    tfc_tensor_unref(out);
}

/* Writes rows [off, off+len) of value (along dim 0) at index; len < 0: one row, dim 0 dropped. */
static bool ta_write_rows(tfc_kernel_ctx *ctx, tensor_array *a, int64_t index, const tfc_tensor *value,
                          int64_t off, int64_t len) {
  int64_t row = value->dims[0] ? value->nelems / value->dims[0] : 0;
  int64_t dims[TFC_MAX_RANK];
  int rank;
  if (len < 0) {
    rank = value->rank - 1;
    for (int d = 1; d < value->rank; d++) dims[d - 1] = value->dims[d];
    len = 1;
  } else {
    rank = value->rank;
    dims[0] = len;
    for (int d = 1; d < value->rank; d++) dims[d] = value->dims[d];
  }
  tfc_tensor *t = tfc_tensor_new(value->dtype, rank, dims, ctx->st);
  if (!t) return false;
  bool ok = copy_elems(ctx, t, 0, value, off * row, len * row) && ta_write_locked(ctx, a, index, t);
  tfc_tensor_unref(t);
  return ok;
}

/* TensorArrayScatterV3(handle, indices, value, flow_in): value[i] goes to indices[i]. */
static void ta_scatter_compute(tfc_kernel_ctx *ctx) {
  tensor_array *a = ta_input(ctx);
  if (!a) return;
  const tfc_tensor *it = ctx->inputs[1], *value = ctx->inputs[2];
  if (it->rank != 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "indices must be a vector");
    return;
  }
  if (value->rank < 1 || value->dims[0] != it->nelems) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Expected len(indices) == values.shape[0], but saw: %lld vs. %lld",
                    (long long)it->nelems, (long long)(value->rank ? value->dims[0] : 0));
    return;
  }
  const int32_t *idx = it->data;
  pthread_mutex_lock(&a->mu);
  bool ok = true;
  if (a->dynamic_size) {
    int32_t mx = -1;
    for (int64_t i = 0; i < it->nelems; i++)
      if (idx[i] > mx) mx = idx[i];
    if (mx >= a->n) ok = ta_resize(ctx, a, (int64_t)mx + 1);
  }
  for (int64_t i = 0; i < it->nelems && ok; i++) ok = ta_write_rows(ctx, a, idx[i], value, i, -1);
  pthread_mutex_unlock(&a->mu);
  if (ok) tfc_kernel_forward(ctx, 3, 0);
}

/* TensorArrayConcatV3(handle, flow_in) -> (all elements concatenated on dim 0, their lengths). */
static void ta_concat_compute(tfc_kernel_ctx *ctx) {
  tensor_array *a = ta_input(ctx);
  if (!a) return;
  tfc_shape es0;
  if (!tfc_attrs_get_shape(ctx->attrs, "element_shape_except0", &es0, ctx->st)) return;
  pthread_mutex_lock(&a->mu);
  int64_t n = a->n;
  tfc_tensor **vals = tfc_calloc((size_t)(n ? n : 1), sizeof *vals);
  bool ok = vals != NULL;
  if (!ok) tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in TensorArrayConcat");
  for (int64_t i = 0; i < n && ok; i++) ok = ta_read_locked(ctx, a, i, &vals[i]);
  pthread_mutex_unlock(&a->mu);
  tfc_tensor *out = NULL, *lengths = NULL;
  if (ok) {
    int64_t ln = n;
    lengths = tfc_tensor_new(TFC_DTYPE_INT64, 1, &ln, ctx->st);
    ok = lengths != NULL;
  }
  int64_t total = 0;
  for (int64_t i = 0; i < n && ok; i++) {
    if (vals[i]->rank == 0) {
      ok = tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "Concat saw a scalar shape at index %lld but requires at least vectors.  Did "
                           "you mean to call TensorArray.pack instead?", (long long)i);
      break;
    }
    bool same = vals[i]->rank == vals[0]->rank;
    for (int d = 1; same && d < vals[i]->rank; d++) same = vals[i]->dims[d] == vals[0]->dims[d];
    if (!same) {
      ok = tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "TensorArray has inconsistent shapes.  Index 0 and index %lld differ "
                           "(excepting dimension 0).", (long long)i);
      break;
    }
    ((int64_t *)lengths->data)[i] = vals[i]->dims[0];
    total += vals[i]->dims[0];
  }
  if (ok) {
    int64_t dims[TFC_MAX_RANK];
    int rank;
    if (n == 0) {
      if (!tfc_shape_is_fully_defined(&es0)) {
        ok = tfc_kernel_fail(ctx, TFC_CODE_UNIMPLEMENTED,
                             "TensorArray has size zero, but element_shape_except0 is not fully "
                             "defined. Currently only static shapes are supported when concatenating "
                             "zero-size TensorArrays.");
      }
      rank = es0.rank + 1;
      dims[0] = 0;
      for (int d = 0; ok && d < es0.rank; d++) dims[d + 1] = es0.dims[d];
    } else {
      rank = vals[0]->rank;
      dims[0] = total;
      for (int d = 1; d < rank; d++) dims[d] = vals[0]->dims[d];
    }
    if (ok) {
      out = tfc_tensor_new(a->dtype, rank, dims, ctx->st);
      ok = out != NULL;
    }
    int64_t off = 0;
    for (int64_t i = 0; i < n && ok; i++) {
      ok = copy_elems(ctx, out, off, vals[i], 0, vals[i]->nelems);
      off += vals[i]->nelems;
    }
  }
  for (int64_t i = 0; i < n && vals; i++) tfc_tensor_unref(vals[i]);
  tfc_free(vals);
  if (ok) {
    tfc_kernel_set_output(ctx, 0, out);
    tfc_kernel_set_output(ctx, 1, lengths);
  } else {
    tfc_tensor_unref(out);
    tfc_tensor_unref(lengths);
  }
}

/* TensorArraySplitV3(handle, value, lengths, flow_in): element i = the next lengths[i] rows. */
static void ta_split_compute(tfc_kernel_ctx *ctx) {
  tensor_array *a = ta_input(ctx);
  if (!a) return;
  const tfc_tensor *value = ctx->inputs[1], *lt = ctx->inputs[2];
  if (lt->rank != 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Expected lengths to be a vector");
    return;
  }
  if (value->rank < 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Expected value to be at least a vector");
    return;
  }
  const int64_t *len = lt->data;
  int64_t sum = 0;
  for (int64_t i = 0; i < lt->nelems; i++) sum += len[i];
  if (sum != value->dims[0]) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Expected sum of lengths to be equal to values.shape[0], but sum of lengths is "
                    "%lld and value's shape[0] is: %lld",
                    (long long)sum, (long long)value->dims[0]);
    return;
  }
  pthread_mutex_lock(&a->mu);
  bool ok = true;
  if (!a->dynamic_size && lt->nelems != a->n) {
    ok = tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                         "TensorArray's size is not equal to the size of lengths (%lld vs. %lld), and "
                         "the TensorArray is not marked as dynamically resizeable",
                         (long long)a->n, (long long)lt->nelems);
  } else if (lt->nelems > a->n) {
    ok = ta_resize(ctx, a, lt->nelems);
  }
  int64_t off = 0;
  for (int64_t i = 0; i < lt->nelems && ok; i++) {
    ok = ta_write_rows(ctx, a, i, value, off, len[i]);
    off += len[i];
  }
  pthread_mutex_unlock(&a->mu);
  if (ok) tfc_kernel_forward(ctx, 3, 0);
}

/* TensorArraySizeV3(handle, flow_in) -> the current size (int32). */
static void ta_size_compute(tfc_kernel_ctx *ctx) {
  tensor_array *a = ta_input(ctx);
  if (!a) return;
  pthread_mutex_lock(&a->mu);
  int32_t n = (int32_t)a->n;
  bool closed = a->closed;
  pthread_mutex_unlock(&a->mu);
  if (closed) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "TensorArray %s has already been closed.", a->name);
    return;
  }
  tfc_tensor *t = tfc_tensor_scalar(TFC_DTYPE_INT32, &n, ctx->st);
  if (t) tfc_kernel_set_output(ctx, 0, t);
}

/* TensorArrayCloseV3(handle): drops the values; later uses fail. */
static void ta_close_compute(tfc_kernel_ctx *ctx) {
  tensor_array *a = ta_input(ctx);
  if (!a) return;
  pthread_mutex_lock(&a->mu);
  for (int64_t i = 0; i < a->n; i++) {
    tfc_tensor_unref(a->slots[i].t);
    a->slots[i].t = NULL;
  }
  a->closed = true;
  pthread_mutex_unlock(&a->mu);
}

static const tfc_kernel_def defs[] = {
    {"TensorArrayV3", "CPU", NULL, NULL, NULL, ta_create_compute, NULL, 0},
    {"TensorArrayGradV3", "CPU", NULL, NULL, NULL, ta_grad_compute, NULL, 0},
    {"TensorArrayWriteV3", "CPU", NULL, NULL, NULL, ta_write_compute, NULL, 0},
    {"TensorArrayReadV3", "CPU", NULL, NULL, NULL, ta_read_compute, NULL, 0},
    {"TensorArrayGatherV3", "CPU", NULL, NULL, NULL, ta_gather_compute, NULL, 0},
    {"TensorArrayScatterV3", "CPU", NULL, NULL, NULL, ta_scatter_compute, NULL, 0},
    {"TensorArrayConcatV3", "CPU", NULL, NULL, NULL, ta_concat_compute, NULL, 0},
    {"TensorArraySplitV3", "CPU", NULL, NULL, NULL, ta_split_compute, NULL, 0},
    {"TensorArraySizeV3", "CPU", NULL, NULL, NULL, ta_size_compute, NULL, 0},
    {"TensorArrayCloseV3", "CPU", NULL, NULL, NULL, ta_close_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_tensor_array = {defs, (int)(sizeof defs / sizeof defs[0])};
