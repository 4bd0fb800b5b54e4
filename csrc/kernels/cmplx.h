/*
 * cmplx.h — CMPLX and CMPLXF (C11's constructors of a complex value from its
 * real and imaginary parts) for compilers whose <complex.h> lacks them:
 * glibc defines them only where the compiler has __builtin_complex, which
 * clang (the fuzz builds) has not. A union makes the value exactly, also
 * for an infinite or NaN part, as the standard macros do.
 */
#ifndef TFC_KERNELS_CMPLX_H
#define TFC_KERNELS_CMPLX_H

#include <complex.h>

#ifndef CMPLX
/* The double complex value re + im*i. */
static inline double _Complex tfc_cmplx_make(double re, double im) {
  union { double _Complex z; double p[2]; } u;
  u.p[0] = re;
  u.p[1] = im;
  return u.z;
}
#define CMPLX(x, y) tfc_cmplx_make((x), (y))
#endif

#ifndef CMPLXF
/* The float complex value re + im*i. */
static inline float _Complex tfc_cmplxf_make(float re, float im) {
  union { float _Complex z; float p[2]; } u;
  u.p[0] = re;
  u.p[1] = im;
  return u.z;
}
#define CMPLXF(x, y) tfc_cmplxf_make((x), (y))
#endif

#endif
