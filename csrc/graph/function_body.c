/*
 * function_body.c — a FunctionDef instantiated as a graph, and a graph
 * written as a FunctionDef (see function_lib.h).
 *
 * Instantiation rewrites the FunctionDef into a GraphDef and imports it with
 * the GraphDef importer, so bodies get the same checks, topological ordering
 * and v1 loop back edges as any graph: every argument becomes a Placeholder
 * named after it ("x", or "x/_k" for element k of a list argument), attr
 * placeholders take the instantiation attrs, and body inputs written
 * "node:out_arg:k" become "node:<flat output index>".
 */
#include "graph/function_lib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/hashmap.h"
#include "graph/graphdef.h"
#include "graph/graphdef_pb.h"

/* Most tensors one argument list may hold. */
#define FN_MAX_ARGS 4096

/* An argument of the function, flattened. */
typedef struct farg {
  const char *name;   /* signature arg name */
  int first;          /* first flattened index */
  int count;          /* tensors */
} farg;

typedef struct builder {
  const char *fname;
  const tfc_attrs *attrs;
  tfc_status *st;
  tfc_pb_arena arena;
  tfc_hashmap args;       /* arg name -> farg* */
  tfc_hashmap nodes;      /* body node name -> NodeDef* (after attr substitution) */
  tfc_graph *g;
} builder;

/* Sets INVALID_ARGUMENT naming the function. */
static bool bfail(builder *b, const char *fmt, const char *x, const char *y) {
  char msg[TFC_STATUS_MSG_MAX];
  snprintf(msg, sizeof msg, fmt, x ? x : "", y ? y : "");
  return tfc_status_set(b->st, TFC_CODE_INVALID_ARGUMENT, "Function '%s': %s", b->fname, msg);
}

/* OOM status. */
static bool boom(builder *b) {
  return tfc_status_set(b->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory instantiating '%s'",
                        b->fname);
}

/* The instantiation attr `name`, or NULL. */
static const tfc_attr_value *inst_attr(builder *b, const char *name) {
  return b->attrs ? tfc_attrs_find(b->attrs, name) : NULL;
}

/* Flattened types of a signature arg into types[*n] (cap entries). */
static bool arg_types(builder *b, const Tensorflow__OpDef__ArgDef *a, tfc_dtype *types, int *n, int cap) {
  int count = 1;
  if (a->number_attr && a->number_attr[0]) {
    const tfc_attr_value *v = inst_attr(b, a->number_attr);
    if (!v || v->kind != TFC_ATTR_I || v->v.i < 0 || v->v.i > FN_MAX_ARGS)
      return bfail(b, "attr '%s' of argument '%s' has no int value", a->number_attr, a->name);
    count = (int)v->v.i;
  }
  if (a->type_list_attr && a->type_list_attr[0]) {
    const tfc_attr_value *v = inst_attr(b, a->type_list_attr);
    if (!v || v->kind != TFC_ATTR_LIST || (v->v.list.n && v->v.list.kind != TFC_ATTR_TYPE))
      return bfail(b, "attr '%s' of argument '%s' has no list(type) value", a->type_list_attr, a->name);
    if (*n + v->v.list.n > cap) return bfail(b, "argument '%s'%s has too many tensors", a->name, "");
    for (int k = 0; k < v->v.list.n; k++) types[(*n)++] = v->v.list.v.type[k];
    return true;
  }
  tfc_dtype t = (tfc_dtype)a->type;
  if (a->type_attr && a->type_attr[0]) {
    const tfc_attr_value *v = inst_attr(b, a->type_attr);
    if (!v || v->kind != TFC_ATTR_TYPE)
      return bfail(b, "attr '%s' of argument '%s' has no type value", a->type_attr, a->name);
    t = v->v.type;
  }
  if (t == TFC_DTYPE_INVALID) return bfail(b, "argument '%s' has no type%s", a->name, "");
  if (*n + count > cap) return bfail(b, "argument '%s'%s has too many tensors", a->name, "");
  for (int k = 0; k < count; k++) types[(*n)++] = t;
  return true;
}

/* Copies nd into out, substituting attr placeholders and dropping devices
 * and internal attrs. */
