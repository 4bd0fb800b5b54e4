/*
 * fuzz_rpc_requests.c — libFuzzer target for every RPC request decoder of a
 * task: the WorkerService and MasterService handlers, fed straight from
 * the fuzzer (no gRPC in between, as the bytes of a gRPC message arrive).
 *
 * The first input byte picks the method; the rest is the request message.
 * The task is the only one of a one-task cluster, so every call stays in
 * this process. Session methods (ExtendSession, RunStep, MakeCallable,
 * RunCallable, ReleaseCallable, CloseSession) get a live session's handle
 * put in front of the fuzzed bytes, so the decoding goes past the session
 * lookup (a fuzzed field 1 later in the message may still override it).
 * Whatever the bytes, a handler must answer once, with a response or a
 * status, without crashing, leaking or hanging; a RegisterGraph or
 * CreateSession that succeeds is undone at once so nothing accumulates.
 *
 *   make fuzz FUZZ_TARGETS=rpc_requests
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "distributed/cluster.h"
#include "distributed/master.h"
#include "distributed/wire.h"
#include "distributed/worker.h"
#include "fuzz_common.h"

static tfc_cluster cluster;
static tfc_worker *worker;
static tfc_master *master;
static char session[64];

/* A NodeDef with one type attr. */
static void node(tfc_wbuf *g, const char *name, const char *op, const char *input, const char *attr) {
  tfc_wbuf n, a, e;
  tfc_wbuf_init(&n);
  tfc_wbuf_init(&a);
  tfc_wbuf_init(&e);
  tfc_wbuf_string(&n, 1, name);
  tfc_wbuf_string(&n, 2, op);
  if (input) tfc_wbuf_string(&n, 3, input);
  tfc_wbuf_varint_field(&a, 6, 1); /* AttrValue.type = DT_FLOAT */
  tfc_wbuf_string(&e, 1, attr);
  tfc_wbuf_ld(&e, 2, a.data, a.len);
  tfc_wbuf_ld(&n, 5, e.data, e.len);
  tfc_wbuf_ld(g, 1, n.data, n.len);
  tfc_wbuf_free(&n);
  tfc_wbuf_free(&a);
  tfc_wbuf_free(&e);
}

/* Calls one handler; frees whatever it answered. Returns the response bytes
 * (first slice, copied) when want_resp and the call succeeded. */
static bool call(tfc_method m, const uint8_t *req, size_t len, tfc_wbuf *want_resp) {
  tfc_msg msg = {0};
  tfc_status st;
  tfc_status_clear(&st);
  /* a short deadline: a RecvTensor or RunGraph waiting for a value that never comes ends at once */
  bool ok = m < TFC_M_CREATE_SESSION ? tfc_worker_handle(worker, m, req, len, 5, &msg, &st)
                                     : tfc_master_handle(master, m, req, len, 5, &msg, &st);
  if (ok) {
    FUZZ_ASSERT(msg.n >= 1 && msg.n <= 2, "a successful handler answered %d slices", msg.n);
    if (want_resp && msg.s[0].len) tfc_wbuf_bytes(want_resp, msg.s[0].data, msg.s[0].len);
    tfc_msg_release(&msg);
  } else {
    FUZZ_ASSERT(msg.n == 0, "a failed handler left %d slices", msg.n);
    FUZZ_ASSERT(st.code != TFC_CODE_OK, "a failed handler set no status");
  }
  return ok;
}

/* Creates a session with a tiny graph (x: Placeholder float, y = Neg(x),
 * z = Identity(y)); its handle goes to out. */
static void make_session(char *out, size_t size) {
  tfc_wbuf g, req, resp;
  tfc_wbuf_init(&g);
  tfc_wbuf_init(&req);
  tfc_wbuf_init(&resp);
  node(&g, "x", "Placeholder", NULL, "dtype");
  node(&g, "y", "Neg", "x", "T");
  node(&g, "z", "Identity", "y", "T");
  tfc_wbuf_ld(&req, 1, g.data, g.len);
  FUZZ_ASSERT(call(TFC_M_CREATE_SESSION, req.data, req.len, &resp), "CreateSession of the seed session failed");
  const uint8_t *h = NULL;
  size_t hn = 0;
  FUZZ_ASSERT(tfc_wire_find_ld(resp.data, resp.len, 1, &h, &hn) && hn < size, "no session handle");
  memcpy(out, h, hn);
  out[hn] = '\0';
  tfc_wbuf_free(&g);
  tfc_wbuf_free(&req);
  tfc_wbuf_free(&resp);
}

/* Closes a session by handle. */
static void close_session(const char *h) {
  tfc_wbuf c;
  tfc_wbuf_init(&c);
  tfc_wbuf_string(&c, 1, h);
  call(TFC_M_CLOSE_SESSION, c.data, c.len, NULL);
  tfc_wbuf_free(&c);
}

