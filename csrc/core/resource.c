/*
 * resource.c — the per-session resource manager and the variables it holds.
 *
 * Variables are keyed by (container, name) encoded as "container\0name" so
 * no character of either part can collide. The manager owns one reference
 * per variable; kernels hold their own while they use one.
 */
#include "core/resource.h"

#include <string.h>

#include "base/alloc.h"

/* Builds the map key "container\0name" into a fresh buffer; NULL on OOM. */
static char *make_key(const char *container, const char *name, size_t *len) {
  if (container == NULL || container[0] == '\0') container = TFC_RESOURCE_DEFAULT_CONTAINER;
  size_t lc = strlen(container), ln = strlen(name);
  char *k = tfc_malloc(lc + 1 + ln + 1);
  if (k == NULL) return NULL;
  memcpy(k, container, lc);
  k[lc] = '\0';
  memcpy(k + lc + 1, name, ln);
  k[lc + 1 + ln] = '\0';
  *len = lc + 1 + ln;
  return k;
}

/* New empty manager; NULL on OOM or when the lock cannot be created. */
tfc_resource_mgr *tfc_resource_mgr_new(void) {
  tfc_resource_mgr *m = tfc_calloc(1, sizeof *m);
  if (m == NULL) return NULL;
  if (pthread_mutex_init(&m->mu, NULL) != 0) {
    tfc_free(m);
    return NULL;
  }
  tfc_hashmap_init(&m->vars);
  tfc_hashmap_init(&m->objects);
  return m;
}

/* Drops every variable reference the map holds (caller holds m->mu). */
static void drop_all_locked(tfc_resource_mgr *m) {
  for (size_t i = 0; i < m->vars.cap; i++) {
    const char *key;
    size_t len;
    void *val;
    if (tfc_hashmap_slot(&m->vars, i, &key, &len, &val)) tfc_var_unref(val);
  }
  tfc_hashmap_destroy(&m->vars);
  tfc_hashmap_init(&m->vars);
  for (size_t i = 0; i < m->objects.cap; i++) {
    const char *key;
    size_t len;
    void *val;
    if (tfc_hashmap_slot(&m->objects, i, &key, &len, &val)) tfc_object_unref(val);
  }
  tfc_hashmap_destroy(&m->objects);
  tfc_hashmap_init(&m->objects);
}

/* Frees the manager; variables still referenced elsewhere live on. NULL-safe. */
void tfc_resource_mgr_free(tfc_resource_mgr *m) {
  if (m == NULL) return;
  drop_all_locked(m);
  pthread_mutex_destroy(&m->mu);
  tfc_free(m);
}

/* Drops every variable. */
void tfc_resource_mgr_clear(tfc_resource_mgr *m) {
  pthread_mutex_lock(&m->mu);
  drop_all_locked(m);
  pthread_mutex_unlock(&m->mu);
}

/* Allocates an uninitialized variable with refcount 1; NULL on OOM. */
static tfc_var *var_new(const char *name, tfc_dtype dtype, const tfc_shape *shape) {
  tfc_var *v = tfc_calloc(1, sizeof *v);
  if (v == NULL) return NULL;
  v->name = tfc_strdup(name);
  if (v->name == NULL || pthread_mutex_init(&v->mu, NULL) != 0) {
    tfc_free(v->name);
    tfc_free(v);
    return NULL;
  }
  atomic_init(&v->refcount, 1);
  v->value = NULL;
  v->dtype = tfc_dtype_base(dtype);
  v->shape = shape ? *shape : tfc_shape_unknown();
  return v;
}

/* Finds or creates (container, name); see resource.h. */
tfc_var *tfc_resource_var(tfc_resource_mgr *m, const char *container, const char *name,
                          tfc_dtype dtype, const tfc_shape *shape, tfc_status *st) {
  size_t len;
  char *key = make_key(container, name, &len);
  if (key == NULL) {
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory creating variable %s", name);
    return NULL;
  }
  tfc_var *v = NULL;
  pthread_mutex_lock(&m->mu);
  v = tfc_hashmap_get(&m->vars, key, len, NULL);
  if (v != NULL) {
    if (v->dtype != tfc_dtype_base(dtype)) {
      tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                     "Variable %s already exists with dtype %s; cannot use it as %s", name,
                     tfc_dtype_name(v->dtype), tfc_dtype_name(tfc_dtype_base(dtype)));
      v = NULL;
    } else {
      tfc_var_ref(v);
    }
  } else {
    v = var_new(name, dtype, shape);
    if (v == NULL || tfc_hashmap_put(&m->vars, key, len, v) != 0) {
      if (v != NULL) tfc_var_unref(v);
      v = NULL;
      tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory creating variable %s",
                     name);
    } else {
      tfc_var_ref(v); /* one for the map, one for the caller */
    }
  }
  pthread_mutex_unlock(&m->mu);
  tfc_free(key);
  return v;
}

/* A new reference to (container, name) or NULL when absent (or on OOM). */
tfc_var *tfc_resource_lookup(tfc_resource_mgr *m, const char *container, const char *name) {
  size_t len;
  char *key = make_key(container, name, &len);
  if (key == NULL) return NULL;
  pthread_mutex_lock(&m->mu);
  tfc_var *v = tfc_hashmap_get(&m->vars, key, len, NULL);
  if (v != NULL) tfc_var_ref(v);
  pthread_mutex_unlock(&m->mu);
  tfc_free(key);
  return v;
}

/* Removes (container, name); false when absent (or on OOM building the key). */
bool tfc_resource_remove(tfc_resource_mgr *m, const char *container, const char *name) {
  size_t len;
  char *key = make_key(container, name, &len);
  if (key == NULL) return false;
  pthread_mutex_lock(&m->mu);
  tfc_var *v = tfc_hashmap_remove(&m->vars, key, len);
  pthread_mutex_unlock(&m->mu);
  tfc_free(key);
  if (v == NULL) return false;
  tfc_var_unref(v);
  return true;
}

