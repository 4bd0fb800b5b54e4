/*
 * test_state.c — the resource manager, variable kernels (VariableV2, Assign,
 * AssignAdd/Sub, IsVariableInitialized, CountUpTo, TemporaryVariable) with
 * their copy-on-write rule, and the dense training updates checked against
 * values produced by TensorFlow 2.21 (tf.raw_ops.Apply*).
 *
 * Kernels are driven through a hand-built tfc_kernel_ctx that mimics the
 * executor: a Ref input carries the variable in ref_inputs[i] and a
 * reference the "executor" holds to its current value in inputs[i].
 */
#include <string.h>

#include "base/alloc.h"
#include "core/op_registry.h"
#include "core/resource.h"
#include "harness.h"
#include "kernels/kernel.h"

/* ------------------------------------------------------------ test driver */

typedef struct krun {
  const char *op;
  const tfc_kernel_def *def;
  void *state;
  tfc_attrs attrs;
  tfc_status st;
  tfc_step step;
  int n_in, n_out;
  tfc_tensor *in[12];
  tfc_var *ref[12];      /* set: input i is a Ref input of this variable */
  tfc_tensor *out[4];
  tfc_var *rout[4];
  tfc_dtype out_types[4];
  int64_t step_id;
} krun;

/* Discards log output. */
static void null_log(void *c, const char *t, size_t n) { (void)c; (void)t; (void)n; }

/* Starts a run of op with n_in inputs and n_out outputs on resource mgr rm. */
static void kr_begin(krun *k, const char *op, int n_in, int n_out, tfc_resource_mgr *rm) {
  memset(k, 0, sizeof *k);
  k->op = op;
  k->n_in = n_in;
  k->n_out = n_out;
  tfc_attrs_init(&k->attrs);
  tfc_status_clear(&k->st);
  k->step.step_id = 1;
  k->step.resources = rm;
  k->step.log = null_log;
}

/* Sets an attr (ownership of v's contents moves to the attrs). */
static void kr_attr(krun *k, const char *name, tfc_attr_value v) {
  tfc_attrs_set(&k->attrs, name, &v, &k->st);
}

/* Looks the kernel up and runs its init; false with k->st set on failure. */
static bool kr_init(krun *k, const char *node_name) {
  k->def = tfc_kernel_lookup(k->op, "CPU", &k->attrs);
  if (k->def == NULL) return tfc_status_set(&k->st, TFC_CODE_NOT_FOUND, "no kernel for %s", k->op);
  tfc_kernel_init ki = {.node_name = node_name, .op_type = k->op, .attrs = &k->attrs,
                        .n_inputs = k->n_in, .n_outputs = k->n_out, .out_types = k->out_types,
                        .st = &k->st};
  if (k->def->init) return k->def->init(&ki, &k->state);
  return true;
}

/* Drops the outputs of the previous run. */
static void kr_clear_outputs(krun *k) {
  for (int i = 0; i < k->n_out; i++) {
    tfc_tensor_unref(k->out[i]);
    tfc_var_unref(k->rout[i]);
    k->out[i] = NULL;
    k->rout[i] = NULL;
  }
}

/* Runs compute once (like the executor: reads Ref inputs, holding the read). */
static bool kr_run(krun *k, const char *node_name) {
  kr_clear_outputs(k);
  tfc_status_clear(&k->st);
  tfc_tensor *inputs[12];
  for (int i = 0; i < k->n_in; i++) inputs[i] = k->ref[i] ? tfc_var_read(k->ref[i]) : k->in[i];
  tfc_kernel_ctx ctx = {.node_name = node_name, .op_type = k->op, .attrs = &k->attrs,
                        .state = k->state, .n_inputs = k->n_in, .inputs = inputs,
                        .ref_inputs = k->ref, .n_outputs = k->n_out, .outputs = k->out,
                        .ref_outputs = k->rout, .out_types = k->out_types, .st = &k->st,
                        .step = &k->step};
  k->def->compute(&ctx);
  for (int i = 0; i < k->n_in; i++)
    if (k->ref[i]) tfc_tensor_unref(inputs[i]);
  return k->st.code == TFC_CODE_OK;
}

/* Frees everything the run holds (inputs included). */
static void kr_free(krun *k) {
  kr_clear_outputs(k);
  for (int i = 0; i < k->n_in; i++) {
    tfc_tensor_unref(k->in[i]);
    k->in[i] = NULL;
  }
  if (k->def && k->def->destroy) k->def->destroy(k->state);
  tfc_attrs_destroy(&k->attrs);
}

/* A float vector tensor. */
static tfc_tensor *fvec(int n, const float *v) {
  tfc_status st;
  int64_t d = n;
  tfc_tensor *t = tfc_tensor_new(TFC_DTYPE_FLOAT, 1, &d, &st);
  if (t) memcpy(t->data, v, sizeof(float) * (size_t)n);
  return t;
}

/* A float scalar tensor. */
static tfc_tensor *fscalar(float f) {
  tfc_status st;
  return tfc_tensor_scalar(TFC_DTYPE_FLOAT, &f, &st);
}

/* A float variable initialised with v (declared shape [n]). */
static tfc_var *fvar(tfc_resource_mgr *rm, const char *name, int n, const float *v) {
  tfc_status st;
  int64_t d = n;
  tfc_shape s = tfc_shape_make(1, &d);
  tfc_var *var = tfc_resource_var(rm, "", name, TFC_DTYPE_FLOAT, &s, &st);
  if (var && v) tfc_var_set(var, fvec(n, v));
  return var;
}

