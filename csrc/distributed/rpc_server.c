/*
 * rpc_server.c — the gRPC server side of rpc.h: one completion queue, one
 * thread draining it, one detached thread per call running the handler.
 *
 * Tags on the queue point at a `tag` header: a posted request for a
 * registered method (REQUEST), a posted request for any other path
 * (GENERIC), the answer batch of a call (REPLY) or the shutdown notice.
 * Shutdown follows gRPC's order: shutdown_and_notify, cancel_all_calls, wait
 * for running handlers, wait for the notice, shut the queue down, drain it.
 */
#include <grpc/byte_buffer.h>
#include <grpc/byte_buffer_reader.h>
#include <grpc/grpc.h>
#include <grpc/grpc_security.h>
#include <grpc/slice.h>
#include <grpc/support/alloc.h>
#include <grpc/support/time.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/alloc.h"
#include "distributed/rpc.h"
#include "distributed/security.h"
#define TFC_RPC_GRPC_API
#include "distributed/rpc_internal.h"

enum { TAG_REQUEST, TAG_GENERIC, TAG_REPLY, TAG_SHUTDOWN };

typedef struct tag {
  int kind;
} tag;

typedef struct method_slot {
  tag t;
  int index;
  void *handle;            /* grpc_server_register_method */
  struct tfc_rpc_server *srv;
  /* the posted request */
  grpc_call *call;
  gpr_timespec deadline;
  grpc_metadata_array md;
  grpc_byte_buffer *payload;
} method_slot;

typedef struct generic_slot {
  tag t;
  grpc_call *call;
  grpc_call_details details;
  grpc_metadata_array md;
} generic_slot;

struct tfc_rpc_call {
  tag t;
  struct tfc_rpc_server *srv;
  int method;
  grpc_call *call;
  gpr_timespec deadline;
  grpc_metadata_array md;
  grpc_byte_buffer *payload;
  uint8_t *req;
  size_t req_len;
  grpc_byte_buffer *reply;
  grpc_slice details;
  bool has_details;
  int cancelled;
  bool generic;
  struct tfc_rpc_call *next;   /* handler queue */
};

struct tfc_rpc_server {
  grpc_server *server;
  grpc_completion_queue *cq;
  pthread_t poller;
  bool poller_started;
  int n_methods;
  method_slot *slots;
  generic_slot generic;
  tfc_rpc_handler handler;
  void *ctx;
  char *token;             /* TFC_AUTH_TOKEN when the server started: required on every call */
  pthread_mutex_t mu;
  pthread_cond_t idle;
  pthread_cond_t work;     /* handler threads wait here */
  int running;             /* handlers not yet answered */
  bool shutting_down;
  bool shutdown_seen;      /* the poller saw the shutdown notice */
  tag shutdown_tag;
  /* handler threads: kept between calls; one more is started whenever a call
   * arrives and none is free, so a blocked handler never delays another call */
  tfc_rpc_call *queue_head, *queue_tail;
  int free_threads;        /* waiting threads not yet promised a call */
  int threads;             /* handler threads alive */
  bool stop_threads;
};

/* Posts (again) the request for one registered method. */
static void post_method(method_slot *m) {
  G(grpc_metadata_array_init)(&m->md);
  m->call = NULL;
  m->payload = NULL;
  G(grpc_server_request_registered_call)(m->srv->server, m->handle, &m->call, &m->deadline, &m->md,
                                      &m->payload, m->srv->cq, m->srv->cq, m);
}

/* Posts (again) the catch-all request for unregistered paths. */
static void post_generic(tfc_rpc_server *s) {
  generic_slot *g = &s->generic;
  G(grpc_call_details_init)(&g->details);
  G(grpc_metadata_array_init)(&g->md);
  g->call = NULL;
  G(grpc_server_request_call)(s->server, &g->call, &g->details, &g->md, s->cq, s->cq, g);
}

/* Copies a received message into one tfc_malloc'd buffer (one copy). */
static bool read_payload(grpc_byte_buffer *bb, uint8_t **data, size_t *len) {
  *data = NULL;
  *len = 0;
  if (!bb) return true;
  size_t n = G(grpc_byte_buffer_length)(bb);
  uint8_t *buf = tfc_malloc(n ? n : 1);
  if (!buf) return false;
  grpc_byte_buffer_reader r;
  if (!G(grpc_byte_buffer_reader_init)(&r, bb)) {
    tfc_free(buf);
    return false;
  }
  grpc_slice sl;
  size_t off = 0;
  while (G(grpc_byte_buffer_reader_next)(&r, &sl)) {
    size_t k = GRPC_SLICE_LENGTH(sl);
    if (off + k <= n) memcpy(buf + off, GRPC_SLICE_START_PTR(sl), k);
    off += k;
    G(grpc_slice_unref)(sl);
  }
  G(grpc_byte_buffer_reader_destroy)(&r);
  *data = buf;
  *len = off < n ? off : n;
  return true;
}

