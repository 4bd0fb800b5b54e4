/*
 * test_reduce.c — reductions (Sum, Mean, Prod, Max, Min, All, Any) and
 * ArgMax/ArgMin: op definitions and shape functions (ops_reduce.c) and the CPU
 * kernels (kernels/reduce.c), run by hand through a tfc_kernel_ctx. Checks
 * every axis pattern against a naive double-precision reference, all dtypes,
 * keep_dims, negative and empty axis lists, identities of empty reductions,
 * integer-mean truncation, NaN propagation, TF's error messages, a 10M-element
 * float sum, and that results do not depend on the thread count.
 * Test names start with "reduce_" (make ctest T=reduce_).
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
#include "kernel_call.h"
#include "kernels/kernel.h"

/* ---------------------------------------------------------------- helpers */

/* An int32 vector of axes. */
static tfc_tensor *axes(int n, const int32_t *v) {
  double d[TFC_MAX_RANK * 2];
  for (int i = 0; i < n; i++) d[i] = v[i];
  int64_t dim = n;
  return mk(TFC_DTYPE_INT32, 1, &dim, d);
}

/* A deterministic pseudo-random double in [-1, 1). */
static double rnd(uint64_t *s) {
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(*s >> 11) / 9007199254740992.0 * 2 - 1;
}

/* Reference reduction in double: reduces x (values v, dims) over mask into
 * ref (kept-dim order). op: 0 sum, 1 mean, 2 prod, 3 max, 4 min. */
static void ref_reduce(int op, int rank, const int64_t *dims, const double *v, const bool *mask,
                       double *ref, int64_t nout) {
  int64_t n = 1;
  for (int i = 0; i < rank; i++) n *= dims[i];
  int64_t cnt = n / (nout ? nout : 1);
  for (int64_t o = 0; o < nout; o++)
    ref[o] = op == 2 ? 1 : op == 3 ? -INFINITY : op == 4 ? INFINITY : 0;
  int64_t idx[TFC_MAX_RANK] = {0};
  for (int64_t e = 0; e < n; e++) {
    int64_t o = 0;
    for (int i = 0; i < rank; i++)
      if (!mask[i]) o = o * dims[i] + idx[i];
    double x = v[e];
    switch (op) {
      case 0: case 1: ref[o] += x; break;
      case 2: ref[o] *= x; break;
      case 3: if (x > ref[o]) ref[o] = x; break;
      default: if (x < ref[o]) ref[o] = x; break;
    }
    for (int i = rank - 1; i >= 0; i--) {
      if (++idx[i] < dims[i]) break;
      idx[i] = 0;
    }
  }
  if (op == 1)
    for (int64_t o = 0; o < nout; o++) ref[o] /= (double)cnt;
}

static const char *const k_ops[] = {"Sum", "Mean", "Prod", "Max", "Min"};

/* ---------------------------------------------------------------- kernels */

TFC_TEST(reduce_sum_2d_axes_keepdims) {
  const int64_t d[2] = {2, 3};
  const double v[6] = {1, 2, 3, 4, 5, 6};
  struct {
    int n;
    int32_t ax[2];
    bool keep;
    int rank;
    int64_t odims[2];
    double want[3];
  } cases[] = {
      {1, {0}, false, 1, {3}, {5, 7, 9}},      {1, {1}, false, 1, {2}, {6, 15}},
      {1, {-1}, true, 2, {2, 1}, {6, 15}},     {2, {0, 1}, false, 0, {0}, {21}},
      {2, {1, -2}, true, 2, {1, 1}, {21}},     {0, {0}, false, 2, {2, 3}, {1, 2, 3}},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    call c;
    call_init(&c, TFC_DTYPE_FLOAT);
    set_bool(&c, "keep_dims", cases[k].keep);
    tfc_tensor *in[2] = {mk(TFC_DTYPE_FLOAT, 2, d, v), axes(cases[k].n, cases[k].ax)};
    CHECK(call_run(&c, "Sum", 2, in, 1));
    CHECK_EQ_INT(c.out[0]->rank, cases[k].rank);
    for (int i = 0; i < cases[k].rank; i++) CHECK_EQ_INT(c.out[0]->dims[i], cases[k].odims[i]);
    int64_t nout = c.out[0]->nelems;
    for (int64_t i = 0; i < nout && i < 3; i++) CHECK_NEAR(at(c.out[0], i), cases[k].want[i], 1e-6);
    tfc_tensor_unref(in[0]);
    tfc_tensor_unref(in[1]);
    call_done(&c);
  }
}

