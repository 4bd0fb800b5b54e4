/*
 * test_nn.c — the NN family: op definitions and shape functions (ops_nn.c)
 * and CPU kernels (kernels/nn.c) run by hand through a tfc_kernel_ctx:
 * activations and their gradients against formulas (including finite
 * differences), Softmax/LogSoftmax stability, BiasAdd in both layouts,
 * BiasAddGrad, L2Loss, the cross-entropy ops with values taken from
 * TensorFlow, and TF's error messages.
 * Test names start with "nn_" (make ctest T=nn_).
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

/* Runs a one-input op of type t on v (n values); output in *out (caller unrefs). */
static bool run1(const char *op, tfc_dtype t, const double *v, int64_t n, float alpha, tfc_tensor **out,
                 tfc_status *st) {
  call c;
  call_init(&c, t);
  if (alpha != 0) set_float(&c, "alpha", alpha);
  tfc_tensor *x = mk(t, 1, &n, v);
  bool ok = call_run(&c, op, 1, &x, 1);
  tfc_status_copy(st, &c.st);
  *out = c.out[0];
  c.out[0] = NULL;
  call_done(&c);
  tfc_tensor_unref(x);
  return ok;
}

static const double kScale = 1.0507009873554804934193349852946;
static const double kAlpha = 1.6732632423543772848170429916717;

/* Reference activations. */
static double ref_act(const char *op, double x, double alpha) {
  if (!strcmp(op, "Relu")) return x < 0 ? 0 : x;
  if (!strcmp(op, "Relu6")) return x < 0 ? 0 : x > 6 ? 6 : x;
  if (!strcmp(op, "Elu")) return x < 0 ? expm1(x) : x;
  if (!strcmp(op, "Selu")) return x < 0 ? kScale * kAlpha * expm1(x) : kScale * x;
  if (!strcmp(op, "LeakyRelu")) return x > 0 ? x : alpha * x;
  if (!strcmp(op, "Softplus")) return log1p(exp(x));
  return x / (1 + fabs(x)); /* Softsign */
}

/* ---------------------------------------------------------------- activations */

TFC_TEST(nn_activations_match_formulas) {
  const char *ops[] = {"Relu", "Relu6", "Elu", "Selu", "LeakyRelu", "Softplus", "Softsign"};
  const tfc_dtype types[] = {TFC_DTYPE_FLOAT, TFC_DTYPE_DOUBLE, TFC_DTYPE_HALF, TFC_DTYPE_BFLOAT16};
  double v[41];
  for (int i = 0; i < 41; i++) v[i] = -10 + 0.5 * i;
  for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++)
    for (size_t k = 0; k < sizeof types / sizeof types[0]; k++) {
      tfc_status st;
      tfc_tensor *y;
      float alpha = !strcmp(ops[o], "LeakyRelu") ? 0.1f : 0;
      CHECK(run1(ops[o], types[k], v, 41, alpha, &y, &st));
      double tol = types[k] == TFC_DTYPE_FLOAT ? 1e-6 : types[k] == TFC_DTYPE_DOUBLE ? 1e-12 : 1e-2;
      for (int i = 0; i < 41; i++) {
        double want = ref_act(ops[o], v[i], alpha ? alpha : 0.2);
        if (fabs(at(y, i) - want) > tol * (1 + fabs(want)))
          fprintf(stderr, "%s %s x=%g: %g vs %g\n", ops[o], tfc_dtype_name(types[k]), v[i], at(y, i), want);
        CHECK_NEAR(at(y, i), want, tol * (1 + fabs(want)));
      }
      tfc_tensor_unref(y);
    }
}

