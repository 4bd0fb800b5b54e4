/*
 * ops_spectral.c — op definitions of TF's FFT ops (spectral_ops.cc): FFT,
 * IFFT, FFT2D, IFFT2D, FFT3D, IFFT3D on complex tensors, and the real forms
 * RFFT, IRFFT, RFFT2D, IRFFT2D, RFFT3D, IRFFT3D with their fft_length input,
 * with TF's attrs, defaults and shape rules. Kernels: kernels/fft_ops.c.
 */
#include "core/op_registry.h"
#include "core/op_tables.h"

/* The transform rank of an FFT op: the digit in "FFT2D"/"IRFFT3D", else 1. */
static int fft_rank(const tfc_shape_ctx *ctx) {
  const char *n = ctx->def->name;
  for (; *n; n++)
    if (*n >= '1' && *n <= '9') return *n - '0';
  return 1;
}

/* Complex FFTs: the output has the input's shape, of rank >= the transform rank. */
static bool fft_shape(tfc_shape_ctx *ctx) {
  const tfc_shape *in = &ctx->in_shapes[0];
  if (!tfc_shape_rank_at_least(ctx, in, fft_rank(ctx))) return false;
  ctx->out_shapes[0] = *in;
  return true;
}

/* Real FFTs: the innermost `rank` dims become fft_length (its last entry
 * halved plus one for the forward transforms) when fft_length is constant,
 * unknown otherwise; fft_length is a vector of `rank` entries. */
static bool rfft_shape(tfc_shape_ctx *ctx) {
  int k = fft_rank(ctx);
  const tfc_shape *in = &ctx->in_shapes[0];
  if (!tfc_shape_rank_at_least(ctx, in, k)) return false;
  const tfc_shape *len_shape = &ctx->in_shapes[1];
  if (!tfc_shape_rank_is(ctx, len_shape, 1)) return false;
  if (len_shape->rank == 1 && len_shape->dims[0] >= 0 && len_shape->dims[0] != k)
    return tfc_shape_fail(ctx, "Dimension must be %d but is %lld", k,
                          (long long)len_shape->dims[0]);
  if (in->rank < 0) return true;
  tfc_shape out = *in;
  tfc_shape lens;
  bool known = tfc_shape_from_const_input(ctx, 1, &lens) && lens.rank == k;
  bool forward = ctx->def->name[0] == 'R';
  for (int i = 0; i < k; i++) {
    int64_t d = known ? lens.dims[i] : -1;
    if (d >= 0 && forward && i == k - 1) d = d / 2 + 1;
    out.dims[in->rank - k + i] = d;
  }
  ctx->out_shapes[0] = out;
  return true;
}

#define CFFT(NAME)                                                                           \
  {NAME, "input: Tcomplex", "output: Tcomplex", "Tcomplex: {complex64, complex128} = complex64", \
   0, fft_shape}
#define RFFT(NAME)                                                                           \
  {NAME, "input: Treal; fft_length: int32", "output: Tcomplex",                              \
   "Treal: {float, double} = float; Tcomplex: {complex64, complex128} = complex64", 0,       \
   rfft_shape}
#define IRFFT(NAME)                                                                          \
  {NAME, "input: Tcomplex; fft_length: int32", "output: Treal",                              \
   "Treal: {float, double} = float; Tcomplex: {complex64, complex128} = complex64", 0,       \
   rfft_shape}

static const tfc_op_spec specs[] = {
    CFFT("FFT"),    CFFT("IFFT"),    CFFT("FFT2D"),    CFFT("IFFT2D"),  CFFT("FFT3D"),
    CFFT("IFFT3D"), RFFT("RFFT"),    IRFFT("IRFFT"),   RFFT("RFFT2D"),  IRFFT("IRFFT2D"),
    RFFT("RFFT3D"), IRFFT("IRFFT3D"),
};

const tfc_op_table tfc_ops_spectral = {specs, (int)(sizeof specs / sizeof specs[0])};
