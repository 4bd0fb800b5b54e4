/*
 * worker.c — tensorflow.WorkerService (see worker.h).
 *
 * RegisterGraph imports the partition's GraphDef into a graph of its own,
 * prunes nothing (every node is a target), places it on the worker's device
 * and builds one executor: the same subgraph/executor code a local session
 * uses. RunGraph puts the master's `send` tensors into the step's
 * rendezvous, runs the executor and answers the `recv_key` values.
 */
#include "distributed/worker.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/hashmap.h"
#include "base/threadpool.h"
#include "distributed/deadline.h"
#include "distributed/remote_rendezvous.h"
#include "distributed/server_log.h"
#include "distributed/same_host.h"
#include "distributed/tcp_plane.h"
#include "graph/device_name.h"
#include "graph/graphdef.h"
#include "graph/graphdef_pb.h"
#include "graph/subgraph.h"
#include "graph/tensor_proto.h"
#include "runtime/executor.h"
#include "runtime/function.h"
#include "runtime/remap.h"
#include "worker.pb-c.h"

typedef struct wsession {
  tfc_kernel_cache *kcache;
  int refs;                 /* registered graphs + 1 while the session exists */
  int deregistered;         /* graphs freed by DeregisterGraph (logged at DeleteWorkerSession) */
  atomic_int cancelled;     /* set by DeleteWorkerSession: the session's running steps stop */
} wsession;

typedef struct wgraph {
  char *handle;
  char *session;
  wsession *ws;
  tfc_graph *g;
  tfc_subgraph sg;
  tfc_executor *exec;       /* NULL for an empty partition */
  tfc_flib *flib;           /* the partition's functions (its GraphDef's library) */
  int running;              /* RunGraphs using it */
  bool dead;                /* deregistered: free when running drops to 0 */
} wgraph;

struct tfc_worker {
  const tfc_cluster *c;
  tfc_resource_mgr *resources;
  pthread_mutex_t mu;
  tfc_hashmap graphs;       /* handle -> wgraph* */
  tfc_hashmap sessions;     /* session handle -> wsession* */
  tfc_hashmap steps;        /* int64 step id -> tfc_remote_rendezvous* */
  tfc_hashmap orphans;      /* int64 step ids whose rendezvous only RecvTensor calls made (no RunGraph yet) */
  /* recently cleaned-up step ids: a late RunGraph or RecvTensor for one of
   * them fails at once instead of waiting on a rendezvous nobody will fill */
  int64_t done_steps[1024];
  int done_next;
  long next_graph;
  tfc_threadpool *inter, *intra;
  bool pools;
  const char *dev_name;
  tfc_device_name dev_parsed;
  tfc_tcp_plane *tcp;       /* data plane for peers on other hosts, started on first use */
};

/* Creates a worker. */
tfc_worker *tfc_worker_new(const tfc_cluster *c, tfc_status *st) {
  if (!tfc_sendrecv_register()) {
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory registering kernels");
    return NULL;
  }
  tfc_worker *w = tfc_calloc(1, sizeof *w);
  if (!w || !(w->resources = tfc_resource_mgr_new())) {
    tfc_free(w);
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory creating a worker");
    return NULL;
  }
  w->c = c;
  w->dev_name = c->tasks[c->self].device;
  if (!tfc_device_name_parse(w->dev_name, &w->dev_parsed, st)) {
    tfc_resource_mgr_free(w->resources);
    tfc_free(w);
    return NULL;
  }
  pthread_mutex_init(&w->mu, NULL);
  tfc_hashmap_init(&w->graphs);
  tfc_hashmap_init(&w->sessions);
  tfc_hashmap_init(&w->steps);
  tfc_hashmap_init(&w->orphans);
  return w;
}

/* Frees a graph record. */
static void wgraph_free(wgraph *g) {
  tfc_executor_free(g->exec);
  tfc_flib_free(g->flib); /* after the executor: its kernels point into it */
  tfc_subgraph_free(&g->sg);
  tfc_graph_unref(g->g);
  tfc_free(g->handle);
  tfc_free(g->session);
  tfc_free(g);
}

/* Drops a session reference; caller holds w->mu. */
static void wsession_unref_locked(wsession *s) {
  if (--s->refs > 0) return;
  tfc_kernel_cache_free(s->kcache);
  tfc_free(s);
}

/* Aborts every step in flight. */
void tfc_worker_abort_all(tfc_worker *w, const tfc_status *st) {
  pthread_mutex_lock(&w->mu);
  for (size_t i = 0; i < w->steps.cap; i++) {
    const char *k;
    size_t kl;
    void *v;
    if (tfc_hashmap_slot(&w->steps, i, &k, &kl, &v)) {
      tfc_rendezvous *r = tfc_remote_rendezvous_base(v);
      r->ops->abort(r, st);
    }
  }
  pthread_mutex_unlock(&w->mu);
}