TFC_TEST(nn_relu_nan_ints_and_softplus_extremes) {
  const double v[4] = {-1, NAN, 3, 7};
  tfc_status st;
  tfc_tensor *y;
  CHECK(run1("Relu6", TFC_DTYPE_HALF, v, 4, 0, &y, &st));
  CHECK(at(y, 0) == 0 && isnan(at(y, 1)) && at(y, 2) == 3 && at(y, 3) == 6);
  tfc_tensor_unref(y);
  CHECK(run1("Relu", TFC_DTYPE_FLOAT, v, 4, 0, &y, &st));
  CHECK(at(y, 0) == 0 && isnan(at(y, 1)));
  tfc_tensor_unref(y);
  const double iv[4] = {-5, 0, 4, 9};
  const tfc_dtype itypes[] = {TFC_DTYPE_INT8, TFC_DTYPE_INT32, TFC_DTYPE_INT64};
  for (int k = 0; k < 3; k++) {
    CHECK(run1("Relu6", itypes[k], iv, 4, 0, &y, &st));
    CHECK(at(y, 0) == 0 && at(y, 1) == 0 && at(y, 2) == 4 && at(y, 3) == 6);
    tfc_tensor_unref(y);
    CHECK(run1("Relu", itypes[k], iv, 4, 0, &y, &st));
    CHECK(at(y, 0) == 0 && at(y, 3) == 9);
    tfc_tensor_unref(y);
  }
  /* Elu on integers has no kernel (its op only allows floats). */
  CHECK(!run1("Elu", TFC_DTYPE_INT32, iv, 4, 0, &y, &st));
  tfc_tensor_unref(y);
  const double big[3] = {100, -100, 20};
  CHECK(run1("Softplus", TFC_DTYPE_FLOAT, big, 3, 0, &y, &st));
  CHECK_NEAR(at(y, 0), 100, 1e-4);
  CHECK(at(y, 1) > 0 && at(y, 1) < 1e-40);
  CHECK_NEAR(at(y, 2), 20, 1e-5);
  tfc_tensor_unref(y);
}

TFC_TEST(nn_activation_grads_by_finite_differences) {
  /* d/dx act(x) * g against central differences in double. EluGrad and
   * SeluGrad take the forward outputs, the others the features. */
  const char *ops[] = {"Relu", "Relu6", "Elu", "Selu", "LeakyRelu", "Softplus", "Softsign"};
  double v[12] = {-7, -3.3, -1.1, -0.4, 0.3, 0.9, 1.7, 2.5, 4.4, 5.5, 6.6, 8.1};
  double g[12];
  for (int i = 0; i < 12; i++) g[i] = 0.5 + 0.1 * i;
  int64_t n = 12;
  for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++) {
    char gname[32];
    snprintf(gname, sizeof gname, "%sGrad", ops[o]);
    bool from_out = !strcmp(ops[o], "Elu") || !strcmp(ops[o], "Selu");
    double second[12];
    for (int i = 0; i < 12; i++) second[i] = from_out ? ref_act(ops[o], v[i], 0.2) : v[i];
    call c;
    call_init(&c, TFC_DTYPE_DOUBLE);
    tfc_tensor *in[2] = {mk(TFC_DTYPE_DOUBLE, 1, &n, g), mk(TFC_DTYPE_DOUBLE, 1, &n, second)};
    CHECK(call_run(&c, gname, 2, in, 1));
    for (int i = 0; i < 12; i++) {
      double h = 1e-6;
      double fd = (ref_act(ops[o], v[i] + h, 0.2) - ref_act(ops[o], v[i] - h, 0.2)) / (2 * h);
      if (fabs(at(c.out[0], i) - g[i] * fd) > 1e-5) fprintf(stderr, "%s x=%g\n", gname, v[i]);
      CHECK_NEAR(at(c.out[0], i), g[i] * fd, 1e-5);
    }
    tfc_tensor_unref(in[0]);
    tfc_tensor_unref(in[1]);
    call_done(&c);
  }
}

TFC_TEST(nn_grad_shape_mismatch_and_int_relu_grad) {
  int64_t d2[1] = {2}, d3[1] = {3};
  call c;
  call_init(&c, TFC_DTYPE_FLOAT);
  tfc_tensor *in[2] = {mk(TFC_DTYPE_FLOAT, 1, d2, NULL), mk(TFC_DTYPE_FLOAT, 1, d3, NULL)};
  CHECK(!call_run(&c, "ReluGrad", 2, in, 1));
  CHECK_CODE(&c.st, TFC_CODE_INVALID_ARGUMENT);
  tfc_tensor_unref(in[0]);
  tfc_tensor_unref(in[1]);
  call_done(&c);
  const double g[3] = {5, 6, 7}, f[3] = {-1, 3, 6};
  call_init(&c, TFC_DTYPE_INT32);
  in[0] = mk(TFC_DTYPE_INT32, 1, d3, g);
  in[1] = mk(TFC_DTYPE_INT32, 1, d3, f);
  CHECK(call_run(&c, "Relu6Grad", 2, in, 1));
  CHECK(at(c.out[0], 0) == 0 && at(c.out[0], 1) == 6 && at(c.out[0], 2) == 0);
  tfc_tensor_unref(in[0]);
  tfc_tensor_unref(in[1]);
  call_done(&c);
}

