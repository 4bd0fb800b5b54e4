/*
 * candidate_sampler.c — CPU kernels for TF's candidate samplers
 * (UniformCandidateSampler, LogUniformCandidateSampler,
 * LearnedUnigramCandidateSampler, FixedUnigramCandidateSampler,
 * AllCandidateSampler) and ComputeAccidentalHits, with TF's streams so
 * seeded samples equal TF's.
 *
 * Each compute reserves 2048 * num_sampled 32-bit words of the kernel's
 * Philox stream and reads them one at a time (TF's SimplePhilox): a double is
 * two words, a 64-bit integer two words (low first), a bounded integer is
 * drawn by rejection of the low biased range (ExactUniformInt). With
 * `unique`, samples are drawn until num_sampled distinct values are found,
 * and the expected counts become 1 - (1 - p)^tries. True classes outside
 * [0, range_max) are rejected (InvalidArgument), as TF does.
 *
 * The learned unigram sampler counts the true classes it has seen (every
 * class starts at 1) in a Fenwick tree, so a pick is the class whose
 * cumulative-count interval holds a uniform integer, as TF's WeightedPicker
 * does; the fixed unigram sampler uses TF's alias table (Walker's method,
 * built in TF's order).
 */
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "core/dtype.h"
#include "kernels/kernel.h"
#include "kernels/kernel_tables.h"
#include "kernels/philox.h"
#include "kernels/random_internal.h"

typedef enum sampler_kind { S_UNIFORM, S_LOG_UNIFORM, S_LEARNED, S_FIXED, S_ALL } sampler_kind;

typedef struct sampler {
  sampler_kind kind;
  int64_t num_true, num_sampled, range;
  bool unique;
  tfc_guarded_philox gen;
  double log_range;      /* S_LOG_UNIFORM: log1p(range) */
  /* S_LEARNED: counts and their Fenwick tree (1-based), under mu */
  pthread_mutex_t mu;
  int32_t *count;
  int64_t *tree;
  int64_t total;
  /* S_FIXED: weights, their float total, the alias table */
  float *weights;
  float total_weight;
  float *prob;
  int32_t *alt;
} sampler;

/* ------------------------------------------------------------ SimplePhilox */

/* The next 64-bit word: low half first. */
static uint64_t rand64(tfc_philox_single *s) {
  uint64_t lo = tfc_philox_single_next(s), hi = tfc_philox_single_next(s);
  return lo | (hi << 32);
}

/* A uniform integer in [0, n) by TF's ExactUniformInt over 32-bit words. */
static uint32_t uniform32(tfc_philox_single *s, uint32_t n) {
  if (n == 0) return tfc_philox_single_next(s) * n;
  if ((n & (n - 1)) == 0) return tfc_philox_single_next(s) & (n - 1);
  uint32_t rem = UINT32_MAX % n + 1, r;
  do r = tfc_philox_single_next(s);
  while (r < rem);
  return r % n;
}

/* A uniform integer in [0, n) by ExactUniformInt over 64-bit words. */
static uint64_t uniform64(tfc_philox_single *s, uint64_t n) {
  if (n == 0) return rand64(s) * n;
  if ((n & (n - 1)) == 0) return rand64(s) & (n - 1);
  uint64_t rem = UINT64_MAX % n + 1, r;
  do r = rand64(s);
  while (r < rem);
  return r % n;
}

/* ------------------------------------------------------------ learned counts */

/* Adds d to the count of class i (0-based) in the Fenwick tree. */
static void tree_add(sampler *sp, int64_t i, int64_t d) {
  for (int64_t k = i + 1; k <= sp->range; k += k & -k) sp->tree[k] += d;
  sp->total += d;
}

/* The class whose cumulative-count interval holds w (0 <= w < total). */
static int64_t tree_find(const sampler *sp, int64_t w) {
  int64_t pos = 0, step = 1;
  while (step * 2 <= sp->range) step *= 2;
  for (; step > 0; step /= 2) {
    if (pos + step <= sp->range && sp->tree[pos + step] <= w) {
      pos += step;
      w -= sp->tree[pos];
    }
  }
  return pos;
}

