/*
 * py_record.c — TFRecord files for tfc.python_io / tfc.io:
 *
 *   RecordWriter(path, compression=0, level=-1)  .write(bytes) .flush() .close()
 *   RecordReader(path, compression=0)            an iterator of bytes records
 *   masked_crc32c(data) -> int   TF's masked CRC-32C of a bytes-like object (events files)
 *
 * compression is a tfc_zstream_kind (0 none, 1 ZLIB, 2 GZIP). Reads, writes
 * and flushes run with the GIL released; each object serializes its own
 * callers with a mutex taken only while the GIL is released (so no thread
 * ever waits for it while holding the GIL). Failures raise the tfc.errors
 * class of the status: NotFoundError for a missing file, DataLossError for
 * a damaged record (after the good records before it were delivered).
 */
#include <pthread.h>

#include "io/crc32c.h"
#include "io/record.h"
#include "python/py_internal.h"

typedef struct {
  PyObject_HEAD
  tfc_record_reader *r;
  pthread_mutex_t mu;
} RecordReaderObject;

typedef struct {
  PyObject_HEAD
  tfc_record_writer *w;
  pthread_mutex_t mu;
} RecordWriterObject;

/* The module state of an object of one of this file's types. */
static tfc_mod_state *state_of(PyObject *self) {
  PyObject *m = PyType_GetModuleByDef(Py_TYPE(self), &tfc_py_moduledef);
  return m ? tfc_py_state(m) : NULL;
}

/* Raises the status as the registered tfc.errors class. */
static PyObject *raise(PyObject *self, const tfc_status *st) {
  tfc_mod_state *ms = state_of(self);
  if (!ms) return NULL;
  return tfc_py_raise_status(ms, NULL, st);
}

/* Parses (path, compression) where path is str, bytes or os.PathLike. */
static int parse_path(PyObject *arg, PyObject **bytes) {
  return PyUnicode_FSConverter(arg, bytes) ? 0 : -1;
}

/* ---------------------------------------------------------------- reader */

static PyObject *reader_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
  static char *kwlist[] = {"path", "compression", NULL};
  PyObject *path_obj;
  int kind = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|i", kwlist, &path_obj, &kind)) return NULL;
  if (kind < 0 || kind > 2) {
    PyErr_Format(PyExc_ValueError, "unknown compression %d", kind);
    return NULL;
  }
  PyObject *bytes;
  if (parse_path(path_obj, &bytes) < 0) return NULL;
  RecordReaderObject *self = (RecordReaderObject *)type->tp_alloc(type, 0);
  if (!self) {
    Py_DECREF(bytes);
    return NULL;
  }
  pthread_mutex_init(&self->mu, NULL);
  tfc_status st;
  tfc_status_clear(&st);
  const char *path = PyBytes_AS_STRING(bytes);
  tfc_record_reader *r;
  Py_BEGIN_ALLOW_THREADS
  r = tfc_record_reader_open(path, (tfc_zstream_kind)kind, &st);
  Py_END_ALLOW_THREADS
  Py_DECREF(bytes);
  if (!r) {
    raise((PyObject *)self, &st);
    Py_DECREF(self);
    return NULL;
  }
  self->r = r;
  return (PyObject *)self;
}

static void reader_dealloc(RecordReaderObject *self) {
  PyTypeObject *tp = Py_TYPE(self);
  tfc_record_reader_free(self->r);
  pthread_mutex_destroy(&self->mu);
  tp->tp_free((PyObject *)self);
  Py_DECREF(tp);
}

static PyObject *reader_iternext(RecordReaderObject *self) {
  tfc_status st;
  tfc_status_clear(&st);
  const uint8_t *data = NULL;
  size_t len = 0;
  int rc;
  PyThreadState *ts = PyEval_SaveThread();
  pthread_mutex_lock(&self->mu);
  rc = self->r ? tfc_record_reader_next(self->r, &data, &len, &st) : 0;
  PyEval_RestoreThread(ts);
  PyObject *out = NULL;
  if (rc == 1) out = PyBytes_FromStringAndSize((const char *)data, (Py_ssize_t)len);
  pthread_mutex_unlock(&self->mu);
  if (rc < 0) return raise((PyObject *)self, &st);
  return out; /* NULL without an exception: StopIteration */
}

