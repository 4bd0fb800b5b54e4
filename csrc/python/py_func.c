/*
 * py_func.c — the hook behind PyFunc / PyFuncStateless / EagerPyFunc: the
 * kernel calls tfc.ops.script_ops._call(token, eager, inputs, out_types)
 * with the inputs as NumPy arrays; _call runs the registered function and
 * returns its results checked against out_types (or raises a tfc.errors
 * class chosen by TF's rules for the Python exception). The GIL is taken
 * only for this call; the executor runs without it otherwise.
 */
#include "kernels/py_func.h"
#include "python/py_internal.h"

/* Sets st from the pending Python exception: its error_code and message when
 * it is a tfc.errors.OpError, otherwise UNKNOWN and "<Type>: <text>". */
static void status_from_exception(tfc_status *st) {
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  PyErr_NormalizeException(&type, &value, &tb);
  long code = TFC_CODE_UNKNOWN;
  PyObject *text = NULL;
  if (value && PyObject_HasAttrString(value, "error_code") &&
      PyObject_HasAttrString(value, "message")) {
    PyObject *c = PyObject_GetAttrString(value, "error_code");
    if (c && PyLong_Check(c)) code = PyLong_AsLong(c);
    Py_XDECREF(c);
    text = PyObject_GetAttrString(value, "message");
    if (text && !PyUnicode_Check(text)) Py_CLEAR(text);
  }
  PyErr_Clear();
  if (!text && value) {
    PyObject *s = PyObject_Str(value);
    if (s) text = PyUnicode_FromFormat("%s: %U", ((PyTypeObject *)type)->tp_name, s);
    Py_XDECREF(s);
  }
  const char *msg = text ? PyUnicode_AsUTF8(text) : NULL;
  if (!msg) PyErr_Clear();
  if (code <= TFC_CODE_OK || code > TFC_CODE_UNAUTHENTICATED) code = TFC_CODE_UNKNOWN;
  tfc_status_set(st, (tfc_code)code, "%s", msg ? msg : "error in a Python function");
  Py_XDECREF(text);
  Py_XDECREF(type);
  Py_XDECREF(value);
  Py_XDECREF(tb);
}

/* Calls _call and converts its results; see kernels/py_func.h. */
static bool py_func_call(const char *token, size_t len, bool eager, int n_in,
                         tfc_tensor *const *in, int n_out, const tfc_dtype *out_types,
                         tfc_tensor **out, tfc_status *st) {
  if (!Py_IsInitialized()) {
    tfc_status_set(st, TFC_CODE_FAILED_PRECONDITION, "the Python interpreter has exited");
    return false;
  }
  PyGILState_STATE g = PyGILState_Ensure();
  bool ok = false;
  PyObject *mod = NULL, *args = NULL, *types = NULL, *res = NULL;
  int made = 0;
  mod = PyImport_ImportModule("tfc.ops.script_ops");
  args = mod ? PyTuple_New(n_in) : NULL;
  types = args ? PyTuple_New(n_out) : NULL;
  if (!types) goto done;
  for (int i = 0; i < n_in; i++) {
    PyObject *a = tfc_py_tensor_to_array_copy(in[i]);
    if (!a) goto done;
    PyTuple_SET_ITEM(args, i, a);
  }
  for (int i = 0; i < n_out; i++) {
    PyObject *t = PyLong_FromLong((long)out_types[i]);
    if (!t) goto done;
    PyTuple_SET_ITEM(types, i, t);
  }
  res = PyObject_CallMethod(mod, "_call", "y#OOO", token, (Py_ssize_t)len,
                            eager ? Py_True : Py_False, args, types);
  if (!res) goto done;
  if (!PyList_Check(res) || PyList_GET_SIZE(res) != n_out) {
    PyErr_SetString(PyExc_RuntimeError, "tfc.ops.script_ops._call returned a malformed result");
    goto done;
  }
  for (; made < n_out; made++) {
    out[made] = tfc_py_value_to_tensor_copy(PyList_GET_ITEM(res, made), out_types[made]);
    if (!out[made]) goto done;
  }
  ok = true;
done:
  if (!ok) {
    for (int k = 0; k < made; k++) tfc_tensor_unref(out[k]);
    if (PyErr_Occurred()) status_from_exception(st);
    else tfc_status_set(st, TFC_CODE_INTERNAL, "Python function call failed");
  }
  Py_XDECREF(res);
  Py_XDECREF(types);
  Py_XDECREF(args);
  Py_XDECREF(mod);
  PyGILState_Release(g);
  return ok;
}

/* Installs the hook (module exec). */
void tfc_py_func_install(void) { tfc_py_func_set_hook(py_func_call); }
