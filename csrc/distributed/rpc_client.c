/*
 * rpc_client.c — the gRPC client side of rpc.h, and gRPC's process-wide
 * initialisation.
 *
 * Channels are created on first use per target and kept (gRPC reconnects
 * them by itself). Each call uses a pluck completion queue of its own, so
 * any number of threads may call at once. Every call carries a deadline and
 * asks for the initial metadata (without it the batch would never finish).
 */
#include <dlfcn.h>
#include <grpc/byte_buffer.h>
#include <grpc/byte_buffer_reader.h>
#include <grpc/grpc.h>
#include <grpc/grpc_security.h>
#include <grpc/slice.h>
#include <grpc/support/alloc.h>
#include <grpc/support/time.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/hashmap.h"
#include "distributed/rpc.h"
#include "distributed/security.h"
#define TFC_RPC_GRPC_API
#include "distributed/rpc_internal.h"

static pthread_mutex_t init_mu = PTHREAD_MUTEX_INITIALIZER;
static bool initialized;
static atomic_bool forked_after_init;
static tfc_hashmap channels; /* target -> grpc_channel* */

/* Child side of a fork: gRPC's threads did not come along. */
static void on_fork_child(void) {
  if (initialized) atomic_store(&forked_after_init, true);
}

tfc_grpc_api tfc_grpc;