TFC_TEST(reduce_all_patterns_match_reference) {
  /* Every subset of the 4 axes of [3, 1, 5, 7] (a size-1 dim included), every
   * op, float and double, single-threaded and with a pool. */
  const int64_t d[4] = {3, 1, 5, 7};
  double v[105];
  uint64_t s = 7;
  for (int i = 0; i < 105; i++) v[i] = rnd(&s) * 2 + 0.1;
  tfc_threadpool *pool = tfc_threadpool_new(2);
  for (int use_pool = 0; use_pool < 2; use_pool++)
    for (int dt = 0; dt < 2; dt++)
      for (int op = 0; op < 5; op++)
        for (int m = 0; m < 16; m++) {
          tfc_dtype t = dt ? TFC_DTYPE_DOUBLE : TFC_DTYPE_FLOAT;
          int32_t ax[4];
          int n = 0;
          bool mask[4];
          for (int i = 0; i < 4; i++) {
            mask[i] = (m >> i) & 1;
            if (mask[i]) ax[n++] = i;
          }
          double ref[105];
          int64_t nout = 1;
          for (int i = 0; i < 4; i++)
            if (!mask[i]) nout *= d[i];
          ref_reduce(op, 4, d, v, mask, ref, nout);
          call c;
          call_init(&c, t);
          c.pool = use_pool ? pool : NULL;
          tfc_tensor *in[2] = {mk(t, 4, d, v), axes(n, ax)};
          bool ok = call_run(&c, k_ops[op], 2, in, 1);
          if (!ok) fprintf(stderr, "%s mask %d: %s\n", k_ops[op], m, c.st.msg);
          CHECK(ok);
          CHECK_EQ_INT(c.out[0]->nelems, nout);
          for (int64_t i = 0; i < nout; i++) {
            double tol = 1e-5 * (fabs(ref[i]) + 1);
            if (fabs(at(c.out[0], i) - ref[i]) > tol)
              fprintf(stderr, "%s %s mask %d [%lld]: %g vs %g\n", k_ops[op], tfc_dtype_name(t), m,
                      (long long)i, at(c.out[0], i), ref[i]);
            CHECK_NEAR(at(c.out[0], i), ref[i], tol);
          }
          tfc_tensor_unref(in[0]);
          tfc_tensor_unref(in[1]);
          call_done(&c);
        }
  tfc_threadpool_free(pool);
}

