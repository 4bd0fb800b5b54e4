/*
 * random_truncated_normal.c — CPU kernels for ParameterizedTruncatedNormal
 * (stateful) and StatelessParameterizedTruncatedNormal: normal samples with
 * per-batch mean, stddev and bounds, by TF's three rejection samplers (plain
 * normal draws when the bounds hold at least 1.3 stddevs on a side of the
 * mean, uniform proposals on a narrow interval, exponential proposals in a
 * far tail), in float or double arithmetic as the dtype.
 *
 * The stream is read sequentially over batches (stateful: batch-major over
 * [batches, samples]; stateless: over outputs b * samples_per_batch + s,
 * written at s * num_batches + b), which is TF's order when it runs the op in
 * one shard, as it does for small outputs; TF splits large outputs across
 * its threads, each shard starting at its own stream offset, so there its
 * values depend on its thread count.
 */
#include <math.h>
#include <stdbool.h>

#include "core/dtype.h"
#include "kernels/kernel.h"
#include "kernels/kernel_tables.h"
#include "kernels/philox.h"
#include "kernels/random_internal.h"

#define MAX_ITERATIONS 1000

/* Parameters of one batch member, in double (converted per type below). */
typedef struct ptn_params {
  double mean, stddev, minval, maxval;
} ptn_params;

/* Where sample j of a run goes: base + j * stride. */
typedef struct ptn_out {
  void *data;
  int64_t base, stride;
} ptn_out;

/* Fills n samples of one batch member, reading gen sequentially. Defined for
 * float and double (T) with N values per Philox block; false (with the status
 * set) on invalid parameters or a sampler that cannot accept. */