/* ------------------------------------------------------------ distributions */

/* One sample of the sampler's distribution. */
static int64_t sample_one(const sampler *sp, tfc_philox_single *s) {
  switch (sp->kind) {
    case S_UNIFORM:
      return (int64_t)uniform64(s, (uint64_t)sp->range);
    case S_LOG_UNIFORM: {
      uint32_t x0 = tfc_philox_single_next(s), x1 = tfc_philox_single_next(s);
      int64_t v = (int64_t)exp(tfc_philox_to_double(x0, x1) * sp->log_range) - 1;
      return v % sp->range;
    }
    case S_LEARNED:
      if (sp->total == 0) return -1;
      return tree_find(sp, (int64_t)uniform32(s, (uint32_t)sp->total));
    case S_FIXED: {
      float r = tfc_philox_to_float(tfc_philox_single_next(s));
      int64_t idx = uniform32(s, (uint32_t)sp->range);
      return r < sp->prob[idx] ? idx : sp->alt[idx];
    }
    default:
      return 0;
  }
}

/* The probability of value under the sampler's distribution (float, as TF). */
static float probability(const sampler *sp, int64_t v) {
  switch (sp->kind) {
    case S_UNIFORM:
      return (float)(1.0 / (double)sp->range);
    case S_LOG_UNIFORM:
      return (float)(log((v + 2.0) / (v + 1.0)) / sp->log_range);
    case S_LEARNED: {
      if (v < 0 || v >= sp->range) return 0;
      return (float)sp->count[v] / (float)sp->total;
    }
    case S_FIXED:
      if (v < 0 || v >= sp->range) return 0;
      return sp->weights[v] / sp->total_weight;
    default:
      return 1;
  }
}

/* TF's ExpectedCountHelper: p * batch without rejections, else the chance of
 * appearing in `tries` draws, in float. */
static float expected_count(float p, int64_t batch, int64_t tries) {
  if (tries == batch) return p * (float)batch;
  return -expm1f((float)tries * log1pf(-p));
}

/* ------------------------------------------------------------ fixed unigrams */

/* Builds the alias table over sp->weights (TF's DistributionSampler order);
 * false on OOM. */
static bool build_alias(sampler *sp) {
  int64_t n = sp->range;
  double *pr = tfc_malloc(sizeof(double) * (size_t)n);
  int64_t *high = tfc_malloc(sizeof(int64_t) * (size_t)n);
  int64_t *low = tfc_malloc(sizeof(int64_t) * (size_t)n);
  sp->prob = tfc_malloc(sizeof(float) * (size_t)n);
  sp->alt = tfc_malloc(sizeof(int32_t) * (size_t)n);
  bool ok = pr && high && low && sp->prob && sp->alt;
  if (ok) {
    double sum = 0;
    for (int64_t i = 0; i < n; i++) {
      sum += sp->weights[i];
      sp->alt[i] = -1;
    }
    int64_t nh = 0, nl = 0;
    for (int64_t i = 0; i < n; i++) {
      double p = ((double)sp->weights[i] * (double)n) / sum;
      pr[i] = p;
      if (p < 1.0) low[nl++] = i;
      else high[nh++] = i;
    }
    while (nh > 0 && nl > 0) {
      int64_t l = low[--nl], h = high[--nh];
      sp->alt[l] = (int32_t)h;
      double remaining = pr[h] - (1.0 - pr[l]);
      pr[h] = remaining;
      if (remaining < 1.0) low[nl++] = h;
      else high[nh++] = h;
    }
    for (int64_t i = 0; i < n; i++) sp->prob[i] = (float)pr[i];
    for (int64_t i = 0; i < nh; i++) {
      sp->prob[high[i]] = 1.0f;
      sp->alt[high[i]] = (int32_t)high[i];
    }
    for (int64_t i = 0; i < nl; i++) {
      sp->prob[low[i]] = 1.0f;
      sp->alt[low[i]] = (int32_t)low[i];
    }
  }
  tfc_free(pr);
  tfc_free(high);
  tfc_free(low);
  return ok;
}

