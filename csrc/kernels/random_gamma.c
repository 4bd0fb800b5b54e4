/*
 * random_gamma.c — CPU kernels for RandomGamma (stateful) and
 * StatelessRandomGammaV2 / V3 (seed / key-counter), with TF's algorithm and stream layout so seeded
 * values equal TF's.
 *
 * The output is [shape..., alpha...]; sample s of alpha a sits at
 * s * num_alphas + a. Output number k = a * samples_per_alpha + s draws from
 * its own region of the stream, 256 Philox blocks after the previous one's,
 * so outputs are independent and are filled in parallel. alpha == 1 is an
 * exponential draw (-log1p(-u)); otherwise Marsaglia and Tsang's
 * transformation-rejection from a normal and a uniform double (alpha < 1:
 * boosted by one and scaled by u^(1/alpha)). Normal and uniform doubles come
 * two per Philox block and are used last-first, as TF does.
 */
#include <math.h>

#include "core/dtype.h"
#include "kernels/kernel.h"
#include "kernels/kernel_tables.h"
#include "kernels/philox.h"
#include "kernels/random_internal.h"

/* One Gamma(alpha, 1) sample from gen (positioned at the output's region). */
static double gamma_sample(double alpha, tfc_philox *gen) {
  tfc_philox_doubles uni = {gen, {0, 0}, 0}, nor = {gen, {0, 0}, 0};
  if (alpha == 1.0) return -log1p(-tfc_philox_next_uniform_double(&uni));
  bool small = alpha < 1;
  double d = alpha + (small ? 2.0 / 3 : -1.0 / 3);
  double c = 1.0 / 3 / sqrt(d);
  for (;;) {
    double x = tfc_philox_next_normal_double(&nor);
    double v = 1 + c * x;
    if (v <= 0) continue;
    v = v * v * v;
    double u = tfc_philox_next_uniform_double(&uni);
    if (u < 1 - 0.0331 * (x * x) * (x * x) || log(u) < 0.5 * x * x + d * (1 - v + log(v))) {
      double res = d * v;
      if (small) res *= pow(tfc_philox_next_uniform_double(&uni), 1 / alpha);
      return res;
    }
  }
}

typedef struct gamma_job {
  const tfc_tensor *alpha;
  tfc_tensor *out;
  int64_t per_alpha, num_alphas;
  tfc_philox base;
} gamma_job;

/* parallel_for body over output numbers [lo, hi). */
static void gamma_range(void *arg, int64_t lo, int64_t hi) {
  const gamma_job *j = arg;
  for (int64_t k = lo; k < hi; k++) {
    int64_t a = k / j->per_alpha, s = k % j->per_alpha;
    double alpha = tfc_tensor_get_double(j->alpha, a);
    tfc_philox gen = j->base;
    tfc_philox_skip(&gen, (uint64_t)TFC_RANDOM_RESERVE_PER_OUTPUT * (uint64_t)k);
    double r = gamma_sample(alpha, &gen);
    int64_t at = s * j->num_alphas + a;
    switch (j->out->dtype) {
      case TFC_DTYPE_DOUBLE: ((double *)j->out->data)[at] = r; break;
      case TFC_DTYPE_FLOAT: ((float *)j->out->data)[at] = (float)r; break;
      default: ((uint16_t *)j->out->data)[at] = tfc_float_to_half((float)r); break;
    }
  }
}

/* Fills out (already shaped [..., alpha...]) from the stream at base. */
static void gamma_fill(tfc_kernel_ctx *ctx, const tfc_tensor *alpha, tfc_tensor *out,
                       tfc_philox base) {
  gamma_job job = {.alpha = alpha, .out = out, .num_alphas = alpha->nelems, .base = base};
  job.per_alpha = out->nelems / alpha->nelems;
  tfc_kernel_parallel_for(ctx, out->nelems, 64, gamma_range, &job);
}

