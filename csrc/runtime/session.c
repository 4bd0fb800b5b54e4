/*
 * session.c — the local session (see session.h).
 *
 * Devices are /job:<job>/replica:0/task:<task>/device:CPU:<i>. Plans are
 * cached under the byte string of (feeds, fetches, targets). Thread pools
 * are created on first need, never at import; a session created before a
 * fork refuses to run in the child with a clear error rather than hang on
 * threads that no longer exist.
 */
#include "runtime/session.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/block_cache.h"
#include "base/hashmap.h"
#include "graph/graphdef.h"
#include "graph/subgraph.h"
#include "runtime/executor.h"
#include "runtime/function.h"
#include "runtime/step_stats.h"
#include "runtime/remap.h"

struct tfc_plan {
  tfc_subgraph sg;
  int n_execs;
  tfc_executor **execs;
  bool needs_rendezvous;
  int n_feeds;
  tfc_dtype *feed_types;
  tfc_shape *feed_shapes;
  const char **feed_names;
  tfc_endpoint *feed_eps;      /* the plan's feeds and fetches (for partition graphs) */
  tfc_endpoint *fetch_eps;
  int n_fetch_eps;
  atomic_llong steps;          /* steps run on this plan (the cost model counts them) */
};

struct tfc_session {
  tfc_graph *g;
  tfc_session_options opts;
  int n_devices;
  char **dev_names;
  tfc_device_name *dev_parsed;
  tfc_device_set ds;
  tfc_resource_mgr *resources;
  tfc_kernel_cache *kcache;
  tfc_flib *flib;              /* the graph's function runtime */
  tfc_threadpool *inter_pool;
  tfc_threadpool *intra_pool;
  bool pools_ready;
  pthread_mutex_t mu;          /* plans, pools, placement log */
  pthread_cond_t idle;
  tfc_hashmap plans;
  int running;
  bool closed;
  atomic_int cancel;           /* set by close: running steps with loops stop */
  int fork_gen;
  bool *logged;                /* placement already logged, per graph node id */
  int n_logged;
};

static atomic_int fork_generation;
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

/* Child side of fork: invalidates sessions of the parent. */
static void on_fork_child(void) { atomic_fetch_add(&fork_generation, 1); }

/* Installs the fork handler once. */
static void install_atfork(void) { pthread_atfork(NULL, NULL, on_fork_child); }

/* Default log sink: stderr. */
static void stderr_log(void *ctx, const char *text, size_t len) {
  (void)ctx;
  fwrite(text, 1, len, stderr);
  fflush(stderr);
}

/* Number of online CPUs (at least 1). */
static int ncpus(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? (int)n : 1;
}

/* Frees a plan. */
static void plan_free(tfc_plan *p) {
  if (!p) return;
  for (int i = 0; i < p->n_execs; i++) tfc_executor_free(p->execs[i]);
  tfc_free(p->execs);
  tfc_free(p->feed_types);
  tfc_free(p->feed_shapes);
  tfc_free((void *)p->feed_names);
  tfc_free(p->feed_eps);
  tfc_free(p->fetch_eps);
  tfc_subgraph_free(&p->sg);
  tfc_free(p);
}

