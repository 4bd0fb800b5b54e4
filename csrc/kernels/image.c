/*
 * image.c — the image family's kernel table and its codec kernels:
 * DecodeJpeg, DecodePng, DecodeBmp, DecodeImage, EncodeJpeg, EncodePng and
 * AdjustContrastv2 (the resize kernels live in resize.c, ReadFile/WriteFile
 * in io.c, the codecs in jpeg.c / png.c).
 *
 * Messages are TensorFlow 1.15's for the format-specific ops (DecodeJpeg on
 * bad bytes: "Invalid JPEG data or crop window, data size N"). DecodeImage
 * follows TF's DecodeImage op: it dispatches on the magic bytes (JPEG, PNG,
 * BMP; GIF is recognised but not supported) and converts to its dtype the
 * way TF does: uint16 output of 8-bit formats is x * 256 (PNG is decoded at
 * 16 bits instead, libpng widening 8-bit samples by 257), float output is
 * x * (1/255) for 8-bit formats and the 16-bit PNG value * (1/65535).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "kernels/image_internal.h"
#include "kernels/kernel_tables.h"

/* ---------------------------------------------------------------- helpers */

static void shape_str(const tfc_tensor *t, char *buf, size_t cap) {
  tfc_shape s = tfc_tensor_shape(t);
  tfc_shape_debug_string(&s, buf, cap);
}

static int64_t attr_int(const tfc_kernel_ctx *ctx, const char *name, int64_t dflt) {
  const tfc_attr_value *v = tfc_attrs_find(ctx->attrs, name);
  return v && v->kind == TFC_ATTR_I ? v->v.i : dflt;
}

static bool attr_bool(const tfc_kernel_ctx *ctx, const char *name, bool dflt) {
  const tfc_attr_value *v = tfc_attrs_find(ctx->attrs, name);
  return v && v->kind == TFC_ATTR_B ? v->v.b : dflt;
}

static float attr_float(const tfc_kernel_ctx *ctx, const char *name, float dflt) {
  const tfc_attr_value *v = tfc_attrs_find(ctx->attrs, name);
  return v && v->kind == TFC_ATTR_F ? v->v.f : dflt;
}

/* The string attr `name` (empty when absent). */
static tfc_string attr_str(const tfc_kernel_ctx *ctx, const char *name) {
  const tfc_attr_value *v = tfc_attrs_find(ctx->attrs, name);
  tfc_string s = {NULL, 0};
  if (v && v->kind == TFC_ATTR_S) s = v->v.s;
  return s;
}

static bool str_is(tfc_string s, const char *lit) {
  size_t n = strlen(lit);
  return s.len == n && (n == 0 || memcmp(s.data, lit, n) == 0);
}

/* The scalar string input `contents`; NULL with ctx failed when not a scalar. */
static const tfc_string *contents_input(tfc_kernel_ctx *ctx) {
  const tfc_tensor *t = ctx->inputs[0];
  if (t->rank != 0) {
    char buf[128];
    shape_str(t, buf, sizeof buf);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "contents must be scalar, got shape %s", buf);
    return NULL;
  }
  return t->data;
}

/* Sets output 0 to a scalar string taking ownership of data (tfc_malloc'd). */
static void set_string_output(tfc_kernel_ctx *ctx, char *data, size_t len) {
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_STRING, 0, NULL);
  if (out) tfc_tensor_set_string(out, 0, data, len, ctx->st);
  tfc_free(data);
}

/* ---------------------------------------------------------------- JPEG */

/* Reads DecodeJpeg's attrs into o; false with ctx failed on bad values. */
static bool jpeg_opts(tfc_kernel_ctx *ctx, tfc_jpeg_decode_opts *o) {
  o->channels = (int)attr_int(ctx, "channels", 0);
  o->ratio = (int)attr_int(ctx, "ratio", 1);
  o->fancy_upscaling = attr_bool(ctx, "fancy_upscaling", true);
  o->try_recover_truncated = attr_bool(ctx, "try_recover_truncated", false);
  o->acceptable_fraction = attr_float(ctx, "acceptable_fraction", 1.0f);
  tfc_string dct = attr_str(ctx, "dct_method");
  /* TF's default ("") is the fast integer IDCT. */
  o->dct_fast = str_is(dct, "INTEGER_FAST") || str_is(dct, "");
  if (!o->dct_fast && !str_is(dct, "INTEGER_ACCURATE"))
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "dct_method must be one of {'', 'INTEGER_FAST', 'INTEGER_ACCURATE'}");
  if (o->ratio != 1 && o->ratio != 2 && o->ratio != 4 && o->ratio != 8)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "ratio must be 1, 2, 4, or 8, got %d",
                           o->ratio);
  return true;
}

