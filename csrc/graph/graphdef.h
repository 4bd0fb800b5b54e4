/*
 * graphdef.h — GraphDef import and export: TensorFlow's serialized graph
 * format (tensorflow.GraphDef, proto/graph.proto) to and from a tfc_graph.
 *
 * Import parses the bytes, checks the whole GraphDef before adding anything
 * (ops registered, node names valid and unique, inputs resolvable, input
 * counts, input_map keys used, no cycles), then adds the nodes in a
 * topological order (a GraphDef may list them in any order) through
 * tfc_graph_add_node, which binds types, fills attr defaults and runs shape
 * functions. Attrs whose names start with '_' are dropped except
 * `_class: ["loc:@x"]` (colocation); attrs the op definition does not know
 * are ignored, as TensorFlow does for graphs from newer producers.
 * If tfc_graph_add_node still rejects a node (a type or shape error), the
 * nodes added before it stay in the graph (the graph is append-only); the
 * status names the failing node.
 *
 * Export writes every node with all its attrs in name order, `_class` from
 * colocate_with, inputs as "x", "x:k" and "^x", and versions.producer =
 * g->producer.
 *
 *   tfc_import_options o = {.prefix = "import", .uniquify_names = true};
 *   tfc_import_result r;
 *   if (tfc_graph_import(g, bytes, len, &o, &r, st)) { ... r.nodes ... }
 *   tfc_import_result_clear(&r);
 */
#ifndef TFC_GRAPH_GRAPHDEF_H
#define TFC_GRAPH_GRAPHDEF_H

#include <stdbool.h>
#include <stddef.h>

#include "base/status.h"
#include "graph/graph.h"
#include "graph/subgraph.h"

/* One input_map entry: uses of `key` in the GraphDef are rewired to `value`,
 * an endpoint already in the graph. key is a GraphDef tensor name ("x" means
 * "x:0") or "^x" to rewire control inputs on x (then only value.node is used). */
typedef struct tfc_import_mapping {
  const char *key;
  tfc_endpoint value;
} tfc_import_mapping;

typedef struct tfc_import_options {
  /* Added nodes are named "<prefix>/<name>"; NULL or "" for no prefix. */
  const char *prefix;
  /* A name that already exists in the graph gets TF's "_1", "_2", ...
   * suffix (and every reference to it is rewired) instead of failing. */
  bool uniquify_names;
  /* Rewrite TF 2.x resource-variable ops (VarHandleOp, ReadVariableOp,
   * AssignVariableOp, ResourceApply*, ...) onto tfc's ref-variable ops first
   * (what a master does with a TF client's graph). */
  bool resource_variables_as_ref;
  /* Also accept names starting with '_' (the runtime's own nodes, such as
   * the _send_/_recv_ nodes of a partition a master registers). */
  bool internal_names;
  /* Device for nodes whose NodeDef has none; NULL or "" for none. */
  const char *default_device;
  int n_input_map;
  const tfc_import_mapping *input_map;
  /* Node ids added as control inputs to every imported node that has no
   * input (data or control) from another imported node. */
  int n_control_dependencies;
  const int *control_dependencies;
  /* Names to resolve after the import: "x:k" / "x" with a colon (a tensor),
   * or a plain "x" (an operation); GraphDef names, before the prefix. */
  int n_return_elements;
  const char *const *return_elements;
} tfc_import_options;

/* A resolved return element: index >= 0 for a tensor, -1 for an operation. */
typedef struct tfc_import_element {
  int node;
  int index;
} tfc_import_element;

typedef struct tfc_import_result {
  int n_nodes;
  int *nodes;                 /* ids of the added nodes, in GraphDef order */
  int n_returns;
  tfc_import_element *returns;  /* one per options->return_elements entry */
  void *library;              /* serialized FunctionDefLibrary (non-NULL, possibly of
                                 length 0, when the GraphDef has a library field) */
  size_t library_len;
  int producer;               /* versions.producer (0 when absent) */
  int min_consumer;
} tfc_import_result;

