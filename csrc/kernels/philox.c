/*
 * philox.c — Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy
 * as 1, 2, 3") plus TensorFlow's word-to-value conversions, bit-compatible
 * with TF's PhiloxRandom / random_distributions.
 */
#include "kernels/philox.h"

#include <math.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#define PHILOX_M0 0xD2511F53u
#define PHILOX_M1 0xCD9E8D57u
#define PHILOX_W0 0x9E3779B9u
#define PHILOX_W1 0xBB67AE85u

/* Seeds g from two 64-bit halves (see philox.h). */
void tfc_philox_seed(tfc_philox *g, uint64_t seed_lo, uint64_t seed_hi) {
  g->key[0] = (uint32_t)seed_lo;
  g->key[1] = (uint32_t)(seed_lo >> 32);
  g->counter[0] = 0;
  g->counter[1] = 0;
  g->counter[2] = (uint32_t)seed_hi;
  g->counter[3] = (uint32_t)(seed_hi >> 32);
}

/* One Philox round: two 32x32->64 multiplies mixed with the key. */
static inline void philox_round(uint32_t c[4], const uint32_t k[2]) {
  uint64_t p0 = (uint64_t)PHILOX_M0 * c[0];
  uint64_t p1 = (uint64_t)PHILOX_M1 * c[2];
  uint32_t hi0 = (uint32_t)(p0 >> 32), lo0 = (uint32_t)p0;
  uint32_t hi1 = (uint32_t)(p1 >> 32), lo1 = (uint32_t)p1;
  uint32_t r0 = hi1 ^ c[1] ^ k[0];
  uint32_t r2 = hi0 ^ c[3] ^ k[1];
  c[0] = r0;
  c[1] = lo1;
  c[2] = r2;
  c[3] = lo0;
}

/* Writes the ten-round output for the current counter, then increments it. */
void tfc_philox_next(tfc_philox *g, uint32_t out[4]) {
  uint32_t c[4] = {g->counter[0], g->counter[1], g->counter[2], g->counter[3]};
  uint32_t k[2] = {g->key[0], g->key[1]};
  for (int r = 0; r < 10; r++) {
    philox_round(c, k);
    k[0] += PHILOX_W0;
    k[1] += PHILOX_W1;
  }
  memcpy(out, c, sizeof c);
  if (++g->counter[0] == 0 && ++g->counter[1] == 0 && ++g->counter[2] == 0) ++g->counter[3];
}

/* 128-bit counter += count. */
void tfc_philox_skip(tfc_philox *g, uint64_t count) {
  uint32_t lo = (uint32_t)count;
  uint32_t hi = (uint32_t)(count >> 32);
  g->counter[0] += lo;
  if (g->counter[0] < lo) ++hi;
  g->counter[1] += hi;
  if (g->counter[1] < hi) {
    if (++g->counter[2] == 0) ++g->counter[3];
  }
}

/* Starts an empty single-word adapter over g. */
void tfc_philox_single_init(tfc_philox_single *s, tfc_philox *g) {
  s->gen = g;
  s->used = 4;
}

/* Returns the next buffered word, refilling from the generator when empty. */
uint32_t tfc_philox_single_next(tfc_philox_single *s) {
  if (s->used == 4) {
    tfc_philox_next(s->gen, s->words);
    s->used = 0;
  }
  return s->words[s->used++];
}

/* [0, 1) float from the low 23 bits of x. */
float tfc_philox_to_float(uint32_t x) {
  uint32_t bits = (127u << 23) | (x & 0x7fffffu);
  float f;
  memcpy(&f, &bits, sizeof f);
  return f - 1.0f;
}

/* [0, 1) double from 20 bits of hi and all 32 bits of lo. */
double tfc_philox_to_double(uint32_t hi, uint32_t lo) {
  uint64_t man = ((uint64_t)(hi & 0xfffffu) << 32) | lo;
  uint64_t bits = (1023ull << 52) | man;
  double d;
  memcpy(&d, &bits, sizeof d);
  return d - 1.0;
}

/* [0, 1) half bit pattern: the value m/1024 for the low 10 bits m of x. */
uint16_t tfc_philox_to_half(uint32_t x) {
  uint32_t m = x & 0x3ffu;
  if (m == 0) return 0;
  /* m/1024 is a normal half: find the leading bit and renormalise. */
  int e = 31 - __builtin_clz(m); /* 0..9: value = 2^(e-10) * (m / 2^e) */
  uint32_t frac = (m << (10 - e)) & 0x3ffu;
  return (uint16_t)(((uint32_t)(e - 10 + 15) << 10) | frac);
}

