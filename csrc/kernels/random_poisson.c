/*
 * random_poisson.c — CPU kernels for RandomPoissonV2 (stateful) and
 * StatelessRandomPoisson, with TF's algorithms and stream
 * layout so seeded values equal TF's.
 *
 * The output is [shape..., rate...]; sample s of rate r sits at
 * s * num_rates + r, and output number k = r * samples_per_rate + s draws
 * from its own region of the stream (256 Philox blocks each), so outputs are
 * filled in parallel. Rates below 10 use Knuth's product of uniforms;
 * larger ones Hormann's transformed rejection (PTRS); +inf gives the output
 * type's infinity (0 for integers). Uniform doubles come two per Philox block
 * and are used last-first, as TF does. A NaN rate gives NaN (0 for integer
 * outputs) instead of TF's endless rejection loop.
 */
#include <math.h>

#include "core/dtype.h"
#include "kernels/kernel.h"
#include "kernels/kernel_tables.h"
#include "kernels/philox.h"
#include "kernels/random_internal.h"
#include "kernels/special_fns.h"

/* Largest finite value of the output type, as a double. */
static double type_highest(tfc_dtype dt) {
  switch (dt) {
    case TFC_DTYPE_HALF: return 65504.0;
    case TFC_DTYPE_FLOAT: return 3.4028234663852886e38;
    case TFC_DTYPE_INT32: return 2147483647.0;
    case TFC_DTYPE_INT64: return 9223372036854775807.0;
    default: return INFINITY;
  }
}

/* One Poisson(rate) sample from gen (positioned at the output's region). */
static double poisson_sample(double rate, double highest, tfc_philox *gen) {
  tfc_philox_doubles us = {gen, {0, 0}, 0};
  if (isnan(rate)) return NAN;
  if (rate < 10) {
    double limit = exp(-rate), prod = 1, x = 0;
    for (;;) {
      prod *= tfc_philox_next_uniform_double(&us);
      if (prod <= limit && x <= highest) return x;
      x += 1;
    }
  }
  if (isinf(rate)) return INFINITY;
  double log_rate = log(rate);
  double b = 0.931 + 2.53 * sqrt(rate);
  double a = -0.059 + 0.02483 * b;
  double inv_alpha = 1.1239 + 1.1328 / (b - 3.4);
  for (;;) {
    double u = tfc_philox_next_uniform_double(&us) - 0.5;
    double v = tfc_philox_next_uniform_double(&us);
    double us_ = 0.5 - fabs(u);
    double k = floor((2 * a / us_ + b) * u + rate + 0.43);
    if (k < 0) continue;
    if (us_ >= 0.07 && v <= 0.9277 - 3.6224 / (b - 2)) return k;
    if (us_ < 0.013 && v > us_) continue;
    double s = log(v * inv_alpha / (a / (us_ * us_) + b));
    double t = -rate + k * log_rate - tfc_sf_lgamma(k + 1);
    if (s <= t) return k;
  }
}

typedef struct poisson_job {
  const tfc_tensor *rate;
  tfc_tensor *out;
  int64_t per_rate, num_rates;
  double highest;
  tfc_philox base;
} poisson_job;

/* Stores sample r at out[at] in the output's type (integers: truncation;
 * infinity and NaN become 0 there). */
static void store(tfc_tensor *out, int64_t at, double r) {
  switch (out->dtype) {
    case TFC_DTYPE_DOUBLE: ((double *)out->data)[at] = r; break;
    case TFC_DTYPE_FLOAT: ((float *)out->data)[at] = (float)r; break;
    case TFC_DTYPE_HALF: ((uint16_t *)out->data)[at] = tfc_float_to_half((float)r); break;
    case TFC_DTYPE_INT32: ((int32_t *)out->data)[at] = isfinite(r) ? (int32_t)r : 0; break;
    default: ((int64_t *)out->data)[at] = isfinite(r) ? (int64_t)r : 0; break;
  }
}