#define DEFINE_PTN(T, SUF, N, SQRT, EXP, LOG)                                                     \
  static void uniform_##SUF(tfc_philox *g, T out[N]);                                            \
  static void normal_##SUF(tfc_philox *g, T out[N]);                                             \
  static bool ptn_##SUF(tfc_kernel_ctx *ctx, tfc_philox *gen, ptn_params p, ptn_out o,           \
                        int64_t n) {                                                             \
    T mean = (T)p.mean, stddev = (T)p.stddev, minval = (T)p.minval, maxval = (T)p.maxval;        \
    if (!(stddev > (T)0 && minval < maxval && (isfinite(minval) || isfinite(maxval))))           \
      return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Invalid parameters");              \
    T *dst = o.data;                                                                             \
    int64_t got = 0;                                                                             \
    int iters = 0;                                                                               \
    if ((isinf(minval) && minval < (T)0) || maxval < mean) {                                     \
      T t = minval;                                                                              \
      minval = maxval;                                                                           \
      maxval = t;                                                                                \
      stddev = -stddev;                                                                          \
    }                                                                                            \
    const T norm_min = (minval - mean) / stddev, norm_max = (maxval - mean) / stddev;            \
    const T sqrt_factor = SQRT((norm_min * norm_min) + (T)4);                                    \
    const T cutoff = (T)2 * EXP((T)0.5 + (norm_min * (norm_min - sqrt_factor)) / (T)4) /        \
                     (norm_min + sqrt_factor);                                                   \
    const T diff = norm_max - norm_min;                                                          \
    const T inside = (T)1.3;                                                                     \
    T r[N], u[N];                                                                                \
    if ((norm_min < -inside && norm_max >= (T)0) || (norm_max > inside && norm_min <= (T)0)) {   \
      while (got < n) {                                                                          \
        normal_##SUF(gen, r);                                                                    \
        for (int i = 0; i < N; i++) {                                                            \
          if (r[i] >= norm_min && r[i] <= norm_max) {                                            \
            dst[o.base + got * o.stride] = r[i] * stddev + mean;                                 \
            if (++got >= n) break;                                                               \
            iters = 0;                                                                           \
          } else if (++iters > MAX_ITERATIONS) {                                                 \
            return tfc_kernel_fail(ctx, TFC_CODE_INTERNAL,                                       \
                                   "TruncatedNormal randn rejection sampler failed to accept"    \
                                   " a sample.");                                                \
          }                                                                                      \
        }                                                                                        \
      }                                                                                          \
    } else if (diff < cutoff) {                                                                  \
      const T plus = norm_min < (T)0 ? (T)0 : norm_min * norm_min;                               \
      T z[N], gv[N];                                                                             \
      while (got < n) {                                                                          \
        uniform_##SUF(gen, r);                                                                   \
        for (int i = 0; i < N; i++) {                                                            \
          z[i] = r[i] * diff + norm_min;                                                         \
          gv[i] = (plus - z[i] * z[i]) / (T)2.0;                                                 \
        }                                                                                        \
        uniform_##SUF(gen, u);                                                                   \
        for (int i = 0; i < N; i++) {                                                            \
          bool accept = u[i] <= EXP(gv[i]);                                                      \
          if (accept || iters + 1 >= MAX_ITERATIONS) {                                           \
            if (!accept)                                                                         \
              return tfc_kernel_fail(ctx, TFC_CODE_INTERNAL,                                     \
                                     "TruncatedNormal uniform rejection sampler failed to "      \
                                     " accept a sample.");                                       \
            dst[o.base + got * o.stride] = z[i] * stddev + mean;                                 \
            if (++got >= n) break;                                                               \
            iters = 0;                                                                           \
          } else {                                                                               \
            iters++;                                                                             \
          }                                                                                      \
        }                                                                                        \
      }                                                                                          \
    } else {                                                                                     \
      const T alpha = (norm_min + SQRT((norm_min * norm_min) + (T)4)) / (T)2;                    \
      while (got < n) {                                                                          \
        uniform_##SUF(gen, r);                                                                   \
        for (int i = 0; i < N;) {                                                               \
          const T zz = -LOG(r[i]) / alpha + norm_min;                                            \
          i++;                                                                                   \
          const T x = norm_min < alpha ? alpha - zz : norm_min - alpha;                          \
          const T gg = EXP(-x * x / (T)2.0);                                                     \
          const T uu = r[i];                                                                     \
          i++;                                                                                   \
          bool accept = uu <= gg && zz < norm_max;                                               \
          if (accept || iters + 1 >= MAX_ITERATIONS) {                                           \
            if (!accept)                                                                         \
              return tfc_kernel_fail(ctx, TFC_CODE_INTERNAL,                                     \
                                     "TruncatedNormal exponential distribution rejection"        \
                                     " sampler failed to accept a sample.");                     \
            dst[o.base + got * o.stride] = zz * stddev + mean;                                   \
            if (++got >= n) break;                                                               \
            iters = 0;                                                                           \
          } else {                                                                               \
            iters++;                                                                             \
          }                                                                                      \
        }                                                                                        \
      }                                                                                          \
    }                                                                                            \
    return true;                                                                                 \
  }

DEFINE_PTN(float, f, 4, sqrtf, expf, logf)
DEFINE_PTN(double, d, 2, sqrt, exp, log)

/* Four uniform floats from one block. */
static void uniform_f(tfc_philox *g, float out[4]) {
  uint32_t w[4];
  tfc_philox_next(g, w);
  for (int k = 0; k < 4; k++) out[k] = tfc_philox_to_float(w[k]);
}

/* Four normal floats from one block. */
static void normal_f(tfc_philox *g, float out[4]) {
  uint32_t w[4];
  tfc_philox_next(g, w);
  tfc_philox_box_muller_float(w[0], w[1], &out[0], &out[1]);
  tfc_philox_box_muller_float(w[2], w[3], &out[2], &out[3]);
}

/* Two uniform doubles from one block. */
static void uniform_d(tfc_philox *g, double out[2]) {
  uint32_t w[4];
  tfc_philox_next(g, w);
  out[0] = tfc_philox_to_double(w[0], w[1]);
  out[1] = tfc_philox_to_double(w[2], w[3]);
}

/* Two normal doubles from one block. */
static void normal_d(tfc_philox *g, double out[2]) {
  uint32_t w[4];
  tfc_philox_next(g, w);
  tfc_philox_box_muller_double(w[0], w[1], w[2], w[3], &out[0], &out[1]);
}

/* Runs the sampler of the output's type. */
static bool ptn_run(tfc_kernel_ctx *ctx, tfc_dtype dt, tfc_philox *gen, ptn_params p, ptn_out o,
                    int64_t n) {
  return dt == TFC_DTYPE_DOUBLE ? ptn_d(ctx, gen, p, o, n) : ptn_f(ctx, gen, p, o, n);
}

/* Element i of parameter t, or its only element. */
static double param(const tfc_tensor *t, int64_t i) {
  return tfc_tensor_get_double(t, t->nelems == 1 ? 0 : i);
}

/* ParameterizedTruncatedNormal(shape, means, stdevs, minvals, maxvals):
 * shape[0] batches with their own parameters (scalars or vectors). */
static void stateful_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *shape = ctx->inputs[0];
  const tfc_tensor *prm[4] = {ctx->inputs[1], ctx->inputs[2], ctx->inputs[3], ctx->inputs[4]};
  static const char *names[4] = {"means", "stddevs", "minvals", "maxvals"};
  tfc_dtype dt = tfc_dtype_base(ctx->out_types[0]);
  if (shape->rank != 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Input shape should be a vector");
    return;
  }
  if (shape->nelems == 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Shape tensor must not be empty");
    return;
  }
  int rank = 0;
  int64_t dims[TFC_MAX_RANK];
  if (!tfc_random_read_shape(ctx, shape, &rank, dims)) return;
  int64_t batches = dims[0], per_batch = 1;
  for (int i = 1; i < rank; i++) per_batch *= dims[i];
  int64_t total = batches * per_batch;
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, dt, rank, dims);
  if (out == NULL) return;
  for (int k = 0; k < 4; k++) {
    if (prm[k]->rank > 1) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Input %s should be a scalar or vector",
                      names[k]);
      return;
    }
  }
  bool single = (prm[0]->rank == 0 || prm[0]->dims[0] == 1) &&
                (prm[1]->rank == 0 || prm[1]->dims[0] == 1) && prm[2]->rank == 0 &&
                prm[3]->rank == 0;
  if (single) {
    per_batch = 100;
    batches = (total + per_batch - 1) / per_batch;
  } else {
    for (int k = 0; k < 4; k++) {
      if (prm[k]->rank == 1 && prm[k]->dims[0] != 1 && prm[k]->dims[0] != batches) {
        tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                        "Input %s should have length 1 or shape[0]", names[k]);
        return;
      }
    }
  }
  tfc_philox gen = tfc_guarded_philox_reserve(
      ctx->state, (uint64_t)batches * 2u * MAX_ITERATIONS * (uint64_t)(per_batch + 3) / 4);
  for (int64_t b = 0; b < batches; b++) {
    int64_t start = b * per_batch, limit = start + per_batch < total ? start + per_batch : total;
    if (limit <= start) continue;
    ptn_params p = {param(prm[0], b), param(prm[1], b), param(prm[2], b), param(prm[3], b)};
    ptn_out o = {out->data, start, 1};
    if (!ptn_run(ctx, dt, &gen, p, o, limit - start)) return;
  }
}

