/*
 * ops_complex.c — op definitions of the complex-number ops of TF's
 * math_ops.cc: Complex (build from real and imaginary parts, broadcasting),
 * Real, Imag, Angle, ComplexAbs (complex -> real parts), Conj and
 * ConjugateTranspose, with TF's attrs, defaults and allowed types. Kernels:
 * kernels/complex.c.
 */
#include "core/op_registry.h"
#include "core/op_tables.h"
#include "core/shape_fns_array.h"

/* complex -> real, element by element (Real, Imag, Angle). */
#define TO_REAL(NAME, IN, OUT)                                                              \
  {NAME, IN ": T", OUT ": Tout",                                                            \
   "T: {complex64, complex128} = complex64; Tout: {float, double} = float", 0,              \
   tfc_shape_fn_unchanged}

static const tfc_op_spec specs[] = {
    {"Complex", "real: T; imag: T", "out: Tout",
     "T: {float, double} = float; Tout: {complex64, complex128} = complex64", 0,
     tfc_shape_fn_broadcast},
    TO_REAL("Real", "input", "output"),
    TO_REAL("Imag", "input", "output"),
    TO_REAL("Angle", "input", "output"),
    TO_REAL("ComplexAbs", "x", "y"),
    {"Conj", "input: T", "output: T", "T: {complex64, complex128, variant} = complex64", 0,
     tfc_shape_fn_unchanged},
    {"ConjugateTranspose", "x: T; perm: Tperm", "y: T", "T: type; Tperm: {int32, int64} = int32",
     0, tfc_shape_fn_transpose},
};

const tfc_op_table tfc_ops_complex = {specs, (int)(sizeof specs / sizeof specs[0])};
