/*
 * ops_checkpoint.c — op definitions for V2 checkpoints (TF's io_ops.cc):
 * SaveV2, RestoreV2, MergeV2Checkpoints, ShardedFilename, ShardedFilespec.
 */
#include "core/op_registry.h"
#include "core/op_tables.h"

/* SaveV2: prefix a scalar, tensor_names and shape_and_slices vectors of one
 * entry per tensor. */
static bool save_v2_shape(tfc_shape_ctx *ctx) {
  if (!tfc_shape_rank_is(ctx, &ctx->in_shapes[0], 0)) return false;
  for (int i = 1; i <= 2; i++) {
    const tfc_shape *s = &ctx->in_shapes[i];
    if (!tfc_shape_rank_is(ctx, s, 1)) return false;
    if (s->rank == 1 && s->dims[0] >= 0 && s->dims[0] != ctx->n_inputs - 3)
      return tfc_shape_fail(ctx, "Dimension 0 in both shapes must be equal, but are %lld and %d",
                            (long long)s->dims[0], ctx->n_inputs - 3);
  }
  return true;
}

/* RestoreV2: as SaveV2's first three inputs; outputs of unknown shape. */
static bool restore_v2_shape(tfc_shape_ctx *ctx) {
  if (!tfc_shape_rank_is(ctx, &ctx->in_shapes[0], 0)) return false;
  for (int i = 1; i <= 2; i++) {
    const tfc_shape *s = &ctx->in_shapes[i];
    if (!tfc_shape_rank_is(ctx, s, 1)) return false;
    if (s->rank == 1 && s->dims[0] >= 0 && s->dims[0] != ctx->n_outputs)
      return tfc_shape_fail(ctx, "Dimension 0 in both shapes must be equal, but are %lld and %d",
                            (long long)s->dims[0], ctx->n_outputs);
  }
  return true;
}

/* MergeV2Checkpoints: a vector of prefixes and a scalar destination. */
static bool merge_shape(tfc_shape_ctx *ctx) {
  return tfc_shape_rank_is(ctx, &ctx->in_shapes[0], 1) &&
         tfc_shape_rank_is(ctx, &ctx->in_shapes[1], 0);
}

/* ShardedFilename / ShardedFilespec: scalar inputs, a scalar name. */
static bool sharded_name_shape(tfc_shape_ctx *ctx) {
  for (int i = 0; i < ctx->n_inputs; i++)
    if (!tfc_shape_rank_is(ctx, &ctx->in_shapes[i], 0)) return false;
  ctx->out_shapes[0] = tfc_shape_scalar();
  return true;
}

static const tfc_op_spec specs[] = {
    {"SaveV2", "prefix: string; tensor_names: string; shape_and_slices: string; tensors: dtypes", "",
     "dtypes: list(type) >= 1", TFC_OP_STATEFUL, save_v2_shape},
    {"RestoreV2", "prefix: string; tensor_names: string; shape_and_slices: string",
     "tensors: dtypes", "dtypes: list(type) >= 1", TFC_OP_STATEFUL, restore_v2_shape},
    {"MergeV2Checkpoints", "checkpoint_prefixes: string; destination_prefix: string", "",
     "delete_old_dirs: bool = true; allow_missing_files: bool = false", TFC_OP_STATEFUL,
     merge_shape},
    {"ShardedFilename", "basename: string; shard: int32; num_shards: int32", "filename: string", "",
     0, sharded_name_shape},
    {"ShardedFilespec", "basename: string; num_shards: int32", "filename: string", "", 0,
     sharded_name_shape},
};

const tfc_op_table tfc_ops_checkpoint = {specs, (int)(sizeof specs / sizeof specs[0])};
