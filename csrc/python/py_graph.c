/*
 * py_graph.c — the Graph type of tfc._tfc (subclassed by tfc.Graph).
 *
 * A Graph owns a tfc_graph and caches one Operation object per node in a
 * growable array indexed by node id, so the same node always yields the
 * same Python object. _add_op turns Python inputs/attrs into a
 * tfc_node_request and maps graph-build failures onto ValueError/TypeError/
 * RuntimeError as TensorFlow's Python layer does.
 */
#include "python/py_internal.h"

#include "graph/function_lib.h"

#include <string.h>

/* ------------------------------------------------------------ op cache */

/* Grows self->ops to hold at least n entries (new slots NULL). -1 + MemoryError. */
static int ensure_ops_cap(GraphObject *self, int n) {
  if (n <= self->cap_ops) return 0;
  int cap = self->cap_ops ? self->cap_ops : 64;
  while (cap < n) cap *= 2;
  PyObject **ops = tfc_realloc(self->ops, (size_t)cap * sizeof(PyObject *));
  if (!ops) {
    PyErr_NoMemory();
    return -1;
  }
  memset(ops + self->cap_ops, 0, (size_t)(cap - self->cap_ops) * sizeof(PyObject *));
  self->ops = ops;
  self->cap_ops = cap;
  return 0;
}

/* The cached Operation of node id (new reference), created on first use. */
PyObject *tfc_py_graph_op(GraphObject *self, int id) {
  if (id < 0 || id >= tfc_graph_num_nodes(self->g)) {
    PyErr_Format(PyExc_IndexError, "operation index %d out of range", id);
    return NULL;
  }
  if (id < self->cap_ops && self->ops[id]) return Py_NewRef(self->ops[id]);
  if (ensure_ops_cap(self, tfc_graph_num_nodes(self->g)) < 0) return NULL;
  PyObject *op = tfc_py_operation_new(self, id);
  if (!op) return NULL;
  /* allocation may run the GC and thus Python code that created it meanwhile */
  if (ensure_ops_cap(self, id + 1) < 0) {
    Py_DECREF(op);
    return NULL;
  }
  if (self->ops[id]) {
    Py_DECREF(op);
    return Py_NewRef(self->ops[id]);
  }
  self->ops[id] = Py_NewRef(op);
  return op;
}

/* The cached Tensor of endpoint ep (new reference). */
PyObject *tfc_py_graph_tensor(GraphObject *self, tfc_endpoint ep) {
  PyObject *op = tfc_py_graph_op(self, ep.node);
  if (!op) return NULL;
  PyObject *outs = tfc_py_operation_outputs((OperationObject *)op);
  Py_DECREF(op); /* the graph keeps it alive */
  if (!outs) return NULL;
  if (ep.index < 0 || ep.index >= PyTuple_GET_SIZE(outs)) {
    PyErr_Format(PyExc_IndexError, "output index %d out of range", ep.index);
    return NULL;
  }
  return Py_NewRef(PyTuple_GET_ITEM(outs, ep.index));
}

/* ------------------------------------------------------- name lookups */

/* Parses the decimal output index after ':' like Python's int(); false when malformed. */
static bool parse_index(const char *s, int *out) {
  while (*s == ' ') s++;
  if (*s == '+') s++;
  if (*s < '0' || *s > '9') return false;
  long v = 0;
  while (*s >= '0' && *s <= '9') {
    v = v * 10 + (*s - '0');
    if (v > 1000000000L) return false;
    s++;
  }
  while (*s == ' ') s++;
  if (*s) return false;
  *out = (int)v;
  return true;
}

