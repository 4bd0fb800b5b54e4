/*
 * test_logging.c — tensor summaries (TF's SummarizeValue), and the Print,
 * Assert, NoOp and ControlTrigger kernels. Expected strings were produced by
 * TensorFlow 2.21's Print / Assert in graph mode.
 */
#include <math.h>
#include <string.h>

#include "base/alloc.h"
#include "base/strbuf.h"
#include "core/dtype.h"
#include "harness.h"
#include "kernels/kernel.h"
#include "kernels/summarize.h"

/* ------------------------------------------------------------ helpers */

/* A tensor of dtype/shape whose element i is vals[i] (numeric types), or i
 * when vals is NULL. (noinline: keeps GCC's -O3 uninitialized-use analysis
 * from misreading small caller arrays.) */
__attribute__((noinline)) static tfc_tensor *make(tfc_dtype dt, int rank, const int64_t *dims, const double *vals) {
  tfc_status st;
  tfc_tensor *t = tfc_tensor_new(dt, rank, dims, &st);
  if (t == NULL) return NULL;
  for (int64_t i = 0; i < t->nelems; i++) {
    double v = vals ? vals[i] : (double)i;
    switch (dt) {
      case TFC_DTYPE_FLOAT: ((float *)t->data)[i] = (float)v; break;
      case TFC_DTYPE_DOUBLE: ((double *)t->data)[i] = v; break;
      case TFC_DTYPE_INT32: ((int32_t *)t->data)[i] = (int32_t)v; break;
      case TFC_DTYPE_INT64: ((int64_t *)t->data)[i] = (int64_t)v; break;
      case TFC_DTYPE_INT8: ((int8_t *)t->data)[i] = (int8_t)v; break;
      case TFC_DTYPE_UINT8: ((uint8_t *)t->data)[i] = (uint8_t)v; break;
      case TFC_DTYPE_BOOL: ((bool *)t->data)[i] = v != 0; break;
      case TFC_DTYPE_HALF: ((tfc_half *)t->data)[i] = tfc_float_to_half((float)v); break;
      case TFC_DTYPE_BFLOAT16: ((uint16_t *)t->data)[i] = tfc_float_to_bfloat16((float)v); break;
      default: break;
    }
  }
  return t;
}

/* True when the summary of t (then freed) with max entries equals want. */
static bool summary_is(tfc_tensor *t, int64_t max, const char *want) {
  tfc_strbuf b;
  tfc_strbuf_init(&b);
  tfc_summarize_tensor(t, max, &b);
  bool ok = strcmp(tfc_strbuf_cstr(&b), want) == 0;
  if (!ok) fprintf(stderr, "  got \"%s\" want \"%s\"\n", tfc_strbuf_cstr(&b), want);
  tfc_strbuf_free(&b);
  tfc_tensor_unref(t);
  return ok;
}

/* ------------------------------------------------------------ summaries */

TFC_TEST(logging_summarize_shapes) {
  int64_t v5 = 5, m23[2] = {2, 3}, t234[3] = {2, 3, 4};
  const double one_to_5[5] = {1, 2, 3, 4, 5};
  const double mat[6] = {1.5, 2, 3, 4, 5, 6};
  CHECK(summary_is(make(TFC_DTYPE_INT32, 1, &v5, one_to_5), 3, "1 2 3..."));
  CHECK(summary_is(make(TFC_DTYPE_INT32, 1, &v5, one_to_5), 10, "1 2 3 4 5"));
  CHECK(summary_is(make(TFC_DTYPE_FLOAT, 2, m23, mat), 10, "[1.5 2 3][4 5 6]"));
  CHECK(summary_is(make(TFC_DTYPE_FLOAT, 2, m23, mat), 3, "[1.5 2 3]..."));
  CHECK(summary_is(make(TFC_DTYPE_INT32, 3, t234, NULL), 5, "[[0 1 2 3][4...]]..."));
  CHECK(summary_is(make(TFC_DTYPE_INT32, 3, t234, NULL), -1,
                   "[[0 1 2 3][4 5 6 7][8 9 10 11]][[12 13 14 15][16 17 18 19][20 21 22 23]]"));
  CHECK(summary_is(make(TFC_DTYPE_INT32, 3, t234, NULL), 13,
                   "[[0 1 2 3][4 5 6 7][8 9 10 11]][[12...]]..."));
  CHECK(summary_is(make(TFC_DTYPE_INT32, 1, &v5, one_to_5), 0, "..."));
}