static bool copy_node(builder *b, const Tensorflow__NodeDef *nd, Tensorflow__NodeDef *out) {
  *out = *nd;
  out->device = "";
  out->attr = tfc_pb_arena_calloc(&b->arena, nd->n_attr + 1, sizeof *out->attr);
  if (!out->attr) return boom(b);
  size_t w = 0;
  for (size_t i = 0; i < nd->n_attr; i++) {
    Tensorflow__NodeDef__AttrEntry *e = nd->attr[i];
    if (!e || !e->key || e->key[0] == '_' || !e->value) continue;
    if (e->value->value_case != TENSORFLOW__ATTR_VALUE__VALUE_PLACEHOLDER) {
      out->attr[w++] = e;
      continue;
    }
    const char *ph = e->value->placeholder ? e->value->placeholder : "";
    const tfc_attr_value *v = inst_attr(b, ph);
    if (!v) return bfail(b, "node '%s': attr placeholder '%s' has no value", nd->name, ph);
    Tensorflow__NodeDef__AttrEntry *ne = tfc_pb_arena_alloc(&b->arena, sizeof *ne);
    Tensorflow__AttrValue *av = tfc_pb_arena_alloc(&b->arena, sizeof *av);
    if (!ne || !av) return boom(b);
    tensorflow__node_def__attr_entry__init(ne);
    ne->key = e->key;
    if (!tfc_pb_attr_from_tfc(v, &b->arena, av, b->st)) return false;
    ne->value = av;
    out->attr[w++] = ne;
  }
  out->n_attr = w;
  return true;
}

/* Rewrites one FunctionDef tensor reference into GraphDef form in the arena.
 * ctrl: a "^x" reference. */
static char *rewrite_ref(builder *b, const char *ref, const char *where) {
  bool ctrl = ref[0] == '^';
  const char *s = ctrl ? ref + 1 : ref;
  const char *c1 = strchr(s, ':');
  size_t nlen = c1 ? (size_t)(c1 - s) : strlen(s);
  bool found = false;
  farg *a = tfc_hashmap_get(&b->args, s, nlen, &found);
  char *out = tfc_pb_arena_alloc(&b->arena, strlen(ref) + 48);
  if (!out) {
    boom(b);
    return NULL;
  }
  if (found) {
    int k = 0;
    if (c1) k = atoi(c1 + 1);
    if (k < 0 || k >= a->count) {
      bfail(b, "reference '%s' in %s is out of range", ref, where);
      return NULL;
    }
    if (a->count == 1 && !c1)
      snprintf(out, strlen(ref) + 48, "%s%s", ctrl ? "^" : "", a->name);
    else
      snprintf(out, strlen(ref) + 48, "%s%s/_%d", ctrl ? "^" : "", a->name, k);
    return out;
  }
  Tensorflow__NodeDef *src = tfc_hashmap_get(&b->nodes, s, nlen, &found);
  if (!found) {
    bfail(b, "%s refers to '%s', which is neither an argument nor a node of the body", where, ref);
    return NULL;
  }
  if (ctrl || !c1) {
    snprintf(out, strlen(ref) + 48, "%s%.*s", ctrl ? "^" : "", (int)nlen, s);
    return out;
  }
  const char *c2 = strchr(c1 + 1, ':');
  if (!c2) { /* "node:k": already a flat index */
    snprintf(out, strlen(ref) + 48, "%s", s);
    return out;
  }
  const tfc_op_def *op = tfc_graph_lookup_op(b->g, src->op ? src->op : "");
  if (!op) {
    tfc_status_set(b->st, TFC_CODE_NOT_FOUND,
                   "Function '%s': node '%s': Op type not registered '%s' in binary running on tfc.",
                   b->fname, src->name, src->op ? src->op : "");
    return NULL;
  }
  size_t alen = (size_t)(c2 - c1 - 1);
  int k = atoi(c2 + 1), flat = 0;
  for (int i = 0; i < op->n_outputs; i++) {
    int cnt = tfc_pb_arg_count(op, &op->outputs[i], src);
    if (cnt < 0) {
      bfail(b, "node '%s' has a malformed output list (%s)", src->name, op->outputs[i].name);
      return NULL;
    }
    if (strlen(op->outputs[i].name) == alen && memcmp(op->outputs[i].name, c1 + 1, alen) == 0) {
      if (k < 0 || k >= cnt) {
        bfail(b, "reference '%s' in %s is out of range", ref, where);
        return NULL;
      }
      snprintf(out, strlen(ref) + 48, "%.*s:%d", (int)nlen, s, flat + k);
      return out;
    }
    flat += cnt;
  }
  bfail(b, "reference '%s' in %s names no output of its node", ref, where);
  return NULL;
}

