/*
 * test_scatter_misc.c — the Scatter* ref-variable updates (ScatterUpdate /
 * Add / Sub / Mul / Div / Min / Max), CheckNumerics and Multinomial: op
 * definitions and shape functions, kernels with TF's results and messages
 * (recorded from TensorFlow 2.21 ref variables / tf.raw_ops in graph mode),
 * the copy-on-write rule, and thread-count independence.
 */
#include <math.h>
#include <string.h>

#include "base/alloc.h"
#include "base/threadpool.h"
#include "core/dtype.h"
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
  int n_in;
  tfc_tensor *in[4];      /* owned (NULL for Ref inputs) */
  tfc_var *ref[4];        /* set: input i is a Ref input of this variable (borrowed) */
  tfc_tensor *out[2];
  tfc_var *rout[2];
  tfc_dtype out_types[2];
  tfc_threadpool *pool;
} krun;

/* Starts a run of op with n_in inputs (one output) and dtype attr `T`
 * (skipped when INVALID). */
static void kr_begin(krun *k, const char *op, int n_in, tfc_dtype T) {
  memset(k, 0, sizeof *k);
  k->op = op;
  k->n_in = n_in;
  tfc_attrs_init(&k->attrs);
  tfc_status_clear(&k->st);
  if (T != TFC_DTYPE_INVALID) {
    tfc_attr_value v = tfc_attr_type(T);
    tfc_attrs_set(&k->attrs, "T", &v, &k->st);
  }
}

/* Sets an int attr. */
static void kr_int(krun *k, const char *name, int64_t i) {
  tfc_attr_value v = tfc_attr_int(i);
  tfc_attrs_set(&k->attrs, name, &v, &k->st);
}

/* Looks the kernel up and runs its init; false with k->st set on failure. */
static bool kr_init(krun *k) {
  k->def = tfc_kernel_lookup(k->op, "CPU", &k->attrs);
  if (k->def == NULL) return tfc_status_set(&k->st, TFC_CODE_NOT_FOUND, "no kernel for %s", k->op);
  tfc_kernel_init ki = {.node_name = k->op, .op_type = k->op, .attrs = &k->attrs,
                        .n_inputs = k->n_in, .n_outputs = 1, .out_types = k->out_types,
                        .st = &k->st};
  return k->def->init == NULL || k->def->init(&ki, &k->state);
}

/* Drops the outputs of the previous run. */
static void kr_clear_outputs(krun *k) {
  tfc_tensor_unref(k->out[0]);
  tfc_var_unref(k->rout[0]);
  k->out[0] = NULL;
  k->rout[0] = NULL;
}

/* Runs compute once, like the executor: a Ref input is read, and the read
 * reference is held for the duration of the call. */
static bool kr_run(krun *k) {
  kr_clear_outputs(k);
  tfc_status_clear(&k->st);
  tfc_tensor *inputs[4];
  for (int i = 0; i < k->n_in; i++) inputs[i] = k->ref[i] ? tfc_var_read(k->ref[i]) : k->in[i];
  tfc_kernel_ctx ctx = {.node_name = k->op, .op_type = k->op, .attrs = &k->attrs,
                        .state = k->state, .n_inputs = k->n_in, .inputs = inputs,
                        .ref_inputs = k->ref, .n_outputs = 1, .outputs = k->out,
                        .ref_outputs = k->rout, .out_types = k->out_types, .st = &k->st,
                        .intra_pool = k->pool};
  k->def->compute(&ctx);
  for (int i = 0; i < k->n_in; i++)
    if (k->ref[i]) tfc_tensor_unref(inputs[i]);
  return k->st.code == TFC_CODE_OK;
}

/* Frees everything the run holds (non-Ref inputs included). */
static void kr_free(krun *k) {
  kr_clear_outputs(k);
  for (int i = 0; i < k->n_in; i++) tfc_tensor_unref(k->in[i]);
  if (k->def && k->def->destroy) k->def->destroy(k->state);
  tfc_attrs_destroy(&k->attrs);
}

/* A tensor of dtype and dims holding vals (nelems * dtype size bytes). */
static tfc_tensor *mk(tfc_dtype dt, int rank, const int64_t *dims, const void *vals) {
  tfc_status st;
  tfc_tensor *t = tfc_tensor_new(dt, rank, dims, &st);
  if (t && t->nelems > 0 && vals) memcpy(t->data, vals, tfc_tensor_nbytes(t));
  return t;
}

/* A variable of dtype holding a copy of the given value (declared shape = dims). */
static tfc_var *mkvar(tfc_resource_mgr *rm, const char *name, tfc_dtype dt, int rank,
                      const int64_t *dims, const void *vals) {
  tfc_status st;
  tfc_shape s = tfc_shape_make(rank, dims);
  tfc_var *v = tfc_resource_var(rm, "", name, dt, &s, &st);
  if (v && vals) tfc_var_set(v, mk(dt, rank, dims, vals));
  return v;
}

/* Runs Scatter op on v with indices and updates (consumed). */
static bool scatter_run(const char *op, tfc_var *v, tfc_tensor *indices, tfc_tensor *updates,
                        tfc_threadpool *pool, tfc_status *st) {
  krun k;
  kr_begin(&k, op, 3, v->dtype);
  k.pool = pool;
  bool ok = kr_init(&k);
  k.ref[0] = v;
  k.in[1] = indices;
  k.in[2] = updates;
  ok = ok && kr_run(&k);
  if (ok && k.rout[0] != v) ok = tfc_status_set(&k.st, TFC_CODE_INTERNAL, "ref output is not the var");
  if (!ok && k.rout[0] != NULL) ok = tfc_status_set(&k.st, TFC_CODE_INTERNAL, "ref output on failure");
  tfc_status_copy(st, &k.st);
  kr_free(&k);
  return ok;
}

/* An int32 index vector. */
static tfc_tensor *idx32(int n, const int32_t *v) {
  int64_t d = n;
  return mk(TFC_DTYPE_INT32, 1, &d, v);
}

