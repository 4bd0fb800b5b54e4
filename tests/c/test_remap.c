/*
 * test_remap.c — the plan-level convolution fusion (runtime/remap.c): which
 * chains become _FusedConv2D / _FusedDepthwiseConv2dNative, the
 * single-consumer and fetched-intermediate rules, the residual Add,
 * constant-weight marking, and fused results against the unfused plan
 * through a session.
 */
#include <stdlib.h>
#include <string.h>

#include "graph/subgraph.h"
#include "harness.h"
#include "kernels/conv_internal.h"
#include "runtime/remap.h"
#include "runtime/session.h"

/* Adds a float Const of the given dims filled with a small pattern. */
static int rconst(tfc_graph *g, const char *name, int rank, const int64_t *dims, float base,
                  tfc_status *st) {
  tfc_tensor *t = tfc_tensor_new(TFC_DTYPE_FLOAT, rank, dims, st);
  if (!t) return -1;
  float *d = t->data;
  for (int64_t i = 0; i < t->nelems; i++) d[i] = base + 0.1f * (float)((i * 7) % 11) - 0.5f;
  tfc_attrs attrs;
  tfc_attrs_init(&attrs);
  tfc_attr_value tv = {.kind = TFC_ATTR_TENSOR, .v.tensor = t};
  tfc_attrs_set(&attrs, "value", &tv, st);
  tfc_attr_value dt = tfc_attr_type(TFC_DTYPE_FLOAT);
  tfc_attrs_set(&attrs, "dtype", &dt, st);
  tfc_node_request req = {.op_type = "Const", .name = name, .n_args = 0, .attrs = &attrs};
  tfc_node *n = tfc_graph_add_node(g, &req, st);
  tfc_attrs_destroy(&attrs);
  return n ? n->id : -1;
}

/* Adds a node with one input per arg and string attrs k=v pairs (NULL-ended). */
static int rnode(tfc_graph *g, const char *op, const char *name, int n_in, const int *in,
                 const char *const *sattrs, tfc_status *st) {
  tfc_attrs attrs;
  tfc_attrs_init(&attrs);
  for (int k = 0; sattrs && sattrs[k]; k += 2) {
    tfc_attr_value v = tfc_attr_string(sattrs[k + 1], strlen(sattrs[k + 1]));
    tfc_attrs_set(&attrs, sattrs[k], &v, st);
  }
  if (strcmp(op, "Conv2D") == 0 || strcmp(op, "DepthwiseConv2dNative") == 0) {
    tfc_attr_value s = tfc_attr_list_new(TFC_ATTR_I, 4);
    for (int k = 0; k < 4; k++) s.v.list.v.i[k] = 1;
    tfc_attrs_set(&attrs, "strides", &s, st);
  }
  if (strncmp(op, "FusedBatchNorm", 14) == 0) {
    tfc_attr_value f = tfc_attr_bool(false);
    tfc_attrs_set(&attrs, "is_training", &f, st);
  }
  int sizes[5] = {1, 1, 1, 1, 1};
  tfc_endpoint eps[5];
  for (int k = 0; k < n_in; k++) eps[k] = (tfc_endpoint){in[k], 0};
  tfc_node_request req = {.op_type = op, .name = name, .n_args = n_in, .arg_sizes = sizes,
                          .inputs = eps, .attrs = &attrs};
  tfc_node *n = tfc_graph_add_node(g, &req, st);
  tfc_attrs_destroy(&attrs);
  return n ? n->id : -1;
}

typedef struct chain {
  tfc_graph *g;
  int x, w, conv, bias, bn, act;
  int res, add;   /* residual chains only, else -1 */
} chain;

/* x(const) -> Conv2D(w const) -> BiasAdd -> FusedBatchNormV3 -> Relu6. */
static bool make_chain(chain *c, const char *conv_op, tfc_status *st) {
  c->res = c->add = -1;
  static const char *const pad[] = {"padding", "SAME", NULL};
  c->g = tfc_graph_new();
  int64_t xd[4] = {2, 5, 5, 3}, wd[4] = {3, 3, 3, 2}, vd[1] = {strcmp(conv_op, "Conv2D") ? 6 : 2};
  c->x = rconst(c->g, "x", 4, xd, 0.0f, st);
  c->w = rconst(c->g, "w", 4, wd, 0.1f, st);
  int in[5] = {c->x, c->w};
  c->conv = rnode(c->g, conv_op, "conv", 2, in, pad, st);
  in[0] = c->conv;
  in[1] = rconst(c->g, "b", 1, vd, 0.2f, st);
  c->bias = rnode(c->g, "BiasAdd", "bias", 2, in, NULL, st);
  in[0] = c->bias;
  in[1] = rconst(c->g, "scale", 1, vd, 1.0f, st);
  in[2] = rconst(c->g, "offset", 1, vd, 0.0f, st);
  in[3] = rconst(c->g, "mean", 1, vd, 0.1f, st);
  in[4] = rconst(c->g, "var", 1, vd, 1.5f, st);
  c->bn = rnode(c->g, "FusedBatchNormV3", "bn", 5, in, NULL, st);
  in[0] = c->bn;
  c->act = rnode(c->g, "Relu6", "act", 1, in, NULL, st);
  return st->code == TFC_CODE_OK && c->act >= 0;
}

