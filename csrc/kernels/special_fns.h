/*
 * special_fns.h — scalar special functions in double precision for the
 * elementwise special-math kernels (kernels/elementwise_special.c): the
 * digamma, polygamma and Hurwitz zeta functions, the regularized incomplete
 * gamma functions, the inverse normal CDF and inverse error function, and
 * the modified Bessel functions of order 0 and 1. Domains and the values at
 * poles and edges follow TensorFlow's CPU kernels (NaN outside the domain).
 */
#ifndef TFC_KERNELS_SPECIAL_FNS_H
#define TFC_KERNELS_SPECIAL_FNS_H

#include <stdbool.h>

/* log|Gamma(x)| without touching the global signgam (thread-safe). */
double tfc_sf_lgamma(double x);
/* psi(x) = d/dx log Gamma(x); NaN at 0 and the negative integers. */
double tfc_sf_digamma(double x);
/* Hurwitz zeta sum_{k>=0} (q+k)^-x for x > 1; +inf at x == 1 and at a
 * non-positive integer q with an even integer x (NaN with any other x); NaN
 * for x < 1 or where (q+k)^-x is undefined. */
double tfc_sf_zeta(double x, double q);
/* psi^(n)(x), the n-th derivative of digamma; NaN unless n is an integer >= 0. */
double tfc_sf_polygamma(double n, double x);
/* Regularized lower incomplete gamma P(a, x); NaN for a <= 0 or x < 0. */
double tfc_sf_igamma(double a, double x);
/* Regularized upper incomplete gamma Q(a, x) = 1 - P(a, x); NaN for a <= 0 or x < 0. */
double tfc_sf_igammac(double a, double x);
/* Inverse of the standard normal CDF; -inf at 0, +inf at 1, NaN outside [0, 1]. */
double tfc_sf_ndtri(double p);
/* Inverse error function; +-inf at +-1, NaN outside [-1, 1]. */
double tfc_sf_erfinv(double y);
/* exp(-|x|) I0(x) and exp(-|x|) I1(x) (exponentially scaled modified Bessel functions). */
double tfc_sf_i0e(double x);
double tfc_sf_i1e(double x);
/* dP(a, x)/da, or with `sample` the reparameterization derivative dx/da of
 * a Gamma(a, 1) sample x (igamma_deriv.c); NaN for a <= 0 or x < 0. */
double tfc_sf_igamma_der(double a, double x, bool sample);

/* special_fns_extra.c: K0 / K1 (nu 0 or 1; `scaled`: times e^x), +inf for
 * x <= 0; Dawson's integral; Ei(x) (NaN below 0); the Fresnel integrals C
 * (`cos_part`) and S; Spence's function Li2(1 - x) (NaN below 0). */
double tfc_sf_bessel_k(int nu, bool scaled, double x);
double tfc_sf_dawsn(double x);
double tfc_sf_expint(double x);
double tfc_sf_fresnel(double x, bool cos_part);
double tfc_sf_spence(double x);

#endif