/* The float bit pattern of element i of the variable's value. */
static uint32_t fbits(tfc_var *v, int i) {
  uint32_t b;
  memcpy(&b, (const float *)v->value->data + i, 4);
  return b;
}

/* ------------------------------------------------------ resource manager */

TFC_TEST(state_resource_mgr_find_or_create) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_resource_mgr *rm = tfc_resource_mgr_new();
  CHECK(rm != NULL);
  tfc_shape s = tfc_shape_scalar();
  tfc_var *a = tfc_resource_var(rm, "", "v", TFC_DTYPE_FLOAT, &s, &st);
  tfc_var *b = tfc_resource_var(rm, "localhost", "v", tfc_dtype_ref(TFC_DTYPE_FLOAT), &s, &st);
  tfc_var *c = tfc_resource_var(rm, "other", "v", TFC_DTYPE_FLOAT, &s, &st);
  CHECK_STATUS_OK(&st);
  CHECK(a != NULL && a == b);   /* "" is the default container */
  CHECK(c != NULL && c != a);
  CHECK(strcmp(a->name, "v") == 0);
  CHECK(a->value == NULL);
  CHECK_EQ_INT(a->dtype, TFC_DTYPE_FLOAT);
  CHECK_EQ_INT(tfc_resource_mgr_count(rm), 2);
  tfc_var *bad = tfc_resource_var(rm, "", "v", TFC_DTYPE_INT32, &s, &st);
  CHECK(bad == NULL);
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  tfc_var *l = tfc_resource_lookup(rm, "other", "v");
  CHECK(l == c);
  CHECK(tfc_resource_lookup(rm, "other", "w") == NULL);
  tfc_var_unref(l);
  CHECK_EQ_INT(tfc_resource_mgr_clear_container(rm, "other"), 1);
  CHECK_EQ_INT(tfc_resource_mgr_count(rm), 1);
  CHECK(tfc_resource_remove(rm, "", "v"));
  CHECK(!tfc_resource_remove(rm, "", "v"));
  CHECK_EQ_INT(tfc_resource_mgr_count(rm), 0);
  /* Variables outlive the manager while referenced. */
  float one = 1;
  tfc_var_set(a, fvec(1, &one));
  tfc_var *d = tfc_resource_var(rm, "", "d", TFC_DTYPE_FLOAT, &s, &st);
  tfc_resource_mgr_clear(rm);
  CHECK_EQ_INT(tfc_resource_mgr_count(rm), 0);
  tfc_resource_mgr_free(rm);
  tfc_tensor *r = tfc_var_read(a);
  CHECK(r != NULL && ((float *)r->data)[0] == 1.0f);
  tfc_tensor_unref(r);
  tfc_var_unref(a);
  tfc_var_unref(b);
  tfc_var_unref(c);
  tfc_var_unref(d);
}

TFC_TEST(state_resource_writable_rule) {
  tfc_resource_mgr *rm = tfc_resource_mgr_new();
  float x[2] = {1, 2};
  tfc_var *v = fvar(rm, "w", 2, x);
  CHECK(tfc_var_value_writable(v, 0));
  tfc_tensor *reader = tfc_var_read(v);
  CHECK(!tfc_var_value_writable(v, 0));
  CHECK(tfc_var_value_writable(v, 1)); /* the caller accounts for that reference */
  tfc_tensor_unref(reader);
  /* Borrowed memory is never written in place. */
  static float borrowed[2] = {5, 6};
  tfc_status st;
  int64_t d = 2;
  tfc_var_set(v, tfc_tensor_wrap(TFC_DTYPE_FLOAT, 1, &d, borrowed, NULL, NULL, &st));
  CHECK(!tfc_var_value_writable(v, 0));
  tfc_var_unref(v);
  tfc_resource_mgr_free(rm);
}

/* ------------------------------------------------------------ VariableV2 */

TFC_TEST(state_variable_kernel_creates_and_shares) {
  tfc_resource_mgr *rm = tfc_resource_mgr_new();
  krun k, k2;
  int64_t d = 2;
  kr_begin(&k, "VariableV2", 0, 1, rm);
  kr_attr(&k, "dtype", tfc_attr_type(TFC_DTYPE_FLOAT));
  kr_attr(&k, "shape", tfc_attr_shape(tfc_shape_make(1, &d)));
  kr_attr(&k, "container", tfc_attr_string("", 0));
  kr_attr(&k, "shared_name", tfc_attr_string("", 0));
  CHECK(kr_init(&k, "weights"));
  CHECK(kr_run(&k, "weights"));
  tfc_var *v = k.rout[0];
  CHECK(v != NULL && k.out[0] == NULL);
  CHECK(strcmp(v->name, "weights") == 0);
  CHECK(v->value == NULL);
  CHECK_EQ_INT(v->shape.rank, 1);
  tfc_var *again = tfc_resource_lookup(rm, "", "weights");
  CHECK(again == v);
  tfc_var_unref(again);
  /* A second node with shared_name "weights" sees the same variable. */
  kr_begin(&k2, "Variable", 0, 1, rm);
  kr_attr(&k2, "dtype", tfc_attr_type(TFC_DTYPE_FLOAT));
  kr_attr(&k2, "shape", tfc_attr_shape(tfc_shape_make(1, &d)));
  kr_attr(&k2, "shared_name", tfc_attr_string("weights", 7));
  CHECK(kr_init(&k2, "other_node"));
  CHECK(kr_run(&k2, "other_node"));
  CHECK(k2.rout[0] == v);
  kr_free(&k2);
  kr_free(&k);
  tfc_resource_mgr_free(rm);
}