/* Frees the worker. */
void tfc_worker_free(tfc_worker *w) {
  if (!w) return;
  tfc_tcp_plane_stop(w->tcp);
  tfc_status st;
  tfc_status_set(&st, TFC_CODE_CANCELLED, "The worker is shutting down");
  tfc_worker_abort_all(w, &st);
  for (size_t i = 0; i < w->steps.cap; i++) {
    const char *k;
    size_t kl;
    void *v;
    if (tfc_hashmap_slot(&w->steps, i, &k, &kl, &v)) tfc_remote_rendezvous_unref(v);
  }
  for (size_t i = 0; i < w->graphs.cap; i++) {
    const char *k;
    size_t kl;
    void *v;
    if (tfc_hashmap_slot(&w->graphs, i, &k, &kl, &v)) {
      wgraph *g = v;
      wsession_unref_locked(g->ws);
      wgraph_free(g);
    }
  }
  for (size_t i = 0; i < w->sessions.cap; i++) {
    const char *k;
    size_t kl;
    void *v;
    if (tfc_hashmap_slot(&w->sessions, i, &k, &kl, &v)) wsession_unref_locked(v);
  }
  tfc_hashmap_destroy(&w->steps);
  tfc_hashmap_destroy(&w->orphans);
  tfc_hashmap_destroy(&w->graphs);
  tfc_hashmap_destroy(&w->sessions);
  if (w->pools) {
    tfc_threadpool_free(w->inter);
    tfc_threadpool_free(w->intra);
  }
  tfc_resource_mgr_free(w->resources);
  pthread_mutex_destroy(&w->mu);
  tfc_free(w);
}

/* ------------------------------------------------------------ helpers */

/* The session record for a handle, created on first use (caller holds mu). */
static wsession *session_locked(tfc_worker *w, const char *h, tfc_status *st) {
  bool found = false;
  wsession *s = tfc_hashmap_get(&w->sessions, h, strlen(h), &found);
  if (found) return s;
  s = tfc_calloc(1, sizeof *s);
  if (s && (s->kcache = tfc_kernel_cache_new()) && tfc_hashmap_put(&w->sessions, h, strlen(h), s) == 0) {
    s->refs = 1;
    return s;
  }
  if (s) tfc_kernel_cache_free(s->kcache);
  tfc_free(s);
  tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  return NULL;
}

/* True when step_id was cleaned up recently (caller holds mu). */
static bool step_done_locked(const tfc_worker *w, int64_t step_id) {
  for (int i = 0; i < (int)(sizeof w->done_steps / sizeof w->done_steps[0]); i++)
    if (w->done_steps[i] == step_id && step_id != 0) return true;
  return false;
}

/* The step's rendezvous (new reference), created on first use. A RecvTensor
 * (from_recv) that creates it marks the step an orphan until a RunGraph
 * uses it, so a receive for a step that never runs here can drop it. */
static tfc_remote_rendezvous *step_rdv(tfc_worker *w, int64_t step_id, bool from_recv, tfc_status *st) {
  pthread_mutex_lock(&w->mu);
  bool found = false;
  tfc_remote_rendezvous *r = tfc_hashmap_get(&w->steps, (const char *)&step_id, sizeof step_id, &found);
  if (found && !from_recv) tfc_hashmap_remove(&w->orphans, (const char *)&step_id, sizeof step_id);
  if (!found && step_done_locked(w, step_id)) {
    pthread_mutex_unlock(&w->mu);
    tfc_status_set(st, TFC_CODE_CANCELLED, "Step %" PRId64 " was already cleaned up on %s", step_id, w->dev_name);
    return NULL;
  }
  if (!found) {
    r = tfc_remote_rendezvous_new(w->c, step_id);
    if (r && tfc_hashmap_put(&w->steps, (const char *)&step_id, sizeof step_id, r) != 0) {
      tfc_remote_rendezvous_unref(r);
      r = NULL;
    }
    if (r && from_recv && tfc_hashmap_put(&w->orphans, (const char *)&step_id, sizeof step_id, NULL) != 0) {
      tfc_hashmap_remove(&w->steps, (const char *)&step_id, sizeof step_id);
      tfc_remote_rendezvous_unref(r);
      r = NULL;
    }
  }
  if (r) tfc_remote_rendezvous_ref(r);
  pthread_mutex_unlock(&w->mu);
  if (!r && st->code == TFC_CODE_OK) tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory creating a rendezvous");
  return r;
}

/* After a failed RecvTensor: drops the step's rendezvous when no RunGraph
 * ever used it (a receive for a step that never ran here, e.g. a stale or
 * made-up step id), so such requests leave nothing behind. */
static void drop_orphan(tfc_worker *w, int64_t step_id, tfc_remote_rendezvous *r) {
  pthread_mutex_lock(&w->mu);
  bool orphan = false;
  tfc_hashmap_get(&w->orphans, (const char *)&step_id, sizeof step_id, &orphan);
  bool found = false;
  tfc_remote_rendezvous *cur = tfc_hashmap_get(&w->steps, (const char *)&step_id, sizeof step_id, &found);
  bool drop = orphan && found && cur == r;
  if (drop) {
    tfc_hashmap_remove(&w->orphans, (const char *)&step_id, sizeof step_id);
    tfc_hashmap_remove(&w->steps, (const char *)&step_id, sizeof step_id);
  }
  pthread_mutex_unlock(&w->mu);
  if (!drop) return;
  /* the abort answers the receive this request left waiting, so nothing stays behind */
  tfc_status st;
  tfc_status_set(&st, TFC_CODE_CANCELLED, "Step %" PRId64 " never ran on %s", step_id, w->dev_name);
  tfc_rendezvous *b = tfc_remote_rendezvous_base(r);
  b->ops->abort(b, &st);
  tfc_remote_rendezvous_unref(r);
}

