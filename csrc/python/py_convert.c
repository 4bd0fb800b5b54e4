/*
 * py_convert.c — Python/NumPy values <-> tfc_tensor.
 *
 * Feeds follow TF 1.15's Session.run: np.asarray(value, dtype=placeholder
 * dtype), with TF's check that a Python int is representable in that dtype.
 * Python floats/ints/bytes/str take a fast path that builds scalar tensors
 * without NumPy. Arrays are wrapped without copying when NumPy already has
 * them C-contiguous and aligned in the requested dtype; the tensor then keeps
 * the array alive and releases it (taking the GIL) when its buffer dies.
 *
 * Fetches become NumPy arrays whose base object is a _TensorRef (a small
 * object owning a tfc_tensor reference and exposing the buffer protocol), so
 * the array shares the tensor's memory. Tensors that others still hold (a
 * variable's value, a Const's attr) or that borrow Python memory are copied,
 * so a result is always private to the caller and may be written to.
 * 0-d numeric results become NumPy scalars, 0-d strings bytes, string arrays
 * object arrays of bytes, as TensorFlow returns them.
 */
#include "python/py_internal.h"

#include <string.h>

/* ---------------------------------------------------------- dtype maps */

int tfc_py_dtype_to_npy(tfc_dtype t) {
  switch (tfc_dtype_base(t)) {
    case TFC_DTYPE_FLOAT: return NPY_FLOAT32;
    case TFC_DTYPE_DOUBLE: return NPY_FLOAT64;
    case TFC_DTYPE_INT32: case TFC_DTYPE_QINT32: return NPY_INT32;
    case TFC_DTYPE_UINT8: case TFC_DTYPE_QUINT8: return NPY_UINT8;
    case TFC_DTYPE_INT16: case TFC_DTYPE_QINT16: return NPY_INT16;
    case TFC_DTYPE_INT8: case TFC_DTYPE_QINT8: return NPY_INT8;
    case TFC_DTYPE_STRING: return NPY_OBJECT;
    case TFC_DTYPE_COMPLEX64: return NPY_COMPLEX64;
    case TFC_DTYPE_INT64: return NPY_INT64;
    case TFC_DTYPE_BOOL: return NPY_BOOL;
    case TFC_DTYPE_UINT16: case TFC_DTYPE_QUINT16: return NPY_UINT16;
    case TFC_DTYPE_COMPLEX128: return NPY_COMPLEX128;
    case TFC_DTYPE_HALF: return NPY_HALF;
    case TFC_DTYPE_UINT32: return NPY_UINT32;
    case TFC_DTYPE_UINT64: return NPY_UINT64;
    default: return -1; /* bfloat16 (handled through float32), resource, variant */
  }
}

/* tfc integer dtype of a signed/unsigned integer of `size` bytes. */
static tfc_dtype int_dtype(int size, bool is_unsigned) {
  switch (size) {
    case 1: return is_unsigned ? TFC_DTYPE_UINT8 : TFC_DTYPE_INT8;
    case 2: return is_unsigned ? TFC_DTYPE_UINT16 : TFC_DTYPE_INT16;
    case 4: return is_unsigned ? TFC_DTYPE_UINT32 : TFC_DTYPE_INT32;
    case 8: return is_unsigned ? TFC_DTYPE_UINT64 : TFC_DTYPE_INT64;
    default: return TFC_DTYPE_INVALID;
  }
}

