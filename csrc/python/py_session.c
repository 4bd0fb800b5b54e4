/*
 * py_session.c — the Session and Callable types of tfc._tfc: the run() hot path.
 *
 * run(fetches, feed_dict) works in four steps, mirroring TF 1.15's
 * Session._run:
 *   1. feeds: keys resolve to endpoints (Tensor objects directly, names via
 *      the graph, other keys through the registered feed handler or the
 *      key's _as_graph_element()); values convert to the fed tensor's dtype
 *      (py_convert.c: Python scalars without NumPy) and are shape-checked;
 *   2. fetches: a Tensor/Operation/name or a flat list/tuple of them is
 *      resolved in C; other structures go through the registered fetch
 *      handler (flat list + rebuild). Duplicate fetches are run once;
 *      operations become targets and fetch as None; a fetch that is also
 *      fed returns the fed value, as in TF;
 *   3. plan: looked up in a small per-session cache keyed by the endpoint
 *      ids (misses ask tfc_session_plan with the GIL released);
 *   4. run with the GIL released, then convert results (py_convert.c).
 * Callable (make_callable) stores steps 2–3 and repeats only 1 and 4.
 */
#include "python/py_internal.h"

#include <limits.h>
#include <string.h>

#include "distributed/grpc_session.h"

/* ------------------------------------------------------------ scratch */

#define NINL 16

/* A growable array with inline storage (elements of `esize` bytes). */
typedef struct vec {
  int n, cap;
  size_t esize;
  void *p;
  unsigned char inl[NINL * 16];
} vec;

/* Initialises v for elements of esize bytes (esize <= 16). */
static void vec_init(vec *v, size_t esize) {
  v->n = 0;
  v->cap = NINL;
  v->esize = esize;
  v->p = v->inl;
}

/* Frees heap storage of v. */
static void vec_free(vec *v) {
  if (v->p != v->inl) tfc_free(v->p);
  v->p = v->inl;
  v->n = 0;
  v->cap = NINL;
}

/* Appends one element; -1 + MemoryError on OOM. */
static int vec_push(vec *v, const void *elem) {
  if (v->n == v->cap) {
    int cap = v->cap * 2;
    void *p;
    if (v->p == v->inl) {
      p = tfc_malloc((size_t)cap * v->esize);
      if (p) memcpy(p, v->inl, (size_t)v->n * v->esize);
    } else {
      p = tfc_realloc(v->p, (size_t)cap * v->esize);
    }
    if (!p) {
      PyErr_NoMemory();
      return -1;
    }
    v->p = p;
    v->cap = cap;
  }
  memcpy((char *)v->p + (size_t)v->n * v->esize, elem, v->esize);
  v->n++;
  return 0;
}

#define VEC_AT(v, T, i) (((T *)(v)->p)[i])

/* ----------------------------------------------------------- objects */

typedef struct plan_entry {
  uint64_t hash;
  int klen;
  int *key;
  tfc_plan *plan;
} plan_entry;

typedef struct SessionObject {
  PyObject_HEAD
  PyObject *module;
  tfc_mod_state *ms;
  GraphObject *graph;
  tfc_session *s;
  tfc_grpc_session *remote;  /* grpc:// session: runs go to the master (s is NULL) */
  bool remote_closed;        /* a grpc:// session that was closed */
  bool closed;
  bool cost_model;           /* GraphOptions.build_cost_model > 0: runs with a RunMetadata go traced */
  plan_entry **cache;     /* open addressing, cap power of two */
  size_t cache_cap;
  size_t cache_count;
  PyObject *weakreflist;
} SessionObject;

enum { FORM_SINGLE, FORM_LIST, FORM_TUPLE, FORM_REBUILD, FORM_STRUCT };

/* FORM_STRUCT: nested dicts, lists and tuples of plain fetches, rebuilt in C
 * from `shape`, a preorder list of codes: S_LEAF (the next item), or S_LIST /
 * S_TUPLE / S_DICT followed by the element count (a dict's keys are the next
 * entries of `keys`, its values follow in order). */
enum { S_LEAF, S_LIST, S_TUPLE, S_DICT };
enum { STRUCT_MAX_DEPTH = 32 };

/* A resolved fetch structure. items[i] >= 0: index into fetches; -1: an
 * operation (None); <= -2: feed number (-2 - item). */
typedef struct fetch_spec {
  int form;
  vec items;     /* int */
  vec fetches;   /* tfc_endpoint, unique */
  vec targets;   /* int node id, unique */
  PyObject *rebuild;  /* strong, FORM_REBUILD only */
  vec shape;     /* int codes, FORM_STRUCT only */
  PyObject *keys;     /* list of dict keys (strong), FORM_STRUCT only */
} fetch_spec;

/* Resolved feeds: endpoints, key/value objects (strong), converted tensors. */
typedef struct feed_spec {
  vec eps;       /* tfc_endpoint */
  vec keys;      /* PyObject* (strong) */
  vec vals;      /* PyObject* (strong) */
  vec tensors;   /* tfc_tensor* (owned) */
  vec arrays;    /* PyObject* converted NumPy array or NULL (strong) */
} feed_spec;

/* Empty fetch spec (single form, no items). */
static void fetch_spec_init(fetch_spec *f) {
  f->form = FORM_SINGLE;
  vec_init(&f->items, sizeof(int));
  vec_init(&f->fetches, sizeof(tfc_endpoint));
  vec_init(&f->targets, sizeof(int));
  f->rebuild = NULL;
  vec_init(&f->shape, sizeof(int));
  f->keys = NULL;
}

/* Frees a fetch spec's storage and rebuild reference. */
static void fetch_spec_free(fetch_spec *f) {
  vec_free(&f->items);
  vec_free(&f->fetches);
  vec_free(&f->targets);
  Py_CLEAR(f->rebuild);
  vec_free(&f->shape);
  Py_CLEAR(f->keys);
}

/* Empty feed spec. */
static void feed_spec_init(feed_spec *f) {
  vec_init(&f->eps, sizeof(tfc_endpoint));
  vec_init(&f->keys, sizeof(PyObject *));
  vec_init(&f->vals, sizeof(PyObject *));
  vec_init(&f->tensors, sizeof(tfc_tensor *));
  vec_init(&f->arrays, sizeof(PyObject *));
}

/* Drops converted tensors and arrays (keeps endpoints and keys). */
static void feed_spec_clear_values(feed_spec *f) {
  for (int i = 0; i < f->tensors.n; i++) tfc_tensor_unref(VEC_AT(&f->tensors, tfc_tensor *, i));
  for (int i = 0; i < f->arrays.n; i++) Py_XDECREF(VEC_AT(&f->arrays, PyObject *, i));
  for (int i = 0; i < f->vals.n; i++) Py_XDECREF(VEC_AT(&f->vals, PyObject *, i));
  f->tensors.n = f->arrays.n = f->vals.n = 0;
}

/* Drops every reference and tensor a feed spec holds and frees it. */
static void feed_spec_free(feed_spec *f) {
  feed_spec_clear_values(f);
  for (int i = 0; i < f->keys.n; i++) Py_XDECREF(VEC_AT(&f->keys, PyObject *, i));
  vec_free(&f->eps);
  vec_free(&f->keys);
  vec_free(&f->vals);
  vec_free(&f->tensors);
  vec_free(&f->arrays);
}

/* --------------------------------------------------------- log sink */

/* Writes text to Python's sys.<stream> ("stdout" or "stderr") and flushes it,
 * or to the C stream `fallback` when Python cannot take it (finalizing, no
 * such stream, write failed). Called from worker threads without the GIL, so
 * it takes it; a pending Python exception is kept. */
static void py_write_stream(const char *stream, FILE *fallback, const char *text, size_t len) {
  if (TFC_PY_FINALIZING()) {
    fwrite(text, 1, len, fallback);
    return;
  }
  PyGILState_STATE g = PyGILState_Ensure();
  PyObject *exc_type, *exc_val, *exc_tb;
  PyErr_Fetch(&exc_type, &exc_val, &exc_tb);
  PyObject *err = PySys_GetObject(stream);
  bool written = false;
  if (err && err != Py_None) {
    PyObject *s = PyUnicode_DecodeUTF8(text, (Py_ssize_t)len, "replace");
    if (s) {
      PyObject *r = PyObject_CallMethod(err, "write", "O", s);
      Py_DECREF(s);
      if (r) {
        written = true;
        Py_DECREF(r);
        r = PyObject_CallMethod(err, "flush", NULL);
        Py_XDECREF(r);
      }
    }
    PyErr_Clear();
  }
  if (!written) {
    fwrite(text, 1, len, fallback);
    fflush(fallback);
  }
  PyErr_Restore(exc_type, exc_val, exc_tb);
  PyGILState_Release(g);
}