/* Resolves a name like Graph.as_graph_element: 1 tensor, 2 op, -1 + TF's error. */
int tfc_py_graph_element(GraphObject *self, PyObject *name_obj, bool allow_tensor, bool allow_op,
                         tfc_endpoint *ep) {
  Py_ssize_t len;
  const char *name = PyUnicode_AsUTF8AndSize(name_obj, &len);
  if (!name) return -1;
  const char *types = allow_tensor && allow_op ? "Tensor or Operation"
                      : allow_tensor           ? "Tensor"
                                               : "Operation";
  const char *colon = memchr(name, ':', (size_t)len);
  if (colon && allow_tensor) {
    char opname[TFC_STATUS_NODE_MAX];
    size_t n = (size_t)(colon - name);
    int index;
    if (n >= sizeof opname || !parse_index(colon + 1, &index)) {
      PyErr_Format(PyExc_ValueError,
                   "The name %R looks a like a Tensor name, but is not a valid one. Tensor names "
                   "must be of the form \"<op_name>:<output_index>\".",
                   name_obj);
      return -1;
    }
    memcpy(opname, name, n);
    opname[n] = 0;
    tfc_node *node = tfc_graph_find(self->g, opname);
    if (!node) {
      PyObject *msg = PyUnicode_FromFormat(
          "The name %R refers to a Tensor which does not exist. The operation, '%s', does not "
          "exist in the graph.",
          name_obj, opname);
      if (msg) {
        PyErr_SetObject(PyExc_KeyError, msg);
        Py_DECREF(msg);
      }
      return -1;
    }
    if (index >= node->n_outputs) {
      PyObject *msg = PyUnicode_FromFormat(
          "The name %R refers to a Tensor which does not exist. The operation, '%s', exists but "
          "only has %d outputs.",
          name_obj, opname, node->n_outputs);
      if (msg) {
        PyErr_SetObject(PyExc_KeyError, msg);
        Py_DECREF(msg);
      }
      return -1;
    }
    ep->node = node->id;
    ep->index = index;
    return 1;
  }
  if (colon) {
    PyErr_Format(PyExc_ValueError, "The name %R appears to refer to a Tensor, not a %s.", name_obj,
                 types);
    return -1;
  }
  tfc_node *node = tfc_graph_find(self->g, name);
  if (allow_op) {
    if (!node) {
      PyObject *msg =
          PyUnicode_FromFormat("The name %R refers to an Operation not in the graph.", name_obj);
      if (msg) {
        PyErr_SetObject(PyExc_KeyError, msg);
        Py_DECREF(msg);
      }
      return -1;
    }
    ep->node = node->id;
    ep->index = -1;
    return 2;
  }
  if (node) {
    PyErr_Format(PyExc_ValueError,
                 "The name %R refers to an Operation, not a %s. Tensor names must be of the form "
                 "\"<op_name>:<output_index>\".",
                 name_obj, types);
  } else {
    PyErr_Format(PyExc_ValueError, "The name %R looks like an (invalid) Operation name, not a %s.",
                 name_obj, types);
  }
  return -1;
}

/* ------------------------------------------------------------ _add_op */

/* Infers the attr type of an underscore attr (not in the op def) from its value. */
static const char *infer_attr_type(PyObject *v) {
  if (PyBool_Check(v)) return "bool";
  if (PyLong_Check(v)) return "int";
  if (PyFloat_Check(v)) return "float";
  if (PyUnicode_Check(v) || PyBytes_Check(v)) return "string";
  if (PyList_Check(v) || PyTuple_Check(v)) {
    if (PySequence_Fast_GET_SIZE(v) == 0) return "list(string)";
    PyObject *e = PySequence_Fast_GET_ITEM(v, 0);
    if (PyBool_Check(e)) return "list(bool)";
    if (PyLong_Check(e)) return "list(int)";
    if (PyFloat_Check(e)) return "list(float)";
    if (PyUnicode_Check(e) || PyBytes_Check(e)) return "list(string)";
    if (e == Py_None || PyList_Check(e) || PyTuple_Check(e)) return "list(shape)";
  }
  if (PyArray_Check(v)) return "tensor";
  return NULL;
}

