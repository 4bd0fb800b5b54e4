/*
 * py_server.c — the Server type of tfc._tfc (one task of a cluster: master
 * and worker services on one gRPC port) and the module functions a grpc://
 * client needs besides Session (list_devices, reset).
 *
 * Server(server_def_bytes) parses the ServerDef; start() binds and serves;
 * join() waits (waking every 100 ms to let Python handle signals); stop()
 * shuts the port down. gRPC is initialised by the first start() or grpc://
 * call, never at import.
 */
#include "python/py_internal.h"

#include <string.h>

#include "distributed/grpc_session.h"
#include "distributed/rpc.h"
#include "distributed/server.h"
#include "distributed/wire.h"

typedef struct ServerObject {
  PyObject_HEAD
  PyObject *module;
  tfc_mod_state *ms;
  tfc_server *s;
} ServerObject;

/* Raises the tfc.errors class for st (or RuntimeError before registration). */
static PyObject *raise_status(tfc_mod_state *ms, const tfc_status *st) {
  return tfc_py_raise_status(ms, NULL, st);
}

/* Server.__new__(server_def: bytes). */
static PyObject *server_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
  static char *kwlist[] = {"server_def", NULL};
  Py_buffer def;
  if (!PyArg_ParseTupleAndKeywords(args, kwds, "y*:Server", kwlist, &def)) return NULL;
  PyObject *module = tfc_py_module_of_type(type);
  if (!module) {
    PyBuffer_Release(&def);
    return NULL;
  }
  ServerObject *self = (ServerObject *)type->tp_alloc(type, 0);
  if (!self) {
    PyBuffer_Release(&def);
    return NULL;
  }
  self->module = Py_NewRef(module);
  self->ms = tfc_py_state(module);
  tfc_status st;
  tfc_status_clear(&st);
  self->s = tfc_server_new(def.buf, (size_t)def.len, &st);
  PyBuffer_Release(&def);
  if (!self->s) {
    raise_status(self->ms, &st);
    Py_DECREF(self);
    return NULL;
  }
  return (PyObject *)self;
}

/* Server.start(): binds the port and serves. */
static PyObject *server_start(ServerObject *self, PyObject *unused) {
  (void)unused;
  tfc_status st;
  tfc_status_clear(&st);
  bool ok;
  Py_BEGIN_ALLOW_THREADS
  ok = tfc_server_start(self->s, &st);
  Py_END_ALLOW_THREADS
  if (!ok) return raise_status(self->ms, &st);
  Py_RETURN_NONE;
}

/* Server.stop(): stops serving (idempotent). */
static PyObject *server_stop(ServerObject *self, PyObject *unused) {
  (void)unused;
  Py_BEGIN_ALLOW_THREADS
  tfc_server_stop(self->s);
  Py_END_ALLOW_THREADS
  Py_RETURN_NONE;
}

/* Server.join(timeout=None) -> bool: blocks until stop() or a Shutdown call
 * (at most timeout seconds), handling Python signals meanwhile; True once
 * the server has stopped. */
static PyObject *server_join(ServerObject *self, PyObject *args, PyObject *kwds) {
  static char *kwlist[] = {"timeout", NULL};
  PyObject *timeout_obj = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwds, "|O:join", kwlist, &timeout_obj)) return NULL;
  double timeout = -1;
  if (timeout_obj != Py_None) {
    timeout = PyFloat_AsDouble(timeout_obj);
    if (timeout == -1 && PyErr_Occurred()) return NULL;
    if (timeout < 0) timeout = 0;
  }
  long long left_ms = timeout >= 0 ? (long long)(timeout * 1000) : -1;
  for (;;) {
    int slice = 100;
    if (left_ms >= 0 && left_ms < slice) slice = (int)left_ms;
    bool stopped;
    Py_BEGIN_ALLOW_THREADS
    stopped = tfc_server_join_for(self->s, slice);
    Py_END_ALLOW_THREADS
    if (stopped) Py_RETURN_TRUE;
    if (PyErr_CheckSignals() < 0) return NULL;
    if (left_ms >= 0) {
      left_ms -= slice;
      if (left_ms <= 0) Py_RETURN_FALSE;
    }
  }
}

