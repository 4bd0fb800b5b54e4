/*
 * fft.h — one-dimensional complex discrete Fourier transforms of any length,
 * in double precision (kernels/fft.c), for the FFT op kernels (fft_ops.c).
 *
 * A plan for length n factors n into radices 4, 2 and odd primes; lengths
 * whose largest prime factor is above TFC_FFT_MAX_RADIX run Bluestein's chirp-z
 * algorithm over a power-of-two plan, so every length costs O(n log n).
 * A plan is immutable once built and can be executed from several threads at
 * once, each with its own work buffer.
 */
#ifndef TFC_KERNELS_FFT_H
#define TFC_KERNELS_FFT_H

#include <complex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Largest prime factor handled by a direct butterfly. */
#define TFC_FFT_MAX_RADIX 61

typedef struct tfc_fft_plan tfc_fft_plan;

/* A plan for transforms of length n >= 1; NULL when memory runs out. */
tfc_fft_plan *tfc_fft_plan_new(int64_t n);
/* Frees a plan (NULL is fine). */
void tfc_fft_plan_free(tfc_fft_plan *p);
/* Elements of work buffer tfc_fft_run needs for plan p. */
int64_t tfc_fft_work_len(const tfc_fft_plan *p);

/* out[k] = sum_j in[j * in_stride] * exp(-+2 pi i j k / n) for k < n, with the
 * minus sign (forward) unless inverse; no 1/n scaling. out must not overlap in;
 * work has tfc_fft_work_len(p) elements. */
void tfc_fft_run(const tfc_fft_plan *p, bool inverse, const double _Complex *in,
                 int64_t in_stride, double _Complex *out, double _Complex *work);

#endif