/* tfc dtype of a NumPy descr by type number; INVALID when unsupported. */
tfc_dtype tfc_py_npy_to_dtype(PyArray_Descr *d) {
  switch (d->type_num) {
    case NPY_BOOL: return TFC_DTYPE_BOOL;
    case NPY_BYTE: return TFC_DTYPE_INT8;
    case NPY_UBYTE: return TFC_DTYPE_UINT8;
    case NPY_SHORT: return int_dtype(sizeof(short), false);
    case NPY_USHORT: return int_dtype(sizeof(short), true);
    case NPY_INT: return int_dtype(sizeof(int), false);
    case NPY_UINT: return int_dtype(sizeof(int), true);
    case NPY_LONG: return int_dtype(sizeof(long), false);
    case NPY_ULONG: return int_dtype(sizeof(long), true);
    case NPY_LONGLONG: return int_dtype(sizeof(long long), false);
    case NPY_ULONGLONG: return int_dtype(sizeof(long long), true);
    case NPY_HALF: return TFC_DTYPE_HALF;
    case NPY_FLOAT: return TFC_DTYPE_FLOAT;
    case NPY_DOUBLE: return TFC_DTYPE_DOUBLE;
    case NPY_CFLOAT: return TFC_DTYPE_COMPLEX64;
    case NPY_CDOUBLE: return TFC_DTYPE_COMPLEX128;
    case NPY_STRING: case NPY_UNICODE: case NPY_OBJECT: return TFC_DTYPE_STRING;
    default: return TFC_DTYPE_INVALID;
  }
}

/* Writes the TF 1.15 text of concrete dims ("(3,)") into buf. */
void tfc_py_dims_text(int rank, const int64_t *dims, char *buf, size_t size) {
  tfc_shape s = tfc_shape_make(rank, dims);
  tfc_py_shape_text(&s, buf, size);
}

/* ----------------------------------------------------- borrowed arrays */

/* Release callback of a tensor wrapping a NumPy array: drops the array
 * reference with the GIL held (tensors may die on worker threads). During
 * interpreter shutdown the reference is leaked rather than touching Python. */
static void release_pyobject(void *owner, void *data) {
  (void)data;
  if (TFC_PY_FINALIZING()) return;
  PyGILState_STATE g = PyGILState_Ensure();
  Py_DECREF((PyObject *)owner);
  PyGILState_Release(g);
}

/* Raises the Python exception for a failed tensor status; returns NULL. */
static tfc_tensor *tensor_status_error(const tfc_status *st) {
  if (st->code == TFC_CODE_RESOURCE_EXHAUSTED)
    PyErr_SetString(PyExc_MemoryError, st->msg);
  else
    PyErr_SetString(PyExc_ValueError, st->msg);
  return NULL;
}

/* Copies the bytes of one Python bytes/str object into string element i. */
static bool set_string_elem(tfc_tensor *t, int64_t i, PyObject *o) {
  const char *s;
  Py_ssize_t n;
  if (PyBytes_Check(o)) {
    s = PyBytes_AS_STRING(o);
    n = PyBytes_GET_SIZE(o);
  } else if (PyUnicode_Check(o)) {
    s = PyUnicode_AsUTF8AndSize(o, &n);
    if (!s) return false;
  } else if (PyByteArray_Check(o)) {
    s = PyByteArray_AS_STRING(o);
    n = PyByteArray_GET_SIZE(o);
  } else {
    PyErr_Format(PyExc_TypeError, "Expected binary or unicode string, got %.200R", o);
    return false;
  }
  tfc_status st;
  tfc_status_clear(&st);
  if (!tfc_tensor_set_string(t, i, s, (size_t)n, &st)) {
    tensor_status_error(&st);
    return false;
  }
  return true;
}

/* Builds a STRING tensor from a C-contiguous object array. */
static tfc_tensor *string_tensor_from_array(PyArrayObject *arr) {
  int rank = PyArray_NDIM(arr);
  int64_t dims[TFC_MAX_RANK];
  for (int i = 0; i < rank; i++) dims[i] = PyArray_DIM(arr, i);
  tfc_status st;
  tfc_status_clear(&st);
  tfc_tensor *t = tfc_tensor_new(TFC_DTYPE_STRING, rank, dims, &st);
  if (!t) return tensor_status_error(&st);
  PyObject **items = (PyObject **)PyArray_DATA(arr);
  for (int64_t i = 0; i < t->nelems; i++) {
    if (!set_string_elem(t, i, items[i])) {
      tfc_tensor_unref(t);
      return NULL;
    }
  }
  return t;
}

