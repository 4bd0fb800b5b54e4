/*
 * test_matmul.c — MatMul, BatchMatMul and BatchMatMulV2: shape functions
 * (ops_reduce.c) and CPU kernels (kernels/matmul.c) run by hand through a
 * tfc_kernel_ctx. Every transpose combination and dtype against a naive
 * reference; vector shapes (gemv paths), tiny shapes (plain loop), big ones
 * split across a pool; empty operands; broadcast batch dims; TF's errors.
 * Test names start with "matmul_" (make ctest T=matmul_).
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "base/alloc.h"
#include "base/threadpool.h"
#include "core/attr.h"
#include "core/dtype.h"
#include "core/op_registry.h"
#include "core/tensor.h"
#include "harness.h"
#include "kernels/blas.h"
#include "kernels/kernel.h"

/* ---------------------------------------------------------------- helpers */

typedef struct call {
  tfc_status st;
  tfc_attrs attrs;
  tfc_tensor *out[1];
  tfc_dtype out_types[1];
  tfc_threadpool *pool;
} call;

/* Starts a call with attr T = t and the two bool attrs a_name/b_name. */
static void call_init(call *c, tfc_dtype t, const char *a_name, bool a, const char *b_name, bool b) {
  memset(c, 0, sizeof *c);
  tfc_status_clear(&c->st);
  tfc_attrs_init(&c->attrs);
  tfc_attr_value v = tfc_attr_type(t);
  tfc_attrs_set(&c->attrs, "T", &v, &c->st);
  v = tfc_attr_bool(a);
  tfc_attrs_set(&c->attrs, a_name, &v, &c->st);
  v = tfc_attr_bool(b);
  tfc_attrs_set(&c->attrs, b_name, &v, &c->st);
  c->out_types[0] = t;
}

/* Runs op's CPU kernel on (x, y); true on success. */
static bool call_run(call *c, const char *op, tfc_tensor *x, tfc_tensor *y) {
  const tfc_kernel_def *def = tfc_kernel_lookup(op, "CPU", &c->attrs);
  if (!def) {
    tfc_status_set(&c->st, TFC_CODE_NOT_FOUND, "no kernel for %s", op);
    return false;
  }
  tfc_tensor *ins[2] = {x, y};
  tfc_kernel_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.node_name = op;
  ctx.op_type = op;
  ctx.attrs = &c->attrs;
  ctx.n_inputs = 2;
  ctx.inputs = ins;
  ctx.n_outputs = 1;
  ctx.outputs = c->out;
  ctx.out_types = c->out_types;
  ctx.st = &c->st;
  ctx.intra_pool = c->pool;
  def->compute(&ctx);
  return tfc_status_ok(&c->st);
}

/* Frees what a call holds. */
static void call_done(call *c) {
  tfc_tensor_unref(c->out[0]);
  tfc_attrs_destroy(&c->attrs);
}

/* A deterministic pseudo-random small integer in [-3, 3] (exact in every type). */
static int rnd_int(uint64_t *s) {
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  return (int)((*s >> 33) % 7) - 3;
}

/* A tensor of type t, shape dims, with random small integers (non-negative
 * for unsigned types); values also returned in v (double) when v != NULL. */
