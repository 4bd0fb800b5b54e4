/*
 * function_lib.h — a graph's function library (TF's FunctionDefLibrary) and
 * the instantiation of one function's body as a graph.
 *
 * Every tfc_graph owns a library (g->library). Functions are kept as their
 * serialized FunctionDef (the bytes a GraphDef carried or Python traced) plus
 * their signature parsed into a tfc_op_def with the TFC_OP_FUNCTION flag, so
 * a node whose op is a function name binds like any op (inputs, type attrs,
 * outputs) and exports unchanged. Entries are never removed or replaced, so
 * a signature pointer stays valid as long as the library lives; the library
 * is reference counted because body graphs share their parent's.
 *
 * Thread safety: all functions may be called concurrently (one mutex).
 */
#ifndef TFC_GRAPH_FUNCTION_LIB_H
#define TFC_GRAPH_FUNCTION_LIB_H

#include <stdbool.h>
#include <stddef.h>

#include "base/status.h"
#include "core/attr.h"
#include "core/op_registry.h"
#include "graph/graph.h"

typedef struct tfc_func_lib tfc_func_lib;

/* New empty library (refcount 1); NULL on OOM. */
tfc_func_lib *tfc_func_lib_new(void);
tfc_func_lib *tfc_func_lib_ref(tfc_func_lib *lib);
void tfc_func_lib_unref(tfc_func_lib *lib);

/* Adds one serialized FunctionDef. A function already present with the same
 * bytes is accepted (no-op); with different bytes: INVALID_ARGUMENT "Cannot
 * add function 'f' because a different function with the same name already
 * exists.". A name that is a registered op, an invalid signature or bytes
 * that do not parse: INVALID_ARGUMENT. */
bool tfc_func_lib_add_function(tfc_func_lib *lib, const void *fdef, size_t len, tfc_status *st);
/* Adds every function and gradient of a serialized FunctionDefLibrary (as
 * tfc_func_lib_add_function; stops at the first error). */
bool tfc_func_lib_add_library(tfc_func_lib *lib, const void *data, size_t len, tfc_status *st);
/* Records that `grad` is the gradient function of `fn` (GradientDef). */
bool tfc_func_lib_add_gradient(tfc_func_lib *lib, const char *fn, const char *grad, tfc_status *st);

/* The signature of function `name` as an op definition, or NULL. */
const tfc_op_def *tfc_func_lib_signature(tfc_func_lib *lib, const char *name);
/* The gradient function's name recorded for `name`, or NULL. */
const char *tfc_func_lib_gradient(tfc_func_lib *lib, const char *name);
/* The serialized FunctionDef of `name` (borrowed, lives with lib), or false. */
bool tfc_func_lib_find(tfc_func_lib *lib, const char *name, const void **fdef, size_t *len);
/* Number of functions. */
int tfc_func_lib_size(tfc_func_lib *lib);
/* Names of the functions in the order they were added; *names is a new
 * tfc_malloc'd array of borrowed strings (free the array only). */
bool tfc_func_lib_names(tfc_func_lib *lib, const char ***names, int *n, tfc_status *st);
/* Serializes the library as a FunctionDefLibrary (functions in the order
 * added, then gradients) into a new tfc_malloc'd buffer. */
bool tfc_func_lib_export(tfc_func_lib *lib, void **data, size_t *len, tfc_status *st);

/* An op definition: the registered op `name`, else the signature of the
 * function `name` of g's library, else NULL. */
const tfc_op_def *tfc_graph_lookup_op(tfc_graph *g, const char *name);

/* One function instantiated for a set of attrs: its body as a new graph whose
 * arguments are Placeholder nodes (feed them), its results endpoints (fetch
 * them) and the nodes that must run although no result needs them (the
 * FunctionDef's control outputs and the body's stateful ops). */
typedef struct tfc_fbody {
  tfc_graph *g;              /* shares the library it was built from */
  int n_args;
  tfc_endpoint *args;        /* Placeholder outputs, one per flattened input */
  tfc_dtype *arg_types;
  int n_rets;
  tfc_endpoint *rets;        /* one per flattened output */
  tfc_dtype *ret_types;
  int n_targets;
  int *targets;              /* node ids */
  bool stateful;
} tfc_fbody;

/* Builds the body of function `name` of lib for attrs (NULL: none): attr
 * placeholders in body nodes and type parameters of the signature take the
 * attrs' values; body inputs "node:out_arg:k" are resolved to output indices;
 * devices are dropped (the runtime places the body). Errors: INVALID_ARGUMENT
 * "Failed to find function 'f' in the graph's function library.",
 * INVALID_ARGUMENT for a missing attr, a bad reference or a node that does
 * not bind (the message names the function and the node). */
bool tfc_fbody_build(tfc_func_lib *lib, const char *name, const tfc_attrs *attrs, tfc_fbody *out,
                     tfc_status *st);
/* Frees what a body owns and zeroes it. NULL-safe. */
void tfc_fbody_clear(tfc_fbody *b);

/* Makes a FunctionDef from graph g (e.g. a Python function traced into a
 * graph of its own): the Placeholder nodes `arg_nodes` become the arguments
 * (named after the nodes), `rets` the results named ret_names (NULL: "output_<i>"),
 * every other node of g goes into the body, with inputs written
 * "node:out_arg:k". The signature is stateful when a body op is. Writes a
 * new tfc_malloc'd serialized FunctionDef. INVALID_ARGUMENT when an arg node
 * is not a Placeholder or a name is not valid. */
bool tfc_function_from_graph(tfc_graph *g, const char *name, int n_args, const int *arg_nodes,
                             int n_rets, const tfc_endpoint *rets, const char *const *ret_names,
                             void **fdef, size_t *len, tfc_status *st);

#endif