/* StatelessParameterizedTruncatedNormal(shape, seed, means, stddevs,
 * minvals, maxvals): the parameters broadcast to the batch shape, which the
 * output shape must end with. */
static void stateless_compute(tfc_kernel_ctx *ctx) {
  tfc_philox g = {{0}, {0}};
  const tfc_tensor *seed = ctx->inputs[1];
  if (seed->rank != 1 || seed->dims[0] != 2) {
    (void)tfc_random_seed_generator(ctx, 1, &g);
    return;
  }
  const tfc_tensor *prm[4] = {ctx->inputs[2], ctx->inputs[3], ctx->inputs[4], ctx->inputs[5]};
  int bc_rank = 0;
  for (int k = 0; k < 4; k++)
    if (prm[k]->rank > bc_rank) bc_rank = prm[k]->rank;
  int64_t bc[TFC_MAX_RANK];
  for (int d = 0; d < bc_rank; d++) {
    bc[d] = 1;
    for (int k = 0; k < 4; k++) {
      int kd = d - (bc_rank - prm[k]->rank);
      int64_t v = kd >= 0 ? prm[k]->dims[kd] : 1;
      if (v != 1 && bc[d] != 1 && v != bc[d]) {
        tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                        "means, stddevs, minvals, maxvals must have compatible batch "
                        "dimensions");
        return;
      }
      if (v != 1) bc[d] = v;
    }
  }
  int rank = 0;
  int64_t dims[TFC_MAX_RANK];
  if (!tfc_random_read_shape(ctx, ctx->inputs[0], &rank, dims)) return;
  bool ends = bc_rank <= rank;
  for (int d = 0; ends && d < bc_rank; d++) ends = dims[rank - bc_rank + d] == bc[d];
  if (!ends) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Shape passed in must end with broadcasted shape.");
    return;
  }
  tfc_dtype dt = tfc_dtype_base(ctx->out_types[0]);
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, dt, rank, dims);
  if (out == NULL) return;
  if (!tfc_random_seed_generator(ctx, 1, &g)) return;
  int64_t batches = 1;
  for (int d = 0; d < bc_rank; d++) batches *= bc[d];
  if (out->nelems == 0) return;
  int64_t per_batch = out->nelems / batches;
  for (int64_t b = 0; b < batches; b++) {
    double v[4];
    for (int k = 0; k < 4; k++) {
      /* the element of prm[k] that batch member b broadcasts from */
      int64_t idx = 0, stride = 1, rest = b;
      for (int d = bc_rank - 1; d >= 0; d--) {
        int64_t i = rest % bc[d];
        rest /= bc[d];
        int kd = d - (bc_rank - prm[k]->rank);
        if (kd < 0) continue;
        if (prm[k]->dims[kd] != 1) idx += i * stride;
        stride *= prm[k]->dims[kd];
      }
      v[k] = tfc_tensor_get_double(prm[k], idx);
    }
    ptn_params p = {v[0], v[1], v[2], v[3]};
    ptn_out o = {out->data, b, batches};
    if (!ptn_run(ctx, dt, &g, p, o, per_batch)) return;
  }
}

static const tfc_dtype fd_types[] = {TFC_DTYPE_FLOAT, TFC_DTYPE_DOUBLE, TFC_DTYPE_INVALID};

static const tfc_kernel_def defs[] = {
    {"ParameterizedTruncatedNormal", "CPU", "dtype", fd_types, tfc_random_state_init,
     stateful_compute, tfc_random_state_destroy, 0},
    {"StatelessParameterizedTruncatedNormal", "CPU", "dtype", fd_types, NULL, stateless_compute,
     NULL, 0},
};

const tfc_kernel_table tfc_kernels_random_truncated_normal = {defs,
                                                              (int)(sizeof defs / sizeof defs[0])};
