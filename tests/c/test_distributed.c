/*
 * test_distributed.c — the distributed layer's wire codec, partition export,
 * and a real in-process server answering WorkerService/MasterService calls.
 */
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "distributed/cluster.h"
#include "distributed/rpc.h"
#include "distributed/server.h"
#include "distributed/wire.h"
#include "graph/graph.h"
#include "graph/graphdef.h"
#include "graph/tensor_proto.h"
#include "harness.h"

/* A 2x3 float tensor 0..5. */
static tfc_tensor *sample(tfc_status *st) {
  int64_t dims[2] = {2, 3};
  tfc_tensor *t = tfc_tensor_new(TFC_DTYPE_FLOAT, 2, dims, st);
  if (t)
    for (int i = 0; i < 6; i++) ((float *)t->data)[i] = (float)i;
  return t;
}

TFC_TEST(wire_tensor_proto_round_trip) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_tensor *t = sample(&st);
  CHECK(t);
  tfc_wbuf b;
  tfc_wbuf_init(&b);
  CHECK(tfc_wire_tensor_proto(t, &b, &st));
  tfc_tensor *back = tfc_tensor_from_proto(b.data, b.len, &st);
  CHECK_STATUS_OK(&st);
  CHECK(back && back->rank == 2 && back->dims[0] == 2 && back->dims[1] == 3);
  CHECK(memcmp(back->data, t->data, 24) == 0);
  tfc_dtype dt;
  int rank;
  int64_t dims[TFC_MAX_RANK];
  tfc_wbuf m;
  tfc_wbuf_init(&m);
  tfc_wire_tensor_meta(t, &m);
  CHECK(tfc_wire_parse_tensor_meta(m.data, m.len, &dt, &rank, dims));
  CHECK(dt == TFC_DTYPE_FLOAT && rank == 2 && dims[0] == 2 && dims[1] == 3);
  CHECK(!tfc_wire_parse_tensor_meta((const uint8_t *)"\xff", 1, &dt, &rank, dims));
  tfc_wbuf_free(&m);
  tfc_wbuf_free(&b);
  tfc_tensor_unref(back);
  tfc_tensor_unref(t);
}

TFC_TEST(wire_recv_tensor_response_layout) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_tensor *t = sample(&st);
  tfc_wbuf head;
  tfc_wbuf_init(&head);
  const void *body;
  size_t body_len;
  CHECK(tfc_wire_recv_tensor_response(t, false, &head, &body, &body_len, &st));
  CHECK(body == t->data && body_len == 24);
  /* head + body is one valid RecvTensorResponse whose field 1 is the tensor */
  uint8_t *msg = tfc_malloc(head.len + body_len);
  memcpy(msg, head.data, head.len);
  memcpy(msg + head.len, body, body_len);
  const uint8_t *tp;
  size_t tn;
  CHECK(tfc_wire_find_ld(msg, head.len + body_len, 1, &tp, &tn));
  CHECK(tp + tn == msg + head.len + body_len);  /* the tensor bytes come last */
  tfc_tensor *back = tfc_tensor_from_proto(tp, tn, &st);
  CHECK(back && memcmp(back->data, t->data, 24) == 0);
  tfc_tensor_unref(back);
  tfc_free(msg);
  tfc_wbuf_free(&head);
  tfc_tensor_unref(t);
}

TFC_TEST(wire_iterator_rejects_truncation) {
  const uint8_t ok[] = {0x0a, 0x02, 'h', 'i', 0x10, 0x05};
  size_t pos = 0;
  tfc_wfield f;
  int n = 0;
  while (tfc_wire_next(ok, sizeof ok, &pos, &f)) n++;
  CHECK(n == 2 && tfc_wire_ok(sizeof ok, pos));
  const uint8_t bad[] = {0x0a, 0x09, 'h'};
  pos = 0;
  while (tfc_wire_next(bad, sizeof bad, &pos, &f)) {
  }
  CHECK(!tfc_wire_ok(sizeof bad, pos));
}