/* Conv2D -> BiasAdd -> FusedBatchNormV3 -> AddV2(., res) -> Relu6, where
 * res = Neg(Const of rdims) (not a Const itself: the weights stay marked
 * constant all the same); res_first puts the residual as the Add's first
 * operand. */
static bool make_res_chain(chain *c, const int64_t *rdims, bool res_first, tfc_status *st) {
  static const char *const pad[] = {"padding", "SAME", NULL};
  c->g = tfc_graph_new();
  int64_t xd[4] = {2, 5, 5, 3}, wd[4] = {3, 3, 3, 2}, vd[1] = {2};
  c->x = rconst(c->g, "x", 4, xd, 0.0f, st);
  c->w = rconst(c->g, "w", 4, wd, 0.1f, st);
  int in[5] = {c->x, c->w};
  c->conv = rnode(c->g, "Conv2D", "conv", 2, in, pad, st);
  in[0] = c->conv;
  in[1] = rconst(c->g, "b", 1, vd, 0.2f, st);
  c->bias = rnode(c->g, "BiasAdd", "bias", 2, in, NULL, st);
  in[0] = c->bias;
  in[1] = rconst(c->g, "scale", 1, vd, 1.0f, st);
  in[2] = rconst(c->g, "offset", 1, vd, 0.0f, st);
  in[3] = rconst(c->g, "mean", 1, vd, 0.1f, st);
  in[4] = rconst(c->g, "var", 1, vd, 1.5f, st);
  c->bn = rnode(c->g, "FusedBatchNormV3", "bn", 5, in, NULL, st);
  in[0] = rconst(c->g, "r", 4, rdims, 0.3f, st);
  c->res = rnode(c->g, "Neg", "res", 1, in, NULL, st);
  in[0] = res_first ? c->res : c->bn;
  in[1] = res_first ? c->bn : c->res;
  c->add = rnode(c->g, "AddV2", "add", 2, in, NULL, st);
  in[0] = c->add;
  c->act = rnode(c->g, "Relu6", "act", 1, in, NULL, st);
  return st->code == TFC_CODE_OK && c->act >= 0;
}

static const char *const k_dev_names[1] = {"/job:localhost/replica:0/task:0/device:CPU:0"};

/* Builds and remaps the subgraph for the fetches; returns the op-type count
 * of `op` in the (single) partition, or -1 on failure. */
static int remapped_count(tfc_graph *g, int n_fetches, const tfc_endpoint *fetches, bool fuse,
                          const char *op, bool *const_marked) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_device_name parsed;
  if (!tfc_device_name_parse(k_dev_names[0], &parsed, &st)) return -1;
  tfc_device_set ds = {.n = 1, .names = k_dev_names, .parsed = &parsed};
  tfc_subgraph sg;
  if (!tfc_subgraph_build(g, 0, NULL, n_fetches, fetches, 0, NULL, &ds, &sg, &st)) return -1;
  if (!tfc_remap_subgraph(&sg, fuse, &st)) {
    tfc_subgraph_free(&sg);
    return -1;
  }
  int count = 0;
  *const_marked = false;
  for (int i = 0; i < sg.parts[0].n; i++) {
    const tfc_snode *s = &sg.parts[0].nodes[i];
    if (strcmp(s->def->name, op) == 0) {
      count++;
      const tfc_attr_value *v = tfc_attrs_find(s->attrs, TFC_CONV_CONST_ATTR);
      *const_marked |= v && v->kind == TFC_ATTR_B && v->v.b;
    }
    for (int k = 0; k < s->n_inputs; k++)
      if (s->inputs[k].src >= sg.parts[0].n) count = -1000; /* dangling after compaction */
  }
  for (int f = 0; f < n_fetches; f++)
    if (sg.fetches[f].snode < 0 || sg.fetches[f].snode >= sg.parts[0].n) count = -1000;
  tfc_subgraph_free(&sg);
  return count;
}

