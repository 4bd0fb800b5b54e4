/*
 * ops_ctc.c — op definitions of connectionist temporal classification:
 * CTCLoss, CTCGreedyDecoder and CTCBeamSearchDecoder (TF's names, args,
 * attrs, defaults and shape functions, ctc_ops.cc). Kernels in kernels/ctc.c
 * and kernels/ctc_beam.c.
 */
#include "core/op_registry.h"
#include "core/op_tables.h"

/* CTCLoss: inputs [time, batch, classes] -> loss [batch], gradient like inputs. */
static bool ctc_loss_shape(tfc_shape_ctx *ctx) {
  const tfc_shape *in = &ctx->in_shapes[0];
  if (!tfc_shape_rank_is(ctx, in, 3) || !tfc_shape_rank_is(ctx, &ctx->in_shapes[1], 2) ||
      !tfc_shape_rank_is(ctx, &ctx->in_shapes[2], 1) ||
      !tfc_shape_rank_is(ctx, &ctx->in_shapes[3], 1))
    return false;
  int64_t batch = in->rank == 3 ? in->dims[1] : -1, d;
  const tfc_shape *li = &ctx->in_shapes[1], *lv = &ctx->in_shapes[2], *sl = &ctx->in_shapes[3];
  if (li->rank == 2 && lv->rank == 1 && !tfc_shape_merge_dim_ctx(ctx, li->dims[0], lv->dims[0], &d))
    return false;
  if (sl->rank == 1 && !tfc_shape_merge_dim_ctx(ctx, batch, sl->dims[0], &batch)) return false;
  int64_t g[3] = {in->rank == 3 ? in->dims[0] : -1, batch, in->rank == 3 ? in->dims[2] : -1};
  ctx->out_shapes[0] = tfc_shape_make(1, &batch);
  ctx->out_shapes[1] = tfc_shape_make(3, g);
  return true;
}

/* The decoders: top_paths sparse triples and log_probability [batch, top_paths]. */
static bool ctc_decoder_shape(tfc_shape_ctx *ctx) {
  const tfc_shape *in = &ctx->in_shapes[0], *sl = &ctx->in_shapes[1];
  if (!tfc_shape_rank_is(ctx, in, 3) || !tfc_shape_rank_is(ctx, sl, 1)) return false;
  int64_t batch = in->rank == 3 ? in->dims[1] : -1;
  if (sl->rank == 1 && !tfc_shape_merge_dim_ctx(ctx, batch, sl->dims[0], &batch)) return false;
  int64_t paths = 1;
  const tfc_attr_value *tp = tfc_attrs_find(ctx->attrs, "top_paths");
  if (tp && tp->kind == TFC_ATTR_I) paths = tp->v.i;
  int p = (ctx->n_outputs - 1) / 3;
  int64_t idx[2] = {-1, 2}, vals = -1, two = 2, lp[2] = {batch, paths};
  for (int i = 0; i < p; i++) {
    ctx->out_shapes[i] = tfc_shape_make(2, idx);
    ctx->out_shapes[p + i] = tfc_shape_make(1, &vals);
    ctx->out_shapes[2 * p + i] = tfc_shape_make(1, &two);
  }
  ctx->out_shapes[3 * p] = tfc_shape_make(2, lp);
  return true;
}

static const tfc_op_spec specs[] = {
    {"CTCLoss", "inputs: T; labels_indices: int64; labels_values: int32; sequence_length: int32",
     "loss: T; gradient: T",
     "preprocess_collapse_repeated: bool = false; ctc_merge_repeated: bool = true; "
     "ignore_longer_outputs_than_inputs: bool = false; T: {float, double} = float",
     0, ctc_loss_shape},
    {"CTCGreedyDecoder", "inputs: T; sequence_length: int32",
     "decoded_indices: int64; decoded_values: int64; decoded_shape: int64; log_probability: T",
     "merge_repeated: bool = false; blank_index: int = -1; T: {float, double} = float", 0,
     ctc_decoder_shape},
    {"CTCBeamSearchDecoder", "inputs: T; sequence_length: int32",
     "decoded_indices: top_paths * int64; decoded_values: top_paths * int64; "
     "decoded_shape: top_paths * int64; log_probability: T",
     "beam_width: int >= 1; top_paths: int >= 1; merge_repeated: bool = true; "
     "T: {float, double} = float",
     0, ctc_decoder_shape},
};

const tfc_op_table tfc_ops_ctc = {specs, (int)(sizeof specs / sizeof specs[0])};
