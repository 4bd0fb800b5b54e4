/*
 * summary.h — tensorflow.Summary messages as the summary kernels make them
 * (serialized bytes), and the TFRecord framing of events files.
 *
 * A scalar summary holds one Value{tag, simple_value} per element; a
 * histogram summary one Value{tag, histo} with TF's default buckets
 * (limits 1e-12 * 1.1^k up to 1e20 and DBL_MAX, mirrored for negatives,
 * then 0; runs of empty buckets collapsed); a merge concatenates the values
 * of several serialized Summaries, refusing a tag seen twice.
 *
 * TFRecord framing: uint64 LE length, its masked CRC-32C, the data, the
 * data's masked CRC-32C.
 */
#ifndef TFC_IO_SUMMARY_H
#define TFC_IO_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "core/dtype.h"
#include "core/tensor.h"
#include "io/coding.h"
#include "io/crc32c.h"

/* A serialized Summary with Value{tags[i], simple_value = (float)values[i]}
 * for i < n, into *out (tfc_free it). */
bool tfc_summary_scalars(const tfc_string *tags, const double *values, int64_t n, uint8_t **out,
                         size_t *len, tfc_status *st);
/* A serialized Summary with one Value{tag, histo} of values[0, n) (finite). */
bool tfc_summary_histogram(const tfc_string *tag, const double *values, int64_t n, uint8_t **out,
                           size_t *len, tfc_status *st);
/* The values of the n serialized Summaries in one; INVALID_ARGUMENT "Could
 * not parse one of the summary inputs" or "Duplicate tag <t> found in
 * summary inputs". */
bool tfc_summary_merge(const tfc_string *inputs, int n, uint8_t **out, size_t *len, tfc_status *st);

/* A serialized Summary with one Value{tag, tensor, metadata} (TF's
 * TensorSummaryV2): strings as string_val, other dtypes as tensor_content;
 * metadata parsed from the serialized SummaryMetadata `meta` (empty: an
 * empty message). INVALID_ARGUMENT when meta does not parse. */
bool tfc_summary_tensor(const tfc_string *tag, const tfc_tensor *t, const tfc_string *meta,
                        uint8_t **out, size_t *len, tfc_status *st);

/* One image or audio clip of a media summary (TF's ImageSummary,
 * AudioSummaryV2): its tag, encoded bytes (PNG or WAV, borrowed) and the
 * fields of Summary.Image (height, width, colorspace) or Summary.Audio
 * (sample_rate, num_channels, length_frames; content_type "audio/wav"). */
typedef struct tfc_summary_media {
  const char *tag;
  size_t tag_len;
  const uint8_t *data;
  size_t len;
  int32_t height, width, colorspace;
  float sample_rate;
  int64_t num_channels, length_frames;
} tfc_summary_media;

/* A serialized Summary with one Value{tag, image} (audio: Value{tag, audio})
 * per entry of media[0, n). */
bool tfc_summary_media_values(const tfc_summary_media *media, int n, bool audio, uint8_t **out,
                              size_t *len, tfc_status *st);

/* The 12-byte TFRecord header of a record of len bytes. */
static inline void tfc_record_header(uint64_t len, uint8_t out[12]) {
  tfc_put_fixed32(out, (uint32_t)len);
  tfc_put_fixed32(out + 4, (uint32_t)(len >> 32));
  tfc_put_fixed32(out + 8, tfc_crc32c_mask(tfc_crc32c(out, 8)));
}

#endif
