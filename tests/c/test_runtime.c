/*
 * test_runtime.c — device names, the local rendezvous, and sessions that
 * prune, place, partition across two CPU devices and run.
 */
#include <string.h>

#include "base/alloc.h"
#include "graph/device_name.h"
#include "graph/graph.h"
#include "harness.h"
#include "kernels/kernel.h"
#include "runtime/executor.h"
#include "runtime/rendezvous.h"
#include "runtime/session.h"

TFC_TEST(device_name_grammar) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_device_name d;
  char buf[128];
  CHECK(tfc_device_name_parse("/job:ps/replica:0/task:1/device:CPU:0", &d, &st));
  tfc_device_name_format(&d, buf, sizeof buf);
  CHECK(strcmp(buf, "/job:ps/replica:0/task:1/device:CPU:0") == 0);
  CHECK(tfc_device_name_parse("/cpu:1", &d, &st));
  CHECK(d.has_type && strcmp(d.type, "CPU") == 0 && d.has_id && d.id == 1 && !d.has_job);
  CHECK(tfc_device_name_parse("/job:worker/task:1", &d, &st));
  CHECK(d.has_job && d.has_task && d.task == 1 && !d.has_type);
  CHECK(tfc_device_name_parse("/device:GPU:*", &d, &st));
  CHECK(d.has_type && !d.has_id && strcmp(d.type, "GPU") == 0);
  CHECK(tfc_device_name_parse("", &d, &st));
  CHECK(!tfc_device_name_parse("/job:", &d, &st));
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  tfc_status_clear(&st);
  CHECK(!tfc_device_name_parse("/bogus", &d, &st));
  tfc_device_name a, b;
  tfc_status_clear(&st);
  tfc_device_name_parse("/job:localhost/replica:0/task:0/device:CPU:1", &a, &st);
  tfc_device_name_parse("/cpu:1", &b, &st);
  CHECK(tfc_device_name_matches(&b, &a));
  tfc_device_name_parse("/cpu:0", &b, &st);
  CHECK(!tfc_device_name_matches(&b, &a));
}

typedef struct got {
  int calls;
  float value;
  tfc_code code;
} got;

/* Records what a receive delivered. */
static void on_recv(void *arg, tfc_tensor *t, const tfc_status *st) {
  got *g = arg;
  g->calls++;
  g->code = st->code;
  if (t) g->value = *(float *)t->data;
}

TFC_TEST(local_rendezvous_both_orders_and_abort) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_rendezvous *r = tfc_local_rendezvous_new();
  CHECK(r != NULL);
  float v = 2.5f;
  tfc_tensor *t = tfc_tensor_scalar(TFC_DTYPE_FLOAT, &v, &st);
  CHECK(t != NULL);
  got g1 = {0}, g2 = {0}, g3 = {0};
  CHECK(r->ops->send(r, "k1", t, &st)); /* send first */
  r->ops->recv_async(r, "k1", on_recv, &g1);
  CHECK_EQ_INT(g1.calls, 1);
  CHECK_NEAR(g1.value, 2.5, 0);
  r->ops->recv_async(r, "k2", on_recv, &g2); /* receive first */
  CHECK_EQ_INT(g2.calls, 0);
  CHECK(r->ops->send(r, "k2", t, &st));
  CHECK_EQ_INT(g2.calls, 1);
  r->ops->recv_async(r, "k3", on_recv, &g3); /* pending at abort */
  tfc_status why;
  tfc_status_clear(&why);
  tfc_status_set(&why, TFC_CODE_CANCELLED, "step cancelled");
  r->ops->abort(r, &why);
  CHECK_EQ_INT(g3.calls, 1);
  CHECK_EQ_INT(g3.code, TFC_CODE_CANCELLED);
  CHECK(!r->ops->send(r, "k4", t, &st));
  CHECK_CODE(&st, TFC_CODE_CANCELLED);
  r->ops->free(r);
  tfc_tensor_unref(t);
  char key[256];
  CHECK(tfc_rendezvous_key(key, sizeof key, "/job:a/replica:0/task:0/device:CPU:0", 1,
                           "/job:a/replica:0/task:0/device:CPU:1", "x:0"));
  CHECK(strcmp(key, "/job:a/replica:0/task:0/device:CPU:0;0000000000000001;"
                    "/job:a/replica:0/task:0/device:CPU:1;x:0;0:0") == 0);
}