static void decode_jpeg_compute(tfc_kernel_ctx *ctx) {
  const tfc_string *s = contents_input(ctx);
  if (!s) return;
  tfc_jpeg_decode_opts o;
  if (!jpeg_opts(ctx, &o)) return;
  if (o.channels != 0 && o.channels != 1 && o.channels != 3) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "channels must be 0, 1, or 3, got %d", o.channels);
    return;
  }
  tfc_tensor *img;
  if (tfc_jpeg_decode((const uint8_t *)s->data, s->len, &o, &img, ctx->st))
    tfc_kernel_set_output(ctx, 0, img);
}

/* ---------------------------------------------------------------- PNG */

static void decode_png_compute(tfc_kernel_ctx *ctx) {
  const tfc_string *s = contents_input(ctx);
  if (!s) return;
  int ch = (int)attr_int(ctx, "channels", 0);
  if (ch != 0 && ch != 1 && ch != 3 && ch != 4) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "channels must be 0, 1, 3, or 4, got %d", ch);
    return;
  }
  bool u16 = ctx->out_types[0] == TFC_DTYPE_UINT16;
  tfc_tensor *img;
  if (tfc_png_decode((const uint8_t *)s->data, s->len, ch, u16 ? 16 : 8, &img, ctx->st))
    tfc_kernel_set_output(ctx, 0, img);
}

/* ---------------------------------------------------------------- BMP */

static int32_t le32(const uint8_t *p) {
  return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
}

/* Decodes an uncompressed 8/24/32-bit BMP into a new uint8 tensor. */
static bool bmp_decode(tfc_kernel_ctx *ctx, const uint8_t *d, size_t len, int channels,
                       tfc_tensor **out) {
  *out = NULL;
  if (len < 32)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "Incomplete bmp content, requires at least 32 bytes to find the header "
                           "size, width, height, and bpp, got %zu bytes",
                           len);
  int32_t offset = le32(d + 10), width = le32(d + 18), height = le32(d + 22);
  int bpp = d[28] | d[29] << 8;
  if (channels) {
    if (channels != bpp / 8)
      return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                             "channels attribute %d does not match bits per pixel from file %d",
                             channels, bpp / 8);
  } else {
    channels = bpp / 8;
  }
  if (channels != 1 && channels != 3 && channels != 4)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "Number of channels must be 1, 3 or 4, was %d", channels);
  if (width <= 0) return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Width must be positive");
  if (offset < 0)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "header size must be nonnegative");
  bool top_down = height < 0;
  int64_t h = top_down ? -(int64_t)height : height;
  if (h == 0) return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Height must be nonzero");
  if ((int64_t)width * h >= (int64_t)(0x7fffffff / 8))
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "Total possible pixel bytes must be less than 2^30");
  int64_t row = ((int64_t)8 * channels * width + 31) / 32 * 4;
  int64_t need = (int64_t)offset + (h - 1) * row + (int64_t)(width - 1) * channels + channels;
  if (need > (int64_t)len)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "Expected %lld bytes, but only %zu bytes available", (long long)need, len);
  int64_t dims[3] = {h, width, channels};
  tfc_tensor *t = tfc_tensor_new(TFC_DTYPE_UINT8, 3, dims, ctx->st);
  if (!t) return false;
  uint8_t *o = t->data;
  for (int64_t y = 0; y < h; y++) {
    const uint8_t *src = d + offset + (top_down ? y : h - 1 - y) * row;
    uint8_t *dst = o + y * width * channels;
    for (int64_t x = 0; x < width; x++, src += channels, dst += channels) {
      if (channels == 1) {
        dst[0] = src[0];
      } else {
        dst[0] = src[2];
        dst[1] = src[1];
        dst[2] = src[0];
        if (channels == 4) dst[3] = src[3];
      }
    }
  }
  *out = t;
  return true;
}

static void decode_bmp_compute(tfc_kernel_ctx *ctx) {
  const tfc_string *s = contents_input(ctx);
  if (!s) return;
  int ch = (int)attr_int(ctx, "channels", 0);
  if (ch != 0 && ch != 1 && ch != 3 && ch != 4) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "channels must be 0, 1, 3 or 4, got %d", ch);
    return;
  }
  tfc_tensor *img;
  if (bmp_decode(ctx, (const uint8_t *)s->data, s->len, ch, &img)) tfc_kernel_set_output(ctx, 0, img);
}

/* ---------------------------------------------------------------- DecodeImage */

