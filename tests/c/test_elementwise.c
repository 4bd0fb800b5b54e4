/*
 * test_elementwise.c — the math family: op definitions (ops_math.c) and the
 * elementwise CPU kernels, run by hand through a tfc_kernel_ctx: shapes
 * (scalar, empty, broadcast 1-d/2-d/3-d), dtypes (half/bfloat16 included),
 * integer-division and negative-power errors, Cast conversions, Select,
 * AddN, ClipByValue, BroadcastGradientArgs, strings, and sharded runs.
 * Test names start with "ew_" (make ctest T=ew_).
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
#include "kernels/elementwise_internal.h"
#include "kernels/kernel.h"

/* ---------------------------------------------------------------- helpers */

/* Shorthands for small shapes. */
static const int64_t D1_3[] = {3}, D1_4[] = {4}, D2_23[] = {2, 3};

/* Runs a binary op on x, y (attr T from x) and returns output 0 (owned by c). */
static tfc_tensor *bin(call *c, const char *op, tfc_tensor *x, tfc_tensor *y) {
  call_init(c, x->dtype);
  tfc_tensor *ins[2] = {x, y};
  call_run(c, op, 2, ins, 1);
  return c->out[0];
}

/* Runs a unary op on x (attr T from x). */
static tfc_tensor *un(call *c, const char *op, tfc_tensor *x) {
  call_init(c, x->dtype);
  tfc_tensor *ins[1] = {x};
  call_run(c, op, 1, ins, 1);
  return c->out[0];
}

/* ---------------------------------------------------------------- op definitions */

TFC_TEST(ew_op_defs_parse) {
  tfc_status st;
  tfc_status_clear(&st);
  const char *names[] = {"Add", "AddV2", "Sub", "Mul", "Div", "RealDiv", "FloorDiv", "FloorMod",
                         "TruncateDiv", "TruncateMod", "Pow", "Maximum", "Minimum",
                         "SquaredDifference", "DivNoNan", "Equal", "NotEqual", "Less",
                         "LessEqual", "Greater", "GreaterEqual", "LogicalAnd", "LogicalOr",
                         "LogicalNot", "Neg", "Abs", "Square", "Sqrt", "Rsqrt", "Exp", "Expm1",
                         "Log", "Log1p", "Tanh", "Sigmoid", "Sign", "Reciprocal", "Inv", "Floor",
                         "Ceil", "Round", "Sin", "Cos", "IsNan", "IsInf", "IsFinite", "Select",
                         "SelectV2", "Cast", "AddN", "ZerosLike", "OnesLike", "ClipByValue",
                         "SigmoidGrad", "TanhGrad", "SqrtGrad", "RsqrtGrad", "ReciprocalGrad",
                         "InvGrad", "BroadcastGradientArgs"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    const tfc_op_def *d = tfc_op_lookup(names[i]);
    if (!d) TFC_FAIL_("op %s not registered", names[i]);
    if (!tfc_kernel_exists(names[i], "CPU")) TFC_FAIL_("no CPU kernel for %s", names[i]);
  }
  const tfc_op_def *eq = tfc_op_lookup("Equal");
  const tfc_attr_def *ise = tfc_op_find_attr(eq, "incompatible_shape_error");
  CHECK(ise && ise->has_default && ise->default_value.kind == TFC_ATTR_B && ise->default_value.v.b);
  const tfc_op_def *addn = tfc_op_lookup("AddN");
  CHECK(addn->flags & TFC_OP_AGGREGATE);
  CHECK(strcmp(addn->inputs[0].number_attr, "N") == 0);
  const tfc_op_def *cast = tfc_op_lookup("Cast");
  CHECK(tfc_op_find_attr(cast, "Truncate") != NULL);
  const tfc_attr_def *bt = tfc_op_find_attr(tfc_op_lookup("BroadcastGradientArgs"), "T");
  CHECK(bt && bt->has_default && bt->default_value.v.type == TFC_DTYPE_INT32);
  /* Add accepts strings, AddV2 does not. */
  const tfc_attr_def *at_add = tfc_op_find_attr(tfc_op_lookup("Add"), "T");
  const tfc_attr_def *at_v2 = tfc_op_find_attr(tfc_op_lookup("AddV2"), "T");
  bool add_str = false, v2_str = false;
  for (int i = 0; i < at_add->n_allowed_types; i++)
    add_str |= at_add->allowed_types[i] == TFC_DTYPE_STRING;
  for (int i = 0; i < at_v2->n_allowed_types; i++)
    v2_str |= at_v2->allowed_types[i] == TFC_DTYPE_STRING;
  CHECK(add_str && !v2_str);
}

/* Runs op's shape function on shapes; returns success, output 0 in *out. */
static bool shape_of(const char *op, tfc_attrs *attrs, int n, const tfc_shape *in, tfc_shape *out,
                     tfc_status *st) {
  const tfc_op_def *d = tfc_op_lookup(op);
  tfc_shape outs[2] = {tfc_shape_unknown(), tfc_shape_unknown()};
  tfc_dtype types[4] = {TFC_DTYPE_FLOAT, TFC_DTYPE_FLOAT, TFC_DTYPE_FLOAT, TFC_DTYPE_FLOAT};
  tfc_shape_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.def = d;
  ctx.attrs = attrs;
  ctx.node_name = "n";
  ctx.n_inputs = n;
  ctx.in_shapes = in;
  ctx.in_types = types;
  ctx.n_outputs = d->n_outputs;
  ctx.out_shapes = outs;
  ctx.st = st;
  tfc_status_clear(st);
  bool ok = d->shape_fn(&ctx);
  *out = outs[0];
  return ok;
}

TFC_TEST(ew_shape_fns) {
  tfc_status st;
  tfc_attrs a;
  tfc_attrs_init(&a);
  int64_t d23[] = {2, 3}, d3[] = {3}, d2[] = {2}, d4[] = {4}, d21[] = {2, 1};
  tfc_shape s23 = tfc_shape_make(2, d23), s3 = tfc_shape_make(1, d3), s2 = tfc_shape_make(1, d2);
  tfc_shape s4 = tfc_shape_make(1, d4), s21 = tfc_shape_make(2, d21), o;
  tfc_shape in2[2] = {s23, s3};
  CHECK(shape_of("AddV2", &a, 2, in2, &o, &st));
  CHECK(o.rank == 2 && o.dims[0] == 2 && o.dims[1] == 3);
  /* Equal with incompatible_shape_error=false: unknown instead of an error. */
  tfc_shape bad[2] = {s3, s4};
  CHECK(!shape_of("Equal", &a, 2, bad, &o, &st));
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  tfc_attr_value f = tfc_attr_bool(false);
  tfc_attrs_set(&a, "incompatible_shape_error", &f, &st);
  CHECK(shape_of("Equal", &a, 2, bad, &o, &st));
  CHECK_EQ_INT(o.rank, -1);
  /* Select: vector condition over dim 0; mismatched batch fails. */
  tfc_shape sel[3] = {s2, s23, s23};
  CHECK(shape_of("Select", &a, 3, sel, &o, &st));
  CHECK(o.rank == 2 && o.dims[1] == 3);
  tfc_shape selbad[3] = {s3, s23, s23};
  CHECK(!shape_of("Select", &a, 3, selbad, &o, &st));
  tfc_shape sv2[3] = {s21, s3, tfc_shape_scalar()};
  CHECK(shape_of("SelectV2", &a, 3, sv2, &o, &st));
  CHECK(o.rank == 2 && o.dims[0] == 2 && o.dims[1] == 3);
  tfc_shape addn[3] = {tfc_shape_unknown_dims(2), s23, tfc_shape_unknown()};
  CHECK(shape_of("AddN", &a, 3, addn, &o, &st));
  CHECK(o.rank == 2 && o.dims[0] == 2 && o.dims[1] == 3);
  tfc_shape addnbad[2] = {s23, s21};
  CHECK(!shape_of("AddN", &a, 2, addnbad, &o, &st));
  CHECK(strstr(st.msg, "Dimension 1 in both shapes must be equal") != NULL);
  tfc_shape bga[2] = {s2, s3};
  CHECK(shape_of("BroadcastGradientArgs", &a, 2, bga, &o, &st));
  CHECK(o.rank == 1 && o.dims[0] == -1);
  tfc_attrs_destroy(&a);
}

/* ---------------------------------------------------------------- binary: shapes */

