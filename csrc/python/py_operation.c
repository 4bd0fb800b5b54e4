/*
 * py_operation.c — the Operation type of tfc._tfc (subclassed by tfc.Operation).
 *
 * An Operation object is a (graph, node id) handle created only by C and
 * cached by its Graph. Its output Tensors are created together on first use
 * and kept in a tuple, so (op, index) always maps to the same Tensor object.
 */
#include "python/py_internal.h"

#include <string.h>

/* The node behind an Operation object. */
static inline tfc_node *op_node(OperationObject *self) {
  return tfc_py_node(self->graph, self->id);
}

/* A new Operation object (registered class) for node id; new reference. */
PyObject *tfc_py_operation_new(GraphObject *graph, int id) {
  PyTypeObject *cls = graph->ms->op_cls;
  OperationObject *self = (OperationObject *)cls->tp_alloc(cls, 0);
  if (!self) return NULL;
  self->graph = (GraphObject *)Py_NewRef(graph);
  self->id = id;
  return (PyObject *)self;
}

/* The output Tensors tuple of op (borrowed), created once. */
PyObject *tfc_py_operation_outputs(OperationObject *self) {
  if (self->outputs) return self->outputs;
  tfc_node *n = op_node(self);
  PyObject *t = PyTuple_New(n->n_outputs);
  if (!t) return NULL;
  for (int i = 0; i < n->n_outputs; i++) {
    PyObject *x = tfc_py_tensor_new(self, i);
    if (!x) {
      Py_DECREF(t);
      return NULL;
    }
    PyTuple_SET_ITEM(t, i, x);
  }
  if (self->outputs) { /* created meanwhile by code the allocator's GC ran */
    Py_DECREF(t);
    return self->outputs;
  }
  self->outputs = t;
  return t;
}

/* ------------------------------------------------------------ getters */

/* Operation.name -> str. */
static PyObject *op_get_name(OperationObject *self, void *c) {
  (void)c;
  return PyUnicode_FromString(op_node(self)->name);
}

/* Operation.type -> op type str. */
static PyObject *op_get_type(OperationObject *self, void *c) {
  (void)c;
  return PyUnicode_FromString(op_node(self)->def->name);
}

/* Operation.device -> requested device string ("" when none). */
static PyObject *op_get_device(OperationObject *self, void *c) {
  (void)c;
  const char *d = op_node(self)->device;
  return PyUnicode_FromString(d ? d : "");
}

/* Operation.inputs -> tuple of the Tensors feeding the data inputs. */
static PyObject *op_get_inputs(OperationObject *self, void *c) {
  (void)c;
  tfc_node *n = op_node(self);
  PyObject *t = PyTuple_New(n->n_inputs);
  if (!t) return NULL;
  for (int i = 0; i < n->n_inputs; i++) {
    PyObject *x = tfc_py_graph_tensor(self->graph, n->inputs[i]);
    if (!x) {
      Py_DECREF(t);
      return NULL;
    }
    PyTuple_SET_ITEM(t, i, x);
  }
  return t;
}

/* Operation.outputs -> tuple of output Tensors (cached). */
static PyObject *op_get_outputs(OperationObject *self, void *c) {
  (void)c;
  PyObject *t = tfc_py_operation_outputs(self);
  return t ? Py_NewRef(t) : NULL;
}

/* Operation.control_inputs -> tuple of Operations. */
static PyObject *op_get_control_inputs(OperationObject *self, void *c) {
  (void)c;
  tfc_node *n = op_node(self);
  PyObject *t = PyTuple_New(n->n_control);
  if (!t) return NULL;
  for (int i = 0; i < n->n_control; i++) {
    PyObject *x = tfc_py_graph_op(self->graph, n->control_inputs[i]);
    if (!x) {
      Py_DECREF(t);
      return NULL;
    }
    PyTuple_SET_ITEM(t, i, x);
  }
  return t;
}

/* Operation.graph -> the Graph object. */
static PyObject *op_get_graph(OperationObject *self, void *c) {
  (void)c;
  return Py_NewRef(self->graph);
}

/* Operation._id -> node id (unique in the graph). */
static PyObject *op_get_id(OperationObject *self, void *c) {
  (void)c;
  return PyLong_FromLong(self->id);
}

/* A tuple of dtype ints. */
static PyObject *dtype_tuple(int n, const tfc_dtype *types) {
  PyObject *t = PyTuple_New(n);
  if (!t) return NULL;
  for (int i = 0; i < n; i++) {
    PyObject *v = PyLong_FromLong((long)types[i]);
    if (!v) {
      Py_DECREF(t);
      return NULL;
    }
    PyTuple_SET_ITEM(t, i, v);
  }
  return t;
}

