/*
 * module.c — the extension module tfc._tfc: definition, multi-phase init,
 * the module state, and the module-level functions (op_def, op_names,
 * kernel_exists, set_classes, set_error_classes, set_fetch_handler,
 * set_feed_handler, plus test hooks).
 */
#define TFC_PY_IMPORT_ARRAY
#include "python/py_internal.h"

#include "kernels/kernel.h"
#include "runtime/executor.h"

/* The module that defined `type` or a base of it (borrowed); NULL + TypeError. */
PyObject *tfc_py_module_of_type(PyTypeObject *type) {
  return PyType_GetModuleByDef(type, &tfc_py_moduledef);
}

/* ------------------------------------------------------------ op_def() */

/* A Python list of dtype ints; new ref or NULL. */
static PyObject *dtype_list(int n, const tfc_dtype *types) {
  PyObject *l = PyList_New(n);
  if (!l) return NULL;
  for (int i = 0; i < n; i++) {
    PyObject *v = PyLong_FromLong((long)types[i]);
    if (!v) {
      Py_DECREF(l);
      return NULL;
    }
    PyList_SET_ITEM(l, i, v);
  }
  return l;
}

/* Sets d[key] = v, stealing v (which may be NULL on a previous failure). Returns -1 on error. */
static int set_steal(PyObject *d, const char *key, PyObject *v) {
  if (!v) return -1;
  int rc = PyDict_SetItemString(d, key, v);
  Py_DECREF(v);
  return rc;
}

/* Python str or None for a possibly NULL C string; new ref. */
static PyObject *str_or_none(const char *s) {
  if (!s) Py_RETURN_NONE;
  return PyUnicode_FromString(s);
}

/* The dict form of one argument definition; new ref or NULL. */
static PyObject *arg_def_to_py(const tfc_arg_def *a) {
  PyObject *d = PyDict_New();
  if (!d) return NULL;
  if (set_steal(d, "name", PyUnicode_FromString(a->name)) < 0 ||
      set_steal(d, "type", PyLong_FromLong((long)a->type)) < 0 ||
      set_steal(d, "type_attr", str_or_none(a->type_attr)) < 0 ||
      set_steal(d, "number_attr", str_or_none(a->number_attr)) < 0 ||
      set_steal(d, "type_list_attr", str_or_none(a->type_list_attr)) < 0 ||
      set_steal(d, "is_ref", PyBool_FromLong(a->is_ref)) < 0) {
    Py_DECREF(d);
    return NULL;
  }
  return d;
}

/* The dict form of one attr definition; new ref or NULL. */
static PyObject *attr_def_to_py(const tfc_attr_def *a) {
  PyObject *d = PyDict_New();
  if (!d) return NULL;
  if (set_steal(d, "name", PyUnicode_FromString(a->name)) < 0 ||
      set_steal(d, "type", PyUnicode_FromString(a->type)) < 0)
    goto fail;
  if (a->has_default && set_steal(d, "default", tfc_py_attr_to_py(&a->default_value)) < 0)
    goto fail;
  PyObject *allowed;
  if (a->n_allowed_types > 0) {
    allowed = dtype_list(a->n_allowed_types, a->allowed_types);
  } else if (a->n_allowed_strings > 0) {
    allowed = PyList_New(a->n_allowed_strings);
    if (allowed) {
      for (int i = 0; i < a->n_allowed_strings; i++) {
        PyObject *s = PyUnicode_FromString(a->allowed_strings[i]);
        if (!s) {
          Py_CLEAR(allowed);
          break;
        }
        PyList_SET_ITEM(allowed, i, s);
      }
    }
  } else {
    allowed = Py_NewRef(Py_None);
  }
  if (set_steal(d, "allowed_values", allowed) < 0) goto fail;
  if (set_steal(d, "minimum",
                a->has_minimum ? PyLong_FromLongLong(a->minimum) : Py_NewRef(Py_None)) < 0)
    goto fail;
  return d;
fail:
  Py_DECREF(d);
  return NULL;
}

