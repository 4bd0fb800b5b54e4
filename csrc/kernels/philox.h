/*
 * philox.h — the Philox4x32-10 counter-based generator and TensorFlow's
 * sample-to-value conversions, so tfc's random ops reproduce TF's streams.
 *
 * A tfc_philox holds a 128-bit counter and a 64-bit key. Each call to
 * tfc_philox_next yields four 32-bit words and advances the counter by one;
 * tfc_philox_skip jumps ahead by any number of such calls. The generator is
 * seeded from TF's (seed, seed2) attrs: seed is the key, seed2 the upper half
 * of the counter.
 *
 * tfc_guarded_philox is the per-kernel, thread-safe generator (TF's
 * GuardedPhiloxRandom): every compute reserves a range of counters under a
 * lock and then fills its output from a private copy, so concurrent steps
 * never share samples.
 *
 * Example: the first four floats of RandomUniform(seed=7, seed2=3)
 *
 *     tfc_philox g; uint32_t w[4];
 *     tfc_philox_seed(&g, 7, 3);
 *     tfc_philox_next(&g, w);
 *     float f0 = tfc_philox_to_float(w[0]);   // 0.40108788...
 */
#ifndef TFC_KERNELS_PHILOX_H
#define TFC_KERNELS_PHILOX_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct tfc_philox {
  uint32_t counter[4];
  uint32_t key[2];
} tfc_philox;

/* Seeds g like TF's PhiloxRandom(seed_lo, seed_hi): key = seed_lo,
 * counter = {0, 0, low32(seed_hi), high32(seed_hi)}. */
void tfc_philox_seed(tfc_philox *g, uint64_t seed_lo, uint64_t seed_hi);
/* Writes the next four 32-bit words of g's stream into out and advances the
 * counter by one. */
void tfc_philox_next(tfc_philox *g, uint32_t out[4]);
/* Advances the counter by `count` calls of tfc_philox_next (128-bit add). */
void tfc_philox_skip(tfc_philox *g, uint64_t count);

/* Hands out g's words one at a time (TF's SingleSampleAdapter): a fresh
 * block of four is drawn from g only when the previous one is used up. */
typedef struct tfc_philox_single {
  tfc_philox *gen;
  uint32_t words[4];
  int used;  /* words already handed out from `words` (4 = none left) */
} tfc_philox_single;

/* Starts an adapter over g with no buffered words. */
void tfc_philox_single_init(tfc_philox_single *s, tfc_philox *g);
/* The next single 32-bit word of the stream. */
uint32_t tfc_philox_single_next(tfc_philox_single *s);

/* TF's conversions of raw words to uniform values in [0, 1): the low mantissa
 * bits of the word(s) fill the mantissa of a number in [1, 2), minus one. */
float tfc_philox_to_float(uint32_t x);
double tfc_philox_to_double(uint32_t hi, uint32_t lo);
/* Half / bfloat16 results as bit patterns (low 10 / 7 bits of x are used). */
uint16_t tfc_philox_to_half(uint32_t x);
uint16_t tfc_philox_to_bfloat16(uint32_t x);

/* Box-Muller exactly as TF computes it: two standard normals from two words
 * (float) or from four words (double). */
void tfc_philox_box_muller_float(uint32_t x0, uint32_t x1, float *f0, float *f1);
void tfc_philox_box_muller_double(uint32_t x0, uint32_t x1, uint32_t x2, uint32_t x3,
                                  double *d0, double *d1);

/* The per-kernel generator shared by concurrent computes. */
typedef struct tfc_guarded_philox {
  pthread_mutex_t mu;
  tfc_philox gen;
} tfc_guarded_philox;

/* Initialises g from TF's seed attrs; when both are 0 the seeds are drawn
 * from the operating system's entropy (a nondeterministic stream).
 * Returns false only when the mutex cannot be created. */
bool tfc_guarded_philox_init(tfc_guarded_philox *g, int64_t seed, int64_t seed2);
/* Releases the mutex. */
void tfc_guarded_philox_destroy(tfc_guarded_philox *g);
/* Doubles drawn two per 128-bit block and handed out last-first, as TF's
 * sampling kernels (gamma, Poisson, binomial) consume them. Start one with
 * {gen, {0, 0}, 0}; use a stream for uniforms or for normals, not both. */
typedef struct tfc_philox_doubles {
  tfc_philox *gen;
  double vals[2];
  int left;
} tfc_philox_doubles;

/* The next uniform double in [0, 1). */
double tfc_philox_next_uniform_double(tfc_philox_doubles *s);
/* The next standard normal double (Box-Muller over one block). */
double tfc_philox_next_normal_double(tfc_philox_doubles *s);

/* Returns the generator positioned at the start of a fresh range of `count`
 * 128-bit blocks and advances the shared generator past it (atomically). */
tfc_philox tfc_guarded_philox_reserve(tfc_guarded_philox *g, uint64_t count);

#endif
