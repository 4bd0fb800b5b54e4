/*
 * py_hooks.c — the per-step path of MonitoredSession's hooked layer in C.
 *
 * tfc/train/monitored_session.py's _HookedSession.run calls
 * hooked_run(self, fetches, feed_dict, options, run_metadata) for every
 * MonitoredSession.run. It does what TF 1.15's _HookedSession.run does, with
 * the same calls in the same order, only without the Python glue between
 * them:
 *   - refuses a run after a stop was requested (RuntimeError);
 *   - makes the SessionRunContext (original_args = SessionRunArgs(fetches,
 *     feed_dict); its attributes set directly, as its __init__ would) and, when the caller gave none, a RunOptions and a
 *     RunMetadata for the hooks to see;
 *   - calls every hook's before_run(run_context); a request that only adds
 *     fetches is merged here, under the hook as key of one fetch dict whose
 *     "caller" entry holds the caller's fetches; the first request with feeds
 *     or options hands the rest of the hooks to the Python
 *     _call_hook_before_run (which merges feeds and options and sets
 *     _hook_options);
 *   - runs the raw session once (with options and run metadata only when the
 *     caller passed them, a hook asked for options, or the session collects
 *     metadata by itself);
 *   - calls every hook's after_run(run_context, SessionRunValues(results,
 *     options, run_metadata)) and notes a stop request.
 * The object's attributes are read at every call (_should_stop,
 * _wrapped_is_stoppable, _sess, _hooks, _collects_metadata, _new_options,
 * _new_metadata), so the Python class stays the one source of its state.
 */
#include "python/py_internal.h"

/* Classes registered by set_hook_classes: SessionRunArgs, SessionRunValues
 * (namedtuples without instance dicts), SessionRunContext. */
static PyObject *run_args_cls, *run_values_cls, *run_context_cls;

/* Interned attribute and key names, made once. */
static PyObject *s_should_stop, *s_wrapped_is_stoppable, *s_sess, *s_hooks, *s_collects_metadata,
    *s_new_options, *s_new_metadata, *s_hook_options, *s_before_run, *s_after_run, *s_run,
    *s_feed_dict, *s_options, *s_fetches, *s_stop_requested, *s_caller, *s_call_hook_before_run,
    *s_should_stop_method, *s_original_args, *s_session, *s_values_unread;

/* Interns the names above; 0, or -1 with an exception. */
static int intern_names(void) {
  if (s_caller) return 0;
  struct {
    PyObject **slot;
    const char *text;
  } names[] = {{&s_should_stop, "_should_stop"},
               {&s_wrapped_is_stoppable, "_wrapped_is_stoppable"},
               {&s_sess, "_sess"},
               {&s_hooks, "_hooks"},
               {&s_collects_metadata, "_collects_metadata"},
               {&s_new_options, "_new_options"},
               {&s_new_metadata, "_new_metadata"},
               {&s_hook_options, "_hook_options"},
               {&s_before_run, "before_run"},
               {&s_after_run, "after_run"},
               {&s_run, "run"},
               {&s_feed_dict, "feed_dict"},
               {&s_options, "options"},
               {&s_fetches, "fetches"},
               {&s_stop_requested, "_stop_requested"},
               {&s_call_hook_before_run, "_call_hook_before_run"},
               {&s_should_stop_method, "should_stop"},
               {&s_original_args, "_original_args"},
               {&s_session, "_session"},
               {&s_values_unread, "_values_unread"},
               {&s_caller, "caller"}};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    *names[i].slot = PyUnicode_InternFromString(names[i].text);
    if (!*names[i].slot) return -1;
  }
  return 0;
}

/* set_hook_classes(SessionRunArgs, SessionRunValues, SessionRunContext):
 * the classes hooked_run instantiates. */
PyObject *tfc_py_mod_set_hook_classes(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
  (void)module;
  if (nargs != 3) {
    PyErr_SetString(PyExc_TypeError, "set_hook_classes takes 3 classes");
    return NULL;
  }
  for (int i = 0; i < 2; i++)
    if (!PyType_Check(args[i]) || !PyType_IsSubtype((PyTypeObject *)args[i], &PyTuple_Type)) {
      PyErr_SetString(PyExc_TypeError, "SessionRunArgs and SessionRunValues must be tuple subclasses");
      return NULL;
    }
  if (!PyType_Check(args[2]) || PyType_IsSubtype((PyTypeObject *)args[2], &PyTuple_Type)) {
    PyErr_SetString(PyExc_TypeError, "SessionRunContext must be a plain class");
    return NULL;
  }
  if (intern_names() < 0) return NULL;
  Py_XSETREF(run_args_cls, Py_NewRef(args[0]));
  Py_XSETREF(run_values_cls, Py_NewRef(args[1]));
  Py_XSETREF(run_context_cls, Py_NewRef(args[2]));
  Py_RETURN_NONE;
}

