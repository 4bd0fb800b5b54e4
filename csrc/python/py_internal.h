/*
 * py_internal.h — private header of the extension module tfc._tfc.
 *
 * The python folder is the only place that includes Python.h and the NumPy
 * headers. All state lives in one module state struct (tfc_mod_state);
 * objects that need it keep a strong reference to the module.
 *
 * Object graph (all heap types with GC support):
 *   Graph ──ops[node id]──▶ Operation ──outputs tuple──▶ Tensor
 *     ▲                         │  ▲                        │
 *     └──────── graph ──────────┘  └──────── op ────────────┘
 *   Session ──▶ Graph;  Callable ──▶ Session
 * Operation and Tensor objects are created by C only (instances of the
 * classes registered with set_classes, else the base types) and cached, so
 * the same node/endpoint always yields the same Python object.
 *
 * Files: module.c (module, state, module functions), py_graph.c, py_operation.c,
 * py_tensor.c, py_session.c (Session, Callable, the run path), py_convert.c
 * (values <-> tfc_tensor), py_attr.c (attr values), py_errors.c (status ->
 * exception).
 */
#ifndef TFC_PYTHON_PY_INTERNAL_H
#define TFC_PYTHON_PY_INTERNAL_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

#define PY_ARRAY_UNIQUE_SYMBOL tfc_PyArray_API
#ifndef TFC_PY_IMPORT_ARRAY
#define NO_IMPORT_ARRAY
#endif
#include <numpy/arrayobject.h>
#include <numpy/arrayscalars.h>

#include <stdbool.h>
#include <stdint.h>

#include "base/alloc.h"
#include "base/status.h"
#include "core/attr.h"
#include "core/dtype.h"
#include "core/op_registry.h"
#include "core/shape.h"
#include "core/tensor.h"
#include "graph/graph.h"
#include "runtime/session.h"

#if PY_VERSION_HEX >= 0x030D0000
#define TFC_PY_FINALIZING() Py_IsFinalizing()
#else
#define TFC_PY_FINALIZING() _Py_IsFinalizing()
#endif

/* getattr that returns 0 with *out NULL (no exception) when the attribute is
 * missing, 1 when found, -1 on another error. */
static inline int tfc_py_optional_attr(PyObject *o, PyObject *name, PyObject **out) {
#if PY_VERSION_HEX >= 0x030D0000
  return PyObject_GetOptionalAttr(o, name, out);
#else
  return _PyObject_LookupAttr(o, name, out);
#endif
}

/* ---------------------------------------------------------------- state */

typedef struct tfc_mod_state {
  PyTypeObject *graph_type;
  PyTypeObject *operation_type;
  PyTypeObject *tensor_type;
  PyTypeObject *session_type;
  PyTypeObject *callable_type;
  PyTypeObject *tensor_ref_type;  /* owner of a tfc_tensor backing a NumPy array */
  PyTypeObject *op_cls;           /* class instantiated for Operations (strong) */
  PyTypeObject *tensor_cls;       /* class instantiated for Tensors (strong) */
  PyObject *error_classes;        /* dict int code -> exception class, or NULL */
  PyObject *fetch_handler;        /* callable or NULL */
  PyObject *feed_handler;         /* callable or NULL */
  /* interned attribute names */
  PyObject *s_as_datatype_enum;
  PyObject *s_as_list;
  PyObject *s_as_graph_element;
  PyObject *s_ndims;
  PyObject *s_value;
  PyObject *s_name;
  PyObject *s_write;
  PyObject *s_flush;
} tfc_mod_state;

extern PyModuleDef tfc_py_moduledef;

/* The state of module m (never NULL for our module). */
static inline tfc_mod_state *tfc_py_state(PyObject *m) {
  return (tfc_mod_state *)PyModule_GetState(m);
}
/* The module that defined `type` or one of its bases (borrowed), NULL + exception if none. */
PyObject *tfc_py_module_of_type(PyTypeObject *type);

/* --------------------------------------------------------------- objects */

typedef struct GraphObject {
  PyObject_HEAD
  PyObject *module;         /* strong: keeps the state alive */
  tfc_mod_state *ms;
  tfc_graph *g;             /* owned reference */
  PyObject **ops;           /* ops[id]: Operation object or NULL (strong refs) */
  int cap_ops;
  int64_t next_tensor_id;
  PyObject *weakreflist;
} GraphObject;

