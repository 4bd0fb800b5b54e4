/*
 * elementwise_compare.c — typed inner loops of the comparisons (Equal ...
 * GreaterEqual) and of LogicalAnd / LogicalOr: T × T → bool. Bool tensors are
 * bytes holding 0 or 1. Strings are compared by the kernel, not here.
 */
#include <stdint.h>

#include "kernels/elementwise_internal.h"

#define CASE(DT, ET, EXPR)                                                   \
  case TFC_DTYPE_##DT: {                                                     \
    typedef ET E;                                                            \
    typedef uint8_t O;                                                       \
    const E *restrict xp = x_;                                               \
    const E *restrict yp = y_;                                               \
    O *restrict zp = z_;                                                     \
    TFC_EW_LOOP3(EXPR)                                                       \
    return 0;                                                                \
  }

/* Every real type plus (for equality) bool; half/bfloat16 compare as floats. */
#define CREAL(EXPR)                                                                          \
  CASE(FLOAT, float, EXPR) CASE(DOUBLE, double, EXPR) CASE(INT8, int8_t, EXPR)               \
  CASE(INT16, int16_t, EXPR) CASE(INT32, int32_t, EXPR) CASE(INT64, int64_t, EXPR)           \
  CASE(UINT8, uint8_t, EXPR) CASE(UINT16, uint16_t, EXPR) CASE(UINT32, uint32_t, EXPR)       \
  CASE(UINT64, uint64_t, EXPR)
#define CH(NAME)                                                                             \
  case TFC_DTYPE_HALF:                                                                       \
  case TFC_DTYPE_BFLOAT16:                                                                   \
    return tfc_ew_binary_via_float(NAME, t, x_, y_, z_, n, mode, true);

/* complex64/complex128 equality: the loop in elementwise_complex.c. */
#define CC(OP)                                                                               \
  case TFC_DTYPE_COMPLEX64:                                                                  \
  case TFC_DTYPE_COMPLEX128:                                                                 \
    return tfc_ew_complex_binary(OP, t, x_, y_, z_, n, mode);

#define CMPOP(NAME, CASES)                                                                   \
  static int NAME(tfc_dtype t, const void *x_, const void *y_, void *z_, int64_t n,          \
                  int mode) {                                                                \
    switch (t) {                                                                             \
      CASES                                                                                  \
      default:                                                                               \
        return TFC_EW_ERR_TYPE;                                                              \
    }                                                                                        \
  }

CMPOP(cmp_equal, CREAL(x == y) CASE(BOOL, uint8_t, (x != 0) == (y != 0)) CH(cmp_equal)
      CC(TFC_EW_EQUAL))
CMPOP(cmp_not_equal, CREAL(x != y) CASE(BOOL, uint8_t, (x != 0) != (y != 0))
      CH(cmp_not_equal) CC(TFC_EW_NOT_EQUAL))
CMPOP(cmp_less, CREAL(x < y) CH(cmp_less))
CMPOP(cmp_less_equal, CREAL(x <= y) CH(cmp_less_equal))
CMPOP(cmp_greater, CREAL(x > y) CH(cmp_greater))
CMPOP(cmp_greater_equal, CREAL(x >= y) CH(cmp_greater_equal))
CMPOP(logical_and, CASE(BOOL, uint8_t, (x != 0) & (y != 0)))
CMPOP(logical_or, CASE(BOOL, uint8_t, (x != 0) | (y != 0)))

const tfc_ew_binary_info tfc_ew_compare_ops[TFC_EW_BINOP_COUNT] = {
    [TFC_EW_EQUAL] = {cmp_equal, true, false},
    [TFC_EW_NOT_EQUAL] = {cmp_not_equal, true, false},
    [TFC_EW_LESS] = {cmp_less, true, false},
    [TFC_EW_LESS_EQUAL] = {cmp_less_equal, true, false},
    [TFC_EW_GREATER] = {cmp_greater, true, false},
    [TFC_EW_GREATER_EQUAL] = {cmp_greater_equal, true, false},
    [TFC_EW_LOGICAL_AND] = {logical_and, true, false},
    [TFC_EW_LOGICAL_OR] = {logical_or, true, false},
};
