/*
 * tensor.c — refcounted tensor headers over refcounted buffers.
 *
 * Owned buffers are one tfc_aligned_alloc block: the tfc_buffer struct padded
 * to TFC_ALIGN bytes, then the data (so data is 64-byte aligned); they have
 * release == NULL and are freed with tfc_aligned_free(buf). Borrowed buffers
 * (tfc_tensor_wrap) are a tfc_malloc'd struct whose data is released through
 * the callback. Empty tensors made by tfc_tensor_new have no buffer
 * (buf == NULL, data == NULL).
 */
#include "core/tensor.h"

#include "core/object.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"

#define BUF_HEADER ((sizeof(tfc_buffer) + TFC_ALIGN - 1) / TFC_ALIGN * TFC_ALIGN)

/* Checks rank/dims and computes the element count. false + INVALID_ARGUMENT
 * for a bad rank, a negative dim, or a count whose byte size overflows. */
static bool check_dims(tfc_dtype dtype, int rank, const int64_t *dims, int64_t *nelems,
                       tfc_status *st) {
  if (rank < 0 || rank > TFC_MAX_RANK)
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Tensor rank %d out of range [0, %d]",
                          rank, TFC_MAX_RANK);
  int64_t n = 1;
  for (int i = 0; i < rank; i++) {
    if (dims[i] < 0)
      return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                            "Dimension %d must be >= 0, got %lld", i, (long long)dims[i]);
    if (__builtin_mul_overflow(n, dims[i], &n))
      return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                            "Encountered overflow when multiplying shape dimensions");
  }
  size_t bytes;
  if (n > 0 && (__builtin_mul_overflow((size_t)n, tfc_dtype_size(dtype), &bytes) ||
                bytes > (size_t)PTRDIFF_MAX - BUF_HEADER))
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                          "Tensor of %lld %s elements is too large", (long long)n,
                          tfc_dtype_name(dtype));
  *nelems = n;
  return true;
}

/* Writes "[d0,d1,...]" for messages. */
static void dims_text(int rank, const int64_t *dims, char *buf, size_t cap) {
  size_t pos = 0;
  buf[0] = '\0';
  pos += (size_t)snprintf(buf, cap, "[");
  for (int i = 0; i < rank && pos < cap; i++)
    pos += (size_t)snprintf(buf + pos, cap - pos, "%s%lld", i ? "," : "", (long long)dims[i]);
  if (pos < cap) snprintf(buf + pos, cap - pos, "]");
}

/* A fresh header with refcount 1 and the given shape; NULL on OOM (st set). */
static tfc_tensor *new_header(tfc_dtype dtype, int rank, const int64_t *dims, int64_t nelems,
                              tfc_status *st) {
  tfc_tensor *t = tfc_malloc(sizeof *t);
  if (!t) {
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM when allocating a tensor header");
    return NULL;
  }
  memset(t, 0, sizeof *t);
  atomic_init(&t->refcount, 1);
  t->dtype = dtype;
  t->rank = rank;
  if (rank) memcpy(t->dims, dims, (size_t)rank * sizeof(int64_t));
  t->nelems = nelems;
  return t;
}

/* Owner marker of object-array buffers (tfc_tensor_new_objects): their
 * elements are tfc_object pointers, also for RESOURCE (whose other tensors
 * hold serialized ResourceHandleProto strings). */
static const char k_objects_tag[] = "tfc-objects";

/* Drops one buffer reference; the last one frees string elements and the
 * memory (or calls the release callback for borrowed memory). */
static void buffer_unref(tfc_buffer *b) {
  if (!b || atomic_fetch_sub_explicit(&b->refcount, 1, memory_order_acq_rel) != 1) return;
  if (b->release) {
    b->release(b->owner, b->data);
    tfc_free(b);
    return;
  }
  if (b->owner == k_objects_tag || tfc_dtype_base(b->dtype) == TFC_DTYPE_VARIANT) {
    tfc_object **o = b->data;
    for (size_t i = 0; i < b->nstrings; i++) tfc_object_unref(o[i]);
  } else if (tfc_dtype_is_stringlike(b->dtype)) {
    tfc_string *s = b->data;
    for (size_t i = 0; i < b->nstrings; i++) tfc_free(s[i].data);
  }
  tfc_aligned_free(b);
}

