/*
 * test_fft.c — the FFT engine (kernels/fft.c): forward and inverse transforms
 * of many lengths (powers of two, mixed radices, odd primes up to the direct
 * butterfly limit, and primes past it that run Bluestein's algorithm) against
 * a naive DFT in long double, with strided input. Test names start with
 * "fft_" (make ctest T=fft_).
 */
#include <complex.h>
#include <math.h>
#include <stdint.h>

#include "base/alloc.h"
#include "harness.h"
#include "kernels/fft.h"

/* Largest |fft(x)[k] - dft(x)[k]| over k, for the deterministic x[j] =
 * (sin(j), cos(3j)) read with stride 2, forward or inverse. */
static double max_error(int64_t n, bool inverse) {
  double _Complex *in = tfc_malloc((size_t)(2 * n) * sizeof *in);
  double _Complex *out = tfc_malloc((size_t)n * sizeof *out);
  tfc_fft_plan *p = tfc_fft_plan_new(n);
  double _Complex *work = tfc_malloc((size_t)(tfc_fft_work_len(p) + 1) * sizeof *work);
  for (int64_t j = 0; j < n; j++) in[2 * j] = CMPLX(sin((double)j), cos(3.0 * (double)j));
  tfc_fft_run(p, inverse, in, 2, out, work);
  double worst = 0;
  for (int64_t k = 0; k < n; k++) {
    long double re = 0, im = 0;
    for (int64_t j = 0; j < n; j++) {
      long double a = (inverse ? 2.0L : -2.0L) * 3.14159265358979323846264338327950288L *
                      (long double)((j * k) % n) / (long double)n;
      long double xr = creal(in[2 * j]), xi = cimag(in[2 * j]);
      re += xr * cosl(a) - xi * sinl(a);
      im += xr * sinl(a) + xi * cosl(a);
    }
    double e = hypot((double)(re - creal(out[k])), (double)(im - cimag(out[k])));
    if (e > worst) worst = e;
  }
  tfc_fft_plan_free(p);
  tfc_free(in);
  tfc_free(out);
  tfc_free(work);
  return worst / sqrt((double)n);
}

TFC_TEST(fft_lengths_match_naive_dft) {
  static const int64_t lengths[] = {1,  2,  3,  4,   5,   6,   7,   8,   9,   12,  16,  30,
                                    32, 49, 61, 64,  67,  97,  100, 127, 128, 210, 243, 256,
                                    360, 509, 512, 1000, 1021, 1024};
  for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++) {
    CHECK_NEAR(max_error(lengths[i], false), 0.0, 1e-12);
    CHECK_NEAR(max_error(lengths[i], true), 0.0, 1e-12);
  }
}

TFC_TEST(fft_plan_rejects_empty_length) { CHECK(tfc_fft_plan_new(0) == NULL); }
