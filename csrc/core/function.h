/*
 * function.h — calling functions of a graph's function library from kernels.
 *
 * A graph may carry a FunctionDefLibrary (TF's `library`): named functions
 * with typed arguments and results. The runtime instantiates a function for
 * one set of attr values into an immutable plan (its body as a graph, pruned,
 * placed and built into an executor with kernels constructed) once, caches it
 * per (function name, attrs) for the life of the session, and runs that plan
 * on argument tensors as often as asked, from any thread at once.
 *
 * Kernels reach the runtime through a tfc_flib handle: tfc_kernel_init.flib
 * at plan-build time (instantiate there, once) and tfc_kernel_ctx.step->flib
 * at run time. This header is the whole contract; the implementation lives in
 * the runtime layer (runtime/function.c) behind the function table below, so
 * kernels of any layer can call functions without seeing the executor.
 *
 *   // init: once per plan
 *   const tfc_fhandle *f = tfc_func_instantiate(ki->flib, "my_fn", NULL, ki->st);
 *   // compute: every step, any thread
 *   tfc_tensor *outs[2];
 *   if (tfc_func_run(ctx->step->flib, f, ctx->step, ins, outs, ctx->st)) { ... own outs ... }
 *
 * Errors: instantiation fails with INVALID_ARGUMENT (TF's class) "Failed to find function 'f' in
 * the graph's function library." for a missing name, INVALID_ARGUMENT for a
 * body that does not import (unknown op, bad input reference, types that do
 * not bind) or for a function that calls itself directly or through others
 * ("... is recursive: f -> g -> f"). A run fails with the first error of the
 * body; the message then names the function and the body node
 * ("{{function_node f}}{{node add}} ..."), and the status carries no node
 * name, so the caller's executor names the calling node. A run stops with
 * CANCELLED / DEADLINE_EXCEEDED when the calling step is cancelled or passes
 * its RunOptions deadline.
 */
#ifndef TFC_CORE_FUNCTION_H
#define TFC_CORE_FUNCTION_H

#include <stdbool.h>

#include "base/status.h"
#include "core/attr.h"
#include "core/dtype.h"
#include "core/step.h"
#include "core/tensor.h"

/* An instantiated function: its signature for these attrs. Owned by the
 * library runtime that made it (valid while that runtime lives: a session). */
typedef struct tfc_fhandle {
  const char *name;            /* the function's name in the library */
  int n_inputs;
  const tfc_dtype *in_types;   /* base types */
  int n_outputs;
  const tfc_dtype *out_types;  /* base types */
  bool stateful;               /* the signature says is_stateful */
} tfc_fhandle;

typedef struct tfc_flib tfc_flib;

/* The runtime's function table (runtime/function.c fills it). */
typedef struct tfc_flib_ops {
  const tfc_fhandle *(*instantiate)(tfc_flib *lib, const char *name, const tfc_attrs *attrs,
                                    tfc_status *st);
  bool (*run)(tfc_flib *lib, const tfc_fhandle *f, tfc_step *parent, tfc_tensor *const *args,
              tfc_tensor **rets, tfc_status *st);
  bool (*has_function)(tfc_flib *lib, const char *name);
  /* The name of the gradient function recorded for `name` (GradientDef),
   * or NULL; valid while the library lives. */
  const char *(*gradient)(tfc_flib *lib, const char *name);
} tfc_flib_ops;

/* A library runtime: the functions of one graph, for one session's devices
 * and resources. */
struct tfc_flib {
  const tfc_flib_ops *ops;
};

/* Instantiates function `name` of lib with attrs (may be NULL: none; they
 * fill the signature's type parameters and the body's attr placeholders).
 * Returns the cached handle when done before. lib NULL: FAILED_PRECONDITION. */
static inline const tfc_fhandle *tfc_func_instantiate(tfc_flib *lib, const char *name,
                                                      const tfc_attrs *attrs, tfc_status *st) {
  if (!lib) {
    tfc_status_set(st, TFC_CODE_FAILED_PRECONDITION,
                   "No function library runtime is available to instantiate '%s'", name);
    return NULL;
  }
  return lib->ops->instantiate(lib, name, attrs, st);
}

/* Runs f on args (f->n_inputs borrowed tensors of f->in_types) and writes
 * f->n_outputs new references into rets (all NULL on failure). parent is the
 * calling step (cancellation, deadline, resources, log) or NULL. Thread-safe;
 * several runs of one handle may overlap. Input dtypes are checked
 * (INVALID_ARGUMENT naming the argument). Runs inline on the calling thread. */
static inline bool tfc_func_run(tfc_flib *lib, const tfc_fhandle *f, tfc_step *parent,
                                tfc_tensor *const *args, tfc_tensor **rets, tfc_status *st) {
  return lib->ops->run(lib, f, parent, args, rets, st);
}

/* True when lib's library defines `name`. */
static inline bool tfc_func_exists(tfc_flib *lib, const char *name) {
  return lib && lib->ops->has_function(lib, name);
}

/* The gradient function (GradientDef) recorded for function `name` in lib,
 * or NULL when there is none (or no lib). */
static inline const char *tfc_func_gradient(tfc_flib *lib, const char *name) {
  return lib && lib->ops->gradient ? lib->ops->gradient(lib, name) : NULL;
}

#endif
