/*
 * elementwise_complex.c — typed inner loops of the elementwise ops on
 * complex64 / complex128 (stored as interleaved (re, im) pairs, which is the
 * layout of C11's float _Complex / double _Complex).
 *
 * The real-typed loop files (elementwise_binary.c, elementwise_compare.c,
 * elementwise_unary.c) hand their complex cases to the two entry points here,
 * with the op id. Formulas follow TF's complex functors: SquaredDifference
 * is (x-y)*conj(x-y), Sign is x/|x| (0 at 0). The gradient of a
 * holomorphic f is dy * conj(f'(x)): SqrtGrad, RsqrtGrad and ReciprocalGrad
 * conjugate the op's output themselves, while TanhGrad and SigmoidGrad take
 * it conjugated already (TF's gradient functions pass conj(y)).
 */
#include <stdint.h>
#include <tgmath.h>

#include "kernels/cmplx.h"
#include "kernels/elementwise_internal.h"

/* ---------------------------------------------------------------- scalar helpers */

/* e^x - 1 without cancellation for small x:
 * expm1(a)cos(b) - 2 sin^2(b/2) + i e^a sin(b). */
static inline float _Complex cexpm1_f(float _Complex x) {
  float a = crealf(x), b = cimagf(x), s = sinf(0.5f * b);
  return CMPLXF(expm1f(a) * cosf(b) - 2.0f * s * s, expf(a) * sinf(b));
}
/* Double version of cexpm1_f. */
static inline double _Complex cexpm1_d(double _Complex x) {
  double a = creal(x), b = cimag(x), s = sin(0.5 * b);
  return CMPLX(expm1(a) * cos(b) - 2.0 * s * s, exp(a) * sin(b));
}
/* log(1 + x) without cancellation for small x:
 * 0.5 log1p(2a + a^2 + b^2) + i atan2(b, 1 + a). */
static inline float _Complex clog1p_f(float _Complex x) {
  float a = crealf(x), b = cimagf(x);
  return CMPLXF(0.5f * log1pf(2.0f * a + a * a + b * b), atan2f(b, 1.0f + a));
}
/* Double version of clog1p_f. */
static inline double _Complex clog1p_d(double _Complex x) {
  double a = creal(x), b = cimag(x);
  return CMPLX(0.5 * log1p(2.0 * a + a * a + b * b), atan2(b, 1.0 + a));
}
#define CEXPM1(x) _Generic((x), float _Complex: cexpm1_f, default: cexpm1_d)(x)
#define CLOG1P(x) _Generic((x), float _Complex: clog1p_f, default: clog1p_d)(x)

/* ---------------------------------------------------------------- loops */

/* One binary loop over typed pointers (E: complex element type, OT: output). */
#define CLOOP(OT, EXPR)                                                      \
  {                                                                          \
    typedef OT O;                                                            \
    const E *restrict xp = x_;                                               \
    const E *restrict yp = y_;                                               \
    O *restrict zp = z_;                                                     \
    TFC_EW_LOOP3(EXPR)                                                       \
    return 0;                                                                \
  }