/* True when the float variable's value equals want[0..n). */
static bool fvals_are(const tfc_var *v, const float *want, int n) {
  if (v->value == NULL || v->value->nelems != n) return false;
  for (int i = 0; i < n; i++) {
    float g = ((const float *)v->value->data)[i];
    if (!(g == want[i] || (isnan(g) && isnan(want[i])))) {
      fprintf(stderr, "  [%d] got %g want %g\n", i, (double)g, (double)want[i]);
      return false;
    }
  }
  return true;
}

/* ------------------------------------------------------------ op defs */

TFC_TEST(scatter_misc_op_defs) {
  const char *scatter[] = {"ScatterUpdate", "ScatterAdd", "ScatterSub", "ScatterMul",
                           "ScatterDiv", "ScatterMin", "ScatterMax"};
  for (size_t i = 0; i < sizeof scatter / sizeof scatter[0]; i++) {
    const tfc_op_def *d = tfc_op_lookup(scatter[i]);
    CHECK(d != NULL);
    CHECK(tfc_kernel_exists(scatter[i], "CPU"));
    CHECK_EQ_INT(d->n_inputs, 3);
    CHECK(d->inputs[0].is_ref && !d->inputs[1].is_ref && d->outputs[0].is_ref);
    CHECK(strcmp(d->outputs[0].name, "output_ref") == 0);
    CHECK(!(d->flags & (TFC_OP_STATEFUL | TFC_OP_ALLOWS_UNINIT)));
    const tfc_attr_def *ul = tfc_op_find_attr(d, "use_locking");
    CHECK(ul != NULL && ul->has_default);
    CHECK(ul->default_value.v.b == (i == 0)); /* only ScatterUpdate locks by default */
    const tfc_attr_def *ti = tfc_op_find_attr(d, "Tindices");
    CHECK(ti != NULL && ti->n_allowed_types == 2 && !ti->has_default);
  }
  CHECK_EQ_INT(tfc_op_find_attr(tfc_op_lookup("ScatterUpdate"), "T")->n_allowed_types, 0);
  CHECK_EQ_INT(tfc_op_find_attr(tfc_op_lookup("ScatterAdd"), "T")->n_allowed_types, 19);
  CHECK_EQ_INT(tfc_op_find_attr(tfc_op_lookup("ScatterMax"), "T")->n_allowed_types, 6);
  /* Like TF, the quantized number types have no CPU kernels. */
  tfc_attrs a;
  tfc_attrs_init(&a);
  tfc_status st;
  tfc_attr_value t = tfc_attr_type(TFC_DTYPE_QINT8);
  tfc_attrs_set(&a, "T", &t, &st);
  CHECK(tfc_kernel_lookup("ScatterAdd", "CPU", &a) == NULL);
  CHECK(tfc_kernel_lookup("ScatterUpdate", "CPU", &a) != NULL);
  tfc_attrs_destroy(&a);

  const tfc_op_def *cn = tfc_op_lookup("CheckNumerics");
  CHECK(cn != NULL && tfc_kernel_exists("CheckNumerics", "CPU"));
  CHECK(cn->flags & TFC_OP_STATEFUL);
  CHECK(!tfc_op_find_attr(cn, "message")->has_default);
  CHECK_EQ_INT(tfc_op_find_attr(cn, "T")->n_allowed_types, 4);

  const tfc_op_def *mn = tfc_op_lookup("Multinomial");
  CHECK(mn != NULL && tfc_kernel_exists("Multinomial", "CPU"));
  CHECK(mn->flags & TFC_OP_STATEFUL);
  CHECK_EQ_INT(mn->inputs[1].type, TFC_DTYPE_INT32);
  const tfc_attr_def *od = tfc_op_find_attr(mn, "output_dtype");
  CHECK(od != NULL && od->has_default && od->default_value.v.type == TFC_DTYPE_INT64);
  CHECK_EQ_INT(tfc_op_find_attr(mn, "T")->n_allowed_types, 12);
  CHECK(strcmp(mn->attrs[0].name, "seed") == 0 && strcmp(mn->attrs[1].name, "seed2") == 0);
}

/* ------------------------------------------------------------ shape functions */

/* Runs op's shape function on shapes (vals: constant inputs or NULL) into out[0]. */
static bool shape_run(const char *op, int n_in, const tfc_shape *shapes, tfc_tensor **vals,
                      tfc_shape *out, tfc_status *st) {
  tfc_status_clear(st);
  const tfc_op_def *def = tfc_op_lookup(op);
  if (def == NULL) return tfc_status_set(st, TFC_CODE_NOT_FOUND, "no op %s", op);
  tfc_attrs attrs;
  tfc_attrs_init(&attrs);
  tfc_dtype types[4] = {TFC_DTYPE_FLOAT, TFC_DTYPE_INT32, TFC_DTYPE_FLOAT, TFC_DTYPE_FLOAT};
  tfc_tensor *none[4] = {NULL, NULL, NULL, NULL};
  *out = tfc_shape_unknown();
  tfc_shape_ctx ctx = {.def = def, .attrs = &attrs, .node_name = "n", .n_inputs = n_in,
                       .in_shapes = shapes, .in_types = types, .in_values = vals ? vals : none,
                       .n_outputs = 1, .out_shapes = out, .st = st};
  bool ok = def->shape_fn(&ctx);
  tfc_attrs_destroy(&attrs);
  return ok;
}

/* A shape from a dims list (-1 = unknown dim). */
static tfc_shape sh(int rank, const int64_t *dims) { return tfc_shape_make(rank, dims); }