/* Converts a uint8 / uint16 image to dtype as DecodeImage does; consumes img. */
static void convert_output(tfc_kernel_ctx *ctx, tfc_tensor *img, tfc_dtype dtype) {
  if (img->dtype == dtype) {
    tfc_kernel_set_output(ctx, 0, img);
    return;
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, dtype, img->rank, img->dims);
  if (out) {
    int64_t n = img->nelems;
    if (img->dtype == TFC_DTYPE_UINT8 && dtype == TFC_DTYPE_UINT16) {
      const uint8_t *s = img->data;
      uint16_t *d = out->data;
      for (int64_t i = 0; i < n; i++) d[i] = (uint16_t)(s[i] * 256u);
    } else if (img->dtype == TFC_DTYPE_UINT8) {
      const uint8_t *s = img->data;
      float *d = out->data, k = 1.0f / 255.0f;
      for (int64_t i = 0; i < n; i++) d[i] = (float)s[i] * k;
    } else {
      const uint16_t *s = img->data;
      float *d = out->data, k = 1.0f / 65535.0f;
      for (int64_t i = 0; i < n; i++) d[i] = (float)s[i] * k;
    }
  }
  tfc_tensor_unref(img);
}

static void decode_image_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *t = ctx->inputs[0];
  if (t->rank != 0) {
    char buf[128];
    shape_str(t, buf, sizeof buf);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "`contents` must be scalar but got shape%s", buf);
    return;
  }
  const tfc_string *s = t->data;
  const uint8_t *d = (const uint8_t *)s->data;
  int ch = (int)attr_int(ctx, "channels", 0);
  if (ch != 0 && ch != 1 && ch != 3 && ch != 4) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "`channels` must be 0, 1, 3 or 4 but got %d", ch);
    return;
  }
  if (s->len == 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Input is empty.");
    return;
  }
  tfc_dtype dtype = ctx->out_types[0];
  tfc_tensor *img = NULL;
  if (tfc_jpeg_is_jpeg(d, s->len)) {
    if (ch == 4) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "JPEG does not support 4 channels");
      return;
    }
    tfc_jpeg_decode_opts o = {ch, 1, true, false, 1.0f, true};
    if (!tfc_jpeg_decode(d, s->len, &o, &img, ctx->st)) return;
  } else if (tfc_png_is_png(d, s->len)) {
    if (!tfc_png_decode(d, s->len, ch, dtype == TFC_DTYPE_UINT8 ? 8 : 16, &img, ctx->st)) return;
  } else if (s->len >= 2 && d[0] == 'B' && d[1] == 'M') {
    if (!bmp_decode(ctx, d, s->len, ch, &img)) return;
  } else if (s->len >= 3 && memcmp(d, "GIF", 3) == 0) {
    tfc_kernel_fail(ctx, TFC_CODE_UNIMPLEMENTED, "GIF decoding is not supported by tfc");
    return;
  } else {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Unknown image file format. One of JPEG, PNG, GIF, BMP required.");
    return;
  }
  convert_output(ctx, img, dtype);
}

/* ---------------------------------------------------------------- encoders */

static void encode_jpeg_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *img = ctx->inputs[0];
  char buf[128];
  if (img->rank != 3) {
    shape_str(img, buf, sizeof buf);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "image must be 3-dimensional%s", buf);
    return;
  }
  int64_t quality = attr_int(ctx, "quality", 95);
  if (quality < 0 || quality > 100) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "quality must be in [0,100], got %lld",
                    (long long)quality);
    return;
  }
  tfc_string fmt = attr_str(ctx, "format");
  int64_t ch = img->dims[2];
  int want = str_is(fmt, "grayscale") ? 1 : str_is(fmt, "rgb") ? 3 : 0;
  shape_str(img, buf, sizeof buf);
  if (want == 0 && ch != 1 && ch != 3) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "image must have 1 or 3 channels, got %s", buf);
    return;
  }
  if (want != 0 && ch != want) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "format %s expects %d channels, got %s",
                    want == 1 ? "grayscale" : "rgb", want, buf);
    return;
  }
  if (img->dims[0] <= 0 || img->dims[1] <= 0 || img->dims[0] > 65535 || img->dims[1] > 65535) {
    tfc_kernel_fail(ctx, TFC_CODE_INTERNAL, "JPEG encoding failed");
    return;
  }
  tfc_string xmp = attr_str(ctx, "xmp_metadata");
  tfc_jpeg_encode_opts o = {(int)quality,
                            attr_bool(ctx, "progressive", false),
                            attr_bool(ctx, "optimize_size", false),
                            attr_bool(ctx, "chroma_downsampling", true),
                            str_is(attr_str(ctx, "density_unit"), "cm") ? 2 : 1,
                            (int)attr_int(ctx, "x_density", 300),
                            (int)attr_int(ctx, "y_density", 300),
                            xmp.data,
                            xmp.len};
  char *data;
  size_t len;
  if (tfc_jpeg_encode(img->data, img->dims[0], img->dims[1], (int)ch, &o, &data, &len, ctx->st))
    set_string_output(ctx, data, len);
}

