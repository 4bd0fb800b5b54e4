/*
 * py_record.c — module function for TFRecord framing (events files):
 *
 *   masked_crc32c(data) -> int    TF's masked CRC-32C of a bytes-like object
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "io/crc32c.h"
#include "python/py_internal.h"

PyObject *tfc_py_mod_masked_crc32c(PyObject *module, PyObject *arg) {
  (void)module;
  Py_buffer b;
  if (PyObject_GetBuffer(arg, &b, PyBUF_SIMPLE) < 0) return NULL;
  uint32_t c;
  Py_BEGIN_ALLOW_THREADS
  c = tfc_crc32c_mask(tfc_crc32c(b.buf, (size_t)b.len));
  Py_END_ALLOW_THREADS
  PyBuffer_Release(&b);
  return PyLong_FromUnsignedLong(c);
}
