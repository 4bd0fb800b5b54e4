/*
 * py_cluster.c — the ClusterSpec type of tfc._tfc: the jobs of a cluster and
 * the address of every task, as `{job: {task index: "host:port"}}`.
 *
 * ClusterSpec(jobs) takes that normalized form (tfc.train.ClusterSpec, a
 * subclass, turns dicts of lists, sparse dicts, ClusterDefs and other
 * ClusterSpecs into it and adds as_cluster_def()). The queries TF defines —
 * jobs, num_tasks, task_indices, task_address, job_tasks, as_dict — equality,
 * truth and the printed form are here, with TF's messages.
 */
#include "python/py_internal.h"

typedef struct ClusterSpecObject {
  PyObject_HEAD
  PyObject *jobs;   /* dict: str -> dict(int -> str); insertion order = TF's jobs order */
} ClusterSpecObject;

/* Validates and copies the normalized mapping; new dict or NULL + TypeError/ValueError. */
static PyObject *normalize(PyObject *jobs) {
  if (!PyDict_Check(jobs)) {
    PyErr_SetString(PyExc_TypeError, "ClusterSpec: expected {job: {task index: address}}");
    return NULL;
  }
  PyObject *out = PyDict_New();
  if (!out) return NULL;
  Py_ssize_t pos = 0;
  PyObject *job, *tasks;
  while (PyDict_Next(jobs, &pos, &job, &tasks)) {
    if (!PyUnicode_Check(job)) {
      PyErr_Format(PyExc_TypeError, "Job name %R must be bytes or unicode", job);
      goto fail;
    }
    if (!PyDict_Check(tasks)) {
      PyErr_Format(PyExc_TypeError,
                   "The tasks for job %R must be a list or a dictionary from integers to strings.",
                   job);
      goto fail;
    }
    PyObject *copy = PyDict_New();
    if (!copy || PyDict_SetItem(out, job, copy) < 0) {
      Py_XDECREF(copy);
      goto fail;
    }
    Py_DECREF(copy);
    Py_ssize_t tpos = 0;
    PyObject *idx, *addr;
    while (PyDict_Next(tasks, &tpos, &idx, &addr)) {
      if (!PyLong_Check(idx) || PyLong_AsLong(idx) < 0) {
        if (!PyErr_Occurred())
          PyErr_Format(PyExc_TypeError, "Task index %R in job %R must be a non-negative integer",
                       idx, job);
        goto fail;
      }
      PyObject *a = NULL;
      if (PyUnicode_Check(addr)) a = Py_NewRef(addr);
      else if (PyBytes_Check(addr)) a = PyUnicode_FromEncodedObject(addr, "utf-8", "strict");
      else PyErr_Format(PyExc_TypeError, "Task address %R must be bytes or unicode", addr);
      if (!a) goto fail;
      int rc = PyDict_SetItem(copy, idx, a);
      Py_DECREF(a);
      if (rc < 0) goto fail;
    }
  }
  return out;
fail:
  Py_DECREF(out);
  return NULL;
}

/* ClusterSpec.__init__(jobs): replaces the cluster with the normalized `jobs`. */
static int cs_init(PyObject *op, PyObject *args, PyObject *kwds) {
  ClusterSpecObject *self = (ClusterSpecObject *)op;
  static char *kwlist[] = {"jobs", NULL};
  PyObject *jobs;
  if (!PyArg_ParseTupleAndKeywords(args, kwds, "O:ClusterSpec", kwlist, &jobs)) return -1;
  PyObject *n = normalize(jobs);
  if (!n) return -1;
  Py_XSETREF(self->jobs, n);
  return 0;
}

/* The task dict of `job`, borrowed; NULL + ValueError "No such job in cluster". */
static PyObject *job_of(ClusterSpecObject *self, PyObject *job) {
  PyObject *tasks = self->jobs ? PyDict_GetItemWithError(self->jobs, job) : NULL;
  if (!tasks && !PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "No such job in cluster: %R", job);
  return tasks;
}

/* Sorted list of the task indices of a task dict; new reference. */
static PyObject *sorted_indices(PyObject *tasks) {
  PyObject *keys = PyDict_Keys(tasks);
  if (keys && PyList_Sort(keys) < 0) Py_CLEAR(keys);
  return keys;
}

/* jobs: the job names (list). */
static PyObject *cs_jobs(PyObject *op, void *closure) {
  (void)closure;
  ClusterSpecObject *self = (ClusterSpecObject *)op;
  return self->jobs ? PyDict_Keys(self->jobs) : PyList_New(0);
}