TFC_TEST(nn_big_activation_over_pool) {
  int64_t n = 300001;
  double *v = tfc_malloc((size_t)n * sizeof(double));
  for (int64_t i = 0; i < n; i++) v[i] = (double)(i % 2001) / 100.0 - 10;
  tfc_threadpool *pool = tfc_threadpool_new(2);
  call c;
  call_init(&c, TFC_DTYPE_FLOAT);
  c.pool = pool;
  tfc_tensor *x = mk(TFC_DTYPE_FLOAT, 1, &n, v);
  CHECK(call_run(&c, "Elu", 1, &x, 1));
  int bad = 0;
  for (int64_t i = 0; i < n; i++)
    if (fabs(at(c.out[0], i) - ref_act("Elu", (float)v[i], 0)) > 1e-6) bad++;
  CHECK_EQ_INT(bad, 0);
  call_done(&c);
  tfc_tensor_unref(x);
  tfc_threadpool_free(pool);
  tfc_free(v);
}

/* ---------------------------------------------------------------- softmax */

TFC_TEST(nn_softmax_and_log_softmax) {
  const int64_t d[2] = {3, 4};
  const double v[12] = {1, 2, 3, 4, 1000, 1001, 1002, 1003, -5, -5, -5, -5};
  const tfc_dtype types[] = {TFC_DTYPE_FLOAT, TFC_DTYPE_DOUBLE, TFC_DTYPE_HALF};
  for (int k = 0; k < 3; k++)
    for (int lg = 0; lg < 2; lg++) {
      call c;
      call_init(&c, types[k]);
      tfc_tensor *x = mk(types[k], 2, d, v);
      CHECK(call_run(&c, lg ? "LogSoftmax" : "Softmax", 1, &x, 1));
      for (int r = 0; r < 3; r++) {
        double mx = v[r * 4 + 3], s = 0;
        for (int j = 0; j < 4; j++) s += exp(v[r * 4 + j] - mx);
        for (int j = 0; j < 4; j++) {
          double want = lg ? (v[r * 4 + j] - mx) - log(s) : exp(v[r * 4 + j] - mx) / s;
          if (types[k] == TFC_DTYPE_HALF && r == 1) continue; /* 1000+ is not exact in half */
          double tol = types[k] == TFC_DTYPE_HALF ? 5e-3 : 1e-6;
          CHECK_NEAR(at(c.out[0], r * 4 + j), want, tol * (1 + fabs(want)));
        }
      }
      tfc_tensor_unref(x);
      call_done(&c);
    }
}

TFC_TEST(nn_softmax_edge_shapes) {
  const int64_t d3[3] = {2, 2, 2}, d20[2] = {2, 0};
  double ones[8] = {1, 1, 1, 1, 1, 1, 1, 1};
  call c;
  call_init(&c, TFC_DTYPE_FLOAT);
  tfc_tensor *x = mk(TFC_DTYPE_FLOAT, 3, d3, ones);
  CHECK(call_run(&c, "Softmax", 1, &x, 1));
  for (int i = 0; i < 8; i++) CHECK_NEAR(at(c.out[0], i), 0.5, 1e-7);
  tfc_tensor_unref(x);
  call_done(&c);
  call_init(&c, TFC_DTYPE_FLOAT);
  x = mk(TFC_DTYPE_FLOAT, 2, d20, NULL);
  CHECK(call_run(&c, "Softmax", 1, &x, 1));
  CHECK_EQ_INT(c.out[0]->nelems, 0);
  tfc_tensor_unref(x);
  call_done(&c);
  call_init(&c, TFC_DTYPE_FLOAT);
  x = mk(TFC_DTYPE_FLOAT, 0, NULL, ones);
  CHECK(!call_run(&c, "Softmax", 1, &x, 1));
  CHECK_CODE(&c.st, TFC_CODE_INVALID_ARGUMENT);
  tfc_tensor_unref(x);
  call_done(&c);
}