/* Handler thread body: runs queued calls until the server stops. */
static void *handler_thread(void *arg) {
  tfc_rpc_server *s = arg;
  pthread_mutex_lock(&s->mu);
  for (;;) {
    while (!s->queue_head && !s->stop_threads) pthread_cond_wait(&s->work, &s->mu);
    if (!s->queue_head) break;
    tfc_rpc_call *c = s->queue_head;
    s->queue_head = c->next;
    if (!s->queue_head) s->queue_tail = NULL;
    pthread_mutex_unlock(&s->mu);
    s->handler(s->ctx, c->method, c, c->req, c->req_len);
    pthread_mutex_lock(&s->mu);
    s->free_threads++;
  }
  s->free_threads--;
  s->threads--;
  pthread_cond_broadcast(&s->idle);
  pthread_mutex_unlock(&s->mu);
  return NULL;
}

/* Queues a call for a handler thread, starting one when none is free. */
static bool dispatch(tfc_rpc_server *s, tfc_rpc_call *c) {
  pthread_mutex_lock(&s->mu);
  c->next = NULL;
  if (s->queue_tail)
    s->queue_tail->next = c;
  else
    s->queue_head = c;
  s->queue_tail = c;
  bool ok = true;
  if (s->free_threads > 0) {
    s->free_threads--;
    pthread_cond_signal(&s->work);
  } else {
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_t th;
    if (pthread_create(&th, &attr, handler_thread, s) == 0) {
      s->threads++;
    } else if (s->threads == 0) {
      /* no thread can take it: unqueue and fail the call */
      s->queue_head = s->queue_tail = NULL;
      ok = false;
    }
    pthread_attr_destroy(&attr);
  }
  pthread_mutex_unlock(&s->mu);
  return ok;
}

/* Starts the answer batch of a call (status only when msg is NULL). */
static void start_reply(tfc_rpc_call *c, grpc_status_code code, const char *msg) {
  grpc_op ops[4];
  memset(ops, 0, sizeof ops);
  int n = 0;
  ops[n].op = GRPC_OP_SEND_INITIAL_METADATA;
  ops[n].data.send_initial_metadata.count = 0;
  n++;
  if (code == GRPC_STATUS_OK && c->reply) {
    ops[n].op = GRPC_OP_SEND_MESSAGE;
    ops[n].data.send_message.send_message = c->reply;
    n++;
  }
  ops[n].op = GRPC_OP_SEND_STATUS_FROM_SERVER;
  ops[n].data.send_status_from_server.trailing_metadata_count = 0;
  ops[n].data.send_status_from_server.status = code;
  if (msg && msg[0]) {
    c->details = G(grpc_slice_from_copied_string)(msg);
    c->has_details = true;
    ops[n].data.send_status_from_server.status_details = &c->details;
  }
  n++;
  ops[n].op = GRPC_OP_RECV_CLOSE_ON_SERVER;
  ops[n].data.recv_close_on_server.cancelled = &c->cancelled;
  n++;
  c->t.kind = TAG_REPLY;
  if (G(grpc_call_start_batch)(c->call, ops, (size_t)n, c, NULL) != GRPC_CALL_OK) {
    /* no event will come: finish here */
    if (c->reply) G(grpc_byte_buffer_destroy)(c->reply);
    c->reply = NULL;
    rpc_call_finish(c);
  }
}

/* Frees everything a call holds; called once its answer batch completed. */
void rpc_call_finish(tfc_rpc_call *c) {
  tfc_rpc_server *s = c->srv;
  if (c->reply) G(grpc_byte_buffer_destroy)(c->reply);
  if (c->has_details) G(grpc_slice_unref)(c->details);
  if (c->payload) G(grpc_byte_buffer_destroy)(c->payload);
  G(grpc_metadata_array_destroy)(&c->md);
  if (c->call) G(grpc_call_unref)(c->call);
  tfc_free(c->req);
  bool counted = !c->generic;
  tfc_free(c);
  if (counted) {
    pthread_mutex_lock(&s->mu);
    if (--s->running == 0) pthread_cond_broadcast(&s->idle);
    pthread_mutex_unlock(&s->mu);
  }
}

/* Release trampoline for zero-copy slices. */
typedef struct slice_owner {
  void (*release)(void *);
  void *arg;
} slice_owner;

