/*
 * png.c — PNG decoding and encoding through libpng, the only file that
 * includes png.h.
 *
 * Decoding asks libpng for the same transformations TensorFlow does, in the
 * same order, so outputs match TF: 0 channels keeps the stored count
 * (palette images become RGB, or RGBA with a tRNS chunk); even channel counts
 * get alpha (from the image, from tRNS, or an opaque filler), odd ones drop
 * it; 16-bit data is stripped to 8 bits for uint8 output and 8-bit data is
 * widened by v * 257 for uint16; gray is expanded to RGB, and RGB is reduced
 * to gray with BT.601 weights (0.299, 0.587).
 *
 * libpng reports errors by longjmp to png_jmpbuf; every allocation made
 * before the jump lives in the heap-resident job and is freed afterwards.
 */
#include <setjmp.h>
#include <string.h>

#include <png.h>

#include "base/alloc.h"
#include "kernels/image_internal.h"

static const uint8_t kSig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};

bool tfc_png_is_png(const uint8_t *data, size_t len) {
  return len >= 8 && memcmp(data, kSig, 8) == 0;
}

static void on_png_error(png_structp p, png_const_charp msg) {
  (void)msg;
  png_longjmp(p, 1);
}

static void on_png_warning(png_structp p, png_const_charp msg) {
  (void)p;
  (void)msg;
}

/* ---------------------------------------------------------------- decode */

typedef struct png_reader {
  const uint8_t *data;
  size_t len, pos;
} png_reader;

static void read_fn(png_structp p, png_bytep out, png_size_t n) {
  png_reader *r = png_get_io_ptr(p);
  if (n > r->len - r->pos) png_error(p, "read past end of data");
  memcpy(out, r->data + r->pos, n);
  r->pos += n;
}

typedef struct png_dec_job {
  png_structp png;
  png_infop info;
  png_reader rd;
  tfc_tensor *out;
  png_bytep *rows;
  bool oom;
  bool header_ok; /* png_read_info succeeded */
} png_dec_job;

static bool png_dec_run(png_dec_job *j, int want_channels, int bits) {
  j->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, on_png_error, on_png_warning);
  if (!j->png) return j->oom = true, false;
  j->info = png_create_info_struct(j->png);
  if (!j->info) return j->oom = true, false;
  if (setjmp(png_jmpbuf(j->png))) return false;
  png_set_read_fn(j->png, &j->rd, read_fn);
  png_read_info(j->png, j->info);
  j->header_ok = true;
  png_uint_32 w = 0, h = 0;
  int depth = 0, color = 0, interlace = 0;
  png_get_IHDR(j->png, j->info, &w, &h, &depth, &color, &interlace, NULL, NULL);
  bool has_trns = png_get_valid(j->png, j->info, PNG_INFO_tRNS) != 0;
  int channels = want_channels;
  if (channels == 0)
    channels = color == PNG_COLOR_TYPE_PALETTE ? (has_trns ? 4 : 3) : png_get_channels(j->png, j->info);
  bool has_alpha = (color & PNG_COLOR_MASK_ALPHA) != 0;
  if ((channels & 1) == 0) {
    if (!has_alpha) {
      if (has_trns) png_set_tRNS_to_alpha(j->png);
      else png_set_add_alpha(j->png, (png_uint_32)((1u << depth) - 1), PNG_FILLER_AFTER);
    }
  } else if (has_alpha || has_trns) {
    png_set_strip_alpha(j->png);
  }
  if (depth > 8 && bits <= 8) png_set_strip_16(j->png);
  bool widen = depth <= 8 && bits == 16;
  png_set_packing(j->png);
  (void)png_set_interlace_handling(j->png);
  if (bits > 8) {
    uint16_t probe = 1;
    uint8_t first;
    memcpy(&first, &probe, 1);
    if (first == 1) png_set_swap(j->png);
  }
  if (color == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(j->png);
  bool is_gray = (color & PNG_COLOR_MASK_COLOR) == 0;
  if (is_gray && depth < 8) png_set_expand_gray_1_2_4_to_8(j->png);
  if (channels < 3) {
    if (!is_gray) png_set_rgb_to_gray(j->png, 1, 0.299, 0.587);
  } else if (is_gray) {
    png_set_gray_to_rgb(j->png);
  }
  png_read_update_info(j->png, j->info);
  if (w == 0 || h == 0) return false;
  if ((uint64_t)w * h * (uint64_t)channels >= ((uint64_t)1 << 29)) return false;
  int got = png_get_channels(j->png, j->info);
  int got_depth = png_get_bit_depth(j->png, j->info);
  if (got != channels || got_depth != (widen ? 8 : bits)) return false;
  size_t rowbytes = png_get_rowbytes(j->png, j->info);
  size_t want_row = (size_t)w * (size_t)channels * (size_t)(bits / 8);
  if (rowbytes > want_row) return false;

  int64_t dims[3] = {(int64_t)h, (int64_t)w, channels};
  tfc_status ast;
  tfc_status_clear(&ast);
  j->out = tfc_tensor_new(bits == 16 ? TFC_DTYPE_UINT16 : TFC_DTYPE_UINT8, 3, dims, &ast);
  j->rows = j->out ? tfc_malloc(sizeof(png_bytep) * h) : NULL;
  if (!j->rows) return j->oom = true, false;
  uint8_t *px = j->out->data;
  for (png_uint_32 y = 0; y < h; y++) j->rows[y] = px + (size_t)y * want_row;
  png_read_image(j->png, j->rows);
  png_read_end(j->png, NULL);
  if (widen) {
    /* 8-bit samples sit at the start of each row; widen back to front. */
    for (png_uint_32 y = 0; y < h; y++) {
      uint8_t *r8 = j->rows[y];
      uint16_t *r16 = (uint16_t *)(void *)r8;
      for (size_t i = (size_t)w * (size_t)channels; i-- > 0;) r16[i] = (uint16_t)(r8[i] * 257u);
    }
  }
  return true;
}

