/*
 * rendezvous.c — the local (in-process) rendezvous.
 */
#include "runtime/rendezvous.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "base/hashmap.h"

typedef struct entry {
  bool sent;               /* the send came first */
  tfc_tensor *value;       /* its value; NULL for a dead tensor */
  tfc_recv_done done;      /* set when the receive came first */
  void *arg;
} entry;

typedef struct local_rdv {
  tfc_rendezvous base;
  pthread_mutex_t mu;
  tfc_hashmap table;       /* key -> entry* */
  bool aborted;
  tfc_status abort_status;
} local_rdv;

/* Local send: hand over to a waiting receiver or park the value. */
static bool local_send(tfc_rendezvous *r, const char *key, tfc_tensor *value, tfc_status *st) {
  local_rdv *l = (local_rdv *)r;
  size_t len = strlen(key);
  pthread_mutex_lock(&l->mu);
  if (l->aborted) {
    tfc_status_copy(st, &l->abort_status);
    pthread_mutex_unlock(&l->mu);
    return false;
  }
  bool found = false;
  entry *e = tfc_hashmap_get(&l->table, key, len, &found);
  if (found && e->done) {
    tfc_hashmap_remove(&l->table, key, len);
    pthread_mutex_unlock(&l->mu);
    tfc_status ok;
    tfc_status_clear(&ok);
    e->done(e->arg, value, &ok);
    tfc_free(e);
    return true;
  }
  if (found) {
    pthread_mutex_unlock(&l->mu);
    return tfc_status_set(st, TFC_CODE_INTERNAL, "Send of an already sent tensor: %s", key);
  }
  e = tfc_calloc(1, sizeof *e);
  if (!e || tfc_hashmap_put(&l->table, key, len, e) != 0) {
    pthread_mutex_unlock(&l->mu);
    tfc_free(e);
    return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory in rendezvous");
  }
  e->sent = true;
  e->value = value ? tfc_tensor_ref(value) : NULL;
  pthread_mutex_unlock(&l->mu);
  return true;
}

/* Local receive: take a parked value or park the callback. */
static void local_recv(tfc_rendezvous *r, const char *key, tfc_recv_done done, void *arg) {
  local_rdv *l = (local_rdv *)r;
  size_t len = strlen(key);
  tfc_status st;
  tfc_status_clear(&st);
  pthread_mutex_lock(&l->mu);
  if (l->aborted) {
    tfc_status_copy(&st, &l->abort_status);
    pthread_mutex_unlock(&l->mu);
    done(arg, NULL, &st);
    return;
  }
  bool found = false;
  entry *e = tfc_hashmap_get(&l->table, key, len, &found);
  if (found && e->sent) {
    tfc_hashmap_remove(&l->table, key, len);
    pthread_mutex_unlock(&l->mu);
    done(arg, e->value, &st);
    tfc_tensor_unref(e->value);
    tfc_free(e);
    return;
  }
  if (found) {
    pthread_mutex_unlock(&l->mu);
    tfc_status_set(&st, TFC_CODE_INTERNAL, "Duplicate receive of %s", key);
    done(arg, NULL, &st);
    return;
  }
  e = tfc_calloc(1, sizeof *e);
  if (!e || tfc_hashmap_put(&l->table, key, len, e) != 0) {
    pthread_mutex_unlock(&l->mu);
    tfc_free(e);
    tfc_status_set(&st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory in rendezvous");
    done(arg, NULL, &st);
    return;
  }
  e->done = done;
  e->arg = arg;
  pthread_mutex_unlock(&l->mu);
}

/* Aborts: fails waiting receivers, drops parked values. */
static void local_abort(tfc_rendezvous *r, const tfc_status *why) {
  local_rdv *l = (local_rdv *)r;
  pthread_mutex_lock(&l->mu);
  if (l->aborted) {
    pthread_mutex_unlock(&l->mu);
    return;
  }
  l->aborted = true;
  tfc_status_copy(&l->abort_status, why);
  tfc_hashmap old = l->table;
  tfc_hashmap_init(&l->table);
  pthread_mutex_unlock(&l->mu);
  for (size_t i = 0; i < old.cap; i++) {
    const char *k;
    size_t kl;
    void *v;
    if (!tfc_hashmap_slot(&old, i, &k, &kl, &v)) continue;
    entry *e = v;
    if (!e->sent && e->done) e->done(e->arg, NULL, why);
    tfc_tensor_unref(e->value);
    tfc_free(e);
  }
  tfc_hashmap_destroy(&old);
}

/* Frees the rendezvous and anything still parked in it. */
static void local_free(tfc_rendezvous *r) {
  local_rdv *l = (local_rdv *)r;
  for (size_t i = 0; i < l->table.cap; i++) {
    const char *k;
    size_t kl;
    void *v;
    if (!tfc_hashmap_slot(&l->table, i, &k, &kl, &v)) continue;
    entry *e = v;
    tfc_tensor_unref(e->value);
    tfc_free(e);
  }
  tfc_hashmap_destroy(&l->table);
  pthread_mutex_destroy(&l->mu);
  tfc_free(l);
}

static const tfc_rendezvous_ops local_ops = {local_send, local_recv, local_abort, local_free};

/* Creates a local rendezvous. */
tfc_rendezvous *tfc_local_rendezvous_new(void) {
  local_rdv *l = tfc_calloc(1, sizeof *l);
  if (!l) return NULL;
  l->base.ops = &local_ops;
  pthread_mutex_init(&l->mu, NULL);
  tfc_hashmap_init(&l->table);
  return &l->base;
}

/* Formats TF's rendezvous key. */
bool tfc_rendezvous_key(char *buf, size_t size, const char *send_device, long long incarnation,
                        const char *recv_device, const char *tensor_name) {
  int n = snprintf(buf, size, "%s;%016llx;%s;%s;0:0", send_device, (unsigned long long)incarnation,
                   recv_device, tensor_name);
  return n >= 0 && (size_t)n < size;
}
