/*
 * test_functions.c — the function library: a graph written as a FunctionDef
 * and added to another graph's library, called by name from a node, and
 * called through core/function.h the way a kernel of another layer (an
 * input pipeline) does: instantiated once, run from several threads, with
 * argument type errors, a missing function and a library export round trip.
 */
#include <pthread.h>
#include <string.h>

#include "base/alloc.h"
#include "core/function.h"
#include "graph/function_lib.h"
#include "graph/graphdef.h"
#include "harness.h"
#include "runtime/function.h"
#include "runtime/session.h"

/* Adds a float Placeholder; id or -1. */
static int fn_placeholder(tfc_graph *g, const char *name, tfc_status *st) {
  tfc_attrs attrs;
  tfc_attrs_init(&attrs);
  tfc_attr_value dt = tfc_attr_type(TFC_DTYPE_FLOAT);
  tfc_attrs_set(&attrs, "dtype", &dt, st);
  tfc_node_request req = {.op_type = "Placeholder", .name = name, .n_args = 0, .attrs = &attrs};
  tfc_node *n = tfc_graph_add_node(g, &req, st);
  tfc_attrs_destroy(&attrs);
  return n ? n->id : -1;
}

/* Adds a float scalar Const; id or -1. */
static int fn_const(tfc_graph *g, const char *name, float v, tfc_status *st) {
  tfc_attrs attrs;
  tfc_attrs_init(&attrs);
  tfc_attr_value tv = {.kind = TFC_ATTR_TENSOR, .v.tensor = tfc_tensor_scalar(TFC_DTYPE_FLOAT, &v, st)};
  tfc_attrs_set(&attrs, "value", &tv, st);
  tfc_attr_value dt = tfc_attr_type(TFC_DTYPE_FLOAT);
  tfc_attrs_set(&attrs, "dtype", &dt, st);
  tfc_node_request req = {.op_type = "Const", .name = name, .n_args = 0, .attrs = &attrs};
  tfc_node *n = tfc_graph_add_node(g, &req, st);
  tfc_attrs_destroy(&attrs);
  return n ? n->id : -1;
}

/* Adds a node of op with the given single inputs; id or -1. */
static int fn_node(tfc_graph *g, const char *op, const char *name, int n_in, const tfc_endpoint *in,
                   tfc_status *st) {
  int sizes[4] = {1, 1, 1, 1};
  tfc_node_request req = {.op_type = op, .name = name, .n_args = n_in, .arg_sizes = sizes, .inputs = in};
  tfc_node *n = tfc_graph_add_node(g, &req, st);
  return n ? n->id : -1;
}

/* The FunctionDef of axpy(a, b) = a * 3 + b, written from a graph. */
static bool make_axpy(void **fdef, size_t *len, tfc_status *st) {
  tfc_graph *g = tfc_graph_new();
  int a = fn_placeholder(g, "a", st);
  int b = fn_placeholder(g, "b", st);
  int three = fn_const(g, "three", 3.0f, st);
  tfc_endpoint m_in[2] = {{a, 0}, {three, 0}};
  int m = fn_node(g, "Mul", "mul", 2, m_in, st);
  tfc_endpoint s_in[2] = {{m, 0}, {b, 0}};
  int s = fn_node(g, "AddV2", "sum", 2, s_in, st);
  bool ok = s >= 0;
  if (ok) {
    int args[2] = {a, b};
    tfc_endpoint ret = {s, 0};
    const char *names[1] = {"y"};
    ok = tfc_function_from_graph(g, "axpy", 2, args, 1, &ret, names, fdef, len, st);
  }
  tfc_graph_unref(g);
  return ok;
}

TFC_TEST(function_called_by_name_in_a_session) {
  tfc_status st;
  tfc_status_clear(&st);
  void *fdef = NULL;
  size_t len = 0;
  CHECK(make_axpy(&fdef, &len, &st));
  tfc_graph *g = tfc_graph_new();
  CHECK(tfc_func_lib_add_function(g->library, fdef, len, &st));
  /* the same bytes again are accepted; other bytes under the name are not */
  CHECK(tfc_func_lib_add_function(g->library, fdef, len, &st));
  const tfc_op_def *sig = tfc_graph_lookup_op(g, "axpy");
  CHECK(sig && (sig->flags & TFC_OP_FUNCTION) && sig->n_inputs == 2 && sig->n_outputs == 1);
  int x = fn_placeholder(g, "x", &st);
  int c = fn_const(g, "c", 0.5f, &st);
  tfc_endpoint in[2] = {{x, 0}, {c, 0}};
  int call = fn_node(g, "axpy", "call", 2, in, &st);
  CHECK_STATUS_OK(&st);
  CHECK(call >= 0);
  tfc_session_options o = {.inter_op_threads = 1, .intra_op_threads = 1, .n_cpu_devices = 1};
  tfc_session *s = tfc_session_new(g, &o, &st);
  tfc_endpoint feed = {x, 0}, fetch = {call, 0};
  tfc_plan *p = tfc_session_plan(s, 1, &feed, 1, &fetch, 0, NULL, &st);
  CHECK_STATUS_OK(&st);
  float v = 2.0f;
  tfc_tensor *fv = tfc_tensor_scalar(TFC_DTYPE_FLOAT, &v, &st), *out = NULL;
  CHECK(tfc_session_run(s, p, &fv, &out, &st));
  CHECK_NEAR(*(float *)out->data, 6.5, 0);
  tfc_tensor_unref(out);
  tfc_tensor_unref(fv);
  tfc_session_free(s);
  /* export writes the library; a fresh graph imports and runs it */
  void *gd = NULL;
  size_t gd_len = 0;
  CHECK(tfc_graph_export(g, &gd, &gd_len, &st));
  tfc_graph *g2 = tfc_graph_new();
  CHECK(tfc_graph_import(g2, gd, gd_len, NULL, NULL, &st));
  CHECK_EQ_INT(tfc_func_lib_size(g2->library), 1);
  tfc_free(gd);
  tfc_graph_unref(g2);
  tfc_graph_unref(g);
  tfc_free(fdef);
}