/* ServerDef{cluster{job{name:"local" tasks{0:"localhost:0"}}} job_name:"local"} */
static size_t local_server_def(uint8_t *out) {
  tfc_wbuf task, job, cluster, def;
  tfc_wbuf_init(&task);
  tfc_wbuf_init(&job);
  tfc_wbuf_init(&cluster);
  tfc_wbuf_init(&def);
  tfc_wbuf_string(&task, 2, "localhost:0");
  tfc_wbuf_string(&job, 1, "local");
  tfc_wbuf_ld(&job, 2, task.data, task.len);
  tfc_wbuf_ld(&cluster, 1, job.data, job.len);
  tfc_wbuf_ld(&def, 1, cluster.data, cluster.len);
  tfc_wbuf_string(&def, 2, "local");
  size_t n = def.len;
  memcpy(out, def.data, n);
  tfc_wbuf_free(&task);
  tfc_wbuf_free(&job);
  tfc_wbuf_free(&cluster);
  tfc_wbuf_free(&def);
  return n;
}

TFC_TEST(server_answers_worker_and_master_calls) {
  tfc_status st;
  tfc_status_clear(&st);
  uint8_t def[256];
  size_t n = local_server_def(def);
  tfc_server *s = tfc_server_new(def, n, &st);
  CHECK_STATUS_OK(&st);
  CHECK(s && tfc_server_start(s, &st));
  char addr[64];
  snprintf(addr, sizeof addr, "%s", tfc_server_address(s));
  CHECK(strncmp(addr, "localhost:", 10) == 0 && strcmp(addr, "localhost:0") != 0);
  tfc_rpc_buf resp;
  tfc_rpc_slice empty = {"", 0, NULL, NULL};
  CHECK(tfc_rpc_unary(addr, "/tensorflow.WorkerService/GetStatus", &empty, 1, 5000, &resp, &st));
  const uint8_t *da, *name;
  size_t dn, nn;
  CHECK(tfc_wire_find_ld(resp.data, resp.len, 1, &da, &dn) && tfc_wire_find_ld(da, dn, 1, &name, &nn));
  CHECK(nn == strlen("/job:local/replica:0/task:0/device:CPU:0") &&
        memcmp(name, "/job:local/replica:0/task:0/device:CPU:0", nn) == 0);
  tfc_rpc_buf_free(&resp);
  /* malformed request: INTERNAL; unknown session: ABORTED; unknown path: UNIMPLEMENTED */
  tfc_rpc_slice junk = {"\xff\xff", 2, NULL, NULL};
  CHECK(!tfc_rpc_unary(addr, "/tensorflow.MasterService/RunStep", &junk, 1, 5000, &resp, &st));
  CHECK_CODE(&st, TFC_CODE_INTERNAL);
  tfc_status_clear(&st);
  tfc_rpc_slice nope = {"\x0a\x04nope", 6, NULL, NULL};
  CHECK(!tfc_rpc_unary(addr, "/tensorflow.MasterService/ExtendSession", &nope, 1, 5000, &resp, &st));
  CHECK_CODE(&st, TFC_CODE_ABORTED);
  tfc_status_clear(&st);
  CHECK(!tfc_rpc_unary(addr, "/tensorflow.Nothing/Here", &empty, 1, 5000, &resp, &st));
  CHECK_CODE(&st, TFC_CODE_UNIMPLEMENTED);
  tfc_status_clear(&st);
  tfc_server_free(s);
  /* the port is closed: UNAVAILABLE, at once */
  CHECK(!tfc_rpc_unary(addr, "/tensorflow.WorkerService/GetStatus", &empty, 1, 5000, &resp, &st));
  CHECK_CODE(&st, TFC_CODE_UNAVAILABLE);
}

TFC_TEST(server_def_naming_no_task_is_refused) {
  tfc_status st;
  tfc_status_clear(&st);
  uint8_t def[256];
  size_t n = local_server_def(def);
  def[n++] = 0x18; /* task_index = 4 */
  def[n++] = 0x04;
  CHECK(!tfc_server_new(def, n, &st));
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  tfc_status_clear(&st);
  CHECK(!tfc_server_new("\xff", 1, &st));
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
}
