/*
 * stateless_random.c — CPU kernels for TF's stateless random ops
 * (core/ops_stateless_random.c): the same output for the same seed, every
 * run, with TF's exact values.
 *
 * V1 ops take a seed tensor of shape [2]; the seed is scrambled into a Philox
 * key and counter as TF's GenerateKey does (one Philox call over the seed with
 * a fixed key), and the output is filled from that generator by the stateful
 * ops' distributions (random_internal.h). V2 ops take the key, counter and
 * algorithm directly (what StatelessRandomGetKeyCounter[Alg] computes);
 * Philox is the only algorithm the CPU has, auto-select picks it.
 */
#include <string.h>

#include "core/dtype.h"
#include "kernels/kernel.h"
#include "kernels/kernel_tables.h"
#include "kernels/philox.h"
#include "kernels/random_internal.h"

/* TF's algorithm ids (Algorithm enum of rng_alg.h). */
#define RNG_ALG_PHILOX 1
#define RNG_ALG_THREEFRY 2
#define RNG_ALG_AUTO_SELECT 3

/* ------------------------------------------------------------ seeds */

/* Builds a generator from seed words s0, s1 like TF's GenerateKey: one
 * Philox block over counter (s0, s1) with key 0x02461e29_3ec8f720 gives the
 * key (words 0-1) and the upper half of the counter (words 2-3). */
static tfc_philox scramble_seed(uint64_t s0, uint64_t s1) {
  tfc_philox g;
  g.key[0] = 0x3ec8f720u;
  g.key[1] = 0x02461e29u;
  g.counter[0] = (uint32_t)s0;
  g.counter[1] = (uint32_t)(s0 >> 32);
  g.counter[2] = (uint32_t)s1;
  g.counter[3] = (uint32_t)(s1 >> 32);
  uint32_t mix[4];
  tfc_philox_next(&g, mix);
  g.key[0] = mix[0];
  g.key[1] = mix[1];
  g.counter[0] = g.counter[1] = 0;
  g.counter[2] = mix[2];
  g.counter[3] = mix[3];
  return g;
}

/* Checks that input i is a seed of shape [2] and turns it into a generator
 * (random_internal.h). */
bool tfc_random_seed_generator(tfc_kernel_ctx *ctx, int i, tfc_philox *g) {
  const tfc_tensor *s = ctx->inputs[i];
  if (s->rank != 1 || s->dims[0] != 2) {
    char buf[160];
    tfc_random_shape_text(s, buf, sizeof buf);
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "seed must have shape [2], not %s",
                           buf);
  }
  if (s->dtype != TFC_DTYPE_INT32 && s->dtype != TFC_DTYPE_INT64)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Invalid seed type: %s",
                           tfc_dtype_name(s->dtype));
  *g = scramble_seed((uint64_t)tfc_tensor_get_int64(s, 0), (uint64_t)tfc_tensor_get_int64(s, 1));
  return true;
}

/* Reads the V2 inputs key, counter and alg at k, k+1, k+2 into a Philox
 * generator (random_internal.h). */
bool tfc_random_key_counter_generator(tfc_kernel_ctx *ctx, int k, tfc_philox *g) {
  const tfc_tensor *key = ctx->inputs[k], *counter = ctx->inputs[k + 1], *alg = ctx->inputs[k + 2];
  char buf[160];
  if (alg->rank != 0) {
    tfc_random_shape_text(alg, buf, sizeof buf);
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "input %d must be a scalar, got shape %s",
                           k + 2, buf);
  }
  int64_t id = tfc_tensor_get_int64(alg, 0);
  if (id == RNG_ALG_AUTO_SELECT) id = RNG_ALG_PHILOX;
  if (id != RNG_ALG_PHILOX)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Unsupported algorithm id: %lld",
                           (long long)id);
  if (key->rank != 1 || key->dims[0] != 1) {
    tfc_random_shape_text(key, buf, sizeof buf);
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "key must have shape [1], not %s. "
                           "(Note that batched keys are not supported yet.)", buf);
  }
  if (counter->rank != 1 || counter->dims[0] < 2) {
    tfc_random_shape_text(counter, buf, sizeof buf);
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "counter must be a vector with at least 2 elements, got shape %s. "
                           "(Note that batched counters are not supported yet.)", buf);
  }
  uint64_t kv = ((const uint64_t *)key->data)[0];
  const uint64_t *cv = counter->data;
  g->key[0] = (uint32_t)kv;
  g->key[1] = (uint32_t)(kv >> 32);
  g->counter[0] = (uint32_t)cv[0];
  g->counter[1] = (uint32_t)(cv[0] >> 32);
  g->counter[2] = (uint32_t)cv[1];
  g->counter[3] = (uint32_t)(cv[1] >> 32);
  return true;
}