TFC_TEST(scatter_shape_fn) {
  tfc_status st;
  tfc_shape out;
  const int64_t v53[] = {5, 3}, i2[] = {2}, u23[] = {2, 3}, u24[] = {2, 4}, i22[] = {2, 2},
                u223[] = {2, 2, 3}, u2q[] = {-1, 3};
  tfc_shape s1[3] = {sh(2, v53), sh(1, i2), sh(2, u23)};
  CHECK(shape_run("ScatterUpdate", 3, s1, NULL, &out, &st));
  CHECK(out.rank == 2 && out.dims[0] == 5 && out.dims[1] == 3);
  tfc_shape s2[3] = {sh(2, v53), sh(2, i22), sh(3, u223)};
  CHECK(shape_run("ScatterAdd", 3, s2, NULL, &out, &st));
  tfc_shape s3[3] = {sh(2, v53), sh(1, i2), tfc_shape_scalar()};   /* scalar updates */
  CHECK(shape_run("ScatterMul", 3, s3, NULL, &out, &st));
  tfc_shape s4[3] = {sh(2, v53), sh(1, i2), sh(2, u2q)};            /* partial merges */
  CHECK(shape_run("ScatterSub", 3, s4, NULL, &out, &st));
  tfc_shape s5[3] = {tfc_shape_unknown(), sh(1, i2), sh(1, i2)};    /* unknown var rank */
  CHECK(shape_run("ScatterUpdate", 3, s5, NULL, &out, &st));
  CHECK(out.rank == -1);
  tfc_shape s6[3] = {tfc_shape_scalar(), sh(1, i2), sh(1, i2)};     /* TF: ref[1:] of a scalar is [] */
  CHECK(shape_run("ScatterUpdate", 3, s6, NULL, &out, &st));
  CHECK(out.rank == 0);
  tfc_shape bad1[3] = {sh(2, v53), sh(1, i2), sh(2, u24)};
  CHECK(!shape_run("ScatterUpdate", 3, bad1, NULL, &out, &st));
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  CHECK(strstr(st.msg, "Dimension 1 in both shapes must be equal, but are 4 and 3. Shapes are "
                       "[2,4] and [2,3]. for '{{node n}} = ScatterUpdate") == st.msg);
  CHECK(strstr(st.msg, "with input shapes: [5,3], [2], [2,4].") != NULL);
  tfc_shape bad2[3] = {sh(2, v53), sh(1, i2), sh(1, i2)};
  CHECK(!shape_run("ScatterMax", 3, bad2, NULL, &out, &st));
  CHECK(strstr(st.msg, "Shapes must be equal rank, but are 1 and 2 for '{{node n}}") == st.msg);
}

TFC_TEST(multinomial_shape_fn) {
  tfc_status st;
  tfc_shape out;
  const int64_t l34[] = {3, 4}, one[] = {1};
  int32_t five = 5, neg = -3;
  tfc_tensor *c5 = mk(TFC_DTYPE_INT32, 0, NULL, &five), *cneg = mk(TFC_DTYPE_INT32, 0, NULL, &neg);
  tfc_shape s[2] = {sh(2, l34), tfc_shape_scalar()};
  tfc_tensor *vals[2] = {NULL, c5};
  CHECK(shape_run("Multinomial", 2, s, vals, &out, &st));
  CHECK(out.rank == 2 && out.dims[0] == 3 && out.dims[1] == 5);
  CHECK(shape_run("Multinomial", 2, s, NULL, &out, &st));
  CHECK(out.rank == 2 && out.dims[0] == 3 && out.dims[1] == -1);
  tfc_shape su[2] = {tfc_shape_unknown(), tfc_shape_unknown()};
  CHECK(shape_run("Multinomial", 2, su, NULL, &out, &st));
  CHECK(out.rank == 2 && out.dims[0] == -1 && out.dims[1] == -1);
  vals[1] = cneg;
  CHECK(!shape_run("Multinomial", 2, s, vals, &out, &st));
  CHECK(strstr(st.msg, "Dimension size, given by scalar input 1, must be non-negative but is -3 for "
                       "'{{node n}} = Multinomial") == st.msg);
  tfc_shape r1[2] = {sh(1, one), tfc_shape_scalar()};
  CHECK(!shape_run("Multinomial", 2, r1, NULL, &out, &st));
  CHECK(strstr(st.msg, "Shape must be rank 2 but is rank 1 for") == st.msg);
  tfc_shape r2[2] = {sh(2, l34), sh(1, one)};
  CHECK(!shape_run("Multinomial", 2, r2, NULL, &out, &st));
  CHECK(strstr(st.msg, "Shape must be rank 0 but is rank 1 for") == st.msg);
  tfc_tensor_unref(c5);
  tfc_tensor_unref(cneg);
}

/* ------------------------------------------------------------ Scatter kernels */