static void release_owner(void *p) {
  slice_owner *o = p;
  if (o->release) o->release(o->arg);
  tfc_free(o);
}

/* Builds a byte buffer from slices (zero-copy where a release is given). */
grpc_byte_buffer *rpc_make_buffer(const tfc_rpc_slice *slices, int n) {
  grpc_slice stack[8];
  grpc_slice *gs = n <= 8 ? stack : tfc_malloc(sizeof(grpc_slice) * (size_t)n);
  if (!gs) return NULL;
  for (int i = 0; i < n; i++) {
    const tfc_rpc_slice *s = &slices[i];
    slice_owner *o = s->release ? tfc_malloc(sizeof *o) : NULL;
    if (s->release && o && s->len > 0) {
      o->release = s->release;
      o->arg = s->arg;
      gs[i] = G(grpc_slice_new_with_user_data)((void *)s->data, s->len, release_owner, o);
    } else {
      gs[i] = G(grpc_slice_from_copied_buffer)(s->data ? (const char *)s->data : "", s->len);
      tfc_free(o);
      if (s->release) s->release(s->arg);
    }
  }
  grpc_byte_buffer *bb = G(grpc_raw_byte_buffer_create)(gs, (size_t)n);
  for (int i = 0; i < n; i++) G(grpc_slice_unref)(gs[i]);
  if (gs != stack) tfc_free(gs);
  return bb;
}

/* Answers a call (see rpc.h). */
void tfc_rpc_reply(tfc_rpc_call *c, const tfc_status *st, const tfc_rpc_slice *slices, int n) {
  if (st && st->code != TFC_CODE_OK) {
    for (int i = 0; i < n; i++)
      if (slices[i].release) slices[i].release(slices[i].arg);
    char msg[3200];
    size_t len = strlen(st->msg);
    if (len > 3072) {
      memcpy(msg, st->msg, 3072);
      strcpy(msg + 3072, " ... [truncated]");
    } else {
      memcpy(msg, st->msg, len + 1);
    }
    start_reply(c, (grpc_status_code)st->code, msg);
    return;
  }
  tfc_rpc_slice empty = {"", 0, NULL, NULL};
  c->reply = n > 0 ? rpc_make_buffer(slices, n) : rpc_make_buffer(&empty, 1);
  if (!c->reply) {
    start_reply(c, GRPC_STATUS_RESOURCE_EXHAUSTED, "out of memory building a response");
    return;
  }
  start_reply(c, GRPC_STATUS_OK, NULL);
}

/* Milliseconds left before the caller's deadline. */
int64_t tfc_rpc_call_remaining_ms(const tfc_rpc_call *c) {
  gpr_timespec d = G(gpr_convert_clock_type)(c->deadline, GPR_CLOCK_MONOTONIC);
  if (G(gpr_time_cmp)(d, G(gpr_inf_future)(GPR_CLOCK_MONOTONIC)) == 0) return INT64_MAX;
  gpr_timespec left = G(gpr_time_sub)(d, G(gpr_now)(GPR_CLOCK_MONOTONIC));
  int64_t ms = (int64_t)left.tv_sec * 1000 + left.tv_nsec / 1000000;
  return ms < 0 ? 0 : ms;
}

/* True when the call's metadata carries "authorization: Bearer <token>". */
static bool token_ok(const char *token, const grpc_metadata_array *md) {
  bool ok = false;
  for (size_t i = 0; i < md->count; i++) {
    const grpc_metadata *e = &md->metadata[i];
    if (GRPC_SLICE_LENGTH(e->key) != 13 || memcmp(GRPC_SLICE_START_PTR(e->key), "authorization", 13) != 0)
      continue;
    ok |= tfc_security_token_matches(token, GRPC_SLICE_START_PTR(e->value), GRPC_SLICE_LENGTH(e->value));
  }
  return ok;
}