/* Reads a string field into a NUL-terminated copy (empty when absent). */
static char *field_string(const uint8_t *req, size_t len, unsigned number) {
  const uint8_t *p = NULL;
  size_t n = 0;
  tfc_wire_find_ld(req, len, number, &p, &n);
  return tfc_strndup(p ? (const char *)p : "", n);
}

/* The int64 varint field `number` (0 when absent). */
static int64_t field_varint(const uint8_t *req, size_t len, unsigned number) {
  size_t pos = 0;
  tfc_wfield f;
  int64_t v = 0;
  while (tfc_wire_next(req, len, &pos, &f))
    if (f.number == number && f.wire == 0) v = (int64_t)f.v;
  return v;
}

/* Checks a rendezvous key's shape: 5 ';'-separated parts, non-empty name and frame. */
static bool valid_key(const char *key) {
  int parts = 1;
  for (const char *p = key; *p; p++) parts += *p == ';';
  if (parts != 5) return false;
  const char *last = strrchr(key, ';');
  return last[1] != '\0' && key[0] == '/';
}

/* ------------------------------------------------------------ methods */

/* GetStatus: this task's one device. */
static bool get_status(tfc_worker *w, tfc_msg *resp, tfc_status *st) {
  tfc_wbuf da, out;
  tfc_wbuf_init(&da);
  tfc_wbuf_init(&out);
  tfc_wbuf_string(&da, 1, w->dev_name);
  tfc_wbuf_string(&da, 2, "CPU");
  tfc_wbuf_varint_field(&da, 4, 268435456);
  uint8_t inc[9];
  inc[0] = (6 << 3) | 1;
  uint64_t v = (uint64_t)w->c->incarnation;
  for (int i = 0; i < 8; i++) inc[1 + i] = (uint8_t)(v >> (8 * i));
  tfc_wbuf_bytes(&da, inc, 9);
  tfc_wbuf_ld(&out, 1, da.data, da.len);
  bool oom = da.oom || out.oom;
  tfc_wbuf_free(&da);
  if (oom) {
    tfc_wbuf_free(&out);
    return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  }
  tfc_msg_take(resp, &out);
  return true;
}

/* RegisterGraph: import, place, plan. */
static bool register_graph(tfc_worker *w, const uint8_t *req, size_t len, tfc_msg *resp, tfc_status *st) {
  const uint8_t *gd = NULL;
  size_t gn = 0;
  tfc_wire_find_ld(req, len, 2, &gd, &gn);
  char *session = field_string(req, len, 1);
  wgraph *g = tfc_calloc(1, sizeof *g);
  if (!session || !g || !(g->g = tfc_graph_new())) {
    tfc_free(session);
    tfc_free(g);
    return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  }
  g->session = session;
  tfc_import_options io = {.internal_names = true};
  bool ok = tfc_graph_import(g->g, gd ? gd : (const uint8_t *)"", gn, &io, NULL, st);
  int n = ok ? tfc_graph_num_nodes(g->g) : 0;
  int *targets = ok ? tfc_malloc(sizeof(int) * (size_t)(n ? n : 1)) : NULL;
  if (ok && !targets) ok = tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  for (int i = 0; ok && i < n; i++) targets[i] = i;
  const char *names[1] = {w->dev_name};
  tfc_device_set ds = {.n = 1, .names = names, .parsed = &w->dev_parsed, .allow_soft_placement = true,
                       .incarnation = w->c->incarnation};
  if (ok) ok = tfc_subgraph_build(g->g, 0, NULL, 0, NULL, n, targets, &ds, &g->sg, st);
  tfc_free(targets);
  if (ok) ok = tfc_remap_subgraph(&g->sg, tfc_remap_fusion_enabled(), st);
  pthread_mutex_lock(&w->mu);
  if (ok) ok = (g->ws = session_locked(w, session, st)) != NULL;
  if (ok) g->ws->refs++;
  pthread_mutex_unlock(&w->mu);
  if (ok && g->sg.n_parts > 0) {
    tfc_exec_env env = {.resources = w->resources, .kernel_cache = g->ws->kcache, .device_type = "CPU"};
    g->flib = tfc_flib_new(g->g, &env);
    if (!g->flib) ok = tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    env.flib = g->flib;
    if (ok) ok = (g->exec = tfc_executor_new(&g->sg, 0, &env, st)) != NULL;
  }
  char hbuf[48];
  if (ok) {
    pthread_mutex_lock(&w->mu);
    snprintf(hbuf, sizeof hbuf, "%016" PRIx64 "/%ld", (uint64_t)w->c->incarnation, ++w->next_graph);
    g->handle = tfc_strdup(hbuf);
    ok = (g->handle && tfc_hashmap_put(&w->graphs, g->handle, strlen(g->handle), g) == 0) ||
         tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    pthread_mutex_unlock(&w->mu);
  }
  if (!ok) {
    if (g->ws) {
      pthread_mutex_lock(&w->mu);
      wsession_unref_locked(g->ws);
      pthread_mutex_unlock(&w->mu);
    }
    wgraph_free(g);
    return false;
  }
  tfc_wbuf out;
  tfc_wbuf_init(&out);
  tfc_wbuf_string(&out, 1, hbuf);
  tfc_msg_take(resp, &out);
  return true;
}