/* Session log sink: writes Print output and placement logs to sys.stderr. */
static void py_log_sink(void *ctx, const char *text, size_t len) {
  (void)ctx;
  py_write_stream("stderr", stderr, text, len);
}

/* Session stdout sink: writes PrintV2 output for "stdout" to sys.stdout. */
static void py_out_sink(void *ctx, const char *text, size_t len) {
  (void)ctx;
  py_write_stream("stdout", stdout, text, len);
}

/* ------------------------------------------------------- exceptions */

/* Replaces the current exception by `type` with a message formatted from fmt
 * with (arg, text) or (text) where text is str(exc) — which keeps a KeyError's
 * quotes, as TF's "Fetch argument ... (%s)" shows — or, with use_args0, the
 * exception's first argument (TF's "Cannot interpret feed_dict key ...: " + e.args[0]). */
static void rewrap_exception(PyObject *type, const char *fmt, PyObject *arg, bool use_args0) {
  PyObject *et, *ev, *tb;
  PyErr_Fetch(&et, &ev, &tb);
  PyErr_NormalizeException(&et, &ev, &tb);
  PyObject *s = NULL;
  if (ev && use_args0) {
    PyObject *args = PyObject_GetAttrString(ev, "args");
    if (args && PyTuple_Check(args) && PyTuple_GET_SIZE(args) > 0)
      s = PyObject_Str(PyTuple_GET_ITEM(args, 0));
    Py_XDECREF(args);
    PyErr_Clear();
  }
  if (!s && ev) s = PyObject_Str(ev);
  if (!s) {
    PyErr_Clear();
    s = PyUnicode_FromString("");
  }
  if (s) {
    if (arg)
      PyErr_Format(type, fmt, arg, s);
    else
      PyErr_Format(type, fmt, s);
    Py_DECREF(s);
  }
  Py_XDECREF(et);
  Py_XDECREF(ev);
  Py_XDECREF(tb);
}

/* RuntimeError for a closed session. */
static PyObject *closed_error(void) {
  PyErr_SetString(PyExc_RuntimeError, "Attempted to use a closed Session.");
  return NULL;
}

/* --------------------------------------------------------------- feeds */

/* The endpoint a feed key names, or -1 + TF's TypeError. */
static int feed_key_endpoint(SessionObject *self, PyObject *key, tfc_endpoint *ep) {
  tfc_mod_state *ms = self->ms;
  if (PyObject_TypeCheck(key, ms->tensor_type)) {
    TensorObject *t = (TensorObject *)key;
    if (t->op->graph != self->graph) {
      PyErr_Format(PyExc_TypeError,
                   "Cannot interpret feed_dict key as Tensor: Tensor %S is not an element of this "
                   "graph.",
                   key);
      return -1;
    }
    ep->node = t->op->id;
    ep->index = t->index;
    return 0;
  }
  if (PyUnicode_Check(key)) {
    if (tfc_py_graph_element(self->graph, key, true, false, ep) < 0) {
      rewrap_exception(PyExc_TypeError, "Cannot interpret feed_dict key as Tensor: %U", NULL, true);
      return -1;
    }
    return 0;
  }
  PyObject *conv = NULL;
  if (tfc_py_optional_attr(key, ms->s_as_graph_element, &conv) < 0) return -1;
  if (conv) {
    PyObject *el = PyObject_CallNoArgs(conv);
    Py_DECREF(conv);
    if (!el) return -1;
    int rc = -1;
    if (PyObject_TypeCheck(el, ms->tensor_type) || PyUnicode_Check(el))
      rc = feed_key_endpoint(self, el, ep);
    else
      PyErr_Format(PyExc_TypeError, "Cannot interpret feed_dict key as Tensor: Can not convert a %s into a Tensor.",
                   Py_TYPE(key)->tp_name);
    Py_DECREF(el);
    return rc;
  }
  PyErr_Format(PyExc_TypeError,
               "Cannot interpret feed_dict key as Tensor: Can not convert a %s into a Tensor.",
               Py_TYPE(key)->tp_name);
  return -1;
}

/* True when a key needs the Python feed handler (not a Tensor, name or graph-element-like). */
static bool key_needs_handler(tfc_mod_state *ms, PyObject *key) {
  return !PyObject_TypeCheck(key, ms->tensor_type) && !PyUnicode_Check(key);
}

/* Adds (key, value) to fs, replacing an earlier feed of the same endpoint. */
static int add_feed(SessionObject *self, feed_spec *fs, PyObject *key, PyObject *value) {
  tfc_endpoint ep;
  if (feed_key_endpoint(self, key, &ep) < 0) return -1;
  for (int i = 0; i < fs->eps.n; i++) {
    tfc_endpoint *e = &VEC_AT(&fs->eps, tfc_endpoint, i);
    if (e->node == ep.node && e->index == ep.index) {
      Py_INCREF(value);
      Py_SETREF(VEC_AT(&fs->vals, PyObject *, i), value);
      return 0;
    }
  }
  PyObject *null = NULL;
  if (vec_push(&fs->eps, &ep) < 0 || vec_push(&fs->keys, &null) < 0 ||
      vec_push(&fs->vals, &null) < 0)
    return -1;
  VEC_AT(&fs->keys, PyObject *, fs->keys.n - 1) = Py_NewRef(key);
  VEC_AT(&fs->vals, PyObject *, fs->vals.n - 1) = Py_NewRef(value);
  return 0;
}

/* Resolves the feed_dict into fs (endpoints + values, not yet converted). */
static int collect_feeds(SessionObject *self, PyObject *feed_dict, feed_spec *fs) {
  if (feed_dict == NULL || feed_dict == Py_None) return 0;
  if (!PyDict_Check(feed_dict)) {
    PyErr_SetString(PyExc_TypeError, "feed_dict must be a dictionary");
    return -1;
  }
  tfc_mod_state *ms = self->ms;
  Py_ssize_t pos = 0;
  PyObject *k, *v;
  if (ms->feed_handler) {
    bool need = false;
    while (PyDict_Next(feed_dict, &pos, &k, &v))
      if (key_needs_handler(ms, k)) {
        need = true;
        break;
      }
    if (need) {
      PyObject *pairs = PyObject_CallOneArg(ms->feed_handler, feed_dict);
      if (!pairs) return -1;
      PyObject *seq = PySequence_Fast(pairs, "feed handler must return a list of (key, value)");
      Py_DECREF(pairs);
      if (!seq) return -1;
      int rc = 0;
      for (Py_ssize_t i = 0; rc == 0 && i < PySequence_Fast_GET_SIZE(seq); i++) {
        PyObject *pair = PySequence_Fast_GET_ITEM(seq, i);
        if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
          PyErr_SetString(PyExc_TypeError, "feed handler must return (key, value) pairs");
          rc = -1;
          break;
        }
        rc = add_feed(self, fs, PyTuple_GET_ITEM(pair, 0), PyTuple_GET_ITEM(pair, 1));
      }
      Py_DECREF(seq);
      return rc;
    }
    pos = 0;
  }
  while (PyDict_Next(feed_dict, &pos, &k, &v)) {
    /* hold k and v: resolving a key may run Python code that changes the dict */
    Py_INCREF(k);
    Py_INCREF(v);
    int rc = add_feed(self, fs, k, v);
    Py_DECREF(k);
    Py_DECREF(v);
    if (rc < 0) return -1;
  }
  return 0;
}

/* True when shape `s` (static) accepts a value of rank/dims. */
static bool shape_accepts(const tfc_shape *s, int rank, const int64_t *dims) {
  if (s->rank < 0) return true;
  if (s->rank != rank) return false;
  for (int i = 0; i < rank; i++)
    if (s->dims[i] >= 0 && s->dims[i] != dims[i]) return false;
  return true;
}

