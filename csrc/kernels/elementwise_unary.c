/*
 * elementwise_unary.c — typed inner loops of the unary math ops (Neg ... IsFinite,
 * LogicalNot) as a dtype × op matrix written once per op with macros, and the
 * chunked half/bfloat16-through-float runner for unary loops. (Softplus,
 * Softsign, Elu and Selu belong to the NN family: kernels/nn.c.)
 */
#include <stdint.h>
#include <tgmath.h>

#include "kernels/elementwise_internal.h"

/* FP-exception flags are not an observable result of these kernels: let gcc
 * inline and vectorise floor/ceil instead of calling libm. */
#pragma GCC optimize("no-trapping-math")

/* ---------------------------------------------------------------- float approximations */

/* Branch-free float exp/expm1/tanh that gcc vectorises (libm calls do not
 * vectorise): Cody-Waite reduction x = n*ln2 + r, |r| <= ln2/2, Cephes'
 * degree-6 polynomial for e^r, and 2^n built from exponent bits. Errors stay
 * within about 2.5 ulp, like the Eigen approximations TF uses; float16 and
 * bfloat16 compute through these too. Double keeps libm. */

typedef union fbits {
  float f;
  uint32_t u;
} fbits;

/* 2^n for -126 <= n <= 127. */
static inline float pow2i(int32_t n) {
  fbits b = {.u = (uint32_t)(n + 127) << 23};
  return b.f;
}

/* e^r - 1 for |r| <= ln2/2. */
static inline float expm1_reduced(float r) {
  float p = 1.9875691500E-4f;
  p = p * r + 1.3981999507E-3f;
  p = p * r + 8.3334519073E-3f;
  p = p * r + 4.1665795894E-2f;
  p = p * r + 1.6666665459E-1f;
  p = p * r + 5.0000001201E-1f;
  return p * r * r + r;
}

#define LOG2E_F 1.44269504088896341f
#define LN2_HI_F 0.693359375f
#define LN2_LO_F -2.12194440e-4f
#define EXP_MAX_F 88.72283935546875f       /* above: +inf */
#define EXP_MIN_F -103.97208404541015625f  /* below: 0 */

/* e^x for float; NaN -> NaN, overflow -> inf, deep underflow -> 0. */
static inline float exp_f32(float x) {
  float xc = x != x ? 0.0f : (x > 89.0f ? 89.0f : (x < -104.0f ? -104.0f : x));
  float n = nearbyintf(xc * LOG2E_F);
  float r = (xc - n * LN2_HI_F) - n * LN2_LO_F;
  int32_t ni = (int32_t)n, n1 = ni / 2, n2 = ni - n1;
  float res = (expm1_reduced(r) + 1.0f) * pow2i(n1) * pow2i(n2);
  return x != x ? x : (x > EXP_MAX_F ? INFINITY : (x < EXP_MIN_F ? 0.0f : res));
}

/* e^x - 1 for float, accurate near 0: 2^n*(1+q) - 1 = (2^n - 1) + 2^n*q. */
static inline float expm1_f32(float x) {
  float xc = x != x ? 0.0f : (x > 89.0f ? 89.0f : (x < -30.0f ? -30.0f : x));
  float n = nearbyintf(xc * LOG2E_F);
  float r = (xc - n * LN2_HI_F) - n * LN2_LO_F;
  float q = expm1_reduced(r);
  int32_t ni = (int32_t)n, n1 = ni / 2, n2 = ni - n1;
  float s = pow2i(ni < 25 ? ni : 24);
  float res = ni < 25 ? (s - 1.0f) + s * q : (q + 1.0f) * pow2i(n1) * pow2i(n2);
  return x != x || x == 0 ? x : (x > EXP_MAX_F ? INFINITY : res);
}

/* tanh for float: sign(x) * e / (e + 2) with e = expm1(2|x|), |x| capped at 9
 * (tanh rounds to 1 from there). */
static inline float tanh_f32(float x) {
  fbits xb = {.f = x}, ab = {.u = xb.u & 0x7fffffffu};
  float y = 2.0f * (ab.f < 9.0f ? ab.f : 9.0f);
  float n = nearbyintf(y * LOG2E_F);
  float r = (y - n * LN2_HI_F) - n * LN2_LO_F;
  float s = pow2i((int32_t)n);
  float e = (s - 1.0f) + s * expm1_reduced(r);
  fbits t = {.f = e / (e + 2.0f)};
  t.u |= xb.u & 0x80000000u;
  return x != x ? x : t.f;
}

