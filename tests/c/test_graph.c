/*
 * test_graph.c — adding nodes: type inference, defaults, attr checks, ref
 * inputs, list lengths, shape functions and their errors, names, control
 * inputs, endpoints, chunked storage read concurrently, and out-of-memory
 * injection (a failed add leaves the graph usable). Uses a private op table
 * (ops named Tg*), plus Const (the built-in one, or a private stand-in).
 */
#include <pthread.h>
#include <string.h>

#include "base/alloc.h"
#include "core/op_registry.h"
#include "graph/graph.h"
#include "harness.h"

/* Placeholder-like: output shape is the `shape` attr. */
static bool shape_from_attr(tfc_shape_ctx *ctx) {
  const tfc_attr_value *v = tfc_attrs_find(ctx->attrs, "shape");
  if (v && v->kind == TFC_ATTR_SHAPE) ctx->out_shapes[0] = v->v.shape;
  return true;
}

/* Reshape-like: output shape from the constant input 1 when known. */
static bool shape_reshape(tfc_shape_ctx *ctx) {
  tfc_shape s;
  tfc_shape_from_const_input(ctx, 1, &s);
  ctx->out_shapes[0] = s;
  return true;
}

/* Const-like: output shape is the shape of the `value` tensor. */
static bool shape_const(tfc_shape_ctx *ctx) {
  const tfc_attr_value *v = tfc_attrs_find(ctx->attrs, "value");
  if (v && v->kind == TFC_ATTR_TENSOR) ctx->out_shapes[0] = tfc_tensor_shape(v->v.tensor);
  return true;
}

static const tfc_op_spec k_graph_specs[] = {
    {"TgPlaceholder", "", "output: dtype", "dtype: type; shape: shape = <unknown>", 0, shape_from_attr},
    {"TgAdd", "x: T; y: T", "z: T", "T: {float, double, int32}", TFC_OP_COMMUTATIVE,
     tfc_shape_fn_broadcast},
    {"TgAddN", "inputs: N * T", "sum: T", "N: int >= 1; T: numbertype", 0, tfc_shape_fn_unchanged},
    {"TgVar", "", "ref: Ref(dtype)", "shape: shape; dtype: type; container: string = ''",
     TFC_OP_STATEFUL, shape_from_attr},
    {"TgAssign", "ref: Ref(T); value: T", "output_ref: Ref(T)",
     "T: type; validate_shape: bool = true; use_locking: bool = true", TFC_OP_ALLOWS_UNINIT,
     tfc_shape_fn_unchanged},
    {"TgIdentityN", "input: T", "output: T", "T: list(type) >= 1", 0, NULL},
    {"TgReshape", "tensor: T; shape: Tshape", "output: T", "T: type; Tshape: {int32, int64} = int32", 0,
     shape_reshape},
    {"TgPool", "input: T", "output: T",
     "T: {float, double} = float; ksize: list(int) >= 4; padding: {'SAME', 'VALID'}; "
     "data_format: string = 'NHWC'",
     0, tfc_shape_fn_unchanged},
    {"TgStitch", "indices: N * int32; data: N * T", "merged: T", "N: int >= 1; T: type", 0, NULL},
    {"TgNoOp", "", "", "", 0, NULL},
    {"TgSplit", "value: T", "output: num_split * T", "num_split: int >= 1; T: type", 0, NULL},
    {"TgFloats", "", "", "alpha: float = 0.2; rates: list(float) = []", 0, NULL},
};
static const tfc_op_table k_graph_table = {k_graph_specs,
                                           (int)(sizeof k_graph_specs / sizeof k_graph_specs[0])};
static const tfc_op_spec k_const_spec[] = {
    {"Const", "", "output: dtype", "value: tensor; dtype: type", 0, shape_const}};
static const tfc_op_table k_const_table = {k_const_spec, 1};

/* Registers the private tables once per process. */
static bool setup(void) {
  static int done;
  if (done) return done > 0;
  tfc_status st;
  tfc_status_clear(&st);
  bool ok = tfc_op_registry_add_table(&k_graph_table, &st);
  if (ok && !tfc_op_lookup("Const")) ok = tfc_op_registry_add_table(&k_const_table, &st);
  if (!ok) fprintf(stderr, "setup: %s\n", st.msg);
  done = ok ? 1 : -1;
  return ok;
}

/* Adds a node with one input per arg (sizes all 1 unless `sizes` given). */
static tfc_node *add(tfc_graph *g, const char *op, const char *name, int n_args, const int *sizes,
                     const tfc_endpoint *inputs, tfc_attrs *attrs, tfc_status *st) {
  int ones[16];
  for (int i = 0; i < 16; i++) ones[i] = 1;
  tfc_node_request req = {.op_type = op,
                          .name = name,
                          .n_args = n_args,
                          .arg_sizes = sizes ? sizes : ones,
                          .inputs = inputs,
                          .attrs = attrs};
  tfc_status_clear(st);
  return tfc_graph_add_node(g, &req, st);
}