/* read_batch(n) -> list of up to n records (empty at the end). */
static PyObject *reader_read_batch(RecordReaderObject *self, PyObject *arg) {
  Py_ssize_t n = PyLong_AsSsize_t(arg);
  if (n < 0) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "read_batch(n) needs n >= 0");
    return NULL;
  }
  PyObject *out = PyList_New(0);
  if (!out) return NULL;
  tfc_status st;
  tfc_status_clear(&st);
  int rc = 1;
  PyThreadState *ts = PyEval_SaveThread();
  pthread_mutex_lock(&self->mu);
  PyEval_RestoreThread(ts);
  for (Py_ssize_t i = 0; i < n && rc == 1; i++) {
    const uint8_t *data;
    size_t len;
    ts = PyEval_SaveThread();
    rc = self->r ? tfc_record_reader_next(self->r, &data, &len, &st) : 0;
    PyEval_RestoreThread(ts);
    if (rc != 1) break;
    PyObject *b = PyBytes_FromStringAndSize((const char *)data, (Py_ssize_t)len);
    if (!b || PyList_Append(out, b) < 0) {
      Py_XDECREF(b);
      Py_CLEAR(out);
      rc = 0;
      break;
    }
    Py_DECREF(b);
  }
  pthread_mutex_unlock(&self->mu);
  if (rc < 0) {
    /* the records read before the damage come first: hand them out now and
     * let the next call raise (the reader's error is sticky) */
    if (out && PyList_GET_SIZE(out) > 0) return out;
    Py_XDECREF(out);
    return raise((PyObject *)self, &st);
  }
  return out;
}

/* close(): releases the file; iteration then ends. */
static PyObject *reader_close(RecordReaderObject *self, PyObject *unused) {
  (void)unused;
  Py_BEGIN_ALLOW_THREADS
  pthread_mutex_lock(&self->mu);
  tfc_record_reader_free(self->r);
  self->r = NULL;
  pthread_mutex_unlock(&self->mu);
  Py_END_ALLOW_THREADS
  Py_RETURN_NONE;
}

static PyMethodDef reader_methods[] = {
    {"read_batch", (PyCFunction)reader_read_batch, METH_O,
     "read_batch(n) -> list of up to n records; [] at the end of the file."},
    {"close", (PyCFunction)reader_close, METH_NOARGS, "Closes the file."},
    {NULL, NULL, 0, NULL}};

static PyType_Slot reader_slots[] = {
    {Py_tp_new, reader_new},
    {Py_tp_dealloc, reader_dealloc},
    {Py_tp_iter, PyObject_SelfIter},
    {Py_tp_iternext, reader_iternext},
    {Py_tp_methods, reader_methods},
    {Py_tp_doc, "RecordReader(path, compression=0): iterates the records of a TFRecord file."},
    {0, NULL}};

static PyType_Spec reader_spec = {"tfc._tfc.RecordReader", sizeof(RecordReaderObject), 0,
                                  Py_TPFLAGS_DEFAULT, reader_slots};

/* ---------------------------------------------------------------- writer */

static PyObject *writer_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
  static char *kwlist[] = {"path", "compression", "level", NULL};
  PyObject *path_obj;
  int kind = 0, level = -1;
  if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|ii", kwlist, &path_obj, &kind, &level)) return NULL;
  if (kind < 0 || kind > 2) {
    PyErr_Format(PyExc_ValueError, "unknown compression %d", kind);
    return NULL;
  }
  PyObject *bytes;
  if (parse_path(path_obj, &bytes) < 0) return NULL;
  RecordWriterObject *self = (RecordWriterObject *)type->tp_alloc(type, 0);
  if (!self) {
    Py_DECREF(bytes);
    return NULL;
  }
  pthread_mutex_init(&self->mu, NULL);
  tfc_status st;
  tfc_status_clear(&st);
  const char *path = PyBytes_AS_STRING(bytes);
  tfc_record_writer *w;
  Py_BEGIN_ALLOW_THREADS
  w = tfc_record_writer_open(path, (tfc_zstream_kind)kind, level, &st);
  Py_END_ALLOW_THREADS
  Py_DECREF(bytes);
  if (!w) {
    raise((PyObject *)self, &st);
    Py_DECREF(self);
    return NULL;
  }
  self->w = w;
  return (PyObject *)self;
}