typedef struct OperationObject {
  PyObject_HEAD
  GraphObject *graph;       /* strong */
  int id;                   /* node id */
  PyObject *outputs;        /* tuple of Tensor objects, created on first use */
  PyObject *weakreflist;
} OperationObject;

typedef struct TensorObject {
  PyObject_HEAD
  OperationObject *op;      /* strong */
  int index;
  int64_t uid;
  PyObject *weakreflist;
} TensorObject;

/* -------------------------------------------------------------- module.c */

/* The dict `op_def(op_type)` returns, for any op definition (also a
 * function's signature); new reference or NULL. */
PyObject *tfc_py_op_def_dict(const tfc_op_def *def);

/* -------------------------------------------------------------- py_function.c */

struct GraphObject;
/* Graph methods on the function library (see py_function.c). */
PyObject *tfc_py_graph_add_function(struct GraphObject *self, PyObject *arg);
PyObject *tfc_py_graph_add_gradient_def(struct GraphObject *self, PyObject *args);
PyObject *tfc_py_graph_function_names(struct GraphObject *self, PyObject *unused);
PyObject *tfc_py_graph_function_def(struct GraphObject *self, PyObject *arg);
PyObject *tfc_py_graph_function_signature(struct GraphObject *self, PyObject *arg);
PyObject *tfc_py_graph_function_gradient(struct GraphObject *self, PyObject *arg);
PyObject *tfc_py_graph_function_from_graph(struct GraphObject *self, PyObject *args);

/* -------------------------------------------------------------- py_graph.c */

extern PyType_Spec tfc_py_graph_spec;
/* The Operation object of node `id` (new reference), created and cached on
 * first use; NULL + exception on failure or a bad id. */
PyObject *tfc_py_graph_op(GraphObject *self, int id);
/* The Tensor object of endpoint ep (new reference); NULL + exception. */
PyObject *tfc_py_graph_tensor(GraphObject *self, tfc_endpoint ep);
/* Resolves a tensor or operation name the way Graph.as_graph_element does:
 * returns 1 (tensor, *ep set), 2 (operation, ep->node set) or -1 with TF's
 * KeyError/ValueError message raised. */
int tfc_py_graph_element(GraphObject *self, PyObject *name, bool allow_tensor, bool allow_op,
                         tfc_endpoint *ep);
/* The node of id (caller checks 0 <= id < n_nodes). */
static inline tfc_node *tfc_py_node(GraphObject *g, int id) { return tfc_graph_node(g->g, id); }

/* ---------------------------------------------------------- py_operation.c */

extern PyType_Spec tfc_py_operation_spec;
/* Creates the Operation object of node id (instance of ms->op_cls); new ref. */
PyObject *tfc_py_operation_new(GraphObject *graph, int id);
/* The tuple of output Tensors of op (borrowed; created on first use); NULL + exception. */
PyObject *tfc_py_operation_outputs(OperationObject *op);

/* ------------------------------------------------------------- py_tensor.c */

extern PyType_Spec tfc_py_tensor_spec;
/* Creates the Tensor object of (op, index) (instance of ms->tensor_cls); new ref.
 * Only py_operation.c calls this (it caches the result). */
PyObject *tfc_py_tensor_new(OperationObject *op, int index);
/* Python form of a static shape: None for unknown rank, else a tuple of int/None. */
PyObject *tfc_py_shape_to_py(const tfc_shape *s);
/* Parses a shape value (None, tuple/list of int/None, object with as_list()/dims).
 * Returns false + exception (TypeError/ValueError). `what` names it in messages. */
bool tfc_py_shape_from_py(tfc_mod_state *ms, PyObject *obj, tfc_shape *out, const char *what);
/* TF 1.15's text form of a static shape: "(2, ?)", "<unknown>", "()". */
void tfc_py_shape_text(const tfc_shape *s, char *buf, size_t size);

/* ------------------------------------------------------------ py_session.c */

extern PyType_Spec tfc_py_session_spec;
extern PyType_Spec tfc_py_callable_spec;

/* ------------------------------------------------------------- py_server.c */