static tfc_tensor *mk_rand(tfc_dtype t, int rank, const int64_t *dims, uint64_t *s, double **v) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_tensor *x = tfc_tensor_new(t, rank, dims, &st);
  if (!x) return NULL;
  double *vals = tfc_malloc((size_t)(x->nelems ? x->nelems : 1) * sizeof(double));
  for (int64_t i = 0; i < x->nelems; i++) {
    int r = rnd_int(s);
    if (tfc_dtype_is_unsigned(t)) r = r < 0 ? -r : r;
    vals[i] = r;
    switch (t) {
      case TFC_DTYPE_FLOAT: ((float *)x->data)[i] = (float)r; break;
      case TFC_DTYPE_DOUBLE: ((double *)x->data)[i] = r; break;
      case TFC_DTYPE_HALF: ((uint16_t *)x->data)[i] = tfc_float_to_half((float)r); break;
      case TFC_DTYPE_BFLOAT16: ((uint16_t *)x->data)[i] = tfc_float_to_bfloat16((float)r); break;
      case TFC_DTYPE_INT16: ((int16_t *)x->data)[i] = (int16_t)r; break;
      case TFC_DTYPE_INT32: ((int32_t *)x->data)[i] = r; break;
      case TFC_DTYPE_INT64: ((int64_t *)x->data)[i] = r; break;
      case TFC_DTYPE_UINT8: ((uint8_t *)x->data)[i] = (uint8_t)r; break;
      case TFC_DTYPE_UINT16: ((uint16_t *)x->data)[i] = (uint16_t)r; break;
      case TFC_DTYPE_UINT32: ((uint32_t *)x->data)[i] = (uint32_t)r; break;
      case TFC_DTYPE_UINT64: ((uint64_t *)x->data)[i] = (uint64_t)r; break;
      default: break;
    }
  }
  if (v) *v = vals;
  else tfc_free(vals);
  return x;
}

/* Element i of t as a double. */
static double at(const tfc_tensor *t, int64_t i) {
  if (t->dtype == TFC_DTYPE_HALF) return tfc_half_to_float(((const uint16_t *)t->data)[i]);
  if (t->dtype == TFC_DTYPE_BFLOAT16) return tfc_bfloat16_to_float(((const uint16_t *)t->data)[i]);
  return tfc_tensor_get_double(t, i);
}

/* Naive reference of one product: c[m x n] = op(a) op(b) with a, b stored
 * as given (a is k x m when ta, b is n x k when tb). */
static void ref_gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const double *a,
                     const double *b, double *c) {
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++) {
      double s = 0;
      for (int64_t p = 0; p < k; p++)
        s += (ta ? a[p * m + i] : a[i * k + p]) * (tb ? b[j * k + p] : b[p * n + j]);
      c[i * n + j] = s;
    }
}

/* Checks MatMul of type t for (m, n, k) and all four transpose flags;
 * returns the number of mismatches. */
static int check_matmul(tfc_dtype t, int64_t m, int64_t n, int64_t k, tfc_threadpool *pool) {
  int bad = 0;
  uint64_t s = (uint64_t)(m * 131 + n * 7 + k);
  for (int f = 0; f < 4; f++) {
    bool ta = f & 1, tb = f & 2;
    int64_t ad[2] = {ta ? k : m, ta ? m : k}, bd[2] = {tb ? n : k, tb ? k : n};
    double *av, *bv;
    tfc_tensor *a = mk_rand(t, 2, ad, &s, &av), *b = mk_rand(t, 2, bd, &s, &bv);
    double *ref = tfc_malloc((size_t)(m * n + 1) * sizeof(double));
    ref_gemm(ta, tb, m, n, k, av, bv, ref);
    call c;
    call_init(&c, t, "transpose_a", ta, "transpose_b", tb);
    c.pool = pool;
    if (!call_run(&c, "MatMul", a, b)) {
      fprintf(stderr, "MatMul %s %lldx%lldx%lld: %s\n", tfc_dtype_name(t), (long long)m, (long long)n,
              (long long)k, c.st.msg);
      bad++;
    } else {
      if (c.out[0]->rank != 2 || c.out[0]->dims[0] != m || c.out[0]->dims[1] != n) bad++;
      for (int64_t i = 0; i < m * n && !bad; i++) {
        double want = ref[i];
        if (t == TFC_DTYPE_UINT8) want = (double)(uint8_t)(int64_t)want;
        if (t == TFC_DTYPE_HALF || t == TFC_DTYPE_BFLOAT16) {
          if (fabs(at(c.out[0], i) - want) > 0.01 * fabs(want) + 1e-3) bad++;
        } else if (at(c.out[0], i) != want) {
          bad++;
        }
        if (bad)
          fprintf(stderr, "MatMul %s %lldx%lldx%lld ta=%d tb=%d [%lld]: %g vs %g\n", tfc_dtype_name(t),
                  (long long)m, (long long)n, (long long)k, ta, tb, (long long)i, at(c.out[0], i), want);
      }
    }
    call_done(&c);
    tfc_tensor_unref(a);
    tfc_tensor_unref(b);
    tfc_free(av);
    tfc_free(bv);
    tfc_free(ref);
  }
  return bad;
}

