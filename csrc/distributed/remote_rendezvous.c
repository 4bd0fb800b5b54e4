/*
 * remote_rendezvous.c — a step's rendezvous on a worker (see remote_rendezvous.h).
 */
#include "distributed/remote_rendezvous.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/alloc.h"
#include "base/hashmap.h"
#include "distributed/same_host.h"
#include "distributed/tcp_plane.h"
#include "distributed/wire.h"
#include "graph/tensor_proto.h"

struct tfc_remote_rendezvous {
  tfc_rendezvous base;     /* first: the executor sees this */
  atomic_int refcount;
  const tfc_cluster *cluster;
  int64_t step_id;
  tfc_rendezvous *local;
  pthread_mutex_t mu;
  bool aborted;
  tfc_status abort_status;
  tfc_hashmap fed;         /* keys whose values a RunGraph delivered here (client-terminated) */
  tfc_hashmap lent;        /* int64 token -> tensor lent to a same-host peer */
  int64_t next_token;
  bool trace;              /* record RecvTensor calls (FULL_TRACE) */
  tfc_wbuf stats;          /* recorded NodeExecStats, as node_stats fields */
  int n_stats;
  struct remote_recv *pending; /* RecvTensor calls in flight (abort fails them at once) */
};

/* New reference. */
tfc_remote_rendezvous *tfc_remote_rendezvous_ref(tfc_remote_rendezvous *r) {
  atomic_fetch_add(&r->refcount, 1);
  return r;
}

/* Drops a reference; the last one frees. */
void tfc_remote_rendezvous_unref(tfc_remote_rendezvous *r) {
  if (!r || atomic_fetch_sub(&r->refcount, 1) != 1) return;
  r->local->ops->free(r->local);
  tfc_hashmap_destroy(&r->fed);
  for (size_t i = 0; i < r->lent.cap; i++) {
    const char *k;
    size_t kl;
    void *v;
    if (tfc_hashmap_slot(&r->lent, i, &k, &kl, &v)) tfc_tensor_unref(v);
  }
  tfc_hashmap_destroy(&r->lent);
  tfc_wbuf_free(&r->stats);
  pthread_mutex_destroy(&r->mu);
  tfc_free(r);
}

/* send: into the local table. */
static bool rr_send(tfc_rendezvous *b, const char *key, tfc_tensor *value, tfc_status *st) {
  tfc_remote_rendezvous *r = (tfc_remote_rendezvous *)b;
  return r->local->ops->send(r->local, key, value, st);
}

typedef struct remote_recv {
  tfc_remote_rendezvous *r;
  char *key;
  int task;
  tfc_recv_done done;
  void *arg;
  bool finished;              /* done was called (by the call or by an abort); under r->mu */
  struct remote_recv *next;   /* r->pending */
} remote_recv;

/* Unlinks rr from r->pending and claims the right to call its done; false
 * when an abort already answered it. */
static bool pending_finish(tfc_remote_rendezvous *r, remote_recv *rr) {
  pthread_mutex_lock(&r->mu);
  for (remote_recv **p = &r->pending; *p; p = &(*p)->next)
    if (*p == rr) {
      *p = rr->next;
      break;
    }
  bool mine = !rr->finished;
  rr->finished = true;
  pthread_mutex_unlock(&r->mu);
  return mine;
}

/* Where a received tensor's bytes go: the block it will adopt. */
typedef struct tail_ctx {
  void *block;            /* tfc_aligned_alloc(TFC_ALIGN + len) or NULL */
  long long lent_token;   /* same-host transport: the sender's token */
  bool retry_lent;        /* the same-host copy failed: fetch the lent tensor over gRPC */
  int64_t step_id;        /* TCP transport: the step the tensor is lent to */
  bool dead;              /* the response said is_dead: no tensor, no error */
  tfc_dtype dtype;
  int rank;
  int64_t dims[TFC_MAX_RANK];
} tail_ctx;

/* Reads a varint from [*p, end). */
static bool head_varint(const uint8_t **p, const uint8_t *end, uint64_t *v) {
  uint64_t r = 0;
  for (int shift = 0; shift < 64 && *p < end; shift += 7) {
    uint8_t c = *(*p)++;
    r |= (uint64_t)(c & 0x7f) << shift;
    if (!(c & 0x80)) {
      *v = r;
      return true;
    }
  }
  return false;
}

