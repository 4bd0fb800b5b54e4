/*
 * test_control_flow.c — the executor's version-1 control flow: Switch/Merge
 * conditionals with dead branches, while loops built from Enter, Merge,
 * Switch, NextIteration, Exit and LoopCond (parallel iterations, loop
 * invariants, nested frames), and the errors: inconsistent frames, a fetched
 * dead tensor, a loop that never ends stopped by its deadline.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "graph/graph.h"
#include "harness.h"
#include "runtime/session.h"

/* Adds a scalar Const of dtype (value read from v); returns its id or -1. */
static int cconst(tfc_graph *g, const char *name, tfc_dtype dtype, const void *v, tfc_status *st) {
  tfc_attrs attrs;
  tfc_attrs_init(&attrs);
  tfc_tensor *t = tfc_tensor_scalar(dtype, v, st);
  tfc_attr_value tv = {.kind = TFC_ATTR_TENSOR, .v.tensor = t};
  tfc_attrs_set(&attrs, "value", &tv, st);
  tfc_attr_value dt = tfc_attr_type(dtype);
  tfc_attrs_set(&attrs, "dtype", &dt, st);
  tfc_node_request req = {.op_type = "Const", .name = name, .n_args = 0, .attrs = &attrs};
  tfc_node *n = tfc_graph_add_node(g, &req, st);
  tfc_attrs_destroy(&attrs);
  return n ? n->id : -1;
}

/* Adds a node whose args are single tensors (or one list arg of n_in tensors
 * when list is true); control inputs from ctl (n_ctl); returns its id or -1. */
static int op(tfc_graph *g, const char *type, const char *name, int n_in, const tfc_endpoint *in, bool list,
              int n_ctl, const int *ctl, tfc_attrs *attrs, tfc_status *st) {
  int sizes[8];
  int n_args = list ? 1 : n_in;
  for (int i = 0; i < n_args; i++) sizes[i] = list ? n_in : 1;
  tfc_attrs empty;
  tfc_attrs_init(&empty);
  tfc_node_request req = {.op_type = type, .name = name, .n_args = n_args, .arg_sizes = sizes, .inputs = in,
                          .n_control = n_ctl, .control_inputs = ctl, .attrs = attrs ? attrs : &empty};
  tfc_node *n = tfc_graph_add_node(g, &req, st);
  tfc_attrs_destroy(&empty);
  return n ? n->id : -1;
}

/* Adds Enter(x) into frame; returns its id or -1. */
static int enter(tfc_graph *g, const char *name, int x, const char *frame, bool is_constant, int par,
                 tfc_status *st) {
  tfc_attrs a;
  tfc_attrs_init(&a);
  tfc_attr_value fv = tfc_attr_string(frame, strlen(frame));
  tfc_attrs_set(&a, "frame_name", &fv, st);
  tfc_attr_value cv = tfc_attr_bool(is_constant);
  tfc_attrs_set(&a, "is_constant", &cv, st);
  tfc_attr_value pv = tfc_attr_int(par);
  tfc_attrs_set(&a, "parallel_iterations", &pv, st);
  tfc_endpoint in[1] = {{x, 0}};
  int id = op(g, "Enter", name, 1, in, false, 0, NULL, &a, st);
  tfc_attrs_destroy(&a);
  return id;
}

/* Runs fetches (no feeds unless given) and returns the status code. */
static tfc_code run(tfc_session *s, int n_feeds, const tfc_endpoint *feeds, tfc_tensor *const *fv, int n_fetch,
                    const tfc_endpoint *fetches, tfc_tensor **out, int64_t timeout_ms, tfc_status *st) {
  tfc_status_clear(st);
  tfc_plan *p = tfc_session_plan(s, n_feeds, feeds, n_fetch, fetches, 0, NULL, st);
  if (!p && getenv("TFC_CF_DEBUG")) fprintf(stderr, "plan: %s\n", st->msg);
  if (!p) return st->code;
  tfc_session_run_timeout(s, p, fv, out, timeout_ms, st);
  if (st->code != TFC_CODE_OK && getenv("TFC_CF_DEBUG")) fprintf(stderr, "run: %s\n", st->msg);
  return st->code;
}