TFC_TEST(logging_summarize_scalars_and_empty) {
  const double three = 3, yes = 1;
  CHECK(summary_is(make(TFC_DTYPE_FLOAT, 0, NULL, &three), 3, "3"));
  CHECK(summary_is(make(TFC_DTYPE_BOOL, 0, NULL, &yes), 3, "1"));
  int64_t e03[2] = {0, 3}, e203[3] = {2, 0, 3}, c31[2] = {3, 1}, c111[3] = {1, 1, 1};
  CHECK(summary_is(make(TFC_DTYPE_FLOAT, 2, e03, NULL), 10, ""));
  CHECK(summary_is(make(TFC_DTYPE_FLOAT, 3, e203, NULL), 10, ""));
  const double zeros[3] = {0, 0, 0};
  CHECK(summary_is(make(TFC_DTYPE_FLOAT, 2, c31, zeros), 10, "[0][0][0]"));
  CHECK(summary_is(make(TFC_DTYPE_FLOAT, 3, c111, zeros), 10, "[[0]]"));
}

TFC_TEST(logging_summarize_element_formats) {
  int64_t n6 = 6, n3 = 3, n2 = 2, n1 = 1;
  const double f[6] = {0.1, 1e20, 1.0 / 3.0, NAN, INFINITY, -0.0};
  CHECK(summary_is(make(TFC_DTYPE_FLOAT, 1, &n6, f), 10, "0.1 1e+20 0.333333343 nan inf -0"));
  const double d[3] = {0.1, 1.0 / 3.0, 1e-300};
  CHECK(summary_is(make(TFC_DTYPE_DOUBLE, 1, &n3, d), 10, "0.1 0.33333333333333331 1e-300"));
  const double b[2] = {1, 0};
  CHECK(summary_is(make(TFC_DTYPE_BOOL, 1, &n2, b), 10, "1 0"));
  const double i8[2] = {1, 2}, u8 = 200, h = 1.5;
  CHECK(summary_is(make(TFC_DTYPE_INT8, 1, &n2, i8), 10, "1 2"));
  CHECK(summary_is(make(TFC_DTYPE_UINT8, 1, &n1, &u8), 10, "200"));
  CHECK(summary_is(make(TFC_DTYPE_HALF, 1, &n1, &h), 10, "1.5"));
  CHECK(summary_is(make(TFC_DTYPE_BFLOAT16, 1, &n1, &h), 10, "1.5"));
  const double big = -9007199254740993.0;
  CHECK(summary_is(make(TFC_DTYPE_INT64, 1, &n1, &big), 10, "-9007199254740992"));
  tfc_status st;
  tfc_tensor *c = tfc_tensor_zeros(TFC_DTYPE_COMPLEX64, 1, &n3, &st);
  CHECK(summary_is(c, 2, "? ?..."));
}

TFC_TEST(logging_summarize_strings_escaped) {
  tfc_status st;
  int64_t n2 = 2;
  tfc_tensor *t = tfc_tensor_new(TFC_DTYPE_STRING, 1, &n2, &st);
  CHECK(t != NULL);
  tfc_tensor_set_string(t, 0, "ab", 2, &st);
  tfc_tensor_set_string(t, 1, "c\n\"d\t\\'\x01\xc3", 9, &st);
  CHECK(summary_is(t, 10, "ab c\\n\\\"d\\t\\\\\\'\\001\\303"));
}

/* ------------------------------------------------------------ kernels */

typedef struct lk {
  const tfc_kernel_def *def;
  void *state;
  tfc_attrs attrs;
  tfc_status st;
  tfc_step step;
  tfc_strbuf log;
  tfc_tensor *in[4];
  int n_in;
  tfc_tensor *out;
  tfc_var *rout;
  tfc_dtype out_type;
} lk;

/* Collects Print output. */
static void capture_log(void *ctx, const char *text, size_t len) {
  tfc_strbuf_append(ctx, text, len);
}

/* Sets up op with attrs message/first_n/summarize (negative = absent). */
static bool lk_make(lk *k, const char *op, const char *message, int64_t first_n, int64_t summarize) {
  memset(k, 0, sizeof *k);
  tfc_attrs_init(&k->attrs);
  tfc_status_clear(&k->st);
  tfc_strbuf_init(&k->log);
  k->step.log = capture_log;
  k->step.log_ctx = &k->log;
  tfc_attr_value v;
  if (message) {
    v = tfc_attr_string(message, strlen(message));
    tfc_attrs_set(&k->attrs, "message", &v, &k->st);
  }
  v = tfc_attr_int(first_n);
  if (first_n != -2) tfc_attrs_set(&k->attrs, "first_n", &v, &k->st);
  v = tfc_attr_int(summarize);
  if (summarize != -2) tfc_attrs_set(&k->attrs, "summarize", &v, &k->st);
  k->def = tfc_kernel_lookup(op, "CPU", &k->attrs);
  if (k->def == NULL) return false;
  tfc_kernel_init ki = {.node_name = op, .op_type = op, .attrs = &k->attrs, .st = &k->st};
  return k->def->init == NULL || k->def->init(&ki, &k->state);
}

