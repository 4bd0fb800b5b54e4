/*
 * py_tensor.c — the Tensor type of tfc._tfc (subclassed by tfc.Tensor), plus
 * the shape <-> Python helpers shared by the folder.
 *
 * A Tensor object is an (Operation, output index) handle created only by C;
 * its Operation caches it, so the same endpoint is always the same object.
 */
#include "python/py_internal.h"

#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------ shape helpers */

/* None for unknown rank, else a tuple of int/None. */
PyObject *tfc_py_shape_to_py(const tfc_shape *s) {
  if (s->rank < 0) Py_RETURN_NONE;
  PyObject *t = PyTuple_New(s->rank);
  if (!t) return NULL;
  for (int i = 0; i < s->rank; i++) {
    PyObject *d = s->dims[i] < 0 ? Py_NewRef(Py_None) : PyLong_FromLongLong(s->dims[i]);
    if (!d) {
      Py_DECREF(t);
      return NULL;
    }
    PyTuple_SET_ITEM(t, i, d);
  }
  return t;
}

/* Writes TF 1.15's text of a static shape ("(2, ?)", "<unknown>") into buf. */
void tfc_py_shape_text(const tfc_shape *s, char *buf, size_t size) {
  if (size == 0) return;
  if (s->rank < 0) {
    snprintf(buf, size, "<unknown>");
    return;
  }
  size_t at = 0;
  buf[0] = 0;
  at += (size_t)snprintf(buf + at, size - at, "(");
  for (int i = 0; i < s->rank && at < size; i++) {
    if (s->dims[i] < 0)
      at += (size_t)snprintf(buf + at, size - at, i ? ", ?" : "?");
    else
      at += (size_t)snprintf(buf + at, size - at, i ? ", %lld" : "%lld", (long long)s->dims[i]);
  }
  if (at < size) snprintf(buf + at, size - at, s->rank == 1 ? ",)" : ")");
}

/* One dimension: int (-1 = unknown), None, or an object with .value (Dimension). */
static bool dim_from_py(tfc_mod_state *ms, PyObject *d, int64_t *out, const char *what) {
  if (d == Py_None) {
    *out = -1;
    return true;
  }
  PyObject *idx = NULL;
  if (PyLong_Check(d) || PyIndex_Check(d)) {
    idx = PyNumber_Index(d);
  } else {
    PyObject *v = PyObject_GetAttr(d, ms->s_value);
    if (!v) {
      PyErr_Clear();
      PyErr_Format(PyExc_TypeError, "Expected an int or None as a dimension of %s, got %.200R",
                   what, d);
      return false;
    }
    if (v == Py_None) {
      Py_DECREF(v);
      *out = -1;
      return true;
    }
    idx = PyNumber_Index(v);
    Py_DECREF(v);
  }
  if (!idx) return false;
  long long x = PyLong_AsLongLong(idx);
  Py_DECREF(idx);
  if (x == -1 && PyErr_Occurred()) return false;
  if (x < -1) {
    PyErr_Format(PyExc_ValueError, "Dimension %lld must be >= -1 in %s", x, what);
    return false;
  }
  *out = x;
  return true;
}

/* Parses a Python shape value into *out; false + TypeError/ValueError. */
bool tfc_py_shape_from_py(tfc_mod_state *ms, PyObject *obj, tfc_shape *out, const char *what) {
  if (obj == Py_None) {
    *out = tfc_shape_unknown();
    return true;
  }
  PyObject *seq = NULL;
  if (PyList_Check(obj) || PyTuple_Check(obj)) {
    seq = Py_NewRef(obj);
  } else if (PyLong_Check(obj)) {
    /* A bare int is a 1-D shape of that size (TensorShape(3) == [3]). */
    int64_t d;
    if (!dim_from_py(ms, obj, &d, what)) return false;
    *out = tfc_shape_make(1, &d);
    return true;
  } else {
    PyObject *ndims = PyObject_GetAttr(obj, ms->s_ndims);
    if (ndims == Py_None) {
      Py_DECREF(ndims);
      *out = tfc_shape_unknown();
      return true;
    }
    if (!ndims) PyErr_Clear();
    Py_XDECREF(ndims);
    PyObject *as_list = PyObject_GetAttr(obj, ms->s_as_list);
    if (as_list) {
      seq = PyObject_CallNoArgs(as_list);
      Py_DECREF(as_list);
      if (!seq) return false;
      if (seq == Py_None) {
        Py_DECREF(seq);
        *out = tfc_shape_unknown();
        return true;
      }
    } else {
      PyErr_Clear();
      if (PyUnicode_Check(obj) || PyBytes_Check(obj) || !PySequence_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "Expected a shape for %s, got %.200R", what, obj);
        return false;
      }
      seq = Py_NewRef(obj);
    }
  }
  PyObject *fast = PySequence_Fast(seq, "shape must be a sequence");
  Py_DECREF(seq);
  if (!fast) return false;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
  if (n > TFC_MAX_RANK) {
    Py_DECREF(fast);
    PyErr_Format(PyExc_ValueError, "Shape of %s has rank %zd; tfc supports at most rank %d", what,
                 n, TFC_MAX_RANK);
    return false;
  }
  tfc_shape s = tfc_shape_unknown_dims((int)n);
  for (Py_ssize_t i = 0; i < n; i++) {
    if (!dim_from_py(ms, PySequence_Fast_GET_ITEM(fast, i), &s.dims[i], what)) {
      Py_DECREF(fast);
      return false;
    }
  }
  Py_DECREF(fast);
  *out = s;
  return true;
}