/* Converts fs->vals[i] into tensors of the fed endpoints' dtypes with TF's checks. */
static int convert_feeds(SessionObject *self, feed_spec *fs) {
  tfc_mod_state *ms = self->ms;
  for (int i = 0; i < fs->eps.n; i++) {
    tfc_endpoint ep = VEC_AT(&fs->eps, tfc_endpoint, i);
    PyObject *val = VEC_AT(&fs->vals, PyObject *, i);
    tfc_node *n = tfc_py_node(self->graph, ep.node);
    if (PyObject_TypeCheck(val, ms->tensor_type)) {
      PyErr_Format(PyExc_TypeError,
                   "The value of a feed cannot be a tf.Tensor object. Acceptable feed values "
                   "include Python scalars, strings, lists, numpy ndarrays, or TensorHandles. For "
                   "reference, the tensor object was %S which was passed to the feed with key %S.",
                   val, VEC_AT(&fs->keys, PyObject *, i));
      return -1;
    }
    PyObject *arr = NULL;
    tfc_tensor *t = tfc_py_feed_to_tensor(ms, val, n->out_types[ep.index], &arr);
    if (!t) return -1;
    if (vec_push(&fs->tensors, &t) < 0) {
      tfc_tensor_unref(t);
      Py_XDECREF(arr);
      return -1;
    }
    if (vec_push(&fs->arrays, &arr) < 0) {
      Py_XDECREF(arr);
      return -1;
    }
    const tfc_shape *ps = &n->out_shapes[ep.index];
    if (!shape_accepts(ps, t->rank, t->dims)) {
      char a[512], b[512];
      tfc_py_dims_text(t->rank, t->dims, a, sizeof a);
      tfc_py_shape_text(ps, b, sizeof b);
      PyErr_Format(PyExc_ValueError,
                   "Cannot feed value of shape %s for Tensor '%s:%d', which has shape '%s'", a,
                   n->name, ep.index, b);
      return -1;
    }
  }
  return 0;
}

/* ------------------------------------------------------------- fetches */

/* Adds a tensor fetch (deduplicated; fed tensors map to their feed). */
static int add_tensor_fetch(fetch_spec *fx, const feed_spec *fs, tfc_endpoint ep) {
  int item = -1;
  for (int i = 0; fs && i < fs->eps.n; i++) {
    tfc_endpoint e = VEC_AT(&fs->eps, tfc_endpoint, i);
    if (e.node == ep.node && e.index == ep.index) {
      item = -2 - i;
      return vec_push(&fx->items, &item);
    }
  }
  for (int i = 0; i < fx->fetches.n; i++) {
    tfc_endpoint e = VEC_AT(&fx->fetches, tfc_endpoint, i);
    if (e.node == ep.node && e.index == ep.index) return vec_push(&fx->items, &i);
  }
  item = fx->fetches.n;
  if (vec_push(&fx->fetches, &ep) < 0) return -1;
  return vec_push(&fx->items, &item);
}

/* Adds an operation fetch (a target; fetches as None). */
static int add_op_fetch(fetch_spec *fx, int node) {
  int item = -1;
  bool seen = false;
  for (int i = 0; i < fx->targets.n && !seen; i++) seen = VEC_AT(&fx->targets, int, i) == node;
  if (!seen && vec_push(&fx->targets, &node) < 0) return -1;
  return vec_push(&fx->items, &item);
}

/* Resolves one fetch element (Tensor, Operation, name, or object with
 * _as_graph_element) and appends it; -1 + TF's TypeError/ValueError. */
static int add_fetch(SessionObject *self, fetch_spec *fx, const feed_spec *fs, PyObject *f,
                     int depth) {
  tfc_mod_state *ms = self->ms;
  if (PyObject_TypeCheck(f, ms->tensor_type)) {
    TensorObject *t = (TensorObject *)f;
    if (t->op->graph != self->graph) {
      PyErr_Format(PyExc_ValueError,
                   "Fetch argument %R cannot be interpreted as a Tensor. (Tensor %S is not an "
                   "element of this graph.)",
                   f, f);
      return -1;
    }
    tfc_endpoint ep = {t->op->id, t->index};
    return add_tensor_fetch(fx, fs, ep);
  }
  if (PyObject_TypeCheck(f, ms->operation_type)) {
    OperationObject *o = (OperationObject *)f;
    if (o->graph != self->graph) {
      PyErr_Format(PyExc_ValueError,
                   "Fetch argument %R cannot be interpreted as a Tensor. (Operation %S is not an "
                   "element of this graph.)",
                   f, f);
      return -1;
    }
    return add_op_fetch(fx, o->id);
  }
  if (PyUnicode_Check(f)) {
    tfc_endpoint ep;
    int kind = tfc_py_graph_element(self->graph, f, true, true, &ep);
    if (kind < 0) {
      if (PyErr_ExceptionMatches(PyExc_TypeError))
        rewrap_exception(PyExc_TypeError,
                         "Fetch argument %R has invalid type <class 'str'>, must be a string or "
                         "Tensor. (%U)",
                         f, false);
      else
        rewrap_exception(PyExc_ValueError, "Fetch argument %R cannot be interpreted as a Tensor. (%U)",
                         f, false);
      return -1;
    }
    return kind == 2 ? add_op_fetch(fx, ep.node) : add_tensor_fetch(fx, fs, ep);
  }
  if (f == Py_None) {
    PyErr_SetString(PyExc_TypeError, "Fetch argument None has invalid type <class 'NoneType'>");
    return -1;
  }
  if (depth == 0) {
    PyObject *conv = NULL;
    if (tfc_py_optional_attr(f, ms->s_as_graph_element, &conv) < 0) return -1;
    if (conv) {
      PyObject *el = PyObject_CallNoArgs(conv);
      Py_DECREF(conv);
      if (!el) return -1;
      int rc = el == Py_None ? -2 : add_fetch(self, fx, fs, el, depth + 1);
      Py_DECREF(el);
      if (rc != -2) return rc;
    }
  }
  PyErr_Format(PyExc_TypeError,
               "Fetch argument %R has invalid type %R, must be a string or Tensor. (Can not "
               "convert a %s into a Tensor or Operation.)",
               f, (PyObject *)Py_TYPE(f), Py_TYPE(f)->tp_name);
  return -1;
}

/* True for the elements C resolves itself. */
static bool simple_fetch(tfc_mod_state *ms, PyObject *f) {
  return PyObject_TypeCheck(f, ms->tensor_type) || PyObject_TypeCheck(f, ms->operation_type) ||
         PyUnicode_Check(f);
}

/* Records one level of a nested fetch structure (exact dicts, lists and
 * tuples whose leaves are Tensors, Operations or names) into fx->shape,
 * fx->keys and the items. 0 when done, -1 with an exception, 1 when some
 * element needs the Python fetch handler (nothing raised). Runs no Python
 * code, so the containers cannot change while they are walked. */
static int collect_struct(SessionObject *self, fetch_spec *fx, const feed_spec *fs, PyObject *f,
                          int depth) {
  if (simple_fetch(self->ms, f)) {
    int code = S_LEAF;
    if (vec_push(&fx->shape, &code) < 0) return -1;
    return add_fetch(self, fx, fs, f, 1);
  }
  bool is_dict = PyDict_CheckExact(f), is_list = PyList_CheckExact(f), is_tuple = PyTuple_CheckExact(f);
  if ((!is_dict && !is_list && !is_tuple) || depth >= STRUCT_MAX_DEPTH) return 1;
  Py_ssize_t n = is_dict ? PyDict_GET_SIZE(f) : PySequence_Fast_GET_SIZE(f);
  if (n > INT_MAX / 2) return 1;
  int head[2] = {is_dict ? S_DICT : is_list ? S_LIST : S_TUPLE, (int)n};
  if (vec_push(&fx->shape, &head[0]) < 0 || vec_push(&fx->shape, &head[1]) < 0) return -1;
  if (!is_dict) {
    for (Py_ssize_t i = 0; i < n; i++) {
      int rc = collect_struct(self, fx, fs, PySequence_Fast_GET_ITEM(f, i), depth + 1);
      if (rc != 0) return rc;
    }
    return 0;
  }
  if (!fx->keys && !(fx->keys = PyList_New(0))) return -1;
  Py_ssize_t pos = 0;
  PyObject *k, *v;
  while (PyDict_Next(f, &pos, &k, &v)) {
    if (PyList_Append(fx->keys, k) < 0) return -1;
    int rc = collect_struct(self, fx, fs, v, depth + 1);
    if (rc != 0) return rc;
  }
  return 0;
}

