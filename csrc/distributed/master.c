/*
 * master.c — tensorflow.MasterService (see master.h).
 *
 * Requests that carry tensors (RunStep) are read at the wire level so fed
 * TensorProto bytes are forwarded to the workers without being decoded, and
 * fetched TensorProto bytes from the workers go back to the client as they
 * came. Small control messages are unpacked with protobuf-c.
 */
#include "distributed/master.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/hashmap.h"
#include "distributed/server_log.h"
#include "graph/device_name.h"
#include "graph/function_lib.h"
#include "graph/graphdef.h"
#include "graph/graphdef_pb.h"
#include "graph/subgraph.h"
#include "runtime/rendezvous.h"
#include "config.pb-c.h"
#include "graph.pb-c.h"
#include "worker.pb-c.h"

typedef struct mpart {
  int task;
  const char *device;        /* borrowed from the session's device list */
  char *graph_handle;
  int n_feeds;
  int *feed_idx;             /* feeds this partition reads */
  char **feed_keys;
  int n_recv;
  int *fetch_idx;            /* fetches this partition produces */
  char **recv_keys;
  void *gdef;                /* the registered GraphDef (for output_partition_graphs) */
  size_t gdef_len;
} mpart;

typedef struct mplan {
  int n_parts;
  mpart *parts;
  int n_fetches;
  int *fetch_feed;           /* fetch i is fed: the feed index, else -1 */
} mplan;

typedef struct msession {
  char *handle;
  tfc_graph *g;
  int64_t version;
  bool log_placement;
  bool allow_soft_placement;
  int64_t op_timeout_ms;
  int n_dev;
  char **dev_names;
  tfc_device_name *dev_parsed;
  int *dev_task;
  int64_t *dev_inc;          /* incarnation per device (GetStatus) */
  int64_t incarnation;
  pthread_mutex_t mu;        /* plans, graph extension */
  tfc_hashmap plans;         /* signature -> mplan* */
  int plan_counter;
  tfc_hashmap callables;     /* int64 handle -> step_req* (MakeCallable), under mu */
  int64_t next_callable;
  int refs;                  /* guarded by the master's mu */
} msession;

struct tfc_master {
  const tfc_cluster *c;
  tfc_worker *local;
  pthread_mutex_t mu;
  tfc_hashmap sessions;      /* handle -> msession* */
};

/* ------------------------------------------------------------ calls */

/* Calls a task's worker method (see master.h). */
bool tfc_master_call_task(tfc_master *m, int task, tfc_method meth, const void *req, size_t len,
                          int64_t timeout_ms, tfc_rpc_buf *resp, tfc_status *st) {
  resp->data = NULL;
  resp->len = 0;
  if (task == m->c->self) {
    tfc_msg msg = {0};
    if (!tfc_worker_handle(m->local, meth, req, len, timeout_ms > 0 ? timeout_ms : INT64_MAX, &msg, st))
      return false;
    size_t n = 0;
    for (int i = 0; i < msg.n; i++) n += msg.s[i].len;
    resp->data = tfc_malloc(n ? n : 1);
    if (!resp->data) {
      tfc_msg_release(&msg);
      return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    }
    for (int i = 0; i < msg.n; i++) {
      if (msg.s[i].len) memcpy(resp->data + resp->len, msg.s[i].data, msg.s[i].len);
      resp->len += msg.s[i].len;
    }
    tfc_msg_release(&msg);
    return true;
  }
  tfc_rpc_slice s = {req, len, NULL, NULL};
  tfc_status rst;
  tfc_status_clear(&rst);
  const tfc_task *t = &m->c->tasks[task];
  const char *self = m->c->tasks[m->c->self].name;
  if (tfc_rpc_unary(t->address, tfc_method_paths[meth], &s, 1, timeout_ms, resp, &rst)) {
    tfc_peer_ok(self, t);
    return true;
  }
  /* a failure of the transport itself (not a status the task answered) names the address */
  bool transport = (rst.code == TFC_CODE_UNAVAILABLE || rst.code == TFC_CODE_DEADLINE_EXCEEDED) &&
                   strncmp(rst.msg, "From ", 5) != 0;
  if (transport) {
    tfc_peer_failed(self, t, &rst);
    if (rst.code == TFC_CODE_UNAVAILABLE)
      tfc_status_set(st, rst.code, "From %s:\n%s at %s is unreachable (%s): %s", t->name, t->name, t->address,
                     tfc_method_paths[meth] + 1, rst.msg);
    else
      tfc_status_set(st, rst.code, "From %s:\n%s at %s did not answer %s in time: %s", t->name, t->name,
                     t->address, tfc_method_paths[meth] + 1, rst.msg);
  } else {
    tfc_status_set(st, rst.code, "From %s:\n%s", t->name, rst.msg);
  }
  strcpy(st->node, rst.node);
  return false;
}

/* ------------------------------------------------------------ sessions */

/* Frees a plan, deregistering its graphs (errors ignored: best effort). */
static void plan_free(tfc_master *m, const char *session, mplan *p) {
  if (!p) return;
  for (int i = 0; i < p->n_parts; i++) {
    mpart *q = &p->parts[i];
    if (q->graph_handle) {
      tfc_wbuf b;
      tfc_wbuf_init(&b);
      tfc_wbuf_string(&b, 1, q->graph_handle);
      tfc_wbuf_string(&b, 2, session);
      tfc_rpc_buf r;
      tfc_status st;
      tfc_master_call_task(m, q->task, TFC_M_DEREGISTER_GRAPH, b.data, b.len, 10000, &r, &st);
      tfc_rpc_buf_free(&r);
      tfc_wbuf_free(&b);
    }
    for (int k = 0; k < q->n_feeds; k++) tfc_free(q->feed_keys[k]);
    for (int k = 0; k < q->n_recv; k++) tfc_free(q->recv_keys[k]);
    tfc_free(q->feed_idx);
    tfc_free(q->feed_keys);
    tfc_free(q->fetch_idx);
    tfc_free(q->recv_keys);
    tfc_free(q->graph_handle);
    tfc_free(q->gdef);
  }
  tfc_free(p->parts);
  tfc_free(p->fetch_feed);
  tfc_free(p);
}

static void callable_free(void *p);

/* Tells every task of the session to delete its worker session, which also
 * cancels the session's steps still running there. */
static void delete_worker_sessions(tfc_master *m, msession *s) {
  tfc_wbuf b;
  tfc_wbuf_init(&b);
  tfc_wbuf_string(&b, 1, s->handle);
  bool *seen = tfc_calloc((size_t)m->c->n_tasks + 1, sizeof(bool));
  for (int i = 0; seen && i < s->n_dev; i++) {
    if (seen[s->dev_task[i]]) continue;
    seen[s->dev_task[i]] = true;
    tfc_rpc_buf r;
    tfc_status st;
    tfc_master_call_task(m, s->dev_task[i], TFC_M_DELETE_WORKER_SESSION, b.data, b.len, 10000, &r, &st);
    tfc_rpc_buf_free(&r);
  }
  tfc_free(seen);
  tfc_wbuf_free(&b);
}

/* Frees a session: its plans' graphs are deregistered, workers forget it. */
static void session_free(tfc_master *m, msession *s) {
  for (size_t i = 0; i < s->plans.cap; i++) {
    const char *k;
    size_t kl;
    void *v;
    if (tfc_hashmap_slot(&s->plans, i, &k, &kl, &v)) plan_free(m, s->handle, v);
  }
  tfc_hashmap_destroy(&s->plans);
  for (size_t i = 0; i < s->callables.cap; i++) {
    const char *k;
    size_t kl;
    void *v;
    if (tfc_hashmap_slot(&s->callables, i, &k, &kl, &v)) callable_free(v);
  }
  tfc_hashmap_destroy(&s->callables);
  delete_worker_sessions(m, s);
  for (int i = 0; i < s->n_dev; i++) tfc_free(s->dev_names[i]);
  tfc_free(s->dev_names);
  tfc_free(s->dev_parsed);
  tfc_free(s->dev_task);
  tfc_free(s->dev_inc);
  tfc_graph_unref(s->g);
  pthread_mutex_destroy(&s->mu);
  tfc_free(s->handle);
  tfc_free(s);
}