TFC_TEST(reduce_big_shapes_with_pool) {
  /* Long rows, long columns, many rows, and a middle axis, each large enough
   * to be chunked and spread over the pool. */
  struct {
    int rank;
    int64_t d[3];
    int n;
    int32_t ax[2];
  } cases[] = {
      {2, {3, 200003, 0}, 1, {1}},  /* few long rows: chunked */
      {2, {70001, 3, 0}, 1, {0}},   /* long narrow columns: row-chunked partials */
      {2, {1000, 700, 0}, 1, {0}},  /* wide columns: tiles */
      {3, {7, 5000, 33, }, 1, {1}}, /* middle axis */
      {3, {40, 300, 50}, 2, {0, 2}},/* outer + inner: two passes */
  };
  tfc_threadpool *pool = tfc_threadpool_new(3);
  uint64_t s = 1;
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    int64_t n = 1;
    for (int i = 0; i < cases[k].rank; i++) n *= cases[k].d[i];
    double *v = tfc_malloc((size_t)n * sizeof(double));
    for (int64_t i = 0; i < n; i++) v[i] = rnd(&s);
    bool mask[3] = {false, false, false};
    for (int i = 0; i < cases[k].n; i++) mask[cases[k].ax[i]] = true;
    int64_t nout = 1;
    for (int i = 0; i < cases[k].rank; i++)
      if (!mask[i]) nout *= cases[k].d[i];
    double *ref = tfc_malloc((size_t)nout * sizeof(double));
    for (int op = 0; op < 5; op += 1) {
      if (op == 2) continue; /* products of many values under/overflow */
      ref_reduce(op, cases[k].rank, cases[k].d, v, mask, ref, nout);
      tfc_tensor *first = NULL;
      for (int use_pool = 0; use_pool < 2; use_pool++) {
        call c;
        call_init(&c, TFC_DTYPE_FLOAT);
        c.pool = use_pool ? pool : NULL;
        tfc_tensor *in[2] = {mk(TFC_DTYPE_FLOAT, cases[k].rank, cases[k].d, v),
                             axes(cases[k].n, cases[k].ax)};
        CHECK(call_run(&c, k_ops[op], 2, in, 1));
        for (int64_t i = 0; i < nout; i++) CHECK_NEAR(at(c.out[0], i), ref[i], 1e-5 * (fabs(ref[i]) + 1));
        if (!first) first = tfc_tensor_ref(c.out[0]);
        else CHECK(memcmp(first->data, c.out[0]->data, (size_t)nout * 4) == 0); /* thread-count independent */
        tfc_tensor_unref(in[0]);
        tfc_tensor_unref(in[1]);
        call_done(&c);
      }
      tfc_tensor_unref(first);
    }
    tfc_free(v);
    tfc_free(ref);
  }
  tfc_threadpool_free(pool);
}

TFC_TEST(reduce_sum_10m_floats_accurate) {
  int64_t n = 10 * 1000 * 1000;
  tfc_status st;
  tfc_status_clear(&st);
  tfc_tensor *x = tfc_tensor_new(TFC_DTYPE_FLOAT, 1, &n, &st);
  CHECK(x != NULL);
  float *p = x->data;
  uint64_t s = 3;
  double ref = 0;
  for (int64_t i = 0; i < n; i++) {
    p[i] = (float)(rnd(&s) * 0.5 + 0.5);
    ref += p[i];
  }
  tfc_threadpool *pool = tfc_threadpool_new(1);
  for (int op = 0; op < 2; op++) {
    call c;
    call_init(&c, TFC_DTYPE_FLOAT);
    c.pool = pool;
    int32_t a0 = 0;
    tfc_tensor *in[2] = {x, axes(1, &a0)};
    CHECK(call_run(&c, op ? "Mean" : "Sum", 2, in, 1));
    double want = op ? ref / (double)n : ref;
    CHECK(fabs(at(c.out[0], 0) - want) <= 1e-6 * fabs(want));
    tfc_tensor_unref(in[1]);
    call_done(&c);
  }
  tfc_threadpool_free(pool);
  tfc_tensor_unref(x);
}

TFC_TEST(reduce_all_dtypes) {
  const tfc_dtype types[] = {TFC_DTYPE_FLOAT, TFC_DTYPE_DOUBLE, TFC_DTYPE_HALF,  TFC_DTYPE_BFLOAT16,
                             TFC_DTYPE_INT8,  TFC_DTYPE_INT16,  TFC_DTYPE_INT32, TFC_DTYPE_INT64,
                             TFC_DTYPE_UINT8, TFC_DTYPE_UINT16, TFC_DTYPE_UINT32, TFC_DTYPE_UINT64};
  const int64_t d[2] = {2, 3};
  const double v[6] = {1, 5, 3, 4, 2, 6};
  /* axis 1: sum, mean, prod, max, min */
  const double want[5][2] = {{9, 12}, {3, 4}, {15, 48}, {5, 6}, {1, 2}};
  for (size_t k = 0; k < sizeof types / sizeof types[0]; k++)
    for (int op = 0; op < 5; op++) {
      call c;
      call_init(&c, types[k]);
      int32_t a1 = 1;
      tfc_tensor *in[2] = {mk(types[k], 2, d, v), axes(1, &a1)};
      CHECK(call_run(&c, k_ops[op], 2, in, 1));
      CHECK(c.out[0]->dtype == types[k]);
      CHECK_NEAR(at(c.out[0], 0), want[op][0], 1e-2);
      CHECK_NEAR(at(c.out[0], 1), want[op][1], 1e-2);
      tfc_tensor_unref(in[0]);
      tfc_tensor_unref(in[1]);
      call_done(&c);
    }
}