/* ---------------------------------------------------------------- BiasAdd */

TFC_TEST(nn_bias_add_layouts) {
  const int64_t d[3] = {2, 3, 2};
  double v[12];
  for (int i = 0; i < 12; i++) v[i] = i;
  const int64_t c3 = 3, c2 = 2;
  const double b3[3] = {10, 20, 30}, b2[2] = {100, 200};
  const tfc_dtype types[] = {TFC_DTYPE_FLOAT, TFC_DTYPE_DOUBLE, TFC_DTYPE_HALF, TFC_DTYPE_INT32,
                             TFC_DTYPE_INT64, TFC_DTYPE_UINT8};
  for (size_t k = 0; k < sizeof types / sizeof types[0]; k++) {
    /* NCHW: bias on dim 1. */
    call c;
    call_init(&c, types[k]);
    set_str(&c, "data_format", "NCHW");
    tfc_tensor *in[2] = {mk(types[k], 3, d, v), mk(types[k], 1, &c3, b3)};
    CHECK(call_run(&c, "BiasAdd", 2, in, 1));
    for (int i = 0; i < 12; i++) CHECK_NEAR(at(c.out[0], i), v[i] + b3[(i / 2) % 3], 0);
    tfc_tensor_unref(in[1]);
    call_done(&c);
    /* NHWC (default) and BiasAddV1: bias on the last dim. */
    for (int v1 = 0; v1 < 2; v1++) {
      call_init(&c, types[k]);
      in[1] = mk(types[k], 1, &c2, b2);
      CHECK(call_run(&c, v1 ? "BiasAddV1" : "BiasAdd", 2, in, 1));
      for (int i = 0; i < 12; i++) {
        double want = v[i] + b2[i % 2];
        if (types[k] == TFC_DTYPE_UINT8) want = (double)(uint8_t)(int)want;
        CHECK_NEAR(at(c.out[0], i), want, 0);
      }
      tfc_tensor_unref(in[1]);
      call_done(&c);
    }
    tfc_tensor_unref(in[0]);
  }
}

TFC_TEST(nn_bias_add_errors) {
  const int64_t d23[2] = {2, 3}, c4 = 4, c3 = 3;
  call c;
  call_init(&c, TFC_DTYPE_FLOAT);
  tfc_tensor *in[2] = {mk(TFC_DTYPE_FLOAT, 2, d23, NULL), mk(TFC_DTYPE_FLOAT, 1, &c4, NULL)};
  CHECK(!call_run(&c, "BiasAdd", 2, in, 1));
  CHECK(strcmp(c.st.msg, "Must provide as many biases as the last dimension of the input tensor: [4] vs. [2,3]") == 0);
  tfc_tensor_unref(in[0]);
  tfc_tensor_unref(in[1]);
  call_done(&c);
  call_init(&c, TFC_DTYPE_FLOAT);
  in[0] = mk(TFC_DTYPE_FLOAT, 1, &c3, NULL);
  in[1] = mk(TFC_DTYPE_FLOAT, 1, &c3, NULL);
  CHECK(!call_run(&c, "BiasAdd", 2, in, 1));
  CHECK(strcmp(c.st.msg, "Input tensor must be at least 2D: [3]") == 0);
  tfc_tensor_unref(in[0]);
  tfc_tensor_unref(in[1]);
  call_done(&c);
}

