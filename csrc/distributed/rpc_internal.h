/*
 * rpc_internal.h — what rpc_server.c and rpc_client.c share (private to them).
 */
#ifndef TFC_DISTRIBUTED_RPC_INTERNAL_H
#define TFC_DISTRIBUTED_RPC_INTERNAL_H

#include <stdbool.h>

#include "base/status.h"
#include "distributed/rpc.h"

struct grpc_byte_buffer;

/* The gRPC functions tfc calls. gRPC is not linked: rpc_ensure_init loads
 * libgrpc with dlopen on first use (loading it maps ~40 libraries, which a
 * process that never serves or calls should not pay) and fills a table of
 * pointers; call sites write G(grpc_init)(). This part needs gRPC's
 * declarations, so only files that include gRPC's headers (the rpc files)
 * define TFC_RPC_GRPC_API before including this header. */
#define TFC_GRPC_FUNCS(X) \
  X(gpr_convert_clock_type) \
  X(gpr_free) \
  X(gpr_inf_future) \
  X(gpr_now) \
  X(gpr_time_add) \
  X(gpr_time_cmp) \
  X(gpr_time_from_millis) \
  X(gpr_time_sub) \
  X(grpc_byte_buffer_destroy) \
  X(grpc_byte_buffer_length) \
  X(grpc_byte_buffer_reader_destroy) \
  X(grpc_byte_buffer_reader_init) \
  X(grpc_byte_buffer_reader_next) \
  X(grpc_call_cancel) \
  X(grpc_call_cancel_with_status) \
  X(grpc_call_details_destroy) \
  X(grpc_call_details_init) \
  X(grpc_call_error_to_string) \
  X(grpc_call_start_batch) \
  X(grpc_call_unref) \
  X(grpc_channel_create) \
  X(grpc_channel_create_call) \
  X(grpc_channel_credentials_release) \
  X(grpc_channel_destroy) \
  X(grpc_completion_queue_create_for_next) \
  X(grpc_completion_queue_create_for_pluck) \
  X(grpc_completion_queue_destroy) \
  X(grpc_completion_queue_next) \
  X(grpc_completion_queue_pluck) \
  X(grpc_completion_queue_shutdown) \
  X(grpc_empty_slice) \
  X(grpc_init) \
  X(grpc_insecure_credentials_create) \
  X(grpc_insecure_server_credentials_create) \
  X(grpc_metadata_array_destroy) \
  X(grpc_metadata_array_init) \
  X(grpc_raw_byte_buffer_create) \
  X(grpc_server_add_http2_port) \
  X(grpc_server_cancel_all_calls) \
  X(grpc_server_create) \
  X(grpc_server_credentials_release) \
  X(grpc_server_destroy) \
  X(grpc_server_register_completion_queue) \
  X(grpc_server_register_method) \
  X(grpc_server_request_call) \
  X(grpc_server_request_registered_call) \
  X(grpc_server_shutdown_and_notify) \
  X(grpc_server_start) \
  X(grpc_slice_from_copied_buffer) \
  X(grpc_slice_from_copied_string) \
  X(grpc_slice_from_static_string) \
  X(grpc_slice_new_with_user_data) \
  X(grpc_slice_to_c_string) \
  X(grpc_slice_unref) \
  X(grpc_ssl_credentials_create_ex) \
  X(grpc_ssl_server_credentials_create_ex)

#ifdef TFC_RPC_GRPC_API
typedef struct tfc_grpc_api {
#define TFC_GRPC_FIELD(f) __typeof__(f) *f;
  TFC_GRPC_FUNCS(TFC_GRPC_FIELD)
#undef TFC_GRPC_FIELD
} tfc_grpc_api;
extern tfc_grpc_api tfc_grpc;
#define G(f) (tfc_grpc.f)
#endif

/* Initialises gRPC once per process; false + UNAVAILABLE in a child forked
 * after initialisation (gRPC cannot run there). */
bool rpc_ensure_init(tfc_status *st);

/* A byte buffer from slices, zero-copy for slices with a release callback
 * (each release runs exactly once); NULL on OOM. */
struct grpc_byte_buffer *rpc_make_buffer(const tfc_rpc_slice *slices, int n);

/* Frees a server call after its answer batch completed (rpc_server.c). */
void rpc_call_finish(tfc_rpc_call *c);

#endif