TFC_TEST(state_variable_partial_shape_rejected) {
  krun k;
  int64_t d[2] = {2, -1};
  kr_begin(&k, "VariableV2", 0, 1, NULL);
  kr_attr(&k, "dtype", tfc_attr_type(TFC_DTYPE_FLOAT));
  kr_attr(&k, "shape", tfc_attr_shape(tfc_shape_make(2, d)));
  CHECK(!kr_init(&k, "v"));
  CHECK_CODE(&k.st, TFC_CODE_INVALID_ARGUMENT);
  CHECK(strcmp(k.st.msg, "Shape [2,?] is not fully defined") == 0);
  kr_free(&k);
}

/* ------------------------------------------------------------------ Assign */

/* Prepares an Assign run of value into v. */
static bool assign_run(tfc_var *v, tfc_tensor *value, bool validate, tfc_status *st) {
  krun k;
  kr_begin(&k, "Assign", 2, 1, NULL);
  kr_attr(&k, "T", tfc_attr_type(TFC_DTYPE_FLOAT));
  kr_attr(&k, "validate_shape", tfc_attr_bool(validate));
  bool ok = kr_init(&k, "assign");
  k.ref[0] = v;
  k.in[1] = value;
  ok = ok && kr_run(&k, "assign");
  if (ok && k.rout[0] != v) ok = tfc_status_set(&k.st, TFC_CODE_INTERNAL, "ref output is not the var");
  tfc_status_copy(st, &k.st);
  kr_free(&k);
  return ok;
}

TFC_TEST(state_assign_validates_shape) {
  tfc_resource_mgr *rm = tfc_resource_mgr_new();
  tfc_var *v = fvar(rm, "v", 2, NULL);
  tfc_status st;
  float three[3] = {1, 2, 3}, two[2] = {7, 8};
  CHECK(!assign_run(v, fvec(3, three), true, &st));
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  CHECK(strcmp(st.msg, "Assign requires shapes of both tensors to match. lhs shape= [2] rhs shape= [3]") == 0);
  CHECK(v->value == NULL);
  /* validate_shape=false takes any shape; later validation uses the value's shape. */
  CHECK(assign_run(v, fvec(3, three), false, &st));
  CHECK_EQ_INT(v->value->nelems, 3);
  CHECK(!assign_run(v, fvec(2, two), true, &st));
  CHECK(strcmp(st.msg, "Assign requires shapes of both tensors to match. lhs shape= [3] rhs shape= [2]") == 0);
  /* An unknown declared shape validates against [] (TF's behaviour). */
  tfc_status s2;
  tfc_shape unk = tfc_shape_unknown();
  tfc_var *u = tfc_resource_var(rm, "", "u", TFC_DTYPE_FLOAT, &unk, &s2);
  CHECK(!assign_run(u, fvec(3, three), true, &st));
  CHECK(strcmp(st.msg, "Assign requires shapes of both tensors to match. lhs shape= [] rhs shape= [3]") == 0);
  CHECK(assign_run(u, fscalar(4), true, &st));
  tfc_var_unref(u);
  tfc_var_unref(v);
  tfc_resource_mgr_free(rm);
}

TFC_TEST(state_assign_copy_on_write) {
  tfc_resource_mgr *rm = tfc_resource_mgr_new();
  tfc_var *v = fvar(rm, "v", 2, NULL);
  tfc_status st;
  float a[2] = {1, 2}, b[2] = {3, 4}, c[2] = {5, 6};
  /* First assign adopts the value tensor itself. */
  tfc_tensor *ta = fvec(2, a);
  tfc_tensor_ref(ta);
  CHECK(assign_run(v, ta, true, &st));
  CHECK(v->value == ta);
  /* The value is shared with ta's holder: the next assign replaces it. */
  CHECK(assign_run(v, fvec(2, b), true, &st));
  CHECK(v->value != ta);
  CHECK(((float *)ta->data)[0] == 1.0f);
  tfc_tensor_unref(ta);
  /* Now the value is private (only the var holds it): copied in place. */
  tfc_tensor *before = v->value;
  CHECK(assign_run(v, fvec(2, c), true, &st));
  CHECK(v->value == before);
  CHECK(((float *)v->value->data)[0] == 5.0f && ((float *)v->value->data)[1] == 6.0f);
  /* A reader keeps its snapshot. */
  tfc_tensor *snap = tfc_var_read(v);
  CHECK(assign_run(v, fvec(2, a), true, &st));
  CHECK(v->value != snap);
  CHECK(((float *)snap->data)[0] == 5.0f);
  CHECK(((float *)v->value->data)[0] == 1.0f);
  tfc_tensor_unref(snap);
  tfc_var_unref(v);
  tfc_resource_mgr_free(rm);
}

/* ------------------------------------------------------- AssignAdd / Sub */

/* Runs AssignAdd/AssignSub of value into v. */
static bool update_run(const char *op, tfc_var *v, tfc_tensor *value, tfc_status *st) {
  krun k;
  kr_begin(&k, op, 2, 1, NULL);
  kr_attr(&k, "T", tfc_attr_type(value->dtype));
  bool ok = kr_init(&k, "upd");
  k.ref[0] = v;
  k.in[1] = value;
  ok = ok && kr_run(&k, "upd");
  if (ok && k.rout[0] != v) ok = tfc_status_set(&k.st, TFC_CODE_INTERNAL, "ref output is not the var");
  tfc_status_copy(st, &k.st);
  kr_free(&k);
  return ok;
}