/* Runs compute; false when it failed. */
static bool lk_run(lk *k, const char *op) {
  tfc_tensor_unref(k->out);
  k->out = NULL;
  tfc_status_clear(&k->st);
  tfc_kernel_ctx ctx = {.node_name = op, .op_type = op, .attrs = &k->attrs, .state = k->state,
                        .n_inputs = k->n_in, .inputs = k->in, .n_outputs = 1, .outputs = &k->out,
                        .ref_outputs = &k->rout, .out_types = &k->out_type, .st = &k->st,
                        .step = &k->step};
  k->def->compute(&ctx);
  return k->st.code == TFC_CODE_OK;
}

/* Frees everything. */
static void lk_free(lk *k) {
  tfc_tensor_unref(k->out);
  for (int i = 0; i < k->n_in; i++) tfc_tensor_unref(k->in[i]);
  if (k->def && k->def->destroy) k->def->destroy(k->state);
  tfc_attrs_destroy(&k->attrs);
  tfc_strbuf_free(&k->log);
}

TFC_TEST(logging_print_forwards_and_logs) {
  lk k;
  CHECK(lk_make(&k, "Print", "portion is", -1, 3));
  int64_t v5 = 5, m23[2] = {2, 3};
  const double one_to_5[5] = {1, 2, 3, 4, 5}, mat[6] = {1.5, 2, 3, 4, 5, 6};
  k.in[0] = make(TFC_DTYPE_INT32, 1, &v5, one_to_5);
  k.in[1] = make(TFC_DTYPE_INT32, 1, &v5, one_to_5);
  k.in[2] = make(TFC_DTYPE_FLOAT, 2, m23, mat);
  k.n_in = 3;
  k.out_type = TFC_DTYPE_INT32;
  CHECK(lk_run(&k, "Print"));
  CHECK(k.out == k.in[0]); /* forwarded, not copied */
  CHECK(strcmp(tfc_strbuf_cstr(&k.log), "portion is[1 2 3...][[1.5 2 3]...]\n") == 0);
  lk_free(&k);

  /* Defaults: empty message, summarize 3; no data prints just a newline. */
  CHECK(lk_make(&k, "Print", NULL, -2, -2));
  k.in[0] = make(TFC_DTYPE_INT32, 1, &v5, one_to_5);
  k.n_in = 1;
  CHECK(lk_run(&k, "Print"));
  CHECK(strcmp(tfc_strbuf_cstr(&k.log), "\n") == 0);
  lk_free(&k);
}

TFC_TEST(logging_print_first_n) {
  lk k;
  CHECK(lk_make(&k, "Print", "x=", 2, 10));
  const double three = 3;
  k.in[0] = make(TFC_DTYPE_FLOAT, 0, NULL, &three);
  k.in[1] = make(TFC_DTYPE_FLOAT, 0, NULL, &three);
  k.n_in = 2;
  for (int i = 0; i < 4; i++) {
    CHECK(lk_run(&k, "Print"));
    CHECK(k.out == k.in[0]); /* forwarded even when not printing */
  }
  CHECK(strcmp(tfc_strbuf_cstr(&k.log), "x=[3]\nx=[3]\n") == 0);
  lk_free(&k);
}

TFC_TEST(logging_assert) {
  lk k;
  CHECK(lk_make(&k, "Assert", NULL, -2, 3));
  const double no = 0, yes = 1;
  int64_t v4 = 4;
  const double v[4] = {1, 2, 3, 4};
  tfc_status st;
  k.in[0] = make(TFC_DTYPE_BOOL, 0, NULL, &no);
  k.in[1] = make(TFC_DTYPE_INT32, 1, &v4, v);
  tfc_string hi = {"hi", 2};
  k.in[2] = tfc_tensor_scalar(TFC_DTYPE_STRING, &hi, &st);
  k.n_in = 3;
  CHECK(!lk_run(&k, "Assert"));
  CHECK_CODE(&k.st, TFC_CODE_INVALID_ARGUMENT);
  CHECK(strcmp(k.st.msg, "assertion failed: [1 2 3...] [hi]") == 0);
  tfc_tensor_unref(k.in[0]);
  k.in[0] = make(TFC_DTYPE_BOOL, 0, NULL, &yes);
  CHECK(lk_run(&k, "Assert"));
  tfc_tensor_unref(k.in[0]);
  int64_t two = 2;
  k.in[0] = make(TFC_DTYPE_BOOL, 1, &two, NULL);
  CHECK(!lk_run(&k, "Assert"));
  CHECK(strcmp(k.st.msg, "In[0] should be a scalar: [2]") == 0);
  lk_free(&k);
}