/* Frees what a body owns. */
void tfc_fbody_clear(tfc_fbody *fb) {
  if (!fb) return;
  tfc_graph_unref(fb->g);
  tfc_free(fb->args);
  tfc_free(fb->arg_types);
  tfc_free(fb->rets);
  tfc_free(fb->ret_types);
  tfc_free(fb->targets);
  memset(fb, 0, sizeof *fb);
}

/* The value of ret map entry `key`, or NULL. */
static const char *ret_value(Tensorflow__FunctionDef *fd, const char *key) {
  for (size_t i = 0; i < fd->n_ret; i++)
    if (fd->ret[i] && fd->ret[i]->key && strcmp(fd->ret[i]->key, key) == 0) return fd->ret[i]->value;
  return NULL;
}

/* Builds the GraphDef of the body, imports it and fills out. */
static bool build(builder *b, Tensorflow__FunctionDef *fd, tfc_func_lib *lib, tfc_fbody *out) {
  const Tensorflow__OpDef *sig = fd->signature;
  enum { CAP = FN_MAX_ARGS };
  tfc_dtype *in_t = tfc_pb_arena_calloc(&b->arena, CAP, sizeof(tfc_dtype));
  tfc_dtype *out_t = tfc_pb_arena_calloc(&b->arena, CAP, sizeof(tfc_dtype));
  farg *fargs = tfc_pb_arena_calloc(&b->arena, sig->n_input_arg + 1, sizeof(farg));
  if (!in_t || !out_t || !fargs) return boom(b);
  int n_in = 0, n_out = 0;
  for (size_t i = 0; i < sig->n_input_arg; i++) {
    const Tensorflow__OpDef__ArgDef *a = sig->input_arg[i];
    if (!a->name || !a->name[0]) return bfail(b, "argument %s%shas no name", "", "");
    fargs[i].name = a->name;
    fargs[i].first = n_in;
    if (!arg_types(b, a, in_t, &n_in, CAP)) return false;
    fargs[i].count = n_in - fargs[i].first;
    if (tfc_hashmap_put(&b->args, a->name, strlen(a->name), &fargs[i]) != 0) return boom(b);
  }
  for (size_t i = 0; i < sig->n_output_arg; i++) {
    if (!arg_types(b, sig->output_arg[i], out_t, &n_out, CAP)) return false;
    int cnt = 1;
    (void)cnt;
  }
  /* the GraphDef: one Placeholder per flattened arg, then the body */
  size_t n_nodes = (size_t)n_in + fd->n_node_def;
  Tensorflow__GraphDef gd;
  tensorflow__graph_def__init(&gd);
  Tensorflow__NodeDef *nds = tfc_pb_arena_calloc(&b->arena, n_nodes + 1, sizeof *nds);
  gd.node = tfc_pb_arena_calloc(&b->arena, n_nodes + 1, sizeof *gd.node);
  const char **ret_elems = tfc_pb_arena_calloc(&b->arena, (size_t)n_in + (size_t)n_out +
                                               fd->n_control_ret + 1, sizeof(char *));
  if (!nds || !gd.node || !ret_elems) return boom(b);
  size_t w = 0;
  for (size_t i = 0; i < sig->n_input_arg; i++) {
    for (int k = 0; k < fargs[i].count; k++) {
      Tensorflow__NodeDef *nd = &nds[w];
      tensorflow__node_def__init(nd);
      size_t cap = strlen(fargs[i].name) + 16;
      char *nm = tfc_pb_arena_alloc(&b->arena, cap);
      char *re = tfc_pb_arena_alloc(&b->arena, cap + 4);
      Tensorflow__NodeDef__AttrEntry *e = tfc_pb_arena_alloc(&b->arena, sizeof *e);
      Tensorflow__AttrValue *av = tfc_pb_arena_alloc(&b->arena, sizeof *av);
      nd->attr = tfc_pb_arena_calloc(&b->arena, 1, sizeof *nd->attr);
      if (!nm || !re || !e || !av || !nd->attr) return boom(b);
      if (fargs[i].count == 1)
        snprintf(nm, cap, "%s", fargs[i].name);
      else
        snprintf(nm, cap, "%s/_%d", fargs[i].name, k);
      snprintf(re, cap + 4, "%s:0", nm);
      ret_elems[fargs[i].first + k] = re;
      nd->name = nm;
      nd->op = "Placeholder";
      tensorflow__node_def__attr_entry__init(e);
      tensorflow__attr_value__init(av);
      av->value_case = TENSORFLOW__ATTR_VALUE__VALUE_TYPE;
      av->type = (Tensorflow__DataType)in_t[fargs[i].first + k];
      e->key = "dtype";
      e->value = av;
      nd->attr[0] = e;
      nd->n_attr = 1;
      gd.node[w] = nd;
      w++;
    }
  }
  size_t body0 = w;
  for (size_t i = 0; i < fd->n_node_def; i++) {
    const Tensorflow__NodeDef *src = fd->node_def[i];
    if (!src || !src->name) return bfail(b, "a node of the body has no name%s%s", "", "");
    bool dup = false;
    tfc_hashmap_get(&b->args, src->name, strlen(src->name), &dup);
    if (dup) return bfail(b, "node '%s' has the name of an argument%s", src->name, "");
    if (!copy_node(b, src, &nds[w])) return false;
    if (tfc_hashmap_put(&b->nodes, src->name, strlen(src->name), &nds[w]) != 0) return boom(b);
    gd.node[w] = &nds[w];
    w++;
  }
  for (size_t i = body0; i < w; i++) {
    Tensorflow__NodeDef *nd = &nds[i];
    char **ins = tfc_pb_arena_calloc(&b->arena, nd->n_input + 1, sizeof(char *));
    if (!ins) return boom(b);
    char where[300];
    snprintf(where, sizeof where, "an input of node '%s'", nd->name);
    for (size_t k = 0; k < nd->n_input; k++) {
      ins[k] = rewrite_ref(b, nd->input[k] ? nd->input[k] : "", where);
      if (!ins[k]) return false;
    }
    nd->input = ins;
  }
  gd.n_node = w;
  /* results and control results, as return elements of the import */
  int n_ret_elems = n_in;
  int out_i = 0;
  for (size_t i = 0; i < sig->n_output_arg; i++) {
    const Tensorflow__OpDef__ArgDef *a = sig->output_arg[i];
    if ((a->number_attr && a->number_attr[0]) || (a->type_list_attr && a->type_list_attr[0]))
      return tfc_status_set(b->st, TFC_CODE_UNIMPLEMENTED,
                            "Function '%s': list output '%s' is not supported", b->fname, a->name);
    const char *v = ret_value(fd, a->name);
    if (!v) return bfail(b, "output '%s' has no value in `ret`%s", a->name, "");
    char where[300];
    snprintf(where, sizeof where, "output '%s'", a->name);
    char *r = rewrite_ref(b, v, where);
    if (!r) return false;
    if (!strchr(r, ':')) {
      size_t cap = strlen(r) + 4;
      char *r2 = tfc_pb_arena_alloc(&b->arena, cap);
      if (!r2) return boom(b);
      snprintf(r2, cap, "%s:0", r);
      r = r2;
    }
    ret_elems[n_ret_elems++] = r;
    out_i++;
  }
  for (size_t i = 0; i < fd->n_control_ret; i++) {
    const char *v = fd->control_ret[i] && fd->control_ret[i]->value ? fd->control_ret[i]->value : "";
    bool found = false;
    tfc_hashmap_get(&b->nodes, v, strlen(v), &found);
    if (!found) return bfail(b, "control output '%s' names no node of the body%s", v, "");
    ret_elems[n_ret_elems++] = v;
  }
  void *bytes = NULL;
  size_t len = 0;
  if (!tfc_pb_pack(&gd.base, NULL, 0, &bytes, &len, b->st)) return false;
  tfc_import_options o = {.internal_names = true,
                          .n_return_elements = n_ret_elems,
                          .return_elements = ret_elems};
  tfc_import_result res;
  bool ok = tfc_graph_import(b->g, bytes, len, &o, &res, b->st);
  tfc_free(bytes);
  if (!ok) {
    if (b->st->code != TFC_CODE_RESOURCE_EXHAUSTED) {
      char why[TFC_STATUS_MSG_MAX];
      snprintf(why, sizeof why, "%s", b->st->msg);
      tfc_code code = b->st->code == TFC_CODE_NOT_FOUND ? TFC_CODE_NOT_FOUND : TFC_CODE_INVALID_ARGUMENT;
      tfc_status_set(b->st, code, "Function '%s': %s", b->fname, why);
    }
    return false;
  }
  (void)lib;
  out->n_args = n_in;
  out->n_rets = n_out;
  out->args = tfc_calloc((size_t)n_in + 1, sizeof *out->args);
  out->arg_types = tfc_calloc((size_t)n_in + 1, sizeof *out->arg_types);
  out->rets = tfc_calloc((size_t)n_out + 1, sizeof *out->rets);
  out->ret_types = tfc_calloc((size_t)n_out + 1, sizeof *out->ret_types);
  int n_graph = tfc_graph_num_nodes(b->g);
  out->targets = tfc_calloc((size_t)n_graph + 1, sizeof(int));
  if (!out->args || !out->arg_types || !out->rets || !out->ret_types || !out->targets) {
    tfc_import_result_clear(&res);
    return boom(b);
  }
  for (int i = 0; i < n_in; i++) {
    out->args[i] = (tfc_endpoint){res.returns[i].node, 0};
    out->arg_types[i] = in_t[i];
  }
  for (int i = 0; i < n_out; i++) {
    out->rets[i] = (tfc_endpoint){res.returns[n_in + i].node, res.returns[n_in + i].index};
    out->ret_types[i] = out_t[i];
    tfc_node *rn = tfc_graph_node(b->g, out->rets[i].node);
    if (tfc_dtype_base(rn->out_types[out->rets[i].index]) != out_t[i]) {
      tfc_status_set(b->st, TFC_CODE_INVALID_ARGUMENT,
                     "Function '%s': output %d has type %s in the body but %s in the signature",
                     b->fname, i, tfc_dtype_name(tfc_dtype_base(rn->out_types[out->rets[i].index])),
                     tfc_dtype_name(out_t[i]));
      tfc_import_result_clear(&res);
      return false;
    }
  }
  /* control results and stateful body ops run even when no result needs them */
  bool *mark = tfc_calloc((size_t)n_graph + 1, sizeof(bool));
  if (!mark) {
    tfc_import_result_clear(&res);
    return boom(b);
  }
  for (int i = 0; i < n_in; i++) mark[out->args[i].node] = true; /* never targets */
  for (int i = n_in + n_out; i < n_ret_elems; i++) {
    int id = res.returns[i].node;
    if (!mark[id]) out->targets[out->n_targets++] = id;
    mark[id] = true;
  }
  for (int i = 0; i < n_graph; i++) {
    tfc_node *n = tfc_graph_node(b->g, i);
    if (n->def->flags & TFC_OP_STATEFUL) {
      out->stateful = true;
      if (!mark[i]) out->targets[out->n_targets++] = i;
      mark[i] = true;
    }
  }
  tfc_free(mark);
  out->stateful = out->stateful || sig->is_stateful;
  tfc_import_result_clear(&res);
  return true;
}

