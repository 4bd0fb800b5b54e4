/*
 * fft.c — the FFT engine behind kernels/fft.h: a mixed-radix decimation-in-
 * time transform (radix-4 and radix-2 butterflies, a generic O(p^2)
 * butterfly for odd primes up to TFC_FFT_MAX_RADIX) and Bluestein's
 * algorithm for lengths with a larger prime factor.
 *
 * tfc has its own engine because none of the FFT libraries Debian ships fits:
 * FFTW3 (libfftw3) is GPL-2+, which a permissively licensed extension cannot
 * load; KISS FFT (libkissfft) is packaged only in its single-precision build,
 * while complex128 needs double, and its generic radix is quadratic in a
 * large prime factor; pocketfft is not packaged as a C library. All arithmetic
 * is double precision (complex64 data is widened by the caller).
 *
 * The inverse transform is conj(F(conj(x))), so plans only hold forward
 * twiddles.
 */
#include "kernels/fft.h"

#include <math.h>
#include <string.h>

#include "base/alloc.h"
#include "kernels/cmplx.h"

#define MAX_FACTORS 64

struct tfc_fft_plan {
  int64_t n;
  int nf;                      /* number of radices (mixed-radix plans) */
  int64_t radix[MAX_FACTORS];  /* radix of each stage, outermost first */
  double _Complex *tw;         /* tw[k] = exp(-2 pi i k / n), k < n */
  /* Bluestein (when sub != NULL): length-m power-of-two plan, the chirp
   * w[k] = exp(-pi i k^2 / n) for k < n and the transformed filter B (m). */
  tfc_fft_plan *sub;
  int64_t m;
  double _Complex *chirp;
  double _Complex *filter;
};

/* exp(-2 pi i num / den) with the angle reduced exactly first. */
static double _Complex unit_root(int64_t num, int64_t den) {
  num %= den;
  if (num < 0) num += den;
  double a = -2.0 * M_PI * ((double)num / (double)den);
  return CMPLX(cos(a), sin(a));
}

/* Splits n into radices (4s first, then 2, then odd primes ascending); returns
 * false when a prime factor exceeds TFC_FFT_MAX_RADIX. */
static bool factor(tfc_fft_plan *p) {
  int64_t n = p->n;
  p->nf = 0;
  while (n % 4 == 0) p->radix[p->nf++] = 4, n /= 4;
  while (n % 2 == 0) p->radix[p->nf++] = 2, n /= 2;
  for (int64_t f = 3; f * f <= n; f += 2)
    while (n % f == 0) {
      if (f > TFC_FFT_MAX_RADIX) return false;
      p->radix[p->nf++] = f;
      n /= f;
    }
  if (n > 1) {
    if (n > TFC_FFT_MAX_RADIX) return false;
    p->radix[p->nf++] = n;
  }
  return true;
}

/* A plan; see fft.h. */
tfc_fft_plan *tfc_fft_plan_new(int64_t n) {
  if (n < 1) return NULL;
  tfc_fft_plan *p = tfc_calloc(1, sizeof *p);
  if (!p) return NULL;
  p->n = n;
  if (factor(p)) {
    p->tw = tfc_malloc((size_t)n * sizeof *p->tw);
    if (!p->tw) goto fail;
    for (int64_t k = 0; k < n; k++) p->tw[k] = unit_root(k, n);
    return p;
  }
  /* Bluestein: X[k] = w[k] * sum_j (x[j] w[j]) conj(w[k - j]). */
  p->nf = 0;
  int64_t m = 1;
  while (m < 2 * n - 1) m *= 2;
  p->m = m;
  p->sub = tfc_fft_plan_new(m);
  p->chirp = tfc_malloc((size_t)n * sizeof *p->chirp);
  p->filter = tfc_calloc((size_t)m, sizeof *p->filter);
  double _Complex *tmp = tfc_calloc((size_t)m, sizeof *tmp);
  if (!p->sub || !p->chirp || !p->filter || !tmp) {
    tfc_free(tmp);
    goto fail;
  }
  /* k^2 mod 2n, stepped as (k+1)^2 = k^2 + 2k + 1 so it never overflows. */
  for (int64_t k = 0, kk = 0; k < n; k++) {
    p->chirp[k] = unit_root(kk, 2 * n);
    kk = (kk + 2 * k + 1) % (2 * n);
  }
  tmp[0] = conj(p->chirp[0]);
  for (int64_t k = 1; k < n; k++) tmp[k] = tmp[m - k] = conj(p->chirp[k]);
  double _Complex *work = tfc_malloc((size_t)tfc_fft_work_len(p->sub) * sizeof *work);
  if (!work) {
    tfc_free(tmp);
    goto fail;
  }
  tfc_fft_run(p->sub, false, tmp, 1, p->filter, work);
  tfc_free(work);
  tfc_free(tmp);
  return p;
fail:
  tfc_fft_plan_free(p);
  return NULL;
}

/* Frees a plan; see fft.h. */
void tfc_fft_plan_free(tfc_fft_plan *p) {
  if (!p) return;
  tfc_fft_plan_free(p->sub);
  tfc_free(p->tw);
  tfc_free(p->chirp);
  tfc_free(p->filter);
  tfc_free(p);
}