TFC_TEST(state_assign_add_sub_in_place_and_cow) {
  tfc_resource_mgr *rm = tfc_resource_mgr_new();
  float x[2] = {1, 2}, d[2] = {10, 20};
  tfc_var *v = fvar(rm, "v", 2, x);
  tfc_status st;
  tfc_tensor *before = v->value;
  CHECK(update_run("AssignAdd", v, fvec(2, d), &st));
  CHECK(v->value == before); /* private: updated in place */
  CHECK(((float *)v->value->data)[0] == 11.0f && ((float *)v->value->data)[1] == 22.0f);
  tfc_tensor *snap = tfc_var_read(v);
  CHECK(update_run("AssignSub", v, fvec(2, x), &st));
  CHECK(v->value != snap); /* shared with a reader: copy on write */
  CHECK(((float *)snap->data)[0] == 11.0f);
  CHECK(((float *)v->value->data)[0] == 10.0f && ((float *)v->value->data)[1] == 20.0f);
  tfc_tensor_unref(snap);
  /* Shape mismatch and uninitialized variables. */
  float three[3] = {1, 2, 3};
  CHECK(!update_run("AssignAdd", v, fvec(3, three), &st));
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  CHECK(strcmp(st.msg, "Parameters and update must be the same size") == 0);
  tfc_var *u = fvar(rm, "uninit", 2, NULL);
  CHECK(!update_run("AssignAdd", u, fvec(2, x), &st));
  CHECK_CODE(&st, TFC_CODE_FAILED_PRECONDITION);
  CHECK(strcmp(st.msg, "Attempting to use uninitialized value uninit") == 0);
  tfc_var_unref(u);
  tfc_var_unref(v);
  tfc_resource_mgr_free(rm);
}

TFC_TEST(state_assign_add_integer_types) {
  tfc_resource_mgr *rm = tfc_resource_mgr_new();
  tfc_status st;
  tfc_shape s = tfc_shape_scalar();
  tfc_var *v = tfc_resource_var(rm, "", "i", TFC_DTYPE_INT32, &s, &st);
  int32_t big = 2147483647, one = 1;
  tfc_var_set(v, tfc_tensor_scalar(TFC_DTYPE_INT32, &big, &st));
  CHECK(update_run("AssignAdd", v, tfc_tensor_scalar(TFC_DTYPE_INT32, &one, &st), &st));
  CHECK_EQ_INT(*(int32_t *)v->value->data, -2147483647 - 1); /* wraps like TF */
  tfc_var *h = tfc_resource_var(rm, "", "h", TFC_DTYPE_HALF, &s, &st);
  tfc_half h1 = tfc_float_to_half(1.5f), h2 = tfc_float_to_half(0.25f);
  tfc_var_set(h, tfc_tensor_scalar(TFC_DTYPE_HALF, &h1, &st));
  CHECK(update_run("AssignSub", h, tfc_tensor_scalar(TFC_DTYPE_HALF, &h2, &st), &st));
  CHECK(tfc_half_to_float(*(tfc_half *)h->value->data) == 1.25f);
  tfc_var_unref(h);
  tfc_var_unref(v);
  tfc_resource_mgr_free(rm);
}

/* --------------------------------------------- IsVariableInitialized etc. */

TFC_TEST(state_is_variable_initialized) {
  tfc_resource_mgr *rm = tfc_resource_mgr_new();
  tfc_var *v = fvar(rm, "v", 2, NULL);
  krun k;
  kr_begin(&k, "IsVariableInitialized", 1, 1, NULL);
  kr_attr(&k, "dtype", tfc_attr_type(TFC_DTYPE_FLOAT));
  k.out_types[0] = TFC_DTYPE_BOOL;
  CHECK(kr_init(&k, "init?"));
  k.ref[0] = v;
  CHECK(kr_run(&k, "init?"));
  CHECK(k.out[0] && k.out[0]->dtype == TFC_DTYPE_BOOL && k.out[0]->rank == 0);
  CHECK(*(bool *)k.out[0]->data == false);
  float x[2] = {1, 2};
  tfc_var_set(v, fvec(2, x));
  CHECK(kr_run(&k, "init?"));
  CHECK(*(bool *)k.out[0]->data == true);
  kr_free(&k);
  tfc_var_unref(v);
  tfc_resource_mgr_free(rm);
}

TFC_TEST(state_count_up_to) {
  tfc_resource_mgr *rm = tfc_resource_mgr_new();
  tfc_status st;
  tfc_shape s = tfc_shape_scalar();
  tfc_var *v = tfc_resource_var(rm, "", "c", TFC_DTYPE_INT64, &s, &st);
  int64_t zero = 0;
  tfc_var_set(v, tfc_tensor_scalar(TFC_DTYPE_INT64, &zero, &st));
  krun k;
  kr_begin(&k, "CountUpTo", 1, 1, NULL);
  kr_attr(&k, "T", tfc_attr_type(TFC_DTYPE_INT64));
  kr_attr(&k, "limit", tfc_attr_int(2));
  k.out_types[0] = TFC_DTYPE_INT64;
  CHECK(kr_init(&k, "count"));
  k.ref[0] = v;
  CHECK(kr_run(&k, "count"));
  CHECK_EQ_INT(*(int64_t *)k.out[0]->data, 0);
  CHECK(kr_run(&k, "count"));
  CHECK_EQ_INT(*(int64_t *)k.out[0]->data, 1);
  CHECK(!kr_run(&k, "count"));
  CHECK_CODE(&k.st, TFC_CODE_OUT_OF_RANGE);
  CHECK(strcmp(k.st.msg, "Reached limit of 2") == 0);
  CHECK_EQ_INT(*(int64_t *)v->value->data, 2);
  kr_free(&k);
  tfc_var_unref(v);
  tfc_resource_mgr_free(rm);
}