/* ------------------------------------------------------------ common body */

/* How an op names its generator: a [2] seed (V1) or key/counter/alg (V2). */
typedef enum seed_kind { SEED_V1, SEED_V2 } seed_kind;

/* Reads the shape (input 0), allocates output 0 of dtype dt and builds the
 * generator (input 1 onwards), in TF's order. Returns the output, or NULL
 * when the step failed or the output is empty (then *empty is set). */
static tfc_tensor *start(tfc_kernel_ctx *ctx, seed_kind sk, tfc_dtype dt, tfc_philox *g,
                         bool *empty) {
  *empty = false;
  int rank = 0;
  int64_t dims[TFC_MAX_RANK];
  if (sk == SEED_V2) {
    const tfc_tensor *alg = ctx->inputs[3];
    if (alg->rank != 0) {
      char buf[160];
      tfc_random_shape_text(alg, buf, sizeof buf);
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "input 3 must be a scalar, got shape %s",
                      buf);
      return NULL;
    }
  }
  if (!tfc_random_read_shape(ctx, ctx->inputs[0], &rank, dims)) return NULL;
  if (sk == SEED_V1) {
    const tfc_tensor *s = ctx->inputs[1];
    if (s->rank != 1 || s->dims[0] != 2) {
      (void)tfc_random_seed_generator(ctx, 1, g);
      return NULL;
    }
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, dt, rank, dims);
  if (out == NULL) return NULL;
  if (out->nelems == 0) {
    *empty = true;
    return NULL;
  }
  bool ok = sk == SEED_V1 ? tfc_random_seed_generator(ctx, 1, g) : tfc_random_key_counter_generator(ctx, 1, g);
  return ok ? out : NULL;
}

/* Shared compute of the real-valued ops (uniform, normal, truncated). */
static void real_compute(tfc_kernel_ctx *ctx, seed_kind sk, tfc_random_dist kind) {
  tfc_dtype dt = tfc_dtype_base(ctx->out_types[0]);
  if (dt != TFC_DTYPE_FLOAT && dt != TFC_DTYPE_DOUBLE && dt != TFC_DTYPE_HALF &&
      dt != TFC_DTYPE_BFLOAT16) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s: unsupported dtype %s", ctx->op_type,
                    tfc_dtype_name(dt));
    return;
  }
  tfc_philox g = {{0}, {0}};
  bool empty;
  tfc_tensor *out = start(ctx, sk, dt, &g, &empty);
  if (out != NULL) tfc_random_fill(ctx, kind, out, g, 0, 0);
}

/* StatelessRandomUniform: values in [0, 1). */
static void uniform_compute(tfc_kernel_ctx *ctx) { real_compute(ctx, SEED_V1, TFC_RANDOM_UNIFORM); }
/* StatelessRandomNormal: N(0, 1). */
static void normal_compute(tfc_kernel_ctx *ctx) { real_compute(ctx, SEED_V1, TFC_RANDOM_NORMAL); }
/* StatelessTruncatedNormal: N(0, 1) within (-2, 2). */
static void truncated_compute(tfc_kernel_ctx *ctx) {
  real_compute(ctx, SEED_V1, TFC_RANDOM_TRUNCATED);
}
/* StatelessRandomUniformV2. */
static void uniform_v2_compute(tfc_kernel_ctx *ctx) {
  real_compute(ctx, SEED_V2, TFC_RANDOM_UNIFORM);
}
/* StatelessRandomNormalV2. */
static void normal_v2_compute(tfc_kernel_ctx *ctx) { real_compute(ctx, SEED_V2, TFC_RANDOM_NORMAL); }
/* StatelessTruncatedNormalV2. */
static void truncated_v2_compute(tfc_kernel_ctx *ctx) {
  real_compute(ctx, SEED_V2, TFC_RANDOM_TRUNCATED);
}

/* True for the integer output types the full-range / ranged ops accept. */
static bool int_type(tfc_dtype dt, bool allow_unsigned) {
  if (dt == TFC_DTYPE_INT32 || dt == TFC_DTYPE_INT64) return true;
  return allow_unsigned && (dt == TFC_DTYPE_UINT32 || dt == TFC_DTYPE_UINT64);
}

