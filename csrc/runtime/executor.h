/*
 * executor.h — runs partitions of a subgraph as dataflow.
 *
 * A tfc_executor is the immutable plan of one partition: kernels looked up
 * and constructed once, consumer lists, initial pending counts and how many
 * times each output is used. tfc_run_step runs one step over one or more
 * executors with fresh per-step state (pending counts, output slots), so
 * several steps may run at once on the same executors.
 *
 * Scheduling: a step has one ready queue. The calling thread drains it;
 * a pool worker joins in only when a thread is about to run an expensive
 * node (one whose measured compute time, node_cost.c, is 10 us or more; a
 * node never timed is not, so a plan's first step runs inline in queue
 * order) while other nodes wait. Steps of cheap nodes — the
 * usual small Session.run — therefore run inline on the caller with no
 * thread hand-off, however many nodes are ready at once. Async kernels
 * (_Recv) complete through a callback that pushes their consumers onto the
 * same queue. On the first error the step stops computing, aborts the
 * rendezvous and drains.
 */
#ifndef TFC_RUNTIME_EXECUTOR_H
#define TFC_RUNTIME_EXECUTOR_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/status.h"
#include "base/threadpool.h"
#include "core/resource.h"
#include "core/step.h"
#include "graph/subgraph.h"
#include "kernels/kernel.h"
#include "runtime/rendezvous.h"

typedef struct tfc_executor tfc_executor;
typedef struct tfc_kernel_cache tfc_kernel_cache;

/* Session-wide services shared by all executors of a session. */
typedef struct tfc_exec_env {
  tfc_resource_mgr *resources;
  tfc_threadpool *intra_pool;     /* may be NULL */
  tfc_threadpool *inter_pool;     /* may be NULL: everything inline */
  void (*log)(void *log_ctx, const char *text, size_t len);
  void *log_ctx;
  void (*out)(void *log_ctx, const char *text, size_t len);  /* stdout; may be NULL */
  tfc_kernel_cache *kernel_cache; /* shares stateful kernels across plans; may be NULL */
  const char *device_type;        /* "CPU" */
  struct tfc_flib *flib;          /* the graph's function runtime (core/function.h); may be NULL */
} tfc_exec_env;

/* Builds the executor for partition `part_index` of sg. Kernels are looked up
 * and initialised here (INVALID_ARGUMENT "No OpKernel was registered ..."). */
tfc_executor *tfc_executor_new(const tfc_subgraph *sg, int part_index, const tfc_exec_env *env,
                               tfc_status *st);
void tfc_executor_free(tfc_executor *x);
/* Number of nodes in the executor's partition. */
int tfc_executor_size(const tfc_executor *x);

typedef struct tfc_step_args {
  const tfc_subgraph *sg;
  int n_execs;                    /* == sg->n_parts, executor i runs partition i */
  tfc_executor *const *execs;
  tfc_tensor *const *feeds;       /* sg->n_feeds borrowed values */
  tfc_tensor **fetch_out;         /* sg->n_fetches outputs (new references) */
  tfc_rendezvous *rendezvous;     /* required when there are _Send/_Recv nodes */
  /* Step tracing (RunOptions FULL_TRACE): when set, called once per executed
   * node with its start and end (CLOCK_REALTIME nanoseconds) and the outputs
   * it produced (n_outputs entries, NULL where an output is a ref or unset),
   * from whichever thread ran it. NULL: no clock is read. */
  void (*node_stats)(void *ctx, const tfc_snode *node, int64_t start_ns, int64_t end_ns,
                     int n_outputs, tfc_tensor *const *outputs);
  void *node_stats_ctx;
  /* Cancellation of steps with control flow (a loop may never end): the step
   * stops with CANCELLED when *cancel becomes non-zero (may be NULL), and with
   * DEADLINE_EXCEEDED once CLOCK_MONOTONIC passes deadline_ns (0: none). */
  const atomic_int *cancel;
  int64_t deadline_ns;
} tfc_step_args;

/* Runs one step. On failure no fetch_out entry is set and st names the node. */
bool tfc_run_step(const tfc_step_args *args, const tfc_exec_env *env, tfc_status *st);

/* The rendezvous of the step a kernel runs in (for _Send/_Recv). */
tfc_rendezvous *tfc_step_rendezvous(tfc_step *step);

/* A cache of stateful kernels' state keyed by node name (TF's OpSegment). */
tfc_kernel_cache *tfc_kernel_cache_new(void);
void tfc_kernel_cache_free(tfc_kernel_cache *c);

/* Registers the runtime's own kernels: _Send/_Recv and the function call
 * kernels of runtime/function.h (idempotent); false on OOM. */
bool tfc_sendrecv_register(void);

#endif
