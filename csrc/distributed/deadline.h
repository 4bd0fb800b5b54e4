/*
 * deadline.h — one-shot timers for the distributed runtime: "call fire(arg)
 * once this step's deadline has passed, unless the step finished first".
 *
 * A worker arms one per RunGraph with the caller's gRPC deadline, so a step
 * whose client gave up (RunOptions.timeout_in_ms) stops waiting for values
 * that will never come even when the master cannot reach it any more.
 *
 *   tfc_timer *t = tfc_timer_start(timeout_ms, abort_step, step);
 *   ... run the step ...
 *   tfc_timer_cancel(t);   // after this, abort_step is not running and will not run
 *
 * All timers share one thread, started with the first timer (never at import).
 */
#ifndef TFC_DISTRIBUTED_DEADLINE_H
#define TFC_DISTRIBUTED_DEADLINE_H

#include <stdbool.h>
#include <stdint.h>

typedef struct tfc_timer tfc_timer;

/* Arms a timer that calls fire(arg) on the timer thread after ms
 * milliseconds (ms <= 0: at once). NULL when out of memory or when no timer
 * thread can be started (the caller then simply has no deadline). */
tfc_timer *tfc_timer_start(int64_t ms, void (*fire)(void *arg), void *arg);

/* Disarms and frees t (NULL is a no-op). Waits if fire is running right now;
 * returns true when fire ran. */
bool tfc_timer_cancel(tfc_timer *t);

#endif