TFC_TEST(scatter_float_ops_match_tf) {
  /* TF 2.21, one ref variable [[1,2],[3,4],[5,6]] updated in sequence. */
  tfc_resource_mgr *rm = tfc_resource_mgr_new();
  const int64_t d32[] = {3, 2}, d1[] = {1}, d2[] = {2}, d22[] = {2, 2}, d12[] = {1, 2},
                d212[] = {2, 1, 2};
  const float init[] = {1, 2, 3, 4, 5, 6};
  tfc_var *v = mkvar(rm, "v", TFC_DTYPE_FLOAT, 2, d32, init);
  tfc_status st;
  const int64_t i00[] = {0, 0}, i1[] = {1}, i2[] = {2}, i22[] = {2, 2}, i0_1[] = {0, 1};
  const float mul[] = {2, 3, 4, 5}, div[] = {2, 0}, mn = 5.5f, mx[] = {9, 1, 7, 8},
              sub[] = {1, 1, 1, 1};
  CHECK(scatter_run("ScatterMul", v, mk(TFC_DTYPE_INT64, 1, d2, i00),
                    mk(TFC_DTYPE_FLOAT, 2, d22, mul), NULL, &st));
  CHECK(fvals_are(v, (const float[]){8, 30, 3, 4, 5, 6}, 6)); /* duplicates accumulate */
  CHECK(scatter_run("ScatterDiv", v, mk(TFC_DTYPE_INT64, 1, d1, i1), mk(TFC_DTYPE_FLOAT, 2, d12, div),
                    NULL, &st));
  CHECK(fvals_are(v, (const float[]){8, 30, 1.5f, INFINITY, 5, 6}, 6));
  CHECK(scatter_run("ScatterMin", v, mk(TFC_DTYPE_INT64, 1, d1, i2), mk(TFC_DTYPE_FLOAT, 0, NULL, &mn),
                    NULL, &st));
  CHECK(fvals_are(v, (const float[]){8, 30, 1.5f, INFINITY, 5, 5.5f}, 6));
  CHECK(scatter_run("ScatterMax", v, mk(TFC_DTYPE_INT64, 1, d2, i22), mk(TFC_DTYPE_FLOAT, 2, d22, mx),
                    NULL, &st));
  CHECK(fvals_are(v, (const float[]){8, 30, 1.5f, INFINITY, 9, 8}, 6));
  const int64_t di[] = {2, 1};
  CHECK(scatter_run("ScatterSub", v, mk(TFC_DTYPE_INT64, 2, di, i0_1),
                    mk(TFC_DTYPE_FLOAT, 3, d212, sub), NULL, &st));
  CHECK(fvals_are(v, (const float[]){7, 29, 0.5f, INFINITY, 9, 8}, 6));
  /* NaN updates are ignored by min and max (TF: min(p, nan) = p). */
  const float nan1[] = {NAN, 1}, nan2[] = {NAN, -INFINITY};
  const int32_t r0 = 0, r1 = 1;
  CHECK(scatter_run("ScatterMin", v, idx32(1, &r0), mk(TFC_DTYPE_FLOAT, 2, d12, nan1), NULL, &st));
  CHECK(scatter_run("ScatterMax", v, idx32(1, &r1), mk(TFC_DTYPE_FLOAT, 2, d12, nan2), NULL, &st));
  CHECK(fvals_are(v, (const float[]){7, 1, 0.5f, INFINITY, 9, 8}, 6));
  /* ScatterUpdate: the last of duplicate indices wins; a scalar fills rows. */
  const int32_t dup[] = {1, 1};
  const float rows[] = {1, 2, 3, 4}, five = 5;
  CHECK(scatter_run("ScatterUpdate", v, idx32(2, dup), mk(TFC_DTYPE_FLOAT, 2, d22, rows), NULL, &st));
  CHECK(fvals_are(v, (const float[]){7, 1, 3, 4, 9, 8}, 6));
  CHECK(scatter_run("ScatterUpdate", v, mk(TFC_DTYPE_INT32, 0, NULL, &r0),
                    mk(TFC_DTYPE_FLOAT, 1, d2, rows), NULL, &st));
  CHECK(scatter_run("ScatterAdd", v, idx32(1, &r1), mk(TFC_DTYPE_FLOAT, 0, NULL, &five), NULL, &st));
  CHECK(fvals_are(v, (const float[]){1, 2, 8, 9, 9, 8}, 6));
  /* No indices: nothing changes. */
  CHECK(scatter_run("ScatterAdd", v, idx32(0, NULL), mk(TFC_DTYPE_FLOAT, 2, (int64_t[]){0, 2}, NULL),
                    NULL, &st));
  CHECK(fvals_are(v, (const float[]){1, 2, 8, 9, 9, 8}, 6));
  tfc_var_unref(v);
  tfc_resource_mgr_free(rm);
}

TFC_TEST(scatter_errors_match_tf_and_leave_var_unchanged) {
  tfc_resource_mgr *rm = tfc_resource_mgr_new();
  const int64_t d53[] = {5, 3}, d23[] = {2, 3}, d22[] = {2, 2}, d223[] = {2, 2, 3}, d33[] = {3, 3},
                d2[] = {2}, d3[] = {3};
  float init[15], ones[12];
  for (int i = 0; i < 15; i++) init[i] = (float)i;
  for (int i = 0; i < 12; i++) ones[i] = 1;
  tfc_var *v = mkvar(rm, "v", TFC_DTYPE_FLOAT, 2, d53, init);
  tfc_status st;
  const int32_t bad[] = {0, 7}, bad2[] = {0, 1, 2, 9}, nine = 9, neg = -1, ok2[] = {1, 2};
  CHECK(!scatter_run("ScatterUpdate", v, idx32(2, bad), mk(TFC_DTYPE_FLOAT, 2, d23, ones), NULL, &st));
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  CHECK(strcmp(st.msg, "indices[1] = 7 is not in [0, 5)") == 0);
  CHECK(!scatter_run("ScatterAdd", v, mk(TFC_DTYPE_INT32, 2, d22, bad2), mk(TFC_DTYPE_FLOAT, 3, d223, ones),
                     NULL, &st));
  CHECK(strcmp(st.msg, "indices[1,1] = 9 is not in [0, 5)") == 0);
  CHECK(!scatter_run("ScatterAdd", v, mk(TFC_DTYPE_INT32, 0, NULL, &nine), mk(TFC_DTYPE_FLOAT, 1, d3, ones),
                     NULL, &st));
  CHECK(strcmp(st.msg, "indices = 9 is not in [0, 5)") == 0);
  CHECK(!scatter_run("ScatterSub", v, idx32(1, &neg), mk(TFC_DTYPE_FLOAT, 2, (int64_t[]){1, 3}, ones),
                     NULL, &st));
  CHECK(strcmp(st.msg, "indices[0] = -1 is not in [0, 5)") == 0);
  CHECK(fvals_are(v, init, 15)); /* nothing was applied (TF applies the rows before the bad one) */
  CHECK(!scatter_run("ScatterUpdate", v, idx32(2, ok2), mk(TFC_DTYPE_FLOAT, 2, d33, ones), NULL, &st));
  CHECK(strcmp(st.msg, "Must have updates.shape = indices.shape + params.shape[1:] or updates.shape = "
                       "[], got updates.shape [3,3], indices.shape [2], params.shape [5,3]") == 0);
  CHECK(!scatter_run("ScatterUpdate", v, idx32(2, ok2), mk(TFC_DTYPE_FLOAT, 1, d2, ones), NULL, &st));
  CHECK(strstr(st.msg, "got updates.shape [2], indices.shape [2], params.shape [5,3]") != NULL);
  /* Uninitialized and scalar variables. */
  tfc_var *u = mkvar(rm, "u", TFC_DTYPE_FLOAT, 2, d53, NULL);
  CHECK(!scatter_run("ScatterAdd", u, idx32(1, ok2), mk(TFC_DTYPE_FLOAT, 2, (int64_t[]){1, 3}, ones),
                     NULL, &st));
  CHECK_CODE(&st, TFC_CODE_FAILED_PRECONDITION);
  CHECK(strcmp(st.msg, "Attempting to use uninitialized value u") == 0);
  float one = 1;
  tfc_var *s = mkvar(rm, "s", TFC_DTYPE_FLOAT, 0, NULL, &one);
  const int32_t zero = 0;
  CHECK(!scatter_run("ScatterUpdate", s, idx32(1, &zero), mk(TFC_DTYPE_FLOAT, 1, (int64_t[]){1}, ones),
                     NULL, &st));
  CHECK(strcmp(st.msg, "params must be at least 1-D, got shape []") == 0);
  tfc_var_unref(s);
  tfc_var_unref(u);
  tfc_var_unref(v);
  tfc_resource_mgr_free(rm);
}