typedef struct runner {
  tfc_flib *lib;
  const tfc_fhandle *f;
  float base;
  bool ok;
} runner;

/* Thread body: runs the function 200 times without a calling step. */
static void *run_many(void *arg) {
  runner *r = arg;
  tfc_status st;
  tfc_status_clear(&st);
  r->ok = true;
  for (int i = 0; i < 200 && r->ok; i++) {
    float av = r->base + (float)i, bv = 1.0f;
    tfc_tensor *args[2] = {tfc_tensor_scalar(TFC_DTYPE_FLOAT, &av, &st),
                           tfc_tensor_scalar(TFC_DTYPE_FLOAT, &bv, &st)};
    tfc_tensor *y = NULL;
    r->ok = tfc_func_run(r->lib, r->f, NULL, args, &y, &st) && *(float *)y->data == av * 3.0f + 1.0f;
    tfc_tensor_unref(y);
    tfc_tensor_unref(args[0]);
    tfc_tensor_unref(args[1]);
  }
  return NULL;
}

TFC_TEST(function_runtime_from_other_threads_and_errors) {
  tfc_status st;
  tfc_status_clear(&st);
  CHECK(tfc_sendrecv_register());
  void *fdef = NULL;
  size_t len = 0;
  CHECK(make_axpy(&fdef, &len, &st));
  tfc_graph *g = tfc_graph_new();
  CHECK(tfc_func_lib_add_function(g->library, fdef, len, &st));
  tfc_free(fdef);
  tfc_resource_mgr *rm = tfc_resource_mgr_new();
  tfc_exec_env env = {.resources = rm, .device_type = "CPU"};
  tfc_flib *lib = tfc_flib_new(g, &env);
  CHECK(lib != NULL);
  CHECK(tfc_func_exists(lib, "axpy") && !tfc_func_exists(lib, "nope"));
  const tfc_fhandle *f = tfc_func_instantiate(lib, "axpy", NULL, &st);
  CHECK_STATUS_OK(&st);
  CHECK(f && f->n_inputs == 2 && f->n_outputs == 1 && f->out_types[0] == TFC_DTYPE_FLOAT);
  CHECK(tfc_func_instantiate(lib, "axpy", NULL, &st) == f); /* cached */
  runner r[3] = {{lib, f, 0.0f, false}, {lib, f, 1000.0f, false}, {lib, f, -50.0f, false}};
  pthread_t th[3];
  for (int i = 0; i < 3; i++) pthread_create(&th[i], NULL, run_many, &r[i]);
  for (int i = 0; i < 3; i++) pthread_join(th[i], NULL);
  CHECK(r[0].ok && r[1].ok && r[2].ok);
  /* an argument of the wrong type */
  int32_t iv = 1;
  float fv = 1.0f;
  tfc_tensor *bad[2] = {tfc_tensor_scalar(TFC_DTYPE_INT32, &iv, &st),
                        tfc_tensor_scalar(TFC_DTYPE_FLOAT, &fv, &st)};
  tfc_tensor *y = (tfc_tensor *)1;
  CHECK(!tfc_func_run(lib, f, NULL, bad, &y, &st));
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  CHECK(y == NULL && strstr(st.msg, "argument 0 has type int32") != NULL);
  tfc_tensor_unref(bad[0]);
  tfc_tensor_unref(bad[1]);
  /* a missing function */
  tfc_status_clear(&st);
  CHECK(tfc_func_instantiate(lib, "nope", NULL, &st) == NULL);
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  CHECK(strstr(st.msg, "Failed to find function 'nope'") != NULL);
  /* no runtime at all */
  tfc_status_clear(&st);
  CHECK(tfc_func_instantiate(NULL, "axpy", NULL, &st) == NULL);
  CHECK_CODE(&st, TFC_CODE_FAILED_PRECONDITION);
  tfc_flib_free(lib);
  tfc_resource_mgr_free(rm);
  tfc_graph_unref(g);
}

TFC_TEST(function_library_rejects_bad_definitions) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_func_lib *lib = tfc_func_lib_new();
  const char junk[] = "\x0a\x05garbage";
  CHECK(!tfc_func_lib_add_function(lib, junk, sizeof junk - 1, &st));
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  /* a function named like a registered op */
  tfc_graph *g = tfc_graph_new();
  int a = fn_placeholder(g, "a", &st);
  tfc_endpoint in[1] = {{a, 0}};
  int n = fn_node(g, "Neg", "neg", 1, in, &st);
  tfc_endpoint ret = {n, 0};
  void *fdef = NULL;
  size_t len = 0;
  CHECK(tfc_function_from_graph(g, "Neg", 1, &a, 1, &ret, NULL, &fdef, &len, &st));
  tfc_status_clear(&st);
  CHECK(!tfc_func_lib_add_function(lib, fdef, len, &st));
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  tfc_free(fdef);
  /* an argument that is not a Placeholder */
  tfc_status_clear(&st);
  CHECK(!tfc_function_from_graph(g, "f", 1, &n, 1, &ret, NULL, &fdef, &len, &st));
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  tfc_graph_unref(g);
  tfc_func_lib_unref(lib);
}