/* ---------------------------------------------------------------- MatMul */

TFC_TEST(matmul_float_shapes_and_transposes) {
  /* Tiny (loop), vectors (gemv), odd sizes (gemm), and k = 0. */
  const int64_t shapes[][3] = {{1, 1, 1},  {2, 3, 4},   {1, 40, 70}, {40, 1, 70}, {1, 1, 300},
                               {33, 17, 9}, {70, 65, 63}, {5, 7, 0},   {0, 3, 4},   {129, 1, 1}};
  for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
    CHECK_EQ_INT(check_matmul(TFC_DTYPE_FLOAT, shapes[i][0], shapes[i][1], shapes[i][2], NULL), 0);
    CHECK_EQ_INT(check_matmul(TFC_DTYPE_DOUBLE, shapes[i][0], shapes[i][1], shapes[i][2], NULL), 0);
  }
}

TFC_TEST(matmul_big_split_over_pool) {
  tfc_threadpool *pool = tfc_threadpool_new(2);
  /* Tall (row split, uneven last block), wide (column split), vector-ish. */
  CHECK_EQ_INT(check_matmul(TFC_DTYPE_FLOAT, 301, 160, 97, pool), 0);
  CHECK_EQ_INT(check_matmul(TFC_DTYPE_FLOAT, 40, 517, 130, pool), 0);
  CHECK_EQ_INT(check_matmul(TFC_DTYPE_DOUBLE, 257, 255, 64, pool), 0);
  CHECK_EQ_INT(check_matmul(TFC_DTYPE_FLOAT, 2, 4097, 600, pool), 0);
  CHECK_EQ_INT(check_matmul(TFC_DTYPE_FLOAT, 4097, 1, 600, pool), 0);
  tfc_threadpool_free(pool);
}

TFC_TEST(matmul_other_dtypes) {
  const tfc_dtype types[] = {TFC_DTYPE_HALF,  TFC_DTYPE_BFLOAT16, TFC_DTYPE_INT32,  TFC_DTYPE_INT64,
                             TFC_DTYPE_UINT8, TFC_DTYPE_UINT16,   TFC_DTYPE_UINT32, TFC_DTYPE_UINT64};
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
    CHECK_EQ_INT(check_matmul(types[i], 5, 6, 7, NULL), 0);
    CHECK_EQ_INT(check_matmul(types[i], 37, 600, 19, NULL), 0); /* crosses the loop's blocks */
  }
}

TFC_TEST(matmul_int32_wraps) {
  uint64_t s = 1;
  int64_t d[2] = {1, 2};
  int64_t e[2] = {2, 1};
  tfc_tensor *a = mk_rand(TFC_DTYPE_INT32, 2, d, &s, NULL), *b = mk_rand(TFC_DTYPE_INT32, 2, e, &s, NULL);
  ((int32_t *)a->data)[0] = INT32_MAX;
  ((int32_t *)a->data)[1] = 1;
  ((int32_t *)b->data)[0] = 1;
  ((int32_t *)b->data)[1] = 1;
  call c;
  call_init(&c, TFC_DTYPE_INT32, "transpose_a", false, "transpose_b", false);
  CHECK(call_run(&c, "MatMul", a, b));
  CHECK_EQ_INT(((int32_t *)c.out[0]->data)[0], INT32_MIN);
  call_done(&c);
  tfc_tensor_unref(a);
  tfc_tensor_unref(b);
}