TFC_TEST(state_temporary_variable_roundtrip) {
  tfc_resource_mgr *rm = tfc_resource_mgr_new();
  krun t, d;
  int64_t dim = 3;
  kr_begin(&t, "TemporaryVariable", 0, 1, rm);
  kr_attr(&t, "dtype", tfc_attr_type(TFC_DTYPE_FLOAT));
  kr_attr(&t, "shape", tfc_attr_shape(tfc_shape_make(1, &dim)));
  kr_attr(&t, "var_name", tfc_attr_string("acc", 3));
  CHECK(kr_init(&t, "tmp"));
  CHECK(kr_run(&t, "tmp"));
  tfc_var *v = t.rout[0];
  CHECK(v && v->value && v->value->nelems == 3 && ((float *)v->value->data)[2] == 0.0f);
  CHECK_EQ_INT(tfc_resource_mgr_count(rm), 1);
  kr_begin(&d, "DestroyTemporaryVariable", 1, 1, rm);
  kr_attr(&d, "T", tfc_attr_type(TFC_DTYPE_FLOAT));
  kr_attr(&d, "var_name", tfc_attr_string("acc", 3));
  d.out_types[0] = TFC_DTYPE_FLOAT;
  CHECK(kr_init(&d, "destroy"));
  d.ref[0] = v;
  CHECK(kr_run(&d, "destroy"));
  CHECK(d.out[0] && d.out[0]->nelems == 3);
  CHECK_EQ_INT(tfc_resource_mgr_count(rm), 0);
  kr_free(&d);
  kr_free(&t);
  tfc_resource_mgr_free(rm);
}

/* ------------------------------------------------------- training updates */

/* Runs an Apply* op: n_vars Ref inputs (vars), then the other inputs. */
static bool apply_run(const char *op, tfc_var **vars, int n_vars, tfc_tensor **others, int n_others,
                      const char *flag, bool flag_value, tfc_status *st) {
  krun k;
  kr_begin(&k, op, n_vars + n_others, 1, NULL);
  kr_attr(&k, "T", tfc_attr_type(TFC_DTYPE_FLOAT));
  if (flag) kr_attr(&k, flag, tfc_attr_bool(flag_value));
  bool ok = kr_init(&k, op);
  for (int i = 0; i < n_vars; i++) k.ref[i] = vars[i];
  for (int i = 0; i < n_others; i++) k.in[n_vars + i] = others[i];
  ok = ok && kr_run(&k, op);
  if (ok && k.rout[0] != vars[0]) ok = tfc_status_set(&k.st, TFC_CODE_INTERNAL, "bad ref output");
  tfc_status_copy(st, &k.st);
  kr_free(&k);
  return ok;
}

static const float k_init[3] = {1.0f, 2.0f, -3.0f};
static const float k_grad[3] = {0.5f, -1.5f, 2.25f};

/* True when variable v holds exactly the float bit patterns b[0..3). */
static bool var_bits_are(tfc_var *v, const uint32_t *b) {
  for (int i = 0; i < 3; i++)
    if (fbits(v, i) != b[i]) {
      fprintf(stderr, "  element %d: got 0x%08x (%.9g), want 0x%08x\n", i, fbits(v, i),
              (double)((float *)v->value->data)[i], b[i]);
      return false;
    }
  return true;
}

TFC_TEST(state_apply_gradient_descent_matches_tf) {
  tfc_resource_mgr *rm = tfc_resource_mgr_new();
  tfc_var *v = fvar(rm, "v", 3, k_init);
  tfc_status st;
  tfc_tensor *before = v->value;
  tfc_tensor *in[2] = {fscalar(0.1f), fvec(3, k_grad)};
  CHECK(apply_run("ApplyGradientDescent", &v, 1, in, 2, NULL, false, &st));
  const uint32_t want[3] = {0x3f733333, 0x4009999a, 0xc04e6666};
  CHECK(var_bits_are(v, want));
  CHECK(v->value == before); /* in place despite the executor's read */
  float a2[2] = {1, 2};
  tfc_tensor *bad[2] = {fvec(2, a2), fvec(3, k_grad)};
  CHECK(!apply_run("ApplyGradientDescent", &v, 1, bad, 2, NULL, false, &st));
  CHECK(strcmp(st.msg, "alpha is not a scalar: [2]") == 0);
  tfc_tensor *bad2[2] = {fscalar(0.1f), fvec(2, a2)};
  CHECK(!apply_run("ApplyGradientDescent", &v, 1, bad2, 2, NULL, false, &st));
  CHECK(strcmp(st.msg, "var and delta do not have the same shape[3] [2]") == 0);
  tfc_var *u = fvar(rm, "u", 3, NULL);
  tfc_tensor *in2[2] = {fscalar(0.1f), fvec(3, k_grad)};
  CHECK(!apply_run("ApplyGradientDescent", &u, 1, in2, 2, NULL, false, &st));
  CHECK_CODE(&st, TFC_CODE_FAILED_PRECONDITION);
  tfc_var_unref(u);
  tfc_var_unref(v);
  tfc_resource_mgr_free(rm);
}

