/*
 * graph.h — the dataflow graph: nodes, data and control edges, devices, attrs.
 *
 * Nodes are append-only (ids are dense and stable); a node is validated
 * against its op definition when added: inputs bound to argument lists,
 * type attrs inferred from input dtypes, defaults filled in, and the op's
 * shape function run, so type and shape errors surface at build time as in TF.
 * Names are unique; name scoping and uniquifying live in the Python layer.
 */
#ifndef TFC_GRAPH_GRAPH_H
#define TFC_GRAPH_GRAPH_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <pthread.h>

#include "base/hashmap.h"
#include "base/status.h"
#include "core/attr.h"
#include "core/op_registry.h"

typedef struct tfc_endpoint {
  int node;   /* node id */
  int index;  /* output index */
} tfc_endpoint;

typedef struct tfc_node {
  int id;
  char *name;
  const tfc_op_def *def;
  int n_inputs;              /* flattened data inputs */
  tfc_endpoint *inputs;
  tfc_dtype *in_types;       /* expected type of each input (ref types for Ref args) */
  int n_control;
  int *control_inputs;       /* node ids */
  char *device;              /* requested device string as given ("" when none) */
  tfc_attrs attrs;           /* complete: defaults filled in */
  int n_outputs;
  tfc_dtype *out_types;      /* ref types for Ref outputs */
  tfc_shape *out_shapes;     /* static (partial) shapes */
  char *colocate_with;       /* node name from a `_class: loc:@x` hint, or NULL */
} tfc_node;

/*
 * Node storage and concurrency. Node pointers live in chunks that never move:
 * chunk k holds TFC_GRAPH_CHUNK0 << k pointers, so node id i sits in a fixed
 * slot and the chunk table itself is a fixed array. Writers (add_node, under
 * g->mu) fill the slot first and then publish it by incrementing the atomic
 * n_nodes; so a reader (a session building a plan while Python adds nodes)
 * may, without the lock, read n = g->n_nodes and then tfc_graph_node(g, id)
 * for any id < n. Nodes are never removed or moved, and the fields written by
 * tfc_graph_add_node never change afterwards, except: device
 * (tfc_node_set_device), control inputs (tfc_node_add_control_input) and
 * out_shapes (tfc_graph_refresh_shapes / a set_shape) — callers must not run
 * those while another thread reads the same node (sessions read nodes when
 * they build a plan, as TF snapshots the graph at that point).
 * tfc_graph_find takes g->mu (the name map may be rehashed by a writer).
 */
#define TFC_GRAPH_CHUNK0 64
#define TFC_GRAPH_MAX_CHUNKS 25  /* 64 * (2^25 - 1) nodes at most */

typedef struct tfc_graph {
  atomic_int refcount;
  pthread_mutex_t mu;        /* serialises writers; guards by_name */
  _Atomic int n_nodes;       /* published node count (see above) */
  tfc_node **chunks[TFC_GRAPH_MAX_CHUNKS];
  tfc_hashmap by_name;
  bool finalized;
  int producer;              /* GraphDef versions.producer to write */
  struct tfc_func_lib *library;  /* functions (graph/function_lib.h); never NULL */
  bool has_library;          /* an imported GraphDef had a `library` field (export keeps it) */
} tfc_graph;

/* New empty graph with refcount 1; NULL on OOM. */
tfc_graph *tfc_graph_new(void);
tfc_graph *tfc_graph_ref(tfc_graph *g);
void tfc_graph_unref(tfc_graph *g);

/* Everything needed to add a node. inputs is flat; arg_sizes[i] is the number
 * of tensors bound to input arg i (1 for a single-tensor arg). attrs are the
 * explicitly given ones (ownership is taken, on success and on failure: *attrs
 * is left empty; attrs may be NULL for none). Attrs whose names start with '_'
 * are accepted and dropped, except that `_class = ["loc:@x", ...]` sets
 * colocate_with = "x". */