TFC_TEST(matmul_errors) {
  uint64_t s = 1;
  int64_t d23[2] = {2, 3}, d45[2] = {4, 5}, d234[3] = {2, 3, 4};
  tfc_tensor *a = mk_rand(TFC_DTYPE_FLOAT, 2, d23, &s, NULL), *b = mk_rand(TFC_DTYPE_FLOAT, 2, d45, &s, NULL);
  tfc_tensor *r3 = mk_rand(TFC_DTYPE_FLOAT, 3, d234, &s, NULL);
  call c;
  call_init(&c, TFC_DTYPE_FLOAT, "transpose_a", false, "transpose_b", false);
  CHECK(!call_run(&c, "MatMul", a, b));
  CHECK_CODE(&c.st, TFC_CODE_INVALID_ARGUMENT);
  CHECK(strcmp(c.st.msg, "Matrix size-incompatible: In[0]: [2,3], In[1]: [4,5]") == 0);
  call_done(&c);
  call_init(&c, TFC_DTYPE_FLOAT, "transpose_a", false, "transpose_b", false);
  CHECK(!call_run(&c, "MatMul", r3, b));
  CHECK(strcmp(c.st.msg, "In[0] is not a matrix. Instead it has shape [2,3,4]") == 0);
  call_done(&c);
  tfc_tensor_unref(a);
  tfc_tensor_unref(b);
  tfc_tensor_unref(r3);
}

TFC_TEST(matmul_blas_describe) {
  const char *d = tfc_blas_describe();
  CHECK(d != NULL && strlen(d) > 0);
}

/* ---------------------------------------------------------------- batched */

/* Runs op on x (xd) and y (yd) with adj flags and compares with a naive
 * broadcast reference; returns mismatches. */
static int check_bmm(const char *op, tfc_dtype t, int xr, const int64_t *xd, int yr, const int64_t *yd,
                     bool ax, bool ay, tfc_threadpool *pool) {
  uint64_t s = 99;
  double *xv, *yv;
  tfc_tensor *x = mk_rand(t, xr, xd, &s, &xv), *y = mk_rand(t, yr, yd, &s, &yv);
  call c;
  call_init(&c, t, "adj_x", ax, "adj_y", ay);
  c.pool = pool;
  int bad = 0;
  if (!call_run(&c, op, x, y)) {
    fprintf(stderr, "%s: %s\n", op, c.st.msg);
    bad = 1;
  } else {
    const tfc_tensor *o = c.out[0];
    int br = o->rank - 2;
    int64_t m = o->dims[br], n = o->dims[br + 1];
    int64_t k = ax ? xd[xr - 2] : xd[xr - 1];
    int64_t nb = o->nelems / (m * n > 0 ? m * n : 1);
    double *ref = tfc_malloc((size_t)(m * n + 1) * sizeof(double));
    int64_t idx[TFC_MAX_RANK] = {0};
    for (int64_t bi = 0; bi < nb && !bad; bi++) {
      /* Offsets of this batch item in x and y (broadcasting size-1 dims). */
      int64_t xo = 0, yo = 0;
      for (int i = 0; i < br; i++) {
        int xi = xr - 2 - br + i, yi = yr - 2 - br + i;
        if (xi >= 0) xo = xo * xd[xi] + (xd[xi] == 1 ? 0 : idx[i]);
        if (yi >= 0) yo = yo * yd[yi] + (yd[yi] == 1 ? 0 : idx[i]);
      }
      ref_gemm(ax, ay, m, n, k, xv + xo * m * k, yv + yo * k * n, ref);
      for (int64_t q = 0; q < m * n; q++)
        if (at(o, bi * m * n + q) != ref[q]) bad++;
      for (int i = br - 1; i >= 0; i--) {
        if (++idx[i] < o->dims[i]) break;
        idx[i] = 0;
      }
    }
    tfc_free(ref);
  }
  call_done(&c);
  tfc_tensor_unref(x);
  tfc_tensor_unref(y);
  tfc_free(xv);
  tfc_free(yv);
  return bad;
}

