/*
 * object.h — refcounted C objects that tensors of type resource or variant
 * hold (queues, readers, datasets, iterators).
 *
 * A DT_RESOURCE or DT_VARIANT tensor made by tfc_tensor_new_objects holds one
 * tfc_object pointer per element (NULL until set); the tensor's buffer owns a
 * reference to each, dropped when the buffer is freed. Such tensors flow
 * through the executor like any other (Identity, _Send/_Recv in a process)
 * but cannot be copied to NumPy or serialised.
 *
 * An object type is a static table: its name (for messages and to tell
 * kinds apart) and the destructor the last unref calls.
 */
#ifndef TFC_CORE_OBJECT_H
#define TFC_CORE_OBJECT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/status.h"
#include "core/dtype.h"

struct tfc_object;
struct tfc_tensor;

typedef struct tfc_object_type {
  const char *name;                        /* "FIFOQueue", "TFRecordReader", "Dataset", ... */
  void (*destroy)(struct tfc_object *obj); /* frees the object (its first member is the header) */
} tfc_object_type;

typedef struct tfc_object {
  atomic_int refcount;
  const tfc_object_type *type;
} tfc_object;

/* Initialises the header of a new object with one reference. */
void tfc_object_init(tfc_object *o, const tfc_object_type *type);
/* Adds a reference; returns o. NULL-safe. */
tfc_object *tfc_object_ref(tfc_object *o);
/* Drops a reference; the last one calls type->destroy. NULL-safe. */
void tfc_object_unref(tfc_object *o);

/* A new tensor of dtype RESOURCE or VARIANT whose elements are tfc_object
 * pointers, all NULL. NULL + st (INVALID_ARGUMENT for another dtype,
 * RESOURCE_EXHAUSTED on OOM). */
struct tfc_tensor *tfc_tensor_new_objects(tfc_dtype dtype, int rank, const int64_t *dims, tfc_status *st);
/* A scalar RESOURCE/VARIANT tensor holding a new reference to o. */
struct tfc_tensor *tfc_tensor_object_scalar(tfc_dtype dtype, tfc_object *o, tfc_status *st);
/* Element i of an object tensor (borrowed), or NULL when t is not one. */
tfc_object *tfc_tensor_object_at(const struct tfc_tensor *t, int64_t i);
/* Sets element i of an object tensor to a new reference of o (dropping the old one). */
void tfc_tensor_object_set(struct tfc_tensor *t, int64_t i, tfc_object *o);
/* True when dtype holds objects (RESOURCE, VARIANT). */
static inline bool tfc_dtype_holds_objects(tfc_dtype t) {
  t = tfc_dtype_base(t);
  return t == TFC_DTYPE_RESOURCE || t == TFC_DTYPE_VARIANT;
}

#endif
