/*
 * py_generator.c — the hooks behind Dataset.from_generator: a generator
 * dataset's iterator calls tfc.data.dataset_ops._generator_open(token) for a
 * Python iterator of flat element tuples, then next() on it, converting each
 * component to a tensor of the declared dtype. The GIL is taken only around
 * these calls (the executor and prefetch threads hold no GIL otherwise).
 */
#include "kernels/dataset_generator.h"
#include "python/py_internal.h"

/* Sets st from the pending Python exception ("<Type>: <message>"), clearing it. */
static void status_from_exception(tfc_status *st) {
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  PyErr_NormalizeException(&type, &value, &tb);
  const char *tname = type ? ((PyTypeObject *)type)->tp_name : "Error";
  PyObject *text = value ? PyObject_Str(value) : NULL;
  const char *msg = text ? PyUnicode_AsUTF8(text) : NULL;
  if (!msg) PyErr_Clear();
  tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "%s: %s", tname, msg ? msg : "");
  Py_XDECREF(text);
  Py_XDECREF(type);
  Py_XDECREF(value);
  Py_XDECREF(tb);
}

/* Opens the generator registered under token. */
static void *gen_open(int64_t token, tfc_status *st) {
  PyGILState_STATE g = PyGILState_Ensure();
  PyObject *it = NULL;
  PyObject *mod = PyImport_ImportModule("tfc.data.dataset_ops");
  if (mod) {
    it = PyObject_CallMethod(mod, "_generator_open", "L", (long long)token);
    Py_DECREF(mod);
  }
  if (!it) status_from_exception(st);
  PyGILState_Release(g);
  return it;
}

/* The next element: 1, 0 at the end, -1 with st. */
static int gen_next(void *state, int n, const tfc_dtype *types, tfc_tensor **out, tfc_status *st) {
  PyGILState_STATE g = PyGILState_Ensure();
  int rc = -1;
  PyObject *item = PyIter_Next((PyObject *)state);
  if (!item) {
    if (PyErr_Occurred()) status_from_exception(st);
    else rc = 0;
    PyGILState_Release(g);
    return rc;
  }
  if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != n) {
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "generator element does not have %d components", n);
  } else {
    int c = 0;
    for (; c < n; c++) {
      out[c] = tfc_py_value_to_tensor_copy(PyTuple_GET_ITEM(item, c), types[c]);
      if (!out[c]) break;
    }
    if (c == n) {
      rc = 1;
    } else {
      status_from_exception(st);
      for (int k = 0; k < c; k++) tfc_tensor_unref(out[k]);
    }
  }
  Py_DECREF(item);
  PyGILState_Release(g);
  return rc;
}

/* Drops the Python iterator. */
static void gen_close(void *state) {
  if (!Py_IsInitialized()) return;
  PyGILState_STATE g = PyGILState_Ensure();
  Py_DECREF((PyObject *)state);
  PyGILState_Release(g);
}

static const tfc_generator_hooks k_hooks = {gen_open, gen_next, gen_close};

/* Installs the generator hooks (module exec). */
void tfc_py_generator_install(void) { tfc_generator_set_hooks(&k_hooks); }