TFC_TEST(scatter_in_place_and_copy_on_write) {
  tfc_resource_mgr *rm = tfc_resource_mgr_new();
  const int64_t d32[] = {3, 2}, d12[] = {1, 2};
  const float init[] = {1, 2, 3, 4, 5, 6}, upd[] = {10, 20};
  const int32_t r1 = 1;
  tfc_var *v = mkvar(rm, "v", TFC_DTYPE_FLOAT, 2, d32, init);
  tfc_status st;
  tfc_tensor *before = v->value;
  CHECK(scatter_run("ScatterAdd", v, idx32(1, &r1), mk(TFC_DTYPE_FLOAT, 2, d12, upd), NULL, &st));
  CHECK(v->value == before); /* private: updated in place */
  CHECK(fvals_are(v, (const float[]){1, 2, 13, 24, 5, 6}, 6));
  tfc_tensor *snap = tfc_var_read(v);
  CHECK(scatter_run("ScatterUpdate", v, idx32(1, &r1), mk(TFC_DTYPE_FLOAT, 2, d12, upd), NULL, &st));
  CHECK(v->value != snap); /* a reader holds it: copied first */
  CHECK(((float *)snap->data)[2] == 13.0f && ((float *)snap->data)[4] == 5.0f);
  CHECK(fvals_are(v, (const float[]){1, 2, 10, 20, 5, 6}, 6));
  tfc_tensor_unref(snap);
  /* Borrowed memory (a fed NumPy array) is never written in place. */
  static float borrowed[6] = {1, 1, 1, 1, 1, 1};
  tfc_var_set(v, tfc_tensor_wrap(TFC_DTYPE_FLOAT, 2, d32, borrowed, NULL, NULL, &st));
  CHECK(scatter_run("ScatterSub", v, idx32(1, &r1), mk(TFC_DTYPE_FLOAT, 2, d12, upd), NULL, &st));
  CHECK(borrowed[2] == 1.0f);
  CHECK(fvals_are(v, (const float[]){1, 1, -9, -19, 1, 1}, 6));
  tfc_var_unref(v);
  tfc_resource_mgr_free(rm);
}

TFC_TEST(scatter_integer_half_complex_string) {
  tfc_resource_mgr *rm = tfc_resource_mgr_new();
  tfc_status st;
  const int64_t d3[] = {3}, d2[] = {2}, d1[] = {1};
  /* int32: wrapping add, truncating division, INT_MIN / -1 without a trap. */
  const int32_t iv[] = {7, -7, INT32_MIN}, two2[] = {2, 2}, m1 = -1, zero = 0;
  const int32_t i01[] = {0, 1}, i2 = 2;
  tfc_var *v = mkvar(rm, "i", TFC_DTYPE_INT32, 1, d3, iv);
  CHECK(scatter_run("ScatterDiv", v, idx32(2, i01), mk(TFC_DTYPE_INT32, 1, d2, two2), NULL, &st));
  CHECK(scatter_run("ScatterDiv", v, idx32(1, &i2), mk(TFC_DTYPE_INT32, 1, d1, &m1), NULL, &st));
  const int32_t *p = v->value->data;
  CHECK(p[0] == 3 && p[1] == -3 && p[2] == INT32_MIN);
  CHECK(scatter_run("ScatterAdd", v, idx32(1, &i2), mk(TFC_DTYPE_INT32, 1, d1, &m1), NULL, &st));
  CHECK(((int32_t *)v->value->data)[2] == INT32_MAX);
  CHECK(!scatter_run("ScatterDiv", v, idx32(1, &i2), mk(TFC_DTYPE_INT32, 1, d1, &zero), NULL, &st));
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  CHECK(strcmp(st.msg, "Integer division by zero") == 0);
  CHECK(scatter_run("ScatterMin", v, idx32(1, &i2), mk(TFC_DTYPE_INT32, 1, d1, &m1), NULL, &st));
  CHECK(((int32_t *)v->value->data)[2] == -1);
  tfc_var_unref(v);
  /* uint16 multiplication wraps without int overflow. */
  const uint16_t uv[] = {65535, 2}, um[] = {65535, 3};
  tfc_var *w = mkvar(rm, "w", TFC_DTYPE_UINT16, 1, d2, uv);
  CHECK(scatter_run("ScatterMul", w, idx32(2, i01), mk(TFC_DTYPE_UINT16, 1, d2, um), NULL, &st));
  CHECK(((uint16_t *)w->value->data)[0] == 1 && ((uint16_t *)w->value->data)[1] == 6);
  tfc_var_unref(w);
  /* half: computed in float, rounded back. */
  tfc_half hv[] = {tfc_float_to_half(1.5f), tfc_float_to_half(-2.0f)};
  tfc_half hq = tfc_float_to_half(0.25f);
  tfc_var *h = mkvar(rm, "h", TFC_DTYPE_HALF, 1, d2, hv);
  CHECK(scatter_run("ScatterSub", h, idx32(2, i01), mk(TFC_DTYPE_HALF, 0, NULL, &hq), NULL, &st));
  CHECK(tfc_half_to_float(((tfc_half *)h->value->data)[0]) == 1.25f);
  CHECK(tfc_half_to_float(((tfc_half *)h->value->data)[1]) == -2.25f);
  tfc_var_unref(h);
  /* complex64: (1+2i) * (3+4i) = -5+10i; (-5+10i) / (1+2i) = 3+4i. */
  const float cv[] = {1, 2}, cm[] = {3, 4}, cd[] = {1, 2};
  tfc_var *c = mkvar(rm, "c", TFC_DTYPE_COMPLEX64, 1, d1, cv);
  CHECK(scatter_run("ScatterMul", c, idx32(1, &zero), mk(TFC_DTYPE_COMPLEX64, 1, d1, cm), NULL, &st));
  CHECK(((float *)c->value->data)[0] == -5.0f && ((float *)c->value->data)[1] == 10.0f);
  CHECK(scatter_run("ScatterDiv", c, idx32(1, &zero), mk(TFC_DTYPE_COMPLEX64, 1, d1, cd), NULL, &st));
  CHECK(((float *)c->value->data)[0] == 3.0f && ((float *)c->value->data)[1] == 4.0f);
  tfc_var_unref(c);
  /* string: ScatterUpdate deep-copies the elements; readers keep theirs. */
  tfc_tensor *sv = tfc_tensor_new(TFC_DTYPE_STRING, 1, d2, &st);
  CHECK(tfc_tensor_set_string(sv, 0, "a", 1, &st) && tfc_tensor_set_string(sv, 1, "b", 1, &st));
  tfc_var *s = mkvar(rm, "s", TFC_DTYPE_STRING, 1, d2, NULL);
  tfc_var_set(s, sv);
  tfc_tensor *snap = tfc_var_read(s);
  tfc_tensor *su = tfc_tensor_new(TFC_DTYPE_STRING, 1, d1, &st);
  CHECK(tfc_tensor_set_string(su, 0, "hello", 5, &st));
  CHECK(scatter_run("ScatterUpdate", s, idx32(1, &zero), su, NULL, &st));
  const tfc_string *e = s->value->data;
  CHECK(e[0].len == 5 && memcmp(e[0].data, "hello", 5) == 0 && e[1].len == 1);
  CHECK(((const tfc_string *)snap->data)[0].len == 1);
  tfc_tensor_unref(snap);
  tfc_var_unref(s);
  tfc_resource_mgr_free(rm);
}