typedef struct tfc_node_request {
  const char *op_type;
  const char *name;
  const char *device;          /* may be NULL */
  int n_args;                  /* must equal the op's number of input args */
  const int *arg_sizes;
  const tfc_endpoint *inputs;  /* sum(arg_sizes) entries */
  int n_control;
  const int *control_inputs;
  tfc_attrs *attrs;
  bool internal_name;          /* also accept a leading '_' (runtime-made nodes) */
} tfc_node_request;

/* Validates and appends a node. On error returns NULL with st set: NOT_FOUND
 * ("Op type not registered 'X'"), INVALID_ARGUMENT for type/attr/shape
 * problems (naming the node), ALREADY_EXISTS for a duplicate name,
 * FAILED_PRECONDITION when the graph is finalized. */
tfc_node *tfc_graph_add_node(tfc_graph *g, tfc_node_request *req, tfc_status *st);
/* Node by name or NULL. */
tfc_node *tfc_graph_find(tfc_graph *g, const char *name);
/* Node by id (0 <= id < n_nodes); lock-free, see "Node storage" above. */
static inline tfc_node *tfc_graph_node(tfc_graph *g, int id) {
  unsigned v = (unsigned)id / TFC_GRAPH_CHUNK0 + 1u;
  int k = 31 - __builtin_clz(v);
  return g->chunks[k][(unsigned)id - TFC_GRAPH_CHUNK0 * ((1u << k) - 1u)];
}
/* Number of nodes (an atomic read; nodes below it are complete). */
static inline int tfc_graph_num_nodes(tfc_graph *g) { return g->n_nodes; }
/* Marks the graph finalized: later tfc_graph_add_node calls fail. */
void tfc_graph_finalize(tfc_graph *g);
/* Parses "name", "name:3" or "^name" against the graph (out->index is -1 and
 * *is_control true for "^name"; is_control may be NULL). Returns false + st
 * (NOT_FOUND / INVALID_ARGUMENT, TF's wording) when malformed or absent. */
bool tfc_graph_parse_endpoint(tfc_graph *g, const char *s, tfc_endpoint *out, bool *is_control,
                              tfc_status *st);
/* Sets a node's requested device (used by import and by Python's _set_device). */
bool tfc_node_set_device(tfc_node *n, const char *device, tfc_status *st);
/* Adds a control edge n <- ctrl (no-op when present). */
bool tfc_node_add_control_input(tfc_node *n, int ctrl, tfc_status *st);
/* Replaces data input `index` of n with endpoint src (TF's UpdateEdge, used
 * for a loop's back edge into Merge). The dtype must equal the input's type;
 * output shapes are kept. INVALID_ARGUMENT on a bad index, endpoint or dtype. */
bool tfc_node_update_input(tfc_graph *g, tfc_node *n, int index, tfc_endpoint src, tfc_status *st);
/* Re-runs the shape function after an input's shape became more specific
 * (e.g. set_shape); returns false on error. */
bool tfc_graph_refresh_shapes(tfc_graph *g, tfc_node *n, tfc_status *st);

/* Internal, shared by graph.c and node_bind.c: validates req (op args,
 * arg_sizes) for a node n whose name, def, n_inputs and inputs are set, and fills
 * n->in_types, n->attrs (taken from *given, then completed with inferred
 * attrs and defaults; '_' attrs dropped), n->colocate_with, n->n_outputs,
 * n->out_types and n->out_shapes (running the shape function). Caller holds
 * g->mu. On failure st is set (naming the node) and the partial fields are
 * left for the caller to free. */
bool tfc_node_bind(tfc_graph *g, tfc_node *n, const tfc_node_request *req, tfc_attrs *given,
                   tfc_status *st);
/* Internal: runs n's shape function from its current input shapes into
 * out (n->n_outputs entries). */
bool tfc_node_infer_shapes(tfc_graph *g, const tfc_node *n, tfc_shape *out, tfc_status *st);

#endif
