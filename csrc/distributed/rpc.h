/*
 * rpc.h — unary RPCs over gRPC's core C API, as bytes in and bytes out.
 *
 * This header is the transport seam of the distributed runtime: only
 * rpc_server.c and rpc_client.c include gRPC's headers; everything above
 * speaks serialized protobuf bytes and tfc_status.
 *
 * gRPC is initialised on the first server or call (never at import) and
 * stays initialised for the life of the process; a process that forks after
 * that cannot use gRPC in the child (see grpc-core-c facts: the child would
 * hang), so tfc_rpc_fork_child() marks it unusable there and every later
 * call fails with UNAVAILABLE instead.
 *
 * Server: one completion queue drained by one thread; each call is handed to
 * a handler thread (kept between calls; a new one starts whenever a call
 * arrives and none is free), so handlers may block (a RecvTensor waiting for
 * a value, a RunStep waiting for workers) without starving other
 * calls. A handler answers exactly once with tfc_rpc_reply.
 *
 *   static void handle(void *ctx, int method, tfc_rpc_call *call,
 *                      const uint8_t *req, size_t len) {
 *     ... tfc_rpc_reply(call, NULL, &(tfc_rpc_slice){buf, n, tfc_free, buf}, 1);
 *   }
 *   tfc_rpc_server *s = tfc_rpc_server_new("0.0.0.0:2222", methods, n, handle, ctx, &port, st);
 *
 * Client: tfc_rpc_unary(target, "/tensorflow.WorkerService/GetStatus", ...)
 * with a deadline; channels are cached per target.
 */
#ifndef TFC_DISTRIBUTED_RPC_H
#define TFC_DISTRIBUTED_RPC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"

/* One piece of an outgoing message. release(arg) runs (maybe on a gRPC
 * thread) once gRPC no longer needs data; NULL release: the bytes are
 * copied at once. */
typedef struct tfc_rpc_slice {
  const void *data;
  size_t len;
  void (*release)(void *arg);
  void *arg;
} tfc_rpc_slice;

/* A received message: len bytes at data (tfc_malloc'd; free with tfc_rpc_buf_free). */
typedef struct tfc_rpc_buf {
  uint8_t *data;
  size_t len;
} tfc_rpc_buf;

void tfc_rpc_buf_free(tfc_rpc_buf *b);

/* ---------------------------------------------------------------- server */

typedef struct tfc_rpc_server tfc_rpc_server;
typedef struct tfc_rpc_call tfc_rpc_call;

/* Runs on a thread of its own for each call of methods[method]; req (len
 * bytes, valid until the reply) is the request message, NULL with len 0
 * when the client sent none. Must call tfc_rpc_reply once. */
typedef void (*tfc_rpc_handler)(void *ctx, int method, tfc_rpc_call *call, const uint8_t *req,
                                size_t len);

/* Starts a server on addr ("0.0.0.0:2222"; port 0 picks one) serving the
 * given method paths ("/tensorflow.WorkerService/GetStatus"); other paths
 * get UNIMPLEMENTED. *bound_port receives the port. NULL + UNAVAILABLE when
 * the address cannot be bound. */
tfc_rpc_server *tfc_rpc_server_new(const char *addr, const char *const *methods, int n_methods,
                                   tfc_rpc_handler handler, void *ctx, int *bound_port,
                                   tfc_status *st);

/* Answers a call: st NULL or OK sends the n slices as the response message;
 * otherwise st's code and message (cut at 3072 bytes, as TF does) with no
 * message. Takes ownership of the slices' release callbacks. */
void tfc_rpc_reply(tfc_rpc_call *call, const tfc_status *st, const tfc_rpc_slice *slices, int n);

/* The remaining milliseconds before the caller's deadline (INT64_MAX when none). */
int64_t tfc_rpc_call_remaining_ms(const tfc_rpc_call *call);

/* Stops accepting calls, cancels the ones in flight, waits for running
 * handlers to answer, stops the queue thread and frees the server. */
void tfc_rpc_server_free(tfc_rpc_server *s);
/* (A handler still blocked 5 s after the shutdown began leaves the server
 * allocated and its port closed: memory is kept rather than freed under it.) */

/* ---------------------------------------------------------------- client */

/* Calls method on target ("host:port") with the request slices and waits up
 * to timeout_ms (<= 0: 24 hours) for the answer. On success *resp holds the
 * response message. On failure st holds the gRPC status (TF's code by
 * integer identity) and its message; UNAVAILABLE when the peer cannot be
 * reached, DEADLINE_EXCEEDED when the deadline passed. */
bool tfc_rpc_unary(const char *target, const char *method, const tfc_rpc_slice *req, int n_req,
                   int64_t timeout_ms, tfc_rpc_buf *resp, tfc_status *st);

/* Claims the tail of a response before it is copied: called once with the
 * first bytes of the message (head, head_len: at least the first slice) and
 * its total length; returns where the last *tail_len bytes go (e.g. a new
 * tensor's buffer), or NULL to keep the whole message in resp. */
typedef void *(*tfc_rpc_tail_fn)(void *ctx, const uint8_t *head, size_t head_len, size_t total,
                                 size_t *tail_len);

/* tfc_rpc_unary whose response tail may go straight to memory tail_fn picks
 * (one copy from gRPC's slices, none after): resp then holds the bytes before
 * the tail only. */
bool tfc_rpc_unary_tail(const char *target, const char *method, const tfc_rpc_slice *req, int n_req,
                        int64_t timeout_ms, tfc_rpc_tail_fn tail_fn, void *ctx, tfc_rpc_buf *resp,
                        tfc_status *st);

/* True once gRPC was initialised in this process (a server or a call). */
bool tfc_rpc_initialized(void);

#endif