/* tfc_rpc_tail_fn for RecvTensorResponse: when the message ends with the
 * tensor's tensor_content (TF's fast-path layout), claims those bytes for a
 * new aligned block that the tensor then adopts (no copy after gRPC's). */
static void *claim_tensor(void *arg, const uint8_t *head, size_t head_len, size_t total, size_t *tail_len) {
  tail_ctx *c = arg;
  const uint8_t *p = head, *end = head + head_len;
  uint64_t key, v;
  while (p < end) {
    if (!head_varint(&p, end, &key)) return NULL;
    if ((key & 7) == 0) {
      if (!head_varint(&p, end, &v)) return NULL;
      continue;
    }
    if (key != ((1 << 3) | 2)) return NULL;  /* only scalars may precede the tensor */
    if (!head_varint(&p, end, &v) || (size_t)(p - head) + v != total) return NULL;
    /* inside the TensorProto: dtype, shape, then tensor_content's header */
    c->rank = 0;
    c->dtype = TFC_DTYPE_INVALID;
    while (p < end) {
      if (!head_varint(&p, end, &key)) return NULL;
      if (key == ((1 << 3) | 0)) {
        if (!head_varint(&p, end, &v)) return NULL;
        c->dtype = (tfc_dtype)v;
      } else if (key == ((2 << 3) | 2)) {
        if (!head_varint(&p, end, &v) || v > (uint64_t)(end - p)) return NULL;
        const uint8_t *q = p, *qe = p + v;
        p = qe;
        while (q < qe) {
          if (!head_varint(&q, qe, &key) || key != ((2 << 3) | 2) || !head_varint(&q, qe, &v) ||
              v > (uint64_t)(qe - q) || c->rank >= TFC_MAX_RANK)
            return NULL;
          const uint8_t *d = q, *de = q + v;
          q = de;
          int64_t size = 0;
          while (d < de) {
            if (!head_varint(&d, de, &key)) return NULL;
            if (key == ((1 << 3) | 0)) {
              if (!head_varint(&d, de, &v)) return NULL;
              size = (int64_t)v;
            } else {
              return NULL;
            }
          }
          if (size < 0) return NULL;
          c->dims[c->rank++] = size;
        }
      } else if (key == ((4 << 3) | 2)) {
        if (!head_varint(&p, end, &v) || (size_t)(p - head) + v != total) return NULL;
        if (c->dtype == TFC_DTYPE_INVALID || tfc_dtype_is_stringlike(c->dtype) || tfc_dtype_size(c->dtype) == 0)
          return NULL;
        uint64_t ne = 1;
        for (int i = 0; i < c->rank; i++) ne *= (uint64_t)c->dims[i];
        if (ne * tfc_dtype_size(c->dtype) != v || v == 0) return NULL;
        c->block = tfc_aligned_alloc(TFC_ALIGN + (size_t)v);
        if (!c->block) return NULL;
        *tail_len = (size_t)v;
        return (uint8_t *)c->block + TFC_ALIGN;
      } else {
        return NULL;
      }
    }
    return NULL;
  }
  return NULL;
}

