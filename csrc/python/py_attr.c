/*
 * py_attr.c — Python values <-> tfc_attr_value, driven by the attr def's type.
 *
 * Rules follow TF 1.15's op_def_library (_MakeInt, _MakeFloat, _MakeBool,
 * _MakeStr, _MakeType, _MakeShape, _MakeTensor): ints via int(), floats via
 * float(), bools must be bool, strings are bytes or str (UTF-8), types are
 * enums/DType-likes/NumPy dtypes/names (base type taken), shapes are None,
 * sequences or TensorShape-likes, tensors are array-likes (copied), and
 * list(...) attrs take a list or tuple of those.
 */
#include "python/py_internal.h"

#include <string.h>

/* Attr kind of a scalar type name ("int", "string", ...); NONE when unknown. */
static tfc_attr_kind kind_of(const char *type, size_t len) {
  static const struct {
    const char *name;
    tfc_attr_kind kind;
  } names[] = {{"string", TFC_ATTR_S}, {"int", TFC_ATTR_I},      {"float", TFC_ATTR_F},
               {"bool", TFC_ATTR_B},   {"type", TFC_ATTR_TYPE},  {"shape", TFC_ATTR_SHAPE},
               {"tensor", TFC_ATTR_TENSOR}, {"func", TFC_ATTR_FUNC}};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (strlen(names[i].name) == len && memcmp(names[i].name, type, len) == 0) return names[i].kind;
  return TFC_ATTR_NONE;
}

/* Parses a dtype from an int enum, DType-like, NumPy dtype/type or name (py_internal.h). */
tfc_dtype tfc_py_dtype_from_py(tfc_mod_state *ms, PyObject *obj) {
  long v = -1;
  if (PyLong_Check(obj) && !PyBool_Check(obj)) {
    v = PyLong_AsLong(obj);
    if (v == -1 && PyErr_Occurred()) return TFC_DTYPE_INVALID;
  } else if (PyUnicode_Check(obj) || PyBytes_Check(obj)) {
    Py_ssize_t n;
    const char *s;
    if (PyBytes_Check(obj)) {
      s = PyBytes_AS_STRING(obj);
      n = PyBytes_GET_SIZE(obj);
    } else if (!(s = PyUnicode_AsUTF8AndSize(obj, &n))) {
      return TFC_DTYPE_INVALID;
    }
    tfc_dtype d = tfc_dtype_from_name(s, (size_t)n);
    if (d != TFC_DTYPE_INVALID) return d;
  } else if (obj == (PyObject *)&PyFloat_Type) {
    return TFC_DTYPE_FLOAT;
  } else if (obj == (PyObject *)&PyBool_Type) {
    return TFC_DTYPE_BOOL;
  } else if (obj == (PyObject *)&PyBaseObject_Type || obj == (PyObject *)&PyBytes_Type ||
             obj == (PyObject *)&PyUnicode_Type) {
    return TFC_DTYPE_STRING;
  } else {
    PyObject *e = PyObject_GetAttr(obj, ms->s_as_datatype_enum);
    if (e) {
      v = PyLong_AsLong(e);
      Py_DECREF(e);
      if (v == -1 && PyErr_Occurred()) return TFC_DTYPE_INVALID;
    } else {
      PyErr_Clear();
      PyArray_Descr *descr = NULL;
      if (PyArray_DescrCheck(obj) || PyType_Check(obj)) {
        if (PyArray_DescrConverter2(obj, &descr) && descr) {
          tfc_dtype d = tfc_py_npy_to_dtype(descr);
          Py_DECREF(descr);
          if (d != TFC_DTYPE_INVALID) return d;
        }
        PyErr_Clear();
      }
    }
  }
  if ((v > 0 && v < TFC_DTYPE_NUM) ||
      (v > TFC_DTYPE_REF_OFFSET && v < TFC_DTYPE_REF_OFFSET + TFC_DTYPE_NUM))
    return (tfc_dtype)v;
  PyErr_Format(PyExc_TypeError, "Cannot convert %.200R to a dtype.", obj);
  return TFC_DTYPE_INVALID;
}