/* ------------------------------------------------------------ objects */

/* The node and graph behind a Tensor object. */
static inline tfc_node *tensor_node(TensorObject *self) {
  return tfc_py_node(self->op->graph, self->op->id);
}

/* A new Tensor object (registered class) for (op, index); new reference. */
PyObject *tfc_py_tensor_new(OperationObject *op, int index) {
  PyTypeObject *cls = op->graph->ms->tensor_cls;
  TensorObject *self = (TensorObject *)cls->tp_alloc(cls, 0);
  if (!self) return NULL;
  self->op = (OperationObject *)Py_NewRef(op);
  self->index = index;
  self->uid = op->graph->next_tensor_id++;
  return (PyObject *)self;
}

/* Tensor.op -> the producing Operation. */
static PyObject *tensor_get_op(TensorObject *self, void *c) {
  (void)c;
  return Py_NewRef(self->op);
}

/* Tensor.value_index -> output index. */
static PyObject *tensor_get_value_index(TensorObject *self, void *c) {
  (void)c;
  return PyLong_FromLong(self->index);
}

/* Tensor.graph -> the Graph. */
static PyObject *tensor_get_graph(TensorObject *self, void *c) {
  (void)c;
  return Py_NewRef(self->op->graph);
}

/* Tensor.name -> "op:index". */
static PyObject *tensor_get_name(TensorObject *self, void *c) {
  (void)c;
  return PyUnicode_FromFormat("%s:%d", tensor_node(self)->name, self->index);
}

/* Tensor._dtype_enum -> dtype int (ref types +100). */
static PyObject *tensor_get_dtype(TensorObject *self, void *c) {
  (void)c;
  return PyLong_FromLong((long)tensor_node(self)->out_types[self->index]);
}

/* Tensor._shape -> None or tuple of int/None. */
static PyObject *tensor_get_shape(TensorObject *self, void *c) {
  (void)c;
  return tfc_py_shape_to_py(&tensor_node(self)->out_shapes[self->index]);
}

/* Tensor._id -> int unique in the graph. */
static PyObject *tensor_get_id(TensorObject *self, void *c) {
  (void)c;
  return PyLong_FromLongLong(self->uid);
}

/* Tensor._set_shape(shape): merges shape into the static shape (ValueError if incompatible). */
static PyObject *tensor_set_shape(TensorObject *self, PyObject *arg) {
  tfc_shape s, merged;
  if (!tfc_py_shape_from_py(self->op->graph->ms, arg, &s, "set_shape")) return NULL;
  tfc_node *n = tensor_node(self);
  tfc_shape *cur = &n->out_shapes[self->index];
  if (!tfc_shape_merge(cur, &s, &merged)) {
    char a[256], b[256];
    tfc_py_shape_text(cur, a, sizeof a);
    tfc_py_shape_text(&s, b, sizeof b);
    PyErr_Format(PyExc_ValueError, "Shapes %s and %s are not compatible", a, b);
    return NULL;
  }
  *cur = merged;
  Py_RETURN_NONE;
}