TFC_TEST(remap_fuses_conv_bias_bn_relu6) {
  tfc_status st;
  tfc_status_clear(&st);
  chain c;
  CHECK(make_chain(&c, "Conv2D", &st));
  tfc_endpoint f = {c.act, 0};
  bool marked;
  CHECK_EQ_INT(remapped_count(c.g, 1, &f, true, "_FusedConv2D", &marked), 1);
  CHECK(marked);
  CHECK_EQ_INT(remapped_count(c.g, 1, &f, true, "Conv2D", &marked), 0);
  CHECK_EQ_INT(remapped_count(c.g, 1, &f, true, "Relu6", &marked), 0);
  /* fusion off: the conv stays, but its constant filter is still marked */
  CHECK_EQ_INT(remapped_count(c.g, 1, &f, false, "Conv2D", &marked), 1);
  CHECK(marked);
  tfc_graph_unref(c.g);
}

TFC_TEST(remap_fuses_depthwise) {
  tfc_status st;
  tfc_status_clear(&st);
  chain c;
  CHECK(make_chain(&c, "DepthwiseConv2dNative", &st));
  tfc_endpoint f = {c.act, 0};
  bool marked;
  CHECK_EQ_INT(remapped_count(c.g, 1, &f, true, "_FusedDepthwiseConv2dNative", &marked), 1);
  CHECK(marked);
  tfc_graph_unref(c.g);
}

TFC_TEST(remap_fetched_intermediates_stop_fusion) {
  tfc_status st;
  tfc_status_clear(&st);
  chain c;
  CHECK(make_chain(&c, "Conv2D", &st));
  bool marked;
  /* the BatchNorm output fetched: conv+bias+bn fuse (named bn), Relu6 stays */
  tfc_endpoint f2[2] = {{c.act, 0}, {c.bn, 0}};
  CHECK_EQ_INT(remapped_count(c.g, 2, f2, true, "_FusedConv2D", &marked), 1);
  CHECK_EQ_INT(remapped_count(c.g, 2, f2, true, "Relu6", &marked), 1);
  /* the BiasAdd output fetched: conv+bias fuse, BN and Relu6 stay */
  tfc_endpoint f3[2] = {{c.act, 0}, {c.bias, 0}};
  CHECK_EQ_INT(remapped_count(c.g, 2, f3, true, "FusedBatchNormV3", &marked), 1);
  CHECK_EQ_INT(remapped_count(c.g, 2, f3, true, "_FusedConv2D", &marked), 1);
  /* the conv output fetched: nothing fuses */
  tfc_endpoint f4[2] = {{c.act, 0}, {c.conv, 0}};
  CHECK_EQ_INT(remapped_count(c.g, 2, f4, true, "_FusedConv2D", &marked), 0);
  CHECK_EQ_INT(remapped_count(c.g, 2, f4, true, "Conv2D", &marked), 1);
  /* a second batch-norm output fetched: the BN cannot fuse */
  tfc_endpoint f5[2] = {{c.act, 0}, {c.bn, 1}};
  CHECK_EQ_INT(remapped_count(c.g, 2, f5, true, "FusedBatchNormV3", &marked), 1);
  tfc_graph_unref(c.g);
}

TFC_TEST(remap_second_consumer_stops_fusion) {
  tfc_status st;
  tfc_status_clear(&st);
  chain c;
  CHECK(make_chain(&c, "Conv2D", &st));
  int in[2] = {c.conv, c.conv};
  int sum = rnode(c.g, "AddV2", "sum", 2, in, NULL, &st);
  CHECK_STATUS_OK(&st);
  tfc_endpoint f[2] = {{c.act, 0}, {sum, 0}};
  bool marked;
  CHECK_EQ_INT(remapped_count(c.g, 2, f, true, "_FusedConv2D", &marked), 0);
  CHECK_EQ_INT(remapped_count(c.g, 2, f, true, "Conv2D", &marked), 1);
  tfc_graph_unref(c.g);
}