TFC_TEST(matmul_batch_v2_broadcast) {
  const int64_t x1[4] = {2, 1, 3, 4}, y1[3] = {5, 4, 2};
  const int64_t x2[3] = {3, 4, 6}, y2[2] = {4, 5};   /* rank 3 x rank 2, adj_x */
  const int64_t x3[3] = {64, 8, 8}, y3[3] = {64, 8, 8}; /* many small: parallel over batch */
  const int64_t x4[3] = {2, 150, 130}, y4[3] = {1, 120, 130}; /* few big, adj_y */
  tfc_threadpool *pool = tfc_threadpool_new(2);
  for (int p = 0; p < 2; p++) {
    tfc_threadpool *pl = p ? pool : NULL;
    CHECK_EQ_INT(check_bmm("BatchMatMulV2", TFC_DTYPE_FLOAT, 4, x1, 3, y1, false, false, pl), 0);
    CHECK_EQ_INT(check_bmm("BatchMatMulV2", TFC_DTYPE_DOUBLE, 3, x2, 2, y2, true, false, pl), 0);
    CHECK_EQ_INT(check_bmm("BatchMatMulV2", TFC_DTYPE_FLOAT, 3, x3, 3, y3, true, true, pl), 0);
    CHECK_EQ_INT(check_bmm("BatchMatMulV2", TFC_DTYPE_FLOAT, 3, x4, 3, y4, false, true, pl), 0);
    CHECK_EQ_INT(check_bmm("BatchMatMulV2", TFC_DTYPE_INT32, 4, x1, 3, y1, false, false, pl), 0);
    CHECK_EQ_INT(check_bmm("BatchMatMul", TFC_DTYPE_FLOAT, 3, x3, 3, y3, false, true, pl), 0);
    CHECK_EQ_INT(check_bmm("BatchMatMul", TFC_DTYPE_HALF, 3, x3, 3, y3, false, false, pl), 0);
  }
  tfc_threadpool_free(pool);
}