/* Parses a serialized GraphDef (data, len) and adds its nodes to g as
 * described at the top of this file. opts may be NULL (no prefix, no maps);
 * res may be NULL; when given it is always initialised, filled on success
 * (release it with tfc_import_result_clear) and left empty on failure (nodes
 * added before a late failure are still in g). When g had no nodes and the GraphDef has a
 * producer version, g->producer takes it. Returns false with st set:
 *   INVALID_ARGUMENT "Invalid GraphDef: ..." for bytes that do not parse;
 *   NOT_FOUND "Op type not registered 'X' ..." for an unknown op;
 *   INVALID_ARGUMENT, in TF's words, for "Node 'a' is not unique",
 *   "Node 'b': Unknown input node 'x'", "Node 'b': Connecting to invalid
 *   output 3 of source node a which has 1 outputs.", "NodeDef expected
 *   inputs ... do not match N inputs specified; ...", "N nodes in a cycle",
 *   "Attempted to map inputs that were not found in graph_def: [x:0]",
 *   "Requested return tensor 'x:0' not found in graph def", "Node 'a'
 *   expects to be colocated with unknown node 'x'" (a `_class` "loc:@x"
 *   naming no node of the GraphDef or of g), a name clash
 *   without uniquify_names, and the errors of tfc_graph_add_node;
 *   FAILED_PRECONDITION when g is finalized; RESOURCE_EXHAUSTED on OOM. */
bool tfc_graph_import(tfc_graph *g, const void *data, size_t len, const tfc_import_options *opts,
                      tfc_import_result *res, tfc_status *st);

/* Frees what a result owns and zeroes it. NULL-safe. */
void tfc_import_result_clear(tfc_import_result *res);

typedef struct tfc_export_options {
  /* Export the nodes with first_node <= id < end_node only (end_node <= 0:
   * up to the last node), e.g. the nodes added since an earlier export, or
   * one node for Operation.node_def. */
  int first_node;
  int end_node;
  /* Also write `_output_shapes` (list(shape)) on every node, as TF's
   * as_graph_def(add_shapes=True). */
  bool add_shapes;
  /* A serialized FunctionDefLibrary to write as GraphDef.library (e.g. the
   * one an import returned; non-NULL with length 0 writes an empty one), or
   * NULL for none. */
  const void *library;
  size_t library_len;
} tfc_export_options;

/* Serializes g (its nodes at the time of the call) as a GraphDef into a new
 * buffer from tfc_malloc: *data (free with tfc_free) and *len. false +
 * RESOURCE_EXHAUSTED on OOM. */
bool tfc_graph_export(tfc_graph *g, void **data, size_t *len, tfc_status *st);

/* tfc_graph_export with options (opts may be NULL). */
bool tfc_graph_export_ex(tfc_graph *g, const tfc_export_options *opts, void **data, size_t *len,
                         tfc_status *st);

/* How one partition of a subgraph is written as a GraphDef for a remote
 * task (a worker's RegisterGraph). Every node gets device_name. A data input
 * that is a feed becomes a client-terminated _Recv node (one per feed used)
 * with tensor_name feed_names[i] sent from client_device; every fetch
 * located in this partition gets a client-terminated _Send to client_device
 * with tensor_name fetch_names[i]. Synthesized nodes (_Send/_Recv of
 * cross-partition edges) get `suffix` appended to their names, so names stay
 * unique across the plans of one session. */
typedef struct tfc_partition_export_options {
  const char *device_name;
  const char *client_device;
  int64_t client_incarnation;
  int64_t device_incarnation;      /* of device_name: written on the fetch _Send nodes */
  const char *const *feed_names;   /* sg->n_feeds entries, e.g. "x:0" */
  const char *const *fetch_names;  /* sg->n_fetches entries */
  const char *suffix;
  int producer;                    /* versions.producer */
  const void *library;             /* serialized FunctionDefLibrary to write (NULL: none) */
  size_t library_len;
} tfc_partition_export_options;

/* Serializes partition `part` of sg (see above) into a new tfc_malloc'd
 * buffer. false + RESOURCE_EXHAUSTED on OOM. */
bool tfc_partition_export(const tfc_subgraph *sg, int part, const tfc_partition_export_options *o,
                          void **data, size_t *len, tfc_status *st);

#endif
