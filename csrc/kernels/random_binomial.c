/*
 * random_binomial.c — the CPU kernel of StatelessRandomBinomial with TF's
 * algorithms and stream layout, so seeded values equal TF's.
 *
 * counts and probs broadcast to the batch shape, which the output shape must
 * end with; sample s of batch member b sits at s * num_batches + b and output
 * number k = b * samples_per_batch + s draws from its own region of the
 * stream. With mean n * p < 10 (p folded to min(p, 1 - p)) a sample is the
 * number of geometric waiting times that fit in n (inversion, 42 blocks per
 * output); otherwise Hormann's BTRS transformed rejection (256 blocks per
 * output). p <= 0 or n <= 0 gives 0, p >= 1 gives n, a NaN p gives NaN.
 * Uniform doubles come two per Philox block and are used last-first.
 */
#include <math.h>

#include "core/dtype.h"
#include "kernels/kernel.h"
#include "kernels/kernel_tables.h"
#include "kernels/philox.h"
#include "kernels/random_internal.h"

/* Binomial(count, prob) by summing geometric waiting times (small means). */
static double binomial_inversion(double count, double prob, tfc_philox *gen) {
  tfc_philox_doubles us = {gen, {0, 0}, 0};
  double geom_sum = 0;
  int num_geom = 0;
  for (;;) {
    double geom = ceil(log(tfc_philox_next_uniform_double(&us)) / log1p(-prob));
    geom_sum += geom;
    if (geom_sum > count) break;
    ++num_geom;
  }
  return num_geom;
}

/* The tail of Stirling's series for log(k!) (tabulated below 10). */
static double stirling_tail(double k) {
  static const double tail[] = {0.0810614667953272,  0.0413406959554092,  0.0276779256849983,
                                0.02079067210376509, 0.0166446911898211,  0.0138761288230707,
                                0.0118967099458917,  0.0104112652619720,  0.00925546218271273,
                                0.00833056343336287};
  if (k <= 9) return tail[(int)k];
  double kp1sq = (k + 1) * (k + 1);
  return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1);
}

/* Binomial(count, prob) by Hormann's BTRS (count * prob >= 10, prob <= 0.5). */
static double btrs(double count, double prob, tfc_philox *gen) {
  tfc_philox_doubles us = {gen, {0, 0}, 0};
  const double stddev = sqrt(count * prob * (1 - prob));
  const double b = 1.15 + 2.53 * stddev;
  const double a = -0.0873 + 0.0248 * b + 0.01 * prob;
  const double c = count * prob + 0.5;
  const double v_r = 0.92 - 4.2 / b;
  const double r = prob / (1 - prob);
  const double alpha = (2.83 + 5.1 / b) * stddev;
  const double m = floor((count + 1) * prob);
  for (;;) {
    double u = tfc_philox_next_uniform_double(&us);
    double v = tfc_philox_next_uniform_double(&us);
    u = u - 0.5;
    double usq = 0.5 - fabs(u);
    double k = floor((2 * a / usq + b) * u + c);
    if (usq >= 0.07 && v <= v_r) return k;
    if (k < 0 || k > count) continue;
    v = log(v * alpha / (a / (usq * usq) + b));
    double upper = (m + 0.5) * log((m + 1) / (r * (count - m + 1))) +
                   (count + 1) * log((count - m + 1) / (count - k + 1)) +
                   (k + 0.5) * log(r * (count - k + 1) / (k + 1)) + stirling_tail(m) +
                   stirling_tail(count - m) - stirling_tail(k) - stirling_tail(count - k);
    if (v <= upper) return k;
  }
}

typedef struct binomial_job {
  const tfc_tensor *counts, *probs;
  tfc_tensor *out;
  int64_t num_batches, per_batch;
  int bc_rank;                     /* rank of the broadcast batch shape */
  int64_t bc_dims[TFC_MAX_RANK];
  int64_t cstride[TFC_MAX_RANK];   /* counts' stride per batch dim (0: broadcast) */
  int64_t pstride[TFC_MAX_RANK];
  tfc_philox base;
} binomial_job;

/* The element of t at float precision of t's type (for TF's T arithmetic). */
static bool low_precision(const tfc_tensor *t) {
  return t->dtype == TFC_DTYPE_FLOAT || t->dtype == TFC_DTYPE_HALF;
}

/* One sample for (count, prob) from the generator at output number k. */
static double binomial_sample(const binomial_job *j, double count, double prob, int64_t k) {
  bool lp = low_precision(j->counts);
  if (count <= 0 || prob <= 0) return 0;
  if (prob >= 1) return count;
  if (isnan(prob)) return NAN;
  bool flip = prob > 0.5;
  double p = prob;
  if (flip) p = lp ? (double)(1.0f - (float)prob) : 1 - prob;
  double mean = lp ? (double)((float)count * (float)p) : count * p;
  tfc_philox gen = j->base;
  double r;
  if (mean >= 10) {
    tfc_philox_skip(&gen, 256u * (uint64_t)k);
    r = btrs(count, p, &gen);
  } else {
    tfc_philox_skip(&gen, 42u * (uint64_t)k);
    r = binomial_inversion(count, p, &gen);
  }
  return flip ? count - r : r;
}