/* Converts an array of NPY_FLOAT32 into a new bfloat16 tensor. */
static tfc_tensor *bfloat16_tensor_from_array(PyArrayObject *arr) {
  int rank = PyArray_NDIM(arr);
  int64_t dims[TFC_MAX_RANK];
  for (int i = 0; i < rank; i++) dims[i] = PyArray_DIM(arr, i);
  tfc_status st;
  tfc_status_clear(&st);
  tfc_tensor *t = tfc_tensor_new(TFC_DTYPE_BFLOAT16, rank, dims, &st);
  if (!t) return tensor_status_error(&st);
  const float *src = (const float *)PyArray_DATA(arr);
  uint16_t *dst = (uint16_t *)t->data;
  for (int64_t i = 0; i < t->nelems; i++) dst[i] = tfc_float_to_bfloat16(src[i]);
  return t;
}

/* The tensor for a C-contiguous aligned array already of the tfc dtype's NumPy
 * type: wrapped (zero copy) when `wrap`, else copied. */
static tfc_tensor *tensor_from_ready_array(PyArrayObject *arr, tfc_dtype dtype, bool wrap) {
  if (dtype == TFC_DTYPE_STRING) return string_tensor_from_array(arr);
  if (dtype == TFC_DTYPE_BFLOAT16) return bfloat16_tensor_from_array(arr);
  int rank = PyArray_NDIM(arr);
  int64_t dims[TFC_MAX_RANK];
  for (int i = 0; i < rank; i++) dims[i] = PyArray_DIM(arr, i);
  tfc_status st;
  tfc_status_clear(&st);
  tfc_tensor *t;
  if (!wrap || PyArray_SIZE(arr) == 0) {
    t = tfc_tensor_new(dtype, rank, dims, &st);
    if (!t) return tensor_status_error(&st);
    if (t->nelems) memcpy(t->data, PyArray_DATA(arr), tfc_tensor_nbytes(t));
    return t;
  }
  Py_INCREF(arr);
  t = tfc_tensor_wrap(dtype, rank, dims, PyArray_DATA(arr), release_pyobject, arr, &st);
  if (!t) {
    Py_DECREF(arr);
    return tensor_status_error(&st);
  }
  return t;
}

/* np.asarray(value, dtype=<npy of dtype>) as a C-contiguous aligned array; NULL + exception. */
static PyArrayObject *as_array(PyObject *value, tfc_dtype dtype) {
  int npy = dtype == TFC_DTYPE_BFLOAT16 ? NPY_FLOAT32 : tfc_py_dtype_to_npy(dtype);
  if (npy < 0) {
    PyErr_Format(PyExc_TypeError, "Cannot feed a value of type %s", tfc_dtype_name(dtype));
    return NULL;
  }
  PyArray_Descr *descr = PyArray_DescrFromType(npy);
  if (!descr) return NULL;
  PyObject *arr = PyArray_FromAny(value, descr, 0, 0,
                                  NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_ALIGNED | NPY_ARRAY_FORCECAST |
                                      NPY_ARRAY_ENSUREARRAY,
                                  NULL);
  if (!arr) return NULL;
  if (PyArray_NDIM((PyArrayObject *)arr) > TFC_MAX_RANK) {
    PyErr_Format(PyExc_ValueError, "Cannot convert a value of rank %d; tfc supports rank <= %d",
                 PyArray_NDIM((PyArrayObject *)arr), TFC_MAX_RANK);
    Py_DECREF(arr);
    return NULL;
  }
  return (PyArrayObject *)arr;
}

/* ------------------------------------------------------- scalar fast path */

/* The numpy type name TF 1.15 prints for a feed dtype ("<class 'numpy.int8'>"). */
static PyObject *npy_type_str(tfc_dtype dtype) {
  int npy = tfc_py_dtype_to_npy(dtype);
  if (npy == NPY_OBJECT) return PyUnicode_FromString("<class 'object'>");
  PyArray_Descr *d = PyArray_DescrFromType(npy < 0 ? NPY_FLOAT32 : npy);
  if (!d) return NULL;
  PyObject *s = PyObject_Str((PyObject *)d->typeobj);
  Py_DECREF(d);
  return s;
}