/* Server.set_bind(host): the host to listen on (before start). */
static PyObject *server_set_bind(ServerObject *self, PyObject *arg) {
  const char *host = PyUnicode_AsUTF8(arg);
  if (!host) return NULL;
  tfc_status st;
  tfc_status_clear(&st);
  if (!tfc_server_set_bind(self->s, host, &st)) return raise_status(self->ms, &st);
  Py_RETURN_NONE;
}

/* Server.idle_seconds: seconds since the last call other than GetStatus, or None. */
static PyObject *server_get_idle(ServerObject *self, void *c) {
  (void)c;
  double idle = tfc_server_idle_seconds(self->s);
  if (idle < 0) Py_RETURN_NONE;
  return PyFloat_FromDouble(idle);
}

/* Server.address: "host:port" of this task (the bound port once started). */
static PyObject *server_get_address(ServerObject *self, void *c) {
  (void)c;
  return PyUnicode_FromString(tfc_server_address(self->s));
}

/* Server.task_name: "/job:J/replica:0/task:T". */
static PyObject *server_get_task_name(ServerObject *self, void *c) {
  (void)c;
  return PyUnicode_FromString(tfc_server_task_name(self->s));
}

static int server_traverse(ServerObject *self, visitproc visit, void *arg) {
  Py_VISIT(Py_TYPE(self));
  Py_VISIT(self->module);
  return 0;
}

static void server_dealloc(ServerObject *self) {
  PyTypeObject *tp = Py_TYPE(self);
  PyObject_GC_UnTrack(self);
  if (self->s) {
    tfc_server *s = self->s;
    self->s = NULL;
    Py_BEGIN_ALLOW_THREADS
    tfc_server_free(s);
    Py_END_ALLOW_THREADS
  }
  Py_CLEAR(self->module);
  tp->tp_free(self);
  Py_DECREF(tp);
}

