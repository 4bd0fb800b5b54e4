/*
 * resource.h — per-session resources that outlive a step: variables.
 *
 * A tfc_var is the storage behind a VariableV2 node (TF's ref variable).
 * Its value is NULL until first assigned. Readers take a reference to the
 * current value under the lock; writers replace or update it in place only
 * when no reader holds it (tfc_tensor_is_exclusive), so a tensor handed to
 * Python never changes behind its back.
 */
#ifndef TFC_CORE_RESOURCE_H
#define TFC_CORE_RESOURCE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "base/hashmap.h"
#include "base/status.h"
#include "core/object.h"
#include "core/shape.h"
#include "core/tensor.h"

typedef struct tfc_var {
  atomic_int refcount;
  pthread_mutex_t mu;
  tfc_tensor *value;    /* NULL while uninitialized */
  tfc_dtype dtype;      /* base type */
  tfc_shape shape;      /* declared shape (may be partial) */
  char *name;           /* the node name, for messages */
} tfc_var;

typedef struct tfc_resource_mgr {
  pthread_mutex_t mu;
  tfc_hashmap vars;     /* "container\0name" -> tfc_var* ("" = "localhost") */
  tfc_hashmap objects;  /* "container\0name" -> tfc_object* (queues, readers, ...) */
} tfc_resource_mgr;

/* New empty manager; NULL on OOM. */
tfc_resource_mgr *tfc_resource_mgr_new(void);
/* Frees the manager and drops its variable references. */
void tfc_resource_mgr_free(tfc_resource_mgr *m);
/* Returns a new reference to the variable (container, name), creating it
 * uninitialized with dtype/shape when absent. NULL + st on OOM or when an
 * existing variable has another dtype (INVALID_ARGUMENT). */
tfc_var *tfc_resource_var(tfc_resource_mgr *m, const char *container, const char *name,
                          tfc_dtype dtype, const tfc_shape *shape, tfc_status *st);
/* Drops every variable (Session reset). */
void tfc_resource_mgr_clear(tfc_resource_mgr *m);

tfc_var *tfc_var_ref(tfc_var *v);
void tfc_var_unref(tfc_var *v);
/* A new reference to the current value or NULL when uninitialized. */
tfc_tensor *tfc_var_read(tfc_var *v);
/* Replaces the value with t (takes the caller's reference). */
void tfc_var_set(tfc_var *v, tfc_tensor *t);

/* Creates a new object (one reference) for tfc_resource_object; NULL + st on failure. */
typedef tfc_object *(*tfc_object_create_fn)(void *arg, tfc_status *st);
/* A new reference to the object (container, name) of `type`, made with
 * create(arg) when absent (under the manager's lock: create must not call
 * back into the manager). NULL + st when create fails or an object of
 * another type has that name (INVALID_ARGUMENT). */
tfc_object *tfc_resource_object(tfc_resource_mgr *m, const char *container, const char *name,
                                const tfc_object_type *type, tfc_object_create_fn create, void *arg,
                                tfc_status *st);

/* The container used when a node's `container` attr is empty (TF's default). */
#define TFC_RESOURCE_DEFAULT_CONTAINER "localhost"

/* A new reference to an existing variable, or NULL when (container, name)
 * is not present. Never creates. */
tfc_var *tfc_resource_lookup(tfc_resource_mgr *m, const char *container, const char *name);
/* Removes (container, name) from the manager, dropping the manager's
 * reference; returns false when it was not present. */
bool tfc_resource_remove(tfc_resource_mgr *m, const char *container, const char *name);
/* Drops every variable of one container (Session.reset(containers)); "" is
 * the default container. Returns the number of variables dropped. */
int tfc_resource_mgr_clear_container(tfc_resource_mgr *m, const char *container);
/* Number of variables held (all containers). */
int tfc_resource_mgr_count(tfc_resource_mgr *m);
/* Caller holds v->mu. True when v->value may be written in place: it is set,
 * nobody but the variable and `known_refs` references that the caller
 * accounts for (e.g. the executor's read of a Ref input it handed to the
 * kernel) holds the tensor, its buffer has no other user, and the buffer is
 * tfc's own memory (not borrowed from e.g. a NumPy feed). With known_refs 0
 * this is tfc_tensor_is_exclusive(v->value). */
bool tfc_var_value_writable(const tfc_var *v, int known_refs);

#endif
