/*
 * wav.c — 16-bit PCM WAV encoding (see wav.h).
 */
#include "io/wav.h"

#include <math.h>
#include <string.h>

#include "base/alloc.h"
#include "io/coding.h"

/* One float sample as int16: scaled by 2^15, rounded, clamped. */
static int16_t to_s16(float x) {
  float v = roundf(x * 32768.0f);
  if (v < -32768.0f) v = -32768.0f;
  if (v > 32767.0f) v = 32767.0f;
  if (v != v) v = 0.0f; /* NaN: what the clamp leaves it is undefined; write silence */
  return (int16_t)v;
}

/* Little-endian 16-bit store. */
static void put16(uint8_t *p, uint16_t v) {
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
}

/* Encodes the samples into a WAV file (see wav.h). */
bool tfc_wav_encode_s16le(const float *audio, uint64_t sample_rate, uint64_t channels, uint64_t frames,
                          uint8_t **out, size_t *len, tfc_status *st) {
  *out = NULL;
  *len = 0;
  if (sample_rate == 0 || sample_rate > UINT32_MAX)
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "sample_rate must be in (0, 2^32), got: %llu",
                          (unsigned long long)sample_rate);
  if (channels == 0 || channels > UINT16_MAX)
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "num_channels must be in (0, 2^16), got: %llu",
                          (unsigned long long)channels);
  const uint64_t header = 44;
  if (frames > (UINT32_MAX - header) / 2 / channels)
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                          "Provided channels and frames cannot be encoded as a WAV.");
  uint64_t samples = frames * channels, data_size = samples * 2, file_size = header + data_size;
  uint8_t *b = tfc_malloc((size_t)file_size);
  if (!b) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM encoding WAV");
  memcpy(b, "RIFF", 4);
  tfc_put_fixed32(b + 4, (uint32_t)(file_size - 8));
  memcpy(b + 8, "WAVEfmt ", 8);
  tfc_put_fixed32(b + 16, 16);
  put16(b + 20, 1); /* PCM */
  put16(b + 22, (uint16_t)channels);
  tfc_put_fixed32(b + 24, (uint32_t)sample_rate);
  tfc_put_fixed32(b + 28, (uint32_t)(sample_rate * 2 * channels));
  put16(b + 32, (uint16_t)(2 * channels));
  put16(b + 34, 16);
  memcpy(b + 36, "data", 4);
  tfc_put_fixed32(b + 40, (uint32_t)data_size);
  for (uint64_t i = 0; i < samples; i++) put16(b + header + 2 * i, (uint16_t)to_s16(audio[i]));
  *out = b;
  *len = (size_t)file_size;
  return true;
}