/* The binary op table for one complex type E. */
#define BINARY_CASES                                                                         \
  case TFC_EW_ADD: CLOOP(E, x + y)                                                           \
  case TFC_EW_SUB: CLOOP(E, x - y)                                                           \
  case TFC_EW_MUL: CLOOP(E, x * y)                                                           \
  case TFC_EW_DIV:                                                                           \
  case TFC_EW_REALDIV: CLOOP(E, x / y)                                                       \
  case TFC_EW_DIVNONAN: CLOOP(E, y == 0 ? (E)0 : x / y)                                      \
  case TFC_EW_POW: CLOOP(E, pow(x, y))                                                       \
  case TFC_EW_SQDIFF: CLOOP(E, (x - y) * conj(x - y))                                        \
  case TFC_EW_EQUAL: CLOOP(uint8_t, x == y)                                                  \
  case TFC_EW_NOT_EQUAL: CLOOP(uint8_t, x != y)                                              \
  case TFC_EW_SIGMOID_GRAD: CLOOP(E, y * (x * ((E)1 - x)))                                   \
  case TFC_EW_TANH_GRAD: CLOOP(E, y * ((E)1 - x * x))                                        \
  case TFC_EW_SQRT_GRAD: CLOOP(E, y == 0 ? (E)0 : (E)0.5 * y / conj(x))                      \
  case TFC_EW_RSQRT_GRAD: CLOOP(E, y == 0 ? (E)0 : (E)-0.5 * (y * conj(x)) * (conj(x) * conj(x))) \
  case TFC_EW_RECIPROCAL_GRAD: CLOOP(E, y == 0 ? (E)0 : -conj(x) * conj(x) * y)              \
  default: return TFC_EW_ERR_TYPE;

/* Binary loop of op on complex64/complex128 data t (see tfc_ew_binary_fn);
 * TFC_EW_ERR_TYPE for ops TF does not define on complex numbers. */
int tfc_ew_complex_binary(tfc_ew_binop op, tfc_dtype t, const void *x_, const void *y_, void *z_,
                          int64_t n, int mode) {
  if (t == TFC_DTYPE_COMPLEX64) {
    typedef float _Complex E;
    switch (op) { BINARY_CASES }
  } else if (t == TFC_DTYPE_COMPLEX128) {
    typedef double _Complex E;
    switch (op) { BINARY_CASES }
  }
  return TFC_EW_ERR_TYPE;
}

/* One unary loop over typed pointers. */
#define ULOOP(EXPR)                                                          \
  {                                                                          \
    const E *restrict xp = x_;                                               \
    E *restrict yp = y_;                                                     \
    for (int64_t i = 0; i < n; i++) {                                        \
      const E x = xp[i];                                                     \
      yp[i] = (E)(EXPR);                                                     \
    }                                                                        \
    return 0;                                                                \
  }

#define UNARY_CASES                                                                          \
  case TFC_EW_NEG: ULOOP(-x)                                                                 \
  case TFC_EW_SQUARE: ULOOP(x * x)                                                           \
  case TFC_EW_SQRT: ULOOP(sqrt(x))                                                           \
  case TFC_EW_RSQRT: ULOOP((E)1 / sqrt(x))                                                   \
  case TFC_EW_EXP: ULOOP(exp(x))                                                             \
  case TFC_EW_EXPM1: ULOOP(CEXPM1(x))                                                        \
  case TFC_EW_LOG: ULOOP(log(x))                                                             \
  case TFC_EW_LOG1P: ULOOP(CLOG1P(x))                                                        \
  case TFC_EW_TANH: ULOOP(tanh(x))                                                           \
  case TFC_EW_SIGMOID: ULOOP((E)1 / ((E)1 + exp(-x)))                                        \
  case TFC_EW_SIGN: ULOOP(x == 0 ? (E)0 : x / fabs(x))                                       \
  case TFC_EW_RECIPROCAL: ULOOP((E)1 / x)                                                    \
  case TFC_EW_SIN: ULOOP(sin(x))                                                             \
  case TFC_EW_COS: ULOOP(cos(x))                                                             \
  default: return TFC_EW_ERR_TYPE;

/* Unary loop of op on complex64/complex128 data t (see tfc_ew_unary_fn);
 * TFC_EW_ERR_TYPE for ops TF does not define on complex numbers. */
int tfc_ew_complex_unary(tfc_ew_unop op, tfc_dtype t, const void *x_, void *y_, int64_t n) {
  if (t == TFC_DTYPE_COMPLEX64) {
    typedef float _Complex E;
    switch (op) { UNARY_CASES }
  } else if (t == TFC_DTYPE_COMPLEX128) {
    typedef double _Complex E;
    switch (op) { UNARY_CASES }
  }
  return TFC_EW_ERR_TYPE;
}
