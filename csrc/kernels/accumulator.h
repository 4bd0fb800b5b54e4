/*
 * accumulator.h — TF's conditional accumulators (ConditionalAccumulator,
 * SparseConditionalAccumulator) as resources of a session: what
 * SyncReplicasOptimizer aggregates the workers' gradients in.
 *
 * An accumulator sums the gradients applied to it with a local step at least
 * its global step (older, stale gradients are dropped without a word, as in
 * TF) and counts them. A take waits until at least num_required gradients
 * have been summed, then hands out their mean (or sum), resets the count and
 * increments the global step. Dense gradients are tensors of one shape;
 * sparse ones are (indices, values) pairs merged row by row as TF merges them
 * (a merge of two index lists it takes as ascending), and their mean divides
 * each row by the number of gradients that held it.
 *
 * A waiting take holds no thread: it is parked inside the accumulator and the
 * apply that completes it runs its callback. It is registered with its step's
 * cancellation registry, so a failed step, a RunOptions deadline or a closed
 * session completes it with CANCELLED / DEADLINE_EXCEEDED.
 */
#ifndef TFC_KERNELS_ACCUMULATOR_H
#define TFC_KERNELS_ACCUMULATOR_H

#include <stdbool.h>
#include <stdint.h>

#include "base/status.h"
#include "core/cancel.h"
#include "core/object.h"
#include "core/shape.h"
#include "core/tensor.h"

typedef struct tfc_accum tfc_accum;

typedef struct tfc_accum_config {
  bool sparse;
  tfc_dtype dtype;
  tfc_shape shape;     /* may be partial */
  bool mean;           /* reduction_type MEAN (else SUM) */
  const char *name;    /* resource name, for messages */
} tfc_accum_config;

/* Completion of a take: st is OK or the error; on success outs holds the
 * result (dense: the mean; sparse: indices, values, shape), new references the
 * callback owns; NULL on error. */
typedef void (*tfc_accum_done_fn)(void *arg, const tfc_status *st, tfc_tensor **outs, int nouts);

/* The object types of dense and sparse accumulators (for the resource manager). */
const tfc_object_type *tfc_accum_object_type(bool sparse);
/* New accumulator (one reference), or NULL + st (RESOURCE_EXHAUSTED). */
tfc_accum *tfc_accum_new(const tfc_accum_config *cfg, tfc_status *st);
/* The accumulator's element type. */
tfc_dtype tfc_accum_dtype(const tfc_accum *a);

/* Adds a dense gradient when local_step >= the global step (it is then
 * copied: the caller keeps grad). false + st (INVALID_ARGUMENT) for a shape
 * that differs from the declared one or from the gradients summed so far. */
bool tfc_accum_apply_dense(tfc_accum *a, int64_t local_step, const tfc_tensor *grad, tfc_status *st);
/* Adds a sparse gradient: indices (int64 vector), values ([nnz, ...]) and,
 * when shape is non-NULL, the dense shape it belongs to. Same staleness rule
 * and errors as the dense form, and indices must lie inside a known first
 * dimension. */
bool tfc_accum_apply_sparse(tfc_accum *a, int64_t local_step, const tfc_tensor *indices,
                            const tfc_tensor *values, const tfc_tensor *shape, tfc_status *st);
/* Waits (without a thread) until num_required gradients are summed, then
 * calls done with the result. reg may be NULL (no cancellation). */
void tfc_accum_take(tfc_accum *a, int64_t num_required, tfc_cancel *reg, tfc_accum_done_fn done, void *arg);
/* Gradients summed since the last take. */
int64_t tfc_accum_num_accumulated(tfc_accum *a);
/* Sets the global step that staleness is judged against. */
void tfc_accum_set_global_step(tfc_accum *a, int64_t step);

#endif