extern PyType_Spec tfc_py_server_spec;
PyObject *tfc_py_mod_grpc_list_devices(PyObject *module, PyObject *args);
PyObject *tfc_py_mod_grpc_reset(PyObject *module, PyObject *args);
PyObject *tfc_py_mod_grpc_initialized(PyObject *module, PyObject *unused);
PyObject *tfc_py_mod_grpc_call(PyObject *module, PyObject *args);

/* ------------------------------------------------------------ py_convert.c */

extern PyType_Spec tfc_py_tensor_ref_spec;
/* NumPy type number of a tfc dtype (base types); -1 when it has none. */
int tfc_py_dtype_to_npy(tfc_dtype t);
/* tfc dtype of a NumPy descr; TFC_DTYPE_INVALID when unsupported. */
tfc_dtype tfc_py_npy_to_dtype(PyArray_Descr *d);
/* Converts a feed value to a tensor of dtype `dtype` following TF 1.15's
 * Session.run rules (np.asarray(value, dtype) plus the int range check).
 * *array_out (if non-NULL) receives a new reference to the NumPy array the
 * tensor was made from, or NULL when the value took the scalar fast path.
 * Zero-copy for C-contiguous aligned arrays of the exact dtype.
 * Returns a new tensor reference, or NULL + Python exception. */
tfc_tensor *tfc_py_feed_to_tensor(tfc_mod_state *ms, PyObject *value, tfc_dtype dtype,
                                  PyObject **array_out);
/* Converts any array-like to a tensor copying the data (dtype inferred from
 * NumPy when want == INVALID, else converted to `want`). NULL + exception. */
tfc_tensor *tfc_py_value_to_tensor_copy(PyObject *value, tfc_dtype want);
/* Python value of a fetched tensor: NumPy array sharing the tensor's memory
 * (copied when others hold the buffer), NumPy scalar for 0-d numeric, bytes
 * for 0-d strings, object arrays of bytes otherwise. force_array keeps 0-d
 * results as 0-d arrays. New reference or NULL + exception. */
PyObject *tfc_py_tensor_to_py(tfc_mod_state *ms, tfc_tensor *t, bool force_array);
/* A NumPy array copy of t (used for tensor attrs); NULL + exception. */
PyObject *tfc_py_tensor_to_array_copy(tfc_tensor *t);
/* Shape of a NumPy-converted value as a Python-style tuple text "(3,)". */
void tfc_py_dims_text(int rank, const int64_t *dims, char *buf, size_t size);

/* --------------------------------------------------------------- py_attr.c */

/* Converts a Python value to an attr value of def->type. false + exception
 * (TypeError/ValueError naming the attr) on failure; *out is then NONE. */
bool tfc_py_attr_from_py(tfc_mod_state *ms, const tfc_attr_def *def, PyObject *value,
                         tfc_attr_value *out);
/* Python form of an attr value (see the interface doc); new ref or NULL. */
PyObject *tfc_py_attr_to_py(const tfc_attr_value *v);
/* Parses a dtype given as int enum, object with as_datatype_enum, NumPy dtype
 * or type name; TFC_DTYPE_INVALID + TypeError when not a dtype. */
tfc_dtype tfc_py_dtype_from_py(tfc_mod_state *ms, PyObject *obj);

/* -------------------------------------------------------------- py_errors.c */

/* Raises the exception for a failed run/plan/session status: the registered
 * tfc.errors class for st->code called as cls(None, op, message) with op the
 * Operation named st->node in graph (None when unknown); RuntimeError before
 * classes are registered. Always returns NULL. graph may be NULL. */
PyObject *tfc_py_raise_status(tfc_mod_state *ms, GraphObject *graph, const tfc_status *st);
/* Raises the builtin exception for a graph-construction status:
 * INVALID_ARGUMENT -> ValueError (TypeError for input-type messages),
 * NOT_FOUND/ALREADY_EXISTS -> ValueError, FAILED_PRECONDITION -> RuntimeError,
 * RESOURCE_EXHAUSTED -> MemoryError, others -> RuntimeError. Returns NULL. */
PyObject *tfc_py_raise_build_status(const tfc_status *st);
/* Raises MemoryError-like status for a C allocation failure; returns NULL. */
PyObject *tfc_py_no_memory(void);

#endif