/* Builds the one-task cluster, its worker and master, and the live session. */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  setenv("TFC_SERVER_LOG", "0", 1);
  tfc_wbuf entry, job, cdef, sdef;
  tfc_wbuf_init(&entry);
  tfc_wbuf_init(&job);
  tfc_wbuf_init(&cdef);
  tfc_wbuf_init(&sdef);
  tfc_wbuf_string(&entry, 2, "localhost:1");
  tfc_wbuf_string(&job, 1, "local");
  tfc_wbuf_ld(&job, 2, entry.data, entry.len);
  tfc_wbuf_ld(&cdef, 1, job.data, job.len);
  tfc_wbuf_ld(&sdef, 1, cdef.data, cdef.len);
  tfc_wbuf_string(&sdef, 2, "local");
  tfc_wbuf_string(&sdef, 5, "grpc");
  tfc_status st;
  tfc_status_clear(&st);
  FUZZ_ASSERT(tfc_cluster_init(&cluster, sdef.data, sdef.len, &st), "cluster: %s", st.msg);
  worker = tfc_worker_new(&cluster, &st);
  FUZZ_ASSERT(worker, "worker: %s", st.msg);
  master = tfc_master_new(&cluster, worker, &st);
  FUZZ_ASSERT(master, "master: %s", st.msg);
  make_session(session, sizeof session);
  tfc_wbuf_free(&entry);
  tfc_wbuf_free(&job);
  tfc_wbuf_free(&cdef);
  tfc_wbuf_free(&sdef);
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  tfc_method m = (tfc_method)(data[0] % TFC_M_SHUTDOWN);
  const uint8_t *req = data + 1;
  size_t len = size - 1;
  tfc_wbuf full, resp;
  tfc_wbuf_init(&full);
  tfc_wbuf_init(&resp);
  bool with_session = m == TFC_M_EXTEND_SESSION || m == TFC_M_RUN_STEP || m == TFC_M_MAKE_CALLABLE ||
                      m == TFC_M_RUN_CALLABLE || m == TFC_M_RELEASE_CALLABLE;
  /* ExtendSession grows a graph: a throwaway session keeps the live one small */
  char scratch[64] = "";
  if (m == TFC_M_EXTEND_SESSION) make_session(scratch, sizeof scratch);
  if (with_session) {
    tfc_wbuf_string(&full, 1, scratch[0] ? scratch : session);
    tfc_wbuf_bytes(&full, req, len);
    req = full.data;
    len = full.len;
  }
  bool ok = call(m, req ? req : (const uint8_t *)"", len, &resp);
  if (ok && m == TFC_M_REGISTER_GRAPH) {
    /* undo: DeregisterGraph{graph_handle} */
    const uint8_t *h = NULL;
    size_t hn = 0;
    FUZZ_ASSERT(tfc_wire_find_ld(resp.data, resp.len, 1, &h, &hn), "RegisterGraph answered no handle");
    tfc_wbuf d;
    tfc_wbuf_init(&d);
    tfc_wbuf_ld(&d, 1, h, hn);
    FUZZ_ASSERT(call(TFC_M_DEREGISTER_GRAPH, d.data, d.len, NULL), "the new graph did not deregister");
    tfc_wbuf_free(&d);
  }
  if (ok && m == TFC_M_CREATE_SESSION) {
    const uint8_t *h = NULL;
    size_t hn = 0;
    FUZZ_ASSERT(tfc_wire_find_ld(resp.data, resp.len, 1, &h, &hn), "CreateSession answered no handle");
    tfc_wbuf c;
    tfc_wbuf_init(&c);
    tfc_wbuf_ld(&c, 1, h, hn);
    FUZZ_ASSERT(call(TFC_M_CLOSE_SESSION, c.data, c.len, NULL), "the new session did not close");
    tfc_wbuf_free(&c);
  }
  if (ok && m == TFC_M_MAKE_CALLABLE) {
    /* undo: ReleaseCallable{session, handle} */
    size_t pos = 0;
    tfc_wfield f;
    uint64_t handle = 0;
    while (tfc_wire_next(resp.data, resp.len, &pos, &f))
      if (f.number == 1 && f.wire == 0) handle = f.v;
    tfc_wbuf r;
    tfc_wbuf_init(&r);
    tfc_wbuf_string(&r, 1, session);
    tfc_wbuf_varint_field(&r, 2, handle);
    call(TFC_M_RELEASE_CALLABLE, r.data, r.len, NULL);
    tfc_wbuf_free(&r);
  }
  if (scratch[0]) close_session(scratch);
  if (m == TFC_M_RESET || m == TFC_M_CLOSE_SESSION) {
    /* the live session may be gone: close it (if not) and open it again */
    close_session(session);
    make_session(session, sizeof session);
  }
  tfc_wbuf_free(&full);
  tfc_wbuf_free(&resp);
  return 0;
}
