/*
 * server_log.c — event lines of a cluster task (see server_log.h).
 *
 * Peer health is a small table of the addresses currently failing, under a
 * mutex; a counter of its entries lets the success path return without
 * locking while every peer is healthy.
 */
#include "distributed/server_log.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/alloc.h"
#include "base/hashmap.h"

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static tfc_hashmap failing;      /* address -> NULL, while the peer fails */
static bool failing_init;
static atomic_int n_failing;

/* True unless TFC_SERVER_LOG=0. */
static bool enabled(void) {
  const char *v = getenv("TFC_SERVER_LOG");
  return !(v && strcmp(v, "0") == 0);
}

/* One event line (see server_log.h). */
void tfc_server_log(const char *who, const char *fmt, ...) {
  if (!enabled()) return;
  char text[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  time_t now = time(NULL);
  struct tm tm;
  gmtime_r(&now, &tm);
  char when[32];
  strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
  /* one write per line so lines of concurrent events do not interleave */
  char line[1200];
  int n = snprintf(line, sizeof line, "tfc %s %s: %s\n", when, who ? who : "-", text);
  if (n > (int)sizeof line - 1) {
    n = (int)sizeof line - 1;
    line[n - 1] = '\n';
  }
  fwrite(line, 1, (size_t)n, stderr);
  fflush(stderr);
}

/* The first line of a status message (gRPC details may span lines). */
static void first_line(const char *msg, char *out, size_t size) {
  size_t n = strcspn(msg, "\n");
  if (n >= size) n = size - 1;
  memcpy(out, msg, n);
  out[n] = '\0';
}

/* A failed call to peer t (see server_log.h). */
void tfc_peer_failed(const char *who, const tfc_task *t, const tfc_status *st) {
  if (st->code != TFC_CODE_UNAVAILABLE && st->code != TFC_CODE_DEADLINE_EXCEEDED) return;
  pthread_mutex_lock(&mu);
  if (!failing_init) {
    tfc_hashmap_init(&failing);
    failing_init = true;
  }
  bool found = false;
  tfc_hashmap_get(&failing, t->address, strlen(t->address), &found);
  bool fresh = !found && tfc_hashmap_put(&failing, t->address, strlen(t->address), NULL) == 0;
  if (fresh) atomic_fetch_add(&n_failing, 1);
  pthread_mutex_unlock(&mu);
  if (!fresh) return;
  char msg[256];
  first_line(st->msg, msg, sizeof msg);
  tfc_server_log(who, "peer %s at %s failed: %s: %s", t->name, t->address, tfc_code_name(st->code), msg);
}

/* A successful call to peer t (see server_log.h). */
void tfc_peer_ok(const char *who, const tfc_task *t) {
  if (atomic_load(&n_failing) == 0) return;
  pthread_mutex_lock(&mu);
  bool found = false;
  if (failing_init) tfc_hashmap_get(&failing, t->address, strlen(t->address), &found);
  if (found) {
    tfc_hashmap_remove(&failing, t->address, strlen(t->address));
    atomic_fetch_sub(&n_failing, 1);
  }
  pthread_mutex_unlock(&mu);
  if (found) tfc_server_log(who, "peer %s at %s answers again", t->name, t->address);
}