/* Converts the attrs dict into *out using the op's attr defs. -1 + exception. */
static int convert_attrs(GraphObject *self, const tfc_op_def *def, PyObject *attrs, tfc_attrs *out) {
  if (attrs == Py_None) return 0;
  if (!PyDict_Check(attrs)) {
    PyErr_SetString(PyExc_TypeError, "_add_op: attrs must be a dict");
    return -1;
  }
  Py_ssize_t pos = 0;
  PyObject *key, *value;
  while (PyDict_Next(attrs, &pos, &key, &value)) {
    if (!PyUnicode_Check(key)) {
      PyErr_Format(PyExc_TypeError, "attr names must be strings, got %R", key);
      return -1;
    }
    const char *name = PyUnicode_AsUTF8(key);
    if (!name) return -1;
    const tfc_attr_def *ad = tfc_op_find_attr(def, name);
    tfc_attr_def tmp;
    if (!ad) {
      if (name[0] != '_') {
        PyErr_Format(PyExc_ValueError, "Op '%s' has no attr named '%s'.", def->name, name);
        return -1;
      }
      /* internal attrs ("_class", "_output_shapes", ...): the graph keeps only
       * _class; values whose type cannot be inferred are dropped here */
      const char *type = infer_attr_type(value);
      if (!type) continue;
      memset(&tmp, 0, sizeof tmp);
      tmp.name = (char *)name;
      tmp.type = (char *)type;
      ad = &tmp;
    }
    tfc_attr_value v;
    if (!tfc_py_attr_from_py(self->ms, ad, value, &v)) return -1;
    tfc_status st;
    tfc_status_clear(&st);
    if (!tfc_attrs_set(out, name, &v, &st)) {
      tfc_py_raise_build_status(&st);
      return -1;
    }
  }
  return 0;
}

/* The Tensor's endpoint after checking it is a Tensor of this graph. -1 + exception. */
static int tensor_endpoint(GraphObject *self, PyObject *t, const tfc_op_def *def, int arg,
                           const char *op_name, tfc_endpoint *ep) {
  if (!PyObject_TypeCheck(t, self->ms->tensor_type)) {
    PyErr_Format(PyExc_TypeError,
                 "Expected a Tensor for input '%s' of '%s' Op (node '%s'), got %.200R",
                 def->inputs[arg].name, def->name, op_name, t);
    return -1;
  }
  TensorObject *to = (TensorObject *)t;
  if (to->op->graph != self) {
    PyErr_Format(PyExc_ValueError,
                 "Tensor %S must be from the same graph as the Operation '%s' being created.", t,
                 op_name);
    return -1;
  }
  ep->node = to->op->id;
  ep->index = to->index;
  return 0;
}

