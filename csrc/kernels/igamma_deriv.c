/*
 * igamma_deriv.c — derivatives of the regularized lower incomplete gamma
 * function P(a, x) with respect to a, by forward-mode differentiation of its
 * power series (x <= 1 or x <= a) and continued fraction (otherwise), with
 * the iteration counts and stopping rules of TensorFlow's CPU kernels, so
 * RandomGammaGrad's values are TF's.
 *
 * The "sample" form is the implicit reparameterization derivative of a
 * Gamma(a, 1) sample x: dx/da = -(dP/da) / (dP/dx), where dP/dx is the
 * Gamma density; the density's factor cancels inside each expansion.
 */
#include <float.h>
#include <math.h>
#include <stdbool.h>

#include "kernels/special_fns.h"

/* Iterations of either expansion in derivative mode (double). */
#define DERIV_ITERATIONS 500

/* log(x^a e^-x / Gamma(a + shift)); -inf when the term underflows. */
static double log_term(double a, double x, double lgamma_arg) {
  double v = a * log(x) - x - tfc_sf_lgamma(lgamma_arg);
  if (isnan(v) || v < -log(DBL_MAX)) return -INFINITY;
  return v;
}

/* Series branch: P(a, x) = x^a e^-x / Gamma(a + 1) * sum_k c_k with
 * c_0 = 1, c_k = c_{k-1} x / (a + k); carries dc_k/da along. */
static double series_deriv(double a, double x, bool sample) {
  double logax = log_term(a, x, a + 1);
  if (logax == -INFINITY) return 0;
  double ax = exp(logax);
  const double machep = DBL_EPSILON / 2;
  double r = a, c = 1, ans = 1, dc = 0, dans = 0;
  for (int i = 0; i < DERIV_ITERATIONS; i++) {
    r += 1;
    double term = x / r, dterm = -x / (r * r);
    dc = term * dc + dterm * c;
    dans += dc;
    c *= term;
    ans += c;
    if (fabs(dc) <= machep * fabs(dans)) break;
  }
  double dlogax = log(x) - tfc_sf_digamma(a + 1);
  if (sample) return -(dans + ans * dlogax) * x / a;
  return ans * ax * dlogax + dans * ax;
}

/* Continued-fraction branch for Q(a, x) = 1 - P(a, x): the convergents
 * p_k / q_k of Q(a, x) / (x^a e^-x / Gamma(a)) with their a-derivatives.
 * Returns the derivative of Q (or Q's share of the sample derivative). */
static double cf_deriv(double a, double x, bool sample) {
  if (isinf(x)) return 0;
  double logax = log_term(a, x, a);
  if (logax == -INFINITY) return 0;
  double ax = exp(logax);
  const double machep = DBL_EPSILON / 2, big = 1 / DBL_EPSILON, biginv = DBL_EPSILON;
  double y = 1 - a, z = x + y + 1, c = 0;
  double pkm2 = 1, qkm2 = x, pkm1 = x + 1, qkm1 = z * x;
  double ans = pkm1 / qkm1;
  double dpkm2 = 0, dqkm2 = 0, dpkm1 = 0, dqkm1 = -x;
  double dans = (dpkm1 - ans * dqkm1) / qkm1;
  for (int i = 0; i < DERIV_ITERATIONS; i++) {
    c += 1;
    y += 1;
    z += 2;
    double yc = y * c;
    double pk = pkm1 * z - pkm2 * yc, qk = qkm1 * z - qkm2 * yc;
    double dpk = dpkm1 * z - pkm1 - dpkm2 * yc + pkm2 * c;
    double dqk = dqkm1 * z - qkm1 - dqkm2 * yc + qkm2 * c;
    if (qk != 0) {
      ans = pk / qk;
      double prev = dans;
      dans = (dpk - ans * dqk) / qk;
      if (fabs(dans - prev) <= machep) break;
    }
    pkm2 = pkm1;
    pkm1 = pk;
    qkm2 = qkm1;
    qkm1 = qk;
    dpkm2 = dpkm1;
    dpkm1 = dpk;
    dqkm2 = dqkm1;
    dqkm1 = dqk;
    if (fabs(pk) > big) {
      pkm2 *= biginv;
      pkm1 *= biginv;
      qkm2 *= biginv;
      qkm1 *= biginv;
      dpkm2 *= biginv;
      dpkm1 *= biginv;
      dqkm2 *= biginv;
      dqkm1 *= biginv;
    }
  }
  double dlogax = log(x) - tfc_sf_digamma(a);
  if (sample) return -(dans + ans * dlogax) * x;
  return ans * ax * dlogax + dans * ax;
}

/* dP(a, x)/da (sample false) or the Gamma sample derivative dx/da (sample
 * true); 0 at x == 0, NaN for x < 0, a <= 0 or NaN arguments. */
double tfc_sf_igamma_der(double a, double x, bool sample) {
  if (x == 0) return 0;
  if (x < 0 || a <= 0 || isnan(a) || isnan(x)) return NAN;
  if (x > 1 && x > a) return -cf_deriv(a, x, sample);
  return series_deriv(a, x, sample);
}
