/*
 * image_internal.h — the image family's codecs and kernels shared between
 * kernels/image.c (the kernel table and the decode/encode kernels),
 * kernels/jpeg.c (libjpeg), kernels/png.c (libpng), kernels/resize.c and
 * kernels/io.c. Only jpeg.c includes jpeglib.h and only png.c includes png.h.
 *
 * Codec contract: decoders never crash or read out of bounds on any input
 * bytes; on failure they return false with st set (INVALID_ARGUMENT for bad
 * data in TF's words, RESOURCE_EXHAUSTED on OOM) and leak nothing.
 */
#ifndef TFC_KERNELS_IMAGE_INTERNAL_H
#define TFC_KERNELS_IMAGE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "core/tensor.h"
#include "kernels/kernel.h"

/* ---------------------------------------------------------------- JPEG */

typedef struct tfc_jpeg_decode_opts {
  int channels;               /* 0 (as stored, at most 3), 1 or 3 */
  int ratio;                  /* 1, 2, 4 or 8 */
  bool fancy_upscaling;
  bool try_recover_truncated;
  float acceptable_fraction;  /* fraction of rows needed when recovering */
  bool dct_fast;              /* JDCT_IFAST (TF's default) instead of JDCT_ISLOW */
} tfc_jpeg_decode_opts;

/* Decodes a JPEG into a new uint8 tensor [height, width, channels] (*out).
 * False + st (INVALID_ARGUMENT "Invalid JPEG data or crop window, data size N")
 * when the data cannot be decoded. */
bool tfc_jpeg_decode(const uint8_t *data, size_t len, const tfc_jpeg_decode_opts *o,
                     tfc_tensor **out, tfc_status *st);

typedef struct tfc_jpeg_encode_opts {
  int quality;            /* 0..100 */
  bool progressive;
  bool optimize_size;
  bool chroma_downsampling;
  int density_unit;       /* 1 = inch, 2 = cm */
  int x_density, y_density;
  const char *xmp;        /* APP1 XMP packet body, or NULL */
  size_t xmp_len;
} tfc_jpeg_encode_opts;

/* Encodes h x w pixels of `channels` (1 or 3) uint8 samples, rows packed, into
 * a freshly allocated byte string (*out_data from tfc_malloc, *out_len).
 * False + st on failure. */
bool tfc_jpeg_encode(const uint8_t *pixels, int64_t h, int64_t w, int channels,
                     const tfc_jpeg_encode_opts *o, char **out_data, size_t *out_len,
                     tfc_status *st);

/* True when data starts with a JPEG SOI marker. */
bool tfc_jpeg_is_jpeg(const uint8_t *data, size_t len);

/* ---------------------------------------------------------------- PNG */

/* Decodes a PNG into a new tensor [height, width, channels] of uint8
 * (bits == 8) or uint16 (bits == 16). channels 0 keeps the stored count.
 * False + st on bad data: INVALID_ARGUMENT "Invalid PNG header, data size N"
 * before the header was read, "Invalid PNG data, size N" after. */
bool tfc_png_decode(const uint8_t *data, size_t len, int channels, int bits, tfc_tensor **out,
                    tfc_status *st);

/* Encodes h x w pixels of `channels` (1..4) samples of `bits` (8 or 16, host
 * order) into a tfc_malloc'd byte string. compression -1..9. */
bool tfc_png_encode(const void *pixels, int64_t h, int64_t w, int channels, int bits,
                    int compression, char **out_data, size_t *out_len, tfc_status *st);

/* True when data starts with the PNG signature. */
bool tfc_png_is_png(const uint8_t *data, size_t len);

/* ---------------------------------------------------------------- kernels in other files */

void tfc_image_resize_bilinear(tfc_kernel_ctx *ctx);
void tfc_image_resize_nearest(tfc_kernel_ctx *ctx);
void tfc_image_resize_bicubic(tfc_kernel_ctx *ctx);
void tfc_image_read_file(tfc_kernel_ctx *ctx);
void tfc_image_write_file(tfc_kernel_ctx *ctx);

#endif
