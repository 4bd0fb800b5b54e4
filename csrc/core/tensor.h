/*
 * tensor.h — refcounted dense tensors over refcounted, 64-byte aligned buffers.
 *
 * A tfc_buffer owns bytes (or borrows them from an owner such as a NumPy
 * array, released through a callback). A tfc_tensor is a refcounted header:
 * dtype, concrete shape, and a view on a buffer. Reshape-like ops share the
 * buffer; a tensor's data may be mutated in place only by its creator before it
 * is shared, or by a variable update when tfc_tensor_is_exclusive() says no
 * one else can observe it (copy-on-write for variables).
 *
 * DT_STRING tensors hold tfc_string elements whose bytes the buffer frees.
 */
#ifndef TFC_CORE_TENSOR_H
#define TFC_CORE_TENSOR_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "core/dtype.h"
#include "core/shape.h"

typedef void (*tfc_release_fn)(void *owner, void *data);

typedef struct tfc_buffer {
  atomic_int refcount;
  void *data;
  size_t size;             /* bytes */
  tfc_dtype dtype;         /* for STRING: elements are freed on release */
  size_t nstrings;         /* STRING element count owned */
  tfc_release_fn release;  /* NULL: data came from tfc_aligned_alloc */
  void *owner;
} tfc_buffer;

typedef struct tfc_tensor {
  atomic_int refcount;
  tfc_dtype dtype;             /* always a base type */
  int rank;                    /* 0..TFC_MAX_RANK */
  int64_t dims[TFC_MAX_RANK];
  int64_t nelems;
  tfc_buffer *buf;             /* NULL only when nelems == 0 */
  void *data;                  /* == buf->data + offset (NULL when empty) */
} tfc_tensor;

/* Allocates an uninitialised tensor (STRING elements zeroed). NULL on OOM or
 * invalid dtype/dims, with st set (RESOURCE_EXHAUSTED / INVALID_ARGUMENT). */
tfc_tensor *tfc_tensor_new(tfc_dtype dtype, int rank, const int64_t *dims, tfc_status *st);
/* Same as tfc_tensor_new, data zero-filled. */
tfc_tensor *tfc_tensor_zeros(tfc_dtype dtype, int rank, const int64_t *dims, tfc_status *st);
/* A scalar tensor holding *value (dtype-size bytes; for STRING a tfc_string to copy). */
tfc_tensor *tfc_tensor_scalar(tfc_dtype dtype, const void *value, tfc_status *st);
/* A tensor viewing borrowed memory: release(owner, data) runs when the last
 * reference drops. Not for STRING. On failure release is NOT called. */
tfc_tensor *tfc_tensor_wrap(tfc_dtype dtype, int rank, const int64_t *dims, void *data,
                            tfc_release_fn release, void *owner, tfc_status *st);
/* A tensor taking over `block`, a tfc_aligned_alloc(TFC_ALIGN + nbytes) block
 * whose elements the caller wrote from block + TFC_ALIGN on (the first
 * TFC_ALIGN bytes become the buffer header): an owned buffer, as from
 * tfc_tensor_new, without copying the elements. An empty shape frees the
 * block. Not for STRING. On failure (NULL + st) the caller still owns block. */
tfc_tensor *tfc_tensor_adopt(tfc_dtype dtype, int rank, const int64_t *dims, void *block,
                             tfc_status *st);
/* A new header with another shape (same element count) sharing t's buffer. */
tfc_tensor *tfc_tensor_reshaped(tfc_tensor *t, int rank, const int64_t *dims, tfc_status *st);
/* Deep copy (STRING elements duplicated). */
tfc_tensor *tfc_tensor_copy(const tfc_tensor *t, tfc_status *st);

/* A scalar RESOURCE tensor standing for `obj` (a handle: stacks, tensor
 * arrays). release(obj, obj) runs when the last reference to the handle
 * drops; copies of the tensor share the handle. NULL + st on OOM (release is
 * then NOT called). */
tfc_tensor *tfc_tensor_handle(void *obj, tfc_release_fn release, tfc_status *st);
/* The object behind a handle made by tfc_tensor_handle, or NULL when t is not
 * such a handle (another dtype, or a RESOURCE tensor from elsewhere). */
void *tfc_tensor_handle_object(const tfc_tensor *t);
/* True when t's elements are process-local objects rather than values: an
 * object array from tfc_tensor_new_objects (queues, readers, datasets,
 * iterators; every DT_VARIANT tensor) or a handle from tfc_tensor_handle
 * (stacks, tensor arrays). Such a RESOURCE tensor is not a serialized
 * ResourceHandleProto and cannot be fetched, serialized or sent to a peer. */
bool tfc_tensor_is_local_handle(const tfc_tensor *t);
/* True when t is an object array made by tfc_tensor_new_objects (or any
 * DT_VARIANT tensor): t->data is then an array of tfc_object pointers. */
bool tfc_tensor_is_object_array(const tfc_tensor *t);

/* Adds a reference; returns t. NULL-safe. */
tfc_tensor *tfc_tensor_ref(tfc_tensor *t);
/* Drops a reference, freeing header and (when last) buffer. NULL-safe. */
void tfc_tensor_unref(tfc_tensor *t);
/* True when only the caller holds t and its buffer (safe to write in place). */
bool tfc_tensor_is_exclusive(const tfc_tensor *t);

/* The shape of t as a tfc_shape. */
tfc_shape tfc_tensor_shape(const tfc_tensor *t);
/* Bytes of data (nelems * dtype size). */
size_t tfc_tensor_nbytes(const tfc_tensor *t);
/* True when a and b have the same rank and dims. */
bool tfc_tensor_same_shape(const tfc_tensor *a, const tfc_tensor *b);
/* Replaces string element i with a copy of (s, len). false + st on OOM. */
bool tfc_tensor_set_string(tfc_tensor *t, int64_t i, const char *s, size_t len, tfc_status *st);
/* Reads element i of a numeric/bool tensor as double / int64 (for index args, tests). */
double tfc_tensor_get_double(const tfc_tensor *t, int64_t i);
int64_t tfc_tensor_get_int64(const tfc_tensor *t, int64_t i);

#endif
