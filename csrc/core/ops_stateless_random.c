/*
 * ops_stateless_random.c — op definitions for TF's stateless random ops
 * (stateless_random_ops.cc, stateless_random_ops_v2.cc): the V1 forms seeded
 * by a [2] seed tensor, the V2 forms by key / counter / alg tensors, and the
 * ops that turn a seed into a key and counter. All but StatelessRandomGetAlg
 * are pure functions of their inputs.
 */
#include "core/op_registry.h"
#include "core/op_tables.h"

/* Fails unless input i has rank `rank` (when its rank is known). */
static bool want_rank(tfc_shape_ctx *ctx, int i, int rank) {
  const tfc_shape *s = &ctx->in_shapes[i];
  if (s->rank >= 0 && s->rank != rank)
    return tfc_shape_fail(ctx, "Shape must be rank %d but is rank %d", rank, s->rank);
  return true;
}

/* Output 0 takes the value of the 1-D shape input 0. */
static bool shape_from_input0(tfc_shape_ctx *ctx) {
  if (!want_rank(ctx, 0, 1)) return false;
  tfc_shape out;
  tfc_shape_from_const_input(ctx, 0, &out);
  ctx->out_shapes[0] = out;
  return true;
}

/* Fails unless input i is a seed: a vector of 2 elements. */
static bool want_seed(tfc_shape_ctx *ctx, int i) {
  const tfc_shape *s = &ctx->in_shapes[i];
  if (!want_rank(ctx, i, 1)) return false;
  if (s->rank == 1 && s->dims[0] >= 0 && s->dims[0] != 2)
    return tfc_shape_fail(ctx, "Dimension must be 2 but is %lld", (long long)s->dims[0]);
  return true;
}

/* TF's StatelessShape: seed is [2]; the output shape is the shape input. */
static bool shape_stateless(tfc_shape_ctx *ctx) {
  return want_seed(ctx, 1) && shape_from_input0(ctx);
}

/* StatelessRandomUniformInt: also scalar minval / maxval. */
static bool shape_stateless_int(tfc_shape_ctx *ctx) {
  return want_rank(ctx, 2, 0) && want_rank(ctx, 3, 0) && shape_stateless(ctx);
}

/* V2 ops: key and counter are vectors, alg a scalar. */
static bool shape_stateless_v2(tfc_shape_ctx *ctx) {
  return want_rank(ctx, 1, 1) && want_rank(ctx, 2, 1) && want_rank(ctx, 3, 0) &&
         shape_from_input0(ctx);
}

/* StatelessRandomUniformIntV2: also scalar minval / maxval. */
static bool shape_stateless_int_v2(tfc_shape_ctx *ctx) {
  return want_rank(ctx, 4, 0) && want_rank(ctx, 5, 0) && shape_stateless_v2(ctx);
}

/* StatelessMultinomial: logits [batch, classes], scalar num_samples, [2] seed
 * -> [batch, num_samples]. */