/* Looks a session up (new reference) or fails with TF's ABORTED. */
static msession *session_get(tfc_master *m, const char *h, tfc_status *st) {
  pthread_mutex_lock(&m->mu);
  bool found = false;
  msession *s = tfc_hashmap_get(&m->sessions, h, strlen(h), &found);
  if (found) s->refs++;
  pthread_mutex_unlock(&m->mu);
  if (!found)
    tfc_status_set(st, TFC_CODE_ABORTED, "Session %s is not found. Possibly, this master has restarted.", h);
  return found ? s : NULL;
}

/* Drops a session reference; the last one frees it. */
static void session_put(tfc_master *m, msession *s) {
  pthread_mutex_lock(&m->mu);
  bool last = --s->refs == 0;
  pthread_mutex_unlock(&m->mu);
  if (last) session_free(m, s);
}

/* Creates a master. */
tfc_master *tfc_master_new(const tfc_cluster *c, tfc_worker *local, tfc_status *st) {
  tfc_master *m = tfc_calloc(1, sizeof *m);
  if (!m) {
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory creating a master");
    return NULL;
  }
  m->c = c;
  m->local = local;
  pthread_mutex_init(&m->mu, NULL);
  tfc_hashmap_init(&m->sessions);
  return m;
}

/* Removes every session from the map and drops the map's references. */
static void close_all(tfc_master *m) {
  for (;;) {
    msession *victim = NULL;
    pthread_mutex_lock(&m->mu);
    for (size_t i = 0; i < m->sessions.cap && !victim; i++) {
      const char *k;
      size_t kl;
      void *v;
      if (tfc_hashmap_slot(&m->sessions, i, &k, &kl, &v)) victim = v;
    }
    if (victim) tfc_hashmap_remove(&m->sessions, victim->handle, strlen(victim->handle));
    pthread_mutex_unlock(&m->mu);
    if (!victim) break;
    tfc_server_log(m->c->tasks[m->c->self].name, "session %s closed (reset or shutdown)", victim->handle);
    session_put(m, victim);
  }
}

/* Frees the master. */
void tfc_master_free(tfc_master *m) {
  if (!m) return;
  close_all(m);
  tfc_hashmap_destroy(&m->sessions);
  pthread_mutex_destroy(&m->mu);
  tfc_free(m);
}

/* ------------------------------------------------------------ devices */

/* True when task t passes the device filters (none: every task). */
static bool task_passes(const tfc_task *t, char **filters, size_t n) {
  if (n == 0) return true;
  tfc_device_name dev;
  tfc_status st;
  if (!tfc_device_name_parse(t->device, &dev, &st)) return false;
  for (size_t i = 0; i < n; i++) {
    tfc_device_name f;
    if (tfc_device_name_parse(filters[i], &f, &st) && tfc_device_name_compatible(&f, &dev)) return true;
  }
  return false;
}

/* GetStatus of one task, retried while it is unavailable (tasks of a cluster
 * start in any order) until timeout_ms. */
static bool get_status(tfc_master *m, int task, int64_t timeout_ms, tfc_rpc_buf *resp, tfc_status *st) {
  struct timespec t0, now;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  int delay_ms = 10;
  for (;;) {
    clock_gettime(CLOCK_MONOTONIC, &now);
    int64_t el = (int64_t)(now.tv_sec - t0.tv_sec) * 1000 + (now.tv_nsec - t0.tv_nsec) / 1000000;
    int64_t call_ms = timeout_ms - el < 5000 ? timeout_ms - el : 5000;
    if (call_ms < 100) call_ms = 100;
    if (tfc_master_call_task(m, task, TFC_M_GET_STATUS, "", 0, call_ms, resp, st)) return true;
    if (st->code != TFC_CODE_UNAVAILABLE) return false;
    clock_gettime(CLOCK_MONOTONIC, &now);
    el = (int64_t)(now.tv_sec - t0.tv_sec) * 1000 + (now.tv_nsec - t0.tv_nsec) / 1000000;
    if (el + delay_ms > timeout_ms) return false;
    usleep((useconds_t)delay_ms * 1000);
    if (delay_ms < 500) delay_ms *= 2;
  }
}

/* How long CreateSession waits for tasks that do not answer yet (tasks of a
 * cluster start in any order): ConfigProto.operation_timeout_in_ms when set,
 * else TFC_CREATE_SESSION_WAIT_MS, else 20 s. */
static int64_t create_wait_ms(int64_t op_timeout_ms) {
  if (op_timeout_ms > 0) return op_timeout_ms;
  const char *v = getenv("TFC_CREATE_SESSION_WAIT_MS");
  long long ms = v ? atoll(v) : 0;
  return ms > 0 ? ms : 20000;
}

/* Appends the DeviceAttributes entries of a GetStatusResponse to the session's devices. */
static bool add_devices(msession *s, int task, const tfc_rpc_buf *b, tfc_status *st) {
  Tensorflow__GetStatusResponse *r = (Tensorflow__GetStatusResponse *)tfc_pb_unpack(
      &tensorflow__get_status_response__descriptor, b->data ? b->data : (const uint8_t *)"", b->len,
      "GetStatusResponse", st);
  if (!r) return false;
  bool ok = true;
  size_t n = (size_t)s->n_dev + r->n_device_attributes;
  char **names = tfc_realloc(s->dev_names, sizeof(char *) * (n ? n : 1));
  if (names) s->dev_names = names;
  tfc_device_name *parsed = tfc_realloc(s->dev_parsed, sizeof(tfc_device_name) * (n ? n : 1));
  if (parsed) s->dev_parsed = parsed;
  int *tasks = tfc_realloc(s->dev_task, sizeof(int) * (n ? n : 1));
  if (tasks) s->dev_task = tasks;
  int64_t *incs = tfc_realloc(s->dev_inc, sizeof(int64_t) * (n ? n : 1));
  if (incs) s->dev_inc = incs;
  if (!names || !parsed || !tasks || !incs) ok = tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  for (size_t i = 0; ok && i < r->n_device_attributes; i++) {
    const char *name = r->device_attributes[i]->name;
    tfc_device_name d;
    if (!tfc_device_name_parse(name, &d, st) || !d.has_job || !d.has_task || !d.has_type) {
      ok = tfc_status_set(st, TFC_CODE_INTERNAL, "Task answered GetStatus with an invalid device name '%s'", name);
      break;
    }
    if (!(s->dev_names[s->n_dev] = tfc_strdup(name))) {
      ok = tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
      break;
    }
    s->dev_parsed[s->n_dev] = d;
    s->dev_task[s->n_dev] = task;
    s->dev_inc[s->n_dev] = (int64_t)r->device_attributes[i]->incarnation;
    s->n_dev++;
  }
  protobuf_c_message_free_unpacked(&r->base, &tfc_pb_allocator);
  return ok;
}

/* Finds the devices of every task passing the filters, own task first. */
static bool discover(tfc_master *m, msession *s, char **filters, size_t n_filters, int64_t timeout_ms,
                     tfc_status *st) {
  int n = m->c->n_tasks;
  for (int k = 0; k < n; k++) {
    int t = k == 0 ? m->c->self : (k <= m->c->self ? k - 1 : k);
    if (!task_passes(&m->c->tasks[t], filters, n_filters) && t != m->c->self) continue;
    tfc_rpc_buf b;
    bool ok = get_status(m, t, timeout_ms, &b, st);
    if (!ok && (st->code == TFC_CODE_UNAVAILABLE || st->code == TFC_CODE_DEADLINE_EXCEEDED)) {
      /* name the task, its address and the wait, instead of waiting forever as TF 1.x does */
      tfc_status cause;
      tfc_status_copy(&cause, st);
      const char *nl = strchr(cause.msg, '\n');
      tfc_status_set(st, cause.code, "CreateSession: task %s at %s did not answer within %lld ms (the wait is "
                     "ConfigProto.operation_timeout_in_ms, else TFC_CREATE_SESSION_WAIT_MS): %s",
                     m->c->tasks[t].name, m->c->tasks[t].address, (long long)timeout_ms,
                     nl ? nl + 1 : cause.msg);
    }
    if (ok) ok = add_devices(s, t, &b, st);
    tfc_rpc_buf_free(&b);
    if (!ok) return false;
  }
  return true;
}