static void writer_dealloc(RecordWriterObject *self) {
  PyTypeObject *tp = Py_TYPE(self);
  tfc_status st;
  tfc_status_clear(&st);
  tfc_record_writer_close(self->w, &st); /* finishes the file; errors cannot be raised here */
  pthread_mutex_destroy(&self->mu);
  tp->tp_free((PyObject *)self);
  Py_DECREF(tp);
}

/* Fails with TF's message for a closed writer. */
static PyObject *closed_error(PyObject *self) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_status_set(&st, TFC_CODE_FAILED_PRECONDITION, "TFRecordWriter is closed.");
  return raise(self, &st);
}

static PyObject *writer_write(RecordWriterObject *self, PyObject *arg) {
  Py_buffer view;
  PyObject *encoded = NULL;
  if (PyUnicode_Check(arg)) {
    encoded = PyUnicode_AsUTF8String(arg);
    if (!encoded) return NULL;
    arg = encoded;
  }
  if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0) {
    Py_XDECREF(encoded);
    return NULL;
  }
  tfc_status st;
  tfc_status_clear(&st);
  bool ok = true, closed = false;
  Py_BEGIN_ALLOW_THREADS
  pthread_mutex_lock(&self->mu);
  if (!self->w) closed = true;
  else ok = tfc_record_writer_write(self->w, view.buf, (size_t)view.len, &st);
  pthread_mutex_unlock(&self->mu);
  Py_END_ALLOW_THREADS
  PyBuffer_Release(&view);
  Py_XDECREF(encoded);
  if (closed) return closed_error((PyObject *)self);
  if (!ok) return raise((PyObject *)self, &st);
  Py_RETURN_NONE;
}

static PyObject *writer_flush(RecordWriterObject *self, PyObject *unused) {
  (void)unused;
  tfc_status st;
  tfc_status_clear(&st);
  bool ok = true, closed = false;
  Py_BEGIN_ALLOW_THREADS
  pthread_mutex_lock(&self->mu);
  if (!self->w) closed = true;
  else ok = tfc_record_writer_flush(self->w, &st);
  pthread_mutex_unlock(&self->mu);
  Py_END_ALLOW_THREADS
  if (closed) return closed_error((PyObject *)self);
  if (!ok) return raise((PyObject *)self, &st);
  Py_RETURN_NONE;
}

static PyObject *writer_close(RecordWriterObject *self, PyObject *unused) {
  (void)unused;
  tfc_status st;
  tfc_status_clear(&st);
  bool ok;
  Py_BEGIN_ALLOW_THREADS
  pthread_mutex_lock(&self->mu);
  ok = tfc_record_writer_close(self->w, &st);
  self->w = NULL;
  pthread_mutex_unlock(&self->mu);
  Py_END_ALLOW_THREADS
  if (!ok) return raise((PyObject *)self, &st);
  Py_RETURN_NONE;
}

static PyMethodDef writer_methods[] = {
    {"write", (PyCFunction)writer_write, METH_O, "write(record): appends one record (bytes)."},
    {"flush", (PyCFunction)writer_flush, METH_NOARGS, "Pushes buffered records to the file."},
    {"close", (PyCFunction)writer_close, METH_NOARGS, "Finishes and closes the file (idempotent)."},
    {NULL, NULL, 0, NULL}};

static PyType_Slot writer_slots[] = {
    {Py_tp_new, writer_new},
    {Py_tp_dealloc, writer_dealloc},
    {Py_tp_methods, writer_methods},
    {Py_tp_doc, "RecordWriter(path, compression=0, level=-1): writes a TFRecord file."},
    {0, NULL}};

static PyType_Spec writer_spec = {"tfc._tfc.RecordWriter", sizeof(RecordWriterObject), 0,
                                  Py_TPFLAGS_DEFAULT, writer_slots};

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

int tfc_py_record_add_types(PyObject *m) {
  PyType_Spec *specs[] = {&reader_spec, &writer_spec};
  for (int i = 0; i < 2; i++) {
    PyObject *t = PyType_FromModuleAndSpec(m, specs[i], NULL);
    if (!t) return -1;
    const char *name = specs[i]->name + sizeof "tfc._tfc." - 1;
    if (PyModule_AddObjectRef(m, name, t) < 0) {
      Py_DECREF(t);
      return -1;
    }
    Py_DECREF(t);
  }
  return 0;
}