/* A heap copy of a Python bytes/str value; false + TypeError otherwise. */
static bool string_from_py(PyObject *v, const char *attr, tfc_string *out) {
  const char *s;
  Py_ssize_t n;
  if (PyBytes_Check(v)) {
    s = PyBytes_AS_STRING(v);
    n = PyBytes_GET_SIZE(v);
  } else if (PyUnicode_Check(v)) {
    if (!(s = PyUnicode_AsUTF8AndSize(v, &n))) return false;
  } else {
    PyErr_Format(PyExc_TypeError, "Expected string for argument '%s' not %.200R.", attr, v);
    return false;
  }
  out->data = tfc_malloc((size_t)n + 1);
  if (!out->data) {
    PyErr_NoMemory();
    return false;
  }
  memcpy(out->data, s, (size_t)n);
  out->data[n] = 0;
  out->len = (size_t)n;
  return true;
}

/* The name of a func attr value: str/bytes or an object with .name. */
static bool func_from_py(tfc_mod_state *ms, PyObject *v, const char *attr, tfc_string *out) {
  if (PyUnicode_Check(v) || PyBytes_Check(v)) return string_from_py(v, attr, out);
  PyObject *name = PyObject_GetAttr(v, ms->s_name);
  if (!name) {
    PyErr_Clear();
    PyErr_Format(PyExc_TypeError, "Expected a function name for argument '%s' not %.200R.", attr, v);
    return false;
  }
  bool ok = string_from_py(name, attr, out);
  Py_DECREF(name);
  return ok;
}

/* Checks a type against the attr def's allowed list (TF's TypeError message). */
static bool type_allowed(const tfc_attr_def *def, tfc_dtype t) {
  if (def->n_allowed_types == 0) return true;
  for (int i = 0; i < def->n_allowed_types; i++)
    if (def->allowed_types[i] == t) return true;
  PyObject *names = PyUnicode_FromString("");
  for (int i = 0; names && i < def->n_allowed_types; i++) {
    PyObject *n = PyUnicode_FromFormat("%s%s", i ? ", " : "", tfc_dtype_name(def->allowed_types[i]));
    if (!n) {
      Py_CLEAR(names);
      break;
    }
    PyObject *c = PyUnicode_Concat(names, n);
    Py_DECREF(n);
    Py_SETREF(names, c);
  }
  if (names) {
    PyErr_Format(PyExc_TypeError,
                 "Value passed to parameter '%s' has DataType %s not in list of allowed values: %U",
                 def->name, tfc_dtype_name(t), names);
    Py_DECREF(names);
  }
  return false;
}

/* Converts one scalar element of `kind` into the storage at dst. */
static bool scalar_from_py(tfc_mod_state *ms, const tfc_attr_def *def, tfc_attr_kind kind,
                           PyObject *v, void *dst) {
  const char *attr = def->name;
  switch (kind) {
    case TFC_ATTR_I: {
      if (PyUnicode_Check(v) || PyBytes_Check(v)) goto bad_int;
      PyObject *i = PyNumber_Long(v);
      if (!i) {
        PyErr_Clear();
        goto bad_int;
      }
      long long x = PyLong_AsLongLong(i);
      Py_DECREF(i);
      if (x == -1 && PyErr_Occurred()) return false;
      *(int64_t *)dst = x;
      return true;
    bad_int:
      PyErr_Format(PyExc_TypeError, "Expected int for argument '%s' not %.200R.", attr, v);
      return false;
    }
    case TFC_ATTR_F: {
      if (PyUnicode_Check(v) || PyBytes_Check(v)) goto bad_float;
      double d = PyFloat_AsDouble(v);
      if (d == -1.0 && PyErr_Occurred()) {
        PyErr_Clear();
        goto bad_float;
      }
      *(float *)dst = (float)d;
      return true;
    bad_float:
      PyErr_Format(PyExc_TypeError, "Expected float for argument '%s' not %.200R.", attr, v);
      return false;
    }
    case TFC_ATTR_B:
      if (PyBool_Check(v) || PyArray_IsScalar(v, Bool)) {
        *(bool *)dst = PyObject_IsTrue(v) == 1;
        return true;
      }
      PyErr_Format(PyExc_TypeError, "Expected bool for argument '%s' not %.200R.", attr, v);
      return false;
    case TFC_ATTR_S:
      return string_from_py(v, attr, (tfc_string *)dst);
    case TFC_ATTR_FUNC:
      return func_from_py(ms, v, attr, (tfc_string *)dst);
    case TFC_ATTR_TYPE: {
      tfc_dtype t = tfc_py_dtype_from_py(ms, v);
      if (t == TFC_DTYPE_INVALID) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "Expected DataType for argument '%s' not %.200R.", attr, v);
        return false;
      }
      t = tfc_dtype_base(t);
      if (!type_allowed(def, t)) return false;
      *(tfc_dtype *)dst = t;
      return true;
    }
    case TFC_ATTR_SHAPE:
      return tfc_py_shape_from_py(ms, v, (tfc_shape *)dst, attr);
    case TFC_ATTR_TENSOR: {
      tfc_tensor *t = tfc_py_value_to_tensor_copy(v, TFC_DTYPE_INVALID);
      if (!t) return false;
      *(tfc_tensor **)dst = t;
      return true;
    }
    default:
      PyErr_Format(PyExc_TypeError, "Unsupported attr type for '%s'", attr);
      return false;
  }
}