static void encode_png_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *img = ctx->inputs[0];
  char buf[128];
  int64_t comp = attr_int(ctx, "compression", -1);
  if (comp < -1 || comp > 9) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "compression should be in [-1,9], got %lld",
                    (long long)comp);
    return;
  }
  if (img->rank != 3) {
    shape_str(img, buf, sizeof buf);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "image must be 3-dimensional%s", buf);
    return;
  }
  int64_t ch = img->dims[2];
  if (ch < 1 || ch > 4) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "image must have 1, 2, 3, or 4 channels, got %lld", (long long)ch);
    return;
  }
  if (img->dims[0] <= 0 || img->dims[1] <= 0 || img->dims[0] > 0x7fffffff ||
      img->dims[1] > 0x7fffffff) {
    tfc_kernel_fail(ctx, TFC_CODE_INTERNAL, "PNG encoding failed");
    return;
  }
  char *data;
  size_t len;
  int bits = img->dtype == TFC_DTYPE_UINT16 ? 16 : 8;
  if (tfc_png_encode(img->data, img->dims[0], img->dims[1], (int)ch, bits, (int)comp, &data, &len,
                     ctx->st))
    set_string_output(ctx, data, len);
}

/* ---------------------------------------------------------------- AdjustContrastv2 */

/* output = (x - mean) * factor + mean, the mean over height and width of each
 * image and channel (accumulated in double). */
static void adjust_contrast_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *in = ctx->inputs[0], *f = ctx->inputs[1];
  char buf[128];
  if (in->rank < 3) {
    shape_str(in, buf, sizeof buf);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "input must be at least 3-D, got shape%s", buf);
    return;
  }
  if (f->rank != 0) {
    shape_str(f, buf, sizeof buf);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "contrast_factor must be scalar: %s", buf);
    return;
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, in->dtype, in->rank, in->dims);
  if (!out || out->nelems == 0) return;
  float factor = *(const float *)f->data;
  int64_t ch = in->dims[in->rank - 1], hw = in->dims[in->rank - 2] * in->dims[in->rank - 3];
  int64_t batch = in->nelems / (hw * ch);
  bool half = in->dtype == TFC_DTYPE_HALF;
  double *mean = tfc_malloc(sizeof(double) * (size_t)ch);
  if (!mean) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in AdjustContrastv2");
    return;
  }
  for (int64_t b = 0; b < batch; b++) {
    int64_t base = b * hw * ch;
    for (int64_t c = 0; c < ch; c++) mean[c] = 0;
    for (int64_t i = 0; i < hw; i++)
      for (int64_t c = 0; c < ch; c++) {
        int64_t k = base + i * ch + c;
        mean[c] += half ? tfc_half_to_float(((const uint16_t *)in->data)[k]) : ((const float *)in->data)[k];
      }
    for (int64_t c = 0; c < ch; c++) mean[c] /= (double)hw;
    for (int64_t i = 0; i < hw; i++)
      for (int64_t c = 0; c < ch; c++) {
        int64_t k = base + i * ch + c;
        float m = (float)mean[c];
        if (half) {
          float x = tfc_half_to_float(((const uint16_t *)in->data)[k]);
          ((uint16_t *)out->data)[k] = tfc_float_to_half((x - m) * factor + m);
        } else {
          float x = ((const float *)in->data)[k];
          ((float *)out->data)[k] = (x - m) * factor + m;
        }
      }
  }
  tfc_free(mean);
}

/* ---------------------------------------------------------------- table */

static const tfc_kernel_def defs[] = {
    {"ReadFile", "CPU", NULL, NULL, NULL, tfc_image_read_file, NULL, 0},
    {"WriteFile", "CPU", NULL, NULL, NULL, tfc_image_write_file, NULL, 0},
    {"DecodeJpeg", "CPU", NULL, NULL, NULL, decode_jpeg_compute, NULL, 0},
    {"DecodePng", "CPU", NULL, NULL, NULL, decode_png_compute, NULL, 0},
    {"DecodeBmp", "CPU", NULL, NULL, NULL, decode_bmp_compute, NULL, 0},
    {"DecodeImage", "CPU", NULL, NULL, NULL, decode_image_compute, NULL, 0},
    {"EncodeJpeg", "CPU", NULL, NULL, NULL, encode_jpeg_compute, NULL, 0},
    {"EncodePng", "CPU", NULL, NULL, NULL, encode_png_compute, NULL, 0},
    {"ResizeBilinear", "CPU", NULL, NULL, NULL, tfc_image_resize_bilinear, NULL, 0},
    {"ResizeNearestNeighbor", "CPU", NULL, NULL, NULL, tfc_image_resize_nearest, NULL, 0},
    {"ResizeBicubic", "CPU", NULL, NULL, NULL, tfc_image_resize_bicubic, NULL, 0},
    {"AdjustContrastv2", "CPU", NULL, NULL, NULL, adjust_contrast_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_image = {defs, (int)(sizeof defs / sizeof defs[0])};