/* num_tasks(job_name) -> int. */
static PyObject *cs_num_tasks(PyObject *op, PyObject *job) {
  PyObject *tasks = job_of((ClusterSpecObject *)op, job);
  return tasks ? PyLong_FromSsize_t(PyDict_Size(tasks)) : NULL;
}

/* task_indices(job_name) -> sorted list of ints. */
static PyObject *cs_task_indices(PyObject *op, PyObject *job) {
  PyObject *tasks = job_of((ClusterSpecObject *)op, job);
  return tasks ? sorted_indices(tasks) : NULL;
}

/* task_address(job_name, task_index) -> str. */
static PyObject *cs_task_address(PyObject *op, PyObject *args) {
  PyObject *job, *idx;
  if (!PyArg_ParseTuple(args, "OO:task_address", &job, &idx)) return NULL;
  PyObject *tasks = job_of((ClusterSpecObject *)op, job);
  if (!tasks) return NULL;
  PyObject *a = PyDict_GetItemWithError(tasks, idx);
  if (!a && !PyErr_Occurred())
    PyErr_Format(PyExc_ValueError, "No task with index %R in job %R", idx, job);
  return a ? Py_NewRef(a) : NULL;
}

/* job_tasks(job_name) -> list indexed by task, None where a sparse job has no task. */
static PyObject *job_tasks_of(PyObject *tasks) {
  long n = 0;
  Py_ssize_t pos = 0;
  PyObject *idx, *addr;
  while (PyDict_Next(tasks, &pos, &idx, &addr)) {
    long i = PyLong_AsLong(idx);
    if (i + 1 > n) n = i + 1;
  }
  PyObject *list = PyList_New(n);
  if (!list) return NULL;
  for (long i = 0; i < n; i++) PyList_SET_ITEM(list, i, Py_NewRef(Py_None));
  pos = 0;
  while (PyDict_Next(tasks, &pos, &idx, &addr)) {
    long i = PyLong_AsLong(idx);
    Py_SETREF(PyList_GET_ITEM(list, i), Py_NewRef(addr));
  }
  return list;
}

/* job_tasks(job_name). */
static PyObject *cs_job_tasks(PyObject *op, PyObject *job) {
  PyObject *tasks = job_of((ClusterSpecObject *)op, job);
  return tasks ? job_tasks_of(tasks) : NULL;
}

/* as_dict(): {job: [addresses]} for dense jobs, {job: {index: address}} for
 * sparse ones, {} for a job without tasks (TF's rule). */
static PyObject *cs_as_dict(PyObject *op, PyObject *unused) {
  (void)unused;
  ClusterSpecObject *self = (ClusterSpecObject *)op;
  PyObject *out = PyDict_New();
  if (!out || !self->jobs) return out;
  Py_ssize_t pos = 0;
  PyObject *job, *tasks;
  while (PyDict_Next(self->jobs, &pos, &job, &tasks)) {
    Py_ssize_t n = PyDict_Size(tasks);
    PyObject *v;
    long maxi = -1;
    Py_ssize_t tpos = 0;
    PyObject *idx, *addr;
    while (PyDict_Next(tasks, &tpos, &idx, &addr)) {
      long i = PyLong_AsLong(idx);
      if (i > maxi) maxi = i;
    }
    if (n == 0) v = PyDict_New();
    else if (maxi + 1 == n) v = job_tasks_of(tasks);
    else v = PyDict_Copy(tasks);
    if (!v || PyDict_SetItem(out, job, v) < 0) {
      Py_XDECREF(v);
      Py_DECREF(out);
      return NULL;
    }
    Py_DECREF(v);
  }
  return out;
}

/* str(): "ClusterSpec({'ps': [...], 'worker': [...]})", jobs sorted. */
static PyObject *cs_str(PyObject *op) {
  PyObject *d = cs_as_dict(op, NULL);
  if (!d) return NULL;
  PyObject *keys = PyDict_Keys(d);
  PyObject *parts = keys ? PyList_New(0) : NULL;
  PyObject *result = NULL;
  if (parts && PyList_Sort(keys) == 0) {
    Py_ssize_t n = PyList_GET_SIZE(keys);
    Py_ssize_t i = 0;
    for (; i < n; i++) {
      PyObject *k = PyList_GET_ITEM(keys, i);
      PyObject *s = PyUnicode_FromFormat("%R: %R", k, PyDict_GetItem(d, k));
      if (!s || PyList_Append(parts, s) < 0) {
        Py_XDECREF(s);
        break;
      }
      Py_DECREF(s);
    }
    if (i == n) {
      PyObject *sep = PyUnicode_FromString(", ");
      PyObject *body = sep ? PyUnicode_Join(sep, parts) : NULL;
      if (body) result = PyUnicode_FromFormat("ClusterSpec({%U})", body);
      Py_XDECREF(body);
      Py_XDECREF(sep);
    }
  }
  Py_XDECREF(parts);
  Py_XDECREF(keys);
  Py_DECREF(d);
  return result;
}

