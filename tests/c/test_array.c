/*
 * test_array.c — unit tests of the array family: op specs, shape functions
 * (core/shape_fns_array.c, core/strided_slice.c) and CPU kernels
 * (kernels/array*.c), driven through hand-built shape and kernel contexts.
 *
 * The StridedSlice fixture at the end was generated with TensorFlow 2.21
 * (tf.compat.v1 graph mode): random specs (masks, negative strides, ellipsis,
 * new and shrink axes) applied to arange(int32) inputs, recording the runtime
 * result or error and the static shapes TF infers with fully known and with
 * partially known input shapes.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "base/alloc.h"
#include "base/threadpool.h"
#include "core/op_tables.h"
#include "core/shape_fns_array.h"
#include "core/strided_slice.h"
#include "kernels/kernel_tables.h"

/* ------------------------------------------------------------------ tensor builders */

/* A tensor of dtype dt with the given dims whose data is copied from vals. */
static tfc_tensor *mk(tfc_dtype dt, int rank, const int64_t *dims, const void *vals) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_tensor *t = tfc_tensor_new(dt, rank, dims, &st);
  if (t && vals && t->nelems) memcpy(t->data, vals, tfc_tensor_nbytes(t));
  return t;
}

/* A float tensor holding 0, 1, 2, ... */
static tfc_tensor *iota_f(int rank, const int64_t *dims) {
  tfc_tensor *t = mk(TFC_DTYPE_FLOAT, rank, dims, NULL);
  for (int64_t i = 0; i < t->nelems; i++) ((float *)t->data)[i] = (float)i;
  return t;
}

/* An int32 tensor holding 0, 1, 2, ... */
static tfc_tensor *iota_i(int rank, const int64_t *dims) {
  tfc_tensor *t = mk(TFC_DTYPE_INT32, rank, dims, NULL);
  for (int64_t i = 0; i < t->nelems; i++) ((int32_t *)t->data)[i] = (int32_t)i;
  return t;
}

/* A string tensor whose element i is "s<i>". */
static tfc_tensor *iota_s(int rank, const int64_t *dims) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_tensor *t = mk(TFC_DTYPE_STRING, rank, dims, NULL);
  for (int64_t i = 0; i < t->nelems; i++) {
    char b[32];
    int n = snprintf(b, sizeof b, "s%lld", (long long)i);
    tfc_tensor_set_string(t, i, b, (size_t)n, &st);
  }
  return t;
}

/* An int32 vector of n values. */
static tfc_tensor *ivec(int n, ...) {
  int64_t d = n;
  tfc_tensor *t = mk(TFC_DTYPE_INT32, 1, &d, NULL);
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; i++) ((int32_t *)t->data)[i] = va_arg(ap, int);
  va_end(ap);
  return t;
}

/* An int64 vector of n values. */
static tfc_tensor *lvec(int n, ...) {
  int64_t d = n;
  tfc_tensor *t = mk(TFC_DTYPE_INT64, 1, &d, NULL);
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; i++) ((int64_t *)t->data)[i] = va_arg(ap, int);
  va_end(ap);
  return t;
}

/* An int32 [rows, 2] matrix (paddings) from 2*rows values. */
static tfc_tensor *imat2(int rows, ...) {
  int64_t d[2] = {rows, 2};
  tfc_tensor *t = mk(TFC_DTYPE_INT32, 2, d, NULL);
  va_list ap;
  va_start(ap, rows);
  for (int i = 0; i < 2 * rows; i++) ((int32_t *)t->data)[i] = va_arg(ap, int);
  va_end(ap);
  return t;
}

/* Scalars. */
static tfc_tensor *iscalar(int32_t v) { return mk(TFC_DTYPE_INT32, 0, NULL, &v); }
static tfc_tensor *fscalar(float v) { return mk(TFC_DTYPE_FLOAT, 0, NULL, &v); }

/* A dims array literal helper. */
#define DIMS(...) ((const int64_t[]){__VA_ARGS__})

/* Element accessors. */
static float fget(const tfc_tensor *t, int64_t i) { return ((const float *)t->data)[i]; }
static int64_t iget(const tfc_tensor *t, int64_t i) { return tfc_tensor_get_int64(t, i); }
/* String element i as a C string ("" when empty). */
static const char *sget(const tfc_tensor *t, int64_t i) {
  const tfc_string *s = (const tfc_string *)t->data + i;
  return s->data ? s->data : "";
}

/* True when t has exactly the given dims. */
static bool has_dims(const tfc_tensor *t, int rank, const int64_t *dims) {
  if (!t || t->rank != rank) return false;
  for (int i = 0; i < rank; i++)
    if (t->dims[i] != dims[i]) return false;
  return true;
}

/* ------------------------------------------------------------------ attrs */

/* Attr setters (the attrs map takes ownership of the value). */
static void set_int(tfc_attrs *a, const char *name, int64_t v) {
  tfc_status st;
  tfc_attr_value x = tfc_attr_int(v);
  tfc_attrs_set(a, name, &x, &st);
}
/* Sets attr `name` (see set_int). */
static void set_type(tfc_attrs *a, const char *name, tfc_dtype t) {
  tfc_status st;
  tfc_attr_value x = tfc_attr_type(t);
  tfc_attrs_set(a, name, &x, &st);
}
/* Sets attr `name` (see set_int). */
static void set_str(tfc_attrs *a, const char *name, const char *s) {
  tfc_status st;
  tfc_attr_value x = tfc_attr_string(s, strlen(s));
  tfc_attrs_set(a, name, &x, &st);
}
/* Sets attr `name` (see set_int). */
static void set_shape(tfc_attrs *a, const char *name, tfc_shape s) {
  tfc_status st;
  tfc_attr_value x = tfc_attr_shape(s);
  tfc_attrs_set(a, name, &x, &st);
}
/* Sets attr `name` (see set_int). */
static void set_ints(tfc_attrs *a, const char *name, int n, const int64_t *v) {
  tfc_status st;
  tfc_attr_value x = tfc_attr_list_new(TFC_ATTR_I, n);
  for (int i = 0; i < n; i++) x.v.list.v.i[i] = v[i];
  tfc_attrs_set(a, name, &x, &st);
}
/* Sets attr `name` (see set_int). */
static void set_tensor(tfc_attrs *a, const char *name, tfc_tensor *t) {
  tfc_status st;
  tfc_attr_value x;
  memset(&x, 0, sizeof x);
  x.kind = TFC_ATTR_TENSOR;
  x.v.tensor = t;
  tfc_attrs_set(a, name, &x, &st);
}

/* ------------------------------------------------------------------ kernel runner */

typedef struct kres {
  tfc_status st;
  int n;
  tfc_tensor *out[16];
} kres;

/* The array kernel for op, or NULL. */
static const tfc_kernel_def *kdef(const char *op) {
  for (int i = 0; i < tfc_kernels_array.n; i++)
    if (strcmp(tfc_kernels_array.defs[i].op, op) == 0) return &tfc_kernels_array.defs[i];
  return NULL;
}

/* Runs op's kernel on inputs (taking their references) with attrs (may be
 * NULL; destroyed afterwards) into r. pool may be NULL. */
static void krun_pool(const char *op, tfc_attrs *attrs, int n_in, tfc_tensor **in, int n_out, kres *r,
                      tfc_threadpool *pool) {
  memset(r, 0, sizeof *r);
  tfc_status_clear(&r->st);
  r->n = n_out;
  tfc_attrs empty;
  tfc_attrs_init(&empty);
  if (!attrs) attrs = &empty;
  const tfc_kernel_def *k = kdef(op);
  void *state = NULL;
  if (!k) {
    tfc_status_set(&r->st, TFC_CODE_NOT_FOUND, "no kernel %s", op);
  } else {
    tfc_kernel_init ki = {.node_name = op, .op_type = op, .attrs = attrs, .n_inputs = n_in,
                          .n_outputs = n_out, .st = &r->st};
    if (!k->init || k->init(&ki, &state)) {
      tfc_kernel_ctx ctx;
      memset(&ctx, 0, sizeof ctx);
      ctx.node_name = op;
      ctx.op_type = op;
      ctx.attrs = attrs;
      ctx.state = state;
      ctx.n_inputs = n_in;
      ctx.inputs = in;
      ctx.n_outputs = n_out;
      ctx.outputs = r->out;
      ctx.st = &r->st;
      ctx.intra_pool = pool;
      k->compute(&ctx);
      if (k->destroy) k->destroy(state);
      if (r->st.code != TFC_CODE_OK) { /* as the executor does: a failed kernel's outputs are dropped */
        for (int i = 0; i < n_out; i++) tfc_tensor_unref(r->out[i]);
        memset(r->out, 0, sizeof r->out);
      }
    }
  }
  for (int i = 0; i < n_in; i++) tfc_tensor_unref(in[i]);
  tfc_attrs_destroy(attrs);
}

/* krun_pool without a pool. */
static void krun(const char *op, tfc_attrs *attrs, int n_in, tfc_tensor **in, int n_out, kres *r) {
  krun_pool(op, attrs, n_in, in, n_out, r, NULL);
}

/* Drops r's outputs. */
static void kfree(kres *r) {
  for (int i = 0; i < r->n; i++) tfc_tensor_unref(r->out[i]);
  memset(r->out, 0, sizeof r->out);
}

/* Builds an attrs map (for one-liners). */
static tfc_attrs *attrs_new(void) {
  static tfc_attrs a[4];
  static int k;
  tfc_attrs *p = &a[k++ & 3];
  tfc_attrs_init(p);
  return p;
}

#define IN(...) ((tfc_tensor *[]){__VA_ARGS__})

/* Checks that r failed with INVALID_ARGUMENT and a message containing s. */
#define CHECK_FAILS_WITH(r, s)                                                 \
  do {                                                                         \
    CHECK_CODE(&(r).st, TFC_CODE_INVALID_ARGUMENT);                            \
    if (!strstr((r).st.msg, (s))) TFC_FAIL_("message '%s' lacks '%s'", (r).st.msg, (s)); \
  } while (0)

/* ------------------------------------------------------------------ shape-function runner */

/* A partial shape: rank (-1 unknown) then dims (-1 unknown). */
static tfc_shape shp(int rank, ...) {
  if (rank < 0) return tfc_shape_unknown();
  tfc_shape s = tfc_shape_unknown_dims(rank);
  va_list ap;
  va_start(ap, rank);
  for (int i = 0; i < rank; i++) s.dims[i] = va_arg(ap, int);
  va_end(ap);
  return s;
}

/* Runs op's shape function. vals may be NULL or hold constant inputs (not
 * owned). attrs may be NULL (destroyed afterwards). Returns success. */
static bool srun(const char *op, tfc_attrs *attrs, int n_in, const tfc_shape *shapes, tfc_tensor **vals,
                 int n_out, tfc_shape *out, tfc_status *st) {
  tfc_status_clear(st);
  tfc_attrs empty;
  tfc_attrs_init(&empty);
  if (!attrs) attrs = &empty;
  const tfc_op_spec *spec = NULL;
  for (int i = 0; i < tfc_ops_array.n; i++)
    if (strcmp(tfc_ops_array.specs[i].name, op) == 0) spec = &tfc_ops_array.specs[i];
  bool ok = false;
  tfc_op_def def;
  if (spec && tfc_op_spec_parse(spec, &def, st)) {
    tfc_dtype types[16];
    tfc_tensor *none[16] = {NULL};
    for (int i = 0; i < 16; i++) types[i] = TFC_DTYPE_INT32;
    for (int i = 0; i < n_out; i++) out[i] = tfc_shape_unknown();
    tfc_shape_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.def = &def;
    ctx.attrs = attrs;
    ctx.node_name = "n";
    ctx.n_inputs = n_in;
    ctx.in_shapes = shapes;
    ctx.in_types = types;
    ctx.in_values = vals ? vals : none;
    ctx.n_outputs = n_out;
    ctx.out_shapes = out;
    ctx.st = st;
    ok = def.shape_fn ? def.shape_fn(&ctx) : true;
    tfc_op_def_clear(&def);
  }
  tfc_attrs_destroy(attrs);
  return ok;
}

/* True when s equals the given partial shape. */
static bool shape_is(const tfc_shape *s, int rank, ...) {
  if (s->rank != rank) return false;
  va_list ap;
  va_start(ap, rank);
  bool ok = true;
  for (int i = 0; i < rank; i++) ok &= s->dims[i] == va_arg(ap, int);
  va_end(ap);
  return ok;
}

#define SH(...) ((const tfc_shape[]){__VA_ARGS__})
#define VALS(...) ((tfc_tensor *[]){__VA_ARGS__})

/* ================================================================== op table */

TFC_TEST(array_ops_parse_and_have_kernels) {
  tfc_status st;
  for (int i = 0; i < tfc_ops_array.n; i++) {
    tfc_op_def def;
    tfc_status_clear(&st);
    bool ok = tfc_op_spec_parse(&tfc_ops_array.specs[i], &def, &st);
    if (!ok) TFC_FAIL_("spec %s: %s", tfc_ops_array.specs[i].name, st.msg);
    tfc_op_def_clear(&def);
    if (!kdef(tfc_ops_array.specs[i].name)) TFC_FAIL_("no kernel for %s", tfc_ops_array.specs[i].name);
  }
  for (int i = 0; i < tfc_kernels_array.n; i++) {
    bool found = false;
    for (int k = 0; k < tfc_ops_array.n; k++)
      found |= strcmp(tfc_ops_array.specs[k].name, tfc_kernels_array.defs[i].op) == 0;
    if (!found) TFC_FAIL_("kernel %s has no op", tfc_kernels_array.defs[i].op);
  }
}

/* ================================================================== basic kernels */

TFC_TEST(array_const_outputs_value_by_reference) {
  tfc_tensor *v = iota_f(2, DIMS(2, 3));
  tfc_attrs *a = attrs_new();
  set_tensor(a, "value", tfc_tensor_ref(v));
  set_type(a, "dtype", TFC_DTYPE_FLOAT);
  kres r;
  krun("Const", a, 0, NULL, 1, &r);
  CHECK_STATUS_OK(&r.st);
  CHECK(r.out[0] == v);
  kfree(&r);
  a = attrs_new();
  set_tensor(a, "value", tfc_tensor_ref(v));
  set_type(a, "dtype", TFC_DTYPE_INT32);
  krun("Const", a, 0, NULL, 1, &r);
  CHECK_FAILS_WITH(r, "Type mismatch between value (float) and dtype (int32)");
  kfree(&r);
  tfc_tensor_unref(v);
}

TFC_TEST(array_placeholder_always_fails) {
  tfc_attrs *a = attrs_new();
  set_type(a, "dtype", TFC_DTYPE_FLOAT);
  set_shape(a, "shape", shp(2, -1, 3));
  kres r;
  memset(&r, 0, sizeof r);
  const tfc_kernel_def *k = kdef("Placeholder");
  tfc_kernel_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  tfc_status_clear(&r.st);
  ctx.node_name = "x";
  ctx.attrs = a;
  ctx.n_outputs = 1;
  ctx.outputs = r.out;
  ctx.st = &r.st;
  k->compute(&ctx);
  CHECK_CODE(&r.st, TFC_CODE_INVALID_ARGUMENT);
  CHECK(strcmp(r.st.msg, "You must feed a value for placeholder tensor 'x' with dtype float and shape [?,3]") == 0);
  tfc_attrs_destroy(a);
  a = attrs_new();
  set_type(a, "dtype", TFC_DTYPE_INT32);
  set_shape(a, "shape", tfc_shape_unknown());
  ctx.attrs = a;
  tfc_status_clear(&r.st);
  k->compute(&ctx);
  CHECK(strcmp(r.st.msg, "You must feed a value for placeholder tensor 'x' with dtype int32") == 0);
  tfc_attrs_destroy(a);
}

TFC_TEST(array_identity_family_forwards) {
  static const char *const ops[] = {"Identity", "Snapshot", "StopGradient", "PreventGradient",
                                    "PlaceholderWithDefault"};
  for (int i = 0; i < 5; i++) {
    tfc_tensor *x = iota_s(1, DIMS(3));
    kres r;
    krun(ops[i], NULL, 1, IN(tfc_tensor_ref(x)), 1, &r);
    CHECK_STATUS_OK(&r.st);
    CHECK(r.out[0] == x);
    kfree(&r);
    tfc_tensor_unref(x);
  }
  tfc_tensor *a = iota_f(1, DIMS(2)), *b = ivec(1, 7);
  kres r;
  krun("IdentityN", NULL, 2, IN(tfc_tensor_ref(a), tfc_tensor_ref(b)), 2, &r);
  CHECK(r.out[0] == a && r.out[1] == b);
  kfree(&r);
  tfc_tensor_unref(a);
  tfc_tensor_unref(b);
}

TFC_TEST(array_shape_size_rank) {
  kres r;
  krun("Shape", NULL, 1, IN(iota_s(3, DIMS(2, 0, 5))), 1, &r);
  CHECK_STATUS_OK(&r.st);
  CHECK(r.out[0]->dtype == TFC_DTYPE_INT32 && has_dims(r.out[0], 1, DIMS(3)));
  CHECK(iget(r.out[0], 0) == 2 && iget(r.out[0], 1) == 0 && iget(r.out[0], 2) == 5);
  kfree(&r);
  tfc_attrs *a = attrs_new();
  set_type(a, "out_type", TFC_DTYPE_INT64);
  krun("Shape", a, 1, IN(fscalar(1)), 1, &r);
  CHECK(r.out[0]->dtype == TFC_DTYPE_INT64 && has_dims(r.out[0], 1, DIMS(0)));
  kfree(&r);
  a = attrs_new();
  set_type(a, "out_type", TFC_DTYPE_INT64);
  krun("ShapeN", a, 2, IN(iota_f(2, DIMS(4, 1)), ivec(3, 1, 2, 3)), 2, &r);
  CHECK_STATUS_OK(&r.st);
  CHECK(iget(r.out[0], 0) == 4 && iget(r.out[0], 1) == 1 && iget(r.out[1], 0) == 3);
  kfree(&r);
  krun("Size", NULL, 1, IN(iota_f(2, DIMS(4, 3))), 1, &r);
  CHECK(r.out[0]->rank == 0 && iget(r.out[0], 0) == 12);
  kfree(&r);
  krun("Rank", NULL, 1, IN(iota_f(3, DIMS(4, 3, 1))), 1, &r);
  CHECK(r.out[0]->dtype == TFC_DTYPE_INT32 && iget(r.out[0], 0) == 3);
  kfree(&r);
}

TFC_TEST(array_reshape_shares_buffer_and_infers) {
  tfc_tensor *x = iota_f(2, DIMS(2, 3));
  kres r;
  krun("Reshape", NULL, 2, IN(tfc_tensor_ref(x), ivec(2, 3, -1)), 1, &r);
  CHECK_STATUS_OK(&r.st);
  CHECK(has_dims(r.out[0], 2, DIMS(3, 2)));
  CHECK(r.out[0]->data == x->data);
  kfree(&r);
  krun("Reshape", NULL, 2, IN(tfc_tensor_ref(x), lvec(0)), 1, &r);
  CHECK_FAILS_WITH(r, "Input to reshape is a tensor with 6 values, but the requested shape has 1");
  krun("Reshape", NULL, 2, IN(tfc_tensor_ref(x), ivec(2, 2, 2)), 1, &r);
  CHECK(strcmp(r.st.msg, "Input to reshape is a tensor with 6 values, but the requested shape has 4") == 0);
  krun("Reshape", NULL, 2, IN(tfc_tensor_ref(x), ivec(2, 4, -1)), 1, &r);
  CHECK_FAILS_WITH(r, "Input to reshape is a tensor with 6 values, but the requested shape requires a multiple of 4");
  krun("Reshape", NULL, 2, IN(tfc_tensor_ref(x), ivec(2, -1, -1)), 1, &r);
  CHECK_FAILS_WITH(r, "Only one input size may be -1, not both 0 and 1");
  krun("Reshape", NULL, 2, IN(tfc_tensor_ref(x), ivec(2, -2, 3)), 1, &r);
  CHECK_FAILS_WITH(r, "Size 0 must be non-negative, not -2");
  krun("Reshape", NULL, 2, IN(tfc_tensor_ref(x), imat2(1, 2, 3)), 1, &r);
  CHECK_FAILS_WITH(r, "sizes input must be 1-D, not [1,2]");
  tfc_tensor_unref(x);
  /* Zero-sized: -1 is inferred from the non-zero dims. */
  krun("Reshape", NULL, 2, IN(iota_f(2, DIMS(0, 3)), ivec(2, 0, -1)), 1, &r);
  CHECK_STATUS_OK(&r.st);
  CHECK(has_dims(r.out[0], 2, DIMS(0, 3)));
  kfree(&r);
  /* Scalar <-> [1]. */
  krun("Reshape", NULL, 2, IN(iota_f(1, DIMS(1)), lvec(0)), 1, &r);
  CHECK_STATUS_OK(&r.st);
  CHECK(r.out[0]->rank == 0);
  kfree(&r);
}

