/*
 * deadline.c — one-shot timers on one shared thread (see deadline.h).
 *
 * Armed timers sit in a list sorted by due time; the thread sleeps on a
 * condition variable until the first one is due (or the list changes),
 * unlinks it and runs its callback with the lock released. A timer being
 * fired is marked, so cancel waits for the callback to return.
 */
#include "distributed/deadline.h"

#include <pthread.h>
#include <time.h>

#include "base/alloc.h"

struct tfc_timer {
  struct timespec due;        /* CLOCK_MONOTONIC */
  void (*fire)(void *);
  void *arg;
  int state;                  /* 0 armed, 1 firing, 2 fired */
  struct tfc_timer *next;
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed;   /* the list changed or a callback returned */
static tfc_timer *head;
static bool started;

/* a < b for monotonic timestamps. */
static bool before(const struct timespec *a, const struct timespec *b) {
  return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

/* The timer thread: fires due timers forever. */
static void *timer_main(void *unused) {
  (void)unused;
  pthread_mutex_lock(&mu);
  for (;;) {
    if (!head) {
      pthread_cond_wait(&changed, &mu);
      continue;
    }
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (before(&now, &head->due)) {
      struct timespec due = head->due;
      pthread_cond_timedwait(&changed, &mu, &due);
      continue;
    }
    tfc_timer *t = head;
    head = t->next;
    t->state = 1;
    pthread_mutex_unlock(&mu);
    t->fire(t->arg);
    pthread_mutex_lock(&mu);
    t->state = 2;
    pthread_cond_broadcast(&changed);
  }
  return NULL;
}

/* Starts the thread once (caller holds mu); false when it cannot start. */
static bool ensure_thread(void) {
  if (started) return true;
  pthread_condattr_t ca;
  pthread_condattr_init(&ca);
  pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
  pthread_cond_init(&changed, &ca);
  pthread_condattr_destroy(&ca);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  pthread_t th;
  started = pthread_create(&th, &attr, timer_main, NULL) == 0;
  pthread_attr_destroy(&attr);
  if (!started) pthread_cond_destroy(&changed);
  return started;
}

/* Arms a timer (see deadline.h). */
tfc_timer *tfc_timer_start(int64_t ms, void (*fire)(void *arg), void *arg) {
  tfc_timer *t = tfc_calloc(1, sizeof *t);
  if (!t) return NULL;
  if (ms < 0) ms = 0;
  if (ms > 400LL * 24 * 3600 * 1000) ms = 400LL * 24 * 3600 * 1000;
  clock_gettime(CLOCK_MONOTONIC, &t->due);
  t->due.tv_sec += (time_t)(ms / 1000);
  t->due.tv_nsec += (long)(ms % 1000) * 1000000L;
  if (t->due.tv_nsec >= 1000000000L) {
    t->due.tv_sec++;
    t->due.tv_nsec -= 1000000000L;
  }
  t->fire = fire;
  t->arg = arg;
  pthread_mutex_lock(&mu);
  if (!ensure_thread()) {
    pthread_mutex_unlock(&mu);
    tfc_free(t);
    return NULL;
  }
  tfc_timer **p = &head;
  while (*p && !before(&t->due, &(*p)->due)) p = &(*p)->next;
  t->next = *p;
  *p = t;
  if (head == t) pthread_cond_broadcast(&changed);
  pthread_mutex_unlock(&mu);
  return t;
}

/* Disarms and frees (see deadline.h). */
bool tfc_timer_cancel(tfc_timer *t) {
  if (!t) return false;
  pthread_mutex_lock(&mu);
  if (t->state == 0) {
    for (tfc_timer **p = &head; *p; p = &(*p)->next)
      if (*p == t) {
        *p = t->next;
        break;
      }
  }
  while (t->state == 1) pthread_cond_wait(&changed, &mu);
  bool fired = t->state == 2;
  pthread_mutex_unlock(&mu);
  tfc_free(t);
  return fired;
}