/* Uninitialised tensor (STRING elements zeroed); a ref dtype is taken as its
 * base type. NULL + INVALID_ARGUMENT (bad dtype/dims) or RESOURCE_EXHAUSTED. */
tfc_tensor *tfc_tensor_new(tfc_dtype dtype, int rank, const int64_t *dims, tfc_status *st) {
  dtype = tfc_dtype_base(dtype);
  if (!tfc_dtype_is_supported(dtype)) {
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Cannot allocate a tensor of type %s",
                   tfc_dtype_name(dtype));
    return NULL;
  }
  int64_t n;
  if (!check_dims(dtype, rank, dims, &n, st)) return NULL;
  tfc_tensor *t = new_header(dtype, rank, dims, n, st);
  if (!t || n == 0) return t;
  size_t bytes = (size_t)n * tfc_dtype_size(dtype);
  tfc_buffer *b = tfc_aligned_alloc(BUF_HEADER + bytes);
  if (!b) {
    char shape[128];
    dims_text(rank, dims, shape, sizeof shape);
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED,
                   "OOM when allocating tensor with shape%s and type %s", shape,
                   tfc_dtype_name(dtype));
    tfc_free(t);
    return NULL;
  }
  atomic_init(&b->refcount, 1);
  b->data = (char *)b + BUF_HEADER;
  b->size = bytes;
  b->dtype = dtype;
  b->nstrings = tfc_dtype_is_stringlike(dtype) ? (size_t)n : 0;
  b->release = NULL;
  b->owner = NULL;
  if (tfc_dtype_is_stringlike(dtype)) memset(b->data, 0, bytes);
  t->buf = b;
  t->data = b->data;
  return t;
}

/* A RESOURCE/VARIANT tensor of NULL object pointers (see core/object.h);
 * the buffer's nstrings counts the objects it drops when freed. */
tfc_tensor *tfc_tensor_new_objects(tfc_dtype dtype, int rank, const int64_t *dims, tfc_status *st) {
  dtype = tfc_dtype_base(dtype);
  if (!tfc_dtype_holds_objects(dtype)) {
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Cannot make an object tensor of type %s",
                   tfc_dtype_name(dtype));
    return NULL;
  }
  int64_t n;
  if (!check_dims(TFC_DTYPE_INT64, rank, dims, &n, st)) return NULL;
  tfc_tensor *t = new_header(dtype, rank, dims, n, st);
  if (!t || n == 0) return t;
  size_t bytes = (size_t)n * sizeof(tfc_object *);
  tfc_buffer *b = tfc_aligned_alloc(BUF_HEADER + bytes);
  if (!b) {
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM when allocating a %s tensor", tfc_dtype_name(dtype));
    tfc_free(t);
    return NULL;
  }
  atomic_init(&b->refcount, 1);
  b->data = (char *)b + BUF_HEADER;
  b->size = bytes;
  b->dtype = dtype;
  b->nstrings = (size_t)n;
  b->release = NULL;
  b->owner = (void *)k_objects_tag;
  memset(b->data, 0, bytes);
  t->buf = b;
  t->data = b->data;
  return t;
}

/* tfc_tensor_new with zero-filled data. */
tfc_tensor *tfc_tensor_zeros(tfc_dtype dtype, int rank, const int64_t *dims, tfc_status *st) {
  tfc_tensor *t = tfc_tensor_new(dtype, rank, dims, st);
  if (t && t->data) memset(t->data, 0, tfc_tensor_nbytes(t));
  return t;
}

/* Scalar holding a copy of *value (a tfc_string for STRING; NULL value gives
 * zero / the empty string). */
tfc_tensor *tfc_tensor_scalar(tfc_dtype dtype, const void *value, tfc_status *st) {
  tfc_tensor *t = tfc_tensor_zeros(dtype, 0, NULL, st);
  if (!t || !value) return t;
  if (tfc_dtype_is_stringlike(t->dtype)) {
    const tfc_string *s = value;
    if (!tfc_tensor_set_string(t, 0, s->data, s->len, st)) {
      tfc_tensor_unref(t);
      return NULL;
    }
  } else {
    memcpy(t->data, value, tfc_dtype_size(t->dtype));
  }
  return t;
}

/* Release callback for wrapped memory that needs no release. */
static void noop_release(void *owner, void *data) {
  (void)owner;
  (void)data;
}