TFC_TEST(cf_switch_merge_cond) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_graph *g = tfc_graph_new();
  float three = 3.0f, ten = 10.0f;
  bool yes = true;
  int x = cconst(g, "x", TFC_DTYPE_FLOAT, &three, &st);
  int k = cconst(g, "k", TFC_DTYPE_FLOAT, &ten, &st);
  int pd = cconst(g, "pred", TFC_DTYPE_BOOL, &yes, &st);
  tfc_endpoint sw_in[2] = {{x, 0}, {pd, 0}};
  int sw = op(g, "Switch", "cond/Switch", 2, sw_in, false, 0, NULL, NULL, &st);
  tfc_endpoint f_in[2] = {{sw, 0}, {k, 0}};
  int fb = op(g, "Mul", "cond/false", 2, f_in, false, 0, NULL, NULL, &st);
  tfc_endpoint t_in[2] = {{sw, 1}, {k, 0}};
  int tb = op(g, "AddV2", "cond/true", 2, t_in, false, 0, NULL, NULL, &st);
  tfc_endpoint m_in[2] = {{fb, 0}, {tb, 0}};
  int m = op(g, "Merge", "cond/Merge", 2, m_in, true, 0, NULL, NULL, &st);
  /* a node after the dead branch, gated by a control edge: dead too */
  int after = op(g, "NoOp", "after_false", 0, NULL, false, 1, &fb, NULL, &st);
  int trig = op(g, "ControlTrigger", "trigger", 0, NULL, false, 1, &fb, NULL, &st);
  CHECK_STATUS_OK(&st);
  (void)after;
  (void)trig;
  tfc_session_options opts = {.inter_op_threads = 2, .intra_op_threads = 1, .n_cpu_devices = 1};
  tfc_session *s = tfc_session_new(g, &opts, &st);
  CHECK(s != NULL);
  tfc_endpoint fetch[2] = {{m, 0}, {m, 1}};
  tfc_tensor *out[2] = {NULL, NULL};
  CHECK_EQ_INT(run(s, 0, NULL, NULL, 2, fetch, out, 0, &st), TFC_CODE_OK);
  CHECK_NEAR(*(float *)out[0]->data, 13.0, 0);
  CHECK_EQ_INT(*(int32_t *)out[1]->data, 1);
  tfc_tensor_unref(out[0]);
  tfc_tensor_unref(out[1]);
  /* feeding pred = false takes the other branch */
  bool no = false;
  tfc_tensor *pf = tfc_tensor_scalar(TFC_DTYPE_BOOL, &no, &st);
  tfc_endpoint feeds[1] = {{pd, 0}};
  CHECK_EQ_INT(run(s, 1, feeds, &pf, 2, fetch, out, 0, &st), TFC_CODE_OK);
  CHECK_NEAR(*(float *)out[0]->data, 30.0, 0);
  CHECK_EQ_INT(*(int32_t *)out[1]->data, 0);
  tfc_tensor_unref(out[0]);
  tfc_tensor_unref(out[1]);
  tfc_tensor_unref(pf);
  /* fetching the dead branch is an error; the ControlTrigger runs anyway */
  tfc_endpoint dead[1] = {{fb, 0}};
  tfc_tensor *o1 = NULL;
  CHECK_EQ_INT(run(s, 0, NULL, NULL, 1, dead, &o1, 0, &st), TFC_CODE_INVALID_ARGUMENT);
  CHECK(strstr(st.msg, "does not have value") != NULL);
  CHECK(o1 == NULL);
  tfc_status_clear(&st);
  tfc_plan *p = tfc_session_plan(s, 0, NULL, 0, NULL, 1, &trig, &st);
  CHECK(p != NULL);
  CHECK(tfc_session_run(s, p, NULL, NULL, &st));
  /* a non-scalar predicate fails at run time with TF's message */
  tfc_session_free(s);
  tfc_graph_unref(g);
}

