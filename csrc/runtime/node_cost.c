/*
 * node_cost.c — measured compute time of the nodes of an executor plan.
 *
 * Both runners (executor.c, executor_cf.c) ask tfc_node_cost_expensive
 * before handing work to the inter-op pool: waking a pool worker costs a
 * futex call on this thread and tens of microseconds before the worker runs
 * (more on a loaded machine), which is more than most small kernels take.
 * So a node counts as expensive only once it has been timed and while its
 * running estimate stays at or above TFC_NODE_EXPENSIVE_NS. A node never
 * timed runs on the thread that pops it: a plan's first step therefore runs
 * on the calling thread in ready-queue (breadth-first) order, which makes
 * the order of unordered side effects in a step that runs once (a
 * SavedModel's main_op, an initializer) the same on every run, and times
 * every node. The first steps of a plan time every node; later steps time
 * one step in 16 (and any node not timed yet), so the clock is rarely read.
 */
#include <time.h>

#include "runtime/executor_internal.h"

enum { SAMPLE_FIRST = 4, SAMPLE_EVERY = 16 };

/* True when a step starting on x should time every node it runs; counts the step. */
bool tfc_node_cost_sample_step(tfc_executor *x) {
  unsigned n = atomic_fetch_add_explicit(&x->steps, 1, memory_order_relaxed);
  return n < SAMPLE_FIRST || n % SAMPLE_EVERY == 0;
}

/* True when xn should be timed now: the step samples, or xn was never timed. */
bool tfc_node_cost_wanted(const xnode *xn, bool step_samples) {
  return step_samples || atomic_load_explicit(&xn->cost_ns, memory_order_relaxed) == 0;
}

/* Folds one measured time into xn's estimate: the first measurement as it
 * is, later ones with weight 1/4 (a change of input size shows within a few
 * sampled steps). Concurrent steps may race here; one update then wins,
 * which an estimate can afford. */
void tfc_node_cost_record(const xnode *xn, int64_t ns) {
  atomic_llong *c = (atomic_llong *)&xn->cost_ns;  /* statistics, not plan: mutable */
  if (ns < 1) ns = 1;
  long long old = atomic_load_explicit(c, memory_order_relaxed);
  long long est = old == 0 ? ns : old + (ns - old) / 4;
  atomic_store_explicit(c, est < 1 ? 1 : est, memory_order_relaxed);
}

/* True when xn was timed and its estimate is at least the threshold. */
bool tfc_node_cost_expensive(const xnode *xn) {
  long long c = atomic_load_explicit(&xn->cost_ns, memory_order_relaxed);
  return c >= TFC_NODE_EXPENSIVE_NS;
}

/* CLOCK_MONOTONIC in nanoseconds. */
int64_t tfc_node_cost_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}