TFC_TEST(state_apply_momentum_matches_tf) {
  tfc_resource_mgr *rm = tfc_resource_mgr_new();
  const float acc[3] = {0.1f, 0.2f, 0.3f};
  tfc_status st;
  for (int nesterov = 0; nesterov < 2; nesterov++) {
    tfc_var *vars[2] = {fvar(rm, nesterov ? "vn" : "v", 3, k_init), fvar(rm, nesterov ? "an" : "a", 3, acc)};
    tfc_tensor *in[3] = {fscalar(0.1f), fvec(3, k_grad), fscalar(0.9f)};
    CHECK(apply_run("ApplyMomentum", vars, 2, in, 3, "use_nesterov", nesterov, &st));
    const uint32_t want_v[2][3] = {{0x3f70e560, 0x400872b0, 0xc05020c5},
                                   {0x3f659b3d, 0x40113405, 0xc05cea4a}};
    const uint32_t want_a[3] = {0x3f170a3d, 0xbfa8f5c3, 0x402147ae};
    CHECK(var_bits_are(vars[0], want_v[nesterov]));
    CHECK(var_bits_are(vars[1], want_a));
    tfc_var_unref(vars[0]);
    tfc_var_unref(vars[1]);
  }
  tfc_resource_mgr_free(rm);
}

TFC_TEST(state_apply_adam_matches_tf) {
  tfc_resource_mgr *rm = tfc_resource_mgr_new();
  const float m[3] = {0.1f, -0.2f, 0.3f}, s[3] = {0.01f, 0.02f, 0.03f};
  tfc_var *vars[3] = {fvar(rm, "v", 3, k_init), fvar(rm, "m", 3, m), fvar(rm, "s", 3, s)};
  tfc_status st;
  tfc_tensor *in[7] = {fscalar(0.9f * 0.9f), fscalar(0.999f * 0.999f), fscalar(0.01f),
                       fscalar(0.9f), fscalar(0.999f), fscalar(1e-8f), fvec(3, k_grad)};
  /* TF's test fed beta powers computed in double then rounded to float. */
  *(float *)in[0]->data = (float)(0.9 * 0.9);
  *(float *)in[1]->data = (float)(0.999 * 0.999);
  CHECK(apply_run("ApplyAdam", vars, 3, in, 7, "use_nesterov", false, &st));
  const uint32_t want_v[3] = {0x3f7f2aa4, 0x40005555, 0xc04065f7};
  const uint32_t want_m[3] = {0x3e0f5c2a, 0xbea8f5c4, 0x3efd70a6};
  const uint32_t want_s[3] = {0x3c27c5a9, 0x3cb61ba1, 0x3d0f7e2c};
  CHECK(var_bits_are(vars[1], want_m));
  CHECK(var_bits_are(vars[2], want_s));
  CHECK(var_bits_are(vars[0], want_v));
  for (int i = 0; i < 3; i++) tfc_var_unref(vars[i]);
  tfc_resource_mgr_free(rm);
}

TFC_TEST(state_apply_adagrad_close_to_tf) {
  tfc_resource_mgr *rm = tfc_resource_mgr_new();
  const float acc[3] = {0.1f, 0.2f, 0.3f};
  tfc_var *vars[2] = {fvar(rm, "v", 3, k_init), fvar(rm, "a", 3, acc)};
  tfc_status st;
  tfc_tensor *in[2] = {fscalar(0.1f), fvec(3, k_grad)};
  CHECK(apply_run("ApplyAdagrad", vars, 2, in, 2, "update_slots", true, &st));
  /* TF uses Eigen's fast rsqrt: equal to within a few ulps. */
  const float want_v[3] = {0.915484548f, 2.09583139f, -3.09716249f};
  const uint32_t want_a[3] = {0x3eb33333, 0x401ccccd, 0x40ab999a};
  for (int i = 0; i < 3; i++) CHECK_NEAR(((float *)vars[0]->value->data)[i], want_v[i], 1e-6);
  CHECK(var_bits_are(vars[1], want_a));
  for (int i = 0; i < 2; i++) tfc_var_unref(vars[i]);
  tfc_resource_mgr_free(rm);
}

TFC_TEST(state_apply_rmsprop_matches_tf) {
  tfc_resource_mgr *rm = tfc_resource_mgr_new();
  const float ms[3] = {0.1f, 0.2f, 0.3f}, mom[3] = {0.01f, -0.02f, 0.03f};
  tfc_var *vars[3] = {fvar(rm, "v", 3, k_init), fvar(rm, "ms", 3, ms), fvar(rm, "mom", 3, mom)};
  tfc_status st;
  tfc_tensor *in[5] = {fscalar(0.01f), fscalar(0.9f), fscalar(0.5f), fscalar(1e-7f), fvec(3, k_grad)};
  CHECK(apply_run("ApplyRMSProp", vars, 3, in, 5, NULL, false, &st));
  const uint32_t want_v[3] = {0x3f7af20c, 0x40022604, 0xc042982b};
  const uint32_t want_ms[3] = {0x3deb8520, 0x3ecf5c2a, 0x3f46b854};
  const uint32_t want_mom[3] = {0x3ca1be90, 0xbd0980ee, 0x3d260ad9};
  CHECK(var_bits_are(vars[1], want_ms));
  CHECK(var_bits_are(vars[2], want_mom));
  CHECK(var_bits_are(vars[0], want_v));
  for (int i = 0; i < 3; i++) tfc_var_unref(vars[i]);
  tfc_resource_mgr_free(rm);
}