/* Resolves the fetches argument into fx (form, items, unique fetches, targets). */
static int collect_fetches(SessionObject *self, PyObject *fetches, fetch_spec *fx,
                           const feed_spec *fs) {
  tfc_mod_state *ms = self->ms;
  if (simple_fetch(ms, fetches)) {
    fx->form = FORM_SINGLE;
    return add_fetch(self, fx, fs, fetches, 0);
  }
  bool is_list = PyList_CheckExact(fetches), is_tuple = PyTuple_CheckExact(fetches);
  if (is_list || is_tuple) {
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fetches);
    bool flat = true;
    for (Py_ssize_t i = 0; flat && i < n; i++)
      flat = simple_fetch(ms, PySequence_Fast_GET_ITEM(fetches, i));
    if (flat || !ms->fetch_handler) {
      fx->form = is_list ? FORM_LIST : FORM_TUPLE;
      /* hold the sequence: resolving elements may run Python code */
      Py_INCREF(fetches);
      int rc = 0;
      for (Py_ssize_t i = 0; rc == 0 && i < PySequence_Fast_GET_SIZE(fetches); i++)
        rc = add_fetch(self, fx, fs, PySequence_Fast_GET_ITEM(fetches, i), 0);
      Py_DECREF(fetches);
      return rc;
    }
  }
  if (!ms->fetch_handler || fetches == Py_None) {
    fx->form = FORM_SINGLE;
    return add_fetch(self, fx, fs, fetches, 0);
  }
  if (is_list || is_tuple || PyDict_CheckExact(fetches)) {
    fx->form = FORM_STRUCT;
    int rc = collect_struct(self, fx, fs, fetches, 0);
    if (rc <= 0) return rc;
    /* something the Python handler knows: start again there */
    fx->items.n = fx->fetches.n = fx->targets.n = fx->shape.n = 0;
    Py_CLEAR(fx->keys);
  }
  PyObject *r = PyObject_CallOneArg(ms->fetch_handler, fetches);
  if (!r) return -1;
  if (!PyTuple_Check(r) || PyTuple_GET_SIZE(r) != 2) {
    Py_DECREF(r);
    PyErr_SetString(PyExc_TypeError, "fetch handler must return (flat_list, rebuild)");
    return -1;
  }
  PyObject *flat = PySequence_Fast(PyTuple_GET_ITEM(r, 0), "fetch handler: flat_list must be a list");
  if (!flat) {
    Py_DECREF(r);
    return -1;
  }
  fx->form = FORM_REBUILD;
  fx->rebuild = Py_NewRef(PyTuple_GET_ITEM(r, 1));
  Py_DECREF(r);
  int rc = 0;
  for (Py_ssize_t i = 0; rc == 0 && i < PySequence_Fast_GET_SIZE(flat); i++)
    rc = add_fetch(self, fx, fs, PySequence_Fast_GET_ITEM(flat, i), 0);
  Py_DECREF(flat);
  return rc;
}

/* ---------------------------------------------------------- plan cache */

/* Hash of an int key. */
static uint64_t key_hash(const int *k, int n) {
  uint64_t h = 0x9E3779B97F4A7C15ull ^ (uint64_t)n;
  for (int i = 0; i < n; i++) {
    h ^= (uint64_t)(uint32_t)k[i];
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 32;
  }
  return h;
}

/* Frees every cache entry. */
static void cache_clear(SessionObject *self) {
  for (size_t i = 0; i < self->cache_cap; i++) {
    plan_entry *e = self->cache[i];
    if (e) {
      tfc_free(e->key);
      tfc_free(e);
    }
  }
  tfc_free(self->cache);
  self->cache = NULL;
  self->cache_cap = self->cache_count = 0;
}

/* The cached plan for key or NULL. */
static tfc_plan *cache_get(SessionObject *self, const int *key, int klen, uint64_t h) {
  if (!self->cache_cap) return NULL;
  size_t mask = self->cache_cap - 1;
  for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
    plan_entry *e = self->cache[i];
    if (!e) return NULL;
    if (e->hash == h && e->klen == klen && memcmp(e->key, key, (size_t)klen * sizeof(int)) == 0)
      return e->plan;
  }
}

/* Inserts key -> plan (best effort: a failed insert only costs speed). */
static void cache_put(SessionObject *self, const int *key, int klen, uint64_t h, tfc_plan *plan) {
  if (cache_get(self, key, klen, h)) return;
  if (self->cache_count >= 4096) cache_clear(self);
  if ((self->cache_count + 1) * 2 > self->cache_cap) {
    size_t cap = self->cache_cap ? self->cache_cap * 2 : 16;
    plan_entry **nc = tfc_calloc(cap, sizeof *nc);
    if (!nc) return;
    for (size_t i = 0; i < self->cache_cap; i++) {
      plan_entry *e = self->cache[i];
      if (!e) continue;
      size_t j = (size_t)e->hash & (cap - 1);
      while (nc[j]) j = (j + 1) & (cap - 1);
      nc[j] = e;
    }
    tfc_free(self->cache);
    self->cache = nc;
    self->cache_cap = cap;
  }
  plan_entry *e = tfc_malloc(sizeof *e);
  int *k = tfc_malloc((size_t)klen * sizeof(int));
  if (!e || !k) {
    tfc_free(e);
    tfc_free(k);
    return;
  }
  memcpy(k, key, (size_t)klen * sizeof(int));
  e->hash = h;
  e->klen = klen;
  e->key = k;
  e->plan = plan;
  size_t j = (size_t)h & (self->cache_cap - 1);
  while (self->cache[j]) j = (j + 1) & (self->cache_cap - 1);
  self->cache[j] = e;
  self->cache_count++;
}

/* Raises the exception for a failed plan/run status (closed -> RuntimeError). */
static PyObject *raise_run_status(SessionObject *self, const tfc_status *st) {
  /* a step that close() cancelled reports CANCELLED, as TF does */
  if ((self->closed && st->code != TFC_CODE_CANCELLED) ||
      (st->code == TFC_CODE_FAILED_PRECONDITION && strcmp(st->msg, "Attempted to use a closed Session.") == 0))
    return closed_error();
  return tfc_py_raise_status(self->ms, self->graph, st);
}

/* The plan for (feeds, fetches, targets): cache hit, else built with the GIL released. */
static tfc_plan *get_plan(SessionObject *self, const feed_spec *fs, const fetch_spec *fx) {
  int nf = fs->eps.n, nx = fx->fetches.n, nt = fx->targets.n;
  int klen = 3 + 2 * nf + 2 * nx + nt;
  int stack[64];
  int *key = klen <= 64 ? stack : tfc_malloc((size_t)klen * sizeof(int));
  if (!key) {
    PyErr_NoMemory();
    return NULL;
  }
  int k = 0;
  key[k++] = nf;
  memcpy(key + k, fs->eps.p, (size_t)nf * sizeof(tfc_endpoint));
  k += 2 * nf;
  key[k++] = nx;
  memcpy(key + k, fx->fetches.p, (size_t)nx * sizeof(tfc_endpoint));
  k += 2 * nx;
  key[k++] = nt;
  memcpy(key + k, fx->targets.p, (size_t)nt * sizeof(int));
  uint64_t h = key_hash(key, klen);
  tfc_plan *plan = cache_get(self, key, klen, h);
  if (!plan) {
    tfc_status st;
    tfc_status_clear(&st);
    tfc_session *s = self->s;
    Py_BEGIN_ALLOW_THREADS
    plan = tfc_session_plan(s, nf, (const tfc_endpoint *)fs->eps.p, nx,
                            (const tfc_endpoint *)fx->fetches.p, nt, (const int *)fx->targets.p, &st);
    Py_END_ALLOW_THREADS
    if (!plan)
      raise_run_status(self, &st);
    else
      cache_put(self, key, klen, h, plan);
  }
  if (key != stack) tfc_free(key);
  return plan;
}

/* ----------------------------------------------------------- execution */