TFC_TEST(logging_noop_and_control_trigger) {
  const char *ops[2] = {"NoOp", "ControlTrigger"};
  for (int i = 0; i < 2; i++) {
    lk k;
    CHECK(lk_make(&k, ops[i], NULL, -2, -2));
    CHECK(lk_run(&k, ops[i]));
    CHECK(k.out == NULL);
    lk_free(&k);
    CHECK(tfc_op_lookup(ops[i]) != NULL);
  }
  CHECK(tfc_op_lookup("Print") != NULL && (tfc_op_lookup("Print")->flags & TFC_OP_STATEFUL));
  CHECK(tfc_op_lookup("Assert") != NULL);
  CHECK(tfc_kernel_exists("Print", "CPU") && tfc_kernel_exists("Assert", "CPU"));
}

/* ------------------------------------------------ through graph + session */

#include "graph/graph.h"
#include "runtime/session.h"

TFC_TEST(logging_print_through_session_log) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_graph *g = tfc_graph_new();
  tfc_attrs a;
  tfc_attrs_init(&a);
  int64_t v5 = 5;
  const double vals[5] = {1, 2, 3, 4, 5};
  tfc_attr_value av = {.kind = TFC_ATTR_TENSOR, .v.tensor = make(TFC_DTYPE_INT32, 1, &v5, vals)};
  tfc_attrs_set(&a, "value", &av, &st);
  av = tfc_attr_type(TFC_DTYPE_INT32);
  tfc_attrs_set(&a, "dtype", &av, &st);
  tfc_node_request rq = {.op_type = "Const", .name = "x", .n_args = 0, .attrs = &a};
  tfc_node *x = tfc_graph_add_node(g, &rq, &st);
  tfc_attrs_destroy(&a);
  CHECK(x != NULL);
  tfc_attrs_init(&a);
  av = tfc_attr_string("portion is", 10);
  tfc_attrs_set(&a, "message", &av, &st);
  int sizes[2] = {1, 1};
  tfc_endpoint in[2] = {{x->id, 0}, {x->id, 0}};
  tfc_node_request rp = {.op_type = "Print", .name = "p", .n_args = 2, .arg_sizes = sizes,
                         .inputs = in, .attrs = &a};
  tfc_node *p = tfc_graph_add_node(g, &rp, &st);
  tfc_attrs_destroy(&a);
  CHECK_STATUS_OK(&st);
  tfc_strbuf log;
  tfc_strbuf_init(&log);
  tfc_session_options opts = {.inter_op_threads = 1, .intra_op_threads = 1, .n_cpu_devices = 1,
                              .log = capture_log, .log_ctx = &log};
  tfc_session *s = tfc_session_new(g, &opts, &st);
  tfc_endpoint f = {p->id, 0};
  tfc_plan *plan = tfc_session_plan(s, 0, NULL, 1, &f, 0, NULL, &st);
  CHECK_STATUS_OK(&st);
  tfc_tensor *out = NULL;
  CHECK(tfc_session_run(s, plan, NULL, &out, &st));
  CHECK(out && out->nelems == 5 && ((int32_t *)out->data)[4] == 5);
  tfc_tensor_unref(out);
  CHECK(strcmp(tfc_strbuf_cstr(&log), "portion is[1 2 3...]\n") == 0);
  tfc_session_free(s);
  tfc_graph_unref(g);
  tfc_strbuf_free(&log);
}

TFC_TEST(logging_print_oom_is_a_status) {
  lk k;
  CHECK(lk_make(&k, "Print", "msg", -1, 3));
  int64_t v5 = 5;
  const double vals[5] = {1, 2, 3, 4, 5};
  k.in[0] = make(TFC_DTYPE_INT32, 1, &v5, vals);
  k.in[1] = make(TFC_DTYPE_INT32, 1, &v5, vals);
  k.n_in = 2;
  tfc_alloc_fail_after(1);
  bool ok = lk_run(&k, "Print");
  tfc_alloc_fail_after(0);
  CHECK(!ok);
  CHECK_CODE(&k.st, TFC_CODE_RESOURCE_EXHAUSTED);
  CHECK(strcmp(tfc_strbuf_cstr(&k.log), "") == 0);
  lk_free(&k);
}
