/*
 * elementwise_binary.c — typed inner loops of the arithmetic binary ops
 * (Add ... DivNoNan) and of the *Grad helpers, as a dtype × op matrix written
 * once per op with macros; and the chunked half/bfloat16-through-float runner.
 *
 * Integer arithmetic that may overflow goes through the unsigned type U so it
 * wraps like TF (two's complement) without undefined behaviour; integer
 * division by zero and negative integer powers set an error bit instead of
 * trapping.
 */
#include <stdint.h>
#include <tgmath.h>

#include "kernels/elementwise_internal.h"

/* ---------------------------------------------------------------- scalar helpers */

/* Python-style floor division of signed integers; y != 0. INT_MIN / -1 wraps. */
static inline int64_t floordiv_i64(int64_t x, int64_t y) {
  if (y == -1) return (int64_t)(0 - (uint64_t)x);
  int64_t q = x / y, r = x % y;
  return (r != 0 && ((r < 0) != (y < 0))) ? q - 1 : q;
}

/* Python-style modulo of signed integers (sign of y); y != 0. */
static inline int64_t floormod_i64(int64_t x, int64_t y) {
  if (y == -1) return 0;
  int64_t r = x % y;
  return (r != 0 && ((r < 0) != (y < 0))) ? r + y : r;
}

/* Python-style float modulo (sign of y), from fmod as TF's floor_fmod does. */
static inline float floormod_f32(float x, float y) {
  float r = fmodf(x, y);
  return (r != 0 && ((r < 0) != (y < 0))) ? r + y : r;
}
/* Double version of floormod_f32. */
static inline double floormod_f64(double x, double y) {
  double r = fmod(x, y);
  return (r != 0 && ((r < 0) != (y < 0))) ? r + y : r;
}
#define FLOORMOD_F(x, y) _Generic((x), float: floormod_f32, default: floormod_f64)(x, y)

/* x**y by squaring in wrapping unsigned arithmetic; y >= 0. */
static inline uint64_t ipow_u64(uint64_t x, uint64_t y) {
  uint64_t r = 1;
  while (y) {
    if (y & 1) r *= x;
    x *= x;
    y >>= 1;
  }
  return r;
}

/* ---------------------------------------------------------------- half / bfloat16 */

/* FloorDiv / TruncateDiv on half and bfloat16: TF rounds the quotient to the
 * narrow type before flooring / truncating, which can land on the next
 * integer; doing the same keeps results identical. */
static int div_round_narrow(tfc_dtype t, const void *x, const void *y, void *z, int64_t n,
                            int mode, bool use_floor) {
  float xb[TFC_EW_CHUNK], yb[TFC_EW_CHUNK], qb[TFC_EW_CHUNK];
  uint16_t nb[TFC_EW_CHUNK];
  const uint16_t *xs = x, *ys = y;
  if (mode == TFC_EW_SV) tfc_ew_widen(t, xs, xb, 1);
  if (mode == TFC_EW_VS) tfc_ew_widen(t, ys, yb, 1);
  for (int64_t off = 0; off < n; off += TFC_EW_CHUNK) {
    int64_t m = n - off < TFC_EW_CHUNK ? n - off : TFC_EW_CHUNK;
    if (mode != TFC_EW_SV) tfc_ew_widen(t, xs + off, xb, m);
    if (mode != TFC_EW_VS) tfc_ew_widen(t, ys + off, yb, m);
    for (int64_t i = 0; i < m; i++)
      qb[i] = xb[mode == TFC_EW_SV ? 0 : i] / yb[mode == TFC_EW_VS ? 0 : i];
    tfc_ew_narrow(t, qb, nb, m);
    tfc_ew_widen(t, nb, qb, m);
    for (int64_t i = 0; i < m; i++) qb[i] = use_floor ? floorf(qb[i]) : truncf(qb[i]);
    tfc_ew_narrow(t, qb, (uint16_t *)z + off, m);
  }
  return 0;
}

/* ---------------------------------------------------------------- loop macros */

#define CASE(DT, ET, UT, EXPR)                                               \
  case TFC_DTYPE_##DT: {                                                     \
    typedef ET E;                                                            \
    typedef UT U;                                                            \
    typedef ET O;                                                            \
    (void)sizeof(U);                                                         \
    const E *restrict xp = x_;                                               \
    const E *restrict yp = y_;                                               \
    O *restrict zp = z_;                                                     \
    int bad = 0;                                                             \
    TFC_EW_LOOP3(EXPR)                                                       \
    return bad;                                                              \
  }

