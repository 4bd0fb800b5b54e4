/*
 * function.c — the function library runtime (see function.h and
 * core/function.h): instantiation cache, recursion check, runs.
 */
#include "runtime/function.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "base/hashmap.h"
#include "base/strbuf.h"
#include "graph/device_name.h"
#include "graph/function_lib.h"
#include "graph/subgraph.h"
#include "runtime/rendezvous.h"

/* One instantiation: the body's plan. Immutable once cached. */
typedef struct finst {
  tfc_fhandle pub;
  char *name;
  tfc_fbody body;
  tfc_subgraph sg;
  int n_execs;
  tfc_executor **execs;
} finst;

typedef struct flib_rt {
  tfc_flib base;
  tfc_graph *g;
  tfc_exec_env env;
  char *dev_name;
  tfc_device_name dev_parsed;
  tfc_device_set ds;
  pthread_mutex_t mu;
  tfc_hashmap cache;   /* key (name + attrs) -> finst* */
} flib_rt;

/* Functions being instantiated by this thread, outermost first. */
static _Thread_local const char *inst_stack[TFC_FUNC_MAX_DEPTH];
static _Thread_local int inst_depth;

/* Frees an instantiation. */
static void finst_free(finst *f) {
  if (!f) return;
  for (int i = 0; i < f->n_execs; i++) tfc_executor_free(f->execs[i]);
  tfc_free(f->execs);
  tfc_subgraph_free(&f->sg);
  tfc_fbody_clear(&f->body);
  tfc_free(f->name);
  tfc_free(f);
}

/* Appends a canonical description of one attr value to b (the cache key). */
static void key_value(tfc_strbuf *b, const tfc_attr_value *v) {
  tfc_strbuf_printf(b, "%d:", (int)v->kind);
  switch (v->kind) {
    case TFC_ATTR_S:
    case TFC_ATTR_FUNC:
      tfc_strbuf_printf(b, "%zu:", v->v.s.len);
      tfc_strbuf_append(b, v->v.s.data ? v->v.s.data : "", v->v.s.len);
      break;
    case TFC_ATTR_I: tfc_strbuf_printf(b, "%lld", (long long)v->v.i); break;
    case TFC_ATTR_F: tfc_strbuf_printf(b, "%a", (double)v->v.f); break;
    case TFC_ATTR_B: tfc_strbuf_printf(b, "%d", (int)v->v.b); break;
    case TFC_ATTR_TYPE: tfc_strbuf_printf(b, "%d", (int)v->v.type); break;
    case TFC_ATTR_SHAPE: {
      tfc_strbuf_printf(b, "r%d", v->v.shape.rank);
      for (int i = 0; i < v->v.shape.rank; i++) tfc_strbuf_printf(b, ",%lld", (long long)v->v.shape.dims[i]);
      break;
    }
    case TFC_ATTR_LIST: {
      const tfc_attr_list *l = &v->v.list;
      tfc_strbuf_printf(b, "[%d,%d:", (int)l->kind, l->n);
      for (int i = 0; i < l->n; i++) {
        switch (l->kind) {
          case TFC_ATTR_I: tfc_strbuf_printf(b, "%lld,", (long long)l->v.i[i]); break;
          case TFC_ATTR_TYPE: tfc_strbuf_printf(b, "%d,", (int)l->v.type[i]); break;
          case TFC_ATTR_B: tfc_strbuf_printf(b, "%d,", (int)l->v.b[i]); break;
          case TFC_ATTR_F: tfc_strbuf_printf(b, "%a,", (double)l->v.f[i]); break;
          case TFC_ATTR_S:
          case TFC_ATTR_FUNC:
            tfc_strbuf_printf(b, "%zu:", l->v.s[i].len);
            tfc_strbuf_append(b, l->v.s[i].data ? l->v.s[i].data : "", l->v.s[i].len);
            break;
          case TFC_ATTR_SHAPE:
            tfc_strbuf_printf(b, "r%d", l->v.shape[i].rank);
            for (int k = 0; k < l->v.shape[i].rank; k++)
              tfc_strbuf_printf(b, ".%lld", (long long)l->v.shape[i].dims[k]);
            tfc_strbuf_puts(b, ",");
            break;
          default: tfc_strbuf_printf(b, "%p,", (void *)l->v.tensor[i]); break;
        }
      }
      tfc_strbuf_puts(b, "]");
      break;
    }
    case TFC_ATTR_TENSOR: tfc_strbuf_printf(b, "%p", (void *)v->v.tensor); break;
    default: break;
  }
}