/* Raises TF's TypeError for a Python int that does not fit the feed dtype. */
static tfc_tensor *int_feed_error(PyObject *value, tfc_dtype dtype) {
  PyObject *ts = npy_type_str(dtype);
  if (!ts) return NULL;
  PyErr_Format(PyExc_TypeError,
               "Type of feed value %S with type %S is not compatible with Tensor type %S. Try "
               "explicitly setting the type of the feed tensor to a larger type (e.g. int64).",
               value, (PyObject *)Py_TYPE(value), ts);
  Py_DECREF(ts);
  return NULL;
}

/* Scalar storage big enough for any numeric dtype. */
typedef union scalar_buf {
  int8_t i8; int16_t i16; int32_t i32; int64_t i64;
  uint8_t u8; uint16_t u16; uint32_t u32; uint64_t u64;
  float f; double d; float c64[2]; double c128[2]; bool b;
} scalar_buf;

/* Makes the scalar tensor from *buf, or raises. */
static tfc_tensor *scalar_tensor(tfc_dtype dtype, const void *buf) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_tensor *t = tfc_tensor_scalar(dtype, buf, &st);
  if (!t) return tensor_status_error(&st);
  return t;
}

/* Python float -> scalar tensor of a float/complex/bool dtype; *handled false
 * when this dtype needs NumPy's rules. */
static tfc_tensor *float_scalar(double v, tfc_dtype dtype, bool *handled) {
  scalar_buf b;
  memset(&b, 0, sizeof b);
  *handled = true;
  switch (dtype) {
    case TFC_DTYPE_FLOAT: b.f = (float)v; break;
    case TFC_DTYPE_DOUBLE: b.d = v; break;
    case TFC_DTYPE_HALF: b.u16 = tfc_float_to_half((float)v); break;
    case TFC_DTYPE_BFLOAT16: b.u16 = tfc_float_to_bfloat16((float)v); break;
    case TFC_DTYPE_COMPLEX64: b.c64[0] = (float)v; break;
    case TFC_DTYPE_COMPLEX128: b.c128[0] = v; break;
    case TFC_DTYPE_BOOL: b.b = v != 0.0; break;
    default: *handled = false; return NULL;
  }
  return scalar_tensor(dtype, &b);
}