/* Element size of a list of kind. */
static size_t elem_size(tfc_attr_kind k) {
  switch (k) {
    case TFC_ATTR_S: case TFC_ATTR_FUNC: return sizeof(tfc_string);
    case TFC_ATTR_I: return sizeof(int64_t);
    case TFC_ATTR_F: return sizeof(float);
    case TFC_ATTR_B: return sizeof(bool);
    case TFC_ATTR_TYPE: return sizeof(tfc_dtype);
    case TFC_ATTR_SHAPE: return sizeof(tfc_shape);
    case TFC_ATTR_TENSOR: return sizeof(tfc_tensor *);
    default: return 0;
  }
}

/* Converts value by def->type into *out; false + exception (py_internal.h). */
bool tfc_py_attr_from_py(tfc_mod_state *ms, const tfc_attr_def *def, PyObject *value,
                         tfc_attr_value *out) {
  memset(out, 0, sizeof *out);
  out->kind = TFC_ATTR_NONE;
  const char *type = def->type;
  size_t tl = strlen(type);
  if (tl > 6 && memcmp(type, "list(", 5) == 0 && type[tl - 1] == ')') {
    tfc_attr_kind k = kind_of(type + 5, tl - 6);
    if (k == TFC_ATTR_NONE) {
      PyErr_Format(PyExc_TypeError, "Unsupported attr type '%s' for '%s'", type, def->name);
      return false;
    }
    if (!PyList_Check(value) && !PyTuple_Check(value)) {
      PyErr_Format(PyExc_TypeError, "Expected list for attr %s, got %.200R", def->name, value);
      return false;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(value);
    if (n > INT32_MAX) {
      PyErr_SetString(PyExc_ValueError, "attr list too long");
      return false;
    }
    tfc_attr_value lv = tfc_attr_list_new(k, (int)n);
    if (lv.kind == TFC_ATTR_NONE) {
      PyErr_NoMemory();
      return false;
    }
    char *base = k == TFC_ATTR_S || k == TFC_ATTR_FUNC ? (char *)lv.v.list.v.s
                 : k == TFC_ATTR_I                     ? (char *)lv.v.list.v.i
                 : k == TFC_ATTR_F                     ? (char *)lv.v.list.v.f
                 : k == TFC_ATTR_B                     ? (char *)lv.v.list.v.b
                 : k == TFC_ATTR_TYPE                  ? (char *)lv.v.list.v.type
                 : k == TFC_ATTR_SHAPE                 ? (char *)lv.v.list.v.shape
                                                       : (char *)lv.v.list.v.tensor;
    size_t es = elem_size(k);
    for (Py_ssize_t i = 0; i < n; i++) {
      if (!scalar_from_py(ms, def, k, PySequence_Fast_GET_ITEM(value, i), base + (size_t)i * es)) {
        tfc_attr_value_clear(&lv);
        return false;
      }
    }
    *out = lv;
    return true;
  }
  tfc_attr_kind k = kind_of(type, tl);
  if (k == TFC_ATTR_NONE) {
    PyErr_Format(PyExc_TypeError, "Unsupported attr type '%s' for '%s'", type, def->name);
    return false;
  }
  tfc_attr_value v;
  memset(&v, 0, sizeof v);
  void *dst = k == TFC_ATTR_S || k == TFC_ATTR_FUNC ? (void *)&v.v.s
              : k == TFC_ATTR_I                     ? (void *)&v.v.i
              : k == TFC_ATTR_F                     ? (void *)&v.v.f
              : k == TFC_ATTR_B                     ? (void *)&v.v.b
              : k == TFC_ATTR_TYPE                  ? (void *)&v.v.type
              : k == TFC_ATTR_SHAPE                 ? (void *)&v.v.shape
                                                    : (void *)&v.v.tensor;
  if (!scalar_from_py(ms, def, k, value, dst)) return false;
  v.kind = k;
  *out = v;
  return true;
}

/* --------------------------------------------------------------- to Python */

/* The Python form of one element of kind k stored at p. */
static PyObject *elem_to_py(tfc_attr_kind k, const void *p) {
  switch (k) {
    case TFC_ATTR_S: {
      const tfc_string *s = p;
      return PyBytes_FromStringAndSize(s->data ? s->data : "", (Py_ssize_t)s->len);
    }
    case TFC_ATTR_FUNC: {
      const tfc_string *s = p;
      return PyUnicode_DecodeUTF8(s->data ? s->data : "", (Py_ssize_t)s->len, "replace");
    }
    case TFC_ATTR_I: return PyLong_FromLongLong(*(const int64_t *)p);
    case TFC_ATTR_F: return PyFloat_FromDouble(*(const float *)p);
    case TFC_ATTR_B: return PyBool_FromLong(*(const bool *)p);
    case TFC_ATTR_TYPE: return PyLong_FromLong((long)*(const tfc_dtype *)p);
    case TFC_ATTR_SHAPE: return tfc_py_shape_to_py((const tfc_shape *)p);
    case TFC_ATTR_TENSOR: {
      tfc_tensor *t = *(tfc_tensor *const *)p;
      if (!t) Py_RETURN_NONE;
      return tfc_py_tensor_to_array_copy(t);
    }
    default: Py_RETURN_NONE;
  }
}

/* Python form of an attr value; new reference or NULL (py_internal.h). */
PyObject *tfc_py_attr_to_py(const tfc_attr_value *v) {
  switch (v->kind) {
    case TFC_ATTR_NONE: Py_RETURN_NONE;
    case TFC_ATTR_S: case TFC_ATTR_FUNC: return elem_to_py(v->kind, &v->v.s);
    case TFC_ATTR_I: return elem_to_py(v->kind, &v->v.i);
    case TFC_ATTR_F: return elem_to_py(v->kind, &v->v.f);
    case TFC_ATTR_B: return elem_to_py(v->kind, &v->v.b);
    case TFC_ATTR_TYPE: return elem_to_py(v->kind, &v->v.type);
    case TFC_ATTR_SHAPE: return elem_to_py(v->kind, &v->v.shape);
    case TFC_ATTR_TENSOR: return elem_to_py(v->kind, &v->v.tensor);
    case TFC_ATTR_LIST: {
      const tfc_attr_list *l = &v->v.list;
      PyObject *out = PyList_New(l->n);
      if (!out) return NULL;
      size_t es = elem_size(l->kind);
      const char *base = l->kind == TFC_ATTR_S || l->kind == TFC_ATTR_FUNC ? (const char *)l->v.s
                         : l->kind == TFC_ATTR_I                           ? (const char *)l->v.i
                         : l->kind == TFC_ATTR_F                           ? (const char *)l->v.f
                         : l->kind == TFC_ATTR_B                           ? (const char *)l->v.b
                         : l->kind == TFC_ATTR_TYPE ? (const char *)l->v.type
                         : l->kind == TFC_ATTR_SHAPE ? (const char *)l->v.shape
                                                     : (const char *)l->v.tensor;
      for (int i = 0; i < l->n; i++) {
        PyObject *e = elem_to_py(l->kind, base + (size_t)i * es);
        if (!e) {
          Py_DECREF(out);
          return NULL;
        }
        PyList_SET_ITEM(out, i, e);
      }
      return out;
    }
  }
  Py_RETURN_NONE;
}