/* Releases a graph use; frees a deregistered graph with its last use. */
static void graph_release(tfc_worker *w, wgraph *g) {
  pthread_mutex_lock(&w->mu);
  bool free_it = --g->running == 0 && g->dead;
  if (free_it) wsession_unref_locked(g->ws);
  pthread_mutex_unlock(&w->mu);
  if (free_it) wgraph_free(g);
}

/* Removes a graph by handle (after its running steps). */
static bool deregister(tfc_worker *w, const char *handle, tfc_status *st) {
  pthread_mutex_lock(&w->mu);
  wgraph *g = tfc_hashmap_remove(&w->graphs, handle, strlen(handle));
  bool free_it = false;
  if (g) {
    g->dead = true;
    g->ws->deregistered++;
    free_it = g->running == 0;
    if (free_it) wsession_unref_locked(g->ws);
  }
  pthread_mutex_unlock(&w->mu);
  if (!g) return tfc_status_set(st, TFC_CODE_ABORTED, "Graph handle is not found: %s", handle);
  if (free_it) wgraph_free(g);
  return true;
}

/* Ensures the thread pools exist. */
static void ensure_pools(tfc_worker *w) {
  pthread_mutex_lock(&w->mu);
  if (!w->pools) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n > 1) {
      w->inter = tfc_threadpool_new((int)n - 1);
      w->intra = tfc_threadpool_new((int)n - 1);
    }
    w->pools = true;
  }
  pthread_mutex_unlock(&w->mu);
}

/* Sink for Print output: the server's stderr. */
static void stderr_log(void *ctx, const char *text, size_t len) {
  (void)ctx;
  fwrite(text, 1, len, stderr);
  fflush(stderr);
}

/* Per-node statistics of a traced step, encoded as NodeExecStats as they come. */
typedef struct stats_sink {
  pthread_mutex_t mu;
  tfc_wbuf nodes;          /* DeviceStepStats.node_stats entries (field 2) */
} stats_sink;

/* tfc_step_args.node_stats: appends one NodeExecStats (not for _Send/_Recv). */
static void record_node(void *arg, const tfc_snode *sn, int64_t start_ns, int64_t end_ns, int n_outputs,
                        tfc_tensor *const *outputs) {
  (void)n_outputs;
  (void)outputs;
  stats_sink *k = arg;
  /* as in TF, the transfers inserted by partitioning are not listed */
  if (strcmp(sn->def->name, "_Send") == 0 || strcmp(sn->def->name, "_Recv") == 0 ||
      strcmp(sn->def->name, "_HostSend") == 0 || strcmp(sn->def->name, "_HostRecv") == 0)
    return;
  tfc_wbuf n;
  tfc_wbuf_init(&n);
  int64_t rel = end_ns - start_ns;
  tfc_wbuf_string(&n, 1, sn->name);
  tfc_wbuf_varint_field(&n, 2, (uint64_t)(start_ns / 1000));
  tfc_wbuf_varint_field(&n, 4, (uint64_t)(rel / 1000));
  tfc_wbuf_varint_field(&n, 5, (uint64_t)(rel / 1000));
  char label[512];
  snprintf(label, sizeof label, "%s = %s()", sn->name, sn->def->name);
  tfc_wbuf_string(&n, 8, label);
  tfc_wbuf_varint_field(&n, 13, (uint64_t)start_ns);
  tfc_wbuf_varint_field(&n, 15, (uint64_t)rel);
  tfc_wbuf_varint_field(&n, 16, (uint64_t)rel);
  pthread_mutex_lock(&k->mu);
  tfc_wbuf_ld(&k->nodes, 2, n.data, n.len);
  if (n.oom) k->nodes.oom = true;
  pthread_mutex_unlock(&k->mu);
  tfc_wbuf_free(&n);
}

/* What a RunGraph's deadline timer aborts. */
typedef struct deadline_ctx {
  tfc_remote_rendezvous *rdv;
  tfc_worker *w;
  int64_t step_id;
} deadline_ctx;

/* Timer callback: the caller's deadline passed while the step ran. */
static void deadline_fire(void *arg) {
  deadline_ctx *d = arg;
  tfc_status st;
  tfc_status_set(&st, TFC_CODE_DEADLINE_EXCEEDED, "RunGraph of step %" PRId64 " on %s passed the caller's "
                 "deadline", d->step_id, d->w->dev_name);
  tfc_rendezvous *b = tfc_remote_rendezvous_base(d->rdv);
  b->ops->abort(b, &st);
}

