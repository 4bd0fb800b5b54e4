/*
 * remote_rendezvous.h — the rendezvous of one step on a worker.
 *
 * Values sent by this task's partitions (and by the master's RunGraph feeds)
 * stay in a local table. A receive whose key names a send_device of this
 * task waits on that table; one whose send_device belongs to another task
 * becomes a RecvTensor call to that task, made from a thread of its own so
 * the executor never blocks on the network. Errors from a peer are prefixed
 * with the peer's task name. The object is reference counted: the worker's
 * step table, running RunGraphs, RecvTensor handlers and outstanding remote
 * receives each hold a reference.
 */
#ifndef TFC_DISTRIBUTED_REMOTE_RENDEZVOUS_H
#define TFC_DISTRIBUTED_REMOTE_RENDEZVOUS_H

#include <stdint.h>

#include "distributed/cluster.h"
#include "distributed/wire.h"
#include "runtime/rendezvous.h"

typedef struct tfc_remote_rendezvous tfc_remote_rendezvous;

/* A new rendezvous for step_id (refcount 1); cluster must outlive it. NULL on OOM. */
tfc_remote_rendezvous *tfc_remote_rendezvous_new(const tfc_cluster *cluster, int64_t step_id);
tfc_remote_rendezvous *tfc_remote_rendezvous_ref(tfc_remote_rendezvous *r);
void tfc_remote_rendezvous_unref(tfc_remote_rendezvous *r);
/* The rendezvous interface of r (borrowed; its free() drops one reference). */
tfc_rendezvous *tfc_remote_rendezvous_base(tfc_remote_rendezvous *r);

/* Delivers a value the master sent with RunGraph under key: later receives
 * of key are served from this task even when its send_device is another
 * task (the client device of a feed). */
bool tfc_remote_rendezvous_feed(tfc_remote_rendezvous *r, const char *key, tfc_tensor *value, tfc_status *st);

/* Keeps a reference to t for the life of the step (same-host transport:
 * a peer copies it out of this process); returns its token (> 0), 0 on OOM. */
int64_t tfc_remote_rendezvous_lend(tfc_remote_rendezvous *r, tfc_tensor *t);
/* A new reference to the tensor lent under token, or NULL. */
tfc_tensor *tfc_remote_rendezvous_lent(tfc_remote_rendezvous *r, int64_t token);

/* Records every RecvTensor this step makes from now on (RunOptions
 * FULL_TRACE): one NodeExecStats "RecvTensor" per call, as TF's RPC logging
 * reports them. */
void tfc_remote_rendezvous_trace(tfc_remote_rendezvous *r);
/* Appends the recorded NodeExecStats, each as DeviceStepStats.node_stats
 * (field 2), to out and forgets them; returns how many. */
int tfc_remote_rendezvous_take_stats(tfc_remote_rendezvous *r, tfc_wbuf *out);

/* Waits up to timeout_ms for the local value under key; a new reference, or
 * NULL with *is_dead set (a dead tensor, st untouched), or NULL + st (the
 * abort status, or DEADLINE_EXCEEDED). */
tfc_tensor *tfc_remote_rendezvous_wait_local(tfc_remote_rendezvous *r, const char *key, int64_t timeout_ms,
                                             bool *is_dead, tfc_status *st);

#endif