bool tfc_png_decode(const uint8_t *data, size_t len, int channels, int bits, tfc_tensor **out,
                    tfc_status *st) {
  *out = NULL;
  png_dec_job *j = tfc_calloc(1, sizeof *j);
  if (!j) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM decoding PNG");
  j->rd.data = data;
  j->rd.len = len;
  bool ok = tfc_png_is_png(data, len) && png_dec_run(j, channels, bits);
  if (ok) {
    *out = j->out;
    j->out = NULL;
  } else if (j->oom) {
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM decoding PNG");
  } else if (!j->header_ok) {
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Invalid PNG header, data size %zu", len);
  } else {
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Invalid PNG data, size %zu", len);
  }
  if (j->png) png_destroy_read_struct(&j->png, j->info ? &j->info : NULL, NULL);
  tfc_free(j->rows);
  tfc_tensor_unref(j->out);
  tfc_free(j);
  return ok;
}

/* ---------------------------------------------------------------- encode */

typedef struct png_writer {
  uint8_t *buf;
  size_t len, cap;
  bool oom;
} png_writer;

static void write_fn(png_structp p, png_bytep in, png_size_t n) {
  png_writer *w = png_get_io_ptr(p);
  if (n > w->cap - w->len) {
    size_t ncap = w->cap ? w->cap : 4096;
    while (ncap - w->len < n) ncap *= 2;
    uint8_t *nb = tfc_realloc(w->buf, ncap);
    if (!nb) {
      w->oom = true;
      png_error(p, "out of memory");
    }
    w->buf = nb;
    w->cap = ncap;
  }
  memcpy(w->buf + w->len, in, n);
  w->len += n;
}

static void flush_fn(png_structp p) { (void)p; }

typedef struct png_enc_job {
  png_structp png;
  png_infop info;
  png_writer wr;
} png_enc_job;

static bool png_enc_run(png_enc_job *j, const uint8_t *px, int64_t h, int64_t w, int channels,
                        int bits, int compression) {
  j->png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, on_png_error, on_png_warning);
  if (!j->png) return j->wr.oom = true, false;
  j->info = png_create_info_struct(j->png);
  if (!j->info) return j->wr.oom = true, false;
  if (setjmp(png_jmpbuf(j->png))) return false;
  static const int kColor[5] = {0, PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA,
                                PNG_COLOR_TYPE_RGB, PNG_COLOR_TYPE_RGB_ALPHA};
  png_set_write_fn(j->png, &j->wr, write_fn, flush_fn);
  png_set_IHDR(j->png, j->info, (png_uint_32)w, (png_uint_32)h, bits, kColor[channels],
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_set_compression_level(j->png, compression);
  png_write_info(j->png, j->info);
  if (bits > 8) {
    uint16_t probe = 1;
    uint8_t first;
    memcpy(&first, &probe, 1);
    if (first == 1) png_set_swap(j->png);
  }
  size_t stride = (size_t)w * (size_t)channels * (size_t)(bits / 8);
  for (int64_t y = 0; y < h; y++) png_write_row(j->png, (png_const_bytep)(px + (size_t)y * stride));
  png_write_end(j->png, NULL);
  return true;
}

bool tfc_png_encode(const void *pixels, int64_t h, int64_t w, int channels, int bits,
                    int compression, char **out_data, size_t *out_len, tfc_status *st) {
  *out_data = NULL;
  *out_len = 0;
  if (h <= 0 || w <= 0 || h > 0x7fffffff || w > 0x7fffffff || channels < 1 || channels > 4)
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Invalid image size for PNG: %lld x %lld",
                          (long long)h, (long long)w);
  png_enc_job *j = tfc_calloc(1, sizeof *j);
  if (!j) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM encoding PNG");
  bool ok = png_enc_run(j, pixels, h, w, channels, bits, compression);
  if (ok) {
    *out_data = (char *)j->wr.buf;
    *out_len = j->wr.len;
    j->wr.buf = NULL;
  } else if (j->wr.oom) {
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM encoding PNG");
  } else {
    tfc_status_set(st, TFC_CODE_INTERNAL, "PNG encoding failed");
  }
  if (j->png) png_destroy_write_struct(&j->png, j->info ? &j->info : NULL);
  tfc_free(j->wr.buf);
  tfc_free(j);
  return ok;
}