/* True when attr `name` of a call node is meant for the function (not the
 * call op's own attrs nor internal ones). */
static bool is_function_attr(const tfc_op_def *sig, const char *name) {
  return name[0] != '_' && (!sig || tfc_op_find_attr(sig, name) != NULL);
}

/* Builds an instantiation (not cached yet). */
static finst *instantiate_new(flib_rt *rt, const char *name, const tfc_attrs *attrs, tfc_status *st) {
  finst *f = tfc_calloc(1, sizeof *f);
  if (!f || !(f->name = tfc_strdup(name))) {
    tfc_free(f);
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory instantiating '%s'", name);
    return NULL;
  }
  if (!tfc_fbody_build(rt->g->library, name, attrs, &f->body, st)) {
    finst_free(f);
    return NULL;
  }
  tfc_fbody *b = &f->body;
  pthread_mutex_lock(&b->g->mu);
  bool ok = tfc_subgraph_build(b->g, b->n_args, b->args, b->n_rets, b->rets, b->n_targets, b->targets,
                               &rt->ds, &f->sg, st);
  pthread_mutex_unlock(&b->g->mu);
  if (ok) {
    f->n_execs = f->sg.n_parts;
    f->execs = tfc_calloc((size_t)(f->n_execs ? f->n_execs : 1), sizeof(tfc_executor *));
    if (!f->execs) ok = tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  }
  tfc_exec_env env = rt->env;
  env.kernel_cache = NULL;
  env.inter_pool = NULL;
  env.flib = &rt->base;
  for (int i = 0; ok && i < f->n_execs; i++) {
    f->execs[i] = tfc_executor_new(&f->sg, i, &env, st);
    ok = f->execs[i] != NULL;
  }
  if (!ok) {
    if (st->code != TFC_CODE_RESOURCE_EXHAUSTED && !strstr(st->msg, "Function '")) {
      char why[TFC_STATUS_MSG_MAX];
      snprintf(why, sizeof why, "%s", st->msg);
      tfc_status_set(st, st->code, "Function '%s': %s", name, why);
    }
    finst_free(f);
    return NULL;
  }
  f->pub.name = f->name;
  f->pub.n_inputs = b->n_args;
  f->pub.in_types = b->arg_types;
  f->pub.n_outputs = b->n_rets;
  f->pub.out_types = b->ret_types;
  f->pub.stateful = b->stateful;
  return f;
}

