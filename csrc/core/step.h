/*
 * step.h — services a kernel may use during one step (one Session.run).
 *
 * Filled in by the runtime; kernels see it through tfc_kernel_ctx.step and
 * must not assume anything else about who runs them.
 */
#ifndef TFC_CORE_STEP_H
#define TFC_CORE_STEP_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "core/cancel.h"
#include "core/resource.h"

struct tfc_flib;

typedef struct tfc_step {
  int64_t step_id;
  tfc_resource_mgr *resources;          /* variables of the session */
  /* Writes text (e.g. from Print) where the user sees it; never NULL. */
  void (*log)(void *log_ctx, const char *text, size_t len);
  void *log_ctx;
  /* Writes text to the user's standard output (PrintV2 to "stdout"), with
   * log_ctx; NULL: kernels write to the C library's stdout. */
  void (*out)(void *log_ctx, const char *text, size_t len);
  atomic_int cancelled;                 /* set when the step is aborted */
  void *runtime;                        /* opaque: executor/rendezvous state */
  struct tfc_flib *flib;                /* the graph's functions (core/function.h); may be NULL */
  /* Fired when the step is aborted (a node failed, the deadline passed, the
   * session closed): kernels that wait on something outside the step
   * register here (core/cancel.h). NULL in steps that cannot be aborted. */
  tfc_cancel *cancel_reg;
} tfc_step;

#endif