#define EXP(x) _Generic((x), float: exp_f32, default: exp)(x)
#define EXPM1(x) _Generic((x), float: expm1_f32, default: expm1)(x)
#define TANH(x) _Generic((x), float: tanh_f32, default: tanh)(x)

/* ---------------------------------------------------------------- scalar helpers */

/* ---------------------------------------------------------------- loop macros */

#define CASE(DT, ET, UT, OT, EXPR)                                           \
  case TFC_DTYPE_##DT: {                                                     \
    typedef ET E;                                                            \
    typedef UT U;                                                            \
    typedef OT O;                                                            \
    (void)sizeof(U);                                                         \
    const E *restrict xp = x_;                                               \
    O *restrict yp = y_;                                                     \
    for (int64_t i = 0; i < n; i++) {                                        \
      const E x = xp[i];                                                     \
      yp[i] = (O)(EXPR);                                                     \
    }                                                                        \
    return 0;                                                                \
  }

/* Type groups (output of the input type E, or bool with the B suffix). */
#define CF(EXPR) CASE(FLOAT, float, uint32_t, E, EXPR) CASE(DOUBLE, double, uint64_t, E, EXPR)
#define CFB(EXPR)                                                                            \
  CASE(FLOAT, float, uint32_t, uint8_t, EXPR) CASE(DOUBLE, double, uint64_t, uint8_t, EXPR)
#define CS(EXPR)                                                                             \
  CASE(INT8, int8_t, uint32_t, E, EXPR) CASE(INT16, int16_t, uint32_t, E, EXPR)              \
  CASE(INT32, int32_t, uint32_t, E, EXPR) CASE(INT64, int64_t, uint64_t, E, EXPR)
#define CU(EXPR)                                                                             \
  CASE(UINT8, uint8_t, uint32_t, E, EXPR) CASE(UINT16, uint16_t, uint32_t, E, EXPR)          \
  CASE(UINT32, uint32_t, uint32_t, E, EXPR) CASE(UINT64, uint64_t, uint64_t, E, EXPR)
#define CH(NAME, OUT_BOOL)                                                                   \
  case TFC_DTYPE_HALF:                                                                       \
  case TFC_DTYPE_BFLOAT16:                                                                   \
    return tfc_ew_unary_via_float(NAME, t, x_, y_, n, OUT_BOOL);

/* complex64/complex128: the loop of op id OP in elementwise_complex.c. */
#define CC(OP)                                                                               \
  case TFC_DTYPE_COMPLEX64:                                                                  \
  case TFC_DTYPE_COMPLEX128:                                                                 \
    return tfc_ew_complex_unary(OP, t, x_, y_, n);

/* Defines `static int NAME(t, x, y, n)` switching over CASES. */
#define UNOP(NAME, CASES)                                                                    \
  static int NAME(tfc_dtype t, const void *x_, void *y_, int64_t n) {                        \
    switch (t) {                                                                             \
      CASES                                                                                  \
      default:                                                                               \
        return TFC_EW_ERR_TYPE;                                                              \
    }                                                                                        \
  }

#define WRAP(e) ((E)(e))
#define ONE ((E)1)

/* ---------------------------------------------------------------- ops */

UNOP(un_neg, CF(-x) CS(WRAP(0 - (U)x)) CH(un_neg, false) CC(TFC_EW_NEG))
UNOP(un_abs, CF(fabs(x)) CS(x < 0 ? WRAP(0 - (U)x) : x) CH(un_abs, false))
UNOP(un_square, CF(x * x) CS(WRAP((U)x * (U)x)) CU(WRAP((U)x * (U)x)) CH(un_square, false)
      CC(TFC_EW_SQUARE))