TFC_TEST(nn_bias_add_grad) {
  const int64_t d[3] = {4, 3, 5};
  double v[60];
  for (int i = 0; i < 60; i++) v[i] = i * 0.5;
  tfc_threadpool *pool = tfc_threadpool_new(2);
  for (int fmt = 0; fmt < 2; fmt++)
    for (int k = 0; k < 3; k++) {
      tfc_dtype t = k == 0 ? TFC_DTYPE_FLOAT : k == 1 ? TFC_DTYPE_DOUBLE : TFC_DTYPE_INT32;
      call c;
      call_init(&c, t);
      c.pool = pool;
      if (fmt) set_str(&c, "data_format", "NCHW");
      tfc_tensor *x = mk(t, 3, d, v);
      CHECK(call_run(&c, "BiasAddGrad", 1, &x, 1));
      int64_t C = fmt ? 3 : 5;
      CHECK_EQ_INT(c.out[0]->nelems, C);
      for (int64_t ch = 0; ch < C; ch++) {
        double want = 0;
        for (int i = 0; i < 60; i++)
          if ((fmt ? (i / 5) % 3 : i % 5) == ch) want += t == TFC_DTYPE_INT32 ? (double)(int)v[i] : v[i];
        CHECK_NEAR(at(c.out[0], ch), want, 1e-9);
      }
      tfc_tensor_unref(x);
      call_done(&c);
    }
  /* A big NHWC one, chunked and spread over the pool. */
  int64_t big[2] = {40000, 7};
  call c;
  call_init(&c, TFC_DTYPE_FLOAT);
  c.pool = pool;
  tfc_status st;
  tfc_status_clear(&st);
  tfc_tensor *x = tfc_tensor_new(TFC_DTYPE_FLOAT, 2, big, &st);
  for (int64_t i = 0; i < x->nelems; i++) ((float *)x->data)[i] = (float)(i % 7) + 0.25f;
  CHECK(call_run(&c, "BiasAddGrad", 1, &x, 1));
  for (int ch = 0; ch < 7; ch++) CHECK_NEAR(at(c.out[0], ch), 40000 * (ch + 0.25), 1e-3);
  tfc_tensor_unref(x);
  call_done(&c);
  tfc_threadpool_free(pool);
}

TFC_TEST(nn_l2_loss) {
  const int64_t d[2] = {2, 2}, z = 0;
  const double v[4] = {1, 2, 3, 4};
  const tfc_dtype types[] = {TFC_DTYPE_FLOAT, TFC_DTYPE_DOUBLE, TFC_DTYPE_HALF, TFC_DTYPE_BFLOAT16};
  for (int k = 0; k < 4; k++) {
    call c;
    call_init(&c, types[k]);
    tfc_tensor *x = mk(types[k], 2, d, v);
    CHECK(call_run(&c, "L2Loss", 1, &x, 1));
    CHECK_EQ_INT(c.out[0]->rank, 0);
    CHECK_NEAR(at(c.out[0], 0), 15, 0);
    tfc_tensor_unref(x);
    call_done(&c);
  }
  call c;
  call_init(&c, TFC_DTYPE_FLOAT);
  tfc_tensor *x = mk(TFC_DTYPE_FLOAT, 1, &z, NULL);
  CHECK(call_run(&c, "L2Loss", 1, &x, 1));
  CHECK(at(c.out[0], 0) == 0);
  tfc_tensor_unref(x);
  call_done(&c);
}

/* ---------------------------------------------------------------- cross entropy */

TFC_TEST(nn_softmax_xent_matches_tf) {
  /* Values from TensorFlow 2.21 (raw_ops.SoftmaxCrossEntropyWithLogits). */
  const int64_t f[2] = {2, 3}, l[2] = {1, 3};
  const double fv[6] = {1, 2, 3, 1, 1, 1}, lv[3] = {0, 0, 1};
  const tfc_dtype types[] = {TFC_DTYPE_FLOAT, TFC_DTYPE_DOUBLE, TFC_DTYPE_HALF};
  for (int k = 0; k < 3; k++) {
    call c;
    call_init(&c, types[k]);
    tfc_tensor *in[2] = {mk(types[k], 2, f, fv), mk(types[k], 2, l, lv)}; /* labels broadcast */
    CHECK(call_run(&c, "SoftmaxCrossEntropyWithLogits", 2, in, 2));
    double tol = types[k] == TFC_DTYPE_HALF ? 2e-3 : 1e-6;
    CHECK_NEAR(at(c.out[0], 0), 0.40760595, tol);
    CHECK_NEAR(at(c.out[0], 1), 1.0986123, tol);
    const double bp[6] = {0.09003057, 0.24472848, -0.33475906, 0.33333334, 0.33333334, -0.6666666};
    for (int i = 0; i < 6; i++) CHECK_NEAR(at(c.out[1], i), bp[i], tol);
    tfc_tensor_unref(in[0]);
    tfc_tensor_unref(in[1]);
    call_done(&c);
  }
  /* Not broadcastable. */
  const int64_t l4[2] = {2, 4};
  call c;
  call_init(&c, TFC_DTYPE_FLOAT);
  tfc_tensor *in[2] = {mk(TFC_DTYPE_FLOAT, 2, f, NULL), mk(TFC_DTYPE_FLOAT, 2, l4, NULL)};
  CHECK(!call_run(&c, "SoftmaxCrossEntropyWithLogits", 2, in, 2));
  CHECK(strcmp(c.st.msg, "logits and labels must be broadcastable: logits_size=[2,3] labels_size=[2,4]") == 0);
  tfc_tensor_unref(in[0]);
  tfc_tensor_unref(in[1]);
  call_done(&c);
}

