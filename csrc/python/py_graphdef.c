/*
 * py_graphdef.c — GraphDef and TensorProto bytes at the Python boundary.
 *
 * Graph methods (entries in py_graph.c's method table):
 *   _import_graph_def(data, prefix=None, input_map=None, return_elements=None,
 *                     control_dependencies=None, default_device=None,
 *                     uniquify_names=True)
 *       -> (new Operations, returned elements, library bytes or None, producer)
 *   _as_graph_def(first=0, end=0, add_shapes=False, library=None) -> bytes
 * Module functions (entries in module.c's method table):
 *   tensor_to_proto(value, dtype=None) -> bytes
 *   tensor_from_proto(data) -> ndarray
 *
 * Parsing and serializing run without the GIL: the Python arguments are
 * turned into C arrays first (the str/bytes objects they point into are
 * kept alive until the call returns). Failed imports raise ValueError for
 * INVALID_ARGUMENT statuses (TF's importer does the same) and the
 * registered tfc.errors class for any other code.
 */
#include "python/py_internal.h"

#include <string.h>

#include "graph/graphdef.h"
#include "graph/tensor_proto.h"

/* Raises the exception of a failed import/export/codec status; returns NULL. */
static PyObject *raise_codec_status(tfc_mod_state *ms, GraphObject *graph, const tfc_status *st) {
  if (st->code == TFC_CODE_INVALID_ARGUMENT) {
    PyObject *msg = PyUnicode_DecodeUTF8(st->msg, (Py_ssize_t)strlen(st->msg), "replace");
    if (msg) {
      PyErr_SetObject(PyExc_ValueError, msg);
      Py_DECREF(msg);
    }
    return NULL;
  }
  if (st->code == TFC_CODE_RESOURCE_EXHAUSTED) return PyErr_NoMemory();
  return tfc_py_raise_status(ms, graph, st);
}

/* The UTF-8 text of a str argument (borrowed from obj, which must outlive
 * the use), or NULL + TypeError naming `what`. */
static const char *utf8_arg(PyObject *obj, const char *what) {
  if (!PyUnicode_Check(obj)) {
    PyErr_Format(PyExc_TypeError, "%s must be a string, got %.100s", what, Py_TYPE(obj)->tp_name);
    return NULL;
  }
  return PyUnicode_AsUTF8(obj);
}

/* Node id of an Operation (or a Tensor's op) of graph self; -1 + exception. */
static int op_id_of(GraphObject *self, PyObject *o, const char *what) {
  OperationObject *op;
  if (PyObject_TypeCheck(o, self->ms->operation_type)) {
    op = (OperationObject *)o;
  } else if (PyObject_TypeCheck(o, self->ms->tensor_type)) {
    op = ((TensorObject *)o)->op;
  } else {
    PyErr_Format(PyExc_TypeError, "%s must be an Operation or Tensor, got %.200R", what, o);
    return -1;
  }
  if (op->graph != self) {
    PyErr_Format(PyExc_ValueError, "%s %R is not an element of this graph.", what, o);
    return -1;
  }
  return op->id;
}