TFC_TEST(reduce_int_mean_truncates_and_widens) {
  const int64_t d2 = 2;
  const double neg[2] = {-1, -2}, big[2] = {100, 100};
  call c;
  call_init(&c, TFC_DTYPE_INT32);
  int32_t a0 = 0;
  tfc_tensor *in[2] = {mk(TFC_DTYPE_INT32, 1, &d2, neg), axes(1, &a0)};
  CHECK(call_run(&c, "Mean", 2, in, 1));
  CHECK_EQ_INT(((int32_t *)c.out[0]->data)[0], -1);
  tfc_tensor_unref(in[0]);
  call_done(&c);
  call_init(&c, TFC_DTYPE_INT8);
  in[0] = mk(TFC_DTYPE_INT8, 1, &d2, big);
  CHECK(call_run(&c, "Mean", 2, in, 1));
  CHECK_EQ_INT(((int8_t *)c.out[0]->data)[0], 100);
  call_done(&c);
  /* Sum of int8 wraps like int8 arithmetic. */
  call_init(&c, TFC_DTYPE_INT8);
  CHECK(call_run(&c, "Sum", 2, in, 1));
  CHECK_EQ_INT(((int8_t *)c.out[0]->data)[0], -56);
  call_done(&c);
  tfc_tensor_unref(in[0]);
  tfc_tensor_unref(in[1]);
}

TFC_TEST(reduce_empty_identities) {
  const int64_t d[2] = {0, 3};
  int32_t a0 = 0;
  struct {
    const char *op;
    tfc_dtype t;
    double want;
  } cases[] = {
      {"Sum", TFC_DTYPE_FLOAT, 0},          {"Prod", TFC_DTYPE_INT32, 1},
      {"Max", TFC_DTYPE_FLOAT, -INFINITY},  {"Min", TFC_DTYPE_FLOAT, INFINITY},
      {"Max", TFC_DTYPE_INT32, -2147483648.0}, {"Min", TFC_DTYPE_UINT8, 255},
      {"Mean", TFC_DTYPE_FLOAT, NAN},       {"Mean", TFC_DTYPE_INT32, 0},
      {"All", TFC_DTYPE_BOOL, 1},           {"Any", TFC_DTYPE_BOOL, 0},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    call c;
    call_init(&c, cases[k].t == TFC_DTYPE_BOOL ? TFC_DTYPE_INVALID : cases[k].t);
    tfc_tensor *in[2] = {mk(cases[k].t, 2, d, NULL), axes(1, &a0)};
    CHECK(call_run(&c, cases[k].op, 2, in, 1));
    CHECK_EQ_INT(c.out[0]->rank, 1);
    CHECK_EQ_INT(c.out[0]->dims[0], 3);
    for (int i = 0; i < 3; i++) {
      double got = at(c.out[0], i);
      if (isnan(cases[k].want)) CHECK(isnan(got));
      else CHECK(got == cases[k].want);
    }
    tfc_tensor_unref(in[0]);
    tfc_tensor_unref(in[1]);
    call_done(&c);
  }
  /* Reducing the non-empty axis of an empty tensor gives an empty tensor. */
  call c;
  call_init(&c, TFC_DTYPE_FLOAT);
  int32_t a1 = 1;
  tfc_tensor *in[2] = {mk(TFC_DTYPE_FLOAT, 2, d, NULL), axes(1, &a1)};
  CHECK(call_run(&c, "Sum", 2, in, 1));
  CHECK_EQ_INT(c.out[0]->nelems, 0);
  CHECK_EQ_INT(c.out[0]->dims[0], 0);
  tfc_tensor_unref(in[0]);
  tfc_tensor_unref(in[1]);
  call_done(&c);
}