/* Adds a TgPlaceholder of dtype t and shape (rank, dims); rank -1 = unknown. */
static tfc_node *placeholder(tfc_graph *g, const char *name, tfc_dtype t, int rank,
                             const int64_t *dims, tfc_status *st) {
  tfc_attrs a;
  tfc_attrs_init(&a);
  tfc_attr_value v = tfc_attr_type(t);
  tfc_attrs_set(&a, "dtype", &v, st);
  if (rank >= 0) {
    v = tfc_attr_shape(tfc_shape_make(rank, dims));
    tfc_attrs_set(&a, "shape", &v, st);
  }
  return add(g, "TgPlaceholder", name, 0, NULL, NULL, &a, st);
}

/* Adds a TgVar of dtype t and shape [n]. */
static tfc_node *variable(tfc_graph *g, const char *name, tfc_dtype t, int64_t n, tfc_status *st) {
  tfc_attrs a;
  tfc_attrs_init(&a);
  tfc_attr_value v = tfc_attr_type(t);
  tfc_attrs_set(&a, "dtype", &v, st);
  v = tfc_attr_shape(tfc_shape_make(1, &n));
  tfc_attrs_set(&a, "shape", &v, st);
  return add(g, "TgVar", name, 0, NULL, NULL, &a, st);
}

/* Endpoint of output `index` of n. */
static tfc_endpoint ep(const tfc_node *n, int index) { return (tfc_endpoint){n->id, index}; }

TFC_TEST(graph_add_infers_types_and_shapes) {
  CHECK(setup());
  tfc_status st;
  tfc_graph *g = tfc_graph_new();
  CHECK(g != NULL);
  int64_t d23[] = {2, 3}, d3[] = {3};
  tfc_node *x = placeholder(g, "x", TFC_DTYPE_FLOAT, 2, d23, &st);
  CHECK_STATUS_OK(&st);
  tfc_node *y = placeholder(g, "y", TFC_DTYPE_FLOAT, 1, d3, &st);
  CHECK_STATUS_OK(&st);
  tfc_endpoint in[] = {ep(x, 0), ep(y, 0)};
  tfc_node *z = add(g, "TgAdd", "z", 2, NULL, in, NULL, &st);
  CHECK_STATUS_OK(&st);
  CHECK(z != NULL && z->id == 2 && z->n_inputs == 2 && z->n_outputs == 1);
  CHECK_EQ_INT(z->out_types[0], TFC_DTYPE_FLOAT);
  CHECK_EQ_INT(z->in_types[0], TFC_DTYPE_FLOAT);
  CHECK(z->out_shapes[0].rank == 2 && z->out_shapes[0].dims[0] == 2 && z->out_shapes[0].dims[1] == 3);
  tfc_dtype t;
  CHECK(tfc_attrs_get_type(&z->attrs, "T", &t, &st) && t == TFC_DTYPE_FLOAT);
  CHECK(strcmp(z->device, "") == 0 && z->colocate_with == NULL);
  /* Defaults filled in; Placeholder without shape has unknown rank. */
  tfc_node *u = placeholder(g, "u", TFC_DTYPE_INT32, -1, NULL, &st);
  CHECK_STATUS_OK(&st);
  tfc_shape s;
  CHECK(tfc_attrs_get_shape(&u->attrs, "shape", &s, &st) && s.rank == -1);
  CHECK_EQ_INT(u->out_shapes[0].rank, -1);
  CHECK(tfc_graph_find(g, "z") == z && tfc_graph_find(g, "nope") == NULL);
  CHECK_EQ_INT(tfc_graph_num_nodes(g), 4);
  CHECK(tfc_graph_node(g, 1) == y);
  tfc_graph_unref(g);
}

