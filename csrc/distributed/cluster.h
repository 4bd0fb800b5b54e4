/*
 * cluster.h — the tasks of a cluster (from a ServerDef) and where this
 * process sits in it, plus the message plumbing the master and worker share:
 * the method table of both services and one call path that reaches the own
 * task in-process and every other task through gRPC.
 */
#ifndef TFC_DISTRIBUTED_CLUSTER_H
#define TFC_DISTRIBUTED_CLUSTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "distributed/rpc.h"
#include "distributed/wire.h"

typedef struct tfc_task {
  char *job;
  int index;
  char *address;      /* "host:port" */
  char *name;         /* "/job:J/replica:0/task:T" */
  char *device;       /* "/job:J/replica:0/task:T/device:CPU:0" */
} tfc_task;

typedef struct tfc_cluster {
  int n_tasks;
  tfc_task *tasks;    /* sorted by (job, index) */
  int self;           /* this process's task */
  int64_t incarnation;/* of this process's device (random, non-zero) */
  char *default_config;     /* serialized ServerDef.default_session_config (may be NULL) */
  size_t default_config_len;
} tfc_cluster;

/* Builds the cluster from serialized ServerDef bytes. The own task's address
 * port is replaced by bound_port when that is > 0 (port 0 asked the system
 * to pick one). INVALID_ARGUMENT when job_name/task_index name no task. */
bool tfc_cluster_init(tfc_cluster *c, const void *server_def, size_t len, tfc_status *st);
/* Replaces the own task's port in its address (after binding port 0). */
bool tfc_cluster_set_port(tfc_cluster *c, int port, tfc_status *st);
void tfc_cluster_destroy(tfc_cluster *c);
/* Index of the task owning a device name ("/job:ps/replica:0/task:1/device:CPU:0"), or -1. */
int tfc_cluster_task_of_device(const tfc_cluster *c, const char *device, size_t len);

/* The methods served on a task's port; the order is the index handlers get. */
typedef enum tfc_method {
  TFC_M_GET_STATUS,
  TFC_M_CREATE_WORKER_SESSION,
  TFC_M_DELETE_WORKER_SESSION,
  TFC_M_REGISTER_GRAPH,
  TFC_M_DEREGISTER_GRAPH,
  TFC_M_RUN_GRAPH,
  TFC_M_CLEANUP_GRAPH,
  TFC_M_CLEANUP_ALL,
  TFC_M_RECV_TENSOR,
  TFC_M_LOGGING,
  TFC_M_TRACING,
  TFC_M_CREATE_SESSION,
  TFC_M_EXTEND_SESSION,
  TFC_M_PARTIAL_RUN_SETUP,
  TFC_M_RUN_STEP,
  TFC_M_CLOSE_SESSION,
  TFC_M_LIST_DEVICES,
  TFC_M_RESET,
  TFC_M_MAKE_CALLABLE,
  TFC_M_RUN_CALLABLE,
  TFC_M_RELEASE_CALLABLE,
  TFC_M_SHUTDOWN,            /* tfc's own: asks the task to stop (see server.h) */
  TFC_M_COUNT
} tfc_method;

/* "/tensorflow.WorkerService/GetStatus", ... indexed by tfc_method. */
extern const char *const tfc_method_paths[TFC_M_COUNT];

/* A response: up to two slices (a head and a zero-copy tensor body). */
typedef struct tfc_msg {
  int n;
  tfc_rpc_slice s[2];
} tfc_msg;

/* Moves a write buffer into msg slice n (released with tfc_free). */
void tfc_msg_take(tfc_msg *m, tfc_wbuf *b);
/* Runs every release callback of m. */
void tfc_msg_release(tfc_msg *m);

#endif