TFC_TEST(reduce_all_any_bool) {
  const int64_t d[2] = {2, 3};
  const double v[6] = {1, 1, 0, 1, 1, 1};
  int32_t a1 = 1;
  const char *ops[2] = {"All", "Any"};
  const int want[2][2] = {{0, 1}, {1, 1}};
  for (int k = 0; k < 2; k++) {
    call c;
    call_init(&c, TFC_DTYPE_INVALID);
    c.out_types[0] = TFC_DTYPE_BOOL;
    tfc_tensor *in[2] = {mk(TFC_DTYPE_BOOL, 2, d, v), axes(1, &a1)};
    CHECK(call_run(&c, ops[k], 2, in, 1));
    CHECK(c.out[0]->dtype == TFC_DTYPE_BOOL);
    CHECK_EQ_INT(((uint8_t *)c.out[0]->data)[0], want[k][0]);
    CHECK_EQ_INT(((uint8_t *)c.out[0]->data)[1], want[k][1]);
    tfc_tensor_unref(in[0]);
    tfc_tensor_unref(in[1]);
    call_done(&c);
  }
}

TFC_TEST(reduce_max_min_propagate_nan) {
  const int64_t d = 40;
  double v[40];
  for (int i = 0; i < 40; i++) v[i] = i;
  v[33] = NAN;
  int32_t a0 = 0;
  for (int k = 3; k < 5; k++)
    for (int dt = 0; dt < 2; dt++) {
      tfc_dtype t = dt ? TFC_DTYPE_DOUBLE : TFC_DTYPE_FLOAT;
      call c;
      call_init(&c, t);
      tfc_tensor *in[2] = {mk(t, 1, &d, v), axes(1, &a0)};
      CHECK(call_run(&c, k_ops[k], 2, in, 1));
      CHECK(isnan(at(c.out[0], 0)));
      tfc_tensor_unref(in[0]);
      tfc_tensor_unref(in[1]);
      call_done(&c);
    }
}

TFC_TEST(reduce_errors) {
  const int64_t d[2] = {2, 3};
  const double v[6] = {0};
  struct {
    int n;
    int32_t ax[3];
    const char *msg;
  } cases[] = {
      {1, {5}, "Invalid reduction dimension (5 for input with 2 dimension(s)"},
      {1, {-3}, "Invalid reduction dimension (-3 for input with 2 dimension(s)"},
      {2, {0, 0}, "Invalid reduction arguments: Axes contains duplicate dimension: 0"},
      {2, {1, -1}, "Invalid reduction arguments: Axes contains duplicate dimension: 1"},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    call c;
    call_init(&c, TFC_DTYPE_FLOAT);
    tfc_tensor *in[2] = {mk(TFC_DTYPE_FLOAT, 2, d, v), axes(cases[k].n, cases[k].ax)};
    CHECK(!call_run(&c, "Sum", 2, in, 1));
    CHECK_CODE(&c.st, TFC_CODE_INVALID_ARGUMENT);
    CHECK(strcmp(c.st.msg, cases[k].msg) == 0);
    tfc_tensor_unref(in[0]);
    tfc_tensor_unref(in[1]);
    call_done(&c);
  }
}

TFC_TEST(reduce_scalar_axis_and_int64_axes) {
  const int64_t d[2] = {2, 3};
  const double v[6] = {1, 2, 3, 4, 5, 6};
  double one = 1;
  call c;
  call_init(&c, TFC_DTYPE_FLOAT);
  set_type(&c, "Tidx", TFC_DTYPE_INT64);
  tfc_tensor *in[2] = {mk(TFC_DTYPE_FLOAT, 2, d, v), mk(TFC_DTYPE_INT64, 0, NULL, &one)};
  CHECK(call_run(&c, "Max", 2, in, 1));
  CHECK_EQ_INT(c.out[0]->rank, 1);
  CHECK_NEAR(at(c.out[0], 0), 3, 0);
  CHECK_NEAR(at(c.out[0], 1), 6, 0);
  tfc_tensor_unref(in[0]);
  tfc_tensor_unref(in[1]);
  call_done(&c);
}

/* ---------------------------------------------------------------- ArgMax / ArgMin */