/* Adds a float Const node holding v; returns its id or -1. */
static int add_const(tfc_graph *g, const char *name, float v, const char *device, tfc_status *st) {
  tfc_attrs attrs;
  tfc_attrs_init(&attrs);
  tfc_tensor *t = tfc_tensor_scalar(TFC_DTYPE_FLOAT, &v, st);
  tfc_attr_value tv = {.kind = TFC_ATTR_TENSOR, .v.tensor = t};
  tfc_attrs_set(&attrs, "value", &tv, st);
  tfc_attr_value dt = tfc_attr_type(TFC_DTYPE_FLOAT);
  tfc_attrs_set(&attrs, "dtype", &dt, st);
  tfc_node_request req = {.op_type = "Const", .name = name, .device = device, .n_args = 0, .attrs = &attrs};
  tfc_node *n = tfc_graph_add_node(g, &req, st);
  tfc_attrs_destroy(&attrs);
  return n ? n->id : -1;
}

/* Adds a binary op node; returns its id or -1. */
static int add_binary(tfc_graph *g, const char *op, const char *name, int a, int b, const char *device,
                      tfc_status *st) {
  tfc_attrs attrs;
  tfc_attrs_init(&attrs);
  int sizes[2] = {1, 1};
  tfc_endpoint in[2] = {{a, 0}, {b, 0}};
  tfc_node_request req = {.op_type = op, .name = name, .device = device, .n_args = 2, .arg_sizes = sizes,
                          .inputs = in, .attrs = &attrs};
  tfc_node *n = tfc_graph_add_node(g, &req, st);
  tfc_attrs_destroy(&attrs);
  return n ? n->id : -1;
}

TFC_TEST(session_two_devices_send_recv) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_graph *g = tfc_graph_new();
  int a = add_const(g, "a", 1.5f, "/cpu:0", &st);
  int b = add_const(g, "b", 2.0f, "/cpu:1", &st);
  CHECK_STATUS_OK(&st);
  int c = add_binary(g, "AddV2", "c", a, b, "/cpu:0", &st);
  int d = add_binary(g, "Mul", "d", c, b, "/cpu:1", &st);
  CHECK_STATUS_OK(&st);
  tfc_session_options opts = {.inter_op_threads = 2, .intra_op_threads = 1, .n_cpu_devices = 2};
  tfc_session *s = tfc_session_new(g, &opts, &st);
  CHECK(s != NULL);
  tfc_endpoint fetches[2] = {{c, 0}, {d, 0}};
  for (int rep = 0; rep < 3; rep++) {
    tfc_plan *p = tfc_session_plan(s, 0, NULL, 2, fetches, 0, NULL, &st);
    CHECK_STATUS_OK(&st);
    tfc_tensor *out[2] = {NULL, NULL};
    CHECK(tfc_session_run(s, p, NULL, out, &st));
    CHECK_STATUS_OK(&st);
    CHECK_NEAR(*(float *)out[0]->data, 3.5, 0);
    CHECK_NEAR(*(float *)out[1]->data, 7.0, 0);
    tfc_tensor_unref(out[0]);
    tfc_tensor_unref(out[1]);
  }
  /* feeding c replaces its producer */
  float fv = 10.0f;
  tfc_tensor *feed = tfc_tensor_scalar(TFC_DTYPE_FLOAT, &fv, &st);
  tfc_endpoint feeds[1] = {{c, 0}};
  tfc_plan *p = tfc_session_plan(s, 1, feeds, 1, &fetches[1], 0, NULL, &st);
  CHECK_STATUS_OK(&st);
  tfc_tensor *out1 = NULL;
  CHECK(tfc_session_run(s, p, &feed, &out1, &st));
  CHECK_NEAR(*(float *)out1->data, 20.0, 0);
  tfc_tensor_unref(out1);
  tfc_tensor_unref(feed);
  /* an unsatisfiable device fails at plan time, naming the node */
  int e = add_binary(g, "AddV2", "e", a, b, "/cpu:7", &st);
  CHECK_STATUS_OK(&st);
  tfc_endpoint fe[1] = {{e, 0}};
  CHECK(tfc_session_plan(s, 0, NULL, 1, fe, 0, NULL, &st) == NULL);
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  CHECK(strstr(st.msg, "Cannot assign a device for operation e") != NULL);
  tfc_session_close(s);
  tfc_status_clear(&st);
  CHECK(tfc_session_plan(s, 0, NULL, 1, fetches, 0, NULL, &st) == NULL);
  CHECK_CODE(&st, TFC_CODE_FAILED_PRECONDITION);
  tfc_session_free(s);
  tfc_graph_unref(g);
}

/* True when the n bytes of needle occur in the n_hay bytes of hay. */
static bool contains(const char *hay, size_t n_hay, const char *needle) {
  size_t n = strlen(needle);
  for (size_t i = 0; i + n <= n_hay; i++)
    if (memcmp(hay + i, needle, n) == 0) return true;
  return false;
}