/* RunGraph. */
static bool run_graph(tfc_worker *w, const uint8_t *req, size_t len, int64_t timeout_ms, tfc_msg *resp,
                      tfc_status *st) {
  Tensorflow__RunGraphRequest *r = (Tensorflow__RunGraphRequest *)tfc_pb_unpack(
      &tensorflow__run_graph_request__descriptor, req, len, "RunGraphRequest", st);
  if (!r) {
    st->code = TFC_CODE_INTERNAL;
    return false;
  }
  bool store = r->store_errors_in_response_body;
  bool trace = r->exec_opts && r->exec_opts->record_timeline;
  stats_sink sink;
  pthread_mutex_init(&sink.mu, NULL);
  tfc_wbuf_init(&sink.nodes);
  tfc_status rst;
  tfc_status_clear(&rst);
  tfc_wbuf out;
  tfc_wbuf_init(&out);
  pthread_mutex_lock(&w->mu);
  bool found = false;
  wgraph *g = tfc_hashmap_get(&w->graphs, r->graph_handle, strlen(r->graph_handle), &found);
  if (found) g->running++;
  pthread_mutex_unlock(&w->mu);
  tfc_remote_rendezvous *rdv = NULL;
  bool ok = found || tfc_status_set(&rst, TFC_CODE_ABORTED, "Graph handle is not found: %s. Possibly, this "
                                    "worker just restarted.", r->graph_handle);
  if (ok) ok = (rdv = step_rdv(w, r->step_id, false, &rst)) != NULL;
  /* the caller's deadline ends the step here too: waits for values from
   * other tasks fail with DEADLINE_EXCEEDED even when the master is gone */
  deadline_ctx dctx = {.rdv = rdv, .w = w, .step_id = r->step_id};
  tfc_timer *timer = ok && timeout_ms < INT64_MAX ? tfc_timer_start(timeout_ms, deadline_fire, &dctx) : NULL;
  tfc_rendezvous *base = rdv ? tfc_remote_rendezvous_base(rdv) : NULL;
  for (size_t i = 0; ok && i < r->n_send; i++) {
    Tensorflow__NamedTensorProto *nt = r->send[i];
    if (!nt->tensor) {
      ok = tfc_status_set(&rst, TFC_CODE_INVALID_ARGUMENT, "RunGraph send %s holds no tensor", nt->name);
      break;
    }
    tfc_tensor *t = tfc_tensor_from_pb_take(nt->tensor, &rst);
    if (!t) {
      ok = false;
      break;
    }
    ok = tfc_remote_rendezvous_feed(rdv, nt->name, t, &rst);
    tfc_tensor_unref(t);
  }
  if (ok && g->exec) {
    ensure_pools(w);
    pthread_mutex_lock(&w->mu);
    tfc_flib_set_pools(g->flib, w->intra);
    pthread_mutex_unlock(&w->mu);
    tfc_exec_env env = {
        .resources = w->resources,
        .intra_pool = w->intra,
        .inter_pool = w->inter,
        .log = stderr_log,
        .kernel_cache = g->ws->kcache,
        .device_type = "CPU",
        .flib = g->flib,
    };
    tfc_executor *execs[1] = {g->exec};
    /* a step of a deleted session (its master closed it) stops with CANCELLED,
     * completing ops that wait for something outside the step */
    tfc_step_args args = {.sg = &g->sg, .n_execs = 1, .execs = execs, .rendezvous = base,
                          .cancel = &g->ws->cancelled};
    if (timeout_ms < INT64_MAX) {
      struct timespec now;
      clock_gettime(CLOCK_MONOTONIC, &now);
      args.deadline_ns = (int64_t)now.tv_sec * 1000000000LL + now.tv_nsec + timeout_ms * 1000000LL;
    }
    if (trace) {
      args.node_stats = record_node;
      args.node_stats_ctx = &sink;
      tfc_remote_rendezvous_trace(rdv);
    }
    ok = tfc_run_step(&args, &env, &rst);
  }
  for (size_t i = 0; ok && i < r->n_recv_key; i++) {
    bool dead = false;
    tfc_tensor *t = tfc_remote_rendezvous_wait_local(rdv, r->recv_key[i], timeout_ms, &dead, &rst);
    if (!t && dead) /* TF's words and code for a dead fetch from a worker */
      tfc_status_set(&rst, TFC_CODE_INTERNAL, "The tensor returned for %s was not valid.", r->recv_key[i]);
    if (!t) {
      ok = false;
      break;
    }
    tfc_wbuf tp, named;
    tfc_wbuf_init(&tp);
    tfc_wbuf_init(&named);
    ok = tfc_wire_tensor_proto(t, &tp, &rst);
    tfc_tensor_unref(t);
    tfc_wbuf_string(&named, 1, r->recv_key[i]);
    tfc_wbuf_ld(&named, 2, tp.data, tp.len);
    tfc_wbuf_ld(&out, 1, named.data, named.len);
    tfc_wbuf_free(&tp);
    tfc_wbuf_free(&named);
  }
  if (ok && trace) {
    /* RunGraphResponse.step_stats: this task's device once with its RecvTensor
     * calls (when it made any), then once with the partition's nodes */
    tfc_wbuf dev, ss, recvs;
    tfc_wbuf_init(&dev);
    tfc_wbuf_init(&ss);
    tfc_wbuf_init(&recvs);
    if (tfc_remote_rendezvous_take_stats(rdv, &recvs) > 0) {
      tfc_wbuf rd;
      tfc_wbuf_init(&rd);
      tfc_wbuf_string(&rd, 1, w->dev_name);
      tfc_wbuf_bytes(&rd, recvs.data, recvs.len);
      tfc_wbuf_ld(&ss, 1, rd.data, rd.len);
      if (rd.oom || recvs.oom) out.oom = true;
      tfc_wbuf_free(&rd);
    }
    tfc_wbuf_free(&recvs);
    tfc_wbuf_string(&dev, 1, w->dev_name);
    tfc_wbuf_bytes(&dev, sink.nodes.data, sink.nodes.len);
    tfc_wbuf_ld(&ss, 1, dev.data, dev.len);
    tfc_wbuf_ld(&out, 2, ss.data, ss.len);
    if (dev.oom || ss.oom || sink.nodes.oom) out.oom = true;
    tfc_wbuf_free(&dev);
    tfc_wbuf_free(&ss);
  }
  tfc_timer_cancel(timer);
  tfc_wbuf_free(&sink.nodes);
  pthread_mutex_destroy(&sink.mu);
  if (ok && out.oom) ok = tfc_status_set(&rst, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  if (!ok && base) base->ops->abort(base, &rst);
  if (rdv) tfc_remote_rendezvous_unref(rdv);
  if (found) graph_release(w, g);
  protobuf_c_message_free_unpacked(&r->base, &tfc_pb_allocator);
  if (!ok) {
    tfc_wbuf_free(&out);
    if (!store) {
      tfc_status_copy(st, &rst);
      return false;
    }
    tfc_wbuf_varint_field(&out, 5, (uint64_t)rst.code);
    tfc_wbuf_string(&out, 6, rst.msg);
  }
  tfc_msg_take(resp, &out);
  return true;
}

static void unref_tensor(void *t) { tfc_tensor_unref(t); }

/* The value of the request's transport_options Any when its type is url; false otherwise. */
static bool transport_option(const uint8_t *req, size_t len, const char *url, const uint8_t **val, size_t *vn) {
  const uint8_t *any = NULL, *u = NULL;
  size_t an = 0, un = 0;
  *val = NULL;
  *vn = 0;
  if (!tfc_wire_find_ld(req, len, 6, &any, &an) || !tfc_wire_find_ld(any, an, 1, &u, &un)) return false;
  if (un != strlen(url) || memcmp(u, url, un) != 0) return false;
  tfc_wire_find_ld(any, an, 2, val, vn);
  return true;
}

/* True when a RecvTensorRequest offers the same-host transport from this
 * host and t is worth it (numeric, at least TFC_SAME_HOST_MIN_BYTES). */
static bool same_host_wanted(const uint8_t *req, size_t len, const tfc_tensor *t) {
  if (tfc_dtype_is_stringlike(t->dtype) || tfc_tensor_is_local_handle(t) ||
      tfc_tensor_nbytes(t) < TFC_SAME_HOST_MIN_BYTES)
    return false;
  const uint8_t *key;
  size_t kn;
  const char *mine = tfc_same_host_key();
  return transport_option(req, len, TFC_SAME_HOST_URL, &key, &kn) && mine[0] && kn == strlen(mine) &&
         memcmp(key, mine, kn) == 0;
}

/* tfc_tcp_lookup_fn: the tensor lent under token in step step_id, if the step is live. */
static tfc_tensor *tcp_lookup(void *ctx, int64_t step_id, int64_t token) {
  tfc_worker *w = ctx;
  pthread_mutex_lock(&w->mu);
  bool found = false;
  tfc_remote_rendezvous *r = tfc_hashmap_get(&w->steps, (const char *)&step_id, sizeof step_id, &found);
  if (found) tfc_remote_rendezvous_ref(r);
  pthread_mutex_unlock(&w->mu);
  if (!found) return NULL;
  tfc_tensor *t = tfc_remote_rendezvous_lent(r, token);
  tfc_remote_rendezvous_unref(r);
  return t;
}

/* The port of this worker's TCP data plane, started on first use; 0 when it cannot run. */
static int tcp_port(tfc_worker *w) {
  pthread_mutex_lock(&w->mu);
  if (!w->tcp) {
    tfc_status ignore;
    tfc_status_clear(&ignore);
    w->tcp = tfc_tcp_plane_start(tcp_lookup, w, &ignore);
  }
  int port = w->tcp ? tfc_tcp_plane_port(w->tcp) : 0;
  pthread_mutex_unlock(&w->mu);
  return port;
}

/* True when a RecvTensorRequest from a tfc peer should get t over the TCP
 * plane: the peer asked for it (TFC_DATA_PLANE=tcp there) or offered the
 * same-host plane from another host; t is numeric and large. */
static bool tcp_wanted(const uint8_t *req, size_t len, const tfc_tensor *t) {
  if (tfc_dtype_is_stringlike(t->dtype) || tfc_tensor_nbytes(t) < TFC_SAME_HOST_MIN_BYTES) return false;
  const uint8_t *v;
  size_t vn;
  if (transport_option(req, len, TFC_TCP_URL, &v, &vn)) return true;
  const char *mine = tfc_same_host_key();
  return transport_option(req, len, TFC_SAME_HOST_URL, &v, &vn) &&
         !(mine[0] && vn == strlen(mine) && memcmp(v, mine, vn) == 0);
}

/* Fills resp with a RecvTensorResponse for a dead tensor: is_dead set and
 * the 1-D, 0-element float tensor TF puts beside it. */
static bool dead_response(tfc_msg *resp, tfc_status *st) {
  int64_t zero = 0;
  tfc_tensor *empty = tfc_tensor_new(TFC_DTYPE_FLOAT, 1, &zero, st);
  if (!empty) return false;
  tfc_wbuf head;
  tfc_wbuf_init(&head);
  const void *body;
  size_t body_len;
  bool ok = tfc_wire_recv_tensor_response(empty, true, &head, &body, &body_len, st);
  tfc_tensor_unref(empty);
  if (ok && head.oom) ok = tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  if (!ok) {
    tfc_wbuf_free(&head);
    return false;
  }
  tfc_msg_take(resp, &head);
  return true;
}

/* RecvTensor: wait for the local value and answer it (tensor bytes zero-copy). */
static bool recv_tensor(tfc_worker *w, const uint8_t *req, size_t len, int64_t timeout_ms, tfc_msg *resp,
                        tfc_status *st) {
  size_t pos = 0;
  tfc_wfield f;
  while (tfc_wire_next(req, len, &pos, &f)) {
  }
  if (!tfc_wire_ok(len, pos)) return tfc_status_set(st, TFC_CODE_INTERNAL, "Unable to parse request");
  int64_t step_id = field_varint(req, len, 1);
  char *key = field_string(req, len, 2);
  if (!key) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  if (!valid_key(key)) {
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Invalid rendezvous key: %s", key);
    tfc_free(key);
    return false;
  }
  const char *semi = strchr(key, ';');
  int task = tfc_cluster_task_of_device(w->c, key, (size_t)(semi - key));
  if (task != w->c->self) {
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "RecvTensor asks %s for a tensor of another task: %s",
                   w->c->tasks[w->c->self].name, key);
    tfc_free(key);
    return false;
  }
  tfc_remote_rendezvous *rdv = step_rdv(w, step_id, true, st);
  const uint8_t *tokv;
  size_t tokn;
  tfc_tensor *t = NULL;
  bool dead = false;
  if (rdv && transport_option(req, len, TFC_LENT_URL, &tokv, &tokn)) {
    /* a same-host peer could not copy a lent tensor: send it over gRPC */
    char tok[32];
    snprintf(tok, sizeof tok, "%.*s", (int)(tokn < 31 ? tokn : 31), tokv ? (const char *)tokv : "");
    t = tfc_remote_rendezvous_lent(rdv, atoll(tok));
    if (!t) tfc_status_set(st, TFC_CODE_NOT_FOUND, "No lent tensor %s for step %" PRId64, tok, step_id);
  } else if (rdv) {
    t = tfc_remote_rendezvous_wait_local(rdv, key, timeout_ms, &dead, st);
  }
  if (dead) {
    /* is_dead with an empty float tensor, as TF answers; no side data plane */
    if (rdv) tfc_remote_rendezvous_unref(rdv);
    tfc_free(key);
    return dead_response(resp, st);
  }
  int64_t token = 0;
  int port = 0;
  if (t && same_host_wanted(req, len, t)) token = tfc_remote_rendezvous_lend(rdv, t);
  else if (t && tcp_wanted(req, len, t) && (port = tcp_port(w)) > 0) token = tfc_remote_rendezvous_lend(rdv, t);
  if (rdv && !t) drop_orphan(w, step_id, rdv);
  if (rdv) tfc_remote_rendezvous_unref(rdv);
  tfc_free(key);
  if (!t) return false;
  tfc_wbuf head;
  tfc_wbuf_init(&head);
  if (token > 0) {
    /* a tfc peer on this host copies the bytes out of this process; one on
     * another host reads them from the TCP plane at this task's address */
    char where[320];
    if (port > 0) {
      /* the host peers reach: TFC_TCP_PLANE_HOST, else this task's address in the spec */
      const char *addr = getenv("TFC_TCP_PLANE_HOST");
      const char *colon = NULL;
      if (!addr || !addr[0]) {
        addr = w->c->tasks[w->c->self].address;
        colon = strrchr(addr, ':');
      }
      snprintf(where, sizeof where, "%.*s %d %zu %lld", (int)(colon ? colon - addr : (ptrdiff_t)strlen(addr)),
               addr, port, tfc_tensor_nbytes(t), (long long)token);
    } else {
      snprintf(where, sizeof where, "%d %llx %zu %lld", (int)getpid(), (unsigned long long)(uintptr_t)t->data,
               tfc_tensor_nbytes(t), (long long)token);
    }
    tfc_wbuf meta, any;
    tfc_wbuf_init(&meta);
    tfc_wbuf_init(&any);
    tfc_wire_tensor_meta(t, &meta);
    tfc_wbuf_string(&any, 1, port > 0 ? TFC_TCP_URL : TFC_SAME_HOST_URL);
    tfc_wbuf_string(&any, 2, where);
    tfc_wbuf_ld(&head, 1, meta.data, meta.len);
    tfc_wbuf_ld(&head, 4, any.data, any.len);
    bool oom = meta.oom || any.oom || head.oom;
    tfc_wbuf_free(&meta);
    tfc_wbuf_free(&any);
    tfc_tensor_unref(t);
    if (oom) {
      tfc_wbuf_free(&head);
      return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    }
    tfc_msg_take(resp, &head);
    return true;
  }
  const void *body;
  size_t body_len;
  if (!tfc_wire_recv_tensor_response(t, false, &head, &body, &body_len, st)) {
    tfc_wbuf_free(&head);
    tfc_tensor_unref(t);
    return false;
  }
  tfc_msg_take(resp, &head);
  if (body_len > 0) {
    resp->s[1] = (tfc_rpc_slice){body, body_len, unref_tensor, t};
    resp->n = 2;
  } else {
    tfc_tensor_unref(t);
  }
  return true;
}