/* Runs ArgMax/ArgMin of x along dim with output type ot. */
static bool run_arg(call *c, const char *op, tfc_tensor *x, int64_t dim, tfc_dtype ot) {
  call_init(c, x->dtype);
  c->out_types[0] = ot;
  set_type(c, "output_type", ot);
  double dd = (double)dim;
  tfc_tensor *in[2] = {x, mk(TFC_DTYPE_INT32, 0, NULL, &dd)};
  bool ok = call_run(c, op, 2, in, 1);
  tfc_tensor_unref(in[1]);
  return ok;
}

TFC_TEST(reduce_argmax_argmin_basic) {
  const int64_t d[2] = {2, 4};
  const double v[8] = {1, 7, 7, 0, 5, -2, 9, -2};
  tfc_tensor *x = mk(TFC_DTYPE_FLOAT, 2, d, v);
  call c;
  CHECK(run_arg(&c, "ArgMax", x, 1, TFC_DTYPE_INT64));
  CHECK(c.out[0]->dtype == TFC_DTYPE_INT64);
  CHECK_EQ_INT(((int64_t *)c.out[0]->data)[0], 1); /* first of the tie */
  CHECK_EQ_INT(((int64_t *)c.out[0]->data)[1], 2);
  call_done(&c);
  CHECK(run_arg(&c, "ArgMin", x, -1, TFC_DTYPE_INT32));
  CHECK(c.out[0]->dtype == TFC_DTYPE_INT32);
  CHECK_EQ_INT(((int32_t *)c.out[0]->data)[0], 3);
  CHECK_EQ_INT(((int32_t *)c.out[0]->data)[1], 1);
  call_done(&c);
  CHECK(run_arg(&c, "ArgMax", x, 0, TFC_DTYPE_INT64));
  CHECK_EQ_INT(c.out[0]->nelems, 4);
  const int64_t want[4] = {1, 0, 1, 0};
  for (int i = 0; i < 4; i++) CHECK_EQ_INT(((int64_t *)c.out[0]->data)[i], want[i]);
  call_done(&c);
  tfc_tensor_unref(x);
}

TFC_TEST(reduce_argmax_all_types) {
  const tfc_dtype types[] = {TFC_DTYPE_DOUBLE, TFC_DTYPE_HALF,  TFC_DTYPE_BFLOAT16, TFC_DTYPE_INT8,
                             TFC_DTYPE_INT16,  TFC_DTYPE_INT32, TFC_DTYPE_INT64,    TFC_DTYPE_UINT8,
                             TFC_DTYPE_UINT16, TFC_DTYPE_UINT32, TFC_DTYPE_UINT64,  TFC_DTYPE_BOOL};
  const int64_t d = 5;
  const double v[5] = {0, 3, 1, 3, 0};
  for (size_t k = 0; k < sizeof types / sizeof types[0]; k++) {
    tfc_tensor *x = mk(types[k], 1, &d, v);
    call c;
    CHECK(run_arg(&c, "ArgMax", x, 0, TFC_DTYPE_INT64));
    CHECK_EQ_INT(((int64_t *)c.out[0]->data)[0], 1);
    call_done(&c);
    CHECK(run_arg(&c, "ArgMin", x, 0, TFC_DTYPE_INT64));
    CHECK_EQ_INT(((int64_t *)c.out[0]->data)[0], 0);
    call_done(&c);
    tfc_tensor_unref(x);
  }
}

TFC_TEST(reduce_argmax_nan_like_tf) {
  /* TF: a NaN never wins; an all-NaN or all -inf row gives 0. */
  const int64_t d = 4;
  const double a[4] = {NAN, 1, 2, NAN}, b[4] = {NAN, NAN, NAN, NAN}, c4[4] = {-INFINITY, -INFINITY, -INFINITY, -INFINITY};
  const double *rows[3] = {a, b, c4};
  const int64_t want[3] = {2, 0, 0};
  for (int r = 0; r < 3; r++) {
    tfc_tensor *x = mk(TFC_DTYPE_FLOAT, 1, &d, rows[r]);
    call c;
    CHECK(run_arg(&c, "ArgMax", x, 0, TFC_DTYPE_INT64));
    CHECK_EQ_INT(((int64_t *)c.out[0]->data)[0], want[r]);
    call_done(&c);
    tfc_tensor_unref(x);
  }
}