TFC_TEST(state_apply_copies_shared_slot) {
  tfc_resource_mgr *rm = tfc_resource_mgr_new();
  const float acc[3] = {0.1f, 0.2f, 0.3f};
  tfc_var *vars[2] = {fvar(rm, "v", 3, k_init), fvar(rm, "a", 3, acc)};
  tfc_tensor *snap = tfc_var_read(vars[1]);
  tfc_status st;
  tfc_tensor *in[3] = {fscalar(0.1f), fvec(3, k_grad), fscalar(0.9f)};
  CHECK(apply_run("ApplyMomentum", vars, 2, in, 3, NULL, false, &st));
  CHECK(vars[1]->value != snap);
  CHECK(((float *)snap->data)[0] == 0.1f);
  tfc_tensor_unref(snap);
  for (int i = 0; i < 2; i++) tfc_var_unref(vars[i]);
  tfc_resource_mgr_free(rm);
}

/* ------------------------------------------------------------ op tables */

TFC_TEST(state_op_defs_parse) {
  const char *ops[] = {"VariableV2", "Variable", "TemporaryVariable", "DestroyTemporaryVariable",
                       "Assign", "AssignAdd", "AssignSub", "IsVariableInitialized", "CountUpTo",
                       "ApplyGradientDescent", "ApplyMomentum", "ApplyAdam", "ApplyAdagrad",
                       "ApplyRMSProp"};
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
    const tfc_op_def *d = tfc_op_lookup(ops[i]);
    if (d == NULL) fprintf(stderr, "  missing op %s\n", ops[i]);
    CHECK(d != NULL);
    CHECK(tfc_kernel_exists(ops[i], "CPU"));
  }
  const tfc_op_def *a = tfc_op_lookup("Assign");
  CHECK(a->inputs[0].is_ref && a->outputs[0].is_ref);
  CHECK(a->flags & TFC_OP_ALLOWS_UNINIT);
  CHECK(tfc_op_lookup("VariableV2")->flags & TFC_OP_STATEFUL);
  CHECK_EQ_INT(tfc_op_lookup("ApplyAdam")->n_inputs, 10);
}

/* ------------------------------------------------ through graph + session */

#include "graph/graph.h"
#include "runtime/session.h"

/* Adds node `op` with single-tensor inputs in[0..n) and attrs (consumed). */
static int add_node(tfc_graph *g, const char *op, const char *name, int n, const int *in,
                    tfc_attrs *attrs, tfc_status *st) {
  int sizes[8];
  tfc_endpoint eps[8];
  for (int i = 0; i < n; i++) {
    sizes[i] = 1;
    eps[i] = (tfc_endpoint){in[i], 0};
  }
  tfc_attrs empty;
  tfc_attrs_init(&empty);
  tfc_node_request req = {.op_type = op, .name = name, .n_args = n, .arg_sizes = sizes,
                          .inputs = eps, .attrs = attrs ? attrs : &empty};
  tfc_node *node = tfc_graph_add_node(g, &req, st);
  if (attrs) tfc_attrs_destroy(attrs);
  tfc_attrs_destroy(&empty);
  return node ? node->id : -1;
}

/* Adds a float Const holding vals (a vector of n, or a scalar when n == 0). */
static int add_fconst(tfc_graph *g, const char *name, int n, const float *vals, tfc_status *st) {
  tfc_attrs a;
  tfc_attrs_init(&a);
  tfc_attr_value tv = {.kind = TFC_ATTR_TENSOR, .v.tensor = n ? fvec(n, vals) : fscalar(vals[0])};
  tfc_attrs_set(&a, "value", &tv, st);
  tfc_attr_value dt = tfc_attr_type(TFC_DTYPE_FLOAT);
  tfc_attrs_set(&a, "dtype", &dt, st);
  return add_node(g, "Const", name, 0, NULL, &a, st);
}

/* Runs one step fetching `fetch` (output 0; -1: none) with target `target`
 * (-1: none); returns the fetched value (new reference) or NULL. */
static tfc_tensor *run1(tfc_session *s, int fetch, int target, tfc_status *st) {
  tfc_endpoint f = {fetch, 0};
  tfc_plan *p = tfc_session_plan(s, 0, NULL, fetch >= 0, &f, target >= 0, &target, st);
  if (p == NULL) return NULL;
  tfc_tensor *out = NULL;
  if (!tfc_session_run(s, p, NULL, fetch >= 0 ? &out : NULL, st)) return NULL;
  return out;
}

