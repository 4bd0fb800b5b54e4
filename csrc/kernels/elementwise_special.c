/*
 * elementwise_special.c — the CPU kernels of core/ops_math_special.c:
 * inverse and hyperbolic trigonometry, the error and gamma families, Bessel
 * functions, the binary special functions and the bitwise ops. Each op is a
 * typed loop (float and double; half and bfloat16 through float) run by the
 * family's shared unary / broadcasting binary drivers (elementwise.c).
 * Special functions without a libm counterpart come from special_fns.c and
 * are evaluated in double for every float type.
 */
#include <stdint.h>
#include <tgmath.h>

#include "kernels/elementwise_internal.h"
#include "kernels/kernel_tables.h"
#include "kernels/special_fns.h"

/* ---------------------------------------------------------------- unary loops */

#define UCASE(DT, ET, EXPR)                                                  \
  case TFC_DTYPE_##DT: {                                                     \
    typedef ET E;                                                            \
    const E *restrict xp = x_;                                               \
    E *restrict yp = y_;                                                     \
    for (int64_t i = 0; i < n; i++) {                                        \
      const E x = xp[i];                                                     \
      yp[i] = (E)(EXPR);                                                     \
    }                                                                        \
    return 0;                                                                \
  }

/* Float types: float and double loops, half and bfloat16 through float. */
#define UFLOAT(NAME, EXPR)                                                   \
  static int NAME(tfc_dtype t, const void *x_, void *y_, int64_t n) {        \
    switch (t) {                                                             \
      UCASE(FLOAT, float, EXPR)                                              \
      UCASE(DOUBLE, double, EXPR)                                            \
      case TFC_DTYPE_HALF:                                                   \
      case TFC_DTYPE_BFLOAT16:                                               \
        return tfc_ew_unary_via_float(NAME, t, x_, y_, n, false);            \
      default:                                                               \
        return TFC_EW_ERR_TYPE;                                              \
    }                                                                        \
  }

#define D(x) ((double)(x))

/* J0 / J1 (order n) with TF's edges: NaN at +-inf. */
static double bessel_j(int n, double x) {
  if (isinf(x)) return NAN;
  return n ? j1(x) : j0(x);
}

/* Y0 / Y1 (order n) with TF's edges: NaN at +inf, -inf for x <= 0. */
static double bessel_y(int n, double x) {
  if (isnan(x)) return x;
  if (x == INFINITY) return NAN;
  if (x <= 0) return -INFINITY;
  return n ? y1(x) : y0(x);
}

UFLOAT(un_tan, tan(x))
UFLOAT(un_asin, asin(x))
UFLOAT(un_acos, acos(x))
UFLOAT(un_atan, atan(x))
UFLOAT(un_sinh, sinh(x))
UFLOAT(un_cosh, cosh(x))
UFLOAT(un_asinh, asinh(x))
UFLOAT(un_acosh, acosh(x))
UFLOAT(un_atanh, atanh(x))
UFLOAT(un_erf, erf(x))
UFLOAT(un_erfc, erfc(x))
UFLOAT(un_erfinv, tfc_sf_erfinv(D(x)))
UFLOAT(un_ndtri, tfc_sf_ndtri(D(x)))
UFLOAT(un_lgamma, tfc_sf_lgamma(D(x)))
UFLOAT(un_digamma, tfc_sf_digamma(D(x)))
UFLOAT(un_i0e, tfc_sf_i0e(D(x)))
UFLOAT(un_i1e, tfc_sf_i1e(D(x)))
UFLOAT(un_i0, tfc_sf_i0e(D(x)) * exp(fabs(D(x))))
UFLOAT(un_i1, tfc_sf_i1e(D(x)) * exp(fabs(D(x))))
UFLOAT(un_j0, bessel_j(0, D(x)))
UFLOAT(un_j1, bessel_j(1, D(x)))
UFLOAT(un_y0, bessel_y(0, D(x)))
UFLOAT(un_y1, bessel_y(1, D(x)))