/* Creates a session (see session.h). */
tfc_session *tfc_session_new(tfc_graph *g, const tfc_session_options *opts, tfc_status *st) {
  pthread_once(&atfork_once, install_atfork);
  if (!tfc_sendrecv_register()) {
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory registering kernels");
    return NULL;
  }
  tfc_session *s = tfc_calloc(1, sizeof *s);
  if (!s) goto oom;
  s->opts = *opts;
  if (!s->opts.log) s->opts.log = stderr_log;
  if (!s->opts.job || !s->opts.job[0]) s->opts.job = "localhost";
  s->n_devices = opts->n_cpu_devices > 0 ? opts->n_cpu_devices : 1;
  s->dev_names = tfc_calloc((size_t)s->n_devices, sizeof(char *));
  s->dev_parsed = tfc_calloc((size_t)s->n_devices, sizeof(tfc_device_name));
  if (!s->dev_names || !s->dev_parsed) goto oom;
  for (int i = 0; i < s->n_devices; i++) {
    char buf[160];
    snprintf(buf, sizeof buf, "/job:%s/replica:0/task:%d/device:CPU:%d", s->opts.job, s->opts.task, i);
    s->dev_names[i] = tfc_strdup(buf);
    if (!s->dev_names[i]) goto oom;
    if (!tfc_device_name_parse(buf, &s->dev_parsed[i], st)) goto fail;
  }
  s->opts.job = NULL; /* not owned; only used above */
  s->ds.n = s->n_devices;
  s->ds.names = (const char *const *)s->dev_names;
  s->ds.parsed = s->dev_parsed;
  s->ds.allow_soft_placement = opts->allow_soft_placement;
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  s->ds.incarnation = ((int64_t)ts.tv_nsec << 20) ^ (int64_t)ts.tv_sec ^ (int64_t)(intptr_t)s;
  s->resources = tfc_resource_mgr_new();
  s->kcache = tfc_kernel_cache_new();
  if (!s->resources || !s->kcache) goto oom;
  tfc_exec_env fenv = {.resources = s->resources, .log = s->opts.log, .log_ctx = s->opts.log_ctx,
                       .out = s->opts.out, .device_type = "CPU"};
  s->flib = tfc_flib_new(g, &fenv);
  if (!s->flib) goto oom;
  pthread_mutex_init(&s->mu, NULL);
  pthread_cond_init(&s->idle, NULL);
  tfc_hashmap_init(&s->plans);
  s->fork_gen = atomic_load(&fork_generation);
  s->g = tfc_graph_ref(g);
  tfc_block_cache_retain(); /* step buffers are recycled while sessions live */
  return s;
oom:
  tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory creating a session");
fail:
  if (s) {
    for (int i = 0; s->dev_names && i < s->n_devices; i++) tfc_free(s->dev_names[i]);
    tfc_free(s->dev_names);
    tfc_free(s->dev_parsed);
    tfc_flib_free(s->flib);
    tfc_resource_mgr_free(s->resources);
    tfc_kernel_cache_free(s->kcache);
    tfc_free(s);
  }
  return NULL;
}

/* Marks closed and waits for running steps. */
void tfc_session_close(tfc_session *s) {
  if (!s) return;
  pthread_mutex_lock(&s->mu);
  s->closed = true;
  atomic_store(&s->cancel, 1);
  while (s->running > 0) pthread_cond_wait(&s->idle, &s->mu);
  pthread_mutex_unlock(&s->mu);
}

/* True after close. */
bool tfc_session_is_closed(const tfc_session *s) { return s->closed; }

/* Closes and frees everything. */
void tfc_session_free(tfc_session *s) {
  if (!s) return;
  tfc_session_close(s);
  bool same_process = atomic_load(&fork_generation) == s->fork_gen;
  for (size_t i = 0; i < s->plans.cap; i++) {
    const char *k;
    size_t kl;
    void *v;
    if (tfc_hashmap_slot(&s->plans, i, &k, &kl, &v)) plan_free(v);
  }
  tfc_hashmap_destroy(&s->plans);
  /* resources next: iterators may run library functions on their own threads */
  tfc_resource_mgr_clear(s->resources);
  tfc_flib_free(s->flib); /* after the plans: their kernels point into it */
  /* pool threads do not exist in a forked child: leak the pools there */
  if (same_process) {
    tfc_threadpool_free(s->inter_pool);
    tfc_threadpool_free(s->intra_pool);
  }
  tfc_kernel_cache_free(s->kcache);
  tfc_resource_mgr_free(s->resources);
  for (int i = 0; i < s->n_devices; i++) tfc_free(s->dev_names[i]);
  tfc_free(s->dev_names);
  tfc_free(s->dev_parsed);
  tfc_free(s->logged);
  tfc_graph_unref(s->g);
  pthread_cond_destroy(&s->idle);
  pthread_mutex_destroy(&s->mu);
  tfc_free(s);
  tfc_block_cache_release();
}