TFC_TEST(ew_add_same_shape_scalar_and_empty) {
  call c;
  double xv[] = {1, 2, 3}, yv[] = {10, 20, 30}, sv[] = {0.5};
  tfc_tensor *x = mk(TFC_DTYPE_FLOAT, 1, D1_3, xv), *y = mk(TFC_DTYPE_FLOAT, 1, D1_3, yv);
  tfc_tensor *s = mk(TFC_DTYPE_FLOAT, 0, NULL, sv);
  tfc_tensor *o = bin(&c, "AddV2", x, y);
  CHECK_STATUS_OK(&c.st);
  CHECK(o->rank == 1 && o->dims[0] == 3);
  CHECK_NEAR(at(o, 0), 11, 0);
  CHECK_NEAR(at(o, 2), 33, 0);
  call_done(&c);
  o = bin(&c, "Sub", s, x); /* scalar - vector */
  CHECK_STATUS_OK(&c.st);
  CHECK_NEAR(at(o, 1), -1.5, 0);
  call_done(&c);
  o = bin(&c, "Sub", x, s); /* vector - scalar */
  CHECK_NEAR(at(o, 1), 1.5, 0);
  call_done(&c);
  o = bin(&c, "Mul", s, s); /* scalar * scalar */
  CHECK(o->rank == 0);
  CHECK_NEAR(at(o, 0), 0.25, 0);
  call_done(&c);
  int64_t d0[] = {0}, d03[] = {0, 3};
  tfc_tensor *e = mk(TFC_DTYPE_FLOAT, 1, d0, NULL), *e2 = mk(TFC_DTYPE_FLOAT, 2, d03, NULL);
  o = bin(&c, "AddV2", e, s);
  CHECK_STATUS_OK(&c.st);
  CHECK(o->rank == 1 && o->nelems == 0);
  call_done(&c);
  o = bin(&c, "AddV2", e2, x); /* [0,3] + [3] -> [0,3] */
  CHECK_STATUS_OK(&c.st);
  CHECK(o->rank == 2 && o->dims[0] == 0 && o->dims[1] == 3);
  call_done(&c);
  tfc_tensor *four = mk(TFC_DTYPE_FLOAT, 1, D1_4, (double[]){1, 2, 3, 4});
  bin(&c, "AddV2", x, four);
  CHECK_CODE(&c.st, TFC_CODE_INVALID_ARGUMENT);
  CHECK(strcmp(c.st.msg, "Incompatible shapes: [3] vs. [4]") == 0);
  tfc_tensor_unref(c.out[0]);
  tfc_attrs_destroy(&c.attrs);
  tfc_tensor_unref(x);
  tfc_tensor_unref(y);
  tfc_tensor_unref(s);
  tfc_tensor_unref(e);
  tfc_tensor_unref(e2);
  tfc_tensor_unref(four);
}

/* Reference broadcast: the flat index into an input of shape (r, d) for output
 * flat index i of shape (or, od). */
static int64_t src_index(int64_t i, int orank, const int64_t *od, int r, const int64_t *d) {
  int64_t idx = 0, stride = 1;
  for (int k = orank - 1; k >= 0; k--) {
    int64_t c = i % od[k];
    i /= od[k];
    int j = k - (orank - r);
    if (j >= 0) {
      if (d[j] != 1) idx += c * stride;
      stride *= d[j];
    }
  }
  return idx;
}

/* Checks op(x, y) against a reference for the shapes given (float and int32). */
static void check_broadcast(int rx, const int64_t *dx, int ry, const int64_t *dy,
                            tfc_threadpool *pool, int *failures) {
  tfc_status st;
  tfc_status_clear(&st);
  for (int pass = 0; pass < 2; pass++) {
    tfc_dtype t = pass ? TFC_DTYPE_INT32 : TFC_DTYPE_FLOAT;
    tfc_tensor *x = tfc_tensor_new(t, rx, dx, &st), *y = tfc_tensor_new(t, ry, dy, &st);
    for (int64_t i = 0; i < x->nelems; i++) {
      if (pass) ((int32_t *)x->data)[i] = (int32_t)(i * 7 % 1000);
      else ((float *)x->data)[i] = (float)(i % 1000) * 0.5f;
    }
    for (int64_t i = 0; i < y->nelems; i++) {
      if (pass) ((int32_t *)y->data)[i] = (int32_t)(i % 97) + 1;
      else ((float *)y->data)[i] = (float)(i % 97) + 1.0f;
    }
    call c;
    call_init(&c, t);
    c.pool = pool;
    tfc_tensor *ins[2] = {x, y};
    call_run(&c, "Mul", 2, ins, 1);
    tfc_tensor *o = c.out[0];
    if (!tfc_status_ok(&c.st)) {
      (*failures)++;
    } else {
      for (int64_t i = 0; i < o->nelems; i++) {
        double a = at(x, src_index(i, o->rank, o->dims, rx, dx));
        double b = at(y, src_index(i, o->rank, o->dims, ry, dy));
        if (at(o, i) != a * b) {
          (*failures)++;
          break;
        }
      }
    }
    call_done(&c);
    tfc_tensor_unref(x);
    tfc_tensor_unref(y);
  }
}

TFC_TEST(ew_broadcast_1d_2d_3d) {
  int failures = 0;
  int64_t a[] = {2, 3}, b[] = {3}, c1[] = {4, 1}, d[] = {1, 5}, e[] = {2, 1, 3}, f[] = {4, 1};
  int64_t g[] = {3, 1, 4, 1}, h[] = {2, 1, 5}, k[] = {1}, l[] = {2, 3, 4}, m[] = {2, 1, 4};
  check_broadcast(2, a, 1, b, NULL, &failures);      /* [2,3] * [3] */
  check_broadcast(1, b, 2, a, NULL, &failures);      /* [3] * [2,3] */
  check_broadcast(2, c1, 2, d, NULL, &failures);     /* [4,1] * [1,5] outer */
  check_broadcast(3, e, 2, f, NULL, &failures);      /* [2,1,3] * [4,1] */
  check_broadcast(4, g, 3, h, NULL, &failures);      /* 4-d */
  check_broadcast(1, k, 3, l, NULL, &failures);      /* [1] * [2,3,4] */
  check_broadcast(3, l, 3, m, NULL, &failures);      /* middle broadcast */
  CHECK_EQ_INT(failures, 0);
}

TFC_TEST(ew_broadcast_sharded) {
  int failures = 0;
  tfc_threadpool *pool = tfc_threadpool_new(2);
  CHECK(pool != NULL);
  int64_t a[] = {1000, 37}, b[] = {37}, c1[] = {1000, 1}, d[] = {70000}, e[] = {3, 1, 20000},
          f[] = {2, 1};
  check_broadcast(2, a, 1, b, pool, &failures);  /* shards split rows */
  check_broadcast(2, a, 2, c1, pool, &failures);
  check_broadcast(1, d, 1, d, pool, &failures);
  check_broadcast(3, e, 2, f, pool, &failures);
  /* Short rows run in blocks: row / column broadcasts, outer index changes. */
  int64_t r1[] = {40000, 3}, r2[] = {3}, c2[] = {40000, 1}, o1[] = {7, 3000, 3}, o2[] = {7, 1, 3};
  int64_t q1[] = {4, 9000, 2}, q2[] = {4, 9000, 1}, s1[] = {3, 7000, 5}, s2[] = {1, 5};
  check_broadcast(2, r1, 1, r2, pool, &failures);
  check_broadcast(1, r2, 2, r1, pool, &failures);
  check_broadcast(2, c2, 2, r1, pool, &failures);
  check_broadcast(3, o1, 3, o2, pool, &failures);
  check_broadcast(3, q1, 3, q2, pool, &failures);
  check_broadcast(3, s1, 2, s2, pool, &failures);
  check_broadcast(3, o1, 3, o2, NULL, &failures);
  check_broadcast(2, c2, 2, r1, NULL, &failures);
  tfc_threadpool_free(pool);
  CHECK_EQ_INT(failures, 0);
}

/* ---------------------------------------------------------------- binary: dtypes */