TFC_TEST(reduce_argmax_errors) {
  const int64_t d0 = 0, d20[2] = {2, 0}, d23[2] = {2, 3};
  call c;
  tfc_tensor *x = mk(TFC_DTYPE_FLOAT, 1, &d0, NULL);
  CHECK(!run_arg(&c, "ArgMax", x, 0, TFC_DTYPE_INT64));
  CHECK_CODE(&c.st, TFC_CODE_INVALID_ARGUMENT);
  CHECK(strcmp(c.st.msg, "Reduction axis 0 is empty in shape [0]") == 0);
  call_done(&c);
  tfc_tensor_unref(x);
  x = mk(TFC_DTYPE_FLOAT, 2, d20, NULL);
  CHECK(!run_arg(&c, "ArgMin", x, 1, TFC_DTYPE_INT64));
  CHECK(strcmp(c.st.msg, "Reduction axis 1 is empty in shape [2,0]") == 0);
  call_done(&c);
  CHECK(run_arg(&c, "ArgMin", x, 0, TFC_DTYPE_INT64)); /* empty output is fine */
  CHECK_EQ_INT(c.out[0]->nelems, 0);
  call_done(&c);
  tfc_tensor_unref(x);
  x = mk(TFC_DTYPE_FLOAT, 2, d23, NULL);
  CHECK(!run_arg(&c, "ArgMax", x, 5, TFC_DTYPE_INT64));
  CHECK(strcmp(c.st.msg, "Expected dimension in the range [-2, 2), but got 5") == 0);
  call_done(&c);
  tfc_tensor_unref(x);
}

/* ---------------------------------------------------------------- shape functions */

/* Runs op's shape function on two inputs; in_values[1] = axes (may be NULL). */
static bool run_shape(const char *op, tfc_shape s0, tfc_shape s1, tfc_tensor *axes_v, bool keep,
                      tfc_shape *out, tfc_status *st) {
  const tfc_op_def *def = tfc_op_lookup(op);
  if (!def) return tfc_status_set(st, TFC_CODE_NOT_FOUND, "no op %s", op);
  tfc_attrs attrs;
  tfc_attrs_init(&attrs);
  tfc_attr_value v = tfc_attr_bool(keep);
  tfc_attrs_set(&attrs, "keep_dims", &v, st);
  v = tfc_attr_type(TFC_DTYPE_FLOAT);
  tfc_attrs_set(&attrs, "T", &v, st);
  tfc_shape in[2] = {s0, s1};
  tfc_dtype types[2] = {TFC_DTYPE_FLOAT, TFC_DTYPE_INT32};
  tfc_tensor *vals[2] = {NULL, axes_v};
  const char *names[2] = {"x", "axes"};
  *out = tfc_shape_unknown();
  tfc_shape_ctx ctx = {def, &attrs, op, 2, in, types, vals, 1, out, st, names};
  bool ok = def->shape_fn(&ctx);
  tfc_attrs_destroy(&attrs);
  return ok;
}

