/*
 * cancel.c — the step cancellation registry (see cancel.h): a doubly linked
 * list of callbacks under one mutex, fired at most once.
 */
#include "core/cancel.h"

#include <stddef.h>

/* Empty, unfired registry. */
void tfc_cancel_init(tfc_cancel *c) {
  pthread_mutex_init(&c->mu, NULL);
  atomic_init(&c->once, 0);
  c->fired = false;
  tfc_status_clear(&c->why);
  c->head = NULL;
}

/* Waits out a fire in progress (it holds the lock) and destroys the lock. */
void tfc_cancel_destroy(tfc_cancel *c) {
  pthread_mutex_lock(&c->mu);
  pthread_mutex_unlock(&c->mu);
  pthread_mutex_destroy(&c->mu);
}

/* Links cb unless the registry fired (then copies the reason). */
bool tfc_cancel_register(tfc_cancel *c, tfc_cancel_cb *cb, tfc_status *why) {
  pthread_mutex_lock(&c->mu);
  if (c->fired) {
    if (why) tfc_status_copy(why, &c->why);
    pthread_mutex_unlock(&c->mu);
    cb->linked = false;
    return false;
  }
  cb->prev = NULL;
  cb->next = c->head;
  if (c->head) c->head->prev = cb;
  c->head = cb;
  cb->linked = true;
  pthread_mutex_unlock(&c->mu);
  return true;
}

/* Unlinks cb (no-op when a fire already unlinked it). */
void tfc_cancel_deregister(tfc_cancel *c, tfc_cancel_cb *cb) {
  pthread_mutex_lock(&c->mu);
  if (cb->linked) {
    if (cb->prev) cb->prev->next = cb->next;
    else c->head = cb->next;
    if (cb->next) cb->next->prev = cb->prev;
    cb->linked = false;
  }
  pthread_mutex_unlock(&c->mu);
}

/* Fires once, calling every callback with the lock held. */
void tfc_cancel_fire(tfc_cancel *c, const tfc_status *why) {
  int expected = 0;
  if (!atomic_compare_exchange_strong(&c->once, &expected, 1)) return;
  pthread_mutex_lock(&c->mu);
  c->fired = true;
  tfc_status_copy(&c->why, why);
  while (c->head) {
    tfc_cancel_cb *cb = c->head;
    c->head = cb->next;
    if (c->head) c->head->prev = NULL;
    cb->linked = false;
    cb->fn(cb->arg, &c->why);
  }
  pthread_mutex_unlock(&c->mu);
}
