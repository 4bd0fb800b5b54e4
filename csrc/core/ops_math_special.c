/*
 * ops_math_special.c — op definitions of the elementwise math ops beyond the
 * basic family (ops_math.c): inverse and hyperbolic trigonometry, the error
 * and gamma function families, Bessel functions, broadcasting binary special
 * functions (Atan2, Igamma, Igammac, Zeta, Polygamma, Xlog1py, NextAfter)
 * and the bitwise ops. Names, argument names, attrs and allowed types are
 * TensorFlow's OpDefs; kernels are in kernels/elementwise_special.c.
 */
#include "core/op_registry.h"
#include "core/op_tables.h"

#define T_REAL "T: {bfloat16, half, float, double}"
#define T_FLOAT_C "T: {bfloat16, half, float, double, complex64, complex128}"
#define T_BITS "T: {int8, int16, int32, int64, uint8, uint16, uint32, uint64}"

#define UNARY(NAME, ATTRS) {NAME, "x: T", "y: T", ATTRS, 0, tfc_shape_fn_unchanged}
#define BINARY(NAME, ARGS, OUT, ATTRS, FLAGS) {NAME, ARGS, OUT, ATTRS, FLAGS, tfc_shape_fn_broadcast}

/* Betainc: a, b and x share one shape where they are not scalars. */
static bool shape_betainc(tfc_shape_ctx *ctx) {
  tfc_shape merged = tfc_shape_unknown();
  bool have = false;
  for (int i = 0; i < 3; i++) {
    const tfc_shape *s = &ctx->in_shapes[i];
    if (s->rank == 0) continue;
    if (s->rank < 0) continue;
    if (!have) {
      merged = *s;
      have = true;
      continue;
    }
    if (s->rank != merged.rank)
      return tfc_shape_fail(ctx, "Shapes must be equal rank, but are %d and %d", merged.rank,
                            s->rank);
    for (int d = 0; d < s->rank; d++) {
      if (merged.dims[d] >= 0 && s->dims[d] >= 0 && merged.dims[d] != s->dims[d])
        return tfc_shape_fail(ctx, "Dimension %d in both shapes must be equal, but are %lld and "
                              "%lld", d, (long long)merged.dims[d], (long long)s->dims[d]);
      if (merged.dims[d] < 0) merged.dims[d] = s->dims[d];
    }
  }
  bool all_scalar = true;
  for (int i = 0; i < 3; i++) all_scalar = all_scalar && ctx->in_shapes[i].rank == 0;
  ctx->out_shapes[0] = all_scalar ? tfc_shape_scalar() : merged;
  return true;
}

static const tfc_op_spec specs[] = {
    /* Inverse and hyperbolic trigonometry. */
    UNARY("Tan", T_FLOAT_C),
    UNARY("Asin", T_FLOAT_C),
    UNARY("Acos", T_FLOAT_C),
    UNARY("Atan", T_FLOAT_C),
    UNARY("Sinh", T_FLOAT_C),
    UNARY("Cosh", T_FLOAT_C),
    UNARY("Asinh", T_FLOAT_C),
    UNARY("Acosh", T_FLOAT_C),
    UNARY("Atanh", T_FLOAT_C),

    /* Error and gamma function families. */
    UNARY("Erf", T_REAL),
    UNARY("Erfc", T_REAL),
    UNARY("Erfinv", T_REAL),
    UNARY("Ndtri", T_REAL),
    UNARY("Lgamma", T_REAL),
    UNARY("Digamma", T_REAL),

    /* Bessel functions. */
    UNARY("BesselI0", T_REAL),
    UNARY("BesselI1", T_REAL),
    UNARY("BesselI0e", T_REAL),
    UNARY("BesselI1e", T_REAL),
    UNARY("BesselJ0", T_REAL),
    UNARY("BesselJ1", T_REAL),
    UNARY("BesselY0", T_REAL),
    UNARY("BesselY1", T_REAL),
    UNARY("BesselK0", T_REAL),
    UNARY("BesselK0e", T_REAL),
    UNARY("BesselK1", T_REAL),
    UNARY("BesselK1e", T_REAL),
    /* Dawson, exponential, Fresnel integrals and Spence's function. */
    UNARY("Dawsn", T_REAL),
    UNARY("Expint", T_REAL),
    UNARY("FresnelCos", T_REAL),
    UNARY("FresnelSin", T_REAL),
    UNARY("Spence", T_REAL),

    /* Broadcasting binary special functions. */
    BINARY("Atan2", "y: T; x: T", "z: T", T_REAL, 0),
    BINARY("Igamma", "a: T; x: T", "z: T", T_REAL, 0),
    BINARY("Igammac", "a: T; x: T", "z: T", T_REAL, 0),
    BINARY("Zeta", "x: T; q: T", "z: T", "T: {float, double}", 0),
    BINARY("Polygamma", "a: T; x: T", "z: T", "T: {float, double}", 0),
    BINARY("Xlog1py", "x: T; y: T", "z: T", T_FLOAT_C, 0),
    BINARY("NextAfter", "x1: T; x2: T", "output: T", "T: {double, float} = float", 0),
    {"Betainc", "a: T; b: T; x: T", "z: T", "T: {float, double}", 0, shape_betainc},
    /* Derivatives in a of igamma(a, x) and of a Gamma(a, 1) sample x. */
    BINARY("IgammaGradA", "a: T; x: T", "z: T", "T: {float, double}", 0),
    BINARY("RandomGammaGrad", "alpha: T; sample: T", "output: T", "T: {float, double}", 0),

    /* Bitwise ops on integers. */
    BINARY("BitwiseAnd", "x: T; y: T", "z: T", T_BITS, TFC_OP_COMMUTATIVE),
    BINARY("BitwiseOr", "x: T; y: T", "z: T", T_BITS, TFC_OP_COMMUTATIVE),
    BINARY("BitwiseXor", "x: T; y: T", "z: T", T_BITS, TFC_OP_COMMUTATIVE),
    BINARY("LeftShift", "x: T; y: T", "z: T", T_BITS, 0),
    BINARY("RightShift", "x: T; y: T", "z: T", T_BITS, 0),
    UNARY("Invert", T_BITS),
};

const tfc_op_table tfc_ops_math_special = {specs, (int)(sizeof specs / sizeof specs[0])};
