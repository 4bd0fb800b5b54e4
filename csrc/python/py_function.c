/*
 * py_function.c — Graph methods on the graph's function library
 * (graph/function_lib.h), used by tfc.framework.function (Defun, the
 * function tracer) and by anything that adds or inspects functions:
 *
 *   _add_function(fdef_bytes)                 adds a FunctionDef
 *   _add_gradient_def(fn, grad)                records a GradientDef
 *   _function_names() -> [str]                 in the order added
 *   _function_def(name) -> bytes | None        the serialized FunctionDef
 *   _function_signature(name) -> dict | None   as tfc._tfc.op_def() describes ops
 *   _function_gradient(name) -> str | None     the GradientDef's gradient function
 *   _function_from_graph(name, arg_ops, ret_tensors, ret_names) -> bytes
 *       this graph written as a FunctionDef (arg_ops: Placeholder Operations)
 */
#include "python/py_internal.h"

#include "graph/function_lib.h"

/* Graph._add_function(bytes). */
PyObject *tfc_py_graph_add_function(GraphObject *self, PyObject *arg) {
  Py_buffer b;
  if (PyObject_GetBuffer(arg, &b, PyBUF_SIMPLE) < 0) return NULL;
  tfc_status st;
  tfc_status_clear(&st);
  bool ok = tfc_func_lib_add_function(self->g->library, b.buf, (size_t)b.len, &st);
  PyBuffer_Release(&b);
  if (!ok) return tfc_py_raise_build_status(&st);
  Py_RETURN_NONE;
}

/* Graph._add_gradient_def(fn, grad). */
PyObject *tfc_py_graph_add_gradient_def(GraphObject *self, PyObject *args) {
  const char *fn, *grad;
  if (!PyArg_ParseTuple(args, "ss", &fn, &grad)) return NULL;
  tfc_status st;
  tfc_status_clear(&st);
  if (!tfc_func_lib_add_gradient(self->g->library, fn, grad, &st)) return tfc_py_raise_build_status(&st);
  Py_RETURN_NONE;
}

/* Graph._function_names(). */
PyObject *tfc_py_graph_function_names(GraphObject *self, PyObject *unused) {
  (void)unused;
  const char **names = NULL;
  int n = 0;
  tfc_status st;
  tfc_status_clear(&st);
  if (!tfc_func_lib_names(self->g->library, &names, &n, &st)) return tfc_py_raise_build_status(&st);
  PyObject *l = PyList_New(n);
  for (int i = 0; l && i < n; i++) {
    PyObject *s = PyUnicode_FromString(names[i]);
    if (!s) {
      Py_CLEAR(l);
      break;
    }
    PyList_SET_ITEM(l, i, s);
  }
  tfc_free((void *)names);
  return l;
}

/* Graph._function_def(name). */
PyObject *tfc_py_graph_function_def(GraphObject *self, PyObject *arg) {
  const char *name = PyUnicode_AsUTF8(arg);
  if (!name) return NULL;
  const void *data;
  size_t len;
  if (!tfc_func_lib_find(self->g->library, name, &data, &len)) Py_RETURN_NONE;
  return PyBytes_FromStringAndSize(data, (Py_ssize_t)len);
}

/* Graph._function_signature(name). */
PyObject *tfc_py_graph_function_signature(GraphObject *self, PyObject *arg) {
  const char *name = PyUnicode_AsUTF8(arg);
  if (!name) return NULL;
  const tfc_op_def *def = tfc_func_lib_signature(self->g->library, name);
  if (!def) Py_RETURN_NONE;
  return tfc_py_op_def_dict(def);
}

/* Graph._function_gradient(name). */
PyObject *tfc_py_graph_function_gradient(GraphObject *self, PyObject *arg) {
  const char *name = PyUnicode_AsUTF8(arg);
  if (!name) return NULL;
  const char *g = tfc_func_lib_gradient(self->g->library, name);
  if (!g) Py_RETURN_NONE;
  return PyUnicode_FromString(g);
}

/* Graph._function_from_graph(name, arg_ops, ret_tensors, ret_names). */
PyObject *tfc_py_graph_function_from_graph(GraphObject *self, PyObject *args) {
  const char *name;
  PyObject *arg_ops, *rets, *ret_names;
  if (!PyArg_ParseTuple(args, "sOOO", &name, &arg_ops, &rets, &ret_names)) return NULL;
  PyObject *a = PySequence_Fast(arg_ops, "arg_ops must be a sequence");
  PyObject *r = a ? PySequence_Fast(rets, "ret_tensors must be a sequence") : NULL;
  PyObject *rn = r && ret_names != Py_None ? PySequence_Fast(ret_names, "ret_names must be a sequence")
                                           : NULL;
  PyObject *result = NULL;
  int *ids = NULL;
  tfc_endpoint *eps = NULL;
  const char **names = NULL;
  if (!r || (ret_names != Py_None && !rn)) goto done;
  Py_ssize_t na = PySequence_Fast_GET_SIZE(a), nr = PySequence_Fast_GET_SIZE(r);
  if (rn && PySequence_Fast_GET_SIZE(rn) != nr) {
    PyErr_SetString(PyExc_ValueError, "ret_names must match ret_tensors");
    goto done;
  }
  ids = tfc_calloc((size_t)na + 1, sizeof(int));
  eps = tfc_calloc((size_t)nr + 1, sizeof(tfc_endpoint));
  names = tfc_calloc((size_t)nr + 1, sizeof(char *));
  if (!ids || !eps || !names) {
    tfc_py_no_memory();
    goto done;
  }
  for (Py_ssize_t i = 0; i < na; i++) {
    PyObject *o = PySequence_Fast_GET_ITEM(a, i);
    if (!PyObject_TypeCheck(o, self->ms->operation_type) || ((OperationObject *)o)->graph != self) {
      PyErr_SetString(PyExc_TypeError, "arg_ops must be Operations of this graph");
      goto done;
    }
    ids[i] = ((OperationObject *)o)->id;
  }
  for (Py_ssize_t i = 0; i < nr; i++) {
    PyObject *o = PySequence_Fast_GET_ITEM(r, i);
    if (!PyObject_TypeCheck(o, self->ms->tensor_type) || ((TensorObject *)o)->op->graph != self) {
      PyErr_SetString(PyExc_TypeError, "ret_tensors must be Tensors of this graph");
      goto done;
    }
    eps[i].node = ((TensorObject *)o)->op->id;
    eps[i].index = ((TensorObject *)o)->index;
    if (rn && !(names[i] = PyUnicode_AsUTF8(PySequence_Fast_GET_ITEM(rn, i)))) goto done;
  }
  void *data = NULL;
  size_t len = 0;
  tfc_status st;
  tfc_status_clear(&st);
  bool ok;
  Py_BEGIN_ALLOW_THREADS
  ok = tfc_function_from_graph(self->g, name, (int)na, ids, (int)nr, eps, rn ? names : NULL, &data, &len, &st);
  Py_END_ALLOW_THREADS
  if (!ok) {
    tfc_py_raise_build_status(&st);
    goto done;
  }
  result = PyBytes_FromStringAndSize(data, (Py_ssize_t)len);
  tfc_free(data);
done:
  tfc_free(ids);
  tfc_free(eps);
  tfc_free((void *)names);
  Py_XDECREF(a);
  Py_XDECREF(r);
  Py_XDECREF(rn);
  return result;
}