/* Appends weight w (distorted) when word_id belongs to this shard. */
static bool push_weight(sampler *sp, int64_t *n, int64_t cap, float w) {
  if (*n >= cap) return false;
  sp->weights[(*n)++] = w;
  return true;
}

/* Loads the fixed sampler's weights: num_reserved_ids zeros, then the
 * unigrams (or the last field of each vocab_file line) raised to
 * `distortion`, keeping the ids of this shard; checks that they number
 * range_max. */
static bool load_fixed(const tfc_kernel_init *ki, sampler *sp) {
  int64_t reserved = 0, shards = 1, shard = 0;
  float distortion = 1;
  const tfc_attr_value *a;
  if ((a = tfc_attrs_find(ki->attrs, "num_reserved_ids")) && a->kind == TFC_ATTR_I) reserved = a->v.i;
  if ((a = tfc_attrs_find(ki->attrs, "num_shards")) && a->kind == TFC_ATTR_I) shards = a->v.i;
  if ((a = tfc_attrs_find(ki->attrs, "shard")) && a->kind == TFC_ATTR_I) shard = a->v.i;
  if ((a = tfc_attrs_find(ki->attrs, "distortion")) && a->kind == TFC_ATTR_F) distortion = a->v.f;
  const tfc_attr_value *vocab = tfc_attrs_find(ki->attrs, "vocab_file");
  const tfc_attr_value *uni = tfc_attrs_find(ki->attrs, "unigrams");
  bool has_vocab = vocab && vocab->kind == TFC_ATTR_S && vocab->v.s.len > 0;
  int64_t n_uni = uni && uni->kind == TFC_ATTR_LIST ? uni->v.list.n : 0;
  if (!has_vocab && n_uni == 0)
    return tfc_status_set(ki->st, TFC_CODE_INVALID_ARGUMENT,
                          "Must provide either vocab_file or unigrams.");
  if (shards < 1 || shard < 0 || shard >= shards)
    return tfc_status_set(ki->st, TFC_CODE_INVALID_ARGUMENT, "shard must be in [0, num_shards)");
  int64_t cap = sp->range;
  sp->weights = tfc_malloc(sizeof(float) * (size_t)cap);
  if (sp->weights == NULL)
    return tfc_status_set(ki->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  int64_t n = 0;
  bool fits = true;
  for (int64_t id = 0; id < reserved && fits; id++)
    if (id % shards == shard) fits = push_weight(sp, &n, cap, 0.0f);
  int64_t word_id = n;
  sp->total_weight = 0;
  if (has_vocab) {
    char path[4096];
    size_t len = vocab->v.s.len < sizeof path - 1 ? vocab->v.s.len : sizeof path - 1;
    memcpy(path, vocab->v.s.data, len);
    path[len] = '\0';
    FILE *f = fopen(path, "r");
    if (f == NULL)
      return tfc_status_set(ki->st, TFC_CODE_NOT_FOUND, "%s; No such file or directory", path);
    char line[8192];
    while (fits && fgets(line, sizeof line, f)) {
      size_t ll = strlen(line);
      while (ll > 0 && (line[ll - 1] == '\n' || line[ll - 1] == '\r')) line[--ll] = '\0';
      if (word_id % shards == shard) {
        const char *last = strrchr(line, ',');
        last = last ? last + 1 : line;
        char *end;
        float w = strtof(last, &end);
        if (end == last || *end != '\0') {
          fclose(f);
          return tfc_status_set(ki->st, TFC_CODE_INVALID_ARGUMENT,
                                "Wrong vocabulary format at line: %s", line);
        }
        w = powf(w, distortion);
        sp->total_weight += w;
        fits = push_weight(sp, &n, cap, w);
      }
      word_id++;
    }
    fclose(f);
  } else {
    for (int64_t i = 0; i < n_uni && fits; i++, word_id++) {
      if (word_id % shards != shard) continue;
      float w = powf(uni->v.list.v.f[i], distortion);
      sp->total_weight += w;
      fits = push_weight(sp, &n, cap, w);
    }
  }
  if (!fits || n != sp->range)
    return tfc_status_set(ki->st, TFC_CODE_INVALID_ARGUMENT,
                          "range is %lld must be equal to weights size  %lld",
                          (long long)sp->range, (long long)(fits ? n : n + 1));
  if (!build_alias(sp))
    return tfc_status_set(ki->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  return true;
}

/* ------------------------------------------------------------ kernel state */

/* destroy: frees the sampler and its tables. */
static void sampler_destroy(void *state) {
  sampler *sp = state;
  if (sp == NULL) return;
  tfc_guarded_philox_destroy(&sp->gen);
  pthread_mutex_destroy(&sp->mu);
  tfc_free(sp->count);
  tfc_free(sp->tree);
  tfc_free(sp->weights);
  tfc_free(sp->prob);
  tfc_free(sp->alt);
  tfc_free(sp);
}

/* Reads int attr `name` (0 when absent). */
static int64_t attr_int(const tfc_kernel_init *ki, const char *name) {
  const tfc_attr_value *a = tfc_attrs_find(ki->attrs, name);
  return a && a->kind == TFC_ATTR_I ? a->v.i : 0;
}

/* init: parses the attrs and builds the sampler of the op's kind. */
static bool sampler_init(const tfc_kernel_init *ki, void **state) {
  sampler *sp = tfc_calloc(1, sizeof *sp);
  if (sp == NULL) return tfc_status_set(ki->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  const char *op = ki->op_type;
  sp->kind = !strcmp(op, "UniformCandidateSampler")       ? S_UNIFORM
             : !strcmp(op, "LogUniformCandidateSampler")  ? S_LOG_UNIFORM
             : !strcmp(op, "LearnedUnigramCandidateSampler") ? S_LEARNED
             : !strcmp(op, "FixedUnigramCandidateSampler") ? S_FIXED
                                                            : S_ALL;
  sp->num_true = attr_int(ki, "num_true");
  sp->num_sampled = attr_int(ki, "num_sampled");
  const tfc_attr_value *u = tfc_attrs_find(ki->attrs, "unique");
  sp->unique = u && u->kind == TFC_ATTR_B && u->v.b;
  sp->range = sp->kind == S_ALL ? sp->num_sampled : attr_int(ki, "range_max");
  if (pthread_mutex_init(&sp->mu, NULL) != 0) {
    tfc_free(sp);
    return tfc_status_set(ki->st, TFC_CODE_INTERNAL, "cannot create a lock");
  }
  if (!tfc_guarded_philox_init(&sp->gen, attr_int(ki, "seed"), attr_int(ki, "seed2"))) {
    pthread_mutex_destroy(&sp->mu);
    tfc_free(sp);
    return tfc_status_set(ki->st, TFC_CODE_INTERNAL, "cannot create a lock");
  }
  bool ok = true;
  if (sp->kind == S_LOG_UNIFORM) sp->log_range = log1p((double)sp->range);
  if (sp->kind == S_LEARNED) {
    if (sp->range >= INT32_MAX) {
      ok = tfc_status_set(ki->st, TFC_CODE_INVALID_ARGUMENT, "range_max must be < 2^31 - 1");
    } else {
      sp->count = tfc_malloc(sizeof(int32_t) * (size_t)sp->range);
      sp->tree = tfc_calloc((size_t)sp->range + 1, sizeof(int64_t));
      ok = sp->count && sp->tree;
      if (!ok) tfc_status_set(ki->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
      for (int64_t i = 0; ok && i < sp->range; i++) {
        sp->count[i] = 1;
        tree_add(sp, i, 1);
      }
    }
  }
  if (ok && sp->kind == S_FIXED) ok = load_fixed(ki, sp);
  if (!ok) {
    sampler_destroy(sp);
    return false;
  }
  *state = sp;
  return true;
}

/* ------------------------------------------------------------ compute */

/* Samples num_sampled candidates into cand / cand_count and the expected
 * counts of the true classes into true_count (TF's
 * SampleBatchGetExpectedCount). false when out of memory. */
static bool sample_batch(const sampler *sp, tfc_philox_single *s, int64_t *cand,
                         float *cand_count, const int64_t *trues, int64_t n_true,
                         float *true_count) {
  int64_t batch = sp->num_sampled, tries = 0;
  if (sp->kind == S_ALL) {
    for (int64_t i = 0; i < batch; i++) {
      cand[i] = i;
      cand_count[i] = 1;
    }
    for (int64_t i = 0; i < n_true; i++) true_count[i] = 1;
    return true;
  }
  if (sp->unique) {
    /* open-addressing set of the values picked so far */
    int64_t cap = 16;
    while (cap < 2 * batch) cap *= 2;
    int64_t *slots = tfc_malloc(sizeof(int64_t) * (size_t)cap);
    bool *used = tfc_calloc((size_t)cap, sizeof(bool));
    if (slots == NULL || used == NULL) {
      tfc_free(slots);
      tfc_free(used);
      return false;
    }
    int64_t picked = 0;
    while (picked < batch) {
      tries++;
      int64_t v = sample_one(sp, s);
      uint64_t h = ((uint64_t)v * 0x9E3779B97F4A7C15ull) & (uint64_t)(cap - 1);
      while (used[h] && slots[h] != v) h = (h + 1) & (uint64_t)(cap - 1);
      if (used[h]) continue;
      used[h] = true;
      slots[h] = v;
      cand[picked++] = v;
    }
    tfc_free(slots);
    tfc_free(used);
  } else {
    for (int64_t i = 0; i < batch; i++) cand[i] = sample_one(sp, s);
    tries = batch;
  }
  for (int64_t i = 0; i < batch; i++)
    cand_count[i] = expected_count(probability(sp, cand[i]), batch, tries);
  for (int64_t i = 0; i < n_true; i++)
    true_count[i] = expected_count(probability(sp, trues[i]), batch, tries);
  return true;
}

/* The five candidate samplers: true_classes [batch, num_true] int64 ->
 * sampled_candidates [num_sampled], true_expected_count [batch, num_true],
 * sampled_expected_count [num_sampled]. */
static void sampler_compute(tfc_kernel_ctx *ctx) {
  sampler *sp = ctx->state;
  const tfc_tensor *t = ctx->inputs[0];
  if (t->rank != 2) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "true_classes must be a matrix");
    return;
  }
  if (t->dims[1] != sp->num_true) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "true_classes must have num_true columns, expected: %lld was: %lld",
                    (long long)t->dims[1], (long long)sp->num_true);
    return;
  }
  const int64_t *tv = t->data;
  for (int64_t i = 0; i < t->nelems; i++) {
    if (tv[i] < 0 || tv[i] >= sp->range) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                      "`true_candidate` out of range [0, %lld), received %lld",
                      (long long)sp->range, (long long)tv[i]);
      return;
    }
  }
  if (sp->unique && sp->num_sampled > sp->range) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Sampler's range is too small.");
    return;
  }
  int64_t ns = sp->num_sampled, batch = t->dims[0];
  int64_t tdims[2] = {batch, sp->num_true};
  tfc_tensor *cand = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_INT64, 1, &ns);
  if (cand == NULL) return;
  tfc_tensor *tc = tfc_kernel_alloc_output(ctx, 1, TFC_DTYPE_FLOAT, 2, tdims);
  if (tc == NULL) return;
  tfc_tensor *cc = tfc_kernel_alloc_output(ctx, 2, TFC_DTYPE_FLOAT, 1, &ns);
  if (cc == NULL) return;
  uint64_t words = 2048u * (uint64_t)ns;
  tfc_philox gen = tfc_guarded_philox_reserve(&sp->gen, (words + 3) / 4);
  tfc_philox_single s;
  tfc_philox_single_init(&s, &gen);
  if (sp->kind == S_LEARNED) pthread_mutex_lock(&sp->mu);
  bool ok = sample_batch(sp, &s, cand->data, cc->data, t->data, t->nelems, tc->data);
  if (ok && sp->kind == S_LEARNED) {
    const int64_t *v = t->data;
    int64_t room = INT32_MAX - sp->total;
    int64_t n = t->nelems < room ? t->nelems : room;
    for (int64_t i = 0; i < n; i++) {
      sp->count[v[i]]++;
      tree_add(sp, v[i], 1);
    }
  }
  if (sp->kind == S_LEARNED) pthread_mutex_unlock(&sp->mu);
  if (!ok) tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
}