TFC_TEST(graph_type_mismatch_errors) {
  CHECK(setup());
  tfc_status st;
  tfc_graph *g = tfc_graph_new();
  tfc_node *x = placeholder(g, "x", TFC_DTYPE_FLOAT, -1, NULL, &st);
  tfc_node *i = placeholder(g, "i", TFC_DTYPE_INT32, -1, NULL, &st);
  tfc_node *s = placeholder(g, "s", TFC_DTYPE_STRING, -1, NULL, &st);
  tfc_endpoint xi[] = {ep(x, 0), ep(i, 0)};
  CHECK(add(g, "TgAdd", "add", 2, NULL, xi, NULL, &st) == NULL);
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  CHECK(strcmp(st.msg, "Input 'y' of 'TgAdd' Op has type int32 that does not match type float32 "
                       "of argument 'x'.") == 0);
  CHECK(strcmp(st.node, "add") == 0);
  CHECK(tfc_graph_find(g, "add") == NULL);
  CHECK_EQ_INT(tfc_graph_num_nodes(g), 3);
  /* Explicit T disagreeing with the inputs. */
  tfc_attrs a;
  tfc_attrs_init(&a);
  tfc_attr_value v = tfc_attr_type(TFC_DTYPE_DOUBLE);
  tfc_attrs_set(&a, "T", &v, &st);
  tfc_endpoint xx[] = {ep(x, 0), ep(x, 0)};
  CHECK(add(g, "TgAdd", "add", 2, NULL, xx, &a, &st) == NULL);
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  CHECK(strstr(st.msg, "has type float32 that does not match expected type of float64") != NULL);
  CHECK(a.n == 0);  /* ownership was taken */
  /* Type not in the allowed set. */
  tfc_endpoint ss[] = {ep(s, 0), ep(s, 0)};
  CHECK(add(g, "TgAdd", "add", 2, NULL, ss, NULL, &st) == NULL);
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  CHECK(strcmp(st.msg, "Value passed to parameter 'x' has DataType string not in list of allowed "
                       "values: float32, float64, int32") == 0);
  /* Explicit type attr outside the allowed set: TF's C++ wording. */
  tfc_attrs_init(&a);
  v = tfc_attr_type(TFC_DTYPE_STRING);
  tfc_attrs_set(&a, "T", &v, &st);
  CHECK(add(g, "TgAdd", "add", 2, NULL, ss, &a, &st) == NULL);
  CHECK(strstr(st.msg, "Value for attr 'T' of string is not in the list of allowed values: "
                       "float, double, int32") != NULL);
  /* Fixed-type arg. */
  tfc_endpoint rs[] = {ep(x, 0), ep(x, 0)};
  CHECK(add(g, "TgReshape", "r", 2, NULL, rs, NULL, &st) == NULL);
  CHECK(strstr(st.msg, "DataType float32 not in list of allowed values: int32, int64") != NULL);
  int sizes[] = {1, 1};
  tfc_endpoint st_in[] = {ep(x, 0), ep(x, 0)};
  CHECK(add(g, "TgStitch", "stitch", 2, sizes, st_in, NULL, &st) == NULL);
  CHECK(strcmp(st.msg, "Input 'indices' of 'TgStitch' Op has type float32 that does not match "
                       "expected type of int32.") == 0);
  /* The graph is still usable. */
  CHECK(add(g, "TgAdd", "add", 2, NULL, xx, NULL, &st) != NULL);
  CHECK_STATUS_OK(&st);
  tfc_graph_unref(g);
}

TFC_TEST(graph_missing_and_bad_attrs) {
  CHECK(setup());
  tfc_status st;
  tfc_graph *g = tfc_graph_new();
  CHECK(add(g, "TgPlaceholder", "p", 0, NULL, NULL, NULL, &st) == NULL);
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  CHECK(strncmp(st.msg, "NodeDef missing attr 'dtype' from Op<name=TgPlaceholder; signature= -> "
                        "output:dtype; attr=dtype:type; attr=shape:shape,default=<unknown>>; "
                        "NodeDef: {{node p}}", 400) == 0);
  /* An attr the op does not have. */
  tfc_attrs a;
  tfc_attrs_init(&a);
  tfc_attr_value v = tfc_attr_type(TFC_DTYPE_FLOAT);
  tfc_attrs_set(&a, "dtype", &v, &st);
  v = tfc_attr_int(3);
  tfc_attrs_set(&a, "bogus", &v, &st);
  CHECK(add(g, "TgPlaceholder", "p", 0, NULL, NULL, &a, &st) == NULL);
  CHECK(strstr(st.msg, "NodeDef mentions attr 'bogus' not in Op<name=TgPlaceholder") != NULL);
  /* An attr of the wrong kind. */
  tfc_attrs_init(&a);
  v = tfc_attr_int(1);
  tfc_attrs_set(&a, "dtype", &v, &st);
  CHECK(add(g, "TgPlaceholder", "p", 0, NULL, NULL, &a, &st) == NULL);
  CHECK(strstr(st.msg, "AttrValue had value with type 'int' when 'type' expected") != NULL);
  /* Allowed strings and list minimum. */
  int64_t d4[] = {1, 2, 2, 1};
  tfc_node *x = placeholder(g, "x", TFC_DTYPE_FLOAT, 4, d4, &st);
  tfc_endpoint in[] = {ep(x, 0)};
  tfc_attrs_init(&a);
  v = tfc_attr_string("FOO", 3);
  tfc_attrs_set(&a, "padding", &v, &st);
  v = tfc_attr_list_new(TFC_ATTR_I, 4);
  tfc_attrs_set(&a, "ksize", &v, &st);
  CHECK(add(g, "TgPool", "pool", 1, NULL, in, &a, &st) == NULL);
  CHECK(strcmp(st.msg, "Attr 'padding' of 'TgPool' Op passed string 'FOO' not in: \"SAME\", \"VALID\".") == 0);
  tfc_attrs_init(&a);
  v = tfc_attr_string("SAME", 4);
  tfc_attrs_set(&a, "padding", &v, &st);
  v = tfc_attr_list_new(TFC_ATTR_I, 2);
  tfc_attrs_set(&a, "ksize", &v, &st);
  CHECK(add(g, "TgPool", "pool", 1, NULL, in, &a, &st) == NULL);
  CHECK(strstr(st.msg, "Attr 'ksize' of 'TgPool' Op passed list of length 2 less than minimum 4.") != NULL);
  /* A good one: defaults for T and data_format; an empty list of unknown kind is accepted. */
  tfc_attrs_init(&a);
  v = tfc_attr_string("SAME", 4);
  tfc_attrs_set(&a, "padding", &v, &st);
  v = tfc_attr_list_new(TFC_ATTR_I, 4);
  tfc_attrs_set(&a, "ksize", &v, &st);
  tfc_node *pool = add(g, "TgPool", "pool", 1, NULL, in, &a, &st);
  CHECK_STATUS_OK(&st);
  CHECK(tfc_attrs_string_is(&pool->attrs, "data_format", "NHWC"));
  CHECK_EQ_INT(pool->attrs.n, 4);
  tfc_graph_unref(g);
}