/* Graph._import_graph_def(...): see the top of this file. */
PyObject *tfc_py_graph_import_graph_def(GraphObject *self, PyObject *args, PyObject *kwds) {
  static char *kwlist[] = {"data",          "prefix",         "input_map",      "return_elements",
                           "control_dependencies", "default_device", "uniquify_names", NULL};
  Py_buffer data;
  PyObject *prefix_obj = Py_None, *map_obj = Py_None, *ret_obj = Py_None, *ctrl_obj = Py_None,
           *dev_obj = Py_None;
  int uniquify = 1;
  if (!PyArg_ParseTupleAndKeywords(args, kwds, "y*|OOOOOp:_import_graph_def", kwlist, &data,
                                   &prefix_obj, &map_obj, &ret_obj, &ctrl_obj, &dev_obj,
                                   &uniquify))
    return NULL;

  PyObject *map_seq = NULL, *ret_seq = NULL, *ctrl_seq = NULL, *result = NULL;
  PyObject *new_ops = NULL, *returns = NULL, *library = NULL;
  tfc_import_mapping *mappings = NULL;
  const char **ret_names = NULL;
  int *ctrl_ids = NULL;
  tfc_import_result res;
  memset(&res, 0, sizeof res);
  tfc_import_options o;
  memset(&o, 0, sizeof o);
  o.uniquify_names = uniquify != 0;

  if (prefix_obj != Py_None && !(o.prefix = utf8_arg(prefix_obj, "prefix"))) goto done;
  if (dev_obj != Py_None && !(o.default_device = utf8_arg(dev_obj, "default_device"))) goto done;

  if (map_obj != Py_None) {
    if (!(map_seq = PySequence_Fast(map_obj, "input_map must be a list of (name, value) pairs")))
      goto done;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(map_seq);
    if (n > INT32_MAX / 2) {
      PyErr_SetString(PyExc_ValueError, "input_map is too large");
      goto done;
    }
    if (!(mappings = tfc_malloc((size_t)(n + 1) * sizeof *mappings))) {
      tfc_py_no_memory();
      goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
      PyObject *pair = PySequence_Fast_GET_ITEM(map_seq, i);
      if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
        PyErr_SetString(PyExc_TypeError, "input_map entries must be (name, value) tuples");
        goto done;
      }
      const char *key = utf8_arg(PyTuple_GET_ITEM(pair, 0), "input_map key");
      if (!key) goto done;
      PyObject *v = PyTuple_GET_ITEM(pair, 1);
      mappings[i].key = key;
      if (key[0] == '^') {
        int id = op_id_of(self, v, "input_map value");
        if (id < 0) goto done;
        mappings[i].value.node = id;
        mappings[i].value.index = -1;
      } else {
        if (!PyObject_TypeCheck(v, self->ms->tensor_type)) {
          PyErr_Format(PyExc_TypeError, "input_map value for %R must be a Tensor, got %.200R",
                       PyTuple_GET_ITEM(pair, 0), v);
          goto done;
        }
        TensorObject *t = (TensorObject *)v;
        if (t->op->graph != self) {
          PyErr_Format(PyExc_ValueError, "input_map value %R is not an element of this graph.",
                       v);
          goto done;
        }
        mappings[i].value.node = t->op->id;
        mappings[i].value.index = t->index;
      }
    }
    o.n_input_map = (int)n;
    o.input_map = mappings;
  }

  if (ret_obj != Py_None) {
    if (!(ret_seq = PySequence_Fast(ret_obj, "return_elements must be a list of strings")))
      goto done;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(ret_seq);
    if (n > INT32_MAX / 2) {
      PyErr_SetString(PyExc_ValueError, "return_elements is too large");
      goto done;
    }
    if (!(ret_names = tfc_malloc((size_t)(n + 1) * sizeof *ret_names))) {
      tfc_py_no_memory();
      goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++)
      if (!(ret_names[i] = utf8_arg(PySequence_Fast_GET_ITEM(ret_seq, i), "return_elements entry")))
        goto done;
    o.n_return_elements = (int)n;
    o.return_elements = ret_names;
  }

  if (ctrl_obj != Py_None) {
    if (!(ctrl_seq = PySequence_Fast(ctrl_obj, "control_dependencies must be a list")))
      goto done;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(ctrl_seq);
    if (n > INT32_MAX / 2) {
      PyErr_SetString(PyExc_ValueError, "control_dependencies is too large");
      goto done;
    }
    if (!(ctrl_ids = tfc_malloc((size_t)(n + 1) * sizeof *ctrl_ids))) {
      tfc_py_no_memory();
      goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++)
      if ((ctrl_ids[i] = op_id_of(self, PySequence_Fast_GET_ITEM(ctrl_seq, i),
                                  "control dependency")) < 0)
        goto done;
    o.n_control_dependencies = (int)n;
    o.control_dependencies = ctrl_ids;
  }

  tfc_status st;
  tfc_status_clear(&st);
  bool ok;
  Py_BEGIN_ALLOW_THREADS
  ok = tfc_graph_import(self->g, data.buf, (size_t)data.len, &o, &res, &st);
  Py_END_ALLOW_THREADS
  if (!ok) {
    raise_codec_status(self->ms, self, &st);
    goto done;
  }

  if (!(new_ops = PyList_New(res.n_nodes))) goto done;
  for (int i = 0; i < res.n_nodes; i++) {
    PyObject *op = tfc_py_graph_op(self, res.nodes[i]);
    if (!op) goto done;
    PyList_SET_ITEM(new_ops, i, op);
  }
  if (!(returns = PyList_New(res.n_returns))) goto done;
  for (int i = 0; i < res.n_returns; i++) {
    tfc_import_element e = res.returns[i];
    PyObject *el = e.index < 0 ? tfc_py_graph_op(self, e.node)
                               : tfc_py_graph_tensor(self, (tfc_endpoint){e.node, e.index});
    if (!el) goto done;
    PyList_SET_ITEM(returns, i, el);
  }
  if (res.library) {
    library = PyBytes_FromStringAndSize(res.library, (Py_ssize_t)res.library_len);
  } else {
    library = Py_NewRef(Py_None);
  }
  if (!library) goto done;
  result = Py_BuildValue("(OOOi)", new_ops, returns, library, res.producer);