TFC_TEST(remap_fuses_residual_add) {
  int64_t same[4] = {2, 5, 5, 2};
  for (int first = 0; first < 2; first++) {
    tfc_status st;
    tfc_status_clear(&st);
    chain c;
    CHECK(make_res_chain(&c, same, first, &st));
    bool marked;
    tfc_endpoint f = {c.act, 0};
    CHECK_EQ_INT(remapped_count(c.g, 1, &f, true, "_FusedConv2D", &marked), 1);
    CHECK(marked);
    CHECK_EQ_INT(remapped_count(c.g, 1, &f, true, "AddV2", &marked), 0);
    CHECK_EQ_INT(remapped_count(c.g, 1, &f, true, "Relu6", &marked), 0);
    CHECK_EQ_INT(remapped_count(c.g, 1, &f, true, "Neg", &marked), 1);
    CHECK_EQ_INT(remapped_count(c.g, 1, &f, false, "AddV2", &marked), 1);
    /* the residual fetched too: it is only read, the chain still fuses */
    tfc_endpoint f2[2] = {{c.act, 0}, {c.res, 0}};
    CHECK_EQ_INT(remapped_count(c.g, 2, f2, true, "_FusedConv2D", &marked), 1);
    CHECK_EQ_INT(remapped_count(c.g, 2, f2, true, "AddV2", &marked), 0);
    /* the sum fetched: conv..add fuse (named add), the Relu6 stays */
    tfc_endpoint f3[2] = {{c.act, 0}, {c.add, 0}};
    CHECK_EQ_INT(remapped_count(c.g, 2, f3, true, "_FusedConv2D", &marked), 1);
    CHECK_EQ_INT(remapped_count(c.g, 2, f3, true, "AddV2", &marked), 0);
    CHECK_EQ_INT(remapped_count(c.g, 2, f3, true, "Relu6", &marked), 1);
    /* the batch norm fetched: the Add and Relu6 stay */
    tfc_endpoint f4[2] = {{c.act, 0}, {c.bn, 0}};
    CHECK_EQ_INT(remapped_count(c.g, 2, f4, true, "_FusedConv2D", &marked), 1);
    CHECK_EQ_INT(remapped_count(c.g, 2, f4, true, "AddV2", &marked), 1);
    tfc_graph_unref(c.g);
  }
}

TFC_TEST(remap_broadcasting_add_not_fused) {
  tfc_status st;
  tfc_status_clear(&st);
  chain c;
  int64_t bcast[4] = {1, 1, 1, 2};
  CHECK(make_res_chain(&c, bcast, false, &st));
  bool marked;
  tfc_endpoint f = {c.act, 0};
  CHECK_EQ_INT(remapped_count(c.g, 1, &f, true, "_FusedConv2D", &marked), 1);
  CHECK_EQ_INT(remapped_count(c.g, 1, &f, true, "AddV2", &marked), 1);
  tfc_graph_unref(c.g);
}

/* Runs the chain's fetch through a session with fusion on or off. */
static tfc_tensor *run_chain(tfc_graph *g, int fetch, const char *fusion, tfc_status *st) {
  setenv("TFC_FUSION", fusion, 1);
  tfc_session_options opts = {.inter_op_threads = 1, .intra_op_threads = 1, .n_cpu_devices = 1};
  tfc_session *s = tfc_session_new(g, &opts, st);
  if (!s) return NULL;
  tfc_endpoint f = {fetch, 0};
  tfc_tensor *out = NULL;
  tfc_plan *p = tfc_session_plan(s, 0, NULL, 1, &f, 0, NULL, st);
  if (p && !tfc_session_run(s, p, NULL, &out, st)) out = NULL;
  tfc_session_free(s);
  unsetenv("TFC_FUSION");
  return out;
}

TFC_TEST(remap_fused_results_match_unfused) {
  const char *ops[2] = {"Conv2D", "DepthwiseConv2dNative"};
  for (int k = 0; k < 2; k++) {
    tfc_status st;
    tfc_status_clear(&st);
    chain c;
    CHECK(make_chain(&c, ops[k], &st));
    tfc_tensor *a = run_chain(c.g, c.act, "1", &st);
    CHECK_STATUS_OK(&st);
    tfc_tensor *b = run_chain(c.g, c.act, "0", &st);
    CHECK_STATUS_OK(&st);
    CHECK(a && b && a->nelems == b->nelems && a->nelems > 0);
    const float *x = a->data, *y = b->data;
    for (int64_t i = 0; i < a->nelems; i++) CHECK_NEAR(x[i], y[i], 1e-4);
    tfc_tensor_unref(a);
    tfc_tensor_unref(b);
    tfc_graph_unref(c.g);
  }
}

TFC_TEST(remap_fused_residual_matches_unfused) {
  int64_t same[4] = {2, 5, 5, 2};
  tfc_status st;
  tfc_status_clear(&st);
  chain c;
  CHECK(make_res_chain(&c, same, true, &st));
  tfc_tensor *a = run_chain(c.g, c.act, "1", &st);
  CHECK_STATUS_OK(&st);
  tfc_tensor *b = run_chain(c.g, c.act, "0", &st);
  CHECK_STATUS_OK(&st);
  CHECK(a && b && a->nelems == b->nelems && a->nelems > 0);
  const float *x = a->data, *y = b->data;
  for (int64_t i = 0; i < a->nelems; i++) CHECK_NEAR(x[i], y[i], 1e-4);
  tfc_tensor_unref(a);
  tfc_tensor_unref(b);
  tfc_graph_unref(c.g);
}