static bool shape_stateless_multinomial(tfc_shape_ctx *ctx) {
  const tfc_shape *logits = &ctx->in_shapes[0];
  if (!want_rank(ctx, 0, 2) || !want_rank(ctx, 1, 0) || !want_seed(ctx, 2)) return false;
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

/* StatelessRandomGetKeyCounter[Alg]: key [1], counter [2] (alg scalar). */
static bool shape_key_counter(tfc_shape_ctx *ctx) {
  if (!want_seed(ctx, 0)) return false;
  int64_t one = 1, two = 2;
  ctx->out_shapes[0] = tfc_shape_make(1, &one);
  ctx->out_shapes[1] = tfc_shape_make(1, &two);
  if (ctx->n_outputs > 2) ctx->out_shapes[2] = tfc_shape_scalar();
  return true;
}

/* RandomIndexShuffle: a scalar when index, seed and max_index are single
 * (ranks 0, 1, 0), else a vector. */
static bool shape_index_shuffle(tfc_shape_ctx *ctx) {
  const tfc_shape *i = &ctx->in_shapes[0], *s = &ctx->in_shapes[1], *m = &ctx->in_shapes[2];
  if (i->rank == 0 && s->rank == 1 && m->rank == 0) ctx->out_shapes[0] = tfc_shape_scalar();
  else if (i->rank >= 0 && s->rank >= 0 && m->rank >= 0) ctx->out_shapes[0] = tfc_shape_unknown_dims(1);
  return true;
}

/* StatelessRandomGetAlg: a scalar. */
static bool shape_alg(tfc_shape_ctx *ctx) {
  ctx->out_shapes[0] = tfc_shape_scalar();
  return true;
}

#define V1_IN "shape: T; seed: Tseed"
#define REAL_V1 "dtype: {half, bfloat16, float, double} = float; T: {int32, int64} = int32; " \
                "Tseed: {int32, int64} = int64"
#define V2_IN "shape: Tshape; key: uint64; counter: uint64; alg: int32"
#define REAL_V2 "dtype: {half, bfloat16, float, double} = float; Tshape: {int32, int64} = int32"

static const tfc_op_spec specs[] = {
    {"StatelessRandomUniform", V1_IN, "output: dtype", REAL_V1, 0, shape_stateless},
    {"StatelessRandomNormal", V1_IN, "output: dtype", REAL_V1, 0, shape_stateless},
    {"StatelessTruncatedNormal", V1_IN, "output: dtype", REAL_V1, 0, shape_stateless},
    {"StatelessRandomUniformInt", V1_IN "; minval: dtype; maxval: dtype", "output: dtype",
     "dtype: {int32, int64}; T: {int32, int64}; Tseed: {int32, int64} = int64", 0,
     shape_stateless_int},
    {"StatelessRandomUniformFullInt", V1_IN, "output: dtype",
     "dtype: {int32, int64, uint32, uint64} = uint64; T: {int32, int64} = int32; "
     "Tseed: {int32, int64, uint32, uint64} = int64", 0, shape_stateless},
    {"StatelessMultinomial", "logits: T; num_samples: int32; seed: Tseed", "output: output_dtype",
     "T: realnumbertype; Tseed: {int32, int64} = int64; output_dtype: {int32, int64} = int64", 0,
     shape_stateless_multinomial},
    {"StatelessRandomUniformV2", V2_IN, "output: dtype", REAL_V2, 0, shape_stateless_v2},
    {"StatelessRandomNormalV2", V2_IN, "output: dtype", REAL_V2, 0, shape_stateless_v2},
    {"StatelessTruncatedNormalV2", V2_IN, "output: dtype", REAL_V2, 0, shape_stateless_v2},
    {"StatelessRandomUniformIntV2", V2_IN "; minval: dtype; maxval: dtype", "output: dtype",
     "dtype: {int32, int64, uint32, uint64}; Tshape: {int32, int64} = int32", 0,
     shape_stateless_int_v2},
    {"StatelessRandomUniformFullIntV2", V2_IN, "output: dtype",
     "dtype: {int32, int64, uint32, uint64} = uint64; Tshape: {int32, int64} = int32", 0,
     shape_stateless_v2},
    {"StatelessRandomGammaV2", V1_IN "; alpha: dtype", "output: dtype",
     "dtype: {half, float, double}; T: {int32, int64}; Tseed: {int32, int64} = int64", 0,
     shape_stateless},
    {"StatelessRandomGammaV3", "shape: shape_dtype; key: uint64; counter: uint64; alg: int32; "
     "alpha: dtype", "output: dtype",
     "dtype: {half, float, double}; shape_dtype: {int32, int64} = int32", 0, shape_stateless_v2},
    {"StatelessRandomPoisson", V1_IN "; lam: Rtype", "output: dtype",
     "Rtype: {half, float, double, int32, int64}; dtype: {half, float, double, int32, int64}; "
     "T: {int32, int64}; Tseed: {int32, int64} = int64", 0, shape_stateless},
    {"StatelessParameterizedTruncatedNormal",
     "shape: S; seed: Tseed; means: dtype; stddevs: dtype; minvals: dtype; maxvals: dtype",
     "output: dtype",
     "S: {int32, int64}; Tseed: {int32, int64} = int64; dtype: {half, float, double}", 0,
     shape_stateless},
    {"StatelessRandomBinomial", "shape: S; seed: Tseed; counts: T; probs: T", "output: dtype",
     "S: {int32, int64}; Tseed: {int32, int64} = int64; "
     "T: {half, float, double, int32, int64} = double; "
     "dtype: {half, float, double, int32, int64} = int64", 0, shape_stateless},
    {"StatelessShuffle", "value: T; key: uint64; counter: uint64; alg: int32", "output: T",
     "T: type", 0, tfc_shape_fn_unchanged},
    {"RandomIndexShuffle", "index: dtype; seed: Tseed; max_index: dtype", "output: dtype",
     "rounds: int = 4; dtype: {int32, uint32, int64, uint64}; "
     "Tseed: {int32, uint32, int64, uint64}", 0, shape_index_shuffle},
    {"StatelessRandomGetKeyCounter", "seed: Tseed", "key: uint64; counter: uint64",
     "Tseed: {int32, int64} = int64", 0, shape_key_counter},
    {"StatelessRandomGetKeyCounterAlg", "seed: Tseed", "key: uint64; counter: uint64; alg: int32",
     "Tseed: {int32, int64} = int64", 0, shape_key_counter},
    {"StatelessRandomGetAlg", "", "alg: int32", "", TFC_OP_STATEFUL, shape_alg},
};

const tfc_op_table tfc_ops_stateless_random = {specs, (int)(sizeof specs / sizeof specs[0])};