/* Builds `i = start; while i < limit: i = i + step` in frame "while"; returns
 * the Exit node. Every loop op gets prefix pfx. */
static int build_loop(tfc_graph *g, const char *pfx, int start, int limit, int step, int par, tfc_status *st) {
  char nm[64];
#define NM(s) (snprintf(nm, sizeof nm, "%s/%s", pfx, s), nm)
  char frame[64];
  snprintf(frame, sizeof frame, "%s/while_context", pfx);
  int e = enter(g, NM("Enter"), start, frame, false, par, st);
  int el = enter(g, NM("Enter_limit"), limit, frame, true, par, st);
  int es = enter(g, NM("Enter_step"), step, frame, true, par, st);
  tfc_endpoint m_in[2] = {{e, 0}, {e, 0}};
  int m = op(g, "Merge", NM("Merge"), 2, m_in, true, 0, NULL, NULL, st);
  tfc_endpoint lt_in[2] = {{m, 0}, {el, 0}};
  int lt = op(g, "Less", NM("Less"), 2, lt_in, false, 0, NULL, NULL, st);
  tfc_endpoint lc_in[1] = {{lt, 0}};
  int lc = op(g, "LoopCond", NM("LoopCond"), 1, lc_in, false, 0, NULL, NULL, st);
  tfc_endpoint sw_in[2] = {{m, 0}, {lc, 0}};
  int sw = op(g, "Switch", NM("Switch"), 2, sw_in, false, 0, NULL, NULL, st);
  tfc_endpoint id_in[1] = {{sw, 1}};
  int id = op(g, "Identity", NM("Identity"), 1, id_in, false, 0, NULL, NULL, st);
  tfc_endpoint add_in[2] = {{id, 0}, {es, 0}};
  int add = op(g, "AddV2", NM("add"), 2, add_in, false, 0, NULL, NULL, st);
  tfc_endpoint ni_in[1] = {{add, 0}};
  int ni = op(g, "NextIteration", NM("NextIteration"), 1, ni_in, false, 0, NULL, NULL, st);
  tfc_endpoint ex_in[1] = {{sw, 0}};
  int ex = op(g, "Exit", NM("Exit"), 1, ex_in, false, 0, NULL, NULL, st);
  if (st->code != TFC_CODE_OK) return -1;
  if (!tfc_node_update_input(g, tfc_graph_node(g, m), 1, (tfc_endpoint){ni, 0}, st)) return -1;
#undef NM
  return ex;
}