/* A list of dicts built by fn over n items; new ref or NULL. */
static PyObject *arg_list_to_py(int n, const tfc_arg_def *args) {
  PyObject *l = PyList_New(n);
  if (!l) return NULL;
  for (int i = 0; i < n; i++) {
    PyObject *v = arg_def_to_py(&args[i]);
    if (!v) {
      Py_DECREF(l);
      return NULL;
    }
    PyList_SET_ITEM(l, i, v);
  }
  return l;
}

/* op_def(op_type) -> dict describing the op; KeyError when unknown. */
static PyObject *mod_op_def(PyObject *module, PyObject *arg) {
  (void)module;
  if (!PyUnicode_Check(arg)) {
    PyErr_Format(PyExc_TypeError, "op_def() expects an op type string, got %.100s",
                 Py_TYPE(arg)->tp_name);
    return NULL;
  }
  const char *name = PyUnicode_AsUTF8(arg);
  if (!name) return NULL;
  const tfc_op_def *def = tfc_op_lookup(name);
  if (!def) {
    PyErr_SetObject(PyExc_KeyError, arg);
    return NULL;
  }
  return tfc_py_op_def_dict(def);
}

/* The op_def() dict of def (see py_internal.h). */
PyObject *tfc_py_op_def_dict(const tfc_op_def *def) {
  PyObject *d = PyDict_New();
  if (!d) return NULL;
  if (set_steal(d, "name", PyUnicode_FromString(def->name)) < 0 ||
      set_steal(d, "inputs", arg_list_to_py(def->n_inputs, def->inputs)) < 0 ||
      set_steal(d, "outputs", arg_list_to_py(def->n_outputs, def->outputs)) < 0)
    goto fail;
  PyObject *attrs = PyList_New(def->n_attrs);
  if (!attrs) goto fail;
  for (int i = 0; i < def->n_attrs; i++) {
    PyObject *v = attr_def_to_py(&def->attrs[i]);
    if (!v) {
      Py_DECREF(attrs);
      goto fail;
    }
    PyList_SET_ITEM(attrs, i, v);
  }
  if (set_steal(d, "attrs", attrs) < 0 ||
      set_steal(d, "is_stateful", PyBool_FromLong((def->flags & TFC_OP_STATEFUL) != 0)) < 0)
    goto fail;
  return d;
fail:
  Py_DECREF(d);
  return NULL;
}

/* op_names() -> sorted list of every registered op type. */
static PyObject *mod_op_names(PyObject *module, PyObject *unused) {
  (void)module;
  (void)unused;
  int n = tfc_op_count();
  PyObject *l = PyList_New(n);
  if (!l) return NULL;
  for (int i = 0; i < n; i++) {
    PyObject *s = PyUnicode_FromString(tfc_op_at(i)->name);
    if (!s) {
      Py_DECREF(l);
      return NULL;
    }
    PyList_SET_ITEM(l, i, s);
  }
  return l;
}

/* kernel_exists(op_type) -> True when a CPU kernel is registered for the op
 * (the runtime's own kernels included). */
static PyObject *mod_kernel_exists(PyObject *module, PyObject *arg) {
  (void)module;
  if (!PyUnicode_Check(arg)) {
    PyErr_SetString(PyExc_TypeError, "kernel_exists() expects an op type string");
    return NULL;
  }
  const char *name = PyUnicode_AsUTF8(arg);
  if (!name) return NULL;
  /* the kernels the runtime registers on first use (transfers, function
   * calls and functional control flow) count as well */
  tfc_sendrecv_register();
  return PyBool_FromLong(tfc_kernel_exists(name, "CPU"));
}

