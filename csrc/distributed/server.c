/*
 * server.c — a task's gRPC server dispatching to its master and worker (see server.h).
 */
#include "distributed/server.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/alloc.h"
#include "distributed/cluster.h"
#include "distributed/master.h"
#include "distributed/rpc.h"
#include "distributed/server_log.h"
#include "distributed/worker.h"

struct tfc_server {
  tfc_cluster cluster;
  tfc_worker *worker;
  tfc_master *master;
  tfc_rpc_server *rpc;
  char *bind_host;           /* tfc_server_set_bind, else TFC_SERVER_BIND, else the own task's host */
  pthread_mutex_t mu;
  pthread_cond_t cv;
  bool started, stopped, stop_done;
  bool shutdown_requested;   /* a Shutdown call came: join() stops the server and returns */
  /* activity (for exit-when-idle): calls other than GetStatus */
  int busy;                  /* such calls running now */
  bool active;               /* one ever came */
  struct timespec last;      /* CLOCK_MONOTONIC of the last one's start or end */
};

/* Notes the start (delta 1) or end (delta -1) of a call that counts as activity. */
static void note_activity(tfc_server *s, int delta) {
  pthread_mutex_lock(&s->mu);
  s->busy += delta;
  s->active = true;
  clock_gettime(CLOCK_MONOTONIC, &s->last);
  pthread_mutex_unlock(&s->mu);
}

/* The RPC handler: worker methods first in the table, then master methods. */
static void handle(void *ctx, int method, tfc_rpc_call *call, const uint8_t *req, size_t len) {
  tfc_server *s = ctx;
  tfc_msg msg = {0};
  tfc_status st;
  tfc_status_clear(&st);
  if (method == TFC_M_SHUTDOWN) {
    tfc_msg_take(&msg, &(tfc_wbuf){0});
    tfc_rpc_reply(call, NULL, msg.s, msg.n);
    tfc_server_log(tfc_server_task_name(s), "shutdown requested over RPC");
    pthread_mutex_lock(&s->mu);
    s->shutdown_requested = true;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
    return;
  }
  bool counts = method != TFC_M_GET_STATUS;
  if (counts) note_activity(s, 1);
  int64_t timeout = tfc_rpc_call_remaining_ms(call);
  bool ok = method < TFC_M_CREATE_SESSION
                ? tfc_worker_handle(s->worker, (tfc_method)method, req, len, timeout, &msg, &st)
                : tfc_master_handle(s->master, (tfc_method)method, req, len, timeout, &msg, &st);
  if (ok)
    tfc_rpc_reply(call, NULL, msg.s, msg.n);
  else
    tfc_rpc_reply(call, &st, NULL, 0);
  if (counts) note_activity(s, -1);
}

/* Sets the host the server binds (before start). */
bool tfc_server_set_bind(tfc_server *s, const char *host, tfc_status *st) {
  char *h = host && host[0] ? tfc_strdup(host) : NULL;
  if (host && host[0] && !h) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  pthread_mutex_lock(&s->mu);
  bool late = s->started;
  if (!late) {
    tfc_free(s->bind_host);
    s->bind_host = h;
  }
  pthread_mutex_unlock(&s->mu);
  if (late) {
    tfc_free(h);
    return tfc_status_set(st, TFC_CODE_FAILED_PRECONDITION, "The server has already started");
  }
  return true;
}

/* The address to bind: "<host>:<port>" with the host given, or the own
 * task's host (a listener on every interface only when asked for). */
static void bind_address(const tfc_server *s, char *out, size_t size) {
  const char *addr = s->cluster.tasks[s->cluster.self].address;
  const char *colon = strrchr(addr, ':');
  const char *port = colon ? colon + 1 : "0";
  const char *host = s->bind_host;
  if (!host) {
    const char *e = getenv("TFC_SERVER_BIND");
    if (e && e[0]) host = e;
  }
  if (host) {
    bool v6 = strchr(host, ':') && host[0] != '[';
    snprintf(out, size, v6 ? "[%s]:%s" : "%s:%s", host, port);
  } else {
    snprintf(out, size, "%.*s:%s", colon ? (int)(colon - addr) : 0, addr, port);
  }
}

/* Seconds since the last call other than GetStatus ended, or -1 when none
 * came yet or one is running. */
double tfc_server_idle_seconds(tfc_server *s) {
  pthread_mutex_lock(&s->mu);
  double idle = -1;
  if (s->active && s->busy == 0) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    idle = (double)(now.tv_sec - s->last.tv_sec) + (double)(now.tv_nsec - s->last.tv_nsec) / 1e9;
  }
  pthread_mutex_unlock(&s->mu);
  return idle;
}