/* Tensor over borrowed memory; release(owner, data) runs when the last
 * reference drops (also for an empty tensor). The memory is only as aligned
 * as the caller made it. Not for STRING. On failure release is not called. */
tfc_tensor *tfc_tensor_wrap(tfc_dtype dtype, int rank, const int64_t *dims, void *data,
                            tfc_release_fn release, void *owner, tfc_status *st) {
  dtype = tfc_dtype_base(dtype);
  if (!tfc_dtype_is_supported(dtype) || tfc_dtype_is_stringlike(dtype)) {
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Cannot wrap memory as a tensor of type %s",
                   tfc_dtype_name(dtype));
    return NULL;
  }
  int64_t n;
  if (!check_dims(dtype, rank, dims, &n, st)) return NULL;
  tfc_tensor *t = new_header(dtype, rank, dims, n, st);
  if (!t) return NULL;
  tfc_buffer *b = tfc_malloc(sizeof *b);
  if (!b) {
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM when wrapping a tensor buffer");
    tfc_free(t);
    return NULL;
  }
  atomic_init(&b->refcount, 1);
  b->data = data;
  b->size = (size_t)n * tfc_dtype_size(dtype);
  b->dtype = dtype;
  b->nstrings = 0;
  b->release = release ? release : noop_release; /* non-NULL marks borrowed memory */
  b->owner = owner;
  t->buf = b;
  t->data = data;
  return t;
}

/* Owned buffers put their header in the first TFC_ALIGN bytes of the block,
 * which is the layout tfc_tensor_adopt accepts. */
_Static_assert(BUF_HEADER == TFC_ALIGN, "a tensor buffer header fills one alignment unit");

/* Tensor owning `block` (tfc_aligned_alloc(TFC_ALIGN + nbytes), elements
 * from block + TFC_ALIGN on): the buffer header is written into the block's
 * first TFC_ALIGN bytes, so the result is an owned buffer like
 * tfc_tensor_new's. An empty shape frees the block at once. On failure
 * (NULL + st) the caller still owns block. Not for STRING. */
tfc_tensor *tfc_tensor_adopt(tfc_dtype dtype, int rank, const int64_t *dims, void *block,
                             tfc_status *st) {
  dtype = tfc_dtype_base(dtype);
  if (!tfc_dtype_is_supported(dtype) || tfc_dtype_is_stringlike(dtype)) {
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Cannot adopt memory as a tensor of type %s",
                   tfc_dtype_name(dtype));
    return NULL;
  }
  int64_t n;
  if (!check_dims(dtype, rank, dims, &n, st)) return NULL;
  tfc_tensor *t = new_header(dtype, rank, dims, n, st);
  if (!t) return NULL;
  if (n == 0) {
    tfc_aligned_free(block);
    return t;
  }
  tfc_buffer *b = block;
  atomic_init(&b->refcount, 1);
  b->data = (char *)b + BUF_HEADER;
  b->size = (size_t)n * tfc_dtype_size(dtype);
  b->dtype = dtype;
  b->nstrings = 0;
  b->release = NULL;
  b->owner = NULL;
  t->buf = b;
  t->data = b->data;
  return t;
}

/* Release marker for handle buffers: identifies tensors made by tfc_tensor_handle. */
static const char k_handle_tag[] = "tfc-handle";

/* A scalar RESOURCE tensor whose buffer stands for obj: data and owner are
 * obj, size is 0; release(obj, obj) runs with the last buffer reference. */
tfc_tensor *tfc_tensor_handle(void *obj, tfc_release_fn release, tfc_status *st) {
  tfc_tensor *t = new_header(TFC_DTYPE_RESOURCE, 0, NULL, 1, st);
  if (!t) return NULL;
  tfc_buffer *b = tfc_malloc(sizeof *b);
  if (!b) {
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM when allocating a resource handle");
    tfc_free(t);
    return NULL;
  }
  atomic_init(&b->refcount, 1);
  b->data = obj;
  b->size = 0;
  b->dtype = TFC_DTYPE_RESOURCE;
  b->nstrings = (size_t)(uintptr_t)k_handle_tag; /* tag; never used as a count for RESOURCE */
  b->release = release ? release : noop_release;
  b->owner = obj;
  t->buf = b;
  t->data = obj;
  return t;
}