/* Operation._input_types -> tuple of expected input dtype enums (ref types +100). */
static PyObject *op_get_input_types(OperationObject *self, void *c) {
  (void)c;
  tfc_node *n = op_node(self);
  return dtype_tuple(n->n_inputs, n->in_types);
}

/* Operation._output_types -> tuple of output dtype enums (ref types +100). */
static PyObject *op_get_output_types(OperationObject *self, void *c) {
  (void)c;
  tfc_node *n = op_node(self);
  return dtype_tuple(n->n_outputs, n->out_types);
}

/* ------------------------------------------------------------ methods */

/* Operation._set_device(device): replaces the requested device string. */
static PyObject *op_set_device(OperationObject *self, PyObject *arg) {
  const char *dev = "";
  if (arg != Py_None) {
    if (!PyUnicode_Check(arg)) {
      PyErr_SetString(PyExc_TypeError, "_set_device() expects a string or None");
      return NULL;
    }
    if (!(dev = PyUnicode_AsUTF8(arg))) return NULL;
  }
  tfc_status st;
  tfc_status_clear(&st);
  if (!tfc_node_set_device(op_node(self), dev, &st)) return tfc_py_raise_build_status(&st);
  Py_RETURN_NONE;
}

/* Operation._add_control_inputs(ops): adds control edges from each op (or a Tensor's op). */
static PyObject *op_add_control_inputs(OperationObject *self, PyObject *arg) {
  tfc_mod_state *ms = self->graph->ms;
  PyObject *seq = PySequence_Fast(arg, "_add_control_inputs() expects a list of Operations");
  if (!seq) return NULL;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *c = PySequence_Fast_GET_ITEM(seq, i);
    OperationObject *co;
    if (PyObject_TypeCheck(c, ms->operation_type)) {
      co = (OperationObject *)c;
    } else if (PyObject_TypeCheck(c, ms->tensor_type)) {
      co = ((TensorObject *)c)->op;
    } else {
      PyErr_Format(PyExc_TypeError, "Control input must be an Operation, got %.200R", c);
      Py_DECREF(seq); /* after formatting: c may be owned by seq only */
      return NULL;
    }
    if (co->graph != self->graph) {
      PyErr_Format(PyExc_ValueError, "%S must be from the same graph as %S.", c, (PyObject *)self);
      Py_DECREF(seq);
      return NULL;
    }
    tfc_status st;
    tfc_status_clear(&st);
    if (!tfc_node_add_control_input(op_node(self), co->id, &st)) {
      Py_DECREF(seq);
      return tfc_py_raise_build_status(&st);
    }
  }
  Py_DECREF(seq);
  Py_RETURN_NONE;
}

/* Operation._update_input(index, tensor): replaces data input `index` (a
 * loop's back edge into Merge); TypeError for a non-Tensor, ValueError for
 * another graph, the build error classes for a bad index or dtype. */
static PyObject *op_update_input(OperationObject *self, PyObject *args) {
  tfc_mod_state *ms = self->graph->ms;
  int index;
  PyObject *t;
  if (!PyArg_ParseTuple(args, "iO:_update_input", &index, &t)) return NULL;
  if (!PyObject_TypeCheck(t, ms->tensor_type)) {
    PyErr_Format(PyExc_TypeError, "_update_input() expects a Tensor, got %.200R", t);
    return NULL;
  }
  TensorObject *to = (TensorObject *)t;
  if (to->op->graph != self->graph) {
    PyErr_Format(PyExc_ValueError, "%S must be from the same graph as %S.", t, (PyObject *)self);
    return NULL;
  }
  tfc_status st;
  tfc_status_clear(&st);
  tfc_endpoint src = {to->op->id, to->index};
  if (!tfc_node_update_input(self->graph->g, op_node(self), index, src, &st))
    return tfc_py_raise_build_status(&st);
  Py_RETURN_NONE;
}

/* Operation.get_attr(name) -> Python value; ValueError when the op has no such attr. */
static PyObject *op_get_attr(OperationObject *self, PyObject *arg) {
  if (!PyUnicode_Check(arg)) {
    PyErr_SetString(PyExc_TypeError, "get_attr() expects an attr name string");
    return NULL;
  }
  const char *name = PyUnicode_AsUTF8(arg);
  if (!name) return NULL;
  tfc_node *n = op_node(self);
  const tfc_attr_value *v = tfc_attrs_find(&n->attrs, name);
  if (!v && n->colocate_with && strcmp(name, "_class") == 0) {
    /* the graph keeps a `_class` colocation hint as colocate_with only */
    PyObject *s = PyBytes_FromFormat("loc:@%s", n->colocate_with);
    if (!s) return NULL;
    PyObject *l = PyList_New(1);
    if (!l) {
      Py_DECREF(s);
      return NULL;
    }
    PyList_SET_ITEM(l, 0, s);
    return l;
  }
  if (!v) {
    PyErr_Format(PyExc_ValueError, "Operation '%s' has no attr named '%s'.", n->name, name);
    return NULL;
  }
  return tfc_py_attr_to_py(v);
}