/* True for the alpha / output types of the gamma kernels. */
static bool gamma_type(tfc_kernel_ctx *ctx, tfc_dtype dt) {
  if (dt == TFC_DTYPE_FLOAT || dt == TFC_DTYPE_DOUBLE || dt == TFC_DTYPE_HALF) return true;
  return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s: unsupported dtype %s", ctx->op_type,
                         tfc_dtype_name(dt));
}

/* RandomGamma(shape, alpha): output [shape..., alpha...] of Gamma(alpha, 1)
 * samples from the kernel's own generator. */
static void random_gamma_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *alpha = ctx->inputs[1];
  if (!gamma_type(ctx, alpha->dtype)) return;
  int rank = 0;
  int64_t dims[TFC_MAX_RANK];
  if (!tfc_random_read_shape(ctx, ctx->inputs[0], &rank, dims)) return;
  if (rank + alpha->rank > TFC_MAX_RANK) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "output has more than %d dimensions",
                    TFC_MAX_RANK);
    return;
  }
  for (int i = 0; i < alpha->rank; i++) dims[rank + i] = alpha->dims[i];
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, alpha->dtype, rank + alpha->rank, dims);
  if (out == NULL || out->nelems == 0) return;
  tfc_philox base = tfc_guarded_philox_reserve(
      ctx->state, (uint64_t)out->nelems * TFC_RANDOM_RESERVE_PER_OUTPUT);
  gamma_fill(ctx, alpha, out, base);
}

/* True when out's shape ends with t's (TF's TensorShapeUtils::EndsWith). */
static bool ends_with(const tfc_tensor *out, const tfc_tensor *t) {
  if (t->rank > out->rank) return false;
  for (int i = 0; i < t->rank; i++)
    if (out->dims[out->rank - t->rank + i] != t->dims[i]) return false;
  return true;
}

/* StatelessRandomGammaV2(shape, seed, alpha): the output has the given
 * shape, which must end with alpha's; values from the seed's generator. */
static void stateless_gamma_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *alpha = ctx->inputs[2];
  if (!gamma_type(ctx, alpha->dtype)) return;
  int rank = 0;
  int64_t dims[TFC_MAX_RANK];
  if (!tfc_random_read_shape(ctx, ctx->inputs[0], &rank, dims)) return;
  tfc_philox g = {{0}, {0}};
  const tfc_tensor *seed = ctx->inputs[1];
  if (seed->rank != 1 || seed->dims[0] != 2) {
    (void)tfc_random_seed_generator(ctx, 1, &g);
    return;
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, alpha->dtype, rank, dims);
  if (out == NULL || out->nelems == 0) return;
  if (!tfc_random_seed_generator(ctx, 1, &g)) return;
  if (!ends_with(out, alpha)) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Shape passed in must end with broadcasted shape.");
    return;
  }
  gamma_fill(ctx, alpha, out, g);
}

/* StatelessRandomGammaV3(shape, key, counter, alg, alpha): V2's sampler
 * over the given key / counter. */
static void stateless_gamma_v3_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *alpha = ctx->inputs[4];
  if (!gamma_type(ctx, alpha->dtype)) return;
  int rank = 0;
  int64_t dims[TFC_MAX_RANK];
  if (!tfc_random_read_shape(ctx, ctx->inputs[0], &rank, dims)) return;
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, alpha->dtype, rank, dims);
  if (out == NULL || out->nelems == 0) return;
  tfc_philox g = {{0}, {0}};
  if (!tfc_random_key_counter_generator(ctx, 1, &g)) return;
  if (!ends_with(out, alpha)) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Shape passed in must end with broadcasted shape.");
    return;
  }
  gamma_fill(ctx, alpha, out, g);
}

static const tfc_kernel_def defs[] = {
    {"RandomGamma", "CPU", NULL, NULL, tfc_random_state_init, random_gamma_compute,
     tfc_random_state_destroy, 0},
    {"StatelessRandomGammaV2", "CPU", NULL, NULL, NULL, stateless_gamma_compute, NULL, 0},
    {"StatelessRandomGammaV3", "CPU", NULL, NULL, NULL, stateless_gamma_v3_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_random_gamma = {defs, (int)(sizeof defs / sizeof defs[0])};
