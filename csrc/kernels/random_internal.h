/*
 * random_internal.h — the pieces of random.c that the other random kernel
 * files (stateless ops, gamma, Poisson, samplers) share: TF's fixed-cost and
 * rejection distributions filled from a Philox generator, the Multinomial
 * sampler, and the shape-input checks.
 *
 * Every fill places group g of the output at the position TF's
 * FillPhiloxRandom gives it, so the values equal TF's whatever the thread
 * count. A stateful kernel passes the start of its reserved range; a
 * stateless one the generator made from its seed.
 */
#ifndef TFC_KERNELS_RANDOM_INTERNAL_H
#define TFC_KERNELS_RANDOM_INTERNAL_H

#include <stdint.h>

#include "kernels/kernel.h"
#include "kernels/philox.h"

/* Philox blocks TF reserves per output value. */
#define TFC_RANDOM_RESERVE_PER_OUTPUT 256

typedef enum tfc_random_dist {
  TFC_RANDOM_UNIFORM,    /* [0, 1) */
  TFC_RANDOM_NORMAL,     /* N(0, 1), Box-Muller */
  TFC_RANDOM_TRUNCATED,  /* N(0, 1) rejected outside (-2, 2) */
  TFC_RANDOM_INT,        /* lo + bits % range */
  TFC_RANDOM_FULL_INT    /* the raw bits (every value of the integer type) */
} tfc_random_dist;

/* A stateful random kernel's init / destroy: *state becomes a
 * tfc_guarded_philox seeded from the seed / seed2 attrs (both 0: from the
 * operating system's entropy). */
bool tfc_random_state_init(const tfc_kernel_init *ki, void **state);
void tfc_random_state_destroy(void *state);

/* Fills `out` (float types for the real kinds; int32/int64/uint32/uint64
 * for the integer ones) from the stream starting at `base`, as TF's
 * FillPhiloxRandom does. ilo/irange are used by TFC_RANDOM_INT only. */
void tfc_random_fill(tfc_kernel_ctx *ctx, tfc_random_dist kind, tfc_tensor *out,
                     tfc_philox base, int64_t ilo, uint64_t irange);

/* Writes a tensor's shape like TF's DebugString ("[2,2]") into buf. */
void tfc_random_shape_text(const tfc_tensor *t, char *buf, size_t cap);

/* Reads a 1-D int32/int64 shape tensor into rank/dims with TF's checks
 * (InvalidArgument on a bad shape or a negative dimension). */
bool tfc_random_read_shape(tfc_kernel_ctx *ctx, const tfc_tensor *t, int *rank, int64_t *dims);

/* Multinomial(logits, num_samples) with TF's checks and stream layout. When
 * `base` is NULL the counters are reserved from the kernel's
 * tfc_guarded_philox state; otherwise the stream starts at *base. */
void tfc_random_multinomial(tfc_kernel_ctx *ctx, const tfc_tensor *logits,
                            const tfc_tensor *ns_t, const tfc_philox *base);

/* RandomShuffle's permutation of the first dimension of `in` into output 0
 * (forwarded when there is nothing to permute). When `base` is NULL the words
 * are reserved from the kernel's tfc_guarded_philox state. */
void tfc_random_shuffle(tfc_kernel_ctx *ctx, tfc_tensor *in, const tfc_philox *base);

/* Checks that input i of ctx is a stateless op's seed (int32/int64, shape
 * [2]) and turns it into TF's generator (GenerateKey: the seed scrambled by
 * one Philox call); false with InvalidArgument in TF's wording otherwise.
 * int32 seeds are sign-extended to 64 bits, as TF reads them. */
bool tfc_random_seed_generator(tfc_kernel_ctx *ctx, int i, tfc_philox *g);

/* Reads a V2 stateless op's key (uint64 [1]), counter (uint64 [>= 2]) and
 * alg (int32 scalar: Philox, or auto-select, which picks Philox) from inputs
 * k, k+1, k+2 of ctx into a generator; false with InvalidArgument otherwise. */
bool tfc_random_key_counter_generator(tfc_kernel_ctx *ctx, int k, tfc_philox *g);

#endif
