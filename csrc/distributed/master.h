/*
 * master.h — tensorflow.MasterService: client sessions over a cluster.
 *
 * CreateSession imports the client's GraphDef and finds the cluster's
 * devices with GetStatus (the own task first, so unpinned nodes land here,
 * as on TF's master). Each distinct (feeds, fetches, targets) of RunStep is
 * planned once with the runtime's prune/place/partition code over all those
 * devices: one partition per task, _Send/_Recv pairs on edges between tasks
 * (keys carry the real task device names), feeds and fetches as
 * client-terminated _Recv/_Send nodes. Each partition is registered on its
 * task (RegisterGraph); every step then runs RunGraph on all partitions in
 * parallel under a fresh step id and ends with CleanupGraph. Errors name the
 * task they came from ("From /job:ps/replica:0/task:0: ...").
 *
 * The own task is reached in-process (no RPC); other tasks through gRPC.
 */
#ifndef TFC_DISTRIBUTED_MASTER_H
#define TFC_DISTRIBUTED_MASTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "distributed/cluster.h"
#include "distributed/worker.h"

typedef struct tfc_master tfc_master;

/* A master for cluster, using local_worker for the own task (both must outlive it). */
tfc_master *tfc_master_new(const tfc_cluster *cluster, tfc_worker *local_worker, tfc_status *st);
/* Closes every session (deregistering its graphs) and frees the master. */
void tfc_master_free(tfc_master *m);

/* Runs MasterService method meth on req (see worker.h for the contract). */
bool tfc_master_handle(tfc_master *m, tfc_method meth, const uint8_t *req, size_t len, int64_t timeout_ms,
                       tfc_msg *resp, tfc_status *st);

/* Calls WorkerService method meth of cluster task `task` (in-process for the
 * own task). Errors from another task are prefixed "From <task name>:\n". */
bool tfc_master_call_task(tfc_master *m, int task, tfc_method meth, const void *req, size_t len,
                          int64_t timeout_ms, tfc_rpc_buf *resp, tfc_status *st);

#endif