/* A registered method's request arrived: take the call, re-post, run the handler. */
static void on_request(tfc_rpc_server *s, method_slot *m, bool ok) {
  if (!ok) {  /* shutting down: the request comes back unused */
    G(grpc_metadata_array_destroy)(&m->md);
    return;
  }
  tfc_rpc_call *c = tfc_calloc(1, sizeof *c);
  if (c) {
    c->srv = s;
    c->method = m->index;
    c->call = m->call;
    c->deadline = m->deadline;
    c->md = m->md;
    c->payload = m->payload;
  } else {
    G(grpc_call_cancel_with_status)(m->call, GRPC_STATUS_RESOURCE_EXHAUSTED, "out of memory", NULL);
    G(grpc_call_unref)(m->call);
    if (m->payload) G(grpc_byte_buffer_destroy)(m->payload);
    G(grpc_metadata_array_destroy)(&m->md);
  }
  pthread_mutex_lock(&s->mu);
  bool down = s->shutting_down;
  if (c) s->running++;
  pthread_mutex_unlock(&s->mu);
  if (!down) post_method(m);
  if (!c) return;
  if (s->token && !token_ok(s->token, &c->md)) {
    start_reply(c, GRPC_STATUS_UNAUTHENTICATED, "Missing or wrong authentication token (TFC_AUTH_TOKEN)");
    return;
  }
  if (!read_payload(c->payload, &c->req, &c->req_len)) {
    start_reply(c, GRPC_STATUS_RESOURCE_EXHAUSTED, "out of memory reading a request");
    return;
  }
  if (!dispatch(s, c)) start_reply(c, GRPC_STATUS_RESOURCE_EXHAUSTED, "cannot start a thread for the call");
}

/* An unregistered path: answer UNIMPLEMENTED, as TF's server does. */
static void on_generic(tfc_rpc_server *s, bool ok) {
  generic_slot *g = &s->generic;
  if (!ok) {
    G(grpc_call_details_destroy)(&g->details);
    G(grpc_metadata_array_destroy)(&g->md);
    return;
  }
  tfc_rpc_call *c = tfc_calloc(1, sizeof *c);
  G(grpc_call_details_destroy)(&g->details);
  if (!c) {
    G(grpc_call_cancel)(g->call, NULL);
    G(grpc_call_unref)(g->call);
    G(grpc_metadata_array_destroy)(&g->md);
  } else {
    c->srv = s;
    c->generic = true;
    c->call = g->call;
    c->md = g->md;
  }
  pthread_mutex_lock(&s->mu);
  bool down = s->shutting_down;
  pthread_mutex_unlock(&s->mu);
  if (!down) post_generic(s);
  if (c) start_reply(c, GRPC_STATUS_UNIMPLEMENTED, NULL);
}

/* The queue thread. */
static void *poll_loop(void *arg) {
  tfc_rpc_server *s = arg;
  for (;;) {
    grpc_event ev = G(grpc_completion_queue_next)(s->cq, G(gpr_inf_future)(GPR_CLOCK_REALTIME), NULL);
    if (ev.type == GRPC_QUEUE_SHUTDOWN) break;
    if (ev.type != GRPC_OP_COMPLETE) continue;
    tag *t = ev.tag;
    switch (t->kind) {
      case TAG_REQUEST: on_request(s, (method_slot *)t, ev.success != 0); break;
      case TAG_GENERIC: on_generic(s, ev.success != 0); break;
      case TAG_REPLY: rpc_call_finish((tfc_rpc_call *)t); break;
      default: /* shutdown notice */
        pthread_mutex_lock(&s->mu);
        s->shutdown_seen = true;
        pthread_cond_broadcast(&s->idle);
        pthread_mutex_unlock(&s->mu);
        break;
    }
  }
  return NULL;
}

