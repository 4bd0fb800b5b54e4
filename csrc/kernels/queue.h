/*
 * queue.h — TF's queues (FIFOQueue, PaddingFIFOQueue, RandomShuffleQueue,
 * PriorityQueue) as resources of a session, with waiting done by callbacks
 * so no thread blocks.
 *
 * A queue holds tuples of n component tensors. Enqueue and dequeue requests
 * that cannot complete at once wait in FIFO lists inside the queue; every
 * change (an enqueue, a dequeue, close) retries the waiting requests in
 * order, as TF's attempts do: a dequeue of many takes elements as they come
 * (above min_after_dequeue for a shuffling queue) and, when the queue closes
 * with too few, puts them back. A request's callback runs exactly once, on
 * whichever thread completed it, with no queue lock held. A waiting request
 * is registered with its step's cancellation registry, so a failed step,
 * a RunOptions deadline or a closed session completes it with that status.
 */
#ifndef TFC_KERNELS_QUEUE_H
#define TFC_KERNELS_QUEUE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/status.h"
#include "core/cancel.h"
#include "core/object.h"
#include "core/shape.h"
#include "core/tensor.h"

typedef enum tfc_queue_kind {
  TFC_QUEUE_FIFO = 0,
  TFC_QUEUE_PADDING_FIFO,
  TFC_QUEUE_RANDOM_SHUFFLE,
  TFC_QUEUE_PRIORITY,
  TFC_QUEUE_NUM_KINDS
} tfc_queue_kind;

typedef struct tfc_queue tfc_queue;

typedef struct tfc_queue_config {
  tfc_queue_kind kind;
  const char *name;          /* resource name, for messages */
  int n;                     /* components (for PRIORITY including the int64 priority first) */
  const tfc_dtype *types;
  int n_shapes;              /* 0 (unspecified) or n */
  const tfc_shape *shapes;
  int64_t capacity;          /* < 0: unbounded */
  int64_t min_after_dequeue; /* RANDOM_SHUFFLE */
  int64_t seed, seed2;       /* RANDOM_SHUFFLE; both 0: nondeterministic */
} tfc_queue_config;

/* How a dequeue counts. */
typedef enum tfc_dequeue_mode { TFC_DEQUEUE_ONE, TFC_DEQUEUE_MANY, TFC_DEQUEUE_UP_TO } tfc_dequeue_mode;

/* Completion of a request: st is OK or the error; for a dequeue, elems
 * holds count tuples of n tensors (ownership passes to the callback, which
 * must unref them; NULL on error). */
typedef void (*tfc_queue_done_fn)(void *arg, const tfc_status *st, tfc_tensor **elems, int64_t count);

/* New queue (one reference) or NULL + st (INVALID_ARGUMENT for a bad config). */
tfc_queue *tfc_queue_new(const tfc_queue_config *cfg, tfc_status *st);
/* The queue a resource handle tensor refers to (borrowed) or NULL + st. */
tfc_queue *tfc_queue_from_handle(const tfc_tensor *handle, tfc_status *st);
/* The object type of queues of `kind` (for the resource manager). */
const tfc_object_type *tfc_queue_object_type(tfc_queue_kind kind);
/* True when o is a queue of any kind. */
bool tfc_object_is_queue(const tfc_object *o);

int tfc_queue_ncomponents(const tfc_queue *q);
/* True when every component has a declared shape (fully defined, except
 * for the padding queue) as dequeue_many requires. */
bool tfc_queue_has_shapes(const tfc_queue *q);
const tfc_dtype *tfc_queue_dtypes(const tfc_queue *q);
const char *tfc_queue_name(const tfc_queue *q);
const char *tfc_queue_kind_name(const tfc_queue *q);

/* Checks a tuple (many: each component has a leading batch dimension)
 * against the queue's types and shapes; false + st (INVALID_ARGUMENT). */
bool tfc_queue_validate(const tfc_queue *q, tfc_tensor *const *comps, int ncomp, bool many, tfc_status *st);
/* Enqueues m tuples (m*n tensor references, taken over) and calls done when
 * all are in, or with CANCELLED when the queue is or becomes closed (or
 * the step is cancelled through reg, which may be NULL). */
void tfc_queue_enqueue(tfc_queue *q, tfc_tensor **tuples, int64_t m, tfc_cancel *reg, tfc_queue_done_fn done,
                       void *arg);
/* Dequeues one, n, or up to n tuples; OUT_OF_RANGE when closed with too few. */
void tfc_queue_dequeue(tfc_queue *q, tfc_dequeue_mode mode, int64_t n, tfc_cancel *reg,
                       tfc_queue_done_fn done, void *arg);
/* Closes; with cancel_pending_enqueues waiting enqueues fail with CANCELLED
 * (without it they fail the same way when next retried, as in TF). */
void tfc_queue_close(tfc_queue *q, bool cancel_pending_enqueues);
int64_t tfc_queue_size(tfc_queue *q);
bool tfc_queue_is_closed(tfc_queue *q);

/* Stacks count tuples into n batch tensors ([count] + element shape; the
 * padding queue pads each component to the largest shape with zeros / empty
 * strings). outs gets new references. false + st (INVALID_ARGUMENT when
 * element shapes differ, RESOURCE_EXHAUSTED). */
bool tfc_queue_batch(const tfc_queue *q, tfc_tensor *const *elems, int64_t count, tfc_tensor **outs,
                     tfc_status *st);
/* Splits batch tensors (one per component, same leading size m) into m
 * tuples of copies: tuples[i*n + c]. false + st on OOM. */
bool tfc_queue_unbatch(tfc_tensor *const *comps, int n, int64_t m, tfc_tensor **tuples, tfc_status *st);

#endif
