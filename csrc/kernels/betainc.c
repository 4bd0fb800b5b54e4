/*
 * betainc.c — the CPU kernel of Betainc: the regularized incomplete beta
 * function I_x(a, b), in double for float and double tensors.
 *
 * a, b and x have one shape, or are scalars standing for every element (no
 * other broadcasting, as TF). I_x(a, b) is evaluated by the continued
 * fraction of x^a (1-x)^b / (a B(a, b)) (modified Lentz), on I_x(a, b) itself
 * when x < (a + 1) / (a + b + 2) and on 1 - I_{1-x}(b, a) otherwise, where it
 * converges fast. NaN for a <= 0, b <= 0 or x outside [0, 1].
 */
#include <float.h>
#include <math.h>

#include "core/dtype.h"
#include "kernels/kernel.h"
#include "kernels/kernel_tables.h"
#include "kernels/random_internal.h"
#include "kernels/special_fns.h"

/* The continued fraction of I_x(a, b) / front (Lentz's method). */
static double beta_cf(double a, double b, double x) {
  const double tiny = 1e-300, eps = 1e-16;
  double qab = a + b, qap = a + 1, qam = a - 1;
  double c = 1, d = 1 - qab * x / qap;
  if (fabs(d) < tiny) d = tiny;
  d = 1 / d;
  double h = d;
  for (int m = 1; m <= 10000; m++) {
    double m2 = 2.0 * m;
    double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (fabs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (fabs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (fabs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (fabs(c) < tiny) c = tiny;
    d = 1 / d;
    double del = d * c;
    h *= del;
    if (fabs(del - 1) < eps) break;
  }
  return h;
}

/* I_x(a, b); NaN outside the domain. */
static double betainc(double a, double b, double x) {
  if (isnan(a) || isnan(b) || isnan(x) || a <= 0 || b <= 0 || x < 0 || x > 1) return NAN;
  if (x == 0) return 0;
  if (x == 1) return 1;
  double lfront = tfc_sf_lgamma(a + b) - tfc_sf_lgamma(a) - tfc_sf_lgamma(b) + a * log(x) +
                  b * log1p(-x);
  if (x < (a + 1) / (a + b + 2)) return exp(lfront) * beta_cf(a, b, x) / a;
  return 1 - exp(lfront) * beta_cf(b, a, 1 - x) / b;
}

/* Element i of t, or its only element when t is a scalar. */
static double elem(const tfc_tensor *t, int64_t i) {
  return tfc_tensor_get_double(t, t->rank == 0 ? 0 : i);
}

/* Betainc(a, b, x) with TF's shape checks. */
static void betainc_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *t[3] = {ctx->inputs[0], ctx->inputs[1], ctx->inputs[2]};
  static const char *pair[3][2] = {{"a", "b"}, {"a", "x"}, {"b", "x"}};
  static const int idx[3][2] = {{0, 1}, {0, 2}, {1, 2}};
  for (int p = 0; p < 3; p++) {
    const tfc_tensor *u = t[idx[p][0]], *v = t[idx[p][1]];
    if (u->rank > 0 && v->rank > 0 && !tfc_tensor_same_shape(u, v)) {
      char su[160], sv[160];
      tfc_random_shape_text(u, su, sizeof su);
      tfc_random_shape_text(v, sv, sizeof sv);
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                      "Shapes of %s and %s are inconsistent: %s vs. %s", pair[p][0], pair[p][1],
                      su, sv);
      return;
    }
  }
  const tfc_tensor *shape = t[0];
  if (t[1]->rank > 0) shape = t[1];
  if (t[2]->rank > 0) shape = t[2];
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, t[0]->dtype, shape->rank, shape->dims);
  if (out == NULL) return;
  for (int64_t i = 0; i < out->nelems; i++) {
    double r = betainc(elem(t[0], i), elem(t[1], i), elem(t[2], i));
    if (out->dtype == TFC_DTYPE_DOUBLE) ((double *)out->data)[i] = r;
    else ((float *)out->data)[i] = (float)r;
  }
}

static const tfc_dtype fd_types[] = {TFC_DTYPE_FLOAT, TFC_DTYPE_DOUBLE, TFC_DTYPE_INVALID};

static const tfc_kernel_def defs[] = {
    {"Betainc", "CPU", "T", fd_types, NULL, betainc_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_betainc = {defs, (int)(sizeof defs / sizeof defs[0])};