TFC_TEST(graph_ref_inputs) {
  CHECK(setup());
  tfc_status st;
  tfc_graph *g = tfc_graph_new();
  tfc_node *v = variable(g, "v", TFC_DTYPE_FLOAT, 3, &st);
  CHECK_STATUS_OK(&st);
  CHECK_EQ_INT(v->out_types[0], tfc_dtype_ref(TFC_DTYPE_FLOAT));
  CHECK(v->out_shapes[0].rank == 1 && v->out_shapes[0].dims[0] == 3);
  int64_t d3[] = {3};
  tfc_node *x = placeholder(g, "x", TFC_DTYPE_FLOAT, 1, d3, &st);
  tfc_endpoint bad[] = {ep(x, 0), ep(x, 0)};
  CHECK(add(g, "TgAssign", "assign", 2, NULL, bad, NULL, &st) == NULL);
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  CHECK(strcmp(st.msg, "Input 'ref' of 'TgAssign' Op requires l-value input") == 0);
  tfc_endpoint good[] = {ep(v, 0), ep(x, 0)};
  tfc_node *as = add(g, "TgAssign", "assign", 2, NULL, good, NULL, &st);
  CHECK_STATUS_OK(&st);
  CHECK_EQ_INT(as->in_types[0], tfc_dtype_ref(TFC_DTYPE_FLOAT));
  CHECK_EQ_INT(as->in_types[1], TFC_DTYPE_FLOAT);
  CHECK_EQ_INT(as->out_types[0], tfc_dtype_ref(TFC_DTYPE_FLOAT));
  /* A ref output feeding a non-ref input is dereferenced. */
  tfc_endpoint rd[] = {ep(v, 0), ep(x, 0)};
  tfc_node *sum = add(g, "TgAdd", "sum", 2, NULL, rd, NULL, &st);
  CHECK_STATUS_OK(&st);
  CHECK_EQ_INT(sum->in_types[0], TFC_DTYPE_FLOAT);
  CHECK_EQ_INT(sum->out_types[0], TFC_DTYPE_FLOAT);
  /* Assign's value may itself be a ref output (value: T is not a ref arg). */
  tfc_endpoint vv[] = {ep(v, 0), ep(as, 0)};
  CHECK(add(g, "TgAssign", "assign2", 2, NULL, vv, NULL, &st) != NULL);
  CHECK_STATUS_OK(&st);
  tfc_graph_unref(g);
}