/* Python int (not overflowing int64) -> scalar tensor, with TF's exactness check. */
static tfc_tensor *int_scalar(PyObject *value, long long v, tfc_dtype dtype, bool *handled) {
  scalar_buf b;
  memset(&b, 0, sizeof b);
  long double lv = (long double)v;
  bool ok = true;
  *handled = true;
  switch (dtype) {
    case TFC_DTYPE_INT8: case TFC_DTYPE_QINT8:
      ok = v >= INT8_MIN && v <= INT8_MAX; b.i8 = (int8_t)v; break;
    case TFC_DTYPE_INT16: case TFC_DTYPE_QINT16:
      ok = v >= INT16_MIN && v <= INT16_MAX; b.i16 = (int16_t)v; break;
    case TFC_DTYPE_INT32: case TFC_DTYPE_QINT32:
      ok = v >= INT32_MIN && v <= INT32_MAX; b.i32 = (int32_t)v; break;
    case TFC_DTYPE_INT64: b.i64 = v; break;
    case TFC_DTYPE_UINT8: case TFC_DTYPE_QUINT8: ok = v >= 0 && v <= UINT8_MAX; b.u8 = (uint8_t)v; break;
    case TFC_DTYPE_UINT16: case TFC_DTYPE_QUINT16: ok = v >= 0 && v <= UINT16_MAX; b.u16 = (uint16_t)v; break;
    case TFC_DTYPE_UINT32: ok = v >= 0 && v <= (long long)UINT32_MAX; b.u32 = (uint32_t)v; break;
    case TFC_DTYPE_UINT64: ok = v >= 0; b.u64 = (uint64_t)v; break;
    case TFC_DTYPE_BOOL: ok = v == 0 || v == 1; b.b = v != 0; break;
    case TFC_DTYPE_FLOAT: b.f = (float)v; ok = (long double)b.f == lv; break;
    case TFC_DTYPE_DOUBLE: b.d = (double)v; ok = (long double)b.d == lv; break;
    case TFC_DTYPE_COMPLEX64: b.c64[0] = (float)v; ok = (long double)b.c64[0] == lv; break;
    case TFC_DTYPE_COMPLEX128: b.c128[0] = (double)v; ok = (long double)b.c128[0] == lv; break;
    case TFC_DTYPE_HALF:
      b.u16 = tfc_float_to_half((float)v);
      ok = (long double)tfc_half_to_float(b.u16) == lv;
      break;
    case TFC_DTYPE_BFLOAT16:
      b.u16 = tfc_float_to_bfloat16((float)v);
      ok = (long double)tfc_bfloat16_to_float(b.u16) == lv;
      break;
    case TFC_DTYPE_STRING: ok = false; break;
    default: *handled = false; return NULL;
  }
  if (!ok) return int_feed_error(value, dtype);
  return scalar_tensor(dtype, &b);
}

/* TF's check for Python ints beyond int64: the value must survive conversion. */
static bool big_int_ok(PyObject *value, tfc_dtype dtype) {
  PyObject *conv = NULL;
  if (dtype == TFC_DTYPE_UINT64) {
    unsigned long long u = PyLong_AsUnsignedLongLong(value);
    if (u == (unsigned long long)-1 && PyErr_Occurred()) {
      PyErr_Clear();
      return false;
    }
    return true;
  }
  if (tfc_dtype_is_float(dtype) || tfc_dtype_is_complex(dtype)) {
    double d = PyLong_AsDouble(value);
    if (d == -1.0 && PyErr_Occurred()) {
      PyErr_Clear();
      return false;
    }
    if (dtype == TFC_DTYPE_FLOAT || dtype == TFC_DTYPE_COMPLEX64) d = (double)(float)d;
    if (dtype == TFC_DTYPE_HALF) d = tfc_half_to_float(tfc_float_to_half((float)d));
    if (dtype == TFC_DTYPE_BFLOAT16) d = tfc_bfloat16_to_float(tfc_float_to_bfloat16((float)d));
    conv = PyFloat_FromDouble(d);
    if (!conv) {
      PyErr_Clear();
      return false;
    }
    int eq = PyObject_RichCompareBool(conv, value, Py_EQ);
    Py_DECREF(conv);
    if (eq < 0) PyErr_Clear();
    return eq == 1;
  }
  return false;
}

/* Converts a feed value to a tensor of dtype with TF 1.15 rules (py_internal.h). */
tfc_tensor *tfc_py_feed_to_tensor(tfc_mod_state *ms, PyObject *value, tfc_dtype dtype,
                                  PyObject **array_out) {
  (void)ms;
  if (array_out) *array_out = NULL;
  dtype = tfc_dtype_base(dtype);
  bool handled = false;
  tfc_tensor *t = NULL;
  if (PyFloat_Check(value)) {
    t = float_scalar(PyFloat_AS_DOUBLE(value), dtype, &handled);
    if (handled) return t;
  } else if (PyLong_Check(value)) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
    if (v == -1 && PyErr_Occurred()) return NULL;
    if (!overflow) {
      t = int_scalar(value, v, dtype, &handled);
      if (handled) return t;
    } else if (!big_int_ok(value, dtype)) {
      return int_feed_error(value, dtype);
    }
  } else if (dtype == TFC_DTYPE_STRING && (PyBytes_Check(value) || PyUnicode_Check(value))) {
    const char *s;
    Py_ssize_t n;
    if (PyBytes_Check(value)) {
      s = PyBytes_AS_STRING(value);
      n = PyBytes_GET_SIZE(value);
    } else if (!(s = PyUnicode_AsUTF8AndSize(value, &n))) {
      return NULL;
    }
    tfc_string str = {(char *)s, (size_t)n};
    return scalar_tensor(TFC_DTYPE_STRING, &str);
  }
  PyArrayObject *arr = as_array(value, dtype);
  if (!arr) return NULL;
  t = tensor_from_ready_array(arr, dtype, true);
  if (t && array_out) {
    *array_out = (PyObject *)arr;
  } else {
    Py_DECREF(arr);
  }
  return t;
}