/* Tensor._consumers() -> list of Operations that take this tensor as a data input. */
static PyObject *tensor_consumers(TensorObject *self, PyObject *unused) {
  (void)unused;
  GraphObject *g = self->op->graph;
  PyObject *l = PyList_New(0);
  if (!l) return NULL;
  int nn = tfc_graph_num_nodes(g->g);
  for (int id = 0; id < nn; id++) {
    tfc_node *n = tfc_py_node(g, id);
    for (int i = 0; i < n->n_inputs; i++) {
      if (n->inputs[i].node == self->op->id && n->inputs[i].index == self->index) {
        PyObject *op = tfc_py_graph_op(g, id);
        if (!op || PyList_Append(l, op) < 0) {
          Py_XDECREF(op);
          Py_DECREF(l);
          return NULL;
        }
        Py_DECREF(op);
        break;
      }
    }
  }
  return l;
}

/* Writes "name:i", shape text and dtype name of self for repr/str. */
static void tensor_describe(TensorObject *self, const char **name, char *shape, size_t n,
                            const char **dtype) {
  tfc_node *node = tensor_node(self);
  *name = node->name;
  tfc_py_shape_text(&node->out_shapes[self->index], shape, n);
  *dtype = tfc_dtype_name(node->out_types[self->index]);
}

/* repr: <tf.Tensor 'a:0' shape=() dtype=float32>. */
static PyObject *tensor_repr(TensorObject *self) {
  const char *name, *dtype;
  char shape[512];
  tensor_describe(self, &name, shape, sizeof shape, &dtype);
  return PyUnicode_FromFormat("<tf.Tensor '%s:%d' shape=%s dtype=%s>", name, self->index, shape,
                              dtype);
}

/* str: Tensor("a:0", shape=(), dtype=float32). */
static PyObject *tensor_str(TensorObject *self) {
  const char *name, *dtype;
  char shape[512];
  tensor_describe(self, &name, shape, sizeof shape, &dtype);
  return PyUnicode_FromFormat("Tensor(\"%s:%d\", shape=%s, dtype=%s)", name, self->index, shape,
                              dtype);
}

/* GC traversal: the producing op. */
static int tensor_traverse(TensorObject *self, visitproc visit, void *arg) {
  Py_VISIT(Py_TYPE(self));
  Py_VISIT(self->op);
  return 0;
}

/* Nothing to clear: the Operation's clear breaks the op <-> tensor cycle, and
 * keeping self->op lets a cleared tensor stay valid. */
static int tensor_clear(TensorObject *self) {
  (void)self;
  return 0;
}

/* Deallocation. */
static void tensor_dealloc(TensorObject *self) {
  PyTypeObject *tp = Py_TYPE(self);
  PyObject_GC_UnTrack(self);
  if (self->weakreflist) PyObject_ClearWeakRefs((PyObject *)self);
  Py_CLEAR(self->op);
  tp->tp_free((PyObject *)self);
  Py_DECREF(tp);
}

static PyMethodDef tensor_methods[] = {
    {"_set_shape", (PyCFunction)tensor_set_shape, METH_O, "Merges a shape into the static shape."},
    {"_consumers", (PyCFunction)tensor_consumers, METH_NOARGS,
     "Operations consuming this tensor."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef tensor_getset[] = {
    {"op", (getter)tensor_get_op, NULL, "The producing Operation.", NULL},
    {"value_index", (getter)tensor_get_value_index, NULL, "Output index.", NULL},
    {"graph", (getter)tensor_get_graph, NULL, "The Graph.", NULL},
    {"name", (getter)tensor_get_name, NULL, "\"op:index\".", NULL},
    {"_dtype_enum", (getter)tensor_get_dtype, NULL, "DataType enum (ref +100).", NULL},
    {"_shape", (getter)tensor_get_shape, NULL, "Static shape: None or tuple.", NULL},
    {"_id", (getter)tensor_get_id, NULL, "Unique id in the graph.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyMemberDef tensor_members[] = {
    {"__weaklistoffset__", T_PYSSIZET, offsetof(TensorObject, weakreflist), READONLY, NULL},
    {NULL, 0, 0, 0, NULL}};

static PyType_Slot tensor_slots[] = {
    {Py_tp_dealloc, tensor_dealloc},
    {Py_tp_traverse, tensor_traverse},
    {Py_tp_clear, tensor_clear},
    {Py_tp_repr, tensor_repr},
    {Py_tp_str, tensor_str},
    {Py_tp_methods, tensor_methods},
    {Py_tp_getset, tensor_getset},
    {Py_tp_members, tensor_members},
    {Py_tp_doc, "An output of an Operation."},
    {0, NULL}};

PyType_Spec tfc_py_tensor_spec = {
    .name = "tfc._tfc.Tensor",
    .basicsize = sizeof(TensorObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC |
             Py_TPFLAGS_DISALLOW_INSTANTIATION,
    .slots = tensor_slots,
};