TFC_TEST(graph_list_lengths) {
  CHECK(setup());
  tfc_status st;
  tfc_graph *g = tfc_graph_new();
  tfc_node *x = placeholder(g, "x", TFC_DTYPE_FLOAT, -1, NULL, &st);
  tfc_node *i = placeholder(g, "i", TFC_DTYPE_INT32, -1, NULL, &st);
  int three[] = {3};
  tfc_endpoint xs[] = {ep(x, 0), ep(x, 0), ep(x, 0)};
  tfc_node *n = add(g, "TgAddN", "addn", 1, three, xs, NULL, &st);
  CHECK_STATUS_OK(&st);
  int64_t nv;
  CHECK(tfc_attrs_get_int(&n->attrs, "N", &nv, &st) && nv == 3);
  CHECK_EQ_INT(n->n_inputs, 3);
  /* Explicit N that disagrees. */
  tfc_attrs a;
  tfc_attrs_init(&a);
  tfc_attr_value v = tfc_attr_int(2);
  tfc_attrs_set(&a, "N", &v, &st);
  CHECK(add(g, "TgAddN", "addn2", 1, three, xs, &a, &st) == NULL);
  CHECK(strstr(st.msg, "Inconsistent values for attr 'N' 2 vs. 3") != NULL);
  /* Below the minimum. */
  int zero[] = {0};
  CHECK(add(g, "TgAddN", "addn2", 1, zero, NULL, NULL, &st) == NULL);
  CHECK(strcmp(st.msg, "List argument 'inputs' to 'TgAddN' Op with length 0 shorter than minimum length 1.") == 0);
  /* Mixed types in one list. */
  tfc_endpoint mixed[] = {ep(x, 0), ep(i, 0)};
  int two[] = {2};
  CHECK(add(g, "TgAddN", "addn2", 1, two, mixed, NULL, &st) == NULL);
  CHECK(strcmp(st.msg, "Tensors in list passed to 'inputs' of 'TgAddN' Op have types [float32, int32] "
                       "that don't all match.") == 0);
  /* Two list args sharing N. */
  int s23[] = {2, 3};
  tfc_endpoint sin[] = {ep(i, 0), ep(i, 0), ep(x, 0), ep(x, 0), ep(x, 0)};
  CHECK(add(g, "TgStitch", "stitch", 2, s23, sin, NULL, &st) == NULL);
  CHECK(strcmp(st.msg, "List argument 'data' to 'TgStitch' Op with length 3 must match length 2 "
                       "of argument 'indices'.") == 0);
  int s22[] = {2, 2};
  CHECK(add(g, "TgStitch", "stitch", 2, s22, sin, NULL, &st) != NULL);
  CHECK_STATUS_OK(&st);
  /* A single-tensor arg given two tensors. */
  CHECK(add(g, "TgAdd", "bad", 2, s22, sin, NULL, &st) == NULL);
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  /* Type lists: inferred and expanded in the outputs. */
  tfc_endpoint idn[] = {ep(x, 0), ep(i, 0)};
  tfc_node *id = add(g, "TgIdentityN", "idn", 1, two, idn, NULL, &st);
  CHECK_STATUS_OK(&st);
  CHECK_EQ_INT(id->n_outputs, 2);
  CHECK(id->out_types[0] == TFC_DTYPE_FLOAT && id->out_types[1] == TFC_DTYPE_INT32);
  const tfc_attr_list *tl;
  CHECK(tfc_attrs_get_list(&id->attrs, "T", &tl, &st) && tl->n == 2 && tl->v.type[1] == TFC_DTYPE_INT32);
  CHECK(add(g, "TgIdentityN", "idn0", 1, zero, NULL, NULL, &st) == NULL);
  CHECK(strstr(st.msg, "less than minimum 1") != NULL);
  /* Output count from a number attr with no input list. */
  tfc_attrs_init(&a);
  v = tfc_attr_int(4);
  tfc_attrs_set(&a, "num_split", &v, &st);
  tfc_endpoint one[] = {ep(x, 0)};
  tfc_node *sp = add(g, "TgSplit", "split", 1, NULL, one, &a, &st);
  CHECK_STATUS_OK(&st);
  CHECK_EQ_INT(sp->n_outputs, 4);
  CHECK_EQ_INT(sp->out_types[3], TFC_DTYPE_FLOAT);
  tfc_graph_unref(g);
}

TFC_TEST(graph_shape_fn_errors) {
  CHECK(setup());
  tfc_status st;
  tfc_graph *g = tfc_graph_new();
  int64_t d2[] = {2}, d3[] = {3};
  tfc_node *x = placeholder(g, "x", TFC_DTYPE_FLOAT, 1, d2, &st);
  tfc_node *y = placeholder(g, "y", TFC_DTYPE_FLOAT, 1, d3, &st);
  tfc_node *z = placeholder(g, "z", TFC_DTYPE_FLOAT, -1, NULL, &st);
  tfc_endpoint in[] = {ep(x, 0), ep(y, 0)};
  CHECK(add(g, "TgAdd", "add", 2, NULL, in, NULL, &st) == NULL);
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  CHECK(strcmp(st.msg, "Dimensions must be equal, but are 2 and 3 for '{{node add}} = "
                       "TgAdd[T=DT_FLOAT](x, y)' with input shapes: [2], [3].") == 0);
  CHECK(strcmp(st.node, "add") == 0);
  CHECK(tfc_graph_find(g, "add") == NULL);
  CHECK_EQ_INT(tfc_graph_num_nodes(g), 3);
  /* Unknown shapes pass. */
  tfc_endpoint in2[] = {ep(x, 0), ep(z, 0)};
  tfc_node *ok = add(g, "TgAdd", "add", 2, NULL, in2, NULL, &st);
  CHECK_STATUS_OK(&st);
  CHECK_EQ_INT(ok->out_shapes[0].rank, -1);
  tfc_graph_unref(g);
}

TFC_TEST(graph_const_values_reach_shape_fns) {
  CHECK(setup());
  tfc_status st;
  tfc_graph *g = tfc_graph_new();
  tfc_status_clear(&st);
  int64_t d3[] = {3};
  tfc_tensor *t = tfc_tensor_new(TFC_DTYPE_INT32, 1, d3, &st);
  CHECK(t != NULL);
  int32_t *p = t->data;
  p[0] = 4, p[1] = -1, p[2] = 2;
  tfc_attrs a;
  tfc_attrs_init(&a);
  tfc_attr_value v = {.kind = TFC_ATTR_TENSOR, .v.tensor = t};
  tfc_attrs_set(&a, "value", &v, &st);
  v = tfc_attr_type(TFC_DTYPE_INT32);
  tfc_attrs_set(&a, "dtype", &v, &st);
  tfc_node *c = add(g, "Const", "shape", 0, NULL, NULL, &a, &st);
  CHECK_STATUS_OK(&st);
  tfc_node *x = placeholder(g, "x", TFC_DTYPE_FLOAT, -1, NULL, &st);
  tfc_endpoint in[] = {ep(x, 0), ep(c, 0)};
  tfc_node *r = add(g, "TgReshape", "r", 2, NULL, in, NULL, &st);
  CHECK_STATUS_OK(&st);
  CHECK(r->out_shapes[0].rank == 3 && r->out_shapes[0].dims[0] == 4 &&
        r->out_shapes[0].dims[1] == -1 && r->out_shapes[0].dims[2] == 2);
  /* A non-Const producer gives only the rank. */
  tfc_node *sh = placeholder(g, "sh", TFC_DTYPE_INT32, 1, (int64_t[]){2}, &st);
  tfc_endpoint in2[] = {ep(x, 0), ep(sh, 0)};
  tfc_node *r2 = add(g, "TgReshape", "r2", 2, NULL, in2, NULL, &st);
  CHECK_STATUS_OK(&st);
  CHECK(r2->out_shapes[0].rank == 2 && r2->out_shapes[0].dims[0] == -1);
  tfc_graph_unref(g);
}