/* Loads libgrpc and fills tfc_grpc; false + UNAVAILABLE naming what is missing. */
static bool load_grpc(tfc_status *st) {
  static const char *const libs[] = {"libgrpc.so.29", "libgrpc.so"};
  void *lib = NULL;
  for (size_t i = 0; !lib && i < sizeof libs / sizeof libs[0]; i++) lib = dlopen(libs[i], RTLD_NOW | RTLD_LOCAL);
  if (!lib)
    return tfc_status_set(st, TFC_CODE_UNAVAILABLE, "The distributed runtime needs gRPC core (libgrpc.so.29, "
                          "Debian's libgrpc29/libgrpc-dev): %s", dlerror());
#define TFC_GRPC_LOAD(f)                                                                       \
  if (!(*(void **)&tfc_grpc.f = dlsym(lib, #f))) {                                             \
    dlclose(lib);                                                                                \
    return tfc_status_set(st, TFC_CODE_UNAVAILABLE, "gRPC core lacks %s (version 1.51 expected)", #f); \
  }
  TFC_GRPC_FUNCS(TFC_GRPC_LOAD)
#undef TFC_GRPC_LOAD
  return true;
}

/* Initialises gRPC once (see rpc_internal.h). */
bool rpc_ensure_init(tfc_status *st) {
  if (atomic_load(&forked_after_init))
    return tfc_status_set(st, TFC_CODE_UNAVAILABLE,
                          "gRPC was started in the parent process before fork(); this child process "
                          "cannot use the distributed runtime (start it with the 'spawn' method)");
  pthread_mutex_lock(&init_mu);
  if (!initialized) {
    if (!load_grpc(st)) {
      pthread_mutex_unlock(&init_mu);
      return false;
    }
    G(grpc_init)();
    tfc_hashmap_init(&channels);
    pthread_atfork(NULL, NULL, on_fork_child);
    initialized = true;
  }
  pthread_mutex_unlock(&init_mu);
  return true;
}

/* True once gRPC was initialised. */
bool tfc_rpc_initialized(void) { return initialized; }

/* Frees a received buffer. */
void tfc_rpc_buf_free(tfc_rpc_buf *b) {
  if (!b) return;
  tfc_free(b->data);
  b->data = NULL;
  b->len = 0;
}

/* The cached channel for target, created on first use: TLS when TFC_TLS_CA
 * is set (see security.h), insecure otherwise. Channels are cached per
 * (target, TLS roots), so a process may switch settings between clusters.
 * NULL + st when the TLS files cannot be read. */
static grpc_channel *channel_for(const char *target, tfc_status *st) {
  const char *ca = getenv("TFC_TLS_CA");
  char keybuf[600];
  snprintf(keybuf, sizeof keybuf, "%s|%s", target, ca ? ca : "");
  size_t len = strlen(keybuf);
  pthread_mutex_lock(&init_mu);
  bool found = false;
  grpc_channel *ch = tfc_hashmap_get(&channels, keybuf, len, &found);
  if (!found) {
    tfc_security sec;
    if (!tfc_security_load(&sec, false, st)) {
      pthread_mutex_unlock(&init_mu);
      return NULL;
    }
    grpc_arg args[4];
    args[0].type = GRPC_ARG_INTEGER;
    args[0].key = GRPC_ARG_MAX_RECEIVE_MESSAGE_LENGTH;
    args[0].value.integer = -1;
    args[1].type = GRPC_ARG_INTEGER;
    args[1].key = GRPC_ARG_MAX_SEND_MESSAGE_LENGTH;
    args[1].value.integer = -1;
    args[2].type = GRPC_ARG_INTEGER;
    args[2].key = GRPC_ARG_MAX_RECONNECT_BACKOFF_MS;
    args[2].value.integer = 1000;
    grpc_channel_args cargs = {3, args};
    grpc_channel_credentials *cr;
    if (sec.ca_pem) {
      grpc_ssl_pem_key_cert_pair kp = {sec.key_pem, sec.cert_pem};
      cr = G(grpc_ssl_credentials_create_ex)(sec.ca_pem, sec.cert_pem && sec.key_pem ? &kp : NULL, NULL, NULL);
      if (sec.target_name) {
        args[3].type = GRPC_ARG_STRING;
        args[3].key = GRPC_SSL_TARGET_NAME_OVERRIDE_ARG;
        args[3].value.string = sec.target_name;
        cargs.num_args = 4;
      }
    } else {
      cr = G(grpc_insecure_credentials_create)();
    }
    char name[512];
    snprintf(name, sizeof name, "dns:///%s", target);
    ch = cr ? G(grpc_channel_create)(name, cr, &cargs) : NULL;
    if (cr) G(grpc_channel_credentials_release)(cr);
    tfc_security_free(&sec);
    if (ch && tfc_hashmap_put(&channels, keybuf, len, ch) != 0) {
      G(grpc_channel_destroy)(ch);
      ch = NULL;
    }
    if (!ch) tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "cannot create a channel to %s", target);
  }
  pthread_mutex_unlock(&init_mu);
  return ch;
}

/* Each calling thread plucks its own completion queue, kept for the thread's
 * life (a queue per call made every call wait on a fresh pollset: ~0.6 ms). */
static pthread_key_t cq_key;
static pthread_once_t cq_once = PTHREAD_ONCE_INIT;

/* Thread-exit destructor: shuts the thread's queue down, drains and destroys it. */
static void cq_destroy(void *p) {
  grpc_completion_queue *cq = p;
  G(grpc_completion_queue_shutdown)(cq);
  while (G(grpc_completion_queue_pluck)(cq, NULL, G(gpr_inf_future)(GPR_CLOCK_REALTIME), NULL).type !=
         GRPC_QUEUE_SHUTDOWN) {
  }
  G(grpc_completion_queue_destroy)(cq);
}

static void cq_key_init(void) { pthread_key_create(&cq_key, cq_destroy); }

/* The calling thread's pluck queue, created on first use; NULL on failure. */
static grpc_completion_queue *thread_cq(void) {
  pthread_once(&cq_once, cq_key_init);
  grpc_completion_queue *cq = pthread_getspecific(cq_key);
  if (!cq) {
    cq = G(grpc_completion_queue_create_for_pluck)(NULL);
    if (cq && pthread_setspecific(cq_key, cq) != 0) {
      cq_destroy(cq);
      cq = NULL;
    }
  }
  return cq;
}

/* Copies a received message into *resp (one copy from gRPC's slices); with
 * tail_fn, the claimed tail goes to the memory it returns instead. */
static bool copy_message(grpc_byte_buffer *bb, tfc_rpc_tail_fn tail_fn, void *ctx, tfc_rpc_buf *resp) {
  size_t n = G(grpc_byte_buffer_length)(bb);
  size_t tail_len = 0;
  uint8_t *tail = NULL;
  grpc_byte_buffer_reader r;
  grpc_slice sl;
  if (tail_fn && n > 0) {
    if (!G(grpc_byte_buffer_reader_init)(&r, bb)) return false;
    if (G(grpc_byte_buffer_reader_next)(&r, &sl)) {
      tail = tail_fn(ctx, GRPC_SLICE_START_PTR(sl), GRPC_SLICE_LENGTH(sl), n, &tail_len);
      G(grpc_slice_unref)(sl);
    }
    G(grpc_byte_buffer_reader_destroy)(&r);
    if (!tail || tail_len > n) {
      tail = NULL;
      tail_len = 0;
    }
  }
  size_t head_n = n - tail_len;
  resp->data = tfc_malloc(head_n ? head_n : 1);
  resp->len = 0;
  if (!resp->data) return false;
  if (!G(grpc_byte_buffer_reader_init)(&r, bb)) return false;
  size_t off = 0;
  while (G(grpc_byte_buffer_reader_next)(&r, &sl)) {
    const uint8_t *p = GRPC_SLICE_START_PTR(sl);
    size_t k = GRPC_SLICE_LENGTH(sl);
    if (off + k > n) k = off < n ? n - off : 0;
    if (off < head_n) {
      size_t h = k < head_n - off ? k : head_n - off;
      memcpy(resp->data + off, p, h);
      if (k > h) memcpy(tail, p + h, k - h);
    } else if (k) {
      memcpy(tail + (off - head_n), p, k);
    }
    off += k;
    G(grpc_slice_unref)(sl);
  }
  G(grpc_byte_buffer_reader_destroy)(&r);
  resp->len = head_n;
  return off == n;
}

/* One unary call (see rpc.h). */
bool tfc_rpc_unary(const char *target, const char *method, const tfc_rpc_slice *req, int n_req,
                   int64_t timeout_ms, tfc_rpc_buf *resp, tfc_status *st) {
  return tfc_rpc_unary_tail(target, method, req, n_req, timeout_ms, NULL, NULL, resp, st);
}

/* One unary call with a claimable tail (see rpc.h). */
bool tfc_rpc_unary_tail(const char *target, const char *method, const tfc_rpc_slice *req, int n_req,
                        int64_t timeout_ms, tfc_rpc_tail_fn tail_fn, void *ctx, tfc_rpc_buf *resp,
                        tfc_status *st) {
  resp->data = NULL;
  resp->len = 0;
  if (!rpc_ensure_init(st)) {
    for (int i = 0; i < n_req; i++)
      if (req[i].release) req[i].release(req[i].arg);
    return false;
  }
  grpc_byte_buffer *send = rpc_make_buffer(req, n_req);
  if (!send) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory calling %s", target);
  grpc_channel *ch = channel_for(target, st);
  if (!ch) {
    G(grpc_byte_buffer_destroy)(send);
    return false;
  }
  if (timeout_ms <= 0) timeout_ms = 24LL * 3600 * 1000;
  gpr_timespec deadline =
      G(gpr_time_add)(G(gpr_now)(GPR_CLOCK_REALTIME), G(gpr_time_from_millis)(timeout_ms, GPR_TIMESPAN));
  grpc_completion_queue *cq = thread_cq();
  if (!cq) {
    G(grpc_byte_buffer_destroy)(send);
    return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "cannot create a completion queue");
  }
  grpc_slice mslice = G(grpc_slice_from_static_string)(method);
  grpc_call *call = G(grpc_channel_create_call)(ch, NULL, GRPC_PROPAGATE_DEFAULTS, cq, mslice, NULL,
                                             deadline, NULL);
  grpc_metadata_array init_md, trail_md;
  G(grpc_metadata_array_init)(&init_md);
  G(grpc_metadata_array_init)(&trail_md);
  grpc_byte_buffer *recv = NULL;
  grpc_status_code status = GRPC_STATUS_UNKNOWN;
  grpc_slice details = G(grpc_empty_slice)();
  const char *error_string = NULL;
  grpc_op ops[6];
  memset(ops, 0, sizeof ops);
  ops[0].op = GRPC_OP_SEND_INITIAL_METADATA;
  /* the shared token, when one is set, goes with every call */
  const char *token = tfc_security_token();
  char auth[512];
  grpc_metadata md;
  memset(&md, 0, sizeof md);
  if (token) {
    snprintf(auth, sizeof auth, "Bearer %s", token);
    md.key = G(grpc_slice_from_static_string)("authorization");
    md.value = G(grpc_slice_from_copied_string)(auth);
    ops[0].data.send_initial_metadata.count = 1;
    ops[0].data.send_initial_metadata.metadata = &md;
  }
  ops[1].op = GRPC_OP_SEND_MESSAGE;
  ops[1].data.send_message.send_message = send;
  ops[2].op = GRPC_OP_SEND_CLOSE_FROM_CLIENT;
  ops[3].op = GRPC_OP_RECV_INITIAL_METADATA;
  ops[3].data.recv_initial_metadata.recv_initial_metadata = &init_md;
  ops[4].op = GRPC_OP_RECV_MESSAGE;
  ops[4].data.recv_message.recv_message = &recv;
  ops[5].op = GRPC_OP_RECV_STATUS_ON_CLIENT;
  ops[5].data.recv_status_on_client.trailing_metadata = &trail_md;
  ops[5].data.recv_status_on_client.status = &status;
  ops[5].data.recv_status_on_client.status_details = &details;
  ops[5].data.recv_status_on_client.error_string = &error_string;
  bool ok = false;
  int tag_value = 0;
  void *tag = &tag_value;
  grpc_call_error ce = G(grpc_call_start_batch)(call, ops, 6, tag, NULL);
  if (ce != GRPC_CALL_OK) {
    tfc_status_set(st, TFC_CODE_INTERNAL, "gRPC call to %s%s failed to start: %s", target, method,
                   G(grpc_call_error_to_string)(ce));
  } else {
    G(grpc_completion_queue_pluck)(cq, tag, G(gpr_inf_future)(GPR_CLOCK_REALTIME), NULL);
    if (status == GRPC_STATUS_OK) {
      if (!recv) {
        tfc_status_set(st, TFC_CODE_INTERNAL, "%s answered %s without a message", target, method);
      } else if (!copy_message(recv, tail_fn, ctx, resp)) {
        tfc_rpc_buf_free(resp);
        tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory reading a response");
      } else {
        ok = true;
      }
    } else {
      char *d = G(grpc_slice_to_c_string)(details);
      tfc_status_set(st, (tfc_code)status, "%s", d && d[0] ? d : "RPC failed");
      G(gpr_free)(d);
    }
  }
  if (recv) G(grpc_byte_buffer_destroy)(recv);
  G(grpc_byte_buffer_destroy)(send);
  G(grpc_slice_unref)(details);
  if (error_string) G(gpr_free)((void *)error_string);
  G(grpc_metadata_array_destroy)(&init_md);
  G(grpc_metadata_array_destroy)(&trail_md);
  G(grpc_call_unref)(call);
  if (token) G(grpc_slice_unref)(md.value);
  return ok;
}