/* Operation._attr_names() -> list of the node's attr names (sorted). */
static PyObject *op_attr_names(OperationObject *self, PyObject *unused) {
  (void)unused;
  tfc_node *n = op_node(self);
  PyObject *l = PyList_New(n->attrs.n);
  if (!l) return NULL;
  for (int i = 0; i < n->attrs.n; i++) {
    PyObject *s = PyUnicode_FromString(n->attrs.items[i].name);
    if (!s) {
      Py_DECREF(l);
      return NULL;
    }
    PyList_SET_ITEM(l, i, s);
  }
  if (n->colocate_with && !tfc_attrs_find(&n->attrs, "_class")) {
    PyObject *s = PyUnicode_FromString("_class");
    if (!s || PyList_Insert(l, 0, s) < 0) {
      Py_XDECREF(s);
      Py_DECREF(l);
      return NULL;
    }
    Py_DECREF(s);
  }
  return l;
}

/* ------------------------------------------------------------ lifecycle */

/* GC traversal: graph and output tensors. */
static int op_traverse(OperationObject *self, visitproc visit, void *arg) {
  Py_VISIT(Py_TYPE(self));
  Py_VISIT(self->graph);
  Py_VISIT(self->outputs);
  return 0;
}

/* Drops the outputs tuple (cycle breaking). The graph reference stays until
 * dealloc so a cleared object never has a NULL graph; the Graph's own clear
 * breaks the Graph <-> Operation cycle. */
static int op_clear(OperationObject *self) {
  Py_CLEAR(self->outputs);
  return 0;
}

/* Deallocation. */
static void op_dealloc(OperationObject *self) {
  PyTypeObject *tp = Py_TYPE(self);
  PyObject_GC_UnTrack(self);
  if (self->weakreflist) PyObject_ClearWeakRefs((PyObject *)self);
  op_clear(self);
  Py_CLEAR(self->graph);
  tp->tp_free((PyObject *)self);
  Py_DECREF(tp);
}

/* repr: <tfc Operation 'name' type=Op>. */
static PyObject *op_repr(OperationObject *self) {
  tfc_node *n = op_node(self);
  return PyUnicode_FromFormat("<tf.Operation '%s' type=%s>", n->name, n->def->name);
}

static PyMethodDef op_methods[] = {
    {"_set_device", (PyCFunction)op_set_device, METH_O, "Sets the requested device."},
    {"_update_input", (PyCFunction)op_update_input, METH_VARARGS, "Replaces one data input."},
    {"_add_control_inputs", (PyCFunction)op_add_control_inputs, METH_O,
     "Adds control inputs (list of Operations)."},
    {"get_attr", (PyCFunction)op_get_attr, METH_O, "The value of attr `name`."},
    {"_attr_names", (PyCFunction)op_attr_names, METH_NOARGS, "Names of the node's attrs."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef op_getset[] = {
    {"name", (getter)op_get_name, NULL, "The op's name.", NULL},
    {"type", (getter)op_get_type, NULL, "The op type.", NULL},
    {"device", (getter)op_get_device, NULL, "The requested device.", NULL},
    {"inputs", (getter)op_get_inputs, NULL, "Input Tensors.", NULL},
    {"outputs", (getter)op_get_outputs, NULL, "Output Tensors.", NULL},
    {"control_inputs", (getter)op_get_control_inputs, NULL, "Control input Operations.", NULL},
    {"graph", (getter)op_get_graph, NULL, "The Graph.", NULL},
    {"_id", (getter)op_get_id, NULL, "Node id.", NULL},
    {"_input_types", (getter)op_get_input_types, NULL, "Input dtype enums.", NULL},
    {"_output_types", (getter)op_get_output_types, NULL, "Output dtype enums.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyMemberDef op_members[] = {
    {"__weaklistoffset__", T_PYSSIZET, offsetof(OperationObject, weakreflist), READONLY, NULL},
    {NULL, 0, 0, 0, NULL}};

static PyType_Slot op_slots[] = {
    {Py_tp_dealloc, op_dealloc},
    {Py_tp_traverse, op_traverse},
    {Py_tp_clear, op_clear},
    {Py_tp_repr, op_repr},
    {Py_tp_methods, op_methods},
    {Py_tp_getset, op_getset},
    {Py_tp_members, op_members},
    {Py_tp_doc, "A node of a Graph (created by Graph._add_op)."},
    {0, NULL}};

PyType_Spec tfc_py_operation_spec = {
    .name = "tfc._tfc.Operation",
    .basicsize = sizeof(OperationObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC |
             Py_TPFLAGS_DISALLOW_INSTANTIATION,
    .slots = op_slots,
};
