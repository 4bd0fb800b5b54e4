/*
 * graph.c — graph lifecycle, append-only node storage in fixed chunks, the
 * name index, endpoints, and adding nodes (validation lives in node_bind.c).
 * See graph.h for the concurrency contract.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "graph/graph.h"
#include "graph/function_lib.h"

/* New empty graph with refcount 1; NULL on OOM. */
tfc_graph *tfc_graph_new(void) {
  tfc_graph *g = tfc_calloc(1, sizeof *g);
  if (!g) return NULL;
  if (pthread_mutex_init(&g->mu, NULL) != 0) {
    tfc_free(g);
    return NULL;
  }
  g->library = tfc_func_lib_new();
  if (!g->library) {
    pthread_mutex_destroy(&g->mu);
    tfc_free(g);
    return NULL;
  }
  atomic_init(&g->refcount, 1);
  atomic_init(&g->n_nodes, 0);
  tfc_hashmap_init(&g->by_name);
  g->producer = 26;
  return g;
}

/* Adds a reference; returns g. NULL-safe. */
tfc_graph *tfc_graph_ref(tfc_graph *g) {
  if (g) atomic_fetch_add(&g->refcount, 1);
  return g;
}

/* Frees everything a node owns, and the node. NULL-safe. */
static void node_free(tfc_node *n) {
  if (!n) return;
  tfc_free(n->name);
  tfc_free(n->inputs);
  tfc_free(n->in_types);
  tfc_free(n->control_inputs);
  tfc_free(n->device);
  tfc_attrs_destroy(&n->attrs);
  tfc_free(n->out_types);
  tfc_free(n->out_shapes);
  tfc_free(n->colocate_with);
  tfc_free(n);
}

/* Drops a reference; the last one frees every node and the graph. NULL-safe. */
void tfc_graph_unref(tfc_graph *g) {
  if (!g || atomic_fetch_sub(&g->refcount, 1) != 1) return;
  int n = g->n_nodes;
  for (int i = 0; i < n; i++) node_free(tfc_graph_node(g, i));
  for (int k = 0; k < TFC_GRAPH_MAX_CHUNKS; k++) tfc_free(g->chunks[k]);
  tfc_hashmap_destroy(&g->by_name);
  tfc_func_lib_unref(g->library);
  pthread_mutex_destroy(&g->mu);
  tfc_free(g);
}

/* Marks g finalized (under the lock, so it orders with concurrent adds). */
void tfc_graph_finalize(tfc_graph *g) {
  pthread_mutex_lock(&g->mu);
  g->finalized = true;
  pthread_mutex_unlock(&g->mu);
}

/* True when name matches [A-Za-z0-9.][A-Za-z0-9_./>-]* (TF's node-name rule). */
static bool valid_node_name(const char *name) {
  if (!name || !(isalnum((unsigned char)name[0]) || name[0] == '.')) return false;
  for (const char *p = name + 1; *p; p++) {
    unsigned char c = (unsigned char)*p;
    if (!(isalnum(c) || c == '_' || c == '.' || c == '/' || c == '-' || c == '>')) return false;
  }
  return true;
}

/* Makes sure the chunk holding node id `id` exists. Caller holds g->mu. */
static bool ensure_slot(tfc_graph *g, int id) {
  unsigned v = (unsigned)id / TFC_GRAPH_CHUNK0 + 1u;
  int k = 31 - __builtin_clz(v);
  if (k >= TFC_GRAPH_MAX_CHUNKS) return false;
  if (g->chunks[k]) return true;
  g->chunks[k] = tfc_calloc((size_t)TFC_GRAPH_CHUNK0 << k, sizeof(tfc_node *));
  return g->chunks[k] != NULL;
}

/* Stores n in its slot (which must exist). Caller holds g->mu. */
static void store_slot(tfc_graph *g, int id, tfc_node *n) {
  unsigned v = (unsigned)id / TFC_GRAPH_CHUNK0 + 1u;
  int k = 31 - __builtin_clz(v);
  g->chunks[k][(unsigned)id - TFC_GRAPH_CHUNK0 * ((1u << k) - 1u)] = n;
}

/* Copies the control inputs of req into n, checking ids and dropping repeats. */
static bool copy_controls(tfc_graph *g, tfc_node *n, const tfc_node_request *req, tfc_status *st) {
  if (req->n_control <= 0) return true;
  if (!req->control_inputs)
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Node '%s': control inputs missing", n->name);
  n->control_inputs = tfc_malloc(sizeof(int) * (size_t)req->n_control);
  if (!n->control_inputs)
    return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory adding node '%s'", n->name);
  int nn = g->n_nodes;
  for (int i = 0; i < req->n_control; i++) {
    int c = req->control_inputs[i];
    if (c < 0 || c >= nn)
      return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                            "Control input %d of node '%s' refers to node id %d, which is not in the graph",
                            i, n->name, c);
    bool dup = false;
    for (int j = 0; j < n->n_control && !dup; j++) dup = n->control_inputs[j] == c;
    if (!dup) n->control_inputs[n->n_control++] = c;
  }
  return true;
}