/* CleanupGraph: the step is over; drop its rendezvous. */
static bool cleanup_graph(tfc_worker *w, const uint8_t *req, size_t len) {
  int64_t step_id = field_varint(req, len, 1);
  pthread_mutex_lock(&w->mu);
  tfc_remote_rendezvous *r = tfc_hashmap_remove(&w->steps, (const char *)&step_id, sizeof step_id);
  tfc_hashmap_remove(&w->orphans, (const char *)&step_id, sizeof step_id);
  w->done_steps[w->done_next] = step_id;
  w->done_next = (w->done_next + 1) % (int)(sizeof w->done_steps / sizeof w->done_steps[0]);
  pthread_mutex_unlock(&w->mu);
  if (r) {
    tfc_status st;
    tfc_status_set(&st, TFC_CODE_CANCELLED, "Step %" PRId64 " was cleaned up", step_id);
    tfc_rendezvous *b = tfc_remote_rendezvous_base(r);
    b->ops->abort(b, &st);
    tfc_remote_rendezvous_unref(r);
  }
  return true;
}

/* CleanupAll: drop variables of the given containers (all when none given). */
static bool cleanup_all(tfc_worker *w, const uint8_t *req, size_t len) {
  size_t pos = 0;
  tfc_wfield f;
  bool any = false;
  while (tfc_wire_next(req, len, &pos, &f)) {
    if (f.number != 1 || f.wire != 2) continue;
    any = true;
    char *c = tfc_strndup((const char *)f.p, f.n);
    if (c) tfc_resource_mgr_clear_container(w->resources, c);
    tfc_free(c);
  }
  if (!any) tfc_resource_mgr_clear(w->resources);
  return true;
}