TFC_TEST(graph_names_ops_and_finalize) {
  CHECK(setup());
  tfc_status st;
  tfc_graph *g = tfc_graph_new();
  CHECK(placeholder(g, "a/b_c.d-1", TFC_DTYPE_FLOAT, -1, NULL, &st) != NULL);
  CHECK_STATUS_OK(&st);
  CHECK(placeholder(g, ".x", TFC_DTYPE_FLOAT, -1, NULL, &st) != NULL);
  CHECK(placeholder(g, "a/b_c.d-1", TFC_DTYPE_FLOAT, -1, NULL, &st) == NULL);
  CHECK_CODE(&st, TFC_CODE_ALREADY_EXISTS);
  static const char *const bad[] = {"", "_x", "a b", "a:0", "^a", "-a", "a$"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    CHECK(placeholder(g, bad[i], TFC_DTYPE_FLOAT, -1, NULL, &st) == NULL);
    CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  }
  CHECK(add(g, "NoSuchOp", "n", 0, NULL, NULL, NULL, &st) == NULL);
  CHECK_CODE(&st, TFC_CODE_NOT_FOUND);
  CHECK(strcmp(st.msg, "Op type not registered 'NoSuchOp' in binary running on tfc.") == 0);
  /* Wrong number of args. */
  CHECK(add(g, "TgAdd", "n", 1, NULL, (tfc_endpoint[]){{0, 0}}, NULL, &st) == NULL);
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  /* Endpoints out of range. */
  CHECK(add(g, "TgAdd", "n", 2, NULL, (tfc_endpoint[]){{0, 0}, {7, 0}}, NULL, &st) == NULL);
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  CHECK(add(g, "TgAdd", "n", 2, NULL, (tfc_endpoint[]){{0, 0}, {0, 1}}, NULL, &st) == NULL);
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  tfc_graph_finalize(g);
  CHECK(g->finalized);
  CHECK(add(g, "TgNoOp", "late", 0, NULL, NULL, NULL, &st) == NULL);
  CHECK_CODE(&st, TFC_CODE_FAILED_PRECONDITION);
  CHECK(strcmp(st.msg, "Graph is finalized and cannot be modified.") == 0);
  CHECK_EQ_INT(tfc_graph_num_nodes(g), 2);
  tfc_graph_unref(g);
}

TFC_TEST(graph_control_device_colocation) {
  CHECK(setup());
  tfc_status st;
  tfc_graph *g = tfc_graph_new();
  tfc_node *a = add(g, "TgNoOp", "a", 0, NULL, NULL, NULL, &st);
  tfc_node *b = add(g, "TgNoOp", "b", 0, NULL, NULL, NULL, &st);
  CHECK_STATUS_OK(&st);
  int ctrl[] = {a->id, b->id, a->id};
  tfc_attrs at;
  tfc_attrs_init(&at);
  tfc_attr_value cls = tfc_attr_list_new(TFC_ATTR_S, 1);
  cls.v.list.v.s[0].data = tfc_strdup("loc:@a");
  cls.v.list.v.s[0].len = 6;
  tfc_attrs_set(&at, "_class", &cls, &st);
  tfc_attr_value other = tfc_attr_int(1);
  tfc_attrs_set(&at, "_output_shapes_like", &other, &st);
  tfc_node_request req = {.op_type = "TgNoOp", .name = "c", .device = "/device:CPU:0",
                          .n_control = 3, .control_inputs = ctrl, .attrs = &at};
  tfc_status_clear(&st);
  tfc_node *c = tfc_graph_add_node(g, &req, &st);
  CHECK_STATUS_OK(&st);
  CHECK_EQ_INT(c->n_control, 2);  /* repeats dropped */
  CHECK(c->control_inputs[0] == a->id && c->control_inputs[1] == b->id);
  CHECK(strcmp(c->device, "/device:CPU:0") == 0);
  CHECK(c->colocate_with && strcmp(c->colocate_with, "a") == 0);
  CHECK_EQ_INT(c->attrs.n, 0);  /* '_' attrs dropped */
  CHECK(tfc_node_set_device(c, "/job:w/task:1", &st) && strcmp(c->device, "/job:w/task:1") == 0);
  CHECK(tfc_node_add_control_input(b, a->id, &st));
  CHECK(tfc_node_add_control_input(b, a->id, &st));
  CHECK_EQ_INT(b->n_control, 1);
  CHECK(!tfc_node_add_control_input(b, b->id, &st));
  /* Bad control input id. */
  int badc[] = {99};
  tfc_node_request r2 = {.op_type = "TgNoOp", .name = "d", .n_control = 1, .control_inputs = badc};
  tfc_status_clear(&st);
  CHECK(tfc_graph_add_node(g, &r2, &st) == NULL);
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  tfc_graph_unref(g);
}