/* Python value of feed i when it is also fetched: np.asarray(value, dtype), as TF returns it. */
static PyObject *fed_value(SessionObject *self, feed_spec *fs, int i) {
  PyObject *arr = VEC_AT(&fs->arrays, PyObject *, i);
  if (arr) return Py_NewRef(arr);
  tfc_tensor *t = VEC_AT(&fs->tensors, tfc_tensor *, i);
  int npy = tfc_py_dtype_to_npy(t->dtype);
  if (npy < 0) return tfc_py_tensor_to_py(self->ms, t, true);
  PyArray_Descr *descr = PyArray_DescrFromType(npy);
  if (!descr) return NULL;
  return PyArray_FromAny(VEC_AT(&fs->vals, PyObject *, i), descr, 0, 0,
                         NPY_ARRAY_FORCECAST | NPY_ARRAY_ENSUREARRAY, NULL);
}

/* Per-run remote state: the names and options a grpc:// run sends. */
typedef struct remote_run {
  PyObject *options;       /* RunOptions or NULL (borrowed) */
  PyObject *run_metadata;  /* RunMetadata or NULL (borrowed) */
} remote_run;

/* Per-run tracing of a local run: what RunOptions asks for and where it goes. */
typedef struct local_trace {
  tfc_run_trace tr;
  PyObject *run_metadata;  /* RunMetadata or NULL (borrowed) */
} local_trace;

/* Reads RunOptions.trace_level (FULL_TRACE = 3 and the lower levels trace)
 * and output_partition_graphs into lt; only when both options and
 * run_metadata were given. -1 with an exception on a bad attribute. */
static int read_trace_options(const remote_run *rr, local_trace *lt) {
  lt->tr.step_stats = false;
  lt->tr.partition_graphs = false;
  lt->run_metadata = rr->run_metadata;
  if (!rr->options || !rr->run_metadata) return 0;
  PyObject *v = PyObject_GetAttrString(rr->options, "trace_level");
  if (!v) {
    PyErr_Clear();
  } else {
    long level = PyLong_AsLong(v);
    Py_DECREF(v);
    if (level == -1 && PyErr_Occurred()) return -1;
    lt->tr.step_stats = level > 0;
  }
  v = PyObject_GetAttrString(rr->options, "output_partition_graphs");
  if (!v) {
    PyErr_Clear();
  } else {
    int b = PyObject_IsTrue(v);
    Py_DECREF(v);
    if (b < 0) return -1;
    lt->tr.partition_graphs = b != 0;
  }
  return 0;
}

static bool run_remote(SessionObject *self, feed_spec *fs, fetch_spec *fx, const remote_run *rr, tfc_tensor **out);

/* The value of result item `it` (see fetch_spec): a fetched value, None for
 * an operation, or a fed value. New reference; NULL with an exception. */
static PyObject *item_value(SessionObject *self, feed_spec *fs, PyObject *const *vals, int it) {
  return it >= 0 ? Py_NewRef(vals[it]) : it == -1 ? Py_NewRef(Py_None) : fed_value(self, fs, -2 - it);
}

/* Rebuilds one level of a FORM_STRUCT result from fx->shape at *sp, taking
 * leaves from fx->items at *ip and dict keys from fx->keys at *kp. */
static PyObject *build_struct(SessionObject *self, feed_spec *fs, const fetch_spec *fx,
                              PyObject *const *vals, int *sp, int *ip, Py_ssize_t *kp) {
  if (*sp >= fx->shape.n) {
    PyErr_SetString(PyExc_RuntimeError, "tfc: malformed fetch structure");
    return NULL;
  }
  int code = VEC_AT(&fx->shape, int, (*sp)++);
  if (code == S_LEAF) return item_value(self, fs, vals, VEC_AT(&fx->items, int, (*ip)++));
  int n = VEC_AT(&fx->shape, int, (*sp)++);
  PyObject *r = code == S_DICT ? PyDict_New() : code == S_LIST ? PyList_New(n) : PyTuple_New(n);
  if (!r) return NULL;
  for (int i = 0; i < n; i++) {
    /* a dict's key precedes the keys of the structures inside its value */
    PyObject *key = code == S_DICT ? PyList_GET_ITEM(fx->keys, (*kp)++) : NULL;
    PyObject *v = build_struct(self, fs, fx, vals, sp, ip, kp);
    if (!v) {
      Py_DECREF(r);
      return NULL;
    }
    if (code == S_LIST) {
      PyList_SET_ITEM(r, i, v);
    } else if (code == S_TUPLE) {
      PyTuple_SET_ITEM(r, i, v);
    } else {
      int rc = PyDict_SetItem(r, key, v);
      Py_DECREF(v);
      if (rc < 0) {
        Py_DECREF(r);
        return NULL;
      }
    }
  }
  return r;
}

/* Runs plan (or the remote session) with fs's converted feeds and builds the result for fx. */
static PyObject *execute(SessionObject *self, tfc_plan *plan, feed_spec *fs, fetch_spec *fx,
                         const remote_run *rr, int64_t timeout_ms, const local_trace *lt) {
  int nx = fx->fetches.n;
  tfc_tensor *out_inl[NINL];
  PyObject *vals_inl[NINL];
  tfc_tensor **out = nx <= NINL ? out_inl : tfc_calloc((size_t)nx, sizeof(tfc_tensor *));
  PyObject **vals = nx <= NINL ? vals_inl : tfc_calloc((size_t)nx, sizeof(PyObject *));
  PyObject *result = NULL;
  if (!out || !vals) {
    PyErr_NoMemory();
    goto done_free;
  }
  for (int i = 0; i < nx; i++) {
    out[i] = NULL;
    vals[i] = NULL;
  }
  if (rr) {
    if (!run_remote(self, fs, fx, rr, out)) goto done;
  } else if (plan) {
    tfc_status st;
    tfc_status_clear(&st);
    bool ok;
    tfc_session *s = self->s;
    tfc_tensor *const *feeds = (tfc_tensor *const *)fs->tensors.p;
    if (lt && lt->run_metadata && (lt->tr.step_stats || lt->tr.partition_graphs || self->cost_model)) {
      tfc_strbuf md;
      tfc_strbuf_init(&md);
      const tfc_run_trace *tr = &lt->tr;
      Py_BEGIN_ALLOW_THREADS
      ok = tfc_session_run_traced(s, plan, feeds, out, timeout_ms, tr, &md, &st);
      Py_END_ALLOW_THREADS
      if (ok) {
        PyObject *r = PyObject_CallMethod(lt->run_metadata, "MergeFromString", "y#",
                                          md.data ? md.data : "", (Py_ssize_t)md.len);
        ok = r != NULL;
        Py_XDECREF(r);
      } else {
        raise_run_status(self, &st);
      }
      tfc_strbuf_free(&md);
      if (!ok) goto done;
    } else {
      Py_BEGIN_ALLOW_THREADS
      ok = tfc_session_run_timeout(s, plan, feeds, out, timeout_ms, &st);
      Py_END_ALLOW_THREADS
      if (!ok) {
        raise_run_status(self, &st);
        goto done;
      }
    }
  }
  for (int i = 0; i < nx; i++) {
    if (!out[i]) {
      PyErr_SetString(PyExc_RuntimeError, "tfc runtime returned no value for a fetch");
      goto done;
    }
    if (!(vals[i] = tfc_py_tensor_to_py(self->ms, out[i], false))) goto done;
  }
  int ni = fx->items.n;
  if (fx->form == FORM_STRUCT) {
    int sp = 0, ip = 0;
    Py_ssize_t kp = 0;
    result = build_struct(self, fs, fx, vals, &sp, &ip, &kp);
    goto done;
  }
  if (fx->form == FORM_SINGLE) {
    int it = VEC_AT(&fx->items, int, 0);
    result = it >= 0 ? Py_NewRef(vals[it]) : it == -1 ? Py_NewRef(Py_None) : fed_value(self, fs, -2 - it);
    goto done;
  }
  PyObject *seq = fx->form == FORM_TUPLE ? PyTuple_New(ni) : PyList_New(ni);
  if (!seq) goto done;
  for (int j = 0; j < ni; j++) {
    int it = VEC_AT(&fx->items, int, j);
    PyObject *v = it >= 0 ? Py_NewRef(vals[it]) : it == -1 ? Py_NewRef(Py_None) : fed_value(self, fs, -2 - it);
    if (!v) {
      Py_DECREF(seq);
      goto done;
    }
    if (fx->form == FORM_TUPLE)
      PyTuple_SET_ITEM(seq, j, v);
    else
      PyList_SET_ITEM(seq, j, v);
  }
  if (fx->form == FORM_REBUILD) {
    result = PyObject_CallOneArg(fx->rebuild, seq);
    Py_DECREF(seq);
  } else {
    result = seq;
  }
done:
  for (int i = 0; i < nx; i++) {
    tfc_tensor_unref(out[i]);
    Py_XDECREF(vals[i]);
  }
done_free:
  if (out != out_inl) tfc_free(out);
  if (vals != vals_inl) tfc_free(vals);
  return result;
}