/* [0, 1) bfloat16 bit pattern: the value m/128 for the low 7 bits m of x. */
uint16_t tfc_philox_to_bfloat16(uint32_t x) {
  uint32_t m = x & 0x7fu;
  if (m == 0) return 0;
  int e = 31 - __builtin_clz(m); /* value = 2^(e-7) * (m / 2^e) */
  uint32_t frac = (m << (7 - e)) & 0x7fu;
  return (uint16_t)(((uint32_t)(e - 7 + 127) << 7) | frac);
}

/* Two normals from two words, with TF's epsilon clamp and float/double mix. */
void tfc_philox_box_muller_float(uint32_t x0, uint32_t x1, float *f0, float *f1) {
  const float epsilon = 1.0e-7f;
  float u1 = tfc_philox_to_float(x0);
  if (u1 < epsilon) u1 = epsilon;
  const float v1 = (float)(2.0f * M_PI * tfc_philox_to_float(x1));
  const float u2 = sqrtf(-2.0f * logf(u1));
  float s, c;
  sincosf(v1, &s, &c);
  *f0 = s * u2;
  *f1 = c * u2;
}

/* Two double normals from four words. */
void tfc_philox_box_muller_double(uint32_t x0, uint32_t x1, uint32_t x2, uint32_t x3,
                                  double *d0, double *d1) {
  const double epsilon = 1.0e-7;
  double u1 = tfc_philox_to_double(x0, x1);
  if (u1 < epsilon) u1 = epsilon;
  const double v1 = 2 * M_PI * tfc_philox_to_double(x2, x3);
  const double u2 = sqrt(-2.0 * log(u1));
  double s, c;
  sincos(v1, &s, &c);
  *d0 = s * u2;
  *d1 = c * u2;
}

/* 64 bits of OS entropy, falling back to a clock/address mix. */
static uint64_t entropy64(void) {
  uint64_t v;
  if (getrandom(&v, sizeof v, 0) == (ssize_t)sizeof v) return v;
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  v = ((uint64_t)ts.tv_sec * 1000000007ull) ^ (uint64_t)ts.tv_nsec ^ (uint64_t)(uintptr_t)&v;
  v ^= v >> 33;
  v *= 0xff51afd7ed558ccdull;
  v ^= v >> 33;
  return v;
}

/* Seeds the guarded generator; (0, 0) means "pick random seeds". */
bool tfc_guarded_philox_init(tfc_guarded_philox *g, int64_t seed, int64_t seed2) {
  uint64_t s1 = (uint64_t)seed, s2 = (uint64_t)seed2;
  if (seed == 0 && seed2 == 0) {
    s1 = entropy64();
    s2 = entropy64();
  }
  tfc_philox_seed(&g->gen, s1, s2);
  return pthread_mutex_init(&g->mu, NULL) == 0;
}

/* Destroys the lock. */
void tfc_guarded_philox_destroy(tfc_guarded_philox *g) { pthread_mutex_destroy(&g->mu); }

/* Copies the generator and skips the shared one past `count` blocks. */
tfc_philox tfc_guarded_philox_reserve(tfc_guarded_philox *g, uint64_t count) {
  pthread_mutex_lock(&g->mu);
  tfc_philox local = g->gen;
  tfc_philox_skip(&g->gen, count);
  pthread_mutex_unlock(&g->mu);
  return local;
}

/* The next uniform double of a two-per-block stream (see philox.h). */
double tfc_philox_next_uniform_double(tfc_philox_doubles *s) {
  if (s->left == 0) {
    uint32_t w[4];
    tfc_philox_next(s->gen, w);
    s->vals[0] = tfc_philox_to_double(w[0], w[1]);
    s->vals[1] = tfc_philox_to_double(w[2], w[3]);
    s->left = 2;
  }
  return s->vals[--s->left];
}

/* The next standard normal double of a two-per-block stream (see philox.h). */
double tfc_philox_next_normal_double(tfc_philox_doubles *s) {
  if (s->left == 0) {
    uint32_t w[4];
    tfc_philox_next(s->gen, w);
    tfc_philox_box_muller_double(w[0], w[1], w[2], w[3], &s->vals[0], &s->vals[1]);
    s->left = 2;
  }
  return s->vals[--s->left];
}