/* Type groups: float/double, signed ints, unsigned ints, half/bfloat16. */
#define CF(EXPR) CASE(FLOAT, float, uint32_t, EXPR) CASE(DOUBLE, double, uint64_t, EXPR)
#define CS(EXPR)                                                                             \
  CASE(INT8, int8_t, uint32_t, EXPR) CASE(INT16, int16_t, uint32_t, EXPR)                    \
  CASE(INT32, int32_t, uint32_t, EXPR) CASE(INT64, int64_t, uint64_t, EXPR)
#define CU(EXPR)                                                                             \
  CASE(UINT8, uint8_t, uint32_t, EXPR) CASE(UINT16, uint16_t, uint32_t, EXPR)                \
  CASE(UINT32, uint32_t, uint32_t, EXPR) CASE(UINT64, uint64_t, uint64_t, EXPR)
#define CH(NAME)                                                                             \
  case TFC_DTYPE_HALF:                                                                       \
  case TFC_DTYPE_BFLOAT16:                                                                   \
    return tfc_ew_binary_via_float(NAME, t, x_, y_, z_, n, mode, false);

#define CHDIV(USE_FLOOR)                                                                     \
  case TFC_DTYPE_HALF:                                                                       \
  case TFC_DTYPE_BFLOAT16:                                                                   \
    return div_round_narrow(t, x_, y_, z_, n, mode, USE_FLOOR);

/* complex64/complex128: the loop of op id OP in elementwise_complex.c. */
#define CC(OP)                                                                               \
  case TFC_DTYPE_COMPLEX64:                                                                  \
  case TFC_DTYPE_COMPLEX128:                                                                 \
    return tfc_ew_complex_binary(OP, t, x_, y_, z_, n, mode);

/* Defines `static int NAME(t, x, y, z, n, mode)` switching over CASES. */
#define BINOP(NAME, CASES)                                                                   \
  static int NAME(tfc_dtype t, const void *x_, const void *y_, void *z_, int64_t n,          \
                  int mode) {                                                                \
    switch (t) {                                                                             \
      CASES                                                                                  \
      default:                                                                               \
        return TFC_EW_ERR_TYPE;                                                              \
    }                                                                                        \
  }

/* Wrapping integer expressions. */
#define WRAP(e) ((E)(e))
#define DIV0 (bad |= TFC_EW_ERR_DIV0, (E)0)

/* ---------------------------------------------------------------- ops */

BINOP(bin_add, CF(x + y) CS(WRAP((U)x + (U)y)) CU(WRAP((U)x + (U)y)) CH(bin_add) CC(TFC_EW_ADD))
BINOP(bin_sub, CF(x - y) CS(WRAP((U)x - (U)y)) CU(WRAP((U)x - (U)y)) CH(bin_sub) CC(TFC_EW_SUB))
BINOP(bin_mul, CF(x * y) CS(WRAP((U)x * (U)y)) CU(WRAP((U)x * (U)y)) CH(bin_mul) CC(TFC_EW_MUL))
BINOP(bin_div, CF(x / y)
      CS(y == 0 ? DIV0 : y == -1 ? WRAP(0 - (U)x) : (E)(x / y))
      CU(y == 0 ? DIV0 : (E)(x / y)) CH(bin_div) CC(TFC_EW_DIV))
BINOP(bin_realdiv, CF(x / y) CH(bin_realdiv) CC(TFC_EW_REALDIV))
BINOP(bin_floordiv, CF(floor(x / y))
      CS(y == 0 ? DIV0 : (E)floordiv_i64(x, y))
      CU(y == 0 ? DIV0 : (E)(x / y)) CHDIV(true))
BINOP(bin_floormod, CF(FLOORMOD_F(x, y))
      CS(y == 0 ? DIV0 : (E)floormod_i64(x, y))
      CU(y == 0 ? DIV0 : (E)(x % y)) CH(bin_floormod))
BINOP(bin_truncdiv, CF(trunc(x / y))
      CS(y == 0 ? DIV0 : y == -1 ? WRAP(0 - (U)x) : (E)(x / y))
      CU(y == 0 ? DIV0 : (E)(x / y)) CHDIV(false))
BINOP(bin_truncmod, CF(fmod(x, y))
      CS(y == 0 ? DIV0 : y == -1 ? (E)0 : (E)(x % y))
      CU(y == 0 ? DIV0 : (E)(x % y)) CH(bin_truncmod))
BINOP(bin_pow, CF(pow(x, y))
      CS(y < 0 ? (bad |= TFC_EW_ERR_NEGPOW, (E)0) : WRAP(ipow_u64((uint64_t)x, (uint64_t)y)))
      CU(WRAP(ipow_u64(x, y))) CH(bin_pow) CC(TFC_EW_POW))
BINOP(bin_maximum, CF(x != x ? x : (x > y ? x : y)) CS(x > y ? x : y) CU(x > y ? x : y)
      CH(bin_maximum))