/* Work elements of a forward transform (Bluestein's two length-m buffers and
 * those of its sub-plan). */
static int64_t forward_work_len(const tfc_fft_plan *p) {
  if (!p->sub) return 0;
  return 2 * p->m + forward_work_len(p->sub);
}

/* Work elements; see fft.h (an inverse also needs n for the conjugated input). */
int64_t tfc_fft_work_len(const tfc_fft_plan *p) { return forward_work_len(p) + p->n; }

/* ---------------------------------------------------------------- butterflies */

/* Radix-2 stage: m butterflies over out[0..m) and out[m..2m); tw stride fs. */
static void bfly2(double _Complex *out, int64_t fs, int64_t m, const double _Complex *tw) {
  for (int64_t u = 0; u < m; u++) {
    double _Complex t = out[u + m] * tw[u * fs];
    out[u + m] = out[u] - t;
    out[u] += t;
  }
}

/* Radix-4 stage (forward: multiplying by -i rotates). */
static void bfly4(double _Complex *out, int64_t fs, int64_t m, const double _Complex *tw) {
  for (int64_t u = 0; u < m; u++) {
    double _Complex a0 = out[u], a1 = out[u + m] * tw[u * fs], a2 = out[u + 2 * m] * tw[2 * u * fs],
                    a3 = out[u + 3 * m] * tw[3 * u * fs];
    double _Complex s02 = a0 + a2, d02 = a0 - a2, s13 = a1 + a3, d13 = a1 - a3;
    double _Complex d13r = CMPLX(cimag(d13), -creal(d13)); /* -i * d13 */
    out[u] = s02 + s13;
    out[u + m] = d02 + d13r;
    out[u + 2 * m] = s02 - s13;
    out[u + 3 * m] = d02 - d13r;
  }
}

/* Generic radix-p stage (p odd prime <= TFC_FFT_MAX_RADIX), n the full length. */
static void bfly_generic(double _Complex *out, int64_t fs, int64_t m, int64_t p, int64_t n,
                         const double _Complex *tw) {
  double _Complex s[TFC_FFT_MAX_RADIX];
  for (int64_t u = 0; u < m; u++) {
    for (int64_t q = 0; q < p; q++) s[q] = out[u + q * m];
    for (int64_t q1 = 0; q1 < p; q1++) {
      int64_t k = u + q1 * m, step = (fs * k) % n, idx = 0;
      double _Complex acc = s[0];
      for (int64_t q = 1; q < p; q++) {
        idx += step;
        if (idx >= n) idx -= n;
        acc += s[q] * tw[idx];
      }
      out[k] = acc;
    }
  }
}

/* Decimation in time: out[0..len) = DFT of in[0], in[st], ... (len elements,
 * len = product of radix[f..nf)); fs is the twiddle stride n / len. */
static void work_rec(const tfc_fft_plan *p, double _Complex *out, const double _Complex *in,
                     int64_t st, int64_t fs, int f) {
  int64_t r = p->radix[f], m = 1;
  for (int g = f + 1; g < p->nf; g++) m *= p->radix[g];
  if (m == 1) {
    for (int64_t q = 0; q < r; q++) out[q] = in[q * st];
  } else {
    for (int64_t q = 0; q < r; q++) work_rec(p, out + q * m, in + q * st, st * r, fs * r, f + 1);
  }
  if (r == 4) bfly4(out, fs, m, p->tw);
  else if (r == 2) bfly2(out, fs, m, p->tw);
  else bfly_generic(out, fs, m, r, p->n, p->tw);
}

/* Forward transform into out (see tfc_fft_run). */
static void forward(const tfc_fft_plan *p, const double _Complex *in, int64_t st,
                    double _Complex *out, double _Complex *work) {
  if (!p->sub) {
    if (p->n == 1) out[0] = in[0];
    else work_rec(p, out, in, st, 1, 0);
    return;
  }
  int64_t n = p->n, m = p->m;
  double _Complex *a = work, *fa = work + m, *w2 = work + 2 * m;
  for (int64_t k = 0; k < n; k++) a[k] = in[k * st] * p->chirp[k];
  for (int64_t k = n; k < m; k++) a[k] = 0;
  forward(p->sub, a, 1, fa, w2);
  /* inverse of the product, as conj(F(conj(.))) */
  for (int64_t k = 0; k < m; k++) fa[k] = conj(fa[k] * p->filter[k]);
  forward(p->sub, fa, 1, a, w2);
  double scale = 1.0 / (double)m;
  for (int64_t k = 0; k < n; k++) out[k] = conj(a[k]) * scale * p->chirp[k];
}

/* Runs a transform; see fft.h. */
void tfc_fft_run(const tfc_fft_plan *p, bool inverse, const double _Complex *in,
                 int64_t in_stride, double _Complex *out, double _Complex *work) {
  if (!inverse) {
    forward(p, in, in_stride, out, work);
    return;
  }
  /* conj into out, transform into the work tail, conj back. */
  int64_t n = p->n;
  double _Complex *c = work + forward_work_len(p);
  for (int64_t k = 0; k < n; k++) c[k] = conj(in[k * in_stride]);
  forward(p, c, 1, out, work);
  for (int64_t k = 0; k < n; k++) out[k] = conj(out[k]);
}