/* The object of a handle tensor, NULL for anything else. */
void *tfc_tensor_handle_object(const tfc_tensor *t) {
  if (!t || t->dtype != TFC_DTYPE_RESOURCE || !t->buf) return NULL;
  if (t->buf->nstrings != (size_t)(uintptr_t)k_handle_tag) return NULL;
  return t->buf->owner;
}

/* Object array or VARIANT tensor (see tensor.h). */
bool tfc_tensor_is_object_array(const tfc_tensor *t) {
  if (!t) return false;
  if (tfc_dtype_base(t->dtype) == TFC_DTYPE_VARIANT) return true;
  return t->buf && t->buf->owner == k_objects_tag;
}

/* Object array or tfc_tensor_handle handle (see tensor.h). */
bool tfc_tensor_is_local_handle(const tfc_tensor *t) {
  return tfc_tensor_is_object_array(t) || tfc_tensor_handle_object(t) != NULL;
}

/* A new header with another shape of the same element count sharing t's buffer. */
tfc_tensor *tfc_tensor_reshaped(tfc_tensor *t, int rank, const int64_t *dims, tfc_status *st) {
  int64_t n;
  if (!check_dims(t->dtype, rank, dims, &n, st)) return NULL;
  if (n != t->nelems) {
    char want[128];
    dims_text(rank, dims, want, sizeof want);
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                   "Cannot reshape a tensor with %lld elements to shape %s (%lld elements)",
                   (long long)t->nelems, want, (long long)n);
    return NULL;
  }
  tfc_tensor *r = new_header(t->dtype, rank, dims, n, st);
  if (!r) return NULL;
  r->buf = t->buf;
  r->data = t->data;
  if (r->buf) atomic_fetch_add_explicit(&r->buf->refcount, 1, memory_order_relaxed);
  return r;
}

/* Deep copy into a new owned buffer (STRING elements duplicated). */
tfc_tensor *tfc_tensor_copy(const tfc_tensor *t, tfc_status *st) {
  /* handles of process-local objects are shared, never duplicated */
  if (tfc_tensor_is_local_handle(t)) return tfc_tensor_ref((tfc_tensor *)t);
  tfc_tensor *c = tfc_tensor_new(t->dtype, t->rank, t->dims, st);
  if (!c || c->nelems == 0) return c;
  if (!tfc_dtype_is_stringlike(t->dtype)) {
    memcpy(c->data, t->data, tfc_tensor_nbytes(t));
    return c;
  }
  const tfc_string *src = t->data;
  for (int64_t i = 0; i < t->nelems; i++) {
    if (!tfc_tensor_set_string(c, i, src[i].data, src[i].len, st)) {
      tfc_tensor_unref(c);
      return NULL;
    }
  }
  return c;
}

/* Adds a reference; NULL-safe. */
tfc_tensor *tfc_tensor_ref(tfc_tensor *t) {
  if (t) atomic_fetch_add_explicit(&t->refcount, 1, memory_order_relaxed);
  return t;
}

/* Drops a reference; the last frees the header and drops its buffer. NULL-safe. */
void tfc_tensor_unref(tfc_tensor *t) {
  if (!t || atomic_fetch_sub_explicit(&t->refcount, 1, memory_order_acq_rel) != 1) return;
  buffer_unref(t->buf);
  tfc_free(t);
}

/* True when the caller holds the only reference to t and to its buffer, and
 * the buffer is tfc-owned (borrowed memory, e.g. a NumPy array, is never
 * exclusive: its owner can still see it). */
bool tfc_tensor_is_exclusive(const tfc_tensor *t) {
  if (atomic_load_explicit(&((tfc_tensor *)t)->refcount, memory_order_acquire) != 1) return false;
  if (!t->buf) return true;
  if (t->buf->release) return false;
  return atomic_load_explicit(&t->buf->refcount, memory_order_acquire) == 1;
}

/* The shape of t. */
tfc_shape tfc_tensor_shape(const tfc_tensor *t) { return tfc_shape_make(t->rank, t->dims); }

/* nelems * element size. */
size_t tfc_tensor_nbytes(const tfc_tensor *t) {
  return (size_t)t->nelems * tfc_dtype_size(t->dtype);
}