TFC_TEST(graph_parse_endpoint) {
  CHECK(setup());
  tfc_status st;
  tfc_graph *g = tfc_graph_new();
  int64_t d1[] = {1};
  tfc_node *x = placeholder(g, "scope/x", TFC_DTYPE_FLOAT, 1, d1, &st);
  tfc_attrs a;
  tfc_attrs_init(&a);
  tfc_attr_value v = tfc_attr_int(3);
  tfc_attrs_set(&a, "num_split", &v, &st);
  tfc_node *sp = add(g, "TgSplit", "split", 1, NULL, (tfc_endpoint[]){{x->id, 0}}, &a, &st);
  CHECK_STATUS_OK(&st);
  tfc_endpoint e;
  bool ctrl;
  tfc_status_clear(&st);
  CHECK(tfc_graph_parse_endpoint(g, "scope/x", &e, &ctrl, &st) && e.node == x->id && e.index == 0 && !ctrl);
  CHECK(tfc_graph_parse_endpoint(g, "split:2", &e, &ctrl, &st) && e.node == sp->id && e.index == 2);
  CHECK(tfc_graph_parse_endpoint(g, "^split", &e, &ctrl, &st) && e.node == sp->id && ctrl);
  CHECK(!tfc_graph_parse_endpoint(g, "split:3", &e, &ctrl, &st));
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  tfc_status_clear(&st);
  CHECK(!tfc_graph_parse_endpoint(g, "nope:0", &e, &ctrl, &st));
  CHECK_CODE(&st, TFC_CODE_NOT_FOUND);
  static const char *const bad[] = {"", "x:", "split:a", ":1", "^", "split:-1"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    tfc_status_clear(&st);
    CHECK(!tfc_graph_parse_endpoint(g, bad[i], &e, &ctrl, &st));
    CHECK(st.code != TFC_CODE_OK);
  }
  tfc_graph_unref(g);
}

TFC_TEST(graph_refresh_shapes) {
  CHECK(setup());
  tfc_status st;
  tfc_graph *g = tfc_graph_new();
  tfc_node *x = placeholder(g, "x", TFC_DTYPE_FLOAT, -1, NULL, &st);
  int64_t d4[] = {4};
  tfc_node *y = placeholder(g, "y", TFC_DTYPE_FLOAT, 1, d4, &st);
  tfc_node *z = add(g, "TgAdd", "z", 2, NULL, (tfc_endpoint[]){{x->id, 0}, {y->id, 0}}, NULL, &st);
  CHECK_STATUS_OK(&st);
  CHECK_EQ_INT(z->out_shapes[0].rank, -1);
  x->out_shapes[0] = tfc_shape_make(2, (int64_t[]){5, 4});  /* like set_shape */
  CHECK(tfc_graph_refresh_shapes(g, z, &st));
  CHECK(z->out_shapes[0].rank == 2 && z->out_shapes[0].dims[0] == 5);
  x->out_shapes[0] = tfc_shape_make(1, (int64_t[]){3});
  tfc_status_clear(&st);
  CHECK(!tfc_graph_refresh_shapes(g, z, &st));
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  CHECK(z->out_shapes[0].rank == 2);  /* unchanged on failure */
  tfc_graph_unref(g);
}

TFC_TEST(graph_many_nodes_chunked) {
  CHECK(setup());
  tfc_status st;
  tfc_graph *g = tfc_graph_new();
  char name[32];
  for (int i = 0; i < 5000; i++) {
    snprintf(name, sizeof name, "n%d", i);
    CHECK(add(g, "TgNoOp", name, 0, NULL, NULL, NULL, &st) != NULL);
  }
  CHECK_EQ_INT(tfc_graph_num_nodes(g), 5000);
  for (int i = 0; i < 5000; i++) CHECK_EQ_INT(tfc_graph_node(g, i)->id, i);
  CHECK(strcmp(tfc_graph_find(g, "n4321")->name, "n4321") == 0);
  CHECK(tfc_graph_ref(g) == g);
  tfc_graph_unref(g);
  CHECK_EQ_INT(tfc_graph_num_nodes(g), 5000);
  tfc_graph_unref(g);
}

/* Reader thread: repeatedly walks every published node while the main thread adds. */
typedef struct reader_arg {
  tfc_graph *g;
  _Atomic int stop;
  int bad;
  long reads;
} reader_arg;