TFC_TEST(array_squeeze_expand_dims) {
  kres r;
  krun("Squeeze", NULL, 1, IN(iota_f(4, DIMS(1, 2, 1, 3))), 1, &r);
  CHECK(has_dims(r.out[0], 2, DIMS(2, 3)));
  kfree(&r);
  tfc_attrs *a = attrs_new();
  set_ints(a, "squeeze_dims", 1, DIMS(-2));
  krun("Squeeze", a, 1, IN(iota_f(4, DIMS(1, 2, 1, 3))), 1, &r);
  CHECK(has_dims(r.out[0], 3, DIMS(1, 2, 3)));
  kfree(&r);
  a = attrs_new();
  set_ints(a, "squeeze_dims", 1, DIMS(1));
  krun("Squeeze", a, 1, IN(iota_f(2, DIMS(2, 3))), 1, &r);
  CHECK(strcmp(r.st.msg, "Can not squeeze dim[1], expected a dimension of 1, got 3") == 0);
  a = attrs_new();
  set_ints(a, "squeeze_dims", 1, DIMS(3));
  krun("Squeeze", a, 1, IN(iota_f(2, DIMS(2, 3))), 1, &r);
  CHECK_FAILS_WITH(r, "Tried to squeeze dim index 3 for tensor with 2 dimensions.");
  tfc_tensor *x = iota_f(2, DIMS(2, 3));
  krun("ExpandDims", NULL, 2, IN(tfc_tensor_ref(x), iscalar(-1)), 1, &r);
  CHECK(has_dims(r.out[0], 3, DIMS(2, 3, 1)) && r.out[0]->data == x->data);
  kfree(&r);
  krun("ExpandDims", NULL, 2, IN(tfc_tensor_ref(x), lvec(1, 0)), 1, &r);
  CHECK(has_dims(r.out[0], 3, DIMS(1, 2, 3)));
  kfree(&r);
  krun("ExpandDims", NULL, 2, IN(tfc_tensor_ref(x), iscalar(4)), 1, &r);
  CHECK_FAILS_WITH(r, "Tried to expand dim index 4 for tensor with 2 dimensions.");
  krun("ExpandDims", NULL, 2, IN(tfc_tensor_ref(x), ivec(2, 1, 2)), 1, &r);
  CHECK_FAILS_WITH(r, "'dim' must be a tensor with a single value");
  tfc_tensor_unref(x);
}

/* ================================================================== transpose */

/* Checks y == transpose(x, perm) for float x elementwise. */
static bool transposed_ok(const tfc_tensor *x, const int *perm, const tfc_tensor *y) {
  int r = x->rank;
  int64_t xs[TFC_MAX_RANK], idx[TFC_MAX_RANK] = {0};
  int64_t s = 1;
  for (int i = r - 1; i >= 0; i--) {
    xs[i] = s;
    s *= x->dims[i];
  }
  for (int64_t k = 0; k < y->nelems; k++) {
    int64_t rem = k, off = 0;
    for (int i = r - 1; i >= 0; i--) {
      idx[i] = rem % y->dims[i];
      rem /= y->dims[i];
    }
    for (int i = 0; i < r; i++) off += idx[i] * xs[perm[i]];
    if (x->dtype == TFC_DTYPE_STRING ? strcmp(sget(x, off), sget(y, k)) != 0 : fget(x, off) != fget(y, k))
      return false;
  }
  return true;
}

TFC_TEST(array_transpose) {
  tfc_threadpool *pool = tfc_threadpool_new(2);
  struct {
    int rank;
    int64_t dims[4];
    int perm[4];
  } cases[] = {{2, {67, 131}, {1, 0}},      {2, {513, 260}, {1, 0}},   {3, {5, 7, 9}, {2, 0, 1}},
               {4, {3, 4, 5, 6}, {3, 1, 0, 2}}, {3, {40, 33, 20}, {0, 2, 1}}, {4, {2, 1, 3, 1}, {1, 0, 3, 2}},
               {3, {1, 5, 4}, {1, 2, 0}}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    tfc_tensor *x = iota_f(cases[c].rank, cases[c].dims);
    tfc_tensor *p = mk(TFC_DTYPE_INT32, 1, DIMS(cases[c].rank), cases[c].perm);
    kres r;
    krun_pool("Transpose", NULL, 2, IN(tfc_tensor_ref(x), p), 1, &r, pool);
    CHECK_STATUS_OK(&r.st);
    for (int i = 0; i < cases[c].rank; i++) CHECK_EQ_INT(r.out[0]->dims[i], cases[c].dims[cases[c].perm[i]]);
    CHECK(transposed_ok(x, cases[c].perm, r.out[0]));
    kfree(&r);
    tfc_tensor_unref(x);
  }
  /* Strings and negative perm entries. */
  tfc_tensor *s = iota_s(2, DIMS(9, 17));
  kres r;
  krun("Transpose", NULL, 2, IN(tfc_tensor_ref(s), ivec(2, -1, 0)), 1, &r);
  CHECK_STATUS_OK(&r.st);
  CHECK(transposed_ok(s, (const int[]){1, 0}, r.out[0]));
  kfree(&r);
  tfc_tensor_unref(s);
  /* Moving only size-1 dims shares the buffer. */
  tfc_tensor *x = iota_f(3, DIMS(1, 4, 5));
  krun("Transpose", NULL, 2, IN(tfc_tensor_ref(x), ivec(3, 1, 0, 2)), 1, &r);
  CHECK(r.out[0]->data == x->data && has_dims(r.out[0], 3, DIMS(4, 1, 5)));
  kfree(&r);
  krun("Transpose", NULL, 2, IN(tfc_tensor_ref(x), ivec(3, 0, 0, 1)), 1, &r);
  CHECK_FAILS_WITH(r, "2 is missing from {0,0,1}.");
  krun("Transpose", NULL, 2, IN(tfc_tensor_ref(x), ivec(3, 0, 3, 1)), 1, &r);
  CHECK_FAILS_WITH(r, "3 is out of range [0 .. 3)");
  krun("Transpose", NULL, 2, IN(tfc_tensor_ref(x), ivec(2, 0, 1)), 1, &r);
  CHECK_FAILS_WITH(r, "transpose expects a vector of size 3. But input(1) is a vector of size 2");
  tfc_tensor_unref(x);
  tfc_threadpool_free(pool);
}

TFC_TEST(array_invert_permutation) {
  kres r;
  krun("InvertPermutation", NULL, 1, IN(ivec(4, 2, 0, 3, 1)), 1, &r);
  CHECK_STATUS_OK(&r.st);
  CHECK(iget(r.out[0], 0) == 1 && iget(r.out[0], 1) == 3 && iget(r.out[0], 2) == 0 && iget(r.out[0], 3) == 2);
  kfree(&r);
  krun("InvertPermutation", NULL, 1, IN(ivec(3, 0, 0, 1)), 1, &r);
  CHECK_FAILS_WITH(r, "0 is duplicated in the input.");
  krun("InvertPermutation", NULL, 1, IN(lvec(3, 0, 3, 1)), 1, &r);
  CHECK_FAILS_WITH(r, "3 is not between 0 and 3");
}

/* ================================================================== concat / pack / split */

TFC_TEST(array_concat) {
  tfc_threadpool *pool = tfc_threadpool_new(2);
  kres r;
  /* axis 1 of [2,3] and [2,2]. */
  krun_pool("ConcatV2", NULL, 3, IN(iota_f(2, DIMS(2, 3)), iota_f(2, DIMS(2, 2)), iscalar(1)), 1, &r, pool);
  CHECK_STATUS_OK(&r.st);
  CHECK(has_dims(r.out[0], 2, DIMS(2, 5)));
  static const float e1[] = {0, 1, 2, 0, 1, 3, 4, 5, 2, 3};
  for (int i = 0; i < 10; i++) CHECK(fget(r.out[0], i) == e1[i]);
  kfree(&r);
  /* axis -1 equals axis 1; axis given as a 1-element vector; large rows use the pool. */
  krun_pool("ConcatV2", NULL, 3, IN(iota_f(2, DIMS(3000, 7)), iota_f(2, DIMS(3000, 5)), ivec(1, -1)), 1, &r, pool);
  CHECK_STATUS_OK(&r.st);
  CHECK(has_dims(r.out[0], 2, DIMS(3000, 12)));
  CHECK(fget(r.out[0], 12 * 2999 + 6) == 7 * 2999 + 6 && fget(r.out[0], 12 * 2999 + 11) == 5 * 2999 + 4);
  kfree(&r);
  /* old Concat: axis first; strings along axis 0 with an empty input. */
  krun("Concat", NULL, 4, IN(iscalar(0), iota_s(2, DIMS(1, 2)), iota_s(2, DIMS(0, 2)), iota_s(2, DIMS(2, 2))), 1, &r);
  CHECK_STATUS_OK(&r.st);
  CHECK(has_dims(r.out[0], 2, DIMS(3, 2)));
  CHECK(strcmp(sget(r.out[0], 1), "s1") == 0 && strcmp(sget(r.out[0], 2), "s0") == 0 &&
        strcmp(sget(r.out[0], 5), "s3") == 0);
  kfree(&r);
  /* A single non-empty input is passed through. */
  tfc_tensor *x = iota_f(2, DIMS(2, 2));
  krun("ConcatV2", NULL, 3, IN(tfc_tensor_ref(x), iota_f(2, DIMS(0, 2)), iscalar(0)), 1, &r);
  CHECK(r.out[0] == x);
  kfree(&r);
  tfc_tensor_unref(x);
  krun("ConcatV2", NULL, 3, IN(iota_f(2, DIMS(2, 3)), iota_f(2, DIMS(3, 3)), iscalar(1)), 1, &r);
  CHECK_FAILS_WITH(r, "ConcatOp : Dimension 0 in both shapes must be equal: shape[0] = [2,3] vs. shape[1] = [3,3]");
  krun("ConcatV2", NULL, 3, IN(iota_f(2, DIMS(2, 3)), iota_f(1, DIMS(3)), iscalar(0)), 1, &r);
  CHECK_FAILS_WITH(r, "ConcatOp : Ranks of all input tensors should match: shape[0] = [2,3] vs. shape[1] = [3]");
  krun("ConcatV2", NULL, 3, IN(iota_f(2, DIMS(2, 3)), iota_f(2, DIMS(2, 3)), iscalar(2)), 1, &r);
  CHECK_FAILS_WITH(r, "ConcatOp : Expected concatenating dimensions in the range [-2, 2), but got 2");
  tfc_threadpool_free(pool);
}

TFC_TEST(array_concat_offset) {
  kres r;
  krun("ConcatOffset", NULL, 4, IN(iscalar(-2), ivec(3, 2, 3, 4), ivec(3, 2, 5, 4), ivec(3, 2, 1, 4)), 3, &r);
  CHECK_STATUS_OK(&r.st);
  CHECK(iget(r.out[0], 1) == 0 && iget(r.out[1], 1) == 3 && iget(r.out[2], 1) == 8);
  CHECK(iget(r.out[2], 0) == 0 && iget(r.out[2], 2) == 0);
  kfree(&r);
  krun("ConcatOffset", NULL, 3, IN(iscalar(1), ivec(3, 2, 3, 4), ivec(3, 3, 5, 4)), 2, &r);
  CHECK_FAILS_WITH(r, "All dimensions except 1 must match. Input 1 has shape [3 5 4] and doesn't match input 0 with shape [2 3 4].");
  krun("ConcatOffset", NULL, 3, IN(iscalar(3), ivec(3, 2, 3, 4), ivec(3, 2, 5, 4)), 2, &r);
  CHECK_FAILS_WITH(r, "Concat dim is out of range: 3 vs. 3");
}

TFC_TEST(array_pack_unpack) {
  kres r;
  tfc_attrs *a = attrs_new();
  set_int(a, "axis", 1);
  krun("Pack", a, 3, IN(iota_f(1, DIMS(2)), iota_f(1, DIMS(2)), iota_f(1, DIMS(2))), 1, &r);
  CHECK_STATUS_OK(&r.st);
  CHECK(has_dims(r.out[0], 2, DIMS(2, 3)));
  static const float e[] = {0, 0, 0, 1, 1, 1};
  for (int i = 0; i < 6; i++) CHECK(fget(r.out[0], i) == e[i]);
  kfree(&r);
  krun("Pack", NULL, 2, IN(iota_s(0, NULL), iota_s(0, NULL)), 1, &r);
  CHECK(has_dims(r.out[0], 1, DIMS(2)) && strcmp(sget(r.out[0], 1), "s0") == 0);
  kfree(&r);
  krun("Pack", NULL, 2, IN(iota_f(2, DIMS(2, 3)), iota_f(2, DIMS(3, 3))), 1, &r);
  CHECK_FAILS_WITH(r, "Shapes of all inputs must match: values[0].shape = [2,3] != values[1].shape = [3,3]");
  a = attrs_new();
  set_int(a, "axis", 3);
  krun("Pack", a, 2, IN(iota_f(1, DIMS(2)), iota_f(1, DIMS(2))), 1, &r);
  CHECK_FAILS_WITH(r, "axis = 3 not in [-2, 2)");
  a = attrs_new();
  set_int(a, "axis", -1);
  krun("Unpack", a, 1, IN(iota_f(2, DIMS(2, 3))), 3, &r);
  CHECK_STATUS_OK(&r.st);
  for (int i = 0; i < 3; i++) {
    CHECK(has_dims(r.out[i], 1, DIMS(2)));
    CHECK(fget(r.out[i], 0) == i && fget(r.out[i], 1) == 3 + i);
  }
  kfree(&r);
  krun("Unpack", NULL, 1, IN(iota_f(2, DIMS(2, 3))), 3, &r);
  CHECK_FAILS_WITH(r, "Input shape axis 0 must equal 3, got shape [2,3]");
}

TFC_TEST(array_split_splitv) {
  kres r;
  krun("Split", NULL, 2, IN(iscalar(1), iota_f(2, DIMS(2, 6))), 3, &r);
  CHECK_STATUS_OK(&r.st);
  for (int i = 0; i < 3; i++) {
    CHECK(has_dims(r.out[i], 2, DIMS(2, 2)));
    CHECK(fget(r.out[i], 0) == 2 * i && fget(r.out[i], 3) == 6 + 2 * i + 1);
  }
  kfree(&r);
  tfc_tensor *x = iota_f(2, DIMS(2, 6));
  krun("Split", NULL, 2, IN(iscalar(-2), tfc_tensor_ref(x)), 1, &r);
  CHECK(r.out[0] == x);
  kfree(&r);
  krun("Split", NULL, 2, IN(iscalar(1), tfc_tensor_ref(x)), 4, &r);
  CHECK_FAILS_WITH(r, "Number of ways to split should evenly divide the split dimension, but got split_dim 1 (size = 6) and num_split 4");
  krun("Split", NULL, 2, IN(iscalar(2), tfc_tensor_ref(x)), 2, &r);
  CHECK_FAILS_WITH(r, "-input rank(-2) <= split_dim < input rank (2), but got 2");
  krun("SplitV", NULL, 3, IN(tfc_tensor_ref(x), lvec(3, 1, -1, 2), iscalar(1)), 3, &r);
  CHECK_STATUS_OK(&r.st);
  CHECK(has_dims(r.out[0], 2, DIMS(2, 1)) && has_dims(r.out[1], 2, DIMS(2, 3)) && has_dims(r.out[2], 2, DIMS(2, 2)));
  CHECK(fget(r.out[1], 0) == 1 && fget(r.out[1], 5) == 9 && fget(r.out[2], 3) == 11);
  kfree(&r);
  krun("SplitV", NULL, 3, IN(iota_s(1, DIMS(4)), ivec(2, 0, 4), iscalar(0)), 2, &r);
  CHECK_STATUS_OK(&r.st);
  CHECK(has_dims(r.out[0], 1, DIMS(0)) && strcmp(sget(r.out[1], 3), "s3") == 0);
  kfree(&r);
  krun("SplitV", NULL, 3, IN(tfc_tensor_ref(x), ivec(2, -1, -1), iscalar(1)), 2, &r);
  CHECK_FAILS_WITH(r, "There can only be one -1 in the input.");
  krun("SplitV", NULL, 3, IN(tfc_tensor_ref(x), ivec(2, 1, 1), iscalar(1)), 2, &r);
  CHECK_FAILS_WITH(r, "Determined shape must either match input shape along split_dim exactly if fully specified, or be less than the size of the input along split_dim if not fully specified.  Got: 2");
  krun("SplitV", NULL, 3, IN(tfc_tensor_ref(x), ivec(3, 1, 1, 4), iscalar(1)), 2, &r);
  CHECK_FAILS_WITH(r, "size of the split_tensor must be 1-D and have the same elements as outputs got 1 -D and 3 elements");
  tfc_tensor_unref(x);
}

/* ================================================================== slicing */

TFC_TEST(array_slice) {
  kres r;
  tfc_tensor *x = iota_f(3, DIMS(3, 4, 5));
  krun("Slice", NULL, 3, IN(tfc_tensor_ref(x), ivec(3, 1, 0, 2), ivec(3, 2, -1, 2)), 1, &r);
  CHECK_STATUS_OK(&r.st);
  CHECK(has_dims(r.out[0], 3, DIMS(2, 4, 2)));
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 4; j++)
      for (int k = 0; k < 2; k++) CHECK(fget(r.out[0], (i * 4 + j) * 2 + k) == (i + 1) * 20 + j * 5 + k + 2);
  kfree(&r);
  krun("Slice", NULL, 3, IN(tfc_tensor_ref(x), lvec(3, 0, 0, 0), lvec(3, -1, 4, -1)), 1, &r);
  CHECK(r.out[0] == x);
  kfree(&r);
  krun("Slice", NULL, 3, IN(tfc_tensor_ref(x), ivec(3, 1, 1, 1), ivec(3, 0, 1, 1)), 1, &r);
  CHECK_STATUS_OK(&r.st);
  CHECK(has_dims(r.out[0], 3, DIMS(0, 1, 1)));
  kfree(&r);
  krun("Slice", NULL, 3, IN(tfc_tensor_ref(x), ivec(3, 1, 1, 1), ivec(3, 1, 5, 1)), 1, &r);
  CHECK_FAILS_WITH(r, "Expected size[1] in [0, 3], but got 5");
  krun("Slice", NULL, 3, IN(tfc_tensor_ref(x), ivec(3, 1, 5, 1), ivec(3, 1, -1, 1)), 1, &r);
  CHECK_FAILS_WITH(r, "Expected begin[1] in [0, 4], but got 5");
  krun("Slice", NULL, 3, IN(tfc_tensor_ref(x), ivec(1, 1), ivec(1, 1)), 1, &r);
  CHECK_FAILS_WITH(r, "Expected begin and size arguments to be 1-D tensors of size 3, but got shapes [1] and [1] instead.");
  tfc_tensor_unref(x);
  krun("Slice", NULL, 3, IN(iota_s(2, DIMS(3, 3)), ivec(2, 1, 1), ivec(2, 2, 1)), 1, &r);
  CHECK(has_dims(r.out[0], 2, DIMS(2, 1)) && strcmp(sget(r.out[0], 1), "s7") == 0);
  kfree(&r);
}

/* Sets the five StridedSlice mask attrs. */
static tfc_attrs *ss_attrs(const int64_t *m) {
  tfc_attrs *a = attrs_new();
  set_int(a, "begin_mask", m[0]);
  set_int(a, "end_mask", m[1]);
  set_int(a, "ellipsis_mask", m[2]);
  set_int(a, "new_axis_mask", m[3]);
  set_int(a, "shrink_axis_mask", m[4]);
  return a;
}

/* Generated by TensorFlow 2.21 (tf.compat.v1 graph mode): StridedSlice on
 * arange(int32) inputs; see the generator notes in test_array.c. */