/* Same rank and dims. */
bool tfc_tensor_same_shape(const tfc_tensor *a, const tfc_tensor *b) {
  if (a->rank != b->rank) return false;
  for (int i = 0; i < a->rank; i++)
    if (a->dims[i] != b->dims[i]) return false;
  return true;
}

/* Replaces string element i with a NUL-terminated copy of (s, len).
 * false + INVALID_ARGUMENT (not STRING / index out of range) or RESOURCE_EXHAUSTED. */
bool tfc_tensor_set_string(tfc_tensor *t, int64_t i, const char *s, size_t len, tfc_status *st) {
  if (!tfc_dtype_is_stringlike(t->dtype))
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Tensor of type %s is not a string tensor",
                          tfc_dtype_name(t->dtype));
  if (i < 0 || i >= t->nelems)
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                          "String index %lld out of range for %lld elements", (long long)i,
                          (long long)t->nelems);
  char *copy = NULL;
  if (len) {
    if (len == SIZE_MAX || !(copy = tfc_malloc(len + 1)))
      return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM when copying a %zu-byte string",
                            len);
    memcpy(copy, s, len);
    copy[len] = '\0';
  }
  tfc_string *e = (tfc_string *)t->data + i;
  tfc_free(e->data);
  e->data = copy;
  e->len = len;
  return true;
}

/* Element i as a double: the real part for complex types, the raw integer for
 * quantized types, 0/1 for bool; 0 for STRING, other types or i out of range. */
double tfc_tensor_get_double(const tfc_tensor *t, int64_t i) {
  if (i < 0 || i >= t->nelems) return 0.0;
  const void *p = (const char *)t->data + (size_t)i * tfc_dtype_size(t->dtype);
  switch (t->dtype) {
    case TFC_DTYPE_FLOAT: return *(const float *)p;
    case TFC_DTYPE_DOUBLE: return *(const double *)p;
    case TFC_DTYPE_HALF: return tfc_half_to_float(*(const uint16_t *)p);
    case TFC_DTYPE_BFLOAT16: return tfc_bfloat16_to_float(*(const uint16_t *)p);
    case TFC_DTYPE_COMPLEX64: return *(const float *)p;
    case TFC_DTYPE_COMPLEX128: return *(const double *)p;
    case TFC_DTYPE_UINT64: return (double)*(const uint64_t *)p;
    default: return (double)tfc_tensor_get_int64(t, i);
  }
}

/* Element i as an int64: floats truncated toward zero (saturating at the
 * int64 range, NaN → 0), bool as 0/1, uint64 wrapped; 0 for STRING, other
 * types or i out of range. */
int64_t tfc_tensor_get_int64(const tfc_tensor *t, int64_t i) {
  if (i < 0 || i >= t->nelems) return 0;
  const void *p = (const char *)t->data + (size_t)i * tfc_dtype_size(t->dtype);
  switch (t->dtype) {
    case TFC_DTYPE_INT8: case TFC_DTYPE_QINT8: return *(const int8_t *)p;
    case TFC_DTYPE_UINT8: case TFC_DTYPE_QUINT8: return *(const uint8_t *)p;
    case TFC_DTYPE_INT16: case TFC_DTYPE_QINT16: return *(const int16_t *)p;
    case TFC_DTYPE_UINT16: case TFC_DTYPE_QUINT16: return *(const uint16_t *)p;
    case TFC_DTYPE_INT32: case TFC_DTYPE_QINT32: return *(const int32_t *)p;
    case TFC_DTYPE_UINT32: return *(const uint32_t *)p;
    case TFC_DTYPE_INT64: return *(const int64_t *)p;
    case TFC_DTYPE_UINT64: return (int64_t)*(const uint64_t *)p;
    case TFC_DTYPE_BOOL: return *(const uint8_t *)p != 0;
    case TFC_DTYPE_FLOAT: case TFC_DTYPE_DOUBLE: case TFC_DTYPE_HALF: case TFC_DTYPE_BFLOAT16:
    case TFC_DTYPE_COMPLEX64: case TFC_DTYPE_COMPLEX128: {
      double d = tfc_tensor_get_double(t, i);
      if (d != d) return 0;
      if (d >= 9223372036854775807.0) return INT64_MAX;
      if (d <= -9223372036854775808.0) return INT64_MIN;
      return (int64_t)d;
    }
    default: return 0;
  }
}
