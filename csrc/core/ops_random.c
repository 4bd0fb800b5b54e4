/*
 * ops_random.c — op definitions for TF's stateful random ops:
 * RandomUniform, RandomStandardNormal, TruncatedNormal, RandomUniformInt,
 * RandomShuffle, RandomGamma, RandomPoissonV2, ParameterizedTruncatedNormal
 * (random_ops.cc) and
 * Multinomial (multinomial_op.cc). All are
 * stateful: each run draws new values from a generator seeded by the `seed` /
 * `seed2` attrs.
 */
#include "core/op_registry.h"
#include "core/op_tables.h"

/* TF's RandomShape: the output shape is the value of the 1-D shape input. */
static bool shape_random(tfc_shape_ctx *ctx) {
  const tfc_shape *s = &ctx->in_shapes[0];
  if (s->rank >= 0 && s->rank != 1)
    return tfc_shape_fail(ctx, "Shape must be rank 1 but is rank %d", s->rank);
  tfc_shape out;
  tfc_shape_from_const_input(ctx, 0, &out);
  ctx->out_shapes[0] = out;
  return true;
}

/* RandomUniformInt: minval and maxval are scalars; then RandomShape. */
static bool shape_random_int(tfc_shape_ctx *ctx) {
  for (int i = 1; i <= 2; i++) {
    const tfc_shape *s = &ctx->in_shapes[i];
    if (s->rank >= 0 && s->rank != 0)
      return tfc_shape_fail(ctx, "Shape must be rank 0 but is rank %d", s->rank);
  }
  return shape_random(ctx);
}

/* Multinomial: logits is [batch, classes], num_samples a scalar; the output
 * is [batch, num_samples] (num_samples read when it is a build-time constant). */
static bool shape_multinomial(tfc_shape_ctx *ctx) {
  const tfc_shape *logits = &ctx->in_shapes[0], *ns = &ctx->in_shapes[1];
  if (logits->rank >= 0 && logits->rank != 2)
    return tfc_shape_fail(ctx, "Shape must be rank 2 but is rank %d", logits->rank);
  if (ns->rank >= 0 && ns->rank != 0)
    return tfc_shape_fail(ctx, "Shape must be rank 0 but is rank %d", ns->rank);
  int64_t dims[2] = {logits->rank == 2 ? logits->dims[0] : -1, -1};
  const tfc_tensor *v = ctx->in_values ? ctx->in_values[1] : NULL;
  if (v && v->rank == 0 && v->nelems == 1) {
    dims[1] = tfc_tensor_get_int64(v, 0);
    if (dims[1] < 0)
      return tfc_shape_fail(ctx, "Dimension size, given by scalar input 1, must be "
                                 "non-negative but is %lld", (long long)dims[1]);
  }
  ctx->out_shapes[0] = tfc_shape_make(2, dims);
  return true;
}

/* RandomGamma / RandomPoissonV2: the shape input's value followed by the
 * shape of the parameter input 1. */
static bool shape_random_param(tfc_shape_ctx *ctx) {
  if (!shape_random(ctx)) return false;
  tfc_shape head = ctx->out_shapes[0];
  const tfc_shape *p = &ctx->in_shapes[1];
  if (head.rank < 0 || p->rank < 0) {
    ctx->out_shapes[0] = tfc_shape_unknown();
    return true;
  }
  if (head.rank + p->rank > TFC_MAX_RANK)
    return tfc_shape_fail(ctx, "Shape has more than %d dimensions", TFC_MAX_RANK);
  int64_t dims[TFC_MAX_RANK];
  for (int i = 0; i < head.rank; i++) dims[i] = head.dims[i];
  for (int i = 0; i < p->rank; i++) dims[head.rank + i] = p->dims[i];
  ctx->out_shapes[0] = tfc_shape_make(head.rank + p->rank, dims);
  return true;
}

#define SEED_ATTRS "seed: int = 0; seed2: int = 0; "
#define REAL_ATTRS SEED_ATTRS "dtype: {half, bfloat16, float, double}; T: {int32, int64}"

static const tfc_op_spec specs[] = {
    {"RandomUniform", "shape: T", "output: dtype", REAL_ATTRS, TFC_OP_STATEFUL, shape_random},
    {"RandomStandardNormal", "shape: T", "output: dtype", REAL_ATTRS, TFC_OP_STATEFUL,
     shape_random},
    {"TruncatedNormal", "shape: T", "output: dtype", REAL_ATTRS, TFC_OP_STATEFUL, shape_random},
    {"RandomUniformInt", "shape: T; minval: Tout; maxval: Tout", "output: Tout",
     SEED_ATTRS "Tout: {int32, int64}; T: {int32, int64}", TFC_OP_STATEFUL, shape_random_int},
    {"RandomShuffle", "value: T", "output: T", SEED_ATTRS "T: type", TFC_OP_STATEFUL,
     tfc_shape_fn_unchanged},
    {"Multinomial", "logits: T; num_samples: int32", "output: output_dtype",
     SEED_ATTRS "T: realnumbertype; output_dtype: {int32, int64} = int64", TFC_OP_STATEFUL,
     shape_multinomial},
    {"RandomGamma", "shape: S; alpha: T", "output: T",
     SEED_ATTRS "S: {int32, int64}; T: {half, float, double}", TFC_OP_STATEFUL, shape_random_param},
    {"ParameterizedTruncatedNormal",
     "shape: T; means: dtype; stdevs: dtype; minvals: dtype; maxvals: dtype", "output: dtype",
     REAL_ATTRS, TFC_OP_STATEFUL, shape_random},
    {"RandomPoissonV2", "shape: S; rate: R", "output: dtype",
     SEED_ATTRS "S: {int32, int64}; R: {half, float, double, int32, int64} = double; "
     "dtype: {half, float, double, int32, int64} = int64", TFC_OP_STATEFUL, shape_random_param},
};

const tfc_op_table tfc_ops_random = {specs, (int)(sizeof specs / sizeof specs[0])};