/* Integer types (the bitwise family). */
#define UINTS(NAME, EXPR)                                                    \
  static int NAME(tfc_dtype t, const void *x_, void *y_, int64_t n) {        \
    switch (t) {                                                             \
      UCASE(INT8, int8_t, EXPR)                                              \
      UCASE(INT16, int16_t, EXPR)                                            \
      UCASE(INT32, int32_t, EXPR)                                            \
      UCASE(INT64, int64_t, EXPR)                                            \
      UCASE(UINT8, uint8_t, EXPR)                                            \
      UCASE(UINT16, uint16_t, EXPR)                                          \
      UCASE(UINT32, uint32_t, EXPR)                                          \
      UCASE(UINT64, uint64_t, EXPR)                                          \
      default:                                                               \
        return TFC_EW_ERR_TYPE;                                              \
    }                                                                        \
  }

UINTS(un_invert, ~x)

/* ---------------------------------------------------------------- binary loops */

#define BCASE(DT, ET, UT, EXPR)                                              \
  case TFC_DTYPE_##DT: {                                                     \
    typedef ET E;                                                            \
    typedef ET O;                                                            \
    typedef UT U;                                                            \
    (void)sizeof(U);                                                         \
    const E *restrict xp = x_;                                               \
    const E *restrict yp = y_;                                               \
    O *restrict zp = z_;                                                     \
    TFC_EW_LOOP3(EXPR)                                                       \
    return 0;                                                                \
  }

#define BFLOAT(NAME, EXPR)                                                   \
  static int NAME(tfc_dtype t, const void *x_, const void *y_, void *z_, int64_t n, \
                  int mode) {                                                \
    switch (t) {                                                             \
      BCASE(FLOAT, float, uint32_t, EXPR)                                    \
      BCASE(DOUBLE, double, uint64_t, EXPR)                                  \
      case TFC_DTYPE_HALF:                                                   \
      case TFC_DTYPE_BFLOAT16:                                               \
        return tfc_ew_binary_via_float(NAME, t, x_, y_, z_, n, mode, false); \
      default:                                                               \
        return TFC_EW_ERR_TYPE;                                              \
    }                                                                        \
  }

BFLOAT(bin_atan2, atan2(x, y))
BFLOAT(bin_igamma, tfc_sf_igamma(D(x), D(y)))
BFLOAT(bin_igammac, tfc_sf_igammac(D(x), D(y)))
BFLOAT(bin_zeta, tfc_sf_zeta(D(x), D(y)))
BFLOAT(bin_polygamma, tfc_sf_polygamma(D(x), D(y)))
BFLOAT(bin_xlog1py, x == 0 ? (E)0 : x * log1p(y))
BFLOAT(bin_nextafter, nextafter(x, y))
UFLOAT(un_k0, tfc_sf_bessel_k(0, false, D(x)))
UFLOAT(un_k0e, tfc_sf_bessel_k(0, true, D(x)))
UFLOAT(un_k1, tfc_sf_bessel_k(1, false, D(x)))
UFLOAT(un_k1e, tfc_sf_bessel_k(1, true, D(x)))
UFLOAT(un_dawsn, tfc_sf_dawsn(D(x)))
UFLOAT(un_expint, tfc_sf_expint(D(x)))
UFLOAT(un_fresnel_cos, tfc_sf_fresnel(D(x), true))
UFLOAT(un_fresnel_sin, tfc_sf_fresnel(D(x), false))
UFLOAT(un_spence, tfc_sf_spence(D(x)))
BFLOAT(bin_random_gamma_grad, tfc_sf_igamma_der(D(x), D(y), true))
BFLOAT(bin_igamma_grad_a, tfc_sf_igamma_der(D(x), D(y), false))