TFC_TEST(scatter_parallel_matches_sequential) {
  /* Wide rows are split by columns over the pool; duplicate indices must still
   * accumulate in order. Integer values make the sums exact. */
  enum { ROWS = 4, COLS = 40000, N = 6 };
  tfc_resource_mgr *rm = tfc_resource_mgr_new();
  tfc_threadpool *pool = tfc_threadpool_new(4);
  CHECK(pool != NULL);
  const int64_t dv[] = {ROWS, COLS}, du[] = {N, COLS};
  const int32_t ind[N] = {3, 1, 3, 0, 3, 1};
  float *init = tfc_malloc(sizeof(float) * ROWS * COLS), *upd = tfc_malloc(sizeof(float) * N * COLS);
  CHECK(init != NULL && upd != NULL);
  for (int i = 0; i < ROWS * COLS; i++) init[i] = (float)(i % 97);
  for (int i = 0; i < N * COLS; i++) upd[i] = (float)(i % 13) - 6.0f;
  const char *ops[] = {"ScatterAdd", "ScatterUpdate", "ScatterMax"};
  for (int o = 0; o < 3; o++) {
    tfc_var *a = mkvar(rm, "a", TFC_DTYPE_FLOAT, 2, dv, init);
    tfc_var *b = mkvar(rm, "b", TFC_DTYPE_FLOAT, 2, dv, init);
    tfc_status st;
    CHECK(scatter_run(ops[o], a, idx32(N, ind), mk(TFC_DTYPE_FLOAT, 2, du, upd), NULL, &st));
    CHECK(scatter_run(ops[o], b, idx32(N, ind), mk(TFC_DTYPE_FLOAT, 2, du, upd), pool, &st));
    CHECK(memcmp(a->value->data, b->value->data, sizeof(float) * ROWS * COLS) == 0);
    /* spot check: column 5 of row 3 after ScatterAdd = init + three updates */
    if (o == 0) {
      float want = init[3 * COLS + 5] + upd[0 * COLS + 5] + upd[2 * COLS + 5] + upd[4 * COLS + 5];
      CHECK(((float *)a->value->data)[3 * COLS + 5] == want);
    }
    tfc_var_unref(a);
    tfc_var_unref(b);
    tfc_resource_mgr_clear(rm);
  }
  tfc_free(init);
  tfc_free(upd);
  tfc_threadpool_free(pool);
  tfc_resource_mgr_free(rm);
}

/* ------------------------------------------------------------ CheckNumerics */

/* Runs CheckNumerics on t (consumed) with message; *forwarded tells whether
 * the output is the input tensor itself. */
static bool check_numerics_run(tfc_tensor *t, const char *message, tfc_status *st, bool *forwarded) {
  krun k;
  kr_begin(&k, "CheckNumerics", 1, t->dtype);
  tfc_attr_value m = tfc_attr_string(message, strlen(message));
  tfc_attrs_set(&k.attrs, "message", &m, &k.st);
  bool ok = kr_init(&k);
  k.in[0] = t;
  ok = ok && kr_run(&k);
  *forwarded = ok && k.out[0] == t;
  tfc_status_copy(st, &k.st);
  kr_free(&k);
  return ok;
}