/* ------------------------------------------------------------ methods */

/* A random session handle (16 hex digits). */
static void random_handle(char *buf, size_t size) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  static _Atomic uint64_t counter;
  uint64_t next = atomic_fetch_add(&counter, 0x9e3779b97f4a7c15ULL) + 0x9e3779b97f4a7c15ULL;
  uint64_t x = ((uint64_t)ts.tv_nsec << 20) ^ (uint64_t)ts.tv_sec ^ ((uint64_t)getpid() << 40) ^ next;
  x ^= x >> 31;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 29;
  snprintf(buf, size, "%016" PRIx64, x);
}

/* Imports GraphDef bytes into the session's graph. A delta (ExtendSession)
 * names nodes the graph already has as inputs: those become input_map
 * entries pointing at the existing nodes. */
static bool extend_graph(msession *s, const uint8_t *gd, size_t n, tfc_status *st) {
  if (!gd || n == 0) return true;
  tfc_import_options o = {0};
  if (tfc_graph_num_nodes(s->g) == 0) return tfc_graph_import(s->g, gd, n, &o, NULL, st);
  Tensorflow__GraphDef *g = (Tensorflow__GraphDef *)tfc_pb_unpack(&tensorflow__graph_def__descriptor, gd, n,
                                                                   "GraphDef", st);
  if (!g) return false;
  tfc_hashmap own, seen;
  tfc_hashmap_init(&own);
  tfc_hashmap_init(&seen);
  size_t cap = 0;
  for (size_t i = 0; i < g->n_node; i++) cap += g->node[i]->n_input;
  tfc_import_mapping *map = tfc_calloc(cap + 1, sizeof *map);
  bool ok = map != NULL;
  for (size_t i = 0; ok && i < g->n_node; i++)
    ok = tfc_hashmap_put(&own, g->node[i]->name, strlen(g->node[i]->name), NULL) == 0;
  int nm = 0;
  for (size_t i = 0; ok && i < g->n_node; i++) {
    for (size_t k = 0; ok && k < g->node[i]->n_input; k++) {
      const char *in = g->node[i]->input[k];
      const char *name = in[0] == '^' ? in + 1 : in;
      const char *colon = strrchr(name, ':');
      size_t len = colon ? (size_t)(colon - name) : strlen(name);
      bool found = false;
      tfc_hashmap_get(&own, name, len, &found);
      if (found) continue;
      tfc_hashmap_get(&seen, in, strlen(in), &found);
      if (found) continue;
      char buf[512];
      snprintf(buf, sizeof buf, "%.*s", (int)len, name);
      tfc_node *node = tfc_graph_find(s->g, buf);
      if (!node) continue; /* the import reports the unknown input */
      map[nm].key = in;
      map[nm].value.node = node->id;
      map[nm].value.index = in[0] == '^' ? -1 : (colon ? atoi(colon + 1) : 0);
      nm++;
      ok = tfc_hashmap_put(&seen, in, strlen(in), NULL) == 0;
    }
  }
  if (!ok) {
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  } else {
    o.n_input_map = nm;
    o.input_map = map;
    ok = tfc_graph_import(s->g, gd, n, &o, NULL, st);
  }
  tfc_free(map);
  tfc_hashmap_destroy(&own);
  tfc_hashmap_destroy(&seen);
  protobuf_c_message_free_unpacked(&g->base, &tfc_pb_allocator);
  return ok;
}

/* CreateSession. */
static bool create_session(tfc_master *m, const uint8_t *req, size_t len, tfc_msg *resp, tfc_status *st) {
  const uint8_t *gd = NULL, *cfg = NULL;
  size_t gn = 0, cn = 0;
  tfc_wire_find_ld(req, len, 1, &gd, &gn);
  tfc_wire_find_ld(req, len, 2, &cfg, &cn);
  Tensorflow__ConfigProto *config = NULL;
  if (cfg) {
    config = (Tensorflow__ConfigProto *)tfc_pb_unpack(&tensorflow__config_proto__descriptor, cfg, cn,
                                                      "ConfigProto", st);
    if (!config) return false;
  } else if (m->c->default_config) {
    config = (Tensorflow__ConfigProto *)tfc_pb_unpack(&tensorflow__config_proto__descriptor,
                                                      m->c->default_config, m->c->default_config_len,
                                                      "ConfigProto", st);
    if (!config) return false;
  }
  if (config && (config->use_per_session_threads || config->n_session_inter_op_thread_pool > 0)) {
    protobuf_c_message_free_unpacked(&config->base, &tfc_pb_allocator);
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                          "Distributed session does not support session thread pool options.");
  }
  msession *s = tfc_calloc(1, sizeof *s);
  char handle[32];
  random_handle(handle, sizeof handle);
  bool ok = s && (s->g = tfc_graph_new()) && (s->handle = tfc_strdup(handle));
  if (!ok) tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory creating a session");
  if (s) {
    pthread_mutex_init(&s->mu, NULL);
    tfc_hashmap_init(&s->plans);
    tfc_hashmap_init(&s->callables);
    s->refs = 1;
    s->incarnation = m->c->incarnation;
  }
  if (ok && config) {
    s->log_placement = config->log_device_placement;
    s->allow_soft_placement = config->allow_soft_placement;
    s->op_timeout_ms = config->operation_timeout_in_ms;
  }
  if (ok) ok = extend_graph(s, gd, gn, st);
  int64_t wait_ms = create_wait_ms(s ? s->op_timeout_ms : 0);
  if (ok) ok = discover(m, s, config ? config->device_filters : NULL, config ? config->n_device_filters : 0,
                        wait_ms, st);
  if (config) protobuf_c_message_free_unpacked(&config->base, &tfc_pb_allocator);
  if (ok) {
    pthread_mutex_lock(&m->mu);
    ok = tfc_hashmap_put(&m->sessions, s->handle, strlen(s->handle), s) == 0 ||
         tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    pthread_mutex_unlock(&m->mu);
  }
  if (!ok) {
    if (s) {
      if (s->g) session_free(m, s);
      else tfc_free(s);
    }
    return false;
  }
  int n_dev = s->n_dev, n_tasks = 0;
  for (int i = 0; i < n_dev; i++) {
    bool dup = false;
    for (int k = 0; k < i && !dup; k++) dup = s->dev_task[k] == s->dev_task[i];
    n_tasks += !dup;
  }
  tfc_server_log(m->c->tasks[m->c->self].name, "session %s created (%d devices on %d tasks)", handle, n_dev,
                 n_tasks);
  tfc_wbuf out;
  tfc_wbuf_init(&out);
  tfc_wbuf_string(&out, 1, handle);
  tfc_msg_take(resp, &out);
  return true;
}

/* A string field's value as a C string (empty when absent). */
static char *field_string(const uint8_t *req, size_t len, unsigned number) {
  const uint8_t *p = NULL;
  size_t n = 0;
  tfc_wire_find_ld(req, len, number, &p, &n);
  return tfc_strndup(p ? (const char *)p : "", n);
}

/* ExtendSession. */
static bool extend_session(tfc_master *m, const uint8_t *req, size_t len, tfc_msg *resp, tfc_status *st) {
  char *h = field_string(req, len, 1);
  if (!h) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  msession *s = session_get(m, h, st);
  tfc_free(h);
  if (!s) return false;
  const uint8_t *gd = NULL;
  size_t gn = 0;
  tfc_wire_find_ld(req, len, 2, &gd, &gn);
  int64_t cur = 0;
  size_t pos = 0;
  tfc_wfield f;
  while (tfc_wire_next(req, len, &pos, &f))
    if (f.number == 3 && f.wire == 0) cur = (int64_t)f.v;
  pthread_mutex_lock(&s->mu);
  bool ok = cur == s->version || tfc_status_set(st, TFC_CODE_ABORTED, "Current version is %" PRId64
                                                " but caller expected %" PRId64 ".", s->version, cur);
  if (ok) ok = extend_graph(s, gd, gn, st);
  if (ok) s->version++;
  int64_t v = s->version;
  pthread_mutex_unlock(&s->mu);
  session_put(m, s);
  if (!ok) return false;
  tfc_wbuf out;
  tfc_wbuf_init(&out);
  tfc_wbuf_varint_field(&out, 4, (uint64_t)v);
  tfc_msg_take(resp, &out);
  return true;
}