typedef struct ss_case {
  int rank; int64_t dims[4]; int64_t partial[4]; int n; int64_t begin[5], end[5], strides[5];
  int64_t masks[5];
  int ok; int out_rank; int64_t out_dims[8]; int n_vals; int vals_off; const char *err;
  int static_ok; int static_rank; int64_t static_dims[8];
  int pstatic_ok; int pstatic_rank; int64_t pstatic_dims[8];
} ss_case;
static const int32_t k_ss_vals[] = {1,0,1,2,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,2,0,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,2,3,4,5,0,0,1,2,3,4,0,1,0,0,1,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,0,1,2,3,4,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,0,1,2,3,27,28,29,30,31,32,33,34,35,0,1,2,3,4,5,6,7,8,0,1,2,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,0,11,2,0,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,60,61,62,63,64,65,66,67,68,69,70,71,72,73,74,75,76,77,78,79,80,81,82,83,84,85,86,87,88,89,90,91,92,93,94,95,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,0,0,1,2,3,4,10,11,12,13,14,8,9,10,11,12,13,14,15,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,4,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,0,1,2,3,4,5,6,7,0,1,2,16,17,18,19,20,21,22,23,8,9,10,11,12,13,14,15,0,1,2,3,4,5,6,7,16,0,0,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,0,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,60,61,62,63,64,65,66,67,68,69,70,71,72,73,74,75,76,77,78,79,0,1,0,0,1,2,3,4,5,6,7,0,1,2,3,0,1,2,3,0,1,0,1,2,3,4,20,21,22,23,24,24,25,26,27,28,29,30,31,32,33,34,35,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,0,1,0,1,3,4,5,1,0,0,1,2,3,4,0,1,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,60,61,62,63,64,65,66,67,68,69,70,71,72,73,74,75,76,77,78,79,2,0,1,2,3,4,5,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,11,13,15,2,0,0,1,2,3,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,0,1,2,3,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,60,61,62,63,64,65,66,67,68,69,70,71,72,73,74,75,76,77,78,79,80,81,82,83,84,85,86,87,88,89,90,91,92,93,94,95,96,97,98,99,100,101,102,103,104,105,106,107,108,109,110,111,112,113,114,115,116,117,118,119,0,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,60,61,62,63,64,65,66,67,68,69,70,71,72,73,74,75,76,77,78,79,80,81,82,83,84,85,86,87,88,89,90,91,92,93,94,95,96,97,98,99,100,101,102,103,104,105,106,107,108,109,110,111,112,113,114,115,116,117,118,119,0,1,2,3,4};
static const ss_case k_ss_cases[] = {
  {4, {0,5,0,2}, {0,-1,-1,2}, 1, {6,0,0,0,0}, {-6,0,0,0,0}, {1,0,0,0,0}, {0,1,1,0,0}, 1, 4, {0,5,0,2,0,0,0,0}, 0, 0, NULL, 1, 4, {0,5,0,2,0,0,0,0}, 1, 4, {0,-1,-1,2,0,0,0,0}},
  {1, {5,0,0,0}, {5,0,0,0}, 2, {1,-1,0,0,0}, {-2,-3,0,0,0}, {1,3,0,0,0}, {0,0,0,2,3}, 1, 1, {1,0,0,0,0,0,0,0}, 1, 0, NULL, 1, 1, {1,0,0,0,0,0,0,0}, 1, 1, {1,0,0,0,0,0,0,0}},
  {1, {2,0,0,0}, {-1,0,0,0}, 2, {6,-5,0,0,0}, {2,-4,0,0,0}, {1,3,0,0,0}, {2,0,2,1,0}, 1, 2, {1,2,0,0,0,0,0,0}, 2, 1, NULL, 1, 2, {1,2,0,0,0,0,0,0}, 1, 2, {1,-1,0,0,0,0,0,0}},
  {3, {2,1,1,0}, {-1,-1,-1,0}, 4, {0,4,-2,4,0}, {-3,-1,-5,5,0}, {-1,1,-1,1,0}, {0,2,2,9,0}, 1, 5, {1,2,1,0,1,0,0,0}, 0, 3, NULL, 1, 5, {1,2,1,0,1,0,0,0}, 1, 5, {1,-1,-1,-1,1,0,0,0}},
  {4, {2,4,1,4}, {-1,-1,-1,4}, 3, {-3,2,5,0,0}, {0,-4,3,0,0}, {1,1,-3,0,0}, {0,0,0,0,0}, 1, 4, {0,0,0,4,0,0,0,0}, 0, 3, NULL, 1, 4, {0,0,0,4,0,0,0,0}, 1, 4, {-1,-1,-1,4,0,0,0,0}},
  {1, {1,0,0,0}, {-1,0,0,0}, 1, {-3,0,0,0,0}, {-6,0,0,0,0}, {2,0,0,0,0}, {1,1,0,0,1}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 3, "slice index -2 of dimension 0 out of bounds.", 0, -1, {0,0,0,0,0,0,0,0}, 1, 0, {0,0,0,0,0,0,0,0}},
  {1, {3,0,0,0}, {-1,0,0,0}, 2, {2,-5,0,0,0}, {5,0,0,0,0}, {1,1,0,0,0}, {3,3,2,2,3}, 1, 0, {0,0,0,0,0,0,0,0}, 1, 3, NULL, 1, 0, {0,0,0,0,0,0,0,0}, 1, 0, {0,0,0,0,0,0,0,0}},
  {4, {2,3,3,5}, {2,-1,3,5}, 5, {1,6,4,1,4}, {-6,6,6,5,1}, {-2,-3,1,3,-2}, {0,0,0,0,18}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 4, "Index out of range using input dim 4; input has only 4 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {3, {4,5,3,0}, {4,5,3,0}, 1, {6,0,0,0,0}, {2,0,0,0,0}, {-2,0,0,0,0}, {0,0,0,0,0}, 1, 3, {1,5,3,0,0,0,0,0}, 15, 4, NULL, 1, 3, {1,5,3,0,0,0,0,0}, 1, 3, {1,5,3,0,0,0,0,0}},
  {1, {3,0,0,0}, {-1,0,0,0}, 2, {3,-3,0,0,0}, {-1,2,0,0,0}, {-2,-3,0,0,0}, {0,1,2,0,0}, 1, 1, {2,0,0,0,0,0,0,0}, 2, 19, NULL, 1, 1, {2,0,0,0,0,0,0,0}, 1, 1, {-1,0,0,0,0,0,0,0}},
  {2, {5,4,0,0}, {-1,4,0,0}, 3, {-4,5,2,0,0}, {3,2,3,0,0}, {3,-3,1,0,0}, {5,0,0,0,0}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 21, "Index out of range using input dim 2; input has only 2 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {4, {1,0,4,2}, {-1,-1,4,-1}, 2, {5,6,0,0,0}, {-6,5,0,0,0}, {1,1,0,0,0}, {0,0,1,0,0}, 1, 4, {1,0,4,0,0,0,0,0}, 0, 21, NULL, 1, 4, {1,0,4,0,0,0,0,0}, 1, 4, {-1,-1,4,-1,0,0,0,0}},
  {4, {3,4,2,3}, {3,4,2,3}, 3, {-5,2,3,0,0}, {-6,-3,2,0,0}, {1,-1,1,0,0}, {4,0,0,0,0}, 1, 4, {0,1,2,3,0,0,0,0}, 0, 21, NULL, 1, 4, {0,1,2,3,0,0,0,0}, 1, 4, {0,1,2,3,0,0,0,0}},
  {2, {5,4,0,0}, {5,-1,0,0}, 3, {3,1,1,0,0}, {2,1,5,0,0}, {1,-2,2,0,0}, {0,7,0,0,4}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 21, "Index out of range using input dim 2; input has only 2 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {3, {2,4,4,0}, {-1,4,-1,0}, 1, {2,0,0,0,0}, {6,0,0,0,0}, {3,0,0,0,0}, {0,1,1,0,0}, 1, 3, {2,4,4,0,0,0,0,0}, 32, 21, NULL, 1, 3, {2,4,4,0,0,0,0,0}, 1, 3, {-1,4,-1,0,0,0,0,0}},
  {3, {5,5,2,0}, {5,-1,2,0}, 4, {-6,-2,3,3,0}, {-2,5,-1,3,0}, {1,-1,1,3,0}, {0,10,0,0,0}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 53, "Index out of range using input dim 3; input has only 3 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {4, {2,5,3,2}, {-1,5,-1,-1}, 4, {-6,2,0,6,0}, {-5,5,5,-5,0}, {-2,1,2,3,0}, {7,0,0,0,0}, 1, 4, {1,5,2,0,0,0,0,0}, 0, 53, NULL, 1, 4, {1,5,2,0,0,0,0,0}, 1, 4, {-1,5,-1,-1,0,0,0,0}},
  {2, {3,2,0,0}, {3,2,0,0}, 1, {1,0,0,0,0}, {2,0,0,0,0}, {1,0,0,0,0}, {0,1,0,0,0}, 1, 2, {2,2,0,0,0,0,0,0}, 4, 53, NULL, 1, 2, {2,2,0,0,0,0,0,0}, 1, 2, {2,2,0,0,0,0,0,0}},
  {2, {5,4,0,0}, {-1,4,0,0}, 2, {2,2,0,0,0}, {-4,-3,0,0,0}, {1,2,0,0,0}, {0,0,3,1,0}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 57, "Multiple ellipses in slice spec not allowed", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {4, {1,5,3,2}, {1,5,3,-1}, 2, {-6,0,0,0,0}, {0,-5,0,0,0}, {2,-1,0,0,0}, {0,0,0,0,0}, 1, 4, {0,0,3,2,0,0,0,0}, 0, 57, NULL, 1, 4, {0,0,3,2,0,0,0,0}, 1, 4, {0,0,3,-1,0,0,0,0}},
  {0, {0,0,0,0}, {0,0,0,0}, 1, {5,0,0,0,0}, {2,0,0,0,0}, {-3,0,0,0,0}, {0,1,1,0,1}, 1, 0, {0,0,0,0,0,0,0,0}, 1, 57, NULL, 1, 0, {0,0,0,0,0,0,0,0}, 1, 0, {0,0,0,0,0,0,0,0}},
  {4, {2,3,1,3}, {-1,-1,1,3}, 5, {-3,-4,5,-6,4}, {-2,4,5,3,1}, {-3,2,-1,2,1}, {0,0,0,26,0}, 1, 7, {0,1,0,1,1,1,3,0}, 0, 58, NULL, 1, 7, {0,1,0,1,1,1,3,0}, 1, 7, {-1,1,-1,1,1,1,3,0}},
  {1, {5,0,0,0}, {5,0,0,0}, 1, {4,0,0,0,0}, {2,0,0,0,0}, {-2,0,0,0,0}, {1,0,1,0,1}, 1, 1, {5,0,0,0,0,0,0,0}, 5, 58, NULL, 1, 1, {5,0,0,0,0,0,0,0}, 1, 1, {5,0,0,0,0,0,0,0}},
  {4, {1,5,1,4}, {1,5,1,4}, 2, {3,-6,0,0,0}, {-2,2,0,0,0}, {2,1,0,0,0}, {0,0,0,0,0}, 1, 4, {0,2,1,4,0,0,0,0}, 0, 63, NULL, 1, 4, {0,2,1,4,0,0,0,0}, 1, 4, {0,2,1,4,0,0,0,0}},
  {1, {5,0,0,0}, {-1,0,0,0}, 2, {3,6,0,0,0}, {-6,0,0,0,0}, {3,-2,0,0,0}, {2,0,0,0,1}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 63, "Index out of range using input dim 1; input has only 1 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {3, {1,5,5,0}, {1,5,-1,0}, 4, {4,-1,-6,0,0}, {-1,-3,2,-4,0}, {1,2,-1,2,0}, {0,0,0,0,0}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 63, "Index out of range using input dim 3; input has only 3 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {3, {2,2,5,0}, {2,2,-1,0}, 4, {-6,-2,0,-1,0}, {-6,-1,4,6,0}, {-3,-3,1,1,0}, {12,0,0,0,12}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 63, "Index out of range using input dim 3; input has only 3 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {3, {3,4,4,0}, {3,-1,-1,0}, 4, {4,-2,-2,5,0}, {3,-4,1,3,0}, {1,1,-1,-3,0}, {14,0,0,0,0}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 63, "Index out of range using input dim 3; input has only 3 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {4, {1,2,5,4}, {1,2,5,-1}, 3, {1,-5,-4,0,0}, {2,1,1,0,0}, {-3,-3,1,0,0}, {0,6,0,0,4}, 1, 3, {0,0,4,0,0,0,0,0}, 0, 63, NULL, 1, 3, {0,0,4,0,0,0,0,0}, 1, 3, {0,0,-1,0,0,0,0,0}},
  {4, {1,2,1,1}, {1,2,1,1}, 1, {1,0,0,0,0}, {-1,0,0,0,0}, {-2,0,0,0,0}, {0,0,1,0,0}, 1, 4, {1,2,1,1,0,0,0,0}, 2, 63, NULL, 1, 4, {1,2,1,1,0,0,0,0}, 1, 4, {1,2,1,1,0,0,0,0}},
  {3, {4,5,3,0}, {-1,-1,3,0}, 2, {-4,-1,0,0,0}, {3,-6,0,0,0}, {-3,1,0,0,0}, {0,2,0,0,0}, 1, 3, {0,1,3,0,0,0,0,0}, 0, 65, NULL, 1, 3, {0,1,3,0,0,0,0,0}, 1, 3, {-1,-1,3,0,0,0,0,0}},
  {4, {4,0,5,1}, {-1,0,5,1}, 5, {-1,-1,5,1,-6}, {4,-6,-6,4,-6}, {1,-2,2,1,1}, {19,0,0,18,21}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 65, "slice index 5 of dimension 1 out of bounds.", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {2, {3,3,0,0}, {3,3,0,0}, 3, {-6,1,-6,0,0}, {-2,0,5,0,0}, {-3,-3,2,0,0}, {1,3,0,1,3}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 65, "only stride 1 allowed on non-range indexing.", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {2, {3,4,0,0}, {3,4,0,0}, 1, {-5,0,0,0,0}, {-5,0,0,0,0}, {3,0,0,0,0}, {0,1,0,0,1}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 65, "slice index -2 of dimension 0 out of bounds.", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {4, {2,4,3,5}, {2,-1,3,5}, 5, {-2,1,-5,2,-2}, {1,-1,1,-1,-5}, {-1,-1,-2,1,2}, {0,0,0,0,0}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 65, "Index out of range using input dim 4; input has only 4 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {1, {1,0,0,0}, {-1,0,0,0}, 1, {-5,0,0,0,0}, {-5,0,0,0,0}, {2,0,0,0,0}, {0,0,0,0,0}, 1, 1, {0,0,0,0,0,0,0,0}, 0, 65, NULL, 1, 1, {0,0,0,0,0,0,0,0}, 1, 1, {-1,0,0,0,0,0,0,0}},
  {2, {3,5,0,0}, {-1,5,0,0}, 4, {-6,2,1,-6,0}, {0,-6,-3,-5,0}, {1,-1,1,2,0}, {0,0,0,0,0}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 65, "Index out of range using input dim 2; input has only 2 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {1, {4,0,0,0}, {4,0,0,0}, 2, {-2,-5,0,0,0}, {0,-3,0,0,0}, {-3,1,0,0,0}, {0,0,0,0,0}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 65, "Index out of range using input dim 1; input has only 1 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {1, {1,0,0,0}, {-1,0,0,0}, 1, {-6,0,0,0,0}, {4,0,0,0,0}, {2,0,0,0,0}, {1,0,0,0,0}, 1, 1, {1,0,0,0,0,0,0,0}, 1, 65, NULL, 1, 1, {1,0,0,0,0,0,0,0}, 1, 1, {-1,0,0,0,0,0,0,0}},
  {3, {2,4,3,0}, {-1,4,-1,0}, 2, {-4,6,0,0,0}, {-4,2,0,0,0}, {2,3,0,0,0}, {2,3,0,0,1}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 66, "slice index -2 of dimension 0 out of bounds.", 0, -1, {0,0,0,0,0,0,0,0}, 1, 2, {2,-1,0,0,0,0,0,0}},
  {4, {3,4,3,2}, {3,4,3,2}, 2, {0,-2,0,0,0}, {2,1,0,0,0}, {0,2,0,0,0}, {3,2,0,0,0}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 66, "strides[0] must be non-zero", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {1, {3,0,0,0}, {-1,0,0,0}, 2, {-2,-4,0,0,0}, {1,1,0,0,0}, {-2,2,0,0,0}, {3,1,0,0,1}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 66, "Index out of range using input dim 1; input has only 1 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {1, {2,0,0,0}, {-1,0,0,0}, 1, {-6,0,0,0,0}, {-4,0,0,0,0}, {1,0,0,0,0}, {0,1,0,0,0}, 1, 1, {2,0,0,0,0,0,0,0}, 2, 66, NULL, 1, 1, {2,0,0,0,0,0,0,0}, 1, 1, {-1,0,0,0,0,0,0,0}},
  {2, {1,5,0,0}, {1,5,0,0}, 5, {-4,-5,0,6,4}, {1,2,5,-1,3}, {1,2,-3,2,1}, {0,0,0,0,0}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 68, "Index out of range using input dim 2; input has only 2 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {3, {4,5,2,0}, {4,5,2,0}, 2, {0,1,0,0,0}, {3,4,0,0,0}, {1,1,0,0,0}, {0,3,0,3,0}, 1, 5, {1,1,4,5,2,0,0,0}, 40, 68, NULL, 1, 5, {1,1,4,5,2,0,0,0}, 1, 5, {1,1,4,5,2,0,0,0}},
  {3, {2,5,2,0}, {2,5,2,0}, 1, {-1,0,0,0,0}, {3,0,0,0,0}, {1,0,0,0,0}, {0,0,1,0,0}, 1, 3, {2,5,2,0,0,0,0,0}, 20, 108, NULL, 1, 3, {2,5,2,0,0,0,0,0}, 1, 3, {2,5,2,0,0,0,0,0}},
  {2, {1,3,0,0}, {1,3,0,0}, 3, {3,-1,2,0,0}, {6,4,-2,0,0}, {1,2,-1,0,0}, {0,2,0,2,0}, 1, 3, {0,1,1,0,0,0,0,0}, 0, 128, NULL, 1, 3, {0,1,1,0,0,0,0,0}, 1, 3, {0,1,1,0,0,0,0,0}},
  {1, {5,0,0,0}, {-1,0,0,0}, 2, {1,0,0,0,0}, {-3,6,0,0,0}, {0,-1,0,0,0}, {3,0,2,0,0}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 128, "strides[0] must be non-zero", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {1, {5,0,0,0}, {-1,0,0,0}, 2, {-5,-2,0,0,0}, {-4,1,0,0,0}, {1,-1,0,0,0}, {0,0,0,0,0}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 128, "Index out of range using input dim 1; input has only 1 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {1, {3,0,0,0}, {3,0,0,0}, 2, {3,2,0,0,0}, {3,-4,0,0,0}, {2,1,0,0,0}, {3,3,0,0,0}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 128, "Index out of range using input dim 1; input has only 1 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {2, {5,4,0,0}, {5,4,0,0}, 3, {-3,6,-4,0,0}, {-3,-1,2,0,0}, {1,1,1,0,0}, {2,0,4,0,2}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 128, "slice index 6 of dimension 1 out of bounds.", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {3, {3,1,5,0}, {3,1,-1,0}, 3, {-6,-2,2,0,0}, {-2,5,3,0,0}, {1,3,2,0,0}, {4,0,4,0,0}, 1, 3, {1,1,5,0,0,0,0,0}, 5, 128, NULL, 1, 3, {1,1,5,0,0,0,0,0}, 1, 3, {1,1,-1,0,0,0,0,0}},
  {3, {3,5,4,0}, {3,-1,4,0}, 1, {1,0,0,0,0}, {-1,0,0,0,0}, {-2,0,0,0,0}, {1,0,1,1,0}, 1, 3, {3,5,4,0,0,0,0,0}, 60, 133, NULL, 1, 3, {3,5,4,0,0,0,0,0}, 1, 3, {3,-1,4,0,0,0,0,0}},
  {2, {1,1,0,0}, {1,1,0,0}, 2, {5,-3,0,0,0}, {-4,-2,0,0,0}, {2,2,0,0,0}, {1,2,1,0,2}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 193, "slice index -2 of dimension 1 out of bounds.", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {2, {2,2,0,0}, {2,2,0,0}, 1, {1,0,0,0,0}, {3,0,0,0,0}, {1,0,0,0,0}, {1,0,1,0,0}, 1, 2, {2,2,0,0,0,0,0,0}, 4, 193, NULL, 1, 2, {2,2,0,0,0,0,0,0}, 1, 2, {2,2,0,0,0,0,0,0}},
  {1, {1,0,0,0}, {1,0,0,0}, 2, {0,-2,0,0,0}, {0,-2,0,0,0}, {1,-1,0,0,0}, {2,0,0,0,0}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 197, "Index out of range using input dim 1; input has only 1 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {3, {4,3,3,0}, {-1,-1,3,0}, 2, {6,-6,0,0,0}, {5,4,0,0,0}, {-3,-3,0,0,0}, {2,1,2,0,0}, 1, 3, {2,3,3,0,0,0,0,0}, 18, 197, NULL, 1, 3, {2,3,3,0,0,0,0,0}, 1, 3, {-1,-1,3,0,0,0,0,0}},
  {2, {1,2,0,0}, {-1,2,0,0}, 2, {-2,-6,0,0,0}, {2,3,0,0,0}, {1,-2,0,0,0}, {0,1,0,0,0}, 1, 2, {1,0,0,0,0,0,0,0}, 0, 215, NULL, 1, 2, {1,0,0,0,0,0,0,0}, 1, 2, {-1,0,0,0,0,0,0,0}},
  {1, {4,0,0,0}, {4,0,0,0}, 2, {1,5,0,0,0}, {5,-5,0,0,0}, {0,-2,0,0,0}, {0,0,0,0,2}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 215, "Index out of range using input dim 1; input has only 1 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {1, {3,0,0,0}, {-1,0,0,0}, 1, {-4,0,0,0,0}, {-1,0,0,0,0}, {-1,0,0,0,0}, {1,0,1,0,1}, 1, 1, {3,0,0,0,0,0,0,0}, 3, 215, NULL, 1, 1, {3,0,0,0,0,0,0,0}, 1, 1, {-1,0,0,0,0,0,0,0}},
  {2, {4,1,0,0}, {4,1,0,0}, 3, {1,0,-1,0,0}, {-3,3,5,0,0}, {-1,1,1,0,0}, {0,4,0,0,0}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 218, "Index out of range using input dim 2; input has only 2 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {3, {4,2,5,0}, {4,2,5,0}, 3, {-1,4,-3,0,0}, {-4,-1,-2,0,0}, {1,1,1,0,0}, {0,7,0,3,0}, 1, 5, {1,1,3,2,5,0,0,0}, 30, 218, NULL, 1, 5, {1,1,3,2,5,0,0,0}, 1, 5, {1,1,3,2,5,0,0,0}},
  {1, {3,0,0,0}, {3,0,0,0}, 2, {-6,-4,0,0,0}, {3,6,0,0,0}, {1,1,0,0,0}, {0,1,0,0,0}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 248, "Index out of range using input dim 1; input has only 1 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {1, {3,0,0,0}, {-1,0,0,0}, 2, {2,5,0,0,0}, {-4,-2,0,0,0}, {3,1,0,0,0}, {0,0,0,2,0}, 1, 2, {0,1,0,0,0,0,0,0}, 0, 248, NULL, 1, 2, {0,1,0,0,0,0,0,0}, 1, 2, {-1,1,0,0,0,0,0,0}},
  {4, {2,1,1,2}, {2,-1,1,2}, 1, {-6,0,0,0,0}, {5,0,0,0,0}, {-2,0,0,0,0}, {0,0,0,0,0}, 1, 4, {0,1,1,2,0,0,0,0}, 0, 248, NULL, 1, 4, {0,1,1,2,0,0,0,0}, 1, 4, {0,-1,1,2,0,0,0,0}},
  {2, {2,4,0,0}, {-1,-1,0,0}, 1, {-5,0,0,0,0}, {-3,0,0,0,0}, {-3,0,0,0,0}, {0,0,0,0,0}, 1, 2, {0,4,0,0,0,0,0,0}, 0, 248, NULL, 1, 2, {0,4,0,0,0,0,0,0}, 1, 2, {-1,-1,0,0,0,0,0,0}},
  {1, {2,0,0,0}, {2,0,0,0}, 2, {3,4,0,0,0}, {-5,-2,0,0,0}, {3,-1,0,0,0}, {0,2,0,0,0}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 248, "Index out of range using input dim 1; input has only 1 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {1, {3,0,0,0}, {-1,0,0,0}, 2, {3,0,0,0,0}, {4,3,0,0,0}, {3,1,0,0,0}, {1,1,2,0,3}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 248, "slice index 3 of dimension 0 out of bounds.", 0, -1, {0,0,0,0,0,0,0,0}, 1, 0, {0,0,0,0,0,0,0,0}},
  {4, {2,2,1,1}, {-1,-1,1,-1}, 3, {5,-4,1,0,0}, {-3,4,-5,0,0}, {-1,1,1,0,0}, {0,0,0,0,0}, 1, 4, {2,2,0,1,0,0,0,0}, 0, 248, NULL, 1, 4, {2,2,0,1,0,0,0,0}, 1, 4, {-1,-1,0,-1,0,0,0,0}},
  {1, {1,0,0,0}, {1,0,0,0}, 1, {-4,0,0,0,0}, {-1,0,0,0,0}, {1,0,0,0,0}, {0,1,1,0,0}, 1, 1, {1,0,0,0,0,0,0,0}, 1, 248, NULL, 1, 1, {1,0,0,0,0,0,0,0}, 1, 1, {1,0,0,0,0,0,0,0}},
  {3, {1,4,1,0}, {1,4,1,0}, 3, {2,-4,3,0,0}, {4,1,-4,0,0}, {0,-2,-2,0,0}, {0,0,1,0,1}, 1, 3, {1,0,1,0,0,0,0,0}, 0, 249, NULL, 1, 3, {1,0,1,0,0,0,0,0}, 1, 3, {1,0,1,0,0,0,0,0}},
  {4, {1,2,3,2}, {1,-1,3,2}, 5, {5,5,1,3,-4}, {-4,-3,6,-2,-2}, {-2,-3,-3,-3,-1}, {16,0,4,0,0}, 1, 4, {1,1,1,1,0,0,0,0}, 1, 249, NULL, 1, 4, {1,1,1,1,0,0,0,0}, 1, 4, {1,-1,1,1,0,0,0,0}},
  {1, {3,0,0,0}, {3,0,0,0}, 1, {3,0,0,0,0}, {-1,0,0,0,0}, {-2,0,0,0,0}, {0,1,0,0,0}, 1, 1, {2,0,0,0,0,0,0,0}, 2, 250, NULL, 1, 1, {2,0,0,0,0,0,0,0}, 1, 1, {2,0,0,0,0,0,0,0}},
  {1, {1,0,0,0}, {1,0,0,0}, 1, {1,0,0,0,0}, {1,0,0,0,0}, {2,0,0,0,0}, {1,0,0,0,1}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 252, "slice index 1 of dimension 0 out of bounds.", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {4, {2,4,3,4}, {-1,4,-1,-1}, 3, {-6,4,-1,0,0}, {-4,-2,2,0,0}, {1,1,-2,0,0}, {0,0,0,7,0}, 1, 7, {1,1,1,2,4,3,4,0}, 96, 252, NULL, 1, 7, {1,1,1,2,4,3,4,0}, 1, 7, {1,1,1,-1,4,-1,-1,0}},
  {4, {5,2,1,5}, {-1,2,1,5}, 2, {0,-1,0,0,0}, {5,4,0,0,0}, {1,3,0,0,0}, {0,3,2,3,0}, 1, 5, {1,5,2,1,5,0,0,0}, 50, 348, NULL, 1, 5, {1,5,2,1,5,0,0,0}, 1, 5, {1,-1,2,1,5,0,0,0}},
  {4, {5,3,4,2}, {5,3,-1,-1}, 4, {-6,-1,-4,-6,0}, {4,-4,-4,6,0}, {-1,1,-3,2,0}, {0,0,0,0,0}, 1, 4, {0,0,0,1,0,0,0,0}, 0, 398, NULL, 1, 4, {0,0,0,1,0,0,0,0}, 1, 4, {0,0,-1,-1,0,0,0,0}},
  {2, {2,1,0,0}, {-1,1,0,0}, 3, {0,-4,-5,0,0}, {0,3,3,0,0}, {1,-2,1,0,0}, {6,4,0,6,3}, 1, 3, {1,1,1,0,0,0,0,0}, 1, 398, NULL, 1, 3, {1,1,1,0,0,0,0,0}, 1, 3, {1,1,1,0,0,0,0,0}},
  {2, {5,2,0,0}, {-1,-1,0,0}, 3, {5,-1,1,0,0}, {3,5,-6,0,0}, {1,1,3,0,0}, {0,0,0,0,0}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 399, "Index out of range using input dim 2; input has only 2 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {2, {5,3,0,0}, {-1,3,0,0}, 3, {0,5,-6,0,0}, {-4,-2,-6,0,0}, {3,2,1,0,0}, {0,0,0,0,0}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 399, "Index out of range using input dim 2; input has only 2 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {1, {4,0,0,0}, {-1,0,0,0}, 2, {-5,-5,0,0,0}, {0,3,0,0,0}, {1,3,0,0,0}, {0,0,0,2,0}, 1, 2, {0,1,0,0,0,0,0,0}, 0, 399, NULL, 1, 2, {0,1,0,0,0,0,0,0}, 1, 2, {-1,1,0,0,0,0,0,0}},
  {4, {4,1,1,2}, {4,-1,1,-1}, 5, {5,-1,-4,1,-2}, {3,-2,-4,-1,-3}, {-2,3,-2,1,-1}, {0,0,4,18,0}, 1, 6, {0,1,1,1,0,1,0,0}, 0, 399, NULL, 1, 6, {0,1,1,1,0,1,0,0}, 1, 6, {0,1,-1,1,-1,1,0,0}},
  {1, {2,0,0,0}, {2,0,0,0}, 1, {3,0,0,0,0}, {1,0,0,0,0}, {2,0,0,0,0}, {0,1,0,0,1}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 399, "slice index 3 of dimension 0 out of bounds.", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {4, {1,5,3,2}, {-1,5,3,2}, 3, {3,3,4,0,0}, {6,-2,6,0,0}, {1,3,3,0,0}, {2,7,0,0,0}, 1, 4, {0,2,0,2,0,0,0,0}, 0, 399, NULL, 1, 4, {0,2,0,2,0,0,0,0}, 1, 4, {-1,2,0,2,0,0,0,0}},
  {0, {0,0,0,0}, {0,0,0,0}, 2, {-3,6,0,0,0}, {-5,-4,0,0,0}, {2,2,0,0,0}, {2,3,3,0,0}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 399, "Multiple ellipses in slice spec not allowed", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {3, {1,5,1,0}, {1,5,1,0}, 1, {1,0,0,0,0}, {5,0,0,0,0}, {1,0,0,0,0}, {0,1,1,1,0}, 1, 3, {1,5,1,0,0,0,0,0}, 5, 399, NULL, 1, 3, {1,5,1,0,0,0,0,0}, 1, 3, {1,5,1,0,0,0,0,0}},
  {1, {1,0,0,0}, {1,0,0,0}, 4, {-1,-2,6,0,0}, {-3,2,-5,-3,0}, {-2,-3,-1,1,0}, {0,0,0,0,15}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 404, "Index out of range using input dim 1; input has only 1 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {1, {3,0,0,0}, {3,0,0,0}, 2, {3,-6,0,0,0}, {3,6,0,0,0}, {-1,1,0,0,0}, {0,0,1,0,3}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 404, "slice index -3 of dimension 0 out of bounds.", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {3, {5,1,1,0}, {5,-1,1,0}, 2, {1,3,0,0,0}, {-3,1,0,0,0}, {-1,-2,0,0,0}, {2,1,0,0,0}, 1, 3, {2,0,1,0,0,0,0,0}, 0, 404, NULL, 1, 3, {2,0,1,0,0,0,0,0}, 1, 3, {2,-1,1,0,0,0,0,0}},
  {3, {4,5,1,0}, {-1,5,-1,0}, 1, {2,0,0,0,0}, {-2,0,0,0,0}, {-3,0,0,0,0}, {0,1,0,0,0}, 1, 3, {1,5,1,0,0,0,0,0}, 5, 404, NULL, 1, 3, {1,5,1,0,0,0,0,0}, 1, 3, {-1,5,-1,0,0,0,0,0}},
  {4, {1,4,5,3}, {1,-1,5,3}, 3, {0,-6,6,0,0}, {0,-3,1,0,0}, {-3,-1,3,0,0}, {0,3,0,0,0}, 1, 4, {1,0,0,3,0,0,0,0}, 0, 409, NULL, 1, 4, {1,0,0,3,0,0,0,0}, 1, 4, {1,-1,0,3,0,0,0,0}},
  {3, {3,4,2,0}, {-1,4,2,0}, 1, {1,0,0,0,0}, {2,0,0,0,0}, {2,0,0,0,0}, {0,0,0,0,0}, 1, 3, {1,4,2,0,0,0,0,0}, 8, 409, NULL, 1, 3, {1,4,2,0,0,0,0,0}, 1, 3, {-1,4,2,0,0,0,0,0}},
  {4, {4,3,4,1}, {-1,3,4,1}, 1, {1,0,0,0,0}, {-4,0,0,0,0}, {1,0,0,0,0}, {1,0,0,1,0}, 1, 5, {1,4,3,4,1,0,0,0}, 48, 417, NULL, 1, 5, {1,4,3,4,1,0,0,0}, 1, 5, {1,-1,3,4,1,0,0,0}},
  {3, {5,1,1,0}, {-1,1,1,0}, 1, {0,0,0,0,0}, {3,0,0,0,0}, {-3,0,0,0,0}, {1,0,0,0,0}, 1, 3, {1,1,1,0,0,0,0,0}, 1, 465, NULL, 1, 3, {1,1,1,0,0,0,0,0}, 1, 3, {-1,1,1,0,0,0,0,0}},
  {3, {5,2,5,0}, {5,-1,5,0}, 4, {-1,6,2,2,0}, {3,-4,-4,-4,0}, {-3,1,3,1,0}, {5,0,2,0,0}, 1, 3, {1,0,0,0,0,0,0,0}, 0, 466, NULL, 1, 3, {1,0,0,0,0,0,0,0}, 1, 3, {1,-1,0,0,0,0,0,0}},
  {4, {4,2,4,4}, {4,2,-1,-1}, 1, {1,0,0,0,0}, {-4,0,0,0,0}, {3,0,0,0,0}, {0,0,0,0,0}, 1, 4, {0,2,4,4,0,0,0,0}, 0, 466, NULL, 1, 4, {0,2,4,4,0,0,0,0}, 1, 4, {0,2,-1,-1,0,0,0,0}},
  {4, {2,4,5,1}, {2,-1,-1,-1}, 3, {-2,-2,-4,0,0}, {1,-5,4,0,0}, {3,-3,1,0,0}, {6,0,1,2,0}, 1, 5, {2,4,5,1,1,0,0,0}, 40, 466, NULL, 1, 5, {2,4,5,1,1,0,0,0}, 1, 5, {2,-1,-1,1,-1,0,0,0}},
  {1, {3,0,0,0}, {-1,0,0,0}, 5, {6,0,-2,0,-4}, {0,-2,3,0,0}, {3,2,-3,1,1}, {28,21,0,0,16}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 506, "Index out of range using input dim 1; input has only 1 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {2, {4,1,0,0}, {4,1,0,0}, 2, {3,1,0,0,0}, {-5,-1,0,0,0}, {-2,1,0,0,0}, {0,0,0,0,0}, 1, 2, {2,0,0,0,0,0,0,0}, 0, 506, NULL, 1, 2, {2,0,0,0,0,0,0,0}, 1, 2, {2,0,0,0,0,0,0,0}},
  {4, {1,3,4,5}, {-1,3,4,5}, 1, {5,0,0,0,0}, {0,0,0,0,0}, {1,0,0,0,0}, {0,1,0,1,0}, 1, 5, {1,1,3,4,5,0,0,0}, 60, 506, NULL, 1, 5, {1,1,3,4,5,0,0,0}, 1, 5, {1,-1,3,4,5,0,0,0}},
  {1, {0,0,0,0}, {0,0,0,0}, 2, {-2,-6,0,0,0}, {3,-3,0,0,0}, {-1,1,0,0,0}, {0,1,0,0,0}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 566, "Index out of range using input dim 1; input has only 1 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {2, {3,2,0,0}, {-1,2,0,0}, 3, {5,-6,2,0,0}, {-1,4,-1,0,0}, {1,-2,1,0,0}, {7,0,0,0,7}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 566, "Index out of range using input dim 2; input has only 2 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {4, {3,1,4,0}, {-1,-1,-1,0}, 2, {2,0,0,0,0}, {-3,-1,0,0,0}, {1,-2,0,0,0}, {3,3,0,0,0}, 1, 4, {3,1,4,0,0,0,0,0}, 0, 566, NULL, 1, 4, {3,1,4,0,0,0,0,0}, 1, 4, {-1,-1,-1,0,0,0,0,0}},
  {2, {2,3,0,0}, {2,-1,0,0}, 5, {5,-1,0,-5,3}, {4,2,-1,-2,2}, {-2,-2,-2,1,-3}, {0,4,0,0,29}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 566, "Index out of range using input dim 2; input has only 2 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {2, {4,0,0,0}, {4,-1,0,0}, 3, {1,3,-2,0,0}, {-4,3,-4,0,0}, {-1,1,2,0,0}, {0,0,0,0,0}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 566, "Index out of range using input dim 2; input has only 2 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {4, {2,1,4,5}, {-1,1,4,-1}, 5, {-4,-3,1,6,-4}, {-1,-2,3,5,0}, {1,1,1,1,2}, {0,30,0,0,0}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 566, "Index out of range using input dim 4; input has only 4 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {1, {3,0,0,0}, {-1,0,0,0}, 4, {2,-2,1,5,0}, {4,1,0,-2,0}, {3,1,-3,1,0}, {0,0,4,0,3}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 566, "Index out of range using input dim 1; input has only 1 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {1, {2,0,0,0}, {2,0,0,0}, 1, {3,0,0,0,0}, {-1,0,0,0,0}, {-2,0,0,0,0}, {0,0,0,0,0}, 1, 1, {0,0,0,0,0,0,0,0}, 0, 566, NULL, 1, 1, {0,0,0,0,0,0,0,0}, 1, 1, {0,0,0,0,0,0,0,0}},
  {2, {1,2,0,0}, {1,2,0,0}, 3, {-6,6,4,0,0}, {-4,-3,6,0,0}, {1,-1,-3,0,0}, {0,0,2,0,0}, 1, 2, {0,0,0,0,0,0,0,0}, 0, 566, NULL, 1, 2, {0,0,0,0,0,0,0,0}, 1, 2, {0,0,0,0,0,0,0,0}},
  {4, {2,2,2,1}, {-1,-1,2,-1}, 5, {5,6,3,2,1}, {-6,5,-6,-2,3}, {3,-2,1,-3,3}, {23,12,1,10,0}, 1, 6, {2,2,1,2,1,1,0,0}, 8, 566, NULL, 1, 6, {2,2,1,2,1,1,0,0}, 1, 6, {-1,-1,1,2,1,-1,0,0}},
  {3, {2,5,1,0}, {2,5,1,0}, 1, {0,0,0,0,0}, {-4,0,0,0,0}, {2,0,0,0,0}, {1,0,0,0,0}, 1, 3, {0,5,1,0,0,0,0,0}, 0, 574, NULL, 1, 3, {0,5,1,0,0,0,0,0}, 1, 3, {0,5,1,0,0,0,0,0}},
  {1, {3,0,0,0}, {-1,0,0,0}, 1, {-4,0,0,0,0}, {5,0,0,0,0}, {-1,0,0,0,0}, {0,1,0,0,0}, 1, 1, {0,0,0,0,0,0,0,0}, 0, 574, NULL, 1, 1, {0,0,0,0,0,0,0,0}, 1, 1, {-1,0,0,0,0,0,0,0}},
  {0, {0,0,0,0}, {0,0,0,0}, 1, {4,0,0,0,0}, {4,0,0,0,0}, {-1,0,0,0,0}, {0,1,0,0,0}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 574, "Attempting to slice scalar input.", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {2, {2,1,0,0}, {2,1,0,0}, 2, {-2,-3,0,0,0}, {-3,2,0,0,0}, {2,1,0,0,0}, {0,2,0,0,0}, 1, 2, {0,1,0,0,0,0,0,0}, 0, 574, NULL, 1, 2, {0,1,0,0,0,0,0,0}, 1, 2, {0,1,0,0,0,0,0,0}},
  {2, {3,1,0,0}, {3,-1,0,0}, 1, {-4,0,0,0,0}, {5,0,0,0,0}, {-2,0,0,0,0}, {0,0,1,0,0}, 1, 2, {3,1,0,0,0,0,0,0}, 3, 574, NULL, 1, 2, {3,1,0,0,0,0,0,0}, 1, 2, {3,-1,0,0,0,0,0,0}},
  {1, {2,0,0,0}, {2,0,0,0}, 3, {2,-1,1,0,0}, {5,-1,3,0,0}, {1,-2,3,0,0}, {0,5,0,0,0}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 577, "Index out of range using input dim 1; input has only 1 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {3, {3,2,4,0}, {3,2,-1,0}, 1, {3,0,0,0,0}, {-6,0,0,0,0}, {-1,0,0,0,0}, {0,0,0,0,0}, 1, 3, {3,2,4,0,0,0,0,0}, 24, 577, NULL, 1, 3, {3,2,4,0,0,0,0,0}, 1, 3, {3,2,-1,0,0,0,0,0}},
  {1, {4,0,0,0}, {4,0,0,0}, 2, {-4,-3,0,0,0}, {-2,-6,0,0,0}, {1,1,0,0,0}, {0,1,0,0,0}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 601, "Index out of range using input dim 1; input has only 1 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {3, {4,5,1,0}, {4,5,-1,0}, 5, {-5,5,0,1,-6}, {0,5,-3,-1,0}, {1,1,1,1,-2}, {0,0,0,0,0}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 601, "Index out of range using input dim 3; input has only 3 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {4, {2,2,5,1}, {2,2,5,-1}, 3, {3,3,-4,0,0}, {-1,-4,-1,0,0}, {-2,-3,1,0,0}, {0,7,0,0,4}, 1, 3, {1,1,1,0,0,0,0,0}, 1, 601, NULL, 1, 3, {1,1,1,0,0,0,0,0}, 1, 3, {1,1,-1,0,0,0,0,0}},
  {3, {5,2,0,0}, {-1,-1,-1,0}, 3, {-6,4,5,0,0}, {-3,-5,4,0,0}, {-2,-1,1,0,0}, {5,0,1,2,0}, 1, 4, {5,2,1,0,0,0,0,0}, 0, 602, NULL, 1, 4, {5,2,1,0,0,0,0,0}, 1, 4, {-1,-1,1,-1,0,0,0,0}},
  {2, {2,2,0,0}, {-1,2,0,0}, 2, {0,-5,0,0,0}, {-6,2,0,0,0}, {-2,-1,0,0,0}, {1,0,0,0,0}, 1, 2, {1,0,0,0,0,0,0,0}, 0, 602, NULL, 1, 2, {1,0,0,0,0,0,0,0}, 1, 2, {-1,0,0,0,0,0,0,0}},
  {2, {5,2,0,0}, {-1,-1,0,0}, 2, {6,6,0,0,0}, {3,-2,0,0,0}, {1,-1,0,0,0}, {0,2,0,0,0}, 1, 2, {0,2,0,0,0,0,0,0}, 0, 602, NULL, 1, 2, {0,2,0,0,0,0,0,0}, 1, 2, {-1,-1,0,0,0,0,0,0}},
  {1, {1,0,0,0}, {1,0,0,0}, 1, {-5,0,0,0,0}, {4,0,0,0,0}, {1,0,0,0,0}, {0,0,1,0,1}, 1, 1, {1,0,0,0,0,0,0,0}, 1, 602, NULL, 1, 1, {1,0,0,0,0,0,0,0}, 1, 1, {1,0,0,0,0,0,0,0}},
  {4, {2,1,1,2}, {2,-1,-1,2}, 4, {4,1,-4,-5,0}, {-2,-4,3,-5,0}, {1,-3,1,-3,0}, {8,13,8,0,14}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 603, "only stride 1 allowed on non-range indexing.", 0, -1, {0,0,0,0,0,0,0,0}, 1, 2, {0,2,0,0,0,0,0,0}},
  {1, {5,0,0,0}, {5,0,0,0}, 2, {-5,-6,0,0,0}, {-1,-6,0,0,0}, {-1,3,0,0,0}, {0,3,2,0,0}, 1, 1, {1,0,0,0,0,0,0,0}, 1, 603, NULL, 1, 1, {1,0,0,0,0,0,0,0}, 1, 1, {1,0,0,0,0,0,0,0}},
  {3, {3,2,5,0}, {3,-1,5,0}, 1, {1,0,0,0,0}, {-2,0,0,0,0}, {-2,0,0,0,0}, {0,0,0,0,0}, 1, 3, {0,2,5,0,0,0,0,0}, 0, 604, NULL, 1, 3, {0,2,5,0,0,0,0,0}, 1, 3, {0,-1,5,0,0,0,0,0}},
  {4, {5,4,1,1}, {5,-1,-1,-1}, 1, {1,0,0,0,0}, {-6,0,0,0,0}, {3,0,0,0,0}, {0,0,1,0,0}, 1, 4, {5,4,1,1,0,0,0,0}, 20, 604, NULL, 1, 4, {5,4,1,1,0,0,0,0}, 1, 4, {5,-1,-1,-1,0,0,0,0}},
  {0, {0,0,0,0}, {0,0,0,0}, 1, {3,0,0,0,0}, {4,0,0,0,0}, {3,0,0,0,0}, {0,1,1,0,0}, 1, 0, {0,0,0,0,0,0,0,0}, 1, 624, NULL, 1, 0, {0,0,0,0,0,0,0,0}, 1, 0, {0,0,0,0,0,0,0,0}},
  {2, {0,3,0,0}, {-1,-1,0,0}, 3, {-4,4,-5,0,0}, {-3,6,-5,0,0}, {1,-3,1,0,0}, {0,0,0,0,0}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 625, "Index out of range using input dim 2; input has only 2 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {3, {3,1,3,0}, {-1,-1,3,0}, 4, {3,-6,1,-3,0}, {1,2,4,-3,0}, {0,-2,1,-3,0}, {0,9,0,0,10}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 625, "Index out of range using input dim 3; input has only 3 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {4, {3,1,1,4}, {3,-1,1,4}, 3, {1,5,6,0,0}, {-3,-3,-5,0,0}, {1,-3,1,0,0}, {0,0,0,1,7}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 625, "only stride 1 allowed on non-range indexing.", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {3, {4,4,5,0}, {-1,4,-1,0}, 1, {-3,0,0,0,0}, {3,0,0,0,0}, {-3,0,0,0,0}, {0,0,1,1,0}, 1, 3, {4,4,5,0,0,0,0,0}, 80, 625, NULL, 1, 3, {4,4,5,0,0,0,0,0}, 1, 3, {-1,4,-1,0,0,0,0,0}},
  {1, {2,0,0,0}, {-1,0,0,0}, 1, {4,0,0,0,0}, {-6,0,0,0,0}, {3,0,0,0,0}, {1,0,0,1,1}, 1, 2, {1,2,0,0,0,0,0,0}, 2, 705, NULL, 1, 2, {1,2,0,0,0,0,0,0}, 1, 2, {1,-1,0,0,0,0,0,0}},
  {1, {1,0,0,0}, {-1,0,0,0}, 1, {-2,0,0,0,0}, {6,0,0,0,0}, {1,0,0,0,0}, {0,0,0,0,0}, 1, 1, {1,0,0,0,0,0,0,0}, 1, 707, NULL, 1, 1, {1,0,0,0,0,0,0,0}, 1, 1, {-1,0,0,0,0,0,0,0}},
  {3, {3,3,5,0}, {3,-1,5,0}, 4, {5,-3,-2,-3,0}, {-1,4,1,6,0}, {1,1,-2,-3,0}, {0,1,0,14,0}, 1, 6, {0,1,1,1,3,5,0,0}, 0, 708, NULL, 1, 6, {0,1,1,1,3,5,0,0}, 1, 6, {0,1,1,1,-1,5,0,0}},
  {4, {4,3,2,3}, {-1,3,-1,3}, 5, {5,-5,3,-2,4}, {1,6,6,4,-5}, {-1,2,-2,2,1}, {0,0,0,0,21}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 708, "Index out of range using input dim 4; input has only 4 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {3, {2,4,1,0}, {2,4,-1,0}, 2, {-6,-6,0,0,0}, {4,4,0,0,0}, {1,1,0,0,0}, {0,0,0,0,0}, 1, 3, {2,4,1,0,0,0,0,0}, 8, 708, NULL, 1, 3, {2,4,1,0,0,0,0,0}, 1, 3, {2,4,-1,0,0,0,0,0}},
  {2, {4,1,0,0}, {-1,1,0,0}, 4, {5,6,-5,-6,0}, {-1,3,-2,6,0}, {2,1,2,1,0}, {7,0,0,0,0}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 716, "Index out of range using input dim 2; input has only 2 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {2, {4,4,0,0}, {-1,4,0,0}, 2, {2,2,0,0,0}, {-4,-4,0,0,0}, {1,3,0,0,0}, {0,0,0,0,1}, 1, 1, {0,0,0,0,0,0,0,0}, 0, 716, NULL, 1, 1, {0,0,0,0,0,0,0,0}, 1, 1, {0,0,0,0,0,0,0,0}},
  {2, {4,3,0,0}, {4,3,0,0}, 3, {-2,-2,5,0,0}, {-5,-4,-3,0,0}, {1,1,1,0,0}, {2,0,0,1,0}, 1, 3, {1,0,0,0,0,0,0,0}, 0, 716, NULL, 1, 3, {1,0,0,0,0,0,0,0}, 1, 3, {1,0,0,0,0,0,0,0}},
  {1, {4,0,0,0}, {4,0,0,0}, 2, {-5,-6,0,0,0}, {2,-5,0,0,0}, {1,-1,0,0,0}, {2,3,0,0,0}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 716, "Index out of range using input dim 1; input has only 1 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {4, {4,4,1,1}, {4,4,1,1}, 1, {-4,0,0,0,0}, {-2,0,0,0,0}, {-1,0,0,0,0}, {0,1,0,0,0}, 1, 4, {1,4,1,1,0,0,0,0}, 4, 716, NULL, 1, 4, {1,4,1,1,0,0,0,0}, 1, 4, {1,4,1,1,0,0,0,0}},
  {1, {4,0,0,0}, {4,0,0,0}, 1, {6,0,0,0,0}, {-2,0,0,0,0}, {1,0,0,0,0}, {1,0,0,1,0}, 1, 2, {1,4,0,0,0,0,0,0}, 4, 720, NULL, 1, 2, {1,4,0,0,0,0,0,0}, 1, 2, {1,4,0,0,0,0,0,0}},
  {2, {5,1,0,0}, {5,-1,0,0}, 2, {-4,-4,0,0,0}, {1,0,0,0,0}, {3,1,0,0,0}, {2,0,1,0,0}, 1, 2, {5,0,0,0,0,0,0,0}, 0, 724, NULL, 1, 2, {5,0,0,0,0,0,0,0}, 1, 2, {5,-1,0,0,0,0,0,0}},
  {4, {4,4,0,5}, {4,-1,0,-1}, 2, {6,0,0,0,0}, {5,0,0,0,0}, {2,1,0,0,0}, {0,0,0,0,0}, 1, 4, {0,0,0,5,0,0,0,0}, 0, 724, NULL, 1, 4, {0,0,0,5,0,0,0,0}, 1, 4, {0,-1,0,-1,0,0,0,0}},
  {1, {1,0,0,0}, {-1,0,0,0}, 5, {5,-4,-2,2,-2}, {0,1,4,2,-5}, {-1,1,2,1,-2}, {0,4,0,0,0}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 724, "Index out of range using input dim 1; input has only 1 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {1, {2,0,0,0}, {2,0,0,0}, 2, {-5,1,0,0,0}, {-5,1,0,0,0}, {-1,1,0,0,0}, {0,0,0,3,0}, 1, 3, {1,1,2,0,0,0,0,0}, 2, 724, NULL, 1, 3, {1,1,2,0,0,0,0,0}, 1, 3, {1,1,2,0,0,0,0,0}},
  {3, {3,2,3,0}, {3,2,-1,0}, 5, {3,1,5,-3,6}, {3,-4,3,-6,0}, {1,1,-3,2,1}, {0,0,0,0,0}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 726, "Index out of range using input dim 3; input has only 3 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {1, {4,0,0,0}, {4,0,0,0}, 5, {1,-4,6,3,6}, {-6,-4,1,5,5}, {-1,-3,3,1,1}, {0,8,0,8,0}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 726, "Index out of range using input dim 1; input has only 1 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {2, {3,2,0,0}, {3,2,0,0}, 3, {4,4,-3,0,0}, {2,6,-1,0,0}, {3,-2,2,0,0}, {0,0,0,0,6}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 726, "Index out of range using input dim 2; input has only 2 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {1, {5,0,0,0}, {5,0,0,0}, 1, {5,0,0,0,0}, {0,0,0,0,0}, {-3,0,0,0,0}, {0,0,1,0,0}, 1, 1, {5,0,0,0,0,0,0,0}, 5, 726, NULL, 1, 1, {5,0,0,0,0,0,0,0}, 1, 1, {5,0,0,0,0,0,0,0}},
  {1, {5,0,0,0}, {-1,0,0,0}, 2, {4,1,0,0,0}, {-1,6,0,0,0}, {1,1,0,0,0}, {0,0,0,0,0}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 731, "Index out of range using input dim 1; input has only 1 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {4, {3,4,1,1}, {3,4,1,-1}, 2, {-2,6,0,0,0}, {-3,-3,0,0,0}, {1,2,0,0,0}, {0,0,0,0,3}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 731, "slice index 6 of dimension 1 out of bounds.", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {2, {5,5,0,0}, {5,-1,0,0}, 1, {4,0,0,0,0}, {-6,0,0,0,0}, {3,0,0,0,0}, {1,0,0,0,1}, 1, 1, {5,0,0,0,0,0,0,0}, 5, 731, NULL, 1, 1, {5,0,0,0,0,0,0,0}, 1, 1, {-1,0,0,0,0,0,0,0}},
  {4, {4,4,2,0}, {4,-1,2,-1}, 1, {-1,0,0,0,0}, {6,0,0,0,0}, {-3,0,0,0,0}, {1,0,0,0,0}, 1, 4, {0,4,2,0,0,0,0,0}, 0, 736, NULL, 1, 4, {0,4,2,0,0,0,0,0}, 1, 4, {0,-1,2,-1,0,0,0,0}},
  {2, {4,2,0,0}, {-1,2,0,0}, 3, {4,6,3,0,0}, {2,3,-2,0,0}, {3,1,2,0,0}, {0,0,0,0,0}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 736, "Index out of range using input dim 2; input has only 2 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {2, {2,2,0,0}, {-1,-1,0,0}, 2, {-4,-1,0,0,0}, {-4,5,0,0,0}, {-2,-1,0,0,0}, {1,0,0,0,0}, 1, 2, {1,0,0,0,0,0,0,0}, 0, 736, NULL, 1, 2, {1,0,0,0,0,0,0,0}, 1, 2, {-1,-1,0,0,0,0,0,0}},
  {3, {3,4,3,0}, {3,-1,-1,0}, 2, {4,-3,0,0,0}, {1,4,0,0,0}, {-3,1,0,0,0}, {3,0,0,0,0}, 1, 3, {1,4,3,0,0,0,0,0}, 12, 736, NULL, 1, 3, {1,4,3,0,0,0,0,0}, 1, 3, {1,-1,-1,0,0,0,0,0}},
  {2, {5,4,0,0}, {-1,-1,0,0}, 1, {-4,0,0,0,0}, {-1,0,0,0,0}, {1,0,0,0,0}, {1,0,0,0,0}, 1, 2, {4,4,0,0,0,0,0,0}, 16, 748, NULL, 1, 2, {4,4,0,0,0,0,0,0}, 1, 2, {-1,-1,0,0,0,0,0,0}},
  {1, {2,0,0,0}, {2,0,0,0}, 2, {5,2,0,0,0}, {1,-2,0,0,0}, {-3,3,0,0,0}, {0,0,0,0,0}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 764, "Index out of range using input dim 1; input has only 1 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {4, {3,3,2,3}, {-1,3,-1,3}, 5, {2,-5,4,6,-4}, {-5,-1,4,5,6}, {-3,3,2,1,-3}, {16,0,1,17,0}, 1, 5, {3,1,0,0,1,0,0,0}, 0, 764, NULL, 1, 5, {3,1,0,0,1,0,0,0}, 1, 5, {-1,1,-1,0,1,0,0,0}},
  {4, {2,1,1,3}, {-1,1,1,3}, 2, {-3,2,0,0,0}, {-6,0,0,0,0}, {2,-1,0,0,0}, {3,2,0,2,0}, 1, 5, {0,1,1,1,3,0,0,0}, 0, 764, NULL, 1, 5, {0,1,1,1,3,0,0,0}, 1, 5, {-1,1,1,1,3,0,0,0}},
  {3, {2,1,1,0}, {2,1,1,0}, 3, {-1,3,0,0,0}, {5,-6,5,0,0}, {3,2,-2,0,0}, {6,0,2,0,0}, 1, 3, {1,1,0,0,0,0,0,0}, 0, 764, NULL, 1, 3, {1,1,0,0,0,0,0,0}, 1, 3, {1,1,0,0,0,0,0,0}},
  {2, {1,3,0,0}, {-1,3,0,0}, 3, {-2,6,-5,0,0}, {2,6,-2,0,0}, {1,1,2,0,0}, {5,0,0,0,1}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 764, "Index out of range using input dim 2; input has only 2 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {3, {5,1,4,0}, {5,1,4,0}, 4, {5,3,-6,0,0}, {-3,-3,1,-3,0}, {-3,-1,3,-3,0}, {0,0,4,3,2}, 1, 5, {1,1,5,1,0,0,0,0}, 0, 764, NULL, 1, 5, {1,1,5,1,0,0,0,0}, 1, 5, {1,1,5,1,0,0,0,0}},
  {1, {1,0,0,0}, {1,0,0,0}, 1, {-1,0,0,0,0}, {-2,0,0,0,0}, {1,0,0,0,0}, {1,0,0,0,0}, 1, 1, {0,0,0,0,0,0,0,0}, 0, 764, NULL, 1, 1, {0,0,0,0,0,0,0,0}, 1, 1, {0,0,0,0,0,0,0,0}},
  {3, {3,4,5,0}, {3,4,5,0}, 1, {-3,0,0,0,0}, {1,0,0,0,0}, {-3,0,0,0,0}, {1,1,0,0,1}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 764, "only stride 1 allowed on non-range indexing.", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {4, {1,5,3,1}, {1,5,-1,1}, 5, {-6,-5,-2,-3,-6}, {-4,-2,2,6,4}, {0,-2,-3,-3,-1}, {0,23,0,0,0}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 764, "Index out of range using input dim 4; input has only 4 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {0, {0,0,0,0}, {0,0,0,0}, 1, {0,0,0,0,0}, {-3,0,0,0,0}, {1,0,0,0,0}, {1,0,0,0,1}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 764, "Attempting to slice scalar input.", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {2, {3,4,0,0}, {-1,-1,0,0}, 3, {0,2,-6,0,0}, {1,5,3,0,0}, {2,2,-1,0,0}, {6,0,0,0,5}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 764, "Index out of range using input dim 2; input has only 2 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {0, {0,0,0,0}, {0,0,0,0}, 1, {6,0,0,0,0}, {6,0,0,0,0}, {-3,0,0,0,0}, {1,1,0,0,0}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 764, "Attempting to slice scalar input.", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {4, {1,0,4,5}, {-1,-1,-1,5}, 3, {4,1,0,0,0}, {5,-2,1,0,0}, {1,1,1,0,0}, {0,7,0,0,0}, 1, 4, {0,0,4,5,0,0,0,0}, 0, 764, NULL, 1, 4, {0,0,4,5,0,0,0,0}, 1, 4, {-1,-1,-1,5,0,0,0,0}},
  {1, {2,0,0,0}, {2,0,0,0}, 2, {-5,2,0,0,0}, {-5,-1,0,0,0}, {-3,1,0,0,0}, {0,0,2,1,0}, 1, 2, {1,2,0,0,0,0,0,0}, 2, 764, NULL, 1, 2, {1,2,0,0,0,0,0,0}, 1, 2, {1,2,0,0,0,0,0,0}},
  {1, {2,0,0,0}, {2,0,0,0}, 1, {-1,0,0,0,0}, {4,0,0,0,0}, {1,0,0,0,0}, {0,0,1,1,0}, 1, 1, {2,0,0,0,0,0,0,0}, 2, 766, NULL, 1, 1, {2,0,0,0,0,0,0,0}, 1, 1, {2,0,0,0,0,0,0,0}},
  {2, {2,3,0,0}, {-1,-1,0,0}, 3, {6,-3,6,0,0}, {-2,5,-1,0,0}, {-2,1,1,0,0}, {0,0,4,0,0}, 1, 2, {1,3,0,0,0,0,0,0}, 3, 768, NULL, 1, 2, {1,3,0,0,0,0,0,0}, 1, 2, {-1,-1,0,0,0,0,0,0}},
  {1, {2,0,0,0}, {2,0,0,0}, 1, {0,0,0,0,0}, {2,0,0,0,0}, {-1,0,0,0,0}, {1,1,0,0,0}, 1, 1, {2,0,0,0,0,0,0,0}, 2, 771, NULL, 1, 1, {2,0,0,0,0,0,0,0}, 1, 1, {2,0,0,0,0,0,0,0}},
  {1, {5,0,0,0}, {-1,0,0,0}, 1, {6,0,0,0,0}, {-5,0,0,0,0}, {1,0,0,0,0}, {0,1,1,1,0}, 1, 1, {5,0,0,0,0,0,0,0}, 5, 773, NULL, 1, 1, {5,0,0,0,0,0,0,0}, 1, 1, {-1,0,0,0,0,0,0,0}},
  {1, {2,0,0,0}, {2,0,0,0}, 2, {-3,0,0,0,0}, {-5,1,0,0,0}, {-1,-3,0,0,0}, {1,0,0,3,3}, 1, 3, {1,1,2,0,0,0,0,0}, 2, 778, NULL, 1, 3, {1,1,2,0,0,0,0,0}, 1, 3, {1,1,2,0,0,0,0,0}},
  {4, {1,4,3,4}, {1,4,3,4}, 5, {3,1,-4,-4,-3}, {0,-5,-5,-2,6}, {1,3,-1,-1,1}, {0,27,8,0,0}, 1, 4, {0,1,0,3,0,0,0,0}, 0, 780, NULL, 1, 4, {0,1,0,3,0,0,0,0}, 1, 4, {0,1,0,3,0,0,0,0}},
  {3, {4,5,4,0}, {4,5,-1,0}, 4, {-1,-5,0,3,0}, {-4,1,0,-2,0}, {-2,-3,-1,1,0}, {8,10,0,15,4}, 1, 7, {1,1,1,1,4,5,4,0}, 80, 780, NULL, 1, 7, {1,1,1,1,4,5,4,0}, 1, 7, {1,1,1,1,4,5,-1,0}},
  {1, {3,0,0,0}, {3,0,0,0}, 1, {-1,0,0,0,0}, {3,0,0,0,0}, {1,0,0,0,0}, {0,0,0,0,0}, 1, 1, {1,0,0,0,0,0,0,0}, 1, 860, NULL, 1, 1, {1,0,0,0,0,0,0,0}, 1, 1, {1,0,0,0,0,0,0,0}},
  {2, {3,1,0,0}, {-1,-1,0,0}, 3, {5,0,-6,0,0}, {6,3,0,0,0}, {-2,3,-1,0,0}, {0,5,1,0,3}, 1, 1, {0,0,0,0,0,0,0,0}, 0, 861, NULL, 1, 1, {0,0,0,0,0,0,0,0}, 1, 1, {-1,0,0,0,0,0,0,0}},
  {4, {4,1,1,4}, {4,-1,1,-1}, 5, {-2,5,6,-5,4}, {-6,-1,4,2,0}, {-2,1,3,-2,1}, {7,0,1,2,0}, 1, 5, {4,1,1,0,0,0,0,0}, 0, 861, NULL, 1, 5, {4,1,1,0,0,0,0,0}, 1, 5, {4,1,-1,0,-1,0,0,0}},
  {2, {3,2,0,0}, {-1,2,0,0}, 1, {1,0,0,0,0}, {2,0,0,0,0}, {1,0,0,0,0}, {0,0,1,1,0}, 1, 2, {3,2,0,0,0,0,0,0}, 6, 861, NULL, 1, 2, {3,2,0,0,0,0,0,0}, 1, 2, {-1,2,0,0,0,0,0,0}},
  {3, {5,1,1,0}, {-1,1,1,0}, 3, {6,-2,0,0,0}, {3,3,-4,0,0}, {2,1,1,0,0}, {0,0,0,0,0}, 1, 3, {0,1,0,0,0,0,0,0}, 0, 867, NULL, 1, 3, {0,1,0,0,0,0,0,0}, 1, 3, {-1,1,0,0,0,0,0,0}},
  {3, {3,1,1,0}, {3,-1,-1,0}, 2, {4,-3,0,0,0}, {-6,-1,0,0,0}, {-3,-1,0,0,0}, {0,3,1,0,0}, 1, 3, {3,1,0,0,0,0,0,0}, 0, 867, NULL, 1, 3, {3,1,0,0,0,0,0,0}, 1, 3, {3,-1,-1,0,0,0,0,0}},
  {1, {5,0,0,0}, {-1,0,0,0}, 5, {2,4,-2,-2,-2}, {-6,0,-3,-6,-1}, {1,1,-1,-2,1}, {0,0,1,0,0}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 867, "Index out of range using input dim 1; input has only 1 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {3, {4,3,4,0}, {-1,-1,4,0}, 1, {-5,0,0,0,0}, {-4,0,0,0,0}, {3,0,0,0,0}, {0,0,1,0,0}, 1, 3, {4,3,4,0,0,0,0,0}, 48, 867, NULL, 1, 3, {4,3,4,0,0,0,0,0}, 1, 3, {-1,-1,4,0,0,0,0,0}},
  {1, {5,0,0,0}, {-1,0,0,0}, 4, {-1,5,0,5,0}, {-3,4,4,-1,0}, {-1,1,1,-3,0}, {0,0,0,1,8}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 915, "Index out of range using input dim 1; input has only 1 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {3, {4,4,1,0}, {4,4,-1,0}, 3, {-4,-6,-1,0,0}, {-1,-1,-1,0,0}, {-3,-2,-1,0,0}, {1,0,0,0,0}, 1, 3, {0,0,0,0,0,0,0,0}, 0, 915, NULL, 1, 3, {0,0,0,0,0,0,0,0}, 1, 3, {0,0,-1,0,0,0,0,0}},
  {3, {2,3,4,0}, {-1,-1,4,0}, 4, {3,-6,-4,6,0}, {0,-5,6,2,0}, {3,1,3,2,0}, {0,7,0,0,0}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 915, "Index out of range using input dim 3; input has only 3 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {4, {3,5,5,1}, {-1,5,-1,1}, 2, {4,6,0,0,0}, {-5,-4,0,0,0}, {1,-1,0,0,0}, {0,3,0,0,0}, 1, 4, {0,5,5,1,0,0,0,0}, 0, 915, NULL, 1, 4, {0,5,5,1,0,0,0,0}, 1, 4, {-1,5,-1,1,0,0,0,0}},
  {4, {1,1,3,1}, {-1,1,-1,-1}, 5, {4,-5,0,6,4}, {4,6,-1,-2,0}, {1,-2,-1,3,1}, {0,0,4,0,0}, 1, 4, {0,0,0,0,0,0,0,0}, 0, 915, NULL, 1, 4, {0,0,0,0,0,0,0,0}, 1, 4, {-1,0,-1,-1,0,0,0,0}},
  {3, {2,4,2,0}, {2,4,2,0}, 4, {1,1,3,6,0}, {2,4,-6,-1,0}, {1,1,-2,-2,0}, {0,12,4,0,0}, 1, 3, {1,3,1,0,0,0,0,0}, 3, 915, NULL, 1, 3, {1,3,1,0,0,0,0,0}, 1, 3, {1,3,1,0,0,0,0,0}},
  {2, {5,1,0,0}, {5,-1,0,0}, 2, {6,2,0,0,0}, {-2,2,0,0,0}, {1,3,0,0,0}, {0,0,0,0,0}, 1, 2, {0,0,0,0,0,0,0,0}, 0, 918, NULL, 1, 2, {0,0,0,0,0,0,0,0}, 1, 2, {0,-1,0,0,0,0,0,0}},
  {1, {4,0,0,0}, {4,0,0,0}, 1, {5,0,0,0,0}, {3,0,0,0,0}, {1,0,0,0,0}, {0,0,0,0,0}, 1, 1, {0,0,0,0,0,0,0,0}, 0, 918, NULL, 1, 1, {0,0,0,0,0,0,0,0}, 1, 1, {0,0,0,0,0,0,0,0}},
  {2, {3,3,0,0}, {3,-1,0,0}, 3, {-1,4,3,0,0}, {3,3,4,0,0}, {-2,2,1,0,0}, {0,0,4,0,0}, 1, 2, {0,0,0,0,0,0,0,0}, 0, 918, NULL, 1, 2, {0,0,0,0,0,0,0,0}, 1, 2, {0,-1,0,0,0,0,0,0}},
  {3, {3,5,4,0}, {3,5,4,0}, 4, {-5,-2,2,-1,0}, {4,4,-1,-5,0}, {-3,1,3,3,0}, {12,0,4,0,0}, 1, 3, {0,1,0,0,0,0,0,0}, 0, 918, NULL, 1, 3, {0,1,0,0,0,0,0,0}, 1, 3, {0,1,0,0,0,0,0,0}},
  {2, {3,1,0,0}, {3,-1,0,0}, 3, {2,-6,-4,0,0}, {-6,-6,2,0,0}, {-2,-1,1,0,0}, {0,4,0,6,0}, 1, 4, {2,1,1,1,0,0,0,0}, 2, 918, NULL, 1, 4, {2,1,1,1,0,0,0,0}, 1, 4, {2,1,1,-1,0,0,0,0}},
  {2, {2,2,0,0}, {2,2,0,0}, 1, {4,0,0,0,0}, {6,0,0,0,0}, {1,0,0,0,0}, {1,0,1,0,0}, 1, 2, {2,2,0,0,0,0,0,0}, 4, 920, NULL, 1, 2, {2,2,0,0,0,0,0,0}, 1, 2, {2,2,0,0,0,0,0,0}},
  {1, {3,0,0,0}, {3,0,0,0}, 1, {4,0,0,0,0}, {6,0,0,0,0}, {-3,0,0,0,0}, {0,0,0,0,0}, 1, 1, {0,0,0,0,0,0,0,0}, 0, 924, NULL, 1, 1, {0,0,0,0,0,0,0,0}, 1, 1, {0,0,0,0,0,0,0,0}},
  {1, {1,0,0,0}, {-1,0,0,0}, 5, {0,-4,6,6,5}, {3,3,4,6,0}, {-2,1,-2,2,3}, {28,12,0,0,0}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 924, "Index out of range using input dim 1; input has only 1 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {4, {2,3,1,4}, {-1,-1,-1,-1}, 3, {3,2,-5,0,0}, {1,4,-4,0,0}, {-1,-2,-2,0,0}, {0,2,0,0,0}, 1, 4, {0,2,0,4,0,0,0,0}, 0, 924, NULL, 1, 4, {0,2,0,4,0,0,0,0}, 1, 4, {-1,-1,-1,-1,0,0,0,0}},
  {2, {5,5,0,0}, {5,-1,0,0}, 1, {3,0,0,0,0}, {2,0,0,0,0}, {1,0,0,0,0}, {0,0,1,0,0}, 1, 2, {5,5,0,0,0,0,0,0}, 25, 924, NULL, 1, 2, {5,5,0,0,0,0,0,0}, 1, 2, {5,-1,0,0,0,0,0,0}},
  {1, {1,0,0,0}, {-1,0,0,0}, 2, {-6,-2,0,0,0}, {-6,-4,0,0,0}, {-2,-3,0,0,0}, {0,0,2,0,0}, 1, 1, {0,0,0,0,0,0,0,0}, 0, 949, NULL, 1, 1, {0,0,0,0,0,0,0,0}, 1, 1, {-1,0,0,0,0,0,0,0}},
  {3, {3,5,2,0}, {3,5,-1,0}, 4, {3,-5,-3,-6,0}, {0,3,-2,-4,0}, {1,1,1,2,0}, {0,3,1,0,0}, 1, 3, {3,1,0,0,0,0,0,0}, 0, 949, NULL, 1, 3, {3,1,0,0,0,0,0,0}, 1, 3, {3,1,-1,0,0,0,0,0}},
  {3, {4,3,0,0}, {-1,-1,-1,0}, 4, {4,0,-1,-2,0}, {5,-3,-3,1,0}, {-2,-3,-1,-3,0}, {4,6,0,0,0}, 0, 0, {0,0,0,0,0,0,0,0}, 0, 949, "Index out of range using input dim 3; input has only 3 dims", 0, -1, {0,0,0,0,0,0,0,0}, 0, -1, {0,0,0,0,0,0,0,0}},
  {4, {2,4,4,1}, {-1,-1,-1,-1}, 1, {0,0,0,0,0}, {-6,0,0,0,0}, {1,0,0,0,0}, {0,0,1,0,1}, 1, 4, {2,4,4,1,0,0,0,0}, 32, 949, NULL, 1, 4, {2,4,4,1,0,0,0,0}, 1, 4, {-1,-1,-1,-1,0,0,0,0}},
  {4, {1,5,1,4}, {1,-1,1,4}, 5, {-1,-5,0,-2,1}, {0,0,-1,6,-3}, {-2,-2,2,1,1}, {0,0,16,0,0}, 1, 4, {0,0,0,2,0,0,0,0}, 0, 981, NULL, 1, 4, {0,0,0,2,0,0,0,0}, 1, 4, {0,-1,0,2,0,0,0,0}},
  {4, {3,1,4,1}, {3,1,-1,-1}, 1, {1,0,0,0,0}, {-6,0,0,0,0}, {1,0,0,0,0}, {0,0,0,0,0}, 1, 4, {0,1,4,1,0,0,0,0}, 0, 981, NULL, 1, 4, {0,1,4,1,0,0,0,0}, 1, 4, {0,1,-1,-1,0,0,0,0}},
  {2, {1,4,0,0}, {-1,4,0,0}, 2, {-1,-3,0,0,0}, {-2,-1,0,0,0}, {-2,2,0,0,0}, {1,0,2,0,0}, 1, 2, {1,4,0,0,0,0,0,0}, 4, 981, NULL, 1, 2, {1,4,0,0,0,0,0,0}, 1, 2, {-1,4,0,0,0,0,0,0}},
  {4, {2,3,5,4}, {-1,3,-1,-1}, 4, {-4,0,3,2,0}, {-1,4,3,2,0}, {1,1,-3,-3,0}, {0,0,0,13,0}, 1, 7, {1,2,1,1,3,5,4,0}, 120, 985, NULL, 1, 7, {1,2,1,1,3,5,4,0}, 1, 7, {1,-1,1,1,3,-1,-1,0}},
  {3, {2,5,4,0}, {2,-1,4,0}, 2, {-6,3,0,0,0}, {-5,2,0,0,0}, {3,-2,0,0,0}, {0,1,0,1,0}, 1, 4, {1,0,5,4,0,0,0,0}, 0, 1105, NULL, 1, 4, {1,0,5,4,0,0,0,0}, 1, 4, {1,0,-1,4,0,0,0,0}},
  {2, {1,2,0,0}, {1,2,0,0}, 2, {2,6,0,0,0}, {-5,0,0,0,0}, {1,3,0,0,0}, {0,0,2,2,0}, 1, 2, {0,2,0,0,0,0,0,0}, 0, 1105, NULL, 1, 2, {0,2,0,0,0,0,0,0}, 1, 2, {0,2,0,0,0,0,0,0}},
  {1, {3,0,0,0}, {-1,0,0,0}, 1, {0,0,0,0,0}, {5,0,0,0,0}, {-1,0,0,0,0}, {0,1,0,0,0}, 1, 1, {1,0,0,0,0,0,0,0}, 1, 1105, NULL, 1, 1, {1,0,0,0,0,0,0,0}, 1, 1, {-1,0,0,0,0,0,0,0}},
  {2, {1,4,0,0}, {1,4,0,0}, 3, {1,1,0,0,0}, {-3,6,6,0,0}, {2,2,-3,0,0}, {0,0,0,5,0}, 1, 4, {1,0,1,4,0,0,0,0}, 0, 1106, NULL, 1, 4, {1,0,1,4,0,0,0,0}, 1, 4, {1,0,1,4,0,0,0,0}},
  {4, {4,2,5,3}, {4,2,5,3}, 2, {-6,5,0,0,0}, {2,-5,0,0,0}, {1,3,0,0,0}, {0,3,0,3,0}, 1, 6, {1,1,4,2,5,3,0,0}, 120, 1106, NULL, 1, 6, {1,1,4,2,5,3,0,0}, 1, 6, {1,1,4,2,5,3,0,0}},
  {1, {5,0,0,0}, {-1,0,0,0}, 1, {-6,0,0,0,0}, {0,0,0,0,0}, {-2,0,0,0,0}, {0,0,1,0,0}, 1, 1, {5,0,0,0,0,0,0,0}, 5, 1226, NULL, 1, 1, {5,0,0,0,0,0,0,0}, 1, 1, {-1,0,0,0,0,0,0,0}},
  {1, {3,0,0,0}, {3,0,0,0}, 1, {3,0,0,0,0}, {2,0,0,0,0}, {3,0,0,0,0}, {0,1,0,0,0}, 1, 1, {0,0,0,0,0,0,0,0}, 0, 1231, NULL, 1, 1, {0,0,0,0,0,0,0,0}, 1, 1, {0,0,0,0,0,0,0,0}}
};
/* ok=145 err=75 */


/* Compares a shape-function result with a recorded static shape (-1 = unknown rank). */
static bool static_matches(const tfc_shape *s, int rank, const int64_t *dims) {
  if (s->rank != rank) return false;
  for (int i = 0; i < rank; i++)
    if (s->dims[i] != dims[i]) return false;
  return true;
}

TFC_TEST(array_strided_slice_matches_tensorflow) {
  int n = (int)(sizeof k_ss_cases / sizeof k_ss_cases[0]);
  for (int c = 0; c < n; c++) {
    const ss_case *k = &k_ss_cases[c];
    tfc_tensor *x = iota_i(k->rank, k->dims);
    tfc_tensor *b = mk(TFC_DTYPE_INT64, 1, DIMS(k->n), k->begin);
    tfc_tensor *e = mk(TFC_DTYPE_INT64, 1, DIMS(k->n), k->end);
    tfc_tensor *s = mk(TFC_DTYPE_INT64, 1, DIMS(k->n), k->strides);
    /* Static shape, all inputs constant and fully known. */
    tfc_shape out;
    tfc_status st;
    tfc_shape in_shapes[4] = {tfc_shape_make(k->rank, k->dims), shp(1, k->n), shp(1, k->n), shp(1, k->n)};
    bool ok = srun("StridedSlice", ss_attrs(k->masks), 4, in_shapes, VALS(x, b, e, s), 1, &out, &st);
    if (ok != (bool)k->static_ok) TFC_FAIL_("case %d: static ok %d, want %d (%s)", c, ok, k->static_ok, st.msg);
    if (ok && !static_matches(&out, k->static_rank, k->static_dims)) TFC_FAIL_("case %d: static shape differs", c);
    /* Partially known input shape. */
    in_shapes[0] = tfc_shape_make(k->rank, k->partial);
    ok = srun("StridedSlice", ss_attrs(k->masks), 4, in_shapes, VALS(NULL, b, e, s), 1, &out, &st);
    if (ok != (bool)k->pstatic_ok) TFC_FAIL_("case %d: partial ok %d, want %d (%s)", c, ok, k->pstatic_ok, st.msg);
    if (ok && !static_matches(&out, k->pstatic_rank, k->pstatic_dims))
      TFC_FAIL_("case %d: partial static shape differs (rank %d vs %d)", c, out.rank, k->pstatic_rank);
    /* Kernel. */
    kres r;
    krun("StridedSlice", ss_attrs(k->masks), 4, IN(x, b, e, s), 1, &r);
    if (k->ok) {
      if (r.st.code != TFC_CODE_OK) TFC_FAIL_("case %d: kernel failed: %s", c, r.st.msg);
      if (!has_dims(r.out[0], k->out_rank, k->out_dims)) TFC_FAIL_("case %d: kernel shape differs", c);
      for (int i = 0; i < k->n_vals; i++)
        if (iget(r.out[0], i) != k_ss_vals[k->vals_off + i]) TFC_FAIL_("case %d: value %d differs", c, i);
    } else {
      if (r.st.code != TFC_CODE_INVALID_ARGUMENT || strcmp(r.st.msg, k->err) != 0)
        TFC_FAIL_("case %d: kernel error '%s', want '%s'", c, r.st.msg, k->err);
    }
    kfree(&r);
  }
}

TFC_TEST(array_strided_slice_strings_and_identity) {
  kres r;
  tfc_tensor *x = iota_s(2, DIMS(4, 3));
  int64_t m[5] = {0, 0, 0, 0, 0};
  /* x[::-2, 1] */
  m[0] = 1; m[1] = 1; m[4] = 2;
  krun("StridedSlice", ss_attrs(m), 4, IN(tfc_tensor_ref(x), ivec(2, 0, 1), ivec(2, 0, 2), ivec(2, -2, 1)), 1, &r);
  CHECK_STATUS_OK(&r.st);
  CHECK(has_dims(r.out[0], 1, DIMS(2)) && strcmp(sget(r.out[0], 0), "s10") == 0 && strcmp(sget(r.out[0], 1), "s4") == 0);
  kfree(&r);
  /* x[...] shares the buffer. */
  m[0] = m[1] = m[4] = 0;
  m[2] = 1;
  krun("StridedSlice", ss_attrs(m), 4, IN(tfc_tensor_ref(x), ivec(1, 0), ivec(1, 0), ivec(1, 1)), 1, &r);
  CHECK(r.out[0]->data == x->data && has_dims(r.out[0], 2, DIMS(4, 3)));
  kfree(&r);
  tfc_tensor_unref(x);
}

TFC_TEST(array_strided_slice_grad) {
  /* dy of x[1:4:2, ::-1] for x of shape [5, 3]. */
  kres r;
  int64_t m[5] = {0, 0, 0, 0, 0};
  m[0] = 2; m[1] = 2;
  krun("StridedSliceGrad", ss_attrs(m), 5,
       IN(ivec(2, 5, 3), ivec(2, 1, 0), ivec(2, 4, 0), ivec(2, 2, -1), iota_f(2, DIMS(2, 3))), 1, &r);
  CHECK_STATUS_OK(&r.st);
  CHECK(has_dims(r.out[0], 2, DIMS(5, 3)));
  static const float e[15] = {0, 0, 0, 2, 1, 0, 0, 0, 0, 5, 4, 3, 0, 0, 0};
  for (int i = 0; i < 15; i++) CHECK(fget(r.out[0], i) == e[i]);
  kfree(&r);
  krun("StridedSliceGrad", ss_attrs(m), 5,
       IN(ivec(2, 5, 3), ivec(2, 1, 0), ivec(2, 4, 0), ivec(2, 2, -1), iota_f(2, DIMS(3, 3))), 1, &r);
  CHECK_FAILS_WITH(r, "shape of dy was [3,3] instead of [2,3]");
}

/* ================================================================== tile / broadcast / pad */

TFC_TEST(array_tile) {
  tfc_threadpool *pool = tfc_threadpool_new(2);
  kres r;
  krun_pool("Tile", NULL, 2, IN(iota_f(2, DIMS(2, 3)), ivec(2, 2, 3)), 1, &r, pool);
  CHECK_STATUS_OK(&r.st);
  CHECK(has_dims(r.out[0], 2, DIMS(4, 9)));
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 9; j++) CHECK(fget(r.out[0], i * 9 + j) == (i % 2) * 3 + j % 3);
  kfree(&r);
  krun_pool("Tile", NULL, 2, IN(iota_f(2, DIMS(300, 1)), lvec(2, 1, 200)), 1, &r, pool);
  CHECK(has_dims(r.out[0], 2, DIMS(300, 200)) && fget(r.out[0], 200 * 299 + 199) == 299);
  kfree(&r);
  krun("Tile", NULL, 2, IN(iota_s(1, DIMS(2)), ivec(1, 2)), 1, &r);
  CHECK(strcmp(sget(r.out[0], 2), "s0") == 0 && strcmp(sget(r.out[0], 3), "s1") == 0);
  kfree(&r);
  krun("Tile", NULL, 2, IN(iota_f(2, DIMS(2, 3)), ivec(2, 0, 1)), 1, &r);
  CHECK_STATUS_OK(&r.st);
  CHECK(has_dims(r.out[0], 2, DIMS(0, 3)));
  kfree(&r);
  krun("Tile", NULL, 2, IN(iota_f(2, DIMS(2, 3)), ivec(3, 1, 2, 3)), 1, &r);
  CHECK_FAILS_WITH(r, "Expected multiples argument to be a vector of length 2 but got length 3");
  krun("Tile", NULL, 2, IN(iota_f(2, DIMS(2, 3)), ivec(2, 1, -1)), 1, &r);
  CHECK_FAILS_WITH(r, "Expected multiples[1] >= 0, but got -1");
  tfc_threadpool_free(pool);
}

TFC_TEST(array_broadcast_to) {
  kres r;
  krun("BroadcastTo", NULL, 2, IN(iota_f(2, DIMS(3, 1)), ivec(3, 2, 3, 4)), 1, &r);
  CHECK_STATUS_OK(&r.st);
  CHECK(has_dims(r.out[0], 3, DIMS(2, 3, 4)));
  for (int i = 0; i < 24; i++) CHECK(fget(r.out[0], i) == (i / 4) % 3);
  kfree(&r);
  krun("BroadcastTo", NULL, 2, IN(iota_f(2, DIMS(2, 3)), ivec(2, 4, 3)), 1, &r);
  CHECK_FAILS_WITH(r, "Incompatible shapes: [2,3] vs. [4,3]");
  krun("BroadcastTo", NULL, 2, IN(iota_f(2, DIMS(2, 3)), ivec(1, 3)), 1, &r);
  CHECK_FAILS_WITH(r, "Rank of input (2) must be no greater than rank of output shape (1).");
}

TFC_TEST(array_pad) {
  kres r;
  krun("Pad", NULL, 2, IN(iota_f(2, DIMS(2, 3)), imat2(2, 1, 0, 2, 1)), 1, &r);
  CHECK_STATUS_OK(&r.st);
  CHECK(has_dims(r.out[0], 2, DIMS(3, 6)));
  static const float e[18] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 0, 3, 4, 5, 0};
  for (int i = 0; i < 18; i++) CHECK(fget(r.out[0], i) == e[i]);
  kfree(&r);
  krun("PadV2", NULL, 3, IN(iota_s(1, DIMS(2)), imat2(1, 1, 1), iota_s(0, NULL)), 1, &r);
  CHECK_STATUS_OK(&r.st);
  CHECK(strcmp(sget(r.out[0], 0), "s0") == 0 && strcmp(sget(r.out[0], 2), "s1") == 0 &&
        strcmp(sget(r.out[0], 3), "s0") == 0);
  kfree(&r);
  krun("Pad", NULL, 2, IN(iota_s(1, DIMS(1)), imat2(1, 1, 0)), 1, &r);
  CHECK(sget(r.out[0], 0)[0] == '\0' && strcmp(sget(r.out[0], 1), "s0") == 0);
  kfree(&r);
  krun("Pad", NULL, 2, IN(iota_f(2, DIMS(2, 3)), imat2(2, 1, 1, -1, 2)), 1, &r);
  CHECK_FAILS_WITH(r, "Paddings must be non-negative: -1 2");
  krun("Pad", NULL, 2, IN(iota_f(2, DIMS(2, 3)), imat2(1, 1, 1)), 1, &r);
  CHECK_FAILS_WITH(r, "The first dimension of paddings must be the rank of inputs[1,2] [2,3]");
  krun("Pad", NULL, 2, IN(iota_f(2, DIMS(2, 3)), ivec(2, 1, 1)), 1, &r);
  CHECK_FAILS_WITH(r, "paddings must be a matrix with 2 columns: [2]");
}

/* Reference mirror index of output coordinate o (input size n, pad before b). */
static int64_t mirror_ref(int64_t o, int64_t n, int64_t b, bool reflect) {
  int64_t i = o - b;
  if (i < 0) i = reflect ? -i : -i - 1;
  if (i >= n) i = reflect ? 2 * n - 2 - i : 2 * n - 1 - i;
  return i;
}

TFC_TEST(array_mirror_pad) {
  for (int mode = 0; mode < 2; mode++) {
    bool reflect = mode == 0;
    int64_t dims[3] = {3, 4, 5}, pb[3] = {2, 0, 3}, pa[3] = {1, 3, reflect ? 4 : 5};
    tfc_attrs *a = attrs_new();
    set_str(a, "mode", reflect ? "REFLECT" : "SYMMETRIC");
    kres r;
    krun("MirrorPad", a, 2, IN(iota_f(3, dims), imat2(3, (int)pb[0], (int)pa[0], (int)pb[1], (int)pa[1], (int)pb[2], (int)pa[2])), 1, &r);
    CHECK_STATUS_OK(&r.st);
    int64_t od[3];
    for (int d = 0; d < 3; d++) od[d] = dims[d] + pb[d] + pa[d];
    CHECK(has_dims(r.out[0], 3, od));
    for (int64_t i = 0; i < od[0]; i++)
      for (int64_t j = 0; j < od[1]; j++)
        for (int64_t k = 0; k < od[2]; k++) {
          int64_t si = mirror_ref(i, 3, pb[0], reflect), sj = mirror_ref(j, 4, pb[1], reflect);
          int64_t sk = mirror_ref(k, 5, pb[2], reflect);
          if (fget(r.out[0], (i * od[1] + j) * od[2] + k) != (float)((si * 4 + sj) * 5 + sk))
            TFC_FAIL_("mode %d at (%lld,%lld,%lld)", mode, (long long)i, (long long)j, (long long)k);
        }
    kfree(&r);
  }
  tfc_attrs *a = attrs_new();
  set_str(a, "mode", "SYMMETRIC");
  kres r;
  krun("MirrorPad", a, 2, IN(iota_s(2, DIMS(1, 3)), imat2(2, 0, 0, 2, 2)), 1, &r);
  CHECK_STATUS_OK(&r.st);
  static const char *const e[7] = {"s1", "s0", "s0", "s1", "s2", "s2", "s1"};
  for (int i = 0; i < 7; i++) CHECK(strcmp(sget(r.out[0], i), e[i]) == 0);
  kfree(&r);
  a = attrs_new();
  set_str(a, "mode", "REFLECT");
  krun("MirrorPad", a, 2, IN(iota_f(2, DIMS(2, 3)), imat2(2, 1, 1, 3, 0)), 1, &r);
  CHECK_FAILS_WITH(r, "paddings must be less than the dimension size: 3, 0 not less than 3");
  a = attrs_new();
  set_str(a, "mode", "SYMMETRIC");
  krun("MirrorPad", a, 2, IN(iota_f(2, DIMS(2, 3)), imat2(2, 1, 1, 4, 0)), 1, &r);
  CHECK_FAILS_WITH(r, "paddings must be no greater than the dimension size: 4, 0 greater than 3");
}

/* ================================================================== gather */

TFC_TEST(array_gather) {
  tfc_threadpool *pool = tfc_threadpool_new(2);
  kres r;
  /* axis 1 of [2,5,3] with indices [[4,0],[1,1]] -> [2,2,2,3]. */
  tfc_tensor *p = iota_f(3, DIMS(2, 5, 3));
  krun_pool("GatherV2", NULL, 3, IN(tfc_tensor_ref(p), mk(TFC_DTYPE_INT64, 2, DIMS(2, 2), (int64_t[]){4, 0, 1, 1}), iscalar(1)), 1, &r, pool);
  CHECK_STATUS_OK(&r.st);
  CHECK(has_dims(r.out[0], 4, DIMS(2, 2, 2, 3)));
  static const int ix[4] = {4, 0, 1, 1};
  for (int b = 0; b < 2; b++)
    for (int q = 0; q < 4; q++)
      for (int k = 0; k < 3; k++) CHECK(fget(r.out[0], (b * 4 + q) * 3 + k) == (b * 5 + ix[q]) * 3 + k);
  kfree(&r);
  /* negative axis, scalar index. */
  krun("GatherV2", NULL, 3, IN(tfc_tensor_ref(p), iscalar(2), lvec(1, -1)), 1, &r);
  CHECK(has_dims(r.out[0], 2, DIMS(2, 5)) && fget(r.out[0], 9) == 3 * 9 + 2);
  kfree(&r);
  /* batch_dims = 1: params [2,5,3], indices [2,2], axis 1 -> [2,2,3]. */
  tfc_attrs *a = attrs_new();
  set_int(a, "batch_dims", 1);
  krun("GatherV2", a, 3, IN(tfc_tensor_ref(p), mk(TFC_DTYPE_INT32, 2, DIMS(2, 2), (int32_t[]){4, 0, 1, 2}), iscalar(1)), 1, &r);
  CHECK_STATUS_OK(&r.st);
  CHECK(has_dims(r.out[0], 3, DIMS(2, 2, 3)));
  CHECK(fget(r.out[0], 0) == 12 && fget(r.out[0], 3) == 0 && fget(r.out[0], 6) == 18 && fget(r.out[0], 9) == 21);
  kfree(&r);
  krun("GatherV2", NULL, 3, IN(iota_f(1, DIMS(5)), ivec(2, 1, 7), iscalar(0)), 1, &r);
  CHECK(strcmp(r.st.msg, "indices[1] = 7 is not in [0, 5)") == 0);
  krun("GatherV2", NULL, 3, IN(iota_f(1, DIMS(5)), mk(TFC_DTYPE_INT32, 2, DIMS(2, 2), (int32_t[]){1, 2, 3, -1}), iscalar(0)), 1, &r);
  CHECK_FAILS_WITH(r, "indices[1,1] = -1 is not in [0, 5)");
  krun("GatherV2", NULL, 3, IN(iota_f(1, DIMS(5)), iscalar(9), iscalar(0)), 1, &r);
  CHECK_FAILS_WITH(r, "indices = 9 is not in [0, 5)");
  krun("GatherV2", NULL, 3, IN(tfc_tensor_ref(p), ivec(1, 0), iscalar(3)), 1, &r);
  CHECK_FAILS_WITH(r, "Expected axis in the range [-3, 3), but got 3");
  krun("Gather", NULL, 2, IN(iota_s(2, DIMS(3, 2)), ivec(3, 2, 0, 2)), 1, &r);
  CHECK_STATUS_OK(&r.st);
  CHECK(has_dims(r.out[0], 2, DIMS(3, 2)) && strcmp(sget(r.out[0], 0), "s4") == 0 && strcmp(sget(r.out[0], 3), "s1") == 0);
  kfree(&r);
  /* Empty indices. */
  krun("Gather", NULL, 2, IN(tfc_tensor_ref(p), mk(TFC_DTYPE_INT32, 1, DIMS(0), NULL)), 1, &r);
  CHECK_STATUS_OK(&r.st);
  CHECK(has_dims(r.out[0], 3, DIMS(0, 5, 3)));
  kfree(&r);
  tfc_tensor_unref(p);
  tfc_threadpool_free(pool);
}

/* ================================================================== one_hot / fill / range */

TFC_TEST(array_one_hot) {
  kres r;
  tfc_attrs *a = attrs_new();
  set_int(a, "axis", 0);
  krun("OneHot", a, 4, IN(mk(TFC_DTYPE_INT32, 2, DIMS(2, 2), (int32_t[]){1, 5, -1, 0}), iscalar(3), fscalar(1), fscalar(0)), 1, &r);
  CHECK_STATUS_OK(&r.st);
  CHECK(has_dims(r.out[0], 3, DIMS(3, 2, 2)));
  static const float e[12] = {0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0};
  for (int i = 0; i < 12; i++) CHECK(fget(r.out[0], i) == e[i]);
  kfree(&r);
  tfc_tensor *on = iota_s(0, NULL), *off = iota_s(0, NULL);
  tfc_status st;
  tfc_tensor_set_string(on, 0, "a", 1, &st);
  tfc_tensor_set_string(off, 0, "b", 1, &st);
  krun("OneHot", NULL, 4, IN(mk(TFC_DTYPE_UINT8, 1, DIMS(2), (uint8_t[]){1, 2}), iscalar(3), on, off), 1, &r);
  CHECK_STATUS_OK(&r.st);
  CHECK(has_dims(r.out[0], 2, DIMS(2, 3)));
  CHECK(strcmp(sget(r.out[0], 1), "a") == 0 && strcmp(sget(r.out[0], 0), "b") == 0 && strcmp(sget(r.out[0], 5), "a") == 0);
  kfree(&r);
  krun("OneHot", NULL, 4, IN(ivec(1, 1), iscalar(-1), fscalar(1), fscalar(0)), 1, &r);
  CHECK_FAILS_WITH(r, "depth must be non-negative, got: -1");
  a = attrs_new();
  set_int(a, "axis", 3);
  krun("OneHot", a, 4, IN(ivec(1, 1), iscalar(3), fscalar(1), fscalar(0)), 1, &r);
  CHECK_FAILS_WITH(r, "Expected axis to be -1 or between [0, 2).  But received: 3");
}

TFC_TEST(array_fill_range) {
  kres r;
  krun("Fill", NULL, 2, IN(ivec(2, 2, 3), fscalar(2.5f)), 1, &r);
  CHECK(has_dims(r.out[0], 2, DIMS(2, 3)) && fget(r.out[0], 5) == 2.5f);
  kfree(&r);
  krun("Fill", NULL, 2, IN(lvec(1, 3), iota_s(0, NULL)), 1, &r);
  CHECK(strcmp(sget(r.out[0], 2), "s0") == 0);
  kfree(&r);
  krun("Fill", NULL, 2, IN(mk(TFC_DTYPE_INT32, 1, DIMS(1), (int32_t[]){3}), mk(TFC_DTYPE_COMPLEX128, 0, NULL, (double[]){1, 2})), 1, &r);
  CHECK(((double *)r.out[0]->data)[5] == 2);
  kfree(&r);
  krun("Fill", NULL, 2, IN(ivec(2, 2, -1), fscalar(1)), 1, &r);
  CHECK_FAILS_WITH(r, "Dimension -1 must be >= 0");
  krun("Range", NULL, 3, IN(iscalar(3), iscalar(-4), iscalar(-2)), 1, &r);
  CHECK_STATUS_OK(&r.st);
  CHECK(has_dims(r.out[0], 1, DIMS(4)) && iget(r.out[0], 3) == -3);
  kfree(&r);
  krun("Range", NULL, 3, IN(fscalar(0), fscalar(1), fscalar(0.1f)), 1, &r);
  CHECK(has_dims(r.out[0], 1, DIMS(10)) && fget(r.out[0], 7) == 7.0f * 0.1f);
  kfree(&r);
  krun("Range", NULL, 3, IN(iscalar(5), iscalar(1), iscalar(1)), 1, &r);
  CHECK_FAILS_WITH(r, "Requires start <= limit when delta > 0: 5/1");
  krun("Range", NULL, 3, IN(fscalar(1), fscalar(5), fscalar(-0.5f)), 1, &r);
  CHECK_FAILS_WITH(r, "Requires start >= limit when delta < 0: 1/5");
  krun("Range", NULL, 3, IN(iscalar(1), iscalar(5), iscalar(0)), 1, &r);
  CHECK_FAILS_WITH(r, "Requires delta != 0");
  krun("Range", NULL, 3, IN(ivec(2, 1, 2), iscalar(5), iscalar(1)), 1, &r);
  CHECK_FAILS_WITH(r, "start must be a scalar, not shape [2]");
}

/* ================================================================== where / unique / reverse */

TFC_TEST(array_where) {
  kres r;
  krun("Where", NULL, 1, IN(mk(TFC_DTYPE_BOOL, 2, DIMS(2, 3), (uint8_t[]){1, 0, 0, 0, 1, 1})), 1, &r);
  CHECK_STATUS_OK(&r.st);
  CHECK(r.out[0]->dtype == TFC_DTYPE_INT64 && has_dims(r.out[0], 2, DIMS(3, 2)));
  static const int64_t e[6] = {0, 0, 1, 1, 1, 2};
  for (int i = 0; i < 6; i++) CHECK(iget(r.out[0], i) == e[i]);
  kfree(&r);
  krun("Where", NULL, 1, IN(mk(TFC_DTYPE_FLOAT, 1, DIMS(4), (float[]){0.0f, -0.0f, NAN, 2})), 1, &r);
  CHECK(has_dims(r.out[0], 2, DIMS(2, 1)) && iget(r.out[0], 0) == 2 && iget(r.out[0], 1) == 3);
  kfree(&r);
  krun("Where", NULL, 1, IN(mk(TFC_DTYPE_INT32, 1, DIMS(0), NULL)), 1, &r);
  CHECK(has_dims(r.out[0], 2, DIMS(0, 1)));
  kfree(&r);
}

TFC_TEST(array_unique) {
  kres r;
  krun("Unique", NULL, 1, IN(mk(TFC_DTYPE_DOUBLE, 1, DIMS(6), (double[]){1, -0.0, 0.0, NAN, NAN, 1})), 2, &r);
  CHECK_STATUS_OK(&r.st);
  CHECK(has_dims(r.out[0], 1, DIMS(4)) && has_dims(r.out[1], 1, DIMS(6)));
  static const int64_t idx[6] = {0, 1, 1, 2, 3, 0};
  for (int i = 0; i < 6; i++) CHECK(iget(r.out[1], i) == idx[i]);
  CHECK(((double *)r.out[0]->data)[0] == 1.0);
  kfree(&r);
  tfc_tensor *s = mk(TFC_DTYPE_STRING, 1, DIMS(5), NULL);
  tfc_status st;
  const char *words[5] = {"b", "a", "b", "", "a"};
  for (int i = 0; i < 5; i++) tfc_tensor_set_string(s, i, words[i], strlen(words[i]), &st);
  tfc_attrs *a = attrs_new();
  set_type(a, "out_idx", TFC_DTYPE_INT64);
  krun("Unique", a, 1, IN(s), 2, &r);
  CHECK(has_dims(r.out[0], 1, DIMS(3)) && r.out[1]->dtype == TFC_DTYPE_INT64);
  CHECK(strcmp(sget(r.out[0], 0), "b") == 0 && strcmp(sget(r.out[0], 2), "") == 0 && iget(r.out[1], 4) == 1);
  kfree(&r);
  krun("Unique", NULL, 1, IN(iota_f(2, DIMS(1, 1))), 2, &r);
  CHECK_FAILS_WITH(r, "unique expects a 1D vector.");
  kfree(&r);
}

TFC_TEST(array_reverse) {
  kres r;
  krun("ReverseV2", NULL, 2, IN(iota_f(3, DIMS(2, 3, 4)), ivec(2, 0, -1)), 1, &r);
  CHECK_STATUS_OK(&r.st);
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 3; j++)
      for (int k = 0; k < 4; k++) CHECK(fget(r.out[0], (i * 3 + j) * 4 + k) == ((1 - i) * 3 + j) * 4 + (3 - k));
  kfree(&r);
  krun("Reverse", NULL, 2, IN(iota_s(2, DIMS(2, 3)), mk(TFC_DTYPE_BOOL, 1, DIMS(2), (uint8_t[]){0, 1})), 1, &r);
  CHECK(strcmp(sget(r.out[0], 0), "s2") == 0 && strcmp(sget(r.out[0], 5), "s3") == 0);
  kfree(&r);
  krun("ReverseV2", NULL, 2, IN(iota_f(2, DIMS(2, 3)), ivec(1, 2)), 1, &r);
  CHECK_FAILS_WITH(r, "'axis'[0] = 2 is out of valid range [0, 1");
  krun("ReverseV2", NULL, 2, IN(iota_f(2, DIMS(2, 3)), ivec(2, 1, -1)), 1, &r);
  CHECK_FAILS_WITH(r, "axis 1 specified more than once.");
}

/* ================================================================== OOM */

/* Builds fresh inputs for OOM case k into in (returns the op; sets *n_in, *n_out). */
static const char *oom_case(int k, tfc_tensor **in, int *n_in, int *n_out) {
  *n_out = 1;
  switch (k) {
    case 0: *n_in = 3; in[0] = iota_s(1, DIMS(4)); in[1] = iota_s(1, DIMS(3)); in[2] = iscalar(0); return "ConcatV2";
    case 1: *n_in = 2; in[0] = iota_s(2, DIMS(3, 5)); in[1] = ivec(2, 1, 0); return "Transpose";
    case 2: *n_in = 3; in[0] = ivec(6, 1, 2, 3, 4, 5, 6); in[1] = lvec(3, 1, -1, 2); in[2] = iscalar(0); *n_out = 3; return "SplitV";
    case 3: *n_in = 1; in[0] = ivec(5, 3, 1, 3, 2, 1); *n_out = 2; return "Unique";
    case 4: *n_in = 1; in[0] = mk(TFC_DTYPE_BOOL, 1, DIMS(3), (uint8_t[]){1, 0, 1}); return "Where";
    case 5: *n_in = 3; in[0] = iota_s(2, DIMS(3, 2)); in[1] = ivec(2, 2, 0); in[2] = iscalar(0); return "GatherV2";
    case 6: *n_in = 2; in[0] = iota_s(1, DIMS(3)); in[1] = imat2(1, 2, 2); return "Pad";
    case 7: *n_in = 2; in[0] = iota_s(2, DIMS(2, 2)); in[1] = ivec(2, 2, 3); return "Tile";
    default: *n_in = 2; in[0] = ivec(2, 3, 2); in[1] = iota_s(0, NULL); return "Fill";
  }
}

TFC_TEST(array_oom_is_a_status) {
  for (int k = 0; k < 9; k++) {
    for (int n = 1; n < 16; n++) {
      tfc_tensor *in[4];
      int n_in, n_out;
      const char *op = oom_case(k, in, &n_in, &n_out);
      kres r;
      tfc_alloc_fail_after(n);
      krun(op, NULL, n_in, in, n_out, &r);
      tfc_alloc_fail_after(0);
      if (r.st.code != TFC_CODE_OK && r.st.code != TFC_CODE_RESOURCE_EXHAUSTED)
        TFC_FAIL_("%s with allocation %d failing: %s", op, n, r.st.msg);
      kfree(&r);
    }
  }
}

/* ================================================================== shape functions */

TFC_TEST(array_shape_fn_reshape) {
  tfc_shape o;
  tfc_status st;
  tfc_tensor *s = ivec(2, 3, -1);
  CHECK(srun("Reshape", NULL, 2, SH(shp(2, 2, 3), shp(1, 2)), VALS(NULL, s), 1, &o, &st));
  CHECK(shape_is(&o, 2, 3, 2));
  CHECK(srun("Reshape", NULL, 2, SH(shp(2, -1, 3), shp(1, 2)), VALS(NULL, s), 1, &o, &st));
  CHECK(shape_is(&o, 2, 3, -1));
  tfc_tensor_unref(s);
  s = ivec(2, -1, 6);
  CHECK(srun("Reshape", NULL, 2, SH(shp(2, -1, 6), shp(1, 2)), VALS(NULL, s), 1, &o, &st));
  CHECK(shape_is(&o, 2, -1, 6));
  tfc_tensor_unref(s);
  s = ivec(2, 2, 2);
  CHECK(!srun("Reshape", NULL, 2, SH(shp(2, 2, 3), shp(1, 2)), VALS(NULL, s), 1, &o, &st));
  CHECK(strstr(st.msg, "Cannot reshape a tensor with 6 elements to shape [2,2] (4 elements) for '{{node n}} = Reshape") != NULL);
  tfc_tensor_unref(s);
  s = ivec(2, 4, -1);
  CHECK(!srun("Reshape", NULL, 2, SH(shp(2, 2, 3), shp(1, 2)), VALS(NULL, s), 1, &o, &st));
  CHECK(strstr(st.msg, "Dimension size must be evenly divisible by 4 but is 6") == st.msg);
  tfc_tensor_unref(s);
  /* Unknown shape value: rank from the shape input's length. */
  CHECK(srun("Reshape", NULL, 2, SH(shp(2, 2, 3), shp(1, 3)), NULL, 1, &o, &st));
  CHECK(shape_is(&o, 3, -1, -1, -1));
  CHECK(srun("Reshape", NULL, 2, SH(shp(2, 2, 3), shp(1, -1)), NULL, 1, &o, &st));
  CHECK(o.rank == -1);
}

TFC_TEST(array_shape_fn_squeeze_expand) {
  tfc_shape o;
  tfc_status st;
  tfc_attrs *a = attrs_new();
  set_ints(a, "squeeze_dims", 1, DIMS(1));
  CHECK(!srun("Squeeze", a, 1, SH(shp(2, 2, 3)), NULL, 1, &o, &st));
  CHECK(strstr(st.msg, "Can not squeeze dim[1], expected a dimension of 1, got 3 for '{{node n}} = Squeeze[") == st.msg);
  CHECK(srun("Squeeze", NULL, 1, SH(shp(3, 1, 2, 1)), NULL, 1, &o, &st));
  CHECK(shape_is(&o, 1, 2));
  CHECK(srun("Squeeze", NULL, 1, SH(shp(3, 1, -1, 2)), NULL, 1, &o, &st));
  CHECK(o.rank == -1);
  a = attrs_new();
  set_ints(a, "squeeze_dims", 1, DIMS(-2));
  CHECK(srun("Squeeze", a, 1, SH(shp(3, 1, -1, 2)), NULL, 1, &o, &st));
  CHECK(shape_is(&o, 2, 1, 2));
  tfc_tensor *d = iscalar(-1);
  CHECK(srun("ExpandDims", NULL, 2, SH(shp(2, 2, 3), shp(0)), VALS(NULL, d), 1, &o, &st));
  CHECK(shape_is(&o, 3, 2, 3, 1));
  tfc_tensor_unref(d);
  d = iscalar(4);
  CHECK(!srun("ExpandDims", NULL, 2, SH(shp(2, 2, 3), shp(0)), VALS(NULL, d), 1, &o, &st));
  CHECK(strstr(st.msg, "dim 4 not in the interval [-3, 2].") == st.msg);
  tfc_tensor_unref(d);
}

TFC_TEST(array_shape_fn_concat_pack_split) {
  tfc_shape o[3];
  tfc_status st;
  tfc_tensor *ax = iscalar(1);
  CHECK(srun("ConcatV2", NULL, 3, SH(shp(2, -1, 3), shp(2, 2, 4), shp(0)), VALS(NULL, NULL, ax), 1, o, &st));
  CHECK(shape_is(&o[0], 2, 2, 7));
  CHECK(srun("ConcatV2", NULL, 3, SH(shp(-1), shp(2, 2, -1), shp(0)), VALS(NULL, NULL, ax), 1, o, &st));
  CHECK(shape_is(&o[0], 2, 2, -1));
  CHECK(!srun("ConcatV2", NULL, 3, SH(shp(2, 2, 3), shp(2, 3, 3), shp(0)), VALS(NULL, NULL, ax), 1, o, &st));
  CHECK(strstr(st.msg, "Dimension 0 in both shapes must be equal, but are 2 and 3. Shapes are [2] and [3].") == st.msg);
  CHECK(srun("Concat", NULL, 3, SH(shp(0), shp(2, 2, 3), shp(2, 2, 3)), VALS(ax, NULL, NULL), 1, o, &st));
  CHECK(shape_is(&o[0], 2, 2, 6));
  tfc_tensor_unref(ax);
  CHECK(srun("ConcatV2", NULL, 3, SH(shp(2, 2, 3), shp(-1), shp(0)), NULL, 1, o, &st));
  CHECK(shape_is(&o[0], 2, -1, -1));
  CHECK(!srun("ConcatV2", NULL, 3, SH(shp(0), shp(0), shp(0)), NULL, 1, o, &st));
  CHECK(strstr(st.msg, "Can't concatenate scalars (use tf.stack instead)") == st.msg);
  tfc_attrs *a = attrs_new();
  set_int(a, "axis", -1);
  CHECK(srun("Pack", a, 3, SH(shp(2, 2, -1), shp(2, -1, 3), shp(-1)), NULL, 1, o, &st));
  CHECK(shape_is(&o[0], 3, 2, 3, 3));
  CHECK(srun("Unpack", NULL, 1, SH(shp(2, 3, 4)), NULL, 3, o, &st));
  CHECK(shape_is(&o[2], 1, 4));
  CHECK(!srun("Unpack", NULL, 1, SH(shp(2, 2, 4)), NULL, 3, o, &st));
  CHECK(strstr(st.msg, "Dimension must be 3 but is 2") == st.msg);
  tfc_tensor *sd = iscalar(-1);
  CHECK(srun("Split", NULL, 2, SH(shp(0), shp(2, 5, 6)), VALS(sd, NULL), 3, o, &st));
  CHECK(shape_is(&o[1], 2, 5, 2));
  CHECK(!srun("Split", NULL, 2, SH(shp(0), shp(2, 5, 4)), VALS(sd, NULL), 3, o, &st));
  CHECK(strstr(st.msg, "Dimension size must be evenly divisible by 3 but is 4") == st.msg);
  tfc_tensor *sizes = lvec(3, 1, -1, 2);
  CHECK(srun("SplitV", NULL, 3, SH(shp(2, 5, 6), shp(1, 3), shp(0)), VALS(NULL, sizes, sd), 3, o, &st));
  CHECK(shape_is(&o[0], 2, 5, 1) && shape_is(&o[1], 2, 5, 3) && shape_is(&o[2], 2, 5, 2));
  CHECK(srun("SplitV", NULL, 3, SH(shp(2, 5, -1), shp(1, 3), shp(0)), VALS(NULL, sizes, sd), 3, o, &st));
  CHECK(shape_is(&o[1], 2, 5, -1));
  tfc_tensor_unref(sizes);
  sizes = lvec(3, 1, 2, 4);
  CHECK(!srun("SplitV", NULL, 3, SH(shp(2, 5, 6), shp(1, 3), shp(0)), VALS(NULL, sizes, sd), 3, o, &st));
  CHECK(strstr(st.msg, "can't split axis of size 6 into pieces of size [1,2,4]") == st.msg);
  tfc_tensor_unref(sizes);
  tfc_tensor_unref(sd);
}

TFC_TEST(array_shape_fn_slice_tile_pad) {
  tfc_shape o;
  tfc_status st;
  tfc_tensor *b = ivec(2, 1, 1), *s = ivec(2, -1, 5);
  CHECK(srun("Slice", NULL, 3, SH(shp(2, 2, 3), shp(1, 2), shp(1, 2)), VALS(NULL, b, s), 1, &o, &st));
  CHECK(shape_is(&o, 2, 1, 5));
  CHECK(srun("Slice", NULL, 3, SH(shp(2, -1, 3), shp(1, 2), shp(1, 2)), VALS(NULL, NULL, s), 1, &o, &st));
  CHECK(shape_is(&o, 2, -1, 5));
  tfc_tensor_unref(b);
  b = ivec(2, 1, 5);
  tfc_tensor_unref(s);
  s = ivec(2, 1, -1);
  CHECK(!srun("Slice", NULL, 3, SH(shp(2, 2, 3), shp(1, 2), shp(1, 2)), VALS(NULL, b, s), 1, &o, &st));
  CHECK(strstr(st.msg, "Negative dimension size caused by subtracting 5 from 3") == st.msg);
  tfc_tensor_unref(b);
  tfc_tensor_unref(s);
  tfc_tensor *m = ivec(2, 0, 2);
  CHECK(srun("Tile", NULL, 2, SH(shp(2, -1, 3), shp(1, 2)), VALS(NULL, m), 1, &o, &st));
  CHECK(shape_is(&o, 2, 0, 6));
  CHECK(srun("Tile", NULL, 2, SH(shp(2, -1, 3), shp(1, 2)), NULL, 1, &o, &st));
  CHECK(shape_is(&o, 2, -1, -1));
  tfc_tensor_unref(m);
  tfc_tensor *p = imat2(2, 1, 1, 0, 2);
  CHECK(srun("Pad", NULL, 2, SH(shp(2, -1, 3), shp(2, 2, 2)), VALS(NULL, p), 1, &o, &st));
  CHECK(shape_is(&o, 2, -1, 5));
  CHECK(srun("MirrorPad", NULL, 2, SH(shp(2, 2, 3), shp(2, 2, 2)), VALS(NULL, p), 1, &o, &st));
  CHECK(shape_is(&o, 2, 4, 5));
  CHECK(!srun("Pad", NULL, 2, SH(shp(2, 2, 3), shp(2, 1, 2)), NULL, 1, &o, &st));
  CHECK(strstr(st.msg, "Shape must be rank 1 but is rank 2") == st.msg);
  CHECK(srun("PadV2", NULL, 3, SH(shp(-1), shp(2, 3, 2), shp(0)), NULL, 1, &o, &st));
  CHECK(shape_is(&o, 3, -1, -1, -1));
  tfc_tensor_unref(p);
  p = imat2(2, 1, 1, -1, 2);
  CHECK(!srun("Pad", NULL, 2, SH(shp(2, 2, 3), shp(2, 2, 2)), VALS(NULL, p), 1, &o, &st));
  CHECK(strstr(st.msg, "Paddings must be non-negative") == st.msg);
  tfc_tensor_unref(p);
}

TFC_TEST(array_shape_fn_misc) {
  tfc_shape o[2];
  tfc_status st;
  tfc_tensor *ax = iscalar(1), *perm = ivec(3, 2, 0, 1);
  CHECK(srun("GatherV2", NULL, 3, SH(shp(3, 4, 5, 6), shp(2, 2, 3), shp(0)), VALS(NULL, NULL, ax), 1, o, &st));
  CHECK(shape_is(&o[0], 4, 4, 2, 3, 6));
  CHECK(srun("GatherV2", NULL, 3, SH(shp(3, 4, 5, 6), shp(2, 2, 3), shp(0)), NULL, 1, o, &st));
  CHECK(shape_is(&o[0], 4, -1, -1, -1, -1));
  CHECK(srun("Gather", NULL, 2, SH(shp(2, 4, 5), shp(1, 7)), NULL, 1, o, &st));
  CHECK(shape_is(&o[0], 2, 7, 5));
  CHECK(srun("Transpose", NULL, 2, SH(shp(3, 2, 3, 4), shp(1, 3)), VALS(NULL, perm), 1, o, &st));
  CHECK(shape_is(&o[0], 3, 4, 2, 3));
  CHECK(srun("Transpose", NULL, 2, SH(shp(-1), shp(1, 3)), NULL, 1, o, &st));
  CHECK(shape_is(&o[0], 3, -1, -1, -1));
  CHECK(!srun("Transpose", NULL, 2, SH(shp(2, 2, 3), shp(1, 3)), NULL, 1, o, &st));
  CHECK(strstr(st.msg, "Dimension must be 2 but is 3") == st.msg);
  tfc_tensor *depth = iscalar(5);
  CHECK(srun("OneHot", NULL, 4, SH(shp(2, 2, 3), shp(0), shp(0), shp(0)), VALS(NULL, depth, NULL, NULL), 1, o, &st));
  CHECK(shape_is(&o[0], 3, 2, 3, 5));
  tfc_tensor *dims = ivec(2, 4, 3);
  CHECK(srun("Fill", NULL, 2, SH(shp(1, 2), shp(0)), VALS(dims, NULL), 1, o, &st));
  CHECK(shape_is(&o[0], 2, 4, 3));
  tfc_tensor *bs = ivec(3, 2, 3, 4);
  CHECK(srun("BroadcastTo", NULL, 2, SH(shp(2, 3, 1), shp(1, 3)), VALS(NULL, bs), 1, o, &st));
  CHECK(shape_is(&o[0], 3, 2, 3, 4));
  tfc_tensor_unref(bs);
  bs = ivec(2, 4, 3);
  CHECK(!srun("BroadcastTo", NULL, 2, SH(shp(2, 2, 3), shp(1, 2)), VALS(NULL, bs), 1, o, &st));
  CHECK(strstr(st.msg, "Dimensions must be equal, but are 2 and 4") == st.msg);
  tfc_tensor_unref(bs);
  tfc_tensor *r0 = iscalar(0), *r1 = iscalar(10), *r2 = iscalar(3);
  CHECK(srun("Range", NULL, 3, SH(shp(0), shp(0), shp(0)), VALS(r0, r1, r2), 1, o, &st));
  CHECK(shape_is(&o[0], 1, 4));
  CHECK(srun("Range", NULL, 3, SH(shp(0), shp(0), shp(0)), VALS(r0, NULL, r2), 1, o, &st));
  CHECK(shape_is(&o[0], 1, -1));
  CHECK(srun("Where", NULL, 1, SH(shp(3, 2, 2, 2)), NULL, 1, o, &st));
  CHECK(shape_is(&o[0], 2, -1, 3));
  CHECK(srun("Unique", NULL, 1, SH(shp(1, 7)), NULL, 2, o, &st));
  CHECK(shape_is(&o[0], 1, -1) && shape_is(&o[1], 1, 7));
  tfc_attrs *a = attrs_new();
  set_shape(a, "shape", shp(2, 3, 3));
  CHECK(!srun("PlaceholderWithDefault", a, 1, SH(shp(2, 2, 3)), NULL, 1, o, &st));
  CHECK(strstr(st.msg, "Dimension 0 in both shapes must be equal, but are 2 and 3.") == st.msg);
  a = attrs_new();
  set_shape(a, "shape", shp(2, -1, 3));
  CHECK(srun("PlaceholderWithDefault", a, 1, SH(shp(2, 2, 3)), NULL, 1, o, &st));
  CHECK(shape_is(&o[0], 2, -1, 3));
  CHECK(srun("ShapeN", NULL, 2, SH(shp(2, 2, 3), shp(-1)), NULL, 2, o, &st));
  CHECK(shape_is(&o[0], 1, 2) && shape_is(&o[1], 1, -1));
  tfc_tensor_unref(ax);
  tfc_tensor_unref(perm);
  tfc_tensor_unref(depth);
  tfc_tensor_unref(dims);
  tfc_tensor_unref(r0);
  tfc_tensor_unref(r1);
  tfc_tensor_unref(r2);
}