/* Creates the thread pools on first need. Caller holds s->mu. */
static void ensure_pools_locked(tfc_session *s) {
  if (s->pools_ready) return;
  s->pools_ready = true;
  int inter = s->opts.inter_op_threads > 0 ? s->opts.inter_op_threads : ncpus();
  int intra = s->opts.intra_op_threads > 0 ? s->opts.intra_op_threads : ncpus();
  /* the calling thread takes part in both, so pools hold one thread less */
  if (inter > 1) s->inter_pool = tfc_threadpool_new(inter - 1);
  if (intra > 1) s->intra_pool = tfc_threadpool_new(intra - 1);
  tfc_flib_set_pools(s->flib, s->intra_pool);
}

/* Writes TF's placement lines for newly placed nodes. Caller holds s->mu. */
static void log_placement_locked(tfc_session *s, const tfc_subgraph *sg) {
  if (sg->n_graph_nodes > s->n_logged) {
    bool *nl = tfc_realloc(s->logged, sizeof(bool) * (size_t)sg->n_graph_nodes);
    if (!nl) return;
    memset(nl + s->n_logged, 0, sizeof(bool) * (size_t)(sg->n_graph_nodes - s->n_logged));
    s->logged = nl;
    s->n_logged = sg->n_graph_nodes;
  }
  for (int i = 0; i < sg->n_graph_nodes; i++) {
    if (sg->placement[i] < 0 || s->logged[i]) continue;
    s->logged[i] = true;
    tfc_node *n = tfc_graph_node(s->g, i);
    char line[768];
    int len = snprintf(line, sizeof line, "%s: (%s): %s\n", n->name, n->def->name, s->dev_names[sg->placement[i]]);
    if (len > (int)sizeof line - 1) len = (int)sizeof line - 1;
    s->opts.log(s->opts.log_ctx, line, (size_t)len);
  }
}

/* Checks that endpoints and targets refer to nodes of the graph. */
static bool check_endpoints(tfc_graph *g, int n, const tfc_endpoint *eps, const char *what, tfc_status *st) {
  for (int i = 0; i < n; i++) {
    if (eps[i].node < 0 || eps[i].node >= g->n_nodes)
      return tfc_status_set(st, TFC_CODE_NOT_FOUND, "%s refers to a node that is not in the graph", what);
    tfc_node *node = tfc_graph_node(g, eps[i].node);
    if (eps[i].index < 0 || eps[i].index >= node->n_outputs)
      return tfc_status_set(st, TFC_CODE_NOT_FOUND, "%s '%s:%d' does not exist: '%s' has %d outputs", what,
                            node->name, eps[i].index, node->name, node->n_outputs);
  }
  return true;
}

