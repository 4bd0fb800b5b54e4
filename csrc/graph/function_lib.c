/*
 * function_lib.c — a graph's function library (see function_lib.h): storage,
 * signatures, export. Body instantiation is in function_body.c.
 */
#include "graph/function_lib.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "base/hashmap.h"
#include "base/strbuf.h"
#include "graph/graphdef_pb.h"

typedef struct fentry {
  char *name;
  void *fdef;
  size_t len;
  tfc_op_def sig;
  char *grad;          /* gradient function name or NULL */
} fentry;

struct tfc_func_lib {
  atomic_int refcount;
  pthread_mutex_t mu;
  tfc_hashmap by_name;  /* name -> fentry* */
  int n, cap;
  fentry **order;
};

/* New empty library. */
tfc_func_lib *tfc_func_lib_new(void) {
  tfc_func_lib *lib = tfc_calloc(1, sizeof *lib);
  if (!lib) return NULL;
  atomic_init(&lib->refcount, 1);
  pthread_mutex_init(&lib->mu, NULL);
  tfc_hashmap_init(&lib->by_name);
  return lib;
}

/* Adds a reference. */
tfc_func_lib *tfc_func_lib_ref(tfc_func_lib *lib) {
  if (lib) atomic_fetch_add(&lib->refcount, 1);
  return lib;
}

/* Drops a reference; the last frees every entry. */
void tfc_func_lib_unref(tfc_func_lib *lib) {
  if (!lib || atomic_fetch_sub(&lib->refcount, 1) != 1) return;
  for (int i = 0; i < lib->n; i++) {
    fentry *e = lib->order[i];
    tfc_free(e->name);
    tfc_free(e->fdef);
    tfc_free(e->grad);
    tfc_op_def_clear(&e->sig);
    tfc_free(e);
  }
  tfc_free(lib->order);
  tfc_hashmap_destroy(&lib->by_name);
  pthread_mutex_destroy(&lib->mu);
  tfc_free(lib);
}

/* Entry by name (caller holds mu). */
static fentry *find_locked(tfc_func_lib *lib, const char *name) {
  bool found = false;
  fentry *e = tfc_hashmap_get(&lib->by_name, name, strlen(name), &found);
  return found ? e : NULL;
}

/* Appends one arg of a signature in op-spec notation ("x: N * T"). */
static void spec_arg(tfc_strbuf *b, const Tensorflow__OpDef__ArgDef *a) {
  if (b->len) tfc_strbuf_puts(b, "; ");
  tfc_strbuf_printf(b, "%s: ", a->name ? a->name : "");
  if (a->is_ref) tfc_strbuf_puts(b, "Ref(");
  if (a->number_attr && a->number_attr[0]) tfc_strbuf_printf(b, "%s * ", a->number_attr);
  if (a->type_attr && a->type_attr[0])
    tfc_strbuf_puts(b, a->type_attr);
  else if (a->type_list_attr && a->type_list_attr[0])
    tfc_strbuf_puts(b, a->type_list_attr);
  else
    tfc_strbuf_puts(b, tfc_dtype_name((tfc_dtype)a->type));
  if (a->is_ref) tfc_strbuf_puts(b, ")");
}

/* Parses a FunctionDef's signature into def (flags TFC_OP_FUNCTION). */
static bool parse_signature(const Tensorflow__OpDef *sig, tfc_op_def *def, tfc_status *st) {
  tfc_strbuf in, out, at;
  tfc_strbuf_init(&in);
  tfc_strbuf_init(&out);
  tfc_strbuf_init(&at);
  for (size_t i = 0; i < sig->n_input_arg; i++) spec_arg(&in, sig->input_arg[i]);
  for (size_t i = 0; i < sig->n_output_arg; i++) spec_arg(&out, sig->output_arg[i]);
  for (size_t i = 0; i < sig->n_attr; i++) {
    const Tensorflow__OpDef__AttrDef *a = sig->attr[i];
    if (at.len) tfc_strbuf_puts(&at, "; ");
    tfc_strbuf_printf(&at, "%s: %s", a->name ? a->name : "", a->type ? a->type : "");
    if (a->has_minimum) tfc_strbuf_printf(&at, " >= %lld", (long long)a->minimum);
  }
  bool ok = !in.oom && !out.oom && !at.oom;
  if (ok) {
    /* parsed under a placeholder op name: function names need not look like op names */
    tfc_op_spec spec = {"_Function", in.data ? in.data : "", out.data ? out.data : "",
                        at.data ? at.data : "", 0, NULL};
    ok = tfc_op_spec_parse(&spec, def, st);
    if (!ok && st->code == TFC_CODE_INVALID_ARGUMENT) {
      char why[TFC_STATUS_MSG_MAX];
      snprintf(why, sizeof why, "%s", st->msg);
      const char *p = strstr(why, "_Function");
      tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Function '%s' has an invalid signature: %s",
                     sig->name, p ? p + 9 : why);
    }
  } else {
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory parsing a function signature");
  }
  tfc_strbuf_free(&in);
  tfc_strbuf_free(&out);
  tfc_strbuf_free(&at);
  if (ok) {
    def->flags |= TFC_OP_FUNCTION | (sig->is_stateful ? TFC_OP_STATEFUL : 0u);
    char *name = tfc_strdup(sig->name);
    if (!name) {
      tfc_op_def_clear(def);
      return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    }
    tfc_free(def->name);
    def->name = name;
  }
  return ok;
}