/* Instantiates function `name` (see function_lib.h). */
bool tfc_fbody_build(tfc_func_lib *lib, const char *name, const tfc_attrs *attrs, tfc_fbody *out,
                     tfc_status *st) {
  memset(out, 0, sizeof *out);
  const void *data;
  size_t len;
  if (!tfc_func_lib_find(lib, name, &data, &len))
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                          "Failed to find function '%s' in the graph's function library.", name);
  Tensorflow__FunctionDef *fd = (Tensorflow__FunctionDef *)tfc_pb_unpack(
      &tensorflow__function_def__descriptor, data, len, "FunctionDef", st);
  if (!fd) return false;
  builder b;
  memset(&b, 0, sizeof b);
  b.fname = name;
  b.attrs = attrs;
  b.st = st;
  tfc_pb_arena_init(&b.arena);
  tfc_hashmap_init(&b.args);
  tfc_hashmap_init(&b.nodes);
  b.g = tfc_graph_new();
  bool ok = b.g != NULL || boom(&b);
  if (ok) {
    tfc_func_lib_unref(b.g->library);
    b.g->library = tfc_func_lib_ref(lib);
    ok = build(&b, fd, lib, out);
  }
  if (ok) {
    out->g = b.g;
  } else {
    tfc_fbody_clear(out);
    tfc_graph_unref(b.g);
  }
  tfc_hashmap_destroy(&b.args);
  tfc_hashmap_destroy(&b.nodes);
  tfc_pb_arena_free(&b.arena);
  protobuf_c_message_free_unpacked(&fd->base, &tfc_pb_allocator);
  return ok;
}

