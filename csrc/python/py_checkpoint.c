/*
 * py_checkpoint.c — module functions over V2 checkpoints for
 * tf.train.NewCheckpointReader / list_variables / load_variable:
 *
 *   checkpoint_list(prefix) -> [(name, dtype_enum, shape_tuple)], sorted by name
 *   checkpoint_read(prefix, name) -> ndarray (bytes objects for strings)
 *
 * Both release the GIL while they touch files; failures raise the tfc.errors
 * class of the status (NotFoundError, DataLossError, ...).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "io/bundle.h"
#include "python/py_internal.h"

PyObject *tfc_py_mod_checkpoint_list(PyObject *module, PyObject *arg) {
  tfc_mod_state *ms = tfc_py_state(module);
  PyObject *bytes = PyUnicode_Check(arg) ? PyUnicode_EncodeFSDefault(arg) : NULL;
  if (!bytes) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "checkpoint prefix must be a str");
    return NULL;
  }
  tfc_status st;
  tfc_status_clear(&st);
  tfc_bundle_reader *r;
  const char *prefix = PyBytes_AS_STRING(bytes);
  Py_BEGIN_ALLOW_THREADS
  r = tfc_bundle_reader_open(prefix, &st);
  Py_END_ALLOW_THREADS
  Py_DECREF(bytes);
  if (!r) return tfc_py_raise_status(ms, NULL, &st);
  size_t n = tfc_bundle_reader_count(r);
  PyObject *out = PyList_New((Py_ssize_t)n);
  for (size_t i = 0; out && i < n; i++) {
    const char *name;
    size_t nlen;
    tfc_bundle_entry e;
    if (!tfc_bundle_reader_entry_at(r, i, &name, &nlen, &e, &st)) {
      Py_CLEAR(out);
      tfc_py_raise_status(ms, NULL, &st);
      break;
    }
    PyObject *shape = PyTuple_New(e.rank);
    for (int d = 0; shape && d < e.rank; d++) PyTuple_SET_ITEM(shape, d, PyLong_FromLongLong(e.dims[d]));
    PyObject *item = shape ? Py_BuildValue("(NiN)", PyUnicode_DecodeUTF8(name, (Py_ssize_t)nlen,
                                                                          "surrogateescape"),
                                           (int)e.dtype, shape)
                           : NULL;
    tfc_bundle_entry_clear(&e);
    if (!item) {
      Py_CLEAR(out);
      break;
    }
    PyList_SET_ITEM(out, (Py_ssize_t)i, item);
  }
  tfc_bundle_reader_free(r);
  return out;
}

PyObject *tfc_py_mod_checkpoint_read(PyObject *module, PyObject *args) {
  tfc_mod_state *ms = tfc_py_state(module);
  PyObject *pobj, *nobj;
  if (!PyArg_ParseTuple(args, "UU:checkpoint_read", &pobj, &nobj)) return NULL;
  PyObject *pb = PyUnicode_EncodeFSDefault(pobj);
  if (!pb) return NULL;
  Py_ssize_t nlen;
  const char *name = PyUnicode_AsUTF8AndSize(nobj, &nlen);
  if (!name) {
    Py_DECREF(pb);
    return NULL;
  }
  tfc_status st;
  tfc_status_clear(&st);
  tfc_tensor *t = NULL;
  const char *prefix = PyBytes_AS_STRING(pb);
  Py_BEGIN_ALLOW_THREADS
  tfc_bundle_reader *r = tfc_bundle_reader_open(prefix, &st);
  if (r) t = tfc_bundle_reader_read(r, name, (size_t)nlen, NULL, &st);
  tfc_bundle_reader_free(r);
  Py_END_ALLOW_THREADS
  Py_DECREF(pb);
  if (!t) return tfc_py_raise_status(ms, NULL, &st);
  PyObject *v = tfc_py_tensor_to_py(ms, t, true);
  tfc_tensor_unref(t);
  return v;
}
