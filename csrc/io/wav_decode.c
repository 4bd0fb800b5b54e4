/*
 * wav_decode.c — 16-bit PCM WAV decoding (see wav.h), with the checks and
 * messages of TF's wav_io.
 */
#include <stdint.h>
#include <string.h>

#include "base/alloc.h"
#include "io/coding.h"
#include "io/wav.h"

/* A read position in the file. */
typedef struct wav_cursor {
  const uint8_t *data;
  size_t len, off;
} wav_cursor;

/* Advances by n bytes; INVALID_ARGUMENT when that passes the end. */
static bool advance(wav_cursor *c, uint64_t n, tfc_status *st) {
  if (n > c->len - c->off)
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Data too short when trying to read string");
  c->off += (size_t)n;
  return true;
}

/* Reads a little-endian value of `size` (2 or 4) bytes into *v. */
static bool read_le(wav_cursor *c, int size, uint32_t *v, tfc_status *st) {
  size_t at = c->off;
  if (!advance(c, (uint64_t)size, st)) return false;
  *v = size == 2 ? (uint32_t)(c->data[at] | (c->data[at + 1] << 8)) : tfc_get_fixed32(c->data + at);
  return true;
}

/* Reads 4 bytes of text into out (NUL-terminated). */
static bool read_id(wav_cursor *c, char out[5], tfc_status *st) {
  size_t at = c->off;
  if (!advance(c, 4, st)) return false;
  memcpy(out, c->data + at, 4);
  out[4] = '\0';
  return true;
}

/* Reads 4 bytes that must equal `want`. */
static bool expect_id(wav_cursor *c, const char *want, tfc_status *st) {
  char got[5];
  if (!read_id(c, got, st)) return false;
  if (memcmp(got, want, 4) != 0)
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Header mismatch: Expected %s but found %s",
                          want, got);
  return true;
}

/* Reads the header up to the end of the "fmt " chunk. */
static bool read_format(wav_cursor *c, uint32_t *channels, uint32_t *rate, uint32_t *frame_bytes,
                        tfc_status *st) {
  uint32_t riff_size, fmt_size, format = 0, bytes_per_second = 0, bits = 0;
  char fmt_id[5];
  if (!expect_id(c, "RIFF", st) || !read_le(c, 4, &riff_size, st) || !expect_id(c, "WAVE", st) ||
      !read_id(c, fmt_id, st) || !read_le(c, 4, &fmt_size, st))
    return false;
  if (fmt_size != 16 && fmt_size != 18)
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                          "Bad format chunk size for WAV: Expected 16 or 18, but got%u", fmt_size);
  if (!read_le(c, 2, &format, st)) return false;
  if (format != 1)
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                          "Bad audio format for WAV: Expected 1 (PCM), but got%u", format);
  if (!read_le(c, 2, channels, st)) return false;
  if (*channels < 1)
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Bad number of channels for WAV file: %u",
                          *channels);
  if (!read_le(c, 4, rate, st) || !read_le(c, 4, &bytes_per_second, st) ||
      !read_le(c, 2, frame_bytes, st) || !read_le(c, 2, &bits, st))
    return false;
  if (bits != 16)
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                          "Can only read 16-bit WAV files, but received %u", bits);
  uint32_t want_frame = (bits * *channels + 7) / 8;
  if (*frame_bytes != want_frame)
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                          "Bad bytes per sample in WAV header: Expected %u but got %u", want_frame,
                          *frame_bytes);
  uint64_t want_rate = (uint64_t)*frame_bytes * *rate;
  if ((uint64_t)bytes_per_second != (want_rate & 0xffffffffu))
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                          "Bad bytes per second in WAV header: Expected %u but got %u "
                          "(sample_rate=%u, bytes_per_sample=%u)",
                          (uint32_t)want_rate, bytes_per_second, *rate, *frame_bytes);
  return fmt_size == 18 ? advance(c, 2, st) : true;
}

/* Decodes a WAV file (see wav.h). */
bool tfc_wav_decode_s16le(const uint8_t *data, size_t len, float **samples, uint32_t *channels,
                          uint32_t *sample_rate, uint64_t *frames, tfc_status *st) {
  *samples = NULL;
  *frames = 0;
  wav_cursor c = {data, len, 0};
  uint32_t frame_bytes = 1;
  *channels = 1;
  *sample_rate = 0;
  if (!read_format(&c, channels, sample_rate, &frame_bytes, st)) return false;
  bool found = false;
  while (c.off < c.len) {
    char id[5];
    uint32_t size;
    if (!read_id(&c, id, st) || !read_le(&c, 4, &size, st)) goto fail;
    if (size > INT32_MAX) {
      tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                     "WAV data chunk '%s' is too large: %u bytes, but the limit is %d", id, size,
                     INT32_MAX);
      goto fail;
    }
    if (memcmp(id, "data", 4) != 0) {
      if (!advance(&c, size, st)) goto fail;
      continue;
    }
    if (found) {
      tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "More than one data chunk found in WAV");
      goto fail;
    }
    found = true;
    uint64_t n_frames = size / frame_bytes;
    uint64_t count = n_frames * *channels;
    size_t at = c.off;
    if (!advance(&c, 2 * count, st)) goto fail;
    float *out = tfc_malloc((size_t)(count > 0 ? count : 1) * sizeof(float));
    if (out == NULL) {
      tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM decoding WAV");
      goto fail;
    }
    for (uint64_t i = 0; i < count; i++) {
      const uint8_t *p = data + at + 2 * i;
      out[i] = (float)(int16_t)(uint16_t)(p[0] | (p[1] << 8)) / 32768.0f;
    }
    *samples = out;
    *frames = n_frames;
  }
  if (!found) {
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "No data chunk found in WAV");
    goto fail;
  }
  return true;
fail:
  tfc_free(*samples);
  *samples = NULL;
  *frames = 0;
  return false;
}