/* Resolves "name:k" / "name" to an endpoint. */
static bool resolve_tensor(tfc_graph *g, const char *name, tfc_endpoint *ep, tfc_status *st) {
  const char *colon = strrchr(name, ':');
  char buf[512];
  int index = 0;
  if (colon && colon[1] && strspn(colon + 1, "0123456789") == strlen(colon + 1)) {
    snprintf(buf, sizeof buf, "%.*s", (int)(colon - name), name);
    index = atoi(colon + 1);
  } else {
    snprintf(buf, sizeof buf, "%s", name);
  }
  tfc_node *n = tfc_graph_find(g, buf);
  if (!n) return tfc_status_set(st, TFC_CODE_NOT_FOUND, "Tensor %s, specified in either feed_devices or "
                                "fetch_devices was not found in the Graph", name);
  if (index >= n->n_outputs)
    return tfc_status_set(st, TFC_CODE_NOT_FOUND, "Tensor %s does not exist: '%s' has %d outputs", name, buf,
                          n->n_outputs);
  ep->node = n->id;
  ep->index = index;
  return true;
}

/* The parts of a RunStepRequest, pointing into the request bytes. */
typedef struct step_req {
  char *session;
  int n_feeds;
  char **feed_names;
  const uint8_t **feed_data;     /* TensorProto bytes */
  size_t *feed_len;
  int n_fetches;
  char **fetches;
  int n_targets;
  char **targets;
  int trace_level;
  int64_t timeout_ms;
  bool output_partition_graphs;
  bool store_errors;
  int refs;                      /* a MakeCallable template: its table + running calls (under s->mu) */
} step_req;

/* Frees the strings of a parsed step request. */
static void step_req_free(step_req *r) {
  for (int i = 0; i < r->n_feeds; i++) tfc_free(r->feed_names[i]);
  for (int i = 0; i < r->n_fetches; i++) tfc_free(r->fetches[i]);
  for (int i = 0; i < r->n_targets; i++) tfc_free(r->targets[i]);
  tfc_free(r->feed_names);
  tfc_free(r->feed_data);
  tfc_free(r->feed_len);
  tfc_free(r->fetches);
  tfc_free(r->targets);
  tfc_free(r->session);
}

/* Parses a RunStepRequest at the wire level. */
static bool parse_step(const uint8_t *req, size_t len, step_req *r, tfc_status *st) {
  memset(r, 0, sizeof *r);
  size_t pos = 0, cap = 0;
  tfc_wfield f;
  int nf = 0, nx = 0, nt = 0;
  while (tfc_wire_next(req, len, &pos, &f)) {
    nf += f.number == 2;
    nx += f.number == 3;
    nt += f.number == 4;
  }
  if (!tfc_wire_ok(len, pos)) return tfc_status_set(st, TFC_CODE_INTERNAL, "Unable to parse request");
  (void)cap;
  r->feed_names = tfc_calloc((size_t)nf + 1, sizeof(char *));
  r->feed_data = tfc_calloc((size_t)nf + 1, sizeof(uint8_t *));
  r->feed_len = tfc_calloc((size_t)nf + 1, sizeof(size_t));
  r->fetches = tfc_calloc((size_t)nx + 1, sizeof(char *));
  r->targets = tfc_calloc((size_t)nt + 1, sizeof(char *));
  if (!r->feed_names || !r->feed_data || !r->feed_len || !r->fetches || !r->targets)
    return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  pos = 0;
  while (tfc_wire_next(req, len, &pos, &f)) {
    if (f.wire == 2 && f.number == 1) {
      tfc_free(r->session);
      r->session = tfc_strndup((const char *)f.p, f.n);
    } else if (f.wire == 2 && f.number == 2) {
      const uint8_t *np = NULL, *tp = NULL;
      size_t nn = 0, tn = 0;
      tfc_wire_find_ld(f.p, f.n, 1, &np, &nn);
      tfc_wire_find_ld(f.p, f.n, 2, &tp, &tn);
      r->feed_names[r->n_feeds] = tfc_strndup(np ? (const char *)np : "", nn);
      r->feed_data[r->n_feeds] = tp ? tp : (const uint8_t *)"";
      r->feed_len[r->n_feeds] = tn;
      if (!r->feed_names[r->n_feeds++]) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    } else if (f.wire == 2 && f.number == 3) {
      if (!(r->fetches[r->n_fetches++] = tfc_strndup((const char *)f.p, f.n)))
        return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    } else if (f.wire == 2 && f.number == 4) {
      if (!(r->targets[r->n_targets++] = tfc_strndup((const char *)f.p, f.n)))
        return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    } else if (f.wire == 2 && f.number == 5) {
      size_t p2 = 0;
      tfc_wfield g;
      while (tfc_wire_next(f.p, f.n, &p2, &g)) {
        if (g.wire != 0) continue;
        if (g.number == 1) r->trace_level = (int)g.v;
        if (g.number == 2) r->timeout_ms = (int64_t)g.v;
        if (g.number == 5) r->output_partition_graphs = g.v != 0;
      }
    } else if (f.wire == 0 && f.number == 7) {
      r->store_errors = f.v != 0;
    }
  }
  if (!r->session) r->session = tfc_strdup("");
  return r->session != NULL || tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
}

/* The plan signature: the names with separators that cannot occur in them. */
static char *signature(const step_req *r, size_t *len) {
  tfc_wbuf b;
  tfc_wbuf_init(&b);
  for (int i = 0; i < r->n_feeds; i++) tfc_wbuf_bytes(&b, r->feed_names[i], strlen(r->feed_names[i]) + 1);
  tfc_wbuf_bytes(&b, "\1", 1);
  for (int i = 0; i < r->n_fetches; i++) tfc_wbuf_bytes(&b, r->fetches[i], strlen(r->fetches[i]) + 1);
  tfc_wbuf_bytes(&b, "\1", 1);
  for (int i = 0; i < r->n_targets; i++) tfc_wbuf_bytes(&b, r->targets[i], strlen(r->targets[i]) + 1);
  if (b.oom) {
    tfc_wbuf_free(&b);
    return NULL;
  }
  return (char *)tfc_wbuf_take(&b, len);
}

/* Writes TF's placement log lines for a plan's nodes to stderr. */
static void log_placement(msession *s, const tfc_subgraph *sg) {
  for (int p = 0; p < sg->n_parts; p++) {
    const tfc_partition *part = &sg->parts[p];
    for (int i = 0; i < part->n; i++) {
      const tfc_snode *sn = &part->nodes[i];
      if (!sn->gnode) continue;
      fprintf(stderr, "%s: (%s): %s\n", sn->name, sn->def->name, s->dev_names[part->device]);
    }
  }
  fflush(stderr);
}

