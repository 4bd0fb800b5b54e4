/*
 * wav.h — 16-bit PCM WAV files as TF's audio summaries and EncodeWav write
 * them (decoded by wav_decode.c): a
 * 44-byte RIFF/WAVE header ("fmt " chunk of 16 bytes, PCM, the channel
 * count, sample rate, bytes per second and per frame, 16 bits per sample,
 * then the "data" chunk) and the samples interleaved by frame, each float
 * scaled by 32768, rounded half away from zero and clamped to int16.
 */
#ifndef TFC_IO_WAV_H
#define TFC_IO_WAV_H

#include <stddef.h>
#include <stdint.h>

#include "base/status.h"

/* Encodes frames x channels floats (frame-major) at sample_rate into a new
 * buffer *out (tfc_free it). INVALID_ARGUMENT, with TF's messages, for a
 * sample rate outside (0, 2^32), a channel count outside (0, 2^16), or a
 * file larger than 4 GiB; RESOURCE_EXHAUSTED on OOM. */
bool tfc_wav_encode_s16le(const float *audio, uint64_t sample_rate, uint64_t channels, uint64_t frames,
                          uint8_t **out, size_t *len, tfc_status *st);

/* Decodes a 16-bit PCM WAV file the way TF's DecodeWav reads it: the RIFF/
 * WAVE header, a "fmt " chunk of 16 or 18 bytes (PCM, >= 1 channel, 16 bits
 * per sample, consistent byte rates), then chunks up to the end of the data,
 * exactly one of them "data". On success *samples (tfc_free it) holds
 * *frames x *channels floats (int16 / 32768, frame-major). INVALID_ARGUMENT
 * with TF's messages for a malformed file; RESOURCE_EXHAUSTED on OOM. */
bool tfc_wav_decode_s16le(const uint8_t *data, size_t len, float **samples, uint32_t *channels,
                          uint32_t *sample_rate, uint64_t *frames, tfc_status *st);

#endif