/* A new instance of the 3-field namedtuple cls holding (a, b, c) (borrowed
 * references, stored as new ones), as tuple.__new__(cls, (a, b, c)) makes it. */
static PyObject *triple(PyObject *cls, PyObject *a, PyObject *b, PyObject *c) {
  PyTypeObject *t = (PyTypeObject *)cls;
  PyObject *r = t->tp_alloc(t, 3);
  if (!r) return NULL;
  PyTuple_SET_ITEM(r, 0, Py_NewRef(a));
  PyTuple_SET_ITEM(r, 1, Py_NewRef(b));
  PyTuple_SET_ITEM(r, 2, Py_NewRef(c));
  return r;
}

/* A SessionRunContext(original_args, session), its attributes set as its
 * __init__ sets them, without the Python call. */
static PyObject *new_run_context(PyObject *original, PyObject *sess) {
  PyTypeObject *t = (PyTypeObject *)run_context_cls;
  PyObject *ctx = t->tp_alloc(t, 0);
  if (!ctx) return NULL;
  if (PyObject_SetAttr(ctx, s_original_args, original) < 0 || PyObject_SetAttr(ctx, s_session, sess) < 0 ||
      PyObject_SetAttr(ctx, s_stop_requested, Py_False) < 0) {
    Py_DECREF(ctx);
    return NULL;
  }
  return ctx;
}

/* Replaces *slot (a reference) with a new object made by calling self.<maker>();
 * 0, or -1 with an exception (*slot unchanged). */
static int make_into(PyObject *self, PyObject *maker, PyObject **slot) {
  PyObject *make = PyObject_GetAttr(self, maker);
  PyObject *o = make ? PyObject_CallNoArgs(make) : NULL;
  Py_XDECREF(make);
  if (!o) return -1;
  Py_SETREF(*slot, o);
  return 0;
}

/* The truth of obj.name: 1, 0, or -1 with an exception. */
static int attr_true(PyObject *obj, PyObject *name) {
  PyObject *v = PyObject_GetAttr(obj, name);
  if (!v) return -1;
  int r = PyObject_IsTrue(v);
  Py_DECREF(v);
  return r;
}

/* hooked_run(hooked, fetches, feed_dict, options, run_metadata): one
 * MonitoredSession step through the hooks (see the file comment); the
 * caller's fetched values. */