/* tfc_flib_ops.instantiate. */
static const tfc_fhandle *rt_instantiate(tfc_flib *lib, const char *name, const tfc_attrs *attrs,
                                         tfc_status *st) {
  flib_rt *rt = (flib_rt *)lib;
  const tfc_op_def *sig = tfc_func_lib_signature(rt->g->library, name);
  if (!sig)
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                          "Failed to find function '%s' in the graph's function library.", name),
           NULL;
  tfc_strbuf key;
  tfc_strbuf_init(&key);
  tfc_strbuf_puts(&key, name);
  tfc_strbuf_append(&key, "", 1);
  for (int i = 0; attrs && i < attrs->n; i++) {
    if (!is_function_attr(sig, attrs->items[i].name)) continue;
    tfc_strbuf_printf(&key, "%s=", attrs->items[i].name);
    key_value(&key, &attrs->items[i].value);
    tfc_strbuf_puts(&key, ";");
  }
  if (key.oom) {
    tfc_strbuf_free(&key);
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  pthread_mutex_lock(&rt->mu);
  bool found = false;
  finst *f = tfc_hashmap_get(&rt->cache, key.data, key.len, &found);
  pthread_mutex_unlock(&rt->mu);
  if (found) {
    tfc_strbuf_free(&key);
    return &f->pub;
  }
  /* recursion: a function whose body (directly or through others) calls it */
  for (int i = 0; i < inst_depth; i++) {
    if (strcmp(inst_stack[i], name) != 0) continue;
    tfc_strbuf chain;
    tfc_strbuf_init(&chain);
    for (int k = i; k < inst_depth; k++) tfc_strbuf_printf(&chain, "%s -> ", inst_stack[k]);
    tfc_strbuf_puts(&chain, name);
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                   "Function '%s' is recursive, which is not supported: %s", name,
                   tfc_strbuf_cstr(&chain));
    tfc_strbuf_free(&chain);
    tfc_strbuf_free(&key);
    return NULL;
  }
  if (inst_depth >= TFC_FUNC_MAX_DEPTH) {
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                   "Function '%s': functions are nested more than %d deep", name, TFC_FUNC_MAX_DEPTH);
    tfc_strbuf_free(&key);
    return NULL;
  }
  inst_stack[inst_depth++] = name;
  /* only the function's own attrs reach the body */
  tfc_attrs fattrs;
  tfc_attrs_init(&fattrs);
  bool ok = true;
  for (int i = 0; ok && attrs && i < attrs->n; i++) {
    if (!is_function_attr(sig, attrs->items[i].name)) continue;
    tfc_attr_value v;
    ok = tfc_attr_value_copy(&v, &attrs->items[i].value, st) &&
         tfc_attrs_set(&fattrs, attrs->items[i].name, &v, st);
  }
  f = ok ? instantiate_new(rt, name, &fattrs, st) : NULL;
  tfc_attrs_destroy(&fattrs);
  inst_depth--;
  if (!f) {
    st->node[0] = 0; /* a body node: the caller names its own node */
    tfc_strbuf_free(&key);
    return NULL;
  }
  pthread_mutex_lock(&rt->mu);
  finst *old = tfc_hashmap_get(&rt->cache, key.data, key.len, &found);
  if (found) {
    pthread_mutex_unlock(&rt->mu);
    finst_free(f);
    f = old;
  } else {
    if (tfc_hashmap_put(&rt->cache, key.data, key.len, f) != 0) {
      pthread_mutex_unlock(&rt->mu);
      finst_free(f);
      tfc_strbuf_free(&key);
      tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory caching '%s'", name);
      return NULL;
    }
    pthread_mutex_unlock(&rt->mu);
  }
  tfc_strbuf_free(&key);
  return &f->pub;
}

/* Rewrites a failed body step's status: the function's name goes before the
 * body node's tag, and the node name is cleared (the caller names its node). */
static void tag_error(tfc_status *st, const char *fname) {
  char msg[TFC_STATUS_MSG_MAX + 512];
  const char *tag = "\n\t [[{{node ";
  char *p = strstr(st->msg, tag);
  if (p) {
    snprintf(msg, sizeof msg, "%.*s\n\t [[{{function_node %s}}{{node %s", (int)(p - st->msg), st->msg,
             fname, p + strlen(tag));
  } else {
    snprintf(msg, sizeof msg, "%s\n\t [[{{function_node %s}}]]", st->msg, fname);
  }
  size_t n = strlen(msg);
  if (n >= sizeof st->msg) n = sizeof st->msg - 1;
  memcpy(st->msg, msg, n);
  st->msg[n] = 0;
  st->node[0] = 0;
}

