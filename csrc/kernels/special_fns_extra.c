/*
 * special_fns_extra.c — the scalar functions of tf.math.special beyond the
 * Bessel I/J/Y family, in double: modified Bessel functions of the second
 * kind K0 and K1 (plain and exponentially scaled), Dawson's integral, the
 * exponential integral Ei, the Fresnel integrals and Spence's function
 * (the dilogarithm Li2(1 - x)). Domains and edges follow TensorFlow's CPU
 * kernels: K of x <= 0 is +inf, Ei of x < 0 and Spence of x < 0 are NaN.
 */
#include <complex.h>
#include <float.h>
#include <math.h>

#include "kernels/special_fns.h"

#define EULER 0.57721566490153286061
#define PI 3.14159265358979323846

/* e^x K_nu(x) for nu = 0 or 1 and x > 0, from K_nu(x) = int_0^inf
 * e^{-x cosh t} cosh(nu t) dt by the trapezoid rule, which converges
 * geometrically for this analytic, fast-decaying integrand. The scaled form
 * uses cosh t - 1 = 2 sinh^2(t/2) so large x loses nothing. */
static double bessel_k_scaled(int nu, double x) {
  double h = 0.8 / sqrt(x);
  if (h > 0.1) h = 0.1;
  double tmax = acosh(1.0 + 745.0 / x);
  double sum = 0.5; /* the t = 0 end of the trapezoid */
  for (double t = h; t <= tmax + h; t += h) {
    double s = sinh(0.5 * t);
    double e = exp(-2.0 * x * s * s);
    if (e == 0) break;
    sum += e * (nu ? cosh(t) : 1.0);
  }
  return sum * h;
}

/* K0(x), K1(x), e^x K0(x), e^x K1(x); +inf for x <= 0, NaN for NaN. */
double tfc_sf_bessel_k(int nu, bool scaled, double x) {
  if (isnan(x)) return x;
  if (x <= 0) return INFINITY;
  if (isinf(x)) return 0;
  double v = bessel_k_scaled(nu, x);
  return scaled ? v : v * exp(-x);
}

/* Dawson's integral e^{-x^2} int_0^x e^{t^2} dt: its Maclaurin series near
 * 0, elsewhere Rybicki's sum (1/sqrt(pi)) sum_{n odd} e^{-(x - n h)^2} / n
 * with h = 0.1 (error far below double precision). */
double tfc_sf_dawsn(double x) {
  if (isnan(x)) return x;
  double ax = fabs(x);
  if (ax < 0.2) {
    double x2 = x * x, term = x, sum = x;
    for (int n = 1; n < 30; n++) {
      term *= -2.0 * x2 / (2.0 * n + 1.0);
      sum += term;
      if (fabs(term) < 1e-17 * fabs(sum)) break;
    }
    return sum;
  }
  if (ax > 1e8) return 0.5 / x;
  const double h = 0.1;
  double sum = 0;
  /* sum over odd n near ax / h: terms with |ax - n h| > 7 are below 1e-21 */
  long lo = (long)floor((ax - 7.5) / h), hi = (long)ceil((ax + 7.5) / h);
  for (long n = lo; n <= hi; n++) {
    if ((n & 1) == 0) continue;
    double d = ax - (double)n * h;
    sum += exp(-d * d) / (double)n;
  }
  double r = sum / sqrt(PI);
  return x < 0 ? -r : r;
}

/* The exponential integral Ei(x) = -PV int_{-x}^inf e^{-t}/t dt for x > 0
 * (-inf at 0, NaN below): its power series up to 40, the asymptotic series
 * beyond. */