TFC_TEST(nn_sparse_softmax_xent) {
  const int64_t f[2] = {2, 3}, l = 2;
  const double fv[6] = {1, 2, 3, 1, 1, 1}, lv[2] = {2, 0}, bad[2] = {1, 5}, neg[2] = {-1, 1};
  for (int lt = 0; lt < 2; lt++) {
    tfc_dtype ltype = lt ? TFC_DTYPE_INT64 : TFC_DTYPE_INT32;
    call c;
    call_init(&c, TFC_DTYPE_FLOAT);
    set_type(&c, "Tlabels", ltype);
    tfc_tensor *in[2] = {mk(TFC_DTYPE_FLOAT, 2, f, fv), mk(ltype, 1, &l, lv)};
    CHECK(call_run(&c, "SparseSoftmaxCrossEntropyWithLogits", 2, in, 2));
    CHECK_NEAR(at(c.out[0], 0), 0.40760595, 1e-6);
    CHECK_NEAR(at(c.out[0], 1), 1.0986123, 1e-6);
    const double bp[6] = {0.09003057, 0.24472848, -0.33475906, -0.6666666, 0.33333334, 0.33333334};
    for (int i = 0; i < 6; i++) CHECK_NEAR(at(c.out[1], i), bp[i], 1e-6);
    tfc_tensor_unref(in[1]);
    call_done(&c);
    const double *labs[2] = {bad, neg};
    const char *msgs[2] = {
        "Received a label value of 5 which is outside the valid range of [0, 3).  Label values: 1 5",
        "Received a label value of -1 which is outside the valid range of [0, 3).  Label values: -1 1"};
    for (int b = 0; b < 2; b++) {
      call_init(&c, TFC_DTYPE_FLOAT);
      set_type(&c, "Tlabels", ltype);
      in[1] = mk(ltype, 1, &l, labs[b]);
      CHECK(!call_run(&c, "SparseSoftmaxCrossEntropyWithLogits", 2, in, 2));
      CHECK_CODE(&c.st, TFC_CODE_INVALID_ARGUMENT);
      CHECK(strcmp(c.st.msg, msgs[b]) == 0);
      tfc_tensor_unref(in[1]);
      call_done(&c);
    }
    tfc_tensor_unref(in[0]);
  }
  /* Shape errors. */
  const int64_t f20[2] = {2, 0}, l3 = 3;
  call c;
  call_init(&c, TFC_DTYPE_FLOAT);
  set_type(&c, "Tlabels", TFC_DTYPE_INT64);
  tfc_tensor *in[2] = {mk(TFC_DTYPE_FLOAT, 2, f20, NULL), mk(TFC_DTYPE_INT64, 1, &l, NULL)};
  CHECK(!call_run(&c, "SparseSoftmaxCrossEntropyWithLogits", 2, in, 2));
  CHECK(strcmp(c.st.msg, "Must have at least one class, but got logits shape [2,0]") == 0);
  tfc_tensor_unref(in[0]);
  tfc_tensor_unref(in[1]);
  call_done(&c);
  call_init(&c, TFC_DTYPE_FLOAT);
  set_type(&c, "Tlabels", TFC_DTYPE_INT64);
  in[0] = mk(TFC_DTYPE_FLOAT, 2, f, NULL);
  in[1] = mk(TFC_DTYPE_INT64, 1, &l3, NULL);
  CHECK(!call_run(&c, "SparseSoftmaxCrossEntropyWithLogits", 2, in, 2));
  CHECK(strcmp(c.st.msg, "logits and labels must have the same first dimension, got logits shape [2,3] "
                         "and labels shape [3]") == 0);
  tfc_tensor_unref(in[0]);
  tfc_tensor_unref(in[1]);
  call_done(&c);
}