/* Parses (fetches, feed_dict=None, options=None, run_metadata=None). */
static int parse_run_args(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                          PyObject **fetches, PyObject **feed_dict, remote_run *rr,
                          int64_t *timeout_ms) {
  static const char *const names[] = {"fetches", "feed_dict", "options", "run_metadata"};
  PyObject *a[4] = {NULL, NULL, NULL, NULL};
  if (nargs > 4) {
    PyErr_Format(PyExc_TypeError, "run() takes at most 4 arguments (%zd given)", nargs);
    return -1;
  }
  for (Py_ssize_t i = 0; i < nargs; i++) a[i] = args[i];
  if (kwnames) {
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(kwnames); k++) {
      PyObject *kw = PyTuple_GET_ITEM(kwnames, k);
      int j = 0;
      while (j < 4 && PyUnicode_CompareWithASCIIString(kw, names[j]) != 0) j++;
      if (j == 4) {
        PyErr_Format(PyExc_TypeError, "run() got an unexpected keyword argument '%U'", kw);
        return -1;
      }
      if (a[j]) {
        PyErr_Format(PyExc_TypeError, "run() got multiple values for argument '%s'", names[j]);
        return -1;
      }
      a[j] = args[nargs + k];
    }
  }
  if (!a[0]) {
    PyErr_SetString(PyExc_TypeError, "run() missing required argument 'fetches'");
    return -1;
  }
  *fetches = a[0];
  *feed_dict = a[1];
  rr->options = a[2] == Py_None ? NULL : a[2];
  rr->run_metadata = a[3] == Py_None ? NULL : a[3];
  *timeout_ms = 0;
  if (a[2] && a[2] != Py_None) {
    /* RunOptions.timeout_in_ms bounds steps that hold loops */
    PyObject *t = PyObject_GetAttrString(a[2], "timeout_in_ms");
    if (!t) {
      PyErr_Clear();
    } else {
      long long v = PyLong_AsLongLong(t);
      Py_DECREF(t);
      if (v == -1 && PyErr_Occurred()) return -1;
      *timeout_ms = v > 0 ? (int64_t)v : 0;
    }
  }
  return 0;
}

/* "name" or "name:k" of an endpoint, as a new Python-owned UTF-8 copy in buf. */
static void endpoint_name(SessionObject *self, tfc_endpoint ep, char *buf, size_t size) {
  tfc_node *n = tfc_graph_node(self->graph->g, ep.node);
  snprintf(buf, size, "%s:%d", n->name, ep.index);
}

/* Serializes a protobuf-like Python object (SerializeToString) into a new bytes object. */
static PyObject *serialize(PyObject *msg) {
  if (!msg) return NULL;
  return PyObject_CallMethod(msg, "SerializeToString", NULL);
}

/* The grpc:// run: sends the graph delta, then one RunStep (GIL released). */
static bool run_remote(SessionObject *self, feed_spec *fs, fetch_spec *fx, const remote_run *rr, tfc_tensor **out) {
  int nf = fs->eps.n, nx = fx->fetches.n, nt = fx->targets.n;
  char **names = tfc_calloc((size_t)(nf + nx + nt) + 1, sizeof(char *));
  bool ok = names != NULL;
  for (int i = 0; ok && i < nf + nx + nt; i++) {
    char buf[1024];
    if (i < nf)
      endpoint_name(self, VEC_AT(&fs->eps, tfc_endpoint, i), buf, sizeof buf);
    else if (i < nf + nx)
      endpoint_name(self, VEC_AT(&fx->fetches, tfc_endpoint, i - nf), buf, sizeof buf);
    else
      snprintf(buf, sizeof buf, "%s", tfc_graph_node(self->graph->g, VEC_AT(&fx->targets, int, i - nf - nx))->name);
    ok = (names[i] = tfc_strdup(buf)) != NULL;
  }
  if (!ok) {
    if (names)
      for (int i = 0; i < nf + nx + nt; i++) tfc_free(names[i]);
    tfc_free(names);
    PyErr_NoMemory();
    return false;
  }
  PyObject *opts = rr->options ? serialize(rr->options) : NULL;
  if (rr->options && !opts) ok = false;
  if (ok && opts && !PyBytes_Check(opts)) {
    PyErr_SetString(PyExc_TypeError, "options must serialize to bytes");
    ok = false;
  }
  tfc_grpc_run_args a = {
      .n_feeds = nf,
      .feed_names = (const char *const *)names,
      .feeds = (tfc_tensor *const *)fs->tensors.p,
      .n_fetches = nx,
      .fetch_names = (const char *const *)names + nf,
      .n_targets = nt,
      .targets = (const char *const *)names + nf + nx,
      .run_options = opts ? PyBytes_AS_STRING(opts) : NULL,
      .run_options_len = opts ? (size_t)PyBytes_GET_SIZE(opts) : 0,
      .fetch_out = out,
  };
  tfc_status st;
  tfc_status_clear(&st);
  if (ok) {
    tfc_grpc_session *rs = self->remote;
    tfc_graph *g = self->graph->g;
    /* taken under the GIL, before close() can free rs: a close from another
     * thread then waits for this run (which the master cancels) */
    bool entered = tfc_grpc_session_enter(rs);
    Py_BEGIN_ALLOW_THREADS
    if (!entered) {
      ok = tfc_status_set(&st, TFC_CODE_CANCELLED, "Session was closed");
    } else {
      ok = tfc_grpc_session_extend(rs, g, &st) && tfc_grpc_session_run(rs, &a, &st);
      tfc_grpc_session_leave(rs);
    }
    Py_END_ALLOW_THREADS
    if (!ok) tfc_py_raise_status(self->ms, self->graph, &st);
  }
  Py_XDECREF(opts);
  for (int i = 0; i < nf + nx + nt; i++) tfc_free(names[i]);
  tfc_free(names);
  if (ok && rr->run_metadata && a.metadata) {
    PyObject *r = PyObject_CallMethod(rr->run_metadata, "MergeFromString", "y#", (const char *)a.metadata,
                                      (Py_ssize_t)a.metadata_len);
    if (!r) ok = false;
    Py_XDECREF(r);
  }
  tfc_free(a.metadata);
  if (!ok) {
    for (int i = 0; i < nx; i++) {
      tfc_tensor_unref(out[i]);
      out[i] = NULL;
    }
  }
  return ok;
}

/* Session.run for a grpc:// session: the same feed/fetch handling, one RunStep. */
static PyObject *session_run_remote(SessionObject *self, PyObject *fetches, PyObject *feed_dict, const remote_run *rr) {
  if (self->closed) return closed_error();
  Py_INCREF(self);
  feed_spec fs;
  fetch_spec fx;
  feed_spec_init(&fs);
  fetch_spec_init(&fx);
  PyObject *result = NULL;
  if (collect_feeds(self, feed_dict, &fs) < 0 || convert_feeds(self, &fs) < 0) goto done;
  if (collect_fetches(self, fetches, &fx, &fs) < 0) goto done;
  result = execute(self, NULL, &fs, &fx, (fx.fetches.n || fx.targets.n) ? rr : NULL, 0, NULL);
done:
  feed_spec_free(&fs);
  fetch_spec_free(&fx);
  Py_DECREF(self);
  return result;
}

