/*
 * py_variable.c — the Variable type of tfc._tfc: what every variable of a
 * graph holds, whatever its kind.
 *
 * A variable is three graph elements: the op that owns its storage (the ref
 * output of VariableV2, or a resource handle from VarHandleOp), its
 * initializer op, and the tensor a read gives (the `read` identity or the
 * ReadVariableOp), plus the value it was initialised from. tfc.Variable (ref
 * variables) and tfc.ResourceVariable subclass this type and add TF's API;
 * `name`, `op`, `device`, `graph` and `initializer` are answered here.
 */
#include "python/py_internal.h"

#include <stddef.h>
#include <structmember.h>

typedef struct VariableObject {
  PyObject_HEAD
  PyObject *variable;        /* ref tensor or resource handle */
  PyObject *initializer_op;
  PyObject *snapshot;        /* the tensor a read gives */
  PyObject *initial_value;
  PyObject *dict;
  PyObject *weakrefs;
} VariableObject;

/* An attribute of self->variable (`name`, `op`, `device`, `graph`), or
 * AttributeError while the variable is not built. */
static PyObject *of_variable(VariableObject *self, const char *attr) {
  if (!self->variable) {
    PyErr_Format(PyExc_AttributeError, "Variable has no %s before it is built", attr);
    return NULL;
  }
  return PyObject_GetAttrString(self->variable, attr);
}

/* name: the storage op's output name ("v:0"). */
static PyObject *var_name(PyObject *op, void *c) {
  (void)c;
  return of_variable((VariableObject *)op, "name");
}
/* op: the storage op (VariableV2 / VarHandleOp). */
static PyObject *var_op(PyObject *op, void *c) {
  (void)c;
  return of_variable((VariableObject *)op, "op");
}
/* device: the storage op's device. */
static PyObject *var_device(PyObject *op, void *c) {
  (void)c;
  return of_variable((VariableObject *)op, "device");
}
/* graph: the graph holding the variable. */
static PyObject *var_graph(PyObject *op, void *c) {
  (void)c;
  return of_variable((VariableObject *)op, "graph");
}
/* initializer: the op that assigns the initial value. */
static PyObject *var_initializer(PyObject *op, void *c) {
  (void)c;
  VariableObject *self = (VariableObject *)op;
  return Py_NewRef(self->initializer_op ? self->initializer_op : Py_None);
}
/* initial_value: the tensor the initializer assigns (None when unknown). */
static PyObject *var_initial_value(PyObject *op, void *c) {
  (void)c;
  VariableObject *self = (VariableObject *)op;
  return Py_NewRef(self->initial_value ? self->initial_value : Py_None);
}

/* GC traverse. */
static int var_traverse(PyObject *op, visitproc visit, void *arg) {
  VariableObject *self = (VariableObject *)op;
  Py_VISIT(Py_TYPE(op));
  Py_VISIT(self->variable);
  Py_VISIT(self->initializer_op);
  Py_VISIT(self->snapshot);
  Py_VISIT(self->initial_value);
  Py_VISIT(self->dict);
  return 0;
}

/* GC clear. */
static int var_clear(PyObject *op) {
  VariableObject *self = (VariableObject *)op;
  Py_CLEAR(self->variable);
  Py_CLEAR(self->initializer_op);
  Py_CLEAR(self->snapshot);
  Py_CLEAR(self->initial_value);
  Py_CLEAR(self->dict);
  return 0;
}

/* Dealloc. */
static void var_dealloc(PyObject *op) {
  PyTypeObject *tp = Py_TYPE(op);
  PyObject_GC_UnTrack(op);
  if (((VariableObject *)op)->weakrefs) PyObject_ClearWeakRefs(op);
  var_clear(op);
  tp->tp_free(op);
  Py_DECREF(tp);
}

static PyMemberDef var_members[] = {
    {"_variable", T_OBJECT, offsetof(VariableObject, variable), 0,
     "The ref tensor (VariableV2) or resource handle (VarHandleOp)."},
    {"_initializer_op", T_OBJECT, offsetof(VariableObject, initializer_op), 0,
     "The initializer Operation."},
    {"_snapshot", T_OBJECT, offsetof(VariableObject, snapshot), 0, "The read tensor."},
    {"_initial_value", T_OBJECT, offsetof(VariableObject, initial_value), 0,
     "The initial value tensor."},
    {"__dictoffset__", T_PYSSIZET, offsetof(VariableObject, dict), READONLY, NULL},
    {"__weaklistoffset__", T_PYSSIZET, offsetof(VariableObject, weakrefs), READONLY, NULL},
    {NULL, 0, 0, 0, NULL}};

static PyGetSetDef var_getset[] = {
    {"name", var_name, NULL, "The variable's name (its storage op's output).", NULL},
    {"op", var_op, NULL, "The storage op (VariableV2 or VarHandleOp).", NULL},
    {"device", var_device, NULL, "The storage op's device.", NULL},
    {"graph", var_graph, NULL, "The graph of the variable.", NULL},
    {"initializer", var_initializer, NULL, "The initializer op.", NULL},
    {"initial_value", var_initial_value, NULL, "The initial value tensor.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyType_Slot var_slots[] = {
    {Py_tp_doc, "Variable: the graph elements of a variable (base of tfc.Variable)."},
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_dealloc, var_dealloc},
    {Py_tp_traverse, var_traverse},
    {Py_tp_clear, var_clear},
    {Py_tp_members, var_members},
    {Py_tp_getset, var_getset},
    {0, NULL}};

PyType_Spec tfc_py_variable_spec = {
    .name = "tfc._tfc.Variable",
    .basicsize = sizeof(VariableObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .slots = var_slots,
};