/* Builds a new plan. */
static tfc_plan *build_plan(tfc_session *s, int n_feeds, const tfc_endpoint *feeds, int n_fetches,
                            const tfc_endpoint *fetches, int n_targets, const int *targets, tfc_status *st) {
  tfc_graph *g = s->g;
  if (!check_endpoints(g, n_feeds, feeds, "Feed", st) || !check_endpoints(g, n_fetches, fetches, "Fetch", st))
    return NULL;
  for (int i = 0; i < n_targets; i++)
    if (targets[i] < 0 || targets[i] >= g->n_nodes) {
      tfc_status_set(st, TFC_CODE_NOT_FOUND, "Target refers to a node that is not in the graph");
      return NULL;
    }
  tfc_plan *p = tfc_calloc(1, sizeof *p);
  if (!p) goto oom;
  p->n_feeds = n_feeds;
  p->feed_types = tfc_malloc(sizeof(tfc_dtype) * (size_t)(n_feeds ? n_feeds : 1));
  p->feed_shapes = tfc_malloc(sizeof(tfc_shape) * (size_t)(n_feeds ? n_feeds : 1));
  p->feed_names = tfc_malloc(sizeof(char *) * (size_t)(n_feeds ? n_feeds : 1));
  p->feed_eps = tfc_malloc(sizeof(tfc_endpoint) * (size_t)(n_feeds ? n_feeds : 1));
  p->fetch_eps = tfc_malloc(sizeof(tfc_endpoint) * (size_t)(n_fetches ? n_fetches : 1));
  if (!p->feed_types || !p->feed_shapes || !p->feed_names || !p->feed_eps || !p->fetch_eps) goto oom;
  if (n_feeds) memcpy(p->feed_eps, feeds, sizeof(tfc_endpoint) * (size_t)n_feeds);
  if (n_fetches) memcpy(p->fetch_eps, fetches, sizeof(tfc_endpoint) * (size_t)n_fetches);
  p->n_fetch_eps = n_fetches;
  for (int i = 0; i < n_feeds; i++) {
    tfc_node *n = tfc_graph_node(g, feeds[i].node);
    p->feed_types[i] = tfc_dtype_base(n->out_types[feeds[i].index]);
    p->feed_shapes[i] = n->out_shapes[feeds[i].index];
    p->feed_names[i] = n->name;
  }
  if (!tfc_subgraph_build(g, n_feeds, feeds, n_fetches, fetches, n_targets, targets, &s->ds, &p->sg, st) ||
      !tfc_remap_subgraph(&p->sg, !s->opts.no_fusion && tfc_remap_fusion_enabled(), st)) {
    plan_free(p);
    return NULL;
  }
  p->n_execs = p->sg.n_parts;
  p->needs_rendezvous = p->sg.n_parts > 1;
  p->execs = tfc_calloc((size_t)(p->n_execs ? p->n_execs : 1), sizeof(tfc_executor *));
  if (!p->execs) goto oom;
  tfc_exec_env env = {.resources = s->resources, .kernel_cache = s->kcache, .device_type = "CPU",
                      .flib = s->flib};
  for (int i = 0; i < p->n_execs; i++) {
    p->execs[i] = tfc_executor_new(&p->sg, i, &env, st);
    if (!p->execs[i]) {
      plan_free(p);
      return NULL;
    }
  }
  return p;
oom:
  plan_free(p);
  tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory building a plan");
  return NULL;
}