/* DeleteWorkerSession: deregisters the session's graphs and forgets it. */
static bool delete_session(tfc_worker *w, const uint8_t *req, size_t len, tfc_status *st) {
  char *h = field_string(req, len, 1);
  if (!h) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  int freed = 0;
  pthread_mutex_lock(&w->mu);
  wsession *live = tfc_hashmap_get(&w->sessions, h, strlen(h), NULL);
  if (live) atomic_store(&live->cancelled, 1);
  pthread_mutex_unlock(&w->mu);
  for (;;) {
    char *victim = NULL;
    pthread_mutex_lock(&w->mu);
    for (size_t i = 0; i < w->graphs.cap && !victim; i++) {
      const char *k;
      size_t kl;
      void *v;
      if (tfc_hashmap_slot(&w->graphs, i, &k, &kl, &v) && strcmp(((wgraph *)v)->session, h) == 0)
        victim = tfc_strdup(((wgraph *)v)->handle);
    }
    pthread_mutex_unlock(&w->mu);
    if (!victim) break;
    tfc_status ignore;
    freed += deregister(w, victim, &ignore);
    tfc_free(victim);
  }
  pthread_mutex_lock(&w->mu);
  wsession *s = tfc_hashmap_remove(&w->sessions, h, strlen(h));
  if (s) {
    freed = s->deregistered; /* the graphs deregistered before, and those just now */
    wsession_unref_locked(s);
  }
  size_t left = w->graphs.count;
  pthread_mutex_unlock(&w->mu);
  if (s || freed)
    tfc_server_log(w->c->tasks[w->c->self].name, "worker session %s deleted: %d graphs freed, %zu registered "
                   "graphs remain", h, freed, left);
  tfc_free(h);
  return true;
}