/* Decodes a RecvTensorResponse (its tensor content possibly claimed into c). */
static tfc_tensor *decode_response(const tfc_rpc_buf *b, tail_ctx *c, tfc_status *st) {
  size_t pos = 0;
  tfc_wfield f;
  const uint8_t *tp = NULL;
  size_t tn = 0;
  bool dead = false;
  if (c->block) {
    /* the head ends inside field 1: only leading scalars are read */
    while (pos < b->len && tfc_wire_next(b->data, b->len, &pos, &f))
      if (f.number == 2 && f.wire == 0) dead = f.v != 0;
    if (dead) {
      c->dead = true;
      return NULL;
    }
    tfc_tensor *t = tfc_tensor_adopt(c->dtype, c->rank, c->dims, c->block, st);
    if (t) c->block = NULL;
    return t;
  }
  const uint8_t *opt = NULL;
  size_t on = 0;
  while (tfc_wire_next(b->data, b->len, &pos, &f)) {
    if (f.number == 1 && f.wire == 2) {
      tp = f.p;
      tn = f.n;
    } else if (f.number == 2 && f.wire == 0) {
      dead = f.v != 0;
    } else if (f.number == 4 && f.wire == 2) {
      opt = f.p;
      on = f.n;
    }
  }
  if (!tfc_wire_ok(b->len, pos)) {
    tfc_status_set(st, TFC_CODE_INTERNAL, "Unable to parse RecvTensorResponse");
    return NULL;
  }
  if (dead) {
    /* the tensor field (TF sends an empty one) and any transport option are ignored */
    c->dead = true;
    return NULL;
  }
  const uint8_t *url = NULL, *where = NULL;
  size_t un = 0, wn = 0;
  if (opt && tfc_wire_find_ld(opt, on, 1, &url, &un) && un == strlen(TFC_SAME_HOST_URL) &&
      memcmp(url, TFC_SAME_HOST_URL, un) == 0 && tfc_wire_find_ld(opt, on, 2, &where, &wn) && wn < 96) {
    /* the peer lent the tensor: copy it out of its memory */
    char text[96];
    memcpy(text, where, wn);
    text[wn] = '\0';
    int pid = 0;
    unsigned long long addr = 0, bytes = 0;
    long long token = 0;
    tfc_dtype dt;
    int rank;
    int64_t dims[TFC_MAX_RANK];
    if (sscanf(text, "%d %llx %llu %lld", &pid, &addr, &bytes, &token) != 4 ||
        !tfc_wire_parse_tensor_meta(tp ? tp : (const uint8_t *)"", tn, &dt, &rank, dims)) {
      tfc_status_set(st, TFC_CODE_INTERNAL, "Unable to parse RecvTensorResponse");
      return NULL;
    }
    c->lent_token = token;
    tfc_tensor *t = tfc_tensor_new(dt, rank, dims, st);
    if (!t) return NULL;
    if (tfc_tensor_nbytes(t) != bytes) {
      tfc_tensor_unref(t);
      tfc_status_set(st, TFC_CODE_INTERNAL, "RecvTensorResponse: lent tensor size mismatch");
      return NULL;
    }
    if (!tfc_same_host_read(pid, addr, t->data, (size_t)bytes, st)) {
      tfc_tensor_unref(t);
      c->retry_lent = true; /* the caller asks for the lent tensor over gRPC */
      return NULL;
    }
    return t;
  }
  if (opt && tfc_wire_find_ld(opt, on, 1, &url, &un) && un == strlen(TFC_TCP_URL) &&
      memcmp(url, TFC_TCP_URL, un) == 0 && tfc_wire_find_ld(opt, on, 2, &where, &wn) && wn < 320) {
    /* the peer lent the tensor: read it from its TCP plane */
    char text[320], host[256];
    memcpy(text, where, wn);
    text[wn] = '\0';
    int port = 0;
    unsigned long long bytes = 0;
    long long token = 0;
    tfc_dtype dt;
    int rank;
    int64_t dims[TFC_MAX_RANK];
    if (sscanf(text, "%255s %d %llu %lld", host, &port, &bytes, &token) != 4 ||
        !tfc_wire_parse_tensor_meta(tp ? tp : (const uint8_t *)"", tn, &dt, &rank, dims)) {
      tfc_status_set(st, TFC_CODE_INTERNAL, "Unable to parse RecvTensorResponse");
      return NULL;
    }
    c->lent_token = token;
    tfc_tensor *t = tfc_tensor_new(dt, rank, dims, st);
    if (!t) return NULL;
    if (tfc_tensor_nbytes(t) != bytes) {
      tfc_tensor_unref(t);
      tfc_status_set(st, TFC_CODE_INTERNAL, "RecvTensorResponse: lent tensor size mismatch");
      return NULL;
    }
    if (!tfc_tcp_plane_fetch(host, port, c->step_id, token, t->data, (size_t)bytes, 0, st)) {
      tfc_tensor_unref(t);
      c->retry_lent = true; /* the caller asks for the lent tensor over gRPC */
      return NULL;
    }
    return t;
  }
  return tfc_tensor_from_proto(tp ? tp : (const uint8_t *)"", tn, st);
}