static void *reader(void *p) {
  reader_arg *r = p;
  while (!r->stop) {
    int n = tfc_graph_num_nodes(r->g);
    for (int i = 0; i < n; i++) {
      tfc_node *nd = tfc_graph_node(r->g, i);
      if (!nd || nd->id != i || !nd->name) r->bad++;
      r->reads++;
    }
  }
  return NULL;
}

TFC_TEST(graph_concurrent_readers) {
  CHECK(setup());
  tfc_status st;
  tfc_graph *g = tfc_graph_new();
  reader_arg r = {.g = g};
  pthread_t th;
  CHECK(pthread_create(&th, NULL, reader, &r) == 0);
  char name[32];
  for (int i = 0; i < 3000; i++) {
    snprintf(name, sizeof name, "n%d", i);
    if (!add(g, "TgNoOp", name, 0, NULL, NULL, NULL, &st)) break;
  }
  r.stop = 1;
  pthread_join(th, NULL);
  CHECK_EQ_INT(r.bad, 0);
  CHECK_EQ_INT(tfc_graph_num_nodes(g), 3000);
  tfc_graph_unref(g);
}

TFC_TEST(graph_oom_leaves_graph_usable) {
  CHECK(setup());
  tfc_status st;
  /* Every allocation of a rich add fails in turn. */
  bool done = false;
  for (int k = 1; k < 300 && !done; k++) {
    tfc_graph *g = tfc_graph_new();
    CHECK(g != NULL);
    int64_t d2[] = {2};
    tfc_node *x = placeholder(g, "x", TFC_DTYPE_FLOAT, 1, d2, &st);
    CHECK_STATUS_OK(&st);
    int before = tfc_graph_num_nodes(g);
    tfc_attrs a;
    tfc_attrs_init(&a);
    tfc_attr_value cls = tfc_attr_list_new(TFC_ATTR_S, 1);
    cls.v.list.v.s[0].data = tfc_strdup("loc:@x");
    cls.v.list.v.s[0].len = 6;
    tfc_attrs_set(&a, "_class", &cls, &st);
    int three[] = {3};
    int ctrl[] = {x->id};
    tfc_node_request req = {.op_type = "TgAddN", .name = "sum", .device = "/cpu:0", .n_args = 1,
                            .arg_sizes = three,
                            .inputs = (tfc_endpoint[]){{x->id, 0}, {x->id, 0}, {x->id, 0}},
                            .n_control = 1, .control_inputs = ctrl, .attrs = &a};
    tfc_status_clear(&st);
    tfc_alloc_fail_after(k);
    tfc_node *n = tfc_graph_add_node(g, &req, &st);
    tfc_alloc_fail_after(0);
    if (n) {
      done = true;
      CHECK(n->colocate_with && strcmp(n->colocate_with, "x") == 0);
    } else {
      CHECK_CODE(&st, TFC_CODE_RESOURCE_EXHAUSTED);
      CHECK_EQ_INT(tfc_graph_num_nodes(g), before);
      CHECK(tfc_graph_find(g, "sum") == NULL);
      /* Usable afterwards: the same add now succeeds. */
      tfc_attrs_init(&a);
      req.attrs = &a;
      tfc_status_clear(&st);
      n = tfc_graph_add_node(g, &req, &st);
      CHECK_STATUS_OK(&st);
      CHECK(n && tfc_graph_find(g, "sum") == n && n->id == before);
    }
    tfc_graph_unref(g);
  }
  CHECK(done);
}

TFC_TEST(graph_int_attrs_coerce_to_float) {
  CHECK(setup());
  tfc_status st;
  tfc_graph *g = tfc_graph_new();
  tfc_attrs a;
  tfc_attrs_init(&a);
  tfc_attr_value v = tfc_attr_int(3);
  tfc_attrs_set(&a, "alpha", &v, &st);
  v = tfc_attr_list_new(TFC_ATTR_I, 3);
  v.v.list.v.i[0] = 1, v.v.list.v.i[1] = -2, v.v.list.v.i[2] = 5;
  tfc_attrs_set(&a, "rates", &v, &st);
  tfc_node *n = add(g, "TgFloats", "f", 0, NULL, NULL, &a, &st);
  CHECK_STATUS_OK(&st);
  float alpha;
  CHECK(tfc_attrs_get_float(&n->attrs, "alpha", &alpha, &st) && alpha == 3.0f);
  const tfc_attr_list *l;
  CHECK(tfc_attrs_get_list(&n->attrs, "rates", &l, &st));
  CHECK(l->kind == TFC_ATTR_F && l->n == 3 && l->v.f[0] == 1.0f && l->v.f[1] == -2.0f && l->v.f[2] == 5.0f);
  tfc_node *d = add(g, "TgFloats", "d", 0, NULL, NULL, NULL, &st);
  CHECK_STATUS_OK(&st);
  CHECK(tfc_attrs_get_float(&d->attrs, "alpha", &alpha, &st));
  CHECK_NEAR(alpha, 0.2, 1e-7);
  tfc_graph_unref(g);
}
