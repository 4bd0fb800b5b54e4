/*
 * kernel.h — the kernel interface and registry.
 *
 * A kernel implements one op on one device type for a set of dtypes. Its
 * optional init() runs once when a session builds its plan (parse attrs,
 * precompute); compute() runs every step and must be thread-safe with respect
 * to its state (several steps may run at once). Kernels are registered
 * separately from op definitions (core/op_registry.h).
 *
 * Conventions for compute():
 *  - inputs are borrowed: ctx->inputs[i] (for Ref inputs, the variable is
 *    ctx->ref_inputs[i] and ctx->inputs[i] its current value or NULL);
 *  - outputs are produced with tfc_kernel_alloc_output / tfc_kernel_set_output;
 *  - errors via tfc_kernel_fail (the executor adds the node name);
 *  - no Python, no globals; big loops may use tfc_kernel_parallel_for.
 */
#ifndef TFC_KERNELS_KERNEL_H
#define TFC_KERNELS_KERNEL_H

#include <stdbool.h>
#include <stdint.h>

#include "base/status.h"
#include "base/threadpool.h"
#include "core/attr.h"
#include "core/op_registry.h"
#include "core/resource.h"
#include "core/step.h"
#include "core/tensor.h"

struct tfc_node;
struct tfc_step;
struct tfc_var;

typedef struct tfc_kernel_ctx {
  const char *node_name;
  const char *op_type;
  const tfc_attrs *attrs;        /* the node's complete attrs */
  void *state;                   /* from init, may be NULL */
  int n_inputs;
  tfc_tensor **inputs;           /* borrowed */
  struct tfc_var **ref_inputs;   /* non-NULL entries for Ref inputs */
  int n_outputs;
  tfc_tensor **outputs;          /* owned; set by the kernel */
  struct tfc_var **ref_outputs;  /* for Ref outputs (VariableV2, Assign...) */
  const tfc_dtype *out_types;    /* expected output types (base or ref) */
  tfc_status *st;
  tfc_threadpool *intra_pool;    /* may be NULL: run single-threaded */
  struct tfc_step *step;         /* per-step services (runtime/step.h) */
  const struct tfc_node *node;
  struct tfc_async_token *async_token; /* set by the executor for async kernels */
  /* the frame instance and iteration the node runs in (0 and 0 outside every
   * while loop): _Send/_Recv inside a loop key their tensors with them */
  uint64_t frame_id;
  int64_t iter_id;
} tfc_kernel_ctx;

/* How an async kernel reports completion: tfc_kernel_async_done(ctx) calls
 * token->done(ctx, token->arg). Owned by the executor. */
typedef struct tfc_async_token {
  void (*done)(tfc_kernel_ctx *ctx, void *arg);
  void *arg;
} tfc_async_token;

typedef struct tfc_kernel_init {
  const char *node_name;
  const char *op_type;
  const tfc_attrs *attrs;
  int n_inputs;
  const tfc_dtype *in_types;
  int n_outputs;
  const tfc_dtype *out_types;
  const struct tfc_node *node;
  tfc_status *st;
  struct tfc_flib *flib;         /* the graph's functions (core/function.h); may be NULL */
} tfc_kernel_init;

#define TFC_KERNEL_ASYNC 0x1u   /* compute may finish later via tfc_kernel_async_done */
#define TFC_KERNEL_PER_PLAN 0x2u /* state belongs to one plan: never shared through the kernel
                                    cache, even for a stateful op (e.g. it points into the plan's
                                    function runtime) */

typedef struct tfc_kernel_def {
  const char *op;                 /* op type name */
  const char *device;             /* "CPU" */
  const char *type_attr;          /* attr whose value is constrained, or NULL */
  const tfc_dtype *types;         /* INVALID-terminated allowed list, or NULL = all */
  bool (*init)(const tfc_kernel_init *ki, void **state);   /* optional */
  void (*compute)(tfc_kernel_ctx *ctx);
  void (*destroy)(void *state);                            /* optional */
  unsigned flags;
} tfc_kernel_def;

/* A family's kernel table (kernels/<family>.c defines tfc_kernels_<family>). */
typedef struct tfc_kernel_table {
  const tfc_kernel_def *defs;
  int n;
} tfc_kernel_table;

/* Adds a table at run time (for kernels living above this layer, e.g. the
 * runtime's _Send/_Recv). Returns false on OOM. Call before the first lookup. */
bool tfc_kernel_register_table(const tfc_kernel_def *defs, int n);
/* Number of kernel defs registered and access by index (for coverage tests). */
int tfc_kernel_count(void);
const tfc_kernel_def *tfc_kernel_at(int i);

/* Finds the kernel for (op, device) whose type constraint accepts the node's
 * attrs; NULL when none (the caller reports "No registered kernel ..."). */
const tfc_kernel_def *tfc_kernel_lookup(const char *op, const char *device, const tfc_attrs *attrs);
/* True when any kernel is registered for op on device. */
bool tfc_kernel_exists(const char *op, const char *device);

/* Allocates output i with dtype and dims (dtype must be the base output type).
 * Returns NULL with ctx->st set on OOM. */
tfc_tensor *tfc_kernel_alloc_output(tfc_kernel_ctx *ctx, int i, tfc_dtype dtype, int rank,
                                    const int64_t *dims);
/* Sets output i to t, taking the caller's reference. */
void tfc_kernel_set_output(tfc_kernel_ctx *ctx, int i, tfc_tensor *t);
/* Passes input `in` through as output `out` (shared reference). */
void tfc_kernel_forward(tfc_kernel_ctx *ctx, int in, int out);
/* Fails the kernel with a formatted message (returns false). */
bool tfc_kernel_fail(tfc_kernel_ctx *ctx, tfc_code code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* True when the kernel has not failed yet. */
static inline bool tfc_kernel_ok(const tfc_kernel_ctx *ctx) { return ctx->st->code == TFC_CODE_OK; }
/* Parallel loop over [0, n) on the intra-op pool (inline when n < min_shard*2 or no pool). */
void tfc_kernel_parallel_for(tfc_kernel_ctx *ctx, int64_t n, int64_t min_shard, tfc_range_fn fn,
                             void *arg);
/* For TFC_KERNEL_ASYNC kernels: signals completion (ctx stays valid until then). */
void tfc_kernel_async_done(tfc_kernel_ctx *ctx);

/* Reads a 1-D (or scalar) int32/int64 tensor into out (up to max values).
 * Returns the count, or -1 with ctx failed when the input is not integer or too long. */
int tfc_kernel_read_int_vector(tfc_kernel_ctx *ctx, const tfc_tensor *t, int64_t *out, int max,
                               const char *what);

#endif