/* tfc_flib_ops.run. */
static bool rt_run(tfc_flib *lib, const tfc_fhandle *h, tfc_step *parent, tfc_tensor *const *args,
                   tfc_tensor **rets, tfc_status *st) {
  flib_rt *rt = (flib_rt *)lib;
  finst *f = (finst *)h;
  for (int i = 0; i < h->n_outputs; i++) rets[i] = NULL;
  for (int i = 0; i < h->n_inputs; i++) {
    if (!args[i])
      return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Function '%s': argument %d is missing",
                            h->name, i);
    if (args[i]->dtype != h->in_types[i])
      return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                            "Function '%s': argument %d has type %s, but the function expects %s",
                            h->name, i, tfc_dtype_name(args[i]->dtype), tfc_dtype_name(h->in_types[i]));
  }
  tfc_exec_env env = rt->env;
  env.kernel_cache = NULL;
  env.inter_pool = NULL;
  env.flib = lib;
  const tfc_step_args *pa = parent ? (const tfc_step_args *)parent->runtime : NULL;
  if (parent) {
    if (parent->resources) env.resources = parent->resources;
    if (parent->log) {
      env.log = parent->log;
      env.log_ctx = parent->log_ctx;
      env.out = parent->out;
    }
  }
  tfc_rendezvous *rdv = NULL;
  if (f->n_execs > 1) {
    rdv = tfc_local_rendezvous_new();
    if (!rdv) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  }
  tfc_step_args sa = {
      .sg = &f->sg,
      .n_execs = f->n_execs,
      .execs = f->execs,
      .feeds = args,
      .fetch_out = rets,
      .rendezvous = rdv,
      .cancel = pa ? pa->cancel : NULL,
      .deadline_ns = pa ? pa->deadline_ns : 0,
  };
  bool ok = tfc_run_step(&sa, &env, st);
  if (rdv) rdv->ops->free(rdv);
  if (!ok) tag_error(st, h->name);
  return ok;
}

/* tfc_flib_ops.has_function. */
static bool rt_has(tfc_flib *lib, const char *name) {
  return tfc_func_lib_signature(((flib_rt *)lib)->g->library, name) != NULL;
}

/* tfc_flib_ops.gradient. */
static const char *rt_gradient(tfc_flib *lib, const char *name) {
  return tfc_func_lib_gradient(((flib_rt *)lib)->g->library, name);
}

static const tfc_flib_ops rt_ops = {rt_instantiate, rt_run, rt_has, rt_gradient};

/* Creates a runtime (see function.h). */
tfc_flib *tfc_flib_new(tfc_graph *g, const tfc_exec_env *env) {
  flib_rt *rt = tfc_calloc(1, sizeof *rt);
  if (!rt) return NULL;
  rt->base.ops = &rt_ops;
  rt->env = *env;
  rt->env.device_type = "CPU";
  char buf[] = "/job:localhost/replica:0/task:0/device:CPU:0";
  rt->dev_name = tfc_strdup(buf);
  tfc_status st;
  tfc_status_clear(&st);
  if (!rt->dev_name || !tfc_device_name_parse(buf, &rt->dev_parsed, &st)) {
    tfc_free(rt->dev_name);
    tfc_free(rt);
    return NULL;
  }
  rt->ds.n = 1;
  rt->ds.names = (const char *const *)&rt->dev_name;
  rt->ds.parsed = &rt->dev_parsed;
  rt->ds.allow_soft_placement = true;
  rt->ds.incarnation = 1;
  pthread_mutex_init(&rt->mu, NULL);
  tfc_hashmap_init(&rt->cache);
  rt->g = tfc_graph_ref(g);
  return &rt->base;
}

/* Sets the intra-op pool. */
void tfc_flib_set_pools(tfc_flib *lib, tfc_threadpool *intra_pool) {
  if (lib) ((flib_rt *)lib)->env.intra_pool = intra_pool;
}

/* Frees the runtime and its instantiations. */
void tfc_flib_free(tfc_flib *lib) {
  if (!lib) return;
  flib_rt *rt = (flib_rt *)lib;
  for (size_t i = 0; i < rt->cache.cap; i++) {
    const char *k;
    size_t kl;
    void *v;
    if (tfc_hashmap_slot(&rt->cache, i, &k, &kl, &v)) finst_free(v);
  }
  tfc_hashmap_destroy(&rt->cache);
  pthread_mutex_destroy(&rt->mu);
  tfc_graph_unref(rt->g);
  tfc_free(rt->dev_name);
  tfc_free(rt);
}