/* Builds and registers the plan for a step request. Caller holds s->mu. */
static mplan *build_plan(tfc_master *m, msession *s, const step_req *r, tfc_status *st) {
  tfc_graph *g = s->g;
  tfc_endpoint *feeds = tfc_calloc((size_t)r->n_feeds + 1, sizeof *feeds);
  tfc_endpoint *fetches = tfc_calloc((size_t)r->n_fetches + 1, sizeof *fetches);
  int *targets = tfc_calloc((size_t)r->n_targets + 1, sizeof(int));
  mplan *p = tfc_calloc(1, sizeof *p);
  tfc_subgraph sg;
  memset(&sg, 0, sizeof sg);
  bool ok = (feeds && fetches && targets && p) || tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  for (int i = 0; ok && i < r->n_feeds; i++) ok = resolve_tensor(g, r->feed_names[i], &feeds[i], st);
  for (int i = 0; ok && i < r->n_fetches; i++) ok = resolve_tensor(g, r->fetches[i], &fetches[i], st);
  for (int i = 0; ok && i < r->n_targets; i++) {
    tfc_node *n = tfc_graph_find(g, r->targets[i]);
    if (!n) ok = tfc_status_set(st, TFC_CODE_NOT_FOUND, "Node %s, specified as a target, was not found in the "
                                "Graph", r->targets[i]);
    else targets[i] = n->id;
  }
  tfc_device_set ds = {.n = s->n_dev, .names = (const char *const *)s->dev_names, .parsed = s->dev_parsed,
                       .allow_soft_placement = s->allow_soft_placement, .incarnation = s->incarnation,
                       .incarnations = s->dev_inc};
  if (ok) ok = tfc_subgraph_build(g, r->n_feeds, feeds, r->n_fetches, fetches, r->n_targets, targets, &ds, &sg, st);
  if (ok && s->log_placement) log_placement(s, &sg);
  if (ok) {
    p->n_fetches = r->n_fetches;
    p->fetch_feed = tfc_calloc((size_t)r->n_fetches + 1, sizeof(int));
    p->parts = tfc_calloc((size_t)sg.n_parts + 1, sizeof(mpart));
    ok = (p->fetch_feed && p->parts) || tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    for (int i = 0; ok && i < r->n_fetches; i++) p->fetch_feed[i] = sg.fetches[i].feed;
  }
  const char *client = m->c->tasks[m->c->self].device;
  char suffix[32];
  snprintf(suffix, sizeof suffix, "/_p%d", ++s->plan_counter);
  bool *used = tfc_calloc((size_t)r->n_feeds + 1, sizeof(bool));
  if (!used) ok = ok && tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  /* the graph's functions travel with every partition (a worker instantiates them) */
  void *lib = NULL;
  size_t lib_len = 0;
  if (ok && tfc_func_lib_size(g->library) > 0) ok = tfc_func_lib_export(g->library, &lib, &lib_len, st);
  for (int pi = 0; ok && pi < sg.n_parts; pi++) {
    const tfc_partition *part = &sg.parts[pi];
    mpart *q = &p->parts[p->n_parts++];
    q->task = s->dev_task[part->device];
    q->device = s->dev_names[part->device];
    /* feeds and fetches of a partition on another task are keyed with that
     * task's own device at the client end: a worker (TensorFlow's too) only
     * accepts rendezvous keys whose receiving end is local to it */
    const char *cdev = q->task == m->c->self ? client : q->device;
    memset(used, 0, sizeof(bool) * ((size_t)r->n_feeds + 1));
    for (int i = 0; i < part->n; i++)
      for (int k = 0; k < part->nodes[i].n_inputs; k++)
        if (part->nodes[i].inputs[k].src < 0) used[part->nodes[i].inputs[k].index] = true;
    q->feed_idx = tfc_calloc((size_t)r->n_feeds + 1, sizeof(int));
    q->feed_keys = tfc_calloc((size_t)r->n_feeds + 1, sizeof(char *));
    q->fetch_idx = tfc_calloc((size_t)r->n_fetches + 1, sizeof(int));
    q->recv_keys = tfc_calloc((size_t)r->n_fetches + 1, sizeof(char *));
    if (!q->feed_idx || !q->feed_keys || !q->fetch_idx || !q->recv_keys) {
      ok = tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
      break;
    }
    for (int f = 0; ok && f < r->n_feeds; f++) {
      if (!used[f]) continue;
      size_t n = strlen(cdev) + strlen(q->device) + strlen(r->feed_names[f]) + 64;
      char *key = tfc_malloc(n);
      if (!key || !tfc_rendezvous_key(key, n, cdev, s->incarnation, q->device, r->feed_names[f])) {
        tfc_free(key);
        ok = tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
        break;
      }
      q->feed_idx[q->n_feeds] = f;
      q->feed_keys[q->n_feeds++] = key;
    }
    for (int i = 0; ok && i < r->n_fetches; i++) {
      if (sg.fetches[i].feed >= 0 || sg.fetches[i].part != pi) continue;
      size_t n = strlen(cdev) + strlen(q->device) + strlen(r->fetches[i]) + 64;
      char *key = tfc_malloc(n);
      if (!key || !tfc_rendezvous_key(key, n, q->device, s->dev_inc[part->device], cdev, r->fetches[i])) {
        tfc_free(key);
        ok = tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
        break;
      }
      q->fetch_idx[q->n_recv] = i;
      q->recv_keys[q->n_recv++] = key;
    }
    if (!ok) break;
    tfc_partition_export_options eo = {
        .device_name = q->device,
        .client_device = cdev,
        .client_incarnation = s->incarnation,
        .device_incarnation = s->dev_inc[part->device],
        .feed_names = (const char *const *)r->feed_names,
        .fetch_names = (const char *const *)r->fetches,
        .suffix = suffix,
        .producer = g->producer,
        .library = lib,
        .library_len = lib_len,
    };
    ok = tfc_partition_export(&sg, pi, &eo, &q->gdef, &q->gdef_len, st);
    if (!ok) break;
    tfc_wbuf b;
    tfc_wbuf_init(&b);
    tfc_wbuf_string(&b, 1, s->handle);
    tfc_wbuf_ld(&b, 2, q->gdef, q->gdef_len);
    tfc_rpc_buf resp;
    if (b.oom) ok = tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    if (ok) ok = tfc_master_call_task(m, q->task, TFC_M_REGISTER_GRAPH, b.data, b.len, s->op_timeout_ms, &resp, st);
    tfc_wbuf_free(&b);
    if (ok) {
      q->graph_handle = field_string(resp.data ? resp.data : (const uint8_t *)"", resp.len, 1);
      ok = q->graph_handle || tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    }
    tfc_rpc_buf_free(&resp);
  }
  tfc_free(used);
  tfc_free(lib);
  tfc_subgraph_free(&sg);
  tfc_free(feeds);
  tfc_free(fetches);
  tfc_free(targets);
  if (!ok) {
    plan_free(m, s->handle, p);
    return NULL;
  }
  return p;
}

/* One partition's RunGraph, run on a thread of its own. */
typedef struct part_run {
  tfc_master *m;
  const mplan *p;
  const msession *s;
  const mpart *q;
  const step_req *r;
  int64_t step_id;
  tfc_rpc_buf resp;
  tfc_status st;
  bool ok;
  pthread_t th;
  bool threaded;
} part_run;

static void cleanup_step(tfc_master *m, const mplan *p, int64_t step_id);

/* Builds and sends a RunGraphRequest; checks the status in the body. On
 * failure the step is cleaned up on every task at once, so partitions
 * waiting for values that will never come stop waiting. */