TFC_TEST(cf_while_loop_counts) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_graph *g = tfc_graph_new();
  int32_t zero = 0, lim = 1000, one = 1, big = 2000000000;
  int z = cconst(g, "zero", TFC_DTYPE_INT32, &zero, &st);
  int l = cconst(g, "limit", TFC_DTYPE_INT32, &lim, &st);
  int o = cconst(g, "one", TFC_DTYPE_INT32, &one, &st);
  int b = cconst(g, "big", TFC_DTYPE_INT32, &big, &st);
  int ex1 = build_loop(g, "w1", z, l, o, 10, &st);
  int ex2 = build_loop(g, "w2", z, l, o, 1, &st);
  int ex3 = build_loop(g, "w3", z, b, o, 32, &st);
  CHECK_STATUS_OK(&st);
  /* the back edge's dtype must match */
  float f = 1.0f;
  int fc = cconst(g, "fconst", TFC_DTYPE_FLOAT, &f, &st);
  CHECK(!tfc_node_update_input(g, tfc_graph_find(g, "w1/Merge"), 1, (tfc_endpoint){fc, 0}, &st));
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  tfc_status_clear(&st);
  tfc_session_options opts = {.inter_op_threads = 2, .intra_op_threads = 1, .n_cpu_devices = 1};
  tfc_session *s = tfc_session_new(g, &opts, &st);
  tfc_endpoint fetch[2] = {{ex1, 0}, {ex2, 0}};
  tfc_tensor *out[2] = {NULL, NULL};
  for (int rep = 0; rep < 3; rep++) {
    CHECK_EQ_INT(run(s, 0, NULL, NULL, 2, fetch, out, 0, &st), TFC_CODE_OK);
    CHECK_EQ_INT(*(int32_t *)out[0]->data, 1000);
    CHECK_EQ_INT(*(int32_t *)out[1]->data, 1000);
    tfc_tensor_unref(out[0]);
    tfc_tensor_unref(out[1]);
  }
  /* feeding the start value (a zero-iteration loop) */
  int32_t start = 5000;
  tfc_tensor *sv = tfc_tensor_scalar(TFC_DTYPE_INT32, &start, &st);
  tfc_endpoint feeds[1] = {{z, 0}};
  CHECK_EQ_INT(run(s, 1, feeds, &sv, 1, fetch, out, 0, &st), TFC_CODE_OK);
  CHECK_EQ_INT(*(int32_t *)out[0]->data, 5000);
  tfc_tensor_unref(out[0]);
  tfc_tensor_unref(sv);
  /* a loop that (practically) never ends stops at its deadline */
  tfc_endpoint f3[1] = {{ex3, 0}};
  tfc_tensor *o3 = NULL;
  CHECK_EQ_INT(run(s, 0, NULL, NULL, 1, f3, &o3, 50, &st), TFC_CODE_DEADLINE_EXCEEDED);
  CHECK(o3 == NULL);
  tfc_session_free(s);
  tfc_graph_unref(g);
}