/* Appends e (caller holds mu). */
static bool insert_locked(tfc_func_lib *lib, fentry *e, tfc_status *st) {
  if (lib->n == lib->cap) {
    int cap = lib->cap ? lib->cap * 2 : 8;
    fentry **o = tfc_realloc(lib->order, sizeof *o * (size_t)cap);
    if (!o) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    lib->order = o;
    lib->cap = cap;
  }
  if (tfc_hashmap_put(&lib->by_name, e->name, strlen(e->name), e) != 0)
    return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  lib->order[lib->n++] = e;
  return true;
}

/* Adds one serialized FunctionDef (see function_lib.h). */
bool tfc_func_lib_add_function(tfc_func_lib *lib, const void *fdef, size_t len, tfc_status *st) {
  if (!tfc_op_registry_load(st)) return false;
  Tensorflow__FunctionDef *fd = (Tensorflow__FunctionDef *)tfc_pb_unpack(
      &tensorflow__function_def__descriptor, fdef, len, "FunctionDef", st);
  if (!fd) return false;
  bool ok = true;
  fentry *e = NULL;
  const char *name = fd->signature && fd->signature->name ? fd->signature->name : "";
  if (!name[0]) {
    ok = tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "A FunctionDef in the library has no name");
  } else if (tfc_op_lookup(name)) {
    ok = tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                        "Cannot add function '%s' because an op with the same name already exists.",
                        name);
  }
  if (ok) {
    pthread_mutex_lock(&lib->mu);
    fentry *old = find_locked(lib, name);
    pthread_mutex_unlock(&lib->mu);
    if (old) {
      if (old->len != len || memcmp(old->fdef, fdef, len) != 0)
        ok = tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                            "Cannot add function '%s' because a different function with the same "
                            "name already exists.", name);
      protobuf_c_message_free_unpacked(&fd->base, &tfc_pb_allocator);
      return ok;
    }
    e = tfc_calloc(1, sizeof *e);
    if (e) {
      e->name = tfc_strdup(name);
      e->fdef = tfc_malloc(len ? len : 1);
      if (e->fdef && len) memcpy(e->fdef, fdef, len);
      e->len = len;
    }
    if (!e || !e->name || !e->fdef) ok = tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  }
  ok = ok && parse_signature(fd->signature, &e->sig, st);
  protobuf_c_message_free_unpacked(&fd->base, &tfc_pb_allocator);
  if (ok) {
    pthread_mutex_lock(&lib->mu);
    fentry *old = find_locked(lib, e->name);
    if (old) {
      /* another thread added it meanwhile */
      if (old->len != len || memcmp(old->fdef, fdef, len) != 0)
        ok = tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                            "Cannot add function '%s' because a different function with the same "
                            "name already exists.", e->name);
      pthread_mutex_unlock(&lib->mu);
    } else {
      ok = insert_locked(lib, e, st);
      pthread_mutex_unlock(&lib->mu);
      if (ok) return true;
    }
  }
  if (e) {
    tfc_free(e->name);
    tfc_free(e->fdef);
    tfc_op_def_clear(&e->sig);
    tfc_free(e);
  }
  return ok;
}

/* Records a gradient function. */
bool tfc_func_lib_add_gradient(tfc_func_lib *lib, const char *fn, const char *grad, tfc_status *st) {
  pthread_mutex_lock(&lib->mu);
  fentry *e = find_locked(lib, fn);
  bool ok = true;
  if (!e) {
    ok = tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                        "Cannot add gradient function '%s' for '%s' that is not in the library.",
                        grad, fn);
  } else if (e->grad) {
    if (strcmp(e->grad, grad) != 0)
      ok = tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                          "Cannot assign gradient function '%s' to '%s' because it already has "
                          "gradient function '%s'", grad, fn, e->grad);
  } else {
    e->grad = tfc_strdup(grad);
    if (!e->grad) ok = tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  }
  pthread_mutex_unlock(&lib->mu);
  return ok;
}