/* Replaces *slot with a new reference to cls after checking it subclasses base. */
static int set_class_slot(PyTypeObject **slot, PyObject *cls, PyTypeObject *base) {
  if (cls == Py_None) {
    cls = (PyObject *)base;
  }
  if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, base)) {
    PyErr_Format(PyExc_TypeError, "set_classes: expected a subclass of %s, got %R",
                 base->tp_name, cls);
    return -1;
  }
  Py_INCREF(cls);
  Py_XSETREF(*slot, (PyTypeObject *)cls);
  return 0;
}

/* set_classes(operation_cls, tensor_cls): classes C instantiates from now on. */
static PyObject *mod_set_classes(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
  tfc_mod_state *ms = tfc_py_state(module);
  if (nargs != 2) {
    PyErr_SetString(PyExc_TypeError, "set_classes(operation_cls, tensor_cls) takes 2 arguments");
    return NULL;
  }
  if (set_class_slot(&ms->op_cls, args[0], ms->operation_type) < 0) return NULL;
  if (set_class_slot(&ms->tensor_cls, args[1], ms->tensor_type) < 0) return NULL;
  Py_RETURN_NONE;
}

/* set_error_classes({code: cls}): exception classes raised for failed statuses. */
static PyObject *mod_set_error_classes(PyObject *module, PyObject *arg) {
  tfc_mod_state *ms = tfc_py_state(module);
  if (arg == Py_None) {
    Py_CLEAR(ms->error_classes);
    Py_RETURN_NONE;
  }
  if (!PyDict_Check(arg)) {
    PyErr_SetString(PyExc_TypeError, "set_error_classes() expects a dict {code: class}");
    return NULL;
  }
  PyObject *copy = PyDict_Copy(arg);
  if (!copy) return NULL;
  Py_XSETREF(ms->error_classes, copy);
  Py_RETURN_NONE;
}

/* Stores a callable (or None to clear) in *slot. */
static PyObject *set_handler(PyObject **slot, PyObject *fn, const char *what) {
  if (fn == Py_None) {
    Py_CLEAR(*slot);
    Py_RETURN_NONE;
  }
  if (!PyCallable_Check(fn)) {
    PyErr_Format(PyExc_TypeError, "%s() expects a callable", what);
    return NULL;
  }
  Py_INCREF(fn);
  Py_XSETREF(*slot, fn);
  Py_RETURN_NONE;
}

/* set_fetch_handler(fn): fn(fetches) -> (flat_list, rebuild) for nested fetches. */
static PyObject *mod_set_fetch_handler(PyObject *module, PyObject *arg) {
  return set_handler(&tfc_py_state(module)->fetch_handler, arg, "set_fetch_handler");
}

/* set_feed_handler(fn): fn(feed_dict) -> [(key, value)] for non-Tensor feed keys. */
static PyObject *mod_set_feed_handler(PyObject *module, PyObject *arg) {
  return set_handler(&tfc_py_state(module)->feed_handler, arg, "set_feed_handler");
}

/* _alloc_fail_after(n): test hook; the n-th C allocation from now fails (0: off). */
static PyObject *mod_alloc_fail_after(PyObject *module, PyObject *arg) {
  (void)module;
  long long n = PyLong_AsLongLong(arg);
  if (n == -1 && PyErr_Occurred()) return NULL;
  tfc_alloc_fail_after((int64_t)n);
  Py_RETURN_NONE;
}

/* _registry_check(): raises RuntimeError when an op table fails to parse. */
static PyObject *mod_registry_check(PyObject *module, PyObject *unused) {
  (void)module;
  (void)unused;
  tfc_status st;
  tfc_status_clear(&st);
  if (!tfc_op_registry_check(&st)) {
    PyErr_SetString(PyExc_RuntimeError, st.msg);
    return NULL;
  }
  Py_RETURN_NONE;
}