/* Shared compute of StatelessRandomUniformFullInt[V2]: every bit pattern of
 * the output type equally likely. */
static void full_int_common(tfc_kernel_ctx *ctx, seed_kind sk) {
  tfc_dtype dt = tfc_dtype_base(ctx->out_types[0]);
  if (!int_type(dt, true)) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s: unsupported dtype %s", ctx->op_type,
                    tfc_dtype_name(dt));
    return;
  }
  tfc_philox g = {{0}, {0}};
  bool empty;
  tfc_tensor *out = start(ctx, sk, dt, &g, &empty);
  if (out != NULL) tfc_random_fill(ctx, TFC_RANDOM_FULL_INT, out, g, 0, 0);
}

/* StatelessRandomUniformFullInt. */
static void full_int_compute(tfc_kernel_ctx *ctx) { full_int_common(ctx, SEED_V1); }
/* StatelessRandomUniformFullIntV2. */
static void full_int_v2_compute(tfc_kernel_ctx *ctx) { full_int_common(ctx, SEED_V2); }

/* Shared compute of StatelessRandomUniformInt[V2]: integers in
 * [minval, maxval) by TF's modulo reduction; minval/maxval are inputs
 * `at` and `at + 1`, checked only when the output is not empty (as TF). */
static void uniform_int_common(tfc_kernel_ctx *ctx, seed_kind sk, int at) {
  tfc_dtype dt = tfc_dtype_base(ctx->out_types[0]);
  if (!int_type(dt, false)) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s: unsupported dtype %s", ctx->op_type,
                    tfc_dtype_name(dt));
    return;
  }
  tfc_philox g = {{0}, {0}};
  bool empty;
  tfc_tensor *out = start(ctx, sk, dt, &g, &empty);
  if (out == NULL) return;
  const tfc_tensor *lo_t = ctx->inputs[at], *hi_t = ctx->inputs[at + 1];
  char buf[160];
  if (lo_t->rank != 0) {
    tfc_random_shape_text(lo_t, buf, sizeof buf);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "minval must be 0-D, got shape %s", buf);
    return;
  }
  if (hi_t->rank != 0) {
    tfc_random_shape_text(hi_t, buf, sizeof buf);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "maxval must be 0-D, got shape %s", buf);
    return;
  }
  int64_t lo = tfc_tensor_get_int64(lo_t, 0), hi = tfc_tensor_get_int64(hi_t, 0);
  bool is_unsigned = dt == TFC_DTYPE_UINT32 || dt == TFC_DTYPE_UINT64;
  bool less = is_unsigned ? (uint64_t)lo < (uint64_t)hi : lo < hi;
  if (!less) {
    if (is_unsigned)
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Need minval < maxval: %llu >= %llu",
                      (unsigned long long)lo, (unsigned long long)hi);
    else
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Need minval < maxval: %lld >= %lld",
                      (long long)lo, (long long)hi);
    return;
  }
  bool narrow = dt == TFC_DTYPE_INT32 || dt == TFC_DTYPE_UINT32;
  uint64_t range = narrow ? (uint64_t)((uint32_t)hi - (uint32_t)lo) : (uint64_t)hi - (uint64_t)lo;
  tfc_random_fill(ctx, TFC_RANDOM_INT, out, g, lo, range);
}

/* StatelessRandomUniformInt(shape, seed, minval, maxval). */
static void uniform_int_compute(tfc_kernel_ctx *ctx) { uniform_int_common(ctx, SEED_V1, 2); }
/* StatelessRandomUniformIntV2(shape, key, counter, alg, minval, maxval). */
static void uniform_int_v2_compute(tfc_kernel_ctx *ctx) { uniform_int_common(ctx, SEED_V2, 4); }

/* StatelessMultinomial(logits, num_samples, seed): Multinomial's sampler
 * over the seed's generator. */
static void multinomial_compute(tfc_kernel_ctx *ctx) {
  tfc_philox g = {{0}, {0}};
  if (!tfc_random_seed_generator(ctx, 2, &g)) return;
  tfc_random_multinomial(ctx, ctx->inputs[0], ctx->inputs[1], &g);
}

/* StatelessShuffle(value, key, counter, alg): RandomShuffle's permutation
 * with the words of the given generator. */
static void shuffle_compute(tfc_kernel_ctx *ctx) {
  tfc_philox g = {{0}, {0}};
  if (!tfc_random_key_counter_generator(ctx, 1, &g)) return;
  tfc_random_shuffle(ctx, ctx->inputs[0], &g);
}

