/*
 * rendezvous.h — where a _Send leaves a tensor and a _Recv picks it up.
 *
 * Keys follow TensorFlow: "send_device;incarnation(hex);recv_device;tensor_name;frame:iter".
 * A rendezvous is an interface (a table of functions) so the distributed
 * runtime can put a remote one behind the same _Send/_Recv kernels. The
 * local implementation is a hash map of either a waiting value or a waiting
 * receiver; abort() fails every pending and future receive.
 *
 * A dead tensor (the untaken side of a Switch, and everything downstream of
 * it) crosses a rendezvous like a value: a send with value NULL, and a
 * receive answered with value NULL and an OK status.
 */
#ifndef TFC_RUNTIME_RENDEZVOUS_H
#define TFC_RUNTIME_RENDEZVOUS_H

#include <stdbool.h>
#include <stddef.h>

#include "base/status.h"
#include "core/tensor.h"

/* Called exactly once per receive: with the value (borrowed; take a ref to keep
 * it), with NULL and an OK status for a dead tensor, or with a non-OK status.
 * May run on the sender's thread. */
typedef void (*tfc_recv_done)(void *arg, tfc_tensor *value, const tfc_status *st);

typedef struct tfc_rendezvous tfc_rendezvous;

typedef struct tfc_rendezvous_ops {
  /* Delivers value under key (takes a new reference; NULL sends a dead
   * tensor). false + st when aborted or the key was already sent. */
  bool (*send)(tfc_rendezvous *r, const char *key, tfc_tensor *value, tfc_status *st);
  /* Asks for key; done runs now if the value is there, else later. */
  void (*recv_async)(tfc_rendezvous *r, const char *key, tfc_recv_done done, void *arg);
  /* Fails all pending and future receives with st (first abort wins). */
  void (*abort)(tfc_rendezvous *r, const tfc_status *st);
  void (*free)(tfc_rendezvous *r);
} tfc_rendezvous_ops;

struct tfc_rendezvous {
  const tfc_rendezvous_ops *ops;
};

/* A new local rendezvous; NULL on OOM. */
tfc_rendezvous *tfc_local_rendezvous_new(void);

/* Writes TF's key into buf (size >= 1); returns false if it does not fit. */
bool tfc_rendezvous_key(char *buf, size_t size, const char *send_device, long long incarnation,
                        const char *recv_device, const char *tensor_name);

#endif