/* Parses the ServerDef and builds the worker and master. */
tfc_server *tfc_server_new(const void *def, size_t len, tfc_status *st) {
  tfc_server *s = tfc_calloc(1, sizeof *s);
  if (!s) {
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory creating a server");
    return NULL;
  }
  if (!tfc_cluster_init(&s->cluster, def, len, st)) {
    tfc_free(s);
    return NULL;
  }
  s->worker = tfc_worker_new(&s->cluster, st);
  s->master = s->worker ? tfc_master_new(&s->cluster, s->worker, st) : NULL;
  if (!s->master) {
    tfc_worker_free(s->worker);
    tfc_cluster_destroy(&s->cluster);
    tfc_free(s);
    return NULL;
  }
  pthread_mutex_init(&s->mu, NULL);
  pthread_cond_init(&s->cv, NULL);
  return s;
}

/* Binds and serves. */
bool tfc_server_start(tfc_server *s, tfc_status *st) {
  pthread_mutex_lock(&s->mu);
  bool ok = true;
  if (s->stopped) {
    ok = tfc_status_set(st, TFC_CODE_FAILED_PRECONDITION, "Server has stopped.");
  } else if (!s->started) {
    char bind[320];
    bind_address(s, bind, sizeof bind);
    int port = 0;
    s->rpc = tfc_rpc_server_new(bind, tfc_method_paths, TFC_M_COUNT, handle, s, &port, st);
    ok = s->rpc && tfc_cluster_set_port(&s->cluster, port, st);
    s->started = ok;
  }
  pthread_mutex_unlock(&s->mu);
  return ok;
}

const char *tfc_server_address(const tfc_server *s) { return s->cluster.tasks[s->cluster.self].address; }

const char *tfc_server_task_name(const tfc_server *s) { return s->cluster.tasks[s->cluster.self].name; }

/* Stops serving (idempotent); a second caller waits until the first one is done. */
void tfc_server_stop(tfc_server *s) {
  pthread_mutex_lock(&s->mu);
  bool was = s->stopped;
  s->stopped = true;
  tfc_rpc_server *rpc = s->rpc;
  s->rpc = NULL;
  pthread_cond_broadcast(&s->cv);
  if (was) {
    while (!s->stop_done) pthread_cond_wait(&s->cv, &s->mu);
    pthread_mutex_unlock(&s->mu);
    return;
  }
  pthread_mutex_unlock(&s->mu);
  tfc_status st;
  tfc_status_set(&st, TFC_CODE_UNAVAILABLE, "%s is shutting down", tfc_server_task_name(s));
  tfc_worker_abort_all(s->worker, &st);
  tfc_rpc_server_free(rpc);
  pthread_mutex_lock(&s->mu);
  s->stop_done = true;
  pthread_cond_broadcast(&s->cv);
  pthread_mutex_unlock(&s->mu);
}

/* After a Shutdown call, the joining thread stops the server (never a handler). */
static void stop_if_requested(tfc_server *s) {
  pthread_mutex_lock(&s->mu);
  bool req = s->shutdown_requested && !s->stopped;
  pthread_mutex_unlock(&s->mu);
  if (!req) return;
  usleep(50000); /* lets the Shutdown answer reach the caller before calls are cancelled */
  tfc_server_stop(s);
}

/* Waits for stop (or a Shutdown call, which stops the server). */
void tfc_server_join(tfc_server *s) {
  pthread_mutex_lock(&s->mu);
  while (!s->stopped && !s->shutdown_requested) pthread_cond_wait(&s->cv, &s->mu);
  pthread_mutex_unlock(&s->mu);
  stop_if_requested(s);
}

/* Waits for stop, at most timeout_ms. */
bool tfc_server_join_for(tfc_server *s, int timeout_ms) {
  struct timespec dl;
  clock_gettime(CLOCK_REALTIME, &dl);
  dl.tv_sec += timeout_ms / 1000;
  dl.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
  if (dl.tv_nsec >= 1000000000L) {
    dl.tv_sec++;
    dl.tv_nsec -= 1000000000L;
  }
  pthread_mutex_lock(&s->mu);
  while (!s->stopped && !s->shutdown_requested)
    if (pthread_cond_timedwait(&s->cv, &s->mu, &dl) != 0) break;
  bool stopped = s->stopped || s->shutdown_requested;
  pthread_mutex_unlock(&s->mu);
  if (stopped) stop_if_requested(s);
  return stopped;
}

/* Stops and frees. */
void tfc_server_free(tfc_server *s) {
  if (!s) return;
  tfc_server_stop(s);
  tfc_master_free(s->master);
  tfc_worker_free(s->worker);
  tfc_cluster_destroy(&s->cluster);
  tfc_free(s->bind_host);
  pthread_cond_destroy(&s->cv);
  pthread_mutex_destroy(&s->mu);
  tfc_free(s);
}