/* ------------------------------------------------------------ key / counter */

/* Writes the scrambled seed of input 0 as the V2 key ([1] uint64) and
 * counter ([2] uint64) into outputs 0 and 1. */
static bool write_key_counter(tfc_kernel_ctx *ctx) {
  tfc_philox g = {{0}, {0}};
  if (!tfc_random_seed_generator(ctx, 0, &g)) return false;
  int64_t one = 1, two = 2;
  tfc_tensor *key = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_UINT64, 1, &one);
  if (key == NULL) return false;
  tfc_tensor *counter = tfc_kernel_alloc_output(ctx, 1, TFC_DTYPE_UINT64, 1, &two);
  if (counter == NULL) return false;
  ((uint64_t *)key->data)[0] = (uint64_t)g.key[0] | ((uint64_t)g.key[1] << 32);
  uint64_t *c = counter->data;
  c[0] = (uint64_t)g.counter[0] | ((uint64_t)g.counter[1] << 32);
  c[1] = (uint64_t)g.counter[2] | ((uint64_t)g.counter[3] << 32);
  return true;
}

/* Writes the CPU's algorithm (Philox) as an int32 scalar to output i. */
static void write_alg(tfc_kernel_ctx *ctx, int i) {
  tfc_tensor *alg = tfc_kernel_alloc_output(ctx, i, TFC_DTYPE_INT32, 0, NULL);
  if (alg != NULL) ((int32_t *)alg->data)[0] = RNG_ALG_PHILOX;
}

/* StatelessRandomGetKeyCounter(seed) -> key, counter. */
static void get_key_counter_compute(tfc_kernel_ctx *ctx) { (void)write_key_counter(ctx); }

/* StatelessRandomGetKeyCounterAlg(seed) -> key, counter, alg. */
static void get_key_counter_alg_compute(tfc_kernel_ctx *ctx) {
  if (write_key_counter(ctx)) write_alg(ctx, 2);
}

/* StatelessRandomGetAlg() -> the algorithm auto-select picks on the CPU. */
static void get_alg_compute(tfc_kernel_ctx *ctx) { write_alg(ctx, 0); }

/* ------------------------------------------------------------ table */

/* Output types TF's CPU has StatelessRandomUniformIntV2 kernels for. */
static const tfc_dtype int_v2_types[] = {TFC_DTYPE_INT32, TFC_DTYPE_INT64, TFC_DTYPE_INVALID};

static const tfc_kernel_def defs[] = {
    {"StatelessRandomUniform", "CPU", NULL, NULL, NULL, uniform_compute, NULL, 0},
    {"StatelessRandomNormal", "CPU", NULL, NULL, NULL, normal_compute, NULL, 0},
    {"StatelessTruncatedNormal", "CPU", NULL, NULL, NULL, truncated_compute, NULL, 0},
    {"StatelessRandomUniformInt", "CPU", NULL, NULL, NULL, uniform_int_compute, NULL, 0},
    {"StatelessRandomUniformFullInt", "CPU", NULL, NULL, NULL, full_int_compute, NULL, 0},
    {"StatelessMultinomial", "CPU", NULL, NULL, NULL, multinomial_compute, NULL, 0},
    {"StatelessRandomUniformV2", "CPU", NULL, NULL, NULL, uniform_v2_compute, NULL, 0},
    {"StatelessRandomNormalV2", "CPU", NULL, NULL, NULL, normal_v2_compute, NULL, 0},
    {"StatelessTruncatedNormalV2", "CPU", NULL, NULL, NULL, truncated_v2_compute, NULL, 0},
    {"StatelessRandomUniformIntV2", "CPU", "dtype", int_v2_types, NULL, uniform_int_v2_compute, NULL, 0},
    {"StatelessRandomUniformFullIntV2", "CPU", NULL, NULL, NULL, full_int_v2_compute, NULL, 0},
    {"StatelessShuffle", "CPU", NULL, NULL, NULL, shuffle_compute, NULL, 0},
    {"StatelessRandomGetKeyCounter", "CPU", NULL, NULL, NULL, get_key_counter_compute, NULL, 0},
    {"StatelessRandomGetKeyCounterAlg", "CPU", NULL, NULL, NULL, get_key_counter_alg_compute, NULL,
     0},
    {"StatelessRandomGetAlg", "CPU", NULL, NULL, NULL, get_alg_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_stateless_random = {defs, (int)(sizeof defs / sizeof defs[0])};