/* parallel_for body over output numbers [lo, hi). */
static void binomial_range(void *arg, int64_t lo, int64_t hi) {
  const binomial_job *j = arg;
  for (int64_t k = lo; k < hi; k++) {
    int64_t b = k / j->per_batch, s = k % j->per_batch;
    int64_t ci = 0, pi = 0, rest = b;
    for (int d = j->bc_rank - 1; d >= 0; d--) {
      int64_t idx = rest % j->bc_dims[d];
      rest /= j->bc_dims[d];
      ci += idx * j->cstride[d];
      pi += idx * j->pstride[d];
    }
    double r = binomial_sample(j, tfc_tensor_get_double(j->counts, ci),
                               tfc_tensor_get_double(j->probs, pi), k);
    int64_t at = s * j->num_batches + b;
    switch (j->out->dtype) {
      case TFC_DTYPE_DOUBLE: ((double *)j->out->data)[at] = r; break;
      case TFC_DTYPE_FLOAT: ((float *)j->out->data)[at] = (float)r; break;
      case TFC_DTYPE_HALF: ((uint16_t *)j->out->data)[at] = tfc_float_to_half((float)r); break;
      case TFC_DTYPE_INT32: ((int32_t *)j->out->data)[at] = isfinite(r) ? (int32_t)r : 0; break;
      default: ((int64_t *)j->out->data)[at] = isfinite(r) ? (int64_t)r : 0; break;
    }
  }
}

/* Fills strides of t (right-aligned to rank `rank`, 0 where t broadcasts). */
static void broadcast_strides(const tfc_tensor *t, int rank, int64_t *stride) {
  int64_t s = 1;
  for (int d = rank - 1; d >= 0; d--) {
    int td = d - (rank - t->rank);
    if (td < 0 || t->dims[td] == 1) {
      stride[d] = 0;
    } else {
      stride[d] = s;
    }
    if (td >= 0) s *= t->dims[td];
  }
}

/* StatelessRandomBinomial(shape, seed, counts, probs). */
static void binomial_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *counts = ctx->inputs[2], *probs = ctx->inputs[3];
  tfc_philox g = {{0}, {0}};
  const tfc_tensor *seed = ctx->inputs[1];
  if (seed->rank != 1 || seed->dims[0] != 2) {
    (void)tfc_random_seed_generator(ctx, 1, &g);
    return;
  }
  binomial_job job = {.counts = counts, .probs = probs};
  job.bc_rank = counts->rank > probs->rank ? counts->rank : probs->rank;
  for (int d = 0; d < job.bc_rank; d++) {
    int cd = d - (job.bc_rank - counts->rank), pd = d - (job.bc_rank - probs->rank);
    int64_t c = cd >= 0 ? counts->dims[cd] : 1, p = pd >= 0 ? probs->dims[pd] : 1;
    if (c != p && c != 1 && p != 1) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                      "counts and probs must have compatible batch dimensions");
      return;
    }
    job.bc_dims[d] = c == 1 ? p : c;
  }
  int rank = 0;
  int64_t dims[TFC_MAX_RANK];
  if (!tfc_random_read_shape(ctx, ctx->inputs[0], &rank, dims)) return;
  bool ends = job.bc_rank <= rank;
  for (int d = 0; ends && d < job.bc_rank; d++) ends = dims[rank - job.bc_rank + d] == job.bc_dims[d];
  if (!ends) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Shape passed in must end with broadcasted shape.");
    return;
  }
  tfc_dtype odt = tfc_dtype_base(ctx->out_types[0]);
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, odt, rank, dims);
  if (out == NULL || out->nelems == 0) return;
  if (!tfc_random_seed_generator(ctx, 1, &g)) return;
  job.out = out;
  job.base = g;
  job.num_batches = 1;
  for (int d = 0; d < job.bc_rank; d++) job.num_batches *= job.bc_dims[d];
  job.per_batch = out->nelems / job.num_batches;
  broadcast_strides(counts, job.bc_rank, job.cstride);
  broadcast_strides(probs, job.bc_rank, job.pstride);
  tfc_kernel_parallel_for(ctx, out->nelems, 64, binomial_range, &job);
}

static const tfc_kernel_def defs[] = {
    {"StatelessRandomBinomial", "CPU", NULL, NULL, NULL, binomial_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_random_binomial = {defs, (int)(sizeof defs / sizeof defs[0])};