/* Graph._add_op(op_type, name, inputs, attrs, device, control_inputs) -> Operation. */
static PyObject *graph_add_op(GraphObject *self, PyObject *const *args, Py_ssize_t nargs,
                              PyObject *kwnames) {
  static const char *const names[] = {"op_type", "name", "inputs", "attrs", "device",
                                      "control_inputs"};
  PyObject *a[6] = {NULL, NULL, Py_None, Py_None, Py_None, Py_None};
  if (nargs > 6) {
    PyErr_SetString(PyExc_TypeError, "_add_op() takes at most 6 arguments");
    return NULL;
  }
  for (Py_ssize_t i = 0; i < nargs; i++) a[i] = args[i];
  Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  for (Py_ssize_t k = 0; k < nkw; k++) {
    const char *kw = PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, k));
    if (!kw) return NULL;
    int j = 0;
    while (j < 6 && strcmp(kw, names[j]) != 0) j++;
    if (j == 6) {
      PyErr_Format(PyExc_TypeError, "_add_op() got an unexpected keyword argument '%s'", kw);
      return NULL;
    }
    a[j] = args[nargs + k];
  }
  if (!a[0] || !a[1] || !PyUnicode_Check(a[0]) || !PyUnicode_Check(a[1])) {
    PyErr_SetString(PyExc_TypeError, "_add_op() needs op_type and name strings");
    return NULL;
  }
  const char *op_type = PyUnicode_AsUTF8(a[0]);
  const char *name = PyUnicode_AsUTF8(a[1]);
  if (!op_type || !name) return NULL;
  const char *device = NULL;
  if (a[4] != Py_None) {
    if (!PyUnicode_Check(a[4])) {
      PyErr_SetString(PyExc_TypeError, "_add_op: device must be a string or None");
      return NULL;
    }
    if (!(device = PyUnicode_AsUTF8(a[4]))) return NULL;
  }
  if (self->g->finalized) {
    PyErr_SetString(PyExc_RuntimeError, "Graph is finalized and cannot be modified.");
    return NULL;
  }
  const tfc_op_def *def = tfc_graph_lookup_op(self->g, op_type);
  if (!def) {
    PyErr_Format(PyExc_ValueError, "Op type not registered '%s' in binary running on this host.",
                 op_type);
    return NULL;
  }

  PyObject *inputs = NULL, *controls = NULL, *result = NULL;
  int *arg_sizes = NULL, *ctrl_ids = NULL;
  tfc_endpoint *eps = NULL;
  tfc_attrs attrs;
  tfc_attrs_init(&attrs);

  inputs = a[2] == Py_None ? PyTuple_New(0) : PySequence_Fast(a[2], "_add_op: inputs must be a list");
  if (!inputs) goto done;
  Py_ssize_t n_args = PySequence_Fast_GET_SIZE(inputs);
  if (n_args != def->n_inputs) {
    PyErr_Format(PyExc_ValueError, "Op '%s' (node '%s') takes %d inputs, got %zd", def->name, name,
                 def->n_inputs, n_args);
    goto done;
  }
  Py_ssize_t total = 0;
  arg_sizes = tfc_malloc((size_t)(n_args + 1) * sizeof(int));
  if (!arg_sizes) {
    tfc_py_no_memory();
    goto done;
  }
  for (Py_ssize_t i = 0; i < n_args; i++) {
    PyObject *e = PySequence_Fast_GET_ITEM(inputs, i);
    Py_ssize_t k = (PyList_Check(e) || PyTuple_Check(e)) ? PySequence_Fast_GET_SIZE(e) : 1;
    if (k > INT32_MAX / 2) {
      PyErr_SetString(PyExc_ValueError, "_add_op: too many inputs");
      goto done;
    }
    arg_sizes[i] = (int)k;
    total += k;
  }
  eps = tfc_malloc((size_t)(total + 1) * sizeof(tfc_endpoint));
  if (!eps) {
    tfc_py_no_memory();
    goto done;
  }
  Py_ssize_t at = 0;
  for (Py_ssize_t i = 0; i < n_args; i++) {
    PyObject *e = PySequence_Fast_GET_ITEM(inputs, i);
    if (PyList_Check(e) || PyTuple_Check(e)) {
      for (Py_ssize_t j = 0; j < arg_sizes[i]; j++)
        if (tensor_endpoint(self, PySequence_Fast_GET_ITEM(e, j), def, (int)i, name, &eps[at++]) < 0)
          goto done;
    } else if (tensor_endpoint(self, e, def, (int)i, name, &eps[at++]) < 0) {
      goto done;
    }
  }

  Py_ssize_t n_ctrl = 0;
  if (a[5] != Py_None) {
    controls = PySequence_Fast(a[5], "_add_op: control_inputs must be a list");
    if (!controls) goto done;
    n_ctrl = PySequence_Fast_GET_SIZE(controls);
  }
  ctrl_ids = tfc_malloc((size_t)(n_ctrl + 1) * sizeof(int));
  if (!ctrl_ids) {
    tfc_py_no_memory();
    goto done;
  }
  for (Py_ssize_t i = 0; i < n_ctrl; i++) {
    PyObject *c = PySequence_Fast_GET_ITEM(controls, i);
    OperationObject *co;
    if (PyObject_TypeCheck(c, self->ms->operation_type)) {
      co = (OperationObject *)c;
    } else if (PyObject_TypeCheck(c, self->ms->tensor_type)) {
      co = ((TensorObject *)c)->op;
    } else {
      PyErr_Format(PyExc_TypeError, "Control input must be an Operation or Tensor, got %.200R", c);
      goto done;
    }
    if (co->graph != self) {
      PyErr_Format(PyExc_ValueError,
                   "%S must be from the same graph as the Operation '%s' being created.", c, name);
      goto done;
    }
    ctrl_ids[i] = co->id;
  }

  if (convert_attrs(self, def, a[3], &attrs) < 0) goto done;

  tfc_node_request req = {
      .op_type = op_type,
      .name = name,
      .device = device,
      .n_args = (int)n_args,
      .arg_sizes = arg_sizes,
      .inputs = eps,
      .n_control = (int)n_ctrl,
      .control_inputs = ctrl_ids,
      .attrs = &attrs,
  };
  tfc_status st;
  tfc_status_clear(&st);
  tfc_node *node = tfc_graph_add_node(self->g, &req, &st);
  if (!node) {
    tfc_py_raise_build_status(&st);
    goto done;
  }
  result = tfc_py_graph_op(self, node->id);