TFC_TEST(cf_nested_loops_and_cond_in_loop) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_graph *g = tfc_graph_new();
  int32_t zero = 0, three = 3, four = 4, one = 1;
  int z = cconst(g, "zero", TFC_DTYPE_INT32, &zero, &st);
  int n3 = cconst(g, "three", TFC_DTYPE_INT32, &three, &st);
  int n4 = cconst(g, "four", TFC_DTYPE_INT32, &four, &st);
  int o = cconst(g, "one", TFC_DTYPE_INT32, &one, &st);
  /* outer: (i, acc) with i < 3; body runs an inner loop j < 4 adding 1 to acc */
  const char *F = "outer";
  int ei = enter(g, "o/Enter_i", z, F, false, 10, &st);
  int ea = enter(g, "o/Enter_acc", z, F, false, 10, &st);
  int e3 = enter(g, "o/Enter_3", n3, F, true, 10, &st);
  int eo = enter(g, "o/Enter_1", o, F, true, 10, &st);
  int e4 = enter(g, "o/Enter_4", n4, F, true, 10, &st);
  tfc_endpoint mi_in[2] = {{ei, 0}, {ei, 0}}, ma_in[2] = {{ea, 0}, {ea, 0}};
  int mi = op(g, "Merge", "o/Merge_i", 2, mi_in, true, 0, NULL, NULL, &st);
  int ma = op(g, "Merge", "o/Merge_acc", 2, ma_in, true, 0, NULL, NULL, &st);
  tfc_endpoint lt_in[2] = {{mi, 0}, {e3, 0}};
  int lt = op(g, "Less", "o/Less", 2, lt_in, false, 0, NULL, NULL, &st);
  tfc_endpoint lc_in[1] = {{lt, 0}};
  int lc = op(g, "LoopCond", "o/LoopCond", 1, lc_in, false, 0, NULL, NULL, &st);
  tfc_endpoint si_in[2] = {{mi, 0}, {lc, 0}}, sa_in[2] = {{ma, 0}, {lc, 0}};
  int si = op(g, "Switch", "o/Switch_i", 2, si_in, false, 0, NULL, NULL, &st);
  int sa = op(g, "Switch", "o/Switch_acc", 2, sa_in, false, 0, NULL, NULL, &st);
  tfc_endpoint ii_in[1] = {{si, 1}}, ia_in[1] = {{sa, 1}};
  int ii = op(g, "Identity", "o/Identity_i", 1, ii_in, false, 0, NULL, NULL, &st);
  int ia = op(g, "Identity", "o/Identity_acc", 1, ia_in, false, 0, NULL, NULL, &st);
  /* inner loop over (j, acc) */
  const char *G = "o/inner";
  int zz = cconst(g, "o/zero_in", TFC_DTYPE_INT32, &zero, &st);
  int ctl_ii = ii;
  CHECK_STATUS_OK(&st);
  tfc_node_add_control_input(tfc_graph_node(g, zz), ctl_ii, &st);
  int ej = enter(g, "o/inner/Enter_j", zz, G, false, 10, &st);
  int eacc = enter(g, "o/inner/Enter_acc", ia, G, false, 10, &st);
  int e4i = enter(g, "o/inner/Enter_4", e4, G, true, 10, &st);
  int e1i = enter(g, "o/inner/Enter_1", eo, G, true, 10, &st);
  tfc_endpoint mj_in[2] = {{ej, 0}, {ej, 0}}, mac_in[2] = {{eacc, 0}, {eacc, 0}};
  int mj = op(g, "Merge", "o/inner/Merge_j", 2, mj_in, true, 0, NULL, NULL, &st);
  int mac = op(g, "Merge", "o/inner/Merge_acc", 2, mac_in, true, 0, NULL, NULL, &st);
  tfc_endpoint lt2_in[2] = {{mj, 0}, {e4i, 0}};
  int lt2 = op(g, "Less", "o/inner/Less", 2, lt2_in, false, 0, NULL, NULL, &st);
  tfc_endpoint lc2_in[1] = {{lt2, 0}};
  int lc2 = op(g, "LoopCond", "o/inner/LoopCond", 1, lc2_in, false, 0, NULL, NULL, &st);
  tfc_endpoint sj_in[2] = {{mj, 0}, {lc2, 0}}, sac_in[2] = {{mac, 0}, {lc2, 0}};
  int sj = op(g, "Switch", "o/inner/Switch_j", 2, sj_in, false, 0, NULL, NULL, &st);
  int sac = op(g, "Switch", "o/inner/Switch_acc", 2, sac_in, false, 0, NULL, NULL, &st);
  tfc_endpoint aj_in[2] = {{sj, 1}, {e1i, 0}}, aac_in[2] = {{sac, 1}, {e1i, 0}};
  int aj = op(g, "AddV2", "o/inner/add_j", 2, aj_in, false, 0, NULL, NULL, &st);
  int aac = op(g, "AddV2", "o/inner/add_acc", 2, aac_in, false, 0, NULL, NULL, &st);
  tfc_endpoint nj_in[1] = {{aj, 0}}, nac_in[1] = {{aac, 0}};
  int nj = op(g, "NextIteration", "o/inner/Next_j", 1, nj_in, false, 0, NULL, NULL, &st);
  int nac = op(g, "NextIteration", "o/inner/Next_acc", 1, nac_in, false, 0, NULL, NULL, &st);
  tfc_endpoint xj_in[1] = {{sj, 0}}, xac_in[1] = {{sac, 0}};
  int xj = op(g, "Exit", "o/inner/Exit_j", 1, xj_in, false, 0, NULL, NULL, &st);
  int xac = op(g, "Exit", "o/inner/Exit_acc", 1, xac_in, false, 0, NULL, NULL, &st);
  (void)xj;
  CHECK_STATUS_OK(&st);
  tfc_node_update_input(g, tfc_graph_node(g, mj), 1, (tfc_endpoint){nj, 0}, &st);
  tfc_node_update_input(g, tfc_graph_node(g, mac), 1, (tfc_endpoint){nac, 0}, &st);
  /* outer body continues */
  tfc_endpoint ai_in[2] = {{ii, 0}, {eo, 0}};
  int ai = op(g, "AddV2", "o/add_i", 2, ai_in, false, 0, NULL, NULL, &st);
  tfc_endpoint ni_in[1] = {{ai, 0}}, na_in[1] = {{xac, 0}};
  int ni = op(g, "NextIteration", "o/Next_i", 1, ni_in, false, 0, NULL, NULL, &st);
  int na = op(g, "NextIteration", "o/Next_acc", 1, na_in, false, 0, NULL, NULL, &st);
  tfc_endpoint xi_in[1] = {{si, 0}}, xa_in[1] = {{sa, 0}};
  int xi = op(g, "Exit", "o/Exit_i", 1, xi_in, false, 0, NULL, NULL, &st);
  int xa = op(g, "Exit", "o/Exit_acc", 1, xa_in, false, 0, NULL, NULL, &st);
  CHECK_STATUS_OK(&st);
  tfc_node_update_input(g, tfc_graph_node(g, mi), 1, (tfc_endpoint){ni, 0}, &st);
  tfc_node_update_input(g, tfc_graph_node(g, ma), 1, (tfc_endpoint){na, 0}, &st);
  CHECK_STATUS_OK(&st);
  for (int threads = 1; threads <= 2; threads++) {
    tfc_session_options opts = {.inter_op_threads = threads, .intra_op_threads = 1, .n_cpu_devices = 1};
    tfc_session *s = tfc_session_new(g, &opts, &st);
    tfc_endpoint fetch[2] = {{xi, 0}, {xa, 0}};
    tfc_tensor *out[2] = {NULL, NULL};
    for (int rep = 0; rep < 5; rep++) {
      CHECK_EQ_INT(run(s, 0, NULL, NULL, 2, fetch, out, 0, &st), TFC_CODE_OK);
      CHECK_EQ_INT(*(int32_t *)out[0]->data, 3);
      CHECK_EQ_INT(*(int32_t *)out[1]->data, 12);
      tfc_tensor_unref(out[0]);
      tfc_tensor_unref(out[1]);
    }
    tfc_session_free(s);
  }
  tfc_graph_unref(g);
}