/* Validates and appends a node; see graph.h. */
tfc_node *tfc_graph_add_node(tfc_graph *g, tfc_node_request *req, tfc_status *st) {
  tfc_attrs given;
  tfc_attrs_init(&given);
  if (req->attrs) {
    given = *req->attrs;
    tfc_attrs_init(req->attrs);
  }
  tfc_node *n = NULL;
  pthread_mutex_lock(&g->mu);
  if (g->finalized) {
    tfc_status_set(st, TFC_CODE_FAILED_PRECONDITION, "Graph is finalized and cannot be modified.");
    goto fail;
  }
  if (!req->name || !(valid_node_name(req->name) ||
                      (req->internal_name && req->name[0] == '_' && valid_node_name(req->name + 1)))) {
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Node name '%s' is not valid (it must match "
                   "[A-Za-z0-9.][A-Za-z0-9_./>-]*)", req->name ? req->name : "");
    goto fail;
  }
  tfc_status lst;
  tfc_status_clear(&lst);
  if (!tfc_op_registry_load(&lst)) {
    tfc_status_copy(st, &lst);
    goto fail;
  }
  const tfc_op_def *def = req->op_type ? tfc_graph_lookup_op(g, req->op_type) : NULL;
  if (!def) {
    tfc_status_set(st, TFC_CODE_NOT_FOUND, "Op type not registered '%s' in binary running on tfc.",
                   req->op_type ? req->op_type : "");
    goto fail;
  }
  size_t name_len = strlen(req->name);
  bool found = false;
  tfc_hashmap_get(&g->by_name, req->name, name_len, &found);
  if (found) {
    tfc_status_set(st, TFC_CODE_ALREADY_EXISTS, "Duplicate node name in graph: '%s'", req->name);
    goto fail;
  }
  int id = g->n_nodes;
  if ((long long)id >= (long long)TFC_GRAPH_CHUNK0 * ((1LL << TFC_GRAPH_MAX_CHUNKS) - 1)) {
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "Graph has too many nodes");
    goto fail;
  }
  int n_in = 0;
  for (int i = 0; i < req->n_args && req->arg_sizes; i++) {
    if (req->arg_sizes[i] < 0) {
      tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Negative arg size for node '%s'", req->name);
      goto fail;
    }
    if (req->arg_sizes[i] > (1 << 24) - n_in) {
      tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Too many inputs for node '%s'", req->name);
      goto fail;
    }
    n_in += req->arg_sizes[i];
  }
  n = tfc_calloc(1, sizeof *n);
  if (!n) goto oom;
  n->id = id;
  n->def = def;
  tfc_attrs_init(&n->attrs);
  n->name = tfc_strdup(req->name);
  n->device = tfc_strdup(req->device ? req->device : "");
  n->inputs = tfc_malloc(sizeof *n->inputs * (size_t)(n_in > 0 ? n_in : 1));
  if (!n->name || !n->device || !n->inputs) goto oom;
  if (n_in > 0) {
    if (!req->inputs) {
      tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Node '%s': inputs missing", req->name);
      goto fail;
    }
    memcpy(n->inputs, req->inputs, sizeof *n->inputs * (size_t)n_in);
  }
  n->n_inputs = n_in;
  if (!tfc_node_bind(g, n, req, &given, st)) goto fail;
  if (!copy_controls(g, n, req, st)) goto fail;
  if (!ensure_slot(g, id)) goto oom;
  if (tfc_hashmap_put(&g->by_name, n->name, name_len, n) != 0) goto oom;
  store_slot(g, id, n);
  atomic_store(&g->n_nodes, id + 1);  /* publishes the slot to lock-free readers */
  pthread_mutex_unlock(&g->mu);
  tfc_attrs_destroy(&given);
  tfc_status_clear(st);
  return n;
oom:
  tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory adding node '%s'",
                 req->name ? req->name : "");
fail:
  pthread_mutex_unlock(&g->mu);
  if (req->name) tfc_status_set_node(st, req->name);
  node_free(n);
  tfc_attrs_destroy(&given);
  return NULL;
}

/* Node by name or NULL (takes g->mu: the index may be rehashed by a writer). */
tfc_node *tfc_graph_find(tfc_graph *g, const char *name) {
  if (!name) return NULL;
  pthread_mutex_lock(&g->mu);
  tfc_node *n = tfc_hashmap_get(&g->by_name, name, strlen(name), NULL);
  pthread_mutex_unlock(&g->mu);
  return n;
}