static void *part_run_main(void *arg) {
  part_run *pr = arg;
  const mpart *q = pr->q;
  tfc_wbuf b;
  tfc_wbuf_init(&b);
  tfc_wbuf_string(&b, 1, q->graph_handle);
  tfc_wbuf_varint_field(&b, 2, (uint64_t)pr->step_id);
  for (int i = 0; i < q->n_feeds; i++) {
    int f = q->feed_idx[i];
    size_t kl = strlen(q->feed_keys[i]);
    size_t tl = pr->r->feed_len[f];
    /* NamedTensorProto{name, tensor} written in place */
    size_t inner = 1 + 5 + kl + 1 + 5 + tl;
    tfc_wbuf nt;
    tfc_wbuf_init(&nt);
    tfc_wbuf_ld(&nt, 1, q->feed_keys[i], kl);
    tfc_wbuf_ld(&nt, 2, pr->r->feed_data[f], tl);
    (void)inner;
    tfc_wbuf_ld(&b, 3, nt.data, nt.len);
    if (nt.oom) b.oom = true;
    tfc_wbuf_free(&nt);
  }
  for (int i = 0; i < q->n_recv; i++) tfc_wbuf_string(&b, 4, q->recv_keys[i]);
  if (pr->r->trace_level == 3 || pr->r->output_partition_graphs) {
    tfc_wbuf eo;
    tfc_wbuf_init(&eo);
    tfc_wbuf_varint_field(&eo, 3, pr->r->trace_level == 3);
    tfc_wbuf_varint_field(&eo, 4, pr->r->output_partition_graphs);
    tfc_wbuf_ld(&b, 5, eo.data, eo.len);
    tfc_wbuf_free(&eo);
  }
  tfc_wbuf_string(&b, 8, pr->s->handle);
  tfc_wbuf_varint_field(&b, 9, 1);
  tfc_status_clear(&pr->st);
  if (b.oom) {
    pr->ok = tfc_status_set(&pr->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  } else {
    int64_t t = pr->r->timeout_ms > 0 ? pr->r->timeout_ms : pr->s->op_timeout_ms;
    pr->ok = tfc_master_call_task(pr->m, q->task, TFC_M_RUN_GRAPH, b.data, b.len, t, &pr->resp, &pr->st);
  }
  tfc_wbuf_free(&b);
  if (pr->ok) {
    size_t pos = 0;
    tfc_wfield f;
    int code = 0;
    const uint8_t *msg = NULL;
    size_t mn = 0;
    while (tfc_wire_next(pr->resp.data, pr->resp.len, &pos, &f)) {
      if (f.number == 5 && f.wire == 0) code = (int)f.v;
      if (f.number == 6 && f.wire == 2) {
        msg = f.p;
        mn = f.n;
      }
    }
    if (code != 0) {
      const tfc_task *t = &pr->m->c->tasks[q->task];
      if (q->task == pr->m->c->self)
        tfc_status_set(&pr->st, (tfc_code)code, "%.*s", (int)mn, msg ? (const char *)msg : "");
      else
        tfc_status_set(&pr->st, (tfc_code)code, "From %s:\n%.*s", t->name, (int)mn, msg ? (const char *)msg : "");
      pr->ok = false;
    }
  }
  if (!pr->ok) cleanup_step(pr->m, pr->p, pr->step_id);
  return NULL;
}

/* A random step id with the top bits cleared, as TF's master makes them. */
static int64_t new_step_id(void) {
  static _Atomic uint64_t counter;
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  uint64_t next = atomic_fetch_add(&counter, 0x9e3779b97f4a7c15ULL) + 0x9e3779b97f4a7c15ULL;
  uint64_t x = ((uint64_t)ts.tv_nsec << 24) ^ (uint64_t)ts.tv_sec ^ next;
  x ^= x >> 31;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 29;
  return (int64_t)(x & ((1ULL << 56) - 1));
}

/* One CleanupGraph call (run on a thread of its own when a step has several tasks). */
typedef struct cleanup_call {
  tfc_master *m;
  int task;
  const tfc_wbuf *req;
  pthread_t th;
  bool threaded;
} cleanup_call;

static void *cleanup_call_main(void *arg) {
  cleanup_call *c = arg;
  tfc_rpc_buf r;
  tfc_status st;
  tfc_status_clear(&st);
  /* short deadline: a task that does not answer must not hold the step's error back */
  tfc_master_call_task(c->m, c->task, TFC_M_CLEANUP_GRAPH, c->req->data, c->req->len, 3000, &r, &st);
  tfc_rpc_buf_free(&r);
  return NULL;
}

/* Sends CleanupGraph{step_id} to every task of the plan, to all at once. */
static void cleanup_step(tfc_master *m, const mplan *p, int64_t step_id) {
  tfc_wbuf b;
  tfc_wbuf_init(&b);
  tfc_wbuf_varint_field(&b, 1, (uint64_t)step_id);
  cleanup_call stack[8];
  cleanup_call *calls = p->n_parts <= 8 ? stack : tfc_calloc((size_t)p->n_parts, sizeof *calls);
  int n = 0;
  for (int i = 0; i < p->n_parts; i++) {
    bool dup = false;
    for (int k = 0; k < i; k++) dup |= p->parts[k].task == p->parts[i].task;
    if (dup) continue;
    cleanup_call one = {.m = m, .task = p->parts[i].task, .req = &b};
    if (!calls) {
      cleanup_call_main(&one);
      continue;
    }
    calls[n] = one;
    calls[n].threaded = n > 0 && pthread_create(&calls[n].th, NULL, cleanup_call_main, &calls[n]) == 0;
    n++;
  }
  for (int i = 0; i < n; i++)
    if (!calls[i].threaded) cleanup_call_main(&calls[i]);
  for (int i = 0; i < n; i++)
    if (calls[i].threaded) pthread_join(calls[i].th, NULL);
  if (calls != stack) tfc_free(calls);
  tfc_wbuf_free(&b);
}

/* Runs one step of session s for r: the plan (built on first use), RunGraph
 * on every partition, CleanupGraph. Appends the fetched values to out as
 * field 1 entries (NamedTensorProto under the fetch names when `named`, bare
 * TensorProtos in fetch order otherwise) and RunMetadata as field 2. false
 * with *rst on failure (out then incomplete). */
/* True when a DeviceStepStats lists RecvTensor calls (its first node is "RecvTensor"). */
static bool is_recv_stats(const uint8_t *d, size_t n) {
  const uint8_t *node = NULL, *name = NULL;
  size_t nn = 0, nl = 0;
  return tfc_wire_find_ld(d, n, 2, &node, &nn) && tfc_wire_find_ld(node, nn, 1, &name, &nl) &&
         nl == 10 && memcmp(name, "RecvTensor", 10) == 0;
}

/* Appends the DeviceStepStats entries (StepStats field 1) of one task's
 * StepStats to out: those of RecvTensor calls when `recvs`, the others otherwise. */
static void append_dev_stats(tfc_wbuf *out, const uint8_t *ss, size_t n, bool recvs) {
  size_t pos = 0;
  tfc_wfield f;
  while (tfc_wire_next(ss, n, &pos, &f))
    if (f.number == 1 && f.wire == 2 && is_recv_stats(f.p, f.n) == recvs) tfc_wbuf_ld(out, 1, f.p, f.n);
}

/* The session's plan for r (borrowed), built and registered on first use; NULL + rst. */
static mplan *get_plan(tfc_master *m, msession *s, const step_req *r, tfc_status *rst) {
  size_t klen = 0;
  char *key = signature(r, &klen);
  if (!key) {
    tfc_status_set(rst, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  pthread_mutex_lock(&s->mu);
  bool found = false;
  mplan *p = tfc_hashmap_get(&s->plans, key, klen, &found);
  if (!found) {
    p = build_plan(m, s, r, rst);
    if (p && tfc_hashmap_put(&s->plans, key, klen, p) != 0) {
      plan_free(m, s->handle, p);
      p = NULL;
      tfc_status_set(rst, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    }
  }
  pthread_mutex_unlock(&s->mu);
  tfc_free(key);
  return p;
}

static bool run_core(tfc_master *m, msession *s, const step_req *rq, bool named, tfc_wbuf *out, tfc_status *rst) {
  const step_req r = *rq;
  mplan *p = get_plan(m, s, &r, rst);
  bool ok = p != NULL;
  part_run *runs = ok ? tfc_calloc((size_t)p->n_parts + 1, sizeof(part_run)) : NULL;
  if (ok && !runs) ok = tfc_status_set(rst, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  int64_t step_id = new_step_id();
  if (ok) {
    for (int i = 0; i < p->n_parts; i++) {
      runs[i] = (part_run){.m = m, .p = p, .s = s, .q = &p->parts[i], .r = &r, .step_id = step_id};
      if (i + 1 < p->n_parts) runs[i].threaded = pthread_create(&runs[i].th, NULL, part_run_main, &runs[i]) == 0;
    }
    for (int i = 0; i < p->n_parts; i++)
      if (!runs[i].threaded) part_run_main(&runs[i]);
    for (int i = 0; i < p->n_parts; i++)
      if (runs[i].threaded) pthread_join(runs[i].th, NULL);
    /* the first error that is not a consequence of another task's failure */
    for (int pass = 0; pass < 2 && ok; pass++)
      for (int i = 0; i < p->n_parts && ok; i++)
        if (!runs[i].ok && (pass == 1 || runs[i].st.code != TFC_CODE_CANCELLED)) {
          tfc_status_copy(rst, &runs[i].st);
          ok = false;
        }
    cleanup_step(m, p, step_id);
  }
  for (int i = 0; ok && i < r.n_fetches; i++) {
    const uint8_t *tp = NULL;
    size_t tn = 0;
    if (p->fetch_feed[i] >= 0) {
      tp = r.feed_data[p->fetch_feed[i]];
      tn = r.feed_len[p->fetch_feed[i]];
    } else {
      for (int k = 0; k < p->n_parts && !tp; k++) {
        const mpart *q = &p->parts[k];
        for (int j = 0; j < q->n_recv && !tp; j++) {
          if (q->fetch_idx[j] != i) continue;
          size_t pos = 0;
          tfc_wfield f;
          while (tfc_wire_next(runs[k].resp.data, runs[k].resp.len, &pos, &f)) {
            if (f.number != 1 || f.wire != 2) continue;
            const uint8_t *np = NULL;
            size_t nn = 0;
            tfc_wire_find_ld(f.p, f.n, 1, &np, &nn);
            if (np && nn == strlen(q->recv_keys[j]) && memcmp(np, q->recv_keys[j], nn) == 0) {
              if (!tfc_wire_find_ld(f.p, f.n, 2, &tp, &tn)) tp = (const uint8_t *)"";
              break;
            }
          }
        }
      }
    }
    if (!tp) {
      ok = tfc_status_set(rst, TFC_CODE_INTERNAL, "No value came back for fetch %s", r.fetches[i]);
      break;
    }
    if (!named) {
      tfc_wbuf_ld(out, 1, tp, tn);
      continue;
    }
    tfc_wbuf nt;
    tfc_wbuf_init(&nt);
    tfc_wbuf_string(&nt, 1, r.fetches[i]);
    tfc_wbuf_ld(&nt, 2, tp, tn);
    tfc_wbuf_ld(out, 1, nt.data, nt.len);
    if (nt.oom) out->oom = true;
    tfc_wbuf_free(&nt);
  }
  if (ok && (r.output_partition_graphs || r.trace_level == 3)) {
    tfc_wbuf md;
    tfc_wbuf_init(&md);
    if (r.trace_level == 3) {
      /* RunMetadata.step_stats: every task's DeviceStepStats (repeated fields concatenate) */
      tfc_wbuf ss;
      tfc_wbuf_init(&ss);
      for (int pass = 0; pass < 2; pass++)  /* RecvTensor entries first, as TF lists them */
        for (int k = 0; k < p->n_parts; k++) {
          const uint8_t *sp = NULL;
          size_t sn = 0;
          if (tfc_wire_find_ld(runs[k].resp.data, runs[k].resp.len, 2, &sp, &sn))
            append_dev_stats(&ss, sp, sn, pass == 0);
        }
      tfc_wbuf_ld(&md, 1, ss.data, ss.len);
      if (ss.oom) md.oom = true;
      tfc_wbuf_free(&ss);
    }
    for (int k = 0; r.output_partition_graphs && k < p->n_parts; k++)
      tfc_wbuf_ld(&md, 3, p->parts[k].gdef, p->parts[k].gdef_len);
    tfc_wbuf_ld(out, 2, md.data, md.len);
    if (md.oom) out->oom = true;
    tfc_wbuf_free(&md);
  }
  if (ok && out->oom) ok = tfc_status_set(rst, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  for (int i = 0; runs && i < p->n_parts; i++) tfc_rpc_buf_free(&runs[i].resp);
  tfc_free(runs);
  return ok;
}

/* RunStep. */
static bool run_step(tfc_master *m, const uint8_t *req, size_t len, tfc_msg *resp, tfc_status *st) {
  step_req r;
  if (!parse_step(req, len, &r, st)) {
    step_req_free(&r);
    return false;
  }
  msession *s = session_get(m, r.session, st);
  if (!s) {
    step_req_free(&r);
    return false;
  }
  tfc_status rst;
  tfc_status_clear(&rst);
  tfc_wbuf out;
  tfc_wbuf_init(&out);
  bool ok = run_core(m, s, &r, true, &out, &rst);
  bool store = r.store_errors;
  step_req_free(&r);
  session_put(m, s);
  if (!ok) {
    tfc_wbuf_free(&out);
    if (!store) {
      tfc_status_copy(st, &rst);
      return false;
    }
    tfc_wbuf_varint_field(&out, 3, (uint64_t)rst.code);
    tfc_wbuf_string(&out, 4, rst.msg);
  }
  tfc_msg_take(resp, &out);
  return true;
}

/* Frees a callable's step template. */
static void callable_free(void *p) {
  step_req *r = p;
  if (!r) return;
  step_req_free(r);
  tfc_free(r);
}

/* Appends a string to a growing array of C strings; false on OOM. */
static bool push_name(char ***arr, int *n, const uint8_t *p, size_t len) {
  char **a = tfc_realloc(*arr, sizeof(char *) * (size_t)(*n + 2));
  if (!a) return false;
  *arr = a;
  a[*n] = tfc_strndup((const char *)p, len);
  if (!a[*n]) return false;
  (*n)++;
  return true;
}

/* MakeCallable: the CallableOptions become a step template, planned now (errors surface here). */
static bool make_callable(tfc_master *m, const uint8_t *req, size_t len, tfc_msg *resp, tfc_status *st) {
  char *h = field_string(req, len, 1);
  if (!h) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  msession *s = session_get(m, h, st);
  tfc_free(h);
  if (!s) return false;
  step_req *r = tfc_calloc(1, sizeof *r);
  bool ok = r && (r->session = tfc_strdup(s->handle));
  const uint8_t *co = NULL;
  size_t cn = 0;
  tfc_wire_find_ld(req, len, 2, &co, &cn);
  size_t pos = 0;
  tfc_wfield f;
  while (ok && co && tfc_wire_next(co, cn, &pos, &f)) {
    if (f.wire == 2 && f.number == 1) ok = push_name(&r->feed_names, &r->n_feeds, f.p, f.n);
    else if (f.wire == 2 && f.number == 2) ok = push_name(&r->fetches, &r->n_fetches, f.p, f.n);
    else if (f.wire == 2 && f.number == 3) ok = push_name(&r->targets, &r->n_targets, f.p, f.n);
    else if (f.wire == 2 && f.number == 4) {
      size_t p2 = 0;
      tfc_wfield g;
      while (tfc_wire_next(f.p, f.n, &p2, &g)) {
        if (g.wire != 0) continue;
        if (g.number == 1) r->trace_level = (int)g.v;
        if (g.number == 2) r->timeout_ms = (int64_t)g.v;
        if (g.number == 5) r->output_partition_graphs = g.v != 0;
      }
    }
  }
  if (ok) {
    r->feed_data = tfc_calloc((size_t)r->n_feeds + 1, sizeof(uint8_t *));
    r->feed_len = tfc_calloc((size_t)r->n_feeds + 1, sizeof(size_t));
    if (!r->fetches) r->fetches = tfc_calloc(1, sizeof(char *));
    if (!r->targets) r->targets = tfc_calloc(1, sizeof(char *));
    if (!r->feed_names) r->feed_names = tfc_calloc(1, sizeof(char *));
    ok = r->feed_data && r->feed_len && r->fetches && r->targets && r->feed_names;
  }
  if (!ok) tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  if (ok) ok = get_plan(m, s, r, st) != NULL;
  int64_t handle = 0;
  if (ok) {
    pthread_mutex_lock(&s->mu);
    handle = s->next_callable++;
    r->refs = 1;
    ok = tfc_hashmap_put(&s->callables, (const char *)&handle, sizeof handle, r) == 0;
    pthread_mutex_unlock(&s->mu);
    if (!ok) tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  }
  session_put(m, s);
  if (!ok) {
    callable_free(r);
    return false;
  }
  tfc_wbuf out;
  tfc_wbuf_init(&out);
  tfc_wbuf_varint_field(&out, 1, (uint64_t)handle);
  tfc_msg_take(resp, &out);
  return true;
}

/* Reads (session handle, callable handle) of Run/ReleaseCallable. */
static msession *callable_request(tfc_master *m, const uint8_t *req, size_t len, int64_t *handle, tfc_status *st) {
  char *h = field_string(req, len, 1);
  if (!h) {
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  msession *s = session_get(m, h, st);
  tfc_free(h);
  *handle = 0;
  size_t pos = 0;
  tfc_wfield f;
  while (tfc_wire_next(req, len, &pos, &f))
    if (f.number == 2 && f.wire == 0) *handle = (int64_t)f.v;
  return s;
}

/* RunCallable: feeds are bare TensorProtos in the callable's feed order. */
static bool run_callable(tfc_master *m, const uint8_t *req, size_t len, tfc_msg *resp, tfc_status *st) {
  int64_t handle;
  msession *s = callable_request(m, req, len, &handle, st);
  if (!s) return false;
  pthread_mutex_lock(&s->mu);
  bool found = false;
  step_req *tmpl = tfc_hashmap_get(&s->callables, (const char *)&handle, sizeof handle, &found);
  if (found) tmpl->refs++; /* a concurrent ReleaseCallable frees it after this run */
  pthread_mutex_unlock(&s->mu);
  bool ok = found || tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Attempted to run callable %lld that "
                                    "was not found or was released.", (long long)handle);
  step_req r;
  memset(&r, 0, sizeof r);
  if (ok) {
    r = *tmpl;
    r.feed_data = tfc_calloc((size_t)r.n_feeds + 1, sizeof(uint8_t *));
    r.feed_len = tfc_calloc((size_t)r.n_feeds + 1, sizeof(size_t));
    ok = (r.feed_data && r.feed_len) || tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  }
  int nf = 0;
  size_t pos = 0;
  tfc_wfield f;
  while (ok && tfc_wire_next(req, len, &pos, &f)) {
    if (f.number != 3 || f.wire != 2) continue;
    if (nf < r.n_feeds) {
      r.feed_data[nf] = f.p;
      r.feed_len[nf] = f.n;
    }
    nf++;
  }
  if (ok && nf != r.n_feeds)
    ok = tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Expected %d feed tensors, but got %d", r.n_feeds, nf);
  tfc_wbuf out;
  tfc_wbuf_init(&out);
  if (ok) ok = run_core(m, s, &r, false, &out, st);
  tfc_free(r.feed_data);
  tfc_free(r.feed_len);
  if (found) {
    pthread_mutex_lock(&s->mu);
    bool last = --tmpl->refs == 0;
    pthread_mutex_unlock(&s->mu);
    if (last) callable_free(tmpl);
  }
  session_put(m, s);
  if (!ok) {
    tfc_wbuf_free(&out);
    return false;
  }
  tfc_msg_take(resp, &out);
  return true;
}

/* ReleaseCallable. */
static bool release_callable(tfc_master *m, const uint8_t *req, size_t len, tfc_status *st) {
  int64_t handle;
  msession *s = callable_request(m, req, len, &handle, st);
  if (!s) return false;
  pthread_mutex_lock(&s->mu);
  step_req *r = tfc_hashmap_remove(&s->callables, (const char *)&handle, sizeof handle);
  bool last = r && --r->refs == 0;
  pthread_mutex_unlock(&s->mu);
  if (last) callable_free(r);
  session_put(m, s);
  return true;
}

/* CloseSession. */
static bool close_session(tfc_master *m, const uint8_t *req, size_t len, tfc_status *st) {
  char *h = field_string(req, len, 1);
  if (!h) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  pthread_mutex_lock(&m->mu);
  msession *s = tfc_hashmap_remove(&m->sessions, h, strlen(h));
  bool busy = s && s->refs > 1; /* steps still running hold references */
  pthread_mutex_unlock(&m->mu);
  if (!s) {
    tfc_status_set(st, TFC_CODE_ABORTED, "Session %s is not found. Possibly, this master has restarted.", h);
    tfc_free(h);
    return false;
  }
  tfc_free(h);
  tfc_server_log(m->c->tasks[m->c->self].name, "session %s closed", s->handle);
  /* as TF's master does, closing cancels the steps in flight (a step waiting
   * in a queue or an accumulator on some task would otherwise never end) */
  if (busy) delete_worker_sessions(m, s);
  session_put(m, s);
  return true;
}

/* ListDevices: every task's devices (GetStatus), all as local_device, as TF's master does. */
static bool list_devices(tfc_master *m, tfc_msg *resp, tfc_status *st) {
  tfc_wbuf out;
  tfc_wbuf_init(&out);
  int n = m->c->n_tasks;
  for (int k = 0; k < n; k++) {
    int t = k == 0 ? m->c->self : (k <= m->c->self ? k - 1 : k);
    tfc_rpc_buf b;
    if (!get_status(m, t, 10000, &b, st)) {
      tfc_wbuf_free(&out);
      return false;
    }
    size_t pos = 0;
    tfc_wfield f;
    while (tfc_wire_next(b.data, b.len, &pos, &f))
      if (f.number == 1 && f.wire == 2) tfc_wbuf_ld(&out, 1, f.p, f.n);
    tfc_rpc_buf_free(&b);
  }
  if (out.oom) {
    tfc_wbuf_free(&out);
    return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  }
  tfc_msg_take(resp, &out);
  return true;
}

/* Reset: closes this master's sessions and clears the containers on every task. */
static bool reset(tfc_master *m, const uint8_t *req, size_t len, tfc_status *st) {
  close_all(m);
  /* ResetRequest.container (1) has CleanupAllRequest.container's number: forward those fields */
  tfc_wbuf b;
  tfc_wbuf_init(&b);
  size_t pos = 0;
  tfc_wfield f;
  while (tfc_wire_next(req, len, &pos, &f))
    if (f.number == 1 && f.wire == 2) tfc_wbuf_ld(&b, 1, f.p, f.n);
  bool ok = true;
  for (int t = 0; t < m->c->n_tasks && ok; t++) {
    tfc_rpc_buf r;
    ok = tfc_master_call_task(m, t, TFC_M_CLEANUP_ALL, b.data ? b.data : (const uint8_t *)"", b.len, 10000, &r, st);
    tfc_rpc_buf_free(&r);
  }
  tfc_wbuf_free(&b);
  return ok;
}

/* Dispatch (see master.h). */
bool tfc_master_handle(tfc_master *m, tfc_method meth, const uint8_t *req, size_t len, int64_t timeout_ms,
                       tfc_msg *resp, tfc_status *st) {
  (void)timeout_ms;
  resp->n = 0;
  if (!req) req = (const uint8_t *)"";
  size_t pos = 0;
  tfc_wfield f;
  while (tfc_wire_next(req, len, &pos, &f)) {
  }
  if (!tfc_wire_ok(len, pos)) return tfc_status_set(st, TFC_CODE_INTERNAL, "Unable to parse request");
  bool ok;
  switch (meth) {
    case TFC_M_CREATE_SESSION: return create_session(m, req, len, resp, st);
    case TFC_M_EXTEND_SESSION: return extend_session(m, req, len, resp, st);
    case TFC_M_RUN_STEP: return run_step(m, req, len, resp, st);
    case TFC_M_CLOSE_SESSION: ok = close_session(m, req, len, st); break;
    case TFC_M_LIST_DEVICES: return list_devices(m, resp, st);
    case TFC_M_RESET: ok = reset(m, req, len, st); break;
    case TFC_M_MAKE_CALLABLE: return make_callable(m, req, len, resp, st);
    case TFC_M_RUN_CALLABLE: return run_callable(m, req, len, resp, st);
    case TFC_M_RELEASE_CALLABLE: ok = release_callable(m, req, len, st); break;
    default:
      return tfc_status_set(st, TFC_CODE_UNIMPLEMENTED, "%s is not implemented by tfc's master",
                            tfc_method_paths[meth]);
  }
  if (!ok) return false;
  tfc_wbuf empty;
  tfc_wbuf_init(&empty);
  tfc_msg_take(resp, &empty);
  return true;
}
