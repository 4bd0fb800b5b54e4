/*
 * server.c — a task's gRPC server dispatching to its master and worker (see server.h).
 */
#include "distributed/server.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/alloc.h"
#include "distributed/cluster.h"
#include "distributed/master.h"
#include "distributed/rpc.h"
#include "distributed/worker.h"

struct tfc_server {
  tfc_cluster cluster;
  tfc_worker *worker;
  tfc_master *master;
  tfc_rpc_server *rpc;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  bool started, stopped;
};

/* The RPC handler: worker methods first in the table, then master methods. */
static void handle(void *ctx, int method, tfc_rpc_call *call, const uint8_t *req, size_t len) {
  tfc_server *s = ctx;
  tfc_msg msg = {0};
  tfc_status st;
  tfc_status_clear(&st);
  int64_t timeout = tfc_rpc_call_remaining_ms(call);
  bool ok = method < TFC_M_CREATE_SESSION
                ? tfc_worker_handle(s->worker, (tfc_method)method, req, len, timeout, &msg, &st)
                : tfc_master_handle(s->master, (tfc_method)method, req, len, timeout, &msg, &st);
  if (ok)
    tfc_rpc_reply(call, NULL, msg.s, msg.n);
  else
    tfc_rpc_reply(call, &st, NULL, 0);
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
    const char *addr = s->cluster.tasks[s->cluster.self].address;
    const char *colon = strrchr(addr, ':');
    char bind[64];
    snprintf(bind, sizeof bind, "0.0.0.0:%s", colon ? colon + 1 : "0");
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

/* Stops serving (idempotent). */
void tfc_server_stop(tfc_server *s) {
  pthread_mutex_lock(&s->mu);
  bool was = s->stopped;
  s->stopped = true;
  tfc_rpc_server *rpc = s->rpc;
  s->rpc = NULL;
  pthread_cond_broadcast(&s->cv);
  pthread_mutex_unlock(&s->mu);
  if (was) return;
  tfc_status st;
  tfc_status_set(&st, TFC_CODE_UNAVAILABLE, "%s is shutting down", tfc_server_task_name(s));
  tfc_worker_abort_all(s->worker, &st);
  tfc_rpc_server_free(rpc);
}

/* Waits for stop. */
void tfc_server_join(tfc_server *s) {
  pthread_mutex_lock(&s->mu);
  while (!s->stopped) pthread_cond_wait(&s->cv, &s->mu);
  pthread_mutex_unlock(&s->mu);
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
  while (!s->stopped)
    if (pthread_cond_timedwait(&s->cv, &s->mu, &dl) != 0) break;
  bool stopped = s->stopped;
  pthread_mutex_unlock(&s->mu);
  return stopped;
}

/* Stops and frees. */
void tfc_server_free(tfc_server *s) {
  if (!s) return;
  tfc_server_stop(s);
  tfc_master_free(s->master);
  tfc_worker_free(s->worker);
  tfc_cluster_destroy(&s->cluster);
  pthread_cond_destroy(&s->cv);
  pthread_mutex_destroy(&s->mu);
  tfc_free(s);
}