/* Adds a serialized FunctionDefLibrary. */
bool tfc_func_lib_add_library(tfc_func_lib *lib, const void *data, size_t len, tfc_status *st) {
  Tensorflow__FunctionDefLibrary *fl = (Tensorflow__FunctionDefLibrary *)tfc_pb_unpack(
      &tensorflow__function_def_library__descriptor, data, len, "FunctionDefLibrary", st);
  if (!fl) return false;
  bool ok = true;
  for (size_t i = 0; ok && i < fl->n_function; i++) {
    void *bytes = NULL;
    size_t n = 0;
    ok = tfc_pb_pack(&fl->function[i]->base, NULL, 0, &bytes, &n, st) &&
         tfc_func_lib_add_function(lib, bytes, n, st);
    tfc_free(bytes);
  }
  for (size_t i = 0; ok && i < fl->n_gradient; i++) {
    const Tensorflow__GradientDef *gdf = fl->gradient[i];
    ok = tfc_func_lib_add_gradient(lib, gdf->function_name ? gdf->function_name : "",
                                   gdf->gradient_func ? gdf->gradient_func : "", st);
  }
  protobuf_c_message_free_unpacked(&fl->base, &tfc_pb_allocator);
  return ok;
}

/* Signature of a function, or NULL. */
const tfc_op_def *tfc_func_lib_signature(tfc_func_lib *lib, const char *name) {
  if (!lib || !name) return NULL;
  pthread_mutex_lock(&lib->mu);
  fentry *e = find_locked(lib, name);
  pthread_mutex_unlock(&lib->mu);
  return e ? &e->sig : NULL;
}

/* Gradient function name, or NULL. */
const char *tfc_func_lib_gradient(tfc_func_lib *lib, const char *name) {
  if (!lib || !name) return NULL;
  pthread_mutex_lock(&lib->mu);
  fentry *e = find_locked(lib, name);
  const char *g = e ? e->grad : NULL;
  pthread_mutex_unlock(&lib->mu);
  return g;
}

/* Serialized FunctionDef of a function. */
bool tfc_func_lib_find(tfc_func_lib *lib, const char *name, const void **fdef, size_t *len) {
  if (!lib) return false;
  pthread_mutex_lock(&lib->mu);
  fentry *e = find_locked(lib, name);
  pthread_mutex_unlock(&lib->mu);
  if (!e) return false;
  *fdef = e->fdef;
  *len = e->len;
  return true;
}

/* Number of functions. */
int tfc_func_lib_size(tfc_func_lib *lib) {
  if (!lib) return 0;
  pthread_mutex_lock(&lib->mu);
  int n = lib->n;
  pthread_mutex_unlock(&lib->mu);
  return n;
}

/* Function names in insertion order. */
bool tfc_func_lib_names(tfc_func_lib *lib, const char ***names, int *n, tfc_status *st) {
  pthread_mutex_lock(&lib->mu);
  *n = lib->n;
  *names = tfc_malloc(sizeof(char *) * (size_t)(lib->n + 1));
  if (*names)
    for (int i = 0; i < lib->n; i++) (*names)[i] = lib->order[i]->name;
  pthread_mutex_unlock(&lib->mu);
  if (!*names) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  return true;
}

/* Appends a varint to b. */
static void put_varint(tfc_strbuf *b, uint64_t v) {
  char buf[10];
  int n = 0;
  do {
    buf[n++] = (char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
    v >>= 7;
  } while (v);
  tfc_strbuf_append(b, buf, (size_t)n);
}

/* Appends a length-delimited field. */
static void put_bytes(tfc_strbuf *b, unsigned field, const void *data, size_t len) {
  put_varint(b, (uint64_t)(field << 3 | 2));
  put_varint(b, len);
  tfc_strbuf_append(b, data, len);
}

/* Serializes the library as a FunctionDefLibrary. */
bool tfc_func_lib_export(tfc_func_lib *lib, void **data, size_t *len, tfc_status *st) {
  tfc_strbuf b;
  tfc_strbuf_init(&b);
  pthread_mutex_lock(&lib->mu);
  for (int i = 0; i < lib->n; i++) put_bytes(&b, 1, lib->order[i]->fdef, lib->order[i]->len);
  for (int i = 0; i < lib->n; i++) {
    const fentry *e = lib->order[i];
    if (!e->grad) continue;
    tfc_strbuf gd;
    tfc_strbuf_init(&gd);
    put_bytes(&gd, 1, e->name, strlen(e->name));
    put_bytes(&gd, 2, e->grad, strlen(e->grad));
    if (gd.oom) b.oom = true;
    else put_bytes(&b, 2, gd.data, gd.len);
    tfc_strbuf_free(&gd);
  }
  pthread_mutex_unlock(&lib->mu);
  if (b.oom) {
    tfc_strbuf_free(&b);
    return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory exporting the library");
  }
  *len = b.len;
  *data = b.data ? (void *)b.data : tfc_malloc(1);
  if (!*data) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  return true;
}

/* Registered op, else a function signature of g's library. */
const tfc_op_def *tfc_graph_lookup_op(tfc_graph *g, const char *name) {
  const tfc_op_def *d = tfc_op_lookup(name);
  if (d || !g) return d;
  return tfc_func_lib_signature(g->library, name);
}