/* ---------------------------------------------------------------- shape functions */

/* Runs op's shape function on n inputs with data_format (NULL: default) and
 * the given input types; fills out[0..1]. */
static bool shape_of(const char *op, int n, const tfc_shape *in, const char *fmt, tfc_shape *out,
                     tfc_status *st) {
  const tfc_op_def *def = tfc_op_lookup(op);
  if (!def) return tfc_status_set(st, TFC_CODE_NOT_FOUND, "no op %s", op);
  tfc_attrs attrs;
  tfc_attrs_init(&attrs);
  tfc_attr_value v = tfc_attr_type(TFC_DTYPE_FLOAT);
  tfc_attrs_set(&attrs, "T", &v, st);
  if (fmt) {
    v = tfc_attr_string(fmt, strlen(fmt));
    tfc_attrs_set(&attrs, "data_format", &v, st);
  }
  tfc_dtype types[2] = {TFC_DTYPE_FLOAT, TFC_DTYPE_FLOAT};
  tfc_tensor *vals[2] = {NULL, NULL};
  const char *names[2] = {"x", "y"};
  out[0] = out[1] = tfc_shape_unknown();
  tfc_shape_ctx ctx = {def, &attrs, op, n, in, types, vals, def->n_outputs, out, st, names};
  bool ok = def->shape_fn(&ctx);
  tfc_attrs_destroy(&attrs);
  return ok;
}

/* A shape from a literal list (-1 unknown). */
static tfc_shape shp(int rank, int64_t d0, int64_t d1, int64_t d2) {
  int64_t d[3] = {d0, d1, d2};
  return tfc_shape_make(rank, d);
}

