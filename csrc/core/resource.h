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

#include "base/hashmap.h"
#include "base/status.h"
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
  tfc_hashmap vars;     /* "container|shared_name" -> tfc_var* */
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

#endif