/* Drops the variables whose key starts with "container\0". */
int tfc_resource_mgr_clear_container(tfc_resource_mgr *m, const char *container) {
  if (container == NULL || container[0] == '\0') container = TFC_RESOURCE_DEFAULT_CONTAINER;
  size_t lc = strlen(container);
  int dropped = 0;
  pthread_mutex_lock(&m->mu);
  for (;;) {
    /* Removing may reorganise the table, so restart the scan after each hit. */
    const char *hit = NULL;
    size_t hit_len = 0;
    for (size_t i = 0; i < m->vars.cap && hit == NULL; i++) {
      const char *key;
      size_t len;
      void *val;
      if (tfc_hashmap_slot(&m->vars, i, &key, &len, &val) && len > lc &&
          memcmp(key, container, lc) == 0 && key[lc] == '\0') {
        hit = key;
        hit_len = len;
      }
    }
    if (hit == NULL) break;
    char *copy = tfc_malloc(hit_len);
    if (copy == NULL) break; /* out of memory: leave the rest in place */
    memcpy(copy, hit, hit_len);
    tfc_var *v = tfc_hashmap_remove(&m->vars, copy, hit_len);
    tfc_free(copy);
    if (v != NULL) {
      tfc_var_unref(v);
      dropped++;
    }
  }
  for (;;) {
    const char *hit = NULL;
    size_t hit_len = 0;
    for (size_t i = 0; i < m->objects.cap && hit == NULL; i++) {
      const char *key;
      size_t len;
      void *val;
      if (tfc_hashmap_slot(&m->objects, i, &key, &len, &val) && len > lc &&
          memcmp(key, container, lc) == 0 && key[lc] == '\0') {
        hit = key;
        hit_len = len;
      }
    }
    if (hit == NULL) break;
    char *copy = tfc_malloc(hit_len);
    if (copy == NULL) break;
    memcpy(copy, hit, hit_len);
    tfc_object *o = tfc_hashmap_remove(&m->objects, copy, hit_len);
    tfc_free(copy);
    tfc_object_unref(o);
  }
  pthread_mutex_unlock(&m->mu);
  return dropped;
}

/* Finds or creates the object (container, name); see resource.h. */
tfc_object *tfc_resource_object(tfc_resource_mgr *m, const char *container, const char *name,
                                const tfc_object_type *type, tfc_object_create_fn create, void *arg,
                                tfc_status *st) {
  size_t len;
  char *key = make_key(container, name, &len);
  if (key == NULL) {
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory creating resource %s", name);
    return NULL;
  }
  pthread_mutex_lock(&m->mu);
  tfc_object *o = tfc_hashmap_get(&m->objects, key, len, NULL);
  if (o != NULL) {
    if (o->type != type) {
      tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Resource %s/%s is a %s, not a %s",
                     container && container[0] ? container : TFC_RESOURCE_DEFAULT_CONTAINER, name,
                     o->type->name, type->name);
      o = NULL;
    } else {
      tfc_object_ref(o);
    }
  } else {
    o = create(arg, st);
    if (o != NULL && tfc_hashmap_put(&m->objects, key, len, o) != 0) {
      tfc_object_unref(o);
      o = NULL;
      tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory creating resource %s", name);
    } else if (o != NULL) {
      tfc_object_ref(o); /* one for the map, one for the caller */
    }
  }
  pthread_mutex_unlock(&m->mu);
  tfc_free(key);
  return o;
}

/* Number of variables in the manager. */
int tfc_resource_mgr_count(tfc_resource_mgr *m) {
  pthread_mutex_lock(&m->mu);
  int n = (int)m->vars.count;
  pthread_mutex_unlock(&m->mu);
  return n;
}

/* Adds a reference; NULL-safe. */
tfc_var *tfc_var_ref(tfc_var *v) {
  if (v != NULL) atomic_fetch_add_explicit(&v->refcount, 1, memory_order_relaxed);
  return v;
}

/* Drops a reference; the last one frees the value, name and lock. NULL-safe. */
void tfc_var_unref(tfc_var *v) {
  if (v == NULL) return;
  if (atomic_fetch_sub_explicit(&v->refcount, 1, memory_order_acq_rel) != 1) return;
  tfc_tensor_unref(v->value);
  pthread_mutex_destroy(&v->mu);
  tfc_free(v->name);
  tfc_free(v);
}

/* A new reference to the current value (NULL while uninitialized). */
tfc_tensor *tfc_var_read(tfc_var *v) {
  pthread_mutex_lock(&v->mu);
  tfc_tensor *t = tfc_tensor_ref(v->value);
  pthread_mutex_unlock(&v->mu);
  return t;
}

/* Installs t as the value (taking the caller's reference) and drops the old one. */
void tfc_var_set(tfc_var *v, tfc_tensor *t) {
  pthread_mutex_lock(&v->mu);
  tfc_tensor *old = v->value;
  v->value = t;
  pthread_mutex_unlock(&v->mu);
  tfc_tensor_unref(old);
}

/* In-place writability of v->value (caller holds v->mu); see resource.h. */
bool tfc_var_value_writable(const tfc_var *v, int known_refs) {
  tfc_tensor *t = v->value;
  if (t == NULL) return false;
  if (atomic_load_explicit(&t->refcount, memory_order_acquire) != 1 + known_refs) return false;
  if (t->buf == NULL) return true;
  if (t->buf->release != NULL) return false;
  return atomic_load_explicit(&t->buf->refcount, memory_order_acquire) == 1;
}