TFC_TEST(nn_shape_fns) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_shape out[2];
  tfc_shape in[2] = {shp(2, 2, 3, 0), shp(1, 4, 0, 0)};
  CHECK(!shape_of("BiasAdd", 2, in, NULL, out, &st));
  CHECK(strstr(st.msg, "Dimensions must be equal, but are 3 and 4") == st.msg);
  tfc_status_clear(&st);
  in[0] = shp(2, 2, 3, 0);
  CHECK(!shape_of("BiasAdd", 2, in, "NCHW", out, &st));
  CHECK(strstr(st.msg, "Shape must be at least rank 3 but is rank 2") == st.msg);
  tfc_status_clear(&st);
  in[0] = shp(3, -1, -1, 5);
  in[1] = shp(1, 4, 0, 0);
  CHECK(shape_of("BiasAdd", 2, in, "NCHW", out, &st));
  CHECK(out[0].rank == 3 && out[0].dims[1] == 4 && out[0].dims[2] == 5);
  CHECK(shape_of("BiasAddGrad", 1, in, "NCHW", out, &st));
  CHECK(out[0].rank == 1 && out[0].dims[0] == -1);
  CHECK(shape_of("BiasAddGrad", 1, in, NULL, out, &st));
  CHECK(out[0].rank == 1 && out[0].dims[0] == 5);
  in[0] = tfc_shape_scalar();
  CHECK(!shape_of("Softmax", 1, in, NULL, out, &st));
  CHECK(strstr(st.msg, "Shape must be at least rank 1 but is rank 0") == st.msg);
  tfc_status_clear(&st);
  /* ReluGrad merges its inputs. */
  in[0] = shp(2, 2, 3, 0);
  in[1] = shp(2, 3, 2, 0);
  CHECK(!shape_of("ReluGrad", 2, in, NULL, out, &st));
  CHECK(strstr(st.msg, "Dimension 0 in both shapes must be equal, but are 2 and 3. Shapes are [2,3] and "
                       "[3,2].") == st.msg);
  tfc_status_clear(&st);
  /* Cross entropy. */
  in[0] = shp(2, 2, 3, 0);
  in[1] = shp(2, -1, 3, 0);
  CHECK(shape_of("SoftmaxCrossEntropyWithLogits", 2, in, NULL, out, &st));
  CHECK(out[0].rank == 1 && out[0].dims[0] == 2 && out[1].rank == 2 && out[1].dims[1] == 3);
  in[1] = shp(2, 1, 3, 0);
  in[0] = shp(2, 4, 3, 0);
  CHECK(shape_of("SoftmaxCrossEntropyWithLogits", 2, in, NULL, out, &st)); /* broadcast */
  CHECK(out[0].dims[0] == 4);
  in[0] = shp(2, 2, 3, 0);
  in[1] = shp(2, 2, 4, 0);
  CHECK(!shape_of("SoftmaxCrossEntropyWithLogits", 2, in, NULL, out, &st));
  CHECK(strstr(st.msg, "Dimensions must be equal, but are 3 and 4") == st.msg);
  tfc_status_clear(&st);
  in[0] = shp(1, 3, 0, 0);
  in[1] = shp(1, 3, 0, 0);
  CHECK(!shape_of("SoftmaxCrossEntropyWithLogits", 2, in, NULL, out, &st));
  CHECK(strstr(st.msg, "Shape must be broadcasted with rank 2, but is rank 1") == st.msg);
  tfc_status_clear(&st);
  in[0] = shp(2, -1, 3, 0);
  in[1] = shp(1, 7, 0, 0);
  CHECK(shape_of("SparseSoftmaxCrossEntropyWithLogits", 2, in, NULL, out, &st));
  CHECK(out[0].rank == 1 && out[0].dims[0] == 7 && out[1].dims[0] == 7 && out[1].dims[1] == 3);
  in[0] = shp(2, 2, 3, 0);
  in[1] = shp(1, 3, 0, 0);
  CHECK(!shape_of("SparseSoftmaxCrossEntropyWithLogits", 2, in, NULL, out, &st));
  CHECK(strstr(st.msg, "Dimensions must be equal, but are 2 and 3") == st.msg);
  tfc_status_clear(&st);
  in[1] = shp(2, 2, 1, 0);
  CHECK(!shape_of("SparseSoftmaxCrossEntropyWithLogits", 2, in, NULL, out, &st));
  CHECK(strstr(st.msg, "Shape must be rank 1 but is rank 2") == st.msg);
  tfc_status_clear(&st);
  in[0] = shp(2, 2, 3, 0);
  CHECK(shape_of("L2Loss", 1, in, NULL, out, &st));
  CHECK_EQ_INT(out[0].rank, 0);
}

/* ---------------------------------------------------------------- out of memory */

TFC_TEST(nn_oom_is_a_status) {
  /* Softmax on half (scratch rows), BiasAddGrad (partial sums), L2Loss
   * (partials), sparse xent: failures report RESOURCE_EXHAUSTED cleanly. */
  const int64_t d[2] = {70000, 3};
  struct {
    const char *op;
    tfc_dtype t;
  } cases[] = {{"Softmax", TFC_DTYPE_HALF}, {"BiasAddGrad", TFC_DTYPE_FLOAT}, {"L2Loss", TFC_DTYPE_FLOAT}};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    tfc_tensor *x = mk(cases[k].t, 2, d, NULL);
    call w; /* warm up: the kernel index is built on first lookup */
    call_init(&w, cases[k].t);
    CHECK(call_run(&w, cases[k].op, 1, &x, 1));
    call_done(&w);
    bool succeeded = false;
    for (int n = 1; n < 20 && !succeeded; n++) {
      call c;
      call_init(&c, cases[k].t);
      tfc_alloc_fail_after(n);
      bool ok = call_run(&c, cases[k].op, 1, &x, 1);
      tfc_alloc_fail_after(0);
      if (ok) succeeded = true;
      else CHECK_CODE(&c.st, TFC_CODE_RESOURCE_EXHAUSTED);
      call_done(&c);
    }
    CHECK(succeeded);
    tfc_tensor_unref(x);
  }
}