/* _registered() -> dict of what set_classes/set_error_classes/set_*_handler stored (for tests). */
static PyObject *mod_registered(PyObject *module, PyObject *unused) {
  (void)unused;
  tfc_mod_state *ms = tfc_py_state(module);
  PyObject *none = Py_None;
  return Py_BuildValue("{sNsOsOsOsN}", "classes",
                       Py_BuildValue("(OO)", (PyObject *)ms->op_cls, (PyObject *)ms->tensor_cls),
                       "error_classes", ms->error_classes ? ms->error_classes : none,
                       "fetch_handler", ms->fetch_handler ? ms->fetch_handler : none,
                       "feed_handler", ms->feed_handler ? ms->feed_handler : none, "base_classes",
                       Py_BuildValue("(OO)", (PyObject *)ms->operation_type,
                                     (PyObject *)ms->tensor_type));
}

/* Defined in py_graphdef.c. */
PyObject *tfc_py_mod_tensor_to_proto(PyObject *module, PyObject *args, PyObject *kwds);
PyObject *tfc_py_mod_tensor_from_proto(PyObject *module, PyObject *arg);
/* Defined in py_checkpoint.c. */
PyObject *tfc_py_mod_checkpoint_list(PyObject *module, PyObject *arg);
PyObject *tfc_py_mod_checkpoint_read(PyObject *module, PyObject *args);
/* Defined in py_record.c. */
PyObject *tfc_py_mod_masked_crc32c(PyObject *module, PyObject *arg);
/* Defined in py_hooks.c. */
PyObject *tfc_py_mod_set_hook_classes(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
PyObject *tfc_py_mod_hooked_run(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
/* Defined in py_protos.c. */
PyObject *tfc_py_mod_proto_descriptor_set(PyObject *module, PyObject *unused);
/* Defined in py_record.c: adds the RecordReader and RecordWriter types. */
int tfc_py_record_add_types(PyObject *m);
/* Defined in py_generator.c: the hooks behind Dataset.from_generator. */
void tfc_py_generator_install(void);
/* Defined in py_func.c: the hook behind PyFunc, PyFuncStateless and EagerPyFunc. */
void tfc_py_func_install(void);

static PyMethodDef module_methods[] = {
    {"tensor_to_proto", (PyCFunction)(void (*)(void))tfc_py_mod_tensor_to_proto,
     METH_VARARGS | METH_KEYWORDS, "tensor_to_proto(value, dtype=None) -> TensorProto bytes."},
    {"tensor_from_proto", tfc_py_mod_tensor_from_proto, METH_O,
     "tensor_from_proto(data) -> ndarray."},
    {"checkpoint_list", tfc_py_mod_checkpoint_list, METH_O,
     "checkpoint_list(prefix) -> [(name, dtype enum, shape tuple)] of a V2 checkpoint."},
    {"checkpoint_read", tfc_py_mod_checkpoint_read, METH_VARARGS,
     "checkpoint_read(prefix, name) -> the tensor stored under name, as an ndarray."},
    {"masked_crc32c", tfc_py_mod_masked_crc32c, METH_O,
     "masked_crc32c(data) -> TF's masked CRC-32C of the bytes (TFRecord framing)."},
    {"_proto_descriptor_set", tfc_py_mod_proto_descriptor_set, METH_NOARGS,
     "_proto_descriptor_set() -> serialized FileDescriptorSet of tfc's .proto files."},
    {"set_hook_classes", (PyCFunction)(void (*)(void))tfc_py_mod_set_hook_classes, METH_FASTCALL,
     "set_hook_classes(SessionRunArgs, SessionRunValues, SessionRunContext)."},
    {"hooked_run", (PyCFunction)(void (*)(void))tfc_py_mod_hooked_run, METH_FASTCALL,
     "hooked_run(hooked_session, fetches, feed_dict, options, run_metadata): one "
     "MonitoredSession step through the hooks."},
    {"_registered", mod_registered, METH_NOARGS, "What the set_* functions registered."},
    {"op_def", mod_op_def, METH_O, "op_def(op_type) -> dict describing the op definition."},
    {"op_names", mod_op_names, METH_NOARGS, "op_names() -> list of registered op types."},
    {"kernel_exists", mod_kernel_exists, METH_O, "kernel_exists(op_type) -> bool (CPU kernel)."},
    {"set_classes", (PyCFunction)(void (*)(void))mod_set_classes, METH_FASTCALL,
     "set_classes(operation_cls, tensor_cls): classes instantiated by C."},
    {"set_error_classes", mod_set_error_classes, METH_O,
     "set_error_classes({code: cls}): exception classes for failed statuses."},
    {"set_fetch_handler", mod_set_fetch_handler, METH_O,
     "set_fetch_handler(fn): fn(fetches) -> (flat_list, rebuild)."},
    {"set_feed_handler", mod_set_feed_handler, METH_O,
     "set_feed_handler(fn): fn(feed_dict) -> list of (key, value)."},
    {"grpc_list_devices", tfc_py_mod_grpc_list_devices, METH_VARARGS,
     "grpc_list_devices(target, timeout_ms=0) -> [(name, type, memory_limit, incarnation)]."},
    {"grpc_reset", tfc_py_mod_grpc_reset, METH_VARARGS, "grpc_reset(target, containers)."},
    {"_grpc_initialized", tfc_py_mod_grpc_initialized, METH_NOARGS, "Whether gRPC was started."},
    {"_grpc_call", tfc_py_mod_grpc_call, METH_VARARGS, "_grpc_call(target, method, request, timeout_ms)."},
    {"_alloc_fail_after", mod_alloc_fail_after, METH_O, "Test hook: fail the n-th allocation."},
    {"_registry_check", mod_registry_check, METH_NOARGS, "Parses every op table."},
    {NULL, NULL, 0, NULL}};

/* ------------------------------------------------------------ lifecycle */

/* Creates one heap type from spec (optionally with a base), adds it to the module. */
static PyTypeObject *add_type(PyObject *m, PyType_Spec *spec, PyTypeObject *base) {
  PyTypeObject *t = (PyTypeObject *)PyType_FromModuleAndSpec(m, spec, (PyObject *)base);
  if (!t) return NULL;
  const char *dot = strrchr(spec->name, '.');
  const char *short_name = dot ? dot + 1 : spec->name;
  if (PyModule_AddObjectRef(m, short_name, (PyObject *)t) < 0) {
    Py_DECREF(t);
    return NULL;
  }
  return t;
}

/* Py_mod_exec: imports NumPy, creates the types and fills the state. */
static int module_exec(PyObject *m) {
  tfc_mod_state *ms = tfc_py_state(m);
  if (_import_array() < 0) return -1;
  if (!(ms->graph_type = add_type(m, &tfc_py_graph_spec, NULL))) return -1;
  if (!(ms->operation_type = add_type(m, &tfc_py_operation_spec, NULL))) return -1;
  if (!(ms->tensor_type = add_type(m, &tfc_py_tensor_spec, NULL))) return -1;
  if (!(ms->session_type = add_type(m, &tfc_py_session_spec, NULL))) return -1;
  if (!(ms->callable_type = add_type(m, &tfc_py_callable_spec, NULL))) return -1;
  if (!(ms->tensor_ref_type = add_type(m, &tfc_py_tensor_ref_spec, NULL))) return -1;
  PyTypeObject *server_type = add_type(m, &tfc_py_server_spec, NULL);
  if (!server_type) return -1;
  Py_DECREF(server_type);
  PyTypeObject *cluster_type = add_type(m, &tfc_py_cluster_spec_spec, NULL);
  if (!cluster_type) return -1;
  Py_DECREF(cluster_type);
  PyTypeObject *variable_type = add_type(m, &tfc_py_variable_spec, NULL);
  if (!variable_type) return -1;
  Py_DECREF(variable_type);
  if (tfc_py_record_add_types(m) < 0) return -1;
  tfc_py_generator_install();
  tfc_py_func_install();
  ms->op_cls = (PyTypeObject *)Py_NewRef(ms->operation_type);
  ms->tensor_cls = (PyTypeObject *)Py_NewRef(ms->tensor_type);
#define INTERN(field, text) \
  if (!(ms->field = PyUnicode_InternFromString(text))) return -1
  INTERN(s_as_datatype_enum, "as_datatype_enum");
  INTERN(s_as_list, "as_list");
  INTERN(s_as_graph_element, "_as_graph_element");
  INTERN(s_ndims, "ndims");
  INTERN(s_value, "value");
  INTERN(s_name, "name");
  INTERN(s_write, "write");
  INTERN(s_flush, "flush");
#undef INTERN
  if (PyModule_AddIntConstant(m, "REF_OFFSET", TFC_DTYPE_REF_OFFSET) < 0) return -1;
  /* Index the op tables (names only: a spec is parsed when its op is first
   * used; the test suite checks that every spec parses, _registry_check). */
  tfc_status st;
  tfc_status_clear(&st);
  if (!tfc_op_registry_load(&st)) {
    PyErr_Format(PyExc_ImportError, "tfc op registry: %s", st.msg);
    return -1;
  }
  return 0;
}

/* GC traversal of the module state. */
static int module_traverse(PyObject *m, visitproc visit, void *arg) {
  tfc_mod_state *ms = tfc_py_state(m);
  if (!ms) return 0;
  Py_VISIT(ms->graph_type);
  Py_VISIT(ms->operation_type);
  Py_VISIT(ms->tensor_type);
  Py_VISIT(ms->session_type);
  Py_VISIT(ms->callable_type);
  Py_VISIT(ms->tensor_ref_type);
  Py_VISIT(ms->op_cls);
  Py_VISIT(ms->tensor_cls);
  Py_VISIT(ms->error_classes);
  Py_VISIT(ms->fetch_handler);
  Py_VISIT(ms->feed_handler);
  return 0;
}

/* Drops every reference held by the module state. */
static int module_clear(PyObject *m) {
  tfc_mod_state *ms = tfc_py_state(m);
  if (!ms) return 0;
  Py_CLEAR(ms->graph_type);
  Py_CLEAR(ms->operation_type);
  Py_CLEAR(ms->tensor_type);
  Py_CLEAR(ms->session_type);
  Py_CLEAR(ms->callable_type);
  Py_CLEAR(ms->tensor_ref_type);
  Py_CLEAR(ms->op_cls);
  Py_CLEAR(ms->tensor_cls);
  Py_CLEAR(ms->error_classes);
  Py_CLEAR(ms->fetch_handler);
  Py_CLEAR(ms->feed_handler);
  Py_CLEAR(ms->s_as_datatype_enum);
  Py_CLEAR(ms->s_as_list);
  Py_CLEAR(ms->s_as_graph_element);
  Py_CLEAR(ms->s_ndims);
  Py_CLEAR(ms->s_value);
  Py_CLEAR(ms->s_name);
  Py_CLEAR(ms->s_write);
  Py_CLEAR(ms->s_flush);
  return 0;
}

/* Module deallocation. */
static void module_free(void *m) { module_clear((PyObject *)m); }

static PyModuleDef_Slot module_slots[] = {{Py_mod_exec, (void *)module_exec}, {0, NULL}};

PyModuleDef tfc_py_moduledef = {
    PyModuleDef_HEAD_INIT,
    .m_name = "tfc._tfc",
    .m_doc = "tfc's C core: graphs, operations, tensors and sessions.",
    .m_size = sizeof(tfc_mod_state),
    .m_methods = module_methods,
    .m_slots = module_slots,
    .m_traverse = module_traverse,
    .m_clear = module_clear,
    .m_free = module_free,
};

/* Module entry point (multi-phase initialisation). */
PyMODINIT_FUNC PyInit__tfc(void) { return PyModuleDef_Init(&tfc_py_moduledef); }