TFC_TEST(ew_binary_dtypes) {
  call c;
  double xv[] = {7, -7, 7, -7, 0}, yv[] = {2, 2, -2, -2, 3};
  int64_t d5[] = {5};
  tfc_dtype types[] = {TFC_DTYPE_INT8, TFC_DTYPE_INT16, TFC_DTYPE_INT32, TFC_DTYPE_INT64,
                       TFC_DTYPE_FLOAT, TFC_DTYPE_DOUBLE, TFC_DTYPE_HALF, TFC_DTYPE_BFLOAT16};
  double floordiv[] = {3, -4, -4, 3, 0}, floormod[] = {1, 1, -1, -1, 0};
  double truncdiv[] = {3, -3, -3, 3, 0}, truncmod[] = {1, -1, 1, -1, 0};
  for (size_t k = 0; k < sizeof types / sizeof *types; k++) {
    tfc_tensor *x = mk(types[k], 1, d5, xv), *y = mk(types[k], 1, d5, yv);
    bool fl = tfc_dtype_is_float(types[k]);
    struct { const char *op; const double *want; } cases[] = {
        {"FloorDiv", floordiv}, {"FloorMod", floormod}, {"TruncateDiv", truncdiv},
        {"TruncateMod", truncmod}};
    for (int j = 0; j < 4; j++) {
      tfc_tensor *o = bin(&c, cases[j].op, x, y);
      if (!tfc_status_ok(&c.st))
        TFC_FAIL_("%s %s: %s", cases[j].op, tfc_dtype_name(types[k]), c.st.msg);
      for (int i = 0; i < 5; i++)
        if (at(o, i) != cases[j].want[i])
          TFC_FAIL_("%s %s [%d]: %g != %g", cases[j].op, tfc_dtype_name(types[k]), i, at(o, i),
                    cases[j].want[i]);
      call_done(&c);
    }
    tfc_tensor *o = bin(&c, "Div", x, y);
    CHECK_NEAR(at(o, 0), fl ? 3.5 : 3, 0);
    CHECK_NEAR(at(o, 1), fl ? -3.5 : -3, 0);
    call_done(&c);
    o = bin(&c, "Maximum", x, y);
    CHECK_NEAR(at(o, 3), -2, 0);
    call_done(&c);
    o = bin(&c, "SquaredDifference", x, y);
    CHECK_NEAR(at(o, 1), 81, 0);
    call_done(&c);
    o = bin(&c, "Pow", y, y);
    CHECK_NEAR(at(o, 0), 4, 0);
    CHECK_NEAR(at(o, 4), 27, 0);
    call_done(&c);
    tfc_tensor_unref(x);
    tfc_tensor_unref(y);
  }
  /* Float FloorMod follows the sign of the divisor, fractions kept. */
  double fx[] = {7.5, -7.5, 7.5, -7.5}, fy[] = {2, 2, -2, -2};
  tfc_tensor *x = mk(TFC_DTYPE_FLOAT, 1, D1_4, fx), *y = mk(TFC_DTYPE_FLOAT, 1, D1_4, fy);
  tfc_tensor *o = bin(&c, "FloorMod", x, y);
  CHECK_NEAR(at(o, 0), 1.5, 0);
  CHECK_NEAR(at(o, 1), 0.5, 0);
  CHECK_NEAR(at(o, 2), -0.5, 0);
  CHECK_NEAR(at(o, 3), -1.5, 0);
  call_done(&c);
  tfc_tensor_unref(x);
  tfc_tensor_unref(y);
}

TFC_TEST(ew_integer_wraparound_and_unsigned) {
  call c;
  double xv[] = {200, 255, 3}, yv[] = {100, 1, 5};
  tfc_tensor *x = mk(TFC_DTYPE_UINT8, 1, D1_3, xv), *y = mk(TFC_DTYPE_UINT8, 1, D1_3, yv);
  tfc_tensor *o = bin(&c, "AddV2", x, y);
  CHECK_EQ_INT(((uint8_t *)o->data)[0], 44);
  CHECK_EQ_INT(((uint8_t *)o->data)[1], 0);
  call_done(&c);
  o = bin(&c, "Sub", x, y);
  CHECK_EQ_INT(((uint8_t *)o->data)[2], 254);
  call_done(&c);
  tfc_tensor_unref(x);
  tfc_tensor_unref(y);
  int32_t big = INT32_MAX, one = 1, mn = INT32_MIN, m1 = -1;
  tfc_status st;
  tfc_status_clear(&st);
  tfc_tensor *a = tfc_tensor_scalar(TFC_DTYPE_INT32, &big, &st);
  tfc_tensor *b = tfc_tensor_scalar(TFC_DTYPE_INT32, &one, &st);
  tfc_tensor *cmin = tfc_tensor_scalar(TFC_DTYPE_INT32, &mn, &st);
  tfc_tensor *cm1 = tfc_tensor_scalar(TFC_DTYPE_INT32, &m1, &st);
  o = bin(&c, "AddV2", a, b);
  CHECK_EQ_INT(*(int32_t *)o->data, INT32_MIN);
  call_done(&c);
  o = bin(&c, "FloorDiv", cmin, cm1); /* no trap: wraps like TF */
  CHECK_STATUS_OK(&c.st);
  CHECK_EQ_INT(*(int32_t *)o->data, INT32_MIN);
  call_done(&c);
  o = bin(&c, "FloorMod", cmin, cm1);
  CHECK_EQ_INT(*(int32_t *)o->data, 0);
  call_done(&c);
  o = bin(&c, "Div", cmin, cm1);
  CHECK_EQ_INT(*(int32_t *)o->data, INT32_MIN);
  call_done(&c);
  o = un(&c, "Abs", cmin);
  CHECK_EQ_INT(*(int32_t *)o->data, INT32_MIN);
  call_done(&c);
  int32_t three = 3, forty = 40;
  tfc_tensor *t3 = tfc_tensor_scalar(TFC_DTYPE_INT32, &three, &st);
  tfc_tensor *t40 = tfc_tensor_scalar(TFC_DTYPE_INT32, &forty, &st);
  o = bin(&c, "Pow", t3, t40); /* TF: 689956897 (wrapped) */
  CHECK_EQ_INT(*(int32_t *)o->data, 689956897);
  call_done(&c);
  tfc_tensor_unref(a);
  tfc_tensor_unref(b);
  tfc_tensor_unref(cmin);
  tfc_tensor_unref(cm1);
  tfc_tensor_unref(t3);
  tfc_tensor_unref(t40);
}

TFC_TEST(ew_integer_division_by_zero) {
  const char *ops[] = {"Div", "FloorDiv", "FloorMod", "TruncateDiv", "TruncateMod"};
  tfc_dtype types[] = {TFC_DTYPE_INT32, TFC_DTYPE_INT64, TFC_DTYPE_UINT8, TFC_DTYPE_INT8};
  double xv[] = {1, 2, 3}, yv[] = {1, 0, 1}, zv[] = {0};
  for (size_t t = 0; t < sizeof types / sizeof *types; t++) {
    tfc_tensor *x = mk(types[t], 1, D1_3, xv), *y = mk(types[t], 1, D1_3, yv);
    tfc_tensor *z = mk(types[t], 0, NULL, zv);
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
      call c;
      /* TF's codes: TruncateDiv/TruncateMod fail with its generic INTERNAL error */
      bool truncating = strncmp(ops[i], "Truncate", 8) == 0;
      tfc_code want = truncating ? TFC_CODE_INTERNAL : TFC_CODE_INVALID_ARGUMENT;
      bin(&c, ops[i], x, y);
      CHECK_CODE(&c.st, want);
      CHECK(strcmp(c.st.msg, truncating ? "Unexpected error in binary operator (only integer div "
                                          "and mod should have errors)"
                                        : "Integer division by zero") == 0);
      call_done(&c);
      bin(&c, ops[i], x, z); /* scalar zero divisor */
      CHECK_CODE(&c.st, want);
      call_done(&c);
    }
    tfc_tensor_unref(x);
    tfc_tensor_unref(y);
    tfc_tensor_unref(z);
  }
  /* Floats divide by zero to inf/nan without error. */
  call c;
  double fx[] = {1, -1, 0}, fy[] = {0, 0, 0};
  tfc_tensor *x = mk(TFC_DTYPE_FLOAT, 1, D1_3, fx), *y = mk(TFC_DTYPE_FLOAT, 1, D1_3, fy);
  tfc_tensor *o = bin(&c, "FloorDiv", x, y);
  CHECK_STATUS_OK(&c.st);
  CHECK(isinf(at(o, 0)) && at(o, 0) > 0 && isinf(at(o, 1)) && isnan(at(o, 2)));
  call_done(&c);
  o = bin(&c, "DivNoNan", x, y);
  CHECK(at(o, 0) == 0 && at(o, 1) == 0 && at(o, 2) == 0);
  call_done(&c);
  tfc_tensor_unref(x);
  tfc_tensor_unref(y);
}

TFC_TEST(ew_pow_negative_integer_exponent) {
  call c;
  double xv[] = {2, 3, 4}, yv[] = {2, -1, 0};
  tfc_tensor *x = mk(TFC_DTYPE_INT64, 1, D1_3, xv), *y = mk(TFC_DTYPE_INT64, 1, D1_3, yv);
  bin(&c, "Pow", x, y);
  CHECK_CODE(&c.st, TFC_CODE_INVALID_ARGUMENT);
  CHECK(strcmp(c.st.msg, "Integers to negative integer powers are not allowed") == 0);
  call_done(&c);
  tfc_tensor_unref(x);
  tfc_tensor_unref(y);
}