/* Dispatch (see worker.h). */
bool tfc_worker_handle(tfc_worker *w, tfc_method m, const uint8_t *req, size_t len, int64_t timeout_ms,
                       tfc_msg *resp, tfc_status *st) {
  resp->n = 0;
  if (!req) req = (const uint8_t *)"";
  size_t pos = 0;
  tfc_wfield f;
  while (tfc_wire_next(req, len, &pos, &f)) {
  }
  if (!tfc_wire_ok(len, pos)) return tfc_status_set(st, TFC_CODE_INTERNAL, "Unable to parse request");
  bool ok = true;
  switch (m) {
    case TFC_M_GET_STATUS: return get_status(w, resp, st);
    case TFC_M_CREATE_WORKER_SESSION: {
      char *h = field_string(req, len, 1);
      pthread_mutex_lock(&w->mu);
      ok = h && session_locked(w, h, st) != NULL;
      pthread_mutex_unlock(&w->mu);
      tfc_free(h);
      break;
    }
    case TFC_M_DELETE_WORKER_SESSION: ok = delete_session(w, req, len, st); break;
    case TFC_M_REGISTER_GRAPH: return register_graph(w, req, len, resp, st);
    case TFC_M_DEREGISTER_GRAPH: {
      char *h = field_string(req, len, 1);
      ok = h ? deregister(w, h, st) : tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
      tfc_free(h);
      break;
    }
    case TFC_M_RUN_GRAPH: return run_graph(w, req, len, timeout_ms, resp, st);
    case TFC_M_CLEANUP_GRAPH: ok = cleanup_graph(w, req, len); break;
    case TFC_M_CLEANUP_ALL: ok = cleanup_all(w, req, len); break;
    case TFC_M_RECV_TENSOR: return recv_tensor(w, req, len, timeout_ms, resp, st);
    default:
      return tfc_status_set(st, TFC_CODE_UNIMPLEMENTED, "%s is not implemented by tfc's worker",
                            tfc_method_paths[m]);
  }
  if (!ok) return false;
  tfc_wbuf empty;
  tfc_wbuf_init(&empty);
  tfc_msg_take(resp, &empty);
  return true;
}