done:
  tfc_attrs_destroy(&attrs);
  tfc_free(arg_sizes);
  tfc_free(eps);
  tfc_free(ctrl_ids);
  Py_XDECREF(inputs);
  Py_XDECREF(controls);
  return result;
}

/* ------------------------------------------------------- other methods */

/* Graph._op_by_name(name) -> Operation or None. */
static PyObject *graph_op_by_name(GraphObject *self, PyObject *arg) {
  if (!PyUnicode_Check(arg)) {
    PyErr_SetString(PyExc_TypeError, "_op_by_name() expects a string");
    return NULL;
  }
  const char *name = PyUnicode_AsUTF8(arg);
  if (!name) return NULL;
  tfc_node *n = tfc_graph_find(self->g, name);
  if (!n) Py_RETURN_NONE;
  return tfc_py_graph_op(self, n->id);
}

/* Graph._num_ops() -> number of nodes. */
static PyObject *graph_num_ops(GraphObject *self, PyObject *unused) {
  (void)unused;
  return PyLong_FromLong(tfc_graph_num_nodes(self->g));
}

/* Graph._op_at(i) -> Operation of node id i (IndexError when out of range). */
static PyObject *graph_op_at(GraphObject *self, PyObject *arg) {
  long i = PyLong_AsLong(arg);
  if (i == -1 && PyErr_Occurred()) return NULL;
  if (i < 0 || i >= tfc_graph_num_nodes(self->g)) {
    PyErr_Format(PyExc_IndexError, "operation index %ld out of range", i);
    return NULL;
  }
  return tfc_py_graph_op(self, (int)i);
}

/* Graph._ops() -> list of every Operation in id order. */
static PyObject *graph_ops(GraphObject *self, PyObject *unused) {
  (void)unused;
  int n = tfc_graph_num_nodes(self->g);
  PyObject *l = PyList_New(n);
  if (!l) return NULL;
  for (int i = 0; i < n; i++) {
    PyObject *op = tfc_py_graph_op(self, i);
    if (!op) {
      Py_DECREF(l);
      return NULL;
    }
    PyList_SET_ITEM(l, i, op);
  }
  return l;
}

/* Graph._element_by_name(name, allow_tensor=True, allow_operation=True) -> Tensor|Operation,
 * raising TF's KeyError/ValueError messages (as Graph.as_graph_element does for strings). */