/* Starts a server (see rpc.h). */
tfc_rpc_server *tfc_rpc_server_new(const char *addr, const char *const *methods, int n_methods,
                                   tfc_rpc_handler handler, void *ctx, int *bound_port, tfc_status *st) {
  if (!rpc_ensure_init(st)) return NULL;
  tfc_security sec;
  if (!tfc_security_load(&sec, true, st)) return NULL;
  tfc_rpc_server *s = tfc_calloc(1, sizeof *s);
  if (!s || !(s->slots = tfc_calloc((size_t)n_methods, sizeof *s->slots))) {
    tfc_free(s);
    tfc_security_free(&sec);
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory creating a server");
    return NULL;
  }
  s->token = sec.token;
  sec.token = NULL;
  s->n_methods = n_methods;
  s->handler = handler;
  s->ctx = ctx;
  pthread_mutex_init(&s->mu, NULL);
  pthread_cond_init(&s->idle, NULL);
  pthread_cond_init(&s->work, NULL);
  grpc_arg args[2];
  args[0].type = GRPC_ARG_INTEGER;
  args[0].key = GRPC_ARG_MAX_RECEIVE_MESSAGE_LENGTH;
  args[0].value.integer = (int)sec.max_message;
  args[1].type = GRPC_ARG_INTEGER;
  args[1].key = GRPC_ARG_MAX_SEND_MESSAGE_LENGTH;
  args[1].value.integer = -1;
  grpc_channel_args cargs = {2, args};
  s->server = G(grpc_server_create)(&cargs, NULL);
  s->cq = G(grpc_completion_queue_create_for_next)(NULL);
  G(grpc_server_register_completion_queue)(s->server, s->cq, NULL);
  for (int i = 0; i < n_methods; i++) {
    method_slot *m = &s->slots[i];
    m->t.kind = TAG_REQUEST;
    m->index = i;
    m->srv = s;
    m->handle = G(grpc_server_register_method)(s->server, methods[i], NULL,
                                            GRPC_SRM_PAYLOAD_READ_INITIAL_BYTE_BUFFER, 0);
  }
  s->generic.t.kind = TAG_GENERIC;
  grpc_server_credentials *creds;
  if (sec.cert_pem) {
    grpc_ssl_pem_key_cert_pair kp = {sec.key_pem, sec.cert_pem};
    creds = G(grpc_ssl_server_credentials_create_ex)(NULL, &kp, 1, GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE, NULL);
  } else {
    creds = G(grpc_insecure_server_credentials_create)();
  }
  bool tls = sec.cert_pem != NULL;
  tfc_security_free(&sec);
  int port = creds ? G(grpc_server_add_http2_port)(s->server, addr, creds) : 0;
  if (creds) G(grpc_server_credentials_release)(creds);
  if (port == 0) {
    tfc_status_set(st, TFC_CODE_UNAVAILABLE, "Could not start gRPC server: cannot bind %s%s", addr,
                   tls ? " with TLS (check TFC_TLS_CERT and TFC_TLS_KEY)" : "");
    tfc_free(s->token);
    G(grpc_server_destroy)(s->server);
    G(grpc_completion_queue_shutdown)(s->cq);
    while (G(grpc_completion_queue_next)(s->cq, G(gpr_inf_future)(GPR_CLOCK_REALTIME), NULL).type !=
           GRPC_QUEUE_SHUTDOWN) {
    }
    G(grpc_completion_queue_destroy)(s->cq);
    tfc_free(s->slots);
    tfc_free(s);
    return NULL;
  }
  G(grpc_server_start)(s->server);
  for (int i = 0; i < n_methods; i++) post_method(&s->slots[i]);
  post_generic(s);
  if (pthread_create(&s->poller, NULL, poll_loop, s) != 0) {
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "cannot start the server thread");
    s->poller_started = false;
    tfc_rpc_server_free(s);
    return NULL;
  }
  s->poller_started = true;
  if (bound_port) *bound_port = port;
  return s;
}

/* Stops and frees a server (see rpc.h). */
void tfc_rpc_server_free(tfc_rpc_server *s) {
  if (!s) return;
  pthread_mutex_lock(&s->mu);
  s->shutting_down = true;
  pthread_mutex_unlock(&s->mu);
  s->shutdown_tag.kind = TAG_SHUTDOWN;
  G(grpc_server_shutdown_and_notify)(s->server, s->cq, &s->shutdown_tag);
  G(grpc_server_cancel_all_calls)(s->server);
  /* handlers blocked on other tasks get a few seconds to answer; after that
   * the server is abandoned (left allocated) rather than freed under them */
  struct timespec dl;
  clock_gettime(CLOCK_REALTIME, &dl);
  dl.tv_sec += 5;
  pthread_mutex_lock(&s->mu);
  while (s->running > 0 || (s->poller_started && !s->shutdown_seen))
    if (pthread_cond_timedwait(&s->idle, &s->mu, &dl) != 0) break;
  bool stuck = s->running > 0 || (s->poller_started && !s->shutdown_seen);
  pthread_mutex_unlock(&s->mu);
  if (stuck) return;
  pthread_mutex_lock(&s->mu);
  s->stop_threads = true;
  pthread_cond_broadcast(&s->work);
  while (s->threads > 0) pthread_cond_wait(&s->idle, &s->mu);
  pthread_mutex_unlock(&s->mu);
  if (s->poller_started) {
    /* the poller saw the shutdown notice; now the queue can shut down */
    G(grpc_completion_queue_shutdown)(s->cq);
    pthread_join(s->poller, NULL);
  } else {
    G(grpc_completion_queue_shutdown)(s->cq);
    while (G(grpc_completion_queue_next)(s->cq, G(gpr_inf_future)(GPR_CLOCK_REALTIME), NULL).type !=
           GRPC_QUEUE_SHUTDOWN) {
    }
  }
  G(grpc_server_destroy)(s->server);
  G(grpc_completion_queue_destroy)(s->cq);
  pthread_cond_destroy(&s->idle);
  pthread_cond_destroy(&s->work);
  pthread_mutex_destroy(&s->mu);
  tfc_free(s->token);
  tfc_free(s->slots);
  tfc_free(s);
}