TFC_TEST(state_session_variable_lifecycle) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_graph *g = tfc_graph_new();
  const float init[2] = {1, 2}, delta[2] = {10, 20}, lr = 0.5f, three[3] = {1, 2, 3};
  int c_init = add_fconst(g, "init", 2, init, &st);
  int c_delta = add_fconst(g, "delta", 2, delta, &st);
  int c_lr = add_fconst(g, "lr", 0, &lr, &st);
  int c3 = add_fconst(g, "three", 3, three, &st);
  tfc_attrs a;
  tfc_attrs_init(&a);
  int64_t d2 = 2;
  tfc_attr_value av = tfc_attr_shape(tfc_shape_make(1, &d2));
  tfc_attrs_set(&a, "shape", &av, &st);
  av = tfc_attr_type(TFC_DTYPE_FLOAT);
  tfc_attrs_set(&a, "dtype", &av, &st);
  int v = add_node(g, "VariableV2", "v", 0, NULL, &a, &st);
  CHECK_STATUS_OK(&st);
  CHECK_EQ_INT(tfc_graph_node(g, v)->out_types[0], tfc_dtype_ref(TFC_DTYPE_FLOAT));
  int in_assign[2] = {v, c_init}, in_add[2] = {v, c_delta}, in_gd[3] = {v, c_lr, c_delta};
  int assign = add_node(g, "Assign", "v/Assign", 2, in_assign, NULL, &st);
  int read = add_node(g, "Identity", "v/read", 1, &v, NULL, &st);
  int add = add_node(g, "AssignAdd", "v/AssignAdd", 2, in_add, NULL, &st);
  int gd = add_node(g, "ApplyGradientDescent", "v/gd", 3, in_gd, NULL, &st);
  int isinit = add_node(g, "IsVariableInitialized", "v/IsInitialized", 1, &v, NULL, &st);
  CHECK_STATUS_OK(&st);
  CHECK_EQ_INT(tfc_graph_node(g, add)->out_shapes[0].rank, 1);
  /* Build-time shape check of Assign (TF's wording). */
  int in_bad[2] = {v, c3};
  CHECK(add_node(g, "Assign", "bad", 2, in_bad, NULL, &st) < 0);
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  CHECK(strstr(st.msg, "Dimension 0 in both shapes must be equal, but are 2 and 3. Shapes are [2] and [3].") != NULL);
  tfc_status_clear(&st);

  tfc_session_options opts = {.inter_op_threads = 1, .intra_op_threads = 1, .n_cpu_devices = 1};
  tfc_session *s = tfc_session_new(g, &opts, &st);
  CHECK(s != NULL);
  tfc_tensor *r = run1(s, isinit, -1, &st);
  CHECK(r && *(bool *)r->data == false);
  tfc_tensor_unref(r);
  CHECK(run1(s, read, -1, &st) == NULL);
  CHECK_CODE(&st, TFC_CODE_FAILED_PRECONDITION);
  CHECK(strstr(st.msg, "Attempting to use uninitialized value v") != NULL);
  tfc_status_clear(&st);
  CHECK(run1(s, add, -1, &st) == NULL);
  CHECK_CODE(&st, TFC_CODE_FAILED_PRECONDITION);
  tfc_status_clear(&st);

  run1(s, -1, assign, &st);
  CHECK_STATUS_OK(&st);
  r = run1(s, read, -1, &st);
  CHECK(r && ((float *)r->data)[0] == 1.0f && ((float *)r->data)[1] == 2.0f);
  /* r is held: the update must not change it. */
  tfc_tensor *r2 = run1(s, add, -1, &st);
  CHECK_STATUS_OK(&st);
  CHECK(r2 && ((float *)r2->data)[0] == 11.0f && ((float *)r2->data)[1] == 22.0f);
  CHECK(((float *)r->data)[0] == 1.0f);
  tfc_tensor_unref(r);
  tfc_tensor_unref(r2);
  run1(s, -1, gd, &st);
  CHECK_STATUS_OK(&st);
  r = run1(s, read, -1, &st);
  CHECK(r && ((float *)r->data)[0] == 6.0f && ((float *)r->data)[1] == 12.0f);
  tfc_tensor_unref(r);
  r = run1(s, isinit, -1, &st);
  CHECK(r && *(bool *)r->data == true);
  tfc_tensor_unref(r);
  tfc_session_free(s);
  tfc_graph_unref(g);
}

/* ------------------------------------------------------ out of memory */

TFC_TEST(state_oom_is_a_status) {
  tfc_resource_mgr *rm = tfc_resource_mgr_new();
  float x[2] = {1, 2}, d[2] = {10, 20};
  tfc_var *v = fvar(rm, "v", 2, x);
  tfc_tensor *snap = tfc_var_read(v); /* forces AssignAdd to allocate */
  krun k;
  kr_begin(&k, "AssignAdd", 2, 1, NULL);
  kr_attr(&k, "T", tfc_attr_type(TFC_DTYPE_FLOAT));
  CHECK(kr_init(&k, "upd"));
  k.ref[0] = v;
  k.in[1] = fvec(2, d);
  tfc_alloc_fail_after(1);
  bool ok = kr_run(&k, "upd");
  tfc_alloc_fail_after(0);
  CHECK(!ok);
  CHECK_CODE(&k.st, TFC_CODE_RESOURCE_EXHAUSTED);
  CHECK(v->value == snap && ((float *)v->value->data)[0] == 1.0f); /* unchanged */
  CHECK(k.rout[0] == NULL);
  CHECK(kr_run(&k, "upd"));
  CHECK(((float *)v->value->data)[0] == 11.0f);
  kr_free(&k);
  tfc_tensor_unref(snap);
  /* Creating a variable. */
  tfc_status st;
  tfc_status_clear(&st);
  tfc_shape s = tfc_shape_scalar();
  for (int n = 1; n <= 4; n++) {
    tfc_alloc_fail_after(n);
    tfc_var *w = tfc_resource_var(rm, "", "w", TFC_DTYPE_FLOAT, &s, &st);
    tfc_alloc_fail_after(0);
    if (w == NULL) {
      CHECK_CODE(&st, TFC_CODE_RESOURCE_EXHAUSTED);
      CHECK(tfc_resource_lookup(rm, "", "w") == NULL);
      tfc_status_clear(&st);
    } else {
      tfc_var_unref(w);
      CHECK(tfc_resource_remove(rm, "", "w"));
    }
  }
  tfc_var_unref(v);
  tfc_resource_mgr_free(rm);
}