/* A shift count v (negative counts passed as 0) clamped to [0, bits), as TF does. */
static inline uint64_t shift_count(uint64_t v, uint64_t bits) { return v >= bits ? bits - 1 : v; }
#define SHIFT_COUNT(y) shift_count((y) > 0 ? (uint64_t)(y) : 0, sizeof(E) * 8)

#define BINTS(NAME, EXPR)                                                    \
  static int NAME(tfc_dtype t, const void *x_, const void *y_, void *z_, int64_t n, \
                  int mode) {                                                \
    switch (t) {                                                             \
      BCASE(INT8, int8_t, uint8_t, EXPR)                                     \
      BCASE(INT16, int16_t, uint16_t, EXPR)                                  \
      BCASE(INT32, int32_t, uint32_t, EXPR)                                  \
      BCASE(INT64, int64_t, uint64_t, EXPR)                                  \
      BCASE(UINT8, uint8_t, uint8_t, EXPR)                                   \
      BCASE(UINT16, uint16_t, uint16_t, EXPR)                                \
      BCASE(UINT32, uint32_t, uint32_t, EXPR)                                \
      BCASE(UINT64, uint64_t, uint64_t, EXPR)                                \
      default:                                                               \
        return TFC_EW_ERR_TYPE;                                              \
    }                                                                        \
  }

BINTS(bin_and, x & y)
BINTS(bin_or, x | y)
BINTS(bin_xor, x ^ y)
BINTS(bin_lshift, (E)(U)((U)x << SHIFT_COUNT(y)))
BINTS(bin_rshift, (E)(x >> SHIFT_COUNT(y)))

/* ---------------------------------------------------------------- kernels */

/* k_<name>(ctx): runs loop <fn> through the shared unary or binary driver. */
#define UN_K(name, fn)                                                       \
  static void k_##name(tfc_kernel_ctx *ctx) {                                \
    static const tfc_ew_unary_info info = {fn, false, true};                 \
    tfc_ew_unary_kernel(ctx, &info);                                         \
  }
#define BIN_K(name, fn)                                                      \
  static void k_##name(tfc_kernel_ctx *ctx) {                                \
    static const tfc_ew_binary_info info = {fn, false, true};                \
    tfc_ew_binary_kernel(ctx, &info);                                        \
  }
#define BIT_UN_K(name, fn)                                                   \
  static void k_##name(tfc_kernel_ctx *ctx) {                                \
    static const tfc_ew_unary_info info = {fn, false, false};                \
    tfc_ew_unary_kernel(ctx, &info);                                         \
  }
#define BIT_BIN_K(name, fn)                                                  \
  static void k_##name(tfc_kernel_ctx *ctx) {                                \
    static const tfc_ew_binary_info info = {fn, false, false};               \
    tfc_ew_binary_kernel(ctx, &info);                                        \
  }

UN_K(Tan, un_tan)
UN_K(Asin, un_asin)
UN_K(Acos, un_acos)
UN_K(Atan, un_atan)
UN_K(Sinh, un_sinh)
UN_K(Cosh, un_cosh)
UN_K(Asinh, un_asinh)
UN_K(Acosh, un_acosh)
UN_K(Atanh, un_atanh)
UN_K(Erf, un_erf)
UN_K(Erfc, un_erfc)
UN_K(Erfinv, un_erfinv)
UN_K(Ndtri, un_ndtri)
UN_K(Lgamma, un_lgamma)
UN_K(Digamma, un_digamma)
UN_K(BesselI0, un_i0)
UN_K(BesselI1, un_i1)
UN_K(BesselI0e, un_i0e)
UN_K(BesselI1e, un_i1e)
UN_K(BesselJ0, un_j0)
UN_K(BesselJ1, un_j1)
UN_K(BesselY0, un_y0)
UN_K(BesselY1, un_y1)
BIN_K(Atan2, bin_atan2)
BIN_K(Igamma, bin_igamma)
BIN_K(Igammac, bin_igammac)
BIN_K(Zeta, bin_zeta)
BIN_K(Polygamma, bin_polygamma)
BIN_K(Xlog1py, bin_xlog1py)
BIN_K(NextAfter, bin_nextafter)
BIN_K(RandomGammaGrad, bin_random_gamma_grad)
UN_K(BesselK0, un_k0)
UN_K(BesselK0e, un_k0e)
UN_K(BesselK1, un_k1)
UN_K(BesselK1e, un_k1e)
UN_K(Dawsn, un_dawsn)
UN_K(Expint, un_expint)
UN_K(FresnelCos, un_fresnel_cos)
UN_K(FresnelSin, un_fresnel_sin)
UN_K(Spence, un_spence)
BIN_K(IgammaGradA, bin_igamma_grad_a)
BIT_BIN_K(BitwiseAnd, bin_and)
BIT_BIN_K(BitwiseOr, bin_or)
BIT_BIN_K(BitwiseXor, bin_xor)
BIT_BIN_K(LeftShift, bin_lshift)
BIT_BIN_K(RightShift, bin_rshift)
BIT_UN_K(Invert, un_invert)