/* ---- graph -> FunctionDef ---- */

/* "out_arg:k" of output `index` of node n into buf. */
static void out_arg_ref(const tfc_node *n, int index, char *buf, size_t cap) {
  int flat = 0;
  const tfc_op_def *op = n->def;
  for (int i = 0; i < op->n_outputs; i++) {
    const tfc_arg_def *a = &op->outputs[i];
    int cnt = 1;
    const tfc_attr_value *v = NULL;
    if (a->number_attr && (v = tfc_attrs_find(&n->attrs, a->number_attr)) && v->kind == TFC_ATTR_I)
      cnt = (int)v->v.i;
    else if (a->type_list_attr && (v = tfc_attrs_find(&n->attrs, a->type_list_attr)) &&
             v->kind == TFC_ATTR_LIST)
      cnt = v->v.list.n;
    if (index < flat + cnt) {
      snprintf(buf, cap, "%s:%s:%d", n->name, a->name, index - flat);
      return;
    }
    flat += cnt;
  }
  snprintf(buf, cap, "%s:output:%d", n->name, index);
}

/* The argument name for Placeholder node n: its name with every character
 * outside [A-Za-z0-9_] replaced by '_' (a copy in the arena; NULL on OOM). */
static char *arg_name_of(const tfc_node *n, tfc_pb_arena *a) {
  size_t len = strlen(n->name);
  char *s = tfc_pb_arena_alloc(a, len + 2);
  if (!s) return NULL;
  size_t w = 0;
  if (!(n->name[0] == '_' || (n->name[0] >= 'A' && n->name[0] <= 'Z') ||
        (n->name[0] >= 'a' && n->name[0] <= 'z')))
    s[w++] = 'a';
  for (size_t i = 0; i < len; i++) {
    char c = n->name[i];
    bool ok = c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    s[w++] = ok ? c : '_';
  }
  s[w] = 0;
  return s;
}

