/*
 * object.c — refcounting of the C objects held by resource and variant
 * tensors (see object.h); the tensors themselves are made in tensor.c.
 */
#include "core/object.h"

#include "core/tensor.h"

/* Sets the header: one reference, the given type. */
void tfc_object_init(tfc_object *o, const tfc_object_type *type) {
  atomic_init(&o->refcount, 1);
  o->type = type;
}

/* Adds a reference; NULL-safe. */
tfc_object *tfc_object_ref(tfc_object *o) {
  if (o) atomic_fetch_add_explicit(&o->refcount, 1, memory_order_relaxed);
  return o;
}

/* Drops a reference; the last calls the type's destructor. NULL-safe. */
void tfc_object_unref(tfc_object *o) {
  if (!o || atomic_fetch_sub_explicit(&o->refcount, 1, memory_order_acq_rel) != 1) return;
  o->type->destroy(o);
}

/* Scalar object tensor holding a new reference to o. */
tfc_tensor *tfc_tensor_object_scalar(tfc_dtype dtype, tfc_object *o, tfc_status *st) {
  tfc_tensor *t = tfc_tensor_new_objects(dtype, 0, NULL, st);
  if (t) ((tfc_object **)t->data)[0] = tfc_object_ref(o);
  return t;
}

/* Element i (borrowed) or NULL when t holds no objects or i is out of range. */
tfc_object *tfc_tensor_object_at(const tfc_tensor *t, int64_t i) {
  if (!t || !tfc_tensor_is_object_array(t) || i < 0 || i >= t->nelems || !t->data) return NULL;
  return ((tfc_object *const *)t->data)[i];
}

/* Replaces element i with a new reference to o. */
void tfc_tensor_object_set(tfc_tensor *t, int64_t i, tfc_object *o) {
  tfc_object **slot = &((tfc_object **)t->data)[i];
  tfc_object *old = *slot;
  *slot = tfc_object_ref(o);
  tfc_object_unref(old);
}
