/*
 * grpc_session.c — the grpc:// client session (see grpc_session.h).
 */
#include "distributed/grpc_session.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/alloc.h"
#include "distributed/cluster.h"
#include "distributed/rpc.h"
#include "distributed/wire.h"
#include "graph/graphdef.h"
#include "graph/tensor_proto.h"

struct tfc_grpc_session {
  char *target;
  uint8_t *config;
  size_t config_len;
  int64_t op_timeout_ms;
  pthread_mutex_t mu;
  char *handle;          /* NULL until CreateSession */
  int64_t version;
  int sent;              /* nodes the master has */
  int busy;              /* threads between enter and leave (under mu) */
  bool closing;          /* free was called: no new uses */
  bool free_on_leave;    /* free gave up waiting: the last leave frees */
  pthread_cond_t idle;   /* signalled when busy drops to 0 */
};

/* Reads operation_timeout_in_ms (field 11) from a ConfigProto. */
static int64_t op_timeout(const uint8_t *cfg, size_t len) {
  size_t pos = 0;
  tfc_wfield f;
  int64_t v = 0;
  while (tfc_wire_next(cfg, len, &pos, &f))
    if (f.number == 11 && f.wire == 0) v = (int64_t)f.v;
  return v;
}

/* Creates a client session. */
tfc_grpc_session *tfc_grpc_session_new(const char *target, const void *config, size_t config_len,
                                       tfc_status *st) {
  tfc_grpc_session *s = tfc_calloc(1, sizeof *s);
  if (!s || !(s->target = tfc_strdup(target)) || !(s->config = tfc_malloc(config_len ? config_len : 1))) {
    if (s) tfc_free(s->target);
    tfc_free(s);
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  if (config_len) memcpy(s->config, config, config_len);
  s->config_len = config_len;
  s->op_timeout_ms = op_timeout(s->config, config_len);
  pthread_mutex_init(&s->mu, NULL);
  pthread_cond_init(&s->idle, NULL);
  return s;
}

/* Calls a master method on the session's target. */
static bool call(const char *target, tfc_method m, const tfc_wbuf *b, int64_t timeout_ms, tfc_rpc_buf *resp,
                 tfc_status *st) {
  if (b->oom) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  tfc_rpc_slice s = {b->data ? (const void *)b->data : "", b->len, NULL, NULL};
  if (tfc_rpc_unary(target, tfc_method_paths[m], &s, 1, timeout_ms, resp, st)) return true;
  /* a transport failure (not a status the master answered) names the target */
  if (st->code == TFC_CODE_UNAVAILABLE && strncmp(st->msg, "From ", 5) != 0 && !strstr(st->msg, "grpc://")) {
    tfc_status cause;
    tfc_status_copy(&cause, st);
    tfc_status_set(st, cause.code, "The master at grpc://%s is unreachable (%s): %s", target,
                   tfc_method_paths[m] + 1, cause.msg);
  }
  return false;
}

/* Sends the graph delta. */
bool tfc_grpc_session_extend(tfc_grpc_session *s, tfc_graph *g, tfc_status *st) {
  pthread_mutex_lock(&s->mu);
  int n = tfc_graph_num_nodes(g);
  bool ok = true;
  if (!s->handle || n > s->sent) {
    tfc_export_options eo = {.first_node = s->sent, .end_node = n};
    void *gd = NULL;
    size_t gl = 0;
    ok = n > s->sent ? tfc_graph_export_ex(g, &eo, &gd, &gl, st) : true;
    tfc_wbuf b;
    tfc_wbuf_init(&b);
    tfc_rpc_buf resp = {0};
    if (ok && !s->handle) {
      tfc_wbuf_ld(&b, 1, gd ? gd : (void *)"", gl);
      if (s->config_len) tfc_wbuf_ld(&b, 2, s->config, s->config_len);
      char tgt[512];
      snprintf(tgt, sizeof tgt, "grpc://%s", s->target);
      tfc_wbuf_string(&b, 3, tgt);
      ok = call(s->target, TFC_M_CREATE_SESSION, &b, s->op_timeout_ms, &resp, st);
      if (ok) {
        const uint8_t *p = NULL;
        size_t pn = 0;
        tfc_wire_find_ld(resp.data, resp.len, 1, &p, &pn);
        s->handle = tfc_strndup(p ? (const char *)p : "", pn);
        s->version = 0;
        ok = s->handle || tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
      }
    } else if (ok) {
      tfc_wbuf_string(&b, 1, s->handle);
      tfc_wbuf_ld(&b, 2, gd, gl);
      tfc_wbuf_varint_field(&b, 3, (uint64_t)s->version);
      ok = call(s->target, TFC_M_EXTEND_SESSION, &b, s->op_timeout_ms, &resp, st);
      if (ok) {
        size_t pos = 0;
        tfc_wfield f;
        while (tfc_wire_next(resp.data, resp.len, &pos, &f))
          if (f.number == 4 && f.wire == 0) s->version = (int64_t)f.v;
      }
    }
    if (ok) s->sent = n;
    tfc_rpc_buf_free(&resp);
    tfc_wbuf_free(&b);
    tfc_free(gd);
  }
  pthread_mutex_unlock(&s->mu);
  return ok;
}

/* Reads RunOptions.timeout_in_ms (field 2). */
static int64_t run_timeout(const void *ro, size_t len) {
  size_t pos = 0;
  tfc_wfield f;
  int64_t v = 0;
  while (ro && tfc_wire_next(ro, len, &pos, &f))
    if (f.number == 2 && f.wire == 0) v = (int64_t)f.v;
  return v;
}

/* One RunStep. */
bool tfc_grpc_session_run(tfc_grpc_session *s, tfc_grpc_run_args *a, tfc_status *st) {
  a->metadata = NULL;
  a->metadata_len = 0;
  for (int i = 0; i < a->n_fetches; i++) a->fetch_out[i] = NULL;
  pthread_mutex_lock(&s->mu);
  char *handle = s->handle ? tfc_strdup(s->handle) : NULL;
  pthread_mutex_unlock(&s->mu);
  if (!handle) return tfc_status_set(st, TFC_CODE_FAILED_PRECONDITION, "Session was not created");
  tfc_wbuf b;
  tfc_wbuf_init(&b);
  tfc_wbuf_string(&b, 1, handle);
  tfc_free(handle);
  bool ok = true;
  for (int i = 0; ok && i < a->n_feeds; i++) {
    tfc_wbuf tp, nt;
    tfc_wbuf_init(&tp);
    tfc_wbuf_init(&nt);
    ok = tfc_wire_tensor_proto(a->feeds[i], &tp, st);
    tfc_wbuf_string(&nt, 1, a->feed_names[i]);
    tfc_wbuf_ld(&nt, 2, tp.data, tp.len);
    tfc_wbuf_ld(&b, 2, nt.data, nt.len);
    tfc_wbuf_free(&tp);
    tfc_wbuf_free(&nt);
  }
  for (int i = 0; i < a->n_fetches; i++) tfc_wbuf_string(&b, 3, a->fetch_names[i]);
  for (int i = 0; i < a->n_targets; i++) tfc_wbuf_string(&b, 4, a->targets[i]);
  int64_t timeout = run_timeout(a->run_options, a->run_options_len);
  if (timeout <= 0) timeout = s->op_timeout_ms;
  if (a->run_options && a->run_options_len) {
    tfc_wbuf_ld(&b, 5, a->run_options, a->run_options_len);
  } else if (s->op_timeout_ms > 0) {
    tfc_wbuf ro;
    tfc_wbuf_init(&ro);
    tfc_wbuf_varint_field(&ro, 2, (uint64_t)s->op_timeout_ms);
    tfc_wbuf_ld(&b, 5, ro.data, ro.len);
    tfc_wbuf_free(&ro);
  }
  tfc_wbuf_varint_field(&b, 7, 1);
  tfc_rpc_buf resp = {0};
  if (ok) ok = call(s->target, TFC_M_RUN_STEP, &b, timeout, &resp, st);
  tfc_wbuf_free(&b);
  if (ok) {
    size_t pos = 0;
    tfc_wfield f;
    int code = 0;
    const uint8_t *msg = NULL;
    size_t mn = 0;
    while (ok && tfc_wire_next(resp.data, resp.len, &pos, &f)) {
      if (f.number == 1 && f.wire == 2) {
        const uint8_t *np = NULL, *tp = NULL;
        size_t nn = 0, tn = 0;
        tfc_wire_find_ld(f.p, f.n, 1, &np, &nn);
        tfc_wire_find_ld(f.p, f.n, 2, &tp, &tn);
        int idx = -1;
        for (int i = 0; i < a->n_fetches && idx < 0; i++)
          if (np && strlen(a->fetch_names[i]) == nn && memcmp(a->fetch_names[i], np, nn) == 0 && !a->fetch_out[i])
            idx = i;
        if (idx < 0) {
          ok = tfc_status_set(st, TFC_CODE_INTERNAL, "Received response for unrequested fetch: %.*s", (int)nn,
                              np ? (const char *)np : "");
          break;
        }
        a->fetch_out[idx] = tfc_tensor_from_proto(tp ? tp : (const uint8_t *)"", tn, st);
        ok = a->fetch_out[idx] != NULL;
      } else if (f.number == 2 && f.wire == 2) {
        tfc_free(a->metadata);
        a->metadata = tfc_malloc(f.n ? f.n : 1);
        if (a->metadata) {
          memcpy(a->metadata, f.p, f.n);
          a->metadata_len = f.n;
        }
      } else if (f.number == 3 && f.wire == 0) {
        code = (int)f.v;
      } else if (f.number == 4 && f.wire == 2) {
        msg = f.p;
        mn = f.n;
      }
    }
    if (ok && code != 0) ok = tfc_status_set(st, (tfc_code)code, "%.*s", (int)mn, msg ? (const char *)msg : "");
    for (int i = 0; ok && i < a->n_fetches; i++)
      if (!a->fetch_out[i]) ok = tfc_status_set(st, TFC_CODE_INTERNAL, "No value for fetch %s", a->fetch_names[i]);
  }
  tfc_rpc_buf_free(&resp);
  if (!ok) {
    for (int i = 0; i < a->n_fetches; i++) {
      tfc_tensor_unref(a->fetch_out[i]);
      a->fetch_out[i] = NULL;
    }
    tfc_free(a->metadata);
    a->metadata = NULL;
    a->metadata_len = 0;
  }
  return ok;
}

/* ListDevices. */
bool tfc_grpc_list_devices(const char *target, int64_t timeout_ms, uint8_t **out, size_t *len, tfc_status *st) {
  tfc_wbuf b;
  tfc_wbuf_init(&b);
  tfc_rpc_buf resp;
  if (!call(target, TFC_M_LIST_DEVICES, &b, timeout_ms, &resp, st)) return false;
  *out = resp.data;
  *len = resp.len;
  return true;
}

/* Reset. */
bool tfc_grpc_reset(const char *target, int n, const char *const *containers, tfc_status *st) {
  tfc_wbuf b;
  tfc_wbuf_init(&b);
  for (int i = 0; i < n; i++) tfc_wbuf_ld(&b, 1, containers[i], strlen(containers[i]));
  tfc_rpc_buf resp;
  bool ok = call(target, TFC_M_RESET, &b, 60000, &resp, st);
  tfc_wbuf_free(&b);
  tfc_rpc_buf_free(&resp);
  return ok;
}

/* CloseSession and free. */
/* Frees the memory of a session (no use remains). */
static void session_release(tfc_grpc_session *s) {
  pthread_cond_destroy(&s->idle);
  pthread_mutex_destroy(&s->mu);
  tfc_free(s->handle);
  tfc_free(s->target);
  tfc_free(s->config);
  tfc_free(s);
}

/* Marks a use (see grpc_session.h). */
bool tfc_grpc_session_enter(tfc_grpc_session *s) {
  pthread_mutex_lock(&s->mu);
  bool ok = !s->closing;
  if (ok) s->busy++;
  pthread_mutex_unlock(&s->mu);
  return ok;
}

/* Ends a use (see grpc_session.h). */
void tfc_grpc_session_leave(tfc_grpc_session *s) {
  pthread_mutex_lock(&s->mu);
  bool last = --s->busy == 0;
  bool release = last && s->free_on_leave;
  if (last) pthread_cond_broadcast(&s->idle);
  pthread_mutex_unlock(&s->mu);
  if (release) session_release(s);
}

/* CloseSession and free (see grpc_session.h). */
void tfc_grpc_session_free(tfc_grpc_session *s) {
  if (!s) return;
  pthread_mutex_lock(&s->mu);
  s->closing = true;
  pthread_mutex_unlock(&s->mu);
  if (s->handle) {
    tfc_wbuf b;
    tfc_wbuf_init(&b);
    tfc_wbuf_string(&b, 1, s->handle);
    tfc_rpc_buf resp;
    tfc_status st;
    call(s->target, TFC_M_CLOSE_SESSION, &b, 10000, &resp, &st);
    tfc_rpc_buf_free(&resp);
    tfc_wbuf_free(&b);
  }
  /* the master cancelled the steps in flight: their RunStep calls return soon */
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_sec += 10;
  pthread_mutex_lock(&s->mu);
  while (s->busy > 0 && pthread_cond_timedwait(&s->idle, &s->mu, &until) == 0) {
  }
  bool later = s->busy > 0;
  if (later) s->free_on_leave = true;
  pthread_mutex_unlock(&s->mu);
  if (!later) session_release(s);
}
