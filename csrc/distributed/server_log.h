/*
 * server_log.h — the one-line events a cluster task writes to stderr: a
 * session created or closed, a peer that stopped answering (once per outage)
 * and came back, a shutdown request. Operators grep these; tests read them.
 *
 *   tfc_server_log(task_name, "session %s created (%d devices)", h, n);
 *   // -> "tfc 2026-11-25T13:40:02Z /job:worker/replica:0/task:0: session ... created (4 devices)"
 *
 * TFC_SERVER_LOG=0 in the environment silences them.
 */
#ifndef TFC_DISTRIBUTED_SERVER_LOG_H
#define TFC_DISTRIBUTED_SERVER_LOG_H

#include "base/status.h"
#include "distributed/cluster.h"

/* Writes one line (UTC time, who, the formatted text) to stderr. */
void tfc_server_log(const char *who, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A call from `who` to task t failed with st: logs "peer ... unreachable" the
 * first time in a row this happens for t (UNAVAILABLE / DEADLINE_EXCEEDED only). */
void tfc_peer_failed(const char *who, const tfc_task *t, const tfc_status *st);
/* A call to task t succeeded: logs "peer ... is back" when it had failed. Cheap otherwise. */
void tfc_peer_ok(const char *who, const tfc_task *t);

#endif