TFC_TEST(check_numerics_messages) {
  tfc_status st;
  bool fwd;
  const int64_t d2[] = {2};
  const float fine[] = {1, 2}, nan[] = {1, NAN}, inf[] = {INFINITY, 1}, both[] = {-INFINITY, NAN};
  CHECK(check_numerics_run(mk(TFC_DTYPE_FLOAT, 1, d2, fine), "my msg", &st, &fwd));
  CHECK(fwd);
  CHECK(!check_numerics_run(mk(TFC_DTYPE_FLOAT, 1, d2, nan), "my msg", &st, &fwd));
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  CHECK(strcmp(st.msg, "my msg : Tensor had NaN values") == 0);
  CHECK(!check_numerics_run(mk(TFC_DTYPE_FLOAT, 1, d2, inf), "my msg", &st, &fwd));
  CHECK(strcmp(st.msg, "my msg : Tensor had Inf values") == 0);
  CHECK(!check_numerics_run(mk(TFC_DTYPE_FLOAT, 1, d2, both), "", &st, &fwd));
  CHECK(strcmp(st.msg, " : Tensor had Inf and NaN values") == 0);
  const double dn[] = {0, NAN};
  CHECK(!check_numerics_run(mk(TFC_DTYPE_DOUBLE, 1, d2, dn), "d", &st, &fwd));
  CHECK(strcmp(st.msg, "d : Tensor had NaN values") == 0);
  /* 16-bit floats: exponent all ones means Inf (zero mantissa) or NaN. */
  const uint16_t hinf[] = {0x3c00, 0xfc00}, hnan[] = {0x7e00, 0}, hmax[] = {0x7bff, 0xfbff};
  CHECK(!check_numerics_run(mk(TFC_DTYPE_HALF, 1, d2, hinf), "h", &st, &fwd));
  CHECK(strcmp(st.msg, "h : Tensor had Inf values") == 0);
  CHECK(!check_numerics_run(mk(TFC_DTYPE_HALF, 1, d2, hnan), "h", &st, &fwd));
  CHECK(strcmp(st.msg, "h : Tensor had NaN values") == 0);
  CHECK(check_numerics_run(mk(TFC_DTYPE_HALF, 1, d2, hmax), "h", &st, &fwd));
  const uint16_t binf[] = {0x7f80, 0x3f80}, bnan[] = {0x7fc0, 0x7f7f};
  CHECK(!check_numerics_run(mk(TFC_DTYPE_BFLOAT16, 1, d2, binf), "b", &st, &fwd));
  CHECK(strcmp(st.msg, "b : Tensor had Inf values") == 0);
  CHECK(!check_numerics_run(mk(TFC_DTYPE_BFLOAT16, 1, d2, bnan), "b", &st, &fwd));
  CHECK(strcmp(st.msg, "b : Tensor had NaN values") == 0);
  /* Empty tensors pass. */
  const int64_t d0[] = {0};
  CHECK(check_numerics_run(mk(TFC_DTYPE_FLOAT, 1, d0, NULL), "e", &st, &fwd));
}

/* ------------------------------------------------------------ Multinomial */

/* Makes a Multinomial kernel with seeds, logits type and output dtype. */
static bool mn_make(krun *k, int64_t seed, int64_t seed2, tfc_dtype T, tfc_dtype out) {
  kr_begin(k, "Multinomial", 2, T);
  kr_int(k, "seed", seed);
  kr_int(k, "seed2", seed2);
  tfc_attr_value v = tfc_attr_type(out);
  tfc_attrs_set(&k->attrs, "output_dtype", &v, &k->st);
  k->out_types[0] = out;
  return kr_init(k);
}

/* Runs the kernel on logits (consumed) and num_samples. */
static bool mn_run(krun *k, tfc_tensor *logits, int32_t samples) {
  tfc_tensor_unref(k->in[0]);
  tfc_tensor_unref(k->in[1]);
  k->in[0] = logits;
  k->in[1] = mk(TFC_DTYPE_INT32, 0, NULL, &samples);
  return kr_run(k);
}

/* True when t is [rows, cols] with the given values. */
static bool ints_are(const tfc_tensor *t, int64_t rows, int64_t cols, const int64_t *want) {
  if (t == NULL || t->rank != 2 || t->dims[0] != rows || t->dims[1] != cols) return false;
  for (int64_t i = 0; i < rows * cols; i++) {
    if (tfc_tensor_get_int64(t, i) != want[i]) {
      fprintf(stderr, "  [%lld] got %lld want %lld\n", (long long)i,
              (long long)tfc_tensor_get_int64(t, i), (long long)want[i]);
      return false;
    }
  }
  return true;
}

TFC_TEST(multinomial_matches_tf_stream) {
  /* tf.raw_ops.Multinomial(seed=7, seed2=3), three runs of one kernel. */
  krun k;
  CHECK(mn_make(&k, 7, 3, TFC_DTYPE_FLOAT, TFC_DTYPE_INT64));
  const int64_t d34[] = {3, 4}, d15[] = {1, 5};
  const float L[] = {0, 1, 2, 3, 3, 0, 0, 0, 1, 1, 1, 1};
  CHECK(mn_run(&k, mk(TFC_DTYPE_FLOAT, 2, d34, L), 5));
  CHECK(k.out[0]->dtype == TFC_DTYPE_INT64);
  CHECK(ints_are(k.out[0], 3, 5, (const int64_t[]){2, 3, 3, 0, 3, 0, 0, 0, 2, 0, 0, 3, 3, 3, 2}));
  CHECK(mn_run(&k, mk(TFC_DTYPE_FLOAT, 2, d34, L), 5));
  CHECK(ints_are(k.out[0], 3, 5, (const int64_t[]){3, 3, 3, 3, 3, 0, 0, 0, 0, 0, 0, 2, 3, 0, 0}));
  /* Non-finite logits get no mass. */
  const float nf[] = {0, -INFINITY, NAN, 1, INFINITY};
  CHECK(mn_run(&k, mk(TFC_DTYPE_FLOAT, 2, d15, nf), 8));
  CHECK(ints_are(k.out[0], 1, 8, (const int64_t[]){3, 3, 3, 0, 3, 0, 0, 0}));
  kr_free(&k);
  /* double logits (L / 2), int32 output. */
  CHECK(mn_make(&k, 7, 3, TFC_DTYPE_DOUBLE, TFC_DTYPE_INT32));
  double Ld[12];
  for (int i = 0; i < 12; i++) Ld[i] = L[i] * 0.5;
  CHECK(mn_run(&k, mk(TFC_DTYPE_DOUBLE, 2, d34, Ld), 6));
  CHECK(k.out[0]->dtype == TFC_DTYPE_INT32);
  CHECK(ints_are(k.out[0], 3, 6, (const int64_t[]){1, 2, 3, 0, 2, 3, 1, 2, 3, 1, 0, 2, 3, 3, 2, 1,
                                                    2, 1}));
  kr_free(&k);
  /* half logits, seed=1, seed2=2. */
  CHECK(mn_make(&k, 1, 2, TFC_DTYPE_HALF, TFC_DTYPE_INT64));
  const float hf[] = {-1, 0.5f, 2, 0, 0, -8};
  tfc_half hl[6];
  for (int i = 0; i < 6; i++) hl[i] = tfc_float_to_half(hf[i]);
  const int64_t d23[] = {2, 3};
  CHECK(mn_run(&k, mk(TFC_DTYPE_HALF, 2, d23, hl), 9));
  CHECK(ints_are(k.out[0], 2, 9, (const int64_t[]){2, 2, 2, 2, 2, 2, 2, 2, 2, 0, 0, 1, 1, 0, 1, 1,
                                                    1, 1}));
  kr_free(&k);
}