static PyObject *graph_element_by_name(GraphObject *self, PyObject *args) {
  PyObject *name;
  int allow_tensor = 1, allow_op = 1;
  if (!PyArg_ParseTuple(args, "U|pp:_element_by_name", &name, &allow_tensor, &allow_op))
    return NULL;
  tfc_endpoint ep;
  int kind = tfc_py_graph_element(self, name, allow_tensor, allow_op, &ep);
  if (kind < 0) return NULL;
  if (kind == 2) return tfc_py_graph_op(self, ep.node);
  return tfc_py_graph_tensor(self, ep);
}

/* Graph._finalize(): no more ops may be added. */
static PyObject *graph_finalize(GraphObject *self, PyObject *unused) {
  (void)unused;
  tfc_graph_finalize(self->g);
  Py_RETURN_NONE;
}

/* Graph._unsafe_unfinalize(): lets ops be added again (TF's private helper). */
static PyObject *graph_unfinalize(GraphObject *self, PyObject *unused) {
  (void)unused;
  pthread_mutex_lock(&self->g->mu);
  self->g->finalized = false;
  pthread_mutex_unlock(&self->g->mu);
  Py_RETURN_NONE;
}

/* Graph.finalized -> bool. */
static PyObject *graph_get_finalized(GraphObject *self, void *closure) {
  (void)closure;
  return PyBool_FromLong(self->g->finalized);
}

/* Graph._version -> number of ops. */
static PyObject *graph_get_version(GraphObject *self, void *closure) {
  (void)closure;
  return PyLong_FromLong(tfc_graph_num_nodes(self->g));
}

/* ------------------------------------------------------------ lifecycle */

/* Graph(): a new empty graph (arguments are ignored so subclasses may take their own). */
static PyObject *graph_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
  (void)args;
  (void)kwds;
  PyObject *module = tfc_py_module_of_type(type);
  if (!module) return NULL;
  GraphObject *self = (GraphObject *)type->tp_alloc(type, 0);
  if (!self) return NULL;
  self->module = Py_NewRef(module);
  self->ms = tfc_py_state(module);
  self->g = tfc_graph_new();
  if (!self->g) {
    Py_DECREF(self);
    return PyErr_NoMemory();
  }
  return (PyObject *)self;
}

/* GC traversal: the cached Operation objects and the module. */
static int graph_traverse(GraphObject *self, visitproc visit, void *arg) {
  Py_VISIT(Py_TYPE(self));
  Py_VISIT(self->module);
  for (int i = 0; i < self->cap_ops; i++) Py_VISIT(self->ops[i]);
  return 0;
}

/* Drops the cached Operation objects (breaks Graph <-> Operation cycles). */
static int graph_clear(GraphObject *self) {
  for (int i = 0; i < self->cap_ops; i++) Py_CLEAR(self->ops[i]);
  return 0;
}

/* Deallocation: frees the op cache and drops the tfc_graph reference. */
static void graph_dealloc(GraphObject *self) {
  PyTypeObject *tp = Py_TYPE(self);
  PyObject_GC_UnTrack(self);
  if (self->weakreflist) PyObject_ClearWeakRefs((PyObject *)self);
  graph_clear(self);
  tfc_free(self->ops);
  self->ops = NULL;
  self->cap_ops = 0;
  if (self->g) tfc_graph_unref(self->g);
  self->g = NULL;
  Py_CLEAR(self->module);
  tp->tp_free((PyObject *)self);
  Py_DECREF(tp);
}

/* Defined in py_graphdef.c. */
PyObject *tfc_py_graph_import_graph_def(GraphObject *self, PyObject *args, PyObject *kwds);
PyObject *tfc_py_graph_as_graph_def(GraphObject *self, PyObject *args, PyObject *kwds);

