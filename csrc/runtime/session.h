/*
 * session.h — the local session: plans cached per (feeds, fetches, targets),
 * run with the GIL released by the caller.
 *
 * A plan is the pruned graph placed on the session's devices, partitioned
 * with _Send/_Recv pairs where an edge crosses devices, and one executor per
 * partition with its kernels constructed. Plans are immutable and may be run
 * by several threads at once.
 */
#ifndef TFC_RUNTIME_SESSION_H
#define TFC_RUNTIME_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include "base/status.h"
#include "base/strbuf.h"
#include "core/tensor.h"
#include "graph/graph.h"

typedef struct tfc_session tfc_session;
typedef struct tfc_plan tfc_plan;

typedef struct tfc_session_options {
  int inter_op_threads;        /* 0: number of cores */
  int intra_op_threads;        /* 0: number of cores */
  int n_cpu_devices;           /* >= 1 local CPU devices */
  bool allow_soft_placement;
  bool log_device_placement;
  bool no_fusion;              /* rewrite_options.remapping = OFF: plans keep every node */
  /* GraphOptions.build_cost_model / build_cost_model_after: when every > 0,
   * step k (counted per plan from 0) with k - after >= 0 and
   * (k - after + 1) % every == 0 is measured: its RunMetadata gets
   * step_stats and cost_graph, as TF's DirectSession does. */
  int64_t build_cost_model;
  int64_t build_cost_model_after;
  const char *job;             /* "localhost" for a local session */
  int task;
  /* Where Print output and placement logs go; NULL writes to stderr. */
  void (*log)(void *log_ctx, const char *text, size_t len);
  void *log_ctx;
  void (*out)(void *log_ctx, const char *text, size_t len);  /* stdout; may be NULL */
} tfc_session_options;

/* Creates a session over g (takes a graph reference). NULL + st on failure. */
tfc_session *tfc_session_new(tfc_graph *g, const tfc_session_options *opts, tfc_status *st);
/* Closes: later calls fail with CANCELLED-free FAILED_PRECONDITION
 * "Attempted to use a closed Session."; waits for running steps. */
void tfc_session_close(tfc_session *s);
/* Frees a session (closing it first). */
void tfc_session_free(tfc_session *s);
bool tfc_session_is_closed(const tfc_session *s);

/* Returns the cached or newly built plan (borrowed; lives as long as the
 * session). feeds/fetches are endpoints; targets are node ids. */
tfc_plan *tfc_session_plan(tfc_session *s, int n_feeds, const tfc_endpoint *feeds, int n_fetches,
                           const tfc_endpoint *fetches, int n_targets, const int *targets,
                           tfc_status *st);
/* Runs a plan: feed_values[i] feeds feeds[i] (borrowed); fetch_values[i]
 * receives a new reference for fetches[i]. Safe to call from several threads.
 * Does not touch Python: call with the GIL released. */
bool tfc_session_run(tfc_session *s, tfc_plan *p, tfc_tensor *const *feed_values,
                     tfc_tensor **fetch_values, tfc_status *st);
/* tfc_session_run with RunOptions.timeout_in_ms: a step with control flow
 * that runs longer than timeout_ms (> 0) fails with DEADLINE_EXCEEDED; one
 * running while the session is closed fails with CANCELLED. */
bool tfc_session_run_timeout(tfc_session *s, tfc_plan *p, tfc_tensor *const *feed_values,
                             tfc_tensor **fetch_values, int64_t timeout_ms, tfc_status *st);
/* What a traced run records into RunMetadata. */
typedef struct tfc_run_trace {
  bool step_stats;        /* RunOptions.trace_level FULL_TRACE: RunMetadata.step_stats */
  bool partition_graphs;  /* RunOptions.output_partition_graphs: RunMetadata.partition_graphs */
} tfc_run_trace;
/* tfc_session_run_timeout that also appends a serialized RunMetadata to
 * *metadata as tr asks (step_stats: one DeviceStepStats per device that ran
 * a partition; partition_graphs: each partition's GraphDef). tr == NULL or
 * metadata == NULL: an untraced run, no clock read per node. On failure
 * nothing is fetched; metadata may hold a partial message. */
bool tfc_session_run_traced(tfc_session *s, tfc_plan *p, tfc_tensor *const *feed_values,
                            tfc_tensor **fetch_values, int64_t timeout_ms, const tfc_run_trace *tr,
                            tfc_strbuf *metadata, tfc_status *st);
/* Expected dtype and static shape of feed i of plan p (for converting feeds). */
tfc_dtype tfc_plan_feed_dtype(const tfc_plan *p, int i);
const tfc_shape *tfc_plan_feed_shape(const tfc_plan *p, int i);
const char *tfc_plan_feed_name(const tfc_plan *p, int i);

#endif