TFC_TEST(ew_half_and_bfloat16_arithmetic) {
  call c;
  double xv[] = {65504, 1.5, -2.25}, yv[] = {32, 0.25, 4};
  tfc_tensor *x = mk(TFC_DTYPE_HALF, 1, D1_3, xv), *y = mk(TFC_DTYPE_HALF, 1, D1_3, yv);
  tfc_tensor *o = bin(&c, "AddV2", x, y);
  CHECK(o->dtype == TFC_DTYPE_HALF);
  CHECK(isinf(at(o, 0))); /* overflows half like TF */
  CHECK_NEAR(at(o, 1), 1.75, 0);
  call_done(&c);
  o = bin(&c, "Mul", x, y);
  CHECK_NEAR(at(o, 2), -9, 0);
  call_done(&c);
  tfc_tensor_unref(x);
  tfc_tensor_unref(y);
  /* Long half/bfloat16 vectors cross the float chunk boundary. */
  int64_t n = 1500;
  for (int pass = 0; pass < 2; pass++) {
    tfc_dtype t = pass ? TFC_DTYPE_BFLOAT16 : TFC_DTYPE_HALF;
    tfc_status st;
    tfc_status_clear(&st);
    tfc_tensor *a = tfc_tensor_new(t, 1, &n, &st), *b = tfc_tensor_new(t, 0, NULL, &st);
    for (int64_t i = 0; i < n; i++) {
      float v = (float)(i % 64);
      ((uint16_t *)a->data)[i] = pass ? tfc_float_to_bfloat16(v) : tfc_float_to_half(v);
    }
    *(uint16_t *)b->data = pass ? tfc_float_to_bfloat16(2) : tfc_float_to_half(2);
    o = bin(&c, "Mul", b, a);
    int bad = 0;
    for (int64_t i = 0; i < n; i++) bad += at(o, i) != 2.0 * (double)(i % 64);
    CHECK_EQ_INT(bad, 0);
    call_done(&c);
    o = bin(&c, "Less", a, b);
    CHECK(o->dtype == TFC_DTYPE_BOOL);
    bad = 0;
    for (int64_t i = 0; i < n; i++) bad += ((uint8_t *)o->data)[i] != (i % 64 < 2);
    CHECK_EQ_INT(bad, 0);
    call_done(&c);
    tfc_tensor_unref(a);
    tfc_tensor_unref(b);
  }
}

TFC_TEST(ew_maximum_minimum_nan) {
  call c;
  double xv[] = {NAN, 1, 3}, yv[] = {1, NAN, 2};
  tfc_tensor *x = mk(TFC_DTYPE_FLOAT, 1, D1_3, xv), *y = mk(TFC_DTYPE_FLOAT, 1, D1_3, yv);
  tfc_tensor *o = bin(&c, "Maximum", x, y);
  CHECK(isnan(at(o, 0)) && isnan(at(o, 1)) && at(o, 2) == 3);
  call_done(&c);
  o = bin(&c, "Minimum", x, y);
  CHECK(isnan(at(o, 0)) && isnan(at(o, 1)) && at(o, 2) == 2);
  call_done(&c);
  tfc_tensor_unref(x);
  tfc_tensor_unref(y);
}

/* ---------------------------------------------------------------- comparisons, logical */

TFC_TEST(ew_comparisons_and_logical) {
  call c;
  double xv[] = {1, 2, 3}, yv[] = {2};
  tfc_tensor *x = mk(TFC_DTYPE_INT64, 1, D1_3, xv), *y = mk(TFC_DTYPE_INT64, 0, NULL, yv);
  const char *ops[] = {"Equal", "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual"};
  const char *want[] = {"010", "101", "100", "110", "001", "011"};
  for (int k = 0; k < 6; k++) {
    tfc_tensor *o = bin(&c, ops[k], x, y);
    CHECK(o && o->dtype == TFC_DTYPE_BOOL && o->nelems == 3);
    for (int i = 0; i < 3; i++)
      if (((uint8_t *)o->data)[i] != want[k][i] - '0') TFC_FAIL_("%s[%d]", ops[k], i);
    call_done(&c);
  }
  /* incompatible_shape_error=false: a scalar false / true. */
  tfc_tensor *z = mk(TFC_DTYPE_INT64, 1, D1_4, (double[]){1, 2, 3, 4});
  call_init(&c, TFC_DTYPE_INT64);
  set_bool(&c, "incompatible_shape_error", false);
  tfc_tensor *ins[2] = {x, z};
  CHECK(call_run(&c, "Equal", 2, ins, 1));
  CHECK(c.out[0]->rank == 0 && *(uint8_t *)c.out[0]->data == 0);
  call_done(&c);
  call_init(&c, TFC_DTYPE_INT64);
  set_bool(&c, "incompatible_shape_error", false);
  CHECK(call_run(&c, "NotEqual", 2, ins, 1));
  CHECK(*(uint8_t *)c.out[0]->data == 1);
  call_done(&c);
  call_init(&c, TFC_DTYPE_INT64);
  CHECK(!call_run(&c, "Equal", 2, ins, 1));
  CHECK_CODE(&c.st, TFC_CODE_INVALID_ARGUMENT);
  call_done(&c);
  /* Logical ops broadcast over bool. */
  double bv[] = {1, 0, 1, 0}, sv[] = {1, 0};
  int64_t d22[] = {2, 2}, d2[] = {2};
  tfc_tensor *a = mk(TFC_DTYPE_BOOL, 2, d22, bv), *b = mk(TFC_DTYPE_BOOL, 1, d2, sv);
  call_init(&c, TFC_DTYPE_INVALID);
  tfc_tensor *lins[2] = {a, b};
  CHECK(call_run(&c, "LogicalAnd", 2, lins, 1));
  CHECK(memcmp(c.out[0]->data, (uint8_t[]){1, 0, 1, 0}, 4) == 0);
  call_done(&c);
  call_init(&c, TFC_DTYPE_INVALID);
  CHECK(call_run(&c, "LogicalOr", 2, lins, 1));
  CHECK(memcmp(c.out[0]->data, (uint8_t[]){1, 0, 1, 0}, 4) == 0);
  call_done(&c);
  call_init(&c, TFC_DTYPE_INVALID);
  CHECK(call_run(&c, "LogicalNot", 1, lins + 1, 1));
  CHECK(memcmp(c.out[0]->data, (uint8_t[]){0, 1}, 2) == 0);
  call_done(&c);
  call_init(&c, TFC_DTYPE_BOOL);
  CHECK(call_run(&c, "Equal", 2, lins, 1));
  CHECK(memcmp(c.out[0]->data, (uint8_t[]){1, 1, 1, 1}, 4) == 0);
  call_done(&c);
  tfc_tensor_unref(x);
  tfc_tensor_unref(y);
  tfc_tensor_unref(z);
  tfc_tensor_unref(a);
  tfc_tensor_unref(b);
}

/* ---------------------------------------------------------------- strings */

TFC_TEST(ew_string_add_and_equal) {
  tfc_status st;
  tfc_status_clear(&st);
  int64_t d2[] = {2};
  tfc_tensor *x = tfc_tensor_new(TFC_DTYPE_STRING, 1, d2, &st);
  tfc_tensor_set_string(x, 0, "ab", 2, &st);
  tfc_tensor_set_string(x, 1, "", 0, &st);
  tfc_string cs = {"c", 1};
  tfc_tensor *y = tfc_tensor_scalar(TFC_DTYPE_STRING, &cs, &st);
  call c;
  tfc_tensor *o = bin(&c, "Add", x, y);
  CHECK_STATUS_OK(&c.st);
  const tfc_string *s = o->data;
  CHECK(s[0].len == 3 && memcmp(s[0].data, "abc", 3) == 0);
  CHECK(s[1].len == 1 && memcmp(s[1].data, "c", 1) == 0);
  call_done(&c);
  bin(&c, "Equal", x, y);
  CHECK(memcmp(c.out[0]->data, (uint8_t[]){0, 0}, 2) == 0);
  call_done(&c);
  bin(&c, "NotEqual", x, x);
  CHECK(memcmp(c.out[0]->data, (uint8_t[]){0, 0}, 2) == 0);
  call_done(&c);
  /* [100, 2] + [2]: short rows go through the block path. */
  int64_t d100[] = {100, 2};
  tfc_tensor *big = tfc_tensor_new(TFC_DTYPE_STRING, 2, d100, &st);
  for (int i = 0; i < 200; i++) {
    char buf[8];
    int len = snprintf(buf, sizeof buf, "%d", i);
    tfc_tensor_set_string(big, i, buf, (size_t)len, &st);
  }
  o = bin(&c, "Add", big, x);
  CHECK_STATUS_OK(&c.st);
  s = o->data;
  CHECK(s[0].len == 3 && memcmp(s[0].data, "0ab", 3) == 0);
  CHECK(s[199].len == 3 && memcmp(s[199].data, "199", 3) == 0);
  CHECK(s[198].len == 5 && memcmp(s[198].data, "198ab", 5) == 0);
  call_done(&c);
  tfc_tensor_unref(big);
  tfc_tensor_unref(x);
  tfc_tensor_unref(y);
}

/* ---------------------------------------------------------------- unary */

