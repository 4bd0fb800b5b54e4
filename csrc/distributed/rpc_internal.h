/*
 * rpc_internal.h — what rpc_server.c and rpc_client.c share (private to them).
 */
#ifndef TFC_DISTRIBUTED_RPC_INTERNAL_H
#define TFC_DISTRIBUTED_RPC_INTERNAL_H

#include <stdbool.h>

#include "base/status.h"
#include "distributed/rpc.h"

struct grpc_byte_buffer;

/* Initialises gRPC once per process; false + UNAVAILABLE in a child forked
 * after initialisation (gRPC cannot run there). */
bool rpc_ensure_init(tfc_status *st);

/* A byte buffer from slices, zero-copy for slices with a release callback
 * (each release runs exactly once); NULL on OOM. */
struct grpc_byte_buffer *rpc_make_buffer(const tfc_rpc_slice *slices, int n);

/* Frees a server call after its answer batch completed (rpc_server.c). */
void rpc_call_finish(tfc_rpc_call *c);

#endif