/* Session.run(fetches, feed_dict=None, options=None, run_metadata=None). */
static PyObject *session_run(SessionObject *self, PyObject *const *args, Py_ssize_t nargs,
                             PyObject *kwnames) {
  PyObject *fetches, *feed_dict;
  remote_run rr;
  int64_t timeout_ms = 0;
  if (parse_run_args(args, nargs, kwnames, &fetches, &feed_dict, &rr, &timeout_ms) < 0) return NULL;
  if (self->remote) return session_run_remote(self, fetches, feed_dict, &rr);
  if (self->remote_closed) return closed_error();
  if (!self->s) {
    PyErr_SetString(PyExc_RuntimeError, "Session.__init__ was not called");
    return NULL;
  }
  if (self->closed) return closed_error();
  Py_INCREF(self); /* keeps the session alive while the GIL is released */
  feed_spec fs;
  fetch_spec fx;
  feed_spec_init(&fs);
  fetch_spec_init(&fx);
  PyObject *result = NULL;
  if (collect_feeds(self, feed_dict, &fs) < 0 || convert_feeds(self, &fs) < 0) goto done;
  if (collect_fetches(self, fetches, &fx, &fs) < 0) goto done;
  tfc_plan *plan = NULL;
  if (fx.fetches.n || fx.targets.n) {
    if (self->closed) {
      closed_error();
      goto done;
    }
    if (!(plan = get_plan(self, &fs, &fx))) goto done;
  }
  local_trace lt;
  if (read_trace_options(&rr, &lt) < 0) goto done;
  result = execute(self, plan, &fs, &fx, NULL, timeout_ms, &lt);
done:
  feed_spec_free(&fs);
  fetch_spec_free(&fx);
  Py_DECREF(self);
  return result;
}

/* ------------------------------------------------------------ Callable */

typedef struct CallableObject {
  PyObject_HEAD
  vectorcallfunc vectorcall;
  SessionObject *session;   /* strong */
  int n_feeds;
  tfc_endpoint *feed_eps;   /* tfc_malloc'd */
  PyObject *feed_keys;      /* tuple of keys (for messages) */
  fetch_spec fx;            /* resolved fetches (heap-backed copy) */
  tfc_plan *plan;           /* NULL when nothing to run */
} CallableObject;

/* Callable(*feed_values, options=None, run_metadata=None): runs the stored plan. */
static PyObject *callable_vectorcall(CallableObject *self, PyObject *const *args, size_t nargsf,
                                     PyObject *kwnames) {
  Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
  if (kwnames) {
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(kwnames); k++) {
      PyObject *kw = PyTuple_GET_ITEM(kwnames, k);
      if (PyUnicode_CompareWithASCIIString(kw, "options") != 0 &&
          PyUnicode_CompareWithASCIIString(kw, "run_metadata") != 0) {
        PyErr_Format(PyExc_TypeError, "callable got an unexpected keyword argument '%U'", kw);
        return NULL;
      }
    }
  }
  SessionObject *sess = self->session;
  if (sess->closed) return closed_error();
  if (nargs != self->n_feeds) {
    PyErr_Format(PyExc_ValueError, "Expected %d input feeds, got %zd", self->n_feeds, nargs);
    return NULL;
  }
  Py_INCREF(self);
  feed_spec fs;
  feed_spec_init(&fs);
  PyObject *result = NULL;
  for (int i = 0; i < self->n_feeds; i++) {
    PyObject *null = NULL;
    if (vec_push(&fs.eps, &self->feed_eps[i]) < 0 || vec_push(&fs.keys, &null) < 0 ||
        vec_push(&fs.vals, &null) < 0)
      goto done;
    VEC_AT(&fs.keys, PyObject *, i) = Py_NewRef(PyTuple_GET_ITEM(self->feed_keys, i));
    VEC_AT(&fs.vals, PyObject *, i) = Py_NewRef(args[i]);
  }
  if (convert_feeds(sess, &fs) < 0) goto done;
  remote_run rr = {NULL, NULL};
  for (Py_ssize_t k = 0; kwnames && k < PyTuple_GET_SIZE(kwnames); k++) {
    PyObject *v = args[nargs + k] == Py_None ? NULL : args[nargs + k];
    if (PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, k), "options") == 0)
      rr.options = v;
    else
      rr.run_metadata = v;
  }
  local_trace lt;
  if (read_trace_options(&rr, &lt) < 0) goto done;
  result = execute(sess, self->plan, &fs, &self->fx, NULL, 0, &lt);
done:
  feed_spec_free(&fs);
  Py_DECREF(self);
  return result;
}

/* Copies a vec's contents into heap storage owned by the callable. */
static int vec_detach(vec *v) {
  if (v->p != v->inl) return 0;
  void *p = tfc_malloc((size_t)(v->n ? v->n : 1) * v->esize);
  if (!p) {
    PyErr_NoMemory();
    return -1;
  }
  memcpy(p, v->inl, (size_t)v->n * v->esize);
  v->p = p;
  v->cap = v->n ? v->n : 1;
  return 0;
}

/* Session.make_callable(fetches, feed_list=None, accept_options=False) -> Callable. */
static PyObject *session_make_callable(SessionObject *self, PyObject *args, PyObject *kwds) {
  static char *kwlist[] = {"fetches", "feed_list", "accept_options", NULL};
  PyObject *fetches, *feed_list = Py_None;
  int accept_options = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|Op:make_callable", kwlist, &fetches, &feed_list,
                                   &accept_options))
    return NULL;
  if (!self->s) {
    PyErr_SetString(PyExc_RuntimeError, "Session.__init__ was not called");
    return NULL;
  }
  if (self->closed) return closed_error();
  if (feed_list != Py_None && !PyList_Check(feed_list) && !PyTuple_Check(feed_list)) {
    PyErr_SetString(PyExc_TypeError, "`feed_list` must be a list or tuple.");
    return NULL;
  }
  CallableObject *c = (CallableObject *)self->ms->callable_type->tp_alloc(self->ms->callable_type, 0);
  if (!c) return NULL;
  c->vectorcall = (vectorcallfunc)callable_vectorcall;
  c->session = (SessionObject *)Py_NewRef(self);
  fetch_spec_init(&c->fx);
  feed_spec fs;
  feed_spec_init(&fs);
  Py_ssize_t nf = feed_list == Py_None ? 0 : PySequence_Fast_GET_SIZE(feed_list);
  c->feed_keys = PyTuple_New(nf);
  if (!c->feed_keys) goto fail;
  c->feed_eps = tfc_malloc((size_t)(nf + 1) * sizeof(tfc_endpoint));
  if (!c->feed_eps) {
    PyErr_NoMemory();
    goto fail;
  }
  for (Py_ssize_t i = 0; i < nf; i++) {
    PyObject *key = PySequence_Fast_GET_ITEM(feed_list, i);
    if (feed_key_endpoint(self, key, &c->feed_eps[i]) < 0) goto fail;
    PyTuple_SET_ITEM(c->feed_keys, i, Py_NewRef(key));
    PyObject *null = NULL;
    if (vec_push(&fs.eps, &c->feed_eps[i]) < 0 || vec_push(&fs.keys, &null) < 0) goto fail;
    c->n_feeds = (int)(i + 1);
  }
  if (collect_fetches(self, fetches, &c->fx, &fs) < 0) goto fail;
  if (vec_detach(&c->fx.items) < 0 || vec_detach(&c->fx.fetches) < 0 ||
      vec_detach(&c->fx.targets) < 0 || vec_detach(&c->fx.shape) < 0)
    goto fail;
  if (c->fx.fetches.n || c->fx.targets.n) {
    if (!(c->plan = get_plan(self, &fs, &c->fx))) goto fail;
  }
  feed_spec_free(&fs);
  return (PyObject *)c;
fail:
  feed_spec_free(&fs);
  Py_DECREF(c);
  return NULL;
}

/* GC traversal of a Callable. */
static int callable_traverse(CallableObject *self, visitproc visit, void *arg) {
  Py_VISIT(Py_TYPE(self));
  Py_VISIT(self->session);
  Py_VISIT(self->feed_keys);
  Py_VISIT(self->fx.rebuild);
  Py_VISIT(self->fx.keys);
  return 0;
}

/* Drops Python references of a Callable. */
static int callable_clear(CallableObject *self) {
  Py_CLEAR(self->feed_keys);
  Py_CLEAR(self->fx.rebuild);
  Py_CLEAR(self->fx.keys);
  return 0;
}

/* Callable deallocation. */
static void callable_dealloc(CallableObject *self) {
  PyTypeObject *tp = Py_TYPE(self);
  PyObject_GC_UnTrack(self);
  callable_clear(self);
  fetch_spec_free(&self->fx);
  tfc_free(self->feed_eps);
  Py_CLEAR(self->session);
  tp->tp_free((PyObject *)self);
  Py_DECREF(tp);
}