TFC_TEST(cf_inconsistent_frames_rejected) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_graph *g = tfc_graph_new();
  int32_t zero = 0, lim = 3, one = 1;
  int z = cconst(g, "zero", TFC_DTYPE_INT32, &zero, &st);
  int l = cconst(g, "limit", TFC_DTYPE_INT32, &lim, &st);
  int o = cconst(g, "one", TFC_DTYPE_INT32, &one, &st);
  int ex = build_loop(g, "w", z, l, o, 10, &st);
  CHECK_STATUS_OK(&st);
  /* an op mixing a tensor inside the loop with one outside (no Enter) */
  tfc_endpoint bad_in[2] = {{tfc_graph_find(g, "w/Identity")->id, 0}, {o, 0}};
  int bad = op(g, "AddV2", "bad", 2, bad_in, false, 0, NULL, NULL, &st);
  CHECK_STATUS_OK(&st);
  (void)ex;
  tfc_session_options opts = {.inter_op_threads = 1, .intra_op_threads = 1, .n_cpu_devices = 1};
  tfc_session *s = tfc_session_new(g, &opts, &st);
  tfc_plan *p = tfc_session_plan(s, 0, NULL, 0, NULL, 1, &bad, &st);
  CHECK(p == NULL);
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  CHECK(strstr(st.msg, "has inputs from different frames") != NULL);
  tfc_session_free(s);
  tfc_graph_unref(g);
}