static PyMethodDef server_methods[] = {
    {"start", (PyCFunction)server_start, METH_NOARGS, "Binds the port and starts serving."},
    {"stop", (PyCFunction)server_stop, METH_NOARGS, "Stops serving."},
    {"join", (PyCFunction)(void (*)(void))server_join, METH_VARARGS | METH_KEYWORDS,
     "join(timeout=None) -> bool: blocks until the server stops (or a Shutdown call came)."},
    {"set_bind", (PyCFunction)server_set_bind, METH_O, "set_bind(host): the host to listen on (before start)."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef server_getset[] = {
    {"address", (getter)server_get_address, NULL, "host:port of this task", NULL},
    {"task_name", (getter)server_get_task_name, NULL, "/job:J/replica:0/task:T", NULL},
    {"idle_seconds", (getter)server_get_idle, NULL, "seconds since the last call other than GetStatus, or None",
     NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyType_Slot server_slots[] = {
    {Py_tp_doc, "Server(server_def): one task of a cluster (MasterService and WorkerService)."},
    {Py_tp_new, server_new},
    {Py_tp_dealloc, server_dealloc},
    {Py_tp_traverse, server_traverse},
    {Py_tp_methods, server_methods},
    {Py_tp_getset, server_getset},
    {0, NULL}};

PyType_Spec tfc_py_server_spec = {
    .name = "tfc._tfc.Server",
    .basicsize = sizeof(ServerObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .slots = server_slots,
};

/* grpc_list_devices(target, timeout_ms) -> [(name, device_type, memory_limit, incarnation)]. */
PyObject *tfc_py_mod_grpc_list_devices(PyObject *module, PyObject *args) {
  const char *target;
  long long timeout = 0;
  if (!PyArg_ParseTuple(args, "s|L:grpc_list_devices", &target, &timeout)) return NULL;
  tfc_status st;
  tfc_status_clear(&st);
  uint8_t *data = NULL;
  size_t len = 0;
  bool ok;
  Py_BEGIN_ALLOW_THREADS
  ok = tfc_grpc_list_devices(target, timeout, &data, &len, &st);
  Py_END_ALLOW_THREADS
  if (!ok) return raise_status(tfc_py_state(module), &st);
  PyObject *list = PyList_New(0);
  size_t pos = 0;
  tfc_wfield f;
  while (list && tfc_wire_next(data, len, &pos, &f)) {
    if (f.wire != 2 || (f.number != 1 && f.number != 2)) continue;
    size_t p2 = 0;
    tfc_wfield g;
    const uint8_t *name = NULL, *type = NULL;
    size_t nn = 0, tn = 0;
    long long mem = 0;
    unsigned long long inc = 0;
    while (tfc_wire_next(f.p, f.n, &p2, &g)) {
      if (g.number == 1 && g.wire == 2) {
        name = g.p;
        nn = g.n;
      } else if (g.number == 2 && g.wire == 2) {
        type = g.p;
        tn = g.n;
      } else if (g.number == 4 && g.wire == 0) {
        mem = (long long)g.v;
      } else if (g.number == 6 && g.wire == 1) {
        inc = g.v;
      }
    }
    PyObject *item = Py_BuildValue("(s#s#LK)", name ? (const char *)name : "", (Py_ssize_t)nn,
                                   type ? (const char *)type : "", (Py_ssize_t)tn, mem, inc);
    if (!item || PyList_Append(list, item) < 0) Py_CLEAR(list);
    Py_XDECREF(item);
  }
  tfc_free(data);
  return list;
}

/* grpc_reset(target, containers: list of str). */
PyObject *tfc_py_mod_grpc_reset(PyObject *module, PyObject *args) {
  const char *target;
  PyObject *containers;
  if (!PyArg_ParseTuple(args, "sO:grpc_reset", &target, &containers)) return NULL;
  PyObject *seq = PySequence_Fast(containers, "containers must be a sequence of strings");
  if (!seq) return NULL;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  const char **names = tfc_calloc((size_t)n + 1, sizeof(char *));
  if (!names) {
    Py_DECREF(seq);
    return PyErr_NoMemory();
  }
  for (Py_ssize_t i = 0; i < n; i++) {
    names[i] = PyUnicode_AsUTF8(PySequence_Fast_GET_ITEM(seq, i));
    if (!names[i]) {
      tfc_free(names);
      Py_DECREF(seq);
      return NULL;
    }
  }
  tfc_status st;
  tfc_status_clear(&st);
  bool ok;
  Py_BEGIN_ALLOW_THREADS
  ok = tfc_grpc_reset(target, (int)n, names, &st);
  Py_END_ALLOW_THREADS
  tfc_free(names);
  Py_DECREF(seq);
  if (!ok) return raise_status(tfc_py_state(module), &st);
  Py_RETURN_NONE;
}

/* _grpc_initialized() -> bool: whether gRPC was started in this process. */
PyObject *tfc_py_mod_grpc_initialized(PyObject *module, PyObject *unused) {
  (void)module;
  (void)unused;
  return PyBool_FromLong(tfc_rpc_initialized());
}

/* _grpc_call(target, method_path, request: bytes, timeout_ms) -> response bytes: one raw
 * unary call (tests of the wire behaviour); errors raise the tfc.errors class. */
PyObject *tfc_py_mod_grpc_call(PyObject *module, PyObject *args) {
  const char *target, *method;
  Py_buffer req;
  long long timeout = 10000;
  if (!PyArg_ParseTuple(args, "ssy*|L:_grpc_call", &target, &method, &req, &timeout)) return NULL;
  tfc_status st;
  tfc_status_clear(&st);
  tfc_rpc_buf resp = {0};
  tfc_rpc_slice s = {req.buf, (size_t)req.len, NULL, NULL};
  bool ok;
  Py_BEGIN_ALLOW_THREADS
  ok = tfc_rpc_unary(target, method, &s, 1, timeout, &resp, &st);
  Py_END_ALLOW_THREADS
  PyBuffer_Release(&req);
  if (!ok) return raise_status(tfc_py_state(module), &st);
  PyObject *r = PyBytes_FromStringAndSize((const char *)resp.data, (Py_ssize_t)resp.len);
  tfc_rpc_buf_free(&resp);
  return r;
}