/* ==, != between ClusterSpecs: the same jobs with the same tasks. */
static PyObject *cs_richcompare(PyObject *a, PyObject *b, int opid) {
  /* subclasses inherit this slot, so a shared slot means both are ClusterSpecs */
  if ((opid != Py_EQ && opid != Py_NE) || Py_TYPE(b)->tp_richcompare != cs_richcompare)
    Py_RETURN_NOTIMPLEMENTED;
  PyObject *ja = ((ClusterSpecObject *)a)->jobs, *jb = ((ClusterSpecObject *)b)->jobs;
  int eq = (ja && jb) ? PyObject_RichCompareBool(ja, jb, Py_EQ) : ja == jb;
  if (eq < 0) return NULL;
  return PyBool_FromLong(opid == Py_EQ ? eq : !eq);
}

/* bool(): a cluster with at least one job. */
static int cs_bool(PyObject *op) {
  ClusterSpecObject *self = (ClusterSpecObject *)op;
  return self->jobs && PyDict_Size(self->jobs) > 0;
}

/* _jobs_dict(): a copy of {job: {index: address}} (for as_cluster_def). */
static PyObject *cs_jobs_dict(PyObject *op, PyObject *unused) {
  (void)unused;
  ClusterSpecObject *self = (ClusterSpecObject *)op;
  return self->jobs ? normalize(self->jobs) : PyDict_New();
}

/* GC traverse. */
static int cs_traverse(PyObject *op, visitproc visit, void *arg) {
  Py_VISIT(Py_TYPE(op));
  Py_VISIT(((ClusterSpecObject *)op)->jobs);
  return 0;
}

/* GC clear. */
static int cs_clear(PyObject *op) {
  Py_CLEAR(((ClusterSpecObject *)op)->jobs);
  return 0;
}

/* Dealloc. */
static void cs_dealloc(PyObject *op) {
  PyTypeObject *tp = Py_TYPE(op);
  PyObject_GC_UnTrack(op);
  cs_clear(op);
  tp->tp_free(op);
  Py_DECREF(tp);
}

static PyMethodDef cs_methods[] = {
    {"num_tasks", cs_num_tasks, METH_O, "num_tasks(job_name): the number of tasks of the job."},
    {"task_indices", cs_task_indices, METH_O, "task_indices(job_name): sorted task indices."},
    {"task_address", cs_task_address, METH_VARARGS,
     "task_address(job_name, task_index): the task's \"host:port\"."},
    {"job_tasks", cs_job_tasks, METH_O,
     "job_tasks(job_name): addresses indexed by task (None where a sparse job has none)."},
    {"as_dict", cs_as_dict, METH_NOARGS,
     "as_dict(): {job: [address, ...]} (dense jobs) or {job: {index: address}} (sparse)."},
    {"_jobs_dict", cs_jobs_dict, METH_NOARGS, "{job: {index: address}} (a copy)."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef cs_getset[] = {
    {"jobs", cs_jobs, NULL, "The job names, in the order they were given.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyType_Slot cs_slots[] = {
    {Py_tp_doc, "ClusterSpec(jobs): the tasks of a cluster, {job: {task index: address}}."},
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_init, cs_init},
    {Py_tp_dealloc, cs_dealloc},
    {Py_tp_traverse, cs_traverse},
    {Py_tp_clear, cs_clear},
    {Py_tp_methods, cs_methods},
    {Py_tp_getset, cs_getset},
    {Py_tp_str, cs_str},
    {Py_tp_repr, cs_str},
    {Py_tp_richcompare, cs_richcompare},
    {Py_tp_hash, PyObject_HashNotImplemented},
    {Py_nb_bool, cs_bool},
    {0, NULL}};

PyType_Spec tfc_py_cluster_spec_spec = {
    .name = "tfc._tfc.ClusterSpec",
    .basicsize = sizeof(ClusterSpecObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .slots = cs_slots,
};
