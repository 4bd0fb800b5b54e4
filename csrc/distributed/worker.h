/*
 * worker.h — tensorflow.WorkerService on top of the local runtime.
 *
 * A worker owns one CPU device (/job:J/replica:0/task:T/device:CPU:0), the
 * variables of this task (they persist across client sessions until
 * CleanupAll, as TF's do), the graphs masters registered (each a partition
 * imported into its own tfc_graph and planned once on the executor), and
 * the rendezvous of the steps in flight, keyed by step id.
 *
 * Every method takes the serialized request and fills a tfc_msg with the
 * serialized response, or returns false with the status to send. Methods
 * may block (RunGraph runs a step; RecvTensor waits for a value) and are
 * safe to call from many threads at once.
 */
#ifndef TFC_DISTRIBUTED_WORKER_H
#define TFC_DISTRIBUTED_WORKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "distributed/cluster.h"

typedef struct tfc_worker tfc_worker;

/* A worker for the own task of cluster (which must outlive it). NULL on OOM. */
tfc_worker *tfc_worker_new(const tfc_cluster *cluster, tfc_status *st);
/* Aborts the steps in flight and frees everything. */
void tfc_worker_free(tfc_worker *w);
/* Fails every step in flight with st (server shutdown). */
void tfc_worker_abort_all(tfc_worker *w, const tfc_status *st);

/* Runs WorkerService method m (a TFC_M_* worker method) on req. timeout_ms
 * bounds waits (the caller's deadline). */
bool tfc_worker_handle(tfc_worker *w, tfc_method m, const uint8_t *req, size_t len, int64_t timeout_ms,
                       tfc_msg *resp, tfc_status *st);

#endif