TFC_TEST(reduce_shape_fns) {
  tfc_status st;
  tfc_status_clear(&st);
  const int64_t d[3] = {2, 3, 4};
  tfc_shape x = tfc_shape_make(3, d), out;
  int64_t one = 1;
  tfc_shape vec1 = tfc_shape_make(1, &one);
  int32_t ax[2] = {-1, 0};
  tfc_tensor *a = axes(2, ax);
  CHECK(run_shape("Sum", x, vec1, a, false, &out, &st));
  CHECK_EQ_INT(out.rank, 1);
  CHECK_EQ_INT(out.dims[0], 3);
  CHECK(run_shape("Mean", x, vec1, a, true, &out, &st));
  CHECK_EQ_INT(out.rank, 3);
  CHECK(out.dims[0] == 1 && out.dims[1] == 3 && out.dims[2] == 1);
  /* Unknown axes: rank known with keep_dims, unknown otherwise. */
  CHECK(run_shape("Max", x, vec1, NULL, true, &out, &st));
  CHECK(out.rank == 3 && out.dims[0] == -1);
  CHECK(run_shape("Max", x, vec1, NULL, false, &out, &st));
  CHECK_EQ_INT(out.rank, -1);
  tfc_tensor_unref(a);
  /* Bad axis and bad axes rank. */
  int32_t bad = 5;
  a = axes(1, &bad);
  CHECK(!run_shape("Sum", x, vec1, a, false, &out, &st));
  CHECK(strstr(st.msg, "Invalid reduction dimension 5 for input with 3 dimensions.") == st.msg);
  tfc_tensor_unref(a);
  tfc_status_clear(&st);
  int64_t m11[2] = {1, 1};
  CHECK(!run_shape("Sum", x, tfc_shape_make(2, m11), NULL, false, &out, &st));
  CHECK(strstr(st.msg, "Shape must be at most rank 1 but is rank 2") == st.msg);
  tfc_status_clear(&st);
  /* ArgMax. */
  double dim = 1;
  tfc_tensor *dv = mk(TFC_DTYPE_INT32, 0, NULL, &dim);
  CHECK(run_shape("ArgMax", x, tfc_shape_scalar(), dv, false, &out, &st));
  CHECK(out.rank == 2 && out.dims[0] == 2 && out.dims[1] == 4);
  CHECK(run_shape("ArgMax", x, tfc_shape_scalar(), NULL, false, &out, &st));
  CHECK(out.rank == 2 && out.dims[0] == -1);
  tfc_tensor_unref(dv);
  dim = 5;
  dv = mk(TFC_DTYPE_INT32, 0, NULL, &dim);
  CHECK(!run_shape("ArgMin", x, tfc_shape_scalar(), dv, false, &out, &st));
  CHECK(strstr(st.msg, "Dimension (5) must be in the range [-3, 3), where 3 is the number of "
                       "dimensions in the input.") == st.msg);
  tfc_tensor_unref(dv);
}

/* ---------------------------------------------------------------- out of memory */

TFC_TEST(reduce_oom_is_a_status) {
  /* Fail the n-th allocation for growing n: every run either succeeds or
   * reports RESOURCE_EXHAUSTED, never crashes or leaks (checked under ASan).
   * A two-pass float reduction, a chunked one, and half (widened copies). */
  const int64_t d[3] = {40, 300, 50};
  const int64_t dh[2] = {3, 100000};
  tfc_tensor *x = mk(TFC_DTYPE_FLOAT, 3, d, NULL);
  tfc_tensor *h = mk(TFC_DTYPE_HALF, 2, dh, NULL);
  int32_t ax02[2] = {0, 2}, ax1 = 1;
  tfc_tensor *a02 = axes(2, ax02), *a1 = axes(1, &ax1);
  struct {
    tfc_tensor *x, *ax;
    const char *op;
  } cases[] = {{x, a02, "Sum"}, {h, a1, "Mean"}, {x, a1, "Max"}};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    call w; /* warm up: the kernel index is built on first lookup */
    call_init(&w, cases[k].x->dtype);
    tfc_tensor *win[2] = {cases[k].x, cases[k].ax};
    CHECK(call_run(&w, cases[k].op, 2, win, 1));
    call_done(&w);
    bool succeeded = false;
    for (int n = 1; n < 20 && !succeeded; n++) {
      call c;
      call_init(&c, cases[k].x->dtype);
      tfc_tensor *in[2] = {cases[k].x, cases[k].ax};
      tfc_alloc_fail_after(n);
      bool ok = call_run(&c, cases[k].op, 2, in, 1);
      tfc_alloc_fail_after(0);
      if (ok) succeeded = true;
      else CHECK_CODE(&c.st, TFC_CODE_RESOURCE_EXHAUSTED);
      call_done(&c);
    }
    CHECK(succeeded);
  }
  tfc_tensor_unref(x);
  tfc_tensor_unref(h);
  tfc_tensor_unref(a02);
  tfc_tensor_unref(a1);
}
