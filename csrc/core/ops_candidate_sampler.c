/*
 * ops_candidate_sampler.c — op definitions for TF's candidate samplers
 * (candidate_sampling_ops.cc): Uniform, LogUniform, LearnedUnigram,
 * FixedUnigram and All CandidateSampler (stateful: each run draws new
 * candidates from a generator seeded by seed / seed2) and
 * ComputeAccidentalHits.
 */
#include "core/op_registry.h"
#include "core/op_tables.h"

/* true_classes is [batch, num_true]; outputs [num_sampled], [batch, num_true],
 * [num_sampled]. */
static bool shape_sampler(tfc_shape_ctx *ctx) {
  const tfc_shape *t = &ctx->in_shapes[0];
  if (t->rank >= 0 && t->rank != 2)
    return tfc_shape_fail(ctx, "Shape must be rank 2 but is rank %d", t->rank);
  int64_t num_true = 0, num_sampled = 0;
  const tfc_attr_value *a = tfc_attrs_find(ctx->attrs, "num_true");
  if (a && a->kind == TFC_ATTR_I) num_true = a->v.i;
  a = tfc_attrs_find(ctx->attrs, "num_sampled");
  if (a && a->kind == TFC_ATTR_I) num_sampled = a->v.i;
  if (t->rank == 2 && t->dims[1] >= 0 && t->dims[1] != num_true)
    return tfc_shape_fail(ctx, "Dimension must be %lld but is %lld", (long long)num_true,
                          (long long)t->dims[1]);
  int64_t td[2] = {t->rank == 2 ? t->dims[0] : -1, num_true};
  ctx->out_shapes[0] = tfc_shape_make(1, &num_sampled);
  ctx->out_shapes[1] = tfc_shape_make(2, td);
  ctx->out_shapes[2] = tfc_shape_make(1, &num_sampled);
  return true;
}

/* ComputeAccidentalHits: three vectors of unknown length. */
static bool shape_accidental_hits(tfc_shape_ctx *ctx) {
  const tfc_shape *t = &ctx->in_shapes[0], *s = &ctx->in_shapes[1];
  if (t->rank >= 0 && t->rank != 2)
    return tfc_shape_fail(ctx, "Shape must be rank 2 but is rank %d", t->rank);
  if (s->rank >= 0 && s->rank != 1)
    return tfc_shape_fail(ctx, "Shape must be rank 1 but is rank %d", s->rank);
  for (int i = 0; i < 3; i++) ctx->out_shapes[i] = tfc_shape_unknown_dims(1);
  return true;
}

#define OUTS "sampled_candidates: int64; true_expected_count: float; sampled_expected_count: float"
#define BASE "num_true: int >= 1; num_sampled: int >= 1; unique: bool; "
#define SEEDS "seed: int = 0; seed2: int = 0"

static const tfc_op_spec specs[] = {
    {"UniformCandidateSampler", "true_classes: int64", OUTS,
     BASE "range_max: int >= 1; " SEEDS, TFC_OP_STATEFUL, shape_sampler},
    {"LogUniformCandidateSampler", "true_classes: int64", OUTS,
     BASE "range_max: int >= 1; " SEEDS, TFC_OP_STATEFUL, shape_sampler},
    {"LearnedUnigramCandidateSampler", "true_classes: int64", OUTS,
     BASE "range_max: int >= 1; " SEEDS, TFC_OP_STATEFUL, shape_sampler},
    {"FixedUnigramCandidateSampler", "true_classes: int64", OUTS,
     BASE "range_max: int >= 1; vocab_file: string = ''; distortion: float = 1; "
     "num_reserved_ids: int = 0; num_shards: int >= 1 = 1; shard: int >= 0 = 0; "
     "unigrams: list(float) = []; " SEEDS, TFC_OP_STATEFUL, shape_sampler},
    {"AllCandidateSampler", "true_classes: int64", OUTS, BASE SEEDS, TFC_OP_STATEFUL,
     shape_sampler},
    {"ComputeAccidentalHits", "true_classes: int64; sampled_candidates: int64",
     "indices: int32; ids: int64; weights: float", "num_true: int; " SEEDS, 0,
     shape_accidental_hits},
};

const tfc_op_table tfc_ops_candidate_sampler = {specs, (int)(sizeof specs / sizeof specs[0])};
