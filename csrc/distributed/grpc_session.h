/*
 * grpc_session.h — the client side of a grpc:// session: the graph goes to
 * the master as GraphDef deltas (CreateSession, then ExtendSession with the
 * nodes added since), and each run is one RunStep with feeds and fetches as
 * TensorProtos. Thin by design: the master plans and runs.
 *
 *   tfc_grpc_session *s = tfc_grpc_session_new("localhost:2222", cfg, cfg_len, st);
 *   tfc_grpc_session_extend(s, graph, st);
 *   tfc_grpc_session_run(s, &args, st);
 *   tfc_grpc_session_free(s);   // CloseSession
 */
#ifndef TFC_DISTRIBUTED_GRPC_SESSION_H
#define TFC_DISTRIBUTED_GRPC_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "core/tensor.h"
#include "graph/graph.h"

typedef struct tfc_grpc_session tfc_grpc_session;

/* A session against the master at target ("host:port"); config is a
 * serialized ConfigProto (may be empty). Nothing is sent yet. */
tfc_grpc_session *tfc_grpc_session_new(const char *target, const void *config, size_t config_len,
                                       tfc_status *st);
/* Sends g's nodes the master has not seen (CreateSession the first time). */
bool tfc_grpc_session_extend(tfc_grpc_session *s, tfc_graph *g, tfc_status *st);

typedef struct tfc_grpc_run_args {
  int n_feeds;
  const char *const *feed_names;     /* "x:0" */
  tfc_tensor *const *feeds;
  int n_fetches;
  const char *const *fetch_names;
  int n_targets;
  const char *const *targets;
  const void *run_options;           /* serialized RunOptions or NULL */
  size_t run_options_len;
  tfc_tensor **fetch_out;            /* n_fetches new references on success */
  uint8_t *metadata;                 /* out: serialized RunMetadata (tfc_malloc'd) or NULL */
  size_t metadata_len;
} tfc_grpc_run_args;

/* One RunStep. Errors carry the master's code and message. */
bool tfc_grpc_session_run(tfc_grpc_session *s, tfc_grpc_run_args *a, tfc_status *st);
/* Serialized ListDevicesResponse of the master at target (into *out, tfc_malloc'd). */
bool tfc_grpc_list_devices(const char *target, int64_t timeout_ms, uint8_t **out, size_t *len, tfc_status *st);
/* Reset(containers) on the master at target. */
bool tfc_grpc_reset(const char *target, int n, const char *const *containers, tfc_status *st);
/* Marks a use of s by a thread that will extend/run it; false (nothing to
 * leave) once s is being closed. Take it while s is known to be alive (the
 * binding does so under the GIL, as it frees under the GIL). */
bool tfc_grpc_session_enter(tfc_grpc_session *s);
/* Ends a use from tfc_grpc_session_enter; the last use of a closed session frees it. */
void tfc_grpc_session_leave(tfc_grpc_session *s);
/* CloseSession (when one was created; the master cancels the session's steps
 * in flight) and free: waits up to 10 s for the uses in progress to end, and
 * otherwise leaves the freeing to the last of them. */
void tfc_grpc_session_free(tfc_grpc_session *s);

#endif