TFC_TEST(ew_unary_values) {
  call c;
  double xv[] = {0.5, 1.5, 2.5, -0.5, -1.5, 2.4, -2.6};
  int64_t d7[] = {7};
  tfc_dtype ft[] = {TFC_DTYPE_FLOAT, TFC_DTYPE_DOUBLE, TFC_DTYPE_HALF, TFC_DTYPE_BFLOAT16};
  double rounded[] = {0, 2, 2, -0.0, -2, 2, -3};
  for (int k = 0; k < 4; k++) {
    tfc_tensor *x = mk(ft[k], 1, d7, xv);
    tfc_tensor *o = un(&c, "Round", x); /* half to even */
    CHECK_STATUS_OK(&c.st);
    for (int i = 0; i < 7; i++)
      if (at(o, i) != rounded[i] && !(ft[k] == TFC_DTYPE_BFLOAT16 && i >= 5))
        TFC_FAIL_("Round %s [%d] = %g", tfc_dtype_name(ft[k]), i, at(o, i));
    call_done(&c);
    o = un(&c, "Floor", x);
    CHECK_NEAR(at(o, 4), -2, 0);
    call_done(&c);
    o = un(&c, "Ceil", x);
    CHECK_NEAR(at(o, 4), -1, 0);
    call_done(&c);
    o = un(&c, "Exp", x);
    CHECK_NEAR(at(o, 0), exp(0.5), ft[k] == TFC_DTYPE_BFLOAT16 ? 1e-2 : 2e-3);
    call_done(&c);
    o = un(&c, "Sigmoid", x);
    CHECK_NEAR(at(o, 3), 1 / (1 + exp(0.5)), 5e-3);
    call_done(&c);
    tfc_tensor_unref(x);
  }
  double sv[] = {NAN, -0.0, -2, 3, INFINITY};
  int64_t d5[] = {5};
  tfc_tensor *x = mk(TFC_DTYPE_DOUBLE, 1, d5, sv);
  tfc_tensor *o = un(&c, "Sign", x);
  CHECK(isnan(at(o, 0)) && at(o, 1) == 0 && at(o, 2) == -1 && at(o, 3) == 1 && at(o, 4) == 1);
  call_done(&c);
  o = un(&c, "IsNan", x);
  CHECK(memcmp(o->data, (uint8_t[]){1, 0, 0, 0, 0}, 5) == 0);
  call_done(&c);
  o = un(&c, "IsInf", x);
  CHECK(memcmp(o->data, (uint8_t[]){0, 0, 0, 0, 1}, 5) == 0);
  call_done(&c);
  o = un(&c, "IsFinite", x);
  CHECK(memcmp(o->data, (uint8_t[]){0, 1, 1, 1, 0}, 5) == 0);
  call_done(&c);
  tfc_tensor_unref(x);
  double av[] = {-100, -15, 0, 15, 100};
  x = mk(TFC_DTYPE_FLOAT, 1, d5, av);
  o = un(&c, "Neg", x);
  CHECK_NEAR(at(o, 0), 100, 0);
  call_done(&c);
  o = un(&c, "Square", x);
  CHECK_NEAR(at(o, 1), 225, 0);
  call_done(&c);
  o = un(&c, "Reciprocal", x);
  CHECK_NEAR(at(o, 4), 0.01, 1e-9);
  call_done(&c);
  o = un(&c, "Inv", x);
  CHECK_NEAR(at(o, 4), 0.01, 1e-9);
  call_done(&c);
  tfc_tensor_unref(x);
  double pv[] = {0.25, 4, 1e-3};
  x = mk(TFC_DTYPE_DOUBLE, 1, D1_3, pv);
  const char *ops[] = {"Sqrt", "Rsqrt", "Log", "Log1p", "Expm1", "Tanh", "Sin", "Cos"};
  double (*ref[])(double) = {sqrt, NULL, log, log1p, expm1, tanh, sin, cos};
  for (int k = 0; k < 8; k++) {
    o = un(&c, ops[k], x);
    for (int i = 0; i < 3; i++) {
      double want = ref[k] ? ref[k](pv[i]) : 1 / sqrt(pv[i]);
      if (fabs(at(o, i) - want) > 1e-12 * fabs(want)) TFC_FAIL_("%s[%d]", ops[k], i);
    }
    call_done(&c);
  }
  tfc_tensor_unref(x);
  /* Integer unary ops. */
  double iv[] = {-5, 0, 7};
  x = mk(TFC_DTYPE_INT16, 1, D1_3, iv);
  o = un(&c, "Sign", x);
  CHECK(at(o, 0) == -1 && at(o, 1) == 0 && at(o, 2) == 1);
  call_done(&c);
  o = un(&c, "Round", x);
  CHECK(at(o, 0) == -5 && at(o, 2) == 7);
  call_done(&c);
  o = un(&c, "Abs", x);
  CHECK(at(o, 0) == 5);
  call_done(&c);
  tfc_tensor_unref(x);
  /* No kernel for types TF has none for. */
  x = mk(TFC_DTYPE_INT32, 1, D1_3, iv);
  un(&c, "Reciprocal", x);
  CHECK_CODE(&c.st, TFC_CODE_NOT_FOUND);
  call_done(&c);
  tfc_tensor_unref(x);
}

TFC_TEST(ew_unary_sharded_exp) {
  tfc_threadpool *pool = tfc_threadpool_new(2);
  tfc_status st;
  tfc_status_clear(&st);
  int64_t n = 100003;
  tfc_tensor *x = tfc_tensor_new(TFC_DTYPE_FLOAT, 1, &n, &st);
  for (int64_t i = 0; i < n; i++) ((float *)x->data)[i] = (float)(i % 100) * 0.01f;
  call c;
  call_init(&c, TFC_DTYPE_FLOAT);
  c.pool = pool;
  tfc_tensor *ins[1] = {x};
  CHECK(call_run(&c, "Exp", 1, ins, 1));
  int bad = 0;
  for (int64_t i = 0; i < n; i++) { /* vectorised exp: within 2.5 ulp of the true value */
    double want = exp((double)((float)(i % 100) * 0.01f));
    bad += fabs(((float *)c.out[0]->data)[i] - want) > 3e-7 * want;
  }
  CHECK_EQ_INT(bad, 0);
  call_done(&c);
  tfc_tensor_unref(x);
  tfc_threadpool_free(pool);
}

/* ---------------------------------------------------------------- gradient helpers */

TFC_TEST(ew_grad_helpers) {
  call c;
  double yv[] = {0.3}, dv[] = {2.0};
  int64_t d1[] = {1};
  tfc_tensor *y = mk(TFC_DTYPE_FLOAT, 1, d1, yv), *dy = mk(TFC_DTYPE_FLOAT, 1, d1, dv);
  struct { const char *op; double want; } cases[] = {
      {"SigmoidGrad", 0.42}, {"TanhGrad", 1.82}, {"SqrtGrad", 3.3333333},
      {"RsqrtGrad", -0.027}, {"ReciprocalGrad", -0.18}, {"InvGrad", -0.18}};
  for (int k = 0; k < 6; k++) {
    tfc_tensor *o = bin(&c, cases[k].op, y, dy);
    if (!tfc_status_ok(&c.st)) TFC_FAIL_("%s: %s", cases[k].op, c.st.msg);
    CHECK_NEAR(at(o, 0), cases[k].want, 1e-6);
    call_done(&c);
  }
  tfc_tensor *y2 = mk(TFC_DTYPE_FLOAT, 1, (int64_t[]){2}, (double[]){0.3, 0.2});
  bin(&c, "SigmoidGrad", y2, dy);
  CHECK_CODE(&c.st, TFC_CODE_INVALID_ARGUMENT);
  CHECK(strstr(c.st.msg, "same number of elements, got 2 and 1") != NULL);
  call_done(&c);
  tfc_tensor_unref(y);
  tfc_tensor_unref(y2);
  tfc_tensor_unref(dy);
}

/* ---------------------------------------------------------------- Cast */

/* Casts x to dst (Truncate flag) and returns the output (owned by c). */
static tfc_tensor *cast(call *c, tfc_tensor *x, tfc_dtype dst, bool truncate) {
  call_init(c, TFC_DTYPE_INVALID);
  set_type(c, "SrcT", x->dtype);
  set_type(c, "DstT", dst);
  set_bool(c, "Truncate", truncate);
  tfc_tensor *ins[1] = {x};
  call_run(c, "Cast", 1, ins, 1);
  return c->out[0];
}