/* parallel_for body over output numbers [lo, hi). */
static void poisson_range(void *arg, int64_t lo, int64_t hi) {
  const poisson_job *j = arg;
  for (int64_t k = lo; k < hi; k++) {
    int64_t r = k / j->per_rate, s = k % j->per_rate;
    tfc_philox gen = j->base;
    tfc_philox_skip(&gen, (uint64_t)TFC_RANDOM_RESERVE_PER_OUTPUT * (uint64_t)k);
    store(j->out, s * j->num_rates + r,
          poisson_sample(tfc_tensor_get_double(j->rate, r), j->highest, &gen));
  }
}

/* Fills out (already shaped [..., rate...]) from the stream at base. */
static void poisson_fill(tfc_kernel_ctx *ctx, const tfc_tensor *rate, tfc_tensor *out,
                         tfc_philox base) {
  poisson_job job = {.rate = rate, .out = out, .num_rates = rate->nelems, .base = base,
                     .highest = type_highest(out->dtype)};
  job.per_rate = out->nelems / rate->nelems;
  tfc_kernel_parallel_for(ctx, out->nelems, 64, poisson_range, &job);
}

/* True for the rate / output types of the Poisson kernels. */
static bool poisson_type(tfc_kernel_ctx *ctx, tfc_dtype dt) {
  if (dt == TFC_DTYPE_FLOAT || dt == TFC_DTYPE_DOUBLE || dt == TFC_DTYPE_HALF ||
      dt == TFC_DTYPE_INT32 || dt == TFC_DTYPE_INT64)
    return true;
  return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s: unsupported dtype %s", ctx->op_type,
                         tfc_dtype_name(dt));
}

/* RandomPoissonV2(shape, rate): output [shape..., rate...]
 * from the kernel's own generator. */
static void random_poisson_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *rate = ctx->inputs[1];
  tfc_dtype odt = tfc_dtype_base(ctx->out_types[0]);
  if (!poisson_type(ctx, rate->dtype) || !poisson_type(ctx, odt)) return;
  int rank = 0;
  int64_t dims[TFC_MAX_RANK];
  if (!tfc_random_read_shape(ctx, ctx->inputs[0], &rank, dims)) return;
  if (rank + rate->rank > TFC_MAX_RANK) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "output has more than %d dimensions",
                    TFC_MAX_RANK);
    return;
  }
  for (int i = 0; i < rate->rank; i++) dims[rank + i] = rate->dims[i];
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, odt, rank + rate->rank, dims);
  if (out == NULL || out->nelems == 0) return;
  tfc_philox base = tfc_guarded_philox_reserve(
      ctx->state, (uint64_t)out->nelems * TFC_RANDOM_RESERVE_PER_OUTPUT);
  poisson_fill(ctx, rate, out, base);
}

/* StatelessRandomPoisson(shape, seed, lam): the output has the given shape,
 * which must end with lam's; values from the seed's generator. */
static void stateless_poisson_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *rate = ctx->inputs[2];
  tfc_dtype odt = tfc_dtype_base(ctx->out_types[0]);
  if (!poisson_type(ctx, rate->dtype) || !poisson_type(ctx, odt)) return;
  int rank = 0;
  int64_t dims[TFC_MAX_RANK];
  if (!tfc_random_read_shape(ctx, ctx->inputs[0], &rank, dims)) return;
  tfc_philox g = {{0}, {0}};
  const tfc_tensor *seed = ctx->inputs[1];
  if (seed->rank != 1 || seed->dims[0] != 2) {
    (void)tfc_random_seed_generator(ctx, 1, &g);
    return;
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, odt, rank, dims);
  if (out == NULL || out->nelems == 0) return;
  if (!tfc_random_seed_generator(ctx, 1, &g)) return;
  bool ends = rate->rank <= out->rank;
  for (int i = 0; ends && i < rate->rank; i++)
    ends = out->dims[out->rank - rate->rank + i] == rate->dims[i];
  if (!ends) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Shape passed in must end with broadcasted shape.");
    return;
  }
  poisson_fill(ctx, rate, out, g);
}

static const tfc_kernel_def defs[] = {
    {"RandomPoissonV2", "CPU", NULL, NULL, tfc_random_state_init, random_poisson_compute,
     tfc_random_state_destroy, 0},
    {"StatelessRandomPoisson", "CPU", NULL, NULL, NULL, stateless_poisson_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_random_poisson = {defs, (int)(sizeof defs / sizeof defs[0])};