/* Array-like -> new tensor owning a copy (dtype inferred or `want`). */
tfc_tensor *tfc_py_value_to_tensor_copy(PyObject *value, tfc_dtype want) {
  if (want != TFC_DTYPE_INVALID) {
    PyArrayObject *arr = as_array(value, tfc_dtype_base(want));
    if (!arr) return NULL;
    tfc_tensor *t = tensor_from_ready_array(arr, tfc_dtype_base(want), false);
    Py_DECREF(arr);
    return t;
  }
  PyObject *a = PyArray_FromAny(value, NULL, 0, 0, NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_ALIGNED, NULL);
  if (!a) return NULL;
  tfc_dtype dt = tfc_py_npy_to_dtype(PyArray_DESCR((PyArrayObject *)a));
  if (dt == TFC_DTYPE_INVALID) {
    PyErr_Format(PyExc_TypeError, "Cannot convert an array of dtype %R to a tfc tensor",
                 (PyObject *)PyArray_DESCR((PyArrayObject *)a));
    Py_DECREF(a);
    return NULL;
  }
  if (dt == TFC_DTYPE_STRING && PyArray_TYPE((PyArrayObject *)a) != NPY_OBJECT) {
    Py_DECREF(a);
    return tfc_py_value_to_tensor_copy(value, TFC_DTYPE_STRING);
  }
  if (PyArray_NDIM((PyArrayObject *)a) > TFC_MAX_RANK) {
    Py_DECREF(a);
    PyErr_SetString(PyExc_ValueError, "value has too many dimensions");
    return NULL;
  }
  tfc_tensor *t = tensor_from_ready_array((PyArrayObject *)a, dt, false);
  Py_DECREF(a);
  return t;
}

/* ------------------------------------------------------------ _TensorRef */

typedef struct TensorRefObject {
  PyObject_HEAD
  tfc_tensor *t;
  Py_ssize_t shape[TFC_MAX_RANK];
} TensorRefObject;

/* The struct-module format character of a numeric dtype, or NULL. */
static const char *buffer_format(tfc_dtype t) {
  switch (t) {
    case TFC_DTYPE_FLOAT: return "f";
    case TFC_DTYPE_DOUBLE: return "d";
    case TFC_DTYPE_INT32: case TFC_DTYPE_QINT32: return "i";
    case TFC_DTYPE_UINT8: case TFC_DTYPE_QUINT8: return "B";
    case TFC_DTYPE_INT16: case TFC_DTYPE_QINT16: return "h";
    case TFC_DTYPE_INT8: case TFC_DTYPE_QINT8: return "b";
    case TFC_DTYPE_COMPLEX64: return "Zf";
    case TFC_DTYPE_INT64: return "q";
    case TFC_DTYPE_BOOL: return "?";
    case TFC_DTYPE_UINT16: case TFC_DTYPE_QUINT16: case TFC_DTYPE_BFLOAT16: return "H";
    case TFC_DTYPE_COMPLEX128: return "Zd";
    case TFC_DTYPE_HALF: return "e";
    case TFC_DTYPE_UINT32: return "I";
    case TFC_DTYPE_UINT64: return "Q";
    default: return NULL;
  }
}