done:
  Py_XDECREF(new_ops);
  Py_XDECREF(returns);
  Py_XDECREF(library);
  tfc_import_result_clear(&res);
  tfc_free(mappings);
  tfc_free(ret_names);
  tfc_free(ctrl_ids);
  Py_XDECREF(map_seq);
  Py_XDECREF(ret_seq);
  Py_XDECREF(ctrl_seq);
  PyBuffer_Release(&data);
  return result;
}

/* Graph._as_graph_def(first=0, end=0, add_shapes=False, library=None) -> bytes. */
PyObject *tfc_py_graph_as_graph_def(GraphObject *self, PyObject *args, PyObject *kwds) {
  static char *kwlist[] = {"first", "end", "add_shapes", "library", NULL};
  int first = 0, end = 0, add_shapes = 0;
  PyObject *lib_obj = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwds, "|iipO:_as_graph_def", kwlist, &first, &end,
                                   &add_shapes, &lib_obj))
    return NULL;
  Py_buffer lib;
  bool have_lib = false;
  if (lib_obj != Py_None) {
    if (PyObject_GetBuffer(lib_obj, &lib, PyBUF_SIMPLE) < 0) return NULL;
    have_lib = true;
  }
  tfc_export_options o = {
      .first_node = first < 0 ? 0 : first,
      .end_node = end,
      .add_shapes = add_shapes != 0,
      .library = have_lib ? (lib.buf ? lib.buf : "") : NULL,
      .library_len = have_lib ? (size_t)lib.len : 0,
  };
  void *buf = NULL;
  size_t len = 0;
  tfc_status st;
  tfc_status_clear(&st);
  bool ok;
  Py_BEGIN_ALLOW_THREADS
  ok = tfc_graph_export_ex(self->g, &o, &buf, &len, &st);
  Py_END_ALLOW_THREADS
  if (have_lib) PyBuffer_Release(&lib);
  if (!ok) return raise_codec_status(self->ms, self, &st);
  PyObject *r = PyBytes_FromStringAndSize(buf, (Py_ssize_t)len);
  tfc_free(buf);
  return r;
}

/* tensor_to_proto(value, dtype=None) -> serialized TensorProto bytes. */
PyObject *tfc_py_mod_tensor_to_proto(PyObject *module, PyObject *args, PyObject *kwds) {
  static char *kwlist[] = {"value", "dtype", NULL};
  PyObject *value, *dtype_obj = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|O:tensor_to_proto", kwlist, &value, &dtype_obj))
    return NULL;
  tfc_dtype want = TFC_DTYPE_INVALID;
  if (dtype_obj != Py_None) {
    want = tfc_py_dtype_from_py(tfc_py_state(module), dtype_obj);
    if (want == TFC_DTYPE_INVALID) return NULL;
  }
  tfc_tensor *t = tfc_py_value_to_tensor_copy(value, want);
  if (!t) return NULL;
  void *buf = NULL;
  size_t len = 0;
  tfc_status st;
  tfc_status_clear(&st);
  bool ok = tfc_tensor_to_proto(t, &buf, &len, &st);
  tfc_tensor_unref(t);
  if (!ok) return raise_codec_status(tfc_py_state(module), NULL, &st);
  PyObject *r = PyBytes_FromStringAndSize(buf, (Py_ssize_t)len);
  tfc_free(buf);
  return r;
}

/* tensor_from_proto(data) -> ndarray (a copy; 0-d arrays for scalars). */
PyObject *tfc_py_mod_tensor_from_proto(PyObject *module, PyObject *arg) {
  Py_buffer data;
  if (PyObject_GetBuffer(arg, &data, PyBUF_SIMPLE) < 0) return NULL;
  tfc_status st;
  tfc_status_clear(&st);
  tfc_tensor *t;
  Py_BEGIN_ALLOW_THREADS
  t = tfc_tensor_from_proto(data.buf, (size_t)data.len, &st);
  Py_END_ALLOW_THREADS
  PyBuffer_Release(&data);
  if (!t) return raise_codec_status(tfc_py_state(module), NULL, &st);
  PyObject *r = tfc_py_tensor_to_array_copy(t);
  tfc_tensor_unref(t);
  return r;
}