/* ------------------------------------------------------------ accidental hits */

/* ComputeAccidentalHits(true_classes, sampled_candidates): for every true
 * class equal to a sampled candidate, its row (indices, int32), the
 * candidate's position (ids, int64; the last position for repeated
 * candidates) and weight -FLT_MAX, in row-major order. */
static void accidental_hits_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *t = ctx->inputs[0], *sc = ctx->inputs[1];
  int64_t num_true = 0;
  const tfc_attr_value *a = tfc_attrs_find(ctx->attrs, "num_true");
  if (a && a->kind == TFC_ATTR_I) num_true = a->v.i;
  if (t->rank != 2 || t->dims[1] != num_true) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "true_candidates must be a batch_size * num_true matrix");
    return;
  }
  if (sc->rank != 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "sampled_candidates must be a vector, which is typically an output from "
                    "CandidateSampler");
    return;
  }
  const int64_t *tv = t->data, *sv = sc->data;
  int64_t ns = sc->dims[0], n = t->nelems, hits = 0;
  /* the position of each true class among the candidates (the last match) */
  int64_t *pos = tfc_malloc(sizeof(int64_t) * (size_t)(n > 0 ? n : 1));
  if (pos == NULL) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  for (int64_t i = 0; i < n; i++) {
    pos[i] = -1;
    for (int64_t k = ns - 1; k >= 0; k--)
      if (sv[k] == tv[i]) {
        pos[i] = k;
        break;
      }
    if (pos[i] >= 0) hits++;
  }
  tfc_tensor *idx = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_INT32, 1, &hits);
  tfc_tensor *ids = idx ? tfc_kernel_alloc_output(ctx, 1, TFC_DTYPE_INT64, 1, &hits) : NULL;
  tfc_tensor *w = ids ? tfc_kernel_alloc_output(ctx, 2, TFC_DTYPE_FLOAT, 1, &hits) : NULL;
  if (w != NULL) {
    int64_t h = 0;
    for (int64_t i = 0; i < n; i++) {
      if (pos[i] < 0) continue;
      ((int32_t *)idx->data)[h] = (int32_t)(i / num_true);
      ((int64_t *)ids->data)[h] = pos[i];
      ((float *)w->data)[h] = -FLT_MAX;
      h++;
    }
  }
  tfc_free(pos);
}

/* ------------------------------------------------------------ table */

#define SAMPLER(NAME) {NAME, "CPU", NULL, NULL, sampler_init, sampler_compute, sampler_destroy, 0}

static const tfc_kernel_def defs[] = {
    SAMPLER("UniformCandidateSampler"),
    SAMPLER("LogUniformCandidateSampler"),
    SAMPLER("LearnedUnigramCandidateSampler"),
    SAMPLER("FixedUnigramCandidateSampler"),
    SAMPLER("AllCandidateSampler"),
    {"ComputeAccidentalHits", "CPU", NULL, NULL, NULL, accidental_hits_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_candidate_sampler = {defs,
                                                        (int)(sizeof defs / sizeof defs[0])};