/* Buffer protocol: exposes the tensor's bytes (C-contiguous, writable). */
static int tensor_ref_getbuffer(TensorRefObject *self, Py_buffer *view, int flags) {
  tfc_tensor *t = self->t;
  const char *fmt = t ? buffer_format(t->dtype) : NULL;
  if (!fmt) {
    PyErr_SetString(PyExc_BufferError, "tensor has no buffer representation");
    view->obj = NULL;
    return -1;
  }
  static char empty[1];
  view->buf = t->data ? t->data : empty;
  view->obj = Py_NewRef(self);
  view->itemsize = (Py_ssize_t)tfc_dtype_size(t->dtype);
  view->len = (Py_ssize_t)t->nelems * view->itemsize;
  view->readonly = 0;
  view->format = (flags & PyBUF_FORMAT) ? (char *)fmt : NULL;
  view->ndim = t->rank;
  view->shape = (flags & PyBUF_ND) ? self->shape : NULL;
  view->strides = NULL;
  view->suboffsets = NULL;
  view->internal = NULL;
  return 0;
}

/* Deallocation: drops the tensor reference. */
static void tensor_ref_dealloc(TensorRefObject *self) {
  PyTypeObject *tp = Py_TYPE(self);
  tfc_tensor_unref(self->t);
  self->t = NULL;
  tp->tp_free((PyObject *)self);
  Py_DECREF(tp);
}

static PyType_Slot tensor_ref_slots[] = {
    {Py_tp_dealloc, tensor_ref_dealloc},
    {Py_bf_getbuffer, tensor_ref_getbuffer},
    {Py_tp_doc, "Owner of a tfc tensor backing a NumPy array (buffer protocol)."},
    {0, NULL}};