static PyMethodDef graph_methods[] = {
    {"_import_graph_def", (PyCFunction)(void (*)(void))tfc_py_graph_import_graph_def,
     METH_VARARGS | METH_KEYWORDS,
     "_import_graph_def(data, prefix, input_map, return_elements, control_dependencies, "
     "default_device, uniquify_names) -> (ops, returns, library, producer)"},
    {"_as_graph_def", (PyCFunction)(void (*)(void))tfc_py_graph_as_graph_def,
     METH_VARARGS | METH_KEYWORDS,
     "_as_graph_def(first=0, end=0, add_shapes=False, library=None) -> GraphDef bytes"},
    {"_add_op", (PyCFunction)(void (*)(void))graph_add_op, METH_FASTCALL | METH_KEYWORDS,
     "_add_op(op_type, name, inputs, attrs, device, control_inputs) -> Operation"},
    {"_op_by_name", (PyCFunction)graph_op_by_name, METH_O, "Operation by name or None."},
    {"_add_function", (PyCFunction)tfc_py_graph_add_function, METH_O,
     "_add_function(FunctionDef bytes): adds a function to the graph's library."},
    {"_add_gradient_def", (PyCFunction)tfc_py_graph_add_gradient_def, METH_VARARGS,
     "_add_gradient_def(function_name, gradient_function_name)."},
    {"_function_names", (PyCFunction)tfc_py_graph_function_names, METH_NOARGS,
     "Names of the library's functions, in the order added."},
    {"_function_def", (PyCFunction)tfc_py_graph_function_def, METH_O,
     "_function_def(name) -> FunctionDef bytes or None."},
    {"_function_signature", (PyCFunction)tfc_py_graph_function_signature, METH_O,
     "_function_signature(name) -> op_def()-style dict or None."},
    {"_function_gradient", (PyCFunction)tfc_py_graph_function_gradient, METH_O,
     "_function_gradient(name) -> the gradient function's name or None."},
    {"_function_from_graph", (PyCFunction)tfc_py_graph_function_from_graph, METH_VARARGS,
     "_function_from_graph(name, arg_ops, ret_tensors, ret_names) -> FunctionDef bytes."},
    {"_num_ops", (PyCFunction)graph_num_ops, METH_NOARGS, "Number of operations."},
    {"_op_at", (PyCFunction)graph_op_at, METH_O, "Operation with node id i."},
    {"_ops", (PyCFunction)graph_ops, METH_NOARGS, "List of all operations in creation order."},
    {"_element_by_name", (PyCFunction)graph_element_by_name, METH_VARARGS,
     "_element_by_name(name, allow_tensor=True, allow_operation=True) -> Tensor or Operation."},
    {"_finalize", (PyCFunction)graph_finalize, METH_NOARGS, "Makes the graph read-only."},
    {"_unsafe_unfinalize", (PyCFunction)graph_unfinalize, METH_NOARGS,
     "Makes a finalized graph writable again."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef graph_getset[] = {
    {"finalized", (getter)graph_get_finalized, NULL, "True once _finalize() was called.", NULL},
    {"_version", (getter)graph_get_version, NULL, "Number of operations.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyMemberDef graph_members[] = {
    {"__weaklistoffset__", T_PYSSIZET, offsetof(GraphObject, weakreflist), READONLY, NULL},
    {NULL, 0, 0, 0, NULL}};

static PyType_Slot graph_slots[] = {
    {Py_tp_new, graph_new},
    {Py_tp_dealloc, graph_dealloc},
    {Py_tp_traverse, graph_traverse},
    {Py_tp_clear, graph_clear},
    {Py_tp_methods, graph_methods},
    {Py_tp_getset, graph_getset},
    {Py_tp_members, graph_members},
    {Py_tp_doc, "A dataflow graph (TensorFlow 1.x Graph core)."},
    {0, NULL}};

PyType_Spec tfc_py_graph_spec = {
    .name = "tfc._tfc.Graph",
    .basicsize = sizeof(GraphObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .slots = graph_slots,
};