UNOP(un_sqrt, CF(sqrt(x)) CH(un_sqrt, false) CC(TFC_EW_SQRT))
UNOP(un_rsqrt, CF(ONE / sqrt(x)) CH(un_rsqrt, false) CC(TFC_EW_RSQRT))
UNOP(un_exp, CF(EXP(x)) CH(un_exp, false) CC(TFC_EW_EXP))
UNOP(un_expm1, CF(EXPM1(x)) CH(un_expm1, false) CC(TFC_EW_EXPM1))
UNOP(un_log, CF(log(x)) CH(un_log, false) CC(TFC_EW_LOG))
UNOP(un_log1p, CF(log1p(x)) CH(un_log1p, false) CC(TFC_EW_LOG1P))
UNOP(un_tanh, CF(TANH(x)) CH(un_tanh, false) CC(TFC_EW_TANH))
UNOP(un_sigmoid, CF(ONE / (ONE + EXP(-x))) CH(un_sigmoid, false) CC(TFC_EW_SIGMOID))
UNOP(un_sign, CF(x != x ? x : (E)((x > 0) - (x < 0))) CS((x > 0) - (x < 0)) CH(un_sign, false)
      CC(TFC_EW_SIGN))
UNOP(un_reciprocal, CF(ONE / x) CH(un_reciprocal, false) CC(TFC_EW_RECIPROCAL))
UNOP(un_floor, CF(floor(x)) CH(un_floor, false))
UNOP(un_ceil, CF(ceil(x)) CH(un_ceil, false))
UNOP(un_round, CF(nearbyint(x)) CS(x) CH(un_round, false))
UNOP(un_sin, CF(sin(x)) CH(un_sin, false) CC(TFC_EW_SIN))
UNOP(un_cos, CF(cos(x)) CH(un_cos, false) CC(TFC_EW_COS))
UNOP(un_isnan, CFB(x != x) CH(un_isnan, true))
UNOP(un_isinf, CFB(fabs(x) == (E)INFINITY) CH(un_isinf, true))
UNOP(un_isfinite, CFB(fabs(x) < (E)INFINITY) CH(un_isfinite, true))
UNOP(un_logical_not, CASE(BOOL, uint8_t, uint32_t, uint8_t, x == 0))

const tfc_ew_unary_info tfc_ew_unary_ops[TFC_EW_UNOP_COUNT] = {
    [TFC_EW_NEG] = {un_neg, false, false},
    [TFC_EW_ABS] = {un_abs, false, false},
    [TFC_EW_SQUARE] = {un_square, false, false},
    [TFC_EW_SQRT] = {un_sqrt, false, false},
    [TFC_EW_RSQRT] = {un_rsqrt, false, false},
    [TFC_EW_EXP] = {un_exp, false, true},
    [TFC_EW_EXPM1] = {un_expm1, false, true},
    [TFC_EW_LOG] = {un_log, false, true},
    [TFC_EW_LOG1P] = {un_log1p, false, true},
    [TFC_EW_TANH] = {un_tanh, false, true},
    [TFC_EW_SIGMOID] = {un_sigmoid, false, true},
    [TFC_EW_SIGN] = {un_sign, false, false},
    [TFC_EW_RECIPROCAL] = {un_reciprocal, false, false},
    [TFC_EW_FLOOR] = {un_floor, false, false},
    [TFC_EW_CEIL] = {un_ceil, false, false},
    [TFC_EW_ROUND] = {un_round, false, false},
    [TFC_EW_SIN] = {un_sin, false, true},
    [TFC_EW_COS] = {un_cos, false, true},
    [TFC_EW_ISNAN] = {un_isnan, true, false},
    [TFC_EW_ISINF] = {un_isinf, true, false},
    [TFC_EW_ISFINITE] = {un_isfinite, true, false},
    [TFC_EW_LOGICAL_NOT] = {un_logical_not, true, false},
};

/* ---------------------------------------------------------------- half / bfloat16 */

/* Runs a float unary loop over half/bfloat16 data in TFC_EW_CHUNK pieces. */
int tfc_ew_unary_via_float(tfc_ew_unary_fn fn, tfc_dtype t, const void *x, void *y, int64_t n,
                           bool out_bool) {
  float xb[TFC_EW_CHUNK], yb[TFC_EW_CHUNK];
  const uint16_t *xs = x;
  int err = 0;
  for (int64_t off = 0; off < n; off += TFC_EW_CHUNK) {
    int64_t m = n - off < TFC_EW_CHUNK ? n - off : TFC_EW_CHUNK;
    tfc_ew_widen(t, xs + off, xb, m);
    if (out_bool) {
      err |= fn(TFC_DTYPE_FLOAT, xb, (uint8_t *)y + off, m);
    } else {
      err |= fn(TFC_DTYPE_FLOAT, xb, yb, m);
      tfc_ew_narrow(t, yb, (uint16_t *)y + off, m);
    }
  }
  return err;
}