TFC_TEST(session_traced_run_metadata) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_graph *g = tfc_graph_new();
  int a = add_const(g, "a", 1.5f, "/cpu:0", &st);
  int b = add_const(g, "b", 2.0f, "/cpu:1", &st);
  int c = add_binary(g, "AddV2", "c", a, b, "/cpu:1", &st);
  CHECK_STATUS_OK(&st);
  tfc_session_options opts = {.inter_op_threads = 2, .intra_op_threads = 1, .n_cpu_devices = 2};
  tfc_session *s = tfc_session_new(g, &opts, &st);
  CHECK(s != NULL);
  tfc_endpoint fetches[1] = {{c, 0}};
  tfc_plan *p = tfc_session_plan(s, 0, NULL, 1, fetches, 0, NULL, &st);
  CHECK_STATUS_OK(&st);
  tfc_run_trace tr = {.step_stats = true, .partition_graphs = true};
  tfc_strbuf md;
  tfc_strbuf_init(&md);
  tfc_tensor *out = NULL;
  CHECK(tfc_session_run_traced(s, p, NULL, &out, 0, &tr, &md, &st));
  CHECK_STATUS_OK(&st);
  CHECK_NEAR(*(float *)out->data, 3.5, 0);
  tfc_tensor_unref(out);
  /* RunMetadata: step_stats (field 1) first, with both devices and TF's labels */
  CHECK(md.len > 0 && (uint8_t)md.data[0] == 0x0a);
  CHECK(contains(md.data, md.len, "/job:localhost/replica:0/task:0/device:CPU:0"));
  CHECK(contains(md.data, md.len, "/job:localhost/replica:0/task:0/device:CPU:1"));
  CHECK(contains(md.data, md.len, "c = AddV2("));
  CHECK(contains(md.data, md.len, "a = Const()"));
  CHECK(contains(md.data, md.len, "_Send") && contains(md.data, md.len, "_Recv"));
  tfc_strbuf_free(&md);
  /* untraced: nothing appended */
  tfc_strbuf_init(&md);
  tfc_run_trace none = {0};
  CHECK(tfc_session_run_traced(s, p, NULL, &out, 0, &none, &md, &st));
  tfc_tensor_unref(out);
  CHECK(md.len == 0);
  tfc_strbuf_free(&md);
  tfc_session_free(s);
  tfc_graph_unref(g);
}

TFC_TEST(session_soft_placement_and_errors) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_graph *g = tfc_graph_new();
  int a = add_const(g, "a", 4.0f, "/job:ps/task:0", &st);
  int b = add_const(g, "b", 0.5f, "/gpu:0", &st);
  int c = add_binary(g, "Mul", "c", a, b, "/job:worker/task:1", &st);
  CHECK_STATUS_OK(&st);
  tfc_session_options hard = {.inter_op_threads = 1, .intra_op_threads = 1, .n_cpu_devices = 1};
  tfc_session *s = tfc_session_new(g, &hard, &st);
  tfc_endpoint f[1] = {{c, 0}};
  CHECK(tfc_session_plan(s, 0, NULL, 1, f, 0, NULL, &st) == NULL);
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  tfc_session_free(s);
  tfc_status_clear(&st);
  tfc_session_options soft = hard;
  soft.allow_soft_placement = true;
  s = tfc_session_new(g, &soft, &st);
  tfc_plan *p = tfc_session_plan(s, 0, NULL, 1, f, 0, NULL, &st);
  CHECK_STATUS_OK(&st);
  tfc_tensor *out = NULL;
  CHECK(tfc_session_run(s, p, NULL, &out, &st));
  CHECK_NEAR(*(float *)out->data, 2.0, 0);
  tfc_tensor_unref(out);
  tfc_session_free(s);
  tfc_graph_unref(g);
}

TFC_TEST(every_op_has_a_cpu_kernel) {
  tfc_status st;
  tfc_status_clear(&st);
  CHECK(tfc_op_registry_check(&st));
  CHECK(tfc_sendrecv_register());
  int missing = 0;
  for (int i = 0; i < tfc_op_count(); i++) {
    const tfc_op_def *d = tfc_op_at(i);
    if (!tfc_kernel_exists(d->name, "CPU")) {
      fprintf(stderr, "op %s has no CPU kernel\n", d->name);
      missing++;
    }
  }
  CHECK_EQ_INT(missing, 0);
  /* and every kernel belongs to a registered op */
  for (int i = 0; i < tfc_kernel_count(); i++) CHECK(tfc_op_lookup(tfc_kernel_at(i)->op) != NULL);
}
