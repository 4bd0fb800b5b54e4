/*
 * random_index_shuffle.c — the CPU kernel of RandomIndexShuffle: the position
 * of an index in a pseudorandom permutation of [0, max_index], as TF computes
 * it (a cycle-walking Simon block cipher over the smallest even block size of
 * at least 16 bits that holds max_index, keyed by three 32-bit seed words,
 * with `rounds` rounds).
 *
 * index, seed ([3] or [n, 3]) and max_index ([] or [n]) broadcast to n
 * outputs; the output is a scalar when all three are single.
 */
#include <math.h>

#include "core/dtype.h"
#include "kernels/kernel.h"
#include "kernels/kernel_tables.h"
#include "kernels/random_internal.h"

/* Rotations of a w-bit word held in a uint64_t (mask = 2^w - 1). */
static inline uint64_t rotl(uint64_t x, int r, int w, uint64_t mask) {
  return ((x << r) | (x >> (w - r))) & mask;
}
static inline uint64_t rotr(uint64_t x, int r, int w, uint64_t mask) {
  return ((x >> r) | (x << (w - r))) & mask;
}

/* Simon's round function on a w-bit word. */
static inline uint64_t simon_f(uint64_t x, int w, uint64_t mask) {
  return (rotl(x, 1, w, mask) & rotl(x, 8, w, mask)) ^ rotl(x, 2, w, mask);
}

/* The position of index among [0, max_index] (TF's random::index_shuffle). */
static uint64_t index_shuffle(uint64_t index, const uint32_t key[3], uint64_t max_index,
                              int rounds) {
  if (max_index == 0) return 0;
  int block = (int)ceil(log2((double)max_index));
  block += block % 2;
  if (block < 16) block = 16;
  if (block > 64) block = 64;
  int w = block / 2; /* 8 .. 32 */
  uint64_t mask = ((uint64_t)1 << w) - 1;
  uint64_t rk[64];
  int n = rounds < 64 ? rounds : 64;
  const uint64_t c = 0xfffffffcull & mask;
  uint64_t z = 0x7369f885192c0ef5ull & mask;
  for (int i = 0; i < 3 && i < n; i++) rk[i] = (uint64_t)key[i] & mask;
  for (int i = 3; i < n; i++) {
    rk[i] = c ^ (z & 1) ^ rk[i - 3] ^ rotr(rk[i - 1], 3, w, mask) ^ rotr(rk[i - 1], 4, w, mask);
    z >>= 1;
  }
  uint64_t v = index;
  for (;;) {
    uint64_t left = (v >> w) & mask, right = v & mask;
    for (int i = 0; i + 1 < n; i += 2) {
      left ^= simon_f(right, w, mask);
      left ^= rk[i];
      right ^= simon_f(left, w, mask);
      right ^= rk[i + 1];
    }
    v = (left << w) | right;
    if (v <= max_index) return v;
  }
}

/* Reads element i of an integer tensor as uint64 (two's complement). */
static uint64_t get_u64(const tfc_tensor *t, int64_t i) {
  return (uint64_t)tfc_tensor_get_int64(t, i);
}

/* RandomIndexShuffle(index, seed, max_index; rounds). */
static void index_shuffle_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *index = ctx->inputs[0], *seed = ctx->inputs[1], *maxi = ctx->inputs[2];
  int64_t rounds = 4;
  const tfc_attr_value *a = tfc_attrs_find(ctx->attrs, "rounds");
  if (a && a->kind == TFC_ATTR_I) rounds = a->v.i;
  if (rounds < 4 || rounds % 2 != 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "rounds must be an even integer >= 4, got %lld", (long long)rounds);
    return;
  }
  if (index->rank > 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "index must be a scalar or vector.");
    return;
  }
  if (seed->rank != 1 && seed->rank != 2) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "seed must be a vector or matrix.");
    return;
  }
  if (maxi->rank > 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "max_index must be a scalar or vector.");
    return;
  }
  if (seed->dims[seed->rank - 1] != 3) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "seed must have shape [3] or [n, 3].");
    return;
  }
  int64_t n_seed = seed->rank == 2 ? seed->dims[0] : 1;
  int64_t n = index->nelems;
  if (maxi->nelems > n) n = maxi->nelems;
  if (n_seed > n) n = n_seed;
  if (index->nelems != 1 && index->nelems != n) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "index must have %lld elements.",
                    (long long)n);
    return;
  }
  if (maxi->nelems != 1 && maxi->nelems != n) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "max_index must have %lld elements.",
                    (long long)n);
    return;
  }
  if (n_seed != 1 && n_seed != n) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "seed must have %lld rows.", (long long)n);
    return;
  }
  bool all_scalar = index->rank == 0 && seed->rank == 1 && maxi->rank == 0;
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, index->dtype, all_scalar ? 0 : 1, &n);
  if (out == NULL) return;
  bool wide = index->dtype == TFC_DTYPE_INT64 || index->dtype == TFC_DTYPE_UINT64;
  for (int64_t i = 0; i < n; i++) {
    int64_t srow = n_seed == 1 ? 0 : i;
    uint32_t key[3];
    for (int k = 0; k < 3; k++) key[k] = (uint32_t)get_u64(seed, srow * 3 + k);
    uint64_t mx = get_u64(maxi, maxi->nelems == 1 ? 0 : i);
    uint64_t ix = get_u64(index, index->nelems == 1 ? 0 : i);
    if (!wide) {
      mx = index->dtype == TFC_DTYPE_INT32 ? (uint64_t)(uint32_t)mx : mx;
      ix = index->dtype == TFC_DTYPE_INT32 ? (uint64_t)(uint32_t)ix : ix;
    }
    uint64_t r = index_shuffle(ix, key, mx, (int)rounds);
    if (wide) ((uint64_t *)out->data)[i] = r;
    else ((uint32_t *)out->data)[i] = (uint32_t)r;
  }
}

static const tfc_kernel_def defs[] = {
    {"RandomIndexShuffle", "CPU", NULL, NULL, NULL, index_shuffle_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_random_index_shuffle = {defs,
                                                           (int)(sizeof defs / sizeof defs[0])};