static PyMemberDef callable_members[] = {
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(CallableObject, vectorcall), READONLY, NULL},
    {NULL, 0, 0, 0, NULL}};

static PyType_Slot callable_slots[] = {
    {Py_tp_dealloc, callable_dealloc},
    {Py_tp_traverse, callable_traverse},
    {Py_tp_clear, callable_clear},
    {Py_tp_call, PyVectorcall_Call},
    {Py_tp_members, callable_members},
    {Py_tp_doc, "A prepared Session.run (from Session.make_callable)."},
    {0, NULL}};

PyType_Spec tfc_py_callable_spec = {
    .name = "tfc._tfc.Callable",
    .basicsize = sizeof(CallableObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL |
             Py_TPFLAGS_DISALLOW_INSTANTIATION,
    .slots = callable_slots,
};

/* ------------------------------------------------------------- Session */

/* Session.__new__: an uninitialised session (set up by __init__). */
static PyObject *session_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
  (void)args;
  (void)kwds;
  PyObject *module = tfc_py_module_of_type(type);
  if (!module) return NULL;
  SessionObject *self = (SessionObject *)type->tp_alloc(type, 0);
  if (!self) return NULL;
  self->module = Py_NewRef(module);
  self->ms = tfc_py_state(module);
  return (PyObject *)self;
}

/* Session.__init__(graph, inter_op_threads=0, intra_op_threads=0, cpu_devices=1,
 * allow_soft_placement=False, log_device_placement=False, fusion=True, target=None,
 * config=None, build_cost_model=0, build_cost_model_after=0). */
static int session_init(SessionObject *self, PyObject *args, PyObject *kwds) {
  static char *kwlist[] = {"graph", "inter_op_threads", "intra_op_threads", "cpu_devices",
                           "allow_soft_placement", "log_device_placement", "fusion", "target",
                           "config", "build_cost_model", "build_cost_model_after", NULL};
  PyObject *graph;
  int inter = 0, intra = 0, devices = 1, soft = 0, log = 0, fusion = 1;
  long long cost_every = 0, cost_after = 0;
  const char *target = NULL;
  Py_buffer config = {0};
  if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!|iiipppzy*LL:Session", kwlist, self->ms->graph_type,
                                   &graph, &inter, &intra, &devices, &soft, &log, &fusion, &target,
                                   &config, &cost_every, &cost_after))
    return -1;
  if (self->s || self->remote) {
    PyBuffer_Release(&config);
    PyErr_SetString(PyExc_RuntimeError, "Session is already initialised");
    return -1;
  }
  if (target && target[0]) {
    /* grpc://host:port: a thin client of the master there */
    tfc_status st;
    tfc_status_clear(&st);
    tfc_grpc_session *rs = tfc_grpc_session_new(target, config.buf, config.buf ? (size_t)config.len : 0, &st);
    PyBuffer_Release(&config);
    if (!rs) {
      tfc_py_raise_status(self->ms, (GraphObject *)graph, &st);
      return -1;
    }
    self->remote = rs;
    self->closed = false;
    Py_INCREF(graph);
    Py_XSETREF(self->graph, (GraphObject *)graph);
    return 0;
  }
  PyBuffer_Release(&config);
  if (devices < 1) {
    PyErr_SetString(PyExc_ValueError, "cpu_devices must be >= 1");
    return -1;
  }
  tfc_session_options opts;
  memset(&opts, 0, sizeof opts);
  opts.inter_op_threads = inter;
  opts.intra_op_threads = intra;
  opts.n_cpu_devices = devices;
  opts.allow_soft_placement = soft;
  opts.log_device_placement = log;
  opts.no_fusion = !fusion;
  opts.build_cost_model = cost_every;
  opts.build_cost_model_after = cost_after;
  self->cost_model = cost_every > 0;
  opts.job = "localhost";
  opts.task = 0;
  opts.log = py_log_sink;
  opts.out = py_out_sink;
  opts.log_ctx = NULL;
  tfc_status st;
  tfc_status_clear(&st);
  tfc_session *s;
  tfc_graph *g = ((GraphObject *)graph)->g;
  Py_BEGIN_ALLOW_THREADS
  s = tfc_session_new(g, &opts, &st);
  Py_END_ALLOW_THREADS
  if (!s) {
    tfc_py_raise_status(self->ms, (GraphObject *)graph, &st);
    return -1;
  }
  self->s = s;
  self->closed = false;
  Py_INCREF(graph);
  Py_XSETREF(self->graph, (GraphObject *)graph);
  return 0;
}

/* Session.close(): waits for running steps (GIL released) and frees nothing yet. */
static PyObject *session_close(SessionObject *self, PyObject *unused) {
  (void)unused;
  if (self->remote) {
    tfc_grpc_session *rs = self->remote;
    self->remote = NULL;
    Py_BEGIN_ALLOW_THREADS
    tfc_grpc_session_free(rs);
    Py_END_ALLOW_THREADS
    self->closed = true;
    self->remote_closed = true;
  }
  if (self->s && !self->closed) {
    self->closed = true;
    tfc_session *s = self->s;
    Py_BEGIN_ALLOW_THREADS
    tfc_session_close(s);
    Py_END_ALLOW_THREADS
  }
  self->closed = true;
  Py_RETURN_NONE;
}

/* Session._closed -> bool. */
static PyObject *session_get_closed(SessionObject *self, void *c) {
  (void)c;
  return PyBool_FromLong(self->closed || (!self->s && !self->remote));
}

/* GC traversal. */
static int session_traverse(SessionObject *self, visitproc visit, void *arg) {
  Py_VISIT(Py_TYPE(self));
  Py_VISIT(self->module);
  Py_VISIT(self->graph);
  return 0;
}

/* Drops the graph reference (the tfc session keeps its own graph reference). */
static int session_clear(SessionObject *self) {
  (void)self;
  return 0;
}

/* Deallocation: frees the tfc session with the GIL released (it waits for steps). */
static void session_dealloc(SessionObject *self) {
  PyTypeObject *tp = Py_TYPE(self);
  PyObject_GC_UnTrack(self);
  if (self->weakreflist) PyObject_ClearWeakRefs((PyObject *)self);
  if (self->remote) {
    tfc_grpc_session *rs = self->remote;
    self->remote = NULL;
    Py_BEGIN_ALLOW_THREADS
    tfc_grpc_session_free(rs);
    Py_END_ALLOW_THREADS
  }
  if (self->s) {
    tfc_session *s = self->s;
    self->s = NULL;
    Py_BEGIN_ALLOW_THREADS
    tfc_session_free(s);
    Py_END_ALLOW_THREADS
  }
  cache_clear(self);
  Py_CLEAR(self->graph);
  Py_CLEAR(self->module);
  tp->tp_free((PyObject *)self);
  Py_DECREF(tp);
}

static PyMethodDef session_methods[] = {
    {"run", (PyCFunction)(void (*)(void))session_run, METH_FASTCALL | METH_KEYWORDS,
     "run(fetches, feed_dict=None, options=None, run_metadata=None)"},
    {"make_callable", (PyCFunction)(void (*)(void))session_make_callable,
     METH_VARARGS | METH_KEYWORDS, "make_callable(fetches, feed_list=None) -> callable"},
    {"close", (PyCFunction)session_close, METH_NOARGS, "Closes the session."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef session_getset[] = {
    {"_closed", (getter)session_get_closed, NULL, "True once closed.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyMemberDef session_members[] = {
    {"__weaklistoffset__", T_PYSSIZET, offsetof(SessionObject, weakreflist), READONLY, NULL},
    {NULL, 0, 0, 0, NULL}};

static PyType_Slot session_slots[] = {
    {Py_tp_new, session_new},
    {Py_tp_init, session_init},
    {Py_tp_dealloc, session_dealloc},
    {Py_tp_traverse, session_traverse},
    {Py_tp_clear, session_clear},
    {Py_tp_methods, session_methods},
    {Py_tp_getset, session_getset},
    {Py_tp_members, session_members},
    {Py_tp_doc, "A local session running a Graph."},
    {0, NULL}};

PyType_Spec tfc_py_session_spec = {
    .name = "tfc._tfc.Session",
    .basicsize = sizeof(SessionObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .slots = session_slots,
};