TFC_TEST(ew_cast_float_to_int_edges) {
  call c;
  double v[] = {NAN, INFINITY, -INFINITY, 3e9, -3e9, -1.7, 1.7, 70000, -70000, 200, -200};
  int64_t d[] = {11};
  tfc_tensor *x = mk(TFC_DTYPE_FLOAT, 1, d, v);
  /* Expected values are TF 2.x CPU results. */
  int64_t i32[] = {INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN, -1,
                   1,         70000,     -70000,    200,       -200};
  int64_t i8[] = {0, 0, 0, 0, 0, -1, 1, 112, -112, -56, 56};
  int64_t u8[] = {0, 0, 0, 0, 0, 255, 1, 112, 144, 200, 56};
  int64_t u16[] = {0, 0, 0, 0, 0, 65535, 1, 4464, 61072, 200, 65336};
  int64_t i64[] = {INT64_MIN, INT64_MIN, INT64_MIN, 3000000000LL, -3000000000LL, -1,
                   1,         70000,     -70000,    200,          -200};
  struct {
    tfc_dtype t;
    const int64_t *want;
  } cases[] = {{TFC_DTYPE_INT32, i32}, {TFC_DTYPE_INT8, i8}, {TFC_DTYPE_UINT8, u8},
               {TFC_DTYPE_UINT16, u16}, {TFC_DTYPE_INT64, i64}};
  for (int pass = 0; pass < 2; pass++) {
    tfc_tensor *src = pass ? mk(TFC_DTYPE_DOUBLE, 1, d, v) : tfc_tensor_ref(x);
    for (int k = 0; k < 5; k++) {
      tfc_tensor *o = cast(&c, src, cases[k].t, false);
      CHECK_STATUS_OK(&c.st);
      for (int i = 0; i < 11; i++)
        if (tfc_tensor_get_int64(o, i) != cases[k].want[i])
          TFC_FAIL_("cast %s->%s [%d]: %lld", tfc_dtype_name(src->dtype),
                    tfc_dtype_name(cases[k].t), i, (long long)tfc_tensor_get_int64(o, i));
      call_done(&c);
    }
    tfc_tensor *o = cast(&c, src, TFC_DTYPE_UINT64, false);
    const uint64_t *u = o->data;
    CHECK(u[0] == (UINT64_C(1) << 63) && u[1] == (UINT64_C(1) << 63) && u[3] == 3000000000u);
    CHECK(u[4] == (uint64_t)-3000000000LL && u[5] == UINT64_MAX && u[7] == 70000);
    call_done(&c);
    o = cast(&c, src, TFC_DTYPE_UINT32, false);
    CHECK(((uint32_t *)o->data)[3] == 3000000000u && ((uint32_t *)o->data)[5] == UINT32_MAX);
    call_done(&c);
    o = cast(&c, src, TFC_DTYPE_BOOL, false);
    CHECK(memcmp(o->data, (uint8_t[]){1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, 11) == 0);
    call_done(&c);
    tfc_tensor_unref(src);
  }
  tfc_tensor_unref(x);
  double b[] = {0, -0.0, 0.1};
  x = mk(TFC_DTYPE_DOUBLE, 1, D1_3, b);
  tfc_tensor *o = cast(&c, x, TFC_DTYPE_BOOL, false);
  CHECK(memcmp(o->data, (uint8_t[]){0, 0, 1}, 3) == 0);
  call_done(&c);
  tfc_tensor_unref(x);
}

TFC_TEST(ew_cast_round_trips) {
  tfc_dtype types[] = {TFC_DTYPE_FLOAT, TFC_DTYPE_DOUBLE, TFC_DTYPE_HALF, TFC_DTYPE_BFLOAT16,
                       TFC_DTYPE_INT8, TFC_DTYPE_INT16, TFC_DTYPE_INT32, TFC_DTYPE_INT64,
                       TFC_DTYPE_UINT8, TFC_DTYPE_UINT16, TFC_DTYPE_UINT32, TFC_DTYPE_UINT64,
                       TFC_DTYPE_BOOL};
  int nt = (int)(sizeof types / sizeof *types);
  double v[] = {0, 1, 2, 3, 100, 127, 42, 64};
  int64_t d[] = {8};
  call c1, c2;
  for (int i = 0; i < nt; i++) {
    for (int j = 0; j < nt; j++) {
      tfc_tensor *x = mk(types[i], 1, d, v);
      tfc_tensor *y = cast(&c1, x, types[j], false);
      if (!y)
        TFC_FAIL_("cast %s->%s: %s", tfc_dtype_name(types[i]), tfc_dtype_name(types[j]),
                  c1.st.msg);
      tfc_tensor *z = cast(&c2, y, types[i], false);
      bool to_bool = types[i] == TFC_DTYPE_BOOL || types[j] == TFC_DTYPE_BOOL;
      for (int k = 0; k < 8; k++) {
        double want = to_bool ? (v[k] != 0) : v[k];
        if (types[i] == TFC_DTYPE_BOOL) want = v[k] != 0;
        if (at(z, k) != want)
          TFC_FAIL_("%s->%s->%s [%d]: %g", tfc_dtype_name(types[i]), tfc_dtype_name(types[j]),
                    tfc_dtype_name(types[i]), k, at(z, k));
      }
      call_done(&c1);
      call_done(&c2);
      tfc_tensor_unref(x);
    }
  }
  /* Identity casts forward the input; strings are refused like TF. */
  tfc_tensor *x = mk(TFC_DTYPE_FLOAT, 1, d, v);
  tfc_tensor *y = cast(&c1, x, TFC_DTYPE_FLOAT, false);
  CHECK(y == x);
  call_done(&c1);
  tfc_status st;
  tfc_status_clear(&st);
  tfc_string s = {"1", 1};
  tfc_tensor *str = tfc_tensor_scalar(TFC_DTYPE_STRING, &s, &st);
  cast(&c1, str, TFC_DTYPE_FLOAT, false);
  CHECK_CODE(&c1.st, TFC_CODE_UNIMPLEMENTED);
  CHECK(strcmp(c1.st.msg, "Cast string to float is not supported") == 0);
  call_done(&c1);
  tfc_tensor_unref(str);
  tfc_tensor_unref(x);
}

TFC_TEST(ew_half_conversions) {
  /* Every half bit pattern widens like the scalar reference (F16C path included). */
  static uint16_t h[65536], back[65536];
  static float f[65536];
  for (int i = 0; i < 65536; i++) h[i] = (uint16_t)i;
  tfc_ew_half_to_float(h, f, 65536);
  int bad = 0;
  for (int i = 0; i < 65536; i++) {
    float r = tfc_half_to_float(h[i]);
    bad += !(r == f[i] || (isnan(r) && isnan(f[i])));
  }
  CHECK_EQ_INT(bad, 0);
  /* Narrowing round-trips every non-NaN half exactly. */
  tfc_ew_float_to_half(f, back, 65536);
  bad = 0;
  for (int i = 0; i < 65536; i++) bad += !isnan(f[i]) && back[i] != h[i];
  CHECK_EQ_INT(bad, 0);
  /* Ties round to even, overflow goes to inf, vector and scalar agree. */
  static float in[4096];
  static uint16_t vec[4096];
  for (int i = 0; i < 4096; i++) in[i] = ((float)i - 2048.0f) * 37.123f + (float)i * 1e-3f;
  in[0] = 1.0f + 0x1p-11f;            /* tie -> 1.0 */
  in[1] = 1.0f + 3 * 0x1p-11f;        /* tie -> 1 + 2^-9 */
  in[2] = 65520.0f;                   /* -> inf */
  in[3] = 65519.0f;                   /* -> 65504 */
  in[4] = 0x1p-25f;                   /* tie -> 0 */
  in[5] = 0x1p-24f * 1.5f;            /* subnormal tie -> 2^-23 */
  tfc_ew_float_to_half(in, vec, 4096);
  bad = 0;
  for (int i = 0; i < 4096; i++) bad += vec[i] != tfc_float_to_half(in[i]);
  CHECK_EQ_INT(bad, 0);
  CHECK_EQ_INT(vec[0], 0x3c00);
  CHECK_EQ_INT(vec[1], 0x3c02);
  CHECK_EQ_INT(vec[2], 0x7c00);
  CHECK_EQ_INT(vec[3], 0x7bff);
  CHECK_EQ_INT(vec[4], 0);
  CHECK_EQ_INT(vec[5], 2);
  /* bfloat16: round to nearest even, NaN stays NaN. */
  float bf[3] = {1.0f + 0x1p-8f, 1.0f + 3 * 0x1p-8f, NAN};
  uint16_t bo[3];
  tfc_ew_float_to_bf16(bf, bo, 3);
  CHECK_EQ_INT(bo[0], 0x3f80);
  CHECK_EQ_INT(bo[1], 0x3f82);
  CHECK((bo[2] & 0x7f80) == 0x7f80 && (bo[2] & 0x7f) != 0);
}

TFC_TEST(ew_cast_half_and_truncate) {
  call c;
  double v[] = {1.0 + 0x1p-11 + 0x1p-20, 65519, 65520, -70000};
  tfc_tensor *x = mk(TFC_DTYPE_FLOAT, 1, D1_4, v);
  tfc_tensor *o = cast(&c, x, TFC_DTYPE_HALF, false);
  const uint16_t *h = o->data;
  CHECK_EQ_INT(h[0], 0x3c01); /* rounds up */
  CHECK_EQ_INT(h[1], 0x7bff);
  CHECK_EQ_INT(h[2], 0x7c00);
  CHECK_EQ_INT(h[3], 0xfc00);
  call_done(&c);
  o = cast(&c, x, TFC_DTYPE_HALF, true); /* Truncate drops the low bits */
  CHECK_EQ_INT(((uint16_t *)o->data)[0], 0x3c00);
  call_done(&c);
  double bv[] = {1.00390625 + 0x1p-9};
  tfc_tensor *b = mk(TFC_DTYPE_FLOAT, 1, (int64_t[]){1}, bv);
  o = cast(&c, b, TFC_DTYPE_BFLOAT16, false);
  CHECK_NEAR(at(o, 0), 1.0078125, 0);
  call_done(&c);
  o = cast(&c, b, TFC_DTYPE_BFLOAT16, true);
  CHECK_NEAR(at(o, 0), 1.0, 0);
  call_done(&c);
  /* double -> half goes through float (double rounding, as TF). */
  tfc_tensor *dd = mk(TFC_DTYPE_DOUBLE, 1, (int64_t[]){1}, (double[]){1.0 + 0x1p-11 + 0x1p-40});
  o = cast(&c, dd, TFC_DTYPE_HALF, false);
  CHECK_EQ_INT(((uint16_t *)o->data)[0], 0x3c00);
  call_done(&c);
  /* half -> int through float. */
  tfc_tensor *hx = mk(TFC_DTYPE_HALF, 1, D1_3, (double[]){60000, -1.5, 200});
  o = cast(&c, hx, TFC_DTYPE_INT16, false);
  CHECK(at(o, 0) == -5536 && at(o, 1) == -1 && at(o, 2) == 200);
  call_done(&c);
  o = cast(&c, hx, TFC_DTYPE_BFLOAT16, false);
  CHECK(at(o, 2) == 200);
  call_done(&c);
  tfc_tensor_unref(x);
  tfc_tensor_unref(b);
  tfc_tensor_unref(dd);
  tfc_tensor_unref(hx);
}

/* ---------------------------------------------------------------- Select */

/* Runs a three-input op with T from the second input. */
static tfc_tensor *tern(call *c, const char *op, tfc_tensor *a, tfc_tensor *b, tfc_tensor *d) {
  call_init(c, b->dtype);
  tfc_tensor *ins[3] = {a, b, d};
  call_run(c, op, 3, ins, 1);
  return c->out[0];
}

TFC_TEST(ew_select_tf1_rules) {
  call c;
  int64_t d2[] = {2}, d22[] = {2, 2}, d12[] = {1, 2}, d3[] = {3};
  tfc_tensor *cv = mk(TFC_DTYPE_BOOL, 1, d2, (double[]){1, 0});
  tfc_tensor *t = mk(TFC_DTYPE_INT32, 2, d22, (double[]){1, 2, 3, 4});
  tfc_tensor *e = mk(TFC_DTYPE_INT32, 2, d22, (double[]){5, 6, 7, 8});
  tfc_tensor *o = tern(&c, "Select", cv, t, e); /* vector condition picks rows */
  CHECK_STATUS_OK(&c.st);
  CHECK(at(o, 0) == 1 && at(o, 1) == 2 && at(o, 2) == 7 && at(o, 3) == 8);
  call_done(&c);
  tfc_tensor *cs = mk(TFC_DTYPE_BOOL, 0, NULL, (double[]){0});
  o = tern(&c, "Select", cs, t, e); /* scalar condition forwards */
  CHECK(o == e);
  call_done(&c);
  tfc_tensor *ce = mk(TFC_DTYPE_BOOL, 2, d22, (double[]){1, 0, 0, 1});
  o = tern(&c, "Select", ce, t, e);
  CHECK(at(o, 0) == 1 && at(o, 1) == 6 && at(o, 2) == 7 && at(o, 3) == 4);
  call_done(&c);
  tfc_tensor *c3 = mk(TFC_DTYPE_BOOL, 1, d3, (double[]){1, 0, 1});
  tern(&c, "Select", c3, t, e);
  CHECK(strcmp(c.st.msg,
               "Number of batches of 'then' must match size of 'cond', but saw: 2 vs. 3") == 0);
  call_done(&c);
  tfc_tensor *c12 = mk(TFC_DTYPE_BOOL, 2, d12, (double[]){1, 0});
  tern(&c, "Select", c12, t, e);
  CHECK(strstr(c.st.msg,
               "must have the same size and shape.  Input 0: [1,2] != input 1: [2,2]") != NULL);
  call_done(&c);
  tfc_tensor *e12 = mk(TFC_DTYPE_INT32, 2, d12, (double[]){5, 6});
  tern(&c, "Select", cs, t, e12);
  CHECK(strcmp(c.st.msg,
               "'then' and 'else' must have the same size.  but received: [2,2] vs. [1,2]") == 0);
  call_done(&c);
  /* SelectV2 broadcasts all three. */
  int64_t d21[] = {2, 1};
  tfc_tensor *t21 = mk(TFC_DTYPE_FLOAT, 2, d21, (double[]){1, 3});
  tfc_tensor *e0 = mk(TFC_DTYPE_FLOAT, 0, NULL, (double[]){9});
  tfc_tensor *c3v = mk(TFC_DTYPE_BOOL, 1, d3, (double[]){1, 0, 1});
  o = tern(&c, "SelectV2", c3v, t21, e0);
  CHECK_STATUS_OK(&c.st);
  CHECK(o->rank == 2 && o->dims[0] == 2 && o->dims[1] == 3);
  double want[] = {1, 9, 1, 3, 9, 3};
  for (int i = 0; i < 6; i++) CHECK(at(o, i) == want[i]);
  call_done(&c);
  tfc_tensor *t12 = mk(TFC_DTYPE_FLOAT, 2, d12, (double[]){1, 2});
  tern(&c, "SelectV2", c3v, t12, e0);
  CHECK(strcmp(c.st.msg, "condition [3], then [1,2], and else [] must be broadcastable") == 0);
  call_done(&c);
  /* SelectV2 with short rows: condition [n, 1], then [3], else [n, 3]. */
  {
    int64_t dc[] = {5000, 1}, dt3[] = {3}, de[] = {5000, 3};
    tfc_status st2;
    tfc_status_clear(&st2);
    tfc_tensor *cc = tfc_tensor_new(TFC_DTYPE_BOOL, 2, dc, &st2);
    tfc_tensor *tt = tfc_tensor_new(TFC_DTYPE_INT16, 1, dt3, &st2);
    tfc_tensor *ee = tfc_tensor_new(TFC_DTYPE_INT16, 2, de, &st2);
    for (int i = 0; i < 5000; i++) ((uint8_t *)cc->data)[i] = (uint8_t)(i % 3 == 1);
    for (int i = 0; i < 3; i++) ((int16_t *)tt->data)[i] = (int16_t)(100 + i);
    for (int i = 0; i < 15000; i++) ((int16_t *)ee->data)[i] = (int16_t)-i;
    o = tern(&c, "SelectV2", cc, tt, ee);
    CHECK_STATUS_OK(&c.st);
    int bad = 0;
    for (int i = 0; i < 15000; i++)
      bad += ((int16_t *)o->data)[i] != ((i / 3) % 3 == 1 ? 100 + i % 3 : -i);
    CHECK_EQ_INT(bad, 0);
    call_done(&c);
    tfc_tensor_unref(cc);
    tfc_tensor_unref(tt);
    tfc_tensor_unref(ee);
  }
  /* Select on strings copies. */
  tfc_status st;
  tfc_status_clear(&st);
  tfc_tensor *sa = tfc_tensor_new(TFC_DTYPE_STRING, 1, d2, &st);
  tfc_tensor *sb = tfc_tensor_new(TFC_DTYPE_STRING, 1, d2, &st);
  tfc_tensor_set_string(sa, 0, "a0", 2, &st);
  tfc_tensor_set_string(sa, 1, "a1", 2, &st);
  tfc_tensor_set_string(sb, 0, "b0", 2, &st);
  tfc_tensor_set_string(sb, 1, "b1", 2, &st);
  o = tern(&c, "Select", cv, sa, sb);
  CHECK_STATUS_OK(&c.st);
  const tfc_string *so = o->data;
  CHECK(memcmp(so[0].data, "a0", 2) == 0 && memcmp(so[1].data, "b1", 2) == 0);
  call_done(&c);
  tfc_tensor *ts[] = {cv, t, e, cs, ce, c3, c12, e12, t21, e0, c3v, t12, sa, sb};
  for (size_t i = 0; i < sizeof ts / sizeof *ts; i++) tfc_tensor_unref(ts[i]);
}

TFC_TEST(ew_select_large_batch_sharded) {
  tfc_threadpool *pool = tfc_threadpool_new(2);
  tfc_status st;
  tfc_status_clear(&st);
  int64_t n = 5000, dims[] = {5000, 13};
  tfc_tensor *cond = tfc_tensor_new(TFC_DTYPE_BOOL, 1, &n, &st);
  tfc_tensor *t = tfc_tensor_new(TFC_DTYPE_DOUBLE, 2, dims, &st);
  tfc_tensor *e = tfc_tensor_new(TFC_DTYPE_DOUBLE, 2, dims, &st);
  for (int64_t i = 0; i < n; i++) ((uint8_t *)cond->data)[i] = (uint8_t)(i % 3 == 0);
  for (int64_t i = 0; i < t->nelems; i++) {
    ((double *)t->data)[i] = (double)i;
    ((double *)e->data)[i] = -(double)i;
  }
  call c;
  call_init(&c, TFC_DTYPE_DOUBLE);
  c.pool = pool;
  tfc_tensor *ins[3] = {cond, t, e};
  CHECK(call_run(&c, "Select", 3, ins, 1));
  int bad = 0;
  for (int64_t i = 0; i < t->nelems; i++)
    bad += ((double *)c.out[0]->data)[i] != ((i / 13) % 3 == 0 ? (double)i : -(double)i);
  CHECK_EQ_INT(bad, 0);
  call_done(&c);
  tfc_tensor_unref(cond);
  tfc_tensor_unref(t);
  tfc_tensor_unref(e);
  tfc_threadpool_free(pool);
}

/* ---------------------------------------------------------------- AddN, fills, clip, BGA */

TFC_TEST(ew_addn) {
  call c;
  tfc_dtype types[] = {TFC_DTYPE_FLOAT, TFC_DTYPE_INT32, TFC_DTYPE_HALF, TFC_DTYPE_UINT8};
  for (int k = 0; k < 4; k++) {
    for (int n = 1; n <= 4; n++) {
      tfc_tensor *ins[4];
      for (int i = 0; i < n; i++) ins[i] = mk(types[k], 2, D2_23, (double[]){1, 2, 3, 4, 5, 6});
      call_init(&c, types[k]);
      tfc_attr_value nv = tfc_attr_int(n);
      tfc_attrs_set(&c.attrs, "N", &nv, &c.st);
      CHECK(call_run(&c, "AddN", n, ins, 1));
      for (int i = 0; i < 6; i++)
        if (at(c.out[0], i) != n * (i + 1.0))
          TFC_FAIL_("AddN %s n=%d [%d]", tfc_dtype_name(types[k]), n, i);
      call_done(&c);
      for (int i = 0; i < n; i++) tfc_tensor_unref(ins[i]);
    }
  }
  tfc_tensor *ins[2] = {mk(TFC_DTYPE_FLOAT, 1, (int64_t[]){2}, (double[]){1, 2}),
                        mk(TFC_DTYPE_FLOAT, 1, D1_3, (double[]){1, 2, 3})};
  call_init(&c, TFC_DTYPE_FLOAT);
  CHECK(!call_run(&c, "AddN", 2, ins, 1));
  CHECK(strstr(c.st.msg, "must have the same size and shape.  Input 0: [2] != input 1: [3]"));
  call_done(&c);
  tfc_tensor_unref(ins[0]);
  tfc_tensor_unref(ins[1]);
}

TFC_TEST(ew_zeros_ones_like) {
  call c;
  tfc_dtype types[] = {TFC_DTYPE_FLOAT, TFC_DTYPE_HALF, TFC_DTYPE_BFLOAT16, TFC_DTYPE_INT64,
                       TFC_DTYPE_UINT8, TFC_DTYPE_BOOL, TFC_DTYPE_DOUBLE};
  for (int k = 0; k < 7; k++) {
    tfc_tensor *x = mk(types[k], 2, D2_23, (double[]){1, 2, 3, 4, 5, 6});
    tfc_tensor *o = un(&c, "ZerosLike", x);
    CHECK(o && o->dtype == types[k] && o->nelems == 6 && at(o, 5) == 0);
    call_done(&c);
    o = un(&c, "OnesLike", x);
    CHECK(o && o->dtype == types[k] && o->rank == 2 && at(o, 0) == 1 && at(o, 5) == 1);
    call_done(&c);
    tfc_tensor_unref(x);
  }
}

TFC_TEST(ew_clip_by_value) {
  call c;
  tfc_tensor *t = mk(TFC_DTYPE_FLOAT, 1, D1_3, (double[]){1, 5, 9});
  tfc_tensor *lo = mk(TFC_DTYPE_FLOAT, 0, NULL, (double[]){2});
  tfc_tensor *hi = mk(TFC_DTYPE_FLOAT, 1, D1_3, (double[]){8, 8, 7});
  tfc_tensor *o = tern(&c, "ClipByValue", t, lo, hi);
  CHECK_STATUS_OK(&c.st);
  CHECK(at(o, 0) == 2 && at(o, 1) == 5 && at(o, 2) == 7);
  call_done(&c);
  tfc_tensor *l6 = mk(TFC_DTYPE_FLOAT, 0, NULL, (double[]){6});
  tfc_tensor *h4 = mk(TFC_DTYPE_FLOAT, 0, NULL, (double[]){4});
  o = tern(&c, "ClipByValue", t, l6, h4); /* min > max: min wins (TF) */
  CHECK(at(o, 0) == 6 && at(o, 1) == 6 && at(o, 2) == 6);
  call_done(&c);
  tfc_tensor *l2 = mk(TFC_DTYPE_FLOAT, 1, (int64_t[]){2}, (double[]){2, 2});
  tern(&c, "ClipByValue", t, l2, h4);
  CHECK(strstr(c.st.msg, "input shape: [3]clip_value_min shape: [2]clip_value_max shape: []"));
  call_done(&c);
  tfc_tensor *th = mk(TFC_DTYPE_HALF, 1, D1_3, (double[]){1, 5, 9});
  tfc_tensor *lh = mk(TFC_DTYPE_HALF, 0, NULL, (double[]){2});
  tfc_tensor *hh = mk(TFC_DTYPE_HALF, 0, NULL, (double[]){8});
  o = tern(&c, "ClipByValue", th, lh, hh);
  CHECK(at(o, 0) == 2 && at(o, 1) == 5 && at(o, 2) == 8);
  call_done(&c);
  tfc_tensor *ts[] = {t, lo, hi, l6, h4, l2, th, lh, hh};
  for (size_t i = 0; i < sizeof ts / sizeof *ts; i++) tfc_tensor_unref(ts[i]);
}

/* Runs BroadcastGradientArgs on int32 shapes; fills r0/r1 as "0,2" strings. */
static bool bga(const int64_t *a, int na, const int64_t *b, int nb, char *r0, char *r1,
                tfc_status *out) {
  double av[8] = {0}, bv[8] = {0};
  for (int i = 0; i < na; i++) av[i] = (double)a[i];
  for (int i = 0; i < nb; i++) bv[i] = (double)b[i];
  int64_t da = na, db = nb;
  tfc_tensor *s0 = mk(TFC_DTYPE_INT32, 1, &da, av), *s1 = mk(TFC_DTYPE_INT32, 1, &db, bv);
  call c;
  call_init(&c, TFC_DTYPE_INT32);
  tfc_tensor *ins[2] = {s0, s1};
  bool ok = call_run(&c, "BroadcastGradientArgs", 2, ins, 2);
  *out = c.st;
  if (ok) {
    char *bufs[2] = {r0, r1};
    for (int k = 0; k < 2; k++) {
      bufs[k][0] = '\0';
      for (int64_t i = 0; i < c.out[k]->nelems; i++)
        sprintf(bufs[k] + strlen(bufs[k]), "%s%d", i ? "," : "", ((int32_t *)c.out[k]->data)[i]);
    }
  }
  call_done(&c);
  tfc_tensor_unref(s0);
  tfc_tensor_unref(s1);
  return ok;
}

TFC_TEST(ew_broadcast_gradient_args) {
  char r0[64], r1[64];
  tfc_status st;
  CHECK(bga((int64_t[]){2, 3, 1}, 3, (int64_t[]){3, 5}, 2, r0, r1, &st));
  CHECK(strcmp(r0, "2") == 0 && strcmp(r1, "0") == 0);
  CHECK(bga((int64_t[]){1, 3, 1}, 3, (int64_t[]){1, 1}, 2, r0, r1, &st));
  CHECK(strcmp(r0, "0,2") == 0 && strcmp(r1, "0,1,2") == 0);
  CHECK(bga((int64_t[]){1, 1}, 2, (int64_t[]){1, 1}, 2, r0, r1, &st));
  CHECK(strcmp(r0, "") == 0 && strcmp(r1, "") == 0);
  CHECK(bga((int64_t[]){0}, 0, (int64_t[]){2, 3}, 2, r0, r1, &st));
  CHECK(strcmp(r0, "0,1") == 0 && strcmp(r1, "") == 0);
  CHECK(bga((int64_t[]){1}, 1, (int64_t[]){0}, 0, r0, r1, &st));
  CHECK(strcmp(r0, "0") == 0 && strcmp(r1, "0") == 0);
  CHECK(!bga((int64_t[]){2, 3}, 2, (int64_t[]){4, 3}, 2, r0, r1, &st));
  CHECK(strcmp(st.msg, "Incompatible shapes: [2,3] vs. [4,3]") == 0);
}

/* ---------------------------------------------------------------- allocation failures */

TFC_TEST(ew_oom_is_a_status) {
  double v[] = {1, 2, 3};
  tfc_tensor *x = mk(TFC_DTYPE_FLOAT, 1, D1_3, v);
  call c;
  call_init(&c, TFC_DTYPE_FLOAT);
  tfc_tensor *ins[2] = {x, x};
  tfc_alloc_fail_after(1);
  bool ok = call_run(&c, "AddV2", 2, ins, 1);
  tfc_alloc_fail_after(0);
  CHECK(!ok);
  CHECK_CODE(&c.st, TFC_CODE_RESOURCE_EXHAUSTED);
  call_done(&c);
  tfc_tensor_unref(x);
}