/* Writes g as a FunctionDef (see function_lib.h). */
bool tfc_function_from_graph(tfc_graph *g, const char *name, int n_args, const int *arg_nodes,
                             int n_rets, const tfc_endpoint *rets, const char *const *ret_names,
                             void **fdef, size_t *len, tfc_status *st) {
  int n = tfc_graph_num_nodes(g);
  for (int i = 0; i < n_args; i++) {
    if (arg_nodes[i] < 0 || arg_nodes[i] >= n ||
        strcmp(tfc_graph_node(g, arg_nodes[i])->def->name, "Placeholder") != 0)
      return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                            "Function '%s': argument %d is not a Placeholder of the graph", name, i);
  }
  for (int i = 0; i < n_rets; i++)
    if (rets[i].node < 0 || rets[i].node >= n || rets[i].index < 0 ||
        rets[i].index >= tfc_graph_node(g, rets[i].node)->n_outputs)
      return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Function '%s': result %d is not a tensor "
                            "of the graph", name, i);
  void *gbytes = NULL;
  size_t glen = 0;
  if (!tfc_graph_export(g, &gbytes, &glen, st)) return false;
  Tensorflow__GraphDef *gd = (Tensorflow__GraphDef *)tfc_pb_unpack(
      &tensorflow__graph_def__descriptor, gbytes, glen, "GraphDef", st);
  tfc_free(gbytes);
  if (!gd) return false;
  tfc_pb_arena a;
  tfc_pb_arena_init(&a);
  bool ok = true;
  bool *is_arg = tfc_calloc((size_t)n + 1, sizeof(bool));
  char **arg_names = tfc_calloc((size_t)n + 1, sizeof(char *));  /* per node id */
  Tensorflow__FunctionDef fd;
  Tensorflow__OpDef sig;
  tensorflow__function_def__init(&fd);
  tensorflow__op_def__init(&sig);
  fd.signature = &sig;
  sig.name = (char *)name;
  sig.input_arg = tfc_pb_arena_calloc(&a, (size_t)n_args + 1, sizeof *sig.input_arg);
  sig.output_arg = tfc_pb_arena_calloc(&a, (size_t)n_rets + 1, sizeof *sig.output_arg);
  fd.ret = tfc_pb_arena_calloc(&a, (size_t)n_rets + 1, sizeof *fd.ret);
  fd.node_def = tfc_pb_arena_calloc(&a, gd->n_node + 1, sizeof *fd.node_def);
  if (!is_arg || !arg_names || !sig.input_arg || !sig.output_arg || !fd.ret || !fd.node_def) ok = false;
  for (int i = 0; ok && i < n_args; i++) {
    tfc_node *an = tfc_graph_node(g, arg_nodes[i]);
    is_arg[arg_nodes[i]] = true;
    Tensorflow__OpDef__ArgDef *ad = tfc_pb_arena_alloc(&a, sizeof *ad);
    if (!ad) {
      ok = false;
      break;
    }
    tensorflow__op_def__arg_def__init(ad);
    ad->name = arg_names[an->id] = arg_name_of(an, &a);
    if (!ad->name) {
      ok = false;
      break;
    }
    ad->type = (Tensorflow__DataType)tfc_dtype_base(an->out_types[0]);
    sig.input_arg[sig.n_input_arg++] = ad;
  }
  for (int i = 0; ok && i < n_rets; i++) {
    tfc_node *rn = tfc_graph_node(g, rets[i].node);
    Tensorflow__OpDef__ArgDef *ad = tfc_pb_arena_alloc(&a, sizeof *ad);
    Tensorflow__FunctionDef__RetEntry *re = tfc_pb_arena_alloc(&a, sizeof *re);
    char *rname = tfc_pb_arena_alloc(&a, 32);
    char *val = tfc_pb_arena_alloc(&a, strlen(rn->name) + 300);
    if (!ad || !re || !rname || !val) {
      ok = false;
      break;
    }
    tensorflow__op_def__arg_def__init(ad);
    tensorflow__function_def__ret_entry__init(re);
    if (ret_names && ret_names[i])
      ad->name = (char *)ret_names[i];
    else
      snprintf(rname, 32, "output_%d", i), ad->name = rname;
    ad->type = (Tensorflow__DataType)tfc_dtype_base(rn->out_types[rets[i].index]);
    if (is_arg[rets[i].node])
      snprintf(val, strlen(rn->name) + 300, "%s", arg_names[rn->id]);
    else
      out_arg_ref(rn, rets[i].index, val, strlen(rn->name) + 300);
    re->key = ad->name;
    re->value = val;
    sig.output_arg[sig.n_output_arg++] = ad;
    fd.ret[fd.n_ret++] = re;
  }
  for (size_t i = 0; ok && i < gd->n_node; i++) {
    Tensorflow__NodeDef *nd = gd->node[i];
    tfc_node *gn = tfc_graph_find(g, nd->name);
    if (!gn || is_arg[gn->id]) continue;
    if ((gn->def->flags & TFC_OP_STATEFUL)) sig.is_stateful = true;
    char **ins = tfc_pb_arena_calloc(&a, nd->n_input + 1, sizeof(char *));
    if (!ins) {
      ok = false;
      break;
    }
    for (size_t k = 0; k < nd->n_input; k++) {
      const char *s = nd->input[k];
      if (s[0] == '^') {
        tfc_node *cn = tfc_graph_find(g, s + 1);
        if (cn && is_arg[cn->id]) {
          size_t cap = strlen(arg_names[cn->id]) + 2;
          if (!(ins[k] = tfc_pb_arena_alloc(&a, cap))) {
            ok = false;
            break;
          }
          snprintf(ins[k], cap, "^%s", arg_names[cn->id]);
        } else {
          ins[k] = (char *)s;
        }
        continue;
      }
      const tfc_endpoint *e = &gn->inputs[k];
      tfc_node *src = tfc_graph_node(g, e->node);
      size_t cap = strlen(src->name) + 300;
      ins[k] = tfc_pb_arena_alloc(&a, cap);
      if (!ins[k]) {
        ok = false;
        break;
      }
      if (is_arg[src->id])
        snprintf(ins[k], cap, "%s", arg_names[src->id]);
      else
        out_arg_ref(src, e->index, ins[k], cap);
    }
    Tensorflow__NodeDef *cp = ok ? tfc_pb_arena_alloc(&a, sizeof *cp) : NULL;
    if (!cp) {
      ok = false;
      break;
    }
    *cp = *nd;
    cp->input = ins;
    fd.node_def[fd.n_node_def++] = cp;
  }
  if (!ok) tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory writing function '%s'", name);
  if (ok) ok = tfc_pb_pack(&fd.base, NULL, 0, fdef, len, st);
  tfc_free(is_arg);
  tfc_free(arg_names);
  tfc_pb_arena_free(&a);
  protobuf_c_message_free_unpacked(&gd->base, &tfc_pb_allocator);
  return ok;
}
