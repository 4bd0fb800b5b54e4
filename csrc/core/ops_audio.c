/*
 * ops_audio.c — op definitions of tf.audio: DecodeWav and EncodeWav (TF's
 * audio_ops.cc names, args, attrs and shape functions). Kernels in
 * kernels/audio.c.
 */
#include "core/op_registry.h"
#include "core/op_tables.h"

/* Fails unless in_shapes[i] has rank `rank` or an unknown rank. */
static bool need_rank(tfc_shape_ctx *ctx, int i, int rank) {
  if (ctx->in_shapes[i].rank >= 0 && ctx->in_shapes[i].rank != rank)
    return tfc_shape_fail(ctx, "Shape must be rank %d but is rank %d", rank,
                          ctx->in_shapes[i].rank);
  return true;
}

/* DecodeWav: contents a scalar; audio [desired_samples, desired_channels]
 * (unknown where -1), sample_rate a scalar. */
static bool decode_wav_shape(tfc_shape_ctx *ctx) {
  if (!need_rank(ctx, 0, 0)) return false;
  const tfc_attr_value *s = tfc_attrs_find(ctx->attrs, "desired_samples");
  const tfc_attr_value *c = tfc_attrs_find(ctx->attrs, "desired_channels");
  int64_t dims[2] = {s && s->kind == TFC_ATTR_I && s->v.i >= 0 ? s->v.i : -1,
                     c && c->kind == TFC_ATTR_I && c->v.i >= 0 ? c->v.i : -1};
  ctx->out_shapes[0] = tfc_shape_make(2, dims);
  ctx->out_shapes[1] = tfc_shape_scalar();
  return true;
}

/* EncodeWav: audio of rank 2, sample_rate a scalar; contents a scalar. */
static bool encode_wav_shape(tfc_shape_ctx *ctx) {
  if (!need_rank(ctx, 0, 2) || !need_rank(ctx, 1, 0)) return false;
  ctx->out_shapes[0] = tfc_shape_scalar();
  return true;
}

static const tfc_op_spec specs[] = {
    {"DecodeWav", "contents: string", "audio: float; sample_rate: int32",
     "desired_channels: int = -1; desired_samples: int = -1", 0, decode_wav_shape},
    {"EncodeWav", "audio: float; sample_rate: int32", "contents: string", "", 0, encode_wav_shape},
};

const tfc_op_table tfc_ops_audio = {specs, (int)(sizeof specs / sizeof specs[0])};