/* Returns the cached or new plan (see session.h). */
tfc_plan *tfc_session_plan(tfc_session *s, int n_feeds, const tfc_endpoint *feeds, int n_fetches,
                           const tfc_endpoint *fetches, int n_targets, const int *targets, tfc_status *st) {
  int32_t stack_key[64];
  size_t n_ints = 3 + 2 * (size_t)n_feeds + 2 * (size_t)n_fetches + (size_t)n_targets;
  int32_t *key = n_ints <= 64 ? stack_key : tfc_malloc(n_ints * sizeof(int32_t));
  if (!key) {
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  size_t k = 0;
  key[k++] = n_feeds;
  for (int i = 0; i < n_feeds; i++) {
    key[k++] = feeds[i].node;
    key[k++] = feeds[i].index;
  }
  key[k++] = n_fetches;
  for (int i = 0; i < n_fetches; i++) {
    key[k++] = fetches[i].node;
    key[k++] = fetches[i].index;
  }
  key[k++] = n_targets;
  for (int i = 0; i < n_targets; i++) key[k++] = targets[i];
  size_t klen = k * sizeof(int32_t);
  pthread_mutex_lock(&s->mu);
  if (s->closed) {
    pthread_mutex_unlock(&s->mu);
    if (key != stack_key) tfc_free(key);
    tfc_status_set(st, TFC_CODE_FAILED_PRECONDITION, "Attempted to use a closed Session.");
    return NULL;
  }
  bool found = false;
  tfc_plan *p = tfc_hashmap_get(&s->plans, (const char *)key, klen, &found);
  if (!found) {
    /* building under the session lock keeps one plan per key; plans are built rarely */
    pthread_mutex_lock(&s->g->mu);
    p = build_plan(s, n_feeds, feeds, n_fetches, fetches, n_targets, targets, st);
    pthread_mutex_unlock(&s->g->mu);
    if (p && s->opts.log_device_placement) log_placement_locked(s, &p->sg);
    if (p && tfc_hashmap_put(&s->plans, (const char *)key, klen, p) != 0) {
      plan_free(p);
      p = NULL;
      tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory caching a plan");
    }
  }
  pthread_mutex_unlock(&s->mu);
  if (key != stack_key) tfc_free(key);
  return p;
}

/* Runs a plan (see session.h). */
bool tfc_session_run(tfc_session *s, tfc_plan *p, tfc_tensor *const *feed_values, tfc_tensor **fetch_values,
                     tfc_status *st) {
  return tfc_session_run_timeout(s, p, feed_values, fetch_values, 0, st);
}

/* "name:k" of each endpoint, tfc_malloc'd (NULL on OOM). */
static char **endpoint_names(tfc_graph *g, int n, const tfc_endpoint *eps) {
  char **names = tfc_calloc((size_t)(n ? n : 1), sizeof(char *));
  if (!names) return NULL;
  for (int i = 0; i < n; i++) {
    tfc_node *node = tfc_graph_node(g, eps[i].node);
    size_t len = strlen(node->name) + 16;
    if (!(names[i] = tfc_malloc(len))) {
      for (int j = 0; j < i; j++) tfc_free(names[j]);
      tfc_free(names);
      return NULL;
    }
    snprintf(names[i], len, "%s:%d", node->name, eps[i].index);
  }
  return names;
}

/* Appends RunMetadata.partition_graphs (field 3): the GraphDef of every partition. */
static bool add_partition_graphs(tfc_session *s, tfc_plan *p, tfc_strbuf *md, tfc_status *st) {
  char **feed_names = endpoint_names(s->g, p->n_feeds, p->feed_eps);
  char **fetch_names = endpoint_names(s->g, p->n_fetch_eps, p->fetch_eps);
  bool ok = feed_names && fetch_names;
  if (!ok) tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  for (int k = 0; ok && k < p->sg.n_parts; k++) {
    tfc_partition_export_options eo = {
        .device_name = s->dev_names[p->sg.parts[k].device],
        .client_device = s->dev_names[0],
        .feed_names = (const char *const *)feed_names,
        .fetch_names = (const char *const *)fetch_names,
        .suffix = "",
        .producer = s->g->producer,
    };
    void *data = NULL;
    size_t len = 0;
    ok = tfc_partition_export(&p->sg, k, &eo, &data, &len, st);
    if (ok && !tfc_pb_put_bytes(md, 3, data, len))
      ok = tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    tfc_free(data);
  }
  for (int i = 0; feed_names && i < p->n_feeds; i++) tfc_free(feed_names[i]);
  for (int i = 0; fetch_names && i < p->n_fetch_eps; i++) tfc_free(fetch_names[i]);
  tfc_free(feed_names);
  tfc_free(fetch_names);
  return ok;
}

/* Runs a plan with a time limit, traced when tr asks for it (see session.h). */
bool tfc_session_run_traced(tfc_session *s, tfc_plan *p, tfc_tensor *const *feed_values,
                            tfc_tensor **fetch_values, int64_t timeout_ms, const tfc_run_trace *tr,
                            tfc_strbuf *metadata, tfc_status *st) {
  if (atomic_load(&fork_generation) != s->fork_gen)
    return tfc_status_set(st, TFC_CODE_FAILED_PRECONDITION,
                          "This Session was created in another process (before fork()); create a new "
                          "Session in this process.");
  pthread_mutex_lock(&s->mu);
  if (s->closed) {
    pthread_mutex_unlock(&s->mu);
    return tfc_status_set(st, TFC_CODE_FAILED_PRECONDITION, "Attempted to use a closed Session.");
  }
  ensure_pools_locked(s);
  s->running++;
  pthread_mutex_unlock(&s->mu);
  for (int i = 0; i < p->sg.n_fetches; i++) fetch_values[i] = NULL;
  tfc_exec_env env = {
      .resources = s->resources,
      .intra_pool = s->intra_pool,
      .inter_pool = s->inter_pool,
      .log = s->opts.log,
      .log_ctx = s->opts.log_ctx,
      .out = s->opts.out,
      .kernel_cache = s->kcache,
      .device_type = "CPU",
      .flib = s->flib,
  };
  tfc_rendezvous *rdv = NULL;
  tfc_step_trace *trace = NULL;
  bool ok = true;
  if (p->needs_rendezvous) {
    rdv = tfc_local_rendezvous_new();
    if (!rdv) ok = tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory creating a rendezvous");
  }
  /* GraphOptions.build_cost_model: this step measured for RunMetadata.cost_graph? */
  long long step_no = atomic_fetch_add(&p->steps, 1);
  bool cost = false;
  if (s->opts.build_cost_model > 0 && metadata) {
    long long k = step_no - s->opts.build_cost_model_after;
    cost = k >= 0 && (k + 1) % s->opts.build_cost_model == 0;
  }
  if (ok && ((tr && tr->step_stats) || cost) && metadata) {
    trace = tfc_step_trace_new(s->g, &p->sg, s->n_devices, (const char *const *)s->dev_names);
    if (!trace || (cost && !tfc_step_trace_want_cost_graph(trace)))
      ok = tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  }
  if (ok) {
    tfc_step_args args = {
        .sg = &p->sg,
        .n_execs = p->n_execs,
        .execs = p->execs,
        .feeds = feed_values,
        .fetch_out = fetch_values,
        .rendezvous = rdv,
        .cancel = &s->cancel,
    };
    if (trace) {
      args.node_stats = tfc_step_trace_record;
      args.node_stats_ctx = trace;
    }
    if (timeout_ms > 0) {
      struct timespec ts;
      clock_gettime(CLOCK_MONOTONIC, &ts);
      args.deadline_ns = (int64_t)ts.tv_sec * 1000000000ll + ts.tv_nsec + timeout_ms * 1000000ll;
    }
    ok = tfc_run_step(&args, &env, st);
  }
  if (ok && trace) {
    /* RunMetadata.step_stats (field 1) */
    tfc_strbuf ss;
    tfc_strbuf_init(&ss);
    if (!tfc_step_trace_encode(trace, &ss) || !tfc_pb_put_bytes(metadata, 1, ss.data, ss.len))
      ok = tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory encoding step stats");
    tfc_strbuf_free(&ss);
  }
  if (ok && trace && cost) {
    /* RunMetadata.cost_graph (field 2) */
    tfc_strbuf cg;
    tfc_strbuf_init(&cg);
    if (!tfc_step_trace_encode_cost_graph(trace, &cg) || !tfc_pb_put_bytes(metadata, 2, cg.data, cg.len))
      ok = tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory encoding the cost graph");
    tfc_strbuf_free(&cg);
  }
  if (ok && tr && tr->partition_graphs && metadata) {
    pthread_mutex_lock(&s->g->mu);
    ok = add_partition_graphs(s, p, metadata, st);
    pthread_mutex_unlock(&s->g->mu);
  }
  if (!ok) {
    for (int i = 0; i < p->sg.n_fetches; i++) {
      tfc_tensor_unref(fetch_values[i]);
      fetch_values[i] = NULL;
    }
  }
  tfc_step_trace_free(trace);
  if (rdv) rdv->ops->free(rdv);
  pthread_mutex_lock(&s->mu);
  if (--s->running == 0) pthread_cond_broadcast(&s->idle);
  pthread_mutex_unlock(&s->mu);
  return ok;
}

/* Runs a plan with a time limit (see session.h). */
bool tfc_session_run_timeout(tfc_session *s, tfc_plan *p, tfc_tensor *const *feed_values,
                             tfc_tensor **fetch_values, int64_t timeout_ms, tfc_status *st) {
  return tfc_session_run_traced(s, p, feed_values, fetch_values, timeout_ms, NULL, NULL, st);
}

/* Feed facts of a plan. */
tfc_dtype tfc_plan_feed_dtype(const tfc_plan *p, int i) { return p->feed_types[i]; }
const tfc_shape *tfc_plan_feed_shape(const tfc_plan *p, int i) { return &p->feed_shapes[i]; }
const char *tfc_plan_feed_name(const tfc_plan *p, int i) { return p->feed_names[i]; }
