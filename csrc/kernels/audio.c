/*
 * audio.c — CPU kernels for DecodeWav and EncodeWav (core/ops_audio.c) over
 * io/wav.h.
 *
 * DecodeWav gives [samples, channels] floats and the sample rate; with
 * desired_samples / desired_channels it pads missing frames with zeros,
 * drops extra ones, repeats the last channel for extra channels and drops
 * extra channels, as TF does. EncodeWav writes 16-bit PCM.
 */
#include <stdint.h>
#include <stdio.h>

#include "base/alloc.h"
#include "io/wav.h"
#include "kernels/kernel.h"
#include "kernels/kernel_tables.h"

/* Reads an int attr, or `dflt` when absent. */
static int64_t int_attr(const tfc_kernel_ctx *ctx, const char *name, int64_t dflt) {
  const tfc_attr_value *a = tfc_attrs_find(ctx->attrs, name);
  return (a && a->kind == TFC_ATTR_I) ? a->v.i : dflt;
}

/* Writes a shape as "[d0,d1,...]" into buf. */
static void shape_text(const tfc_tensor *t, char *buf, size_t cap) {
  size_t n = (size_t)snprintf(buf, cap, "[");
  for (int d = 0; d < t->rank && n < cap; d++)
    n += (size_t)snprintf(buf + n, cap - n, "%s%lld", d ? "," : "", (long long)t->dims[d]);
  if (n < cap) snprintf(buf + n, cap - n, "]");
}

/* DecodeWav compute (see the file comment). */
static void decode_wav_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *in = ctx->inputs[0];
  if (in->rank != 0) {
    char s[160];
    shape_text(in, s, sizeof s);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "contents must be scalar, got shape %s", s);
    return;
  }
  const tfc_string *str = (const tfc_string *)in->data;
  if (str->len > INT32_MAX) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "WAV contents are too large for int: %zu",
                    str->len);
    return;
  }
  float *samples;
  uint32_t channels, rate;
  uint64_t frames;
  if (!tfc_wav_decode_s16le((const uint8_t *)(str->data ? str->data : ""), str->len, &samples,
                            &channels, &rate, &frames, ctx->st))
    return;
  if (rate > INT32_MAX) {
    tfc_free(samples);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "sample_rate too large: %u", rate);
    return;
  }
  int64_t want_samples = int_attr(ctx, "desired_samples", -1);
  int64_t want_channels = int_attr(ctx, "desired_channels", -1);
  int64_t dims[2] = {want_samples == -1 ? (int64_t)frames : want_samples,
                     want_channels == -1 ? (int64_t)channels : want_channels};
  tfc_tensor *audio = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_FLOAT, 2, dims);
  tfc_tensor *sr = audio ? tfc_kernel_alloc_output(ctx, 1, TFC_DTYPE_INT32, 0, NULL) : NULL;
  if (sr != NULL) {
    *(int32_t *)sr->data = (int32_t)rate;
    float *o = audio->data;
    for (int64_t f = 0; f < dims[0]; f++)
      for (int64_t ch = 0; ch < dims[1]; ch++) {
        int64_t src = ch < (int64_t)channels ? ch : (int64_t)channels - 1;
        o[f * dims[1] + ch] = f < (int64_t)frames ? samples[(uint64_t)f * channels + (uint64_t)src] : 0.0f;
      }
  }
  tfc_free(samples);
}

/* EncodeWav compute: audio [frames, channels] and a scalar rate to WAV bytes. */
static void encode_wav_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *audio = ctx->inputs[0], *rate = ctx->inputs[1];
  char s[160];
  if (rate->rank != 0) {
    shape_text(rate, s, sizeof s);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Input sample_rate should be a scalar tensor, got %s instead.", s);
    return;
  }
  if (audio->rank != 2) {
    shape_text(audio, s, sizeof s);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "audio must be 2-dimensional%s", s);
    return;
  }
  int32_t sr = *(const int32_t *)rate->data;
  uint8_t *bytes;
  size_t len;
  if (!tfc_wav_encode_s16le(audio->data, (uint64_t)(int64_t)sr, (uint64_t)audio->dims[1],
                            (uint64_t)audio->dims[0], &bytes, &len, ctx->st))
    return;
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_STRING, 0, NULL);
  if (out != NULL) tfc_tensor_set_string(out, 0, (const char *)bytes, len, ctx->st);
  tfc_free(bytes);
}

static const tfc_kernel_def defs[] = {
    {"DecodeWav", "CPU", NULL, NULL, NULL, decode_wav_compute, NULL, 0},
    {"EncodeWav", "CPU", NULL, NULL, NULL, encode_wav_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_audio = {defs, (int)(sizeof defs / sizeof defs[0])};
