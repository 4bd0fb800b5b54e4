/*
 * py_errors.c — the one place that maps tfc_status codes onto Python exceptions.
 *
 * Run-time failures (session creation, planning, running) become the
 * tfc.errors class registered for the code, constructed as
 * cls(None, op, message) like TensorFlow's OpError(node_def, op, message);
 * before registration they are RuntimeError. Graph-construction failures
 * become the builtin exceptions TensorFlow's Python layer raises.
 */
#include "python/py_internal.h"

#include <string.h>

/* Raises MemoryError; returns NULL. */
PyObject *tfc_py_no_memory(void) {
  PyErr_NoMemory();
  return NULL;
}

/* Raises the registered class (or RuntimeError) for a run status; returns NULL. */
PyObject *tfc_py_raise_status(tfc_mod_state *ms, GraphObject *graph, const tfc_status *st) {
  PyObject *cls = NULL;
  if (ms->error_classes) {
    PyObject *key = PyLong_FromLong((long)st->code);
    if (!key) return NULL;
    cls = PyDict_GetItemWithError(ms->error_classes, key);
    Py_DECREF(key);
    if (!cls && PyErr_Occurred()) return NULL;
    if (!cls) {
      key = PyLong_FromLong((long)TFC_CODE_UNKNOWN);
      if (!key) return NULL;
      cls = PyDict_GetItemWithError(ms->error_classes, key);
      Py_DECREF(key);
      if (!cls && PyErr_Occurred()) return NULL;
    }
  }
  if (!cls) {
    if (st->node[0])
      PyErr_Format(PyExc_RuntimeError, "%s: %s (node %s)", tfc_code_name(st->code), st->msg,
                   st->node);
    else
      PyErr_Format(PyExc_RuntimeError, "%s: %s", tfc_code_name(st->code), st->msg);
    return NULL;
  }
  Py_INCREF(cls);
  PyObject *op = NULL;
  if (graph && st->node[0]) {
    tfc_node *n = tfc_graph_find(graph->g, st->node);
    if (n) op = tfc_py_graph_op(graph, n->id);
    if (!op) PyErr_Clear();
  }
  if (!op) op = Py_NewRef(Py_None);
  PyObject *msg = PyUnicode_DecodeUTF8(st->msg, (Py_ssize_t)strlen(st->msg), "replace");
  if (msg) {
    PyObject *exc = PyObject_CallFunctionObjArgs(cls, Py_None, op, msg, NULL);
    if (exc) {
      PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
      Py_DECREF(exc);
    }
    Py_DECREF(msg);
  }
  Py_DECREF(op);
  Py_DECREF(cls);
  return NULL;
}

/* Raises ValueError/TypeError/RuntimeError for a graph-build status; returns NULL. */
PyObject *tfc_py_raise_build_status(const tfc_status *st) {
  PyObject *type;
  switch (st->code) {
    case TFC_CODE_INVALID_ARGUMENT:
      /* Input dtype problems are TypeErrors in TF's Python layer; the graph
       * layer words them "Input 'x' of 'Op' Op has type ..." / "... requires
       * l-value input", "Tensors in list passed to ... don't all match",
       * "Value passed to parameter 'x' has DataType ... not in list of allowed
       * values", "Expected list for argument 'x' of 'Op' Op, got ...". */
      type = strncmp(st->msg, "Input '", 7) == 0 ||
                     strncmp(st->msg, "Tensors in list passed to ", 26) == 0 ||
                     strncmp(st->msg, "Value passed to parameter ", 26) == 0 ||
                     (strncmp(st->msg, "Expected ", 9) == 0 && strstr(st->msg, " Op, got "))
                 ? PyExc_TypeError
                 : PyExc_ValueError;
      break;
    case TFC_CODE_NOT_FOUND:
    case TFC_CODE_ALREADY_EXISTS:
    case TFC_CODE_OUT_OF_RANGE:
      type = PyExc_ValueError;
      break;
    case TFC_CODE_RESOURCE_EXHAUSTED:
      type = PyExc_MemoryError;
      break;
    case TFC_CODE_UNIMPLEMENTED:
      type = PyExc_NotImplementedError;
      break;
    default:
      type = PyExc_RuntimeError;
      break;
  }
  PyObject *msg = PyUnicode_DecodeUTF8(st->msg, (Py_ssize_t)strlen(st->msg), "replace");
  if (msg) {
    PyErr_SetObject(type, msg);
    Py_DECREF(msg);
  }
  return NULL;
}