/* Parses "name", "name:3" or "^name"; see graph.h. */
bool tfc_graph_parse_endpoint(tfc_graph *g, const char *s, tfc_endpoint *out, bool *is_control,
                              tfc_status *st) {
  if (!s || !*s) return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Empty tensor name");
  bool ctrl = s[0] == '^';
  const char *name = ctrl ? s + 1 : s;
  size_t len = strlen(name);
  int index = 0;
  const char *colon = strrchr(name, ':');
  if (colon && !ctrl) {
    const char *d = colon + 1;
    if (!*d) return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Malformed tensor name '%s'", s);
    long v = 0;
    for (; *d; d++) {
      if (!isdigit((unsigned char)*d) || v > 100000000)
        return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Malformed tensor name '%s'", s);
      v = v * 10 + (*d - '0');
    }
    index = (int)v;
    len = (size_t)(colon - name);
  } else if (colon) {
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Malformed control input name '%s'", s);
  }
  if (len == 0) return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Malformed tensor name '%s'", s);
  pthread_mutex_lock(&g->mu);
  tfc_node *n = tfc_hashmap_get(&g->by_name, name, len, NULL);
  pthread_mutex_unlock(&g->mu);
  if (!n)
    return tfc_status_set(st, TFC_CODE_NOT_FOUND, "The name '%s' refers to a node '%.*s' which does not exist in the graph.",
                          s, (int)len, name);
  if (index >= n->n_outputs && !ctrl)
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                          "The name '%s' refers to a Tensor which does not exist. The operation, '%s', "
                          "exists but only has %d outputs.", s, n->name, n->n_outputs);
  out->node = n->id;
  out->index = ctrl ? -1 : index;
  if (is_control) *is_control = ctrl;
  return true;
}

/* Replaces a node's requested device; false + RESOURCE_EXHAUSTED on OOM
 * (the old device is kept then). */
bool tfc_node_set_device(tfc_node *n, const char *device, tfc_status *st) {
  char *d = tfc_strdup(device ? device : "");
  if (!d)
    return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory setting device of '%s'",
                          n->name);
  tfc_free(n->device);
  n->device = d;
  return true;
}

/* Adds control edge n <- ctrl unless present; false + RESOURCE_EXHAUSTED on
 * OOM, INVALID_ARGUMENT for a negative id or a self edge. */
bool tfc_node_add_control_input(tfc_node *n, int ctrl, tfc_status *st) {
  if (ctrl < 0 || ctrl == n->id)
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Bad control input %d for node '%s'", ctrl,
                          n->name);
  for (int i = 0; i < n->n_control; i++)
    if (n->control_inputs[i] == ctrl) return true;
  int *c = tfc_realloc(n->control_inputs, sizeof(int) * (size_t)(n->n_control + 1));
  if (!c)
    return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory adding a control input to '%s'",
                          n->name);
  c[n->n_control++] = ctrl;
  n->control_inputs = c;
  return true;
}

/* Replaces one data input of n (see graph.h). */
bool tfc_node_update_input(tfc_graph *g, tfc_node *n, int index, tfc_endpoint src, tfc_status *st) {
  if (index < 0 || index >= n->n_inputs)
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Node '%s' has no input %d", n->name, index);
  if (src.node < 0 || src.node >= tfc_graph_num_nodes(g))
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Bad input node %d for '%s'", src.node, n->name);
  tfc_node *p = tfc_graph_node(g, src.node);
  if (src.index < 0 || src.index >= p->n_outputs)
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Node '%s' has no output %d", p->name, src.index);
  tfc_dtype want = n->in_types[index], have = p->out_types[src.index];
  bool ok = tfc_dtype_is_ref(want) ? have == want : tfc_dtype_base(have) == want;
  if (!ok)
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                          "Input %d of node %s was passed %s from %s:%d incompatible with expected %s.",
                          index, n->name, tfc_op_dtype_string(have), p->name, src.index,
                          tfc_op_dtype_string(want));
  pthread_mutex_lock(&g->mu);
  n->inputs[index] = src;
  pthread_mutex_unlock(&g->mu);
  return true;
}

/* Re-runs n's shape function and merges the result into n's output shapes
 * (facts already known, e.g. from set_shape, are kept). false + st when the
 * shape function fails or the new facts conflict with the old ones. */
bool tfc_graph_refresh_shapes(tfc_graph *g, tfc_node *n, tfc_status *st) {
  tfc_shape *s = tfc_malloc(sizeof *s * (size_t)(n->n_outputs > 0 ? n->n_outputs : 1));
  if (!s)
    return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory inferring shapes of '%s'",
                          n->name);
  pthread_mutex_lock(&g->mu);
  bool ok = tfc_node_infer_shapes(g, n, s, st);
  for (int i = 0; ok && i < n->n_outputs; i++) {
    tfc_shape m;
    if (!tfc_shape_merge(&n->out_shapes[i], &s[i], &m)) {
      char a[128], b[128];
      tfc_shape_to_string(&n->out_shapes[i], a, (int)sizeof a);
      tfc_shape_to_string(&s[i], b, (int)sizeof b);
      ok = tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                          "Shapes %s and %s are incompatible for output %d of node '%s'", a, b, i,
                          n->name);
      tfc_status_set_node(st, n->name);
    } else {
      s[i] = m;
    }
  }
  if (ok) memcpy(n->out_shapes, s, sizeof *s * (size_t)n->n_outputs);
  pthread_mutex_unlock(&g->mu);
  tfc_free(s);
  return ok;
}