PyObject *tfc_py_mod_hooked_run(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
  (void)module;
  if (nargs != 5) {
    PyErr_SetString(PyExc_TypeError, "hooked_run takes 5 arguments");
    return NULL;
  }
  if (!run_context_cls) {
    PyErr_SetString(PyExc_RuntimeError, "set_hook_classes was not called");
    return NULL;
  }
  PyObject *self = args[0], *fetches = args[1], *feed_dict = args[2], *options = args[3],
           *run_metadata = args[4];
  PyObject *sess = NULL, *hooks = NULL, *original = NULL, *ctx = NULL, *actual = NULL,
           *outputs = NULL, *result = NULL;
  Py_INCREF(feed_dict);
  Py_INCREF(options);
  Py_INCREF(run_metadata);

  int stop = attr_true(self, s_should_stop);
  if (stop < 0) goto done;
  if (!stop) {
    int stoppable = attr_true(self, s_wrapped_is_stoppable);
    if (stoppable < 0) goto done;
    if (stoppable) {
      PyObject *inner = PyObject_GetAttr(self, s_sess);
      PyObject *v = inner ? PyObject_CallMethodNoArgs(inner, s_should_stop_method) : NULL;
      Py_XDECREF(inner);
      stop = v ? PyObject_IsTrue(v) : -1;
      Py_XDECREF(v);
      if (stop < 0) goto done;
    }
  }
  if (stop) {
    PyErr_SetString(PyExc_RuntimeError, "Run called even after should_stop requested.");
    goto done;
  }
  sess = PyObject_GetAttr(self, s_sess);
  hooks = sess ? PyObject_GetAttr(self, s_hooks) : NULL;
  if (!hooks) goto done;
  if (!PyList_Check(hooks)) {
    PyErr_SetString(PyExc_TypeError, "_hooks must be a list");
    goto done;
  }
  original = triple(run_args_cls, fetches, feed_dict, Py_None);
  if (!original) goto done;
  ctx = new_run_context(original, sess);
  if (!ctx) goto done;
  /* the session gets options and run metadata only when someone needs them */
  int pass_through = options != Py_None || run_metadata != Py_None;
  if (!pass_through) {
    pass_through = attr_true(self, s_collects_metadata);
    if (pass_through < 0) goto done;
  }
  /* the hooks see a RunOptions and a RunMetadata, made here when the caller
   * gave none; not when no hook's after_run reads them (_values_unread) */
  int unread = attr_true(self, s_values_unread);
  if (unread < 0) goto done;
  if (options == Py_None && !unread && make_into(self, s_new_options, &options) < 0) goto done;
  if (run_metadata == Py_None && !unread && make_into(self, s_new_metadata, &run_metadata) < 0) goto done;
  actual = PyDict_New();
  if (!actual || PyDict_SetItem(actual, s_caller, fetches) < 0) goto done;
  if (PyObject_SetAttr(self, s_hook_options, Py_False) < 0) goto done;
  Py_ssize_t n = PyList_GET_SIZE(hooks);
  /* a hook's code may change the list: every index is checked against its size now */
  for (Py_ssize_t i = 0; i < n && i < PyList_GET_SIZE(hooks); i++) {
    PyObject *hook = PyList_GET_ITEM(hooks, i);
    Py_INCREF(hook);
    PyObject *request = PyObject_CallMethodOneArg(hook, s_before_run, ctx);
    if (!request) {
      Py_DECREF(hook);
      goto done;
    }
    if (request == Py_None) {
      Py_DECREF(request);
      Py_DECREF(hook);
      continue;
    }
    int general = attr_true(request, s_feed_dict);
    if (general == 0) general = attr_true(request, s_options);
    if (general > 0 && options == Py_None && make_into(self, s_new_options, &options) < 0) general = -1;
    if (general != 0) {
      PyObject *rest = general > 0 ? PyList_GetSlice(hooks, i, PyList_GET_SIZE(hooks)) : NULL;
      PyObject *merged = NULL;
      if (rest) {
        PyObject *cargs[7] = {self, ctx, actual, feed_dict, options, rest, request};
        merged = PyObject_VectorcallMethod(s_call_hook_before_run, cargs,
                                           7 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
      }
      Py_XDECREF(rest);
      Py_DECREF(request);
      Py_DECREF(hook);
      if (!merged) goto done;
      Py_SETREF(feed_dict, merged);
      break;
    }
    PyObject *hook_fetches = PyObject_GetAttr(request, s_fetches);
    Py_DECREF(request);
    int rc = hook_fetches ? 0 : -1;
    if (hook_fetches && hook_fetches != Py_None) rc = PyDict_SetItem(actual, hook, hook_fetches);
    Py_XDECREF(hook_fetches);
    Py_DECREF(hook);
    if (rc < 0) goto done;
  }
  int hook_options = attr_true(self, s_hook_options);
  if (hook_options < 0) goto done;
  if (pass_through || hook_options) {
    if (options == Py_None && make_into(self, s_new_options, &options) < 0) goto done;
    if (run_metadata == Py_None && make_into(self, s_new_metadata, &run_metadata) < 0) goto done;
    PyObject *cargs[5] = {sess, actual, feed_dict, options, run_metadata};
    outputs = PyObject_VectorcallMethod(s_run, cargs, 5 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
  } else {
    PyObject *cargs[3] = {sess, actual, feed_dict};
    outputs = PyObject_VectorcallMethod(s_run, cargs, 3 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
  }
  if (!outputs) goto done;
  if (!PyDict_Check(outputs)) {
    PyErr_SetString(PyExc_TypeError, "the session returned no dict for a dict of fetches");
    goto done;
  }
  for (Py_ssize_t i = 0; i < PyList_GET_SIZE(hooks); i++) {
    PyObject *hook = PyList_GET_ITEM(hooks, i);
    Py_INCREF(hook);
    PyObject *value = PyDict_GetItemWithError(outputs, hook);
    if (!value && PyErr_Occurred()) {
      Py_DECREF(hook);
      goto done;
    }
    PyObject *values = triple(run_values_cls, value ? value : Py_None, options, run_metadata);
    PyObject *r = NULL;
    if (values) {
      PyObject *cargs[3] = {hook, ctx, values};
      r = PyObject_VectorcallMethod(s_after_run, cargs, 3 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
      Py_DECREF(values);
    }
    Py_DECREF(hook);
    if (!r) goto done;
    Py_DECREF(r);
  }
  int stop_requested = attr_true(ctx, s_stop_requested);
  if (stop_requested < 0) goto done;
  if (stop_requested && PyObject_SetAttr(self, s_should_stop, Py_True) < 0) goto done;
  result = PyDict_GetItemWithError(outputs, s_caller);
  if (result) {
    Py_INCREF(result);
  } else if (!PyErr_Occurred()) {
    PyErr_SetString(PyExc_KeyError, "caller");
  }
done:
  Py_XDECREF(outputs);
  Py_XDECREF(actual);
  Py_XDECREF(ctx);
  Py_XDECREF(original);
  Py_XDECREF(hooks);
  Py_XDECREF(sess);
  Py_DECREF(feed_dict);
  Py_DECREF(options);
  Py_DECREF(run_metadata);
  return result;
}
