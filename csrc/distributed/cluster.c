/*
 * cluster.c — cluster membership from a ServerDef, the method table, and
 * response message helpers (see cluster.h).
 */
#include "distributed/cluster.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/alloc.h"
#include "graph/graphdef_pb.h"
#include "tensorflow_server.pb-c.h"

const char *const tfc_method_paths[TFC_M_COUNT] = {
    "/tensorflow.WorkerService/GetStatus",
    "/tensorflow.WorkerService/CreateWorkerSession",
    "/tensorflow.WorkerService/DeleteWorkerSession",
    "/tensorflow.WorkerService/RegisterGraph",
    "/tensorflow.WorkerService/DeregisterGraph",
    "/tensorflow.WorkerService/RunGraph",
    "/tensorflow.WorkerService/CleanupGraph",
    "/tensorflow.WorkerService/CleanupAll",
    "/tensorflow.WorkerService/RecvTensor",
    "/tensorflow.WorkerService/Logging",
    "/tensorflow.WorkerService/Tracing",
    "/tensorflow.MasterService/CreateSession",
    "/tensorflow.MasterService/ExtendSession",
    "/tensorflow.MasterService/PartialRunSetup",
    "/tensorflow.MasterService/RunStep",
    "/tensorflow.MasterService/CloseSession",
    "/tensorflow.MasterService/ListDevices",
    "/tensorflow.MasterService/Reset",
    "/tensorflow.MasterService/MakeCallable",
    "/tensorflow.MasterService/RunCallable",
    "/tensorflow.MasterService/ReleaseCallable",
    "/tfc.ControlService/Shutdown",
};

/* Sort order of tasks: job name, then index. */
static int cmp_task(const void *a, const void *b) {
  const tfc_task *x = a, *y = b;
  int c = strcmp(x->job, y->job);
  return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* Fills the derived names of a task; false on OOM. */
static bool task_names(tfc_task *t) {
  char buf[320];
  snprintf(buf, sizeof buf, "/job:%s/replica:0/task:%d", t->job, t->index);
  t->name = tfc_strdup(buf);
  snprintf(buf, sizeof buf, "/job:%s/replica:0/task:%d/device:CPU:0", t->job, t->index);
  t->device = tfc_strdup(buf);
  return t->name && t->device;
}

/* A random non-zero 64-bit number. */
static int64_t random_incarnation(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  uint64_t x = ((uint64_t)ts.tv_nsec << 32) ^ (uint64_t)ts.tv_sec ^ ((uint64_t)getpid() << 16);
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return (int64_t)(x ? x : 1);
}

/* Parses the ServerDef (see cluster.h). */
bool tfc_cluster_init(tfc_cluster *c, const void *data, size_t len, tfc_status *st) {
  memset(c, 0, sizeof *c);
  c->self = -1;
  Tensorflow__ServerDef *sd = (Tensorflow__ServerDef *)tfc_pb_unpack(&tensorflow__server_def__descriptor,
                                                                     data, len, "ServerDef", st);
  if (!sd) return false;
  bool ok = true;
  size_t n = 0;
  if (sd->cluster)
    for (size_t j = 0; j < sd->cluster->n_job; j++) n += sd->cluster->job[j]->n_tasks;
  c->tasks = tfc_calloc(n ? n : 1, sizeof(tfc_task));
  if (!c->tasks) ok = tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  for (size_t j = 0; ok && sd->cluster && j < sd->cluster->n_job; j++) {
    Tensorflow__JobDef *jd = sd->cluster->job[j];
    if (!jd->name || !jd->name[0] || strlen(jd->name) > 60) {
      ok = tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Invalid job name in the cluster: '%s'",
                          jd->name ? jd->name : "");
      break;
    }
    for (size_t k = 0; ok && k < jd->n_tasks; k++) {
      tfc_task *t = &c->tasks[c->n_tasks++];
      t->job = tfc_strdup(jd->name);
      t->index = jd->tasks[k]->key;
      t->address = tfc_strdup(jd->tasks[k]->value ? jd->tasks[k]->value : "");
      ok = (t->job && t->address && task_names(t)) ||
           tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    }
  }
  if (ok) qsort(c->tasks, (size_t)c->n_tasks, sizeof(tfc_task), cmp_task);
  for (int i = 0; ok && i < c->n_tasks; i++)
    if (strcmp(c->tasks[i].job, sd->job_name ? sd->job_name : "") == 0 && c->tasks[i].index == sd->task_index)
      c->self = i;
  if (ok && c->self < 0)
    ok = tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Task %d of job '%s' is not in the cluster",
                        sd->task_index, sd->job_name ? sd->job_name : "");
  if (ok && sd->default_session_config) {
    size_t n2 = tensorflow__config_proto__get_packed_size(sd->default_session_config);
    c->default_config = tfc_malloc(n2 ? n2 : 1);
    if (!c->default_config)
      ok = tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    else
      c->default_config_len = tensorflow__config_proto__pack(sd->default_session_config,
                                                             (uint8_t *)c->default_config);
  }
  if (ok && sd->port > 0) ok = tfc_cluster_set_port(c, sd->port, st);
  protobuf_c_message_free_unpacked(&sd->base, &tfc_pb_allocator);
  c->incarnation = random_incarnation();
  if (!ok) tfc_cluster_destroy(c);
  return ok;
}

/* Rewrites the own address with a port. */
bool tfc_cluster_set_port(tfc_cluster *c, int port, tfc_status *st) {
  tfc_task *t = &c->tasks[c->self];
  const char *colon = strrchr(t->address, ':');
  size_t host_len = colon ? (size_t)(colon - t->address) : strlen(t->address);
  char buf[300];
  snprintf(buf, sizeof buf, "%.*s:%d", (int)host_len, t->address, port);
  char *a = tfc_strdup(buf);
  if (!a) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  tfc_free(t->address);
  t->address = a;
  return true;
}

/* Frees everything. */
void tfc_cluster_destroy(tfc_cluster *c) {
  for (int i = 0; c->tasks && i < c->n_tasks; i++) {
    tfc_free(c->tasks[i].job);
    tfc_free(c->tasks[i].address);
    tfc_free(c->tasks[i].name);
    tfc_free(c->tasks[i].device);
  }
  tfc_free(c->tasks);
  tfc_free(c->default_config);
  memset(c, 0, sizeof *c);
  c->self = -1;
}

/* The task whose name prefixes the device name. */
int tfc_cluster_task_of_device(const tfc_cluster *c, const char *device, size_t len) {
  for (int i = 0; i < c->n_tasks; i++) {
    size_t n = strlen(c->tasks[i].name);
    if (len >= n && memcmp(device, c->tasks[i].name, n) == 0 && (len == n || device[n] == '/')) return i;
  }
  return -1;
}

/* Moves b's bytes into the next slice of m. */
void tfc_msg_take(tfc_msg *m, tfc_wbuf *b) {
  size_t len;
  uint8_t *p = tfc_wbuf_take(b, &len);
  m->s[m->n].data = p;
  m->s[m->n].len = len;
  m->s[m->n].release = tfc_free;
  m->s[m->n].arg = p;
  m->n++;
}

/* Releases every slice. */
void tfc_msg_release(tfc_msg *m) {
  for (int i = 0; i < m->n; i++)
    if (m->s[i].release) m->s[i].release(m->s[i].arg);
  m->n = 0;
}