/* Microseconds since the epoch (TF's all_start_micros clock). */
static int64_t now_micros(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Records one RecvTensor call of `key` that moved `bytes` bytes, as TF's RPC
 * logging does: NodeExecStats{node_name "RecvTensor", all_start_micros,
 * op_end_rel_micros, all_end_rel_micros, output.tensor_description.
 * allocation_description.requested_bytes, timeline_label "[NB] [R Mb/s] tensor
 * from src to dst"}. */
static void record_recv(tfc_remote_rendezvous *r, const char *key, size_t bytes, int64_t start,
                        int64_t end) {
  /* key: send_device;incarnation;recv_device;tensor_name;frame:iter */
  const char *f[5] = {key, NULL, NULL, NULL, NULL};
  for (int i = 1; i < 5 && f[i - 1]; i++) {
    const char *semi = strchr(f[i - 1], ';');
    f[i] = semi ? semi + 1 : NULL;
  }
  if (!f[4]) return;
  int64_t rel = end > start ? end - start : 0;
  char label[1024];
  snprintf(label, sizeof label, "[%zuB] [%fMb/s] %.*s from %.*s to %.*s", bytes,
           rel > 0 ? (double)bytes * 8.0 / (double)rel : 0.0, (int)(f[4] - f[3] - 1), f[3],
           (int)(f[1] - f[0] - 1), f[0], (int)(f[3] - f[2] - 1), f[2]);
  tfc_wbuf n, out, td, ad;
  tfc_wbuf_init(&n);
  tfc_wbuf_init(&out);
  tfc_wbuf_init(&td);
  tfc_wbuf_init(&ad);
  tfc_wbuf_varint_field(&ad, 1, (uint64_t)bytes);
  tfc_wbuf_ld(&td, 4, ad.data, ad.len);
  tfc_wbuf_ld(&out, 3, td.data, td.len);
  tfc_wbuf_string(&n, 1, "RecvTensor");
  tfc_wbuf_varint_field(&n, 2, (uint64_t)start);
  tfc_wbuf_varint_field(&n, 4, (uint64_t)rel);
  tfc_wbuf_varint_field(&n, 5, (uint64_t)rel);
  tfc_wbuf_ld(&n, 7, out.data, out.len);
  tfc_wbuf_string(&n, 8, label);
  bool oom = n.oom || out.oom || td.oom || ad.oom;
  pthread_mutex_lock(&r->mu);
  if (!oom) {
    tfc_wbuf_ld(&r->stats, 2, n.data, n.len);
    r->n_stats++;
  }
  pthread_mutex_unlock(&r->mu);
  tfc_wbuf_free(&n);
  tfc_wbuf_free(&out);
  tfc_wbuf_free(&td);
  tfc_wbuf_free(&ad);
}

/* Turns on RecvTensor recording (see remote_rendezvous.h). */
void tfc_remote_rendezvous_trace(tfc_remote_rendezvous *r) {
  pthread_mutex_lock(&r->mu);
  r->trace = true;
  pthread_mutex_unlock(&r->mu);
}

/* Hands the recorded entries over (see remote_rendezvous.h). */
int tfc_remote_rendezvous_take_stats(tfc_remote_rendezvous *r, tfc_wbuf *out) {
  pthread_mutex_lock(&r->mu);
  int n = r->n_stats;
  if (n) tfc_wbuf_bytes(out, r->stats.data, r->stats.len);
  tfc_wbuf_free(&r->stats);
  tfc_wbuf_init(&r->stats);
  r->n_stats = 0;
  pthread_mutex_unlock(&r->mu);
  return n;
}

/* Thread body of a remote receive: one RecvTensor call. */
static void *remote_recv_main(void *arg) {
  remote_recv *rr = arg;
  tfc_remote_rendezvous *r = rr->r;
  const tfc_task *peer = &r->cluster->tasks[rr->task];
  tfc_wbuf req;
  tfc_wbuf_init(&req);
  tfc_wbuf_varint_field(&req, 1, (uint64_t)r->step_id);
  tfc_wbuf_string(&req, 2, rr->key);
  const char *host = tfc_same_host_key();
  if (tfc_tcp_plane_forced()) {
    /* TFC_DATA_PLANE=tcp: ask for the TCP plane even from a peer on this host */
    tfc_wbuf any;
    tfc_wbuf_init(&any);
    tfc_wbuf_string(&any, 1, TFC_TCP_URL);
    tfc_wbuf_ld(&req, 6, any.data, any.len);
    if (any.oom) req.oom = true;
    tfc_wbuf_free(&any);
  } else if (host[0]) {
    /* offer the same-host data plane (a tfc peer on this host takes it) */
    tfc_wbuf any;
    tfc_wbuf_init(&any);
    tfc_wbuf_string(&any, 1, TFC_SAME_HOST_URL);
    tfc_wbuf_string(&any, 2, host);
    tfc_wbuf_ld(&req, 6, any.data, any.len);
    if (any.oom) req.oom = true;
    tfc_wbuf_free(&any);
  }
  tfc_status st;
  tfc_status_clear(&st);
  tfc_rpc_buf resp = {0};
  tfc_tensor *t = NULL;
  bool dead = false;
  int64_t start_us = now_micros();
  if (req.oom) {
    tfc_status_set(&st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  } else {
    tfc_rpc_slice s = {req.data, req.len, NULL, NULL};
    tail_ctx tc = {0};
    tc.step_id = r->step_id;
    if (tfc_rpc_unary_tail(peer->address, tfc_method_paths[TFC_M_RECV_TENSOR], &s, 1, 0, claim_tensor, &tc,
                           &resp, &st))
      t = decode_response(&resp, &tc, &st);
    dead = tc.dead;
    if (tc.block) tfc_aligned_free(tc.block);
    if (!t && tc.retry_lent) {
      /* the kernel refused the direct copy: the same tensor over gRPC */
      tfc_rpc_buf_free(&resp);
      tfc_wbuf again, any;
      tfc_wbuf_init(&again);
      tfc_wbuf_init(&any);
      char tok[32];
      snprintf(tok, sizeof tok, "%lld", tc.lent_token);
      tfc_wbuf_varint_field(&again, 1, (uint64_t)r->step_id);
      tfc_wbuf_string(&again, 2, rr->key);
      tfc_wbuf_string(&any, 1, TFC_LENT_URL);
      tfc_wbuf_string(&any, 2, tok);
      tfc_wbuf_ld(&again, 6, any.data, any.len);
      tail_ctx tc2 = {0};
      tfc_rpc_slice s2 = {again.data, again.len, NULL, NULL};
      tfc_status_clear(&st);
      if (again.oom || any.oom)
        tfc_status_set(&st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
      else if (tfc_rpc_unary_tail(peer->address, tfc_method_paths[TFC_M_RECV_TENSOR], &s2, 1, 0, claim_tensor,
                                  &tc2, &resp, &st))
        t = decode_response(&resp, &tc2, &st);
      dead = tc2.dead;
      if (tc2.block) tfc_aligned_free(tc2.block);
      tfc_wbuf_free(&again);
      tfc_wbuf_free(&any);
    }
  }
  tfc_wbuf_free(&req);
  tfc_rpc_buf_free(&resp);
  if (!pending_finish(r, rr)) {
    /* an abort (step deadline, cleanup, a failed peer) answered this receive already */
    tfc_tensor_unref(t);
  } else if (!t && dead) {
    tfc_status ok;
    tfc_status_clear(&ok);
    rr->done(rr->arg, NULL, &ok);
  } else if (!t) {
    tfc_status pst;
    if (st.code == TFC_CODE_UNAVAILABLE)
      tfc_status_set(&pst, st.code, "From %s:\n%s is unreachable at %s: %s", peer->name, peer->name,
                     peer->address, st.msg);
    else
      tfc_status_set(&pst, st.code, "From %s:\n%s", peer->name, st.msg);
    strcpy(pst.node, st.node);
    r->base.ops->abort(&r->base, &pst);
    rr->done(rr->arg, NULL, &pst);
  } else {
    pthread_mutex_lock(&r->mu);
    bool trace = r->trace;
    pthread_mutex_unlock(&r->mu);
    if (trace) record_recv(r, rr->key, tfc_tensor_nbytes(t), start_us, now_micros());
    tfc_status ok;
    tfc_status_clear(&ok);
    rr->done(rr->arg, t, &ok);
    tfc_tensor_unref(t);
  }
  tfc_free(rr->key);
  tfc_remote_rendezvous_unref(r);
  tfc_free(rr);
  return NULL;
}

/* recv_async: local table or a RecvTensor call from a new thread. */
static void rr_recv_async(tfc_rendezvous *b, const char *key, tfc_recv_done done, void *arg) {
  tfc_remote_rendezvous *r = (tfc_remote_rendezvous *)b;
  const char *semi = strchr(key, ';');
  int task = semi ? tfc_cluster_task_of_device(r->cluster, key, (size_t)(semi - key)) : -1;
  bool fed = false;
  if (task >= 0 && task != r->cluster->self) {
    pthread_mutex_lock(&r->mu);
    tfc_hashmap_get(&r->fed, key, strlen(key), &fed);
    pthread_mutex_unlock(&r->mu);
  }
  if (task < 0 || task == r->cluster->self || fed) {
    r->local->ops->recv_async(r->local, key, done, arg);
    return;
  }
  tfc_status st;
  remote_recv *rr = tfc_calloc(1, sizeof *rr);
  char *k = tfc_strdup(key);
  pthread_t th;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  if (rr && k) {
    rr->r = tfc_remote_rendezvous_ref(r);
    rr->key = k;
    rr->task = task;
    rr->done = done;
    rr->arg = arg;
    pthread_mutex_lock(&r->mu);
    bool aborted = r->aborted;
    if (aborted) {
      tfc_status_copy(&st, &r->abort_status);
    } else {
      rr->next = r->pending;
      r->pending = rr;
    }
    pthread_mutex_unlock(&r->mu);
    if (aborted) {
      pthread_attr_destroy(&attr);
      tfc_remote_rendezvous_unref(r);
      tfc_free(rr);
      tfc_free(k);
      done(arg, NULL, &st);
      return;
    }
    if (pthread_create(&th, &attr, remote_recv_main, rr) == 0) {
      pthread_attr_destroy(&attr);
      return;
    }
    if (!pending_finish(r, rr)) {
      /* an abort raced with the failed start and answered already */
      pthread_attr_destroy(&attr);
      tfc_remote_rendezvous_unref(r);
      tfc_free(rr);
      tfc_free(k);
      return;
    }
    tfc_remote_rendezvous_unref(r);
  }
  pthread_attr_destroy(&attr);
  tfc_free(rr);
  tfc_free(k);
  tfc_status_set(&st, TFC_CODE_RESOURCE_EXHAUSTED, "cannot start a receive from %s",
                 r->cluster->tasks[task].name);
  done(arg, NULL, &st);
}

/* abort: remembers the status, fails local waiters and the receives still
 * waiting on a peer (their calls finish later and are dropped). */
static void rr_abort(tfc_rendezvous *b, const tfc_status *st) {
  tfc_remote_rendezvous *r = (tfc_remote_rendezvous *)b;
  typedef struct answer {
    tfc_recv_done done;
    void *arg;
  } answer;
  answer stack[16], *ans = stack;
  int n = 0;
  pthread_mutex_lock(&r->mu);
  if (!r->aborted) {
    r->aborted = true;
    tfc_status_copy(&r->abort_status, st);
  }
  int waiting = 0;
  for (remote_recv *p = r->pending; p; p = p->next) waiting += !p->finished;
  if (waiting > 16) ans = tfc_malloc(sizeof(answer) * (size_t)waiting);
  if (!ans) {
    ans = stack;
    waiting = 16;
  }
  for (remote_recv *p = r->pending; p && n < waiting; p = p->next) {
    if (p->finished) continue;
    p->finished = true;
    ans[n++] = (answer){p->done, p->arg};
  }
  pthread_mutex_unlock(&r->mu);
  r->local->ops->abort(r->local, st);
  for (int i = 0; i < n; i++) ans[i].done(ans[i].arg, NULL, st);
  if (ans != stack) tfc_free(ans);
}

/* free through the interface: drops one reference. */
static void rr_free(tfc_rendezvous *b) { tfc_remote_rendezvous_unref((tfc_remote_rendezvous *)b); }

static const tfc_rendezvous_ops remote_ops = {rr_send, rr_recv_async, rr_abort, rr_free};

/* Creates a step rendezvous. */
tfc_remote_rendezvous *tfc_remote_rendezvous_new(const tfc_cluster *cluster, int64_t step_id) {
  tfc_remote_rendezvous *r = tfc_calloc(1, sizeof *r);
  if (!r) return NULL;
  r->local = tfc_local_rendezvous_new();
  if (!r->local) {
    tfc_free(r);
    return NULL;
  }
  r->base.ops = &remote_ops;
  atomic_init(&r->refcount, 1);
  r->cluster = cluster;
  r->step_id = step_id;
  pthread_mutex_init(&r->mu, NULL);
  tfc_hashmap_init(&r->fed);
  tfc_hashmap_init(&r->lent);
  tfc_wbuf_init(&r->stats);
  return r;
}

/* Lends t to the step (see remote_rendezvous.h). */
int64_t tfc_remote_rendezvous_lend(tfc_remote_rendezvous *r, tfc_tensor *t) {
  pthread_mutex_lock(&r->mu);
  int64_t token = ++r->next_token;
  int rc = tfc_hashmap_put(&r->lent, (const char *)&token, sizeof token, t);
  if (rc == 0) tfc_tensor_ref(t);
  pthread_mutex_unlock(&r->mu);
  return rc == 0 ? token : 0;
}

/* The tensor lent under token (new reference) or NULL. */
tfc_tensor *tfc_remote_rendezvous_lent(tfc_remote_rendezvous *r, int64_t token) {
  pthread_mutex_lock(&r->mu);
  bool found = false;
  tfc_tensor *t = tfc_hashmap_get(&r->lent, (const char *)&token, sizeof token, &found);
  if (found) tfc_tensor_ref(t);
  pthread_mutex_unlock(&r->mu);
  return found ? t : NULL;
}

/* Delivers a value the master sent with RunGraph (see remote_rendezvous.h). */
bool tfc_remote_rendezvous_feed(tfc_remote_rendezvous *r, const char *key, tfc_tensor *value, tfc_status *st) {
  pthread_mutex_lock(&r->mu);
  int rc = tfc_hashmap_put(&r->fed, key, strlen(key), NULL);
  pthread_mutex_unlock(&r->mu);
  if (rc != 0) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  return r->local->ops->send(r->local, key, value, st);
}

/* The interface. */
tfc_rendezvous *tfc_remote_rendezvous_base(tfc_remote_rendezvous *r) { return &r->base; }

typedef struct waiter {
  atomic_int refs;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  bool done;
  tfc_tensor *value;     /* NULL with an OK st: a dead tensor */
  tfc_status st;
} waiter;

/* Drops a waiter reference. */
static void waiter_unref(waiter *w) {
  if (atomic_fetch_sub(&w->refs, 1) != 1) return;
  tfc_tensor_unref(w->value);
  pthread_cond_destroy(&w->cv);
  pthread_mutex_destroy(&w->mu);
  tfc_free(w);
}

/* Local receive callback of a waiter. */
static void waiter_done(void *arg, tfc_tensor *value, const tfc_status *st) {
  waiter *w = arg;
  pthread_mutex_lock(&w->mu);
  if (value) w->value = tfc_tensor_ref(value);
  tfc_status_copy(&w->st, st);
  w->done = true;
  pthread_cond_signal(&w->cv);
  pthread_mutex_unlock(&w->mu);
  waiter_unref(w);
}

/* Blocking local receive with a timeout (see remote_rendezvous.h). */
tfc_tensor *tfc_remote_rendezvous_wait_local(tfc_remote_rendezvous *r, const char *key, int64_t timeout_ms,
                                             bool *is_dead, tfc_status *st) {
  *is_dead = false;
  waiter *w = tfc_calloc(1, sizeof *w);
  if (!w) {
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  atomic_init(&w->refs, 2);
  pthread_mutex_init(&w->mu, NULL);
  pthread_cond_init(&w->cv, NULL);
  r->local->ops->recv_async(r->local, key, waiter_done, w);
  struct timespec dl;
  clock_gettime(CLOCK_REALTIME, &dl);
  if (timeout_ms > 24LL * 3600 * 1000) timeout_ms = 24LL * 3600 * 1000;
  dl.tv_sec += (time_t)(timeout_ms / 1000);
  dl.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
  if (dl.tv_nsec >= 1000000000L) {
    dl.tv_sec++;
    dl.tv_nsec -= 1000000000L;
  }
  tfc_tensor *t = NULL;
  pthread_mutex_lock(&w->mu);
  while (!w->done)
    if (pthread_cond_timedwait(&w->cv, &w->mu, &dl) != 0) break;
  if (w->done) {
    if (w->value) {
      t = w->value;
      w->value = NULL;
    } else if (w->st.code == TFC_CODE_OK) {
      *is_dead = true;
    } else {
      tfc_status_copy(st, &w->st);
    }
  } else {
    tfc_status_set(st, TFC_CODE_DEADLINE_EXCEEDED, "Timed out waiting for tensor %s", key);
  }
  pthread_mutex_unlock(&w->mu);
  waiter_unref(w);
  return t;
}
