/*
 * cancel.h — a step's cancellation registry.
 *
 * A kernel that waits for something outside its step (a queue dequeue
 * waiting for an element, a reader waiting for a file name) registers a
 * callback; when the step is aborted (another node failed, the run passed
 * its RunOptions deadline, the session was closed) the executor fires the
 * registry once and every registered callback runs with the reason.
 *
 * Locking contract: tfc_cancel_fire holds the registry's lock while it calls
 * the callbacks, so a callback must not register or deregister; and a caller
 * must not hold a lock that a callback takes while it calls register or
 * deregister. After tfc_cancel_deregister returns, the callback is not
 * running and will not run, so its argument may be freed.
 */
#ifndef TFC_CORE_CANCEL_H
#define TFC_CORE_CANCEL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "base/status.h"

typedef void (*tfc_cancel_fn)(void *arg, const tfc_status *why);

typedef struct tfc_cancel_cb {
  tfc_cancel_fn fn;
  void *arg;
  struct tfc_cancel_cb *prev, *next;
  bool linked;
} tfc_cancel_cb;

typedef struct tfc_cancel {
  pthread_mutex_t mu;
  atomic_int once;        /* set by the first fire (checked without the lock) */
  bool fired;             /* under mu: the reason is recorded */
  tfc_status why;         /* set when fired */
  tfc_cancel_cb *head;
} tfc_cancel;

/* Initialises an empty registry. */
void tfc_cancel_init(tfc_cancel *c);
/* Destroys it (waits for a concurrent fire to finish first). */
void tfc_cancel_destroy(tfc_cancel *c);
/* Links cb (fn, arg filled by the caller). false when the registry has
 * already fired: cb is not linked and *why (when non-NULL) gets the reason. */
bool tfc_cancel_register(tfc_cancel *c, tfc_cancel_cb *cb, tfc_status *why);
/* Unlinks cb if still linked; waits for a fire in progress. */
void tfc_cancel_deregister(tfc_cancel *c, tfc_cancel_cb *cb);
/* Fires once: records why and calls every linked callback (unlinking each
 * first). Later calls (also from inside a callback) return at once. */
void tfc_cancel_fire(tfc_cancel *c, const tfc_status *why);
/* True once fired. */
static inline bool tfc_cancel_fired(tfc_cancel *c) { return atomic_load(&c->once) != 0; }

#endif