BINOP(bin_minimum, CF(x != x ? x : (x < y ? x : y)) CS(x < y ? x : y) CU(x < y ? x : y)
      CH(bin_minimum))
BINOP(bin_sqdiff, CF((x - y) * (x - y)) CS(WRAP(((U)x - (U)y) * ((U)x - (U)y)))
      CU(WRAP(((U)x - (U)y) * ((U)x - (U)y))) CH(bin_sqdiff) CC(TFC_EW_SQDIFF))
BINOP(bin_divnonan, CF(y == 0 ? (E)0 : x / y) CH(bin_divnonan) CC(TFC_EW_DIVNONAN))

/* Gradient helpers: x is the op's output y, y is the incoming gradient dy. */
BINOP(bin_sigmoid_grad, CF(y * x * ((E)1 - x)) CH(bin_sigmoid_grad) CC(TFC_EW_SIGMOID_GRAD))
BINOP(bin_tanh_grad, CF(y * ((E)1 - x * x)) CH(bin_tanh_grad) CC(TFC_EW_TANH_GRAD))
BINOP(bin_sqrt_grad, CF((E)0.5 * y / x) CH(bin_sqrt_grad) CC(TFC_EW_SQRT_GRAD))
BINOP(bin_rsqrt_grad, CF((E)-0.5 * (y * x) * (x * x)) CH(bin_rsqrt_grad) CC(TFC_EW_RSQRT_GRAD))
BINOP(bin_reciprocal_grad, CF(-y * x * x) CH(bin_reciprocal_grad) CC(TFC_EW_RECIPROCAL_GRAD))

const tfc_ew_binary_info tfc_ew_arith_ops[TFC_EW_BINOP_COUNT] = {
    [TFC_EW_ADD] = {bin_add, false, false},
    [TFC_EW_SUB] = {bin_sub, false, false},
    [TFC_EW_MUL] = {bin_mul, false, false},
    [TFC_EW_DIV] = {bin_div, false, true},
    [TFC_EW_REALDIV] = {bin_realdiv, false, false},
    [TFC_EW_FLOORDIV] = {bin_floordiv, false, true},
    [TFC_EW_FLOORMOD] = {bin_floormod, false, true},
    [TFC_EW_TRUNCDIV] = {bin_truncdiv, false, true},
    [TFC_EW_TRUNCMOD] = {bin_truncmod, false, true},
    [TFC_EW_POW] = {bin_pow, false, true},
    [TFC_EW_MAXIMUM] = {bin_maximum, false, false},
    [TFC_EW_MINIMUM] = {bin_minimum, false, false},
    [TFC_EW_SQDIFF] = {bin_sqdiff, false, false},
    [TFC_EW_DIVNONAN] = {bin_divnonan, false, false},
    [TFC_EW_SIGMOID_GRAD] = {bin_sigmoid_grad, false, false},
    [TFC_EW_TANH_GRAD] = {bin_tanh_grad, false, false},
    [TFC_EW_SQRT_GRAD] = {bin_sqrt_grad, false, false},
    [TFC_EW_RSQRT_GRAD] = {bin_rsqrt_grad, false, false},
    [TFC_EW_RECIPROCAL_GRAD] = {bin_reciprocal_grad, false, false},
};

/* ---------------------------------------------------------------- half / bfloat16 runner */

/* Runs a float binary loop over half/bfloat16 data in TFC_EW_CHUNK pieces. */
int tfc_ew_binary_via_float(tfc_ew_binary_fn fn, tfc_dtype t, const void *x, const void *y,
                            void *z, int64_t n, int mode, bool out_bool) {
  float xb[TFC_EW_CHUNK], yb[TFC_EW_CHUNK], zb[TFC_EW_CHUNK];
  const uint16_t *xs = x, *ys = y;
  int err = 0;
  if (mode == TFC_EW_SV) tfc_ew_widen(t, xs, xb, 1);
  if (mode == TFC_EW_VS) tfc_ew_widen(t, ys, yb, 1);
  for (int64_t off = 0; off < n; off += TFC_EW_CHUNK) {
    int64_t m = n - off < TFC_EW_CHUNK ? n - off : TFC_EW_CHUNK;
    if (mode != TFC_EW_SV) tfc_ew_widen(t, xs + off, xb, m);
    if (mode != TFC_EW_VS) tfc_ew_widen(t, ys + off, yb, m);
    if (out_bool) {
      err |= fn(TFC_DTYPE_FLOAT, xb, yb, (uint8_t *)z + off, m, mode);
    } else {
      err |= fn(TFC_DTYPE_FLOAT, xb, yb, zb, m, mode);
      tfc_ew_narrow(t, zb, (uint16_t *)z + off, m);
    }
  }
  return err;
}