TFC_TEST(matmul_batch_errors) {
  uint64_t s = 1;
  const int64_t a[3] = {2, 2, 3}, b[3] = {3, 3, 4}, c4[3] = {2, 4, 4}, v[1] = {3}, m2[2] = {3, 4};
  tfc_tensor *ta = mk_rand(TFC_DTYPE_FLOAT, 3, a, &s, NULL), *tb = mk_rand(TFC_DTYPE_FLOAT, 3, b, &s, NULL);
  tfc_tensor *tc = mk_rand(TFC_DTYPE_FLOAT, 3, c4, &s, NULL), *tv = mk_rand(TFC_DTYPE_FLOAT, 1, v, &s, NULL);
  tfc_tensor *tm = mk_rand(TFC_DTYPE_FLOAT, 2, m2, &s, NULL);
  struct {
    const char *op;
    tfc_tensor *x, *y;
    const char *msg;
  } cases[] = {
      {"BatchMatMulV2", ta, tb, "In[0] and In[1] must have compatible batch dimensions: [2,2,3] vs. [3,3,4]"},
      {"BatchMatMulV2", ta, tc, "Matrix size-incompatible: In[0]: [2,2,3], In[1]: [2,4,4] 0 0"},
      {"BatchMatMulV2", tv, tm, "In[0] ndims must be >= 2: 1"},
      {"BatchMatMul", ta, tb, "In[0].dim(0) and In[1].dim(0) must be the same: [2,2,3] vs [3,3,4]"},
      {"BatchMatMul", ta, tm, "In[0] and In[1] has different ndims: [2,2,3] vs. [3,4]"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    call c;
    call_init(&c, TFC_DTYPE_FLOAT, "adj_x", false, "adj_y", false);
    CHECK(!call_run(&c, cases[i].op, cases[i].x, cases[i].y));
    CHECK_CODE(&c.st, TFC_CODE_INVALID_ARGUMENT);
    if (strcmp(c.st.msg, cases[i].msg) != 0) fprintf(stderr, "got: %s\n", c.st.msg);
    CHECK(strcmp(c.st.msg, cases[i].msg) == 0);
    call_done(&c);
  }
  tfc_tensor_unref(ta);
  tfc_tensor_unref(tb);
  tfc_tensor_unref(tc);
  tfc_tensor_unref(tv);
  tfc_tensor_unref(tm);
}

/* ---------------------------------------------------------------- shape functions */

/* Runs op's shape function with bool attrs (a_name=a, b_name=b). */
static bool shape_of(const char *op, tfc_shape s0, tfc_shape s1, const char *a_name, bool a,
                     const char *b_name, bool b, tfc_shape *out, tfc_status *st) {
  const tfc_op_def *def = tfc_op_lookup(op);
  if (!def) return tfc_status_set(st, TFC_CODE_NOT_FOUND, "no op %s", op);
  tfc_attrs attrs;
  tfc_attrs_init(&attrs);
  tfc_attr_value v = tfc_attr_type(TFC_DTYPE_FLOAT);
  tfc_attrs_set(&attrs, "T", &v, st);
  v = tfc_attr_bool(a);
  tfc_attrs_set(&attrs, a_name, &v, st);
  v = tfc_attr_bool(b);
  tfc_attrs_set(&attrs, b_name, &v, st);
  tfc_shape in[2] = {s0, s1};
  tfc_dtype types[2] = {TFC_DTYPE_FLOAT, TFC_DTYPE_FLOAT};
  tfc_tensor *vals[2] = {NULL, NULL};
  const char *names[2] = {"a", "b"};
  *out = tfc_shape_unknown();
  tfc_shape_ctx ctx = {def, &attrs, op, 2, in, types, vals, 1, out, st, names};
  bool ok = def->shape_fn(&ctx);
  tfc_attrs_destroy(&attrs);
  return ok;
}

/* A shape from a literal list (-1 unknown). */
static tfc_shape shp(int rank, int64_t d0, int64_t d1, int64_t d2, int64_t d3) {
  int64_t d[4] = {d0, d1, d2, d3};
  return tfc_shape_make(rank, d);
}

TFC_TEST(matmul_shape_fns) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_shape out;
  CHECK(shape_of("MatMul", shp(2, 2, 3, 0, 0), shp(2, 3, 5, 0, 0), "transpose_a", false, "transpose_b",
                 false, &out, &st));
  CHECK(out.rank == 2 && out.dims[0] == 2 && out.dims[1] == 5);
  CHECK(shape_of("MatMul", shp(2, 3, -1, 0, 0), tfc_shape_unknown(), "transpose_a", true, "transpose_b",
                 true, &out, &st));
  CHECK(out.rank == 2 && out.dims[0] == -1 && out.dims[1] == -1);
  CHECK(!shape_of("MatMul", shp(2, 2, 3, 0, 0), shp(2, 4, 5, 0, 0), "transpose_a", false, "transpose_b",
                  false, &out, &st));
  CHECK(strstr(st.msg, "Dimensions must be equal, but are 3 and 4 for '{{node MatMul}} = MatMul[") ==
        st.msg);
  CHECK(strstr(st.msg, "(a, b)' with input shapes: [2,3], [4,5].") != NULL);
  tfc_status_clear(&st);
  CHECK(!shape_of("MatMul", shp(3, 2, 3, 4, 0), shp(2, 4, 5, 0, 0), "transpose_a", false, "transpose_b",
                  false, &out, &st));
  CHECK(strstr(st.msg, "Shape must be rank 2 but is rank 3") == st.msg);
  tfc_status_clear(&st);
  /* BatchMatMulV2: broadcast batch dims. */
  CHECK(shape_of("BatchMatMulV2", shp(4, 2, 1, 2, 3), shp(3, 5, 3, 4, 0), "adj_x", false, "adj_y", false,
                 &out, &st));
  CHECK(out.rank == 4 && out.dims[0] == 2 && out.dims[1] == 5 && out.dims[2] == 2 && out.dims[3] == 4);
  CHECK(!shape_of("BatchMatMulV2", shp(3, 2, 2, 3, 0), shp(3, 3, 3, 4, 0), "adj_x", false, "adj_y", false,
                  &out, &st));
  CHECK(strstr(st.msg, "Dimensions must be equal, but are 2 and 3") == st.msg);
  tfc_status_clear(&st);
  CHECK(!shape_of("BatchMatMulV2", shp(1, 3, 0, 0, 0), shp(2, 3, 4, 0, 0), "adj_x", false, "adj_y", false,
                  &out, &st));
  CHECK(strstr(st.msg, "Shape must be at least rank 2 but is rank 1") == st.msg);
  tfc_status_clear(&st);
  /* BatchMatMul (v1): equal batch dims. */
  CHECK(!shape_of("BatchMatMul", shp(3, 2, 2, 3, 0), shp(3, 3, 3, 4, 0), "adj_x", false, "adj_y", false,
                  &out, &st));
  CHECK(strstr(st.msg, "Dimension 0 in both shapes must be equal, but are 2 and 3. Shapes are [2] and "
                       "[3].") == st.msg);
  tfc_status_clear(&st);
  CHECK(!shape_of("BatchMatMul", shp(3, 2, 2, 3, 0), shp(2, 3, 4, 0, 0), "adj_x", false, "adj_y", false,
                  &out, &st));
  CHECK(strstr(st.msg, "Shapes must be equal rank, but are 1 and 0") == st.msg);
  tfc_status_clear(&st);
  CHECK(shape_of("BatchMatMul", shp(3, -1, 2, 3, 0), shp(3, 7, 4, 3, 0), "adj_x", false, "adj_y", true,
                 &out, &st));
  CHECK(out.rank == 3 && out.dims[0] == 7 && out.dims[1] == 2 && out.dims[2] == 4);
}