TFC_TEST(multinomial_errors_and_edges) {
  krun k;
  CHECK(mn_make(&k, 1, 1, TFC_DTYPE_FLOAT, TFC_DTYPE_INT64));
  const int64_t d2[] = {2}, d12[] = {1, 2}, d20[] = {2, 0}, d03[] = {0, 3}, d13[] = {1, 3};
  const float two[] = {1, 2};
  CHECK(!mn_run(&k, mk(TFC_DTYPE_FLOAT, 1, d2, two), 3));
  CHECK_CODE(&k.st, TFC_CODE_INVALID_ARGUMENT);
  CHECK(strcmp(k.st.msg, "logits should be a matrix, got shape [2]") == 0);
  CHECK(!mn_run(&k, mk(TFC_DTYPE_FLOAT, 2, d12, two), -2));
  CHECK(strcmp(k.st.msg, "num_samples should be non-negative, got -2") == 0);
  CHECK(!mn_run(&k, mk(TFC_DTYPE_FLOAT, 2, d20, NULL), 3));
  CHECK(strcmp(k.st.msg, "num_classes should be positive, got 0") == 0);
  tfc_tensor_unref(k.in[1]);
  const int32_t v3[] = {3};
  k.in[1] = mk(TFC_DTYPE_INT32, 1, (const int64_t[]){1}, v3);
  CHECK(!kr_run(&k));
  CHECK(strcmp(k.st.msg, "num_samples should be a scalar, got shape [1]") == 0);
  /* Empty outputs; a row with no finite logit yields num_classes. */
  CHECK(mn_run(&k, mk(TFC_DTYPE_FLOAT, 2, d03, NULL), 3));
  CHECK(k.out[0]->rank == 2 && k.out[0]->dims[0] == 0 && k.out[0]->dims[1] == 3);
  CHECK(mn_run(&k, mk(TFC_DTYPE_FLOAT, 2, d12, two), 0));
  CHECK(k.out[0]->dims[0] == 1 && k.out[0]->dims[1] == 0);
  const float nf[] = {-INFINITY, NAN, INFINITY};
  CHECK(mn_run(&k, mk(TFC_DTYPE_FLOAT, 2, d13, nf), 3));
  CHECK(ints_are(k.out[0], 1, 3, (const int64_t[]){3, 3, 3}));
  kr_free(&k);
  /* TF has no kernel for integer logits. */
  kr_begin(&k, "Multinomial", 2, TFC_DTYPE_INT32);
  CHECK(!kr_init(&k));
  kr_free(&k);
}

TFC_TEST(multinomial_thread_count_independent_and_distributed) {
  enum { B = 64, C = 50, S = 2000 };
  float *L = tfc_malloc(sizeof(float) * B * C);
  CHECK(L != NULL);
  for (int b = 0; b < B; b++)
    for (int c = 0; c < C; c++) L[b * C + c] = (c == b % C) ? 2.0f : (c % 5 == 0 ? 1.0f : 0.0f);
  const int64_t d[] = {B, C};
  krun a, p;
  CHECK(mn_make(&a, 42, 9, TFC_DTYPE_FLOAT, TFC_DTYPE_INT32));
  CHECK(mn_make(&p, 42, 9, TFC_DTYPE_FLOAT, TFC_DTYPE_INT32));
  p.pool = tfc_threadpool_new(4);
  CHECK(p.pool != NULL);
  CHECK(mn_run(&a, mk(TFC_DTYPE_FLOAT, 2, d, L), S));
  CHECK(mn_run(&p, mk(TFC_DTYPE_FLOAT, 2, d, L), S));
  CHECK(memcmp(a.out[0]->data, p.out[0]->data, sizeof(int32_t) * B * S) == 0);
  /* Row 7: class 7 has weight e^2, classes 0,5,..,45 weight e, the rest 1. */
  double total = exp(2.0) + 10 * exp(1.0) + 39;
  int hits7 = 0, hits5 = 0;
  for (int s = 0; s < S; s++) {
    int32_t c = ((int32_t *)a.out[0]->data)[7 * S + s];
    CHECK(c >= 0 && c < C);
    hits7 += c == 7;
    hits5 += c == 5;
  }
  double p7 = exp(2.0) / total, p5 = exp(1.0) / total;
  CHECK_NEAR(hits7 / (double)S, p7, 5 * sqrt(p7 * (1 - p7) / S));
  CHECK_NEAR(hits5 / (double)S, p5, 5 * sqrt(p5 * (1 - p5) / S));
  tfc_threadpool_free(p.pool);
  kr_free(&a);
  kr_free(&p);
  tfc_free(L);
}
