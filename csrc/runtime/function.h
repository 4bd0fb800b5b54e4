/*
 * function.h — the function library runtime: the implementation of
 * core/function.h for one graph's library on one session's CPU device.
 *
 * A session (or a worker's registered graph) makes one with tfc_flib_new and
 * hands it to its executors through tfc_exec_env.flib; kernels then reach it
 * as tfc_kernel_init.flib and tfc_kernel_ctx.step->flib. Instantiations are
 * cached per (function name, attrs) until tfc_flib_free.
 *
 * Bodies run on the calling thread (no inter-op pool: a call waits inside a
 * kernel, and a pool thread waiting for helpers queued behind it could
 * deadlock), with the session's intra-op pool for large kernels.
 */
#ifndef TFC_RUNTIME_FUNCTION_H
#define TFC_RUNTIME_FUNCTION_H

#include <stdbool.h>

#include "core/function.h"
#include "graph/graph.h"
#include "runtime/executor.h"

/* Deepest chain of functions instantiating functions (deeper: an error). */
#define TFC_FUNC_MAX_DEPTH 64

/* A library runtime over g's library (g is referenced, not copied: functions
 * added to g later are found too). env gives resources, the intra-op pool
 * (may be set later with tfc_flib_set_pools), the log sink and the device
 * type; its kernel_cache and inter_pool are ignored. NULL on OOM. */
tfc_flib *tfc_flib_new(tfc_graph *g, const tfc_exec_env *env);
/* Sets the intra-op pool used by function bodies (before running them). */
void tfc_flib_set_pools(tfc_flib *lib, tfc_threadpool *intra_pool);
/* Frees every instantiation and the runtime (no run may be in progress). */
void tfc_flib_free(tfc_flib *lib);

/* Registers the function call kernels (PartitionedCall, StatefulPartitionedCall,
 * calls by function name, If/StatelessIf, While/StatelessWhile, Case/StatelessCase);
 * idempotent, false on OOM (runtime/function_ops.c). */
bool tfc_function_kernels_register(void);

#endif