static const tfc_dtype t_float[] = {TFC_DTYPE_FLOAT, TFC_DTYPE_DOUBLE, TFC_DTYPE_HALF,
                                    TFC_DTYPE_BFLOAT16, TFC_DTYPE_INVALID};
static const tfc_dtype t_fd[] = {TFC_DTYPE_FLOAT, TFC_DTYPE_DOUBLE, TFC_DTYPE_INVALID};
static const tfc_dtype t_bits[] = {TFC_DTYPE_INT8,   TFC_DTYPE_INT16,  TFC_DTYPE_INT32,
                                   TFC_DTYPE_INT64,  TFC_DTYPE_UINT8,  TFC_DTYPE_UINT16,
                                   TFC_DTYPE_UINT32, TFC_DTYPE_UINT64, TFC_DTYPE_INVALID};

#define KT(Name, TYPES) {#Name, "CPU", "T", TYPES, NULL, k_##Name, NULL, 0}

static const tfc_kernel_def defs[] = {
    KT(Tan, t_float),       KT(Asin, t_float),      KT(Acos, t_float),
    KT(Atan, t_float),      KT(Sinh, t_float),      KT(Cosh, t_float),
    KT(Asinh, t_float),     KT(Acosh, t_float),     KT(Atanh, t_float),
    KT(Erf, t_float),       KT(Erfc, t_float),      KT(Erfinv, t_float),
    KT(Ndtri, t_float),     KT(Lgamma, t_float),    KT(Digamma, t_float),
    KT(BesselI0, t_float),  KT(BesselI1, t_float),  KT(BesselI0e, t_float),
    KT(BesselI1e, t_float), KT(BesselJ0, t_float),  KT(BesselJ1, t_float),
    KT(BesselY0, t_float),  KT(BesselY1, t_float),  KT(Atan2, t_float),
    KT(Igamma, t_float),    KT(Igammac, t_float),   KT(Zeta, t_fd),
    KT(Polygamma, t_fd),    KT(Xlog1py, t_float),   KT(NextAfter, t_fd),
    KT(BitwiseAnd, t_bits), KT(BitwiseOr, t_bits),  KT(BitwiseXor, t_bits),
    KT(LeftShift, t_bits),  KT(RightShift, t_bits), KT(Invert, t_bits),
    KT(RandomGammaGrad, t_fd), KT(IgammaGradA, t_fd),
    KT(BesselK0, t_float),  KT(BesselK0e, t_float), KT(BesselK1, t_float),
    KT(BesselK1e, t_float), KT(Dawsn, t_float),     KT(Expint, t_float),
    KT(FresnelCos, t_float), KT(FresnelSin, t_float), KT(Spence, t_float),
};

const tfc_kernel_table tfc_kernels_math_special = {defs, (int)(sizeof defs / sizeof defs[0])};