double tfc_sf_expint(double x) {
  if (isnan(x) || x < 0) return NAN;
  if (x == 0) return -INFINITY;
  if (isinf(x)) return x;
  if (x < 40) {
    double term = 1, sum = 0;
    for (int k = 1; k < 500; k++) {
      term *= x / k;
      double add = term / k;
      sum += add;
      if (add < 1e-17 * sum) break;
    }
    return EULER + log(x) + sum;
  }
  double term = 1, sum = 1;
  for (int k = 1; k < 40; k++) {
    double next = term * k / x;
    if (next > term) break;
    term = next;
    sum += term;
    if (term < 1e-17 * sum) break;
  }
  return exp(x) / x * sum;
}

/* The Fresnel integrals C(x) = int_0^x cos(pi t^2 / 2) dt (cos_part) or
 * S(x) with sin: power series up to |x| = 1.5, the complex continued
 * fraction of erfc beyond, and TF's limit 1/2 past 36974. Odd in x. */
double tfc_sf_fresnel(double x, bool cos_part) {
  if (isnan(x)) return x;
  double ax = fabs(x), c, s;
  if (ax > 36974.0) {
    c = s = 0.5; /* TF's limit value beyond 36974 */
  } else if (ax < 1e-150) {
    s = 0;
    c = ax;
  } else if (ax <= 1.5) {
    double fact = 0.5 * PI * ax * ax;
    double sumc = 0, sums = 0, term = ax;
    /* C = sum (-1)^k (pi/2)^{2k} x^{4k+1} / ((2k)! (4k+1)),
     * S = sum (-1)^k (pi/2)^{2k+1} x^{4k+3} / ((2k+1)! (4k+3)) */
    for (int k = 0; k < 200; k++) {
      double tc = term / (4.0 * k + 1.0);
      sumc += (k % 2 ? -tc : tc);
      term *= fact / (2.0 * k + 1.0);
      double ts = term / (4.0 * k + 3.0);
      sums += (k % 2 ? -ts : ts);
      term *= fact / (2.0 * k + 2.0);
      if (term < 1e-17 * fabs(sumc)) break;
    }
    c = sumc;
    s = sums;
  } else {
    double pix2 = PI * ax * ax;
    double complex b = 1.0 - I * pix2;
    double complex cc = 1.0 / DBL_MIN, d = 1.0 / b, h = d;
    int n = -1;
    for (int k = 2; k < 500; k++) {
      n += 2;
      double a = -(double)n * (n + 1);
      b += 4.0;
      d = 1.0 / (a * d + b);
      cc = b + a / cc;
      double complex del = cc * d;
      h *= del;
      if (fabs(creal(del) - 1.0) + fabs(cimag(del)) < 1e-16) break;
    }
    h *= ax - I * ax;
    double complex cs = (0.5 + 0.5 * I) * (1.0 - (cos(0.5 * pix2) + I * sin(0.5 * pix2)) * h);
    c = creal(cs);
    s = cimag(cs);
  }
  double r = cos_part ? c : s;
  return x < 0 ? -r : r;
}

/* Li2(z) for z <= 1 by its series on |z| <= 1/2 and the reflection,
 * Landen and inversion identities elsewhere. */
static double dilog(double z) {
  const double pi2_6 = PI * PI / 6;
  if (z == 1) return pi2_6;
  if (z > 0.5) return pi2_6 - log(z) * log1p(-z) - dilog(1 - z);
  if (z < -1) {
    double l = log(-z);
    return -pi2_6 - 0.5 * l * l - dilog(1 / z);
  }
  if (z < -0.5) {
    double l = log1p(-z);
    return -dilog(z / (z - 1)) - 0.5 * l * l;
  }
  double term = z, sum = 0;
  for (int k = 1; k < 200; k++) {
    double add = term / ((double)k * k);
    sum += add;
    if (fabs(add) < 1e-17 * fabs(sum) || add == 0) break;
    term *= z;
  }
  return sum;
}

/* Spence's function int_1^x log(t) / (1 - t) dt = Li2(1 - x); NaN for x < 0. */
double tfc_sf_spence(double x) {
  if (isnan(x) || x < 0) return NAN;
  if (isinf(x)) return -INFINITY;
  if (x == 1) return 0;
  return dilog(1 - x);
}
