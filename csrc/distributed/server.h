/*
 * server.h — one task of a cluster: MasterService and WorkerService on one
 * gRPC port (what tf.train.Server runs).
 *
 *   tfc_server *s = tfc_server_new(server_def_bytes, len, st);  // parses, nothing bound
 *   tfc_server_start(s, st);            // binds <own host>:<port>, serves
 *   printf("%s\n", tfc_server_address(s));
 *   tfc_server_join(s);                 // until tfc_server_stop from another thread
 *   tfc_server_free(s);
 */
#ifndef TFC_DISTRIBUTED_SERVER_H
#define TFC_DISTRIBUTED_SERVER_H

#include <stdbool.h>
#include <stddef.h>

#include "base/status.h"

typedef struct tfc_server tfc_server;

/* A server for the task a serialized ServerDef names (not yet serving).
 * INVALID_ARGUMENT when the ServerDef does not parse or names no task. */
tfc_server *tfc_server_new(const void *server_def, size_t len, tfc_status *st);
/* The host to listen on instead of the own cluster entry's host (before
 * start): "0.0.0.0" for every interface. Without it, TFC_SERVER_BIND, else
 * the host of the own task's address. FAILED_PRECONDITION once started. */
bool tfc_server_set_bind(tfc_server *s, const char *host, tfc_status *st);
/* Binds and starts serving (idempotent). UNAVAILABLE when the port is taken. */
bool tfc_server_start(tfc_server *s, tfc_status *st);
/* The own task's "host:port" (the bound port once started). */
const char *tfc_server_address(const tfc_server *s);
/* The own task's name "/job:J/replica:0/task:T". */
const char *tfc_server_task_name(const tfc_server *s);
/* Stops serving: calls in flight are cancelled, steps aborted. Idempotent. */
void tfc_server_stop(tfc_server *s);
/* Seconds since the last call other than GetStatus ended; -1 while one
 * runs or before any came (python -m tfc.server --exit_when_idle). */
double tfc_server_idle_seconds(tfc_server *s);
/* Blocks until the server is stopped. A /tfc.ControlService/Shutdown call
 * also ends join (and join_for): the joining thread then stops the server. */
void tfc_server_join(tfc_server *s);
/* Waits up to timeout_ms for the server to stop; true once it has. */
bool tfc_server_join_for(tfc_server *s, int timeout_ms);
/* Stops and frees. */
void tfc_server_free(tfc_server *s);

#endif