/* ---------------------------------------------------------------- out of memory */

TFC_TEST(matmul_oom_is_a_status) {
  /* Half products (widened copies) and broadcast batches (offset tables):
   * each failed allocation gives RESOURCE_EXHAUSTED, never a crash or leak. */
  uint64_t s = 5;
  const int64_t xd[3] = {4, 30, 20}, yd[2] = {20, 10};
  const tfc_dtype types[2] = {TFC_DTYPE_HALF, TFC_DTYPE_FLOAT};
  for (int k = 0; k < 2; k++) {
    tfc_tensor *x = mk_rand(types[k], 3, xd, &s, NULL), *y = mk_rand(types[k], 2, yd, &s, NULL);
    call w; /* warm up: the kernel index is built on first lookup */
    call_init(&w, types[k], "adj_x", false, "adj_y", false);
    CHECK(call_run(&w, "BatchMatMulV2", x, y));
    call_done(&w);
    bool succeeded = false;
    for (int n = 1; n < 20 && !succeeded; n++) {
      call c;
      call_init(&c, types[k], "adj_x", false, "adj_y", false);
      tfc_alloc_fail_after(n);
      bool ok = call_run(&c, "BatchMatMulV2", x, y);
      tfc_alloc_fail_after(0);
      if (ok) succeeded = true;
      else CHECK_CODE(&c.st, TFC_CODE_RESOURCE_EXHAUSTED);
      call_done(&c);
    }
    CHECK(succeeded);
    tfc_tensor_unref(x);
    tfc_tensor_unref(y);
  }
}