PyType_Spec tfc_py_tensor_ref_spec = {
    .name = "tfc._tfc._TensorRef",
    .basicsize = sizeof(TensorRefObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_DISALLOW_INSTANTIATION,
    .slots = tensor_ref_slots,
};

/* ------------------------------------------------------------- fetches */

/* An object array of bytes for a STRING tensor. */
static PyObject *string_array(tfc_tensor *t) {
  npy_intp dims[TFC_MAX_RANK];
  for (int i = 0; i < t->rank; i++) dims[i] = (npy_intp)t->dims[i];
  PyObject *arr = PyArray_SimpleNew(t->rank, dims, NPY_OBJECT);
  if (!arr) return NULL;
  PyObject **items = (PyObject **)PyArray_DATA((PyArrayObject *)arr);
  const tfc_string *s = (const tfc_string *)t->data;
  for (int64_t i = 0; i < t->nelems; i++) {
    PyObject *b = PyBytes_FromStringAndSize(s[i].data ? s[i].data : "", (Py_ssize_t)s[i].len);
    if (!b) {
      Py_DECREF(arr);
      return NULL;
    }
    Py_XSETREF(items[i], b);
  }
  return arr;
}

/* A new float32 array converted from a bfloat16 tensor. */
static PyObject *bfloat16_array(tfc_tensor *t) {
  npy_intp dims[TFC_MAX_RANK];
  for (int i = 0; i < t->rank; i++) dims[i] = (npy_intp)t->dims[i];
  PyObject *arr = PyArray_SimpleNew(t->rank, dims, NPY_FLOAT32);
  if (!arr) return NULL;
  float *dst = (float *)PyArray_DATA((PyArrayObject *)arr);
  const uint16_t *src = (const uint16_t *)t->data;
  for (int64_t i = 0; i < t->nelems; i++) dst[i] = tfc_bfloat16_to_float(src[i]);
  return arr;
}

/* A NumPy array over t's memory (alias) or a private copy. */
static PyObject *numeric_array(tfc_mod_state *ms, tfc_tensor *t, int npy, bool alias) {
  npy_intp dims[TFC_MAX_RANK];
  for (int i = 0; i < t->rank; i++) dims[i] = (npy_intp)t->dims[i];
  if (!alias || t->nelems == 0 || !t->data) {
    PyObject *arr = PyArray_SimpleNew(t->rank, dims, npy);
    if (!arr) return NULL;
    if (t->nelems && t->data)
      memcpy(PyArray_DATA((PyArrayObject *)arr), t->data, tfc_tensor_nbytes(t));
    return arr;
  }
  TensorRefObject *ref = PyObject_New(TensorRefObject, ms->tensor_ref_type);
  if (!ref) return NULL;
  ref->t = tfc_tensor_ref(t);
  for (int i = 0; i < t->rank; i++) ref->shape[i] = (Py_ssize_t)t->dims[i];
  PyArray_Descr *descr = PyArray_DescrFromType(npy);
  if (!descr) {
    Py_DECREF(ref);
    return NULL;
  }
  PyObject *arr = PyArray_NewFromDescr(&PyArray_Type, descr, t->rank, dims, NULL, t->data,
                                       NPY_ARRAY_CARRAY, NULL);
  if (!arr) {
    Py_DECREF(ref);
    return NULL;
  }
  if (PyArray_SetBaseObject((PyArrayObject *)arr, (PyObject *)ref) < 0) {
    Py_DECREF(arr);
    return NULL;
  }
  return arr;
}

/* Python value of a fetched tensor: alias, copy, scalar or bytes (py_internal.h). */
PyObject *tfc_py_tensor_to_py(tfc_mod_state *ms, tfc_tensor *t, bool force_array) {
  if (tfc_tensor_is_local_handle(t)) {
    PyErr_Format(PyExc_TypeError,
                 "Cannot fetch the handle of a process-local %s resource (a queue, reader, dataset, "
                 "iterator, stack or tensor array)", tfc_dtype_name(t->dtype));
    return NULL;
  }
  if (tfc_dtype_is_stringlike(t->dtype)) {  /* a resource handle: its serialized proto */
    if (t->rank == 0 && !force_array) {
      const tfc_string *s = (const tfc_string *)t->data;
      return PyBytes_FromStringAndSize(s->data ? s->data : "", (Py_ssize_t)s->len);
    }
    return string_array(t);
  }
  if (t->dtype == TFC_DTYPE_BFLOAT16) {
    PyObject *arr = bfloat16_array(t);
    if (!arr || t->rank != 0 || force_array) return arr;
    PyObject *s = PyArray_Return((PyArrayObject *)arr);
    return s;
  }
  int npy = tfc_py_dtype_to_npy(t->dtype);
  if (npy < 0) {
    PyErr_Format(PyExc_TypeError, "Cannot fetch a tensor of type %s as a NumPy value",
                 tfc_dtype_name(t->dtype));
    return NULL;
  }
  if (t->rank == 0 && !force_array) {
    PyArray_Descr *descr = PyArray_DescrFromType(npy);
    if (!descr) return NULL;
    PyObject *s = PyArray_Scalar(t->data, descr, NULL);
    Py_DECREF(descr);
    return s;
  }
  bool alias = t->buf && t->buf->release == NULL && tfc_tensor_is_exclusive(t);
  return numeric_array(ms, t, npy, alias);
}

/* A private NumPy array copy of t; new reference or NULL. */
PyObject *tfc_py_tensor_to_array_copy(tfc_tensor *t) {
  if (tfc_tensor_is_local_handle(t)) {
    PyErr_Format(PyExc_TypeError, "Cannot convert the handle of a process-local %s resource to NumPy",
                 tfc_dtype_name(t->dtype));
    return NULL;
  }
  if (tfc_dtype_is_stringlike(t->dtype)) return string_array(t);
  if (t->dtype == TFC_DTYPE_BFLOAT16) return bfloat16_array(t);
  int npy = tfc_py_dtype_to_npy(t->dtype);
  if (npy < 0) {
    PyErr_Format(PyExc_TypeError, "Cannot convert a tensor of type %s to NumPy",
                 tfc_dtype_name(t->dtype));
    return NULL;
  }
  return numeric_array(NULL, t, npy, false);
}
